//! Variants: sizes from 4×4 to 16×16, the diagonals of Sudoku X, Windoku's extra boxes,
//! jigsaw regions, killer cages, anti-knight and anti-king, under one general engine.
//!
//! A [`Rules`] value holds the layout (size, boxes or jigsaw regions, extra houses, cages and
//! move constraints); a [`VariantPuzzle`] is a digit a cell under those rules, read and written
//! in the line format extended to every size (`1`-`9` then `A`-`G`, `.` or `0` for empty);
//! [`count_solutions`] counts its solutions to a limit and [`is_solution`] judges a finished
//! grid by the rules. The classic 9×9 keeps its own faster paths ([`crate::solver`]); this
//! engine serves every other combination, and is checked against an independent oracle in
//! `tests/variant.rs`. How it works: docs/variants.md.
//!
//! ```
//! use shudu_core::variant::{count_solutions, is_solution, Cage, Rules, VariantPuzzle};
//! // A 6×6 Sudoku X: rows, columns, 2×3 boxes and both diagonals.
//! let rules = Rules::classic(6)?.with_diagonals();
//! let empty = VariantPuzzle::parse_line(rules.clone(), &".".repeat(36)).unwrap();
//! let c = count_solutions(&empty, 2);
//! assert_eq!(c.count, 2, "an empty grid has many solutions: the count stops at the limit");
//! let grid = c.solution.unwrap();
//! assert!(is_solution(&rules, &grid));
//! // All but one cell given: exactly one solution is left.
//! let mut cells = grid.clone();
//! cells[0] = 0;
//! let p = VariantPuzzle::new(rules, cells).unwrap();
//! assert_eq!(p.to_line().len(), 36);
//! assert_eq!(count_solutions(&p, 2).solution, Some(grid));
//!
//! // A 4×4 killer: cages only, no givens.
//! let cages = vec![
//!     Cage { cells: vec![0, 1], sum: Some(3) }, // r1c1 + r1c2 = 3
//!     Cage { cells: vec![4, 8], sum: Some(7) }, // r2c1 + r3c1 = 7
//! ];
//! let rules = Rules::classic(4)?.with_cages(cages)?;
//! let p = VariantPuzzle::parse_line(rules, "................").unwrap();
//! let s = count_solutions(&p, 1).solution.unwrap();
//! assert_eq!(s[0] + s[1], 3);
//! # Ok::<(), shudu_core::variant::RulesError>(())
//! ```

pub mod fpuzzles;
mod generate;
mod kind;
pub mod logic;
mod puzzle;
mod rules;
mod solve;

pub use generate::{
    generate, generate_jigsaw, random_regions, VariantConfig, VariantGenerateError,
};
pub use kind::{read_puzzle, Variants, VariantsError, NAMES};
pub use puzzle::{digit_of, symbol, LineError, VariantPuzzle};
pub use rules::{Cage, Rules, RulesError, MAX_SIZE};
pub use solve::{count_solutions, is_solution, random_solution, VariantCount, VariantSolver};
