//! The opening phase in the referee: the `openingRule` option's steps ([`crate::rules::opening`])
//! played through actions, under the game's clocks.
//!
//! - The player drawn black by `colorAssignment` is the opening's first player. `players` always
//!   says who holds which colour now: a swap exchanges the two ids and everything the referee keeps
//!   per colour (Fischer banks, auto-move streaks, undo counts, draw-offer bookkeeping), so each
//!   player keeps their own clock and counters through swaps.
//! - `turn` is the colour of the player the opening waits for (who may be placing a stone of the
//!   other colour); deadlines and Fischer charges apply to that player as for a move. After the
//!   opening, `turn` is the colour to move by the rule.
//! - Every stone of the opening enters the record (`moves`) with its own colour and is announced by
//!   `stonePlaced`; it is checked against the game rule's forbidden points as well (always
//!   rejected in the opening, whatever `forbiddenPolicy` says). Offers are not stones until chosen.
//! - A timeout in the opening under perMove + `autoMove` plays the seeded opening action
//!   ([`auto_action`]) and counts towards the same streak as auto-moves; otherwise it loses on time.
//! - Opening stones are never taken back (`undoInOpening`).

use super::actions::Event;
use super::error::GameError;
use super::options::{TimeControl, TimeoutPolicy};
use super::result::ResultReason;
use super::state::{Game, MoveRecord, Phase};
use crate::core::{Color, Pos};
use crate::notation::format_renju_upper;
use crate::rules::opening::{
    Effect, Opening, OpeningAction, OpeningError, PendingKind, auto_action,
};
use crate::rules::winning_line;

impl Game {
    /// A point of an action on this board.
    pub(crate) fn point(&self, q: super::actions::Point) -> Result<Pos, GameError> {
        self.board.pos(q.x, q.y).map_err(|_| GameError::OffBoard {
            x: q.x,
            y: q.y,
            size: self.board.width(),
        })
    }

    /// An opening action by the player of colour `c` at `now`.
    pub(crate) fn opening_act(
        &mut self,
        c: Color,
        action: OpeningAction,
        now: u64,
        events: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        if !self.in_opening() {
            return Err(GameError::Opening(OpeningError::Finished));
        }
        if self.opening.actor() != self.opening.side_of(c) {
            return Err(GameError::NotYourTurn(c));
        }
        if self.deadline().is_some_and(|d| now >= d) {
            self.run_out_of_time(now, action.point(), events);
            return Ok(());
        }
        let (next, effects) = self.validate_opening(c, &action)?;
        self.charge_move(now);
        *self.clock.auto_move_streak.get_mut(c) = 0;
        self.commit_opening(c, next, effects, now, false, events);
        Ok(())
    }

    /// Checks an opening action of colour `c` (the rule, then the game rule's forbidden points);
    /// the opening after it and the effects.
    fn validate_opening(
        &self,
        c: Color,
        action: &OpeningAction,
    ) -> Result<(Opening, Vec<Effect>), GameError> {
        let offer_color = match self.opening.pending().map(|p| p.kind) {
            Some(PendingKind::Offer { color, .. } | PendingKind::SwapOrOffer { color, .. }) => {
                Some(color)
            }
            _ => None,
        };
        let mut next = self.opening.clone();
        let effects = next
            .apply(&self.board, self.opening.side_of(c), action.clone())
            .map_err(|e| match e {
                OpeningError::NotYourTurn { .. } => GameError::NotYourTurn(c),
                OpeningError::Occupied { x, y } => GameError::Occupied { x, y },
                OpeningError::OffBoard { x, y } => GameError::OffBoard {
                    x: x as i64,
                    y: y as i64,
                    size: self.board.width(),
                },
                e => GameError::Opening(e),
            })?;
        let mut board = self.board.clone();
        let forbidden = |p: Pos, color: Color, board: &mut crate::board::Board| {
            let mut checker = self.checker();
            match checker.check(board, p, color) {
                Some(kind) => Err(GameError::Forbidden {
                    color,
                    kind,
                    point: format_renju_upper(p, board.height()),
                }),
                None => Ok(()),
            }
        };
        for e in &effects {
            match *e {
                Effect::Stone(p, color) => {
                    forbidden(p, color, &mut board)?;
                    board.make_move(p, color);
                }
                Effect::Offered(ref points) => {
                    if let Some(color) = offer_color {
                        for &p in points {
                            forbidden(p, color, &mut board)?;
                        }
                    }
                }
                _ => {}
            }
        }
        Ok((next, effects))
    }

    /// Applies validated opening effects of the player of colour `c` at `now`.
    fn commit_opening(
        &mut self,
        c: Color,
        next: Opening,
        effects: Vec<Effect>,
        now: u64,
        auto: bool,
        events: &mut Vec<Event>,
    ) {
        if self.draw.pending_by == Some(c.opponent()) {
            self.draw.pending_by = None;
            events.push(Event::DrawDeclined {
                by: c.opponent(),
                auto: true,
            });
        }
        self.opening = next;
        let mut last_stone = None;
        for e in effects {
            match e {
                Effect::Stone(pt, color) => {
                    self.board.make_move(pt, color);
                    self.moves.push(MoveRecord {
                        color,
                        pt,
                        at: now,
                        auto,
                    });
                    self.opening_stones += 1;
                    events.push(Event::StonePlaced {
                        color,
                        pt,
                        auto,
                        move_number: self.moves.len(),
                    });
                    last_stone = Some((pt, color));
                }
                Effect::Swapped(swap) => {
                    if swap {
                        self.swap_colors();
                    }
                    events.push(Event::SwapDecided {
                        by: c,
                        swap,
                        black: self.players.black.clone(),
                        white: self.players.white.clone(),
                    });
                }
                Effect::Declared(count) => events.push(Event::FifthMovesDeclared { by: c, count }),
                Effect::Offered(points) => events.push(Event::FifthMovesOffered { by: c, points }),
                Effect::Chosen(pt) => events.push(Event::OfferChosen { by: c, pt }),
                Effect::Finished(turn) => {
                    self.phase = Phase::Playing;
                    events.push(Event::OpeningFinished { turn });
                }
            }
        }
        self.turn = self.opening.color_of(self.opening.actor());
        self.clock.turn_started_at = now;
        if let Some((p, color)) = last_stone
            && let Some(line) = winning_line(&self.board, p)
        {
            // No opening rule leaves room for a five; kept for rule families that might.
            self.finish(Some(color), ResultReason::Five, Some(line), None, events);
        }
    }

    /// Exchanges the players' colours and everything kept per colour.
    fn swap_colors(&mut self) {
        self.players.exchange();
        self.clock.remaining_ms.exchange();
        self.clock.auto_move_streak.exchange();
        self.undo.used.exchange();
        self.draw.moves_since_offer.exchange();
        self.draw.pending_by = self.draw.pending_by.map(Color::opponent);
        if let Some(r) = self.undo.pending.as_mut() {
            r.by = r.by.opponent();
        }
    }

    /// A timeout in the opening (see the module doc): the seeded opening action, or a loss on
    /// time. Returns `false` when it did nothing (the caller then applies the loss).
    pub(crate) fn opening_timeout(
        &mut self,
        now: u64,
        late: Option<Pos>,
        events: &mut Vec<Event>,
    ) -> bool {
        let c = self.turn;
        let auto = matches!(self.options.time_control, TimeControl::PerMove { .. })
            && self.options.timeout_policy == TimeoutPolicy::AutoMove
            && *self.clock.auto_move_streak.get(c) < super::clock::AUTO_MOVE_STREAK_LIMIT;
        if !auto {
            return false;
        }
        let Some(action) = auto_action(&self.opening, &self.board, &mut self.rng) else {
            return false;
        };
        let Ok((next, effects)) = self.validate_opening(c, &action) else {
            return false;
        };
        let streak = self.clock.auto_move_streak.get_mut(c);
        *streak += 1;
        events.push(Event::TimeoutAutoAction {
            color: c,
            action: action.name(),
            streak: *streak,
            late_move: late,
        });
        self.commit_opening(c, next, effects, now, true, events);
        true
    }
}
