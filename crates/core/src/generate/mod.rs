//! Puzzles (初盘): digging holes in a random complete grid while the solution stays unique.
//!
//! # The uniqueness check
//!
//! Let `P` be a proper puzzle with solution `G`, and `S` a set of its givens. If `P \ S` has a
//! solution `H ≠ G`, then `H` differs from `G` inside `S` (otherwise `H` would satisfy every given
//! of `P`, and `P` has only `G`). So `P \ S` is proper if and only if, for each cell `c` of `S`,
//! `P \ S` with `G[c]` forbidden in `c` has no solution: one first-solution search per cell, with the
//! forbidden digit strengthening propagation, instead of a count-to-two search.
//!
//! # Minimality for free
//!
//! Removing givens only adds solutions. So if removing `c` failed at some point, it still fails
//! after any later removal: one pass over the givens in random order, keeping each removal that
//! stays proper, ends in a minimal puzzle (no given can be removed). With a symmetry the pass runs
//! over orbits, which gives an orbit-minimal puzzle; `minimal` then also checks single givens.
//!
//! # Fewer searches
//!
//! Runs of removals are tested together with one count-to-two search while most removals
//! succeed, with exactly the result of one-by-one digging; and a removal that would leave some
//! unavoidable set of the grid without a given fails without a search.
//!
//! # Few givens
//!
//! When digging stops above the asked number of givens, a local search walks among the minimal
//! puzzles of the same grid by {-1+1} moves (remove one given, add one where the other solution
//! differs, dig again). [`generate_batch`] runs items in parallel, each on its own random stream,
//! under an optional time budget. The algorithms, their proofs and measurements are in
//! `docs/generate.md`.

use crate::time::{Duration, Instant};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use rand::RngCore;
use rayon::prelude::*;

use crate::bitset::{Cell, CellSet};
use crate::grid::{Grid, Puzzle};
use crate::grids::{random_grid, rng_for};
use crate::logic::{rate, Band};
use crate::solver::{Near, Solver};

mod config;
mod dig;
mod repair;
mod solution;
#[cfg(test)]
mod tests;
mod unavoidable;

pub use config::{
    ConfigError, GenerateConfig, Generated, Symmetry, UnknownSymmetry, MAX_MINIMAL_GIVENS,
    MIN_GIVENS,
};
use dig::*;
use repair::*;
pub use solution::is_minimal;
use solution::*;
pub(crate) use solution::{with, without};
use unavoidable::*;

/// Makes one puzzle for `config` from a fresh random grid, or `None` if this attempt missed the
/// asked number of givens (the caller tries again with the same generator).
///
/// For few givens (below what digging reaches on its own) the attempt includes a bounded local
/// search on the grid (see `docs/generate.md`).
///
/// # Panics
/// If the config is invalid (see [`GenerateConfig::validate`]).
///
/// # Examples
/// ```
/// use shudu_core::generate::{generate_one, is_minimal, GenerateConfig};
/// use shudu_core::grids::rng_for;
/// let config = GenerateConfig { minimal: true, ..GenerateConfig::default() };
/// let g = generate_one(&config, &mut rng_for(1, 0)).unwrap();
/// assert!(is_minimal(&g.puzzle, &g.solution));
/// ```
pub fn generate_one<R: RngCore>(config: &GenerateConfig, rng: &mut R) -> Option<Generated> {
    config.validate().expect("a validated config");
    attempt(config, config.symmetry.orbit_table(), rng, None)
}

/// Of every [`HALF_TURN_OUT_OF`] attempts at a strictly minimal rot180 puzzle asked for with
/// [`GenerateConfig::automorphic`], this many start from a grid with a half-turn automorphism ([`half_turn_grid`]), the others from a uniformly
/// random grid (which keeps every strictly minimal rot180 puzzle reachable).
const HALF_TURN_SHARE: usize = 31;
/// See [`HALF_TURN_SHARE`].
const HALF_TURN_OUT_OF: usize = 32;

/// One attempt, for a validated config with `orbits` precomputed.
fn attempt<R: RngCore>(
    config: &GenerateConfig,
    orbits: &[CellSet],
    rng: &mut R,
    deadline: Option<Instant>,
) -> Option<Generated> {
    // Strictly minimal rot180 puzzles: part of the grids have a half-turn automorphism (see
    // `half_turn_grid` and docs/generate.md, "Grids with a half-turn automorphism").
    let half_turn = config.automorphic
        && config.minimal
        && config.unique
        && config.symmetry == Symmetry::Rot180
        && below(rng, HALF_TURN_OUT_OF) < HALF_TURN_SHARE;
    let grid = if half_turn {
        half_turn_grid(rng)
    } else {
        random_grid(rng)
    };
    let (lo, hi) = config.givens.unwrap_or((0, 81));
    if !config.unique {
        // Plain random digging, as the seed articles do it: no uniqueness check.
        let target = lo + below(rng, hi - lo + 1);
        let mut order = orbits.to_vec();
        shuffle(&mut order, rng);
        let mut p = grid.to_puzzle();
        let mut givens = 81;
        for o in order {
            let k = o.len() as usize;
            if givens >= target + k {
                p = without(&p, o);
                givens -= k;
            }
        }
        return (givens == target).then_some(Generated {
            puzzle: p,
            solution: grid,
        });
    }
    // A minimal puzzle is only asked to land in the range; otherwise dig no lower than `lo`.
    let floor = if config.minimal { 0 } else { lo };
    let unavoidable = unavoidable_sets(&grid);
    // Learn only when the local search may follow, or the repair of a symmetric minimal puzzle
    // (which checks each given against the known sets).
    let repair = config.minimal && config.symmetry != Symmetry::None;
    let learn = config.givens.is_some() || repair;
    let mut grid = SolutionGrid::new(grid, learn);
    grid.half_turn = half_turn;
    grid.light = repair;
    let mut reasons = NO_REASON;
    let (mut p, learned, spare, loaded, _) = dig_loaded(
        grid.to_puzzle(),
        Solver::new(&grid.to_puzzle()),
        &grid,
        &unavoidable,
        &mut reasons,
        orbits,
        floor,
        learn,
        rng,
    );
    let dug = p;
    let mut unavoidable = unavoidable;
    if p.givens() > hi || repair {
        remember(&mut unavoidable, learned, &grid);
    }
    if p.givens() > hi {
        p = descend(
            p,
            &grid,
            unavoidable.clone(),
            orbits,
            (floor, hi),
            rng,
            deadline,
        )?;
    }
    if p.givens() < lo && (config.minimal || !fill_to(&mut p, &grid, orbits, (lo, hi), rng)) {
        return None;
    }
    if repair {
        // The dug puzzle is loaded already, unless the local search changed it.
        let loaded = if p == dug { loaded } else { Solver::new(&p) };
        p = make_minimal(
            p,
            loaded,
            spare,
            &grid,
            &mut unavoidable,
            &mut reasons,
            orbits,
            rng,
        )?;
        if !(lo..=hi).contains(&p.givens()) {
            return None;
        }
    }
    if config.band.is_some_and(|b| rate(&p).band != b) {
        return None;
    }
    Some(Generated {
        puzzle: p,
        solution: grid.grid,
    })
}

/// What a batch produced.
#[derive(Clone, Debug)]
pub struct BatchResult {
    /// The puzzles found, in item order.
    pub puzzles: Vec<Generated>,
    /// For each puzzle, its item number: `rng_for(seed, item)` is the stream it came from.
    pub items: Vec<usize>,
    /// How many puzzles were asked for.
    pub requested: usize,
    /// Complete grids tried, over all items.
    pub attempts: u64,
    /// Whether the time budget ran out before every item was found (`false` when items are
    /// missing because the search gave up on them).
    pub timed_out: bool,
    /// Wall-clock time the batch took.
    pub elapsed: Duration,
}

impl BatchResult {
    /// Whether every asked puzzle was found.
    pub fn is_complete(&self) -> bool {
        self.puzzles.len() == self.requested
    }
}

/// Makes `count` puzzles for `config`, in parallel on rayon's pool.
///
/// Item `i` draws from its own stream `rng_for(seed, i)` and retries on it until it succeeds,
/// so the same seed gives the same puzzles whatever the number of threads. With a `budget`,
/// items not found when it runs out are left out: the result says how many of the asked were
/// found. `progress(k)` is called (from any thread) as `k` more puzzles are found.
///
/// # Errors
/// A [`ConfigError`] if no puzzle can satisfy `config`.
///
/// # Examples
/// ```
/// use shudu_core::generate::{generate_batch, GenerateConfig};
/// let config = GenerateConfig { givens: Some((30, 30)), ..GenerateConfig::default() };
/// let batch = generate_batch(&config, 4, 7, None, &|_| {})?;
/// assert!(batch.is_complete());
/// assert!(batch.puzzles.iter().all(|g| g.puzzle.givens() == 30));
/// # Ok::<(), shudu_core::generate::ConfigError>(())
/// ```
pub fn generate_batch(
    config: &GenerateConfig,
    count: usize,
    seed: u64,
    budget: Option<Duration>,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<BatchResult, ConfigError> {
    config.validate()?;
    let (mut items, mut puzzles) = (Vec::new(), Vec::new());
    let summary = generate_stream(config, 0..count, seed, budget, progress, &mut |i, g| {
        items.push(i);
        puzzles.push(g);
        Ok::<(), std::convert::Infallible>(())
    })
    .unwrap_or_else(|e| match e {});
    Ok(BatchResult {
        timed_out: summary.timed_out,
        puzzles,
        items,
        requested: count,
        attempts: summary.attempts,
        elapsed: summary.elapsed,
    })
}

/// The fewest givens from which a plain run checks that no two of its puzzles are equivalent
/// (`rated::NewClasses`, 4.6 µs a puzzle). Below, two puzzles of a run are equivalent only if
/// their grids are (about one pair in 5.47 × 10⁹) and their blanks then fall on corresponding
/// cells, one chance in C(81, blanks) ≥ C(81, 22) ≈ 3.7 × 10¹⁹ or less: a run of 10⁹ puzzles
/// meets such a pair with odds below 10⁻¹⁰. From 60 givens on the blanks are few enough (81
/// places for 80 givens: about one pair in a run of a million) that the run checks.
pub const CLASS_CHECK_FROM: usize = 60;

/// How a streamed batch went ([`generate_stream`], `rated::generate_rated_stream`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamSummary {
    /// Puzzles found and handed on.
    pub found: usize,
    /// Items asked for.
    pub requested: usize,
    /// Complete grids tried, over all items.
    pub attempts: u64,
    /// Whether the time budget ran out before every item was found.
    pub timed_out: bool,
    /// Wall-clock time the batch took.
    pub elapsed: Duration,
}

/// Makes items `items` of the batch `seed` for `config` and hands each puzzle found to
/// `emit(item, puzzle)` in item order, as soon as the items before it are done.
///
/// Items run in parallel on rayon's pool in windows of 16 items a thread, so memory is bounded
/// by the thread count, not by the number of items, and the first puzzles come out at once.
/// Item `i` is made from its own stream `rng_for(seed, i)` exactly as in [`generate_batch`], so
/// the output depends only on the seed and the items, never on the thread count, and the items
/// `0..n` split into consecutive ranges (shards) give, concatenated, the items of one run.
/// Items not found when `budget` runs out are skipped.
///
/// # Errors
/// The first error `emit` returns, which stops the batch.
///
/// # Panics
/// If the config is invalid (see [`GenerateConfig::validate`]).
pub fn generate_stream<E>(
    config: &GenerateConfig,
    items: std::ops::Range<usize>,
    seed: u64,
    budget: Option<Duration>,
    progress: &(dyn Fn(usize) + Sync),
    emit: &mut dyn FnMut(usize, Generated) -> Result<(), E>,
) -> Result<StreamSummary, E> {
    config.validate().expect("a validated config");
    let start = Instant::now();
    let deadline = budget.map(|b| start + b);
    let orbits = config.symmetry.orbit_table();
    let requested = items.len();
    let make = |rng: &mut crate::grids::Rng, tries: &mut u64| {
        let config = config.for_item(rng);
        loop {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break None;
            }
            *tries += 1;
            if let Some(g) = attempt(&config, orbits, rng, deadline) {
                break Some(g);
            }
        }
    };
    let check = config.givens.is_some_and(|(lo, _)| lo >= CLASS_CHECK_FROM);
    let mut classes = crate::canon::NewClasses::default();
    let mut found = 0;
    let mut retried = 0;
    let (_, attempts) = stream_items(
        items,
        seed,
        deadline,
        progress,
        |_, rng, tries| make(rng, tries),
        &mut |item, mut g: Generated| {
            // An item equivalent to an earlier one is made again from a further stream, as a
            // rated run does (`rated::generate_rated_stream`).
            for retry in 1..=64u64 {
                if !check || classes.insert(&g.puzzle) {
                    found += 1;
                    return emit(item, g);
                }
                let key = seed ^ retry.wrapping_mul(crate::canon::RETRY_KEY);
                match make(&mut rng_for(key, item as u64), &mut retried) {
                    Some(next) => g = next,
                    None => break,
                }
            }
            Ok(())
        },
    )?;
    Ok(StreamSummary {
        found,
        requested,
        attempts: attempts + retried,
        timed_out: found < requested && deadline.is_some_and(|d| Instant::now() >= d),
        elapsed: start.elapsed(),
    })
}

/// Items in a window of the streaming driver, per thread: enough to keep every thread busy
/// while a slow item finishes, few enough that the window's puzzles take little memory.
const WINDOW_PER_THREAD: usize = 16;

/// The driver behind every batch: item `i` runs `make(i, rng, tried)` on its own stream
/// `rng_for(seed, i)`, in parallel on rayon's pool, in windows of [`WINDOW_PER_THREAD`] items a
/// thread, handing each result to
/// `emit` in item order as its window completes. Returns the results found and the grids
/// tried. Windows after `deadline` are not started.
pub(crate) fn stream_items<T: Send, E>(
    items: std::ops::Range<usize>,
    seed: u64,
    deadline: Option<Instant>,
    progress: &(dyn Fn(usize) + Sync),
    make: impl Fn(usize, &mut crate::grids::Rng, &mut u64) -> Option<T> + Sync,
    emit: &mut dyn FnMut(usize, T) -> Result<(), E>,
) -> Result<(usize, u64), E> {
    let tried = AtomicU64::new(0);
    let window = rayon::current_num_threads().max(1) * WINDOW_PER_THREAD;
    let mut found = 0;
    let mut start = items.start;
    while start < items.end {
        // Past the deadline every item would give up at once: stop rather than walk the rest.
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let end = items.end.min(start + window);
        let out: Vec<Option<T>> = (start..end)
            .into_par_iter()
            .map(|i| {
                let mut rng = rng_for(seed, i as u64);
                let mut tries = 0;
                let out = make(i, &mut rng, &mut tries);
                tried.fetch_add(tries, Ordering::Relaxed);
                if out.is_some() {
                    progress(1);
                }
                out
            })
            .collect();
        for (i, t) in (start..end).zip(out) {
            if let Some(t) = t {
                found += 1;
                emit(i, t)?;
            }
        }
        start = end;
    }
    Ok((found, tried.into_inner()))
}
