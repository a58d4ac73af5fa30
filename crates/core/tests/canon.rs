//! Canonical forms (`shudu_core::canon`) against the brute-force oracle, and invariance under
//! random transformations, on random grids, built cases and every shared data set.

mod common;

use std::collections::HashSet;

use common::canon_oracle::{self, disguise};
use rand::Rng;
use shudu_core::canon::{canonical_grid, PuzzleCanonicalizer, POSITIONAL_TRANSFORMATIONS};
use shudu_core::grids::{random_grid, rng_for};
use shudu_core::{Grid, Puzzle};

fn grid(cells: [u8; 81]) -> Grid {
    Grid::try_from(Puzzle::from_bytes(cells).unwrap()).unwrap()
}

fn parse_grid(line: &str) -> Grid {
    Grid::try_from(line.parse::<Puzzle>().unwrap()).unwrap()
}

/// Bands and stacks alike made of cyclic shifts of three-digit groups: 648 automorphisms, the
/// most of any grid.
const MOST_SYMMETRIC: &str =
    "123456789456789123789123456231564897564897231897231564312645978645978312978312645";

/// Row r is row 0 shifted by 3r mod 9 plus r/3 (the assignment's template): 54 automorphisms.
const SHIFTED_ROWS: &str =
    "123456789456789123789123456234567891567891234891234567345678912678912345912345678";

#[test]
fn grid_forms_and_automorphisms_match_brute_force() {
    let mut cases: Vec<(Grid, Option<u64>)> = vec![
        (parse_grid(MOST_SYMMETRIC), Some(648)),
        (parse_grid(SHIFTED_ROWS), Some(54)),
    ];
    for i in 0..4 {
        cases.push((random_grid(&mut rng_for(7, i)), None));
    }
    for (g, want) in cases {
        let (form, auts) = canon_oracle::canonical(g.as_bytes());
        let fast = canonical_grid(&g);
        assert_eq!(fast.form.as_bytes(), &form, "{g}");
        assert_eq!(fast.automorphisms, auts, "{g}");
        if let Some(w) = want {
            assert_eq!(auts, w, "{g}");
        }
        // The puzzle algorithm agrees on a full board.
        let p = PuzzleCanonicalizer::new().canonical(&g.to_puzzle());
        assert_eq!(p.form.as_bytes(), &form, "{g}");
        assert_eq!(p.automorphisms, auts, "{g}");
    }
}

#[test]
fn puzzle_forms_and_automorphisms_match_brute_force() {
    let puzzles = [
        // A 17-clue puzzle.
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        // A minimal puzzle with 180-degree symmetry.
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        // The empty puzzle: every positional map is an automorphism.
        ".................................................................................",
        // One given.
        "....5............................................................................",
        // A full row and two givens: automorphisms among the empty columns.
        "123456789.........45.............................................................",
        // The most symmetric grid with its middle band emptied.
        "123456789456789123789123456...........................312645978645978312978312645",
        // Givens on the diagonal only (the transposition is an automorphism).
        "1.........2.........3.........4.........5.........6.........7.........8.........9",
    ];
    let mut canon = PuzzleCanonicalizer::new();
    for line in puzzles {
        let p: Puzzle = line.parse().unwrap();
        let (form, auts) = canon_oracle::canonical(p.as_bytes());
        let fast = canon.canonical(&p);
        assert_eq!(fast.form.as_bytes(), &form, "{line}");
        assert_eq!(fast.automorphisms, auts, "{line}");
    }
    assert_eq!(
        canon.canonical(&Puzzle::empty()).automorphisms,
        POSITIONAL_TRANSFORMATIONS
    );
}

#[test]
fn disguised_grids_get_the_same_form_and_different_classes_different_forms() {
    let mut rng = rng_for(11, 0);
    let mut forms = HashSet::new();
    for i in 0..2000 {
        let g = random_grid(&mut rng_for(12, i));
        let c = canonical_grid(&g);
        assert!(forms.insert(c.form), "two random grids in one class");
        assert_eq!(
            canonical_grid(&grid(disguise(g.as_bytes(), &mut rng))),
            c,
            "{g}"
        );
        assert_eq!(
            canonical_grid(&c.form),
            c,
            "the form of {g} is not a fixed point"
        );
    }
    for line in [MOST_SYMMETRIC, SHIFTED_ROWS] {
        let g = parse_grid(line);
        let c = canonical_grid(&g);
        for _ in 0..200 {
            assert_eq!(canonical_grid(&grid(disguise(g.as_bytes(), &mut rng))), c);
        }
    }
}

#[test]
fn disguised_puzzles_get_the_same_form() {
    let mut rng = rng_for(13, 0);
    let mut canon = PuzzleCanonicalizer::new();
    for i in 0..2000 {
        // Keep a random share of a random grid's cells, from nearly empty to nearly full.
        let g = random_grid(&mut rng_for(14, i));
        let keep = rng.random_range(1..80);
        let mut cells = *g.as_bytes();
        for v in &mut cells {
            if rng.random_range(0..81) >= keep {
                *v = 0;
            }
        }
        let p = Puzzle::from_bytes(cells).unwrap();
        let c = canon.canonical(&p);
        let q = Puzzle::from_bytes(disguise(&cells, &mut rng)).unwrap();
        assert_eq!(canon.canonical(&q), c, "{p}");
        assert_eq!(
            canon.canonical(&c.form),
            c,
            "the form of {p} is not a fixed point"
        );
        assert_eq!(c.form.givens(), p.givens());
    }
}

#[test]
fn shared_data_sets_forms_match_brute_force_and_resist_disguise() {
    let mut rng = rng_for(15, 0);
    let mut canon = PuzzleCanonicalizer::new();
    for set in [
        "puzzles2_17_clue",
        "puzzles3_magictour_top1465",
        "puzzles5_forum_hardest_1905_11+",
        "puzzles6_forum_hardest_1106",
        "puzzles7_serg_benchmark",
        "generated_tdoku_minimal_100k",
    ] {
        let Some(puzzles) = common::load(set) else {
            continue;
        };
        for (i, p) in puzzles.iter().take(500).enumerate() {
            let c = canon.canonical(p);
            let q = Puzzle::from_bytes(disguise(p.as_bytes(), &mut rng)).unwrap();
            assert_eq!(canon.canonical(&q), c, "{set} #{i}");
            if i < 3 {
                let (form, auts) = canon_oracle::canonical(p.as_bytes());
                assert_eq!(c.form.as_bytes(), &form, "{set} #{i}");
                assert_eq!(c.automorphisms, auts, "{set} #{i}");
            }
        }
    }
}
