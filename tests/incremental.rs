//! Property tests of the incremental board: after random sequences of moves and take-backs on
//! boards of every rule and many sizes, every cell's line patterns equal an independent
//! recomputation (the line read off the stones by coordinates and classified by the exact line
//! analysis), make→undo restores everything, and the seeded auto-move is always legal.
//!
//! `OMOK_PROPTEST_CASES=<n>` sets the number of cases (default 64).

use omok::pattern::analysis::{KindMemo, LINE_LEN};
use omok::pattern::{CELL_BLACK, CELL_EMPTY, CELL_WALL, CELL_WHITE, Line};
use omok::rules::{ForbidChecker, auto_move, reference};
use omok::{Board, Color, Dir, Pos, Rule};
use proptest::prelude::*;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn cases() -> u32 {
    std::env::var("OMOK_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(64)
}

/// The line through `p` along `d` read off the stones by coordinates, with `color` on `p`.
fn line_by_coordinates(b: &Board, p: Pos, d: Dir, color: Color) -> Line {
    let (dx, dy) = d.step();
    let mut cells = [CELL_EMPTY; LINE_LEN];
    for (i, cell) in cells.iter_mut().enumerate() {
        let k = i as i64 - 5;
        let (x, y) = (p.x() as i64 + k * dx as i64, p.y() as i64 + k * dy as i64);
        *cell = if k == 0 {
            if color == Color::Black {
                CELL_BLACK
            } else {
                CELL_WHITE
            }
        } else {
            match b.pos(x, y) {
                Err(_) => CELL_WALL,
                Ok(q) => match b.get(q) {
                    Some(Color::Black) => CELL_BLACK,
                    Some(Color::White) => CELL_WHITE,
                    None => CELL_EMPTY,
                },
            }
        };
    }
    Line::from_cells(cells)
}

fn check_patterns(b: &Board, memo: &mut KindMemo) {
    for p in b.positions().filter(|&p| b.is_empty(p)) {
        for d in Dir::ALL {
            for c in Color::ALL {
                let want = line_by_coordinates(b, p, d, c).classify(b.rule().win_rule(c), memo);
                assert_eq!(b.pattern(p, d, c), want, "{:?} {d:?} {c}\n{b:?}", p);
            }
        }
    }
}

fn rule_strategy() -> impl Strategy<Value = Rule> {
    prop::sample::select(Rule::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn patterns_equal_recomputation_and_undo_restores(
        rule in rule_strategy(),
        w in 5usize..=20,
        h in 5usize..=20,
        moves in prop::collection::vec((0usize..20, 0usize..20, any::<bool>()), 1..60),
    ) {
        let mut memo = KindMemo::new();
        let mut b = Board::new(w, h, rule).unwrap();
        let fresh = b.clone();
        let mut snapshots = vec![b.clone()];
        for (i, &(x, y, undo)) in moves.iter().enumerate() {
            if undo && b.move_count() > 0 {
                b.undo_move();
                snapshots.pop();
                prop_assert!(&b == snapshots.last().unwrap());
                prop_assert_eq!(b.hash(), snapshots.last().unwrap().hash());
                continue;
            }
            let p = Pos::new(x % w, y % h).unwrap();
            if !b.is_empty(p) {
                continue;
            }
            let c = if i % 2 == 0 { Color::Black } else { Color::White };
            b.make_move(p, c);
            snapshots.push(b.clone());
        }
        check_patterns(&b, &mut memo);
        b.clear();
        prop_assert!(b == fresh);
        prop_assert_eq!(b.hash(), 0);
    }

    #[test]
    fn auto_move_is_always_legal(
        rule in rule_strategy(),
        seed in any::<u64>(),
        stones in prop::collection::vec((4usize..11, 4usize..11), 0..40),
    ) {
        let mut b = Board::square(15, rule).unwrap();
        for (i, &(x, y)) in stones.iter().enumerate() {
            let p = Pos::new(x, y).unwrap();
            let c = if i % 2 == 0 { Color::Black } else { Color::White };
            if b.is_empty(p) {
                b.make_move(p, c);
                if omok::rules::find_five(&b).is_some() {
                    b.undo_move();
                }
            }
        }
        for color in Color::ALL {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let m = auto_move(&mut b, color, &mut rng);
            let again = auto_move(&mut b, color, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
            prop_assert_eq!(m, again, "same seed, same move");
            let m = m.expect("a 15x15 board with at most 40 stones has a legal point");
            prop_assert!(b.is_empty(m));
            prop_assert!(ForbidChecker::default().check(&mut b, m, color).is_none());
            let mut rb = reference::RefBoard::from_board(&b);
            prop_assert!(reference::forbidden(&mut rb, m.x(), m.y(), color, rule, Default::default()).is_none());
        }
    }
}
