//! Solve plus uniqueness check (count up to 2), single thread, per data set.
//! `cargo bench -p shudu-core --bench solver`; figures in BENCHMARKS.md.
#![allow(missing_docs)] // criterion_group! makes undocumented public functions

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shudu_core::solver::count_solutions;

#[path = "data.rs"]
mod data;

const SETS: &[&str] = &[
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "generated_tdoku_minimal_100k",
];

fn solve_and_check_uniqueness(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve_unique");
    group.sample_size(10);
    for &name in SETS {
        let Some(mut puzzles) = data::load(name) else {
            continue;
        };
        // Big sets are cut to 10,000 puzzles so one iteration stays short.
        puzzles.truncate(10_000);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut total = 0;
                for p in &puzzles {
                    total += count_solutions(p, 2).count;
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, solve_and_check_uniqueness);
criterion_main!(benches);
