//! Counting complete grids, and drawing them uniformly at random.
//!
//! **Counting** (after Felgenhauer and Jarvis, 2005). A grid is a top band and a completion
//! (rows 4 to 9). How many completions a band has depends only on its *column sets* (the three
//! digits of each column), since the lower bands meet the top band only through the columns.
//! Below a band, each column lacks 6 digits; the middle band takes 3 of them (the *split*: 56 ways
//! a stack, so 56³ = 175,616 splits) and the bottom band the other 3. For a split with middle
//! column sets `S` and bottom `T`, the completions are `N(S) · N(T)`, where `N(X)` counts the bands
//! with column sets `X`. `N` depends only on which columns each digit sits in, so it is computed
//! once per such pattern (at most 46,656 row assignments each) and remembered.
//!
//! Every band of one of the 416 classes of [`canon`](crate::canon) has the same number of
//! completions; bands whose column sets match up to column permutations and relabelling (the
//! *gangsters*) too, which leaves 44 distinct computations. The number of grids is
//! `Σ over classes of 9! · 7776 / automorphisms · completions`.
//!
//! **Uniform grids.** Draw a band class with probability proportional to its bands times their
//! completions, a random member of it, a split with probability proportional to `N(S) · N(T)`,
//! then the middle and bottom bands uniformly among those with column sets `S` and `T`
//! (rejection: draw row assignments of two stacks at random until the third fits). Every grid
//! then has probability `1 / grids`; docs/ALGORITHM.md has the proof.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use rand::RngCore;

use crate::canon::{band_class_automorphisms, band_class_count, band_class_least, PERM3};
use crate::grid::Grid;

/// The number of complete grids, as Felgenhauer and Jarvis found it (the computation here is
/// checked against it).
pub const GRIDS: u128 = 6_670_903_752_021_072_936_960;

/// For each of the 9 columns of a band, its three digits as bits 0..9 (digit `d` is bit `d - 1`).
pub type ColumnSets = [u16; 9];

/// The column sets of a band of 27 digits `1..=9`, row by row.
pub fn column_sets(band: &[u8; 27]) -> ColumnSets {
    let mut sets = [0u16; 9];
    for (i, &d) in band.iter().enumerate() {
        sets[i % 9] |= 1 << (d - 1);
    }
    sets
}

/// The 3-digit subsets of `of`.
fn triples(of: u16) -> impl Iterator<Item = u16> {
    (0u16..512).filter(move |&m| m.count_ones() == 3 && m & !of == 0)
}

/// The splits of one stack: for columns lacking `lacking` (6 digits each; every digit lacked by
/// two of the three columns), the ways to give each column 3 of its lacked digits so that the
/// three columns together hold every digit once.
fn stack_splits(lacking: [u16; 3]) -> Vec<[u16; 3]> {
    let mut v = Vec::new();
    for a in triples(lacking[0]) {
        for b in triples(lacking[1] & !a) {
            let c = 0x1FF & !a & !b;
            if c.count_ones() == 3 && c & !lacking[2] == 0 {
                v.push([a, b, c]);
            }
        }
    }
    v
}

/// Which column of its stack (0, 1 or 2) each digit is in, for one stack's three column sets.
fn columns_of(stack: [u16; 3]) -> [u8; 9] {
    let mut at = [0u8; 9];
    for (k, &m) in stack.iter().enumerate() {
        for (d, a) in at.iter_mut().enumerate() {
            if m >> d & 1 == 1 {
                *a = k as u8;
            }
        }
    }
    at
}

/// The *pattern* of column sets: for each digit, the triple (column in stack 1, 2, 3), counted
/// over the digits (2 bits for each of the 27 triples). Two column sets with the same pattern are
/// relabellings of each other, so have the same number of bands.
fn pattern(stacks: [[u8; 9]; 3]) -> u64 {
    (0..9).fold(0u64, |key, d| {
        let code = stacks[0][d] * 9 + stacks[1][d] * 3 + stacks[2][d];
        key + (1u64 << (2 * code))
    })
}

/// The number of bands with column sets `sets` (each stack's sets holding every digit once).
///
/// # Complexity
/// 7,776 pairs of row assignments of the first two stacks (6² and 6³: the first column's order
/// is fixed, by symmetry), bit operations each.
pub fn bands_with_column_sets(sets: &ColumnSets) -> u64 {
    let rows_of = |s: usize| -> Vec<[u16; 3]> {
        let digits: Vec<Vec<u16>> = (0..3)
            .map(|k| {
                (0..9)
                    .filter(|d| sets[3 * s + k] >> d & 1 == 1)
                    .map(|d| 1 << d)
                    .collect()
            })
            .collect();
        let mut v = Vec::with_capacity(216);
        for o in 0..216 {
            let orders = [PERM3[o / 36], PERM3[o / 6 % 6], PERM3[o % 6]];
            let mut rows = [0u16; 3];
            for k in 0..3 {
                for (i, row) in rows.iter_mut().enumerate() {
                    *row |= digits[k][orders[k][i] as usize];
                }
            }
            v.push(rows);
        }
        v
    };
    let (first, second) = (rows_of(0), rows_of(1));
    let last = [sets[6], sets[7], sets[8]];
    let mut n = 0;
    // Permuting the three rows maps the bands with these column sets onto themselves, and moves
    // the first column's digits into every order equally often: count the bands whose first
    // column is in its first order (the first 36 row assignments of stack 1), times 6.
    for p in &first[..36] {
        for q in &second {
            if (p[0] & q[0]) | (p[1] & q[1]) | (p[2] & q[2]) != 0 {
                continue;
            }
            // Row i of the third stack holds the digits rows i of the first two lack: one from
            // each of its columns.
            n += (0..3).all(|i| {
                let z = 0x1FF & !(p[i] | q[i]);
                last.iter().all(|&c| (z & c).count_ones() == 1)
            }) as u64;
        }
    }
    6 * n
}

/// `N` by pattern, shared by every computation of a process.
fn band_counts() -> &'static Mutex<HashMap<u64, u64>> {
    static MEMO: OnceLock<Mutex<HashMap<u64, u64>>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The splits of a band's column sets, in order (stack 1's index major), with `N(S) · N(T)` for
/// each.
fn split_weights(sets: &ColumnSets) -> Vec<u64> {
    let lacking = sets.map(|m| 0x1FF & !m);
    let stacks: Vec<Vec<[u16; 3]>> = (0..3)
        .map(|s| stack_splits([lacking[3 * s], lacking[3 * s + 1], lacking[3 * s + 2]]))
        .collect();
    assert!(
        stacks.iter().all(|v| v.len() == 56),
        "not the column sets of a band"
    );
    // Per stack and split: the columns of each digit in the middle band and in the bottom one.
    let at: Vec<Vec<([u8; 9], [u8; 9])>> = (0..3)
        .map(|s| {
            stacks[s]
                .iter()
                .map(|m| {
                    let rest = [0, 1, 2].map(|k| lacking[3 * s + k] & !m[k]);
                    (columns_of(*m), columns_of(rest))
                })
                .collect()
        })
        .collect();
    let mut local: HashMap<u64, u64> = HashMap::new();
    let mut count = |key: u64, mid: [[u16; 3]; 3], bottom: bool| -> u64 {
        if let Some(&n) = local.get(&key) {
            return n;
        }
        let shared = band_counts().lock().ok().and_then(|m| m.get(&key).copied());
        let n = shared.unwrap_or_else(|| {
            let mut s = [0u16; 9];
            for st in 0..3 {
                for k in 0..3 {
                    s[3 * st + k] = if bottom {
                        lacking[3 * st + k] & !mid[st][k]
                    } else {
                        mid[st][k]
                    };
                }
            }
            let n = bands_with_column_sets(&s);
            if let Ok(mut m) = band_counts().lock() {
                m.insert(key, n);
            }
            n
        });
        local.insert(key, n);
        n
    };
    let mut weights = Vec::with_capacity(56 * 56 * 56);
    for (x, ax) in at[0].iter().enumerate() {
        for (y, ay) in at[1].iter().enumerate() {
            for (z, az) in at[2].iter().enumerate() {
                let mid = [stacks[0][x], stacks[1][y], stacks[2][z]];
                let n_mid = count(pattern([ax.0, ay.0, az.0]), mid, false);
                let n_bottom = count(pattern([ax.1, ay.1, az.1]), mid, true);
                weights.push(n_mid * n_bottom);
            }
        }
    }
    weights
}

/// The number of completions (fillings of rows 4 to 9) of a band with column sets `sets`.
///
/// # Examples
/// ```
/// use shudu_core::count::{column_sets, completions};
/// let band: Vec<u8> = "123456789456789123789123456".bytes().map(|b| b - b'0').collect();
/// assert_eq!(completions(&column_sets(&band.try_into().unwrap())), 7_802_998_272);
/// ```
pub fn completions(sets: &ColumnSets) -> u64 {
    split_weights(sets).iter().sum()
}

/// The least pattern of column sets over the 1,296 column permutations: bands with the same
/// one have the same number of completions.
fn gangster_key(sets: &ColumnSets) -> u64 {
    let mut least = u64::MAX;
    for g in 0..1296 {
        let stacks = PERM3[g / 216];
        let within = [PERM3[g / 36 % 6], PERM3[g / 6 % 6], PERM3[g % 6]];
        let image: [[u8; 9]; 3] = [0, 1, 2].map(|i| {
            let s = stacks[i] as usize;
            columns_of([0, 1, 2].map(|k| sets[3 * s + within[i][k] as usize]))
        });
        least = least.min(pattern(image));
    }
    least
}

/// One band class with its completions.
#[derive(Clone, Copy, Debug)]
pub struct BandClassCount {
    /// The class (0..416), numbered as in [`canon`](crate::canon).
    pub class: usize,
    /// Its least band (27 digits, row by row).
    pub least: [u8; 27],
    /// How many bands it holds: `9! · 7776 / automorphisms`.
    pub bands: u64,
    /// The completions of each of its bands.
    pub completions: u64,
    /// Its gangster class (0..44): classes with equal column sets up to column permutations and
    /// relabelling, numbered in order of first appearance.
    pub gangster: usize,
}

/// The census of bands: every class with its completions.
#[derive(Clone, Debug)]
pub struct Census {
    /// The 416 band classes.
    pub classes: Vec<BandClassCount>,
    /// The number of gangster classes (44).
    pub gangsters: usize,
    /// The number of complete grids: the sum over classes of bands × completions.
    pub grids: u128,
}

/// Computes the census: the 44 completion counts (in parallel on rayon's pool), then the total.
/// `progress(done, of)` is called after each gangster class.
///
/// # Complexity
/// 44 × 175,616 splits, a few table look-ups each, plus a few hundred band counts of 46,656
/// steps: seconds.
pub fn census(progress: &(dyn Fn(usize, usize) + Sync)) -> Census {
    use rayon::prelude::*;
    let n = band_class_count();
    let keys: Vec<u64> = (0..n)
        .into_par_iter()
        .map(|c| gangster_key(&column_sets(&band_class_least(c))))
        .collect();
    let mut gangster_of_key: HashMap<u64, usize> = HashMap::new();
    let mut firsts = Vec::new();
    let gangster: Vec<usize> = keys
        .iter()
        .enumerate()
        .map(|(c, &k)| {
            *gangster_of_key.entry(k).or_insert_with(|| {
                firsts.push(c);
                firsts.len() - 1
            })
        })
        .collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let counts: Vec<u64> = firsts
        .par_iter()
        .map(|&c| {
            let n = completions(&column_sets(&band_class_least(c)));
            let k = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(k, firsts.len());
            n
        })
        .collect();
    let classes: Vec<BandClassCount> = (0..n)
        .map(|c| BandClassCount {
            class: c,
            least: band_class_least(c),
            bands: 362_880 * 7776 / band_class_automorphisms(c) as u64,
            completions: counts[gangster[c]],
            gangster: gangster[c],
        })
        .collect();
    let grids = classes
        .iter()
        .map(|c| c.bands as u128 * c.completions as u128)
        .sum();
    Census {
        classes,
        gangsters: firsts.len(),
        grids,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn census_finds_every_grid() {
        let t = std::time::Instant::now();
        let c = census(&|_, _| {});
        eprintln!("census {:?}", t.elapsed());
        assert_eq!(c.gangsters, 44);
        assert_eq!(
            c.classes.iter().map(|c| c.bands).sum::<u64>(),
            948_109_639_680
        );
        assert_eq!(c.grids, GRIDS);
        // Every class of one gangster class has its completions computed alike.
        for k in [5, 100, 415] {
            let class = &c.classes[k];
            assert_eq!(completions(&column_sets(&class.least)), class.completions);
        }
        // The uniform sampler's table is what the census computes.
        let table: HashMap<u64, u64> = GANGSTER_COMPLETIONS.iter().copied().collect();
        assert_eq!(table.len(), 44);
        for class in &c.classes {
            assert_eq!(
                table[&gangster_key(&column_sets(&class.least))],
                class.completions
            );
        }
        // Its rejection bound holds for every band count the census met, which is every one.
        let counts = band_counts().lock().unwrap();
        assert_eq!(counts.values().max(), Some(&BOUND));
        assert!(counts.values().all(|&n| n > 0));
    }

    #[test]
    fn the_pure_band_has_the_completions_felgenhauer_and_jarvis_list() {
        // Their table lists 108,374,976 for this band, counting completions up to the 72
        // orderings they fix in the middle band's first box column.
        let band: Vec<u8> = "123456789456789123789123456"
            .bytes()
            .map(|b| b - b'0')
            .collect();
        assert_eq!(
            completions(&column_sets(&band.try_into().unwrap())),
            72 * 108_374_976
        );
    }

    #[test]
    fn bands_with_column_sets_matches_enumeration() {
        // Every arrangement of each column's digits over the three rows, kept when each row
        // holds nine different digits.
        let band: Vec<u8> = "123456789456789132789123465"
            .bytes()
            .map(|b| b - b'0')
            .collect();
        let sets = column_sets(&band.try_into().unwrap());
        let digits: Vec<Vec<u8>> = sets
            .iter()
            .map(|&m| (0..9).filter(|d| m >> d & 1 == 1).collect())
            .collect();
        let mut n = 0;
        for code in 0..6usize.pow(9) {
            let mut rows = [0u16; 3];
            let mut c = code;
            for col in &digits {
                let o = PERM3[c % 6];
                c /= 6;
                for (i, row) in rows.iter_mut().enumerate() {
                    *row |= 1 << col[o[i] as usize];
                }
            }
            n += rows.iter().all(|&r| r == 0x1FF) as u64;
        }
        assert_eq!(bands_with_column_sets(&sets), n);
        assert!(n > 0);
    }
}

// ---------------------------------------------------------------------------------------------
// Uniform grids
// ---------------------------------------------------------------------------------------------

/// The completions of the 44 gangster classes, by [`gangster_key`]. These are results of
/// [`census`] kept so that a sampler starts in milliseconds rather than seconds; the test
/// `gangster_table_is_what_the_census_computes` recomputes every entry.
const GANGSTER_COMPLETIONS: [(u64, u64); 44] = include!("count_gangsters.in");

/// The largest number of bands with given column sets, over every column sets of a band (the
/// census meets all of them: every middle band's column sets are a split of some top band). The
/// two-stage rejection below accepts a split with probability `N(S)/BOUND · N(T)/BOUND`, which
/// is proportional to its weight only if no `N` exceeds the bound; the sampler checks that it
/// never does, and the test `no_band_count_exceeds_the_bound` checks it over the census.
const BOUND: u64 = 1728;

/// A hasher for the pattern keys (already well mixed integers): a multiply and a rotate.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

type PatternMemo = HashMap<u64, u16, std::hash::BuildHasherDefault<KeyHasher>>;

thread_local! {
    /// `N` by pattern, one table a thread (no lock on the hot path); at most 22,582 entries.
    static MEMO: std::cell::RefCell<PatternMemo> = std::cell::RefCell::new(PatternMemo::default());
}

/// One split of one stack of a class's least band.
#[derive(Clone, Copy)]
struct StackSplit {
    /// The column sets the middle band takes.
    mid: [u16; 3],
    /// Which column (0..3) of the stack each digit is in, in the middle band and the bottom one.
    at_mid: [u8; 9],
    at_bottom: [u8; 9],
}

/// A band class ready for sampling: its least band and the 56 splits of each stack below it.
struct ClassSplits {
    least: [u8; 27],
    lacking: ColumnSets,
    stacks: [[StackSplit; 56]; 3],
}

impl ClassSplits {
    fn new(class: usize) -> ClassSplits {
        let least = band_class_least(class);
        let lacking = column_sets(&least).map(|m| 0x1FF & !m);
        let stacks = [0, 1, 2].map(|s| {
            let lack = [lacking[3 * s], lacking[3 * s + 1], lacking[3 * s + 2]];
            let splits = stack_splits(lack);
            let mut out = [StackSplit {
                mid: [0; 3],
                at_mid: [0; 9],
                at_bottom: [0; 9],
            }; 56];
            for (o, m) in out.iter_mut().zip(&splits) {
                let rest = [0, 1, 2].map(|k| lack[k] & !m[k]);
                *o = StackSplit {
                    mid: *m,
                    at_mid: columns_of(*m),
                    at_bottom: columns_of(rest),
                };
            }
            out
        });
        ClassSplits {
            least,
            lacking,
            stacks,
        }
    }
}

/// Draws complete grids uniformly at random: each of the [`GRIDS`] grids with probability
/// exactly `1 / GRIDS` (up to the quality of the random generator). See the module docs for
/// the method and docs/ALGORITHM.md, "Uniform grids", for the proof.
///
/// # Examples
/// ```
/// use shudu_core::count::UniformGrids;
/// use shudu_core::grids::rng_for;
/// let sampler = UniformGrids::get();
/// let g = sampler.sample(&mut rng_for(7, 0));
/// assert_eq!(g, sampler.sample(&mut rng_for(7, 0)));
/// ```
pub struct UniformGrids {
    /// Running totals of `bands × completions` over the classes, ending at [`GRIDS`].
    cumulative: Vec<u128>,
    classes: Vec<ClassSplits>,
}

impl UniformGrids {
    /// The sampler of this process, built on first use (a few tens of milliseconds).
    pub fn get() -> &'static UniformGrids {
        static SAMPLER: OnceLock<UniformGrids> = OnceLock::new();
        SAMPLER.get_or_init(UniformGrids::new)
    }

    fn new() -> UniformGrids {
        let table: HashMap<u64, u64> = GANGSTER_COMPLETIONS.iter().copied().collect();
        let mut cumulative = Vec::with_capacity(band_class_count());
        let mut total = 0u128;
        for c in 0..band_class_count() {
            let key = gangster_key(&column_sets(&band_class_least(c)));
            let completions = table[&key];
            let bands = 362_880 * 7776 / band_class_automorphisms(c) as u128;
            total += bands * completions as u128;
            cumulative.push(total);
        }
        assert_eq!(total, GRIDS, "the gangster table does not add up");
        let classes = (0..band_class_count()).map(ClassSplits::new).collect();
        UniformGrids {
            cumulative,
            classes,
        }
    }

    /// One grid, uniformly at random among all [`GRIDS`].
    ///
    /// # Complexity
    /// About 70 split proposals (two table look-ups each) and a few hundred band proposals (a
    /// few bit operations each): microseconds.
    pub fn sample<R: RngCore>(&self, rng: &mut R) -> Grid {
        // The top band's class, with probability bands × completions / GRIDS: an exact uniform
        // integer below GRIDS (< 2^73) by rejection.
        let r = loop {
            let x = (rng.next_u64() as u128) << 9 | (rng.next_u64() >> 55) as u128;
            if x < GRIDS {
                break x;
            }
        };
        let class = self.cumulative.partition_point(|&t| t <= r);
        let c = &self.classes[class];
        // A split with probability N(S) · N(T) / completions.
        let (mid, bottom) = loop {
            let (x, y, z) = (below(rng, 56), below(rng, 56), below(rng, 56));
            let [sx, sy, sz] = [&c.stacks[0][x], &c.stacks[1][y], &c.stacks[2][z]];
            let mid = [sx.mid, sy.mid, sz.mid];
            let mid_sets = [
                mid[0][0], mid[0][1], mid[0][2], mid[1][0], mid[1][1], mid[1][2], mid[2][0],
                mid[2][1], mid[2][2],
            ];
            let n = band_count(pattern([sx.at_mid, sy.at_mid, sz.at_mid]), &mid_sets);
            if below(rng, BOUND as usize) as u64 >= n {
                continue;
            }
            let bottom_sets: ColumnSets = std::array::from_fn(|k| c.lacking[k] & !mid_sets[k]);
            let n = band_count(
                pattern([sx.at_bottom, sy.at_bottom, sz.at_bottom]),
                &bottom_sets,
            );
            if below(rng, BOUND as usize) as u64 >= n {
                continue;
            }
            break (mid_sets, bottom_sets);
        };
        let mut cells = [0u8; 81];
        cells[..27].copy_from_slice(&c.least);
        cells[27..54].copy_from_slice(&band_with_column_sets(&mid, rng));
        cells[54..].copy_from_slice(&band_with_column_sets(&bottom, rng));
        // A uniformly random map of the class (row order in the top band, column permutation,
        // relabelling) takes the least band to a uniformly random band of the class, and the
        // completions of one to the completions of the other.
        let rows = PERM3[below(rng, 6)];
        let stacks = PERM3[below(rng, 6)];
        let within = [
            PERM3[below(rng, 6)],
            PERM3[below(rng, 6)],
            PERM3[below(rng, 6)],
        ];
        let mut label = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        for i in (1..9).rev() {
            label.swap(i, below(rng, i + 1));
        }
        let mut out = [0u8; 81];
        for r in 0..9 {
            let from_row = if r < 3 { rows[r] as usize } else { r };
            for s in 0..3 {
                for k in 0..3 {
                    let from_col = 3 * stacks[s] as usize + within[s][k] as usize;
                    out[9 * r + 3 * s + k] = label[cells[9 * from_row + from_col] as usize - 1];
                }
            }
        }
        Grid::from_valid_bytes(out)
    }
}

/// A uniform integer below `n` (`n <= 2^32`) by Lemire's multiply-shift with rejection, so that
/// it is exactly uniform.
#[inline]
fn below<R: RngCore>(rng: &mut R, n: usize) -> usize {
    let n = n as u64;
    loop {
        let m = rng.next_u32() as u64 * n;
        if (m as u32 as u64) >= (1u64 << 32) % n {
            return (m >> 32) as usize;
        }
    }
}

/// `N` for a pattern, from this thread's memo or computed from `sets`.
fn band_count(key: u64, sets: &ColumnSets) -> u64 {
    let n = MEMO.with(|m| {
        let mut m = m.borrow_mut();
        *m.entry(key)
            .or_insert_with(|| bands_with_column_sets(sets) as u16)
    }) as u64;
    assert!(n <= BOUND, "a band count above the sampler's bound");
    n
}

/// A band with column sets `sets`, uniformly among them: random orders of the digits of the
/// columns of the first two stacks until the third stack fits (then it fits one way).
fn band_with_column_sets<R: RngCore>(sets: &ColumnSets, rng: &mut R) -> [u8; 27] {
    let digits: [[u16; 3]; 9] = sets.map(|mut m| {
        std::array::from_fn(|_| {
            let low = m & m.wrapping_neg();
            m &= !low;
            low
        })
    });
    loop {
        let mut code = below(rng, 46_656);
        let mut rows = [0u16; 3];
        let mut orders = [[0u8; 3]; 6];
        for (col, order) in orders.iter_mut().enumerate() {
            *order = PERM3[code % 6];
            code /= 6;
            for (i, row) in rows.iter_mut().enumerate() {
                *row |= digits[col][order[i] as usize];
            }
        }
        if rows.iter().any(|r| r.count_ones() != 6) {
            continue;
        }
        let fits = rows.iter().all(|&r| {
            let z = 0x1FF & !r;
            (6..9).all(|k| (z & sets[k]).count_ones() == 1)
        });
        if !fits {
            continue;
        }
        let mut band = [0u8; 27];
        for i in 0..3 {
            for (col, order) in orders.iter().enumerate() {
                band[9 * i + col] = digits[col][order[i] as usize].trailing_zeros() as u8 + 1;
            }
            let z = 0x1FF & !rows[i];
            for k in 6..9 {
                band[9 * i + k] = (z & sets[k]).trailing_zeros() as u8 + 1;
            }
        }
        return band;
    }
}

#[cfg(test)]
mod uniform_tests {
    use super::*;
    use crate::canon::band_class_of;
    use crate::grids::rng_for;

    /// Pearson's statistic of `observed` against probabilities `expected` (summing to 1), with
    /// bins merged (in order) until each expects at least 10; and its degrees of freedom.
    fn chi_square(observed: &[u64], expected: &[f64]) -> (f64, usize) {
        let n: u64 = observed.iter().sum();
        let (mut stat, mut bins, mut o, mut e) = (0.0, 0, 0.0, 0.0);
        for (&ob, &ex) in observed.iter().zip(expected) {
            o += ob as f64;
            e += ex * n as f64;
            if e >= 10.0 {
                stat += (o - e) * (o - e) / e;
                bins += 1;
                (o, e) = (0.0, 0.0);
            }
        }
        if e > 0.0 {
            stat += (o - e) * (o - e) / e;
            bins += 1;
        }
        (stat, bins - 1)
    }

    /// The chi-square value a statistic with `df` degrees of freedom exceeds with probability
    /// 0.0001 (Wilson and Hilferty's approximation, z = 3.719).
    fn critical(df: usize) -> f64 {
        let k = df as f64;
        let t = 1.0 - 2.0 / (9.0 * k) + 3.719 * (2.0 / (9.0 * k)).sqrt();
        k * t * t * t
    }

    fn class_probabilities() -> Vec<f64> {
        let s = UniformGrids::get();
        let mut prev = 0u128;
        s.cumulative
            .iter()
            .map(|&t| {
                let p = (t - prev) as f64 / GRIDS as f64;
                prev = t;
                p
            })
            .collect()
    }

    #[test]
    fn uniform_grids_are_valid_and_reproducible() {
        let s = UniformGrids::get();
        let mut rng = rng_for(3, 0);
        let grids: Vec<Grid> = (0..2000).map(|_| s.sample(&mut rng)).collect();
        for g in &grids {
            assert!(Grid::try_from(g.to_puzzle()).is_ok(), "{g}");
        }
        let mut again = rng_for(3, 0);
        assert!(grids.iter().all(|g| *g == s.sample(&mut again)));
        let distinct: std::collections::HashSet<_> = grids.iter().collect();
        assert_eq!(distinct.len(), grids.len());
    }

    /// Every band (top, middle, bottom; and every stack, read as a band) of a uniform grid is in
    /// band class `c` with probability `bands(c) · completions(c) / GRIDS`, by the symmetries that
    /// move bands and stacks into the top band's place. Only the top band's class is drawn from
    /// these numbers; the middle and bottom bands and the stacks come from the completion step,
    /// so this tests the split weights and the band rejection as much as the class draw.
    #[test]
    fn band_classes_of_uniform_grids_follow_the_exact_distribution() {
        let s = UniformGrids::get();
        let p = class_probabilities();
        let n = 30_000;
        let mut counts = vec![[0u64; 416]; 4];
        let mut rng = rng_for(11, 0);
        for _ in 0..n {
            let g = s.sample(&mut rng);
            let b = g.as_bytes();
            for (which, from) in [0, 27, 54].into_iter().enumerate() {
                let band: [u8; 27] = b[from..from + 27].try_into().unwrap();
                counts[which][band_class_of(&band)] += 1;
            }
            let stack: [u8; 27] = std::array::from_fn(|i| b[9 * (i % 9) + i / 9]);
            counts[3][band_class_of(&stack)] += 1;
        }
        for (which, observed) in counts.iter().enumerate() {
            let (stat, df) = chi_square(observed, &p);
            assert!(
                stat < critical(df),
                "band {which}: chi-square {stat:.1} with {df} df"
            );
        }
    }

    /// A band of given column sets is drawn uniformly among the `N` that have them.
    #[test]
    fn bands_with_given_column_sets_are_drawn_uniformly() {
        let band: Vec<u8> = "123456789456789123789123456"
            .bytes()
            .map(|b| b - b'0')
            .collect();
        let sets = column_sets(&band.try_into().unwrap());
        let n = bands_with_column_sets(&sets) as usize;
        let mut seen: HashMap<[u8; 27], u64> = HashMap::new();
        let mut rng = rng_for(5, 0);
        let draws = 60 * n;
        for _ in 0..draws {
            let b = band_with_column_sets(&sets, &mut rng);
            assert_eq!(column_sets(&b), sets);
            band_class_of(&b); // panics unless b is a valid band
            *seen.entry(b).or_default() += 1;
        }
        assert_eq!(seen.len(), n, "every band is drawn");
        let observed: Vec<u64> = seen.values().copied().collect();
        let (stat, df) = chi_square(&observed, &vec![1.0 / n as f64; n]);
        assert!(stat < critical(df), "chi-square {stat:.1} with {df} df");
    }
}
