//! Where the grader's time goes, rule by rule: replays the SE path of each `qqwing-expert` row of
//! `se_calibration.tsv` (or `LOGIC_SOURCE`, and only ratings in `LOGIC_ER=A..B` if given), and at
//! every position runs the rules in SE's order, as `grade` does, up to the one that finds the
//! step. Prints, per rule, how often it ran, how often it found the step, and its total time
//! (each call timed alone, best of `LOGIC_REPEAT`, default 3). The data folder is `$SHUDU_DATA`,
//! else `shared/data` next to the repository.

use std::time::Instant;

use shudu_core::logic::{
    chains, exclusion, fish, forcing, grade, intersections, singles, subsets, uniqueness, wings,
    Board, Step,
};

type Rule = (&'static str, fn(&Board) -> Option<Step>);

#[path = "common/calibration.rs"]
mod calibration;

fn main() {
    let (source, puzzles) = calibration::puzzles();
    let repeat: usize = std::env::var("LOGIC_REPEAT").map_or(3, |r| r.parse().expect("a count"));
    let rules: Vec<Rule> = vec![
        (
            "full house / hidden single",
            singles::full_house_or_hidden_single,
        ),
        ("direct locking", |b| intersections::locking(b, true)),
        ("direct hidden pair", |b| subsets::hidden_set(b, 2, true)),
        ("naked single", singles::naked_single),
        ("direct hidden triple", |b| subsets::hidden_set(b, 3, true)),
        ("locking", |b| intersections::locking(b, false)),
        ("naked pair", |b| subsets::naked_set(b, 2)),
        ("x-wing", |b| fish::fish(b, 2)),
        ("hidden pair", |b| subsets::hidden_set(b, 2, false)),
        ("naked triple", |b| subsets::naked_set(b, 3)),
        ("swordfish", |b| fish::fish(b, 3)),
        ("hidden triple", |b| subsets::hidden_set(b, 3, false)),
        ("xy-wing", |b| wings::xy_wing(b, false)),
        ("xyz-wing", |b| wings::xy_wing(b, true)),
        ("unique loops", uniqueness::unique_loops),
        ("naked quad", |b| subsets::naked_set(b, 4)),
        ("jellyfish", |b| fish::fish(b, 4)),
        ("hidden quad", |b| subsets::hidden_set(b, 4, false)),
        ("bug", uniqueness::bug),
        ("aligned pair", |b| exclusion::aligned_exclusion(b, 2)),
        ("static chains", chains::static_chains),
        ("aligned triple", |b| exclusion::aligned_exclusion(b, 3)),
        ("nishio", |b| {
            forcing::forcing_chains(b, forcing::Mode::Nishio)
        }),
        ("multiple", |b| {
            forcing::forcing_chains(b, forcing::Mode::Multiple)
        }),
        ("dynamic", |b| {
            forcing::forcing_chains(b, forcing::Mode::Dynamic)
        }),
        ("dynamic+", |b| {
            forcing::forcing_chains(b, forcing::Mode::DynamicPlus)
        }),
    ];
    let mut calls = vec![0usize; rules.len()];
    let mut found = vec![0usize; rules.len()];
    let mut time = vec![0f64; rules.len()];
    let mut positions = 0;
    for p in &puzzles {
        let g = grade(p);
        let mut board = Board::new(p);
        for step in &g.steps {
            positions += 1;
            for (k, (_, rule)) in rules.iter().enumerate() {
                let mut best = f64::MAX;
                let mut out = None;
                for _ in 0..repeat.max(1) {
                    let t = Instant::now();
                    out = rule(&board);
                    best = best.min(t.elapsed().as_secs_f64());
                }
                calls[k] += 1;
                time[k] += best;
                if out.is_some() {
                    found[k] += 1;
                    break;
                }
            }
            board.apply(step);
        }
    }
    let total: f64 = time.iter().sum();
    println!(
        "{source}: {} puzzles, {positions} positions, {:.1} ms in the rules ({:.1} µs a puzzle)",
        puzzles.len(),
        total * 1e3,
        total * 1e6 / puzzles.len().max(1) as f64
    );
    println!(
        "{:<28} {:>8} {:>7} {:>10} {:>6}",
        "rule", "calls", "found", "µs", "share"
    );
    for (k, (name, _)) in rules.iter().enumerate() {
        if calls[k] > 0 {
            println!(
                "{name:<28} {:>8} {:>7} {:>10.0} {:>5.1}%",
                calls[k],
                found[k],
                time[k] * 1e6,
                100.0 * time[k] / total
            );
        }
    }
}
