//! The static evaluation's weights. Refit them with `pbrain-omok tune fit` (see README,
//! "Tuning the evaluation"), which writes this file; these are the hand-set starting values.

/// Potential of one directional pattern class for the static evaluation, by
/// [`PatternKind`](super::PatternKind) order (dead, block1 … flex4, five, overline).
pub const POTENTIAL: [i32; 11] = [0, 1, 3, 4, 12, 14, 45, 50, 400, 0, 0];
/// Potential bonus of a cell that wins by force with one more move (two fours, a four
/// and an open three).
pub const POTENTIAL_WINNING_SHAPE: i32 = 300;
/// Potential bonus of a double open three (unrestricted side).
pub const POTENTIAL_DOUBLE_THREE: i32 = 120;
/// The side to move's weight in percent (`search.tempo_percent`).
pub const TEMPO_PERCENT: i32 = 140;
