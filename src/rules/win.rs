//! Win detection per rule: the winning line through a stone (SPEC §3 `isWin`).

use crate::board::Board;
use crate::core::{Color, Dir, Pos};
use crate::error::BoardError;

/// The winning line through the stone on `p`, from one end to the other, if that stone's colour
/// wins with it under the board's rule. A renju black five wins even when another direction
/// through `p` is an overline; korean sixes do not win.
pub fn winning_line(board: &Board, p: Pos) -> Option<Vec<Pos>> {
    let color = board.get(p)?;
    let rule = board.rule().win_rule(color);
    let opp = crate::board::stone_code(color.opponent());
    Dir::ALL.into_iter().find_map(|d| {
        let (back, fwd) = stone_run(board, p, d, color);
        let before = board.cell_code(p.shifted_index(d, -(back as isize) - 1));
        let after = board.cell_code(p.shifted_index(d, fwd as isize + 1));
        let wins = rule.wins(back + fwd + 1, before, after, opp);
        wins.then(|| {
            (-(back as isize)..=fwd as isize)
                .map(|k| Pos::from_index(p.shifted_index(d, k)))
                .collect()
        })
    })
}

/// The stones of `color` adjacent to `p` along `d`: `(behind, ahead)` counts, `p` excluded.
pub(crate) fn stone_run(board: &Board, p: Pos, d: Dir, color: Color) -> (usize, usize) {
    let code = crate::board::stone_code(color);
    let count = |sign: isize| {
        (1..)
            .take_while(|&k| board.cell_code(p.shifted_index(d, sign * k)) == code)
            .count()
    };
    (count(-1), count(1))
}

/// A winning line anywhere on the board: the colour and its stones. Used to reject positions
/// that are already decided.
pub fn find_five(board: &Board) -> Option<(Color, Vec<Pos>)> {
    board.positions().find_map(|p| {
        let c = board.get(p)?;
        winning_line(board, p).map(|line| (c, line))
    })
}

/// [`find_five`] as an error, for inputs that must not contain a decided game.
pub fn ensure_no_five(board: &Board) -> Result<(), BoardError> {
    match find_five(board) {
        None => Ok(()),
        Some((color, line)) => Err(BoardError::FiveOnBoard {
            color,
            line: line
                .iter()
                .map(|p| format!("{p}"))
                .collect::<Vec<_>>()
                .join(" "),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_util::board_with;
    use crate::rule::Rule;

    #[test]
    fn five_in_each_direction_including_the_edge() {
        let lines: [[(usize, usize); 5]; 4] = [
            [(10, 0), (11, 0), (12, 0), (13, 0), (14, 0)],
            [(0, 10), (0, 11), (0, 12), (0, 13), (0, 14)],
            [(3, 3), (4, 4), (5, 5), (6, 6), (7, 7)],
            [(0, 14), (1, 13), (2, 12), (3, 11), (4, 10)],
        ];
        for rule in Rule::ALL {
            for line in lines {
                let b = board_with(rule, &line, &[]);
                let got = winning_line(&b, Pos::new(line[2].0, line[2].1).unwrap()).unwrap();
                let mut got: Vec<_> = got.iter().map(|p| (p.x(), p.y())).collect();
                got.sort_unstable();
                let mut want = line.to_vec();
                want.sort_unstable();
                assert_eq!(got, want, "{rule}");
            }
        }
    }

    #[test]
    fn six_in_a_row_per_rule() {
        let six: Vec<_> = (2..8).map(|x| (x, 7)).collect();
        let p = Pos::new(4, 7).unwrap();
        for (rule, black_wins, white_wins) in [
            (Rule::Freestyle, true, true),
            (Rule::Standard, false, false),
            (Rule::Renju, false, true),
            (Rule::Korean, false, false),
            (Rule::Casual, true, true),
            (Rule::Caro, false, false),
        ] {
            assert_eq!(
                winning_line(&board_with(rule, &six, &[]), p).is_some(),
                black_wins,
                "{rule} black"
            );
            assert_eq!(
                winning_line(&board_with(rule, &[], &six), p).is_some(),
                white_wins,
                "{rule} white"
            );
        }
    }

    #[test]
    fn caro_five_blocked_at_both_ends_does_not_win() {
        let five: Vec<_> = (3..8).map(|x| (x, 7)).collect();
        let p = Pos::new(5, 7).unwrap();
        let blocked = board_with(Rule::Caro, &five, &[(2, 7), (8, 7)]);
        assert!(winning_line(&blocked, p).is_none());
        let one_side = board_with(Rule::Caro, &five, &[(2, 7)]);
        assert!(winning_line(&one_side, p).is_some());
        let at_edge: Vec<_> = (0..5).map(|x| (x, 7)).collect();
        assert!(
            winning_line(
                &board_with(Rule::Caro, &at_edge, &[(5, 7)]),
                Pos::new(0, 7).unwrap()
            )
            .is_some()
        );
        assert!(winning_line(&board_with(Rule::Freestyle, &five, &[(2, 7), (8, 7)]), p).is_some());
    }

    #[test]
    fn renju_black_five_wins_beside_an_overline() {
        // Row 7: six through (7,7); column 7: exactly five through (7,7).
        let mut black: Vec<_> = (2..8).map(|x| (x, 7)).collect();
        black.extend([(7, 3), (7, 4), (7, 5), (7, 6)]);
        let b = board_with(Rule::Renju, &black, &[]);
        let line = winning_line(&b, Pos::new(7, 7).unwrap()).unwrap();
        assert!(line.iter().all(|p| p.x() == 7));
        assert!(find_five(&b).is_some());
        assert!(ensure_no_five(&b).is_err());
    }
}
