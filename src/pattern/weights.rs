//! The static evaluation's weights, fitted to game results by `pbrain-omok tune fit`:
//! 40285 positions from 2388 games, held-out loss 0.158359 -> 0.153789;
//! training loss 0.161997 before, 0.154930 after, K = 241.4.
//! Written by the tuner: refit rather than edit by hand.

/// Potential of one directional pattern class for the static evaluation, by
/// [`PatternKind`](super::PatternKind) order (dead, block1 … flex4, five, overline).
pub const POTENTIAL: [i32; 11] = [0, 0, 2, 5, 17, 31, 64, 124, 400, 0, 0];
/// Potential bonus of a cell that wins by force with one more move (two fours, a four
/// and an open three).
pub const POTENTIAL_WINNING_SHAPE: i32 = 308;
/// [`POTENTIAL`] for renju black, whose forbidden shapes make other patterns worth other
/// values.
pub const POTENTIAL_RESTRICTED: [i32; 11] = [0, 0, 1, 12, 17, 21, 62, 98, 400, 0, 0];
/// [`POTENTIAL_WINNING_SHAPE`] for renju black (a four and an open three).
pub const POTENTIAL_WINNING_SHAPE_RESTRICTED: i32 = 699;
/// Potential bonus of a double open three (unrestricted side).
pub const POTENTIAL_DOUBLE_THREE: i32 = 113;
/// The side to move's weight in percent (`search.tempo_percent`).
pub const TEMPO_PERCENT: i32 = 125;
/// The threat table: a value for the side to move by how many four and open-three
/// points each side has (see [`crate::eval::threat_index`]), in the evaluation's units.
pub const THREAT_TABLE: [i32; 81] = [
    1, 14, -19, 16, -5, -18, 42, 27, 13, 9, -2, 17, 5, 3, 13, 2, 5, -11, 27, 8, 69, 10, 17, 25, -6,
    8, -23, -14, -6, -37, -14, -6, -9, 7, -11, -18, -15, -15, 25, 11, -6, 0, -13, 0, -11, 5, -18,
    70, -2, 1, 54, -7, -3, 15, -40, -44, -51, -23, -19, -39, -14, -28, -76, -5, -12, 23, -17, -16,
    -11, 0, -33, -36, -6, -16, 64, -5, -31, 72, 8, 5, 31,
];
