//! Development probe: random complete grids per second on one thread (CPU time).
//! `cargo run --release -p shudu-tools --example grid_rate` (env `N`, default 200000; `ITEMS=1`
//! makes batch items, `grid_for_item`, as `shudu grids` does, instead of `random_grid`).

fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn main() {
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000);
    let items = std::env::var("ITEMS").is_ok_and(|v| v == "1");
    let mut rng = shudu_core::grids::rng_for(1, 0);
    let t0 = cpu_seconds();
    let mut check = 0u64;
    for i in 0..n {
        let g = if items {
            shudu_core::grids::grid_for_item(1, i as u64, None)
        } else {
            shudu_core::grids::random_grid(&mut rng)
        };
        check += g.as_bytes()[40] as u64;
    }
    let secs = cpu_seconds() - t0;
    println!(
        "{n} grids, {:.2} us/grid, {:.0}/s (checksum {check})",
        secs * 1e6 / n as f64,
        n as f64 / secs
    );
}
