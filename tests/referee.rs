//! The game referee against seed 004 §10's test checklist — one test (or more) per item, named
//! `c01_…` to `c18_…` in checklist order — plus results, options and bad input. Every rejected
//! action goes through [`rejected`], which asserts that the state hash did not change.
//!
//! Points are written in renju notation (`h8` is the centre of 15×15); `host` plays black unless
//! a test says otherwise. Time advances one second per action unless a test sets it.

mod common;
#[path = "referee/support.rs"]
mod support;

use common::renju;
use omok::game::{Action, Event, Game, GameError, Phase, ResultReason, Setup, Viewer};
use omok::rules::{ForbiddenKind, forbidden};
use omok::{Color, Pos};
use support::*;

// ---- seed 004 §10 ---------------------------------------------------------------------------

#[test]
fn c01_five_in_every_direction_and_at_the_edge_wins() {
    let cases = [
        ("a15 b15 c15 d15 e15", "a1 c1 e1 g1", "A15~E15"),
        ("o2 o3 o4 o5 o6", "a1 c1 e1 g1", "O2~O6"),
        ("d12 e11 f10 g9 h8", "a1 c1 e1 g1", "D12~H8"),
        ("a1 b2 c3 d4 e5", "o15 m15 k15 h15", "A1~E5"),
    ];
    for (black, white, ends) in cases {
        let mut t = Table::new("{}");
        t.setup_stones(black, white);
        let (winner, reason, summary) = result_of(&t);
        assert_eq!((winner, reason), (Some(Color::Black), ResultReason::Five));
        assert_eq!(summary, format!("흑 승 ({ends} 오목, 9수)"));
        assert_eq!(t.game.result().unwrap().win_line.as_ref().unwrap().len(), 5);
        assert_eq!(t.game.phase(), Phase::Finished);
        assert_eq!(t.game.deadline(), None);
    }
}

/// Black's C8 D8 E8 G8 H8 then F8 (a six), white the same on row 4.
const SIX_BLACK: &str = "c8 d8 e8 g8 h8 f8";
const SIX_WHITE: &str = "c4 d4 e4 g4 h4 f4";

#[test]
fn c02_korean_six_is_legal_but_wins_for_neither_colour() {
    let mut t = Table::new(r#"{"ruleSet":"korean"}"#);
    t.setup_stones(SIX_BLACK, SIX_WHITE);
    assert_eq!(t.game.phase(), Phase::Playing);
    assert_eq!(t.game.moves().len(), 12);
    assert_eq!(t.game.turn(), Color::Black);
}

#[test]
fn c03_renju_white_six_wins_black_six_is_forbidden() {
    let mut t = Table::new(r#"{"ruleSet":"renju","firstMoveCenter":"off"}"#);
    t.setup_stones("c8 d8 e8 g8 h8", "c4 d4 e4 g4 h4");
    let e = rejected_place(&mut t, "f8");
    assert_eq!(e.code(), "forbidden");
    assert_eq!(e.message_ko(), "흑은 6목 이상을 만들 수 없어요");
    t.play("a15 f4");
    let (winner, reason, summary) = result_of(&t);
    assert_eq!((winner, reason), (Some(Color::White), ResultReason::Five));
    assert_eq!(summary, "백 승 (C4~H4 6목, 12수)");
}

#[test]
fn c04_free_five_plus_six_wins_exact_five_six_does_not() {
    let mut t = Table::new(r#"{"ruleSet":"free"}"#);
    t.setup_stones(SIX_BLACK, "c4 d4 e4 g4 h4");
    assert_eq!(result_of(&t).0, Some(Color::Black));
    let mut t = Table::new(r#"{"ruleSet":"free","freeWin":"exactFive"}"#);
    t.setup_stones(SIX_BLACK, SIX_WHITE);
    assert_eq!(t.game.phase(), Phase::Playing);
}

/// Plays an example's stones (white first filled up from `fill`) and tries `point` for black.
fn example(
    opts: &str,
    black: &str,
    white: &str,
    point: &str,
) -> (Table, Result<Vec<Event>, GameError>) {
    let mut t = Table::new(opts);
    let nb = black.split_whitespace().count();
    let mut whites: Vec<&str> = white.split_whitespace().collect();
    let fill = ["a1", "a15", "o1", "o15", "c15", "m1", "m15", "c1"];
    whites.extend(fill.iter().take(nb.saturating_sub(whites.len())));
    t.setup_stones(black, &whites.join(" "));
    let before = t.game.state_hash();
    let r = t.place(point);
    if r.is_err() {
        assert_eq!(t.game.state_hash(), before);
    }
    (t, r)
}

const RENJU: &str = r#"{"ruleSet":"renju","firstMoveCenter":"off"}"#;
const KOREAN: &str = r#"{"ruleSet":"korean"}"#;
const FREE: &str = r#"{"ruleSet":"free"}"#;

fn forbidden_kind(r: &Result<Vec<Event>, GameError>) -> Option<ForbiddenKind> {
    match r {
        Err(GameError::Forbidden { kind, .. }) => Some(*kind),
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => None,
    }
}

#[test]
fn c05_example_a_double_three() {
    for opts in [RENJU, KOREAN] {
        let (_, r) = example(opts, "f8 g8 h9 h10", "", "h8");
        assert_eq!(
            forbidden_kind(&r),
            Some(ForbiddenKind::DoubleThree),
            "{opts}"
        );
        assert_eq!(
            r.unwrap_err().message_ko(),
            "흑은 3-3 자리에 둘 수 없어요(쌍삼 금지)"
        );
    }
    assert!(example(FREE, "f8 g8 h9 h10", "", "h8").1.is_ok());
}

#[test]
fn c06_example_b_one_line_double_four() {
    let (_, r) = example(RENJU, "d8 f8 h8 j8", "", "g8");
    assert_eq!(forbidden_kind(&r), Some(ForbiddenKind::DoubleFour));
    assert_eq!(r.unwrap_err().message_ko(), "흑은 4-4 자리에 둘 수 없어요");
    assert!(example(KOREAN, "d8 f8 h8 j8", "", "g8").1.is_ok());
}

#[test]
fn c07_examples_c_d_e_are_legal_and_e_needs_the_recursion() {
    assert!(example(RENJU, "f8 g8 h9 h10", "e8", "h8").1.is_ok());
    assert!(example(RENJU, "c8 f8 g8 k8 h9 h10", "", "h8").1.is_ok());
    let e_black = "e9 e10 f8 g8 f7 h7 g6 h6";
    assert!(example(RENJU, e_black, "j8", "h8").1.is_ok());
    let shallow = r#"{"ruleSet":"renju","firstMoveCenter":"off","forbidDepthCap":1}"#;
    let (_, r) = example(shallow, e_black, "j8", "h8");
    assert_eq!(forbidden_kind(&r), Some(ForbiddenKind::DoubleThree));
}

#[test]
fn c08_five_first_beats_a_double_four() {
    let black = "h9 h10 h11 g7 f6 e5 d8 e8 f8 g8";
    let (t, r) = example(RENJU, black, "a1 c1 e1 g1 i1 k1 m1 o1 a15 c15", "h8");
    assert!(r.is_ok());
    assert_eq!(result_of(&t).0, Some(Color::Black));
    // Without the five (no D8) the same point is a double four.
    let mut b = common::board(omok::Rule::Renju, "h9 h10 h11 g7 f6 e5 e8 f8 g8", "");
    assert_eq!(
        forbidden(&mut b, renju("h8", 15), Color::Black),
        Some(ForbiddenKind::DoubleFour)
    );
}

#[test]
fn c09_korean_white_double_three_is_rejected() {
    let mut t = Table::new(KOREAN);
    t.setup_stones("a1 c1 e1 g1 i1", "f8 g8 h9 h10");
    let e = rejected_place(&mut t, "h8");
    assert_eq!(e.message_ko(), "백은 3-3 자리에 둘 수 없어요(쌍삼 금지)");
    assert!(matches!(
        e,
        GameError::Forbidden {
            color: Color::White,
            ..
        }
    ));
}

#[test]
fn c10_first_move_center() {
    let mut t = Table::new(r#"{"firstMoveCenter":"on"}"#);
    let e = rejected_place(&mut t, "a1");
    assert_eq!(e.code(), "firstMoveNotCentre");
    assert_eq!(e.message_ko(), "첫 수는 가운데에 둬야 해요");
    t.play("h8 a1 o15");
    // Renju turns it on by default, korean does not; 19×19's centre is J10.
    let mut renju19 = Table::new(r#"{"ruleSet":"renju","boardSize":19}"#);
    assert!(
        rejected_place(&mut renju19, "h8")
            .message_en()
            .contains("J10")
    );
    renju19.play("j10");
    Table::new(KOREAN).play("a1");
}

/// The points of an n×n board filled without any five: colour by `(x + 2y) mod 4 < 2`, black
/// first, alternating.
fn no_five_fill(n: usize) -> Vec<Pos> {
    let cells: Vec<Pos> = (0..n)
        .flat_map(|y| (0..n).map(move |x| Pos::new(x, y).unwrap()))
        .collect();
    let (b, w): (Vec<Pos>, Vec<Pos>) = cells.into_iter().partition(|p| (p.x() + 2 * p.y()) % 4 < 2);
    assert_eq!(b.len(), w.len() + 1);
    let mut order = Vec::new();
    for (i, &p) in b.iter().enumerate() {
        order.push(p);
        order.extend(w.get(i));
    }
    order
}

#[test]
fn c11_full_board_is_a_draw_on_15_and_19() {
    for n in [15usize, 19] {
        let mut t = Table::new(&format!(r#"{{"ruleSet":"free","boardSize":{n}}}"#));
        for p in no_five_fill(n) {
            t.place_at(p).unwrap();
        }
        let (winner, reason, summary) = result_of(&t);
        assert_eq!((winner, reason), (None, ResultReason::BoardFull));
        assert_eq!(summary, format!("무승부 (판이 가득 참, {}수)", n * n));
        let ranks: Vec<u8> = t
            .game
            .result()
            .unwrap()
            .ranking
            .iter()
            .map(|r| r.rank)
            .collect();
        assert_eq!(ranks, [1, 1]);
    }
}

#[test]
fn c12_undo_one_ply_after_my_move() {
    let mut t = Table::new(KOREAN);
    t.play("h8");
    let ev = t.act(Color::Black, request_undo).unwrap();
    assert_eq!(
        ev,
        [Event::UndoRequested {
            by: Color::Black,
            plies: 1
        }]
    );
    t.act(Color::White, accept_undo).unwrap();
    assert!(t.game.moves().is_empty());
    assert_eq!(t.game.turn(), Color::Black);
    assert_eq!(t.game.undo_remaining(Color::Black), Some(2));
    assert_eq!(t.game.turn_started_at(), t.now);
}

#[test]
fn c12_undo_two_plies_after_the_reply() {
    let mut t = Table::new(KOREAN);
    t.play("h8 h9");
    t.act(Color::Black, request_undo).unwrap();
    let ev = t.act(Color::White, accept_undo).unwrap();
    assert!(matches!(&ev[0], Event::UndoAccepted { plies: 2, removed, .. } if removed.len() == 2));
    assert!(t.game.moves().is_empty());
    assert_eq!(t.game.turn(), Color::Black);
}

#[test]
fn c12_undo_declined_changes_nothing() {
    let mut t = Table::new(KOREAN);
    t.play("h8 h9");
    let board = t.game.board().hash();
    t.act(Color::White, request_undo).unwrap();
    let e = t.act(Color::White, accept_undo).unwrap_err();
    assert_eq!(e, GameError::OwnRequest);
    t.act(Color::Black, decline_undo).unwrap();
    assert_eq!(t.game.board().hash(), board);
    assert_eq!(t.game.moves().len(), 2);
    assert_eq!(t.game.undo_remaining(Color::White), Some(3));
    assert_eq!(t.game.undo_pending(), None);
}

#[test]
fn c12_undo_request_lapses_when_the_opponent_places() {
    let mut t = Table::new(KOREAN);
    t.play("h8");
    t.act(Color::Black, request_undo).unwrap();
    let ev = t.place("h9").unwrap();
    assert!(ev.contains(&Event::UndoDeclined {
        by: Color::Black,
        auto: true
    }));
    assert_eq!(t.game.undo_pending(), None);
    let e = rejected_act(&mut t, Color::White, accept_undo);
    assert_eq!(e, GameError::NoUndoRequest);
}

#[test]
fn c12_undo_limit_and_off() {
    let mut t = Table::new(r#"{"undo":1}"#);
    t.play("h8");
    t.act(Color::Black, request_undo).unwrap();
    t.act(Color::White, accept_undo).unwrap();
    t.play("h8");
    let e = rejected_act(&mut t, Color::Black, request_undo);
    assert_eq!(e, GameError::UndoExhausted { limit: 1 });
    assert_eq!(e.message_ko(), "무르기 횟수를 모두 썼어요");
    let mut off = Table::new(r#"{"undo":"off"}"#);
    off.play("h8");
    assert_eq!(
        rejected(&mut off, &request_undo(HOST.into(), 5000)),
        GameError::UndoDisabled
    );
    let mut fresh = Table::new("{}");
    fresh.play("h8");
    assert_eq!(
        rejected(&mut fresh, &request_undo(GUEST.into(), 5000)),
        GameError::NothingToUndo
    );
    fresh.act(Color::Black, request_undo).unwrap();
    assert_eq!(
        rejected(&mut fresh, &request_undo(GUEST.into(), 5000)),
        GameError::UndoPending
    );
}

#[test]
fn c13_draw_offer_spam_guard_and_agreement() {
    let mut t = Table::new(KOREAN);
    t.play("h8 h9");
    t.act(Color::Black, offer_draw).unwrap();
    assert_eq!(
        rejected_act(&mut t, Color::White, offer_draw),
        GameError::DrawPending
    );
    t.act(Color::White, decline_draw).unwrap();
    t.play("a1 a2 c1 c2");
    let e = rejected_act(&mut t, Color::Black, offer_draw);
    assert_eq!(e, GameError::DrawTooSoon { moves_left: 1 });
    t.play("e1 e2");
    t.act(Color::Black, offer_draw).unwrap();
    t.act(Color::White, accept_draw).unwrap();
    let (winner, reason, summary) = result_of(&t);
    assert_eq!((winner, reason), (None, ResultReason::DrawAgreed));
    assert_eq!(summary, "무승부 (합의, 8수)");
}

#[test]
fn c13_draw_offer_declined_by_a_place_and_cancelled() {
    let mut t = Table::new(KOREAN);
    t.play("h8");
    t.act(Color::Black, offer_draw).unwrap();
    let ev = t.place("h9").unwrap();
    assert!(ev.contains(&Event::DrawDeclined {
        by: Color::Black,
        auto: true
    }));
    t.act(Color::White, offer_draw).unwrap();
    t.play("a1"); // black was offered the draw, so black's place declines it
    assert_eq!(t.game.draw_pending_by(), None);
    t.play("a2 c1 c2 e1 e2 g1");
    t.act(Color::White, offer_draw).unwrap();
    t.play("g2"); // the offerer's own place keeps the offer
    assert_eq!(t.game.draw_pending_by(), Some(Color::White));
    let cancel = |player, now| Action::CancelOffer { player, now };
    assert_eq!(
        t.act(Color::Black, cancel).unwrap_err(),
        GameError::NothingToCancel
    );
    assert_eq!(
        t.act(Color::White, cancel).unwrap(),
        [Event::DrawCancelled { by: Color::White }]
    );
    let mut off = Table::new(r#"{"drawOffer":false}"#);
    assert_eq!(
        rejected(&mut off, &offer_draw(HOST.into(), 1)),
        GameError::DrawOffersDisabled
    );
}

/// Example A in renju (H8 forbidden for black), black to move.
fn example_a_to_move(seed: u64) -> Table {
    let mut t = Table::seeded(RENJU, seed);
    t.setup_stones("f8 g8 h9 h10", CORNERS);
    t
}

fn auto_point(events: &[Event]) -> Pos {
    events
        .iter()
        .find_map(|e| match e {
            Event::TimeoutAutoMove { pt, .. } => Some(*pt),
            _ => None,
        })
        .expect("an auto-move")
}

#[test]
fn c14_auto_move_is_legal_and_the_same_for_a_seed() {
    let mut seen = Vec::new();
    for seed in 0..40 {
        let mut t = example_a_to_move(seed);
        let mut board = t.game.board().clone();
        let ev = t.time_out();
        let p = auto_point(&ev);
        assert!(board.is_empty(p), "seed {seed}: {p:?} occupied");
        assert_eq!(
            forbidden(&mut board, p, Color::Black),
            None,
            "seed {seed}: {p:?}"
        );
        assert_ne!(p, renju("h8", 15));
        assert!(matches!(ev[1], Event::StonePlaced { auto: true, .. }));
        assert!(t.game.moves().last().unwrap().auto);
        assert_eq!(
            auto_point(&example_a_to_move(seed).time_out()),
            p,
            "seed {seed}"
        );
        seen.push(p);
    }
    seen.sort();
    seen.dedup();
    assert!(seen.len() > 5, "the seed decides among many points");
}

#[test]
fn c14_third_consecutive_timeout_loses_and_a_real_move_resets_the_streak() {
    // White's moves: far from the centre, where black's auto-moves land.
    const FAR: &str = "a1 o15 a15 o1 c1 m15 c15 m1";
    let mut t = Table::new(KOREAN);
    t.time_out(); // black 1
    t.play_any(FAR);
    t.time_out(); // black 2
    assert_eq!(t.game.auto_move_streak(Color::Black), 2);
    t.play_any(FAR);
    let ev = t.time_out(); // black 3: loses
    assert_eq!(
        ev[0],
        Event::TimeLoss {
            color: Color::Black,
            late_move: None
        }
    );
    let (winner, reason, summary) = result_of(&t);
    assert_eq!(
        (winner, reason),
        (Some(Color::White), ResultReason::TimeLoss)
    );
    assert_eq!(summary, "백 승 (흑 시간패, 4수)");

    let mut t = Table::new(KOREAN);
    t.time_out();
    t.play_any(FAR);
    t.time_out();
    t.play_any(FAR);
    t.play_any(FAR); // black moves itself
    assert_eq!(t.game.auto_move_streak(Color::Black), 0);
    t.play_any(FAR);
    t.time_out();
    t.play_any(FAR);
    t.time_out();
    assert_eq!(t.game.phase(), Phase::Playing);
}

#[test]
fn c14_timeout_before_the_deadline_and_lose_policy() {
    let mut t = Table::new(KOREAN);
    let e = rejected(&mut t, &timeout(29_999, None));
    assert_eq!(
        e.message_en(),
        "the time has not run out yet (deadline 30000 ms, now 29999 ms)"
    );
    let mut lose = Table::new(r#"{"timeoutPolicy":"lose"}"#);
    lose.time_out();
    assert_eq!(result_of(&lose).1, ResultReason::TimeLoss);
    // A place arriving at the deadline is a timeout: here the auto-move is played instead.
    let mut late = Table::new(KOREAN);
    late.now = 29_000;
    let ev = late.place("a1").unwrap();
    assert!(matches!(
        ev[0],
        Event::TimeoutAutoMove {
            late_move: Some(_),
            ..
        }
    ));
    assert_eq!(
        late.game.moves()[0].pt,
        renju("h8", 15),
        "empty board: the centre"
    );
}

#[test]
fn c15_fischer_increment_and_a_move_after_zero() {
    let mut t = Table::new(r#"{"timeControl":{"kind":"fischer","baseSec":10,"incSec":2}}"#);
    t.now = 2_000;
    t.play("h8"); // at 3 s: 10 - 3 + 2
    assert_eq!(t.game.remaining_ms(Color::Black), Some(9_000));
    assert_eq!(t.game.deadline(), Some(13_000));
    t.now = 12_000;
    t.play("h9"); // at 13 s: exactly on time is too late
    let (winner, reason, _) = result_of(&t);
    assert_eq!(
        (winner, reason),
        (Some(Color::Black), ResultReason::TimeLoss)
    );
    assert_eq!(t.game.moves().len(), 1, "the late stone is not played");
    assert_eq!(t.game.remaining_ms(Color::White), Some(0));
}

#[test]
fn c16_disconnection_grace_and_reconnection() {
    let mut t = Table::new(r#"{"timeoutPolicy":"lose"}"#);
    t.play("h8"); // white's turn from 1 s, deadline 31 s
    let dc = |now, at| timeout(now, Some((GUEST, at, 5)));
    assert_eq!(t.game.grace_deadline(2_000, 5), Some(7_000));
    assert_eq!(rejected(&mut t, &dc(6_999, 2_000)).code(), "notTimedOut");
    // Black disconnected but it is not black's turn: nothing happens.
    let e = rejected(&mut t, &timeout(9_000, Some((HOST, 0, 5))));
    assert_eq!(e, GameError::NotYourTurn(Color::Black));
    // After a reconnection the caller sends plain timeouts: the normal deadline holds.
    assert_eq!(
        rejected(&mut t, &timeout(7_000, None)).code(),
        "notTimedOut"
    );
    t.game.apply(&dc(7_000, 2_000)).unwrap();
    assert_eq!(result_of(&t).0, Some(Color::Black));
}

fn keys(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                keys(x, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

#[test]
fn c17_views_leak_nothing() {
    let t = example_a_to_move(3);
    let views = t.game.views();
    let top = |v: &omok::game::GameView| -> Vec<String> {
        let j = serde_json::to_value(v).unwrap();
        j.as_object().unwrap().keys().cloned().collect()
    };
    let public = "board clock draw moves opening options phase players result rule size turn undo viewer lastMove winLine";
    let mut want: Vec<&str> = public.split(' ').collect();
    want.sort();
    let with = |extra: &[&'static str]| {
        let mut w = want.clone();
        w.extend(extra);
        w.sort();
        w
    };
    assert_eq!(top(&views.black), with(&["forbiddenPoints", "hintThreats"]));
    assert_eq!(top(&views.white), with(&[]));
    assert_eq!(top(&views.spectator), with(&["forbiddenPoints"]));
    assert_eq!(views.black, t.game.view(Viewer::Black));
    assert_eq!(views.spectator, t.game.view(Viewer::Spectator));
    let fp = views.black.forbidden_points.as_ref().unwrap();
    assert!(
        fp.iter()
            .any(|p| (p.x, p.y, p.reason) == (7, 7, "double-three"))
    );
    for v in [&views.black, &views.white, &views.spectator] {
        let mut all = Vec::new();
        keys(&serde_json::to_value(v).unwrap(), &mut all);
        for k in all {
            let k = k.to_ascii_lowercase();
            assert!(
                !k.contains("rng") && !k.contains("seed") && !k.contains("memo"),
                "{k}"
            );
        }
    }
}

#[test]
fn c17_hints_show_the_opponents_threats_to_the_player_to_move() {
    let mut t = Table::new(r#"{"ruleSet":"free"}"#);
    t.setup_stones("a1 c1 e1", "h8 h9 h10");
    let hints = t.game.view(Viewer::Black).hint_threats.unwrap();
    assert_eq!(hints.len(), 1);
    assert!(t.game.view(Viewer::Spectator).hint_threats.is_none());
    let off = Table::new(r#"{"hints":"off","showForbidden":false}"#);
    let v = off.game.view(Viewer::Black);
    assert!(v.hint_threats.is_none() && v.forbidden_points.is_none());
}

/// A log with every kind of action, rejected ones and auto-moves included (renju, seed 2024,
/// players alice and bob in random colours).
const MIXED_LOG: &str = r#"
{"type":"timeout","now":30000}
{"type":"place","player":"alice","x":8,"y":8,"now":31000}
{"type":"place","player":"bob","x":8,"y":8,"now":32000}
{"type":"requestUndo","player":"alice","now":33000}
{"type":"respondUndo","player":"bob","accept":true,"now":34000}
{"type":"timeout","now":64000}
{"type":"timeout","now":95000}
{"type":"offerDraw","player":"bob","now":96000}
{"type":"timeout","now":130000}
{"type":"place","player":"zed","x":1,"y":1,"now":131000}
{"type":"resign","player":"alice","now":132000}
"#;

fn mixed_log() -> Vec<Action> {
    MIXED_LOG
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn c18_replay_gives_the_same_hash() {
    let mut s = Setup::new(2024, "alice", "bob");
    s.options = serde_json::from_str(r#"{"ruleSet":"renju"}"#).unwrap();
    let log = mixed_log();
    let a = Game::replay(&s, &log).unwrap();
    let b = Game::replay(&s, &log).unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(a.moves(), b.moves());
    assert_eq!(a.phase(), Phase::Finished);
    let accepted: Vec<Action> = {
        let (mut g, _) = Game::new(&s).unwrap();
        log.iter().filter(|a| g.apply(a).is_ok()).cloned().collect()
    };
    assert!(accepted.len() < log.len());
    assert_eq!(
        Game::replay(&s, &accepted).unwrap().state_hash(),
        a.state_hash()
    );
    let other = (0..8)
        .map(|seed| Setup { seed, ..s.clone() })
        .filter(|s| Game::replay(s, &log).unwrap().state_hash() != a.state_hash())
        .count();
    assert!(other >= 7, "the seed is part of the state");
}

// ---- results and options ----------------------------------------------------------------------

#[test]
fn summary_of_the_seed_example_37_moves() {
    let mut t = Table::new(KOREAN);
    let xy = |x, y| Pos::new(x, y).unwrap();
    let mut black: Vec<Pos> = (0..8)
        .map(|i| xy(2 * i, 0))
        .chain((0..6).map(|i| xy(2 * i, 14)))
        .collect();
    black.extend((7..12).map(|x| xy(x, 7)));
    let white: Vec<Pos> = [2, 12, 4]
        .into_iter()
        .flat_map(|y| (0..7).map(move |i| xy(2 * i + 1, y)))
        .take(18)
        .collect();
    for (i, &p) in black.iter().enumerate() {
        t.place_at(p).unwrap();
        if let Some(&w) = white.get(i) {
            t.place_at(w).unwrap();
        }
    }
    assert_eq!(result_of(&t).2, "흑 승 (H8~L8 오목, 37수)");
    let r = t.game.result().unwrap();
    assert_eq!(r.summary_en, "Black wins (H8~L8 five, 37 moves)");
    assert_eq!(r.ranking[0].player_id, HOST);
    let v = serde_json::to_value(r).unwrap();
    assert_eq!(v["winLine"][0], serde_json::json!({"x": 7, "y": 7}));
    assert_eq!(v["moveCount"], 37);
}

#[test]
fn resign_and_foul_results() {
    let mut t = Table::new(KOREAN);
    t.play("h8");
    t.act(Color::Black, resign).unwrap();
    let (winner, reason, summary) = result_of(&t);
    assert_eq!((winner, reason), (Some(Color::White), ResultReason::Resign));
    assert_eq!(summary, "백 승 (흑 기권, 1수)");
    assert_eq!(t.game.result().unwrap().ranking[0].player_id, GUEST);

    let loss = r#"{"ruleSet":"renju","firstMoveCenter":"off","forbiddenPolicy":"loss"}"#;
    let (t, r) = example(loss, "f8 g8 h9 h10", "", "h8");
    assert!(r.unwrap().iter().any(|e| matches!(
        e,
        Event::Foul {
            kind: ForbiddenKind::DoubleThree,
            ..
        }
    )));
    assert_eq!(
        t.game.board().get(renju("h8", 15)),
        Some(Color::Black),
        "the stone stands"
    );
    let (winner, reason, summary) = result_of(&t);
    assert_eq!((winner, reason), (Some(Color::White), ResultReason::Foul));
    assert_eq!(summary, "백 승 (흑 금수 H8 쌍삼, 9수)");
}

#[test]
fn renju_black_without_a_legal_point_is_a_draw() {
    // A 6×6 renju game (found by random play) after which both empty points are forbidden for
    // black, who is to move.
    let moves = [
        (4, 3),
        (0, 5),
        (4, 5),
        (3, 1),
        (3, 2),
        (2, 5),
        (3, 3),
        (0, 2),
        (5, 1),
        (5, 0),
        (1, 2),
        (4, 1),
        (0, 4),
        (2, 1),
        (2, 2),
        (4, 0),
        (4, 2),
        (5, 2),
        (1, 5),
        (2, 0),
        (5, 5),
        (3, 0),
        (1, 4),
        (5, 4),
        (0, 3),
        (3, 4),
        (1, 0),
        (0, 0),
        (5, 3),
        (4, 4),
        (1, 3),
        (0, 1),
        (3, 5),
        (2, 4),
    ];
    let mut t = Table::new(r#"{"ruleSet":"renju","firstMoveCenter":"off","boardSize":6}"#);
    for (x, y) in moves {
        t.place_at(Pos::new(x, y).unwrap()).unwrap();
    }
    let (winner, reason, summary) = result_of(&t);
    assert_eq!((winner, reason), (None, ResultReason::NoLegalMove));
    assert_eq!(summary, "무승부 (흑 둘 곳 없음, 34수)");
    let mut board = t.game.board().clone();
    let empties: Vec<Pos> = board.positions().filter(|&p| board.is_empty(p)).collect();
    assert_eq!(empties.len(), 2);
    for p in empties {
        assert!(forbidden(&mut board, p, Color::Black).is_some(), "{p:?}");
    }
}

#[test]
fn gomocup_stone_limit_draw() {
    let mut t = Table::new(r#"{"ruleSet":"free","drawAfterStones":200}"#);
    for p in no_five_fill(15).into_iter().take(200) {
        t.place_at(p).unwrap();
    }
    let (winner, reason, summary) = result_of(&t);
    assert_eq!((winner, reason), (None, ResultReason::MoveLimit));
    assert_eq!(summary, "무승부 (200수 제한, 200수)");
}

#[test]
fn colour_assignment() {
    let black_of = |json: &str, seed, prev: Option<&str>| {
        let mut s = setup(json, seed);
        s.previous_black = prev.map(String::from);
        Game::new(&s).unwrap().0.player(Color::Black).to_string()
    };
    assert_eq!(
        black_of(r#"{"colorAssignment":"hostBlack"}"#, 1, None),
        HOST
    );
    assert_eq!(
        black_of(r#"{"colorAssignment":"hostWhite"}"#, 1, None),
        GUEST
    );
    let alt = r#"{"colorAssignment":"alternate"}"#;
    assert_eq!(black_of(alt, 1, Some(HOST)), GUEST);
    assert_eq!(black_of(alt, 1, Some(GUEST)), HOST);
    let random = r#"{"colorAssignment":"random"}"#;
    let draws: Vec<String> = (0..16).map(|s| black_of(random, s, None)).collect();
    assert!(draws.contains(&HOST.to_string()) && draws.contains(&GUEST.to_string()));
    assert_eq!(
        draws,
        (0..16)
            .map(|s| black_of(random, s, None))
            .collect::<Vec<_>>()
    );
    let mut bad = setup("{}", 1);
    bad.options.board_size = 40;
    assert_eq!(Game::new(&bad).err().unwrap().code(), "badOption");
}

// ---- bad input -------------------------------------------------------------------------------

#[test]
fn bad_input_wrong_player_out_of_turn_after_end() {
    let mut t = Table::new(KOREAN);
    t.play("h8");
    let e = rejected(&mut t, &place("mallory", 0, 0, 9_000));
    assert_eq!(e, GameError::UnknownPlayer("mallory".into()));
    let e = rejected(&mut t, &place(HOST, 0, 0, 9_000));
    assert_eq!(e, GameError::NotYourTurn(Color::Black));
    assert_eq!(e.message_ko(), "지금은 상대 차례예요");
    let e = rejected(&mut t, &resign(HOST.into(), 10));
    assert_eq!(e.code(), "timeWentBackwards");
    t.act(Color::White, resign).unwrap();
    for a in [
        place(GUEST, 0, 0, 99_000),
        resign(HOST.into(), 99_000),
        offer_draw(HOST.into(), 99_000),
        request_undo(HOST.into(), 99_000),
        timeout(99_000, None),
    ] {
        assert_eq!(rejected(&mut t, &a), GameError::GameOver);
    }
}

#[test]
fn bad_input_coordinates_and_occupied_points() {
    let mut t = Table::new(KOREAN);
    t.play("h8");
    let far = [
        (-1, 0),
        (0, -1),
        (15, 0),
        (0, 15),
        (99, 99),
        (i64::MAX, i64::MIN),
    ];
    for (x, y) in far {
        let e = rejected(&mut t, &place(GUEST, x, y, 5_000));
        assert_eq!(e, GameError::OffBoard { x, y, size: 15 });
        assert_eq!(e.message_ko(), "판 밖의 자리예요");
    }
    let e = rejected_place(&mut t, "h8");
    assert_eq!(e.message_ko(), "이미 돌이 있는 자리예요");
}

#[test]
fn bad_input_unknown_fields_and_malformed_lines() {
    let mut session = omok::game::Session::new();
    let setup = r#"{"options":{"colorAssignment":"hostBlack"},"seed":3,"players":{"host":"a","guest":"b"}}"#;
    let json = |line: &str| serde_json::from_str::<serde_json::Value>(line).unwrap();
    let h0 = json(&session.handle_line(setup).unwrap())["hash"].clone();
    for line in [
        r#"{"type":"place","player":"a","x":7,"y":7,"now":1,"color":"black"}"#,
        r#"{"type":"place","player":"a","x":"h","y":8,"now":1}"#,
        r#"{"type":"place","player":"a","x":7.5,"y":8,"now":1}"#,
        r#"{"type":"place","player":"a","x":7,"now":1}"#,
        r#"{"type":"jump","player":"a","now":1}"#,
        r#"{"type":"resign","player":"a","now":-1}"#,
        r#"{"player":"a","now":1}"#,
        "[1,2,3]",
        "{",
    ] {
        let v = json(&session.handle_line(line).unwrap());
        assert_eq!(v["ok"], false, "{line}");
        assert_eq!(v["error"]["code"], "malformedAction", "{line}");
        assert_eq!(v["hash"], h0, "{line}");
        assert_eq!(
            session.game().unwrap().state_hash_hex(),
            h0.as_str().unwrap()
        );
    }
}

#[test]
fn no_action_sequence_panics() {
    // A deterministic stream of arbitrary actions, mostly plausible: every one either applies
    // or is rejected without changing the state.
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut applied = 0;
    let rules = ["{}", RENJU, r#"{"ruleSet":"free","undo":"unlimited"}"#];
    for round in 0..9 {
        let mut t = Table::seeded(rules[round % 3], round as u64);
        for _ in 0..120 {
            let c = [t.game.turn(), t.game.turn().opponent()][(next(4) == 0) as usize];
            let p = [t.id(c), "x".to_string()][(next(20) == 0) as usize].clone();
            let now = t.now + next(20_000);
            let a = match next(24) {
                0..=15 => place(&p, next(9) as i64 + 3, next(9) as i64 + 3, now),
                16 => place(&p, next(40) as i64 - 5, next(40) as i64 - 5, now),
                17 => request_undo(p, now),
                18 => Action::RespondUndo {
                    player: p,
                    accept: next(2) == 0,
                    now,
                },
                19 => offer_draw(p, now),
                20 => Action::RespondDraw {
                    player: p,
                    accept: next(8) == 0,
                    now,
                },
                21 => Action::CancelOffer { player: p, now },
                22 => timeout(now, Some((&p, now.saturating_sub(next(9_000)), 5))),
                _ => timeout(now, None),
            };
            let before = t.game.state_hash();
            match t.game.apply(&a) {
                Ok(_) => {
                    t.now = now;
                    applied += 1;
                }
                Err(_) => assert_eq!(t.game.state_hash(), before),
            }
        }
        let _ = t.game.views();
    }
    assert!(applied > 300, "only {applied} actions applied");
}
