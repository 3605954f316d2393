//! The bench node signature: the total node count of `omok::bench` at its fixed depth. A change
//! that moves it changes the search's behaviour and must say so in its commit body
//! (`Bench: <nodes>`), with a self-play result; update the number here and in README.md.

use omok::bench::{BENCH_DEPTH, run};
use omok::params::SearchParams;
use omok::time::FakeClock;

/// The current signature.
const SIGNATURE: u64 = 65_462;

#[test]
fn bench_signature_is_unchanged() {
    let clock = FakeClock::default();
    let mut lines = Vec::new();
    let report = run(BENCH_DEPTH, &SearchParams::default(), &clock, |l| {
        lines.push(l.clone())
    });
    assert_eq!(lines.len(), 30);
    assert!(
        lines.iter().all(|l| l.best.is_some()),
        "every bench position has a move"
    );
    assert_eq!(
        report.nodes, SIGNATURE,
        "bench signature changed: {}",
        report.nodes
    );
}
