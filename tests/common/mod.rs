//! Helpers shared by the integration tests: boards from renju-notation stone lists and from
//! ASCII diagrams.
#![allow(dead_code)]

use omok::{Board, Color, Pos, Rule};

/// A point in renju notation on a board of `height` rows: column letter a.. (i included), row
/// counted from the bottom. `h8` on 15×15 is (7,7).
pub fn renju(s: &str, height: usize) -> Pos {
    let s = s.trim().to_ascii_lowercase();
    let x = (s.as_bytes()[0] - b'a') as usize;
    let row: usize = s[1..].parse().expect("row number");
    Pos::new(x, height - row).expect("point on the largest board")
}

/// A 15×15 board of `rule` with the given black and white stones in renju notation.
pub fn board(rule: Rule, black: &str, white: &str) -> Board {
    let mut b = Board::square(15, rule).unwrap();
    for (list, color) in [(black, Color::Black), (white, Color::White)] {
        for tok in list.split_whitespace() {
            b.place(renju(tok, 15), color).unwrap();
        }
    }
    b
}

/// A board drawn as text, one row per line from the top: `X` black, `O` white, anything else
/// empty. Returns the board and the points marked with each other character, by character.
pub fn diagram(rule: Rule, text: &str) -> (Board, Vec<(char, Pos)>) {
    let rows: Vec<Vec<char>> = text
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let (w, h) = (rows[0].len(), rows.len());
    let mut b = Board::new(w, h, rule).unwrap();
    let mut marks = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), w, "ragged diagram row {y}");
        for (x, &ch) in row.iter().enumerate() {
            let p = Pos::new(x, y).unwrap();
            match ch {
                'X' => b.place(p, Color::Black).unwrap(),
                'O' => b.place(p, Color::White).unwrap(),
                '.' => {}
                other => marks.push((other, p)),
            }
        }
    }
    (b, marks)
}

/// `pbrain-omok` started with `args`, its stdin piped and its stdout read line by line on a thread
/// into the returned channel (which closes when the process ends).
pub fn spawn_binary(
    args: &[&str],
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::sync::mpsc::Receiver<String>,
) {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-omok"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start pbrain-omok");
    let stdout = child.stdout.take().expect("piped stdout");
    let stdin = child.stdin.take().expect("piped stdin");
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, stdin, lines)
}

/// Runs `pbrain-omok ARGS` to completion with `input` on stdin and returns its output.
pub fn run_binary(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-omok"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-omok");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("pbrain-omok output")
}

/// The lines the brain answers to a script. No `END`: the end of input waits for the last
/// answer, where `END` would end the process shortly after it (the searches may be slow on a busy
/// machine).
pub fn brain_lines(input: &str) -> Vec<String> {
    let out = run_binary(&[], input);
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// A fresh folder under the system's temporary folder, removed with everything in it when the
/// value is dropped (at the end of the test that made it).
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    /// `omok-<name>-<process id>`, emptied if a killed run left it behind.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("omok-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// The folder.
    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
