//! The static evaluation's weights, fitted to game results by `pbrain-omok tune fit`
//! (31572 positions from 1380 games; loss 0.153723 before, 0.146022 after, K = 269.8).
//! Written by the tuner: refit rather than edit by hand.

/// Potential of one directional pattern class for the static evaluation, by
/// [`PatternKind`](super::PatternKind) order (dead, block1 … flex4, five, overline).
pub const POTENTIAL: [i32; 11] = [0, 0, 0, 0, 20, 25, 47, 110, 400, 0, 0];
/// Potential bonus of a cell that wins by force with one more move (two fours, a four
/// and an open three).
pub const POTENTIAL_WINNING_SHAPE: i32 = 328;
/// Potential bonus of a double open three (unrestricted side).
pub const POTENTIAL_DOUBLE_THREE: i32 = 207;
/// The side to move's weight in percent (`search.tempo_percent`).
pub const TEMPO_PERCENT: i32 = 144;
/// The threat table: a value for the side to move by how many four and open-three
/// points each side has (see [`crate::eval::threat_index`]), in the evaluation's units.
pub const THREAT_TABLE: [i32; 81] = [
    -2, 40, -90, 31, -43, -125, 78, 46, -11, -39, -66, -25, -16, 16, -35, -7, -6, -104, 170, 110,
    101, 13, 60, -5, -107, 33, -104, -99, -79, -83, -52, -69, -84, -3, -47, -86, -70, -20, -2, 66,
    -62, -54, -62, -49, -88, 11, -35, 104, 35, -62, 29, -64, -46, -29, -199, -249, -131, -147,
    -135, -136, -66, -160, -246, 2, -57, -27, -109, -170, -99, -46, -149, -144, -237, -87, 51, -61,
    -170, 59, -51, -48, -5,
];
