//! Grade a puzzle step by step, as a player would solve it, as `shudu explain` does:
//!
//! ```text
//! cargo run --release -p shudu-core --example grade_trace -- [PUZZLE]
//! ```
//!
//! Prints each step (technique, rating, what it places and removes, and the sentence a player
//! reads), then the puzzle's ratings on the Sudoku Explainer scale and its band.

use shudu_core::logic::grade;
use shudu_core::Puzzle;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let line = std::env::args().nth(1).unwrap_or_else(|| {
        "..2...9..9....6..18..4...3.....6..5..3...82........3.7.2.9..1..6.1.5.....7...4...".into()
    });
    let puzzle: Puzzle = line.parse()?;
    let g = grade(&puzzle);
    for (k, step) in g.steps.iter().enumerate() {
        let placed: Vec<String> = step
            .placements
            .iter()
            .map(|(c, d)| format!("{c}={d}"))
            .collect();
        let removed: Vec<String> = step
            .eliminations
            .iter()
            .map(|(c, d)| format!("{c}-{d}"))
            .collect();
        println!(
            "{:>3}. {} ({}) [{}{}] {}",
            k + 1,
            step.technique,
            step.rating,
            placed.join(" "),
            if removed.is_empty() {
                String::new()
            } else {
                format!(" removes {}", removed.join(" "))
            },
            step.text
        );
    }
    if !g.solved {
        return Err("the puzzle has no solution or more than one".into());
    }
    println!("ER {} EP {} ED {}: {:?}", g.er, g.ep, g.ed, g.band);
    Ok(())
}
