//! Development probe: time per puzzle of each difficulty band, on one thread.
//!
//! `cargo run --release -p shudu-tools --example rated_probe -- [N] [SECONDS] [BAND] [SYMMETRY] [GIVENS]`:
//! for each band (or only BAND), asks `generate_rated_batch` for N puzzles within SECONDS and
//! prints the time per puzzle, the grids tried and the givens. With `RATED_REJECT=1` it measures
//! the baseline instead: `generate_batch` with a band filter (dig and grade until lucky).

use std::time::Duration;

use shudu_core::generate::{generate_batch, GenerateConfig, Symmetry};
use shudu_core::logic::Band;
use shudu_core::rated::{generate_rated_batch, RatedConfig};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|v| v.parse().ok()).unwrap_or(20);
    let secs: f64 = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(60.0);
    let only: Option<Band> = args
        .get(3)
        .filter(|s| *s != "all")
        .map(|s| s.parse().expect("a band"));
    let symmetry: Symmetry = args
        .get(4)
        .map(|s| s.parse().expect("a symmetry"))
        .unwrap_or_default();
    let exact: Option<usize> = args.get(5).map(|s| s.parse().expect("a number of givens"));
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .expect("one thread");
    for band in Band::ALL {
        if only.is_some_and(|b| b != band) {
            continue;
        }
        let base = GenerateConfig {
            symmetry,
            givens: exact.map(|k| (k, k)),
            ..GenerateConfig::default()
        };
        if std::env::var_os("RATED_REJECT").is_some() {
            // The baseline: dig and grade until one lands in the band (no local search).
            let config = GenerateConfig {
                band: Some(band),
                ..base
            };
            let batch = generate_batch(&config, n, 1, Some(Duration::from_secs_f64(secs)), &|_| {})
                .expect("a valid config");
            let m = batch.puzzles.len();
            let secs = batch.elapsed.as_secs_f64();
            println!(
                "{:>10} {symmetry} (rejection): found {m} of {n} in {secs:.2} s: {:.4} s/puzzle, {:.1} grids/puzzle",
                band.name(),
                secs / m.max(1) as f64,
                batch.attempts as f64 / m.max(1) as f64,
            );
            continue;
        }
        let config = RatedConfig::band(base, band);
        let batch =
            generate_rated_batch(&config, n, 1, Some(Duration::from_secs_f64(secs)), &|_| {})
                .expect("a valid config");
        let m = batch.puzzles.len();
        let givens: Vec<usize> = batch
            .puzzles
            .iter()
            .map(|(g, _)| g.puzzle.givens())
            .collect();
        let mean_givens = givens.iter().sum::<usize>() as f64 / m.max(1) as f64;
        let secs = batch.elapsed.as_secs_f64();
        println!(
            "{:>10} {symmetry} givens {exact:?}: found {m} of {n} in {secs:.2} s: {:.4} s/puzzle, {:.1} grids/puzzle, {mean_givens:.1} givens",
            band.name(),
            secs / m.max(1) as f64,
            batch.grids as f64 / m.max(1) as f64,
        );
    }
}
