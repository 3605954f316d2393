//! Threat hints (seed 004 `hints = warn`): a colour's fours and open threes, with the stones of
//! each, the points that complete it and the points that block it.
//!
//! A *four* is a set of stones that one empty point turns into a winning line (an *open four* when
//! the same stones win at two points). An *open three* is a set of three stones that one empty
//! point turns into a straight four, where that point is itself playable for the colour (not
//! forbidden, as in the RIF definition of a three). The blocking points of a three are the empty
//! points of its line where an opponent stone leaves no way to make that straight four.

use serde::Serialize;

use crate::board::Board;
use crate::core::{Color, Dir, Pos};
use crate::pattern::analysis::CENTRE;
use crate::pattern::{CELL_EMPTY, PatternKind};

use super::forbidden::ForbidChecker;

/// The kind of a threat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ThreatKind {
    /// Four stones that win at two points.
    OpenFour,
    /// Four stones that win at one point.
    Four,
    /// Three stones that one more stone makes a straight four.
    OpenThree,
}

/// One threat of a colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Threat {
    /// What it is.
    pub kind: ThreatKind,
    /// The line it lies on.
    #[serde(skip)]
    pub dir: Dir,
    /// Its stones, along the line.
    pub stones: Vec<Pos>,
    /// Where the colour completes it (a five for fours, a straight four for threes).
    pub completions: Vec<Pos>,
    /// Where the opponent can block it.
    pub blocks: Vec<Pos>,
}

/// Every four and open three of `color`, fours first, then by their first stone. The board is
/// left as it was.
pub fn threats(board: &mut Board, color: Color) -> Vec<Threat> {
    let mut out: Vec<Threat> = Vec::new();
    let win_rule = board.rule().win_rule(color);
    let mut forbid = ForbidChecker::default();
    let empties: Vec<Pos> = board.positions().filter(|&p| board.is_empty(p)).collect();
    for &q in &empties {
        for d in Dir::ALL {
            let kind = board.pattern(q, d, color).kind();
            if kind == PatternKind::Five {
                let stones = winning_stones(board, q, d, color);
                add(&mut out, ThreatKind::Four, d, stones, q);
            } else if kind == PatternKind::Flex4 {
                if board.rule().has_forbidden(color) && forbid.check(board, q, color).is_some() {
                    continue;
                }
                let line = board.line(q, d, color);
                for set in line.four_sets(win_rule).iter().filter(|s| s.is_straight()) {
                    let stones = mask_positions(q, d, set.stones & !(1 << CENTRE));
                    add(&mut out, ThreatKind::OpenThree, d, stones, q);
                }
            }
        }
    }
    for t in &mut out {
        match t.kind {
            ThreatKind::Four | ThreatKind::OpenFour => {
                if t.completions.len() >= 2 {
                    t.kind = ThreatKind::OpenFour;
                }
                t.blocks = t.completions.clone();
            }
            ThreatKind::OpenThree => t.blocks = three_blocks(board, color, t),
        }
    }
    out.sort_by(|a, b| (a.kind, a.stones.first()).cmp(&(b.kind, b.stones.first())));
    out
}

fn add(out: &mut Vec<Threat>, kind: ThreatKind, dir: Dir, stones: Vec<Pos>, point: Pos) {
    match out.iter_mut().find(|t| {
        t.dir == dir
            && t.stones == stones
            && (t.kind == ThreatKind::OpenThree) == (kind == ThreatKind::OpenThree)
    }) {
        Some(t) => {
            if !t.completions.contains(&point) {
                t.completions.push(point);
                t.completions.sort();
            }
        }
        None => out.push(Threat {
            kind,
            dir,
            stones,
            completions: vec![point],
            blocks: Vec::new(),
        }),
    }
}

/// The stones of the winning run that a stone of `color` on `q` makes along `d`, `q` excluded.
fn winning_stones(board: &Board, q: Pos, d: Dir, color: Color) -> Vec<Pos> {
    let (back, fwd) = super::win::stone_run(board, q, d, color);
    (-(back as isize)..=fwd as isize)
        .filter(|&k| k != 0)
        .map(|k| Pos::from_index(q.shifted_index(d, k)))
        .collect()
}

fn mask_positions(centre: Pos, d: Dir, mask: u16) -> Vec<Pos> {
    (0..16)
        .filter(|b| mask & (1 << b) != 0)
        .map(|b| Pos::from_index(centre.shifted_index(d, b as isize - CENTRE as isize)))
        .collect()
}

/// Empty points on the three's line where an opponent stone leaves no completion point that
/// still makes a straight four with the three's stones.
fn three_blocks(board: &mut Board, color: Color, t: &Threat) -> Vec<Pos> {
    let win_rule = board.rule().win_rule(color);
    let (first, last) = (t.stones[0], *t.stones.last().unwrap_or(&t.stones[0]));
    let span = |p: Pos| -> Vec<Pos> {
        (-5..=5)
            .map(|k| p.shifted_index(t.dir, k))
            .filter(|&i| board.cell_code(i) == CELL_EMPTY)
            .map(Pos::from_index)
            .collect()
    };
    let mut candidates = span(first);
    candidates.extend(span(last));
    candidates.sort();
    candidates.dedup();
    let still_three = |board: &Board| {
        t.completions.iter().any(|&q| {
            board.is_empty(q)
                && board
                    .line(q, t.dir, color)
                    .four_sets(win_rule)
                    .iter()
                    .any(|s| {
                        s.is_straight()
                            && mask_positions(q, t.dir, s.stones & !(1 << CENTRE)) == t.stones
                    })
        })
    };
    candidates
        .into_iter()
        .filter(|&r| {
            board.make_move(r, color.opponent());
            let blocked = !still_three(board);
            board.undo_move();
            blocked
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_util::board_with as board;
    use crate::rule::Rule;

    fn xy(v: &[Pos]) -> Vec<(usize, usize)> {
        v.iter().map(|p| (p.x(), p.y())).collect()
    }

    #[test]
    fn open_three_with_its_completions_and_blocks() {
        let mut b = board(Rule::Freestyle, &[(6, 7), (7, 7), (8, 7)], &[]);
        let t = threats(&mut b, Color::Black);
        assert_eq!(t.len(), 1, "{t:?}");
        assert_eq!(t[0].kind, ThreatKind::OpenThree);
        assert_eq!(xy(&t[0].stones), vec![(6, 7), (7, 7), (8, 7)]);
        assert_eq!(xy(&t[0].completions), vec![(5, 7), (9, 7)]);
        // With room on both sides only the adjacent points block: after O on (4,7) black still
        // makes .XXXX. on the right.
        assert_eq!(xy(&t[0].blocks), vec![(5, 7), (9, 7)]);
        // Against the edge, the far point blocks too: after O on (4,0), X on (1,0) or (5,0)
        // makes only a closed four.
        let mut edge = board(Rule::Freestyle, &[(1, 0), (2, 0), (3, 0)], &[]);
        let t = threats(&mut edge, Color::Black);
        assert_eq!(t.len(), 1, "{t:?}");
        assert_eq!(xy(&t[0].completions), vec![(4, 0)]);
        assert_eq!(xy(&t[0].blocks), vec![(0, 0), (4, 0), (5, 0)]);
        assert!(threats(&mut b, Color::White).is_empty());
    }

    #[test]
    fn fours_and_open_fours() {
        let mut b = board(
            Rule::Freestyle,
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(2, 3)],
        );
        let t = threats(&mut b, Color::Black);
        assert_eq!(t.len(), 1, "{t:?}");
        assert_eq!(t[0].kind, ThreatKind::Four);
        assert_eq!(xy(&t[0].completions), vec![(7, 3)]);
        let mut open = board(Rule::Freestyle, &[(3, 3), (4, 3), (5, 3), (6, 3)], &[]);
        let t = threats(&mut open, Color::Black);
        assert_eq!(t[0].kind, ThreatKind::OpenFour);
        assert_eq!(xy(&t[0].blocks), vec![(2, 3), (7, 3)]);
    }

    #[test]
    fn closed_three_is_not_a_threat() {
        let mut b = board(Rule::Renju, &[(6, 7), (7, 7), (8, 7)], &[(5, 7)]);
        assert!(threats(&mut b, Color::Black).is_empty());
    }
}
