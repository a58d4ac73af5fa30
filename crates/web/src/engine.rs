//! The one place the web crate calls the core's generator and grader, so that the handlers and
//! the pool speak only of puzzles, bands and steps.

use shudu_core::generate::{generate_one, GenerateConfig};
use shudu_core::grids::Rng;
use shudu_core::logic;
use shudu_core::{DigitSet, Puzzle};

pub use shudu_core::generate::Symmetry;
pub use shudu_core::logic::{Band, Rating, Step};

/// A new minimal puzzle with a unique solution and the given symmetry.
pub fn generate(symmetry: Symmetry, rng: &mut Rng) -> Puzzle {
    let config = GenerateConfig {
        symmetry,
        ..GenerateConfig::default()
    };
    // Without a givens range every attempt succeeds; the loop only guards a future config.
    loop {
        if let Some(g) = generate_one(&config, rng) {
            return g.puzzle;
        }
    }
}

/// The puzzle's rating (Sudoku Explainer's ER) and band.
pub fn grade(p: &Puzzle) -> (Rating, Band) {
    let g = logic::grade(p);
    (g.er, g.band)
}

/// The next logical step from a player's position, if the grader finds one.
pub fn next_step(
    givens: &Puzzle,
    entries: &Puzzle,
    marks: Option<&[DigitSet; 81]>,
) -> Option<Step> {
    logic::next_step(&logic::Board::from_position(givens, entries, marks))
}
