//! The incremental board: stones, per-cell line keys and line patterns for both colours, Zobrist
//! hash and move history, kept up to date by [`Board::make_move`] / [`Board::undo_move`].
//!
//! Invariants (recomputed from the stones in debug builds after every make/undo: the cells the
//! move touched every time, the whole board every 64th time — see `check_after_move`):
//! - `keys[p][d]` is the 20-bit line key of the ten cells around `p` along `d` (centre excluded);
//! - `patterns[p][d]` is `table.lookup(keys[p][d])` (black in the low byte);
//! - `hash` is the XOR of the Zobrist keys of all stones; `counts` are the stone counts;
//! - `near[p]` is the number of stones within [`NEAR_RADIUS`] (Chebyshev) of `p`.
//!
//! A move touches the ten neighbours of the stone in each of the four directions: it sets two bits
//! in each neighbour's key and looks its pattern up again. Undo clears the bits and looks up again,
//! so no per-ply record is needed. Keys of wall cells inside the padding are updated too (cheaper
//! than a branch) but never read.

use std::fmt;

#[cfg(debug_assertions)]
use crate::core::PAD;
use crate::core::{Color, Dir, GRID_CELLS, MAX_SIZE, MIN_SIZE, Pos, STRIDE, ZOBRIST};
use crate::error::BoardError;
use crate::pattern::{
    CELL_BLACK, CELL_EMPTY, CELL_WALL, CELL_WHITE, HALF_WINDOW, Line, LinePattern, PatternTable,
    key_shift,
};
use crate::rule::Rule;

/// A board of one rule set with incremental line patterns.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    table: &'static PatternTable,
    cells: Box<[u8]>,
    keys: Box<[[u32; 4]]>,
    patterns: Box<[[u16; 4]]>,
    near: Box<[u8]>,
    hash: u64,
    history: Vec<(Pos, Color)>,
    counts: [usize; 2],
    #[cfg(debug_assertions)]
    debug_checks: std::cell::Cell<u32>,
}

/// Radius of the square around each stone whose cells count as "near" (move candidates).
pub const NEAR_RADIUS: isize = 2;

/// The 2-bit line-key code of a colour's stone.
#[inline]
pub(crate) const fn stone_code(c: Color) -> u8 {
    match c {
        Color::Black => CELL_BLACK,
        Color::White => CELL_WHITE,
    }
}

impl Board {
    /// An empty `width`×`height` board for `rule` (each side 5..=32).
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(BoardError::BadSize { width, height });
        }
        let table = PatternTable::shared(rule.win_rule(Color::Black), rule.win_rule(Color::White));
        let mut board = Board {
            width,
            height,
            rule,
            table,
            cells: vec![CELL_WALL; GRID_CELLS].into_boxed_slice(),
            keys: vec![[0; 4]; GRID_CELLS].into_boxed_slice(),
            patterns: vec![[0; 4]; GRID_CELLS].into_boxed_slice(),
            near: vec![0; GRID_CELLS].into_boxed_slice(),
            hash: 0,
            history: Vec::with_capacity(width * height),
            counts: [0; 2],
            #[cfg(debug_assertions)]
            debug_checks: std::cell::Cell::new(0),
        };
        for p in board.positions() {
            board.cells[p.index()] = CELL_EMPTY;
        }
        for p in board.positions() {
            for d in Dir::ALL {
                board.keys[p.index()][d.index()] = board.compute_key(p, d);
            }
        }
        // Padding cells get patterns too, so that make/undo (which also touch them) restore
        // the exact initial state.
        for (pats, keys) in board.patterns.iter_mut().zip(board.keys.iter()) {
            *pats = keys.map(|k| table.lookup(k));
        }
        Ok(board)
    }

    /// An empty square board.
    pub fn square(size: usize, rule: Rule) -> Result<Board, BoardError> {
        Board::new(size, size, rule)
    }

    /// Board width (columns).
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height (rows).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// The rule set the patterns were built for.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The point `(x, y)` if it is on this board.
    pub fn pos(&self, x: i64, y: i64) -> Result<Pos, BoardError> {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            Ok(Pos::new_unchecked(x as usize, y as usize))
        } else {
            Err(BoardError::OffBoard {
                x,
                y,
                width: self.width,
                height: self.height,
            })
        }
    }

    /// Whether `p` is on this board.
    #[inline]
    pub fn contains(&self, p: Pos) -> bool {
        p.x() < self.width && p.y() < self.height
    }

    /// The centre point (for even sides, the lower-right of the four middle points).
    pub fn centre(&self) -> Pos {
        Pos::new_unchecked(self.width / 2, self.height / 2)
    }

    /// Every point of the board, row by row from the top.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + use<> {
        let (w, h) = (self.width, self.height);
        (0..h).flat_map(move |y| (0..w).map(move |x| Pos::new_unchecked(x, y)))
    }

    /// The stone on `p`, if any (`None` also for points off the board).
    #[inline]
    pub fn get(&self, p: Pos) -> Option<Color> {
        match self.cells[p.index()] {
            CELL_BLACK => Some(Color::Black),
            CELL_WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Whether `p` is an empty point of the board.
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.index()] == CELL_EMPTY
    }

    /// The 2-bit cell code at a padded-grid index.
    #[inline]
    pub(crate) fn cell_code(&self, index: usize) -> u8 {
        self.cells[index]
    }

    /// Places a stone after checking the point; the checked form of [`Board::make_move`].
    pub fn place(&mut self, p: Pos, color: Color) -> Result<(), BoardError> {
        if !self.contains(p) {
            return Err(BoardError::OffBoard {
                x: p.x() as i64,
                y: p.y() as i64,
                width: self.width,
                height: self.height,
            });
        }
        if !self.is_empty(p) {
            return Err(BoardError::Occupied { x: p.x(), y: p.y() });
        }
        self.make_move(p, color);
        Ok(())
    }

    /// Places a stone of `color` on the empty point `p` and updates keys, patterns and hash.
    #[inline]
    pub fn make_move(&mut self, p: Pos, color: Color) {
        debug_assert!(self.contains(p) && self.is_empty(p), "make_move on {p:?}");
        let code = stone_code(color);
        self.cells[p.index()] = code;
        self.update_neighbours::<true>(p, code as u32);
        self.update_near::<true>(p);
        self.hash ^= ZOBRIST[color.index()][p.index()];
        self.counts[color.index()] += 1;
        self.history.push((p, color));
        #[cfg(debug_assertions)]
        self.check_after_move(p);
    }

    /// Takes back the last move; returns it, or `None` when the history is empty.
    #[inline]
    pub fn undo_move(&mut self) -> Option<(Pos, Color)> {
        let (p, color) = self.history.pop()?;
        let code = stone_code(color);
        self.cells[p.index()] = CELL_EMPTY;
        self.update_neighbours::<false>(p, code as u32);
        self.update_near::<false>(p);
        self.hash ^= ZOBRIST[color.index()][p.index()];
        self.counts[color.index()] -= 1;
        #[cfg(debug_assertions)]
        self.check_after_move(p);
        Some((p, color))
    }

    #[inline(always)]
    fn update_neighbours<const PLACE: bool>(&mut self, p: Pos, code: u32) {
        let table = self.table;
        for d in Dir::ALL {
            let delta = d.delta();
            let di = d.index();
            for k in 1..=HALF_WINDOW as isize {
                // The neighbour behind sees p at offset +k, the one ahead at offset −k.
                for (q, shift) in [
                    ((p.index() as isize - k * delta) as usize, key_shift(k)),
                    ((p.index() as isize + k * delta) as usize, key_shift(-k)),
                ] {
                    let key = &mut self.keys[q][di];
                    if PLACE {
                        *key |= code << shift;
                    } else {
                        *key &= !(3 << shift);
                    }
                    self.patterns[q][di] = table.lookup(*key);
                }
            }
        }
    }

    #[inline(always)]
    fn update_near<const PLACE: bool>(&mut self, p: Pos) {
        for dy in -NEAR_RADIUS..=NEAR_RADIUS {
            let row = (p.index() as isize + dy * STRIDE as isize) as usize;
            for cell in &mut self.near[row - NEAR_RADIUS as usize..=row + NEAR_RADIUS as usize] {
                if PLACE {
                    *cell += 1;
                } else {
                    *cell -= 1;
                }
            }
        }
    }

    /// Whether `p` is an empty point within [`NEAR_RADIUS`] (Chebyshev) of a stone.
    #[inline]
    pub fn is_near_empty(&self, p: Pos) -> bool {
        self.near[p.index()] > 0 && self.cells[p.index()] == CELL_EMPTY
    }

    /// The empty points within [`NEAR_RADIUS`] of a stone, in board order.
    pub fn near_empties(&self) -> impl Iterator<Item = Pos> + '_ {
        self.positions().filter(|&p| self.is_near_empty(p))
    }

    /// Removes every stone.
    pub fn clear(&mut self) {
        while self.undo_move().is_some() {}
    }

    /// Zobrist hash of the stones.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The moves made, in order.
    pub fn history(&self) -> &[(Pos, Color)] {
        &self.history
    }

    /// The last move, if any.
    pub fn last_move(&self) -> Option<(Pos, Color)> {
        self.history.last().copied()
    }

    /// Number of stones of a colour.
    #[inline]
    pub fn stone_count(&self, color: Color) -> usize {
        self.counts[color.index()]
    }

    /// Number of stones on the board.
    #[inline]
    pub fn move_count(&self) -> usize {
        self.counts[0] + self.counts[1]
    }

    /// Whether every point is occupied.
    pub fn is_full(&self) -> bool {
        self.move_count() == self.width * self.height
    }

    /// The colour to move judged by the stone counts: black when they are equal, else white.
    pub fn side_to_move(&self) -> Color {
        if self.counts[0] <= self.counts[1] {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The line key of `p` along `d` (see [`crate::pattern`]).
    #[inline]
    pub fn line_key(&self, p: Pos, d: Dir) -> u32 {
        self.keys[p.index()][d.index()]
    }

    /// The line around `p` along `d` with a stone of `color` on `p`.
    pub fn line(&self, p: Pos, d: Dir, color: Color) -> Line {
        Line::from_key(self.line_key(p, d), stone_code(color))
    }

    /// What a stone of `color` on the empty point `p` does along `d`.
    #[inline]
    pub fn pattern(&self, p: Pos, d: Dir, color: Color) -> LinePattern {
        LinePattern::from_byte((self.patterns[p.index()][d.index()] >> (8 * color.index())) as u8)
    }

    /// The four directional patterns of `color` on `p`, in [`Dir::ALL`] order.
    #[inline]
    pub fn patterns(&self, p: Pos, color: Color) -> [LinePattern; 4] {
        let raw = &self.patterns[p.index()];
        let shift = 8 * color.index();
        [0, 1, 2, 3].map(|d| LinePattern::from_byte((raw[d] >> shift) as u8))
    }

    /// The line key of `p` along `d` computed from the stones (the reference for the
    /// incremental keys).
    fn compute_key(&self, p: Pos, d: Dir) -> u32 {
        let mut key = 0;
        for k in (-(HALF_WINDOW as isize)..=HALF_WINDOW as isize).filter(|&k| k != 0) {
            let code = self.cells[p.shifted_index(d, k)] as u32;
            key |= code << key_shift(k);
        }
        key
    }

    /// Recomputes keys, patterns, near counts, hash and counts of the whole board from the stones
    /// and compares them with the incremental state; panics with the first difference. Debug
    /// builds only.
    #[cfg(debug_assertions)]
    pub fn check_invariants(&self) {
        let mut hash = 0;
        let mut counts = [0; 2];
        for p in self.positions() {
            if let Some(c) = self.get(p) {
                hash ^= ZOBRIST[c.index()][p.index()];
                counts[c.index()] += 1;
            }
            self.check_cell(p);
        }
        assert_eq!(self.hash, hash, "hash");
        assert_eq!(self.counts, counts, "stone counts");
        assert_eq!(self.history.len(), counts[0] + counts[1], "history length");
        for (i, &c) in self.cells.iter().enumerate() {
            let (x, y) = (i % STRIDE, i / STRIDE);
            let on_board =
                (PAD..PAD + self.width).contains(&x) && (PAD..PAD + self.height).contains(&y);
            assert_eq!(c == CELL_WALL, !on_board, "wall layout at padded ({x},{y})");
        }
    }
}

#[cfg(debug_assertions)]
impl Board {
    /// Recomputes the keys, patterns and near count of one cell from the stones.
    fn check_cell(&self, p: Pos) {
        for d in Dir::ALL {
            let key = self.compute_key(p, d);
            assert_eq!(
                self.keys[p.index()][d.index()],
                key,
                "key of {p:?} along {d:?}"
            );
            assert_eq!(
                self.patterns[p.index()][d.index()],
                self.table.lookup(key),
                "pattern of {p:?} along {d:?}"
            );
        }
        let (x, y) = (p.x() as i64, p.y() as i64);
        let r = NEAR_RADIUS as i64;
        let near = (-r..=r)
            .flat_map(|dy| (-r..=r).map(move |dx| (x + dx, y + dy)))
            .filter(|&(qx, qy)| self.pos(qx, qy).is_ok_and(|q| self.get(q).is_some()))
            .count();
        assert_eq!(self.near[p.index()] as usize, near, "near count of {p:?}");
    }

    /// The debug check after a move on `p`: every cell whose state the move changed (the four
    /// lines through `p` within ±5, the near square) is recomputed from scratch, and the whole
    /// board on every [`FULL_CHECK_INTERVAL`]th call. A full check after every move would make
    /// debug searches hundreds of times slower than the search itself.
    fn check_after_move(&self, p: Pos) {
        let n = self.debug_checks.get().wrapping_add(1);
        self.debug_checks.set(n);
        if n % FULL_CHECK_INTERVAL == 0 {
            self.check_invariants();
            return;
        }
        for d in Dir::ALL {
            for k in -(HALF_WINDOW as isize)..=HALF_WINDOW as isize {
                let i = p.shifted_index(d, k);
                if self.cells[i] != CELL_WALL {
                    self.check_cell(Pos::from_index(i));
                }
            }
        }
        let r = NEAR_RADIUS + 1;
        for dy in -r..=r {
            for dx in -r..=r {
                let i = (p.index() as isize + dy * STRIDE as isize + dx) as usize;
                if self.cells[i] != CELL_WALL {
                    self.check_cell(Pos::from_index(i));
                }
            }
        }
        let count = self.history.len();
        assert_eq!(self.counts[0] + self.counts[1], count, "stone counts");
    }
}

/// Every this many moves the debug check covers the whole board.
#[cfg(debug_assertions)]
const FULL_CHECK_INTERVAL: u32 = 64;

impl PartialEq for Board {
    /// Boards are equal when they have the same size, rule and stones (history order aside).
    fn eq(&self, other: &Board) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.rule == other.rule
            && self.cells == other.cells
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{} {}", self.width, self.height, self.rule)?;
        for y in 0..self.height {
            for x in 0..self.width {
                let ch = match self.get(Pos::new_unchecked(x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Helpers for the crate's unit tests.
#[cfg(test)]
pub(crate) mod test_util {
    use super::Board;
    use crate::core::{Color, Pos};
    use crate::rule::Rule;

    /// A 15×15 board of `rule` with the given black and white stones (`(x, y)` pairs).
    pub(crate) fn board_with(
        rule: Rule,
        black: &[(usize, usize)],
        white: &[(usize, usize)],
    ) -> Board {
        let mut b = Board::square(15, rule).unwrap();
        for &(x, y) in black {
            b.make_move(Pos::new(x, y).unwrap(), Color::Black);
        }
        for &(x, y) in white {
            b.make_move(Pos::new(x, y).unwrap(), Color::White);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::PatternKind;

    #[test]
    fn sizes_are_validated() {
        assert!(Board::new(4, 15, Rule::Freestyle).is_err());
        assert!(Board::new(15, 33, Rule::Freestyle).is_err());
        assert!(Board::new(5, 32, Rule::Freestyle).is_ok());
    }

    #[test]
    fn make_and_undo_restore_everything() {
        let mut b = Board::square(15, Rule::Renju).unwrap();
        let empty = b.clone();
        let moves = [(7, 7), (8, 8), (7, 8), (0, 0), (14, 14), (7, 9)];
        for (i, &(x, y)) in moves.iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.place(b.pos(x, y).unwrap(), c).unwrap();
        }
        assert_ne!(b.hash(), empty.hash());
        b.clear();
        assert_eq!(b, empty);
        assert_eq!(b.hash(), 0);
        assert!(b.keys == empty.keys, "keys differ after undo");
        assert!(b.patterns == empty.patterns, "patterns differ after undo");
    }

    #[test]
    fn patterns_see_a_straight_four() {
        let mut b = Board::square(15, Rule::Standard).unwrap();
        for x in 5..8 {
            b.make_move(Pos::new(x, 7).unwrap(), Color::Black);
        }
        let p = Pos::new(8, 7).unwrap();
        assert_eq!(
            b.pattern(p, Dir::Horizontal, Color::Black).kind(),
            PatternKind::Flex4
        );
        assert_eq!(
            b.pattern(p, Dir::Horizontal, Color::White).kind(),
            PatternKind::Block1
        );
    }

    #[test]
    fn occupied_and_off_board_points_are_errors() {
        let mut b = Board::square(15, Rule::Freestyle).unwrap();
        let p = b.pos(3, 3).unwrap();
        b.place(p, Color::Black).unwrap();
        assert_eq!(
            b.place(p, Color::White),
            Err(BoardError::Occupied { x: 3, y: 3 })
        );
        assert!(matches!(b.pos(15, 0), Err(BoardError::OffBoard { .. })));
        assert!(matches!(b.pos(-1, 0), Err(BoardError::OffBoard { .. })));
        let small = Board::square(7, Rule::Freestyle).unwrap();
        assert!(small.place_check_off_board());
    }

    impl Board {
        fn place_check_off_board(&self) -> bool {
            let mut b = self.clone();
            matches!(
                b.place(Pos::new(20, 20).unwrap(), Color::Black),
                Err(BoardError::OffBoard { .. })
            )
        }
    }
}
