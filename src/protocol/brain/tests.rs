//! Unit tests of the brain without processes: scripted sessions into a `Vec<u8>`, and a
//! property test over random lines (no panic, errors change nothing, answer counts as the module
//! doc promises). Searches run on a [`FakeClock`] with `timeout_turn 0` or a node limit, so every
//! answer is deterministic. `OMOK_PROPTEST_CASES` sets the number of random cases (default 48).

use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

use super::*;
use crate::params::Params;
use crate::rule::Rule;
use crate::time::FakeClock;

fn brain() -> Brain<Vec<u8>> {
    let engine = Engine::new(Params::default(), Arc::new(FakeClock::default()));
    let mut b = Brain::new(engine, Vec::new());
    send(
        &mut b,
        "INFO show_detail 0\nINFO timeout_turn 0\nINFO hash_size 64",
    );
    b
}

/// Sends the lines and returns the answer lines they produced.
fn send(b: &mut Brain<Vec<u8>>, lines: &str) -> Vec<String> {
    for line in lines.lines() {
        b.handle_line(line).unwrap();
    }
    let out = std::mem::take(&mut b.out);
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn history(b: &Brain<Vec<u8>>) -> Vec<(Pos, Color)> {
    b.engine().board().history().to_vec()
}

fn p(x: usize, y: usize) -> Pos {
    Pos::new(x, y).unwrap()
}

#[test]
fn a_plain_game() {
    let mut b = brain();
    assert_eq!(send(&mut b, "START 15"), ["OK"]);
    assert_eq!(send(&mut b, "BEGIN"), ["7,7"]);
    let out = send(&mut b, "TURN 8,8");
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(b.engine().board().move_count(), 3);
    assert_eq!(send(&mut b, "RESTART"), ["OK"]);
    assert_eq!(b.engine().board().move_count(), 0);
    assert_eq!(send(&mut b, "RECTSTART 20,10"), ["OK"]);
    assert_eq!(
        (b.engine().board().width(), b.engine().board().height()),
        (20, 10)
    );
    assert!(send(&mut b, "ABOUT")[0].starts_with("name=\"omok\""));
    assert_eq!(send(&mut b, "PLAY 3,3"), ["3,3"]);
    assert_eq!(send(&mut b, "TAKEBACK 3,3"), ["OK"]);
    assert_eq!(b.engine().board().move_count(), 0);
    assert_eq!(send(&mut b, "END"), Vec::<String>::new());
    assert_eq!(b.handle_line("end").unwrap(), Flow::Quit);
}

#[test]
fn bad_input_answers_error_and_changes_nothing() {
    let mut b = brain();
    let out = send(&mut b, "TURN 7,7");
    assert!(out[0].starts_with("ERROR TURN before START"), "{out:?}");
    send(&mut b, "START 15\nTURN 7,7");
    let before = history(&b);
    for bad in [
        "TURN 7,7",
        "TURN 15,3",
        "TURN -1,0",
        "TURN 7",
        "TURN",
        "TAKEBACK 1,1",
        "START 4",
        "RECTSTART 40,10",
        "PLAY 7,7",
        "DONE",
        "3,3,1",
    ] {
        let out = send(&mut b, bad);
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("ERROR "), "{bad}: {out:?}");
        assert_eq!(history(&b), before, "{bad}");
    }
    assert_eq!(send(&mut b, "YXSHOWFORBID"), ["FORBID ."]);
    assert_eq!(send(&mut b, "FOO bar"), ["UNKNOWN FOO bar"]);
}

#[test]
fn board_sets_the_side_to_move_from_the_counts() {
    let mut b = brain();
    send(&mut b, "START 15");
    // Two own, two opponent stones: the brain is black.
    let out = send(&mut b, "BOARD\n7,7,1\n8,8,2\n7,8,1\n9,9,2\nDONE");
    assert_eq!(out.len(), 1, "{out:?}");
    let h = history(&b);
    assert_eq!(h.len(), 5);
    assert_eq!(h[0], (p(7, 7), Color::Black));
    assert_eq!(h[4].1, Color::Black);
    // One own, two opponent: the brain is white.
    send(&mut b, "BOARD\n7,7,2\n8,8,1\n9,9,2\nDONE");
    assert_eq!(history(&b)[3].1, Color::White);
    let before = history(&b);
    for bad in [
        "BOARD\n7,7,1\n8,8,1\nDONE",     // impossible counts
        "BOARD\n7,7,1\n7,7,2\nDONE",     // listed twice
        "BOARD\n7,7,1\n20,8,2\nDONE",    // off the board
        "BOARD\n7,7,1\n8,8\nDONE",       // no field
        "BOARD\n7,7,1\nxx\n8,8,2\nDONE", // spoiled
        "BOARD\n0,0,2\n1,0,2\n2,0,2\n3,0,2\n4,0,2\n0,5,1\n1,5,1\n2,5,1\n3,5,1\nDONE", // a five
    ] {
        let out = send(&mut b, bad);
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("ERROR BOARD"), "{bad}: {out:?}");
        assert_eq!(history(&b), before, "{bad}");
    }
    // A block cut short by another command: an error, then that command's answer.
    let out = send(&mut b, "BOARD\n7,7,1\nABOUT");
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].starts_with("ERROR BOARD was not closed"));
    assert!(out[1].starts_with("name="));
    assert_eq!(history(&b), before);
}

#[test]
fn yxboard_sets_the_position_silently_and_board_before_start_fails() {
    let mut b = brain();
    let out = send(&mut b, "YXBOARD\n7,7,1\nDONE");
    assert!(out[0].starts_with("ERROR YXBOARD before START"), "{out:?}");
    send(&mut b, "START 15");
    assert!(send(&mut b, "YXBOARD\n7,7,1\n8,8,2\nDONE").is_empty());
    assert_eq!(history(&b).len(), 2);
}

#[test]
fn info_errors_are_reported_before_the_next_answer() {
    let mut b = brain();
    let out = send(
        &mut b,
        "INFO timeout_turn soon\nINFO strength 500\nINFO unknown_key 3",
    );
    assert!(out.is_empty(), "{out:?}");
    let out = send(&mut b, "START 15");
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[0].starts_with("ERROR INFO timeout_turn 'soon'"));
    assert!(out[1].starts_with("ERROR INFO strength"));
    assert_eq!(out[2], "OK");
    assert_eq!(
        b.settings().time.turn_ms,
        0,
        "the bad value did not replace the old one"
    );
    send(
        &mut b,
        "INFO strength 30\nINFO thread_num 2\nINFO max_node 500\nINFO omok_rule korean",
    );
    assert_eq!(b.engine().strength(), 30);
    assert_eq!(b.engine().threads(), 2);
    assert_eq!(b.settings().max_nodes, Some(500));
    assert_eq!(b.engine().rule(), Rule::Korean);
    send(&mut b, "INFO rule 4");
    assert_eq!(b.engine().rule(), Rule::Renju);
    let out = send(&mut b, "INFO max_memory 1000\nABOUT");
    assert!(out[0].starts_with("ERROR INFO max_memory"), "{out:?}");
}

#[test]
fn yxshowforbid_lists_the_renju_points_of_the_side_to_move() {
    let mut b = brain();
    send(&mut b, "INFO rule 4\nSTART 15");
    // SPEC example A: black F8 G8 H9 H10 = (5,7) (6,7) (7,6) (7,5); H8 = (7,7) is a double three.
    send(
        &mut b,
        "YXBOARD\n5,7,1\n0,0,2\n6,7,1\n14,14,2\n7,6,1\n0,14,2\n7,5,1\n14,0,2\nDONE",
    );
    let out = send(&mut b, "YXSHOWFORBID");
    assert!(
        out[0].starts_with("FORBID ") && out[0].ends_with('.'),
        "{out:?}"
    );
    assert!(out[0].contains("0707"), "{out:?}");
    // White to move: nothing is forbidden for white.
    send(
        &mut b,
        "YXBOARD\n5,7,2\n0,0,1\n6,7,2\n14,14,1\n7,6,2\n0,14,1\n7,5,2\nDONE",
    );
    assert_eq!(send(&mut b, "YXSHOWFORBID"), ["FORBID ."]);
}

#[test]
fn markers_and_yxblock_points_are_never_played() {
    let mut b = brain();
    send(&mut b, "START 15");
    // 7,7 would be the engine's answer on an otherwise empty board; mark it.
    let out = send(&mut b, "BOARD\n7,7,3\nDONE");
    assert_eq!(out.len(), 1);
    assert_ne!(out[0], "7,7");
    assert_eq!(b.markers(), [p(7, 7)]);
    let out = send(&mut b, "TURN 7,7");
    assert!(
        out[0].starts_with("ERROR point (7,7) holds a continuous-game marker"),
        "{out:?}"
    );
    send(&mut b, "RESTART\nYXBLOCK\n7,7\nDONE");
    assert_ne!(send(&mut b, "BEGIN"), ["7,7"]);
    send(&mut b, "RESTART\nYXBLOCKRESET");
    assert_eq!(send(&mut b, "BEGIN"), ["7,7"]);
}

#[test]
fn yx_queries_and_stop() {
    let mut b = brain();
    let out = send(&mut b, "YXSHOWINFO");
    assert_eq!(out.len(), 2);
    assert!(out[0].starts_with("MESSAGE INFO MAX_THREAD_NUM "));
    assert!(out[1].starts_with("MESSAGE INFO MAX_HASH_SIZE "));
    assert!(send(&mut b, "YXHASHCLEAR\nSTOP\nYXSTOP").is_empty());
    send(&mut b, "START 15\nTURN 7,7");
    let before = history(&b);
    let out = send(&mut b, "YXNBEST 2");
    assert!(!out.last().unwrap().starts_with("MESSAGE"), "{out:?}");
    assert_eq!(history(&b), before, "YXNBEST does not play its move");
}

#[test]
fn yxnbest_lists_the_best_moves() {
    let mut b = brain();
    send(
        &mut b,
        "INFO show_detail 1\nINFO timeout_turn 100000\nINFO max_node 40000\nSTART 15\nTURN 7,7",
    );
    let before = history(&b);
    let out = send(&mut b, "YXNBEST 3");
    let nbest: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("MESSAGE NBEST "))
        .collect();
    assert_eq!(nbest.len(), 3, "{out:?}");
    let mut points: Vec<&str> = nbest.iter().map(|l| l.split(' ').nth(3).unwrap()).collect();
    points.sort();
    points.dedup();
    assert_eq!(points.len(), 3, "three different moves: {out:?}");
    assert!(out.last().unwrap().split(',').count() == 2, "{out:?}");
    assert_eq!(history(&b), before);
    // Multi-PV is for YXNBEST only: the next TURN answers just a move.
    let out = send(&mut b, "TURN 0,0");
    assert!(
        !out.iter().any(|l| l.starts_with("MESSAGE NBEST")),
        "{out:?}"
    );
}

#[test]
fn thinking_messages_follow_show_detail() {
    let mut b = brain();
    send(
        &mut b,
        "START 15\nINFO show_detail 1\nINFO max_node 2000\nINFO timeout_turn 1000",
    );
    let out = send(&mut b, "TURN 7,7");
    assert!(out.len() >= 2, "{out:?}");
    assert!(out[0].starts_with("MESSAGE depth "), "{out:?}");
    assert!(out[0].contains(" nodes ") && out[0].contains(" speed ") && out[0].contains(" pv "));
    assert!(!out.last().unwrap().starts_with("MESSAGE"));
}

#[test]
fn swap2_answers_every_case() {
    let mut b = brain();
    // A node limit (the fake clock never runs out) so the colour choices rest on a real search.
    send(
        &mut b,
        "INFO rule 1\nSTART 15\nINFO timeout_turn 5000\nINFO max_node 30000",
    );
    let out = send(&mut b, "SWAP2BOARD\nDONE");
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].split(' ').count(), 3, "{out:?}");
    assert_eq!(history(&b).len(), 3);
    // Black 7,7 8,8 against a far white stone: take black.
    assert_eq!(send(&mut b, "SWAP2BOARD\n7,7\n0,14\n8,8\nDONE"), ["SWAP"]);
    assert_eq!(history(&b).len(), 3);
    // Scattered black stones: stay white and play the fourth stone.
    let out = send(&mut b, "SWAP2BOARD\n0,0\n7,7\n14,14\nDONE");
    assert_eq!(out[0].split(' ').count(), 1, "{out:?}");
    assert_eq!(history(&b).len(), 4);
    // Five stones: SWAP or one move.
    let out = send(&mut b, "SWAP2BOARD\n7,7\n8,7\n9,9\n8,8\n8,6\nDONE");
    assert!(
        out[0] == "SWAP" || out[0].split(' ').count() == 1,
        "{out:?}"
    );
    let before = history(&b);
    for bad in [
        "SWAP2BOARD\n7,7\nDONE",
        "SWAP2BOARD\n7,7\n7,7\n8,8\nDONE",
        "SWAP2BOARD\n7,7\n8,8\n99,1\nDONE",
    ] {
        let out = send(&mut b, bad);
        assert!(out[0].starts_with("ERROR SWAP2BOARD"), "{bad}: {out:?}");
        assert_eq!(history(&b), before);
    }
}

#[test]
fn a_balanced_three_stone_opening_gets_two_more_stones() {
    let mut b = brain();
    send(&mut b, "INFO rule 1\nSTART 15\nSWAP2BOARD\nDONE");
    let opening: Vec<String> = history(&b)
        .iter()
        .map(|(q, _)| format!("{},{}", q.x(), q.y()))
        .collect();
    // Our own opening is the most balanced of the list, so we answer it with two stones.
    let out = send(&mut b, &format!("SWAP2BOARD\n{}\nDONE", opening.join("\n")));
    assert_eq!(out[0].split(' ').count(), 2, "{out:?}");
    assert_eq!(history(&b).len(), 5);
}

/// The nodes of the last depth a search's answer reports (0 when it reports none).
fn last_nodes(out: &[String]) -> u64 {
    out.iter()
        .rfind(|l| l.starts_with("MESSAGE depth"))
        .map_or(0, |message| {
            let words: Vec<&str> = message.split(' ').collect();
            let i = words.iter().position(|&w| w == "nodes").unwrap();
            words[i + 1].parse().unwrap()
        })
}

#[test]
fn a_turn_counts_from_when_its_command_was_read() {
    let clock = Arc::new(FakeClock::default());
    let engine = Engine::new(Params::default(), clock.clone());
    let mut b = Brain::new(engine, Vec::new());
    send(
        &mut b,
        "INFO show_detail 1\nINFO max_node 3000\nINFO timeout_turn 500\n\
         INFO timeout_match 100000\nINFO time_left 100000\nSTART 15",
    );
    send(&mut b, "BOARD\n7,7,2\n8,8,1\n8,7,2");
    // Read at 0 and taken up at 200: 260 ms of the turn are left (the frozen clock never
    // reaches them, the node limit ends the search) and the match clock loses the 200 ms.
    clock.advance(200);
    b.handle_read_at("DONE", parse("DONE"), 0).unwrap();
    let out = send(&mut b, "");
    assert_eq!(history(&b).len(), 4, "{out:?}");
    assert!(last_nodes(&out) >= 1000, "{out:?}");
    assert_eq!(b.settings().time.time_left_ms, Some(99_800));
    // Taken up 600 ms after it was read: the turn is over, so the answer comes at once.
    clock.advance(600);
    b.handle_read_at("TURN 3,3", parse("TURN 3,3"), 200)
        .unwrap();
    let out = send(&mut b, "");
    assert_eq!(history(&b).len(), 6, "{out:?}");
    assert!(last_nodes(&out) < 100, "{out:?}");
    assert_eq!(b.settings().time.time_left_ms, Some(99_200));
}

// ---- random lines ----

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (-2i64..22).prop_map(|v| v.to_string()),
        Just("2147483647".to_string()),
        Just("99999999999999999999".to_string()),
        Just("x".to_string()),
        Just(String::new()),
    ]
}

fn coord() -> impl Strategy<Value = String> {
    (
        number(),
        number(),
        prop_oneof![Just(","), Just(", "), Just(" ")],
    )
        .prop_map(|(x, y, s)| format!("{x}{s}{y}"))
}

fn line() -> impl Strategy<Value = String> {
    let keyword = prop::sample::select(vec![
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
        "done",
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
    ]);
    let info_key = prop::sample::select(vec![
        "timeout_turn",
        "timeout_match",
        "time_left",
        "max_memory",
        "game_type",
        "rule",
        "omok_rule",
        "evaluate",
        "folder",
        "thread_num",
        "max_depth",
        "show_detail",
        "pondering",
        "strength",
        "caution_factor",
    ]);
    let rule_name = prop::sample::select(vec![
        "renju",
        "korean",
        "casual",
        "casual-44",
        "casual-33-44",
        "caro",
        "x",
    ]);
    prop_oneof![
        4 => (keyword, prop_oneof![Just(String::new()), number(), coord()]).prop_map(|(k, a)| format!("{k} {a}")),
        4 => (0i64..16, 0i64..16, 0u8..5).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
        2 => coord(),
        2 => (info_key, number()).prop_map(|(k, v)| format!("INFO {k} {v}")),
        1 => rule_name.prop_map(|r| format!("INFO omok_rule {r}")),
        1 => (1u64..3000).prop_map(|n| format!("INFO max_node {n}")),
        1 => (0u64..2048).prop_map(|n| format!("INFO hash_size {n}")),
        1 => "[ -~]{0,24}",
        1 => "\\PC{0,12}",
    ]
}

/// How many answer lines (besides thinking `MESSAGE`s) a line may produce, from the brain's
/// state before it and the parsed line.
fn expected_answers(b: &Brain<Vec<u8>>, line: &str) -> std::ops::RangeInclusive<usize> {
    if line.trim().is_empty() {
        return 0..=0;
    }
    let pending = b.pending.len();
    let parsed = parse(line);
    let (interrupt, command) = match (&b.block, parsed) {
        (Some(_), Ok(Command::Stone(_)) | Ok(Command::Unknown(_)) | Err(_) | Ok(Command::End)) => {
            return 0..=0;
        }
        (Some(block), Ok(Command::Done)) => {
            return match block.kind {
                BlockKind::YxBoard | BlockKind::YxBlock => 0..=1 + pending,
                _ => 1 + pending..=1 + pending,
            };
        }
        (Some(_), Ok(c)) => (1, Ok(c)),
        (None, parsed) => (0, parsed),
    };
    // An interruption answers an ERROR, which flushes the deferred errors first.
    let flushed = if interrupt == 1 { 1 + pending } else { 0 };
    let own = match command {
        Err(
            ProtocolError::BadInfo { .. }
            | ProtocolError::MissingArgument {
                command: "INFO", ..
            },
        ) => {
            return flushed..=flushed;
        }
        // These answer only when they fail, which they cannot.
        Ok(Command::Info(_) | Command::End | Command::BlockStart(_)) => return flushed..=flushed,
        Ok(Command::Stop | Command::YxHashClear | Command::YxBlockReset) => {
            return flushed..=flushed;
        }
        Ok(Command::YxShowInfo) => 2,
        _ => 1,
    };
    let n = interrupt + pending + own;
    n..=n
}

#[test]
fn random_lines_never_panic_desync_or_change_state_on_error() {
    let config = Config {
        cases: std::env::var("OMOK_PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(48),
        rng_seed: RngSeed::Fixed(0x6f6d6f6b),
        failure_persistence: None,
        ..Config::default()
    };
    proptest!(config, |(lines in prop::collection::vec(line(), 1..40))| {
        let mut b = brain();
        send(&mut b, "INFO max_node 300");
        for line in &lines {
            let expected = expected_answers(&b, line);
            let before = (history(&b), b.markers.clone(), b.excluded.clone(), b.engine().rule());
            let out = send(&mut b, line);
            let answers: Vec<&String> = out.iter().filter(|l| !l.starts_with("MESSAGE depth")).collect();
            prop_assert!(expected.contains(&answers.len()), "{line:?} after {lines:?}: {out:?}, expected {expected:?}");
            let last = answers.last().map(|s| s.as_str()).unwrap_or("");
            let late_failure = last.starts_with("ERROR the game is over") || last.starts_with("ERROR no legal move");
            let interrupted = out.iter().any(|l| l.contains("was not closed by DONE"));
            if last.starts_with("ERROR") && !late_failure && !interrupted {
                let after = (history(&b), b.markers.clone(), b.excluded.clone(), b.engine().rule());
                prop_assert_eq!(before, after, "{:?} changed the state although it failed", line);
            }
        }
    });
}
