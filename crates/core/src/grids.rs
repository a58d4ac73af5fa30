//! Random complete grids (终盘), one at a time or in distinct, reproducible batches.
//!
//! A grid is made band by band. The first band is drawn box by box, each box drawn at random
//! among those that fit the boxes already drawn (box 1; box 2, uniformly and without dead ends;
//! box 3, whose rows' digit sets are forced), or in a batch given by its index. The band
//! completion (module `complete`) then draws band 2 uniformly among those that fit band 1, and
//! band 3 as an order of each column's three missing digits, without the solver. Every valid
//! grid can come out: each step gives the grid's own boxes a positive probability. See
//! docs/ALGORITHM.md, "Complete grids".

use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::bitset::{Cell, Digit};
use crate::grid::Grid;
use crate::solver::{descend, Guesser, State};

mod complete;

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
/// The first band is drawn box by box, each box uniform among those that fit the boxes before
/// it, and the band completion (module `complete`) draws bands 2 and 3 (docs/ALGORITHM.md, "Complete
/// grids"):
///
/// ```text
///   1 2 3     1: a random permutation
///   4 5 6     2: uniform among the 56 · 3!³ fillings beside box 1 (no dead end)
///   7 8 9     3: forced digit sets per row, in random order
///             bands 2 and 3: the band completion
/// ```
///
/// Every grid can come out: each draw gives the grid's own box (band) a positive probability.
pub fn random_grid_from<R: RngCore>(rng: &mut R, first: Option<Digit>) -> Grid {
    let mut b1 = shuffled(rng);
    if let Some(d) = first {
        let at = b1.iter().position(|&x| x as usize == d.as_index());
        b1.swap(0, at.expect("a permutation holds every digit"));
    }
    let b2 = sample_beside(row_sets(&b1), rng);
    let b3 = rest_of_band(&b1, &b2, rng);
    Grid::from_valid_bytes(complete::complete(&[b1, b2, b3], rng))
}

/// A random complete grid made as before the band completion: boxes 1 to 5 and 7 drawn box by
/// box (box 5 by a small random search), and boxes 6, 8 and 9 completed by the exact solver's
/// random descent. Every grid can come out, as from [`random_grid`], with another distribution.
/// About 4 times slower than [`random_grid`]; kept as the reference that `benches/grids.rs`
/// measures it against.
///
/// # Examples
/// ```
/// use shudu_core::grids::{descent_grid, rng_for};
/// let g = descent_grid(&mut rng_for(42, 0));
/// assert_eq!(g, descent_grid(&mut rng_for(42, 0)));
/// ```
pub fn descent_grid<R: RngCore>(rng: &mut R) -> Grid {
    loop {
        let b1 = shuffled(rng);
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
    // Written out: `[0, 1, 2].map(..)` was an outlined call, 210 more instructions a grid in
    // `shudu grids` (callgrind).
    let bit = |k: usize| 1u32 << b[k];
    [
        bit(0) | bit(1) | bit(2),
        bit(3) | bit(4) | bit(5),
        bit(6) | bit(7) | bit(8),
    ]
}

/// A box's digits (indices, row-major) as the digit set of each of its columns.
#[inline]
fn col_sets(b: &[u8; 9]) -> [u32; 3] {
    let bit = |k: usize| 1u32 << b[k];
    [
        bit(0) | bit(3) | bit(6),
        bit(1) | bit(4) | bit(7),
        bit(2) | bit(5) | bit(8),
    ]
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
    let rows = beside_sets(sets, rng);
    let mut out = [0u8; 9];
    for (j, &set) in rows.iter().enumerate() {
        fill_shuffled(&mut out[3 * j..3 * j + 3], set, rng);
    }
    out
}

/// The digit sets of the rows of [`sample_beside`]'s box: uniform among the 56.
#[inline]
fn beside_sets<R: RngCore>(sets: [u32; 3], rng: &mut R) -> [u32; 3] {
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
    rows
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

/// The 3! orders of three things: order `o` puts item `ORDERS[o][x]` at position `x`.
const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Fills `out` with the three digits of `set` in random order: one draw among the 3! orders.
#[inline]
fn fill_shuffled<R: RngCore>(out: &mut [u8], set: u32, rng: &mut R) {
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
    /// The batch item of the first grid (0 for a whole batch): `start > 0` makes one shard of
    /// a larger batch, and the shards of one seed, concatenated, are the whole batch.
    pub start: usize,
}

/// How many first bands (rows 1 to 3) complete grids have: 9! orders of box 1, times 56 · 3!³
/// fillings of box 2 beside it, times 3!³ orders of box 3's forced rows, 948,109,639,680 in all
/// (Felgenhauer and Jarvis). With the top-left digit fixed, one ninth of that.
pub const FIRST_BANDS: u64 = 362_880 * 12_096 * 216;

/// The most grids one batch can hold: each grid of a batch has its own first band, so a batch
/// has at most as many grids as there are first bands (105,345,515,520 with a fixed top-left
/// digit; far beyond any file anyone writes).
pub fn max_batch(first_digit: Option<Digit>) -> u64 {
    if first_digit.is_some() {
        FIRST_BANDS / 9
    } else {
        FIRST_BANDS
    }
}

/// A keyed permutation of `0..n` (`n <= 2^40`): a four-round Feistel network on the smallest
/// even number of bits that holds `n`, walked until it lands below `n` ("cycle walking"). A
/// permutation for every key, so distinct indices give distinct values.
fn permute(index: u64, n: u64, key: u64) -> u64 {
    let bits = (64 - (n - 1).max(1).leading_zeros()).div_ceil(2).max(1);
    let mask = (1u64 << bits) - 1;
    let round = |r: u64, x: u64| {
        let mut z =
            key ^ r.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) & mask
    };
    let mut v = index;
    loop {
        let (mut left, mut right) = (v >> bits, v & mask);
        for r in 0..4 {
            (left, right) = (right, left ^ round(r, right));
        }
        v = (left << bits) | right;
        if v < n {
            return v;
        }
    }
}

/// Draws from the digits of a mixed-radix number, so that the box-drawing code above, fed with
/// it instead of a random generator, turns a band's index into the band itself.
struct Digits(u64);

impl Digits {
    fn take(&mut self, n: u64) -> u64 {
        let d = self.0 % n;
        self.0 /= n;
        d
    }
}

/// The first band (boxes 1, 2, 3) of index `k` below [`max_batch`]: a bijection between the
/// indices and the first bands (with `first` in the top-left cell, if given).
fn band_from_index(k: u64, first: Option<Digit>) -> [[u8; 9]; 3] {
    let mut k = Digits(k);
    // Box 1: a permutation by its Lehmer code (the top-left digit fixed first, if asked).
    // The digits not yet placed, as a set: the `i`-th smallest is taken for code digit `i`.
    let mut pool = 0x1FFu32;
    let mut b1 = [0u8; 9];
    let mut from = 0;
    if let Some(d) = first {
        b1[0] = d.as_index() as u8;
        pool &= !(1 << b1[0]);
        from = 1;
    }
    for slot in b1.iter_mut().skip(from) {
        let d = nth_bit(pool, k.take(pool.count_ones() as u64) as u32);
        pool &= !(1 << d);
        *slot = d as u8;
    }
    // Box 2: which digits of each of box 1's rows move to the next row (56 ways, as in
    // `sample_beside`), then the order inside each row.
    let sets = row_sets(&b1);
    // t = 0: no digit moves to the next row; 1..=27 and 28..=54: one (two) of each row's
    // digits, picked by the three base-3 digits of t - 1 (t - 28); 55: all three.
    let t = k.take(56) as u32;
    let mut pick = match t {
        1..=27 => t - 1,
        28..=54 => t - 28,
        _ => 0,
    };
    let mut rows = [0u32; 3];
    for i in 0..3 {
        let which = (pick % 3) as usize;
        pick /= 3;
        let to_next = match t {
            0 => 0,
            1..=27 => three_bits(sets[i])[which],
            28..=54 => sets[i] & !three_bits(sets[i])[which],
            _ => sets[i],
        };
        rows[(i + 1) % 3] |= to_next;
        rows[(i + 2) % 3] |= sets[i] & !to_next;
    }
    let mut b2 = [0u8; 9];
    for (j, &set) in rows.iter().enumerate() {
        ordered(&mut b2[3 * j..3 * j + 3], set, k.take(6) as usize);
    }
    // Box 3: each row holds the digits its row misses, in one of 3! orders.
    let (r1, r2) = (row_sets(&b1), row_sets(&b2));
    let mut b3 = [0u8; 9];
    for r in 0..3 {
        ordered(
            &mut b3[3 * r..3 * r + 3],
            !(r1[r] | r2[r]) & 0x1FF,
            k.take(6) as usize,
        );
    }
    [b1, b2, b3]
}

/// Writes the three digits of `set` in the order of index `order` (below 3! = 6).
fn ordered(out: &mut [u8], set: u32, order: usize) {
    let bits = three_bits(set);
    for (x, &i) in out.iter_mut().zip(&ORDERS[order]) {
        *x = bits[i].trailing_zeros() as u8;
    }
}

/// Item `item` of the batch `seed`: its first band is the band of index `permute(item)` (a
/// keyed permutation, so two items never share a band, and so never a grid), bands 2 and 3 are
/// drawn by the band completion from the item's own stream, as [`random_grid_from`] draws them.
///
/// # Panics
/// If `item` is not below [`max_batch`].
pub fn grid_for_item(seed: u64, item: u64, first: Option<Digit>) -> Grid {
    let n = max_batch(first);
    assert!(item < n, "item {item} beyond the {n} first bands");
    let band = band_from_index(permute(item, n, seed), first);
    Grid::from_valid_bytes(complete::complete(&band, &mut rng_for(seed, item)))
}

/// Makes the distinct random grids of `config`. Parallel (on rayon's pool) and reproducible:
/// the output depends only on the config, not on the number of threads.
///
/// Distinctness is structural: grid `i` has the first band of index `permute(i)`, and the
/// permutation never repeats a band, so no two grids of a batch (or of all the shards of one
/// batch) are equal. No table of the grids made is kept.
///
/// # Panics
/// If the batch reaches beyond [`max_batch`].
pub fn generate_grids(config: &GridsConfig) -> Vec<Grid> {
    generate_grids_with_progress(config, &|_| {})
}

/// [`generate_grids`], calling `progress(k)` each time `k` more grids are made (from any thread).
pub fn generate_grids_with_progress(
    config: &GridsConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Grid> {
    let mut grids = Vec::with_capacity(config.count);
    for wave in GridStream::new(config, 1 << 16) {
        progress(wave.len());
        grids.extend(wave);
    }
    grids
}

/// The grids of [`generate_grids`] in order, a wave at a time, so that a caller can write one
/// wave while the next is made, with memory bounded by the wave, not by the batch. The waves
/// joined are exactly `generate_grids(config)`, whatever the wave size and the number of
/// threads; a config with `start` and `count` gives items `start..start + count` of the batch.
pub struct GridStream<'a> {
    config: &'a GridsConfig,
    wave: usize,
    next: usize,
}

impl<'a> GridStream<'a> {
    /// A stream of waves of `wave` grids (the last one shorter).
    ///
    /// # Panics
    /// If the batch reaches beyond [`max_batch`].
    pub fn new(config: &'a GridsConfig, wave: usize) -> GridStream<'a> {
        let end = config.start as u64 + config.count as u64;
        assert!(
            end <= max_batch(config.first_digit),
            "a batch holds at most {} grids",
            max_batch(config.first_digit)
        );
        GridStream {
            config,
            wave: wave.max(1),
            next: 0,
        }
    }
}

impl Iterator for GridStream<'_> {
    type Item = Vec<Grid>;

    fn next(&mut self) -> Option<Vec<Grid>> {
        let c = self.config;
        if self.next >= c.count {
            return None;
        }
        let len = self.wave.min(c.count - self.next);
        let from = (c.start + self.next) as u64;
        let filler = Grid::from_valid_bytes(FILLER);
        let mut grids = vec![filler; len];
        grids
            .par_chunks_mut(256)
            .enumerate()
            .for_each(|(i, chunk)| {
                let at = from + (i * 256) as u64;
                for (j, g) in chunk.iter_mut().enumerate() {
                    *g = grid_for_item(c.seed, at + j as u64, c.first_digit);
                }
            });
        self.next += len;
        Some(grids)
    }
}

/// What the streams of distinct grids ([`ClassStream`], [`UniformStream`]) share: the batch's
/// items drawn in order, a wave at a time, each kept only if its key has not been met before.
struct Distinct<'a> {
    config: &'a GridsConfig,
    wave: usize,
    kept: usize,
    next_item: u64,
    seen: std::collections::HashSet<[u128; 3]>,
    skipped: u64,
}

impl<'a> Distinct<'a> {
    fn new(config: &'a GridsConfig, wave: usize) -> Distinct<'a> {
        Distinct {
            config,
            wave: wave.max(1),
            kept: 0,
            next_item: 0,
            seen: std::collections::HashSet::new(),
            skipped: 0,
        }
    }

    /// The next wave: `draw(from, len)` gives items `from..from + len` of the batch, `key` what
    /// makes two grids the same. Skips are rare, so one draw a wave mostly suffices.
    fn next_wave(
        &mut self,
        draw: impl Fn(u64, usize) -> Vec<Grid>,
        key: impl Fn(&Grid) -> [u128; 3] + Sync,
    ) -> Option<Vec<Grid>> {
        let count = self.config.count;
        if self.kept >= count {
            return None;
        }
        let want = self.wave.min(count - self.kept);
        let mut kept = Vec::with_capacity(want);
        while kept.len() < want {
            let len = want - kept.len();
            let grids = draw(self.next_item, len);
            self.next_item += len as u64;
            let keys: Vec<[u128; 3]> = grids.par_iter().map(&key).collect();
            for (g, k) in grids.into_iter().zip(keys) {
                if self.seen.insert(k) {
                    kept.push(g);
                } else {
                    self.skipped += 1;
                }
            }
        }
        self.kept += kept.len();
        Some(kept)
    }
}

/// The grids of a batch from pairwise different equivalence classes (no two the same grid in
/// disguise), a wave at a time: the batch's items in order, each kept only if its class
/// ([`canonical_grid`](crate::canon::canonical_grid)) has not been met before. Reproducible like
/// [`GridStream`]: the output depends only on the config.
///
/// Memory: 48 bytes a grid kept, for the classes met (exact, not a hash).
pub struct ClassStream<'a>(Distinct<'a>);

impl<'a> ClassStream<'a> {
    /// A stream of waves of up to `wave` grids, `config.count` grids in all.
    ///
    /// # Panics
    /// If `config.start` is not 0 (classes cannot be kept apart across shards).
    pub fn new(config: &'a GridsConfig, wave: usize) -> ClassStream<'a> {
        assert_eq!(
            config.start, 0,
            "a batch of distinct classes cannot be sharded"
        );
        ClassStream(Distinct::new(config, wave))
    }

    /// Items skipped so far because their class was met before.
    pub fn skipped(&self) -> u64 {
        self.0.skipped
    }
}

impl Iterator for ClassStream<'_> {
    type Item = Vec<Grid>;

    fn next(&mut self) -> Option<Vec<Grid>> {
        let c = self.0.config;
        let draw = |from: u64, len: usize| {
            assert!(
                from + len as u64 <= max_batch(c.first_digit),
                "the batch ran out of first bands"
            );
            let wave = GridsConfig {
                count: len,
                start: from as usize,
                ..*c
            };
            GridStream::new(&wave, len).next().unwrap_or_default()
        };
        self.0.next_wave(draw, |g| {
            packed_rows(&crate::canon::canonical_grid(g).form, 1)
        })
    }
}

/// Grids drawn uniformly at random ([`UniformGrids`](crate::count::UniformGrids)): every one of
/// the 6,670,903,752,021,072,936,960 grids equally likely (with `first_digit`, every grid with
/// that top-left digit), a wave at a time. Item `i` is drawn from its own stream
/// ([`rng_for`]`(seed, i)`), so the output depends only on the config, not on the threads. A
/// grid met before is skipped and the next item taken (a chance of about `count² / 1.3e22`),
/// so the batch is a uniform sample without replacement.
///
/// Memory: 48 bytes a grid, for the grids met (exact, not a hash).
pub struct UniformStream<'a>(Distinct<'a>);

impl<'a> UniformStream<'a> {
    /// A stream of waves of up to `wave` grids, `config.count` grids in all.
    ///
    /// # Panics
    /// If `config.start` is not 0 (repeats cannot be kept apart across shards).
    pub fn new(config: &'a GridsConfig, wave: usize) -> UniformStream<'a> {
        assert_eq!(config.start, 0, "a uniform batch cannot be sharded");
        UniformStream(Distinct::new(config, wave))
    }

    /// Items skipped so far because their grid came earlier.
    pub fn skipped(&self) -> u64 {
        self.0.skipped
    }
}

impl Iterator for UniformStream<'_> {
    type Item = Vec<Grid>;

    fn next(&mut self) -> Option<Vec<Grid>> {
        let c = self.0.config;
        let sampler = crate::count::UniformGrids::get();
        let draw = |from: u64, len: usize| -> Vec<Grid> {
            (0..len)
                .into_par_iter()
                .with_min_len(256)
                .map(|i| {
                    let g = sampler.sample(&mut rng_for(c.seed, from + i as u64));
                    match c.first_digit {
                        Some(d) => with_first_digit(&g, d),
                        None => g,
                    }
                })
                .collect()
        };
        self.0.next_wave(draw, |g| packed_rows(g, 0))
    }
}

/// Rows `from + 1` to 8 of a grid, packed, three rows to a word (row 9 follows from the
/// others): the whole grid for `from = 0`, everything but the fixed first row of a canonical
/// form for `from = 1`.
fn packed_rows(g: &Grid, from: usize) -> [u128; 3] {
    let mut words = [0u128; 3];
    for r in from..8 {
        let row = g.as_bytes()[9 * r..9 * r + 9]
            .iter()
            .fold(0u64, |a, &d| a << 4 | d as u64) as u128;
        words[(r - from) / 3] |= row << (36 * ((r - from) % 3));
    }
    words
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_grids_are_valid() {
        let mut rng = rng_for(1, 2);
        for _ in 0..200 {
            let g = random_grid(&mut rng);
            assert!(Grid::try_from(g.to_puzzle()).is_ok());
        }
    }

    /// The first band of an index decoded the plain way: box 1's Lehmer digits one at a time
    /// from a list, then the rest as `band_from_index` does.
    #[test]
    fn band_from_index_decodes_box_1_as_the_plain_lehmer_code() {
        let d = Digit::new(4).unwrap();
        for first in [None, Some(d)] {
            let n = max_batch(first);
            for k in (0..5000u64).map(|i| i * (n / 5000) + i % 7) {
                let mut rest = k;
                let mut pool: Vec<u8> = (0..9).collect();
                let mut b1 = Vec::new();
                if let Some(d) = first {
                    pool.retain(|&x| x as usize != d.as_index());
                    b1.push(d.as_index() as u8);
                }
                while !pool.is_empty() {
                    let len = pool.len() as u64;
                    b1.push(pool.remove((rest % len) as usize));
                    rest /= len;
                }
                assert_eq!(band_from_index(k, first)[0].to_vec(), b1, "index {k}");
            }
        }
    }

    #[test]
    fn permute_is_a_permutation_for_every_size_and_key() {
        for n in [1u64, 2, 3, 7, 100, 1000, 4097] {
            for key in [0u64, 1, 0xDEAD_BEEF] {
                let mut seen: Vec<u64> = (0..n).map(|i| permute(i, n, key)).collect();
                seen.sort_unstable();
                assert_eq!(seen, (0..n).collect::<Vec<_>>(), "n {n}, key {key}");
            }
        }
    }

    #[test]
    fn band_indices_give_distinct_valid_first_bands() {
        use std::collections::HashSet;
        let d = Digit::new(5).unwrap();
        for first in [None, Some(d)] {
            let n = max_batch(first);
            let mut bands = HashSet::new();
            // The first and last indices, and a spread of others.
            let picks = (0..2000u64)
                .map(|i| i * (n / 2000))
                .chain([0, 1, n - 2, n - 1]);
            for k in picks {
                let band = band_from_index(k, first);
                let mut rows = [0u32; 3];
                for b in &band {
                    let mut box_digits = 0u32;
                    for (i, &v) in b.iter().enumerate() {
                        rows[i / 3] |= 1 << v;
                        box_digits |= 1 << v;
                    }
                    assert_eq!(box_digits, 0x1FF, "a box of band {k} repeats a digit");
                }
                assert_eq!(rows, [0x1FF; 3], "a row of band {k} repeats a digit");
                if let Some(d) = first {
                    assert_eq!(band[0][0] as usize, d.as_index());
                }
                bands.insert(band);
            }
            assert_eq!(bands.len(), 2001 + 2, "distinct indices, distinct bands");
        }
        assert_eq!(FIRST_BANDS, 948_109_639_680);
        // Every index of one box 1 (all 56 · 6^6 fillings of boxes 2 and 3): all distinct.
        let per_box1 = 56 * 6u64.pow(6);
        let all: HashSet<_> = (0..per_box1)
            .map(|j| band_from_index(j * 40_320, Some(d)))
            .collect();
        assert_eq!(all.len() as u64, per_box1);
    }

    #[test]
    fn shards_join_to_the_whole_batch() {
        let whole = generate_grids(&GridsConfig {
            count: 3000,
            seed: 5,
            first_digit: None,
            start: 0,
        });
        let mut joined = Vec::new();
        for (start, count) in [(0, 1000), (1000, 1), (1001, 1999)] {
            joined.extend(generate_grids(&GridsConfig {
                count,
                seed: 5,
                first_digit: None,
                start,
            }));
        }
        assert_eq!(joined, whole);
    }

    #[test]
    fn first_digit_is_fixed_and_grid_stays_valid() {
        let d = Digit::new(7).unwrap();
        let grids = generate_grids(&GridsConfig {
            count: 3000,
            seed: 9,
            first_digit: Some(d),
            start: 0,
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
            start: 0,
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
            start: 0,
        };
        let a = generate_grids(&config);
        let b = generate_grids(&config);
        assert_eq!(a, b);
        let distinct: std::collections::HashSet<_> = a.iter().collect();
        assert_eq!(distinct.len(), 5000);
        assert!(a.iter().all(|g| Grid::try_from(g.to_puzzle()).is_ok()));
    }
}
