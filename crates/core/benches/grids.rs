//! Random complete grids, single thread: the band completion (`random_grid`) and the solver's
//! random descent it replaced (`descent_grid`). `cargo bench -p shudu-core --bench grids`.
#![allow(missing_docs)] // criterion_group! makes undocumented public functions

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shudu_core::grids::{descent_grid, random_grid, rng_for};

fn random_grids(c: &mut Criterion) {
    let mut group = c.benchmark_group("grids");
    group.throughput(Throughput::Elements(1000));
    let mut rng = rng_for(1, 0);
    group.bench_function("random_grid_x1000", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for _ in 0..1000 {
                acc = acc.wrapping_add(random_grid(&mut rng).as_bytes()[40] as u32);
            }
            acc
        })
    });
    // The generator before the band completion, for the before/after in one run.
    let mut rng = rng_for(1, 0);
    group.bench_function("descent_grid_x1000", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for _ in 0..1000 {
                acc = acc.wrapping_add(descent_grid(&mut rng).as_bytes()[40] as u32);
            }
            acc
        })
    });
    group.finish();
}

criterion_group!(benches, random_grids);
criterion_main!(benches);
