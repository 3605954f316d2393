//! The Pente practice opponent.
//!
//! Two players: iterative-deepening alpha-beta (negamax with a transposition table) over the
//! best-scored candidate points ([`super::eval::move_score`]), the capture-aware evaluation of
//! [`super::eval`], and a threat search run first at the root:
//! - a side with an immediate win (a line or a capture reaching the target) takes it;
//! - a side facing an immediate win may only defend: occupy the winning point, capture stones
//!   out of the threatening line or away from the capturing bracket, or win first;
//! - the threat search ([`threat_win`]) looks for a sequence of threats (moves after which the
//!   attacker has an immediate win: fours, and capture threats near the target) where every
//!   defence, captures included, still loses.
//!
//! Deterministic for a node limit: no time, no randomness in the search itself; the low levels'
//! noise comes from an RNG seeded by the caller. A time limit may be given as well (then the
//! result depends on the machine).
//!
//! Three and four players: [`greedy_move`], a one-ply greedy player with a lookahead of the next
//! seat's immediate wins. Every move returned is legal ([`Position::play`] accepted it).

use std::time::Instant;

use rand_core::RngCore;

use super::auto_move::near_stone;
use super::eval::{evaluate, move_score};
use super::position::{DIRS8, Position};
use crate::rules::auto_move::uniform;

/// A won position's score (less the plies to the win).
pub const WIN: i32 = 1_000_000;
const MATE_BOUND: i32 = WIN - 10_000;

/// How hard the opponent thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PenteLimits {
    /// Deepest iteration of the alpha-beta search.
    pub max_depth: i32,
    /// Node limit (alpha-beta and threat search together).
    pub max_nodes: u64,
    /// Candidate points searched per node (the best by the quick score).
    pub width: usize,
    /// Plies of attacker moves in the threat search (0: off).
    pub threat_depth: u32,
    /// Root moves within this many points of the best are picked at random (0: the best).
    pub noise: i32,
}

/// The practice levels, 1 (weakest) to 5 (full strength).
pub fn level(level: u8) -> PenteLimits {
    let (max_depth, max_nodes, width, threat_depth, noise) = match level {
        0 | 1 => (1, 1_000, 8, 0, 400),
        2 => (2, 2_000, 8, 0, 60),
        3 => (2, 3_000, 8, 2, 0),
        4 => (4, 12_000, 10, 4, 0),
        _ => (5, 40_000, 10, 6, 0),
    };
    PenteLimits {
        max_depth,
        max_nodes,
        width,
        threat_depth,
        noise,
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PenteSearchResult {
    /// The move (`None` when the game is over or nothing is legal).
    pub best: Option<usize>,
    /// Its score for the seat to move.
    pub score: i32,
    /// The last completed depth (0: decided before the alpha-beta search).
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
}

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    depth: i8,
    flag: u8,
    best: u16,
    score: i32,
}

const TT_BITS: u32 = 16;
/// Captures tried per quiescence node.
const QUIESCENCE_WIDTH: usize = 6;
const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// The search state of one move choice.
pub struct PenteSearcher {
    limits: PenteLimits,
    deadline: Option<Instant>,
    nodes: u64,
    stop: bool,
    tt: Vec<TtEntry>,
}

/// The empty cells where `seat` would win at once (fast hint: lines and capture counts).
pub fn winning_cells(pos: &Position, seat: u8) -> Vec<usize> {
    (0..pos.cells().len())
        .filter(|&c| pos.cells()[c] == 0 && near_stone(pos, c, 1) && pos.wins_at(c, seat))
        .collect()
}

fn has_win(pos: &Position, seat: u8) -> bool {
    (0..pos.cells().len())
        .any(|c| pos.cells()[c] == 0 && near_stone(pos, c, 1) && pos.wins_at(c, seat))
}

/// A move of the seat to move that wins at once (checked by playing it).
fn immediate_win(pos: &mut Position) -> Option<usize> {
    let me = pos.turn();
    for c in winning_cells(pos, me) {
        if pos.play(c).is_ok() {
            let won = pos.outcome().is_some_and(|o| o.winners.contains(&me));
            pos.undo();
            if won {
                return Some(c);
            }
        }
    }
    None
}

/// The moves of the seat to move that leave the next seat no immediate win, among the
/// blocking points, the capturing points and the own winning points.
fn defences(pos: &mut Position) -> Vec<usize> {
    let me = pos.turn();
    let opp = pos.next_seat(me);
    let mut cand = winning_cells(pos, opp);
    for c in 0..pos.cells().len() {
        if pos.cells()[c] == 0 && pos.capture_count_at(c, me) > 0 && !cand.contains(&c) {
            cand.push(c);
        }
    }
    cand.retain(|&c| {
        if pos.play(c).is_err() {
            return false;
        }
        let ok = match pos.outcome() {
            Some(o) => o.winners.contains(&me),
            None => !has_win(pos, pos.turn()),
        };
        pos.undo();
        ok
    });
    cand.sort_by_key(|&c| -move_score(pos, c));
    cand
}

/// Whether `seat` playing `cell` threatens an immediate win (a four, or a capture threat that
/// would reach the target).
fn creates_threat(pos: &Position, cell: usize, seat: u8) -> bool {
    let len = pos.rules().line_len() as i32;
    let cells = pos.cells();
    for d in &DIRS8[..4] {
        for off in 0..len {
            let Some(start) = pos.neighbour(cell, *d, -off) else {
                continue;
            };
            if pos.neighbour(start, *d, len - 1).is_none() {
                continue;
            }
            let (mut mine, mut empty) = (1, 0);
            for k in 0..len {
                let c = pos.neighbour(start, *d, k).unwrap_or(cell);
                if c == cell {
                    continue;
                }
                match cells[c] {
                    0 => empty += 1,
                    v if v == seat + 1 => mine += 1,
                    _ => {}
                }
            }
            if mine == len - 1 && empty == 1 {
                return true;
            }
        }
    }
    let Some(target) = pos.rules().capture_target() else {
        return false;
    };
    let have = pos.captures()[seat as usize] + pos.capture_count_at(cell, seat);
    let sizes: &[i32] = if pos.rules().three_capture {
        &[2, 3]
    } else {
        &[2]
    };
    DIRS8.iter().any(|&d| {
        sizes.iter().any(|&k| {
            let group = (1..=k).all(|i| {
                pos.neighbour(cell, d, i)
                    .is_some_and(|c| cells[c] != 0 && cells[c] != seat + 1)
            });
            group
                && pos.neighbour(cell, d, k + 1).is_some_and(|c| cells[c] == 0)
                && have + k as u32 >= target
        })
    })
}

impl PenteSearcher {
    /// A searcher with these limits and an optional wall-clock deadline.
    pub fn new(limits: PenteLimits, deadline: Option<Instant>) -> PenteSearcher {
        PenteSearcher {
            limits,
            deadline,
            nodes: 0,
            stop: false,
            tt: vec![TtEntry::default(); 1 << TT_BITS],
        }
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limits.max_nodes {
            self.stop = true;
        }
        if self.nodes % 1024 == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stop = true;
        }
        self.stop
    }

    /// Candidate points of the seat to move, best quick score first.
    fn candidates(&self, pos: &mut Position, width: usize) -> Vec<usize> {
        if pos.extension().is_some() {
            return pos.legal_moves();
        }
        if pos.stones() == 0 {
            return vec![pos.centre()];
        }
        let me = pos.turn();
        let opp = pos.next_seat(me);
        let mut scored: Vec<(i32, usize)> = (0..pos.cells().len())
            .filter(|&c| pos.cells()[c] == 0 && near_stone(pos, c, 2))
            .map(|c| (move_score(pos, c), c))
            .collect();
        scored.sort_by_key(|&(s, c)| (-s, c));
        // Beyond the width: every point that makes a four (or a winning capture threat) for
        // either side — the attacks and the points that stop one.
        let mut out: Vec<usize> = Vec::with_capacity(width + 8);
        for (i, &(_, c)) in scored.iter().enumerate() {
            if i < width || creates_threat(pos, c, me) || creates_threat(pos, c, opp) {
                out.push(c);
            }
            if out.len() >= width + 8 {
                break;
            }
        }
        out
    }

    /// The threat search: a move of the seat to move that wins by continuous threats within
    /// `depth` attacker moves, whatever the defence.
    pub fn threat_win(&mut self, pos: &mut Position, depth: u32) -> Option<usize> {
        if self.tick() {
            return None;
        }
        if let Some(c) = immediate_win(pos) {
            return Some(c);
        }
        let me = pos.turn();
        if depth == 0 || has_win(pos, pos.next_seat(me)) {
            return None;
        }
        let mut threats: Vec<(i32, usize)> = (0..pos.cells().len())
            .filter(|&c| pos.cells()[c] == 0 && near_stone(pos, c, 2) && creates_threat(pos, c, me))
            .map(|c| (move_score(pos, c), c))
            .collect();
        threats.sort_by_key(|&(s, c)| (-s, c));
        threats.truncate(16);
        for (_, m) in threats {
            if pos.play(m).is_err() {
                continue;
            }
            let wins = self.threat_holds(pos, me, depth);
            pos.undo();
            if wins {
                return Some(m);
            }
            if self.stop {
                return None;
            }
        }
        None
    }

    /// After the attacker's threat move: whether every defence still loses.
    fn threat_holds(&mut self, pos: &mut Position, attacker: u8, depth: u32) -> bool {
        if let Some(o) = pos.outcome() {
            return o.winners == [attacker];
        }
        if pos.extension().is_some() || !has_win(pos, attacker) || has_win(pos, pos.turn()) {
            return false;
        }
        let defs = defences(pos);
        for d in defs {
            if pos.play(d).is_err() {
                continue;
            }
            let refuted = pos.outcome().is_some() || self.threat_win(pos, depth - 1).is_none();
            pos.undo();
            if refuted {
                return false;
            }
        }
        !self.stop
    }

    fn terminal_score(pos: &Position, ply: i32) -> Option<i32> {
        let o = pos.outcome()?;
        let me = pos.turn();
        Some(if o.winners.is_empty() {
            0
        } else if o.winners.contains(&me) {
            WIN - ply
        } else {
            -(WIN - ply)
        })
    }

    /// The capture quiescence search at the horizon: stand pat on the evaluation, or take
    /// stones (the best few captures), so that a pending exchange of captures is resolved
    /// before the position is judged.
    fn quiesce(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        let stand = evaluate(pos);
        if stand >= beta || ply >= 2 * self.limits.max_depth + 6 || pos.extension().is_some() {
            return stand;
        }
        alpha = alpha.max(stand);
        let me = pos.turn();
        let mut caps: Vec<(u32, usize)> = (0..pos.cells().len())
            .filter(|&c| pos.cells()[c] == 0 && near_stone(pos, c, 1))
            .filter_map(|c| {
                let k = pos.capture_count_at(c, me);
                (k > 0).then_some((k, c))
            })
            .collect();
        caps.sort_by_key(|&(k, c)| (std::cmp::Reverse(k), c));
        caps.truncate(QUIESCENCE_WIDTH);
        let mut best = stand;
        for (_, m) in caps {
            if pos.play(m).is_err() {
                continue;
            }
            let s = -self.negamax(pos, -1, -beta, -alpha, ply + 1);
            pos.undo();
            if self.stop {
                return 0;
            }
            best = best.max(s);
            alpha = alpha.max(s);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        if let Some(s) = Self::terminal_score(pos, ply) {
            return s;
        }
        if self.tick() {
            return 0;
        }
        let me = pos.turn();
        if pos.extension().is_none() && has_win(pos, me) && immediate_win(pos).is_some() {
            return WIN - ply - 1;
        }
        let threatened = has_win(pos, pos.next_seat(me));
        if depth <= 0 && (!threatened || ply >= 2 * self.limits.max_depth + 4) {
            return self.quiesce(pos, alpha, beta, ply);
        }
        let slot = (pos.hash() as usize) & ((1 << TT_BITS) - 1);
        let e = self.tt[slot];
        let mut tt_move = None;
        if e.key == pos.hash() && e.flag != 0 {
            tt_move = Some(e.best as usize);
            if i32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply);
                match e.flag {
                    EXACT => return s,
                    LOWER if s >= beta => return s,
                    UPPER if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut moves = if pos.extension().is_some() {
            pos.legal_moves()
        } else if threatened {
            let d = defences(pos);
            if d.is_empty() {
                return -(WIN - ply - 2);
            }
            d
        } else {
            self.candidates(pos, self.limits.width)
        };
        if let Some(t) = tt_move
            && let Some(i) = moves.iter().position(|&m| m == t)
        {
            moves[..=i].rotate_right(1);
        }
        let orig_alpha = alpha;
        let mut best = -WIN - 1;
        let mut best_move = moves.first().copied();
        for m in moves {
            if pos.play(m).is_err() {
                continue;
            }
            let s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1);
            pos.undo();
            if self.stop {
                return 0;
            }
            if s > best {
                best = s;
                best_move = Some(m);
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                break;
            }
        }
        if best == -WIN - 1 {
            return evaluate(pos);
        }
        let flag = if best <= orig_alpha {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.tt[slot] = TtEntry {
            key: pos.hash(),
            depth: depth.clamp(-1, 100) as i8,
            flag,
            best: best_move.unwrap_or(0) as u16,
            score: to_tt(best, ply),
        };
        best
    }

    /// Chooses a move for the seat to move (two players).
    pub fn search<R: RngCore>(&mut self, pos: &Position, rng: &mut R) -> PenteSearchResult {
        let mut pos = pos.clone();
        let mut result = PenteSearchResult {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if pos.outcome().is_some() {
            return result;
        }
        let legal_now = |pos: &mut Position, m: usize| pos.is_legal(m);
        if let Some(c) = immediate_win(&mut pos) {
            result.best = Some(c);
            result.score = WIN - 1;
            return result;
        }
        // Shallowest threat wins first, so the quickest win is played.
        for d in 1..=self.limits.threat_depth {
            if pos.extension().is_some() || self.stop {
                break;
            }
            if let Some(c) = self.threat_win(&mut pos, d) {
                self.stop = false;
                result.best = Some(c);
                result.score = WIN - 2 * d as i32;
                result.nodes = self.nodes;
                return result;
            }
        }
        self.stop = false;
        let me = pos.turn();
        let mut root = if pos.extension().is_some() {
            pos.legal_moves()
        } else if has_win(&pos, pos.next_seat(me)) {
            let d = defences(&mut pos);
            if d.is_empty() {
                self.candidates(&mut pos, self.limits.width + 6)
            } else {
                d
            }
        } else {
            self.candidates(&mut pos, self.limits.width + 6)
        };
        root.retain(|&m| legal_now(&mut pos, m));
        if root.is_empty() {
            root = pos.legal_moves();
        }
        let Some(&first) = root.first() else {
            return result;
        };
        result.best = Some(first);
        let mut scores: Vec<(i32, usize)> = root.iter().map(|&m| (0, m)).collect();
        for depth in 1..=self.limits.max_depth {
            let mut alpha = -WIN - 1;
            let mut iter: Vec<(i32, usize)> = Vec::new();
            for &(_, m) in &scores {
                if pos.play(m).is_err() {
                    continue;
                }
                let s = -self.negamax(&mut pos, depth - 1, -WIN - 1, -alpha.max(-WIN), 1);
                pos.undo();
                if self.stop {
                    break;
                }
                iter.push((s, m));
                alpha = alpha.max(s);
            }
            if self.stop && iter.is_empty() {
                break;
            }
            // Unsearched moves keep their place after the searched ones.
            for &(s, m) in &scores {
                if !iter.iter().any(|&(_, x)| x == m) {
                    iter.push((s.min(alpha - 1), m));
                }
            }
            iter.sort_by_key(|&(s, m)| (-s, m));
            scores = iter;
            result.best = Some(scores[0].1);
            result.score = scores[0].0;
            if !self.stop {
                result.depth = depth;
            }
            if self.stop || scores[0].0.abs() >= MATE_BOUND {
                break;
            }
        }
        if self.limits.noise > 0 && result.score.abs() < MATE_BOUND {
            let near: Vec<usize> = scores
                .iter()
                .filter(|&&(s, _)| s >= result.score - self.limits.noise)
                .map(|&(_, m)| m)
                .collect();
            result.best = Some(near[uniform(rng, near.len())]);
        }
        result.nodes = self.nodes;
        result
    }
}

fn to_tt(s: i32, ply: i32) -> i32 {
    if s >= MATE_BOUND {
        s + ply
    } else if s <= -MATE_BOUND {
        s - ply
    } else {
        s
    }
}

fn from_tt(s: i32, ply: i32) -> i32 {
    if s >= MATE_BOUND {
        s - ply
    } else if s <= -MATE_BOUND {
        s + ply
    } else {
        s
    }
}

/// Chooses a move at a practice level: the search for two players, [`greedy_move`] for more.
pub fn choose<R: RngCore>(
    pos: &Position,
    limits: PenteLimits,
    deadline: Option<Instant>,
    rng: &mut R,
) -> Option<usize> {
    if pos.rules().players > 2 {
        return greedy_move(&mut pos.clone(), rng);
    }
    PenteSearcher::new(limits, deadline).search(pos, rng).best
}

/// The 3–4 player move: an immediate win; else the best-scored candidate after which the next
/// seat has no immediate win (a one-ply lookahead); ties by the RNG. Always legal.
pub fn greedy_move<R: RngCore>(pos: &mut Position, rng: &mut R) -> Option<usize> {
    if pos.outcome().is_some() {
        return None;
    }
    if let Some(c) = immediate_win(pos) {
        return Some(c);
    }
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return None;
    }
    if pos.stones() == 0 && legal.contains(&pos.centre()) {
        return Some(pos.centre());
    }
    let mut scored: Vec<(i32, usize)> = legal
        .iter()
        .copied()
        .filter(|&c| near_stone(pos, c, 2) || pos.extension().is_some())
        .map(|c| (move_score(pos, c), c))
        .collect();
    if scored.is_empty() {
        scored = legal.iter().map(|&c| (0, c)).collect();
    }
    scored.sort_by_key(|&(s, c)| (-s, c));
    scored.truncate(12);
    let mut best: Vec<usize> = Vec::new();
    let mut best_score = i32::MIN;
    for (s, m) in scored {
        if pos.play(m).is_err() {
            continue;
        }
        let next = pos.turn();
        let s = if pos.outcome().is_some() {
            s
        } else if has_win(pos, next) {
            s - 50_000
        } else {
            s
        };
        pos.undo();
        if s > best_score {
            best_score = s;
            best.clear();
        }
        if s == best_score {
            best.push(m);
        }
    }
    if best.is_empty() {
        return legal.first().copied();
    }
    Some(best[uniform(rng, best.len())])
}

/// The capture-greedy one-ply player (the baseline of the strength measurement): an immediate
/// win, else the move capturing the most stones, else the best quick score; ties by the RNG.
pub fn capture_greedy_move<R: RngCore>(pos: &mut Position, rng: &mut R) -> Option<usize> {
    if let Some(c) = immediate_win(pos) {
        return Some(c);
    }
    let me = pos.turn();
    let legal = pos.legal_moves();
    let key = |pos: &Position, c: usize| {
        (
            pos.capture_count_at(c, me),
            if near_stone(pos, c, 2) || pos.stones() == 0 {
                move_score(pos, c)
            } else {
                i32::MIN
            },
        )
    };
    let best = legal.iter().map(|&c| key(pos, c)).max()?;
    let ties: Vec<usize> = legal.into_iter().filter(|&c| key(pos, c) == best).collect();
    Some(ties[uniform(rng, ties.len())])
}
