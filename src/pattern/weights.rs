//! The static evaluation's weights, fitted to game results by `pbrain-omok tune fit`:
//! 35694 positions from 2052 games, held-out loss 0.152569 -> 0.148200;
//! training loss 0.155451 before, 0.149188 after, K = 252.4.
//! Written by the tuner: refit rather than edit by hand.

/// Potential of one directional pattern class for the static evaluation, by
/// [`PatternKind`](super::PatternKind) order (dead, block1 … flex4, five, overline).
pub const POTENTIAL: [i32; 11] = [0, 0, 0, 3, 18, 28, 57, 101, 400, 0, 0];
/// Potential bonus of a cell that wins by force with one more move (two fours, a four
/// and an open three).
pub const POTENTIAL_WINNING_SHAPE: i32 = 423;
/// Potential bonus of a double open three (unrestricted side).
pub const POTENTIAL_DOUBLE_THREE: i32 = 181;
/// The side to move's weight in percent (`search.tempo_percent`).
pub const TEMPO_PERCENT: i32 = 130;
/// The threat table: a value for the side to move by how many four and open-three
/// points each side has (see [`crate::eval::threat_index`]), in the evaluation's units.
pub const THREAT_TABLE: [i32; 81] = [
    0, 13, -7, 16, -6, -22, 35, 20, 4, 3, -9, 6, 1, 3, 11, -1, 0, -24, 21, 10, 82, 4, 13, 28, -11,
    0, -29, -19, -12, -35, -13, -3, -14, 7, -15, -24, -9, -8, 31, 10, -7, 2, -19, 2, -15, 2, -14,
    84, -6, -3, 54, -6, 10, 11, -41, -40, -44, -22, -15, -42, -11, -21, -90, -3, -9, 32, -12, -20,
    -4, -3, -30, -53, -6, -14, 65, -5, -33, 89, 0, 8, 33,
];
