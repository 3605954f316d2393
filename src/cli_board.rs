//! The `forbid --moves` view: a move list drawn as an ASCII board with forbidden points marked.

use anyhow::Result;

use omok::rules::{ForbidChecker, ForbidOptions};
use omok::{Board, Color, Rule};

pub fn forbid_board(moves: &str, size: usize, rule: Rule, options: ForbidOptions) -> Result<String> {
    let _ = (moves, size, rule, options, Board::square, Color::Black, ForbidChecker::new);
    anyhow::bail!("not yet")
}
