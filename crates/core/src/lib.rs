//! shudu-core: the engine of shudu (数独), a Sudoku generator, solver, grader and game.
//!
//! A pure library: no file or network I/O. It holds the grid model, the formats, an exact solver
//! that counts solutions, and the generators of complete grids.
//!
//! # Example
//! ```
//! use shudu_core::{Puzzle, solver::{solve_unique, Solutions}};
//! let p: Puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()?;
//! let Solutions::Unique(grid) = solve_unique(&p) else { panic!("not unique") };
//! assert_eq!(&grid.to_line()[..9], "417369825");
//! # Ok::<(), shudu_core::ParseError>(())
//! ```
//!
//! # Modules
//! - [`canon`]: canonical forms of grids and puzzles, automorphism counts, band classes.
//! - [`count`]: counting complete grids (band completions) and drawing them uniformly.
//! - [`essential`]: the number of essentially different grids, by Burnside's lemma.
//! - [`bitset`]: [`Digit`], [`Cell`], [`House`], [`DigitSet`], [`CellSet`].
//! - [`grid`]: [`Puzzle`] and [`Grid`], and the rules.
//! - [`format`](mod@format): reading and writing the line, grid, pretty and JSON formats.
//! - [`solver`]: the exact solver (solve, count, uniqueness).
//! - [`grids`]: random complete grids, alone or in distinct batches.
//! - [`generate`]: puzzles dug from grids: givens, symmetry, minimality.
//! - [`rated`]: puzzles of a chosen difficulty (SE rating range), by local search on the givens.
//! - [`needs`]: techniques by name, for puzzles whose path needs (or avoids) chosen ones.
//! - [`error`]: the parse error with its position.

pub mod bitset;
pub mod canon;
pub mod count;
pub mod error;
pub mod essential;
pub mod format;
pub mod generate;
pub mod grid;
pub mod grids;
pub mod logic;
pub mod needs;
pub mod pack;
pub mod rated;
pub mod solver;

pub use bitset::{Cell, CellSet, Digit, DigitSet, House};
pub use error::{ParseError, ParseErrorKind};
pub use grid::{Conflict, Grid, GridError, Puzzle};
