use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;
use crate::board::Board;
use crate::rule::Rule;

fn p(x: usize, y: usize) -> Pos {
    Pos::new(x, y).unwrap()
}

/// An opening with its board, stones applied as the effects say.
struct Table {
    opening: Opening,
    board: Board,
}

impl Table {
    fn new(rule: OpeningRule, first: Color) -> Table {
        let board = Board::square(15, Rule::Renju).unwrap();
        let opening = Opening::new(rule, first, &board).unwrap();
        Table { opening, board }
    }

    fn act(&mut self, by: Side, a: OpeningAction) -> Result<Vec<Effect>, OpeningError> {
        let effects = self.opening.apply(&self.board, by, a)?;
        for e in &effects {
            if let Effect::Stone(p, c) = *e {
                self.board.place(p, c).unwrap();
            }
        }
        Ok(effects)
    }

    fn ok(&mut self, by: Side, a: OpeningAction) -> Vec<Effect> {
        let before = self.opening.pending();
        self.act(by, a.clone())
            .unwrap_or_else(|e| panic!("{a:?} by {by:?} at {before:?}: {e}"))
    }

    fn err(&mut self, by: Side, a: OpeningAction) -> OpeningError {
        let before = self.opening.clone();
        let e = self.act(by, a).unwrap_err();
        assert_eq!(self.opening, before, "an error changes nothing");
        e
    }

    fn kind(&self) -> PendingKind {
        self.opening.pending().unwrap().kind
    }
}

use OpeningAction::{Choose, Declare, Offer, Place, PutTwo, Swap};
use Side::{First, Second};

#[test]
fn names_parse_and_print() {
    for r in OpeningRule::ALL {
        assert_eq!(r.to_string().parse::<OpeningRule>().unwrap(), r);
        assert_eq!(r.name().parse::<OpeningRule>().unwrap(), r);
    }
    assert_eq!("long-pro".parse(), Ok(OpeningRule::LongPro));
    assert_eq!("Soosorv-5".parse(), Ok(OpeningRule::Soosorv(5)));
    assert_eq!("taraguchi-10".parse(), Ok(OpeningRule::Taraguchi10));
    assert_eq!(
        "soosorv-0".parse::<OpeningRule>(),
        Err(OpeningError::BadSoosorvN(0))
    );
    assert_eq!(
        "soosorv-11".parse::<OpeningRule>(),
        Err(OpeningError::BadSoosorvN(11))
    );
    assert!(matches!(
        "yamaguchi".parse::<OpeningRule>(),
        Err(OpeningError::UnknownRule(_))
    ));
    let small = Board::square(7, Rule::Renju).unwrap();
    assert!(Opening::new(OpeningRule::Pro, Color::Black, &small).is_ok());
    assert_eq!(
        Opening::new(OpeningRule::LongPro, Color::Black, &small),
        Err(OpeningError::BoardTooSmall {
            rule: "longPro",
            min: 9
        })
    );
}

#[test]
fn none_is_over_and_center_wants_the_centre() {
    let t = Table::new(OpeningRule::None, Color::Black);
    assert!(t.opening.is_finished());
    assert_eq!(t.opening.next_to_move(), Color::Black);
    let mut t = Table::new(OpeningRule::Center, Color::Black);
    assert!(matches!(
        t.err(First, Place(p(7, 8))),
        OpeningError::OutsideRegion { .. }
    ));
    assert!(matches!(
        t.err(Second, Place(p(7, 7))),
        OpeningError::NotYourTurn { expected: First }
    ));
    let e = t.ok(First, Place(p(7, 7)));
    assert_eq!(
        e,
        [
            Effect::Stone(p(7, 7), Color::Black),
            Effect::Finished(Color::White)
        ]
    );
    assert_eq!(t.err(First, Place(p(0, 0))), OpeningError::Finished);
}

#[test]
fn pro_and_long_pro_regions() {
    for (rule, d) in [(OpeningRule::Pro, 3), (OpeningRule::LongPro, 4)] {
        let mut t = Table::new(rule, Color::Black);
        t.ok(First, Place(p(7, 7)));
        assert_eq!(t.opening.pending().unwrap().by, Second);
        t.ok(Second, Place(p(8, 8)));
        let near = p(7 + d - 1, 7 - d + 1);
        assert!(matches!(
            t.err(First, Place(near)),
            OpeningError::OutsideRegion { .. }
        ));
        assert!(matches!(
            t.err(First, Place(p(8, 8))),
            OpeningError::Occupied { .. }
        ));
        assert!(matches!(
            t.err(First, Swap(true)),
            OpeningError::WrongAction { .. }
        ));
        let e = t.ok(First, Place(p(7, 7 + d)));
        assert_eq!(e.last(), Some(&Effect::Finished(Color::White)));
        assert!(!t.opening.swapped());
    }
}

#[test]
fn swap_three_stones_then_the_other_decides() {
    let mut t = Table::new(OpeningRule::Swap, Color::Black);
    for (q, c) in [
        (p(0, 0), Color::Black),
        (p(1, 0), Color::White),
        (p(2, 0), Color::Black),
    ] {
        assert_eq!(
            t.kind(),
            PendingKind::Place {
                color: c,
                region: Region::Anywhere
            }
        );
        t.ok(First, Place(q));
    }
    assert_eq!(
        t.opening.pending().unwrap(),
        Pending {
            by: Second,
            kind: PendingKind::Swap
        }
    );
    assert!(matches!(
        t.err(First, Swap(true)),
        OpeningError::NotYourTurn { .. }
    ));
    let e = t.ok(Second, Swap(true));
    assert_eq!(e, [Effect::Swapped(true), Effect::Finished(Color::White)]);
    assert_eq!(t.opening.color_of(First), Color::White);
    assert_eq!(
        t.opening.actor(),
        First,
        "white moves next: the first player after the swap"
    );
}

#[test]
fn swap_stones_parameter_keeps_gomoku_and_gives_pentes_four() {
    let board = Board::square(15, Rule::Renju).unwrap();
    assert_eq!(SWAP_STONES, 3);
    // Pro's distances, shared with Pente's Pro and Long Pro.
    assert_eq!(OpeningRule::Pro.pro_distance(), Some(3));
    assert_eq!(OpeningRule::LongPro.pro_distance(), Some(4));
    assert_eq!(OpeningRule::Swap.pro_distance(), None);
    assert_eq!(
        Opening::with_swap_stones(OpeningRule::Swap, Color::Black, SWAP_STONES, &board),
        Opening::new(OpeningRule::Swap, Color::Black, &board),
        "the default is the gomoku Swap"
    );
    for bad in [0, MAX_SWAP_STONES + 1] {
        assert_eq!(
            Opening::with_swap_stones(OpeningRule::Swap, Color::White, bad, &board),
            Err(OpeningError::BadSwapStones(bad))
        );
    }
    // Other rules ignore the parameter.
    assert_eq!(
        Opening::with_swap_stones(OpeningRule::Swap2, Color::White, 4, &board),
        Opening::new(OpeningRule::Swap2, Color::White, &board)
    );
    // Pente: white first, four stones W, B, W, B by the first player, then the choice; white
    // moves next, whoever holds it.
    for swap in [false, true] {
        let mut t = Table {
            opening: Opening::with_swap_stones(OpeningRule::Swap, Color::White, 4, &board).unwrap(),
            board: board.clone(),
        };
        assert!(t.opening.swap_follows());
        for (i, c) in [Color::White, Color::Black, Color::White, Color::Black]
            .into_iter()
            .enumerate()
        {
            assert_eq!(
                t.kind(),
                PendingKind::Place {
                    color: c,
                    region: Region::Anywhere
                }
            );
            assert!(matches!(
                t.err(Second, Place(p(i, 3))),
                OpeningError::NotYourTurn { .. }
            ));
            t.ok(First, Place(p(i, 0)));
        }
        assert_eq!(t.kind(), PendingKind::Swap);
        assert_eq!(t.opening.actor(), Second);
        assert!(matches!(
            t.err(Second, Place(p(5, 5))),
            OpeningError::WrongAction { .. }
        ));
        let e = t.ok(Second, Swap(swap));
        assert_eq!(e, [Effect::Swapped(swap), Effect::Finished(Color::White)]);
        assert_eq!(t.opening.next_to_move(), Color::White);
        let white = if swap { Second } else { First };
        assert_eq!(t.opening.actor(), white);
        assert_eq!(t.board.history().len(), 4);
    }
    // Five stones end on the first colour: the second colour moves next.
    let mut t = Table {
        opening: Opening::with_swap_stones(OpeningRule::Swap, Color::Black, 5, &board).unwrap(),
        board,
    };
    for i in 0..5 {
        t.ok(First, Place(p(i, 0)));
    }
    t.ok(Second, Swap(false));
    assert_eq!(t.opening.next_to_move(), Color::White);
}

#[test]
fn swap2_three_answers() {
    let opening = |t: &mut Table| {
        for q in [p(7, 7), p(8, 7), p(8, 9)] {
            t.ok(First, Place(q));
        }
    };
    // (a) stay: the second player places the 4th (white); black (first player) moves next.
    let mut t = Table::new(OpeningRule::Swap2, Color::Black);
    opening(&mut t);
    assert_eq!(t.err(Second, Swap(false)), OpeningError::Swap2KeepIsAPlace);
    assert!(matches!(
        t.err(Second, Place(p(7, 7))),
        OpeningError::Occupied { .. }
    ));
    let e = t.ok(Second, Place(p(6, 6)));
    assert_eq!(
        e,
        [
            Effect::Stone(p(6, 6), Color::White),
            Effect::Finished(Color::Black)
        ]
    );
    assert_eq!(t.opening.actor(), First);
    // (b) swap: the first player, now white, plays the 4th.
    let mut t = Table::new(OpeningRule::Swap2, Color::Black);
    opening(&mut t);
    t.ok(Second, Swap(true));
    assert_eq!(
        (t.opening.actor(), t.opening.next_to_move()),
        (First, Color::White)
    );
    // (c) two more stones, then the first player chooses a colour.
    let mut t = Table::new(OpeningRule::Swap2, Color::Black);
    opening(&mut t);
    assert!(matches!(
        t.err(Second, PutTwo([p(6, 6), p(6, 6)])),
        OpeningError::Occupied { .. }
    ));
    let e = t.ok(Second, PutTwo([p(6, 6), p(9, 9)]));
    assert_eq!(
        e,
        [
            Effect::Stone(p(6, 6), Color::White),
            Effect::Stone(p(9, 9), Color::Black)
        ]
    );
    assert_eq!(
        t.opening.pending().unwrap(),
        Pending {
            by: First,
            kind: PendingKind::Swap
        }
    );
    t.ok(First, Swap(false));
    assert_eq!(
        (t.opening.actor(), t.opening.next_to_move()),
        (Second, Color::White)
    );
}

#[test]
fn swap2_with_white_first_mirrors_the_colours() {
    let mut t = Table::new(OpeningRule::Swap2, Color::White);
    assert_eq!(
        t.kind(),
        PendingKind::Place {
            color: Color::White,
            region: Region::Anywhere
        }
    );
    t.ok(First, Place(p(7, 7)));
    assert_eq!(
        t.kind(),
        PendingKind::Place {
            color: Color::Black,
            region: Region::Anywhere
        }
    );
    t.ok(First, Place(p(8, 7)));
    t.ok(First, Place(p(9, 7)));
    assert_eq!(
        t.kind(),
        PendingKind::Swap2Choice {
            color: Color::Black
        }
    );
    t.ok(Second, Swap(true));
    assert_eq!(t.opening.color_of(Second), Color::White);
    assert_eq!(t.opening.next_to_move(), Color::Black);
}

fn twenty_six_opening(t: &mut Table) {
    assert!(matches!(
        t.err(First, Place(p(7, 8))),
        OpeningError::OutsideRegion { .. }
    ));
    t.ok(First, Place(p(7, 7)));
    assert!(matches!(
        t.err(First, Place(p(9, 9))),
        OpeningError::OutsideRegion { .. }
    ));
    t.ok(First, Place(p(7, 6)));
    assert!(matches!(
        t.err(First, Place(p(10, 7))),
        OpeningError::OutsideRegion { .. }
    ));
    t.ok(First, Place(p(7, 9)));
}

#[test]
fn rif_offers_two_non_symmetric_fifth_moves() {
    let mut t = Table::new(OpeningRule::Rif, Color::Black);
    twenty_six_opening(&mut t);
    t.ok(Second, Swap(true));
    // The first player now holds white and plays the 4th.
    assert_eq!(t.opening.pending().unwrap().by, First);
    t.ok(First, Place(p(7, 3)));
    // Now the position is symmetric in the vertical line x = 7: (4,4) and (10,4) are the same.
    assert_eq!(
        t.kind(),
        PendingKind::Offer {
            color: Color::Black,
            count: 2
        }
    );
    assert_eq!(t.opening.pending().unwrap().by, Second);
    assert!(matches!(
        t.err(Second, Offer(vec![p(4, 4)])),
        OpeningError::BadOfferCount {
            expected: 2,
            got: 1
        }
    ));
    assert_eq!(
        t.err(Second, Offer(vec![p(4, 4), p(10, 4)])),
        OpeningError::SymmetricOffers {
            a: p(4, 4),
            b: p(10, 4)
        }
    );
    assert!(matches!(
        t.err(Second, Offer(vec![p(4, 4), p(4, 4)])),
        OpeningError::SymmetricOffers { .. }
    ));
    assert!(matches!(
        t.err(Second, Offer(vec![p(7, 7), p(4, 4)])),
        OpeningError::Occupied { .. }
    ));
    t.ok(Second, Offer(vec![p(4, 4), p(4, 10)]));
    assert_eq!(t.opening.offers(), [p(4, 4), p(4, 10)]);
    assert_eq!(
        t.err(First, Choose(p(3, 3))),
        OpeningError::NotOffered(p(3, 3))
    );
    let e = t.ok(First, Choose(p(4, 10)));
    assert_eq!(
        e,
        [
            Effect::Chosen(p(4, 10)),
            Effect::Stone(p(4, 10), Color::Black),
            Effect::Finished(Color::White)
        ]
    );
    assert!(t.opening.offers().is_empty());
}

#[test]
fn soosorv_declares_swaps_twice_and_offers_that_many() {
    let mut t = Table::new(OpeningRule::Soosorv(8), Color::Black);
    twenty_six_opening(&mut t);
    t.ok(Second, Swap(false));
    t.ok(Second, Place(p(3, 3)));
    assert_eq!(t.kind(), PendingKind::Declare { max: 8 });
    assert_eq!(
        t.err(Second, Declare(9)),
        OpeningError::BadDeclare { max: 8, got: 9 }
    );
    assert_eq!(
        t.err(Second, Declare(0)),
        OpeningError::BadDeclare { max: 8, got: 0 }
    );
    t.ok(Second, Declare(3));
    // The black player (first) may swap now.
    assert_eq!(
        t.opening.pending().unwrap(),
        Pending {
            by: First,
            kind: PendingKind::Swap
        }
    );
    t.ok(First, Swap(true));
    // The second player now holds black and offers three.
    assert_eq!(t.opening.pending().unwrap().by, Second);
    assert_eq!(
        t.kind(),
        PendingKind::Offer {
            color: Color::Black,
            count: 3
        }
    );
    t.ok(Second, Offer(vec![p(10, 10), p(11, 11), p(4, 10)]));
    t.ok(First, Choose(p(11, 11)));
    assert!(t.opening.is_finished());
    assert_eq!(t.opening.actor(), First);
}

#[test]
fn soosorv_one_offer_is_played_at_once() {
    let mut t = Table::new(OpeningRule::Soosorv(2), Color::Black);
    twenty_six_opening(&mut t);
    t.ok(Second, Swap(false));
    t.ok(Second, Place(p(3, 3)));
    t.ok(Second, Declare(1));
    t.ok(First, Swap(false));
    let e = t.ok(First, Offer(vec![p(10, 10)]));
    assert_eq!(
        e,
        [
            Effect::Offered(vec![p(10, 10)]),
            Effect::Stone(p(10, 10), Color::Black),
            Effect::Finished(Color::White)
        ]
    );
}

#[test]
fn taraguchi_swaps_after_every_stone_and_both_branches() {
    let start = |t: &mut Table| {
        t.ok(First, Place(p(7, 7)));
        t.ok(Second, Swap(true)); // second holds black now
        assert_eq!(
            t.kind(),
            PendingKind::Place {
                color: Color::White,
                region: Region::Within(1)
            }
        );
        assert_eq!(t.opening.pending().unwrap().by, First);
        assert!(matches!(
            t.err(First, Place(p(9, 7))),
            OpeningError::OutsideRegion { .. }
        ));
        t.ok(First, Place(p(8, 7)));
        t.ok(Second, Swap(false));
        assert!(matches!(
            t.err(Second, Place(p(10, 7))),
            OpeningError::OutsideRegion { .. }
        ));
        t.ok(Second, Place(p(9, 8)));
        t.ok(First, Swap(true)); // first holds black again
        assert!(matches!(
            t.err(Second, Place(p(11, 7))),
            OpeningError::OutsideRegion { .. }
        ));
        t.ok(Second, Place(p(10, 6)));
        assert_eq!(
            t.opening.pending().unwrap(),
            Pending {
                by: First,
                kind: PendingKind::SwapOrOffer {
                    color: Color::Black,
                    region: Region::Within(4),
                    count: 10
                }
            }
        );
    };
    // Branch 1: swap, the 5th within 9x9, a last swap.
    let mut t = Table::new(OpeningRule::Taraguchi10, Color::Black);
    start(&mut t);
    t.ok(First, Swap(true));
    assert_eq!(t.opening.pending().unwrap().by, Second);
    assert!(matches!(
        t.err(Second, Place(p(12, 7))),
        OpeningError::OutsideRegion { .. }
    ));
    t.ok(Second, Place(p(11, 7)));
    assert_eq!(
        t.opening.pending().unwrap(),
        Pending {
            by: First,
            kind: PendingKind::Swap
        }
    );
    let e = t.ok(First, Swap(false));
    assert_eq!(e.last(), Some(&Effect::Finished(Color::White)));
    assert_eq!(t.opening.actor(), First);
    // Branch 2: ten offers, white chooses.
    let mut t = Table::new(OpeningRule::Taraguchi10, Color::Black);
    start(&mut t);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let offers = random_offers(&t.board, 10, &mut rng);
    assert!(matches!(
        t.err(First, Offer(offers[..9].to_vec())),
        OpeningError::BadOfferCount { .. }
    ));
    t.ok(First, Offer(offers.clone()));
    t.ok(Second, Choose(offers[3]));
    assert_eq!(t.opening.next_to_move(), Color::White);
}

#[test]
fn auto_actions_finish_every_opening_legally() {
    for rule in OpeningRule::ALL {
        for first in Color::ALL {
            for seed in 0..4 {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let mut t = Table::new(rule, first);
                let mut steps = 0;
                while let Some(a) = auto_action(&t.opening, &t.board, &mut rng) {
                    let by = t.opening.pending().unwrap().by;
                    t.ok(by, a);
                    steps += 1;
                    assert!(steps < 30);
                }
                assert!(t.opening.is_finished(), "{rule} {first:?}");
            }
        }
    }
}

/// A position that is not an omok board (as another rule family's would be).
struct Grid {
    size: usize,
    cells: Vec<Option<Color>>,
}

impl Position for Grid {
    fn width(&self) -> usize {
        self.size
    }
    fn height(&self) -> usize {
        self.size
    }
    fn stone(&self, p: Pos) -> Option<Color> {
        self.cells[p.y() * self.size + p.x()]
    }
}

#[test]
fn any_position_type_works_and_white_may_move_first() {
    let mut g = Grid {
        size: 13,
        cells: vec![None; 169],
    };
    let mut o = Opening::new(OpeningRule::Pro, Color::White, &g).unwrap();
    let put = |g: &mut Grid, o: &mut Opening, by, q: Pos| {
        for e in o.apply(&*g, by, Place(q)).unwrap() {
            if let Effect::Stone(q, c) = e {
                g.cells[q.y() * 13 + q.x()] = Some(c);
            }
        }
    };
    assert!(matches!(
        o.check(&g, First, &Place(p(5, 6))),
        Err(OpeningError::OutsideRegion { .. })
    ));
    put(&mut g, &mut o, First, p(6, 6));
    assert_eq!(g.stone(p(6, 6)), Some(Color::White));
    put(&mut g, &mut o, Second, p(7, 7));
    assert_eq!(g.stone(p(7, 7)), Some(Color::Black));
    assert!(o.check(&g, First, &Place(p(8, 8))).is_err());
    put(&mut g, &mut o, First, p(9, 6));
    assert!(o.is_finished());
    assert_eq!(o.next_to_move(), Color::Black);
    // The lone centre stone of a fresh grid keeps all eight symmetries.
    let mut g = Grid {
        size: 13,
        cells: vec![None; 169],
    };
    g.cells[6 * 13 + 6] = Some(Color::White);
    assert_eq!(symmetry::stabiliser(&g).len(), 8);
    assert!(
        random_offers(&g, 3, &mut Xoshiro256PlusPlus::seed_from_u64(1))
            .iter()
            .all(|q| g.near_a_stone(*q))
    );
}
