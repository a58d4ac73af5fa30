//! Solve every puzzle of a file, as `shudu solve` does, with the library alone:
//!
//! ```text
//! cargo run --release -p shudu-core --example solve_file -- puzzles.txt
//! ```
//!
//! Any format the library reads (one 81-character line a puzzle, 9-line grids, JSON, pencil
//! marks); a bad record is reported in its place with its line and column, and the rest are
//! still solved. Without a file it solves a small sample.

use shudu_core::format::Reader;
use shudu_core::solver::{solve_unique, Solutions};

const SAMPLE: &str = "\
# a 17-clue puzzle, a puzzle with two solutions, a typo
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
.....6....59.....82....8....45........3........6..3.54...325..6..................
53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7x
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = match std::env::args().nth(1) {
        Some(path) => std::fs::read_to_string(path)?,
        None => SAMPLE.to_string(),
    };
    for record in Reader::new(text.as_bytes()) {
        match record {
            Ok(r) => match solve_unique(&r.puzzle) {
                Solutions::Unique(grid) => println!("{}", grid.to_line()),
                Solutions::Multiple(_) => println!("puzzle {}: more than one solution", r.number),
                Solutions::None => println!("puzzle {}: no solution", r.number),
            },
            Err(e) => println!("{e}"),
        }
    }
    Ok(())
}
