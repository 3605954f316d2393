//! Pente's Swap and Swap2 (`docs/pente.md` §8) through the shared opening rules
//! ([`crate::rules::opening`]): the same state machine as gomoku's, with white as the first colour
//! and four stones before Swap's choice ([`PENTE_SWAP_STONES`]).
//!
//! - The Pente [`Position`] implements the shared module's position trait (seat 0 is white,
//!   seat 1 black), so the shared rules read its stones as they read the omok board.
//! - Every opening stone is an ordinary Pente move of its colour ([`Position::play`]): the stones
//!   alternate white, black, white, … in every branch, so the position's turn always matches the
//!   stone's colour, and the rules of the game (captures, the suicide and overline options) apply
//!   to them as to any move. After the opening the colour to move is the position's turn.
//! - The *players* are what a swap exchanges: a referee keeps which player holds which seat
//!   ([`actor_seat`] is the seat acting now, which during the stone placement is the first
//!   player's seat whatever colour the stone is).
//! - [`engine_action`] is the engine's decision as proposer or chooser, judged with the Pente
//!   search (deterministic for the seed and the node limit): stones that leave the position
//!   closest to balanced, the better colour when choosing, and Swap2's two extra stones when the
//!   position is already close to even.

use rand_core::RngCore;
use thiserror::Error;

use super::options::PENTE_SWAP_STONES;
use super::position::{Illegal, Position};
use super::search::{PenteLimits, PenteSearcher};
use crate::core::{Color, Pos};
use crate::rules::auto_move::uniform;
use crate::rules::opening::{
    self as shared, Effect, Opening, OpeningAction, OpeningError, PendingKind, Side,
};

impl shared::Position for Position {
    fn width(&self) -> usize {
        self.size()
    }

    fn height(&self) -> usize {
        self.size()
    }

    fn stone(&self, p: Pos) -> Option<Color> {
        self.at(self.cell_of(p)?).map(color_of_seat)
    }

    fn near_a_stone(&self, p: Pos) -> bool {
        self.cell_of(p)
            .is_some_and(|c| self.cells()[c] == 0 && self.has_stone_near(c, 2))
    }
}

/// The colour of a two-player seat: 0 white (moves first), 1 black.
pub const fn color_of_seat(seat: u8) -> Color {
    if seat % 2 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// The seat of a colour: white 0, black 1.
pub const fn seat_of_color(c: Color) -> u8 {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Why an opening action was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PenteOpeningError {
    /// The opening rules refuse it (wrong step, wrong player, occupied, …).
    #[error(transparent)]
    Rule(#[from] OpeningError),
    /// The Pente rules refuse one of its stones (suicide forbidden, …).
    #[error("illegal stone at ({x},{y}): {reason}")]
    Illegal {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
        /// Why.
        reason: Illegal,
    },
}

/// The opening of `pos`'s rule on the empty `pos`: `Some` for Swap and Swap2 (two players),
/// `None` for the rules without a colour-choice phase.
pub fn start(pos: &Position) -> Result<Option<Opening>, OpeningError> {
    let rule = pos.rules().opening_rule;
    if !rule.is_interactive() {
        return Ok(None);
    }
    Opening::with_swap_stones(rule.shared(), Color::White, PENTE_SWAP_STONES, pos).map(Some)
}

/// The seat whose player acts now (the pending step's player, or after the opening the seat to
/// move).
pub fn actor_seat(o: &Opening) -> u8 {
    seat_of_color(o.color_of(o.actor()))
}

/// Checks `action` by the player on `seat` without changing anything: the opening after it and
/// its effects, every stone legal for the Pente rules in turn.
pub fn validate(
    o: &Opening,
    pos: &Position,
    seat: u8,
    action: &OpeningAction,
) -> Result<(Opening, Vec<Effect>), PenteOpeningError> {
    let mut next = o.clone();
    let side = o.side_of(color_of_seat(seat));
    let effects = next.apply(pos, side, action.clone())?;
    let mut probe = pos.clone();
    for e in &effects {
        if let Effect::Stone(p, color) = *e {
            let reason = if probe.turn() != seat_of_color(color) {
                // Cannot happen from an empty board (the stones alternate); refused anyway.
                Some(Illegal::GameOver)
            } else {
                probe.check(p.x() as i64, p.y() as i64).err()
            };
            if let Some(reason) = reason {
                return Err(PenteOpeningError::Illegal {
                    x: p.x(),
                    y: p.y(),
                    reason,
                });
            }
            if let Some(cell) = probe.cell_of(p) {
                let _ = probe.play(cell);
            }
        }
    }
    Ok((next, effects))
}

/// Applies `action` by the player on `seat`: the opening advances and its stones are played on
/// `pos`. On error nothing changed.
pub fn apply(
    o: &mut Opening,
    pos: &mut Position,
    seat: u8,
    action: &OpeningAction,
) -> Result<Vec<Effect>, PenteOpeningError> {
    let (next, effects) = validate(o, pos, seat, action)?;
    for e in &effects {
        if let Effect::Stone(p, _) = *e
            && let Some(cell) = pos.cell_of(p)
        {
            let _ = pos.play(cell);
        }
    }
    *o = next;
    Ok(effects)
}

/// Swap2: within this many points of even, the chooser puts two more stones and hands the choice
/// back rather than taking a colour.
pub const BALANCE_MARGIN: i32 = 30;

/// Stones tried per proposed stone.
const PROPOSALS: usize = 10;

/// The search limits of the opening judgements: shallow and node-bounded, so deterministic.
pub fn judge_limits(max_nodes: u64) -> PenteLimits {
    PenteLimits {
        max_depth: 2,
        max_nodes,
        width: 8,
        threat_depth: 2,
        noise: 0,
    }
}

/// The search score of `pos` for the seat to move.
fn score(pos: &Position, limits: PenteLimits, rng: &mut impl RngCore) -> (Option<usize>, i32) {
    let r = PenteSearcher::new(limits, None).search(pos, rng);
    (r.best, r.score)
}

/// Empty points where a proposed stone may go: near the stones (within 2), on an empty board
/// within 2 of the centre; at most [`PROPOSALS`], drawn with `rng` (all legal for the seat to
/// move).
fn proposals(pos: &mut Position, rng: &mut impl RngCore) -> Vec<usize> {
    let n = pos.size();
    let centre = n / 2;
    let empty_board = pos.stones() == 0;
    let mut pool: Vec<usize> = (0..n * n)
        .filter(|&c| {
            pos.cells()[c] == 0
                && if empty_board {
                    (c % n).abs_diff(centre).max((c / n).abs_diff(centre)) <= 2
                } else {
                    pos.has_stone_near(c, 2)
                }
        })
        .collect();
    if pool.is_empty() {
        pool = (0..n * n).filter(|&c| pos.cells()[c] == 0).collect();
    }
    let mut out = Vec::new();
    while out.len() < PROPOSALS && !pool.is_empty() {
        let c = pool.swap_remove(uniform(rng, pool.len()));
        if pos.is_legal(c) {
            out.push(c);
        }
    }
    out.sort_unstable();
    out
}

/// The proposed stone for the seat to move whose position afterwards is closest to even.
fn balanced_stone(pos: &Position, limits: PenteLimits, rng: &mut impl RngCore) -> Option<usize> {
    let mut probe = pos.clone();
    let mut best: Option<(i32, usize)> = None;
    for c in proposals(&mut probe, rng) {
        if probe.play(c).is_err() {
            continue;
        }
        let s = if probe.outcome().is_some() {
            i32::MAX
        } else {
            score(&probe, limits, rng).1.saturating_abs()
        };
        probe.undo();
        if best.is_none_or(|(b, _)| s < b) {
            best = Some((s, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The engine's action for the pending step of `o` on `pos` (whoever acts: the caller asks when
/// the engine's player is [`actor_seat`]); `None` once the opening is over. Deterministic for the
/// RNG's seed and the node limit of `limits` (see [`judge_limits`]).
///
/// - placing a stone that a colour choice follows: the proposal that leaves the search score
///   nearest zero;
/// - Swap's choice: swap when the colour held now scores below zero;
/// - Swap2's choice: two more balanced stones (`putTwo`) when the score is within
///   [`BALANCE_MARGIN`] of even; else black's best stone when black (to move) is better, or swap
///   to white.
pub fn engine_action(
    o: &Opening,
    pos: &Position,
    limits: PenteLimits,
    rng: &mut impl RngCore,
) -> Option<OpeningAction> {
    let pending = o.pending()?;
    let at = |c: usize| pos.pos(c);
    Some(match pending.kind {
        PendingKind::Place { .. } => OpeningAction::Place(at(balanced_stone(pos, limits, rng)?)),
        PendingKind::Swap => {
            let me = seat_of_color(o.color_of(pending.by));
            let (_, s) = score(pos, limits, rng);
            let keep = if me == pos.turn() { s } else { -s };
            OpeningAction::Swap(keep < 0)
        }
        PendingKind::Swap2Choice { .. } => {
            let (best, s) = score(pos, limits, rng);
            if s.abs() <= BALANCE_MARGIN {
                let a = balanced_stone(pos, limits, rng)?;
                let mut after = pos.clone();
                after.play(a).ok()?;
                let b = balanced_stone(&after, limits, rng)?;
                OpeningAction::PutTwo([at(a), at(b)])
            } else if s > 0 {
                OpeningAction::Place(at(best?))
            } else {
                OpeningAction::Swap(true)
            }
        }
        // Not in Pente's rules; the shared auto-action answers anything else legally.
        _ => shared::auto_action(o, pos, rng)?,
    })
}

/// The side of the shared module that holds `seat` now.
pub fn side_of_seat(o: &Opening, seat: u8) -> Side {
    o.side_of(color_of_seat(seat))
}

#[cfg(test)]
mod tests {
    use rand_core::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::pente::options::{PenteOpening, PenteRules};

    fn pos(rule: PenteOpening) -> Position {
        Position::new(PenteRules {
            board_size: 13,
            opening_rule: rule,
            ..PenteRules::default()
        })
        .unwrap()
    }

    #[test]
    fn engine_finishes_swap_and_swap2_legally() {
        for rule in [PenteOpening::Swap, PenteOpening::Swap2] {
            for seed in 0..3 {
                let mut p = pos(rule);
                let mut o = start(&p).unwrap().unwrap();
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let mut steps = 0;
                while let Some(a) = engine_action(&o, &p, judge_limits(300), &mut rng) {
                    let seat = actor_seat(&o);
                    apply(&mut o, &mut p, seat, &a).unwrap();
                    steps += 1;
                    assert!(steps < 10);
                }
                assert!(o.is_finished());
                assert_eq!(seat_of_color(o.next_to_move()), p.turn());
                assert!(p.ply() >= 3);
            }
        }
    }

    #[test]
    fn none_and_pro_have_no_phase() {
        assert!(start(&pos(PenteOpening::None)).unwrap().is_none());
        assert!(start(&pos(PenteOpening::Pro)).unwrap().is_none());
    }
}
