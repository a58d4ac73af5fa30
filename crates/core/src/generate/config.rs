//! What to generate: [`GenerateConfig`] (givens, symmetry, minimality, uniqueness) with its
//! checks, the symmetries of the givens' pattern, and [`Generated`].

use super::*;

/// A map of (row, column) to (row, column).
pub(super) type CellMap = fn(usize, usize) -> (usize, usize);

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
    pub(super) fn generators(self) -> &'static [CellMap] {
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
    pub(super) fn orbit_table(self) -> &'static [CellSet] {
        static TABLES: OnceLock<Vec<Vec<CellSet>>> = OnceLock::new();
        let tables =
            TABLES.get_or_init(|| Symmetry::ALL.iter().map(|s| s.compute_orbits()).collect());
        let k = Symmetry::ALL
            .iter()
            .position(|&s| s == self)
            .expect("ALL lists every symmetry");
        &tables[k]
    }

    pub(super) fn compute_orbits(self) -> Vec<CellSet> {
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
    /// grids are uniformly random. See docs/generate.md, "Grids with a half-turn automorphism (`--automorphic`)".
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
