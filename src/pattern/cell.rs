//! Cell summaries: what one stone of a colour on an empty cell does over all four lines at once —
//! the combined pattern code of the cell — with the evaluation weights that belong to it.
//!
//! The board keeps one [`CellSummary`] per empty cell and colour up to date on make/undo (each move
//! changes the line patterns of 40 cells, and only those cells' summaries are recomputed), and
//! keeps the sum of the summaries' [`CellSummary::potential`] over the candidate cells. The static
//! evaluation is that sum; the move-ordering score of a point is its attack value for the mover
//! plus its defence value for the opponent.
//!
//! The weights live here, next to the codes, and not in [`crate::eval`]: the board (which may only
//! depend on `core` and `pattern`) has to maintain their sums. [`crate::eval`] keeps the slow,
//! direction-by-direction reference computation the tests compare against.

use super::{LinePattern, PatternKind, Shape};

/// Attack value of one directional pattern class, by [`PatternKind`] order.
pub const ATTACK: [i32; 11] = [0, 2, 6, 8, 30, 40, 150, 180, 3_000, 100_000, 0];
/// Defence value (the same class for the opponent), by [`PatternKind`] order.
pub const DEFENCE: [i32; 11] = [0, 1, 4, 6, 24, 30, 120, 150, 2_400, 50_000, 0];
use super::combo::{COMBOS, DIRECTION_WEIGHT, combo_of, line_class};
use super::weights::{COMBO_POTENTIAL_TO_MOVE, COMBO_POTENTIAL_WAITING};

/// A cell's two evaluation values packed in one number, so that the board sums both with one
/// addition: the value for its colour to move in the low 32 bits, the value while its colour
/// waits in the high 32 bits. Both values (and any sum of them) are non-negative and below
/// 2^31, so a sum unpacks exactly ([`unpack_potential`]).
pub type PackedPotential = i64;

/// The two values of a packed potential: (to move, waiting).
#[inline(always)]
pub const fn unpack_potential(p: PackedPotential) -> (i32, i32) {
    (p as u32 as i32, (p >> 32) as i32)
}

const fn packed_by_combo(restricted: bool) -> [PackedPotential; COMBOS] {
    let mut t = [0; COMBOS];
    let mut i = 0;
    while i < COMBOS {
        let r = restricted as usize;
        t[i] =
            COMBO_POTENTIAL_TO_MOVE[r][i] as i64 + ((COMBO_POTENTIAL_WAITING[r][i] as i64) << 32);
        i += 1;
    }
    t
}

/// Each combination's packed potential, unrestricted and restricted (renju black).
static PACKED_BY_COMBO: [[PackedPotential; COMBOS]; 2] =
    [packed_by_combo(false), packed_by_combo(true)];

/// What one line contributes to a cell: the move-ordering weights, a 3-bit line code for the
/// threat combination table and the line's class for the evaluation's combinations.
#[derive(Clone, Copy)]
struct LineEntry {
    attack: i32,
    defence: i32,
    code: u16,
    class: u16,
}

/// Line codes: the classes that decide a cell's combination bonuses and threat sets.
const CODE_NONE: u16 = 0;
const CODE_FLEX3: u16 = 1;
const CODE_FOUR: u16 = 2;
const CODE_DOUBLE_FOUR: u16 = 3;
const CODE_FLEX4: u16 = 4;
const CODE_DOUBLE_FLEX4: u16 = 5;
const CODE_FIVE: u16 = 6;
const CODE_OVERLINE: u16 = 7;
/// Bits of one line code in a cell's combination index.
const CODE_BITS: u32 = 3;
/// Number of threat combination indexes (four line codes).
const THREAT_COMBOS: usize = 1 << (4 * CODE_BITS);

const fn line_code(p: LinePattern) -> u16 {
    match p.kind() {
        PatternKind::Flex3 => CODE_FLEX3,
        PatternKind::Block4 if p.four_count() >= 2 => CODE_DOUBLE_FOUR,
        PatternKind::Block4 => CODE_FOUR,
        PatternKind::Flex4 if p.four_count() >= 2 => CODE_DOUBLE_FLEX4,
        PatternKind::Flex4 => CODE_FLEX4,
        PatternKind::Five => CODE_FIVE,
        PatternKind::Overline => CODE_OVERLINE,
        _ => CODE_NONE,
    }
}

const fn line_table() -> [LineEntry; 256] {
    let mut t = [LineEntry {
        attack: 0,
        defence: 0,
        code: CODE_NONE,
        class: 0,
    }; 256];
    let mut b = 0;
    while b < 256 {
        // Bytes whose kind nibble names no class never occur in a pattern table.
        if b & 0x0F < Shape::COUNT {
            let p = LinePattern::from_byte(b as u8);
            let i = p.kind() as usize;
            t[b] = LineEntry {
                attack: ATTACK[i],
                defence: DEFENCE[i],
                code: line_code(p),
                class: line_class(p) as u16,
            };
        }
        b += 1;
    }
    t
}

/// Every pattern byte's contribution, built at compile time.
static LINE_TABLE: [LineEntry; 256] = line_table();

/// Counts of one combination: fives, straight fours, fours, open threes.
#[derive(Clone, Copy)]
struct ComboCounts {
    fives: u32,
    flex4: u32,
    fours: u32,
    flex3: u32,
}

const fn combo_counts(index: usize) -> ComboCounts {
    let mut c = ComboCounts {
        fives: 0,
        flex4: 0,
        fours: 0,
        flex3: 0,
    };
    let mut d = 0;
    while d < 4 {
        match ((index >> (CODE_BITS * d)) & 7) as u16 {
            CODE_FLEX3 => c.flex3 += 1,
            CODE_FOUR => c.fours += 1,
            CODE_DOUBLE_FOUR => c.fours += 2,
            CODE_FLEX4 => {
                c.flex4 += 1;
                c.fours += 1;
            }
            CODE_DOUBLE_FLEX4 => {
                c.flex4 += 1;
                c.fours += 2;
            }
            CODE_FIVE => c.fives += 1,
            _ => {}
        }
        d += 1;
    }
    c
}

/// Bonus class of a combination for the move-ordering values.
const BONUS_NONE: u8 = 0;
const BONUS_WINNING: u8 = 1;
const BONUS_DOUBLE_THREE: u8 = 2;
/// Attack and defence bonuses by bonus class.
const ATTACK_BONUS: [i32; 3] = [
    0,
    ATTACK[PatternKind::Flex4 as usize],
    ATTACK[PatternKind::Flex4 as usize] / 3,
];
const DEFENCE_BONUS: [i32; 3] = [
    0,
    DEFENCE[PatternKind::Flex4 as usize],
    DEFENCE[PatternKind::Flex4 as usize] / 3,
];

/// What a combination of four line codes means for a cell, packed in one byte: the threat mask
/// (bits 0–3) and the move-ordering bonus class (bits 4–5).
const fn combo(index: usize) -> u8 {
    let c = combo_counts(index);
    let winning = c.flex4 > 0 || c.fours >= 2 || (c.fours >= 1 && c.flex3 >= 1);
    let bonus = if winning {
        BONUS_WINNING
    } else if c.flex3 >= 2 {
        BONUS_DOUBLE_THREE
    } else {
        BONUS_NONE
    };
    let mask = if c.fives > 0 {
        ThreatSet::Five.bit()
    } else {
        let mut m = 0;
        if c.flex4 > 0 {
            m |= ThreatSet::Flex4.bit() | ThreatSet::Four.bit();
        } else if c.fours > 0 {
            m |= ThreatSet::Four.bit();
        }
        if c.flex3 > 0 {
            m |= ThreatSet::Three.bit();
        }
        m
    };
    mask | (bonus << 4)
}

const fn combo_table() -> [u8; THREAT_COMBOS] {
    let mut t = [0; THREAT_COMBOS];
    let mut i = 0;
    while i < THREAT_COMBOS {
        t[i] = combo(i);
        i += 1;
    }
    t
}

/// The combination table, built at compile time.
static COMBO_TABLE: [u8; THREAT_COMBOS] = combo_table();

/// What a stone of one colour on a cell does over the four lines: its threat sets, the evaluation
/// potential and the move-ordering values. Kept up to date line by line ([`CellSummary::update`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellSummary {
    /// Sum of the lines' attack weights (without the combination bonus).
    attack: i32,
    /// Sum of the lines' defence weights (without the combination bonus).
    defence: i32,
    /// The lines' evaluation classes as an ordered index ([`super::combo::ordered_index`]).
    ordered: u16,
    /// The cell's combination number ([`super::combo::combo_of`] of `ordered`), which its
    /// evaluation values are looked up by.
    combo: u16,
    /// The four line codes, [`CODE_BITS`] each, by direction index.
    codes: u16,
    /// The combination's byte from the combination table.
    info: u8,
}

impl CellSummary {
    /// Summarises the four directional patterns of a cell from scratch.
    pub fn of(pats: [LinePattern; 4]) -> CellSummary {
        let mut s = CellSummary::default();
        for (d, p) in pats.into_iter().enumerate() {
            let e = &LINE_TABLE[p.byte() as usize];
            s.attack += e.attack;
            s.defence += e.defence;
            s.ordered += e.class * DIRECTION_WEIGHT[d];
            s.codes |= e.code << (CODE_BITS * d as u32);
        }
        s.finish();
        s
    }

    /// Replaces line `dir`'s pattern `old` by `new` (both bytes) and returns the change of the
    /// packed potential.
    #[inline(always)]
    pub fn update(&mut self, dir: usize, old: u8, new: u8, restricted: bool) -> PackedPotential {
        let (eo, en) = (&LINE_TABLE[old as usize], &LINE_TABLE[new as usize]);
        self.attack += en.attack - eo.attack;
        self.defence += en.defence - eo.defence;
        self.ordered = (self.ordered as i32
            + (en.class as i32 - eo.class as i32) * DIRECTION_WEIGHT[dir] as i32)
            as u16;
        let shift = CODE_BITS * dir as u32;
        self.codes = (self.codes & !(7 << shift)) | (en.code << shift);
        let before = self.potential(restricted);
        self.finish();
        self.potential(restricted) - before
    }

    /// Replaces line `dir`'s pattern `old` by `new` (both bytes) in the line codes, the
    /// combination byte and the move-ordering weights, leaving the evaluation (the ordered
    /// index and the potential) alone: the board's light moves, which threat searches order
    /// their moves under.
    #[inline(always)]
    pub fn update_light(&mut self, dir: usize, old: u8, new: u8) {
        let (eo, en) = (&LINE_TABLE[old as usize], &LINE_TABLE[new as usize]);
        self.attack += en.attack - eo.attack;
        self.defence += en.defence - eo.defence;
        let shift = CODE_BITS * dir as u32;
        self.codes = (self.codes & !(7 << shift)) | (en.code << shift);
        self.info = COMBO_TABLE[self.codes as usize];
    }

    /// Replaces line `dir`'s code by that of the pattern byte `new`, and the combination byte
    /// with it, leaving the weights alone.
    #[inline(always)]
    pub fn update_codes(&mut self, dir: usize, new: u8) {
        let shift = CODE_BITS * dir as u32;
        self.codes = (self.codes & !(7 << shift)) | (LINE_TABLE[new as usize].code << shift);
        self.info = COMBO_TABLE[self.codes as usize];
    }

    /// Whether two summaries have the same line codes (and so the same threat sets).
    pub fn same_threats(self, other: CellSummary) -> bool {
        self.codes == other.codes && self.info == other.info
    }

    #[inline(always)]
    fn finish(&mut self) {
        self.info = COMBO_TABLE[self.codes as usize];
        self.combo = combo_of(self.ordered as usize) as u16;
    }

    /// The cell's worth in the static evaluation, packed ([`PackedPotential`]); with
    /// `restricted` (renju black) from renju black's tables, in which a cell that is surely
    /// forbidden (an overline or two fours) is worth nothing.
    #[inline(always)]
    pub fn potential(self, restricted: bool) -> PackedPotential {
        PACKED_BY_COMBO[restricted as usize][self.combo as usize]
    }

    /// The cell's combination number ([`super::combo::combo_of`]); kept by full moves only
    /// (a light move leaves it as it was).
    #[inline]
    pub const fn combo(self) -> u16 {
        self.combo
    }

    /// The value of playing the cell for its own colour (move ordering).
    #[inline]
    pub const fn attack(self) -> i32 {
        self.attack + ATTACK_BONUS[((self.info >> 4) & 3) as usize]
    }

    /// The value for the opponent of occupying the cell (move ordering).
    #[inline]
    pub const fn defence(self) -> i32 {
        self.defence + DEFENCE_BONUS[((self.info >> 4) & 3) as usize]
    }

    /// Whether a stone here wins with one more move unless the other side has fours: a straight
    /// four, two fours, or a four with an open three (legality aside).
    #[inline]
    pub const fn is_winning_shape(self) -> bool {
        (self.info >> 4) & 3 == BONUS_WINNING
    }

    /// Whether a stone here makes two open threes and no four (legality aside).
    #[inline]
    pub const fn is_double_three(self) -> bool {
        (self.info >> 4) & 3 == BONUS_DOUBLE_THREE
    }

    /// The threat sets the cell belongs to, as a bit mask of [`ThreatSet`] bits: a five point is
    /// only in [`ThreatSet::Five`]; otherwise a straight four point is in both four sets, and a
    /// point making an open three is in [`ThreatSet::Three`].
    #[inline]
    pub const fn threat_mask(self) -> u8 {
        self.info & 0x0F
    }
}

/// The sets of threat points the board keeps per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreatSet {
    /// Points where the colour completes a winning line.
    Five = 0,
    /// Points (not five points) where the colour makes a straight four.
    Flex4 = 1,
    /// Points (not five points) where the colour makes any four, straight fours included.
    Four = 2,
    /// Points (not five points) where the colour makes an open three (a line one stone short of
    /// a straight four; legality not considered).
    Three = 3,
}

impl ThreatSet {
    /// All sets, in index order.
    pub const ALL: [ThreatSet; 4] = [
        ThreatSet::Five,
        ThreatSet::Flex4,
        ThreatSet::Four,
        ThreatSet::Three,
    ];

    /// The set's index (0..4).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The set's bit in [`CellSummary::threat_mask`].
    #[inline]
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
}

#[cfg(test)]
mod tests {
    use super::super::combo::{DOUBLE_FOUR_CLASS, reference_combo};
    use super::*;

    fn pat(kind: PatternKind) -> LinePattern {
        LinePattern::from_parts(kind, false, false, false, false)
    }

    #[test]
    fn counts_and_bonuses_follow_the_lines() {
        let four_three = [
            pat(PatternKind::Block4),
            pat(PatternKind::Flex3),
            pat(PatternKind::Dead),
            pat(PatternKind::Flex1),
        ];
        // The potentials are the values of the combination, whatever the directions' order.
        let value = |classes: [PatternKind; 4], restricted: bool| {
            let combo = reference_combo(classes.map(|k| k as u8));
            let r = restricted as usize;
            (
                COMBO_POTENTIAL_TO_MOVE[r][combo] as i32,
                COMBO_POTENTIAL_WAITING[r][combo] as i32,
            )
        };
        let potential =
            |s: CellSummary, restricted: bool| unpack_potential(s.potential(restricted));
        let s = CellSummary::of(four_three);
        let (b4, f3, f1, dead) = (
            PatternKind::Block4,
            PatternKind::Flex3,
            PatternKind::Flex1,
            PatternKind::Dead,
        );
        assert_eq!(potential(s, false), value([f1, dead, b4, f3], false));
        assert_eq!(s.attack(), 180 + 150 + 6 + 3_000);
        assert_eq!(
            s.threat_mask(),
            ThreatSet::Four.bit() | ThreatSet::Three.bit()
        );
        // Renju black: a four-three is still a win, valued by the restricted table.
        let restricted = potential(s, true);
        assert_eq!(restricted, value([b4, f3, dead, f1], true));
        assert!(restricted.0 > 0 && restricted.1 > 0);

        let double_four = [
            LinePattern::from_parts(PatternKind::Block4, true, false, false, false),
            pat(PatternKind::Dead),
            pat(PatternKind::Dead),
            pat(PatternKind::Dead),
        ];
        let s = CellSummary::of(double_four);
        assert_eq!(s.threat_mask(), ThreatSet::Four.bit());
        let combo = reference_combo([DOUBLE_FOUR_CLASS, 0, 0, 0]);
        assert_eq!(
            potential(s, false),
            (
                COMBO_POTENTIAL_TO_MOVE[0][combo] as i32,
                COMBO_POTENTIAL_WAITING[0][combo] as i32
            )
        );
        let single = potential(
            CellSummary::of([pat(b4), pat(dead), pat(dead), pat(dead)]),
            false,
        );
        let double = potential(s, false);
        assert!(double.0 > single.0 && double.1 > single.1);
        // Surely forbidden for renju black: worth nothing.
        assert_eq!(s.potential(true), 0);

        let five = [
            pat(PatternKind::Five),
            pat(PatternKind::Flex4),
            pat(PatternKind::Dead),
            pat(PatternKind::Dead),
        ];
        assert_eq!(CellSummary::of(five).threat_mask(), ThreatSet::Five.bit());
        let overline = [
            pat(PatternKind::Overline),
            pat(PatternKind::Flex3),
            pat(PatternKind::Flex3),
            pat(PatternKind::Dead),
        ];
        assert_eq!(CellSummary::of(overline).potential(true), 0);
        assert_eq!(
            potential(CellSummary::of(overline), false),
            value([PatternKind::Overline, f3, f3, dead], false)
        );
    }

    #[test]
    fn line_by_line_updates_equal_the_summary_from_scratch() {
        // Every valid byte through every direction, from a mixed starting cell.
        let bytes: Vec<u8> = (0..=255u8)
            .filter(|b| ((b & 0x0F) as usize) < Shape::COUNT)
            .collect();
        for restricted in [false, true] {
            let mut pats = [
                pat(PatternKind::Flex3),
                pat(PatternKind::Block4),
                pat(PatternKind::Dead),
                pat(PatternKind::Flex2),
            ];
            let mut s = CellSummary::of(pats);
            for (i, &b) in bytes.iter().enumerate() {
                let d = i % 4;
                let before = s.potential(restricted);
                let delta = s.update(d, pats[d].byte(), b, restricted);
                pats[d] = LinePattern::from_byte(b);
                let fresh = CellSummary::of(pats);
                assert_eq!(s, fresh, "{pats:?}");
                assert_eq!(before + delta, fresh.potential(restricted));
            }
        }
    }
}
