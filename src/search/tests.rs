//! The search's shortcuts against the plain versions they stand for: the local VCF of the
//! horizon against the full VCF, and the filtered defence sets (open threes, winning shapes)
//! against every empty point, on seeded random positions and the tactics fixtures.

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::alphabeta::Searcher;
use super::with_solver;
use crate::board::Board;
use crate::core::{Color, Pos};
use crate::notation::parse_pos_string;
use crate::params::SearchParams;
use crate::rule::Rule;

const RULES: [Rule; 3] = [Rule::Freestyle, Rule::Renju, Rule::Korean];

fn with_searcher<T>(board: &Board, f: impl FnOnce(&mut Searcher) -> T) -> T {
    with_solver(board, SearchParams::default().vcf_depth, None, f)
}

/// Seeded random games (stones near the others, a few anywhere) of up to `plies` moves; every
/// position along the way is given to `visit`.
fn random_positions(rule: Rule, seed: u64, plies: usize, mut visit: impl FnMut(&Board)) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pick = |n: usize| (rng.next_u64() % n as u64) as usize;
    let mut b = Board::square(15, rule).unwrap();
    let mut color = Color::Black;
    b.make_move(Pos::new(7, 7).unwrap(), color);
    color = color.opponent();
    for _ in 0..plies {
        if b.threat_count(Color::Black, crate::pattern::cell::ThreatSet::Five) > 0
            || b.threat_count(Color::White, crate::pattern::cell::ThreatSet::Five) > 0
        {
            break;
        }
        let near: Vec<Pos> = b.near_empties().collect();
        if near.is_empty() {
            break;
        }
        let p = near[pick(near.len())];
        if crate::rules::forbidden(&mut b, p, color).is_some() {
            continue;
        }
        b.make_move(p, color);
        color = color.opponent();
        visit(&b);
    }
}

/// Every legal point of `defender` after which the attacker has no legal straight-four point.
fn three_blocks_by_brute_force(s: &mut Searcher, defender: Color) -> Vec<Pos> {
    let attacker = defender.opponent();
    let empties: Vec<Pos> = s
        .board
        .positions()
        .filter(|&p| s.board.is_empty(p))
        .collect();
    let mut out = Vec::new();
    for p in empties {
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
    out.sort();
    out
}

#[test]
fn three_blocks_are_exactly_the_points_that_stop_every_open_three() {
    let mut checked = 0;
    for (i, rule) in RULES.into_iter().enumerate() {
        for seed in 0..12 {
            random_positions(rule, 100 * i as u64 + seed, 40, |b| {
                with_searcher(b, |s| {
                    let defender = s.board.side_to_move();
                    if !s.has_open_three(defender.opponent()) {
                        return;
                    }
                    let mut fast: Vec<Pos> = s.three_blocks(defender).into_iter().collect();
                    fast.sort();
                    assert_eq!(fast, three_blocks_by_brute_force(s, defender), "{rule:?}");
                    checked += 1;
                })
            });
        }
    }
    assert!(checked >= 50, "only {checked} positions with an open three");
}

#[test]
fn shape_defences_are_exactly_the_points_that_undo_every_winning_shape() {
    let mut checked = 0;
    for seed in 0..16 {
        random_positions(Rule::Freestyle, 1000 + seed, 40, |b| {
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
                let mut slow = Vec::new();
                let empties: Vec<Pos> = s
                    .board
                    .positions()
                    .filter(|&p| s.board.is_empty(p))
                    .collect();
                for p in empties {
                    if !s.legal(p, us) {
                        continue;
                    }
                    s.board.make_light_move(p, us);
                    let undone = s.win_shape_points(them).is_empty();
                    s.board.undo_light_move();
                    if undone || own.contains(&p) {
                        slow.push(p);
                    }
                }
                slow.sort();
                assert_eq!(fast, slow);
                checked += 1;
            })
        });
    }
    assert!(
        checked >= 20,
        "only {checked} positions with a winning shape"
    );
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
