//! Exact line analysis, written straight from SPEC §3.1 on an 11-cell window.
//!
//! A [`Line`] is the centre cell (index 5, holding the stone being judged) and five cells on each
//! side. Everything here looks only at that window, which is enough for every rule (see the
//! [`crate::pattern`] docs). These functions are the single definition of fives, fours, straight
//! fours and the line-local part of threes: the pattern tables cache them, and the forbidden check
//! and the threat hints call them directly where they need the points, not just the class.

use smallvec::SmallVec;

use super::{CELL_EMPTY, CELL_WALL, HALF_WINDOW, LinePattern, PatternKind, Shape, key_shift};

/// Index of the centre cell in a [`Line`].
pub const CENTRE: usize = HALF_WINDOW;
/// Number of cells in a [`Line`].
pub const LINE_LEN: usize = 2 * HALF_WINDOW + 1;

/// Which runs through a new stone win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinRule {
    /// Five or more in a row (freestyle, renju white, casual).
    FiveOrMore,
    /// Exactly five (standard, renju black, korean).
    ExactFive,
    /// Exactly five, and not with opponent stones at both ends (caro; the edge does not block).
    Caro,
}

impl WinRule {
    /// Whether a run of `len` stones wins, given what lies just beyond each end.
    #[inline]
    pub const fn wins(self, len: usize, before: u8, after: u8, opponent: u8) -> bool {
        match self {
            WinRule::FiveOrMore => len >= 5,
            WinRule::ExactFive => len == 5,
            WinRule::Caro => len == 5 && !(before == opponent && after == opponent),
        }
    }
}

/// Eleven cells of one line around a centre stone; cell codes as in [`crate::pattern`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Line {
    cells: [u8; LINE_LEN],
}

/// A set of four stones on a line that one more stone turns into a win, with the points that do
/// it. Both are bit masks over the indices of the [`Line`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FourSet {
    /// The four stones.
    pub stones: u16,
    /// The empty points that complete it.
    pub completions: u16,
}

impl FourSet {
    /// A straight four: two or more completion points.
    pub const fn is_straight(&self) -> bool {
        self.completions.count_ones() >= 2
    }
}

impl Line {
    /// The line of a board key (see [`crate::pattern`]) with `centre` placed in the middle.
    pub fn from_key(key: u32, centre: u8) -> Line {
        let mut cells = [CELL_EMPTY; LINE_LEN];
        for (i, cell) in cells.iter_mut().enumerate() {
            let k = i as isize - CENTRE as isize;
            *cell = if k == 0 {
                centre
            } else {
                ((key >> key_shift(k)) & 3) as u8
            };
        }
        Line { cells }
    }

    /// A line from explicit cells (index 5 is the centre).
    pub const fn from_cells(cells: [u8; LINE_LEN]) -> Line {
        Line { cells }
    }

    /// The cells.
    pub const fn cells(&self) -> &[u8; LINE_LEN] {
        &self.cells
    }

    /// The 22-bit code of all eleven cells (2 bits each, index 0 lowest).
    pub fn code(&self) -> usize {
        self.cells
            .iter()
            .rev()
            .fold(0, |acc, &c| (acc << 2) | c as usize)
    }

    /// Whether the walls form a prefix and a suffix of the window, as on a real board.
    pub fn is_well_formed(&self) -> bool {
        let left_ok = self.cells[..CENTRE]
            .windows(2)
            .all(|w| !(w[0] != CELL_WALL && w[1] == CELL_WALL));
        let right_ok = self.cells[CENTRE + 1..]
            .windows(2)
            .all(|w| !(w[0] == CELL_WALL && w[1] != CELL_WALL));
        left_ok && right_ok && self.cells[CENTRE] != CELL_WALL
    }

    #[inline]
    fn colour(&self) -> u8 {
        self.cells[CENTRE]
    }

    /// Inclusive bounds of the run of `colour` through index `i`.
    #[inline]
    fn run(&self, i: usize, colour: u8) -> (usize, usize) {
        let mut a = i;
        while a > 0 && self.cells[a - 1] == colour {
            a -= 1;
        }
        let mut b = i;
        while b + 1 < LINE_LEN && self.cells[b + 1] == colour {
            b += 1;
        }
        (a, b)
    }

    /// Whether the run through index `i` (a stone of the centre's colour) wins under `rule`.
    /// Only meaningful for runs that contain the centre or are within ±4 of it.
    #[inline]
    fn run_wins(&self, i: usize, rule: WinRule) -> bool {
        let c = self.colour();
        let (a, b) = self.run(i, c);
        let before = if a > 0 { self.cells[a - 1] } else { CELL_WALL };
        let after = if b + 1 < LINE_LEN {
            self.cells[b + 1]
        } else {
            CELL_WALL
        };
        rule.wins(b - a + 1, before, after, opponent_code(c))
    }

    /// The centre stone makes a winning run.
    pub fn is_five(&self, rule: WinRule) -> bool {
        self.run_wins(CENTRE, rule)
    }

    /// The centre stone makes a run of six or more that does not win.
    pub fn is_overline(&self, rule: WinRule) -> bool {
        let (a, b) = self.run(CENTRE, self.colour());
        b - a + 1 >= 6 && !self.is_five(rule)
    }

    /// The distinct fours through the centre stone (SPEC §3.1): sets of four own stones including
    /// the centre, inside a window of five consecutive points whose fifth point is empty and,
    /// when filled, makes a winning run. For exact-five rules the winning run is the window
    /// itself, as in the source definition ("the run through the filled point, minus that point").
    pub fn four_sets(&self, rule: WinRule) -> SmallVec<[FourSet; 4]> {
        let c = self.colour();
        let mut sets: SmallVec<[FourSet; 4]> = SmallVec::new();
        let mut line = *self;
        for s in CENTRE - 4..=CENTRE {
            let window = &self.cells[s..s + 5];
            if window.iter().filter(|&&x| x == c).count() != 4 {
                continue;
            }
            let Some(r) = window.iter().position(|&x| x == CELL_EMPTY).map(|i| s + i) else {
                continue;
            };
            line.cells[r] = c;
            if line.run_wins(r, rule) {
                let stones = (0b11111u16 << s) & !(1u16 << r);
                match sets.iter_mut().find(|f| f.stones == stones) {
                    Some(f) => f.completions |= 1 << r,
                    None => sets.push(FourSet {
                        stones,
                        completions: 1 << r,
                    }),
                }
            }
            line.cells[r] = CELL_EMPTY;
        }
        sets
    }

    /// The empty points `q` that make the centre stone part of a three (SPEC §3.1, line-local
    /// part): filling `q` makes a straight four containing the centre and `q`, and `q` makes no
    /// five on this line. Bit mask over the indices of the line.
    pub fn three_extensions(&self, rule: WinRule) -> u16 {
        let c = self.colour();
        let mut mask = 0u16;
        let mut line = *self;
        for q in 1..LINE_LEN - 1 {
            if q == CENTRE || line.cells[q] != CELL_EMPTY {
                continue;
            }
            line.cells[q] = c;
            if !line.run_wins(q, rule)
                && line
                    .four_sets(rule)
                    .iter()
                    .any(|s| s.is_straight() && s.stones & (1 << q) != 0)
            {
                mask |= 1 << q;
            }
            line.cells[q] = CELL_EMPTY;
        }
        mask
    }

    /// The casual rule's windows (SPEC §3.2) for the centre stone: `(three, four)`.
    ///
    /// Three: a window of 4 consecutive points containing the centre with 3 own stones and 1
    /// empty, whose two outside neighbours are on the board and empty. Four: a window of 5
    /// containing the centre with 4 own stones and 1 empty.
    pub fn casual_windows(&self) -> (bool, bool) {
        let c = self.colour();
        let count = |from: usize, len: usize| {
            let w = &self.cells[from..from + len];
            (
                w.iter().filter(|&&x| x == c).count(),
                w.iter().filter(|&&x| x == CELL_EMPTY).count(),
            )
        };
        let three = (CENTRE - 3..=CENTRE).any(|s| {
            count(s, 4) == (3, 1)
                && self.cells[s - 1] == CELL_EMPTY
                && self.cells[s + 4] == CELL_EMPTY
        });
        let four = (CENTRE - 4..=CENTRE).any(|s| count(s, 5) == (4, 1));
        (three, four)
    }

    /// The strength class of the centre stone's line, by the recursive definition: five,
    /// overline, four, straight four; otherwise one stone short of the best class that one more
    /// stone on an empty point of the window reaches. `memo` caches results by [`Line::code`].
    pub fn kind(&self, rule: WinRule, memo: &mut KindMemo) -> PatternKind {
        let code = self.code();
        if let Some(k) = memo.get(code) {
            return k;
        }
        let kind = if self.is_five(rule) {
            PatternKind::Five
        } else if self.is_overline(rule) {
            PatternKind::Overline
        } else {
            let sets = self.four_sets(rule);
            if sets.iter().any(FourSet::is_straight) {
                PatternKind::Flex4
            } else if !sets.is_empty() {
                PatternKind::Block4
            } else {
                let c = self.colour();
                let mut best = PatternKind::Dead;
                let mut line = *self;
                for q in 1..LINE_LEN - 1 {
                    if q == CENTRE || line.cells[q] != CELL_EMPTY {
                        continue;
                    }
                    line.cells[q] = c;
                    best = best.max(line.kind(rule, memo).demote());
                    line.cells[q] = CELL_EMPTY;
                }
                best
            }
        };
        memo.set(code, kind);
        kind
    }

    /// The full [`LinePattern`] of the centre stone.
    pub fn classify(&self, rule: WinRule, memo: &mut KindMemo) -> LinePattern {
        let kind = self.kind(rule, memo);
        let fours = match kind {
            PatternKind::Block4 | PatternKind::Flex4 => {
                let sets = self.four_sets(rule);
                // Sets completed only by one and the same point (`XXX.XX` where six wins) are
                // one four to block: they count once. Where only five wins, distinct sets
                // always have distinct completions, so the count is SPEC §3.1's.
                let first = sets[0].completions;
                if first.count_ones() == 1 && sets.iter().all(|f| f.completions == first) {
                    1
                } else {
                    sets.len()
                }
            }
            _ => 0,
        };
        let three = !matches!(kind, PatternKind::Five | PatternKind::Overline)
            && self.three_extensions(rule) != 0;
        let (c3, c4) = self.casual_windows();
        LinePattern::from_parts(kind, fours >= 2, three, c3, c4)
            .with_shape(self.shape(kind, rule, memo))
    }

    /// The finer shape of the centre stone's line ([`Shape`]): for an open two the number of
    /// points that make it an open three, for an open three the number that make it a straight
    /// four; otherwise its kind.
    fn shape(&self, kind: PatternKind, rule: WinRule, memo: &mut KindMemo) -> u8 {
        let grown = match kind {
            PatternKind::Flex2 => PatternKind::Flex3,
            PatternKind::Flex3 => PatternKind::Flex4,
            _ => return kind as u8,
        };
        let c = self.colour();
        let mut line = *self;
        let mut ways = 0;
        for q in 1..LINE_LEN - 1 {
            if q == CENTRE || line.cells[q] != CELL_EMPTY {
                continue;
            }
            line.cells[q] = c;
            ways += (line.kind(rule, memo) == grown) as u32;
            line.cells[q] = CELL_EMPTY;
        }
        match (kind, ways) {
            (PatternKind::Flex2, 3) => Shape::FLEX2_THREE,
            (PatternKind::Flex2, 4..) => Shape::FLEX2_FOUR,
            (PatternKind::Flex3, 2..) => Shape::FLEX3_STRAIGHT,
            _ => kind as u8,
        }
    }
}

/// The opponent's cell code of a stone code (black ↔ white).
#[inline]
pub const fn opponent_code(c: u8) -> u8 {
    3 - c
}

/// Memo of [`Line::kind`] by the 22-bit line code.
pub struct KindMemo {
    kinds: Vec<u8>,
}

impl KindMemo {
    /// An empty memo.
    pub fn new() -> KindMemo {
        KindMemo {
            kinds: vec![0; 1 << (2 * LINE_LEN)],
        }
    }

    fn get(&self, code: usize) -> Option<PatternKind> {
        match self.kinds[code] {
            0 => None,
            k => Some(PatternKind::ALL[k as usize - 1]),
        }
    }

    fn set(&mut self, code: usize, kind: PatternKind) {
        self.kinds[code] = kind as u8 + 1;
    }
}

impl Default for KindMemo {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::{CELL_BLACK as B, CELL_EMPTY as E, CELL_WALL as W, CELL_WHITE as O};

    /// A line from text: `X` black, `O` white, `.` empty, `#` wall; the centre is the 6th char.
    fn line(s: &str) -> Line {
        let cells: Vec<u8> = s
            .chars()
            .map(|ch| match ch {
                'X' => B,
                'O' => O,
                '.' => E,
                '#' => W,
                _ => panic!("bad char {ch}"),
            })
            .collect();
        Line::from_cells(cells.try_into().unwrap())
    }

    fn kind(s: &str, rule: WinRule) -> PatternKind {
        line(s).kind(rule, &mut KindMemo::new())
    }

    #[test]
    fn fives_and_overlines_follow_the_win_rule() {
        assert!(line("...XXXXX...").is_five(WinRule::ExactFive));
        assert!(!line("..XXXXXX...").is_five(WinRule::ExactFive));
        assert!(line("..XXXXXX...").is_overline(WinRule::ExactFive));
        assert!(line("..XXXXXX...").is_five(WinRule::FiveOrMore));
        assert!(!line("..OXXXXXO..").is_five(WinRule::Caro));
        assert!(line("###XXXXXO..").is_five(WinRule::Caro));
        assert!(line("...XXXXXO..").is_five(WinRule::Caro));
    }

    #[test]
    fn fours_are_counted_as_distinct_stone_sets() {
        let straight = line("....XXXX...");
        let sets = straight.four_sets(WinRule::ExactFive);
        assert_eq!(sets.len(), 1);
        assert!(sets[0].is_straight());
        // X.X?X.X with ? the centre: two fours on one line.
        assert_eq!(line("..X.XXX.X..").four_sets(WinRule::ExactFive).len(), 2);
        // A completion that makes six is not a completion for exact five.
        let s = line(".X.XXXX....").four_sets(WinRule::ExactFive);
        assert_eq!(s.len(), 1);
        assert!(!s[0].is_straight());
        let free = line(".X.XXXX....").four_sets(WinRule::FiveOrMore);
        assert_eq!(free.len(), 2);
        assert!(free.iter().any(FourSet::is_straight));
        // XXX?XX with ? empty: two stone sets where six wins, but one point completes both,
        // so the pattern counts one four (one stone blocks it); X.X?X.X is a double four.
        let mut memo = KindMemo::default();
        let centre_four = line("...XXX.XX..");
        let sets = centre_four.four_sets(WinRule::FiveOrMore);
        assert_eq!(sets.len(), 2);
        assert!(sets.iter().all(|f| f.completions == 1 << 6));
        assert_eq!(
            centre_four
                .classify(WinRule::FiveOrMore, &mut memo)
                .four_count(),
            1
        );
        assert_eq!(
            line("..X.XXX.X..")
                .classify(WinRule::ExactFive, &mut memo)
                .four_count(),
            2
        );
    }

    #[test]
    fn kinds_of_common_shapes() {
        let r = WinRule::ExactFive;
        assert_eq!(kind("....XXX....", r), PatternKind::Flex3);
        assert_eq!(kind("...OXXX....", r), PatternKind::Block3);
        assert_eq!(kind("...X.X.....", r), PatternKind::Flex2);
        assert_eq!(kind(".....X.....", r), PatternKind::Flex1);
        assert_eq!(kind("...OXXXXO..", r), PatternKind::Dead);
        assert_eq!(kind("....XXXX...", r), PatternKind::Flex4);
        assert_eq!(kind("...OXXXX...", r), PatternKind::Block4);
        assert_eq!(kind("#####X....O", r), PatternKind::Block1);
    }

    #[test]
    fn open_twos_and_threes_have_finer_shapes() {
        let (flex2, flex3) = (PatternKind::Flex2, PatternKind::Flex3);
        let cases = [
            // A solid two with room grows into an open three on four points, a split two on
            // three, a two with a double gap on two.
            ("....XX.....", flex2, Shape::FLEX2_FOUR),
            ("...X.X.....", flex2, Shape::FLEX2_THREE),
            ("..X..X.....", flex2, flex2 as u8),
            // A solid three with room makes a straight four at either end; a split three, or a
            // solid one against the edge, at one point only.
            ("....XXX....", flex3, Shape::FLEX3_STRAIGHT),
            ("...X.XX....", flex3, flex3 as u8),
            ("###.XXX....", flex3, flex3 as u8),
            // Other kinds are their own shape.
            (
                "...OXXX....",
                PatternKind::Block3,
                PatternKind::Block3 as u8,
            ),
        ];
        for (s, kind, shape) in cases {
            let p = line(s).classify(WinRule::ExactFive, &mut KindMemo::new());
            assert_eq!((p.kind(), p.shape()), (kind, shape), "{s}");
        }
    }

    #[test]
    fn threes_respect_overline_completions() {
        // SPEC example D's horizontal line: C8 . . F8 G8 [H8] . . K8 — completions make six.
        let d = line("X..XXX..X..");
        assert_eq!(d.three_extensions(WinRule::ExactFive), 0);
        assert_ne!(d.three_extensions(WinRule::FiveOrMore), 0);
        // A plain open three has both ends as extensions.
        assert_eq!(
            line("....XXX....").three_extensions(WinRule::ExactFive),
            (1 << 3) | (1 << 7)
        );
        // A split three has only the gap.
        assert_eq!(
            line("...X.XX....").three_extensions(WinRule::ExactFive),
            1 << 4
        );
    }

    #[test]
    fn casual_windows() {
        assert_eq!(line("....XXX....").casual_windows(), (true, false));
        assert_eq!(line("...OXXX....").casual_windows(), (false, false)); // XXX. touches the O
        assert_eq!(line("...O.XXX...").casual_windows(), (true, false));
        assert_eq!(line("...OXXX.O..").casual_windows(), (false, false));
        assert_eq!(line("...OXXXX...").casual_windows(), (false, true));
        assert_eq!(line("#####XXX.X.").casual_windows(), (false, true));
    }
}
