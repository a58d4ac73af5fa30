//! The fast solver against the oracle on every data set of `../shared/data`, and on the themed
//! `.txt` files of `tests/data` (`puzzle:solution_count:solution` lines).

mod common;

use common::oracle;
use shudu_core::solver::count_solutions;
use shudu_core::Puzzle;

/// Checks the fast solver on every puzzle (valid solution extending the givens, count capped at
/// 2 as `expected`), and that the oracle agrees on count and, for unique puzzles, solution on
/// `samples` puzzles spread evenly over the file (the oracle is slow: a full pass over the big
/// sets takes tens of minutes).
fn check_set(name: &str, expected: usize, samples: usize) {
    let Some(puzzles) = common::load(name) else {
        return;
    };
    assert!(!puzzles.is_empty(), "{name} is empty");
    let stride = puzzles.len().div_ceil(samples).max(1);
    for (i, p) in puzzles.iter().enumerate() {
        let fast = count_solutions(p, 2);
        assert_eq!(fast.count, expected, "{name} #{i}: {p}");
        let g = fast
            .solution
            .expect("a count of 1 or 2 comes with a solution");
        assert!(
            oracle::is_valid_grid(g.as_bytes()),
            "{name} #{i}: invalid solution {g}"
        );
        for (k, (&given, &v)) in p.as_bytes().iter().zip(g.as_bytes()).enumerate() {
            assert!(
                given == 0 || given == v,
                "{name} #{i}: solution changes cell {k}"
            );
        }
        if i % stride == 0 {
            let (count, first) = oracle::count(p.as_bytes(), 2);
            assert_eq!(
                count, fast.count,
                "{name} #{i}: oracle disagrees on the count of {p}"
            );
            if count == 1 {
                assert_eq!(
                    &first.unwrap(),
                    g.as_bytes(),
                    "{name} #{i}: different solution"
                );
            }
        }
    }
}

#[test]
fn agrees_with_oracle_on_17_clue() {
    check_set("puzzles2_17_clue", 1, 100);
}

#[test]
fn agrees_with_oracle_on_top1465() {
    check_set("puzzles3_magictour_top1465", 1, 300);
}

#[test]
fn agrees_with_oracle_on_forum_hardest_1905() {
    check_set("puzzles5_forum_hardest_1905_11+", 1, 100);
}

#[test]
fn agrees_with_oracle_on_forum_hardest_1106() {
    check_set("puzzles6_forum_hardest_1106", 1, 60);
}

#[test]
fn serg_benchmark_puzzles_all_have_several_solutions() {
    check_set("puzzles7_serg_benchmark", 2, 500);
}

#[test]
fn agrees_with_oracle_on_norvig() {
    check_set("norvig_top95.txt", 1, 95);
    check_set("norvig_hardest.txt", 1, 11);
}

#[test]
fn agrees_with_oracle_on_generated_minimal() {
    check_set("generated_tdoku_minimal_100k", 1, 500);
}

/// The themed files: each line `puzzle:count:solution[:fast-only]`, count capped at 2,
/// solution empty unless the count is 1; `fast-only` skips the (slow) oracle.
#[test]
fn themed_cases() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        // Other files there are other tests' data (`se_hardest.tsv`: SE's ratings).
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split(':').collect();
            let at = format!("{}:{}", path.display(), n + 1);
            assert!(fields.len() == 3 || fields.len() == 4, "{at}");
            let fast_only = fields.get(3) == Some(&"fast-only");
            let p: Puzzle = fields[0].parse().unwrap_or_else(|e| panic!("{at}: {e}"));
            let count: usize = fields[1].parse().unwrap();
            let fast = count_solutions(&p, 2);
            assert_eq!(fast.count, count, "{at}: fast solver");
            if !fast_only {
                assert_eq!(oracle::count(p.as_bytes(), 2).0, count, "{at}: oracle");
            }
            if count == 1 {
                assert_eq!(fast.solution.unwrap().to_line(), fields[2], "{at}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} themed cases");
}

/// Counts far beyond 2 (the search splits on a digit's permutations in a band or stack, so each
/// branch must hold disjoint sets of grids): random puzzles with many solutions, made by blanking
/// 48-60 cells of solved grids, counted up to 1,000 by both solvers.
#[test]
fn agrees_with_oracle_on_counts_beyond_two() {
    use rand::{Rng, SeedableRng};
    let Some(puzzles) = common::load("puzzles3_magictour_top1465") else {
        return;
    };
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(17);
    let (mut many, mut capped) = (0, 0);
    for i in 0..150 {
        let grid = count_solutions(&puzzles[i * 7], 1).solution.unwrap();
        let mut cells = *grid.as_bytes();
        let blanks = rng.random_range(48..=60);
        let mut order: Vec<usize> = (0..81).collect();
        for k in 0..blanks {
            let j = rng.random_range(k..81);
            order.swap(k, j);
            cells[order[k]] = 0;
        }
        let p = Puzzle::from_bytes(cells).unwrap();
        let fast = count_solutions(&p, 1000);
        let (count, _) = oracle::count(&cells, 1000);
        assert_eq!(fast.count, count, "#{i}: {p}");
        many += usize::from(count > 2);
        capped += usize::from(count == 1000);
    }
    // The test must reach beyond small counts to mean anything.
    assert!(many >= 50, "only {many} puzzles with more than 2 solutions");
    assert!(capped >= 5, "only {capped} puzzles reached the cap");
}
