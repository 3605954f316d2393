//! Texel tuning of the evaluation: the static evaluation's weights fitted to game results by
//! logistic regression.
//!
//! The static evaluation ([`crate::eval::static_eval`]) is linear in per-colour counts over the
//! candidate cells: how many cells have each combination of line classes, valued by one table
//! for the side to move and another for the side that waits, plus a threat-table entry.
//! [`features`] reads those counts from a position; [`fit`] finds the values that best predict
//! the results of the games the positions come from (or a judge's expected score), `sigmoid(eval / K)` against 1 / ½ / 0 for the side to move, with `K`
//! fitted first to the current weights so that the evaluation keeps its scale (the search's
//! margins are in its units). [`generate`] plays the self-play games (node-limited, seeded
//! openings, reproducible from the seed); records of tournament games (`games.jsonl`) are read
//! the same way, so games against other engines can be added to the data.

pub mod label;
pub mod openings;
pub mod policy;
pub mod rank;

use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::engine::{Engine, Limits};
use crate::eval::{THREAT_TABLE_SIZE, restricted, threat_index};
use crate::params::Params;
use crate::pattern::PatternKind;
use crate::pattern::cell::ThreatSet;
use crate::pattern::combo::{
    COMBOS, combo_of, is_void_when_restricted, line_class, ordered_index, reference_combo,
};
use crate::pattern::weights::{COMBO_POTENTIAL_TO_MOVE, COMBO_POTENTIAL_WAITING, THREAT_TABLE};
use crate::rule::Rule;
use crate::rules::winning_line;
use crate::search::NoInfo;
use crate::time::{Budget, FakeClock};

/// One colour's counts: for each combination present, how many candidate cells have it
/// (combination number, count), in combination order.
pub type Counts = Vec<(u16, u16)>;

/// What the evaluation of a position is made of: the counts of the side to move and of the
/// other side, and the threat-table index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// The side to move's counts, then the other side's.
    pub counts: [Counts; 2],
    /// The threat-table entry ([`crate::eval::threat_index`]).
    pub threat: usize,
    /// Whether the side to move, then the other side, is restricted (renju black: its own
    /// value table).
    pub restricted: [bool; 2],
}

/// Which positions train the evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Trained {
    /// Quiet positions only: neither side has a five to complete or a straight four to make.
    #[default]
    Quiet,
    /// Also the positions where the side that waits has a straight four to make (an open three
    /// on the board) and the side to move has neither a five nor a straight four: the side to
    /// move must defend, and the search takes the evaluation of such a position where its
    /// defences past the horizon end (`search.defence_extension_plies`).
    Defending,
}

/// The features of a position that `trained` admits (the others are decided by search, not by
/// the evaluation); `None` for any other position.
pub fn features(board: &Board, trained: Trained) -> Option<Features> {
    let us = board.side_to_move();
    for c in Color::ALL {
        let flex4 = board.threat_count(c, ThreatSet::Flex4) > 0;
        let waiting_flex4_admitted = trained == Trained::Defending && c != us;
        if board.threat_count(c, ThreatSet::Five) > 0 || (flex4 && !waiting_flex4_admitted) {
            return None;
        }
    }
    let threats = Color::ALL.map(|c| {
        [
            board.threat_count(c, ThreatSet::Four),
            board.threat_count(c, ThreatSet::Three),
            board.threat_count(c, ThreatSet::Flex4),
        ]
    });
    Some(Features {
        counts: [counts(board, us), counts(board, us.opponent())],
        threat: threat_index(threats, us),
        restricted: [restricted(board, us), restricted(board, us.opponent())],
    })
}

/// A colour's combination counts over the candidate cells, the way
/// [`crate::eval::cell_potential`] sums them: a surely forbidden cell of renju black counts
/// nothing.
fn counts(board: &Board, c: Color) -> Counts {
    let restricted = restricted(board, c);
    let mut combos: Vec<u16> = board
        .near_empties()
        .map(|p| combo_of(ordered_index(board.patterns(p, c).map(line_class))))
        .filter(|&k| !(restricted && is_void_when_restricted(k)))
        .map(|k| k as u16)
        .collect();
    combos.sort_unstable();
    let mut out: Counts = Vec::new();
    for k in combos {
        match out.last_mut() {
            Some((last, n)) if *last == k => *n += 1,
            _ => out.push((k, 1)),
        }
    }
    out
}

/// The evaluation's values.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// A cell's value by combination: `values[role][restricted]`, role 0 for the side to move
    /// and 1 for the side that waits, each for an unrestricted side and a restricted one (renju
    /// black).
    pub values: [[Vec<f64>; 2]; 2],
    /// The threat table.
    pub table: [f64; THREAT_TABLE_SIZE],
}

impl Model {
    /// The values compiled into the engine, the side to move's weighted by `tempo_percent`
    /// (`search.tempo_percent`; 100 for the tables as they are).
    pub fn current(tempo_percent: i32) -> Model {
        let to_vec = |t: &[i16; COMBOS], scale: f64| t.iter().map(|&v| v as f64 * scale).collect();
        let tempo = tempo_percent as f64 / 100.0;
        Model {
            values: [
                COMBO_POTENTIAL_TO_MOVE.each_ref().map(|t| to_vec(t, tempo)),
                COMBO_POTENTIAL_WAITING.each_ref().map(|t| to_vec(t, 1.0)),
            ],
            table: THREAT_TABLE.map(|v| v as f64),
        }
    }

    /// The evaluation of a position's counts, from the side to move's view, in the static
    /// evaluation's units.
    pub fn eval(&self, f: &Features) -> f64 {
        (self.side(f, 0) - self.side(f, 1)) / 4.0 + self.table[f.threat]
    }

    /// The values of a single line of each class from block1 to flex4 (the other three lines
    /// dead), rounded, for the side to move (`role` 0) or the side that waits (1): a readable
    /// summary of a value table.
    pub fn single_line_values(&self, role: usize, restricted: bool) -> Vec<i64> {
        (PatternKind::Block1 as u8..=PatternKind::Flex4 as u8)
            .map(|k| {
                self.values[role][restricted as usize][reference_combo([k, 0, 0, 0])].round() as i64
            })
            .collect()
    }

    /// The potential of side `i` (0: the side to move, valued as such; 1: the side that waits).
    fn side(&self, f: &Features, i: usize) -> f64 {
        let values = &self.values[i][f.restricted[i] as usize];
        f.counts[i]
            .iter()
            .map(|&(k, n)| n as f64 * values[k as usize])
            .sum()
    }
}

/// One training position: its counts and the result for the side to move (1, ½, 0).
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position's features.
    pub features: Features,
    /// 1 for a win of the side to move, 0.5 for a draw, 0 for a loss.
    pub result: f64,
}

/// A finished game as the data files hold it (the tournament runner's `games.jsonl` lines have
/// the same fields, with a think time after each move).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// The rule set's name.
    pub rule: String,
    /// Board size.
    pub size: usize,
    /// Moves from the empty board, black first: `[x, y]` (or `[x, y, ms]`).
    pub moves: Vec<Vec<i64>>,
    /// `black`, `white`, or none for a draw.
    pub winner: Option<String>,
    /// A labelled position instead of a game: the expected score (0 to 1) of the side to move
    /// after `moves`, as a judge (a stronger engine's evaluation) gives it. Such a line is one
    /// training position with this value as its target; `winner` is then not used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// The names of the players (tournament records), for fits to one player's moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
    /// See `black`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    /// How many of the first moves an opening placed (tournament records): no player chose
    /// them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_stones: Option<usize>,
}

/// Positions of a game that may train the evaluation: those `trained` admits from the `skip`-th
/// move on. A labelled position ([`GameRecord::value`]) gives its final position, if admitted,
/// whatever `skip` is.
pub fn samples(game: &GameRecord, skip: usize, trained: Trained) -> Result<Vec<Sample>, String> {
    let rule: Rule = game.rule.parse().map_err(|e| format!("{e}"))?;
    let mut board = Board::square(game.size, rule).map_err(|e| e.to_string())?;
    if let Some(value) = game.value {
        if !(0.0..=1.0).contains(&value) {
            return Err(format!("value {value} is not within 0..1"));
        }
        for (i, m) in game.moves.iter().enumerate() {
            play_recorded(&mut board, i, m)?;
        }
        return Ok(features(&board, trained)
            .map(|features| Sample {
                features,
                result: value,
            })
            .into_iter()
            .collect());
    }
    let winner = match game.winner.as_deref() {
        Some("black") => Some(Color::Black),
        Some("white") => Some(Color::White),
        None | Some("") => None,
        Some(other) => return Err(format!("unknown winner {other:?}")),
    };
    let mut out = Vec::new();
    for (i, m) in game.moves.iter().enumerate() {
        if i >= skip
            && let Some(f) = features(&board, trained)
        {
            let us = board.side_to_move();
            let result = match winner {
                Some(w) if w == us => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            out.push(Sample {
                features: f,
                result,
            });
        }
        play_recorded(&mut board, i, m)?;
    }
    Ok(out)
}

/// Replays a game and calls `visit` with the board and the move played at every position
/// from `skip` on (and past the opening's stones) where a player named in `teachers` moved to
/// an empty point.
pub(crate) fn teacher_positions(
    game: &GameRecord,
    teachers: &[String],
    skip: usize,
    mut visit: impl FnMut(&mut Board, Pos),
) -> Result<(), String> {
    let rule: Rule = game.rule.parse().map_err(|e| format!("{e}"))?;
    let mut board = Board::square(game.size, rule).map_err(|e| e.to_string())?;
    let first = skip.max(game.opening_stones.unwrap_or(0));
    for (i, m) in game.moves.iter().enumerate() {
        let mover = match board.side_to_move() {
            Color::Black => game.black.as_deref(),
            Color::White => game.white.as_deref(),
        };
        if i >= first
            && mover.is_some_and(|name| teachers.iter().any(|t| t == name))
            && let [x, y, ..] = m[..]
            && let Ok(target) = board.pos(x, y)
            && board.is_empty(target)
        {
            visit(&mut board, target);
        }
        play_recorded(&mut board, i, m)?;
    }
    Ok(())
}

/// Plays a record's move `i` (`[x, y]` or `[x, y, ms]`) for the side to move.
pub(crate) fn play_recorded(board: &mut Board, i: usize, m: &[i64]) -> Result<(), String> {
    let (x, y) = match m {
        [x, y, ..] => (*x, *y),
        _ => return Err(format!("move {i} is not [x, y]")),
    };
    let p = board.pos(x, y).map_err(|e| e.to_string())?;
    if !board.is_empty(p) {
        return Err(format!("move {i} ({x},{y}) is on an occupied point"));
    }
    let c = board.side_to_move();
    board.make_move(p, c);
    Ok(())
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the model's predictions `sigmoid(eval / k)`.
pub fn loss(model: &Model, k: f64, data: &[Sample]) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|s| {
            let d = s.result - sigmoid(model.eval(&s.features) / k);
            d * d
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// The scale `K` that fits the model best (see [`best_scale`]).
pub fn fit_scale(model: &Model, data: &[Sample]) -> f64 {
    best_scale(|k| loss(model, k, data))
}

/// The scale in 1..10000 at which `loss` is least: a golden-section search over its logarithm.
fn best_scale(loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (1.0f64.ln(), 10_000.0f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if loss(a.exp()) < loss(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Strength of the L2 prior on the threat table's entries.
const TABLE_L2: f64 = 2e-8;

/// The default strength of the L2 prior that holds each combination's value near its starting
/// value ([`fit`]'s `prior`): combinations that few positions show barely move, common ones
/// follow the data.
pub const DEFAULT_PRIOR: f64 = 1e-8;

/// The largest value a fit gives a combination (the board keeps cell potentials in 16 bits).
const MAX_VALUE: f64 = 4_000.0;

/// Adam's per-parameter step sizes for a gradient descent of `iterations` steps, its rate
/// decaying linearly to a tenth so that the fit settles.
struct Adam {
    mom: Vec<f64>,
    vel: Vec<f64>,
    rate: f64,
    iterations: usize,
}

impl Adam {
    fn new(params: usize, rate: f64, iterations: usize) -> Adam {
        Adam {
            mom: vec![0.0; params],
            vel: vec![0.0; params],
            rate,
            iterations,
        }
    }

    /// The step of parameter `i` at iteration `t` (from 1) for its gradient `g`, to subtract.
    fn step(&mut self, i: usize, t: usize, g: f64) -> f64 {
        let (b1, b2, eps) = (0.9, 0.999, 1e-12);
        self.mom[i] = b1 * self.mom[i] + (1.0 - b1) * g;
        self.vel[i] = b2 * self.vel[i] + (1.0 - b2) * g * g;
        let mh = self.mom[i] / (1.0 - b1.powi(t as i32));
        let vh = self.vel[i] / (1.0 - b2.powi(t as i32));
        let decay = 1.0 - 0.9 * (t - 1) as f64 / self.iterations.max(1) as f64;
        decay * self.rate * mh / (vh.sqrt() + eps)
    }
}

/// What a fit did.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// The fitted model.
    pub model: Model,
    /// The scale, fitted to the starting model.
    pub k: f64,
    /// The loss of the starting model and of the fitted one on the training positions.
    pub loss_before: f64,
    /// See `loss_before`.
    pub loss_after: f64,
    /// The same on the held-out positions (games the fit never saw); `None` without them.
    pub holdout_before: Option<f64>,
    /// See `holdout_before`.
    pub holdout_after: Option<f64>,
}

/// The values' parameters: the combinations' values by role (to move, waiting), then
/// restricted or not, then combination; then the threat table.
const VALUE_PARAMETERS: usize = 4 * COMBOS;
/// All parameters of a fit of the evaluation.
const PARAMETERS: usize = VALUE_PARAMETERS + THREAT_TABLE_SIZE;

/// Adds `d` times the gradient of the evaluation of `f` (the parameters it sums) to `g`.
fn add_eval_gradient(g: &mut [f64], f: &Features, d: f64) {
    let at = |role: usize, restricted: bool, c: u16| {
        (2 * role + restricted as usize) * COMBOS + c as usize
    };
    for &(c, n) in &f.counts[0] {
        g[at(0, f.restricted[0], c)] += d * n as f64 / 4.0;
    }
    for &(c, n) in &f.counts[1] {
        g[at(1, f.restricted[1], c)] -= d * n as f64 / 4.0;
    }
    g[VALUE_PARAMETERS + f.threat] += d;
}

/// Samples whose gradients one task sums in order.
const GRADIENT_CHUNK: usize = 1024;

/// The sum over `data` of what `each` adds to a gradient of `len` parameters, in parallel but
/// the same on every run: fixed chunks, each summed in order, and the chunks' sums added in
/// order.
fn gradient_sum<T: Sync>(data: &[T], len: usize, each: impl Fn(&T, &mut [f64]) + Sync) -> Vec<f64> {
    let parts: Vec<Vec<f64>> = data
        .par_chunks(GRADIENT_CHUNK)
        .map(|chunk| {
            let mut g = vec![0.0f64; len];
            for s in chunk {
                each(s, &mut g);
            }
            g
        })
        .collect();
    parts.into_iter().fold(vec![0.0f64; len], |mut a, b| {
        for (x, y) in a.iter_mut().zip(&b) {
            *x += y;
        }
        a
    })
}

/// `iterations` steps of Adam from `start` down the gradient that `gradient` gives for a model
/// (summed over `samples` positions), with [`descend`]'s priors.
fn descend_for(
    start: &Model,
    samples: usize,
    iterations: usize,
    prior: f64,
    gradient: impl Fn(&Model) -> Vec<f64>,
) -> Model {
    let mut m = start.clone();
    let mut adam = Adam::new(PARAMETERS, 0.5, iterations);
    for t in 1..=iterations {
        let grad = gradient(&m);
        descend(&mut m, start, &grad, samples, &mut adam, t, prior);
    }
    m
}

/// One step of Adam (iteration `t`) on `m` for the gradient `grad` summed over `samples`
/// positions, with the priors: the threat table's rare entries are pulled toward 0, each
/// combination's value toward its value in `start`, so that a few games cannot give them
/// large values. Values stay within 0..=4000 (renju black's void combinations at 0).
fn descend(
    m: &mut Model,
    start: &Model,
    grad: &[f64],
    samples: usize,
    adam: &mut Adam,
    t: usize,
    prior: f64,
) {
    let n = samples.max(1) as f64;
    for (i, &gi) in grad.iter().enumerate() {
        let (role, r, c) = (i / (2 * COMBOS), i / COMBOS % 2, i % COMBOS);
        let pull = if i >= VALUE_PARAMETERS {
            TABLE_L2 * m.table[i - VALUE_PARAMETERS]
        } else {
            prior * (m.values[role][r][c] - start.values[role][r][c])
        };
        let step = adam.step(i, t, gi / n + pull);
        if i >= VALUE_PARAMETERS {
            m.table[i - VALUE_PARAMETERS] -= step;
        } else if !(r == 1 && is_void_when_restricted(c)) {
            let v = &mut m.values[role][r][c];
            *v = (*v - step).clamp(0.0, MAX_VALUE);
        }
    }
}

/// Fits the combination values (for the side to move and for the side that waits) and the
/// threat table to the data by gradient descent (Adam) on the mean squared error, starting from
/// `start` with its own best scale kept fixed. Values stay within 0..=4000 (renju black's void
/// combinations at 0). Deterministic.
pub fn fit(
    start: &Model,
    data: &[Sample],
    holdout: &[Sample],
    iterations: usize,
    prior: f64,
) -> FitReport {
    let k = fit_scale(start, data);
    let loss_before = loss(start, k, data);
    let m = descend_for(start, data.len(), iterations, prior, |m| {
        gradient_sum(data, PARAMETERS, |s, g| {
            let f = &s.features;
            let p = sigmoid(m.eval(f) / k);
            // d(loss)/d(eval) for this sample.
            let d = -2.0 * (s.result - p) * p * (1.0 - p) / k;
            add_eval_gradient(g, f, d);
        })
    });
    let loss_after = loss(&m, k, data);
    let on_holdout = |model: &Model| (!holdout.is_empty()).then(|| loss(model, k, holdout));
    FitReport {
        holdout_before: on_holdout(start),
        holdout_after: on_holdout(&m),
        model: m,
        k,
        loss_before,
        loss_after,
    }
}

/// The Rust source of `src/pattern/weights.rs` for a fitted model; `fitted_by` names the command
/// that fitted it.
pub fn weights_source(report: &FitReport, fitted_by: &str, data_note: &str) -> String {
    // Rounded values, twenty to a line, each line indented by `indent`.
    let rows = |v: &[f64], indent: &str| {
        v.chunks(20)
            .map(|row| {
                let items: Vec<String> =
                    row.iter().map(|x| (x.round() as i64).to_string()).collect();
                format!("{indent}{},", items.join(", "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let table = rows(&report.model.table, "    ");
    let values = |role: usize| {
        let [free, restricted] = &report.model.values[role];
        format!(
            "[\n    [\n{}\n    ],\n    [\n{}\n    ],\n]",
            rows(free, "        "),
            rows(restricted, "        ")
        )
    };
    format!(
        "//! The static evaluation's values, fitted by `{fitted_by}`:\n\
         //! {data_note};\n\
         //! training loss {:.6} before, {:.6} after, K = {:.1}.\n\
         //! Written by the tuner: refit rather than edit by hand.\n\
         \n\
         use super::combo::COMBOS;\n\
         \n\
         /// A candidate cell's worth to a colour by its combination (numbered as in\n\
         /// [`super::combo::COMBO_CLASSES`]) when that colour is to move: for an unrestricted colour,\n\
         /// then for renju black, whose surely forbidden combinations are worth nothing.\n\
         #[rustfmt::skip]\n\
         pub const COMBO_POTENTIAL_TO_MOVE: [[i16; COMBOS]; 2] = {};\n\
         /// The same when the colour waits (the other side is to move).\n\
         #[rustfmt::skip]\n\
         pub const COMBO_POTENTIAL_WAITING: [[i16; COMBOS]; 2] = {};\n\
         /// The side to move's weight in percent (`search.tempo_percent`): the tables above hold it.\n\
         pub const TEMPO_PERCENT: i32 = 100;\n\
         /// The threat table: a value for the side to move by how many four and open-three\n\
         /// points each side has and whether it has a straight four to make (see\n\
         /// [`crate::eval::threat_index`]), in the evaluation's units.\n\
         #[rustfmt::skip]\n\
         pub const THREAT_TABLE: [i32; {THREAT_TABLE_SIZE}] = [\n{table}\n];\n",
        report.loss_before,
        report.loss_after,
        report.k,
        values(0),
        values(1),
    )
}

/// How to generate self-play games.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Games to play.
    pub games: usize,
    /// Node limit per move.
    pub nodes: u64,
    /// Rule set.
    pub rule: Rule,
    /// Board size.
    pub size: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// Engine parameters.
    pub params: Params,
}

/// A seeded opening: black at the centre, then two to four stones of alternating colours within
/// two points of it.
fn opening(board: &Board, seed: u64) -> Vec<Pos> {
    use rand_core::{RngCore, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let c = board.centre();
    let mut out = vec![c];
    let extra = 2 + (rng.next_u64() % 3) as usize;
    while out.len() < 1 + extra {
        let dx = (rng.next_u64() % 5) as i64 - 2;
        let dy = (rng.next_u64() % 5) as i64 - 2;
        if let Ok(p) = board.pos(c.x() as i64 + dx, c.y() as i64 + dy)
            && !out.contains(&p)
        {
            out.push(p);
        }
    }
    out
}

/// Plays one node-limited self-play game from the opening of `seed`.
pub fn play_game(config: &GenConfig, seed: u64) -> GameRecord {
    let mut e = Engine::new(config.params.clone(), Arc::new(FakeClock::default()));
    let _ = e.set_rule(config.rule);
    let _ = e.new_game(config.size, config.size);
    let limits = Limits {
        budget: Budget {
            optimum_ms: u64::MAX / 4,
            maximum_ms: u64::MAX / 4,
        },
        max_nodes: Some(config.nodes),
        max_depth: None,
    };
    let mut moves: Vec<Vec<i64>> = Vec::new();
    let mut winner = None;
    let draw_at = if config.rule == Rule::Renju {
        200
    } else {
        config.size * config.size
    };
    let mut queue = opening(e.board(), seed).into_iter();
    while moves.len() < draw_at {
        let p = match queue.next() {
            Some(p) => p,
            None => match e.go(&limits, &mut NoInfo).best {
                Some(p) => p,
                None => break,
            },
        };
        let c = e.side_to_move();
        if e.play(p).is_err() {
            break;
        }
        moves.push(vec![p.x() as i64, p.y() as i64]);
        if winning_line(e.board(), p).is_some() {
            winner = Some(c.to_string());
            break;
        }
    }
    GameRecord {
        rule: config.rule.to_string(),
        size: config.size,
        moves,
        winner,
        value: None,
        black: None,
        white: None,
        opening_stones: None,
    }
}

/// Plays `config.games` self-play games in parallel; game `i` uses the opening of seed
/// `config.seed + i`, so the same configuration gives the same games.
pub fn generate(config: &GenConfig) -> Vec<GameRecord> {
    (0..config.games as u64)
        .into_par_iter()
        .map(|i| play_game(config, config.seed.wrapping_add(i)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::static_eval;

    /// The model with the compiled-in weights reproduces the board's static evaluation on every
    /// quiet position of seeded self-play games, in every rule with its own shapes.
    #[test]
    fn the_current_model_is_the_static_evaluation() {
        for rule in [Rule::Freestyle, Rule::Renju, Rule::Standard] {
            let config = GenConfig {
                games: 2,
                nodes: 300,
                rule,
                size: 15,
                seed: 5,
                params: Params::default(),
            };
            let model = Model::current(140);
            let mut checked = 0;
            for g in generate(&config) {
                let mut board = Board::square(15, rule).unwrap();
                for m in &g.moves {
                    if let Some(f) = features(&board, Trained::Defending) {
                        let us = board.side_to_move();
                        let exact = static_eval(&board, us, 140) as f64;
                        assert!((model.eval(&f) - exact).abs() <= 1.0, "{rule}: {g:?}");
                        checked += 1;
                    }
                    let p = board.pos(m[0], m[1]).unwrap();
                    let c = board.side_to_move();
                    board.make_move(p, c);
                }
            }
            assert!(checked > 10, "{rule}: {checked}");
        }
    }

    #[test]
    fn generation_is_reproducible_and_games_end() {
        let config = GenConfig {
            games: 2,
            nodes: 200,
            rule: Rule::Freestyle,
            size: 15,
            seed: 9,
            params: Params::default(),
        };
        let a = generate(&config);
        let b = generate(&config);
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
        assert!(a.iter().all(|g| g.winner.is_some() || g.moves.len() >= 200));
    }

    /// A labelled position is one sample of its final position with the label as its target;
    /// a position that is not quiet, a label outside 0..1 and a bad move are refused or skipped.
    #[test]
    fn a_labelled_position_is_one_sample_of_its_final_position() {
        let line = r#"{"rule":"freestyle","size":15,"moves":[[7,7],[8,8],[7,8]],"winner":null,"value":0.75}"#;
        let game: GameRecord = serde_json::from_str(line).unwrap();
        let s = samples(&game, 8, Trained::Quiet).unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].result, 0.75);
        let mut board = Board::square(15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (7, 8)] {
            let c = board.side_to_move();
            board.make_move(Pos::new(x, y).unwrap(), c);
        }
        assert_eq!(s[0].features, features(&board, Trained::Quiet).unwrap());
        // Black, to move, has a straight four to make: no sample, whatever is trained.
        let open_three = r#"{"rule":"freestyle","size":15,"moves":[[5,7],[0,0],[6,7],[0,2],[7,7],[0,4]],"value":0.9}"#;
        let game: GameRecord = serde_json::from_str(open_three).unwrap();
        assert!(samples(&game, 0, Trained::Quiet).unwrap().is_empty());
        assert!(samples(&game, 0, Trained::Defending).unwrap().is_empty());
        // White to move against black's open three: a defending position, no quiet one.
        let defending =
            r#"{"rule":"freestyle","size":15,"moves":[[5,7],[0,0],[6,7],[0,2],[7,7]],"value":0.1}"#;
        let game: GameRecord = serde_json::from_str(defending).unwrap();
        assert!(samples(&game, 0, Trained::Quiet).unwrap().is_empty());
        let s = samples(&game, 0, Trained::Defending).unwrap();
        assert_eq!(s.len(), 1);
        assert!(
            s[0].features.threat >= crate::eval::THREAT_COUNT_ENTRIES,
            "{:?}",
            s[0].features
        );
        let bad = r#"{"rule":"freestyle","size":15,"moves":[[7,7]],"value":1.5}"#;
        assert!(samples(&serde_json::from_str(bad).unwrap(), 0, Trained::Quiet).is_err());
        let twice = r#"{"rule":"freestyle","size":15,"moves":[[7,7],[7,7]],"value":0.5}"#;
        assert!(samples(&serde_json::from_str(twice).unwrap(), 0, Trained::Quiet).is_err());
        // A game record (no value) still gives its positions from the skip on.
        let game = GameRecord {
            value: None,
            winner: Some("black".into()),
            ..serde_json::from_str(line).unwrap()
        };
        assert_eq!(samples(&game, 0, Trained::Quiet).unwrap().len(), 3);
    }

    /// On data whose results follow a known model, the fit lowers the loss and moves the weights
    /// toward that model.
    #[test]
    fn the_fit_recovers_a_planted_model() {
        use rand_core::{RngCore, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        // Thirty combinations take part: single lines of every class and some pairs.
        let mut combos: Vec<u16> = Vec::new();
        for a in 1..=8u8 {
            for b in [0u8, 2, 4, 6] {
                if b <= a {
                    combos.push(reference_combo([a, b, 0, 0]) as u16);
                }
            }
        }
        combos.sort_unstable();
        combos.dedup();
        let flex4 = reference_combo([PatternKind::Flex4 as u8, 0, 0, 0]);
        let four_two = reference_combo([PatternKind::Block4 as u8, PatternKind::Flex2 as u8, 0, 0]);
        let mut truth = Model::current(140);
        truth.values[0][0][flex4] = 150.0;
        truth.values[1][0][four_two] = 500.0;
        let k = 200.0;
        let data: Vec<Sample> = (0..3000)
            .map(|_| {
                let mut f = Features {
                    counts: [Vec::new(), Vec::new()],
                    threat: (rng.next_u64() % THREAT_TABLE_SIZE as u64) as usize,
                    restricted: [false; 2],
                };
                for side in &mut f.counts {
                    for &c in &combos {
                        let n = (rng.next_u64() % 4) as u16;
                        if n > 0 {
                            side.push((c, n));
                        }
                    }
                }
                let p = sigmoid(truth.eval(&f) / k);
                let u = (rng.next_u64() % 1_000_000) as f64 / 1_000_000.0;
                Sample {
                    features: f,
                    result: if u < p { 1.0 } else { 0.0 },
                }
            })
            .collect();
        let start = Model::current(140);
        let (train, holdout) = data.split_at(2400);
        let r = fit(&start, train, holdout, 400, DEFAULT_PRIOR);
        assert!(r.holdout_after < r.holdout_before, "{r:?}");
        assert!(r.loss_after < r.loss_before, "{r:?}");
        for (role, c, v) in [(0, flex4, 150.0), (1, four_two, 500.0)] {
            let (fitted, started) = (r.model.values[role][0][c], start.values[role][0][c]);
            assert!(
                (fitted - v).abs() < (started - v).abs(),
                "{role} {c}: {fitted} from {started}"
            );
        }
    }
}
