//! The core's error types. Each message names where the problem is and what was expected.

use std::fmt;

use crate::grid::Conflict;

/// A puzzle that could not be read. Carries its position in the input: the puzzle's number
/// (1-based, counting every record including bad ones), the line (1-based) and, where it applies,
/// the column (1-based, in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Which puzzle of the input, counting from 1.
    pub puzzle: usize,
    /// The line, counting from 1.
    pub line: usize,
    /// The column, counting from 1, when one character is at fault.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong with a puzzle's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// A character that is not a digit or a blank.
    BadChar(String),
    /// A one-line puzzle with the wrong number of cells.
    WrongLength(usize),
    /// A row of a multi-line grid with the wrong number of cells.
    WrongRowLength {
        /// The row, counting from 1.
        row: usize,
        /// How many cells it has.
        found: usize,
    },
    /// A multi-line grid that ends early.
    ShortGrid(usize),
    /// Two equal digits in one house.
    Conflict(Conflict),
    /// A JSON line that is not valid JSON or lacks a `puzzle` string.
    Json(String),
    /// The input holds no puzzle at all.
    NoPuzzle,
    /// A pencil-mark (729-character) line with a character out of place: field `at` (1 to 9) of
    /// a cell holds neither its digit nor `.` or `0`.
    BadMark {
        /// The cell of the field.
        cell: crate::Cell,
        /// The candidate the position stands for (its digit, 1 to 9).
        at: u8,
        /// The character found, described.
        found: String,
    },
    /// A pencil-mark line leaving a cell without any candidate.
    NoCandidate(crate::Cell),
}

/// `n` and its noun, singular for 1: "1 cell", "80 cells". Every count in a message reads so.
///
/// ```
/// assert_eq!(shudu_core::error::counted(1, "record"), "1 record");
/// assert_eq!(shudu_core::error::counted(3, "row"), "3 rows");
/// ```
pub fn counted(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::BadChar(c) => write!(f, "found {c}; expected 1-9, '.' or '0'"),
            ParseErrorKind::WrongLength(n) => {
                write!(
                    f,
                    "found {}; expected 81 (digits 1-9, '.' or '0' for empty)",
                    counted(*n, "cell")
                )
            }
            ParseErrorKind::WrongRowLength { row, found } => write!(
                f,
                "row {row} has {}; expected 9 (9 digits, each apart from the next by spaces or tabs, or all together)",
                counted(*found, "cell")
            ),
            ParseErrorKind::ShortGrid(rows) => {
                write!(
                    f,
                    "the grid ends after {}; expected 9",
                    counted(*rows, "row")
                )
            }
            ParseErrorKind::Conflict(c) => c.fmt(f),
            ParseErrorKind::Json(msg) => write!(f, "{msg}"),
            ParseErrorKind::NoPuzzle => write!(f, "no puzzle found"),
            ParseErrorKind::BadMark { cell, at, found } => write!(
                f,
                "found {found} in the candidates of {cell}; expected '{at}' (candidate {at} \
                 present) or '.' or '0' (absent), 9 characters a cell"
            ),
            ParseErrorKind::NoCandidate(cell) => write!(
                f,
                "{cell} has no candidate (9 characters of '.' or '0'); expected at least one"
            ),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "puzzle {}, line {}", self.puzzle, self.line)?;
        if let Some(col) = self.column {
            write!(f, ", column {col}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for ParseError {}
