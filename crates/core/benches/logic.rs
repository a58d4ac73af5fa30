//! The logic grader, single thread, on the SE calibration set split by SE's band: `logic::rate`
//! (the ratings) and `logic::grade` (the ratings and the explained path).
//! `cargo bench -p shudu-core --bench logic`; figures in BENCHMARKS.md.
//!
//! Before criterion's runs it prints the median time per puzzle of each band (each puzzle timed
//! alone, best of 3), the figure the "1000 times faster than SE" target is about.
#![allow(missing_docs)] // criterion_group! makes undocumented public functions

use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shudu_core::logic::{grade, rate, Band, Rating};
use shudu_core::Puzzle;

#[path = "data.rs"]
mod data;

/// The calibration puzzles grouped by the band of SE's ER.
fn by_band() -> Option<Vec<(Band, Vec<Puzzle>)>> {
    let path = data::data_dir().join("se_calibration.tsv");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("skipping {}: {e}", path.display());
            return None;
        }
    };
    let mut groups: Vec<(Band, Vec<Puzzle>)> = Band::ALL.iter().map(|&b| (b, vec![])).collect();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 3 {
            continue;
        }
        let (a, b) = f[2].split_once('.').unwrap_or((f[2], "0"));
        let er = Rating(a.parse::<u16>().unwrap() * 10 + b.parse::<u16>().unwrap());
        let p: Puzzle = f[0].parse().expect("calibration puzzle parses");
        groups[Band::ALL.iter().position(|&x| x == Band::of(er)).unwrap()]
            .1
            .push(p);
    }
    Some(groups)
}

/// The two ways to rate a puzzle: `rate` (ratings only) and `grade` (with the explained path).
/// A named way to rate a puzzle.
type Rater = (&'static str, fn(&Puzzle) -> Rating);

const RATERS: [Rater; 2] = [("rate", |p| rate(p).er), ("grade", |p| grade(p).er)];

fn print_medians(groups: &[(Band, Vec<Puzzle>)]) {
    for (name, rater) in RATERS {
        for (band, puzzles) in groups {
            if puzzles.is_empty() {
                continue;
            }
            let mut times: Vec<f64> = puzzles
                .iter()
                .map(|p| {
                    (0..3)
                        .map(|_| {
                            let t = Instant::now();
                            std::hint::black_box(rater(p));
                            t.elapsed().as_secs_f64() * 1e6
                        })
                        .fold(f64::INFINITY, f64::min)
                })
                .collect();
            times.sort_by(|a, b| a.partial_cmp(b).unwrap());
            eprintln!(
                "logic {name:<5}, SE band {:<10} {:>4} puzzles: median {:>9.1} µs, max {:>10.1} µs",
                band.name(),
                puzzles.len(),
                times[times.len() / 2],
                times[times.len() - 1]
            );
        }
    }
}

fn grade_by_band(c: &mut Criterion) {
    let Some(groups) = by_band() else { return };
    print_medians(&groups);
    for (name, rater) in RATERS {
        let mut group = c.benchmark_group(format!("logic_{name}"));
        group.sample_size(10);
        for (band, puzzles) in &groups {
            if puzzles.is_empty() {
                continue;
            }
            group.throughput(Throughput::Elements(puzzles.len() as u64));
            group.bench_function(band.name(), |b| {
                b.iter(|| puzzles.iter().map(|p| rater(p).0 as u64).sum::<u64>())
            });
        }
        group.finish();
    }
}

criterion_group!(benches, grade_by_band);
criterion_main!(benches);
