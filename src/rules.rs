//! Rule behaviour over a [`Board`]: win detection with the winning line, exact forbidden points,
//! move legality, threat hints and the seeded auto-move policy (SPEC §3, §5.1).
//!
//! The fast paths read the board's incremental line patterns; [`reference`](mod@reference) is a slow checker
//! written straight from SPEC §3.1/§3.2 that tests compare them against.

pub mod auto_move;
pub mod forbidden;
pub mod hints;
pub mod opening;
pub mod reference;
pub mod win;

pub use crate::rule::Rule;
pub use auto_move::auto_move;
pub use forbidden::{ForbidChecker, ForbidOptions, ForbiddenKind, forbidden, forbidden_points};
pub use hints::{Threat, ThreatKind, threats};
pub use opening::{Opening, OpeningAction, OpeningError, OpeningRule};

pub use win::{find_five, winning_line};

use thiserror::Error;

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::error::BoardError;

/// Why a move may not be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalMove {
    /// Off the board or occupied.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A forbidden point for the colour.
    #[error("({x},{y}) is forbidden for {color}: {kind}")]
    Forbidden {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
        /// The colour that may not play there.
        color: Color,
        /// The forbidden shape.
        kind: ForbiddenKind,
    },
}

/// Checks that `color` may play `p`: on the board, empty and not forbidden (a move that makes a
/// winning line is never forbidden).
pub fn check_move(board: &mut Board, p: Pos, color: Color) -> Result<(), IllegalMove> {
    if !board.contains(p) {
        return Err(BoardError::OffBoard {
            x: p.x() as i64,
            y: p.y() as i64,
            width: board.width(),
            height: board.height(),
        }
        .into());
    }
    if !board.is_empty(p) {
        return Err(BoardError::Occupied { x: p.x(), y: p.y() }.into());
    }
    match forbidden(board, p, color) {
        Some(kind) => Err(IllegalMove::Forbidden {
            x: p.x(),
            y: p.y(),
            color,
            kind,
        }),
        None => Ok(()),
    }
}
