//! Precomputed pattern tables: line key → [`LinePattern`] for black and white.
//!
//! A table is built once per pair of win rules (black's, white's) the first time a board of such a
//! rule is created, by running the exact [`analysis`](super::analysis) on every well-formed key
//! (132 496 of the 2^20). Keys that cannot occur on a board (a wall between stones) map to 0.
//!
//! The entries are stored compactly, by the pair of half-line numbers of the key's two halves
//! (364 well-formed half lines each, plus one number for the malformed ones): 365 × 365 entries
//! (260 KiB, which stays in the processor's second-level cache) instead of 2^20 (2 MiB, which
//! does not). A lookup adds two numbers from small per-half tables and reads one entry.

use std::sync::LazyLock;

use super::analysis::{KindMemo, Line, WinRule};
use super::{CELL_BLACK, CELL_WALL, CELL_WHITE, HALF_WINDOW, KEY_BITS, LinePattern, key_shift};

/// Maps a 20-bit line key to the patterns of both colours (black in the low byte).
pub struct PatternTable {
    /// By compact index ([`compact_index`]).
    entries: Box<[u16]>,
    rules: [WinRule; 2],
}

/// Bits of one half of a line key (the five cells on one side of the centre).
const HALF_BITS: u32 = KEY_BITS / 2;
/// Well-formed half lines, and the number of the malformed ones after them.
const HALVES: usize = 364;
/// Entries of a compact table: every pair of half numbers, the malformed one included.
const COMPACT_ENTRIES: usize = (HALVES + 1) * (HALVES + 1);

/// The half-line number of each 10-bit half key: its place in [`half_lines`] order, or
/// [`HALVES`] for a malformed half (a wall between the centre and a stone or an empty cell).
/// The low half holds the cells behind the centre (offsets −5 ..= −1), the high half those ahead.
struct HalfNumbers {
    /// By the low half of a key: its half number times `HALVES + 1`.
    low: [u32; 1 << HALF_BITS],
    /// By the high half of a key: its half number.
    high: [u32; 1 << HALF_BITS],
}

/// Built at compile time in [`half_lines`] order: `inner` cells of stones or empties next to the
/// centre (base-3 digits, nearest first), then walls.
static HALF_NUMBERS: HalfNumbers = half_numbers();

const fn half_numbers() -> HalfNumbers {
    let mut numbers = HalfNumbers {
        low: [(HALVES * (HALVES + 1)) as u32; 1 << HALF_BITS],
        high: [HALVES as u32; 1 << HALF_BITS],
    };
    let mut i = 0;
    let mut inner = 0;
    while inner <= HALF_WINDOW {
        let mut digits = 0;
        while digits < 3usize.pow(inner as u32) {
            let mut half = [CELL_WALL; HALF_WINDOW];
            let (mut k, mut d) = (0, digits);
            while k < inner {
                half[k] = (d % 3) as u8;
                d /= 3;
                k += 1;
            }
            numbers.low[encode_half(&half, -1) as usize] = (i * (HALVES + 1)) as u32;
            numbers.high[(encode_half(&half, 1) >> HALF_BITS) as usize] = i as u32;
            i += 1;
            digits += 1;
        }
        inner += 1;
    }
    numbers
}

/// The compact index of a 20-bit line key.
#[inline(always)]
fn compact_index(numbers: &HalfNumbers, key: u32) -> usize {
    let low = (key & ((1 << HALF_BITS) - 1)) as usize;
    let high = ((key >> HALF_BITS) & ((1 << HALF_BITS) - 1)) as usize;
    (numbers.low[low] + numbers.high[high]) as usize
}

static FREESTYLE: LazyLock<PatternTable> =
    LazyLock::new(|| PatternTable::build(WinRule::FiveOrMore, WinRule::FiveOrMore));
static EXACT: LazyLock<PatternTable> =
    LazyLock::new(|| PatternTable::build(WinRule::ExactFive, WinRule::ExactFive));
static RENJU: LazyLock<PatternTable> =
    LazyLock::new(|| PatternTable::build(WinRule::ExactFive, WinRule::FiveOrMore));
static WHITE_EXACT: LazyLock<PatternTable> =
    LazyLock::new(|| PatternTable::build(WinRule::FiveOrMore, WinRule::ExactFive));
static CARO: LazyLock<PatternTable> =
    LazyLock::new(|| PatternTable::build(WinRule::Caro, WinRule::Caro));

impl PatternTable {
    /// The shared table for black's and white's win rules (built on first use).
    pub fn shared(black: WinRule, white: WinRule) -> &'static PatternTable {
        match (black, white) {
            (WinRule::FiveOrMore, WinRule::FiveOrMore) => &FREESTYLE,
            (WinRule::ExactFive, WinRule::ExactFive) => &EXACT,
            (WinRule::ExactFive, WinRule::FiveOrMore) => &RENJU,
            (WinRule::FiveOrMore, WinRule::ExactFive) => &WHITE_EXACT,
            (WinRule::Caro, WinRule::Caro) => &CARO,
            // Mixed caro tables are never needed by a rule set; build one on demand.
            (b, w) => Box::leak(Box::new(PatternTable::build(b, w))),
        }
    }

    /// Builds a table by exact analysis of every well-formed key.
    pub fn build(black: WinRule, white: WinRule) -> PatternTable {
        let mut entries = vec![0u16; COMPACT_ENTRIES].into_boxed_slice();
        let numbers = &HALF_NUMBERS;
        let mut memo_black = KindMemo::new();
        let mut memo_white = if black == white {
            None
        } else {
            Some(KindMemo::new())
        };
        for key in well_formed_keys() {
            let b = Line::from_key(key, CELL_BLACK).classify(black, &mut memo_black);
            let memo = memo_white.as_mut().unwrap_or(&mut memo_black);
            let w = Line::from_key(key, CELL_WHITE).classify(white, memo);
            entries[compact_index(numbers, key)] = b.byte() as u16 | (w.byte() as u16) << 8;
        }
        PatternTable {
            entries,
            rules: [black, white],
        }
    }

    /// The win rules this table was built for, black's first.
    pub fn rules(&self) -> [WinRule; 2] {
        self.rules
    }

    /// Both colours' patterns of a key (black in the low byte).
    #[inline]
    pub fn lookup(&self, key: u32) -> u16 {
        debug_assert!(key < 1 << KEY_BITS);
        self.entries[compact_index(&HALF_NUMBERS, key)]
    }

    /// One colour's pattern of a key (`colour` 0 = black, 1 = white).
    #[inline]
    pub fn pattern(&self, key: u32, colour: usize) -> LinePattern {
        LinePattern::from_byte((self.lookup(key) >> (8 * colour)) as u8)
    }
}

/// Every half line (five cells, nearest to the centre first) in which the walls, if any, form the
/// far end: 1 + 3 + 9 + 27 + 81 + 243 = 364 of them.
fn half_lines() -> Vec<[u8; HALF_WINDOW]> {
    let mut out = Vec::with_capacity(364);
    for inner in 0..=HALF_WINDOW {
        // `inner` cells of stones/empties next to the centre, the rest walls.
        for digits in 0..3u32.pow(inner as u32) {
            let mut cells = [CELL_WALL; HALF_WINDOW];
            let mut d = digits;
            for cell in cells.iter_mut().take(inner) {
                *cell = (d % 3) as u8;
                d /= 3;
            }
            out.push(cells);
        }
    }
    out
}

/// The key bits of a half line behind (`sign` −1) or ahead of (`sign` 1) the centre.
const fn encode_half(half: &[u8; HALF_WINDOW], sign: isize) -> u32 {
    let (mut key, mut i) = (0u32, 0);
    while i < HALF_WINDOW {
        key |= (half[i] as u32) << key_shift(sign * (i as isize + 1));
        i += 1;
    }
    key
}

/// Every well-formed line key.
pub(crate) fn well_formed_keys() -> Vec<u32> {
    let halves = half_lines();
    let lefts: Vec<u32> = halves.iter().map(|h| encode_half(h, -1)).collect();
    let rights: Vec<u32> = halves.iter().map(|h| encode_half(h, 1)).collect();
    lefts
        .iter()
        .flat_map(|&l| rights.iter().map(move |&r| l | r))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_indexes_tell_every_well_formed_key_apart() {
        let mut seen = vec![false; COMPACT_ENTRIES];
        for key in well_formed_keys() {
            let i = compact_index(&HALF_NUMBERS, key);
            assert!(i < HALVES * (HALVES + 1), "{key:#x}");
            assert!(!std::mem::replace(&mut seen[i], true), "{key:#x}");
        }
        // Every other key (a wall between the centre and a cell) reads an entry no
        // well-formed key uses, which holds no pattern.
        let table = PatternTable::shared(WinRule::FiveOrMore, WinRule::ExactFive);
        for key in 0..1u32 << KEY_BITS {
            let i = compact_index(&HALF_NUMBERS, key);
            if !Line::from_key(key, CELL_BLACK).is_well_formed() {
                assert!(!seen[i], "{key:#x}");
                assert_eq!(table.lookup(key), 0, "{key:#x}");
            }
        }
    }

    #[test]
    fn well_formed_keys_are_exactly_the_board_like_lines() {
        let keys = well_formed_keys();
        assert_eq!(keys.len(), 364 * 364);
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), keys.len());
        assert!(
            keys.iter()
                .all(|&k| Line::from_key(k, CELL_BLACK).is_well_formed())
        );
        let well_formed = (0..1u32 << KEY_BITS)
            .filter(|&k| Line::from_key(k, CELL_BLACK).is_well_formed())
            .count();
        assert_eq!(well_formed, keys.len());
    }

    /// The threat search decides from the tables alone which points stop an open three or a
    /// winning shape (see `Searcher::three_blocks` and `Searcher::shape_defences`), relying on
    /// this: a stone of the other colour added anywhere on a line never gives a colour a
    /// straight four there that it did not have, nor a five, nor more fours, nor an open three
    /// where it could make neither an open three nor a straight four.
    #[test]
    fn an_opponent_stone_never_adds_a_threat() {
        use crate::core::Color;
        use crate::pattern::{CELL_EMPTY, PatternKind};
        use crate::rule::Rule;
        for rule in Rule::ALL {
            let table =
                PatternTable::shared(rule.win_rule(Color::Black), rule.win_rule(Color::White));
            for key in well_formed_keys() {
                for (c, other) in [(0, CELL_WHITE), (1, CELL_BLACK)] {
                    let before = table.pattern(key, c);
                    let was = |kinds: &[PatternKind]| kinds.contains(&before.kind());
                    for k in (-(HALF_WINDOW as isize)..=HALF_WINDOW as isize).filter(|&k| k != 0) {
                        if (key >> key_shift(k)) & 3 != CELL_EMPTY as u32 {
                            continue;
                        }
                        let with = table.pattern(key | (other as u32) << key_shift(k), c);
                        let at = format!("{rule} key {key:#x} {k}: {before:?} -> {with:?}");
                        assert!(with.four_count() <= before.four_count(), "{at}");
                        match with.kind() {
                            PatternKind::Five => assert!(was(&[PatternKind::Five]), "{at}"),
                            PatternKind::Flex4 => assert!(was(&[PatternKind::Flex4]), "{at}"),
                            PatternKind::Flex3 => {
                                assert!(was(&[PatternKind::Flex3, PatternKind::Flex4]), "{at}")
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
    }
}
