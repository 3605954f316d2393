//! `pbrain-omok tune openings` end to end, with a scripted judge brain
//! (`tests/engines/misbehave.py judge`, which scores a position by its stones' x offsets).

use std::path::Path;
use std::process::Command;

use omok::Rule;
use omok::tournament::openings::parse_openings;

/// The scripted judge's score of an opening for the side to move, turned to black's view.
fn black_view(offsets: &[(i64, i64)]) -> i64 {
    let black: i64 = offsets.iter().step_by(2).map(|&(x, _)| x).sum();
    let white: i64 = offsets.iter().skip(1).step_by(2).map(|&(x, _)| x).sum();
    // Black to move after an even number of stones: the judge's own view is black's.
    20 * (black - white)
}

#[test]
fn judged_openings_are_within_the_margin_and_read_back_as_an_opening_file() {
    let judge = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.py");
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-omok"))
        .args(["tune", "openings", "--judge"])
        .arg(&judge)
        .args([
            "--count",
            "6",
            "--candidates",
            "60",
            "--margin",
            "40",
            "--turn-ms",
            "50",
        ])
        .args(["--seed", "3"])
        .env("MISBEHAVE_MODE", "judge")
        .output()
        .expect("pbrain-omok runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let openings = parse_openings(&text, 15, 15, Rule::Freestyle).expect("an opening file");
    assert_eq!(openings.len(), 6, "{text}");
    assert!(
        text.starts_with("# 6 openings for 15x15 freestyle"),
        "{text}"
    );
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (body, comment) = line.split_once('#').expect("a score comment");
        let numbers: Vec<i64> = body
            .split([',', ' '])
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().expect("an offset"))
            .collect();
        let offsets: Vec<(i64, i64)> = numbers.chunks(2).map(|p| (p[0], p[1])).collect();
        assert!(offsets.len() == 3 || offsets.len() == 5, "{line}");
        let score: i64 = comment.trim().parse().expect("a signed score");
        assert_eq!(score, black_view(&offsets), "{line}");
        assert!(score.abs() <= 40, "{line}");
    }
    // Some candidates were judged too far from even and left out.
    let summary = stderr.lines().last().unwrap_or("");
    let beyond: usize = summary
        .split(", ")
        .find_map(|part| part.strip_suffix(" beyond the margin"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no summary: {stderr}"));
    assert!(beyond > 0, "{summary}");
}

/// `pbrain-omok tune openings` with a judge that does not exist and `extra` arguments: it
/// fails; its stderr.
fn failing_run(extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-omok"))
        .args(["tune", "openings", "--judge", "/nonexistent/judge"])
        .args(extra)
        .output()
        .expect("pbrain-omok runs");
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_judge_that_cannot_start_is_a_clear_error() {
    let stderr = failing_run(&["--count", "2", "--candidates", "3"]);
    assert!(stderr.contains("3 failed"), "{stderr}");
    assert!(stderr.contains("no opening was kept"), "{stderr}");
}

#[test]
fn a_board_size_the_rules_do_not_allow_is_a_clear_error() {
    let stderr = failing_run(&["--size", "3"]);
    assert!(stderr.contains("--size 3"), "{stderr}");
}
