//! The engine decides openings: every step of [`crate::rules::opening`] answered with the search,
//! at any practice level, deterministically for a seed and node-limited [`Limits`].
//!
//! All judgements use one measure, `value(stones, colour)`: the engine's search score of the
//! position (from the side to move by stone counts), turned to `colour`'s view. Then:
//!
//! - **Placing a stone** (any region): on an empty board, the point of the region nearest the
//!   centre. Otherwise the candidates are the region's empty points near the
//!   stones (the region's points when none is near; the centre of an empty board), the best
//!   [`CANDIDATES`] by the static move score of the stone's colour. When a swap decision of the
//!   opponent still lies ahead in the opening ([`Opening::swap_follows`]: Swap and Swap2
//!   proposals, Taraguchi's stones, Soosõrv's 4th) the stone is chosen for **balance** — the
//!   least |value| —, otherwise for the **mover's own colour** (Pro, RIF's 4th).
//! - **Swap or not**: swap when the decider's colour has a negative value.
//! - **Swap2's choice** (the second colour's holder, value `v`): `v < -`[`SWAP_MARGIN`] swaps;
//!   `v > SWAP_MARGIN` keeps the colour and plays the search's move; otherwise two more stones:
//!   the search's move, then the first colour's stone that balances the position best.
//! - **Declaring N** (Soosõrv, the second colour's holder): more offers help the second colour, so
//!   N grows with the first colour's advantage: `1 + max(0, value) / `[`DECLARE_STEP`], at most
//!   the rule's N.
//! - **Offering N fifth moves**: the first colour's best points by value, skipping any symmetric
//!   to one already taken (so the second colour chooses among the N weakest for itself); points
//!   further away fill up a short list.
//! - **Choosing an offer**: the one with the best value for the chooser.
//! - **Taraguchi's 5th**: offer ten when the first colour's value exceeds [`OFFER_THRESHOLD`] (even
//!   its tenth-best 5th move should hold), else the swap branch.
//!
//! Each evaluation is one search under the caller's node and depth limits, capped at [`EVAL_MS`].
//!
//! Weaker practice levels choose at random (seeded) among the candidates within a margin of the
//! best that widens as the strength drops ([`level_margin`]). The engine's own levels shape the
//! searches as for any move. The engine's position is restored to the board afterwards.

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::engine::{Engine, Limits};
use crate::eval::move_score;
use crate::rules::auto_move::uniform;
use crate::rules::opening::{Opening, OpeningAction, PendingKind, Region, symmetry};
use crate::search::NoInfo;

/// Candidate points searched per placement.
pub const CANDIDATES: usize = 8;
/// Swap2 with three stones: a value beyond ± this decides a colour at once.
pub const SWAP_MARGIN: i32 = 60;
/// Soosõrv: one more declared fifth move per this much of the first colour's advantage.
pub const DECLARE_STEP: i32 = 40;
/// Taraguchi: the first colour's value above which ten offers are made.
pub const OFFER_THRESHOLD: i32 = 400;

/// The longest one evaluation may think, in milliseconds (below the search's root-VCT
/// threshold, [`crate::search::VCT_MIN_BUDGET_MS`]).
pub const EVAL_MS: u64 = 90;

/// The random margin of a practice level: 0 at full strength, up to 200 score units at 0.
pub fn level_margin(strength: u8) -> i32 {
    2 * (100 - i32::from(strength.min(100)))
}

/// Decides the pending step of `opening` on `board` with `engine` (which is set to the board's
/// size and rule if needed) under `limits` per search; `None` once the opening is over. The
/// answer is always legal for [`Opening::apply`] by the pending side.
pub fn decide(
    engine: &mut Engine,
    limits: &Limits,
    opening: &Opening,
    board: &Board,
    seed: u64,
) -> Option<OpeningAction> {
    let pending = opening.pending()?;
    if engine.board().width() != board.width()
        || engine.board().height() != board.height()
        || engine.rule() != board.rule()
    {
        engine.new_game(board.width(), board.height()).ok()?;
        engine.set_rule(board.rule()).ok()?;
    }
    // Each evaluation gets at most EVAL_MS: short enough to skip the root VCT (so the node limit
    // bounds the work) and to keep a decision of many evaluations within a few seconds.
    let mut eval_limits = *limits;
    eval_limits.budget.optimum_ms = eval_limits.budget.optimum_ms.min(EVAL_MS);
    eval_limits.budget.maximum_ms = eval_limits.budget.maximum_ms.min(EVAL_MS);
    let mut d = Decider {
        engine,
        limits: eval_limits,
        rng: Xoshiro256PlusPlus::seed_from_u64(seed ^ board.hash()),
        stones: board.history().to_vec(),
        board: board.clone(),
    };
    let margin = level_margin(d.engine.strength());
    let me = opening.color_of(pending.by);
    let action = match pending.kind {
        PendingKind::Place { color, region } => {
            let balance = opening.swap_follows();
            OpeningAction::Place(d.place(color, region, me, balance, margin)?)
        }
        PendingKind::Swap => OpeningAction::Swap(d.value(&[], me) < 0),
        PendingKind::Swap2Choice { color } => {
            let v = d.value(&[], me);
            if v < -SWAP_MARGIN {
                OpeningAction::Swap(true)
            } else {
                let fourth = d.best_move(color)?;
                if v > SWAP_MARGIN {
                    OpeningAction::Place(fourth)
                } else {
                    d.push(fourth, color);
                    let fifth = d.place(color.opponent(), Region::Anywhere, me, true, margin)?;
                    OpeningAction::PutTwo([fourth, fifth])
                }
            }
        }
        PendingKind::Declare { max } => {
            let first = opening.first_color();
            let v = d.value(&[], first).max(0);
            let n = 1 + v / DECLARE_STEP;
            OpeningAction::Declare(n.clamp(1, i32::from(max)) as u8)
        }
        PendingKind::Offer { color, count } => OpeningAction::Offer(d.offers(color, count)),
        PendingKind::SwapOrOffer { color, count, .. } => {
            if d.value(&[], color) > OFFER_THRESHOLD {
                OpeningAction::Offer(d.offers(color, count))
            } else {
                OpeningAction::Swap(d.value(&[], me) < 0)
            }
        }
        PendingKind::Choose { color } => {
            let mut scored: Vec<(i32, Pos)> = opening
                .offers()
                .iter()
                .map(|&p| (d.value(&[(p, color)], me), p))
                .collect();
            OpeningAction::Choose(d.pick(&mut scored, margin)?)
        }
    };
    let history = board.history().to_vec();
    let _ = d.engine.set_position(&history);
    Some(action)
}

/// The engine's move in a position after the opening (the search's best move), with the
/// engine's position restored afterwards.
pub fn best_move(engine: &mut Engine, limits: &Limits, board: &Board) -> Option<Pos> {
    let history = board.history().to_vec();
    if engine.board().width() != board.width()
        || engine.board().height() != board.height()
        || engine.rule() != board.rule()
    {
        engine.new_game(board.width(), board.height()).ok()?;
        engine.set_rule(board.rule()).ok()?;
    }
    engine.set_position(&history).ok()?;
    engine.go(limits, &mut NoInfo).best
}

struct Decider<'a> {
    engine: &'a mut Engine,
    limits: Limits,
    rng: Xoshiro256PlusPlus,
    /// The position, with any stones already decided in this answer.
    stones: Vec<(Pos, Color)>,
    board: Board,
}

impl Decider<'_> {
    fn push(&mut self, p: Pos, c: Color) {
        self.stones.push((p, c));
        self.board.make_move(p, c);
    }

    /// The search's value of the position plus `extra` stones for `color`.
    fn value(&mut self, extra: &[(Pos, Color)], color: Color) -> i32 {
        let mut stones = self.stones.clone();
        stones.extend_from_slice(extra);
        if self.engine.set_position(&stones).is_err() {
            // A five on the board: decided for its owner.
            let owner = stones.last().map_or(color, |s| s.1);
            return if owner == color { 30_000 } else { -30_000 };
        }
        let stm = self.engine.side_to_move();
        let score = self.engine.go(&self.limits, &mut NoInfo).info.score;
        if stm == color { score } else { -score }
    }

    /// The search's move for `color` in the position so far (any empty point when it has none).
    fn best_move(&mut self, color: Color) -> Option<Pos> {
        let stones = self.stones.clone();
        // The search moves for the side to move by the stone counts; with the other colour to
        // move that way, ask for the best point of `color` by the static score instead.
        if self.engine.set_position(&stones).is_ok()
            && self.engine.side_to_move() == color
            && let Some(p) = self.engine.go(&self.limits, &mut NoInfo).best
            && self.board.is_empty(p)
        {
            return Some(p);
        }
        self.ranked(color, Region::Anywhere).first().copied()
    }

    /// The region's candidate points for a stone of `color`, best static score first (ties in
    /// board order).
    fn ranked(&self, color: Color, region: Region) -> Vec<Pos> {
        let board = &self.board;
        let in_region: Vec<Pos> = board
            .positions()
            .filter(|&p| board.is_empty(p) && region.contains(board, p))
            .collect();
        if board.move_count() == 0 {
            let c = board.centre();
            let mut pts = in_region;
            pts.sort_by_key(|p| p.x().abs_diff(c.x()).max(p.y().abs_diff(c.y())));
            return pts;
        }
        let near: Vec<Pos> = in_region
            .iter()
            .copied()
            .filter(|&p| board.is_near_empty(p))
            .collect();
        let mut pts = if near.is_empty() { in_region } else { near };
        pts.sort_by_key(|&p| std::cmp::Reverse(move_score(board, p, color)));
        pts
    }

    /// A stone of `color` in `region`: balanced (least |value| for `me`) or best for `me`.
    fn place(
        &mut self,
        color: Color,
        region: Region,
        me: Color,
        balance: bool,
        margin: i32,
    ) -> Option<Pos> {
        let ranked = self.ranked(color, region);
        if self.board.move_count() == 0 {
            // The first stone goes as near the centre as the region allows.
            return ranked.first().copied();
        }
        let candidates: Vec<Pos> = ranked.into_iter().take(CANDIDATES).collect();
        let mut scored: Vec<(i32, Pos)> = candidates
            .into_iter()
            .map(|p| {
                let v = self.value(&[(p, color)], me);
                (if balance { -v.abs() } else { v }, p)
            })
            .collect();
        self.pick(&mut scored, margin)
    }

    /// The best-scored point, or a seeded choice among those within `margin` of the best.
    fn pick(&mut self, scored: &mut [(i32, Pos)], margin: i32) -> Option<Pos> {
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let best = scored.first()?.0;
        let close = scored.iter().take_while(|s| s.0 >= best - margin).count();
        Some(scored[uniform(&mut self.rng, close)].1)
    }

    /// `count` pairwise non-symmetric offers for `color`: its best points by value first.
    fn offers(&mut self, color: Color, count: u8) -> Vec<Pos> {
        let count = usize::from(count);
        let searched = (2 * count).max(CANDIDATES);
        let ranked = self.ranked(color, Region::Anywhere);
        let mut scored: Vec<(i32, Pos)> = ranked
            .iter()
            .take(searched)
            .map(|&p| (self.value(&[(p, color)], color), p))
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let board = &self.board;
        let rest = board
            .positions()
            .filter(|&p| board.is_empty(p) && !ranked.contains(&p));
        let order: Vec<Pos> = scored
            .iter()
            .map(|s| s.1)
            .chain(ranked.iter().skip(searched).copied())
            .chain(rest)
            .collect();
        let mut chosen: Vec<Pos> = Vec::with_capacity(count);
        for p in order {
            if chosen.len() == count {
                break;
            }
            if !chosen.iter().any(|&q| symmetry::equivalent(board, p, q)) {
                chosen.push(p);
            }
        }
        chosen
    }
}

#[cfg(test)]
mod tests;
