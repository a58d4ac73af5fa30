//! Grades the `qqwing-expert` rows of `se_calibration.tsv` (or the source named by
//! `LOGIC_SOURCE`) once each and prints the median time per puzzle and a checksum of the ratings.
//! Made for instruction counts: `valgrind --tool=callgrind target/release/examples/grade_probe`.
//! The data folder is `$SHUDU_DATA`, else `shared/data` next to the repository.
//! `LOGIC_PUZZLE=<81 chars>` grades only that puzzle (to profile one); the median puzzle is
//! printed. `LOGIC_REPEAT=N` grades each puzzle N times and keeps its fastest time (steadier
//! medians on a noisy machine; also for `perf record`). `LOGIC_ER=A..B` keeps the puzzles whose
//! SE rating in the file lies in that range (to profile the puzzles around the median).
//! `LOGIC_RATE=1` times [`rate`] (ratings only) instead of [`grade`] (ratings and the explained
//! path).

use std::time::Instant;

use shudu_core::logic::{grade, rate, Rating};
use shudu_core::Puzzle;

#[path = "common/calibration.rs"]
mod calibration;

fn main() {
    let (source, puzzles) = calibration::puzzles();
    let repeat: usize = std::env::var("LOGIC_REPEAT").map_or(1, |r| r.parse().expect("a count"));
    let puzzles: Vec<Puzzle> = match std::env::var("LOGIC_PUZZLE") {
        Ok(one) => vec![one.parse().expect("LOGIC_PUZZLE parses")],
        Err(_) => puzzles,
    };
    let ratings_only = std::env::var("LOGIC_RATE").is_ok_and(|v| v == "1");
    let run = |p: &Puzzle| -> (Rating, Rating, Rating) {
        if ratings_only {
            let r = rate(p);
            (r.er, r.ep, r.ed)
        } else {
            let g = grade(p);
            (g.er, g.ep, g.ed)
        }
    };
    let mut times = Vec::with_capacity(puzzles.len());
    let mut sum = 0u64;
    for p in &puzzles {
        let mut best = f64::MAX;
        let mut g = run(p);
        for _ in 0..repeat {
            let t = Instant::now();
            g = run(p);
            best = best.min(t.elapsed().as_secs_f64() * 1e6);
        }
        times.push((best, p));
        sum += u64::from(g.0 .0) * 10_000 + u64::from(g.1 .0) * 100 + u64::from(g.2 .0);
    }
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (median, median_puzzle) = times[times.len() / 2];
    let what = if ratings_only { "rate" } else { "grade" };
    println!(
        "{source} ({what}): {} puzzles, median {median:.1} µs ({median_puzzle}), total {:.1} ms, \
         rating checksum {sum}",
        puzzles.len(),
        times.iter().map(|t| t.0).sum::<f64>() / 1e3
    );
}
