//! The facts of a node: the threats of both sides (points that make a five, a straight four or any
//! four) and the static evaluation; and the candidate moves with ordering scores — all read from
//! the board's incremental cell summaries.

use smallvec::SmallVec;

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::eval::{move_score, static_eval_parts};
use crate::pattern::cell::ThreatSet;

/// Threat points of one side.
#[derive(Default)]
pub(crate) struct SideThreats {
    /// Points where the side completes a winning line.
    pub fives: SmallVec<[Pos; 4]>,
    /// Points where the side makes a straight four (legality not checked).
    pub flex4: SmallVec<[Pos; 8]>,
    /// Points where the side makes any four (legality not checked).
    pub fours: SmallVec<[Pos; 16]>,
}

/// The facts of a node for the side to move (`us`).
pub(crate) struct Scan {
    /// Our threat points.
    pub us: SideThreats,
    /// The opponent's threat points.
    pub them: SideThreats,
    /// Static evaluation from our view.
    pub eval: i32,
    /// The threat table's part of `eval` (the rest is the potentials').
    pub threat_value: i32,
}

/// Reads the facts of a node for `us` from the board's incremental state: the threat sets of both
/// sides and the static evaluation; `tempo_percent` weighs the side to move's potential (the
/// initiative).
pub(crate) fn scan(board: &Board, us: Color, tempo_percent: i32) -> Scan {
    let them = us.opponent();
    let side = |c: Color| SideThreats {
        fives: board.threat_points(c, ThreatSet::Five).collect(),
        flex4: board.threat_points(c, ThreatSet::Flex4).collect(),
        fours: board.threat_points(c, ThreatSet::Four).collect(),
    };
    let (potentials, threat_value) = static_eval_parts(board, us, tempo_percent);
    Scan {
        us: side(us),
        them: side(them),
        eval: potentials + threat_value,
        threat_value,
    }
}

/// Every candidate point (empty, near a stone; legality not checked) with its ordering score
/// for `us`, in board order.
pub(crate) fn candidate_moves(board: &Board, us: Color) -> Vec<(Pos, i32)> {
    board
        .near_empties()
        .map(|p| (p, move_score(board, p, us)))
        .collect()
}
