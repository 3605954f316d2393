//! VCT: victory by continuous threats (fours and open threes), a depth-limited AND-OR search.
//!
//! The attacker's moves are the moves that make a four or an open three (for a renju black
//! attacker, only legal ones, and a three counts only if its straight-four point is legal). The
//! defender's replies are complete for soundness: against a four, its completion point; against
//! an open three, every defender four and every point that leaves the attacker no straight four
//! (found among the attacker's four points, which include every such point). The attacker wins a node when it has a
//! VCF, a five, or a move after which every reply loses. A defender four must be blocked, and the
//! line is continued only when the block is itself a threat. So a `true` is a proof; a `false`
//! may miss deeper or quieter wins. Results are cached by position and depth.

use smallvec::SmallVec;

use crate::core::{Color, Dir, Pos};
use crate::eval::{Threat, move_score};
use crate::pattern::PatternKind;
use crate::pattern::cell::ThreatSet;

use super::alphabeta::{NodeKind, Searcher};

/// Attacker fours and threes tried per VCT node (best by move ordering first).
pub(super) const VCT_BRANCHING: usize = 10;
/// The defender's replies to one threat.
type Replies = SmallVec<[Pos; 16]>;
/// Four-shape threats tried per VCT node after them.
const SHAPE_THREAT_BRANCHING: usize = 4;

impl Searcher<'_> {
    /// A VCT for the side to move within `depth` attacker moves and `max_nodes` nodes: the
    /// attacker's first move. The search's own limits are restored afterwards.
    pub(crate) fn vct_move(&mut self, depth: u32, max_nodes: u64) -> Option<Pos> {
        if self.params.vct_proof_number_moves > 0 {
            return self.vct_move_pn(self.params.vct_proof_number_moves, max_nodes);
        }
        let attacker = self.board.side_to_move();
        let saved = self.node_limit();
        self.set_node_limit(Some(
            saved.map_or(self.nodes + max_nodes, |m| m.min(self.nodes + max_nodes)),
        ));
        // Iterative deepening: short wins are found before the budget goes into deep lines.
        let mut first = None;
        let mut won = false;
        for d in 1..=depth {
            first = None;
            won = self.vct(attacker, d, &mut first, true);
            if won || self.aborted() {
                break;
            }
        }
        self.set_node_limit(saved);
        self.clear_abort_unless_stopped();
        if won { first } else { None }
    }

    fn vct(&mut self, attacker: Color, depth: u32, first: &mut Option<Pos>, root: bool) -> bool {
        if depth == 0 || self.count_node(NodeKind::Vct) {
            return false;
        }
        let key = self.board.hash() ^ 0x5654_4354; // apart from the VCF entries
        if let Some((d, won)) = self.vct_cache.get(key) {
            if !won && d >= depth {
                return false;
            }
            if won && !root {
                return true;
            }
        }
        let defender = attacker.opponent();
        if let Some(p) = self.board.threat_points(attacker, ThreatSet::Five).next() {
            first.get_or_insert(p);
            return true;
        }
        let their_five = self.board.threat_points(defender, ThreatSet::Five).next();
        if their_five.is_none() {
            // The VCF of the first move's position is searched in full (it gives the first
            // move); deeper, the local VCF, which finds the fours that the last threats made.
            if root {
                let mut line = Vec::new();
                if self.vcf_with_line(attacker, &mut line) {
                    if let Some(&p) = line.first() {
                        first.get_or_insert(p);
                    }
                    return true;
                }
            } else if self.vcf_local(attacker) {
                return true;
            }
        }
        // Candidate threats: fours and open-three makers, then four-shape threats, or the forced block of a defender four
        // when that block is itself a threat.
        let mut candidates: SmallVec<[(Pos, i32); 32]> = SmallVec::new();
        if let Some(block) = their_five {
            if self.board.threat_count(defender, ThreatSet::Five) > 1 {
                return false;
            }
            candidates.push((block, 0));
        } else {
            candidates = self.best_threat_points(attacker);
        }
        let mut won = false;
        for (m, _) in candidates {
            if self.vct_threat_wins(m, attacker, depth) {
                first.get_or_insert(m);
                won = true;
                break;
            }
        }
        // Then the quiet threats of a four shape, which need two more attacker moves (its
        // four, then the win).
        if !won
            && depth >= 2
            && self.params.vct_shape_threats
            && their_five.is_none()
            && !self.aborted()
        {
            for (m, _) in self.four_shape_threats(attacker) {
                if self.vct_threat_wins(m, attacker, depth) {
                    first.get_or_insert(m);
                    won = true;
                    break;
                }
            }
        }
        // A search cut short by the budget proved nothing.
        if won || !self.aborted() {
            self.vct_cache.insert(key, depth, won);
        }
        won
    }

    /// The attacker's four and open-three points with their move-ordering scores (which light
    /// moves keep up to date), the best [`VCT_BRANCHING`] first (ties in board order): the
    /// threats a VCT node tries before any quiet four-shape threat.
    pub(super) fn best_threat_points(&self, attacker: Color) -> SmallVec<[(Pos, i32); 32]> {
        let mut points: SmallVec<[Pos; 32]> = self
            .board
            .threat_points(attacker, ThreatSet::Four)
            .chain(self.board.threat_points(attacker, ThreatSet::Three))
            .collect();
        points.sort();
        points.dedup();
        let mut scored: SmallVec<[(Pos, i32); 32]> = points
            .into_iter()
            .map(|p| (p, move_score(&self.board, p, attacker)))
            .collect();
        scored.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.truncate(VCT_BRANCHING);
        scored
    }

    /// Whether the attacker's threat `m` wins within `depth` attacker moves: every defence
    /// loses.
    fn vct_threat_wins(&mut self, m: Pos, attacker: Color, depth: u32) -> bool {
        if !self.legal(m, attacker) {
            return false;
        }
        let defender = attacker.opponent();
        self.board.make_light_move(m, attacker);
        let result = match self.replies(m, attacker, defender) {
            None => false,
            Some(replies) => replies.into_iter().all(|r| {
                self.board.make_light_move(r, defender);
                let w = self.vct(attacker, depth - 1, &mut None, false);
                self.board.undo_light_move();
                w
            }),
        };
        self.board.undo_light_move();
        result
    }

    /// The attacker's quiet moves that make a four-shape point (two fours, or a four and an
    /// open three, at a legal point; see [`Searcher::four_shape_points`]) where none was: the
    /// new shape point already has a four or a three (on another line, or a four on the same
    /// line that the move turns into two), so the move lies within four cells of a four or
    /// three point, on a line where that point would make at least an open two. (A point with
    /// no threat yet, on a line of four single stones that the move turns into two fours, is
    /// left out.) The best [`SHAPE_THREAT_BRANCHING`] by move ordering, with their scores.
    pub(super) fn four_shape_threats(&mut self, attacker: Color) -> SmallVec<[(Pos, i32); 8]> {
        let mut out = self.four_shape_threat_moves(attacker);
        out.truncate(SHAPE_THREAT_BRANCHING);
        out
    }

    /// Every move of [`Searcher::four_shape_threats`], best first.
    pub(super) fn four_shape_threat_moves(&mut self, attacker: Color) -> SmallVec<[(Pos, i32); 8]> {
        let points: SmallVec<[Pos; 32]> = self.own_threat_points(attacker);
        // (move, new shape point) pairs found from the line tables, without making moves.
        let mut pairs: SmallVec<[(Pos, Pos); 16]> = SmallVec::new();
        for &q in &points {
            if self.is_four_shape(q, attacker) {
                continue; // already a shape: playing it is the VCF's business
            }
            let pats = self.board.patterns(q, attacker);
            for (i, d) in Dir::ALL.into_iter().enumerate() {
                if !matches!(
                    pats[i].kind(),
                    PatternKind::Flex2
                        | PatternKind::Block3
                        | PatternKind::Flex3
                        | PatternKind::Block4
                ) {
                    continue;
                }
                for k in (-4..=4isize).filter(|&k| k != 0) {
                    let m = q.shifted_index(d, k);
                    if self.board.cell_code(m) != crate::pattern::CELL_EMPTY {
                        continue;
                    }
                    let mut after = pats;
                    after[i] = self.board.pattern_with_stone(q, d, attacker, k);
                    let t = Threat::of(&after);
                    if t.fives == 0
                        && t.flex4 == 0
                        && (t.fours >= 2 || (t.fours >= 1 && t.flex3 >= 1))
                    {
                        pairs.push((Pos::from_index(m), q));
                    }
                }
            }
        }
        pairs.sort();
        pairs.dedup();
        let mut out: SmallVec<[(Pos, i32); 8]> = SmallVec::new();
        let mut i = 0;
        while i < pairs.len() {
            let m = pairs[i].0;
            let mut j = i;
            while j < pairs.len() && pairs[j].0 == m {
                j += 1;
            }
            // The move and the shape point must be legal, and the shape's blocks quiet
            // (checked with the move made).
            let makes_shape = !points.contains(&m) && self.legal(m, attacker) && {
                self.board.make_light_move(m, attacker);
                let ok = pairs[i..j]
                    .iter()
                    .any(|&(_, q)| self.blocks_are_quiet(q, attacker) && self.legal(q, attacker));
                self.board.undo_light_move();
                ok
            };
            if makes_shape {
                out.push((m, move_score(&self.board, m, attacker)));
            }
            i = j;
        }
        out.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }

    /// The defender's replies to the attacker's threat on `m`: `None` if `m` threatens nothing
    /// (or the defender has a five), an empty list if nothing defends, else every defence.
    pub(super) fn replies(&mut self, m: Pos, attacker: Color, defender: Color) -> Option<Replies> {
        if self.board.threat_count(defender, ThreatSet::Five) > 0 {
            return None; // the defender wins first
        }
        let completions = self.completions(m, attacker);
        match completions.len() {
            0 => {}
            1 => {
                let d = completions[0];
                return Some(if self.legal(d, defender) {
                    smallvec::smallvec![d]
                } else {
                    Replies::new()
                });
            }
            _ => return Some(Replies::new()),
        }
        if !self.has_open_three(attacker) {
            // A four-shape threat: the defender's fours and the points that leave no four shape.
            let shapes = self.four_shape_points(attacker);
            if shapes.is_empty() {
                return None;
            }
            let mut replies: SmallVec<[(Pos, i32); 16]> = self
                .four_shape_defences(defender, &shapes)
                .into_iter()
                .map(|(p, _)| (p, move_score(&self.board, p, defender)))
                .collect();
            replies.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            return Some(replies.into_iter().map(|(p, _)| p).collect());
        }
        let mut replies: Replies = self
            .board
            .threat_points(defender, ThreatSet::Four)
            .collect();
        replies.retain(|p| self.legal(*p, defender));
        for p in self.three_blocks(defender) {
            if !replies.contains(&p) {
                replies.push(p);
            }
        }
        replies.sort_by_key(|&p| -move_score(&self.board, p, defender));
        Some(replies)
    }
}
