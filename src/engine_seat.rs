//! A referee seat played by the engine: `"players": {"host": "alice", "guest": {"engine":
//! {"strength": 50}}}` in a `pbrain-omok referee` setup gives alice a computer opponent whose
//! moves and opening decisions come back as ordinary events.
//!
//! The description (`{"engine": {…}}`, unknown keys rejected):
//!
//! | key | meaning | default |
//! |---|---|---|
//! | `strength` | practice level 0..=100 (the engine's levels, as `INFO strength`) | 100 |
//! | `nodes` | node limit of each search (moves and opening evaluations) | 20 000 |
//! | `depth` | depth limit of each search | 12 |
//! | `seed` | seed of the engine's random choices | the game's seed |
//! | `chargeTime` | `true`: each answer's `now` is the line's `now` plus the measured thinking time | `false` |
//!
//! The engine thinks with node and depth limits on a clock that does not move, so its choices
//! depend only on the game and the description, never on the machine's speed: replaying the same
//! lines gives the same game. By default it answers at the `now` of the line that made it the
//! player to act, so its thinking is not charged to its clock and the output is the same on every
//! run; with `chargeTime` its real thinking time is charged (the answers' `now` then vary from run
//! to run; the logged `seatActions` still replay exactly). The referee's clocks, deadlines and
//! Fischer increments apply to it as to anyone. It accepts undo requests and declines draw
//! offers.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use crate::engine::{Engine, Limits};
use crate::game::session::{Seat, SeatFactory};
use crate::game::{Action, Game, Setup};
use crate::opening_play::{best_move, decide};
use crate::params::Params;
use crate::time::{Budget, FakeClock};

/// The description of an engine seat.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSeatSpec {
    /// Practice level 0..=100.
    #[serde(default = "full_strength")]
    pub strength: u8,
    /// Node limit per search.
    #[serde(default = "default_nodes")]
    pub nodes: u64,
    /// Depth limit per search.
    #[serde(default = "default_depth")]
    pub depth: u32,
    /// Seed (default: the game's).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Charge the measured thinking time.
    #[serde(default, rename = "chargeTime")]
    pub charge_time: bool,
}

fn full_strength() -> u8 {
    100
}
fn default_nodes() -> u64 {
    20_000
}
fn default_depth() -> u32 {
    12
}

/// The engine in a seat.
pub struct EngineSeat {
    engine: Engine,
    limits: Limits,
    seed: u64,
    charge_time: bool,
}

impl EngineSeat {
    /// A seat from its description for a game of `setup`.
    pub fn new(spec: &EngineSeatSpec, setup: &Setup, params: Params) -> Result<EngineSeat, String> {
        if spec.strength > 100 {
            return Err(format!("strength must be 0..=100, not {}", spec.strength));
        }
        if spec.nodes == 0 || spec.depth == 0 {
            return Err("nodes and depth must be at least 1".into());
        }
        let mut engine = Engine::new(params, Arc::new(FakeClock::default()));
        let size = setup.options.board_size;
        engine.new_game(size, size).map_err(|e| e.to_string())?;
        engine
            .set_rule(setup.options.rule())
            .map_err(|e| e.to_string())?;
        engine.set_strength(spec.strength);
        let seed = spec.seed.unwrap_or(setup.seed);
        engine.set_seed(seed);
        engine.set_memory(16 << 20, 0);
        Ok(EngineSeat {
            engine,
            limits: Limits {
                budget: Budget {
                    optimum_ms: 1 << 40,
                    maximum_ms: 1 << 40,
                },
                max_nodes: Some(spec.nodes),
                max_depth: Some(spec.depth),
            },
            seed,
            charge_time: spec.charge_time,
        })
    }
}

impl Seat for EngineSeat {
    fn act(&mut self, game: &Game, player: &str, now: u64) -> Option<Action> {
        let me = game.color_of(player)?;
        if game.undo_pending().is_some_and(|r| r.by != me) {
            let player = player.to_string();
            return Some(Action::RespondUndo {
                player,
                accept: true,
                now,
            });
        }
        if game.draw_pending_by().is_some_and(|by| by != me) {
            let player = player.to_string();
            return Some(Action::RespondDraw {
                player,
                accept: false,
                now,
            });
        }
        if game.turn() != me {
            return None;
        }
        let started = std::time::Instant::now();
        let mut action = self.think(game, player, now)?;
        if self.charge_time {
            let spent = started.elapsed().as_millis() as u64;
            set_now(&mut action, now.saturating_add(spent));
        }
        Some(action)
    }
}

/// Sets an action's `now`.
fn set_now(action: &mut Action, t: u64) {
    match action {
        Action::Place { now, .. }
        | Action::Swap { now, .. }
        | Action::PutTwo { now, .. }
        | Action::Declare { now, .. }
        | Action::Offer { now, .. }
        | Action::Choose { now, .. }
        | Action::RequestUndo { now, .. }
        | Action::RespondUndo { now, .. }
        | Action::OfferDraw { now, .. }
        | Action::RespondDraw { now, .. }
        | Action::CancelOffer { now, .. }
        | Action::Resign { now, .. }
        | Action::Timeout { now, .. } => *now = t,
    }
}

impl EngineSeat {
    /// The engine's move or opening step for `player` (to move) at `now`.
    fn think(&mut self, game: &Game, player: &str, now: u64) -> Option<Action> {
        let seed = self.seed ^ game.moves().len() as u64;
        if game.in_opening() {
            let action = decide(
                &mut self.engine,
                &self.limits,
                game.opening(),
                game.board(),
                seed,
            )?;
            return Some(Action::from_opening(player, action, now));
        }
        let p = best_move(&mut self.engine, &self.limits, game.board())?;
        Some(Action::Place {
            player: player.to_string(),
            x: p.x() as i64,
            y: p.y() as i64,
            now,
        })
    }
}

/// The factory `pbrain-omok referee` gives its sessions: engine seats with `params`.
pub fn factory(params: Params) -> SeatFactory {
    Box::new(move |spec: &Value, setup: &Setup| {
        let spec: EngineSeatSpec =
            serde_json::from_value(spec.clone()).map_err(|e| e.to_string())?;
        let seat = EngineSeat::new(&spec, setup, params.clone())?;
        Ok(Box::new(seat) as Box<dyn Seat>)
    })
}
