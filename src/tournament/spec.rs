//! The tournament specification: a TOML file, command-line overrides, and the validated
//! [`TournamentSpec`] the runner uses — two stages, like ripgrep's `LowArgs` → `HiArgs`:
//! [`SpecFile`] and [`TournamentArgs`] hold what was written (every field optional), and
//! [`TournamentSpec::build`] merges them (the command line wins), fills in defaults, reads the
//! opening file, and checks everything before any engine starts.
//!
//! ```toml
//! name = "smoke"                 # default: the file's stem
//! rule = "freestyle"             # any rule name (freestyle, standard, renju, korean, caro, …)
//! board_size = 15
//! games = 8                      # per engine pair (default: every opening once, both colours)
//! repeat = true                  # each opening twice, colours swapped (default true)
//! format = "round-robin"         # "gauntlet": the first engine against each of the others;
//!                                # "ladder": each engine against the next one
//! concurrency = 2                # games in parallel
//! seed = 1                       # opening order and random symmetries
//! tolerance_ms = 1000            # a late answer loses beyond the limit plus this
//! max_memory_mb = 350            # sent as INFO max_memory; more memory at any time loses (0: none)
//! memory_check = true            # false: send max_memory but never judge memory
//! pondering = false              # true: the brain not to move keeps running (default: suspended)
//! draw_after = 200               # stones; default 200 for renju, else none (0: none)
//! opening_rule = "swap2"         # none (default), swap2 (Gomocup SWAP2BOARD, any brains), or
//!                                # center, pro, longPro, swap, rif, soosorv-N, taraguchi10
//!                                # (decided by the manager for omok engines only); not with
//!                                # an opening file
//! start_timeout_ms = 10000       # for START / RESTART answers
//! output = "results/smoke"       # records and report; relative to this file (default: none)
//! overwrite = false              # true: replace the records of an earlier run in `output`
//!
//! [time]
//! turn_ms = 1000                 # INFO timeout_turn (0: only the match time limits a move)
//! match_ms = 0                   # INFO timeout_match (0: none)
//! increment_ms = 0               # added to the match time after each move (INFO time_increment)
//!
//! [openings]
//! file = "openings/freestyle-15.txt"   # relative to this file; default: the empty board
//! order = "sequential"           # or "random" (seeded)
//! symmetries = "none"            # "all": every distinct image of each opening; "random": one each
//!
//! [sprt]                         # only with two engines; stops the match when decided
//! elo0 = 0
//! elo1 = 10
//! alpha = 0.05
//! beta = 0.05
//!
//! [[engine]]
//! name = "omok-50"               # default: omok-s<strength>, or the command's file stem
//! strength = 50                  # omok itself (this executable, INFO strength 50)
//! info = ["max_node 20000"]      # extra INFO lines sent before every game
//! memory_tolerance_mb = 0        # this engine may use this much more than max_memory_mb
//!
//! [[engine]]
//! command = "${OMOK_PEER}"       # any Piskvork brain; relative paths with a '/' are taken
//! args = ["--fast"]              # from this file's folder, bare names from PATH
//! ```
//!
//! `${NAME}` in `command`, `args`, `info`, `name`, `output` and `[openings] file` is the
//! environment variable `NAME` (an unset one is an error naming it and the key; `$$` is a literal
//! `$`). A `command` with spaces and no `args` is split into words (`'…'`/`"…"` group words with
//! spaces): `command = "/path/pbrain-omok --config x.toml"`. See [`expand`].

use std::path::{Path, PathBuf};

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Deserialize;
use thiserror::Error;

use crate::rule::Rule;
use crate::rules::opening::OpeningRule;

use super::openings::{Opening, OpeningError, Symmetry, parse_openings, symmetric_images};
use super::stats::SprtParams;

pub mod expand;

use expand::{EnvLookup, ExpandError, expand, split_words};

/// A specification that cannot be used.
#[derive(Debug, Error)]
pub enum SpecError {
    /// A file that cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not valid TOML, or unknown or mistyped fields.
    #[error("{path}: {source}")]
    Toml {
        /// The file.
        path: PathBuf,
        /// Why.
        source: Box<toml::de::Error>,
    },
    /// The opening file.
    #[error("{path}: {source}")]
    Openings {
        /// The file.
        path: PathBuf,
        /// Why.
        source: OpeningError,
    },
    /// A `${VAR}` that cannot be substituted, or a command that cannot be split into words.
    #[error("{path}: {key}: {source}")]
    Expand {
        /// The file.
        path: PathBuf,
        /// The key (`engine 2 command`, `output`, …).
        key: String,
        /// Why.
        source: ExpandError,
    },
    /// A value out of range or a combination that does not work.
    #[error("{0}")]
    Invalid(String),
}

fn invalid(msg: impl Into<String>) -> SpecError {
    SpecError::Invalid(msg.into())
}

/// Round robin or gauntlet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every engine against every other.
    #[default]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
    /// Each engine against the next one in the list (a strength ladder).
    Ladder,
}

impl Format {
    /// The spec's name (`round-robin`, `gauntlet`, `ladder`).
    pub const fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::Ladder => "ladder",
        }
    }
}

/// The order openings are used in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningOrder {
    /// As in the file.
    #[default]
    Sequential,
    /// Shuffled with the seed.
    Random,
}

/// How the board symmetries are used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum SymmetryMode {
    /// Openings as written.
    #[default]
    None,
    /// Every distinct image of every opening (up to 8 each).
    All,
    /// One seeded random image of each opening.
    Random,
}

/// The TOML file as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct SpecFile {
    pub name: Option<String>,
    pub rule: Option<Rule>,
    pub board_size: Option<usize>,
    pub games: Option<u32>,
    pub repeat: Option<bool>,
    pub format: Option<Format>,
    pub concurrency: Option<usize>,
    pub seed: Option<u64>,
    pub tolerance_ms: Option<u64>,
    pub max_memory_mb: Option<u64>,
    pub draw_after: Option<u32>,
    pub start_timeout_ms: Option<u64>,
    pub output: Option<PathBuf>,
    pub overwrite: Option<bool>,
    pub memory_check: Option<bool>,
    pub pondering: Option<bool>,
    pub opening_rule: Option<String>,
    #[serde(default)]
    pub time: TimeFile,
    #[serde(default)]
    pub openings: OpeningsFile,
    pub sprt: Option<SprtParams>,
    #[serde(default, alias = "engines")]
    pub engine: Vec<EngineFile>,
}

impl SpecFile {
    /// Substitutes `${VAR}`s in the engines' `name`, `command`, `args` and `info`, in `output` and
    /// in `[openings] file`; an error comes with the key it was found in.
    pub fn expand_env(&mut self, env: EnvLookup<'_>) -> Result<(), (String, ExpandError)> {
        fn path(
            p: &mut PathBuf,
            key: &str,
            env: EnvLookup<'_>,
        ) -> Result<(), (String, ExpandError)> {
            // A path that is not UTF-8 has nothing to substitute that could be written in TOML.
            if let Some(text) = p.to_str() {
                *p = PathBuf::from(expand(text, env).map_err(|e| (key.to_string(), e))?);
            }
            Ok(())
        }
        fn text(
            t: &mut String,
            key: String,
            env: EnvLookup<'_>,
        ) -> Result<(), (String, ExpandError)> {
            *t = expand(t, env).map_err(|e| (key, e))?;
            Ok(())
        }
        if let Some(p) = self.output.as_mut() {
            path(p, "output", env)?;
        }
        if let Some(p) = self.openings.file.as_mut() {
            path(p, "openings.file", env)?;
        }
        for (i, e) in self.engine.iter_mut().enumerate() {
            let n = i + 1;
            if let Some(name) = e.name.as_mut() {
                text(name, format!("engine {n} name"), env)?;
            }
            if let Some(c) = e.command.as_mut() {
                path(c, &format!("engine {n} command"), env)?;
            }
            for (k, a) in e.args.iter_mut().enumerate() {
                text(a, format!("engine {n} args[{k}]"), env)?;
            }
            for (k, l) in e.info.iter_mut().enumerate() {
                text(l, format!("engine {n} info[{k}]"), env)?;
            }
        }
        Ok(())
    }
}

/// `[time]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct TimeFile {
    pub turn_ms: Option<u64>,
    pub match_ms: Option<u64>,
    pub increment_ms: Option<u64>,
}

/// `[openings]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct OpeningsFile {
    pub file: Option<PathBuf>,
    pub order: Option<OpeningOrder>,
    pub symmetries: Option<SymmetryMode>,
}

/// One `[[engine]]`.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct EngineFile {
    pub name: Option<String>,
    pub command: Option<PathBuf>,
    #[serde(default)]
    pub args: Vec<String>,
    pub strength: Option<u8>,
    #[serde(default)]
    pub info: Vec<String>,
    pub memory_tolerance_mb: Option<u64>,
}

/// `pbrain-omok tournament`: the spec file and the values that override it.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct TournamentArgs {
    /// The tournament specification (TOML; see tournaments/*.toml).
    pub spec: PathBuf,
    /// Games per engine pair.
    #[arg(long)]
    pub games: Option<u32>,
    /// Games played in parallel.
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Rule set.
    #[arg(long)]
    pub rule: Option<Rule>,
    /// Board side.
    #[arg(long)]
    pub size: Option<usize>,
    /// Milliseconds per move (INFO timeout_turn).
    #[arg(long)]
    pub turn_ms: Option<u64>,
    /// Milliseconds per game and engine (INFO timeout_match; 0 = none).
    #[arg(long)]
    pub match_ms: Option<u64>,
    /// Milliseconds added to the match time after each move.
    #[arg(long)]
    pub increment_ms: Option<u64>,
    /// Milliseconds of grace beyond a limit before an answer loses on time.
    #[arg(long)]
    pub tolerance_ms: Option<u64>,
    /// Memory limit per engine in MiB (0 = none).
    #[arg(long)]
    pub max_memory_mb: Option<u64>,
    /// Seed of the opening order and random symmetries.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Opening file (offsets or pos strings).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Opening order.
    #[arg(long, value_enum)]
    pub order: Option<OpeningOrder>,
    /// Use of the board symmetries.
    #[arg(long, value_enum)]
    pub symmetries: Option<SymmetryMode>,
    /// Round robin or gauntlet.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Both colours per opening (true/false).
    #[arg(long)]
    pub repeat: Option<bool>,
    /// Folder for the records and the report.
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// SPRT as `elo0,elo1[,alpha,beta]`.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Replace the records of an earlier run in the output folder (otherwise a folder that
    /// already holds files is refused).
    #[arg(long)]
    pub force: bool,
    /// Opening rule (none, swap2, or for omok engines center, pro, longPro, swap, rif,
    /// soosorv-N, taraguchi10).
    #[arg(long)]
    pub opening_rule: Option<OpeningRule>,
}

/// One engine, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Its unique name.
    pub name: String,
    /// The executable.
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// `INFO` lines (without the `INFO `) sent before every game, after the tournament's own.
    pub info: Vec<String>,
    /// The omok strength, for omok itself.
    pub strength: Option<u8>,
    /// Bytes this engine may use beyond the tournament's memory limit.
    pub memory_tolerance: u64,
}

/// The time control, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Per move (0: only the match time).
    pub turn_ms: u64,
    /// Per game and engine (0: none).
    pub match_ms: u64,
    /// Added after each move.
    pub increment_ms: u64,
}

/// A validated tournament.
#[derive(Clone, Debug)]
pub struct TournamentSpec {
    /// Its name.
    pub name: String,
    /// The rule set.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// Games per pair.
    pub games: u32,
    /// Both colours per opening.
    pub repeat: bool,
    /// Pairing.
    pub format: Format,
    /// Games in parallel.
    pub concurrency: usize,
    /// The seed.
    pub seed: u64,
    /// The clock.
    pub time: TimeControl,
    /// Grace beyond the limit, ms.
    pub tolerance_ms: u64,
    /// Memory limit per engine in bytes (0: none).
    pub max_memory: u64,
    /// Whether memory is judged (the limit is sent either way).
    pub memory_check: bool,
    /// Whether the brain not to move keeps running (else it is suspended).
    pub pondering: bool,
    /// Draw after this many stones.
    pub draw_after: Option<u32>,
    /// Limit for START and RESTART answers, ms.
    pub start_timeout_ms: u64,
    /// The opening rule played before the moves.
    pub opening_rule: OpeningRule,
    /// The openings in the order they are used.
    pub openings: Vec<Opening>,
    /// Where the opening file was (for the report).
    pub openings_file: Option<PathBuf>,
    /// The SPRT.
    pub sprt: Option<SprtParams>,
    /// The engines.
    pub engines: Vec<EngineSpec>,
    /// Output folder.
    pub output: Option<PathBuf>,
    /// Whether an output folder with earlier records may be replaced.
    pub overwrite: bool,
}

fn read(path: &Path) -> Result<String, SpecError> {
    std::fs::read_to_string(path).map_err(|source| SpecError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// `elo0,elo1[,alpha,beta]`.
fn parse_sprt(text: &str) -> Result<SprtParams, SpecError> {
    let v: Vec<f64> = text
        .split(',')
        .map(|t| t.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| invalid(format!("--sprt {text:?}: expected elo0,elo1[,alpha,beta]")))?;
    match v[..] {
        [elo0, elo1] => Ok(SprtParams {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }),
        [elo0, elo1, alpha, beta] => Ok(SprtParams {
            elo0,
            elo1,
            alpha,
            beta,
        }),
        _ => Err(invalid(format!(
            "--sprt {text:?}: expected elo0,elo1[,alpha,beta]"
        ))),
    }
}

impl TournamentSpec {
    /// Reads the spec file named in `args` and builds the spec; `self_exe` is the omok
    /// executable that `strength` engines run.
    pub fn load(args: &TournamentArgs, self_exe: &Path) -> Result<TournamentSpec, SpecError> {
        TournamentSpec::load_with_env(args, self_exe, &|name| std::env::var(name).ok())
    }

    /// [`TournamentSpec::load`] with the environment's variables looked up by `env`.
    pub fn load_with_env(
        args: &TournamentArgs,
        self_exe: &Path,
        env: EnvLookup<'_>,
    ) -> Result<TournamentSpec, SpecError> {
        let text = read(&args.spec)?;
        let mut file: SpecFile = toml::from_str(&text).map_err(|e| SpecError::Toml {
            path: args.spec.clone(),
            source: Box::new(e),
        })?;
        file.expand_env(env)
            .map_err(|(key, source)| SpecError::Expand {
                path: args.spec.clone(),
                key,
                source,
            })?;
        let base = args.spec.parent().unwrap_or(Path::new("")).to_path_buf();
        let stem = args
            .spec
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "tournament".into());
        TournamentSpec::build(file, &base, &stem, args, self_exe).map_err(|e| match e {
            // Name the file; the other kinds already do.
            SpecError::Invalid(msg) => {
                SpecError::Invalid(format!("{}: {msg}", args.spec.display()))
            }
            e => e,
        })
    }

    /// Merges the file (paths relative to `base`) and the overrides, and validates the result.
    pub fn build(
        file: SpecFile,
        base: &Path,
        default_name: &str,
        args: &TournamentArgs,
        self_exe: &Path,
    ) -> Result<TournamentSpec, SpecError> {
        let rule = args.rule.or(file.rule).unwrap_or(Rule::Freestyle);
        let size = args.size.or(file.board_size).unwrap_or(15);
        if !(crate::core::MIN_SIZE..=crate::core::MAX_SIZE).contains(&size) {
            return Err(invalid(format!("board_size {size} is not in 5..=32")));
        }
        let time = TimeControl {
            turn_ms: args.turn_ms.or(file.time.turn_ms).unwrap_or(1000),
            match_ms: args.match_ms.or(file.time.match_ms).unwrap_or(0),
            increment_ms: args.increment_ms.or(file.time.increment_ms).unwrap_or(0),
        };
        if time.turn_ms == 0 && time.match_ms == 0 {
            return Err(invalid(
                "time: turn_ms and match_ms are both 0; give at least one limit",
            ));
        }
        let seed = args.seed.or(file.seed).unwrap_or(1);
        let engines = resolve_engines(&file.engine, base, self_exe)?;
        let format = args.format.or(file.format).unwrap_or_default();
        let sprt = match &args.sprt {
            Some(text) => Some(parse_sprt(text)?),
            None => file.sprt,
        };
        if let Some(s) = &sprt {
            s.validate().map_err(invalid)?;
            if engines.len() != 2 {
                return Err(invalid(format!(
                    "sprt needs exactly two engines, not {}",
                    engines.len()
                )));
            }
        }
        let openings_file = match &args.openings {
            Some(p) => Some(p.clone()),
            None => file.openings.file.as_ref().map(|p| base.join(p)),
        };
        let openings = match &openings_file {
            None => vec![Opening::empty()],
            Some(path) => parse_openings(&read(path)?, size, size, rule).map_err(|source| {
                SpecError::Openings {
                    path: path.clone(),
                    source,
                }
            })?,
        };
        let symmetries = args
            .symmetries
            .or(file.openings.symmetries)
            .unwrap_or_default();
        let order = args.order.or(file.openings.order).unwrap_or_default();
        let openings = arrange_openings(openings, size, symmetries, order, seed);
        let opening_rule = match (&args.opening_rule, &file.opening_rule) {
            (Some(r), _) => *r,
            (None, Some(text)) => text
                .parse::<OpeningRule>()
                .map_err(|e| invalid(format!("opening_rule: {e}")))?,
            (None, None) => OpeningRule::None,
        };
        if !opening_rule.is_none() {
            if openings_file.is_some() {
                return Err(invalid(format!(
                    "opening_rule {opening_rule} and an opening file exclude each other"
                )));
            }
            if size < opening_rule.min_size() {
                return Err(invalid(format!(
                    "opening_rule {opening_rule} needs a board of at least {}",
                    opening_rule.min_size()
                )));
            }
            if opening_rule != OpeningRule::Swap2
                && let Some(e) = engines.iter().find(|e| e.strength.is_none())
            {
                return Err(invalid(format!(
                    "opening_rule {opening_rule} is decided by the manager for omok engines \
                     only (give strength); {} is not omok (swap2 works with any brain)",
                    e.name
                )));
            }
        }
        let repeat = args.repeat.or(file.repeat).unwrap_or(true);
        let per_opening = if repeat { 2 } else { 1 };
        let games = args
            .games
            .or(file.games)
            .unwrap_or(openings.len() as u32 * per_opening);
        if games == 0 {
            return Err(invalid("games must be at least 1"));
        }
        let concurrency = args.concurrency.or(file.concurrency).unwrap_or(1);
        if concurrency == 0 {
            return Err(invalid("concurrency must be at least 1"));
        }
        let draw_after = match file.draw_after {
            Some(0) => None,
            Some(n) => Some(n),
            None => (rule == Rule::Renju).then_some(200),
        };
        let output = match &args.output {
            Some(p) => Some(p.clone()),
            None => file.output.as_ref().map(|p| base.join(p)),
        };
        Ok(TournamentSpec {
            name: file.name.unwrap_or_else(|| default_name.to_string()),
            rule,
            size,
            games,
            repeat,
            format,
            concurrency,
            seed,
            time,
            tolerance_ms: args.tolerance_ms.or(file.tolerance_ms).unwrap_or(1000),
            max_memory: args.max_memory_mb.or(file.max_memory_mb).unwrap_or(0) << 20,
            memory_check: file.memory_check.unwrap_or(true),
            pondering: file.pondering.unwrap_or(false),
            draw_after,
            start_timeout_ms: file.start_timeout_ms.unwrap_or(10_000).max(1),
            opening_rule,
            openings,
            openings_file,
            sprt,
            engines,
            output,
            overwrite: args.force || file.overwrite.unwrap_or(false),
        })
    }

    /// The engine pairs in schedule order.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        match self.format {
            Format::RoundRobin => (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            Format::Gauntlet => (1..n).map(|b| (0, b)).collect(),
            Format::Ladder => (1..n).map(|b| (b - 1, b)).collect(),
        }
    }

    /// The engine names by index.
    pub fn names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }
}

fn resolve_engines(
    engines: &[EngineFile],
    base: &Path,
    self_exe: &Path,
) -> Result<Vec<EngineSpec>, SpecError> {
    if engines.len() < 2 {
        return Err(invalid(format!(
            "a tournament needs at least two [[engine]]s, not {}",
            engines.len()
        )));
    }
    let mut out: Vec<EngineSpec> = Vec::new();
    for (i, e) in engines.iter().enumerate() {
        let mut args = e.args.clone();
        let (command, default_name) = match (&e.command, e.strength) {
            (Some(_), Some(_)) => {
                return Err(invalid(format!(
                    "engine {}: give either command or strength, not both",
                    i + 1
                )));
            }
            (None, None) => {
                return Err(invalid(format!(
                    "engine {}: give a command or an omok strength",
                    i + 1
                )));
            }
            (None, Some(s)) if s > 100 => {
                return Err(invalid(format!(
                    "engine {}: strength {s} is not in 0..=100",
                    i + 1
                )));
            }
            (None, Some(s)) => (self_exe.to_path_buf(), format!("omok-s{s}")),
            (Some(c), None) => {
                let (c, extra) = command_words(c, &e.args)
                    .map_err(|err| invalid(format!("engine {} command: {err}", i + 1)))?;
                args = extra;
                let path = if c.components().count() > 1 && c.is_relative() {
                    base.join(&c)
                } else {
                    c.clone()
                };
                let stem = c
                    .file_stem()
                    .map_or("engine".into(), |s| s.to_string_lossy().into_owned());
                (path, stem)
            }
        };
        let mut name = e.name.clone().unwrap_or(default_name);
        if name.trim().is_empty() {
            return Err(invalid(format!("engine {}: empty name", i + 1)));
        }
        let base_name = name.clone();
        let mut k = 2;
        while out.iter().any(|o| o.name == name) {
            name = format!("{base_name}#{k}");
            k += 1;
        }
        out.push(EngineSpec {
            name,
            command,
            args,
            info: e.info.clone(),
            strength: e.strength,
            memory_tolerance: e.memory_tolerance_mb.unwrap_or(0) << 20,
        });
    }
    Ok(out)
}

/// The executable and arguments of a `command`: split into words when it has whitespace and no
/// `args` are given, else taken whole.
fn command_words(command: &Path, args: &[String]) -> Result<(PathBuf, Vec<String>), ExpandError> {
    let text = command.to_string_lossy();
    if !args.is_empty() || !text.contains(char::is_whitespace) {
        return Ok((command.to_path_buf(), args.to_vec()));
    }
    let mut words = split_words(&text)?.into_iter();
    match words.next() {
        Some(first) if !first.is_empty() => Ok((PathBuf::from(first), words.collect())),
        _ => Err(ExpandError::NoProgram(text.into_owned())),
    }
}

/// Applies the symmetry mode and the order.
fn arrange_openings(
    openings: Vec<Opening>,
    size: usize,
    symmetries: SymmetryMode,
    order: OpeningOrder,
    seed: u64,
) -> Vec<Opening> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out: Vec<Opening> = match symmetries {
        SymmetryMode::None => openings,
        SymmetryMode::All => openings
            .iter()
            .flat_map(|o| symmetric_images(o, size, size))
            .collect(),
        SymmetryMode::Random => openings
            .into_iter()
            .map(|o| {
                let all = Symmetry::for_board(size, size);
                let s = all[(rng.next_u64() % all.len() as u64) as usize];
                Opening {
                    moves: s.apply_all(&o.moves, size, size),
                    symmetry: s,
                    ..o
                }
            })
            .collect(),
    };
    if order == OpeningOrder::Random {
        for i in (1..out.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            out.swap(i, j);
        }
    }
    out
}

#[cfg(test)]
mod tests;
