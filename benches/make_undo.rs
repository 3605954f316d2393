//! make+undo with all incremental updates (patterns, cell summaries, threat sets, potential sums),
//! and the light make+undo of the threat searches (patterns, line codes, threat sets), over every
//! empty point of a mid-game position of the renju dev set (one iteration = one make and one undo).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use omok::batch::parse_position;
use omok::{Color, Pos, Rule};

fn bench(c: &mut Criterion) {
    let path = format!(
        "{}/tests/data/renju-forbid-dev.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("dev set");
    for rule in [Rule::Renju, Rule::Freestyle] {
        let (mut board, _) = parse_position(text.lines().next().unwrap(), rule).unwrap();
        let empties: Vec<Pos> = board.positions().filter(|&p| board.is_empty(p)).collect();
        let mut i = 0;
        c.bench_function(&format!("make_undo/{rule}"), |b| {
            b.iter(|| {
                let p = empties[i % empties.len()];
                i += 1;
                board.make_move(black_box(p), Color::Black);
                black_box(board.undo_move())
            })
        });
        c.bench_function(&format!("make_undo_light/{rule}"), |b| {
            b.iter(|| {
                let p = empties[i % empties.len()];
                i += 1;
                board.make_light_move(black_box(p), Color::Black);
                black_box(board.undo_light_move())
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
