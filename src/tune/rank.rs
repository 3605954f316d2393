//! Fitting the evaluation to a stronger engine's choices of move (comparison training).
//!
//! Where a teacher moved, every legal candidate leads to a child position, and the static
//! evaluation of each child (from the mover's side: minus the child's evaluation, whose side
//! to move is the opponent) ranks the candidates. [`fit`] finds the evaluation's values under
//! which the teacher's choices are the likeliest: a softmax over the children's values divided
//! by a temperature (fitted first to the starting values and then kept, as [`super::fit`]
//! keeps its scale), by gradient descent on the cross-entropy, with the same priors as
//! [`super::fit`]. Only children that the evaluation itself would judge count (see
//! [`super::Trained::Defending`]): a child where either side has a five to complete, or the side
//! to move a straight four to make, is decided by search, and a position whose teacher's move
//! leads to such a child teaches nothing here.

use rayon::prelude::*;

use crate::core::Pos;
use crate::rules::forbidden;

use super::{
    Features, FitReport, GameRecord, Model, PARAMETERS, Trained, add_eval_gradient, best_scale,
    descend_for, features, gradient_sum, teacher_positions,
};

/// A position where the teacher moved: the features of each child the evaluation judges, and
/// which child the teacher's move leads to.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The children's features, in board order of their moves.
    pub children: Vec<Features>,
    /// The index of the teacher's child among them.
    pub played: usize,
}

/// The training positions of a game: every position from `skip` on (and past the opening's
/// stones) where a player named in `teachers` moved to a child the evaluation judges, with at
/// least one other such child.
pub fn samples(game: &GameRecord, teachers: &[String], skip: usize) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    teacher_positions(game, teachers, skip, |board, target| {
        let (us, rule) = (board.side_to_move(), board.rule());
        let mut children = Vec::new();
        let mut played = None;
        let points: Vec<Pos> = board.near_empties().collect();
        for p in points {
            if rule.has_forbidden(us) && forbidden(board, p, us).is_some() {
                continue;
            }
            board.make_move(p, us);
            let f = features(board, Trained::Defending);
            board.undo_move();
            if let Some(f) = f {
                if p == target {
                    played = Some(children.len());
                }
                children.push(f);
            }
        }
        if let Some(played) = played
            && children.len() > 1
        {
            out.push(Sample { children, played });
        }
    })?;
    Ok(out)
}

/// The children's values from the mover's side, divided by the temperature `t`.
fn scores(model: &Model, s: &Sample, t: f64) -> Vec<f64> {
    s.children.iter().map(|f| -model.eval(f) / t).collect()
}

/// Mean cross-entropy of the softmax over the children's values at temperature `t`.
pub fn loss(model: &Model, t: f64, data: &[Sample]) -> f64 {
    // Summed in order, so that the same data give the same loss on every run.
    let each: Vec<f64> = data
        .par_iter()
        .map(|s| {
            let v = scores(model, s, t);
            let max = v.iter().cloned().fold(f64::MIN, f64::max);
            let z: f64 = v.iter().map(|x| (x - max).exp()).sum();
            -(v[s.played] - max - z.ln())
        })
        .collect();
    each.iter().sum::<f64>() / data.len().max(1) as f64
}

/// Share of positions where the teacher's child has the best value (ties count against it).
pub fn top1(model: &Model, data: &[Sample]) -> f64 {
    let hits = data
        .par_iter()
        .filter(|s| {
            let v = scores(model, s, 1.0);
            let t = v[s.played];
            v.iter().enumerate().all(|(i, &x)| i == s.played || x < t)
        })
        .count();
    hits as f64 / data.len().max(1) as f64
}

/// The gradient of the cross-entropy summed over `data` (the mean's times the number of
/// positions) by the parameters in [`super::fit`]'s order.
fn gradient(model: &Model, t: f64, data: &[Sample]) -> Vec<f64> {
    gradient_sum(data, PARAMETERS, |s, g| {
        let v = scores(model, s, t);
        let max = v.iter().cloned().fold(f64::MIN, f64::max);
        let exps: Vec<f64> = v.iter().map(|x| (x - max).exp()).collect();
        let z: f64 = exps.iter().sum();
        for (i, f) in s.children.iter().enumerate() {
            // d(loss)/d(score_i) = p_i − [i played], and score_i = −eval_i / t.
            let d = -(exps[i] / z - (i == s.played) as u8 as f64) / t;
            add_eval_gradient(g, f, d);
        }
    })
}

/// The temperature that fits the model best (see [`super::fit_scale`]).
pub fn fit_temperature(model: &Model, data: &[Sample]) -> f64 {
    best_scale(|t| loss(model, t, data))
}

/// What a ranking fit did, with the share of held-out positions where the teacher's child
/// ranks first before and after.
#[derive(Clone, Debug)]
pub struct RankReport {
    /// The model, the temperature (as `k`) and the cross-entropies.
    pub fit: FitReport,
    /// Held-out top-1 share of the starting model.
    pub top1_before: f64,
    /// Held-out top-1 share of the fitted model.
    pub top1_after: f64,
}

/// Fits the combination values and the threat table to the teachers' choices (see the module
/// documentation), starting from `start`; `prior` as in [`super::fit`] (its default
/// [`super::DEFAULT_PRIOR`]). Deterministic.
pub fn fit(
    start: &Model,
    data: &[Sample],
    holdout: &[Sample],
    iterations: usize,
    prior: f64,
) -> RankReport {
    let t = fit_temperature(start, data);
    let loss_before = loss(start, t, data);
    let m = descend_for(start, data.len(), iterations, prior, |m| {
        gradient(m, t, data)
    });
    let loss_after = loss(&m, t, data);
    let on_holdout = |model: &Model| (!holdout.is_empty()).then(|| loss(model, t, holdout));
    RankReport {
        top1_before: top1(start, holdout),
        top1_after: top1(&m, holdout),
        fit: FitReport {
            holdout_before: on_holdout(start),
            holdout_after: on_holdout(&m),
            model: m,
            k: t,
            loss_before,
            loss_after,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::core::Color;
    use crate::params::Params;
    use crate::pattern::combo::COMBOS;
    use crate::rule::Rule;
    use crate::tune::play_recorded;
    use crate::tune::{GenConfig, generate};

    /// Seeded self-play games (node-limited) with the players named `a` and `b`.
    fn games(rule: Rule, count: usize) -> Vec<GameRecord> {
        let config = GenConfig {
            games: count,
            nodes: 300,
            rule,
            size: 15,
            seed: 11,
            params: Params::default(),
        };
        generate(&config)
            .into_iter()
            .map(|mut g| {
                g.black = Some("a".into());
                g.white = Some("b".into());
                g
            })
            .collect()
    }

    fn all_samples(games: &[GameRecord], teachers: &[&str]) -> Vec<Sample> {
        let teachers: Vec<String> = teachers.iter().map(|t| t.to_string()).collect();
        games
            .iter()
            .flat_map(|g| samples(g, &teachers, 0).unwrap())
            .collect()
    }

    /// A sample's children are the legal candidates whose positions the evaluation judges, in
    /// board order, and the teacher's child is the position after its move; a move that makes
    /// a four (the opponent must block) is no child and teaches nothing.
    #[test]
    fn samples_are_the_judged_children_of_the_teachers_moves() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let g = &games(rule, 1)[0];
            let s = samples(g, &["a".to_string()], 0).unwrap();
            assert!(!s.is_empty(), "{rule}");
            let mut board = Board::square(15, rule).unwrap();
            let mut next = s.iter();
            for (i, m) in g.moves.iter().enumerate() {
                let us = board.side_to_move();
                let target = board.pos(m[0], m[1]).unwrap();
                if us == Color::Black {
                    let mut children = Vec::new();
                    let mut played = None;
                    let points: Vec<Pos> = board.near_empties().collect();
                    for p in points {
                        if forbidden(&mut board, p, us).is_some() && rule.has_forbidden(us) {
                            continue;
                        }
                        let mut after = board.clone();
                        after.make_move(p, us);
                        let fives = after.threat_count(us, crate::pattern::cell::ThreatSet::Five);
                        let judged = features(&after, Trained::Defending);
                        assert!(judged.is_none() || fives == 0, "{rule} {p:?}");
                        if let Some(f) = judged {
                            if p == target {
                                played = Some(children.len());
                            }
                            children.push(f);
                        }
                    }
                    if let Some(played) = played.filter(|_| children.len() > 1) {
                        let sample = next.next().expect("a sample for this move");
                        assert_eq!(sample.played, played, "{rule} move {i}");
                        assert_eq!(sample.children, children, "{rule} move {i}");
                    }
                }
                play_recorded(&mut board, i, m).unwrap();
            }
            assert!(next.next().is_none(), "{rule}: samples left over");
        }
    }

    /// The gradient is the slope of the loss: central differences of the cross-entropy by a
    /// combination's value (both roles) and by a threat-table entry agree with it.
    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let data = all_samples(&games(Rule::Freestyle, 2), &["a", "b"]);
        assert!(data.len() > 10);
        let model = Model::current(100);
        let t = 40.0;
        let g = gradient(&model, t, &data);
        let n = data.len() as f64;
        let f = &data[0].children[data[0].played];
        let (c0, c1) = (f.counts[0][0].0 as usize, f.counts[1][0].0 as usize);
        // Which parameter, and how to move it in a model.
        type Nudge = fn(&mut Model, usize, f64);
        let slope = |nudge: Nudge, at: usize| {
            let h = 0.5;
            let (mut up, mut down) = (model.clone(), model.clone());
            nudge(&mut up, at, h);
            nudge(&mut down, at, -h);
            (loss(&up, t, &data) - loss(&down, t, &data)) / (2.0 * h)
        };
        let checks: [(usize, Nudge, usize); 3] = [
            (c0, |m, c, h| m.values[0][0][c] += h, c0),
            (2 * COMBOS + c1, |m, c, h| m.values[1][0][c] += h, c1),
            (4 * COMBOS + f.threat, |m, i, h| m.table[i] += h, f.threat),
        ];
        for (i, nudge, at) in checks {
            let (analytic, numeric) = (g[i] / n, slope(nudge, at));
            assert!(
                (analytic - numeric).abs() <= 1e-6 + 1e-3 * numeric.abs(),
                "parameter {i}: {analytic} against {numeric}"
            );
            assert!(analytic != 0.0, "parameter {i} is used");
        }
    }

    /// When the teacher always chooses the child that a planted model (the current one with
    /// one common combination valued much higher for the side that moved) likes best, the fit
    /// from the current model lowers the loss and puts more of those choices first.
    #[test]
    fn the_fit_learns_planted_choices() {
        let mut data = all_samples(&games(Rule::Freestyle, 3), &["a", "b"]);
        let start = Model::current(100);
        let mut planted = start.clone();
        // The waiting side's most common combination among the children.
        let mut seen = vec![0usize; COMBOS];
        for s in &data {
            for f in &s.children {
                for &(c, k) in &f.counts[1] {
                    seen[c as usize] += k as usize;
                }
            }
        }
        let common = (1..COMBOS).max_by_key(|&c| seen[c]).unwrap();
        planted.values[1][0][common] += 400.0;
        for s in &mut data {
            let v = scores(&planted, s, 1.0);
            s.played = (0..v.len()).max_by(|&a, &b| v[a].total_cmp(&v[b])).unwrap();
        }
        let report = fit(&start, &data, &data, 200, 0.0);
        assert!(report.fit.loss_after < report.fit.loss_before);
        assert!(
            report.top1_after > report.top1_before + 0.1,
            "{} -> {}",
            report.top1_before,
            report.top1_after
        );
        // Deterministic.
        let again = fit(&start, &data, &data, 200, 0.0);
        assert_eq!(again.fit.model, report.fit.model);
    }
}
