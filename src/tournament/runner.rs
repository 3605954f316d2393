//! Running a tournament: the schedule, the worker threads, the live progress line, the SPRT stop,
//! the records and the summary.
//!
//! **Schedule.** For each pair, `games` games: with `repeat`, games `2k` and `2k + 1` play
//! opening `k` with the colours swapped (the pair's first engine is black first); without it,
//! game `k` plays opening `k` and the colours alternate. Openings are reused from the start when
//! there are fewer than needed. The schedule interleaves the pairs (all pairs' first games, then
//! all second games, …), so partial results cover every pair.
//!
//! **Workers.** `concurrency` threads take games in schedule order from a shared counter; each
//! worker has its own brains ([`EnginePool`]), so no process is shared between games in flight.
//! Finished games come back over a channel to the calling thread, which counts them, prints the
//! progress line, checks the SPRT and writes the records (in schedule order).
//!
//! **SPRT.** After each game (two-engine matches only) the LLR is checked; once it crosses a
//! bound no further game is started, the games in flight are finished and counted, and the run
//! ends (as c-gomoku-cli does). A worker takes its next game only after the calling thread has
//! counted its last one, so at most `concurrency` games are ever in flight and the stop point
//! does not depend on how fast games are.
//!
//! [`run_schedule`] takes the game-playing part as a [`GamePlayer`] factory, so scheduling and
//! stopping are tested without processes.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Instant;

use thiserror::Error;

use crate::time::{Clock, SystemClock};

use super::engine_process::{ProcessCommand, ProcessSpawner, Spawner};
use super::game_driver::{EnginePool, GameJob, GameSettings, check_engine, play_game};
use super::judge::{Reason, new_judge};
use super::output::{OutputWriter, existing_entries};
use super::records::{GameRecord, ThinkTimes, think_times};
use super::report::{ReportInput, to_html};
use super::spec::TournamentSpec;
use super::standings::Standings;
use super::stats::{SprtDecision, SprtParams, SprtStatus};

/// A tournament that could not run.
#[derive(Debug, Error)]
pub enum TournamentError {
    /// An opening the referee does not accept.
    #[error("opening from line {line}: {reason}")]
    Opening {
        /// The opening file's line.
        line: usize,
        /// Why.
        reason: String,
    },
    /// The output folder or a record could not be written.
    #[error("writing {path}: {source}")]
    Output {
        /// The folder.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The output folder holds files already (and replacing them was not asked for).
    #[error(
        "the output folder {} already holds {} (from an earlier run?); choose another folder, \
         or pass --force (or set overwrite = true) to replace its records",
        path.display(), entries.join(", ")
    )]
    OutputNotEmpty {
        /// The folder.
        path: std::path::PathBuf,
        /// What it holds.
        entries: Vec<String>,
    },
    /// An engine that cannot play: it does not start, or does not answer `START` with `OK`.
    #[error("engine {name} ({command}) cannot play: {reason}")]
    EngineCheck {
        /// The engine's name.
        name: String,
        /// Its command line.
        command: String,
        /// Why.
        reason: String,
    },
    /// A worker thread could not be started.
    #[error("starting a worker thread: {0}")]
    Thread(std::io::Error),
}

/// Plays the games of one worker.
pub trait GamePlayer: Send {
    /// Plays one game.
    fn play(&mut self, job: &GameJob) -> GameRecord;
    /// Ends the worker's brains.
    fn finish(self: Box<Self>);
}

/// The real player: brains as processes.
struct ProcessPlayer {
    pool: EnginePool,
    settings: Arc<GameSettings>,
}

impl GamePlayer for ProcessPlayer {
    fn play(&mut self, job: &GameJob) -> GameRecord {
        play_game(job, &self.settings, &mut self.pool)
    }

    fn finish(self: Box<Self>) {
        self.pool.shutdown();
    }
}

/// The schedule of a spec (see the module doc).
pub fn schedule(spec: &TournamentSpec) -> Vec<GameJob> {
    let pairs = spec.pairs();
    let mut jobs = Vec::new();
    for g in 0..spec.games as usize {
        let (opening, swapped) = if spec.repeat {
            (g / 2, g % 2 == 1)
        } else {
            (g, g % 2 == 1)
        };
        let opening = spec.openings[opening % spec.openings.len()].clone();
        for &(a, b) in &pairs {
            let (black, white) = if swapped { (b, a) } else { (a, b) };
            jobs.push(GameJob {
                index: jobs.len(),
                pair: (a, b),
                black,
                white,
                opening: opening.clone(),
            });
        }
    }
    jobs
}

/// What [`run_schedule`] reports after each game.
pub struct Progress<'a> {
    /// The game just counted.
    pub record: &'a GameRecord,
    /// Games counted so far.
    pub played: usize,
    /// Games scheduled.
    pub total: usize,
    /// The results so far.
    pub standings: &'a Standings,
    /// The SPRT so far.
    pub sprt: Option<SprtStatus>,
}

/// How a schedule ended.
pub struct ScheduleOutcome {
    /// The finished games, in schedule order.
    pub records: Vec<GameRecord>,
    /// The results.
    pub standings: Standings,
    /// The SPRT's last status.
    pub sprt: Option<SprtStatus>,
    /// Whether the SPRT stopped the run before the schedule was done.
    pub stopped: bool,
}

/// Plays `jobs` on `concurrency` workers made by `make_player`, calling `on_game` after each
/// game (on this thread); stops early when the SPRT decides.
pub fn run_schedule(
    jobs: &[GameJob],
    pairs: &[(usize, usize)],
    concurrency: usize,
    sprt: Option<SprtParams>,
    make_player: &(dyn Fn() -> Box<dyn GamePlayer> + Sync),
    on_game: &mut dyn FnMut(&Progress<'_>),
) -> Result<ScheduleOutcome, TournamentError> {
    let next = AtomicUsize::new(0);
    let mut standings = Standings::new(pairs);
    let mut records = Vec::new();
    let mut status = None;
    let mut stop = false;
    thread::scope(|scope| -> Result<(), TournamentError> {
        let (tx, rx) = mpsc::channel::<(usize, GameRecord)>();
        let mut acks = Vec::new();
        for w in 0..concurrency.max(1).min(jobs.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            let (ack_tx, ack_rx) = mpsc::channel::<bool>();
            acks.push(ack_tx);
            thread::Builder::new()
                .name(format!("tournament-worker-{w}"))
                .spawn_scoped(scope, move || {
                    let mut player = make_player();
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        let Some(job) = jobs.get(i) else { break };
                        // Wait until the game is counted: the SPRT may stop the run.
                        if tx.send((w, player.play(job))).is_err()
                            || !ack_rx.recv().unwrap_or(false)
                        {
                            break;
                        }
                    }
                    player.finish();
                })
                .map_err(TournamentError::Thread)?;
        }
        drop(tx);
        for (worker, record) in rx {
            standings.add(&record);
            // Once decided, the status stays the one that decided (games still in flight are
            // counted in the results but do not reopen the test).
            if let Some(p) = sprt.as_ref().filter(|_| !stop) {
                let s = p.status(&standings.pairs[0].wld);
                stop = s.decision != SprtDecision::Continue;
                status = Some(s);
            }
            records.push(record);
            on_game(&Progress {
                record: records.last().expect("just pushed"),
                played: records.len(),
                total: jobs.len(),
                standings: &standings,
                sprt: status,
            });
            let _ = acks[worker].send(!stop);
        }
        Ok(())
    })?;
    records.sort_by_key(|r| r.index);
    let stopped = records.len() < jobs.len();
    Ok(ScheduleOutcome {
        records,
        standings,
        sprt: status,
        stopped,
    })
}

/// A finished tournament.
pub struct Summary {
    /// Engine names by index.
    pub names: Vec<String>,
    /// The games, in schedule order.
    pub records: Vec<GameRecord>,
    /// Results per pair.
    pub standings: Standings,
    /// The SPRT's last status.
    pub sprt: Option<SprtStatus>,
    /// Games scheduled.
    pub scheduled: usize,
    /// Whether the SPRT ended the run early.
    pub stopped: bool,
    /// Wall time in ms.
    pub elapsed_ms: u64,
    /// The report, when an output folder was given.
    pub report: Option<std::path::PathBuf>,
    /// Notes on the run (the first memory loss of each engine).
    pub notes: Vec<String>,
    /// The turn limit in ms (0: none), for the thinking times' shares of it.
    pub turn_ms: u64,
}

impl Summary {
    /// Games per minute of wall time.
    pub fn games_per_minute(&self) -> f64 {
        self.records.len() as f64 * 60_000.0 / self.elapsed_ms.max(1) as f64
    }

    /// The final text: the table, the SPRT line, the pace and each engine's thinking time.
    pub fn text(&self) -> String {
        let mut s = self.standings.table(&self.names);
        if let Some(line) = sprt_line(self.sprt, self.stopped) {
            s.push_str(&line);
            s.push('\n');
        }
        s.push_str(&format!(
            "{} of {} games in {:.1} s ({:.1} games/minute)\n",
            self.records.len(),
            self.scheduled,
            self.elapsed_ms as f64 / 1000.0,
            self.games_per_minute()
        ));
        for (engine, name) in self.names.iter().enumerate() {
            s.push_str(&think_line(
                name,
                think_times(&self.records, engine, self.turn_ms),
                self.turn_ms,
            ));
        }
        for note in &self.notes {
            s.push_str(note);
            s.push('\n');
        }
        if let Some(r) = &self.report {
            s.push_str(&format!("report: {}\n", r.display()));
        }
        s
    }
}

/// One engine's thinking times as a line of the summary (with their shares of the turn where
/// there is a turn limit); nothing for an engine that chose no stone.
fn think_line(name: &str, t: ThinkTimes, turn_ms: u64) -> String {
    if t.moves == 0 {
        return String::new();
    }
    let share = |ms: u64| {
        if turn_ms == 0 {
            String::new()
        } else {
            format!(" ({:.0}% of the turn)", ms as f64 * 100.0 / turn_ms as f64)
        }
    };
    let over = if turn_ms == 0 {
        String::new()
    } else {
        format!(", {} over the turn", t.over_turn)
    };
    format!(
        "think time {name}: mean {} ms{}, median {} ms, max {} ms{} over {} moves{over}\n",
        t.mean_ms,
        share(t.mean_ms),
        t.median_ms,
        t.max_ms,
        share(t.max_ms),
        t.moves,
    )
}

fn sprt_line(status: Option<SprtStatus>, stopped: bool) -> Option<String> {
    let s = status?;
    let verdict = match s.decision {
        SprtDecision::Continue => "undecided",
        SprtDecision::H0 => "H0 accepted",
        SprtDecision::H1 => "H1 accepted",
    };
    Some(format!(
        "SPRT: LLR {:.2} [{:.2}, {:.2}] {verdict}{}",
        s.llr,
        s.lower,
        s.upper,
        if stopped { " (stopped early)" } else { "" }
    ))
}

/// The progress line (no line end).
fn progress_line(p: &Progress<'_>, names: &[String]) -> String {
    let mut s = format!("{:>4}/{} games", p.played, p.total);
    if let Some(first) = p.standings.pairs.first() {
        let (a, w) = if p.standings.pairs.len() == 1 {
            (first.pair.0, first.wld)
        } else {
            (0, p.standings.engine_wld(0))
        };
        s.push_str(&format!(
            "  {}: +{} -{} ={}",
            names[a], w.wins, w.losses, w.draws
        ));
        if let (Some(score), Some(elo)) = (w.score(), w.elo()) {
            s.push_str(&format!("  {:.1}%  Elo {elo}", score * 100.0));
        }
    }
    if let Some(st) = p.sprt {
        s.push_str(&format!(
            "  LLR {:.2} [{:.2}, {:.2}]",
            st.llr, st.lower, st.upper
        ));
    }
    s
}

fn report_settings(spec: &TournamentSpec) -> Vec<(String, String)> {
    let t = spec.time;
    let openings = match &spec.openings_file {
        Some(p) => format!("{} ({} positions)", p.display(), spec.openings.len()),
        None => "empty board".into(),
    };
    vec![
        ("rule".into(), spec.rule.name().into()),
        ("board".into(), format!("{0}×{0}", spec.size)),
        (
            "time".into(),
            format!(
                "{} ms/move, {} ms/game, +{} ms/move, tolerance {} ms",
                t.turn_ms, t.match_ms, t.increment_ms, spec.tolerance_ms
            ),
        ),
        ("format".into(), spec.format.name().into()),
        ("games per pair".into(), spec.games.to_string()),
        ("openings".into(), openings),
        ("seed".into(), spec.seed.to_string()),
        (
            "engines".into(),
            spec.engines
                .iter()
                .map(|e| e.name.clone())
                .collect::<Vec<_>>()
                .join(", "),
        ),
    ]
}

/// Games between two plain progress lines when the progress stream is not a terminal.
const PLAIN_PROGRESS_EVERY: usize = 10;

/// Where the progress goes and how.
pub struct ProgressOut<'a> {
    /// The stream (the binary's stderr).
    pub out: &'a mut dyn Write,
    /// A terminal: one line redrawn in place with `\r`. Otherwise (a file, a pipe, a CI log) a
    /// plain line every [`PLAIN_PROGRESS_EVERY`] games and after the last one.
    pub terminal: bool,
}

/// The progress display: redrawn or plain lines, and notes (memory losses) between them.
struct ProgressPrinter<'a, 'b> {
    to: &'a mut ProgressOut<'b>,
    /// The last line drawn and whether it was printed (plain mode).
    last: Option<(String, bool)>,
}

impl ProgressPrinter<'_, '_> {
    fn game(&mut self, p: &Progress<'_>, names: &[String]) {
        let line = progress_line(p, names);
        let out = &mut *self.to.out;
        let shown = if self.to.terminal {
            let _ = write!(out, "\r{line}   ");
            true
        } else if p.played % PLAIN_PROGRESS_EVERY == 0 || p.played == p.total {
            let _ = writeln!(out, "{line}");
            true
        } else {
            false
        };
        let _ = out.flush();
        self.last = Some((line, shown));
    }

    /// A line of its own (the redrawn line goes on below it).
    fn note(&mut self, text: &str) {
        let out = &mut *self.to.out;
        if self.to.terminal && self.last.is_some() {
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "{text}");
        if self.to.terminal
            && let Some((line, _)) = &self.last
        {
            let _ = write!(out, "{line}   ");
        }
        let _ = out.flush();
    }

    /// Ends the display: the last line is always shown.
    fn finish(self) {
        let out = &mut *self.to.out;
        match self.last {
            Some(_) if self.to.terminal => {
                let _ = writeln!(out);
            }
            Some((line, false)) => {
                let _ = writeln!(out, "{line}");
            }
            _ => {}
        }
        let _ = out.flush();
    }
}

/// What to say, once per engine, when it first loses by memory.
pub fn memory_note(name: &str, detail: &str) -> String {
    format!(
        "note: {name} lost a game by memory ({detail}). The measure is the brain's anonymous \
         resident memory (heap, stacks; sampled while it thinks, the peak counts). If the engine \
         sizes its tables to the whole max_memory, raise max_memory_mb, give the engine \
         memory_tolerance_mb = N in its [[engine]], or set memory_check = false."
    )
}

/// Starts every engine once before the first game (`START size` → `OK`, then `END`), in
/// parallel; the first engine (in spec order) that cannot play is the error.
fn check_engines(
    spec: &TournamentSpec,
    spawner: &Arc<dyn Spawner>,
    clock: &Arc<dyn Clock>,
) -> Result<(), TournamentError> {
    let results: Vec<Result<(), String>> = thread::scope(|scope| {
        let handles: Vec<_> = (0..spec.engines.len())
            .map(|i| {
                let (spawner, clock) = (Arc::clone(spawner), Arc::clone(clock));
                scope.spawn(move || {
                    check_engine(spawner.as_ref(), clock, i, spec.size, spec.start_timeout_ms)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("the check panicked".into()))
            })
            .collect()
    });
    for (e, result) in spec.engines.iter().zip(results) {
        if let Err(reason) = result {
            let mut command = e.command.display().to_string();
            for a in &e.args {
                command.push(' ');
                command.push_str(a);
            }
            return Err(TournamentError::EngineCheck {
                name: e.name.clone(),
                command,
                reason,
            });
        }
    }
    Ok(())
}

/// Runs a tournament, showing progress on `progress`. Before the first game the output folder
/// is checked (see [`super::output`]) and every engine is started once.
pub fn run(
    spec: &TournamentSpec,
    progress: &mut ProgressOut<'_>,
) -> Result<Summary, TournamentError> {
    for o in &spec.openings {
        let settings = GameSettings::of(spec).judge;
        if let Err(e) = new_judge(&settings, &o.moves) {
            return Err(TournamentError::Opening {
                line: o.line,
                reason: e.to_string(),
            });
        }
    }
    let output_error = |path: &std::path::Path, source| TournamentError::Output {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = &spec.output {
        let entries = existing_entries(dir).map_err(|e| output_error(dir, e))?;
        if !entries.is_empty() && !spec.overwrite {
            return Err(TournamentError::OutputNotEmpty {
                path: dir.clone(),
                entries,
            });
        }
    }
    let started = Instant::now();
    let names = spec.names();
    let jobs = schedule(spec);
    let pairs = spec.pairs();
    let settings = Arc::new(GameSettings::of(spec));
    let spawner: Arc<dyn Spawner> = Arc::new(ProcessSpawner {
        commands: spec
            .engines
            .iter()
            .map(|e| ProcessCommand {
                command: e.command.clone(),
                args: e.args.clone(),
            })
            .collect(),
    });
    let clock: Arc<dyn Clock> = Arc::new(SystemClock::new());
    check_engines(spec, &spawner, &clock)?;
    let engines = spec.engines.len();
    let make_player = || -> Box<dyn GamePlayer> {
        Box::new(ProcessPlayer {
            pool: EnginePool::new(Arc::clone(&spawner), Arc::clone(&clock), engines),
            settings: Arc::clone(&settings),
        })
    };
    let mut writer = match &spec.output {
        Some(dir) => Some(OutputWriter::create(dir).map_err(|e| output_error(dir, e))?),
        None => None,
    };
    let mut write_error = None;
    let mut printer = ProgressPrinter {
        to: progress,
        last: None,
    };
    let mut notes = Vec::new();
    let mut memory_noted = vec![false; engines];
    let outcome = run_schedule(
        &jobs,
        &pairs,
        spec.concurrency,
        spec.sprt,
        &make_player,
        &mut |p| {
            printer.game(p, &names);
            let r = p.record;
            if r.reason == Reason::Memory
                && let Some(loser) = r.loser()
            {
                let engine = r.engine(loser);
                if !std::mem::replace(&mut memory_noted[engine], true) {
                    let note = memory_note(&names[engine], &r.detail);
                    printer.note(&note);
                    notes.push(note);
                }
            }
            if let Some(w) = writer.as_mut()
                && let Err(e) = w.add(r)
            {
                write_error.get_or_insert(output_error(w.dir(), e));
            }
        },
    )?;
    printer.finish();
    if let Some(e) = write_error {
        return Err(e);
    }
    let report = match writer {
        None => None,
        Some(w) => {
            let notes = sprt_line(outcome.sprt, outcome.stopped)
                .into_iter()
                .chain(notes.iter().cloned())
                .collect();
            let html = to_html(&ReportInput {
                title: &spec.name,
                settings: report_settings(spec),
                names: &names,
                standings: &outcome.standings,
                notes,
                records: &outcome.records,
            });
            let dir = w.dir().to_path_buf();
            Some(w.finish(&html).map_err(|e| output_error(&dir, e))?)
        }
    };
    Ok(Summary {
        names,
        records: outcome.records,
        standings: outcome.standings,
        sprt: outcome.sprt,
        scheduled: jobs.len(),
        stopped: outcome.stopped,
        elapsed_ms: started.elapsed().as_millis() as u64,
        report,
        notes,
        turn_ms: spec.time.turn_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Color;
    use crate::tournament::judge::Reason;
    use crate::tournament::openings::Opening;
    use crate::tournament::records::tests::sample;

    /// A player whose games are won by the pair's first engine with probability `edge`% (by a
    /// fixed pattern on the game index), never touching a process.
    struct Fake {
        edge: usize,
    }

    impl GamePlayer for Fake {
        fn play(&mut self, job: &GameJob) -> GameRecord {
            let mut r = sample();
            r.index = job.index;
            r.pair = job.pair;
            r.black_engine = job.black;
            r.white_engine = job.white;
            let first_wins = job.index * 37 % 100 < self.edge;
            let first_color = if job.black == job.pair.0 {
                Color::Black
            } else {
                Color::White
            };
            if job.index % 5 == 4 {
                r.winner = None;
                r.reason = Reason::BoardFull;
            } else {
                r.winner = Some(if first_wins {
                    first_color
                } else {
                    first_color.opponent()
                });
                r.reason = Reason::Five;
            }
            r
        }
        fn finish(self: Box<Self>) {}
    }

    #[test]
    fn the_summary_gives_each_engine_s_think_time_and_its_share_of_the_turn() {
        let t = ThinkTimes {
            moves: 40,
            mean_ms: 512,
            median_ms: 950,
            max_ms: 1030,
            over_turn: 2,
        };
        assert_eq!(
            think_line("omok", t, 1000),
            "think time omok: mean 512 ms (51% of the turn), median 950 ms, max 1030 ms \
             (103% of the turn) over 40 moves, 2 over the turn\n"
        );
        assert_eq!(
            think_line("omok", t, 0),
            "think time omok: mean 512 ms, median 950 ms, max 1030 ms over 40 moves\n"
        );
        assert_eq!(think_line("idle", ThinkTimes::default(), 1000), "");
    }

    fn jobs(n: usize) -> Vec<GameJob> {
        (0..n)
            .map(|i| GameJob {
                index: i,
                pair: (0, 1),
                black: i % 2,
                white: 1 - i % 2,
                opening: Opening::empty(),
            })
            .collect()
    }

    #[test]
    fn the_sprt_stops_a_lopsided_match() {
        let sprt = SprtParams {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let all = jobs(2000);
        let mut calls = 0;
        let out = run_schedule(
            &all,
            &[(0, 1)],
            2,
            Some(sprt),
            &|| Box::new(Fake { edge: 85 }),
            &mut |p| {
                calls += 1;
                assert_eq!(p.played, calls);
            },
        )
        .unwrap();
        assert!(out.stopped, "{}", out.records.len());
        assert_eq!(out.sprt.unwrap().decision, SprtDecision::H1);
        assert!(out.records.len() < 200, "{}", out.records.len());
        // The games played are a prefix of the schedule.
        assert!(out.records.iter().enumerate().all(|(i, r)| r.index == i));
        let weak = run_schedule(
            &all,
            &[(0, 1)],
            1,
            Some(sprt),
            &|| Box::new(Fake { edge: 20 }),
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(weak.sprt.unwrap().decision, SprtDecision::H0);
    }

    #[test]
    fn without_sprt_everything_is_played() {
        let out = run_schedule(
            &jobs(30),
            &[(0, 1)],
            3,
            None,
            &|| Box::new(Fake { edge: 50 }),
            &mut |_| {},
        )
        .unwrap();
        assert!(!out.stopped && out.sprt.is_none());
        assert_eq!(out.records.len(), 30);
        assert_eq!(out.standings.pairs[0].wld.games(), 30);
    }

    #[test]
    fn schedule_pairs_colours_and_openings() {
        let text = "games = 3\n[[engine]]\nstrength = 1\n[[engine]]\nstrength = 2\n[[engine]]\nstrength = 3\n";
        let file = toml::from_str(text).unwrap();
        let mut spec = TournamentSpec::build(
            file,
            std::path::Path::new("."),
            "t",
            &Default::default(),
            std::path::Path::new("omok"),
        )
        .unwrap();
        let o = |x| Opening {
            moves: vec![crate::core::Pos::new(x, 7).unwrap()],
            line: x,
            symmetry: crate::tournament::openings::Symmetry::Identity,
        };
        spec.openings = vec![o(1), o(2)];
        let jobs = schedule(&spec);
        assert_eq!(jobs.len(), 9);
        let view: Vec<_> = jobs
            .iter()
            .map(|j| (j.black, j.white, j.opening.line))
            .collect();
        assert_eq!(
            view,
            [
                (0, 1, 1),
                (0, 2, 1),
                (1, 2, 1),
                (1, 0, 1),
                (2, 0, 1),
                (2, 1, 1),
                (0, 1, 2),
                (0, 2, 2),
                (1, 2, 2)
            ]
        );
        spec.format = crate::tournament::spec::Format::Gauntlet;
        spec.repeat = false;
        let view: Vec<_> = schedule(&spec)
            .iter()
            .map(|j| (j.black, j.white, j.opening.line))
            .collect();
        assert_eq!(
            view,
            [
                (0, 1, 1),
                (0, 2, 1),
                (1, 0, 2),
                (2, 0, 2),
                (0, 1, 1),
                (0, 2, 1)
            ]
        );
        spec.format = crate::tournament::spec::Format::Ladder;
        assert_eq!(spec.pairs(), [(0, 1), (1, 2)]);
    }
}
