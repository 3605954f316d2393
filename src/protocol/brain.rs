//! The brain: the protocol state machine between parsed manager lines and the [`Engine`].
//!
//! [`Brain::handle`] takes one parsed line and writes the answer lines to any [`Write`] (stdout in
//! the binary, a `Vec<u8>` in tests), flushing after each line. It never panics on input.
//!
//! Invariants:
//! - **Errors change nothing.** A command that is answered with `ERROR` leaves the position, the
//!   markers and the settings exactly as they were (the engine validates moves and positions as a
//!   whole before changing anything, and so does the brain).
//! - **One answer per command.** `START`, `RECTSTART`, `RESTART`, `TAKEBACK` answer `OK`; `BEGIN`,
//!   `TURN`, `BOARD`…`DONE`, `PLAY` and `YXNBEST` a move; `SWAP2BOARD`…`DONE` its Swap2 answer;
//!   `ABOUT`, `YXSHOWFORBID` one line; `YXSHOWINFO` two `MESSAGE` lines; unknown commands
//!   `UNKNOWN`; `INFO`, `YXBOARD`…`DONE`, `YXBLOCK`…`DONE`, `YXBLOCKRESET`, `YXHASHCLEAR`, `END`
//!   and an idle `STOP` answer nothing unless they fail. Any failure answers one `ERROR` instead.
//!   `MESSAGE` lines (thinking progress, while `show_detail` is not 0) may precede a move.
//! - **Deferred `INFO` errors.** `INFO` never answers; a bad value is kept and printed as an extra
//!   `ERROR` line just before the answer of the next command that answers (every manager we
//!   support skips lines it does not expect while waiting for an answer).
//! - **Blocks.** `BOARD`, `YXBOARD`, `SWAP2BOARD` and `YXBLOCK` collect stone lines until `DONE`
//!   and are validated as a whole. A malformed or unknown line inside a block spoils it (one
//!   `ERROR` at `DONE`); a recognised command other than a stone line, `DONE` or `END` closes the
//!   block with an `ERROR` and is then handled normally, so a lost `DONE` cannot swallow a game.
//! - **Side to move from the counts.** In `BOARD`/`YXBOARD`, field 1 is the brain's own stone and 2
//!   the opponent's; the brain is the side to move, so equal counts make it black and one own
//!   stone fewer makes it white; other counts are an error. Field 3 (continuous game) marks a point
//!   nobody may play: markers stay off the engine's board and the brain never plays on one.
//! - **Before `START`** only `INFO`, `ABOUT`, `END`, `STOP` and the Yixin queries work; game commands
//!   answer `ERROR`.
//!
//! Pente: `INFO omok_rule pente` hands every later line to [`PenteBrain`] (its own rules,
//! position and search) until `INFO omok_rule`/`INFO rule` names an omok rule again.
//!
//! Time: every search gets [`Limits`] from the `INFO` keys through [`TimeSettings::budget`]. When
//! the manager gives a match time but no `time_left`, the brain counts its own thinking time
//! against the match time. `YXNBEST` thinks and answers the best move without playing it.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use thiserror::Error;

use crate::core::{Color, Pos};
use crate::engine::{Engine, Limits};
use crate::error::BoardError;
use crate::pente::brain::{self as pente_brain, PenteBrain};
use crate::rules::find_five;
use crate::search::{InfoSink, SearchInfo};
use crate::time::{Budget, TimeSettings, UNLIMITED_MS};

use super::piskvork::{
    BlockKind, Command, Coord, ProtocolError, Response, StoneLine, clean, info_message, parse,
};
use super::swap2;

/// Most stone lines a block may hold (the largest board has 32×32 points).
const MAX_BLOCK_STONES: usize = 32 * 32;
/// The largest transposition table `INFO hash_size` may ask for, in KiB (4 GiB).
pub const MAX_HASH_KB: u64 = 4 << 20;

/// Whether the loop goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `END`: exit now.
    Quit,
}

/// Why a command was refused (the text after `ERROR`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BrainError {
    /// The line could not be parsed.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// A point or position the board refuses.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A game command before `START`/`RECTSTART`.
    #[error("{0} before START: no game has been started")]
    NotStarted(&'static str),
    /// A move on a continuous-game marker.
    #[error("point ({x},{y}) holds a continuous-game marker")]
    Marker {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// A block that cannot be used.
    #[error("{block}: {reason}; the position is unchanged")]
    Block {
        /// The block's keyword.
        block: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A command arrived inside a block.
    #[error("{block} was not closed by DONE before '{line}'; the block is ignored")]
    Interrupted {
        /// The block's keyword.
        block: &'static str,
        /// The interrupting line (cleaned).
        line: String,
    },
    /// A stone line outside a block.
    #[error("stone line '{0}' outside BOARD, YXBOARD, SWAP2BOARD or YXBLOCK")]
    StrayStone(String),
    /// `DONE` outside a block.
    #[error("DONE without BOARD, YXBOARD, SWAP2BOARD or YXBLOCK")]
    StrayDone,
    /// The game is already decided.
    #[error("the game is over: {0} has five in a row")]
    GameOver(Color),
    /// No point is left to play.
    #[error("no legal move is left for {0}")]
    NoMove(Color),
    /// An `INFO` setting the engine cannot honour.
    #[error("INFO {key}: {reason}")]
    Setting {
        /// The key.
        key: &'static str,
        /// What is wrong.
        reason: String,
    },
}

struct Block {
    kind: BlockKind,
    stones: Vec<StoneLine>,
    error: Option<BrainError>,
}

/// The protocol state machine (see the module doc).
pub struct Brain<W: Write> {
    engine: Engine,
    out: W,
    settings: Settings,
    started: bool,
    block: Option<Block>,
    markers: Vec<Pos>,
    excluded: Vec<Pos>,
    pending: Vec<String>,
    ending: Option<Arc<AtomicBool>>,
    /// Pente mode (`INFO omok_rule pente`): every line goes to it.
    pente: Option<PenteBrain>,
    /// When the line being handled was read (the engine's clock), if the caller says: a search
    /// it starts counts its turn from then.
    read_ms: Option<u64>,
}

/// Writes thinking progress as `MESSAGE` lines.
struct MessageSink<'a, W: Write> {
    out: &'a mut W,
    enabled: bool,
    failed: Option<io::Error>,
}

impl<W: Write> InfoSink for MessageSink<'_, W> {
    fn report(&mut self, info: &SearchInfo) {
        if self.enabled && self.failed.is_none() {
            let line = Response::Message(info_message(info));
            if let Err(e) = writeln!(self.out, "{line}").and_then(|_| self.out.flush()) {
                self.failed = Some(e);
            }
        }
    }
}

impl<W: Write> Brain<W> {
    /// A brain driving `engine` and answering into `out`.
    pub fn new(engine: Engine, out: W) -> Brain<W> {
        Brain {
            engine,
            out,
            settings: Settings::default(),
            started: false,
            block: None,
            markers: Vec::new(),
            excluded: Vec::new(),
            pending: Vec::new(),
            ending: None,
            pente: None,
            read_ms: None,
        }
    }

    /// A flag that, once raised (the reader saw `END`), makes every later search use a zero time
    /// budget, so commands still queued before `END` are answered at once.
    pub fn set_end_flag(&mut self, flag: Arc<AtomicBool>) {
        self.ending = Some(flag);
    }

    /// The engine (its position is the game's).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The `INFO` settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Continuous-game markers of the current position.
    pub fn markers(&self) -> &[Pos] {
        &self.markers
    }

    /// The output, for tests.
    pub fn output(&self) -> &W {
        &self.out
    }

    /// Parses and handles one line (blank lines are ignored).
    pub fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        if line.trim().is_empty() {
            return Ok(Flow::Continue);
        }
        self.handle(line, parse(line))
    }

    /// Handles one line already parsed (`raw` is the line, for messages); a search it starts
    /// counts its turn from now.
    pub fn handle(
        &mut self,
        raw: &str,
        parsed: Result<Command, ProtocolError>,
    ) -> io::Result<Flow> {
        self.read_ms = None;
        self.handle_parsed(raw, parsed)
    }

    /// [`Brain::handle`] for a line read at `read_ms` on the engine's clock: a search it starts
    /// counts its turn from then, so time spent before the line was taken up (a new rule's
    /// pattern tables, a long line queue) comes out of the search's budget.
    pub fn handle_read_at(
        &mut self,
        raw: &str,
        parsed: Result<Command, ProtocolError>,
        read_ms: u64,
    ) -> io::Result<Flow> {
        self.read_ms = Some(read_ms);
        self.handle_parsed(raw, parsed)
    }

    fn handle_parsed(
        &mut self,
        raw: &str,
        parsed: Result<Command, ProtocolError>,
    ) -> io::Result<Flow> {
        if self.block.is_none() && pente_brain::is_pente_switch(raw) {
            self.pente.get_or_insert_with(PenteBrain::new);
            return Ok(Flow::Continue);
        }
        if let Some(pente) = self.pente.as_mut() {
            if !pente_brain::is_omok_switch(raw) {
                return pente.handle(raw, &mut self.out);
            }
            self.pente = None;
        }
        if let Some(block) = self.block.as_mut() {
            match parsed {
                Ok(Command::Stone(stone)) => {
                    if block.stones.len() >= MAX_BLOCK_STONES {
                        let reason = format!("more than {MAX_BLOCK_STONES} stone lines");
                        block.error.get_or_insert(BrainError::Block {
                            block: block.kind.keyword(),
                            reason,
                        });
                    } else {
                        block.stones.push(stone);
                    }
                    return Ok(Flow::Continue);
                }
                Ok(Command::Done) => {
                    let block = self.block.take().expect("a block is open");
                    self.finish_block(block)?;
                    return Ok(Flow::Continue);
                }
                Ok(Command::End) => return Ok(Flow::Quit),
                Err(e) => {
                    block.error.get_or_insert(e.into());
                    return Ok(Flow::Continue);
                }
                Ok(Command::Unknown(text)) => {
                    let reason = format!("unknown line '{}'", clean(&text, 60));
                    block.error.get_or_insert(BrainError::Block {
                        block: block.kind.keyword(),
                        reason,
                    });
                    return Ok(Flow::Continue);
                }
                Ok(other) => {
                    let block = self.block.take().expect("a block is open");
                    let line = clean(raw.trim(), 60);
                    self.error(BrainError::Interrupted {
                        block: block.kind.keyword(),
                        line,
                    })?;
                    return self.command(other);
                }
            }
        }
        match parsed {
            Ok(command) => self.command(command),
            // INFO never answers: its errors wait for the next answer.
            Err(
                e @ (ProtocolError::BadInfo { .. }
                | ProtocolError::MissingArgument {
                    command: "INFO", ..
                }),
            ) => {
                self.pending
                    .push(Response::Error(e.to_string()).to_string());
                Ok(Flow::Continue)
            }
            Err(e) => self.error(e.into()).map(|_| Flow::Continue),
        }
    }

    fn command(&mut self, command: Command) -> io::Result<Flow> {
        let result = match command {
            Command::End => return Ok(Flow::Quit),
            Command::Start(n) => self.new_game(n, n),
            Command::RectStart { width, height } => self.new_game(width, height),
            Command::Restart => self.started("RESTART").map(|_| {
                self.engine.restart();
                self.reset_game();
                Some(Response::Ok)
            }),
            Command::Begin => self.started("BEGIN").and_then(|_| self.play_own()),
            Command::Turn(c) => self.turn(c),
            Command::BlockStart(kind) => {
                self.block = Some(Block {
                    kind,
                    stones: Vec::new(),
                    error: None,
                });
                Ok(None)
            }
            Command::Stone(s) => Err(BrainError::StrayStone(format!("{},{}", s.at.x, s.at.y))),
            Command::Done => Err(BrainError::StrayDone),
            Command::Info(info) => {
                if let Err(e) = self.info(info) {
                    self.pending
                        .push(Response::Error(e.to_string()).to_string());
                }
                Ok(None)
            }
            Command::About => Ok(Some(Response::About)),
            Command::Takeback(c) => self.started("TAKEBACK").and_then(|_| {
                let p = self.point(c)?;
                self.engine.takeback(p)?;
                Ok(Some(Response::Ok))
            }),
            Command::Play(c) => self.started("PLAY").and_then(|_| {
                let p = self.free_point(c)?;
                self.engine.play(p)?;
                Ok(Some(Response::Move(p)))
            }),
            Command::YxShowForbid => {
                let points = self
                    .engine
                    .forbidden_points()
                    .into_iter()
                    .map(|(p, _)| p)
                    .collect();
                Ok(Some(Response::Forbid(points)))
            }
            Command::YxNbest(k) => match self.started("YXNBEST") {
                Err(e) => Err(e),
                Ok(()) => {
                    self.settings.nbest = k;
                    self.engine.set_multi_pv(k);
                    let searched = self.search_with_alternatives();
                    self.engine.set_multi_pv(1);
                    match searched {
                        Err(e) => Err(e),
                        Ok((best, alternatives)) => {
                            // Shown like the other thinking output, under `show_detail`.
                            let shown = if self.settings.show_detail != 0 {
                                &alternatives[..]
                            } else {
                                &[]
                            };
                            for (i, (p, score)) in shown.iter().enumerate() {
                                let line =
                                    format!("NBEST {} {},{} score {}", i + 1, p.x(), p.y(), score);
                                self.answer(Response::Message(line))?;
                            }
                            Ok(best.map(|r| Response::Move(r.0)))
                        }
                    }
                }
            },
            Command::Stop => Ok(None),
            Command::YxHashClear => {
                self.engine.clear_hash();
                Ok(None)
            }
            Command::YxShowInfo => {
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                self.answer(Response::Message(format!("INFO MAX_THREAD_NUM {threads}")))?;
                Ok(Some(Response::Message(format!(
                    "INFO MAX_HASH_SIZE {}",
                    self.max_hash_kb()
                ))))
            }
            Command::YxBlockReset => {
                self.excluded.clear();
                Ok(None)
            }
            Command::Unknown(text) => Ok(Some(Response::Unknown(text))),
        };
        match result {
            Ok(Some(response)) => self.answer(response)?,
            Ok(None) => {}
            Err(e) => self.error(e)?,
        }
        Ok(Flow::Continue)
    }

    /// Writes the pending `INFO` errors, then `response`.
    fn answer(&mut self, response: Response) -> io::Result<()> {
        for line in std::mem::take(&mut self.pending) {
            writeln!(self.out, "{line}")?;
        }
        writeln!(self.out, "{response}")?;
        self.out.flush()
    }

    fn error(&mut self, e: BrainError) -> io::Result<()> {
        self.answer(Response::Error(e.to_string()))
    }

    fn started(&self, command: &'static str) -> Result<(), BrainError> {
        if self.started {
            Ok(())
        } else {
            Err(BrainError::NotStarted(command))
        }
    }

    fn new_game(&mut self, width: usize, height: usize) -> Result<Option<Response>, BrainError> {
        self.engine.new_game(width, height)?;
        self.started = true;
        self.reset_game();
        Ok(Some(Response::Ok))
    }

    /// Forgets everything that belongs to one game (not the settings).
    fn reset_game(&mut self) {
        self.markers.clear();
        self.excluded.clear();
        self.settings.time.time_left_ms = None;
        // A new game searches from a clean table, so repeated games are reproducible.
        self.engine.clear_hash();
    }

    fn point(&self, c: Coord) -> Result<Pos, BrainError> {
        Ok(self.engine.board().pos(c.x, c.y)?)
    }

    /// A point on the board that holds neither a stone nor a marker.
    fn free_point(&self, c: Coord) -> Result<Pos, BrainError> {
        let p = self.point(c)?;
        if self.markers.contains(&p) {
            return Err(BrainError::Marker { x: p.x(), y: p.y() });
        }
        if !self.engine.board().is_empty(p) {
            return Err(BoardError::Occupied { x: p.x(), y: p.y() }.into());
        }
        Ok(p)
    }

    fn turn(&mut self, c: Coord) -> Result<Option<Response>, BrainError> {
        self.started("TURN")?;
        let p = self.free_point(c)?;
        self.engine.play(p)?;
        // The opponent's move stands even if no answer can follow (a five, a full board).
        self.play_own()
    }

    /// Thinks, plays the move and answers it.
    fn play_own(&mut self) -> Result<Option<Response>, BrainError> {
        let Some(p) = self.think()? else {
            return Ok(None);
        };
        self.engine.play(p)?;
        Ok(Some(Response::Move(p)))
    }

    /// The engine's move for the side to move (not played). `Ok(None)` only when writing the
    /// progress lines failed (the manager is gone).
    fn think(&mut self) -> Result<Option<Pos>, BrainError> {
        Ok(self.search()?.map(|r| r.0))
    }

    /// [`Brain::think`] with the search's score (from the side to move's view).
    fn search(&mut self) -> Result<Option<(Pos, i32)>, BrainError> {
        Ok(self.search_with_alternatives()?.0)
    }

    /// [`Brain::search`] with the scored alternatives of a multi-PV search (`YXNBEST`).
    #[allow(clippy::type_complexity)]
    fn search_with_alternatives(
        &mut self,
    ) -> Result<(Option<(Pos, i32)>, Vec<(Pos, i32)>), BrainError> {
        let color = self.engine.side_to_move();
        if let Some((winner, _)) = find_five(self.engine.board()) {
            return Err(BrainError::GameOver(winner));
        }
        let board = self.engine.board();
        let effective = self.effective_time();
        let mut budget = effective.budget(
            &self.engine.params().time,
            board.move_count(),
            board.width() * board.height(),
        );
        if self
            .ending
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst))
        {
            budget = Budget {
                optimum_ms: 0,
                maximum_ms: 0,
            };
        }
        // The turn runs from when the command was read, not from now; the transposition table,
        // when no search has made it at its size yet, is made first, on the turn's time (at
        // START the manager may not have said `max_memory` yet).
        self.engine.ensure_table();
        let waited = self
            .read_ms
            .map_or(0, |t| self.engine.clock().now_ms().saturating_sub(t));
        budget.optimum_ms = budget.optimum_ms.saturating_sub(waited);
        budget.maximum_ms = budget.maximum_ms.saturating_sub(waited);
        let limits = Limits {
            budget,
            max_nodes: self.settings.max_nodes,
            max_depth: self.settings.max_depth,
        };
        let mut sink = MessageSink {
            out: &mut self.out,
            enabled: self.settings.show_detail != 0,
            failed: None,
        };
        let result = self.engine.go(&limits, &mut sink);
        if sink.failed.is_some() {
            return Ok((None, Vec::new()));
        }
        self.spend(effective, waited + result.info.elapsed_ms);
        let blocked: Vec<Pos> = self.markers.iter().chain(&self.excluded).copied().collect();
        let best = match result.best {
            Some(p) if !blocked.contains(&p) => Some(p),
            _ => swap2::best_point(&mut self.engine.board().clone(), color, &blocked).map(|r| r.0),
        };
        let best = best.ok_or(BrainError::NoMove(color))?;
        Ok((Some((best, result.info.score)), result.alternatives))
    }

    /// The time settings for the next search: without a reported `time_left`, the match time
    /// stands in for it.
    fn effective_time(&self) -> TimeSettings {
        let mut t = self.settings.time;
        if t.time_left_ms.is_none() && t.match_ms > 0 {
            t.time_left_ms = Some(t.match_ms);
        }
        t
    }

    /// Counts `elapsed` against the match time until the manager reports it again.
    fn spend(&mut self, effective: TimeSettings, elapsed: u64) {
        if let Some(left) = effective.time_left_ms.filter(|&t| t != UNLIMITED_MS) {
            self.settings.time.time_left_ms = Some(left.saturating_sub(elapsed as i64));
        }
    }
}

mod blocks;
mod settings;

pub use settings::Settings;
#[cfg(test)]
mod tests;
