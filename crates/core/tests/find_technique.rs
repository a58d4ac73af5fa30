//! `logic::find_technique`, the step of a chosen technique that a player practising it is shown:
//! for every technique of the catalogue, on puzzles made to need it (`generate --needs`), it
//! finds a step of that technique at the position where the path uses it, the very step the
//! path takes there; and it finds none where the position holds none.
//!
//! The few techniques that the generator rarely reaches in a short budget (direct claiming, the
//! deepest forcing chains, the quads) are looked for in the paths of the shared calibration
//! puzzles (`../shared/data/se_calibration.tsv`, or `$SHUDU_DATA`) instead; a technique found in
//! neither is reported, and the test fails unless it is one of those known to be that rare.

use std::path::PathBuf;
use std::time::Duration;

use shudu_core::generate::GenerateConfig;
use shudu_core::logic::{find_technique, grade, next_hint, Board, Rating, Step};
use shudu_core::needs::{Technique, TechniqueSet};
use shudu_core::rated::{generate_rated_batch, RatedConfig, MAX_RATING};
use shudu_core::Puzzle;

/// Techniques that neither a short generator budget nor the calibration paths may reach: the
/// generator's benchmark (BENCHMARKS.md, "Puzzles that need a technique") found none of them in 20 seconds,
/// and 3,000 random puzzles' paths hold no direct claiming.
const RARE: [Technique; 3] = [
    Technique::DirectClaiming,
    Technique::DynamicForcingChainsPlus,
    Technique::NestedForcingChains,
];

/// The path of a puzzle as (position before the step, step): the grader's, or the hints' (as
/// `shudu explain --named` walks it) for a named technique.
fn path(p: &Puzzle, hints: bool) -> Vec<(Board, Step)> {
    let mut board = Board::new(p);
    let mut out = Vec::new();
    if hints {
        while let Some(step) = next_hint(&board) {
            let before = board.clone();
            board.apply(&step);
            out.push((before, step));
        }
    } else {
        for step in grade(p).steps {
            let before = board.clone();
            board.apply(&step);
            out.push((before, step));
        }
    }
    out
}

/// The first position of `p`'s path where the path uses `t`, with the path's step there.
fn where_used(p: &Puzzle, t: Technique) -> Option<(Board, Step)> {
    path(p, t.is_named())
        .into_iter()
        .find(|(_, s)| Technique::of_step(s.technique) == Some(t))
}

/// A puzzle made to need `t`, if the generator finds one in a short budget.
fn generated(t: Technique, seed: u64) -> Option<Puzzle> {
    let config = RatedConfig {
        base: GenerateConfig::default(),
        rating: (Rating(0), MAX_RATING),
        needs: vec![TechniqueSet::single(t)],
        without: TechniqueSet::EMPTY,
    };
    let batch = generate_rated_batch(&config, 1, seed, Some(Duration::from_secs(2)), &|_| {})
        .expect("a valid config");
    batch.puzzles.first().map(|(g, _)| g.puzzle)
}

fn calibration_puzzles() -> Vec<Puzzle> {
    let dir = std::env::var_os("SHUDU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    let Ok(text) = std::fs::read_to_string(dir.join("se_calibration.tsv")) else {
        eprintln!("no calibration set in {}", dir.display());
        return Vec::new();
    };
    text.lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next()?.parse().ok())
        .collect()
}

/// `find_technique` at the position where the path uses `t`: a step of `t`, the path's own.
fn assert_found_where_used(t: Technique, p: &Puzzle, (board, used): &(Board, Step)) {
    let found = find_technique(board, t)
        .unwrap_or_else(|| panic!("{t}: none found where the path of {p} uses {used:?}"));
    assert_eq!(
        Technique::of_step(found.technique),
        Some(t),
        "{t} on {p}: found {}",
        found.technique
    );
    assert!(
        !found.placements.is_empty() || !found.eliminations.is_empty(),
        "{t} on {p}: a step that does nothing"
    );
    // The path takes the easiest step of all; the easiest step of `t` is that one.
    assert_eq!(
        (&found.placements, &found.eliminations, found.rating),
        (&used.placements, &used.eliminations, used.rating),
        "{t} on {p}"
    );
}

#[test]
fn every_technique_is_found_where_the_path_uses_it() {
    let mut calibration: Option<Vec<Puzzle>> = None;
    let mut missing = Vec::new();
    for (k, t) in Technique::ALL.into_iter().enumerate() {
        let made = generated(t, 11 + k as u64).and_then(|p| where_used(&p, t).map(|at| (p, at)));
        let found = made.or_else(|| {
            calibration
                .get_or_insert_with(calibration_puzzles)
                .iter()
                // Graded puzzles only as far as needed: the first whose path uses `t`.
                .find_map(|p| where_used(p, t).map(|at| (*p, at)))
        });
        match found {
            Some((p, at)) => assert_found_where_used(t, &p, &at),
            None => missing.push(t),
        }
    }
    eprintln!("neither generated nor in the calibration paths: {missing:?}");
    assert!(
        missing.iter().all(|t| RARE.contains(t)),
        "no position found for {missing:?}"
    );
}

#[test]
fn nothing_is_found_where_the_position_holds_no_step_of_it() {
    // A graded easy puzzle walked to its last empty cell: that cell is a full house and a naked
    // single, and nothing else is there; on the solved grid nothing at all.
    let p: Puzzle =
        "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
            .parse()
            .unwrap();
    let steps = path(&p, false);
    let (last, _) = steps.last().expect("a path");
    let mut solved = last.clone();
    solved.apply(&steps.last().unwrap().1);
    assert!(solved.is_solved());
    for t in Technique::ALL {
        let one_left = find_technique(last, t);
        let expected = matches!(t, Technique::FullHouse | Technique::NakedSingle);
        assert_eq!(one_left.is_some(), expected, "{t} with one empty cell");
        assert!(find_technique(&solved, t).is_none(), "{t} on a solved grid");
    }
    // The start of a puzzle that singles solve: no fish, wing or unique rectangle (its raw
    // candidates do hold one-digit patterns such as a skyscraper: the singles come first).
    let start = Board::new(&p);
    for t in [
        Technique::XWing,
        Technique::Swordfish,
        Technique::XyWing,
        Technique::UniqueRectangle,
    ] {
        assert!(
            find_technique(&start, t).is_none(),
            "{t} at the start of {p}"
        );
    }
}

#[test]
fn an_x_wing_is_found_where_an_easier_step_exists() {
    // A puzzle made to need an X-Wing, walked up to it: one position earlier the grader's step
    // is an easier one, and the X-Wing is not there yet or already is; at the X-Wing's position
    // a single may also be found, but the practised technique is asked for by name.
    let p = generated(Technique::XWing, 3).expect("x-wing puzzles are common");
    let steps = path(&p, false);
    let at = steps
        .iter()
        .position(|(_, s)| s.technique == "X-Wing")
        .expect("the path uses an X-Wing");
    let (board, used) = &steps[at];
    assert_eq!(find_technique(board, Technique::XWing).as_ref(), Some(used));
    // Before any step the X-Wing, if the candidates already hold it, is shown all the same.
    let first = find_technique(&steps[0].0, Technique::XWing);
    if let Some(s) = first {
        assert_eq!(s.technique, "X-Wing");
        assert_ne!(steps[0].1.technique, "X-Wing");
    }
}

#[test]
fn every_step_found_agrees_with_the_solution() {
    // Every technique at every position of a few paths (every 97th calibration puzzle, ten of
    // every band, and one made to need direct pointing): each step found agrees with the
    // solution, and direct claiming, which no path reaches first, is found somewhere.
    let mut puzzles: Vec<Puzzle> = calibration_puzzles().into_iter().step_by(97).collect();
    puzzles.extend(generated(Technique::DirectPointing, 1));
    let mut claiming = 0;
    for p in &puzzles {
        let solution = match shudu_core::solver::solve_unique(p) {
            shudu_core::solver::Solutions::Unique(g) => g,
            _ => panic!("{p} is not proper"),
        };
        for (board, _) in path(p, false) {
            for t in Technique::ALL {
                let Some(s) = find_technique(&board, t) else {
                    continue;
                };
                claiming += usize::from(t == Technique::DirectClaiming);
                for &(c, d) in &s.placements {
                    assert_eq!(solution.get(c), d, "{t} on {p}: {}", s.text);
                }
                for &(c, d) in &s.eliminations {
                    assert_ne!(solution.get(c), d, "{t} on {p}: {}", s.text);
                }
            }
        }
    }
    eprintln!("direct claiming found at {claiming} positions");
    assert!(
        claiming > 0,
        "no direct claiming in {} paths",
        puzzles.len()
    );
}
