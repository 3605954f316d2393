//! Fitting the search's move ordering to a stronger engine's moves.
//!
//! A candidate point's ordering score is a sum of table values: one for what a stone of the
//! side to move there makes (its combination of line classes, [`crate::pattern::combo`]), one
//! for what a stone of the opponent there would make (occupying it takes that away), and one
//! each for its distance to the opponent's last stone and to our own. [`fit`] finds the
//! values under which the moves a teacher played in recorded games are the likeliest
//! (a softmax over the candidates, fitted by gradient descent on the cross-entropy), and
//! [`Report`] compares how often the fitted scores and the built-in ones put the teacher's
//! move first or among the first three.

use rayon::prelude::*;

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::eval::{move_score, policy_features};
use crate::pattern::combo::COMBOS;
use crate::pattern::policy::DISTANCE_BUCKETS;
use crate::pattern::policy_weights::{
    POLICY_NEAR_LAST, POLICY_NEAR_OWN, POLICY_OWN, POLICY_THEIRS,
};
use crate::rule::Rule;
use crate::rules::forbidden;

use super::{Adam, GameRecord, gradient_sum, teacher_positions};

/// Parameters of the model: the side to move's table, the opponent's, each as values shared
/// by every colour and a restricted colour's (renju black's) differences from them, then the
/// two distance tables. A restricted colour's value is the shared one plus its difference, so
/// that the few renju positions of a data set adjust the shared values instead of starting
/// from nothing.
const OWN: usize = 0;
const THEIRS: usize = 2 * COMBOS;
const NEAR_LAST: usize = 4 * COMBOS;
const NEAR_OWN: usize = NEAR_LAST + DISTANCE_BUCKETS;
const PARAMS: usize = NEAR_OWN + DISTANCE_BUCKETS;
/// A feature slot that is not used (a colour that is not restricted has no difference).
const UNUSED: u16 = u16::MAX;
/// How much more strongly than the shared values the restricted differences are pulled
/// toward zero.
const RESTRICTED_PRIOR_FACTOR: f64 = 100.0;

/// One candidate point's features: the parameter indices its score sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Indices into the model's parameters ([`UNUSED`] for none).
    pub features: [u16; 6],
    /// The built-in ordering score ([`move_score`]), for comparison.
    pub builtin: i32,
}

/// A position where the teacher moved: the candidates (every empty point near a stone that
/// is legal for the side to move) and which of them the teacher played.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The candidates, in board order.
    pub candidates: Vec<Candidate>,
    /// The index of the teacher's move among them.
    pub played: usize,
    /// The position's rule.
    pub rule: Rule,
}

/// The features of the candidate `p` for `us`.
pub fn candidate(board: &Board, p: Pos, us: Color) -> Candidate {
    let [own, theirs, last, before] = policy_features(board, p, us);
    // A restricted colour's combination reads the shared value and its difference.
    let split = |at: usize, k: usize| {
        let shared = (at + k % COMBOS) as u16;
        let delta = if k >= COMBOS {
            (at + COMBOS + k % COMBOS) as u16
        } else {
            UNUSED
        };
        (shared, delta)
    };
    let (own, own_delta) = split(OWN, own);
    let (theirs, theirs_delta) = split(THEIRS, theirs);
    Candidate {
        features: [
            own,
            theirs,
            (NEAR_LAST + last) as u16,
            (NEAR_OWN + before) as u16,
            own_delta,
            theirs_delta,
        ],
        builtin: move_score(board, p, us),
    }
}

/// The training positions of a game: every position from `skip` on (and past the opening's
/// stones) where a player named in `teachers` moved and its move was a candidate. Positions
/// where the opponent has a five to complete (a forced block) teach nothing and are left out.
pub fn samples(game: &GameRecord, teachers: &[String], skip: usize) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    teacher_positions(game, teachers, skip, |board, target| {
        let (us, rule) = (board.side_to_move(), board.rule());
        if board.threat_count(us.opponent(), crate::pattern::cell::ThreatSet::Five) > 0 {
            return;
        }
        let mut candidates = Vec::new();
        let mut played = None;
        let points: Vec<Pos> = board.near_empties().collect();
        for p in points {
            if rule.has_forbidden(us) && forbidden(board, p, us).is_some() {
                continue;
            }
            if p == target {
                played = Some(candidates.len());
            }
            candidates.push(candidate(board, p, us));
        }
        if let Some(played) = played
            && candidates.len() > 1
        {
            out.push(Sample {
                candidates,
                played,
                rule,
            });
        }
    })?;
    Ok(out)
}

/// The model's parameters, in the order above, in log-odds.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// All parameters.
    pub values: Vec<f64>,
}

impl Default for Model {
    fn default() -> Model {
        Model {
            values: vec![0.0; PARAMS],
        }
    }
}

impl Model {
    /// The values compiled into the engine ([`crate::pattern::policy_weights`]), in log-odds:
    /// a restricted colour's difference is its table's value less the shared one.
    pub fn current() -> Model {
        let mut values = vec![0.0; PARAMS];
        for (at, table) in [(OWN, &POLICY_OWN), (THEIRS, &POLICY_THEIRS)] {
            for k in 0..COMBOS {
                values[at + k] = table[0][k] as f64 / 100.0;
                values[at + COMBOS + k] = (table[1][k] - table[0][k]) as f64 / 100.0;
            }
        }
        for (at, table) in [(NEAR_LAST, &POLICY_NEAR_LAST), (NEAR_OWN, &POLICY_NEAR_OWN)] {
            for (i, &v) in table.iter().enumerate() {
                values[at + i] = v as f64 / 100.0;
            }
        }
        Model { values }
    }

    /// The score of a candidate, in log-odds.
    pub fn score(&self, c: &Candidate) -> f64 {
        c.features
            .iter()
            .filter(|&&f| f != UNUSED)
            .map(|&f| self.values[f as usize])
            .sum()
    }

    /// The tables as the search reads them, in hundredths of a unit of log-odds: the side to
    /// move's values (unrestricted, then restricted: the shared value plus the difference), the
    /// opponent's the same way, then the distance tables.
    pub fn scaled(&self) -> Vec<i32> {
        let mut v = self.values.clone();
        for at in [OWN, THEIRS] {
            for k in 0..COMBOS {
                v[at + COMBOS + k] += v[at + k];
            }
        }
        v.iter().map(|x| (x * 100.0).round() as i32).collect()
    }
}

/// How well a scoring ranks the teacher's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Accuracy {
    /// Share of positions where the teacher's move ranks first.
    pub top1: f64,
    /// Share where it ranks among the first three.
    pub top3: f64,
    /// Its mean rank (1 for first).
    pub mean_rank: f64,
}

/// The rank (0 for first) of the played move under `score`: the candidates scored higher,
/// and those scored the same that come first in board order (the search's stable order).
fn rank<F: Fn(&Candidate) -> f64>(s: &Sample, score: F) -> usize {
    let t = score(&s.candidates[s.played]);
    s.candidates
        .iter()
        .enumerate()
        .filter(|&(i, c)| {
            let v = score(c);
            v > t || (v == t && i < s.played)
        })
        .count()
}

/// The accuracy of `score` on `data`.
pub fn accuracy<F: Fn(&Candidate) -> f64 + Sync>(data: &[Sample], score: F) -> Accuracy {
    let ranks: Vec<usize> = data.par_iter().map(|s| rank(s, &score)).collect();
    let n = ranks.len().max(1) as f64;
    Accuracy {
        top1: ranks.iter().filter(|&&r| r == 0).count() as f64 / n,
        top3: ranks.iter().filter(|&&r| r < 3).count() as f64 / n,
        mean_rank: ranks.iter().map(|&r| r as f64 + 1.0).sum::<f64>() / n,
    }
}

/// Mean cross-entropy of the model's softmax on the teacher's moves.
pub fn loss(model: &Model, data: &[Sample]) -> f64 {
    // Summed in order, so that the same data give the same loss on every run.
    let each: Vec<f64> = data
        .par_iter()
        .map(|s| {
            let scores: Vec<f64> = s.candidates.iter().map(|c| model.score(c)).collect();
            let max = scores.iter().cloned().fold(f64::MIN, f64::max);
            let z: f64 = scores.iter().map(|v| (v - max).exp()).sum();
            -(scores[s.played] - max - z.ln())
        })
        .collect();
    each.iter().sum::<f64>() / data.len().max(1) as f64
}

/// What a fit did: the model and its loss and accuracy before (all values zero; accuracy
/// of the built-in scores and of the compiled tables) and after, on the training and the
/// held-out positions.
#[derive(Clone, Debug)]
pub struct Report {
    /// The fitted model.
    pub model: Model,
    /// Cross-entropy on the training positions, of the uniform model and of the fit.
    pub loss: (f64, f64),
    /// The same on the held-out positions.
    pub holdout_loss: (f64, f64),
    /// The built-in scores' accuracy on the held-out positions.
    pub builtin: Accuracy,
    /// The compiled ordering's ([`Model::current`]) on the held-out positions.
    pub current: Accuracy,
    /// The fitted model's.
    pub fitted: Accuracy,
}

/// Fits the model by full-batch gradient descent (Adam) on the cross-entropy with an L2 prior
/// `l2` toward zero. Deterministic.
pub fn fit(data: &[Sample], holdout: &[Sample], iterations: usize, l2: f64) -> Report {
    let start = Model::default();
    let mut m = start.clone();
    let mut adam = Adam::new(PARAMS, 0.05, iterations);
    for t in 1..=iterations {
        let grad = gradient_sum(data, PARAMS, |s, g| {
            let scores: Vec<f64> = s.candidates.iter().map(|c| m.score(c)).collect();
            let max = scores.iter().cloned().fold(f64::MIN, f64::max);
            let exps: Vec<f64> = scores.iter().map(|v| (v - max).exp()).collect();
            let z: f64 = exps.iter().sum();
            for (i, c) in s.candidates.iter().enumerate() {
                let p = exps[i] / z - (i == s.played) as u8 as f64;
                for &f in c.features.iter().filter(|&&f| f != UNUSED) {
                    g[f as usize] += p;
                }
            }
        });
        let n = data.len().max(1) as f64;
        for (i, &gi) in grad.iter().enumerate() {
            let restricted =
                (OWN + COMBOS..THEIRS).contains(&i) || (THEIRS + COMBOS..NEAR_LAST).contains(&i);
            let prior = if restricted {
                l2 * RESTRICTED_PRIOR_FACTOR
            } else {
                l2
            };
            m.values[i] -= adam.step(i, t, gi / n + prior * m.values[i]);
        }
    }
    let builtin = accuracy(holdout, |c| c.builtin as f64);
    let now = Model::current();
    let current = accuracy(holdout, |c| now.score(c));
    let fitted = accuracy(holdout, |c| m.score(c));
    Report {
        current,
        loss: (loss(&start, data), loss(&m, data)),
        holdout_loss: (loss(&start, holdout), loss(&m, holdout)),
        builtin,
        fitted,
        model: m,
    }
}

/// The Rust source of `src/pattern/policy_weights.rs` for a fitted model.
pub fn weights_source(report: &Report, data_note: &str) -> String {
    let v = report.model.scaled();
    let rows = |v: &[i32], indent: &str| {
        v.chunks(20)
            .map(|row| {
                let items: Vec<String> = row.iter().map(|x| x.to_string()).collect();
                format!("{indent}{},", items.join(", "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let table = |at: usize| {
        format!(
            "[\n    [\n{}\n    ],\n    [\n{}\n    ],\n]",
            rows(&v[at..at + COMBOS], "        "),
            rows(&v[at + COMBOS..at + 2 * COMBOS], "        ")
        )
    };
    format!(
        "//! The move ordering's values, fitted by `pbrain-omok tune policy` to a teacher's moves\n\
         //! ({data_note}), in hundredths of a unit of log-odds.\n\
         //! Written by the tuner: refit rather than edit by hand.\n\
         \n\
         use super::combo::COMBOS;\n\
         use super::policy::DISTANCE_BUCKETS;\n\
         \n\
         /// A candidate's value by the combination a stone of the side to move makes there\n\
         /// (unrestricted, then renju black).\n\
         #[rustfmt::skip]\n\
         pub const POLICY_OWN: [[i16; COMBOS]; 2] = {};\n\
         \n\
         /// A candidate's value by the combination a stone of the opponent would make there\n\
         /// (unrestricted, then renju black as the opponent).\n\
         #[rustfmt::skip]\n\
         pub const POLICY_THEIRS: [[i16; COMBOS]; 2] = {};\n\
         \n\
         /// A candidate's value by its distance to the opponent's last stone.\n\
         pub const POLICY_NEAR_LAST: [i16; DISTANCE_BUCKETS] = {:?};\n\
         \n\
         /// A candidate's value by its distance to the side to move's last stone.\n\
         pub const POLICY_NEAR_OWN: [i16; DISTANCE_BUCKETS] = {:?};\n",
        table(OWN),
        table(THEIRS),
        &v[NEAR_LAST..NEAR_OWN],
        &v[NEAR_OWN..PARAMS],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::policy_score;
    use crate::pattern::combo::{combo_of, line_class, ordered_index};
    use crate::pattern::policy::distance_bucket;
    use crate::tune::play_recorded;

    fn record(line: &str) -> GameRecord {
        serde_json::from_str(line).unwrap()
    }

    /// Only the teachers' moves train, from the skip and past the opening's stones, and a
    /// forced block (the opponent has a five to complete) does not.
    #[test]
    fn samples_are_the_teachers_choices() {
        // The opening places 7,7 and 0,0; black (the teacher) makes a straight four on row 7,
        // white blocks one end (forced) and black plays on near 0,0.
        let game = record(
            r#"{"rule":"freestyle","size":15,"moves":[[7,7],[0,0],[8,7],[0,2],[9,7],[0,4],[10,7],[11,7],[1,1]],
                "winner":null,"black":"judge","white":"omok","opening_stones":2}"#,
        );
        let teachers = ["judge".to_string()];
        let s = samples(&game, &teachers, 0).unwrap();
        // Black chose moves 2, 4, 6 and 8.
        assert_eq!(s.len(), 4);
        for sample in &s {
            assert!(sample.candidates.len() > 1);
            assert_eq!(sample.rule, Rule::Freestyle);
        }
        assert_eq!(samples(&game, &teachers, 5).unwrap().len(), 2);
        // White chose moves 3 and 5; move 7 was forced.
        assert_eq!(samples(&game, &["omok".to_string()], 0).unwrap().len(), 2);
        assert!(
            samples(&game, &["nobody".to_string()], 0)
                .unwrap()
                .is_empty()
        );
        // The played point is among the candidates, with the features of `candidate`.
        let mut board = Board::square(15, Rule::Freestyle).unwrap();
        for (i, m) in game.moves[..2].iter().enumerate() {
            play_recorded(&mut board, i, m).unwrap();
        }
        let first = &s[0];
        let played = Pos::new(8, 7).unwrap();
        assert_eq!(
            first.candidates[first.played],
            candidate(&board, played, Color::Black)
        );
        // A move off the candidates (far from every stone) is no sample.
        let far = record(
            r#"{"rule":"freestyle","size":15,"moves":[[7,7],[14,14],[0,0]],"black":"judge","white":"omok"}"#,
        );
        assert_eq!(samples(&far, &teachers, 0).unwrap().len(), 0);
    }

    /// The search's score of a candidate is the written tables' sum over the features that a
    /// slow recomputation from the line patterns gives.
    #[test]
    fn policy_scores_read_the_combinations_of_both_colours() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let mut board = Board::square(15, rule).unwrap();
            let moves = [
                (7, 7),
                (8, 8),
                (8, 7),
                (9, 7),
                (6, 8),
                (7, 9),
                (6, 6),
                (5, 5),
            ];
            for (i, &(x, y)) in moves.iter().enumerate() {
                let us = board.side_to_move();
                let points: Vec<Pos> = board.near_empties().collect();
                for p in points {
                    let combo = |c: Color| {
                        let k = combo_of(ordered_index(board.patterns(p, c).map(line_class)));
                        crate::eval::restricted(&board, c) as usize * COMBOS + k
                    };
                    let near = |back: usize| {
                        let h = board.history();
                        h.len()
                            .checked_sub(back)
                            .map_or(DISTANCE_BUCKETS - 1, |j| distance_bucket(p, h[j].0))
                    };
                    let (own, theirs) = (combo(us), combo(us.opponent()));
                    let expected = POLICY_OWN[own / COMBOS][own % COMBOS] as i32
                        + POLICY_THEIRS[theirs / COMBOS][theirs % COMBOS] as i32
                        + POLICY_NEAR_LAST[near(1)] as i32
                        + POLICY_NEAR_OWN[near(2)] as i32;
                    assert_eq!(
                        policy_score(&board, p, us),
                        expected,
                        "{rule} move {i} {p:?}"
                    );
                }
                board.make_move(Pos::new(x, y).unwrap(), us);
            }
        }
    }

    /// The compiled tables read as a model score every candidate as the search does (in
    /// log-odds rather than hundredths), renju black's restricted values included.
    #[test]
    fn the_current_model_is_the_compiled_ordering() {
        let current = Model::current();
        for rule in [Rule::Freestyle, Rule::Renju] {
            let mut board = Board::square(15, rule).unwrap();
            for (x, y) in [(7, 7), (8, 8), (8, 7), (9, 7), (6, 8), (7, 9), (6, 6)] {
                let us = board.side_to_move();
                let points: Vec<Pos> = board.near_empties().collect();
                for p in points {
                    let score = current.score(&candidate(&board, p, us));
                    assert_eq!(
                        (score * 100.0).round() as i32,
                        policy_score(&board, p, us),
                        "{rule} {p:?}"
                    );
                }
                board.make_move(Pos::new(x, y).unwrap(), us);
            }
        }
    }

    #[test]
    fn distance_classes() {
        let p = |x, y| Pos::new(x, y).unwrap();
        assert_eq!(distance_bucket(p(7, 7), p(8, 8)), 1);
        assert_eq!(distance_bucket(p(7, 7), p(9, 8)), 2);
        assert_eq!(distance_bucket(p(7, 7), p(9, 7)), 3);
        assert_eq!(distance_bucket(p(7, 7), p(11, 3)), 7);
        assert_eq!(distance_bucket(p(7, 7), p(11, 4)), 6);
        assert_eq!(distance_bucket(p(7, 7), p(13, 7)), 8);
        assert_eq!(distance_bucket(p(7, 7), p(14, 7)), 9);
    }

    /// On positions where the teacher always plays the candidate with one planted
    /// combination, the fit learns to put it first and the loss falls.
    #[test]
    fn the_fit_learns_a_planted_preference() {
        use rand_core::{RngCore, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let planted = 77u16;
        let data: Vec<Sample> = (0..600)
            .map(|_| {
                let n = 5 + (rng.next_u64() % 10) as usize;
                let played = (rng.next_u64() % n as u64) as usize;
                let candidates = (0..n)
                    .map(|i| {
                        let own = if i == played {
                            planted
                        } else {
                            100 + (rng.next_u64() % 200) as u16
                        };
                        Candidate {
                            features: [
                                OWN as u16 + own,
                                (THEIRS as u64 + rng.next_u64() % 300) as u16,
                                (NEAR_LAST as u64 + rng.next_u64() % 10) as u16,
                                (NEAR_OWN as u64 + rng.next_u64() % 10) as u16,
                                UNUSED,
                                UNUSED,
                            ],
                            builtin: 0,
                        }
                    })
                    .collect();
                Sample {
                    candidates,
                    played,
                    rule: Rule::Freestyle,
                }
            })
            .collect();
        let (train, holdout) = data.split_at(500);
        let r = fit(train, holdout, 100, 1e-6);
        assert!(r.loss.1 < r.loss.0 / 2.0, "{:?}", r.loss);
        assert!(
            r.holdout_loss.1 < r.holdout_loss.0 / 2.0,
            "{:?}",
            r.holdout_loss
        );
        assert!(r.fitted.top1 > 0.95, "{:?}", r.fitted);
        // The built-in scores are all equal here: the first candidate in board order ranks
        // first.
        assert!(r.builtin.top1 < 0.3, "{:?}", r.builtin);
        let source = weights_source(&r, "a test");
        assert!(source.contains("pub const POLICY_OWN: [[i16; COMBOS]; 2]"));
        assert!(source.contains("a test"));
    }
}
