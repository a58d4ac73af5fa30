//! Rates puzzles within a time budget and prints, for each, whether it was rated and how long
//! `rate_until` took: a step in progress gives up shortly after the deadline (docs/logic.md,
//! "Bounds": the time budget inside a step).
//!
//! `cargo run --release -p shudu-tools --example budget_probe -- MS FILE` (one puzzle a line, 81
//! characters first; `-` or no file reads standard input). Each line of output: the puzzle, the
//! budget, the time taken, and `ER/EP/ED` or `not rated within the budget`.

use std::io::Read;
use std::time::{Duration, Instant};

use shudu_core::logic::rate_until;
use shudu_core::Puzzle;

fn main() {
    let mut args = std::env::args().skip(1);
    let ms: u64 = args
        .next()
        .expect("usage: budget_probe MS [FILE]")
        .parse()
        .expect("MS: a whole number of milliseconds");
    let text = match args.next().filter(|f| f != "-") {
        Some(f) => std::fs::read_to_string(&f).expect("a readable file"),
        None => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .expect("standard input");
            s
        }
    };
    let budget = Duration::from_millis(ms);
    for line in text.lines().filter(|l| l.len() >= 81) {
        let p: Puzzle = line[..81].parse().expect("81 characters of a puzzle");
        let start = Instant::now();
        let deadline = start + budget;
        let r = rate_until(&p, &|| Instant::now() >= deadline);
        let took = start.elapsed();
        let what = match r {
            Some(s) => format!("{}/{}/{}", s.er, s.ep, s.ed),
            None => "not rated within the budget".to_string(),
        };
        println!(
            "{} {ms} ms: {:.1} ms, {what}",
            &line[..81],
            took.as_secs_f64() * 1e3
        );
    }
}
