//! `pbrain-omok forbid` as a process: batch JSON lines, an interactive frontend that keeps the
//! process open and waits for each answer, the ASCII view, and bad arguments.

mod common;

use std::io::Write;
use std::process::Command;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-omok");

#[test]
fn answers_each_line_while_stdin_stays_open() {
    let (mut child, mut stdin, rx) = common::spawn_binary(&["forbid", "--rule", "renju"]);
    let queries = [
        (
            r#"{"black":[[5,7],[6,7],[7,6],[7,5]],"white":[[0,0],[14,14],[0,14],[14,0]]}"#,
            "double-three",
        ),
        ("{bad json", "error"),
        (r#"{"black":[[7,7]],"white":[]}"#, r#"{"forbidden":[]}"#),
    ];
    for (query, want) in queries {
        writeln!(stdin, "{query}").unwrap();
        stdin.flush().unwrap();
        // A guard against a hang, not a timing assertion: the answer must come before EOF.
        let got = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("an answer while stdin is open");
        assert!(got.contains(want), "{query} -> {got}");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn draws_a_move_list_and_rejects_bad_arguments() {
    let out = Command::new(BIN)
        .args([
            "forbid",
            "--rule",
            "renju",
            "--moves",
            "f8 a1 g8 a2 h9 a3 h10 a4",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(
        text.contains("forbidden for black: h8 double-three"),
        "{text}"
    );

    let out = Command::new(BIN)
        .args(["forbid", "--rule", "pente"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: unknown rule 'pente'"), "{err}");
    assert!(!err.contains("backtrace"), "{err}");

    let out = Command::new(BIN)
        .args(["forbid", "--moves", "h8 h8"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("already occupied")
    );
}
