//! The game options of seed 004 §2 (plus two tournament options), their defaults, their JSON
//! form and their validation; and the [`Setup`] of one game (options, players, seed, start time).
//!
//! JSON names are the seed's camelCase keys. Every field may be left out and takes the seed's
//! default; unknown keys are errors.
//!
//! | key | values | default |
//! |---|---|---|
//! | `ruleSet` | `korean`, `renju`, `free`, or any rule name of [`crate::rule::Rule`] (`freestyle`, `standard`, `casual`, `casual-44`, `casual-33-44`, `caro`, a Gomocup code) | `korean` |
//! | `freeWin` | `fivePlus`, `exactFive` (only with `free`: fivePlus = freestyle, exactFive = standard) | `fivePlus` |
//! | `boardSize` | 5..=32 (the seed offers 15 and 19; the rules core supports 5..=32) | 15 |
//! | `firstMoveCenter` | `auto` (on for renju only), `on`, `off` (or `true`/`false`) | `auto` |
//! | `colorAssignment` | `random` (seeded), `hostBlack`, `hostWhite`, `alternate` | `random` |
//! | `timeControl` | `{"kind":"none"}`, `{"kind":"perMove","perMoveSec":30}`, `{"kind":"fischer","baseSec":300,"incSec":3}` | perMove 30 s |
//! | `timeoutPolicy` | `autoMove`, `lose` (perMove only; fischer and none always lose on time) | `autoMove` |
//! | `idleLimitSec` | ≥ 1 (the no-response limit with `timeControl` none) | 300 |
//! | `undo` | `off`, a number of requests per player (0 = off), `unlimited` | 3 |
//! | `drawOffer` | `true`, `false` | `true` |
//! | `showForbidden` | `true`, `false` | `true` |
//! | `hints` | `off`, `warn` | `warn` |
//! | `forbiddenPolicy` | `reject` (the sites: no stone, same player again), `loss` (Gomocup: the stone stands, the player loses, reason `foul`) | `reject` |
//! | `forbidDepthCap` | `null` (exact) or ≥ 1 levels of the recursive three check (seed 001 uses 8) | `null` |
//! | `drawAfterStones` | `null` or ≥ 1: a draw (reason `moveLimit`) once that many stones stand without a winner (Gomocup renju: 200) | `null` |
//! | `openingRule` | `none`, `center`, `pro`, `longPro`, `swap`, `swap2`, `rif`, `soosorv` (N = 8), `soosorv-N` or `{"rule":"soosorv","n":N}` (N in 1..=10), `taraguchi10` ([`crate::rules::opening`]); the player drawn black by `colorAssignment` starts the opening. `firstMoveCenter` applies only with `none` | `none` |
//!
//! Time limits are whole seconds in 1..=86 400 (`incSec` may be 0); the referee itself counts in
//! milliseconds.

use serde::{Deserialize, Serialize};

use super::error::GameError;
use crate::core::{MAX_SIZE, MIN_SIZE};
use crate::rule::Rule;
use crate::rules::opening::OpeningRule;

/// The longest time limit accepted, in seconds (one day).
pub const MAX_TIME_SEC: u32 = 86_400;

/// `ruleSet`: the seed's three modes, or a rule of the rules core named directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum RuleSet {
    /// `free`: freestyle or standard by `freeWin`.
    Free,
    /// Any rule of the rules core (`korean`, `renju`, `casual`, …).
    Rule(Rule),
}

impl TryFrom<String> for RuleSet {
    type Error = String;
    fn try_from(s: String) -> Result<RuleSet, String> {
        if s.trim().eq_ignore_ascii_case("free") {
            return Ok(RuleSet::Free);
        }
        s.parse::<Rule>()
            .map(RuleSet::Rule)
            .map_err(|e| format!("{e}, or free"))
    }
}

impl From<RuleSet> for String {
    fn from(r: RuleSet) -> String {
        match r {
            RuleSet::Free => "free".into(),
            RuleSet::Rule(rule) => rule.name().into(),
        }
    }
}

/// `freeWin`: what wins under `free`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum FreeWin {
    /// Five or more (freestyle gomoku).
    #[default]
    FivePlus,
    /// Exactly five (standard gomoku).
    ExactFive,
}

/// `firstMoveCenter`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", try_from = "OnOff")]
pub enum FirstMoveCenter {
    /// On for renju only.
    #[default]
    Auto,
    /// Black's first move must be the centre.
    On,
    /// No constraint.
    Off,
}

/// The accepted JSON forms of [`FirstMoveCenter`]: a name or a boolean.
#[derive(Deserialize)]
#[serde(untagged)]
enum OnOff {
    Bool(bool),
    Name(String),
}

impl TryFrom<OnOff> for FirstMoveCenter {
    type Error = String;
    fn try_from(v: OnOff) -> Result<FirstMoveCenter, String> {
        match v {
            OnOff::Bool(true) => Ok(FirstMoveCenter::On),
            OnOff::Bool(false) => Ok(FirstMoveCenter::Off),
            OnOff::Name(s) => match s.as_str() {
                "auto" => Ok(FirstMoveCenter::Auto),
                "on" => Ok(FirstMoveCenter::On),
                "off" => Ok(FirstMoveCenter::Off),
                _ => Err(format!(
                    "firstMoveCenter must be auto, on, off, true or false, not {s:?}"
                )),
            },
        }
    }
}

/// `colorAssignment`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum ColorAssignment {
    /// Drawn with the game's seeded RNG.
    #[default]
    Random,
    /// The host plays black.
    HostBlack,
    /// The host plays white.
    HostWhite,
    /// The opposite of the previous game's assignment (`previousBlack` in the setup); random
    /// when there was no previous game.
    Alternate,
}

/// `timeControl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum TimeControl {
    /// No clock; a player who does not move within `idleLimitSec` loses on time.
    #[serde(rename = "none")]
    NoLimit {},
    /// Each move within `perMoveSec` seconds.
    PerMove {
        /// Seconds per move.
        #[serde(default = "default_per_move_sec")]
        per_move_sec: u32,
    },
    /// A bank of `baseSec` seconds per player, `incSec` added after each own move.
    Fischer {
        /// Initial seconds per player.
        #[serde(default = "default_base_sec")]
        base_sec: u32,
        /// Seconds added after each move.
        #[serde(default = "default_inc_sec")]
        inc_sec: u32,
    },
}

fn default_per_move_sec() -> u32 {
    30
}
fn default_base_sec() -> u32 {
    300
}
fn default_inc_sec() -> u32 {
    3
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl::PerMove {
            per_move_sec: default_per_move_sec(),
        }
    }
}

impl TimeControl {
    /// The JSON `kind` (`none`, `perMove`, `fischer`).
    pub const fn kind_name(self) -> &'static str {
        match self {
            TimeControl::NoLimit {} => "none",
            TimeControl::PerMove { .. } => "perMove",
            TimeControl::Fischer { .. } => "fischer",
        }
    }
}

/// `timeoutPolicy` (perMove only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum TimeoutPolicy {
    /// The seeded auto-move is played; the third consecutive timeout loses.
    #[default]
    AutoMove,
    /// The player loses on time.
    Lose,
}

/// `undo`: requests allowed per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "UndoRaw", into = "UndoRaw")]
pub enum UndoLimit {
    /// At most this many accepted undos per player (0 = off).
    Limited(u32),
    /// No limit.
    Unlimited,
}

impl Default for UndoLimit {
    fn default() -> UndoLimit {
        UndoLimit::Limited(3)
    }
}

impl UndoLimit {
    /// Whether undo requests are allowed at all.
    pub const fn enabled(self) -> bool {
        !matches!(self, UndoLimit::Limited(0))
    }

    /// Undos left after `used` accepted ones (`None` = unlimited).
    pub const fn remaining(self, used: u32) -> Option<u32> {
        match self {
            UndoLimit::Limited(n) => Some(n.saturating_sub(used)),
            UndoLimit::Unlimited => None,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum UndoRaw {
    Count(u32),
    Name(String),
}

impl TryFrom<UndoRaw> for UndoLimit {
    type Error = String;
    fn try_from(v: UndoRaw) -> Result<UndoLimit, String> {
        match v {
            UndoRaw::Count(n) => Ok(UndoLimit::Limited(n)),
            UndoRaw::Name(s) => match s.as_str() {
                "off" => Ok(UndoLimit::Limited(0)),
                "unlimited" => Ok(UndoLimit::Unlimited),
                _ => s.parse().map(UndoLimit::Limited).map_err(|_| {
                    format!("undo must be off, unlimited or a number of requests, not {s:?}")
                }),
            },
        }
    }
}

impl From<UndoLimit> for UndoRaw {
    fn from(u: UndoLimit) -> UndoRaw {
        match u {
            UndoLimit::Limited(0) => UndoRaw::Name("off".into()),
            UndoLimit::Limited(n) => UndoRaw::Count(n),
            UndoLimit::Unlimited => UndoRaw::Name("unlimited".into()),
        }
    }
}

/// `hints`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum Hints {
    /// No hints.
    Off,
    /// The player to move sees the opponent's fours and open threes.
    #[default]
    Warn,
}

/// `forbiddenPolicy`: what a move on a forbidden point does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum ForbiddenPolicy {
    /// Rejected with an error; no stone, the same player moves again (the seeds' sites).
    #[default]
    Reject,
    /// The stone stands and its player loses (reason `foul`; Gomocup/Piskvork judges).
    Loss,
}

/// All options of one game (seed 004 §2 and the tournament extras).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct GameOptions {
    /// The rule mode.
    pub rule_set: RuleSet,
    /// What wins under `free`.
    pub free_win: FreeWin,
    /// Board side.
    pub board_size: usize,
    /// Black's first move at the centre.
    pub first_move_center: FirstMoveCenter,
    /// Who plays black.
    pub color_assignment: ColorAssignment,
    /// The clock.
    pub time_control: TimeControl,
    /// What a perMove timeout does.
    pub timeout_policy: TimeoutPolicy,
    /// No-response limit in seconds with `timeControl` none.
    pub idle_limit_sec: u32,
    /// Undo requests per player.
    pub undo: UndoLimit,
    /// Whether draws may be offered.
    pub draw_offer: bool,
    /// Whether the player to move sees their forbidden points.
    pub show_forbidden: bool,
    /// Threat hints for the player to move.
    pub hints: Hints,
    /// What a forbidden move does.
    pub forbidden_policy: ForbiddenPolicy,
    /// Depth cap of the recursive three check (`None`: exact).
    pub forbid_depth_cap: Option<u32>,
    /// Draw once this many stones stand (`None`: no limit).
    pub draw_after_stones: Option<u32>,
    /// The opening rule (left out of the JSON when `none`, so that games without one keep the
    /// serialized options, and the state hashes, they had before opening rules existed).
    #[serde(
        with = "opening_rule_serde",
        skip_serializing_if = "OpeningRule::is_none"
    )]
    pub opening_rule: OpeningRule,
}

impl Default for GameOptions {
    fn default() -> GameOptions {
        GameOptions {
            rule_set: RuleSet::Rule(Rule::Korean),
            free_win: FreeWin::FivePlus,
            board_size: 15,
            first_move_center: FirstMoveCenter::Auto,
            color_assignment: ColorAssignment::Random,
            time_control: TimeControl::default(),
            timeout_policy: TimeoutPolicy::AutoMove,
            idle_limit_sec: 300,
            undo: UndoLimit::default(),
            draw_offer: true,
            show_forbidden: true,
            hints: Hints::Warn,
            forbidden_policy: ForbiddenPolicy::Reject,
            forbid_depth_cap: None,
            draw_after_stones: None,
            opening_rule: OpeningRule::None,
        }
    }
}

fn bad(field: &'static str, value: impl ToString, expected: &'static str) -> GameError {
    GameError::BadOption {
        field,
        value: value.to_string(),
        expected,
    }
}

fn check_seconds(field: &'static str, v: u32, min: u32) -> Result<(), GameError> {
    if (min..=MAX_TIME_SEC).contains(&v) {
        Ok(())
    } else if min == 0 {
        Err(bad(field, v, "0..=86400 seconds"))
    } else {
        Err(bad(field, v, "1..=86400 seconds"))
    }
}

impl GameOptions {
    /// The rule set of the rules core these options mean (`free` resolved by `freeWin`).
    pub const fn rule(&self) -> Rule {
        match (self.rule_set, self.free_win) {
            (RuleSet::Free, FreeWin::FivePlus) => Rule::Freestyle,
            (RuleSet::Free, FreeWin::ExactFive) => Rule::Standard,
            (RuleSet::Rule(r), _) => r,
        }
    }

    /// Whether black's first move must be the centre (`auto` = renju only) outside any opening
    /// rule (an opening rule other than `none` decides the first stone itself).
    pub const fn first_move_at_centre(&self) -> bool {
        if !matches!(self.opening_rule, OpeningRule::None) {
            return false;
        }
        match self.first_move_center {
            FirstMoveCenter::Auto => matches!(self.rule(), Rule::Renju),
            FirstMoveCenter::On => true,
            FirstMoveCenter::Off => false,
        }
    }

    /// Checks every range; the first problem found.
    pub fn validate(&self) -> Result<(), GameError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.board_size) {
            return Err(bad("boardSize", self.board_size, "5..=32"));
        }
        match self.time_control {
            TimeControl::NoLimit {} => {}
            TimeControl::PerMove { per_move_sec } => {
                check_seconds("timeControl.perMoveSec", per_move_sec, 1)?;
            }
            TimeControl::Fischer { base_sec, inc_sec } => {
                check_seconds("timeControl.baseSec", base_sec, 1)?;
                check_seconds("timeControl.incSec", inc_sec, 0)?;
            }
        }
        check_seconds("idleLimitSec", self.idle_limit_sec, 1)?;
        if self.forbid_depth_cap == Some(0) {
            return Err(bad("forbidDepthCap", 0, "null or at least 1"));
        }
        if self.draw_after_stones == Some(0) {
            return Err(bad("drawAfterStones", 0, "null or at least 1"));
        }
        if self.opening_rule.check().is_err() {
            return Err(bad(
                "openingRule",
                self.opening_rule,
                "soosorv's N in 1..=10",
            ));
        }
        if self.board_size < self.opening_rule.min_size() {
            return Err(bad(
                "boardSize",
                self.board_size,
                "a board large enough for the opening rule (pro 7, longPro/rif/soosorv 9, taraguchi10 11)",
            ));
        }
        Ok(())
    }
}

/// `openingRule` as a name (`soosorv-8`), read from a name or `{"rule": "soosorv", "n": 5}`.
mod opening_rule_serde {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::rules::opening::OpeningRule;

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Name(String),
        WithN { rule: String, n: u8 },
    }

    pub fn serialize<S: Serializer>(rule: &OpeningRule, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&rule.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<OpeningRule, D::Error> {
        let rule = match Raw::deserialize(d)? {
            Raw::Name(name) => name.parse(),
            Raw::WithN { rule, n } => {
                if rule.trim().eq_ignore_ascii_case("soosorv") {
                    let r = OpeningRule::Soosorv(n);
                    r.check().map(|_| r)
                } else {
                    return Err(serde::de::Error::custom(format!(
                        "openingRule {rule:?} takes no n (only soosorv does)"
                    )));
                }
            }
        };
        rule.map_err(serde::de::Error::custom)
    }
}

/// The two players: the host (who created the room) and the guest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Players {
    /// The host's id.
    pub host: String,
    /// The guest's id.
    pub guest: String,
}

/// Everything that starts a game: the setup line of `pbrain-omok referee`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Setup {
    /// The options (all defaulted when left out).
    #[serde(default)]
    pub options: GameOptions,
    /// Seed of the game's RNG (colour draw, auto-moves). A JSON number or a decimal string.
    #[serde(with = "seed_serde")]
    pub seed: u64,
    /// The two player ids.
    pub players: Players,
    /// Who played black in the previous game of the room (for `alternate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_black: Option<String>,
    /// The start time in milliseconds (the first move's clock starts here).
    #[serde(default)]
    pub now: u64,
}

impl Setup {
    /// A setup with default options.
    pub fn new(seed: u64, host: &str, guest: &str) -> Setup {
        Setup {
            options: GameOptions::default(),
            seed,
            players: Players {
                host: host.into(),
                guest: guest.into(),
            },
            previous_black: None,
            now: 0,
        }
    }

    /// Checks the options and the player ids.
    pub fn validate(&self) -> Result<(), GameError> {
        self.options.validate()?;
        let Players { host, guest } = &self.players;
        if host.is_empty() || guest.is_empty() || host == guest {
            return Err(GameError::BadPlayers {
                host: host.clone(),
                guest: guest.clone(),
            });
        }
        match &self.previous_black {
            Some(p) if p != host && p != guest => Err(GameError::UnknownPreviousBlack(p.clone())),
            _ => Ok(()),
        }
    }
}

/// The seed as a JSON number or a decimal string (JavaScript numbers lose precision above 2^53).
pub(crate) mod seed_serde {
    use serde::{Deserialize, Deserializer, Serializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Number(u64),
        Text(String),
    }

    pub fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(*seed)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        match Raw::deserialize(d)? {
            Raw::Number(n) => Ok(n),
            Raw::Text(t) => t.trim().parse().map_err(|_| {
                serde::de::Error::custom(format!("seed must be a non-negative integer, not {t:?}"))
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<GameOptions, String> {
        serde_json::from_str::<GameOptions>(json).map_err(|e| e.to_string())
    }

    #[test]
    fn defaults_are_the_seeds() {
        let o = parse("{}").unwrap();
        assert_eq!(o, GameOptions::default());
        assert_eq!(o.rule(), Rule::Korean);
        assert_eq!(o.time_control, TimeControl::PerMove { per_move_sec: 30 });
        assert_eq!(o.undo, UndoLimit::Limited(3));
        assert!(!o.first_move_at_centre());
        let v = serde_json::to_value(&o).unwrap();
        assert_eq!(v["ruleSet"], "korean");
        assert_eq!(v["timeControl"]["kind"], "perMove");
        assert_eq!(v["timeControl"]["perMoveSec"], 30);
        assert_eq!(v["undo"], 3);
        assert_eq!(v["hints"], "warn");
        assert_eq!(parse(&v.to_string()).unwrap(), o);
    }

    #[test]
    fn rule_sets_and_free_win() {
        let o = parse(r#"{"ruleSet":"free","freeWin":"exactFive"}"#).unwrap();
        assert_eq!(o.rule(), Rule::Standard);
        assert_eq!(
            parse(r#"{"ruleSet":"free"}"#).unwrap().rule(),
            Rule::Freestyle
        );
        let renju = parse(r#"{"ruleSet":"renju","freeWin":"exactFive"}"#).unwrap();
        assert_eq!(renju.rule(), Rule::Renju);
        assert!(renju.first_move_at_centre());
        for r in Rule::ALL {
            let o = parse(&format!(r#"{{"ruleSet":"{}"}}"#, r.name())).unwrap();
            assert_eq!(o.rule(), r);
        }
        assert!(
            parse(r#"{"ruleSet":"pente"}"#)
                .unwrap_err()
                .contains("pente")
        );
    }

    #[test]
    fn value_forms() {
        let o = parse(
            r#"{"firstMoveCenter":true,"undo":"unlimited","timeControl":{"kind":"fischer"},
                "colorAssignment":"hostWhite","forbiddenPolicy":"loss","drawAfterStones":200}"#,
        )
        .unwrap();
        assert!(o.first_move_at_centre());
        assert_eq!(o.undo, UndoLimit::Unlimited);
        assert_eq!(
            o.time_control,
            TimeControl::Fischer {
                base_sec: 300,
                inc_sec: 3
            }
        );
        assert_eq!(
            parse(r#"{"undo":"off"}"#).unwrap().undo,
            UndoLimit::Limited(0)
        );
        assert_eq!(parse(r#"{"undo":1}"#).unwrap().undo, UndoLimit::Limited(1));
        assert_eq!(
            parse(r#"{"timeControl":{"kind":"none"}}"#)
                .unwrap()
                .time_control,
            TimeControl::NoLimit {}
        );
    }

    #[test]
    fn unknown_keys_and_bad_values_are_rejected() {
        assert!(
            parse(r#"{"rules":"korean"}"#)
                .unwrap_err()
                .contains("unknown field")
        );
        assert!(parse(r#"{"timeControl":{"kind":"none","x":1}}"#).is_err());
        assert!(parse(r#"{"timeControl":{"kind":"perMove","baseSec":1}}"#).is_err());
        assert!(parse(r#"{"firstMoveCenter":"maybe"}"#).is_err());
        assert!(parse(r#"{"undo":"twice"}"#).is_err());
        for (json, field) in [
            (r#"{"boardSize":4}"#, "boardSize"),
            (r#"{"boardSize":33}"#, "boardSize"),
            (
                r#"{"timeControl":{"kind":"perMove","perMoveSec":0}}"#,
                "timeControl.perMoveSec",
            ),
            (
                r#"{"timeControl":{"kind":"fischer","baseSec":0}}"#,
                "timeControl.baseSec",
            ),
            (r#"{"idleLimitSec":0}"#, "idleLimitSec"),
            (r#"{"forbidDepthCap":0}"#, "forbidDepthCap"),
            (r#"{"drawAfterStones":0}"#, "drawAfterStones"),
        ] {
            match parse(json).unwrap().validate() {
                Err(GameError::BadOption { field: f, .. }) => assert_eq!(f, field, "{json}"),
                other => panic!("{json}: {other:?}"),
            }
        }
    }

    #[test]
    fn setup_checks_players_and_seed_forms() {
        let s: Setup = serde_json::from_str(
            r#"{"seed":"18446744073709551615","players":{"host":"a","guest":"b"}}"#,
        )
        .unwrap();
        assert_eq!(s.seed, u64::MAX);
        assert!(s.validate().is_ok());
        let mut same = s.clone();
        same.players.guest = "a".into();
        assert_eq!(same.validate().unwrap_err().code(), "badPlayers");
        let mut prev = s;
        prev.previous_black = Some("c".into());
        assert_eq!(prev.validate().unwrap_err().code(), "unknownPreviousBlack");
        assert!(
            serde_json::from_str::<Setup>(r#"{"seed":-1,"players":{"host":"a","guest":"b"}}"#)
                .is_err()
        );
    }
}
