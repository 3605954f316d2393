//! The transposition table: a fixed-size array of lock-free entries shared by all search threads.
//!
//! Each entry is two `AtomicU64`: the data word and `key ^ data`. A reader accepts an entry only
//! when `check ^ data == key`, so a torn write from a racing thread reads as a miss, never as a
//! wrong hit (the classic XOR scheme). Data word layout: move index (16 bits, `0xFFFF` = none),
//! score (i16), depth (i8), bound (2 bits), generation (6 bits).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::core::Pos;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is an upper bound (fail low).
    Upper,
    /// The score is a lower bound (fail high).
    Lower,
    /// The exact score.
    Exact,
}

/// A table hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// The best move found, if any.
    pub mv: Option<Pos>,
    /// The stored score (mate scores relative to the probing node).
    pub score: i32,
    /// The depth it was searched to.
    pub depth: i32,
    /// The kind of bound.
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// Bytes one entry takes.
pub const ENTRY_BYTES: usize = 16;

/// The shared transposition table.
pub struct TranspositionTable {
    entries: Box<[Entry]>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of at most `bytes` bytes (rounded down to a power of two entries, at least 1024).
    pub fn new(bytes: usize) -> TranspositionTable {
        let wanted = (bytes / ENTRY_BYTES).max(1024);
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let entries = (0..count)
            .map(|_| Entry::default())
            .collect::<Vec<_>>()
            .into_boxed_slice();
        TranspositionTable {
            entries,
            generation: AtomicU8::new(0),
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for e in self.entries.iter() {
            e.check.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search (older entries become preferred for replacement).
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn slot(&self, key: u64) -> &Entry {
        &self.entries[(key as usize) & (self.entries.len() - 1)]
    }

    /// Asks the processor to bring the slot of `key` into its cache ahead of a probe: a hint
    /// with no effect on what the table holds or returns.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.slot(key));
    }

    /// The entry for `key`, if present.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let e = self.slot(key);
        let data = e.data.load(Ordering::Relaxed);
        let check = e.check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        let mv = (data & 0xFFFF) as u16;
        let bound = match (data >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(TtHit {
            mv: (mv != 0xFFFF).then(|| Pos::from_index(mv as usize)),
            score: ((data >> 16) & 0xFFFF) as u16 as i16 as i32,
            depth: ((data >> 32) & 0xFF) as u8 as i8 as i32,
            bound,
        })
    }

    /// Stores a result; replaces the slot unless it holds a deeper result for the same key from
    /// this search.
    #[inline]
    pub fn store(&self, key: u64, mv: Option<Pos>, score: i32, depth: i32, bound: Bound) {
        let e = self.slot(key);
        let generation = self.generation.load(Ordering::Relaxed) as u64 & 0x3F;
        let old = e.data.load(Ordering::Relaxed);
        let old_key = e.check.load(Ordering::Relaxed) ^ old;
        let old_depth = ((old >> 32) & 0xFF) as u8 as i8 as i32;
        let old_gen = (old >> 42) & 0x3F;
        if old != 0
            && old_key == key
            && old_gen == generation
            && old_depth > depth
            && bound != Bound::Exact
        {
            return;
        }
        let mv_bits = mv.map_or(0xFFFF, |p| p.index() as u64);
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        let depth = depth.clamp(-128, 127) as i8 as u8 as u64;
        let bound_bits = match bound {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        let data = mv_bits | score << 16 | depth << 32 | bound_bits << 40 | generation << 42;
        e.data.store(data, Ordering::Relaxed);
        e.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let tt = TranspositionTable::new(1 << 16);
        assert_eq!(tt.bytes(), 1 << 16);
        let p = Pos::new(7, 7);
        tt.store(12345, p, -29_990, 7, Bound::Lower);
        let hit = tt.probe(12345).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound),
            (p, -29_990, 7, Bound::Lower)
        );
        assert!(tt.probe(12345 + (1 << 40)).is_none());
        tt.store(99, None, 5, -2, Bound::Upper);
        assert_eq!(tt.probe(99).unwrap().mv, None);
        assert_eq!(tt.probe(99).unwrap().depth, -2);
        tt.clear();
        assert!(tt.probe(12345).is_none());
    }

    #[test]
    fn deeper_entries_survive_shallower_bounds() {
        let tt = TranspositionTable::new(1 << 14);
        tt.store(7, Pos::new(1, 1), 10, 9, Bound::Lower);
        tt.store(7, Pos::new(2, 2), 20, 3, Bound::Upper);
        assert_eq!(tt.probe(7).unwrap().depth, 9);
        tt.new_search();
        tt.store(7, Pos::new(2, 2), 20, 3, Bound::Upper);
        assert_eq!(tt.probe(7).unwrap().depth, 3);
    }
}

/// Asks the processor to bring the cache line of `slot` in ahead of a read: a hint with no
/// effect on what the program sees.
#[inline]
fn prefetch<T>(slot: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault; `slot` is a live
    // reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (slot as *const T).cast(),
        )
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}

/// A thread's direct-mapped cache of threat-search results (VCF or VCT): position key → (depth
/// searched, won). Fixed size, so a thread's memory is bounded ([`THREAT_CACHE_BYTES`]); a new
/// result replaces whatever shared its slot.
pub(crate) struct ThreatCache {
    slots: Box<[(u64, u32)]>,
}

/// Slots of a [`ThreatCache`] (a power of two).
const THREAT_CACHE_SLOTS: usize = 1 << 16;
/// Bytes of one thread's threat cache (VCF or VCT results).
pub const THREAT_CACHE_BYTES: usize = THREAT_CACHE_SLOTS * std::mem::size_of::<(u64, u32)>();

impl ThreatCache {
    /// An empty cache.
    pub(crate) fn new() -> ThreatCache {
        ThreatCache {
            slots: vec![(0, 0); THREAT_CACHE_SLOTS].into_boxed_slice(),
        }
    }

    /// The result stored for `key`: the depth it was searched to and whether it was won.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<(u32, bool)> {
        let (k, v) = self.slots[key as usize & (THREAT_CACHE_SLOTS - 1)];
        // A stored value is never 0: results are stored for depths of at least 1.
        (k == key && v != 0).then_some((v >> 1, v & 1 == 1))
    }

    /// Starts loading the slot of `key` into the processor's cache, so that a probe shortly
    /// after does not wait for memory.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        prefetch(&self.slots[key as usize & (THREAT_CACHE_SLOTS - 1)]);
    }

    /// Stores the result for `key` (`depth` ≥ 1).
    #[inline]
    pub(crate) fn insert(&mut self, key: u64, depth: u32, won: bool) {
        debug_assert!(depth >= 1);
        self.slots[key as usize & (THREAT_CACHE_SLOTS - 1)] = (key, depth << 1 | won as u32);
    }
}

#[cfg(test)]
mod threat_cache_tests {
    use super::*;

    #[test]
    fn results_are_found_by_key_and_replaced_by_slot() {
        let mut c = ThreatCache::new();
        assert_eq!(c.get(42), None);
        c.insert(42, 7, true);
        c.insert(43, 3, false);
        assert_eq!(c.get(42), Some((7, true)));
        assert_eq!(c.get(43), Some((3, false)));
        // Same slot, other key: the new result replaces the old.
        let other = 42 + THREAT_CACHE_SLOTS as u64;
        assert_eq!(c.get(other), None);
        c.insert(other, 2, false);
        assert_eq!(c.get(other), Some((2, false)));
        assert_eq!(c.get(42), None);
    }
}
