//! Pente tournaments: `pbrain-omok tournament spec.toml` with `rule = "pente"`.
//!
//! No Piskvork manager speaks Pente, so omok runs Pente tournaments itself and judges every move
//! with the Pente referee ([`crate::pente::referee::PenteGame`]): each move is a `place` action,
//! and the referee's result decides the game. A player is either in-process — a practice level
//! (node-limited) or the capture-greedy one-ply baseline — or a Piskvork brain speaking the Pente
//! convention of `docs/pente.md` §11 (`command = "self"` is this executable's own brain): it is
//! told `INFO omok_rule pente` and the `pente_*` keys, gets `START`, then `BOARD` with the moves
//! so far on its first turn and `TURN x,y` after that, and tracks captures itself. A brain that
//! answers late (beyond `turn_ms` + `tolerance_ms`), crashes or answers an illegal or unreadable
//! move loses. Games are deterministic for in-process players and node-limited brains (seeded
//! openings and RNGs) and run in parallel on `concurrency` threads.
//!
//! ```toml
//! name = "pente-ladder"
//! rule = "pente"
//! games = 20              # per pair; colours alternate, each opening played with both colours
//! format = "ladder"       # "round-robin" (default), "gauntlet", "ladder"
//! seed = 1                # openings and players' RNGs
//! concurrency = 2
//! max_plies = 361         # a draw after this many moves (default: 2 × board points)
//! turn_ms = 5000          # brains: INFO timeout_turn; tolerance_ms = 1000 more is allowed
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
//!
//! [[engine]]
//! command = "self"        # a Piskvork brain: "self" or a path; args = [...]
//! info = ["max_node 20000", "strength 100"]
//! ```
//!
//! Every game starts from a seeded random opening: the first stone on the centre, the second
//! within distance 2 of it; with `openingRule` `pro`/`longPro` the third move's rule is then
//! the players' business (the referee enforces it). `swap` and `swap2` are refused: the seeded
//! openings already balance the games, and Piskvork brains have no Pente swap convention.

use std::path::Path;
use std::sync::Arc;

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Deserialize;

use super::engine_process::{EngineClient, ProcessCommand, ProcessTransport};
use super::spec::{Format, TournamentArgs};
use crate::game::Action;
use crate::game::options::{ColorAssignment, Players, TimeControl};
use crate::pente::PenteRules;
use crate::pente::play::strength_level;
use crate::pente::referee::{PenteGame, PenteGameOptions, PentePlayers, PenteSetup};
use crate::pente::search::{PenteLimits, capture_greedy_move, choose, level};
use crate::time::SystemClock;

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
    /// A Piskvork brain: `self` (this executable) or a path.
    pub command: Option<String>,
    /// The brain's arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// Extra `INFO` lines for the brain (`max_node 20000`).
    #[serde(default)]
    pub info: Vec<String>,
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
    /// Brains: time per move (ms).
    pub turn_ms: Option<u64>,
    /// Brains: extra time allowed per move (ms).
    pub tolerance_ms: Option<u64>,
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
    Brain {
        command: ProcessCommand,
        info: Vec<String>,
    },
}

/// A player ready to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PentePlayer {
    /// Its name.
    pub name: String,
    kind: Kind,
}

impl PentePlayer {
    fn from_file(e: &PenteEngineFile, self_exe: &Path) -> Result<PentePlayer, PenteSpecError> {
        if let Some(c) = &e.command {
            let path = if c == "self" {
                self_exe.to_path_buf()
            } else {
                std::path::PathBuf::from(c)
            };
            let stem = path
                .file_stem()
                .map_or("brain".into(), |s| s.to_string_lossy().into_owned());
            return Ok(PentePlayer {
                name: e.name.clone().unwrap_or(stem),
                kind: Kind::Brain {
                    command: ProcessCommand {
                        command: path,
                        args: e.args.clone(),
                    },
                    info: e.info.clone(),
                },
            });
        }
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
    /// Brains: time per move (ms).
    pub turn_ms: u64,
    /// Brains: extra time allowed (ms).
    pub tolerance_ms: u64,
}

impl PenteTournament {
    /// Reads and validates the spec; `--games`, `--seed` and `--concurrency` override it.
    /// `self_exe` is the brain that `command = "self"` runs.
    pub fn load(args: &TournamentArgs, self_exe: &Path) -> Result<PenteTournament, PenteSpecError> {
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
        if file.pente.opening_rule.is_interactive() {
            return Err(PenteSpecError::Invalid(format!(
                "{path}: openingRule {}: Pente tournaments play none, pro or longPro (their games \
                 start from seeded openings, and Piskvork brains have no Pente swap convention)",
                file.pente.opening_rule.name()
            )));
        }
        let players = file
            .engine
            .iter()
            .map(|e| PentePlayer::from_file(e, self_exe))
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
            turn_ms: args.turn_ms.or(file.turn_ms).unwrap_or(5000),
            tolerance_ms: args.tolerance_ms.or(file.tolerance_ms).unwrap_or(1000),
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

/// A player during one game: in-process, or a brain with its client.
enum Seat<'a> {
    Local(&'a PentePlayer),
    Brain {
        client: EngineClient,
        /// Whether the brain has seen the game (after its first `BOARD`).
        synced: bool,
    },
}

impl Seat<'_> {
    fn end(self) {
        if let Seat::Brain { client, .. } = self {
            client.end();
        }
    }
}

/// The INFO lines that tell a brain the rules.
fn pente_info(rules: &PenteRules, turn_ms: u64) -> Vec<String> {
    let name = |v: serde_json::Value| v.as_str().unwrap_or_default().to_string();
    vec![
        "INFO omok_rule pente".into(),
        format!("INFO pente_board {}", rules.board_size),
        format!("INFO pente_three_capture {}", u8::from(rules.three_capture)),
        format!("INFO pente_capture_win {}", u8::from(rules.capture_win)),
        format!(
            "INFO pente_overline {}",
            name(serde_json::to_value(rules.overline).unwrap_or_default())
        ),
        format!(
            "INFO pente_suicide {}",
            name(serde_json::to_value(rules.suicide).unwrap_or_default())
        ),
        format!(
            "INFO pente_extension {}",
            name(serde_json::to_value(rules.extension).unwrap_or_default())
        ),
        format!("INFO pente_opening {}", rules.opening_rule.name()),
        format!("INFO timeout_turn {turn_ms}"),
    ]
}

fn start_brain(
    command: &ProcessCommand,
    info: &[String],
    t: &GameLimits,
) -> Result<EngineClient, String> {
    let transport = ProcessTransport::spawn(command).map_err(|e| e.to_string())?;
    let mut client = EngineClient::new(Box::new(transport), Arc::new(SystemClock::new()));
    let mut lines = pente_info(&t.rules, t.turn_ms);
    lines.extend(info.iter().map(|l| format!("INFO {l}")));
    client.send(&lines).map_err(|e| e.to_string())?;
    client
        .start(t.rules.board_size, 10_000)
        .map_err(|e| e.to_string())?;
    Ok(client)
}

/// Asks a seat for its move; `Err` when it fails (time, crash, unreadable answer).
fn ask(
    seat: &mut Seat<'_>,
    game: &PenteGame,
    rng: &mut Xoshiro256PlusPlus,
    t: &GameLimits,
) -> Result<(i64, i64), String> {
    let pos = game.position();
    let n = pos.size();
    let cell_xy = |c: usize| ((c % n) as i64, (c / n) as i64);
    match seat {
        Seat::Local(player) => {
            let m = match &player.kind {
                Kind::CaptureGreedy => capture_greedy_move(&mut pos.clone(), rng),
                Kind::Search(limits) => choose(pos, *limits, None, rng),
                Kind::Brain { .. } => None,
            };
            m.map(cell_xy).ok_or_else(|| "no move".to_string())
        }
        Seat::Brain { client, synced } => {
            let moves: Vec<usize> = pos.moves().collect();
            let lines = match (*synced, moves.last()) {
                (true, Some(&last)) => {
                    let (x, y) = cell_xy(last);
                    vec![format!("TURN {x},{y}")]
                }
                _ if moves.is_empty() => vec!["BEGIN".to_string()],
                _ => {
                    let me = moves.len() % 2;
                    let mut l = vec!["BOARD".to_string()];
                    for (i, &c) in moves.iter().enumerate() {
                        let (x, y) = cell_xy(c);
                        l.push(format!("{x},{y},{}", if i % 2 == me { 1 } else { 2 }));
                    }
                    l.push("DONE".into());
                    l
                }
            };
            let answer = client
                .request(&lines, t.turn_ms + t.tolerance_ms, true)
                .map_err(|e| e.to_string())?;
            *synced = true;
            let (x, y) = answer
                .line
                .split_once(',')
                .ok_or_else(|| format!("unreadable answer '{}'", answer.line))?;
            match (x.trim().parse(), y.trim().parse()) {
                (Ok(x), Ok(y)) => Ok((x, y)),
                _ => Err(format!("unreadable answer '{}'", answer.line)),
            }
        }
    }
}

/// What one game needs besides its players.
#[derive(Clone, Copy, Debug)]
pub struct GameLimits {
    /// Rules.
    pub rules: PenteRules,
    /// Draw after this many moves.
    pub max_plies: usize,
    /// Brains: ms per move.
    pub turn_ms: u64,
    /// Brains: extra ms.
    pub tolerance_ms: u64,
}

impl GameLimits {
    /// In-process defaults: `max_plies`, 5 s per brain move and 1 s tolerance.
    pub fn new(rules: PenteRules, max_plies: usize) -> GameLimits {
        GameLimits {
            rules,
            max_plies,
            turn_ms: 5000,
            tolerance_ms: 1000,
        }
    }
}

fn seat_for<'a>(p: &'a PentePlayer, t: &GameLimits) -> Result<Seat<'a>, String> {
    match &p.kind {
        Kind::Brain { command, info } => Ok(Seat::Brain {
            client: start_brain(command, info, t)?,
            synced: false,
        }),
        _ => Ok(Seat::Local(p)),
    }
}

/// Plays one game judged by the referee: `a` plays first (white) when `a_first`.
pub fn play_game(
    t: &GameLimits,
    a: &PentePlayer,
    b: &PentePlayer,
    a_first: bool,
    seed: u64,
) -> PairResult {
    let rules = t.rules;
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
    let (mut seat_a, mut seat_b) = match (seat_for(a, t), seat_for(b, t)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(_), Ok(y)) => {
            y.end();
            return PairResult::Loss;
        }
        (Ok(x), Err(_)) => {
            x.end();
            return PairResult::Win;
        }
        (Err(_), Err(_)) => return PairResult::Draw,
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
    let mut forfeit = None;
    while game.result().is_none() && game.moves().len() < t.max_plies {
        let turn = game.position().turn();
        let who = if turn == 0 { first } else { second };
        let seat = if who == "a" { &mut seat_a } else { &mut seat_b };
        let answer = ask(seat, &game, &mut rng, t);
        now += 1;
        let ok = answer.is_ok_and(|(x, y)| {
            game.apply(&Action::Place {
                player: who.into(),
                x,
                y,
                now,
            })
            .is_ok()
        });
        if !ok {
            // A failed or illegal answer loses, as in the omok tournaments.
            forfeit = Some(if who == "a" {
                PairResult::Loss
            } else {
                PairResult::Win
            });
            break;
        }
    }
    seat_a.end();
    seat_b.end();
    if let Some(f) = forfeit {
        return f;
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
        let limits = GameLimits {
            rules: t.rules,
            max_plies: t.max_plies,
            turn_ms: t.turn_ms,
            tolerance_ms: t.tolerance_ms,
        };
        (
            p,
            play_game(&limits, &t.players[a], &t.players[b], g % 2 == 0, seed),
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
