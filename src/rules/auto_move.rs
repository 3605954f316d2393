//! The seeded auto-move policy (SPEC §5.1, seed 004 §8.4), played for a player whose time ran out.
//!
//! Priority: (a) an own winning point, (b) a point that blocks the opponent's winning point,
//! (c) a legal empty point within distance 2 (Chebyshev) of any stone, (d) any legal empty point;
//! the empty board gets the centre. Several points of the same priority are chosen uniformly with
//! the caller's RNG (rand_xoshiro seeded by the game), so the same seed and the same history give
//! the same move. Never occupied, never forbidden for the mover.

use rand_core::RngCore;

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::pattern::PatternKind;

use super::forbidden::ForbidChecker;

/// The auto-move for `color`, or `None` when it has no legal point. The board is left as it was.
pub fn auto_move<R: RngCore>(board: &mut Board, color: Color, rng: &mut R) -> Option<Pos> {
    if board.move_count() == 0 {
        return Some(board.centre());
    }
    let forbidden: Vec<Pos> = ForbidChecker::default()
        .all(board, color)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let legal: Vec<Pos> = board
        .positions()
        .filter(|&p| board.is_empty(p) && !forbidden.contains(&p))
        .collect();
    let wins = |c: Color| -> Vec<Pos> {
        board
            .positions()
            .filter(|&p| {
                board.is_empty(p)
                    && board
                        .patterns(p, c)
                        .iter()
                        .any(|x| x.kind() == PatternKind::Five)
            })
            .collect()
    };
    // A winning point is never forbidden (five first), so it needs no legality filter.
    let own = wins(color);
    let blocks: Vec<Pos> = wins(color.opponent())
        .into_iter()
        .filter(|p| legal.contains(p))
        .collect();
    let near: Vec<Pos> = legal
        .iter()
        .copied()
        .filter(|&p| board.is_near_empty(p))
        .collect();
    [own, blocks, near, legal]
        .into_iter()
        .find(|c| !c.is_empty())
        .map(|c| c[uniform(rng, c.len())])
}

/// A uniform index below `n` (n > 0), by rejection sampling (no modulo bias).
pub fn uniform<R: RngCore>(rng: &mut R, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - (u64::MAX - n + 1) % n;
    loop {
        let v = rng.next_u64();
        if v <= zone {
            return (v % n) as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_util::board_with as board;
    use crate::rule::Rule;
    use rand_core::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn empty_board_gets_the_centre() {
        let mut b = Board::square(15, Rule::Renju).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        assert_eq!(auto_move(&mut b, Color::Black, &mut rng), Pos::new(7, 7));
    }

    #[test]
    fn wins_then_blocks() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut b = board(
            Rule::Freestyle,
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(2, 3), (9, 9), (9, 10), (9, 11), (9, 12)],
        );
        assert_eq!(auto_move(&mut b, Color::Black, &mut rng), Pos::new(7, 3));
        // White to win at (9,8) or (9,13); black must block one of them.
        let mut b = board(
            Rule::Freestyle,
            &[(3, 3), (4, 3), (0, 0)],
            &[(9, 9), (9, 10), (9, 11), (9, 12)],
        );
        let m = auto_move(&mut b, Color::Black, &mut rng).unwrap();
        assert!(
            m == Pos::new(9, 8).unwrap() || m == Pos::new(9, 13).unwrap(),
            "{m:?}"
        );
    }

    #[test]
    fn same_seed_same_move_and_stays_near_stones() {
        let b = board(Rule::Korean, &[(7, 7)], &[(8, 8)]);
        let pick = |seed| {
            auto_move(
                &mut b.clone(),
                Color::Black,
                &mut Xoshiro256PlusPlus::seed_from_u64(seed),
            )
        };
        assert_eq!(pick(42), pick(42));
        let moves: Vec<_> = (0..50).map(|s| pick(s).unwrap()).collect();
        assert!(
            moves
                .iter()
                .all(|p| p.x().abs_diff(7).min(p.x().abs_diff(8)) <= 2)
        );
        assert!(
            moves.iter().any(|&p| p != moves[0]),
            "the RNG picks among ties"
        );
    }

    #[test]
    fn uniform_stays_in_range() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut seen = [0; 5];
        for _ in 0..1000 {
            seen[uniform(&mut rng, 5)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 150), "{seen:?}");
    }
}
