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

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rand::RngCore;
use rayon::prelude::*;

use crate::bitset::{Cell, CellSet};
use crate::grid::{Grid, Puzzle};
use crate::grids::{random_grid, rng_for};
use crate::logic::{rate, Band};
use crate::solver::{Near, Solver};

/// A map of (row, column) to (row, column).
type CellMap = fn(usize, usize) -> (usize, usize);

/// A symmetry of the givens' pattern: a cell is a given if and only if its whole orbit is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Symmetry {
    /// No constraint.
    #[default]
    None,
    /// Half-turn rotation about the centre (the classic newspaper symmetry).
    Rot180,
    /// Quarter-turn rotation: orbits of four cells plus the centre.
    Rot90,
    /// Mirror across the horizontal middle line (row r ↔ row 8 - r).
    MirrorH,
    /// Mirror across the vertical middle line (column c ↔ column 8 - c).
    MirrorV,
    /// Both mirrors.
    MirrorBoth,
    /// Mirror across the main diagonal (r, c) ↔ (c, r).
    Diagonal,
    /// Mirror across the anti-diagonal (r, c) ↔ (8 - c, 8 - r).
    AntiDiagonal,
    /// Both diagonal mirrors.
    BothDiagonals,
    /// All eight symmetries of the square.
    Dihedral,
}

impl Symmetry {
    /// Every symmetry, in the order of [`Symmetry::name`]'s list.
    pub const ALL: [Symmetry; 10] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::MirrorH,
        Symmetry::MirrorV,
        Symmetry::MirrorBoth,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
        Symmetry::BothDiagonals,
        Symmetry::Dihedral,
    ];

    /// The name used on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::MirrorH => "mirror-h",
            Symmetry::MirrorV => "mirror-v",
            Symmetry::MirrorBoth => "mirror-both",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "anti-diagonal",
            Symmetry::BothDiagonals => "both-diagonals",
            Symmetry::Dihedral => "dihedral",
        }
    }

    /// The maps (r, c) → (r', c') that generate the symmetry group.
    fn generators(self) -> &'static [CellMap] {
        const ROT180: CellMap = |r, c| (8 - r, 8 - c);
        const ROT90: CellMap = |r, c| (c, 8 - r);
        const MIRROR_H: CellMap = |r, c| (8 - r, c);
        const MIRROR_V: CellMap = |r, c| (r, 8 - c);
        const DIAG: CellMap = |r, c| (c, r);
        const ANTI: CellMap = |r, c| (8 - c, 8 - r);
        match self {
            Symmetry::None => &[],
            Symmetry::Rot180 => &[ROT180],
            Symmetry::Rot90 => &[ROT90],
            Symmetry::MirrorH => &[MIRROR_H],
            Symmetry::MirrorV => &[MIRROR_V],
            Symmetry::MirrorBoth => &[MIRROR_H, MIRROR_V],
            Symmetry::Diagonal => &[DIAG],
            Symmetry::AntiDiagonal => &[ANTI],
            Symmetry::BothDiagonals => &[DIAG, ANTI],
            Symmetry::Dihedral => &[ROT90, DIAG],
        }
    }

    /// The orbits: a partition of the 81 cells into the sets the symmetry maps onto each other.
    pub fn orbits(self) -> Vec<CellSet> {
        self.orbit_table().to_vec()
    }

    /// The orbits, computed once per symmetry (every attempt of the generator needs them).
    fn orbit_table(self) -> &'static [CellSet] {
        static TABLES: OnceLock<Vec<Vec<CellSet>>> = OnceLock::new();
        let tables =
            TABLES.get_or_init(|| Symmetry::ALL.iter().map(|s| s.compute_orbits()).collect());
        let k = Symmetry::ALL
            .iter()
            .position(|&s| s == self)
            .expect("ALL lists every symmetry");
        &tables[k]
    }

    fn compute_orbits(self) -> Vec<CellSet> {
        let mut seen = CellSet::EMPTY;
        let mut orbits = Vec::new();
        for start in Cell::all() {
            if seen.contains(start) {
                continue;
            }
            let mut orbit = CellSet::single(start);
            let mut frontier = vec![start];
            while let Some(c) = frontier.pop() {
                for g in self.generators() {
                    let (r, col) = g(c.row(), c.col());
                    let next = Cell::at(r, col);
                    if !orbit.contains(next) {
                        orbit.insert(next);
                        frontier.push(next);
                    }
                }
            }
            seen |= orbit;
            orbits.push(orbit);
        }
        orbits
    }

    /// Whether the pattern of givens of `p` has this symmetry.
    pub fn holds_for(self, p: &Puzzle) -> bool {
        let filled = p.filled();
        self.orbit_table()
            .iter()
            .all(|&o| (o & filled).is_empty() || (o & filled) == o)
    }

    /// The symmetries that the pattern of `p` has, strongest last.
    pub fn detect(p: &Puzzle) -> Vec<Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(|s| *s != Symmetry::None && s.holds_for(p))
            .collect()
    }

    /// Whether some set of whole orbits holds exactly `givens` cells.
    pub fn allows_givens(self, givens: usize) -> bool {
        let mut reachable = [false; 82];
        reachable[0] = true;
        for &o in self.orbit_table() {
            let k = o.len() as usize;
            for n in (k..=81).rev() {
                reachable[n] |= reachable[n - k];
            }
        }
        givens <= 81 && reachable[givens]
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown symmetry name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSymmetry(pub String);

impl fmt::Display for UnknownSymmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
        write!(
            f,
            "unknown symmetry '{}'; expected one of {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownSymmetry {}

impl FromStr for Symmetry {
    type Err = UnknownSymmetry;

    fn from_str(s: &str) -> Result<Symmetry, UnknownSymmetry> {
        Symmetry::ALL
            .into_iter()
            .find(|sym| sym.name() == s)
            .ok_or_else(|| UnknownSymmetry(s.to_string()))
    }
}

/// The fewest givens a proper 9×9 puzzle can have (McGuire, Tugemann and Civario, 2012).
pub const MIN_GIVENS: usize = 17;

/// The most givens of any minimal 9×9 puzzle ever found: 40. No proof bounds it, but the players'
/// forum searched for years (from minimal 39s, by {-n+m} moves) without finding a 41, so a
/// request for a minimal puzzle with more givens is refused rather than searched forever.
pub const MAX_MINIMAL_GIVENS: usize = 40;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateConfig {
    /// The number of givens wanted, inclusive range; `None` digs as far as uniqueness allows
    /// (a minimal puzzle).
    pub givens: Option<(usize, usize)>,
    /// The symmetry of the givens' pattern.
    pub symmetry: Symmetry,
    /// Whether no single given may be removable.
    pub minimal: bool,
    /// Whether the puzzle must have exactly one solution. `false` reproduces plain random digging
    /// to the asked number of givens, with no check.
    pub unique: bool,
    /// If set, only puzzles whose rating ([`crate::logic::grade`]) falls in this band are kept.
    pub band: Option<Band>,
    /// For strictly minimal rot180 puzzles (`minimal`, `unique`, [`Symmetry::Rot180`]) only:
    /// start most attempts from a grid with a half-turn automorphism (`half_turn_grid` in this module).
    /// About 3.5 times faster, but then nearly every puzzle is itself automorphic (a half turn
    /// and a renaming of its digits map it to itself), which a solver can exploit; off, the
    /// grids are uniformly random. See docs/generate.md, "Fourth pass".
    pub automorphic: bool,
}

impl Default for GenerateConfig {
    fn default() -> GenerateConfig {
        GenerateConfig {
            givens: None,
            symmetry: Symmetry::None,
            minimal: false,
            unique: true,
            band: None,
            automorphic: false,
        }
    }
}

/// Why a configuration can never be satisfied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// Fewer givens than any proper puzzle has.
    TooFewGivens(usize),
    /// More givens than cells, or an empty range.
    BadRange(usize, usize),
    /// No union of the symmetry's orbits has a number of cells in the range.
    SymmetryGivens(Symmetry, usize, usize),
    /// Plain digging (no uniqueness check) with no number of givens to dig to.
    NoTarget,
    /// A difficulty band asked for puzzles that need not have a unique solution.
    BandNeedsUnique,
    /// A minimal puzzle with more givens than any ever found ([`MAX_MINIMAL_GIVENS`]).
    MinimalTooManyGivens(usize),
    /// Automorphic grids asked for other than strictly minimal rot180 puzzles.
    AutomorphicNeedsRot180,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::TooFewGivens(k) => write!(
                f,
                "{k} givens is too few: no 9x9 puzzle with fewer than {MIN_GIVENS} givens has a unique solution (McGuire, Tugemann and Civario, 2012)"
            ),
            ConfigError::BadRange(a, b) => {
                write!(f, "givens {a}..{b} is not a range within 0..81")
            }
            ConfigError::NoTarget => f.write_str(
                "digging without the uniqueness check needs a number of givens to dig to (--givens)",
            ),
            ConfigError::MinimalTooManyGivens(a) => write!(
                f,
                "no minimal puzzle with {a} or more givens is known: the most givens ever found in a minimal puzzle is {MAX_MINIMAL_GIVENS} (years of searching by the Sudoku players' forum found none with more); ask for at most {MAX_MINIMAL_GIVENS} givens with --minimal"
            ),
            ConfigError::AutomorphicNeedsRot180 => f.write_str(
                "automorphic grids serve strictly minimal puzzles with rot180 symmetry only: add --minimal --symmetry rot180, or leave out --automorphic",
            ),
            ConfigError::BandNeedsUnique => f.write_str(
                "a difficulty band needs puzzles with a unique solution: only those can be rated",
            ),
            ConfigError::SymmetryGivens(s, a, b) => {
                let sizes: Vec<String> = {
                    let mut v: Vec<u32> = s.orbits().iter().map(|o| o.len()).collect();
                    v.sort_unstable();
                    v.dedup();
                    v.iter().map(|n| n.to_string()).collect()
                };
                if a == b {
                    write!(f, "no puzzle with {s} symmetry has exactly {a} givens: its cells fall into orbits of {} cells", sizes.join(" or "))
                } else {
                    write!(f, "no puzzle with {s} symmetry has {a} to {b} givens: its cells fall into orbits of {} cells", sizes.join(" or "))
                }
            }
        }
    }
}

impl std::error::Error for ConfigError {}

impl GenerateConfig {
    /// Checks that some puzzle can satisfy the configuration.
    ///
    /// # Errors
    /// A [`ConfigError`] that says why none can.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !self.unique && self.givens.is_none() {
            return Err(ConfigError::NoTarget);
        }
        if !self.unique && self.band.is_some() {
            return Err(ConfigError::BandNeedsUnique);
        }
        if self.automorphic && !(self.minimal && self.unique && self.symmetry == Symmetry::Rot180) {
            return Err(ConfigError::AutomorphicNeedsRot180);
        }
        if let Some((a, b)) = self.givens {
            if a > b || b > 81 {
                return Err(ConfigError::BadRange(a, b));
            }
            if self.unique && b < MIN_GIVENS {
                return Err(ConfigError::TooFewGivens(b));
            }
            if !(a..=b).any(|k| self.symmetry.allows_givens(k)) {
                return Err(ConfigError::SymmetryGivens(self.symmetry, a, b));
            }
            if self.minimal && self.unique && a > MAX_MINIMAL_GIVENS {
                return Err(ConfigError::MinimalTooManyGivens(a));
            }
        }
        Ok(())
    }
}

impl GenerateConfig {
    /// The config of one item of a batch. A range of givens asked with uniqueness (and without
    /// `minimal`) becomes one target, drawn uniformly from the counts of the range that the
    /// symmetry allows: digging with the range as it is would stop at its low end nearly every
    /// time (unique puzzles dug from a grid reach about 24 givens), so the batch would not
    /// spread over the range. Targets below about 22 givens make that item slow (local search).
    /// A minimal puzzle is only asked to land in the range, and plain digging (`unique: false`)
    /// already draws its target per attempt.
    pub fn for_item<R: RngCore>(&self, rng: &mut R) -> GenerateConfig {
        match self.givens {
            Some((a, b)) if a < b && self.unique && !self.minimal => {
                let allowed: Vec<usize> = (a..=b)
                    .filter(|&k| self.symmetry.allows_givens(k))
                    .collect();
                let t = allowed[below(rng, allowed.len())];
                GenerateConfig {
                    givens: Some((t, t)),
                    ..self.clone()
                }
            }
            _ => self.clone(),
        }
    }
}

/// A generated puzzle and its solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The grid it was dug from: its unique solution when the config asked for uniqueness.
    pub solution: Grid,
}

/// Whether removing the givens `cells` from `p` (proper, with solution `g`) keeps it proper: one
/// first-solution search per cell, with that cell's solution digit forbidden (see the module
/// docs).
fn still_unique(p: &Puzzle, cells: CellSet, g: &Grid) -> bool {
    other_solution(p, cells, g).is_none()
}

/// A solution other than `g` of `p` without the givens `cells`, if there is one (the same
/// searches as [`still_unique`], keeping what the failing one found).
///
/// Such a solution differs from `g` in a first cell of `cells`; the search for cell `c` forbids
/// `g[c]` there and places `g`'s digits in the cells before it, which the earlier searches
/// found no other solution for (fewer candidates: 0.8% fewer instructions in rot180 minimal
/// generation).
fn other_solution(p: &Puzzle, cells: CellSet, g: &Grid) -> Option<Grid> {
    other_solution_in(Solver::new(&without(p, cells)), cells, g, None)
}

/// [`other_solution`] from `base`, the puzzle without `cells` already loaded.
///
/// With `near` (made from `g`), the searches try first, at each guess, the branch that agrees
/// with `g`: they find first the other solutions closest to `g`, whose small sets of differences
/// rule out more later checks, and they find them sooner (11% fewer instructions in the
/// searches of rot180 minimal generation than trying digits in increasing order).
fn other_solution_in(
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
struct SolutionGrid {
    grid: Grid,
    /// Made only for the digs that learn unavoidable sets: plain digs keep no sets, and there
    /// the search near the grid does not pay (1.5% more instructions for plain minimal puzzles).
    near: Option<Near>,
    /// Whether the grid has a half-turn automorphism ([`half_turn_grid`]): then the half turn
    /// of each unavoidable set learned is one too.
    half_turn: bool,
    /// Whether the searches near the grid propagate lightly from the root (see
    /// [`Solver::first_near`]): set for strictly minimal symmetric puzzles only, so that the
    /// local search for few givens gives the same puzzles as before.
    light: bool,
}

impl SolutionGrid {
    fn new(grid: Grid, near: bool) -> SolutionGrid {
        SolutionGrid {
            near: near.then(|| Near::new(&grid)),
            half_turn: false,
            light: false,
            grid,
        }
    }

    /// [`other_solution_in`] for this grid.
    fn other_solution_in(&self, base: Solver, cells: CellSet) -> Option<Grid> {
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
    /// (docs/generate.md, "Fifteenth pass").
    fn pair_test(&self, base: Solver, cells: CellSet) -> Option<(Grid, bool)> {
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
fn difference(a: &Grid, b: &Grid) -> CellSet {
    differing_cells(a.as_bytes(), b.as_bytes())
}

/// The cells whose bytes in `a` and `b` differ, eight cells at a time: a word of eight bytes
/// XORed, the high bit of each byte set when the byte is not zero, and the eight high bits
/// gathered into a byte by one multiplication (the bit of byte `k`, moved to bit `8k`, times
/// `2^(7(7 - k))` lands on bit `49 + k`, and no two products meet). The 16-cell blocks of a
/// compare each, which the compiler did not turn into vector compares, took about 400
/// instructions a grid; this about 100 (docs/generate.md, "Twelfth pass").
#[inline(always)]
fn differing_cells(a: &[u8; 81], b: &[u8; 81]) -> CellSet {
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
fn givens_of(p: &Puzzle) -> CellSet {
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
fn below<R: RngCore>(rng: &mut R, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

fn shuffle<T, R: RngCore>(v: &mut [T], rng: &mut R) {
    for i in (1..v.len()).rev() {
        let j = below(rng, i + 1);
        v.swap(i, j);
    }
}

/// How many cells to test together when `givens` are left, from the measured chance that a
/// single removal keeps the puzzle proper (1.00 above 72 givens, 0.99 at 60, 0.96 at 50, 0.86
/// at 40, 0.48 at 30). Measured with callgrind over 1,000 minimal puzzles, the choice matters
/// little (±1% of instructions): the checks near the end, where most removals fail, dominate.
fn group_cells(givens: usize) -> usize {
    match givens {
        75.. => 40,
        60..=74 => 6,
        50..=59 => 4,
        44..=49 => 2,
        _ => 1,
    }
}

/// The cells of each digit of `g`.
fn digit_cells(g: &Grid) -> [u128; 9] {
    let mut by_digit = [0u128; 9];
    for (i, &v) in g.as_bytes().iter().enumerate() {
        by_digit[v as usize - 1] |= 1 << i;
    }
    by_digit
}

/// The peers of each cell, as bits.
fn peer_bits() -> &'static [u128; 81] {
    static PEERS: OnceLock<[u128; 81]> = OnceLock::new();
    PEERS.get_or_init(|| {
        let mut t = [0u128; 81];
        for c in Cell::all() {
            t[c.as_index()] = c.peers().bits();
        }
        t
    })
}

/// Some unavoidable sets of `g`: two-digit sets and line-pair cycles. (Sorting them smallest
/// first, so that a miss is found sooner, was measured to cost 4% of the instructions of
/// minimal-puzzle generation and gain nothing.)
///
/// Hot path (once a grid; part of the `minimal` bench): works on raw `u128` cell words, bit
/// `i` for cell `i`. It implements "Unavoidable sets" in `docs/generate.md`.
///
/// An unavoidable set is a set of cells whose digits can be rearranged into another valid grid;
/// a proper puzzle must have a given in each (else both grids solve it). For two digits `a` and
/// `b`, each house holds one cell of each, and swapping `a` and `b` in a set of their cells
/// gives a grid if and only if the set holds, with each cell, the other `a`/`b` cell of its row,
/// column and box: the connected components of that "sees" relation are the minimal such sets
/// (from 4 cells, an unavoidable rectangle, to 18). They make many failing uniqueness checks
/// free: removing the only given left in one of them cannot keep the puzzle proper.
fn unavoidable_sets(g: &Grid) -> Vec<CellSet> {
    let peers = peer_bits();
    let by_digit = digit_cells(g);
    let mut out = Vec::with_capacity(96);
    for a in 0..9 {
        for b in a + 1..9 {
            let both = by_digit[a] | by_digit[b];
            let mut rest = both;
            while rest != 0 {
                let mut comp = rest & rest.wrapping_neg();
                let mut frontier = comp;
                while frontier != 0 {
                    let mut next = 0;
                    while frontier != 0 {
                        next |= peers[frontier.trailing_zeros() as usize];
                        frontier &= frontier - 1;
                    }
                    frontier = next & both & !comp;
                    comp |= frontier;
                }
                rest &= !comp;
                out.push(CellSet::from_bits(comp));
            }
        }
    }
    line_pair_cycles(g, &mut out);
    out
}

/// Adds the unavoidable sets made by swapping two rows of a band (or two columns of a stack) on
/// some columns (rows): such a swap keeps every column and box, and keeps the two rows if and
/// only if both hold the same digits on those columns. The minimal column sets are the cycles of
/// `c ↦ (column of row 1 holding row 2's digit at c)`. Cycles of two columns are unavoidable
/// rectangles, already among the two-digit sets; longer ones (6 to 18 cells over 3 to 9
/// digits) are new.
fn line_pair_cycles(g: &Grid, out: &mut Vec<CellSet>) {
    let cells = g.as_bytes();
    for transpose in [false, true] {
        let at = |line: usize, k: usize| {
            if transpose {
                k * 9 + line
            } else {
                line * 9 + k
            }
        };
        for band in 0..3 {
            for (x, y) in [(0, 1), (0, 2), (1, 2)] {
                let (l1, l2) = (3 * band + x, 3 * band + y);
                let mut where1 = [0usize; 10];
                for k in 0..9 {
                    where1[cells[at(l1, k)] as usize] = k;
                }
                let mut done = 0u16;
                for start in 0..9 {
                    if done & (1 << start) != 0 {
                        continue;
                    }
                    let (mut k, mut len, mut set) = (start, 0, 0u128);
                    loop {
                        done |= 1 << k;
                        set |= 1 << at(l1, k) | 1 << at(l2, k);
                        len += 1;
                        k = where1[cells[at(l2, k)] as usize];
                        if k == start {
                            break;
                        }
                    }
                    if len > 2 {
                        out.push(CellSet::from_bits(set));
                    }
                }
            }
        }
    }
}

/// The `items` that `keep` keeps, in a vector with room for all of them: a `collect` through a
/// filter starts small and grows (about 38,000 reallocations for 200 rot180 minimal puzzles,
/// 2.3% of their instructions).
fn filtered<T: Copy>(items: &[T], keep: impl Fn(&T) -> bool) -> Vec<T> {
    let mut v = Vec::with_capacity(items.len());
    v.extend(items.iter().copied().filter(|x| keep(x)));
    v
}

/// Whether the givens `left` miss some unavoidable set (then they cannot be a proper puzzle).
fn misses_one(unavoidable: &[CellSet], left: CellSet) -> bool {
    unavoidable.iter().any(|&u| (u & left).is_empty())
}

/// The index of the first set of `sets` that `left` misses (meets in no cell), if any.
///
/// The scan takes the sets four at a time, with one branch for the four: most scans of the
/// dig find no set missed and read them all, where `position` took a branch a set
/// (docs/generate.md, "Eleventh pass"). The short lists of [`first_hitting`] keep
/// [`misses_one`]: there the chunks cost more than they save.
fn first_missed(sets: &[CellSet], left: CellSet) -> Option<usize> {
    let l = left.bits();
    let mut chunks = sets.chunks_exact(4);
    for (k, c) in chunks.by_ref().enumerate() {
        let m = (c[0].bits() & l == 0)
            | (c[1].bits() & l == 0)
            | (c[2].bits() & l == 0)
            | (c[3].bits() & l == 0);
        if m {
            let i = c.iter().position(|u| u.bits() & l == 0);
            return i.map(|i| 4 * k + i);
        }
    }
    let tail = sets.len() - chunks.remainder().len();
    chunks
        .remainder()
        .iter()
        .position(|u| u.bits() & l == 0)
        .map(|i| tail + i)
}

/// The sets of `sets` that `left` misses, in their order: [`first_missed`]'s scan four sets at a
/// time, to the end (few sets are missed; `filtered` took a branch a set, 1.7% of the
/// instructions of rot180 minimal generation).
fn missed_by(sets: &[CellSet], left: CellSet) -> Vec<CellSet> {
    let l = left.bits();
    let mut out = Vec::with_capacity(16);
    let mut chunks = sets.chunks_exact(4);
    for c in chunks.by_ref() {
        let m = (c[0].bits() & l == 0)
            | (c[1].bits() & l == 0)
            | (c[2].bits() & l == 0)
            | (c[3].bits() & l == 0);
        if m {
            out.extend(c.iter().filter(|u| u.bits() & l == 0));
        }
    }
    out.extend(chunks.remainder().iter().filter(|u| u.bits() & l == 0));
    out
}

/// The number of cells of an orbit (at most 8), by clearing them one by one: `CellSet::len` is
/// a software popcount of 128 bits on the baseline target (the dig's runs took 0.9% of the
/// instructions of rot180 minimal generation counting their orbits with it).
fn orbit_len(o: CellSet) -> usize {
    let (mut b, mut n) = (o.bits(), 0);
    while b != 0 {
        b &= b - 1;
        n += 1;
    }
    n
}

/// Sequential digging, sped up by group testing.
///
/// Plain digging tries the orbits one by one in a random order and keeps each removal that
/// leaves the puzzle proper. Removing a run of consecutive orbits at once is proper if and
/// only if each of those removals, made one by one, would have been (a puzzle with more givens
/// than a proper one is proper), so one count-to-two search can stand for the whole run. A run
/// that fails is split in halves; when the first half goes entirely, the second half is known
/// to fail as a whole and is split without a test. The result is exactly the puzzle of plain
/// digging in the same order, with fewer searches while most removals succeed.
struct Digger<'a> {
    grid: &'a SolutionGrid,
    /// Unavoidable sets of the grid (see [`unavoidable_sets`]).
    unavoidable: &'a [CellSet],
    /// Unavoidable sets learned from the other solutions that failing searches found, if
    /// `learn`. They only pay for themselves in the local search, which digs the same grid
    /// again and again (measured: 3% more instructions for plain minimal puzzles).
    learned: Vec<CellSet>,
    learn: bool,
    p: Puzzle,
    /// `p` loaded into the solver, kept in step with it: each test unloads only the cells it
    /// removes ([`Solver::unload`]) (`Solver::new` was 8.7% of minimal-puzzle generation).
    solver: Solver,
    /// The givens of `p`, kept in step with it.
    filled: CellSet,
    givens: usize,
    /// Cells of kept pair orbits that could be removed alone when their orbit was tested (see
    /// [`Digger::run`]): likely weak orbits, which the repair checks first.
    spare: CellSet,
    /// Which known set last proved each removal fails ([`Reasons`]), kept from dig to dig.
    reasons: &'a mut Reasons,
}

/// For each cell, where among the known sets (`unavoidable`, then `learned`, as one list) lies
/// the set that last proved that removing the run of orbits starting at that cell breaks
/// uniqueness; [`NO_REASON`] when none did. A hint only: the set it names is tested first, and
/// the scan of all the sets follows when the list has changed or the set is hit now, so the
/// dig decides exactly as without it.
///
/// The repair digs the same grid again after each move, and most of its removals fail for the
/// same known set as in the last dig (a move adds one orbit, which hits a few of the sets): the
/// scan of up to [`MAX_LEARNED`] sets an orbit, stopping at the first set missed, was 6% of
/// the instructions of rot180 minimal generation (docs/generate.md, "Eighth pass").
type Reasons = [u16; 81];

/// [`Reasons`] with no hint.
const NO_REASON: Reasons = [u16::MAX; 81];

impl Digger<'_> {
    /// Whether `left` (the givens without `cells`) misses a known set ([`misses_one`] over
    /// `unavoidable` and `learned`), trying first the set that proved it for the same first
    /// cell last time ([`Reasons`]).
    fn misses_known(&mut self, cells: CellSet, left: CellSet) -> bool {
        let key = cells.bits().trailing_zeros() as usize;
        let n = self.unavoidable.len();
        let hint = self.reasons[key] as usize;
        let set = if hint < n {
            self.unavoidable.get(hint)
        } else {
            self.learned.get(hint - n)
        };
        if set.is_some_and(|&u| (u & left).is_empty()) {
            return true;
        }
        let found = match first_missed(self.unavoidable, left) {
            Some(i) => Some(i),
            None => first_missed(&self.learned, left).map(|i| n + i),
        };
        if let Some(i) = found {
            self.reasons[key] = u16::try_from(i).unwrap_or(u16::MAX);
        }
        found.is_some()
    }

    /// Digs through `order` (orbits in the order to try them), never going below `floor`.
    fn dig(&mut self, order: &[CellSet], floor: usize) {
        let mut i = 0;
        while i < order.len() {
            // The longest run of orbits, up to the group size, that stays above the floor.
            let want = group_cells(self.givens);
            let (mut j, mut cells) = (i, 0);
            while j < order.len() {
                let k = orbit_len(order[j]);
                if cells + k > want.max(k) || self.givens < floor + cells + k {
                    break;
                }
                cells += k;
                j += 1;
            }
            if j == i {
                // This orbit alone would go below the floor; so it would at its turn in plain
                // digging, and there it is skipped too.
                i += 1;
                continue;
            }
            self.run(&order[i..j], false);
            i = j;
        }
    }

    /// Tests the run `group` as plain digging would; `known_fail` if removing it all at once
    /// is already known to break uniqueness.
    fn run(&mut self, group: &[CellSet], known_fail: bool) {
        let cells = group.iter().fold(CellSet::EMPTY, |a, &o| a | o);
        let left = self.filled & !cells;
        let known_fail = known_fail || self.misses_known(cells, left);
        if group.len() == 1 {
            if !known_fail {
                let q = without(&self.p, cells);
                let base = self.solver.unload(&q, cells);
                let pair = self.grid.light && cells.len() == 2;
                let found = if pair {
                    self.grid.pair_test(base, cells)
                } else {
                    self.grid.other_solution_in(base, cells).map(|h| (h, false))
                };
                match found {
                    None => {
                        self.p = q;
                        self.solver = base;
                        self.filled &= !cells;
                        self.givens -= cells.len() as usize;
                    }
                    Some((h, spare)) if self.learn => {
                        // Without the pair test, the searches forbid the grid's digit in the
                        // orbit's cells in turn, placing it in the cells before: a solution that
                        // agrees with the grid in the first cell was found by a later search,
                        // so the first search found none, and the puzzle without that first
                        // cell alone had no other solution (its solutions are among those of
                        // the puzzle without the whole orbit): the cell was removable alone,
                        // the orbit weak.
                        let first = cells.iter().next().expect("an orbit has a cell");
                        let agrees = cells.len() > 1 && h.get(first) == self.grid.get(first);
                        if spare || (!pair && agrees) {
                            self.spare |= CellSet::single(first);
                        }
                        let u = difference(&h, self.grid);
                        self.learned.push(u);
                        if self.grid.half_turn {
                            self.learned.push(half_turn(u));
                        }
                    }
                    Some(_) => {}
                }
            }
            return;
        }
        if !known_fail {
            let q = without(&self.p, cells);
            let loaded = self.solver.unload(&q, cells);
            let out = loaded.count(2);
            if out.count == 1 {
                self.p = q;
                self.solver = loaded;
                self.filled &= !cells;
                self.givens -= cells.len() as usize;
                return;
            }
            // The first solution found may be the other one.
            if let Some(h) = out.solution.filter(|h| self.learn && *h != self.grid.grid) {
                self.learned.push(difference(&h, self.grid));
            }
        }
        let (a, b) = group.split_at(group.len() / 2);
        let before = self.givens;
        self.run(a, false);
        let all_gone = before - self.givens == a.iter().map(|o| o.len() as usize).sum::<usize>();
        self.run(b, all_gone);
    }
}

/// Digs `p` (proper, with solution `grid`) down to a puzzle that is minimal over `orbits`,
/// trying them in random order and never going below `floor` givens. If `learn`, also returns
/// the unavoidable sets learned on the way, and the cells of kept orbits that could be removed
/// alone when their orbit was tested ([`Digger::spare`]).
///
/// Minimal for free: removing givens only adds solutions, so a removal that failed once fails
/// after any later removal too, and one pass leaves no removable orbit (unless the floor
/// stopped it).
fn dig<R: RngCore>(
    p: Puzzle,
    grid: &SolutionGrid,
    unavoidable: &[CellSet],
    orbits: &[CellSet],
    floor: usize,
    learn: bool,
    rng: &mut R,
) -> (Puzzle, Vec<CellSet>, CellSet) {
    let mut reasons = NO_REASON;
    let (p, learned, spare, _, _) = dig_loaded(
        p,
        Solver::new(&p),
        grid,
        unavoidable,
        &mut reasons,
        orbits,
        floor,
        learn,
        rng,
    );
    (p, learned, spare)
}

/// [`dig`], and the dug puzzle loaded into the solver (the digger keeps it in step: the repair
/// starts its next move from it instead of loading the puzzle again) and its givens as a set.
// The repair keeps `reasons` from dig to dig; the other callers go through `dig`.
#[allow(clippy::too_many_arguments)]
fn dig_loaded<R: RngCore>(
    p: Puzzle,
    solver: Solver,
    grid: &SolutionGrid,
    unavoidable: &[CellSet],
    reasons: &mut Reasons,
    orbits: &[CellSet],
    floor: usize,
    learn: bool,
    rng: &mut R,
) -> (Puzzle, Vec<CellSet>, CellSet, Solver, CellSet) {
    debug_assert!(solver.same_as(&Solver::new(&p)), "`solver` is `p` loaded");
    let filled = givens_of(&p);
    let mut order = filtered(orbits, |&o| (o & filled) == o);
    shuffle(&mut order, rng);
    let mut d = Digger {
        grid,
        unavoidable,
        learned: Vec::with_capacity(16),
        learn,
        givens: filled.len() as usize,
        filled,
        spare: CellSet::EMPTY,
        solver,
        p,
        reasons,
    };
    d.dig(&order, floor);
    (d.p, d.learned, d.spare & d.filled, d.solver, d.filled)
}

/// Adds the `learned` sets of `grid` that are new to `known`, up to [`MAX_LEARNED`] sets in
/// all; on a grid with a half-turn automorphism, their half turns too (see [`half_turn_grid`]).
fn remember(known: &mut Vec<CellSet>, learned: Vec<CellSet>, grid: &SolutionGrid) {
    for u in learned {
        let turned = half_turn(u);
        let images: &[CellSet] = if grid.half_turn && turned != u {
            &[u, turned]
        } else {
            &[u]
        };
        for &v in images {
            if known.len() >= MAX_LEARNED {
                return;
            }
            if !known.contains(&v) {
                known.push(v);
            }
        }
    }
}

/// [`remember`] for one set `u` that is not known yet: a set learned by a search of the repair
/// (its searches ask only about puzzles whose givens hit every known set, or meet none of them
/// in the cell searched alone, so the set found is never one of them). Skips the search of
/// `known` for it (a scan of up to 400 sets a set learned: 1.5% of the instructions). Its half
/// turn, on a grid with a half-turn automorphism, may be known: that case goes through
/// [`remember`].
fn remember_new(known: &mut Vec<CellSet>, u: CellSet, grid: &SolutionGrid) {
    if grid.half_turn {
        remember(known, vec![u], grid);
        return;
    }
    debug_assert!(!known.contains(&u), "a set learned by the repair is new");
    if known.len() < MAX_LEARNED {
        known.push(u);
    }
}

/// Adds back givens from `grid`, whole orbits in random order, while they fit under `hi`, until
/// `p` has at least `lo` givens. Adding givens keeps a proper puzzle proper. Returns whether the
/// count landed in `lo..=hi` (it can miss when only large orbits are left).
fn fill_to<R: RngCore>(
    p: &mut Puzzle,
    grid: &Grid,
    orbits: &[CellSet],
    (lo, hi): (usize, usize),
    rng: &mut R,
) -> bool {
    let filled = p.filled();
    let mut empty: Vec<CellSet> = orbits
        .iter()
        .copied()
        .filter(|o| (*o & filled).is_empty())
        .collect();
    shuffle(&mut empty, rng);
    let mut givens = p.givens();
    for &o in &empty {
        if givens >= lo {
            break;
        }
        let k = o.len() as usize;
        if givens + k <= hi {
            *p = with(p, o, grid);
            givens += k;
        }
    }
    (lo..=hi).contains(&givens)
}

/// Moves tried on one grid before the search starts again from a new grid.
const MOVES_PER_GRID: usize = 1000;
/// The most unavoidable sets kept per grid (the two-digit ones and those learned in the search).
const MAX_LEARNED: usize = 400;

/// Local search for fewer givens on one grid: a random walk over its minimal puzzles by the
/// "{-1+1}" neighbourhood moves that the players' forum used to hunt puzzles with few clues.
///
/// From a proper puzzle `p` that is minimal over `orbits`, a move removes one orbit `a`. The
/// puzzle then has another solution `H`; `H` differs from the grid on an unavoidable set, which
/// is remembered, and a new orbit `e` is added only where it hits every remembered unavoidable
/// set that the remaining givens miss (elsewhere the result cannot be proper). If the result is
/// proper, it is dug again to a minimal puzzle, which never has more givens than `p` (when `e`
/// is no larger than `a`), and often fewer. Returns a puzzle with at most `hi` givens (and at
/// least `lo`), or `None` when the moves or the time run out. See `docs/generate.md` for the
/// variants measured.
fn descend<R: RngCore>(
    mut p: Puzzle,
    grid: &SolutionGrid,
    mut unavoidable: Vec<CellSet>,
    orbits: &[CellSet],
    (lo, hi): (usize, usize),
    rng: &mut R,
    deadline: Option<Instant>,
) -> Option<Puzzle> {
    let mut givens = p.givens();
    for moves in 0..MOVES_PER_GRID {
        if givens <= hi {
            return Some(p);
        }
        if moves % 32 == 31 && deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let filled = p.filled();
        let (full, empty): (Vec<CellSet>, Vec<CellSet>) =
            orbits.iter().partition(|&&o| (o & filled) == o);
        if full.is_empty() || empty.is_empty() {
            return None;
        }
        let removed = full[below(rng, full.len())];
        let r = without(&p, removed);
        // Another solution of r: it differs from the grid somewhere in `removed`.
        let base = Solver::new(&r);
        let other = grid.other_solution_in(base, removed);
        let Some(h) = other else {
            // Still proper without it: `p` was not minimal (the floor stopped its digging).
            let (q, learned, _) = dig(r, grid, &unavoidable, orbits, lo, true, rng);
            remember(&mut unavoidable, learned, grid);
            p = q;
            givens = p.givens();
            continue;
        };
        // `h` differs from the grid on an unavoidable set: a new given must hit it, and every
        // later puzzle on this grid must hit it too.
        remember(&mut unavoidable, vec![difference(&h, grid)], grid);
        let left = filled & !removed;
        let missed: Vec<CellSet> = unavoidable
            .iter()
            .copied()
            .filter(|&u| (u & left).is_empty())
            .collect();
        let choices: Vec<CellSet> = empty
            .iter()
            .copied()
            .filter(|&o| o.len() <= removed.len() && missed.iter().all(|&u| !(u & o).is_empty()))
            .collect();
        if choices.is_empty() {
            continue;
        }
        let e = choices[below(rng, choices.len())];
        let q = with(&p, e, grid);
        if grid
            .other_solution_in(Solver::new(&without(&q, removed)), removed)
            .is_some()
        {
            continue;
        }
        let (q, learned, _) = dig(with(&r, e, grid), grid, &unavoidable, orbits, lo, true, rng);
        remember(&mut unavoidable, learned, grid);
        p = q;
        givens = p.givens();
    }
    (givens <= hi).then_some(p)
}

/// Moves tried by [`make_minimal`] on one grid before the attempt gives the grid up. (64 made
/// 1,233 M instructions for 200 puzzles, 32 made 1,151 M, 16 made 1,206 M: past about 30 moves
/// a walk rarely ends, and a new grid is the better bet.)
const REPAIR_MOVES: usize = 32;

/// [`REPAIR_MOVES`] on a grid with a half-turn automorphism ([`half_turn_grid`]). Such a grid's
/// walks are short (about 7 moves a puzzle) and a new grid costs about six moves: a cap of 32 /
/// 12 / 8 / 6 made 799 / 739 / **731** / 753 M instructions (sum over seeds 1-3 of `generate -n
/// 200 --minimal --symmetry rot180`, a release build without LTO; cap 4 on seeds 1-2: 509 M
/// against 534 M for 32).
const HALF_TURN_REPAIR_MOVES: usize = 8;

/// The givens (`filled`) that some known unavoidable set meets alone: those cannot be removed
/// alone. One pass over the sets for all givens (a pass a given was 10% of the instructions of
/// rot180 minimal generation).
fn witnessed(unavoidable: &[CellSet], filled: CellSet) -> CellSet {
    // On two 64-bit words and without a branch: `hit` is one cell when one word is zero and
    // the other a power of two.
    let f = filled.bits();
    let (flo, fhi) = (f as u64, (f >> 64) as u64);
    let (mut lo, mut hi) = (0u64, 0u64);
    for &u in unavoidable {
        let b = u.bits();
        let (a, c) = (b as u64 & flo, (b >> 64) as u64 & fhi);
        let x = a | c;
        let one = x != 0 && x & (x - 1) == 0 && (a == 0 || c == 0);
        let keep = (one as u64).wrapping_neg();
        lo |= a & keep;
        hi |= c & keep;
    }
    CellSet::from_bits(lo as u128 | (hi as u128) << 64)
}

/// Whether the given `c` of `p` (proper, with solution `g`) can be removed alone, for a given
/// that no known set meets alone (see [`witnessed`]).
///
/// It cannot if and only if some unavoidable set of the grid meets the givens in `c` alone; a
/// search that finds another solution adds the set where that solution differs from the grid
/// (it meets the givens in `c` alone), for the checks after later moves.
///
/// `loaded` is `p` loaded into the solver; the check unloads `c` alone.
fn removable(
    p: &Puzzle,
    loaded: &Solver,
    c: Cell,
    g: &SolutionGrid,
    unavoidable: &mut Vec<CellSet>,
) -> bool {
    let cell = CellSet::single(c);
    match g.other_solution_in(loaded.unload(&without(p, cell), cell), cell) {
        Some(h) => {
            remember_new(unavoidable, difference(&h, g), g);
            false
        }
        None => true,
    }
}

/// `p` (proper, with solution `grid`) with the orbit `removed` of `spare` replaced by an empty
/// orbit no larger than it such that the result is proper, or, when no such orbit is left, by
/// two empty orbits (at most [`PAIR_TESTS`] pairs tested), with the result loaded into the
/// solver (the walk's next dig starts from it: `p` without `removed` unloaded, then the new
/// givens placed, which is what a fresh load makes); `None` if none of these is proper.
/// Each failing choice teaches `unavoidable` the set where the other solution differs from the grid, which
/// rules out later choices without a search.
///
/// `filled` is the set of `p`'s givens, `loaded` is `p` loaded into the solver. `spare` can be
/// removed from `p` alone. So a solution other than the grid of `p` without `removed` (and with
/// any new givens) differs from the grid in another cell of `removed`: if it agreed there, it
/// would solve `p` without `spare`, which is proper. The searches forbid the grid's digit in
/// those other cells only (for a pair orbit, one search instead of two; the one skipped could
/// never find a solution).
///
/// Which choice first (docs/generate.md, "Fifth pass"): the choices that hit every known set the
/// kept givens miss are tried in random order, but one whose two cells each lie in such a set
/// without the other ([`separated`]) goes first: once added, each of its cells is the only given
/// of a known unavoidable set, so the new orbit is not weak, where a plain choice nearly always
/// is (-12% instructions over seeds 1-3).
///
/// Two orbits (docs/generate.md, "Sixth pass"): before, a move with no single replacement left
/// went on to the next weak orbit, and the attempt gave the grid up when no weak orbit had one:
/// 837 of the 1,011 walks that failed in 1,000 puzzles, after 7.7 moves each. Adding two orbits
/// (the dig that follows removes whatever of them is spare) keeps the walk on its grid: 1.23
/// grids a puzzle instead of 2.01, 7% fewer instructions.
// `p`'s givens (`filled`) and its loaded state come from the walk, which has them already.
#[allow(clippy::too_many_arguments)]
fn replace_orbit<R: RngCore>(
    p: &Puzzle,
    filled: CellSet,
    loaded: &Solver,
    spare: Cell,
    grid: &SolutionGrid,
    unavoidable: &mut Vec<CellSet>,
    orbits: &[CellSet],
    rng: &mut R,
) -> Option<(Puzzle, Solver)> {
    let removed = orbit_of(orbits, spare);
    let must = removed & !CellSet::single(spare);
    let base = loaded.unload(&without(p, removed), removed);
    let left = filled & !removed;
    // The known sets that the kept givens miss: a choice must hit each of them. Each failing
    // choice adds one (its other solution agrees with the grid on `left`).
    let mut missed = missed_by(unavoidable, left);
    // `p` without `removed` has another solution (`p` is minimal over orbits). Nearly always
    // the set that kept `removed` in the last dig is known and still missed; only when none is
    // known does a search find one (one search a move fewer: -12% instructions).
    if missed.is_empty() {
        let h = grid.other_solution_in(base, must)?;
        let u = difference(&h, grid);
        remember_new(unavoidable, u, grid);
        missed.push(u);
    }
    // `o.len() <= removed.len()` without a count of `o`'s cells (`CellSet::len` is a software
    // popcount on the baseline target: 1.7% of the instructions): `o` is no larger than
    // `removed` when it has no cell left once as many cells as `removed` has are cleared.
    let size = removed.len();
    let no_larger = |o: CellSet| {
        let mut b = o.bits();
        for _ in 0..size {
            b &= b.wrapping_sub(1);
        }
        b == 0
    };
    let mut choices = filtered(orbits, |&o| (o & filled).is_empty() && no_larger(o));
    shuffle(&mut choices, rng);
    // Pairs of empty orbits (indices into `empty`), made the first time no single choice is
    // left.
    let mut pairs: Option<Pairs> = None;
    let mut pair_tests = 0;
    loop {
        // The first choice that hits every missed set, unless a later one is separated.
        let e = match first_hitting_retain(&mut choices, &missed) {
            Some(k) => choices.remove(k),
            None if pair_tests < PAIR_TESTS => {
                let (empty, two) = pairs.get_or_insert_with(|| {
                    let mut empty = filtered(orbits, |&o| (o & filled).is_empty() && o != removed);
                    shuffle(&mut empty, rng);
                    let mut two = Vec::with_capacity(empty.len() * empty.len() / 2);
                    for i in 0..empty.len() {
                        for j in i + 1..empty.len() {
                            two.push((i as u8, j as u8));
                        }
                    }
                    (empty, two)
                });
                pair_tests += 1;
                let k = first_hitting_pair(empty, two, &missed)?;
                let (i, j) = two.remove(k);
                empty[i as usize] | empty[j as usize]
            }
            None => return None,
        };
        // Another solution of `p` without `removed` and with `e` differs from the grid in
        // `removed`, since `p` is proper.
        let mut s = base;
        for c in e.iter() {
            s.place(c, grid.get(c));
        }
        match grid.other_solution_in(s, must) {
            Some(h) => {
                let u = difference(&h, grid);
                missed.push(u);
                remember_new(unavoidable, u, grid);
            }
            None => return Some((with(&without(p, removed), e, grid), s)),
        }
    }
}

/// The empty orbits [`replace_orbit`] may add two of, in random order, and the pairs of them
/// still worth a test, as indices into the first list ([`first_hitting_pair`]).
type Pairs = (Vec<CellSet>, Vec<(u8, u8)>);

/// Tests of two orbits at once that [`replace_orbit`] makes at most, once no single orbit is
/// left. (Caps of 3 / 8 / 24 made 1,808 / 1,812 / 1,817 M instructions over seeds 1-3 of
/// `generate -n 200 --minimal --symmetry rot180`: no difference.)
const PAIR_TESTS: usize = 8;

/// The index of the first of `choices` that hits every set of `missed`, or of the first such
/// that is also [`separated`] if there is one.
fn first_hitting(choices: &[CellSet], missed: &[CellSet]) -> Option<usize> {
    let mut first = None;
    for (k, &e) in choices.iter().enumerate() {
        if misses_one(missed, e) {
            continue;
        }
        first.get_or_insert(k);
        if separated(missed, e) {
            return Some(k);
        }
    }
    first
}

/// [`first_hitting`], after dropping from `choices` those that miss a set of `missed` (the
/// caller's `missed` only grows: they would miss it at every later call too).
fn first_hitting_retain(choices: &mut Vec<CellSet>, missed: &[CellSet]) -> Option<usize> {
    choices.retain(|&e| !misses_one(missed, e));
    match choices.iter().position(|&e| separated(missed, e)) {
        Some(k) => Some(k),
        None => (!choices.is_empty()).then_some(0),
    }
}

/// [`first_hitting`] over the pairs `two` of the orbits `empty` (the pair `(i, j)` is the
/// choice `empty[i] | empty[j]`): the index in `two` of the first pair that hits every set of
/// `missed`, or of the first such that is also [`separated`], after dropping from `two` the
/// pairs that miss a set of `missed` (the caller's `missed` only grows: they would miss it at
/// every later call too, and each call scanned them again, up to 8 calls a move).
///
/// A pair hits a set when one of its two orbits does, so each orbit's hits are found once, as
/// bits (set `k` of `missed` is bit `k`), and a pair hits them all when the two orbits' bits
/// cover `missed`: a test of a few instructions a pair, where [`first_hitting`] scanned the
/// missed sets for each of up to 400 pairs.
fn first_hitting_pair(
    empty: &[CellSet],
    two: &mut Vec<(u8, u8)>,
    missed: &[CellSet],
) -> Option<usize> {
    if missed.len() > 64 {
        let choices: Vec<CellSet> = two
            .iter()
            .map(|&(i, j)| empty[i as usize] | empty[j as usize])
            .collect();
        return first_hitting(&choices, missed);
    }
    let all = u64::MAX.checked_shr(64 - missed.len() as u32).unwrap_or(0);
    let mut hits = [0u64; 81];
    for (h, &o) in hits.iter_mut().zip(empty) {
        for (k, &u) in missed.iter().enumerate() {
            *h |= u64::from(!(u & o).is_empty()) << k;
        }
    }
    // `missed` only grows from call to call, so a pair that misses one of its sets now misses
    // it at every later call: drop it for good.
    two.retain(|&(i, j)| hits[i as usize] | hits[j as usize] == all);
    let separate = |&(i, j): &(u8, u8)| separated(missed, empty[i as usize] | empty[j as usize]);
    match two.iter().position(separate) {
        Some(k) => Some(k),
        None => (!two.is_empty()).then_some(0),
    }
}

/// Whether each cell of the orbit `e` lies in some set of `missed` without the other cells of
/// `e` (always, for the centre alone). Then, once `e` is added to givens that miss every set of
/// `missed`, each cell of `e` is the only given of a known unavoidable set: necessary, now and
/// after any later removal.
fn separated(missed: &[CellSet], e: CellSet) -> bool {
    let bits = e.bits();
    let mut alone = 0u128;
    for u in missed {
        let m = u.bits() & bits;
        // `m` is one cell of `e` exactly when it is a power of two.
        if m & m.wrapping_sub(1) == 0 {
            alone |= m;
        }
    }
    alone == bits
}

/// The cells of `u` turned a half turn about the centre (cell `i` ↦ cell `80 - i`).
fn half_turn(u: CellSet) -> CellSet {
    CellSet::from_bits(u.bits().reverse_bits() >> (128 - 81))
}

/// A random grid `G` with a half-turn automorphism: `G[80 - i] = σ(G[i])` for every cell, for
/// an involution `σ` of the digits with one fixed point (the centre's digit). (A digit fixed by
/// `σ` has its nine cells closed under the half turn, which fixes only the centre: so exactly
/// one digit is fixed, and `σ` swaps the other eight in four pairs.)
///
/// In such a grid the half turn of an unavoidable set is unavoidable (`H ↦ σ⁻¹ ∘ H ∘ rot` maps
/// the other grid on `U` to one on the half turn of `U`). So for a rot180-symmetric puzzle a
/// given is necessary if and only if its partner is, and a kept pair orbit is never weak with one
/// cell necessary and the other removable, the case that makes orbit-minimal puzzles
/// non-minimal nine times in ten over random grids (`docs/generate.md`).
///
/// Drawn by a randomized depth-first fill of the pairs `{i, 80 - i}` with `σ(v) = 10 - v`, the
/// most constrained pair first, then a random renaming of the digits. Not uniform over such
/// grids.
fn half_turn_grid<R: RngCore>(rng: &mut R) -> Grid {
    /// `m` with bit `v` moved to bit `10 - v` (the digits' images under `σ`).
    fn mirror(m: u16) -> u16 {
        (m.reverse_bits() >> 5) & 0x3FE
    }
    /// Row, column and box of each cell.
    const HOUSES: [[u8; 3]; 81] = {
        let mut t = [[0u8; 3]; 81];
        let mut i = 0;
        while i < 81 {
            t[i] = [
                (i / 9) as u8,
                (i % 9) as u8,
                ((i / 27) * 3 + (i % 9) / 3) as u8,
            ];
            i += 1;
        }
        t
    };
    /// The cells (below 40) that share a house with their partner `80 - i`.
    const SHARES_HOUSE: u64 = {
        let mut m = 0u64;
        let mut i = 0;
        while i < 40 {
            let (a, b) = (HOUSES[i], HOUSES[80 - i]);
            if a[0] == b[0] || a[1] == b[1] || a[2] == b[2] {
                m |= 1 << i;
            }
            i += 1;
        }
        m
    };
    struct Fill {
        cells: [u8; 81],
        /// Digits used in each row, column and box (bit `v` for digit `v`).
        used: [[u16; 9]; 3],
        nodes: u32,
    }
    impl Fill {
        fn houses(i: usize) -> [usize; 3] {
            let [r, c, b] = HOUSES[i];
            [r as usize, c as usize, b as usize]
        }
        fn free(&self, i: usize) -> u16 {
            let [r, c, b] = Fill::houses(i);
            !(self.used[0][r] | self.used[1][c] | self.used[2][b]) & 0x3FE
        }
        fn set(&mut self, i: usize, v: u8, on: bool) {
            let [r, c, b] = Fill::houses(i);
            for (k, h) in [r, c, b].into_iter().enumerate() {
                self.used[k][h] ^= 1 << v;
            }
            self.cells[i] = if on { v } else { 0 };
        }
        /// Digits `v` that can go in cell `i` with `10 - v` in its partner.
        fn choices(&self, i: usize) -> u16 {
            let m = self.free(i) & mirror(self.free(80 - i));
            // A cell sharing a house with its partner (row 5, column 5, the centre box) cannot
            // hold the fixed digit: the partner would repeat it.
            if SHARES_HOUSE & (1 << i) != 0 {
                m & !(1 << 5)
            } else {
                m
            }
        }
        fn solve<R: RngCore>(&mut self, rng: &mut R) -> bool {
            self.nodes += 1;
            if self.nodes > 4000 {
                return false;
            }
            let mut best = (10, 0, 0u16);
            for i in 0..40 {
                if self.cells[i] == 0 {
                    let m = self.choices(i);
                    if m.count_ones() < best.0 {
                        best = (m.count_ones(), i, m);
                    }
                }
            }
            if best.0 == 10 {
                return true;
            }
            let (_, i, mut m) = best;
            while m != 0 {
                let k = below(rng, m.count_ones() as usize);
                let mut pick = m;
                for _ in 0..k {
                    pick &= pick - 1;
                }
                let v = pick.trailing_zeros() as u8;
                m &= !(1 << v);
                self.set(i, v, true);
                self.set(80 - i, 10 - v, true);
                if self.solve(rng) {
                    return true;
                }
                self.set(i, v, false);
                self.set(80 - i, 10 - v, false);
            }
            false
        }
    }
    loop {
        let mut f = Fill {
            cells: [0; 81],
            used: [[0; 9]; 3],
            nodes: 0,
        };
        f.set(40, 5, true);
        if f.solve(rng) {
            let mut names = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
            shuffle(&mut names, rng);
            let cells = f.cells.map(|v| names[v as usize - 1]);
            return Grid::from_valid_bytes(cells);
        }
    }
}

/// The orbit of `orbits` that holds `c`.
fn orbit_of(orbits: &[CellSet], c: Cell) -> CellSet {
    *orbits
        .iter()
        .find(|o| o.contains(c))
        .expect("the orbits cover every cell")
}

/// Turns `p` (proper, with solution `grid`, minimal over `orbits`) into a strictly minimal
/// puzzle of the same grid and symmetry, or `None` after [`REPAIR_MOVES`] moves
/// ([`HALF_TURN_REPAIR_MOVES`] on a grid with a half-turn automorphism).
///
/// An orbit-minimal puzzle keeps an orbit `{c, c'}` when removing both cells breaks
/// uniqueness, even if removing `c` alone would not; then the puzzle is not minimal. Over random
/// rot180 grids about one orbit-minimal puzzle in 46 is minimal (`--stats`: 46 grids a puzzle,
/// 282 puzzles/s), because each of a dozen pair orbits is "weak" in this way about one time in
/// four; throwing the grid away on any weak orbit wastes the other, good ones. Instead, a move
/// replaces a weak orbit `o`: without it the puzzle has another solution `H` (it was
/// orbit-minimal); a new orbit `e`, no larger than `o`, must hit every known unavoidable set that
/// the other givens miss, including where `H` differs from the grid; if the result is proper it
/// is dug again to orbit-minimal. The walk stops at the first puzzle with no removable given.
// `reasons` comes from the first dig, as the loaded state and the spare cells do.
#[allow(clippy::too_many_arguments)]
fn make_minimal<R: RngCore>(
    mut p: Puzzle,
    mut loaded: Solver,
    mut spare: CellSet,
    grid: &SolutionGrid,
    unavoidable: &mut Vec<CellSet>,
    reasons: &mut Reasons,
    orbits: &[CellSet],
    rng: &mut R,
) -> Option<Puzzle> {
    let moves = if grid.half_turn {
        HALF_TURN_REPAIR_MOVES
    } else {
        REPAIR_MOVES
    };
    // The givens of `p`, kept in step with it (the dig returns them).
    let mut filled = givens_of(&p);
    for _ in 0..moves {
        // The givens in random order; the first weak orbit that some other orbit can replace
        // makes the move (trying only the first was measured to lose the grid four times in
        // five).
        debug_assert_eq!(filled, givens_of(&p));
        let mut cells: Vec<Cell> = Vec::with_capacity(81);
        cells.extend(filled.iter());
        shuffle(&mut cells, rng);
        // The cells the last dig found removable alone first, each part in random order (see
        // `Digger::spare`; 2.7% fewer instructions over seeds 1-6): the order of a stable sort
        // by "not spare", taken in two passes (the sort was 1.4% of the instructions).
        let (first, rest) = (
            cells.iter().filter(|&&c| spare.contains(c)),
            cells.iter().filter(|&&c| !spare.contains(c)),
        );
        let mut tried = witnessed(unavoidable, filled);
        let mut weak_seen = false;
        let mut moved = None;
        for &c in first.chain(rest) {
            if tried.contains(c) {
                continue;
            }
            if !removable(&p, &loaded, c, grid, unavoidable) {
                // On a grid with a half-turn automorphism, the partner of a necessary given is
                // necessary too (the set just learned, turned, meets the givens in it alone).
                if grid.half_turn {
                    tried |= orbit_of(orbits, c);
                }
                continue;
            }
            weak_seen = true;
            tried |= orbit_of(orbits, c);
            moved = replace_orbit(&p, filled, &loaded, c, grid, unavoidable, orbits, rng);
            if moved.is_some() {
                break;
            }
        }
        if !weak_seen {
            return Some(p);
        }
        let (q, q_loaded) = moved?;
        let (q, learned, found_spare, q_loaded, q_filled) = dig_loaded(
            q,
            q_loaded,
            grid,
            unavoidable,
            reasons,
            orbits,
            0,
            true,
            rng,
        );
        for u in learned {
            remember_new(unavoidable, u, grid);
        }
        p = q;
        loaded = q_loaded;
        spare = found_spare;
        filled = q_filled;
    }
    None
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::count_solutions;

    #[test]
    fn unavoidable_sets_are_unavoidable() {
        let mut rng = rng_for(12, 0);
        for _ in 0..5 {
            let g = random_grid(&mut rng);
            let sets = unavoidable_sets(&g);
            assert!(sets.len() >= 36, "every digit pair gives at least one");
            for u in sets {
                assert!(u.len() >= 4 && u.len() <= 18, "{u:?}");
                let p = without(&g.to_puzzle(), u);
                assert_eq!(count_solutions(&p, 2).count, 2, "{u:?}");
            }
        }
    }

    #[test]
    fn other_solution_agrees_with_a_count_to_two() {
        let mut rng = rng_for(21, 0);
        // Not minimal, so that some removals keep the puzzle proper.
        let config = GenerateConfig {
            givens: Some((36, 36)),
            ..GenerateConfig::default()
        };
        let (mut found, mut none) = (0, 0);
        for _ in 0..40 {
            let Some(g) = generate_one(&config, &mut rng) else {
                continue;
            };
            let givens: Vec<Cell> = g.puzzle.filled().iter().collect();
            for k in 1..=3 {
                let mut pick = givens.clone();
                shuffle(&mut pick, &mut rng);
                let cells: CellSet = pick[..k].iter().copied().collect();
                let q = without(&g.puzzle, cells);
                let two = count_solutions(&q, 2).count == 2;
                match other_solution(&g.puzzle, cells, &g.solution) {
                    Some(h) => {
                        found += 1;
                        assert!(two);
                        assert_ne!(h, g.solution);
                        // `h` keeps every given of `q`.
                        assert!(q.filled().iter().all(|c| h.get(c) == g.solution.get(c)));
                    }
                    None => {
                        none += 1;
                        assert!(!two);
                    }
                }
            }
        }
        assert!(found > 0 && none > 0, "{found} {none}");
    }

    #[test]
    fn group_tested_digging_equals_one_by_one_digging() {
        let mut rng = rng_for(13, 0);
        for _ in 0..10 {
            let g = random_grid(&mut rng);
            let mut order: Vec<CellSet> = Cell::all().map(CellSet::single).collect();
            shuffle(&mut order, &mut rng);
            let mut plain = g.to_puzzle();
            for &o in &order {
                if still_unique(&plain, o, &g) {
                    plain = without(&plain, o);
                }
            }
            // Both kinds of search: in increasing order and near the grid.
            for near in [false, true] {
                let target = SolutionGrid::new(g, near);
                let mut d = Digger {
                    grid: &target,
                    unavoidable: &unavoidable_sets(&g),
                    learned: Vec::new(),
                    learn: true,
                    p: g.to_puzzle(),
                    solver: Solver::new(&g.to_puzzle()),
                    filled: CellSet::ALL,
                    givens: 81,
                    spare: CellSet::EMPTY,
                    reasons: &mut NO_REASON.clone(),
                };
                d.dig(&order, 0);
                assert_eq!(d.p, plain);
            }
        }
    }

    #[test]
    fn half_turn_grids_have_a_half_turn_automorphism() {
        let mut rng = rng_for(15, 0);
        for _ in 0..50 {
            let g = half_turn_grid(&mut rng);
            // A valid grid: the checked conversion from a full puzzle.
            assert!(Grid::try_from(g.to_puzzle()).is_ok());
            // The half turn maps each digit's cells onto one digit's cells, one digit fixed.
            let b = g.as_bytes();
            let mut sigma = [0u8; 10];
            for (i, &x) in b.iter().enumerate() {
                let (x, y) = (x as usize, b[80 - i]);
                assert!(sigma[x] == 0 || sigma[x] == y, "{}", g.to_line());
                sigma[x] = y;
            }
            assert_eq!((1..10).filter(|&v| sigma[v] as usize == v).count(), 1);
            // So the half turn of an unavoidable set is unavoidable.
            for u in unavoidable_sets(&g).into_iter().take(8) {
                let p = without(&g.to_puzzle(), half_turn(u));
                assert_eq!(count_solutions(&p, 2).count, 2, "{u:?}");
            }
        }
    }

    #[test]
    fn cells_a_dig_finds_spare_can_be_removed_alone() {
        // A dig of an orbit-minimal puzzle removes nothing, so each kept orbit is tested against
        // the puzzle itself: a cell it reports spare can be removed alone, and its orbit is weak.
        let mut rng = rng_for(17, 0);
        let orbits = Symmetry::Rot180.orbit_table();
        let mut spares = 0;
        for _ in 0..40 {
            let g = random_grid(&mut rng);
            let grid = SolutionGrid::new(g, true);
            let known = unavoidable_sets(&g);
            let (p, _, _) = dig(g.to_puzzle(), &grid, &known, orbits, 0, true, &mut rng);
            let (q, _, spare) = dig(p, &grid, &[], orbits, 0, true, &mut rng);
            assert_eq!(q, p);
            assert!((spare & !givens_of(&p)).is_empty());
            for c in spare.iter() {
                spares += 1;
                let r = without(&p, CellSet::single(c));
                assert_eq!(count_solutions(&r, 2).count, 1, "{c:?} is necessary in {p}");
            }
        }
        // Weak orbits are common (about 5 an orbit-minimal puzzle): the test saw some.
        assert!(spares >= 10, "{spares} spare cells");
    }

    #[test]
    fn the_pair_test_answers_as_a_count_and_learns_witnesses() {
        // Orbit-minimal rot180 puzzles with three empty orbits given again, so that some pair
        // orbits can be removed and others not; each pair orbit's test against counts.
        let mut rng = rng_for(19, 0);
        let orbits = Symmetry::Rot180.orbit_table();
        let (mut removed, mut witnesses, mut spares) = (0, 0, 0);
        for _ in 0..30 {
            let g = random_grid(&mut rng);
            let mut grid = SolutionGrid::new(g, true);
            grid.light = true;
            let known = unavoidable_sets(&g);
            let (mut p, _, _) = dig(g.to_puzzle(), &grid, &known, orbits, 0, true, &mut rng);
            let mut empty = filtered(orbits, |&o| (o & givens_of(&p)).is_empty());
            shuffle(&mut empty, &mut rng);
            for &o in empty.iter().take(3) {
                p = with(&p, o, &g);
            }
            let filled = givens_of(&p);
            for &f in orbits
                .iter()
                .filter(|&&o| o.len() == 2 && (o & filled) == o)
            {
                let q = without(&p, f);
                let a = f.iter().next().expect("a pair");
                let a_alone = count_solutions(&without(&p, CellSet::single(a)), 2).count == 1;
                match grid.pair_test(Solver::new(&q), f) {
                    None => {
                        assert_eq!(count_solutions(&q, 2).count, 1, "{f:?} of {p}");
                        removed += 1;
                    }
                    Some((h, spare)) => {
                        assert_ne!(h, g);
                        assert!(filled.iter().all(|c| f.contains(c) || h.get(c) == g.get(c)));
                        assert_eq!(spare, a_alone, "{a:?} of {p}");
                        if spare {
                            spares += 1;
                        } else {
                            // A witness: the difference meets the givens in `a` alone.
                            assert_eq!(difference(&h, &g) & filled, CellSet::single(a));
                            witnesses += 1;
                        }
                    }
                }
            }
        }
        assert!(
            removed > 0 && witnesses > 0 && spares > 0,
            "{removed} {witnesses} {spares}"
        );
    }

    #[test]
    fn repair_gives_minimal_puzzles_on_both_kinds_of_grid() {
        // The two branches of a rot180 minimal attempt, each checked cell by cell by a
        // count-to-two search: uniform grids (the old walk) and grids with a half-turn
        // automorphism (partners' sets remembered, one cell tested an orbit).
        let mut rng = rng_for(16, 0);
        let orbits = Symmetry::Rot180.orbit_table();
        for half_turn in [false, true] {
            let mut made = 0;
            while made < 5 {
                let g = if half_turn {
                    half_turn_grid(&mut rng)
                } else {
                    random_grid(&mut rng)
                };
                let mut grid = SolutionGrid::new(g, true);
                grid.half_turn = half_turn;
                grid.light = true;
                let mut known = unavoidable_sets(&g);
                let mut reasons = NO_REASON;
                let (p, learned, spare, loaded, _) = dig_loaded(
                    g.to_puzzle(),
                    Solver::new(&g.to_puzzle()),
                    &grid,
                    &known,
                    &mut reasons,
                    orbits,
                    0,
                    true,
                    &mut rng,
                );
                assert!(
                    loaded.same_as(&Solver::new(&p)),
                    "the digger's state is the puzzle's"
                );
                let first_learned = known.len();
                remember(&mut known, learned, &grid);
                let walked = make_minimal(
                    p,
                    loaded,
                    spare,
                    &grid,
                    &mut known,
                    &mut reasons,
                    orbits,
                    &mut rng,
                );
                // Each set learned is new (`remember_new` adds the repair's without a look-up).
                for i in first_learned..known.len() {
                    assert!(!known[..i].contains(&known[i]), "set {i} learned twice");
                }
                let Some(p) = walked else {
                    continue;
                };
                made += 1;
                assert!(Symmetry::Rot180.holds_for(&p));
                let out = count_solutions(&p, 2);
                assert_eq!((out.count, out.solution), (1, Some(g)));
                for c in p.filled().iter() {
                    let q = without(&p, CellSet::single(c));
                    assert_eq!(count_solutions(&q, 2).count, 2, "{c:?} is removable");
                }
                // Every set remembered is unavoidable (the turned ones too).
                for &u in known.iter().rev().take(20) {
                    let q = without(&g.to_puzzle(), u);
                    assert_eq!(count_solutions(&q, 2).count, 2, "{u:?}");
                }
            }
        }
    }

    #[test]
    fn first_missed_finds_the_first_set_missed() {
        let mut rng = rng_for(31, 0);
        let g = random_grid(&mut rng);
        let sets = unavoidable_sets(&g);
        let mut hits = 0;
        // Every length, so that the tail after the chunks of four is tried too.
        for len in 0..sets.len().min(24) {
            for _ in 0..20 {
                let left = CellSet::from_bits(
                    ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
                        & ((1 << 81) - 1)
                        & ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128),
                );
                let want = sets[..len].iter().position(|&u| (u & left).is_empty());
                assert_eq!(first_missed(&sets[..len], left), want, "{len} {left:?}");
                hits += usize::from(want.is_some_and(|i| i > 0));
            }
        }
        assert!(hits > 20, "sets missed past the first: {hits}");
        assert_eq!(first_missed(&sets, CellSet::EMPTY), Some(0));
        assert_eq!(first_missed(&sets, CellSet::from_bits((1 << 81) - 1)), None);
    }

    #[test]
    fn differing_cells_compares_byte_by_byte() {
        let mut rng = rng_for(43, 0);
        for round in 0..3000 {
            let mut a = [0u8; 81];
            let mut b = [0u8; 81];
            for i in 0..81 {
                a[i] = (rng.next_u32() % 10) as u8;
                // Any byte, high bit included, in about one cell in `1 + round % 7`.
                b[i] = if rng.next_u32().is_multiple_of(1 + round % 7) {
                    rng.next_u32() as u8
                } else {
                    a[i]
                };
            }
            let want: CellSet = (0..81)
                .filter(|&i| a[i] != b[i])
                .map(Cell::from_index)
                .collect();
            assert_eq!(differing_cells(&a, &b), want);
            let filled: CellSet = (0..81)
                .filter(|&i| a[i] != 0)
                .map(Cell::from_index)
                .collect();
            assert_eq!(differing_cells(&a, &[0; 81]), filled);
        }
        assert_eq!(
            differing_cells(&[9; 81], &[0; 81]),
            CellSet::from_bits((1 << 81) - 1)
        );
    }

    #[test]
    fn the_choices_scans_agree_with_first_hitting() {
        // Random sets stand for the missed sets (the scans ask nothing of them but their cells),
        // growing one at a time as in `replace_orbit`; the pairs and the retained single
        // choices must give the choice `first_hitting` gives over the full lists each time.
        let mut rng = rng_for(41, 0);
        let sparse = |rng: &mut crate::grids::Rng| {
            CellSet::from_bits(
                ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
                    & ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
                    & ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
                    & ((1 << 81) - 1),
            )
        };
        let (mut separate, mut plain, mut none) = (0, 0, 0);
        for symmetry in [Symmetry::Rot180, Symmetry::MirrorH, Symmetry::Rot90] {
            let orbits = symmetry.orbits();
            for _ in 0..40 {
                let mut empty = orbits.clone();
                shuffle(&mut empty, &mut rng);
                empty.truncate(6 + below(&mut rng, 20));
                let mut all_pairs = Vec::new();
                let mut two = Vec::new();
                for i in 0..empty.len() {
                    for j in i + 1..empty.len() {
                        all_pairs.push(empty[i] | empty[j]);
                        two.push((i as u8, j as u8));
                    }
                }
                let mut singles = empty.clone();
                let mut missed = vec![sparse(&mut rng)];
                for _ in 0..70 {
                    // The pairs.
                    let want = first_hitting(&all_pairs, &missed).map(|k| all_pairs[k]);
                    let got = first_hitting_pair(&empty, &mut two, &missed)
                        .map(|k| empty[two[k].0 as usize] | empty[two[k].1 as usize]);
                    assert_eq!(got, want);
                    match want {
                        Some(e) if separated(&missed, e) => separate += 1,
                        Some(_) => plain += 1,
                        None => none += 1,
                    }
                    // The single orbits, with the list the retained scan keeps.
                    let full: Vec<CellSet> = empty.clone();
                    let want = first_hitting(&full, &missed).map(|k| full[k]);
                    let got = first_hitting_retain(&mut singles, &missed).map(|k| singles[k]);
                    assert_eq!(got, want);
                    // The missed sets of a move are found as a filter finds them.
                    let left = sparse(&mut rng) | sparse(&mut rng);
                    let filter: Vec<CellSet> = missed
                        .iter()
                        .copied()
                        .filter(|&u| (u & left).is_empty())
                        .collect();
                    assert_eq!(missed_by(&missed, left), filter);
                    missed.push(sparse(&mut rng));
                }
            }
        }
        // Every outcome was met (more than 64 sets: the old scan).
        assert!(
            separate > 50 && plain > 50 && none > 50,
            "{separate} {plain} {none}"
        );
        for o in Symmetry::Dihedral.orbits() {
            assert_eq!(orbit_len(o), o.len() as usize);
        }
        assert_eq!(orbit_len(CellSet::EMPTY), 0);
    }

    #[test]
    fn separated_asks_a_set_without_the_partner_for_each_cell() {
        let set =
            |cells: &[usize]| -> CellSet { cells.iter().map(|&i| Cell::from_index(i)).collect() };
        let e = set(&[10, 70]);
        // Both sets hold both cells: neither cell is alone in one.
        assert!(!separated(&[set(&[10, 70, 3]), set(&[10, 70, 5])], e));
        // One cell alone in a set, the other never.
        assert!(!separated(&[set(&[10, 3]), set(&[10, 70, 5])], e));
        // Each alone in a set of its own.
        assert!(separated(
            &[set(&[10, 3]), set(&[70, 5]), set(&[10, 70])],
            e
        ));
        // The centre is its own orbit.
        assert!(separated(&[set(&[40, 3])], set(&[40])));
    }

    #[test]
    fn orbit_counts() {
        let count = |s: Symmetry| s.orbits().len();
        assert_eq!(count(Symmetry::None), 81);
        assert_eq!(count(Symmetry::Rot180), 41);
        assert_eq!(count(Symmetry::Rot90), 21);
        assert_eq!(count(Symmetry::MirrorH), 45);
        assert_eq!(count(Symmetry::Diagonal), 45);
        assert_eq!(count(Symmetry::Dihedral), 15);
    }

    #[test]
    fn rot90_allows_only_0_or_1_mod_4() {
        for k in 17..=81 {
            assert_eq!(Symmetry::Rot90.allows_givens(k), k % 4 <= 1, "{k}");
        }
    }

    #[test]
    fn config_errors_explain_themselves() {
        let c = GenerateConfig {
            givens: Some((16, 16)),
            ..GenerateConfig::default()
        };
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("fewer than 17"));
        let c = GenerateConfig {
            givens: Some((22, 22)),
            symmetry: Symmetry::Rot90,
            ..GenerateConfig::default()
        };
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "no puzzle with rot90 symmetry has exactly 22 givens: its cells fall into orbits of 1 or 4 cells"
        );
    }

    #[test]
    fn refuses_minimal_puzzles_above_the_most_givens_known() {
        let minimal = |a, b| GenerateConfig {
            givens: Some((a, b)),
            minimal: true,
            ..GenerateConfig::default()
        };
        assert_eq!(
            minimal(41, 81).validate(),
            Err(ConfigError::MinimalTooManyGivens(41))
        );
        assert_eq!(minimal(40, 40).validate(), Ok(()));
        assert_eq!(minimal(30, 60).validate(), Ok(()));
    }

    #[test]
    fn items_of_a_range_draw_their_targets_uniformly() {
        let config = GenerateConfig {
            givens: Some((26, 61)),
            ..GenerateConfig::default()
        };
        let mut seen = [0usize; 82];
        for i in 0..3600 {
            let c = config.for_item(&mut rng_for(9, i));
            let (a, b) = c.givens.unwrap();
            assert_eq!(a, b);
            seen[a] += 1;
        }
        // 36 counts, 100 draws each expected: every one drawn, none far off.
        for (k, &n) in seen.iter().enumerate() {
            if (26..=61).contains(&k) {
                assert!((50..=150).contains(&n), "{k}: {n}");
            } else {
                assert_eq!(n, 0, "{k}");
            }
        }
        // Rot90 allows only counts that are 0 or 1 mod 4.
        let rot90 = GenerateConfig {
            symmetry: Symmetry::Rot90,
            ..config.clone()
        };
        for i in 0..200 {
            let (t, _) = rot90.for_item(&mut rng_for(9, i)).givens.unwrap();
            assert!(t % 4 <= 1, "{t}");
        }
        // Minimal puzzles keep the range.
        let minimal = GenerateConfig {
            minimal: true,
            givens: Some((20, 30)),
            ..GenerateConfig::default()
        };
        assert_eq!(minimal.for_item(&mut rng_for(9, 0)), minimal);
    }

    #[test]
    fn symmetric_minimal_puzzles_are_minimal_cell_by_cell() {
        let mut rng = rng_for(14, 0);
        for s in [Symmetry::Rot180, Symmetry::MirrorH, Symmetry::Rot90] {
            let config = GenerateConfig {
                symmetry: s,
                minimal: true,
                ..GenerateConfig::default()
            };
            for _ in 0..8 {
                let g = loop {
                    if let Some(g) = generate_one(&config, &mut rng) {
                        break g;
                    }
                };
                assert!(s.holds_for(&g.puzzle), "{s}");
                assert_eq!(count_solutions(&g.puzzle, 2).count, 1, "{s}");
                // Each given alone, by a count-to-two search (not the forbidden-digit check).
                for c in g.puzzle.filled().iter() {
                    let q = without(&g.puzzle, CellSet::single(c));
                    assert_eq!(count_solutions(&q, 2).count, 2, "{s}: {c:?} is removable");
                }
            }
        }
    }

    #[test]
    fn dug_puzzle_is_proper_and_minimal() {
        let mut rng = rng_for(5, 0);
        for _ in 0..20 {
            let g = generate_one(&GenerateConfig::default(), &mut rng).unwrap();
            let out = count_solutions(&g.puzzle, 2);
            assert_eq!(out.count, 1);
            assert_eq!(out.solution.unwrap(), g.solution);
            assert!(is_minimal(&g.puzzle, &g.solution));
        }
    }

    #[test]
    fn symmetric_puzzles_hold_their_symmetry() {
        let mut rng = rng_for(6, 0);
        for s in Symmetry::ALL {
            let config = GenerateConfig {
                symmetry: s,
                ..GenerateConfig::default()
            };
            let g = generate_one(&config, &mut rng).unwrap();
            assert!(s.holds_for(&g.puzzle), "{s}");
            assert_eq!(count_solutions(&g.puzzle, 2).count, 1, "{s}");
        }
    }
}
