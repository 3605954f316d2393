//! Line patterns: what a stone placed on a cell does along one line, for one colour.
//!
//! The board keeps, for every cell and direction, a 20-bit *line key*: the ten cells at offsets
//! −5..−1 and +1..+5 along that line, 2 bits each ([`CELL_EMPTY`], [`CELL_BLACK`], [`CELL_WHITE`],
//! [`CELL_WALL`]). Slot `k + 5` holds offset `k < 0` and slot `k + 4` holds offset `k > 0`.
//! A precomputed [`PatternTable`] maps a key to one [`LinePattern`] byte per colour.
//!
//! ±5 cells are exactly enough for every rule: a five through the centre lies within ±4, and whether
//! it is *exactly* five (or, in caro, blocked at both ends) is decided by the cells at ±5.
//!
//! The classification itself lives in [`analysis`] (slow, exact, written from SPEC §3.1) and is also
//! used directly by the forbidden check and the threat hints; [`table`] only caches it.

pub mod analysis;
pub mod cell;
pub mod combo;
pub mod policy;
pub mod policy_weights;
pub mod table;
pub mod weights;

pub use analysis::{Line, WinRule};
pub use table::PatternTable;

/// 2-bit code of an empty cell in a line key.
pub const CELL_EMPTY: u8 = 0;
/// 2-bit code of a black stone.
pub const CELL_BLACK: u8 = 1;
/// 2-bit code of a white stone.
pub const CELL_WHITE: u8 = 2;
/// 2-bit code of a cell off the board.
pub const CELL_WALL: u8 = 3;

/// Cells on each side of the centre that a line key covers.
pub const HALF_WINDOW: usize = 5;
/// Number of bits of a line key.
pub const KEY_BITS: u32 = 20;

/// The bit position of offset `k` (−5..=5, k ≠ 0) in a line key.
#[inline]
pub const fn key_shift(k: isize) -> u32 {
    debug_assert!(k != 0 && k >= -5 && k <= 5);
    let slot = if k < 0 { k + 5 } else { k + 4 };
    2 * slot as u32
}

/// Strength class of a line pattern, weakest first.
///
/// `BlockN` means the line can still grow to N stones towards a five with one side closed, `FlexN`
/// with both sides open (Flex3 is an open three, Flex4 a straight four), as defined recursively in
/// [`analysis`]. `Overline` means placing the stone makes a run of six or more that does not win
/// under the line's [`WinRule`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum PatternKind {
    /// Nothing can come of this line through this cell.
    Dead = 0,
    /// One stone that can still become a blocked two.
    Block1,
    /// One stone that can still become an open two.
    Flex1,
    /// Can become a blocked three with one more stone.
    Block2,
    /// Can become an open three with one more stone.
    Flex2,
    /// Can become a four with one more stone.
    Block3,
    /// Can become a straight four with one more stone (an open three).
    Flex3,
    /// A four: one point completes a five.
    Block4,
    /// A straight four: the same four stones complete a five at two points.
    Flex4,
    /// A winning line.
    Five,
    /// A run of six or more that does not win.
    Overline,
}

impl PatternKind {
    const ALL: [PatternKind; 11] = [
        PatternKind::Dead,
        PatternKind::Block1,
        PatternKind::Flex1,
        PatternKind::Block2,
        PatternKind::Flex2,
        PatternKind::Block3,
        PatternKind::Flex3,
        PatternKind::Block4,
        PatternKind::Flex4,
        PatternKind::Five,
        PatternKind::Overline,
    ];

    /// The class one stone short of this one (what a cell has if one more stone makes `self`).
    pub(crate) const fn demote(self) -> PatternKind {
        match self {
            PatternKind::Flex4 => PatternKind::Flex3,
            PatternKind::Block4 => PatternKind::Block3,
            PatternKind::Flex3 => PatternKind::Flex2,
            PatternKind::Block3 => PatternKind::Block2,
            PatternKind::Flex2 => PatternKind::Flex1,
            PatternKind::Block2 => PatternKind::Block1,
            _ => PatternKind::Dead,
        }
    }
}

/// The finer shapes of open twos and open threes, numbered after the [`PatternKind`]s in a
/// [`LinePattern`]'s low bits. An open two grows into an open three on one or two points
/// (`PatternKind::Flex2`, such as `X..X`), on three (`X.X` with room) or on four or more (`XX`
/// with room on both sides); an open three into a straight four on one point (`X.XX`, or
/// `XXX` with room on one side only: `PatternKind::Flex3`) or on two (`XXX` with room on both
/// sides). The search reads only the kinds; the evaluation's line classes tell the shapes apart.
pub struct Shape;

impl Shape {
    /// An open two with exactly three points that make it an open three.
    pub const FLEX2_THREE: u8 = 11;
    /// An open two with four or more points that make it an open three.
    pub const FLEX2_FOUR: u8 = 12;
    /// An open three with two or more points that make it a straight four.
    pub const FLEX3_STRAIGHT: u8 = 13;
    /// Number of shapes (the kinds and the finer shapes).
    pub const COUNT: usize = 14;
}

/// The kind of each shape number (numbers past the shapes never occur).
const KIND_OF_SHAPE: [PatternKind; 16] = {
    let mut t = [PatternKind::Dead; 16];
    let mut i = 0;
    while i < PatternKind::ALL.len() {
        t[i] = PatternKind::ALL[i];
        i += 1;
    }
    t[Shape::FLEX2_THREE as usize] = PatternKind::Flex2;
    t[Shape::FLEX2_FOUR as usize] = PatternKind::Flex2;
    t[Shape::FLEX3_STRAIGHT as usize] = PatternKind::Flex3;
    t
};

/// One byte describing what placing a stone of one colour on a cell does along one line.
///
/// Bits 0–3: the line's [`Shape`]: its [`PatternKind`], or for an open two or an open three one
/// of the finer shapes that say how many ways it has to grow, which only the evaluation tells
/// apart. Flags: two distinct fours on this line; a RIF three on this line
/// (line-local part: some empty point makes a straight four containing both stones without making
/// a five here); the casual rule's window three and window four (SPEC §3.2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LinePattern(u8);

impl LinePattern {
    const KIND_MASK: u8 = 0x0F;
    const DOUBLE_FOUR: u8 = 0x10;
    const THREE: u8 = 0x20;
    const CASUAL_THREE: u8 = 0x40;
    const CASUAL_FOUR: u8 = 0x80;

    /// Packs the parts into one byte.
    pub(crate) const fn from_parts(
        kind: PatternKind,
        double_four: bool,
        three: bool,
        casual_three: bool,
        casual_four: bool,
    ) -> LinePattern {
        let mut b = kind as u8;
        if double_four {
            b |= Self::DOUBLE_FOUR;
        }
        if three {
            b |= Self::THREE;
        }
        if casual_three {
            b |= Self::CASUAL_THREE;
        }
        if casual_four {
            b |= Self::CASUAL_FOUR;
        }
        LinePattern(b)
    }

    /// Rebuilds a pattern from its byte.
    #[inline]
    pub(crate) const fn from_byte(b: u8) -> LinePattern {
        LinePattern(b)
    }

    /// The raw byte.
    #[inline]
    pub const fn byte(self) -> u8 {
        self.0
    }

    /// The strength class.
    #[inline]
    pub const fn kind(self) -> PatternKind {
        KIND_OF_SHAPE[(self.0 & Self::KIND_MASK) as usize]
    }

    /// The line's shape: its kind, or the finer shape of an open two or open three.
    #[inline]
    pub const fn shape(self) -> u8 {
        self.0 & Self::KIND_MASK
    }

    /// The same pattern with the shape `shape` (a finer shape of its kind, [`Shape`]).
    pub(crate) const fn with_shape(self, shape: u8) -> LinePattern {
        LinePattern((self.0 & !Self::KIND_MASK) | (shape & Self::KIND_MASK))
    }

    /// Number of distinct fours (4-stone sets, SPEC §3.1) the stone makes on this line: 0, 1 or
    /// 2 (2 means two or more). Sets whose only completion is the same point (possible only
    /// where six or more wins: `XXX.XX`) count once, since one stone blocks them all.
    #[inline]
    pub const fn four_count(self) -> u8 {
        match self.kind() {
            PatternKind::Block4 | PatternKind::Flex4 => 1 + (self.0 & Self::DOUBLE_FOUR != 0) as u8,
            _ => 0,
        }
    }

    /// The line-local part of a RIF three: the stone makes a three here if the extension point is
    /// not forbidden and makes no five in another direction (checked by the rules module).
    #[inline]
    pub const fn is_three_candidate(self) -> bool {
        self.0 & Self::THREE != 0
    }

    /// The casual rule's open three window (SPEC §3.2).
    #[inline]
    pub const fn casual_three(self) -> bool {
        self.0 & Self::CASUAL_THREE != 0
    }

    /// The casual rule's four window (SPEC §3.2).
    #[inline]
    pub const fn casual_four(self) -> bool {
        self.0 & Self::CASUAL_FOUR != 0
    }
}

impl std::fmt::Debug for LinePattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?}{}{}{}{}",
            self.kind(),
            if self.0 & Self::DOUBLE_FOUR != 0 {
                "+44"
            } else {
                ""
            },
            if self.is_three_candidate() { "+3" } else { "" },
            if self.casual_three() { "+c3" } else { "" },
            if self.casual_four() { "+c4" } else { "" },
        )
    }
}
