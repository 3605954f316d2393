//! Paired comparison of two runs of the same schedule: a base and a candidate build each played
//! the same spec (same seed, so game n has the same opening, symmetry and colours in both), and
//! their results are compared game by game.
//!
//! Pairing removes most of the noise that two independent runs carry: an opening that one side
//! wins whatever the builds do counts the same in both runs and drops out of the difference.
//! Each common game gives a difference `d = candidate − base` in points (−1, −½, 0, ½ or 1, from
//! the named engine's view); the report is their sum, their mean as percentage points of score
//! and the 95% interval of that mean (`1.96 · sd(d) / √n`, the sample standard deviation).
//!
//! Games are matched by their number in the schedule, opening line, symmetry and the engine's
//! colour; a game whose key is only in one run (a stopped run, a different spec) is left out and
//! counted. Everything here is arithmetic on the records' JSON lines; nothing reads files.

use std::collections::BTreeMap;

use serde_json::Value;
use thiserror::Error;

use super::stats::{Score, Wld, Z_95};

/// A line of a games log that cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CompareError {
    /// Not a JSON object.
    #[error("line {line}: not a JSON object: {message}")]
    Json {
        /// The 1-based line number.
        line: usize,
        /// What the parser said.
        message: String,
    },
    /// A field is missing or has the wrong type.
    #[error("line {line}: field `{field}` is missing or not {expected}")]
    Field {
        /// The 1-based line number.
        line: usize,
        /// The field.
        field: &'static str,
        /// What it should be.
        expected: &'static str,
    },
    /// The winner is neither black, white nor a draw.
    #[error("line {line}: winner `{winner}` is not \"black\", \"white\" or null")]
    Winner {
        /// The 1-based line number.
        line: usize,
        /// The value found.
        winner: String,
    },
    /// Two games of one run have the same key.
    #[error("line {line}: game {game} appears twice")]
    Duplicate {
        /// The 1-based line number.
        line: usize,
        /// The game number.
        game: u64,
    },
}

/// What pairs a game of one run with the same game of the other.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GameKey {
    /// The game's number in the schedule (1-based, as the log writes it).
    pub game: u64,
    /// The opening's line in the opening file.
    pub opening_line: u64,
    /// The symmetry applied to the opening.
    pub symmetry: String,
    /// Whether the engine compared played black.
    pub engine_black: bool,
}

/// One run's results for one engine: its score in each game it played, by key.
pub type RunResults = BTreeMap<GameKey, Score>;

/// Reads the games of `engine` from a tournament's `games.jsonl` text (blank lines are
/// skipped; games between other engines are left out).
pub fn read_results(text: &str, engine: &str) -> Result<RunResults, CompareError> {
    let mut out = RunResults::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(raw).map_err(|e| CompareError::Json {
            line,
            message: e.to_string(),
        })?;
        if !v.is_object() {
            return Err(CompareError::Json {
                line,
                message: "not an object".into(),
            });
        }
        let text_field = |field| read_field(&v, line, field, "a string", Value::as_str);
        let number_field = |field| read_field(&v, line, field, "a whole number", Value::as_u64);
        let (black, white) = (text_field("black")?, text_field("white")?);
        let engine_black = black == engine;
        if !engine_black && white != engine {
            continue;
        }
        let winner_black = match v.get("winner") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s == "black" => Some(true),
            Some(Value::String(s)) if s == "white" => Some(false),
            Some(other) => {
                return Err(CompareError::Winner {
                    line,
                    winner: other.to_string(),
                });
            }
        };
        let score = match winner_black {
            None => Score::Draw,
            Some(b) if b == engine_black => Score::Win,
            Some(_) => Score::Loss,
        };
        let key = GameKey {
            game: number_field("game")?,
            opening_line: number_field("opening_line")?,
            symmetry: text_field("symmetry")?.to_string(),
            engine_black,
        };
        let game = key.game;
        if out.insert(key, score).is_some() {
            return Err(CompareError::Duplicate { line, game });
        }
    }
    Ok(out)
}

/// Field `field` of the log line `line` (`v`), read by `get`; an error saying it should be
/// `expected` when it is missing or `get` finds no such value there.
fn read_field<'v, T>(
    v: &'v Value,
    line: usize,
    field: &'static str,
    expected: &'static str,
    get: impl Fn(&'v Value) -> Option<T>,
) -> Result<T, CompareError> {
    v.get(field).and_then(get).ok_or(CompareError::Field {
        line,
        field,
        expected,
    })
}

/// The points of a result: 1, ½ or 0.
fn points(s: Score) -> f64 {
    match s {
        Score::Win => 1.0,
        Score::Draw => 0.5,
        Score::Loss => 0.0,
    }
}

/// The comparison of a candidate run with a base run over their common games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// Games in both runs.
    pub common: usize,
    /// Games only in the base run.
    pub base_only: usize,
    /// Games only in the candidate run.
    pub candidate_only: usize,
    /// The base's results over the common games.
    pub base: Wld,
    /// The candidate's results over the common games.
    pub candidate: Wld,
    /// Common games with different results.
    pub differing: usize,
    /// The candidate's points less the base's over the common games.
    pub points: f64,
    /// The mean difference a game, in percentage points of score (`None` without common games).
    pub mean_percent: Option<f64>,
    /// Half the 95% interval of the mean, in percentage points (`None` with fewer than two
    /// common games).
    pub margin_percent: Option<f64>,
}

/// Compares `candidate` with `base` game by game.
pub fn compare(base: &RunResults, candidate: &RunResults) -> Comparison {
    let mut c = Comparison {
        common: 0,
        base_only: 0,
        candidate_only: candidate.keys().filter(|k| !base.contains_key(k)).count(),
        base: Wld::default(),
        candidate: Wld::default(),
        differing: 0,
        points: 0.0,
        mean_percent: None,
        margin_percent: None,
    };
    let mut diffs = Vec::new();
    for (key, &b) in base {
        let Some(&k) = candidate.get(key) else {
            c.base_only += 1;
            continue;
        };
        c.common += 1;
        c.base.add(b);
        c.candidate.add(k);
        c.differing += (b != k) as usize;
        diffs.push(points(k) - points(b));
    }
    c.points = diffs.iter().sum();
    let n = diffs.len() as f64;
    if !diffs.is_empty() {
        let mean = c.points / n;
        c.mean_percent = Some(100.0 * mean);
        if diffs.len() >= 2 {
            let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
            c.margin_percent = Some(100.0 * Z_95 * (var / n).sqrt());
        }
    }
    c
}

impl std::fmt::Display for Comparison {
    /// Three lines: the common games, each run's results on them, the paired difference.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "common games: {} (only in the base: {}, only in the candidate: {})",
            self.common, self.base_only, self.candidate_only
        )?;
        for (name, w) in [("base", self.base), ("candidate", self.candidate)] {
            let score = w
                .score()
                .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
            writeln!(
                f,
                "{name}: {}/{}/{} (W/L/D) {score}",
                w.wins, w.losses, w.draws
            )?;
        }
        let mean = match (self.mean_percent, self.margin_percent) {
            (Some(m), Some(e)) => format!("mean {m:+.1} ± {e:.1} percentage points of score (95%)"),
            (Some(m), None) => format!("mean {m:+.1} percentage points of score"),
            _ => "no common games".to_string(),
        };
        write!(
            f,
            "paired: {:+.1} points over the common games, {mean}; {} games differ",
            self.points, self.differing
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log line of game `game` (opening line `line`, identity symmetry) between `omok` and
    /// `peer`, `omok` black when `omok_black`, won by `winner`.
    fn game(game: u64, line: u64, omok_black: bool, winner: Option<&str>) -> String {
        let (black, white) = if omok_black {
            ("omok", "peer")
        } else {
            ("peer", "omok")
        };
        serde_json::json!({
            "game": game, "opening_line": line, "symmetry": "identity",
            "black": black, "white": white, "winner": winner, "moves": [],
        })
        .to_string()
    }

    #[test]
    fn results_are_read_from_the_engine_s_view() {
        let text = [
            game(1, 4, true, Some("black")),
            String::new(),
            game(2, 4, false, Some("black")),
            game(3, 9, false, None),
        ]
        .join("\n");
        let r = read_results(&text, "omok").unwrap();
        let scores: Vec<Score> = r.values().copied().collect();
        assert_eq!(scores, [Score::Win, Score::Loss, Score::Draw]);
        assert!(r.keys().next().unwrap().engine_black);
        // From the peer's view every result turns round.
        let p = read_results(&text, "peer").unwrap();
        let scores: Vec<Score> = p.values().copied().collect();
        assert_eq!(scores, [Score::Loss, Score::Win, Score::Draw]);
        // An engine that played no game has no results.
        assert!(read_results(&text, "other").unwrap().is_empty());
    }

    #[test]
    fn bad_lines_are_typed_errors_with_their_line() {
        assert!(matches!(
            read_results("{not json", "omok"),
            Err(CompareError::Json { line: 1, .. })
        ));
        let missing = r#"{"black":"omok","white":"peer","winner":null,"opening_line":1,"symmetry":"identity"}"#;
        assert_eq!(
            read_results(&format!("\n{missing}"), "omok"),
            Err(CompareError::Field {
                line: 2,
                field: "game",
                expected: "a whole number"
            })
        );
        let odd = game(1, 1, true, Some("red"));
        assert!(matches!(
            read_results(&odd, "omok"),
            Err(CompareError::Winner { line: 1, .. })
        ));
        let twice = [game(1, 1, true, None), game(1, 1, true, None)].join("\n");
        assert_eq!(
            read_results(&twice, "omok"),
            Err(CompareError::Duplicate { line: 2, game: 1 })
        );
    }

    #[test]
    fn the_comparison_pairs_games_by_their_key() {
        let base = [
            game(1, 1, true, Some("black")),  // win
            game(2, 1, false, Some("black")), // loss
            game(3, 2, true, None),           // draw
            game(4, 2, false, Some("black")), // loss
            game(5, 3, true, Some("black")),  // only in the base
        ]
        .join("\n");
        let cand = [
            game(1, 1, true, Some("black")),  // win: the same
            game(2, 1, false, Some("white")), // win: +1
            game(3, 2, true, Some("white")),  // loss: −½
            game(4, 2, false, Some("black")), // loss: the same
            game(6, 3, false, None),          // only in the candidate
            game(7, 4, true, None),           // only in the candidate
        ]
        .join("\n");
        let c = compare(
            &read_results(&base, "omok").unwrap(),
            &read_results(&cand, "omok").unwrap(),
        );
        assert_eq!((c.common, c.base_only, c.candidate_only), (4, 1, 2));
        assert_eq!(c.differing, 2);
        assert_eq!(c.points, 0.5);
        assert_eq!(
            c.base,
            Wld {
                wins: 1,
                losses: 2,
                draws: 1
            }
        );
        assert_eq!(
            c.candidate,
            Wld {
                wins: 2,
                losses: 2,
                draws: 0
            }
        );
        // Differences 0, +1, −½, 0: mean ⅛, sample variance (1/16 + 49/64 + 25/64 + 1/16) / 3.
        assert!((c.mean_percent.unwrap() - 12.5).abs() < 1e-9);
        let var: f64 = (1.0 / 64.0 + 49.0 / 64.0 + 25.0 / 64.0 + 1.0 / 64.0) / 3.0;
        let margin = 100.0 * Z_95 * (var / 4.0).sqrt();
        assert!((c.margin_percent.unwrap() - margin).abs() < 1e-9);
        let text = c.to_string();
        assert!(text.contains("common games: 4"), "{text}");
        assert!(text.contains("paired: +0.5 points"), "{text}");
    }

    #[test]
    fn a_game_with_the_other_colour_is_a_different_game() {
        let base = game(1, 1, true, Some("black"));
        let cand = game(1, 1, false, Some("black"));
        let c = compare(
            &read_results(&base, "omok").unwrap(),
            &read_results(&cand, "omok").unwrap(),
        );
        assert_eq!((c.common, c.base_only, c.candidate_only), (0, 1, 1));
        assert_eq!(c.mean_percent, None);
        assert!(c.to_string().contains("no common games"));
    }

    #[test]
    fn identical_runs_differ_by_nothing() {
        let text = [
            game(1, 1, true, Some("black")),
            game(2, 1, false, Some("black")),
        ]
        .join("\n");
        let r = read_results(&text, "omok").unwrap();
        let c = compare(&r, &r);
        assert_eq!((c.points, c.differing), (0.0, 0));
        assert_eq!(c.mean_percent, Some(0.0));
        assert_eq!(c.margin_percent, Some(0.0));
    }
}
