//! Random complete grids (终盘), one at a time or in distinct, reproducible batches.
//!
//! A grid is made box by box, each box drawn at random among those that fit the boxes already
//! drawn (box 1; boxes 2 and 4, uniformly and without dead ends; boxes 3 and 7, whose digit sets
//! are forced; box 5), and the remaining boxes 6, 8 and 9 are completed by the exact solver,
//! whose guesses pick a random candidate. Every valid grid can come out: each of its boxes has a
//! positive probability of being drawn given the ones before, and at every guess its own digit is
//! still a candidate (propagation only removes digits that no completion can hold), so the path
//! that always guesses the target's digit has a positive probability. See docs/ALGORITHM.md.

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
        let low = digits & digits.wrapping_neg();
        let rest = digits & !low;
        if rest & (rest - 1) == 0 {
            // Two candidates (the descent only guesses on bivalue cells when there is one): a
            // select on one random bit rather than a loop, whose exit the CPU cannot predict.
            let pick = if self.0.next_u32() >> 31 == 0 {
                low
            } else {
                rest
            };
            return pick.trailing_zeros() as usize;
        }
        nth_bit(digits, below(self.0, digits.count_ones())) as usize
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
///
/// The boxes are drawn in an order where each is cheap (docs/ALGORITHM.md, "Complete grids"):
///
/// ```text
///   1 2 3     1: a random permutation
///   4 5 .     2, 4: uniform among the 56 · 3!³ fillings beside box 1 (no dead end)
///   7 . .     3, 7: forced digit sets per row (column), in random order
///             5: a small random search against box 4's rows and box 2's columns
///             the rest: the solver's random descent
/// ```
///
/// A dead end (box 5, or the descent) starts over. Every grid can come out: each draw gives the
/// grid's own box a positive probability, and the descent can guess the grid's own digits.
pub fn random_grid_from<R: RngCore>(rng: &mut R, first: Option<Digit>) -> Grid {
    loop {
        let mut b1 = shuffled(rng);
        if let Some(d) = first {
            let at = b1.iter().position(|&x| x as usize == d.as_index());
            b1.swap(0, at.expect("a permutation holds every digit"));
        }
        let b2 = sample_beside(row_sets(&b1), rng);
        let b4 = transpose(&sample_beside(row_sets(&transpose(&b1)), rng));
        let b3 = rest_of_band(&b1, &b2, rng);
        let b7 = transpose(&rest_of_band(&transpose(&b1), &transpose(&b4), rng));
        let Some(b5) = sample_box(row_sets(&b4), row_sets(&transpose(&b2)), rng) else {
            continue;
        };
        let boxes = [
            Some(b1),
            Some(b2),
            Some(b3),
            Some(b4),
            Some(b5),
            None,
            Some(b7),
            None,
            None,
        ];
        if let Some(cells) = descend(State::from_full_boxes(&boxes), &mut RandomGuess(rng)) {
            return Grid::from_valid_bytes(cells);
        }
    }
}

/// A box's digits (indices, row-major) as the digit set of each of its rows.
#[inline]
fn row_sets(b: &[u8; 9]) -> [u32; 3] {
    [0, 1, 2].map(|r| (1 << b[3 * r]) | (1 << b[3 * r + 1]) | (1 << b[3 * r + 2]))
}

/// A box's digits with rows and columns exchanged.
#[inline]
fn transpose(b: &[u8; 9]) -> [u8; 9] {
    [b[0], b[3], b[6], b[1], b[4], b[7], b[2], b[5], b[8]]
}

/// The third box of a band whose first two boxes are `a` and `b`: each row holds the three digits
/// its row misses, in random order.
#[inline]
fn rest_of_band<R: RngCore>(a: &[u8; 9], b: &[u8; 9], rng: &mut R) -> [u8; 9] {
    let (ra, rb) = (row_sets(a), row_sets(b));
    let mut out = [0u8; 9];
    for r in 0..3 {
        fill_shuffled(&mut out[3 * r..3 * r + 3], !(ra[r] | rb[r]) & 0x1FF, rng);
    }
    out
}

/// A uniformly random box beside box 1 (box 2 if `sets` are the digit sets of box 1's rows; box
/// 4, transposed, if of its columns): row `j` of the new box holds no digit of `sets[j]`.
///
/// Each row sends its three digits to the two other rows. If `a` of row 0's digits go to row 1,
/// the counts of the six moves are forced: a and 3 - a from row 0 to rows 1 and 2, 3 - a and a
/// from row 1 to rows 0 and 2, a and 3 - a from row 2 to rows 0 and 1. So for each `a` there are
/// C(3, a)^3 ways to pick the digits that move, 1 + 27 + 27 + 1 = 56 in all, and 3!^3 orders inside
/// the rows: drawing `a` with weight C(3, a)^3, then uniform subsets and orders, draws every
/// filling with the same probability, and never meets a dead end.
fn sample_beside<R: RngCore>(sets: [u32; 3], rng: &mut R) -> [u8; 9] {
    let a = match below(rng, 56) {
        0 => 0,
        1..=27 => 1,
        28..=54 => 2,
        _ => 3,
    };
    // From each row i, `a` digits go to row i + 1 (mod 3) and the rest to row i + 2.
    let mut rows = [0u32; 3];
    for i in 0..3 {
        let to_next = subset(sets[i], a, rng);
        rows[(i + 1) % 3] |= to_next;
        rows[(i + 2) % 3] |= sets[i] & !to_next;
    }
    let mut out = [0u8; 9];
    for (j, &set) in rows.iter().enumerate() {
        fill_shuffled(&mut out[3 * j..3 * j + 3], set, rng);
    }
    out
}

/// A uniformly random subset with `k` of the three digits of `set`.
#[inline]
fn subset<R: RngCore>(set: u32, k: u32, rng: &mut R) -> u32 {
    match k {
        0 => 0,
        3 => set,
        1 => three_bits(set)[below(rng, 3) as usize],
        _ => set & !three_bits(set)[below(rng, 3) as usize],
    }
}

/// The three bits of a set of three, lowest first.
#[inline]
fn three_bits(set: u32) -> [u32; 3] {
    let low = set & set.wrapping_neg();
    let rest = set & !low;
    let mid = rest & rest.wrapping_neg();
    [low, mid, rest & !mid]
}

/// The index of the `k`-th set bit of `bits` (from 0).
#[inline]
fn nth_bit(mut bits: u32, mut k: u32) -> u32 {
    while k > 0 {
        bits &= bits - 1;
        k -= 1;
    }
    bits.trailing_zeros()
}

/// A random box whose row `j` avoids the digits `rows[j]` and column `k` the digits `cols[k]`:
/// a small depth-first search with random choices, `None` after too many dead ends.
fn sample_box<R: RngCore>(rows: [u32; 3], cols: [u32; 3], rng: &mut R) -> Option<[u8; 9]> {
    let mut out = [0u8; 9];
    let mut tried = [0u32; 9];
    let mut used = 0u32;
    let mut k = 0;
    let mut budget = 64;
    while k < 9 {
        let allowed = !(rows[k / 3] | cols[k % 3] | used | tried[k]) & 0x1FF;
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
        let d = nth_bit(allowed, below(rng, allowed.count_ones()));
        tried[k] |= 1 << d;
        used |= 1 << d;
        out[k] = d as u8;
        k += 1;
    }
    Some(out)
}

/// Fills `out` with the three digits of `set` in random order: one draw among the 3! orders.
#[inline]
fn fill_shuffled<R: RngCore>(out: &mut [u8], set: u32, rng: &mut R) {
    const ORDERS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let bits = three_bits(set);
    let order = ORDERS[below(rng, 6) as usize];
    for (x, &i) in out.iter_mut().zip(&order) {
        *x = bits[i].trailing_zeros() as u8;
    }
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
            seen: SeenKeys::with_capacity(config.count),
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
        // One vector for the wave, each chunk written in its place by the pool, so that neither
        // the check nor the caller copies grids again.
        let len = n.min(end * CHUNK) - self.next_chunk * CHUNK;
        let filler = Grid::from_valid_bytes(FILLER);
        let mut grids = vec![filler; len];
        let mut keys = vec![[0u64; 4]; len];
        grids
            .par_chunks_mut(CHUNK)
            .zip(keys.par_chunks_mut(CHUNK))
            .enumerate()
            .for_each(|(i, (grids, keys))| {
                let mut rng = rng_for(seed, (self.next_chunk + i) as u64);
                for (g, k) in grids.iter_mut().zip(keys) {
                    *g = random_grid_from(&mut rng, first_digit);
                    *k = grid_key(g);
                }
            });
        self.next_chunk = end;
        Some((grids, keys))
    }
}

/// The exact distinctness check of one wave: every grid's key goes into `seen`, in position
/// order; a grid whose key is already there is replaced from the spare stream (itself checked the
/// same way). The order makes the result independent of threads and waves. Only the keys are read,
/// in order: the grids are touched only to replace a repeat.
fn check_wave(
    (mut grids, keys): RawWave,
    seen: &mut SeenKeys,
    spare: &mut Rng,
    first_digit: Option<Digit>,
) -> Vec<Grid> {
    for (i, &key) in keys.iter().enumerate() {
        if let Some(&ahead) = keys.get(i + PREFETCH) {
            seen.prefetch(&ahead);
        }
        let mut key = key;
        while !seen.insert(key) {
            grids[i] = random_grid_from(spare, first_digit);
            key = grid_key(&grids[i]);
        }
    }
    grids
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

/// A wave as generated: its grids and their exact keys, not yet checked for repeats.
type RawWave = (Vec<Grid>, Vec<[u64; 4]>);

/// A valid grid that only fills a wave's vector until the pool writes the real grids.
const FILLER: [u8; 81] = {
    let mut cells = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        // The pattern grid: row r is 1..9 shifted by 3 * (r % 3) + r / 3.
        cells[i] = ((c + 3 * (r % 3) + r / 3) % 9) as u8 + 1;
        i += 1;
    }
    cells
};

/// How many keys ahead [`check_wave`] touches the slot of, so that the cache misses of several
/// inserts overlap.
const PREFETCH: usize = 8;

/// The exact keys seen so far: an open-addressing table (linear probing, at most half full) of
/// one word a key, `fingerprint << 32 | index + 1` (0 is an empty slot), and the keys themselves
/// in insertion order. An insert costs one cache miss in the table (the keys are appended
/// in order, and only read back when a fingerprint matches); `std`'s set, which stores the
/// 32-byte keys in its buckets, took two and was 15% of `shudu -c 1000000`'s time (perf).
/// `Default` is an empty table that grows on its first insert.
#[derive(Default)]
struct SeenKeys {
    slots: Vec<u64>,
    keys: Vec<[u64; 4]>,
}

impl SeenKeys {
    fn with_capacity(n: usize) -> SeenKeys {
        SeenKeys {
            slots: vec![0; (2 * n).next_power_of_two().max(64)],
            keys: Vec::with_capacity(n),
        }
    }

    #[inline]
    fn hash(key: &[u64; 4]) -> u64 {
        let mut h = key[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ key[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ key[2].wrapping_mul(0x1656_67B1_9E37_79F9)
            ^ key[3].wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 32)
    }

    /// Reads the slot where `key` would start probing, so that its cache line is on its way.
    #[inline]
    fn prefetch(&self, key: &[u64; 4]) {
        let mask = self.slots.len().wrapping_sub(1);
        std::hint::black_box(self.slots.get(Self::hash(key) as usize & mask));
    }

    /// Adds `key`; false if it was already there.
    fn insert(&mut self, key: [u64; 4]) -> bool {
        if 2 * (self.keys.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let h = Self::hash(&key);
        let fingerprint = h >> 32;
        let mut i = h as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                self.keys.push(key);
                self.slots[i] = fingerprint << 32 | self.keys.len() as u64;
                return true;
            }
            if slot >> 32 == fingerprint && self.keys[(slot as u32 - 1) as usize] == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table (only when a batch has more keys than announced).
    fn grow(&mut self) {
        let keys = std::mem::take(&mut self.keys);
        *self = SeenKeys::with_capacity(2 * keys.len().max(32));
        for key in keys {
            self.insert(key);
        }
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
