//! The puzzle generator, checked from outside: every puzzle's uniqueness and minimality by the
//! oracle (not by the generator's own solver), symmetry by explicit cell maps, exact givens,
//! and reproducibility across thread counts.

mod common;

use std::time::Duration;

use common::oracle;
use proptest::prelude::*;
use shudu_core::generate::{
    generate_batch, generate_one, is_minimal, BatchResult, ConfigError, GenerateConfig, Generated,
    Symmetry,
};
use shudu_core::grids::rng_for;
use shudu_core::logic::{grade, Band};
use shudu_core::{Cell, Puzzle};

fn batch(config: &GenerateConfig, count: usize, seed: u64) -> BatchResult {
    generate_batch(config, count, seed, None, &|_| {}).expect("a valid config")
}

/// The oracle's count (up to 2) and, for a unique puzzle, that its solution is the one the
/// generator returned.
fn assert_proper(g: &Generated) {
    let (count, first) = oracle::count(g.puzzle.as_bytes(), 2);
    assert_eq!(count, 1, "not unique: {}", g.puzzle);
    assert_eq!(&first.unwrap(), g.solution.as_bytes(), "{}", g.puzzle);
    assert!(oracle::is_valid_grid(g.solution.as_bytes()));
    for (i, (&p, &s)) in g
        .puzzle
        .as_bytes()
        .iter()
        .zip(g.solution.as_bytes())
        .enumerate()
    {
        assert!(p == 0 || p == s, "cell {i} differs from the solution");
    }
}

/// Minimal by the oracle: removing any single given leaves two or more solutions.
fn assert_minimal_by_oracle(p: &Puzzle) {
    for c in p.filled().iter() {
        let mut q = *p;
        q.set(c, None);
        assert_eq!(
            oracle::count(q.as_bytes(), 2).0,
            2,
            "{p}: given {c} can be removed"
        );
    }
}

/// A map of (row, column) to (row, column).
type CellMap = fn(usize, usize) -> (usize, usize);

/// Each symmetry as explicit maps on (row, column), independent of `Symmetry::orbits`.
fn maps(s: Symmetry) -> Vec<CellMap> {
    let rot180: CellMap = |r, c| (8 - r, 8 - c);
    let rot90: CellMap = |r, c| (c, 8 - r);
    let mh: CellMap = |r, c| (8 - r, c);
    let mv: CellMap = |r, c| (r, 8 - c);
    let d: CellMap = |r, c| (c, r);
    let a: CellMap = |r, c| (8 - c, 8 - r);
    match s {
        Symmetry::None => vec![],
        Symmetry::Rot180 => vec![rot180],
        Symmetry::Rot90 => vec![rot90, rot180],
        Symmetry::MirrorH => vec![mh],
        Symmetry::MirrorV => vec![mv],
        Symmetry::MirrorBoth => vec![mh, mv, rot180],
        Symmetry::Diagonal => vec![d],
        Symmetry::AntiDiagonal => vec![a],
        Symmetry::BothDiagonals => vec![d, a, rot180],
        Symmetry::Dihedral => vec![rot90, rot180, mh, mv, d, a],
    }
}

fn assert_symmetric(p: &Puzzle, s: Symmetry) {
    for f in maps(s) {
        for r in 0..9 {
            for c in 0..9 {
                let (r2, c2) = f(r, c);
                assert_eq!(
                    p.get(Cell::at(r, c)).is_some(),
                    p.get(Cell::at(r2, c2)).is_some(),
                    "{s}: r{}c{} and r{}c{} in {p}",
                    r + 1,
                    c + 1,
                    r2 + 1,
                    c2 + 1
                );
            }
        }
    }
}

#[test]
fn every_generated_puzzle_has_exactly_one_solution() {
    let b = batch(&GenerateConfig::default(), 40, 1);
    assert_eq!(b.puzzles.len(), 40);
    b.puzzles.iter().for_each(assert_proper);
}

#[test]
fn minimal_puzzles_are_minimal_by_the_oracle() {
    let config = GenerateConfig {
        minimal: true,
        ..GenerateConfig::default()
    };
    for g in batch(&config, 8, 2).puzzles {
        assert_proper(&g);
        assert_minimal_by_oracle(&g.puzzle);
        assert!(is_minimal(&g.puzzle, &g.solution));
    }
}

#[test]
fn is_minimal_says_no_when_a_given_is_spare() {
    let g = generate_one(&GenerateConfig::default(), &mut rng_for(3, 0)).unwrap();
    let mut p = g.puzzle;
    let spare = Cell::all().find(|&c| p.get(c).is_none()).unwrap();
    p.set(spare, Some(g.solution.get(spare)));
    assert!(!is_minimal(&p, &g.solution));
}

#[test]
fn symmetric_puzzles_hold_their_symmetry_and_stay_unique() {
    for (k, s) in Symmetry::ALL.into_iter().enumerate() {
        let config = GenerateConfig {
            symmetry: s,
            minimal: k % 2 == 0,
            ..GenerateConfig::default()
        };
        for g in batch(&config, 3, 10 + k as u64).puzzles {
            assert_proper(&g);
            assert_symmetric(&g.puzzle, s);
            assert!(s.holds_for(&g.puzzle));
            if config.minimal {
                assert_minimal_by_oracle(&g.puzzle);
            }
        }
    }
}

#[test]
fn exact_givens_hold() {
    let cases = [
        (Symmetry::None, 30, 30),
        (Symmetry::None, 45, 45),
        (Symmetry::None, 26, 28),
        (Symmetry::Rot180, 27, 27),
        (Symmetry::Rot90, 29, 29),
        (Symmetry::Dihedral, 33, 37),
    ];
    for (s, lo, hi) in cases {
        let config = GenerateConfig {
            givens: Some((lo, hi)),
            symmetry: s,
            ..GenerateConfig::default()
        };
        let b = batch(&config, 4, 5);
        assert_eq!(b.puzzles.len(), 4, "{s} {lo}..{hi}");
        for g in &b.puzzles {
            assert!((lo..=hi).contains(&g.puzzle.givens()), "{s} {lo}..{hi}");
            assert_symmetric(&g.puzzle, s);
            assert_proper(g);
        }
    }
}

#[test]
fn few_givens_are_found_by_the_local_search() {
    let config = GenerateConfig {
        givens: Some((21, 21)),
        ..GenerateConfig::default()
    };
    let b = batch(&config, 2, 8);
    for g in &b.puzzles {
        assert_eq!(g.puzzle.givens(), 21);
        assert_proper(g);
    }
}

#[test]
fn same_seed_same_puzzles_whatever_the_threads() {
    let config = GenerateConfig {
        givens: Some((22, 24)),
        symmetry: Symmetry::Rot180,
        ..GenerateConfig::default()
    };
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| batch(&config, 12, 99))
    };
    let one = run(1);
    let three = run(3);
    assert_eq!(one.puzzles, three.puzzles);
    assert_eq!(one.items, (0..12).collect::<Vec<_>>());
    // Item i is what one attempt loop on `rng_for(seed, i)` makes, after drawing its target.
    let mut rng = rng_for(99, 5);
    let item = config.for_item(&mut rng);
    let again = loop {
        if let Some(g) = generate_one(&item, &mut rng) {
            break g;
        }
    };
    assert_eq!(again, one.puzzles[5]);
    assert_ne!(batch(&config, 12, 100).puzzles, one.puzzles);
}

#[test]
fn an_exhausted_budget_reports_what_was_found() {
    let config = GenerateConfig {
        givens: Some((17, 17)),
        ..GenerateConfig::default()
    };
    let b = generate_batch(&config, 3, 1, Some(Duration::from_millis(200)), &|_| {}).unwrap();
    assert!(b.timed_out);
    assert!(!b.is_complete());
    assert_eq!(b.requested, 3);
    assert!(b.elapsed < Duration::from_secs(5), "{:?}", b.elapsed);
    b.puzzles.iter().for_each(assert_proper);
}

#[test]
fn plain_digging_hits_the_givens_without_a_check() {
    let config = GenerateConfig {
        givens: Some((20, 20)),
        unique: false,
        ..GenerateConfig::default()
    };
    let b = batch(&config, 20, 4);
    assert_eq!(b.puzzles.len(), 20);
    let mut several = 0;
    for g in &b.puzzles {
        assert_eq!(g.puzzle.givens(), 20);
        let (count, _) = oracle::count(g.puzzle.as_bytes(), 2);
        assert!(count >= 1, "dug from a grid, so solvable");
        several += (count == 2) as usize;
    }
    // Random digging to 20 givens almost never keeps a unique solution.
    assert!(several > 15, "{several}");
}

#[test]
fn band_filter_keeps_only_that_band() {
    let config = GenerateConfig {
        givens: Some((30, 35)),
        band: Some(Band::Medium),
        ..GenerateConfig::default()
    };
    for g in batch(&config, 3, 6).puzzles {
        assert_eq!(grade(&g.puzzle).band, Band::Medium);
        assert_proper(&g);
    }
}

#[test]
fn impossible_configs_are_refused_with_a_reason() {
    let check = |config: GenerateConfig, expected: ConfigError| {
        assert_eq!(
            generate_batch(&config, 1, 0, None, &|_| {}).unwrap_err(),
            expected
        );
    };
    check(
        GenerateConfig {
            givens: Some((16, 16)),
            ..GenerateConfig::default()
        },
        ConfigError::TooFewGivens(16),
    );
    check(
        GenerateConfig {
            givens: Some((30, 20)),
            ..GenerateConfig::default()
        },
        ConfigError::BadRange(30, 20),
    );
    check(
        GenerateConfig {
            givens: Some((22, 22)),
            symmetry: Symmetry::Rot90,
            ..GenerateConfig::default()
        },
        ConfigError::SymmetryGivens(Symmetry::Rot90, 22, 22),
    );
    check(
        GenerateConfig {
            unique: false,
            ..GenerateConfig::default()
        },
        ConfigError::NoTarget,
    );
    check(
        GenerateConfig {
            automorphic: true,
            symmetry: Symmetry::Rot180,
            ..GenerateConfig::default()
        },
        ConfigError::AutomorphicNeedsRot180,
    );
    // Plain digging may go below 17: it does not promise uniqueness.
    assert!(GenerateConfig {
        givens: Some((10, 10)),
        unique: false,
        ..GenerateConfig::default()
    }
    .validate()
    .is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn any_seed_any_symmetry_gives_a_proper_symmetric_puzzle(seed in any::<u64>(), k in 0usize..10) {
        let s = Symmetry::ALL[k];
        let config = GenerateConfig { symmetry: s, ..GenerateConfig::default() };
        let mut rng = rng_for(seed, 0);
        let g = generate_one(&config, &mut rng).expect("no givens asked: every attempt succeeds");
        assert_proper(&g);
        assert_symmetric(&g.puzzle, s);
    }

    #[test]
    fn any_givens_count_is_hit_exactly(seed in any::<u64>(), k in 26usize..=81) {
        let config = GenerateConfig { givens: Some((k, k)), ..GenerateConfig::default() };
        let b = batch(&config, 1, seed);
        prop_assert_eq!(b.puzzles[0].puzzle.givens(), k);
        assert_proper(&b.puzzles[0]);
    }
}

/// Whether some renaming of the digits maps the grid's half turn onto the grid itself.
fn has_half_turn_automorphism(solution: &[u8]) -> bool {
    let mut sigma = [0u8; 10];
    (0..81).all(|i| {
        let (from, to) = (solution[i] as usize, solution[80 - i]);
        if sigma[from] == 0 {
            sigma[from] = to;
        }
        sigma[from] == to
    })
}

#[test]
fn automorphic_grids_only_when_asked() {
    // Strictly minimal rot180 puzzles from uniformly random grids by default: a grid with a
    // half-turn automorphism is rarer than one in a million there. Asked for, nearly all are.
    let mut config = GenerateConfig {
        minimal: true,
        symmetry: Symmetry::Rot180,
        ..GenerateConfig::default()
    };
    let automorphic = |config: &GenerateConfig| {
        let b = batch(config, 16, 5);
        assert_eq!(b.puzzles.len(), 16);
        for g in &b.puzzles {
            assert_proper(g);
            assert_symmetric(&g.puzzle, Symmetry::Rot180);
            assert_minimal_by_oracle(&g.puzzle);
        }
        b.puzzles
            .iter()
            .filter(|g| has_half_turn_automorphism(g.solution.as_bytes()))
            .count()
    };
    assert_eq!(automorphic(&config), 0);
    config.automorphic = true;
    assert!(automorphic(&config) >= 12);
}
