//! The bench node signature: the total node count of `omok::bench` at its fixed depth. A change
//! that moves it changes the search's behaviour and must say so in its commit body
//! (`Bench: <nodes>`), with a self-play result; update the number here and in README.md.

use omok::bench::{BENCH_DEPTH, BenchLine, BenchReport, run, run_positions};
use omok::params::Params;
use omok::time::FakeClock;

/// The current signature.
const SIGNATURE: u64 = 61_695;

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

/// Positions read from text search like the built-in ones: the signature's positions written
/// out as lines give the signature's lines, and a node limit stops each search at its last
/// completed depth.
#[test]
fn a_positions_file_benches_like_the_built_in_positions() {
    let text: String = std::iter::once("# the signature's positions\n".to_string())
        .chain(
            omok::bench::POSITIONS
                .iter()
                .map(|(rule, size, moves)| format!("{rule} {size} {moves}\n\n")),
        )
        .collect();
    let boards = omok::bench::parse_positions(&text).expect("the bench's own positions");
    assert_eq!(boards.len(), 30);
    let (base, report) = bench();
    let clock = FakeClock::default();
    let mut lines = Vec::new();
    let params = Params::default();
    let again = run_positions(&boards, BENCH_DEPTH, None, &params, &clock, |l| {
        lines.push(l.clone())
    });
    assert_eq!(again.nodes, report.nodes);
    for (a, b) in base.iter().zip(&lines) {
        assert_eq!((a.best, a.nodes, a.depth), (b.best, b.nodes, b.depth));
    }
    // A node limit well below what a full depth-4 search takes: fewer nodes, a shallower
    // completed depth.
    let i = base
        .iter()
        .position(|l| l.depth == BENCH_DEPTH && l.nodes > 3_000)
        .expect("a position searched to depth 4 in more than 3,000 nodes");
    let mut limited = Vec::new();
    run_positions(
        &boards[i..=i],
        BENCH_DEPTH,
        Some(300),
        &params,
        &clock,
        |l| limited.push(l.clone()),
    );
    assert!(limited[0].nodes < base[i].nodes && limited[0].depth < BENCH_DEPTH);
}

/// A positions file with a mistake names the line and what is wrong.
#[test]
fn a_bad_positions_line_is_named() {
    let cases = [
        ("freestyle 15 h8i9\nfreestile 15 h8\n", 2, "freestile"),
        ("renju\n", 1, "board side"),
        ("renju fifteen h8\n", 1, "fifteen"),
        ("freestyle 15 h8h8\n", 1, "move 2"),
        ("freestyle 15 h8 i9\n", 1, "i9"),
        ("freestyle 15 z99\n", 1, "off the 15x15 board"),
        ("freestyle 15 h8a1i8a2j8a3k8a4l8\n", 1, "five"),
        ("freestyle 15 h8a1i8a2j8a3k8a4l8a5\n", 1, "after a five"),
    ];
    for (text, line, word) in cases {
        let e = omok::bench::parse_positions(text).expect_err(text);
        assert_eq!(e.line, line, "{text}");
        assert!(e.to_string().contains(word), "{text}: {e}");
    }
    assert_eq!(
        omok::bench::parse_positions("# nothing\n\n").unwrap().len(),
        0
    );
}
