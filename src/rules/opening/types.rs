//! The vocabulary of the opening rules: the rules and their names, the sides, regions, pending
//! steps, actions, effects and errors ([`super::Opening`] is the state machine over them).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::position::Position;
use crate::core::{Color, Pos};

/// The most fifth moves Soosõrv-N may allow.
pub const MAX_SOOSORV_N: u8 = 10;
/// Taraguchi-10's number of fifth-move offers.
pub const TARAGUCHI_OFFERS: u8 = 10;
/// The stones placed before Swap's decision in gomoku and renju (first, second, first colour).
pub const SWAP_STONES: u8 = 3;
/// The most stones [`super::Opening::with_swap_stones`] accepts.
pub const MAX_SWAP_STONES: u8 = 6;
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

    /// Pro and Long Pro: the least distance of the first player's second stone (the third stone)
    /// from the centre — 3 and 4; `None` for the other rules.
    pub const fn pro_distance(self) -> Option<u8> {
        match self {
            OpeningRule::Pro => Some(3),
            OpeningRule::LongPro => Some(4),
            _ => None,
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
    pub fn contains<B: Position + ?Sized>(self, board: &B, p: Pos) -> bool {
        let c = board.middle();
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
    /// The single point the action names (`place`, `choose`): what a late action tried to play.
    pub const fn point(&self) -> Option<Pos> {
        match self {
            OpeningAction::Place(p) | OpeningAction::Choose(p) => Some(*p),
            _ => None,
        }
    }

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
    /// A number of Swap stones out of range.
    #[error("swap places 1..={MAX_SWAP_STONES} stones before the choice, not {0}")]
    BadSwapStones(u8),
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
