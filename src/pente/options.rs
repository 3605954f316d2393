//! The options of a Pente game (`docs/pente.md` §1): board size, three-capture, capture win,
//! overline, suicide, extension, opening rule, players, teams and mixed captures, with their JSON
//! names, defaults and validation, and the numbers they imply (line length, capture target).
//!
//! Every option may be left out of the JSON and takes the default of the source document (the
//! bold entries there: 19×19, capture win on, overline wins, no suicide rule, no extension, no
//! opening rule, two players). Unknown keys are errors.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The board sides the document offers.
pub const BOARD_SIZES: [usize; 4] = [9, 13, 15, 19];

/// What a line longer than the winning length does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum Overline {
    /// Six or more (five or more in the multi-player game without teams) also wins.
    #[default]
    Win,
    /// A move that makes one is forbidden, unless the stone is itself captured at once by the
    /// suicide rule.
    Forbidden,
}

/// What placing a stone into a bracket (`X O _ X` → `X O O X` by O) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum Suicide {
    /// Nothing happens: the stones stay.
    #[default]
    Nothing,
    /// The owner of the bracketing stones captures the bracketed group.
    Captured,
    /// The move is forbidden, even when it would capture or win.
    Forbidden,
}

/// What a completed line does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum Extension {
    /// The game ends at once.
    #[default]
    Off,
    /// The next player continues if one move can break every completed line (by capture).
    BreakLine,
    /// The next player continues if one move can capture the completed line whole.
    CaptureLine,
}

/// The two-player opening rules of the document, for Pente's white-first order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum PenteOpening {
    /// No constraint.
    #[default]
    None,
    /// First player's first stone at the centre, their second at distance ≥ 3 from it.
    Pro,
    /// As Pro with distance ≥ 4.
    LongPro,
    /// The first player places white, black, white, black; the second chooses a colour.
    Swap,
    /// The first player places white, black, white; the second swaps, takes black and places a
    /// black stone, or places black and white and passes the choice back.
    Swap2,
}

/// The stones the first player places before Pente Swap's colour choice (white, black, white,
/// black; gomoku's Swap places three).
pub const PENTE_SWAP_STONES: u8 = 4;

impl PenteOpening {
    /// The shared opening rule ([`crate::rules::opening`]) with the same definition: Pro, Long
    /// Pro, Swap (with [`PENTE_SWAP_STONES`] stones) and Swap2, with white as the first colour.
    pub const fn shared(self) -> crate::rules::opening::OpeningRule {
        use crate::rules::opening::OpeningRule;
        match self {
            PenteOpening::None => OpeningRule::None,
            PenteOpening::Pro => OpeningRule::Pro,
            PenteOpening::LongPro => OpeningRule::LongPro,
            PenteOpening::Swap => OpeningRule::Swap,
            PenteOpening::Swap2 => OpeningRule::Swap2,
        }
    }

    /// Whether the rule has a colour-choice phase (Swap, Swap2) run by
    /// [`crate::pente::opening`]; Pro and Long Pro only constrain ordinary moves.
    pub const fn is_interactive(self) -> bool {
        matches!(self, PenteOpening::Swap | PenteOpening::Swap2)
    }

    /// The JSON name.
    pub const fn name(self) -> &'static str {
        match self {
            PenteOpening::None => "none",
            PenteOpening::Pro => "pro",
            PenteOpening::LongPro => "longPro",
            PenteOpening::Swap => "swap",
            PenteOpening::Swap2 => "swap2",
        }
    }
}

/// A rules option with a value the rules do not accept.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid value {value} for Pente option {field}: {expected}")]
pub struct OptionError {
    /// The option's JSON name.
    pub field: &'static str,
    /// The value given.
    pub value: String,
    /// What is accepted.
    pub expected: &'static str,
}

/// The rules options of one Pente game (what the rules core needs; the referee adds clocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct PenteRules {
    /// Board side: 9, 13, 15 or 19.
    pub board_size: usize,
    /// Groups of exactly three are captured too.
    pub three_capture: bool,
    /// Captured stones win (10, 15 with three-capture; 8 and 12 in the multi-player game without
    /// teams). Off is not allowed with 3 or 4 players.
    pub capture_win: bool,
    /// Overlines win or are forbidden.
    pub overline: Overline,
    /// The suicide rule.
    pub suicide: Suicide,
    /// The extension rule.
    pub extension: Extension,
    /// The opening rule (two players only).
    pub opening_rule: PenteOpening,
    /// Number of players, 2..=4.
    pub players: u8,
    /// Two teams of two (4 players): seats 0 and 2 against seats 1 and 3.
    pub teams: bool,
    /// Groups of different colours may be captured (3 or 4 players).
    pub mixed_capture: bool,
}

impl Default for PenteRules {
    fn default() -> PenteRules {
        PenteRules {
            board_size: 19,
            three_capture: false,
            capture_win: true,
            overline: Overline::Win,
            suicide: Suicide::Nothing,
            extension: Extension::Off,
            opening_rule: PenteOpening::None,
            players: 2,
            teams: false,
            mixed_capture: false,
        }
    }
}

fn bad(field: &'static str, value: impl ToString, expected: &'static str) -> OptionError {
    OptionError {
        field,
        value: value.to_string(),
        expected,
    }
}

impl PenteRules {
    /// Whether this is the multi-player game without teams (shorter lines, lower capture target).
    pub const fn free_for_all(&self) -> bool {
        self.players > 2 && !self.teams
    }

    /// The winning line length: 5, or 4 in the multi-player game without teams.
    pub const fn line_len(&self) -> usize {
        if self.free_for_all() { 4 } else { 5 }
    }

    /// The captured stones that win (`None` when capture win is off).
    pub const fn capture_target(&self) -> Option<u32> {
        if !self.capture_win {
            return None;
        }
        Some(match (self.free_for_all(), self.three_capture) {
            (false, false) => 10,
            (false, true) => 15,
            (true, false) => 8,
            (true, true) => 12,
        })
    }

    /// The team of `seat` (the seat itself without teams).
    pub const fn team(&self, seat: u8) -> u8 {
        if self.teams { seat % 2 } else { seat }
    }

    /// Checks the combination; the first problem found.
    pub fn validate(&self) -> Result<(), OptionError> {
        if !BOARD_SIZES.contains(&self.board_size) {
            return Err(bad("boardSize", self.board_size, "9, 13, 15 or 19"));
        }
        if !(2..=4).contains(&self.players) {
            return Err(bad("players", self.players, "2, 3 or 4"));
        }
        if self.teams && self.players != 4 {
            return Err(bad("teams", true, "teams need 4 players"));
        }
        if self.players > 2 && !self.capture_win {
            return Err(bad(
                "captureWin",
                false,
                "capture win cannot be turned off with 3 or 4 players",
            ));
        }
        if self.mixed_capture && self.players == 2 {
            return Err(bad(
                "mixedCapture",
                true,
                "mixed captures need 3 or 4 players",
            ));
        }
        if self.players > 2 && self.opening_rule != PenteOpening::None {
            return Err(bad(
                "openingRule",
                self.opening_rule.name(),
                "opening rules are for two players",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_targets() {
        let r: PenteRules = serde_json::from_str("{}").unwrap();
        assert_eq!(r, PenteRules::default());
        assert_eq!((r.line_len(), r.capture_target()), (5, Some(10)));
        let three = PenteRules {
            three_capture: true,
            ..r
        };
        assert_eq!(three.capture_target(), Some(15));
        let ffa = PenteRules { players: 3, ..r };
        assert_eq!((ffa.line_len(), ffa.capture_target()), (4, Some(8)));
        let ffa3 = PenteRules {
            three_capture: true,
            ..ffa
        };
        assert_eq!(ffa3.capture_target(), Some(12));
        let teams = PenteRules {
            players: 4,
            teams: true,
            ..r
        };
        assert_eq!((teams.line_len(), teams.capture_target()), (5, Some(10)));
        assert_eq!((teams.team(0), teams.team(1), teams.team(2)), (0, 1, 0));
    }

    #[test]
    fn bad_combinations() {
        let r = PenteRules::default();
        for (bad, field) in [
            (
                PenteRules {
                    board_size: 17,
                    ..r
                },
                "boardSize",
            ),
            (PenteRules { players: 5, ..r }, "players"),
            (PenteRules { teams: true, ..r }, "teams"),
            (
                PenteRules {
                    players: 3,
                    capture_win: false,
                    ..r
                },
                "captureWin",
            ),
            (
                PenteRules {
                    mixed_capture: true,
                    ..r
                },
                "mixedCapture",
            ),
            (
                PenteRules {
                    players: 3,
                    opening_rule: PenteOpening::Pro,
                    ..r
                },
                "openingRule",
            ),
        ] {
            assert_eq!(bad.validate().unwrap_err().field, field);
        }
        assert!(serde_json::from_str::<PenteRules>(r#"{"suicide":"maybe"}"#).is_err());
    }
}
