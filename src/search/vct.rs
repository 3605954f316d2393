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

use crate::core::{Color, Pos};
use crate::eval::reference_move_score;
use crate::pattern::cell::ThreatSet;

use super::alphabeta::Searcher;
use super::threats::scan;

/// Attacker moves tried per VCT node (best by move ordering first).
const VCT_BRANCHING: usize = 10;

impl Searcher<'_> {
    /// A VCT for the side to move within `depth` attacker moves and `max_nodes` nodes: the
    /// attacker's first move. The search's own limits are restored afterwards.
    pub(crate) fn vct_move(&mut self, depth: u32, max_nodes: u64) -> Option<Pos> {
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
        if depth == 0 || self.count_node() {
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
        let s = scan(&self.board, attacker, 100);
        if let Some(&p) = s.us.fives.first() {
            first.get_or_insert(p);
            return true;
        }
        if s.them.fives.is_empty() {
            let mut line = Vec::new();
            if self.vcf_with_line(attacker, &mut line) {
                if let Some(&p) = line.first() {
                    first.get_or_insert(p);
                }
                return true;
            }
        }
        // Candidate threats: fours and open-three makers, or the forced block of a defender four
        // when that block is itself a threat.
        let mut candidates: Vec<(Pos, i32)> = Vec::new();
        if !s.them.fives.is_empty() {
            let block = s.them.fives[0];
            if s.them.fives.iter().any(|&p| p != block) {
                return false;
            }
            candidates.push((block, 0));
        } else {
            // Four and open-three points, in board order, scored from the patterns (the
            // summaries' weights are not kept up to date under light moves).
            let mut points: SmallVec<[Pos; 32]> = self
                .board
                .threat_points(attacker, ThreatSet::Four)
                .chain(self.board.threat_points(attacker, ThreatSet::Three))
                .collect();
            points.sort();
            points.dedup();
            for p in points {
                candidates.push((p, reference_move_score(&self.board, p, attacker)));
            }
            candidates.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            candidates.truncate(VCT_BRANCHING);
        }
        let mut won = false;
        for (m, _) in candidates {
            if !self.legal(m, attacker) {
                continue;
            }
            self.board.make_light_move(m, attacker);
            let replies = self.replies(m, attacker, defender);
            let result = match replies {
                None => false,
                Some(replies) if replies.is_empty() => true,
                Some(replies) => {
                    let mut all = true;
                    for r in replies {
                        self.board.make_light_move(r, defender);
                        let w = self.vct(attacker, depth - 1, &mut None, false);
                        self.board.undo_light_move();
                        if !w {
                            all = false;
                            break;
                        }
                    }
                    all
                }
            };
            self.board.undo_light_move();
            if result {
                first.get_or_insert(m);
                won = true;
                break;
            }
        }
        self.vct_cache.insert(key, depth, won);
        won
    }

    /// The defender's replies to the attacker's threat on `m`: `None` if `m` threatens nothing
    /// (or the defender has a five), an empty list if nothing defends, else every defence.
    fn replies(&mut self, m: Pos, attacker: Color, defender: Color) -> Option<Vec<Pos>> {
        let s = scan(&self.board, defender, 100);
        if !s.us.fives.is_empty() {
            return None; // the defender wins first
        }
        let completions = self.completions(m, attacker);
        match completions.len() {
            0 => {}
            1 => {
                let d = completions[0];
                return Some(if self.legal(d, defender) {
                    vec![d]
                } else {
                    Vec::new()
                });
            }
            _ => return Some(Vec::new()),
        }
        if !self.has_open_three(attacker) {
            return None;
        }
        let mut replies: Vec<Pos> = s.us.fours.to_vec();
        replies.retain(|&p| self.legal(p, defender));
        for p in self.three_blocks(defender) {
            if !replies.contains(&p) {
                replies.push(p);
            }
        }
        replies.sort_by_key(|&p| -reference_move_score(&self.board, p, defender));
        Some(replies)
    }
}
