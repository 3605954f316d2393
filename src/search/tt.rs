//! The transposition table: a fixed-size array of lock-free entries shared by all search threads,
//! in buckets of four that fill one cache line each. A new position replaces the entry of its
//! bucket that is worth least (an empty one, else the shallowest, results of earlier searches
//! counting as shallower), so the deep results near the root outlive the many shallow ones a
//! long search writes.
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

/// Entries that share one index: a bucket fills one cache line, so a probe reads one line.
const BUCKET_ENTRIES: usize = 4;

/// How many plies of depth one search of age counts for when a bucket chooses which entry a new
/// position replaces (results of earlier searches go first unless they are much deeper).
const AGE_WEIGHT: i32 = 8;

/// The entries of one index, aligned to a cache line.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; BUCKET_ENTRIES],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET_ENTRIES * ENTRY_BYTES);

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    generation: AtomicU8,
}

/// The fields of a data word.
struct Stored {
    depth: i32,
    generation: u64,
}

impl Stored {
    fn of(data: u64) -> Stored {
        Stored {
            depth: ((data >> 32) & 0xFF) as u8 as i8 as i32,
            generation: (data >> 42) & 0x3F,
        }
    }
}

impl TranspositionTable {
    /// A table of at most `bytes` bytes (rounded down to a power of two entries, at least 1024).
    pub fn new(bytes: usize) -> TranspositionTable {
        let wanted = (bytes / ENTRY_BYTES).max(1024);
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let buckets = (0..count / BUCKET_ENTRIES)
            .map(|_| Bucket::default())
            .collect::<Vec<_>>()
            .into_boxed_slice();
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_ENTRIES * ENTRY_BYTES
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for e in self.buckets.iter().flat_map(|b| b.entries.iter()) {
            e.check.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search (older entries become preferred for replacement).
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key as usize) & (self.buckets.len() - 1)]
    }

    /// Asks the processor to bring the bucket of `key` into its cache ahead of a probe: a hint
    /// with no effect on what the table holds or returns.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    /// The entry for `key`, if present.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        self.bucket(key).entries.iter().find_map(|e| {
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
                depth: Stored::of(data).depth,
                bound,
            })
        })
    }

    /// Stores a result. The entry of the same position is rewritten unless it holds a deeper
    /// result from this search (an exact score is always written); a new position takes an
    /// empty entry of its bucket, else the one worth least: the shallowest, counting each
    /// search of age as [`AGE_WEIGHT`] plies less.
    #[inline]
    pub fn store(&self, key: u64, mv: Option<Pos>, score: i32, depth: i32, bound: Bound) {
        let bucket = self.bucket(key);
        let generation = self.generation.load(Ordering::Relaxed) as u64 & 0x3F;
        let mut target = &bucket.entries[0];
        let mut least = i32::MAX;
        for e in bucket.entries.iter() {
            let old = e.data.load(Ordering::Relaxed);
            if old == 0 {
                if least > i32::MIN {
                    target = e;
                    least = i32::MIN;
                }
                continue;
            }
            let stored = Stored::of(old);
            if e.check.load(Ordering::Relaxed) ^ old == key {
                if stored.generation == generation && stored.depth > depth && bound != Bound::Exact
                {
                    return;
                }
                target = e;
                break;
            }
            let age = (generation.wrapping_sub(stored.generation) & 0x3F) as i32;
            let worth = stored.depth - AGE_WEIGHT * age;
            if worth < least {
                target = e;
                least = worth;
            }
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
        target.data.store(data, Ordering::Relaxed);
        target.check.store(key ^ data, Ordering::Relaxed);
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

    /// Keys that share the bucket of key 0 in a table of `bytes` bytes.
    fn same_bucket(bytes: usize, i: u64) -> u64 {
        i * (bytes / ENTRY_BYTES / BUCKET_ENTRIES) as u64
    }

    #[test]
    fn a_bucket_keeps_its_deepest_entries() {
        let bytes = 1 << 14;
        let tt = TranspositionTable::new(bytes);
        let deep = same_bucket(bytes, 1);
        tt.store(deep, Pos::new(3, 3), 50, 9, Bound::Lower);
        // Many shallow positions of the same bucket: each replaces a shallow one.
        for i in 2..40 {
            tt.store(same_bucket(bytes, i), None, 0, i as i32 % 3, Bound::Upper);
        }
        assert_eq!(tt.probe(deep).unwrap().depth, 9);
        // The last shallow one is there; of the earlier ones at most three are left.
        assert!(tt.probe(same_bucket(bytes, 39)).is_some());
        let left = (2..39)
            .filter(|&i| tt.probe(same_bucket(bytes, i)).is_some())
            .count();
        assert!(left <= BUCKET_ENTRIES - 2, "{left} shallow entries left");
    }

    #[test]
    fn results_of_earlier_searches_are_replaced_first() {
        let bytes = 1 << 14;
        let tt = TranspositionTable::new(bytes);
        let key = |i| same_bucket(bytes, i);
        for (i, depth) in [(1, 4), (2, 6), (3, 12), (4, 7)] {
            tt.store(key(i), None, 0, depth, Bound::Exact);
        }
        tt.new_search();
        // A search of age counts as eight plies less: the previous search's depth 4 goes first,
        // then its depth 6 (worth −2) before this search's depth 1.
        tt.store(key(5), None, 0, 1, Bound::Exact);
        assert!(tt.probe(key(1)).is_none());
        tt.store(key(6), None, 0, 1, Bound::Exact);
        assert!(tt.probe(key(2)).is_none());
        assert!(tt.probe(key(5)).is_some());
        // Its depth 12 (worth 4) outlives this search's depth 1 (worth 1).
        tt.store(key(7), None, 0, 2, Bound::Exact);
        assert!(tt.probe(key(3)).is_some());
        assert!(
            tt.probe(key(4)).is_none(),
            "depth 7 of the last search is worth −1"
        );
        tt.store(key(8), None, 0, 2, Bound::Exact);
        assert!(tt.probe(key(3)).is_some());
        assert_eq!(
            [5, 6].map(|i| tt.probe(key(i)).is_some()),
            [false, true],
            "the first of two equal entries goes"
        );
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

/// A thread's cache of threat-search results (VCF or VCT): position key → (depth searched,
/// won). Fixed size, so a thread's memory is bounded ([`THREAT_CACHE_BYTES`]). Results share
/// buckets of four (one cache line); a new position takes an empty slot of its bucket, else
/// the one with the shallowest failure (a win holds at every depth and goes last).
pub(crate) struct ThreatCache {
    buckets: Box<[CacheBucket]>,
}

/// One bucket of a [`ThreatCache`]: (key, depth << 1 | won) pairs, value 0 for an empty slot.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct CacheBucket {
    slots: [(u64, u32); BUCKET_ENTRIES],
}

/// Slots of a [`ThreatCache`] (a power of two).
const THREAT_CACHE_SLOTS: usize = 1 << 16;
const THREAT_CACHE_BUCKETS: usize = THREAT_CACHE_SLOTS / BUCKET_ENTRIES;
/// Bytes of one thread's threat cache (VCF or VCT results).
pub const THREAT_CACHE_BYTES: usize = THREAT_CACHE_BUCKETS * std::mem::size_of::<CacheBucket>();

impl ThreatCache {
    /// An empty cache.
    pub(crate) fn new() -> ThreatCache {
        ThreatCache {
            buckets: vec![CacheBucket::default(); THREAT_CACHE_BUCKETS].into_boxed_slice(),
        }
    }

    /// The bucket index of `key`.
    #[inline]
    fn index(key: u64) -> usize {
        key as usize & (THREAT_CACHE_BUCKETS - 1)
    }

    #[inline]
    fn bucket(&self, key: u64) -> &CacheBucket {
        &self.buckets[Self::index(key)]
    }

    /// The result stored for `key`: the depth it was searched to and whether it was won.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<(u32, bool)> {
        // A stored value is never 0: results are stored for depths of at least 1.
        self.bucket(key)
            .slots
            .iter()
            .find(|&&(k, v)| k == key && v != 0)
            .map(|&(_, v)| (v >> 1, v & 1 == 1))
    }

    /// Starts loading the bucket of `key` into the processor's cache, so that a probe shortly
    /// after does not wait for memory.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    /// Stores the result for `key` (`depth` ≥ 1), over an earlier result for the same key.
    #[inline]
    pub(crate) fn insert(&mut self, key: u64, depth: u32, won: bool) {
        debug_assert!(depth >= 1);
        let slots = &mut self.buckets[Self::index(key)].slots;
        let worth = |v: u32| match v {
            0 => 0,
            v if v & 1 == 1 => u32::MAX,
            v => v >> 1,
        };
        let target = match slots.iter().position(|&(k, v)| k == key && v != 0) {
            Some(i) => i,
            None => (0..BUCKET_ENTRIES)
                .min_by_key(|&i| worth(slots[i].1))
                .unwrap_or(0),
        };
        slots[target] = (key, depth << 1 | won as u32);
    }
}

#[cfg(test)]
mod threat_cache_tests {
    use super::*;

    #[test]
    fn results_are_found_by_key_and_replaced_by_worth() {
        let mut c = ThreatCache::new();
        assert_eq!(c.get(42), None);
        c.insert(42, 7, true);
        c.insert(43, 3, false);
        assert_eq!(c.get(42), Some((7, true)));
        assert_eq!(c.get(43), Some((3, false)));
        // The same key again: its result is replaced.
        c.insert(43, 5, false);
        assert_eq!(c.get(43), Some((5, false)));
        // Other keys of 42's bucket: the shallowest failure goes first, the win last.
        let key = |i: u64| 42 + i * THREAT_CACHE_BUCKETS as u64;
        c.insert(key(1), 2, false);
        c.insert(key(2), 9, false);
        c.insert(key(3), 4, false);
        assert_eq!(c.get(key(1)), Some((2, false)), "the bucket had room");
        c.insert(key(4), 6, false);
        assert_eq!(c.get(key(1)), None, "depth 2 was the shallowest failure");
        assert_eq!(c.get(key(2)), Some((9, false)));
        assert_eq!(c.get(key(3)), Some((4, false)));
        for i in 5..20 {
            c.insert(key(i), 1, false);
        }
        assert_eq!(c.get(42), Some((7, true)));
        assert_eq!(c.get(key(2)), Some((9, false)));
        assert_eq!(c.get(key(19)), Some((1, false)));
        assert_eq!(c.get(key(18)), None);
    }
}
