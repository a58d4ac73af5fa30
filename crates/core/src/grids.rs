//! Random complete grids (终盘), one at a time or in distinct, reproducible batches.
//!
//! A grid is made by filling boxes 1, 5 and 9 (which share no row or column, so any three
//! permutations of 1-9 are compatible) with random permutations, then completing the grid with the
//! exact solver, whose guesses pick a random candidate. Every valid grid can come out: its own
//! digits in boxes 1, 5 and 9 are one of the random starts, and at every guess its own digit is
//! still a candidate (propagation only removes digits that no completion can hold), so the path
//! that always guesses the target's digit has a positive probability. See docs/ALGORITHM.md.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::bitset::{Cell, Digit};
use crate::grid::Grid;
use crate::solver::{descend, Guesser, State};

/// The random number generator behind every seeded generator of shudu: xoshiro256++, whose
/// output is fixed by its specification, so a seed gives the same grids on every platform.
pub type Rng = Xoshiro256PlusPlus;

/// A generator seeded for item `index` of a batch made with `seed`: each item has its own stream,
/// so a batch is the same whatever the thread count.
pub fn rng_for(seed: u64, index: u64) -> Rng {
    // SplitMix64's finaliser spreads (seed, index) over the whole seed space.
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Rng::seed_from_u64(z ^ (z >> 31))
}

/// A uniform integer below `n` (`n <= 2^32`) by Lemire's multiply-shift; the tiny bias (below
/// `n / 2^32`) does not matter for grid generation.
#[inline]
fn below<R: RngCore>(rng: &mut R, n: u32) -> u32 {
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
}

/// Guesses a uniformly random candidate.
struct RandomGuess<'a, R>(&'a mut R);

impl<R: RngCore> Guesser for RandomGuess<'_, R> {
    const STACK_UPDATES: bool = false;
    const CAREFUL_PICK: bool = false;

    #[inline]
    fn choose(&mut self, digits: u32) -> usize {
        let mut k = below(self.0, digits.count_ones());
        let mut bits = digits;
        while k > 0 {
            bits &= bits - 1;
            k -= 1;
        }
        bits.trailing_zeros() as usize
    }
}

/// A random permutation of the digit indices 0..9 (Fisher-Yates).
#[inline]
fn shuffled<R: RngCore>(rng: &mut R) -> [u8; 9] {
    let mut p = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    for i in (1..9).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        p.swap(i, j);
    }
    p
}

/// One random complete grid.
///
/// # Examples
/// ```
/// use shudu_core::grids::{random_grid, rng_for};
/// let g = random_grid(&mut rng_for(42, 0));
/// assert_eq!(g, random_grid(&mut rng_for(42, 0)));
/// ```
pub fn random_grid<R: RngCore>(rng: &mut R) -> Grid {
    random_grid_from(rng, None)
}

/// [`random_grid`] with, if asked, `first` in the top-left cell: box 1's permutation is drawn
/// among those that start with it, so every grid with that digit there stays reachable.
pub fn random_grid_from<R: RngCore>(rng: &mut R, first: Option<Digit>) -> Grid {
    loop {
        let mut perms = [shuffled(rng), shuffled(rng), shuffled(rng)];
        if let Some(d) = first {
            let at = perms[0].iter().position(|&x| x as usize == d.as_index());
            perms[0].swap(0, at.expect("a permutation holds every digit"));
        }
        // Box 2 (top middle) at random: each cell avoids the digits of its row in box 1 and of
        // its column in box 5, and the digits already in box 2. A small depth-first search with
        // random choices; a dead end here or in the descent starts over with new boxes.
        let Some(top) = sample_box2(&perms, rng) else {
            continue;
        };
        let st = State::from_boxes(&perms, Some(&top));
        if let Some(cells) = descend(st, &mut RandomGuess(rng)) {
            return Grid::from_valid_bytes(cells);
        }
    }
}

/// A random filling of box 2 compatible with boxes 1 and 5 (`perms[0]`, `perms[1]`: digit
/// indices row-major), or `None` after too many dead ends.
fn sample_box2<R: RngCore>(perms: &[[u8; 9]; 3], rng: &mut R) -> Option<[u8; 9]> {
    let mut row_used = [0u32; 3];
    let mut col_used = [0u32; 3];
    for k in 0..9 {
        row_used[k / 3] |= 1 << perms[0][k];
        col_used[k % 3] |= 1 << perms[1][k];
    }
    let mut out = [0u8; 9];
    let mut tried = [0u32; 9];
    let mut used = 0u32;
    let mut k = 0;
    let mut budget = 64;
    while k < 9 {
        let allowed = !(row_used[k / 3] | col_used[k % 3] | used | tried[k]) & 0x1FF;
        if allowed == 0 {
            budget -= 1;
            if k == 0 || budget == 0 {
                return None;
            }
            tried[k] = 0;
            k -= 1;
            used &= !(1 << out[k]);
            continue;
        }
        let mut pick = below(rng, allowed.count_ones());
        let mut bits = allowed;
        while pick > 0 {
            bits &= bits - 1;
            pick -= 1;
        }
        let d = bits.trailing_zeros();
        tried[k] |= 1 << d;
        used |= 1 << d;
        out[k] = d as u8;
        k += 1;
    }
    Some(out)
}

/// Renames digits so that the top-left cell holds `first` (swaps two digit labels). Among grids
/// with a given top-left digit, this keeps every grid reachable.
pub fn with_first_digit(g: &Grid, first: Digit) -> Grid {
    let have = g.get(Cell::from_index(0)).get();
    let want = first.get();
    if have == want {
        return *g;
    }
    let mut map = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    map[have as usize - 1] = want;
    map[want as usize - 1] = have;
    g.relabel(map)
}

/// How to make a batch of grids.
#[derive(Clone, Copy, Debug)]
pub struct GridsConfig {
    /// How many grids.
    pub count: usize,
    /// The seed: the same seed gives the same grids in the same order.
    pub seed: u64,
    /// If set, every grid has this digit in its top-left cell.
    pub first_digit: Option<Digit>,
}

/// Items per random stream: each chunk is generated from its own seeded generator.
const CHUNK: usize = 1024;

/// An exact, compact key for a grid: each of the first eight rows read as a base-9 number of
/// nine digits (below 9^9 < 2^29), two rows a word. The ninth row is implied (each column misses
/// one digit), so two grids are equal if and only if their keys are.
fn grid_key(g: &Grid) -> [u64; 4] {
    let mut key = [0u64; 4];
    for (r, row) in g.as_bytes().chunks_exact(9).take(8).enumerate() {
        let value = row.iter().fold(0u64, |acc, &v| acc * 9 + u64::from(v - 1));
        key[r / 2] |= value << (32 * (r % 2));
    }
    key
}

/// Makes `config.count` distinct random grids. Parallel (on rayon's pool) and reproducible: the
/// output depends only on the config, not on the number of threads.
///
/// Distinctness is guaranteed: after generation the batch is checked with exact keys, and any
/// repeat (about one in 10^10 batches of a million) is replaced from a spare stream.
pub fn generate_grids(config: &GridsConfig) -> Vec<Grid> {
    generate_grids_with_progress(config, &|_| {})
}

/// [`generate_grids`], calling `progress(k)` each time `k` more grids are made (from any thread).
pub fn generate_grids_with_progress(
    config: &GridsConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Grid> {
    let mut grids = Vec::with_capacity(config.count);
    for wave in GridStream::new(config, usize::MAX) {
        progress(wave.len());
        grids.extend(wave);
    }
    grids
}

/// The grids of [`generate_grids`] in order, a wave at a time, so that a caller can write one
/// wave while the next is made. The waves joined are exactly `generate_grids(config)`, whatever
/// the wave size and the number of threads.
pub struct GridStream<'a> {
    config: &'a GridsConfig,
    /// Chunks per wave.
    wave_chunks: usize,
    next_chunk: usize,
    /// The next wave, generated but not yet checked for repeats.
    pending: Option<RawWave>,
    seen: SeenKeys,
    spare: Rng,
}

impl<'a> GridStream<'a> {
    /// A stream of waves of about `wave` grids (rounded to whole chunks of 1024).
    pub fn new(config: &'a GridsConfig, wave: usize) -> GridStream<'a> {
        GridStream {
            config,
            wave_chunks: wave.div_ceil(CHUNK).max(1),
            next_chunk: 0,
            pending: None,
            seen: HashSet::with_capacity_and_hasher(config.count, BuildHasherDefault::default()),
            spare: rng_for(config.seed, u64::MAX),
        }
    }

    /// Generates the next wave's chunks (in parallel) with their keys, or `None` at the end.
    fn generate_wave(&mut self) -> Option<RawWave> {
        let n = self.config.count;
        let chunks = n.div_ceil(CHUNK);
        if self.next_chunk >= chunks {
            return None;
        }
        let end = chunks.min(self.next_chunk.saturating_add(self.wave_chunks));
        let (seed, first_digit) = (self.config.seed, self.config.first_digit);
        let parts = (self.next_chunk..end)
            .into_par_iter()
            .map(|chunk| {
                let mut rng = rng_for(seed, chunk as u64);
                let len = CHUNK.min(n - chunk * CHUNK);
                let grids: Vec<Grid> = (0..len)
                    .map(|_| random_grid_from(&mut rng, first_digit))
                    .collect();
                let keys = grids.iter().map(grid_key).collect();
                (grids, keys)
            })
            .collect();
        self.next_chunk = end;
        Some(parts)
    }
}

/// The exact distinctness check of one wave: every grid's key goes into `seen`, in position
/// order; a grid whose key is already there is replaced from the spare stream (itself checked the
/// same way). The order makes the result independent of threads and waves.
fn check_wave(
    parts: RawWave,
    seen: &mut SeenKeys,
    spare: &mut Rng,
    first_digit: Option<Digit>,
) -> Vec<Grid> {
    let mut wave = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    for (grids, keys) in parts {
        for (mut g, mut key) in grids.into_iter().zip(keys) {
            while !seen.insert(key) {
                g = random_grid_from(spare, first_digit);
                key = grid_key(&g);
            }
            wave.push(g);
        }
    }
    wave
}

impl Iterator for GridStream<'_> {
    type Item = Vec<Grid>;

    /// Checks the pending wave on one thread while the pool makes the wave after it.
    fn next(&mut self) -> Option<Vec<Grid>> {
        let parts = match self.pending.take() {
            Some(parts) => parts,
            None => self.generate_wave()?,
        };
        let first_digit = self.config.first_digit;
        let mut seen = std::mem::take(&mut self.seen);
        let mut spare = self.spare.clone();
        let (next, (wave, seen, spare)) = rayon::join(
            || self.generate_wave(),
            move || {
                let wave = check_wave(parts, &mut seen, &mut spare, first_digit);
                (wave, seen, spare)
            },
        );
        self.pending = next;
        self.seen = seen;
        self.spare = spare;
        Some(wave)
    }
}

/// A wave as generated: per chunk, its grids and their exact keys, not yet checked for repeats.
type RawWave = Vec<(Vec<Grid>, Vec<[u64; 4]>)>;

/// The keys seen so far.
type SeenKeys = HashSet<[u64; 4], BuildHasherDefault<KeyHasher>>;

/// Hashes exact grid keys, whose words are already well spread (permutation ranks), with one
/// multiply and rotate a word: the keys are exact, so the hash only has to spread them.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Puzzle;

    #[test]
    fn random_grids_are_valid() {
        let mut rng = rng_for(1, 2);
        for _ in 0..200 {
            let g = random_grid(&mut rng);
            assert!(Grid::try_from(g.to_puzzle()).is_ok());
        }
    }

    #[test]
    fn key_is_exact_on_rows() {
        let a = random_grid(&mut rng_for(3, 0));
        let b = random_grid(&mut rng_for(3, 1));
        assert_eq!(grid_key(&a), grid_key(&a));
        assert_ne!(grid_key(&a), grid_key(&b));
        // Row 123456789 reads as the base-9 number 012345678.
        let rows =
            "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
        let g = Grid::try_from(rows.parse::<Puzzle>().unwrap()).unwrap();
        let expected = (0..9u64).fold(0, |acc, d| acc * 9 + d);
        assert_eq!(grid_key(&g)[0] & 0xFFFF_FFFF, expected);
        // Swapping two rows of a band gives another valid grid, and another key.
        let mut swapped = *g.as_bytes();
        swapped.copy_within(9..18, 0);
        swapped[9..18].copy_from_slice(&g.as_bytes()[0..9]);
        let h = Grid::try_from(Puzzle::from_bytes(swapped).unwrap()).unwrap();
        assert_ne!(grid_key(&g), grid_key(&h));
    }

    #[test]
    fn first_digit_is_fixed_and_grid_stays_valid() {
        let d = Digit::new(7).unwrap();
        let grids = generate_grids(&GridsConfig {
            count: 3000,
            seed: 9,
            first_digit: Some(d),
        });
        assert_eq!(grids.len(), 3000);
        for g in &grids {
            assert_eq!(g.get(Cell::from_index(0)), d);
            assert!(Grid::try_from(g.to_puzzle()).is_ok());
        }
    }

    #[test]
    fn waves_join_to_the_whole_batch() {
        let config = GridsConfig {
            count: 5000,
            seed: 8,
            first_digit: None,
        };
        let whole = generate_grids(&config);
        for wave in [1, 1024, 3000, 10_000] {
            let joined: Vec<Grid> = GridStream::new(&config, wave).flatten().collect();
            assert_eq!(joined, whole, "wave {wave}");
        }
    }

    #[test]
    fn batch_is_distinct_and_reproducible() {
        let config = GridsConfig {
            count: 5000,
            seed: 77,
            first_digit: None,
        };
        let a = generate_grids(&config);
        let b = generate_grids(&config);
        assert_eq!(a, b);
        let mut keys: Vec<_> = a.iter().map(grid_key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 5000);
    }
}
