//! `pbrain-omok`: the command-line entry point. Subcommands: `forbid` (forbidden points for
//! frontends and checks). See README.md.

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
}

fn main() -> Result<()> {
    let args = Args::parse();
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
        None => {
            let engine = omok::engine::Engine::new(
                omok::params::Params::default(),
                std::sync::Arc::new(omok::time::SystemClock::new()),
            );
            omok::protocol::run_stdio(engine).context("Piskvork brain I/O")
        }
    }
}

fn forbid_stream(rule: Rule, options: ForbidOptions) -> Result<()> {
    let stdin = io::stdin();
    let mut out = BufWriter::new(io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(out, "{}", omok::batch::forbid_line(&line, rule, options))?;
    }
    out.flush()?;
    Ok(())
}
