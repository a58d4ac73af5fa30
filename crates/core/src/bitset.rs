//! Small value types that cannot be confused with one another: [`Digit`], [`Cell`], [`House`],
//! and the bit sets [`DigitSet`] and [`CellSet`].
//!
//! Cells are numbered row-major, 0 to 80:
//!
//! ```text
//!          col 0  1  2   3  4  5   6  7  8
//! row 0      0  1  2 |  3  4  5 |  6  7  8    ┐
//! row 1      9 10 11 | 12 13 14 | 15 16 17    │ band 0 (boxes 0, 1, 2)
//! row 2     18 19 20 | 21 22 23 | 24 25 26    ┘
//!          ---------+----------+---------
//! row 3     27 28 29 | 30 31 32 | 33 34 35    ┐
//!  ...                                        │ band 1 (boxes 3, 4, 5)
//! row 8     72 73 74 | 75 76 77 | 78 79 80    ┘ band 2 is rows 6-8 (boxes 6, 7, 8)
//! ```
//!
//! A [`CellSet`] holds cell `i` in bit `i` of a `u128`; a [`DigitSet`] holds digit `d` in bit `d - 1`
//! of a `u16`.

use std::fmt;

/// A digit 1 to 9. The invariant: `Digit(n)` exists if and only if `1 <= n <= 9`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Digit(u8);

impl Digit {
    /// The digit `n`, or `None` unless `1 <= n <= 9`.
    #[inline]
    pub const fn new(n: u8) -> Option<Digit> {
        if n >= 1 && n <= 9 {
            Some(Digit(n))
        } else {
            None
        }
    }

    /// The digit whose zero-based index is `i` (`0` gives digit 1).
    ///
    /// # Panics
    /// If `i >= 9`.
    #[inline]
    pub const fn from_index(i: usize) -> Digit {
        assert!(i < 9, "digit index out of range");
        Digit(i as u8 + 1)
    }

    /// The digit's value, 1 to 9.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The zero-based index, 0 to 8.
    #[inline]
    pub const fn as_index(self) -> usize {
        self.0 as usize - 1
    }

    /// All nine digits in order.
    pub fn all() -> impl Iterator<Item = Digit> {
        (1..=9).map(Digit)
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A cell of the 9×9 grid, 0 to 80 in row-major order. The invariant: `Cell(i)` exists if and only
/// if `i < 81`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The cell with index `i`, or `None` unless `i < 81`.
    #[inline]
    pub const fn new(i: usize) -> Option<Cell> {
        if i < 81 {
            Some(Cell(i as u8))
        } else {
            None
        }
    }

    /// The cell with index `i`.
    ///
    /// # Panics
    /// If `i >= 81`.
    #[inline]
    pub const fn from_index(i: usize) -> Cell {
        assert!(i < 81, "cell index out of range");
        Cell(i as u8)
    }

    /// The cell at zero-based `row` and `col`.
    ///
    /// # Panics
    /// If `row >= 9` or `col >= 9`.
    #[inline]
    pub const fn at(row: usize, col: usize) -> Cell {
        assert!(row < 9 && col < 9, "row or column out of range");
        Cell((row * 9 + col) as u8)
    }

    /// The index, 0 to 80.
    #[inline]
    pub const fn as_index(self) -> usize {
        self.0 as usize
    }

    /// The zero-based row.
    #[inline]
    pub const fn row(self) -> usize {
        self.0 as usize / 9
    }

    /// The zero-based column.
    #[inline]
    pub const fn col(self) -> usize {
        self.0 as usize % 9
    }

    /// The zero-based box, numbered row-major (box 0 top left, box 8 bottom right).
    #[inline]
    pub const fn box_index(self) -> usize {
        (self.row() / 3) * 3 + self.col() / 3
    }

    /// The zero-based band (a row of three boxes).
    #[inline]
    pub const fn band(self) -> usize {
        self.row() / 3
    }

    /// The zero-based stack (a column of three boxes).
    #[inline]
    pub const fn stack(self) -> usize {
        self.col() / 3
    }

    /// All 81 cells in order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..81).map(Cell)
    }

    /// The 20 peers of this cell: every other cell that shares its row, column or box.
    pub fn peers(self) -> CellSet {
        let mut set = House::Row(self.row() as u8).cells()
            | House::Col(self.col() as u8).cells()
            | House::Box(self.box_index() as u8).cells();
        set.remove(self);
        set
    }

    /// Whether the two cells are distinct and share a house.
    pub fn sees(self, other: Cell) -> bool {
        self != other
            && (self.row() == other.row()
                || self.col() == other.col()
                || self.box_index() == other.box_index())
    }
}

/// Prints the cell as `r3c7` (one-based row and column), the notation players use.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// A house: a row, a column or a box, each holding nine cells that must hold the nine digits.
/// The index inside is zero-based and below 9.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum House {
    /// Row 0 to 8.
    Row(u8),
    /// Column 0 to 8.
    Col(u8),
    /// Box 0 to 8, row-major.
    Box(u8),
}

impl House {
    /// All 27 houses: rows, then columns, then boxes.
    pub fn all() -> impl Iterator<Item = House> {
        (0..9)
            .map(House::Row)
            .chain((0..9).map(House::Col))
            .chain((0..9).map(House::Box))
    }

    /// The nine cells of the house, in row-major order.
    pub fn cells(self) -> CellSet {
        CellSet(HOUSE_MASKS[self.ordinal()])
    }

    /// A number 0 to 26 unique to the house: rows 0-8, columns 9-17, boxes 18-26.
    pub const fn ordinal(self) -> usize {
        match self {
            House::Row(i) => i as usize,
            House::Col(i) => 9 + i as usize,
            House::Box(i) => 18 + i as usize,
        }
    }
}

/// Prints `row 3`, `column 7` or `box 5`, one-based.
impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            House::Row(i) => write!(f, "row {}", i + 1),
            House::Col(i) => write!(f, "column {}", i + 1),
            House::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

const fn house_masks() -> [u128; 27] {
    let mut masks = [0u128; 27];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        let b = (r / 3) * 3 + c / 3;
        masks[r] |= 1 << i;
        masks[9 + c] |= 1 << i;
        masks[18 + b] |= 1 << i;
        i += 1;
    }
    masks
}

const HOUSE_MASKS: [u128; 27] = house_masks();

/// A set of digits. The invariant: bit `d - 1` is set if and only if digit `d` is in the set, and
/// bits 9 to 15 are always clear.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DigitSet(u16);

impl DigitSet {
    /// The empty set.
    pub const EMPTY: DigitSet = DigitSet(0);
    /// All nine digits.
    pub const ALL: DigitSet = DigitSet(0x1FF);

    /// The set whose bits are `bits`; bits above 8 are dropped.
    #[inline]
    pub const fn from_bits(bits: u16) -> DigitSet {
        DigitSet(bits & 0x1FF)
    }

    /// The raw bits: bit `d - 1` for digit `d`.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The set holding only `d`.
    #[inline]
    pub const fn single(d: Digit) -> DigitSet {
        DigitSet(1 << (d.0 - 1))
    }

    /// Whether `d` is in the set.
    #[inline]
    pub const fn contains(self, d: Digit) -> bool {
        self.0 & (1 << (d.0 - 1)) != 0
    }

    /// Adds `d`.
    #[inline]
    pub fn insert(&mut self, d: Digit) {
        self.0 |= 1 << (d.0 - 1);
    }

    /// Removes `d`.
    #[inline]
    pub fn remove(&mut self, d: Digit) {
        self.0 &= !(1 << (d.0 - 1));
    }

    /// How many digits are in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The smallest digit in the set, if any.
    #[inline]
    pub fn first(self) -> Option<Digit> {
        if self.0 == 0 {
            None
        } else {
            Some(Digit(self.0.trailing_zeros() as u8 + 1))
        }
    }

    /// The digits in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Digit> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let d = bits.trailing_zeros() as u8 + 1;
            bits &= bits - 1;
            Some(Digit(d))
        })
    }
}

impl std::ops::BitOr for DigitSet {
    type Output = DigitSet;
    fn bitor(self, rhs: DigitSet) -> DigitSet {
        DigitSet(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for DigitSet {
    type Output = DigitSet;
    fn bitand(self, rhs: DigitSet) -> DigitSet {
        DigitSet(self.0 & rhs.0)
    }
}

impl std::ops::Not for DigitSet {
    type Output = DigitSet;
    fn not(self) -> DigitSet {
        DigitSet(!self.0 & 0x1FF)
    }
}

impl FromIterator<Digit> for DigitSet {
    fn from_iter<I: IntoIterator<Item = Digit>>(iter: I) -> DigitSet {
        let mut set = DigitSet::EMPTY;
        for d in iter {
            set.insert(d);
        }
        set
    }
}

/// Prints the digits with no separator, e.g. `{139}`.
impl fmt::Debug for DigitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for d in self.iter() {
            write!(f, "{d}")?;
        }
        write!(f, "}}")
    }
}

/// A set of cells. The invariant: bit `i` is set if and only if cell `i` is in the set, and bits 81
/// to 127 are always clear.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet(u128);

const ALL_CELLS: u128 = (1 << 81) - 1;

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet(0);
    /// All 81 cells.
    pub const ALL: CellSet = CellSet(ALL_CELLS);

    /// The set whose bits are `bits`; bits above 80 are dropped.
    #[inline]
    pub const fn from_bits(bits: u128) -> CellSet {
        CellSet(bits & ALL_CELLS)
    }

    /// The raw bits: bit `i` for cell `i`.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set holding only `c`.
    #[inline]
    pub const fn single(c: Cell) -> CellSet {
        CellSet(1 << c.0)
    }

    /// Whether `c` is in the set.
    #[inline]
    pub const fn contains(self, c: Cell) -> bool {
        self.0 & (1 << c.0) != 0
    }

    /// Adds `c`.
    #[inline]
    pub fn insert(&mut self, c: Cell) {
        self.0 |= 1 << c.0;
    }

    /// Removes `c`.
    #[inline]
    pub fn remove(&mut self, c: Cell) {
        self.0 &= !(1 << c.0);
    }

    /// How many cells are in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest-numbered cell, if any.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell(self.0.trailing_zeros() as u8))
        }
    }

    /// The cells in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Cell> {
        // On two 64-bit words: `trailing_zeros` and `x & (x - 1)` of a `u128` cost several
        // instructions each where a `u64`'s cost one.
        let (mut lo, mut hi) = (self.0 as u64, (self.0 >> 64) as u64);
        std::iter::from_fn(move || {
            if lo != 0 {
                let i = lo.trailing_zeros() as u8;
                lo &= lo - 1;
                Some(Cell(i))
            } else if hi != 0 {
                let i = hi.trailing_zeros() as u8 + 64;
                hi &= hi - 1;
                Some(Cell(i))
            } else {
                None
            }
        })
    }
}

impl std::ops::BitOr for CellSet {
    type Output = CellSet;
    fn bitor(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for CellSet {
    type Output = CellSet;
    fn bitand(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 & rhs.0)
    }
}

impl std::ops::Not for CellSet {
    type Output = CellSet;
    fn not(self) -> CellSet {
        CellSet(!self.0 & ALL_CELLS)
    }
}

impl std::ops::BitOrAssign for CellSet {
    fn bitor_assign(&mut self, rhs: CellSet) {
        self.0 |= rhs.0;
    }
}

impl std::ops::BitAndAssign for CellSet {
    fn bitand_assign(&mut self, rhs: CellSet) {
        self.0 &= rhs.0;
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        let mut set = CellSet::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

/// Prints the cells in `r1c1` notation.
impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|c| c.to_string()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_has_twenty_peers() {
        for c in Cell::all() {
            let peers = c.peers();
            assert_eq!(peers.len(), 20, "{c}");
            assert!(!peers.contains(c));
            assert!(peers.iter().all(|p| c.sees(p)));
        }
    }

    #[test]
    fn houses_partition_the_grid_three_ways() {
        for kind in 0..3 {
            let mut union = CellSet::EMPTY;
            for h in House::all().skip(kind * 9).take(9) {
                assert_eq!(h.cells().len(), 9);
                assert!((union & h.cells()).is_empty());
                union |= h.cells();
            }
            assert_eq!(union, CellSet::ALL);
        }
    }

    #[test]
    fn digit_set_iterates_in_order() {
        let set: DigitSet = [9, 1, 5].iter().map(|&n| Digit::new(n).unwrap()).collect();
        assert_eq!(
            set.iter().map(Digit::get).collect::<Vec<_>>(),
            vec![1, 5, 9]
        );
        assert_eq!(set.len(), 3);
        assert_eq!((!set).len(), 6);
        assert_eq!(Digit::new(0), None);
        assert_eq!(Digit::new(10), None);
    }

    #[test]
    fn cell_set_iterates_in_order_across_both_words() {
        // Cells on both sides of bit 64, the first and the last cell, and sets of one word only.
        for picks in [
            vec![0, 1, 63, 64, 65, 80],
            vec![80],
            vec![0],
            vec![5, 17, 42],
            vec![64, 70, 79],
            vec![],
        ] {
            let set: CellSet = picks.iter().map(|&i| Cell::from_index(i)).collect();
            let got: Vec<usize> = set.iter().map(|c| c.as_index()).collect();
            assert_eq!(got, picks);
        }
        let every: Vec<usize> = CellSet::from_bits((1 << 81) - 1)
            .iter()
            .map(|c| c.as_index())
            .collect();
        assert_eq!(every, (0..81).collect::<Vec<_>>());
    }

    #[test]
    fn cell_geometry() {
        let c = Cell::at(4, 7);
        assert_eq!(c.as_index(), 43);
        assert_eq!(c.box_index(), 5);
        assert_eq!((c.band(), c.stack()), (1, 2));
        assert_eq!(c.to_string(), "r5c8");
        assert_eq!(House::Box(4).to_string(), "box 5");
    }
}
