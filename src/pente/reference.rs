//! A slow reference implementation of the Pente rules, written straight from `docs/pente.md`
//! to check [`super::Position`] against (`tests/pente.rs`). It shares nothing with the fast
//! code but the options: every step scans whole windows of the board and copies the state.
//!
//! - A capture is a window of `k + 2` points on a line (k = 2, or 3 with three-capture) whose two
//!   ends are the mover's stones, one of them the new stone, and whose `k` inner points hold
//!   stones the mover may take (none the mover's; one colour unless mixed captures are on).
//! - A suicide is such a window with the new stone inside and both ends of one other seat.
//! - A line is a maximal run of the mover's stones through the new stone.

use super::options::{Extension, Overline, PenteOpening, PenteRules, Suicide};

/// A point `(x, y)`.
pub type Pt = (usize, usize);

/// Stones claimed by a move: `(point, claiming seat)`.
type Claims = Vec<(Pt, u8)>;

/// The reference state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefState {
    /// The rules.
    pub rules: PenteRules,
    /// `grid[y][x]`: 0 empty or `seat + 1`.
    pub grid: Vec<Vec<u8>>,
    /// Captured stones per seat.
    pub caps: [u32; 4],
    /// Seat to move.
    pub turn: u8,
    /// Moves played.
    pub moves: usize,
    /// Pending extension: the maker, its lines and the capture point (`CaptureLine`).
    pub ext: Option<(u8, Vec<Vec<Pt>>, Option<Pt>)>,
    /// The end: winning seats (empty = draw) and the reason name.
    pub over: Option<(Vec<u8>, &'static str)>,
}

const AXES: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl RefState {
    /// The empty board.
    pub fn new(rules: PenteRules) -> RefState {
        RefState {
            rules,
            grid: vec![vec![0; rules.board_size]; rules.board_size],
            caps: [0; 4],
            turn: 0,
            moves: 0,
            ext: None,
            over: None,
        }
    }

    fn n(&self) -> i64 {
        self.rules.board_size as i64
    }

    fn get(&self, x: i64, y: i64) -> Option<u8> {
        (x >= 0 && y >= 0 && x < self.n() && y < self.n())
            .then(|| self.grid[y as usize][x as usize])
    }

    fn team(&self, seat: u8) -> u8 {
        if self.rules.teams { seat % 2 } else { seat }
    }

    fn line_len(&self) -> usize {
        if self.rules.players > 2 && !self.rules.teams {
            4
        } else {
            5
        }
    }

    fn wins_len(&self, len: usize) -> bool {
        len == self.line_len() || (len > self.line_len() && self.rules.overline == Overline::Win)
    }

    /// All windows of `len` points on the board along the four axes.
    fn windows(&self, len: i64) -> Vec<Vec<Pt>> {
        let mut out = Vec::new();
        for (dx, dy) in AXES {
            for y in 0..self.n() {
                for x in 0..self.n() {
                    let pts: Vec<(i64, i64)> = (0..len).map(|i| (x + dx * i, y + dy * i)).collect();
                    if pts.iter().all(|&(a, b)| self.get(a, b).is_some()) {
                        out.push(pts.iter().map(|&(a, b)| (a as usize, b as usize)).collect());
                    }
                }
            }
        }
        out
    }

    fn takeable(&self, g: &[u8], by: u8) -> bool {
        g.iter().all(|&v| v != 0 && v != by + 1)
            && (self.rules.mixed_capture || g.iter().all(|&v| v == g[0]))
    }

    /// Claims `(point, seat)` of a move at `p` (with the stone already on `self`).
    fn claims(&self, p: Pt, mover: u8) -> (Claims, Claims) {
        let mut caps = Vec::new();
        let mut sui = Vec::new();
        let sizes: &[i64] = if self.rules.three_capture {
            &[2, 3]
        } else {
            &[2]
        };
        for &k in sizes {
            for w in self.windows(k + 2) {
                let v: Vec<u8> = w.iter().map(|&(x, y)| self.grid[y][x]).collect();
                let (a, b) = (v[0], v[v.len() - 1]);
                let inner = &w[1..w.len() - 1];
                let iv = &v[1..v.len() - 1];
                if (w[0] == p || w[w.len() - 1] == p)
                    && a == mover + 1
                    && b == mover + 1
                    && self.takeable(iv, mover)
                {
                    caps.extend(inner.iter().map(|&q| (q, mover)));
                }
                if inner.contains(&p)
                    && a != 0
                    && a == b
                    && a != mover + 1
                    && self.takeable(iv, a - 1)
                {
                    sui.extend(inner.iter().map(|&q| (q, a - 1)));
                }
            }
        }
        (caps, sui)
    }

    /// Lines of `seat` through `p`: maximal runs.
    fn runs_through(&self, p: Pt, seat: u8) -> Vec<Vec<Pt>> {
        let mut out = Vec::new();
        for (dx, dy) in AXES {
            let mut run = vec![p];
            for s in [-1i64, 1] {
                let mut k = 1;
                while self.get(p.0 as i64 + dx * k * s, p.1 as i64 + dy * k * s) == Some(seat + 1) {
                    run.push((
                        (p.0 as i64 + dx * k * s) as usize,
                        (p.1 as i64 + dy * k * s) as usize,
                    ));
                    k += 1;
                }
            }
            run.sort_by_key(|&(x, y)| (x as i64 * dx + y as i64 * dy, y));
            out.push(run);
        }
        out
    }

    /// Plays `p`; `None` when it is illegal. Returns the new state.
    pub fn play(&self, p: Pt) -> Option<RefState> {
        self.play_inner(p, true)
    }

    /// Plays `p`; with `decide` false only the legality is decided (no outcome, no extension).
    fn play_inner(&self, p: Pt, decide: bool) -> Option<RefState> {
        if self.over.is_some() || self.grid[p.1][p.0] != 0 {
            return None;
        }
        let centre = self.rules.board_size / 2;
        let dist = p.0.abs_diff(centre).max(p.1.abs_diff(centre));
        let min = match self.rules.opening_rule {
            PenteOpening::Pro => 3,
            PenteOpening::LongPro => 4,
            _ => 0,
        };
        if min > 0 && ((self.moves == 0 && dist != 0) || (self.moves == 2 && dist < min)) {
            return None;
        }
        let mover = self.turn;
        let mut s = self.clone();
        s.grid[p.1][p.0] = mover + 1;
        s.moves += 1;
        let (caps, sui) = s.claims(p, mover);
        if self.rules.suicide == Suicide::Forbidden && !sui.is_empty() {
            return None;
        }
        let runs = s.runs_through(p, mover);
        let lines: Vec<Vec<Pt>> = runs
            .iter()
            .filter(|r| self.wins_len(r.len()))
            .cloned()
            .collect();
        let self_taken =
            self.rules.suicide == Suicide::Captured && sui.iter().any(|&(q, _)| q == p);
        if self.rules.overline == Overline::Forbidden
            && runs.iter().any(|r| r.len() > self.line_len())
            && !self_taken
        {
            return None;
        }
        let mut claims = caps;
        if self.rules.suicide == Suicide::Captured && lines.is_empty() {
            claims.extend(sui.iter().copied());
        }
        if let Some((_, ls, Some(cp))) = &self.ext
            && *cp == p
        {
            claims.extend(ls.iter().flatten().map(|&q| (q, mover)));
        }
        let mut credited = [false; 4];
        let mut removed: Vec<Pt> = claims.iter().map(|c| c.0).collect();
        removed.sort();
        removed.dedup();
        for &q in &removed {
            let mut by: Vec<u8> = claims.iter().filter(|c| c.0 == q).map(|c| c.1).collect();
            by.sort();
            by.dedup();
            let owner = s.grid[q.1][q.0] - 1;
            if by.len() == 1 && self.team(by[0]) != self.team(owner) {
                s.caps[by[0] as usize] += 1;
                credited[by[0] as usize] = true;
            }
        }
        for &q in &removed {
            s.grid[q.1][q.0] = 0;
        }
        // An extension move must break (or capture) every pending line.
        if let Some((maker, ls, cp)) = &self.ext {
            let ok = match cp {
                Some(c) => *c == p,
                None => ls.iter().all(|l| {
                    // the lengths of the maker's runs left on the line
                    let mut lens = Vec::new();
                    let mut r = 0;
                    for &(x, y) in l {
                        if s.grid[y][x] == maker + 1 {
                            r += 1;
                        } else {
                            lens.push(r);
                            r = 0;
                        }
                    }
                    lens.push(r);
                    !lens.iter().any(|&len| self.wins_len(len))
                }),
            };
            if !ok {
                return None;
            }
        }
        s.ext = None;
        s.turn = (mover + 1) % self.rules.players;
        if !decide {
            return Some(s);
        }
        let target = match (
            self.rules.capture_win,
            self.rules.players > 2 && !self.rules.teams,
            self.rules.three_capture,
        ) {
            (false, _, _) => None,
            (true, false, false) => Some(10),
            (true, false, true) => Some(15),
            (true, true, false) => Some(8),
            (true, true, true) => Some(12),
        };
        let mut winners: Vec<u8> = (0..self.rules.players)
            .filter(|&q| credited[q as usize] && target.is_some_and(|t| s.caps[q as usize] >= t))
            .collect();
        if !winners.is_empty() {
            let reason = if winners == [mover] && !lines.is_empty() {
                "line"
            } else {
                "captures"
            };
            if !lines.is_empty() {
                winners.push(mover);
            }
            s.over = Some((s.teams_of(&winners), reason));
            return Some(s);
        }
        if !lines.is_empty() {
            let inserted = self.rules.suicide == Suicide::Captured && !sui.is_empty();
            let next = s.turn + 1;
            let ext = match self.rules.extension {
                _ if inserted => None,
                Extension::Off => None,
                Extension::BreakLine => Some((mover, lines.clone(), None)),
                Extension::CaptureLine if lines.len() == 1 => {
                    let l = &lines[0];
                    let (a, b) = (l[0], l[l.len() - 1]);
                    let (dx, dy) = (b.0 as i64 - a.0 as i64, b.1 as i64 - a.1 as i64);
                    let (ux, uy) = (dx.signum(), dy.signum());
                    let e0 = (a.0 as i64 - ux, a.1 as i64 - uy);
                    let e1 = (b.0 as i64 + ux, b.1 as i64 + uy);
                    match (s.get(e0.0, e0.1), s.get(e1.0, e1.1)) {
                        (Some(x), Some(0)) if x == next => {
                            Some((mover, lines.clone(), Some((e1.0 as usize, e1.1 as usize))))
                        }
                        (Some(0), Some(x)) if x == next => {
                            Some((mover, lines.clone(), Some((e0.0 as usize, e0.1 as usize))))
                        }
                        _ => None,
                    }
                }
                Extension::CaptureLine => None,
            };
            if let Some(e) = ext {
                s.ext = Some(e);
                if s.any_legal() {
                    return Some(s);
                }
                s.ext = None;
            }
            s.over = Some((s.teams_of(&[mover]), "line"));
            return Some(s);
        }
        if s.grid.iter().flatten().all(|&v| v != 0) {
            s.over = Some((Vec::new(), "boardFull"));
        } else if !s.any_legal() {
            s.over = Some((Vec::new(), "noLegalMove"));
        }
        Some(s)
    }

    fn teams_of(&self, seats: &[u8]) -> Vec<u8> {
        (0..self.rules.players)
            .filter(|&q| seats.iter().any(|&w| self.team(w) == self.team(q)))
            .collect()
    }

    /// The legal moves, ascending by `y·size + x`.
    pub fn legal(&self) -> Vec<Pt> {
        let n = self.rules.board_size;
        (0..n * n)
            .map(|i| (i % n, i / n))
            .filter(|&p| self.play(p).is_some())
            .collect()
    }

    fn any_legal(&self) -> bool {
        let n = self.rules.board_size;
        (0..n * n).any(|i| self.play_inner((i % n, i / n), false).is_some())
    }
}
