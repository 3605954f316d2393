//! Helpers of `tests/referee.rs`: action constructors, a [`Table`] that plays moves by renju
//! coordinates with a ticking clock, and [`rejected`], which checks that a failed action left the
//! state hash unchanged.
#![allow(dead_code)]

use super::common::renju;
use omok::game::options::ColorAssignment;
use omok::game::{Action, Event, Game, GameError, GameOptions, ResultReason, Setup};
use omok::{Color, Pos};

pub const HOST: &str = "host";
pub const GUEST: &str = "guest";

pub fn place(player: &str, x: i64, y: i64, now: u64) -> Action {
    let player = player.into();
    Action::Place { player, x, y, now }
}

/// A timeout; with `dc = Some((player, disconnected_at, grace_sec))` a disconnection timeout.
pub fn timeout(now: u64, dc: Option<(&str, u64, u32)>) -> Action {
    Action::Timeout {
        now,
        player: dc.map(|d| d.0.to_string()),
        disconnected_at: dc.map(|d| d.1),
        grace_sec: dc.map(|d| d.2),
    }
}

/// A game and the time of its last action.
pub struct Table {
    pub game: Game,
    pub now: u64,
}

pub fn options(json: &str) -> GameOptions {
    let mut o: GameOptions = serde_json::from_str(json).unwrap();
    if !json.contains("colorAssignment") {
        o.color_assignment = ColorAssignment::HostBlack;
    }
    o
}

pub fn setup(json: &str, seed: u64) -> Setup {
    let mut s = Setup::new(seed, HOST, GUEST);
    s.options = options(json);
    s
}

impl Table {
    pub fn new(json: &str) -> Table {
        Table::seeded(json, 7)
    }

    pub fn seeded(json: &str, seed: u64) -> Table {
        let (game, events) = Game::new(&setup(json, seed)).unwrap();
        assert!(matches!(events[0], Event::GameStarted { .. }));
        Table { game, now: 0 }
    }

    pub fn tick(&mut self) -> u64 {
        self.now += 1000;
        self.now
    }

    pub fn id(&self, c: Color) -> String {
        self.game.player(c).to_string()
    }

    pub fn pos(&self, pt: &str) -> Pos {
        renju(pt, self.game.board().height())
    }

    pub fn place_action(&mut self, p: Pos) -> Action {
        let now = self.tick();
        place(&self.id(self.game.turn()), p.x() as i64, p.y() as i64, now)
    }

    pub fn place(&mut self, pt: &str) -> Result<Vec<Event>, GameError> {
        let a = self.place_action(self.pos(pt));
        self.game.apply(&a)
    }

    pub fn place_at(&mut self, p: Pos) -> Result<Vec<Event>, GameError> {
        let a = self.place_action(p);
        self.game.apply(&a)
    }

    /// Plays the first empty point of `candidates` for the player to move.
    pub fn play_any(&mut self, candidates: &str) {
        let p = candidates
            .split_whitespace()
            .map(|m| self.pos(m))
            .find(|&p| self.game.board().is_empty(p))
            .expect("an empty candidate");
        self.place_at(p).unwrap();
    }

    pub fn play(&mut self, moves: &str) {
        for m in moves.split_whitespace() {
            self.place(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    /// Plays black's and white's stones alternately, black first.
    pub fn setup_stones(&mut self, black: &str, white: &str) {
        let (b, w): (Vec<_>, Vec<_>) = (
            black.split_whitespace().collect(),
            white.split_whitespace().collect(),
        );
        for i in 0..b.len().max(w.len()) {
            for m in [b.get(i), w.get(i)].into_iter().flatten() {
                self.place(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            }
        }
    }

    pub fn act(
        &mut self,
        c: Color,
        make: fn(String, u64) -> Action,
    ) -> Result<Vec<Event>, GameError> {
        let a = make(self.id(c), self.tick());
        self.game.apply(&a)
    }

    /// A timeout at exactly the deadline.
    pub fn time_out(&mut self) -> Vec<Event> {
        self.now = self.game.deadline().unwrap();
        self.game.apply(&timeout(self.now, None)).unwrap()
    }
}

/// Applies an action that must fail; asserts the state hash is unchanged and returns the error.
pub fn rejected(t: &mut Table, action: &Action) -> GameError {
    let before = t.game.state_hash();
    let e = t.game.apply(action).unwrap_err();
    assert_eq!(t.game.state_hash(), before, "{e}: the state changed");
    e
}

/// [`rejected`] for an action of `c` at the current time.
pub fn rejected_act(t: &mut Table, c: Color, make: fn(String, u64) -> Action) -> GameError {
    let a = make(t.id(c), t.now);
    rejected(t, &a)
}

pub fn rejected_place(t: &mut Table, pt: &str) -> GameError {
    let a = t.place_action(t.pos(pt));
    t.now -= 1000;
    rejected(t, &a)
}

pub fn request_undo(player: String, now: u64) -> Action {
    Action::RequestUndo { player, now }
}
pub fn accept_undo(player: String, now: u64) -> Action {
    Action::RespondUndo {
        player,
        accept: true,
        now,
    }
}
pub fn decline_undo(player: String, now: u64) -> Action {
    Action::RespondUndo {
        player,
        accept: false,
        now,
    }
}
pub fn offer_draw(player: String, now: u64) -> Action {
    Action::OfferDraw { player, now }
}
pub fn accept_draw(player: String, now: u64) -> Action {
    Action::RespondDraw {
        player,
        accept: true,
        now,
    }
}
pub fn decline_draw(player: String, now: u64) -> Action {
    Action::RespondDraw {
        player,
        accept: false,
        now,
    }
}
pub fn resign(player: String, now: u64) -> Action {
    Action::Resign { player, now }
}

pub fn result_of(t: &Table) -> (Option<Color>, ResultReason, String) {
    let r = t.game.result().expect("the game is over");
    (r.winner, r.reason, r.summary_ko.clone())
}

pub const CORNERS: &str = "a1 a15 o1 o15";
