//! The `INFO` settings of the brain: what the manager sets and how each key reaches the engine or
//! the search limits.
//!
//! Memory: `max_memory` caps every table the engine allocates — the transposition table is sized
//! by [`Engine::set_memory`](crate::engine::Engine::set_memory) under it — and `hash_size` (KiB)
//! asks for a table size under that cap, at most [`MAX_HASH_KB`]. A `max_memory` below what the
//! engine needs besides its tables is still honoured (the table shrinks to its minimum) and
//! reported with `ERROR`. Values that fail to parse change nothing.

use std::io::Write;

use crate::engine::{BASE_MEMORY_BYTES, DEFAULT_HASH_BYTES, MIN_MEMORY_BYTES};
use crate::time::TimeSettings;

use super::super::piskvork::Info;
use super::{Brain, BrainError, MAX_HASH_KB};

/// The settings the manager gives with `INFO`, besides those the engine keeps itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `timeout_turn`, `timeout_match`, `time_left`.
    pub time: TimeSettings,
    /// `max_memory` in bytes (0 = no limit).
    pub max_memory: u64,
    /// `hash_size` in KiB (0 = the engine's default).
    pub hash_kb: u64,
    /// `max_depth`.
    pub max_depth: Option<u32>,
    /// `max_node`.
    pub max_nodes: Option<u64>,
    /// `show_detail` (0 = no thinking `MESSAGE` lines).
    pub show_detail: u32,
    /// `pondering` (recorded; the brain does not ponder).
    pub pondering: bool,
    /// `game_type`.
    pub game_type: u32,
    /// Whether `rule` had the continuous-game bit.
    pub continuous: bool,
    /// `folder`.
    pub folder: Option<String>,
    /// The `k` of the last `YXNBEST` (for the searcher's multi-PV).
    pub nbest: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            time: TimeSettings::default(),
            max_memory: 0,
            hash_kb: 0,
            max_depth: None,
            max_nodes: None,
            show_detail: 1,
            pondering: false,
            game_type: 1,
            continuous: false,
            folder: None,
            nbest: 1,
        }
    }
}

impl<W: Write> Brain<W> {
    fn hash_bytes(&self) -> usize {
        match self.settings.hash_kb {
            0 => DEFAULT_HASH_BYTES,
            kb => usize::try_from(kb.min(MAX_HASH_KB) * 1024).unwrap_or(usize::MAX),
        }
    }

    pub(super) fn max_hash_kb(&self) -> u64 {
        match self.settings.max_memory {
            0 => MAX_HASH_KB,
            m => (m.saturating_sub(BASE_MEMORY_BYTES as u64) / 2 / 1024).min(MAX_HASH_KB),
        }
    }

    fn resize_tables(&mut self) {
        let max_memory = usize::try_from(self.settings.max_memory).unwrap_or(usize::MAX);
        self.engine.set_memory(self.hash_bytes(), max_memory);
    }

    pub(super) fn info(&mut self, info: Info) -> Result<(), BrainError> {
        let s = &mut self.settings;
        match info {
            Info::TimeoutTurn(ms) => s.time.turn_ms = ms,
            Info::TimeoutMatch(ms) => s.time.match_ms = ms,
            Info::TimeLeft(ms) => s.time.time_left_ms = Some(ms),
            Info::MaxMemory(bytes) => {
                s.max_memory = bytes;
                self.resize_tables();
                if bytes > 0 && bytes < MIN_MEMORY_BYTES as u64 {
                    let reason = format!(
                        "{bytes} bytes is less than the {MIN_MEMORY_BYTES} bytes the engine needs"
                    );
                    return Err(BrainError::Setting {
                        key: "max_memory",
                        reason,
                    });
                }
            }
            Info::GameType(t) => s.game_type = t,
            Info::Rule { rule, continuous } => {
                self.engine
                    .set_rule(rule)
                    .map_err(|e| BrainError::Setting {
                        key: "rule",
                        reason: e.to_string(),
                    })?;
                self.settings.continuous = continuous;
            }
            Info::Evaluate | Info::Ignored(_) => {}
            Info::Folder(f) => s.folder = Some(f),
            Info::ThreadNum(n) => self.engine.set_threads(n),
            Info::HashSize(kb) => {
                s.hash_kb = kb;
                self.resize_tables();
            }
            Info::MaxDepth(d) => s.max_depth = d,
            Info::MaxNode(n) => s.max_nodes = n,
            Info::ShowDetail(d) => s.show_detail = d,
            Info::Pondering(p) => s.pondering = p,
            Info::Strength(v) => self.engine.set_strength(v),
        }
        Ok(())
    }
}
