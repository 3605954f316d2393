//! The I/O-free engine facade used by the protocol loop, the referee's computer opponent and the
//! tournament runner: it owns the board and the parameters, takes moves and positions with full
//! validation (an error leaves the state as it was), and thinks on request ([`Engine::go`]),
//! reporting progress through an [`InfoSink`] and stopping when its stop flag is raised.
//!
//! **Memory.** The transposition table is allocated by the first search that needs it, at the
//! size asked for last ([`Engine::set_memory`]), and a resize only drops the old table: a
//! manager's `START` followed by `INFO max_memory` never holds a default-sized table, and
//! never two tables at once, so the process stays under the limit from its start.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::error::BoardError;
use crate::params::Params;
use crate::rule::Rule;
use crate::rules::{ForbidChecker, ForbiddenKind, win::ensure_no_five};
use crate::search::tt::{ENTRY_BYTES, TranspositionTable};
use crate::search::{InfoSink, SearchConfig, SearchResult, greedy, search};
use crate::time::{Budget, Clock};

/// Limits of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Time budget.
    pub budget: Budget,
    /// Stop after this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this depth.
    pub max_depth: Option<u32>,
}

/// The engine: a board of one rule and the means to think about it.
pub struct Engine {
    board: Board,
    params: Params,
    stop: Arc<AtomicBool>,
    clock: Arc<dyn Clock>,
    /// Allocated by the first search (see the module doc).
    tt: Option<TranspositionTable>,
    /// The table's size in bytes, as [`TranspositionTable::new`] rounds it.
    tt_bytes: usize,
    threads: usize,
    max_memory: usize,
    strength: u8,
    seed: u64,
    multi_pv: usize,
}

/// Transposition table size when nothing else is asked for.
pub const DEFAULT_HASH_BYTES: usize = 64 << 20;
/// Memory the engine needs besides its transposition table and search threads (pattern tables,
/// the board, the protocol's state).
pub const BASE_MEMORY_BYTES: usize = 24 << 20;
/// Memory of one search thread: its VCF and VCT caches, its proof-number table, board copy and
/// stacks.
pub const THREAD_MEMORY_BYTES: usize =
    2 * crate::search::tt::THREAT_CACHE_BYTES + crate::search::PN_TABLE_BYTES + (1 << 20);
/// The least memory the engine can play in: the base, one search thread and the smallest table.
pub const MIN_MEMORY_BYTES: usize = BASE_MEMORY_BYTES + THREAD_MEMORY_BYTES + (1024 * ENTRY_BYTES);

/// The table in `slot`, made at `bytes` first if there is none.
fn made_table(slot: &mut Option<TranspositionTable>, bytes: usize) -> &TranspositionTable {
    slot.get_or_insert_with(|| TranspositionTable::new(bytes))
}

/// The size [`TranspositionTable::new`] gives a table asked to take at most `bytes` (a power of
/// two entries, at least 1024), without allocating it.
pub fn table_bytes(bytes: usize) -> usize {
    let wanted = (bytes / ENTRY_BYTES).max(1024);
    (1usize << (usize::BITS - 1 - wanted.leading_zeros())) * ENTRY_BYTES
}

impl Engine {
    /// A 15×15 freestyle engine.
    pub fn new(params: Params, clock: Arc<dyn Clock>) -> Engine {
        let board = Board::square(15, Rule::Freestyle).expect("15x15 is a valid size");
        Engine {
            board,
            params,
            stop: Arc::new(AtomicBool::new(false)),
            clock,
            tt: None,
            tt_bytes: table_bytes(DEFAULT_HASH_BYTES),
            threads: 1,
            max_memory: 0,
            strength: 100,
            seed: 0,
            multi_pv: 1,
        }
    }

    /// Sets the search threads (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, 256);
    }

    /// Search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sets the practice level, 0 (weakest) ..= 100 (full strength, the default); larger values
    /// count as 100. Recorded for the searcher (Piskvork `INFO strength`).
    pub fn set_strength(&mut self, strength: u8) {
        self.strength = strength.min(100);
    }

    /// Sets how many root moves the next searches score and return as alternatives (Yixin
    /// `YXNBEST`; at least 1).
    pub fn set_multi_pv(&mut self, k: usize) {
        self.multi_pv = k.clamp(1, 64);
    }

    /// Sets the seed of the practice levels' random choices (the same seed, position and
    /// settings give the same move).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// The practice level, 0..=100.
    pub fn strength(&self) -> u8 {
        self.strength
    }

    /// Resizes the transposition table to at most `hash_bytes`, and the whole engine to at most
    /// `max_memory` bytes when that is not 0 (the table takes at most half of what the base
    /// needs leaves; searches use no more threads than the rest holds). Returns the table size
    /// in bytes. The table itself is made by the next search.
    pub fn set_memory(&mut self, hash_bytes: usize, max_memory: usize) -> usize {
        self.max_memory = max_memory;
        let mut bytes = hash_bytes;
        if max_memory > 0 {
            bytes = bytes.min(max_memory.saturating_sub(BASE_MEMORY_BYTES) / 2);
        }
        let bytes = table_bytes(bytes);
        if bytes != self.tt_bytes {
            self.tt = None;
            self.tt_bytes = bytes;
        }
        bytes
    }

    /// Makes the transposition table now if it is not made at its current size yet (the next
    /// search would make it otherwise, before its clock starts).
    pub fn ensure_table(&mut self) {
        made_table(&mut self.tt, self.tt_bytes);
    }

    /// Forgets the transposition table.
    pub fn clear_hash(&mut self) {
        if let Some(tt) = &self.tt {
            tt.clear();
        }
    }

    /// The position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The rule set.
    pub fn rule(&self) -> Rule {
        self.board.rule()
    }

    /// The colour to move (by the stone counts).
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// A new empty board of this size, keeping the rule.
    pub fn new_game(&mut self, width: usize, height: usize) -> Result<(), BoardError> {
        self.board = Board::new(width, height, self.board.rule())?;
        Ok(())
    }

    /// Empties the board, keeping size and rule.
    pub fn restart(&mut self) {
        self.board.clear();
    }

    /// Changes the rule, keeping the stones (a position that the new rule calls decided is
    /// refused and nothing changes).
    pub fn set_rule(&mut self, rule: Rule) -> Result<(), BoardError> {
        if rule != self.board.rule() {
            let stones = self.board.history().to_vec();
            self.board = self.rebuilt(rule, &stones)?;
        }
        Ok(())
    }

    fn rebuilt(&self, rule: Rule, stones: &[(Pos, Color)]) -> Result<Board, BoardError> {
        let mut b = Board::new(self.board.width(), self.board.height(), rule)?;
        for &(p, c) in stones {
            b.place(p, c)?;
        }
        ensure_no_five(&b)?;
        Ok(b)
    }

    /// Plays `p` for the side to move. Off-board or occupied points, and moves after the game is
    /// decided, are errors.
    pub fn play(&mut self, p: Pos) -> Result<(), BoardError> {
        ensure_no_five(&self.board)?;
        let color = self.board.side_to_move();
        self.board.place(p, color)
    }

    /// Replaces the position with these stones, in order; validated as a whole (on the board,
    /// distinct points, no winning line) before anything changes.
    pub fn set_position(&mut self, stones: &[(Pos, Color)]) -> Result<(), BoardError> {
        self.board = self.rebuilt(self.board.rule(), stones)?;
        Ok(())
    }

    /// Removes the stone on `p` (normally the last move).
    pub fn takeback(&mut self, p: Pos) -> Result<(), BoardError> {
        if !self.board.contains(p) {
            return Err(self.board.pos(p.x() as i64, p.y() as i64).unwrap_err());
        }
        match self.board.last_move() {
            Some((last, _)) if last == p => {
                self.board.undo_move();
                Ok(())
            }
            _ if self.board.get(p).is_none() => Err(BoardError::NothingToUndo),
            _ => {
                let stones: Vec<_> = self
                    .board
                    .history()
                    .iter()
                    .copied()
                    .filter(|&(q, _)| q != p)
                    .collect();
                self.board = self.rebuilt(self.board.rule(), &stones)?;
                Ok(())
            }
        }
    }

    /// Forbidden points of the side to move, in board order.
    pub fn forbidden_points(&mut self) -> Vec<(Pos, ForbiddenKind)> {
        let color = self.board.side_to_move();
        ForbidChecker::default().all(&mut self.board, color)
    }

    /// The threads a search uses: the threads asked for, as many as `max_memory` holds besides
    /// the base and the table (at least one).
    pub fn search_threads(&self) -> usize {
        if self.max_memory == 0 {
            return self.threads;
        }
        let left = self
            .max_memory
            .saturating_sub(BASE_MEMORY_BYTES + self.tt_bytes);
        self.threads.min(left / THREAD_MEMORY_BYTES).max(1)
    }

    /// The flag that stops a running search; raise it from another thread.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The clock the searches are timed by.
    pub fn clock(&self) -> Arc<dyn Clock> {
        Arc::clone(&self.clock)
    }

    /// Thinks about the side to move within `limits` and returns the move to play (`None` only
    /// when no legal point is left). The stop flag is cleared when the search starts.
    pub fn go(&mut self, limits: &Limits, sink: &mut dyn InfoSink) -> SearchResult {
        self.stop.store(false, Ordering::SeqCst);
        let mut config = SearchConfig {
            threads: self.search_threads(),
            budget: limits.budget,
            max_depth: limits.max_depth.unwrap_or(100),
            max_nodes: limits.max_nodes,
            params: self.params.search_for(self.board.rule()),
            random_margin: 0,
            random_candidates: 0,
            seed: self.seed,
            start_fraction: self.params.time.iteration_start_fraction,
            useful_share: self.params.time.iteration_useful_share,
            multi_pv: self.multi_pv,
        };
        if !self.params.is_full_strength(self.strength)
            && let Some(level) = self.params.level(self.strength).cloned()
        {
            if level.max_depth == 0 {
                let color = self.board.side_to_move();
                let result = greedy::choose(&mut self.board, color);
                sink.report(&result.info);
                return result;
            }
            config.threads = 1;
            config.max_depth = config.max_depth.min(level.max_depth);
            if level.max_nodes > 0 {
                config.max_nodes = Some(
                    config
                        .max_nodes
                        .map_or(level.max_nodes, |n| n.min(level.max_nodes)),
                );
            }
            config.random_margin = level.random_margin;
            config.random_candidates = level.random_candidates;
        }
        let tt = made_table(&mut self.tt, self.tt_bytes);
        search(
            &self.board,
            &config,
            tt,
            &self.stop,
            self.clock.as_ref(),
            sink,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NoInfo;
    use crate::time::FakeClock;

    fn engine() -> Engine {
        Engine::new(Params::default(), Arc::new(FakeClock::default()))
    }

    #[test]
    fn max_memory_bounds_the_table_and_the_threads() {
        let mut e = engine();
        e.set_threads(64);
        assert_eq!(e.search_threads(), 64);
        let max = 64 << 20;
        let table = e.set_memory(256 << 20, max);
        assert!(table <= (max - BASE_MEMORY_BYTES) / 2);
        let threads = e.search_threads();
        assert!((1..64).contains(&threads), "{threads}");
        assert!(BASE_MEMORY_BYTES + table + threads * THREAD_MEMORY_BYTES <= max);
        // Too little memory for even one thread besides the table: still one.
        e.set_memory(0, 1 << 20);
        assert_eq!(e.search_threads(), 1);
    }

    #[test]
    fn the_table_is_made_by_the_first_search_at_the_last_size_asked() {
        for bytes in [0, 1 << 14, 1 << 20, (3 << 20) + 5] {
            assert_eq!(table_bytes(bytes), TranspositionTable::new(bytes).bytes());
        }
        let mut e = engine();
        assert!(e.tt.is_none(), "nothing allocated by new");
        e.clear_hash();
        assert_eq!(e.set_memory(DEFAULT_HASH_BYTES, 40 << 20), 8 << 20);
        assert!(e.tt.is_none(), "nor by a resize");
        e.go(&limits(), &mut NoInfo);
        assert_eq!(e.tt.as_ref().map(TranspositionTable::bytes), Some(8 << 20));
        e.set_memory(1 << 20, 0);
        assert!(e.tt.is_none(), "the old table is dropped at once");
    }

    fn limits() -> Limits {
        Limits {
            budget: Budget {
                optimum_ms: 100,
                maximum_ms: 100,
            },
            max_nodes: None,
            max_depth: Some(3),
        }
    }

    #[test]
    fn errors_leave_the_state_unchanged() {
        let mut e = engine();
        e.play(Pos::new(7, 7).unwrap()).unwrap();
        let before = e.board().clone();
        assert!(e.play(Pos::new(7, 7).unwrap()).is_err());
        assert!(e.play(Pos::new(20, 20).unwrap()).is_err());
        let five: Vec<_> = (0..5)
            .map(|x| (Pos::new(x, 0).unwrap(), Color::Black))
            .collect();
        assert!(matches!(
            e.set_position(&five),
            Err(BoardError::FiveOnBoard { .. })
        ));
        assert!(e.takeback(Pos::new(3, 3).unwrap()).is_err());
        assert!(e.new_game(40, 40).is_err());
        assert_eq!(e.board(), &before);
    }

    #[test]
    fn rule_changes_keep_the_stones() {
        let mut e = engine();
        e.play(Pos::new(7, 7).unwrap()).unwrap();
        e.play(Pos::new(8, 8).unwrap()).unwrap();
        e.set_rule(Rule::Renju).unwrap();
        assert_eq!(e.rule(), Rule::Renju);
        assert_eq!(e.board().move_count(), 2);
        e.takeback(Pos::new(8, 8).unwrap()).unwrap();
        assert_eq!(e.side_to_move(), Color::White);
    }

    #[test]
    fn go_returns_a_legal_move() {
        let mut e = engine();
        let r = e.go(&limits(), &mut NoInfo);
        assert_eq!(r.best, Pos::new(7, 7));
        e.play(r.best.unwrap()).unwrap();
        let r = e.go(&limits(), &mut NoInfo);
        assert!(e.board().is_empty(r.best.unwrap()));
    }
}
