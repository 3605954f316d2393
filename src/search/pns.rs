//! VCT by depth-first proof-number search (df-pn): the same threats and replies as the
//! depth-first VCT ([`super::vct`]), searched best-first. Every position of the AND-OR graph
//! has a proof number (how many leaves at least must still be proved for the attacker to win
//! there) and a disproof number (how many for the defender to hold). The search goes down to a
//! most-proving leaf (at an attacker node the threat with the smallest proof number, at a
//! defender node the reply with the smallest disproof number) and stays below a node until its
//! numbers pass thresholds set from its siblings', so a threat that leaves a single reply costs
//! almost nothing: long forcing lines are followed far deeper than a depth-first search with the
//! same nodes reaches, while broad defences wait until the narrow ones are exhausted.
//!
//! A new defender node starts with one proof per reply and one disproof, a new attacker node
//! with one proof and one disproof per threat it has. Below a node, the best child's threshold
//! is a quarter above the second best child's number (not just one above), so that the search
//! does not swing back and forth between two children of nearly equal numbers.
//!
//! The numbers live in a table of the searcher's keyed by position (threat sequences transpose
//! a lot), stamped with the call so that a new call starts afresh. A threat sequence only adds
//! stones, so the graph has no cycles. The search stops at the node budget or where a line
//! reaches its attacker-move limit. Its wins are proofs like the depth-first VCT's (the replies
//! are complete); a failure proves nothing.

use smallvec::SmallVec;

use crate::core::{Color, Pos};
use crate::pattern::cell::ThreatSet;

use super::alphabeta::{NodeKind, Searcher};
use super::vct::VCT_BRANCHING;

/// A proof or disproof number that can no longer be reached.
const INFINITE: u32 = u32::MAX / 4;
/// Entries of the proof-number table.
const TABLE_ENTRIES: usize = 1 << 18;
/// Key salt of the proof-number entries by attacker colour.
const PN_ATTACKER_SALT: [u64; 2] = [0x2545_F491_4F6C_DD1D, 0x9E6C_63D0_676A_9A99];

/// One entry of the proof-number table.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PnEntry {
    /// The position's key mixed with the stamp of the call that wrote it.
    key: u64,
    proof: u32,
    disproof: u32,
}

/// Bytes of one thread's proof-number table, allocated at its first proof-number VCT.
pub const PN_TABLE_BYTES: usize = TABLE_ENTRIES * std::mem::size_of::<PnEntry>();

/// A child's move and its numbers.
#[derive(Clone, Copy, Debug)]
struct Child {
    mv: Pos,
    key: u64,
    proof: u32,
    disproof: u32,
}

/// Numbers added, saturating at [`INFINITE`].
fn add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(INFINITE)
}

impl Searcher<'_> {
    /// A VCT of the side to move within `max_moves` attacker moves a line and `max_nodes`
    /// nodes, by df-pn: the attacker's first move. The search's own limits are restored
    /// afterwards.
    pub(crate) fn vct_move_pn(&mut self, max_moves: u32, max_nodes: u64) -> Option<Pos> {
        let attacker = self.board.side_to_move();
        let saved = self.node_limit();
        self.set_node_limit(Some(
            saved.map_or(self.nodes + max_nodes, |m| m.min(self.nodes + max_nodes)),
        ));
        if self.pn_table.is_empty() {
            self.pn_table = vec![PnEntry::default(); TABLE_ENTRIES];
        }
        self.pn_stamp = self.pn_stamp.wrapping_add(1);
        let last_ply = self.board.history().len() + 2 * max_moves as usize;
        let mut first = None;
        let won = if let Some(p) = self.pn_root_win(attacker) {
            first = Some(p);
            true
        } else {
            self.pn_node(attacker, None, last_ply, INFINITE, INFINITE);
            let key = self.pn_key(self.board.hash(), attacker);
            let won = self.pn_lookup(key).is_some_and(|(pn, _)| pn == 0);
            if won {
                // The threat whose defender node is proved.
                first = self
                    .pn_threat_children(attacker)
                    .and_then(|kids| kids.into_iter().find(|c| c.proof == 0))
                    .map(|c| c.mv);
            }
            won && first.is_some()
        };
        self.set_node_limit(saved);
        self.clear_abort_unless_stopped();
        if won { first } else { None }
    }

    /// A win at the root that needs no search: a five, or a VCF (with its first move).
    fn pn_root_win(&mut self, attacker: Color) -> Option<Pos> {
        if let Some(p) = self.board.threat_points(attacker, ThreatSet::Five).next() {
            return Some(p);
        }
        if self
            .board
            .threat_points(attacker.opponent(), ThreatSet::Five)
            .next()
            .is_none()
        {
            let mut line = Vec::new();
            if self.vcf_with_line(attacker, &mut line) {
                return line.first().copied();
            }
        }
        None
    }

    /// Whether the attacker (to move) has a five or, with no five of the defender's to block,
    /// a local VCF.
    fn pn_wins_at_once(&mut self, attacker: Color) -> bool {
        self.board.threat_count(attacker, ThreatSet::Five) > 0
            || (self
                .board
                .threat_count(attacker.opponent(), ThreatSet::Five)
                == 0
                && self.vcf_local(attacker))
    }

    fn pn_key(&self, hash: u64, attacker: Color) -> u64 {
        (hash ^ PN_ATTACKER_SALT[attacker.index()]) | 1
    }

    /// The key an entry of the current call stores for the position key `key` (an entry of
    /// an earlier call does not match it).
    fn pn_stamped(&self, key: u64) -> u64 {
        key ^ (self.pn_stamp as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
    }

    fn pn_lookup(&self, key: u64) -> Option<(u32, u32)> {
        let e = self.pn_table[key as usize & (TABLE_ENTRIES - 1)];
        (e.key == self.pn_stamped(key)).then_some((e.proof, e.disproof))
    }

    fn pn_store(&mut self, key: u64, proof: u32, disproof: u32) {
        let stamped = self.pn_stamped(key);
        self.pn_table[key as usize & (TABLE_ENTRIES - 1)] = PnEntry {
            key: stamped,
            proof,
            disproof,
        };
    }

    /// The node of the board's position: an attacker node (the attacker to move) where
    /// `threat` is `None`, else the defender node after the attacker's threat `threat`.
    /// Searched until its proof number reaches `th_proof` or its disproof number
    /// `th_disproof`, or it is decided.
    fn pn_node(
        &mut self,
        attacker: Color,
        threat: Option<Pos>,
        last_ply: usize,
        th_proof: u32,
        th_disproof: u32,
    ) {
        let key = self.pn_key(self.board.hash(), attacker);
        if self.count_node(NodeKind::Vct) {
            return;
        }
        let known = self.pn_lookup(key);
        if let Some((p, d)) = known
            && (p >= th_proof || d >= th_disproof)
        {
            return;
        }
        let or = threat.is_none();
        let kids = match threat {
            // Decided here: a five, a VCF (a node in the table was checked when it was first
            // reached), the line's limit, or no threat.
            None if known.is_none() && self.pn_wins_at_once(attacker) => Err(true),
            None if self.board.history().len() >= last_ply => Err(false),
            None => self.pn_threat_children(attacker).ok_or(false),
            Some(m) => self.pn_reply_children(attacker, m),
        };
        let mut kids = match kids {
            Ok(kids) => kids,
            Err(true) => return self.pn_store(key, 0, INFINITE),
            Err(false) => return self.pn_store(key, INFINITE, 0),
        };
        let mover = if or { attacker } else { attacker.opponent() };
        loop {
            // At an attacker node the smallest proof number and the sum of the disproof
            // numbers, at a defender node the other way round.
            let (mut proof, mut disproof) = if or { (INFINITE, 0) } else { (0, INFINITE) };
            let (mut best, mut second) = (0, INFINITE);
            for (i, c) in kids.iter().enumerate() {
                let (own, other) = if or {
                    (c.proof, c.disproof)
                } else {
                    (c.disproof, c.proof)
                };
                let (least, sum) = if or {
                    (&mut proof, &mut disproof)
                } else {
                    (&mut disproof, &mut proof)
                };
                *sum = add(*sum, other);
                if own < *least {
                    second = *least;
                    *least = own;
                    best = i;
                } else if own < second {
                    second = own;
                }
            }
            self.pn_store(key, proof, disproof);
            if proof >= th_proof || disproof >= th_disproof || self.aborted() {
                return;
            }
            // The best child's threshold on the number it was chosen by lies a quarter above
            // the runner-up's; on the other number it gets what the node has left.
            let c = kids[best];
            let widened = add(second, second / 4 + 1);
            let (child_th_proof, child_th_disproof) = if or {
                (
                    th_proof.min(widened),
                    add(th_disproof - disproof, c.disproof),
                )
            } else {
                (add(th_proof - proof, c.proof), th_disproof.min(widened))
            };
            self.board.make_light_move(c.mv, mover);
            let child_threat = or.then_some(c.mv);
            self.pn_node(
                attacker,
                child_threat,
                last_ply,
                child_th_proof,
                child_th_disproof,
            );
            self.board.undo_light_move();
            let (p, d) = self.pn_lookup(c.key).unwrap_or((c.proof, c.disproof));
            kids[best].proof = p;
            kids[best].disproof = d;
        }
    }

    /// The defender's replies to the attacker's threat `m` (just played) with their attacker
    /// nodes' numbers (from the table, else one proof and one disproof per threat the attacker
    /// has after the reply); `Err(true)` when nothing defends, `Err(false)` when `m`
    /// threatens nothing.
    fn pn_reply_children(
        &mut self,
        attacker: Color,
        m: Pos,
    ) -> Result<SmallVec<[Child; 16]>, bool> {
        let defender = attacker.opponent();
        let replies = match self.replies(m, attacker, defender) {
            None => return Err(false),
            Some(r) if r.is_empty() => return Err(true),
            Some(r) => r,
        };
        Ok(replies
            .into_iter()
            .map(|r| {
                let key = self.pn_key(self.board.hash_after(r, defender), attacker);
                let (proof, disproof) = self.pn_lookup(key).unwrap_or_else(|| {
                    self.board.make_light_move(r, defender);
                    let threats = self.board.threat_count(attacker, ThreatSet::Four)
                        + self.board.threat_count(attacker, ThreatSet::Three);
                    self.board.undo_light_move();
                    (1, (threats as u32).clamp(1, VCT_BRANCHING as u32))
                });
                Child {
                    mv: r,
                    key,
                    proof,
                    disproof,
                }
            })
            .collect())
    }

    /// The attacker's threats in the board's position with their defender nodes' numbers (from
    /// the table, else one proof per reply and one disproof; a threat that leaves no defence
    /// is proved); `None` when no move threatens.
    fn pn_threat_children(&mut self, attacker: Color) -> Option<SmallVec<[Child; 16]>> {
        let defender = attacker.opponent();
        let their_five = self.board.threat_points(defender, ThreatSet::Five).next();
        let mut kids: SmallVec<[Child; 16]> = SmallVec::new();
        for m in self.pn_threats(attacker, their_five) {
            if !self.legal(m, attacker) {
                continue;
            }
            let key = self.pn_key(self.board.hash_after(m, attacker), attacker);
            let (proof, disproof) = match self.pn_lookup(key) {
                Some(numbers) => numbers,
                None => {
                    self.board.make_light_move(m, attacker);
                    let replies = self.replies(m, attacker, defender);
                    self.board.undo_light_move();
                    match replies {
                        None => continue,
                        Some(r) if r.is_empty() => (0, INFINITE),
                        Some(r) => (r.len() as u32, 1),
                    }
                }
            };
            kids.push(Child {
                mv: m,
                key,
                proof,
                disproof,
            });
        }
        (!kids.is_empty()).then_some(kids)
    }

    /// The attacker's threats at an attacker node: the forced block of a defender four (tried
    /// only if it threatens in turn), else its four and open-three points, best by move
    /// ordering first, then (with [`crate::params::SearchParams::vct_shape_threats`]) its quiet
    /// four-shape threats.
    fn pn_threats(&mut self, attacker: Color, their_five: Option<Pos>) -> SmallVec<[Pos; 16]> {
        let defender = attacker.opponent();
        if let Some(block) = their_five {
            if self.board.threat_count(defender, ThreatSet::Five) > 1 {
                return SmallVec::new();
            }
            return smallvec::smallvec![block];
        }
        let mut out: SmallVec<[Pos; 16]> = self
            .best_threat_points(attacker)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        if self.params.vct_shape_threats {
            for (m, _) in self.four_shape_threats(attacker) {
                if !out.contains(&m) {
                    out.push(m);
                }
            }
        }
        out
    }
}
