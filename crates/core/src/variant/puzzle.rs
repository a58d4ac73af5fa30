//! A variant puzzle, and the line format extended to every size: one symbol a cell, row by row,
//! `1`-`9` then `A`-`G` for 10-16, `.` or `0` for an empty cell.

use thiserror::Error;

use super::rules::Rules;

/// Why a line is not a puzzle of the given rules.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineError {
    /// The line has the wrong number of cells.
    #[error("{found} cells, expected {expected} ({size}×{size})")]
    Length {
        /// Cells found.
        found: usize,
        /// Cells expected (`size²`).
        expected: usize,
        /// The rules' size.
        size: usize,
    },
    /// A symbol that is no digit of this size.
    #[error("column {column}: '{found}' is not a digit of a {size}×{size} puzzle (expected . or 0 for empty, {expected})")]
    Symbol {
        /// 1-based position in the line.
        column: usize,
        /// The symbol found.
        found: char,
        /// The rules' size.
        size: usize,
        /// The symbols allowed, e.g. `1-9 or A-C`.
        expected: String,
    },
}

/// The symbol of a digit: `.` for 0 (empty), `1`-`9`, then `A` for 10 up to `G` for 16.
pub fn symbol(digit: u8) -> char {
    match digit {
        0 => '.',
        1..=9 => (b'0' + digit) as char,
        _ => (b'A' + digit - 10) as char,
    }
}

/// The digit of a symbol (letters in either case), 0 for `.` and `0`, or `None`.
pub fn digit_of(c: char) -> Option<u8> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        'A'..='G' => Some(c as u8 - b'A' + 10),
        'a'..='g' => Some(c as u8 - b'a' + 10),
        _ => None,
    }
}

fn allowed(size: usize) -> String {
    if size <= 9 {
        format!("1-{size}")
    } else {
        format!("1-9 or A-{}", symbol(size as u8))
    }
}

/// A puzzle under a set of [`Rules`]: a digit (0 for empty) a cell, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantPuzzle {
    rules: Rules,
    cells: Vec<u8>,
}

impl VariantPuzzle {
    /// A puzzle from its cells (`size²` digits, 0 for empty, none above `size`).
    pub fn new(rules: Rules, cells: Vec<u8>) -> Result<VariantPuzzle, LineError> {
        let size = rules.size();
        if cells.len() != rules.cells() {
            return Err(LineError::Length {
                found: cells.len(),
                expected: rules.cells(),
                size,
            });
        }
        if let Some(i) = cells.iter().position(|&d| d as usize > size) {
            return Err(LineError::Symbol {
                column: i + 1,
                found: symbol(cells[i].min(16)),
                size,
                expected: allowed(size),
            });
        }
        Ok(VariantPuzzle { rules, cells })
    }

    /// A puzzle from a line of `size²` symbols (surrounding whitespace ignored).
    pub fn parse_line(rules: Rules, line: &str) -> Result<VariantPuzzle, LineError> {
        let size = rules.size();
        let line = line.trim();
        let mut cells = Vec::with_capacity(rules.cells());
        for (i, c) in line.chars().enumerate() {
            match digit_of(c) {
                Some(d) if d as usize <= size => cells.push(d),
                _ => {
                    return Err(LineError::Symbol {
                        column: i + 1,
                        found: c,
                        size,
                        expected: allowed(size),
                    });
                }
            }
        }
        VariantPuzzle::new(rules, cells)
    }

    /// The puzzle as one line of symbols.
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&d| symbol(d)).collect()
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The digits, 0 for an empty cell.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// How many cells hold a digit.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }
}
