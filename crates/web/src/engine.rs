//! The one place the web crate calls the core's generator and grader.
//!
//! TEMPORARY stand-in while `shudu_core::generate` is being written: the "generator" deals two
//! fixed puzzles (and [`Symmetry`] is a local enum). Replaced by the real call when it lands.

use std::str::FromStr;

use shudu_core::grids::Rng;
use shudu_core::logic;
use shudu_core::{DigitSet, Puzzle};

pub use shudu_core::logic::{Band, Rating, Step};

/// A symmetry of the givens (stand-in for `shudu_core::generate::Symmetry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// No constraint.
    #[default]
    None,
    /// 180° rotation.
    Rotational,
}

impl Symmetry {
    /// The symmetry's name as the API spells it.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
        }
    }
    /// Every symmetry the API accepts.
    pub const ALL: [Symmetry; 2] = [Symmetry::None, Symmetry::Rotational];
}

impl FromStr for Symmetry {
    type Err = String;
    fn from_str(s: &str) -> Result<Symmetry, String> {
        Symmetry::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown symmetry '{s}'; expected none or rotational"))
    }
}

const STAND_INS: [&str; 2] = [
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
];

/// A new puzzle with a unique solution and the given symmetry.
pub fn generate(_symmetry: Symmetry, rng: &mut Rng) -> Puzzle {
    let i = (rand::RngCore::next_u32(rng) % 2) as usize;
    STAND_INS[i].parse().expect("stand-in puzzles parse")
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
