//! Judging the moves of one tournament game.
//!
//! The runner talks to a [`Judge`] only; [`new_judge`] is the one place that decides what judges.
//! It is the game referee ([`crate::game`]) set up the Gomocup way:
//! - `forbiddenPolicy = loss`: a forbidden move (renju black's 3-3, 4-4, overline; the korean and
//!   casual rules' forbidden shapes for either colour) stands as a foul and its player loses;
//! - `drawAfterStones`: the spec's stone limit (renju: 200, as Gomocup plays it); otherwise the
//!   game runs to a full board (or to a side with no legal point left, also a draw);
//! - no referee clock (`timeControl` none with the longest idle limit) — time, crashes, memory
//!   and unreadable answers are the manager's business ([`super::game_driver`]), because the
//!   Gomocup tolerance and match-time rules are not the referee's per-move seconds;
//! - `firstMoveCenter` off (an opening file decides the first stones), undo and draw offers off.
//!
//! The opening is placed through the referee too, so an opening it would not accept (a foul or a
//! decided position) is an error before any engine is asked to move. With an opening rule
//! (`opening_rule`), the rule's steps are judged by the referee as well ([`Judge::opening_act`]):
//! the first player is the referee's player `black`, and after swaps the ids say who holds which
//! colour ([`Judge::swapped`]).

use thiserror::Error;

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::game::options::{
    ColorAssignment, FirstMoveCenter, ForbiddenPolicy, Hints, TimeControl, UndoLimit,
};
use crate::game::{Action, Event, Game, GameError, ResultReason, Setup};
use crate::rule::Rule;
use crate::rules::ForbiddenKind;
use crate::rules::opening::{Opening, OpeningAction, OpeningRule};

/// The player ids the referee knows the two sides by.
const BLACK_ID: &str = "black";
const WHITE_ID: &str = "white";

/// What a judge needs to know about the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JudgeSettings {
    /// The rule set.
    pub rule: Rule,
    /// The board side.
    pub size: usize,
    /// Draw once this many stones stand (`None`: play to a full board).
    pub draw_after: Option<u32>,
    /// The opening rule played before the moves.
    pub opening_rule: OpeningRule,
}

/// Why a game ended, as the tournament counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// A winning line.
    Five,
    /// A forbidden move (it stands; its player loses).
    Foul,
    /// Answered later than the turn (or match) time plus the tolerance.
    Time,
    /// An off-board, occupied or unreadable answer.
    Illegal,
    /// The engine exited, closed its output or could not be started.
    Crash,
    /// The engine used more memory than `max_memory`.
    Memory,
    /// A full board (draw).
    BoardFull,
    /// The stone limit (draw).
    MoveLimit,
    /// The side to move has only forbidden points (draw).
    NoLegalMove,
}

impl Reason {
    /// Reasons a game can be lost by, in table order.
    pub const LOSSES: [Reason; 6] = [
        Reason::Five,
        Reason::Foul,
        Reason::Time,
        Reason::Illegal,
        Reason::Crash,
        Reason::Memory,
    ];

    /// The short name (`five`, `foul`, `time`, `illegal`, `crash`, `memory`, `board-full`,
    /// `move-limit`, `no-legal-move`).
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Foul => "foul",
            Reason::Time => "time",
            Reason::Illegal => "illegal",
            Reason::Crash => "crash",
            Reason::Memory => "memory",
            Reason::BoardFull => "board-full",
            Reason::MoveLimit => "move-limit",
            Reason::NoLegalMove => "no-legal-move",
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner (`None`: a draw).
    pub winner: Option<Color>,
    /// Why.
    pub reason: Reason,
    /// The winning line (reason five).
    pub win_line: Vec<Pos>,
    /// The forbidden shape of a foul.
    pub foul: Option<ForbiddenKind>,
}

/// The judgement of one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The stone stands and the game goes on.
    Continue,
    /// The move is not on the board or not empty: nothing was placed (the mover loses).
    Illegal(String),
    /// The game is over (the stone stands, also for a foul).
    Over(Outcome),
}

/// An opening the judge cannot start from.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum JudgeError {
    /// The referee refused the setup.
    #[error("cannot set up the referee: {0}")]
    Setup(GameError),
    /// The referee refused an opening stone.
    #[error("opening stone {index} ({x},{y}): {error}")]
    Opening {
        /// 1-based stone number.
        index: usize,
        /// Column.
        x: usize,
        /// Row.
        y: usize,
        /// The referee's reason.
        error: GameError,
    },
    /// The opening itself ends the game.
    #[error("the opening is already decided after stone {0}")]
    Decided(usize),
}

/// Judges the moves of one game.
pub trait Judge {
    /// The colour to move.
    fn side_to_move(&self) -> Color;
    /// The stones in move order (black first).
    fn stones(&self) -> Vec<Pos>;
    /// Judges the mover's answer `(x, y)` (any integers), given at `now_ms` of the game.
    fn play(&mut self, x: i64, y: i64, now_ms: u64) -> Verdict;
    /// The opening rule's state (over at once without one).
    fn opening(&self) -> &Opening;
    /// The position.
    fn board(&self) -> &Board;
    /// Stones placed by the opening rule (not counting an opening file's).
    fn opening_stones(&self) -> usize;
    /// Whether the first player now holds the second colour (white).
    fn swapped(&self) -> bool {
        self.opening().swapped()
    }
    /// Judges an opening action of the player holding `color` (refused: `Illegal`, nothing
    /// changed).
    fn opening_act(&mut self, color: Color, action: OpeningAction, now_ms: u64) -> Verdict;
}

/// A judge for a game from `opening` (the one place that chooses the judge).
pub fn new_judge(settings: &JudgeSettings, opening: &[Pos]) -> Result<Box<dyn Judge>, JudgeError> {
    Ok(Box::new(RefereeJudge::new(settings, opening)?))
}

/// The game referee as a judge.
pub struct RefereeJudge {
    game: Game,
}

impl RefereeJudge {
    /// Sets up the referee and places the opening.
    pub fn new(settings: &JudgeSettings, opening: &[Pos]) -> Result<RefereeJudge, JudgeError> {
        let mut setup = Setup::new(0, BLACK_ID, WHITE_ID);
        let o = &mut setup.options;
        o.rule_set = crate::game::options::RuleSet::Rule(settings.rule);
        o.board_size = settings.size;
        o.first_move_center = FirstMoveCenter::Off;
        o.color_assignment = ColorAssignment::HostBlack;
        o.time_control = TimeControl::NoLimit {};
        o.idle_limit_sec = crate::game::options::MAX_TIME_SEC;
        o.undo = UndoLimit::Limited(0);
        o.draw_offer = false;
        o.hints = Hints::Off;
        o.forbidden_policy = ForbiddenPolicy::Loss;
        o.draw_after_stones = settings.draw_after;
        o.opening_rule = settings.opening_rule;
        let (mut game, _) = Game::new(&setup).map_err(JudgeError::Setup)?;
        for (k, &p) in opening.iter().enumerate() {
            let action = place(&game, p.x() as i64, p.y() as i64, 0);
            game.apply(&action).map_err(|error| JudgeError::Opening {
                index: k + 1,
                x: p.x(),
                y: p.y(),
                error,
            })?;
            if game.result().is_some() {
                return Err(JudgeError::Decided(k + 1));
            }
        }
        Ok(RefereeJudge { game })
    }
}

/// A place by the player to move.
fn place(game: &Game, x: i64, y: i64, now: u64) -> Action {
    Action::Place {
        player: game.player(game.turn()).into(),
        x,
        y,
        now,
    }
}

impl RefereeJudge {
    /// The verdict after an accepted action.
    fn verdict(&self, events: &[Event]) -> Verdict {
        let foul = events.iter().find_map(|e| match e {
            Event::Foul { kind, .. } => Some(*kind),
            _ => None,
        });
        match self.game.result() {
            None => Verdict::Continue,
            Some(result) => {
                let reason = match result.reason {
                    ResultReason::Five => Reason::Five,
                    ResultReason::Foul => Reason::Foul,
                    ResultReason::BoardFull => Reason::BoardFull,
                    ResultReason::MoveLimit => Reason::MoveLimit,
                    ResultReason::NoLegalMove => Reason::NoLegalMove,
                    // Not reachable with these options (no clock, no resign, no draw offers);
                    // counted as what the referee says.
                    ResultReason::TimeLoss => Reason::Time,
                    ResultReason::Resign | ResultReason::DrawAgreed => Reason::Illegal,
                };
                Verdict::Over(Outcome {
                    winner: result.winner,
                    reason,
                    win_line: result.win_line.clone().unwrap_or_default(),
                    foul,
                })
            }
        }
    }
}

impl Judge for RefereeJudge {
    fn side_to_move(&self) -> Color {
        self.game.turn()
    }

    fn stones(&self) -> Vec<Pos> {
        self.game.moves().iter().map(|m| m.pt).collect()
    }

    fn play(&mut self, x: i64, y: i64, now_ms: u64) -> Verdict {
        match self.game.apply(&place(&self.game, x, y, now_ms)) {
            Ok(events) => self.verdict(&events),
            Err(e) => Verdict::Illegal(e.to_string()),
        }
    }

    fn opening(&self) -> &Opening {
        self.game.opening()
    }

    fn board(&self) -> &Board {
        self.game.board()
    }

    fn opening_stones(&self) -> usize {
        self.game.opening_stones()
    }

    fn opening_act(&mut self, color: Color, action: OpeningAction, now_ms: u64) -> Verdict {
        let action = Action::from_opening(self.game.player(color), action, now_ms);
        match self.game.apply(&action) {
            Ok(events) => self.verdict(&events),
            Err(e) => Verdict::Illegal(e.to_string()),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn pos(x: usize, y: usize) -> Pos {
        Pos::new(x, y).unwrap()
    }

    fn settings(rule: Rule) -> JudgeSettings {
        JudgeSettings {
            rule,
            size: 15,
            draw_after: None,
            opening_rule: OpeningRule::None,
        }
    }

    /// Black f8 g8 h10 h9 with white in the corners: h8 (7,7) is a double three for black.
    pub(crate) fn double_three_opening() -> Vec<Pos> {
        vec![
            pos(5, 7),
            pos(0, 0),
            pos(6, 7),
            pos(14, 14),
            pos(7, 5),
            pos(0, 14),
            pos(7, 6),
            pos(14, 0),
        ]
    }

    #[test]
    fn renju_foul_stands_and_loses() {
        let mut j = new_judge(&settings(Rule::Renju), &double_three_opening()).unwrap();
        assert_eq!(j.side_to_move(), Color::Black);
        match j.play(7, 7, 10) {
            Verdict::Over(o) => {
                assert_eq!(o.winner, Some(Color::White));
                assert_eq!(o.reason, Reason::Foul);
                assert_eq!(o.foul, Some(ForbiddenKind::DoubleThree));
            }
            v => panic!("{v:?}"),
        }
        assert_eq!(j.stones().len(), 9);
        // The same point is fine in freestyle.
        let mut j = new_judge(&settings(Rule::Freestyle), &double_three_opening()).unwrap();
        assert_eq!(j.play(7, 7, 10), Verdict::Continue);
    }

    #[test]
    fn illegal_points_place_nothing() {
        let mut j = new_judge(&settings(Rule::Freestyle), &[pos(7, 7)]).unwrap();
        assert!(matches!(j.play(7, 7, 5), Verdict::Illegal(m) if m.contains("occupied")));
        assert!(matches!(j.play(15, 3, 5), Verdict::Illegal(m) if m.contains("off")));
        assert!(matches!(j.play(-1, 3, 5), Verdict::Illegal(_)));
        assert_eq!(j.stones(), vec![pos(7, 7)]);
        assert_eq!(j.side_to_move(), Color::White);
    }

    #[test]
    fn five_wins_with_its_line() {
        let mut j = new_judge(&settings(Rule::Freestyle), &[]).unwrap();
        for k in 0..4 {
            assert_eq!(j.play(k, 7, 1), Verdict::Continue);
            assert_eq!(j.play(k, 9, 1), Verdict::Continue);
        }
        match j.play(4, 7, 2) {
            Verdict::Over(o) => {
                assert_eq!(o.winner, Some(Color::Black));
                assert_eq!(o.reason, Reason::Five);
                assert_eq!(o.win_line.len(), 5);
            }
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn stone_limit_draws() {
        let s = JudgeSettings {
            draw_after: Some(3),
            ..settings(Rule::Renju)
        };
        let mut j = new_judge(&s, &[pos(7, 7), pos(8, 8)]).unwrap();
        match j.play(0, 0, 1) {
            Verdict::Over(o) => assert_eq!((o.winner, o.reason), (None, Reason::MoveLimit)),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn bad_openings_are_errors() {
        let s = settings(Rule::Freestyle);
        assert!(matches!(
            new_judge(&s, &[pos(7, 7), pos(7, 7)]),
            Err(JudgeError::Opening { index: 2, .. })
        ));
        let mut foul = double_three_opening();
        foul.push(pos(7, 7));
        assert!(matches!(
            new_judge(&settings(Rule::Renju), &foul),
            Err(JudgeError::Decided(9))
        ));
    }
}
