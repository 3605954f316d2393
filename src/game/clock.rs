//! Clocks, deadlines and timeouts (seed 004 §8.2, §8.5). Time is the caller's `now` in
//! milliseconds; nothing here reads a clock or sleeps.
//!
//! - [`deadline`]: perMove `turnStartedAt + perMoveSec·1000`; fischer `turnStartedAt +
//!   remainingMs[turn]`; none `turnStartedAt + idleLimitSec·1000`; finished: `None`.
//! - A place charges the mover's Fischer bank with `now - turnStartedAt` and adds the increment;
//!   a place that arrives at or after the deadline is not played: the timeout applies instead
//!   (the seed's "arrived after zero loses", judged by arrival time).
//! - A timeout (the `timeout` action, or a late place): fischer, none and perMove + `lose` lose on
//!   time; perMove + `autoMove` plays the rules core's seeded auto-move
//!   ([`crate::rules::auto_move()`]), except that the third consecutive timeout of a player loses.
//!   A move the player makes resets the streak.
//! - Disconnection: the caller tracks connections. While the player to move is disconnected the
//!   timeout is due at [`Game::grace_deadline`] = `min(deadline, disconnectedAt + graceSec·1000)`;
//!   the `timeout` action carries `disconnectedAt` (and `graceSec`, default 60) and is checked
//!   against that time. After a reconnection the caller simply sends plain timeouts again, which
//!   are checked against the normal deadline.
//! - An accepted undo keeps both banks as they are and restarts the turn at `now` (seed 004 §8.2).

use super::actions::Event;
use super::error::GameError;
use super::options::{TimeControl, TimeoutPolicy};
use super::result::ResultReason;
use super::state::Game;
use crate::core::{Color, Pos};
use crate::rules::auto_move;

/// The disconnection grace of seed 004 §8.5 when the action gives none, in seconds.
pub const DEFAULT_GRACE_SEC: u32 = 60;

/// Consecutive timeouts answered with an auto-move before the next one loses.
pub const AUTO_MOVE_STREAK_LIMIT: u32 = 2;

/// When the player to move runs out of time (seed 004 §8.5 `deadline(state)`); `None` once the
/// game is over.
pub fn deadline(game: &Game) -> Option<u64> {
    game.deadline()
}

impl Game {
    /// When the player to move runs out of time; `None` once the game is over.
    pub fn deadline(&self) -> Option<u64> {
        if self.result.is_some() {
            return None;
        }
        let start = self.clock.turn_started_at;
        let span = match self.options.time_control {
            TimeControl::PerMove { per_move_sec } => u64::from(per_move_sec) * 1000,
            TimeControl::Fischer { .. } => *self.clock.remaining_ms.get(self.turn),
            TimeControl::NoLimit {} => u64::from(self.options.idle_limit_sec) * 1000,
        };
        Some(start.saturating_add(span))
    }

    /// When to call `timeout` for the player to move who disconnected at `disconnected_at`:
    /// `min(deadline, disconnected_at + grace_sec·1000)`; `None` once the game is over.
    pub fn grace_deadline(&self, disconnected_at: u64, grace_sec: u32) -> Option<u64> {
        let grace = disconnected_at.saturating_add(u64::from(grace_sec) * 1000);
        self.deadline().map(|d| d.min(grace))
    }

    /// Charges the mover's Fischer bank for a move accepted at `now` (before the deadline) and
    /// adds the increment.
    pub(crate) fn charge_move(&mut self, now: u64) {
        if let TimeControl::Fischer { inc_sec, .. } = self.options.time_control {
            let elapsed = now.saturating_sub(self.clock.turn_started_at);
            let bank = self.clock.remaining_ms.get_mut(self.turn);
            *bank = bank.saturating_sub(elapsed) + u64::from(inc_sec) * 1000;
        }
    }

    /// The `timeout` action: `color` (if named) must be the player to move and `now` must have
    /// reached the deadline (or the disconnection grace).
    pub(crate) fn timeout(
        &mut self,
        color: Option<Color>,
        now: u64,
        disconnected_at: Option<u64>,
        grace_sec: Option<u32>,
        events: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        if let Some(c) = color
            && c != self.turn
        {
            return Err(GameError::NotYourTurn(c));
        }
        let due = match disconnected_at {
            Some(at) => self.grace_deadline(at, grace_sec.unwrap_or(DEFAULT_GRACE_SEC)),
            None => self.deadline(),
        }
        .unwrap_or(0);
        if now < due {
            return Err(GameError::NotTimedOut { deadline: due, now });
        }
        self.run_out_of_time(now, None, events);
        Ok(())
    }

    /// Applies the timeout policy to the player to move at `now`. `late` is a place that arrived
    /// too late, reported in the event.
    pub(crate) fn run_out_of_time(&mut self, now: u64, late: Option<Pos>, events: &mut Vec<Event>) {
        let c = self.turn;
        if self.in_opening() && self.opening_timeout(now, late, events) {
            return;
        }
        let auto = !self.in_opening()
            && matches!(self.options.time_control, TimeControl::PerMove { .. })
            && self.options.timeout_policy == TimeoutPolicy::AutoMove
            && *self.clock.auto_move_streak.get(c) < AUTO_MOVE_STREAK_LIMIT;
        if auto {
            match auto_move(&mut self.board, c, &mut self.rng) {
                Some(p) => {
                    let streak = self.clock.auto_move_streak.get_mut(c);
                    *streak += 1;
                    events.push(Event::TimeoutAutoMove {
                        color: c,
                        pt: p,
                        streak: *streak,
                        late_move: late,
                    });
                    self.put_stone(p, now, true, events);
                }
                // Unreachable in practice: a side without a legal point ends the game when
                // its turn begins.
                None => self.finish(None, ResultReason::NoLegalMove, None, None, events),
            }
            return;
        }
        if matches!(self.options.time_control, TimeControl::Fischer { .. }) {
            *self.clock.remaining_ms.get_mut(c) = 0;
        }
        events.push(Event::TimeLoss {
            color: c,
            late_move: late,
        });
        self.finish(
            Some(c.opponent()),
            ResultReason::TimeLoss,
            None,
            None,
            events,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Action, Setup};

    fn game(time_control: TimeControl) -> Game {
        let mut s = Setup::new(1, "a", "b");
        s.options.color_assignment = crate::game::options::ColorAssignment::HostBlack;
        s.options.time_control = time_control;
        s.options.idle_limit_sec = 120;
        s.now = 500;
        Game::new(&s).unwrap().0
    }

    fn place(g: &mut Game, player: &str, x: i64, now: u64) -> Vec<Event> {
        let a = Action::Place {
            player: player.into(),
            x,
            y: 0,
            now,
        };
        g.apply(&a).unwrap()
    }

    #[test]
    fn deadlines_per_time_control() {
        let mut per_move = game(TimeControl::PerMove { per_move_sec: 10 });
        assert_eq!(deadline(&per_move), Some(10_500));
        place(&mut per_move, "a", 0, 2_000);
        assert_eq!(per_move.deadline(), Some(12_000));
        let none = game(TimeControl::NoLimit {});
        assert_eq!(none.deadline(), Some(120_500));
        assert_eq!(none.grace_deadline(1_000, 60), Some(61_000));
        assert_eq!(none.grace_deadline(100_000, 60), Some(120_500));
        let mut fischer = game(TimeControl::Fischer {
            base_sec: 60,
            inc_sec: 0,
        });
        place(&mut fischer, "a", 0, 10_500);
        assert_eq!(fischer.remaining_ms(Color::Black), Some(50_000));
        assert_eq!(fischer.deadline(), Some(70_500), "white's full bank");
    }

    #[test]
    fn idle_limit_loses_on_time() {
        let mut g = game(TimeControl::NoLimit {});
        let early = Action::Timeout {
            now: 120_499,
            player: None,
            disconnected_at: None,
            grace_sec: None,
        };
        assert!(g.apply(&early).is_err());
        let ev = place(&mut g, "a", 3, 120_500);
        assert!(matches!(
            ev[0],
            Event::TimeLoss {
                color: Color::Black,
                late_move: Some(_)
            }
        ));
        assert_eq!(g.deadline(), None);
    }
}
