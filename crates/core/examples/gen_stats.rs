//! Development probe: time and givens of minimal-puzzle generation (single thread).
use shudu_core::generate::{generate_one, GenerateConfig};
fn main() {
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let mut rng = shudu_core::grids::rng_for(3, 0);
    let t = std::time::Instant::now();
    let mut givens = 0;
    for _ in 0..n {
        givens += generate_one(&GenerateConfig::default(), &mut rng)
            .unwrap()
            .puzzle
            .givens();
    }
    println!(
        "{:.1} us/puzzle, mean givens {:.2}",
        t.elapsed().as_secs_f64() * 1e6 / n as f64,
        givens as f64 / n as f64
    );
}
