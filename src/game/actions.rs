//! The actions of seed 004 §8.2 with exactly its validation, and the events they produce.
//!
//! [`Game::apply`] is the only way a game changes. It checks, in order: the game is still being
//! played (`gameOver`), `now` is not earlier than the last accepted action (`timeWentBackwards`),
//! the player id is one of the two (`unknownPlayer`), then the action's own conditions:
//!
//! | action | who / when | conditions |
//! |---|---|---|
//! | `place {x, y}` | the player to move | time not run out (else the timeout applies instead and the stone is not played), on the board, empty, the centre for black's first move when `firstMoveCenter` is on, not forbidden (a move that makes a winning line never is); under forbiddenPolicy `loss` a forbidden stone stands and loses |
//! | `requestUndo` | either player | `undo` not off, undos left, no undo pending, an own stone on the board; takes back 1 move if the last move is the requester's, else 2 |
//! | `respondUndo {accept}` | the other player | an undo pending; accepting takes the moves back, the requester moves, uses one of their undos, the clock banks stay and the turn restarts at `now` |
//! | `offerDraw` | either player | `drawOffer` on, no offer pending, at least 3 own moves since the player's previous offer |
//! | `respondDraw {accept}` | the other player | an offer pending; accepting ends in a draw (`drawAgreed`) |
//! | `cancelOffer` | the requester | cancels the player's own pending undo request and/or draw offer |
//! | `resign` | either player, any time | the opponent wins |
//! | `timeout` | the system | see [`super::clock`]; in the opening, perMove + `autoMove` plays the seeded opening action ([`crate::rules::opening::auto_action`]) |
//! | `place {x, y}` in the opening | the player the opening waits for | a stone of the pending colour within the pending region (see [`super::opening`]) |
//! | `swap {swap}` | the player the opening waits for | a swap decision (`true` exchanges the players' colours) |
//! | `putTwo {points}` | the second player, at Swap2's choice | two stones, the second colour's then the first colour's |
//! | `declare {count}` | Soosõrv's white | 1..=N fifth moves |
//! | `offer {points}` | the player the opening waits for | exactly the pending number of pairwise non-symmetric empty points |
//! | `choose {x, y}` | the player the opening waits for | one of the offers; it is placed |
//!
//! During the opening `requestUndo` is refused (`undoInOpening`), and so is an undo after it that
//! would take back an opening stone.
//!
//! A place by the player a request was made *to* declines it (`undoDeclined`/`drawDeclined` with
//! `auto: true`, seed 004 §8.2). A place by the undo requester also drops the request
//! (`undoCancelled`): it named moves that are no longer the last ones. A draw offer survives its
//! own player's moves. An action that fails returns the error and changes nothing.

use serde::{Deserialize, Serialize, Serializer};

use super::error::GameError;
use super::options::ForbiddenPolicy;
use super::result::ResultReason;
use super::state::{Game, UndoRequest, ser_color};
use crate::core::{Color, Pos};
use crate::notation::format_renju_upper;
use crate::rules::ForbiddenKind;
use crate::rules::opening::OpeningAction as OpeningInput;

/// One action, as JSON `{"type": "place", "player": "alice", "x": 7, "y": 7, "now": 1000}`.
/// `now` is the server's arrival time in milliseconds. Unknown fields are errors.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Action {
    /// Put a stone on `(x, y)` (0-based, y from the top).
    Place {
        /// The player's id.
        player: String,
        /// Column.
        x: i64,
        /// Row.
        y: i64,
        /// Arrival time (ms).
        now: u64,
    },
    /// Ask to take back the last own move (and the reply to it).
    RequestUndo {
        /// The player's id.
        player: String,
        /// Arrival time (ms).
        now: u64,
    },
    /// Answer the opponent's undo request.
    RespondUndo {
        /// The player's id.
        player: String,
        /// Accept or decline.
        accept: bool,
        /// Arrival time (ms).
        now: u64,
    },
    /// Offer a draw.
    OfferDraw {
        /// The player's id.
        player: String,
        /// Arrival time (ms).
        now: u64,
    },
    /// Answer the opponent's draw offer.
    RespondDraw {
        /// The player's id.
        player: String,
        /// Accept or decline.
        accept: bool,
        /// Arrival time (ms).
        now: u64,
    },
    /// Withdraw the player's own pending undo request and draw offer.
    CancelOffer {
        /// The player's id.
        player: String,
        /// Arrival time (ms).
        now: u64,
    },
    /// Give up.
    Resign {
        /// The player's id.
        player: String,
        /// Arrival time (ms).
        now: u64,
    },
    /// Opening: swap colours (`swap: true`) or keep them (`false`).
    Swap {
        /// The player's id.
        player: String,
        /// Swap or keep.
        swap: bool,
        /// Arrival time (ms).
        now: u64,
    },
    /// Opening (Swap2's third answer): the 4th and 5th stones, second colour first.
    PutTwo {
        /// The player's id.
        player: String,
        /// The two points.
        points: [Point; 2],
        /// Arrival time (ms).
        now: u64,
    },
    /// Opening (Soosõrv): declare how many 5th moves will be offered.
    Declare {
        /// The player's id.
        player: String,
        /// How many.
        count: u8,
        /// Arrival time (ms).
        now: u64,
    },
    /// Opening: offer these 5th moves.
    Offer {
        /// The player's id.
        player: String,
        /// The offered points.
        points: Vec<Point>,
        /// Arrival time (ms).
        now: u64,
    },
    /// Opening: choose one of the offered 5th moves (it is placed).
    Choose {
        /// The player's id.
        player: String,
        /// Column.
        x: i64,
        /// Row.
        y: i64,
        /// Arrival time (ms).
        now: u64,
    },
    /// The time of the player to move ran out (or their disconnection grace did).
    Timeout {
        /// Arrival time (ms).
        now: u64,
        /// If given, must be the player to move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// When the player to move disconnected (ms): the timeout is then due at
        /// `min(deadline, disconnectedAt + graceSec·1000)`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        disconnected_at: Option<u64>,
        /// The room's disconnection grace in seconds (default 60).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        grace_sec: Option<u32>,
    },
}

/// A point in an action, `{"x": 7, "y": 7}` (0-based, y from the top; checked against the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// Column.
    pub x: i64,
    /// Row.
    pub y: i64,
}

impl From<Pos> for Point {
    fn from(p: Pos) -> Point {
        Point {
            x: p.x() as i64,
            y: p.y() as i64,
        }
    }
}

impl Action {
    /// The referee action of an opening action of the rules module by `player` at `now`.
    pub fn from_opening(
        player: &str,
        action: crate::rules::opening::OpeningAction,
        now: u64,
    ) -> Action {
        use crate::rules::opening::OpeningAction as O;
        let player = player.to_string();
        match action {
            O::Place(p) => Action::Place {
                player,
                x: p.x() as i64,
                y: p.y() as i64,
                now,
            },
            O::Swap(swap) => Action::Swap { player, swap, now },
            O::PutTwo([a, b]) => Action::PutTwo {
                player,
                points: [a.into(), b.into()],
                now,
            },
            O::Declare(count) => Action::Declare { player, count, now },
            O::Offer(points) => Action::Offer {
                player,
                points: points.into_iter().map(Point::from).collect(),
                now,
            },
            O::Choose(p) => Action::Choose {
                player,
                x: p.x() as i64,
                y: p.y() as i64,
                now,
            },
        }
    }

    /// The action's arrival time (ms).
    pub fn now(&self) -> u64 {
        match self {
            Action::Place { now, .. }
            | Action::RequestUndo { now, .. }
            | Action::RespondUndo { now, .. }
            | Action::OfferDraw { now, .. }
            | Action::RespondDraw { now, .. }
            | Action::CancelOffer { now, .. }
            | Action::Resign { now, .. }
            | Action::Swap { now, .. }
            | Action::PutTwo { now, .. }
            | Action::Declare { now, .. }
            | Action::Offer { now, .. }
            | Action::Choose { now, .. }
            | Action::Timeout { now, .. } => *now,
        }
    }

    /// The acting player's id (`None` for a timeout that names nobody).
    pub fn player(&self) -> Option<&str> {
        match self {
            Action::Place { player, .. }
            | Action::RequestUndo { player, .. }
            | Action::RespondUndo { player, .. }
            | Action::OfferDraw { player, .. }
            | Action::RespondDraw { player, .. }
            | Action::CancelOffer { player, .. }
            | Action::Resign { player, .. }
            | Action::Swap { player, .. }
            | Action::PutTwo { player, .. }
            | Action::Declare { player, .. }
            | Action::Offer { player, .. }
            | Action::Choose { player, .. } => Some(player),
            Action::Timeout { player, .. } => player.as_deref(),
        }
    }
}

fn ser_kind<S: Serializer>(k: &ForbiddenKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(k.name())
}

/// What happened, as JSON `{"type": "stonePlaced", …}`; an action yields one or more.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Event {
    /// The game began with these players.
    GameStarted {
        /// Black's id.
        black: String,
        /// White's id.
        white: String,
        /// The rule set in force (a rules-core name).
        rule: &'static str,
    },
    /// A stone was put down.
    StonePlaced {
        /// Its colour.
        #[serde(serialize_with = "ser_color")]
        color: Color,
        /// Where.
        pt: Pos,
        /// Played by the referee after a timeout.
        auto: bool,
        /// Its number in the record, from 1.
        move_number: usize,
    },
    /// The game ended with a winner.
    Win {
        /// The winner.
        #[serde(serialize_with = "ser_color")]
        color: Color,
        /// Why.
        reason: ResultReason,
        /// The winning line (reason `five`).
        line: Option<Vec<Pos>>,
    },
    /// The game ended in a draw.
    Draw {
        /// Why.
        reason: ResultReason,
    },
    /// A forbidden move stood and lost (forbiddenPolicy `loss`).
    Foul {
        /// Who played it.
        #[serde(serialize_with = "ser_color")]
        color: Color,
        /// Where.
        pt: Pos,
        /// `double-three`, `double-four` or `overline`.
        #[serde(serialize_with = "ser_kind")]
        kind: ForbiddenKind,
    },
    /// An undo was requested.
    UndoRequested {
        /// The requester.
        #[serde(serialize_with = "ser_color")]
        by: Color,
        /// Moves it would take back.
        plies: u8,
    },
    /// The undo was accepted and the moves taken back.
    UndoAccepted {
        /// The requester.
        #[serde(serialize_with = "ser_color")]
        by: Color,
        /// Moves taken back.
        plies: u8,
        /// The points emptied, last move first.
        removed: Vec<Pos>,
    },
    /// The undo was declined (`auto`: by the opponent's place).
    UndoDeclined {
        /// The requester.
        #[serde(serialize_with = "ser_color")]
        by: Color,
        /// Declined by a place rather than by respondUndo.
        auto: bool,
    },
    /// The undo request was withdrawn (cancelOffer, or the requester placed a stone).
    UndoCancelled {
        /// The requester.
        #[serde(serialize_with = "ser_color")]
        by: Color,
    },
    /// A draw was offered.
    DrawOffered {
        /// Who offered.
        #[serde(serialize_with = "ser_color")]
        by: Color,
    },
    /// The draw offer was accepted.
    DrawAccepted {
        /// Who offered.
        #[serde(serialize_with = "ser_color")]
        by: Color,
    },
    /// The draw offer was declined (`auto`: by the opponent's place).
    DrawDeclined {
        /// Who offered.
        #[serde(serialize_with = "ser_color")]
        by: Color,
        /// Declined by a place rather than by respondDraw.
        auto: bool,
    },
    /// The draw offer was withdrawn.
    DrawCancelled {
        /// Who offered.
        #[serde(serialize_with = "ser_color")]
        by: Color,
    },
    /// A player resigned.
    Resigned {
        /// Who.
        #[serde(serialize_with = "ser_color")]
        color: Color,
    },
    /// A timeout was answered with the seeded auto-move (a `stonePlaced` with `auto` follows).
    TimeoutAutoMove {
        /// Whose time ran out.
        #[serde(serialize_with = "ser_color")]
        color: Color,
        /// The point played.
        pt: Pos,
        /// Consecutive auto-moves of that player, this one included.
        streak: u32,
        /// A place that arrived after the deadline and was not played.
        #[serde(skip_serializing_if = "Option::is_none")]
        late_move: Option<Pos>,
    },
    /// Opening: a swap decision. `by` is the decider's colour before it; `black` and `white` are
    /// the players' colours after it.
    SwapDecided {
        /// The decider's colour before the decision.
        #[serde(serialize_with = "ser_color")]
        by: Color,
        /// Whether the colours were exchanged.
        swap: bool,
        /// Black's id now.
        black: String,
        /// White's id now.
        white: String,
    },
    /// Opening (Soosõrv): the number of 5th moves was declared.
    FifthMovesDeclared {
        /// The declarer's colour.
        #[serde(serialize_with = "ser_color")]
        by: Color,
        /// How many.
        count: u8,
    },
    /// Opening: 5th moves were offered (with a single offer it is placed at once).
    FifthMovesOffered {
        /// The offering player's colour.
        #[serde(serialize_with = "ser_color")]
        by: Color,
        /// The offers.
        points: Vec<Pos>,
    },
    /// Opening: an offer was chosen (a `stonePlaced` follows).
    OfferChosen {
        /// The chooser's colour.
        #[serde(serialize_with = "ser_color")]
        by: Color,
        /// The chosen point.
        pt: Pos,
    },
    /// The opening is over; normal play begins with `turn` to move.
    OpeningFinished {
        /// The colour to move.
        #[serde(serialize_with = "ser_color")]
        turn: Color,
    },
    /// A timeout in the opening was answered with the seeded opening action (its events follow).
    TimeoutAutoAction {
        /// Whose time ran out.
        #[serde(serialize_with = "ser_color")]
        color: Color,
        /// The action's name (`place`, `swap`, `declare`, `offer`, `choose`).
        action: &'static str,
        /// Consecutive auto-actions and auto-moves of that player, this one included.
        streak: u32,
        /// A place that arrived after the deadline and was not played.
        #[serde(skip_serializing_if = "Option::is_none")]
        late_move: Option<Pos>,
    },
    /// A player lost on time.
    TimeLoss {
        /// Who.
        #[serde(serialize_with = "ser_color")]
        color: Color,
        /// A place that arrived after the deadline and was not played.
        #[serde(skip_serializing_if = "Option::is_none")]
        late_move: Option<Pos>,
    },
}

impl Game {
    /// Applies one action at its `now`. On success returns the events; on error nothing changed.
    pub fn apply(&mut self, action: &Action) -> Result<Vec<Event>, GameError> {
        if self.result.is_some() {
            return Err(GameError::GameOver);
        }
        let now = action.now();
        if now < self.clock.last_action_at {
            return Err(GameError::TimeWentBackwards {
                now,
                last: self.clock.last_action_at,
            });
        }
        let color = match action.player() {
            Some(p) => Some(
                self.color_of(p)
                    .ok_or_else(|| GameError::UnknownPlayer(p.to_string()))?,
            ),
            None => None,
        };
        let mut events = Vec::new();
        match (action, color) {
            (&Action::Place { x, y, .. }, Some(c)) if self.in_opening() => {
                let p = self.point(Point { x, y })?;
                self.opening_act(c, OpeningInput::Place(p), now, &mut events)?
            }
            (&Action::Place { x, y, .. }, Some(c)) => self.place(c, x, y, now, &mut events)?,
            (&Action::Swap { swap, .. }, Some(c)) => {
                self.opening_act(c, OpeningInput::Swap(swap), now, &mut events)?
            }
            (Action::PutTwo { points, .. }, Some(c)) => {
                let two = [self.point(points[0])?, self.point(points[1])?];
                self.opening_act(c, OpeningInput::PutTwo(two), now, &mut events)?
            }
            (&Action::Declare { count, .. }, Some(c)) => {
                self.opening_act(c, OpeningInput::Declare(count), now, &mut events)?
            }
            (Action::Offer { points, .. }, Some(c)) => {
                let points = points
                    .iter()
                    .map(|&q| self.point(q))
                    .collect::<Result<Vec<_>, _>>()?;
                self.opening_act(c, OpeningInput::Offer(points), now, &mut events)?
            }
            (&Action::Choose { x, y, .. }, Some(c)) => {
                let p = self.point(Point { x, y })?;
                self.opening_act(c, OpeningInput::Choose(p), now, &mut events)?
            }
            (Action::RequestUndo { .. }, Some(c)) => self.request_undo(c, &mut events)?,
            (&Action::RespondUndo { accept, .. }, Some(c)) => {
                self.respond_undo(c, accept, now, &mut events)?
            }
            (Action::OfferDraw { .. }, Some(c)) => self.offer_draw(c, &mut events)?,
            (&Action::RespondDraw { accept, .. }, Some(c)) => {
                self.respond_draw(c, accept, &mut events)?
            }
            (Action::CancelOffer { .. }, Some(c)) => self.cancel_offer(c, &mut events)?,
            (Action::Resign { .. }, Some(c)) => {
                events.push(Event::Resigned { color: c });
                self.finish(
                    Some(c.opponent()),
                    ResultReason::Resign,
                    None,
                    None,
                    &mut events,
                );
            }
            (
                &Action::Timeout {
                    disconnected_at,
                    grace_sec,
                    ..
                },
                c,
            ) => self.timeout(c, now, disconnected_at, grace_sec, &mut events)?,
            // Every other action names a player, so `color` is set.
            (_, None) => return Err(GameError::UnknownPlayer(String::new())),
        }
        self.clock.last_action_at = now;
        Ok(events)
    }

    fn place(
        &mut self,
        c: Color,
        x: i64,
        y: i64,
        now: u64,
        events: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        if c != self.turn {
            return Err(GameError::NotYourTurn(c));
        }
        if self.deadline().is_some_and(|d| now >= d) {
            let late = self.board.pos(x, y).ok();
            self.run_out_of_time(now, late, events);
            return Ok(());
        }
        let size = self.board.width();
        let p = self
            .board
            .pos(x, y)
            .map_err(|_| GameError::OffBoard { x, y, size })?;
        if !self.board.is_empty(p) {
            return Err(GameError::Occupied { x: p.x(), y: p.y() });
        }
        if self.moves.is_empty() && self.options.first_move_at_centre() && p != self.board.centre()
        {
            return Err(GameError::FirstMoveNotCentre {
                centre: format_renju_upper(self.board.centre(), self.board.height()),
            });
        }
        let foul = self.checker().check(&mut self.board, p, c);
        match (foul, self.options.forbidden_policy) {
            (Some(kind), ForbiddenPolicy::Reject) => Err(GameError::Forbidden {
                color: c,
                kind,
                point: format_renju_upper(p, self.board.height()),
            }),
            (Some(kind), ForbiddenPolicy::Loss) => {
                self.charge_move(now);
                self.record_stone(p, now, false, events);
                events.push(Event::Foul {
                    color: c,
                    pt: p,
                    kind,
                });
                self.finish(
                    Some(c.opponent()),
                    ResultReason::Foul,
                    None,
                    Some(kind),
                    events,
                );
                Ok(())
            }
            (None, _) => {
                self.charge_move(now);
                *self.clock.auto_move_streak.get_mut(c) = 0;
                self.put_stone(p, now, false, events);
                Ok(())
            }
        }
    }

    fn request_undo(&mut self, c: Color, events: &mut Vec<Event>) -> Result<(), GameError> {
        let limit = self.options.undo;
        if !limit.enabled() {
            return Err(GameError::UndoDisabled);
        }
        if let (Some(0), super::options::UndoLimit::Limited(n)) = (self.undo_remaining(c), limit) {
            return Err(GameError::UndoExhausted { limit: n });
        }
        if self.undo.pending.is_some() {
            return Err(GameError::UndoPending);
        }
        if self.in_opening() {
            return Err(GameError::UndoInOpening);
        }
        let last = self.moves.last().ok_or(GameError::NothingToUndo)?;
        if !self.moves.iter().any(|m| m.color == c) {
            return Err(GameError::NothingToUndo);
        }
        let plies = if last.color == c { 1 } else { 2 };
        if self.moves.len() < self.opening_stones + usize::from(plies) {
            return Err(GameError::UndoInOpening);
        }
        self.undo.pending = Some(UndoRequest { by: c, plies });
        events.push(Event::UndoRequested { by: c, plies });
        Ok(())
    }

    fn respond_undo(
        &mut self,
        c: Color,
        accept: bool,
        now: u64,
        events: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let req = self.undo.pending.ok_or(GameError::NoUndoRequest)?;
        if req.by == c {
            return Err(GameError::OwnRequest);
        }
        self.undo.pending = None;
        if !accept {
            events.push(Event::UndoDeclined {
                by: req.by,
                auto: false,
            });
            return Ok(());
        }
        let mut removed = Vec::new();
        for _ in 0..req.plies {
            if let Some(m) = self.moves.pop() {
                self.board.undo_move();
                removed.push(m.pt);
            }
        }
        self.turn = req.by;
        *self.undo.used.get_mut(req.by) += 1;
        self.clock.turn_started_at = now;
        events.push(Event::UndoAccepted {
            by: req.by,
            plies: req.plies,
            removed,
        });
        Ok(())
    }

    fn offer_draw(&mut self, c: Color, events: &mut Vec<Event>) -> Result<(), GameError> {
        if !self.options.draw_offer {
            return Err(GameError::DrawOffersDisabled);
        }
        if self.draw.pending_by.is_some() {
            return Err(GameError::DrawPending);
        }
        if let Some(n) = *self.draw.moves_since_offer.get(c)
            && n < 3
        {
            return Err(GameError::DrawTooSoon { moves_left: 3 - n });
        }
        self.draw.pending_by = Some(c);
        *self.draw.moves_since_offer.get_mut(c) = Some(0);
        events.push(Event::DrawOffered { by: c });
        Ok(())
    }

    fn respond_draw(
        &mut self,
        c: Color,
        accept: bool,
        events: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let by = self.draw.pending_by.ok_or(GameError::NoDrawOffer)?;
        if by == c {
            return Err(GameError::OwnRequest);
        }
        self.draw.pending_by = None;
        if accept {
            events.push(Event::DrawAccepted { by });
            self.finish(None, ResultReason::DrawAgreed, None, None, events);
        } else {
            events.push(Event::DrawDeclined { by, auto: false });
        }
        Ok(())
    }

    fn cancel_offer(&mut self, c: Color, events: &mut Vec<Event>) -> Result<(), GameError> {
        let undo = self.undo.pending.is_some_and(|r| r.by == c);
        let draw = self.draw.pending_by == Some(c);
        if !undo && !draw {
            return Err(GameError::NothingToCancel);
        }
        if undo {
            self.undo.pending = None;
            events.push(Event::UndoCancelled { by: c });
        }
        if draw {
            self.draw.pending_by = None;
            events.push(Event::DrawCancelled { by: c });
        }
        Ok(())
    }
}
