//! Pente's Swap and Swap2 (issue 13) through the shared opening rules: the referee's opening
//! actions, legal and illegal, for Swap (four stones, white, black, white, black) and each of
//! Swap2's three answers; full scripted games through `pbrain-omok referee`; clocks following the
//! players through swaps; the opening's auto-action on a timeout; the engine's opening decisions
//! over a range of seeds; `play --rule pente --opening-rule swap|swap2`; and undo, which restores
//! captured stones and capture counts and is refused in the opening.

mod common;

use omok::game::Action;
use omok::game::session::run_lines;
use omok::pente::opening::{self as pente_opening, actor_seat, judge_limits, seat_of_color};
use omok::pente::referee::{PenteGame, PenteSetup};
use omok::pente::{PenteOpening, PenteRules, Position};
use omok::rules::opening::OpeningAction;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{Value, json};

const ALICE: &str = "alice";
const BOB: &str = "bob";

fn v(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

fn setup(rule: &str, extra: Value) -> String {
    let mut options = json!({"ruleSet": "pente", "boardSize": 13, "openingRule": rule,
        "colorAssignment": "hostWhite", "timeControl": {"kind": "none"}});
    if let Value::Object(m) = extra {
        for (k, x) in m {
            options[k] = x;
        }
    }
    json!({"options": options, "seed": 11, "players": {"host": ALICE, "guest": BOB}}).to_string()
}

/// A script step: who acts and the action's JSON without `player` and `now`.
type Step = (&'static str, Value);

fn place(who: &'static str, x: i64, y: i64) -> Step {
    (who, json!({"type": "place", "x": x, "y": y}))
}

fn swap(who: &'static str, s: bool) -> Step {
    (who, json!({"type": "swap", "swap": s}))
}

fn put_two(who: &'static str, a: (i64, i64), b: (i64, i64)) -> Step {
    (
        who,
        json!({"type": "putTwo", "points": [{"x": a.0, "y": a.1}, {"x": b.0, "y": b.1}]}),
    )
}

fn simple(who: &'static str, kind: &str) -> Step {
    (who, json!({"type": kind}))
}

/// The action lines of a script, `now` counting up by 1000 ms.
fn action_lines(script: &[Step]) -> Vec<String> {
    script
        .iter()
        .enumerate()
        .map(|(i, (who, a))| {
            let mut a = a.clone();
            a["player"] = json!(who);
            a["now"] = json!((i as u64 + 1) * 1000);
            a.to_string()
        })
        .collect()
}

/// Runs a session in process: the setup's output line, then one per step.
fn session(setup: &str, script: &[Step]) -> Vec<Value> {
    let mut input = vec![setup.to_string()];
    input.extend(action_lines(script));
    run_lines(input).iter().map(|l| v(l)).collect()
}

fn code(line: &Value) -> &str {
    line["error"]["code"].as_str().unwrap_or("")
}

fn event_types(line: &Value) -> Vec<String> {
    line["events"]
        .as_array()
        .map(|e| {
            e.iter()
                .map(|x| x["type"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The end of a scripted game: white makes five on the top row while black plays scattered
/// stones on the bottom row (no captures possible).
fn white_five(white: &'static str, black: &'static str) -> Vec<Step> {
    let mut s = Vec::new();
    for i in 0..5 {
        s.push(place(white, i, 0));
        if i < 4 {
            s.push(place(black, 12 - 3 * i, 12));
        }
    }
    s
}

#[test]
fn swap_places_four_stones_then_the_second_player_chooses() {
    let script = vec![
        place(ALICE, 6, 6),           // 1 white
        place(BOB, 5, 5),             // 2 notYourTurn
        swap(ALICE, true),            // 3 wrongOpeningAction
        place(ALICE, 6, 6),           // 4 occupied
        place(ALICE, 13, 0),          // 5 offBoard
        place(ALICE, 7, 6),           // 6 black
        simple(ALICE, "requestUndo"), // 7 undoInOpening
        place(ALICE, 6, 7),           // 8 white
        place(ALICE, 7, 8),           // 9 black
        place(ALICE, 3, 3),           // 10 notYourTurn (bob chooses)
        place(BOB, 3, 3),             // 11 wrongOpeningAction
        put_two(BOB, (1, 1), (2, 2)), // 12 wrongOpeningAction
        simple(BOB, "requestUndo"),   // 13 undoInOpening
        swap(BOB, true),              // 14 bob takes white
        swap(BOB, true),              // 15 openingOver
        simple(ALICE, "requestUndo"), // 16 nothingToUndo… or undoInOpening
    ];
    let out = session(&setup("swap", json!({})), &script);
    let start = &out[0];
    assert_eq!(start["phase"], "opening");
    let view = &start["views"]["spectator"];
    assert_eq!(view["opening"]["rule"], "swap");
    assert_eq!(view["opening"]["firstPlayer"], ALICE);
    assert_eq!(view["opening"]["pending"]["kind"], "place");
    assert_eq!(view["opening"]["pending"]["color"], "white");
    assert_eq!(view["opening"]["pending"]["player"], ALICE);
    assert_eq!(view["turn"], "white");
    assert!(view.get("forbiddenPoints").is_none());
    // The stones alternate white, black, white, black, all by alice.
    for (i, colour) in [(1, "white"), (6, "black"), (8, "white"), (9, "black")] {
        let ev = &out[i]["events"][0];
        assert_eq!(ev["type"], "stonePlaced", "{i}: {}", out[i]);
        assert_eq!(ev["color"], colour, "{i}");
    }
    // After the black stone the opening still waits for alice, who places the next white stone.
    assert_eq!(out[6]["views"]["spectator"]["turn"], "white");
    assert_eq!(
        out[6]["views"]["spectator"]["opening"]["pending"]["color"],
        "white"
    );
    for (i, c) in [
        (2, "notYourTurn"),
        (3, "wrongOpeningAction"),
        (4, "occupied"),
        (5, "offBoard"),
        (7, "undoInOpening"),
        (10, "notYourTurn"),
        (11, "wrongOpeningAction"),
        (12, "wrongOpeningAction"),
        (13, "undoInOpening"),
        (15, "openingOver"),
    ] {
        assert_eq!(code(&out[i]), c, "step {i}: {}", out[i]);
        assert!(
            out[i]["error"]["message_ko"]
                .as_str()
                .unwrap()
                .contains('요')
        );
        assert_eq!(
            out[i]["hash"],
            out[i - 1]["hash"],
            "a refusal keeps the hash"
        );
    }
    // The choice: bob (black now) decides.
    let pending = &out[9]["views"]["spectator"]["opening"]["pending"];
    assert_eq!(pending["kind"], "swap");
    assert_eq!(pending["player"], BOB);
    assert_eq!(pending["by"], "black");
    let chosen = &out[14];
    assert_eq!(event_types(chosen), ["swapDecided", "openingFinished"]);
    let ev = &chosen["events"][0];
    assert_eq!(
        (&ev["by"], &ev["swap"], &ev["white"], &ev["black"]),
        (&json!("black"), &json!(true), &json!(BOB), &json!(ALICE))
    );
    assert_eq!(chosen["events"][1]["turn"], "white");
    assert_eq!(chosen["phase"], "playing");
    let view = &chosen["views"]["spectator"];
    assert_eq!(view["seats"][0]["id"], BOB);
    assert_eq!(view["turn"], "white");
    assert_eq!(view["opening"]["finished"], true);
    assert_eq!(view["opening"]["swapped"], true);
    // Alice (black now) has only opening stones: nothing of hers may be taken back.
    assert_eq!(code(&out[16]), "undoInOpening");
}

#[test]
fn swap_kept_and_a_full_game_through_the_binary() {
    // Alice keeps white; white (alice) moves next and makes five.
    let mut script = vec![
        place(ALICE, 6, 6),
        place(ALICE, 7, 6),
        place(ALICE, 6, 7),
        place(ALICE, 8, 8),
        swap(BOB, false),
    ];
    script.extend(white_five(ALICE, BOB));
    let mut input = setup(
        "swap",
        json!({"timeControl": {"kind": "perMove", "perMoveSec": 30}}),
    );
    for l in action_lines(&script) {
        input.push('\n');
        input.push_str(&l);
    }
    input.push('\n');
    let out = common::run_binary(&["referee"], &input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(v)
        .collect();
    assert_eq!(
        lines.len(),
        script.len() + 2,
        "one line per input and the final line"
    );
    for (i, l) in lines[..=script.len()].iter().enumerate() {
        assert_eq!(l["ok"], true, "line {i}: {l}");
    }
    assert_eq!(event_types(&lines[5]), ["swapDecided", "openingFinished"]);
    assert_eq!(lines[5]["events"][0]["white"], ALICE);
    let last = &lines[script.len()];
    assert_eq!(last["phase"], "finished");
    let fin = &lines[script.len() + 1];
    assert_eq!(fin["final"], true);
    assert_eq!(fin["result"]["winners"], json!(["white"]));
    assert_eq!(fin["result"]["ranking"][0]["playerId"], ALICE);
    assert_eq!(fin["moveCount"], 4 + 9);
    // The same input in process gives the same lines (replay by seed and log).
    let again: Vec<String> = run_lines(input.lines().map(String::from).collect::<Vec<_>>());
    assert_eq!(v(&again[script.len()])["hash"], last["hash"]);
}

/// Swap2's opening: alice places white, black, white.
fn swap2_start() -> Vec<Step> {
    vec![place(ALICE, 6, 6), place(ALICE, 7, 6), place(ALICE, 6, 8)]
}

#[test]
fn swap2_first_answer_bob_takes_white() {
    let mut script = swap2_start();
    script.extend([
        swap(BOB, false),   // 4 wrongOpeningAction (keeping is a place)
        swap(ALICE, true),  // 5 notYourTurn
        swap(BOB, true),    // 6 bob white, alice black; black to move
        place(BOB, 0, 0),   // 7 notYourTurn
        place(ALICE, 9, 9), // 8 black
    ]);
    let out = session(&setup("swap2", json!({})), &script);
    let choice = &out[3]["views"]["spectator"]["opening"]["pending"];
    assert_eq!(
        (&choice["kind"], &choice["player"], &choice["color"]),
        (&json!("swap2Choice"), &json!(BOB), &json!("black"))
    );
    assert_eq!(code(&out[4]), "wrongOpeningAction");
    assert_eq!(code(&out[5]), "notYourTurn");
    assert_eq!(event_types(&out[6]), ["swapDecided", "openingFinished"]);
    assert_eq!(out[6]["events"][0]["white"], BOB);
    assert_eq!(out[6]["events"][1]["turn"], "black");
    assert_eq!(code(&out[7]), "notYourTurn");
    assert_eq!(out[8]["events"][0]["color"], "black");
    assert_eq!(out[8]["views"]["spectator"]["seats"][1]["id"], ALICE);
}

#[test]
fn swap2_second_answer_bob_keeps_black_and_places() {
    let mut script = swap2_start();
    script.extend([
        place(BOB, 6, 6),   // 4 occupied
        place(BOB, 7, 7),   // 5 black; white (alice) to move
        place(BOB, 0, 0),   // 6 notYourTurn
        place(ALICE, 5, 5), // 7 white
    ]);
    let out = session(&setup("swap2", json!({})), &script);
    assert_eq!(code(&out[4]), "occupied");
    assert_eq!(event_types(&out[5]), ["stonePlaced", "openingFinished"]);
    assert_eq!(out[5]["events"][0]["color"], "black");
    assert_eq!(out[5]["events"][1]["turn"], "white");
    assert_eq!(out[5]["views"]["spectator"]["opening"]["swapped"], false);
    assert_eq!(code(&out[6]), "notYourTurn");
    assert_eq!(out[7]["events"][0]["color"], "white");
}

#[test]
fn swap2_third_answer_two_more_stones_and_the_choice_goes_back() {
    let mut script = swap2_start();
    script.extend([
        put_two(BOB, (8, 8), (8, 8)),   // 4 occupied (the same point twice)
        put_two(BOB, (6, 6), (9, 9)),   // 5 occupied
        put_two(BOB, (8, 8), (13, 2)),  // 6 offBoard
        put_two(BOB, (8, 8), (4, 4)),   // 7 black, white; alice chooses
        swap(BOB, true),                // 8 notYourTurn
        put_two(ALICE, (1, 1), (2, 2)), // 9 wrongOpeningAction
        swap(ALICE, true),              // 10 alice black, bob white; black to move
        place(ALICE, 10, 10),           // 11 black
    ]);
    let out = session(&setup("swap2", json!({})), &script);
    assert_eq!(code(&out[4]), "occupied");
    assert_eq!(code(&out[5]), "occupied");
    assert_eq!(code(&out[6]), "offBoard");
    assert_eq!(event_types(&out[7]), ["stonePlaced", "stonePlaced"]);
    assert_eq!(out[7]["events"][0]["color"], "black");
    assert_eq!(out[7]["events"][1]["color"], "white");
    let pending = &out[7]["views"]["spectator"]["opening"]["pending"];
    assert_eq!(
        (&pending["kind"], &pending["player"]),
        (&json!("swap"), &json!(ALICE))
    );
    assert_eq!(code(&out[8]), "notYourTurn");
    assert_eq!(code(&out[9]), "wrongOpeningAction");
    assert_eq!(event_types(&out[10]), ["swapDecided", "openingFinished"]);
    assert_eq!(out[10]["events"][0]["by"], "white");
    assert_eq!(out[10]["events"][0]["black"], ALICE);
    assert_eq!(out[10]["events"][1]["turn"], "black");
    assert_eq!(out[11]["events"][0]["color"], "black");
    assert_eq!(
        out[11]["views"]["spectator"]["moves"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
}

#[test]
fn swap2_full_game_through_the_binary() {
    // Third answer, alice keeps white: black (bob) to move; white (alice) makes five.
    let mut script = swap2_start();
    script.extend([put_two(BOB, (8, 8), (4, 4)), swap(ALICE, false)]);
    script.push(place(BOB, 12, 11));
    script.extend(white_five(ALICE, BOB));
    let mut input = setup("swap2", json!({}));
    for l in action_lines(&script) {
        input.push('\n');
        input.push_str(&l);
    }
    input.push('\n');
    let out = common::run_binary(&["referee"], &input);
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(v)
        .collect();
    for (i, l) in lines[..=script.len()].iter().enumerate() {
        assert_eq!(l["ok"], true, "line {i}: {l}");
    }
    let fin = lines.last().unwrap();
    assert_eq!(fin["result"]["winners"], json!(["white"]));
    assert_eq!(fin["result"]["ranking"][0]["playerId"], ALICE);
}

#[test]
fn clocks_follow_the_players_through_the_swap() {
    let fischer = json!({"timeControl": {"kind": "fischer", "baseSec": 100, "incSec": 0}});
    // Alice spends 4 × 1 s on her stones; bob 1 s on the choice, then swaps.
    let mut script = vec![
        place(ALICE, 6, 6),
        place(ALICE, 7, 6),
        place(ALICE, 6, 7),
        place(ALICE, 8, 8),
        swap(BOB, true),
    ];
    script.push(place(BOB, 0, 0));
    let out = session(&setup("swap", fischer), &script);
    let clock = &out[5]["views"]["spectator"]["clock"];
    // Seat 0 (white) is bob now, with bob's bank.
    assert_eq!(clock["remainingMs"], json!([99_000, 96_000]));
    assert_eq!(out[6]["ok"], true);
}

#[test]
fn a_timeout_in_the_opening_plays_the_seeded_auto_action() {
    let per_move = json!({"timeControl": {"kind": "perMove", "perMoveSec": 5}});
    let s = setup("swap2", per_move);
    let run = || {
        run_lines([
            s.clone(),
            r#"{"type":"timeout","now":4000}"#.to_string(),
            r#"{"type":"timeout","now":5000}"#.to_string(),
            r#"{"type":"place","player":"alice","x":0,"y":0,"now":10001}"#.to_string(),
        ])
    };
    let out: Vec<Value> = run().iter().map(|l| v(l)).collect();
    assert_eq!(code(&out[1]), "notTimedOut");
    assert_eq!(event_types(&out[2]), ["timeoutAutoAction", "stonePlaced"]);
    assert_eq!(out[2]["events"][0]["action"], "place");
    assert_eq!(out[2]["events"][1]["auto"], true);
    assert_eq!(out[2]["events"][1]["color"], "white");
    // A place after the deadline is not played: the auto-action (black stone) is.
    assert_eq!(event_types(&out[3])[0], "timeoutAutoAction");
    assert_eq!(out[3]["events"][0]["lateMove"], json!({"x": 0, "y": 0}));
    assert_eq!(out[3]["events"][1]["color"], "black");
    let again: Vec<Value> = run().iter().map(|l| v(l)).collect();
    assert_eq!(
        again[3]["hash"], out[3]["hash"],
        "seeded: replay gives the same state"
    );
}

#[test]
fn the_engine_opening_decisions_are_legal_and_repeatable() {
    for rule in [PenteOpening::Swap, PenteOpening::Swap2] {
        for seed in 0..12u64 {
            let rules = PenteRules {
                board_size: [9, 13, 19][seed as usize % 3],
                three_capture: seed % 2 == 1,
                opening_rule: rule,
                ..PenteRules::default()
            };
            let run = || {
                let mut pos = Position::new(rules).unwrap();
                let mut o = pente_opening::start(&pos).unwrap().unwrap();
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let mut log = Vec::new();
                while let Some(a) =
                    pente_opening::engine_action(&o, &pos, judge_limits(250), &mut rng)
                {
                    let seat = actor_seat(&o);
                    pente_opening::apply(&mut o, &mut pos, seat, &a)
                        .unwrap_or_else(|e| panic!("{rule:?} seed {seed}: {a:?}: {e}"));
                    log.push(a);
                    assert!(log.len() <= 8);
                }
                assert!(o.is_finished());
                assert_eq!(seat_of_color(o.next_to_move()), pos.turn());
                assert!(pos.outcome().is_none());
                log
            };
            let log = run();
            assert_eq!(log, run(), "deterministic for the seed");
            if rule == PenteOpening::Swap {
                assert_eq!(log.len(), 5);
                assert!(matches!(log[4], OpeningAction::Swap(_)));
            }
        }
    }
}

#[test]
fn play_with_swap_and_swap2_through_the_binary() {
    let play = |args: &[&str], input: &str| {
        let mut all = vec!["play", "--rule", "pente", "--size", "9", "--nodes", "400"];
        all.extend_from_slice(args);
        let out = common::run_binary(&all, input);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{text}");
        text
    };
    // The person proposes (white = the opening's first player); the engine chooses.
    let out = play(
        &["--opening-rule", "swap", "--seed", "3"],
        "e5\nf5\ne5\ne6\nundo\nf6\nquit\n",
    );
    assert!(out.contains("opening: place a white stone"), "{out}");
    assert!(out.contains("opening: place a black stone"), "{out}");
    assert!(
        out.contains("places e5: (4,4) is already occupied"),
        "{out}"
    );
    assert!(out.contains("opening stones cannot be taken back"), "{out}");
    assert!(out.contains("the opening is over; white to move"), "{out}");
    // The engine proposes; the person answers Swap2's choice with two more stones, then the
    // engine chooses.
    let out = play(
        &["--opening-rule", "swap2", "--color", "black", "--seed", "5"],
        "a1 a9\nquit\n",
    );
    assert!(out.contains("omok: places"), "{out}");
    assert!(
        out.contains("opening: swap, place a black stone, or put two more"),
        "{out}"
    );
    assert!(out.contains("the opening is over"), "{out}");
    let refused = common::run_binary(
        &[
            "play",
            "--rule",
            "pente",
            "--opening-rule",
            "swap",
            "--opening",
            "e5",
        ],
        "",
    );
    assert!(!refused.status.success());
}

fn act(game: &mut PenteGame, line: &str) -> Result<Value, String> {
    let a: Action = serde_json::from_str(line).unwrap();
    game.apply(&a)
        .map(|e| serde_json::to_value(e).unwrap())
        .map_err(|e| e.code().to_string())
}

#[test]
fn undo_restores_captured_stones_and_counts() {
    let s: PenteSetup = serde_json::from_str(&setup("none", json!({"undo": 1}))).unwrap();
    let (mut game, _) = PenteGame::new(&s).unwrap();
    let p = |who: &str, x: i64, y: i64, now: u64| {
        format!(r#"{{"type":"place","player":"{who}","x":{x},"y":{y},"now":{now}}}"#)
    };
    for l in [
        p(ALICE, 0, 0, 1),
        p(BOB, 1, 0, 2),
        p(ALICE, 8, 8, 3),
        p(BOB, 2, 0, 4),
    ] {
        act(&mut game, &l).unwrap();
    }
    let hash_before = game.position().hash();
    let cells_before = game.position().cells().to_vec();
    let ev = act(&mut game, &p(ALICE, 3, 0, 5)).unwrap();
    assert_eq!(ev[0]["captured"].as_array().unwrap().len(), 2);
    assert_eq!(game.position().captures()[0], 2);
    assert_eq!(
        act(
            &mut game,
            r#"{"type":"respondUndo","player":"bob","accept":true,"now":6}"#
        ),
        Err("noUndoRequest".into())
    );
    let ev = act(
        &mut game,
        r#"{"type":"requestUndo","player":"alice","now":6}"#,
    )
    .unwrap();
    assert_eq!(
        ev[0],
        json!({"type": "undoRequested", "by": "white", "plies": 1})
    );
    assert_eq!(
        act(
            &mut game,
            r#"{"type":"requestUndo","player":"bob","now":6}"#
        ),
        Err("undoPending".into())
    );
    assert_eq!(
        act(
            &mut game,
            r#"{"type":"respondUndo","player":"alice","accept":true,"now":6}"#
        ),
        Err("ownRequest".into())
    );
    let ev = act(
        &mut game,
        r#"{"type":"respondUndo","player":"bob","accept":true,"now":7}"#,
    )
    .unwrap();
    assert_eq!(ev[0]["type"], "undoAccepted");
    assert_eq!(ev[0]["removed"], json!([{"x": 3, "y": 0}]));
    assert_eq!(ev[0]["restored"].as_array().unwrap().len(), 2);
    assert_eq!(ev[0]["captures"], json!([0, 0]));
    assert_eq!(
        game.position().hash(),
        hash_before,
        "the hash of before the move"
    );
    assert_eq!(game.position().recomputed_hash(), hash_before);
    assert_eq!(game.position().cells(), &cells_before[..]);
    assert_eq!(game.position().turn(), 0, "white (alice) moves again");
    assert_eq!(game.moves().len(), 4);
    assert_eq!(game.view(None)["undo"]["remaining"], json!([0, 1]));
    // Alice's one undo is used up.
    act(&mut game, &p(ALICE, 3, 0, 8)).unwrap();
    assert_eq!(
        act(
            &mut game,
            r#"{"type":"requestUndo","player":"alice","now":9}"#
        ),
        Err("undoExhausted".into())
    );
    // Bob asks for two plies (his own and alice's capture), then withdraws; a new request is
    // declined by alice's place.
    let ev = act(
        &mut game,
        r#"{"type":"requestUndo","player":"bob","now":9}"#,
    )
    .unwrap();
    assert_eq!(ev[0]["plies"], 2);
    let ev = act(
        &mut game,
        r#"{"type":"cancelOffer","player":"bob","now":9}"#,
    )
    .unwrap();
    assert_eq!(ev[0]["type"], "undoCancelled");
    act(
        &mut game,
        r#"{"type":"requestUndo","player":"bob","now":9}"#,
    )
    .unwrap();
    let ev = act(&mut game, &p(ALICE, 12, 12, 10));
    assert_eq!(ev, Err("notYourTurn".into()));
    let ev = act(&mut game, &p(BOB, 12, 12, 10)).unwrap();
    assert_eq!(
        ev[1]["type"], "undoCancelled",
        "the requester's own move drops it"
    );
    act(
        &mut game,
        r#"{"type":"requestUndo","player":"bob","now":11}"#,
    )
    .unwrap();
    let ev = act(&mut game, &p(ALICE, 11, 11, 12)).unwrap();
    assert_eq!(
        ev[1],
        json!({"type": "undoDeclined", "by": "black", "auto": true})
    );
}

#[test]
fn undo_is_refused_into_the_opening_off_and_with_three_players() {
    // After Swap, bob (white) plays once; alice (black) would take back an opening stone.
    let script = vec![
        place(ALICE, 6, 6),
        place(ALICE, 7, 6),
        place(ALICE, 6, 7),
        place(ALICE, 8, 8),
        swap(BOB, true),
        place(BOB, 0, 0),
        simple(ALICE, "requestUndo"), // 7: two plies, one an opening stone
        simple(BOB, "requestUndo"),   // 8: bob's own move: allowed
        (ALICE, json!({"type": "respondUndo", "accept": true})),
    ];
    let out = session(&setup("swap", json!({})), &script);
    assert_eq!(code(&out[7]), "undoInOpening");
    assert_eq!(out[8]["events"][0]["plies"], 1);
    assert_eq!(out[9]["events"][0]["type"], "undoAccepted");
    assert_eq!(out[9]["views"]["spectator"]["turn"], "white");
    assert_eq!(
        out[9]["views"]["spectator"]["moves"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    let off = session(
        &setup("none", json!({"undo": "off"})),
        &[place(ALICE, 0, 0), simple(ALICE, "requestUndo")],
    );
    assert_eq!(code(&off[2]), "undoDisabled");
    let three =
        json!({"options": {"ruleSet": "pente", "players": 3, "timeControl": {"kind": "none"}},
        "seed": 1, "players": ["a", "b", "c"]})
        .to_string();
    let out = run_lines([
        three,
        r#"{"type":"place","player":"a","x":0,"y":0,"now":1}"#.to_string(),
        r#"{"type":"requestUndo","player":"a","now":2}"#.to_string(),
    ]);
    assert_eq!(code(&v(&out[2])), "undoDisabled");
}

#[test]
fn tournaments_refuse_swap_and_swap2() {
    use omok::tournament::pente::PenteTournament;
    use omok::tournament::spec::TournamentArgs;
    for rule in ["swap", "swap2"] {
        let dir = common::TempDir::new("pente-opening");
        let path = dir.path().join(format!("{rule}.toml"));
        let body = format!(
            "rule = \"pente\"\ngames = 2\n[pente]\nopeningRule = \"{rule}\"\n[[engine]]\nlevel = 1\n[[engine]]\nlevel = 2\n"
        );
        std::fs::write(&path, body).unwrap();
        let args = TournamentArgs {
            spec: path,
            ..TournamentArgs::default()
        };
        let exe = std::path::PathBuf::from(env!("CARGO_BIN_EXE_pbrain-omok"));
        let Err(err) = PenteTournament::load(&args, &exe) else {
            panic!("{rule} accepted");
        };
        assert!(err.to_string().contains("openingRule"), "{err}");
    }
}

fn points(answer: &str) -> Vec<(i64, i64)> {
    answer
        .split_whitespace()
        .map(|w| {
            let (x, y) = w.split_once(',').unwrap_or_else(|| panic!("{answer}"));
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

#[test]
fn the_brain_answers_pente_swap2board() {
    let head = "INFO omok_rule pente\nINFO pente_opening swap2\nINFO max_node 300\nSTART 13\n";
    // No stones: the brain proposes white, black, white on empty points.
    let out = common::brain_lines(&format!("{head}SWAP2BOARD\nDONE\n"));
    let three = points(&out[1]);
    assert_eq!(three.len(), 3, "{out:?}");
    assert!(
        three
            .iter()
            .all(|&(x, y)| (0..13).contains(&x) && (0..13).contains(&y))
    );
    assert!(three[0] != three[1] && three[1] != three[2] && three[0] != three[2]);
    for start in ["6,6\n7,6\n4,4\n", "6,6\n7,6\n8,4\n", "1,1\n2,2\n3,1\n"] {
        // Three stones: SWAP, a black stone, or a black and a white stone.
        let out = common::brain_lines(&format!("{head}SWAP2BOARD\n{start}DONE\n"));
        let a = &out[1];
        assert!(a == "SWAP" || matches!(points(a).len(), 1 | 2), "{out:?}");
        // Five stones: SWAP (keep white) or a black move.
        let out = common::brain_lines(&format!("{head}SWAP2BOARD\n{start}9,9\n11,11\nDONE\n"));
        let a = &out[1];
        assert!(a == "SWAP" || points(a).len() == 1, "{out:?}");
        let again = common::brain_lines(&format!("{head}SWAP2BOARD\n{start}9,9\n11,11\nDONE\n"));
        assert_eq!(again, out, "deterministic under max_node");
    }
    let out = common::brain_lines(&format!(
        "{head}SWAP2BOARD\n1,1\nDONE\nSWAP2BOARD\n1,1\n2,2\n1,1\nDONE\n"
    ));
    assert!(out[1].starts_with("ERROR SWAP2BOARD: 1 stones"), "{out:?}");
    assert!(out[2].starts_with("ERROR"), "occupied: {out:?}");
    let out = common::brain_lines(
        "INFO omok_rule pente\nINFO max_node 300\nSTART 13\nSWAP2BOARD\nDONE\n",
    );
    assert_eq!(out[1], "ERROR SWAP2BOARD needs INFO pente_opening swap2");
    // Under swap a BOARD's opening stones all come from the first player.
    let out = common::brain_lines(
        "INFO omok_rule pente\nINFO pente_opening swap\nINFO max_node 300\nSTART 13\n\
         BOARD\n6,6,2\n7,6,2\n6,7,2\n8,8,2\nDONE\n",
    );
    assert_eq!(points(&out[1]).len(), 1, "{out:?}");
}

#[test]
fn random_actions_in_swap_openings_never_panic_and_keep_the_hash_on_rejection() {
    for rule in ["swap", "swap2"] {
        let per_move = json!({"boardSize": 9, "suicide": "forbidden",
            "timeControl": {"kind": "perMove", "perMoveSec": 8}});
        let mut session = omok::game::Session::new();
        let first = session.handle_line(&setup(rule, per_move)).unwrap();
        let mut hash = v(&first)["hash"].clone();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(rule.len() as u64);
        let mut now = 0u64;
        let mut accepted = 0;
        let mut played = false;
        for _ in 0..600 {
            let r = rand_core::RngCore::next_u64(&mut rng);
            now += r % 400;
            let who = if r >> 8 & 1 == 0 { ALICE } else { BOB };
            let (x, y) = ((r >> 16) % 10, (r >> 24) % 10);
            let line = match (r >> 32) % 9 {
                0..=2 => {
                    format!(r#"{{"type":"place","player":"{who}","x":{x},"y":{y},"now":{now}}}"#)
                }
                3 => format!(
                    r#"{{"type":"swap","player":"{who}","swap":{},"now":{now}}}"#,
                    r >> 40 & 1 == 0
                ),
                4 => format!(
                    r#"{{"type":"putTwo","player":"{who}","points":[{{"x":{x},"y":{y}}},{{"x":{},"y":{}}}],"now":{now}}}"#,
                    (r >> 44) % 9,
                    (r >> 48) % 9
                ),
                5 => format!(r#"{{"type":"requestUndo","player":"{who}","now":{now}}}"#),
                6 => format!(
                    r#"{{"type":"respondUndo","player":"{who}","accept":true,"now":{now}}}"#
                ),
                7 => format!(r#"{{"type":"timeout","now":{now}}}"#),
                _ => format!(r#"{{"type":"choose","player":"{who}","x":{x},"y":{y},"now":{now}}}"#),
            };
            let Some(reply) = session.handle_line(&line) else {
                continue;
            };
            let l = v(&reply);
            if l["ok"] == false {
                assert_eq!(l["hash"], hash, "{line}: {l}");
            } else {
                accepted += 1;
                hash = l["hash"].clone();
                played |= l["phase"] == "playing";
                if l["phase"] == "finished" {
                    break;
                }
            }
        }
        assert!(accepted > 5 && played, "{rule}: {accepted} accepted");
    }
}
