//! Generation by difficulty, single thread: time per puzzle for each band (and a few
//! constrained requests). `cargo bench -p shudu-core --bench rated`; figures in
//! BENCHMARKS.md ("Puzzles by difficulty band").
#![allow(missing_docs)] // criterion_group! makes undocumented public functions

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shudu_core::generate::{GenerateConfig, Symmetry};
use shudu_core::grids::rng_for;
use shudu_core::logic::Band;
use shudu_core::rated::{generate_rated, RatedConfig};

/// Times `per_iter` puzzles for `config`, each from its own stream (as one batch item is).
fn bench(c: &mut Criterion, name: &str, config: RatedConfig, per_iter: u64) {
    let mut group = c.benchmark_group("rated");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(per_iter));
    let mut item = 0;
    group.bench_function(name, |b| {
        b.iter(|| {
            for _ in 0..per_iter {
                item += 1;
                generate_rated(&config, &mut rng_for(11, item), None).expect("found");
            }
        })
    });
    group.finish();
}

fn rated(c: &mut Criterion) {
    let plain = GenerateConfig::default();
    for (band, per_iter) in [
        (Band::Easy, 50),
        (Band::Medium, 50),
        (Band::Hard, 50),
        (Band::Fiendish, 20),
        (Band::Diabolical, 20),
        (Band::Extreme, 2),
    ] {
        bench(
            c,
            band.name(),
            RatedConfig::band(plain.clone(), band),
            per_iter,
        );
    }
    let rot180 = GenerateConfig {
        symmetry: Symmetry::Rot180,
        ..plain.clone()
    };
    bench(
        c,
        "diabolical_rot180",
        RatedConfig::band(rot180, Band::Diabolical),
        10,
    );
    let givens_24 = GenerateConfig {
        givens: Some((24, 24)),
        ..plain
    };
    bench(
        c,
        "diabolical_givens_24",
        RatedConfig::band(givens_24, Band::Diabolical),
        10,
    );
}

criterion_group!(benches, rated);
criterion_main!(benches);
