//! The `forbid` batch path (`pbrain-omok forbid`): JSON line in, board set up, forbidden points,
//! JSON line out — the renju and korean dev sets as one stream through a [`ForbidBatch`], and
//! the one-line-at-a-time [`forbid_line`] for comparison. One iteration = one line (cycling
//! through the set), so the reported time is the mean per position; the throughput is in
//! positions per second. `parallel` judges the whole set per iteration on all cores, as the
//! `forbid` command does with a stream of waiting lines ([`judge_parallel`]).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use omok::Rule;
use omok::batch::{ForbidBatch, forbid_line, judge_parallel};
use omok::rules::ForbidOptions;

fn dev_lines(file: &str) -> Vec<String> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .expect("dev set")
        .lines()
        .map(str::to_string)
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("forbid_batch");
    group.throughput(Throughput::Elements(1));
    for (file, rule) in [
        ("renju-forbid-dev.jsonl", Rule::Renju),
        ("korean-dev.jsonl", Rule::Korean),
    ] {
        let lines = dev_lines(file);
        let n = lines.len();
        let mut batch = ForbidBatch::new(rule, ForbidOptions::default());
        let mut out = String::new();
        let mut i = 0;
        group.bench_function(format!("{rule}/stream"), |b| {
            b.iter(|| {
                out.clear();
                batch.judge(&lines[i % n], &mut out);
                i += 1;
                black_box(out.len())
            })
        });
        let mut j = 0;
        group.bench_function(format!("{rule}/single_line"), |b| {
            b.iter(|| {
                let answer = forbid_line(&lines[j % n], rule, ForbidOptions::default());
                j += 1;
                black_box(answer.len())
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("forbid_batch_parallel");
    for (file, rule) in [
        ("renju-forbid-dev.jsonl", Rule::Renju),
        ("korean-dev.jsonl", Rule::Korean),
    ] {
        let lines = dev_lines(file);
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        group.throughput(Throughput::Elements(refs.len() as u64));
        let mut out = String::new();
        group.bench_function(format!("{rule}/parallel"), |b| {
            b.iter(|| {
                out.clear();
                judge_parallel(&refs, rule, ForbidOptions::default(), &mut out);
                black_box(out.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
