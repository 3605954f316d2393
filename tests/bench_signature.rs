//! The bench node signature: the total node count of `omok::bench` at its fixed depth. A change
//! that moves it changes the search's behaviour and must say so in its commit body
//! (`Bench: <nodes>`), with a self-play result; update the number here and in README.md.

use omok::bench::{BENCH_DEPTH, BenchLine, BenchReport, run};
use omok::params::Params;
use omok::time::FakeClock;

/// The current signature.
const SIGNATURE: u64 = 65_462;

/// The bench at its signature depth with the default parameters: each position's line and the
/// totals.
fn bench() -> (Vec<BenchLine>, BenchReport) {
    let clock = FakeClock::default();
    let mut lines = Vec::new();
    let report = run(BENCH_DEPTH, &Params::default(), &clock, |l| {
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

/// A rule's own search parameters (`[rule_search.<rule>]`) reach the searches of that rule's
/// positions and no others.
#[test]
fn a_rule_table_changes_only_that_rules_searches() {
    let text = include_str!("../engine-config/default.toml");
    let params = Params::from_toml(&format!("{text}\n[rule_search.renju]\nvcf_depth = 3\n"))
        .expect("a valid rule table");
    let (base, _) = bench();
    let clock = FakeClock::default();
    let mut lines = Vec::new();
    run(BENCH_DEPTH, &params, &clock, |l| lines.push(l.clone()));
    let mut renju_changed = false;
    for (a, b) in base.iter().zip(&lines) {
        if a.rule == omok::Rule::Renju {
            renju_changed |= a.nodes != b.nodes;
        } else {
            assert_eq!((a.best, a.nodes), (b.best, b.nodes), "position {}", a.index);
        }
    }
    assert!(
        renju_changed,
        "a shorter horizon VCF changes some renju search"
    );
}
