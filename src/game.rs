//! The game referee (SPEC §5, seed 004 §4–§8): runs one game by the rules for a game server or
//! the tournament runner. Pure logic over the rules core — no I/O, no clock of its own: every
//! action carries the caller's `now` in milliseconds, so every behaviour is testable without
//! sleeping.
//!
//! - [`options`]: the options of seed 004 §2 (plus `forbiddenPolicy`, `forbidDepthCap`,
//!   `drawAfterStones`), their defaults and validation, and the [`Setup`] of a game;
//! - [`state`]: the [`Game`] (board, turn, record, clocks, requests, result, seeded RNG);
//! - [`actions`]: [`Action`]s with seed 004 §8.2's validation, and the [`Event`]s they produce;
//! - [`clock`]: deadlines, Fischer/perMove/idle clocks, timeouts, auto-moves, disconnection grace;
//! - [`result`]: the [`GameResult`] with its Korean and English summaries;
//! - [`view`]: what players and spectators may see ([`GameView`]);
//! - [`hash`]: the stable state hash that replays are compared by;
//! - [`opening`]: the opening rule's steps (`openingRule`) played through actions;
//! - [`error`]: [`GameError`], with a code and Korean and English messages;
//! - [`session`]: the JSON-lines interface of `pbrain-omok referee`, as pure functions.
//!
//! Layering: `game/` uses `core`, `board`, `rule` and `rules`, plus the pure `notation` module for
//! the renju coordinates of messages and summaries. A typical use:
//!
//! ```
//! use omok::game::{Action, Game, Setup};
//!
//! let mut setup = Setup::new(42, "alice", "bob");
//! setup.options.color_assignment = omok::game::options::ColorAssignment::HostBlack;
//! let (mut game, _events) = Game::new(&setup).unwrap();
//! let place = |player: &str, x, y, now| Action::Place { player: player.into(), x, y, now };
//! game.apply(&place("alice", 7, 7, 1_000)).unwrap();
//! let err = game.apply(&place("bob", 7, 7, 2_000)).unwrap_err();
//! assert_eq!(err.message_ko(), "이미 돌이 있는 자리예요");
//! assert_eq!(game.deadline(), Some(31_000)); // perMove 30 s from the last move
//! ```

pub mod actions;
pub mod clock;
pub mod error;
pub mod hash;
pub mod opening;
pub mod options;
pub mod result;
pub mod session;
pub mod state;
pub mod view;

pub use actions::{Action, Event};
pub use clock::deadline;
pub use error::{ErrorInfo, GameError};
pub use options::{GameOptions, Setup};
pub use result::{GameResult, ResultReason};
pub use session::Session;
pub use state::{ByColor, Game, MoveRecord, Phase};
pub use view::{GameView, Viewer, Views};
