//! VCF: victory by continuous fours. The attacker plays only moves that make a four; the defender's
//! reply is forced (the completion point), unless it cannot be played (a renju black defender on a
//! forbidden point), in which case the four wins. A move that makes a straight four or two fours
//! wins. When the defender's forced reply makes a four of its own, the attacker's next move must
//! block it and is only continued if that block is itself a four. Results are cached by position.

use smallvec::SmallVec;

use crate::core::{Color, Dir, Pos};
use crate::pattern::PatternKind;
use crate::pattern::cell::ThreatSet;

use super::alphabeta::{Searcher, aligned_within};

/// Cache-key salts by attacker colour.
const VCF_ATTACKER_SALT: [u64; 2] = [0, 0x9E37_79B9_7F4A_7C15];
/// Cache-key salt of the local VCF: times 1 before the first four, times the previous attacking
/// stone's index plus 2 after it (the results depend on that stone).
const VCF_LOCAL_SALT: u64 = 0xC2B2_AE3D_27D4_EB4F;

/// The cache key of a VCF of `attacker` in the position of Zobrist hash `hash` (`local` as in
/// [`Searcher::vcf`]). Either side may be the attacker of a position (the opponent's threats are
/// searched too).
#[inline]
fn vcf_key(hash: u64, attacker: Color, local: Option<Option<Pos>>) -> u64 {
    hash ^ VCF_ATTACKER_SALT[attacker.index()]
        ^ local.map_or(0, |q| {
            VCF_LOCAL_SALT.wrapping_mul(q.map_or(1, |q| q.index() as u64 + 2))
        })
}

impl Searcher<'_> {
    /// Starts loading the cache slot of the horizon's VCF ([`Searcher::vcf_local`]) of
    /// `attacker` in the current position, so that the VCF, if one is searched, does not wait
    /// for memory.
    pub(super) fn prefetch_vcf_local(&self, attacker: Color) {
        self.vcf_cache
            .prefetch(vcf_key(self.board.hash(), attacker, Some(None)));
    }

    /// Whether the side to move (`attacker`) wins by continuous fours within the VCF depth.
    pub(super) fn vcf_root(&mut self, attacker: Color) -> bool {
        let depth = self.vcf_depth();
        self.vcf(attacker, depth, &mut Vec::new(), None)
    }

    /// The horizon's VCF: like [`Searcher::vcf_root`], but after the first four only the fours
    /// on the lines through the previous attacking stone (within four cells) are tried — the
    /// fours that stone made or changed. A four available before it could have been played
    /// before it, so little is lost, and the search stays small where the attacker has many
    /// unrelated fours.
    pub(super) fn vcf_local(&mut self, attacker: Color) -> bool {
        let depth = self.vcf_depth();
        self.vcf(attacker, depth, &mut Vec::new(), Some(None))
    }

    /// [`Searcher::vcf_local`] that returns the winning line (the attacker's and the
    /// defender's moves), or `None` without a win.
    pub(super) fn vcf_local_line(&mut self, attacker: Color) -> Option<Vec<Pos>> {
        let depth = self.vcf_depth();
        self.vcf_recorded(attacker, depth, Some(None))
    }

    /// [`Searcher::vcf_root`] that also returns the winning line (without the cache's shortcut
    /// for won positions).
    pub(super) fn vcf_with_line(&mut self, attacker: Color, line: &mut Vec<Pos>) -> bool {
        let depth = self.vcf_depth();
        self.vcf_recording = true;
        let won = self.vcf(attacker, depth, line, None);
        self.vcf_recording = false;
        won
    }

    /// Like [`Searcher::vcf_root`], recording the attacker's and defender's moves of the win.
    pub(crate) fn vcf_line(&mut self, attacker: Color, depth: u32) -> Option<Vec<Pos>> {
        self.vcf_recorded(attacker, depth, None)
    }

    /// The VCF search with its line recorded (`local` as in [`Searcher::vcf`]).
    fn vcf_recorded(
        &mut self,
        attacker: Color,
        depth: u32,
        local: Option<Option<Pos>>,
    ) -> Option<Vec<Pos>> {
        let mut line = Vec::new();
        self.vcf_recording = true;
        let won = self.vcf(attacker, depth, &mut line, local);
        self.vcf_recording = false;
        won.then_some(line)
    }

    /// `local`: `None` searches every four; `Some(previous)` only the fours near the previous
    /// attacking stone (every four at the first move, `Some(None)`).
    fn vcf(
        &mut self,
        attacker: Color,
        depth: u32,
        line: &mut Vec<Pos>,
        local: Option<Option<Pos>>,
    ) -> bool {
        // Without a four to make (or a five to complete) there is nothing to search.
        if depth == 0
            || (self.board.threat_count(attacker, ThreatSet::Four) == 0
                && self.board.threat_count(attacker, ThreatSet::Five) == 0)
            || self.count_node()
        {
            return false;
        }
        let key = vcf_key(self.board.hash(), attacker, local);
        if let Some((d, won)) = self.vcf_cache.get(key)
            && ((won && !self.vcf_recording) || (!won && d >= depth))
        {
            return won;
        }
        let defender = attacker.opponent();
        let board = &self.board;
        if let Some(p) = board.threat_points(attacker, ThreatSet::Five).next() {
            line.push(p);
            return true;
        }
        let candidates: SmallVec<[Pos; 16]> = {
            let fours = board.threat_points(attacker, ThreatSet::Four);
            if let Some(block) = board.threat_points(defender, ThreatSet::Five).next() {
                if board.threat_count(defender, ThreatSet::Five) > 1
                    || !board.in_threat_set(block, attacker, ThreatSet::Four)
                {
                    return false;
                }
                smallvec::smallvec![block]
            } else if let Some(Some(q)) = local {
                fours.filter(|&p| aligned_within(p, q, 4)).collect()
            } else {
                fours.collect()
            }
        };
        // Straight fours first: a legal one wins at once.
        for &m in &candidates {
            if self.board.in_threat_set(m, attacker, ThreatSet::Flex4) && self.legal(m, attacker) {
                line.push(m);
                self.vcf_cache.insert(key, depth, true);
                return true;
            }
        }
        let mut won = false;
        for m in candidates {
            if self.board.in_threat_set(m, attacker, ThreatSet::Flex4) || !self.legal(m, attacker) {
                continue;
            }
            self.board.make_light_move(m, attacker);
            // The attacker had no five point before `m`, so its five points now are the
            // completions of the four `m` made.
            let mut completions = self.board.threat_points(attacker, ThreatSet::Five);
            let result = match (completions.next(), completions.next()) {
                (None, _) => false,
                (Some(d), None) => {
                    if !self.legal(d, defender) {
                        line.extend([m, d]);
                        true
                    } else {
                        // The reply's cache slot is fetched while it is made.
                        self.vcf_cache.prefetch(vcf_key(
                            self.board.hash_after(d, defender),
                            attacker,
                            local.map(|_| Some(m)),
                        ));
                        self.board.make_light_move(d, defender);
                        let len = line.len();
                        line.extend([m, d]);
                        let r = self.vcf(attacker, depth - 1, line, local.map(|_| Some(m)));
                        if !r {
                            line.truncate(len);
                        }
                        self.board.undo_light_move();
                        r
                    }
                }
                (Some(_), Some(_)) => {
                    line.push(m);
                    true
                }
            };
            self.board.undo_light_move();
            if result {
                won = true;
                break;
            }
        }
        // A search cut short by the budget proved nothing.
        if won || !self.aborted() {
            self.vcf_cache.insert(key, depth, won);
        }
        won
    }

    /// The empty points where `color` completes a winning line through the stone on `m`.
    pub(super) fn completions(&self, m: Pos, color: Color) -> SmallVec<[Pos; 4]> {
        let mut out = SmallVec::new();
        for d in Dir::ALL {
            for k in -4..=4isize {
                let q = m.shifted_index(d, k);
                if k == 0 || self.board.cell_code(q) != crate::pattern::CELL_EMPTY {
                    continue;
                }
                let q = Pos::from_index(q);
                if self.board.pattern(q, d, color).kind() == PatternKind::Five && !out.contains(&q)
                {
                    out.push(q);
                }
            }
        }
        out
    }
}
