//! VCF: victory by continuous fours. The attacker plays only moves that make a four; the defender's
//! reply is forced (the completion point), unless it cannot be played (a renju black defender on a
//! forbidden point), in which case the four wins. A move that makes a straight four or two fours
//! wins. When the defender's forced reply makes a four of its own, the attacker's next move must
//! block it and is only continued if that block is itself a four. Results are cached by position.

use smallvec::SmallVec;

use crate::core::{Color, Dir, Pos};
use crate::pattern::PatternKind;
use crate::pattern::cell::ThreatSet;

use super::alphabeta::{NodeKind, Searcher, aligned_within};

/// Cache-key salts by attacker colour.
const VCF_ATTACKER_SALT: [u64; 2] = [0, 0x9E37_79B9_7F4A_7C15];
/// Cache-key salt of the local VCF: times 1 before the first four, times the previous attacking
/// stone's index plus 2 after it (the results depend on that stone).
const VCF_LOCAL_SALT: u64 = 0xC2B2_AE3D_27D4_EB4F;
/// Cache-key salt of a VCF limited to its best fours, times the limit (a narrow search's
/// failure proves nothing for a full one).
const VCF_WIDTH_SALT: u64 = 0x1656_67B1_9E37_79F9;

/// The cache key of a VCF of `attacker` in the position of Zobrist hash `hash` (`local` as in
/// [`Searcher::vcf`]). Either side may be the attacker of a position (the opponent's threats are
/// searched too); `width` as in [`Searcher::vcf`].
#[inline]
fn vcf_key(hash: u64, attacker: Color, local: Option<Option<Pos>>, width: usize) -> u64 {
    hash ^ VCF_ATTACKER_SALT[attacker.index()]
        ^ local.map_or(0, |q| {
            VCF_LOCAL_SALT.wrapping_mul(q.map_or(1, |q| q.index() as u64 + 2))
        })
        ^ if width == usize::MAX {
            0
        } else {
            VCF_WIDTH_SALT.wrapping_mul(width as u64 + 1)
        }
}

impl Searcher<'_> {
    /// Starts loading the cache slot of the horizon's VCF ([`Searcher::vcf_horizon`]) of
    /// `attacker` in the current position, so that the VCF, if one is searched, does not wait
    /// for memory.
    pub(super) fn prefetch_vcf_horizon(&self, attacker: Color) {
        self.vcf_cache.prefetch(vcf_key(
            self.board.hash(),
            attacker,
            Some(None),
            self.horizon_vcf_width(),
        ));
    }

    /// The number of fours the horizon's VCF tries at each move (`usize::MAX`: all).
    fn horizon_vcf_width(&self) -> usize {
        match self.params.horizon_vcf_width {
            0 => usize::MAX,
            w => w as usize,
        }
    }

    /// The horizon's VCF: [`Searcher::vcf_local`], or the full VCF where `horizon_vcf_local` is
    /// off, trying only the best `horizon_vcf_width` fours at each move.
    pub(super) fn vcf_horizon(&mut self, attacker: Color) -> bool {
        let depth = self.vcf_depth();
        let local = self.params.horizon_vcf_local.then_some(None);
        let width = self.horizon_vcf_width();
        self.vcf(attacker, depth, &mut Vec::new(), local, width)
    }

    /// Whether the side to move (`attacker`) wins by continuous fours within the VCF depth.
    #[cfg(test)]
    pub(super) fn vcf_root(&mut self, attacker: Color) -> bool {
        let depth = self.vcf_depth();
        self.vcf(attacker, depth, &mut Vec::new(), None, usize::MAX)
    }

    /// The local VCF (the horizon's, and the VCT's after its threats): like the full VCF
    /// ([`Searcher::vcf_with_line`]), but after the first four only the fours
    /// on the lines through the previous attacking stone (within four cells) are tried — the
    /// fours that stone made or changed. A four available before it could have been played
    /// before it, so little is lost, and the search stays small where the attacker has many
    /// unrelated fours.
    pub(super) fn vcf_local(&mut self, attacker: Color) -> bool {
        let depth = self.vcf_depth();
        self.vcf(attacker, depth, &mut Vec::new(), Some(None), usize::MAX)
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
        let won = self.vcf(attacker, depth, line, None, usize::MAX);
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
        let won = self.vcf(attacker, depth, &mut line, local, usize::MAX);
        self.vcf_recording = false;
        won.then_some(line)
    }

    /// `local`: `None` searches every four; `Some(previous)` only the fours near the previous
    /// attacking stone (every four at the first move, `Some(None)`). `width`: at most this
    /// many fours (besides a winning straight four) are tried at each move, those with the
    /// highest move-ordering score (`usize::MAX`: all).
    fn vcf(
        &mut self,
        attacker: Color,
        depth: u32,
        line: &mut Vec<Pos>,
        local: Option<Option<Pos>>,
        width: usize,
    ) -> bool {
        // Without a four to make (or a five to complete) there is nothing to search.
        if depth == 0
            || (self.board.threat_count(attacker, ThreatSet::Four) == 0
                && self.board.threat_count(attacker, ThreatSet::Five) == 0)
            || self.count_node(NodeKind::Vcf)
        {
            return false;
        }
        let key = vcf_key(self.board.hash(), attacker, local, width);
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
        let mut candidates: SmallVec<[Pos; 16]> = {
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
        if candidates.len() > width {
            // The fours that build the most (ordering scores, which light moves keep), ties in
            // board order.
            let board = &self.board;
            candidates.sort_by_key(|&p| std::cmp::Reverse(board.summary(p, attacker).attack()));
            candidates.truncate(width);
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
                            width,
                        ));
                        self.board.make_light_move(d, defender);
                        let len = line.len();
                        line.extend([m, d]);
                        let r = self.vcf(attacker, depth - 1, line, local.map(|_| Some(m)), width);
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
