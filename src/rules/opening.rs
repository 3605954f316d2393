//! Opening rules as data and validation: who acts, what may be done, and what it does — for
//! `none`, `center`, Pro, Long Pro, Swap, Swap2, and renju's RIF, Soosõrv-N and Taraguchi-10.
//!
//! The opening is a small state machine ([`Opening`]) beside the board. It speaks of the two
//! players as [`Side::First`] (the player who starts the opening, the tentative holder of the
//! *first colour*) and [`Side::Second`], and of colours as the first colour (the one that moves
//! first: black in gomoku and renju, white in Pente) and its opponent. The first colour is a
//! parameter, so a rule family where white moves first reuses the same machine with the colours
//! mirrored. A swap exchanges which side holds which colour; the clocks, names and everything else
//! a referee keeps per colour should follow the players.
//!
//! The rules (each stone goes on an empty point; regions are Chebyshev distances from the centre):
//!
//! | rule | steps |
//! |---|---|
//! | `none` | nothing: normal play from the first move |
//! | `center` | first: 1st stone at the centre |
//! | `pro` / `longPro` | first: 1st at the centre; second: 2nd anywhere; first: 3rd at distance ≥ 3 (≥ 4) |
//! | `swap` | first: three stones (first colour, second, first) anywhere; second: swap or not |
//! | `swap2` | first: three stones; second: **swap**, or **place** the 4th (keeping the second colour), or **putTwo** (4th and 5th), after which first: swap or not |
//! | `rif` | first: 1st at the centre, 2nd within 1, 3rd within 2 (the 26 openings); second: swap or not; second colour: 4th anywhere; first colour: **offer** two non-symmetric 5th moves; second colour: **choose** one |
//! | `soosorv-N` | the 26 openings; swap; second colour: 4th anywhere, then **declare** 1..=N fifth moves; the other: swap or not; first colour: offer that many non-symmetric 5th moves (one offer is played at once); second colour: choose |
//! | `taraguchi10` | first colour: 1st at the centre; swap; second colour: 2nd within 1; swap; 3rd within 2; swap; 4th within 3; then the first colour's holder either swaps or not and places the 5th within 4 (then a last swap), or **offers** ten non-symmetric 5th moves anywhere for the other to choose from |
//!
//! Every swap decision belongs to the player who did not act last. After the last step, normal
//! play continues with the colour opposite to the last stone's. Offers are not stones: they stay
//! in [`Opening::offers`] until one is chosen and placed. Two offers are symmetric when one of the
//! board's symmetries keeps the position and maps one onto the other ([`symmetry`]).
//!
//! What this module does not judge: forbidden points and wins (the caller's rules apply to every
//! stone; no opening stone can make a five or, in renju, a forbidden shape, but the referee checks
//! anyway), and time. [`auto_action`] is a seeded legal action for a player who timed out.

pub mod symmetry;

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

use rand_core::RngCore;
use thiserror::Error;

use super::auto_move::uniform;
use crate::board::Board;
use crate::core::{Color, Pos};

/// The most fifth moves Soosõrv-N may allow.
pub const MAX_SOOSORV_N: u8 = 10;
/// Taraguchi-10's number of fifth-move offers.
pub const TARAGUCHI_OFFERS: u8 = 10;
/// RIF's number of fifth-move offers.
pub const RIF_OFFERS: u8 = 2;

/// An opening rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum OpeningRule {
    /// No opening rule.
    #[default]
    None,
    /// The first stone at the centre.
    Center,
    /// Pro: centre; anywhere; the first player's second stone at distance ≥ 3.
    Pro,
    /// Long Pro: as Pro with distance ≥ 4.
    LongPro,
    /// Swap (Swap1).
    Swap,
    /// Swap2.
    Swap2,
    /// RIF (1996–2008): the 26 openings, swap, 4th, two 5th-move offers.
    Rif,
    /// Soosõrv-N with its N (1..=[`MAX_SOOSORV_N`]; Soosõrv-8 is the world championship rule).
    Soosorv(u8),
    /// Taraguchi-10.
    Taraguchi10,
}

impl OpeningRule {
    /// Every rule (Soosõrv with N = 8).
    pub const ALL: [OpeningRule; 9] = [
        OpeningRule::None,
        OpeningRule::Center,
        OpeningRule::Pro,
        OpeningRule::LongPro,
        OpeningRule::Swap,
        OpeningRule::Swap2,
        OpeningRule::Rif,
        OpeningRule::Soosorv(8),
        OpeningRule::Taraguchi10,
    ];

    /// The name (`none`, `center`, `pro`, `longPro`, `swap`, `swap2`, `rif`, `soosorv`,
    /// `taraguchi10`); Soosõrv's N is not part of it.
    pub const fn name(self) -> &'static str {
        match self {
            OpeningRule::None => "none",
            OpeningRule::Center => "center",
            OpeningRule::Pro => "pro",
            OpeningRule::LongPro => "longPro",
            OpeningRule::Swap => "swap",
            OpeningRule::Swap2 => "swap2",
            OpeningRule::Rif => "rif",
            OpeningRule::Soosorv(_) => "soosorv",
            OpeningRule::Taraguchi10 => "taraguchi10",
        }
    }

    /// Whether this is [`OpeningRule::None`].
    pub const fn is_none(&self) -> bool {
        matches!(self, OpeningRule::None)
    }

    /// The smallest board side the rule fits on (its regions and offers need room).
    pub const fn min_size(self) -> usize {
        match self {
            OpeningRule::None | OpeningRule::Center | OpeningRule::Swap | OpeningRule::Swap2 => 5,
            OpeningRule::Pro => 7,
            OpeningRule::LongPro | OpeningRule::Rif | OpeningRule::Soosorv(_) => 9,
            OpeningRule::Taraguchi10 => 11,
        }
    }

    /// Whether the rule has swaps, offers or stones placed by one player for the other (anything
    /// beyond constraints on ordinary moves).
    pub const fn is_interactive(self) -> bool {
        !matches!(
            self,
            OpeningRule::None | OpeningRule::Center | OpeningRule::Pro | OpeningRule::LongPro
        )
    }
}

impl fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningRule::Soosorv(n) => write!(f, "soosorv-{n}"),
            r => f.write_str(r.name()),
        }
    }
}

impl FromStr for OpeningRule {
    type Err = OpeningError;

    /// Accepts the names (case-insensitive, `-`/`_` ignored: `long-pro`, `LongPro`), `soosorv`
    /// (N = 8), `soosorv-N` / `soosorvN`, and `taraguchi` / `taraguchi-10`.
    fn from_str(s: &str) -> Result<OpeningRule, OpeningError> {
        let key: String = s
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect::<String>()
            .to_ascii_lowercase();
        let rule = match key.as_str() {
            "none" | "off" => OpeningRule::None,
            "center" | "centre" => OpeningRule::Center,
            "pro" => OpeningRule::Pro,
            "longpro" => OpeningRule::LongPro,
            "swap" | "swap1" => OpeningRule::Swap,
            "swap2" => OpeningRule::Swap2,
            "rif" => OpeningRule::Rif,
            "soosorv" => OpeningRule::Soosorv(8),
            "taraguchi" | "taraguchi10" => OpeningRule::Taraguchi10,
            k => match k.strip_prefix("soosorv").map(str::parse::<u8>) {
                Some(Ok(n)) => OpeningRule::Soosorv(n),
                _ => return Err(OpeningError::UnknownRule(s.to_string())),
            },
        };
        rule.check()?;
        Ok(rule)
    }
}

impl OpeningRule {
    /// Checks the rule's parameter (Soosõrv's N in 1..=[`MAX_SOOSORV_N`]).
    pub fn check(self) -> Result<(), OpeningError> {
        match self {
            OpeningRule::Soosorv(n) if !(1..=MAX_SOOSORV_N).contains(&n) => {
                Err(OpeningError::BadSoosorvN(n))
            }
            _ => Ok(()),
        }
    }
}

/// One of the two players of the opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The player who starts the opening (tentatively holding the first colour).
    First,
    /// The other player.
    Second,
}

impl Side {
    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// `first` or `second`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }
}

/// Where a stone may go: a Chebyshev distance from the board's centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Region {
    /// Any empty point.
    Anywhere,
    /// Within this distance of the centre (0 = the centre; 1 = the central 3×3; 2 = 5×5, …).
    Within(u8),
    /// At least this distance from the centre.
    AtLeast(u8),
}

impl Region {
    /// Whether `p` lies in the region of `board`.
    pub fn contains(self, board: &Board, p: Pos) -> bool {
        let c = board.centre();
        let d = p.x().abs_diff(c.x()).max(p.y().abs_diff(c.y()));
        match self {
            Region::Anywhere => true,
            Region::Within(r) => d <= usize::from(r),
            Region::AtLeast(r) => d >= usize::from(r),
        }
    }
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Region::Anywhere => f.write_str("anywhere"),
            Region::Within(0) => f.write_str("the centre"),
            Region::Within(r) => {
                let side = 2 * u32::from(r) + 1;
                write!(f, "the central {side}x{side} square")
            }
            Region::AtLeast(r) => write!(f, "at least {r} points from the centre"),
        }
    }
}

/// What the opening waits for, with the side that must act.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// Who acts.
    pub by: Side,
    /// What they may do.
    pub kind: PendingKind,
}

/// The choices of a pending step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PendingKind {
    /// Place one stone of `color` within `region`.
    Place {
        /// The stone's colour.
        color: Color,
        /// Where it may go.
        region: Region,
    },
    /// Swap colours or keep them.
    Swap,
    /// Swap2 after three stones: swap, place the 4th stone (`color`, keeping that colour), or put
    /// two more stones (`color`, then its opponent) and hand the choice of colour back.
    Swap2Choice {
        /// The 4th stone's colour (the second colour).
        color: Color,
    },
    /// Declare how many 5th moves will be offered (1..=`max`).
    Declare {
        /// The most allowed.
        max: u8,
    },
    /// Offer exactly `count` pairwise non-symmetric points for a stone of `color`.
    Offer {
        /// The offered stone's colour.
        color: Color,
        /// How many.
        count: u8,
    },
    /// Taraguchi after the 4th stone: swap (or not) and then place the 5th within `region`, or
    /// offer `count` 5th moves anywhere.
    SwapOrOffer {
        /// The 5th stone's colour.
        color: Color,
        /// Where the 5th goes when placed.
        region: Region,
        /// How many offers the other branch takes.
        count: u8,
    },
    /// Choose one of the offers (it is placed as a stone of `color`).
    Choose {
        /// The chosen stone's colour.
        color: Color,
    },
}

impl PendingKind {
    /// A short name (`place`, `swap`, `swap2Choice`, `declare`, `offer`, `swapOrOffer`,
    /// `choose`).
    pub const fn name(&self) -> &'static str {
        match self {
            PendingKind::Place { .. } => "place",
            PendingKind::Swap => "swap",
            PendingKind::Swap2Choice { .. } => "swap2Choice",
            PendingKind::Declare { .. } => "declare",
            PendingKind::Offer { .. } => "offer",
            PendingKind::SwapOrOffer { .. } => "swapOrOffer",
            PendingKind::Choose { .. } => "choose",
        }
    }
}

/// An action of the opening.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OpeningAction {
    /// Place one stone (of the pending colour).
    Place(Pos),
    /// Swap colours (`true`) or keep them (`false`).
    Swap(bool),
    /// Swap2's third option: two more stones, the second colour's then the first colour's.
    PutTwo([Pos; 2]),
    /// Declare the number of 5th moves (Soosõrv).
    Declare(u8),
    /// Offer these 5th moves.
    Offer(Vec<Pos>),
    /// Choose this offer.
    Choose(Pos),
}

impl OpeningAction {
    /// A short name (`place`, `swap`, `putTwo`, `declare`, `offer`, `choose`).
    pub const fn name(&self) -> &'static str {
        match self {
            OpeningAction::Place(_) => "place",
            OpeningAction::Swap(_) => "swap",
            OpeningAction::PutTwo(_) => "putTwo",
            OpeningAction::Declare(_) => "declare",
            OpeningAction::Offer(_) => "offer",
            OpeningAction::Choose(_) => "choose",
        }
    }
}

/// What an accepted action did, in order; the caller mirrors it (stones onto its board, swaps
/// onto its players).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A stone of this colour goes on this point.
    Stone(Pos, Color),
    /// A swap decision: `true` = the sides exchanged colours.
    Swapped(bool),
    /// The number of 5th moves was declared.
    Declared(u8),
    /// These 5th moves were offered.
    Offered(Vec<Pos>),
    /// This offer was chosen (a [`Effect::Stone`] on it follows).
    Chosen(Pos),
    /// The opening is over; normal play continues with this colour to move.
    Finished(Color),
}

/// Why an opening action was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OpeningError {
    /// Not an opening rule's name.
    #[error(
        "unknown opening rule {0:?} (none, center, pro, longPro, swap, swap2, rif, soosorv, soosorv-N, taraguchi10)"
    )]
    UnknownRule(String),
    /// Soosõrv's N out of range.
    #[error("soosorv's N must be 1..={MAX_SOOSORV_N}, not {0}")]
    BadSoosorvN(u8),
    /// The board is too small for the rule.
    #[error("the {rule} opening needs a board of at least {min}x{min}")]
    BoardTooSmall {
        /// The rule's name.
        rule: &'static str,
        /// The smallest side.
        min: usize,
    },
    /// The opening is over.
    #[error("the opening is over")]
    Finished,
    /// The other side must act.
    #[error("the {} player must act in the opening, not the {} player", .expected.name(), .expected.other().name())]
    NotYourTurn {
        /// Who must act.
        expected: Side,
    },
    /// The action does not answer the pending step.
    #[error("the opening waits for {expected}, not {got}")]
    WrongAction {
        /// The pending step's name.
        expected: &'static str,
        /// The action's name.
        got: &'static str,
    },
    /// Swap2's choice is a swap, a 4th stone or two stones; keeping colours is said by placing.
    #[error("swap2: answer with swap, a 4th stone (place) or two stones (putTwo)")]
    Swap2KeepIsAPlace,
    /// A point off the board.
    #[error("({x},{y}) is off the board")]
    OffBoard {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// A point already holding a stone.
    #[error("({x},{y}) is already occupied")]
    Occupied {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// A stone outside its region.
    #[error("({x},{y}) is outside the allowed region: {region}")]
    OutsideRegion {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
        /// The region.
        region: Region,
    },
    /// A declared number out of range.
    #[error("declare 1..={max} fifth moves, not {got}")]
    BadDeclare {
        /// The most allowed.
        max: u8,
        /// The number given.
        got: u8,
    },
    /// The wrong number of offers.
    #[error("offer exactly {expected} fifth moves, not {got}")]
    BadOfferCount {
        /// The number required.
        expected: u8,
        /// The number given.
        got: usize,
    },
    /// Two offers are the same point up to a symmetry of the position (or the same point).
    #[error("the offers ({},{}) and ({},{}) are symmetric", .a.x(), .a.y(), .b.x(), .b.y())]
    SymmetricOffers {
        /// The first of the pair.
        a: Pos,
        /// The second.
        b: Pos,
    },
    /// A choice that is not among the offers.
    #[error("({},{}) is not one of the offers", .0.x(), .0.y())]
    NotOffered(Pos),
}

/// Who performs a queued step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Actor {
    /// A fixed side.
    Fixed(Side),
    /// Whoever holds the first colour (`true`) or the second (`false`) when the step comes.
    Holder(bool),
    /// The player who did not act last.
    NotLast,
}

/// A queued step (colours as "first colour?" flags until resolved).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Place {
        by: Actor,
        first: bool,
        region: Region,
    },
    Swap {
        by: Actor,
    },
    Swap2Choice,
    Declare {
        max: u8,
    },
    Offer {
        count: Option<u8>,
    },
    SwapOrOffer {
        region: Region,
        count: u8,
    },
    Choose,
}

/// The opening of one game (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    rule: OpeningRule,
    first_color: Color,
    steps: VecDeque<Step>,
    swapped: bool,
    last_actor: Option<Side>,
    declared: Option<u8>,
    offers: Vec<Pos>,
    last_stone: Option<Color>,
}

impl Opening {
    /// The opening of `rule` on `board` (which should be empty), with `first_color` moving first.
    pub fn new(
        rule: OpeningRule,
        first_color: Color,
        board: &Board,
    ) -> Result<Opening, OpeningError> {
        rule.check()?;
        let min = rule.min_size();
        if board.width() < min || board.height() < min {
            return Err(OpeningError::BoardTooSmall {
                rule: rule.name(),
                min,
            });
        }
        use Actor::{Fixed, Holder, NotLast};
        use Side::First;
        let place = |by, first, region| Step::Place { by, first, region };
        let swap = Step::Swap { by: NotLast };
        let three = |centre: bool| {
            let r = |d| {
                if centre {
                    Region::Within(d)
                } else {
                    Region::Anywhere
                }
            };
            [
                place(Fixed(First), true, r(0)),
                place(Fixed(First), false, r(1)),
                place(Fixed(First), true, r(2)),
            ]
        };
        let steps: Vec<Step> = match rule {
            OpeningRule::None => vec![],
            OpeningRule::Center => vec![place(Fixed(First), true, Region::Within(0))],
            OpeningRule::Pro | OpeningRule::LongPro => {
                let d = if rule == OpeningRule::Pro { 3 } else { 4 };
                vec![
                    place(Fixed(First), true, Region::Within(0)),
                    place(Fixed(Side::Second), false, Region::Anywhere),
                    place(Fixed(First), true, Region::AtLeast(d)),
                ]
            }
            OpeningRule::Swap => [&three(false)[..], &[swap]].concat(),
            OpeningRule::Swap2 => [&three(false)[..], &[Step::Swap2Choice]].concat(),
            OpeningRule::Rif => [
                &three(true)[..],
                &[
                    swap,
                    place(Holder(false), false, Region::Anywhere),
                    Step::Offer {
                        count: Some(RIF_OFFERS),
                    },
                    Step::Choose,
                ],
            ]
            .concat(),
            OpeningRule::Soosorv(n) => [
                &three(true)[..],
                &[
                    swap,
                    place(Holder(false), false, Region::Anywhere),
                    Step::Declare { max: n },
                    swap,
                    Step::Offer { count: None },
                    Step::Choose,
                ],
            ]
            .concat(),
            OpeningRule::Taraguchi10 => vec![
                place(Fixed(First), true, Region::Within(0)),
                swap,
                place(Holder(false), false, Region::Within(1)),
                swap,
                place(Holder(true), true, Region::Within(2)),
                swap,
                place(Holder(false), false, Region::Within(3)),
                Step::SwapOrOffer {
                    region: Region::Within(4),
                    count: TARAGUCHI_OFFERS,
                },
            ],
        };
        Ok(Opening {
            rule,
            first_color,
            steps: steps.into(),
            swapped: false,
            last_actor: None,
            declared: None,
            offers: Vec::new(),
            last_stone: None,
        })
    }

    /// The rule.
    pub fn rule(&self) -> OpeningRule {
        self.rule
    }

    /// The colour that moves first.
    pub fn first_color(&self) -> Color {
        self.first_color
    }

    /// Whether the opening is over (always, under `none`).
    pub fn is_finished(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether the sides hold exchanged colours (an odd number of swaps so far).
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// The colour `side` holds now.
    pub fn color_of(&self, side: Side) -> Color {
        if (side == Side::First) != self.swapped {
            self.first_color
        } else {
            self.first_color.opponent()
        }
    }

    /// The side holding `color` now.
    pub fn side_of(&self, color: Color) -> Side {
        if self.color_of(Side::First) == color {
            Side::First
        } else {
            Side::Second
        }
    }

    /// Whether a swap decision (a swap, Swap2's choice or Taraguchi's swap-or-offer) comes after
    /// the pending step: a stone placed now should then leave a balanced position.
    pub fn swap_follows(&self) -> bool {
        self.steps.iter().skip(1).any(|s| {
            matches!(
                s,
                Step::Swap { .. } | Step::Swap2Choice | Step::SwapOrOffer { .. }
            )
        })
    }

    /// Steps left in the opening (the pending one included; branches not yet taken excluded).
    pub fn steps_left(&self) -> usize {
        self.steps.len()
    }

    /// The declared number of 5th moves (Soosõrv), once declared.
    pub fn declared(&self) -> Option<u8> {
        self.declared
    }

    /// The 5th moves on offer (empty when none are).
    pub fn offers(&self) -> &[Pos] {
        &self.offers
    }

    fn color(&self, first: bool) -> Color {
        if first {
            self.first_color
        } else {
            self.first_color.opponent()
        }
    }

    fn resolve(&self, actor: Actor) -> Side {
        match actor {
            Actor::Fixed(s) => s,
            Actor::Holder(first) => self.side_of(self.color(first)),
            Actor::NotLast => self.last_actor.map_or(Side::Second, Side::other),
        }
    }

    /// What the opening waits for; `None` once it is over.
    pub fn pending(&self) -> Option<Pending> {
        let step = *self.steps.front()?;
        let first = self.color(true);
        let second = self.color(false);
        let (by, kind) = match step {
            Step::Place { by, first, region } => (
                self.resolve(by),
                PendingKind::Place {
                    color: self.color(first),
                    region,
                },
            ),
            Step::Swap { by } => (self.resolve(by), PendingKind::Swap),
            Step::Swap2Choice => (Side::Second, PendingKind::Swap2Choice { color: second }),
            Step::Declare { max } => (self.side_of(second), PendingKind::Declare { max }),
            Step::Offer { count } => (
                self.side_of(first),
                PendingKind::Offer {
                    color: first,
                    count: count.or(self.declared).unwrap_or(1),
                },
            ),
            Step::SwapOrOffer { region, count } => (
                self.side_of(first),
                PendingKind::SwapOrOffer {
                    color: first,
                    region,
                    count,
                },
            ),
            Step::Choose => (self.side_of(second), PendingKind::Choose { color: first }),
        };
        Some(Pending { by, kind })
    }

    /// The colour to move once the opening is over: the opponent of the last stone's colour (the
    /// first colour when no stone was placed).
    pub fn next_to_move(&self) -> Color {
        self.last_stone.map_or(self.first_color, Color::opponent)
    }

    /// The side to act now: the pending step's, or after the opening the holder of the colour to
    /// move.
    pub fn actor(&self) -> Side {
        match self.pending() {
            Some(p) => p.by,
            None => self.side_of(self.next_to_move()),
        }
    }

    /// Checks `action` by `by` against `board` (the position so far) without changing anything.
    pub fn check(
        &self,
        board: &Board,
        by: Side,
        action: &OpeningAction,
    ) -> Result<(), OpeningError> {
        self.clone().apply(board, by, action.clone()).map(|_| ())
    }

    /// Applies `action` by `by`; on success the effects, in order (on error nothing changed).
    pub fn apply(
        &mut self,
        board: &Board,
        by: Side,
        action: OpeningAction,
    ) -> Result<Vec<Effect>, OpeningError> {
        let pending = self.pending().ok_or(OpeningError::Finished)?;
        if pending.by != by {
            return Err(OpeningError::NotYourTurn {
                expected: pending.by,
            });
        }
        let wrong = || OpeningError::WrongAction {
            expected: pending.kind.name(),
            got: action.name(),
        };
        let mut next = self.clone();
        next.steps.pop_front();
        next.last_actor = Some(by);
        let mut effects = Vec::new();
        match (&pending.kind, &action) {
            (&PendingKind::Place { color, region }, &OpeningAction::Place(p)) => {
                check_point(board, p, region, &[])?;
                effects.push(Effect::Stone(p, color));
            }
            (PendingKind::Swap, &OpeningAction::Swap(s)) => {
                next.swapped ^= s;
                effects.push(Effect::Swapped(s));
            }
            (&PendingKind::Swap2Choice { color }, action) => match *action {
                OpeningAction::Swap(true) => {
                    next.swapped = !next.swapped;
                    effects.push(Effect::Swapped(true));
                }
                OpeningAction::Swap(false) => return Err(OpeningError::Swap2KeepIsAPlace),
                OpeningAction::Place(p) => {
                    check_point(board, p, Region::Anywhere, &[])?;
                    effects.push(Effect::Stone(p, color));
                }
                OpeningAction::PutTwo([a, b]) => {
                    check_point(board, a, Region::Anywhere, &[])?;
                    check_point(board, b, Region::Anywhere, &[a])?;
                    effects.push(Effect::Stone(a, color));
                    effects.push(Effect::Stone(b, color.opponent()));
                    next.steps.push_front(Step::Swap { by: Actor::NotLast });
                }
                _ => return Err(wrong()),
            },
            (&PendingKind::Declare { max }, &OpeningAction::Declare(n)) => {
                if !(1..=max).contains(&n) {
                    return Err(OpeningError::BadDeclare { max, got: n });
                }
                next.declared = Some(n);
                effects.push(Effect::Declared(n));
            }
            (&PendingKind::Offer { color, count }, OpeningAction::Offer(points)) => {
                check_offers(board, points, count)?;
                if count == 1 {
                    // A single offer leaves nothing to choose: it is played at once.
                    next.steps.pop_front();
                    effects.push(Effect::Offered(points.clone()));
                    effects.push(Effect::Stone(points[0], color));
                } else {
                    next.offers = points.clone();
                    effects.push(Effect::Offered(points.clone()));
                }
            }
            (&PendingKind::SwapOrOffer { region, count, .. }, action) => match action {
                &OpeningAction::Swap(s) => {
                    next.swapped ^= s;
                    effects.push(Effect::Swapped(s));
                    next.steps.push_front(Step::Swap { by: Actor::NotLast });
                    next.steps.push_front(Step::Place {
                        by: Actor::Holder(true),
                        first: true,
                        region,
                    });
                }
                OpeningAction::Offer(points) => {
                    check_offers(board, points, count)?;
                    next.offers = points.clone();
                    effects.push(Effect::Offered(points.clone()));
                    next.steps.push_front(Step::Choose);
                }
                _ => return Err(wrong()),
            },
            (&PendingKind::Choose { color }, &OpeningAction::Choose(p)) => {
                if !self.offers.contains(&p) {
                    return Err(OpeningError::NotOffered(p));
                }
                next.offers.clear();
                effects.push(Effect::Chosen(p));
                effects.push(Effect::Stone(p, color));
            }
            _ => return Err(wrong()),
        }
        if let Some(&Effect::Stone(_, c)) = effects
            .iter()
            .rev()
            .find(|e| matches!(e, Effect::Stone(..)))
        {
            next.last_stone = Some(c);
        }
        if next.is_finished() {
            effects.push(Effect::Finished(next.next_to_move()));
        }
        *self = next;
        Ok(effects)
    }
}

/// Checks one stone: on the board, empty, not among `taken`, within `region`.
fn check_point(board: &Board, p: Pos, region: Region, taken: &[Pos]) -> Result<(), OpeningError> {
    let (x, y) = (p.x(), p.y());
    if !board.contains(p) {
        return Err(OpeningError::OffBoard { x, y });
    }
    if !board.is_empty(p) || taken.contains(&p) {
        return Err(OpeningError::Occupied { x, y });
    }
    if !region.contains(board, p) {
        return Err(OpeningError::OutsideRegion { x, y, region });
    }
    Ok(())
}

/// Checks an offer list: the count, each point, and no two symmetric (or equal).
fn check_offers(board: &Board, points: &[Pos], count: u8) -> Result<(), OpeningError> {
    if points.len() != usize::from(count) {
        return Err(OpeningError::BadOfferCount {
            expected: count,
            got: points.len(),
        });
    }
    for &p in points {
        check_point(board, p, Region::Anywhere, &[])?;
    }
    match symmetry::first_symmetric_pair(board, points) {
        Some((a, b)) => Err(OpeningError::SymmetricOffers { a, b }),
        None => Ok(()),
    }
}

/// Empty points of `region`, preferring those within distance 2 of a stone (all of the region
/// when none is), in board order.
fn region_points(board: &Board, region: Region, taken: &[Pos]) -> Vec<Pos> {
    let all: Vec<Pos> = board
        .positions()
        .filter(|&p| board.is_empty(p) && !taken.contains(&p) && region.contains(board, p))
        .collect();
    let near: Vec<Pos> = all
        .iter()
        .copied()
        .filter(|&p| board.is_near_empty(p))
        .collect();
    if near.is_empty() { all } else { near }
}

/// `count` pairwise non-symmetric empty points, drawn with `rng` (near the stones first); fewer
/// only when the board has no more classes.
pub fn random_offers<R: RngCore>(board: &Board, count: u8, rng: &mut R) -> Vec<Pos> {
    let mut pool = region_points(board, Region::Anywhere, &[]);
    let far: Vec<Pos> = board
        .positions()
        .filter(|&p| board.is_empty(p) && !pool.contains(&p))
        .collect();
    let mut chosen: Vec<Pos> = Vec::new();
    for candidates in [&mut pool, &mut far.clone()] {
        while chosen.len() < usize::from(count) && !candidates.is_empty() {
            let p = candidates.swap_remove(uniform(rng, candidates.len()));
            if !chosen.iter().any(|&q| symmetry::equivalent(board, p, q)) {
                chosen.push(p);
            }
        }
    }
    chosen
}

/// A legal action for the pending step, drawn with `rng`: a stone on a random point of its region
/// (near the stones when possible), no swap, the 4th stone for Swap2, one fifth move declared,
/// random non-symmetric offers, a random offer chosen. `None` once the opening is over (or when a
/// region has no empty point left).
pub fn auto_action<R: RngCore>(
    opening: &Opening,
    board: &Board,
    rng: &mut R,
) -> Option<OpeningAction> {
    let pending = opening.pending()?;
    let pick = |points: Vec<Pos>, rng: &mut R| {
        (!points.is_empty()).then(|| points[uniform(rng, points.len())])
    };
    Some(match pending.kind {
        PendingKind::Place { region, .. } => {
            OpeningAction::Place(pick(region_points(board, region, &[]), rng)?)
        }
        PendingKind::Swap | PendingKind::SwapOrOffer { .. } => OpeningAction::Swap(false),
        PendingKind::Swap2Choice { .. } => {
            OpeningAction::Place(pick(region_points(board, Region::Anywhere, &[]), rng)?)
        }
        PendingKind::Declare { .. } => OpeningAction::Declare(1),
        PendingKind::Offer { count, .. } => {
            let offers = random_offers(board, count, rng);
            (offers.len() == usize::from(count)).then_some(OpeningAction::Offer(offers))?
        }
        PendingKind::Choose { .. } => OpeningAction::Choose(pick(opening.offers.clone(), rng)?),
    })
}

#[cfg(test)]
mod tests;
