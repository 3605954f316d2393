//! VCT tactics: 38 positions (freestyle, standard, renju; 15×15) where the side to move wins by
//! continuous threats (fours and open threes) but has no VCF. Made by self-play with seeded
//! practice levels and kept when the threat solver proved a win and the full engine saw it.
//!
//! Checks, per position: the moves replay legally with no five on the board; no VCF exists (so the
//! position really needs threes); `solve_vct` proves a first move; that move is legal and makes a
//! threat; and against **every** legal reply of the defender — not only the replies the solver
//! considers — the attacker still has a proved win (`solve_vct`, which tries a VCF first). Last, the
//! engine finds a win within its node budget, and the VCT one ply above the horizon
//! (`vct_frontier_depth`) lets a depth-3 search prove wins it misses without it.

use std::sync::Arc;

use omok::engine::{Engine, Limits};
use omok::notation::parse_pos_string;
use omok::params::Params;
use omok::rules::{check_move, find_five, winning_line};
use omok::search::{NoInfo, SearchResult, WIN_THRESHOLD, solve_vcf, solve_vct};
use omok::time::{Budget, FakeClock};
use omok::{Board, Color, Rule};
use serde_json::Value;

/// Nodes the engine may use per position.
const ENGINE_NODES: u64 = 300_000;

fn positions() -> Vec<(String, Board, Color)> {
    let path = format!(
        "{}/tests/data/tactics-vct.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let id = v["id"].as_str().unwrap().to_string();
            let rule: Rule = v["rule"].as_str().unwrap().parse().unwrap();
            let size = v["size"].as_u64().unwrap() as usize;
            let mut b = Board::square(size, rule).unwrap();
            for p in parse_pos_string(v["moves"].as_str().unwrap(), size, size).unwrap() {
                let c = b.side_to_move();
                check_move(&mut b, p, c).unwrap_or_else(|e| panic!("{id}: {e}"));
                b.make_move(p, c);
            }
            assert!(find_five(&b).is_none(), "{id}: decided already");
            let winner = if v["winner"] == "black" {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(b.side_to_move(), winner, "{id}: the winner moves");
            (id, b, winner)
        })
        .collect()
}

/// Whether `color`, to move on `b`, has a point completing a winning line.
fn has_completion(b: &Board, color: Color) -> bool {
    b.positions().filter(|&p| b.is_empty(p)).any(|p| {
        let mut c = b.clone();
        c.make_move(p, color);
        winning_line(&c, p).is_some()
    })
}

#[test]
fn vct_positions_need_threes_and_survive_every_reply() {
    let positions = positions();
    assert!(positions.len() >= 30);
    for (id, board, attacker) in &positions {
        assert!(solve_vcf(board, 12, 100_000).is_none(), "{id}: has a VCF");
        let m = solve_vct(board, 4, 50_000).unwrap_or_else(|| panic!("{id}: no VCT found"));
        let mut b = board.clone();
        check_move(&mut b, m, *attacker).unwrap_or_else(|e| panic!("{id}: {e}"));
        b.make_move(m, *attacker);
        assert!(
            winning_line(&b, m).is_none(),
            "{id}: a VCT position cannot be won at once"
        );
        let defender = attacker.opponent();
        // A threat: after any quiet reply the attacker wins at once or makes a straight four, so
        // some reply must matter; check every legal one.
        let replies: Vec<_> = b.positions().filter(|&p| b.is_empty(p)).collect();
        for r in replies {
            if check_move(&mut b, r, defender).is_err() {
                continue;
            }
            b.make_move(r, defender);
            let defender_won = winning_line(&b, r).is_some();
            let attacker_wins = !defender_won
                && (has_completion(&b, *attacker) || solve_vct(&b, 3, 200_000).is_some());
            assert!(
                attacker_wins,
                "{id}: after {m:?}, the reply {r:?} holds\n{b:?}"
            );
            b.undo_move();
        }
    }
}

/// The engine's search of `board` with `params` under a node or depth limit and a fake clock.
fn engine_search(
    board: &Board,
    params: Params,
    max_nodes: Option<u64>,
    max_depth: Option<u32>,
) -> SearchResult {
    let mut e = Engine::new(params, Arc::new(FakeClock::default()));
    e.set_rule(board.rule()).unwrap();
    e.set_position(board.history()).unwrap();
    let limits = Limits {
        budget: Budget {
            optimum_ms: u64::MAX / 4,
            maximum_ms: u64::MAX / 4,
        },
        max_nodes,
        max_depth,
    };
    e.go(&limits, &mut NoInfo)
}

#[test]
fn engine_finds_every_vct_win() {
    for (id, board, _) in positions() {
        let r = engine_search(&board, Params::default(), Some(ENGINE_NODES), None);
        assert!(r.info.score > WIN_THRESHOLD, "{id}: {r:?}");
        let mut b = board.clone();
        let c = b.side_to_move();
        assert!(check_move(&mut b, r.best.unwrap(), c).is_ok(), "{id}");
    }
}

/// How many fixture wins a depth-3 search proves with the root VCT off, with the frontier VCT
/// (`vct_frontier_depth`, one ply above the horizon) set to `frontier` attacker moves and the
/// threat extension (`threat_extension_moves`) to `extension` defences (0: off).
fn depth3_wins(frontier: u32, extension: u32) -> usize {
    depth3_wins_bounded(frontier, extension, 0)
}

/// [`depth3_wins`] with the threat extension only at nodes with at most `max_depth` plies left
/// (`threat_extension_max_depth`; 0: at any depth).
fn depth3_wins_bounded(frontier: u32, extension: u32, max_depth: i32) -> usize {
    depth3_wins_with(|p| {
        p.search.threat_extension_moves = extension;
        p.search.threat_extension_max_depth = max_depth;
        p.search.vct_frontier_depth = frontier;
    })
}

/// How many fixture wins a depth-3 search proves with the root VCT off and the search
/// parameters as `set` leaves them.
fn depth3_wins_with(set: impl Fn(&mut Params)) -> usize {
    let mut found = 0;
    for (id, board, _) in positions() {
        let mut params = Params::default();
        params.search.vct_depth = 0;
        params.search.vct_frontier_nodes = 2_000;
        set(&mut params);
        let r = engine_search(&board, params, None, Some(3));
        if r.info.score > WIN_THRESHOLD {
            let mut b = board.clone();
            let c = b.side_to_move();
            assert!(check_move(&mut b, r.best.unwrap(), c).is_ok(), "{id}");
            found += 1;
        }
    }
    found
}

#[test]
fn the_frontier_vct_proves_wins_a_shallow_search_misses() {
    let (plain, frontier) = (depth3_wins(0, 0), depth3_wins(3, 0));
    // The plain search proves the wins that a forced shape settles (a four-three or double
    // three with no opponent four); the frontier VCT proves the longer ones on top of those.
    assert!(
        plain + 8 <= frontier,
        "depth 3: {plain} wins without the frontier VCT, {frontier} with it (of 38)"
    );
}

#[test]
fn the_threat_extension_proves_wins_a_shallow_search_misses() {
    let (plain, extended) = (depth3_wins(0, 0), depth3_wins(0, 4));
    // Answers to open threes and winning shapes with few defences do not use up depth, so a
    // nominal depth of 3 follows threat sequences several attacker moves long (13 and 25 of 38
    // when the extension was made the default).
    assert!(
        plain + 8 <= extended,
        "depth 3: {plain} wins without the threat extension, {extended} with it (of 38)"
    );
}

#[test]
fn the_threat_extension_can_be_kept_near_the_horizon() {
    let unbounded = depth3_wins(0, 4);
    let bounds = [1, 2, 3].map(|d| depth3_wins_bounded(0, 4, d));
    // A bound at the search's depth bounds nothing; below it the free replies near the root
    // use depth again and some longer sequences are no longer proved.
    assert_eq!(bounds[2], unbounded, "bounds 1, 2, 3: {bounds:?}");
    assert!(
        bounds[0] < unbounded,
        "bounds 1, 2, 3: {bounds:?}, unbounded {unbounded}"
    );
    assert!(
        bounds[0] <= bounds[1] && bounds[1] <= bounds[2],
        "{bounds:?}"
    );
}

#[test]
fn paying_back_free_replies_keeps_the_threat_sequences() {
    // After a free reply only the attacker's quiet moves pay the ply back: its fours and open
    // threes go on for free, so the threat sequences a depth-3 search proves are all still
    // proved.
    let extended = depth3_wins(0, 4);
    let paid = depth3_wins_with(|p| p.search.free_reply_payback = true);
    assert_eq!(paid, extended, "of 38");
}
