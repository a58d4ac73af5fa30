//! Hard puzzles from the players' forum that the vicinity hunt starts from
//! ([`super::vicinity::seeded_hunt`]): a public list's puzzles as starting points, never as
//! output. Every puzzle the hunt emits is checked to be equivalent to none of them.
//!
//! The list (`crates/core/data/seeds.bin`, [`crate::pack`] records) is made by
//! `cargo run -p shudu-tools -- seeds ../shared/data` from two lists of `../shared/data`
//! (`SOURCES.md` there): every puzzle of the 2011 forum "hardest" database
//! (`puzzles6_forum_hardest_1106`, 375 puzzles) and 3,000 drawn with a fixed seed from the 2019
//! list's subset rated 11 and more (`puzzles5_forum_hardest_1905_11+`). Most are rated 10.0 to
//! 11.x by Sudoku Explainer; the neighbours the hunt makes from them are rated anywhere from 1.5
//! up, and the gates of [`super::vicinity`] pick the hard ones.

use std::collections::HashSet;
use std::sync::OnceLock;

use crate::canon::PuzzleCanonicalizer;
use crate::grid::Puzzle;

/// The packed list, built into the library.
const PACKED: &[u8] = include_bytes!("../../data/seeds.bin");

/// The seed puzzles, unpacked on first use.
pub fn seeds() -> &'static [Puzzle] {
    static SEEDS: OnceLock<Vec<Puzzle>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        crate::pack::records(PACKED, 0)
            .expect("the built-in seed list is well formed (a test reads it)")
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    })
}

/// Whether `form` (a canonical form, [`crate::canon`]) is the class of a seed puzzle.
pub fn is_seed_class(form: &Puzzle) -> bool {
    static FORMS: OnceLock<HashSet<Puzzle>> = OnceLock::new();
    FORMS
        .get_or_init(|| {
            let mut canon = PuzzleCanonicalizer::new();
            seeds().iter().map(|p| canon.canonical(p).form).collect()
        })
        .contains(form)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::count_solutions;

    #[test]
    fn every_seed_is_proper_and_its_own_class_is_known() {
        let seeds = seeds();
        assert_eq!(seeds.len(), 3375);
        let mut canon = PuzzleCanonicalizer::new();
        for p in seeds.iter().step_by(97) {
            assert_eq!(count_solutions(p, 2).count, 1, "{p}");
            assert!(is_seed_class(&canon.canonical(p).form), "{p}");
        }
        let easy: Puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        assert!(!is_seed_class(&canon.canonical(&easy).form));
    }
}
