//! Tournaments and people: matches between Piskvork brains judged by the game referee, their
//! records and report, and a person playing omok in the terminal.
//!
//! Layers, each using only those before it (and `game`, `protocol`-level text, `engine` below):
//! - [`stats`]: Elo with its 95% error bar, the SPRT;
//! - [`openings`]: opening files (Gomocup offsets, pos strings) and the eight symmetries;
//! - [`judge`]: the referee ([`crate::game`]) behind a small [`judge::Judge`] trait, set up the
//!   Gomocup way (forbidden move = loss, renju draw after 200 stones);
//! - [`records`]: the game record and its `.psq`, SGF and JSON-lines forms; [`standings`]: the
//!   results per pair; [`report`]: the self-contained HTML report with SVG boards;
//!   [`compare`]: two runs of one spec compared game by game (the paired difference);
//! - [`spec`]: the TOML specification and its command-line overrides, validated;
//! - [`engine_process`]: the manager side of the Piskvork protocol (processes, deadlines,
//!   crashes, memory);
//! - [`game_driver`]: one game driven as Gomocup drives it, and the per-worker brain pool;
//! - [`output`]: the files; [`runner`]: the schedule, parallel games, progress, SPRT stop;
//! - [`pente`]: Pente tournaments (`rule = "pente"`): omok's Pente players in-process, judged
//!   by the Pente referee;
//! - [`play`]: `pbrain-omok play`, a person against the engine in a terminal. It lives here
//!   (rather than in its own top-level module) because it is the "people" half of the same
//!   feature and shares nothing with the brain protocol; it drives the [`crate::engine::Engine`]
//!   in-process over any `BufRead`/`Write`, so tests feed it text.
//!
//! Only this module and the binary touch processes and files; nothing below it does.

pub mod compare;
pub mod engine_process;
pub mod game_driver;
pub mod judge;
pub mod openings;
pub mod output;
pub mod pente;
pub mod play;
pub mod records;
pub mod report;
pub mod runner;
pub mod spec;
pub mod standings;
pub mod stats;

pub use runner::{ProgressOut, Summary, TournamentError, run};
pub use spec::{SpecError, TournamentArgs, TournamentSpec};
