//! Development probe: the rating distribution of random minimal puzzles, on one thread.
//!
//! `cargo run --release -p shudu-tools --example rated_stats -- [N] [SYMMETRY]`: generates N
//! minimal puzzles (orbit-minimal under SYMMETRY, default none), grades each, and prints the
//! histogram of ER per band and per whole point, with the time spent digging and grading.

use std::time::{Duration, Instant};

use shudu_core::generate::{generate_one, GenerateConfig, Symmetry};
use shudu_core::grids::rng_for;
use shudu_core::logic::{grade, Band};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|v| v.parse().ok()).unwrap_or(2000);
    let symmetry: Symmetry = args
        .get(2)
        .map(|s| s.parse().expect("a symmetry name"))
        .unwrap_or_default();
    let config = GenerateConfig {
        symmetry,
        ..GenerateConfig::default()
    };
    let mut rng = rng_for(2026, 0);
    let mut bands = [0usize; 6];
    let mut points = [0usize; 12];
    let (mut dig_time, mut grade_time) = (Duration::ZERO, Duration::ZERO);
    let mut made = 0;
    while made < n {
        let t = Instant::now();
        let Some(g) = generate_one(&config, &mut rng) else {
            continue;
        };
        dig_time += t.elapsed();
        let t = Instant::now();
        let r = grade(&g.puzzle);
        grade_time += t.elapsed();
        made += 1;
        bands[Band::ALL.iter().position(|&b| b == r.band).unwrap()] += 1;
        points[(r.er.0 / 10) as usize] += 1;
    }
    println!("{n} random minimal puzzles, symmetry {symmetry}");
    for (b, k) in Band::ALL.iter().zip(bands) {
        println!(
            "{:>10}: {k:>6} ({:.2}%)",
            b.name(),
            100.0 * k as f64 / n as f64
        );
    }
    for (p, k) in points.iter().enumerate() {
        if *k > 0 {
            println!("  ER {p}.x: {k:>6} ({:.2}%)", 100.0 * *k as f64 / n as f64);
        }
    }
    println!(
        "dig {:.3} ms/puzzle, grade {:.3} ms/puzzle",
        dig_time.as_secs_f64() * 1e3 / n as f64,
        grade_time.as_secs_f64() * 1e3 / n as f64
    );
}
