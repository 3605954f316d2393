//! Seeded legal actions: what the referee plays for a player whose time ran out in the opening,
//! and random non-symmetric offers.

use rand_core::RngCore;

use super::position::Position;
use super::symmetry;
use super::{Opening, OpeningAction, PendingKind, Region};
use crate::core::Pos;
use crate::rules::auto_move::uniform;

/// Empty points of `region`, preferring those within distance 2 of a stone (all of the region
/// when none is; on an empty board those nearest the centre, as the auto-move policy opens at
/// the centre), in board order.
fn region_points<B: Position + ?Sized>(board: &B, region: Region, taken: &[Pos]) -> Vec<Pos> {
    let mut all: Vec<Pos> = board
        .points()
        .into_iter()
        .filter(|&p| board.is_free(p) && !taken.contains(&p) && region.contains(board, p))
        .collect();
    if board.stones().is_empty() {
        let c = board.middle();
        let d = |p: &Pos| p.x().abs_diff(c.x()).max(p.y().abs_diff(c.y()));
        let nearest = all.iter().map(d).min().unwrap_or(0);
        all.retain(|p| d(p) == nearest);
        return all;
    }
    let near: Vec<Pos> = all
        .iter()
        .copied()
        .filter(|&p| board.near_a_stone(p))
        .collect();
    if near.is_empty() { all } else { near }
}

/// `count` pairwise non-symmetric empty points, drawn with `rng` (near the stones first); fewer
/// only when the board has no more classes.
pub fn random_offers<B: Position + ?Sized, R: RngCore>(
    board: &B,
    count: u8,
    rng: &mut R,
) -> Vec<Pos> {
    let mut pool = region_points(board, Region::Anywhere, &[]);
    let far: Vec<Pos> = board
        .points()
        .into_iter()
        .filter(|&p| board.is_free(p) && !pool.contains(&p))
        .collect();
    let mut chosen: Vec<Pos> = Vec::new();
    for candidates in [&mut pool, &mut far.clone()] {
        while chosen.len() < usize::from(count) && !candidates.is_empty() {
            let p = candidates.swap_remove(uniform(rng, candidates.len()));
            if !chosen.iter().any(|&q| symmetry::equivalent(board, p, q)) {
                chosen.push(p);
            }
        }
    }
    chosen
}

/// A legal action for the pending step, drawn with `rng`: a stone on a random point of its region
/// (near the stones when possible), no swap, the 4th stone for Swap2, one fifth move declared,
/// random non-symmetric offers, a random offer chosen. `None` once the opening is over (or when a
/// region has no empty point left).
pub fn auto_action<B: Position + ?Sized, R: RngCore>(
    opening: &Opening,
    board: &B,
    rng: &mut R,
) -> Option<OpeningAction> {
    let pending = opening.pending()?;
    let pick = |points: Vec<Pos>, rng: &mut R| {
        (!points.is_empty()).then(|| points[uniform(rng, points.len())])
    };
    Some(match pending.kind {
        PendingKind::Place { region, .. } => {
            OpeningAction::Place(pick(region_points(board, region, &[]), rng)?)
        }
        PendingKind::Swap | PendingKind::SwapOrOffer { .. } => OpeningAction::Swap(false),
        PendingKind::Swap2Choice { .. } => {
            OpeningAction::Place(pick(region_points(board, Region::Anywhere, &[]), rng)?)
        }
        PendingKind::Declare { .. } => OpeningAction::Declare(1),
        PendingKind::Offer { count, .. } => {
            let offers = random_offers(board, count, rng);
            (offers.len() == usize::from(count)).then_some(OpeningAction::Offer(offers))?
        }
        PendingKind::Choose { .. } => OpeningAction::Choose(pick(opening.offers.clone(), rng)?),
    })
}
