//! Guesses per puzzle and single-thread rate of the exact solver (solve plus uniqueness check)
//! on the shared data sets. A development probe behind the figures of BENCHMARKS.md: guess counts
//! are exact and repeatable; the rate uses this thread's CPU time, which is steadier than wall
//! time on a shared machine, but the criterion bench (`benches/solver.rs`) is the reference.
//!
//! `cargo run --release -p shudu-tools --example solver_stats -- puzzles3_magictour_top1465`
//! (env `N` caps the puzzles per set, default 10000; `SHUDU_DATA` overrides the data folder;
//! `LIMIT=1` times first-solution mode).

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
    // LIMIT=1 times first-solution mode; the default is solve plus uniqueness (count up to 2).
    let limit: usize = std::env::var("LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    for name in std::env::args().skip(1) {
        let full = std::fs::read(dir.join(&name)).expect("data file");
        // The first `cap` puzzle lines (the sets are line files): parsing them is part of the
        // timed library call, as it is for `Sudoku::from_str_line` in the peers' harnesses.
        let mut text = Vec::new();
        for line in full
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty() && l[0] != b'#')
            .take(cap)
        {
            text.extend_from_slice(line);
            text.push(b'\n');
        }
        let text = &text[..];
        // REPS=k keeps the fastest of k runs (the least disturbed on a shared machine).
        let reps: usize = std::env::var("REPS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        let (mut secs, mut guesses, mut solutions, mut puzzles) = (f64::INFINITY, 0, 0, 0);
        for _ in 0..reps {
            let wall = std::time::Instant::now();
            let t0 = cpu_seconds(wall);
            (guesses, solutions, puzzles) = (0, 0, 0);
            for r in shudu_core::format::Reader::new(text) {
                let p = r.expect("data file parses").puzzle;
                let out = shudu_core::solver::count_solutions(&p, limit);
                guesses += out.guesses;
                solutions += out.count;
                puzzles += 1;
            }
            secs = secs.min(cpu_seconds(wall) - t0);
        }
        println!(
            "{name}: {puzzles} puzzles, {:.0}/s (parse + count to {limit}), {:.2} guesses/puzzle, {solutions} solutions",
            puzzles as f64 / secs,
            guesses as f64 / puzzles as f64
        );
    }
}
