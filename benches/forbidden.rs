//! Full forbidden-point lists of the renju dev-set positions (black to move), from boards that are
//! already set up: the fast check, and the slow reference checker for the ratio.
//! One iteration = one position (cycling through the 1000), so the reported time is the mean per
//! position.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use omok::batch::parse_position;
use omok::rules::reference::{self, RefBoard};
use omok::rules::{ForbidChecker, ForbidOptions};
use omok::{Board, Color, Rule};

fn dev_set(file: &str, rule: Rule) -> Vec<(Board, Color)> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .expect("dev set")
        .lines()
        .map(|l| parse_position(l, rule).expect("dev position"))
        .collect()
}

fn bench(c: &mut Criterion) {
    for (file, rule) in [
        ("renju-forbid-dev.jsonl", Rule::Renju),
        ("korean-dev.jsonl", Rule::Korean),
    ] {
        let mut positions = dev_set(file, rule);
        let n = positions.len();
        let mut checker = ForbidChecker::new(ForbidOptions::default());
        let mut i = 0;
        c.bench_function(&format!("forbidden_points/{rule}/fast"), |b| {
            b.iter(|| {
                let (board, color) = &mut positions[i % n];
                i += 1;
                black_box(checker.all(board, *color).len())
            })
        });
        let mut refs: Vec<(RefBoard, Color)> = positions
            .iter()
            .map(|(b, c)| (RefBoard::from_board(b), *c))
            .collect();
        let mut j = 0;
        c.bench_function(&format!("forbidden_points/{rule}/reference"), |b| {
            b.iter(|| {
                let (board, color) = &mut refs[j % n];
                j += 1;
                black_box(
                    reference::forbidden_points(board, *color, rule, ForbidOptions::default())
                        .len(),
                )
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
