//! The facts of a node: the threats of both sides (points that make a five, a straight four or any
//! four), the candidate moves with ordering scores, and the static evaluation, all read from the
//! board's incremental cell summaries.

use smallvec::SmallVec;

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::eval::{static_eval, summary_score};
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
    /// Every candidate point with its ordering score (legality not checked).
    pub moves: Vec<(Pos, i32)>,
    /// Static evaluation from our view.
    pub eval: i32,
}

/// Reads the facts of a node for `us` from the board's incremental state: the threat sets of both
/// sides, the static evaluation and (with `want_moves`) the candidate points with their ordering
/// scores; `tempo_percent` weighs the side to move's potential (the initiative).
pub(crate) fn scan(board: &Board, us: Color, want_moves: bool, tempo_percent: i32) -> Scan {
    let them = us.opponent();
    let side = |c: Color| SideThreats {
        fives: board.threat_points(c, ThreatSet::Five).collect(),
        flex4: board.threat_points(c, ThreatSet::Flex4).collect(),
        fours: board.threat_points(c, ThreatSet::Four).collect(),
    };
    let mut s = Scan {
        us: side(us),
        them: side(them),
        moves: Vec::new(),
        eval: static_eval(board, us, tempo_percent),
    };
    if want_moves {
        s.moves.reserve(64);
        for p in board.near_empties() {
            s.moves.push((
                p,
                summary_score(board.summary(p, us), board.summary(p, them)),
            ));
        }
    }
    s
}
