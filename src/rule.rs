//! The rule sets (SPEC §3) as plain data: names, aliases, Gomocup codes and the win rule of each
//! colour. Their behaviour (wins, forbidden points) lives in [`crate::rules`]; this file sits below
//! the board so that a board can be built for a rule.

use std::fmt;
use std::str::FromStr;

use crate::core::Color;
use crate::error::RuleParseError;
use crate::pattern::WinRule;

/// A rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Rule {
    /// Five or more wins, nothing forbidden (Gomocup rule 0; seed 004 `free`/fivePlus).
    Freestyle,
    /// Exactly five wins for both, nothing forbidden (Gomocup rule 1; seed 004 `free`/exactFive).
    Standard,
    /// RIF renju: black wins with exactly five and may not play 3-3, 4-4 or overlines; white wins
    /// with five or more (Gomocup rule 4).
    Renju,
    /// Korean omok (seed 004 default): exactly five wins for both, 3-3 forbidden for both, six or
    /// more is legal but does not win.
    Korean,
    /// The seed 000 site: five or more wins, window 3-3 forbidden for both (4-4 off).
    Casual,
    /// The seed 000 site with only its window 4-4 forbidden.
    Casual44,
    /// The seed 000 site with window 3-3 and 4-4 forbidden.
    Casual3344,
    /// Caro (Gomocup rules 8 and 9): exactly five wins, unless opponent stones block both ends.
    Caro,
}

impl Rule {
    /// Every rule set.
    pub const ALL: [Rule; 8] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Korean,
        Rule::Casual,
        Rule::Casual44,
        Rule::Casual3344,
        Rule::Caro,
    ];

    /// The canonical name (`freestyle`, `standard`, `renju`, `korean`, `casual`, `casual-44`,
    /// `casual-33-44`, `caro`).
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Korean => "korean",
            Rule::Casual => "casual",
            Rule::Casual44 => "casual-44",
            Rule::Casual3344 => "casual-33-44",
            Rule::Caro => "caro",
        }
    }

    /// The win rule for a colour's lines.
    pub const fn win_rule(self, color: Color) -> WinRule {
        match (self, color) {
            (Rule::Freestyle | Rule::Casual | Rule::Casual44 | Rule::Casual3344, _) => {
                WinRule::FiveOrMore
            }
            (Rule::Standard | Rule::Korean, _) => WinRule::ExactFive,
            (Rule::Renju, Color::Black) => WinRule::ExactFive,
            (Rule::Renju, Color::White) => WinRule::FiveOrMore,
            (Rule::Caro, _) => WinRule::Caro,
        }
    }

    /// Whether any point can be forbidden for `color`.
    pub const fn has_forbidden(self, color: Color) -> bool {
        match self {
            Rule::Renju => matches!(color, Color::Black),
            Rule::Korean | Rule::Casual | Rule::Casual44 | Rule::Casual3344 => true,
            Rule::Freestyle | Rule::Standard | Rule::Caro => false,
        }
    }

    /// The Gomocup `INFO rule` bitmask value of this rule, where it has one.
    pub const fn gomocup_code(self) -> Option<u32> {
        match self {
            Rule::Freestyle => Some(0),
            Rule::Standard => Some(1),
            Rule::Renju => Some(4),
            Rule::Caro => Some(8),
            _ => None,
        }
    }

    /// The rule of a Gomocup `INFO rule` value (the continuous-game bit 2 is ignored).
    pub fn from_gomocup_code(code: u32) -> Result<Rule, RuleParseError> {
        match code & !2 {
            0 => Ok(Rule::Freestyle),
            1 => Ok(Rule::Standard),
            4 | 5 => Ok(Rule::Renju),
            8 | 9 => Ok(Rule::Caro),
            _ => Err(RuleParseError::UnknownCode(code)),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = RuleParseError;

    /// Accepts the canonical names, case-insensitively, and the aliases `free`/`gomoku`
    /// (freestyle), `exact`/`exactfive` (standard), `omok` (korean), `casual-33` (casual),
    /// `casual33-44`/`casual-3344` (casual-33-44), `casual44` (casual-44), or a Gomocup code.
    fn from_str(s: &str) -> Result<Rule, RuleParseError> {
        let lower = s.trim().to_ascii_lowercase();
        let rule = match lower.as_str() {
            "freestyle" | "free" | "gomoku" | "fiveplus" => Rule::Freestyle,
            "standard" | "exact" | "exactfive" | "exact-five" => Rule::Standard,
            "renju" => Rule::Renju,
            "korean" | "omok" => Rule::Korean,
            "casual" | "casual-33" | "casual33" => Rule::Casual,
            "casual-44" | "casual44" => Rule::Casual44,
            "casual-33-44" | "casual33-44" | "casual-3344" | "casual3344" => Rule::Casual3344,
            "caro" => Rule::Caro,
            other => match other.parse::<u32>() {
                Ok(code) => return Rule::from_gomocup_code(code),
                Err(_) => return Err(RuleParseError::UnknownName(s.trim().to_string())),
            },
        };
        Ok(rule)
    }
}

impl TryFrom<String> for Rule {
    type Error = RuleParseError;
    fn try_from(s: String) -> Result<Rule, RuleParseError> {
        s.parse()
    }
}

impl From<Rule> for String {
    fn from(r: Rule) -> String {
        r.name().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in Rule::ALL {
            assert_eq!(r.name().parse::<Rule>().unwrap(), r);
            assert_eq!(r.name().to_uppercase().parse::<Rule>().unwrap(), r);
        }
    }

    #[test]
    fn gomocup_codes() {
        assert_eq!(Rule::from_gomocup_code(0).unwrap(), Rule::Freestyle);
        assert_eq!(Rule::from_gomocup_code(1).unwrap(), Rule::Standard);
        assert_eq!(Rule::from_gomocup_code(2).unwrap(), Rule::Freestyle);
        assert_eq!(Rule::from_gomocup_code(4).unwrap(), Rule::Renju);
        assert_eq!(Rule::from_gomocup_code(9).unwrap(), Rule::Caro);
        assert!(Rule::from_gomocup_code(16).is_err());
        assert_eq!("9".parse::<Rule>().unwrap(), Rule::Caro);
    }

    #[test]
    fn unknown_names_are_errors() {
        let e = "pente".parse::<Rule>().unwrap_err();
        assert!(e.to_string().contains("pente"), "{e}");
    }
}
