//! `pbrain-omok`: the command-line entry point. With no subcommand it is a Piskvork brain on
//! stdin/stdout; `forbid` lists forbidden points for frontends and checks; `bench` prints the
//! search's node signature. See README.md.

use std::io::{self, BufRead, BufWriter, Write};

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use omok::Rule;
use omok::rules::ForbidOptions;

mod cli_board;

#[derive(Parser)]
#[command(
    name = "pbrain-omok",
    version,
    about = "omok: a Gomoku/Renju engine and rules library"
)]
struct Args {
    /// Engine parameters (TOML, like engine-config/default.toml) instead of the built-in ones.
    #[arg(long, global = true)]
    config: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Forbidden points: JSON lines on stdin, one JSON line per position on stdout; or, with
    /// --moves, one position drawn as an ASCII board.
    Forbid {
        /// Rule set: freestyle, standard, renju, korean, casual, casual-44, casual-33-44, caro.
        #[arg(long, default_value = "renju")]
        rule: String,
        /// A move list in renju notation (`h8 h9 i8`), black first; prints the board instead.
        #[arg(long)]
        moves: Option<String>,
        /// Board size for --moves.
        #[arg(long, default_value_t = 15)]
        size: usize,
        /// Evaluate at most this many levels of the recursive three check, then allow
        /// (default: exact, unbounded).
        #[arg(long)]
        depth_cap: Option<u32>,
    },
    /// Searches the fixed bench positions to a fixed depth with one thread and prints
    /// `bench: <nodes> nodes <nps> nps <ms> ms` (with the default parameters, the node count is
    /// the search's signature; `--config` benches other ones), after a line that splits the
    /// nodes by the part of the search that examined them.
    Bench {
        /// Search depth (default: the signature depth).
        #[arg(long, default_value_t = omok::bench::BENCH_DEPTH)]
        depth: u32,
        /// Positions to search instead of the signature's: one a line, a rule, a board side
        /// and a pos string (`freestyle 15 h8i9j8`); `#` starts a comment line.
        #[arg(long)]
        positions: Option<std::path::PathBuf>,
        /// Stop each position's search after this many nodes (its last completed depth counts).
        #[arg(long)]
        max_nodes: Option<u64>,
    },
    /// The game referee: a setup JSON line, then one action per line on stdin; one JSON line per
    /// input line and a final result line on stdout (see README, "Game referee").
    Referee,
    /// Runs a tournament between Piskvork brains (omok itself at any strength, or any
    /// `pbrain-*` executable) from a TOML spec; flags override the file (see tournaments/).
    Tournament(omok::tournament::TournamentArgs),
    /// Play omok against the engine in the terminal.
    Play(omok::tournament::play::PlayArgs),
    /// Compares two runs of the same tournament spec game by game (same seed: game n has the
    /// same opening, symmetry and colours in both) and prints the paired difference of an
    /// engine's results with its 95% interval.
    Compare {
        /// The base run: its output folder or its games.jsonl.
        base: std::path::PathBuf,
        /// The candidate run: its output folder or its games.jsonl.
        candidate: std::path::PathBuf,
        /// The engine whose results are compared (its name in both runs).
        #[arg(long, default_value = "omok")]
        engine: String,
    },
    /// Texel tuning of the evaluation: `gen` plays seeded self-play games, `positions` and
    /// `label` make positions judged by a stronger engine, `fit` fits the evaluation's weights
    /// to game records or judged positions (see README, "Tuning the evaluation"); `policy`
    /// fits the move ordering to stronger engines' moves ("Tuning the move ordering").
    Tune {
        #[command(subcommand)]
        action: TuneAction,
    },
}

#[derive(Subcommand)]
enum TuneAction {
    /// Plays node-limited self-play games from seeded openings (in parallel); one JSON line per
    /// game on stdout. The same arguments give the same games.
    Gen {
        /// Games to play.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Node limit per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Rule set.
        #[arg(long, default_value = "freestyle")]
        rule: String,
        /// Board size.
        #[arg(long, default_value_t = 15)]
        size: usize,
        /// Seed: game i starts from the opening of seed + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Picks distinct positions from game records (seeded shuffle); one JSON line per position
    /// (`rule`, `size`, `moves`) on stdout, for `label`.
    Positions {
        /// Game record files (`gen`'s output, a tournament's games.jsonl).
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Positions with fewer moves are left out.
        #[arg(long, default_value_t = 6)]
        skip: usize,
        /// How many positions to write at most.
        #[arg(long, default_value_t = 60_000)]
        count: usize,
        /// Seed of the shuffle.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only quiet positions (no five and no straight four to make for either side): the
        /// ones `fit` trains on.
        #[arg(long)]
        quiet: bool,
    },
    /// Asks a judge brain (a Piskvork brain that reports `MESSAGE … Eval <value>` while it
    /// thinks) for its evaluation of each position of FILE and writes the labelled positions
    /// (`value`: the side to move's expected score `1 / (1 + exp(-eval / scale))`, 1 or 0 for a
    /// proved win or loss; `judge_eval`: the evaluation as reported) on stdout. Positions the
    /// judge answers without an evaluation are left out.
    Label {
        /// Positions (`positions`' output).
        file: std::path::PathBuf,
        /// The judge's executable.
        #[arg(long)]
        judge: std::path::PathBuf,
        /// Depth limit for the judge (`INFO max_depth`; 0: none).
        #[arg(long, default_value_t = 12)]
        depth: u32,
        /// Turn limit for the judge in ms (`INFO timeout_turn`).
        #[arg(long, default_value_t = 1000)]
        turn_ms: u64,
        /// The judge's evaluation units per unit of log-odds.
        #[arg(long, default_value_t = 200.0)]
        scale: f64,
        /// Label only positions `part`, `part + parts`, … (0-based) of the file, so that
        /// several judges can share it.
        #[arg(long, default_value_t = 0)]
        part: usize,
        /// See `part`.
        #[arg(long, default_value_t = 1)]
        parts: usize,
    },
    /// Draws short openings near the centre (seeded, distinct up to symmetry) and keeps those a
    /// judge brain (reporting `MESSAGE … Eval <value>`, as for `label`) scores within `--margin`
    /// of even; prints them as an opening file (offset lines, the judge's score from black's
    /// view as a comment) on stdout (see README, "Balanced openings").
    Openings {
        /// The judge's executable.
        #[arg(long)]
        judge: std::path::PathBuf,
        /// Board size.
        #[arg(long, default_value_t = 15)]
        size: usize,
        /// Rule set (the judge gets its Gomocup rule number).
        #[arg(long, default_value = "freestyle")]
        rule: String,
        /// Openings to keep.
        #[arg(long, default_value_t = 40)]
        count: usize,
        /// Candidates to draw at most.
        #[arg(long, default_value_t = 400)]
        candidates: usize,
        /// Stone counts, drawn in turn (repeat: `--stones 3 --stones 5`).
        #[arg(long = "stones", default_values_t = [3, 5])]
        stones: Vec<usize>,
        /// Every stone within this many cells of the centre on each axis.
        #[arg(long, default_value_t = 3)]
        radius: i64,
        /// Largest score, in the judge's units, still called even.
        #[arg(long, default_value_t = 50)]
        margin: i32,
        /// Turn limit for the judge in ms.
        #[arg(long, default_value_t = 1000)]
        turn_ms: u64,
        /// Depth limit for the judge (`INFO max_depth`; 0: none).
        #[arg(long, default_value_t = 0)]
        depth: u32,
        /// Seed of the draw.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Opening files whose openings (and their mirror images) are not drawn again.
        #[arg(long)]
        exclude: Vec<std::path::PathBuf>,
    },
    /// Fits the evaluation's weights to game records (JSON lines: `gen`'s output or a
    /// tournament's games.jsonl) or labelled positions (the same fields plus `value`, the side to
    /// move's expected score after the moves) and prints the loss before and after; `--write
    /// FILE` writes the weights as Rust source (src/pattern/weights.rs).
    Fit {
        /// Game record files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Moves at the start of each game left out of the data.
        #[arg(long, default_value_t = 8)]
        skip: usize,
        /// Gradient-descent iterations.
        #[arg(long, default_value_t = 2000)]
        iterations: usize,
        /// Strength of the L2 prior that holds each combination's value near its current one
        /// (larger: rarer combinations move less).
        #[arg(long, default_value_t = omok::tune::DEFAULT_PRIOR)]
        prior: f64,
        /// Also train on the positions where the side to move must answer an open three (the
        /// side that waits has a straight four to make, the side to move none), which the
        /// search judges by the evaluation where its defences past the horizon end.
        #[arg(long)]
        defending: bool,
        /// Where to write the fitted weights source.
        #[arg(long)]
        write: Option<std::path::PathBuf>,
    },
    /// Fits the evaluation's weights to the moves that some players (`--teacher`, their names
    /// in the records: a tournament's games.jsonl) chose: a softmax over the positions each
    /// legal candidate leads to, by their static evaluations. Prints the cross-entropy before
    /// and after and how often the evaluation ranks the teachers' move first on held-out games;
    /// `--write FILE` writes the weights as Rust source (src/pattern/weights.rs).
    Rank {
        /// Game record files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// A player whose choices are learnt (repeat for several).
        #[arg(long = "teacher", required = true)]
        teachers: Vec<String>,
        /// Moves at the start of each game left out of the data.
        #[arg(long, default_value_t = 8)]
        skip: usize,
        /// Gradient-descent iterations.
        #[arg(long, default_value_t = 500)]
        iterations: usize,
        /// Strength of the L2 prior that holds each combination's value near its current one.
        #[arg(long, default_value_t = omok::tune::DEFAULT_PRIOR)]
        prior: f64,
        /// Where to write the fitted weights source.
        #[arg(long)]
        write: Option<std::path::PathBuf>,
    },
    /// Fits the search's move ordering to the moves that some players (`--teacher`, their
    /// names in the records: a tournament's games.jsonl) played: a softmax over the candidate points by
    /// their combinations for both colours and their distance to the last two stones. Prints
    /// the cross-entropy before and after and how often the fitted ordering, the one compiled
    /// into the engine and the hand-set one put the teachers' move first on held-out games (a
    /// refit is worth writing only where it beats the compiled one); `--write FILE` writes the
    /// values as Rust source (src/pattern/policy_weights.rs).
    Policy {
        /// Game record files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// A player whose moves are learnt (repeat for several).
        #[arg(long = "teacher", required = true)]
        teachers: Vec<String>,
        /// Moves at the start of each game left out of the data.
        #[arg(long, default_value_t = 6)]
        skip: usize,
        /// Gradient-descent iterations.
        #[arg(long, default_value_t = 300)]
        iterations: usize,
        /// Strength of the L2 prior that pulls every value toward zero.
        #[arg(long, default_value_t = 1e-4)]
        l2: f64,
        /// Where to write the fitted values' source.
        #[arg(long)]
        write: Option<std::path::PathBuf>,
    },
}

fn main() -> std::process::ExitCode {
    match run(Args::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            std::process::ExitCode::from(2)
        }
    }
}

/// An error and its causes, each said once: a cause whose text the message before it already
/// contains (library errors often include their cause in their own text) is left out.
fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.contains(part.trim()) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

fn params(path: Option<&std::path::Path>) -> Result<omok::params::Params> {
    match path {
        None => Ok(omok::params::Params::default()),
        Some(p) => {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            Ok(omok::params::Params::from_toml(&text)?)
        }
    }
}

fn run(args: Args) -> Result<()> {
    let params = params(args.config.as_deref())?;
    match args.command {
        Some(Command::Forbid {
            rule,
            moves,
            size,
            depth_cap,
        }) => {
            let rule: Rule = rule.parse()?;
            let options = ForbidOptions { depth_cap };
            match moves {
                Some(moves) => {
                    let text = cli_board::forbid_board(&moves, size, rule, options)?;
                    print!("{text}");
                    Ok(())
                }
                None => forbid_stream(rule, options),
            }
        }
        Some(Command::Referee) => {
            let mut session =
                omok::game::Session::with_seats(omok::engine_seat::factory(params.clone()));
            let mut out = io::stdout().lock();
            for line in io::stdin().lock().lines() {
                if let Some(reply) = session.handle_line(&line.context("reading stdin")?) {
                    writeln!(out, "{reply}")?;
                    out.flush()?;
                }
            }
            writeln!(out, "{}", session.finish())?;
            Ok(())
        }
        Some(Command::Tournament(targs)) => {
            if omok::tournament::pente::is_pente_spec(&targs.spec) {
                let exe = std::env::current_exe().context("locating this executable")?;
                let t = omok::tournament::pente::PenteTournament::load(&targs, &exe)?;
                let lines = omok::tournament::pente::run(&t);
                print!("{}", omok::tournament::pente::summary(&t, &lines));
                return Ok(());
            }
            let exe = std::env::current_exe().context("locating this executable")?;
            let spec = omok::tournament::TournamentSpec::load(&targs, &exe)?;
            let mut stderr = io::stderr();
            let terminal = io::IsTerminal::is_terminal(&stderr);
            let mut progress = omok::tournament::ProgressOut {
                out: &mut stderr,
                terminal,
            };
            let summary = omok::tournament::run(&spec, &mut progress)?;
            print!("{}", summary.text());
            Ok(())
        }
        Some(Command::Play(pargs)) => {
            let clock = std::sync::Arc::new(omok::time::SystemClock::new());
            let (input, output) = (io::stdin().lock(), io::stdout().lock());
            Ok(omok::tournament::play::play(
                input, output, &pargs, params, clock,
            )?)
        }
        Some(Command::Compare {
            base,
            candidate,
            engine,
        }) => {
            let read = |path: &std::path::Path| -> Result<_> {
                let file = if path.is_dir() {
                    path.join("games.jsonl")
                } else {
                    path.to_path_buf()
                };
                let text = std::fs::read_to_string(&file)
                    .with_context(|| format!("reading {}", file.display()))?;
                omok::tournament::compare::read_results(&text, &engine)
                    .with_context(|| format!("reading {}", file.display()))
            };
            let c = omok::tournament::compare::compare(&read(&base)?, &read(&candidate)?);
            println!("{c}");
            Ok(())
        }
        Some(Command::Bench {
            depth,
            positions,
            max_nodes,
        }) => {
            let clock = omok::time::SystemClock::new();
            let print = |l: &omok::bench::BenchLine| {
                let best = l.best.map_or("none".to_string(), |p| p.to_string());
                println!(
                    "{:2} {:9} {}x{} depth {:2} best {:5} score {:6} nodes {:9} {:6} ms",
                    l.index, l.rule, l.size, l.size, l.depth, best, l.score, l.nodes, l.ms
                );
            };
            let boards = match &positions {
                Some(path) => {
                    let text = std::fs::read_to_string(path)
                        .with_context(|| format!("reading {}", path.display()))?;
                    omok::bench::parse_positions(&text)
                        .with_context(|| format!("reading {}", path.display()))?
                }
                None => omok::bench::positions(),
            };
            let report =
                omok::bench::run_positions(&boards, depth, max_nodes, &params, &clock, print);
            println!("{}", report.breakdown());
            println!("{}", report.summary());
            Ok(())
        }
        Some(Command::Tune { action }) => tune(action, params),
        None => {
            let engine = omok::engine::Engine::new(
                params,
                std::sync::Arc::new(omok::time::SystemClock::new()),
            );
            omok::protocol::run_stdio(engine).context("Piskvork brain I/O")
        }
    }
}

fn tune(action: TuneAction, params: omok::params::Params) -> Result<()> {
    use omok::tune;
    match action {
        TuneAction::Gen {
            games,
            nodes,
            rule,
            size,
            seed,
        } => {
            let config = tune::GenConfig {
                games,
                nodes,
                rule: rule.parse()?,
                size,
                seed,
                params,
            };
            let mut out = BufWriter::new(io::stdout().lock());
            for g in tune::generate(&config) {
                writeln!(out, "{}", serde_json::to_string(&g)?)?;
            }
            Ok(())
        }
        TuneAction::Positions {
            files,
            skip,
            count,
            seed,
            quiet,
        } => {
            let mut games = Vec::new();
            for f in &files {
                games.extend(read_records(f)?);
            }
            let mut out = BufWriter::new(io::stdout().lock());
            for p in tune::label::positions(&games, skip, count, seed, quiet)
                .map_err(anyhow::Error::msg)?
            {
                writeln!(out, "{}", serde_json::to_string(&p)?)?;
            }
            Ok(())
        }
        TuneAction::Label {
            file,
            judge,
            depth,
            turn_ms,
            scale,
            part,
            parts,
        } => {
            anyhow::ensure!(parts > 0 && part < parts, "--part must be below --parts");
            let positions = read_records(&file)?;
            let mut judge = judge_brain(judge, depth, turn_ms);
            let mut out = BufWriter::new(io::stdout().lock());
            let (mut labelled, mut failed) = (0, 0);
            for p in positions.iter().skip(part).step_by(parts) {
                match judge.judge(p) {
                    Ok(Some(verdict)) => {
                        let mut line = serde_json::to_value(tune::GameRecord {
                            value: Some(verdict.expected_score(scale)),
                            ..p.clone()
                        })?;
                        line["judge_eval"] = serde_json::json!(format!("{verdict:?}"));
                        writeln!(out, "{line}")?;
                        labelled += 1;
                    }
                    Ok(None) => {}
                    Err(e) => {
                        failed += 1;
                        eprintln!("position {:?}: {e}", p.moves);
                    }
                }
            }
            judge.end();
            eprintln!("{labelled} positions labelled, {failed} failed");
            Ok(())
        }
        TuneAction::Openings {
            judge,
            size,
            rule,
            count,
            candidates,
            stones,
            radius,
            margin,
            turn_ms,
            depth,
            seed,
            exclude,
        } => {
            use tune::openings;
            let rule: Rule = rule.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
            omok::Board::square(size, rule).map_err(|e| anyhow::anyhow!("--size {size}: {e}"))?;
            let mut excluded = Vec::new();
            for f in &exclude {
                let text = std::fs::read_to_string(f)
                    .with_context(|| format!("reading {}", f.display()))?;
                let parsed = omok::tournament::openings::parse_openings(&text, size, size, rule)
                    .with_context(|| format!("reading {}", f.display()))?;
                excluded.extend(parsed.into_iter().map(|o| o.moves));
            }
            let config = openings::DrawConfig {
                size,
                rule,
                stones: stones.clone(),
                radius,
                seed,
            };
            let drawn = openings::candidates(&config, candidates, &excluded);
            let mut judge = judge_brain(judge, depth, turn_ms);
            let report = openings::balance(
                &drawn,
                size,
                rule,
                count,
                margin,
                |r| judge.judge(r),
                |o, v| eprintln!("{o:?}: {v:?}"),
            );
            judge.end();
            let mut out = BufWriter::new(io::stdout().lock());
            writeln!(
                out,
                "# {} openings for {size}x{size} {rule}, kept within {margin} of even by the judge \
                 ({turn_ms} ms a position, depth limit {depth}): `pbrain-omok tune openings --size \
                 {size} --rule {rule} --stones {} --radius {radius} --seed {seed} --margin \
                 {margin}`; the comment is the judge's score from black's view.",
                report.kept.len(),
                stones
                    .iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(" --stones "),
                rule = rule.name(),
            )?;
            for o in &report.kept {
                writeln!(out, "{}", openings::format_opening(o))?;
            }
            out.flush()?;
            eprintln!(
                "{} drawn, {} judged: {} kept, {} beyond the margin, {} proved, {} without an \
                 evaluation, {} failed",
                drawn.len(),
                report.judged,
                report.kept.len(),
                report.unbalanced,
                report.decided,
                report.silent,
                report.failed
            );
            anyhow::ensure!(!report.kept.is_empty(), "no opening was kept");
            Ok(())
        }
        TuneAction::Fit {
            files,
            skip,
            iterations,
            prior,
            defending,
            write,
        } => {
            let trained = if defending {
                tune::Trained::Defending
            } else {
                tune::Trained::Quiet
            };
            let (data, holdout, games) =
                split_samples(&files, |g| tune::samples(g, skip, trained))?;
            anyhow::ensure!(!data.is_empty(), "no positions to train on in the records");
            let start = tune::Model::current(params.search.tempo_percent);
            let report = tune::fit(&start, &data, &holdout, iterations, prior);
            println!(
                "{} positions from {games} records ({} held out); K {:.1}; loss {:.6} -> {:.6}; \
                 held out {:.6} -> {:.6}",
                data.len(),
                holdout.len(),
                report.k,
                report.loss_before,
                report.loss_after,
                report.holdout_before.unwrap_or(f64::NAN),
                report.holdout_after.unwrap_or(f64::NAN),
            );
            for (role, name) in [(0, "to move"), (1, "waiting")] {
                println!(
                    "one line (block1 … flex4), {name}: {:?}; renju black {:?}",
                    report.model.single_line_values(role, false),
                    report.model.single_line_values(role, true)
                );
            }
            if let Some(path) = write {
                let note = format!(
                    "{} positions from {games} records, held-out loss {:.6} -> {:.6}",
                    data.len(),
                    report.holdout_before.unwrap_or(f64::NAN),
                    report.holdout_after.unwrap_or(f64::NAN),
                );
                let command = if defending {
                    "pbrain-omok tune fit --defending"
                } else {
                    "pbrain-omok tune fit"
                };
                std::fs::write(&path, tune::weights_source(&report, command, &note))
                    .with_context(|| format!("writing {}", path.display()))?;
                println!(
                    "wrote {}; search.tempo_percent in engine-config/default.toml stays 100",
                    path.display()
                );
            }
            Ok(())
        }
        TuneAction::Rank {
            files,
            teachers,
            skip,
            iterations,
            prior,
            write,
        } => {
            let (data, holdout, games) =
                split_samples(&files, |g| tune::rank::samples(g, &teachers, skip))?;
            anyhow::ensure!(!data.is_empty(), "no moves of {teachers:?} in the records");
            let start = tune::Model::current(params.search.tempo_percent);
            let report = tune::rank::fit(&start, &data, &holdout, iterations, prior);
            let fit = &report.fit;
            println!(
                "{} positions from {games} records ({} held out); temperature {:.1}; \
                 cross-entropy {:.4} -> {:.4}; held out {:.4} -> {:.4}; held out, the \
                 teachers' move first {:.1}% -> {:.1}%",
                data.len(),
                holdout.len(),
                fit.k,
                fit.loss_before,
                fit.loss_after,
                fit.holdout_before.unwrap_or(f64::NAN),
                fit.holdout_after.unwrap_or(f64::NAN),
                100.0 * report.top1_before,
                100.0 * report.top1_after,
            );
            if let Some(path) = write {
                let note = format!(
                    "to the moves of {teachers:?}: {} \
                     positions from {games} records, held-out cross-entropy {:.4} -> {:.4}, \
                     the teachers' move first {:.1}% -> {:.1}%; the loss below is the \
                     cross-entropy, K the temperature",
                    data.len(),
                    fit.holdout_before.unwrap_or(f64::NAN),
                    fit.holdout_after.unwrap_or(f64::NAN),
                    100.0 * report.top1_before,
                    100.0 * report.top1_after,
                );
                std::fs::write(
                    &path,
                    tune::weights_source(fit, "pbrain-omok tune rank", &note),
                )
                .with_context(|| format!("writing {}", path.display()))?;
                println!("wrote {}", path.display());
            }
            Ok(())
        }
        TuneAction::Policy {
            files,
            teachers,
            skip,
            iterations,
            l2,
            write,
        } => {
            let (data, holdout, games) =
                split_samples(&files, |g| tune::policy::samples(g, &teachers, skip))?;
            anyhow::ensure!(!data.is_empty(), "no moves of {teachers:?} in the records");
            let report = tune::policy::fit(&data, &holdout, iterations, l2);
            let acc = |a: tune::policy::Accuracy| {
                format!(
                    "first {:.1}%, top three {:.1}%, mean rank {:.2}",
                    100.0 * a.top1,
                    100.0 * a.top3,
                    a.mean_rank
                )
            };
            println!(
                "{} positions from {games} records ({} held out); cross-entropy {:.4} -> {:.4}; \
                 held out {:.4} -> {:.4}",
                data.len(),
                holdout.len(),
                report.loss.0,
                report.loss.1,
                report.holdout_loss.0,
                report.holdout_loss.1,
            );
            println!("held out, built-in ordering: {}", acc(report.builtin));
            println!("held out, compiled ordering: {}", acc(report.current));
            println!("held out, fitted ordering:   {}", acc(report.fitted));
            let mut rules: Vec<omok::rule::Rule> = holdout.iter().map(|s| s.rule).collect();
            rules.sort_by_key(|r| r.to_string());
            rules.dedup();
            let current = tune::policy::Model::current();
            for rule in rules
                .into_iter()
                .filter(|_| holdout.iter().any(|s| s.rule != holdout[0].rule))
            {
                let part: Vec<_> = holdout.iter().filter(|s| s.rule == rule).cloned().collect();
                println!(
                    "  {rule} ({} held out): built-in {}; compiled {}; fitted {}",
                    part.len(),
                    acc(tune::policy::accuracy(&part, |c| c.builtin as f64)),
                    acc(tune::policy::accuracy(&part, |c| current.score(c))),
                    acc(tune::policy::accuracy(&part, |c| report.model.score(c)))
                );
            }
            if let Some(path) = write {
                let note = format!(
                    "{} positions of {teachers:?} from {games} records; held out: the teachers' \
                     move first {:.1}% (built-in {:.1}%), top three {:.1}% ({:.1}%)",
                    data.len(),
                    100.0 * report.fitted.top1,
                    100.0 * report.builtin.top1,
                    100.0 * report.fitted.top3,
                    100.0 * report.builtin.top3,
                );
                std::fs::write(&path, tune::policy::weights_source(&report, &note))
                    .with_context(|| format!("writing {}", path.display()))?;
                println!("wrote {}", path.display());
            }
            Ok(())
        }
    }
}

/// The training samples of the records in `files` (`samples` of each record), every fifth
/// record's held out: the fit never sees them, and its loss on them tells whether it
/// generalises. Returns the training samples, the held-out ones and the number of records.
fn split_samples<T>(
    files: &[std::path::PathBuf],
    samples: impl Fn(&omok::tune::GameRecord) -> std::result::Result<Vec<T>, String>,
) -> Result<(Vec<T>, Vec<T>, usize)> {
    let (mut data, mut holdout) = (Vec::new(), Vec::new());
    let mut games = 0;
    for f in files {
        for (i, game) in read_records(f)?.iter().enumerate() {
            let s = samples(game)
                .map_err(|e| anyhow::anyhow!("{} record {}: {e}", f.display(), i + 1))?;
            if games % 5 == 4 {
                holdout.extend(s);
            } else {
                data.extend(s);
            }
            games += 1;
        }
    }
    Ok((data, holdout, games))
}

/// A judge brain (`tune label`, `tune openings`) started from its executable, with a depth
/// limit (0: none) and a turn limit.
fn judge_brain(command: std::path::PathBuf, depth: u32, turn_ms: u64) -> omok::tune::label::Judge {
    omok::tune::label::Judge::new(omok::tune::label::JudgeConfig {
        command: omok::tournament::engine_process::ProcessCommand {
            command,
            args: Vec::new(),
        },
        depth,
        turn_ms,
    })
}

/// The game records (or positions) of a JSON-lines file.
fn read_records(f: &std::path::Path) -> Result<Vec<omok::tune::GameRecord>> {
    let text = std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
    text.lines()
        .enumerate()
        .filter(|l| !l.1.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).with_context(|| format!("{} line {}", f.display(), i + 1))
        })
        .collect()
}

fn forbid_stream(rule: Rule, options: ForbidOptions) -> Result<()> {
    let mut input = io::BufReader::with_capacity(1 << 20, io::stdin().lock());
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut batch = omok::batch::ForbidBatch::new(rule, options);
    let (mut lines, mut answers) = (Vec::<String>::new(), String::new());
    loop {
        // One line (waiting for it), then every whole line already waiting, up to a chunk: a
        // frontend that keeps the process open gets each reply at once; a batch is judged a
        // chunk at a time on all cores and answered in large writes.
        lines.clear();
        loop {
            let mut line = String::new();
            if input.read_line(&mut line).context("reading stdin")? == 0 {
                break;
            }
            lines.push(line);
            if lines.len() >= FORBID_CHUNK || !input.buffer().contains(&b'\n') {
                break;
            }
        }
        if lines.is_empty() {
            break;
        }
        answers.clear();
        if lines.len() >= 2 * omok::batch::PARALLEL_MIN_LINES {
            let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
            omok::batch::judge_parallel(&refs, rule, options, &mut answers);
        } else {
            for line in lines.iter().filter(|l| !l.trim().is_empty()) {
                batch.judge(line.trim_end_matches(['\n', '\r']), &mut answers);
                answers.push('\n');
            }
        }
        out.write_all(answers.as_bytes())?;
        if !input.buffer().contains(&b'\n') {
            out.flush()?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Most lines of a `forbid` stream judged together.
const FORBID_CHUNK: usize = 4096;
