//! The opening rule of a tournament game (`opening_rule` in the spec), judged by the referee.
//!
//! - **Swap2** is played the Gomocup way, through `SWAP2BOARD`: the first player (the job's black
//!   engine) gets an empty `SWAP2BOARD` and answers three stones (`x,y x,y x,y`: black, white,
//!   black); the second player gets the three stones and answers `SWAP` (it takes black), one move
//!   (it stays white and that is the 4th stone) or two moves (the 4th and 5th stones); after two
//!   moves the first player gets the five stones and answers `SWAP` (it takes black) or one move
//!   (it takes white, and the move is the 6th stone). Each answer is timed and charged like a
//!   move; a late, crashed or unreadable answer, or one the referee refuses, loses.
//! - **Every other rule** is played through the engine-decides interface, for omok against omok
//!   (the spec checks that every engine is omok): the manager decides each step in process with
//!   [`crate::opening_play::decide`] at the engine's strength, node-limited by its `max_node`
//!   INFO line (default [`DEFAULT_NODES`]) and seeded by the game's index, so a schedule replays
//!   exactly. These decisions take no time from the engines' clocks.
//!
//! Afterwards the brains get `BOARD` with the whole position for their first move, as after an
//! opening file.

use std::sync::Arc;

use super::{End, GameSettings, loss, turn_limit};
use crate::core::{Color, Pos};
use crate::engine::{Engine, Limits};
use crate::params::Params;
use crate::rules::opening::{OpeningAction, OpeningRule, PendingKind, Side};
use crate::time::{Budget, FakeClock};
use crate::tournament::engine_process::{EngineClient, EngineFailure};
use crate::tournament::judge::{Judge, Reason, Verdict};
use crate::tournament::records::MoveRecord;

/// Node limit of the engine-decides searches when the engine has no `max_node` INFO line.
pub const DEFAULT_NODES: u64 = 20_000;

/// The match clock of the two players, by slot (0: the first player, 1: the second).
pub(super) struct Clocks {
    /// Match time left per slot (ms).
    pub left: [i64; 2],
    /// Game time so far (ms), for the referee's `now`.
    pub game_ms: u64,
}

/// The slot of a side.
fn slot(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

/// Plays the opening rule's steps; `Err` ends the game (the loser's colour is the one it held).
/// `clients` and `engines` are by slot.
pub(super) fn play_opening(
    judge: &mut dyn Judge,
    clients: [&mut EngineClient; 2],
    engines: [usize; 2],
    settings: &GameSettings,
    seed: u64,
    clocks: &mut Clocks,
    moves: &mut Vec<MoveRecord>,
) -> Result<(), End> {
    let mut clients = clients;
    let mut deciders: [Option<Engine>; 2] = [None, None];
    while let Some(pending) = judge.opening().pending() {
        let s = slot(pending.by);
        let color = judge.opening().color_of(pending.by);
        if settings.judge.opening_rule == OpeningRule::Swap2 {
            let [a, b] = &mut clients;
            let (client, other) = if s == 0 {
                (&mut **a, &mut **b)
            } else {
                (&mut **b, &mut **a)
            };
            swap2_step(
                judge,
                client,
                other,
                &pending.kind,
                color,
                s,
                settings,
                clocks,
                moves,
            )?;
            continue;
        }
        let spec = &settings.engines[engines[s]];
        let engine = deciders[s].get_or_insert_with(|| {
            let mut e = Engine::new(Params::default(), Arc::new(FakeClock::default()));
            e.set_strength(spec.strength.unwrap_or(100));
            e.set_seed(seed);
            e.set_memory(16 << 20, 0);
            e
        });
        let nodes = spec
            .info
            .iter()
            .find_map(|l| {
                let mut w = l.split_whitespace();
                (w.next()? == "max_node").then(|| w.next()?.parse().ok())?
            })
            .unwrap_or(DEFAULT_NODES);
        let limits = Limits {
            budget: Budget {
                optimum_ms: 1 << 40,
                maximum_ms: 1 << 40,
            },
            max_nodes: Some(nodes),
            max_depth: None,
        };
        let board = judge.board().clone();
        let opening = judge.opening().clone();
        let Some(action) = crate::opening_play::decide(engine, &limits, &opening, &board, seed)
        else {
            return Err(loss(color, Reason::Illegal, "no opening decision".into()));
        };
        act(judge, color, action, clocks.game_ms, 0, moves)?;
    }
    Ok(())
}

/// Applies one opening action of `color`; its new stones go to the record with `ms` on the first.
fn act(
    judge: &mut dyn Judge,
    color: Color,
    action: OpeningAction,
    now: u64,
    ms: u64,
    moves: &mut Vec<MoveRecord>,
) -> Result<(), End> {
    let before = judge.stones().len();
    let text = format!("{action:?}");
    match judge.opening_act(color, action, now) {
        Verdict::Illegal(why) => Err(loss(color, Reason::Illegal, format!("{text}: {why}"))),
        verdict => {
            for (k, &pos) in judge.stones()[before..].iter().enumerate() {
                let ms = if k == 0 { ms } else { 0 };
                moves.push(MoveRecord { pos, ms });
            }
            match verdict {
                Verdict::Over(outcome) => Err(End {
                    outcome,
                    detail: String::new(),
                    bad_answer: None,
                }),
                _ => Ok(()),
            }
        }
    }
}

/// What a `SWAP2BOARD` answer says.
enum Swap2Answer {
    Swap,
    Moves(Vec<(i64, i64)>),
}

fn parse_swap2(line: &str) -> Option<Swap2Answer> {
    let line = line.trim();
    if line.eq_ignore_ascii_case("swap") {
        return Some(Swap2Answer::Swap);
    }
    line.split_whitespace()
        .map(super::parse_answer)
        .collect::<Option<Vec<_>>>()
        .filter(|v| !v.is_empty())
        .map(Swap2Answer::Moves)
}

/// One `SWAP2BOARD` request to the player in `slot` (holding `color`) and its answer judged.
#[allow(clippy::too_many_arguments)]
fn swap2_step(
    judge: &mut dyn Judge,
    client: &mut EngineClient,
    other: &mut EngineClient,
    kind: &PendingKind,
    color: Color,
    slot: usize,
    settings: &GameSettings,
    clocks: &mut Clocks,
    moves: &mut Vec<MoveRecord>,
) -> Result<(), End> {
    let stones = judge.stones();
    let mut lines = vec![
        format!(
            "INFO time_left {}",
            settings.time_left_text(clocks.left[slot])
        ),
        "SWAP2BOARD".to_string(),
    ];
    lines.extend(stones.iter().map(|p| format!("{},{}", p.x(), p.y())));
    lines.push("DONE".into());
    if !settings.pondering {
        other.suspend();
    }
    let limit = turn_limit(&settings.time, clocks.left[slot]);
    let answer = match client.request(&lines, limit.saturating_add(settings.tolerance_ms), true) {
        Ok(a) => a,
        Err(EngineFailure::Timeout { elapsed_ms, .. }) => {
            client.kill();
            let detail = format!(
                "no SWAP2BOARD answer within {limit} ms + {} ms tolerance (waited {elapsed_ms} ms)",
                settings.tolerance_ms
            );
            return Err(loss(color, Reason::Time, detail));
        }
        Err(EngineFailure::Gone(detail)) => return Err(loss(color, Reason::Crash, detail)),
        Err(e @ EngineFailure::Memory { .. }) => {
            return Err(loss(color, Reason::Memory, e.to_string()));
        }
    };
    clocks.game_ms += answer.elapsed_ms;
    if settings.time.match_ms > 0 {
        clocks.left[slot] += settings.time.increment_ms as i64 - answer.elapsed_ms as i64;
    }
    let bad = |why: &str| {
        let mut end = loss(
            color,
            Reason::Illegal,
            format!(
                "SWAP2BOARD with {} stones: answered '{}': {why}",
                stones.len(),
                answer.line
            ),
        );
        end.bad_answer = Some(answer.line.clone());
        end
    };
    let board = judge.board().clone();
    let to_pos = |(x, y): (i64, i64)| board.pos(x, y).ok();
    let points: Option<Vec<Pos>> = match parse_swap2(&answer.line) {
        Some(Swap2Answer::Moves(v)) => v.into_iter().map(to_pos).collect(),
        Some(Swap2Answer::Swap) => Some(Vec::new()),
        None => return Err(bad("not SWAP or moves")),
    };
    let Some(points) = points else {
        return Err(bad("a point off the board"));
    };
    let swap = points.is_empty();
    let (now, ms) = (clocks.game_ms, answer.elapsed_ms);
    let mut step = |judge: &mut dyn Judge, a: OpeningAction, ms: u64| {
        act(judge, color, a, now, ms, moves).map_err(|mut e| {
            e.bad_answer = Some(answer.line.clone());
            e
        })
    };
    match (kind, stones.len(), points.as_slice()) {
        (PendingKind::Place { .. }, 0, &[a, b, c]) => {
            step(judge, OpeningAction::Place(a), ms)?;
            step(judge, OpeningAction::Place(b), 0)?;
            step(judge, OpeningAction::Place(c), 0)
        }
        (PendingKind::Swap2Choice { .. }, 3, _) if swap => {
            step(judge, OpeningAction::Swap(true), ms)
        }
        (PendingKind::Swap2Choice { .. }, 3, &[p]) => step(judge, OpeningAction::Place(p), ms),
        (PendingKind::Swap2Choice { .. }, 3, &[a, b]) => {
            step(judge, OpeningAction::PutTwo([a, b]), ms)
        }
        // SWAP: the first player takes black (it holds it); a move: it takes white and plays it.
        (PendingKind::Swap, 5, _) if swap => step(judge, OpeningAction::Swap(false), ms),
        (PendingKind::Swap, 5, &[p]) => {
            step(judge, OpeningAction::Swap(true), ms)?;
            let mover = color.opponent();
            match judge.play(p.x() as i64, p.y() as i64, now) {
                Verdict::Illegal(why) => {
                    let mut end = loss(mover, Reason::Illegal, format!("6th stone: {why}"));
                    end.bad_answer = Some(answer.line.clone());
                    Err(end)
                }
                verdict => {
                    moves.push(MoveRecord { pos: p, ms });
                    match verdict {
                        Verdict::Over(outcome) => Err(End {
                            outcome,
                            detail: String::new(),
                            bad_answer: None,
                        }),
                        _ => Ok(()),
                    }
                }
            }
        }
        _ => Err(bad("the wrong number of moves")),
    }
}
