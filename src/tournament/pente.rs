//! Pente tournaments: `pbrain-omok tournament spec.toml` with `rule = "pente"`.
//!
//! No Piskvork manager (and not yet omok's own Piskvork brain) speaks Pente, so a Pente
//! tournament plays omok's Pente players in-process — the practice levels, node-limited, and the
//! capture-greedy one-ply baseline — and judges every move with the Pente referee
//! ([`crate::pente::referee::PenteGame`]): each move is a `place` action, and the referee's
//! result decides the game. Games are deterministic (node limits, seeded openings and RNGs) and
//! run in parallel on `concurrency` threads.
//!
//! ```toml
//! name = "pente-ladder"
//! rule = "pente"
//! games = 20              # per pair; colours alternate, each opening played with both colours
//! format = "ladder"       # "round-robin" (default), "gauntlet", "ladder"
//! seed = 1                # openings and players' RNGs
//! concurrency = 2
//! max_plies = 361         # a draw after this many moves (default: 2 × board points)
//!
//! [pente]                 # the referee's rules options (camelCase, as in the JSON setup)
//! boardSize = 19
//! threeCapture = false
//!
//! [[engine]]
//! level = 5               # a practice level 1..=5 (or `strength = 0..100`)
//! nodes = 60000           # optional node limit override
//!
//! [[engine]]
//! player = "capture-greedy"
//! ```
//!
//! Every game starts from a seeded random opening: the first stone on the centre, the second
//! within distance 2 of it; with `openingRule` `pro`/`longPro` the third move's rule is then
//! the players' business (the referee enforces it).

use std::path::Path;

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Deserialize;

use super::spec::{Format, TournamentArgs};
use crate::game::Action;
use crate::game::options::{ColorAssignment, Players, TimeControl};
use crate::pente::PenteRules;
use crate::pente::play::strength_level;
use crate::pente::referee::{PenteGame, PenteGameOptions, PentePlayers, PenteSetup};
use crate::pente::search::{PenteLimits, capture_greedy_move, choose, level};

/// One player of a Pente tournament.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PenteEngineFile {
    /// Display name (default: `L<level>` or the player kind).
    pub name: Option<String>,
    /// A practice level 1..=5.
    pub level: Option<u8>,
    /// A strength 0..=100 (mapped to a level).
    pub strength: Option<u8>,
    /// A node limit per move overriding the level's.
    pub nodes: Option<u64>,
    /// `capture-greedy` for the one-ply baseline.
    pub player: Option<String>,
}

/// The TOML file of a Pente tournament.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PenteSpecFile {
    /// The name.
    pub name: Option<String>,
    /// Always `pente`.
    pub rule: String,
    /// Games per pair.
    pub games: Option<u32>,
    /// Pairing.
    pub format: Option<Format>,
    /// Seed.
    pub seed: Option<u64>,
    /// Parallel games.
    pub concurrency: Option<usize>,
    /// Draw after this many moves.
    pub max_plies: Option<usize>,
    /// The rules options.
    #[serde(default)]
    pub pente: PenteRules,
    /// The players.
    #[serde(default, alias = "engines")]
    pub engine: Vec<PenteEngineFile>,
}

/// Why a Pente tournament cannot run.
#[derive(Debug, thiserror::Error)]
pub enum PenteSpecError {
    /// Reading the file failed.
    #[error("cannot read {0}: {1}")]
    Read(String, std::io::Error),
    /// The TOML is not a Pente spec.
    #[error("{0}: {1}")]
    Toml(String, String),
    /// A value is out of range.
    #[error("{0}")]
    Invalid(String),
}

/// Whether the TOML file at `path` asks for Pente (`rule = "pente"`); unreadable files are
/// left to the omok tournament's error reporting.
pub fn is_pente_spec(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| toml::from_str::<toml::Value>(&t).ok())
        .is_some_and(|v| v.get("rule").and_then(|r| r.as_str()) == Some("pente"))
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Search(PenteLimits),
    CaptureGreedy,
}

/// A player ready to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PentePlayer {
    /// Its name.
    pub name: String,
    kind: Kind,
}

impl PentePlayer {
    fn from_file(e: &PenteEngineFile) -> Result<PentePlayer, PenteSpecError> {
        if let Some(p) = &e.player {
            if p != "capture-greedy" {
                return Err(PenteSpecError::Invalid(format!(
                    "player {p:?}: only \"capture-greedy\" (or a level)"
                )));
            }
            return Ok(PentePlayer {
                name: e.name.clone().unwrap_or_else(|| p.clone()),
                kind: Kind::CaptureGreedy,
            });
        }
        let lv = match (e.level, e.strength) {
            (Some(l), _) if (1..=5).contains(&l) => l,
            (Some(l), _) => return Err(PenteSpecError::Invalid(format!("level {l}: 1..=5"))),
            (None, Some(s)) if s <= 100 => strength_level(s),
            (None, Some(s)) => {
                return Err(PenteSpecError::Invalid(format!("strength {s}: 0..=100")));
            }
            (None, None) => 5,
        };
        let mut limits = level(lv);
        if let Some(n) = e.nodes {
            limits.max_nodes = n.max(1);
        }
        Ok(PentePlayer {
            name: e.name.clone().unwrap_or_else(|| format!("L{lv}")),
            kind: Kind::Search(limits),
        })
    }
}

/// A validated Pente tournament.
#[derive(Clone, Debug)]
pub struct PenteTournament {
    /// Its name.
    pub name: String,
    /// Rules.
    pub rules: PenteRules,
    /// Players.
    pub players: Vec<PentePlayer>,
    /// Pairs (indices into `players`).
    pub pairs: Vec<(usize, usize)>,
    /// Games per pair.
    pub games: u32,
    /// Seed.
    pub seed: u64,
    /// Parallel games.
    pub concurrency: usize,
    /// Draw after this many moves.
    pub max_plies: usize,
}

impl PenteTournament {
    /// Reads and validates the spec; `--games`, `--seed` and `--concurrency` override it.
    pub fn load(args: &TournamentArgs) -> Result<PenteTournament, PenteSpecError> {
        let path = args.spec.display().to_string();
        let text = std::fs::read_to_string(&args.spec)
            .map_err(|e| PenteSpecError::Read(path.clone(), e))?;
        let file: PenteSpecFile =
            toml::from_str(&text).map_err(|e| PenteSpecError::Toml(path.clone(), e.to_string()))?;
        if file.rule != "pente" {
            return Err(PenteSpecError::Invalid(format!(
                "{path}: rule must be pente"
            )));
        }
        file.pente
            .validate()
            .map_err(|e| PenteSpecError::Invalid(format!("{path}: {e}")))?;
        if file.pente.players != 2 {
            return Err(PenteSpecError::Invalid(format!(
                "{path}: tournaments are for two players"
            )));
        }
        let players = file
            .engine
            .iter()
            .map(PentePlayer::from_file)
            .collect::<Result<Vec<_>, _>>()?;
        if players.len() < 2 {
            return Err(PenteSpecError::Invalid(format!(
                "{path}: at least two engines"
            )));
        }
        let n = players.len();
        let pairs = match file.format.unwrap_or_default() {
            Format::RoundRobin => (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            Format::Gauntlet => (1..n).map(|b| (0, b)).collect(),
            Format::Ladder => (0..n - 1).map(|a| (a, a + 1)).collect(),
        };
        let size = file.pente.board_size;
        Ok(PenteTournament {
            name: file.name.unwrap_or_else(|| {
                args.spec
                    .file_stem()
                    .map_or("pente".into(), |s| s.to_string_lossy().into_owned())
            }),
            rules: file.pente,
            players,
            pairs,
            games: args.games.or(file.games).unwrap_or(20).max(1),
            seed: args.seed.or(file.seed).unwrap_or(1),
            concurrency: args.concurrency.or(file.concurrency).unwrap_or(1).max(1),
            max_plies: file.max_plies.unwrap_or(2 * size * size),
        })
    }
}

/// The result of one game for the pair's first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairResult {
    /// The first player won.
    Win,
    /// The second player won.
    Loss,
    /// A draw.
    Draw,
}

fn pick(player: &PentePlayer, game: &PenteGame, rng: &mut Xoshiro256PlusPlus) -> Option<usize> {
    let pos = game.position();
    match &player.kind {
        Kind::CaptureGreedy => capture_greedy_move(&mut pos.clone(), rng),
        Kind::Search(limits) => choose(pos, *limits, None, rng),
    }
}

/// Plays one game judged by the referee: `a` plays first (white) when `a_first`.
pub fn play_game(
    rules: PenteRules,
    a: &PentePlayer,
    b: &PentePlayer,
    a_first: bool,
    seed: u64,
    max_plies: usize,
) -> PairResult {
    let options = PenteGameOptions {
        color_assignment: ColorAssignment::HostWhite,
        time_control: TimeControl::NoLimit {},
        idle_limit_sec: crate::game::options::MAX_TIME_SEC,
        draw_offer: false,
        show_forbidden: false,
        ..PenteGameOptions::from_rules(rules)
    };
    let (first, second) = if a_first { ("a", "b") } else { ("b", "a") };
    let setup = PenteSetup {
        options,
        seed,
        players: PentePlayers::Pair(Players {
            host: first.into(),
            guest: second.into(),
        }),
        now: 0,
    };
    let Ok((mut game, _)) = PenteGame::new(&setup) else {
        return PairResult::Draw;
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let n = rules.board_size as i64;
    let c = n / 2;
    let mut opening = vec![(c, c)];
    let r = rng.next_u64();
    let second_stone = (c + (r % 5) as i64 - 2, c + ((r >> 8) % 5) as i64 - 2);
    opening.push(if second_stone == (c, c) {
        (c + 1, c + 1)
    } else {
        second_stone
    });
    let mut now = 0;
    for (i, &(x, y)) in opening.iter().enumerate() {
        let who = if i % 2 == 0 { first } else { second };
        now += 1;
        let place = Action::Place {
            player: who.into(),
            x,
            y,
            now,
        };
        if game.apply(&place).is_err() {
            break;
        }
    }
    while game.result().is_none() && game.moves().len() < max_plies {
        let turn = game.position().turn();
        let who = if turn == 0 { first } else { second };
        let player = if who == "a" { a } else { b };
        let Some(m) = pick(player, &game, &mut rng) else {
            break;
        };
        let size = game.position().size();
        now += 1;
        let place = Action::Place {
            player: who.into(),
            x: (m % size) as i64,
            y: (m / size) as i64,
            now,
        };
        if game.apply(&place).is_err() {
            // An illegal answer loses, as in the omok tournaments.
            return if who == "a" {
                PairResult::Loss
            } else {
                PairResult::Win
            };
        }
    }
    match game.result() {
        Some(r) if r.winners.len() == 1 => {
            let white_won = r.winners[0] == "white";
            if white_won == a_first {
                PairResult::Win
            } else {
                PairResult::Loss
            }
        }
        _ => PairResult::Draw,
    }
}

/// One pair's results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairLine {
    /// First player.
    pub a: String,
    /// Second player.
    pub b: String,
    /// Wins, losses and draws of `a`.
    pub wins: u32,
    /// Losses of `a`.
    pub losses: u32,
    /// Draws.
    pub draws: u32,
}

impl PairLine {
    /// `a`'s score in percent.
    pub fn score(&self) -> f64 {
        let n = f64::from(self.wins + self.losses + self.draws).max(1.0);
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / n * 100.0
    }
}

/// Runs every pair's games (in parallel) and returns the per-pair lines.
pub fn run(t: &PenteTournament) -> Vec<PairLine> {
    let jobs: Vec<(usize, u32)> = (0..t.pairs.len())
        .flat_map(|p| (0..t.games).map(move |g| (p, g)))
        .collect();
    let play = |&(p, g): &(usize, u32)| {
        let (a, b) = t.pairs[p];
        let seed = t
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(u64::from(g / 2));
        (
            p,
            play_game(
                t.rules,
                &t.players[a],
                &t.players[b],
                g % 2 == 0,
                seed,
                t.max_plies,
            ),
        )
    };
    let results: Vec<(usize, PairResult)> = match rayon::ThreadPoolBuilder::new()
        .num_threads(t.concurrency)
        .build()
    {
        Ok(pool) => pool.install(|| jobs.par_iter().map(play).collect()),
        Err(_) => jobs.iter().map(play).collect(),
    };
    t.pairs
        .iter()
        .enumerate()
        .map(|(p, &(a, b))| {
            let mine = results.iter().filter(|r| r.0 == p).map(|r| r.1);
            let count = |k| mine.clone().filter(|&r| r == k).count() as u32;
            PairLine {
                a: t.players[a].name.clone(),
                b: t.players[b].name.clone(),
                wins: count(PairResult::Win),
                losses: count(PairResult::Loss),
                draws: count(PairResult::Draw),
            }
        })
        .collect()
}

/// The summary table.
pub fn summary(t: &PenteTournament, lines: &[PairLine]) -> String {
    let mut s = format!(
        "{}: Pente {1}x{1}, {2} games per pair\n",
        t.name, t.rules.board_size, t.games
    );
    for l in lines {
        s.push_str(&format!(
            "{} vs {}: +{} -{} ={} ({:.1}%)\n",
            l.a,
            l.b,
            l.wins,
            l.losses,
            l.draws,
            l.score()
        ));
    }
    s
}
