//! Development probe for the vicinity hunt of `rated` (issue 18, docs/rated.md).
//!
//! `cargo run -p shudu-tools --example vicinity_probe -- COMMAND ...`:
//! - `corr FILE...`: the proxy (`PROXY`, see [`proxy`]) by SE's ER class over TSV files of SE's
//!   ratings (`puzzle<TAB>source<TAB>er...`), and Spearman's correlation;
//! - `climb N MOVES STALL SLACK`: N walks on the proxy from digs, with the best puzzle rated;
//! - `draw N`: N random minimal puzzles, how many T&E(1) leaves stuck, by passes score;
//! - `hunt N SECONDS LO [FIRST]`: N hunts (seeds `rng_for(2029, FIRST..FIRST + N)`) for a rating
//!   of LO (tenths) or more, each with SECONDS of wall-clock time;
//! - `batch N SECONDS LO HI`: `generate_rated_batch` on one thread for ratings LO..HI (tenths),
//!   as `shudu generate --rating --threads 1` runs it: time per puzzle and ratings.

use std::time::Instant;

use rand::RngCore;
use shudu_core::generate::{generate_one, GenerateConfig, Symmetry};
use shudu_core::grids::rng_for;
use shudu_core::logic::{rate, Band, Rating};
use shudu_core::rated::trial::{passes, Inner};
use shudu_core::rated::vicinity::{
    climb, hardness, hardness_above, hunt, plus_stuck, te1_left, te1_passes, HuntStats, Scored,
    STUCK,
};
use shudu_core::rated::RatedConfig;
use shudu_core::solver::Solver;
use shudu_core::Puzzle;

/// The measure `PROXY` names: `guesses` (the exact solver's, on the puzzle and its transpose),
/// `te1` (cells T&E(1) leaves open), `plus` (1 if T&E(1) with the basic techniques and forcing
/// is stuck), `hardness` (the hunt's two-tier proxy) or `passes` (its first tier, the default).
fn proxy(p: &Puzzle) -> u64 {
    match std::env::var("PROXY").as_deref() {
        Ok("guesses") => {
            let mut t = Puzzle::default();
            for c in shudu_core::Cell::all() {
                let (r, k) = (c.as_index() / 9, c.as_index() % 9);
                t.set(shudu_core::Cell::from_index(k * 9 + r), p.get(c));
            }
            Solver::new(p).count(2).guesses + Solver::new(&t).count(2).guesses
        }
        Ok("te1") => te1_left(p) as u64,
        Ok("plus") => plus_stuck(p) as u64,
        Ok("solves") => shudu_core::rated::trial::te1_solves(p) as u64,
        Ok("hardness") => hardness(p),
        _ => te1_passes(p),
    }
}

/// CPU time of this process so far (user + system, from /proc/self/stat), in seconds.
fn cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Fields 14 and 15 of stat (utime, stime), counted after the command's name; 100 ticks a
    // second on Linux.
    (tick(11) + tick(12)) / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("corr") => {
            let mut rows: Vec<(f64, u64)> = Vec::new();
            for f in &args[2..] {
                for line in std::fs::read_to_string(f).expect("a file").lines() {
                    let cols: Vec<&str> = line.split('\t').collect();
                    if line.starts_with('#') || cols.len() < 3 {
                        continue;
                    }
                    let (Ok(p), Ok(er)) = (cols[0].parse::<Puzzle>(), cols[2].parse::<f64>())
                    else {
                        continue;
                    };
                    rows.push((er, proxy(&p)));
                }
            }
            for lo in [
                1.0, 2.0, 4.0, 6.0, 7.0, 8.0, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5,
            ] {
                let hi = match lo {
                    x if x >= 9.0 => lo + 0.5,
                    x if x < 6.0 => lo * 2.0,
                    _ => lo + 1.0,
                };
                let mut g: Vec<u64> = rows
                    .iter()
                    .filter(|(er, _)| *er >= lo - 1e-9 && *er < hi - 1e-9)
                    .map(|r| r.1)
                    .collect();
                if g.is_empty() {
                    continue;
                }
                g.sort();
                let mean = g.iter().sum::<u64>() as f64 / g.len() as f64;
                println!(
                    "ER {lo:>4.1}-{hi:<4.1} n={:>4} guesses mean {mean:>7.1} median {:>5} p90 {:>5}",
                    g.len(),
                    g[g.len() / 2],
                    g[g.len() * 9 / 10]
                );
            }
            // Spearman rank correlation.
            let rank = |v: Vec<f64>| -> Vec<f64> {
                let mut idx: Vec<usize> = (0..v.len()).collect();
                idx.sort_by(|&a, &b| v[a].partial_cmp(&v[b]).unwrap());
                let mut r = vec![0.0; v.len()];
                let mut i = 0;
                while i < idx.len() {
                    let mut j = i;
                    while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
                        j += 1;
                    }
                    for k in i..=j {
                        r[idx[k]] = (i + j) as f64 / 2.0;
                    }
                    i = j + 1;
                }
                r
            };
            let a = rank(rows.iter().map(|r| r.0).collect());
            let b = rank(rows.iter().map(|r| r.1 as f64).collect());
            let n = a.len() as f64;
            let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
            let cov: f64 = a.iter().zip(&b).map(|(x, y)| (x - ma) * (y - mb)).sum();
            let va: f64 = a.iter().map(|x| (x - ma) * (x - ma)).sum();
            let vb: f64 = b.iter().map(|y| (y - mb) * (y - mb)).sum();
            println!("n={} spearman {:.3}", rows.len(), cov / (va * vb).sqrt());
        }
        Some("climb") => {
            let n: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(10);
            let moves: usize = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(2000);
            let stall: usize = args.get(4).and_then(|v| v.parse().ok()).unwrap_or(200);
            let slack: u64 = args.get(5).and_then(|v| v.parse().ok()).unwrap_or(0);
            let orbits = Symmetry::None.orbits();
            for i in 0..n {
                let mut rng = rng_for(2026, i as u64);
                let g = generate_one(&GenerateConfig::default(), &mut rng).expect("a puzzle");
                let start = Scored {
                    puzzle: g.puzzle,
                    grid: g.solution,
                    score: proxy(&g.puzzle),
                };
                let t = Instant::now();
                let mut trail = Vec::new();
                let end = climb(
                    start,
                    &orbits,
                    &mut rng,
                    moves,
                    stall,
                    slack,
                    None,
                    &|p, _| proxy(p),
                    &mut |s| {
                        if s.score
                            < std::env::var("GATE")
                                .ok()
                                .and_then(|v| v.parse().ok())
                                .unwrap_or(850)
                        {
                            return false;
                        }
                        trail.push(s.score);
                        te1_left(&s.puzzle) > 0
                    },
                );
                let tc = t.elapsed().as_secs_f64();
                let t = Instant::now();
                let te = te1_left(&end.puzzle);
                let r = rate(&end.puzzle);
                println!(
                    "{i}: score {} -> {} in {tc:.2} s ({} rises), te1 {te}, {} givens, ER {} ({}) rated in {:.2} s  {}",
                    start.score,
                    end.score,
                    trail.len(),
                    end.puzzle.givens(),
                    r.er,
                    r.hardest,
                    t.elapsed().as_secs_f64(),
                    end.puzzle.to_line()
                );
            }
        }
        Some("hunt") => {
            let n: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(1);
            let secs: f64 = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(60.0);
            let lo: u16 = args.get(4).and_then(|v| v.parse().ok()).unwrap_or(95);
            let first: usize = args.get(5).and_then(|v| v.parse().ok()).unwrap_or(0);
            let orbits = Symmetry::None.orbits();
            for i in first..first + n {
                let mut rng = rng_for(2029, i as u64);
                let t = Instant::now();
                let cpu = cpu_secs();
                let deadline = Some(t + std::time::Duration::from_secs_f64(secs));
                let mut stats = HuntStats::default();
                let mut grids = 0;
                let r = hunt(
                    &GenerateConfig::default(),
                    &orbits,
                    (Rating(lo), Rating(200)),
                    &mut rng,
                    u64::MAX,
                    deadline,
                    &mut grids,
                    &mut stats,
                );
                let el = t.elapsed().as_secs_f64();
                let cpu = cpu_secs() - cpu;
                match r {
                    Some((g, s)) => println!(
                        "{i}: found ER {} ({}) in {el:.1} s wall, {cpu:.1} s CPU, {grids} digs, {stats:?}: {}",
                        s.er,
                        s.hardest,
                        g.puzzle.to_line()
                    ),
                    None => println!(
                        "{i}: none in {el:.1} s wall, {cpu:.1} s CPU, {grids} digs, {stats:?}"
                    ),
                }
            }
        }
        Some("walk") => {
            // Walks as the hunt does (restarts from the best stuck puzzles met), for SECONDS,
            // writing every new T&E(1)-stuck puzzle with its second-tier measures to FILE.
            let secs: f64 = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(60.0);
            let out = args
                .get(3)
                .cloned()
                .unwrap_or_else(|| "/tmp/stuck.tsv".into());
            let seed: u64 = args.get(4).and_then(|v| v.parse().ok()).unwrap_or(0);
            let mut rng = rng_for(2030, seed);
            let orbits = Symmetry::None.orbits();
            let t = Instant::now();
            let deadline = Some(t + std::time::Duration::from_secs_f64(secs));
            let mut seen = std::collections::HashSet::new();
            let mut elite: Vec<Scored> = Vec::new();
            let mut lines = String::new();
            let mut moves = 0u64;
            while t.elapsed().as_secs_f64() < secs {
                let start = if elite.first().is_some_and(|e| e.score >= STUCK) {
                    elite[(rng.next_u32() as usize) % elite.len()]
                } else {
                    let g = generate_one(&GenerateConfig::default(), &mut rng).expect("a puzzle");
                    Scored::new(g.puzzle, g.solution)
                };
                climb(
                    start,
                    &orbits,
                    &mut rng,
                    20000,
                    3000,
                    100,
                    deadline,
                    &hardness_above,
                    &mut |s| {
                        moves += 1;
                        if s.score < STUCK || !seen.insert(s.puzzle) {
                            return false;
                        }
                        if elite.first().is_none_or(|e| s.score > e.score) {
                            eprintln!(
                                "{:.1} s, {moves} moves: best {} {}",
                                t.elapsed().as_secs_f64(),
                                s.score,
                                s.puzzle.to_line()
                            );
                        }
                        if elite.len() < 8 || s.score > elite[elite.len() - 1].score {
                            elite.push(*s);
                            elite.sort_by_key(|e| std::cmp::Reverse(e.score));
                            elite.truncate(8);
                        }
                        let basic = passes(&s.puzzle, Inner::Basic, false);
                        let forcing = passes(&s.puzzle, Inner::Basic, true);
                        lines.push_str(&format!(
                            "{}\t{}\t{:?}\t{:?}\t{}\n",
                            s.puzzle.to_line(),
                            s.score,
                            basic,
                            forcing,
                            te1_left(&s.puzzle)
                        ));
                        false
                    },
                );
            }
            std::fs::write(&out, lines).expect("written");
            println!(
                "{moves} moves, {} stuck puzzles in {:.1} s",
                seen.len(),
                t.elapsed().as_secs_f64()
            );
        }
        Some("ratefile") => {
            // Rates every STEP-th puzzle of FILE (first column), with a deadline of SECONDS
            // each; prints the line with ER and the rating's time appended.
            let f = std::fs::read_to_string(&args[2]).expect("a file");
            let step: usize = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(1);
            let secs: f64 = args.get(4).and_then(|v| v.parse().ok()).unwrap_or(30.0);
            for line in f.lines().step_by(step) {
                let Ok(p) = line.split('\t').next().unwrap_or("").parse::<Puzzle>() else {
                    continue;
                };
                let t = Instant::now();
                let d = t + std::time::Duration::from_secs_f64(secs);
                let r = shudu_core::logic::rate_until(&p, &|| Instant::now() >= d);
                let er = r.map_or("timeout".to_string(), |r| format!("{} {}", r.er, r.hardest));
                println!("{line}\t{er}\t{:.2}", t.elapsed().as_secs_f64());
            }
        }
        Some("batch") => {
            // What `shudu generate --rating LO..HI --threads 1` does: generate_rated_batch on
            // one thread, with the time each puzzle was found at.
            let n: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(1);
            let secs: f64 = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(60.0);
            let lo: u16 = args.get(4).and_then(|v| v.parse().ok()).unwrap_or(90);
            let hi: u16 = args.get(5).and_then(|v| v.parse().ok()).unwrap_or(200);
            rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build_global()
                .expect("one thread");
            let config = RatedConfig {
                rating: (Rating(lo), Rating(hi)),
                ..RatedConfig::band(GenerateConfig::default(), Band::Extreme)
            };
            let t = Instant::now();
            let times = std::sync::Mutex::new(Vec::new());
            let batch = shudu_core::rated::generate_rated_batch(
                &config,
                n,
                1,
                Some(std::time::Duration::from_secs_f64(secs)),
                &|_| {
                    times.lock().unwrap().push(t.elapsed().as_secs_f64());
                },
            )
            .expect("a valid config");
            let times = times.into_inner().unwrap();
            let mut gaps: Vec<f64> = times
                .iter()
                .scan(0.0, |prev, &x| {
                    let d = x - *prev;
                    *prev = x;
                    Some(d)
                })
                .collect();
            gaps.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let mut ers: Vec<String> = batch
                .puzzles
                .iter()
                .map(|(_, s)| s.er.to_string())
                .collect();
            ers.sort();
            let above = batch
                .puzzles
                .iter()
                .filter(|(_, s)| s.er > Rating(93))
                .count();
            println!("rating {lo}..{hi}: found {} of {n} in {:.1} s ({} grids); median gap {:.2} s; above 9.3: {above}; ratings {}",
                batch.puzzles.len(), batch.elapsed.as_secs_f64(), batch.grids,
                gaps.get(gaps.len() / 2).copied().unwrap_or(f64::NAN), ers.join(" "));
            for (g, s) in &batch.puzzles {
                if s.er > Rating(93) {
                    println!("  {} {} {}", s.er, s.hardest, g.puzzle.to_line());
                }
            }
        }
        Some("draw") => {
            // Base rate: random minimal puzzles that T&E(1) leaves stuck.
            let n: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(10000);
            let mut rng = rng_for(2028, 0);
            let t = Instant::now();
            let mut stuck = 0;
            let mut hist = [0usize; 6];
            for _ in 0..n {
                let g = generate_one(&GenerateConfig::default(), &mut rng).expect("a puzzle");
                let r = te1_passes(&g.puzzle);
                if r >= STUCK {
                    stuck += 1;
                    println!("stuck: ER {} {}", rate(&g.puzzle).er, g.puzzle.to_line());
                } else {
                    hist[(r / 500).min(5) as usize] += 1;
                }
            }
            println!(
                "{n} puzzles in {:.1} s: {stuck} stuck; by passes score /500 {hist:?}",
                t.elapsed().as_secs_f64()
            );
        }
        _ => {
            eprintln!("usage: vicinity_probe corr|climb|draw|hunt|batch ... (see the file's docs)")
        }
    }
}
