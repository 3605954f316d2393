//! The bench node signature: the total node count of `omok::bench` at its fixed depth. A change
//! that moves it changes the search's behaviour and must say so in its commit body
//! (`Bench: <nodes>`), with a self-play result; update the number here and in README.md.

use omok::bench::{BENCH_DEPTH, BenchLine, BenchReport, run};
use omok::params::SearchParams;
use omok::time::FakeClock;

/// The current signature.
const SIGNATURE: u64 = 65_462;

/// The bench at its signature depth with the default parameters: each position's line and the
/// totals.
fn bench() -> (Vec<BenchLine>, BenchReport) {
    let clock = FakeClock::default();
    let mut lines = Vec::new();
    let report = run(BENCH_DEPTH, &SearchParams::default(), &clock, |l| {
        lines.push(l.clone())
    });
    (lines, report)
}

#[test]
fn bench_signature_is_unchanged() {
    let (lines, report) = bench();
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

/// Every node of the bench is counted in exactly one part of the search, position by position,
/// and at depth 4 each part examines some.
#[test]
fn bench_nodes_split_by_kind_add_up() {
    let (lines, report) = bench();
    for l in &lines {
        assert_eq!(l.node_kinds.total(), l.nodes, "position {}", l.index);
        assert!(l.node_kinds.horizon_searched <= l.node_kinds.horizon);
    }
    let k = report.node_kinds;
    assert_eq!(k.total(), report.nodes);
    assert!(k.tree > 0 && k.horizon > 0 && k.horizon_searched > 0 && k.vcf > 0 && k.vct > 0);
    assert!(report.breakdown().starts_with("nodes: tree "));
}
