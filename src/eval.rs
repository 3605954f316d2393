//! Static evaluation and move scores from the board's line patterns: how much a point is worth to
//! a colour, as an attack (its own patterns there) and as a defence (the opponent's), and how much
//! potential each side has over the candidate points.
//!
//! The fast values come from the board's incremental [`CellSummary`](crate::pattern::cell::CellSummary)s ([`move_score`],
//! [`static_eval`]); [`reference_move_score`] and [`cell_potential`] compute the same numbers
//! direction by direction from the weights (a cell's combination found by search rather than
//! from the board's running index), and the tests hold the two equal.

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::pattern::cell::{ATTACK, DEFENCE, ThreatSet};
use crate::pattern::combo::{COMBOS, line_class, reference_combo};
use crate::pattern::policy::{DISTANCE_BUCKETS, distance_bucket, distance_class};
use crate::pattern::policy_weights::{
    POLICY_NEAR_LAST, POLICY_NEAR_OWN, POLICY_OWN, POLICY_THEIRS,
};
use crate::pattern::weights::{COMBO_POTENTIAL_TO_MOVE, COMBO_POTENTIAL_WAITING, THREAT_TABLE};
use crate::pattern::{LinePattern, PatternKind};

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

/// What an empty cell is worth to a colour in the static evaluation: the value of the
/// combination of line classes a stone there makes (found by search over the combinations),
/// from the table for that colour to move (`to_move`) or for it waiting. With `restricted`
/// (renju black) the value comes from renju black's tables, in which a cell that is surely
/// forbidden (an overline or two fours) is worth nothing.
pub fn cell_potential(pats: &[LinePattern; 4], restricted: bool, to_move: bool) -> i32 {
    let combo = reference_combo(pats.map(line_class));
    let table = if to_move {
        &COMBO_POTENTIAL_TO_MOVE
    } else {
        &COMBO_POTENTIAL_WAITING
    };
    table[restricted as usize][combo] as i32
}

/// The value of the empty point `p` for `color` to play: its own patterns as attack plus the
/// opponent's as defence (from the board's summaries).
#[inline]
pub fn move_score(board: &Board, p: Pos, color: Color) -> i32 {
    board.summary(p, color).attack() + board.summary(p, color.opponent()).defence()
}

/// What the fitted move ordering reads of the candidate `p` for `color` to move: the
/// combinations a stone of `color` and a stone of the opponent make there, each offset by
/// [`COMBOS`] for a restricted colour (renju black), and the distance classes of `p` from the
/// last stone and from the one before it ([`crate::pattern::policy::distance_bucket`]).
/// Reads the cells' combinations, which only full moves keep.
#[inline]
pub fn policy_features(board: &Board, p: Pos, color: Color) -> [usize; 4] {
    let combo =
        |c: Color| restricted(board, c) as usize * COMBOS + board.summary(p, c).combo() as usize;
    let history = board.history();
    let near = |back: usize| {
        history
            .len()
            .checked_sub(back)
            .map_or(DISTANCE_BUCKETS - 1, |i| distance_bucket(p, history[i].0))
    };
    [combo(color), combo(color.opponent()), near(1), near(2)]
}

/// The fitted ordering score of the candidate `p` for `color` to move
/// ([`crate::pattern::policy_weights`], hundredths of a unit of log-odds).
#[inline]
pub fn policy_score(board: &Board, p: Pos, color: Color) -> i32 {
    let [own, theirs, last, before] = policy_features(board, p, color);
    POLICY_OWN[own / COMBOS][own % COMBOS] as i32
        + POLICY_THEIRS[theirs / COMBOS][theirs % COMBOS] as i32
        + POLICY_NEAR_LAST[last] as i32
        + POLICY_NEAR_OWN[before] as i32
}

/// [`policy_score`] for the candidates of one node: what depends only on the node (the
/// colours' tables, where the last two stones lie) is read once, and each candidate costs four
/// table reads.
pub struct PolicyScorer {
    color: Color,
    own: &'static [i16; COMBOS],
    theirs: &'static [i16; COMBOS],
    /// The last stone and the one before it, as (x, y), if there are such stones.
    recent: [Option<(usize, usize)>; 2],
}

impl PolicyScorer {
    /// The scorer for `color` to move on `board` as it is now.
    pub fn new(board: &Board, color: Color) -> PolicyScorer {
        let history = board.history();
        let back = |n: usize| {
            history
                .len()
                .checked_sub(n)
                .map(|i| (history[i].0.x(), history[i].0.y()))
        };
        PolicyScorer {
            color,
            own: &POLICY_OWN[restricted(board, color) as usize],
            theirs: &POLICY_THEIRS[restricted(board, color.opponent()) as usize],
            recent: [back(1), back(2)],
        }
    }

    /// [`policy_score`] of the candidate `p` on the board the scorer was made for.
    #[inline]
    pub fn score(&self, board: &Board, p: Pos) -> i32 {
        let (x, y) = (p.x(), p.y());
        let bucket = |stone: Option<(usize, usize)>| {
            stone.map_or(DISTANCE_BUCKETS - 1, |(sx, sy)| {
                distance_class(x.abs_diff(sx), y.abs_diff(sy))
            })
        };
        self.own[board.summary(p, self.color).combo() as usize] as i32
            + self.theirs[board.summary(p, self.color.opponent()).combo() as usize] as i32
            + POLICY_NEAR_LAST[bucket(self.recent[0])] as i32
            + POLICY_NEAR_OWN[bucket(self.recent[1])] as i32
    }
}

/// [`move_score`] computed direction by direction from the patterns (the reference).
pub fn reference_move_score(board: &Board, p: Pos, color: Color) -> i32 {
    side_value(&board.patterns(p, color), &ATTACK)
        + side_value(&board.patterns(p, color.opponent()), &DEFENCE)
}

/// The static evaluation for `us` to move: our potential valued for the side to move, weighted
/// by `tempo_percent` (100: as fitted), minus the opponent's valued for the side that waits,
/// scaled down by four, plus the threat table's value for the threats both sides hold. O(1):
/// the potentials and threat sets are kept by the board.
#[inline]
pub fn static_eval(board: &Board, us: Color, tempo_percent: i32) -> i32 {
    let (potentials, threats) = static_eval_parts(board, us, tempo_percent);
    potentials + threats
}

/// The two parts of [`static_eval`]: the potentials' difference and the threat table's value.
#[inline]
pub fn static_eval_parts(board: &Board, us: Color, tempo_percent: i32) -> (i32, i32) {
    let them = us.opponent();
    let index = threat_index(
        Color::ALL.map(|c| {
            [
                board.threat_count(c, ThreatSet::Four),
                board.threat_count(c, ThreatSet::Three),
                board.threat_count(c, ThreatSet::Flex4),
            ]
        }),
        us,
    );
    (
        (board.potential(us).0 * tempo_percent / 100 - board.potential(them).1) / 4,
        THREAT_TABLE[index],
    )
}

/// Entries of the threat table for one of the four ways the two sides may hold a straight four
/// to make (an open three on the board): the combinations of both sides' bucketed counts.
pub const THREAT_COUNT_ENTRIES: usize = 81;
/// Entries of the threat table: [`THREAT_COUNT_ENTRIES`] for each way the two sides may hold a
/// straight four to make.
pub const THREAT_TABLE_SIZE: usize = 4 * THREAT_COUNT_ENTRIES;

/// A count of threat points in three buckets: none, up to `few`, more.
const fn bucket(n: usize, few: usize) -> usize {
    if n == 0 {
        0
    } else if n <= few {
        1
    } else {
        2
    }
}

/// The threat-table index for `us` to move, from the numbers of four points, open-three points
/// and straight-four points of each colour (`counts[colour index] = [fours, threes, flex4]`):
/// the side to move's fours (none, 1–2, more) and threes (none, 1–3, more), then the
/// opponent's; then whether the side to move, and whether the opponent, has a straight four to
/// make (entries [`THREAT_COUNT_ENTRIES`] and up: a side has an open three on the board).
pub fn threat_index(counts: [[usize; 3]; 2], us: Color) -> usize {
    let (u, t) = (counts[us.index()], counts[us.opponent().index()]);
    let counts =
        ((bucket(u[0], 2) * 3 + bucket(u[1], 3)) * 3 + bucket(t[0], 2)) * 3 + bucket(t[1], 3);
    ((u[2] > 0) as usize * 2 + (t[2] > 0) as usize) * THREAT_COUNT_ENTRIES + counts
}

/// The numbers of four points, open-three points and straight-four points of each colour,
/// counted over every empty point from the line patterns (the reference for the board's threat
/// sets).
pub fn reference_threat_counts(board: &Board) -> [[usize; 3]; 2] {
    let mut out = [[0; 3]; 2];
    for p in board.positions().filter(|&p| board.is_empty(p)) {
        for c in [Color::Black, Color::White] {
            let t = Threat::of(&board.patterns(p, c));
            if t.fives > 0 {
                continue;
            }
            out[c.index()][0] += (t.fours > 0) as usize;
            out[c.index()][1] += (t.flex3 > 0) as usize;
            out[c.index()][2] += (t.flex4 > 0) as usize;
        }
    }
    out
}

/// Whether renju black's forbidden shapes count as no potential for `color` on `board`.
pub fn restricted(board: &Board, color: Color) -> bool {
    board.rule() == crate::rule::Rule::Renju && color == Color::Black
}

/// [`static_eval`] recomputed over the candidate points from the patterns (the reference).
pub fn reference_static_eval(board: &Board, us: Color, tempo_percent: i32) -> i32 {
    let them = us.opponent();
    let (mut pot_us, mut pot_them) = (0, 0);
    for p in board.near_empties() {
        pot_us += cell_potential(&board.patterns(p, us), restricted(board, us), true);
        pot_them += cell_potential(&board.patterns(p, them), restricted(board, them), false);
    }
    (pot_us * tempo_percent / 100 - pot_them) / 4
        + THREAT_TABLE[threat_index(reference_threat_counts(board), us)]
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

    /// Plays a seeded random game and compares the incremental values with the references after
    /// every move, for every rule.
    #[test]
    fn incremental_values_equal_the_reference() {
        use rand_core::{RngCore, SeedableRng};
        for (i, rule) in [Rule::Freestyle, Rule::Renju, Rule::Korean, Rule::Caro]
            .into_iter()
            .enumerate()
        {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(i as u64);
            let mut pick = |n: usize| (rng.next_u64() % n as u64) as usize;
            let mut b = Board::square(15, rule).unwrap();
            let mut color = Color::Black;
            for _ in 0..120 {
                let empties: Vec<Pos> = b.positions().filter(|&p| b.is_empty(p)).collect();
                let near: Vec<Pos> = b.near_empties().collect();
                let pool = if near.is_empty() || pick(5) == 0 {
                    &empties
                } else {
                    &near
                };
                b.make_move(pool[pick(pool.len())], color);
                color = color.opponent();
                for c in Color::ALL {
                    assert_eq!(static_eval(&b, c, 120), reference_static_eval(&b, c, 120));
                }
                let scorers = Color::ALL.map(|c| PolicyScorer::new(&b, c));
                for p in b.near_empties() {
                    for c in Color::ALL {
                        assert_eq!(move_score(&b, p, c), reference_move_score(&b, p, c));
                        assert_eq!(scorers[c.index()].score(&b, p), policy_score(&b, p, c));
                    }
                }
            }
        }
    }
}
