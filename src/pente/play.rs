//! `pbrain-omok play --rule pente`: a person plays Pente against the practice opponent in a
//! terminal. This is the top layer of [`crate::pente`] (like [`crate::tournament::play`] for
//! omok): it talks through a `BufRead` and a `Write` only.
//!
//! The options come from flags ([`PenteFlags`], and `--opening-rule none|pro|longPro|swap|swap2`);
//! `--color` picks the person's seat (`white` moves first, `black`; with 3–4 players also `red`,
//! `green`; `random`; under Swap and Swap2 `white` makes the person the opening's first player,
//! who places the stones, and `black` the second, who chooses), `--strength` 0..=100
//! maps to the practice levels 1..=5, `--nodes` makes the opponent's moves repeatable,
//! `--move-ms` bounds its time, `--size` is the board (9, 13, 15 or 19), `--opening` gives
//! starting stones in renju notation, white first. With 3–4 players the other seats are played
//! by the greedy player.
//!
//! The board: `O` white, `X` black, `R` red, `G` green, `.` empty, the last move bracketed;
//! under it the captured stones of every seat and the target. Commands: a move (`h8`), `undo`
//! (back to before the person's last move; never into the opening), `board`, `new`, `help`,
//! `quit`; in the Swap / Swap2 opening also `swap`, `keep` and two points (`h8 j9`, Swap2's
//! `putTwo`). The engine's opening decisions are [`super::opening::engine_action`]'s (a search
//! bounded by nodes, so repeatable with `--nodes` and `--seed`).

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::opening::{self as pente_opening, actor_seat, judge_limits, seat_of_color};
use super::options::{Extension, Overline, PenteOpening, PenteRules, Suicide};
use super::position::{EndReason, Position};
use super::referee::SEAT_COLORS;
use super::search::{PenteLimits, choose, level};
use crate::notation::{column_name, format_renju, parse_renju, parse_renju_moves};
use crate::rule::Rule;
use crate::rules::opening::{Effect, Opening, OpeningAction, OpeningRule, PendingKind, Side};
use crate::tournament::play::{PlayArgs, PlayError};

fn parse_json_name<T: serde::de::DeserializeOwned>(s: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).map_err(|e| e.to_string())
}

/// The Pente options as command-line flags (used with `--rule pente`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PenteFlags {
    /// Pente: groups of three are captured too.
    #[arg(long)]
    pub three_capture: bool,
    /// Pente: captures never win (two players only).
    #[arg(long)]
    pub no_capture_win: bool,
    /// Pente: `win` or `forbidden`.
    #[arg(long, value_parser = parse_json_name::<Overline>)]
    pub overline: Option<Overline>,
    /// Pente: `nothing`, `captured` or `forbidden`.
    #[arg(long, value_parser = parse_json_name::<Suicide>)]
    pub suicide: Option<Suicide>,
    /// Pente: `off`, `breakLine` or `captureLine`.
    #[arg(long, value_parser = parse_json_name::<Extension>)]
    pub extension: Option<Extension>,
    /// Pente: 2, 3 or 4 players.
    #[arg(long)]
    pub players: Option<u8>,
    /// Pente: 2 against 2 (4 players).
    #[arg(long)]
    pub teams: bool,
    /// Pente: mixed captures (3–4 players).
    #[arg(long)]
    pub mixed_capture: bool,
}

impl PenteFlags {
    /// The rules these flags, a board side and an opening rule give.
    pub fn rules(&self, size: usize, opening: PenteOpening) -> PenteRules {
        let d = PenteRules::default();
        PenteRules {
            board_size: size,
            three_capture: self.three_capture,
            capture_win: !self.no_capture_win,
            overline: self.overline.unwrap_or(d.overline),
            suicide: self.suicide.unwrap_or(d.suicide),
            extension: self.extension.unwrap_or(d.extension),
            opening_rule: opening,
            players: self.players.unwrap_or(2),
            teams: self.teams,
            mixed_capture: self.mixed_capture,
        }
    }
}

/// `--rule` of `play`: an omok rule set or `pente`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayRule {
    /// An omok rule set.
    Omok(Rule),
    /// Pente.
    Pente,
}

impl From<Rule> for PlayRule {
    fn from(r: Rule) -> PlayRule {
        PlayRule::Omok(r)
    }
}

impl std::str::FromStr for PlayRule {
    type Err = String;
    fn from_str(s: &str) -> Result<PlayRule, String> {
        if s.trim().eq_ignore_ascii_case("pente") {
            return Ok(PlayRule::Pente);
        }
        s.parse::<Rule>()
            .map(PlayRule::Omok)
            .map_err(|e| format!("{e}, or pente"))
    }
}

/// The practice level of a 0..=100 strength.
pub fn strength_level(strength: u8) -> u8 {
    (strength / 20 + 1).min(5)
}

const HELP: &str = "Commands: a move such as h8 · undo · board · new · help · quit";
const OPENING_HELP: &str =
    "Opening: a point such as h8 · swap · keep · two points such as h8 j9 (Swap2: put two more)";

struct Game<R, W> {
    input: R,
    out: W,
    pos: Position,
    human: u8,
    /// The person's seat when the game starts (under Swap / Swap2: white = the first player).
    human_start: u8,
    opening: Vec<usize>,
    /// The Swap / Swap2 opening of the current game.
    phase: Option<Opening>,
    /// Stones placed in that opening (never taken back).
    opening_plies: usize,
    limits: PenteLimits,
    move_ms: u64,
    rng: Xoshiro256PlusPlus,
}

/// Plays Pente in the terminal until `quit` or the end of input.
pub fn play<R: BufRead, W: Write>(
    input: R,
    mut out: W,
    args: &PlayArgs,
    strength: u8,
) -> Result<(), PlayError> {
    let opening = match args.opening_rule.unwrap_or_default() {
        OpeningRule::None => PenteOpening::None,
        OpeningRule::Pro => PenteOpening::Pro,
        OpeningRule::LongPro => PenteOpening::LongPro,
        OpeningRule::Swap => PenteOpening::Swap,
        OpeningRule::Swap2 => PenteOpening::Swap2,
        other => {
            return Err(PlayError::Options(format!(
                "--opening-rule {}: Pente plays none, pro, longPro, swap or swap2",
                other.name()
            )));
        }
    };
    let rules = args.pente.rules(args.size, opening);
    let pos = Position::new(rules).map_err(|e| PlayError::Options(e.to_string()))?;
    let seats = rules.players as usize;
    let color = args
        .color
        .as_deref()
        .unwrap_or("white")
        .to_ascii_lowercase();
    let human = match color.as_str() {
        "random" | "r" => (args.seed % seats as u64) as u8,
        c => SEAT_COLORS[..seats]
            .iter()
            .position(|&s| s == c || s.starts_with(c) && c.len() == 1)
            .ok_or_else(|| {
                PlayError::Options(format!(
                    "--color {c}: one of {}",
                    SEAT_COLORS[..seats].join(", ")
                ))
            })? as u8,
    };
    let opening = match &args.opening {
        Some(text) => parse_renju_moves(text, args.size, args.size)
            .map_err(|e| PlayError::Options(format!("--opening: {e}")))?
            .into_iter()
            .map(|p| p.y() * args.size + p.x())
            .collect(),
        None => Vec::new(),
    };
    if rules.opening_rule.is_interactive() && !opening.is_empty() {
        return Err(PlayError::Options(format!(
            "--opening cannot be combined with --opening-rule {}",
            rules.opening_rule.name()
        )));
    }
    let mut limits = level(strength_level(strength));
    if let Some(n) = args.nodes {
        limits.max_nodes = n;
    }
    writeln!(out, "omok: Pente against the practice opponent. {HELP}")?;
    let mut game = Game {
        input,
        out,
        pos,
        human,
        human_start: human,
        opening,
        phase: None,
        opening_plies: 0,
        limits,
        move_ms: args.move_ms,
        rng: Xoshiro256PlusPlus::seed_from_u64(args.seed),
    };
    game.new_game()?;
    writeln!(
        game.out,
        "Pente {0}x{0}, {1} players; you play {2}, omok plays level {3}.",
        args.size,
        seats,
        SEAT_COLORS[human as usize],
        strength_level(strength)
    )?;
    game.run()
}

impl<R: BufRead, W: Write> Game<R, W> {
    fn new_game(&mut self) -> Result<(), PlayError> {
        while self.pos.undo() {}
        self.human = self.human_start;
        self.opening_plies = 0;
        self.phase =
            pente_opening::start(&self.pos).map_err(|e| PlayError::Options(e.to_string()))?;
        for &c in &self.opening.clone() {
            self.pos
                .play(c)
                .map_err(|e| PlayError::Options(format!("--opening: {e}")))?;
        }
        Ok(())
    }

    fn name(&self, cell: usize) -> String {
        format_renju(self.pos.pos(cell), self.pos.size())
    }

    fn run(&mut self) -> Result<(), PlayError> {
        self.draw()?;
        loop {
            let over = self.pos.outcome().is_some();
            if !over && self.in_opening() {
                if !self.opening_turn()? {
                    return Ok(());
                }
                continue;
            }
            if !over && self.pos.turn() != self.human {
                self.engine_move()?;
                continue;
            }
            let prompt = if over {
                "game over — new, undo or quit".to_string()
            } else {
                format!("{} to move", SEAT_COLORS[self.human as usize])
            };
            write!(self.out, "{prompt} > ")?;
            self.out.flush()?;
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                writeln!(self.out)?;
                return Ok(());
            }
            match line.trim().to_ascii_lowercase().as_str() {
                "" => {}
                "quit" | "exit" | "q" => return Ok(()),
                "help" | "?" => writeln!(self.out, "{HELP}")?,
                "board" => self.draw()?,
                "new" => {
                    self.new_game()?;
                    self.draw()?;
                }
                "undo" | "u" => self.undo()?,
                text if over => writeln!(self.out, "the game is over ('{text}' ignored)")?,
                text => self.human_move(text)?,
            }
        }
    }

    fn in_opening(&self) -> bool {
        self.phase.as_ref().is_some_and(|o| !o.is_finished())
    }

    /// One step of the opening: the engine's decision, or the person's command. `false` at the
    /// end of input or on `quit`.
    fn opening_turn(&mut self) -> Result<bool, PlayError> {
        let Some(o) = self.phase.clone() else {
            return Ok(true);
        };
        let Some(pending) = o.pending() else {
            return Ok(true);
        };
        let seat = actor_seat(&o);
        if seat != self.human {
            let nodes = (self.limits.max_nodes / 8).clamp(200, 3000);
            let action =
                pente_opening::engine_action(&o, &self.pos, judge_limits(nodes), &mut self.rng);
            let Some(action) = action else {
                writeln!(self.out, "omok has no opening action")?;
                return Ok(false);
            };
            writeln!(self.out, "omok: {}", self.describe(&action))?;
            self.opening_act(seat, action)?;
            return Ok(true);
        }
        let what = match pending.kind {
            PendingKind::Place { color, .. } => format!("place a {} stone", color_name(color)),
            PendingKind::Swap => "swap or keep".to_string(),
            PendingKind::Swap2Choice { color } => format!(
                "swap, place a {} stone, or put two more (h8 j9)",
                color_name(color)
            ),
            _ => pending.kind.name().to_string(),
        };
        write!(self.out, "opening: {what} > ")?;
        self.out.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            writeln!(self.out)?;
            return Ok(false);
        }
        let text = line.trim().to_ascii_lowercase();
        let n = self.pos.size();
        let action = match text.as_str() {
            "" => return Ok(true),
            "quit" | "exit" | "q" => return Ok(false),
            "help" | "?" => {
                writeln!(self.out, "{HELP}\n{OPENING_HELP}")?;
                return Ok(true);
            }
            "board" => {
                self.draw()?;
                return Ok(true);
            }
            "new" => {
                self.new_game()?;
                self.draw()?;
                return Ok(true);
            }
            "undo" | "u" => {
                writeln!(self.out, "opening stones cannot be taken back")?;
                return Ok(true);
            }
            "swap" => OpeningAction::Swap(true),
            "keep" | "noswap" | "stay" => OpeningAction::Swap(false),
            t => {
                let points: Result<Vec<_>, _> =
                    t.split_whitespace().map(|w| parse_renju(w, n, n)).collect();
                match points.as_deref() {
                    Ok([p]) => OpeningAction::Place(*p),
                    Ok([a, b]) => OpeningAction::PutTwo([*a, *b]),
                    _ => {
                        writeln!(self.out, "'{t}': {OPENING_HELP}")?;
                        return Ok(true);
                    }
                }
            }
        };
        self.opening_act(seat, action)?;
        Ok(true)
    }

    /// Applies an opening action of `seat` (reporting a refusal), following the person's colour
    /// through swaps.
    fn opening_act(&mut self, seat: u8, action: OpeningAction) -> Result<(), PlayError> {
        let Some(o) = self.phase.as_mut() else {
            return Ok(());
        };
        match pente_opening::apply(o, &mut self.pos, seat, &action) {
            Ok(effects) => {
                let first = o.color_of(Side::First);
                self.opening_plies = self.pos.ply();
                for e in effects {
                    match e {
                        Effect::Swapped(true) => {
                            self.human = 1 - self.human;
                            writeln!(
                                self.out,
                                "colours swapped: you play {}",
                                SEAT_COLORS[self.human as usize]
                            )?;
                        }
                        Effect::Swapped(false) => writeln!(
                            self.out,
                            "colours kept: you play {}",
                            SEAT_COLORS[self.human as usize]
                        )?,
                        Effect::Finished(turn) => writeln!(
                            self.out,
                            "the opening is over; {} to move (the first player holds {})",
                            SEAT_COLORS[seat_of_color(turn) as usize],
                            color_name(first)
                        )?,
                        _ => {}
                    }
                }
                self.draw()
            }
            Err(e) => {
                writeln!(self.out, "{}: {e}", self.describe(&action))?;
                Ok(())
            }
        }
    }

    fn describe(&self, action: &OpeningAction) -> String {
        let n = self.pos.size();
        match action {
            OpeningAction::Place(p) => format!("places {}", format_renju(*p, n)),
            OpeningAction::Swap(true) => "swap".into(),
            OpeningAction::Swap(false) => "keep".into(),
            OpeningAction::PutTwo([a, b]) => {
                format!(
                    "puts two more: {} {}",
                    format_renju(*a, n),
                    format_renju(*b, n)
                )
            }
            a => a.name().into(),
        }
    }

    fn human_move(&mut self, text: &str) -> Result<(), PlayError> {
        let n = self.pos.size();
        let p = match parse_renju(text, n, n) {
            Ok(p) => p,
            Err(_) => {
                writeln!(self.out, "'{text}' is not a point on the {n}x{n} board")?;
                return Ok(());
            }
        };
        match self.pos.check(p.x() as i64, p.y() as i64) {
            Ok(c) => self.place(c),
            Err(e) => {
                writeln!(self.out, "{text}: {e}")?;
                Ok(())
            }
        }
    }

    fn engine_move(&mut self) -> Result<(), PlayError> {
        let deadline = Instant::now() + Duration::from_millis(self.move_ms.max(1));
        let deadline = (self.limits.max_nodes > 0).then_some(deadline);
        match choose(&self.pos, self.limits, deadline, &mut self.rng) {
            Some(c) => {
                let who = SEAT_COLORS[self.pos.turn() as usize];
                writeln!(self.out, "omok ({who}) plays {}", self.name(c))?;
                self.place(c)
            }
            None => {
                writeln!(self.out, "omok has no legal move")?;
                Ok(())
            }
        }
    }

    fn place(&mut self, cell: usize) -> Result<(), PlayError> {
        let report = match self.pos.play(cell) {
            Ok(r) => r,
            Err(e) => {
                writeln!(self.out, "{e}")?;
                return Ok(());
            }
        };
        if !report.removed.is_empty() {
            let names: Vec<String> = report.removed.iter().map(|r| self.name(r.cell)).collect();
            writeln!(self.out, "captured: {}", names.join(" "))?;
        }
        if report.extension_started {
            writeln!(
                self.out,
                "a completed line: {} must break it with this move",
                SEAT_COLORS[self.pos.turn() as usize]
            )?;
        }
        self.draw()?;
        if let Some(o) = self.pos.outcome() {
            let names: Vec<&str> = o.winners.iter().map(|&s| SEAT_COLORS[s as usize]).collect();
            let why = match o.reason {
                EndReason::Line => format!("{} in a row", self.pos.rules().line_len()),
                EndReason::Captures => "captured stones".into(),
                EndReason::BoardFull => "the board is full".into(),
                EndReason::NoLegalMove => "no legal move".into(),
            };
            let text = if names.is_empty() {
                format!("A draw: {why}.")
            } else {
                let you = if o.winners.contains(&self.human) {
                    "you win"
                } else {
                    "omok wins"
                };
                format!("{} ({why}): {you}!", names.join(" & "))
            };
            writeln!(self.out, "{text}")?;
        }
        Ok(())
    }

    fn undo(&mut self) -> Result<(), PlayError> {
        let moves: Vec<usize> = self.pos.moves().collect();
        let seats = self.pos.rules().players as usize;
        // The person's moves are the plies i with i % seats == human (turns never skip).
        // Under Swap / Swap2 the opening's stones stay.
        let fixed = self.opening.len().max(self.opening_plies);
        let last = (fixed..moves.len())
            .rev()
            .find(|&i| i % seats == self.human as usize);
        let Some(from) = last else {
            writeln!(self.out, "nothing to undo")?;
            return Ok(());
        };
        for _ in from..moves.len() {
            self.pos.undo();
        }
        writeln!(self.out, "took back {} move(s)", moves.len() - from)?;
        self.draw()
    }

    fn draw(&mut self) -> Result<(), PlayError> {
        let text = render(&self.pos);
        write!(self.out, "{text}")?;
        Ok(())
    }
}

fn color_name(c: crate::core::Color) -> &'static str {
    SEAT_COLORS[seat_of_color(c) as usize]
}

/// Draws the position: renju coordinates, the last move bracketed, and the capture counts.
pub fn render(pos: &Position) -> String {
    let n = pos.size();
    let header: String = (0..n).map(|x| format!("{:>2}", column_name(x))).collect();
    let mut s = format!("   {header}\n");
    let last = pos.moves().last();
    for y in 0..n {
        let mut row: Vec<char> = vec![' '; 2 * n + 1];
        for x in 0..n {
            let c = y * n + x;
            row[2 * x + 1] = ['.', 'O', 'X', 'R', 'G'][pos.cells()[c] as usize];
            if last == Some(c) {
                row[2 * x] = '[';
                row[2 * x + 2] = ']';
            }
        }
        let row: String = row.into_iter().collect();
        s.push_str(&format!("{:>2} {}{:>2}\n", n - y, row, n - y));
    }
    s.push_str(&format!("   {header}\n"));
    let caps: Vec<String> = (0..pos.rules().players)
        .map(|seat| {
            format!(
                "{} {}",
                SEAT_COLORS[seat as usize],
                pos.captures()[seat as usize]
            )
        })
        .collect();
    let target = pos
        .rules()
        .capture_target()
        .map_or("captures do not win".to_string(), |t| format!("{t} win"));
    s.push_str(&format!("captured: {} ({target})\n", caps.join(", ")));
    s
}
