//! The Pente referee through the JSON-lines session (`ruleSet: "pente"`): events and views with
//! captures, options and their validation, 3–4 seats, clocks and auto-moves that capture to win
//! or to block, replay, and a 1000-action random stream that never panics and keeps the hash on
//! every rejected action.

use omok::game::Session;
use omok::game::session::run_lines;
use omok::pente::auto_move::auto_move;
use omok::pente::{PenteRules, Position};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::Value;

fn v(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

fn place(p: &str, x: i64, y: i64, now: u64) -> String {
    format!(r#"{{"type":"place","player":"{p}","x":{x},"y":{y},"now":{now}}}"#)
}

const SETUP: &str = r#"{"options":{"ruleSet":"pente","boardSize":9,"colorAssignment":"hostWhite","timeControl":{"kind":"none"}},"seed":7,"players":{"host":"a","guest":"b"}}"#;

#[test]
fn a_capture_in_a_session() {
    // a = white (first). White (0,0) … black (1,0) (2,0), white (3,0) captures.
    let out = run_lines([
        SETUP.to_string(),
        place("a", 0, 0, 1),
        place("b", 1, 0, 2),
        place("a", 8, 8, 3),
        place("b", 2, 0, 4),
        place("b", 5, 5, 5),
        place("a", 3, 0, 6),
    ]);
    let start = v(&out[0]);
    assert_eq!(start["ok"], true);
    assert_eq!(start["events"][0]["type"], "gameStarted");
    assert_eq!(start["events"][0]["seats"][0], "a");
    assert_eq!(start["views"]["white"]["captureTarget"], 10);
    let wrong = v(&out[5]);
    assert_eq!(wrong["error"]["code"], "notYourTurn");
    assert_eq!(wrong["error"]["message_ko"], "상대의 차례예요");
    assert_eq!(wrong["hash"], v(&out[4])["hash"]);
    let cap = v(&out[6]);
    let ev = &cap["events"][0];
    assert_eq!(ev["type"], "stonePlaced");
    assert_eq!(ev["captured"].as_array().unwrap().len(), 2);
    assert_eq!(ev["captured"][0]["owner"], "black");
    assert_eq!(ev["captured"][0]["by"], "white");
    assert_eq!(ev["captures"], serde_json::json!([2, 0]));
    assert_eq!(cap["views"]["spectator"]["board"][1], 0);
    assert_eq!(cap["views"]["black"]["captures"][0], 2);
    let occupied = run_lines([SETUP.to_string(), place("a", 0, 0, 1), place("b", 0, 0, 2)]);
    assert_eq!(v(&occupied[2])["error"]["code"], "occupied");
    assert_eq!(
        v(&occupied[2])["error"]["message_ko"],
        "이미 돌이 있는 자리예요"
    );
}

#[test]
fn options_are_validated() {
    for (opts, code) in [
        (r#""players":3,"captureWin":false"#, "badOption"),
        (r#""openingRule":"swap","players":3"#, "badOption"),
        (r#""undo":"sometimes""#, "malformedSetup"),
        (r#""boardSize":17"#, "badOption"),
        (r#""teams":true"#, "badOption"),
        (r#""forbiddenPolicy":"loss""#, "malformedSetup"),
        (r#""players":3"#, "badPlayers"),
    ] {
        let setup = format!(
            r#"{{"options":{{"ruleSet":"pente",{opts}}},"seed":1,"players":{{"host":"a","guest":"b"}}}}"#
        );
        let out = run_lines([setup]);
        assert_eq!(v(&out[0])["error"]["code"], code, "{opts}");
    }
    let ok = r#"{"options":{"ruleSet":"pente","players":3,"mixedCapture":true,"threeCapture":true,"suicide":"captured","extension":"breakLine","overline":"forbidden"},"seed":"5","players":["x","y","z"]}"#;
    let out = run_lines([ok]);
    let start = v(&out[0]);
    assert_eq!(start["views"]["red"]["captureTarget"], 12);
    assert_eq!(start["views"]["red"]["lineLength"], 4);
}

#[test]
fn four_players_in_turn_with_teams() {
    let setup = r#"{"options":{"ruleSet":"pente","players":4,"teams":true,"boardSize":13,"timeControl":{"kind":"none"}},"seed":1,"players":["p0","p1","p2","p3"]}"#;
    let mut lines = vec![setup.to_string()];
    for (i, p) in ["p0", "p1", "p2", "p3", "p0"].iter().enumerate() {
        lines.push(place(p, i as i64, 0, i as u64 + 1));
    }
    lines.push(r#"{"type":"offerDraw","player":"p1","now":10}"#.into());
    lines.push(r#"{"type":"resign","player":"p3","now":11}"#.into());
    let out = run_lines(lines);
    for line in &out[1..6] {
        assert_eq!(v(line)["ok"], true, "{line}");
    }
    assert_eq!(v(&out[5])["views"]["spectator"]["turn"], "black");
    assert_eq!(v(&out[6])["error"]["code"], "drawOffersDisabled");
    let fin = v(out.last().unwrap());
    assert_eq!(fin["result"]["reason"], "resign");
    assert_eq!(
        fin["result"]["winners"],
        serde_json::json!(["white", "red"])
    );
    assert_eq!(fin["result"]["ranking"][0]["playerId"], "p0");
    assert_eq!(fin["result"]["ranking"][1]["playerId"], "p2");
}

#[test]
fn per_move_timeouts_play_auto_moves_then_lose() {
    let setup = r#"{"options":{"ruleSet":"pente","boardSize":9,"colorAssignment":"hostWhite"},"seed":3,"players":{"host":"a","guest":"b"}}"#;
    let out = run_lines([
        setup.to_string(),
        r#"{"type":"timeout","now":29999}"#.into(),
        r#"{"type":"timeout","now":30000}"#.into(),
        r#"{"type":"timeout","now":60000}"#.into(),
        place("a", 0, 0, 70_000),
        r#"{"type":"timeout","now":100000}"#.into(),
        place("a", 1, 1, 110_000),
        r#"{"type":"timeout","now":140000}"#.into(),
    ]);
    assert_eq!(v(&out[1])["error"]["code"], "notTimedOut");
    let first = v(&out[2]);
    assert_eq!(first["events"][0]["type"], "timeoutAutoMove");
    assert_eq!(
        first["events"][0]["pt"],
        serde_json::json!({"x": 4, "y": 4})
    );
    assert_eq!(v(&out[3])["events"][0]["type"], "timeoutAutoMove");
    // a's own move resets a's streak; b's second timeout is still an auto-move, its third loses.
    assert_eq!(v(&out[5])["events"][0]["type"], "timeoutAutoMove");
    assert_eq!(v(&out[7])["events"][0]["type"], "timeLoss");
    assert_eq!(v(&out[7])["events"][0]["color"], "black");
}

#[test]
fn fischer_late_move_loses() {
    let setup = r#"{"options":{"ruleSet":"pente","timeControl":{"kind":"fischer","baseSec":10,"incSec":1},"colorAssignment":"hostBlack"},"seed":3,"players":{"host":"a","guest":"b"}}"#;
    let out = run_lines([
        setup.to_string(),
        place("b", 9, 9, 4_000),
        place("a", 3, 3, 15_000),
    ]);
    assert_eq!(
        v(&out[1])["views"]["white"]["clock"]["remainingMs"][0],
        7000
    );
    assert_eq!(v(&out[2])["events"][0]["type"], "timeLoss");
    assert_eq!(
        v(&out[2])["events"][0]["lateMove"],
        serde_json::json!({"x": 3, "y": 3})
    );
    assert_eq!(
        v(&out[3])["result"]["winners"],
        serde_json::json!(["white"])
    );
}

fn rules9() -> PenteRules {
    PenteRules {
        board_size: 9,
        ..PenteRules::default()
    }
}

#[test]
fn auto_move_captures_to_win_and_to_block() {
    let n = 9;
    let mut cells = vec![0u8; n * n];
    // White (seat 0) to move with 8 captures; black pair at (1,0),(2,0) between (0,0) and empty.
    cells[0] = 1;
    cells[1] = 2;
    cells[2] = 2;
    cells[40] = 2;
    let mut p = Position::setup(rules9(), &cells, 0, [8, 0, 0, 0]).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    assert_eq!(auto_move(&mut p, &mut rng), Some(3), "the winning capture");
    // Black to move with 8 captures threatens the same: white's pair (1,4),(2,4) after (0,4) B.
    let mut cells = vec![0u8; n * n];
    cells[36] = 2;
    cells[37] = 1;
    cells[38] = 1;
    cells[80] = 1;
    let mut p = Position::setup(rules9(), &cells, 0, [0, 8, 0, 0]).unwrap();
    let m = auto_move(&mut p, &mut rng).unwrap();
    p.play(m).unwrap();
    assert!(
        omok::pente::auto_move::winning_moves(&mut p).is_empty(),
        "{m} leaves black no win"
    );
}

/// Feeds a seeded random stream of actions (mostly from the seat to move, read back from the
/// last accepted line) to a session; returns the input and output lines.
fn random_session(seed: u64, len: usize) -> (Vec<String>, Vec<String>) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut session = Session::new();
    let setup = r#"{"options":{"ruleSet":"pente","threeCapture":true,"suicide":"captured","extension":"breakLine","overline":"forbidden","colorAssignment":"hostWhite","timeControl":{"kind":"perMove","perMoveSec":20}},"seed":11,"players":{"host":"a","guest":"b"}}"#;
    let mut input = vec![setup.to_string()];
    let mut out = vec![session.handle_line(setup).unwrap()];
    let mut turn = "a";
    let mut now = 0u64;
    for _ in 0..len {
        let r = rng.next_u64();
        now += r % 4000;
        let who = match (r >> 8) % 8 {
            0 => "c",
            1 => {
                if turn == "a" {
                    "b"
                } else {
                    "a"
                }
            }
            _ => turn,
        };
        let line = match (r >> 16) % 16 {
            0..=10 => place(
                who,
                ((r >> 24) % 21) as i64 - 1,
                ((r >> 32) % 21) as i64 - 1,
                now,
            ),
            11 => format!(r#"{{"type":"timeout","now":{now}}}"#),
            12 => format!(r#"{{"type":"offerDraw","player":"{who}","now":{now}}}"#),
            13 => format!(
                r#"{{"type":"respondDraw","player":"{who}","accept":{},"now":{now}}}"#,
                r % 97 == 0
            ),
            14 => format!(
                r#"{{"type":"requestUndo","player":"{who}","now":{}}}"#,
                now.saturating_sub(r % 2 * 9000)
            ),
            _ => ["garbage", "{}", r#"{"type":"place"}"#][(r >> 40) as usize % 3].to_string(),
        };
        let reply = session.handle_line(&line).unwrap();
        let l = v(&reply);
        if l["ok"] == true {
            let t = &l["views"]["spectator"]["turn"];
            turn = if t == "white" { "a" } else { "b" };
        }
        input.push(line);
        out.push(reply);
    }
    out.push(session.finish());
    (input, out)
}

#[test]
fn a_thousand_random_actions_never_panic_and_keep_the_hash_on_rejection() {
    let (input, out) = random_session(99, 1000);
    assert_eq!(out.len(), 1002);
    let mut hash = v(&out[0])["hash"].clone();
    let (mut ok, mut rejected) = (0, 0);
    for line in &out[1..1001] {
        let l = v(line);
        if l["ok"] == true {
            ok += 1;
        } else {
            rejected += 1;
            assert_eq!(l["hash"], hash, "{line}");
        }
        hash = l["hash"].clone();
    }
    assert!(
        ok > 50 && rejected > 100,
        "{ok} accepted, {rejected} rejected"
    );
    // Replay: the same input gives the same lines.
    assert_eq!(run_lines(&input), out);
}

#[test]
fn replays_are_identical_and_seeds_matter() {
    let (input, a) = random_session(5, 150);
    let b = run_lines(&input);
    assert_eq!(a, b);
    let fin = v(a.last().unwrap());
    assert_eq!(fin["final"], true);
    assert!(fin["hash"].is_string());
}

fn setup_with(opts: &str) -> String {
    format!(
        r#"{{"options":{{"ruleSet":"pente","boardSize":9,"colorAssignment":"hostWhite","timeControl":{{"kind":"none"}},{opts}}},"seed":1,"players":{{"host":"a","guest":"b"}}}}"#
    )
}

#[test]
fn pro_and_long_pro_in_the_referee() {
    for (rule, min) in [("pro", 3), ("longPro", 4)] {
        let out = run_lines([
            setup_with(&format!(r#""openingRule":"{rule}""#)),
            place("a", 0, 0, 1),
            place("a", 4, 4, 2),
            place("b", 0, 0, 3),
            place("a", 4 + min - 1, 4, 4),
            place("a", 4 + min, 4, 5),
        ]);
        assert_eq!(v(&out[1])["error"]["code"], "firstMoveNotCentre");
        assert_eq!(
            v(&out[1])["error"]["message_ko"],
            "첫 수는 천원에 두어야 해요"
        );
        assert_eq!(v(&out[2])["ok"], true);
        assert_eq!(v(&out[4])["error"]["code"], "tooCloseToCentre");
        assert_eq!(v(&out[5])["ok"], true, "{rule}");
        let first = v(&out[2]);
        assert_eq!(
            first["views"]["black"]["forbiddenPoints"],
            serde_json::json!([])
        );
        assert_eq!(first["views"]["white"]["forbiddenPoints"], Value::Null);
    }
}

#[test]
fn extension_and_suicide_in_the_referee() {
    // White builds five on row 0 from (0,0) to (4,0); black's stone at (5,0) and a white pair
    // (3,1),(3,2) under black's (3,3)... black breaks by capturing (3,0)? Use the rules' own
    // scenario: white four (1..4, 2), black above at (3,1), white (3,3) below the line.
    let moves = [
        ("a", 1, 2),
        ("b", 3, 1),
        ("a", 2, 2),
        ("b", 8, 8),
        ("a", 3, 2),
        ("b", 8, 7),
        ("a", 3, 3),
        ("b", 8, 6),
        ("a", 5, 2),
        ("b", 0, 8),
        ("a", 4, 2),
    ];
    let mut lines = vec![setup_with(
        r#""extension":"breakLine","suicide":"forbidden""#,
    )];
    for (i, (p, x, y)) in moves.iter().enumerate() {
        lines.push(place(p, *x, *y, i as u64 + 1));
    }
    lines.push(place("b", 0, 0, 20));
    lines.push(place("b", 3, 4, 21));
    let out = run_lines(&lines);
    let made = v(&out[11]);
    assert_eq!(made["events"][1]["type"], "extensionStarted", "{made}");
    assert_eq!(made["events"][1]["maker"], "white");
    assert_eq!(made["views"]["black"]["extension"]["maker"], "white");
    let pts = made["views"]["black"]["forbiddenPoints"]
        .as_array()
        .unwrap();
    assert!(pts.iter().all(|p| p["reason"] == "mustBreakLine"));
    assert_eq!(v(&out[12])["error"]["code"], "mustBreakLine");
    let broke = v(&out[13]);
    assert_eq!(broke["ok"], true, "{broke}");
    assert_eq!(broke["events"][0]["captured"].as_array().unwrap().len(), 2);
    assert_eq!(broke["phase"], "playing");
    // Suicide forbidden: white may not play into black's bracket `B W _ B`.
    let out = run_lines([
        setup_with(r#""suicide":"forbidden""#),
        place("a", 3, 2, 1),
        place("b", 3, 1, 2),
        place("a", 0, 0, 3),
        place("b", 3, 4, 4),
        place("a", 3, 3, 5),
    ]);
    let refused = v(&out[5]);
    assert_eq!(refused["error"]["code"], "suicideForbidden", "{refused}");
    assert_eq!(
        refused["error"]["message_ko"],
        "자충수가 되는 자리라 둘 수 없어요"
    );
    assert_eq!(refused["hash"], v(&out[4])["hash"]);
    let pts = v(&out[4])["views"]["white"]["forbiddenPoints"].clone();
    assert_eq!(
        pts,
        serde_json::json!([{"x": 3, "y": 3, "reason": "suicideForbidden"}])
    );
}
