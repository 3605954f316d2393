//! The incremental board: stones, per-cell line keys and line patterns for both colours, Zobrist
//! hash and move history, kept up to date by [`Board::make_move`] / [`Board::undo_move`].
//!
//! Invariants (recomputed from the stones in debug builds after every make/undo: the cells the
//! move touched every time, the whole board every 64th time — see `check_after_move`):
//! - `keys[p][d]` is the 20-bit line key of the ten cells around `p` along `d` (centre excluded);
//! - `patterns[p][d]` is `table.lookup(keys[p][d])` (black in the low byte);
//! - `hash` is the XOR of the Zobrist keys of all stones; `counts` are the stone counts;
//! - `near[p]` is the number of stones within [`NEAR_RADIUS`] (Chebyshev) of `p`, not counting
//!   the stones of light moves;
//! - `summaries[p][c]` is the [`CellSummary`] of colour `c`'s patterns on `p` (every cell, occupied
//!   and wall cells too); an empty `p` is in exactly the threat sets of colour `c` that the
//!   summary's mask names, and occupied cells are in none (`threat_counts` are the set sizes);
//! - `potential[c]` is the sum of `summaries[p][c].potential(restricted[c])` over the candidate
//!   cells (empty, `near[p] > 0`), both evaluation values packed in one number: the incremental
//!   static evaluation.
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
use crate::pattern::cell::{CellSummary, PackedPotential, ThreatSet, unpack_potential};
use crate::pattern::{
    CELL_BLACK, CELL_EMPTY, CELL_WALL, CELL_WHITE, HALF_WINDOW, Line, LinePattern, PatternTable,
    key_shift,
};
use crate::rule::Rule;

/// What a move changed around it, as it was before the move: its line neighbours' patterns
/// (by direction, then behind and ahead at distance 1, 2, …), the summaries of those whose
/// pattern the move changed and the potential sums. Its undo puts them back instead of
/// computing them again.
#[derive(Clone, Copy)]
struct Saved {
    patterns: [[u16; 2 * HALF_WINDOW]; 4],
    summaries: [[[CellSummary; 2]; 2 * HALF_WINDOW]; 4],
    potential: [PackedPotential; 2],
}

impl Default for Saved {
    fn default() -> Saved {
        Saved {
            patterns: [[0; 2 * HALF_WINDOW]; 4],
            summaries: [[[CellSummary::default(); 2]; 2 * HALF_WINDOW]; 4],
            potential: [0; 2],
        }
    }
}

/// The line neighbours of a cell, by slot j of [`Saved`]: the cell behind at distance k (slot
/// 2k − 2, which sees the move at offset +k) and the cell ahead (slot 2k − 1, offset −k), for
/// k = 1 ..= [`HALF_WINDOW`]. Each entry is (the neighbour's distance in steps along the line,
/// signed, the key shift of the move in the neighbour's key).
const NEIGHBOURS: [(isize, u32); 2 * HALF_WINDOW] = neighbour_table();

const fn neighbour_table() -> [(isize, u32); 2 * HALF_WINDOW] {
    let mut t = [(0, 0); 2 * HALF_WINDOW];
    let mut k = 1;
    while k <= HALF_WINDOW as isize {
        t[2 * k as usize - 2] = (-k, key_shift(k));
        t[2 * k as usize - 1] = (k, key_shift(-k));
        k += 1;
    }
    t
}

/// Slots of the per-cell arrays: the padded grid rounded up to a power of two, so that a cell
/// index masked by [`slot`] is in bounds by construction and the make/undo loops carry no
/// bounds checks. Slots past the grid are walls that no move ever reaches.
const CELL_SLOTS: usize = GRID_CELLS.next_power_of_two();

/// A cell index as an array slot (the identity for every index of the padded grid).
#[inline(always)]
const fn slot(q: usize) -> usize {
    q & (CELL_SLOTS - 1)
}

/// A boxed per-cell array filled with `value`.
fn cell_array<T: Clone>(value: T) -> Box<[T; CELL_SLOTS]> {
    match vec![value; CELL_SLOTS].into_boxed_slice().try_into() {
        Ok(array) => array,
        Err(_) => unreachable!("a vector of CELL_SLOTS elements"),
    }
}

/// A board of one rule set with incremental line patterns.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    table: &'static PatternTable,
    cells: Box<[u8; CELL_SLOTS]>,
    keys: Box<[[u32; 4]; CELL_SLOTS]>,
    patterns: Box<[[u16; 4]; CELL_SLOTS]>,
    near: Box<[u8; CELL_SLOTS]>,
    summaries: Box<[[CellSummary; 2]; CELL_SLOTS]>,
    /// Per colour and [`ThreatSet`]: one bit per padded-grid cell.
    threat_bits: Box<[[[u64; THREAT_WORDS]; 4]; 2]>,
    threat_counts: [[u16; 4]; 2],
    potential: [PackedPotential; 2],
    /// Whether a colour's forbidden shapes count for nothing (renju black).
    restricted: [bool; 2],
    hash: u64,
    history: Vec<(Pos, Color)>,
    /// For each move of the history, what it changed around it as it was before it (slot n for
    /// move n; slots past the history are stale records kept for reuse).
    saved: Vec<Saved>,
    counts: [usize; 2],
    /// Light moves on top of the history (see [`Board::make_light_move`]).
    light_moves: u32,
    #[cfg(debug_assertions)]
    debug_checks: std::cell::Cell<u32>,
}

/// The points of a threat set in board order ([`Board::threat_points`]): the set bits of its
/// bitmap, word by word, stopping after the last member.
pub struct ThreatPoints<'a> {
    words: &'a [u64; THREAT_WORDS],
    /// The index of the word being read.
    word: usize,
    /// Its bits not yet returned.
    bits: u64,
    /// Members not yet returned.
    left: usize,
}

impl Iterator for ThreatPoints<'_> {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        if self.left == 0 {
            return None;
        }
        while self.bits == 0 {
            self.word += 1;
            self.bits = self.words[self.word % THREAT_WORDS];
        }
        let b = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        self.left -= 1;
        Some(Pos::from_index(self.word * 64 + b))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for ThreatPoints<'_> {}

/// Words of a threat-set bitmap.
const THREAT_WORDS: usize = CELL_SLOTS / 64;

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
            cells: cell_array(CELL_WALL),
            keys: cell_array([0; 4]),
            patterns: cell_array([0; 4]),
            near: cell_array(0),
            summaries: cell_array([CellSummary::default(); 2]),
            threat_bits: Box::new([[[0; THREAT_WORDS]; 4]; 2]),
            threat_counts: [[0; 4]; 2],
            potential: [0; 2],
            restricted: [rule == Rule::Renju, false],
            hash: 0,
            history: Vec::with_capacity(width * height),
            saved: Vec::with_capacity(width * height),
            counts: [0; 2],
            light_moves: 0,
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
        for (i, summary) in board.summaries.iter_mut().enumerate() {
            let raw = board.patterns[i];
            for (c, s) in summary.iter_mut().enumerate() {
                let pats = raw.map(|r| LinePattern::from_byte((r >> (8 * c)) as u8));
                *s = CellSummary::of(pats);
            }
        }
        // The empty board has no threats and no candidate cells: the sums start at zero.
        Ok(board)
    }

    /// An empty square board.
    pub fn square(size: usize, rule: Rule) -> Result<Board, BoardError> {
        Board::new(size, size, rule)
    }

    /// A square board of `size` with `moves` placed in order, black first and the colours
    /// alternating (each checked as by [`Board::place`]; the rule's forbidden points are not).
    pub fn with_moves(size: usize, rule: Rule, moves: &[Pos]) -> Result<Board, BoardError> {
        let mut board = Board::square(size, rule)?;
        for (i, &p) in moves.iter().enumerate() {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            board.place(p, color)?;
        }
        Ok(board)
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

    /// Places a stone of `color` on the empty point `p` and updates everything: keys, patterns,
    /// cell summaries, threat sets, potential sums, near counts and hash.
    #[inline]
    pub fn make_move(&mut self, p: Pos, color: Color) {
        debug_assert!(self.light_moves == 0, "a full move on top of a light one");
        self.make::<false>(p, color);
    }

    /// Takes back the last move; returns it, or `None` when the history is empty.
    #[inline]
    pub fn undo_move(&mut self) -> Option<(Pos, Color)> {
        debug_assert!(self.light_moves == 0, "undo_move of a light move");
        self.undo::<false>()
    }

    /// Places a stone like [`Board::make_move`] but keeps only what threat searches read up to
    /// date — keys, patterns, the cells' line codes, move-ordering weights and threat sets,
    /// hash — and leaves the evaluation (the cells' potentials and the potential sums) and the
    /// near counts (the move candidates, [`Board::near_empties`]) as they were. Light moves
    /// are taken back with [`Board::undo_light_move`]; once they all are, the board is exactly
    /// as before. No full move may be made while a light move is on
    /// the board.
    #[inline]
    pub fn make_light_move(&mut self, p: Pos, color: Color) {
        self.light_moves += 1;
        self.make::<true>(p, color);
    }

    /// Takes back the last move, which must be a light one.
    #[inline]
    pub fn undo_light_move(&mut self) -> Option<(Pos, Color)> {
        debug_assert!(self.light_moves > 0, "undo_light_move of a full move");
        self.light_moves = self.light_moves.saturating_sub(1);
        self.undo::<true>()
    }

    #[inline(always)]
    fn make<const LIGHT: bool>(&mut self, p: Pos, color: Color) {
        debug_assert!(self.contains(p) && self.is_empty(p), "make_move on {p:?}");
        let code = stone_code(color);
        self.cells[p.index()] = code;
        // The record of move n is slot n of the stack, filled where it is kept (the stack is
        // moved out meanwhile, a pointer swap): a slot is reused as it is, since placing a
        // stone writes every field of it.
        let mut stack = std::mem::take(&mut self.saved);
        let slot = self.history.len();
        if stack.len() <= slot {
            stack.resize(slot + 1, Saved::default());
        }
        let saved = &mut stack[slot];
        saved.potential = self.potential;
        self.leave_candidates::<LIGHT>(p.index());
        self.update_neighbours::<true, LIGHT>(p, code as u32, saved);
        self.saved = stack;
        if !LIGHT {
            self.update_near::<true, false>(p);
        }
        self.hash = self.hash_after(p, color);
        self.counts[color.index()] += 1;
        self.history.push((p, color));
        #[cfg(debug_assertions)]
        self.check_after_move(p);
    }

    #[inline(always)]
    fn undo<const LIGHT: bool>(&mut self) -> Option<(Pos, Color)> {
        let (p, color) = self.history.pop()?;
        let code = stone_code(color);
        let mut stack = std::mem::take(&mut self.saved);
        let saved = &mut stack[self.history.len()];
        // The potential sums are put back at once, so no step below needs to touch them (a
        // light move left the near counts alone).
        if !LIGHT {
            self.update_near::<false, true>(p);
        }
        self.cells[p.index()] = CELL_EMPTY;
        self.update_neighbours::<false, LIGHT>(p, code as u32, saved);
        self.rejoin_candidates::<true>(p.index());
        if !LIGHT {
            self.potential = saved.potential;
        }
        self.saved = stack;
        self.hash ^= ZOBRIST[color.index()][p.index()];
        self.counts[color.index()] -= 1;
        #[cfg(debug_assertions)]
        self.check_after_move(p);
        Some((p, color))
    }

    #[inline(always)]
    fn update_neighbours<const PLACE: bool, const LIGHT: bool>(
        &mut self,
        p: Pos,
        code: u32,
        saved: &mut Saved,
    ) {
        let centre = p.index() as isize;
        if !PLACE {
            self.restore_line::<0>(centre, code, saved);
            self.restore_line::<1>(centre, code, saved);
            self.restore_line::<2>(centre, code, saved);
            self.restore_line::<3>(centre, code, saved);
            return;
        }
        // Two passes: first every key and pattern (independent table lookups the processor can
        // overlap), then the summaries of the cells whose patterns changed.
        self.place_keys::<0>(centre, code, saved);
        self.place_keys::<1>(centre, code, saved);
        self.place_keys::<2>(centre, code, saved);
        self.place_keys::<3>(centre, code, saved);
        self.place_summaries::<0, LIGHT>(centre, saved);
        self.place_summaries::<1, LIGHT>(centre, saved);
        self.place_summaries::<2, LIGHT>(centre, saved);
        self.place_summaries::<3, LIGHT>(centre, saved);
    }

    /// The cell index of neighbour `j` (see [`NEIGHBOURS`]) of `centre` along direction `DI`.
    #[inline(always)]
    fn neighbour<const DI: usize>(centre: isize, j: usize) -> usize {
        slot((centre + NEIGHBOURS[j].0 * Dir::ALL[DI].delta()) as usize)
    }

    /// A stone (line code `code`) placed at `centre`: sets its bits in the keys of its
    /// neighbours along direction `DI` and looks their patterns up again, keeping the old ones.
    #[inline(always)]
    fn place_keys<const DI: usize>(&mut self, centre: isize, code: u32, saved: &mut Saved) {
        let table = self.table;
        for (j, &(_, shift)) in NEIGHBOURS.iter().enumerate() {
            let q = Self::neighbour::<DI>(centre, j);
            let key = self.keys[q][DI] | code << shift;
            self.keys[q][DI] = key;
            saved.patterns[DI][j] = self.patterns[q][DI];
            self.patterns[q][DI] = table.lookup(key);
        }
    }

    /// After [`Board::place_keys`]: the summaries of the neighbours along `DI` whose patterns
    /// changed.
    #[inline(always)]
    fn place_summaries<const DI: usize, const LIGHT: bool>(
        &mut self,
        centre: isize,
        saved: &mut Saved,
    ) {
        for j in 0..NEIGHBOURS.len() {
            let q = Self::neighbour::<DI>(centre, j);
            // A line whose patterns did not change leaves the cell's summaries as they are;
            // the summaries it changes are kept for the undo.
            let (old, new) = (saved.patterns[DI][j], self.patterns[q][DI]);
            if old != new {
                saved.summaries[DI][j] = self.summaries[q];
                self.update_summaries::<LIGHT>(q, DI, old, new);
            }
        }
    }

    /// Taking back the stone (line code `code`) at `centre`: every neighbour along `DI` gets
    /// its pattern and summaries back as the move found them, with no table lookups; only the
    /// threat sets follow the change.
    #[inline(always)]
    fn restore_line<const DI: usize>(&mut self, centre: isize, code: u32, saved: &mut Saved) {
        for (j, &(_, shift)) in NEIGHBOURS.iter().enumerate() {
            let q = Self::neighbour::<DI>(centre, j);
            self.keys[q][DI] &= !(code << shift);
            // Each neighbour lies on one line through the move, so a cell whose pattern on
            // that line did not change kept its summaries.
            let before = saved.patterns[DI][j];
            let now = self.patterns[q][DI];
            if now == before {
                continue;
            }
            self.patterns[q][DI] = before;
            if self.cells[q] == CELL_EMPTY {
                for c in 0..2 {
                    let before = saved.summaries[DI][j][c];
                    let (now, was) = (self.summaries[q][c].threat_mask(), before.threat_mask());
                    self.summaries[q][c] = before;
                    if now != was {
                        self.update_threat_bits(c, q, now, was);
                    }
                }
            }
        }
    }

    /// Line `di` of cell `q` changed from the pattern pair `old` to `new`: updates both colours'
    /// summaries, the potential sums (candidate cells only) and the threat sets. Only empty
    /// cells' summaries are kept up to date: an occupied cell's lines change only while its
    /// stone is on the board, and they are back as they were when the stone is taken back. A
    /// light update changes only the line codes, the move-ordering weights and the threat sets.
    #[inline(always)]
    fn update_summaries<const LIGHT: bool>(&mut self, q: usize, di: usize, old: u16, new: u16) {
        if self.cells[q] != CELL_EMPTY {
            return;
        }
        let candidate = (self.near[q] > 0) as i32;
        for c in 0..2 {
            let shift = 8 * c;
            let (old_byte, new_byte) = ((old >> shift) as u8, (new >> shift) as u8);
            // Often only one colour's pattern changed (a stone far along the line).
            if old_byte == new_byte {
                continue;
            }
            let summary = &mut self.summaries[q][c];
            let old_mask = summary.threat_mask();
            if LIGHT {
                summary.update_light(di, old_byte, new_byte);
            } else {
                let delta = summary.update(di, old_byte, new_byte, self.restricted[c]);
                self.potential[c] += candidate as PackedPotential * delta;
            }
            let new_mask = summary.threat_mask();
            if old_mask != new_mask {
                self.update_threat_bits(c, q, old_mask, new_mask);
            }
        }
    }

    /// Moves cell `q` of colour `c` from the threat sets of `old_mask` to those of `new_mask`.
    #[inline(always)]
    fn update_threat_bits(&mut self, c: usize, q: usize, old_mask: u8, new_mask: u8) {
        let q = slot(q);
        let (word, bit) = (q / 64, 1u64 << (q % 64));
        let changed = old_mask ^ new_mask;
        for set in ThreatSet::ALL {
            let b = set.bit();
            if changed & b != 0 {
                self.threat_bits[c & 1][set.index()][word] ^= bit;
                if new_mask & b != 0 {
                    self.threat_counts[c & 1][set.index()] += 1;
                } else {
                    self.threat_counts[c & 1][set.index()] -= 1;
                }
            }
        }
    }

    /// The cell `q` (just occupied) leaves the threat sets and (unless `LIGHT`) the potential
    /// sums.
    #[inline(always)]
    fn leave_candidates<const LIGHT: bool>(&mut self, q: usize) {
        self.move_candidate::<LIGHT>(q, -1);
    }

    /// The cell `q` (just emptied) rejoins the threat sets and (unless `LIGHT`) the potential
    /// sums. Its summaries were left alone while it was occupied, so they are what they were
    /// before its stone was placed.
    #[inline(always)]
    fn rejoin_candidates<const LIGHT: bool>(&mut self, q: usize) {
        self.move_candidate::<LIGHT>(q, 1);
    }

    /// Adds (`sign` 1) or removes (−1) the cell `q`'s summaries to or from the threat sets and
    /// (unless `LIGHT`, for a candidate cell) the potential sums.
    #[inline(always)]
    fn move_candidate<const LIGHT: bool>(&mut self, q: usize, sign: i32) {
        let candidate = self.near[q] > 0;
        for c in 0..2 {
            let s = self.summaries[q][c];
            if candidate && !LIGHT {
                self.potential[c] += sign as PackedPotential * s.potential(self.restricted[c]);
            }
            let (old, new) = if sign > 0 {
                (0, s.threat_mask())
            } else {
                (s.threat_mask(), 0)
            };
            self.update_threat_bits(c, q, old, new);
        }
    }

    #[inline(always)]
    fn update_near<const PLACE: bool, const LIGHT: bool>(&mut self, p: Pos) {
        for dy in -NEAR_RADIUS..=NEAR_RADIUS {
            let row = p.index() as isize + dy * STRIDE as isize;
            for dx in -NEAR_RADIUS..=NEAR_RADIUS {
                let i = slot((row + dx) as usize);
                // A cell becoming (or ceasing to be) a candidate adds (removes) its potential.
                let sign = if PLACE {
                    self.near[i] += 1;
                    (self.near[i] == 1) as i32
                } else {
                    self.near[i] -= 1;
                    -((self.near[i] == 0) as i32)
                };
                if !LIGHT && sign != 0 && self.cells[i] == CELL_EMPTY {
                    let [b, w] = self.summaries[i];
                    let sign = sign as PackedPotential;
                    self.potential[0] += sign * b.potential(self.restricted[0]);
                    self.potential[1] += sign * w.potential(self.restricted[1]);
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

    /// The summary of `color`'s patterns on `p` (what a stone of `color` there would do).
    #[inline]
    pub fn summary(&self, p: Pos, color: Color) -> CellSummary {
        self.summaries[p.index()][color.index()]
    }

    /// The sums of `color`'s cell potentials over the candidate points (empty, within
    /// [`NEAR_RADIUS`] of a stone), kept incrementally: (valued for `color` to move, valued
    /// while `color` waits).
    #[inline]
    pub fn potential(&self, color: Color) -> (i32, i32) {
        unpack_potential(self.potential[color.index()])
    }

    /// The number of points in one of `color`'s threat sets.
    #[inline]
    pub fn threat_count(&self, color: Color, set: ThreatSet) -> usize {
        self.threat_counts[color.index()][set.index()] as usize
    }

    /// The points of one of `color`'s threat sets, in board order.
    #[inline]
    pub fn threat_points(&self, color: Color, set: ThreatSet) -> ThreatPoints<'_> {
        let words = &self.threat_bits[color.index()][set.index()];
        let left = self.threat_count(color, set);
        ThreatPoints {
            words,
            word: 0,
            bits: if left == 0 { 0 } else { words[0] },
            left,
        }
    }

    /// Whether `p` is in one of `color`'s threat sets.
    #[inline]
    pub fn in_threat_set(&self, p: Pos, color: Color, set: ThreatSet) -> bool {
        let i = p.index();
        self.threat_bits[color.index()][set.index()][i / 64] & (1 << (i % 64)) != 0
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

    /// The Zobrist hash the stones would have after `color` plays the empty point `p`.
    #[inline]
    pub fn hash_after(&self, p: Pos, color: Color) -> u64 {
        self.hash ^ ZOBRIST[color.index()][p.index()]
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

    /// What a stone of `color` on the empty point `p` would do along `d` if `color` also had a
    /// stone on the empty point `k` cells away along `d` (`k` in −5..=5, not 0): one table
    /// lookup, no move made.
    #[inline]
    pub fn pattern_with_stone(&self, p: Pos, d: Dir, color: Color, k: isize) -> LinePattern {
        let key = self.line_key(p, d) | (stone_code(color) as u32) << crate::pattern::key_shift(k);
        self.table.pattern(key, color.index())
    }

    /// What a stone of `color` on the empty point `p` would do along `d` if the other colour had
    /// a stone on the empty point `k` cells away along `d` (`k` in −5..=5, not 0): how a
    /// defence there would change the line, in one table lookup and without making the move.
    #[inline]
    pub fn pattern_with_opponent_stone(
        &self,
        p: Pos,
        d: Dir,
        color: Color,
        k: isize,
    ) -> LinePattern {
        let key = self.line_key(p, d)
            | (stone_code(color.opponent()) as u32) << crate::pattern::key_shift(k);
        self.table.pattern(key, color.index())
    }

    /// The threat sets of `color` on the empty point `p` (a [`CellSummary::threat_mask`]) as
    /// they would be after a stone of the other colour on the empty point `k` cells away along
    /// `d`: only line `d` of `p` changes, so the summary's other line codes are kept and no
    /// move is made.
    #[inline]
    pub fn threat_mask_with_opponent_stone(&self, p: Pos, d: Dir, color: Color, k: isize) -> u8 {
        self.summary_with_opponent_stone(p, d, color, k)
            .threat_mask()
    }

    /// The summary of `color` on the empty point `p` as it would be after a stone of the other
    /// colour on the empty point `k` cells away along `d` (only line `d` of `p` changes; no move
    /// is made). Its potential and move-ordering values are those of the changed lines too.
    #[inline]
    pub fn summary_with_opponent_stone(
        &self,
        p: Pos,
        d: Dir,
        color: Color,
        k: isize,
    ) -> CellSummary {
        let mut summary = self.summary(p, color);
        let pattern = self.pattern_with_opponent_stone(p, d, color, k);
        summary.update_codes(d.index(), pattern.byte());
        summary
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
        for c in Color::ALL.into_iter().filter(|_| self.light_moves == 0) {
            let restricted = self.restricted[c.index()];
            let potential: PackedPotential = self
                .near_empties()
                .map(|p| self.summary(p, c).potential(restricted))
                .sum();
            assert_eq!(self.potential[c.index()], potential, "{c} potential");
        }
        for c in Color::ALL {
            for set in ThreatSet::ALL {
                let members = self
                    .positions()
                    .filter(|&p| {
                        self.is_empty(p) && self.summary(p, c).threat_mask() & set.bit() != 0
                    })
                    .count();
                assert_eq!(self.threat_count(c, set), members, "{c} {set:?} count");
                assert_eq!(
                    self.threat_points(c, set).count(),
                    members,
                    "{c} {set:?} bits"
                );
            }
        }
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
        // Only empty cells' summaries are kept.
        for c in Color::ALL.into_iter().filter(|_| self.is_empty(p)) {
            let s = CellSummary::of(self.patterns(p, c));
            if self.light_moves == 0 {
                assert_eq!(self.summary(p, c), s, "{c} summary of {p:?}");
            } else {
                let now = self.summary(p, c);
                assert!(now.same_threats(s), "{c} line codes of {p:?}");
                assert_eq!(
                    (now.attack(), now.defence()),
                    (s.attack(), s.defence()),
                    "{c} move-ordering values of {p:?}"
                );
            }
        }
        if self.is_empty(p) {
            for c in Color::ALL {
                let s = self.summary(p, c);
                for set in ThreatSet::ALL {
                    let bit = self.threat_bits[c.index()][set.index()][p.index() / 64]
                        >> (p.index() % 64)
                        & 1;
                    assert_eq!(
                        bit == 1,
                        s.threat_mask() & set.bit() != 0,
                        "{c} {set:?} bit of {p:?}"
                    );
                }
            }
        }
        let (x, y) = (p.x() as i64, p.y() as i64);
        let r = NEAR_RADIUS as i64;
        // Light moves leave the near counts alone: only the stones below them count.
        let light = &self.history[self.history.len() - self.light_moves as usize..];
        let near = (-r..=r)
            .flat_map(|dy| (-r..=r).map(move |dx| (x + dx, y + dy)))
            .filter(|&(qx, qy)| {
                self.pos(qx, qy)
                    .is_ok_and(|q| self.get(q).is_some() && !light.iter().any(|&(l, _)| l == q))
            })
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
    fn hash_after_is_the_hash_of_the_position_after_the_move() {
        let pos = |x, y| Pos::new(x, y).unwrap();
        let b = Board::with_moves(15, Rule::Freestyle, &[pos(7, 7), pos(8, 8)]).unwrap();
        // The same stones reached in another order (black's moves swapped).
        let other =
            Board::with_moves(15, Rule::Freestyle, &[pos(6, 6), pos(8, 8), pos(7, 7)]).unwrap();
        assert_eq!(b.hash_after(pos(6, 6), Color::Black), other.hash());
        assert_ne!(b.hash_after(pos(6, 6), Color::White), other.hash());
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
    fn light_moves_keep_the_threat_sets_and_restore_everything() {
        let full: Vec<(usize, usize)> = vec![(7, 7), (8, 8), (7, 8), (6, 6), (7, 6), (9, 9)];
        let light: Vec<(usize, usize)> = vec![(7, 5), (7, 9), (8, 7), (5, 5), (6, 7), (10, 10)];
        let mut b = Board::square(15, Rule::Renju).unwrap();
        let color = |i: usize| {
            if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            }
        };
        for (i, &(x, y)) in full.iter().enumerate() {
            b.make_move(Pos::new(x, y).unwrap(), color(i));
        }
        let before = b.clone();
        let mut reference = b.clone();
        for (i, &(x, y)) in light.iter().enumerate() {
            let p = Pos::new(x, y).unwrap();
            b.make_light_move(p, color(i));
            reference.make_move(p, color(i));
            for c in Color::ALL {
                for set in ThreatSet::ALL {
                    assert!(
                        b.threat_points(c, set).eq(reference.threat_points(c, set)),
                        "{c} {set:?} after {i} light moves"
                    );
                }
            }
            assert_eq!(b.hash(), reference.hash());
        }
        while b.history().len() > full.len() {
            b.undo_light_move();
        }
        assert!(b.summaries == before.summaries, "summaries differ");
        assert!(b.threat_bits == before.threat_bits, "threat sets differ");
        assert_eq!(b.potential, before.potential);
        assert_eq!(b.hash(), before.hash());
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
    fn patterns_and_threats_with_an_opponent_stone_match_the_move() {
        let moves = [
            (7, 7),
            (8, 8),
            (7, 8),
            (6, 6),
            (7, 6),
            (9, 9),
            (7, 5),
            (10, 10),
            (8, 6),
            (6, 8),
            (9, 6),
            (5, 9),
            (8, 5),
            (4, 7),
        ];
        for rule in Rule::ALL {
            let mut b = Board::square(15, rule).unwrap();
            for (i, &(x, y)) in moves.iter().enumerate() {
                let color = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                b.make_move(Pos::new(x, y).unwrap(), color);
            }
            let empties: Vec<Pos> = b.near_empties().collect();
            for &p in &empties {
                for d in Dir::ALL {
                    for k in (-5..=5isize).filter(|&k| k != 0) {
                        let q = p.shifted_index(d, k);
                        if b.cell_code(q) != CELL_EMPTY {
                            continue;
                        }
                        for color in Color::ALL {
                            let pattern = b.pattern_with_opponent_stone(p, d, color, k);
                            let mask = b.threat_mask_with_opponent_stone(p, d, color, k);
                            b.make_light_move(Pos::from_index(q), color.opponent());
                            assert_eq!(pattern, b.pattern(p, d, color), "{rule} {p:?} {d:?} {k}");
                            assert_eq!(mask, b.summary(p, color).threat_mask(), "{rule} {p:?}");
                            b.undo_light_move();
                        }
                    }
                }
            }
        }
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
