//! Named techniques that other programs name and players ask for, beside Sudoku Explainer's:
//! skyscraper, 2-string kite, empty rectangle, finned and sashimi fish, simple colouring,
//! W-Wing and ALS-XZ. They are for hints only: [`grade`](super::grade) and
//! [`next_step`](super::next_step) stay pure SE, so ratings agree with SE's.
//!
//! Each technique is rated where SE would place it: the rating of the easiest SE step that makes
//! the same eliminations. SE 1.2.1 has none of these patterns as a rule; it proves their
//! eliminations with chains. So each elimination is rated by asking SE's own chain rules (the
//! code of [`chains`](super::chains) and [`forcing`](super::forcing)) for the cheapest chain that
//! disproves that candidate: a Forcing X-Chain (6.6 + length bonus; a skyscraper or a 2-string
//! kite is always a 6-node one, a Turbot Fish, 6.6), else a Forcing Chain with X- and Y-links
//! (7.0 +; a W-Wing is at most an 8-node one, 7.1), else a Nishio (7.5 +), Dynamic (8.5 +) or
//! Dynamic (+) (9.0 +) contradiction. A step removing several candidates is rated by its hardest
//! elimination. `docs/logic.md` ("Other named techniques") gives the reasoning and the figures.
//!
//! [`next_hint`] is the entry point for hints: SE's next step, unless that step is a chain
//! (rating 6.2 or more: the basic rules found nothing) and a named step rated no higher exists.
//!
//! # Example
//! ```
//! use shudu_core::logic::{named::{next_hint, Technique}, Board};
//! use shudu_core::Puzzle;
//! // A position where SE's next step is a 6.6 Turbot Fish: the hint names it a skyscraper.
//! let p: Puzzle = "..45..82.12...4.5..6.3.1.......672....5...4.......5...41.6.2...7.....1.4........."
//!     .parse()?;
//! let mut board = Board::new(&p);
//! while let Some(step) = shudu_core::logic::next_step(&board) {
//!     if step.rating.0 >= 62 {
//!         break;
//!     }
//!     board.apply(&step);
//! }
//! let hint = next_hint(&board).expect("a step");
//! assert_eq!(Technique::of(hint.technique), Some(Technique::Skyscraper));
//! assert_eq!(hint.rating.to_string(), "6.6");
//! # Ok::<(), shudu_core::ParseError>(())
//! ```
//!
//! # Module map
//! - [`skyscraper`], [`kite`], [`empty_rectangle`]: one digit, two strong links (SE: Turbot Fish).
//! - [`finned_fish`]: finned and sashimi X-Wing, Swordfish, Jellyfish.
//! - [`colouring`]: simple colouring, colour trap and colour wrap.
//! - [`w_wing`]: two equal bivalue cells joined by a strong link.
//! - [`als_xz`]: two almost locked sets with a restricted common digit, singly or doubly linked.
//! - `rate`: the SE rating of an elimination.

use super::{cell, digit, Board, Figure, Link, Rating, Step, HOUSE_CELLS, PEERS};
use crate::bitset::{Cell, Digit, House};

pub mod als_xz;
pub mod colouring;
pub mod empty_rectangle;
pub mod finned_fish;
pub mod kite;
mod rate;
pub mod skyscraper;
pub mod w_wing;

/// The named techniques, in the fixed order that breaks ties between equally rated hints
/// (roughly the order in which players learn them).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Technique {
    /// Two parallel strong links on one digit with one end of each in a common line.
    Skyscraper,
    /// A strong link in a row and one in a column, with one end of each in a common box.
    TwoStringKite,
    /// A box whose places for a digit lie in one row and one column, with a strong link.
    EmptyRectangle,
    /// A fish with extra candidates (fins) in one box; sashimi when a base cell is missing.
    FinnedFish,
    /// The strong links of one digit in two colours: colour trap and colour wrap.
    SimpleColouring,
    /// Two bivalue cells with the same two digits, joined by a strong link on one of them.
    WWing,
    /// Two almost locked sets with a restricted common digit.
    AlsXz,
}

impl Technique {
    /// Every named technique, in tie-break order.
    pub const ALL: [Technique; 7] = [
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::EmptyRectangle,
        Technique::FinnedFish,
        Technique::SimpleColouring,
        Technique::WWing,
        Technique::AlsXz,
    ];

    /// The technique's name as players know it (finned fish: the family's name).
    pub fn name(self) -> &'static str {
        match self {
            Technique::Skyscraper => "Skyscraper",
            Technique::TwoStringKite => "2-String Kite",
            Technique::EmptyRectangle => "Empty Rectangle",
            Technique::FinnedFish => "Finned Fish",
            Technique::SimpleColouring => "Simple Colouring",
            Technique::WWing => "W-Wing",
            Technique::AlsXz => "ALS-XZ",
        }
    }

    /// The named technique a step's technique name belongs to, if any (`"Sashimi X-Wing"` is a
    /// [`Technique::FinnedFish`]).
    pub fn of(technique: &str) -> Option<Technique> {
        if finned_fish::NAMES.contains(&technique) {
            return Some(Technique::FinnedFish);
        }
        Technique::ALL.into_iter().find(|t| t.name() == technique)
    }

    /// Every instance of the technique on the board, **unrated** (`rating` is 0; [`rate`] gives
    /// it), in the detector's scanning order. Each step removes at least one candidate.
    ///
    /// # Complexity
    /// Microseconds for the one-digit patterns; ALS-XZ, which pairs every almost locked set of up
    /// to [`als_xz::MAX_CELLS`] cells, up to about a millisecond.
    pub fn find(self, board: &Board) -> Vec<Step> {
        let masks = Masks::new(board);
        let mut out = Vec::new();
        match self {
            Technique::Skyscraper => skyscraper::find(board, &masks, &mut out),
            Technique::TwoStringKite => kite::find(board, &masks, &mut out),
            Technique::EmptyRectangle => empty_rectangle::find(board, &masks, &mut out),
            Technique::FinnedFish => finned_fish::find(board, &masks, &mut out),
            Technique::SimpleColouring => colouring::find(board, &masks, &mut out),
            Technique::WWing => w_wing::find(board, &masks, &mut out),
            Technique::AlsXz => als_xz::find(board, &masks, &mut out),
        }
        out
    }
}

/// The rating SE would give a step's eliminations: for each, the cheapest SE chain that
/// disproves it (see the module documentation); the step's rating is the highest of these.
/// Candidates no implemented SE rule disproves get 10.5, the grader's rating for steps that need
/// SE's nested forcing chains.
///
/// # Complexity
/// One forcing-chain depth search per elimination (microseconds), and up to three forcing-chain
/// propagations when no static chain disproves it.
pub fn rate(board: &Board, step: &Step) -> Rating {
    let mut rater = rate::Rater::new(board);
    rater
        .step(step, Rating(u16::MAX))
        .expect("an unbounded rating exists")
}

/// Every named step on the board, rated, easiest first: by rating, then [`Technique`] order,
/// then fewest cells, then scanning order.
///
/// # Complexity
/// Every step is rated without a bound: about a millisecond on a diabolical puzzle's starting
/// position (30 to 110 steps). [`easiest`], which hints use, stops each chain search at the best
/// rating found so far.
pub fn named_steps(board: &Board) -> Vec<Step> {
    let mut rater = rate::Rater::new(board);
    let mut all: Vec<(Rating, Technique, usize, Step)> = Vec::new();
    for t in Technique::ALL {
        for (k, mut s) in t.find(board).into_iter().enumerate() {
            s.rating = rater.step(&s, Rating(u16::MAX)).expect("unbounded");
            all.push((s.rating, t, k, s));
        }
    }
    all.sort_by_key(|(r, t, k, s)| (*r, *t, s.cells.len(), *k));
    all.into_iter().map(|(_, _, _, s)| s).collect()
}

/// The easiest named step rated `bound` or less: lowest rating, then [`Technique`] order, then
/// fewest cells, then scanning order. `None` if there is none.
pub fn easiest(board: &Board, bound: Rating) -> Option<Step> {
    easiest_among(board, &Technique::ALL, bound)
}

/// [`easiest`] among the steps of the techniques listed.
///
/// # Examples
/// ```
/// use shudu_core::logic::{named::{easiest_among, Technique}, Board, Rating};
/// use shudu_core::Puzzle;
/// let p: Puzzle = "..45..82.12...4.5..6.3.1.......672....5...4.......5...41.6.2...7.....1.4........."
///     .parse()?;
/// // The starting position holds no W-Wing that a chain of SE's rules rates 6.0 or less.
/// assert!(easiest_among(&Board::new(&p), &[Technique::WWing], Rating(60)).is_none());
/// # Ok::<(), shudu_core::ParseError>(())
/// ```
pub fn easiest_among(board: &Board, techniques: &[Technique], bound: Rating) -> Option<Step> {
    let mut found: Vec<(Technique, usize, Step)> = Vec::new();
    for &t in techniques {
        for (k, s) in t.find(board).into_iter().enumerate() {
            found.push((t, k, s));
        }
    }
    // Rate in tie-break order, so a later step only matters if it rates strictly lower: the
    // bound tightens as steps are found, and most chain searches stop early.
    found.sort_by_key(|(t, k, s)| (*t, s.cells.len(), *k));
    let mut rater = rate::Rater::new(board);
    let mut best: Option<Step> = None;
    let mut limit = bound;
    for (_, _, mut s) in found {
        if let Some(r) = rater.step(&s, limit) {
            s.rating = r;
            limit = Rating(r.0 - 1);
            best = Some(s);
        }
    }
    best
}

/// The rating from which SE's next step is a chain: aligned pair exclusion, the first rule after
/// the basic ones.
const CHAIN_LEVEL: Rating = Rating(62);

/// The next hint for a player: SE's next step ([`next_step`](super::next_step)), unless it is a
/// chain-level step (6.2 or more: the basic rules found nothing) and a named step rated no
/// higher exists; then the easiest named step (on equal ratings, the named one). When SE's rules
/// find nothing on an unsolved, unbroken board, the easiest named step at any rating.
///
/// # Examples
/// ```
/// use shudu_core::{Puzzle, logic::{named::next_hint, Board}};
/// let p: Puzzle = "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
///     .parse()?;
/// // Singles first, exactly as SE.
/// assert_eq!(next_hint(&Board::new(&p)).unwrap().technique, "Hidden Single");
/// # Ok::<(), shudu_core::ParseError>(())
/// ```
///
/// # Complexity
/// That of [`next_step`](super::next_step), plus, at chain-level steps, the named detectors and
/// their ratings: a quarter of a millisecond (median), under one millisecond at worst, over the
/// 3,251 chain-level positions of the calibration paths.
pub fn next_hint(board: &Board) -> Option<Step> {
    if board.is_solved() || board.is_broken() {
        return None;
    }
    next_hint_unchecked(board)
}

/// [`next_hint`] on a board known not to be broken (one walked from a proper puzzle).
pub(crate) fn next_hint_unchecked(board: &Board) -> Option<Step> {
    match super::next_step_unchecked(board) {
        Some(se) if se.rating < CHAIN_LEVEL => Some(se),
        Some(se) => Some(easiest(board, se.rating).unwrap_or(se)),
        None => easiest(board, Rating(u16::MAX)),
    }
}

// ---------------------------------------------------------------------------------------------
// Shared helpers: cell masks.
//
// A cell mask is a u128 with bit `i` for cell `i` (row-major, r1c1 = bit 0, r9c9 = bit 80):
//
//   bit:  0  1  2 |  3  4  5 |  6  7  8      row 1
//         9 10 11 | 12 13 14 | 15 16 17      row 2
//        ...
//        72 73 74 | 75 76 77 | 78 79 80      row 9

const fn peer_masks() -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        let mut k = 0;
        while k < 20 {
            t[i] |= 1 << PEERS[i][k];
            k += 1;
        }
        i += 1;
    }
    t
}

/// The peers of each cell: bit `j` of `PEER[i]` is set if and only if cells `i` and `j` differ
/// and share a house.
pub(crate) static PEER: [u128; 81] = peer_masks();

const fn house_masks() -> [u128; 27] {
    let mut t = [0u128; 27];
    let mut h = 0;
    while h < 27 {
        let mut k = 0;
        while k < 9 {
            t[h] |= 1 << HOUSE_CELLS[h][k];
            k += 1;
        }
        h += 1;
    }
    t
}

/// The cells of each house, by ordinal (rows 0-8, columns 9-17, boxes 18-26).
pub(crate) static HOUSE: [u128; 27] = house_masks();

/// The board's candidates as cell masks, computed once per detector call.
pub(crate) struct Masks {
    /// `cand[d]`: the cells where digit index `d` is a candidate.
    pub(crate) cand: [u128; 9],
}

impl Masks {
    pub(crate) fn new(board: &Board) -> Masks {
        let mut cand = [0u128; 9];
        for (i, &m) in board.cands.iter().enumerate() {
            let mut m = m;
            while m != 0 {
                cand[m.trailing_zeros() as usize] |= 1 << i;
                m &= m - 1;
            }
        }
        Masks { cand }
    }
}

/// The cells of a mask, in increasing order.
#[inline]
pub(crate) fn cells_of(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(c)
        }
    })
}

/// The cells that see every cell of `m` (all cells if `m` is empty).
#[inline]
pub(crate) fn seeing_all(m: u128) -> u128 {
    cells_of(m).fold(!0u128 >> 47, |acc, c| acc & PEER[c])
}

/// The eliminations of digit index `d` from the cells of `m`.
pub(crate) fn elims_of(m: u128, d: usize) -> Vec<(Cell, Digit)> {
    cells_of(m).map(|c| (cell(c), digit(d))).collect()
}

/// "r1c2, r3c4" for a cell mask.
pub(crate) fn mask_list(m: u128) -> String {
    cells_of(m)
        .map(|c| cell(c).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// "r1c2 sees {what}" or "r1c2, r3c4 see {what}" for a cell mask.
pub(crate) fn see(m: u128, what: &str) -> String {
    let verb = if m.count_ones() == 1 { "sees" } else { "see" };
    format!("{} {verb} {what}", mask_list(m))
}

/// "r1c2, r3c4" for cell indices.
pub(crate) fn index_list(cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&c| cell(c).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// An unrated step that removes candidates.
pub(crate) fn step(
    technique: &'static str,
    eliminations: Vec<(Cell, Digit)>,
    cells: Vec<usize>,
    houses: Vec<House>,
    text: String,
) -> Step {
    Step {
        technique,
        rating: Rating(0),
        placements: vec![],
        shown_eliminations: vec![],
        figure: Default::default(),
        eliminations,
        cells: cells.into_iter().map(cell).collect(),
        houses,
        text,
    }
}

/// A figure of base and cover houses and links (no fins).
pub(crate) fn figure(base: Vec<House>, cover: Vec<House>, links: Vec<Link>) -> Option<Box<Figure>> {
    Some(Box::new(Figure {
        base,
        cover,
        fins: vec![],
        links,
    }))
}

/// The row (`rows`) or column `line` crossed with the column or row `x`: a cell index.
#[inline]
pub(crate) fn at(rows: bool, line: usize, x: usize) -> usize {
    if rows {
        line * 9 + x
    } else {
        x * 9 + line
    }
}

/// The house of a row (`rows`) or column.
#[inline]
pub(crate) fn line_house(rows: bool, line: usize) -> House {
    if rows {
        House::Row(line as u8)
    } else {
        House::Col(line as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_match_the_tables() {
        for i in 0..81 {
            for j in 0..81 {
                assert_eq!(PEER[i] >> j & 1 == 1, super::super::sees(i, j));
            }
        }
        for h in 0..27 {
            assert_eq!(HOUSE[h].count_ones(), 9);
        }
        assert_eq!(seeing_all(0).count_ones(), 81);
        assert_eq!(seeing_all(1 | 1 << 80), PEER[0] & PEER[80]);
    }

    #[test]
    fn every_technique_name_maps_back() {
        for t in Technique::ALL {
            if t != Technique::FinnedFish {
                assert_eq!(Technique::of(t.name()), Some(t));
            }
        }
        for n in finned_fish::NAMES {
            assert_eq!(Technique::of(n), Some(Technique::FinnedFish));
        }
        assert_eq!(Technique::of("X-Wing"), None);
    }
}
