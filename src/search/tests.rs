//! The search's shortcuts against the plain versions they stand for: the local VCF of the
//! horizon against the full VCF, and the filtered defence sets (open threes, winning shapes)
//! against every empty point, on seeded random positions and the tactics fixtures.

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::alphabeta::{Searcher, aligned_within};
use super::{with_solver, with_solver_params};
use crate::board::Board;
use crate::core::{Color, Pos};
use crate::notation::parse_pos_string;
use crate::params::SearchParams;
use crate::pattern::cell::ThreatSet;
use crate::rule::Rule;

const RULES: [Rule; 3] = [Rule::Freestyle, Rule::Renju, Rule::Korean];
/// Random games per rule searched for VCT wins by the soundness test.
const VCT_SOUNDNESS_SEEDS: u64 = 60;

fn with_searcher<T>(board: &Board, f: impl FnOnce(&mut Searcher) -> T) -> T {
    with_solver(board, SearchParams::default().vcf_depth, None, f)
}

/// Seeded random games (stones near the others, a few anywhere) of up to `plies` moves; every
/// position along the way is given to `visit`.
fn random_positions(rule: Rule, seed: u64, plies: usize, visit: impl FnMut(&Board)) {
    random_games(rule, seed, plies, false, visit);
}

/// [`random_positions`], which stop at the first five point; with `through_fives` the games go
/// on past five points, though no five is made.
fn random_games(
    rule: Rule,
    seed: u64,
    plies: usize,
    through_fives: bool,
    mut visit: impl FnMut(&Board),
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pick = |n: usize| (rng.next_u64() % n as u64) as usize;
    let mut b = Board::square(15, rule).unwrap();
    let mut color = Color::Black;
    b.make_move(Pos::new(7, 7).unwrap(), color);
    color = color.opponent();
    for _ in 0..plies {
        if !through_fives
            && (b.threat_count(Color::Black, ThreatSet::Five) > 0
                || b.threat_count(Color::White, ThreatSet::Five) > 0)
        {
            break;
        }
        let near: Vec<Pos> = b.near_empties().collect();
        if near.is_empty() {
            break;
        }
        let p = near[pick(near.len())];
        if crate::rules::forbidden(&mut b, p, color).is_some()
            || b.summary(p, color).threat_mask() & ThreatSet::Five.bit() != 0
        {
            continue;
        }
        b.make_move(p, color);
        color = color.opponent();
        visit(&b);
    }
}

/// The attacker's four points aligned within five cells with each of its legal straight-four
/// points that are legal for `defender` and after which the attacker has no legal straight-four
/// point, each tried by making the move, in board order: what [`Searcher::three_blocks`]
/// computes, without deciding any point from the line tables.
fn three_blocks_by_make_undo(s: &mut Searcher, defender: Color) -> Vec<Pos> {
    let attacker = defender.opponent();
    let flex4: Vec<Pos> = s.board.threat_points(attacker, ThreatSet::Flex4).collect();
    let flex4: Vec<Pos> = flex4
        .into_iter()
        .filter(|&f| s.legal(f, attacker))
        .collect();
    let fours: Vec<Pos> = s
        .board
        .threat_points(attacker, ThreatSet::Four)
        .filter(|&p| flex4.iter().all(|&f| aligned_within(p, f, 5)))
        .collect();
    stops_by_make_undo(s, defender, fours)
}

/// The points of `candidates`, in order, that are legal for `defender` and after which the
/// attacker has no legal straight-four point, each tried by making the move.
fn stops_by_make_undo(s: &mut Searcher, defender: Color, candidates: Vec<Pos>) -> Vec<Pos> {
    let attacker = defender.opponent();
    let mut out = Vec::new();
    for p in candidates {
        if !s.legal(p, defender) {
            continue;
        }
        s.board.make_light_move(p, defender);
        let stops = !s.has_open_three(attacker);
        s.board.undo_light_move();
        if stops {
            out.push(p);
        }
    }
    out
}

/// Every legal point of `defender` after which the attacker has no legal straight-four point.
fn three_blocks_by_brute_force(s: &mut Searcher, defender: Color) -> Vec<Pos> {
    let empties: Vec<Pos> = s
        .board
        .positions()
        .filter(|&p| s.board.is_empty(p))
        .collect();
    let mut out = stops_by_make_undo(s, defender, empties);
    out.sort();
    out
}

#[test]
fn three_blocks_are_exactly_the_points_that_stop_every_open_three() {
    // Every rule, both sides defending, and games that go on past five points (where the line
    // tables do not decide alone). Against the four points tried by making the move, in order;
    // and against every point so tried where the side to move defends and the attacker has no
    // five point.
    let mut checked = [0; 2];
    for (i, rule) in Rule::ALL.into_iter().enumerate() {
        for seed in 0..6 {
            random_games(rule, 100 * i as u64 + seed, 40, seed % 3 == 2, |b| {
                with_searcher(b, |s| {
                    for defender in Color::ALL {
                        if !s.has_open_three(defender.opponent()) {
                            continue;
                        }
                        let fast: Vec<Pos> = s.three_blocks(defender).into_iter().collect();
                        assert_eq!(fast, three_blocks_by_make_undo(s, defender), "{rule:?}");
                        let fives = s.board.threat_count(defender.opponent(), ThreatSet::Five);
                        if fives == 0 && defender == s.board.side_to_move() {
                            let all = three_blocks_by_brute_force(s, defender);
                            assert_eq!(fast, all, "{rule:?} {defender:?}\n{:?}", s.board);
                        }
                        checked[(fives > 0) as usize] += 1;
                    }
                })
            });
        }
    }
    assert!(
        checked[0] >= 500,
        "only {checked:?} positions with an open three"
    );
    assert!(checked[1] >= 10, "only {checked:?} with a five point");
}

#[test]
fn a_caro_block_that_takes_a_five_away_can_leave_a_straight_four() {
    // White's five point (6,7) completes (9,4)-(5,8), which a black stone on (10,3) blocks at
    // one end. A black stone on (4,9) stops White's open three through (6,9), but blocks that
    // five at its other end too, and in caro it wins no more: (6,7) is left a straight-four
    // point along (7,8)-(9,10). Found by random games that go on past five points.
    let moves = "h8h10j7j11l7n5j13m4i14i6k7h9g14i12o5h15l13h7k3i15g11e11e12f10h12d9l14h13l9k14h11\
                 i10n14n12l3o10g15n3g4f14d10j5k4b11o6o2o7f9";
    let b = Board::with_moves(15, Rule::Caro, &parse_pos_string(moves, 15, 15).unwrap()).unwrap();
    with_searcher(&b, |s| {
        assert!(s.board.threat_count(Color::White, ThreatSet::Five) > 0);
        let blocks: Vec<Pos> = s.three_blocks(Color::Black).into_iter().collect();
        assert_eq!(blocks, three_blocks_by_make_undo(s, Color::Black));
        let expected = [(6, 9), (9, 9)].map(|(x, y)| Pos::new(x, y).unwrap());
        assert_eq!(blocks, expected);
    });
}

/// Every legal point of `us` that is one of `own` or after which `undone` holds, in order.
fn defences_by_brute_force(
    s: &mut Searcher,
    us: Color,
    own: &[Pos],
    undone: impl Fn(&mut Searcher) -> bool,
) -> Vec<Pos> {
    let mut out = Vec::new();
    for p in empties(&s.board) {
        if !s.legal(p, us) {
            continue;
        }
        s.board.make_light_move(p, us);
        let stops = undone(s);
        s.board.undo_light_move();
        if stops || own.contains(&p) {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn shape_defences_are_exactly_the_points_that_undo_every_winning_shape() {
    // Every rule: the line tables decide where the opponent has no forbidden points; for the
    // others they decide the points that leave no shape point at all, legal or not, and moves
    // are made for the rest.
    let mut checked = [0; 2];
    for (seed, rule) in (0..32).zip(Rule::ALL.into_iter().cycle()) {
        random_positions(rule, 1000 + seed, 40, |b| {
            with_searcher(b, |s| {
                let us = s.board.side_to_move();
                let them = us.opponent();
                let shapes = s.win_shape_points(them);
                if shapes.is_empty() || s.has_open_three(them) {
                    return;
                }
                let mut fast: Vec<Pos> = s
                    .shape_defences(us, &shapes)
                    .into_iter()
                    .map(|m| m.0)
                    .collect();
                fast.sort();
                // The reference: every empty point after which the opponent has no winning
                // shape, and our own four and three points.
                let own = s.own_threat_points(us);
                let slow =
                    defences_by_brute_force(s, us, &own, |s| s.win_shape_points(them).is_empty());
                assert_eq!(fast, slow, "{rule:?}");
                checked[rule.has_forbidden(them) as usize] += 1;
            })
        });
    }
    assert!(
        checked[0] >= 20 && checked[1] >= 10,
        "only {checked:?} positions with a winning shape"
    );
}

/// The empty points of `b`.
fn empties(b: &Board) -> Vec<Pos> {
    b.positions().filter(|&p| b.is_empty(p)).collect()
}

#[test]
fn four_shape_defences_are_exactly_the_points_that_undo_every_four_shape() {
    let mut checked = 0;
    for (i, rule) in RULES.into_iter().enumerate() {
        for seed in 0..12 {
            random_positions(rule, 2000 + 100 * i as u64 + seed, 40, |b| {
                with_searcher(b, |s| {
                    let us = s.board.side_to_move();
                    let them = us.opponent();
                    let shapes = s.four_shape_points(them);
                    if shapes.is_empty() {
                        return;
                    }
                    let mut fast: Vec<Pos> = s
                        .four_shape_defences(us, &shapes)
                        .into_iter()
                        .map(|m| m.0)
                        .collect();
                    fast.sort();
                    // The reference: every legal point after which the opponent has no four
                    // shape, and our own four points.
                    let own: Vec<Pos> = s.board.threat_points(us, ThreatSet::Four).collect();
                    let slow = defences_by_brute_force(s, us, &own, |s| {
                        s.four_shape_points(them).is_empty()
                    });
                    assert_eq!(fast, slow, "{rule:?}");
                    checked += 1;
                })
            });
        }
    }
    assert!(checked >= 30, "only {checked} positions with a four shape");
}

#[test]
fn four_shape_threats_are_exactly_the_quiet_moves_that_make_a_new_four_shape() {
    let (mut checked, mut found) = (0, 0);
    for (i, rule) in RULES.into_iter().enumerate() {
        for seed in 0..6 {
            random_positions(rule, 3000 + 100 * i as u64 + seed, 30, |b| {
                with_searcher(b, |s| {
                    let us = s.board.side_to_move();
                    let mut fast: Vec<Pos> = s
                        .four_shape_threat_moves(us)
                        .into_iter()
                        .map(|m| m.0)
                        .collect();
                    fast.sort();
                    // The reference: every legal point that is not a four or three point of
                    // ours, after which some other four or three point that was no four shape
                    // (legality aside) is a four-shape point. (A line of four single stones
                    // with gaps that one stone turns into a double four is left out.)
                    let own = s.own_threat_points(us);
                    let cells = empties(&s.board);
                    let before: Vec<Pos> = cells
                        .iter()
                        .copied()
                        .filter(|&q| s.is_four_shape(q, us))
                        .collect();
                    let mut slow = Vec::new();
                    for &m in &cells {
                        if own.contains(&m) || !s.legal(m, us) {
                            continue;
                        }
                        s.board.make_light_move(m, us);
                        let new_shape = s
                            .four_shape_points(us)
                            .iter()
                            .any(|q| own.contains(q) && !before.contains(q));
                        s.board.undo_light_move();
                        if new_shape {
                            slow.push(m);
                        }
                    }
                    slow.sort();
                    assert_eq!(fast, slow, "{rule:?}");
                    checked += 1;
                    found += fast.len();
                })
            });
        }
    }
    assert!(
        checked >= 100 && found >= 100,
        "{checked} positions, {found} moves"
    );
}

/// Solves `b` with the VCT soundness tests' parameters (the four-shape threats on).
fn vct_solve(b: &Board, f: &mut dyn FnMut(&mut Searcher) -> bool) -> bool {
    let params = SearchParams {
        vct_shape_threats: true,
        ..SearchParams::default()
    };
    with_solver_params(b, &params, params.vcf_depth, None, |s| f(s))
}

/// Asserts that after the attacker's (`us`) first move `m` of a VCT of three attacker moves,
/// every legal reply of the defender (not only the defences the VCT tried) leaves the attacker
/// a five or a VCT of four.
fn assert_every_reply_loses(b: &Board, m: Pos, us: Color, what: &str) {
    let mut after = b.clone();
    after.make_move(m, us);
    for r in empties(&after) {
        let mut c = after.clone();
        if crate::rules::forbidden(&mut c, r, us.opponent()).is_some() {
            continue;
        }
        c.make_move(r, us.opponent());
        let wins = vct_solve(&c, &mut |s| {
            s.board.threat_count(us, ThreatSet::Five) > 0 || s.vct_move(4, 400_000).is_some()
        });
        assert!(
            wins,
            "{:?}: the reply {r:?} to {m:?} refutes the {what}",
            b.rule()
        );
    }
}

#[test]
fn a_vct_win_survives_every_reply_of_the_defender() {
    // Seeded random positions where the side to move has a VCT of three attacker moves (with
    // the four-shape threats) but no VCF: after its first move, every legal reply (not only
    // the defences the VCT tried) leaves the attacker a win.
    let solve = vct_solve;
    let (mut proved, mut quiet) = (0, 0);
    for (i, rule) in RULES.into_iter().enumerate() {
        for seed in 0..VCT_SOUNDNESS_SEEDS {
            random_positions(rule, 4000 + 1000 * i as u64 + seed, 40, |b| {
                let us = b.side_to_move();
                let mut first = None;
                solve(b, &mut |s| {
                    if !s.vcf_root(us) {
                        first = s.vct_move(3, 20_000);
                    }
                    false
                });
                let Some(m) = first else {
                    return;
                };
                let quiet_first = solve(b, &mut |s| !s.own_threat_points(us).contains(&m));
                if !quiet_first && proved >= 12 {
                    return;
                }
                assert_every_reply_loses(b, m, us, "VCT");
                proved += 1;
                quiet += quiet_first as usize;
            });
        }
    }
    assert!(proved >= 12, "only {proved} VCT wins checked");
    assert!(
        quiet >= 3,
        "only {quiet} VCT wins that start with a four-shape threat"
    );
}

#[test]
fn a_proof_number_vct_finds_the_depth_first_wins_and_each_survives_every_reply() {
    // Seeded random positions without a VCF where the depth-first VCT or the proof-number VCT
    // (three attacker moves, with the four-shape threats) wins: the proof-number search finds
    // every win of the depth-first one (same threats and replies, best-first), and after its
    // first move every legal reply (not only the defences it tried) leaves the attacker a win.
    let solve = vct_solve;
    let (mut found, mut proved, mut beyond, mut beyond_checked) = (0, 0, 0, 0);
    for (i, rule) in RULES.into_iter().enumerate() {
        for seed in 0..VCT_SOUNDNESS_SEEDS / 10 {
            random_positions(rule, 7000 + 1000 * i as u64 + seed, 40, |b| {
                let us = b.side_to_move();
                let (mut depth_first, mut best_first) = (None, None);
                solve(b, &mut |s| {
                    if !s.vcf_root(us) {
                        depth_first = s.vct_move(3, 200_000);
                        best_first = s.vct_move_pn(3, 200_000);
                    }
                    false
                });
                assert!(
                    depth_first.is_none() || best_first.is_some(),
                    "{rule:?}: the depth-first VCT wins with {depth_first:?}, the proof-number one finds nothing"
                );
                let Some(m) = best_first else {
                    return;
                };
                found += 1;
                beyond += depth_first.is_none() as usize;
                // Every reply is checked for the first four wins of each rule and its first
                // two beyond the depth-first VCT's.
                let check_beyond = depth_first.is_none() && beyond_checked < 2 * (i + 1);
                if proved >= 4 * (i + 1) && !check_beyond {
                    return;
                }
                beyond_checked += check_beyond as usize;
                assert_every_reply_loses(b, m, us, "proof-number VCT");
                proved += 1;
            });
        }
    }
    assert!(
        proved >= 12 && found >= 20,
        "only {proved} proof-number VCT wins checked of {found}"
    );
    assert!(
        beyond_checked >= 1,
        "no win beyond the depth-first VCT's ({beyond})"
    );
}

#[test]
fn a_six_that_one_point_completes_is_one_four() {
    // Freestyle `XX..XX`: either gap makes two four-stone sets that the other gap completes
    // (as a six): one four, no winning shape.
    let moves: Vec<Pos> = [
        (3, 7),
        (0, 0),
        (4, 7),
        (14, 14),
        (7, 7),
        (0, 14),
        (8, 7),
        (14, 0),
    ]
    .iter()
    .map(|&(x, y)| Pos::new(x, y).unwrap())
    .collect();
    let b = Board::with_moves(15, Rule::Freestyle, &moves).unwrap();
    with_searcher(&b, |s| {
        let gap = Pos::new(5, 7).unwrap();
        assert_eq!(
            s.board
                .pattern(gap, crate::core::Dir::Horizontal, Color::Black)
                .four_count(),
            1
        );
        assert!(s.win_shape_points(Color::Black).is_empty());
        assert!(s.four_shape_points(Color::Black).is_empty());
        assert!(!s.vcf_root(Color::Black));
    });
}

fn tactics() -> Vec<Board> {
    let path = format!("{}/tests/data/tactics.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON object");
            let rule: Rule = v["rule"].as_str().unwrap().parse().unwrap();
            let size = v["size"].as_u64().unwrap() as usize;
            let moves = parse_pos_string(v["moves"].as_str().unwrap(), size, size).unwrap();
            Board::with_moves(size, rule, &moves).unwrap()
        })
        .collect()
}

#[test]
fn the_local_vcf_finds_only_real_wins_and_most_of_the_fixtures() {
    let boards = tactics();
    let mut local_wins = 0;
    for b in &boards {
        let (local, full) = with_searcher(b, |s| {
            let us = s.board.side_to_move();
            (s.vcf_local(us), s.vcf_root(us))
        });
        assert!(full, "every fixture is a VCF win");
        local_wins += local as usize;
    }
    // Fixtures whose wins need a four away from the previous one are missed by design; the
    // shortcut must still find the great majority.
    assert!(
        local_wins * 10 >= boards.len() * 9,
        "the local VCF found {local_wins} of {}",
        boards.len()
    );
    let (mut positions, mut random_wins) = (0, 0);
    for (i, rule) in RULES.into_iter().enumerate() {
        for seed in 0..10 {
            random_positions(rule, 500 + 100 * i as u64 + seed, 50, |b| {
                let (local, full) = with_searcher(b, |s| {
                    let us = s.board.side_to_move();
                    (s.vcf_local(us), s.vcf_root(us))
                });
                assert!(!local || full, "a local VCF win that the full VCF denies");
                positions += 1;
                random_wins += local as usize;
            });
        }
    }
    assert!(positions > 500);
    // The soundness check above compared real wins, not only empty answers.
    assert!(random_wins >= 50, "only {random_wins} local VCF wins");
}

/// The horizon's VCF limited to its best fours (`horizon_vcf_width`) claims only wins that the
/// full VCF confirms, and still finds most of the fixtures' wins and some in random games.
#[test]
fn a_narrow_horizon_vcf_finds_only_real_wins() {
    for width in [1, 2] {
        let params = SearchParams {
            horizon_vcf_width: width,
            ..SearchParams::default()
        };
        let narrow = |b: &Board| {
            with_solver_params(b, &params, params.vcf_depth, None, |s| {
                s.vcf_horizon(s.board.side_to_move())
            })
        };
        let boards = tactics();
        let found = boards.iter().filter(|b| narrow(b)).count();
        assert!(
            found * 2 >= boards.len(),
            "width {width}: {found} of {} fixtures",
            boards.len()
        );
        let mut wins = 0;
        for (i, rule) in RULES.into_iter().enumerate() {
            for seed in 0..6 {
                random_positions(rule, 900 + 100 * i as u64 + seed, 50, |b| {
                    if narrow(b) {
                        let full = with_searcher(b, |s| s.vcf_root(s.board.side_to_move()));
                        assert!(
                            full,
                            "width {width}: a narrow VCF win that the full VCF denies"
                        );
                        wins += 1;
                    }
                });
            }
        }
        assert!(wins >= 100, "width {width}: only {wins} narrow VCF wins");
    }
}

#[test]
fn the_safety_net_rechecks_a_safe_move_with_a_grown_budget() {
    // From a lost game against PentaZen (freestyle): after white's (4,7) black has a VCT that
    // 4,000 nodes miss and 20,000 find.
    let moves: Vec<Pos> = [
        (7, 7),
        (8, 5),
        (8, 7),
        (7, 6),
        (6, 5),
        (6, 7),
        (9, 4),
        (5, 6),
        (5, 8),
        (9, 6),
        (10, 7),
        (4, 5),
        (3, 4),
        (4, 4),
        (6, 6),
        (4, 3),
        (4, 2),
        (5, 3),
        (6, 3),
        (9, 7),
        (8, 9),
        (8, 6),
    ]
    .iter()
    .map(|&(x, y)| Pos::new(x, y).unwrap())
    .collect();
    let b = Board::with_moves(15, Rule::Freestyle, &moves).unwrap();
    let bad = Pos::new(4, 7).unwrap();
    let params = SearchParams {
        safety_vct_nodes: 4_000,
        safety_vct_share_percent: 100,
        ..SearchParams::default()
    };
    with_solver_params(&b, &params, params.vcf_depth, None, |s| {
        // The fixed budget: found safe.
        assert!(!s.drops_unsafe_root_move(bad));
        // A budget under four times the last one: not checked again.
        s.nodes = 12_000;
        assert!(!s.drops_unsafe_root_move(bad));
        // Four times and more (the share of the nodes so far): checked again, and dropped.
        s.nodes = 40_000;
        assert!(s.drops_unsafe_root_move(bad));
        assert_eq!(s.dropped_root_moves(), &[bad]);
    });
}
