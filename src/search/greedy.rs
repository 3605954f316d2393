//! The practice player: one ply, no look-ahead. In order: complete an own five; block the
//! opponent's five; make an own straight four; stop the opponent's straight four (take one of its
//! points); otherwise the legal point with the best [`move_score`]. Ties go to the first point in
//! board order, so the choice is deterministic. Never an occupied or forbidden point.

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::eval::{Threat, move_score};
use crate::pattern::PatternKind;
use crate::rules::ForbidChecker;

use super::{NodeKinds, SearchInfo, SearchResult};

/// The greedy choice for `color`; the board is left as it was.
pub fn choose(board: &mut Board, color: Color) -> SearchResult {
    let candidates = candidates(board);
    let nodes = candidates.len() as u64;
    let mut forbid = ForbidChecker::default();
    let has_forbidden = board.rule().has_forbidden(color);
    let mut ranked: Vec<(i32, i32, Pos)> = candidates
        .iter()
        .map(|&p| {
            let own = board.patterns(p, color);
            let opp = board.patterns(p, color.opponent());
            let priority = if Threat::of(&own).fives > 0 {
                4
            } else if Threat::of(&opp).fives > 0 {
                3
            } else if own.iter().any(|x| x.kind() == PatternKind::Flex4) {
                2
            } else if opp.iter().any(|x| x.kind() == PatternKind::Flex4) {
                1
            } else {
                0
            };
            (priority, move_score(board, p, color), p)
        })
        .collect();
    // Best priority, then best score, then board order.
    ranked.sort_by(|a, b| (b.0, b.1).cmp(&(a.0, a.1)).then(a.2.cmp(&b.2)));
    let pick = ranked.iter().find(|&&(priority, _, p)| {
        // A five is never forbidden; everything else is checked for the colours that have rules.
        priority == 4 || !has_forbidden || forbid.check(board, p, color).is_none()
    });
    SearchResult {
        best: pick.map(|r| r.2),
        info: SearchInfo {
            depth: 1,
            score: pick.map_or(0, |r| r.1),
            nodes,
            elapsed_ms: 0,
            pv: pick.map(|r| vec![r.2]).unwrap_or_default(),
            // The candidates looked at count as the tree.
            node_kinds: NodeKinds {
                tree: nodes,
                ..NodeKinds::default()
            },
        },
        alternatives: Vec::new(),
    }
}

/// Empty points within distance 2 of a stone (the board's near points); the centre on an empty
/// board; every empty point if none of those is left.
pub fn candidates(board: &Board) -> Vec<Pos> {
    if board.move_count() == 0 {
        return vec![board.centre()];
    }
    let near: Vec<Pos> = board.near_empties().collect();
    if near.is_empty() {
        board.positions().filter(|&p| board.is_empty(p)).collect()
    } else {
        near
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_util::board_with as board;
    use crate::rule::Rule;

    #[test]
    fn wins_blocks_and_stops_open_threes() {
        let mut b = board(
            Rule::Freestyle,
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(9, 9), (9, 10), (9, 11), (9, 12)],
        );
        let m = choose(&mut b, Color::Black).best.unwrap();
        assert!(
            m == Pos::new(7, 3).unwrap() || m == Pos::new(2, 3).unwrap(),
            "{m:?}"
        );
        let mut b = board(
            Rule::Freestyle,
            &[(3, 3), (5, 5)],
            &[(9, 9), (9, 10), (9, 11), (9, 12)],
        );
        let m = choose(&mut b, Color::Black).best.unwrap();
        assert!(
            m == Pos::new(9, 8).unwrap() || m == Pos::new(9, 13).unwrap(),
            "{m:?}"
        );
        let mut b = board(
            Rule::Freestyle,
            &[(3, 3), (3, 12)],
            &[(8, 9), (9, 9), (10, 9)],
        );
        let m = choose(&mut b, Color::Black).best.unwrap();
        assert_eq!(m.y(), 9, "blocks the open three on row 9: {m:?}");
    }

    #[test]
    fn never_plays_a_forbidden_point() {
        // Example A: H8 (7,7) would be a strong point for black but is a double three in renju.
        let mut b = board(
            Rule::Renju,
            &[(5, 7), (6, 7), (7, 6), (7, 5)],
            &[(0, 0), (14, 14), (0, 14)],
        );
        assert!(crate::rules::forbidden(&mut b, Pos::new(7, 7).unwrap(), Color::Black).is_some());
        let m = choose(&mut b, Color::Black).best.unwrap();
        assert!(crate::rules::forbidden(&mut b, m, Color::Black).is_none());
    }

    #[test]
    fn empty_board_gets_the_centre() {
        let mut b = Board::square(20, Rule::Freestyle).unwrap();
        assert_eq!(choose(&mut b, Color::Black).best, Pos::new(10, 10));
    }
}
