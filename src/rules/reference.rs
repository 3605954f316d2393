//! A slow, obviously correct reference forbidden-point checker, written straight from SPEC §3.1
//! and §3.2. It shares no code with the fast path (no [`crate::board::Board`] internals, no line
//! patterns or pattern tables): it works on a plain grid of `Option<Color>`, walks lines cell by
//! cell, and re-derives fives, fours, straight fours and threes by placing stones and looking at
//! the runs they make. Tests compare the fast check against it, and a benchmark times it.
//!
//! The algorithm (for a stone of `color` on the empty point `p`):
//! 1. place the stone; if any direction's run through `p` wins (see [`is_win_len`]), the point is
//!    not forbidden (five first);
//! 2. renju black: a run of six or more through `p` is an overline;
//! 3. renju black: the fours through `p` are counted over the four directions as *distinct
//!    four-stone sets* (for each empty `q` within ±4 on the line, if the run through `q` wins and
//!    contains `p`, the set is that run minus `q`); two or more is a double four;
//! 4. renju black and korean (both colours): two or more directions with a real three is a double
//!    three. Direction `d` has a three when some empty `q` within ±4 on it, once filled, makes no
//!    winning run in any direction, makes a four-stone set along `d` that contains `p` and `q` and
//!    has two or more completion points (a straight four), and is not itself forbidden (checked
//!    recursively, with `p` still placed).
//!
//! The casual rules (SPEC §3.2) count windows instead: a direction has a three when a window of
//! four consecutive points containing `p` holds three own stones and one empty point and both
//! points just outside it are on the board and empty; it has a four when a window of five
//! consecutive points containing `p` holds four own stones and one empty point.
//!
//! There is no memo: every extension point is checked afresh. The recursion ends because every
//! level adds a stone to a finite board; [`ForbidOptions::depth_cap`] bounds it further.

use crate::core::{Color, Pos};
use crate::rule::Rule;
use crate::rules::forbidden::{ForbidOptions, ForbiddenKind};

/// The four line directions as unit steps `(dx, dy)`: horizontal, vertical, ↘, ↗.
const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A plain board for the reference checker: `width`×`height` cells, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    width: usize,
    height: usize,
    cells: Vec<Option<Color>>,
}

impl RefBoard {
    /// An empty board (each side at most 32, so that every point has a [`Pos`]).
    pub fn new(width: usize, height: usize) -> RefBoard {
        assert!(
            (1..=32).contains(&width) && (1..=32).contains(&height),
            "bad reference board size {width}x{height}"
        );
        RefBoard {
            width,
            height,
            cells: vec![None; width * height],
        }
    }

    /// A copy of the stones of a [`crate::board::Board`].
    pub fn from_board(board: &crate::board::Board) -> RefBoard {
        let mut r = RefBoard::new(board.width(), board.height());
        for p in board.positions() {
            r.set(p.x(), p.y(), board.get(p));
        }
        r
    }

    /// Board width (columns).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height (rows).
    pub fn height(&self) -> usize {
        self.height
    }

    /// Puts a stone on, or clears, `(x, y)`. Panics off the board.
    pub fn set(&mut self, x: usize, y: usize, stone: Option<Color>) {
        assert!(
            x < self.width && y < self.height,
            "({x},{y}) is off the board"
        );
        self.cells[y * self.width + x] = stone;
    }

    /// The stone on `(x, y)`; `None` for an empty point or a point off the board.
    pub fn get(&self, x: usize, y: usize) -> Option<Color> {
        if x < self.width && y < self.height {
            self.cells[y * self.width + x]
        } else {
            None
        }
    }

    /// Whether `(x, y)` (signed, so that walking off an edge is easy) is on the board.
    fn on_board(&self, x: isize, y: isize) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }

    /// The cell at signed `(x, y)`: `None` off the board, `Some(None)` empty, `Some(Some(c))` a
    /// stone.
    fn cell(&self, x: isize, y: isize) -> Option<Option<Color>> {
        if self.on_board(x, y) {
            Some(self.cells[y as usize * self.width + x as usize])
        } else {
            None
        }
    }

    fn is_empty_at(&self, x: isize, y: isize) -> bool {
        self.cell(x, y) == Some(None)
    }

    fn put(&mut self, x: isize, y: isize, stone: Option<Color>) {
        self.set(x as usize, y as usize, stone);
    }
}

/// Whether a run of `len` stones of `color` wins under `rule` (SPEC §3 table). `blocked_both_ends`
/// says that opponent stones lie just beyond both ends of the run (the board edge does not count);
/// only caro looks at it.
pub fn is_win_len(rule: Rule, color: Color, len: usize, blocked_both_ends: bool) -> bool {
    match rule {
        Rule::Freestyle | Rule::Casual | Rule::Casual44 | Rule::Casual3344 => len >= 5,
        Rule::Standard | Rule::Korean => len == 5,
        Rule::Renju => match color {
            Color::Black => len == 5,
            Color::White => len >= 5,
        },
        Rule::Caro => len == 5 && !blocked_both_ends,
    }
}

/// The run of `color` through the stone on `(x, y)` along `(dx, dy)`, as the signed offsets
/// `(first, last)` of its ends (so `first <= 0 <= last`).
fn run_through(
    b: &RefBoard,
    x: isize,
    y: isize,
    (dx, dy): (isize, isize),
    color: Color,
) -> (isize, isize) {
    let mut first = 0;
    while b.cell(x + (first - 1) * dx, y + (first - 1) * dy) == Some(Some(color)) {
        first -= 1;
    }
    let mut last = 0;
    while b.cell(x + (last + 1) * dx, y + (last + 1) * dy) == Some(Some(color)) {
        last += 1;
    }
    (first, last)
}

/// Whether the run of `color` through the stone on `(x, y)` along `dir` wins under `rule`.
fn run_wins(
    b: &RefBoard,
    x: isize,
    y: isize,
    dir: (isize, isize),
    color: Color,
    rule: Rule,
) -> bool {
    let (first, last) = run_through(b, x, y, dir, color);
    let (dx, dy) = dir;
    let opp = Some(Some(color.opponent()));
    let before = b.cell(x + (first - 1) * dx, y + (first - 1) * dy);
    let after = b.cell(x + (last + 1) * dx, y + (last + 1) * dy);
    let len = (last - first + 1) as usize;
    is_win_len(rule, color, len, before == opp && after == opp)
}

/// Whether the stone on `(x, y)` makes a winning run in any direction.
fn wins_anywhere(b: &RefBoard, x: isize, y: isize, color: Color, rule: Rule) -> bool {
    DIRECTIONS
        .iter()
        .any(|&d| run_wins(b, x, y, d, color, rule))
}

/// A four-stone set along one line through `p`: the stones' offsets from `p` (ascending) and the
/// offsets of the empty points that complete it to a win.
#[derive(Debug)]
struct FourSet {
    stones: Vec<isize>,
    completions: Vec<isize>,
}

/// The distinct four-stone sets through the stone on `(x, y)` along `dir` (SPEC §3.1): for every
/// empty point `q` within ±4, place it; if the run through `q` wins and contains `(x, y)`, the set
/// is that run minus `q`.
fn four_sets(
    b: &mut RefBoard,
    x: isize,
    y: isize,
    dir: (isize, isize),
    color: Color,
    rule: Rule,
) -> Vec<FourSet> {
    let (dx, dy) = dir;
    let mut sets: Vec<FourSet> = Vec::new();
    for k in -4..=4isize {
        let (qx, qy) = (x + k * dx, y + k * dy);
        if k == 0 || !b.is_empty_at(qx, qy) {
            continue;
        }
        b.put(qx, qy, Some(color));
        if run_wins(b, qx, qy, dir, color, rule) {
            // Offsets of the run relative to p = offsets relative to q shifted by k.
            let (first, last) = run_through(b, qx, qy, dir, color);
            let (first, last) = (first + k, last + k);
            if first <= 0 && 0 <= last {
                let stones: Vec<isize> = (first..=last).filter(|&o| o != k).collect();
                match sets.iter_mut().find(|s| s.stones == stones) {
                    Some(s) => s.completions.push(k),
                    None => sets.push(FourSet {
                        stones,
                        completions: vec![k],
                    }),
                }
            }
        }
        b.put(qx, qy, None);
    }
    sets
}

/// Whether the rule can forbid any point for `color`.
fn rule_forbids(rule: Rule, color: Color) -> bool {
    match rule {
        Rule::Renju => color == Color::Black,
        Rule::Korean | Rule::Casual | Rule::Casual44 | Rule::Casual3344 => true,
        Rule::Freestyle | Rule::Standard | Rule::Caro => false,
    }
}

/// Whether `(x, y)` is forbidden for `color` under `rule` (SPEC §3.1, §3.2), and why. Points that
/// are occupied or off the board are reported as not forbidden. The board is left as it was.
pub fn forbidden(
    board: &mut RefBoard,
    x: usize,
    y: usize,
    color: Color,
    rule: Rule,
    options: ForbidOptions,
) -> Option<ForbiddenKind> {
    if x >= board.width
        || y >= board.height
        || board.get(x, y).is_some()
        || !rule_forbids(rule, color)
    {
        return None;
    }
    forbidden_at(board, x as isize, y as isize, color, rule, options, 1)
}

/// Every forbidden point of `color` among the empty points, in board order (by y, then x).
pub fn forbidden_points(
    board: &mut RefBoard,
    color: Color,
    rule: Rule,
    options: ForbidOptions,
) -> Vec<(Pos, ForbiddenKind)> {
    let mut out = Vec::new();
    for y in 0..board.height {
        for x in 0..board.width {
            if let Some(kind) = forbidden(board, x, y, color, rule, options) {
                out.push((
                    Pos::new(x, y).expect("reference boards are at most 32 wide"),
                    kind,
                ));
            }
        }
    }
    out
}

/// The check of the empty point `(x, y)` at recursion `level` (the queried point is level 1).
fn forbidden_at(
    b: &mut RefBoard,
    x: isize,
    y: isize,
    color: Color,
    rule: Rule,
    options: ForbidOptions,
    level: u32,
) -> Option<ForbiddenKind> {
    b.put(x, y, Some(color));
    let result = forbidden_with_stone(b, x, y, color, rule, options, level);
    b.put(x, y, None);
    result
}

/// [`forbidden_at`] with the stone already on `(x, y)`.
fn forbidden_with_stone(
    b: &mut RefBoard,
    x: isize,
    y: isize,
    color: Color,
    rule: Rule,
    options: ForbidOptions,
    level: u32,
) -> Option<ForbiddenKind> {
    // (1) Five first.
    if wins_anywhere(b, x, y, color, rule) {
        return None;
    }
    match rule {
        Rule::Renju => {
            // (2) Overline: a run of six or more (it does not win, or step 1 would have returned).
            if DIRECTIONS.iter().any(|&d| {
                let (first, last) = run_through(b, x, y, d, color);
                last - first + 1 >= 6
            }) {
                return Some(ForbiddenKind::Overline);
            }
            // (3) Double four: distinct four-stone sets over all directions.
            let fours: usize = DIRECTIONS
                .iter()
                .map(|&d| four_sets(b, x, y, d, color, rule).len())
                .sum();
            if fours >= 2 {
                return Some(ForbiddenKind::DoubleFour);
            }
            // (4) Double three.
            double_three(b, x, y, color, rule, options, level).then_some(ForbiddenKind::DoubleThree)
        }
        Rule::Korean => {
            double_three(b, x, y, color, rule, options, level).then_some(ForbiddenKind::DoubleThree)
        }
        Rule::Casual | Rule::Casual44 | Rule::Casual3344 => {
            let threes = DIRECTIONS
                .iter()
                .filter(|&&d| casual_three(b, x, y, d, color))
                .count();
            let fours = DIRECTIONS
                .iter()
                .filter(|&&d| casual_four(b, x, y, d, color))
                .count();
            let check_33 = matches!(rule, Rule::Casual | Rule::Casual3344);
            let check_44 = matches!(rule, Rule::Casual44 | Rule::Casual3344);
            if check_33 && threes >= 2 {
                Some(ForbiddenKind::DoubleThree)
            } else if check_44 && fours >= 2 {
                Some(ForbiddenKind::DoubleFour)
            } else {
                None
            }
        }
        Rule::Freestyle | Rule::Standard | Rule::Caro => None,
    }
}

/// Whether the stone on `(x, y)` makes real threes in two or more directions.
fn double_three(
    b: &mut RefBoard,
    x: isize,
    y: isize,
    color: Color,
    rule: Rule,
    options: ForbidOptions,
    level: u32,
) -> bool {
    let mut threes = 0;
    for &d in &DIRECTIONS {
        if three_in_direction(b, x, y, d, color, rule, options, level) {
            threes += 1;
        }
    }
    threes >= 2
}

/// Whether the stone on `(x, y)` (at recursion `level`) makes a three along `dir`.
#[allow(clippy::too_many_arguments)]
fn three_in_direction(
    b: &mut RefBoard,
    x: isize,
    y: isize,
    dir: (isize, isize),
    color: Color,
    rule: Rule,
    options: ForbidOptions,
    level: u32,
) -> bool {
    let (dx, dy) = dir;
    for k in -4..=4isize {
        let (qx, qy) = (x + k * dx, y + k * dy);
        if k == 0 || !b.is_empty_at(qx, qy) {
            continue;
        }
        b.put(qx, qy, Some(color));
        // (a) q makes no winning run in any direction.
        let no_five = !wins_anywhere(b, qx, qy, color, rule);
        // (b) a straight four along dir containing p (offset 0) and q (offset k).
        let straight_four = no_five
            && four_sets(b, x, y, dir, color, rule)
                .iter()
                .any(|s| s.stones.contains(&k) && s.completions.len() >= 2);
        b.put(qx, qy, None);
        if !straight_four {
            continue;
        }
        // (c) q is not forbidden, checked with p still placed; beyond the depth cap it counts as
        // allowed.
        let q_level = level + 1;
        let beyond_cap = options.depth_cap.is_some_and(|cap| q_level > cap);
        if beyond_cap || forbidden_at(b, qx, qy, color, rule, options, q_level).is_none() {
            return true;
        }
    }
    false
}

/// SPEC §3.2 three: a window of 4 consecutive points containing `(x, y)` with 3 own stones and 1
/// empty point, whose two outside neighbours are on the board and empty.
fn casual_three(b: &RefBoard, x: isize, y: isize, (dx, dy): (isize, isize), color: Color) -> bool {
    (-3..=0isize).any(|s| {
        let window: Vec<Option<Option<Color>>> =
            (s..s + 4).map(|o| b.cell(x + o * dx, y + o * dy)).collect();
        let own = window.iter().filter(|&&c| c == Some(Some(color))).count();
        let empty = window.iter().filter(|&&c| c == Some(None)).count();
        own == 3
            && empty == 1
            && b.is_empty_at(x + (s - 1) * dx, y + (s - 1) * dy)
            && b.is_empty_at(x + (s + 4) * dx, y + (s + 4) * dy)
    })
}

/// SPEC §3.2 four: a window of 5 consecutive points containing `(x, y)` with 4 own stones and 1
/// empty point.
fn casual_four(b: &RefBoard, x: isize, y: isize, (dx, dy): (isize, isize), color: Color) -> bool {
    (-4..=0isize).any(|s| {
        let window: Vec<Option<Option<Color>>> =
            (s..s + 5).map(|o| b.cell(x + o * dx, y + o * dy)).collect();
        let own = window.iter().filter(|&&c| c == Some(Some(color))).count();
        let empty = window.iter().filter(|&&c| c == Some(None)).count();
        own == 4 && empty == 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: Color = Color::Black;
    const W: Color = Color::White;
    const EXACT: ForbidOptions = ForbidOptions { depth_cap: None };

    /// `(x, y)` of a renju-notation point on a 15×15 board: `a` is x 0 (`i` is used), row `r` is
    /// y `15 - r`.
    fn at(s: &str) -> (usize, usize) {
        let col = s.as_bytes()[0].to_ascii_lowercase() - b'a';
        let row: usize = s[1..].parse().unwrap();
        (col as usize, 15 - row)
    }

    fn board(black: &[&str], white: &[&str]) -> RefBoard {
        let mut b = RefBoard::new(15, 15);
        for s in black {
            let (x, y) = at(s);
            b.set(x, y, Some(B));
        }
        for s in white {
            let (x, y) = at(s);
            b.set(x, y, Some(W));
        }
        b
    }

    fn board_xy(black: &[(usize, usize)]) -> RefBoard {
        let mut b = RefBoard::new(15, 15);
        for &(x, y) in black {
            b.set(x, y, Some(B));
        }
        b
    }

    fn check(b: &mut RefBoard, point: &str, color: Color, rule: Rule) -> Option<ForbiddenKind> {
        let (x, y) = at(point);
        let before = b.clone();
        let r = forbidden(b, x, y, color, rule, EXACT);
        assert_eq!(*b, before, "the board is restored");
        r
    }

    #[test]
    fn notation_matches_the_spec() {
        assert_eq!(at("H8"), (7, 7));
        assert_eq!(at("F8"), (5, 7));
        assert_eq!(at("H10"), (7, 5));
        assert_eq!(at("J8"), (9, 7));
    }

    #[test]
    fn win_lengths_per_rule() {
        for c in [B, W] {
            assert!(is_win_len(Rule::Freestyle, c, 5, false));
            assert!(is_win_len(Rule::Freestyle, c, 7, true));
            assert!(!is_win_len(Rule::Freestyle, c, 4, false));
            assert!(is_win_len(Rule::Standard, c, 5, true));
            assert!(!is_win_len(Rule::Standard, c, 6, false));
            assert!(is_win_len(Rule::Korean, c, 5, false));
            assert!(!is_win_len(Rule::Korean, c, 6, false));
            for r in [Rule::Casual, Rule::Casual44, Rule::Casual3344] {
                assert!(is_win_len(r, c, 5, false) && is_win_len(r, c, 6, false));
                assert!(!is_win_len(r, c, 4, false));
            }
            assert!(is_win_len(Rule::Caro, c, 5, false));
            assert!(!is_win_len(Rule::Caro, c, 5, true));
            assert!(!is_win_len(Rule::Caro, c, 6, false));
        }
        assert!(is_win_len(Rule::Renju, B, 5, false));
        assert!(!is_win_len(Rule::Renju, B, 6, false));
        assert!(is_win_len(Rule::Renju, W, 6, false));
        assert!(is_win_len(Rule::Renju, W, 5, true));
    }

    #[test]
    fn caro_edge_does_not_block() {
        // A caro five against the edge with an opponent stone at the other end still wins.
        let mut b = RefBoard::new(15, 15);
        for x in 0..4 {
            b.set(x, 7, Some(B));
        }
        b.set(5, 7, Some(W));
        b.put(4, 7, Some(B));
        assert!(run_wins(&b, 4, 7, (1, 0), B, Rule::Caro));
        b.set(0, 7, None);
        b.set(5, 7, None);
        for x in 1..=5 {
            b.set(x, 7, Some(B));
        }
        b.set(0, 7, Some(W));
        b.set(6, 7, Some(W));
        assert!(!run_wins(&b, 3, 7, (1, 0), B, Rule::Caro));
        assert!(run_wins(&b, 3, 7, (1, 0), B, Rule::Freestyle));
    }

    #[test]
    fn example_a_double_three() {
        let mut b = board(&["F8", "G8", "H9", "H10"], &[]);
        assert_eq!(
            check(&mut b, "H8", B, Rule::Renju),
            Some(ForbiddenKind::DoubleThree)
        );
        assert_eq!(
            check(&mut b, "H8", B, Rule::Korean),
            Some(ForbiddenKind::DoubleThree)
        );
        assert_eq!(check(&mut b, "H8", B, Rule::Freestyle), None);
        assert_eq!(check(&mut b, "H8", W, Rule::Renju), None);
        // The casual window rule sees the same two open threes.
        assert_eq!(
            check(&mut b, "H8", B, Rule::Casual),
            Some(ForbiddenKind::DoubleThree)
        );
        assert_eq!(check(&mut b, "H8", B, Rule::Casual44), None);
    }

    #[test]
    fn example_a_for_white_in_korean() {
        let mut b = RefBoard::new(15, 15);
        for s in ["F8", "G8", "H9", "H10"] {
            let (x, y) = at(s);
            b.set(x, y, Some(W));
        }
        assert_eq!(
            check(&mut b, "H8", W, Rule::Korean),
            Some(ForbiddenKind::DoubleThree)
        );
        assert_eq!(check(&mut b, "H8", W, Rule::Renju), None);
    }

    #[test]
    fn example_b_one_line_double_four() {
        let mut b = board(&["D8", "F8", "H8", "J8"], &[]);
        assert_eq!(
            check(&mut b, "G8", B, Rule::Renju),
            Some(ForbiddenKind::DoubleFour)
        );
        assert_eq!(check(&mut b, "G8", B, Rule::Korean), None);
        // The casual 4-4 counts a direction once.
        assert_eq!(check(&mut b, "G8", B, Rule::Casual3344), None);
    }

    #[test]
    fn example_c_closed_three() {
        let mut b = board(&["F8", "G8", "H9", "H10"], &["E8"]);
        assert_eq!(check(&mut b, "H8", B, Rule::Renju), None);
        assert_eq!(check(&mut b, "H8", B, Rule::Korean), None);
    }

    #[test]
    fn example_d_overline_completions() {
        let mut b = board(&["C8", "F8", "G8", "K8", "H9", "H10"], &[]);
        assert_eq!(check(&mut b, "H8", B, Rule::Renju), None);
        assert_eq!(check(&mut b, "H8", B, Rule::Korean), None);
    }

    #[test]
    fn example_e_pseudo_three() {
        let mut b = board(&["E9", "E10", "F8", "G8", "F7", "H7", "G6", "H6"], &["J8"]);
        assert_eq!(check(&mut b, "H8", B, Rule::Renju), None);
        // The only extension of the horizontal three, E8, is itself a 3-3 once H8 is placed.
        let (hx, hy) = at("H8");
        let (ex, ey) = at("E8");
        b.set(hx, hy, Some(B));
        assert_eq!(
            forbidden(&mut b, ex, ey, B, Rule::Renju, EXACT),
            Some(ForbiddenKind::DoubleThree)
        );
        b.set(hx, hy, None);
        // A non-recursive check gets it wrong.
        let one = ForbidOptions { depth_cap: Some(1) };
        assert_eq!(
            forbidden(&mut b, hx, hy, B, Rule::Renju, one),
            Some(ForbiddenKind::DoubleThree)
        );
        let two = ForbidOptions { depth_cap: Some(2) };
        assert_eq!(forbidden(&mut b, hx, hy, B, Rule::Renju, two), None);
    }

    #[test]
    fn example_f_five_first() {
        // The vertical five through (7,7): (7,3)..(7,6).
        let five = [(7, 3), (7, 4), (7, 5), (7, 6)];
        let shapes: [(&[(usize, usize)], ForbiddenKind); 3] = [
            (
                &[(5, 7), (6, 7), (5, 5), (6, 6)],
                ForbiddenKind::DoubleThree,
            ),
            (
                &[(4, 7), (5, 7), (6, 7), (4, 4), (5, 5), (6, 6)],
                ForbiddenKind::DoubleFour,
            ),
            (
                &[(2, 7), (3, 7), (4, 7), (5, 7), (6, 7)],
                ForbiddenKind::Overline,
            ),
        ];
        for (shape, kind) in shapes {
            // Without the five the point is forbidden ...
            let mut b = board_xy(shape);
            assert_eq!(
                forbidden(&mut b, 7, 7, B, Rule::Renju, EXACT),
                Some(kind),
                "{kind}"
            );
            // ... with it, the move wins.
            let stones: Vec<_> = shape.iter().chain(five.iter()).copied().collect();
            let mut b = board_xy(&stones);
            assert_eq!(
                forbidden(&mut b, 7, 7, B, Rule::Renju, EXACT),
                None,
                "{kind} + five"
            );
            b.set(7, 7, Some(B));
            assert!(wins_anywhere(&b, 7, 7, B, Rule::Renju));
        }
    }

    #[test]
    fn korean_six_is_neither_a_win_nor_forbidden() {
        let mut b = board_xy(&[(2, 7), (3, 7), (4, 7), (5, 7), (6, 7)]);
        assert_eq!(forbidden(&mut b, 7, 7, B, Rule::Korean, EXACT), None);
        assert_eq!(
            forbidden(&mut b, 7, 7, B, Rule::Renju, EXACT),
            Some(ForbiddenKind::Overline)
        );
        b.set(7, 7, Some(B));
        assert!(!wins_anywhere(&b, 7, 7, B, Rule::Korean));
    }

    #[test]
    fn four_three_is_legal_and_casual_windows() {
        // 4-3: horizontal four, vertical open three.
        let mut b = board_xy(&[(4, 7), (5, 7), (6, 7), (7, 5), (7, 6)]);
        assert_eq!(forbidden(&mut b, 7, 7, B, Rule::Renju, EXACT), None);
        assert_eq!(forbidden(&mut b, 7, 7, B, Rule::Casual3344, EXACT), None);
        // Casual 4-4 in two directions, even with blocked fours.
        let mut b = board_xy(&[(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)]);
        b.set(3, 7, Some(W));
        assert_eq!(
            forbidden(&mut b, 7, 7, B, Rule::Casual44, EXACT),
            Some(ForbiddenKind::DoubleFour)
        );
        assert_eq!(forbidden(&mut b, 7, 7, B, Rule::Casual, EXACT), None);
        assert_eq!(
            forbidden(&mut b, 7, 7, B, Rule::Renju, EXACT),
            Some(ForbiddenKind::DoubleFour)
        );
        // A casual three touching the edge is not open.
        let mut b = board_xy(&[(1, 7), (2, 7), (3, 5), (3, 6)]);
        assert_eq!(
            forbidden(&mut b, 3, 7, B, Rule::Casual, EXACT),
            Some(ForbiddenKind::DoubleThree)
        );
        let mut b = board_xy(&[(0, 7), (1, 7), (2, 5), (2, 6)]);
        assert_eq!(forbidden(&mut b, 2, 7, B, Rule::Casual, EXACT), None);
    }

    #[test]
    fn forbidden_points_lists_in_board_order() {
        let mut b = board(&["F8", "G8", "H9", "H10"], &[]);
        let pts = forbidden_points(&mut b, B, Rule::Renju, EXACT);
        assert!(
            pts.contains(&(Pos::new(7, 7).unwrap(), ForbiddenKind::DoubleThree)),
            "{pts:?}"
        );
        let keys: Vec<_> = pts.iter().map(|(p, _)| (p.y(), p.x())).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(keys, sorted);
        assert!(forbidden_points(&mut b, W, Rule::Renju, EXACT).is_empty());
        assert!(forbidden_points(&mut b, B, Rule::Freestyle, EXACT).is_empty());
    }
}
