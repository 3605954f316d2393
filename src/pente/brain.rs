//! The Piskvork brain's Pente mode (`docs/pente.md` §11): after `INFO omok_rule pente` the
//! omok brain ([`crate::protocol::brain::Brain`]) hands every line to a [`PenteBrain`] until
//! `INFO omok_rule` names an omok rule again.
//!
//! - `INFO pente_board n`, `pente_three_capture 0|1`, `pente_capture_win 0|1`,
//!   `pente_overline win|forbidden`, `pente_suicide nothing|captured|forbidden`,
//!   `pente_extension off|breakLine|captureLine`, `pente_opening none|pro|longPro|swap|swap2` set the
//!   rules (two players); `max_node`, `timeout_turn` and `strength` bound the search; other keys
//!   are ignored. A bad value is answered with `ERROR` before the next answer, as in omok mode.
//! - `START n` (9, 13, 15, 19) and `RESTART` answer `OK`; `BEGIN` makes the brain the first
//!   player (white) and answers its move; `TURN x,y` plays the opponent's move and answers;
//!   `BOARD` … `DONE` replays the stones *in the order given* as the moves of the game (field 1
//!   the brain's, 2 the opponent's, alternating from the first player) and answers; `TAKEBACK
//!   x,y` takes back the last move if it is there; `ABOUT`; `END`.
//! - Captures are never sent: the brain applies them to its own position, as the opponent does.
//! - Under `pente_opening swap`/`swap2` a `BOARD` does not check that its fields alternate (the
//!   first player places the opening's stones of both colours). Under `swap2`,
//!   `SWAP2BOARD` … `DONE` asks for the brain's Swap2 decision, Gomocup's convention with the
//!   colours mirrored (white first), decided by [`super::opening::engine_action`]: 0 stones —
//!   three stones (white, black, white) `x,y x,y x,y`; 3 stones (the brain is the second player,
//!   black to move) — `SWAP` (take white), one move (stay black and play it) or two moves (a black
//!   and a white stone; the choice goes back); 5 stones (the brain is the first player, black to
//!   move) — `SWAP` (take white) or one move (take black and play it).
//!
//! Errors change nothing and answer one `ERROR` line; the brain never panics on input.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::opening::{self as pente_opening, actor_seat, judge_limits};
use super::options::{Extension, Overline, PenteOpening, PenteRules, Suicide};
use super::play::strength_level;
use super::position::Position;
use super::search::{choose, level};
use crate::protocol::brain::Flow;
use crate::protocol::piskvork::{ABOUT, BlockKind, Command, Coord, Field, clean, parse};
use crate::rules::opening::OpeningAction;

/// Whether `line` is `INFO omok_rule pente`.
pub fn is_pente_switch(line: &str) -> bool {
    let w: Vec<&str> = line.split_whitespace().collect();
    matches!(w.as_slice(), [i, k, v] if i.eq_ignore_ascii_case("INFO")
        && k.eq_ignore_ascii_case("omok_rule") && v.eq_ignore_ascii_case("pente"))
}

/// Whether `line` is `INFO omok_rule <another rule>` (which leaves Pente mode).
pub fn is_omok_switch(line: &str) -> bool {
    let w: Vec<&str> = line.split_whitespace().collect();
    matches!(w.as_slice(), [i, k, v] if i.eq_ignore_ascii_case("INFO")
        && (k.eq_ignore_ascii_case("omok_rule") && !v.eq_ignore_ascii_case("pente")
            || k.eq_ignore_ascii_case("rule")))
}

/// The Pente mode of the brain.
pub struct PenteBrain {
    rules: PenteRules,
    pos: Option<Position>,
    max_nodes: Option<u64>,
    turn_ms: Option<u64>,
    level: u8,
    block: Option<Vec<(Coord, Option<Field>)>>,
    block_kind: BlockKind,
    block_error: Option<String>,
    pending: Vec<String>,
    rng: Xoshiro256PlusPlus,
}

impl Default for PenteBrain {
    fn default() -> PenteBrain {
        PenteBrain::new()
    }
}

fn json_name<T: serde::de::DeserializeOwned>(s: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(s.into())).ok()
}

impl PenteBrain {
    /// A Pente brain with the default rules and full strength.
    pub fn new() -> PenteBrain {
        PenteBrain {
            rules: PenteRules::default(),
            pos: None,
            max_nodes: None,
            turn_ms: None,
            level: 5,
            block: None,
            block_kind: BlockKind::Board,
            block_error: None,
            pending: Vec::new(),
            rng: Xoshiro256PlusPlus::seed_from_u64(1),
        }
    }

    /// The position of the current game.
    pub fn position(&self) -> Option<&Position> {
        self.pos.as_ref()
    }

    fn info(&mut self, key: &str, value: &str) {
        let r = &mut self.rules;
        let bool01 = |v: &str| match v {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        };
        let ok = match key.to_ascii_lowercase().as_str() {
            "pente_board" => value.parse().ok().map(|n| r.board_size = n).is_some(),
            "pente_three_capture" => bool01(value).map(|b| r.three_capture = b).is_some(),
            "pente_capture_win" => bool01(value).map(|b| r.capture_win = b).is_some(),
            "pente_overline" => json_name::<Overline>(value)
                .map(|v| r.overline = v)
                .is_some(),
            "pente_suicide" => json_name::<Suicide>(value).map(|v| r.suicide = v).is_some(),
            "pente_extension" => json_name::<Extension>(value)
                .map(|v| r.extension = v)
                .is_some(),
            "pente_opening" => json_name::<PenteOpening>(value)
                .map(|v| r.opening_rule = v)
                .is_some(),
            "max_node" => value
                .parse::<i64>()
                .ok()
                .map(|n| self.max_nodes = (n > 0).then_some(n as u64))
                .is_some(),
            "timeout_turn" => value
                .parse::<i64>()
                .ok()
                .filter(|&n| n >= 0)
                .map(|n| self.turn_ms = Some(n as u64))
                .is_some(),
            "strength" => value
                .parse::<u8>()
                .ok()
                .filter(|&s| s <= 100)
                .map(|s| self.level = strength_level(s))
                .is_some(),
            _ => true,
        };
        if !ok {
            self.pending.push(format!(
                "ERROR INFO {key} {}: not a valid value",
                clean(value, 40)
            ));
        }
    }

    /// Handles one line, writing the answers to `out`.
    pub fn handle<W: Write>(&mut self, raw: &str, out: &mut W) -> io::Result<Flow> {
        let line = raw.trim();
        if line.is_empty() {
            return Ok(Flow::Continue);
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0].eq_ignore_ascii_case("INFO") && self.block.is_none() {
            if let [_, key, value, ..] = words.as_slice() {
                self.info(key, value);
            }
            return Ok(Flow::Continue);
        }
        let parsed = parse(line);
        if let Some(block) = self.block.as_mut() {
            match parsed {
                Ok(Command::Stone(s)) => {
                    if block.len() < 32 * 32 {
                        block.push((s.at, s.field));
                    }
                    return Ok(Flow::Continue);
                }
                Ok(Command::Done) => {
                    let stones = self.block.take().unwrap_or_default();
                    let answer = match self.block_error.take() {
                        Some(e) => Err(e),
                        None if self.block_kind == BlockKind::Swap2Board => {
                            self.swap2board(&stones)
                        }
                        None => self.board(&stones),
                    };
                    return self.answer(out, answer);
                }
                Ok(Command::End) => return Ok(Flow::Quit),
                _ => {
                    self.block_error
                        .get_or_insert(format!("BOARD: unexpected line '{}'", clean(line, 60)));
                    return Ok(Flow::Continue);
                }
            }
        }
        let answer = match parsed {
            Ok(Command::End) => return Ok(Flow::Quit),
            Ok(Command::About) => Ok(ABOUT.to_string()),
            Ok(Command::Start(n)) => self.start(n),
            Ok(Command::RectStart { width, height }) if width == height => self.start(width),
            Ok(Command::RectStart { .. }) => Err("Pente boards are square".into()),
            Ok(Command::Restart) => match &self.pos {
                Some(p) => {
                    let rules = *p.rules();
                    self.pos = Position::new(rules).ok();
                    Ok("OK".into())
                }
                None => Err("RESTART before START".into()),
            },
            Ok(Command::Begin) => self.with_game(|b| {
                if b.pos.as_ref().is_some_and(|p| p.ply() > 0) {
                    return Err("BEGIN after moves".into());
                }
                b.think()
            }),
            Ok(Command::Turn(c)) => self.with_game(|b| {
                b.play_coord(c)?;
                b.think()
            }),
            Ok(Command::BlockStart(kind)) => {
                self.block_kind = kind;
                self.block = Some(Vec::new());
                self.block_error = None;
                return Ok(Flow::Continue);
            }
            Ok(Command::Takeback(c)) => self.with_game(|b| {
                let pos = b.pos.as_mut().ok_or("no game")?;
                let cell = pos.cell(c.x, c.y).ok_or("off the board")?;
                if pos.moves().last() != Some(cell) {
                    return Err(format!("{},{} is not the last move", c.x, c.y));
                }
                pos.undo();
                Ok("OK".into())
            }),
            Ok(Command::Stop) => return Ok(Flow::Continue),
            Ok(Command::Unknown(t)) => Ok(format!("UNKNOWN {}", clean(&t, 60))),
            Ok(_) => Err(format!(
                "'{}' is not available in Pente mode",
                clean(line, 40)
            )),
            Err(e) => Err(e.to_string()),
        };
        self.answer(out, answer)
    }

    fn answer<W: Write>(
        &mut self,
        out: &mut W,
        answer: Result<String, String>,
    ) -> io::Result<Flow> {
        for p in self.pending.drain(..) {
            writeln!(out, "{p}")?;
        }
        match answer {
            Ok(a) => writeln!(out, "{a}")?,
            Err(e) => writeln!(out, "ERROR {e}")?,
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    fn start(&mut self, n: usize) -> Result<String, String> {
        let rules = PenteRules {
            board_size: n,
            ..self.rules
        };
        let pos = Position::new(rules).map_err(|e| e.to_string())?;
        self.rules = rules;
        self.pos = Some(pos);
        Ok("OK".into())
    }

    fn with_game(
        &mut self,
        f: impl FnOnce(&mut PenteBrain) -> Result<String, String>,
    ) -> Result<String, String> {
        if self.pos.is_none() {
            return Err("no game: START first".into());
        }
        // Errors change nothing: work on a copy of the position.
        let saved = self.pos.clone();
        let r = f(self);
        if r.is_err() {
            self.pos = saved;
        }
        r
    }

    fn play_coord(&mut self, c: Coord) -> Result<(), String> {
        let pos = self.pos.as_mut().ok_or("no game")?;
        let cell = pos
            .check(c.x, c.y)
            .map_err(|e| format!("{},{}: {e}", c.x, c.y))?;
        pos.play(cell).map(|_| ()).map_err(|e| e.to_string())
    }

    /// The rules of the game in progress.
    fn game_rules(&self) -> Result<PenteRules, String> {
        Ok(self
            .pos
            .as_ref()
            .ok_or("no game: START first")?
            .rules()
            .to_owned())
    }

    fn board(&mut self, stones: &[(Coord, Option<Field>)]) -> Result<String, String> {
        let rules = self.game_rules()?;
        let mut pos = Position::new(rules).map_err(|e| e.to_string())?;
        let me = (stones.len() % 2) as u8;
        // Swap openings: the first player places stones of both colours.
        let loose = rules.opening_rule.is_interactive();
        for (i, (c, field)) in stones.iter().enumerate() {
            let own = (i % 2) as u8 == me;
            match field {
                Some(Field::Own | Field::Opponent) if loose => {}
                Some(Field::Own) if !own => {
                    return Err(format!("stone {} is not the brain's turn", i + 1));
                }
                Some(Field::Opponent) if own => {
                    return Err(format!("stone {} is not the opponent's turn", i + 1));
                }
                Some(Field::Own | Field::Opponent) | None => {}
                Some(_) => return Err("continuous-game markers are not used in Pente".into()),
            }
            let cell = pos
                .check(c.x, c.y)
                .map_err(|e| format!("stone {} ({},{}): {e}", i + 1, c.x, c.y))?;
            pos.play(cell).map_err(|e| e.to_string())?;
        }
        let saved = self.pos.replace(pos);
        let r = self.think();
        if r.is_err() {
            self.pos = saved;
        }
        r
    }

    /// A `SWAP2BOARD` decision (see the module doc); the brain's stones are played on its
    /// position.
    fn swap2board(&mut self, stones: &[(Coord, Option<Field>)]) -> Result<String, String> {
        let rules = self.game_rules()?;
        if rules.opening_rule != PenteOpening::Swap2 {
            return Err("SWAP2BOARD needs INFO pente_opening swap2".into());
        }
        if !matches!(stones.len(), 0 | 3 | 5) {
            return Err(format!(
                "SWAP2BOARD: {} stones given; Swap2 needs 0, 3 or 5",
                stones.len()
            ));
        }
        let mut pos = Position::new(rules).map_err(|e| e.to_string())?;
        let mut o = pente_opening::start(&pos)
            .map_err(|e| e.to_string())?
            .ok_or("no opening")?;
        let point = |pos: &Position, c: &Coord| {
            pos.cell(c.x, c.y)
                .map(|cell| pos.pos(cell))
                .ok_or_else(|| format!("{},{} is off the board", c.x, c.y))
        };
        let mut given: Vec<OpeningAction> = Vec::new();
        for c in stones.iter().take(3) {
            given.push(OpeningAction::Place(point(&pos, &c.0)?));
        }
        if let [.., a, b] = stones
            && stones.len() == 5
        {
            given.push(OpeningAction::PutTwo([
                point(&pos, &a.0)?,
                point(&pos, &b.0)?,
            ]));
        }
        for a in &given {
            let seat = actor_seat(&o);
            pente_opening::apply(&mut o, &mut pos, seat, a).map_err(|e| e.to_string())?;
        }
        let nodes = self.max_nodes.unwrap_or(level(self.level).max_nodes);
        let limits = judge_limits((nodes / 8).clamp(200, 3000));
        let xy = |p: crate::core::Pos| format!("{},{}", p.x(), p.y());
        let mut answer = Vec::new();
        let wants = if stones.is_empty() { 3 } else { 1 };
        for _ in 0..wants {
            let seat = actor_seat(&o);
            let a = pente_opening::engine_action(&o, &pos, limits, &mut self.rng)
                .ok_or("no opening decision")?;
            pente_opening::apply(&mut o, &mut pos, seat, &a).map_err(|e| e.to_string())?;
            match a {
                OpeningAction::Place(p) => answer.push(xy(p)),
                OpeningAction::PutTwo([p, q]) => answer.extend([xy(p), xy(q)]),
                // 3 stones: the brain takes white. 5 stones: keeping white is Gomocup's `SWAP`
                // (the colour that does not move next); taking black is answered by a move.
                OpeningAction::Swap(true) if stones.len() == 3 => answer.push("SWAP".into()),
                OpeningAction::Swap(false) => answer.push("SWAP".into()),
                OpeningAction::Swap(true) => {
                    self.pos = Some(pos);
                    return self.think();
                }
                other => return Err(format!("unexpected opening decision {}", other.name())),
            }
        }
        self.pos = Some(pos);
        Ok(answer.join(" "))
    }

    fn think(&mut self) -> Result<String, String> {
        let pos = self.pos.as_ref().ok_or("no game")?;
        if pos.outcome().is_some() {
            return Err("the game is over".into());
        }
        let mut limits = level(self.level);
        if let Some(n) = self.max_nodes {
            limits.max_nodes = n;
        }
        let deadline = self
            .turn_ms
            .filter(|&ms| ms > 0)
            .map(|ms| Instant::now() + Duration::from_millis(ms * 7 / 10));
        let cell = choose(pos, limits, deadline, &mut self.rng).ok_or("no legal move")?;
        let pos = self.pos.as_mut().ok_or("no game")?;
        pos.play(cell).map_err(|e| e.to_string())?;
        let n = pos.size();
        Ok(format!("{},{}", cell % n, cell / n))
    }
}
