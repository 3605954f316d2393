//! `pbrain-omok play`: a person plays omok against the engine in a terminal.
//!
//! The rule, the person's colour and the engine's strength come from the command line; any left
//! out is asked for first (an empty answer takes the default shown in brackets). The engine runs
//! in-process ([`Engine`]) with its practice levels (`strength` 0..=100), a time per move and an
//! optional node limit (a node limit and a seed make its moves repeatable).
//!
//! The board is drawn with renju coordinates — columns `a`… from the left, rows numbered from the
//! bottom —: `X` black, `O` white, `.` empty, the last move bracketed `[X]`, and the forbidden
//! points of the side to move marked `3` (double three), `4` (double four) or `6` (overline).
//!
//! Commands at the prompt: a move in renju notation (`h8`, any case); `undo` takes back the
//! person's last move and the engine's reply (not the opening's stones); `board` redraws; `new`
//! starts again; `help`; `quit` (or the end of input). A refused move says why: not a coordinate,
//! off the board, occupied, or forbidden with the shape (`h8 is forbidden for black: double
//! three`). Forbidden moves are refused, not lost (this is practice, not a tournament).
//!
//! Everything goes through a `BufRead` and a `Write`, so tests drive a whole game from text.

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use thiserror::Error;

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::engine::{Engine, Limits};
use crate::error::BoardError;
use crate::notation::{column_name, format_renju, parse_renju, parse_renju_moves};
use crate::params::Params;
use crate::pente::play::{PenteFlags, PlayRule};
use crate::rule::Rule;
use crate::rules::opening::OpeningRule;
use crate::rules::{ForbiddenKind, IllegalMove, check_move, find_five, winning_line};
use crate::search::NoInfo;
use crate::time::{Budget, Clock};

mod opening;

/// Options of `pbrain-omok play`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PlayArgs {
    /// Rule set, or `pente` (asked for when left out).
    #[arg(long)]
    pub rule: Option<PlayRule>,
    /// Your colour: black, white or random (asked for when left out).
    #[arg(long)]
    pub color: Option<String>,
    /// The engine's strength, 0..=100 (asked for when left out).
    #[arg(long)]
    pub strength: Option<u8>,
    /// Board side.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// The engine's thinking time per move in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub move_ms: u64,
    /// A node limit per engine move (repeatable play).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Stones to start from, in renju notation, black first (`h8 h9 i8`).
    #[arg(long)]
    pub opening: Option<String>,
    /// Seed of the engine's practice-level choices and of a random colour.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// An opening rule played before the ordinary moves: none, center, pro, longPro, swap,
    /// swap2, rif, soosorv (soosorv-N), taraguchi10; `--color` is then the colour you start it
    /// with.
    #[arg(long)]
    pub opening_rule: Option<OpeningRule>,
    /// The Pente options (with `--rule pente`).
    #[command(flatten)]
    pub pente: PenteFlags,
}

/// Why play could not go on.
#[derive(Debug, Error)]
pub enum PlayError {
    /// Reading or writing the terminal failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A bad option.
    #[error("{0}")]
    Options(String),
}

const HELP: &str = "Commands: a move such as h8 · undo (takes back your last move and the reply) · \
board · new · help · quit";

/// How one prompt was answered.
enum Input {
    Line(String),
    Eof,
}

/// The session: the engine, the options and the terminal.
struct Session<R, W> {
    input: R,
    out: W,
    engine: Engine,
    human: Color,
    /// The person's colour at the start of each game (an opening rule's swaps change `human`).
    first_human: Color,
    opening: Vec<Pos>,
    opening_rule: OpeningRule,
    /// Stones placed by the opening rule (never taken back).
    rule_stones: usize,
    args: PlayArgs,
    over: bool,
}

fn read_line<R: BufRead>(input: &mut R) -> io::Result<Input> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(Input::Eof);
    }
    Ok(Input::Line(line.trim().to_string()))
}

/// Asks `question` until `parse` accepts the answer; `None` at the end of input.
fn ask<R: BufRead, W: Write, T>(
    input: &mut R,
    out: &mut W,
    question: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> io::Result<Option<T>> {
    loop {
        write!(out, "{question}: ")?;
        out.flush()?;
        match read_line(input)? {
            Input::Eof => {
                writeln!(out)?;
                return Ok(None);
            }
            Input::Line(line) => match parse(&line) {
                Ok(v) => return Ok(Some(v)),
                Err(e) => writeln!(out, "{e}")?,
            },
        }
    }
}

fn parse_color(s: &str, seed: u64) -> Result<Color, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "" | "b" | "black" | "x" => Ok(Color::Black),
        "w" | "white" | "o" => Ok(Color::White),
        "r" | "random" => {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            Ok(if rng.next_u64() % 2 == 0 {
                Color::Black
            } else {
                Color::White
            })
        }
        other => Err(format!(
            "'{other}' is not a colour (black, white or random)"
        )),
    }
}

fn parse_strength(s: &str) -> Result<u8, String> {
    if s.is_empty() {
        return Ok(50);
    }
    match s.parse::<u8>() {
        Ok(v) if v <= 100 => Ok(v),
        _ => Err(format!("'{s}' is not a strength from 0 to 100")),
    }
}

/// Plays in the terminal until `quit` or the end of input.
pub fn play<R: BufRead, W: Write>(
    mut input: R,
    mut out: W,
    args: &PlayArgs,
    params: Params,
    clock: Arc<dyn Clock>,
) -> Result<(), PlayError> {
    if args.rule == Some(PlayRule::Pente) {
        let strength = args.strength.unwrap_or(100).min(100);
        return crate::pente::play::play(input, out, args, strength);
    }
    writeln!(out, "omok: play against the engine. {HELP}")?;
    let rule = match args.rule {
        Some(r) => r,
        None => {
            let q = "Rule (freestyle, standard, renju, korean, casual, caro, pente) [renju]";
            let parse = |s: &str| {
                if s.is_empty() {
                    Ok(PlayRule::Omok(Rule::Renju))
                } else {
                    s.parse::<PlayRule>()
                }
            };
            match ask(&mut input, &mut out, q, parse)? {
                Some(r) => r,
                None => return Ok(()),
            }
        }
    };
    let rule = match rule {
        PlayRule::Omok(r) => r,
        PlayRule::Pente => {
            let strength = args.strength.unwrap_or(100).min(100);
            return crate::pente::play::play(input, out, args, strength);
        }
    };
    let human = match &args.color {
        Some(c) => parse_color(c, args.seed).map_err(PlayError::Options)?,
        None => {
            let q = "Your colour (black, white, random) [black]";
            match ask(&mut input, &mut out, q, |s| parse_color(s, args.seed))? {
                Some(c) => c,
                None => return Ok(()),
            }
        }
    };
    let strength = match args.strength {
        Some(s) if s <= 100 => s,
        Some(s) => {
            return Err(PlayError::Options(format!(
                "strength {s} is not in 0..=100"
            )));
        }
        None => match ask(&mut input, &mut out, "Strength 0-100 [50]", parse_strength)? {
            Some(s) => s,
            None => return Ok(()),
        },
    };
    let size = args.size;
    let opening = match &args.opening {
        Some(text) => parse_renju_moves(text, size, size)
            .map_err(|e| PlayError::Options(format!("--opening: {e}")))?,
        None => Vec::new(),
    };
    let mut engine = Engine::new(params, clock);
    engine.set_strength(strength);
    engine.set_seed(args.seed);
    engine
        .set_rule(rule)
        .and_then(|_| engine.new_game(size, size))
        .map_err(|e| PlayError::Options(e.to_string()))?;
    let opening_rule = args.opening_rule.unwrap_or_default();
    if !opening_rule.is_none() && !opening.is_empty() {
        return Err(PlayError::Options(
            "--opening and --opening-rule exclude each other".into(),
        ));
    }
    let mut session = Session {
        input,
        out,
        engine,
        human,
        first_human: human,
        opening,
        opening_rule,
        rule_stones: 0,
        args: args.clone(),
        over: false,
    };
    writeln!(
        session.out,
        "{rule}, {size}x{size}; you play {human}, omok plays {} at strength {strength}.",
        human.opponent()
    )?;
    if !session.new_game()? {
        return Ok(());
    }
    session.run()
}

impl<R: BufRead, W: Write> Session<R, W> {
    fn board(&self) -> &Board {
        self.engine.board()
    }

    /// Starts a game (with its opening rule's steps); `false` when the input ended or the person
    /// quit during the opening.
    fn new_game(&mut self) -> Result<bool, PlayError> {
        self.engine.restart();
        self.rule_stones = 0;
        self.human = self.first_human;
        for &p in &self.opening {
            self.engine
                .play(p)
                .map_err(|e| PlayError::Options(format!("--opening: {e}")))?;
        }
        if let Some((c, _)) = find_five(self.board()) {
            return Err(PlayError::Options(format!(
                "--opening: {c} already has five in a row"
            )));
        }
        self.over = false;
        self.play_opening()
    }

    fn run(&mut self) -> Result<(), PlayError> {
        self.draw()?;
        loop {
            if !self.over && self.engine.side_to_move() != self.human {
                self.engine_move()?;
                continue;
            }
            let prompt = if self.over {
                "game over — new, undo or quit".to_string()
            } else {
                format!("{} to move", self.human)
            };
            write!(self.out, "{prompt} > ")?;
            self.out.flush()?;
            let line = match read_line(&mut self.input)? {
                Input::Eof => {
                    writeln!(self.out)?;
                    return Ok(());
                }
                Input::Line(l) => l.to_ascii_lowercase(),
            };
            match line.as_str() {
                "" => {}
                "quit" | "exit" | "q" => return Ok(()),
                "help" | "?" => writeln!(self.out, "{HELP}")?,
                "board" => self.draw()?,
                "new" => {
                    if !self.new_game()? {
                        return Ok(());
                    }
                    self.draw()?;
                }
                "undo" | "u" => self.undo()?,
                text if self.over => writeln!(
                    self.out,
                    "the game is over ('{text}' ignored); new, undo or quit"
                )?,
                text => self.human_move(text)?,
            }
        }
    }

    fn human_move(&mut self, text: &str) -> Result<(), PlayError> {
        let (w, h) = (self.board().width(), self.board().height());
        let p = match parse_renju(text, w, h) {
            Ok(p) => p,
            Err(crate::error::NotationError::Board(_)) => {
                writeln!(self.out, "{text} is off the {w}x{h} board")?;
                return Ok(());
            }
            Err(_) => {
                writeln!(
                    self.out,
                    "'{text}' is not a move; type a point such as h8, or help"
                )?;
                return Ok(());
            }
        };
        let mut board = self.board().clone();
        match check_move(&mut board, p, self.human) {
            Ok(()) => {}
            Err(IllegalMove::Board(BoardError::Occupied { .. })) => {
                writeln!(self.out, "{text} is occupied")?;
                return Ok(());
            }
            Err(IllegalMove::Forbidden { kind, color, .. }) => {
                writeln!(
                    self.out,
                    "{text} is forbidden for {color}: {}",
                    shape_name(kind)
                )?;
                return Ok(());
            }
            Err(e) => {
                writeln!(self.out, "{text}: {e}")?;
                return Ok(());
            }
        }
        self.place(p)
    }

    fn engine_move(&mut self) -> Result<(), PlayError> {
        let color = self.engine.side_to_move();
        let limits = Limits {
            budget: Budget {
                optimum_ms: self.args.move_ms,
                maximum_ms: self.args.move_ms,
            },
            max_nodes: self.args.nodes,
            max_depth: None,
        };
        let result = self.engine.go(&limits, &mut NoInfo);
        let Some(p) = result.best else {
            writeln!(self.out, "omok has no legal move: a draw.")?;
            self.over = true;
            return Ok(());
        };
        let mut board = self.board().clone();
        if let Err(e) = check_move(&mut board, p, color) {
            writeln!(self.out, "omok chose an illegal move ({e}); you win.")?;
            self.over = true;
            return Ok(());
        }
        writeln!(
            self.out,
            "omok plays {}",
            format_renju(p, self.board().height())
        )?;
        self.place(p)
    }

    /// Plays `p` for the side to move (already checked) and reports the end of the game.
    fn place(&mut self, p: Pos) -> Result<(), PlayError> {
        let color = self.engine.side_to_move();
        if let Err(e) = self.engine.play(p) {
            writeln!(self.out, "{e}")?;
            return Ok(());
        }
        self.draw()?;
        let height = self.board().height();
        if let Some(line) = winning_line(self.board(), p) {
            let name = |q: Pos| format_renju(q, height);
            let ends = line
                .first()
                .zip(line.last())
                .map(|(a, b)| format!("{}-{}", name(*a), name(*b)))
                .unwrap_or_default();
            let who = if color == self.human {
                "you win"
            } else {
                "omok wins"
            };
            writeln!(self.out, "{color} has five in a row ({ends}): {who}!")?;
            self.over = true;
        } else if self.board().is_full() {
            writeln!(self.out, "The board is full: a draw.")?;
            self.over = true;
        }
        Ok(())
    }

    fn undo(&mut self) -> Result<(), PlayError> {
        let history = self.board().history().to_vec();
        let own = history
            .iter()
            .enumerate()
            .skip(self.opening.len().max(self.rule_stones))
            .rev()
            .find(|(_, (_, c))| *c == self.human)
            .map(|(i, _)| i);
        let Some(from) = own else {
            writeln!(self.out, "nothing to undo")?;
            return Ok(());
        };
        for &(p, _) in history[from..].iter().rev() {
            self.engine
                .takeback(p)
                .map_err(|e| PlayError::Options(e.to_string()))?;
        }
        self.over = false;
        writeln!(
            self.out,
            "took back {} move{}",
            history.len() - from,
            if history.len() - from == 1 { "" } else { "s" }
        )?;
        self.draw()
    }

    fn draw(&mut self) -> Result<(), PlayError> {
        let to_move = self.engine.side_to_move();
        let forbidden = if self.over {
            Vec::new()
        } else {
            self.engine.forbidden_points()
        };
        let text = render(self.board(), &forbidden);
        write!(self.out, "{text}")?;
        if !forbidden.is_empty() {
            writeln!(
                self.out,
                "3/4/6: forbidden for {to_move} (double three, double four, overline)"
            )?;
        }
        Ok(())
    }
}

/// The shape's name for people.
fn shape_name(kind: ForbiddenKind) -> &'static str {
    match kind {
        ForbiddenKind::DoubleThree => "double three (3-3)",
        ForbiddenKind::DoubleFour => "double four (4-4)",
        ForbiddenKind::Overline => "overline (six or more)",
    }
}

/// Draws `board` with renju coordinates, the last move bracketed and `forbidden` marked.
pub fn render(board: &Board, forbidden: &[(Pos, ForbiddenKind)]) -> String {
    let (w, h) = (board.width(), board.height());
    let header: String = (0..w).map(|x| format!("{:>2}", column_name(x))).collect();
    let mut s = format!("   {header}\n");
    let last = board.last_move().map(|(p, _)| p);
    for y in 0..h {
        let mut row: Vec<char> = vec![' '; 2 * w + 1];
        for x in 0..w {
            let p = Pos::new_unchecked(x, y);
            row[2 * x + 1] = match board.get(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => match forbidden.iter().find(|(q, _)| *q == p) {
                    Some((_, ForbiddenKind::DoubleThree)) => '3',
                    Some((_, ForbiddenKind::DoubleFour)) => '4',
                    Some((_, ForbiddenKind::Overline)) => '6',
                    None => '.',
                },
            };
            if last == Some(p) {
                row[2 * x] = '[';
                row[2 * x + 2] = ']';
            }
        }
        let row: String = row.into_iter().collect();
        s.push_str(&format!("{:>2} {}{:>2}\n", h - y, row, h - y));
    }
    s.push_str(&format!("   {header}\n"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::FakeClock;

    fn run(args: &PlayArgs, input: &str) -> String {
        let mut out = Vec::new();
        play(
            input.as_bytes(),
            &mut out,
            args,
            Params::default(),
            Arc::new(FakeClock::default()),
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    fn renju_black() -> PlayArgs {
        PlayArgs {
            rule: Some(Rule::Renju.into()),
            color: Some("black".into()),
            strength: Some(0),
            size: 15,
            move_ms: 100,
            nodes: Some(2000),
            // Black f8 g8 h10 h9, white in the corners: h8 is a double three for black.
            opening: Some("f8 a15 g8 o1 h10 a1 h9 o15".into()),
            seed: 1,
            opening_rule: None,
            pente: PenteFlags::default(),
        }
    }

    #[test]
    fn refusals_say_why() {
        let out = run(&renju_black(), "h8\nf8\nzz\nz9\nh7\nquit\n");
        assert!(
            out.contains("h8 is forbidden for black: double three (3-3)"),
            "{out}"
        );
        assert!(out.contains("f8 is occupied"), "{out}");
        assert!(out.contains("'zz' is not a move"), "{out}");
        assert!(out.contains("z9 is off the 15x15 board"), "{out}");
        assert!(out.contains("omok plays "), "{out}");
        // The forbidden point is marked on the first board, with the legend.
        let first = out.split(" 8 ").nth(1).unwrap();
        assert!(first.trim_start().starts_with(". . . . . X X 3"), "{first}");
        assert!(out.contains("3/4/6: forbidden for black"), "{out}");
        assert!(out.contains("[X]"), "the last move is bracketed: {out}");
    }

    #[test]
    fn undo_takes_back_the_move_and_the_reply() {
        let out = run(&renju_black(), "j8\nundo\nundo\nquit\n");
        assert!(out.contains("took back 2 moves"), "{out}");
        assert!(out.contains("nothing to undo"), "{out}");
    }

    #[test]
    fn setup_questions_take_defaults_and_retry() {
        let args = PlayArgs {
            nodes: Some(500),
            move_ms: 50,
            size: 15,
            ..PlayArgs::default()
        };
        let out = run(&args, "chess\n\nwhite\n101\n0\nquit\n");
        assert!(out.contains("unknown rule 'chess'"), "{out}");
        assert!(out.contains("'101' is not a strength"), "{out}");
        assert!(
            out.contains("renju, 15x15; you play white, omok plays black at strength 0"),
            "{out}"
        );
        // The engine opened as black at the centre.
        assert!(out.contains("omok plays h8"), "{out}");
    }

    #[test]
    fn a_five_ends_the_game() {
        let args = PlayArgs {
            rule: Some(Rule::Freestyle.into()),
            color: Some("black".into()),
            opening: Some("a1 o15 b1 o14 c1 o13 d1 o12".into()),
            ..renju_black()
        };
        let out = run(&args, "e1\nh8\nquit\n");
        assert!(
            out.contains("black has five in a row (a1-e1): you win!"),
            "{out}"
        );
        assert!(out.contains("the game is over"), "{out}");
    }

    #[test]
    fn an_opening_rule_runs_before_the_moves() {
        // Swap2, the person proposes; the engine answers one of its three ways.
        let args = PlayArgs {
            rule: Some(Rule::Freestyle.into()),
            opening: None,
            opening_rule: Some(OpeningRule::Swap2),
            nodes: Some(300),
            ..renju_black()
        };
        let out = run(
            &args,
            "h8
z1
h9
j10
quit
",
        );
        assert!(out.contains("Opening rule swap2."), "{out}");
        assert!(out.contains("you placed white h9"), "{out}");
        assert!(out.contains("'z1'"), "{out}");
        assert!(
            out.contains("omok swapped") || out.contains("omok placed white"),
            "{out}"
        );
        // Swap, the engine proposes; the person keeps white and plays; undo keeps the opening.
        let args = PlayArgs {
            color: Some("white".into()),
            opening_rule: Some(OpeningRule::Swap),
            ..args
        };
        let out = run(
            &args,
            "h8
keep
a1
undo
undo
quit
",
        );
        assert_eq!(out.matches("omok placed").count(), 3, "{out}");
        assert!(out.contains("that does not answer: swap or keep"), "{out}");
        assert!(out.contains("you kept the colours"), "{out}");
        assert!(out.contains("nothing to undo"), "{out}");
    }
}
