//! Move choice: the alpha-beta searcher (`alphabeta`, with the threat solvers in `vcf` and
//! `vct`, the node facts of `threats` read from the board's incremental state, and the shared
//! [`tt`]) run on one or more threads (Lazy SMP: every thread runs its own iterative deepening
//! over the shared table, and the threads' moves are voted), and the one-ply practice player
//! [`greedy`], which is also the fallback when no depth completes in time.

pub(crate) mod alphabeta;
pub mod greedy;
mod pns;
pub use pns::PN_TABLE_BYTES;
pub(crate) mod threats;
pub mod tt;
pub(crate) mod vcf;
pub(crate) mod vct;

#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::Board;
use crate::core::Pos;
use crate::params::SearchParams;
use crate::time::{Budget, Clock};

use alphabeta::{Searcher, ThreadLimits};
pub use alphabeta::{WIN, WIN_THRESHOLD};
use tt::TranspositionTable;

/// Progress of a search, reported while thinking and with the result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: u32,
    /// Score from the side to move's view.
    pub score: i32,
    /// Positions examined.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub elapsed_ms: u64,
    /// The principal line, the best move first.
    pub pv: Vec<Pos>,
    /// Where `nodes` went.
    pub node_kinds: NodeKinds,
}

/// A search's nodes by the part of the search that examined them; the four counts add up to
/// [`SearchInfo::nodes`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeKinds {
    /// The main search above the horizon (nodes with depth left).
    pub tree: u64,
    /// The main search at or past the horizon: the static evaluation, the VCF check and the
    /// defences searched past the horizon.
    pub horizon: u64,
    /// Of `horizon`, the nodes that searched moves (defences against a threat past the horizon).
    pub horizon_searched: u64,
    /// The VCF searches (at the horizon, and inside the VCTs).
    pub vcf: u64,
    /// The VCT searches (the root's, the safety net's and the frontier's).
    pub vct: u64,
}

impl NodeKinds {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &NodeKinds) {
        self.tree += other.tree;
        self.horizon += other.horizon;
        self.horizon_searched += other.horizon_searched;
        self.vcf += other.vcf;
        self.vct += other.vct;
    }

    /// All nodes: tree, horizon, VCF and VCT.
    pub fn total(&self) -> u64 {
        self.tree + self.horizon + self.vcf + self.vct
    }
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.elapsed_ms.max(1)
    }
}

/// Receives [`SearchInfo`] while a search runs.
pub trait InfoSink {
    /// Called after each completed iteration.
    fn report(&mut self, info: &SearchInfo);
}

/// An [`InfoSink`] that drops everything.
pub struct NoInfo;

impl InfoSink for NoInfo {
    fn report(&mut self, _info: &SearchInfo) {}
}

/// What a search decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when no legal point is left.
    pub best: Option<Pos>,
    /// The last progress report.
    pub info: SearchInfo,
    /// With `multi_pv` above 1: the best root moves with their scores, best first.
    pub alternatives: Vec<(Pos, i32)>,
}

/// Below this many milliseconds for the move, the root VCT is skipped.
pub const VCT_MIN_BUDGET_MS: u64 = 100;

/// How to search one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Search threads (1 = deterministic under node or depth limits).
    pub threads: usize,
    /// Time budget.
    pub budget: Budget,
    /// Deepest iteration.
    pub max_depth: u32,
    /// Node limit per thread.
    pub max_nodes: Option<u64>,
    /// Search parameters.
    pub params: SearchParams,
    /// When above 0: choose at random (seeded by `seed` and the position) among the
    /// `random_candidates` best root moves scoring within this margin of the best.
    pub random_margin: i32,
    /// Root moves considered for the random choice.
    pub random_candidates: usize,
    /// Seed of the random choice.
    pub seed: u64,
    /// A new iteration starts only before this fraction of the optimum time has passed.
    pub start_fraction: f64,
    /// A new iteration starts only if this share of its expected cost fits before the maximum.
    pub useful_share: f64,
    /// Root moves to score and return as alternatives (Yixin `YXNBEST`); 1 = just the best.
    pub multi_pv: usize,
}

/// Lazy SMP's choice among the threads' results: each thread votes for its best move with
/// weight (score − lowest score + 10) × completed depth; a proved win of any thread is taken. The
/// main thread's move wins ties (and is the only vote with one thread).
fn vote(
    main_best: Option<Pos>,
    main: &SearchInfo,
    helpers: &[(Option<Pos>, SearchInfo)],
) -> Option<Pos> {
    let mut results: Vec<(Pos, &SearchInfo)> = Vec::with_capacity(helpers.len() + 1);
    results.extend(main_best.map(|m| (m, main)));
    results.extend(
        helpers
            .iter()
            .filter(|h| h.1.depth > 0)
            .filter_map(|h| h.0.map(|m| (m, &h.1))),
    );
    if let Some(win) = results
        .iter()
        .filter(|r| r.1.score > WIN_THRESHOLD)
        .max_by_key(|r| r.1.score)
    {
        return Some(win.0);
    }
    let low = results.iter().map(|r| r.1.score).min()?;
    let mut votes: Vec<(Pos, i64)> = Vec::new();
    for (m, info) in &results {
        let w = (info.score - low + 10) as i64 * info.depth as i64;
        match votes.iter_mut().find(|v| v.0 == *m) {
            Some(v) => v.1 += w,
            None => votes.push((*m, w)),
        }
    }
    // The main thread's move comes first, so it keeps ties.
    votes
        .iter()
        .fold(None, |acc: Option<(Pos, i64)>, &v| match acc {
            Some(a) if a.1 >= v.1 => Some(a),
            _ => Some(v),
        })
        .map(|v| v.0)
}

/// The practice levels' choice: a seeded uniform pick among the best root moves that score
/// within the margin of the best one.
fn random_choice(
    main: &mut Searcher<'_>,
    config: &SearchConfig,
    info: &SearchInfo,
    hash: u64,
) -> Option<Pos> {
    use rand_core::SeedableRng;
    main.extend_node_budget(config.max_nodes.unwrap_or(u64::MAX / 2));
    let scored = main.root_scores(info.depth.max(1) as i32, config.random_candidates);
    let top = scored.iter().map(|s| s.1).max()?;
    let good: Vec<Pos> = scored
        .iter()
        .filter(|s| s.1 >= top - config.random_margin)
        .map(|s| s.0)
        .collect();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(config.seed ^ hash);
    good.get(crate::rules::auto_move::uniform(
        &mut rng,
        good.len().max(1),
    ))
    .copied()
}

/// A VCF (victory by continuous fours) for the side to move of `board`, at most `max_depth`
/// attacker moves deep and within `max_nodes`: the moves of both sides in order, ending with the
/// attacker's winning move (a five, a straight four or a double four, or a four whose only
/// defence is forbidden for the defender). `None` when none is found.
pub fn solve_vcf(board: &Board, max_depth: u32, max_nodes: u64) -> Option<Vec<Pos>> {
    with_solver(board, max_depth, Some(max_nodes), |s| {
        s.vcf_line(board.side_to_move(), max_depth)
    })
}

/// Runs `f` on a single-thread searcher of `board` with the default parameters, no time limit,
/// the VCF depth `vcf_depth` and the node limit `max_nodes`: the threat solvers' harness.
pub(crate) fn with_solver<T>(
    board: &Board,
    vcf_depth: u32,
    max_nodes: Option<u64>,
    f: impl FnOnce(&mut Searcher) -> T,
) -> T {
    with_solver_params(board, &SearchParams::default(), vcf_depth, max_nodes, f)
}

/// [`with_solver`] with other parameters.
pub(crate) fn with_solver_params<T>(
    board: &Board,
    params: &SearchParams,
    vcf_depth: u32,
    max_nodes: Option<u64>,
    f: impl FnOnce(&mut Searcher) -> T,
) -> T {
    let tt = TranspositionTable::new(0);
    let stop = AtomicBool::new(false);
    let clock = crate::time::FakeClock::default();
    let limits = ThreadLimits {
        budget: Budget {
            optimum_ms: u64::MAX,
            maximum_ms: u64::MAX,
        },
        max_depth: 1,
        max_nodes,
        vcf_depth,
        start_fraction: 1.0,
        useful_share: 0.0,
    };
    let mut s = Searcher::new(board.clone(), &tt, params, &stop, &clock, limits);
    f(&mut s)
}

/// A VCT (victory by continuous threats: fours and open threes) for the side to move of
/// `board`, at most `max_depth` attacker moves deep and within `max_nodes`: the attacker's first
/// move. Sound (a move returned wins against every defence), not complete.
pub fn solve_vct(board: &Board, max_depth: u32, max_nodes: u64) -> Option<Pos> {
    with_solver(board, SearchParams::default().vcf_depth, None, |s| {
        s.vct_move(max_depth, max_nodes)
    })
}

/// Searches the side to move of `board`; `stop` ends the search early (the best move so far is
/// returned), as do the budget and the limits.
pub fn search(
    board: &Board,
    config: &SearchConfig,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    clock: &dyn Clock,
    sink: &mut dyn InfoSink,
) -> SearchResult {
    let start = clock.now_ms();
    tt.new_search();
    let limits = ThreadLimits {
        budget: config.budget,
        max_depth: config.max_depth.clamp(1, alphabeta::MAX_PLY as u32 - 10) as i32,
        max_nodes: config.max_nodes,
        vcf_depth: config.params.vcf_depth,
        start_fraction: config.start_fraction,
        useful_share: config.useful_share,
    };
    let params = &config.params;
    let helpers_stop = AtomicBool::new(false);
    let (best, mut info, helper_nodes, alternatives) = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..config.threads.max(1))
            .map(|i| {
                let helpers_stop = &helpers_stop;
                let board = board.clone();
                scope.spawn(move || {
                    let mut s = Searcher::new(board, tt, params, helpers_stop, clock, limits);
                    let (best, info) = s.iterate(false, 1 + (i % 2) as i32, &mut NoInfo);
                    (best, info)
                })
            })
            .collect();
        let mut main = Searcher::new(board.clone(), tt, params, stop, clock, limits);
        // A win in one, or a win proved by continuous threats: played at once.
        let decided = main.winning_root_move().or_else(|| {
            (params.vct_depth > 0 && config.budget.maximum_ms >= VCT_MIN_BUDGET_MS)
                .then(|| main.vct_move(params.vct_depth, params.vct_root_nodes))
                .flatten()
                .map(|m| (m, WIN - 1 - 2 * params.vct_depth as i32))
        });
        let (mut best, mut info) = match decided {
            Some((m, score)) => {
                let info = SearchInfo {
                    depth: 1,
                    score,
                    nodes: main.nodes(),
                    elapsed_ms: main.elapsed_ms(),
                    pv: vec![m],
                    node_kinds: main.node_kinds(),
                };
                sink.report(&info);
                (Some(m), info)
            }
            None => main.iterate(true, 1, sink),
        };
        helpers_stop.store(true, Ordering::SeqCst);
        if config.random_margin > 0 && best.is_some() && info.score.abs() < WIN_THRESHOLD {
            best = random_choice(&mut main, config, &info, board.hash()).or(best);
        }
        let alternatives = if config.multi_pv > 1 && best.is_some() {
            main.extend_node_budget(config.max_nodes.unwrap_or(u64::MAX / 2));
            let mut scored = main.root_scores(info.depth.max(1) as i32, config.multi_pv.max(8));
            scored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            scored.truncate(config.multi_pv);
            scored
        } else {
            Vec::new()
        };
        let helpers: Vec<(Option<Pos>, SearchInfo)> =
            handles.into_iter().filter_map(|h| h.join().ok()).collect();
        let mut helper_nodes = NodeKinds::default();
        for h in &helpers {
            helper_nodes.add(&h.1.node_kinds);
        }
        if config.random_margin == 0 && decided.is_none() {
            let voted =
                vote(best, &info, &helpers).filter(|m| !main.dropped_root_moves().contains(m));
            if voted.is_some() && voted != best {
                best = voted;
                info.pv = voted.into_iter().collect();
            }
        }
        (best, info, helper_nodes, alternatives)
    });
    info.nodes += helper_nodes.total();
    info.node_kinds.add(&helper_nodes);
    info.elapsed_ms = clock.now_ms().saturating_sub(start);
    match best {
        Some(_) => SearchResult {
            best,
            info,
            alternatives,
        },
        None => {
            // No iteration finished (or nothing to search): the practice player's choice.
            let mut b = board.clone();
            let us = b.side_to_move();
            let mut r = greedy::choose(&mut b, us);
            if info.depth > 0 {
                // The search decided the position (a loss): keep its verdict, play the block.
                r.info.score = info.score;
                r.info.depth = info.depth;
            }
            r.info.nodes += info.nodes;
            r.info.node_kinds.add(&info.node_kinds);
            r.info.elapsed_ms = info.elapsed_ms;
            r
        }
    }
}
