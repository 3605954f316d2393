//! The opening rule in `pbrain-omok play` (`--opening-rule`): the person and the engine go
//! through the rule's steps ([`crate::rules::opening`]) before the ordinary moves; the engine's
//! steps come from [`crate::opening_play`].
//!
//! The person's colour from `--color` is the colour they start the opening with (black = the
//! first player). At each of their steps the prompt says what to do; the answers are:
//! a point (`h8`) to place a stone, to keep white and play the 4th in Swap2, or to choose an
//! offer; `swap` or `keep` for a swap decision (and Taraguchi's swap branch); two points
//! (`g9 j7`) for Swap2's two more stones; a number for Soosõrv's declaration; the offers as points
//! separated by spaces. `board`, `help` and `quit` work as always. Swaps change the person's
//! colour; opening stones are never taken back by `undo`.

use std::io::{BufRead, Write};

use super::{Input, PlayError, Session, read_line};
use crate::core::Pos;
use crate::engine::Limits;
use crate::notation::{format_renju, parse_renju_moves};
use crate::opening_play::decide;
use crate::rules::opening::{Effect, Opening, OpeningAction, PendingKind, Region};
use crate::time::Budget;

const HELP: &str = "Opening: a point such as h8 · swap · keep · two points (Swap2: 4th and 5th) · \
a number (declare) · offers as points separated by spaces · board · quit";

impl<R: BufRead, W: Write> Session<R, W> {
    /// Plays the opening rule's steps; `false` when the input ended or the person quit.
    pub(super) fn play_opening(&mut self) -> Result<bool, PlayError> {
        let board = self.board().clone();
        let mut opening = Opening::new(self.opening_rule, crate::core::Color::Black, &board)
            .map_err(|e| PlayError::Options(format!("--opening-rule: {e}")))?;
        if opening.is_finished() {
            return Ok(true);
        }
        writeln!(self.out, "Opening rule {}. {HELP}", opening.rule())?;
        self.draw()?;
        while let Some(pending) = opening.pending() {
            let actor = opening.color_of(pending.by);
            let action = if actor == self.human {
                match self.ask_opening(&opening, &pending.kind)? {
                    Some(a) => a,
                    None => return Ok(false),
                }
            } else {
                let limits = Limits {
                    budget: Budget {
                        optimum_ms: self.args.move_ms,
                        maximum_ms: self.args.move_ms,
                    },
                    max_nodes: self.args.nodes,
                    max_depth: None,
                };
                let board = self.board().clone();
                let seed = self.args.seed ^ board.hash();
                match decide(&mut self.engine, &limits, &opening, &board, seed) {
                    Some(a) => a,
                    None => {
                        writeln!(self.out, "omok has no opening move left: stopping.")?;
                        return Ok(false);
                    }
                }
            };
            let board = self.board().clone();
            let effects = match opening.apply(&board, pending.by, action.clone()) {
                Ok(e) => e,
                Err(e) => {
                    writeln!(self.out, "{e}")?;
                    continue;
                }
            };
            let who = if actor == self.human { "you" } else { "omok" };
            self.report(who, &effects)?;
        }
        Ok(true)
    }

    fn report(&mut self, who: &str, effects: &[Effect]) -> Result<(), PlayError> {
        let height = self.board().height();
        let name = |p: &Pos| format_renju(*p, height);
        let mut placed = false;
        for e in effects {
            match e {
                Effect::Stone(p, c) => {
                    let mut stones = self.board().history().to_vec();
                    stones.push((*p, *c));
                    self.engine
                        .set_position(&stones)
                        .map_err(|e| PlayError::Options(e.to_string()))?;
                    self.rule_stones += 1;
                    writeln!(self.out, "{who} placed {c} {}", name(p))?;
                    placed = true;
                }
                Effect::Swapped(true) => {
                    self.human = self.human.opponent();
                    writeln!(self.out, "{who} swapped: you now play {}", self.human)?;
                }
                Effect::Swapped(false) => writeln!(self.out, "{who} kept the colours")?,
                Effect::Declared(n) => writeln!(self.out, "{who} declared {n} fifth move(s)")?,
                Effect::Offered(v) => {
                    let list: Vec<String> = v.iter().map(name).collect();
                    writeln!(self.out, "{who} offered {}", list.join(" "))?;
                }
                Effect::Chosen(p) => writeln!(self.out, "{who} chose {}", name(p))?,
                Effect::Finished(c) => writeln!(
                    self.out,
                    "The opening is over; {c} to move, you play {}.",
                    self.human
                )?,
            }
        }
        if placed {
            self.draw()?;
        }
        Ok(())
    }

    /// Asks the person for the pending step until the answer has the right form; `None` at the
    /// end of input or on `quit`.
    fn ask_opening(
        &mut self,
        opening: &Opening,
        kind: &PendingKind,
    ) -> Result<Option<OpeningAction>, PlayError> {
        let height = self.board().height();
        let width = self.board().width();
        let region = |r: &Region| match r {
            Region::Anywhere => String::new(),
            r => format!(" ({r})"),
        };
        let prompt = match kind {
            PendingKind::Place { color, region: r } => {
                format!("place a {color} stone{}", region(r))
            }
            PendingKind::Swap => "swap or keep".to_string(),
            PendingKind::Swap2Choice { color } => {
                format!("swap, keep and place the 4th ({color}), or place two stones")
            }
            PendingKind::Declare { max } => format!("declare 1-{max} fifth moves"),
            PendingKind::Offer { color, count } => format!("offer {count} {color} fifth move(s)"),
            PendingKind::SwapOrOffer { count, .. } => {
                format!("swap or keep (then the 5th), or offer {count} fifth moves")
            }
            PendingKind::Choose { .. } => {
                let list: Vec<String> = opening
                    .offers()
                    .iter()
                    .map(|p| format_renju(*p, height))
                    .collect();
                format!("choose one of {}", list.join(" "))
            }
        };
        loop {
            write!(self.out, "you play {}: {prompt} > ", self.human)?;
            self.out.flush()?;
            let line = match read_line(&mut self.input)? {
                Input::Eof => {
                    writeln!(self.out)?;
                    return Ok(None);
                }
                Input::Line(l) => l.to_ascii_lowercase(),
            };
            let answer = match line.as_str() {
                "" => continue,
                "quit" | "exit" | "q" => return Ok(None),
                "help" | "?" => {
                    writeln!(self.out, "{HELP}")?;
                    continue;
                }
                "board" => {
                    self.draw()?;
                    continue;
                }
                "swap" | "yes" => Some(OpeningAction::Swap(true)),
                "keep" | "no" => Some(OpeningAction::Swap(false)),
                text => match (kind, text.parse::<u8>()) {
                    (PendingKind::Declare { .. }, Ok(n)) => Some(OpeningAction::Declare(n)),
                    _ => match parse_renju_moves(text, width, height) {
                        Ok(points) => match (kind, points.as_slice()) {
                            (PendingKind::Choose { .. }, &[p]) => Some(OpeningAction::Choose(p)),
                            (PendingKind::Place { .. } | PendingKind::Swap2Choice { .. }, &[p]) => {
                                Some(OpeningAction::Place(p))
                            }
                            (PendingKind::Swap2Choice { .. }, &[a, b]) => {
                                Some(OpeningAction::PutTwo([a, b]))
                            }
                            (PendingKind::Offer { .. } | PendingKind::SwapOrOffer { .. }, _) => {
                                Some(OpeningAction::Offer(points))
                            }
                            _ => None,
                        },
                        Err(e) => {
                            writeln!(self.out, "'{text}': {e}")?;
                            continue;
                        }
                    },
                },
            };
            match answer {
                Some(a) => match opening.check(self.board(), opening.actor(), &a) {
                    Ok(()) => return Ok(Some(a)),
                    Err(e) => writeln!(self.out, "{e}")?,
                },
                None => writeln!(self.out, "that does not answer: {prompt}")?,
            }
        }
    }
}
