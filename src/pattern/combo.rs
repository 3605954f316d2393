//! Combination classes of a cell: which line classes a stone there makes in its four
//! directions, as a multiset (the directions' order does not matter). The static evaluation
//! gives each combination its own value ([`super::weights::COMBO_POTENTIAL`]), so that shapes
//! such as a four with an open two, two open twos or three blocked threes are valued as what
//! they are together rather than as a sum of lines.
//!
//! A line's class is its [`Shape`]: its [`PatternKind`] (dead … overline) or the finer shape of
//! an open two or an open three (classes 11–13), or [`DOUBLE_FOUR_CLASS`] for a line on which
//! the stone makes two fours. The board keeps a cell's *ordered index*
//! `Σ class(d) · 15^d` up to date line by line; [`combo_of`] maps it to the combination's number,
//! and [`COMBO_CLASSES`] lists each combination's classes, largest first.

use super::{LinePattern, PatternKind, Shape};

/// Number of line classes: the shapes (the eleven pattern kinds and the three finer shapes of
/// open twos and threes) and the double four on one line.
pub const LINE_CLASSES: usize = Shape::COUNT + 1;
/// The class of a line on which the stone makes two fours.
pub const DOUBLE_FOUR_CLASS: u8 = Shape::COUNT as u8;
/// Number of ordered indexes (`15^4`).
pub const ORDERED: usize = LINE_CLASSES.pow(4);
/// Number of combinations: multisets of four line classes, `C(18, 4)`.
pub const COMBOS: usize = 3060;
/// The weight of direction `d`'s class in the ordered index.
pub const DIRECTION_WEIGHT: [u16; 4] = [1, 15, 225, 3375];

/// The class of a line pattern.
#[inline]
pub const fn line_class(p: LinePattern) -> u8 {
    if p.four_count() >= 2 {
        DOUBLE_FOUR_CLASS
    } else {
        p.shape()
    }
}

/// The ordered index of four line classes (direction 0 first).
#[inline]
pub const fn ordered_index(classes: [u8; 4]) -> usize {
    let mut i = 0;
    let mut d = 0;
    while d < 4 {
        i += classes[d] as usize * DIRECTION_WEIGHT[d] as usize;
        d += 1;
    }
    i
}

const fn build_classes() -> [[u8; 4]; COMBOS] {
    let mut out = [[0u8; 4]; COMBOS];
    let mut n = 0;
    let mut a = 0;
    while a < LINE_CLASSES {
        let mut b = 0;
        while b <= a {
            let mut c = 0;
            while c <= b {
                let mut d = 0;
                while d <= c {
                    out[n] = [a as u8, b as u8, c as u8, d as u8];
                    n += 1;
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    assert!(n == COMBOS);
    out
}

/// Each combination's four classes, largest first, by combination number.
pub static COMBO_CLASSES: [[u8; 4]; COMBOS] = build_classes();

const fn sorted(mut c: [u8; 4]) -> [u8; 4] {
    let mut i = 0;
    while i < 4 {
        let mut j = i + 1;
        while j < 4 {
            if c[j] > c[i] {
                let t = c[i];
                c[i] = c[j];
                c[j] = t;
            }
            j += 1;
        }
        i += 1;
    }
    c
}

/// The four classes of an ordered index (direction 0 first).
pub const fn ordered_digits(i: usize) -> [u8; 4] {
    let n = LINE_CLASSES;
    [
        (i % n) as u8,
        (i / n % n) as u8,
        (i / (n * n) % n) as u8,
        (i / (n * n * n)) as u8,
    ]
}

/// The combination number of every ordered index (what [`combo_of`] reads).
pub(crate) const fn build_combo_of() -> [u16; ORDERED] {
    let classes = build_classes();
    // First the sorted tuples get their numbers, then every ordering that of its sorted tuple.
    let mut by_sorted = [u16::MAX; ORDERED];
    let mut n = 0;
    while n < COMBOS {
        by_sorted[ordered_index(classes[n])] = n as u16;
        n += 1;
    }
    let mut out = [0u16; ORDERED];
    let mut i = 0;
    while i < ORDERED {
        let digits = ordered_digits(i);
        out[i] = by_sorted[ordered_index(sorted(digits))];
        i += 1;
    }
    out
}

static COMBO_OF: [u16; ORDERED] = build_combo_of();

/// The combination number of an ordered index.
#[inline(always)]
pub fn combo_of(ordered: usize) -> usize {
    COMBO_OF[ordered] as usize
}

/// Counts of a combination's fours (a double-four line counts two), open threes and overlines.
pub const fn threat_counts(combo: usize) -> (u32, u32, bool) {
    let c = &COMBO_CLASSES[combo];
    let (mut fours, mut threes, mut overline) = (0, 0, false);
    let mut d = 0;
    while d < 4 {
        let k = c[d];
        if k == DOUBLE_FOUR_CLASS {
            fours += 2;
        } else if k == PatternKind::Block4 as u8 || k == PatternKind::Flex4 as u8 {
            fours += 1;
        } else if k == PatternKind::Flex3 as u8 || k == Shape::FLEX3_STRAIGHT {
            threes += 1;
        } else if k == PatternKind::Overline as u8 {
            overline = true;
        }
        d += 1;
    }
    (fours, threes, overline)
}

/// Whether a combination is worth nothing to renju black: an overline or two fours make the
/// cell surely forbidden.
pub const fn is_void_when_restricted(combo: usize) -> bool {
    let (fours, _, overline) = threat_counts(combo);
    overline || fours >= 2
}

/// The combination number of four line classes, found by search over [`COMBO_CLASSES`] (the
/// slow reference for [`combo_of`]).
pub fn reference_combo(classes: [u8; 4]) -> usize {
    let mut c = classes;
    c.sort_unstable_by(|a, b| b.cmp(a));
    COMBO_CLASSES
        .iter()
        .position(|&x| x == c)
        .expect("every sorted tuple of classes is listed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ordering_maps_to_the_combination_of_its_classes() {
        for i in 0..ORDERED {
            let digits = ordered_digits(i);
            assert_eq!(ordered_index(digits), i);
            assert_eq!(combo_of(i), reference_combo(digits), "{digits:?}");
        }
        // The combinations are distinct multisets.
        let mut seen = std::collections::HashSet::new();
        assert!(COMBO_CLASSES.iter().all(|c| seen.insert(*c)));
    }

    #[test]
    fn void_combinations_are_overlines_and_double_fours() {
        let block4 = PatternKind::Block4 as u8;
        let flex3 = PatternKind::Flex3 as u8;
        let over = PatternKind::Overline as u8;
        assert!(is_void_when_restricted(reference_combo([
            block4, block4, 0, 0
        ])));
        assert!(is_void_when_restricted(reference_combo([
            DOUBLE_FOUR_CLASS,
            0,
            0,
            0
        ])));
        assert!(is_void_when_restricted(reference_combo([
            over, flex3, 0, 0
        ])));
        assert!(!is_void_when_restricted(reference_combo([
            block4, flex3, flex3, 0
        ])));
    }
}
