//! Swap2 decisions for `SWAP2BOARD` (Gomocup, rules of 2022) and the static judgement behind them.
//!
//! Two judgements are used. Colour choices use the score of the engine's own search of the
//! position (`Engine::go`, the same search and time budget as any move, from the side to move's
//! view; deterministic under `max_node`/`max_depth` like every search). Stone placement uses
//! [`balance`], a static judgement: the best [`move_score`] the side to move could get on a legal
//! point near the stones, minus the best the opponent could get if it were to move (positive: the
//! side to move stands better). It is cheap, exact and independent of the clock.
//!
//! The policy (the brain places the stones and prints the answer):
//! - **0 stones** — propose the opening of [`OPENINGS`] (black, white, black, as offsets from the
//!   centre) whose `balance` for white is closest to 0; ties go to the earlier entry.
//! - **3 stones** (white to move; the brain is the second player) — search; with `v` its score for
//!   white: `v < -`[`SWAP_MARGIN`] answers `SWAP` (the brain takes black); `v > SWAP_MARGIN`
//!   answers one move, the search's move (the brain stays white); otherwise two moves: the
//!   search's move for white, then the black point (legal, near the stones) after which `balance`
//!   is closest to 0, ties in board order — the opponent then picks a colour.
//! - **5 stones** (white to move; the brain is the first player choosing its colour) — search;
//!   `SWAP` (take black) when its score for white is below 0, else one move: the search's move,
//!   played as white.
//!
//! [`best_point`] is also the brain's fallback when the engine's move lands on a point that the
//! manager excluded (`YXBLOCK`, continuous-game markers).

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::eval::move_score;
use crate::rules::ForbidChecker;
use crate::search::greedy::candidates;

/// Three-stone openings (black, white, black), as `(dx, dy)` from the centre; all fit the
/// smallest board (5×5).
pub const OPENINGS: [[(i64, i64); 3]; 6] = [
    [(0, 0), (1, -1), (2, 1)],
    [(0, 0), (0, 1), (2, 0)],
    [(0, 0), (-1, 1), (1, 2)],
    [(0, 0), (2, -1), (1, 1)],
    [(0, 0), (1, 0), (-1, 2)],
    [(0, 0), (-2, -1), (1, -1)],
];

/// With three stones, a search score beyond ± this margin (in the search's score units) decides a
/// colour; inside it the brain places two more stones.
pub const SWAP_MARGIN: i32 = 60;

/// What to answer to a three-stone `SWAP2BOARD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreeStones {
    /// Take black (`SWAP`).
    Swap,
    /// Stay white and play the fourth stone.
    Stay,
    /// Place the fourth (white) and fifth (black) stones.
    PlaceTwo,
}

/// The best point for `color` to play, by [`move_score`], among the legal (empty, not forbidden)
/// candidate points that are not `excluded`; ties go to the first point in board order.
pub fn best_point(board: &mut Board, color: Color, excluded: &[Pos]) -> Option<(Pos, i32)> {
    let mut ranked: Vec<(i32, Pos)> = candidates(board)
        .into_iter()
        .filter(|p| !excluded.contains(p))
        .map(|p| (move_score(board, p, color), p))
        .collect();
    if ranked.len() < board.width() * board.height() - board.move_count() {
        // Excluded or far points may still be the only legal ones: keep them as a last resort.
        let seen: Vec<Pos> = ranked.iter().map(|r| r.1).collect();
        let rest = board
            .positions()
            .filter(|&p| board.is_empty(p) && !excluded.contains(&p) && !seen.contains(&p));
        let rest: Vec<(i32, Pos)> = rest.map(|p| (i32::MIN, p)).collect();
        ranked.extend(rest);
    }
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut forbid = ForbidChecker::default();
    let has_forbidden = board.rule().has_forbidden(color);
    ranked
        .into_iter()
        .find(|&(_, p)| !has_forbidden || forbid.check(board, p, color).is_none())
        .map(|(s, p)| (p, s.max(0)))
}

/// The static balance of the position from `color`'s view (see the module doc).
pub fn balance(board: &mut Board, color: Color) -> i32 {
    let ours = best_point(board, color, &[]).map_or(0, |r| r.1);
    let theirs = best_point(board, color.opponent(), &[]).map_or(0, |r| r.1);
    ours - theirs
}

/// The opening to propose on an empty board: black, white, black.
pub fn opening(board: &Board) -> Vec<(Pos, Color)> {
    let centre = board.centre();
    let (cx, cy) = (centre.x() as i64, centre.y() as i64);
    let colors = [Color::Black, Color::White, Color::Black];
    let mut best: Option<(i32, Vec<(Pos, Color)>)> = None;
    for shape in OPENINGS {
        let stones: Option<Vec<(Pos, Color)>> = shape
            .iter()
            .zip(colors)
            .map(|(&(dx, dy), c)| board.pos(cx + dx, cy + dy).ok().map(|p| (p, c)))
            .collect();
        let Some(stones) = stones else { continue };
        let mut b = board.clone();
        if stones.iter().any(|&(p, c)| b.place(p, c).is_err()) {
            continue;
        }
        let v = balance(&mut b, Color::White).abs();
        if best.as_ref().is_none_or(|(bv, _)| v < *bv) {
            best = Some((v, stones));
        }
    }
    best.map(|(_, s)| s).unwrap_or_default()
}

/// The choice for three stones, given the search score for white (the side to move).
pub fn three_stones(score: i32) -> ThreeStones {
    if score < -SWAP_MARGIN {
        ThreeStones::Swap
    } else if score > SWAP_MARGIN {
        ThreeStones::Stay
    } else {
        ThreeStones::PlaceTwo
    }
}

/// The fifth (black) stone after the brain's fourth: the legal candidate after which the
/// balance is closest to even.
pub fn fifth_stone(board: &mut Board) -> Option<Pos> {
    let mut forbid = ForbidChecker::default();
    let has_forbidden = board.rule().has_forbidden(Color::Black);
    let mut best: Option<(i32, Pos)> = None;
    for p in candidates(board) {
        if has_forbidden && forbid.check(board, p, Color::Black).is_some() {
            continue;
        }
        board.make_move(p, Color::Black);
        let v = balance(board, Color::White).abs();
        board.undo_move();
        if best.is_none_or(|(bv, _)| v < bv) {
            best = Some((v, p));
        }
    }
    best.map(|(_, p)| p)
}

/// Whether to answer `SWAP` (take black) to five stones, given the search score for white (the
/// side to move).
pub fn swap_at_five(score: i32) -> bool {
    score < 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;

    fn board(stones: &[(usize, usize)]) -> Board {
        let mut b = Board::square(15, Rule::Standard).unwrap();
        for (i, &(x, y)) in stones.iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.place(Pos::new(x, y).unwrap(), c).unwrap();
        }
        b
    }

    #[test]
    fn the_opening_is_three_stones_near_the_centre_and_deterministic() {
        for size in [5, 15, 20] {
            let b = Board::square(size, Rule::Standard).unwrap();
            let o = opening(&b);
            assert_eq!(o.len(), 3);
            assert_eq!(o, opening(&b));
            let c = b.centre();
            assert!(
                o.iter()
                    .all(|(p, _)| p.x().abs_diff(c.x()) <= 2 && p.y().abs_diff(c.y()) <= 2)
            );
        }
    }

    #[test]
    fn colour_choices_follow_the_search_score() {
        assert_eq!(three_stones(-SWAP_MARGIN - 1), ThreeStones::Swap);
        assert_eq!(three_stones(0), ThreeStones::PlaceTwo);
        assert_eq!(three_stones(SWAP_MARGIN + 1), ThreeStones::Stay);
        assert!(swap_at_five(-1) && !swap_at_five(0));
    }

    #[test]
    fn a_black_shape_near_the_centre_favours_black() {
        let mut strong = board(&[(7, 7), (0, 14), (8, 8)]);
        let mut scattered = board(&[(0, 0), (7, 7), (14, 14)]);
        assert!(balance(&mut strong, Color::White) < balance(&mut scattered, Color::White));
    }

    #[test]
    fn the_fifth_stone_is_legal() {
        let mut b = board(&[(7, 7), (8, 6), (9, 9), (8, 8)]);
        let p = fifth_stone(&mut b).unwrap();
        assert!(b.is_empty(p));
        assert_eq!(b.move_count(), 4);
    }

    #[test]
    fn best_point_skips_excluded_points() {
        let mut b = board(&[(7, 7)]);
        let (first, _) = best_point(&mut b, Color::White, &[]).unwrap();
        let (second, _) = best_point(&mut b, Color::White, &[first]).unwrap();
        assert_ne!(first, second);
        assert!(b.is_empty(second));
    }
}
