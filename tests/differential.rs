//! Differential property tests: the fast forbidden check ([`ForbidChecker`], which reads the
//! board's incremental line patterns) against the slow reference checker written straight from
//! SPEC §3.1/§3.2 ([`omok::rules::reference`]), plus make/undo round trips of the board.
//!
//! Properties:
//! - random clustered positions (15×15, 9×9, 12×17, 17×12, 19×19) for every rule with forbidden
//!   points and both colours, exact and with depth caps 1, 2 and 3;
//! - random games of legal moves (empty, not forbidden for the mover), comparing the complete
//!   forbidden lists of both colours after every move until someone wins;
//! - make → undo restores the board and its hash exactly, and clearing a game gives a fresh board.
//!
//! Knobs (environment variables):
//! - `OMOK_PROPTEST_CASES`: the number of cases of *each* property (default 256, which keeps the
//!   whole file well under a minute in the `test` profile on two cores). Raise it for a soak run,
//!   e.g. `OMOK_PROPTEST_CASES=2000 cargo test --release --test differential`.
//! - `OMOK_PROPTEST_SEED`: the RNG seed (default fixed, so runs are deterministic).
//!
//! Failures are not persisted to `proptest-regressions/`; proptest prints the shrunk input.

use omok::rules::reference::{self, RefBoard};
use omok::rules::{ForbidChecker, ForbidOptions, ForbiddenKind, find_five, winning_line};
use omok::{Board, Color, Pos, Rule};
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseError};

/// The rules that forbid anything.
const RULES: [Rule; 5] = [
    Rule::Renju,
    Rule::Korean,
    Rule::Casual,
    Rule::Casual44,
    Rule::Casual3344,
];

const DEFAULT_CASES: u32 = 256;
const DEFAULT_SEED: u64 = 0x6f6d_6f6b_d1ff;

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

fn config() -> ProptestConfig {
    let cases = env_u64("OMOK_PROPTEST_CASES").map_or(DEFAULT_CASES, |n| n.max(1) as u32);
    let seed = env_u64("OMOK_PROPTEST_SEED").unwrap_or(DEFAULT_SEED);
    ProptestConfig {
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 2048,
        ..ProptestConfig::with_cases(cases)
    }
}

/// A compact picture of the board for failure messages (`X` black, `O` white).
fn picture(board: &Board) -> String {
    format!("{board:?}")
}

fn stones(board: &Board) -> Vec<(usize, usize, Color)> {
    board
        .positions()
        .filter_map(|p| board.get(p).map(|c| (p.x(), p.y(), c)))
        .collect()
}

/// Compares the fast and the reference forbidden lists of `color`; on a difference, reports the
/// points where they disagree.
fn compare(board: &mut Board, color: Color, options: ForbidOptions) -> Result<(), TestCaseError> {
    let before_hash = board.hash();
    let before_stones = stones(board);
    let fast = ForbidChecker::new(options).all(board, color);
    prop_assert_eq!(
        board.hash(),
        before_hash,
        "the fast check left the board changed"
    );
    prop_assert_eq!(
        stones(board),
        before_stones,
        "the fast check left the board changed"
    );
    let mut rb = RefBoard::from_board(board);
    let slow = reference::forbidden_points(&mut rb, color, board.rule(), options);
    if fast != slow {
        let only_fast: Vec<_> = fast.iter().filter(|e| !slow.contains(e)).collect();
        let only_slow: Vec<_> = slow.iter().filter(|e| !fast.contains(e)).collect();
        return Err(TestCaseError::fail(format!(
            "{} {color} {options:?}: fast-only {only_fast:?}, reference-only {only_slow:?}\n\
             stones {:?}\n{}",
            board.rule(),
            stones(board),
            picture(board)
        )));
    }
    Ok(())
}

/// A random position: a board size, cluster centres and stones scattered around them.
#[derive(Clone, Debug)]
struct Position {
    width: usize,
    height: usize,
    /// `(x, y, colour)`; stones that land on an occupied point or make a winning line are skipped.
    stones: Vec<(usize, usize, Color)>,
}

fn board_size() -> impl Strategy<Value = (usize, usize)> {
    prop_oneof![
        6 => Just((15, 15)),
        2 => Just((9, 9)),
        1 => Just((12, 17)),
        1 => Just((17, 12)),
        1 => Just((19, 19)),
    ]
}

fn position() -> impl Strategy<Value = Position> {
    board_size().prop_flat_map(|(width, height)| {
        let centre = (width / 2, height / 2);
        (
            prop::collection::vec((0..width, 0..height), 0..3),
            prop::collection::vec((0..4usize, -3i32..=3, -3i32..=3, 0..10u8), 10..90),
            2..=8u8,
        )
            .prop_map(move |(extra, raw, black_share)| {
                let mut centres = vec![centre];
                centres.extend(extra);
                let stones = raw
                    .into_iter()
                    .filter_map(|(ci, dx, dy, c)| {
                        let (cx, cy) = centres[ci % centres.len()];
                        let (x, y) = (cx as i32 + dx, cy as i32 + dy);
                        let on = x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height;
                        let color = if c < black_share {
                            Color::Black
                        } else {
                            Color::White
                        };
                        on.then_some((x as usize, y as usize, color))
                    })
                    .collect();
                Position {
                    width,
                    height,
                    stones,
                }
            })
    })
}

/// The position on a board of `rule`, skipping stones on occupied points and stones that would
/// make a winning line.
fn build(pos: &Position, rule: Rule) -> Board {
    let mut board = Board::new(pos.width, pos.height, rule).unwrap();
    for &(x, y, c) in &pos.stones {
        let p = Pos::new(x, y).unwrap();
        if board.is_empty(p) {
            board.make_move(p, c);
            if winning_line(&board, p).is_some() {
                board.undo_move();
            }
        }
    }
    board
}

fn depth_cap() -> impl Strategy<Value = ForbidOptions> {
    prop_oneof![
        2 => Just(None),
        1 => Just(Some(1)),
        1 => Just(Some(2)),
        1 => Just(Some(3)),
    ]
    .prop_map(|depth_cap| ForbidOptions { depth_cap })
}

/// Empty points within Chebyshev distance 2 of a stone (the centre on an empty board).
fn near_points(board: &Board) -> Vec<Pos> {
    if board.move_count() == 0 {
        return vec![board.centre()];
    }
    let (w, h) = (board.width() as i64, board.height() as i64);
    board
        .positions()
        .filter(|&p| {
            board.is_empty(p)
                && (-2..=2i64).any(|dy| {
                    (-2..=2i64).any(|dx| {
                        let (x, y) = (p.x() as i64 + dx, p.y() as i64 + dy);
                        x >= 0
                            && y >= 0
                            && x < w
                            && y < h
                            && board.get(board.pos(x, y).unwrap()).is_some()
                    })
                })
        })
        .collect()
}

proptest! {
    #![proptest_config(config())]

    /// Random clustered positions, every rule with forbidden points, both colours, exact check.
    #[test]
    fn random_positions_agree(pos in position()) {
        for rule in RULES {
            let mut board = build(&pos, rule);
            if find_five(&board).is_some() {
                continue;
            }
            for color in Color::ALL {
                compare(&mut board, color, ForbidOptions::default())?;
            }
        }
    }

    /// Random clustered positions with the recursion capped at 1 (non-recursive), 2 and 3 levels.
    #[test]
    fn random_positions_agree_with_depth_caps(pos in position()) {
        for rule in [Rule::Renju, Rule::Korean] {
            let mut board = build(&pos, rule);
            if find_five(&board).is_some() {
                continue;
            }
            for cap in [1, 2, 3] {
                let options = ForbidOptions { depth_cap: Some(cap) };
                compare(&mut board, Color::Black, options)?;
                if rule == Rule::Korean {
                    compare(&mut board, Color::White, options)?;
                }
            }
        }
    }

    /// Random games of legal moves; the full forbidden lists of both colours are compared after
    /// every move, until a win, a full board or no legal point near the stones.
    #[test]
    fn random_games_agree(
        rule in prop::sample::select(RULES.to_vec()),
        (width, height) in board_size(),
        options in depth_cap(),
        choices in prop::collection::vec(any::<u32>(), 1..70),
    ) {
        let mut board = Board::new(width, height, rule).unwrap();
        let mut checker = ForbidChecker::new(options);
        let mut mover = Color::Black;
        for choice in choices {
            let forbidden: Vec<Pos> = checker.all(&mut board, mover).into_iter().map(|(p, _)| p).collect();
            let legal: Vec<Pos> = near_points(&board).into_iter().filter(|p| !forbidden.contains(p)).collect();
            if legal.is_empty() {
                break;
            }
            let p = legal[choice as usize % legal.len()];
            board.make_move(p, mover);
            if winning_line(&board, p).is_some() || board.is_full() {
                break;
            }
            for color in Color::ALL {
                compare(&mut board, color, options)?;
            }
            mover = mover.opponent();
        }
    }

    /// Make → undo restores the board and its hash; clearing a game gives a fresh board.
    #[test]
    fn make_undo_round_trips(
        rule in prop::sample::select(Rule::ALL.to_vec()),
        (width, height) in board_size(),
        moves in prop::collection::vec((0..32usize, 0..32usize, any::<bool>()), 1..120),
    ) {
        let fresh = Board::new(width, height, rule).unwrap();
        let mut board = fresh.clone();
        for (x, y, black) in moves {
            let p = Pos::new(x % width, y % height).unwrap();
            if !board.is_empty(p) {
                continue;
            }
            let color = if black { Color::Black } else { Color::White };
            let before = board.clone();
            board.make_move(p, color);
            prop_assert_eq!(board.get(p), Some(color));
            prop_assert_ne!(board.hash(), before.hash());
            prop_assert_eq!(board.undo_move(), Some((p, color)));
            prop_assert_eq!(&board, &before);
            prop_assert_eq!(board.hash(), before.hash());
            prop_assert_eq!(board.history(), before.history());
            board.make_move(p, color);
        }
        let played = board.move_count();
        prop_assert_eq!(board.history().len(), played);
        board.clear();
        prop_assert_eq!(&board, &fresh);
        prop_assert_eq!(board.hash(), 0);
        prop_assert_eq!(board.move_count(), 0);
        prop_assert!(board.history().is_empty());
    }
}

/// A point as `(x, y)`.
type Xy = (usize, usize);

/// The SPEC §3.3 examples, fast against reference, as a quick non-random sanity check.
#[test]
fn spec_examples_agree() {
    // (black, white) stones in (x, y).
    let a = [(5, 7), (6, 7), (7, 6), (7, 5)];
    let e_black = [
        (4, 6),
        (4, 5),
        (5, 7),
        (6, 7),
        (5, 8),
        (7, 8),
        (6, 9),
        (7, 9),
    ];
    let examples: [(&[Xy], &[Xy]); 5] = [
        (&a, &[]),
        (&[(3, 7), (5, 7), (7, 7), (9, 7)], &[]),
        (&a, &[(4, 7)]),
        (&[(2, 7), (5, 7), (6, 7), (10, 7), (7, 6), (7, 5)], &[]),
        (&e_black, &[(9, 7)]),
    ];
    for (black, white) in examples {
        for rule in RULES {
            let mut board = Board::square(15, rule).unwrap();
            for &(x, y) in black {
                board.make_move(Pos::new(x, y).unwrap(), Color::Black);
            }
            for &(x, y) in white {
                board.make_move(Pos::new(x, y).unwrap(), Color::White);
            }
            for cap in [None, Some(1), Some(2)] {
                for color in Color::ALL {
                    compare(&mut board, color, ForbidOptions { depth_cap: cap }).unwrap();
                }
            }
        }
    }
    // Example E: legal exactly, a double three for the non-recursive check, in both checkers.
    let mut board = Board::square(15, Rule::Renju).unwrap();
    for &(x, y) in &e_black {
        board.make_move(Pos::new(x, y).unwrap(), Color::Black);
    }
    board.make_move(Pos::new(9, 7).unwrap(), Color::White);
    let h8 = Pos::new(7, 7).unwrap();
    let mut rb = RefBoard::from_board(&board);
    for (cap, want) in [(None, None), (Some(1), Some(ForbiddenKind::DoubleThree))] {
        let options = ForbidOptions { depth_cap: cap };
        assert_eq!(
            ForbidChecker::new(options).check(&mut board, h8, Color::Black),
            want
        );
        assert_eq!(
            reference::forbidden(&mut rb, 7, 7, Color::Black, Rule::Renju, options),
            want
        );
    }
}
