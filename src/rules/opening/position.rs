//! What the opening rules need to know of a position: its size and its stones. The omok
//! [`Board`] provides it; another rule family's board (Pente's, with captures) can implement it
//! too and reuse the opening rules as they are.

use crate::board::Board;
use crate::core::{Color, Pos};

/// A position as the opening rules see it.
pub trait Position {
    /// Columns.
    fn width(&self) -> usize;
    /// Rows.
    fn height(&self) -> usize;
    /// The stone on `p` (on the board).
    fn stone(&self, p: Pos) -> Option<Color>;

    /// Whether `p` is on the board.
    fn on_board(&self, p: Pos) -> bool {
        p.x() < self.width() && p.y() < self.height()
    }

    /// The centre (`(width/2, height/2)`).
    fn middle(&self) -> Pos {
        Pos::new_unchecked(self.width() / 2, self.height() / 2)
    }

    /// Whether `p` is on the board and empty.
    fn is_free(&self, p: Pos) -> bool {
        self.on_board(p) && self.stone(p).is_none()
    }

    /// Every point, row by row from the top.
    fn points(&self) -> Vec<Pos> {
        let w = self.width();
        (0..self.height())
            .flat_map(|y| (0..w).map(move |x| Pos::new_unchecked(x, y)))
            .collect()
    }

    /// The stones, in board order.
    fn stones(&self) -> Vec<(Pos, Color)> {
        self.points()
            .into_iter()
            .filter_map(|p| self.stone(p).map(|c| (p, c)))
            .collect()
    }

    /// Whether `p` is empty and a stone lies within Chebyshev distance 2 of it.
    fn near_a_stone(&self, p: Pos) -> bool {
        if !self.is_free(p) {
            return false;
        }
        let (x, y) = (p.x() as i64, p.y() as i64);
        (-2..=2).any(|dy| {
            (-2..=2).any(|dx| {
                let (nx, ny) = (x + dx, y + dy);
                nx >= 0
                    && ny >= 0
                    && (nx as usize) < self.width()
                    && (ny as usize) < self.height()
                    && self
                        .stone(Pos::new_unchecked(nx as usize, ny as usize))
                        .is_some()
            })
        })
    }
}

impl Position for Board {
    fn width(&self) -> usize {
        Board::width(self)
    }

    fn height(&self) -> usize {
        Board::height(self)
    }

    fn stone(&self, p: Pos) -> Option<Color> {
        self.get(p)
    }

    fn on_board(&self, p: Pos) -> bool {
        self.contains(p)
    }

    fn stones(&self) -> Vec<(Pos, Color)> {
        self.history().to_vec()
    }

    fn near_a_stone(&self, p: Pos) -> bool {
        // The board keeps this incrementally (its near radius is 2).
        self.is_near_empty(p)
    }
}
