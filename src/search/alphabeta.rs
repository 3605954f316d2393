//! The principal-variation search of one thread: iterative deepening, aspiration windows,
//! threat-driven move generation (a five to block is the only move; against an open three only
//! our fours and the points that stop it; against a winning shape of the opponent's only the
//! points that undo it and our own threats; a winning shape of ours with no opponent four is a
//! win without search), transposition table, killer and history ordering, late-move
//! reductions, a VCF step at the horizon ([`super::vcf`]) and a root safety net (the best move
//! re-checked each iteration for an opponent's VCT). Mate scores count plies.

use std::sync::atomic::{AtomicBool, Ordering};

use smallvec::SmallVec;

use crate::board::Board;
use crate::core::{Color, Dir, GRID_CELLS, Pos};
use crate::eval::{PolicyScorer, move_score};
use crate::params::{HISTORY_MAX, SearchParams};
use crate::pattern::PatternKind;
use crate::pattern::cell::{CellSummary, ThreatSet};
use crate::rules::ForbidChecker;
use crate::time::{Budget, Clock};

use super::threats::{Scan, candidate_moves, scan};
use super::tt::{Bound, ThreatCache, TranspositionTable};
use super::{InfoSink, NodeKinds, SearchInfo};

/// The score of a win at ply 0; a win found at ply `n` scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this magnitude are wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 120;

/// The clock is read every this many nodes. A node of the threat searches can cost far more
/// than an alpha-beta node (a renju defender's replies are each made and checked), so the
/// interval is short: reading the clock costs tens of nanoseconds, a node microseconds.
const CLOCK_CHECK_NODES: u64 = 16;

/// Share of the optimum time used when the root has a single forced reply.
const FORCED_TIME_FACTOR: f64 = 0.25;
/// Share of the optimum time used once the best move has been stable for three iterations.
const STABLE_TIME_FACTOR: f64 = 0.6;
/// The optimum grows by this factor when the best move has just changed...
const UNSTABLE_TIME_FACTOR: f64 = 1.4;
/// ...and by this one when the score dropped by more than [`SCORE_DROP`] in one iteration.
const SCORE_DROP_TIME_FACTOR: f64 = 1.5;
/// A score drop that calls for more time.
const SCORE_DROP: i32 = 40;

/// What move generation decided for a node.
#[derive(Debug, PartialEq)]
enum NodeMoves {
    /// The node's value is known without searching moves.
    Done(i32),
    /// Search these moves (`forced`: a single reply that does not use up depth; `stand_pat`:
    /// the value the side to move may keep instead of any of them, past the horizon).
    Search {
        moves: Vec<(Pos, i32)>,
        forced: bool,
        stand_pat: Option<i32>,
    },
}

/// The part of the search a node belongs to ([`NodeKinds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NodeKind {
    /// The main search with depth left.
    Tree,
    /// The main search at or past the horizon.
    Horizon,
    /// A VCF search.
    Vcf,
    /// A VCT search (depth-first or by proof numbers).
    Vct,
}

/// The limits a thread searches under.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ThreadLimits {
    pub budget: Budget,
    pub max_depth: i32,
    pub max_nodes: Option<u64>,
    pub vcf_depth: u32,
    pub start_fraction: f64,
    pub useful_share: f64,
}

/// One search thread's state.
pub(crate) struct Searcher<'a> {
    pub(super) board: Board,
    pub(super) forbid: ForbidChecker,
    tt: &'a TranspositionTable,
    pub(super) params: &'a SearchParams,
    stop: &'a AtomicBool,
    clock: &'a dyn Clock,
    start_ms: u64,
    limits: ThreadLimits,
    pub(super) nodes: u64,
    /// Where the nodes went.
    node_kinds: NodeKinds,
    aborted: bool,
    killers: Vec<[Option<Pos>; 2]>,
    history: Vec<[i32; 2]>,
    /// For each point and side, the quiet move that last cut off after the opponent played
    /// there ([`SearchParams::counter_move`]).
    counters: Vec<[Option<Pos>; 2]>,
    pv: Vec<Vec<Pos>>,
    /// Each ply's own static evaluation (from its side to move), for
    /// [`SearchParams::eval_parent_percent`].
    evals: Vec<i32>,
    /// Each ply's potentials part of its evaluation (without the threat table's value).
    potentials: Vec<i32>,
    /// The best root move of the iteration in progress whose search completed, with its score
    /// (a lower bound): what an interrupted iteration leaves.
    root_best: Option<(Pos, i32)>,
    /// Root moves the safety net found losing to an opponent's VCT (skipped at the root while
    /// another move is left).
    root_dropped: SmallVec<[Pos; 8]>,
    /// Root moves the safety net found safe.
    root_safe: SmallVec<[(Pos, u64); 16]>,
    pub(super) vcf_cache: ThreatCache,
    pub(super) vcf_recording: bool,
    pub(super) vct_cache: ThreatCache,
    /// The proof-number VCT's table, allocated at its first use and kept from call to call,
    /// and the stamp of its current call ([`Searcher::vct_move_pn`]).
    pub(super) pn_table: Vec<super::pns::PnEntry>,
    pub(super) pn_stamp: u32,
    /// Per ply, the move a singular-extension test search leaves out
    /// ([`SearchParams::singular_min_depth`]).
    excluded: Vec<Option<Pos>>,
    /// Per ply, whether its node answers a threat without using up depth (a free reply;
    /// [`SearchParams::free_reply_payback`]).
    free_reply: Vec<bool>,
}

/// Whether `p` is `q` or lies on one of the four lines through `q` within `reach` cells of it.
pub(super) fn aligned_within(p: Pos, q: Pos, reach: usize) -> bool {
    let dx = p.x().abs_diff(q.x());
    let dy = p.y().abs_diff(q.y());
    dx.max(dy) <= reach && (dx == 0 || dy == 0 || dx == dy)
}

/// Whether `p` is near the move `q`: within two cells of it, or on one of its lines within four.
fn is_near_move(p: Pos, q: Pos) -> bool {
    let (dx, dy) = (p.x().abs_diff(q.x()), p.y().abs_diff(q.y()));
    dx.max(dy) <= 2 || aligned_within(p, q, 4)
}

/// The direction `d` and the signed offset `k` (1..=5 in size) with `q` lying `k` steps from
/// `p` along `d`, for distinct points `p` and `q` that are [`aligned_within`] 5 of each other.
fn line_offset(p: Pos, q: Pos) -> (Dir, isize) {
    let dx = q.x() as isize - p.x() as isize;
    let dy = q.y() as isize - p.y() as isize;
    debug_assert!((dx, dy) != (0, 0) && aligned_within(p, q, 5));
    if dy == 0 {
        (Dir::Horizontal, dx)
    } else if dx == 0 {
        (Dir::Vertical, dy)
    } else if dx == dy {
        (Dir::Diagonal, dx)
    } else {
        (Dir::AntiDiagonal, dx)
    }
}

/// Whether a cell's summary makes two fours or a four and an open three, and no straight four
/// (legality aside).
fn is_four_shape(sm: CellSummary) -> bool {
    sm.is_winning_shape() && sm.threat_mask() & ThreatSet::Flex4.bit() == 0
}

/// Whether a cell's summary makes a winning shape as [`Searcher::win_shape_points`] counts
/// them: a four shape or a double open three (straight-four points left out).
fn is_win_shape(sm: CellSummary) -> bool {
    sm.is_double_three() || is_four_shape(sm)
}

/// Moves picked one at a time (the best of the rest) before the rest of a list is sorted: most
/// nodes end after a few moves, and a cut-off spares the sort.
const PICKED_BEFORE_SORT: usize = 6;

/// What the pruning steps of move generation know of a node besides its position and depth.
#[derive(Clone, Copy)]
struct NodeBounds {
    /// The upper bound of the node's window.
    beta: i32,
    /// Whether the window is open (a PV node).
    pv: bool,
    /// Whether the side to move's evaluation is above its evaluation two plies before (always
    /// within the first two plies of the search, which have none to compare with).
    improving: bool,
}

/// The move ordering: higher score first, then lower index (a total order, so picking and
/// sorting give the same sequence).
fn move_order(a: &(Pos, i32), b: &(Pos, i32)) -> std::cmp::Ordering {
    b.1.cmp(&a.1).then(a.0.cmp(&b.0))
}

/// Puts the `i`-th move of the ordering at `moves[i]`, given the first `i` are in place: the
/// best of the rest for the first [`PICKED_BEFORE_SORT`] moves, then the rest sorted once.
fn pick_next(moves: &mut [(Pos, i32)], i: usize) {
    if i < PICKED_BEFORE_SORT {
        let mut best = i;
        for j in i + 1..moves.len() {
            if move_order(&moves[j], &moves[best]).is_lt() {
                best = j;
            }
        }
        moves.swap(i, best);
    } else if i == PICKED_BEFORE_SORT {
        moves[i..].sort_unstable_by(move_order);
    }
}

/// What a node's `score` searched with the window (`alpha`, `beta`) tells: a lower bound at or
/// above beta, an upper bound at or below alpha, the exact score between them.
fn bound_of(score: i32, alpha: i32, beta: i32) -> Bound {
    if score >= beta {
        Bound::Lower
    } else if score > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
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
            node_kinds: NodeKinds::default(),
            aborted: false,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![[0; 2]; GRID_CELLS],
            counters: vec![[None; 2]; GRID_CELLS],
            pv: vec![Vec::new(); MAX_PLY + 2],
            evals: vec![0; MAX_PLY + 2],
            potentials: vec![0; MAX_PLY + 2],
            root_best: None,
            root_dropped: SmallVec::new(),
            root_safe: SmallVec::new(),
            vcf_cache: ThreatCache::new(),
            vcf_recording: false,
            vct_cache: ThreatCache::new(),
            pn_table: Vec::new(),
            pn_stamp: 0,
            excluded: vec![None; MAX_PLY + 2],
            free_reply: vec![false; MAX_PLY + 2],
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

    /// Whether the search was stopped (by a stop request, the time or a node limit).
    pub(super) fn aborted(&self) -> bool {
        self.aborted
    }

    /// Nodes searched so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Where the nodes went so far.
    pub(crate) fn node_kinds(&self) -> NodeKinds {
        self.node_kinds
    }

    pub(crate) fn elapsed_ms(&self) -> u64 {
        self.clock.now_ms().saturating_sub(self.start_ms)
    }

    /// Whether `color` may play the empty point `p`.
    pub(super) fn legal(&mut self, p: Pos, color: Color) -> bool {
        !self.board.rule().has_forbidden(color)
            || self.forbid.check(&mut self.board, p, color).is_none()
    }

    pub(super) fn count_node(&mut self, kind: NodeKind) -> bool {
        self.nodes += 1;
        let k = &mut self.node_kinds;
        *match kind {
            NodeKind::Tree => &mut k.tree,
            NodeKind::Horizon => &mut k.horizon,
            NodeKind::Vcf => &mut k.vcf,
            NodeKind::Vct => &mut k.vct,
        } += 1;
        if self.nodes % CLOCK_CHECK_NODES == 0
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
        let mut last_iteration_ms = 0u64;
        let mut depth = first_depth;
        // Set when the safety net dropped the best move: the depth is searched again with a
        // full window.
        let mut redo = false;
        while depth <= self.limits.max_depth {
            let iteration_start = self.elapsed_ms();
            // The history of earlier iterations fades, so that a longer search does not let it
            // outgrow the pattern scores it is added to.
            let aging = self.params.history_aging_percent;
            if aging < 100 && depth > first_depth && !redo {
                for h in self.history.iter_mut().flatten() {
                    *h = *h * aging / 100;
                }
            }
            let window = self.params.aspiration_window;
            let (mut alpha, mut beta) = if depth >= 3 && score.abs() < WIN_THRESHOLD && !redo {
                (score - window, score + window)
            } else {
                (-WIN, WIN)
            };
            self.root_best = None;
            // A failed bound moves past the score by a growing margin, a few times, then
            // opens fully.
            let mut widenings_left = self.params.aspiration_widenings;
            let mut margin = window;
            let s = loop {
                let s = self.negamax(depth, alpha, beta, 0);
                if self.aborted {
                    break s;
                }
                let widen = widenings_left > 0 && s.abs() < WIN_THRESHOLD;
                if s <= alpha && alpha > -WIN {
                    alpha = if widen { (s - margin).max(-WIN) } else { -WIN };
                } else if s >= beta && beta < WIN {
                    beta = if widen { (s + margin).min(WIN) } else { WIN };
                } else {
                    break s;
                }
                widenings_left = widenings_left.saturating_sub(1);
                margin *= 2;
            };
            if self.aborted && best.is_some() {
                // An interrupted iteration still counts where it proved a root move at least as
                // good as the window it was searched with.
                if let Some((m, sc)) = self.root_best
                    && sc > -WIN_THRESHOLD
                {
                    best = Some(m);
                    info.score = sc;
                    info.pv = self.pv[0].clone();
                    if info.pv.first() != Some(&m) {
                        info.pv = vec![m];
                    }
                }
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
                    node_kinds: self.node_kinds,
                };
                break;
            }
            // The safety net: a best move after which the opponent wins by continuous threats
            // is dropped and the iteration searched again without it.
            if main
                && let Some(m) = new_best
                && s.abs() < WIN_THRESHOLD
                && self.drops_unsafe_root_move(m)
            {
                redo = true;
                continue;
            }
            redo = false;
            let previous_score = score;
            let changed = new_best.is_some() && best.is_some() && new_best != best;
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
                    node_kinds: self.node_kinds,
                };
                if main {
                    sink.report(&info);
                }
            }
            if self.aborted || score.abs() > WIN_THRESHOLD || !main {
                if self.aborted || score.abs() > WIN_THRESHOLD {
                    break;
                }
                depth += 1;
                continue;
            }
            // Time: stop once the optimum (scaled by how settled the search looks) has passed,
            // or when the next iteration would surely not finish before the maximum. More time
            // when the best move just changed or the score dropped; less when it is stable.
            let elapsed = self.elapsed_ms();
            let this_iteration_ms = elapsed - iteration_start;
            let budget = self.limits.budget;
            // An optimum equal to the maximum means that time not used now is lost (a turn
            // limit only): then only a forced reply thinks less.
            let flexible = budget.optimum_ms < budget.maximum_ms;
            let factor = if forced {
                FORCED_TIME_FACTOR
            } else if !flexible {
                1.0
            } else {
                let mut f = if stable >= 3 { STABLE_TIME_FACTOR } else { 1.0 };
                if changed {
                    f *= UNSTABLE_TIME_FACTOR;
                }
                if depth > first_depth + 2 && score < previous_score - SCORE_DROP {
                    f *= SCORE_DROP_TIME_FACTOR;
                }
                f
            };
            let optimum = (budget.optimum_ms as f64 * factor).min(budget.maximum_ms as f64);
            // The next iteration costs a few times this one; one that cannot even get through
            // `useful_share` of that before the maximum is not started (an interrupted
            // iteration still yields a move that beat the previous best).
            let growth = if last_iteration_ms > 0 {
                (this_iteration_ms as f64 / last_iteration_ms as f64).clamp(1.5, 6.0)
            } else {
                3.0
            };
            last_iteration_ms = this_iteration_ms.max(1);
            if elapsed as f64 >= optimum * self.limits.start_fraction
                || elapsed as f64 + this_iteration_ms as f64 * growth * self.limits.useful_share
                    > budget.maximum_ms as f64
            {
                // Time that a turn limit would leave unused goes into a last, deeper check of
                // the best move; if it loses, the depth is searched again without it.
                if !flexible
                    && let Some(m) = best
                    && self.drops_with_time_left(m)
                {
                    redo = true;
                    continue;
                }
                break;
            }
            depth += 1;
        }
        info.nodes = self.nodes;
        info.node_kinds = self.node_kinds;
        info.elapsed_ms = self.elapsed_ms();
        (best, info)
    }

    fn negamax(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        let kind = if depth > 0 {
            NodeKind::Tree
        } else {
            NodeKind::Horizon
        };
        if self.count_node(kind) {
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
        let mut s: Scan = scan(&self.board, us, self.params.tempo_percent);
        if let Some(&p) = s.us.fives.first() {
            self.pv[ply].push(p);
            return WIN - ply as i32 - 1;
        }
        // The evaluation mixed with the parent's (seen from our side).
        self.evals[ply] = s.eval;
        self.potentials[ply] = s.eval - s.threat_value;
        let improving = ply < 2 || self.evals[ply] > self.evals[ply - 2];
        let mix = self.params.eval_parent_percent;
        if ply > 0 && mix > 0 {
            s.eval = if self.params.eval_parent_potentials_only {
                (self.potentials[ply] * (100 - mix) - self.potentials[ply - 1] * mix) / 100
                    + s.threat_value
            } else {
                (s.eval * (100 - mix) - self.evals[ply - 1] * mix) / 100
            };
        }
        let key = self.board.hash();
        // At the horizon a VCF of ours is likely to be looked for: its cache slot is fetched
        // while the node is set up.
        if depth <= 0 {
            self.prefetch_vcf_horizon(us);
        }
        let tt_hit = self.tt.probe(key);
        let mut tt_move = None;
        // A singular-extension test of this node (the move it leaves out) neither takes a
        // stored score nor stores one.
        let excluded = self.excluded[ply];
        if let Some(hit) = tt_hit {
            tt_move = hit.mv.filter(|&m| self.board.is_empty(m));
            let sc = from_tt(hit.score, ply);
            if ply > 0 && excluded.is_none() && hit.depth >= depth {
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
            // A stored score whose bound places it nearer the truth than the evaluation.
            if self.params.tt_eval_refine && sc.abs() < WIN_THRESHOLD {
                let nearer = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => sc > s.eval,
                    Bound::Upper => sc < s.eval,
                };
                if nearer {
                    s.eval = sc;
                }
            }
        }
        // Internal iterative reduction: no stored move to try first, a ply less.
        let depth = if ply > 0
            && self.params.iir_min_depth > 0
            && depth >= self.params.iir_min_depth
            && tt_move.is_none()
        {
            depth - 1
        } else {
            depth
        };

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
        let pv_node = beta - alpha > 1;
        let (mut moves, forced, stand_pat) = match self.generate(
            &s,
            us,
            depth,
            ply,
            NodeBounds {
                beta,
                pv: pv_node,
                improving,
            },
        ) {
            NodeMoves::Done(score) => {
                // A node decided without a move loop (the horizon, reverse futility, a won or
                // lost shape) is stored too, so a transposition need not decide it again; a
                // deeper result for the same position stays.
                if self.params.tt_store_leaves
                    && excluded.is_none()
                    && tt_hit.is_none_or(|h| h.depth <= depth)
                {
                    let bound = bound_of(score, alpha, beta);
                    self.tt.store(key, tt_move, to_tt(score, ply), depth, bound);
                }
                return score;
            }
            NodeMoves::Search {
                moves,
                forced,
                stand_pat,
            } => (moves, forced, stand_pat),
        };
        if depth <= 0 {
            self.node_kinds.horizon_searched += 1;
        }
        // Ordering: TT move, killers, then pattern score (less for moves far from the last
        // two) plus history.
        let side = us.index();
        let far_percent = self.params.far_move_percent;
        let recent: SmallVec<[Pos; 2]> = if far_percent < 100 {
            self.board
                .history()
                .iter()
                .rev()
                .take(2)
                .map(|&(p, _)| p)
                .collect()
        } else {
            SmallVec::new()
        };
        // The move that last refuted the opponent's previous move here.
        let last = self.board.history().last().map(|&(p, _)| p);
        let counter = match last {
            Some(p) if self.params.counter_move => self.counters[p.index()][side],
            _ => None,
        };
        // Moves are sorted by the fitted score (or the hand-set one) with the bonuses; which are
        // quiet is told by the hand-set score with the bonuses (the history's only with
        // `history_quiet`): the flag rides in the lowest bit of the sort key.
        let policy = self.params.policy_ordering;
        // The best fitted score among the moves, which the policy margins count from.
        let mut top_policy = i32::MIN;
        let scorer = policy.then(|| PolicyScorer::new(&self.board, us));
        for m in moves.iter_mut() {
            let history = self.history[m.0.index()][side] / self.params.history_order_divisor;
            let refutation = if Some(m.0) == tt_move {
                1 << 24
            } else if self.killers[ply].contains(&Some(m.0)) {
                1 << 16
            } else if Some(m.0) == counter {
                1 << 15
            } else {
                0
            };
            let mut key = if let Some(scorer) = &scorer {
                let score = scorer.score(&self.board, m.0);
                top_policy = top_policy.max(score);
                score
            } else {
                m.1
            };
            if !recent.is_empty() && !recent.iter().any(|&r| is_near_move(m.0, r)) {
                key = key * far_percent / 100;
                m.1 = m.1 * far_percent / 100;
            }
            let quiet_bonus = refutation
                + if self.params.history_quiet {
                    history.min(self.params.history_quiet_cap)
                } else {
                    0
                };
            let quiet = m.1 + quiet_bonus < self.params.quiet_order_threshold;
            m.1 = (key + refutation + history) * 2 + quiet as i32;
        }

        let orig_alpha = alpha;
        let mut best_score = -WIN;
        let mut best_move = None;
        if let Some(value) = stand_pat {
            best_score = value;
            alpha = alpha.max(value);
        }
        let new_depth = if forced { depth } else { depth - 1 };
        self.free_reply[ply] = forced;
        // The move that led here was a free reply to our threat: our quiet moves pay its ply.
        let payback = prm.free_reply_payback && ply > 0 && self.free_reply[ply - 1] && !forced;
        let lmp_limit = prm.lmp_limit(depth, improving);
        let likely_fail_high = prm.fail_high_margin > 0
            && !pv_node
            && !forced
            && depth >= 2
            && beta.abs() < WIN_THRESHOLD
            && s.eval >= beta + prm.fail_high_margin * depth;
        let futile =
            depth <= prm.futility_max_depth && s.eval + prm.futility_margin * depth.max(1) <= alpha;
        let skip_dropped = ply == 0
            && !self.root_dropped.is_empty()
            && moves.iter().any(|m| !self.root_dropped.contains(&m.0));
        // Quiet moves searched without a cutoff, for the history malus.
        let mut tried_quiet: SmallVec<[Pos; 32]> = SmallVec::new();
        for i in 0..moves.len() {
            pick_next(&mut moves, i);
            let (m, order) = moves[i];
            if (skip_dropped && self.root_dropped.contains(&m)) || Some(m) == excluded {
                continue;
            }
            let quiet = order & 1 == 1;
            // How far the move's fitted score lies below the best one's (0 without them).
            let policy_gap = if policy
                && quiet
                && (prm.policy_reduction_margin > 0
                    || prm.policy_prune_margin > 0
                    || prm.policy_lmr_step > 0)
            {
                top_policy - scorer.as_ref().map_or(0, |s| s.score(&self.board, m))
            } else {
                0
            };
            // Move-count and futility pruning of quiet moves at shallow non-PV nodes.
            if !forced && !pv_node && quiet && i > 0 && best_score > -WIN_THRESHOLD {
                if depth <= prm.lmp_max_depth && i >= lmp_limit {
                    continue;
                }
                if prm.policy_prune_margin > 0
                    && depth <= prm.lmp_max_depth
                    && policy_gap > prm.policy_prune_margin
                {
                    continue;
                }
                if futile {
                    continue;
                }
            }
            // Singular extension: the stored best move is searched a ply deeper when every
            // other move fails below its stored score by a margin at half the depth; when
            // another move reaches that margin and it is at least beta, the node cuts.
            let mut extension = 0;
            if i == 0
                && prm.singular_min_depth > 0
                && depth >= prm.singular_min_depth
                && ply > 0
                && ply < MAX_PLY / 4
                && !forced
                && excluded.is_none()
                && Some(m) == tt_move
                && let Some(hit) = tt_hit
                && hit.bound != Bound::Upper
                && hit.depth >= depth - 3
                && from_tt(hit.score, ply).abs() < WIN_THRESHOLD
            {
                let singular_beta = from_tt(hit.score, ply) - prm.singular_margin * depth;
                self.excluded[ply] = Some(m);
                let value = self.negamax(depth / 2, singular_beta - 1, singular_beta, ply);
                self.excluded[ply] = None;
                self.pv[ply].clear();
                if self.aborted {
                    return 0;
                }
                if value < singular_beta {
                    extension = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
            // A counter-threat among the free defences uses a ply (a five's block stays free).
            let new_depth = if forced
                && prm.counter_threat_ply
                && s.them.fives.is_empty()
                && (self.board.in_threat_set(m, us, ThreatSet::Four)
                    || self.board.in_threat_set(m, us, ThreatSet::Three))
            {
                depth - 1
            } else {
                new_depth
            };
            let new_depth = if payback && !self.makes_threat(m, us) {
                new_depth - 1
            } else {
                new_depth
            };
            // The child's table slot is fetched while the move is made.
            self.tt.prefetch(self.board.hash_after(m, us));
            self.board.make_move(m, us);
            let mut score;
            if i == 0 {
                score = -self.negamax(new_depth + extension, -beta, -alpha, ply + 1);
            } else {
                let p = self.params;
                let reduction =
                    if !forced && quiet && depth >= p.lmr_min_depth && i >= p.lmr_min_moves {
                        let r = p.lmr_plies(depth, i);
                        let r = if r > 1 && !improving {
                            r + p.lmr_not_improving_plies
                        } else {
                            r
                        };
                        r + (p.policy_reduction_margin > 0
                            && policy_gap > p.policy_reduction_margin)
                            as i32
                            + p.policy_plies(policy_gap)
                    } else {
                        0
                    } + (likely_fail_high && quiet) as i32;
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
                    if ply == 0 {
                        self.root_best = Some((m, score));
                    }
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
                            if let Some(p) = last.filter(|_| self.params.counter_move) {
                                self.counters[p.index()][side] = Some(m);
                            }
                        }
                        let h = &mut self.history[m.index()][side];
                        *h = (*h + depth * depth).min(HISTORY_MAX);
                        if self.params.history_malus {
                            for q in &tried_quiet {
                                let h = &mut self.history[q.index()][side];
                                *h = (*h - depth * depth).max(-HISTORY_MAX);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && self.params.history_malus {
                tried_quiet.push(m);
            }
        }
        if excluded.is_none() {
            let bound = bound_of(best_score, orig_alpha, beta);
            let mv = if bound == Bound::Upper && !self.params.fail_low_tt_move {
                tt_move
            } else {
                best_move
            };
            self.tt.store(key, mv, to_tt(best_score, ply), depth, bound);
        }
        best_score
    }

    /// Threat-driven move generation for the side to move `us` (which has no five point): a
    /// five of the opponent's to block is the only move; an own straight four wins; against an
    /// open three only our fours and the points where the opponent makes a four; at the horizon
    /// a VCF check and the static evaluation; otherwise every legal candidate.
    fn generate(
        &mut self,
        s: &Scan,
        us: Color,
        depth: i32,
        ply: usize,
        node: NodeBounds,
    ) -> NodeMoves {
        let NodeBounds {
            beta,
            pv: pv_node,
            improving,
        } = node;
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
                stand_pat: None,
            };
        }
        let flex4: Vec<Pos> = s.us.flex4.to_vec();
        for p in flex4 {
            if self.legal(p, us) {
                self.pv[ply].push(p);
                return NodeMoves::Done(WIN - ply as i32 - 3);
            }
        }
        // Quick win: a shape that wins by force (two fours, a four and an open three, a double
        // open three) while the opponent has no four to gain a tempo with.
        if s.them.fours.is_empty()
            && !self.board.rule().has_forbidden(us)
            && let Some(&p) = self.win_shape_points(us).first()
        {
            self.pv[ply].push(p);
            return NodeMoves::Done(WIN - ply as i32 - 5);
        }
        let their_open_three = self.has_open_three(them);
        let their_shapes = if their_open_three {
            SmallVec::new()
        } else {
            self.win_shape_points(them)
        };
        let mut moves: Vec<(Pos, i32)>;
        if !their_shapes.is_empty() {
            // The opponent threatens a winning shape: only the moves after which no such shape
            // is left, and our own fours and threes.
            moves = self.shape_defences(us, &their_shapes);
            if moves.is_empty() {
                return NodeMoves::Done(-(WIN - ply as i32 - 6));
            }
            if depth <= -self.params.shape_extension_plies {
                return NodeMoves::Done(s.eval);
            }
        } else if their_open_three {
            // Our fours, and the points that leave the opponent no straight four.
            let mut defence: SmallVec<[Pos; 32]> = s.us.fours.iter().copied().collect();
            defence.retain(|p| self.legal(*p, us));
            for p in self.three_blocks(us) {
                if !defence.contains(&p) {
                    defence.push(p);
                }
            }
            moves = defence
                .into_iter()
                .map(|p| (p, move_score(&self.board, p, us)))
                .collect();
            if moves.is_empty() {
                return NodeMoves::Done(-(WIN - ply as i32 - 4));
            }
            // Defences are searched a few plies past the horizon.
            if depth <= -self.params.defence_extension_plies {
                return NodeMoves::Done(s.eval);
            }
        } else {
            if depth <= 0
                && depth > -self.params.horizon_vcf_defence_plies
                && let Some(line) = self.vcf_local_line(them)
            {
                // The opponent wins by fours unless we win first or break its line: our VCF,
                // else the defences (the line's points and our fours), each searched on.
                if self.vcf_local(us) {
                    return NodeMoves::Done(WIN - ply as i32 - 50);
                }
                let mut defence: Vec<(Pos, i32)> = Vec::with_capacity(line.len() + 8);
                for p in line.into_iter().chain(s.us.fours.iter().copied()) {
                    if self.board.is_empty(p)
                        && !defence.iter().any(|&(q, _)| q == p)
                        && self.legal(p, us)
                    {
                        defence.push((p, move_score(&self.board, p, us)));
                    }
                }
                if defence.is_empty() {
                    return NodeMoves::Done(-(WIN - ply as i32 - 50));
                }
                return NodeMoves::Search {
                    moves: defence,
                    forced: false,
                    stand_pat: None,
                };
            }
            if depth <= 0 {
                // Standing pat: an evaluation that already reaches beta needs no VCF to fail
                // high.
                if self.params.horizon_vcf_below_beta && s.eval >= beta {
                    return NodeMoves::Done(s.eval);
                }
                let won = self.vcf_horizon(us);
                if won {
                    return NodeMoves::Done(WIN - ply as i32 - 50);
                }
                // Quiescence by fours: a four (answered by its block) may still raise the
                // value above the evaluation.
                let four_plies = self.params.horizon_four_plies;
                if four_plies > 0 && depth > -four_plies && s.eval < beta && !s.us.fours.is_empty()
                {
                    let mut fours: Vec<(Pos, i32)> = Vec::with_capacity(s.us.fours.len());
                    for &p in s.us.fours.iter() {
                        if self.legal(p, us) {
                            fours.push((p, move_score(&self.board, p, us)));
                        }
                    }
                    if !fours.is_empty() {
                        return NodeMoves::Search {
                            moves: fours,
                            forced: false,
                            stand_pat: Some(s.eval),
                        };
                    }
                }
                return NodeMoves::Done(s.eval);
            }
            let prm = self.params;
            // Reverse futility: nothing to answer, and the evaluation beats beta by a margin
            // the opponent is not expected to make up within the remaining plies.
            if !pv_node
                && depth <= prm.static_beta_max_depth
                && beta.abs() < WIN_THRESHOLD
                && s.eval
                    - prm.static_beta_margin
                        * (depth
                            - improving as i32 * prm.static_beta_improving_plies
                            - prm.static_beta_free_plies)
                            .max(0)
                    >= beta
            {
                return NodeMoves::Done(s.eval);
            }
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
        // A threat with few defences is answered without using up depth (the threat's maker
        // used a ply), so threat sequences are searched to their end.
        let defending = their_open_three || !their_shapes.is_empty();
        let prm = self.params;
        let forced = defending
            && depth > 0
            && moves.len() <= prm.threat_extension_moves as usize
            && (prm.threat_extension_max_depth == 0 || depth <= prm.threat_extension_max_depth);
        NodeMoves::Search {
            moves,
            forced,
            stand_pat: None,
        }
    }

    /// Whether a stone of `color` on the empty point `p` makes a four (straight or not) or an
    /// open three.
    fn makes_threat(&self, p: Pos, color: Color) -> bool {
        self.board.in_threat_set(p, color, ThreatSet::Four)
            || self.board.in_threat_set(p, color, ThreatSet::Three)
    }

    /// Whether `color` has a legal straight-four point (an open three).
    pub(super) fn has_open_three(&mut self, color: Color) -> bool {
        if self.board.threat_count(color, ThreatSet::Flex4) == 0 {
            return false;
        }
        let points: SmallVec<[Pos; 8]> =
            self.board.threat_points(color, ThreatSet::Flex4).collect();
        points.into_iter().any(|p| self.legal(p, color))
    }

    /// The legal moves of `defender` that stop every open three of the opponent: the
    /// opponent's four points (every point that stops a straight four is one) after which the
    /// opponent has no straight four to make. The defender's own fours are the caller's
    /// business. Each candidate is decided from the line tables where that is exact (see
    /// [`Searcher::stops_every_straight_four`]), else by making the move.
    pub(super) fn three_blocks(&mut self, defender: Color) -> SmallVec<[Pos; 8]> {
        let attacker = defender.opponent();
        // A point that stops the straight four at `f` is `f` itself or lies on one of its
        // lines within five cells: only such four points of the attacker's are tried.
        let all_flex4: SmallVec<[Pos; 8]> = self
            .board
            .threat_points(attacker, ThreatSet::Flex4)
            .collect();
        let flex4: SmallVec<[Pos; 8]> = all_flex4
            .iter()
            .copied()
            .filter(|&f| self.legal(f, attacker))
            .collect();
        let candidates: SmallVec<[Pos; 32]> = self
            .board
            .threat_points(attacker, ThreatSet::Four)
            .filter(|&p| flex4.iter().all(|&f| aligned_within(p, f, 5)))
            .collect();
        // The line tables decide each candidate exactly unless the attacker has a five point
        // (a five point is no straight-four point, and in caro a defence may take the five
        // away and leave one) or forbidden points (a defence may change their legality). With
        // forbidden points they still decide a candidate that leaves no straight-four point at
        // all, legal or not.
        let no_five = self.board.threat_count(attacker, ThreatSet::Five) == 0;
        let restricted = self.board.rule().has_forbidden(attacker);
        let mut out = SmallVec::new();
        for p in candidates {
            // What the tables decide (None: the move must be made), before the legality check
            // that only the points they do not rule out need.
            let by_tables = if no_five && !restricted {
                Some(self.stops_every_straight_four(p, defender, &flex4))
            } else {
                (no_five
                    && all_flex4.iter().all(|&f| aligned_within(p, f, 5))
                    && self.stops_every_straight_four(p, defender, &all_flex4))
                .then_some(true)
            };
            if by_tables == Some(false) || !self.legal(p, defender) {
                continue;
            }
            let stops = by_tables.unwrap_or_else(|| {
                self.board.make_light_move(p, defender);
                let stops = !self.has_open_three(attacker);
                self.board.undo_light_move();
                stops
            });
            if stops {
                out.push(p);
            }
        }
        out
    }

    /// Whether a stone of `defender` on the empty point `p` leaves the attacker none of its
    /// straight-four points `flex4` (all of them, each aligned with `p` within five cells),
    /// decided from the line tables without making the move. Exact when the attacker has no
    /// forbidden points (every straight-four point is legal) and no five point: the stone
    /// changes only the one line of each point through `p`, and an opponent stone never makes a
    /// straight four on a line (see the pattern table's tests), so the only points that can be
    /// straight-four points after it are those of `flex4` that keep one. Where the attacker has
    /// forbidden points, a `true` for all its straight-four points, legal or not, is still
    /// exact: none is left for the defence to make legal.
    fn stops_every_straight_four(&self, p: Pos, defender: Color, flex4: &[Pos]) -> bool {
        let attacker = defender.opponent();
        flex4.iter().all(|&f| {
            f == p || {
                let (d, k) = line_offset(f, p);
                let mask = self
                    .board
                    .threat_mask_with_opponent_stone(f, d, attacker, k);
                mask & ThreatSet::Flex4.bit() == 0
            }
        })
    }

    /// The legal points where `color` makes a shape that wins with one more move unless the
    /// other side has fours: two fours, a four and an open three, or two open threes (straight
    /// four points are the open threes' business and are left out).
    pub(super) fn win_shape_points(&mut self, color: Color) -> SmallVec<[Pos; 4]> {
        let mut points = self.shape_points_legal_or_not(color);
        points.retain(|p| self.legal(*p, color));
        points
    }

    /// The points of [`Searcher::win_shape_points`] before the legality check.
    fn shape_points_legal_or_not(&self, color: Color) -> SmallVec<[Pos; 4]> {
        let mut points: SmallVec<[Pos; 4]> = SmallVec::new();
        for set in [ThreatSet::Four, ThreatSet::Three] {
            if self.board.threat_count(color, set) == 0 {
                continue;
            }
            for p in self.board.threat_points(color, set) {
                if is_win_shape(self.board.summary(p, color)) && !points.contains(&p) {
                    points.push(p);
                }
            }
        }
        points
    }

    /// The defences of `us` against the opponent's winning-shape points `shapes`: our fours and
    /// open threes (threats that may win a tempo before the shape is played), and the points on
    /// the shapes' lines after which the opponent has no winning shape left. With their
    /// move-ordering scores.
    pub(super) fn shape_defences(&mut self, us: Color, shapes: &[Pos]) -> Vec<(Pos, i32)> {
        self.defences_against_shapes(us, shapes, false)
    }

    /// The legal points where `color` makes two fours or a four and an open three (no straight
    /// four), and where the other side's block of that four would not make a four of its own:
    /// shapes that win by force unless the other side has a four to play first.
    pub(super) fn four_shape_points(&mut self, color: Color) -> SmallVec<[Pos; 4]> {
        let mut points: SmallVec<[Pos; 4]> = SmallVec::new();
        if self.board.threat_count(color, ThreatSet::Four) == 0 {
            return points;
        }
        for p in self.board.threat_points(color, ThreatSet::Four) {
            if self.is_four_shape(p, color) && self.blocks_are_quiet(p, color) {
                points.push(p);
            }
        }
        points.retain(|p| self.legal(*p, color));
        points
    }

    /// Whether a stone of `color` on the empty point `p` makes two fours or a four and an open
    /// three, and no straight four (legality aside).
    pub(super) fn is_four_shape(&self, p: Pos, color: Color) -> bool {
        is_four_shape(self.board.summary(p, color))
    }

    /// The empty points where `color` would complete a five once it has played the empty point
    /// `p`: the completions of its fours through `p` (from the line tables, no move made).
    pub(super) fn completions_after(&self, p: Pos, color: Color) -> SmallVec<[Pos; 4]> {
        let mut out = SmallVec::new();
        for d in Dir::ALL {
            if self.board.pattern(p, d, color).four_count() == 0 {
                continue;
            }
            for k in (-4..=4isize).filter(|&k| k != 0) {
                let c = p.shifted_index(d, k);
                if self.board.cell_code(c) != crate::pattern::CELL_EMPTY {
                    continue;
                }
                let c = Pos::from_index(c);
                if self.board.pattern_with_stone(c, d, color, -k).kind() == PatternKind::Five
                    && !out.contains(&c)
                {
                    out.push(c);
                }
            }
        }
        out
    }

    /// Whether no block of the fours that `color` makes on `p` is a four point of the other
    /// side (a block that makes a four would win the tempo back).
    pub(super) fn blocks_are_quiet(&self, p: Pos, color: Color) -> bool {
        let other = color.opponent();
        self.completions_after(p, color).into_iter().all(|c| {
            Dir::ALL
                .into_iter()
                .all(|d| self.board.pattern(c, d, other).four_count() == 0)
        })
    }

    /// The defences of `us` against the opponent's four-shape points `shapes` (see
    /// [`Searcher::four_shape_points`]): our fours, and the points after which the opponent has
    /// no four shape left — on the first shape's lines, or points that make a block of its
    /// four one of our four points. A four shape is played as its four first, so our open
    /// threes come too late to matter. With their move-ordering scores.
    pub(super) fn four_shape_defences(&mut self, us: Color, shapes: &[Pos]) -> Vec<(Pos, i32)> {
        self.defences_against_shapes(us, shapes, true)
    }

    /// [`Searcher::shape_defences`] (`four_shapes` false) or
    /// [`Searcher::four_shape_defences`] (true).
    fn defences_against_shapes(
        &mut self,
        us: Color,
        shapes: &[Pos],
        four_shapes: bool,
    ) -> Vec<(Pos, i32)> {
        let them = us.opponent();
        let mut cells: SmallVec<[Pos; 64]> = SmallVec::new();
        // Every defence stops the first shape, so it lies on that shape's lines (or is the
        // shape point itself); the second shape's lines are added for the move ordering's sake.
        for &p in shapes.iter().take(2) {
            for d in Dir::ALL {
                // Only the lines that make the shape: those where the opponent gets a three
                // or a four at `p`.
                let pattern = self.board.pattern(p, d, them);
                if pattern.kind() < PatternKind::Flex3 && pattern.four_count() == 0 {
                    continue;
                }
                for k in -5..=5isize {
                    let q = p.shifted_index(d, k);
                    if self.board.cell_code(q) == crate::pattern::CELL_EMPTY {
                        let q = Pos::from_index(q);
                        if !cells.contains(&q) {
                            cells.push(q);
                        }
                    }
                }
            }
        }
        // Against a four shape, also the points that make a block of the first shape's four a
        // four point of ours.
        if four_shapes && let Some(&p) = shapes.first() {
            for c in self.completions_after(p, them) {
                for d in Dir::ALL {
                    for k in (-4..=4isize).filter(|&k| k != 0) {
                        let r = c.shifted_index(d, k);
                        if self.board.cell_code(r) != crate::pattern::CELL_EMPTY
                            || self.board.pattern_with_stone(c, d, us, k).four_count() == 0
                        {
                            continue;
                        }
                        let r = Pos::from_index(r);
                        if !cells.contains(&r) {
                            cells.push(r);
                        }
                    }
                }
            }
        }
        // Our threats that may win a tempo (a block of the shape's four that makes a four of
        // ours answers it): fours, and against any shape also open threes.
        let own_threats: SmallVec<[Pos; 32]> = if four_shapes {
            self.board.threat_points(us, ThreatSet::Four).collect()
        } else {
            self.own_threat_points(us)
        };
        let mut moves: Vec<(Pos, i32)> = Vec::with_capacity(cells.len() + own_threats.len());
        for &q in own_threats.iter() {
            if !cells.contains(&q) {
                cells.push(q);
            }
        }
        // The line tables decide each point against winning shapes when the opponent has no
        // forbidden points (our stone cannot change their legality), no five and no straight
        // four point: see [`Searcher::undoes_every_shape`].
        // With forbidden points they still decide a point that leaves no shape point at all,
        // legal or not.
        let tables_apply = !four_shapes
            && self.board.threat_count(them, ThreatSet::Five) == 0
            && self.board.threat_count(them, ThreatSet::Flex4) == 0;
        let restricted = self.board.rule().has_forbidden(them);
        let all_shapes = if tables_apply && restricted {
            self.shape_points_legal_or_not(them)
        } else {
            SmallVec::new()
        };
        for q in cells {
            // What the tables decide (None: the move must be made), before the legality check
            // that only the points they do not rule out need.
            let by_tables = if own_threats.contains(&q) {
                Some(true)
            } else if tables_apply && !restricted {
                Some(self.undoes_every_shape(q, us, shapes))
            } else {
                (tables_apply && self.undoes_every_shape(q, us, &all_shapes)).then_some(true)
            };
            if by_tables == Some(false) || !self.legal(q, us) {
                continue;
            }
            let defends = by_tables.unwrap_or_else(|| {
                self.board.make_light_move(q, us);
                let ok = if four_shapes {
                    self.four_shape_points(them).is_empty()
                } else {
                    self.win_shape_points(them).is_empty()
                };
                self.board.undo_light_move();
                ok
            });
            if defends {
                moves.push((q, move_score(&self.board, q, us)));
            }
        }
        moves
    }

    /// Whether a stone of `defender` on the empty point `p` leaves the opponent none of its
    /// winning-shape points `shapes` (all of them, as [`Searcher::win_shape_points`] gives
    /// them), decided from the line tables without making the move. Exact when the opponent
    /// has no forbidden points, no five point and no straight-four point: the stone changes
    /// only the line through `p` of each shape point, and an opponent stone never adds a five,
    /// a straight four, a four or an open three to any point of a line (see the pattern
    /// table's tests), so no new shape point can appear and only those of `shapes` that keep
    /// their shape remain. Where the opponent has forbidden points, a `true` for all its shape
    /// points, legal or not, is still exact: none is left for the defence to make legal.
    fn undoes_every_shape(&self, p: Pos, defender: Color, shapes: &[Pos]) -> bool {
        let attacker = defender.opponent();
        shapes.iter().all(|&f| {
            f == p
                || (aligned_within(p, f, 5) && {
                    let (d, k) = line_offset(f, p);
                    !is_win_shape(self.board.summary_with_opponent_stone(f, d, attacker, k))
                })
        })
    }

    /// The points where `color` makes a four or an open three (legality not checked).
    pub(super) fn own_threat_points(&self, color: Color) -> SmallVec<[Pos; 32]> {
        self.board
            .threat_points(color, ThreatSet::Four)
            .chain(self.board.threat_points(color, ThreatSet::Three))
            .collect()
    }

    /// Checks the root move `m` for an opponent's VCT and drops it from the root when one is
    /// found and drops are left. A move found safe is checked again only with a budget at
    /// least four times the last one. Returns whether it was dropped.
    pub(super) fn drops_unsafe_root_move(&mut self, m: Pos) -> bool {
        let prm = self.params;
        let budget = prm
            .safety_vct_nodes
            .max(self.nodes * prm.safety_vct_share_percent as u64 / 100);
        self.drops_root_move_losing_within(m, budget, 4)
    }

    /// The last check of the best move `m` when a search under a turn limit ends early: an
    /// opponent's VCT with the nodes that `safety_final_percent` of the time left would take at
    /// the search's speed so far (at least twice the last check's budget). Only without a node
    /// limit, where the node count is not part of the result. Returns whether it was dropped.
    fn drops_with_time_left(&mut self, m: Pos) -> bool {
        let prm = self.params;
        if prm.safety_final_percent == 0 || self.limits.max_nodes.is_some() {
            return false;
        }
        let elapsed = self.elapsed_ms().max(1);
        let left = self.limits.budget.maximum_ms.saturating_sub(elapsed);
        let budget = (self.nodes as u128 * left as u128 * prm.safety_final_percent as u128
            / 100
            / elapsed as u128)
            .min(u64::MAX as u128) as u64;
        budget >= prm.safety_vct_nodes && self.drops_root_move_losing_within(m, budget, 2)
    }

    /// Checks the root move `m` for an opponent's VCT within `budget` nodes and drops it when
    /// one is found and drops are left; a move found safe before is checked only when the
    /// budget is at least `growth` times the last one.
    fn drops_root_move_losing_within(&mut self, m: Pos, budget: u64, growth: u64) -> bool {
        let prm = self.params;
        if prm.safety_vct_depth == 0 || self.root_dropped.len() >= prm.safety_max_drops as usize {
            return false;
        }
        let checked = self.root_safe.iter().position(|&(p, _)| p == m);
        if checked.is_some_and(|i| budget < growth * self.root_safe[i].1) {
            return false;
        }
        let us = self.board.side_to_move();
        self.board.make_move(m, us);
        let loses = self.vct_move(prm.safety_vct_depth, budget).is_some();
        self.board.undo_move();
        if self.aborted {
            return false;
        }
        if loses {
            self.root_dropped.push(m);
            if let Some(i) = checked {
                self.root_safe.remove(i);
            }
        } else if let Some(i) = checked {
            self.root_safe[i].1 = budget;
        } else if self.root_safe.len() < self.root_safe.inline_size() {
            self.root_safe.push((m, budget));
        }
        loses
    }

    /// The root moves the safety net dropped.
    pub(crate) fn dropped_root_moves(&self) -> &[Pos] {
        &self.root_dropped
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
        self.evals[0] = s.eval;
        self.potentials[0] = s.eval - s.threat_value;
        self.free_reply[0] = false;
        let mut moves = match self.generate(
            &s,
            us,
            depth.max(1),
            0,
            NodeBounds {
                beta: WIN,
                pv: true,
                improving: true,
            },
        ) {
            NodeMoves::Done(score) => {
                return self.pv[0]
                    .first()
                    .map(|&p| vec![(p, score)])
                    .unwrap_or_default();
            }
            NodeMoves::Search { moves, .. } => moves,
        };
        moves.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use crate::rule::Rule;

    /// A move is near another within two cells in any direction, or on its lines within
    /// four cells, and nowhere else.
    #[test]
    fn near_moves_are_close_or_on_a_line_within_four() {
        let at = |x: usize, y: usize| Pos::new(x, y).unwrap();
        let q = at(7, 7);
        for (x, y, near) in [
            (7, 7, true),
            (9, 8, true),
            (5, 9, true),
            (11, 7, true),
            (3, 11, true),
            (7, 3, true),
            (12, 7, false),
            (10, 8, false),
            (4, 9, false),
            (2, 12, false),
        ] {
            assert_eq!(is_near_move(at(x, y), q), near, "({x}, {y})");
        }
    }

    /// A node where every move fails low keeps the move the table held for it with
    /// `fail_low_tt_move = false`, and stores its best-scoring move with `true`.
    #[test]
    fn a_node_that_fails_low_keeps_the_stored_move_unless_told_otherwise() {
        let at = |x: usize, y: usize| Pos::new(x, y).unwrap();
        let moves = [at(7, 7), at(8, 8), at(8, 6), at(6, 8), at(9, 7)];
        let board = Board::with_moves(15, Rule::Freestyle, &moves).unwrap();
        // A far empty corner: never a candidate, so never searched.
        let marker = at(0, 0);
        for keep in [false, true] {
            let params = SearchParams {
                fail_low_tt_move: keep,
                ..SearchParams::default()
            };
            let stored = super::super::with_solver_params(&board, &params, 4, None, |s| {
                let key = s.board.hash();
                s.tt.store(key, Some(marker), 0, 0, Bound::Upper);
                // A window far above any evaluation: every move fails low.
                let alpha = WIN_THRESHOLD / 2;
                let score = s.negamax(2, alpha, alpha + 1, 0);
                assert!(score <= alpha, "{score}");
                s.tt.probe(key).unwrap()
            });
            assert_eq!(stored.bound, Bound::Upper);
            assert_eq!(stored.depth, 2);
            if keep {
                let m = stored.mv.unwrap();
                assert!(m != marker && board.is_near_empty(m), "{m:?}");
            } else {
                assert_eq!(stored.mv, Some(marker));
            }
        }
    }

    /// Reverse futility cuts a non-PV node at or below its depth limit whose evaluation beats
    /// beta by the margin (a ply's margin less where the side to move is improving), and only
    /// where the opponent threatens nothing: with a five, an open three or a winning shape to
    /// answer, the node generates exactly the moves it generates without the cut. PV nodes,
    /// deeper nodes and small leads are never cut.
    #[test]
    fn reverse_futility_cuts_only_quiet_nodes_that_beat_beta() {
        let on = SearchParams {
            static_beta_max_depth: 3,
            static_beta_margin: 60,
            static_beta_improving_plies: 1,
            ..SearchParams::default()
        };
        let off = SearchParams {
            static_beta_max_depth: 0,
            ..on
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut cut, mut threatened) = (0, 0);
        for rule in [Rule::Freestyle, Rule::Renju] {
            for _game in 0..30 {
                let mut board = Board::square(15, rule).unwrap();
                board.make_move(board.centre(), Color::Black);
                for _ply in 0..40 {
                    let us = board.side_to_move();
                    let sc = scan(&board, us, 100);
                    if !sc.us.fives.is_empty() {
                        break;
                    }
                    let them = us.opponent();
                    // What generate answers before the cut: a threat of the opponent's to
                    // meet, or a win of our own.
                    let (threat, own_win) =
                        super::super::with_solver_params(&board, &on, 4, None, |s| {
                            let threat = !sc.them.fives.is_empty()
                                || s.has_open_three(them)
                                || !s.win_shape_points(them).is_empty();
                            let own_win = !sc.us.flex4.is_empty()
                                || (sc.them.fours.is_empty()
                                    && !rule.has_forbidden(us)
                                    && !s.win_shape_points(us).is_empty());
                            (threat, own_win)
                        });
                    let quiet = !threat && !own_win;
                    for (depth, improving) in (1..=4).flat_map(|d| [(d, false), (d, true)]) {
                        let plies = depth - improving as i32;
                        for (lead, pv) in
                            [(60 * plies, false), (60 * plies - 1, false), (500, true)]
                        {
                            let beta = sc.eval - lead;
                            let generate = |p: &SearchParams| {
                                super::super::with_solver_params(&board, p, 4, None, |s| {
                                    s.generate(
                                        &sc,
                                        us,
                                        depth,
                                        1,
                                        NodeBounds {
                                            beta,
                                            pv,
                                            improving,
                                        },
                                    )
                                })
                            };
                            let (with_cut, without) = (generate(&on), generate(&off));
                            let expect_cut = quiet && !pv && depth <= 3 && lead >= 60 * plies;
                            if expect_cut {
                                assert_eq!(
                                    with_cut,
                                    NodeMoves::Done(sc.eval),
                                    "a quiet node beating beta by the margin is cut"
                                );
                                cut += 1;
                            } else {
                                assert_eq!(with_cut, without, "no cut: the same moves");
                                threatened += threat as usize;
                            }
                        }
                    }
                    let legal: Vec<Pos> =
                        super::super::with_solver_params(&board, &on, 4, None, |s| {
                            candidate_moves(&s.board, us)
                                .into_iter()
                                .map(|(p, _)| p)
                                .filter(|&p| s.legal(p, us))
                                .collect()
                        });
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal[rng.next_u64() as usize % legal.len()];
                    board.make_move(m, us);
                }
            }
        }
        assert!(
            cut > 100 && threatened > 100,
            "cut {cut}, threatened {threatened}"
        );
    }

    /// Picking the moves one at a time gives exactly the sorted order, whatever the list's
    /// length and however many scores tie.
    #[test]
    fn picking_gives_the_sorted_order() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for len in 0..40 {
            for _ in 0..20 {
                let mut cells: Vec<usize> = (0..225).collect();
                let mut moves: Vec<(Pos, i32)> = (0..len)
                    .map(|_| {
                        let k = rng.next_u64() as usize % cells.len();
                        let c = cells.swap_remove(k);
                        (Pos::from_index(c), (rng.next_u64() % 7) as i32 - 3)
                    })
                    .collect();
                let mut sorted = moves.clone();
                sorted.sort_by(move_order);
                for i in 0..moves.len() {
                    pick_next(&mut moves, i);
                    assert_eq!(moves[i], sorted[i], "length {len}, move {i}");
                }
            }
        }
    }
}
