//! Threat search over the positions of `tests/data/tactics.jsonl` (forced wins by continuous
//! fours, all three rules, 15×15 and 20×20): `solve_vcf` at the fixtures' depth and node limits,
//! and `Engine::go` at depth 4 with 1 thread, a fixed 1 MiB table cleared before each search and
//! a fake clock; and `solve_vct` (depth 4, 50 000 nodes, as in tests/tactics_vct.rs) over
//! `tests/data/tactics-vct.jsonl` (wins that need open threes). One iteration = one position,
//! cycling through the file, so the reported time is the mean per position.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use omok::engine::{Engine, Limits};
use omok::notation::parse_pos_string;
use omok::params::Params;
use omok::search::{NoInfo, solve_vcf, solve_vct};
use omok::time::{Budget, FakeClock};
use omok::{Board, Rule};

/// The positions of one fixture file, in file order.
fn tactics(file: &str) -> Vec<Board> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .expect("tactics file")
        .lines()
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

fn bench(c: &mut Criterion) {
    let vct_boards = tactics("tactics-vct.jsonl");
    let mut k = 0;
    c.bench_function("solve_vct/tactics-vct", |b| {
        b.iter(|| {
            let board = &vct_boards[k % vct_boards.len()];
            k += 1;
            black_box(solve_vct(board, 4, 50_000))
        })
    });

    let boards = tactics("tactics.jsonl");
    let n = boards.len();
    let mut i = 0;
    c.bench_function("solve_vcf/tactics", |b| {
        b.iter(|| {
            let board = &boards[i % n];
            i += 1;
            black_box(solve_vcf(board, 12, 200_000).map(|line| line.len()))
        })
    });

    let limits = Limits {
        budget: Budget {
            optimum_ms: u64::MAX / 2,
            maximum_ms: u64::MAX / 2,
        },
        max_nodes: None,
        max_depth: Some(4),
    };
    let mut engines: Vec<Engine> = boards
        .iter()
        .map(|board| {
            let mut e = Engine::new(Params::default(), Arc::new(FakeClock::default()));
            e.set_threads(1);
            e.set_memory(1 << 20, 0);
            e.set_rule(board.rule()).unwrap();
            e.new_game(board.width(), board.height()).unwrap();
            e.set_position(board.history()).unwrap();
            e
        })
        .collect();
    let mut j = 0;
    c.bench_function("engine_go_depth4/tactics", |b| {
        b.iter(|| {
            let e = &mut engines[j % n];
            j += 1;
            e.clear_hash();
            black_box(e.go(&limits, &mut NoInfo).best)
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
