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
//! | `swap` | first: three stones (first colour, second, first) anywhere; second: swap or not (the number of stones is a parameter, [`Opening::with_swap_stones`]: Pente's Swap places four) |
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
//! The position is read through the small [`Position`] trait (size and stones), which the omok
//! board implements and another rule family's board can implement too. Files: [`types`] (the
//! vocabulary), [`symmetry`], [`auto`] (seeded actions), [`position`].
//!
//! What this module does not judge: forbidden points and wins (the caller's rules apply to every
//! stone; no opening stone can make a five or, in renju, a forbidden shape, but the referee checks
//! anyway), and time. [`auto_action`] is a seeded legal action for a player who timed out.

pub mod auto;
pub mod position;
pub mod symmetry;
pub mod types;

use std::collections::VecDeque;

pub use auto::{auto_action, random_offers};
pub use position::Position;
pub use types::{
    Effect, MAX_SOOSORV_N, MAX_SWAP_STONES, OpeningAction, OpeningError, OpeningRule, Pending,
    PendingKind, RIF_OFFERS, Region, SWAP_STONES, Side, TARAGUCHI_OFFERS,
};

use crate::core::{Color, Pos};

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
    /// The opening of `rule` on `board` (which should be empty), with `first_color` moving first
    /// (Swap with the gomoku [`SWAP_STONES`]).
    pub fn new<B: Position + ?Sized>(
        rule: OpeningRule,
        first_color: Color,
        board: &B,
    ) -> Result<Opening, OpeningError> {
        Opening::with_swap_stones(rule, first_color, SWAP_STONES, board)
    }

    /// As [`Opening::new`], with `swap_stones` (1..=[`MAX_SWAP_STONES`]) stones placed by the
    /// first player before Swap's decision, alternating from the first colour (Pente's Swap:
    /// four — white, black, white, black). Only Swap uses it; normal play then continues with the
    /// colour opposite to the last stone's, as always.
    pub fn with_swap_stones<B: Position + ?Sized>(
        rule: OpeningRule,
        first_color: Color,
        swap_stones: u8,
        board: &B,
    ) -> Result<Opening, OpeningError> {
        rule.check()?;
        if !(1..=MAX_SWAP_STONES).contains(&swap_stones) {
            return Err(OpeningError::BadSwapStones(swap_stones));
        }
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
                let d = rule.pro_distance().unwrap_or(3);
                vec![
                    place(Fixed(First), true, Region::Within(0)),
                    place(Fixed(Side::Second), false, Region::Anywhere),
                    place(Fixed(First), true, Region::AtLeast(d)),
                ]
            }
            OpeningRule::Swap => (0..swap_stones)
                .map(|i| place(Fixed(First), i % 2 == 0, Region::Anywhere))
                .chain([swap])
                .collect(),
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
    pub fn check<B: Position + ?Sized>(
        &self,
        board: &B,
        by: Side,
        action: &OpeningAction,
    ) -> Result<(), OpeningError> {
        self.clone().apply(board, by, action.clone()).map(|_| ())
    }

    /// Applies `action` by `by`; on success the effects, in order (on error nothing changed).
    pub fn apply<B: Position + ?Sized>(
        &mut self,
        board: &B,
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
fn check_point<B: Position + ?Sized>(
    board: &B,
    p: Pos,
    region: Region,
    taken: &[Pos],
) -> Result<(), OpeningError> {
    let (x, y) = (p.x(), p.y());
    if !board.on_board(p) {
        return Err(OpeningError::OffBoard { x, y });
    }
    if !board.is_free(p) || taken.contains(&p) {
        return Err(OpeningError::Occupied { x, y });
    }
    if !region.contains(board, p) {
        return Err(OpeningError::OutsideRegion { x, y, region });
    }
    Ok(())
}

/// Checks an offer list: the count, each point, and no two symmetric (or equal).
fn check_offers<B: Position + ?Sized>(
    board: &B,
    points: &[Pos],
    count: u8,
) -> Result<(), OpeningError> {
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

#[cfg(test)]
mod tests;
