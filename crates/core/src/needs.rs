//! Techniques by name, for puzzles that need a chosen technique (`shudu generate --needs x-wing
//! --without chains`).
//!
//! The names are those of the grader's steps ([`crate::logic::next_step`], Sudoku Explainer's
//! techniques) and of the named techniques the hints recognise ([`crate::logic::named`]:
//! skyscraper, 2-string kite, empty rectangle, finned fish, simple colouring, W-Wing, ALS-XZ),
//! written in lower case with hyphens (`x-wing`, `2-string-kite`), plus families that stand for
//! several (`fish`, `chains`, `named`, ...): [`Technique`], [`TechniqueSet`], [`FAMILIES`].
//!
//! Which path a puzzle is checked on: the grader's (what `shudu explain` prints) when every
//! technique asked for or excluded is one of Sudoku Explainer's; the hints' (what
//! `shudu explain --named` prints: SE's path, except that a named technique replaces a chain
//! that SE would rate no lower) when a named technique is asked for or excluded, since the named
//! ones only appear there. [`path_techniques`] walks either.
//!
//! The search itself is in [`crate::rated`]; `docs/generate.md` ("Puzzles that need a
//! technique") says how it works.
//!
//! # Example
//! ```
//! use shudu_core::needs::{Technique, TechniqueSet};
//! let fish: TechniqueSet = "fish".parse()?;
//! assert!(fish.contains(Technique::XWing));
//! assert_eq!("x-wing".parse::<TechniqueSet>()?, TechniqueSet::single(Technique::XWing));
//! assert_eq!(Technique::of_step("Unique Rectangle type 2"), Some(Technique::UniqueRectangle));
//! # Ok::<(), shudu_core::needs::UnknownTechnique>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::grid::Puzzle;
use crate::logic::{self, named, Board, Rating};

/// A technique of the grader's path or of the hints', as `--needs` and `--without` name it.
///
/// The order is the grader's order of ratings (the named ones last), which `--list-techniques`
/// prints.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[allow(missing_docs)] // Each variant is documented by its row in `Technique::ALL`'s table.
pub enum Technique {
    FullHouse,
    HiddenSingle,
    DirectPointing,
    DirectClaiming,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriplet,
    Pointing,
    Claiming,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriplet,
    Swordfish,
    HiddenTriplet,
    XyWing,
    XyzWing,
    UniqueRectangle,
    UniqueLoop,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    Bug,
    AlignedPairExclusion,
    BidirectionalCycle,
    TurbotFish,
    ForcingXChain,
    ForcingChain,
    AlignedTripletExclusion,
    NishioForcingChains,
    MultipleForcingChains,
    DynamicForcingChains,
    DynamicForcingChainsPlus,
    NestedForcingChains,
    Skyscraper,
    TwoStringKite,
    EmptyRectangle,
    FinnedFish,
    SimpleColouring,
    WWing,
    AlsXz,
}

/// One row of the catalogue: the technique, its name on the command line, its name in the
/// path, and the ratings its steps take (tenths, both inclusive).
struct Row(Technique, &'static str, &'static str, u16, u16);

/// The catalogue, in [`Technique`] order. The ratings are the grader's (`docs/logic.md`); for
/// the named techniques, those that `logic::named` gives them (the cheapest SE chain making the
/// same eliminations: a skyscraper or 2-string kite is a 6.6 Turbot Fish).
const TABLE: [Row; 41] = [
    Row(Technique::FullHouse, "full-house", "Full House", 10, 10),
    Row(
        Technique::HiddenSingle,
        "hidden-single",
        "Hidden Single",
        12,
        15,
    ),
    Row(
        Technique::DirectPointing,
        "direct-pointing",
        "Direct Pointing",
        17,
        17,
    ),
    Row(
        Technique::DirectClaiming,
        "direct-claiming",
        "Direct Claiming",
        19,
        19,
    ),
    Row(
        Technique::DirectHiddenPair,
        "direct-hidden-pair",
        "Direct Hidden Pair",
        20,
        20,
    ),
    Row(
        Technique::NakedSingle,
        "naked-single",
        "Naked Single",
        23,
        23,
    ),
    Row(
        Technique::DirectHiddenTriplet,
        "direct-hidden-triplet",
        "Direct Hidden Triplet",
        25,
        25,
    ),
    Row(Technique::Pointing, "pointing", "Pointing", 26, 26),
    Row(Technique::Claiming, "claiming", "Claiming", 28, 28),
    Row(Technique::NakedPair, "naked-pair", "Naked Pair", 30, 30),
    Row(Technique::XWing, "x-wing", "X-Wing", 32, 32),
    Row(Technique::HiddenPair, "hidden-pair", "Hidden Pair", 34, 34),
    Row(
        Technique::NakedTriplet,
        "naked-triplet",
        "Naked Triplet",
        36,
        36,
    ),
    Row(Technique::Swordfish, "swordfish", "Swordfish", 38, 38),
    Row(
        Technique::HiddenTriplet,
        "hidden-triplet",
        "Hidden Triplet",
        40,
        40,
    ),
    Row(Technique::XyWing, "xy-wing", "XY-Wing", 42, 42),
    Row(Technique::XyzWing, "xyz-wing", "XYZ-Wing", 44, 44),
    Row(
        Technique::UniqueRectangle,
        "unique-rectangle",
        "Unique Rectangle",
        45,
        49,
    ),
    Row(Technique::UniqueLoop, "unique-loop", "Unique Loop", 46, 53),
    Row(Technique::NakedQuad, "naked-quad", "Naked Quad", 50, 50),
    Row(Technique::Jellyfish, "jellyfish", "Jellyfish", 52, 52),
    Row(Technique::HiddenQuad, "hidden-quad", "Hidden Quad", 54, 54),
    Row(Technique::Bug, "bug", "BUG", 56, 60),
    Row(
        Technique::AlignedPairExclusion,
        "aligned-pair-exclusion",
        "Aligned Pair Exclusion",
        62,
        62,
    ),
    Row(
        Technique::BidirectionalCycle,
        "bidirectional-cycle",
        "Bidirectional Cycle",
        65,
        75,
    ),
    Row(Technique::TurbotFish, "turbot-fish", "Turbot Fish", 66, 66),
    Row(
        Technique::ForcingXChain,
        "forcing-x-chain",
        "Forcing X-Chain",
        66,
        75,
    ),
    Row(
        Technique::ForcingChain,
        "forcing-chain",
        "Forcing Chain",
        70,
        80,
    ),
    Row(
        Technique::AlignedTripletExclusion,
        "aligned-triplet-exclusion",
        "Aligned Triplet Exclusion",
        75,
        75,
    ),
    Row(
        Technique::NishioForcingChains,
        "nishio-forcing-chains",
        "Nishio Forcing Chains",
        75,
        85,
    ),
    Row(
        Technique::MultipleForcingChains,
        "multiple-forcing-chains",
        "Cell or Region Forcing Chains",
        80,
        90,
    ),
    Row(
        Technique::DynamicForcingChains,
        "dynamic-forcing-chains",
        "Dynamic Forcing Chains",
        85,
        95,
    ),
    Row(
        Technique::DynamicForcingChainsPlus,
        "dynamic-forcing-chains-plus",
        "Dynamic Forcing Chains (+)",
        90,
        100,
    ),
    // SE's levels 2 to 5 (9.5, 10.0, 10.5, 11.0 plus length bonuses; the highest seen is 11.6),
    // and the grader's 10.5 fallback.
    Row(
        Technique::NestedForcingChains,
        "nested-forcing-chains",
        "Nested Forcing Chains",
        95,
        120,
    ),
    Row(Technique::Skyscraper, "skyscraper", "Skyscraper", 66, 66),
    Row(
        Technique::TwoStringKite,
        "2-string-kite",
        "2-String Kite",
        66,
        66,
    ),
    Row(
        Technique::EmptyRectangle,
        "empty-rectangle",
        "Empty Rectangle",
        66,
        70,
    ),
    Row(Technique::FinnedFish, "finned-fish", "Finned Fish", 66, 72),
    Row(
        Technique::SimpleColouring,
        "simple-colouring",
        "Simple Colouring",
        66,
        72,
    ),
    Row(Technique::WWing, "w-wing", "W-Wing", 70, 71),
    Row(Technique::AlsXz, "als-xz", "ALS-XZ", 70, 78),
];

impl Technique {
    /// Every technique, in catalogue order.
    pub const ALL: [Technique; 41] = {
        let mut all = [Technique::FullHouse; 41];
        let mut i = 0;
        while i < 41 {
            all[i] = TABLE[i].0;
            i += 1;
        }
        all
    };

    fn row(self) -> &'static Row {
        &TABLE[self as usize]
    }

    /// The name on the command line: `"x-wing"`, `"2-string-kite"`.
    pub fn slug(self) -> &'static str {
        self.row().1
    }

    /// The name as the path prints it: `"X-Wing"`, `"Unique Rectangle"` (all its types).
    pub fn name(self) -> &'static str {
        self.row().2
    }

    /// The ratings the technique's steps take, both ends inclusive. A path that uses it has an
    /// ER of at least the low end.
    pub fn ratings(self) -> (Rating, Rating) {
        (Rating(self.row().3), Rating(self.row().4))
    }

    /// Whether it is one of the named techniques that only the hints' path uses.
    pub fn is_named(self) -> bool {
        self >= Technique::Skyscraper
    }

    /// The technique a step of a path belongs to, by the step's technique name (`"Unique
    /// Rectangle type 3"`, `"Sashimi X-Wing"`, `"Dynamic Cell Forcing Chains (+)"`).
    pub fn of_step(technique: &str) -> Option<Technique> {
        if let Some(n) = named::Technique::of(technique) {
            return Some(match n {
                named::Technique::Skyscraper => Technique::Skyscraper,
                named::Technique::TwoStringKite => Technique::TwoStringKite,
                named::Technique::EmptyRectangle => Technique::EmptyRectangle,
                named::Technique::FinnedFish => Technique::FinnedFish,
                named::Technique::SimpleColouring => Technique::SimpleColouring,
                named::Technique::WWing => Technique::WWing,
                named::Technique::AlsXz => Technique::AlsXz,
            });
        }
        let t = match technique {
            "Cell Forcing Chains" | "Region Forcing Chains" => Technique::MultipleForcingChains,
            _ if technique.starts_with("Unique Rectangle") => Technique::UniqueRectangle,
            _ if technique.starts_with("Unique Loop") => Technique::UniqueLoop,
            _ if technique.starts_with("BUG") => Technique::Bug,
            _ if technique.starts_with("Bidirectional") => Technique::BidirectionalCycle,
            // SE's nested levels: "Dynamic Cell Forcing Chains (+ Forcing Chains)" and so on.
            _ if technique.starts_with("Dynamic") && technique.contains("(+ ") => {
                Technique::NestedForcingChains
            }
            _ if technique.starts_with("Dynamic") && technique.ends_with("(+)") => {
                Technique::DynamicForcingChainsPlus
            }
            _ if technique.starts_with("Dynamic") => Technique::DynamicForcingChains,
            _ => return TABLE.iter().find(|r| r.2 == technique).map(|r| r.0),
        };
        Some(t)
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

/// A set of techniques: one technique, or a family such as `fish`. A need given as a set is
/// met by any of its members; an exclusion excludes all of them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct TechniqueSet(u64);

impl TechniqueSet {
    /// No technique.
    pub const EMPTY: TechniqueSet = TechniqueSet(0);

    /// The set of one technique.
    pub const fn single(t: Technique) -> TechniqueSet {
        TechniqueSet(1 << t as u32)
    }

    /// The set of the techniques listed.
    pub const fn of(list: &[Technique]) -> TechniqueSet {
        let mut bits = 0u64;
        let mut i = 0;
        while i < list.len() {
            bits |= 1 << list[i] as u32;
            i += 1;
        }
        TechniqueSet(bits)
    }

    /// Whether `t` is in the set.
    pub fn contains(self, t: Technique) -> bool {
        self.0 >> t as u32 & 1 == 1
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the two sets share a technique.
    pub fn meets(self, other: TechniqueSet) -> bool {
        self.0 & other.0 != 0
    }

    /// The techniques of the set, in catalogue order.
    pub fn iter(self) -> impl Iterator<Item = Technique> {
        Technique::ALL
            .into_iter()
            .filter(move |&t| self.contains(t))
    }

    /// Whether some technique of the set is a named one (checked on the hints' path).
    pub fn has_named(self) -> bool {
        self.iter().any(Technique::is_named)
    }

    /// The lowest and highest ratings of the set's techniques (`None` for the empty set).
    pub fn ratings(self) -> Option<(Rating, Rating)> {
        let lo = self.iter().map(|t| t.ratings().0).min()?;
        let hi = self.iter().map(|t| t.ratings().1).max()?;
        Some((lo, hi))
    }

    /// The set's name: a family's name, a technique's slug, or the slugs joined with `|`.
    pub fn name(self) -> String {
        if let Some((name, _, _)) = FAMILIES.iter().find(|f| f.1 == self) {
            return (*name).to_string();
        }
        self.iter().map(|t| t.slug()).collect::<Vec<_>>().join("|")
    }
}

impl std::ops::BitOr for TechniqueSet {
    type Output = TechniqueSet;
    fn bitor(self, rhs: TechniqueSet) -> TechniqueSet {
        TechniqueSet(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for TechniqueSet {
    fn bitor_assign(&mut self, rhs: TechniqueSet) {
        self.0 |= rhs.0;
    }
}

impl fmt::Display for TechniqueSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The families: a name, its techniques, and what it covers.
pub const FAMILIES: [(&str, TechniqueSet, &str); 10] = [
    (
        "singles",
        TechniqueSet::of(&[
            Technique::FullHouse,
            Technique::HiddenSingle,
            Technique::NakedSingle,
        ]),
        "full house, hidden and naked single",
    ),
    (
        "intersections",
        TechniqueSet::of(&[
            Technique::DirectPointing,
            Technique::DirectClaiming,
            Technique::Pointing,
            Technique::Claiming,
        ]),
        "locked candidates: pointing and claiming, direct or not (also: locked-candidates)",
    ),
    (
        "subsets",
        TechniqueSet::of(&[
            Technique::DirectHiddenPair,
            Technique::DirectHiddenTriplet,
            Technique::NakedPair,
            Technique::HiddenPair,
            Technique::NakedTriplet,
            Technique::HiddenTriplet,
            Technique::NakedQuad,
            Technique::HiddenQuad,
        ]),
        "naked and hidden pairs, triplets, quads",
    ),
    (
        "fish",
        TechniqueSet::of(&[Technique::XWing, Technique::Swordfish, Technique::Jellyfish]),
        "X-Wing, Swordfish, Jellyfish (finned fish is named apart)",
    ),
    (
        "wings",
        TechniqueSet::of(&[Technique::XyWing, Technique::XyzWing]),
        "XY-Wing, XYZ-Wing (W-Wing is named apart)",
    ),
    (
        "uniqueness",
        TechniqueSet::of(&[
            Technique::UniqueRectangle,
            Technique::UniqueLoop,
            Technique::Bug,
        ]),
        "unique rectangles and loops, BUG",
    ),
    (
        "exclusion",
        TechniqueSet::of(&[
            Technique::AlignedPairExclusion,
            Technique::AlignedTripletExclusion,
        ]),
        "aligned pair and triplet exclusion",
    ),
    (
        "chains",
        TechniqueSet::of(&[
            Technique::BidirectionalCycle,
            Technique::TurbotFish,
            Technique::ForcingXChain,
            Technique::ForcingChain,
            Technique::NishioForcingChains,
            Technique::MultipleForcingChains,
            Technique::DynamicForcingChains,
            Technique::DynamicForcingChainsPlus,
            Technique::NestedForcingChains,
        ]),
        "every chain of the grader: cycles, X-chains, forcing chains of every kind",
    ),
    (
        "forcing-chains",
        TechniqueSet::of(&[
            Technique::NishioForcingChains,
            Technique::MultipleForcingChains,
            Technique::DynamicForcingChains,
            Technique::DynamicForcingChainsPlus,
            Technique::NestedForcingChains,
        ]),
        "Nishio, cell and region, dynamic and nested forcing chains",
    ),
    (
        "named",
        TechniqueSet::of(&[
            Technique::Skyscraper,
            Technique::TwoStringKite,
            Technique::EmptyRectangle,
            Technique::FinnedFish,
            Technique::SimpleColouring,
            Technique::WWing,
            Technique::AlsXz,
        ]),
        "the named techniques of the hints (explain --named)",
    ),
];

/// A technique or family name that is not in the catalogue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTechnique(pub String);

impl fmt::Display for UnknownTechnique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Technique::ALL.iter().map(|t| t.slug()).collect();
        let families: Vec<&str> = FAMILIES.iter().map(|f| f.0).collect();
        write!(
            f,
            "unknown technique '{}'; expected one of {}, or a family: {}",
            self.0,
            names.join(", "),
            families.join(", ")
        )
    }
}

impl std::error::Error for UnknownTechnique {}

impl FromStr for TechniqueSet {
    type Err = UnknownTechnique;

    /// A technique's slug or a family's name, ignoring case, spaces and underscores written for
    /// hyphens (`"X-Wing"`, `"xy_wing"`, `"2-String Kite"`), and `locked-candidates` for
    /// `intersections`.
    ///
    /// # Errors
    /// [`UnknownTechnique`] naming the input and listing the valid names.
    fn from_str(s: &str) -> Result<TechniqueSet, UnknownTechnique> {
        let key: String = s
            .trim()
            .chars()
            .map(|c| match c {
                ' ' | '_' => '-',
                c => c.to_ascii_lowercase(),
            })
            .collect();
        let key = match key.as_str() {
            "locked-candidates" => "intersections",
            "simple-coloring" => "simple-colouring",
            "bug+1" => "bug",
            k => k,
        };
        if let Some(t) = Technique::ALL.iter().find(|t| t.slug() == key) {
            return Ok(TechniqueSet::single(*t));
        }
        FAMILIES
            .iter()
            .find(|f| f.0 == key)
            .map(|f| f.1)
            .ok_or_else(|| UnknownTechnique(s.to_string()))
    }
}

/// Parses a comma-separated list of names (`"x-wing,xy-wing"`), each a technique or a family.
///
/// # Errors
/// [`UnknownTechnique`] for the first name not in the catalogue.
pub fn parse_list(s: &str) -> Result<Vec<TechniqueSet>, UnknownTechnique> {
    s.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(str::parse)
        .collect()
}

/// The catalogue as `--list-techniques` prints it: one technique a line with its ratings and
/// whether it is checked on the hints' path, then the families.
pub fn catalogue() -> String {
    use fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "{:<28} {:<10} name in the path", "technique", "rating");
    for t in Technique::ALL {
        let (lo, hi) = t.ratings();
        let r = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}-{hi}")
        };
        let note = if t.is_named() { " (hints' path)" } else { "" };
        let _ = writeln!(s, "{:<28} {:<10} {}{note}", t.slug(), r, t.name());
    }
    let _ = writeln!(s, "\nfamily");
    for (name, set, what) in FAMILIES {
        let _ = writeln!(
            s,
            "{name:<28} {what}: {}",
            set.iter().map(|t| t.slug()).collect::<Vec<_>>().join(", ")
        );
    }
    s
}

/// The techniques of a puzzle's path, in order (one entry a step): the grader's path
/// ([`logic::grade`]), or with `hints` the hints' path ([`logic::next_hint`] step after step, as
/// `shudu explain --named` walks it). Steps outside the catalogue do not occur; `None` entries
/// would mark them.
///
/// # Examples
/// ```
/// use shudu_core::{Puzzle, needs::{path_techniques, Technique}};
/// let p: Puzzle = "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
///     .parse()?;
/// assert!(path_techniques(&p, false).contains(&Some(Technique::HiddenSingle)));
/// # Ok::<(), shudu_core::ParseError>(())
/// ```
pub fn path_techniques(puzzle: &Puzzle, hints: bool) -> Vec<Option<Technique>> {
    if !hints {
        return logic::grade(puzzle)
            .steps
            .iter()
            .map(|s| Technique::of_step(s.technique))
            .collect();
    }
    let mut board = Board::new(puzzle);
    board.explain = false;
    let mut out = Vec::new();
    while let Some(step) = logic::next_hint(&board) {
        board.apply(&step);
        out.push(Technique::of_step(step.technique));
        if out.len() > 810 {
            break;
        }
    }
    out
}

/// Whether `puzzle`'s path uses a technique of each set of `needs` and none of `without`; the
/// path is the hints' if a named technique is asked for or excluded, else the grader's (see
/// the module docs).
pub fn satisfies(puzzle: &Puzzle, needs: &[TechniqueSet], without: TechniqueSet) -> bool {
    let hints = uses_hints(needs, without);
    let path = path_techniques(puzzle, hints);
    let used = path
        .iter()
        .flatten()
        .fold(TechniqueSet::EMPTY, |acc, &t| acc | TechniqueSet::single(t));
    needs.iter().all(|n| n.meets(used)) && !without.meets(used)
}

/// Whether puzzles for these needs are checked on the hints' path.
pub fn uses_hints(needs: &[TechniqueSet], without: TechniqueSet) -> bool {
    without.has_named() || needs.iter().any(|n| n.has_named())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_in_enum_order() {
        for (i, r) in TABLE.iter().enumerate() {
            assert_eq!(r.0 as usize, i, "{}", r.1);
            assert!(r.3 <= r.4, "{}", r.1);
        }
    }

    #[test]
    fn every_slug_parses_back() {
        for t in Technique::ALL {
            assert_eq!(
                t.slug().parse::<TechniqueSet>(),
                Ok(TechniqueSet::single(t))
            );
        }
        for (name, set, _) in FAMILIES {
            assert_eq!(name.parse::<TechniqueSet>(), Ok(set));
            assert_eq!(set.name(), name);
        }
        assert_eq!(
            "X-Wing".parse::<TechniqueSet>(),
            Ok(TechniqueSet::single(Technique::XWing))
        );
        let e = "x-wings".parse::<TechniqueSet>().unwrap_err().to_string();
        assert!(e.contains("'x-wings'") && e.contains("skyscraper") && e.contains("chains"));
    }

    #[test]
    fn step_names_map_to_techniques() {
        for (name, t) in [
            ("Hidden Single", Technique::HiddenSingle),
            ("Unique Loop (long) type 3", Technique::UniqueLoop),
            ("BUG type 1", Technique::Bug),
            ("Bidirectional X-Cycle", Technique::BidirectionalCycle),
            ("Region Forcing Chains", Technique::MultipleForcingChains),
            (
                "Dynamic Double Forcing Chains",
                Technique::DynamicForcingChains,
            ),
            (
                "Dynamic Cell Forcing Chains (+)",
                Technique::DynamicForcingChainsPlus,
            ),
            ("Sashimi Swordfish", Technique::FinnedFish),
            ("2-String Kite", Technique::TwoStringKite),
            ("Nested Forcing Chains", Technique::NestedForcingChains),
            (
                "Dynamic Region Forcing Chains (+ Forcing Chains)",
                Technique::NestedForcingChains,
            ),
            (
                "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))",
                Technique::NestedForcingChains,
            ),
        ] {
            assert_eq!(Technique::of_step(name), Some(t), "{name}");
        }
        assert_eq!(Technique::of_step("Swordfish"), Some(Technique::Swordfish));
    }
}
