//! Development probe for the vicinity search of `rated` (issue 18).
//!
//! `cargo run -p shudu-core --example vicinity_probe -- corr FILE...`: for each puzzle of the
//! TSV files (`puzzle<TAB>source<TAB>er...`, SE's ratings), prints SE's ER and the exact solver's
//! guesses (the hardness proxy), then the mean guesses per ER class.

use std::time::Instant;

use shudu_core::generate::{generate_one, GenerateConfig, Symmetry};
use shudu_core::grids::rng_for;
use shudu_core::logic::{rate, Band, Rating};
use shudu_core::rated::{generate_rated, RatedConfig};
use shudu_core::rated::vicinity::{climb, hunt, HuntStats, singles_tree, te1, te1_left, te1_passes, te1_resistance, Scored};
use shudu_core::solver::Solver;
use shudu_core::Puzzle;

/// Guesses of the exact solver over the puzzle and its transpose (the count depends on the
/// orientation; two orientations halve the noise).
fn proxy(p: &Puzzle) -> u64 {
    let mut t = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let d = p.get(shudu_core::Cell::at(r, c)).map_or(0, |d| d.get());
            t[c * 9 + r] = d;
        }
    }
    let tp = Puzzle::from_bytes(t).expect("a puzzle");
    match std::env::var("PROXY").as_deref() {
        Ok("te1") => te1_left(p) as u64,
        Ok("res") => te1_resistance(p),
        Ok("passes") => te1_passes(p),
        Ok("elims") => {
            let (left, elims) = te1(p);
            if left > 0 { 1000 + left as u64 } else { elims as u64 }
        }
        Ok("mix") => {
            let (left, elims) = te1(p);
            if left > 0 { 2000 + left as u64 } else { (elims as u64 * 10).min(500) + te1_resistance(p) }
        }
        Ok("tree") => singles_tree(p, 1 << 20) + singles_tree(&tp, 1 << 20),
        _ => Solver::new(p).count(2).guesses + Solver::new(&tp).count(2).guesses,
    }
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
            for lo in [1.0, 2.0, 4.0, 6.0, 7.0, 8.0, 9.0, 9.5, 10.0, 10.5, 11.0] {
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
                let start = Scored { puzzle: g.puzzle, grid: g.solution, score: proxy(&g.puzzle) };
                let t = Instant::now();
                let mut trail = Vec::new();
                let end = climb(start, &orbits, &mut rng, moves, stall, slack, None, &proxy, &mut |s| {
                    if s.score < std::env::var("GATE").ok().and_then(|v| v.parse().ok()).unwrap_or(850) { return false; }
                    trail.push(s.score);
                    te1_left(&s.puzzle) > 0
                });
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
            let orbits = Symmetry::None.orbits();
            for i in 0..n {
                let mut rng = rng_for(2029, i as u64);
                let t = Instant::now();
                let deadline = Some(t + std::time::Duration::from_secs_f64(secs));
                let mut stats = HuntStats::default();
                let mut grids = 0;
                let r = hunt(&GenerateConfig::default(), &orbits, (Rating(lo), Rating(200)), &mut rng, u64::MAX, deadline, &mut grids, &mut stats);
                let el = t.elapsed().as_secs_f64();
                match r {
                    Some((g, s)) => println!("{i}: found ER {} ({}) in {el:.1} s, {grids} digs, {stats:?}: {}", s.er, s.hardest, g.puzzle.to_line()),
                    None => println!("{i}: none in {el:.1} s, {grids} digs, {stats:?}"),
                }
            }
        }
        Some("draw") => {
            // Base rate: random minimal puzzles that T&E(1) leaves stuck.
            let n: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(10000);
            let mut rng = rng_for(2028, 0);
            let t = Instant::now();
            let mut stuck = 0;
            let mut hist = [0usize; 11];
            for _ in 0..n {
                let g = generate_one(&GenerateConfig::default(), &mut rng).expect("a puzzle");
                let r = te1_resistance(&g.puzzle);
                hist[(r / 100) as usize] += 1;
                if r >= 800 && te1_left(&g.puzzle) > 0 {
                    stuck += 1;
                    let rr = rate(&g.puzzle);
                    println!("stuck: res {r} ER {} {}", rr.er, g.puzzle.to_line());
                }
            }
            println!("{n} puzzles in {:.1} s: {stuck} stuck; resistance by hundreds {hist:?}", t.elapsed().as_secs_f64());
        }
        Some("near") => {
            // From extreme puzzles of the rated search, climb on the proxy and count the
            // T&E(1)-stuck puzzles met.
            let n: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(10);
            let moves: usize = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(2000);
            let slack: u64 = args.get(4).and_then(|v| v.parse().ok()).unwrap_or(0);
            let orbits = Symmetry::None.orbits();
            let config = RatedConfig::band(GenerateConfig::default(), Band::Extreme);
            for i in 0..n {
                let mut rng = rng_for(2027, i as u64);
                let t = Instant::now();
                let (g, r0) = generate_rated(&config, &mut rng, None).expect("a puzzle");
                let t0 = t.elapsed().as_secs_f64();
                let start = Scored { puzzle: g.puzzle, grid: g.solution, score: proxy(&g.puzzle) };
                let t = Instant::now();
                let mut stuck = Vec::new();
                let mut seen = 0;
                let end = climb(start, &orbits, &mut rng, moves, moves, slack, None, &|p| {
                    let s = proxy(p);
                    s
                }, &mut |s| {
                    if s.score < 850 { return false; }
                    seen += 1;
                    if te1_left(&s.puzzle) > 0 { stuck.push(s.puzzle); true } else { false }
                });
                let tc = t.elapsed().as_secs_f64();
                print!("{i}: seed ER {} ({t0:.2} s) score {} -> {} in {tc:.2} s, stuck {} of {seen}", r0.er, start.score, end.score, stuck.len());
                if let Some(p) = stuck.first() {
                    let t = Instant::now();
                    let r = rate(p);
                    print!(" ER {} ({}) rated in {:.2} s {}", r.er, r.hardest, t.elapsed().as_secs_f64(), p.to_line());
                }
                println!();
            }
        }
        _ => eprintln!("usage: vicinity_probe corr FILE... | climb N MOVES STALL"),
    }
}
