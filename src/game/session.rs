//! The JSON-lines process interface of the referee (`pbrain-omok referee`), as pure functions
//! over lines: [`Session::handle_line`] takes one input line and returns the output line, and
//! [`Session::finish`] the line written at end of input. The binary only moves lines between
//! stdin and stdout.
//!
//! # Input
//! Blank lines are skipped. The first line is the setup ([`super::Setup`]):
//! ```json
//! {"options":{"ruleSet":"renju","timeControl":{"kind":"fischer","baseSec":300,"incSec":3}},
//!  "seed":42,"players":{"host":"alice","guest":"bob"},"previousBlack":"bob","now":0}
//! ```
//! A player may be a seat the session plays itself, `{"engine": {"strength": 50}, "id": "cpu"}`,
//! when the session has a [`SeatFactory`] (`pbrain-omok referee` seats the engine,
//! [`crate::engine_seat`]); see [`Seat`].
//! `options` may be left out (all defaults) or partial; `seed` is a number or a decimal string;
//! `previousBlack` (for `colorAssignment: alternate`) and `now` (ms, default 0) are optional.
//! Unknown keys are errors. Until a setup line is accepted, each line is read as a setup.
//! Every later line is one action ([`super::Action`]), `now` in ms, unknown keys rejected:
//! ```json
//! {"type":"place","player":"alice","x":7,"y":7,"now":1500}
//! {"type":"requestUndo","player":"bob","now":2000}
//! {"type":"respondUndo","player":"alice","accept":true,"now":2100}
//! {"type":"offerDraw","player":"alice","now":2200}
//! {"type":"respondDraw","player":"bob","accept":false,"now":2300}
//! {"type":"cancelOffer","player":"alice","now":2400}
//! {"type":"resign","player":"bob","now":2500}
//! {"type":"timeout","now":31500}
//! {"type":"timeout","now":9000,"player":"bob","disconnectedAt":3000,"graceSec":5}
//! {"type":"swap","player":"bob","swap":true,"now":4000}
//! {"type":"putTwo","player":"bob","points":[{"x":6,"y":6},{"x":9,"y":9}],"now":5000}
//! {"type":"declare","player":"bob","count":3,"now":6000}
//! {"type":"offer","player":"alice","points":[{"x":4,"y":4},{"x":4,"y":10}],"now":7000}
//! {"type":"choose","player":"bob","x":4,"y":10,"now":8000}
//! ```
//! (the last five only during an opening rule's steps, [`super::opening`]).
//!
//! # Output
//! One line per input line (none for blank lines):
//! - accepted setup or action:
//!   `{"ok":true,"seq":N,"events":[…],"phase":"playing","deadline":31500,"hash":"…","views":{"black":{…},"white":{…},"spectator":{…}}}`
//!   (`seq` is 0 for the setup, then counts action lines, accepted or not; `phase` is
//!   `opening`, `playing` or `finished`; `deadline` is `null` once the game is over; the views
//!   are [`super::GameView`]s; `seatActions` lists the actions seats took after the line, their
//!   events being part of `events`);
//! - rejected line: `{"ok":false,"seq":N,"error":{"code":"occupied","message_ko":"이미 돌이 있는 자리예요","message_en":"(7,7) is already occupied"},"hash":"…"}`
//!   with the hash of the unchanged state (`null` before the setup). Codes are those of
//!   [`super::GameError::code`] plus `malformedSetup` and `malformedAction` (not JSON, wrong
//!   shape, unknown `type`, unknown or missing fields, bad value types).
//!
//! At end of input: `{"final":true,"result":{…}|null,"moveCount":N,"hash":"…"}` (`hash` `null`
//! and an `error` with code `noGame` when no setup was accepted).
//!
//! Events (`events[].type`): `gameStarted {black, white, rule}`, `stonePlaced {color, pt, auto,
//! moveNumber}`, `win {color, reason, line}`, `draw {reason}`, `foul {color, pt, kind}`,
//! `undoRequested {by, plies}`, `undoAccepted {by, plies, removed}`, `undoDeclined {by, auto}`,
//! `undoCancelled {by}`, `drawOffered {by}`, `drawAccepted {by}`, `drawDeclined {by, auto}`,
//! `drawCancelled {by}`, `resigned {color}`, `timeoutAutoMove {color, pt, streak, lateMove?}`,
//! `timeLoss {color, lateMove?}`; in the opening `swapDecided {by, swap, black, white}`,
//! `fifthMovesDeclared {by, count}`, `fifthMovesOffered {by, points}`, `offerChosen {by, pt}`,
//! `openingFinished {turn}`, `timeoutAutoAction {color, action, streak, lateMove?}`. Points are `{"x":…,"y":…}`, 0-based, y from the top.

use serde::Serialize;
use serde_json::{Value, json};
use thiserror::Error;

use super::actions::{Action, Event};
use super::error::{ErrorInfo, GameError};
use super::options::Setup;
use super::state::{Game, Phase};
use crate::pente::referee::{PenteGame, PenteSetup, is_pente_setup};

/// Why a line was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SessionError {
    /// The setup line is not JSON or not a setup.
    #[error("malformed setup line: {0}")]
    MalformedSetup(String),
    /// An action line is not JSON or not an action.
    #[error("malformed action: {0}")]
    MalformedAction(String),
    /// The referee rejected the setup or the action.
    #[error(transparent)]
    Game(#[from] GameError),
}

impl SessionError {
    /// The error as JSON: code and both messages.
    pub fn info(&self) -> ErrorInfo {
        match self {
            SessionError::MalformedSetup(d) => ErrorInfo {
                code: "malformedSetup".into(),
                message_ko: format!("설정 줄을 읽을 수 없어요: {d}"),
                message_en: self.to_string(),
            },
            SessionError::MalformedAction(d) => ErrorInfo {
                code: "malformedAction".into(),
                message_ko: format!("액션을 읽을 수 없어요: {d}"),
                message_en: self.to_string(),
            },
            SessionError::Game(e) => e.info(),
        }
    }
}

/// A seat the session plays itself (the engine, for example).
///
/// After the setup and after every accepted line, the session asks each seat whose player must
/// act — the player to move, or the one an undo request or draw offer waits for — for an action,
/// applies it at the same `now` as the line that led to it, and reports its events in the same
/// output line, with the actions themselves under `seatActions` (so that a log of all actions
/// replays the game with [`Game::replay`]). At most [`MAX_SEAT_ACTIONS`] follow one line (two
/// seats playing each other continue with the next line); a refused seat action stops them until
/// the next line.
pub trait Seat {
    /// The action of `player` in `game` at `now`, or `None` to do nothing.
    fn act(&mut self, game: &Game, player: &str, now: u64) -> Option<Action>;
}

/// Builds a seat from its description in the setup (the object of `{"engine": {…}}`) and the
/// accepted setup; an error text for a bad description.
pub type SeatFactory = Box<dyn Fn(&Value, &Setup) -> Result<Box<dyn Seat>, String>>;

/// The most seat actions after one line (a guard against seats that never stop).
pub const MAX_SEAT_ACTIONS: usize = 64;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OkLine<'a> {
    ok: bool,
    seq: usize,
    events: &'a [Event],
    #[serde(skip_serializing_if = "<[Action]>::is_empty")]
    seat_actions: &'a [Action],
    phase: Phase,
    deadline: Option<u64>,
    hash: String,
    views: super::view::Views,
}

#[derive(Serialize)]
struct ErrorLine {
    ok: bool,
    seq: usize,
    error: ErrorInfo,
    hash: Option<String>,
}

/// One referee session: a game once the setup line is accepted (a Pente game when the setup's
/// `ruleSet` is `pente`, see [`crate::pente::referee`]).
#[derive(Default)]
pub struct Session {
    game: Option<Game>,
    pente: Option<PenteGame>,
    seq: usize,
    factory: Option<SeatFactory>,
    seats: Vec<(String, Box<dyn Seat>)>,
}

/// Parses JSON text into `T`, reporting the problem without serde's line/column noise for
/// shape errors.
fn parse<T: serde::de::DeserializeOwned>(line: &str) -> Result<T, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    serde_json::from_value(value).map_err(|e| e.to_string())
}

impl Session {
    /// A session waiting for its setup line.
    pub fn new() -> Session {
        Session::default()
    }

    /// A session whose setups may name seats played by `factory` (`pbrain-omok referee` gives
    /// the engine's).
    pub fn with_seats(factory: SeatFactory) -> Session {
        Session {
            factory: Some(factory),
            ..Session::default()
        }
    }

    /// The game, once set up.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Handles one input line; `None` for a blank line.
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        let line = line.trim();
        if line.is_empty() {
            return None;
        }
        if self.pente.is_some() || (self.game.is_none() && is_pente_setup(line)) {
            return Some(self.handle_pente_line(line));
        }
        let outcome = match self.game.as_mut() {
            None => self.start(line).map(|(game, events)| {
                self.game = Some(game);
                events
            }),
            Some(game) => {
                self.seq += 1;
                parse::<Action>(line)
                    .map_err(SessionError::MalformedAction)
                    .and_then(|a| game.apply(&a).map_err(SessionError::from))
            }
        };
        let mut seat_actions = Vec::new();
        let outcome = outcome.map(|mut events| {
            self.run_seats(&mut events, &mut seat_actions);
            events
        });
        let text = match (outcome, &self.game) {
            (Ok(events), Some(game)) => serde_json::to_string(&OkLine {
                ok: true,
                seq: self.seq,
                events: &events,
                seat_actions: &seat_actions,
                phase: game.phase(),
                deadline: game.deadline(),
                hash: game.state_hash_hex(),
                views: game.views(),
            }),
            (Ok(_), None) => Ok(String::new()),
            (Err(e), game) => serde_json::to_string(&ErrorLine {
                ok: false,
                seq: self.seq,
                error: e.info(),
                hash: game.as_ref().map(|g| g.state_hash_hex()),
            }),
        };
        Some(text.unwrap_or_else(|e| {
            json!({"ok": false, "error": {"code": "internal", "message_ko": "내부 오류예요",
                "message_en": format!("internal error: {e}")}})
            .to_string()
        }))
    }

    /// One line of a Pente session (same output shapes as omok's).
    fn handle_pente_line(&mut self, line: &str) -> String {
        let outcome = match self.pente.as_mut() {
            None => parse::<PenteSetup>(line)
                .map_err(|d| SessionError::MalformedSetup(d).info())
                .and_then(|s| PenteGame::new(&s).map_err(|e| e.info()))
                .map(|(game, events)| {
                    let line = game.ok_line(0, &events);
                    self.pente = Some(game);
                    line
                }),
            Some(game) => {
                self.seq += 1;
                parse::<Action>(line)
                    .map_err(|d| SessionError::MalformedAction(d).info())
                    .and_then(|a| game.apply(&a).map_err(|e| e.info()))
                    .map(|events| game.ok_line(self.seq, &events))
            }
        };
        match outcome {
            Ok(v) => v.to_string(),
            Err(error) => json!({
                "ok": false,
                "seq": self.seq,
                "error": error,
                "hash": self.pente.as_ref().map(|g| g.state_hash_hex()),
            })
            .to_string(),
        }
    }

    /// Reads a setup line: seats described as `{"engine": {…}, "id": "…"}` in `players` become
    /// their ids (default `engine`, or `engine-host` / `engine-guest` when both are seats) and
    /// are built by the factory.
    fn start(&mut self, line: &str) -> Result<(Game, Vec<Event>), SessionError> {
        let bad = SessionError::MalformedSetup;
        let mut value: Value = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
        let mut described = Vec::new();
        if let Some(players) = value.get_mut("players").and_then(Value::as_object_mut) {
            let both = ["host", "guest"]
                .iter()
                .all(|k| players.get(*k).is_some_and(Value::is_object));
            for key in ["host", "guest"] {
                let Some(Value::Object(seat)) = players.get(key) else {
                    continue;
                };
                let mut seat = seat.clone();
                let spec = seat
                    .remove("engine")
                    .ok_or_else(|| bad(format!("players.{key}: an id or {{\"engine\": {{…}}}}")))?;
                let id = match seat.remove("id") {
                    Some(Value::String(id)) => id,
                    None if both => format!("engine-{key}"),
                    None => "engine".to_string(),
                    Some(other) => {
                        return Err(bad(format!("players.{key}.id: {other} is not a string")));
                    }
                };
                if let Some(k) = seat.keys().next() {
                    return Err(bad(format!("players.{key}: unknown field `{k}`")));
                }
                players.insert(key.to_string(), Value::String(id.clone()));
                described.push((id, spec));
            }
        }
        let setup: Setup = serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
        let (game, events) = Game::new(&setup)?;
        let mut seats = Vec::new();
        for (id, spec) in described {
            let factory = self
                .factory
                .as_ref()
                .ok_or_else(|| bad("this referee has no engine to seat".into()))?;
            let seat = factory(&spec, &setup).map_err(|e| bad(format!("engine seat {id}: {e}")))?;
            seats.push((id, seat));
        }
        self.seats = seats;
        Ok((game, events))
    }

    /// Lets the seats act while one of them must (see [`Seat`]).
    fn run_seats(&mut self, events: &mut Vec<Event>, actions: &mut Vec<Action>) {
        let Some(game) = self.game.as_mut() else {
            return;
        };
        for _ in 0..MAX_SEAT_ACTIONS {
            if game.result().is_some() {
                return;
            }
            let now = game.last_action_at();
            let waiting = |id: &str| {
                let c = game.color_of(id);
                c == Some(game.turn())
                    || game.undo_pending().is_some_and(|r| Some(r.by) != c)
                    || game.draw_pending_by().is_some_and(|by| Some(by) != c)
            };
            let Some((id, seat)) = self.seats.iter_mut().find(|(id, _)| waiting(id)) else {
                return;
            };
            let Some(action) = seat.act(game, id, now) else {
                return;
            };
            match game.apply(&action) {
                Ok(mut more) => {
                    events.append(&mut more);
                    actions.push(action);
                }
                Err(_) => return,
            }
        }
    }

    /// The line written at end of input: the result and the final state hash.
    pub fn finish(&self) -> String {
        if let Some(p) = &self.pente {
            return p.final_line().to_string();
        }
        match &self.game {
            Some(g) => json!({
                "final": true,
                "result": g.result(),
                "moveCount": g.moves().len(),
                "hash": g.state_hash_hex(),
            }),
            None => json!({
                "final": true,
                "result": null,
                "moveCount": 0,
                "hash": null,
                "error": {"code": "noGame", "message_ko": "시작된 게임이 없어요",
                    "message_en": "no setup line was accepted, so there is no game"},
            }),
        }
        .to_string()
    }
}

/// Runs a whole session over `lines` and returns every output line, the final one included.
pub fn run_lines<S: AsRef<str>>(lines: impl IntoIterator<Item = S>) -> Vec<String> {
    let mut session = Session::new();
    let mut out: Vec<String> = lines
        .into_iter()
        .filter_map(|l| session.handle_line(l.as_ref()))
        .collect();
    out.push(session.finish());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    const SETUP: &str = r#"{"options":{"colorAssignment":"hostBlack"},"seed":1,"players":{"host":"a","guest":"b"}}"#;

    #[test]
    fn a_short_session() {
        let out = run_lines([
            SETUP,
            "",
            r#"{"type":"place","player":"a","x":7,"y":7,"now":100}"#,
            r#"{"type":"place","player":"a","x":8,"y":8,"now":200}"#,
            r#"{"type":"resign","player":"b","now":300}"#,
        ]);
        assert_eq!(out.len(), 5);
        let start = v(&out[0]);
        assert_eq!(start["ok"], true);
        assert_eq!(start["events"][0]["type"], "gameStarted");
        assert_eq!(start["events"][0]["black"], "a");
        let placed = v(&out[1]);
        assert_eq!(placed["seq"], 1);
        assert_eq!(placed["events"][0]["type"], "stonePlaced");
        assert_eq!(placed["views"]["spectator"]["board"][7 * 15 + 7], 1);
        let wrong = v(&out[2]);
        assert_eq!(wrong["ok"], false);
        assert_eq!(wrong["error"]["code"], "notYourTurn");
        assert_eq!(wrong["hash"], placed["hash"]);
        let fin = v(&out[4]);
        assert_eq!(fin["final"], true);
        assert_eq!(fin["result"]["reason"], "resign");
        assert_eq!(fin["result"]["winner"], "black");
    }

    #[test]
    fn malformed_lines() {
        let out = run_lines([
            "nonsense",
            SETUP,
            r#"{"type":"place","player":"a","x":7,"y":7,"now":1,"extra":true}"#,
            r#"{"type":"fly","player":"a","now":1}"#,
        ]);
        assert_eq!(v(&out[0])["error"]["code"], "malformedSetup");
        assert_eq!(v(&out[0])["hash"], Value::Null);
        assert_eq!(v(&out[1])["ok"], true);
        let extra = v(&out[2]);
        assert_eq!(extra["error"]["code"], "malformedAction");
        assert!(
            extra["error"]["message_en"]
                .as_str()
                .unwrap()
                .contains("unknown field `extra`")
        );
        assert_eq!(v(&out[3])["error"]["code"], "malformedAction");
        assert_eq!(run_lines([""; 0]).len(), 1);
        assert_eq!(v(&run_lines([""; 0])[0])["error"]["code"], "noGame");
    }
}
