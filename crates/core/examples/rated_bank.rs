//! A bank of rated puzzles of one band, as `shudu generate --difficulty BAND` makes them:
//!
//! ```text
//! cargo run --release -p shudu-core --example rated_bank -- [BAND] [COUNT] [SEED]
//! ```
//!
//! Each line: the puzzle, its solution, its Sudoku Explainer rating (ER/EP/ED) and the technique
//! of its hardest step. The same seed gives the same bank whatever the number of threads; no
//! two puzzles of a bank are equivalent. Defaults: fiendish, 5 puzzles, seed 1.

use shudu_core::generate::GenerateConfig;
use shudu_core::logic::Band;
use shudu_core::rated::{generate_rated_batch, RatedConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let band: Band = args.next().as_deref().unwrap_or("fiendish").parse()?;
    let count: usize = args.next().as_deref().unwrap_or("5").parse()?;
    let seed: u64 = args.next().as_deref().unwrap_or("1").parse()?;

    let config = RatedConfig::band(GenerateConfig::default(), band);
    let bank = generate_rated_batch(&config, count, seed, None, &|_| {})?;
    for (made, rating) in &bank.puzzles {
        println!(
            "{} {} {}/{}/{} {}",
            made.puzzle.to_line(),
            made.solution.to_line(),
            rating.er,
            rating.ep,
            rating.ed,
            rating.hardest
        );
    }
    eprintln!(
        "{} {band:?} puzzles from {} grids",
        bank.puzzles.len(),
        bank.grids
    );
    Ok(())
}
