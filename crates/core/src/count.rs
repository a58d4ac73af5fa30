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

use crate::canon::{band_class_automorphisms, band_class_count, band_class_least};

/// The number of complete grids, as Felgenhauer and Jarvis found it (the computation here is
/// checked against it).
pub const GRIDS: u128 = 6_670_903_752_021_072_936_960;

/// The orderings of three things.
const PERM3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

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
/// 46,656 pairs of row assignments of the first two stacks (6³ each), bit operations each.
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
                    *row |= digits[k][orders[k][i]];
                }
            }
            v.push(rows);
        }
        v
    };
    let (first, second) = (rows_of(0), rows_of(1));
    let last = [sets[6], sets[7], sets[8]];
    let mut n = 0;
    for p in &first {
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
    n
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
            let s = stacks[i];
            columns_of([0, 1, 2].map(|k| sets[3 * s + within[i][k]]))
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
                    *row |= 1 << col[o[i]];
                }
            }
            n += rows.iter().all(|&r| r == 0x1FF) as u64;
        }
        assert_eq!(bands_with_column_sets(&sets), n);
        assert!(n > 0);
    }
}
