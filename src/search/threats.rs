//! One pass over the candidate points of a node: the threats of both sides (points that make a
//! five, a straight four or any four), the candidate moves with ordering scores, and the static
//! evaluation, all read from the board's line patterns.

use smallvec::SmallVec;

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::eval::{cell_potential, move_score};
use crate::pattern::PatternKind;

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

/// Scans the candidate points of `board` for `us`; `tempo_percent` weighs the side to move's
/// potential in the evaluation (the initiative).
pub(crate) fn scan(board: &Board, us: Color, want_moves: bool, tempo_percent: i32) -> Scan {
    let them = us.opponent();
    let mut s = Scan {
        us: SideThreats::default(),
        them: SideThreats::default(),
        moves: Vec::new(),
        eval: 0,
    };
    let (mut pot_us, mut pot_them) = (0i32, 0i32);
    // Renju black's forbidden shapes are not potential.
    let restricted =
        [us, them].map(|c| board.rule() == crate::rule::Rule::Renju && c == Color::Black);
    for p in board.near_empties() {
        let own = board.patterns(p, us);
        let opp = board.patterns(p, them);
        for (pats, side) in [(&own, &mut s.us), (&opp, &mut s.them)] {
            let mut five = false;
            let mut flex4 = false;
            let mut four = false;
            for x in pats.iter() {
                match x.kind() {
                    PatternKind::Five => five = true,
                    PatternKind::Flex4 => flex4 = true,
                    PatternKind::Block4 => four = true,
                    _ => {}
                }
            }
            if five {
                side.fives.push(p);
            } else {
                if flex4 {
                    side.flex4.push(p);
                }
                if flex4 || four {
                    side.fours.push(p);
                }
            }
        }
        pot_us += cell_potential(&own, restricted[0]);
        pot_them += cell_potential(&opp, restricted[1]);
        if want_moves {
            s.moves.push((p, move_score(board, p, us)));
        }
    }
    s.eval = (pot_us * tempo_percent / 100 - pot_them) / 4;
    s
}
