//! The Pente position: stones of up to four seats, capture counts, the seat to move, a pending
//! extension and the outcome, with exact legality and `play`/`undo` that restore captured
//! stones (`docs/pente.md` §2–§6).
//!
//! Cells are indexed `y·size + x`; a cell holds 0 (empty) or `seat + 1`. Seat 0 moves first
//! (white in the two-player game). One move is resolved on the board *with the new stone on it*:
//! the mover's captures, the suicide captures and the extension's line capture are all found on
//! that board and removed together (a stone claimed by two or more seats goes to nobody).
//!
//! Invariants (checked by `tests/pente.rs` against [`super::reference`]):
//! - `undo` after `play` restores cells, counts, turn, extension, outcome and hash exactly;
//! - `hash` is the XOR of the Zobrist keys of the stones, the counts and the seat to move;
//! - `play` never changes anything when it returns an error.

use std::sync::LazyLock;

use thiserror::Error;

use super::options::{Extension, Overline, PenteOpening, PenteRules, Suicide};
use crate::core::Pos;

/// The eight capture directions (the four line axes are the first four).
pub const DIRS8: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (1, -1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (-1, 1),
];

/// Why a move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Illegal {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Outside the board.
    #[error("({x},{y}) is off the board")]
    OffBoard {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
    },
    /// The point holds a stone.
    #[error("the point is occupied")]
    Occupied,
    /// The suicide rule is `forbidden` and the stone would be bracketed.
    #[error("the stone would be bracketed (suicide is forbidden)")]
    Suicide,
    /// The overline rule is `forbidden` and the move makes a line longer than the winning length.
    #[error("the move makes an overline, which is forbidden")]
    Overline,
    /// An extension is pending and the move does not break (or capture) every completed line.
    #[error("the move must break every completed line")]
    MustBreakLine,
    /// Pro / Long Pro: the first player's first stone goes on the centre.
    #[error("the first stone must be on the centre")]
    NotCentre,
    /// Pro / Long Pro: the first player's second stone is too close to the centre.
    #[error("the first player's second stone must be at least {min} points from the centre")]
    TooClose {
        /// The least distance (Chebyshev).
        min: usize,
    },
}

/// Why [`Position::setup`] refused its input.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    /// The options are invalid.
    #[error(transparent)]
    Options(super::options::OptionError),
    /// The cell count does not match the board.
    #[error("{0} cells do not fill the board")]
    Cells(usize),
    /// A cell or the turn names a seat that does not play.
    #[error("seat value {0} is not a player")]
    Seat(u8),
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A completed line (no extension, or nobody could break it).
    Line,
    /// Enough captured stones.
    Captures,
    /// No empty point left (draw).
    BoardFull,
    /// The seat to move has only forbidden points (draw).
    NoLegalMove,
}

impl EndReason {
    /// The JSON name.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Line => "line",
            EndReason::Captures => "captures",
            EndReason::BoardFull => "boardFull",
            EndReason::NoLegalMove => "noLegalMove",
        }
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winning seats, ascending (a whole team; seats of several teams when they reached a
    /// win condition together — a draw among them); empty for a draw of everybody.
    pub winners: Vec<u8>,
    /// Why.
    pub reason: EndReason,
    /// The completed line (reason `Line`), from one end to the other.
    pub line: Option<Vec<Pos>>,
}

/// An extension waiting for the seat to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PendingExtension {
    /// The seat that completed the line(s).
    pub maker: u8,
    /// The completed lines (cell indices along each line).
    pub lines: Vec<Vec<usize>>,
    /// `CaptureLine`: the one point that captures the line.
    pub capture_point: Option<usize>,
}

/// One stone removed by a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Removed {
    /// Its cell index.
    pub cell: usize,
    /// Its seat.
    pub owner: u8,
    /// The seat credited with it (`None`: claimed by several seats, or a teammate's stone).
    pub credited: Option<u8>,
}

/// Everything one move did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveReport {
    /// Stones removed, ascending by cell.
    pub removed: Vec<Removed>,
    /// Lines completed by the move (cell indices).
    pub lines: Vec<Vec<usize>>,
    /// Whether the move started an extension for the next seat.
    pub extension_started: bool,
}

#[derive(Clone, Debug)]
struct UndoEntry {
    cell: usize,
    mover: u8,
    removed: Vec<Removed>,
    captures: [u32; 4],
    extension: Option<PendingExtension>,
    hash: u64,
}

/// What a move at a point would do, found with the stone placed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Effects {
    /// The mover's capture groups.
    pub captures: Vec<Vec<usize>>,
    /// Suicide groups with the seat that brackets them.
    pub suicides: Vec<(u8, Vec<usize>)>,
    /// Winning lines through the point.
    pub lines: Vec<Vec<usize>>,
    /// Whether a line through the point is longer than the winning length.
    pub overline: bool,
}

const MAX_CELLS: usize = 19 * 19;

static ZOBRIST: LazyLock<Vec<u64>> = LazyLock::new(|| {
    // splitmix64 from a fixed seed: stable across runs and platforms.
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15 ^ 0x70e4_7e00;
    (0..MAX_CELLS * 4 + 4 * 64 + 4)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
});

fn stone_key(cell: usize, seat: u8) -> u64 {
    ZOBRIST[cell * 4 + seat as usize]
}

fn count_key(seat: u8, count: u32) -> u64 {
    ZOBRIST[MAX_CELLS * 4 + seat as usize * 64 + (count as usize % 64)]
}

fn turn_key(seat: u8) -> u64 {
    ZOBRIST[MAX_CELLS * 4 + 4 * 64 + seat as usize]
}

/// A Pente position with its history.
#[derive(Clone, Debug)]
pub struct Position {
    rules: PenteRules,
    size: usize,
    cells: Vec<u8>,
    /// `(x, y)` of every cell (no division in the hot loops).
    coords: Vec<(i32, i32)>,
    /// Stones within Chebyshev distance 1 and 2 of every cell.
    near1: Vec<u8>,
    near2: Vec<u8>,
    captures: [u32; 4],
    turn: u8,
    stones: usize,
    extension: Option<PendingExtension>,
    outcome: Option<Outcome>,
    hash: u64,
    history: Vec<UndoEntry>,
}

impl Position {
    /// An empty board; the rules are validated.
    pub fn new(rules: PenteRules) -> Result<Position, super::options::OptionError> {
        rules.validate()?;
        let size = rules.board_size;
        let mut p = Position {
            rules,
            size,
            cells: vec![0; size * size],
            coords: (0..size * size)
                .map(|c| ((c % size) as i32, (c / size) as i32))
                .collect(),
            near1: vec![0; size * size],
            near2: vec![0; size * size],
            captures: [0; 4],
            turn: 0,
            stones: 0,
            extension: None,
            outcome: None,
            hash: 0,
            history: Vec::new(),
        };
        p.hash = p.compute_hash();
        Ok(p)
    }

    /// A position with the given stones (`cells` as [`Position::cells`]), seat to move and
    /// capture counts, and no history. The outcome is not evaluated: the position is taken as a
    /// game in progress.
    pub fn setup(
        rules: PenteRules,
        cells: &[u8],
        turn: u8,
        captures: [u32; 4],
    ) -> Result<Position, SetupError> {
        let mut p = Position::new(rules).map_err(SetupError::Options)?;
        if cells.len() != p.cells.len() {
            return Err(SetupError::Cells(cells.len()));
        }
        if let Some(&v) = cells.iter().find(|&&v| v > rules.players) {
            return Err(SetupError::Seat(v));
        }
        if turn >= rules.players {
            return Err(SetupError::Seat(turn + 1));
        }
        for (c, &v) in cells.iter().enumerate() {
            if v != 0 {
                p.set(c, v);
            }
        }
        p.stones = cells.iter().filter(|&&v| v != 0).count();
        p.turn = turn;
        p.captures = captures;
        p.hash = p.compute_hash();
        Ok(p)
    }

    /// The rules.
    pub fn rules(&self) -> &PenteRules {
        &self.rules
    }

    /// Board side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The cells, `y·size + x`: 0 empty, `seat + 1` a stone.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The seat on a cell.
    pub fn at(&self, cell: usize) -> Option<u8> {
        self.cells[cell].checked_sub(1)
    }

    /// Stones captured by each seat (entries beyond `players` are 0).
    pub fn captures(&self) -> [u32; 4] {
        self.captures
    }

    /// The seat to move.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.stones
    }

    /// Moves played.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The cells of the moves played, in order.
    pub fn moves(&self) -> impl Iterator<Item = usize> + '_ {
        self.history.iter().map(|u| u.cell)
    }

    /// The pending extension.
    pub fn extension(&self) -> Option<&PendingExtension> {
        self.extension.as_ref()
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The Zobrist hash of stones, counts and seat to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The cell of `(x, y)`, if on the board.
    pub fn cell(&self, x: i64, y: i64) -> Option<usize> {
        let n = self.size as i64;
        ((0..n).contains(&x) && (0..n).contains(&y)).then(|| (y * n + x) as usize)
    }

    /// The `Pos` of a cell.
    pub fn pos(&self, cell: usize) -> Pos {
        Pos::new_unchecked(cell % self.size, cell / self.size)
    }

    /// The cell of a `Pos`, if on this board.
    pub fn cell_of(&self, p: Pos) -> Option<usize> {
        self.cell(p.x() as i64, p.y() as i64)
    }

    /// The centre cell.
    pub fn centre(&self) -> usize {
        let c = self.size / 2;
        c * self.size + c
    }

    /// The next seat after `seat`.
    pub fn next_seat(&self, seat: u8) -> u8 {
        (seat + 1) % self.rules.players
    }

    fn compute_hash(&self) -> u64 {
        let mut h = turn_key(self.turn);
        for (i, &c) in self.cells.iter().enumerate() {
            if c != 0 {
                h ^= stone_key(i, c - 1);
            }
        }
        for s in 0..4u8 {
            h ^= count_key(s, self.captures[s as usize]);
        }
        h
    }

    #[inline]
    fn step(&self, cell: usize, d: (i32, i32), k: i32) -> Option<usize> {
        let n = self.size as i32;
        let (x0, y0) = self.coords[cell];
        let (x, y) = (x0 + d.0 * k, y0 + d.1 * k);
        (x >= 0 && y >= 0 && x < n && y < n).then(|| (y * n + x) as usize)
    }

    /// Puts `v` (0 or `seat + 1`) on `cell`, keeping the neighbour counts.
    fn set(&mut self, cell: usize, v: u8) {
        let was = self.cells[cell] != 0;
        self.cells[cell] = v;
        let delta: i32 = match (was, v != 0) {
            (false, true) => 1,
            (true, false) => -1,
            _ => return,
        };
        let n = self.size as i32;
        let (x0, y0) = self.coords[cell];
        for dy in -2..=2 {
            for dx in -2..=2 {
                let (x, y) = (x0 + dx, y0 + dy);
                if (dx, dy) == (0, 0) || x < 0 || y < 0 || x >= n || y >= n {
                    continue;
                }
                let c = (y * n + x) as usize;
                self.near2[c] = (i32::from(self.near2[c]) + delta) as u8;
                if dx.abs() <= 1 && dy.abs() <= 1 {
                    self.near1[c] = (i32::from(self.near1[c]) + delta) as u8;
                }
            }
        }
    }

    /// Whether a stone stands within distance 1 (`d` = 1) or 2 (otherwise) of `cell`.
    #[inline]
    pub fn has_stone_near(&self, cell: usize, d: u8) -> bool {
        if d <= 1 {
            self.near1[cell] > 0
        } else {
            self.near2[cell] > 0
        }
    }

    /// The cells of the maximal run of `seat`'s stones through `cell` along axis `d`, from the
    /// negative end (the cell itself is counted as `seat`'s).
    fn run(&self, cell: usize, seat: u8, d: (i32, i32)) -> Vec<usize> {
        let own = seat + 1;
        let mut back = 0;
        while let Some(c) = self.step(cell, d, -(back + 1)) {
            if self.cells[c] != own {
                break;
            }
            back += 1;
        }
        let mut out = Vec::new();
        let mut k = -back;
        while let Some(c) = self.step(cell, d, k) {
            if k > 0 && self.cells[c] != own {
                break;
            }
            out.push(c);
            k += 1;
        }
        out
    }

    fn is_win_len(&self, len: usize) -> bool {
        let n = self.rules.line_len();
        len == n || (len > n && self.rules.overline == Overline::Win)
    }

    /// Group sizes the rules capture.
    fn group_sizes(&self) -> &'static [i32] {
        if self.rules.three_capture {
            &[2, 3]
        } else {
            &[2]
        }
    }

    /// Whether the stones on `group` may be captured by `by` (none of `by`'s, one colour unless
    /// mixed captures are on).
    fn capturable(&self, group: &[usize], by: u8) -> bool {
        let first = self.cells[group[0]];
        group.iter().all(|&c| {
            let v = self.cells[c];
            v != 0 && v != by + 1 && (self.rules.mixed_capture || v == first)
        })
    }

    /// Stones `seat` would capture by playing the empty `cell` (its own captures only; the
    /// suicide rule and extensions are ignored). A fast hint for the search.
    pub(crate) fn capture_count_at(&self, cell: usize, seat: u8) -> u32 {
        let own = seat + 1;
        let mut n = 0;
        for d in DIRS8 {
            for &k in self.group_sizes() {
                let Some(end) = self.step(cell, d, k + 1) else {
                    continue;
                };
                if self.cells[end] != own {
                    continue;
                }
                let first = self.step(cell, d, 1).map_or(0, |c| self.cells[c]);
                let ok = (1..=k).all(|i| {
                    self.step(cell, d, i).is_some_and(|c| {
                        let v = self.cells[c];
                        v != 0 && v != own && (self.rules.mixed_capture || v == first)
                    })
                });
                if ok {
                    n += k as u32;
                }
            }
        }
        n
    }

    /// The length of `seat`'s run through the empty `cell` along axis `d` if it played there.
    pub(crate) fn run_len_at(&self, cell: usize, seat: u8, d: (i32, i32)) -> usize {
        let own = seat + 1;
        let mut len = 1;
        for s in [1, -1] {
            let mut k = 1;
            while let Some(c) = self.step(cell, (d.0 * s, d.1 * s), k) {
                if self.cells[c] != own {
                    break;
                }
                len += 1;
                k += 1;
            }
        }
        len
    }

    /// Whether `seat` playing the empty `cell` would complete a winning line or reach the
    /// capture target (a fast hint: legality, suicide and extensions are not checked).
    pub(crate) fn wins_at(&self, cell: usize, seat: u8) -> bool {
        if DIRS8[..4]
            .iter()
            .any(|&d| self.is_win_len(self.run_len_at(cell, seat, d)))
        {
            return true;
        }
        self.rules
            .capture_target()
            .is_some_and(|t| self.captures[seat as usize] + self.capture_count_at(cell, seat) >= t)
    }

    /// The cell `k` steps from `cell` along `d`, if on the board.
    pub(crate) fn neighbour(&self, cell: usize, d: (i32, i32), k: i32) -> Option<usize> {
        self.step(cell, d, k)
    }

    /// The effects of `mover` playing on the empty `cell` (the board is left as it was).
    pub(crate) fn effects(&mut self, cell: usize, mover: u8) -> Effects {
        debug_assert_eq!(self.cells[cell], 0);
        self.cells[cell] = mover + 1;
        let mut e = Effects::default();
        for d in DIRS8 {
            for &k in self.group_sizes() {
                let Some(end) = self.step(cell, d, k + 1) else {
                    continue;
                };
                if self.cells[end] != mover + 1 {
                    continue;
                }
                let group: Vec<usize> = (1..=k).filter_map(|i| self.step(cell, d, i)).collect();
                if self.capturable(&group, mover) {
                    e.captures.push(group);
                }
            }
        }
        if self.rules.suicide != Suicide::Nothing {
            for d in &DIRS8[..4] {
                for &k in self.group_sizes() {
                    for j in 0..k {
                        let (Some(b0), Some(b1)) =
                            (self.step(cell, *d, -j - 1), self.step(cell, *d, k - j))
                        else {
                            continue;
                        };
                        let y = self.cells[b0];
                        if y == 0 || y == mover + 1 || self.cells[b1] != y {
                            continue;
                        }
                        let group: Vec<usize> =
                            (0..k).filter_map(|i| self.step(cell, *d, i - j)).collect();
                        let by = y - 1;
                        if self.capturable(&group, by) {
                            e.suicides.push((by, group));
                        }
                    }
                }
            }
        }
        for d in &DIRS8[..4] {
            let run = self.run(cell, mover, *d);
            if run.len() > self.rules.line_len() {
                e.overline = true;
            }
            if self.is_win_len(run.len()) {
                e.lines.push(run);
            }
        }
        self.cells[cell] = 0;
        e
    }

    /// Why `cell` is not a legal move for the seat to move (`None`: legal).
    fn illegal_reason(&mut self, cell: usize) -> Option<Illegal> {
        if self.outcome.is_some() {
            return Some(Illegal::GameOver);
        }
        if self.cells[cell] != 0 {
            return Some(Illegal::Occupied);
        }
        if let Some(e) = self.opening_violation(cell) {
            return Some(e);
        }
        let mover = self.turn;
        let e = self.effects(cell, mover);
        self.illegal_by_effects(cell, mover, &e)
    }

    /// Pro / Long Pro, with the shared opening rules' distances
    /// ([`crate::rules::opening::OpeningRule::pro_distance`]).
    fn opening_violation(&self, cell: usize) -> Option<Illegal> {
        let min = usize::from(self.rules.opening_rule.shared().pro_distance()?);
        match self.history.len() {
            0 if cell != self.centre() => Some(Illegal::NotCentre),
            2 => {
                let c = self.size / 2;
                let (x, y) = (cell % self.size, cell / self.size);
                let dist = x.abs_diff(c).max(y.abs_diff(c));
                (dist < min).then_some(Illegal::TooClose { min })
            }
            _ => None,
        }
    }

    fn illegal_by_effects(&mut self, cell: usize, mover: u8, e: &Effects) -> Option<Illegal> {
        if self.rules.suicide == Suicide::Forbidden && !e.suicides.is_empty() {
            return Some(Illegal::Suicide);
        }
        let self_captured = self.rules.suicide == Suicide::Captured
            && e.suicides.iter().any(|(_, g)| g.contains(&cell));
        if self.rules.overline == Overline::Forbidden && e.overline && !self_captured {
            return Some(Illegal::Overline);
        }
        if let Some(ext) = &self.extension {
            let removed = self.resolve(cell, mover, e);
            let broken = match ext.capture_point {
                Some(p) => p == cell,
                None => ext.lines.iter().all(|l| {
                    !self.line_stands(l, ext.maker, |c| removed.iter().any(|r| r.cell == c))
                }),
            };
            if !broken {
                return Some(Illegal::MustBreakLine);
            }
        }
        None
    }

    /// Whether `maker` still has a winning run within `line` once the cells `gone` are removed.
    fn line_stands(&self, line: &[usize], maker: u8, gone: impl Fn(usize) -> bool) -> bool {
        let mut run = 0;
        let mut best = false;
        for &c in line {
            if self.cells[c] == maker + 1 && !gone(c) {
                run += 1;
            } else {
                best |= self.is_win_len(run);
                run = 0;
            }
        }
        best || self.is_win_len(run)
    }

    /// The stones a move removes, with their credit (the board is not changed).
    fn resolve(&self, cell: usize, mover: u8, e: &Effects) -> Vec<Removed> {
        let mut claims: Vec<(usize, u8)> = Vec::new();
        for g in &e.captures {
            claims.extend(g.iter().map(|&c| (c, mover)));
        }
        // A line made by inserting a stone wins at once: its suicide never happens.
        if self.rules.suicide == Suicide::Captured && e.lines.is_empty() {
            for (by, g) in &e.suicides {
                claims.extend(g.iter().map(|&c| (c, *by)));
            }
        }
        if let Some(ext) = &self.extension
            && ext.capture_point == Some(cell)
        {
            for l in &ext.lines {
                claims.extend(l.iter().map(|&c| (c, mover)));
            }
        }
        claims.sort_unstable();
        claims.dedup();
        let mut out: Vec<Removed> = Vec::new();
        for (c, by) in claims {
            let owner = if c == cell { mover } else { self.cells[c] - 1 };
            match out.last_mut() {
                Some(r) if r.cell == c => r.credited = None,
                _ => out.push(Removed {
                    cell: c,
                    owner,
                    credited: (self.rules.team(owner) != self.rules.team(by)).then_some(by),
                }),
            }
        }
        out
    }

    /// Whether `cell` is a legal move for the seat to move.
    pub fn is_legal(&mut self, cell: usize) -> bool {
        cell < self.cells.len() && self.illegal_reason(cell).is_none()
    }

    /// Checks `(x, y)` for the seat to move; the cell when legal.
    pub fn check(&mut self, x: i64, y: i64) -> Result<usize, Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        let cell = self.cell(x, y).ok_or(Illegal::OffBoard { x, y })?;
        match self.illegal_reason(cell) {
            Some(e) => Err(e),
            None => Ok(cell),
        }
    }

    /// The legal moves of the seat to move, ascending.
    pub fn legal_moves(&mut self) -> Vec<usize> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        (0..self.cells.len())
            .filter(|&c| self.is_legal(c))
            .collect()
    }

    /// Whether every empty cell is legal by construction (no move-dependent restriction).
    fn all_empty_legal(&self) -> bool {
        self.rules.suicide != Suicide::Forbidden
            && self.rules.overline != Overline::Forbidden
            && self.extension.is_none()
            && !matches!(
                self.rules.opening_rule,
                PenteOpening::Pro | PenteOpening::LongPro
            )
    }

    fn has_legal_move(&mut self) -> bool {
        if self.all_empty_legal() {
            return self.stones < self.cells.len();
        }
        (0..self.cells.len()).any(|c| self.cells[c] == 0 && self.illegal_reason(c).is_none())
    }

    /// Plays `cell` for the seat to move.
    pub fn play(&mut self, cell: usize) -> Result<MoveReport, Illegal> {
        if cell >= self.cells.len() {
            let n = self.size;
            return Err(Illegal::OffBoard {
                x: (cell % n) as i64,
                y: (cell / n) as i64,
            });
        }
        if let Some(e) = self.illegal_reason(cell) {
            return Err(e);
        }
        let mover = self.turn;
        let e = self.effects(cell, mover);
        let removed = self.resolve(cell, mover, &e);
        self.history.push(UndoEntry {
            cell,
            mover,
            removed: removed.clone(),
            captures: self.captures,
            extension: self.extension.take(),
            hash: self.hash,
        });
        self.set(cell, mover + 1);
        self.hash ^= stone_key(cell, mover);
        self.stones += 1;
        let mut credited = [false; 4];
        for r in &removed {
            self.set(r.cell, 0);
            self.hash ^= stone_key(r.cell, r.owner);
            self.stones -= 1;
            if let Some(by) = r.credited {
                let b = by as usize;
                self.hash ^= count_key(by, self.captures[b]);
                self.captures[b] += 1;
                self.hash ^= count_key(by, self.captures[b]);
                credited[b] = true;
            }
        }
        self.hash ^= turn_key(self.turn);
        self.turn = self.next_seat(mover);
        self.hash ^= turn_key(self.turn);
        let mut report = MoveReport {
            removed,
            lines: e.lines.clone(),
            extension_started: false,
        };
        self.outcome = self.decide(mover, &e, credited, &mut report);
        Ok(report)
    }

    /// The outcome after `mover`'s move on `cell` (or a new pending extension).
    fn decide(
        &mut self,
        mover: u8,
        e: &Effects,
        credited: [bool; 4],
        report: &mut MoveReport,
    ) -> Option<Outcome> {
        let mut winners: Vec<u8> = Vec::new();
        if let Some(target) = self.rules.capture_target() {
            for s in 0..self.rules.players {
                if credited[s as usize] && self.captures[s as usize] >= target {
                    winners.push(s);
                }
            }
        }
        let line_made = !e.lines.is_empty();
        if !winners.is_empty() {
            if line_made && !winners.contains(&mover) {
                winners.push(mover);
            }
            let line_only = winners == [mover] && line_made;
            return Some(self.win(
                &winners,
                if line_only {
                    EndReason::Line
                } else {
                    EndReason::Captures
                },
                line_only.then(|| e.lines[0].clone()),
            ));
        }
        if line_made {
            let inserted = self.rules.suicide == Suicide::Captured && !e.suicides.is_empty();
            let pending = match self.rules.extension {
                _ if inserted => None,
                Extension::Off => None,
                Extension::BreakLine => Some(PendingExtension {
                    maker: mover,
                    lines: e.lines.clone(),
                    capture_point: None,
                }),
                Extension::CaptureLine => {
                    self.capture_line_point(mover, &e.lines)
                        .map(|p| PendingExtension {
                            maker: mover,
                            lines: e.lines.clone(),
                            capture_point: Some(p),
                        })
                }
            };
            if let Some(p) = pending {
                self.extension = Some(p);
                if self.has_legal_move() {
                    report.extension_started = true;
                    return None;
                }
                self.extension = None;
            }
            let line = e.lines[0].clone();
            return Some(self.win(&[mover], EndReason::Line, Some(line)));
        }
        if self.stones == self.cells.len() {
            return Some(Outcome {
                winners: Vec::new(),
                reason: EndReason::BoardFull,
                line: None,
            });
        }
        if !self.has_legal_move() {
            return Some(Outcome {
                winners: Vec::new(),
                reason: EndReason::NoLegalMove,
                line: None,
            });
        }
        None
    }

    /// `CaptureLine`: the empty end of the one completed line whose other end is the next
    /// seat's stone.
    fn capture_line_point(&self, maker: u8, lines: &[Vec<usize>]) -> Option<usize> {
        let [line] = lines else { return None };
        let next = self.next_seat(maker) + 1;
        let (first, last) = (line[0], line[line.len() - 1]);
        let d = DIRS8[..4]
            .iter()
            .copied()
            .find(|&d| line.len() < 2 || self.step(first, d, 1) == Some(line[1]))?;
        let ends = [self.step(first, d, -1), self.step(last, d, 1)];
        let [Some(a), Some(b)] = ends else {
            return None;
        };
        match (self.cells[a], self.cells[b]) {
            (x, 0) if x == next => Some(b),
            (0, x) if x == next => Some(a),
            _ => None,
        }
    }

    /// The winning seats expanded to whole teams.
    fn win(&self, seats: &[u8], reason: EndReason, line: Option<Vec<usize>>) -> Outcome {
        let mut winners: Vec<u8> = (0..self.rules.players)
            .filter(|&s| {
                seats
                    .iter()
                    .any(|&w| self.rules.team(w) == self.rules.team(s))
            })
            .collect();
        winners.sort_unstable();
        Outcome {
            winners,
            reason,
            line: line.map(|l| l.into_iter().map(|c| self.pos(c)).collect()),
        }
    }

    /// Takes back the last move; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(u) = self.history.pop() else {
            return false;
        };
        for r in &u.removed {
            self.set(r.cell, r.owner + 1);
            self.stones += 1;
        }
        self.set(u.cell, 0);
        self.stones -= 1;
        self.captures = u.captures;
        self.turn = u.mover;
        self.extension = u.extension;
        self.outcome = None;
        self.hash = u.hash;
        true
    }

    /// A copy in which `seat` is to move (no pending extension): what `seat` could do if it
    /// moved now. Only for probing with `play`/`undo` pairs.
    pub fn with_turn(&self, seat: u8) -> Position {
        let mut p = self.clone();
        p.extension = None;
        p.turn = seat % self.rules.players;
        p.hash = p.compute_hash();
        p
    }

    /// Recomputes the hash from scratch (tests compare it with the incremental one).
    pub fn recomputed_hash(&self) -> u64 {
        self.compute_hash()
    }

    /// Ends the game from outside the board (the referee's resignations and time losses).
    pub fn set_outcome(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
    }

    /// The winners of `seats`' teams (for results decided outside the board).
    pub fn team_outcome(&self, seats: &[u8], reason: EndReason) -> Outcome {
        self.win(seats, reason, None)
    }
}
