//! The Pente referee (`ruleSet: "pente"` in `pbrain-omok referee`, `docs/pente.md` §8): one
//! game of 2–4 seats under the Pente rules, with the omok referee's contract — JSON lines, Korean
//! and English messages, clocks on the caller's `now`, timeouts with the seeded auto-move,
//! replay by seed and action log, and a stable state hash that a rejected action leaves as it was.
//!
//! Seats are numbered in turn order from 0 and named by colour: `white` (moves first), `black`,
//! `red`, `green`. With teams, seats 0 and 2 play against 1 and 3. The actions are the omok
//! referee's ([`crate::game::Action`]): `place`, `resign`, `timeout`, `offerDraw`,
//! `respondDraw`, `requestUndo`, `respondUndo`, `cancelOffer` (draw offers and undo between two
//! players only), and in the opening of Swap and Swap2 `place`, `swap` and `putTwo`.
//!
//! The opening ([`super::opening`], the shared opening rules with white first): the player drawn
//! white is the opening's first player; `seats` always says who holds which colour now, and a
//! swap exchanges the two ids with everything kept per seat (Fischer banks, auto-move streaks,
//! undo counts, the draw offer), so each player keeps their own clock and counters. During the
//! opening `turn` is the colour of the player the opening waits for (who may be placing a stone
//! of the other colour); deadlines apply to that player. Opening stones are ordinary Pente moves
//! of their colour (captures and the suicide rule apply), enter the record and are never taken
//! back (`undoInOpening`). A perMove + `autoMove` timeout in the opening plays the seeded opening
//! action of the shared module.
//!
//! Undo follows the omok referee: `requestUndo` takes back 1 move if the requester moved last,
//! else 2; the other player's `respondUndo` accepts (the moves are taken back with the stones
//! they captured and the capture counts, the requester moves next, the turn restarts at `now`) or
//! declines; a place by the other player declines it, a place by the requester cancels it.
//!
//! Pure: no I/O, no clock of its own; the RNG (rand_xoshiro, seeded by the setup) is used only by
//! the seat draw, auto-moves and the opening's auto-actions.

pub mod error;

use std::collections::BTreeMap;

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::auto_move::auto_move;
use super::opening::{self as pente_opening, PenteOpeningError, actor_seat, seat_of_color};
use super::options::{Extension, Overline, PenteOpening, PenteRules, Suicide};
use super::position::{EndReason, Illegal, Position};
use crate::core::Pos;
use crate::game::Action;
use crate::game::actions::Point;
use crate::game::clock::AUTO_MOVE_STREAK_LIMIT;
use crate::game::hash::Fnv1a;
use crate::game::options::{
    ColorAssignment, MAX_TIME_SEC, Players, TimeControl, TimeoutPolicy, UndoLimit,
};
use crate::game::view::PendingView;
use crate::rules::auto_move::uniform;
use crate::rules::opening::{Effect, Opening, OpeningAction, OpeningError, Side, auto_action};
pub use error::PenteError;

/// Seat colours in turn order.
pub const SEAT_COLORS: [&str; 4] = ["white", "black", "red", "green"];
const SEAT_COLORS_KO: [&str; 4] = ["백", "흑", "빨강", "초록"];

/// The disconnection grace when a timeout gives none, in seconds.
const DEFAULT_GRACE_SEC: u32 = 60;

/// `ruleSet` of a Pente setup: always `"pente"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum PenteRuleSet {
    /// Pente.
    #[default]
    #[serde(rename = "pente")]
    Pente,
}

/// The options of a Pente game: the rules options plus the referee's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct PenteGameOptions {
    /// Always `pente`.
    pub rule_set: PenteRuleSet,
    /// 9, 13, 15 or 19.
    pub board_size: usize,
    /// Captures of three too.
    pub three_capture: bool,
    /// Capture win on/off.
    pub capture_win: bool,
    /// `win` or `forbidden`.
    pub overline: Overline,
    /// `nothing`, `captured` or `forbidden`.
    pub suicide: Suicide,
    /// `off`, `breakLine` or `captureLine`.
    pub extension: Extension,
    /// `none`, `pro`, `longPro`, `swap` or `swap2` (two players).
    pub opening_rule: PenteOpening,
    /// 2..=4.
    pub players: u8,
    /// 2 against 2 (4 players).
    pub teams: bool,
    /// Mixed captures (3–4 players).
    pub mixed_capture: bool,
    /// Two players given as host/guest: who plays white (first).
    pub color_assignment: ColorAssignment,
    /// The clock.
    pub time_control: TimeControl,
    /// What a perMove timeout does.
    pub timeout_policy: TimeoutPolicy,
    /// No-response limit with `timeControl` none.
    pub idle_limit_sec: u32,
    /// Draw offers (two players only).
    pub draw_offer: bool,
    /// Whether the seat to move sees its illegal empty points.
    pub show_forbidden: bool,
    /// Undo requests per player: `off`, a number (0 = off) or `unlimited` (two players only).
    pub undo: UndoLimit,
}

impl Default for PenteGameOptions {
    fn default() -> PenteGameOptions {
        let r = PenteRules::default();
        PenteGameOptions {
            rule_set: PenteRuleSet::Pente,
            board_size: r.board_size,
            three_capture: r.three_capture,
            capture_win: r.capture_win,
            overline: r.overline,
            suicide: r.suicide,
            extension: r.extension,
            opening_rule: r.opening_rule,
            players: r.players,
            teams: r.teams,
            mixed_capture: r.mixed_capture,
            color_assignment: ColorAssignment::Random,
            time_control: TimeControl::default(),
            timeout_policy: TimeoutPolicy::AutoMove,
            idle_limit_sec: 300,
            draw_offer: true,
            show_forbidden: true,
            undo: UndoLimit::default(),
        }
    }
}

impl PenteGameOptions {
    /// Default referee options around these rules.
    pub fn from_rules(r: PenteRules) -> PenteGameOptions {
        PenteGameOptions {
            board_size: r.board_size,
            three_capture: r.three_capture,
            capture_win: r.capture_win,
            overline: r.overline,
            suicide: r.suicide,
            extension: r.extension,
            opening_rule: r.opening_rule,
            players: r.players,
            teams: r.teams,
            mixed_capture: r.mixed_capture,
            ..PenteGameOptions::default()
        }
    }

    /// The rules options.
    pub fn rules(&self) -> PenteRules {
        PenteRules {
            board_size: self.board_size,
            three_capture: self.three_capture,
            capture_win: self.capture_win,
            overline: self.overline,
            suicide: self.suicide,
            extension: self.extension,
            opening_rule: self.opening_rule,
            players: self.players,
            teams: self.teams,
            mixed_capture: self.mixed_capture,
        }
    }

    /// Checks every option.
    pub fn validate(&self) -> Result<(), PenteError> {
        self.rules().validate()?;
        let bad = |field: &'static str, value: String, expected: &'static str| {
            PenteError::BadOption(super::options::OptionError {
                field,
                value,
                expected,
            })
        };
        let secs = |field, v: u32, min: u32| {
            if (min..=MAX_TIME_SEC).contains(&v) {
                Ok(())
            } else {
                Err(bad(
                    field,
                    v.to_string(),
                    "seconds within 1..=86400 (incSec 0..)",
                ))
            }
        };
        match self.time_control {
            TimeControl::NoLimit {} => {}
            TimeControl::PerMove { per_move_sec } => {
                secs("timeControl.perMoveSec", per_move_sec, 1)?
            }
            TimeControl::Fischer { base_sec, inc_sec } => {
                secs("timeControl.baseSec", base_sec, 1)?;
                secs("timeControl.incSec", inc_sec, 0)?;
            }
        }
        secs("idleLimitSec", self.idle_limit_sec, 1)
    }
}

/// The players of a setup: host and guest (two players), or every seat's id in turn order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PentePlayers {
    /// Two players; `colorAssignment` decides who is white.
    Pair(Players),
    /// Seat ids in turn order (white first).
    Seats(Vec<String>),
}

/// The setup line of a Pente game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PenteSetup {
    /// The options.
    #[serde(default)]
    pub options: PenteGameOptions,
    /// The RNG seed (number or decimal string).
    #[serde(with = "crate::game::options::seed_serde")]
    pub seed: u64,
    /// The players.
    pub players: PentePlayers,
    /// Start time (ms).
    #[serde(default)]
    pub now: u64,
}

/// One move of the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PenteMove {
    /// The seat's colour.
    pub color: &'static str,
    /// Where.
    pub pt: Pos,
    /// When (ms).
    pub at: u64,
    /// Played by the referee after a timeout.
    pub auto: bool,
    /// Stones it removed.
    pub captured: usize,
}

/// A removed stone in an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CapturedStone {
    /// Column.
    pub x: usize,
    /// Row.
    pub y: usize,
    /// Its colour.
    pub owner: &'static str,
    /// Who was credited (`null`: claimed by several seats, or a teammate's stone).
    pub by: Option<&'static str>,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum PenteEvent {
    /// The game began.
    GameStarted {
        /// Seat ids in turn order.
        seats: Vec<String>,
        /// Seat colours in turn order.
        colors: Vec<&'static str>,
        /// `pente`.
        rule: &'static str,
    },
    /// A stone was placed (and maybe stones were captured).
    StonePlaced {
        /// The seat's colour.
        color: &'static str,
        /// Where.
        pt: Pos,
        /// Played after a timeout.
        auto: bool,
        /// Its number, from 1.
        move_number: usize,
        /// Stones removed.
        captured: Vec<CapturedStone>,
        /// Captured stones per seat after the move.
        captures: Vec<u32>,
    },
    /// A line was completed and the next seat must break (or capture) it.
    ExtensionStarted {
        /// The line maker.
        maker: &'static str,
        /// The completed lines.
        lines: Vec<Vec<Pos>>,
        /// `captureLine`: the point that captures the line.
        capture_point: Option<Pos>,
    },
    /// The game ended with winners.
    Win {
        /// The winning colours (a team, or several sides that won together).
        winners: Vec<&'static str>,
        /// `line`, `captures`, `resign` or `timeLoss`.
        reason: &'static str,
        /// The completed line.
        line: Option<Vec<Pos>>,
    },
    /// The game ended in a draw.
    Draw {
        /// `boardFull`, `noLegalMove` or `drawAgreed`.
        reason: &'static str,
    },
    /// A seat resigned.
    Resigned {
        /// Its colour.
        color: &'static str,
    },
    /// A timeout answered with an auto-move.
    TimeoutAutoMove {
        /// The seat.
        color: &'static str,
        /// The move.
        pt: Pos,
        /// Consecutive auto-moves of that seat.
        streak: u32,
        /// The place that arrived too late.
        #[serde(skip_serializing_if = "Option::is_none")]
        late_move: Option<Pos>,
    },
    /// A seat lost on time.
    TimeLoss {
        /// The seat.
        color: &'static str,
        /// The place that arrived too late.
        #[serde(skip_serializing_if = "Option::is_none")]
        late_move: Option<Pos>,
    },
    /// A draw was offered.
    DrawOffered {
        /// By whom.
        by: &'static str,
    },
    /// The offer was accepted.
    DrawAccepted {
        /// By whom.
        by: &'static str,
    },
    /// The offer was declined (`auto`: by moving).
    DrawDeclined {
        /// By whom.
        by: &'static str,
        /// Declined by placing a stone.
        auto: bool,
    },
    /// The offer was withdrawn.
    DrawCancelled {
        /// By whom.
        by: &'static str,
    },
    /// An undo was requested.
    UndoRequested {
        /// The requester's colour.
        by: &'static str,
        /// Moves it would take back.
        plies: u8,
    },
    /// The undo was accepted and the moves taken back (with the stones they captured).
    UndoAccepted {
        /// The requester's colour.
        by: &'static str,
        /// Moves taken back.
        plies: u8,
        /// The points emptied, last move first.
        removed: Vec<Pos>,
        /// The stones put back (captured by the moves taken back).
        restored: Vec<CapturedStone>,
        /// Captured stones per seat after the undo.
        captures: Vec<u32>,
    },
    /// The undo was declined (`auto`: by the other player's place).
    UndoDeclined {
        /// The requester's colour.
        by: &'static str,
        /// Declined by a place rather than by respondUndo.
        auto: bool,
    },
    /// The undo request was withdrawn (cancelOffer, or the requester placed a stone).
    UndoCancelled {
        /// The requester's colour.
        by: &'static str,
    },
    /// Opening: a swap decision. `by` is the decider's colour before it; `white` and `black` are
    /// the players' ids after it.
    SwapDecided {
        /// The decider's colour before the decision.
        by: &'static str,
        /// Whether the colours were exchanged.
        swap: bool,
        /// White's id now.
        white: String,
        /// Black's id now.
        black: String,
    },
    /// The opening is over; normal play begins with `turn` to move.
    OpeningFinished {
        /// The colour to move.
        turn: &'static str,
    },
    /// A timeout in the opening was answered with the seeded opening action (its events follow).
    TimeoutAutoAction {
        /// The player's colour.
        color: &'static str,
        /// The action's name (`place`, `swap`, `putTwo`).
        action: &'static str,
        /// Consecutive auto-actions and auto-moves of that seat, this one included.
        streak: u32,
        /// A place that arrived after the deadline and was not played.
        #[serde(skip_serializing_if = "Option::is_none")]
        late_move: Option<Pos>,
    },
}

/// A seat's place: 1 for the winners (everybody in a draw), 2 for the others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PenteRank {
    /// The player's id.
    pub player_id: String,
    /// 1 or 2.
    pub rank: u8,
}

/// The result of a finished Pente game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PenteResult {
    /// Winners first, then in seat order.
    pub ranking: Vec<PenteRank>,
    /// The winning colours (empty in a draw).
    pub winners: Vec<&'static str>,
    /// `line`, `captures`, `boardFull`, `noLegalMove`, `resign`, `timeLoss`, `drawAgreed`.
    pub reason: &'static str,
    /// The completed line (reason `line`).
    pub win_line: Option<Vec<Pos>>,
    /// Moves played.
    pub move_count: usize,
    /// Captured stones per seat.
    pub captures: Vec<u32>,
    /// Korean summary (`"백 승 (5목, 37수)"`).
    pub summary_ko: String,
    /// English summary.
    pub summary_en: String,
}

/// One Pente game run by the referee.
#[derive(Clone)]
pub struct PenteGame {
    options: PenteGameOptions,
    pos: Position,
    seats: Vec<String>,
    moves: Vec<PenteMove>,
    remaining_ms: Vec<u64>,
    streak: Vec<u32>,
    turn_started_at: u64,
    last_action_at: u64,
    draw_pending_by: Option<u8>,
    /// Swap / Swap2 (`None` for the other rules).
    opening: Option<Opening>,
    /// Stones placed in the opening (never taken back).
    opening_stones: usize,
    /// Accepted undos per seat (they follow the players through swaps).
    undo_used: Vec<u32>,
    /// A pending undo request: the requester's seat and the moves it takes back.
    undo_pending: Option<(u8, u8)>,
    result: Option<PenteResult>,
    seed: u64,
    rng: Xoshiro256PlusPlus,
}

impl PenteGame {
    /// Starts a game; returns the `gameStarted` event.
    pub fn new(setup: &PenteSetup) -> Result<(PenteGame, Vec<PenteEvent>), PenteError> {
        let options = setup.options.clone();
        options.validate()?;
        let n = options.players;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(setup.seed);
        let seats: Vec<String> = match &setup.players {
            PentePlayers::Pair(Players { host, guest }) if n == 2 => {
                let host_white = match options.color_assignment {
                    ColorAssignment::HostWhite => true,
                    ColorAssignment::HostBlack => false,
                    ColorAssignment::Random | ColorAssignment::Alternate => {
                        uniform(&mut rng, 2) == 0
                    }
                };
                if host_white {
                    vec![host.clone(), guest.clone()]
                } else {
                    vec![guest.clone(), host.clone()]
                }
            }
            PentePlayers::Seats(ids) if ids.len() == n as usize => ids.clone(),
            _ => return Err(PenteError::BadPlayers { expected: n }),
        };
        let distinct = seats
            .iter()
            .enumerate()
            .all(|(i, s)| !s.is_empty() && !seats[..i].contains(s));
        if !distinct {
            return Err(PenteError::BadPlayers { expected: n });
        }
        let pos = Position::new(options.rules())?;
        let opening = pente_opening::start(&pos).map_err(PenteError::Opening)?;
        let bank = match options.time_control {
            TimeControl::Fischer { base_sec, .. } => u64::from(base_sec) * 1000,
            _ => 0,
        };
        let game = PenteGame {
            pos,
            moves: Vec::new(),
            remaining_ms: vec![bank; n as usize],
            streak: vec![0; n as usize],
            turn_started_at: setup.now,
            last_action_at: setup.now,
            draw_pending_by: None,
            opening,
            opening_stones: 0,
            undo_used: vec![0; n as usize],
            undo_pending: None,
            result: None,
            seed: setup.seed,
            rng,
            seats: seats.clone(),
            options,
        };
        let ev = PenteEvent::GameStarted {
            seats,
            colors: SEAT_COLORS[..n as usize].to_vec(),
            rule: "pente",
        };
        Ok((game, vec![ev]))
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The options.
    pub fn options(&self) -> &PenteGameOptions {
        &self.options
    }

    /// Seat ids in turn order.
    pub fn seats(&self) -> &[String] {
        &self.seats
    }

    /// The record.
    pub fn moves(&self) -> &[PenteMove] {
        &self.moves
    }

    /// The result, once finished.
    pub fn result(&self) -> Option<&PenteResult> {
        self.result.as_ref()
    }

    /// `opening`, `playing` or `finished`.
    pub fn phase(&self) -> &'static str {
        if self.result.is_some() {
            "finished"
        } else if self.in_opening() {
            "opening"
        } else {
            "playing"
        }
    }

    /// Whether the Swap / Swap2 opening is still going on.
    pub fn in_opening(&self) -> bool {
        self.opening.as_ref().is_some_and(|o| !o.is_finished())
    }

    /// The opening state (Swap and Swap2 only).
    pub fn opening(&self) -> Option<&Opening> {
        self.opening.as_ref()
    }

    /// The seat whose player acts now: the opening's pending player, else the seat to move.
    pub fn actor(&self) -> u8 {
        match &self.opening {
            Some(o) if !o.is_finished() => actor_seat(o),
            _ => self.pos.turn(),
        }
    }

    /// When the seat to move runs out of time; `None` once finished.
    pub fn deadline(&self) -> Option<u64> {
        if self.result.is_some() {
            return None;
        }
        let span = match self.options.time_control {
            TimeControl::PerMove { per_move_sec } => u64::from(per_move_sec) * 1000,
            TimeControl::Fischer { .. } => self.remaining_ms[self.actor() as usize],
            TimeControl::NoLimit {} => u64::from(self.options.idle_limit_sec) * 1000,
        };
        Some(self.turn_started_at.saturating_add(span))
    }

    fn seat_of(&self, id: &str) -> Result<u8, PenteError> {
        self.seats
            .iter()
            .position(|s| s == id)
            .map(|i| i as u8)
            .ok_or_else(|| PenteError::UnknownPlayer(id.into()))
    }

    fn color(seat: u8) -> &'static str {
        SEAT_COLORS[seat as usize]
    }

    /// Applies one action; on error nothing changed.
    pub fn apply(&mut self, action: &Action) -> Result<Vec<PenteEvent>, PenteError> {
        if self.result.is_some() {
            return Err(PenteError::GameOver);
        }
        let now = action.now();
        if now < self.last_action_at {
            return Err(PenteError::TimeWentBackwards {
                now,
                last: self.last_action_at,
            });
        }
        let seat = action.player().map(|p| self.seat_of(p)).transpose()?;
        let mut events = Vec::new();
        let turn = self.actor();
        if self.in_opening()
            && let Some(input) = self.opening_input(action)?
        {
            self.opening_act(seat.unwrap_or(turn), input, now, &mut events)?;
            self.last_action_at = now;
            return Ok(events);
        }
        match action {
            Action::Place { x, y, .. } => {
                let seat = seat.unwrap_or(turn);
                if seat != turn {
                    return Err(PenteError::NotYourTurn(self.seats[seat as usize].clone()));
                }
                if self.deadline().is_some_and(|d| now >= d) {
                    let late = self.pos.cell(*x, *y).map(|c| self.pos.pos(c));
                    self.run_out_of_time(now, late, &mut events);
                } else {
                    let cell = self
                        .pos
                        .check(*x, *y)
                        .map_err(|reason| PenteError::Illegal {
                            x: *x,
                            y: *y,
                            reason,
                        })?;
                    self.charge(turn, now);
                    self.streak[turn as usize] = 0;
                    self.put_stone(cell, now, false, turn, &mut events);
                }
            }
            Action::Resign { .. } => {
                let seat = seat.unwrap_or(turn);
                events.push(PenteEvent::Resigned {
                    color: Self::color(seat),
                });
                self.finish_against(seat, "resign", now, &mut events);
            }
            Action::RequestUndo { .. } => {
                self.request_undo(seat.unwrap_or(turn), &mut events)?;
            }
            &Action::RespondUndo { accept, .. } => {
                self.respond_undo(seat.unwrap_or(turn), accept, now, &mut events)?;
            }
            Action::Swap { .. }
            | Action::PutTwo { .. }
            | Action::Declare { .. }
            | Action::Offer { .. }
            | Action::Choose { .. } => return Err(PenteError::NoOpening),
            Action::OfferDraw { .. } => {
                let seat = seat.unwrap_or(turn);
                if !self.options.draw_offer || self.options.players != 2 {
                    return Err(PenteError::DrawOffersDisabled);
                }
                if self.draw_pending_by.is_some() {
                    return Err(PenteError::DrawPending);
                }
                self.draw_pending_by = Some(seat);
                events.push(PenteEvent::DrawOffered {
                    by: Self::color(seat),
                });
            }
            Action::RespondDraw { accept, .. } => {
                let seat = seat.unwrap_or(turn);
                match self.draw_pending_by {
                    None => return Err(PenteError::NoDrawOffer),
                    Some(s) if s == seat => return Err(PenteError::OwnRequest),
                    Some(_) => {}
                }
                self.draw_pending_by = None;
                if *accept {
                    events.push(PenteEvent::DrawAccepted {
                        by: Self::color(seat),
                    });
                    self.finish(Vec::new(), "drawAgreed", None, now, &mut events);
                } else {
                    events.push(PenteEvent::DrawDeclined {
                        by: Self::color(seat),
                        auto: false,
                    });
                }
            }
            Action::CancelOffer { .. } => {
                let seat = seat.unwrap_or(turn);
                let undo = self.undo_pending.is_some_and(|(by, _)| by == seat);
                let draw = self.draw_pending_by == Some(seat);
                if !undo && !draw {
                    return Err(PenteError::NothingToCancel);
                }
                if undo {
                    self.undo_pending = None;
                    events.push(PenteEvent::UndoCancelled {
                        by: Self::color(seat),
                    });
                }
                if draw {
                    self.draw_pending_by = None;
                    events.push(PenteEvent::DrawCancelled {
                        by: Self::color(seat),
                    });
                }
            }
            Action::Timeout {
                disconnected_at,
                grace_sec,
                ..
            } => {
                if let Some(s) = seat
                    && s != turn
                {
                    return Err(PenteError::NotYourTurn(self.seats[s as usize].clone()));
                }
                let deadline = self.deadline().unwrap_or(0);
                let due = match disconnected_at {
                    Some(at) => deadline.min(
                        at.saturating_add(u64::from(grace_sec.unwrap_or(DEFAULT_GRACE_SEC)) * 1000),
                    ),
                    None => deadline,
                };
                if now < due {
                    return Err(PenteError::NotTimedOut { deadline: due, now });
                }
                self.run_out_of_time(now, None, &mut events);
            }
        }
        self.last_action_at = now;
        Ok(events)
    }

    fn run_out_of_time(&mut self, now: u64, late: Option<Pos>, events: &mut Vec<PenteEvent>) {
        let seat = self.actor();
        let auto = matches!(self.options.time_control, TimeControl::PerMove { .. })
            && self.options.timeout_policy == TimeoutPolicy::AutoMove
            && self.streak[seat as usize] < AUTO_MOVE_STREAK_LIMIT;
        if auto
            && let Some(o) = self.opening.clone().filter(|o| !o.is_finished())
            && let Some(action) = auto_action(&o, &self.pos, &mut self.rng)
            && let Ok((next, effects)) = pente_opening::validate(&o, &self.pos, seat, &action)
        {
            self.streak[seat as usize] += 1;
            events.push(PenteEvent::TimeoutAutoAction {
                color: Self::color(seat),
                action: action.name(),
                streak: self.streak[seat as usize],
                late_move: late,
            });
            self.commit_opening(seat, next, effects, now, true, events);
            return;
        }
        if auto
            && !self.in_opening()
            && let Some(cell) = auto_move(&mut self.pos, &mut self.rng)
        {
            self.streak[seat as usize] += 1;
            events.push(PenteEvent::TimeoutAutoMove {
                color: Self::color(seat),
                pt: self.pos.pos(cell),
                streak: self.streak[seat as usize],
                late_move: late,
            });
            self.put_stone(cell, now, true, seat, events);
            return;
        }
        if matches!(self.options.time_control, TimeControl::Fischer { .. }) {
            self.remaining_ms[seat as usize] = 0;
        }
        events.push(PenteEvent::TimeLoss {
            color: Self::color(seat),
            late_move: late,
        });
        self.finish_against(seat, "timeLoss", now, events);
    }

    /// Plays `cell` for the seat to move; `actor` is the seat of the player who placed it (the
    /// opening's first player places stones of both colours).
    fn put_stone(
        &mut self,
        cell: usize,
        now: u64,
        auto: bool,
        actor: u8,
        events: &mut Vec<PenteEvent>,
    ) {
        let seat = self.pos.turn();
        let Ok(report) = self.pos.play(cell) else {
            return;
        };
        let captured: Vec<CapturedStone> = report
            .removed
            .iter()
            .map(|r| CapturedStone {
                x: r.cell % self.pos.size(),
                y: r.cell / self.pos.size(),
                owner: Self::color(r.owner),
                by: r.credited.map(Self::color),
            })
            .collect();
        self.moves.push(PenteMove {
            color: Self::color(seat),
            pt: self.pos.pos(cell),
            at: now,
            auto,
            captured: captured.len(),
        });
        events.push(PenteEvent::StonePlaced {
            color: Self::color(seat),
            pt: self.pos.pos(cell),
            auto,
            move_number: self.moves.len(),
            captured,
            captures: self.captures(),
        });
        if let Some(by) = self.draw_pending_by
            && by != actor
        {
            self.draw_pending_by = None;
            events.push(PenteEvent::DrawDeclined {
                by: Self::color(actor),
                auto: true,
            });
        }
        if let Some((by, _)) = self.undo_pending {
            self.undo_pending = None;
            events.push(if by == actor {
                PenteEvent::UndoCancelled {
                    by: Self::color(by),
                }
            } else {
                PenteEvent::UndoDeclined {
                    by: Self::color(by),
                    auto: true,
                }
            });
        }
        if let Some(ext) = self.pos.extension() {
            events.push(PenteEvent::ExtensionStarted {
                maker: Self::color(ext.maker),
                lines: ext
                    .lines
                    .iter()
                    .map(|l| l.iter().map(|&c| self.pos.pos(c)).collect())
                    .collect(),
                capture_point: ext.capture_point.map(|c| self.pos.pos(c)),
            });
        }
        self.turn_started_at = now;
        if let Some(o) = self.pos.outcome().cloned() {
            let reason = match o.reason {
                EndReason::Line => "line",
                EndReason::Captures => "captures",
                EndReason::BoardFull => "boardFull",
                EndReason::NoLegalMove => "noLegalMove",
            };
            self.finish(o.winners, reason, o.line, now, events);
        }
    }

    /// Charges the Fischer bank of `seat` for the turn that ends at `now`.
    fn charge(&mut self, seat: u8, now: u64) {
        if let TimeControl::Fischer { inc_sec, .. } = self.options.time_control {
            let bank = &mut self.remaining_ms[seat as usize];
            *bank = bank.saturating_sub(now - self.turn_started_at) + u64::from(inc_sec) * 1000;
        }
    }

    /// A point of an action on this board.
    fn point(&self, q: Point) -> Result<Pos, PenteError> {
        self.pos
            .cell(q.x, q.y)
            .map(|c| self.pos.pos(c))
            .ok_or(PenteError::Illegal {
                x: q.x,
                y: q.y,
                reason: Illegal::OffBoard { x: q.x, y: q.y },
            })
    }

    /// The opening action of a referee action during the opening (`None`: not an opening action;
    /// undo requests are refused here).
    fn opening_input(&self, action: &Action) -> Result<Option<OpeningAction>, PenteError> {
        Ok(Some(match action {
            &Action::Place { x, y, .. } => OpeningAction::Place(self.point(Point { x, y })?),
            &Action::Swap { swap, .. } => OpeningAction::Swap(swap),
            Action::PutTwo { points, .. } => {
                OpeningAction::PutTwo([self.point(points[0])?, self.point(points[1])?])
            }
            &Action::Declare { count, .. } => OpeningAction::Declare(count),
            Action::Offer { points, .. } => OpeningAction::Offer(
                points
                    .iter()
                    .map(|&q| self.point(q))
                    .collect::<Result<_, _>>()?,
            ),
            &Action::Choose { x, y, .. } => OpeningAction::Choose(self.point(Point { x, y })?),
            Action::RequestUndo { .. } | Action::RespondUndo { .. } => {
                return Err(PenteError::UndoInOpening);
            }
            _ => return Ok(None),
        }))
    }

    /// The referee's error for a refused opening action of `seat`.
    fn opening_error(&self, seat: u8, e: PenteOpeningError) -> PenteError {
        match e {
            PenteOpeningError::Rule(OpeningError::NotYourTurn { .. }) => {
                PenteError::NotYourTurn(self.seats[seat as usize].clone())
            }
            PenteOpeningError::Rule(OpeningError::Finished) => PenteError::NoOpening,
            PenteOpeningError::Rule(OpeningError::Occupied { x, y }) => PenteError::Illegal {
                x: x as i64,
                y: y as i64,
                reason: Illegal::Occupied,
            },
            PenteOpeningError::Rule(OpeningError::OffBoard { x, y }) => {
                let (x, y) = (x as i64, y as i64);
                PenteError::Illegal {
                    x,
                    y,
                    reason: Illegal::OffBoard { x, y },
                }
            }
            PenteOpeningError::Rule(e) => PenteError::Opening(e),
            PenteOpeningError::Illegal { x, y, reason } => PenteError::Illegal {
                x: x as i64,
                y: y as i64,
                reason,
            },
        }
    }

    /// An opening action by the player on `seat` at `now`.
    fn opening_act(
        &mut self,
        seat: u8,
        action: OpeningAction,
        now: u64,
        events: &mut Vec<PenteEvent>,
    ) -> Result<(), PenteError> {
        let Some(o) = self.opening.clone().filter(|o| !o.is_finished()) else {
            return Err(PenteError::NoOpening);
        };
        if actor_seat(&o) != seat {
            return Err(PenteError::NotYourTurn(self.seats[seat as usize].clone()));
        }
        if self.deadline().is_some_and(|d| now >= d) {
            self.run_out_of_time(now, action.point(), events);
            return Ok(());
        }
        let (next, effects) = pente_opening::validate(&o, &self.pos, seat, &action)
            .map_err(|e| self.opening_error(seat, e))?;
        self.charge(seat, now);
        self.streak[seat as usize] = 0;
        self.commit_opening(seat, next, effects, now, false, events);
        Ok(())
    }

    /// Applies validated opening effects of the player on `seat`.
    fn commit_opening(
        &mut self,
        seat: u8,
        next: Opening,
        effects: Vec<Effect>,
        now: u64,
        auto: bool,
        events: &mut Vec<PenteEvent>,
    ) {
        self.opening = Some(next);
        for e in effects {
            match e {
                Effect::Stone(p, _) => {
                    let Some(cell) = self.pos.cell_of(p) else {
                        continue;
                    };
                    self.put_stone(cell, now, auto, seat, events);
                    self.opening_stones += 1;
                    if self.result.is_some() {
                        return;
                    }
                }
                Effect::Swapped(swap) => {
                    let by = Self::color(seat);
                    if swap {
                        self.swap_seats();
                    }
                    events.push(PenteEvent::SwapDecided {
                        by,
                        swap,
                        white: self.seats[0].clone(),
                        black: self.seats[1].clone(),
                    });
                }
                Effect::Finished(turn) => events.push(PenteEvent::OpeningFinished {
                    turn: Self::color(seat_of_color(turn)),
                }),
                // Declarations and offers are not part of Pente's rules.
                Effect::Declared(_) | Effect::Offered(_) | Effect::Chosen(_) => {}
            }
        }
        self.turn_started_at = now;
    }

    /// Exchanges the two players' seats and everything kept per seat.
    fn swap_seats(&mut self) {
        self.seats.swap(0, 1);
        self.remaining_ms.swap(0, 1);
        self.streak.swap(0, 1);
        self.undo_used.swap(0, 1);
        self.draw_pending_by = self.draw_pending_by.map(|s| 1 - s);
        self.undo_pending = self.undo_pending.map(|(s, n)| (1 - s, n));
    }

    /// Undos `seat` has left (`None`: unlimited).
    pub fn undo_remaining(&self, seat: u8) -> Option<u32> {
        self.options
            .undo
            .remaining(self.undo_used.get(seat as usize).copied().unwrap_or(0))
    }

    fn request_undo(&mut self, seat: u8, events: &mut Vec<PenteEvent>) -> Result<(), PenteError> {
        let limit = self.options.undo;
        if !limit.enabled() || self.options.players != 2 {
            return Err(PenteError::UndoDisabled);
        }
        if let (Some(0), UndoLimit::Limited(n)) = (self.undo_remaining(seat), limit) {
            return Err(PenteError::UndoExhausted { limit: n });
        }
        if self.undo_pending.is_some() {
            return Err(PenteError::UndoPending);
        }
        if self.in_opening() {
            return Err(PenteError::UndoInOpening);
        }
        let me = Self::color(seat);
        let last = self.moves.last().ok_or(PenteError::NothingToUndo)?;
        if !self.moves.iter().any(|m| m.color == me) {
            return Err(PenteError::NothingToUndo);
        }
        let plies: u8 = if last.color == me { 1 } else { 2 };
        if self.moves.len() < self.opening_stones + usize::from(plies) {
            return Err(PenteError::UndoInOpening);
        }
        self.undo_pending = Some((seat, plies));
        events.push(PenteEvent::UndoRequested { by: me, plies });
        Ok(())
    }

    fn respond_undo(
        &mut self,
        seat: u8,
        accept: bool,
        now: u64,
        events: &mut Vec<PenteEvent>,
    ) -> Result<(), PenteError> {
        let (by, plies) = self.undo_pending.ok_or(PenteError::NoUndoRequest)?;
        if by == seat {
            return Err(PenteError::OwnRequest);
        }
        self.undo_pending = None;
        if !accept {
            events.push(PenteEvent::UndoDeclined {
                by: Self::color(by),
                auto: false,
            });
            return Ok(());
        }
        let n = self.pos.size();
        let mut removed = Vec::new();
        let mut restored = Vec::new();
        for _ in 0..plies {
            let Some(m) = self.moves.pop() else { break };
            let before: Vec<u8> = self.pos.cells().to_vec();
            self.pos.undo();
            removed.push(m.pt);
            for (c, (&was, &now_v)) in before.iter().zip(self.pos.cells()).enumerate() {
                if was == 0 && now_v != 0 {
                    restored.push(CapturedStone {
                        x: c % n,
                        y: c / n,
                        owner: Self::color(now_v - 1),
                        by: None,
                    });
                }
            }
        }
        self.undo_used[by as usize] += 1;
        self.turn_started_at = now;
        events.push(PenteEvent::UndoAccepted {
            by: Self::color(by),
            plies,
            removed,
            restored,
            captures: self.captures(),
        });
        Ok(())
    }

    fn captures(&self) -> Vec<u32> {
        self.pos.captures()[..self.options.players as usize].to_vec()
    }

    /// Ends the game with every side but `loser`'s team winning.
    fn finish_against(
        &mut self,
        loser: u8,
        reason: &'static str,
        now: u64,
        ev: &mut Vec<PenteEvent>,
    ) {
        let rules = self.options.rules();
        let winners: Vec<u8> = (0..rules.players)
            .filter(|&s| rules.team(s) != rules.team(loser))
            .collect();
        self.finish(winners, reason, None, now, ev);
    }

    fn finish(
        &mut self,
        winners: Vec<u8>,
        reason: &'static str,
        line: Option<Vec<Pos>>,
        now: u64,
        events: &mut Vec<PenteEvent>,
    ) {
        let _ = now;
        let names: Vec<&'static str> = winners.iter().map(|&s| Self::color(s)).collect();
        if winners.is_empty() {
            events.push(PenteEvent::Draw { reason });
        } else {
            events.push(PenteEvent::Win {
                winners: names.clone(),
                reason,
                line: line.clone(),
            });
        }
        let mut ranking: Vec<PenteRank> = Vec::new();
        let all_first = winners.is_empty();
        for pass in [true, false] {
            for s in 0..self.options.players {
                if (all_first || winners.contains(&s)) == pass {
                    ranking.push(PenteRank {
                        player_id: self.seats[s as usize].clone(),
                        rank: if pass { 1 } else { 2 },
                    });
                }
            }
        }
        let mc = self.moves.len();
        let (why_ko, why_en) = match reason {
            "line" => (
                format!("{}목", self.options.rules().line_len()),
                format!("{} in a row", self.options.rules().line_len()),
            ),
            "captures" => ("따낸 돌 승리".to_string(), "captured stones".to_string()),
            "resign" => ("기권".into(), "resignation".into()),
            "timeLoss" => ("시간패".into(), "time loss".into()),
            "drawAgreed" => ("합의".into(), "agreed".into()),
            "noLegalMove" => ("둘 곳 없음".into(), "no legal move".into()),
            _ => ("판이 가득 참".into(), "board full".into()),
        };
        let (summary_ko, summary_en) = if winners.is_empty() {
            (
                format!("무승부 ({why_ko}, {mc}수)"),
                format!("Draw ({why_en}, {mc} moves)"),
            )
        } else {
            let ko: Vec<&str> = winners
                .iter()
                .map(|&s| SEAT_COLORS_KO[s as usize])
                .collect();
            (
                format!("{} 승 ({why_ko}, {mc}수)", ko.join("·")),
                format!(
                    "{} win{} ({why_en}, {mc} moves)",
                    names.join(" & "),
                    if names.len() == 1 { "s" } else { "" }
                ),
            )
        };
        self.draw_pending_by = None;
        self.result = Some(PenteResult {
            ranking,
            winners: names,
            reason,
            win_line: line,
            move_count: mc,
            captures: self.captures(),
            summary_ko,
            summary_en,
        });
    }

    /// The stable state hash (FNV-1a over options, seed, seats, stones, captures, record, turn,
    /// extension, clocks, draw offer, result and the RNG's next outputs).
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv1a::default();
        h.str("omok-pente-game/1");
        h.str(&serde_json::to_string(&self.options).unwrap_or_default());
        h.u64(self.seed);
        for s in &self.seats {
            h.str(s);
        }
        h.write(self.pos.cells());
        for c in self.captures() {
            h.u64(u64::from(c));
        }
        h.u64(self.moves.len() as u64);
        for m in &self.moves {
            h.str(m.color);
            h.u64(m.pt.x() as u64);
            h.u64(m.pt.y() as u64);
            h.u64(m.at);
            h.write(&[u8::from(m.auto)]);
        }
        h.u64(u64::from(self.pos.turn()));
        match self.pos.extension() {
            None => h.write(&[0]),
            Some(e) => {
                h.write(&[1, e.maker]);
                for l in &e.lines {
                    h.u64(l.len() as u64);
                    for &c in l {
                        h.u64(c as u64);
                    }
                }
                h.opt(e.capture_point.map(|c| c as u64));
            }
        }
        for (b, s) in self.remaining_ms.iter().zip(&self.streak) {
            h.u64(*b);
            h.u64(u64::from(*s));
        }
        h.u64(self.turn_started_at);
        h.u64(self.last_action_at);
        h.opt(self.draw_pending_by.map(u64::from));
        match &self.opening {
            None => h.write(&[0]),
            Some(o) => {
                h.write(&[1, u8::from(o.swapped()), u8::from(o.is_finished())]);
                h.u64(o.steps_left() as u64);
                h.str(&format!("{:?}", o.pending()));
                h.u64(u64::from(seat_of_color(o.next_to_move())));
            }
        }
        h.u64(self.opening_stones as u64);
        for u in &self.undo_used {
            h.u64(u64::from(*u));
        }
        h.opt(
            self.undo_pending
                .map(|(s, n)| u64::from(s) << 8 | u64::from(n)),
        );
        match &self.result {
            None => h.write(&[0]),
            Some(r) => h.str(&serde_json::to_string(r).unwrap_or_default()),
        }
        let mut rng = self.rng.clone();
        for _ in 0..4 {
            h.u64(rng.next_u64());
        }
        h.finish()
    }

    /// The hash as 16 hex digits.
    pub fn state_hash_hex(&self) -> String {
        format!("{:016x}", self.state_hash())
    }

    /// The illegal empty points of the seat to move, with their codes.
    fn forbidden_points(&self) -> Option<Vec<Value>> {
        if self.result.is_some() || self.in_opening() || !self.options.show_forbidden {
            return None;
        }
        let mut pos = self.pos.clone();
        let n = pos.size();
        let mut out = Vec::new();
        for c in 0..n * n {
            if pos.cells()[c] != 0 {
                continue;
            }
            if let Err(reason) = pos.check((c % n) as i64, (c / n) as i64) {
                let code = PenteError::Illegal { x: 0, y: 0, reason }.code();
                out.push(json!({"x": c % n, "y": c / n, "reason": code}));
            }
        }
        Some(out)
    }

    /// The view of one seat (`Some(seat)`) or of spectators (`None`).
    pub fn view(&self, viewer: Option<u8>) -> Value {
        let forbidden = (viewer.is_none() || viewer == Some(self.actor()))
            .then(|| self.forbidden_points())
            .flatten();
        self.view_with(viewer, forbidden)
    }

    fn view_with(&self, viewer: Option<u8>, forbidden: Option<Vec<Value>>) -> Value {
        let n = self.options.players as usize;
        let rules = self.options.rules();
        let seats: Vec<Value> = (0..n)
            .map(|s| {
                json!({"id": self.seats[s], "color": SEAT_COLORS[s],
                    "team": rules.team(s as u8)})
            })
            .collect();
        let ext = self.pos.extension().map(|e| {
            json!({
                "maker": Self::color(e.maker),
                "lines": e.lines.iter().map(|l| l.iter().map(|&c| self.pos.pos(c)).collect::<Vec<_>>()).collect::<Vec<_>>(),
                "capturePoint": e.capture_point.map(|c| self.pos.pos(c)),
            })
        });
        let mut v = json!({
            "viewer": viewer.map_or("spectator", Self::color),
            "options": self.options,
            "rule": "pente",
            "size": self.pos.size(),
            "seats": seats,
            "board": self.pos.cells(),
            "captures": self.captures(),
            "captureTarget": rules.capture_target(),
            "lineLength": rules.line_len(),
            "turn": Self::color(self.actor()),
            "phase": self.phase(),
            "opening": self.opening_view(),
            "undo": {
                "pendingBy": self.undo_pending.map(|(s, _)| Self::color(s)),
                "plies": self.undo_pending.map(|(_, n)| n),
                "remaining": (0..n as u8).map(|s| self.undo_remaining(s)).collect::<Vec<_>>(),
            },
            "moves": self.moves,
            "lastMove": self.moves.last().map(|m| m.pt),
            "extension": ext,
            "clock": {
                "kind": self.options.time_control.kind_name(),
                "remainingMs": matches!(self.options.time_control, TimeControl::Fischer { .. })
                    .then(|| self.remaining_ms.clone()),
                "turnStartedAt": self.turn_started_at,
                "deadline": self.deadline(),
                "autoMoveStreak": self.streak,
            },
            "draw": {"pendingBy": self.draw_pending_by.map(Self::color)},
            "result": self.result,
        });
        if let Some(f) = forbidden {
            v["forbiddenPoints"] = Value::Array(f);
        }
        v
    }

    /// The opening's public state (`null` without Swap / Swap2): the rule, whether it is over,
    /// who started it, whether the players hold exchanged colours, and the pending step.
    fn opening_view(&self) -> Value {
        let Some(o) = &self.opening else {
            return Value::Null;
        };
        let pending = o
            .pending()
            .map(|p| PendingView::of(o, p, |by| self.seats[seat_of_color(by) as usize].clone()));
        let first = seat_of_color(o.color_of(Side::First));
        json!({
            "rule": o.rule().to_string(),
            "finished": o.is_finished(),
            "firstPlayer": self.seats[first as usize],
            "swapped": o.swapped(),
            "pending": pending,
            "stonesPlaced": self.opening_stones,
        })
    }

    /// Every seat's view and the spectators', keyed by colour and `spectator`.
    pub fn views(&self) -> BTreeMap<&'static str, Value> {
        let forbidden = self.forbidden_points();
        let turn = self.actor();
        let mut out = BTreeMap::new();
        for s in 0..self.options.players {
            let f = (s == turn).then(|| forbidden.clone()).flatten();
            out.insert(Self::color(s), self.view_with(Some(s), f));
        }
        out.insert("spectator", self.view_with(None, forbidden));
        out
    }

    /// The session's output line for an accepted setup or action.
    pub fn ok_line(&self, seq: usize, events: &[PenteEvent]) -> Value {
        json!({
            "ok": true,
            "seq": seq,
            "events": events,
            "phase": self.phase(),
            "deadline": self.deadline(),
            "hash": self.state_hash_hex(),
            "views": self.views(),
        })
    }

    /// The session's final line.
    pub fn final_line(&self) -> Value {
        json!({
            "final": true,
            "result": self.result,
            "moveCount": self.moves.len(),
            "hash": self.state_hash_hex(),
        })
    }
}

/// Whether a setup line asks for Pente (`"options": {"ruleSet": "pente"}`).
pub fn is_pente_setup(line: &str) -> bool {
    serde_json::from_str::<Value>(line)
        .ok()
        .is_some_and(|v| v["options"]["ruleSet"] == "pente")
}
