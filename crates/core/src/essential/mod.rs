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

mod bands;
mod search;
#[cfg(test)]
mod tests;
mod transposed;
mod untransposed;

use bands::*;
pub use search::fixed_normalized_by_search;
use transposed::*;
use untransposed::*;

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
