//! [`Puzzle`] (cells may be empty) and [`Grid`] (complete and valid), with the rules of Sudoku.

use std::fmt;

use crate::bitset::{Cell, CellSet, Digit, DigitSet, House};

/// A 9×9 board whose cells are empty or hold a digit. It need not obey the rules: see
/// [`Puzzle::first_conflict`].
///
/// Stored as 81 bytes, one a cell in row-major order: `0` for empty, `1..=9` for a digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Puzzle {
    cells: [u8; 81],
}

/// Two cells of one house that hold the same digit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Conflict {
    /// The house both cells lie in.
    pub house: House,
    /// The repeated digit.
    pub digit: Digit,
    /// The earlier cell in row-major order.
    pub first: Cell,
    /// The later cell.
    pub second: Cell,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "digit {} appears twice in {} ({} and {})",
            self.digit, self.house, self.first, self.second
        )
    }
}

impl Default for Puzzle {
    fn default() -> Puzzle {
        Puzzle::empty()
    }
}

impl Puzzle {
    /// The puzzle with every cell empty.
    pub const fn empty() -> Puzzle {
        Puzzle { cells: [0; 81] }
    }

    /// A puzzle from cells the caller has checked to be `0..=9`.
    #[inline]
    pub(crate) fn from_checked_bytes(cells: [u8; 81]) -> Puzzle {
        debug_assert!(cells.iter().all(|&v| v <= 9));
        Puzzle { cells }
    }

    /// A puzzle from 81 bytes, `0` for empty and `1..=9` for a digit; `None` if a byte is above 9.
    pub fn from_bytes(cells: [u8; 81]) -> Option<Puzzle> {
        if cells.iter().all(|&v| v <= 9) {
            Some(Puzzle { cells })
        } else {
            None
        }
    }

    /// The 81 cells as bytes, `0` for empty.
    #[inline]
    pub const fn as_bytes(&self) -> &[u8; 81] {
        &self.cells
    }

    /// The digit in `cell`, if any.
    #[inline]
    pub fn get(&self, cell: Cell) -> Option<Digit> {
        Digit::new(self.cells[cell.as_index()])
    }

    /// Puts `digit` in `cell`, or empties it with `None`.
    #[inline]
    pub fn set(&mut self, cell: Cell, digit: Option<Digit>) {
        self.cells[cell.as_index()] = digit.map_or(0, Digit::get);
    }

    /// How many cells hold a digit (the givens, for a puzzle).
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// The cells that hold a digit.
    pub fn filled(&self) -> CellSet {
        Cell::all().filter(|&c| self.get(c).is_some()).collect()
    }

    /// Whether every cell holds a digit.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first pair of equal digits in one house, looking at rows, then columns, then boxes;
    /// `None` if the puzzle obeys the rules so far.
    pub fn first_conflict(&self) -> Option<Conflict> {
        // Fast path: one pass of counters; only when it finds a repeat do we look for the pair.
        // Each house counts its digits in the nibbles of a word (nibble `v` for digit `v`,
        // nibble 0 for empty cells, at most 9 a house so nothing carries), and a nibble of 2 or
        // more is a repeat. The loops have constant bounds so that they unroll with no index
        // checks: this runs on every puzzle read.
        // A row's three segments (its cells inside one box) are summed first: the row is their
        // sum and each box the sum of its three row segments, so a cell costs two additions
        // (its segment and its column) rather than three (callgrind: 730 instructions a puzzle
        // to 630).
        let mut cols = [0u64; 9];
        let mut all = 0u64;
        for band in self.cells.chunks_exact(27) {
            let mut boxes = [0u64; 3];
            for row_cells in band.chunks_exact(9) {
                let mut row = 0u64;
                for (s, bx) in boxes.iter_mut().enumerate() {
                    let mut seg = 0u64;
                    for k in 0..3 {
                        let x = 1u64 << (4 * row_cells[3 * s + k]);
                        seg += x;
                        cols[3 * s + k] += x;
                    }
                    row += seg;
                    *bx += seg;
                }
                all |= row;
            }
            all |= boxes[0] | boxes[1] | boxes[2];
        }
        for col in cols {
            all |= col;
        }
        // Bits 1-3 of nibbles 1-9: a count of 2 or more for a digit.
        if all & 0xEE_EEEE_EEE0 == 0 {
            return None;
        }
        for house in House::all() {
            let mut seen: [Option<Cell>; 9] = [None; 9];
            for cell in house.cells().iter() {
                if let Some(d) = self.get(cell) {
                    if let Some(first) = seen[d.as_index()] {
                        return Some(Conflict {
                            house,
                            digit: d,
                            first,
                            second: cell,
                        });
                    }
                    seen[d.as_index()] = Some(cell);
                }
            }
        }
        unreachable!("the fast path found a repeated digit")
    }

    /// The digits that no peer of `cell` holds (whatever `cell` itself holds).
    pub fn candidates(&self, cell: Cell) -> DigitSet {
        let mut seen = DigitSet::EMPTY;
        for p in cell.peers().iter() {
            if let Some(d) = self.get(p) {
                seen.insert(d);
            }
        }
        !seen
    }

    /// The 81-character line form: digits, `.` for empty.
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
            .collect()
    }
}

/// Shows the line form.
impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Puzzle({})", self.to_line())
    }
}

/// A complete grid: every cell holds a digit and every house holds each digit once. The invariant
/// holds for every value of this type; [`Grid::try_from`] checks it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid {
    cells: [u8; 81],
}

/// Why a [`Puzzle`] is not a complete [`Grid`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GridError {
    /// This cell is empty.
    Empty(Cell),
    /// Two cells of a house repeat a digit.
    Conflict(Conflict),
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::Empty(c) => write!(f, "cell {c} is empty"),
            GridError::Conflict(c) => c.fmt(f),
        }
    }
}

impl std::error::Error for GridError {}

impl TryFrom<Puzzle> for Grid {
    type Error = GridError;

    fn try_from(p: Puzzle) -> Result<Grid, GridError> {
        if let Some(i) = p.cells.iter().position(|&v| v == 0) {
            return Err(GridError::Empty(Cell::from_index(i)));
        }
        if let Some(c) = p.first_conflict() {
            return Err(GridError::Conflict(c));
        }
        Ok(Grid { cells: p.cells })
    }
}

impl Grid {
    /// Wraps cells the caller has already proved complete and valid (the solver's output).
    pub(crate) fn from_valid_bytes(cells: [u8; 81]) -> Grid {
        debug_assert!(Grid::try_from(Puzzle { cells }).is_ok());
        Grid { cells }
    }

    /// The digit in `cell`.
    #[inline]
    pub fn get(&self, cell: Cell) -> Digit {
        Digit::from_index(self.cells[cell.as_index()] as usize - 1)
    }

    /// The 81 cells as bytes `1..=9`.
    #[inline]
    pub const fn as_bytes(&self) -> &[u8; 81] {
        &self.cells
    }

    /// The grid as a puzzle with no empty cell.
    pub fn to_puzzle(&self) -> Puzzle {
        Puzzle { cells: self.cells }
    }

    /// Renames digits so that `digit_map[d - 1]` replaces `d`. Any permutation keeps the grid valid.
    ///
    /// # Panics
    /// If `digit_map` is not a permutation of 1 to 9.
    pub fn relabel(&self, digit_map: [u8; 9]) -> Grid {
        let mut seen = 0u16;
        for &v in &digit_map {
            assert!((1..=9).contains(&v), "digit map holds {v}");
            seen |= 1 << v;
        }
        assert_eq!(seen, 0x3FE, "digit map is not a permutation");
        let mut cells = self.cells;
        for v in &mut cells {
            *v = digit_map[*v as usize - 1];
        }
        Grid { cells }
    }

    /// The 81-character line form.
    pub fn to_line(&self) -> String {
        self.to_puzzle().to_line()
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRID: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn puzzle(s: &str) -> Puzzle {
        let mut cells = [0u8; 81];
        for (i, b) in s.bytes().enumerate() {
            cells[i] = if b == b'.' { 0 } else { b - b'0' };
        }
        Puzzle::from_bytes(cells).unwrap()
    }

    #[test]
    fn valid_grid_is_accepted() {
        let g = Grid::try_from(puzzle(GRID)).unwrap();
        assert_eq!(g.to_line(), GRID);
    }

    #[test]
    fn conflict_names_house_and_both_cells() {
        let mut p = Puzzle::empty();
        p.set(Cell::at(1, 0), Digit::new(5));
        p.set(Cell::at(1, 6), Digit::new(5));
        let c = p.first_conflict().unwrap();
        assert_eq!(
            c.to_string(),
            "digit 5 appears twice in row 2 (r2c1 and r2c7)"
        );
        let mut q = Puzzle::empty();
        q.set(Cell::at(3, 3), Digit::new(2));
        q.set(Cell::at(5, 5), Digit::new(2));
        assert_eq!(q.first_conflict().unwrap().house, House::Box(4));
    }

    #[test]
    fn conflict_check_agrees_with_a_house_by_house_scan() {
        // Random puzzles from sparse (few repeats) to dense (many), against the plain scan.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut with, mut without) = (0, 0);
        for round in 0..20_000 {
            let density = 5 + round % 40;
            let mut cells = [0u8; 81];
            for v in cells.iter_mut() {
                if next() % 81 < density {
                    *v = (next() % 9 + 1) as u8;
                }
            }
            let p = Puzzle::from_bytes(cells).unwrap();
            let plain = House::all().any(|h| {
                let mut seen = [false; 10];
                h.cells().iter().any(|c| {
                    let v = cells[c.as_index()] as usize;
                    v != 0 && std::mem::replace(&mut seen[v], true)
                })
            });
            assert_eq!(p.first_conflict().is_some(), plain, "{}", p.to_line());
            if plain {
                with += 1;
            } else {
                without += 1;
            }
        }
        // Both outcomes were exercised.
        assert!(with > 1000 && without > 1000, "{with} {without}");
    }

    #[test]
    fn incomplete_puzzle_is_not_a_grid() {
        let mut p = puzzle(GRID);
        p.set(Cell::at(8, 8), None);
        assert_eq!(Grid::try_from(p), Err(GridError::Empty(Cell::at(8, 8))));
    }

    #[test]
    fn relabel_keeps_validity() {
        let g = Grid::try_from(puzzle(GRID)).unwrap();
        let h = g.relabel([9, 8, 7, 6, 5, 4, 3, 2, 1]);
        assert!(Grid::try_from(h.to_puzzle()).is_ok());
        assert_eq!(h.get(Cell::at(0, 0)).get(), 5);
        assert_eq!(h.get(Cell::at(0, 1)).get(), 7);
    }
}
