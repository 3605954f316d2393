//! The referee's seeded auto-move for Pente (SPEC §5.1 adapted to captures), played for a seat
//! whose time ran out.
//!
//! Priority: (a) a move that wins for the mover (a line, or a capture reaching the target);
//! (b) a move after which the next seat has no immediate win, when it has one now (taking a
//! stone out of its line by capture counts as a block); (c) a legal point within distance 2
//! (Chebyshev) of a stone; (d) any legal point. The empty board gets the centre (when legal).
//! Ties are drawn uniformly with the caller's RNG. Never illegal: every candidate comes from
//! [`Position::legal_moves`].

use rand_core::RngCore;

use super::position::Position;
use crate::rules::auto_move::uniform;

/// Whether a cell has a stone within Chebyshev distance `d` (1 or 2).
pub(crate) fn near_stone(pos: &Position, cell: usize, d: u8) -> bool {
    pos.has_stone_near(cell, d)
}

/// The moves of the seat to move that win at once (a win is always next to a stone).
pub fn winning_moves(pos: &mut Position) -> Vec<usize> {
    if pos.outcome().is_some() {
        return Vec::new();
    }
    let me = pos.turn();
    let candidates: Vec<usize> = (0..pos.cells().len())
        .filter(|&c| pos.cells()[c] == 0 && near_stone(pos, c, 1))
        .collect();
    candidates
        .into_iter()
        .filter(|&c| {
            if pos.play(c).is_err() {
                return false;
            }
            let won = pos.outcome().is_some_and(|o| o.winners.contains(&me));
            pos.undo();
            won
        })
        .collect()
}

/// The auto-move for the seat to move, or `None` when it has no legal move.
pub fn auto_move<R: RngCore>(pos: &mut Position, rng: &mut R) -> Option<usize> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return None;
    }
    if pos.stones() == 0 && legal.contains(&pos.centre()) {
        return Some(pos.centre());
    }
    let own = winning_moves(pos);
    let next = pos.next_seat(pos.turn());
    let threatened = !winning_moves(&mut pos.with_turn(next)).is_empty();
    let blocks: Vec<usize> = if threatened && own.is_empty() {
        legal
            .iter()
            .copied()
            .filter(|&m| {
                if pos.play(m).is_err() {
                    return false;
                }
                let safe = pos.outcome().is_some() || winning_moves(pos).is_empty();
                pos.undo();
                safe
            })
            .collect()
    } else {
        Vec::new()
    };
    let near: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&c| near_stone(pos, c, 2))
        .collect();
    [own, blocks, near, legal]
        .into_iter()
        .find(|c| !c.is_empty())
        .map(|c| c[uniform(rng, c.len())])
}
