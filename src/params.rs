//! Engine parameters: every tunable with its default, mirrored by `engine-config/default.toml`
//! (a test keeps them equal). Loaded from TOML with [`Params::from_toml`]; never from globals.
//!
//! Naming glossary for tunables: `*_ms` durations, `*_fraction`/`*_factor` multipliers,
//! `*_min`/`*_max` bounds.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A configuration file that cannot be used.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// Not valid TOML or not the expected fields.
    #[error("invalid engine config: {0}")]
    Toml(#[from] toml::de::Error),
    /// A value outside its range.
    #[error("invalid engine config: {0}")]
    Range(String),
}

/// All engine parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// The oldest engine version this file is meant for.
    pub min_version: String,
    /// Time management.
    pub time: TimeParams,
}

/// Time management parameters (see [`crate::time`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeParams {
    /// Milliseconds kept back from every limit.
    pub reserve_ms: u64,
    /// The reserve never exceeds this fraction of the limit.
    pub reserve_fraction: f64,
    /// Fraction of the maximum aimed at under a turn limit.
    pub optimum_factor: f64,
    /// Fewest moves the match time is spread over.
    pub moves_to_go_min: u64,
    /// Most moves the match time is spread over.
    pub moves_to_go_max: u64,
    /// A move may use up to this many shares of the match time.
    pub match_share_cap_factor: u64,
    /// Thinking time per move without any limit.
    pub unlimited_move_ms: u64,
}

impl Default for TimeParams {
    fn default() -> Self {
        TimeParams {
            reserve_ms: 120,
            reserve_fraction: 0.3,
            optimum_factor: 0.8,
            moves_to_go_min: 12,
            moves_to_go_max: 40,
            match_share_cap_factor: 3,
            unlimited_move_ms: 10_000,
        }
    }
}

impl Default for Params {
    fn default() -> Self {
        Params {
            min_version: "0.1.0".to_string(),
            time: TimeParams::default(),
        }
    }
}

impl Params {
    /// Parameters from TOML text, with range checks.
    pub fn from_toml(text: &str) -> Result<Params, ConfigError> {
        let p: Params = toml::from_str(text)?;
        let t = &p.time;
        if !(0.0..=0.9).contains(&t.reserve_fraction) {
            return Err(ConfigError::Range(format!(
                "time.reserve_fraction {} not in 0..=0.9",
                t.reserve_fraction
            )));
        }
        if !(0.05..=1.0).contains(&t.optimum_factor) {
            return Err(ConfigError::Range(format!(
                "time.optimum_factor {} not in 0.05..=1",
                t.optimum_factor
            )));
        }
        if t.moves_to_go_min == 0 || t.moves_to_go_min > t.moves_to_go_max {
            return Err(ConfigError::Range(
                "time.moves_to_go_min must be 1..=moves_to_go_max".into(),
            ));
        }
        if t.match_share_cap_factor == 0 {
            return Err(ConfigError::Range(
                "time.match_share_cap_factor must be at least 1".into(),
            ));
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_toml_mirrors_the_defaults() {
        let text = include_str!("../engine-config/default.toml");
        assert_eq!(Params::from_toml(text).unwrap(), Params::default());
    }

    #[test]
    fn bad_configs_are_errors() {
        assert!(Params::from_toml("min_version = 1").is_err());
        let text = include_str!("../engine-config/default.toml")
            .replace("reserve_fraction = 0.3", "reserve_fraction = 2.0");
        assert!(matches!(
            Params::from_toml(&text),
            Err(ConfigError::Range(_))
        ));
        let text =
            include_str!("../engine-config/default.toml").replace("[time]", "bogus = 1\n[time]");
        assert!(Params::from_toml(&text).is_err());
    }
}
