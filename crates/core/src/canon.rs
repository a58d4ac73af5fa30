//! Canonical forms of grids and puzzles under the Sudoku symmetry group.
//!
//! Two grids (or puzzles) are *equivalent* (essentially the same) when one becomes the other by
//! the validity-preserving transformations: transposing, permuting the three bands, the rows
//! within each band, the three stacks, the columns within each stack (2 × 6⁸ = 3,359,232
//! positional transformations) and relabelling the digits (9! = 362,880).
//!
//! The canonical form of a board is the least of all its images in lexicographic order of the 81
//! cells, read row by row, with an empty cell below every digit. Each image is relabelled so that
//! its digits appear in the order 1, 2, 3, … when read that way (the relabelling that makes it
//! least), so the canonical form of a complete grid always starts with `123456789`. Two boards
//! are equivalent if and only if their canonical forms are equal.
//!
//! The *automorphisms* of a board are the transformations (positional part and relabelling) that
//! map it to itself; their number is the number of positional transformations that map the board
//! to its canonical form. Most grids have 1; the most symmetric grid has 648.
//!
//! Two algorithms, described in docs/ALGORITHM.md ("Canonical forms"):
//! - [`canonical_grid`]: a table of the 416 band classes (2,612,736 normalised bands, built once
//!   per process in about a quarter of a second) gives the least possible top band; the rest is
//!   fixed by sorting rows. About a microsecond a grid.
//! - [`canonical_puzzle`]: row by row, keeping every partial transformation whose image is least
//!   so far (a breadth-first branch and bound).

use std::cmp::Ordering;
use std::sync::OnceLock;

use crate::grid::{Grid, Puzzle};

/// The number of positional transformations (transposition, band, row, stack and column
/// permutations): 2 × 6⁸.
pub const POSITIONAL_TRANSFORMATIONS: u64 = 3_359_232;

/// A canonical form and the number of automorphisms of the board it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical<T> {
    /// The least equivalent board (see the [module docs](self)).
    pub form: T,
    /// How many positional transformations map the board to `form` (each with its relabelling):
    /// the size of the board's automorphism group, at least 1.
    pub automorphisms: u64,
}

/// The six orderings of three things, in lexicographic order.
pub(crate) const PERM3: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The inverse of each ordering in [`PERM3`], as an index into it.
const PERM3_INVERSE: [u8; 6] = [0, 1, 2, 4, 3, 5];

/// The index in [`PERM3`] of the ordering of three distinct values `(a, b, c)`.
#[inline(always)]
fn perm3_rank(a: u8, b: u8, c: u8) -> usize {
    ((b < a) as usize + (c < a) as usize) * 2 + (c < b) as usize
}

/// Column permutation number `index` (0..1296), as `image column -> source column`.
///
/// `index = stacks * 216 + within[0] * 36 + within[1] * 6 + within[2]`: image stack `i` is source
/// stack `PERM3[stacks][i]`, and its columns are that stack's in the order `PERM3[within[i]]`.
fn col_perm(index: usize) -> [u8; 9] {
    let stacks = PERM3[index / 216];
    let within = [(index / 36) % 6, (index / 6) % 6, index % 6];
    let mut p = [0u8; 9];
    for i in 0..3 {
        for j in 0..3 {
            p[3 * i + j] = 3 * stacks[i] + PERM3[within[i]][j];
        }
    }
    p
}

/// The index of a column permutation that maps stacks to stacks (inverse of [`col_perm`]).
fn col_perm_index(p: &[u8; 9]) -> usize {
    let stacks = perm3_rank(p[0] / 3, p[3] / 3, p[6] / 3);
    let w = |i: usize| perm3_rank(p[3 * i] % 3, p[3 * i + 1] % 3, p[3 * i + 2] % 3);
    stacks * 216 + w(0) * 36 + w(1) * 6 + w(2)
}

// ---------------------------------------------------------------------------------------------
// Bands
// ---------------------------------------------------------------------------------------------

/// The number of normalised bands: top row `012345678` (digits counted from 0), 56 ways to split
/// the digits of the middle row among the boxes, 6³ orders of the middle row's box segments and 6³
/// of the bottom row's (whose sets follow).
const NORMAL_BANDS: usize = 56 * 216 * 216;

/// A band transformation: rows reordered by `PERM3[rows]`, columns by `col_perm(cols)`. Applied
/// to a band `B` it gives `B'[i][j] = B[PERM3[rows][i]][col_perm(cols)[j]]`, then relabelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BandMap {
    rows: u8,
    cols: u16,
}

impl BandMap {
    const IDENTITY: BandMap = BandMap { rows: 0, cols: 0 };

    /// `self` first, then `then`.
    fn then(self, then: BandMap, cols: &[[u8; 9]]) -> BandMap {
        let (r1, r2) = (PERM3[self.rows as usize], PERM3[then.rows as usize]);
        let rows = perm3_rank(r1[r2[0] as usize], r1[r2[1] as usize], r1[r2[2] as usize]);
        let (c1, c2) = (&cols[self.cols as usize], &cols[then.cols as usize]);
        let mut c = [0u8; 9];
        for j in 0..9 {
            c[j] = c1[c2[j] as usize];
        }
        BandMap {
            rows: rows as u8,
            cols: col_perm_index(&c) as u16,
        }
    }

    fn inverse(self, cols: &[[u8; 9]]) -> BandMap {
        let c = &cols[self.cols as usize];
        let mut inv = [0u8; 9];
        for j in 0..9 {
            inv[c[j] as usize] = j as u8;
        }
        BandMap {
            rows: PERM3_INVERSE[self.rows as usize],
            cols: col_perm_index(&inv) as u16,
        }
    }
}

/// One class of bands (of 416), with its least member.
struct BandClass {
    /// The middle and bottom rows of the least band (its top row is `012345678`).
    rows: [[u8; 9]; 2],
    /// Every map that takes the least band to itself (after relabelling), the identity first.
    automorphisms: Vec<BandMap>,
}

/// The band table: for each normalised band, its class and one map to the class's least band.
struct BandTable {
    /// Indexed by [`band_key`]: class in bits 0..9, row order in bits 9..12, column permutation
    /// in bits 12..23.
    entries: Vec<u32>,
    /// The classes, in increasing order of their least band.
    classes: Vec<BandClass>,
    /// Every column permutation, by index.
    cols: Vec<[u8; 9]>,
}

/// For the digit sets of the middle row's first two box segments, which of the 56 splits it is
/// (`u8::MAX` if none). Index: bits 3..9 of the first set, then bits 0..3 and 6..9 of the second.
struct Splits {
    of: [u8; 4096],
    /// The three sets of each split, each sorted, and the sets the bottom row's segments get.
    sets: Vec<(BoxSets, BoxSets)>,
}

/// Three sorted digit sets, one a box.
type BoxSets = [[u8; 3]; 3];

fn splits() -> &'static Splits {
    static SPLITS: OnceLock<Splits> = OnceLock::new();
    SPLITS.get_or_init(|| {
        let mut of = [u8::MAX; 4096];
        let mut sets = Vec::new();
        let triples = |allowed: u16| -> Vec<u16> {
            (0u16..512)
                .filter(|m| m.count_ones() == 3 && m & !allowed == 0)
                .collect()
        };
        let to_sorted = |m: u16| -> [u8; 3] {
            let mut t = [0u8; 3];
            let mut k = 0;
            for d in 0..9 {
                if m >> d & 1 == 1 {
                    t[k] = d;
                    k += 1;
                }
            }
            t
        };
        for m0 in triples(0o770) {
            for m1 in triples(0o707) {
                let m2 = 0o777 & !m0 & !m1;
                if m0 & m1 != 0 || m2 & 0o700 != 0 {
                    continue;
                }
                of[split_index(m0, m1)] = sets.len() as u8;
                let middle = [to_sorted(m0), to_sorted(m1), to_sorted(m2)];
                let bottom = [
                    to_sorted(0o770 & !m0),
                    to_sorted(0o707 & !m1),
                    to_sorted(0o077 & !m2),
                ];
                sets.push((middle, bottom));
            }
        }
        assert_eq!(
            sets.len(),
            56,
            "the middle row splits its digits among the boxes 56 ways"
        );
        Splits { of, sets }
    })
}

#[inline(always)]
fn split_index(m0: u16, m1: u16) -> usize {
    (((m0 >> 3) & 63) | (((m1 & 7) | ((m1 >> 3) & 0o70)) << 6)) as usize
}

/// The table index of a band whose top row is `012345678` and whose other rows are `mid` and
/// `bot` (digits 0..8).
#[inline(always)]
fn band_key(splits: &Splits, mid: &[u8; 9], bot: &[u8; 9]) -> usize {
    let m0 = (1u16 << mid[0]) | (1 << mid[1]) | (1 << mid[2]);
    let m1 = (1u16 << mid[3]) | (1 << mid[4]) | (1 << mid[5]);
    let split = splits.of[split_index(m0, m1)] as usize;
    let order = |r: &[u8; 9]| {
        perm3_rank(r[0], r[1], r[2]) * 36
            + perm3_rank(r[3], r[4], r[5]) * 6
            + perm3_rank(r[6], r[7], r[8])
    };
    (split * 216 + order(mid)) * 216 + order(bot)
}

/// The middle and bottom rows of the normalised band with table index `key`.
fn band_of_key(splits: &Splits, key: usize) -> [[u8; 9]; 2] {
    let (middle, bottom) = splits.sets[key / (216 * 216)];
    let place = |sets: [[u8; 3]; 3], order: usize| {
        let o = [order / 36, (order / 6) % 6, order % 6];
        let mut r = [0u8; 9];
        for b in 0..3 {
            for j in 0..3 {
                r[3 * b + j] = sets[b][PERM3[o[b]][j] as usize];
            }
        }
        r
    };
    [place(middle, (key / 216) % 216), place(bottom, key % 216)]
}

/// Applies `map` to the band (top row `012345678`, then `rows`) and relabels it so that its top
/// row is `012345678` again.
fn map_band(rows: &[[u8; 9]; 2], map: BandMap, cols: &[[u8; 9]]) -> [[u8; 9]; 2] {
    let order = PERM3[map.rows as usize];
    let c = &cols[map.cols as usize];
    let row = |i: u8| -> [u8; 9] {
        let mut r = [0u8; 9];
        for j in 0..9 {
            r[j] = if i == 0 {
                c[j]
            } else {
                rows[i as usize - 1][c[j] as usize]
            };
        }
        r
    };
    let (top, mid, bot) = (row(order[0]), row(order[1]), row(order[2]));
    let mut label = [0u8; 9];
    for j in 0..9 {
        label[top[j] as usize] = j as u8;
    }
    [
        mid.map(|d| label[d as usize]),
        bot.map(|d| label[d as usize]),
    ]
}

/// Eighteen rows packed as two numbers that order like the rows do.
fn band_order_key(rows: &[[u8; 9]; 2]) -> (u64, u64) {
    (pack_row(&rows[0]), pack_row(&rows[1]))
}

/// A row of nine values below 16, packed four bits each, column 0 most significant, so that
/// packed rows order like the rows.
#[inline(always)]
fn pack_row(r: &[u8; 9]) -> u64 {
    r.iter().fold(0u64, |acc, &d| acc << 4 | d as u64)
}

fn band_table() -> &'static BandTable {
    static TABLE: OnceLock<BandTable> = OnceLock::new();
    TABLE.get_or_init(build_band_table)
}

/// Builds the band table by walking the orbit of each band not yet classified under all 7,776
/// band maps (6 row orders × 1,296 column permutations). About 416 × 7,776 band maps in all.
fn build_band_table() -> BandTable {
    let splits = splits();
    let cols: Vec<[u8; 9]> = (0..1296).map(col_perm).collect();
    const UNSET: u32 = u32::MAX;
    let mut entries = vec![UNSET; NORMAL_BANDS];
    // Per class found: its least band and the map from the first band met to it.
    struct Found {
        least: [[u8; 9]; 2],
        to_least: BandMap,
        automorphisms: Vec<BandMap>,
    }
    let mut found: Vec<Found> = Vec::new();
    for key in 0..NORMAL_BANDS {
        if entries[key] != UNSET {
            continue;
        }
        let class = found.len() as u32;
        let first = band_of_key(splits, key);
        let mut least = (u64::MAX, u64::MAX);
        let mut least_rows = first;
        let mut to_least = BandMap::IDENTITY;
        let mut automorphisms = Vec::new();
        for rows in 0..6u8 {
            for c in 0..1296u16 {
                let map = BandMap { rows, cols: c };
                let image = map_band(&first, map, &cols);
                let k = band_key(splits, &image[0], &image[1]);
                if k == key {
                    automorphisms.push(map);
                }
                if entries[k] == UNSET {
                    // Provisional: the class, and the map back to `first`.
                    let back = map.inverse(&cols);
                    entries[k] = class | (back.rows as u32) << 9 | (back.cols as u32) << 12;
                }
                let order = band_order_key(&image);
                if order < least {
                    least = order;
                    least_rows = image;
                    to_least = map;
                }
            }
        }
        found.push(Found {
            least: least_rows,
            to_least,
            automorphisms,
        });
    }
    // Number the classes in order of their least band.
    let mut order: Vec<usize> = (0..found.len()).collect();
    order.sort_by_key(|&c| band_order_key(&found[c].least));
    let mut rank = vec![0u32; found.len()];
    for (r, &c) in order.iter().enumerate() {
        rank[c] = r as u32;
    }
    // Each entry: map back to the first band met, then on to the least band.
    for e in &mut entries {
        let class = (*e & 511) as usize;
        let back = BandMap {
            rows: (*e >> 9 & 7) as u8,
            cols: (*e >> 12) as u16,
        };
        let map = back.then(found[class].to_least, &cols);
        *e = rank[class] | (map.rows as u32) << 9 | (map.cols as u32) << 12;
    }
    let classes = order
        .iter()
        .map(|&c| {
            let f = &found[c];
            // An automorphism of the least band: back to the first band, one of its
            // automorphisms, then forward again.
            let back = f.to_least.inverse(&cols);
            let mut automorphisms: Vec<BandMap> = f
                .automorphisms
                .iter()
                .map(|&a| back.then(a, &cols).then(f.to_least, &cols))
                .collect();
            automorphisms.sort_by_key(|m| (*m != BandMap::IDENTITY, m.rows, m.cols));
            BandClass {
                rows: f.least,
                automorphisms,
            }
        })
        .collect();
    BandTable {
        entries,
        classes,
        cols,
    }
}

/// The number of band classes under row and column permutations within the band and relabelling
/// (416, the count Felgenhauer and Jarvis reduced the first band to).
pub fn band_class_count() -> usize {
    band_table().classes.len()
}

/// The least band of class `class` (0..416, classes in increasing order of their least band):
/// 27 digits `1..=9`, row by row, starting `123456789`.
///
/// # Panics
/// If `class` is not below [`band_class_count`].
pub fn band_class_least(class: usize) -> [u8; 27] {
    let c = &band_table().classes[class];
    let mut band = [0u8; 27];
    for j in 0..9 {
        band[j] = j as u8 + 1;
        band[9 + j] = c.rows[0][j] + 1;
        band[18 + j] = c.rows[1][j] + 1;
    }
    band
}

/// How many of the 7,776 band maps (6 row orders × 1,296 column permutations), each with its
/// relabelling, take the least band of `class` to itself. A class holds
/// `7776 / automorphisms × 9!` bands.
///
/// # Panics
/// If `class` is not below [`band_class_count`].
pub fn band_class_automorphisms(class: usize) -> usize {
    band_table().classes[class].automorphisms.len()
}

/// The class (0..416) of a band: 27 digits `1..=9`, row by row, each row holding every digit
/// once and each box every digit once.
///
/// # Panics
/// If `band` is not a valid band.
pub fn band_class_of(band: &[u8; 27]) -> usize {
    for k in 0..3 {
        let row = (0..9).fold(0u16, |m, j| m | 1 << band[9 * k + j]);
        let boxed = (0..9).fold(0u16, |m, i| m | 1 << band[9 * (i / 3) + 3 * k + i % 3]);
        assert!(row == 0x3FE && boxed == 0x3FE, "not a band: {band:?}");
    }
    let mut label = [0u8; 10];
    for j in 0..9 {
        label[band[j] as usize] = j as u8;
    }
    let mut mid = [0u8; 9];
    let mut bot = [0u8; 9];
    for j in 0..9 {
        mid[j] = label[band[9 + j] as usize];
        bot[j] = label[band[18 + j] as usize];
    }
    (band_table().entries[band_key(splits(), &mid, &bot)] & 511) as usize
}

// ---------------------------------------------------------------------------------------------
// Grids
// ---------------------------------------------------------------------------------------------

/// The canonical form of a complete grid and its number of automorphisms.
///
/// # Complexity
/// Six table look-ups (one per band and stack), then, for each band of the least class and each
/// automorphism of that class, 54 cell look-ups and two three-row sorts. The first call in a
/// process builds the band table (about 10 MB, a quarter of a second).
///
/// # Examples
/// ```
/// use shudu_core::{canon::canonical_grid, Grid, Puzzle};
/// let line = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// let grid = Grid::try_from(line.parse::<Puzzle>().unwrap()).unwrap();
/// let c = canonical_grid(&grid);
/// assert!(c.form.to_line().starts_with("123456789"));
/// assert_eq!(canonical_grid(&c.form).form, c.form);
/// ```
pub fn canonical_grid(grid: &Grid) -> Canonical<Grid> {
    let table = band_table();
    let splits = splits();
    // Digits 0..8, as given and transposed.
    let mut src = [[0u8; 81]; 2];
    for (i, &v) in grid.as_bytes().iter().enumerate() {
        src[0][i] = v - 1;
        src[1][(i % 9) * 9 + i / 9] = v - 1;
    }
    let mut entries = [0u32; 6];
    let mut least_class = u32::MAX;
    for o in 0..2 {
        for b in 0..3 {
            let rows = &src[o][27 * b..27 * b + 27];
            let mut label = [0u8; 9];
            for j in 0..9 {
                label[rows[j] as usize] = j as u8;
            }
            let mut mid = [0u8; 9];
            let mut bot = [0u8; 9];
            for j in 0..9 {
                mid[j] = label[rows[9 + j] as usize];
                bot[j] = label[rows[18 + j] as usize];
            }
            let e = table.entries[band_key(splits, &mid, &bot)];
            entries[3 * o + b] = e;
            least_class = least_class.min(e & 511);
        }
    }
    let class = &table.classes[least_class as usize];
    let mut best = [u64::MAX; 6];
    let mut automorphisms = 0u64;
    for (at, &e) in entries.iter().enumerate() {
        if e & 511 != least_class {
            continue;
        }
        let (o, b) = (at / 3, at % 3);
        let base = BandMap {
            rows: (e >> 9 & 7) as u8,
            cols: (e >> 12) as u16,
        };
        let base_rows = PERM3[base.rows as usize];
        let base_cols = &table.cols[base.cols as usize];
        let (lo, hi) = match b {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        for aut in &class.automorphisms {
            let aut_rows = PERM3[aut.rows as usize];
            let aut_cols = &table.cols[aut.cols as usize];
            let mut cols = [0usize; 9];
            for j in 0..9 {
                cols[j] = base_cols[aut_cols[j] as usize] as usize;
            }
            let top = 9 * (3 * b + base_rows[aut_rows[0] as usize] as usize);
            let mut label = [0u8; 9];
            for (j, &c) in cols.iter().enumerate() {
                label[src[o][top + c] as usize] = j as u8;
            }
            let row = |r: usize| -> u64 {
                let base = 9 * r;
                cols.iter().fold(0u64, |acc, &c| {
                    acc << 4 | label[src[o][base + c] as usize] as u64
                })
            };
            let mut x = [row(3 * lo), row(3 * lo + 1), row(3 * lo + 2)];
            let mut y = [row(3 * hi), row(3 * hi + 1), row(3 * hi + 2)];
            sort3(&mut x);
            sort3(&mut y);
            let candidate = if x[0] < y[0] {
                [x[0], x[1], x[2], y[0], y[1], y[2]]
            } else {
                [y[0], y[1], y[2], x[0], x[1], x[2]]
            };
            match candidate.cmp(&best) {
                Ordering::Less => {
                    best = candidate;
                    automorphisms = 1;
                }
                Ordering::Equal => automorphisms += 1,
                Ordering::Greater => {}
            }
        }
    }
    let mut cells = [0u8; 81];
    let mut rows = [0u64; 9];
    rows[0] = 0x012345678;
    rows[1] = pack_row(&class.rows[0]);
    rows[2] = pack_row(&class.rows[1]);
    rows[3..].copy_from_slice(&best);
    for (r, &packed) in rows.iter().enumerate() {
        for j in 0..9 {
            cells[9 * r + j] = (packed >> (4 * (8 - j)) & 15) as u8 + 1;
        }
    }
    Canonical {
        form: Grid::from_valid_bytes(cells),
        automorphisms,
    }
}

#[inline(always)]
fn sort3(x: &mut [u64; 3]) {
    if x[1] < x[0] {
        x.swap(0, 1);
    }
    if x[2] < x[1] {
        x.swap(1, 2);
        if x[1] < x[0] {
            x.swap(0, 1);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Puzzles
// ---------------------------------------------------------------------------------------------

/// A partial transformation of a puzzle: the image's first rows are fixed, and every partial kept
/// at a step gives the same (least so far) image rows.
///
/// The column order is fixed only as far as the rows placed so far tell columns apart. Image
/// columns are split into *blocks* of interchangeable columns (within one stack: columns whose
/// cells in the placed rows are all empty), and image stacks into *groups* of interchangeable
/// stacks (stacks all empty so far, each one block of three). Every ordering inside a block or a
/// group gives the same image, so one partial stands for all of them.
#[derive(Clone, Copy)]
struct Partial {
    /// 0: as given; 1: transposed.
    orientation: u8,
    /// Bands (of the oriented puzzle) already placed, one bit each.
    bands_used: u8,
    /// The band the current image band comes from.
    band: u8,
    /// Source rows already placed, one bit each.
    rows_used: u16,
    /// Image column -> source column (one representative order).
    cols: [u8; 9],
    /// Bit `j`: image column `j` starts a block. Bits 0, 3 and 6 are always set.
    block_starts: u16,
    /// Bit `i`: image stack `i` starts a group. Bit 0 is always set.
    group_starts: u8,
    /// Digit (1..9) -> label given in the image (0: not met yet).
    labels: [u8; 10],
    /// Labels given so far.
    next_label: u8,
}

/// The value a cell takes in an image row before new digits are numbered: 0 for empty, the label
/// of a digit already met, or `NEW` (above every label) for a digit met for the first time.
const NEW: u8 = 15;

/// One way of ordering a run of cells or stacks that tie: `(first, length, is_stacks)`.
type Run = (u8, u8, bool);

/// The orderings of two things.
const PERM2: [[u8; 2]; 2] = [[0, 1], [1, 0]];

/// Computes canonical forms of puzzles, reusing its buffers from one puzzle to the next.
///
/// # Examples
/// ```
/// use shudu_core::{canon::PuzzleCanonicalizer, Puzzle};
/// let p: Puzzle =
///     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
///         .parse()
///         .unwrap();
/// let mut canon = PuzzleCanonicalizer::new();
/// let c = canon.canonical(&p);
/// assert_eq!(c.form.givens(), 17);
/// assert_eq!(canon.canonical(&c.form).form, c.form);
/// ```
#[derive(Default)]
pub struct PuzzleCanonicalizer {
    current: Vec<Partial>,
    next: Vec<Partial>,
}

impl PuzzleCanonicalizer {
    /// A canonicalizer with empty buffers.
    pub fn new() -> PuzzleCanonicalizer {
        PuzzleCanonicalizer::default()
    }

    /// The canonical form of `puzzle` and its number of automorphisms. A complete grid gets the
    /// same form as [`canonical_grid`] gives.
    ///
    /// # Complexity
    /// Nine steps, one an image row. Each step extends every kept partial transformation by every
    /// source row allowed next, orders the row's cells as far as its blocks and groups allow
    /// (empty first, then digits met before by label, then new digits), and keeps the partials
    /// whose image row is least. Ties between new digits branch.
    pub fn canonical(&mut self, puzzle: &Puzzle) -> Canonical<Puzzle> {
        let mut src = [[0u8; 81]; 2];
        for (i, &v) in puzzle.as_bytes().iter().enumerate() {
            src[0][i] = v;
            src[1][(i % 9) * 9 + i / 9] = v;
        }
        self.current.clear();
        for orientation in 0..2 {
            self.current.push(Partial {
                orientation,
                bands_used: 0,
                band: 0,
                rows_used: 0,
                cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
                block_starts: 0b100_1001,
                group_starts: 1,
                labels: [0; 10],
                next_label: 0,
            });
        }
        let mut image = [0u64; 9];
        for (step, image_row) in image.iter_mut().enumerate() {
            let mut best = u64::MAX;
            self.next.clear();
            for at in 0..self.current.len() {
                let p = self.current[at];
                let s = &src[p.orientation as usize];
                let mut rows = [0u8; 9];
                let mut n = 0;
                if step % 3 == 0 {
                    for b in 0..3u8 {
                        if p.bands_used >> b & 1 == 0 {
                            for r in 3 * b..3 * b + 3 {
                                rows[n] = r;
                                n += 1;
                            }
                        }
                    }
                } else {
                    for r in 3 * p.band..3 * p.band + 3 {
                        if p.rows_used >> r & 1 == 0 {
                            rows[n] = r;
                            n += 1;
                        }
                    }
                }
                for &r in &rows[..n] {
                    let row: &[u8; 9] = s[9 * r as usize..9 * r as usize + 9].try_into().unwrap();
                    let (value, arranged) = arrange(&p, row);
                    if value > best {
                        continue;
                    }
                    if value < best {
                        best = value;
                        self.next.clear();
                    }
                    let mut q = arranged;
                    q.rows_used |= 1 << r;
                    q.band = r / 3;
                    q.bands_used |= 1 << (r / 3);
                    branch(&q, row, &mut self.next);
                }
            }
            *image_row = best;
            std::mem::swap(&mut self.current, &mut self.next);
        }
        let automorphisms = self.current.iter().map(open_orderings).sum();
        let mut cells = [0u8; 81];
        for (r, &packed) in image.iter().enumerate() {
            for j in 0..9 {
                cells[9 * r + j] = (packed >> (4 * (8 - j)) & 15) as u8;
            }
        }
        Canonical {
            form: Puzzle::from_checked_bytes(cells),
            automorphisms,
        }
    }
}

/// Orders the cells of source row `row` under `p` as far as `p` leaves columns open, giving the
/// least image row (packed) and `p` with its columns in that order. New digits are not numbered
/// yet in `p`; the packed row numbers them in order.
#[inline]
fn arrange(p: &Partial, row: &[u8; 9]) -> (u64, Partial) {
    let mut q = *p;
    let mut val = [0u8; 9];
    for j in 0..9 {
        let v = row[q.cols[j] as usize] as usize;
        val[j] = if v == 0 {
            0
        } else if q.labels[v] != 0 {
            q.labels[v]
        } else {
            NEW
        };
    }
    // Inside each block: empty first, then by label, then new digits (insertion sort; a block
    // holds at most three columns).
    for j in 1..9 {
        let mut k = j;
        while q.block_starts >> k & 1 == 0 && val[k] < val[k - 1] {
            val.swap(k, k - 1);
            q.cols.swap(k, k - 1);
            k -= 1;
        }
    }
    // Inside each group of stacks: by their three values.
    if q.group_starts != 0b111 {
        let shape = |val: &[u8; 9], i: usize| {
            (val[3 * i] as u16) << 8 | (val[3 * i + 1] as u16) << 4 | val[3 * i + 2] as u16
        };
        for i in 1..3 {
            let mut k = i;
            while q.group_starts >> k & 1 == 0 && shape(&val, k) < shape(&val, k - 1) {
                for j in 0..3 {
                    val.swap(3 * k + j, 3 * k - 3 + j);
                    q.cols.swap(3 * k + j, 3 * k - 3 + j);
                }
                k -= 1;
            }
        }
    }
    let mut packed = 0u64;
    let mut next = q.next_label;
    for &v in &val {
        let l = if v == NEW {
            next += 1;
            next
        } else {
            v
        };
        packed = packed << 4 | l as u64;
    }
    (packed, q)
}

/// Pushes onto `out` every way of ordering the ties `arrange` left in `q` (new digits in one block,
/// stacks of a group with the same cells), each with its new digits numbered and its blocks and
/// groups split by the row.
fn branch(q: &Partial, row: &[u8; 9], out: &mut Vec<Partial>) {
    let mut val = [0u8; 9];
    for j in 0..9 {
        let v = row[q.cols[j] as usize] as usize;
        val[j] = if v == 0 {
            0
        } else if q.labels[v] != 0 {
            q.labels[v]
        } else {
            NEW
        };
    }
    let mut base = *q;
    // A block splits into its empty columns (still interchangeable) and one block per digit; a
    // group into its empty stacks and one group per stack holding a digit.
    for (j, &v) in val.iter().enumerate() {
        base.block_starts |= ((v != 0) as u16) << j;
    }
    for i in 0..3 {
        let digits = val[3 * i] | val[3 * i + 1] | val[3 * i + 2];
        base.group_starts |= ((digits != 0) as u8) << i;
    }
    // Runs of ties: new digits side by side in one block, and stacks of one group with the same
    // values (these hold only empty cells and new digits, as a row repeats no digit).
    let mut runs: [Run; 6] = [(0, 0, false); 6];
    let mut n_runs = 0;
    let mut j = 0;
    while j < 9 {
        let mut k = j + 1;
        while k < 9 && q.block_starts >> k & 1 == 0 && val[j] == NEW && val[k] == NEW {
            k += 1;
        }
        if k - j > 1 {
            runs[n_runs] = (j as u8, (k - j) as u8, false);
            n_runs += 1;
        }
        j = k;
    }
    if q.group_starts != 0b111 {
        let mut i = 0;
        while i < 3 {
            let mut k = i + 1;
            while k < 3
                && q.group_starts >> k & 1 == 0
                && val[3 * k..3 * k + 3] == val[3 * i..3 * i + 3]
                && val[3 * i + 2] != 0
            {
                k += 1;
            }
            if k - i > 1 {
                runs[n_runs] = (i as u8, (k - i) as u8, true);
                n_runs += 1;
            }
            i = k;
        }
    }
    let total: usize = runs[..n_runs]
        .iter()
        .map(|r| if r.1 == 2 { 2 } else { 6 })
        .product();
    for mut b in 0..total {
        let mut child = base;
        for &(first, len, stacks) in &runs[..n_runs] {
            let f = if len == 2 { 2 } else { 6 };
            let o = b % f;
            b /= f;
            let order: &[u8] = if len == 2 { &PERM2[o] } else { &PERM3[o] };
            let first = first as usize;
            if stacks {
                let old = child.cols;
                for (i, &from) in order.iter().enumerate() {
                    for j in 0..3 {
                        child.cols[3 * (first + i) + j] = old[3 * (first + from as usize) + j];
                    }
                }
            } else {
                let old = child.cols;
                for (i, &from) in order.iter().enumerate() {
                    child.cols[first + i] = old[first + from as usize];
                }
            }
        }
        for j in 0..9 {
            let v = row[child.cols[j] as usize] as usize;
            if v != 0 && child.labels[v] == 0 {
                child.next_label += 1;
                child.labels[v] = child.next_label;
            }
        }
        out.push(child);
    }
}

/// How many column orders a final partial stands for: the orderings of each open block and group.
fn open_orderings(p: &Partial) -> u64 {
    const FACTORIAL: [u64; 4] = [1, 1, 2, 6];
    let run_lengths = |starts: u16, len: usize| {
        let mut product = 1;
        let mut run = 1;
        for j in 1..=len {
            if j == len || starts >> j & 1 == 1 {
                product *= FACTORIAL[run];
                run = 1;
            } else {
                run += 1;
            }
        }
        product
    };
    run_lengths(p.block_starts, 9) * run_lengths(p.group_starts as u16, 3)
}

/// The canonical form of any board: a complete grid by the band table ([`canonical_grid`], the
/// fast path), anything else by `canon` ([`PuzzleCanonicalizer`]); both give the same form for
/// a complete grid.
///
/// # Examples
/// ```
/// use shudu_core::canon::{canonical_board, PuzzleCanonicalizer};
/// use shudu_core::Puzzle;
/// let grid: Puzzle =
///     "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
///         .parse()
///         .unwrap();
/// let c = canonical_board(&grid, &mut PuzzleCanonicalizer::new());
/// assert!(c.form.to_line().starts_with("123456789"));
/// ```
pub fn canonical_board(board: &Puzzle, canon: &mut PuzzleCanonicalizer) -> Canonical<Puzzle> {
    match Grid::try_from(*board) {
        Ok(g) => {
            let c = canonical_grid(&g);
            Canonical {
                form: c.form.to_puzzle(),
                automorphisms: c.automorphisms,
            }
        }
        Err(_) => canon.canonical(board),
    }
}

/// The canonical form of a puzzle and its number of automorphisms (see [`PuzzleCanonicalizer`],
/// which reuses its buffers across calls).
pub fn canonical_puzzle(puzzle: &Puzzle) -> Canonical<Puzzle> {
    PuzzleCanonicalizer::new().canonical(puzzle)
}

/// Mixed into the seed for the streams of items made again ([`NewClasses`]).
pub(crate) const RETRY_KEY: u64 = 0x7265_7472_795f_6b65;

/// The classes of the puzzles a run has emitted, so that it never emits two equivalent
/// puzzles (the same board relabelled, transposed, with rows, columns, bands or stacks
/// swapped): a 128-bit hash of each canonical form, 16 bytes a puzzle.
#[derive(Default)]
pub struct NewClasses {
    canon: PuzzleCanonicalizer,
    seen: std::collections::HashSet<u128>,
}

impl NewClasses {
    /// Records `p`'s class; `false` if a puzzle of that class was recorded before.
    pub fn insert(&mut self, p: &Puzzle) -> bool {
        let form = self.canon.canonical(p).form;
        self.seen.insert(class_hash(&form))
    }
}

/// A 128-bit hash of a puzzle: two 64-bit FNV-1a hashes with different offsets and inputs. Two
/// classes of one run share it with odds of about n² / 2^65 for n puzzles (below 10^-7 for a
/// million), which would make the run drop a puzzle, never emit a copy.
pub fn class_hash(p: &Puzzle) -> u128 {
    let mut a: u64 = 0xcbf2_9ce4_8422_2325;
    let mut b: u64 = 0x6c62_272e_07bb_0142;
    for &v in p.as_bytes() {
        a = (a ^ u64::from(v)).wrapping_mul(0x0000_0100_0000_01b3);
        b = (b ^ u64::from(v) ^ 0xa5).wrapping_mul(0x0000_0100_0000_01b3);
    }
    (u128::from(a) << 64) | u128::from(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_416_band_classes_and_their_orbits_cover_every_band() {
        let table = band_table();
        assert_eq!(table.classes.len(), 416);
        // Orbit-stabiliser: each class's normalised bands number 7,776 / |automorphisms|.
        let covered: usize = table
            .classes
            .iter()
            .map(|c| 7776 / c.automorphisms.len())
            .sum();
        assert_eq!(covered, NORMAL_BANDS);
        let mut per_class = vec![0usize; 416];
        for &e in &table.entries {
            per_class[(e & 511) as usize] += 1;
        }
        for (c, class) in table.classes.iter().enumerate() {
            assert_eq!(per_class[c] * class.automorphisms.len(), 7776, "class {c}");
            assert_eq!(class.automorphisms[0], BandMap::IDENTITY);
        }
        // The least band of all: 123456789 / 456789123 / 789123456.
        assert_eq!(
            table.classes[0].rows,
            [[3, 4, 5, 6, 7, 8, 0, 1, 2], [6, 7, 8, 0, 1, 2, 3, 4, 5]]
        );
        assert_eq!(band_class_count(), 416);
    }

    #[test]
    fn every_table_entry_maps_its_band_to_the_least_of_its_class() {
        let table = band_table();
        let splits = splits();
        for key in (0..NORMAL_BANDS).step_by(997) {
            let e = table.entries[key];
            let map = BandMap {
                rows: (e >> 9 & 7) as u8,
                cols: (e >> 12) as u16,
            };
            let image = map_band(&band_of_key(splits, key), map, &table.cols);
            assert_eq!(image, table.classes[(e & 511) as usize].rows, "key {key}");
        }
    }

    #[test]
    fn band_keys_and_column_maps_round_trip() {
        let splits = splits();
        for key in (0..NORMAL_BANDS).step_by(331) {
            let [mid, bot] = band_of_key(splits, key);
            assert_eq!(band_key(splits, &mid, &bot), key);
        }
        for i in 0..1296 {
            assert_eq!(col_perm_index(&col_perm(i)), i);
        }
        let cols: Vec<[u8; 9]> = (0..1296).map(col_perm).collect();
        let a = BandMap {
            rows: 3,
            cols: 1000,
        };
        let b = BandMap { rows: 4, cols: 77 };
        assert_eq!(a.then(a.inverse(&cols), &cols), BandMap::IDENTITY);
        assert_eq!(a.then(b, &cols).then(b.inverse(&cols), &cols), a);
    }
}
