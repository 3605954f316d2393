//! Pente (`docs/pente.md`): five in a row plus captures, with every option of the source
//! document — board 9/13/15/19, white first, captures of two (and three), capture wins, the
//! overline, suicide and extension rules, the opening rules (Pro, Long Pro, Swap, Swap2), 3–4
//! players, teams and mixed captures.
//!
//! Pente lives beside the omok rules, not inside them: it has its own [`Position`] (stones of up
//! to four seats, captures with undo), so the omok board, forbidden check and search keep their
//! speed. Layers, each depending only on those above it:
//! - [`options`]: the rules options and what they imply (line length, capture target);
//! - [`position`]: legality, captures, line wins, extensions, make/undo;
//! - [`reference`]: a slow, obviously-correct reference for the differential tests;
//! - [`auto_move`]: the referee's seeded auto-move for Pente;
//! - [`referee`]: the Pente game referee (`ruleSet: "pente"`), pure like [`crate::game`];
//! - [`opening`]: Swap (four stones) and Swap2 through the shared opening rules
//!   ([`crate::rules::opening`], white first) and the engine's proposer/chooser decisions;
//! - [`eval`] and [`search`]: the practice opponent (alpha-beta with capture-aware evaluation
//!   and a threat search; greedy with lookahead for 3–4 players);
//! - [`play`]: `pbrain-omok play --rule pente` (terminal play through `BufRead`/`Write`);
//! - [`brain`]: the Piskvork brain's Pente mode (`INFO omok_rule pente`).

pub mod auto_move;
pub mod brain;
pub mod eval;
pub mod opening;
pub mod options;
pub mod play;
pub mod position;
pub mod referee;
pub mod reference;
pub mod search;

pub use options::{Extension, Overline, PenteOpening, PenteRules, Suicide};
pub use position::{EndReason, Illegal, MoveReport, Outcome, Position, SetupError};
