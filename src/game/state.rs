//! The state of one refereed game ([`Game`], seed 004 §8.1) and the steps every action shares:
//! setting up (colour assignment, clocks), putting a stone down with its consequences (pending
//! requests, counters, end of game) and finishing the game.
//!
//! Invariants:
//! - `board` holds exactly the stones of `moves`, in order; `turn` is the colour to move (the
//!   opposite of the last move's colour, black on an empty board);
//! - `phase` is `Finished` exactly when `result` is set, and then no request is pending;
//! - the RNG is consumed only by the colour draw at setup and by auto-moves (and the opening's
//!   auto-actions), so a seed and an action log determine everything (see [`super::hash`]);
//! - nothing here reads a clock: every time is the caller's `now` in milliseconds.

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Serialize, Serializer};

use super::actions::{Action, Event};
use super::error::GameError;
use super::options::{ColorAssignment, GameOptions, Setup, TimeControl};
use super::result::{GameResult, ResultReason};
use crate::board::Board;
use crate::core::{Color, Pos};
use crate::rule::Rule;
use crate::rules::auto_move::uniform;
use crate::rules::opening::Opening;
use crate::rules::{ForbidChecker, ForbidOptions, ForbiddenKind, winning_line};

/// A value per colour, as `{"black": …, "white": …}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ByColor<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

impl<T> ByColor<T> {
    /// The same value for both colours.
    pub fn both(v: T) -> ByColor<T>
    where
        T: Clone,
    {
        ByColor {
            black: v.clone(),
            white: v,
        }
    }

    /// The value of `c`.
    pub fn get(&self, c: Color) -> &T {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The value of `c`, mutably.
    pub fn get_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }

    /// Exchanges the two values.
    pub fn exchange(&mut self) {
        std::mem::swap(&mut self.black, &mut self.white);
    }

    /// Applies `f` to both values.
    pub fn map<U>(&self, mut f: impl FnMut(Color, &T) -> U) -> ByColor<U> {
        ByColor {
            black: f(Color::Black, &self.black),
            white: f(Color::White, &self.white),
        }
    }
}

/// Serializes a colour as `"black"` / `"white"`.
pub(crate) fn ser_color<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.name())
}

/// Serializes an optional colour as `"black"`, `"white"` or `null`.
pub(crate) fn ser_opt_color<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(c) => s.serialize_str(c.name()),
        None => s.serialize_none(),
    }
}

/// One move of the record (`moves[]` of seed 004 §8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MoveRecord {
    /// Who played it.
    #[serde(serialize_with = "ser_color")]
    pub color: Color,
    /// Where.
    pub pt: Pos,
    /// When it was accepted (ms).
    pub at: u64,
    /// Whether the referee played it after a timeout.
    pub auto: bool,
}

/// `opening`, `playing` or `finished`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Phase {
    /// The opening rule's steps are under way (never under `openingRule` `none`).
    Opening,
    /// Moves are accepted.
    Playing,
    /// The game has a result.
    Finished,
}

/// The clock part of the state (seed 004 §8.1 `clock`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClockState {
    /// Fischer banks (ms); unused otherwise.
    pub remaining_ms: ByColor<u64>,
    /// When the current turn began (ms).
    pub turn_started_at: u64,
    /// Consecutive timeouts answered with an auto-move.
    pub auto_move_streak: ByColor<u32>,
    /// The time of the last accepted action; earlier `now`s are rejected.
    pub last_action_at: u64,
}

/// A pending undo request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct UndoRequest {
    /// Who asked.
    #[serde(serialize_with = "ser_color")]
    pub by: Color,
    /// How many moves it takes back (1: the requester's last move; 2: also the reply).
    pub plies: u8,
}

/// Undo bookkeeping.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct UndoState {
    /// Accepted undos per colour.
    pub used: ByColor<u32>,
    /// The request waiting for an answer.
    pub pending: Option<UndoRequest>,
}

/// Draw-offer bookkeeping.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct DrawState {
    /// Who offered the draw waiting for an answer.
    pub pending_by: Option<Color>,
    /// Own moves since the colour's last offer (`None`: never offered).
    pub moves_since_offer: ByColor<Option<u32>>,
}

/// One game run by the referee. Build it with [`Game::new`], change it only with
/// [`Game::apply`]; read it with the getters, [`Game::views`] and [`Game::state_hash`].
#[derive(Clone)]
pub struct Game {
    pub(crate) options: GameOptions,
    pub(crate) rule: Rule,
    pub(crate) board: Board,
    pub(crate) players: ByColor<String>,
    pub(crate) turn: Color,
    pub(crate) moves: Vec<MoveRecord>,
    pub(crate) phase: Phase,
    pub(crate) clock: ClockState,
    pub(crate) undo: UndoState,
    pub(crate) draw: DrawState,
    pub(crate) result: Option<GameResult>,
    pub(crate) seed: u64,
    pub(crate) rng: Xoshiro256PlusPlus,
    /// The opening rule's state; its sides' colours always match `players`.
    pub(crate) opening: Opening,
    /// Stones placed during the opening (never taken back by an undo).
    pub(crate) opening_stones: usize,
}

impl Game {
    /// Starts a game: validates the setup, assigns colours (the RNG draws for `random`, and for
    /// `alternate` without a previous game) and starts the clocks at `setup.now`. Returns the
    /// `gameStarted` event.
    pub fn new(setup: &Setup) -> Result<(Game, Vec<Event>), GameError> {
        setup.validate()?;
        let options = setup.options.clone();
        let rule = options.rule();
        let board = Board::square(options.board_size, rule).map_err(|_| GameError::BadOption {
            field: "boardSize",
            value: options.board_size.to_string(),
            expected: "5..=32",
        })?;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(setup.seed);
        let (host, guest) = (&setup.players.host, &setup.players.guest);
        let host_black = match (options.color_assignment, &setup.previous_black) {
            (ColorAssignment::HostBlack, _) => true,
            (ColorAssignment::HostWhite, _) => false,
            (ColorAssignment::Alternate, Some(prev)) => prev != host,
            (ColorAssignment::Random | ColorAssignment::Alternate, _) => uniform(&mut rng, 2) == 0,
        };
        let players = if host_black {
            ByColor {
                black: host.clone(),
                white: guest.clone(),
            }
        } else {
            ByColor {
                black: guest.clone(),
                white: host.clone(),
            }
        };
        let opening = Opening::new(options.opening_rule, Color::Black, &board).map_err(|e| {
            GameError::BadOption {
                field: "openingRule",
                value: e.to_string(),
                expected: "an opening rule that fits the board",
            }
        })?;
        let bank = match options.time_control {
            TimeControl::Fischer { base_sec, .. } => u64::from(base_sec) * 1000,
            _ => 0,
        };
        let game = Game {
            rule,
            board,
            turn: Color::Black,
            moves: Vec::new(),
            phase: if opening.is_finished() {
                Phase::Playing
            } else {
                Phase::Opening
            },
            clock: ClockState {
                remaining_ms: ByColor::both(bank),
                turn_started_at: setup.now,
                auto_move_streak: ByColor::default(),
                last_action_at: setup.now,
            },
            undo: UndoState::default(),
            draw: DrawState::default(),
            result: None,
            seed: setup.seed,
            rng,
            options,
            players,
            opening,
            opening_stones: 0,
        };
        let started = Event::GameStarted {
            black: game.players.black.clone(),
            white: game.players.white.clone(),
            rule: game.rule.name(),
        };
        Ok((game, vec![started]))
    }

    /// Replays an action log from a setup; rejected actions are skipped (they change nothing).
    pub fn replay<'a>(
        setup: &Setup,
        log: impl IntoIterator<Item = &'a Action>,
    ) -> Result<Game, GameError> {
        let (mut game, _) = Game::new(setup)?;
        for action in log {
            let _ = game.apply(action);
        }
        Ok(game)
    }

    /// The options.
    pub fn options(&self) -> &GameOptions {
        &self.options
    }

    /// The rule set of the rules core in force.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The player ids by colour.
    pub fn players(&self) -> &ByColor<String> {
        &self.players
    }

    /// The id of the player of `c`.
    pub fn player(&self, c: Color) -> &str {
        self.players.get(c)
    }

    /// The colour of a player id.
    pub fn color_of(&self, player: &str) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| self.players.get(c) == player)
    }

    /// The colour to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The moves played (and not taken back).
    pub fn moves(&self) -> &[MoveRecord] {
        &self.moves
    }

    /// The opening rule's state.
    pub fn opening(&self) -> &Opening {
        &self.opening
    }

    /// Stones placed by the opening rule (the first ones of the record).
    pub fn opening_stones(&self) -> usize {
        self.opening_stones
    }

    /// Whether the opening is under way (the game not over).
    pub fn in_opening(&self) -> bool {
        self.phase == Phase::Opening
    }

    /// Opening, playing or finished.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The result, once finished.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// The RNG seed of the setup.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// A colour's Fischer bank in ms (`None` without a Fischer clock).
    pub fn remaining_ms(&self, c: Color) -> Option<u64> {
        matches!(self.options.time_control, TimeControl::Fischer { .. })
            .then(|| *self.clock.remaining_ms.get(c))
    }

    /// The time of the last accepted action (ms; the setup's `now` before any).
    pub fn last_action_at(&self) -> u64 {
        self.clock.last_action_at
    }

    /// When the current turn began (ms).
    pub fn turn_started_at(&self) -> u64 {
        self.clock.turn_started_at
    }

    /// A colour's consecutive auto-moves.
    pub fn auto_move_streak(&self, c: Color) -> u32 {
        *self.clock.auto_move_streak.get(c)
    }

    /// The pending undo request.
    pub fn undo_pending(&self) -> Option<UndoRequest> {
        self.undo.pending
    }

    /// A colour's undos left (`None` = unlimited).
    pub fn undo_remaining(&self, c: Color) -> Option<u32> {
        self.options.undo.remaining(*self.undo.used.get(c))
    }

    /// Who offered the pending draw.
    pub fn draw_pending_by(&self) -> Option<Color> {
        self.draw.pending_by
    }

    /// A forbidden-point checker with the game's depth cap.
    pub(crate) fn checker(&self) -> ForbidChecker {
        ForbidChecker::new(ForbidOptions {
            depth_cap: self.options.forbid_depth_cap,
        })
    }

    /// Whether `color` has an empty point that is not forbidden.
    fn has_legal_move(&mut self, color: Color) -> bool {
        if !self.rule.has_forbidden(color) {
            return !self.board.is_full();
        }
        let mut checker = self.checker();
        let empties: Vec<Pos> = self
            .board
            .positions()
            .filter(|&p| self.board.is_empty(p))
            .collect();
        empties
            .into_iter()
            .any(|p| checker.check(&mut self.board, p, color).is_none())
    }

    /// Puts a stone of the colour to move on `p` (already validated) at `now` and applies its
    /// consequences ([`Game::record_stone`]), then ends the game on a winning line, a full board,
    /// the stone limit or a side to move with no legal point. The clock bank is the caller's
    /// business.
    pub(crate) fn put_stone(&mut self, p: Pos, now: u64, auto: bool, events: &mut Vec<Event>) {
        let color = self.turn;
        self.record_stone(p, now, auto, events);
        if let Some(line) = winning_line(&self.board, p) {
            self.finish(Some(color), ResultReason::Five, Some(line), None, events);
        } else if self.board.is_full() {
            self.finish(None, ResultReason::BoardFull, None, None, events);
        } else if self
            .options
            .draw_after_stones
            .is_some_and(|n| self.moves.len() >= n as usize)
        {
            self.finish(None, ResultReason::MoveLimit, None, None, events);
        } else if !self.has_legal_move(self.turn) {
            self.finish(None, ResultReason::NoLegalMove, None, None, events);
        }
    }

    /// Puts a stone of the colour to move on `p` and records it: requests the mover's opponent
    /// made are declined, the mover's own undo request lapses, the draw-offer counters advance,
    /// the turn passes and starts at `now`. Judges nothing.
    pub(crate) fn record_stone(&mut self, p: Pos, now: u64, auto: bool, events: &mut Vec<Event>) {
        let color = self.turn;
        self.board.make_move(p, color);
        self.moves.push(MoveRecord {
            color,
            pt: p,
            at: now,
            auto,
        });
        events.push(Event::StonePlaced {
            color,
            pt: p,
            auto,
            move_number: self.moves.len(),
        });
        if let Some(req) = self.undo.pending.take() {
            if req.by == color {
                events.push(Event::UndoCancelled { by: color });
            } else {
                events.push(Event::UndoDeclined {
                    by: req.by,
                    auto: true,
                });
            }
        }
        if self.draw.pending_by == Some(color.opponent()) {
            self.draw.pending_by = None;
            events.push(Event::DrawDeclined {
                by: color.opponent(),
                auto: true,
            });
        }
        if let Some(n) = self.draw.moves_since_offer.get_mut(color) {
            *n += 1;
        }
        self.turn = color.opponent();
        self.clock.turn_started_at = now;
    }

    /// Ends the game: sets the result, clears pending requests and reports `win` or `draw`
    /// (`foul`: the forbidden shape of the last move, for reason `foul`).
    pub(crate) fn finish(
        &mut self,
        winner: Option<Color>,
        reason: ResultReason,
        win_line: Option<Vec<Pos>>,
        foul: Option<ForbiddenKind>,
        events: &mut Vec<Event>,
    ) {
        self.undo.pending = None;
        self.draw.pending_by = None;
        self.phase = Phase::Finished;
        let result = GameResult::new(self, winner, reason, win_line, foul);
        events.push(match winner {
            Some(color) => Event::Win {
                color,
                reason,
                line: result.win_line.clone(),
            },
            None => Event::Draw { reason },
        });
        self.result = Some(result);
    }
}
