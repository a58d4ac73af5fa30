//! A puzzle against its solution: whether removing givens keeps it unique (and the other
//! solution when it does not), minimality, and the small helpers of the digging.

use super::*;

/// Whether removing the givens `cells` from `p` (proper, with solution `g`) keeps it proper: one
/// first-solution search per cell, with that cell's solution digit forbidden (see the module
/// docs).
pub(super) fn still_unique(p: &Puzzle, cells: CellSet, g: &Grid) -> bool {
    other_solution(p, cells, g).is_none()
}

/// A solution other than `g` of `p` without the givens `cells`, if there is one (the same
/// searches as [`still_unique`], keeping what the failing one found).
///
/// Such a solution differs from `g` in a first cell of `cells`; the search for cell `c` forbids
/// `g[c]` there and places `g`'s digits in the cells before it, which the earlier searches
/// found no other solution for (fewer candidates: 0.8% fewer instructions in rot180 minimal
/// generation).
pub(super) fn other_solution(p: &Puzzle, cells: CellSet, g: &Grid) -> Option<Grid> {
    other_solution_in(Solver::new(&without(p, cells)), cells, g, None)
}

/// [`other_solution`] from `base`, the puzzle without `cells` already loaded.
///
/// With `near` (made from `g`), the searches try first, at each guess, the branch that agrees
/// with `g`: they find first the other solutions closest to `g`, whose small sets of differences
/// rule out more later checks, and they find them sooner (11% fewer instructions in the
/// searches of rot180 minimal generation than trying digits in increasing order).
pub(super) fn other_solution_in(
    mut base: Solver,
    cells: CellSet,
    g: &Grid,
    near: Option<(&Near, bool)>,
) -> Option<Grid> {
    for c in cells.iter() {
        // A single straight from the givens: no other solution differs from `g` here.
        if base.forced(c, g.get(c)) {
            base.place(c, g.get(c));
            continue;
        }
        let mut s = base;
        s.forbid(c, g.get(c));
        let found = match near {
            Some((near, light)) => s.first_near(near, light),
            None => s.count(1).solution,
        };
        if let Some(h) = found {
            return Some(h);
        }
        base.place(c, g.get(c));
    }
    None
}

/// The solution grid of the puzzles being dug, with, if asked, its branches for the searches
/// (see [`other_solution_in`]), made once a grid. It reads as the grid itself.
pub(super) struct SolutionGrid {
    pub(super) grid: Grid,
    /// Made only for the digs that learn unavoidable sets: plain digs keep no sets, and there
    /// the search near the grid does not pay (1.5% more instructions for plain minimal puzzles).
    pub(super) near: Option<Near>,
    /// Whether the grid has a half-turn automorphism ([`half_turn_grid`]): then the half turn
    /// of each unavoidable set learned is one too.
    pub(super) half_turn: bool,
    /// Whether the searches near the grid propagate lightly from the root (see
    /// [`Solver::first_near`]): set for strictly minimal symmetric puzzles only, so that the
    /// local search for few givens gives the same puzzles as before.
    pub(super) light: bool,
}

impl SolutionGrid {
    pub(super) fn new(grid: Grid, near: bool) -> SolutionGrid {
        SolutionGrid {
            near: near.then(|| Near::new(&grid)),
            half_turn: false,
            light: false,
            grid,
        }
    }

    /// [`other_solution_in`] for this grid.
    pub(super) fn other_solution_in(&self, base: Solver, cells: CellSet) -> Option<Grid> {
        other_solution_in(
            base,
            cells,
            &self.grid,
            self.near.as_ref().map(|n| (n, self.light)),
        )
    }

    /// The test of a pair orbit `{a, b}` (`a` its first cell) in the digs of strictly minimal
    /// symmetric puzzles: a solution other than the grid of the puzzle without the orbit
    /// (`base`, loaded), if there is one, and whether `a` can be removed alone.
    ///
    /// Two searches at most, as [`other_solution_in`] makes, but the first asks whether `a` is
    /// necessary: it searches the puzzle without `a` alone (`b` still given), `a`'s digit
    /// forbidden. A solution found there solves the puzzle without the orbit too (the orbit
    /// stays), and it differs from the grid in `a` alone among the givens: the set learned is
    /// a *witness* that `a` is necessary, which the repair's checks of single givens then find
    /// among the known sets instead of searching for one. When there is none, `a` can be removed
    /// alone, and every other solution of the puzzle without the orbit differs from the grid in
    /// `b` (one that agreed there would solve the puzzle without `a` alone, or be the grid): the
    /// second search forbids `b`'s digit only. [`other_solution_in`]'s first search forbade
    /// `a`'s digit in the puzzle without the whole orbit, whose solutions often differ in `b`
    /// too: its set was then a witness for neither cell (2,967 of the 6,237 sets the pair
    /// orbits taught in `generate -n 200 --minimal --symmetry rot180 --seed 1`), and a check
    /// had to search again. 5.3% fewer instructions over seeds 1-40 of that command
    /// (docs/generate.md, "What the walk and its searches do to stay cheap").
    pub(super) fn pair_test(&self, base: Solver, cells: CellSet) -> Option<(Grid, bool)> {
        let mut it = cells.iter();
        let (a, b) = match (it.next(), it.next(), it.next()) {
            (Some(a), Some(b), None) => (a, b),
            _ => panic!("a pair orbit has two cells: {cells:?}"),
        };
        let mut with_b = base;
        with_b.place(b, self.get(b));
        if let Some(h) = self.other_solution_in(with_b, CellSet::single(a)) {
            return Some((h, false));
        }
        self.other_solution_in(base, CellSet::single(b))
            .map(|h| (h, true))
    }
}

impl std::ops::Deref for SolutionGrid {
    type Target = Grid;
    fn deref(&self) -> &Grid {
        &self.grid
    }
}

/// The cells where two grids differ: an unavoidable set of each.
pub(super) fn difference(a: &Grid, b: &Grid) -> CellSet {
    differing_cells(a.as_bytes(), b.as_bytes())
}

/// The cells whose bytes in `a` and `b` differ, eight cells at a time: a word of eight bytes
/// XORed, the high bit of each byte set when the byte is not zero, and the eight high bits
/// gathered into a byte by one multiplication (the bit of byte `k`, moved to bit `8k`, times
/// `2^(7(7 - k))` lands on bit `49 + k`, and no two products meet). The 16-cell blocks of a
/// compare each, which the compiler did not turn into vector compares, took about 400
/// instructions a grid; this about 100 (docs/generate.md, "What the walk and its searches do to stay cheap").
#[inline(always)]
pub(super) fn differing_cells(a: &[u8; 81], b: &[u8; 81]) -> CellSet {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const ONES: u64 = 0x0101_0101_0101_0101;
    const GATHER: u64 = 0x0002_0408_1020_4081;
    let word = |s: &[u8; 81], w: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&s[8 * w..8 * w + 8]);
        u64::from_le_bytes(b)
    };
    let mut bits = 0u128;
    for w in 0..10 {
        let x = word(a, w) ^ word(b, w);
        let high = (((x & LOW7) + LOW7) | x) >> 7 & ONES;
        bits |= u128::from(high.wrapping_mul(GATHER) >> 49 & 0xFF) << (8 * w);
    }
    CellSet::from_bits(bits | u128::from(a[80] != b[80]) << 80)
}

/// The givens of `p` as a set: [`Puzzle::filled`] without a branch a cell (the repair asks for
/// it a few times a move; the iterator was 3% of the instructions of rot180 minimal generation).
pub(super) fn givens_of(p: &Puzzle) -> CellSet {
    differing_cells(p.as_bytes(), &[0; 81])
}

/// `p` with the cells `cells` emptied.
pub(crate) fn without(p: &Puzzle, cells: CellSet) -> Puzzle {
    let mut q = *p;
    for c in cells.iter() {
        q.set(c, None);
    }
    q
}

/// `p` with the cells `cells` filled from `g`.
pub(crate) fn with(p: &Puzzle, cells: CellSet, g: &Grid) -> Puzzle {
    let mut q = *p;
    for c in cells.iter() {
        q.set(c, Some(g.get(c)));
    }
    q
}

/// Whether no single given of `p` (proper, with solution `g`) can be removed.
pub fn is_minimal(p: &Puzzle, g: &Grid) -> bool {
    p.filled()
        .iter()
        .all(|c| !still_unique(p, CellSet::single(c), g))
}

/// A uniform integer below `n` (Lemire's multiply-shift; the bias below `n / 2^32` is harmless).
pub(super) fn below<R: RngCore>(rng: &mut R, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

pub(super) fn shuffle<T, R: RngCore>(v: &mut [T], rng: &mut R) {
    for i in (1..v.len()).rev() {
        let j = below(rng, i + 1);
        v.swap(i, j);
    }
}
