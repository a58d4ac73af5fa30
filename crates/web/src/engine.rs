//! The one place the web crate calls the core's generator and grader.
//!
//! TEMPORARY stand-ins while `shudu_core::generate` and `shudu_core::logic` are being written:
//! the "generator" deals two fixed puzzles and the "hint" finds naked singles only. Replaced by
//! the real calls as soon as those modules land.

use std::fmt;
use std::str::FromStr;

use shudu_core::grids::Rng;
use shudu_core::{Cell, Digit, DigitSet, House, Puzzle};

/// A difficulty band (stand-in for `shudu_core::logic::Band`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Band {
    /// Singles only.
    Easy,
    /// Locked candidates and subsets.
    Medium,
    /// Fish and wings.
    Hard,
    /// Short chains.
    Fiendish,
    /// Long chains.
    Diabolical,
    /// Nested chains.
    Extreme,
}

impl Band {
    /// Every band, easiest first.
    pub const ALL: [Band; 6] = [
        Band::Easy,
        Band::Medium,
        Band::Hard,
        Band::Fiendish,
        Band::Diabolical,
        Band::Extreme,
    ];

    /// The band's lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Band::Easy => "easy",
            Band::Medium => "medium",
            Band::Hard => "hard",
            Band::Fiendish => "fiendish",
            Band::Diabolical => "diabolical",
            Band::Extreme => "extreme",
        }
    }
}

impl FromStr for Band {
    type Err = String;
    fn from_str(s: &str) -> Result<Band, String> {
        Band::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!(
                    "unknown band '{s}'; expected one of easy, medium, hard, fiendish, diabolical, extreme"
                )
            })
    }
}

/// A rating in tenths (stand-in for `shudu_core::logic::Rating`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rating(pub u16);

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

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

const STAND_INS: [(&str, Band, u16); 2] = [
    (
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        Band::Easy,
        20,
    ),
    (
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        Band::Hard,
        66,
    ),
];

/// A new puzzle with a unique solution and the given symmetry.
pub fn generate(_symmetry: Symmetry, rng: &mut Rng) -> Puzzle {
    let i = (rand::RngCore::next_u32(rng) % 2) as usize;
    STAND_INS[i].0.parse().expect("stand-in puzzles parse")
}

/// The puzzle's rating and band.
pub fn grade(p: &Puzzle) -> (Rating, Band) {
    for (line, band, r) in STAND_INS {
        let q: Puzzle = line.parse().expect("stand-in puzzles parse");
        if q.givens() == p.givens() {
            return (Rating(r), band);
        }
    }
    (Rating(30), Band::Medium)
}

/// One step of logic (stand-in for `shudu_core::logic::Step`).
#[derive(Clone, Debug)]
pub struct Step {
    /// The technique's name.
    pub technique: &'static str,
    /// Its rating.
    pub rating: Rating,
    /// Digits the step places.
    pub placements: Vec<(Cell, Digit)>,
    /// Candidates the step removes.
    pub eliminations: Vec<(Cell, Digit)>,
    /// The cells the step looks at.
    pub cells: Vec<Cell>,
    /// The houses the step looks at.
    pub houses: Vec<House>,
    /// The full explanation.
    pub text: String,
}

impl Step {
    /// The first stage of a hint: the technique to look for.
    pub fn hint_technique(&self) -> String {
        format!("Look for a {}.", self.technique.to_lowercase())
    }
    /// The second stage: where.
    pub fn hint_where(&self) -> String {
        let names: Vec<String> = self.cells.iter().map(|c| c.to_string()).collect();
        format!("Look at {}.", names.join(", "))
    }
}

/// The next logical step from a position, if the grader finds one.
pub fn next_step(
    givens: &Puzzle,
    entries: &Puzzle,
    marks: Option<&[DigitSet; 81]>,
) -> Option<Step> {
    let mut board = *givens;
    for c in Cell::all() {
        if let Some(d) = entries.get(c) {
            board.set(c, Some(d));
        }
    }
    for c in Cell::all() {
        if board.get(c).is_some() {
            continue;
        }
        let mut cands = board.candidates(c);
        if let Some(m) = marks {
            if !m[c.as_index()].is_empty() {
                cands = cands & m[c.as_index()];
            }
        }
        if cands.len() == 1 {
            let d = cands.first()?;
            return Some(Step {
                technique: "Naked Single",
                rating: Rating(23),
                placements: vec![(c, d)],
                eliminations: vec![],
                cells: vec![c],
                houses: vec![],
                text: format!(
                    "{c} can only hold {d}: every other digit is in its row, column or box."
                ),
            });
        }
    }
    None
}
