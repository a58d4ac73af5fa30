//! A puzzle's solving path as data: what `shudu explain --format json` prints and what the
//! WebAssembly package's `explain` returns, built in one place so the two agree.

use serde::Serialize;
use shudu_core::format::Marks;
use shudu_core::logic::{grade_marked, next_hint, Board, Grade, Step};
use shudu_core::solver::{solve_unique_marked, Solutions};
use shudu_core::{Cell, Digit, Puzzle};

use crate::GameError;

/// A placement or an elimination of a step.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct TraceCellDigit {
    /// The cell, `r3c4`.
    pub cell: String,
    /// The digit.
    pub digit: u8,
}

/// A step of the path.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct TraceStep {
    /// SE's name of the technique.
    pub technique: &'static str,
    /// The step's rating (`4.2`).
    pub rating: f64,
    /// The cells a player should look at.
    pub cells: Vec<String>,
    /// The houses involved (`row 3`, `box 5`).
    pub houses: Vec<String>,
    /// Digits placed.
    pub placements: Vec<TraceCellDigit>,
    /// Candidates removed.
    pub eliminations: Vec<TraceCellDigit>,
    /// The step as one line: `Hidden Single: ... => place r3c4=7`.
    pub text: String,
}

/// A puzzle's solving path with its ratings.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Trace {
    /// The givens, an 81-character line.
    pub puzzle: String,
    /// The unique solution.
    pub solution: String,
    /// How many givens.
    pub givens: usize,
    /// The hardest step's rating (SE's ER).
    pub er: f64,
    /// The hardest step up to the first placement (EP).
    pub ep: f64,
    /// The first step's rating (ED).
    pub ed: f64,
    /// The band of `er`.
    pub band: &'static str,
    /// The technique of the first step rated `er`.
    pub hardest: &'static str,
    /// The path, in order.
    pub steps: Vec<TraceStep>,
}

/// The step's sentence without the technique's name it may open with.
pub fn step_sentence(step: &Step) -> &str {
    step.text
        .strip_prefix(step.technique)
        .and_then(|rest| rest.strip_prefix(": "))
        .unwrap_or(&step.text)
}

/// A step's effect: what it places and what it removes (`place r1c1=5; remove r2c2<>3`).
pub fn describe_effect(step: &Step) -> String {
    let mut parts = Vec::new();
    if !step.placements.is_empty() {
        let p: Vec<String> = step
            .placements
            .iter()
            .map(|(c, d)| format!("{c}={d}"))
            .collect();
        parts.push(format!("place {}", p.join(", ")));
    }
    if !step.eliminations.is_empty() {
        let e: Vec<String> = step
            .eliminations
            .iter()
            .map(|(c, d)| format!("{c}<>{d}"))
            .collect();
        parts.push(format!("remove {}", e.join(", ")));
    }
    parts.join("; ")
}

/// A step as one line: `Hidden Single: 7 in box 2 can only go in r3c4 => place r3c4=7` (what
/// `shudu explain --format json` and the Python package's traces carry).
pub fn step_line(step: &Step) -> String {
    format!(
        "{}: {} => {}",
        step.technique,
        step_sentence(step),
        describe_effect(step)
    )
}

/// The path a player's hints take from the givens: where SE's step is a chain, a named
/// technique SE would rate no higher; it ends early where only SE's nested forcing chains go on.
pub fn hint_path(puzzle: &Puzzle, marks: Option<&Marks>) -> Vec<Step> {
    let mut board = Board::from_position(puzzle, puzzle, marks);
    let mut steps = Vec::new();
    // Every step places a digit or removes a candidate: at most 810 steps.
    while let Some(step) = next_hint(&board) {
        board.apply(&step);
        steps.push(step);
        if steps.len() > 810 {
            break;
        }
    }
    steps
}

/// The trace of a graded puzzle `g` along `steps` (its own path, or [`hint_path`]).
///
/// # Errors
/// `BadRequest` if the puzzle (with its marks) has not exactly one solution.
pub fn trace(
    puzzle: &Puzzle,
    marks: Option<&Marks>,
    g: &Grade,
    steps: &[Step],
) -> Result<Trace, GameError> {
    let Solutions::Unique(solution) = solve_unique_marked(puzzle, marks) else {
        return Err(GameError::BadRequest(
            "the puzzle has not exactly one solution".into(),
        ));
    };
    let pairs = |v: &[(Cell, Digit)]| -> Vec<TraceCellDigit> {
        v.iter()
            .map(|(c, d)| TraceCellDigit {
                cell: c.to_string(),
                digit: d.get(),
            })
            .collect()
    };
    Ok(Trace {
        puzzle: puzzle.to_line(),
        solution: solution.to_line(),
        givens: puzzle.givens(),
        er: f64::from(g.er.0) / 10.0,
        ep: f64::from(g.ep.0) / 10.0,
        ed: f64::from(g.ed.0) / 10.0,
        band: g.band.name(),
        hardest: g.hardest(),
        steps: steps
            .iter()
            .map(|s| TraceStep {
                technique: s.technique,
                rating: f64::from(s.rating.0) / 10.0,
                cells: s.cells.iter().map(|c| c.to_string()).collect(),
                houses: s.houses.iter().map(|h| h.to_string()).collect(),
                placements: pairs(&s.placements),
                eliminations: pairs(&s.eliminations),
                text: step_line(s),
            })
            .collect(),
    })
}

/// Grades the puzzle and traces its path: SE's, or with `named` the hints' ([`hint_path`]).
///
/// # Errors
/// `BadRequest` if the puzzle (with its marks) has not exactly one solution.
pub fn explain(puzzle: &Puzzle, marks: Option<&Marks>, named: bool) -> Result<Trace, GameError> {
    let g = grade_marked(puzzle, marks);
    let steps = if named {
        hint_path(puzzle, marks)
    } else {
        g.steps.clone()
    };
    trace(puzzle, marks, &g, &steps)
}
