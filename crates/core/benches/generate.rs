//! Puzzle generation, single thread: puzzles per second for each kind of request.
//! `cargo bench -p shudu-core --bench generate`; figures in BENCHMARKS.md ("Puzzle generation").
#![allow(missing_docs)] // criterion_group! makes undocumented public functions

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shudu_core::generate::{generate_one, GenerateConfig, Symmetry};
use shudu_core::grids::rng_for;

/// Times `per_iter` puzzles for `config`, each retried on one stream until it succeeds (as
/// `generate_batch` does for one item).
fn bench(c: &mut Criterion, name: &str, config: GenerateConfig, per_iter: u64) {
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    group.throughput(Throughput::Elements(per_iter));
    let mut rng = rng_for(11, 0);
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut made = 0;
            while made < per_iter {
                if generate_one(&config, &mut rng).is_some() {
                    made += 1;
                }
            }
            made
        })
    });
    group.finish();
}

fn generation(c: &mut Criterion) {
    let plain = GenerateConfig::default();
    bench(
        c,
        "minimal",
        GenerateConfig {
            minimal: true,
            ..plain.clone()
        },
        200,
    );
    bench(
        c,
        "rot180",
        GenerateConfig {
            symmetry: Symmetry::Rot180,
            ..plain.clone()
        },
        200,
    );
    bench(
        c,
        "givens_30",
        GenerateConfig {
            givens: Some((30, 30)),
            ..plain.clone()
        },
        200,
    );
    bench(
        c,
        "givens_22",
        GenerateConfig {
            givens: Some((22, 22)),
            ..plain.clone()
        },
        20,
    );
    bench(
        c,
        "givens_20",
        GenerateConfig {
            givens: Some((20, 20)),
            ..plain
        },
        2,
    );
}

criterion_group!(benches, generation);
criterion_main!(benches);
