//! The Piskvork protocol brain (`pbrain-omok` with no arguments), for Piskvork, GomocupJudge,
//! c-gomoku-cli and pygomo-lib, with the Yixin-Board extensions (see `PROTOCOL.md`).
//!
//! Layers, each using only those before it:
//! - [`piskvork`]: the text — a pure `parse(line) -> Result<Command, ProtocolError>` and the
//!   [`Response`] lines;
//! - `swap2`: the Swap2 opening policy (a static judgement, deterministic);
//! - [`brain`]: the state machine that drives the [`Engine`](crate::engine::Engine) and writes the
//!   answers to any `Write` (unit-testable without processes);
//! - [`io_loop`]: the stdin reader thread, the channel to the brain and the stop flag.
//!
//! Search, time and rules logic stay in the engine: the brain only turns `INFO` keys into
//! [`Limits`](crate::engine::Limits) through [`TimeSettings::budget`](crate::time::TimeSettings::budget)
//! and positions into engine calls.

pub mod brain;
pub mod io_loop;
pub mod piskvork;
mod swap2;

pub use brain::{Brain, BrainError, Flow, Settings};
pub use io_loop::{run, run_stdio};
pub use piskvork::{Command, Info, ProtocolError, Response, parse};
