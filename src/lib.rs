//! omok — a Gomoku/Renju engine and an exact rules library.
//!
//! Layers, each depending only on those above it:
//! - [`core`]: positions, colours, directions, Zobrist keys;
//! - [`error`]: the typed errors of the library;
//! - [`rule`]: the rule sets as data (names, Gomocup codes, win rule per colour);
//! - [`pattern`]: line keys and per-rule pattern tables (exact line analysis);
//! - [`board`]: the incremental board (stones, line keys, per-cell patterns, hash, make/undo);
//! - [`rules`]: rule sets, win detection, exact forbidden points, threat hints, auto-move;
//! - [`notation`]: Piskvork, renju and pos-string coordinates;
//! - [`eval`]: move scores from the line patterns;
//! - [`params`]: every tunable, mirrored by `engine-config/default.toml`;
//! - [`time`]: injectable clocks and the per-move time budget;
//! - [`search`]: move choice (the practice player for now);
//! - [`engine`]: the I/O-free facade the protocol, referee and tournaments drive;
//! - [`opening_play`]: the engine's decisions in the opening rules (propose, swap, declare, offer,
//!   choose);
//! - [`protocol`]: the Piskvork brain (parser, state machine, stdin reader thread);
//! - [`batch`]: the JSON-lines forbidden-point interface for frontends;
//! - [`game`]: the referee of one game (options, actions, clocks, views, results, replay hash).
//! - [`engine_seat`]: a referee seat played by the engine (`{"engine": {"strength": 50}}`).
//! - [`pente`]: Pente (captures, 2–4 players): its own position, referee and practice opponent.
//! - [`tournament`]: matches between Piskvork brains judged by the referee (records, report,
//!   SPRT), and `play`, a person against the engine in the terminal.
#![warn(missing_docs)]

pub mod batch;
pub mod bench;
pub mod board;
pub mod core;
pub mod engine;
pub mod engine_seat;
pub mod error;
pub mod eval;
pub mod game;
pub mod notation;
pub mod opening_play;
pub mod params;
pub mod pattern;
pub mod pente;
pub mod protocol;
pub mod rule;
pub mod rules;
pub mod search;
pub mod time;
pub mod tournament;
pub mod tune;

pub use crate::board::Board;
pub use crate::core::{Color, Dir, Pos};
pub use crate::rule::Rule;
