//! Puzzles that need chosen techniques, checked from outside: every puzzle's uniqueness by the
//! oracle, its path (walked afresh by the grader, or the hints' path for the named techniques)
//! using each needed technique and no excluded one, the rating range and pattern kept, the same
//! seed giving the same puzzles, and impossible requests refused or reported honestly.

mod common;

use std::time::{Duration, Instant};

use common::oracle;
use shudu_core::generate::{GenerateConfig, Generated, Symmetry};
use shudu_core::logic::{grade, rate, Band, Rating, Summary};
use shudu_core::needs::{path_techniques, uses_hints, Technique, TechniqueSet};
use shudu_core::rated::{generate_rated_batch, RatedBatch, RatedConfig, RatedError, MAX_RATING};

/// A generous budget: the searches take milliseconds a puzzle, so only a broken search hits it.
const BUDGET: Duration = Duration::from_secs(120);

fn needs(names: &str, without: &str) -> RatedConfig {
    RatedConfig {
        base: GenerateConfig::default(),
        rating: (Rating(0), MAX_RATING),
        needs: shudu_core::needs::parse_list(names).unwrap(),
        without: shudu_core::needs::parse_list(without)
            .unwrap()
            .into_iter()
            .fold(TechniqueSet::EMPTY, |a, b| a | b),
    }
}

fn batch(config: &RatedConfig, count: usize, seed: u64) -> RatedBatch {
    generate_rated_batch(config, count, seed, Some(BUDGET), &|_| {}).expect("a valid config")
}

/// The puzzle is proper by the oracle, its solution is the returned grid, its rating is the
/// grader's and in range, its pattern holds, and its path uses every need and no exclusion.
fn assert_needs(config: &RatedConfig, (g, reported): &(Generated, Summary)) {
    let (count, first) = oracle::count(g.puzzle.as_bytes(), 2);
    assert_eq!(count, 1, "not unique: {}", g.puzzle);
    assert_eq!(&first.unwrap(), g.solution.as_bytes(), "{}", g.puzzle);
    assert_eq!(&rate(&g.puzzle), reported, "{}", g.puzzle);
    let (lo, hi) = config.rating;
    assert!(
        (lo..=hi).contains(&reported.er),
        "{} rated {}",
        g.puzzle,
        reported.er
    );
    assert!(config.base.symmetry.holds_for(&g.puzzle), "{}", g.puzzle);
    if let Some((a, b)) = config.base.givens {
        assert!((a..=b).contains(&g.puzzle.givens()), "{}", g.puzzle);
    }
    let hints = uses_hints(&config.needs, config.without);
    let path = path_techniques(&g.puzzle, hints);
    assert!(
        path.iter().all(Option::is_some),
        "{}: a step outside the catalogue",
        g.puzzle
    );
    let used: Vec<Technique> = path.into_iter().flatten().collect();
    for need in &config.needs {
        assert!(
            used.iter().any(|&t| need.contains(t)),
            "{}: path {used:?} lacks {need}",
            g.puzzle
        );
    }
    assert!(
        !used.iter().any(|&t| config.without.contains(t)),
        "{}: path {used:?} uses one of {}",
        g.puzzle,
        config.without
    );
    if !hints {
        // The grader's own path, as `shudu explain` prints it, names the technique.
        let names: Vec<&str> = grade(&g.puzzle).steps.iter().map(|s| s.technique).collect();
        for need in &config.needs {
            assert!(names
                .iter()
                .any(|n| Technique::of_step(n).is_some_and(|t| need.contains(t))));
        }
    }
}

#[test]
fn the_four_fast_techniques_give_proper_puzzles_that_need_them() {
    for name in ["x-wing", "xy-wing", "skyscraper", "unique-rectangle"] {
        let config = needs(name, "");
        let out = batch(&config, 6, 3);
        assert!(out.is_complete(), "{name}: {} of 6", out.puzzles.len());
        for found in &out.puzzles {
            assert_needs(&config, found);
        }
    }
}

#[test]
fn every_catalogued_technique_is_found_or_honestly_missing() {
    // A small batch of each: most are found at once; the rarest (nested forcing chains, some
    // chain kinds) may run out of the short budget, which the batch must then say.
    for t in Technique::ALL {
        let config = RatedConfig {
            needs: vec![TechniqueSet::single(t)],
            ..needs("", "")
        };
        let out = generate_rated_batch(&config, 1, 5, Some(Duration::from_secs(3)), &|_| {})
            .expect("valid");
        for found in &out.puzzles {
            assert_needs(&config, found);
        }
        if !out.is_complete() {
            assert!(out.timed_out, "{t}: missing without the budget running out");
        }
    }
}

#[test]
fn needs_combine_with_exclusions_bands_symmetry_and_givens() {
    let cases = [
        needs("x-wing,xy-wing", ""),
        needs("xy-wing", "chains"),
        needs("fish", "exclusion,chains"),
        needs("w-wing", "forcing-chains"),
        needs("", "named,chains"),
        RatedConfig {
            base: GenerateConfig {
                symmetry: Symmetry::Rot180,
                ..GenerateConfig::default()
            },
            ..needs("swordfish", "")
        },
        RatedConfig {
            base: GenerateConfig {
                givens: Some((26, 26)),
                ..GenerateConfig::default()
            },
            ..needs("naked-pair", "")
        },
        RatedConfig {
            rating: Band::Diabolical.range(),
            ..needs("x-wing", "")
        },
    ];
    for config in &cases {
        let out = batch(config, 3, 8);
        assert!(out.is_complete(), "{config:?}");
        for found in &out.puzzles {
            assert_needs(config, found);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzles_whatever_the_threads() {
    let config = needs("skyscraper", "");
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| batch(&config, 4, 17));
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(|| batch(&config, 4, 17));
    let puzzles = |b: &RatedBatch| b.puzzles.iter().map(|(g, _)| g.puzzle).collect::<Vec<_>>();
    assert_eq!(puzzles(&one), puzzles(&two));
    assert_eq!(one.items, two.items);
}

#[test]
fn impossible_combinations_are_refused_with_a_reason() {
    let err = generate_rated_batch(&needs("x-wing", "fish"), 1, 1, None, &|_| {}).unwrap_err();
    assert!(matches!(err, RatedError::NeedsExcluded(_)));
    assert!(err.to_string().contains("x-wing"), "{err}");
    let config = RatedConfig {
        rating: Band::Hard.range(),
        ..needs("jellyfish", "")
    };
    let err = generate_rated_batch(&config, 1, 1, None, &|_| {}).unwrap_err();
    assert!(matches!(err, RatedError::NeedsTooHard { .. }));
    assert!(
        err.to_string().contains("5.2") && err.to_string().contains("4.0"),
        "{err}"
    );
}

#[test]
fn an_unreachable_need_is_reported_within_the_budget() {
    // A need the path almost never meets under these constraints (a jellyfish with every
    // technique from 3.0 to 5.0 but it excluded): the batch stops at its budget and says so.
    let config = needs(
        "jellyfish",
        "subsets,x-wing,swordfish,wings,uniqueness,chains,exclusion",
    );
    let start = Instant::now();
    let out =
        generate_rated_batch(&config, 2, 1, Some(Duration::from_millis(800)), &|_| {}).unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    for found in &out.puzzles {
        assert_needs(&config, found);
    }
    if !out.is_complete() {
        assert!(out.timed_out);
    }
}
