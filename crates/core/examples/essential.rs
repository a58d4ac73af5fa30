//! Computes the number of essentially different grids by Burnside's lemma and prints the table
//! of classes with fixed grids: `cargo run --release -p shudu-core --example essential`.

use std::time::Instant;

use shudu_core::essential::essentially_different;

fn main() {
    let start = Instant::now();
    let count = essentially_different(&|done, of| eprint!("\r{done}/{of} classes"));
    eprintln!();
    for (k, c) in count
        .classes
        .iter()
        .enumerate()
        .filter(|(_, c)| c.fixed != 0)
    {
        println!(
            "{k:>3}  {:>6}  {:>26}  {}",
            c.class.size,
            c.invariants(),
            c.class.representative
        );
    }
    println!(
        "essentially different grids: {}",
        count.essentially_different
    );
    println!("time: {:.2?}", start.elapsed());
}
