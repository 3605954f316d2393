//! Basic domain types shared by every layer: [`Pos`], [`Color`], [`Dir`], board-size limits and the
//! Zobrist keys.
//!
//! Positions live on a fixed padded grid of [`STRIDE`]×[`STRIDE`] cells: the largest board
//! ([`MAX_SIZE`]×[`MAX_SIZE`]) surrounded by [`PAD`] wall cells on every side. A [`Pos`] is an index
//! into that grid, so moving along a line is one addition and no bounds check is needed within
//! [`PAD`] steps of any on-board cell. A `Pos` does not know the board size: [`crate::board::Board`]
//! validates coordinates against its own width and height.

use std::fmt;

/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Largest supported board side.
pub const MAX_SIZE: usize = 32;
/// Wall cells kept around the largest board on each side (the pattern window reaches ±5).
pub const PAD: usize = 5;
/// Row length of the padded grid.
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Number of cells of the padded grid.
pub const GRID_CELLS: usize = STRIDE * STRIDE;

/// A stone colour; black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    Black,
    /// The second player.
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The lower-case English name (`black`, `white`).
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The four line directions through a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Left to right (a row).
    Horizontal,
    /// Top to bottom (a column).
    Vertical,
    /// Top-left to bottom-right (↘).
    Diagonal,
    /// Bottom-left to top-right (↗).
    AntiDiagonal,
}

impl Dir {
    /// All four directions in a fixed order (their [`Dir::index`] order).
    pub const ALL: [Dir; 4] = [
        Dir::Horizontal,
        Dir::Vertical,
        Dir::Diagonal,
        Dir::AntiDiagonal,
    ];

    /// 0..4, the position in [`Dir::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The unit step `(dx, dy)` of this direction.
    #[inline]
    pub const fn step(self) -> (i32, i32) {
        match self {
            Dir::Horizontal => (1, 0),
            Dir::Vertical => (0, 1),
            Dir::Diagonal => (1, 1),
            Dir::AntiDiagonal => (1, -1),
        }
    }

    /// The unit step as an offset on the padded grid.
    #[inline]
    pub const fn delta(self) -> isize {
        let (dx, dy) = self.step();
        dx as isize + dy as isize * STRIDE as isize
    }

    /// A short name (`horizontal`, `vertical`, `diagonal`, `anti-diagonal`).
    pub const fn name(self) -> &'static str {
        match self {
            Dir::Horizontal => "horizontal",
            Dir::Vertical => "vertical",
            Dir::Diagonal => "diagonal",
            Dir::AntiDiagonal => "anti-diagonal",
        }
    }
}

/// A point of the padded grid, identified by its 0-based `(x, y)` (x from the left, y from the top,
/// as in the Piskvork protocol). Construct with [`Pos::new`] (checks `x, y < MAX_SIZE`) or through a
/// board, which also checks its own size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(u16);

impl Pos {
    /// The point `(x, y)` if both are below [`MAX_SIZE`].
    #[inline]
    pub const fn new(x: usize, y: usize) -> Option<Pos> {
        if x < MAX_SIZE && y < MAX_SIZE {
            Some(Pos(((y + PAD) * STRIDE + x + PAD) as u16))
        } else {
            None
        }
    }

    /// The point `(x, y)`; the caller guarantees `x, y < MAX_SIZE`.
    #[inline]
    pub const fn new_unchecked(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }

    /// Column, 0 at the left.
    #[inline]
    pub const fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }

    /// Row, 0 at the top.
    #[inline]
    pub const fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }

    /// Index into padded-grid arrays of [`GRID_CELLS`] entries.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The padded-grid index of the cell `k` steps away along `dir` (may be a wall cell).
    #[inline]
    pub(crate) const fn shifted_index(self, dir: Dir, k: isize) -> usize {
        (self.0 as isize + dir.delta() * k) as usize
    }

    /// Rebuilds a `Pos` from a padded-grid index of an on-board cell.
    #[inline]
    pub(crate) const fn from_index(index: usize) -> Pos {
        debug_assert!(index < GRID_CELLS);
        Pos(index as u16)
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x(), self.y())
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

impl serde::Serialize for Pos {
    /// As `{"x": …, "y": …}`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Pos", 2)?;
        st.serialize_field("x", &self.x())?;
        st.serialize_field("y", &self.y())?;
        st.end()
    }
}

impl<'de> serde::Deserialize<'de> for Pos {
    /// From `{"x": …, "y": …}`; coordinates must be below [`MAX_SIZE`] (the board checks its
    /// own size).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Pos, D::Error> {
        #[derive(serde::Deserialize)]
        struct Xy {
            x: usize,
            y: usize,
        }
        let Xy { x, y } = Xy::deserialize(d)?;
        Pos::new(x, y).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "point ({x},{y}) is outside the largest board ({MAX_SIZE}x{MAX_SIZE})"
            ))
        })
    }
}

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn zobrist_table() -> [[u64; GRID_CELLS]; 2] {
    let mut table = [[0u64; GRID_CELLS]; 2];
    let mut state = 0x6F6D_6F6B_u64; // "omok"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < GRID_CELLS {
            let (s, v) = splitmix64(state);
            state = s;
            table[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    table
}

/// Zobrist keys per colour and padded-grid cell (fixed, so hashes are reproducible across runs).
pub static ZOBRIST: [[u64; GRID_CELLS]; 2] = zobrist_table();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_round_trips_coordinates() {
        for (x, y) in [(0, 0), (31, 0), (0, 31), (7, 7), (31, 31)] {
            let p = Pos::new(x, y).unwrap();
            assert_eq!((p.x(), p.y()), (x, y));
            assert_eq!(Pos::from_index(p.index()), p);
        }
        assert!(Pos::new(32, 0).is_none());
        assert!(Pos::new(0, 32).is_none());
    }

    #[test]
    fn shifting_follows_the_direction_step() {
        let p = Pos::new(10, 10).unwrap();
        for d in Dir::ALL {
            let (dx, dy) = d.step();
            let q = Pos::from_index(p.shifted_index(d, 3));
            assert_eq!(q.x() as i32, 10 + 3 * dx);
            assert_eq!(q.y() as i32, 10 + 3 * dy);
        }
    }

    #[test]
    fn zobrist_keys_are_distinct() {
        let mut all: Vec<u64> = ZOBRIST.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * GRID_CELLS);
    }
}
