//! The move ordering's distance classes: how far a candidate point lies from a recent stone,
//! and whether it shares one of that stone's lines. The fitted values by class and by
//! combination are in [`super::policy_weights`].

use crate::core::Pos;

/// Distance classes: Chebyshev distance 1 to 4, each off and on one of the stone's four
/// lines (distance 1 is always on one), then 5 or 6, then farther (or no such stone).
pub const DISTANCE_BUCKETS: usize = 10;

/// The distance class of the point `p` from the stone on `q`.
#[inline]
pub fn distance_bucket(p: Pos, q: Pos) -> usize {
    distance_class(p.x().abs_diff(q.x()), p.y().abs_diff(q.y()))
}

/// The distance class of two points `dx` columns and `dy` rows apart.
#[inline]
pub fn distance_class(dx: usize, dy: usize) -> usize {
    let d = dx.max(dy);
    let aligned = dx == 0 || dy == 0 || dx == dy;
    match d {
        0 => DISTANCE_BUCKETS - 1,
        1..=4 => 2 * (d - 1) + aligned as usize,
        5 | 6 => DISTANCE_BUCKETS - 2,
        _ => DISTANCE_BUCKETS - 1,
    }
}
