//! The Piskvork brain through the real binary (`pbrain-omok` with no arguments): scripted
//! sessions for every command with good and bad input, `YXSHOWFORBID` against the `forbid`
//! command's logic on the renju dev set, reproducible node-limited searches, `STOP`/`END` while
//! thinking, and a fuzz run of random lines that must never kill or desynchronise the brain.
//!
//! Nothing here asserts on wall-clock time: every read has a generous hang guard
//! ([`GUARD`]), and latencies are printed, not checked.
//!
//! Knobs (environment variables):
//! - `OMOK_PROTOCOL_FULL_DEV=1`: compare all 1000 dev-set positions (default: every 5th, 200).
//! - `OMOK_PROTOCOL_FUZZ_BATCHES`: batches of random lines in the fuzz run (default 40);
//!   `OMOK_PROTOCOL_FUZZ_SEED`: its seed (default fixed, so runs repeat).

mod common;

use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use omok::Rule;
use omok::batch::forbid_line;
use omok::rules::ForbidOptions;
use serde_json::Value;

/// Prints past the test harness's capture, so the figures show in every run.
macro_rules! report {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// The longest any single answer may take before the test calls the brain hung.
const GUARD: Duration = Duration::from_secs(20);

/// A running brain.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn new() -> Session {
        let (child, stdin, lines) = common::spawn_binary(&[]);
        let stdin = Some(stdin);
        Session {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        for line in text.lines() {
            writeln!(stdin, "{line}").expect("brain alive");
        }
        stdin.flush().expect("brain alive");
    }

    /// The next line, or a failure if none comes within [`GUARD`].
    fn line(&mut self) -> String {
        match self.lines.recv_timeout(GUARD) {
            Ok(l) => l,
            Err(_) => panic!("the brain died or gave no answer within {GUARD:?}"),
        }
    }

    /// The next line that is not a thinking `MESSAGE`.
    fn answer(&mut self) -> String {
        loop {
            let l = self.line();
            if !l.starts_with("MESSAGE depth") {
                return l;
            }
        }
    }

    fn ask(&mut self, text: &str) -> String {
        self.send(text);
        self.answer()
    }

    /// Sends `END` and waits for the process to exit; returns how long that took.
    fn end(mut self) -> Duration {
        let start = Instant::now();
        self.send("END");
        wait_exit(self.child);
        start.elapsed()
    }
}

/// Waits (with the hang guard) for a successful exit.
fn wait_exit(mut child: Child) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let status = rx
        .recv_timeout(GUARD)
        .expect("the brain did not exit")
        .expect("wait");
    assert!(status.success(), "exit status {status}");
}

fn is_move(s: &str) -> Option<(usize, usize)> {
    let (x, y) = s.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

fn about(s: &str) -> bool {
    s.starts_with("name=\"omok\", version=\"") && s.contains("author=") && s.contains("country=")
}

#[test]
fn a_session_with_every_game_command() {
    let mut s = Session::new();
    assert!(about(&s.ask("ABOUT")));
    s.send("INFO timeout_turn 300\nINFO timeout_match 100000\nINFO max_memory 350000000\nINFO game_type 1");
    s.send("INFO rule 0\nINFO time_left 100000\nINFO folder /tmp/x\nINFO evaluate 3,3\nINFO show_detail 0");
    assert_eq!(s.ask("START 15"), "OK");
    assert_eq!(s.ask("BEGIN"), "7,7");
    let m = s.ask("TURN 8,8");
    assert!(is_move(&m).is_some(), "{m}");
    assert_ne!(m, "7,7");
    assert_ne!(m, "8,8");
    assert_eq!(s.ask(&format!("TAKEBACK {m}")), "OK");
    assert_eq!(s.ask("TAKEBACK 8,8"), "OK");
    assert_eq!(s.ask("PLAY 8,8"), "8,8");
    assert_eq!(s.ask("RESTART"), "OK");
    assert_eq!(s.ask("RECTSTART 20,15"), "OK");
    let m = s.ask("BOARD\n10,7,2\n11,7,1\n10,8,2\nDONE");
    let (x, y) = is_move(&m).unwrap_or_else(|| panic!("{m}"));
    assert!(x < 20 && y < 15);
    assert_eq!(s.ask("START 20"), "OK");
    assert_eq!(s.ask("TURN 19,19").split(',').count(), 2);
    assert!(
        s.ask("UNKNOWNCOMMAND 1 2")
            .starts_with("UNKNOWN UNKNOWNCOMMAND 1 2")
    );
    let elapsed = s.end();
    report!("END exited after {elapsed:?}");
}

#[test]
fn keywords_any_case_crlf_and_blank_lines() {
    let mut s = Session::new();
    s.send("info show_detail 0\r\n\r\n  \r\nINFO timeout_turn 200\r\nstart 15\r\n");
    assert_eq!(s.answer(), "OK");
    s.send("begin\r\n");
    assert_eq!(s.answer(), "7,7");
    s.send("Board\r\n7,7,2\r\n\r\n8,8,1\r\n7,8,2\r\ndone\r\n");
    assert!(is_move(&s.answer()).is_some());
    s.send("yxshowforbid\r\nabout\r\n");
    assert_eq!(s.answer(), "FORBID .");
    assert!(about(&s.answer()));
    s.end();
}

#[test]
fn info_keys_and_deferred_errors() {
    let mut s = Session::new();
    for info in [
        "INFO timeout_turn 1000",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
        "INFO max_memory 0",
        "INFO game_type 2",
        "INFO rule 1",
        "INFO evaluate 1,1",
        "INFO folder C:/folder with spaces",
        "INFO thread_num 1",
        "INFO hash_size 1024",
        "INFO max_depth 3",
        "INFO max_node 5000",
        "INFO show_detail 0",
        "INFO pondering 0",
        "INFO strength 100",
        "INFO omok_rule casual-33-44",
        "INFO caution_factor 4",
        "INFO something_new whatever",
    ] {
        s.send(info);
    }
    assert!(
        about(&s.ask("ABOUT")),
        "good and unknown INFO keys answer nothing"
    );
    s.send("INFO timeout_turn fast\nINFO rule 16\nINFO omok_rule chess\nINFO strength 101\nINFO");
    s.send("START 15");
    for key in ["timeout_turn", "rule", "omok_rule", "strength"] {
        let l = s.line();
        assert!(l.starts_with(&format!("ERROR INFO {key} ")), "{l}");
    }
    assert!(s.line().starts_with("ERROR INFO needs"));
    assert_eq!(s.line(), "OK");
    // The bad values changed nothing: the rule is still casual-33-44, where 3-3 is forbidden for
    // white too. White (own, one stone fewer) is to move with SPEC example A's shape.
    s.send("YXBOARD\n5,7,1\n0,0,2\n6,7,1\n14,14,2\n7,6,1\n0,14,2\n7,5,1\n14,0,2\n14,7,2\nDONE");
    let forbid = s.ask("YXSHOWFORBID");
    assert!(forbid.contains("0707"), "{forbid}");
    s.end();
}

#[test]
fn bad_input_answers_error_and_keeps_the_position() {
    let mut s = Session::new();
    assert!(s.ask("TURN 7,7").starts_with("ERROR TURN before START"));
    s.send("INFO show_detail 0\nINFO timeout_turn 200\nINFO rule 4");
    assert_eq!(s.ask("START 15"), "OK");
    // SPEC example A with black to move: H8 = 7,7 is a double three.
    let board = "5,7,1\n0,0,2\n6,7,1\n14,14,2\n7,6,1\n0,14,2\n7,5,1\n14,0,2";
    s.send(&format!("YXBOARD\n{board}\nDONE"));
    let forbid = s.ask("YXSHOWFORBID");
    assert!(forbid.contains("0707"), "{forbid}");
    for bad in [
        "TURN 5,7",       // occupied
        "TURN 15,3",      // off the board
        "TURN -1,0",      // off the board
        "TURN 3",         // malformed
        "TURN a,b",       // malformed
        "TAKEBACK 3,3",   // no stone there
        "PLAY 0,0",       // occupied
        "START 99",       // unsupported size
        "RECTSTART 3,40", // unsupported size
        "BOARD\n0,0,1\n1,0,1\n2,0,1\n3,0,1\n4,0,1\n9,9,2\n9,10,2\n9,11,2\n9,12,2\n9,13,2\nDONE", // fives
        "BOARD\n7,7,1\n8,8,1\n9,9,1\nDONE", // impossible counts
        "BOARD\n7,7,1\n7,7,2\nDONE",        // listed twice
        "BOARD\n7,7,1\n8,8,9\nDONE",        // bad field
        "YXBOARD\n7,7,1\n30,30,2\nDONE",    // off the board
        "SWAP2BOARD\n7,7\n8,8\nDONE",       // two stones
        "DONE",                             // no block
        "4,4,1",                            // stone line outside a block
        "BEGIN now",                        // extra argument
    ] {
        let answer = s.ask(bad);
        assert!(answer.starts_with("ERROR "), "{bad:?}: {answer}");
        assert!(
            !answer[6..].trim().is_empty(),
            "{bad:?}: the message says what is wrong"
        );
        assert_eq!(
            s.ask("YXSHOWFORBID"),
            forbid,
            "{bad:?} changed the position"
        );
    }
    // A BOARD cut short by another command: an error, then that command's answer; position kept.
    s.send("BOARD\n7,7,1");
    let cut = s.ask("YXSHOWFORBID");
    assert!(cut.starts_with("ERROR BOARD was not closed"), "{cut}");
    assert_eq!(s.answer(), forbid);
    // Black (the side to move) never gets a forbidden point from the engine.
    let m = s.ask("YXNBEST 1");
    assert_ne!(m, "7,7");
    s.end();
}

#[test]
fn yx_extensions() {
    let mut s = Session::new();
    s.send("YXSHOWINFO");
    assert!(s.line().starts_with("MESSAGE INFO MAX_THREAD_NUM "));
    assert!(s.line().starts_with("MESSAGE INFO MAX_HASH_SIZE "));
    // Node-limited searches from a clear table, so the same question gets the same answer.
    s.send("INFO show_detail 0\nINFO timeout_turn 600000\nINFO max_node 2000\nSTART 15\nYXHASHCLEAR\nYXSTOP\nSTOP");
    assert_eq!(
        s.answer(),
        "OK",
        "YXHASHCLEAR and an idle STOP answer nothing"
    );
    s.send("YXBOARD\n7,7,1\n8,8,2\nDONE");
    let best = s.ask("YXNBEST 3");
    assert!(is_move(&best).is_some(), "{best}");
    assert_eq!(s.ask("TURN 7,7"), "ERROR point (7,7) is already occupied");
    s.send(&format!("YXBLOCK\n{best}\nDONE"));
    assert_ne!(s.ask("YXNBEST 1"), best, "a blocked point is not played");
    s.send("YXBLOCKRESET\nYXHASHCLEAR");
    assert_eq!(s.ask("YXNBEST 1"), best);
    s.end();
}

#[test]
fn swap2board_in_every_case() {
    let mut s = Session::new();
    s.send("INFO show_detail 0\nINFO timeout_turn 300\nINFO rule 1\nSTART 15");
    assert_eq!(s.answer(), "OK");
    let three = s.ask("SWAP2BOARD\nDONE");
    let stones: Vec<_> = three.split(' ').map(is_move).collect();
    assert_eq!(stones.len(), 3, "{three}");
    assert!(
        stones
            .iter()
            .all(|m| m.is_some_and(|(x, y)| x.abs_diff(7) <= 2 && y.abs_diff(7) <= 2))
    );
    let answer = s.ask(&format!("SWAP2BOARD\n{}\nDONE", three.replace(' ', "\n")));
    let n = answer.split(' ').filter(|m| is_move(m).is_some()).count();
    assert!(answer == "SWAP" || n == 1 || n == 2, "{answer}");
    assert_eq!(
        s.ask("SWAP2BOARD\n7,7\n0,14\n8,8\nDONE"),
        "SWAP",
        "a strong black shape is taken"
    );
    let five = s.ask("SWAP2BOARD\n7,7\n8,7\n9,9\n8,8\n8,6\nDONE");
    assert!(five == "SWAP" || is_move(&five).is_some(), "{five}");
    s.end();
}

#[test]
fn node_limited_searches_are_reproducible_after_restart() {
    let mut s = Session::new();
    s.send("INFO timeout_turn 600000\nINFO max_node 3000\nINFO show_detail 1\nSTART 15");
    assert_eq!(s.answer(), "OK");
    let board = "BOARD\n7,7,2\n8,8,1\n8,7,2\n6,7,1\n9,6,2\nDONE";
    let run = |s: &mut Session| {
        s.send(board);
        let mut messages = Vec::new();
        loop {
            let l = s.line();
            if !l.starts_with("MESSAGE") {
                return (l, messages);
            }
            // Everything but the time and the speed must repeat.
            let kept: Vec<&str> = l.split(' ').collect();
            messages.push(format!(
                "{} {} {} {}",
                kept[2],
                kept[4],
                kept[6],
                kept[11..].join(" ")
            ));
        }
    };
    let first = run(&mut s);
    assert_eq!(s.ask("RESTART"), "OK");
    let second = run(&mut s);
    assert!(is_move(&first.0).is_some(), "{first:?}");
    assert_eq!(first, second);
    s.end();
}

#[test]
fn stop_and_end_act_while_thinking() {
    let mut s = Session::new();
    // No limits at all: the search would think for the engine's default of several seconds.
    s.send("INFO timeout_turn 2147483647\nINFO timeout_match 0\nINFO show_detail 1\nSTART 15");
    assert_eq!(s.answer(), "OK");
    s.send("TURN 7,7");
    assert!(
        s.line().starts_with("MESSAGE depth"),
        "the search has started"
    );
    let start = Instant::now();
    s.send("YXSTOP");
    let m = s.answer();
    report!("YXSTOP answered after {:?}", start.elapsed());
    assert!(is_move(&m).is_some(), "{m}");
    s.send("TURN 3,3");
    assert!(s.line().starts_with("MESSAGE depth"));
    let elapsed = s.end();
    report!("END while thinking exited after {elapsed:?}");
}

#[test]
fn end_of_input_ends_the_brain() {
    let mut s = Session::new();
    assert_eq!(s.ask("START 15"), "OK");
    drop(s.stdin.take());
    wait_exit(s.child);
}

// ---- YXSHOWFORBID against the forbid command on the renju dev set ----

fn forbid_answer(points: &[Value]) -> String {
    let mut s = String::from("FORBID ");
    for p in points {
        s.push_str(&format!(
            "{:02}{:02}",
            p["x"].as_u64().unwrap(),
            p["y"].as_u64().unwrap()
        ));
    }
    s.push('.');
    s
}

#[test]
fn yxshowforbid_matches_the_forbid_command_on_the_renju_dev_set() {
    let path = format!(
        "{}/tests/data/renju-forbid-dev.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let step = if std::env::var("OMOK_PROTOCOL_FULL_DEV").is_ok_and(|v| v == "1") {
        1
    } else {
        5
    };
    let mut s = Session::new();
    s.send("INFO rule 4\nSTART 15");
    assert_eq!(s.answer(), "OK");
    let mut compared = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()).step_by(step) {
        let case: Value = serde_json::from_str(line).unwrap();
        let want: Value =
            serde_json::from_str(&forbid_line(line, Rule::Renju, ForbidOptions::default()))
                .unwrap();
        let want = forbid_answer(want["forbidden"].as_array().expect("a judged position"));
        // Black is to move in every dev position (equal counts): black = own (1), white = 2.
        let mut block = String::from("YXBOARD\n");
        for (color, field) in [("black", 1), ("white", 2)] {
            for p in case[color].as_array().unwrap() {
                block.push_str(&format!("{},{},{field}\n", p[0], p[1]));
            }
        }
        block.push_str("DONE\nYXSHOWFORBID");
        assert_eq!(s.ask(&block), want, "{}", case["id"]);
        compared += 1;
    }
    report!("YXSHOWFORBID matched the forbid command on {compared} dev positions");
    assert_eq!(compared, 1000 / step);
    s.end();
}

// ---- random lines ----

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn number(&mut self) -> String {
        match self.below(8) {
            0 => "2147483647".into(),
            1 => "-3".into(),
            2 => "x".into(),
            3 => String::new(),
            _ => self.below(22).to_string(),
        }
    }

    fn line(&mut self) -> String {
        const KEYWORDS: &[&str] = &[
            "START",
            "start",
            "RECTSTART",
            "RESTART",
            "BEGIN",
            "TURN",
            "turn",
            "BOARD",
            "YXBOARD",
            "SWAP2BOARD",
            "YXBLOCK",
            "DONE",
            "ABOUT",
            "TAKEBACK",
            "PLAY",
            "YXSHOWFORBID",
            "YXNBEST",
            "STOP",
            "YXSTOP",
            "YXHASHCLEAR",
            "YXSHOWINFO",
            "YXBLOCKRESET",
            "SUGGEST",
            "HELLO",
        ];
        const INFO_KEYS: &[&str] = &[
            "timeout_turn",
            "timeout_match",
            "time_left",
            "game_type",
            "rule",
            "evaluate",
            "folder",
            "max_depth",
            "show_detail",
            "pondering",
            "strength",
            "caution_factor",
        ];
        const JUNK: &[&str] = &[
            "",
            "   ",
            "\t",
            ",,,",
            "7,,7",
            "é,ü",
            "INFO",
            "-",
            "+1,+1,+1",
            "1,2,3,4",
            "\u{1b}[0m",
        ];
        match self.below(12) {
            0..=3 => {
                let arg = match self.below(3) {
                    0 => String::new(),
                    1 => self.number(),
                    _ => format!("{},{}", self.number(), self.number()),
                };
                format!("{} {arg}", self.pick(KEYWORDS))
            }
            4..=6 => format!("{},{},{}", self.below(17), self.below(17), self.below(5)),
            7 => format!("{},{}", self.below(17), self.below(17)),
            8 | 9 => format!("INFO {} {}", self.pick(INFO_KEYS), self.number()),
            10 => {
                let rule = self.pick(&[
                    "renju",
                    "korean",
                    "casual",
                    "casual-44",
                    "casual-33-44",
                    "caro",
                    "freestyle",
                ]);
                format!("INFO omok_rule {rule}")
            }
            _ => self.pick(JUNK).to_string(),
        }
    }
}

#[test]
fn random_lines_never_kill_or_desync_the_brain() {
    let batches: usize = std::env::var("OMOK_PROTOCOL_FUZZ_BATCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let seed = std::env::var("OMOK_PROTOCOL_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x6f6d_6f6b);
    let mut rng = Rng(seed);
    let mut s = Session::new();
    for batch in 0..batches {
        let lines: Vec<String> = (0..15).map(|_| rng.line()).collect();
        // Keep every search short and bounded by nodes.
        s.send("INFO max_node 400\nINFO thread_num 1");
        for l in &lines {
            s.send(l);
        }
        // ABOUT closes any open block and flushes deferred errors; the unknown command after it is
        // echoed with a token no random line can produce. Read up to that echo.
        let token = format!("SYNC-{batch}-{}", rng.next());
        s.send(&format!("ABOUT\n{token}"));
        let mut seen = Vec::new();
        loop {
            let l = s.line();
            if l == format!("UNKNOWN {token}") {
                break;
            }
            seen.push(l);
            assert!(
                seen.len() < 200,
                "batch {batch}: runaway output for {lines:?}"
            );
        }
        // Now the brain must be exactly in step: each probe gets exactly its own answer.
        let ctx = || format!("batch {batch} after {lines:?}");
        assert_eq!(s.ask("START 15"), "OK", "{}", ctx());
        let m = s.ask("BOARD\n7,7,2\nDONE");
        assert!(is_move(&m).is_some_and(|p| p != (7, 7)), "{m}: {}", ctx());
        assert_eq!(s.ask("YXSHOWFORBID"), "FORBID .", "{}", ctx());
        assert!(about(&s.ask("ABOUT")), "{}", ctx());
    }
    report!("{batches} batches of 15 random lines: the brain stayed alive and in step");
    s.end();
}

/// The peak resident memory of a running process (`VmHWM`), in bytes.
#[cfg(target_os = "linux")]
fn peak_memory(child: &Child) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace()
        .nth(1)
        .unwrap()
        .parse::<u64>()
        .unwrap()
        * 1024
}

/// A manager's `START`, then `INFO max_memory`, then searches: the brain's peak memory stays
/// under the limit from its start (its tables are made for the first search, at the size the
/// limit allows), and a limit it cannot meet gets `ERROR`.
#[cfg(target_os = "linux")]
#[test]
fn the_peak_memory_stays_under_max_memory() {
    let limit = 40_000_000u64;
    let mut s = Session::new();
    assert_eq!(s.ask("START 15"), "OK");
    s.send(&format!(
        "INFO max_memory {limit}\nINFO timeout_turn 5000\nINFO max_node 30000\nINFO thread_num 4"
    ));
    assert!(is_move(&s.ask("BEGIN")).is_some());
    assert!(is_move(&s.ask("TURN 8,8")).is_some());
    assert_eq!(s.ask("RESTART"), "OK");
    assert!(is_move(&s.ask("BEGIN")).is_some());
    let peak = peak_memory(&s.child);
    report!(
        "peak resident memory {} KiB, limit {} KiB",
        peak >> 10,
        limit >> 10
    );
    assert!(peak < limit, "peak {peak} bytes, max_memory {limit}");
    // (INFO has no answer of its own: the ERROR comes before the next command's.)
    let answer = s.ask("INFO max_memory 20000000\nABOUT");
    assert!(answer.starts_with("ERROR INFO max_memory"), "{answer}");
    s.end();
}
