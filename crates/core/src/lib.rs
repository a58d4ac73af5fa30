//! shudu-core: the engine of shudu (数独), a Sudoku generator, solver, grader and game.
//!
//! A pure library (no file or network I/O; `unsafe` only in its one SIMD crate) with:
//! - an **exact solver** that counts solutions to a limit (0, 1, "more than one") and is the
//!   fastest we know of on the public benchmark sets ([`solver`]);
//! - **complete grids** (终盘) in bulk, every one of the 6.67 × 10²¹ reachable, seeded,
//!   distinct in a batch, or drawn uniformly ([`grids`], [`count`]);
//! - **puzzles** (初盘) dug from grids with exactly one solution: givens, symmetry, minimality
//!   ([`generate`]), and a chosen difficulty, technique or Sudoku Explainer rating range
//!   ([`rated`], [`needs`]);
//! - a **human-style solver**: SE's techniques in SE's order, its ratings (ER/EP/ED) reproduced
//!   exactly, steps that explain themselves and hints in stages ([`logic`]);
//! - **canonical forms**: which grids and puzzles are the same in disguise ([`canon`]).
//!
//! # Should I use it?
//! Use it when a program needs Sudoku puzzles that are certainly unique, rated on the scale
//! players and puzzle makers know, in numbers; or an exact solver or grader as a library. The
//! `shudu` command line, the browser game (`shudu-web`) and the Python package are thin layers
//! over this crate. Classic 9×9 Sudoku has every capability above; other sizes (4×4 to 16×16),
//! Sudoku X, Windoku, jigsaw, killer, anti-knight and anti-king have the exact solver
//! ([`variant`]).
//!
//! # Contents
//! | module | what it holds |
//! |---|---|
//! | [`grid`], [`bitset`] | [`Puzzle`] and [`Grid`] and the rules; [`Cell`], [`Digit`], [`House`] and their sets |
//! | [`format`](mod@format), [`error`] | reading (any of the line, grid, pretty, JSON and pencil-mark formats, each error with its line and column) and writing |
//! | [`solver`] | the exact solver: solve, count to a limit, uniqueness |
//! | [`grids`], [`count`], [`essential`] | random complete grids; counting them (band completions) and drawing them uniformly; Burnside's count of the essentially different ones |
//! | [`generate`] | puzzles with a unique solution: givens, symmetry, minimality, streamed in batches |
//! | [`rated`], [`needs`] | puzzles of a band or SE rating range, or whose path needs chosen techniques |
//! | [`logic`] | the human-style solver: steps, ratings, bands, hints |
//! | [`canon`] | canonical forms, automorphisms, band classes, [`canon::NewClasses`] |
//! | [`pack`] | the compact format of the built-in puzzle lists |
//! | [`variant`] | variants: sizes 4×4 to 16×16, X, Windoku, jigsaw, killer, anti-knight, anti-king; their exact solver |
//!
//! How the algorithms work, and why: `docs/ALGORITHM.md` and the other `docs/` of the
//! repository; figures beside the peers: `BENCHMARKS.md`.
//!
//! # Examples
//! Solve every puzzle of a file, reporting each bad record in its place:
//! ```
//! use shudu_core::{format::Reader, solver::{solve_unique, Solutions}};
//! let file = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
//!             not a puzzle\n";
//! for record in Reader::new(file.as_bytes()) {
//!     match record {
//!         Ok(r) => match solve_unique(&r.puzzle) {
//!             Solutions::Unique(grid) => assert_eq!(&grid.to_line()[..9], "417369825"),
//!             other => println!("puzzle {}: {other:?}", r.number),
//!         },
//!         Err(e) => assert!(e.to_string().starts_with("puzzle 2, line 2, column 1")),
//!     }
//! }
//! ```
//! A small bank of rated puzzles of one band, seeded (the same seed gives the same puzzles
//! whatever the thread count):
//! ```
//! use shudu_core::{generate::GenerateConfig, logic::Band, rated::{generate_rated_batch, RatedConfig}};
//! let config = RatedConfig::band(GenerateConfig::default(), Band::Hard);
//! let bank = generate_rated_batch(&config, 3, 42, None, &|_| {}).expect("a valid config");
//! for (made, rating) in &bank.puzzles {
//!     assert_eq!(rating.band, Band::Hard);
//!     println!("{} {} {}", made.puzzle.to_line(), made.solution.to_line(), rating.er);
//! }
//! ```
//! Grade a puzzle with its trace, step by step as a player would solve it:
//! ```
//! use shudu_core::{logic::grade, Puzzle};
//! let p: Puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!     .parse()?;
//! let g = grade(&p);
//! assert!(g.solved);
//! assert_eq!((g.er.to_string(), g.steps[0].technique), ("1.2".to_string(), "Hidden Single"));
//! for step in g.steps.iter().take(3) {
//!     println!("{} ({}): {}", step.technique, step.rating, step.text);
//! }
//! # Ok::<(), shudu_core::ParseError>(())
//! ```
//! Remove equivalent puzzles (relabelled, transposed, rows or bands swapped) from a list:
//! ```
//! use shudu_core::{canon::NewClasses, Puzzle};
//! let a: Puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!     .parse()?;
//! // The same puzzle transposed, and with its digits 1 and 2 swapped.
//! let t = Puzzle::from_bytes(std::array::from_fn(|i| a.as_bytes()[(i % 9) * 9 + i / 9])).unwrap();
//! let s = Puzzle::from_bytes(a.as_bytes().map(|v| match v { 1 => 2, 2 => 1, v => v })).unwrap();
//! let mut seen = NewClasses::default();
//! let kept: Vec<Puzzle> = [a, t, s].into_iter().filter(|p| seen.insert(p)).collect();
//! assert_eq!(kept, vec![a]);
//! # Ok::<(), shudu_core::ParseError>(())
//! ```

#![warn(missing_docs)]

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
pub mod time;
pub mod variant;

pub use bitset::{Cell, CellSet, Digit, DigitSet, House};
pub use error::{ParseError, ParseErrorKind};
pub use grid::{Conflict, Grid, GridError, Puzzle};
