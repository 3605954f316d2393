//! The principal-variation search of one thread: iterative deepening, aspiration windows,
//! threat-driven move generation (a five to block is the only move; against an open three only
//! our fours and the points that stop it), transposition table, killer and history ordering,
//! late-move reductions, and a VCF step at the horizon ([`super::vcf`]). Mate scores count plies.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::Board;
use crate::core::{Color, GRID_CELLS, Pos};
use crate::eval::move_score;
use crate::params::SearchParams;
use crate::rules::ForbidChecker;
use crate::time::{Budget, Clock};

use super::threats::{Scan, candidate_moves, scan};
use super::tt::{Bound, ThreatCache, TranspositionTable};
use super::{InfoSink, SearchInfo};

/// The score of a win at ply 0; a win found at ply `n` scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this magnitude are wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 120;

/// Share of the optimum time used when the root has a single forced reply.
const FORCED_TIME_FACTOR: f64 = 0.25;
/// Share of the optimum time used once the best move has been stable for three iterations.
const STABLE_TIME_FACTOR: f64 = 0.6;

/// What move generation decided for a node.
enum NodeMoves {
    /// The node's value is known without searching moves.
    Done(i32),
    /// Search these moves (`forced`: a single reply that does not use up depth).
    Search {
        moves: Vec<(Pos, i32)>,
        forced: bool,
    },
}

/// The limits a thread searches under.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ThreadLimits {
    pub budget: Budget,
    pub max_depth: i32,
    pub max_nodes: Option<u64>,
    pub vcf_depth: u32,
    pub start_fraction: f64,
}

/// One search thread's state.
pub(crate) struct Searcher<'a> {
    pub(super) board: Board,
    pub(super) forbid: ForbidChecker,
    tt: &'a TranspositionTable,
    params: &'a SearchParams,
    stop: &'a AtomicBool,
    clock: &'a dyn Clock,
    start_ms: u64,
    limits: ThreadLimits,
    pub(super) nodes: u64,
    aborted: bool,
    killers: Vec<[Option<Pos>; 2]>,
    history: Vec<[i32; 2]>,
    pv: Vec<Vec<Pos>>,
    pub(super) vcf_cache: ThreatCache,
    pub(super) vcf_recording: bool,
    pub(super) vct_cache: ThreatCache,
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score + ply as i32
    } else if score < -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score - ply as i32
    } else if score < -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

impl<'a> Searcher<'a> {
    pub(crate) fn new(
        board: Board,
        tt: &'a TranspositionTable,
        params: &'a SearchParams,
        stop: &'a AtomicBool,
        clock: &'a dyn Clock,
        limits: ThreadLimits,
    ) -> Searcher<'a> {
        Searcher {
            board,
            forbid: ForbidChecker::default(),
            tt,
            params,
            stop,
            clock,
            start_ms: clock.now_ms(),
            limits,
            nodes: 0,
            aborted: false,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![[0; 2]; GRID_CELLS],
            pv: vec![Vec::new(); MAX_PLY + 2],
            vcf_cache: ThreatCache::new(),
            vcf_recording: false,
            vct_cache: ThreatCache::new(),
        }
    }

    pub(super) fn vcf_depth(&self) -> u32 {
        self.limits.vcf_depth
    }

    /// Lifts a finished search's stop so that `extra_nodes` more may be searched (the practice
    /// levels' root choice).
    pub(crate) fn extend_node_budget(&mut self, extra_nodes: u64) {
        self.aborted = self.stop.load(Ordering::Relaxed);
        self.limits.max_nodes = self.limits.max_nodes.map(|_| self.nodes + extra_nodes);
    }

    pub(super) fn node_limit(&self) -> Option<u64> {
        self.limits.max_nodes
    }

    pub(super) fn set_node_limit(&mut self, limit: Option<u64>) {
        self.limits.max_nodes = limit;
    }

    /// Clears an abort caused by a temporary node limit; a stop request or the time limit still
    /// count.
    pub(super) fn clear_abort_unless_stopped(&mut self) {
        self.aborted = self.stop.load(Ordering::Relaxed)
            || self.elapsed_ms() >= self.limits.budget.maximum_ms
            || self.limits.max_nodes.is_some_and(|m| self.nodes >= m);
    }

    /// Nodes searched so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    pub(crate) fn elapsed_ms(&self) -> u64 {
        self.clock.now_ms().saturating_sub(self.start_ms)
    }

    /// Whether `color` may play the empty point `p`.
    pub(super) fn legal(&mut self, p: Pos, color: Color) -> bool {
        !self.board.rule().has_forbidden(color)
            || self.forbid.check(&mut self.board, p, color).is_none()
    }

    pub(super) fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 255 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.elapsed_ms() >= self.limits.budget.maximum_ms)
        {
            self.aborted = true;
        }
        if self.limits.max_nodes.is_some_and(|m| self.nodes >= m) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Iterative deepening; reports each completed depth. Returns the best move and its info.
    pub(crate) fn iterate(
        &mut self,
        main: bool,
        first_depth: i32,
        sink: &mut dyn InfoSink,
    ) -> (Option<Pos>, SearchInfo) {
        let mut best: Option<Pos> = None;
        let mut info = SearchInfo::default();
        let mut score: i32 = 0;
        let mut stable = 0;
        // A single forced reply still gets searched (for its score), but briefly.
        let forced = self.root_is_forced();
        for depth in first_depth..=self.limits.max_depth {
            let window = self.params.aspiration_window;
            let (mut alpha, mut beta) = if depth >= 3 && score.abs() < WIN_THRESHOLD {
                (score - window, score + window)
            } else {
                (-WIN, WIN)
            };
            let s = loop {
                let s = self.negamax(depth, alpha, beta, 0);
                if self.aborted {
                    break s;
                }
                if s <= alpha && alpha > -WIN {
                    alpha = -WIN;
                } else if s >= beta && beta < WIN {
                    beta = WIN;
                } else {
                    break s;
                }
            };
            if self.aborted && best.is_some() {
                break;
            }
            let new_best = self.pv[0].first().copied();
            if new_best.is_none() && !self.aborted {
                // Decided without a move to show (a loss that no move avoids): nothing deeper
                // will change it.
                info = SearchInfo {
                    depth: depth as u32,
                    score: s,
                    nodes: self.nodes,
                    elapsed_ms: self.elapsed_ms(),
                    pv: Vec::new(),
                };
                break;
            }
            if new_best.is_some() {
                stable = if new_best == best { stable + 1 } else { 0 };
                best = new_best;
                score = s;
                info = SearchInfo {
                    depth: depth as u32,
                    score,
                    nodes: self.nodes,
                    elapsed_ms: self.elapsed_ms(),
                    pv: self.pv[0].clone(),
                };
                if main {
                    sink.report(&info);
                }
            }
            if self.aborted || score.abs() > WIN_THRESHOLD || !main {
                if self.aborted || score.abs() > WIN_THRESHOLD {
                    break;
                }
                continue;
            }
            // Time: stop early when the next depth is unlikely to finish, sooner when the best
            // move has been stable.
            let elapsed = self.elapsed_ms();
            let optimum = self.limits.budget.optimum_ms as f64
                * if forced {
                    FORCED_TIME_FACTOR
                } else if stable >= 3 {
                    STABLE_TIME_FACTOR
                } else {
                    1.0
                };
            if elapsed as f64 >= optimum * self.limits.start_fraction {
                break;
            }
        }
        info.nodes = self.nodes;
        info.elapsed_ms = self.elapsed_ms();
        (best, info)
    }

    fn negamax(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.count_node() {
            return 0;
        }
        if self.board.is_full() {
            return 0;
        }
        if ply >= MAX_PLY {
            return scan(
                &self.board,
                self.board.side_to_move(),
                self.params.tempo_percent,
            )
            .eval;
        }
        // Mate-distance pruning.
        alpha = alpha.max(-(WIN - ply as i32));
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let us = self.board.side_to_move();
        let s: Scan = scan(&self.board, us, self.params.tempo_percent);
        if let Some(&p) = s.us.fives.first() {
            self.pv[ply].push(p);
            return WIN - ply as i32 - 1;
        }
        let key = self.board.hash();
        let tt_hit = self.tt.probe(key);
        let mut tt_move = None;
        if let Some(hit) = tt_hit {
            tt_move = hit.mv.filter(|&m| self.board.is_empty(m));
            let sc = from_tt(hit.score, ply);
            if ply > 0 && hit.depth >= depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => sc >= beta,
                    Bound::Upper => sc <= alpha,
                };
                if cut {
                    if let Some(m) = tt_move {
                        self.pv[ply].push(m);
                    }
                    return sc;
                }
            }
        }

        // Razoring: a shallow non-PV node whose static evaluation is far below alpha is judged
        // by the horizon's step (VCF, defences against an open three, the evaluation).
        let prm = self.params;
        let depth = if depth > 0
            && depth <= prm.razor_max_depth
            && beta - alpha == 1
            && s.eval + prm.razor_margin * depth <= alpha
        {
            0
        } else {
            depth
        };
        let (mut moves, forced) = match self.generate(&s, us, depth, ply) {
            NodeMoves::Done(score) => return score,
            NodeMoves::Search { moves, forced } => (moves, forced),
        };
        // Ordering: TT move, killers, then pattern score plus history.
        let side = us.index();
        for m in moves.iter_mut() {
            let mut bonus = self.history[m.0.index()][side] / 8;
            if Some(m.0) == tt_move {
                bonus += 1 << 24;
            } else if self.killers[ply].contains(&Some(m.0)) {
                bonus += 1 << 16;
            }
            m.1 += bonus;
        }
        moves.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));

        let orig_alpha = alpha;
        let mut best_score = -WIN;
        let mut best_move = None;
        let new_depth = if forced { depth } else { depth - 1 };
        let pv_node = beta - alpha > 1;
        let lmp_limit = (prm.lmp_base + prm.lmp_factor * (depth * depth).max(0)) as usize;
        let futile =
            depth <= prm.futility_max_depth && s.eval + prm.futility_margin * depth.max(1) <= alpha;
        for (i, &(m, order)) in moves.iter().enumerate() {
            let quiet = order < self.params.quiet_order_threshold;
            // Move-count and futility pruning of quiet moves at shallow non-PV nodes.
            if !forced && !pv_node && quiet && i > 0 && best_score > -WIN_THRESHOLD {
                if depth <= prm.lmp_max_depth && i >= lmp_limit {
                    continue;
                }
                if futile {
                    continue;
                }
            }
            self.board.make_move(m, us);
            let mut score;
            if i == 0 {
                score = -self.negamax(new_depth, -beta, -alpha, ply + 1);
            } else {
                let p = self.params;
                let reduction =
                    if !forced && quiet && depth >= p.lmr_min_depth && i >= p.lmr_min_moves {
                        1 + (i >= p.lmr_deep_moves) as i32
                    } else {
                        0
                    };
                score = -self.negamax(new_depth - reduction, -alpha - 1, -alpha, ply + 1);
                if score > alpha && (reduction > 0 || score < beta) {
                    score = -self.negamax(new_depth, -beta, -alpha, ply + 1);
                }
            }
            self.board.undo_move();
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                        }
                        let h = &mut self.history[m.index()][side];
                        *h = (*h + depth * depth).min(1 << 14);
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best_score, ply), depth, bound);
        best_score
    }

    /// Threat-driven move generation for the side to move `us` (which has no five point): a
    /// five of the opponent's to block is the only move; an own straight four wins; against an
    /// open three only our fours and the points where the opponent makes a four; at the horizon
    /// a VCF check and the static evaluation; otherwise every legal candidate.
    fn generate(&mut self, s: &Scan, us: Color, depth: i32, ply: usize) -> NodeMoves {
        let them = us.opponent();
        if !s.them.fives.is_empty() {
            let mut blocks = s.them.fives.clone();
            blocks.sort();
            blocks.dedup();
            if blocks.len() >= 2 || !self.legal(blocks[0], us) {
                return NodeMoves::Done(-(WIN - ply as i32 - 2));
            }
            return NodeMoves::Search {
                moves: vec![(blocks[0], 0)],
                forced: true,
            };
        }
        let flex4: Vec<Pos> = s.us.flex4.to_vec();
        for p in flex4 {
            if self.legal(p, us) {
                self.pv[ply].push(p);
                return NodeMoves::Done(WIN - ply as i32 - 3);
            }
        }
        let their_flex4: Vec<Pos> = s.them.flex4.to_vec();
        let their_open_three = their_flex4.into_iter().any(|p| self.legal(p, them));
        let mut moves: Vec<(Pos, i32)>;
        if their_open_three {
            let mut defence: Vec<Pos> = s.us.fours.to_vec();
            defence.extend(s.them.fours.iter().copied());
            defence.sort();
            defence.dedup();
            moves = Vec::with_capacity(defence.len());
            for p in defence {
                if self.legal(p, us) {
                    moves.push((p, move_score(&self.board, p, us)));
                }
            }
            if moves.is_empty() {
                return NodeMoves::Done(-(WIN - ply as i32 - 4));
            }
            // Defences are searched a few plies past the horizon.
            if depth <= -self.params.defence_extension_plies {
                return NodeMoves::Done(s.eval);
            }
        } else {
            if depth <= 0 {
                if self.vcf_root(us) {
                    return NodeMoves::Done(WIN - ply as i32 - 50);
                }
                return NodeMoves::Done(s.eval);
            }
            let prm = self.params;
            if depth == 1
                && ply > 0
                && prm.vct_frontier_depth > 0
                && let Some(m) = self.vct_move(prm.vct_frontier_depth, prm.vct_frontier_nodes)
            {
                self.pv[ply].push(m);
                return NodeMoves::Done(WIN - ply as i32 - 60);
            }
            moves = candidate_moves(&self.board, us);
            moves.retain(|&(p, _)| !self.board.rule().has_forbidden(us) || self.legal(p, us));
        }
        if moves.is_empty() {
            return NodeMoves::Done(0);
        }
        NodeMoves::Search {
            moves,
            forced: false,
        }
    }

    /// An own winning point at the root: nothing to think about.
    pub(crate) fn winning_root_move(&mut self) -> Option<(Pos, i32)> {
        let us = self.board.side_to_move();
        let s = scan(&self.board, us, self.params.tempo_percent);
        s.us.fives.first().map(|&p| (p, WIN - 1))
    }

    /// Whether the root has a single reply: the block of the opponent's only winning point.
    fn root_is_forced(&mut self) -> bool {
        let us = self.board.side_to_move();
        let s = scan(&self.board, us, self.params.tempo_percent);
        let mut blocks = s.them.fives.clone();
        blocks.sort();
        blocks.dedup();
        s.us.fives.is_empty() && blocks.len() == 1
    }

    /// Scores the best root candidates (by move ordering) with a full-window search one ply
    /// shallower than `depth`, for the practice levels' random choice. Returns them with their
    /// scores; stops early when the search is stopped.
    pub(crate) fn root_scores(&mut self, depth: i32, count: usize) -> Vec<(Pos, i32)> {
        let us = self.board.side_to_move();
        let s = scan(&self.board, us, self.params.tempo_percent);
        if let Some(&p) = s.us.fives.first() {
            return vec![(p, WIN - 1)];
        }
        let mut moves = match self.generate(&s, us, depth.max(1), 0) {
            NodeMoves::Done(score) => {
                return self.pv[0]
                    .first()
                    .map(|&p| vec![(p, score)])
                    .unwrap_or_default();
            }
            NodeMoves::Search { moves, .. } => moves,
        };
        moves.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        moves.truncate(count.max(1));
        let mut out = Vec::with_capacity(moves.len());
        for (m, _) in moves {
            self.board.make_move(m, us);
            let score = -self.negamax(depth - 1, -WIN, WIN, 1);
            self.board.undo_move();
            if self.aborted {
                break;
            }
            out.push((m, score));
        }
        out
    }
}
