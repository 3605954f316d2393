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
//! ```
//!
//! # Output
//! One line per input line (none for blank lines):
//! - accepted setup or action:
//!   `{"ok":true,"seq":N,"events":[…],"phase":"playing","deadline":31500,"hash":"…","views":{"black":{…},"white":{…},"spectator":{…}}}`
//!   (`seq` is 0 for the setup, then counts action lines, accepted or not; `deadline` is `null`
//!   once the game is over; the views are [`super::GameView`]s);
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
//! `timeLoss {color, lateMove?}`. Points are `{"x":…,"y":…}`, 0-based, y from the top.

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

#[derive(Serialize)]
struct OkLine<'a> {
    ok: bool,
    seq: usize,
    events: &'a [Event],
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
            None => Self::start(line).map(|(game, events)| {
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
        let text = match (outcome, &self.game) {
            (Ok(events), Some(game)) => serde_json::to_string(&OkLine {
                ok: true,
                seq: self.seq,
                events: &events,
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

    fn start(line: &str) -> Result<(Game, Vec<Event>), SessionError> {
        let setup: Setup = parse(line).map_err(SessionError::MalformedSetup)?;
        Ok(Game::new(&setup)?)
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
