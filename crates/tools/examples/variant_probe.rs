//! Time to make variant puzzles, and to solve them, with the general engine (docs/variants.md);
//! `scripts/bench --only variants` runs it for BENCHMARKS.md.
//!
//! `variant_probe generate SIZE COUNT [x] [windoku] [anti-knight] [anti-king] [jigsaw]
//! [jigsaw-each] [killer=MAX] [cages-only] [givens=LOW] [minimal]`: COUNT puzzles, seeds 0..COUNT, a deadline of 60 s each; prints
//! `puzzles cpu_seconds median_ms max_ms mean_givens` (the total in CPU time, each puzzle's in
//! wall time: the kernel's CPU clock here ticks every 4 ms, too coarse for one puzzle).
//!
//! `variant_probe solve SIZE COUNT [rules...]`: makes COUNT puzzles, then times counting each
//! one's solutions to 2 (best of 3 measurements of at least 0.2 s); prints `puzzles cpu_seconds puzzles_per_second
//! guesses_per_puzzle`.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use shudu_core::variant::{
    count_solutions, generate, generate_jigsaw, random_regions, Rules, VariantConfig,
    VariantPuzzle, VariantSolver,
};

fn cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args[1].as_str();
    let n: usize = args[2].parse().expect("SIZE");
    let count: u64 = args[3].parse().expect("COUNT");
    let mut rules = Rules::classic(n).expect("a size with boxes");
    let mut config = VariantConfig::new(&rules);
    let mut fresh_layouts = false;
    for a in &args[4..] {
        match a.as_str() {
            "jigsaw-each" => fresh_layouts = true,
            "x" => rules = rules.with_diagonals(),
            "windoku" => rules = rules.with_windoku().expect("size 9"),
            "anti-knight" => rules = rules.with_anti_knight(),
            "anti-king" => rules = rules.with_anti_king(),
            "jigsaw" => {
                let mut rng = rand::rngs::StdRng::seed_from_u64(1);
                rules = rules
                    .with_regions(random_regions(n, &mut rng))
                    .expect("regions");
            }
            "cages-only" => config.givens = (0, 0),
            "minimal" => config.minimal = true,
            g if g.starts_with("givens=") => {
                let lo: usize = g[7..].parse().expect("givens=LOW");
                config.givens = (lo, n * n);
            }
            k if k.starts_with("killer=") => {
                config.killer = Some(k[7..].parse().expect("killer=MAX"))
            }
            other => panic!("unknown rule {other}"),
        }
    }
    if config.killer.is_some() && config.givens != (0, 0) {
        config.givens = (0, n * n);
    }
    let start = cpu();
    let mut times = Vec::new();
    let mut puzzles: Vec<VariantPuzzle> = Vec::new();
    for seed in 0..count {
        let t = Instant::now();
        let deadline = Instant::now() + Duration::from_secs(60);
        let p = if fresh_layouts {
            // A layout of its own for each puzzle, as `shudu generate --variant jigsaw` makes.
            generate_jigsaw(&rules, &config, seed, deadline)
        } else {
            generate(&rules, &config, seed, deadline)
        }
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        times.push(t.elapsed().as_secs_f64());
        puzzles.push(p);
    }
    let spent = cpu() - start;
    if mode == "generate" {
        times.sort_by(f64::total_cmp);
        let givens: usize = puzzles.iter().map(VariantPuzzle::givens).sum();
        println!(
            "{count} {spent:.3} {:.2} {:.2} {:.1}",
            times[times.len() / 2] * 1e3,
            times[times.len() - 1] * 1e3,
            givens as f64 / count as f64
        );
        return;
    }
    // Killer puzzles carry their own cages; every other kind shares one set of rules.
    let solver = VariantSolver::new(puzzles[0].rules());
    let count2 = |p: &VariantPuzzle| {
        if config.killer.is_some() {
            count_solutions(p, 2)
        } else {
            solver.count(p.cells(), 2)
        }
    };
    // Passes enough to fill 0.2 s a measurement (the CPU clock ticks every 4 ms), best of 3.
    let t = Instant::now();
    assert!(puzzles.iter().all(|p| count2(p).count == 1));
    let reps = (0.2 / t.elapsed().as_secs_f64().max(1e-6)).ceil() as usize;
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = cpu();
        for _ in 0..reps {
            let unique = puzzles.iter().filter(|p| count2(p).count == 1).count();
            assert_eq!(unique, puzzles.len());
        }
        best = best.min((cpu() - t) / reps as f64);
    }
    let guesses: u64 = puzzles.iter().map(|p| count2(p).guesses).sum();
    println!(
        "{} {best:.4} {:.0} {:.1}",
        puzzles.len(),
        puzzles.len() as f64 / best,
        guesses as f64 / puzzles.len() as f64
    );
}
