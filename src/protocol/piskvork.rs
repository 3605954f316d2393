//! The Piskvork protocol as text: [`parse`] turns one manager line into a [`Command`] (a pure
//! function: no state, no I/O, never panics), and [`Response`] formats what the brain answers.
//!
//! What the parser decides, and what it leaves to the brain:
//! - Keywords are case-insensitive; surrounding white space (CR included) is ignored. A line whose
//!   first character is a digit or a sign is a *stone line* (`x,y` or `x,y,field`) of a `BOARD`-like
//!   block.
//! - Coordinates are read as signed integers (`7,7`, `7, 7`, `-1,3`); whether they are on the board
//!   is the brain's question, since only it knows the board.
//! - Commands with arguments must have exactly those (`START 15 20` is an error); `END`, `STOP` and
//!   `YXSTOP` ignore trailing text so that a stray argument can never keep the brain running.
//! - `INFO` values are parsed and range-checked into [`Info`]; an unknown key is
//!   [`Info::Ignored`], a bad value of a known key is [`ProtocolError::BadInfo`].
//! - Any other keyword is [`Command::Unknown`] (the brain answers `UNKNOWN`); a known keyword with bad
//!   arguments is an error (the brain answers `ERROR`).
//!
//! Answers are single lines without control characters: text echoed from the manager is cleaned
//! ([`clean`]) and cut to [`MAX_ECHO_CHARS`].

use std::fmt;

use thiserror::Error;

use crate::core::Pos;
use crate::rule::Rule;
use crate::search::SearchInfo;

/// Lines longer than this many bytes are refused whole ([`ProtocolError::LineTooLong`]).
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Echoed manager text (in `UNKNOWN` and `ERROR` answers) is cut to this many characters.
pub const MAX_ECHO_CHARS: usize = 120;
/// The `ABOUT` answer.
pub const ABOUT: &str = concat!(
    "name=\"omok\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"the omok authors\", country=\"KR\""
);

/// A coordinate as the manager wrote it, not yet checked against a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coord {
    /// Column from the left.
    pub x: i64,
    /// Row from the top.
    pub y: i64,
}

/// The third field of a `BOARD` stone line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `1`: the brain's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: a continuous-game marker (a point of an earlier winning line; nobody may play it).
    Marker,
}

/// One stone line of a block: `x,y` or `x,y,field`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoneLine {
    /// The point.
    pub at: Coord,
    /// The field, when the line has one.
    pub field: Option<Field>,
}

/// The commands that open a block of stone lines closed by `DONE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// `BOARD`: set the position and answer a move.
    Board,
    /// `YXBOARD`: set the position only.
    YxBoard,
    /// `SWAP2BOARD`: a Swap2 opening decision.
    Swap2Board,
    /// `YXBLOCK`: root moves the brain must not play.
    YxBlock,
}

impl BlockKind {
    /// The keyword that opens the block.
    pub const fn keyword(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
            BlockKind::YxBlock => "YXBLOCK",
        }
    }
}

/// An `INFO key value` setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn` in ms (≥ 0; 0 = play at once).
    TimeoutTurn(i64),
    /// `timeout_match` in ms (≥ 0; 0 = no limit).
    TimeoutMatch(i64),
    /// `time_left` in ms (may be negative; 2147483647 = unlimited).
    TimeLeft(i64),
    /// `max_memory` in bytes (0 = no limit).
    MaxMemory(u64),
    /// `game_type` (0 human, 1 brain, 2 tournament, 3 network tournament).
    GameType(u32),
    /// `rule` (a Gomocup bitmask) or `omok_rule` (a rule name).
    Rule {
        /// The rule set.
        rule: Rule,
        /// Whether the Gomocup continuous-game bit (2) was set.
        continuous: bool,
    },
    /// `evaluate x,y` (debug only; nothing to do).
    Evaluate,
    /// `folder` for persistent files.
    Folder(String),
    /// `thread_num` (≥ 1).
    ThreadNum(usize),
    /// `hash_size` in KiB (0 = the engine's default).
    HashSize(u64),
    /// `max_depth` (`None` for 0 or less: no limit).
    MaxDepth(Option<u32>),
    /// `max_node` (`None` for 0 or less: no limit).
    MaxNode(Option<u64>),
    /// `show_detail` (0 = no `MESSAGE` lines while thinking).
    ShowDetail(u32),
    /// `pondering` (0 off, anything else on).
    Pondering(bool),
    /// `strength`, 0..=100.
    Strength(u8),
    /// A key this brain does not use (ignored silently).
    Ignored(String),
}

/// One manager line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`.
    Start(usize),
    /// `RECTSTART w,h`.
    RectStart {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// `RESTART`.
    Restart,
    /// `BEGIN`.
    Begin,
    /// `TURN x,y`.
    Turn(Coord),
    /// `BOARD`, `YXBOARD`, `SWAP2BOARD` or `YXBLOCK`: stone lines follow until `DONE`.
    BlockStart(BlockKind),
    /// A stone line.
    Stone(StoneLine),
    /// `DONE`.
    Done,
    /// `INFO key value`.
    Info(Info),
    /// `END`.
    End,
    /// `ABOUT`.
    About,
    /// `TAKEBACK x,y`.
    Takeback(Coord),
    /// `PLAY x,y`.
    Play(Coord),
    /// `YXSHOWFORBID`.
    YxShowForbid,
    /// `YXNBEST k`.
    YxNbest(usize),
    /// `STOP` or `YXSTOP`.
    Stop,
    /// `YXHASHCLEAR`.
    YxHashClear,
    /// `YXSHOWINFO`.
    YxShowInfo,
    /// `YXBLOCKRESET`.
    YxBlockReset,
    /// Anything else (the trimmed line).
    Unknown(String),
}

/// A line that names a known command but cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProtocolError {
    /// A blank line (the brain skips these before parsing).
    #[error("empty line")]
    Empty,
    /// A line over [`MAX_LINE_BYTES`].
    #[error("line of {len} bytes is longer than the {MAX_LINE_BYTES}-byte limit; ignored")]
    LineTooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// A command without its argument.
    #[error("{command} needs {expected}")]
    MissingArgument {
        /// The keyword.
        command: &'static str,
        /// What should follow it.
        expected: &'static str,
    },
    /// An argument that does not parse.
    #[error("{command}: '{text}' is not {expected}")]
    BadArgument {
        /// The keyword.
        command: &'static str,
        /// The argument as written (cleaned).
        text: String,
        /// What it should be.
        expected: &'static str,
    },
    /// Text after a complete command.
    #[error("{command}: unexpected '{text}' after the command")]
    ExtraArgument {
        /// The keyword.
        command: &'static str,
        /// The extra text (cleaned).
        text: String,
    },
    /// A stone line that is not `x,y` or `x,y,field`.
    #[error("'{text}' is not a stone line (x,y or x,y,field with field 1, 2 or 3)")]
    BadStoneLine {
        /// The line (cleaned).
        text: String,
    },
    /// An `INFO` value that does not fit its key.
    #[error("INFO {key} '{value}': {reason}")]
    BadInfo {
        /// The key (lower case).
        key: String,
        /// The value (cleaned).
        value: String,
        /// What is wrong.
        reason: String,
    },
}

/// One line the brain writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `OK`.
    Ok,
    /// A move `x,y`.
    Move(Pos),
    /// Several moves on one line, `x,y x,y …` (Swap2).
    Moves(Vec<Pos>),
    /// `SWAP` (Swap2: the brain takes black).
    Swap,
    /// `ERROR <message>`.
    Error(String),
    /// `UNKNOWN <text>`.
    Unknown(String),
    /// `MESSAGE <text>`.
    Message(String),
    /// The [`ABOUT`] line.
    About,
    /// `FORBID XXYY….` (Yixin's forbidden-point list).
    Forbid(Vec<Pos>),
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Ok => f.write_str("OK"),
            Response::Move(p) => write!(f, "{},{}", p.x(), p.y()),
            Response::Moves(ps) => {
                let moves: Vec<String> =
                    ps.iter().map(|p| format!("{},{}", p.x(), p.y())).collect();
                f.write_str(&moves.join(" "))
            }
            Response::Swap => f.write_str("SWAP"),
            Response::Error(m) => write!(f, "ERROR {}", clean(m, usize::MAX)),
            Response::Unknown(t) => write!(f, "UNKNOWN {}", clean(t, MAX_ECHO_CHARS)),
            Response::Message(m) => write!(f, "MESSAGE {}", clean(m, usize::MAX)),
            Response::About => f.write_str(ABOUT),
            Response::Forbid(ps) => {
                f.write_str("FORBID ")?;
                for p in ps {
                    write!(f, "{:02}{:02}", p.x(), p.y())?;
                }
                f.write_str(".")
            }
        }
    }
}

/// The `MESSAGE` text of a progress report: depth, score, nodes, speed (nodes per second), time
/// and the principal line.
pub fn info_message(info: &SearchInfo) -> String {
    let pv: Vec<String> = info
        .pv
        .iter()
        .map(|p| format!("{},{}", p.x(), p.y()))
        .collect();
    format!(
        "depth {} score {} nodes {} speed {} time {} pv {}",
        info.depth,
        info.score,
        info.nodes,
        info.nps(),
        info.elapsed_ms,
        pv.join(" ")
    )
}

/// `text` on one line: control characters become spaces and it is cut to `max` characters.
pub fn clean(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// Parses one manager line.
pub fn parse(line: &str) -> Result<Command, ProtocolError> {
    if line.len() > MAX_LINE_BYTES {
        return Err(ProtocolError::LineTooLong { len: line.len() });
    }
    let line = line.trim();
    let Some(first) = line.chars().next() else {
        return Err(ProtocolError::Empty);
    };
    if first.is_ascii_digit() || first == '-' || first == '+' {
        return parse_stone(line).map(Command::Stone);
    }
    let (word, rest) = split_word(line);
    let command = match word.to_ascii_uppercase().as_str() {
        "START" => Command::Start(number("START", rest, "a board size")?),
        "RECTSTART" => {
            let c = coord("RECTSTART", rest, "a size w,h")?;
            let size = |v: i64| usize::try_from(v).ok();
            match (size(c.x), size(c.y)) {
                (Some(width), Some(height)) => Command::RectStart { width, height },
                _ => return Err(bad("RECTSTART", rest, "a size w,h")),
            }
        }
        "RESTART" => bare("RESTART", rest, Command::Restart)?,
        "BEGIN" => bare("BEGIN", rest, Command::Begin)?,
        "TURN" => Command::Turn(coord("TURN", rest, "a point x,y")?),
        "BOARD" => bare("BOARD", rest, Command::BlockStart(BlockKind::Board))?,
        "YXBOARD" => bare("YXBOARD", rest, Command::BlockStart(BlockKind::YxBoard))?,
        "SWAP2BOARD" => bare(
            "SWAP2BOARD",
            rest,
            Command::BlockStart(BlockKind::Swap2Board),
        )?,
        "YXBLOCK" => bare("YXBLOCK", rest, Command::BlockStart(BlockKind::YxBlock))?,
        "DONE" => bare("DONE", rest, Command::Done)?,
        "INFO" => Command::Info(parse_info(rest)?),
        "END" => Command::End,
        "STOP" | "YXSTOP" => Command::Stop,
        "ABOUT" => bare("ABOUT", rest, Command::About)?,
        "TAKEBACK" => Command::Takeback(coord("TAKEBACK", rest, "a point x,y")?),
        "PLAY" => Command::Play(coord("PLAY", rest, "a point x,y")?),
        "YXSHOWFORBID" => bare("YXSHOWFORBID", rest, Command::YxShowForbid)?,
        "YXNBEST" => match number("YXNBEST", rest, "a move count of at least 1")? {
            0 => return Err(bad("YXNBEST", rest, "a move count of at least 1")),
            k => Command::YxNbest(k),
        },
        "YXHASHCLEAR" => bare("YXHASHCLEAR", rest, Command::YxHashClear)?,
        "YXSHOWINFO" => bare("YXSHOWINFO", rest, Command::YxShowInfo)?,
        "YXBLOCKRESET" => bare("YXBLOCKRESET", rest, Command::YxBlockReset)?,
        _ => Command::Unknown(line.to_string()),
    };
    Ok(command)
}

/// The first white-space-separated word and the trimmed rest.
fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], s[i..].trim()),
        None => (s, ""),
    }
}

fn bad(command: &'static str, text: &str, expected: &'static str) -> ProtocolError {
    ProtocolError::BadArgument {
        command,
        text: clean(text, MAX_ECHO_CHARS),
        expected,
    }
}

/// A command without arguments.
fn bare(command: &'static str, rest: &str, value: Command) -> Result<Command, ProtocolError> {
    if rest.is_empty() {
        Ok(value)
    } else {
        Err(ProtocolError::ExtraArgument {
            command,
            text: clean(rest, MAX_ECHO_CHARS),
        })
    }
}

fn number(
    command: &'static str,
    rest: &str,
    expected: &'static str,
) -> Result<usize, ProtocolError> {
    if rest.is_empty() {
        return Err(ProtocolError::MissingArgument { command, expected });
    }
    rest.parse().map_err(|_| bad(command, rest, expected))
}

fn coord(
    command: &'static str,
    rest: &str,
    expected: &'static str,
) -> Result<Coord, ProtocolError> {
    if rest.is_empty() {
        return Err(ProtocolError::MissingArgument { command, expected });
    }
    let parts: Vec<&str> = rest.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [x, y] => match (x.parse(), y.parse()) {
            (Ok(x), Ok(y)) => Ok(Coord { x, y }),
            _ => Err(bad(command, rest, expected)),
        },
        _ => Err(bad(command, rest, expected)),
    }
}

fn parse_stone(line: &str) -> Result<StoneLine, ProtocolError> {
    let err = || ProtocolError::BadStoneLine {
        text: clean(line, MAX_ECHO_CHARS),
    };
    let parts: Vec<&str> = line.split(',').map(str::trim).collect();
    let int = |s: &str| s.parse::<i64>().map_err(|_| err());
    let (x, y, field) = match parts.as_slice() {
        [x, y] => (int(x)?, int(y)?, None),
        [x, y, f] => {
            let field = match *f {
                "1" => Field::Own,
                "2" => Field::Opponent,
                "3" => Field::Marker,
                _ => return Err(err()),
            };
            (int(x)?, int(y)?, Some(field))
        }
        _ => return Err(err()),
    };
    Ok(StoneLine {
        at: Coord { x, y },
        field,
    })
}

fn parse_info(rest: &str) -> Result<Info, ProtocolError> {
    let (key, value) = split_word(rest);
    if key.is_empty() {
        return Err(ProtocolError::MissingArgument {
            command: "INFO",
            expected: "a key and a value",
        });
    }
    let key = key.to_ascii_lowercase();
    let bad = |reason: &str| ProtocolError::BadInfo {
        key: clean(&key, MAX_ECHO_CHARS),
        value: clean(value, MAX_ECHO_CHARS),
        reason: reason.to_string(),
    };
    let int = || value.parse::<i64>().map_err(|_| bad("not an integer"));
    let non_negative = || {
        int().and_then(|v| {
            if v >= 0 {
                Ok(v)
            } else {
                Err(bad("must not be negative"))
            }
        })
    };
    let info = match key.as_str() {
        "timeout_turn" => Info::TimeoutTurn(non_negative()?),
        "timeout_match" => Info::TimeoutMatch(non_negative()?),
        "time_left" => Info::TimeLeft(int()?),
        "max_memory" => Info::MaxMemory(non_negative()? as u64),
        "game_type" => {
            Info::GameType(u32::try_from(non_negative()?).map_err(|_| bad("too large"))?)
        }
        "rule" => {
            let code = u32::try_from(non_negative()?).map_err(|_| bad("too large"))?;
            let rule = Rule::from_gomocup_code(code).map_err(|e| bad(&e.to_string()))?;
            Info::Rule {
                rule,
                continuous: code & 2 != 0,
            }
        }
        "omok_rule" => {
            let rule = value.parse::<Rule>().map_err(|e| bad(&e.to_string()))?;
            Info::Rule {
                rule,
                continuous: false,
            }
        }
        "evaluate" => Info::Evaluate,
        "folder" => Info::Folder(value.to_string()),
        "thread_num" => match non_negative()? {
            0 => return Err(bad("must be at least 1")),
            n => Info::ThreadNum(usize::try_from(n).unwrap_or(usize::MAX)),
        },
        "hash_size" => Info::HashSize(non_negative()? as u64),
        "max_depth" => Info::MaxDepth(match int()? {
            ..=0 => None,
            d => Some(u32::try_from(d).unwrap_or(u32::MAX)),
        }),
        "max_node" => Info::MaxNode(match int()? {
            ..=0 => None,
            n => Some(n as u64),
        }),
        "show_detail" => Info::ShowDetail(u32::try_from(non_negative()?).unwrap_or(u32::MAX)),
        "pondering" => Info::Pondering(int()? != 0),
        "strength" => match int()? {
            s @ 0..=100 => Info::Strength(s as u8),
            _ => return Err(bad("must be 0..=100")),
        },
        _ => Info::Ignored(key.clone()),
    };
    Ok(info)
}

#[cfg(test)]
mod tests;
