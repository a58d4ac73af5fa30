//! Canonical forms, single thread. `cargo bench -p shudu-core --bench canon`.
//!
//! Grids: 1,000 random grids. Puzzles: the first 2,000 of each shared data set. Uniform grids:
//! 1,000 drawn by `count::UniformGrids`.
#![allow(missing_docs)] // criterion_group! makes undocumented public functions

mod data;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shudu_core::canon::{canonical_grid, PuzzleCanonicalizer};
use shudu_core::grids::{random_grid, rng_for};

const SETS: [&str; 6] = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "generated_tdoku_minimal_100k",
];

fn canon(c: &mut Criterion) {
    let mut group = c.benchmark_group("canon");
    let grids: Vec<_> = (0..1000).map(|i| random_grid(&mut rng_for(3, i))).collect();
    canonical_grid(&grids[0]); // builds the band table outside the timing
    group.throughput(Throughput::Elements(grids.len() as u64));
    group.bench_function("grid_x1000", |b| {
        b.iter(|| {
            grids
                .iter()
                .map(|g| canonical_grid(g).automorphisms)
                .sum::<u64>()
        })
    });
    // Uniform grids (count::UniformGrids): the sampler and its band table built outside the
    // timing; its band-count memo warms up in the first iterations.
    let sampler = shudu_core::count::UniformGrids::get();
    let mut rng = rng_for(17, 0);
    group.throughput(Throughput::Elements(1000));
    group.bench_function("uniform_grid_x1000", |b| {
        b.iter(|| {
            (0..1000)
                .map(|_| sampler.sample(&mut rng).as_bytes()[80] as u64)
                .sum::<u64>()
        })
    });
    for set in SETS {
        let Some(mut puzzles) = data::load(set) else {
            continue;
        };
        puzzles.truncate(2000);
        let mut canon = PuzzleCanonicalizer::new();
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(format!("puzzle/{set}"), |b| {
            b.iter(|| {
                puzzles
                    .iter()
                    .map(|p| canon.canonical(p).automorphisms)
                    .sum::<u64>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, canon);
criterion_main!(benches);
