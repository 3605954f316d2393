//! The opening rules in the referee (issue 12): one full scripted game per rule through
//! `pbrain-omok referee`, each rule's illegal actions with their codes, clocks and colours through
//! swaps, the opening's auto-action on a timeout, undo refusal, replay by hash, and seats played
//! by the engine (events, seat actions, replay, charged thinking time).

mod common;

use omok::Color;
use omok::game::options::{ColorAssignment, TimeControl};
use omok::game::{Action, Event, Game, GameError, Phase, Setup};
use omok::rules::opening::OpeningRule;
use serde_json::{Value, json};

const ALICE: &str = "alice";
const BOB: &str = "bob";

/// A script step: who acts and the action's JSON without `player` and `now`.
type Step = (&'static str, Value);

fn place(who: &'static str, x: i64, y: i64) -> Step {
    (who, json!({"type": "place", "x": x, "y": y}))
}

fn swap(who: &'static str, s: bool) -> Step {
    (who, json!({"type": "swap", "swap": s}))
}

fn pts(points: &[(i64, i64)]) -> Value {
    points
        .iter()
        .map(|&(x, y)| json!({"x": x, "y": y}))
        .collect()
}

/// The end of every scripted game: white to move, black makes five on the top row while white
/// plays scattered stones on the bottom row.
fn black_five(black: &'static str, white: &'static str) -> Vec<Step> {
    let mut s = Vec::new();
    for i in 0..5 {
        s.push(place(white, 14 - 2 * i, 14));
        s.push(place(black, i, 0));
    }
    s
}

fn lines(rule: &str, ruleset: &str, script: &[Step]) -> String {
    let setup = json!({
        "options": {"ruleSet": ruleset, "openingRule": rule, "colorAssignment": "hostBlack",
                    "timeControl": {"kind": "fischer", "baseSec": 300, "incSec": 0}},
        "seed": 5, "players": {"host": ALICE, "guest": BOB}
    });
    let mut out = vec![setup.to_string()];
    for (i, (who, action)) in script.iter().enumerate() {
        let mut a = action.clone();
        a["player"] = json!(who);
        a["now"] = json!(1000 * (i as u64 + 1));
        out.push(a.to_string());
    }
    out.join("\n") + "\n"
}

/// Runs a script through the binary; every line must be accepted; returns the output lines.
fn run(rule: &str, ruleset: &str, script: &[Step]) -> Vec<Value> {
    let input = lines(rule, ruleset, script);
    let out = common::run_binary(&["referee"], &input);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let v: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), script.len() + 2);
    for (i, line) in v[..v.len() - 1].iter().enumerate() {
        assert_eq!(line["ok"], true, "{rule}: line {i}: {line}");
    }
    // The same output in process.
    let in_process = omok::game::session::run_lines(input.lines());
    assert_eq!(text.lines().collect::<Vec<_>>(), in_process);
    v
}

fn events_of(v: &[Value]) -> Vec<String> {
    v.iter()
        .flat_map(|l| l["events"].as_array().cloned().unwrap_or_default())
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect()
}

fn check_black_won(v: &[Value], black: &str, stones_in_opening: usize) {
    let fin = v.last().unwrap();
    assert_eq!(fin["result"]["winner"], "black", "{fin}");
    assert_eq!(fin["result"]["reason"], "five");
    assert_eq!(fin["moveCount"], stones_in_opening + 10);
    let started = v.iter().rev().find(|l| l["views"].is_object()).unwrap();
    assert_eq!(started["views"]["spectator"]["players"]["black"], black);
    let events = events_of(v);
    assert_eq!(
        events.iter().filter(|e| *e == "openingFinished").count(),
        1,
        "{events:?}"
    );
}

#[test]
fn pro_and_long_pro_games() {
    for (rule, y) in [("pro", 10), ("longPro", 11)] {
        let mut s = vec![place(ALICE, 7, 7), place(BOB, 8, 8), place(ALICE, 7, y)];
        s.extend(black_five(ALICE, BOB));
        let v = run(rule, "korean", &s);
        assert_eq!(v[0]["phase"], "opening");
        assert_eq!(
            v[0]["views"]["spectator"]["opening"]["pending"]["region"]["kind"],
            "within"
        );
        assert_eq!(v[3]["phase"], "playing");
        check_black_won(&v, ALICE, 3);
    }
}

#[test]
fn swap_game() {
    let mut s = vec![place(ALICE, 7, 7), place(ALICE, 8, 7), place(ALICE, 8, 9)];
    s.push(swap(BOB, true));
    s.extend(black_five(BOB, ALICE));
    let v = run("swap", "free", &s);
    let decided = &v[4]["events"][0];
    assert_eq!(decided["type"], "swapDecided");
    assert_eq!(decided["black"], BOB);
    assert_eq!(v[4]["views"]["spectator"]["turn"], "white");
    check_black_won(&v, BOB, 3);
}

#[test]
fn swap2_game_with_two_more_stones() {
    let mut s = vec![place(ALICE, 7, 7), place(ALICE, 8, 7), place(ALICE, 8, 9)];
    s.push((
        BOB,
        json!({"type": "putTwo", "points": pts(&[(6, 6), (9, 9)])}),
    ));
    s.push(swap(ALICE, false));
    s.extend(black_five(ALICE, BOB));
    let v = run("swap2", "free", &s);
    let pending = &v[3]["views"]["spectator"]["opening"]["pending"];
    assert_eq!(pending["kind"], "swap2Choice");
    assert_eq!(pending["player"], BOB);
    assert_eq!(
        v[4]["views"]["spectator"]["opening"]["pending"]["player"],
        ALICE
    );
    check_black_won(&v, ALICE, 5);
}

#[test]
fn rif_game() {
    let mut s = vec![place(ALICE, 7, 7), place(ALICE, 7, 6), place(ALICE, 7, 9)];
    s.push(swap(BOB, false));
    s.push(place(BOB, 3, 3));
    s.push((
        ALICE,
        json!({"type": "offer", "points": pts(&[(10, 10), (4, 10)])}),
    ));
    s.push((BOB, json!({"type": "choose", "x": 10, "y": 10})));
    s.extend(black_five(ALICE, BOB));
    let v = run("rif", "renju", &s);
    let offers = &v[6]["views"]["spectator"]["opening"]["offers"];
    assert_eq!(offers.as_array().unwrap().len(), 2);
    assert_eq!(v[7]["events"][0]["type"], "offerChosen");
    assert_eq!(v[7]["events"][1]["type"], "stonePlaced");
    check_black_won(&v, ALICE, 5);
}

#[test]
fn soosorv_game() {
    let mut s = vec![place(ALICE, 7, 7), place(ALICE, 7, 6), place(ALICE, 7, 9)];
    s.push(swap(BOB, true));
    s.push(place(ALICE, 3, 3));
    s.push((ALICE, json!({"type": "declare", "count": 2})));
    s.push(swap(BOB, false));
    s.push((
        BOB,
        json!({"type": "offer", "points": pts(&[(10, 10), (4, 10)])}),
    ));
    s.push((ALICE, json!({"type": "choose", "x": 4, "y": 10})));
    s.extend(black_five(BOB, ALICE));
    let v = run(r#"soosorv-5"#, "renju", &s);
    assert_eq!(
        v[0]["views"]["spectator"]["options"]["openingRule"],
        "soosorv-5"
    );
    assert_eq!(v[6]["views"]["spectator"]["opening"]["declared"], 2);
    check_black_won(&v, BOB, 5);
}

#[test]
fn taraguchi_game_with_ten_offers() {
    let mut s = vec![
        place(ALICE, 7, 7),
        swap(BOB, false),
        place(BOB, 8, 7),
        swap(ALICE, false),
        place(ALICE, 9, 8),
        swap(BOB, false),
        place(BOB, 10, 6),
    ];
    let offers: Vec<(i64, i64)> = (0..10).map(|x| (x, 12)).collect();
    s.push((ALICE, json!({"type": "offer", "points": pts(&offers)})));
    s.push((BOB, json!({"type": "choose", "x": 3, "y": 12})));
    s.extend(black_five(ALICE, BOB));
    let v = run("taraguchi10", "renju", &s);
    let pending = &v[7]["views"]["spectator"]["opening"]["pending"];
    assert_eq!(pending["kind"], "swapOrOffer");
    assert_eq!(pending["count"], 10);
    check_black_won(&v, ALICE, 5);
}

#[test]
fn center_and_none_games() {
    let v = run("center", "free", &[place(ALICE, 7, 7), place(BOB, 8, 8)]);
    assert_eq!(v[1]["events"][1]["type"], "openingFinished");
    let v = run("none", "free", &[place(ALICE, 0, 0)]);
    assert_eq!(v[0]["phase"], "playing");
    assert_eq!(v[0]["views"]["spectator"]["opening"]["finished"], true);
}

// ---- In process: illegal actions, clocks, timeouts, undo, replay. ----

struct T {
    game: Game,
    now: u64,
}

impl T {
    fn new(rule: OpeningRule) -> T {
        T::with(rule, TimeControl::PerMove { per_move_sec: 30 })
    }

    fn with(rule: OpeningRule, tc: TimeControl) -> T {
        let mut s = Setup::new(11, ALICE, BOB);
        s.options.color_assignment = ColorAssignment::HostBlack;
        s.options.opening_rule = rule;
        s.options.time_control = tc;
        T {
            game: Game::new(&s).unwrap().0,
            now: 0,
        }
    }

    fn act(&mut self, a: Action) -> Result<Vec<Event>, GameError> {
        let before = self.game.state_hash();
        let r = self.game.apply(&a);
        if r.is_err() {
            assert_eq!(
                self.game.state_hash(),
                before,
                "a rejected action changes nothing"
            );
        }
        r
    }

    fn tick(&mut self) -> u64 {
        self.now += 1000;
        self.now
    }

    fn place(&mut self, who: &str, x: i64, y: i64) -> Result<Vec<Event>, GameError> {
        let now = self.tick();
        self.act(Action::Place {
            player: who.into(),
            x,
            y,
            now,
        })
    }

    fn swap(&mut self, who: &str, swap: bool) -> Result<Vec<Event>, GameError> {
        let now = self.tick();
        self.act(Action::Swap {
            player: who.into(),
            swap,
            now,
        })
    }

    fn code(r: Result<Vec<Event>, GameError>) -> &'static str {
        r.unwrap_err().code()
    }
}

fn p(x: i64, y: i64) -> omok::game::actions::Point {
    omok::game::actions::Point { x, y }
}

#[test]
fn illegal_actions_have_codes_and_messages() {
    let mut t = T::new(OpeningRule::Rif);
    assert_eq!(T::code(t.place(BOB, 7, 7)), "notYourTurn");
    let e = t.place(ALICE, 8, 8).unwrap_err();
    assert_eq!(e.code(), "outsideRegion");
    assert_eq!(e.message_ko(), "이 돌은 가운데(천원)에 둬야 해요");
    assert!(e.message_en().contains("the centre"));
    assert_eq!(T::code(t.swap(ALICE, true)), "wrongOpeningAction");
    t.place(ALICE, 7, 7).unwrap();
    assert_eq!(T::code(t.place(ALICE, 7, 7)), "occupied");
    assert_eq!(T::code(t.place(ALICE, 99, 7)), "offBoard");
    t.place(ALICE, 7, 6).unwrap();
    t.place(ALICE, 7, 9).unwrap();
    assert_eq!(t.game.turn(), Color::White, "bob (white) decides");
    let now = t.tick();
    assert_eq!(
        T::code(t.act(Action::RequestUndo {
            player: ALICE.into(),
            now
        })),
        "undoInOpening"
    );
    t.swap(BOB, false).unwrap();
    t.place(BOB, 7, 3).unwrap();
    // The position is symmetric in the line x = 7: (4,4) and (10,4) are one 5th move.
    let now = t.tick();
    let sym = t.act(Action::Offer {
        player: ALICE.into(),
        points: vec![p(4, 4), p(10, 4)],
        now,
    });
    assert_eq!(T::code(sym), "symmetricOffers");
    let now = t.tick();
    let one = t.act(Action::Offer {
        player: ALICE.into(),
        points: vec![p(4, 4)],
        now,
    });
    assert_eq!(T::code(one), "badOfferCount");
    let now = t.tick();
    t.act(Action::Offer {
        player: ALICE.into(),
        points: vec![p(4, 4), p(4, 10)],
        now,
    })
    .unwrap();
    let now = t.tick();
    let not = t.act(Action::Choose {
        player: BOB.into(),
        x: 5,
        y: 5,
        now,
    });
    assert_eq!(T::code(not), "notOffered");
    let now = t.tick();
    t.act(Action::Choose {
        player: BOB.into(),
        x: 4,
        y: 4,
        now,
    })
    .unwrap();
    assert_eq!(t.game.phase(), Phase::Playing);
    assert_eq!(T::code(t.swap(BOB, true)), "openingOver");
    // After the opening, an undo may not reach into it.
    t.place(BOB, 0, 0).unwrap();
    let now = t.tick();
    t.act(Action::RequestUndo {
        player: BOB.into(),
        now,
    })
    .unwrap();
    let now = t.tick();
    assert_eq!(
        T::code(t.act(Action::RequestUndo {
            player: ALICE.into(),
            now
        })),
        "undoPending"
    );
    let mut t2 = T::new(OpeningRule::Swap2);
    for (x, y) in [(7, 7), (8, 7), (8, 9)] {
        t2.place(ALICE, x, y).unwrap();
    }
    let e = t2.swap(BOB, false).unwrap_err();
    assert_eq!(e.code(), "wrongOpeningAction");
    t2.place(BOB, 6, 6).unwrap();
    assert_eq!(t2.game.turn(), Color::Black);
    let now = t2.tick();
    assert_eq!(
        T::code(t2.act(Action::RequestUndo {
            player: BOB.into(),
            now
        })),
        "undoInOpening",
        "the last stone is an opening stone"
    );
}

#[test]
fn soosorv_declare_range_and_taraguchi_regions() {
    let mut t = T::new(OpeningRule::Soosorv(3));
    for (x, y) in [(7, 7), (8, 8), (9, 9)] {
        t.place(ALICE, x, y).unwrap();
    }
    t.swap(BOB, false).unwrap();
    t.place(BOB, 0, 0).unwrap();
    let now = t.tick();
    let e = t
        .act(Action::Declare {
            player: BOB.into(),
            count: 4,
            now,
        })
        .unwrap_err();
    assert_eq!(e.code(), "badDeclare");
    assert!(e.message_ko().contains("3개까지"));
    let mut t = T::new(OpeningRule::Taraguchi10);
    t.place(ALICE, 7, 7).unwrap();
    t.swap(BOB, true).unwrap();
    // alice holds white now and places the 2nd within the central 3x3.
    assert_eq!(t.game.player(Color::White), ALICE);
    assert_eq!(T::code(t.place(ALICE, 9, 7)), "outsideRegion");
    t.place(ALICE, 8, 7).unwrap();
}

#[test]
fn fischer_banks_follow_the_players_through_a_swap() {
    let tc = TimeControl::Fischer {
        base_sec: 60,
        inc_sec: 0,
    };
    let mut t = T::with(OpeningRule::Swap, tc);
    for (x, y) in [(7, 7), (8, 7), (8, 9)] {
        t.place(ALICE, x, y).unwrap();
    }
    // alice spent 3 s of her bank placing three stones.
    assert_eq!(t.game.remaining_ms(Color::Black), Some(57_000));
    t.now += 9000;
    t.swap(BOB, true).unwrap();
    // bob spent 10 s deciding and now holds black; alice's bank went with her to white.
    assert_eq!(t.game.player(Color::Black), BOB);
    assert_eq!(t.game.remaining_ms(Color::Black), Some(50_000));
    assert_eq!(t.game.remaining_ms(Color::White), Some(57_000));
    assert_eq!(t.game.turn(), Color::White);
    assert_eq!(t.game.deadline(), Some(t.now + 57_000));
}

#[test]
fn opening_timeouts_play_a_seeded_action_and_replay_by_hash() {
    for rule in OpeningRule::ALL {
        let mut t = T::new(rule);
        let mut log = Vec::new();
        let mut alternate = 0;
        while t.game.result().is_none() && t.game.moves().len() < 8 {
            // Alternate the players' timeouts so that no streak reaches the limit.
            let deadline = t.game.deadline().unwrap();
            let turn = t.game.turn();
            let a = if alternate % 2 == 0 && t.game.auto_move_streak(turn) == 0 {
                Action::Timeout {
                    now: deadline,
                    player: None,
                    disconnected_at: None,
                    grace_sec: None,
                }
            } else {
                let who = t.game.player(t.game.turn()).to_string();
                let now = deadline - 1;
                if t.game.in_opening() {
                    let auto = omok::rules::opening::auto_action(
                        t.game.opening(),
                        t.game.board(),
                        &mut <rand_xoshiro::Xoshiro256PlusPlus as rand_core::SeedableRng>::seed_from_u64(alternate),
                    )
                    .unwrap();
                    Action::from_opening(&who, auto, now)
                } else {
                    let q = omok::rules::auto_move::auto_move(
                        &mut t.game.board().clone(),
                        t.game.turn(),
                        &mut <rand_xoshiro::Xoshiro256PlusPlus as rand_core::SeedableRng>::seed_from_u64(alternate),
                    )
                    .unwrap();
                    Action::Place {
                        player: who,
                        x: q.x() as i64,
                        y: q.y() as i64,
                        now,
                    }
                }
            };
            alternate += 1;
            t.now = a.now();
            t.act(a.clone()).unwrap_or_else(|e| panic!("{rule}: {e}"));
            log.push(a);
        }
        assert_eq!(t.game.phase(), Phase::Playing, "{rule}");
        let mut s = Setup::new(11, ALICE, BOB);
        s.options.color_assignment = ColorAssignment::HostBlack;
        s.options.opening_rule = rule;
        let replayed = Game::replay(&s, &log).unwrap();
        assert_eq!(replayed.state_hash(), t.game.state_hash(), "{rule}");
    }
}

// ---- Engine seats. ----

#[test]
fn an_engine_seat_answers_with_ordinary_events_and_replays() {
    let setup = json!({
        "options": {"ruleSet": "free", "openingRule": "swap2", "colorAssignment": "hostBlack"},
        "seed": 8,
        "players": {"host": ALICE, "guest": {"engine": {"strength": 40, "nodes": 300, "depth": 3}}}
    });
    let input = [
        setup.to_string(),
        json!({"type": "place", "player": ALICE, "x": 7, "y": 7, "now": 1000}).to_string(),
        json!({"type": "place", "player": ALICE, "x": 8, "y": 7, "now": 2000}).to_string(),
        json!({"type": "place", "player": ALICE, "x": 9, "y": 9, "now": 3000}).to_string(),
    ]
    .join("\n");
    let out = common::run_binary(&["referee"], &input);
    assert!(out.status.success());
    let v: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v[0]["events"][0]["white"], "engine");
    assert!(
        v[2].get("seatActions").is_none(),
        "the engine waits for its turn"
    );
    let answer = &v[3];
    assert_eq!(answer["ok"], true);
    let actions = answer["seatActions"].as_array().unwrap();
    assert!(!actions.is_empty());
    assert_eq!(actions[0]["player"], "engine");
    assert_eq!(
        actions[0]["now"], 3000,
        "the engine answers at the line's time"
    );
    let kind = actions[0]["type"].as_str().unwrap();
    assert!(["swap", "place", "putTwo"].contains(&kind), "{kind}");
    // Every seat action is also an ordinary action: the log with them replays to the same hash.
    let mut log: Vec<Action> = Vec::new();
    for (line, reply) in input.lines().skip(1).zip(&v[1..]) {
        log.push(serde_json::from_str(line).unwrap());
        for a in reply["seatActions"].as_array().into_iter().flatten() {
            log.push(serde_json::from_value(a.clone()).unwrap());
        }
    }
    let mut s: Setup = serde_json::from_value(json!({
        "options": setup["options"], "seed": 8, "players": {"host": ALICE, "guest": "engine"}
    }))
    .unwrap();
    s.now = 0;
    let game = Game::replay(&s, &log).unwrap();
    assert_eq!(game.state_hash_hex(), answer["hash"].as_str().unwrap());
}

#[test]
fn two_engine_seats_play_the_opening_and_on() {
    for rule in ["rif", "taraguchi10", "soosorv-3"] {
        let setup = json!({
            "options": {"ruleSet": "renju", "openingRule": rule, "timeControl": {"kind": "none"}},
            "seed": 2,
            "players": {"host": {"engine": {"strength": 100, "nodes": 200, "depth": 2}},
                        "guest": {"engine": {"strength": 0, "nodes": 200}, "id": "cpu"}}
        });
        let out = omok::game::session::Session::with_seats(omok::engine_seat::factory(
            omok::params::Params::default(),
        ))
        .handle_line(&setup.to_string())
        .unwrap();
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["ok"], true, "{rule}: {v}");
        let players = &v["views"]["spectator"]["players"];
        let ids = [
            players["black"].as_str().unwrap(),
            players["white"].as_str().unwrap(),
        ];
        assert!(
            ids.contains(&"engine-host") && ids.contains(&"cpu"),
            "{ids:?}"
        );
        let events = v["events"].as_array().unwrap();
        assert!(
            events.iter().any(|e| e["type"] == "openingFinished"),
            "{rule}"
        );
        let actions = v["seatActions"].as_array().unwrap();
        assert!(
            actions.len() == omok::game::session::MAX_SEAT_ACTIONS || v["phase"] == "finished",
            "{rule}: {} actions",
            actions.len()
        );
    }
}

#[test]
fn bad_engine_seats_are_setup_errors() {
    let mut session = omok::game::Session::new();
    let line = json!({"seed": 1, "players": {"host": "a", "guest": {"engine": {}}}}).to_string();
    let v: Value = serde_json::from_str(&session.handle_line(&line).unwrap()).unwrap();
    assert_eq!(v["error"]["code"], "malformedSetup");
    let mut session = omok::game::session::Session::with_seats(omok::engine_seat::factory(
        omok::params::Params::default(),
    ));
    for guest in [
        json!({"engine": {"strength": 101}}),
        json!({"engine": {"speed": 1}}),
        json!({"robot": {}}),
    ] {
        let line = json!({"seed": 1, "players": {"host": "a", "guest": guest}}).to_string();
        let v: Value = serde_json::from_str(&session.handle_line(&line).unwrap()).unwrap();
        assert_eq!(v["error"]["code"], "malformedSetup", "{guest}");
    }
}

#[test]
fn an_engine_seat_may_charge_its_thinking_time() {
    let setup = json!({
        "options": {"ruleSet": "free", "openingRule": "swap", "colorAssignment": "hostBlack",
                    "timeControl": {"kind": "fischer", "baseSec": 60, "incSec": 0}},
        "seed": 4, "now": 5000,
        "players": {"host": {"engine": {"nodes": 200, "depth": 2, "chargeTime": true}}, "guest": "bob"}
    });
    let mut session = omok::game::session::Session::with_seats(omok::engine_seat::factory(
        omok::params::Params::default(),
    ));
    let v: Value = serde_json::from_str(&session.handle_line(&setup.to_string()).unwrap()).unwrap();
    let actions = v["seatActions"].as_array().unwrap();
    assert_eq!(actions.len(), 3, "the engine proposes three stones: {v}");
    let times: Vec<u64> = actions.iter().map(|a| a["now"].as_u64().unwrap()).collect();
    assert!(
        times[0] >= 5000 && times.windows(2).all(|w| w[0] <= w[1]),
        "{times:?}"
    );
    let game = session.game().unwrap();
    let spent = times[2] - 5000;
    assert_eq!(game.remaining_ms(Color::Black), Some(60_000 - spent));
}
