//! One tournament game between two brains, driven the way Gomocup's manager drives them, and the
//! per-worker [`EnginePool`] that keeps each brain's process across games.
//!
//! **Pool.** A worker starts each brain once (`START size` → `OK`) and reuses it: before the next
//! game it sends `RESTART`; a brain that answers anything but `OK` (`UNKNOWN`), or does not
//! answer, is ended and started afresh. A brain that crashed, answered late or used too much
//! memory is killed at once and started afresh for its next game.
//!
//! **A game.** Both brains get the `INFO` block (`timeout_turn`, `timeout_match`, `time_left`,
//! `max_memory`, `game_type 1`, `rule` — or `omok_rule` for rules without a Gomocup code —,
//! `time_increment` when there is one, then the engine's own lines such as `strength`). Each
//! brain's first move request is `BOARD` with the position so far (the opening, plus the other
//! brain's first answer; `1` = own stone, `2` = the opponent's, in move order), later ones
//! `TURN x,y`; `INFO time_left` goes before every request. Gomocup never sends `BEGIN`: an empty
//! opening is an empty `BOARD`.
//!
//! **Judging** ([`super::judge`] for the board; the rest here): the answer must come within the
//! turn time (capped by the match time left, when there is a match time) plus the tolerance, else
//! the mover loses on **time** and its process is killed; an exit or closed output is a
//! **crash**; memory above `max_memory` (plus the engine's tolerance) at any sample while the
//! brain thinks loses by **memory** (unless `memory_check` is off); an answer
//! that is not `x,y` on an empty point of the board is **illegal** (nothing is placed); a
//! forbidden move is a **foul** (the stone stands). With a match time, each move's thinking time
//! is taken off the mover's time left and the increment added.
//!
//! **Opening rules** (`opening_rule`): Swap2 through `SWAP2BOARD`, the other rules decided by the
//! manager for omok engines; see [`opening`](mod@opening). The record's colours are the engines'
//! colours after the opening's swaps.
//!
//! **Pondering.** Unless the spec allows pondering, the brain not to move is suspended
//! ([`EngineClient::suspend`]) before the other is asked, and resumed when it is next sent
//! anything; its clock only runs from its own request, so it is never charged for it.

use std::sync::Arc;

use crate::core::{Color, Pos};
use crate::time::{Clock, UNLIMITED_MS};

use super::engine_process::{EngineClient, EngineFailure, Spawner};
use super::judge::{Judge, JudgeSettings, Outcome, Reason, Verdict, new_judge};
use super::openings::Opening;
use super::records::{GameRecord, MoveRecord};
use super::spec::{EngineSpec, TimeControl, TournamentSpec};

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// 0-based number in the schedule.
    pub index: usize,
    /// The engine pair (first = the side results are counted for).
    pub pair: (usize, usize),
    /// Black's engine.
    pub black: usize,
    /// White's engine.
    pub white: usize,
    /// The opening.
    pub opening: Opening,
}

/// What a game needs from the spec.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Rule, board size and stone limit.
    pub judge: JudgeSettings,
    /// The clock.
    pub time: TimeControl,
    /// Grace beyond the limit.
    pub tolerance_ms: u64,
    /// Memory limit in bytes (0: none).
    pub max_memory: u64,
    /// Whether memory is judged.
    pub memory_check: bool,
    /// Whether the brain not to move keeps running.
    pub pondering: bool,
    /// Limit for START / RESTART.
    pub start_timeout_ms: u64,
    /// The engines.
    pub engines: Vec<EngineSpec>,
}

impl GameSettings {
    /// The settings of a spec.
    pub fn of(spec: &TournamentSpec) -> GameSettings {
        GameSettings {
            judge: JudgeSettings {
                rule: spec.rule,
                size: spec.size,
                draw_after: spec.draw_after,
                opening_rule: spec.opening_rule,
            },
            time: spec.time,
            tolerance_ms: spec.tolerance_ms,
            max_memory: spec.max_memory,
            memory_check: spec.memory_check,
            pondering: spec.pondering,
            start_timeout_ms: spec.start_timeout_ms,
            engines: spec.engines.clone(),
        }
    }

    /// The `INFO` block sent to `engine` before a game.
    pub fn info_lines(&self, engine: usize) -> Vec<String> {
        let t = self.time;
        let turn = if t.turn_ms > 0 { t.turn_ms } else { t.match_ms };
        let rule = self.judge.rule;
        let mut lines = vec![
            format!("INFO timeout_turn {turn}"),
            format!("INFO timeout_match {}", t.match_ms),
            format!("INFO time_left {}", self.time_left_text(t.match_ms as i64)),
            format!("INFO max_memory {}", self.max_memory),
            "INFO game_type 1".to_string(),
            match rule.gomocup_code() {
                Some(code) => format!("INFO rule {code}"),
                None => format!("INFO omok_rule {}", rule.name()),
            },
        ];
        if t.increment_ms > 0 {
            lines.push(format!("INFO time_increment {}", t.increment_ms));
        }
        let e = &self.engines[engine];
        if let Some(s) = e.strength {
            lines.push(format!("INFO strength {s}"));
        }
        lines.extend(e.info.iter().map(|l| format!("INFO {l}")));
        lines
    }

    /// The memory judged for `engine` (`None`: not judged).
    pub fn memory_limit(&self, engine: usize) -> Option<u64> {
        (self.memory_check && self.max_memory > 0)
            .then(|| self.max_memory + self.engines[engine].memory_tolerance)
    }

    fn time_left_text(&self, left: i64) -> i64 {
        if self.time.match_ms > 0 {
            left
        } else {
            UNLIMITED_MS
        }
    }
}

/// The brains of one worker, kept across games.
pub struct EnginePool {
    spawner: Arc<dyn Spawner>,
    clock: Arc<dyn Clock>,
    slots: Vec<Option<EngineClient>>,
}

impl EnginePool {
    /// An empty pool for `engines` engines.
    pub fn new(spawner: Arc<dyn Spawner>, clock: Arc<dyn Clock>, engines: usize) -> EnginePool {
        EnginePool {
            spawner,
            clock,
            slots: (0..engines).map(|_| None).collect(),
        }
    }

    /// A started brain for `engine` on a `size` board: the kept one after `RESTART` → `OK`, or
    /// a new process after `START`.
    pub fn checkout(
        &mut self,
        engine: usize,
        size: usize,
        limit_ms: u64,
    ) -> Result<EngineClient, String> {
        if let Some(mut c) = self.slots[engine].take()
            && c.is_alive()
        {
            match c.restart(limit_ms) {
                Ok(true) => return Ok(c),
                Ok(false) => c.end(),
                Err(_) => {
                    c.kill();
                }
            }
        }
        start_brain(
            self.spawner.as_ref(),
            Arc::clone(&self.clock),
            engine,
            size,
            limit_ms,
        )
    }

    /// Gives a brain back for the next game (a dead one is dropped).
    pub fn checkin(&mut self, engine: usize, client: EngineClient) {
        if client.is_alive() {
            self.slots[engine] = Some(client);
        } else {
            client.end();
        }
    }

    /// Ends every brain.
    pub fn shutdown(self) {
        for c in self.slots.into_iter().flatten() {
            c.end();
        }
    }
}

/// A new process for `engine`, sent `START size` and answering `OK` within `limit_ms`.
fn start_brain(
    spawner: &dyn Spawner,
    clock: Arc<dyn Clock>,
    engine: usize,
    size: usize,
    limit_ms: u64,
) -> Result<EngineClient, String> {
    let transport = spawner
        .spawn(engine)
        .map_err(|e| format!("could not start: {e}"))?;
    let mut c = EngineClient::new(transport, clock);
    match c.start(size, limit_ms) {
        Ok(()) => Ok(c),
        Err(e) => {
            c.kill();
            Err(format!("START {size} failed: {e}"))
        }
    }
}

/// Whether `engine` can play: started, `START size` → `OK` within `limit_ms`, then ended.
pub fn check_engine(
    spawner: &dyn Spawner,
    clock: Arc<dyn Clock>,
    engine: usize,
    size: usize,
    limit_ms: u64,
) -> Result<(), String> {
    start_brain(spawner, clock, engine, size, limit_ms).map(EngineClient::end)
}

/// How the game loop ended.
struct End {
    outcome: Outcome,
    detail: String,
    bad_answer: Option<String>,
}

fn loss(loser: Color, reason: Reason, detail: String) -> End {
    End {
        outcome: Outcome {
            winner: Some(loser.opponent()),
            reason,
            win_line: Vec::new(),
            foul: None,
        },
        detail,
        bad_answer: None,
    }
}

fn color_index(c: Color) -> usize {
    c.index()
}

/// The limit of one answer: the turn time, capped by the match time `left` when there is one.
fn turn_limit(t: &TimeControl, left: i64) -> u64 {
    let cap = if t.match_ms > 0 {
        left.max(0) as u64
    } else {
        u64::MAX
    };
    if t.turn_ms > 0 {
        t.turn_ms.min(cap)
    } else {
        cap
    }
}

/// Reads `x,y` (any integers).
fn parse_answer(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// Plays one game; the judge must accept the opening (checked when the schedule is built).
pub fn play_game(job: &GameJob, settings: &GameSettings, pool: &mut EnginePool) -> GameRecord {
    let engines = [job.black, job.white];
    let names: Vec<String> = engines
        .iter()
        .map(|&e| settings.engines[e].name.clone())
        .collect();
    let mut record = GameRecord {
        index: job.index,
        pair: job.pair,
        black_engine: job.black,
        white_engine: job.white,
        black: names[0].clone(),
        white: names[1].clone(),
        rule: settings.judge.rule,
        size: settings.judge.size,
        opening_line: job.opening.line,
        symmetry: job.opening.symmetry,
        opening_stones: job.opening.moves.len(),
        moves: job
            .opening
            .moves
            .iter()
            .map(|&pos| MoveRecord { pos, ms: 0 })
            .collect(),
        winner: None,
        reason: Reason::Crash,
        win_line: Vec::new(),
        bad_answer: None,
        detail: String::new(),
    };
    let mut clients: [Option<EngineClient>; 2] = [None, None];
    let mut end = None;
    for color in Color::ALL {
        let engine = engines[color_index(color)];
        let started = pool
            .checkout(engine, settings.judge.size, settings.start_timeout_ms)
            .and_then(|mut c| {
                c.send(&settings.info_lines(engine))
                    .map_err(|e| e.to_string())?;
                Ok(c)
            });
        match started {
            Ok(c) => clients[color_index(color)] = Some(c),
            Err(detail) => {
                end = Some(loss(color, Reason::Crash, detail));
                break;
            }
        }
    }
    let end = match end {
        Some(end) => end,
        None => {
            let [Some(black), Some(white)] = &mut clients else {
                unreachable!("both brains started");
            };
            black.set_memory_limit(settings.memory_limit(job.black));
            white.set_memory_limit(settings.memory_limit(job.white));
            match new_judge(&settings.judge, &job.opening.moves) {
                Ok(mut judge) => {
                    let mut clocks = opening::Clocks {
                        left: [t_match(settings); 2],
                        game_ms: 0,
                    };
                    let seed = job.index as u64;
                    let opened = opening::play_opening(
                        judge.as_mut(),
                        [&mut *black, &mut *white],
                        [job.black, job.white],
                        settings,
                        seed,
                        &mut clocks,
                        &mut record.moves,
                    );
                    if judge.swapped() {
                        std::mem::swap(&mut record.black_engine, &mut record.white_engine);
                        std::mem::swap(&mut record.black, &mut record.white);
                        clocks.left.swap(0, 1);
                    }
                    record.opening_stones = job.opening.moves.len() + judge.opening_stones();
                    match opened {
                        Err(end) => end,
                        Ok(()) if judge.swapped() => run_moves(
                            judge.as_mut(),
                            [white, black],
                            settings,
                            clocks,
                            &mut record.moves,
                        ),
                        Ok(()) => run_moves(
                            judge.as_mut(),
                            [black, white],
                            settings,
                            clocks,
                            &mut record.moves,
                        ),
                    }
                }
                Err(e) => loss(Color::Black, Reason::Illegal, e.to_string()),
            }
        }
    };
    for (color, client) in Color::ALL.into_iter().zip(clients) {
        if let Some(c) = client {
            pool.checkin(engines[color_index(color)], c);
        }
    }
    record.winner = end.outcome.winner;
    record.reason = end.outcome.reason;
    record.win_line = end.outcome.win_line;
    record.bad_answer = end.bad_answer;
    record.detail = end.detail;
    record
}

/// The match time each engine starts a game with.
fn t_match(settings: &GameSettings) -> i64 {
    settings.time.match_ms as i64
}

/// The move loop: asks the side to move, judges, until the game ends. `clients` and the clocks'
/// `left` are by colour (black first).
fn run_moves(
    judge: &mut dyn Judge,
    mut clients: [&mut EngineClient; 2],
    settings: &GameSettings,
    clocks: opening::Clocks,
    moves: &mut Vec<MoveRecord>,
) -> End {
    let t = settings.time;
    let mut told = [false, false];
    let opening::Clocks {
        mut left,
        mut game_ms,
    } = clocks;
    loop {
        let color = judge.side_to_move();
        let ci = color_index(color);
        let limit = turn_limit(&t, left[ci]);
        let mut lines = vec![format!(
            "INFO time_left {}",
            settings.time_left_text(left[ci])
        )];
        let stones = judge.stones();
        if told[ci] {
            let last: Pos = *stones.last().expect("the opponent has moved");
            lines.push(format!("TURN {},{}", last.x(), last.y()));
        } else {
            told[ci] = true;
            lines.push("BOARD".into());
            for (k, p) in stones.iter().enumerate() {
                let own = (k % 2 == 0) == (color == Color::Black);
                lines.push(format!("{},{},{}", p.x(), p.y(), if own { 1 } else { 2 }));
            }
            lines.push("DONE".into());
        }
        let [black, white] = &mut clients;
        let (client, other) = match color {
            Color::Black => (&mut **black, &mut **white),
            Color::White => (&mut **white, &mut **black),
        };
        if !settings.pondering {
            other.suspend();
        }
        let deadline = limit.saturating_add(settings.tolerance_ms);
        let answer = match client.request(&lines, deadline, true) {
            Ok(a) => a,
            Err(EngineFailure::Timeout { elapsed_ms, .. }) => {
                client.kill();
                return loss(
                    color,
                    Reason::Time,
                    format!(
                        "no answer within {limit} ms + {} ms tolerance (waited {elapsed_ms} ms)",
                        settings.tolerance_ms
                    ),
                );
            }
            Err(EngineFailure::Gone(detail)) => return loss(color, Reason::Crash, detail),
            Err(e @ EngineFailure::Memory { .. }) => {
                return loss(color, Reason::Memory, e.to_string());
            }
        };
        game_ms += answer.elapsed_ms;
        let Some((x, y)) = parse_answer(&answer.line) else {
            let mut end = loss(
                color,
                Reason::Illegal,
                format!("answered '{}', not a move", answer.line),
            );
            end.bad_answer = Some(answer.line);
            return end;
        };
        match judge.play(x, y, game_ms) {
            Verdict::Illegal(why) => {
                let mut end = loss(color, Reason::Illegal, format!("answered {x},{y}: {why}"));
                end.bad_answer = Some(answer.line);
                return end;
            }
            verdict => {
                let pos = *judge.stones().last().expect("a stone was placed");
                moves.push(MoveRecord {
                    pos,
                    ms: answer.elapsed_ms,
                });
                if t.match_ms > 0 {
                    left[ci] = left[ci] - answer.elapsed_ms as i64 + t.increment_ms as i64;
                }
                if let Verdict::Over(outcome) = verdict {
                    let detail = match outcome.foul {
                        Some(kind) => format!("{color} played {x},{y}: {kind}"),
                        None => String::new(),
                    };
                    return End {
                        outcome,
                        detail,
                        bad_answer: None,
                    };
                }
            }
        }
    }
}

pub mod opening;

#[cfg(test)]
mod tests;
