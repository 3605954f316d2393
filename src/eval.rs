//! Static move scores from the board's line patterns: how much a point is worth to a colour, as
//! an attack (its own patterns there) and as a defence (the opponent's). Used by the practice
//! player and as the move-ordering base of the search.

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::pattern::{LinePattern, PatternKind};

/// Attack value of one directional pattern class, by [`PatternKind`] order.
const ATTACK: [i32; 11] = [0, 2, 6, 8, 30, 40, 150, 180, 3_000, 100_000, 0];
/// Defence value (the same class for the opponent), by [`PatternKind`] order.
const DEFENCE: [i32; 11] = [0, 1, 4, 6, 24, 30, 120, 150, 2_400, 50_000, 0];

/// A summary of what a stone does over the four directions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threat {
    /// Directions making a five.
    pub fives: u8,
    /// Directions making a straight four.
    pub flex4: u8,
    /// Fours counted over all directions (a one-line double four counts two).
    pub fours: u8,
    /// Directions making an open three.
    pub flex3: u8,
}

impl Threat {
    /// The summary of four directional patterns.
    pub fn of(pats: &[LinePattern; 4]) -> Threat {
        let mut t = Threat::default();
        for p in pats {
            match p.kind() {
                PatternKind::Five => t.fives += 1,
                PatternKind::Flex4 => t.flex4 += 1,
                PatternKind::Flex3 => t.flex3 += 1,
                _ => {}
            }
            t.fours += p.four_count();
        }
        t
    }

    /// A win in one more move whatever the opponent does (straight four, double four, four-three),
    /// ignoring forbidden points.
    pub fn is_winning_shape(&self) -> bool {
        self.flex4 > 0 || self.fours >= 2 || (self.fours >= 1 && self.flex3 >= 1)
    }
}

fn side_value(pats: &[LinePattern; 4], table: &[i32; 11]) -> i32 {
    let base: i32 = pats.iter().map(|p| table[p.kind() as usize]).sum();
    let t = Threat::of(pats);
    let combo = if t.is_winning_shape() {
        table[PatternKind::Flex4 as usize]
    } else if t.flex3 >= 2 {
        table[PatternKind::Flex4 as usize] / 3
    } else {
        0
    };
    base + combo
}

/// Potential of one directional pattern class for the static evaluation, by [`PatternKind`] order.
const POTENTIAL: [i32; 11] = [0, 1, 3, 4, 12, 14, 45, 50, 400, 0, 0];

/// What an empty cell is worth to a colour in the static evaluation: the sum of its directional
/// potentials plus a bonus for shapes that win by force (double threes, fours with threes).
/// With `restricted` (renju black), a cell that is surely forbidden (an overline or two fours)
/// is worth nothing, and a double three, which is forbidden unless one three is false, earns no
/// bonus.
#[inline]
pub fn cell_potential(pats: &[LinePattern; 4], restricted: bool) -> i32 {
    let mut sum = 0;
    let mut threes = 0;
    let mut fours = 0;
    let mut overline = false;
    for p in pats {
        let k = p.kind();
        sum += POTENTIAL[k as usize];
        threes += (k == PatternKind::Flex3) as i32;
        fours += p.four_count() as i32;
        overline |= k == PatternKind::Overline;
    }
    if restricted {
        if overline || fours >= 2 {
            return 0;
        }
        if fours == 1 && threes == 1 {
            sum += 300;
        }
        return sum;
    }
    if fours >= 2 || (fours >= 1 && threes >= 1) {
        sum += 300;
    } else if threes >= 2 {
        sum += 120;
    }
    sum
}

/// The value of `p` for `color` to play: its own patterns as attack plus the opponent's as
/// defence.
pub fn move_score(board: &Board, p: Pos, color: Color) -> i32 {
    side_value(&board.patterns(p, color), &ATTACK)
        + side_value(&board.patterns(p, color.opponent()), &DEFENCE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;

    #[test]
    fn completing_a_five_outweighs_everything_and_blocking_comes_next() {
        let mut b = Board::square(15, Rule::Freestyle).unwrap();
        for x in 3..7 {
            b.make_move(Pos::new(x, 3).unwrap(), Color::Black);
            b.make_move(Pos::new(x, 9).unwrap(), Color::White);
        }
        let win = move_score(&b, Pos::new(7, 3).unwrap(), Color::Black);
        let block = move_score(&b, Pos::new(7, 9).unwrap(), Color::Black);
        let quiet = move_score(&b, Pos::new(7, 6).unwrap(), Color::Black);
        assert!(win > block && block > quiet, "{win} {block} {quiet}");
    }
}
