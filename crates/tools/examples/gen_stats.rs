//! Development probe: puzzles per second and givens of each kind of request, on one thread.
//!
//! `cargo run --release -p shudu-tools --example gen_stats -- [N] [SECONDS]`: for each config,
//! asks `generate_batch` for N puzzles within SECONDS and prints the rate and the givens.

use std::time::Duration;

use shudu_core::generate::{generate_batch, GenerateConfig, Symmetry};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|v| v.parse().ok()).unwrap_or(2000);
    let secs: f64 = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(10.0);
    let only = args.get(3).cloned();
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .expect("one thread");
    let configs = [
        (
            "minimal",
            GenerateConfig {
                minimal: true,
                ..GenerateConfig::default()
            },
        ),
        (
            "rot180",
            GenerateConfig {
                symmetry: Symmetry::Rot180,
                ..GenerateConfig::default()
            },
        ),
        (
            "givens_30",
            GenerateConfig {
                givens: Some((30, 30)),
                ..GenerateConfig::default()
            },
        ),
        (
            "givens_22",
            GenerateConfig {
                givens: Some((22, 22)),
                ..GenerateConfig::default()
            },
        ),
        (
            "givens_21",
            GenerateConfig {
                givens: Some((21, 21)),
                ..GenerateConfig::default()
            },
        ),
        (
            "givens_20",
            GenerateConfig {
                givens: Some((20, 20)),
                ..GenerateConfig::default()
            },
        ),
        (
            "givens_19",
            GenerateConfig {
                givens: Some((19, 19)),
                ..GenerateConfig::default()
            },
        ),
    ];
    for (name, config) in configs {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let batch = generate_batch(&config, n, 3, Some(Duration::from_secs_f64(secs)), &|_| {})
            .expect("valid config");
        let found = batch.puzzles.len();
        let givens: usize = batch.puzzles.iter().map(|g| g.puzzle.givens()).sum();
        println!(
            "{name:10} {found:6} of {n} in {:6.2} s: {:9.1} puzzles/s, {:6.1} grids/puzzle, mean givens {:.2}",
            batch.elapsed.as_secs_f64(),
            found as f64 / batch.elapsed.as_secs_f64(),
            batch.attempts as f64 / found.max(1) as f64,
            givens as f64 / found.max(1) as f64,
        );
    }
}
