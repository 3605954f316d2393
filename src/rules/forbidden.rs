//! Exact forbidden points (SPEC §3.1, §3.2) from the board's incremental line patterns.
//!
//! Order: a stone that makes a winning line is never forbidden; then overline, then double four,
//! then double three (renju); korean forbids only double threes, for both colours; the casual
//! rules count window threes and fours (reporting a double three before a double four).
//!
//! Overlines and fours are read straight from the patterns. A double-three *candidate* (two or more
//! directions whose line-local analysis shows a three) needs the recursive rule: place the stone,
//! and for each such direction look for an extension point `q` that makes a straight four, makes no
//! five in any direction and is not itself forbidden (checked recursively with the stone placed).
//! The recursion adds a stone per level, so it ends; results are memoised per query by the exact set
//! of stones the recursion has added and the point. [`ForbidOptions::depth_cap`] bounds the levels
//! that are evaluated; beyond it an extension point is taken as allowed (seed 001's site, cap 8).

use smallvec::SmallVec;

use crate::board::Board;
use crate::core::{Color, Dir, Pos};
use crate::pattern::{LinePattern, PatternKind, analysis::CENTRE};
use crate::rule::Rule;

/// The shape that makes a point forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ForbiddenKind {
    /// Six or more in a row (renju black).
    Overline,
    /// Two or more fours, possibly on one line.
    DoubleFour,
    /// Two or more threes.
    DoubleThree,
}

impl ForbiddenKind {
    /// The reason string used in JSON output: `overline`, `double-four`, `double-three`.
    pub const fn name(self) -> &'static str {
        match self {
            ForbiddenKind::Overline => "overline",
            ForbiddenKind::DoubleFour => "double-four",
            ForbiddenKind::DoubleThree => "double-three",
        }
    }
}

impl std::fmt::Display for ForbiddenKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Options of the forbidden check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ForbidOptions {
    /// `None` (the default): exact, unbounded recursion. `Some(n)`: evaluate at most `n` levels
    /// (the queried point is level 1); extension points deeper than that count as allowed, so
    /// `Some(1)` is the non-recursive check and `Some(8)` is seed 001's site.
    pub depth_cap: Option<u32>,
}

struct MemoEntry {
    added: SmallVec<[Pos; 8]>,
    point: Pos,
    forbidden: bool,
}

/// A reusable forbidden-point checker (keeps its memo allocation between queries).
#[derive(Default)]
pub struct ForbidChecker {
    options: ForbidOptions,
    memo: Vec<MemoEntry>,
    added: SmallVec<[Pos; 8]>,
}

/// Whether `p` is forbidden for `color` on `board`, exactly (unbounded recursion). `p` must be an
/// empty point of the board; occupied points and points off the board are reported as not
/// forbidden (use [`crate::rules::check_move`] to validate a move).
pub fn forbidden(board: &mut Board, p: Pos, color: Color) -> Option<ForbiddenKind> {
    ForbidChecker::default().check(board, p, color)
}

/// Every forbidden point of `color`, in board order (by y, then x), exactly.
pub fn forbidden_points(board: &mut Board, color: Color) -> Vec<(Pos, ForbiddenKind)> {
    ForbidChecker::default().all(board, color)
}

impl ForbidChecker {
    /// A checker with the given options.
    pub fn new(options: ForbidOptions) -> ForbidChecker {
        ForbidChecker {
            options,
            ..ForbidChecker::default()
        }
    }

    /// The options.
    pub fn options(&self) -> ForbidOptions {
        self.options
    }

    /// Whether `p` is forbidden for `color`; the board is left as it was.
    pub fn check(&mut self, board: &mut Board, p: Pos, color: Color) -> Option<ForbiddenKind> {
        if !board.contains(p) || !board.is_empty(p) || !board.rule().has_forbidden(color) {
            return None;
        }
        self.memo.clear();
        self.check_at(board, p, color)
    }

    /// Every forbidden point of `color`, in board order; the board is left as it was.
    pub fn all(&mut self, board: &mut Board, color: Color) -> Vec<(Pos, ForbiddenKind)> {
        let mut out = Vec::new();
        if !board.rule().has_forbidden(color) {
            return out;
        }
        self.memo.clear();
        for p in board.positions() {
            if board.is_empty(p)
                && let Some(kind) = self.check_at(board, p, color)
            {
                out.push((p, kind));
            }
        }
        out
    }

    /// The check of an empty point at the current recursion level (`self.added.len()`).
    fn check_at(&mut self, board: &mut Board, p: Pos, color: Color) -> Option<ForbiddenKind> {
        let pats = board.patterns(p, color);
        if pats.iter().any(|x| x.kind() == PatternKind::Five) {
            return None;
        }
        match board.rule() {
            Rule::Renju => {
                if pats.iter().any(|x| x.kind() == PatternKind::Overline) {
                    Some(ForbiddenKind::Overline)
                } else if pats.iter().map(|x| x.four_count()).sum::<u8>() >= 2 {
                    Some(ForbiddenKind::DoubleFour)
                } else {
                    self.double_three(board, p, color, pats)
                        .then_some(ForbiddenKind::DoubleThree)
                }
            }
            Rule::Korean => self
                .double_three(board, p, color, pats)
                .then_some(ForbiddenKind::DoubleThree),
            rule @ (Rule::Casual | Rule::Casual44 | Rule::Casual3344) => {
                let threes = pats.iter().filter(|x| x.casual_three()).count();
                let fours = pats.iter().filter(|x| x.casual_four()).count();
                if rule != Rule::Casual44 && threes >= 2 {
                    Some(ForbiddenKind::DoubleThree)
                } else if rule != Rule::Casual && fours >= 2 {
                    Some(ForbiddenKind::DoubleFour)
                } else {
                    None
                }
            }
            Rule::Freestyle | Rule::Standard | Rule::Caro => None,
        }
    }

    /// Whether a stone of `color` on `p` makes two or more real threes.
    fn double_three(
        &mut self,
        board: &mut Board,
        p: Pos,
        color: Color,
        pats: [LinePattern; 4],
    ) -> bool {
        let candidates: SmallVec<[Dir; 4]> = Dir::ALL
            .into_iter()
            .filter(|d| pats[d.index()].is_three_candidate())
            .collect();
        if candidates.len() < 2 {
            return false;
        }
        let win_rule = board.rule().win_rule(color);
        let level = self.added.len() as u32 + 1;
        let check_extensions = self.options.depth_cap.is_none_or(|cap| level < cap);
        board.make_light_move(p, color);
        let at = self.added.partition_point(|&a| a < p);
        self.added.insert(at, p);
        let mut real = 0;
        for (i, &d) in candidates.iter().enumerate() {
            if real + (candidates.len() - i) < 2 {
                break;
            }
            let mask = board.line(p, d, color).three_extensions(win_rule);
            let is_real = (0..16).filter(|b| mask & (1 << b) != 0).any(|b| {
                let q = Pos::from_index(p.shifted_index(d, b as isize - CENTRE as isize));
                !board
                    .patterns(q, color)
                    .iter()
                    .any(|x| x.kind() == PatternKind::Five)
                    && (!check_extensions || !self.forbidden_memo(board, q, color))
            });
            if is_real {
                real += 1;
                if real >= 2 {
                    break;
                }
            }
        }
        self.added.remove(at);
        board.undo_light_move();
        real >= 2
    }

    fn forbidden_memo(&mut self, board: &mut Board, q: Pos, color: Color) -> bool {
        if let Some(e) = self
            .memo
            .iter()
            .find(|e| e.point == q && e.added == self.added)
        {
            return e.forbidden;
        }
        let forbidden = self.check_at(board, q, color).is_some();
        self.memo.push(MemoEntry {
            added: self.added.clone(),
            point: q,
            forbidden,
        });
        forbidden
    }
}
