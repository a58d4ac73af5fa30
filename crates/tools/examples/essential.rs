//! Computes the number of essentially different grids by Burnside's lemma and prints the table
//! of classes with fixed grids, and how long the census (the identity's fixed grids) and the
//! other classes took: `cargo run --release -p shudu-tools --example essential`.

use std::time::Instant;

use shudu_core::count::census;
use shudu_core::essential::essentially_different_given_grids;

fn main() {
    let start = Instant::now();
    let grids = census(&|_, _| {}).grids;
    let census_time = start.elapsed();
    let count =
        essentially_different_given_grids(grids, &|done, of| eprint!("\r{done}/{of} classes"));
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
    println!(
        "census: {census_time:.2?}, other classes: {:.2?}",
        start.elapsed() - census_time
    );
}
