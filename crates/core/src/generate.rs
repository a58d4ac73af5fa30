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

use std::fmt;
use std::str::FromStr;

use rand::RngCore;

use crate::bitset::{Cell, CellSet};
use crate::grid::{Grid, Puzzle};
use crate::grids::random_grid;
use crate::solver::Solver;

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
    fn generators(self) -> &'static [fn(usize, usize) -> (usize, usize)] {
        const ROT180: fn(usize, usize) -> (usize, usize) = |r, c| (8 - r, 8 - c);
        const ROT90: fn(usize, usize) -> (usize, usize) = |r, c| (c, 8 - r);
        const MIRROR_H: fn(usize, usize) -> (usize, usize) = |r, c| (8 - r, c);
        const MIRROR_V: fn(usize, usize) -> (usize, usize) = |r, c| (r, 8 - c);
        const DIAG: fn(usize, usize) -> (usize, usize) = |r, c| (c, r);
        const ANTI: fn(usize, usize) -> (usize, usize) = |r, c| (8 - c, 8 - r);
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
        self.orbits()
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
        let mut reachable = vec![false; 82];
        reachable[0] = true;
        for o in self.orbits() {
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
}

impl Default for GenerateConfig {
    fn default() -> GenerateConfig {
        GenerateConfig {
            givens: None,
            symmetry: Symmetry::None,
            minimal: false,
            unique: true,
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
        }
        Ok(())
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

/// Whether removing the givens `cells` from `p` (proper, with solution `g`) keeps it proper.
fn still_unique(p: &Puzzle, cells: CellSet, g: &Grid) -> bool {
    let mut q = *p;
    for c in cells.iter() {
        q.set(c, None);
    }
    let base = Solver::new(&q);
    cells.iter().all(|c| {
        let mut s = base;
        s.forbid(c, g.get(c));
        !s.has_solution()
    })
}

/// Whether no single given of `p` (proper, with solution `g`) can be removed.
pub fn is_minimal(p: &Puzzle, g: &Grid) -> bool {
    p.filled()
        .iter()
        .all(|c| !still_unique(p, CellSet::single(c), g))
}

fn shuffle<T, R: RngCore>(v: &mut [T], rng: &mut R) {
    for i in (1..v.len()).rev() {
        let j = ((rng.next_u32() as u64 * (i as u64 + 1)) >> 32) as usize;
        v.swap(i, j);
    }
}

/// Digs `grid` down to a puzzle that is minimal over the orbits of `symmetry`, never going below
/// `floor` givens, trying the orbits in random order. (Orbits removed in the first bulk step are
/// never tested alone; that keeps minimality, since every given left is tested.)
fn dig<R: RngCore>(grid: &Grid, symmetry: Symmetry, floor: usize, rng: &mut R) -> Puzzle {
    let mut orbits = symmetry.orbits();
    shuffle(&mut orbits, rng);
    let mut p = grid.to_puzzle();
    let mut givens = 81;
    // The first removals from a full grid almost never break uniqueness, so the first orbits
    // holding up to BULK cells are removed together and checked once (a count-to-two search on a
    // puzzle this full is solved by propagation alone). If the check fails, dig one by one.
    const BULK: usize = 30;
    let mut start = 0;
    let mut bulk = p;
    let mut removed = 0;
    for o in &orbits {
        let k = o.len() as usize;
        if removed + k > BULK || givens - removed < floor + k {
            break;
        }
        for c in o.iter() {
            bulk.set(c, None);
        }
        removed += k;
        start += 1;
    }
    if crate::solver::count_solutions(&bulk, 2).count == 1 {
        p = bulk;
        givens -= removed;
    } else {
        start = 0;
    }
    for &o in &orbits[start..] {
        let k = o.len() as usize;
        if givens < floor + k {
            continue;
        }
        if still_unique(&p, o, grid) {
            for c in o.iter() {
                p.set(c, None);
            }
            givens -= k;
        }
    }
    p
}

/// Adds back givens from `grid`, whole orbits in random order, while they fit under `hi`, until
/// `p` has at least `lo` givens. Adding givens keeps a proper puzzle proper. Returns whether the
/// count landed in `lo..=hi` (it can miss when only large orbits are left).
fn fill_to<R: RngCore>(
    p: &mut Puzzle,
    grid: &Grid,
    symmetry: Symmetry,
    (lo, hi): (usize, usize),
    rng: &mut R,
) -> bool {
    let filled = p.filled();
    let mut empty: Vec<CellSet> = symmetry
        .orbits()
        .into_iter()
        .filter(|o| (*o & filled).is_empty())
        .collect();
    shuffle(&mut empty, rng);
    let mut givens = p.givens();
    for o in &empty {
        if givens >= lo {
            break;
        }
        let k = o.len() as usize;
        if givens + k <= hi {
            for c in o.iter() {
                p.set(c, Some(grid.get(c)));
            }
            givens += k;
        }
    }
    (lo..=hi).contains(&givens)
}

/// Makes one puzzle for `config` from a fresh random grid, or `None` if this attempt missed the
/// asked number of givens (the caller tries again with the same generator).
///
/// # Panics
/// If the config is invalid (see [`GenerateConfig::validate`]).
pub fn generate_one<R: RngCore>(config: &GenerateConfig, rng: &mut R) -> Option<Generated> {
    config.validate().expect("a validated config");
    let grid = random_grid(rng);
    let (lo, hi) = config.givens.unwrap_or((0, 81));
    if !config.unique {
        // Plain random digging, as the seed articles do it: no uniqueness check.
        let target = lo + ((rng.next_u32() as u64 * (hi - lo + 1) as u64) >> 32) as usize;
        let mut orbits = config.symmetry.orbits();
        shuffle(&mut orbits, rng);
        let mut p = grid.to_puzzle();
        let mut givens = 81;
        for o in orbits {
            let k = o.len() as usize;
            if givens >= target + k {
                for c in o.iter() {
                    p.set(c, None);
                }
                givens -= k;
            }
        }
        return (givens == target).then_some(Generated {
            puzzle: p,
            solution: grid,
        });
    }
    let mut p = dig(&grid, config.symmetry, lo, rng);
    let givens = p.givens();
    if givens > hi {
        return None;
    }
    if givens < lo {
        if config.minimal {
            return None;
        }
        if !fill_to(&mut p, &grid, config.symmetry, (lo, hi), rng) {
            return None;
        }
    }
    if config.minimal && config.symmetry != Symmetry::None && !is_minimal(&p, &grid) {
        return None;
    }
    Some(Generated {
        puzzle: p,
        solution: grid,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grids::rng_for;
    use crate::solver::count_solutions;

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
