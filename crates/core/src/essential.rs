//! The number of essentially different grids, computed by Burnside's lemma.
//!
//! Two grids are *essentially the same* when one becomes the other by a positional symmetry
//! (transposing, permuting bands, rows within a band, stacks, columns within a stack: the group
//! `G` of 2 · 6⁸ = 3,359,232 elements) followed by a relabelling of the digits (`S₉`). Burnside's
//! lemma counts the classes as the average number of grids fixed by an element `(g, σ)`:
//!
//! ```text
//! #classes = 1 / (|G| · 9!) · Σ_g F(g),    F(g) = #{grids X : g(X) is a relabelling of X}
//! ```
//!
//! `F` is constant on conjugacy classes of `G` (275 of them), so one representative of each is
//! enough. [`symmetry_classes`] finds the classes by conjugating every element of `G` by the
//! generators; [`fixed_grids`] computes `F(g)` exactly:
//!
//! - without transposition, through bands: `g` maps each band onto a band, and a grid is fixed if
//!   and only if each band is the image of the band `g` takes to it and the three bands' columns
//!   hold disjoint digits. Bands are enumerated (few of them are fixed by a non-trivial map) or,
//!   when a band only has to be fixed by the identity, counted by their column sets with
//!   [`bands_with_column_sets`]; the bands are then joined on their column sets.
//! - the transposition itself, through boxes: a grid with `Xᵀ = σ(X)` is fixed by its boxes on
//!   and above the diagonal, and is valid if and only if its rows are; boxes are pairs of
//!   orthogonal row and column partitions, joined on them.
//! - the other transposed symmetries, by a depth-first search over grids whose first row is
//!   `123456789`, learning the relabelling as cells are filled (at most 13,056 such grids a
//!   class).
//!
//! [`essentially_different`] puts it together: 5,472,730,538 (Russell and Jarvis, 2006). The
//! write-up is in docs/ALGORITHM.md, "Essentially different grids (Burnside)".

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use rayon::prelude::*;

use crate::count::{bands_with_column_sets, census, ColumnSets};

/// The number of essentially different grids, as Russell and Jarvis found it (the computation
/// here is checked against it).
pub const ESSENTIALLY_DIFFERENT: u128 = 5_472_730_538;

/// The order of the positional group: 2 · 6⁸.
pub const GROUP_ORDER: u64 = crate::canon::POSITIONAL_TRANSFORMATIONS;

/// 9!: the number of relabellings.
const RELABELLINGS: u128 = 362_880;

// The orderings of three things, shared with the canonical forms.
use crate::canon::PERM3;

/// The number of row permutations that keep bands together (`S₃ ≀ S₃`): 6⁴.
const LINE_PERMUTATIONS: usize = 1296;

/// A positional symmetry of the grid.
///
/// Rows and columns are numbered 0 to 8. Without transposition, the cell in row `i` and column
/// `j` moves to row `rows[i]`, column `cols[j]`; with it, the cell in row `i` and column `j` moves
/// to row `rows[j]`, column `cols[i]` (transpose first, then permute). `rows` and `cols` keep
/// bands and stacks together (`rows[i] / 3` depends only on `i / 3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    /// Where each row goes.
    pub rows: [u8; 9],
    /// Where each column goes.
    pub cols: [u8; 9],
    /// Whether rows and columns are exchanged first.
    pub transposed: bool,
}

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry {
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        transposed: false,
    };

    /// Where each cell (`9 · row + col`) goes.
    pub fn cell_map(&self) -> [u8; 81] {
        let mut map = [0u8; 81];
        for (cell, m) in map.iter_mut().enumerate() {
            let (i, j) = (cell / 9, cell % 9);
            let (r, c) = if self.transposed {
                (self.rows[j], self.cols[i])
            } else {
                (self.rows[i], self.cols[j])
            };
            *m = 9 * r + c;
        }
        map
    }
}

/// Writes a permutation of 0..9 as its cycles, numbered from 1 (`(1 2 3)(4 5)`), or `id`.
fn write_cycles(f: &mut fmt::Formatter<'_>, p: &[u8; 9]) -> fmt::Result {
    let mut seen = [false; 9];
    let mut any = false;
    for start in 0..9 {
        if seen[start] || p[start] as usize == start {
            continue;
        }
        any = true;
        write!(f, "(")?;
        let mut i = start;
        loop {
            seen[i] = true;
            write!(f, "{}", i + 1)?;
            i = p[i] as usize;
            if i == start {
                break;
            }
            write!(f, " ")?;
        }
        write!(f, ")")?;
    }
    if !any {
        write!(f, "id")?;
    }
    Ok(())
}

impl fmt::Display for Symmetry {
    /// `transpose, then rows (1 2 3), columns id`: rows and columns numbered 1 to 9, each
    /// permutation by its cycles.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.transposed {
            write!(f, "transpose, then ")?;
        }
        write!(f, "rows ")?;
        write_cycles(f, &self.rows)?;
        write!(f, ", columns ")?;
        write_cycles(f, &self.cols)
    }
}

/// A conjugacy class of the positional group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymmetryClass {
    /// A representative: the first element of the class in the order rows-major, untransposed
    /// first (see [`symmetry_classes`]).
    pub representative: Symmetry,
    /// The number of elements of the class.
    pub size: u64,
}

/// The row permutation of index `k` in `S₃ ≀ S₃`: band order `k / 216`, then the order inside
/// each band.
fn line_permutation(k: usize) -> [u8; 9] {
    let bands = PERM3[k / 216];
    let inner = [PERM3[k / 36 % 6], PERM3[k / 6 % 6], PERM3[k % 6]];
    let mut p = [0u8; 9];
    for b in 0..3 {
        for i in 0..3 {
            p[3 * b + i] = 3 * bands[b] + inner[b][i];
        }
    }
    p
}

/// The index of an ordering of three distinct values below 3.
fn perm3_index(a: u8, b: u8, c: u8) -> usize {
    PERM3
        .iter()
        .position(|p| *p == [a, b, c])
        .expect("a permutation of 0..3")
}

/// The inverse of [`line_permutation`].
fn line_index(p: &[u8; 9]) -> usize {
    let bands = perm3_index(p[0] / 3, p[3] / 3, p[6] / 3);
    let inner = [0, 3, 6].map(|s| perm3_index(p[s] % 3, p[s + 1] % 3, p[s + 2] % 3));
    bands * 216 + inner[0] * 36 + inner[1] * 6 + inner[2]
}

/// The conjugacy classes of the positional group (275 of them), with their sizes.
///
/// Elements are numbered `transposed · 1296² + rows · 1296 + cols` (row and column permutations
/// numbered as in `S₃ ≀ S₃`: band order major); each class is found by closing its least element
/// under conjugation by the generators (a row swap, a row 3-cycle, a band swap and a band 3-cycle,
/// on rows or on columns, and the transposition), and is listed in the order of its least
/// element, so the identity comes first and the untransposed classes before the others.
///
/// # Examples
/// ```
/// use shudu_core::essential::{symmetry_classes, GROUP_ORDER};
/// let classes = symmetry_classes();
/// assert_eq!(classes.len(), 275);
/// assert_eq!(classes.iter().map(|c| c.size).sum::<u64>(), GROUP_ORDER);
/// assert_eq!(classes[253].representative.to_string(), "transpose, then rows id, columns id");
/// ```
///
/// # Complexity
/// 3,359,232 elements × 9 generators, a few table look-ups each: well under a second.
pub fn symmetry_classes() -> Vec<SymmetryClass> {
    const L: usize = LINE_PERMUTATIONS;
    let perms: Vec<[u8; 9]> = (0..L).map(line_permutation).collect();
    // compose[x * L + y] = x ∘ y (apply y first).
    let mut compose = vec![0u16; L * L];
    for (x, px) in perms.iter().enumerate() {
        for (y, py) in perms.iter().enumerate() {
            compose[x * L + y] = line_index(&py.map(|v| px[v as usize])) as u16;
        }
    }
    let inverse: Vec<usize> = perms
        .iter()
        .map(|p| {
            let mut q = [0u8; 9];
            for (i, &v) in p.iter().enumerate() {
                q[v as usize] = i as u8;
            }
            line_index(&q)
        })
        .collect();
    let generators: Vec<usize> = [
        [1, 0, 2, 3, 4, 5, 6, 7, 8],
        [1, 2, 0, 3, 4, 5, 6, 7, 8],
        [3, 4, 5, 0, 1, 2, 6, 7, 8],
        [3, 4, 5, 6, 7, 8, 0, 1, 2],
    ]
    .iter()
    .map(line_index)
    .collect();
    let c = |x: usize, y: usize| compose[x * L + y] as usize;
    // Conjugates of element (t, r, q) by the 9 generators.
    let conjugates = |e: usize| -> [usize; 9] {
        let (t, r, q) = (e / (L * L), e / L % L, e % L);
        let mut out = [0usize; 9];
        // By τ: (r, q) ↦ (q, r), transposed or not.
        out[8] = t * L * L + q * L + r;
        for (k, &a) in generators.iter().enumerate() {
            let ai = inverse[a];
            // By (a, id) and by (id, a).
            let (r1, q1, r2, q2) = if t == 0 {
                (c(c(a, r), ai), q, r, c(c(a, q), ai))
            } else {
                // (a, b)(r, q)τ(a, b)⁻¹ = (a r b⁻¹, b q a⁻¹)τ.
                (c(a, r), c(q, ai), c(r, ai), c(a, q))
            };
            out[2 * k] = t * L * L + r1 * L + q1;
            out[2 * k + 1] = t * L * L + r2 * L + q2;
        }
        out
    };
    let n = 2 * L * L;
    let mut seen = vec![false; n];
    let mut classes = Vec::new();
    let mut stack = Vec::new();
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut size = 0u64;
        while let Some(e) = stack.pop() {
            size += 1;
            for f in conjugates(e) {
                if !seen[f] {
                    seen[f] = true;
                    stack.push(f);
                }
            }
        }
        let (t, r, q) = (start / (L * L), start / L % L, start % L);
        classes.push(SymmetryClass {
            representative: Symmetry {
                rows: perms[r],
                cols: perms[q],
                transposed: t == 1,
            },
            size,
        });
    }
    classes
}

// ---------------------------------------------------------------------------------------------
// Relabellings by cycle type.

/// The cycle types of `S₉` (the 30 partitions of 9), each with a relabelling of that type
/// (cycles on consecutive digits) and the number of relabellings of that type.
fn cycle_types() -> Vec<([u8; 9], u128)> {
    fn partitions(n: usize, max: usize, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if n == 0 {
            out.push(prefix.clone());
            return;
        }
        for k in (1..=max.min(n)).rev() {
            prefix.push(k);
            partitions(n - k, k, prefix, out);
            prefix.pop();
        }
    }
    let mut parts = Vec::new();
    partitions(9, 9, &mut Vec::new(), &mut parts);
    parts
        .iter()
        .map(|lengths| {
            let mut sigma = [0u8; 9];
            let mut at = 0;
            for &k in lengths {
                for i in 0..k {
                    sigma[at + i] = (at + (i + 1) % k) as u8;
                }
                at += k;
            }
            // 9! / Π k^{m_k} m_k!
            let mut denominator = 1u128;
            for k in 1..=9 {
                let m = lengths.iter().filter(|&&x| x == k).count() as u128;
                denominator *= (k as u128).pow(m as u32) * (1..=m).product::<u128>();
            }
            (sigma, RELABELLINGS / denominator)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Bands fixed by a band map.

/// A map from bands to bands: the cell in row `i` (0..3) and column `j` moves to row `rows[i]`,
/// column `cols[j]`, and its digit `d` (0..9) becomes `digits[d]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct BandMap {
    rows: [u8; 3],
    cols: [u8; 9],
    digits: [u8; 9],
}

impl BandMap {
    /// `self ∘ first`: `first`, then `self`.
    fn after(&self, first: &BandMap) -> BandMap {
        BandMap {
            rows: first.rows.map(|i| self.rows[i as usize]),
            cols: first.cols.map(|j| self.cols[j as usize]),
            digits: first.digits.map(|d| self.digits[d as usize]),
        }
    }

    /// Whether it moves no cell.
    fn is_positional_identity(&self) -> bool {
        self.rows == [0, 1, 2] && self.cols == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    }

    /// Whether it is the identity (every band is fixed).
    fn is_identity(&self) -> bool {
        self.is_positional_identity() && self.digits == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    }

    /// The image of column sets: the column sets of the image of a band with column sets `s`.
    fn image_sets(&self, s: &ColumnSets) -> ColumnSets {
        let mut out = [0u16; 9];
        for j in 0..9 {
            out[self.cols[j] as usize] = map_digits(s[j], &self.digits);
        }
        out
    }
}

/// The image of a set of digits (bits 0..9) under a relabelling.
fn map_digits(set: u16, digits: &[u8; 9]) -> u16 {
    let mut out = 0;
    for (d, &e) in digits.iter().enumerate() {
        out |= (set >> d & 1) << e;
    }
    out
}

/// The bands fixed by `map` (a band `Y` with `map(Y) = Y`), counted by their column sets.
///
/// # Complexity
/// A depth-first search over the orbits of the 27 cells, each given a digit whose cycle under
/// `map.digits` fits the orbit's length; the number of fixed bands bounds the work (at most a few
/// hundred thousand when `map` moves cells).
fn fixed_bands(map: &BandMap) -> HashMap<ColumnSets, u64> {
    // Orbits of the cells (9 · row + col), in order of their first cell.
    let next = |cell: usize| 9 * map.rows[cell / 9] as usize + map.cols[cell % 9] as usize;
    let mut orbit_of = [usize::MAX; 27];
    let mut orbits: Vec<Vec<u8>> = Vec::new();
    for start in 0..27 {
        if orbit_of[start] != usize::MAX {
            continue;
        }
        let mut cells = Vec::new();
        let mut c = start;
        loop {
            orbit_of[c] = orbits.len();
            cells.push(c as u8);
            c = next(c);
            if c == start {
                break;
            }
        }
        orbits.push(cells);
    }
    // Longer orbits first: they constrain most (an orbit of two cells in one row needs a
    // 2-cycle of σ), so impossible maps fail at the first levels.
    orbits.sort_by_key(|o| (std::cmp::Reverse(o.len()), o[0]));
    // Digits allowed at the start of each orbit: those whose cycle length divides its length.
    let allowed: Vec<u16> = orbits
        .iter()
        .map(|o| {
            let mut power = [0u8, 1, 2, 3, 4, 5, 6, 7, 8];
            for _ in 0..o.len() {
                power = power.map(|d| map.digits[d as usize]);
            }
            (0..9)
                .filter(|&d| power[d] as usize == d)
                .fold(0u16, |m, d| m | 1 << d)
        })
        .collect();
    // back[k][m] = σ⁻ᵏ(m): digit d may start an orbit if σᵏ(d) is free at its k-th cell.
    let longest = orbits.iter().map(Vec::len).max().unwrap_or(0);
    let mut inverse = [0u8; 9];
    for (d, &e) in map.digits.iter().enumerate() {
        inverse[e as usize] = d as u8;
    }
    let mut back: Vec<[u16; 512]> = Vec::with_capacity(longest);
    let mut power = [0u8, 1, 2, 3, 4, 5, 6, 7, 8];
    for _ in 0..longest {
        let mut t = [0u16; 512];
        for (m, e) in t.iter_mut().enumerate() {
            *e = map_digits(m as u16, &power);
        }
        back.push(t);
        power = power.map(|d| inverse[d as usize]);
    }
    let search = FixedBandSearch {
        orbits: &orbits,
        allowed: &allowed,
        digits: &map.digits,
        back,
    };
    let mut found = HashMap::new();
    let mut band = [0u8; 27];
    search.run(0, &mut band, [0; 3], [0; 3], &mut found);
    found
}

/// The depth-first search of [`fixed_bands`].
struct FixedBandSearch<'a> {
    orbits: &'a [Vec<u8>],
    allowed: &'a [u16],
    digits: &'a [u8; 9],
    back: Vec<[u16; 512]>,
}

impl FixedBandSearch<'_> {
    /// The digits that can start orbit `k` given the digits used in each row and box (a digit
    /// fits if each of its images is free at its cell; two cells of the orbit may still clash).
    fn free(&self, k: usize, rows: &[u16; 3], boxes: &[u16; 3]) -> u16 {
        let mut free = self.allowed[k];
        for (step, &cell) in self.orbits[k].iter().enumerate() {
            let used = rows[cell as usize / 9] | boxes[cell as usize % 9 / 3];
            free &= !self.back[step][used as usize];
        }
        free
    }

    /// Fills the orbits not in `done`, the one with fewest fitting digits first.
    fn run(
        &self,
        done: u32,
        band: &mut [u8; 27],
        rows: [u16; 3],
        boxes: [u16; 3],
        found: &mut HashMap<ColumnSets, u64>,
    ) {
        let n = self.orbits.len();
        if done.count_ones() as usize == n {
            let mut sets = [0u16; 9];
            for (cell, &d) in band.iter().enumerate() {
                sets[cell % 9] |= 1 << d;
            }
            *found.entry(sets).or_insert(0) += 1;
            return;
        }
        let mut best = (usize::MAX, 0u16, u32::MAX);
        for k in 0..n {
            if done >> k & 1 == 1 {
                continue;
            }
            let free = self.free(k, &rows, &boxes);
            if free.count_ones() < best.2 {
                best = (k, free, free.count_ones());
                if best.2 == 0 {
                    return;
                }
            }
        }
        let (k, free, _) = best;
        for d in 0..9u8 {
            if free >> d & 1 == 0 {
                continue;
            }
            let (mut r, mut b) = (rows, boxes);
            let mut e = d;
            let mut ok = true;
            for &cell in &self.orbits[k] {
                let cell = cell as usize;
                let bit = 1u16 << e;
                let (ri, bi) = (cell / 9, cell % 9 / 3);
                if (r[ri] | b[bi]) & bit != 0 {
                    ok = false;
                    break;
                }
                r[ri] |= bit;
                b[bi] |= bit;
                band[cell] = e;
                e = self.digits[e as usize];
            }
            if ok {
                self.run(done | 1 << k, band, r, b, found);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bands with given column sets, remembered by pattern.

/// For each digit, the triple (column in stack 1, 2, 3), counted over the digits (2 bits for
/// each of the 27 triples): two column sets with the same key are relabellings of each other, so
/// have the same number of bands.
fn relabelling_key(s: &ColumnSets) -> u64 {
    let mut at = [[0u8; 9]; 3];
    for st in 0..3 {
        for k in 0..3 {
            let m = s[3 * st + k];
            for (d, a) in at[st].iter_mut().enumerate() {
                if m >> d & 1 == 1 {
                    *a = k as u8;
                }
            }
        }
    }
    (0..9).fold(0u64, |key, d| {
        let code = at[0][d] * 9 + at[1][d] * 3 + at[2][d];
        key + (1u64 << (2 * code))
    })
}

/// `N(S)`, the number of bands with column sets `S`, shared by every computation of a process.
fn shared_band_counts() -> &'static Mutex<HashMap<u64, u64>> {
    static MEMO: OnceLock<Mutex<HashMap<u64, u64>>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(HashMap::new()))
}

/// `N(S)` with a local cache in front of the shared one.
struct BandCounter {
    local: HashMap<u64, u64>,
}

impl BandCounter {
    fn new() -> BandCounter {
        BandCounter {
            local: HashMap::new(),
        }
    }

    fn count(&mut self, s: &ColumnSets) -> u64 {
        let key = relabelling_key(s);
        if let Some(&n) = self.local.get(&key) {
            return n;
        }
        let shared = shared_band_counts()
            .lock()
            .ok()
            .and_then(|m| m.get(&key).copied());
        let n = shared.unwrap_or_else(|| {
            let n = bands_with_column_sets(s);
            if let Ok(mut m) = shared_band_counts().lock() {
                m.insert(key, n);
            }
            n
        });
        self.local.insert(key, n);
        n
    }
}

/// The 84 three-digit sets.
fn triples() -> &'static [u16] {
    static T: OnceLock<Vec<u16>> = OnceLock::new();
    T.get_or_init(|| (0u16..512).filter(|m| m.count_ones() == 3).collect())
}

// ---------------------------------------------------------------------------------------------
// Fixed grids of an untransposed symmetry: bands joined on column sets.

/// The grids `X` with `X(rows[i], cols[j]) = digits[X(i, j)]` (cell by cell, digits 0..9), for
/// an untransposed symmetry other than the identity.
fn fixed_untransposed(g: &Symmetry, digits: &[u8; 9], counter: &mut BandCounter) -> u128 {
    debug_assert!(!g.transposed && *g != Symmetry::IDENTITY);
    let to = [0, 1, 2].map(|b| (g.rows[3 * b] / 3) as usize);
    // maps[b] takes band b onto band to[b].
    let maps = [0, 1, 2].map(|b| BandMap {
        rows: [0, 1, 2].map(|i| g.rows[3 * b + i] % 3),
        cols: g.cols,
        digits: *digits,
    });
    if to == [0, 1, 2] {
        // Each band fixed by its own map. If one map moves no cell, σ must be the identity (every
        // digit of that band is fixed), and then a map that moves a cell puts one digit twice in
        // a row or column: no grid.
        if maps.iter().any(BandMap::is_positional_identity) {
            return 0;
        }
        // Stop at the first band with no fixed band; bands with the same map share the search.
        let mut fixed: Vec<HashMap<ColumnSets, u64>> = Vec::with_capacity(3);
        for b in 0..3 {
            let f = match (0..b).find(|&a| maps[a] == maps[b]) {
                Some(a) => fixed[a].clone(),
                None => fixed_bands(&maps[b]),
            };
            if f.is_empty() {
                return 0;
            }
            fixed.push(f);
        }
        let mut order = [0, 1, 2];
        order.sort_by_key(|&b| fixed[b].len());
        let (x, y, z) = (&fixed[order[0]], &fixed[order[1]], &fixed[order[2]]);
        if x.is_empty() {
            return 0;
        }
        // Σ over x of n_x(S) · J(S), J(S) = Σ over y of n_y · n_z(rest); both factors are the
        // same on relabellings of S that commute with σ, so J is computed once per orbit.
        let centralizer = Centralizer::new(digits);
        return centralizer
            .orbit_sums(x)
            .iter()
            .map(|(sx, nx)| {
                let mut j = 0u128;
                for (sy, &ny) in y {
                    if (0..9).any(|k| sx[k] & sy[k] != 0) {
                        continue;
                    }
                    let sz: ColumnSets = std::array::from_fn(|k| 0x1FF & !(sx[k] | sy[k]));
                    if let Some(&nz) = z.get(&sz) {
                        j += ny as u128 * nz as u128;
                    }
                }
                nx * j
            })
            .sum();
    }
    if let Some(e) = (0..3).find(|&b| to[b] == b) {
        // Bands a and b exchanged, band e fixed.
        let a = (0..3).find(|&b| b != e).expect("two bands move");
        let b = to[a];
        if maps[e].is_positional_identity() {
            // σ = id (band e's digits are fixed), so band b's column sets are band a's: no grid.
            return 0;
        }
        let fixed_e = fixed_bands(&maps[e]);
        let cycle = maps[b].after(&maps[a]);
        let fixed_a = if cycle.is_identity() {
            None
        } else if cycle.is_positional_identity() {
            return 0;
        } else {
            Some(fixed_bands(&cycle))
        };
        let orbits = column_orbits(&g.cols);
        let mut total = 0u128;
        // As above, the inner sum is the same on relabellings of Se that commute with σ.
        for (se, ne) in Centralizer::new(digits).orbit_sums(&fixed_e) {
            let lacking = se.map(|m| 0x1FF & !m);
            let mut sa = [0u16; 9];
            let mut sum = 0u128;
            exchanged_sets(0, &orbits, &lacking, &maps[a], &mut sa, 0, &mut |sa| {
                sum += match &fixed_a {
                    None => counter.count(sa) as u128,
                    Some(f) => f.get(sa).copied().unwrap_or(0) as u128,
                };
            });
            total += ne * sum;
        }
        return total;
    }
    // The three bands in a cycle: band 0 determines the others.
    let (a, b) = (0, to[0]);
    let e = to[b];
    let cycle = maps[e].after(&maps[b]).after(&maps[a]);
    let fits = |sa: &ColumnSets| {
        let sb = maps[a].image_sets(sa);
        let se = maps[b].image_sets(&sb);
        (0..9).all(|j| sa[j] | sb[j] | se[j] == 0x1FF)
    };
    if cycle.is_identity() {
        let mut total = 0u128;
        cycled_sets(&g.cols, digits, &mut |sa| {
            total += counter.count(sa) as u128
        });
        total
    } else if cycle.is_positional_identity() {
        0
    } else {
        fixed_bands(&cycle)
            .iter()
            .filter(|(s, _)| fits(s))
            .map(|(_, &n)| n as u128)
            .sum()
    }
}

/// The relabellings that commute with a relabelling σ (they map the bands fixed by a map with
/// digits σ onto bands fixed by the same map), as tables on digit sets; `None` when there are
/// too many to be worth it (σ with many fixed digits, whose fixed bands are few).
struct Centralizer {
    tables: Option<Vec<[u16; 512]>>,
    perms: Vec<[u8; 9]>,
}

impl Centralizer {
    fn new(sigma: &[u8; 9]) -> Centralizer {
        // A relabelling τ commutes with σ if and only if τ(σᵏ(a)) = σᵏ(τ(a)): it maps each
        // cycle onto a cycle of the same length, fixed by the image of the cycle's first digit.
        let mut cycles: Vec<Vec<u8>> = Vec::new();
        let mut seen = [false; 9];
        for a in 0..9 {
            if seen[a] {
                continue;
            }
            let mut c = Vec::new();
            let mut d = a;
            while !seen[d] {
                seen[d] = true;
                c.push(d as u8);
                d = sigma[d] as usize;
            }
            cycles.push(c);
        }
        let mut size = 1u64;
        for len in 1..=9 {
            let m = cycles.iter().filter(|c| c.len() == len).count() as u64;
            size *= (len as u64).pow(m as u32) * (1..=m).product::<u64>();
        }
        if size > 5000 {
            return Centralizer {
                tables: None,
                perms: Vec::new(),
            };
        }
        let mut perms = Vec::new();
        fn extend(
            k: usize,
            cycles: &[Vec<u8>],
            sigma: &[u8; 9],
            tau: &mut [u8; 9],
            used: u16,
            out: &mut Vec<[u8; 9]>,
        ) {
            if k == cycles.len() {
                out.push(*tau);
                return;
            }
            for start in 0..9u8 {
                if used >> start & 1 == 1 {
                    continue;
                }
                let mut d = start;
                let mut u = used;
                let mut ok = true;
                for &a in &cycles[k] {
                    if u >> d & 1 == 1 {
                        ok = false;
                        break;
                    }
                    tau[a as usize] = d;
                    u |= 1 << d;
                    d = sigma[d as usize];
                }
                // The target cycle must close with the same length.
                if ok && d == start {
                    extend(k + 1, cycles, sigma, tau, u, out);
                }
            }
        }
        extend(0, &cycles, sigma, &mut [0; 9], 0, &mut perms);
        let tables = perms
            .iter()
            .map(|tau| {
                let mut t = [0u16; 512];
                for (m, e) in t.iter_mut().enumerate() {
                    *e = map_digits(m as u16, tau);
                }
                t
            })
            .collect();
        Centralizer {
            tables: Some(tables),
            perms,
        }
    }

    /// The column sets of `counts` grouped by orbit under the centralizer: one member of each
    /// orbit with the sum of the counts over the orbit.
    fn orbit_sums(&self, counts: &HashMap<ColumnSets, u64>) -> Vec<(ColumnSets, u128)> {
        let Some(tables) = &self.tables else {
            return counts.iter().map(|(s, &n)| (*s, n as u128)).collect();
        };
        let mut sums: HashMap<ColumnSets, u128> = HashMap::new();
        for (s, &n) in counts {
            let least = tables
                .iter()
                .map(|t| s.map(|m| t[m as usize]))
                .min()
                .expect("the identity commutes");
            *sums.entry(least).or_insert(0) += n as u128;
        }
        sums.into_iter().collect()
    }
}

/// The orbits of the columns under `cols`, each from its least column, in order.
fn column_orbits(cols: &[u8; 9]) -> Vec<Vec<usize>> {
    let mut seen = [false; 9];
    let mut orbits = Vec::new();
    for start in 0..9 {
        if seen[start] {
            continue;
        }
        let mut o = Vec::new();
        let mut j = start;
        while !seen[j] {
            seen[j] = true;
            o.push(j);
            j = cols[j] as usize;
        }
        orbits.push(o);
    }
    orbits
}

/// Column sets `sa` of band a (each column 3 of the 6 digits `lacking`) such that `sa` and its
/// image under `map` share out `lacking` (`map(sa)[j] = lacking[j] ∖ sa[j]`): one choice per
/// orbit of columns, since `sa` at column `j` fixes `sa` at `cols[j]` to `lacking ∖ σ(sa[j])`.
/// `set` has a bit for each column already chosen.
fn exchanged_sets(
    k: usize,
    orbits: &[Vec<usize>],
    lacking: &ColumnSets,
    map: &BandMap,
    sa: &mut ColumnSets,
    set: u16,
    visit: &mut dyn FnMut(&ColumnSets),
) {
    if k == orbits.len() {
        visit(sa);
        return;
    }
    let orbit = &orbits[k];
    let head = orbit[0];
    'choice: for &t in triples() {
        if t & !lacking[head] != 0 {
            continue;
        }
        let mut cur = t;
        let mut mask = set;
        for &j in orbit {
            // Each stack's columns hold distinct digits.
            let stack = j / 3 * 3;
            let clash = (stack..stack + 3).any(|i| mask >> i & 1 == 1 && sa[i] & cur != 0);
            if clash {
                continue 'choice;
            }
            sa[j] = cur;
            mask |= 1 << j;
            let image = map_digits(cur, &map.digits);
            let next = map.cols[j] as usize;
            if image & !lacking[next] != 0 {
                continue 'choice;
            }
            cur = lacking[next] & !image;
        }
        // Around the orbit, the head's set must come back.
        if cur != t {
            continue;
        }
        exchanged_sets(k + 1, orbits, lacking, map, sa, mask, visit);
    }
}

/// Column sets `sa` of band 0 for three bands in a cycle whose composite is the identity: `sa`,
/// `g(sa)` and `g²(sa)` share out the digits in every column, where `g(s)[cols[j]] =
/// σ(s[j])`.
fn cycled_sets(cols: &[u8; 9], digits: &[u8; 9], visit: &mut dyn FnMut(&ColumnSets)) {
    let mut inv = [0usize; 9];
    for j in 0..9 {
        inv[cols[j] as usize] = j;
    }
    // Columns in orbit order, so each column's condition is checked as soon as the column, its
    // preimage and the preimage's preimage are set.
    let order: Vec<usize> = column_orbits(cols).concat();
    let mut position = [0usize; 9];
    for (p, &j) in order.iter().enumerate() {
        position[j] = p;
    }
    let checks: Vec<Vec<usize>> = (0..9)
        .map(|p| {
            (0..9)
                .filter(|&j| {
                    let last = position[j].max(position[inv[j]]).max(position[inv[inv[j]]]);
                    last == p
                })
                .collect()
        })
        .collect();
    let sigma2 = digits.map(|d| digits[d as usize]);
    let mut sa = [0u16; 9];
    cycled_from(
        0, &order, &position, &checks, &inv, digits, &sigma2, &mut sa, visit,
    );
}

#[allow(clippy::too_many_arguments)]
fn cycled_from(
    p: usize,
    order: &[usize],
    position: &[usize; 9],
    checks: &[Vec<usize>],
    inv: &[usize; 9],
    sigma: &[u8; 9],
    sigma2: &[u8; 9],
    sa: &mut ColumnSets,
    visit: &mut dyn FnMut(&ColumnSets),
) {
    if p == 9 {
        visit(sa);
        return;
    }
    let j = order[p];
    let stack = j / 3 * 3;
    let mut used = 0u16;
    for i in stack..stack + 3 {
        if i != j && position[i] < p {
            used |= sa[i];
        }
    }
    'choice: for &t in triples() {
        if t & used != 0 {
            continue;
        }
        sa[j] = t;
        for &k in &checks[p] {
            let all = sa[k] | map_digits(sa[inv[k]], sigma) | map_digits(sa[inv[inv[k]]], sigma2);
            if all != 0x1FF {
                continue 'choice;
            }
        }
        cycled_from(
            p + 1,
            order,
            position,
            checks,
            inv,
            sigma,
            sigma2,
            sa,
            visit,
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Fixed grids of the transposition: boxes joined on row and column sets.

/// The ordered partitions of the nine digits into three 3-digit sets (1,680).
fn partitions() -> &'static [[u16; 3]] {
    static P: OnceLock<Vec<[u16; 3]>> = OnceLock::new();
    P.get_or_init(|| {
        let mut v = Vec::with_capacity(1680);
        for &a in triples() {
            for &b in triples() {
                if a & b == 0 {
                    v.push([a, b, 0x1FF & !(a | b)]);
                }
            }
        }
        v
    })
}

/// Whether every set of `r` meets every set of `c` in exactly one digit: then a box has rows `r`
/// and columns `c`, and exactly one.
fn orthogonal(r: &[u16; 3], c: &[u16; 3]) -> bool {
    r.iter()
        .all(|&x| c.iter().all(|&y| (x & y).count_ones() == 1))
}

/// The grids `X` with `Xᵀ = σ(X)` (transposition, then relabelling by `digits`).
///
/// Such a grid is fixed by its boxes on and above the diagonal: boxes 1, 5 and 9 are
/// σ-symmetric (`D[j][i] = σ(D[i][j])`), box `(J, I)` is `σ` of box `(I, J)` transposed, and the
/// grid is valid if and only if every row is (a column `j` holds `σ⁻¹` of row `j`). With `P`, `Q`,
/// `S` the boxes 2, 3, 6 and `R`/`C` a box's row/column sets, the rows ask:
///
/// ```text
/// band 1:  D₀.R ⊔ P.R ⊔ Q.R = all      band 2:  σP.C ⊔ D₁.R ⊔ S.R = all
/// band 3:  σQ.C ⊔ σS.C ⊔ D₂.R = all    (row by row)
/// ```
///
/// A box is one orthogonal pair of ordered partitions (its row sets and column sets), so for
/// each first band the boxes `S`, `D₁`, `D₂` are counted by pairs of row-set partitions of
/// σ-symmetric boxes (`Z₁` for `D₁`, `Z₂` for `D₂`) whose implied `S.R` and `S.C` are
/// orthogonal. `D₀` is taken once per orbit of the relabellings that commute with σ.
fn fixed_by_transposition(digits: &[u8; 9]) -> u128 {
    // X = (Xᵀ)ᵀ = σ²(X): σ must be an involution.
    if digits
        .iter()
        .enumerate()
        .any(|(d, &e)| digits[e as usize] as usize != d)
    {
        return 0;
    }
    // σ-symmetric boxes, counted by their row sets.
    let mut symmetric: Vec<[u8; 9]> = Vec::new();
    let mut boxes = [0u8; 9];
    symmetric_boxes(0, 0, digits, &mut boxes, &mut symmetric);
    if symmetric.is_empty() {
        return 0;
    }
    let row_sets = |b: &[u8; 9]| -> [u16; 3] {
        [0, 1, 2].map(|r| (0..3).fold(0u16, |m, k| m | 1 << b[3 * r + k]))
    };
    let mut by_rows: HashMap<[u16; 3], u64> = HashMap::new();
    for b in &symmetric {
        *by_rows.entry(row_sets(b)).or_insert(0) += 1;
    }
    let mut inverse = [0u8; 9];
    for (d, &e) in digits.iter().enumerate() {
        inverse[e as usize] = d as u8;
    }
    let parts = partitions();
    let index: HashMap<[u16; 3], usize> = parts.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let orthogonals: Vec<Vec<usize>> = parts
        .iter()
        .map(|r| {
            (0..parts.len())
                .filter(|&i| orthogonal(r, &parts[i]))
                .collect()
        })
        .collect();
    // For a column partition Y of P: the row sets S.R = all ∖ (σY ∪ Z₁) with weight d(Z₁).
    // For a column partition Y of Q: the column sets S.C = σ⁻¹(all ∖ (σY ∪ Z₂)) with d(Z₂).
    let mut from_p: Vec<Vec<([u16; 3], u64)>> = Vec::with_capacity(parts.len());
    let mut from_q: Vec<Vec<([u16; 3], u64)>> = Vec::with_capacity(parts.len());
    for y in parts {
        let sy = y.map(|m| map_digits(m, digits));
        let (mut p, mut q) = (Vec::new(), Vec::new());
        for (z, &w) in &by_rows {
            if (0..3).all(|r| z[r] & sy[r] == 0) {
                let rest = [0, 1, 2].map(|r| 0x1FF & !(z[r] | sy[r]));
                p.push((rest, w));
                q.push((rest.map(|m| map_digits(m, &inverse)), w));
            }
        }
        from_p.push(p);
        from_q.push(q);
    }
    // D₀ by orbits of the centralizer (it maps fixed grids to fixed grids).
    let centralizer = Centralizer::new(digits);
    let mut orbits: HashMap<[u8; 9], u128> = HashMap::new();
    for b in &symmetric {
        let least = if centralizer.perms.is_empty() {
            *b
        } else {
            centralizer
                .perms
                .iter()
                .map(|t| b.map(|d| t[d as usize]))
                .min()
                .expect("identity")
        };
        *orbits.entry(least).or_insert(0) += 1;
    }
    let mut total = 0u128;
    for (d0, size) in orbits {
        let d0_rows = row_sets(&d0);
        // In parallel over the row sets of box 2 (56 fit): this class is the longest.
        let sum: u128 = parts
            .par_iter()
            .filter(|p_rows| (0..3).all(|r| p_rows[r] & d0_rows[r] == 0))
            .map(|p_rows| {
                let q_rows = [0, 1, 2].map(|r| 0x1FF & !(p_rows[r] | d0_rows[r]));
                let (pi, qi) = (index[p_rows], index[&q_rows]);
                let mut sum = 0u128;
                for &pc in &orthogonals[pi] {
                    for &qc in &orthogonals[qi] {
                        for (s_rows, w1) in &from_p[pc] {
                            for (s_cols, w2) in &from_q[qc] {
                                if orthogonal(s_rows, s_cols) {
                                    sum += (*w1 * *w2) as u128;
                                }
                            }
                        }
                    }
                }
                sum
            })
            .sum();
        total += size * sum;
    }
    total
}

/// The boxes `D` (digits row by row) with `D[j][i] = σ(D[i][j])`, cell by cell from `cell`.
fn symmetric_boxes(
    cell: usize,
    used: u16,
    digits: &[u8; 9],
    b: &mut [u8; 9],
    out: &mut Vec<[u8; 9]>,
) {
    if cell == 9 {
        out.push(*b);
        return;
    }
    let (i, j) = (cell / 3, cell % 3);
    if j < i {
        // Below the diagonal: the image of the cell above.
        let d = digits[b[3 * j + i] as usize];
        if used >> d & 1 == 0 {
            b[cell] = d;
            symmetric_boxes(cell + 1, used | 1 << d, digits, b, out);
        }
        return;
    }
    for d in 0..9u8 {
        if used >> d & 1 == 1 || (i == j && digits[d as usize] != d) {
            continue;
        }
        b[cell] = d;
        symmetric_boxes(cell + 1, used | 1 << d, digits, b, out);
    }
}

// ---------------------------------------------------------------------------------------------
// Fixed grids of any symmetry: depth-first search over grids starting 123456789.

/// The state of the search: the grid (0..9, or 9 for empty), the digits used per house, and the
/// relabelling as far as it is known (`9` for unknown) with its inverse.
#[derive(Clone, Copy)]
struct Search {
    grid: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    sigma: [u8; 9],
    inverse: [u8; 9],
    filled: u8,
}

/// The symmetry as a cell map and its inverse.
struct CellMaps {
    next: [u8; 81],
    prev: [u8; 81],
}

const EMPTY: u8 = 9;

impl Search {
    /// Puts `d` in `cell` and everything it implies; false on a contradiction.
    fn place(&mut self, cell: usize, d: u8, maps: &CellMaps) -> bool {
        let mut queue = [0u8; 256];
        let (mut head, mut tail) = (0usize, 0usize);
        if !self.set(cell, d) {
            return false;
        }
        queue[tail] = cell as u8;
        tail += 1;
        while head < tail {
            let c = queue[head] as usize;
            head += 1;
            let u = self.grid[c];
            // The image of c holds σ(u); the preimage of c holds σ⁻¹(u).
            for forward in [true, false] {
                let target = if forward { maps.next[c] } else { maps.prev[c] } as usize;
                // Read afresh: the first direction may have taught the relabelling something.
                let known = if forward {
                    self.sigma[u as usize]
                } else {
                    self.inverse[u as usize]
                };
                let there = self.grid[target];
                if known != EMPTY {
                    if there == EMPTY {
                        if !self.set(target, known) {
                            return false;
                        }
                        queue[tail] = target as u8;
                        tail += 1;
                    } else if there != known {
                        return false;
                    }
                } else if there != EMPTY {
                    let (from, to) = if forward { (u, there) } else { (there, u) };
                    if self.sigma[from as usize] != EMPTY || self.inverse[to as usize] != EMPTY {
                        return false;
                    }
                    self.sigma[from as usize] = to;
                    self.inverse[to as usize] = from;
                    // Every cell holding `from` or `to` has a new consequence. The queue holds
                    // every cell once when it is set (81) and at most 18 more per learnt pair of
                    // the relabelling (9 pairs): 243 entries at most.
                    for x in 0..81 {
                        let v = self.grid[x];
                        if v == from || v == to {
                            queue[tail] = x as u8;
                            tail += 1;
                        }
                    }
                }
            }
        }
        true
    }

    /// Writes `d` in the empty `cell` if no house has it yet.
    fn set(&mut self, cell: usize, d: u8) -> bool {
        let (r, c) = (cell / 9, cell % 9);
        let b = r / 3 * 3 + c / 3;
        let bit = 1u16 << d;
        if (self.rows[r] | self.cols[c] | self.boxes[b]) & bit != 0 {
            return false;
        }
        self.rows[r] |= bit;
        self.cols[c] |= bit;
        self.boxes[b] |= bit;
        self.grid[cell] = d;
        self.filled += 1;
        true
    }

    /// The empty cell with the fewest candidates and its candidates.
    fn choose(&self) -> (usize, u16) {
        let mut best = (0, 0u16, 10u32);
        for cell in 0..81 {
            if self.grid[cell] != EMPTY {
                continue;
            }
            let (r, c) = (cell / 9, cell % 9);
            let free = 0x1FF & !(self.rows[r] | self.cols[c] | self.boxes[r / 3 * 3 + c / 3]);
            let n = free.count_ones();
            if n < best.2 {
                best = (cell, free, n);
                if n <= 1 {
                    break;
                }
            }
        }
        (best.0, best.1)
    }
}

/// The number of grids fixed by `g` up to relabelling whose first row is `123456789`: `F(g) /
/// 9!`, by depth-first search. Parallel over the branches of the first few choices.
///
/// # Complexity
/// Proportional to the number of such grids times a search step of a few microseconds, plus the
/// dead ends: milliseconds for the transposed classes but the transposition itself (30,258,432
/// grids, four minutes), far longer for some untransposed classes (449,445,888 grids).
pub fn fixed_normalized_by_search(g: &Symmetry) -> u64 {
    let next = g.cell_map();
    let mut prev = [0u8; 81];
    for (c, &n) in next.iter().enumerate() {
        prev[n as usize] = c as u8;
    }
    let maps = CellMaps { next, prev };
    let mut s = Search {
        grid: [EMPTY; 81],
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
        sigma: [EMPTY; 9],
        inverse: [EMPTY; 9],
        filled: 0,
    };
    for j in 0..9 {
        if s.grid[j] == EMPTY {
            if !s.place(j, j as u8, &maps) {
                return 0;
            }
        } else if s.grid[j] != j as u8 {
            return 0;
        }
    }
    // Split into subproblems a few levels down, then search them in parallel.
    let mut frontier = vec![s];
    let mut leaves = 0u64;
    while !frontier.is_empty() && frontier.len() < 256 {
        let mut next_frontier = Vec::new();
        for s in frontier {
            if s.filled == 81 {
                leaves += 1;
                continue;
            }
            let (cell, free) = s.choose();
            for d in 0..9u8 {
                if free >> d & 1 == 1 {
                    let mut t = s;
                    if t.place(cell, d, &maps) {
                        next_frontier.push(t);
                    }
                }
            }
        }
        frontier = next_frontier;
    }
    leaves
        + frontier
            .par_iter()
            .map(|s| search_count(s, &maps))
            .sum::<u64>()
}

fn search_count(s: &Search, maps: &CellMaps) -> u64 {
    if s.filled == 81 {
        return 1;
    }
    let (cell, free) = s.choose();
    let mut n = 0;
    for d in 0..9u8 {
        if free >> d & 1 == 1 {
            let mut t = *s;
            if t.place(cell, d, maps) {
                n += search_count(&t, maps);
            }
        }
    }
    n
}

// ---------------------------------------------------------------------------------------------
// Putting it together.

/// `F(g)`: the number of grids `X` such that `g(X)` is a relabelling of `X` (the sum over the 9!
/// relabellings `σ` of the grids with `g(X) = σ(X)`). Always a multiple of 9!.
///
/// The identity is not computed here (it fixes every grid: [`crate::count::census`] counts them).
/// Untransposed symmetries are counted by bands, and the transposition by boxes, for each of the
/// 30 cycle types of `σ` (the count depends only on the type); the other transposed ones by
/// [`fixed_normalized_by_search`].
///
/// # Panics
/// If `g` is the identity.
///
/// # Complexity
/// At most a few seconds a class on one core (most classes fail in milliseconds; the slowest
/// are the transposition and the classes whose fixed bands are joined by the thousands); see
/// docs/ALGORITHM.md.
pub fn fixed_grids(g: &Symmetry) -> u128 {
    assert!(
        *g != Symmetry::IDENTITY,
        "the identity fixes every grid: use count::census"
    );
    if g.transposed {
        if g.rows == Symmetry::IDENTITY.rows && g.cols == Symmetry::IDENTITY.cols {
            return cycle_types()
                .iter()
                .map(|(sigma, n)| n * fixed_by_transposition(sigma))
                .sum();
        }
        return fixed_normalized_by_search(g) as u128 * RELABELLINGS;
    }
    let mut counter = BandCounter::new();
    cycle_types()
        .iter()
        .map(|(sigma, n)| n * fixed_untransposed(g, sigma, &mut counter))
        .sum()
}

/// One conjugacy class of the positional group with its fixed grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassCount {
    /// The class: a representative and its size.
    pub class: SymmetryClass,
    /// `F(g)` for `g` in the class: the grids `X` with `g(X)` a relabelling of `X`.
    pub fixed: u128,
}

impl ClassCount {
    /// `F(g) / 9!`: the fixed grids whose first row is `123456789` (the "invariants" column of
    /// Russell and Jarvis's table).
    pub fn invariants(&self) -> u128 {
        self.fixed / RELABELLINGS
    }
}

/// The result of [`essentially_different`].
#[derive(Clone, Debug)]
pub struct EssentialCount {
    /// The 275 conjugacy classes in the order of [`symmetry_classes`], each with `F(g)`.
    pub classes: Vec<ClassCount>,
    /// The number of complete grids (`F` of the identity).
    pub grids: u128,
    /// The number of essentially different grids: `Σ size · F / (|G| · 9!)`.
    pub essentially_different: u128,
}

/// Computes the number of essentially different grids by Burnside's lemma: the 275 conjugacy
/// classes, `F` of the identity by [`census`], `F` of the others by [`fixed_grids`] (in parallel
/// on rayon's pool). `progress(done, of)` is called after each class.
///
/// # Panics
/// If the sum is not a multiple of `|G| · 9!` (a bug).
///
/// # Examples
/// ```no_run
/// use shudu_core::essential::{essentially_different, ESSENTIALLY_DIFFERENT};
/// let count = essentially_different(&|done, of| eprint!("\r{done}/{of}"));
/// assert_eq!(count.essentially_different, ESSENTIALLY_DIFFERENT);
/// assert_eq!(count.classes.iter().filter(|c| c.fixed != 0).count(), 27);
/// ```
///
/// # Complexity
/// The census (a few seconds) and 274 fixed-grid counts sharing the band counts: about 11 s of
/// CPU in a release build, on two threads (docs/ALGORITHM.md, BENCHMARKS.md).
pub fn essentially_different(progress: &(dyn Fn(usize, usize) + Sync)) -> EssentialCount {
    essentially_different_given_grids(census(&|_, _| {}).grids, progress)
}

/// [`essentially_different`] for a caller that has already run [`census`]: `grids` is its
/// number of complete grids (`F` of the identity), which is not computed again.
///
/// # Panics
/// If the Burnside sum is not a multiple of `|G| · 9!`: a bug, or a `grids` that is not the
/// number of complete grids (a wrong `grids` that happens to keep the sum a multiple gives a
/// wrong count: pass [`census`]'s, not a guess).
///
/// # Complexity
/// As [`essentially_different`] less the census.
pub fn essentially_different_given_grids(
    grids: u128,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> EssentialCount {
    let classes = symmetry_classes();
    let of = classes.len();
    let done = AtomicUsize::new(0);
    let tick = || progress(done.fetch_add(1, Ordering::Relaxed) + 1, of);
    tick();
    let mut counts: Vec<ClassCount> = classes[1..]
        .par_iter()
        .map(|class| {
            let fixed = fixed_grids(&class.representative);
            tick();
            ClassCount {
                class: *class,
                fixed,
            }
        })
        .collect();
    counts.insert(
        0,
        ClassCount {
            class: classes[0],
            fixed: grids,
        },
    );
    let sum: u128 = counts.iter().map(|c| c.class.size as u128 * c.fixed).sum();
    let divisor = GROUP_ORDER as u128 * RELABELLINGS;
    assert_eq!(
        sum % divisor,
        0,
        "Burnside's sum is not a multiple of |G| · 9!"
    );
    EssentialCount {
        classes: counts,
        grids,
        essentially_different: sum / divisor,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Russell and Jarvis's table: (class size, F / 9!) for the 27 classes with fixed grids.
    const RUSSELL_JARVIS: [(u64, u128); 27] = [
        (1, 18_383_222_420_692_992),
        (96, 21_233_664),
        (16, 107_495_424),
        (192, 4_204_224),
        (64, 2_508_084),
        (5184, 323_928),
        (20736, 162),
        (20736, 288),
        (144, 14_837_760),
        (1728, 2_592),
        (288, 5_184),
        (864, 2_085_120),
        (3456, 1_296),
        (1728, 294_912),
        (2304, 648),
        (1152, 6_342_480),
        (1296, 30_258_432),
        (10368, 1_854),
        (93312, 288),
        (2916, 155_492_352),
        (69984, 13_056),
        (972, 449_445_888),
        (3888, 27_648),
        (31104, 6_480),
        (15552, 1_728),
        (15552, 3_456),
        (7776, 13_824),
    ];

    #[test]
    fn the_positional_group_has_275_conjugacy_classes() {
        let classes = symmetry_classes();
        assert_eq!(classes.len(), 275);
        assert_eq!(classes.iter().map(|c| c.size).sum::<u64>(), GROUP_ORDER);
        assert_eq!(
            classes
                .iter()
                .filter(|c| !c.representative.transposed)
                .count(),
            253
        );
        assert_eq!(
            classes[0],
            SymmetryClass {
                representative: Symmetry::IDENTITY,
                size: 1
            }
        );
        assert!(classes.iter().all(|c| GROUP_ORDER.is_multiple_of(c.size)));
    }

    #[test]
    fn essentially_different_grids_number_5_472_730_538() {
        let count = essentially_different(&|_, _| {});
        assert_eq!(count.essentially_different, ESSENTIALLY_DIFFERENT);
        assert_eq!(count.grids, crate::count::GRIDS);
        let mut found: Vec<(u64, u128)> = count
            .classes
            .iter()
            .filter(|c| c.fixed != 0)
            .map(|c| (c.class.size, c.invariants()))
            .collect();
        let mut table = RUSSELL_JARVIS.to_vec();
        found.sort();
        table.sort();
        assert_eq!(found, table);
        assert!(count.classes.iter().all(|c| c.fixed % RELABELLINGS == 0));
    }

    #[test]
    fn relabellings_come_in_30_cycle_types() {
        let types = cycle_types();
        assert_eq!(types.len(), 30);
        assert_eq!(types.iter().map(|t| t.1).sum::<u128>(), RELABELLINGS);
        // Three 3-cycles: 9! / (3³ · 3!).
        assert!(types.contains(&([1, 2, 0, 4, 5, 3, 7, 8, 6], 2240)));
    }

    #[test]
    fn centralizers_have_the_sizes_of_the_formula() {
        // σ of type 2³1³ commutes with 2³ · 3! · 3! relabellings.
        let c = Centralizer::new(&[1, 0, 3, 2, 5, 4, 6, 7, 8]);
        assert_eq!(c.perms.len(), 288);
        let sigma = [1u8, 0, 3, 2, 5, 4, 6, 7, 8];
        assert!(c
            .perms
            .iter()
            .all(|t| (0..9).all(|d| t[sigma[d] as usize] == sigma[t[d] as usize])));
    }

    /// Calls `visit` with every band whose first row is 0, 1, …, 8 (2,612,736 of them).
    fn for_each_normalized_band(visit: &mut dyn FnMut(&[u8; 27])) {
        fn fill(
            cell: usize,
            band: &mut [u8; 27],
            rows: [u16; 3],
            boxes: [u16; 3],
            visit: &mut dyn FnMut(&[u8; 27]),
        ) {
            if cell == 27 {
                visit(band);
                return;
            }
            let (r, b) = (cell / 9, cell % 9 / 3);
            for d in 0..9u8 {
                let bit = 1u16 << d;
                if (rows[r] | boxes[b]) & bit == 0 {
                    band[cell] = d;
                    let (mut rr, mut bb) = (rows, boxes);
                    rr[r] |= bit;
                    bb[b] |= bit;
                    fill(cell + 1, band, rr, bb, visit);
                }
            }
        }
        let mut band = [0u8; 27];
        let mut boxes = [0u16; 3];
        for j in 0..9 {
            band[j] = j as u8;
            boxes[j / 3] |= 1 << j;
        }
        fill(9, &mut band, [0x1FF, 0, 0], boxes, visit);
    }

    #[test]
    fn fixed_bands_match_brute_force() {
        // For each positional band map, the bands it maps to a relabelling of themselves: by
        // cycle type from the search, and by trying every band with a normalised first row
        // (each class of relabellings has one, and 9! members).
        let id = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let maps: [([u8; 3], [u8; 9]); 6] = [
            ([1, 2, 0], id),
            ([0, 1, 2], [1, 2, 0, 4, 5, 3, 7, 8, 6]),
            ([0, 2, 1], [0, 1, 2, 6, 7, 8, 3, 4, 5]),
            ([1, 0, 2], [1, 0, 2, 4, 3, 5, 7, 6, 8]),
            ([0, 1, 2], [3, 4, 5, 6, 7, 8, 0, 1, 2]),
            ([2, 0, 1], [4, 5, 3, 7, 8, 6, 1, 2, 0]),
        ];
        let mut brute = [0u128; 6];
        let mut total = 0u64;
        for_each_normalized_band(&mut |band| {
            total += 1;
            for (k, (rows, cols)) in maps.iter().enumerate() {
                let mut sigma = [EMPTY; 9];
                let fits = (0..27).all(|cell| {
                    let image = 9 * rows[cell / 9] as usize + cols[cell % 9] as usize;
                    let (from, to) = (band[cell] as usize, band[image]);
                    let ok = sigma[from] == EMPTY || sigma[from] == to;
                    sigma[from] = to;
                    ok
                });
                brute[k] += fits as u128;
            }
        });
        assert_eq!(total, 2_612_736);
        for (k, &(rows, cols)) in maps.iter().enumerate() {
            let by_type: u128 = cycle_types()
                .iter()
                .map(|(digits, n)| {
                    let f = fixed_bands(&BandMap {
                        rows,
                        cols,
                        digits: *digits,
                    });
                    n * f.values().map(|&c| c as u128).sum::<u128>()
                })
                .sum();
            assert_eq!(by_type, brute[k] * RELABELLINGS, "map {k}");
        }
        // Swapping two rows and a column in each stack fixes no band up to relabelling.
        assert_eq!(brute, [288, 1458, 4320, 0, 288, 198]);
    }

    #[test]
    fn bands_and_search_agree_on_small_classes() {
        // Two independent computations of F: joined bands and the cell-by-cell search.
        let classes = symmetry_classes();
        let mut nonzero = 0;
        for k in [1, 21, 22, 62, 116, 129, 174] {
            let g = classes[k].representative;
            assert!(!g.transposed);
            let search = fixed_normalized_by_search(&g) as u128 * RELABELLINGS;
            assert_eq!(fixed_grids(&g), search, "{g}");
            nonzero += (search != 0) as usize;
        }
        assert_eq!(nonzero, 5);
    }

    #[test]
    #[ignore = "four minutes: the search visits 30 million grids"]
    fn transposition_by_boxes_matches_search() {
        let tau = Symmetry {
            transposed: true,
            ..Symmetry::IDENTITY
        };
        assert_eq!(
            fixed_grids(&tau),
            fixed_normalized_by_search(&tau) as u128 * RELABELLINGS
        );
    }
}
