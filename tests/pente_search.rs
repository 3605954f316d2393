//! The Pente practice opponent: Pente tactics (capture wins and line wins in two moves) found
//! by a slow exhaustive solver are solved by the search; the search is deterministic for a node
//! limit; every level and the 3–4 player greedy player only play legal moves.

use omok::pente::search::{PenteSearcher, capture_greedy_move, choose, greedy_move, level};
use omok::pente::{PenteRules, Position};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The exhaustive solver: a move of the seat to move that wins within `n` of its own moves
/// against every defence (all legal moves on both sides).
fn solve(pos: &mut Position, n: u32) -> Option<usize> {
    let me = pos.turn();
    for m in pos.legal_moves() {
        pos.play(m).unwrap();
        let wins = match pos.outcome() {
            Some(o) => o.winners == [me],
            None if n > 1 => {
                let defences = pos.legal_moves();
                !defences.is_empty()
                    && defences.into_iter().all(|d| {
                        pos.play(d).unwrap();
                        let ok = pos.outcome().is_none() && solve(pos, n - 1).is_some();
                        pos.undo();
                        ok
                    })
            }
            None => false,
        };
        pos.undo();
        if wins {
            return Some(m);
        }
    }
    None
}

/// Whether `m` wins within `n` moves for the seat to move (exhaustive).
fn move_wins(pos: &mut Position, m: usize, n: u32) -> bool {
    let me = pos.turn();
    if pos.play(m).is_err() {
        return false;
    }
    let wins = match pos.outcome() {
        Some(o) => o.winners == [me],
        None if n > 1 => pos.legal_moves().into_iter().all(|d| {
            pos.play(d).unwrap();
            let ok = pos.outcome().is_none() && solve(pos, n - 1).is_some();
            pos.undo();
            ok
        }),
        None => false,
    };
    pos.undo();
    wins
}

/// Dense random positions on 9×9 (stones in the central 7×7, some capture counts preset)
/// where the side to move wins in two moves but not in one.
fn tactics(count: usize) -> Vec<Position> {
    let rules = PenteRules {
        board_size: 9,
        ..PenteRules::default()
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut found = Vec::new();
    for _ in 0..400 {
        if found.len() == count {
            break;
        }
        let caps =
            [[0, 0, 0, 0], [6, 6, 0, 0], [8, 6, 0, 0], [6, 8, 0, 0]][(rng.next_u64() % 4) as usize];
        let mut pos = Position::setup(rules, &[0; 81], 0, caps).unwrap();
        let plies = 10 + rng.next_u64() % 14;
        for _ in 0..plies {
            let legal: Vec<usize> = pos
                .legal_moves()
                .into_iter()
                .filter(|&c| (1..8).contains(&(c % 9)) && (1..8).contains(&(c / 9)))
                .collect();
            if legal.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.play(legal[(rng.next_u64() % legal.len() as u64) as usize])
                .unwrap();
        }
        if pos.outcome().is_some() {
            continue;
        }
        // Keep it as a fresh position (no history) for the solver and the search.
        let fresh = Position::setup(rules, pos.cells(), pos.turn(), pos.captures()).unwrap();
        let mut p = fresh.clone();
        if solve(&mut p, 1).is_none() && solve(&mut p, 2).is_some() {
            found.push(fresh);
        }
    }
    found
}

#[test]
fn tactics_found_by_the_exhaustive_solver_are_solved() {
    let set = tactics(8);
    assert!(set.len() >= 6, "only {} tactics found", set.len());
    let mut captures = 0;
    for (i, pos) in set.iter().enumerate() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let m = PenteSearcher::new(level(5), None)
            .search(pos, &mut rng)
            .best
            .unwrap();
        let mut p = pos.clone();
        assert!(move_wins(&mut p, m, 2), "tactic {i}: {m} does not win");
        if pos.captures().iter().any(|&c| c >= 6) {
            captures += 1;
        }
    }
    assert!(captures > 0, "the set has capture-win tactics");
}

#[test]
fn the_search_is_deterministic_with_a_node_limit() {
    let mut pos = Position::new(PenteRules::default()).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for _ in 0..8 {
        let m = choose(&pos, level(2), None, &mut rng).unwrap();
        pos.play(m).unwrap();
    }
    let limits = omok::pente::search::PenteLimits {
        max_nodes: 3_000,
        ..level(5)
    };
    let a =
        PenteSearcher::new(limits, None).search(&pos, &mut Xoshiro256PlusPlus::seed_from_u64(0));
    let b =
        PenteSearcher::new(limits, None).search(&pos, &mut Xoshiro256PlusPlus::seed_from_u64(9));
    assert_eq!(a, b);
    assert!(a.nodes > 0 && a.nodes <= 3_000 + 1);
}

#[test]
fn every_level_plays_legal_moves_to_the_end_on_nine_by_nine() {
    let rules = PenteRules {
        board_size: 9,
        three_capture: true,
        suicide: omok::pente::Suicide::Forbidden,
        overline: omok::pente::Overline::Forbidden,
        extension: omok::pente::Extension::BreakLine,
        ..PenteRules::default()
    };
    for (a, b) in [(1u8, 2u8), (3, 1)] {
        let mut pos = Position::new(rules).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(a));
        while pos.outcome().is_none() {
            let l = if pos.turn() == 0 { a } else { b };
            let m = choose(&pos, level(l), None, &mut rng).expect("a move while playing");
            pos.play(m).expect("legal");
        }
    }
}

#[test]
fn greedy_players_never_play_illegal_moves() {
    for (players, teams, mixed) in [(3u8, false, true), (4, true, false), (4, false, true)] {
        let rules = PenteRules {
            board_size: 9,
            players,
            teams,
            mixed_capture: mixed,
            suicide: omok::pente::Suicide::Captured,
            ..PenteRules::default()
        };
        let mut pos = Position::new(rules).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        while pos.outcome().is_none() {
            let m = greedy_move(&mut pos, &mut rng).expect("a move");
            pos.play(m).expect("legal");
        }
    }
    let mut pos = Position::new(PenteRules {
        board_size: 9,
        ..PenteRules::default()
    })
    .unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    while pos.outcome().is_none() {
        let m = capture_greedy_move(&mut pos, &mut rng).expect("a move");
        pos.play(m).expect("legal");
    }
}

#[test]
fn full_strength_beats_the_capture_greedy_player_in_short_games() {
    // A CI-sized sample of the measurement in docs/pente.md (13×13, 4 games).
    let rules = PenteRules {
        board_size: 13,
        ..PenteRules::default()
    };
    let limits = omok::pente::search::PenteLimits {
        max_nodes: 8_000,
        ..level(5)
    };
    for g in 0..4u64 {
        let mut pos = Position::new(rules).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(g);
        let engine_seat = (g % 2) as u8;
        while pos.outcome().is_none() && pos.ply() < 169 {
            let m = if pos.turn() == engine_seat {
                choose(&pos, limits, None, &mut rng)
            } else {
                capture_greedy_move(&mut pos, &mut rng)
            }
            .unwrap();
            pos.play(m).unwrap();
        }
        assert_eq!(
            pos.outcome().map(|o| o.winners.clone()),
            Some(vec![engine_seat]),
            "game {g}"
        );
    }
}
