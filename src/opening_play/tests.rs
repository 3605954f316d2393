use std::sync::Arc;

use proptest::prelude::*;

use super::*;
use crate::params::Params;
use crate::rule::Rule;
use crate::rules::opening::{Effect, OpeningRule, Side};
use crate::time::{Budget, FakeClock};

fn engine(strength: u8, seed: u64) -> Engine {
    let mut e = Engine::new(Params::default(), Arc::new(FakeClock::default()));
    e.set_strength(strength);
    e.set_seed(seed);
    e.set_memory(1 << 20, 0);
    e
}

fn limits(nodes: u64) -> Limits {
    Limits {
        budget: Budget {
            optimum_ms: 1 << 40,
            maximum_ms: 1 << 40,
        },
        max_nodes: Some(nodes),
        max_depth: Some(4),
    }
}

/// Plays a whole opening with the engine deciding for both sides; every decision must be legal.
fn play_out(rule: OpeningRule, board_rule: Rule, strength: u8, seed: u64) -> (Opening, Board) {
    let mut board = Board::square(15, board_rule).unwrap();
    let mut opening = Opening::new(rule, Color::Black, &board).unwrap();
    let mut e = engine(strength, seed);
    let mut steps = 0;
    while let Some(pending) = opening.pending() {
        let a = decide(&mut e, &limits(300), &opening, &board, seed).unwrap();
        let effects = opening
            .apply(&board, pending.by, a.clone())
            .unwrap_or_else(|err| panic!("{rule}: {a:?} at {pending:?}: {err}"));
        for eff in effects {
            if let Effect::Stone(p, c) = eff {
                board.place(p, c).unwrap();
            }
        }
        steps += 1;
        assert!(steps < 30);
    }
    (opening, board)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2, ..ProptestConfig::default() })]

    #[test]
    fn decisions_are_legal_under_every_rule(seed in any::<u64>(), strength in 0u8..=100) {
        for rule in OpeningRule::ALL {
            let board_rule = if rule.min_size() > 7 { Rule::Renju } else { Rule::Freestyle };
            let (opening, board) = play_out(rule, board_rule, strength, seed);
            prop_assert!(opening.is_finished());
            prop_assert_eq!(board.side_to_move(), opening.next_to_move());
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_opening() {
    for rule in [OpeningRule::Swap2, OpeningRule::Soosorv(8)] {
        let a = play_out(rule, Rule::Renju, 60, 9).1;
        let b = play_out(rule, Rule::Renju, 60, 9).1;
        assert_eq!(a.history(), b.history(), "{rule}");
    }
}

#[test]
fn the_chooser_takes_the_offer_that_wins_and_the_decider_swaps_to_the_strong_colour() {
    let mut board = Board::square(15, Rule::Freestyle).unwrap();
    let p = |x, y| Pos::new(x, y).unwrap();
    let mut opening = Opening::new(OpeningRule::Rif, Color::Black, &board).unwrap();
    // Black's three stones in a row (open three) with white far: the swap decider takes black.
    for q in [p(7, 7), p(7, 6), p(8, 8)] {
        let by = opening.pending().unwrap().by;
        let eff = opening.apply(&board, by, OpeningAction::Place(q)).unwrap();
        if let Effect::Stone(q, c) = eff[0] {
            board.place(q, c).unwrap();
        }
    }
    let mut e = engine(100, 1);
    assert!(matches!(
        decide(&mut e, &limits(3000), &opening, &board, 1),
        Some(OpeningAction::Swap(_))
    ));
    // Swap: two black stones together and white's in the corner: white's holder takes black.
    let mut sb = Board::square(15, Rule::Freestyle).unwrap();
    let mut so = Opening::new(OpeningRule::Swap, Color::Black, &sb).unwrap();
    for q in [p(6, 7), p(0, 0), p(7, 7)] {
        let eff = so.apply(&sb, Side::First, OpeningAction::Place(q)).unwrap();
        if let Effect::Stone(q, c) = eff[0] {
            sb.place(q, c).unwrap();
        }
    }
    let swap = decide(&mut e, &limits(3000), &so, &sb, 1);
    assert_eq!(swap, Some(OpeningAction::Swap(true)));
    // And with the two stones white's (black's lone stone), the holder keeps white.
    let mut kb = Board::square(15, Rule::Freestyle).unwrap();
    let mut ko = Opening::new(OpeningRule::Swap, Color::Black, &kb).unwrap();
    for q in [p(0, 0), p(7, 7), p(14, 14)] {
        let eff = ko.apply(&kb, Side::First, OpeningAction::Place(q)).unwrap();
        if let Effect::Stone(q, c) = eff[0] {
            kb.place(q, c).unwrap();
        }
    }
    assert_eq!(
        decide(&mut e, &limits(3000), &ko, &kb, 1),
        Some(OpeningAction::Swap(false))
    );
    // Black: (7,7), (8,8); white (7,6). Offer black points: (9,9) makes an open three on the
    // diagonal; (0,14) is far away. A chooser holding white must take (0,14).
    let mut b = board.clone();
    let mut o = opening.clone();
    o.apply(&b, Side::Second, OpeningAction::Swap(false))
        .unwrap();
    o.apply(&b, Side::Second, OpeningAction::Place(p(14, 0)))
        .unwrap();
    b.place(p(14, 0), Color::White).unwrap();
    o.apply(
        &b,
        Side::First,
        OpeningAction::Offer(vec![p(9, 9), p(0, 14)]),
    )
    .unwrap();
    let choice = decide(&mut e, &limits(3000), &o, &b, 1).unwrap();
    assert_eq!(choice, OpeningAction::Choose(p(0, 14)));
    // The offers the engine makes for black are its strong points (near its stones).
    let mut o2 = opening.clone();
    let mut b2 = board.clone();
    o2.apply(&b2, Side::Second, OpeningAction::Swap(false))
        .unwrap();
    o2.apply(&b2, Side::Second, OpeningAction::Place(p(14, 0)))
        .unwrap();
    b2.place(p(14, 0), Color::White).unwrap();
    match decide(&mut e, &limits(3000), &o2, &b2, 1).unwrap() {
        OpeningAction::Offer(v) => {
            assert_eq!(v.len(), 2);
            assert!(v.iter().all(|q| b2.is_near_empty(*q)), "{v:?}");
        }
        other => panic!("{other:?}"),
    }
}
