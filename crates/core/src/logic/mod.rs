//! Human-style logic: a step-by-step solver that rates puzzles on Sudoku Explainer's scale.
//!
//! The solver repeats one loop: ask each technique, easiest first, for a step; apply the first
//! step found. The techniques and their order are those of Sudoku Explainer 1.2.1 (SE), so the
//! ratings agree with SE's: ER is the hardest step of the path, EP the hardest up to the first
//! placement, ED the first step. See `docs/logic.md` for each technique, its rating, and where
//! this differs from SE.
//!
//! [`grade`] returns the path with every step put into words (for `shudu explain`); [`rate`]
//! walks the same path and returns the same ratings without the words, two to three times as
//! fast on puzzles that singles solve (for rating batches: `shudu grade`, the generator).
//!
//! # Example
//! ```
//! use shudu_core::{Puzzle, logic::{grade, Band, Rating}};
//! let p: Puzzle = "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
//!     .parse()?;
//! let g = grade(&p);
//! assert!(g.solved);
//! assert_eq!(g.er, Rating(15));
//! assert_eq!(g.band, Band::Easy);
//! # Ok::<(), shudu_core::ParseError>(())
//! ```
//!
//! # Module map
//! - [`singles`]: full house, hidden single, naked single.
//! - [`intersections`]: pointing and claiming (locked candidates), direct and not.
//! - [`subsets`]: naked and hidden pairs, triples, quads (and the direct hidden ones).
//! - [`fish`]: X-Wing, Swordfish, Jellyfish.
//! - [`wings`]: XY-Wing, XYZ-Wing.
//! - [`uniqueness`]: unique rectangles and loops, BUG.
//! - [`exclusion`]: aligned pair and triple exclusion.
//! - [`chains`]: X-, Y- and XY-cycles and forcing chains (Turbot Fish and kin).
//! - [`forcing`]: Nishio, multiple (cell, region) and dynamic forcing chains.
//! - [`find_technique`]: a step of one chosen technique, where an easier one may exist (for
//!   players practising it).
//! - [`named`]: techniques SE does not name (skyscraper, 2-string kite, empty rectangle, finned
//!   fish, simple colouring, W-Wing, ALS-XZ), rated where SE would place them, and
//!   [`next_hint`], which offers them in hints.

// Loops over cell and house indices read more plainly than iterator chains in this module.
#![allow(clippy::needless_range_loop)]

use std::fmt;

use crate::bitset::{Cell, Digit, DigitSet, House};
use crate::grid::Puzzle;
use crate::solver::{solve_unique_marked, Solutions};

mod budget;
pub mod chains;
pub mod exclusion;
mod find;
pub mod fish;
pub mod forcing;
pub mod intersections;
pub mod named;
mod nested;
mod potential;
pub mod singles;
pub mod subsets;
pub mod uniqueness;
pub mod wings;

pub use find::find_technique;
pub use named::next_hint;

/// The empty cells of `position` whose pencil marks leave out the digit `solution` puts there:
/// a player's mistake that hides every way forward. Cells without marks ([`DigitSet::ALL`], as
/// [`crate::format::parse_marks`] reads an empty field) never count.
pub fn marks_missing_solution(
    position: &Puzzle,
    marks: &[DigitSet; 81],
    solution: &crate::Grid,
) -> Vec<Cell> {
    Cell::all()
        .filter(|&c| position.get(c).is_none() && !marks[c.as_index()].contains(solution.get(c)))
        .collect()
}

/// A difficulty on Sudoku Explainer's scale, in tenths: `Rating(75)` is 7.5.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Rating(pub u16);

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// A named difficulty band, a range of SE ratings, cut where players feel the steps change
/// (docs/rated.md, "The bands"; anchored on HoDoKu's levels, QQWing's, Sudoku Exchange's and
/// sudoku.coach's buckets).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Band {
    /// 1.0 to 1.5: full houses and hidden singles.
    Easy,
    /// 1.6 to 2.5: naked singles and the direct intersections and subsets (a hidden single
    /// after one elimination).
    Medium,
    /// 2.6 to 4.0: locked candidates, naked and hidden pairs and triples, X-Wing, Swordfish.
    Hard,
    /// 4.1 to 6.1: XY-Wing, XYZ-Wing, uniqueness, quads, Jellyfish, BUG.
    Fiendish,
    /// 6.2 to 8.9: exclusions, chains and cycles, forcing chains.
    Diabolical,
    /// 9.0 and up: dynamic forcing chains and nested forcing chains.
    Extreme,
}

impl Band {
    /// All bands, easiest first.
    pub const ALL: [Band; 6] = [
        Band::Easy,
        Band::Medium,
        Band::Hard,
        Band::Fiendish,
        Band::Diabolical,
        Band::Extreme,
    ];

    /// The band a rating falls in.
    pub fn of(r: Rating) -> Band {
        match r.0 {
            0..=15 => Band::Easy,
            16..=25 => Band::Medium,
            26..=40 => Band::Hard,
            41..=61 => Band::Fiendish,
            62..=89 => Band::Diabolical,
            _ => Band::Extreme,
        }
    }

    /// The lowest and highest rating of the band (both inclusive; `Extreme` ends at 20.0).
    pub fn range(self) -> (Rating, Rating) {
        let (lo, hi) = match self {
            Band::Easy => (10, 15),
            Band::Medium => (16, 25),
            Band::Hard => (26, 40),
            Band::Fiendish => (41, 61),
            Band::Diabolical => (62, 89),
            Band::Extreme => (90, 200),
        };
        (Rating(lo), Rating(hi))
    }

    /// The band's name in lower case: `"easy"` to `"extreme"`.
    pub fn name(self) -> &'static str {
        match self {
            Band::Easy => "easy",
            Band::Medium => "medium",
            Band::Hard => "hard",
            Band::Fiendish => "fiendish",
            Band::Diabolical => "diabolical",
            Band::Extreme => "extreme",
        }
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A band name that is not one of the six.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BandParseError(pub String);

impl fmt::Display for BandParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown difficulty '{}'; expected one of easy, medium, hard, fiendish, diabolical, extreme",
            self.0
        )
    }
}

impl std::error::Error for BandParseError {}

impl std::str::FromStr for Band {
    type Err = BandParseError;

    /// Parses a band name, ignoring case.
    ///
    /// # Errors
    /// [`BandParseError`] naming the input and listing the valid names.
    fn from_str(s: &str) -> Result<Band, BandParseError> {
        let lower = s.trim().to_ascii_lowercase();
        Band::ALL
            .into_iter()
            .find(|b| b.name() == lower)
            .ok_or_else(|| BandParseError(s.to_string()))
    }
}

/// A position during solving: the givens, the placed digits, and the candidates of empty cells.
///
/// The invariant: a cell holds a digit if and only if its candidate set is empty and its value is
/// set; `givens` is a subset of the cells holding a digit.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    /// Digit of each cell, 0 if empty.
    pub(crate) values: [u8; 81],
    /// Candidate bits of each cell (bit `d - 1` for digit `d`), 0 for a filled cell.
    pub(crate) cands: [u16; 81],
    /// Which cells are givens.
    pub(crate) givens: [bool; 81],
    /// Empty cells of each house (by ordinal).
    pub(crate) house_empty: [u8; 27],
    /// Empty cells of the board.
    pub(crate) empty: u8,
    /// Whether steps found on this board are explained: their text, cells and houses. [`rate`]
    /// turns it off (it only needs the ratings and what each step places and removes).
    pub(crate) explain: bool,
}

impl Board {
    /// The board of a puzzle: its givens, and every candidate that no given rules out.
    pub fn new(puzzle: &Puzzle) -> Board {
        let mut b = Board {
            values: [0; 81],
            cands: [0x1FF; 81],
            givens: [false; 81],
            house_empty: [9; 27],
            empty: 81,
            explain: true,
        };
        for (i, &v) in puzzle.as_bytes().iter().enumerate() {
            if v != 0 {
                b.givens[i] = true;
                b.place(i, v);
            }
        }
        b
    }

    /// A player's position: the givens, the player's entries (a puzzle holding the givens and the
    /// entries; entries that are not givens count as placed digits), and optionally the player's
    /// own pencil marks. Without marks, every candidate that no digit rules out is kept. With
    /// marks, a cell's candidates are its marks minus the digits its peers hold.
    pub fn from_position(
        givens: &Puzzle,
        entries: &Puzzle,
        marks: Option<&[DigitSet; 81]>,
    ) -> Board {
        let mut b = Board::new(givens);
        for (i, &v) in entries.as_bytes().iter().enumerate() {
            if v != 0 && b.values[i] == 0 {
                b.place(i, v);
            }
        }
        if let Some(marks) = marks {
            for i in 0..81 {
                if b.values[i] == 0 {
                    b.cands[i] &= marks[i].bits();
                }
            }
        }
        b
    }

    /// The digit in `c`, if any.
    pub fn value(&self, c: Cell) -> Option<Digit> {
        Digit::new(self.values[c.as_index()])
    }

    /// The candidates of `c` (empty if it holds a digit).
    pub fn candidates(&self, c: Cell) -> DigitSet {
        DigitSet::from_bits(self.cands[c.as_index()])
    }

    /// Whether `c` is a given.
    pub fn is_given(&self, c: Cell) -> bool {
        self.givens[c.as_index()]
    }

    /// Applies a step: its placements (removing the digit from the peers), then its eliminations.
    pub fn apply(&mut self, step: &Step) {
        for &(c, d) in &step.placements {
            if self.values[c.as_index()] == 0 {
                self.place(c.as_index(), d.get());
            }
        }
        for &(c, d) in &step.eliminations {
            self.cands[c.as_index()] &= !(1 << d.as_index());
        }
    }

    /// Whether every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.empty == 0
    }

    /// The current digits as a puzzle.
    pub fn to_puzzle(&self) -> Puzzle {
        Puzzle::from_bytes(self.values).expect("values are digits")
    }

    /// Whether an empty cell has no candidate left, or a house has lost every place for a digit
    /// it still needs.
    pub(crate) fn is_broken(&self) -> bool {
        for i in 0..81 {
            if self.values[i] == 0 && self.cands[i] == 0 {
                return true;
            }
        }
        for h in 0..27 {
            let mut have = 0u16;
            for &c in &HOUSE_CELLS[h] {
                let c = c as usize;
                have |= self.cands[c];
                if self.values[c] != 0 {
                    have |= 1 << (self.values[c] - 1);
                }
            }
            if have != 0x1FF {
                return true;
            }
        }
        false
    }

    pub(crate) fn place(&mut self, i: usize, v: u8) {
        if self.values[i] == 0 {
            self.empty -= 1;
            for &h in &CELL_HOUSES[i] {
                self.house_empty[h as usize] -= 1;
            }
        }
        self.values[i] = v;
        self.cands[i] = 0;
        let bit = !(1u16 << (v - 1));
        for &p in &PEERS[i] {
            self.cands[p as usize] &= bit;
        }
    }

    /// The cells (bit `k` for the `k`-th cell of house `h`) where digit index `d` is a candidate.
    #[inline]
    pub(crate) fn positions(&self, h: usize, d: usize) -> u16 {
        let mut m = 0u16;
        for (k, &c) in HOUSE_CELLS[h].iter().enumerate() {
            m |= ((self.cands[c as usize] >> d) & 1) << k;
        }
        m
    }

    /// [`Board::house_positions`] of every house: one pass over the cells.
    pub(crate) fn places(&self) -> Places {
        let mut pos = [[0u16; 9]; 27];
        for c in 0..81 {
            let mut m = self.cands[c];
            if m == 0 {
                continue;
            }
            // The cell's three houses and its bit in each, from tables (no divisions).
            let [r, col, b] = CELL_HOUSES[c].map(usize::from);
            let [in_r, in_col, in_b] = CELL_PLACE_BITS[c];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                pos[r][d] |= in_r;
                pos[col][d] |= in_col;
                pos[b][d] |= in_b;
            }
        }
        pos
    }

    /// [`Board::positions`] of every digit in house `h` at once: one pass over its cells.
    #[inline]
    pub(crate) fn house_positions(&self, h: usize) -> [u16; 9] {
        let mut pos = [0u16; 9];
        for (k, &c) in HOUSE_CELLS[h].iter().enumerate() {
            let mut m = self.cands[c as usize];
            while m != 0 {
                pos[m.trailing_zeros() as usize] |= 1 << k;
                m &= m - 1;
            }
        }
        pos
    }

    /// Empty cells of house `h`.
    #[inline]
    pub(crate) fn empty_count(&self, h: usize) -> u32 {
        self.house_empty[h] as u32
    }

    /// A step's text, made only if steps on this board are explained (else empty).
    #[inline]
    pub(crate) fn say(&self, text: impl FnOnce() -> String) -> String {
        if self.explain {
            text()
        } else {
            String::new()
        }
    }

    /// A step's cells or houses, made only if steps on this board are explained (else empty).
    #[inline]
    pub(crate) fn show<T>(&self, list: impl FnOnce() -> Vec<T>) -> Vec<T> {
        if self.explain {
            list()
        } else {
            Vec::new()
        }
    }
}

/// The places of each digit in each house: `places[h][d]` has bit `k` set if digit index `d`
/// is a candidate of the `k`-th cell of house `h` ([`Board::places`]).
pub(crate) type Places = [[u16; 9]; 27];

/// One deduction: what it places and eliminates, what to look at, and how to say it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Step {
    /// SE's name of the technique, such as `"Hidden Single"` or `"X-Wing"`.
    pub technique: &'static str,
    /// The step's rating on SE's scale.
    pub rating: Rating,
    /// Digits the step places.
    pub placements: Vec<(Cell, Digit)>,
    /// Candidates the step removes.
    pub eliminations: Vec<(Cell, Digit)>,
    /// Candidates the step's reasoning removes on the way without applying them: a direct
    /// hint's eliminations (SE applies a direct pointing, claiming or hidden set as its
    /// placement alone), so that a player can be shown what the text says. Empty for every
    /// other step.
    pub shown_eliminations: Vec<(Cell, Digit)>,
    /// The cells a player should look at.
    pub cells: Vec<Cell>,
    /// The houses involved.
    pub houses: Vec<House>,
    /// A sentence a player understands.
    pub text: String,
    /// The part each house and cell plays, for drawing the step: given by fish, finned fish, the
    /// one-digit patterns (skyscraper, 2-string kite, empty rectangle) and W-Wing; `None` for
    /// every other step, and for every step on a board that is not explained. Boxed, so that a
    /// step stays small where it has none (the grader moves every step of a path).
    pub figure: Option<Box<Figure>>,
}

/// How a step is drawn: its base and cover sets, its fins and the links between its cells.
///
/// For an X-Wing on 5 in rows 2 and 7, columns 3 and 8: `base` is rows 2 and 7, `cover` columns
/// 3 and 8, and the links are the strong links r2c3-r2c8 and r7c3-r7c8.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Figure {
    /// The houses whose places for the digit the step confines (a fish's base lines).
    pub base: Vec<House>,
    /// The houses that then hold the digit and lose it elsewhere (a fish's cover lines).
    pub cover: Vec<House>,
    /// A finned fish's fins: places of the digit in a base line outside the cover.
    pub fins: Vec<Cell>,
    /// Links between two cells, in the order the reasoning follows them.
    pub links: Vec<Link>,
}

/// A link between two cells on one digit: strong if one of the two holds it (they are its only
/// places in a house), weak if at most one does (they see each other).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Link {
    /// The link's first cell.
    pub from: Cell,
    /// The link's second cell.
    pub to: Cell,
    /// Whether one of the two cells must hold the digit.
    pub strong: bool,
}

impl Link {
    /// A strong link between cell indices `a` and `b`.
    pub(crate) fn strong(a: usize, b: usize) -> Link {
        Link {
            from: cell(a),
            to: cell(b),
            strong: true,
        }
    }

    /// A weak link between cell indices `a` and `b`.
    pub(crate) fn weak(a: usize, b: usize) -> Link {
        Link {
            from: cell(a),
            to: cell(b),
            strong: false,
        }
    }
}

impl Step {
    /// Hint stage 1: which technique to look for.
    pub fn hint_technique(&self) -> String {
        format!("Look for {}.", with_article(self.technique))
    }

    /// Hint stage 2: where to look, naming houses only, never the step's cells (which would give
    /// the step away): its houses, or where it has none (chains), the boxes its cells lie in.
    ///
    /// A fish names its digit and the direction of its base lines only (rows or columns): its
    /// houses would pin its cells down.
    pub fn hint_where(&self) -> String {
        if let Some(f) = self.figure.as_deref().filter(|_| is_fish(self.technique)) {
            let digit = self.eliminations.first().or(self.placements.first());
            if let (Some(&(_, d)), Some(first)) = (digit, f.base.first()) {
                let lines = match first {
                    House::Row(_) => "rows",
                    House::Col(_) => "columns",
                    House::Box(_) => "boxes",
                };
                return format!(
                    "Look for {} on the digit {d}, with its base in {lines}.",
                    with_article(self.technique)
                );
            }
        }
        let mut out = format!("Look for {}", with_article(self.technique));
        let mut houses = self.houses.clone();
        if houses.is_empty() {
            for c in &self.cells {
                let b = House::Box(c.box_index() as u8);
                if !houses.contains(&b) {
                    houses.push(b);
                }
            }
            houses.sort_by_key(|h| h.ordinal());
        }
        if !houses.is_empty() {
            out.push_str(&format!(" in {}", house_list(&houses)));
        }
        out.push('.');
        out
    }
}

/// A technique's name as a hint says it: "an" before a name said with a vowel sound ("an
/// X-Wing", "an Empty Rectangle", "an ALS-XZ"), "a" before the others ("a Unique Rectangle", "a
/// 2-String Kite"), and no article before a plural or a mass noun ("Cell Forcing Chains",
/// "Pointing", "Direct Claiming").
fn with_article(technique: &str) -> String {
    let name = technique.split(" (").next().unwrap_or(technique);
    if ["Chains", "Cycles", "Pointing", "Claiming"]
        .iter()
        .any(|end| name.ends_with(end))
    {
        return technique.to_string();
    }
    let article = match technique.as_bytes().first() {
        Some(b'A' | b'E' | b'I' | b'O' | b'X') => "an",
        Some(b'U') if !technique.starts_with("Uni") => "an",
        _ => "a",
    };
    format!("{article} {technique}")
}

/// Whether a technique is a fish (X-Wing, Swordfish, Jellyfish, finned or sashimi or not).
fn is_fish(technique: &str) -> bool {
    ["X-Wing", "Swordfish", "Jellyfish"]
        .iter()
        .any(|f| technique.ends_with(f))
}

/// The outcome of grading a puzzle.
#[derive(Clone, Debug)]
pub struct Grade {
    /// The hardest step of the path.
    pub er: Rating,
    /// The hardest step up to and including the first placement.
    pub ep: Rating,
    /// The first step's rating.
    pub ed: Rating,
    /// The band of `er`.
    pub band: Band,
    /// Whether the path reached a full grid.
    pub solved: bool,
    /// The path, in order.
    pub steps: Vec<Step>,
    /// Each technique used and how often, in order of first use.
    pub techniques: Vec<(&'static str, usize)>,
}

impl Grade {
    /// The technique of the path's hardest step (the first one rated `er`), as
    /// [`Summary::hardest`]; empty for a path without steps.
    pub fn hardest(&self) -> &'static str {
        self.steps
            .iter()
            .find(|s| s.rating == self.er)
            .map_or("", |s| s.technique)
    }
}

/// The easiest step available, in SE's order of techniques; `None` if the board is solved,
/// broken (a cell without candidates, a house without room for a digit), or beyond every
/// technique.
///
/// # Examples
/// ```
/// use shudu_core::{Puzzle, logic::{next_step, Board}};
/// let p: Puzzle = "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
///     .parse()?;
/// let step = next_step(&Board::new(&p)).expect("a step");
/// assert_eq!(step.technique, "Hidden Single");
/// assert_eq!(step.text, "In box 1, 3 can only go in r2c2: hidden single");
/// assert_eq!(step.hint_technique(), "Look for a Hidden Single.");
/// # Ok::<(), shudu_core::ParseError>(())
/// ```
///
/// # Complexity
/// Microseconds while singles and subsets apply; chains take up to milliseconds, nested forcing
/// chains (levels 2 to 5) up to seconds on the forum's hardest puzzles (see BENCHMARKS.md).
pub fn next_step(board: &Board) -> Option<Step> {
    if board.is_solved() || board.is_broken() {
        return None;
    }
    next_step_unchecked(board)
}

/// [`next_step`] without the check for a broken board (the grader's boards cannot break: every
/// step is sound on a puzzle with a solution). The generator's walks along paths use it: the
/// check scans every house at every step, a tenth of a walk's time.
pub(crate) fn next_step_unchecked(board: &Board) -> Option<Step> {
    basic_step(board).or_else(|| chain_step(board))
}

/// The steps up to BUG (rating 5.7 and below).
fn basic_step(board: &Board) -> Option<Step> {
    // Early returns rather than an `or_else` chain, which moved the step through every link
    // (measurable on easy puzzles: `benches/logic.rs`).
    macro_rules! try_technique {
        ($e:expr) => {
            if let Some(step) = $e {
                return Some(step);
            }
        };
    }
    try_technique!(singles::full_house_or_hidden_single(board));
    // The places of each digit in each house, found once for the rules below that need them
    // (the board does not change until one finds a step); both forms of locked candidates come
    // from one search.
    let places = board.places();
    let locks = intersections::Locks::new(&places);
    try_technique!(locks.step(board, true));
    // The search for direct hidden sets also finds the first plain one, asked for later.
    let hidden_pair = match subsets::hidden_sets(board, &places, 2, true) {
        Ok(step) => return Some(step),
        Err(first_plain) => first_plain,
    };
    try_technique!(singles::naked_single(board));
    let hidden_triple = match subsets::hidden_sets(board, &places, 3, true) {
        Ok(step) => return Some(step),
        Err(first_plain) => first_plain,
    };
    try_technique!(locks.step(board, false));
    try_technique!(subsets::naked_set(board, 2));
    try_technique!(fish::fish_in(board, &places, 2));
    try_technique!(hidden_pair.map(|s| subsets::plain_step(board, 2, s)));
    try_technique!(subsets::naked_set(board, 3));
    try_technique!(fish::fish_in(board, &places, 3));
    try_technique!(hidden_triple.map(|s| subsets::plain_step(board, 3, s)));
    try_technique!(wings::xy_wing(board, false));
    try_technique!(wings::xy_wing(board, true));
    try_technique!(uniqueness::unique_loops(board));
    try_technique!(subsets::naked_set(board, 4));
    try_technique!(fish::fish_in(board, &places, 4));
    try_technique!(subsets::hidden_sets(board, &places, 4, false)
        .err()
        .flatten()
        .map(|s| subsets::plain_step(board, 4, s)));
    try_technique!(uniqueness::bug(board));
    // Not `chain_step`: `grade` checks uniqueness before the costly chain rules (and once
    // called them twice when they found nothing); `next_step_unchecked` adds them itself.
    None
}

/// The steps from aligned pair exclusion on (6.2 and up): the costly ones.
fn chain_step(board: &Board) -> Option<Step> {
    chain_step_within(board, &budget::Budget::unlimited()).expect("an unlimited budget")
}

/// [`chain_step`] within a time budget, checked between the rules and inside the forcing
/// chains' searches: `Err(Spent)` if it ran out before the step was found (a nested step of
/// level 4 or 5 takes up to seconds, so a deadline between steps alone could be missed by
/// that much).
fn chain_step_within(
    board: &Board,
    budget: &budget::Budget,
) -> Result<Option<Step>, forcing::Spent> {
    macro_rules! try_technique {
        ($e:expr) => {
            if let Some(step) = $e {
                return Ok(Some(step));
            }
        };
    }
    try_technique!(exclusion::aligned_exclusion(board, 2));
    try_technique!(chains::static_chains(board));
    try_technique!(exclusion::aligned_exclusion(board, 3));
    // SE's forcing chains, then its nested ones: levels 2 and 3 ("advanced"), 4 and 5
    // ("experimental").
    use forcing::Mode::*;
    // Each mode's propagations continue the previous one's (see `forcing::Prefixes`).
    let mut prefixes = forcing::Prefixes::default();
    for mode in [
        Nishio,
        Multiple,
        Dynamic,
        DynamicPlus,
        Nested(2),
        Nested(3),
        Nested(4),
        Nested(5),
    ] {
        if budget.check() {
            return Err(forcing::Spent);
        }
        try_technique!(forcing::forcing_chains_within(
            board,
            mode,
            budget,
            &mut prefixes
        )?);
    }
    Ok(None)
}

/// The rating given to a step that no implemented technique finds: SE's rule list ends with
/// nested forcing chains of level 5 (11.0 and up), and a puzzle that even those cannot advance
/// (none seen) gets one placement rated 10.5, the middle of the nested levels' range, so that
/// every uniquely solvable puzzle is rated.
const FALLBACK_RATING: Rating = Rating(105);

/// Grades a puzzle: solves it with [`next_step`] until solved or stuck, and reports ER, EP, ED
/// and the path. [`rate`] gives the same ratings without the path, faster.
///
/// Never hangs: every technique is bounded, and each step removes at least one candidate. If no
/// technique applies to a uniquely solvable puzzle (not even SE's nested forcing chains of level
/// 5), one cell of the solution is placed as a step rated 10.5 ("Nested Forcing Chains"), so
/// every such puzzle is rated. A puzzle without a unique
/// solution is solved as far as the techniques up to BUG go; then `solved` is false (unless they
/// filled the grid).
///
/// # Complexity
/// Tens of microseconds for puzzles that singles solve; chains cost more (see BENCHMARKS.md).
pub fn grade(puzzle: &Puzzle) -> Grade {
    grade_marked(puzzle, None)
}

/// [`grade`] for a puzzle that may come with pencil marks (a pencil-mark record, see
/// [`crate::format::Record::marks`]): the path starts from the candidates of `marks` (less the
/// digits the givens rule out), and only grids that keep to the marks count as solutions.
///
/// # Examples
/// ```
/// use shudu_core::{format::marks_of, logic::{grade, grade_marked}, Digit, Puzzle};
/// let p: Puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
///     .parse()?;
/// let mut marks = marks_of(&p);
/// assert_eq!(grade_marked(&p, Some(&marks)).steps, grade(&p).steps);
/// // Marks without r1c3's solution digit 4: no grid keeps to them, and the path stops.
/// marks[2].remove(Digit::new(4).unwrap());
/// assert!(!grade_marked(&p, Some(&marks)).solved);
/// # Ok::<(), shudu_core::ParseError>(())
/// ```
pub fn grade_marked(puzzle: &Puzzle, marks: Option<&crate::format::Marks>) -> Grade {
    let mut board = Board::from_position(puzzle, puzzle, marks);
    // A step per empty cell at most, plus the steps that only remove candidates: reserving
    // room for those at once saves the copies of growing (`Step` is 176 bytes; measurable on
    // easy puzzles, where a step costs about 2,000 instructions).
    let mut steps = Vec::with_capacity(board.empty as usize + 16);
    let summary = solve_path(puzzle, marks, &mut board, |step| steps.push(step), &|| {
        false
    })
    .expect("never stopped");
    Grade {
        er: summary.er,
        ep: summary.ep,
        ed: summary.ed,
        band: summary.band,
        solved: summary.solved,
        steps,
        techniques: summary.techniques,
    }
}

/// What [`rate`] reports: a [`Grade`] without the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The hardest step of the path.
    pub er: Rating,
    /// The hardest step up to and including the first placement.
    pub ep: Rating,
    /// The first step's rating.
    pub ed: Rating,
    /// The band of `er`.
    pub band: Band,
    /// Whether the path reached a full grid.
    pub solved: bool,
    /// How many steps the path has.
    pub steps: usize,
    /// Each technique used and how often, in order of first use.
    pub techniques: Vec<(&'static str, usize)>,
    /// The technique of the path's hardest step (the first one rated `er`): what the puzzle
    /// needs. Empty for a path without steps.
    pub hardest: &'static str,
}

/// Rates a puzzle: the same path and ratings as [`grade`], without keeping the steps or putting
/// them into words (their texts, cells and houses are never made). This is what rating a batch
/// of puzzles needs (`shudu grade`, the generator, the game's pool).
///
/// # Examples
/// ```
/// use shudu_core::{Puzzle, logic::{grade, rate}};
/// let p: Puzzle = "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
///     .parse()?;
/// let (r, g) = (rate(&p), grade(&p));
/// assert_eq!((r.er, r.ep, r.ed, r.steps), (g.er, g.ep, g.ed, g.steps.len()));
/// // The hardest step's technique: the first step of the path rated ER.
/// let first_er = g.steps.iter().find(|s| s.rating == g.er).unwrap();
/// assert_eq!(r.hardest, first_er.technique);
/// # Ok::<(), shudu_core::ParseError>(())
/// ```
///
/// # Complexity
/// As [`grade`], less the cost of the words: about half on puzzles that singles solve.
pub fn rate(puzzle: &Puzzle) -> Summary {
    rate_marked(puzzle, None)
}

/// [`rate`] for a puzzle that may come with pencil marks: the path of [`grade_marked`].
pub fn rate_marked(puzzle: &Puzzle, marks: Option<&crate::format::Marks>) -> Summary {
    let mut board = Board::from_position(puzzle, puzzle, marks);
    board.explain = false;
    solve_path(puzzle, marks, &mut board, drop, &|| false).expect("never stopped")
}

/// [`rate`], stopped as soon as `stop()` says so (a deadline passed, the client left): `None`
/// then, "not rated within the budget". A server bounds the work of one request with it.
/// `stop()` is asked before each step and, inside the costly steps, between the units of the
/// forcing chains' searches (each cell's assumptions; each inner search of a nested chain), so
/// a step in progress gives up within milliseconds of `stop()` turning true, even a
/// nested step of level 4 or 5 that would take seconds. With a `stop` that never says so, the
/// result is [`rate`]'s: a puzzle with a unique solution always gets a rating.
///
/// # Examples
/// ```
/// use shudu_core::{Puzzle, logic::{rate, rate_until}};
/// let p: Puzzle = "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
///     .parse()?;
/// assert_eq!(rate_until(&p, &|| false), Some(rate(&p)));
/// assert_eq!(rate_until(&p, &|| true), None);
/// # Ok::<(), shudu_core::ParseError>(())
/// ```
pub fn rate_until(puzzle: &Puzzle, stop: &dyn Fn() -> bool) -> Option<Summary> {
    let mut board = Board::new(puzzle);
    board.explain = false;
    solve_path(puzzle, None, &mut board, drop, stop)
}

/// [`rate_until`] for a puzzle that may come with pencil marks: the path of [`grade_marked`],
/// given up (`None`) as soon as `stop()` says so between two steps.
///
/// # Examples
/// ```
/// use shudu_core::{format::marks_of, Puzzle, logic::{rate_marked, rate_marked_until}};
/// let p: Puzzle = "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
///     .parse()?;
/// let marks = marks_of(&p);
/// assert_eq!(rate_marked_until(&p, Some(&marks), &|| false), Some(rate_marked(&p, Some(&marks))));
/// assert_eq!(rate_marked_until(&p, Some(&marks), &|| true), None);
/// # Ok::<(), shudu_core::ParseError>(())
/// ```
pub fn rate_marked_until(
    puzzle: &Puzzle,
    marks: Option<&crate::format::Marks>,
    stop: &dyn Fn() -> bool,
) -> Option<Summary> {
    let mut board = Board::from_position(puzzle, puzzle, marks);
    board.explain = false;
    solve_path(puzzle, marks, &mut board, drop, stop)
}

/// The loop of [`grade`] and [`rate`]: applies the easiest step until the board is solved or
/// stuck, handing each step to `keep`; `None` if `stop()` said so before a step.
fn solve_path(
    puzzle: &Puzzle,
    marks: Option<&crate::format::Marks>,
    board: &mut Board,
    mut keep: impl FnMut(Step),
    stop: &dyn Fn() -> bool,
) -> Option<Summary> {
    // The solution is only needed when the techniques run out, so it is found lazily.
    let mut solution: Option<Option<crate::grid::Grid>> = None;
    let broken = board.is_broken();
    let mut tally = Tally::default();
    let budget = budget::Budget::new(stop);
    while !board.is_solved() && !broken {
        if budget.check() {
            return None;
        }
        let step = match basic_step(board) {
            Some(s) => s,
            None => {
                // Chains are costly, and on a puzzle without a unique solution they could
                // search a long time for nothing: check uniqueness first (once).
                let sol =
                    solution.get_or_insert_with(|| match solve_unique_marked(puzzle, marks) {
                        Solutions::Unique(g) => Some(g),
                        _ => None,
                    });
                let Some(sol) = sol else { break };
                match chain_step_within(board, &budget) {
                    Ok(Some(s)) => s,
                    Ok(None) if !board.is_broken() => fallback_step(board, sol),
                    Ok(None) => break,
                    Err(forcing::Spent) => return None,
                }
            }
        };
        tally.add(&step);
        board.apply(&step);
        keep(step);
        // Every step places a digit or removes a candidate, so at most 810 steps are possible;
        // the cap only documents the bound.
        if tally.steps > 810 {
            break;
        }
    }
    Some(tally.summary(board.is_solved()))
}

/// The ratings of a path so far, step by step: what its [`Summary`] reports.
#[derive(Default)]
pub(crate) struct Tally {
    er: Rating,
    ep: Rating,
    ed: Rating,
    placed_yet: bool,
    steps: usize,
    techniques: Vec<(&'static str, usize)>,
    hardest: &'static str,
}

impl Tally {
    /// Counts the next step of the path.
    pub(crate) fn add(&mut self, step: &Step) {
        if self.steps == 0 {
            self.ed = step.rating;
        }
        if self.steps == 0 || step.rating > self.er {
            self.hardest = step.technique;
        }
        self.er = self.er.max(step.rating);
        if !self.placed_yet {
            self.ep = self.ep.max(step.rating);
            self.placed_yet = !step.placements.is_empty();
        }
        match self
            .techniques
            .iter_mut()
            .find(|(t, _)| *t == step.technique)
        {
            Some(e) => e.1 += 1,
            None => self.techniques.push((step.technique, 1)),
        }
        self.steps += 1;
    }

    /// The summary of the path, which reached a full grid if `solved`.
    pub(crate) fn summary(self, solved: bool) -> Summary {
        Summary {
            er: self.er,
            ep: self.ep,
            ed: self.ed,
            band: Band::of(self.er),
            solved,
            steps: self.steps,
            techniques: self.techniques,
            hardest: self.hardest,
        }
    }
}

fn fallback_step(board: &Board, sol: &crate::grid::Grid) -> Step {
    // The empty cell with the fewest candidates: the one a player would guess at.
    let i = (0..81)
        .filter(|&i| board.values[i] == 0)
        .min_by_key(|&i| board.cands[i].count_ones())
        .expect("an unsolved board has an empty cell");
    let c = Cell::from_index(i);
    let d = sol.get(c);
    Step {
        technique: "Nested Forcing Chains",
        rating: FALLBACK_RATING,
        placements: vec![(c, d)],
        shown_eliminations: vec![],
        figure: Default::default(),
        eliminations: vec![],
        cells: vec![c],
        houses: vec![],
        text: format!("Nested forcing chains (beyond this solver's depth) prove {c} is {d}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Shared tables. House ordinals follow `House::ordinal`: rows 0-8, columns 9-17, boxes 18-26.

const fn house_cells() -> [[u8; 9]; 27] {
    let mut t = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            t[i][k] = (i * 9 + k) as u8;
            t[9 + i][k] = (k * 9 + i) as u8;
            let (br, bc) = ((i / 3) * 3, (i % 3) * 3);
            t[18 + i][k] = ((br + k / 3) * 9 + bc + k % 3) as u8;
            k += 1;
        }
        i += 1;
    }
    t
}

/// The nine cells of each house, in row-major order.
pub(crate) static HOUSE_CELLS: [[u8; 9]; 27] = house_cells();

/// Each list of cells as a mask over the 81 cells.
const fn masks<const N: usize, const M: usize>(lists: [[u8; M]; N]) -> [u128; N] {
    let mut t = [0u128; N];
    let mut i = 0;
    while i < N {
        let mut k = 0;
        while k < M {
            t[i] |= 1 << lists[i][k];
            k += 1;
        }
        i += 1;
    }
    t
}

/// The cells of each house, as a mask over the 81 cells (bit `c` for cell `c`).
pub(crate) static HOUSE_MASK: [u128; 27] = masks(house_cells());

const fn cell_houses() -> [[u8; 3]; 81] {
    let mut t = [[0u8; 3]; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        t[i] = [r as u8, (9 + c) as u8, (18 + (r / 3) * 3 + c / 3) as u8];
        i += 1;
    }
    t
}

/// Row, column and box ordinal of each cell.
pub(crate) static CELL_HOUSES: [[u8; 3]; 81] = cell_houses();

/// Each cell's bit in the places of its row, column and box ([`Board::places`]): bit `k` for
/// the `k`-th cell of the house.
static CELL_PLACE_BITS: [[u16; 3]; 81] = {
    let mut t = [[0u16; 3]; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        t[i] = [1 << c, 1 << r, 1 << ((r % 3) * 3 + c % 3)];
        i += 1;
    }
    t
};

const fn peers() -> [[u8; 20]; 81] {
    let mut t = [[0u8; 20]; 81];
    let mut i = 0;
    while i < 81 {
        let mut n = 0;
        let mut j = 0;
        while j < 81 {
            if j != i
                && (j / 9 == i / 9
                    || j % 9 == i % 9
                    || ((j / 27) == (i / 27) && (j % 9) / 3 == (i % 9) / 3))
            {
                t[i][n] = j as u8;
                n += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
}

/// The 20 peers of each cell, in increasing order.
pub(crate) static PEERS: [[u8; 20]; 81] = peers();

/// The peers of each cell, as a mask over the 81 cells.
pub(crate) static PEER_MASK: [u128; 81] = masks(peers());

/// The houses in SE's scanning order for most rules: boxes, rows, columns.
pub(crate) static SE_BRC: [u8; 27] = [
    18, 19, 20, 21, 22, 23, 24, 25, 26, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    17,
];

/// The houses in SE's order for subsets: boxes, columns, rows.
pub(crate) static SE_BCR: [u8; 27] = [
    18, 19, 20, 21, 22, 23, 24, 25, 26, 9, 10, 11, 12, 13, 14, 15, 16, 17, 0, 1, 2, 3, 4, 5, 6, 7,
    8,
];

/// Whether two cells share a house (and differ).
#[inline]
pub(crate) fn sees(a: usize, b: usize) -> bool {
    a != b
        && (CELL_HOUSES[a][0] == CELL_HOUSES[b][0]
            || CELL_HOUSES[a][1] == CELL_HOUSES[b][1]
            || CELL_HOUSES[a][2] == CELL_HOUSES[b][2])
}

/// The `House` of an ordinal.
pub(crate) fn house(h: usize) -> House {
    match h {
        0..=8 => House::Row(h as u8),
        9..=17 => House::Col((h - 9) as u8),
        _ => House::Box((h - 18) as u8),
    }
}

pub(crate) fn cell(i: usize) -> Cell {
    Cell::from_index(i)
}

pub(crate) fn digit(d: usize) -> Digit {
    Digit::from_index(d)
}

/// Digit indices (0-8) of a candidate mask.
#[inline]
pub(crate) fn bits(mut m: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(d)
        }
    })
}

/// "r1c2, r3c4" for a list of cells.
pub(crate) fn cell_list(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// "row 1, column 3" for a list of houses.
pub(crate) fn house_list(houses: &[House]) -> String {
    houses
        .iter()
        .map(|h| h.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// "3, 7" for a mask of digits.
pub(crate) fn digit_list(m: u16) -> String {
    bits(m)
        .map(|d| (d + 1).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Eliminations in a plain sentence: "r1c2 and r1c5 can't be 3" when they share one digit, else
/// each cell's digits, "r4c4 can't be 1 or 3, and r5c4 can't be 1, 2 or 3" (cells in order of
/// first mention).
pub(crate) fn elim_list(elims: &[(Cell, Digit)]) -> String {
    fn and_list(items: &[String], last: &str) -> String {
        match items {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., end] => format!("{} {last} {end}", rest.join(", ")),
        }
    }
    let first = elims.first().map(|&(_, d)| d);
    if elims.iter().all(|&(_, d)| Some(d) == first) {
        let cells: Vec<String> = elims.iter().map(|(c, _)| c.to_string()).collect();
        return match first {
            Some(d) => format!("{} can't be {d}", and_list(&cells, "and")),
            None => String::new(),
        };
    }
    let mut by_cell: Vec<(Cell, Vec<String>)> = Vec::new();
    for &(c, d) in elims {
        match by_cell.iter_mut().find(|(x, _)| *x == c) {
            Some((_, ds)) => ds.push(d.to_string()),
            None => by_cell.push((c, vec![d.to_string()])),
        }
    }
    let parts: Vec<String> = by_cell
        .iter()
        .map(|(c, ds)| format!("{c} can't be {}", and_list(ds, "or")))
        .collect();
    match parts.as_slice() {
        [one] => one.clone(),
        [rest @ .., end] => format!("{}, and {end}", rest.join(", ")),
        [] => String::new(),
    }
}

#[allow(dead_code)]
/// Sorts and removes duplicate eliminations, and drops those that are not candidates.
pub(crate) fn clean_elims(board: &Board, elims: &mut Vec<(Cell, Digit)>) {
    elims.sort();
    elims.dedup();
    elims.retain(|(c, d)| board.cands[c.as_index()] & (1 << d.as_index()) != 0);
}

#[allow(dead_code)]
/// The rating bonus of SE for a chain of `complexity` nodes: 0.1 each time `complexity - 2`
/// passes 4, 6, 8, 12, 16, 24, 32, ... (the ceiling grows by 3/2 and 4/3 in turn).
pub(crate) fn length_bonus(complexity: usize) -> u16 {
    let length = complexity as i64 - 2;
    let mut ceil = 4i64;
    let mut added = 0;
    let mut odd = false;
    while length > ceil {
        added += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// The boards before every step along the paths of the first `n` puzzles of the extreme-band
/// test file, in path order, each with the step taken from it (the unit tests of the memos and
/// shortcuts walk these, since a memo's state depends on the boards seen before).
#[cfg(test)]
pub(crate) fn extreme_path_boards(n: usize) -> Vec<(Board, Step)> {
    let data = include_str!("../../tests/data/se_extreme.tsv");
    let mut boards = Vec::new();
    for line in data.lines().filter(|l| !l.starts_with('#')).skip(1).take(n) {
        let p: crate::grid::Puzzle = line.split('\t').next().unwrap().parse().unwrap();
        let mut board = Board::new(&p);
        board.explain = false;
        while let Some(step) = next_step(&board) {
            let before = board.clone();
            board.apply(&step);
            boards.push((before, step));
        }
    }
    boards
}

/// The boards before every step rated 6.2 or more along the paths of the first `n` puzzles of
/// the extreme-band test file, in path order: the chain steps, where the static chains, aligned
/// exclusion and the forcing chains run one board after the other.
#[cfg(test)]
pub(crate) fn extreme_chain_boards(n: usize) -> Vec<Board> {
    extreme_path_boards(n)
        .into_iter()
        .filter(|(_, step)| step.rating >= Rating(62))
        .map(|(board, _)| board)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_name_each_technique_with_its_article() {
        for (technique, said) in [
            ("Hidden Single", "a Hidden Single"),
            ("X-Wing", "an X-Wing"),
            ("Unique Rectangle type 1", "a Unique Rectangle type 1"),
            ("ALS-XZ", "an ALS-XZ"),
            ("Pointing", "Pointing"),
            ("Direct Claiming", "Direct Claiming"),
            ("Cell Forcing Chains", "Cell Forcing Chains"),
            (
                "Dynamic Region Forcing Chains (+ Forcing Chains)",
                "Dynamic Region Forcing Chains (+ Forcing Chains)",
            ),
            ("Bidirectional X-Cycle", "a Bidirectional X-Cycle"),
        ] {
            assert_eq!(with_article(technique), said);
        }
        assert!(is_fish("Finned Swordfish") && is_fish("X-Wing") && !is_fish("XY-Wing"));
    }

    #[test]
    fn places_are_the_positions_of_every_house() {
        // Along two extreme-band paths (boards with many candidates down to nearly solved).
        let boards = extreme_path_boards(2);
        assert!(boards.len() > 20);
        for (board, _) in &boards {
            let places = board.places();
            for h in 0..27 {
                for d in 0..9 {
                    assert_eq!(places[h][d], board.positions(h, d), "house {h} digit {d}");
                }
            }
        }
    }

    #[test]
    fn length_bonus_steps_at_se_ceilings() {
        assert_eq!(length_bonus(6), 0);
        assert_eq!(length_bonus(7), 1);
        assert_eq!(length_bonus(8), 1);
        assert_eq!(length_bonus(9), 2);
        assert_eq!(length_bonus(10), 2);
        assert_eq!(length_bonus(11), 3);
        assert_eq!(length_bonus(14), 3);
        assert_eq!(length_bonus(15), 4);
        assert_eq!(length_bonus(18), 4);
        assert_eq!(length_bonus(19), 5);
    }

    #[test]
    fn band_names_round_trip() {
        for b in Band::ALL {
            assert_eq!(b.name().parse::<Band>().unwrap(), b);
            let (lo, hi) = b.range();
            assert_eq!(Band::of(lo), b);
            assert_eq!(Band::of(hi), b);
        }
        let err = "nightmare".parse::<Band>().unwrap_err().to_string();
        assert!(err.contains("nightmare") && err.contains("diabolical"));
    }

    #[test]
    fn grade_stops_on_puzzles_without_a_unique_solution() {
        let g = grade(&Puzzle::empty());
        assert!(!g.solved);
        assert!(g.steps.is_empty());
        // Two equal givens in a row: no solution, nothing to do.
        let mut p = Puzzle::empty();
        p.set(Cell::at(0, 0), Digit::new(1));
        p.set(Cell::at(0, 1), Digit::new(1));
        assert!(!grade(&p).solved);
    }

    #[test]
    fn player_position_uses_entries_and_marks() {
        let givens: Puzzle =
            "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
                .parse()
                .unwrap();
        let mut entries = givens;
        entries.set(Cell::at(1, 1), Digit::new(3));
        let mut marks = [DigitSet::ALL; 81];
        marks[0] = DigitSet::single(Digit::new(2).unwrap());
        let b = Board::from_position(&givens, &entries, Some(&marks));
        assert_eq!(b.value(Cell::at(1, 1)), Digit::new(3));
        assert!(!b.is_given(Cell::at(1, 1)));
        assert_eq!(b.candidates(Cell::at(0, 0)).len(), 1);
        assert!(!b
            .candidates(Cell::at(0, 1))
            .contains(Digit::new(3).unwrap()));
        // With r1c1 marked 2 only, the next step is a single.
        let s = next_step(&b).unwrap();
        assert!(s.rating <= Rating(23));
        assert!(!s.hint_technique().is_empty() && !s.hint_where().is_empty());
    }

    #[test]
    fn every_step_of_a_path_applies_to_the_board() {
        let p: Puzzle =
            "9...46.......29.......7..23......2.58.....46..62....8.4......5..3.85.6..67..9...."
                .parse()
                .unwrap();
        let g = grade(&p);
        assert!(g.solved);
        assert_eq!(g.er, Rating(71));
        let mut b = Board::new(&p);
        for s in &g.steps {
            assert_eq!(next_step(&b).as_ref(), Some(s));
            b.apply(s);
        }
        assert!(b.is_solved());
        assert_eq!(Band::of(g.er), g.band);
        assert!(g.ep <= g.er && g.ed <= g.ep);
    }

    #[test]
    fn a_step_stays_small() {
        // The grader moves every step of a path: the figure is boxed so that the steps without
        // one (most) pay a pointer for it.
        assert_eq!(std::mem::size_of::<Step>(), 176);
    }

    #[test]
    fn eliminations_read_as_plain_sentences() {
        let e = |c: usize, d: u8| (cell(c), Digit::new(d).unwrap());
        assert_eq!(elim_list(&[e(30, 5)]), "r4c4 can't be 5");
        assert_eq!(
            elim_list(&[e(30, 5), e(39, 5), e(48, 5)]),
            "r4c4, r5c4 and r6c4 can't be 5"
        );
        assert_eq!(
            elim_list(&[e(30, 1), e(30, 3), e(39, 1), e(39, 2), e(39, 3)]),
            "r4c4 can't be 1 or 3, and r5c4 can't be 1, 2 or 3"
        );
    }

    #[test]
    fn rating_prints_one_decimal() {
        assert_eq!(Rating(75).to_string(), "7.5");
        assert_eq!(Rating(100).to_string(), "10.0");
    }

    #[test]
    fn tables_are_consistent() {
        for i in 0..81 {
            for &h in &CELL_HOUSES[i] {
                assert!(HOUSE_CELLS[h as usize].contains(&(i as u8)));
            }
            assert_eq!(
                PEERS[i].iter().map(|&p| p as usize).collect::<Vec<_>>(),
                (0..81).filter(|&j| sees(i, j)).collect::<Vec<_>>()
            );
        }
    }

    /// A forum puzzle (HardestDatabase110626) that SE 1.2.1 rates 10.3: nested chains of level
    /// 2 after three steps.
    const NESTED: &str =
        "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2";

    #[test]
    fn rate_until_asks_stop_inside_the_costly_steps() {
        let p: Puzzle = NESTED.parse().unwrap();
        let asked = std::cell::Cell::new(0usize);
        let summary = rate_until(&p, &|| {
            asked.set(asked.get() + 1);
            false
        })
        .expect("never stopped");
        assert_eq!(summary, rate(&p));
        // Once before each step, and many times inside the nested steps.
        assert!(
            asked.get() > 5 * summary.steps,
            "{} checks for {} steps",
            asked.get(),
            summary.steps
        );
    }

    #[test]
    fn rate_until_gives_up_when_stop_says_so_and_asks_no_more() {
        let p: Puzzle = NESTED.parse().unwrap();
        let steps = rate(&p).steps;
        let asked = std::cell::Cell::new(0usize);
        // More checks than there are steps: the budget runs out during the path.
        let limit = steps + 5;
        let r = rate_until(&p, &|| {
            asked.set(asked.get() + 1);
            asked.get() >= limit
        });
        assert_eq!(r, None, "not rated within the budget");
        assert_eq!(
            asked.get(),
            limit,
            "stop is not asked again once it said so"
        );
    }
}
