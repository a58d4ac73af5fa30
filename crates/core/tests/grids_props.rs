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
