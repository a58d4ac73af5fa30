//! Guesses per puzzle and single-thread rate of the exact solver (solve plus uniqueness check)
//! on the shared data sets. A development probe behind the figures of BENCHMARKS.md: guess counts
//! are exact and repeatable; the rate uses this thread's CPU time, which is steadier than wall
//! time on a shared machine, but the criterion bench (`benches/solver.rs`) is the reference.
//!
//! `cargo run --release -p shudu-core --example solver_stats -- puzzles3_magictour_top1465`
//! (env `N` caps the puzzles per set, default 10000; `SHUDU_DATA` overrides the data folder).

use std::path::PathBuf;

/// Seconds this thread has spent on a CPU (Linux), or wall time elsewhere.
fn cpu_seconds(start: std::time::Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(|| start.elapsed().as_secs_f64(), |ns| ns / 1e9)
}

fn main() {
    let dir = std::env::var_os("SHUDU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    let cap: usize = std::env::var("N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    for name in std::env::args().skip(1) {
        let text = std::fs::read(dir.join(&name)).expect("data file");
        let puzzles: Vec<_> = shudu_core::format::Reader::new(&text)
            .map(|r| r.expect("data file parses").puzzle)
            .take(cap)
            .collect();
        let wall = std::time::Instant::now();
        let t0 = cpu_seconds(wall);
        let (mut guesses, mut solutions) = (0, 0);
        for p in &puzzles {
            let out = shudu_core::solver::count_solutions(p, 2);
            guesses += out.guesses;
            solutions += out.count;
        }
        let secs = cpu_seconds(wall) - t0;
        println!(
            "{name}: {} puzzles, {:.0}/s, {:.2} guesses/puzzle, {solutions} solutions (capped at 2 each)",
            puzzles.len(),
            puzzles.len() as f64 / secs,
            guesses as f64 / puzzles.len() as f64
        );
    }
}
