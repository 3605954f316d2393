//! Behaviour of the searcher through the engine facade: determinism under node and depth limits,
//! legality in every rule (renju black never plays a forbidden point), immediate wins and forced
//! blocks, the practice levels, threads and the memory bound. No test depends on wall time: the
//! clock is a `FakeClock` and the limits are nodes and depths.

use std::sync::Arc;

use omok::engine::{Engine, Limits};
use omok::notation::parse_pos_string;
use omok::params::{HISTORY_MAX, Params};
use omok::rules::{forbidden, winning_line};
use omok::search::{NoInfo, WIN_THRESHOLD, greedy};
use omok::time::{Budget, FakeClock};
use omok::{Color, Pos, Rule};
use proptest::prelude::*;

fn engine(rule: Rule, moves: &str) -> Engine {
    engine_with(Params::default(), rule, moves)
}

fn engine_with(params: Params, rule: Rule, moves: &str) -> Engine {
    let mut e = Engine::new(params, Arc::new(FakeClock::default()));
    e.set_rule(rule).unwrap();
    for p in parse_pos_string(moves, 15, 15).unwrap() {
        e.play(p).unwrap();
    }
    e
}

fn limits(depth: Option<u32>, nodes: Option<u64>) -> Limits {
    Limits {
        budget: Budget {
            optimum_ms: u64::MAX / 4,
            maximum_ms: u64::MAX / 4,
        },
        max_nodes: nodes,
        max_depth: depth,
    }
}

#[test]
fn node_limited_search_is_deterministic() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let run = || {
            let mut e = engine(rule, "h8i9j8k8i7j6h7k9h9h6");
            let r = e.go(&limits(None, Some(20_000)), &mut NoInfo);
            (r.best, r.info.nodes, r.info.depth, r.info.score)
        };
        assert_eq!(run(), run(), "{rule}");
    }
}

/// A game's searches keep the transposition table from one move to the next: the same moves
/// give the same searches, and a cleared table (a new game) searches exactly like a fresh
/// engine.
#[test]
fn a_game_of_node_limited_searches_is_deterministic_and_clearing_forgets_it() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let play = || {
            let mut e = engine(rule, "h8i9j8k8i7");
            let mut trace = Vec::new();
            for _ in 0..4 {
                let r = e.go(&limits(None, Some(4_000)), &mut NoInfo);
                trace.push((r.best, r.info.nodes, r.info.score));
                e.play(r.best.unwrap()).unwrap();
            }
            (e, trace)
        };
        let (mut played, trace) = play();
        assert_eq!(trace, play().1, "{rule}");
        let moves: Vec<Pos> = played.board().history().iter().map(|&(p, _)| p).collect();
        let mut fresh = engine(rule, "");
        for &p in &moves {
            fresh.play(p).unwrap();
        }
        played.clear_hash();
        let l = limits(None, Some(4_000));
        let (a, b) = (played.go(&l, &mut NoInfo), fresh.go(&l, &mut NoInfo));
        assert_eq!(
            (a.best, a.info.nodes, a.info.score),
            (b.best, b.info.nodes, b.info.score),
            "{rule}"
        );
    }
}

#[test]
fn takes_a_five_and_blocks_a_five() {
    // Black to move with four in a row on row 8 (h8..k8 = x 7..10, y 7).
    let mut e = engine(Rule::Freestyle, "h8a1i8a2j8a3k8");
    // White to move: must block black's open four? It is an open four: white loses whatever it
    // does, but the search must still return a legal move and know it is lost.
    let r = e.go(&limits(Some(3), None), &mut NoInfo);
    assert!(r.info.score < -WIN_THRESHOLD, "{r:?}");
    let m = r.best.unwrap();
    assert!(e.board().is_empty(m));
    e.play(m).unwrap();
    let r = e.go(&limits(Some(3), None), &mut NoInfo);
    let m = r.best.unwrap();
    e.play(m).unwrap();
    assert!(
        winning_line(e.board(), m).is_some(),
        "black completes the five"
    );

    // White has four stones with one open end; black must block it.
    let mut e = engine(Rule::Freestyle, "a15h8b15i8c15j8g8k8");
    let r = e.go(&limits(Some(4), None), &mut NoInfo);
    assert_eq!(r.best, Pos::new(11, 7), "blocks at l8");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Random playouts where every move comes from the searcher: moves are empty and, for the
    /// colours the rule restricts, never forbidden.
    #[test]
    fn searched_moves_are_always_legal(
        rule in prop::sample::select(vec![Rule::Renju, Rule::Korean, Rule::Casual3344, Rule::Standard, Rule::Caro]),
        opening in prop::collection::vec((5usize..10, 5usize..10), 2..6),
    ) {
        let mut e = engine(rule, "");
        for (x, y) in opening {
            let p = Pos::new(x, y).unwrap();
            if e.board().is_empty(p) {
                let mut b = e.board().clone();
                let c = b.side_to_move();
                if forbidden(&mut b, p, c).is_none() {
                    e.play(p).unwrap();
                }
            }
        }
        for _ in 0..14 {
            let r = e.go(&limits(Some(2), Some(4_000)), &mut NoInfo);
            let Some(m) = r.best else { break };
            let mut b = e.board().clone();
            let c = b.side_to_move();
            prop_assert!(b.is_empty(m));
            prop_assert!(forbidden(&mut b, m, c).is_none(), "{rule}: {c} played forbidden {m:?}\n{b:?}");
            e.play(m).unwrap();
            if winning_line(e.board(), m).is_some() {
                break;
            }
        }
    }
}

#[test]
fn strength_zero_is_the_practice_player() {
    let mut e = engine(Rule::Freestyle, "h8i9j8k8i7");
    e.set_strength(0);
    let r = e.go(&limits(None, None), &mut NoInfo);
    let mut b = e.board().clone();
    let c = b.side_to_move();
    assert_eq!(r.best, greedy::choose(&mut b, c).best);
}

#[test]
fn practice_levels_are_deterministic_for_a_seed_and_respect_their_limits() {
    for strength in [10, 30, 50, 70] {
        let run = |seed| {
            let mut e = engine(Rule::Freestyle, "h8i9j8k8i7j6h7k9");
            e.set_strength(strength);
            e.set_seed(seed);
            let r = e.go(&limits(None, None), &mut NoInfo);
            (r.best, r.info.nodes)
        };
        let (m, nodes) = run(7);
        assert_eq!((m, nodes), run(7), "strength {strength}");
        let level = Params::default().level(strength).unwrap().clone();
        // The random choice may search up to the level's node budget once more.
        assert!(
            nodes <= 2 * level.max_nodes + 1_000,
            "strength {strength}: {nodes} nodes"
        );
    }
}

#[test]
fn threads_and_memory() {
    let mut e = engine(Rule::Renju, "h8i9j8k8i7j6h7k9h9h6");
    e.set_threads(2);
    let r = e.go(&limits(Some(4), None), &mut NoInfo);
    let mut b = e.board().clone();
    assert!(forbidden(&mut b, r.best.unwrap(), Color::Black).is_none());
    let bytes = e.set_memory(1 << 30, 64 << 20);
    assert!(bytes <= (64 << 20) - omok::engine::BASE_MEMORY_BYTES);
}

/// Black to move with two twos that one stone turns into a double open three: a VCT of two
/// attacker moves in freestyle; in renju that stone is a forbidden double three.
#[test]
fn finds_a_double_three_win_except_where_it_is_forbidden() {
    // Black: f8 g8 (row) and h10 h9 (column) meet at h8; white far away.
    let moves = "f8a1g8a2h10a3h9o1";
    let mut e = engine(Rule::Freestyle, moves);
    let r = e.go(&limits(Some(3), Some(200_000)), &mut NoInfo);
    assert!(r.info.score > WIN_THRESHOLD, "{r:?}");
    let mut e = engine(Rule::Renju, moves);
    let r = e.go(&limits(Some(3), Some(200_000)), &mut NoInfo);
    let m = r.best.unwrap();
    assert_ne!(
        m,
        Pos::new(7, 7).unwrap(),
        "h8 is a double three for black in renju"
    );
    let mut b = e.board().clone();
    assert!(forbidden(&mut b, m, Color::Black).is_none());
}

/// Parameters without the root VCT and the safety net, so that the main search alone decides.
fn plain_params() -> Params {
    let mut p = Params::default();
    p.search.vct_depth = 0;
    p.search.safety_vct_depth = 0;
    p
}

/// A double open three with no opponent four to answer it is a win the search knows at once,
/// without searching it out (a depth-1 search proves it).
#[test]
fn a_double_three_without_opponent_fours_is_a_quick_win() {
    let mut e = engine_with(plain_params(), Rule::Freestyle, "f8a1g8o1h10a15h9o15");
    let r = e.go(&limits(Some(1), None), &mut NoInfo);
    assert!(r.info.score > WIN_THRESHOLD, "{r:?}");
    assert_eq!(r.best, Pos::new(7, 7), "h8 makes the double three");
}

/// White threatens a double open three at h8 (f8 g8 on the row, h9 h10 on the column) and black
/// has no four: a depth-1 search defends, so that white has no double three left.
#[test]
fn the_opponent_s_winning_shape_is_defended() {
    let mut e = engine_with(plain_params(), Rule::Freestyle, "a1f8o1g8a15h10o15h9");
    let r = e.go(&limits(Some(1), None), &mut NoInfo);
    let m = r.best.unwrap();
    let mut b = e.board().clone();
    b.make_move(m, Color::Black);
    let double_threes: Vec<Pos> = b
        .positions()
        .filter(|&p| b.is_empty(p))
        .filter(|&p| {
            b.patterns(p, Color::White)
                .iter()
                .filter(|l| l.kind() == omok::pattern::PatternKind::Flex3)
                .count()
                >= 2
        })
        .collect();
    assert!(
        double_threes.is_empty(),
        "after {m:?} white still has double threes at {double_threes:?}"
    );
}

/// Each optional search step of `engine-config/default.toml` changes the search when it is
/// switched from its default (its node counts at a fixed depth on two quiet middle-game
/// positions differ from the default's), stays deterministic and still plays a legal move.
#[test]
fn optional_search_steps_take_effect() {
    let search = |params: Params| {
        ["h8i8i9j10h9j9k10j11j12h11", "h8i9g9i7i8h7g7g8"].map(|moves| {
            let mut e = engine_with(params.clone(), Rule::Freestyle, moves);
            let r = e.go(&limits(Some(7), None), &mut NoInfo);
            let m = r.best.expect("a move");
            assert!(e.board().is_empty(m));
            (m, r.info.nodes, r.info.score)
        })
    };
    let base = search(Params::default());
    type Step = (&'static str, fn(&mut Params));
    let steps: [Step; 20] = [
        ("tt_eval_refine", |p| p.search.tt_eval_refine = true),
        ("iir_min_depth", |p| p.search.iir_min_depth = 3),
        ("lmr_not_improving_plies", |p| {
            p.search.lmr_not_improving_plies = 1
        }),
        ("tt_store_leaves", |p| p.search.tt_store_leaves = true),
        ("static_beta_free_plies", |p| {
            p.search.static_beta_free_plies = 1
        }),
        ("history_malus", |p| p.search.history_malus = true),
        ("counter_move", |p| p.search.counter_move = true),
        ("eval_parent_potentials_only", |p| {
            p.search.eval_parent_potentials_only = true
        }),
        // On by default: turning it off is the option.
        ("policy_ordering", |p| p.search.policy_ordering = false),
        ("policy_reduction_margin", |p| {
            p.search.policy_reduction_margin = 200
        }),
        ("policy_prune_margin", |p| {
            p.search.policy_prune_margin = 200
        }),
        ("history_order_divisor", |p| {
            p.search.history_order_divisor = 1
        }),
        ("history_aging_percent", |p| {
            p.search.history_aging_percent = 50
        }),
        ("singular_min_depth", |p| p.search.singular_min_depth = 3),
        ("shape_extension_plies", |p| {
            p.search.shape_extension_plies = 0
        }),
        ("horizon_four_plies", |p| p.search.horizon_four_plies = 2),
        ("counter_threat_ply", |p| p.search.counter_threat_ply = true),
        ("free_reply_payback", |p| p.search.free_reply_payback = true),
        ("horizon_vcf_defence_plies", |p| {
            p.search.horizon_vcf_defence_plies = 2
        }),
        ("horizon_vcf_width", |p| p.search.horizon_vcf_width = 1),
    ];
    for (name, set) in steps {
        let mut params = Params::default();
        set(&mut params);
        let once = search(params.clone());
        assert_eq!(once, search(params), "{name} is deterministic");
        let nodes = |r: &[(Pos, u64, i32); 2]| r.map(|x| x.1);
        assert_ne!(nodes(&once), nodes(&base), "{name} changes the search");
    }
}

/// Leaving the history out of whether a move is quiet (`history_quiet = false`) changes the
/// search where the history is large enough to count (here at its full weight, divisor 1),
/// and stays deterministic; a cap of 0 on the history's share (`history_quiet_cap`) is the
/// same search as leaving it out, the cap at the history's ceiling the same as none.
#[test]
fn history_quiet_takes_effect() {
    let search = |history_quiet: bool, cap: i32| {
        let mut params = Params::default();
        params.search.history_order_divisor = 1;
        params.search.history_quiet = history_quiet;
        params.search.history_quiet_cap = cap;
        let mut e = engine_with(params, Rule::Freestyle, "h8i8i9j10h9j9k10j11j12h11");
        let r = e.go(&limits(Some(8), None), &mut NoInfo);
        let m = r.best.expect("a move");
        assert!(e.board().is_empty(m));
        (m, r.info.nodes, r.info.score)
    };
    let (counted, ordering_only) = (search(true, HISTORY_MAX), search(false, HISTORY_MAX));
    assert_eq!(ordering_only, search(false, HISTORY_MAX), "deterministic");
    assert_ne!(
        counted.1, ordering_only.1,
        "leaving the history out changes the search"
    );
    assert_eq!(
        counted,
        search(true, Params::default().search.history_quiet_cap)
    );
    assert_eq!(ordering_only, search(true, 0), "a cap of 0 leaves it out");
}

/// Widening a failed aspiration bound step by step (`aspiration_widenings`) changes the search
/// where the window fails (a narrow one here) and stays deterministic.
#[test]
fn aspiration_widenings_take_effect() {
    let search = |widenings: u32| {
        let mut params = Params::default();
        params.search.aspiration_window = 10;
        params.search.aspiration_widenings = widenings;
        let mut e = engine_with(params, Rule::Freestyle, "h8i8i9j10h9j9k10j11j12h11");
        let r = e.go(&limits(Some(7), None), &mut NoInfo);
        let m = r.best.expect("a move");
        assert!(e.board().is_empty(m));
        (m, r.info.nodes, r.info.score)
    };
    let (full, widened) = (search(0), search(3));
    assert_eq!(widened, search(3), "deterministic");
    assert_ne!(full.1, widened.1, "the widenings change the search");
}
