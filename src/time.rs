//! Time: an injectable [`Clock`] and the turn budget computed from the Piskvork time settings.
//!
//! `timeout_turn` is the limit for one move (0 = play at once), `timeout_match` the limit for the
//! whole game (0 = none) and `time_left` what remains of it (2147483647 = unlimited). The
//! maximum for a move is the smallest of the turn limit and the match time left, minus a reserve
//! ([`TimeParams`]); the search aims at an optimum below it. The budget never exceeds any limit
//! the manager gave.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::params::TimeParams;

/// The Piskvork value that means "unlimited".
pub const UNLIMITED_MS: i64 = 2_147_483_647;

/// A monotonic millisecond clock.
pub trait Clock: Send + Sync {
    /// Milliseconds since an arbitrary fixed start.
    fn now_ms(&self) -> u64;
}

/// The real clock.
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    /// A clock starting now.
    pub fn new() -> SystemClock {
        SystemClock {
            start: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

/// A clock that only moves when told to (for tests).
#[derive(Default)]
pub struct FakeClock {
    now: AtomicU64,
}

impl FakeClock {
    /// Moves the clock forward.
    pub fn advance(&self, ms: u64) {
        self.now.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for FakeClock {
    fn now_ms(&self) -> u64 {
        self.now.load(Ordering::SeqCst)
    }
}

/// The time settings a manager gives (Piskvork `INFO` keys), in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeSettings {
    /// `timeout_turn`: limit for one move; 0 = as fast as possible.
    pub turn_ms: i64,
    /// `timeout_match`: limit for the game; 0 = unlimited.
    pub match_ms: i64,
    /// `time_left`: what remains of the match time; `None` until the manager says.
    pub time_left_ms: Option<i64>,
}

impl Default for TimeSettings {
    /// Piskvork's defaults: 30 s a move, no match limit.
    fn default() -> Self {
        TimeSettings {
            turn_ms: 30_000,
            match_ms: 0,
            time_left_ms: None,
        }
    }
}

/// How long to think for one move. An optimum below the maximum leaves the search room to
/// think less when the position is settled (the time saved serves later moves of a match clock)
/// and more when it is not; an optimum equal to the maximum (a turn limit only, where unused
/// time is lost) asks to use it all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Aim to finish by then.
    pub optimum_ms: u64,
    /// Never think longer than this.
    pub maximum_ms: u64,
}

impl TimeSettings {
    /// The hard limit for this move before any reserve: the turn limit, capped by the match time
    /// left whenever the manager reports one. `None` = no limit at all.
    pub fn limit_ms(&self) -> Option<u64> {
        let turn = (self.turn_ms != UNLIMITED_MS).then_some(self.turn_ms.max(0) as u64);
        let left = self
            .time_left_ms
            .filter(|&t| t != UNLIMITED_MS)
            .map(|t| t.max(0) as u64);
        match (turn, left) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The budget for the next move of a game with `stones` on the board.
    pub fn budget(&self, params: &TimeParams, stones: usize, cells: usize) -> Budget {
        let Some(limit) = self.limit_ms() else {
            return Budget {
                optimum_ms: params.unlimited_move_ms,
                maximum_ms: params.unlimited_move_ms,
            };
        };
        let reserve = (params.reserve_ms as f64).min(limit as f64 * params.reserve_fraction) as u64;
        let mut maximum = limit.saturating_sub(reserve);
        if let Some(left) = self.time_left_ms.filter(|&t| t != UNLIMITED_MS) {
            // Spread the match time over the moves that may still come.
            let empty = cells.saturating_sub(stones) as u64;
            let moves_left = (empty / 2).clamp(params.moves_to_go_min, params.moves_to_go_max);
            let share = (left.max(0) as u64).saturating_sub(reserve) / moves_left;
            maximum = maximum.min(share.saturating_mul(params.match_share_cap_factor));
            let optimum = share.min(maximum);
            return Budget {
                optimum_ms: optimum,
                maximum_ms: maximum,
            };
        }
        Budget {
            optimum_ms: (maximum as f64 * params.optimum_factor) as u64,
            maximum_ms: maximum,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(turn: i64, matc: i64, left: Option<i64>) -> TimeSettings {
        TimeSettings {
            turn_ms: turn,
            match_ms: matc,
            time_left_ms: left,
        }
    }

    #[test]
    fn turn_limit_minus_reserve() {
        let p = TimeParams::default();
        let b = settings(5000, 0, None).budget(&p, 0, 225);
        assert!(b.maximum_ms < 5000 && b.maximum_ms >= 5000 - p.reserve_ms);
        assert!(b.optimum_ms <= b.maximum_ms);
        // A tiny limit keeps a proportional reserve and is never exceeded.
        let b = settings(100, 0, None).budget(&p, 0, 225);
        assert!(b.maximum_ms > 0 && b.maximum_ms < 100, "{b:?}");
    }

    #[test]
    fn zero_turn_means_at_once_and_unlimited_means_no_cap() {
        let p = TimeParams::default();
        assert_eq!(settings(0, 0, None).budget(&p, 0, 225).maximum_ms, 0);
        assert_eq!(settings(UNLIMITED_MS, 0, None).limit_ms(), None);
        assert_eq!(settings(5000, 0, Some(UNLIMITED_MS)).limit_ms(), Some(5000));
    }

    #[test]
    fn match_time_caps_the_move() {
        let p = TimeParams::default();
        let b = settings(30_000, 180_000, Some(1_000)).budget(&p, 100, 225);
        assert!(b.maximum_ms < 1_000, "{b:?}");
        let b = settings(30_000, 180_000, Some(-5)).budget(&p, 100, 225);
        assert_eq!(b.maximum_ms, 0);
        let b = settings(30_000, 180_000, Some(170_000)).budget(&p, 10, 225);
        assert!(
            b.maximum_ms <= 30_000 && b.optimum_ms <= b.maximum_ms && b.optimum_ms > 1_000,
            "{b:?}"
        );
    }

    #[test]
    fn fake_clock_moves_only_when_told() {
        let c = FakeClock::default();
        assert_eq!(c.now_ms(), 0);
        c.advance(250);
        assert_eq!(c.now_ms(), 250);
    }
}
