//! Human-style solving for every variant, rated on Sudoku Explainer's scale.
//!
//! The solver repeats one loop, as [`crate::logic`] does for the classic 9×9: ask each technique,
//! easiest first, for a step, and apply the first step found. The techniques are SE's that hold
//! for any set of houses (singles, locked candidates, naked and hidden subsets, fish, XY- and
//! XYZ-Wing, chains), each with SE's rating and in SE's order, and for killer the cage
//! combinations and the innies and outies, placed on the same scale. "Sees" is the rules' own
//! relation: two cells of a house, of a cage, or a knight's or king's move apart under
//! anti-knight or anti-king.
//!
//! A classic 9×9 puzzle is rated by [`crate::logic`], which reproduces SE's ratings exactly; the
//! general techniques here give the same rating on the SE calibration set wherever SE's path
//! uses no uniqueness technique and no chain harder than the ones here (docs/variants.md,
//! "Rating"; the test `general_rater_agrees_with_se_on_classic_puzzles`).
//!
//! ```
//! use shudu_core::variant::{logic, Rules, VariantPuzzle};
//! let rules = Rules::classic(6)?.with_diagonals();
//! let p = VariantPuzzle::parse_line(rules, "1.....4.3.........6.2.......1....5..").unwrap();
//! let g = logic::grade(&p);
//! assert!(g.solved);
//! assert!(g.er.0 >= 10);
//! # Ok::<(), shudu_core::variant::RulesError>(())
//! ```

use crate::time::{Duration, Instant};
use std::fmt::Write as _;

use super::{symbol, Rules, VariantPuzzle};
use crate::logic::{Band, Rating};

mod basic;
mod chains;
mod killer;

/// What a house is, for its name and for the rules that treat boxes and lines apart (pointing
/// and claiming, hidden singles in a box or a line).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HouseKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box of the classic layout.
    Box,
    /// A jigsaw region.
    Region,
    /// The diagonal from r1c1 down to the right (Sudoku X).
    Diagonal,
    /// The diagonal from the top right corner down to the left (Sudoku X).
    AntiDiagonal,
    /// One of Windoku's four extra boxes.
    Window,
}

impl HouseKind {
    /// Boxes, regions and windows: the houses SE's "box" rules apply to.
    pub fn is_box(self) -> bool {
        matches!(self, HouseKind::Box | HouseKind::Region | HouseKind::Window)
    }
}

/// A house of a variant: `size` cells holding every digit once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct House {
    /// What it is.
    pub kind: HouseKind,
    /// Its number among houses of its kind, from 0.
    pub index: usize,
    /// Its cells, as indices `row * size + column`.
    pub cells: Vec<usize>,
}

impl House {
    /// The house's name in words: `row 3`, `column 5`, `box 4`, `region 2`, `the diagonal`,
    /// `the anti-diagonal`, `window 1` (one-based).
    pub fn name(&self) -> String {
        let i = self.index + 1;
        match self.kind {
            HouseKind::Row => format!("row {i}"),
            HouseKind::Column => format!("column {i}"),
            HouseKind::Box => format!("box {i}"),
            HouseKind::Region => format!("region {i}"),
            HouseKind::Diagonal => "the diagonal".to_string(),
            HouseKind::AntiDiagonal => "the anti-diagonal".to_string(),
            HouseKind::Window => format!("window {i}"),
        }
    }
}

/// What the rules say about every cell, worked out once per puzzle.
pub(crate) struct Layout {
    pub(crate) n: usize,
    pub(crate) houses: Vec<House>,
    /// For every cell, the houses it is in.
    pub(crate) cell_houses: Vec<Vec<usize>>,
    pub(crate) peers: Vec<Vec<usize>>,
    /// For every cell, a bit per cell it sees.
    sees: Vec<Vec<u64>>,
    /// Cages: cells and sum.
    pub(crate) cages: Vec<(Vec<usize>, Option<u32>)>,
    pub(crate) cage_of: Vec<Option<usize>>,
    /// Pairs of houses sharing two cells or more, with the cells they share.
    pub(crate) intersections: Vec<(usize, usize, Vec<usize>)>,
    /// The houses in SE's order of search: boxes (regions, windows), columns, rows, diagonals.
    pub(crate) se_order: Vec<usize>,
}

impl Layout {
    pub(crate) fn new(rules: &Rules) -> Layout {
        let n = rules.size();
        let cells = n * n;
        let jigsaw = rules.regions().is_some();
        let mut houses = Vec::new();
        for (i, h) in rules.houses().into_iter().enumerate() {
            let (kind, index) = if i < n {
                (HouseKind::Row, i)
            } else if i < 2 * n {
                (HouseKind::Column, i - n)
            } else if i < 3 * n {
                let k = if jigsaw {
                    HouseKind::Region
                } else {
                    HouseKind::Box
                };
                (k, i - 2 * n)
            } else if rules.has_diagonals() && i == 3 * n {
                (HouseKind::Diagonal, 0)
            } else if rules.has_diagonals() && i == 3 * n + 1 {
                (HouseKind::AntiDiagonal, 0)
            } else {
                let first = 3 * n + if rules.has_diagonals() { 2 } else { 0 };
                (HouseKind::Window, i - first)
            };
            houses.push(House {
                kind,
                index,
                cells: h,
            });
        }
        let mut cell_houses = vec![Vec::new(); cells];
        for (h, house) in houses.iter().enumerate() {
            for &c in &house.cells {
                cell_houses[c].push(h);
            }
        }
        let peers = rules.peers();
        let words = cells.div_ceil(64);
        let sees = peers
            .iter()
            .map(|p| {
                let mut bits = vec![0u64; words];
                for &q in p {
                    bits[q / 64] |= 1 << (q % 64);
                }
                bits
            })
            .collect();
        let mut cage_of = vec![None; cells];
        let cages: Vec<(Vec<usize>, Option<u32>)> = rules
            .cages()
            .iter()
            .map(|c| (c.cells.clone(), c.sum))
            .collect();
        for (i, (cage, _)) in cages.iter().enumerate() {
            for &c in cage {
                cage_of[c] = Some(i);
            }
        }
        let mut intersections = Vec::new();
        for a in 0..houses.len() {
            for b in 0..houses.len() {
                if a == b {
                    continue;
                }
                let shared: Vec<usize> = houses[a]
                    .cells
                    .iter()
                    .copied()
                    .filter(|c| houses[b].cells.contains(c))
                    .collect();
                if shared.len() >= 2 {
                    intersections.push((a, b, shared));
                }
            }
        }
        let rank = |k: HouseKind| match k {
            HouseKind::Box | HouseKind::Region => 0,
            HouseKind::Window => 1,
            HouseKind::Column => 2,
            HouseKind::Row => 3,
            HouseKind::Diagonal | HouseKind::AntiDiagonal => 4,
        };
        let mut se_order: Vec<usize> = (0..houses.len()).collect();
        se_order.sort_by_key(|&h| rank(houses[h].kind));
        intersections.sort_by_key(|&(a, b, _)| (rank(houses[a].kind), rank(houses[b].kind), a, b));
        Layout {
            se_order,
            n,
            houses,
            cell_houses,
            peers,
            sees,
            cages,
            cage_of,
            intersections,
        }
    }

    pub(crate) fn sees(&self, a: usize, b: usize) -> bool {
        self.sees[a][b / 64] >> (b % 64) & 1 != 0
    }

    /// A cell's name, `r3c7` (one-based).
    pub(crate) fn cell_name(&self, c: usize) -> String {
        format!("r{}c{}", c / self.n + 1, c % self.n + 1)
    }

    pub(crate) fn cells_text(&self, cells: &[usize]) -> String {
        cells
            .iter()
            .map(|&c| self.cell_name(c))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Digits of a candidate mask as text: `1, 4, A`.
pub(crate) fn digits_text(mask: u16) -> String {
    let mut s = String::new();
    for d in 0..16u8 {
        if mask >> d & 1 != 0 {
            if !s.is_empty() {
                s.push_str(", ");
            }
            s.push(symbol(d + 1));
        }
    }
    s
}

/// A position: the digit of every cell (0 for none) and the candidates of empty cells (bit
/// `d - 1` for digit `d`; 0 for a filled cell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    pub(crate) value: Vec<u8>,
    pub(crate) cand: Vec<u16>,
    pub(crate) empty: usize,
}

impl Board {
    fn new(layout: &Layout, cells: &[u8]) -> Board {
        let all = ((1u32 << layout.n) - 1) as u16;
        let mut b = Board {
            value: vec![0; cells.len()],
            cand: vec![all; cells.len()],
            empty: cells.len(),
        };
        for (c, &v) in cells.iter().enumerate() {
            if v != 0 {
                b.place(layout, c, v);
            }
        }
        b
    }

    pub(crate) fn place(&mut self, layout: &Layout, c: usize, v: u8) {
        if self.value[c] == 0 {
            self.empty -= 1;
        }
        self.value[c] = v;
        self.cand[c] = 0;
        let bit = 1u16 << (v - 1);
        for &p in &layout.peers[c] {
            self.cand[p] &= !bit;
        }
    }

    pub(crate) fn apply(&mut self, layout: &Layout, step: &VariantStep) {
        for &(c, d) in &step.eliminations {
            self.cand[c] &= !(1 << (d - 1));
        }
        for &(c, d) in &step.placements {
            self.place(layout, c, d);
        }
    }

    /// The cells of a house where digit index `d` (0-based) can go.
    pub(crate) fn places<'h>(
        &'h self,
        house: &'h House,
        d: usize,
    ) -> impl Iterator<Item = usize> + 'h {
        let bit = 1u16 << d;
        let cand = &self.cand;
        house
            .cells
            .iter()
            .copied()
            .filter(move |&c| cand[c] & bit != 0)
    }

    /// Whether digit index `d` is placed in the house.
    pub(crate) fn placed_in(&self, house: &House, d: usize) -> bool {
        house.cells.iter().any(|&c| self.value[c] as usize == d + 1)
    }
}

/// One step of the path: what it places or removes, where, and why in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantStep {
    /// The technique, by SE's name where SE has one (`"Hidden Single"`, `"X-Wing"`), else
    /// shudu's (`"Cage Combination"`, `"Innies"`).
    pub technique: &'static str,
    /// The step's rating on SE's scale.
    pub rating: Rating,
    /// Digits placed: (cell, digit).
    pub placements: Vec<(usize, u8)>,
    /// Candidates removed: (cell, digit).
    pub eliminations: Vec<(usize, u8)>,
    /// The cells a player should look at.
    pub cells: Vec<usize>,
    /// The houses involved, as indices into [`houses`].
    pub houses: Vec<usize>,
    /// A sentence a player understands.
    pub text: String,
}

/// A rated path: the steps and the SE-style ratings of the path.
#[derive(Clone, Debug)]
pub struct VariantGrade {
    /// The hardest step of the path.
    pub er: Rating,
    /// The hardest step up to and including the first placement.
    pub ep: Rating,
    /// The first step's rating.
    pub ed: Rating,
    /// The band of `er`.
    pub band: Band,
    /// Whether the path reached a full grid. False when no technique applies (the puzzle needs
    /// more than the techniques here), or when the time budget ran out.
    pub solved: bool,
    /// Whether the time budget ran out before the path ended.
    pub out_of_time: bool,
    /// The path, in order.
    pub steps: Vec<VariantStep>,
}

impl VariantGrade {
    /// The technique of the hardest step; empty for a path without steps.
    pub fn hardest(&self) -> &'static str {
        self.steps
            .iter()
            .find(|s| s.rating == self.er)
            .map_or("", |s| s.technique)
    }
}

/// The houses of a set of rules, in the order [`VariantStep::houses`] numbers them: rows,
/// columns, boxes or regions, then the diagonals and the windows.
pub fn houses(rules: &Rules) -> Vec<House> {
    Layout::new(rules).houses
}

/// The default time budget of [`grade`]: a path that needs longer stops unrated.
pub const GRADE_BUDGET: Duration = Duration::from_secs(10);

/// Rates a puzzle: the path of the easiest steps, with [`GRADE_BUDGET`].
///
/// A classic 9×9 is rated by [`crate::logic::grade`] (SE's ratings exactly); every other
/// variant by the general techniques of this module.
pub fn grade(puzzle: &VariantPuzzle) -> VariantGrade {
    grade_until(puzzle, Instant::now() + GRADE_BUDGET)
}

/// [`grade`] with a deadline: past it, the path stops with `out_of_time` set.
pub fn grade_until(puzzle: &VariantPuzzle, deadline: Instant) -> VariantGrade {
    if puzzle.rules().is_classic_9() {
        return classic_grade(puzzle);
    }
    general_grade(puzzle, deadline)
}

/// The general techniques' rating, for any rules, the classic 9×9 included (there it can be
/// compared with SE's; see [`grade`] for the rating to use).
pub fn general_grade(puzzle: &VariantPuzzle, deadline: Instant) -> VariantGrade {
    let layout = Layout::new(puzzle.rules());
    let mut board = Board::new(&layout, puzzle.cells());
    let mut steps: Vec<VariantStep> = Vec::new();
    let mut out_of_time = false;
    while board.empty > 0 {
        if Instant::now() > deadline {
            out_of_time = true;
            break;
        }
        match next_step(&layout, &board, deadline) {
            Some(step) => {
                board.apply(&layout, &step);
                steps.push(step);
            }
            None => break,
        }
    }
    summarise(steps, board.empty == 0, out_of_time)
}

fn summarise(steps: Vec<VariantStep>, solved: bool, out_of_time: bool) -> VariantGrade {
    let er = steps.iter().map(|s| s.rating).max().unwrap_or(Rating(0));
    let first_place = steps
        .iter()
        .position(|s| !s.placements.is_empty())
        .unwrap_or(steps.len().saturating_sub(1));
    let ep = steps[..(first_place + 1).min(steps.len())]
        .iter()
        .map(|s| s.rating)
        .max()
        .unwrap_or(Rating(0));
    let ed = steps.first().map_or(Rating(0), |s| s.rating);
    VariantGrade {
        er,
        ep,
        ed,
        band: Band::of(er),
        solved,
        out_of_time,
        steps,
    }
}

fn classic_grade(puzzle: &VariantPuzzle) -> VariantGrade {
    let line = puzzle.to_line();
    let Ok(p) = line.parse::<crate::Puzzle>() else {
        unreachable!("a classic 9x9 line parses as a classic puzzle");
    };
    let g = crate::logic::grade(&p);
    let steps = g.steps.iter().map(variant_step).collect();
    VariantGrade {
        er: g.er,
        ep: g.ep,
        ed: g.ed,
        band: g.band,
        solved: g.solved,
        out_of_time: false,
        steps,
    }
}

/// A step of the classic grader as a variant step (cells and houses by number).
fn variant_step(s: &crate::logic::Step) -> VariantStep {
    VariantStep {
        technique: s.technique,
        rating: s.rating,
        placements: s
            .placements
            .iter()
            .map(|(c, d)| (c.as_index(), d.get()))
            .collect(),
        eliminations: s
            .eliminations
            .iter()
            .map(|(c, d)| (c.as_index(), d.get()))
            .collect(),
        cells: s.cells.iter().map(|c| c.as_index()).collect(),
        houses: s.houses.iter().map(|h| h.ordinal()).collect(),
        text: s.text.clone(),
    }
}

/// The next step from a position: `cells` the digits in place (givens and a player's entries),
/// `marks` (optional) a candidate mask per cell (bit `d - 1` for digit `d`; 0 for none) that
/// the position's candidates are narrowed to where not 0. `None` when no technique applies.
///
/// A classic 9×9 position without marks takes the classic grader's step.
pub fn next_step_of(
    rules: &Rules,
    cells: &[u8],
    marks: Option<&[u16]>,
    deadline: Instant,
) -> Option<VariantStep> {
    let layout = Layout::new(rules);
    let mut board = Board::new(&layout, cells);
    if let Some(marks) = marks {
        for (c, &m) in marks.iter().enumerate() {
            if m != 0 && board.value[c] == 0 {
                board.cand[c] &= m;
            }
        }
    }
    if rules.is_classic_9() && marks.is_none() {
        // The classic grader's next step alone (SE's ratings), not its whole path.
        let line = VariantPuzzle::new(rules.clone(), cells.to_vec())
            .ok()?
            .to_line();
        let p = line.parse::<crate::Puzzle>().ok()?;
        return crate::logic::next_step(&crate::logic::Board::new(&p)).map(|s| variant_step(&s));
    }
    next_step(&layout, &board, deadline)
}

/// The first step the techniques find, easiest first in SE's order.
fn next_step(layout: &Layout, board: &Board, deadline: Instant) -> Option<VariantStep> {
    basic_step(layout, board)
        .or_else(|| chains::forcing(layout, board, deadline))
        .or_else(|| chains::nested(layout, board, deadline, false))
        .or_else(|| chains::nested(layout, board, deadline, true))
}

/// The first step of the techniques below the chains.
pub(crate) fn basic_step(layout: &Layout, board: &Board) -> Option<VariantStep> {
    let killer = layout.cages.iter().any(|(_, s)| s.is_some());
    basic::full_house(layout, board)
        .or_else(|| basic::hidden_single(layout, board))
        .or_else(|| basic::intersection(layout, board, true))
        .or_else(|| {
            killer
                .then(|| killer::cage_combination(layout, board))
                .flatten()
        })
        .or_else(|| basic::hidden_subset(layout, board, 2, true))
        .or_else(|| basic::naked_single(layout, board))
        .or_else(|| basic::hidden_subset(layout, board, 3, true))
        .or_else(|| {
            killer
                .then(|| killer::innies_outies(layout, board, true))
                .flatten()
        })
        .or_else(|| basic::intersection(layout, board, false))
        .or_else(|| {
            killer
                .then(|| killer::cage_locked_digit(layout, board))
                .flatten()
        })
        .or_else(|| basic::naked_subset(layout, board, 2))
        .or_else(|| {
            killer
                .then(|| killer::innies_outies(layout, board, false))
                .flatten()
        })
        .or_else(|| basic::fish(layout, board, 2))
        .or_else(|| basic::hidden_subset(layout, board, 2, false))
        .or_else(|| basic::naked_subset(layout, board, 3))
        .or_else(|| basic::fish(layout, board, 3))
        .or_else(|| basic::hidden_subset(layout, board, 3, false))
        .or_else(|| basic::xy_wing(layout, board))
        .or_else(|| basic::xyz_wing(layout, board))
        .or_else(|| basic::naked_subset(layout, board, 4))
        .or_else(|| basic::fish(layout, board, 4))
        .or_else(|| basic::hidden_subset(layout, board, 4, false))
}

/// A step's text, for the techniques' own use: "Technique: what".
pub(crate) fn text(technique: &str, what: impl std::fmt::Display) -> String {
    let mut s = String::new();
    let _ = write!(s, "{technique}: {what}");
    s
}

#[cfg(test)]
mod tests;
