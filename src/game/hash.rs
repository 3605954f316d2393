//! The state hash: a stable 64-bit FNV-1a hash over a canonical byte encoding of everything that
//! decides the game's future — options, seed, players, board and record, turn, phase, clocks,
//! streaks, undo and draw bookkeeping, the opening's state (rule, swaps, pending step, steps left,
//! declared number, offers), the result, and the RNG state.
//!
//! Stable means: the same on every run, platform and build (no `std` `RandomState`, integers
//! little-endian, strings length-prefixed, options as their serde JSON in declaration order). The
//! RNG state enters as the next four outputs of a clone of the RNG, a function of its state that
//! needs no access to its internals. Replaying the same seed and action log gives the same hash
//! (`tests/referee.rs`); a rejected action leaves it unchanged.

use rand_core::RngCore;

use super::state::Game;
use crate::core::{Color, Pos};

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// A 64-bit FNV-1a hasher with typed writes.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a(FNV_OFFSET)
    }
}

impl Fnv1a {
    /// Feeds bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }

    /// Feeds a `u64`, little-endian.
    pub fn u64(&mut self, v: u64) {
        self.write(&v.to_le_bytes());
    }

    /// Feeds a length-prefixed string.
    pub fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.write(s.as_bytes());
    }

    /// Feeds an optional `u64` (a tag byte, then the value).
    pub fn opt(&mut self, v: Option<u64>) {
        match v {
            None => self.write(&[0]),
            Some(v) => {
                self.write(&[1]);
                self.u64(v);
            }
        }
    }

    fn pos(&mut self, p: Pos) {
        self.u64(p.x() as u64);
        self.u64(p.y() as u64);
    }

    fn color(&mut self, c: Option<Color>) {
        self.write(&[match c {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        }]);
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Game {
    /// The stable hash of the whole state (see the module doc).
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv1a::default();
        h.str("omok-game/1");
        h.str(&serde_json::to_string(&self.options).unwrap_or_default());
        h.str(self.rule.name());
        h.u64(self.seed);
        h.str(&self.players.black);
        h.str(&self.players.white);
        h.u64(self.board.width() as u64);
        for p in self.board.positions() {
            h.color(self.board.get(p));
        }
        h.u64(self.moves.len() as u64);
        for m in &self.moves {
            h.color(Some(m.color));
            h.pos(m.pt);
            h.u64(m.at);
            h.write(&[u8::from(m.auto)]);
        }
        h.color(Some(self.turn));
        h.write(&[u8::from(self.result.is_some())]);
        for c in Color::ALL {
            h.u64(*self.clock.remaining_ms.get(c));
            h.u64(u64::from(*self.clock.auto_move_streak.get(c)));
            h.u64(u64::from(*self.undo.used.get(c)));
            h.opt(self.draw.moves_since_offer.get(c).map(u64::from));
        }
        h.u64(self.clock.turn_started_at);
        h.u64(self.clock.last_action_at);
        match self.undo.pending {
            None => h.write(&[0]),
            Some(r) => {
                h.color(Some(r.by));
                h.u64(u64::from(r.plies));
            }
        }
        h.color(self.draw.pending_by);
        let o = &self.opening;
        // Under `none` nothing is added, so such games keep the hashes they always had.
        if !o.rule().is_none() {
            self.hash_opening(&mut h);
        }
        match &self.result {
            None => h.write(&[0]),
            Some(r) => {
                h.write(&[1]);
                h.str(r.reason.name());
                h.color(r.winner);
                for p in r.win_line.iter().flatten() {
                    h.pos(*p);
                }
                h.u64(r.move_count as u64);
                for e in &r.ranking {
                    h.str(&e.player_id);
                    h.u64(u64::from(e.rank));
                }
                h.str(&r.summary_ko);
            }
        }
        let mut rng = self.rng.clone();
        for _ in 0..4 {
            h.u64(rng.next_u64());
        }
        h.finish()
    }

    /// Feeds the opening's state.
    fn hash_opening(&self, h: &mut Fnv1a) {
        let o = &self.opening;
        h.str(&o.rule().to_string());
        h.write(&[u8::from(self.in_opening()), u8::from(o.swapped())]);
        h.u64(o.steps_left() as u64);
        h.u64(self.opening_stones as u64);
        match o.pending() {
            None => h.write(&[0]),
            Some(p) => {
                h.write(&[1, u8::from(p.by == crate::rules::opening::Side::First)]);
                h.str(p.kind.name());
            }
        }
        h.opt(o.declared().map(u64::from));
        h.u64(o.offers().len() as u64);
        for &p in o.offers() {
            h.pos(p);
        }
    }

    /// [`Game::state_hash`] as 16 lower-case hex digits (the form `pbrain-omok referee` prints).
    pub fn state_hash_hex(&self) -> String {
        format!("{:016x}", self.state_hash())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_known_values() {
        // Reference values of 64-bit FNV-1a.
        let mut h = Fnv1a::default();
        assert_eq!(h.finish(), 0xcbf2_9ce4_8422_2325);
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
        let mut h = Fnv1a::default();
        h.write(b"foobar");
        assert_eq!(h.finish(), 0x8594_4171_f739_67e8);
    }
}
