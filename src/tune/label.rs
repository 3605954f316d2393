//! Training positions judged by a stronger engine: [`positions`] picks distinct positions from
//! game records (seeded), and a [`Judge`] — any Piskvork brain that reports its evaluation in a
//! `MESSAGE … Eval <value> …` line while it thinks — gives each its expected score for the side
//! to move, written as a labelled position ([`GameRecord::value`]) that `tune fit` reads.

use std::collections::HashSet;
use std::sync::Arc;

use rand_core::{RngCore, SeedableRng};

use super::GameRecord;
use crate::board::Board;
use crate::rule::Rule;
use crate::time::SystemClock;
use crate::tournament::engine_process::{
    EngineClient, EngineFailure, ProcessCommand, ProcessTransport,
};

/// What makes positions the same: rule, size, and the first and the second player's stones
/// in order.
type PositionKey = (String, usize, Vec<(i64, i64)>, Vec<(i64, i64)>);

/// Distinct positions of the games (the same stones of each colour under the same rule and
/// size count once), each a record of the moves that lead to it: every position after `skip`
/// or more moves up to the one before the game's last move (the final position is decided),
/// shuffled by `seed`, at most `count` of them, grouped by size and rule. With `quiet`, only
/// the positions `tune fit` trains on ([`super::features`]: no five and no straight four to
/// make for either side), so that no judge time goes to positions the fit leaves out.
/// Deterministic for the same records and seed; a record whose moves cannot be played is an
/// error.
pub fn positions(
    games: &[GameRecord],
    skip: usize,
    count: usize,
    seed: u64,
    quiet: bool,
) -> Result<Vec<GameRecord>, String> {
    let mut seen: HashSet<PositionKey> = HashSet::new();
    let mut out = Vec::new();
    for (gi, g) in games.iter().enumerate() {
        let moves: Vec<Vec<i64>> = g
            .moves
            .iter()
            .map(|m| m.iter().take(2).copied().collect())
            .collect();
        let is_quiet = if quiet {
            quiet_flags(g, &moves).map_err(|e| format!("record {}: {e}", gi + 1))?
        } else {
            vec![true; moves.len()]
        };
        for n in skip..moves.len() {
            if !is_quiet[n] {
                continue;
            }
            let stones = |first: usize| {
                let mut s: Vec<(i64, i64)> = moves[..n]
                    .iter()
                    .skip(first)
                    .step_by(2)
                    .filter_map(|m| Some((*m.first()?, *m.get(1)?)))
                    .collect();
                s.sort_unstable();
                s
            };
            if seen.insert((g.rule.clone(), g.size, stones(0), stones(1))) {
                out.push(GameRecord {
                    rule: g.rule.clone(),
                    size: g.size,
                    moves: moves[..n].to_vec(),
                    winner: None,
                    value: None,
                    black: None,
                    white: None,
                    opening_stones: None,
                });
            }
        }
    }
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    for i in (1..out.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        out.swap(i, j);
    }
    out.truncate(count);
    // Grouped by board size and rule (the shuffled order kept within a group): a judge is
    // started again whenever they change.
    out.sort_by(|a, b| (a.size, &a.rule).cmp(&(b.size, &b.rule)));
    Ok(out)
}

/// For each number of moves `n` before the last, whether the position after the record's first
/// `n` moves is quiet ([`super::features`]); the game is replayed once.
fn quiet_flags(g: &GameRecord, moves: &[Vec<i64>]) -> Result<Vec<bool>, String> {
    let rule: Rule = g.rule.parse().map_err(|e| format!("{e}"))?;
    let mut board = Board::square(g.size, rule).map_err(|e| e.to_string())?;
    let mut flags = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        flags.push(super::features(&board, super::Trained::Quiet).is_some());
        super::play_recorded(&mut board, i, m)?;
    }
    Ok(flags)
}

/// A judge's evaluation of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// A score in the judge's units.
    Score(i32),
    /// A proved win (`+M…`).
    Win,
    /// A proved loss (`-M…`).
    Loss,
}

impl Verdict {
    /// The expected score for the side to move: `1 / (1 + exp(-score / scale))`, 1 for a win and
    /// 0 for a loss.
    pub fn expected_score(self, scale: f64) -> f64 {
        match self {
            Verdict::Score(s) => 1.0 / (1.0 + (-(s as f64) / scale).exp()),
            Verdict::Win => 1.0,
            Verdict::Loss => 0.0,
        }
    }
}

/// The evaluation a `MESSAGE` line reports as `Eval <value>` (a number, or `+M<n>` / `-M<n>`
/// for a proved result), if it has one.
pub fn parse_eval(line: &str) -> Option<Verdict> {
    let mut words = line.split(|c: char| c.is_whitespace() || c == '|' || c == ',');
    words.find(|w| w.eq_ignore_ascii_case("eval"))?;
    let value = words.find(|w| !w.is_empty())?;
    if let Some(rest) = value.strip_prefix("+M").or_else(|| value.strip_prefix('M')) {
        rest.parse::<u32>().ok().map(|_| Verdict::Win)
    } else if let Some(rest) = value.strip_prefix("-M") {
        rest.parse::<u32>().ok().map(|_| Verdict::Loss)
    } else {
        value.parse::<i32>().ok().map(Verdict::Score)
    }
}

/// How the judge is asked.
#[derive(Clone, Debug)]
pub struct JudgeConfig {
    /// The brain's command.
    pub command: ProcessCommand,
    /// Depth limit sent as `INFO max_depth` (0: none).
    pub depth: u32,
    /// Turn limit sent as `INFO timeout_turn`, in ms.
    pub turn_ms: u64,
}

/// A judge brain, started again whenever it stops answering.
pub struct Judge {
    config: JudgeConfig,
    client: Option<EngineClient>,
    /// The board size and rule the running brain was set up for.
    setup: Option<(usize, Rule)>,
}

/// How long the brain may take to start and answer `START`.
const START_MS: u64 = 10_000;
/// How long one `ABOUT` may take before it is asked again.
const SYNC_MS: u64 = 300;

impl Judge {
    /// A judge that starts its brain at the first position.
    pub fn new(config: JudgeConfig) -> Judge {
        Judge {
            config,
            client: None,
            setup: None,
        }
    }

    fn client(&mut self, size: usize, rule: Rule) -> Result<&mut EngineClient, EngineFailure> {
        if self.setup != Some((size, rule)) || self.client.is_none() {
            if let Some(c) = self.client.take() {
                c.end();
            }
            let transport = ProcessTransport::spawn(&self.config.command)
                .map_err(|e| EngineFailure::Gone(e.to_string()))?;
            let mut c = EngineClient::new(Box::new(transport), Arc::new(SystemClock::new()));
            c.start(size, START_MS)?;
            let rule_line = match rule.gomocup_code() {
                Some(code) => format!("INFO rule {code}"),
                None => format!("INFO omok_rule {}", rule.name()),
            };
            let mut info = vec![
                format!("INFO timeout_turn {}", self.config.turn_ms),
                "INFO timeout_match 0".to_string(),
                rule_line,
            ];
            if self.config.depth > 0 {
                info.push(format!("INFO max_depth {}", self.config.depth));
            }
            c.send(&info)?;
            self.client = Some(c);
            self.setup = Some((size, rule));
        }
        Ok(self.client.as_mut().expect("started above"))
    }

    /// The judge's verdict on the position after `record`'s moves for the side to move; `None`
    /// when it answered without reporting an evaluation (a forced reply). A brain that fails is
    /// killed, and the next position starts a new one.
    pub fn judge(&mut self, record: &GameRecord) -> Result<Option<Verdict>, String> {
        let rule: Rule = record.rule.parse().map_err(|e| format!("{e}"))?;
        let n = record.moves.len();
        let mut lines = vec!["BOARD".to_string()];
        for (i, m) in record.moves.iter().enumerate() {
            let (x, y) = match m.as_slice() {
                [x, y, ..] => (*x, *y),
                _ => return Err(format!("move {i} is not [x, y]")),
            };
            // The side to move's stones are 1, the others 2.
            let own = if (n - i) % 2 == 0 { 1 } else { 2 };
            lines.push(format!("{x},{y},{own}"));
        }
        lines.push("DONE".to_string());
        let turn_ms = self.config.turn_ms;
        let result = (|| {
            let c = self.client(record.size, rule)?;
            // A brain may still be finishing its last search when it has answered, and take the
            // next line for an interruption: `ABOUT` is asked until it is answered, so that the
            // board is sent to a brain that reads commands again.
            let mut synced = false;
            for _ in 0..20 {
                match c.request(&["ABOUT".to_string()], SYNC_MS, true) {
                    Ok(_) => {
                        synced = true;
                        break;
                    }
                    Err(EngineFailure::Timeout { .. }) => continue,
                    Err(e) => return Err(e),
                }
            }
            if !synced {
                return Err(EngineFailure::Gone("does not answer ABOUT".into()));
            }
            c.clear_messages();
            c.request(&lines, turn_ms + 2_000, true)?;
            Ok(c.messages().filter_map(parse_eval).last())
        })();
        result.map_err(|e| {
            if let Some(mut c) = self.client.take() {
                c.kill();
            }
            e.to_string()
        })
    }

    /// Ends the brain.
    pub fn end(mut self) {
        if let Some(c) = self.client.take() {
            c.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_are_read_from_message_lines() {
        let line = "MESSAGE Speed 320K | Depth 12-23 | Eval -126 | Node 44K | Time 140ms";
        assert_eq!(parse_eval(line), Some(Verdict::Score(-126)));
        assert_eq!(
            parse_eval("MESSAGE Depth 6-2 | Eval +M3 | Node 10"),
            Some(Verdict::Win)
        );
        assert_eq!(parse_eval("MESSAGE Eval -M18"), Some(Verdict::Loss));
        assert_eq!(parse_eval("MESSAGE Bestline H5 J6"), None);
        assert_eq!(parse_eval("MESSAGE Eval soon"), None);
        assert!((Verdict::Score(0).expected_score(200.0) - 0.5).abs() < 1e-12);
        assert!(Verdict::Score(200).expected_score(200.0) > 0.73);
        assert_eq!(Verdict::Loss.expected_score(200.0), 0.0);
    }

    #[test]
    fn positions_are_distinct_seeded_and_leave_out_the_ends() {
        let game = |moves: &[[i64; 2]]| GameRecord {
            rule: "freestyle".into(),
            size: 15,
            moves: moves.iter().map(|m| m.to_vec()).collect(),
            winner: Some("black".into()),
            value: None,
            black: None,
            white: None,
            opening_stones: None,
        };
        // The same stones in another order make the same positions after four moves.
        let a = game(&[[7, 7], [8, 8], [6, 6], [9, 9], [5, 5], [1, 1]]);
        let b = game(&[[6, 6], [9, 9], [7, 7], [8, 8], [4, 4], [2, 2]]);
        let all = positions(&[a.clone(), b.clone()], 2, 100, 1, false).unwrap();
        // a: after 2, 3, 4 and 5 moves (not the final 6); b: 2, 3 and 5 (its 4 is a's 4).
        let mut lens: Vec<usize> = all.iter().map(|p| p.moves.len()).collect();
        lens.sort_unstable();
        assert_eq!(lens, vec![2, 2, 3, 3, 4, 5, 5]);
        assert!(all.iter().all(|p| p.winner.is_none() && p.value.is_none()));
        assert_eq!(
            positions(&[a.clone(), b.clone()], 0, 100, 1, false)
                .unwrap()
                .len(),
            10
        );
        let first: Vec<_> = positions(&[a.clone(), b.clone()], 2, 3, 7, false)
            .unwrap()
            .into_iter()
            .map(|p| p.moves)
            .collect();
        let again: Vec<_> = positions(&[a.clone(), b], 2, 3, 7, false)
            .unwrap()
            .into_iter()
            .map(|p| p.moves)
            .collect();
        assert_eq!(first, again);
        assert_eq!(first.len(), 3);
        // Records of another rule come as one group, so a judge starts once per rule.
        let mut c = game(&[[7, 7], [8, 8], [6, 6], [9, 9], [5, 5], [1, 1]]);
        c.rule = "renju".into();
        let d = game(&[[3, 3], [4, 4], [5, 3], [6, 6], [2, 2], [1, 1]]);
        let mixed = positions(&[c, d, a], 2, 100, 3, false).unwrap();
        let rules: Vec<&str> = mixed.iter().map(|p| p.rule.as_str()).collect();
        let changes = rules.windows(2).filter(|w| w[0] != w[1]).count();
        assert_eq!(rules.len(), 12);
        assert_eq!(changes, 1, "{rules:?}");
    }

    #[test]
    fn quiet_positions_leave_out_fives_and_straight_fours_to_make() {
        let record = |rule: &str, moves: &[[i64; 2]]| GameRecord {
            rule: rule.into(),
            size: 15,
            moves: moves.iter().map(|m| m.to_vec()).collect(),
            winner: None,
            value: None,
            black: None,
            white: None,
            opening_stones: None,
        };
        // Black builds 3..6 on row 7; White plays far away on row 0. After black's third stone
        // (5 moves) black has an open three: a straight four to make, not quiet, and so on.
        let moves = [
            [3, 7],
            [0, 0],
            [4, 7],
            [2, 0],
            [5, 7],
            [4, 0],
            [6, 7],
            [6, 0],
            [10, 10],
        ];
        let g = record("freestyle", &moves);
        // The numbers of moves of the positions picked, sorted.
        let lengths = |quiet: bool| {
            let mut n: Vec<usize> = positions(std::slice::from_ref(&g), 1, 100, 1, quiet)
                .unwrap()
                .iter()
                .map(|p| p.moves.len())
                .collect();
            n.sort_unstable();
            n
        };
        assert_eq!(lengths(false), (1..9).collect::<Vec<_>>());
        // From 5 moves on black can make a straight four (then a five): none of those is quiet.
        assert_eq!(lengths(true), vec![1, 2, 3, 4]);
        for p in positions(&[g], 0, 100, 1, true).unwrap() {
            let mut board = Board::square(15, Rule::Freestyle).unwrap();
            for (i, m) in p.moves.iter().enumerate() {
                crate::tune::play_recorded(&mut board, i, m).unwrap();
            }
            assert!(crate::tune::features(&board, crate::tune::Trained::Quiet).is_some());
        }
        // A record that cannot be replayed is an error, not a silent skip.
        let bad = record("freestyle", &[[7, 7], [7, 7], [1, 1]]);
        assert!(positions(std::slice::from_ref(&bad), 0, 100, 1, true).is_err());
        assert_eq!(positions(&[bad], 0, 100, 1, false).unwrap().len(), 3);
    }
}
