//! Move choice: the alpha-beta searcher ([`alphabeta`], with the VCF solver in [`vcf`] and the
//! shared [`tt`]) run on one or more threads (Lazy SMP: every thread runs its own iterative
//! deepening over the shared table; the main thread's result is played), and the one-ply practice
//! player [`greedy`], which is also the fallback when no depth completes in time.

pub(crate) mod alphabeta;
pub mod greedy;
pub(crate) mod threats;
pub mod tt;
pub(crate) mod vcf;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::Board;
use crate::core::Pos;
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
}

/// How to search one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Search threads (1 = deterministic under node or depth limits).
    pub threads: usize,
    /// Time budget.
    pub budget: Budget,
    /// Deepest iteration.
    pub max_depth: u32,
    /// Node limit per thread.
    pub max_nodes: Option<u64>,
    /// Attacker moves the VCF step at the horizon looks for.
    pub vcf_depth: u32,
}

/// A VCF (victory by continuous fours) for the side to move of `board`, at most `max_depth`
/// attacker moves deep and within `max_nodes`: the moves of both sides in order, ending with the
/// attacker's winning move (a five, a straight four or a double four, or a four whose only
/// defence is forbidden for the defender). `None` when none is found.
pub fn solve_vcf(board: &Board, max_depth: u32, max_nodes: u64) -> Option<Vec<Pos>> {
    let tt = TranspositionTable::new(0);
    let stop = AtomicBool::new(false);
    let clock = crate::time::FakeClock::default();
    let limits = ThreadLimits {
        budget: Budget {
            optimum_ms: u64::MAX,
            maximum_ms: u64::MAX,
        },
        max_depth: 1,
        max_nodes: Some(max_nodes),
        vcf_depth: max_depth,
    };
    let mut s = Searcher::new(board.clone(), &tt, &stop, &clock, limits);
    let us = board.side_to_move();
    s.vcf_line(us, max_depth)
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
        vcf_depth: config.vcf_depth,
    };
    let helpers_stop = AtomicBool::new(false);
    let (best, mut info, helper_nodes) = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..config.threads.max(1))
            .map(|i| {
                let helpers_stop = &helpers_stop;
                let board = board.clone();
                scope.spawn(move || {
                    let mut s = Searcher::new(board, tt, helpers_stop, clock, limits);
                    s.iterate(false, 1 + (i % 2) as i32, &mut NoInfo);
                    s.nodes()
                })
            })
            .collect();
        let mut main = Searcher::new(board.clone(), tt, stop, clock, limits);
        let (best, info) = main.iterate(true, 1, sink);
        helpers_stop.store(true, Ordering::SeqCst);
        let helper_nodes: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        (best, info, helper_nodes)
    });
    info.nodes += helper_nodes;
    info.elapsed_ms = clock.now_ms().saturating_sub(start);
    match best {
        Some(_) => SearchResult { best, info },
        None => {
            // No iteration finished (or nothing to search): the practice player's choice.
            let mut b = board.clone();
            let us = b.side_to_move();
            let mut r = greedy::choose(&mut b, us);
            r.info.nodes += info.nodes;
            r.info.elapsed_ms = info.elapsed_ms;
            r
        }
    }
}
