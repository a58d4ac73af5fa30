//! Keep the first puzzle of each class of equivalent ones (relabelled, transposed, rows, columns,
//! bands or stacks permuted), as `shudu canon --dedupe` does:
//!
//! ```text
//! cargo run --release -p shudu-core --example dedupe -- puzzles.txt > distinct.txt
//! ```
//!
//! Without a file it reads a small sample: a puzzle, two disguised copies of it (transposed; two rows swapped) and another.

use shudu_core::canon::{canonical_puzzle, NewClasses};
use shudu_core::format::Reader;

const SAMPLE: &str = "\
53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
56.847...3.9...6....8.......1..8..4.79.6.2.18.5..3..9.......2....6...8.7...316.59
6..195...53..7.....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = match std::env::args().nth(1) {
        Some(path) => std::fs::read_to_string(path)?,
        None => SAMPLE.to_string(),
    };
    let (mut seen, mut read, mut kept) = (NewClasses::default(), 0, 0);
    for record in Reader::new(text.as_bytes()) {
        let r = record?;
        read += 1;
        if seen.insert(&r.puzzle) {
            kept += 1;
            println!("{}", r.puzzle.to_line());
        } else {
            eprintln!(
                "puzzle {}: equivalent to an earlier one ({})",
                r.number,
                canonical_puzzle(&r.puzzle).form.to_line()
            );
        }
    }
    eprintln!("{kept} of {read} puzzles kept");
    Ok(())
}
