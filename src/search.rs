//! Move choice. Today: the practice player [`greedy`] (win, block, else the best point by pattern
//! score; never a forbidden point), which is also the lowest practice level. Shared result types
//! for every searcher live here.

pub mod greedy;

use crate::core::Pos;

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
