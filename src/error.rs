//! The library's typed errors. Every fallible public function returns one of these; none of them
//! panics on user input.

use thiserror::Error;

use crate::core::Color;

/// A rule name or code that is not known.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleParseError {
    /// An unknown rule name.
    #[error(
        "unknown rule '{0}' (expected freestyle, standard, renju, korean, casual, casual-44, casual-33-44 or caro)"
    )]
    UnknownName(String),
    /// An unknown Gomocup rule code.
    #[error("unknown Gomocup rule code {0} (expected 0, 1, 4, 8 or 9)")]
    UnknownCode(u32),
}

/// A problem with a board, a point or a move on it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// Width or height outside 5..=32.
    #[error("board size {width}x{height} is out of range (each side must be 5..=32)")]
    BadSize {
        /// Requested width.
        width: usize,
        /// Requested height.
        height: usize,
    },
    /// A point outside the board.
    #[error("point ({x},{y}) is off the {width}x{height} board")]
    OffBoard {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
    /// A point that already holds a stone.
    #[error("point ({x},{y}) is already occupied")]
    Occupied {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// Undo on an empty move history.
    #[error("there is no move to undo")]
    NothingToUndo,
    /// The position already contains a winning line.
    #[error("{color} already has a five on the board at {line}")]
    FiveOnBoard {
        /// Whose five.
        color: Color,
        /// The stones of the line, as `x,y` pairs.
        line: String,
    },
}

/// A malformed coordinate, move list or position string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    /// A token that is not a coordinate of the expected notation.
    #[error("'{token}' is not a valid {notation} coordinate")]
    BadToken {
        /// The offending text.
        token: String,
        /// Which notation was expected.
        notation: &'static str,
    },
    /// A coordinate outside the board.
    #[error(transparent)]
    Board(#[from] BoardError),
}
