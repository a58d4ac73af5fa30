//! Generation by difficulty, checked from outside: every puzzle's uniqueness by the oracle, its
//! rating by a fresh call to the grader, symmetry and exact givens, every band reachable within
//! a modest budget, reproducibility across thread counts, and honest partial results.

mod common;

use std::time::{Duration, Instant};

use common::oracle;
use shudu_core::generate::{GenerateConfig, Generated, Symmetry};
use shudu_core::grids::rng_for;
use shudu_core::logic::{grade, Band, Rating, Summary};
use shudu_core::needs::TechniqueSet;
use shudu_core::rated::{
    generate_rated, generate_rated_batch, vicinity, RatedBatch, RatedConfig, RatedError,
};

/// A generous budget for one test's batch: the searches take milliseconds (extreme: seconds)
/// in release builds, so only a broken search hits it.
const BUDGET: Duration = Duration::from_secs(120);

fn batch(config: &RatedConfig, count: usize, seed: u64) -> RatedBatch {
    generate_rated_batch(config, count, seed, Some(BUDGET), &|_| {}).expect("a valid config")
}

/// The puzzle is proper by the oracle, its solution is the returned grid, its grade is what a
/// fresh call to the grader says and lies in the asked range, and the config's pattern holds.
fn assert_rated(config: &RatedConfig, (g, reported): &(Generated, Summary)) {
    let (count, first) = oracle::count(g.puzzle.as_bytes(), 2);
    assert_eq!(count, 1, "not unique: {}", g.puzzle);
    assert_eq!(&first.unwrap(), g.solution.as_bytes(), "{}", g.puzzle);
    let fresh = grade(&g.puzzle);
    assert!(fresh.solved, "{}", g.puzzle);
    assert_eq!(
        (fresh.er, fresh.ep, fresh.ed, fresh.band),
        (reported.er, reported.ep, reported.ed, reported.band),
        "{}",
        g.puzzle
    );
    assert_eq!(fresh.techniques, reported.techniques, "{}", g.puzzle);
    assert_eq!(fresh.steps.len(), reported.steps, "{}", g.puzzle);
    let (lo, hi) = config.rating;
    assert!(
        (lo..=hi).contains(&fresh.er),
        "{} rated {} outside {lo}..{hi}",
        g.puzzle,
        fresh.er
    );
    assert!(config.base.symmetry.holds_for(&g.puzzle), "{}", g.puzzle);
    if let Some((a, b)) = config.base.givens {
        assert!((a..=b).contains(&g.puzzle.givens()), "{}", g.puzzle);
    }
}

fn band(band: Band) -> RatedConfig {
    RatedConfig::band(GenerateConfig::default(), band)
}

#[test]
fn every_band_but_extreme_gives_proper_puzzles_in_its_range() {
    for b in [
        Band::Easy,
        Band::Medium,
        Band::Hard,
        Band::Fiendish,
        Band::Diabolical,
    ] {
        let config = band(b);
        let out = batch(&config, 4, 11);
        assert!(out.is_complete(), "{b}: found {} of 4", out.puzzles.len());
        for found in &out.puzzles {
            assert_rated(&config, found);
            assert_eq!(found.1.band, b);
        }
    }
}

/// The rarest band (about 0.2% of random minimal puzzles): one puzzle, found by the vicinity
/// hunt's first 10,000 moves and then the local search, in a few seconds on one core of the
/// development machine (see BENCHMARKS.md, "The top of the difficulty scale").
#[test]
fn extreme_band_is_reached_by_the_local_search() {
    let config = band(Band::Extreme);
    let deadline = Instant::now() + BUDGET;
    let found = generate_rated(&config, &mut rng_for(3, 0), Some(deadline)).expect("in time");
    assert_rated(&config, &found);
    assert_eq!(found.1.band, Band::Extreme);
}

#[test]
fn symmetry_holds_in_every_band_that_random_puzzles_reach() {
    for (s, b) in [
        (Symmetry::Rot180, Band::Easy),
        (Symmetry::Rot180, Band::Hard),
        (Symmetry::Rot90, Band::Fiendish),
        (Symmetry::MirrorBoth, Band::Medium),
        (Symmetry::Rot180, Band::Diabolical),
        (Symmetry::Diagonal, Band::Diabolical),
    ] {
        let config = RatedConfig::band(
            GenerateConfig {
                symmetry: s,
                ..GenerateConfig::default()
            },
            b,
        );
        let out = batch(&config, 2, 21);
        assert!(out.is_complete(), "{s} {b}");
        for found in &out.puzzles {
            assert_rated(&config, found);
        }
    }
}

#[test]
fn exact_givens_stay_exact() {
    for (givens, s, b) in [
        (30, Symmetry::None, Band::Easy),
        (26, Symmetry::None, Band::Medium),
        (24, Symmetry::None, Band::Fiendish),
        (25, Symmetry::None, Band::Diabolical),
        (28, Symmetry::Rot180, Band::Hard),
        (26, Symmetry::Rot180, Band::Diabolical),
    ] {
        let config = RatedConfig::band(
            GenerateConfig {
                givens: Some((givens, givens)),
                symmetry: s,
                ..GenerateConfig::default()
            },
            b,
        );
        let out = batch(&config, 2, 31);
        assert!(out.is_complete(), "{givens} {s} {b}");
        for found in &out.puzzles {
            assert_rated(&config, found);
            assert_eq!(found.0.puzzle.givens(), givens);
        }
    }
}

#[test]
fn a_rating_range_is_honoured() {
    let config = RatedConfig {
        base: GenerateConfig::default(),
        rating: (Rating(30), Rating(45)),
        needs: Vec::new(),
        without: TechniqueSet::EMPTY,
    };
    let out = batch(&config, 3, 41);
    assert!(out.is_complete());
    for found in &out.puzzles {
        assert_rated(&config, found);
    }
}

#[test]
fn minimal_puzzles_can_be_asked_in_a_band() {
    let config = RatedConfig::band(
        GenerateConfig {
            minimal: true,
            ..GenerateConfig::default()
        },
        Band::Fiendish,
    );
    let out = batch(&config, 2, 51);
    assert!(out.is_complete());
    for found in &out.puzzles {
        assert_rated(&config, found);
        assert!(shudu_core::generate::is_minimal(
            &found.0.puzzle,
            &found.0.solution
        ));
    }
}

#[test]
fn same_seed_same_puzzles_whatever_the_thread_count() {
    let config = band(Band::Diabolical);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        pool.install(|| batch(&config, 4, 61))
    };
    let one = run(1);
    let two = run(2);
    assert!(one.is_complete() && two.is_complete());
    let lines = |b: &RatedBatch| -> Vec<String> {
        b.puzzles.iter().map(|(g, _)| g.puzzle.to_line()).collect()
    };
    assert_eq!(lines(&one), lines(&two));
    assert_eq!(one.items, vec![0, 1, 2, 3]);
}

#[test]
fn a_spent_budget_reports_what_was_found() {
    let config = band(Band::Extreme);
    let out = generate_rated_batch(&config, 3, 71, Some(Duration::ZERO), &|_| {}).unwrap();
    assert!(out.timed_out);
    assert!(!out.is_complete());
    assert_eq!(out.requested, 3);
    assert_eq!(out.puzzles.len(), out.items.len());
    for found in &out.puzzles {
        assert_rated(&config, found);
    }
}

#[test]
fn progress_counts_every_puzzle() {
    let seen = std::sync::atomic::AtomicUsize::new(0);
    let out = generate_rated_batch(&band(Band::Hard), 5, 81, Some(BUDGET), &|k| {
        seen.fetch_add(k, std::sync::atomic::Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!(seen.into_inner(), out.puzzles.len());
    assert!(out.is_complete());
}

#[test]
fn impossible_configs_are_rejected_with_a_reason() {
    let config = RatedConfig {
        base: GenerateConfig::default(),
        rating: (Rating(50), Rating(40)),
        needs: Vec::new(),
        without: TechniqueSet::EMPTY,
    };
    let err = generate_rated_batch(&config, 1, 1, None, &|_| {}).unwrap_err();
    assert!(matches!(err, RatedError::Rating(..)));
    assert!(err.to_string().contains("5.0..4.0"), "{err}");
    let config = RatedConfig::band(
        GenerateConfig {
            givens: Some((16, 16)),
            ..GenerateConfig::default()
        },
        Band::Hard,
    );
    let err = generate_rated_batch(&config, 1, 1, None, &|_| {}).unwrap_err();
    assert!(err.to_string().contains("fewer than 17"), "{err}");
}

/// The CLI's `-m 1|2|3` levels: a band with a range of givens where it is common.
#[test]
fn assignment_levels_are_reachable_with_their_givens() {
    for (b, givens) in [
        (Band::Easy, (36, 45)),
        (Band::Medium, (30, 35)),
        (Band::Hard, (24, 29)),
    ] {
        let config = RatedConfig::band(
            GenerateConfig {
                givens: Some(givens),
                ..GenerateConfig::default()
            },
            b,
        );
        let out = batch(&config, 4, 91);
        assert!(out.is_complete(), "{b}");
        for found in &out.puzzles {
            assert_rated(&config, found);
        }
    }
}

/// The hunt's gate: T&E(1) with singles leaves every puzzle that SE rates 9.5 or more stuck
/// (it needs nested forcing chains), and solves every one rated below 9.5 in the calibration
/// set it was checked on (`docs/rated.md`).
#[test]
fn te1_is_stuck_exactly_on_the_nested_chain_puzzles() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/se_hardest.tsv");
    let text = std::fs::read_to_string(path).expect("se_hardest.tsv");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let p: shudu_core::Puzzle = cols[0].parse().expect("a puzzle");
        let er: f64 = cols[2].parse().expect("SE's ER");
        assert_eq!(vicinity::te1_left(&p) > 0, er >= 9.5, "{line}");
        assert!(vicinity::te1_passes(&p) >= vicinity::STUCK, "{line}");
        checked += 1;
    }
    assert!(checked >= 9);
    // Extreme puzzles rated 9.0-9.2 (dynamic forcing chains): T&E(1) cracks them, as it
    // cracks every puzzle that needs no nesting.
    let dynamic = RatedConfig {
        rating: (Rating(90), Rating(92)),
        ..band(Band::Extreme)
    };
    for (seed, item) in [(5, 0), (5, 1)] {
        let (g, r) = generate_rated(&dynamic, &mut rng_for(seed, item), None).unwrap();
        assert!(r.er < vicinity::NESTED, "{} {}", g.puzzle, r.er);
        assert_eq!(vicinity::te1_left(&g.puzzle), 0, "{}", g.puzzle);
    }
}

/// The gate of a hunt for 10.0 and up: T&E(1) with the basic techniques and forcing (a model of
/// SE's level-one "(+)" chains) leaves stuck no puzzle that SE rates below 10.0 (9.0 to 9.9
/// here), and nearly every puzzle rated 10.0 or more, in agreement with `hardness`'s tiers. It
/// was stuck on all 67 such rows when it was made; of the 16 rows SE rated afterwards, one
/// rated 10.1 gets through it (docs/rated.md), so the test asserts at most 1 in 20 missed.
#[test]
fn plus_gate_is_stuck_on_no_puzzle_below_10_and_nearly_all_above() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/se_hardest.tsv");
    let text = std::fs::read_to_string(path).expect("se_hardest.tsv");
    // SE 1.2.1's ratings below 10.0 (`../shared/data/se_calibration.tsv`: top1465 and one
    // hardest-1106 puzzle rated 9.7 by a level-one "(+)" chain).
    let below = [
        (
            ".7...19.6..2......9.3..5..1....5...34..27.........352.......369....1.4...96......",
            "9.0",
        ),
        (
            "....3..8....4....1..5.81....1....9..3.....26...7.2............9..29.5.147..6..85.",
            "9.0",
        ),
        (
            "6.....3...5..9..8...2..6..98.....7...7..5..4......1..51..3..5...4..2..6...8..7..2",
            "9.4",
        ),
        (
            "......8...7..9..1...3..7..51..6......5..2..4...8..9..74.....2...6..1..5......6..3",
            "9.4",
        ),
        (
            "6..1..7......7..8...9..8..37..4..5...3.....2...4..5..81..2..4.........5...6..9...",
            "9.1",
        ),
        (
            "..3.9....1...4..36..8..21...4..8..73...9................4.7..686........7.....5.4",
            "9.7",
        ),
    ];
    let rows = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (cols[0], cols[2])
        })
        .chain(below);
    let (mut above, mut missed) = (0, Vec::new());
    for (line, er) in rows {
        let p: shudu_core::Puzzle = line.parse().expect("a puzzle");
        let er: f64 = er.parse().expect("SE's ER");
        let stuck = vicinity::plus_stuck(&p);
        assert_eq!(
            vicinity::hardness(&p) >= vicinity::PLUS_STUCK,
            stuck,
            "{line}"
        );
        if er < 10.0 {
            assert!(!stuck, "stuck below 10.0: {line} {er}");
        } else if stuck {
            above += 1;
        } else {
            missed.push((line, er));
        }
    }
    eprintln!("plus gate: stuck on {above} puzzles rated 10.0+, missed {missed:?}");
    assert!(above >= 60, "{above}");
    assert!(
        missed.len() * 20 <= above + missed.len(),
        "missed {missed:?}"
    );
}

/// Every vicinity move gives a proper puzzle, minimal over the symmetry's orbits.
#[test]
fn vicinity_moves_keep_puzzles_proper_and_minimal() {
    for symmetry in [Symmetry::None, Symmetry::Rot180] {
        let orbits = symmetry.orbits();
        let config = GenerateConfig {
            symmetry,
            ..GenerateConfig::default()
        };
        let mut rng = rng_for(91, 0);
        let g = shudu_core::generate::generate_one(&config, &mut rng).unwrap();
        let mut cur = vicinity::Scored::new(g.puzzle, g.solution);
        let mut moved = 0;
        for _ in 0..60 {
            let Some((p, grid)) = vicinity::neighbour(&cur, &orbits, &mut rng) else {
                continue;
            };
            moved += 1;
            let (count, first) = oracle::count(p.as_bytes(), 2);
            assert_eq!(count, 1, "{p}");
            assert_eq!(&first.unwrap(), grid.as_bytes(), "{p}");
            assert!(symmetry.holds_for(&p), "{p}");
            for o in &orbits {
                if (*o & p.filled()) == *o {
                    let mut q = p;
                    for c in o.iter() {
                        q.set(c, None);
                    }
                    assert_eq!(oracle::count(q.as_bytes(), 2).0, 2, "{p} not minimal");
                }
            }
            cur = vicinity::Scored::new(p, grid);
        }
        assert!(moved >= 40, "{moved} of 60 moves succeeded");
    }
}

/// A request for nested-chain ratings within a small budget: whatever is found is proper and
/// in range, and what is not is reported.
#[test]
fn nested_chain_ratings_are_hunted_within_the_budget() {
    let config = RatedConfig {
        base: GenerateConfig::default(),
        rating: (Rating(100), Rating(200)),
        needs: Vec::new(),
        without: TechniqueSet::EMPTY,
    };
    let out = generate_rated_batch(&config, 1, 3, Some(Duration::from_secs(3)), &|_| {}).unwrap();
    assert_eq!(out.puzzles.len() == 1, !out.timed_out);
    for found in &out.puzzles {
        assert_rated(&config, found);
    }
}

/// The share of the commonest rating among `ratings`, with that rating.
fn commonest(ratings: &[Rating]) -> (Rating, usize) {
    let mut counts = std::collections::BTreeMap::new();
    for &r in ratings {
        *counts.entry(r).or_insert(0) += 1;
    }
    counts
        .into_iter()
        .max_by_key(|&(_, n)| n)
        .expect("some ratings")
}

/// A band's puzzles spread over the band: on a batch of 24, no rating holds more than half,
/// and the band's levels are each met (each is reached in a fraction of a second).
#[test]
fn every_band_spreads_over_its_range() {
    for b in [
        Band::Easy,
        Band::Medium,
        Band::Hard,
        Band::Fiendish,
        Band::Diabolical,
    ] {
        let config = band(b);
        let out = batch(&config, 24, 36);
        assert!(out.is_complete(), "{b:?}");
        let ratings: Vec<Rating> = out.puzzles.iter().map(|(_, s)| s.er).collect();
        let (r, n) = commonest(&ratings);
        assert!(n * 2 <= ratings.len(), "{b:?}: {r} holds {n} of 24");
        let distinct: std::collections::BTreeSet<_> = ratings.iter().collect();
        let levels = config.levels().len().min(4);
        assert!(distinct.len() >= levels, "{b:?}: {distinct:?}");
        for found in &out.puzzles {
            assert_rated(&config, found);
        }
    }
}

/// Extreme puzzles from the forum's hard puzzles: proper (the oracle), rated in full, spread
/// above 9.3, none equivalent to a seed nor to another puzzle of the run.
#[test]
fn extreme_puzzles_are_new_and_reach_above_nine_three() {
    let config = band(Band::Extreme);
    let out = batch(&config, 10, 36);
    assert!(out.is_complete());
    let mut canon = shudu_core::canon::PuzzleCanonicalizer::new();
    let mut forms = std::collections::HashSet::new();
    for found in &out.puzzles {
        assert_rated(&config, found);
        let form = canon.canonical(&found.0.puzzle).form;
        assert!(
            !shudu_core::rated::seeds::is_seed_class(&form),
            "{}",
            found.0.puzzle
        );
        assert!(
            forms.insert(form),
            "two equivalent puzzles: {}",
            found.0.puzzle
        );
    }
    let above = out
        .puzzles
        .iter()
        .filter(|(_, s)| s.er >= Rating(93))
        .count();
    assert!(above >= 3, "{above} of 10 above 9.3");
}

/// A range from 10.0 (SE's nested chains) is reached in seconds.
#[test]
fn nested_chain_ratings_are_reached() {
    let config = RatedConfig {
        rating: (Rating(100), Rating(109)),
        ..band(Band::Extreme)
    };
    let out = batch(&config, 2, 7);
    assert!(out.is_complete());
    for found in &out.puzzles {
        assert_rated(&config, found);
    }
}

/// The classes a run records: an equivalent puzzle (transposed, digits renamed) is not new.
#[test]
fn new_classes_refuse_an_equivalent_puzzle() {
    let p: shudu_core::Puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
            .parse()
            .unwrap();
    let mut cells = [0u8; 81];
    for (i, &v) in p.as_bytes().iter().enumerate() {
        cells[(i % 9) * 9 + i / 9] = if v == 0 { 0 } else { 10 - v };
    }
    let q = shudu_core::Puzzle::from_bytes(cells).unwrap();
    let mut new = shudu_core::rated::NewClasses::default();
    assert!(new.insert(&p));
    assert!(!new.insert(&q));
    assert!(!new.insert(&p));
}
