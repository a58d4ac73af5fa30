//! The exact solver: counts solutions up to a limit and returns the first one found.
//!
//! One search serves every use: [`solve`] (first solution), [`solve_unique`] (count up to 2),
//! [`count_solutions`] (count up to any limit), the uniqueness checks of the puzzle generator
//! ([`Solver::forbid`] then [`Solver::has_solution`]) and the random complete-grid generator
//! (the same search with random guesses, see [`crate::grids`]).
//!
//! # Representation
//!
//! The state is 27 words of candidates, one for each (digit, band) pair: word `3 * d + b` has bit
//! `9 * r + c` set if and only if digit `d + 1` may still go in row `3 * b + r`, column `c`:
//!
//! ```text
//!   bit:  26 ............ 18 | 17 ............ 9 | 8 ............. 0
//!         row 3b+2, col 8..0 | row 3b+1, col 8..0 | row 3b, col 8..0
//! ```
//!
//! A cell of the band that is already placed keeps exactly one bit: that of its digit. Beside the
//! words: `prev` (each word as its last band update left it: a word needs an update if and only
//! if it differs), `unsolved` (the cells of each band not yet placed), the segment sets of the
//! last band and stack updates (`seg`, `sseg`), and which digits, bands and stacks changed since
//! their last stack update or triad pass (`touched`, `tri`).
//!
//! # Propagation (docs/ALGORITHM.md, "Exact solver")
//!
//! 1. **Band update** of one word: inside a band a digit fills one *segment* (the three cells
//!    where a row meets a box) in each row and each box, so the segments it uses form one of the
//!    3! = 6 permutations. A table keeps the segments on a permutation whose three segments all
//!    hold candidates (locked candidates inside the band); where the digit has one column left in
//!    a box, the other two bands lose that column; a row left with one cell is a hidden single,
//!    and that cell leaves the other eight digits. The updates run until no word
//!    changes: in rounds over the set of changed words, found branch-free, at the root of a
//!    search (from the givens); in sweeps over the 27 words, unrolled with constant indices,
//!    below it. Their
//!    bookkeeping is branch-free (the branches were hard to predict and cost 12-22%), and
//!    propagation stops once every cell is placed.
//! 2. **Naked singles** (a cell with one candidate), found for a whole band at once with
//!    bit-parallel counters. A placement clears the cell for the other digits and the rest of the
//!    row for its own; the band update does the box and the column.
//! 3. **Stack update**: the permutation table turned by 90°, for the (band, column) pairs of each
//!    stack: locked candidates along columns, and with step 1 every hidden single.
//! 4. **Triads**: each segment holds exactly three digits, so in a band or stack a segment that
//!    three digits must fill is closed to the others, and a segment only three digits can fill
//!    takes all three.
//!
//! # Guessing
//!
//! When propagation is stuck, tdoku's rule: the band or stack whose digits have the fewest
//! segment permutations left in all, and in it the digit with the fewest; each permutation is a
//! branch. Below the root of a loose puzzle (a band or stack nearly fixed at the root) the search
//! is *light*: steps 1 and 2 only and a guess on the first bivalue cell, which is cheaper where
//! steps 3-4 find nothing (puzzles with many solutions); it turns full again after 16 guesses.
//! The random grid generator always searches light, with random guesses.

use crate::bitset::{Cell, CellSet, Digit};
use crate::grid::{Grid, Puzzle};
use shudu_simd::Avx512;

mod search;
mod state;
mod tables;
#[cfg(test)]
mod tests;

use search::*;
pub(crate) use search::{descend, Search};
pub(crate) use state::State;
use tables::*;

/// Chooses the order in which a guess tries digits. The deterministic order gives the solver's
/// reproducible answers; a random order turns the solver into a complete-grid generator.
pub(crate) trait Guesser {
    /// One digit index (0..9) out of the 9-bit set `digits`, which has at least two members.
    fn choose(&mut self, digits: u32) -> usize;

    /// Whether propagation runs the stack update (step 3). It pays when the search must prove
    /// there is no other solution; when any solution will do (random grids) it finds no
    /// shortcut and only costs time (measured: the same 15 guesses a grid either way).
    const STACK_UPDATES: bool = true;

    /// Whether to spend time choosing the guess cell (band and row with the most bivalue
    /// cells), which pays when a whole tree must be searched, or to take the first bivalue cell.
    const CAREFUL_PICK: bool = true;

    /// The digit to try first in cell `pos` of band `b`, out of `digits` (at least two).
    #[inline(always)]
    fn choose_at(&mut self, _b: usize, _pos: usize, digits: u32) -> usize {
        self.choose(digits)
    }

    /// The permutation to try first for word `w` (digit `w / 3`, band `w % 3`), out of the
    /// non-empty set `perms`.
    #[inline(always)]
    fn band_perm(&mut self, _w: usize, perms: u8) -> usize {
        perms.trailing_zeros() as usize
    }

    /// The permutation to try first for digit index `d` in stack `s`, out of the non-empty set
    /// `perms`.
    #[inline(always)]
    fn stack_perm(&mut self, _d: usize, _s: usize, perms: u8) -> usize {
        perms.trailing_zeros() as usize
    }
}

/// Tries first, at each guess, the branch that agrees with a given grid, and the others in
/// increasing order: a search for a solution other than the grid (with some of the grid's digits
/// forbidden) then follows the grid wherever it can, and finds first the other solutions that
/// differ from it least. Used by the puzzle generator's uniqueness checks
/// ([`Solver::first_near`]).
pub(crate) struct Near {
    /// Digit index of the grid in each cell.
    digit: [u8; 81],
    /// The grid's permutation (index into `PERM_SEGS`) of each (digit, band) word.
    band: [u8; 27],
    /// The grid's permutation of digit index `d` in stack `s`, at `3 * d + s`.
    stack: [u8; 27],
}

impl Near {
    /// The branches of `g`.
    pub(crate) fn new(g: &Grid) -> Near {
        let bytes = g.as_bytes();
        let mut digit = [0u8; 81];
        // For each digit and band, the box (0-2) of its cell in each row; for each digit and
        // stack, the column (0-2) inside the stack of its cell in each band.
        let mut row_box = [[0u8; 3]; 27];
        let mut band_col = [[0u8; 3]; 27];
        for (i, &v) in bytes.iter().enumerate() {
            let d = v as usize - 1;
            digit[i] = d as u8;
            let (r, c) = (i / 9, i % 9);
            row_box[3 * d + r / 3][r % 3] = (c / 3) as u8;
            band_col[3 * d + c / 3][r / 3] = (c % 3) as u8;
        }
        let perm_of = |k: [u8; 3]| -> u8 {
            let segs = (1u16 << k[0]) | (1 << (3 + k[1])) | (1 << (6 + k[2]));
            PERM_SEGS
                .iter()
                .position(|&p| p == segs)
                .expect("a grid's digit uses one segment permutation") as u8
        };
        let mut band = [0u8; 27];
        let mut stack = [0u8; 27];
        for w in 0..27 {
            band[w] = perm_of(row_box[w]);
            stack[w] = perm_of(band_col[w]);
        }
        Near { digit, band, stack }
    }

    #[inline(always)]
    fn prefer(want: usize, set: u32) -> usize {
        if set >> want & 1 != 0 {
            want
        } else {
            set.trailing_zeros() as usize
        }
    }
}

impl Guesser for &Near {
    #[inline]
    fn choose(&mut self, digits: u32) -> usize {
        digits.trailing_zeros() as usize
    }

    #[inline(always)]
    fn choose_at(&mut self, b: usize, pos: usize, digits: u32) -> usize {
        Near::prefer(self.digit[27 * b + pos] as usize, digits)
    }

    #[inline(always)]
    fn band_perm(&mut self, w: usize, perms: u8) -> usize {
        Near::prefer(self.band[w] as usize, perms as u32)
    }

    #[inline(always)]
    fn stack_perm(&mut self, d: usize, s: usize, perms: u8) -> usize {
        Near::prefer(self.stack[3 * d + s] as usize, perms as u32)
    }
}

/// Tries digits in increasing order.
pub(crate) struct InOrder;

impl Guesser for InOrder {
    #[inline]
    fn choose(&mut self, digits: u32) -> usize {
        digits.trailing_zeros() as usize
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOutcome {
    /// Solutions found, at most the limit asked for.
    pub count: usize,
    /// The first solution found.
    pub solution: Option<Grid>,
    /// How many guesses the search made (a measure of how hard the puzzle is for a backtracker).
    pub guesses: u64,
}

/// The three answers a uniqueness check can give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solutions {
    /// No grid completes the puzzle.
    None,
    /// Exactly one grid completes it.
    Unique(Grid),
    /// Two or more grids complete it; this is one of them.
    Multiple(Grid),
}

/// A puzzle loaded into the solver, which may be narrowed further before searching.
///
/// # Examples
/// ```
/// use shudu_core::{Puzzle, solver::Solver};
/// let p: Puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
///     .parse().unwrap();
/// let mut s = Solver::new(&p);
/// assert_eq!(s.count(2).count, 1);
/// // Forbid r1c3 its solution digit 4: no grid is left.
/// let cell = shudu_core::Cell::at(0, 2);
/// s.forbid(cell, shudu_core::Digit::new(4).unwrap());
/// assert!(!s.has_solution());
/// ```
#[derive(Clone, Copy)]
pub struct Solver {
    state: State,
    /// Bit `b` (0-2): band `b`'s givens repeat a digit in a row; bit 3: a placement beyond the
    /// givens contradicted them. The givens are consistent if and only if this is 0.
    conflicts: u8,
    /// The cells of each band that hold a given (or a placement beyond the givens): in a
    /// consistent state the only candidate of such a cell is its digit, so a digit's givens are
    /// its word's cells among these ([`Solver::unload`] reads them there).
    given: [u32; 3],
}

impl Solver {
    /// Loads the puzzle's givens.
    pub fn new(p: &Puzzle) -> Solver {
        Solver::load(p).0
    }

    /// [`Solver::new`], and the number of givens (counted while loading, an addition a given;
    /// where the count is not used, as in `new`, the compiler drops it).
    ///
    /// A given takes its digit out of its row, its box and its column in all three bands at
    /// once. The band updates would make the same eliminations, but a given's column reaches
    /// the words of its digit in the other bands only when its own word is updated, and a word
    /// of an earlier band, updated already in the root's first round, was then updated again in
    /// the next: 17% fewer instructions in the root's propagation of rot180 minimal generation,
    /// 5.6% fewer for `solve` on 17-clue puzzles (docs/ALGORITHM.md, "Loading the givens"). The search
    /// is the same: propagation reaches the same fixed point from any state between the two.
    #[inline(always)]
    fn load(p: &Puzzle) -> (Solver, usize) {
        let mut state = State::empty();
        let bytes = p.as_bytes();
        let mut conflicts = 0;
        let mut givens = 0;
        // For each digit: its givens and the rows and boxes they fill, band by band, and the
        // columns they fill (the cells of the column in every band).
        let (mut own, mut fill, mut cols) = ([[0u32; 3]; 9], [[0u32; 3]; 9], [0u32; 9]);
        let mut given = [0u32; 3];
        for b in 0..3 {
            let band = &bytes[27 * b..27 * b + 27];
            // The givens as a set first, without a branch a cell (whether a cell is given is
            // hard to predict); then, for each digit, its givens and what they fill.
            let mut set = 0u32;
            for (pos, &v) in band.iter().enumerate() {
                set |= ((v != 0) as u32) << pos;
            }
            given[b] = set;
            // A row holding one digit twice; the search would find the contradiction too, but
            // this keeps `count` from starting on it.
            let (mut repeat, mut rows) = (0, [0u32; 9]);
            let mut left = set;
            while left != 0 {
                // Counted here rather than by `count_ones`: the release targets baseline
                // x86-64, which has no `popcnt` (three `count_ones` were 45 instructions).
                givens += 1;
                let pos = left.trailing_zeros() as usize;
                left &= left - 1;
                let d = band[pos] as usize - 1;
                let row = ROW[pos / 9];
                repeat |= rows[d] & row;
                rows[d] |= row;
                fill[d][b] |= row | BOX[pos % 9 / 3];
                own[d][b] |= 1 << pos;
                cols[d] |= COL[pos % 9];
            }
            conflicts |= ((repeat != 0) as u8) << b;
        }
        // What placing each given does: the cell loses the other digits, the digit its row,
        // box and column; band updates (the words differ from `prev`) do the rest.
        for d in 0..9 {
            for b in 0..3 {
                state.cand[3 * d + b] = (BAND & !given[b] & !fill[d][b] & !cols[d]) | own[d][b];
            }
        }
        (
            Solver {
                state,
                conflicts,
                given,
            },
            givens,
        )
    }

    /// `self`, loaded from a puzzle whose givens repeat no digit in a row (givens placed since
    /// by [`Solver::place`] count as givens), not narrowed since, with its givens `cells`
    /// removed; `q` is that puzzle without them. Equal to `Solver::new(q)`: digging and the
    /// repair of symmetric minimal puzzles test "the puzzle without these givens" again and
    /// again on a puzzle they keep loaded.
    ///
    /// Nothing of `q` is read but in a debug assertion: a digit's givens are its word's cells
    /// among [`Solver::given`]. A removed cell opens again to each other digit that no given of
    /// its row, column or box holds; the removed digits' words are made again from their
    /// givens left, as a load makes them (a given takes its row, box and column).
    pub(crate) fn unload(&self, q: &Puzzle, cells: CellSet) -> Solver {
        debug_assert_eq!(self.conflicts, 0, "a puzzle without repeats");
        let mut s = *self;
        // The digits (bit `d` for digit index `d`) of the removed cells.
        let mut removed = 0u32;
        for c in cells.iter() {
            let i = c.as_index();
            let (b, pos) = (i / 27, i % 27);
            let bit = 1u32 << pos;
            for d in 0..9 {
                removed |= (s.state.cand[3 * d + b] >> pos & 1) << d;
            }
            s.given[b] &= !bit;
        }
        // Each removed cell opens again to the other digits that no given of `q` sees there:
        // the digits of its 20 peers, read from `q`'s bytes (bit `v` for the value `v`, bit 0
        // for an empty peer), where a test of each digit's words against the peers took 9
        // (docs/generate.md, "What the walk and its searches do to stay cheap").
        let bytes = q.as_bytes();
        for c in cells.iter() {
            let i = c.as_index();
            let (b, pos) = (i / 27, i % 27);
            let mut seen = 0u32;
            for &j in &PEER_LIST[i] {
                seen |= 1 << bytes[j as usize];
            }
            let open = !(seen >> 1) & !removed;
            for d in 0..9 {
                s.state.cand[3 * d + b] |= (open >> d & 1) << pos;
            }
        }
        // The removed digits' words are made again, as a load makes them.
        while removed != 0 {
            let d = removed.trailing_zeros() as usize;
            removed &= removed - 1;
            let w = 3 * d;
            let own = [
                s.state.cand[w] & s.given[0],
                s.state.cand[w + 1] & s.given[1],
                s.state.cand[w + 2] & s.given[2],
            ];
            let cols = own[0] | own[1] | own[2];
            let cols = ((cols | cols >> 9 | cols >> 18) & 0x1FF) * 0o1001001;
            for (b, &own) in own.iter().enumerate() {
                s.state.cand[w + b] = (BAND & !s.given[b] & !fills(own) & !cols) | own;
            }
        }
        debug_assert!(s.same_as(&Solver::new(q)), "unload equals a fresh load");
        s
    }

    /// Whether `self` and `other` are the same solver state (for tests and debug assertions: a
    /// state kept in step by [`Solver::unload`] and placements against a fresh load).
    pub(crate) fn same_as(&self, other: &Solver) -> bool {
        let (a, b) = (&self.state, &other.state);
        self.conflicts == other.conflicts
            && self.given == other.given
            && a.cand == b.cand
            && a.prev == b.prev
            && a.unsolved == b.unsolved
            && a.seg == b.seg
            && a.sseg == b.sseg
            && a.touched == b.touched
            && a.tri == b.tri
            && a.perms == b.perms
    }

    /// Forbids `digit` in `cell` (a constraint beyond the givens).
    pub fn forbid(&mut self, cell: Cell, digit: Digit) {
        let i = cell.as_index();
        self.state.forbid(digit.as_index(), i / 27, i % 27);
    }

    /// Narrows every cell to its candidates in `marks` (a pencil-mark record's, see
    /// [`crate::format::Record::marks`]): the solutions left are the grids that put one of its
    /// candidates in every cell.
    ///
    /// # Examples
    /// ```
    /// use shudu_core::{format::marks_of, solver::Solver, Cell, Digit, Puzzle};
    /// let p: Puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    ///     .parse().unwrap();
    /// let mut marks = marks_of(&p);
    /// let mut s = Solver::new(&p);
    /// s.restrict(&marks);
    /// assert_eq!(s.count(2).count, 1);
    /// // Strike r1c3's solution digit 4 from its marks: no grid is left.
    /// marks[2].remove(Digit::new(4).unwrap());
    /// s.restrict(&marks);
    /// assert!(!s.has_solution());
    /// ```
    pub fn restrict(&mut self, marks: &crate::format::Marks) {
        for (i, m) in marks.iter().enumerate() {
            for d in (!*m).iter() {
                self.forbid(Cell::from_index(i), d);
            }
        }
    }

    /// Solves and checks uniqueness (a count up to 2), as [`solve_unique`] does.
    pub fn unique(&self) -> Solutions {
        self.unique_from(false)
    }

    /// [`Solver::unique`] through [`Solver::count_from`].
    fn unique_from(&self, light: bool) -> Solutions {
        let out = self.count_from(2, light);
        match (out.count, out.solution) {
            (1, Some(g)) => Solutions::Unique(g),
            (2, Some(g)) => Solutions::Multiple(g),
            _ => Solutions::None,
        }
    }

    /// Places `digit` in `cell` as one more given (a contradiction with the givens leaves no
    /// solution).
    pub(crate) fn place(&mut self, cell: Cell, digit: Digit) {
        let i = cell.as_index();
        let (d, b, pos) = (digit.as_index(), i / 27, i % 27);
        if !self.state.place(d, b, pos) {
            // No search follows (see `count_from`): the state is left as it is.
            self.conflicts |= 8;
            return;
        }
        // As a load does: the digit leaves the cell's column and box too.
        for k in 0..3 {
            self.state.cand[3 * d + k] &= !COL[pos % 9];
        }
        self.state.cand[3 * d + b] &= !BOX[pos % 9 / 3];
        self.state.cand[3 * d + b] |= 1 << pos;
        self.given[b] |= 1 << pos;
    }

    /// Counts solutions up to `limit`.
    ///
    /// # Complexity
    /// Exponential in the worst case, as for every exact solver; in practice microseconds for
    /// proper puzzles (see BENCHMARKS.md).
    pub fn count(&self, limit: usize) -> SolveOutcome {
        self.count_from(limit, false)
    }

    /// [`Solver::count`], light from the root if `light` (the solving entry points pass
    /// whether the puzzle has at least [`LIGHT_FROM_GIVENS`] givens). The same count either way; with two or more solutions,
    /// perhaps another first one (the guesses differ). The solving entry points
    /// ([`count_solutions`], [`solve`], [`solve_unique`]) use it; `Solver::count`, which the
    /// generator's searches call and whose first solutions they learn from, does not, so that
    /// generation gives the same puzzles as before.
    fn count_from(&self, limit: usize, light: bool) -> SolveOutcome {
        if self.conflicts != 0 || limit == 0 {
            return SolveOutcome {
                count: 0,
                solution: None,
                guesses: 0,
            };
        }
        let mut search = Search::new(InOrder, limit);
        search.light = light;
        search.run(&mut self.state.clone());
        SolveOutcome {
            count: search.count,
            solution: search.first.map(Grid::from_valid_bytes),
            guesses: search.guesses,
        }
    }

    /// The first solution found by a search that tries, at each guess, the branch agreeing with
    /// a grid `g` first (`near`, made from `g`, see [`Near`]); with some of `g`'s digits
    /// forbidden, a solution other than `g` that differs from it little, if there is one. Same
    /// answer as `count(1)` as to whether a solution exists; possibly another solution.
    ///
    /// With `light`, the search propagates lightly from the root ([`Search::light`]: band
    /// updates and naked singles, full propagation after [`FULL_AFTER_GUESSES`] guesses); the
    /// same answer as to whether a solution exists, perhaps another one. The repair of strictly
    /// minimal symmetric puzzles asks for it: its puzzles are near-complete subsets of the grid
    /// (24-30 givens, one digit forbidden), whose searches the root's stack updates and triads
    /// do not shorten enough to pay for (docs/generate.md, "What the walk and its searches do to stay cheap": 8% fewer instructions).
    pub(crate) fn first_near(&self, near: &Near, light: bool) -> Option<Grid> {
        if self.conflicts != 0 {
            return None;
        }
        let mut search = Search::new(near, 1);
        search.light = light;
        search.run(&mut self.state.clone());
        search.first.map(Grid::from_valid_bytes)
    }

    /// Whether the givens force `digit` in `cell` before any propagation: it is a candidate
    /// there, and no other digit is left in the cell, or no other cell of its row, column or box
    /// is left to the digit. Then every solution has `digit` in `cell`, and a search with it
    /// forbidden there finds none: the generator's checks skip that search (a naked or hidden
    /// single straight from the givens, docs/generate.md, "What the walk and its searches do to stay cheap").
    pub(crate) fn forced(&self, cell: Cell, digit: Digit) -> bool {
        let i = cell.as_index();
        let (d, b, pos) = (digit.as_index(), i / 27, i % 27);
        let bit = 1u32 << pos;
        let cand = &self.state.cand;
        if cand[3 * d + b] & bit == 0 {
            return false;
        }
        let mut others = 0;
        for e in (0..9).filter(|&e| e != d) {
            others |= cand[3 * e + b];
        }
        let own = cand[3 * d + b] & !bit;
        let col = COL[pos % 9];
        let in_col = (own | cand[3 * d + (b + 1) % 3] | cand[3 * d + (b + 2) % 3]) & col;
        others & bit == 0 || own & ROW[pos / 9] == 0 || own & BOX[pos % 9 / 3] == 0 || in_col == 0
    }

    /// Whether at least one solution exists (a first-solution search).
    pub fn has_solution(&self) -> bool {
        self.count(1).count == 1
    }
}

/// For each cell, its 20 peers (the other cells of its row, column and box), as indices.
const PEER_LIST: [[u8; 20]; 81] = {
    let mut t = [[0u8; 20]; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        let (mut j, mut k) = (0, 0);
        while j < 81 {
            let (s, d) = (j / 9, j % 9);
            if j != i && (s == r || d == c || (s / 3 == r / 3 && d / 3 == c / 3)) {
                t[i][k] = j as u8;
                k += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The cells of a band that a digit's givens `own` (in that band) take from it: the rows and
/// boxes they lie in.
#[inline(always)]
fn fills(own: u32) -> u32 {
    let mut segs = 0u16;
    for r in 0..3 {
        segs |= (((own >> (9 * r)) & 0x1FF != 0) as u16 * 7) << (3 * r);
    }
    let f = (own | own >> 9 | own >> 18) & 0x1FF;
    segs |= SHRINK[f as usize] as u16 * 0o111;
    SEG_EXPAND[segs as usize]
}

/// Counts the solutions of `p` up to `limit` and returns the first.
pub fn count_solutions(p: &Puzzle, limit: usize) -> SolveOutcome {
    let (s, givens) = Solver::load(p);
    s.count_from(limit, givens >= LIGHT_FROM_GIVENS)
}

/// The first solution of `p`, if any.
pub fn solve(p: &Puzzle) -> Option<Grid> {
    count_solutions(p, 1).solution
}

/// Solves `p` and checks uniqueness (a count up to 2).
///
/// # Examples
/// ```
/// use shudu_core::{Puzzle, solver::{solve_unique, Solutions}};
/// let p: Puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
///     .parse().unwrap();
/// assert!(matches!(solve_unique(&p), Solutions::Unique(_)));
/// assert!(matches!(solve_unique(&Puzzle::empty()), Solutions::Multiple(_)));
/// ```
pub fn solve_unique(p: &Puzzle) -> Solutions {
    let (s, givens) = Solver::load(p);
    s.unique_from(givens >= LIGHT_FROM_GIVENS)
}

/// [`solve_unique`] for a puzzle that may come with pencil marks (a pencil-mark record): with
/// `marks`, only grids that keep to them count.
pub fn solve_unique_marked(p: &Puzzle, marks: Option<&crate::format::Marks>) -> Solutions {
    let (mut s, givens) = Solver::load(p);
    if let Some(m) = marks {
        s.restrict(m);
    }
    s.unique_from(givens >= LIGHT_FROM_GIVENS)
}
