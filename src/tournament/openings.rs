//! Opening files and the eight board symmetries.
//!
//! An opening file holds one opening a line, black's stone first, in either of two formats
//! (decided per line):
//! - **Gomocup offsets**: comma- and/or space-separated integer pairs `x,y, x,y, …` relative to the
//!   centre `(width / 2, height / 2)`, y growing downwards as in the Piskvork protocol
//!   (`0,0, 1,-1, 1,0` is h8 i9 i8 in renju notation on 15×15);
//! - **pos strings** (c-gomoku-cli): `h8i9i8`, column letters from the left and rows `y + 1`
//!   counted from the **top** (see [`crate::notation::parse_pos_string`]). A line with any letter
//!   in it is a pos string.
//!
//! Blank lines and everything after a `#` are ignored. Every opening is checked on the board it
//! will be played on: all points on the board and distinct, and no winning line for the rule
//! (an opening that is already decided cannot be played).
//!
//! [`Symmetry`] maps a point to its image under one of the eight symmetries of a square board
//! (rotations and reflections about the centre); on a rectangular board only the four that keep
//! the width and height apply. [`Symmetry::apply_all`] transforms a move list, keeping the order.

use thiserror::Error;

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::error::NotationError;
use crate::notation::parse_pos_string;
use crate::rule::Rule;
use crate::rules::find_five;

/// An opening file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OpeningError {
    /// A line that is neither format.
    #[error("line {line}: {reason}")]
    Malformed {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A pos string that does not parse.
    #[error("line {line}: {source}")]
    Notation {
        /// 1-based line number.
        line: usize,
        /// The notation error.
        source: NotationError,
    },
    /// Two stones on one point.
    #[error("line {line}: two stones on {x},{y}")]
    Repeated {
        /// 1-based line number.
        line: usize,
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// A point outside the board.
    #[error("line {line}: stone {index} at offset {dx},{dy} is off the {width}x{height} board")]
    OffBoard {
        /// 1-based line number.
        line: usize,
        /// 1-based stone number.
        index: usize,
        /// Offset column.
        dx: i64,
        /// Offset row.
        dy: i64,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
    /// An opening whose stones already contain a winning line.
    #[error("line {line}: the opening already has a five for {color}")]
    Decided {
        /// 1-based line number.
        line: usize,
        /// Whose five.
        color: Color,
    },
    /// A file without any opening.
    #[error("the opening file holds no opening")]
    Empty,
}

/// One opening: its stones in move order (black first) and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The stones, black first, alternating.
    pub moves: Vec<Pos>,
    /// The 1-based line of the file (0 for the built-in empty opening).
    pub line: usize,
    /// The symmetry applied to the file's opening.
    pub symmetry: Symmetry,
}

impl Opening {
    /// The empty board.
    pub fn empty() -> Opening {
        Opening {
            moves: Vec::new(),
            line: 0,
            symmetry: Symmetry::Identity,
        }
    }
}

/// Parses an opening file for a `width`×`height` board under `rule`.
pub fn parse_openings(
    text: &str,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let moves = if body.bytes().any(|b| b.is_ascii_alphabetic()) {
            parse_pos_string(body, width, height)
                .map_err(|source| OpeningError::Notation { line, source })?
        } else {
            parse_offsets(body, line, width, height)?
        };
        check_opening(&moves, line, width, height, rule)?;
        out.push(Opening {
            moves,
            line,
            symmetry: Symmetry::Identity,
        });
    }
    if out.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(out)
}

fn parse_offsets(
    body: &str,
    line: usize,
    width: usize,
    height: usize,
) -> Result<Vec<Pos>, OpeningError> {
    let numbers: Vec<i64> = body
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<i64>().map_err(|_| OpeningError::Malformed {
                line,
                reason: format!("'{t}' is not an integer offset"),
            })
        })
        .collect::<Result<_, _>>()?;
    if numbers.len() % 2 != 0 {
        return Err(OpeningError::Malformed {
            line,
            reason: format!("{} numbers do not make x,y pairs", numbers.len()),
        });
    }
    let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
    numbers
        .chunks(2)
        .enumerate()
        .map(|(k, pair)| {
            let (x, y) = (cx + pair[0], cy + pair[1]);
            let inside = (0..width as i64).contains(&x) && (0..height as i64).contains(&y);
            match inside.then(|| Pos::new(x as usize, y as usize)).flatten() {
                Some(p) => Ok(p),
                None => Err(OpeningError::OffBoard {
                    line,
                    index: k + 1,
                    dx: pair[0],
                    dy: pair[1],
                    width,
                    height,
                }),
            }
        })
        .collect()
}

/// Checks that `moves` can start a game: distinct points on the board and no winning line.
pub fn check_opening(
    moves: &[Pos],
    line: usize,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<(), OpeningError> {
    let mut board = Board::new(width, height, rule).map_err(|e| OpeningError::Malformed {
        line,
        reason: e.to_string(),
    })?;
    for (k, &p) in moves.iter().enumerate() {
        let color = if k % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        if !board.contains(p) {
            return Err(OpeningError::OffBoard {
                line,
                index: k + 1,
                dx: p.x() as i64 - (width / 2) as i64,
                dy: p.y() as i64 - (height / 2) as i64,
                width,
                height,
            });
        }
        if !board.is_empty(p) {
            return Err(OpeningError::Repeated {
                line,
                x: p.x(),
                y: p.y(),
            });
        }
        board.make_move(p, color);
    }
    match find_five(&board) {
        Some((color, _)) => Err(OpeningError::Decided { line, color }),
        None => Ok(()),
    }
}

/// One of the eight symmetries of a square board (rotations counter-clockwise as drawn with y
/// growing downwards are not assumed; each is named by what it does to `(x, y)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Symmetry {
    /// `(x, y)`.
    Identity,
    /// `(w−1−y, x)`: a quarter turn.
    Rotate90,
    /// `(w−1−x, h−1−y)`: a half turn.
    Rotate180,
    /// `(y, h−1−x)`: three quarter turns.
    Rotate270,
    /// `(w−1−x, y)`: mirror left–right.
    MirrorX,
    /// `(x, h−1−y)`: mirror top–bottom.
    MirrorY,
    /// `(y, x)`: mirror in the main diagonal.
    Transpose,
    /// `(w−1−y, h−1−x)`: mirror in the other diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorX,
        Symmetry::MirrorY,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Whether this symmetry swaps the axes (needs a square board).
    pub const fn swaps_axes(self) -> bool {
        matches!(
            self,
            Symmetry::Rotate90
                | Symmetry::Rotate270
                | Symmetry::Transpose
                | Symmetry::AntiTranspose
        )
    }

    /// The symmetries that map a `width`×`height` board onto itself.
    pub fn for_board(width: usize, height: usize) -> Vec<Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(|s| width == height || !s.swaps_axes())
            .collect()
    }

    /// The image of `p` on a `width`×`height` board (the symmetry must fit the board).
    pub fn apply(self, p: Pos, width: usize, height: usize) -> Pos {
        let (x, y) = (p.x(), p.y());
        let (w, h) = (width - 1, height - 1);
        let (nx, ny) = match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (w - y, x),
            Symmetry::Rotate180 => (w - x, h - y),
            Symmetry::Rotate270 => (y, h - x),
            Symmetry::MirrorX => (w - x, y),
            Symmetry::MirrorY => (x, h - y),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (w - y, h - x),
        };
        Pos::new_unchecked(nx, ny)
    }

    /// The image of a move list, in the same order.
    pub fn apply_all(self, moves: &[Pos], width: usize, height: usize) -> Vec<Pos> {
        moves
            .iter()
            .map(|&p| self.apply(p, width, height))
            .collect()
    }
}

/// The points of each colour of a move list (black first, alternating), each sorted: two
/// positions with the same sets are the same whatever the move order.
pub fn colour_sets(moves: &[Pos]) -> (Vec<Pos>, Vec<Pos>) {
    let mut black: Vec<Pos> = moves.iter().step_by(2).copied().collect();
    let mut white: Vec<Pos> = moves.iter().skip(1).step_by(2).copied().collect();
    black.sort_unstable();
    white.sort_unstable();
    (black, white)
}

/// The distinct images of an opening under the symmetries of its board (two images are the same
/// when each colour has the same set of points), identity first.
pub fn symmetric_images(opening: &Opening, width: usize, height: usize) -> Vec<Opening> {
    let key = colour_sets;
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for s in Symmetry::for_board(width, height) {
        let moves = s.apply_all(&opening.moves, width, height);
        let k = key(&moves);
        if !seen.contains(&k) {
            seen.push(k);
            out.push(Opening {
                moves,
                line: opening.line,
                symmetry: s,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(x: usize, y: usize) -> Pos {
        Pos::new(x, y).unwrap()
    }

    #[test]
    fn both_formats_and_comments() {
        let text = "# renju-style openings\n0,0, 1,-1, 1,0\n\nh8i7i8  # the same, as a pos string\n-1, 0 ,1,1\n";
        let o = parse_openings(text, 15, 15, Rule::Freestyle).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].moves, vec![pos(7, 7), pos(8, 6), pos(8, 7)]);
        assert_eq!(o[1].moves, o[0].moves);
        assert_eq!(o[1].line, 4);
        assert_eq!(o[2].moves, vec![pos(6, 7), pos(8, 8)]);
        // On 20×20 the centre is (10, 10).
        let o = parse_openings("0,0, 1,1", 20, 20, Rule::Freestyle).unwrap();
        assert_eq!(o[0].moves, vec![pos(10, 10), pos(11, 11)]);
    }

    #[test]
    fn bad_files_say_which_line() {
        let err = |t: &str| parse_openings(t, 15, 15, Rule::Freestyle).unwrap_err();
        assert!(matches!(
            err("0,0\n0,0,1"),
            OpeningError::Malformed { line: 2, .. }
        ));
        assert!(matches!(
            err("0,0, 0,0"),
            OpeningError::Repeated { line: 1, .. }
        ));
        assert!(matches!(
            err("0,0, 8,0"),
            OpeningError::OffBoard { index: 2, .. }
        ));
        assert!(matches!(err("h8 zz"), OpeningError::Notation { .. }));
        assert!(matches!(err("0,1.5"), OpeningError::Malformed { .. }));
        assert_eq!(err("# nothing\n"), OpeningError::Empty);
        let five = "0,0, 0,5, 1,0, 1,5, 2,0, 2,5, 3,0, 3,5, 4,0";
        assert!(matches!(
            err(five),
            OpeningError::Decided {
                color: Color::Black,
                ..
            }
        ));
    }

    #[test]
    fn the_eight_symmetries_are_distinct_permutations() {
        let p = pos(1, 3);
        let images: Vec<Pos> = Symmetry::ALL.iter().map(|s| s.apply(p, 15, 15)).collect();
        for (i, a) in images.iter().enumerate() {
            assert!(images[i + 1..].iter().all(|b| a != b), "{images:?}");
        }
        for s in Symmetry::ALL {
            // Each maps the board onto itself and keeps the centre.
            assert_eq!(s.apply(pos(7, 7), 15, 15), pos(7, 7));
            let mut all: Vec<Pos> = (0..15)
                .flat_map(|y| (0..15).map(move |x| s.apply(pos(x, y), 15, 15)))
                .collect();
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), 225, "{s:?}");
        }
        assert_eq!(Symmetry::for_board(15, 9).len(), 4);
        assert_eq!(Symmetry::Rotate90.apply(pos(0, 0), 15, 15), pos(14, 0));
    }

    #[test]
    fn images_are_deduplicated() {
        let centre = Opening {
            moves: vec![pos(7, 7)],
            line: 1,
            symmetry: Symmetry::Identity,
        };
        assert_eq!(symmetric_images(&centre, 15, 15).len(), 1);
        let direct = Opening {
            moves: vec![pos(7, 7), pos(7, 6)],
            ..centre.clone()
        };
        assert_eq!(symmetric_images(&direct, 15, 15).len(), 4);
        let general = Opening {
            moves: vec![pos(7, 7), pos(7, 6), pos(9, 5)],
            ..centre
        };
        let images = symmetric_images(&general, 15, 15);
        assert_eq!(images.len(), 8);
        assert_eq!(images[0].moves, general.moves);
    }
}
