//! Properties of the complete-grid generator, checked with the oracle's rule check.

mod common;

use proptest::prelude::*;
use shudu_core::grids::{generate_grids, random_grid, rng_for, with_first_digit, GridsConfig};
use shudu_core::solver::count_solutions;
use shudu_core::{Cell, Digit};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_random_grid_obeys_every_house(seed in any::<u64>(), index in any::<u64>()) {
        let g = random_grid(&mut rng_for(seed, index));
        prop_assert!(common::oracle::is_valid_grid(g.as_bytes()));
    }

    #[test]
    fn same_seed_same_grid(seed in any::<u64>(), index in any::<u64>()) {
        prop_assert_eq!(random_grid(&mut rng_for(seed, index)), random_grid(&mut rng_for(seed, index)));
    }

    #[test]
    fn fixing_the_first_digit_keeps_a_valid_grid(seed in any::<u64>(), d in 1u8..=9) {
        let d = Digit::new(d).unwrap();
        let g = with_first_digit(&random_grid(&mut rng_for(seed, 0)), d);
        prop_assert_eq!(g.get(Cell::from_index(0)), d);
        prop_assert!(common::oracle::is_valid_grid(g.as_bytes()));
    }

    #[test]
    fn batches_are_distinct_and_reproducible(seed in any::<u64>(), count in 1usize..3000) {
        let config = GridsConfig { count, seed, first_digit: None, start: 0 };
        let a = generate_grids(&config);
        prop_assert_eq!(a.len(), count);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        prop_assert_eq!(sorted.len(), count);
        prop_assert_eq!(a, generate_grids(&config));
    }

    /// A grid is its own unique solution, and removing any one cell keeps it unique.
    #[test]
    fn a_grid_less_one_cell_has_one_solution(seed in any::<u64>(), cell in 0usize..81) {
        let g = random_grid(&mut rng_for(seed, 1));
        let mut p = g.to_puzzle();
        p.set(Cell::from_index(cell), None);
        let out = count_solutions(&p, 2);
        prop_assert_eq!(out.count, 1);
        prop_assert_eq!(out.solution, Some(g));
    }
}

/// The same batch from pools of one and of two threads.
#[test]
fn batch_does_not_depend_on_thread_count() {
    let config = GridsConfig {
        count: 5000,
        seed: 99,
        first_digit: Digit::new(3),
        start: 0,
    };
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| generate_grids(&config))
    };
    assert_eq!(run(1), run(2));
}

/// Band 3 is varied: in a batch, each column of band 3 puts its three digits in each of the 3!
/// orders (by value, top to bottom) about equally often, and each of its cells holds each digit
/// about equally often. Renaming the digits maps the generator's grids to equally likely ones,
/// so both are uniform; Pearson's chi-square stays within 6 standard deviations of its mean.
#[test]
fn band_3_orders_and_digits_are_balanced() {
    let grids = generate_grids(&GridsConfig {
        count: 30_000,
        seed: 17,
        first_digit: None,
        start: 0,
    });
    let chi2 = |counts: &[usize]| -> f64 {
        let expected = grids.len() as f64 / counts.len() as f64;
        counts
            .iter()
            .map(|&n| (n as f64 - expected).powi(2) / expected)
            .sum()
    };
    let bound = |df: f64| df + 6.0 * (2.0 * df).sqrt();
    for c in 0..9 {
        let mut orders = [0usize; 6];
        for g in &grids {
            assert!(common::oracle::is_valid_grid(g.as_bytes()));
            let b = g.as_bytes();
            let (x, y, z) = (b[54 + c], b[63 + c], b[72 + c]);
            // The rank pattern of the column's three digits, one of 6.
            let order = match (x < y, y < z, x < z) {
                (true, true, _) => 0,
                (true, false, true) => 1,
                (true, false, false) => 2,
                (false, true, true) => 3,
                (false, true, false) => 4,
                (false, false, _) => 5,
            };
            orders[order] += 1;
        }
        let s = chi2(&orders);
        assert!(
            s < bound(5.0),
            "column {c}: orders {orders:?}, chi-square {s:.1}"
        );
    }
    for cell in 54..81 {
        let mut digits = [0usize; 9];
        for g in &grids {
            digits[g.as_bytes()[cell] as usize - 1] += 1;
        }
        let s = chi2(&digits);
        assert!(
            s < bound(8.0),
            "cell {cell}: digits {digits:?}, chi-square {s:.1}"
        );
    }
}
