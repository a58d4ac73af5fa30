//! The named techniques (`logic::named`): soundness on every position of the calibration paths,
//! how often each fires, and how often a hint prefers one to SE's step.
//!
//! `cargo test -p shudu-core --release --test named -- --nocapture` prints the counts that
//! `docs/logic.md` quotes.

mod common;

use shudu_core::logic::named::{self, Technique};
use shudu_core::logic::{grade, Board, Rating};
use shudu_core::solver::{solve_unique, Solutions};
use shudu_core::{Grid, Puzzle};

/// The calibration puzzles (`se_calibration.tsv`, first column).
fn calibration() -> Option<Vec<Puzzle>> {
    let path = common::data_dir().join("se_calibration.tsv");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if std::env::var_os("CI").is_some() => panic!("{}: {e}", path.display()),
        Err(e) => {
            eprintln!("notice: skipping {}: {e}", path.display());
            return None;
        }
    };
    Some(
        text.lines()
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.split('\t').next().unwrap().parse().unwrap())
            .collect(),
    )
}

fn solution(p: &Puzzle) -> Grid {
    match solve_unique(p) {
        Solutions::Unique(g) => g,
        _ => panic!("{} is not unique", p.to_line()),
    }
}

#[test]
fn named_detectors_are_sound_on_every_calibration_position() {
    let Some(puzzles) = calibration() else { return };
    let mut fired = [0usize; 7];
    let mut positions = 0;
    for p in &puzzles {
        let sol = solution(p);
        let g = grade(p);
        let mut board = Board::new(p);
        for s in &g.steps {
            positions += 1;
            for (k, t) in Technique::ALL.into_iter().enumerate() {
                let found = t.find(&board);
                fired[k] += found.len();
                for step in &found {
                    assert_eq!(Technique::of(step.technique), Some(t));
                    assert!(!step.eliminations.is_empty(), "{}", step.text);
                    assert!(step.placements.is_empty());
                    for &(c, d) in &step.eliminations {
                        assert_ne!(
                            sol.get(c),
                            d,
                            "{}: {} removes the solution: {}",
                            p.to_line(),
                            step.technique,
                            step.text
                        );
                        assert!(board.candidates(c).contains(d), "{}", step.text);
                    }
                }
            }
            board.apply(s);
        }
    }
    println!(
        "named detectors on {positions} positions of {} calibration paths:",
        puzzles.len()
    );
    for (k, t) in Technique::ALL.into_iter().enumerate() {
        println!("  {:<17} {:>8} steps found", t.name(), fired[k]);
        assert!(fired[k] > 0, "{} never fires", t.name());
    }
}

#[test]
fn hints_prefer_named_steps_at_chain_level_on_the_calibration_paths() {
    let Some(puzzles) = calibration() else { return };
    let mut chosen = [0usize; 7];
    let (mut chain_steps, mut puzzles_with_named) = (0, 0);
    let mut lowered = 0;
    for p in &puzzles {
        let sol = solution(p);
        let g = grade(p);
        let mut board = Board::new(p);
        let mut any = false;
        for s in &g.steps {
            if s.rating >= Rating(62) && s.technique != "Nested Forcing Chains" {
                chain_steps += 1;
                if let Some(n) = named::easiest(&board, s.rating) {
                    let t = Technique::of(n.technique).expect("a named technique");
                    chosen[t as usize] += 1;
                    any = true;
                    lowered += (n.rating < s.rating) as usize;
                    assert!(n.rating <= s.rating);
                    assert!(n.rating >= Rating(62), "{}: {}", n.rating, n.text);
                    for &(c, d) in &n.eliminations {
                        assert_ne!(sol.get(c), d, "{}: {}", p.to_line(), n.text);
                    }
                }
            }
            board.apply(s);
        }
        puzzles_with_named += any as usize;
    }
    println!(
        "hints at {chain_steps} chain-level steps of the calibration paths: a named step at {} \
         ({lowered} rated below SE's step), in {puzzles_with_named} puzzles:",
        chosen.iter().sum::<usize>()
    );
    for (k, t) in Technique::ALL.into_iter().enumerate() {
        println!("  {:<17} {:>6}", t.name(), chosen[k]);
    }
    assert!(chosen.iter().sum::<usize>() > 0);
}

/// Prints, for each named technique, the first hints that prefer it on the calibration paths,
/// with SE's step beside it and the position as pencil marks (`NAMED_SHOW=<n>` examples each).
#[test]
#[ignore = "a debugging aid: cargo test --release --test named print_hints -- --ignored --nocapture"]
fn print_hints() {
    let Some(puzzles) = calibration() else { return };
    let want: usize = std::env::var("NAMED_SHOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    // Kinds: the technique name, with the colouring rule and ALS linking told apart.
    let mut shown: Vec<(String, usize)> = Vec::new();
    for p in &puzzles {
        let g = grade(p);
        let mut board = Board::new(p);
        for (i, s) in g.steps.iter().enumerate() {
            if s.rating >= Rating(62) && s.technique != "Nested Forcing Chains" {
                if let Some(n) = named::easiest(&board, s.rating) {
                    let kind = match n.text.split_once(':') {
                        Some((head, _)) => head.to_string(),
                        None => n.technique.to_string(),
                    };
                    let kind = kind.split(" on ").next().unwrap().to_string();
                    let kind = if n.text.contains("colour wrap") {
                        "Simple Colouring (wrap)".to_string()
                    } else {
                        kind
                    };
                    let k = match shown.iter().position(|(s, _)| *s == kind) {
                        Some(k) => k,
                        None => {
                            shown.push((kind, 0));
                            shown.len() - 1
                        }
                    };
                    if shown[k].1 < want {
                        shown[k].1 += 1;
                        println!("{} step {}", p.to_line(), i + 1);
                        println!("  SE    [{}] {}: {}", s.rating, s.technique, s.text);
                        println!("  named [{}] {}: {}", n.rating, n.technique, n.text);
                        println!("  values {}", board.to_puzzle().to_line());
                        println!("  marks {}", marks(&board));
                    }
                }
            }
            board.apply(s);
        }
    }
    for (kind, n) in &shown {
        println!("{kind}: {n}");
    }
}

/// The candidates of a board as 81 comma-separated fields (empty for a filled cell).
fn marks(board: &Board) -> String {
    shudu_core::Cell::all()
        .map(|c| {
            board
                .candidates(c)
                .iter()
                .map(|d| d.to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(",")
}
