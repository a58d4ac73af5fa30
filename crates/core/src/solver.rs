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

const BAND: u32 = (1 << 27) - 1;

/// Bit `k` of `SHRINK[x]` is set if and only if the 9-bit row `x` has a candidate in box `k`
/// of the band (columns `3k..3k+3`).
const SHRINK: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = ((x & 0o7 != 0) as u8)
            | (((x & 0o70 != 0) as u8) << 1)
            | (((x & 0o700 != 0) as u8) << 2);
        x += 1;
    }
    t
};

/// For a 9-bit set of non-empty segments (bit `3r + k`: row `r` of the band, box `k`), the
/// segments that lie on some permutation all of whose segments are non-empty; `0` if there is
/// none, which is a contradiction.
const SEG_ALLOWED: [u16; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 512];
    let mut s = 0;
    while s < 512 {
        let mut p = 0;
        while p < 6 {
            let bits = (1 << PERMS[p][0]) | (1 << (3 + PERMS[p][1])) | (1 << (6 + PERMS[p][2]));
            if s & bits == bits {
                t[s] |= bits as u16;
            }
            p += 1;
        }
        s += 1;
    }
    t
};

/// The six ways a digit can use the segments of a band (or a stack): permutation `p` puts it in
/// box `PERMS[p][r]` of row `r`, as a 9-bit set of segments (bit `3r + k`).
const PERM_SEGS: [u16; 6] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 6];
    let mut p = 0;
    while p < 6 {
        t[p] = (1 << PERMS[p][0]) | (1 << (3 + PERMS[p][1])) | (1 << (6 + PERMS[p][2]));
        p += 1;
    }
    t
};

/// For a 9-bit set of non-empty segments, the permutations (bit `p` for `PERM_SEGS[p]`) all of
/// whose segments are non-empty.
const PERMS_OF: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut s = 0;
    while s < 512 {
        let mut p = 0;
        while p < 6 {
            if s as u16 & PERM_SEGS[p] == PERM_SEGS[p] {
                t[s] |= 1 << p;
            }
            p += 1;
        }
        s += 1;
    }
    t
};

/// For a 9-bit set of non-empty segments, the segments that every permutation all of whose
/// segments are non-empty uses (the segments the digit must fill); `0` if there is none.
const SEG_MUST: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut s = 0;
    while s < 512 {
        let mut m = 0x1FFu16;
        let mut any = false;
        let mut p = 0;
        while p < 6 {
            if s as u16 & PERM_SEGS[p] == PERM_SEGS[p] {
                m &= PERM_SEGS[p];
                any = true;
            }
            p += 1;
        }
        t[s] = if any { m } else { 0 };
        s += 1;
    }
    t
};

/// The number of permutations in `PERMS_OF[s]`.
const PERM_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut s = 0;
    while s < 512 {
        t[s] = PERMS_OF[s].count_ones() as u8;
        s += 1;
    }
    t
};

/// The 27-bit mask of the cells in a 9-bit set of segments.
const SEG_EXPAND: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut seg = 0;
        while seg < 9 {
            if s & (1 << seg) != 0 {
                t[s] |= 0o7 << ((seg / 3) * 9 + (seg % 3) * 3);
            }
            seg += 1;
        }
        s += 1;
    }
    t
};

/// `SINGLE[x]` is the 9-bit row `x` if it holds exactly one candidate, else `0`.
const SINGLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        if (x as u32).count_ones() == 1 {
            t[x] = x as u16;
        }
        x += 1;
    }
    t
};

/// The nine cells of each row of a band.
const ROW: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];

/// For a digit's 9-bit set of columns in a band, the cells its words in the other two bands keep:
/// a box of the band where one column is left puts the digit in that column, so the other bands
/// lose it (locked candidates from a box to its column).
const COL_KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut keep = BAND;
        let mut s = 0;
        while s < 3 {
            let cols: usize = (x >> (3 * s)) & 7;
            if cols != 0 && cols & (cols - 1) == 0 {
                let c = 3 * s + (cols.trailing_zeros() as usize);
                keep &= !((1 << c) | (1 << (c + 9)) | (1 << (c + 18)));
            }
            s += 1;
        }
        t[x] = keep;
        x += 1;
    }
    t
};

/// The words of the same digit in the other two bands.
const NEIGHBOURS: [(u8, u8); 27] = {
    let mut t = [(0u8, 0u8); 27];
    let mut w = 0;
    while w < 27 {
        let base = (w / 3) * 3;
        let b = w % 3;
        t[w] = ((base + (b + 1) % 3) as u8, (base + (b + 2) % 3) as u8);
        w += 1;
    }
    t
};

/// The band of each word, `w % 3`, from a table: in the root's rounds `w` is not a constant,
/// and the division was several instructions a band update (1.6% of the instructions of rot180
/// minimal generation).
const BAND_OF: [u8; 27] = {
    let mut t = [0u8; 27];
    let mut w = 0;
    while w < 27 {
        t[w] = (w % 3) as u8;
        w += 1;
    }
    t
};

/// The three cells of column `c` inside one band.
const COL: [u32; 9] = {
    let mut t = [0u32; 9];
    let mut c = 0;
    while c < 9 {
        t[c] = (1 << c) | (1 << (c + 9)) | (1 << (c + 18));
        c += 1;
    }
    t
};

/// The nine cells of box `k` of a band.
const BOX: [u32; 3] = [0o7007007, 0o70070070, 0o700700700];

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

/// The solver's state: see the [module docs](self) for the layout.
#[derive(Clone, Copy)]
pub(crate) struct State {
    cand: [u32; 27],
    /// The value of each word at its last band update; a word needs an update if and only if it
    /// differs from this.
    prev: [u32; 27],
    /// The cells of each band not yet known to be solved.
    unsolved: [u32; 3],
    /// The segments word `w` may still use (`SEG_ALLOWED` at its last band update): nine bits,
    /// bit `3r + k` for row `r` of the band inside box `k`.
    seg: [u16; 27],
    /// The same for digit index `d` in stack `s`, at index `3d + s`: bit `3b + k` for band `b`,
    /// column `3s + k`.
    sseg: [u16; 27],
    /// Digits (bit `d`) whose words changed since their last stack update.
    touched: u16,
    /// Bits 0-2: bands, bits 3-5: stacks, whose segment sets changed since their last triad pass.
    tri: u8,
    /// For bands 0-2 and stacks 3-5, the permutations left to the nine digits in all, as of
    /// the last triad pass (kept for the branch choice).
    perms: [u8; 6],
}

impl State {
    /// All candidates open, nothing placed.
    pub(crate) const fn empty() -> State {
        State {
            cand: [BAND; 27],
            prev: [BAND; 27],
            unsolved: [BAND; 3],
            seg: [0x1FF; 27],
            sseg: [0x1FF; 27],
            touched: 0,
            tri: 0,
            perms: [54; 6],
        }
    }

    /// Places digit index `d` at position `pos` (0..27) of band `b`: the cell loses its other
    /// digits and the digit the rest of its row; the band update that follows does the rest
    /// (box, column, and marking the cell solved). Returns false if `d` is no longer a candidate
    /// there (a contradiction).
    #[inline(always)]
    pub(crate) fn place(&mut self, d: usize, b: usize, pos: usize) -> bool {
        let bit = 1u32 << pos;
        let w = 3 * d + b;
        if self.cand[w] & bit == 0 {
            return false;
        }
        for e in 0..9 {
            self.cand[3 * e + b] &= !bit;
        }
        self.cand[w] = (self.cand[w] & !ROW[pos / 9]) | bit;
        true
    }

    /// The state after filling whole boxes, written directly rather than by placements (a hot
    /// path of grid generation: `crates/tools/examples/grid_rate.rs`). `boxes[x]` is, if set, the digit
    /// indices of box `x + 1`, row-major; the caller has drawn them so that no row or column
    /// repeats a digit. A digit's candidates in a band are the cells of the empty boxes outside
    /// the rows and columns that already hold it, plus the cells it fills.
    pub(crate) fn from_full_boxes(boxes: &[Option<[u8; 9]>; 9]) -> State {
        let mut cols = [0u32; 9];
        let mut rows = [[0u32; 3]; 9];
        let mut own = [[0u32; 3]; 9];
        let mut filled = [0u32; 3];
        for (x, digits) in boxes.iter().enumerate() {
            let Some(digits) = digits else { continue };
            let (b, s) = (x / 3, x % 3);
            filled[b] |= BOX[s];
            for (k, &d) in digits.iter().enumerate() {
                let pos = 9 * (k / 3) + 3 * s + k % 3;
                let d = d as usize;
                cols[d] |= COL[pos % 9];
                rows[d][b] |= ROW[pos / 9];
                own[d][b] |= 1 << pos;
            }
        }
        let mut st = State::empty();
        for d in 0..9 {
            for b in 0..3 {
                let w = 3 * d + b;
                st.cand[w] = (BAND & !cols[d] & !filled[b] & !rows[d][b]) | own[d][b];
                // A full band has nothing left to update: the word is as an update leaves it.
                // Any other word is updated first thing.
                st.prev[w] = if filled[b] == BAND { st.cand[w] } else { 0 };
            }
        }
        st.unsolved = filled.map(|f| BAND & !f);
        st
    }

    /// Places a digit (1-based cell and digit types).
    #[cfg(test)]
    pub(crate) fn place_cell(&mut self, cell: Cell, d: Digit) -> bool {
        let i = cell.as_index();
        self.place(d.as_index(), i / 27, i % 27)
    }

    /// Removes digit index `d` from the cell at `pos` of band `b`.
    #[inline]
    pub(crate) fn forbid(&mut self, d: usize, b: usize, pos: usize) {
        self.cand[3 * d + b] &= !(1 << pos);
    }

    /// Band update of word `w` (step 1). Returns false on a contradiction. Inlined everywhere:
    /// the sweep calls it with constant words, which fold its index arithmetic.
    ///
    /// With `TRACK`, it also notes what the stack updates and triads will have to look at
    /// again (`touched`, `tri`); a light propagation, which runs neither, does not (see
    /// [`State::propagate_settling`]).
    #[inline(always)]
    fn update<const TRACK: bool>(&mut self, w: usize) -> bool {
        let (d, b) = (w / 3, BAND_OF[w] as usize);
        let a = self.cand[w];
        let shrink = SHRINK[(a & 0x1FF) as usize] as usize
            | (SHRINK[((a >> 9) & 0x1FF) as usize] as usize) << 3
            | (SHRINK[(a >> 18) as usize] as usize) << 6;
        let allowed = SEG_ALLOWED[shrink];
        if allowed == 0 {
            return false;
        }
        // Branch-free, as below: these branches are hard to predict (measured).
        if TRACK {
            self.tri |= ((allowed != self.seg[w]) as u8) << b;
            self.touched |= 1 << d;
        }
        self.seg[w] = allowed;
        let a = a & SEG_EXPAND[allowed as usize];
        self.cand[w] = a;
        self.prev[w] = a;
        let cols = (a | a >> 9 | a >> 18) & 0x1FF;
        // Columns: where the digit has one column left in a box of this band, the other bands
        // lose that column.
        let keep = COL_KEEP[cols as usize];
        let (n1, n2) = NEIGHBOURS[w];
        self.cand[n1 as usize] &= keep;
        self.cand[n2 as usize] &= keep;
        // Hidden singles: a row with one place left holds the digit there (a box with one place
        // left has become such a row above). The cell is solved: the other digits lose it.
        let solved = SINGLE[(a & 0x1FF) as usize] as u32
            | (SINGLE[((a >> 9) & 0x1FF) as usize] as u32) << 9
            | (SINGLE[(a >> 18) as usize] as u32) << 18;
        // Unconditionally: a branch on whether a cell is newly solved is hard to predict, and
        // clearing cells solved before changes nothing. All nine words of the band lose the
        // solved cells, then this word gets its own back: no test of the digit.
        self.unsolved[b] &= !solved;
        for e in 0..9 {
            self.cand[3 * e + b] &= !solved;
        }
        self.cand[w] = a;
        true
    }

    /// Runs band updates over the words that changed until none does, in sweeps: each word in
    /// turn is tested and updated if it changed. Returns false on a contradiction.
    ///
    /// The test is a branch that mispredicts at nearly every word it updates (callgrind's
    /// branch simulation: two thirds of all mispredictions on serg). Where a settle updates few
    /// words (below a guess) that is still the cheapest way; where it updates many (from the
    /// givens, at the root of a search), [`State::settle_rounds`] is.
    #[inline(always)]
    fn settle_sweep<const TRACK: bool>(&mut self) -> bool {
        macro_rules! sweep {
            ($($w:literal)*) => {
                loop {
                    let mut any = false;
                    $(
                        if self.cand[$w] != self.prev[$w] {
                            any = true;
                            if !self.update::<TRACK>($w) {
                                return false;
                            }
                        }
                    )*
                    if !any {
                        return true;
                    }
                }
            };
        }
        sweep!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26)
    }

    /// [`State::settle_sweep`] in rounds: each round takes the set of changed words at once,
    /// branch-free (the compiler compares the 27 words in vectors), and updates them in order;
    /// a word changed again during the round waits for the next. A round mispredicts about
    /// once, at its end, against once a word updated for the sweep: on puzzles mostly solved by
    /// propagation, whose settles update many words, 60% fewer mispredictions and 6-12% faster
    /// for 3-7% more instructions; below a guess (2.2 words a round on serg) 3-4% slower, so
    /// only the root settles in rounds. The fixed point is the same either
    /// way (the updates only remove candidates, each by a rule monotone in the candidates), so
    /// the search is too.
    ///
    /// With `unit`, a round where at least [`VECTOR_FROM`] words changed runs in vectors
    /// ([`Avx512::band_round`], the same fixed point again). With `TRACK`, that round notes what
    /// the stack updates and triads will have to look at again as the scalar updates of those
    /// words would: their digits, and the bands where a segment set changed.
    #[inline(always)]
    fn settle_rounds<const TRACK: bool>(&mut self, unit: Option<Avx512>) -> bool {
        loop {
            let mut changed = 0u32;
            for w in 0..27 {
                changed |= ((self.cand[w] != self.prev[w]) as u32) << w;
            }
            if changed == 0 {
                return true;
            }
            if let Some(unit) = unit.filter(|_| changed.count_ones() >= VECTOR_FROM) {
                let Some(moved) = unit.band_round(
                    &mut self.cand,
                    &mut self.prev,
                    &mut self.seg,
                    &mut self.unsolved,
                ) else {
                    return false;
                };
                if TRACK {
                    for d in 0..9 {
                        self.touched |= (((changed >> (3 * d)) & 7 != 0) as u16) << d;
                    }
                    let moved = moved & changed;
                    for b in 0..3 {
                        self.tri |= ((moved & (0o111111111 << b) != 0) as u8) << b;
                    }
                }
                continue;
            }
            while changed != 0 {
                let w = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                if !self.update::<TRACK>(w) {
                    return false;
                }
            }
        }
    }

    /// Stack update of digit index `d` (step 1, turned by 90°): inside a stack the digit fills one
    /// column of each box and one box of each column, so the (band, column) pairs it uses form a
    /// permutation, and the same table applies. Returns `None` on a contradiction, else whether a
    /// word changed.
    #[inline(always)]
    fn stack_update(&mut self, d: usize) -> Option<bool> {
        let w = 3 * d;
        let a = [self.cand[w], self.cand[w + 1], self.cand[w + 2]];
        let fold = |x: u32| (x | x >> 9 | x >> 18) & 0x1FF;
        let f = [fold(a[0]), fold(a[1]), fold(a[2])];
        let mut keep = [0u32; 3];
        for s in 0..3 {
            let shift = 3 * s;
            let seg =
                ((f[0] >> shift) & 7) | ((f[1] >> shift) & 7) << 3 | ((f[2] >> shift) & 7) << 6;
            let allowed = SEG_ALLOWED[seg as usize];
            if allowed == 0 {
                return None;
            }
            self.tri |= ((allowed != self.sseg[w + s]) as u8) << (3 + s);
            self.sseg[w + s] = allowed;
            let allowed = allowed as u32;
            keep[0] |= (allowed & 7) << shift;
            keep[1] |= ((allowed >> 3) & 7) << shift;
            keep[2] |= ((allowed >> 6) & 7) << shift;
        }
        let mut changed = false;
        for b in 0..3 {
            let k = keep[b];
            let next = a[b] & (k | k << 9 | k << 18);
            changed |= next != a[b];
            self.cand[w + b] = next;
        }
        Some(changed)
    }

    /// Naked singles (step 4). Returns `None` on a contradiction, else whether anything was
    /// placed.
    #[inline(always)]
    fn singles(&mut self) -> Option<bool> {
        let mut placed = false;
        for b in 0..3 {
            let (mut once, mut twice) = (0u32, 0u32);
            // The digit index of each cell in binary, one word a bit (bit-sliced): exact
            // where the cell has one candidate, which is all it is read for. It replaces a
            // search over the nine words a single, whose exit mispredicted about once a single.
            let mut index = [0u32; 4];
            for d in 0..9 {
                let a = self.cand[3 * d + b];
                twice |= once & a;
                once |= a;
                for (k, slice) in index.iter_mut().enumerate() {
                    if d >> k & 1 != 0 {
                        *slice |= a;
                    }
                }
            }
            let u = self.unsolved[b];
            if u & !once != 0 {
                return None;
            }
            let mut singles = u & !twice;
            while singles != 0 {
                let pos = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                let d = (index[0] >> pos & 1
                    | (index[1] >> pos & 1) << 1
                    | (index[2] >> pos & 1) << 2
                    | (index[3] >> pos & 1) << 3) as usize;
                if !self.place(d, b, pos) {
                    return None;
                }
                placed = true;
            }
        }
        Some(placed)
    }

    /// Propagates to a fixed point: band updates and naked singles, then (with `stack`) stack
    /// updates and triads, settling the band updates in sweeps. Returns false on a
    /// contradiction.
    #[inline(always)]
    pub(crate) fn propagate(&mut self, stack: bool) -> bool {
        self.propagate_settling(stack, false)
    }

    /// [`State::propagate`], settling the band updates in rounds ([`State::settle_rounds`]) if
    /// `rounds`, else in sweeps. Rounds pay where a settle updates many words: from
    /// the givens, at the root of a search. Below a guess few words change, and sweeps were
    /// faster there, on the hardest sets as in the light search (forum 1106: 4% slower with
    /// rounds at every node).
    ///
    /// Inlined into the search in optimised builds (a call a node cost 3-5%), never in builds
    /// with debug assertions: there the search recursing with propagation inlined took a 285 KB
    /// frame a level (the 27 unrolled band updates' locals, unshared without optimisation), and
    /// a deep search (an empty grid) overflowed an 8 MB stack.
    #[cfg_attr(debug_assertions, inline(never))]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn propagate_settling(&mut self, stack: bool, rounds: bool) -> bool {
        let unit = if rounds { vector_unit() } else { None };
        self.propagate_with(stack, rounds, unit)
    }

    /// [`State::propagate_settling`], with the rounds' vector unit given (`None`: the scalar
    /// band updates only; the tests compare both).
    #[inline(always)]
    fn propagate_with(&mut self, stack: bool, rounds: bool, unit: Option<Avx512>) -> bool {
        if !stack {
            // A light propagation keeps no account of what changed (`touched`, `tri`: the band
            // updates' bookkeeping for steps 3-4, 4% of the instructions of rot180 minimal
            // generation): everything is marked changed, and a full propagation after it (a
            // light search turned full) runs steps 3-4 everywhere once. The fixed point is the
            // same, and so is the search (docs/generate.md, "Tenth pass").
            self.touched = 0x1FF;
            self.tri = 0x3F;
        }
        loop {
            let settled = match (rounds, stack) {
                (true, true) => self.settle_rounds::<true>(unit),
                (true, false) => self.settle_rounds::<false>(unit),
                (false, true) => self.settle_sweep::<true>(),
                (false, false) => self.settle_sweep::<false>(),
            };
            if !settled {
                return false;
            }
            // Every cell placed, and the band updates at their fixed point: a solution (each
            // word holds one cell a row, on one permutation of segments, alone in its cell and
            // column). Naked singles, stack updates and triads would find nothing more; on
            // puzzles solved by propagation they were 10% of the instructions (ALGORITHM.md).
            if self.is_solved() {
                return true;
            }
            match self.singles() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            if !stack {
                return true;
            }
            let mut changed = false;
            while self.touched != 0 {
                let d = self.touched.trailing_zeros() as usize;
                self.touched &= self.touched - 1;
                match self.stack_update(d) {
                    None => return false,
                    Some(c) => changed |= c,
                }
            }
            if changed {
                continue;
            }
            match self.triads() {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to guess on: band, position and its candidate digits. A bivalue cell if there is
    /// one, else a trivalue cell, else any unsolved cell. Among bivalue cells it takes one in the
    /// band with the most of them, and in that band the row with the most: measured on the
    /// hardest sets, this needs 15-25% fewer guesses than the first bivalue cell (BENCHMARKS.md).
    /// The candidate counts come from bit-parallel counters, never from a loop over cells.
    #[inline(always)]
    fn pick(&self, careful: bool) -> (usize, usize, u32) {
        if !careful {
            for b in 0..3 {
                let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
                for d in 0..9 {
                    let a = self.cand[3 * d + b];
                    thrice |= twice & a;
                    twice |= once & a;
                    once |= a;
                }
                let bi = self.unsolved[b] & twice & !thrice;
                if bi != 0 {
                    let pos = bi.trailing_zeros() as usize;
                    return (b, pos, self.digits_at(b, pos));
                }
            }
        }
        let mut best_band = (0usize, 0u32, 0u32);
        let mut tri = (0usize, 0u32);
        for b in 0..3 {
            let (mut once, mut twice, mut thrice, mut four) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let a = self.cand[3 * d + b];
                four |= thrice & a;
                thrice |= twice & a;
                twice |= once & a;
                once |= a;
            }
            let u = self.unsolved[b];
            let bi = u & twice & !thrice;
            let n = bi.count_ones();
            if n > best_band.1 {
                best_band = (b, n, bi);
            }
            let t = u & thrice & !four;
            if tri.1 == 0 && t != 0 {
                tri = (b, t);
            }
        }
        let (b, n, bi) = best_band;
        if n > 0 {
            let mut row = bi & 0x1FF;
            for r in 1..3 {
                let x = bi & (0x1FF << (9 * r));
                if x.count_ones() > row.count_ones() {
                    row = x;
                }
            }
            let pos = row.trailing_zeros() as usize;
            return (b, pos, self.digits_at(b, pos));
        }
        let (b, pos) = if tri.1 != 0 {
            (tri.0, tri.1.trailing_zeros() as usize)
        } else {
            let b = (0..3).find(|&b| self.unsolved[b] != 0).unwrap_or(0);
            (b, self.unsolved[b].trailing_zeros() as usize)
        };
        (b, pos, self.digits_at(b, pos))
    }

    /// Triads: each segment (three cells of a row inside a box, or of a column inside a box)
    /// holds exactly three digits. In a band or stack, a segment that three digits must fill is
    /// closed to every other digit, and a segment only three digits can fill takes all three.
    /// Only bands and stacks whose segment sets changed since their last pass are looked at.
    /// Returns `None` on a contradiction, else whether a word changed.
    #[inline(always)]
    fn triads(&mut self) -> Option<bool> {
        let mut changed = false;
        while self.tri != 0 {
            let g = self.tri.trailing_zeros() as usize;
            self.tri &= self.tri - 1;
            let sets = if g < 3 { self.seg } else { self.sseg };
            let h = g % 3;
            let (mut a1, mut a2, mut a3, mut a4) = (0u16, 0u16, 0u16, 0u16);
            let (mut m1, mut m2, mut m3, mut m4) = (0u16, 0u16, 0u16, 0u16);
            let mut total = 0;
            for d in 0..9 {
                let al = sets[3 * d + h];
                total += PERM_COUNT[al as usize];
                let mu = SEG_MUST[al as usize];
                a4 |= a3 & al;
                a3 |= a2 & al;
                a2 |= a1 & al;
                a1 |= al;
                m4 |= m3 & mu;
                m3 |= m2 & mu;
                m2 |= m1 & mu;
                m1 |= mu;
            }
            if m4 != 0 || a3 != 0x1FF {
                return None;
            }
            self.perms[g] = total;
            // Closed segments with a fourth digit still allowed, and segments with exactly three
            // digits allowed that not all must fill.
            let closed = m3 & a4;
            let exactly3 = !a4 & !m3 & 0x1FF;
            if closed | exactly3 == 0 {
                continue;
            }
            for d in 0..9 {
                let al = sets[3 * d + h];
                let mu = SEG_MUST[al as usize];
                let mut keep = al & !(closed & !mu);
                let mut forced = exactly3 & al & !mu;
                while forced != 0 {
                    let x = forced.trailing_zeros();
                    forced &= forced - 1;
                    let line = 0o7u16 << (3 * (x / 3));
                    let bx = 0o111u16 << (x % 3);
                    keep &= !((line | bx) & !(1 << x));
                }
                if keep == al {
                    continue;
                }
                changed = true;
                if g < 3 {
                    let w = 3 * d + h;
                    self.cand[w] &= SEG_EXPAND[keep as usize];
                } else {
                    let stack_cols = 0o7007007u32 << (3 * h);
                    for b in 0..3 {
                        let k = ((keep >> (3 * b)) & 7) as u32;
                        let w = 3 * d + b;
                        self.cand[w] &= !stack_cols | (k * 0o1001001) << (3 * h);
                    }
                }
            }
        }
        Some(changed)
    }

    /// The branch a search takes when propagation is stuck, tdoku's rule: among the bands and
    /// stacks not yet fixed at the level of segments, the one where the digits have the fewest
    /// permutations left in all, and in it the digit with the fewest (two when there is one).
    /// The search then tries each of that digit's permutations.
    #[inline(always)]
    fn pick_branch(&self) -> Branch {
        let mut best = (u8::MAX, 0usize);
        for (g, &total) in self.perms.iter().enumerate() {
            if total > 9 && total < best.0 {
                best = (total, g);
            }
        }
        let g = best.1;
        let sets = if g < 3 { &self.seg } else { &self.sseg };
        let h = g % 3;
        let mut pick = (u8::MAX, 0usize);
        for d in 0..9 {
            let n = PERM_COUNT[sets[3 * d + h] as usize];
            if n >= 2 && n < pick.0 {
                pick = (n, d);
            }
        }
        let i = 3 * pick.1 + h;
        let perms = PERMS_OF[sets[i] as usize];
        if g < 3 {
            Branch::Band(i, perms)
        } else {
            Branch::Stack(pick.1, h, perms)
        }
    }

    /// Keeps digit index `d`'s candidates of stack `s` in the columns of permutation `p`.
    #[inline(always)]
    fn restrict_stack(&mut self, d: usize, s: usize, p: usize) {
        let segs = PERM_SEGS[p] as u32;
        let stack_cols = (0o7u32 << (3 * s)) * 0o1001001;
        for b in 0..3 {
            let k = ((segs >> (3 * b)) & 7).trailing_zeros() as usize;
            let keep = !stack_cols | COL[3 * s + k];
            let w = 3 * d + b;
            self.cand[w] &= keep;
        }
    }

    /// Keeps word `w`'s candidates in the segments of permutation `p`.
    #[inline(always)]
    fn restrict_band(&mut self, w: usize, p: usize) {
        self.cand[w] &= SEG_EXPAND[PERM_SEGS[p] as usize];
    }

    #[inline(always)]
    fn digits_at(&self, b: usize, pos: usize) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= ((self.cand[3 * d + b] >> pos) & 1) << d;
        }
        digits
    }

    /// The grid of a solved state, as bytes 1..=9.
    fn solution(&self) -> [u8; 81] {
        let mut cells = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                // Solved: one cell in each of the band's three rows, so three bits, taken
                // without a loop (whose exit mispredicted once a word).
                let a = self.cand[3 * d + b];
                let low = a & a.wrapping_neg();
                let rest = a & !low;
                let mid = rest & rest.wrapping_neg();
                let high = rest & !mid;
                for bit in [low, mid, high] {
                    cells[(27 * b + bit.trailing_zeros() as usize) % 81] = d as u8 + 1;
                }
            }
        }
        cells
    }
}

/// What a guess splits on.
pub(crate) enum Branch {
    /// Band, position and candidate digits of a cell.
    Cell(usize, usize, u32),
    /// A (digit, band) word and its permutations left.
    Band(usize, u8),
    /// Digit, stack and the permutations left.
    Stack(usize, usize, u8),
}

/// The search's bookkeeping.
pub(crate) struct Search<G> {
    guesser: G,
    limit: usize,
    count: usize,
    guesses: u64,
    /// Whether the search below the root propagates lightly: band updates and naked singles,
    /// a guess on the first bivalue cell. Set at the root when a band or stack is nearly fixed
    /// (its digits have at most `LIGHT_BELOW_PERMS` permutations in all, 9 being fixed): such
    /// puzzles, typically with many solutions, have shallow trees in which stack updates and
    /// triads find nothing that pays for them (docs/ALGORITHM.md, "Light search"). Set before
    /// the root, and the root propagated lightly too, for a puzzle with at least
    /// [`LIGHT_FROM_GIVENS`] givens (through the solving entry points only: `count_from`).
    light: bool,
    first: Option<[u8; 81]>,
}

/// A settle in rounds (at the root of a search) runs a round in vectors
/// ([`Avx512::band_round`]) when at least this many words changed, scalar band updates below:
/// a vector round costs about as much as six scalar updates. CPU medians (7 runs; 5 for `solve`)
/// with vector rounds from 1 / 3 / 6 / 10 changed words in light searches: `generate -n 5000
/// --minimal --symmetry rot180 --threads 1 --seed 1` 1.017 / 0.996 / 0.990 / 1.001 s (scalar
/// 1.127 s); from 2 / 4 / 6 / 10 / 16 in full ones: `solve --threads 1` on the permuted 17-clue
/// set 0.093 / 0.091 / 0.090 / 0.092 / 0.098 s (scalar 0.105 s).
const VECTOR_FROM: u32 = 6;

/// The AVX-512 unit, if this CPU has one and the environment does not turn it off
/// (`SHUDU_SIMD=off`: the scalar band updates only, the same results; the tests compare both).
/// Looked for once a process.
fn vector_unit() -> Option<Avx512> {
    static UNIT: std::sync::OnceLock<Option<Avx512>> = std::sync::OnceLock::new();
    *UNIT.get_or_init(|| {
        if std::env::var_os("SHUDU_SIMD").is_some_and(|v| v == "off") {
            None
        } else {
            Avx512::detect()
        }
    })
}

/// The root test of [`Search::light`]: at most this many permutations left in some band or stack.
const LIGHT_BELOW_PERMS: u8 = 15;

/// A search is light from the root, without the root test, for a puzzle with at least this many
/// givens: the root's stack updates and triads, and the permutation branch, cost more than they
/// save on puzzles so full (`puzzles7_serg_benchmark`, 34-35 givens: 13.5% fewer instructions,
/// the same guesses). The other benchmark sets have at most 29 givens but for 4 puzzles; a hard
/// puzzle among the many-givens ones still turns full after [`FULL_AFTER_GUESSES`].
const LIGHT_FROM_GIVENS: usize = 30;

/// A light search turns to full propagation after this many guesses: the puzzle was harder
/// than the root suggested.
const FULL_AFTER_GUESSES: u64 = 16;

impl<G: Guesser> Search<G> {
    pub(crate) fn new(guesser: G, limit: usize) -> Search<G> {
        Search {
            guesser,
            limit,
            count: 0,
            guesses: 0,
            light: false,
            first: None,
        }
    }

    /// Depth-first search from `st` until `limit` solutions are found or the tree is exhausted.
    pub(crate) fn run(&mut self, st: &mut State) {
        loop {
            // Full propagation (stack updates, triads, the permutation branch) at the root and
            // for hard puzzles; the light one below the root of a loose puzzle (see `light`).
            let full = G::STACK_UPDATES && (!self.light || self.guesses >= FULL_AFTER_GUESSES);
            // Rounds at the root only, where the givens change many words at once.
            let ok = if self.guesses == 0 {
                root_propagate(st, full)
            } else {
                st.propagate_settling(full, false)
            };
            if !ok {
                return;
            }
            if self.guesses == 0 && full {
                self.light = st.perms.iter().any(|&n| n > 9 && n <= LIGHT_BELOW_PERMS);
            }
            if st.is_solved() {
                self.count += 1;
                if self.first.is_none() {
                    self.first = Some(st.solution());
                }
                return;
            }
            let branch = if G::CAREFUL_PICK && full {
                st.pick_branch()
            } else {
                let (b, pos, digits) = st.pick(false);
                Branch::Cell(b, pos, digits)
            };
            let (b, pos, mut digits) = match branch {
                Branch::Cell(b, pos, digits) => (b, pos, digits),
                Branch::Band(w, mut perms) => {
                    while perms != 0 {
                        let p = self.guesser.band_perm(w, perms);
                        perms &= !(1 << p);
                        if perms != 0 {
                            self.guesses += 1;
                        }
                        let mut child = *st;
                        child.restrict_band(w, p);
                        self.run(&mut child);
                        if self.count >= self.limit {
                            return;
                        }
                    }
                    return;
                }
                Branch::Stack(d, s, mut perms) => {
                    while perms != 0 {
                        let p = self.guesser.stack_perm(d, s, perms);
                        perms &= !(1 << p);
                        if perms != 0 {
                            self.guesses += 1;
                        }
                        let mut child = *st;
                        child.restrict_stack(d, s, p);
                        self.run(&mut child);
                        if self.count >= self.limit {
                            return;
                        }
                    }
                    return;
                }
            };
            while digits.count_ones() > 1 {
                let d = self.guesser.choose_at(b, pos, digits);
                digits &= !(1 << d);
                self.guesses += 1;
                let mut child = *st;
                if child.place(d, b, pos) {
                    self.run(&mut child);
                    if self.count >= self.limit {
                        return;
                    }
                }
                st.forbid(d, b, pos);
            }
            let d = digits.trailing_zeros() as usize;
            if d >= 9 || !st.place(d, b, pos) {
                return;
            }
        }
    }
}

/// The root's propagation ([`State::propagate_settling`] in rounds), out of line: inlined into
/// [`Search::run`], whose recursive frames run it never (only the root settles in rounds), it
/// was a second copy of the band updates in the search's body (callgrind, rot180 minimal
/// generation: 1.8% fewer instructions; `solve` on 20,000 17-clue puzzles: 2.7% fewer).
/// A call a search costs nothing that shows.
#[inline(never)]
fn root_propagate(st: &mut State, full: bool) -> bool {
    st.propagate_settling(full, true)
}

/// A random descent: propagate, guess with `guesser`, repeat, without the search's bookkeeping.
/// Returns the solution, or `None` at a contradiction the descent cannot undo (the caller starts
/// again). The only undo is of the last guess on a bivalue cell: the state before it is kept, and
/// if the guess leads to a contradiction the other digit is placed there instead. On random
/// complete grids (`crates/tools/examples/grid_rate.rs`) this undoes about a fifth of the contradictions and
/// saves 1.5% of the instructions; a restart is cheaper than the search's state copies for the
/// rest (see docs/ALGORITHM.md).
pub(crate) fn descend<G: Guesser>(mut st: State, guesser: &mut G) -> Option<[u8; 81]> {
    // The state before the last guess on a bivalue cell, and the digit not chosen there.
    let mut other: Option<(State, usize, usize, usize)> = None;
    loop {
        if !st.propagate(G::STACK_UPDATES) {
            let (saved, d, b, pos) = other.take()?;
            st = saved;
            if !st.place(d, b, pos) {
                return None;
            }
            continue;
        }
        if st.is_solved() {
            return Some(st.solution());
        }
        let (b, pos, digits) = st.pick(G::CAREFUL_PICK);
        let d = if digits.count_ones() > 1 {
            let d = guesser.choose(digits);
            let rest = digits & !(1 << d);
            if rest.count_ones() == 1 {
                other = Some((st, rest.trailing_zeros() as usize, b, pos));
            }
            d
        } else {
            digits.trailing_zeros() as usize
        };
        if d >= 9 || !st.place(d, b, pos) {
            return None;
        }
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
    /// 5.6% fewer for `solve` on 17-clue puzzles (docs/generate.md, "Tenth pass"). The search
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
        // (docs/generate.md, "Eleventh pass").
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
    /// do not shorten enough to pay for (docs/generate.md, "Sixth pass": 8% fewer instructions).
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
    /// single straight from the givens, docs/generate.md, "Fourteenth pass").
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `g` with each cell kept as a given with probability `keep` in 81.
    fn subpuzzle(g: &Grid, keep: usize, rng: &mut impl rand::RngCore) -> Puzzle {
        let mut p = g.to_puzzle();
        for c in Cell::all() {
            if (rng.next_u32() as usize % 81) >= keep {
                p.set(c, None);
            }
        }
        p
    }

    #[test]
    fn segment_table_keeps_only_permutation_segments() {
        // All nine segments open: everything allowed.
        assert_eq!(SEG_ALLOWED[0x1FF], 0x1FF);
        // Row 0 only in box 0 (segment 0): rows 1 and 2 cannot use box 0.
        let s = 0b111_111_001;
        assert_eq!(SEG_ALLOWED[s], 0b110_110_001);
        // Rows 0 and 1 both only in box 0: impossible.
        assert_eq!(SEG_ALLOWED[0b111_001_001], 0);
    }

    #[test]
    fn state_from_full_boxes_equals_placing_the_cells() {
        // Boxes 1, 5, 9 and 2 of the grid
        // 534678912672195348198342567859761423426853791713924856961537284287419635345286179
        // (digit indices): the direct state must equal the placements at each stage, once both
        // are propagated (a placement leaves the box and column to the band update).
        let mut boxes: [Option<[u8; 9]>; 9] = [None; 9];
        let fills = [
            (0, [4, 2, 3, 5, 6, 1, 0, 8, 7]),
            (4, [6, 5, 0, 7, 4, 2, 8, 1, 3]),
            (8, [1, 7, 3, 5, 2, 4, 0, 6, 8]),
            (1, [5, 6, 7, 0, 8, 4, 2, 3, 1]),
        ];
        let mut placed = State::empty();
        for (x, digits) in fills {
            for (k, &d) in digits.iter().enumerate() {
                let cell = Cell::at(3 * (x / 3) + k / 3, 3 * (x % 3) + k % 3);
                assert!(placed.place_cell(cell, Digit::from_index(d as usize)));
            }
            boxes[x] = Some(digits);
            // Placements leave the rest to propagation: compare the two fixed points (without
            // the stack steps, as grid generation runs it).
            let mut direct = State::from_full_boxes(&boxes);
            let mut placed = placed;
            assert!(direct.propagate(false) && placed.propagate(false));
            assert_eq!(direct.cand, placed.cand, "after box {}", x + 1);
            assert_eq!(direct.unsolved, placed.unsolved, "after box {}", x + 1);
        }
    }

    #[test]
    fn peer_lists_hold_the_twenty_peers() {
        for (i, peers) in PEER_LIST.iter().enumerate() {
            let (r, c) = (i / 9, i % 9);
            let want: Vec<usize> = (0..81)
                .filter(|&j| {
                    let (s, d) = (j / 9, j % 9);
                    j != i && (s == r || d == c || (s / 3 == r / 3 && d / 3 == c / 3))
                })
                .collect();
            let got: Vec<usize> = peers.iter().map(|&j| j as usize).collect();
            assert_eq!(got, want, "cell {i}");
        }
    }

    #[test]
    fn unloading_givens_equals_a_fresh_load() {
        // Givens removed one or two at a time (in one row, one band, two bands) from a
        // puzzle and from a full grid, against a fresh load of what is left.
        let p: Puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        let full: Puzzle =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .parse()
                .unwrap();
        let mut checked = 0;
        for puzzle in [p, full] {
            let loaded = Solver::new(&puzzle);
            let givens: Vec<Cell> = puzzle.filled().iter().collect();
            let mut sets: Vec<CellSet> = givens.iter().map(|&c| CellSet::single(c)).collect();
            for (i, &a) in givens.iter().enumerate() {
                for &b in &givens[i + 1..] {
                    sets.push(CellSet::single(a) | CellSet::single(b));
                }
            }
            for cells in sets {
                let mut q = puzzle;
                for c in cells.iter() {
                    q.set(c, None);
                }
                let unloaded = loaded.unload(&q, cells);
                assert!(unloaded.same_as(&Solver::new(&q)), "{cells:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 30 + 30 * 29 / 2 + 81 + 81 * 80 / 2);
        // Runs of many cells, as the first digs remove them: whole bands, stacks and digits.
        let full_loaded = Solver::new(&full);
        for k in 0..9 {
            let runs = [
                CellSet::from_bits(((1u128 << 27) - 1) << (27 * (k % 3))),
                full.filled()
                    .iter()
                    .filter(|c| c.col() / 3 == k % 3)
                    .collect(),
                full.filled()
                    .iter()
                    .filter(|&c| full.get(c).map(|d| d.as_index()) == Some(k))
                    .collect(),
            ];
            for cells in runs {
                let q = crate::generate::without(&full, cells);
                assert!(full_loaded.unload(&q, cells).same_as(&Solver::new(&q)));
            }
        }
        // Givens placed after the load count as givens.
        let mut placed = Solver::new(&p);
        let g = crate::solver::solve(&p).unwrap();
        let extra = [Cell::at(0, 2), Cell::at(4, 4), Cell::at(8, 0)];
        let mut q = p;
        for &c in &extra {
            placed.place(c, g.get(c));
            q.set(c, Some(g.get(c)));
        }
        assert!(placed.same_as(&Solver::new(&q)));
        let cells = CellSet::single(extra[1]) | CellSet::single(Cell::at(0, 0));
        let r = crate::generate::without(&q, cells);
        assert!(placed.unload(&r, cells).same_as(&Solver::new(&r)));
    }

    #[test]
    fn a_load_takes_each_given_s_column_and_box_and_changes_no_fixed_point() {
        let p: Puzzle =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        let loaded = Solver::new(&p).state;
        // The givens' rows only, as loads were before: the band updates do the rest.
        let mut rows = State::empty();
        for c in p.filled().iter() {
            let i = c.as_index();
            assert!(rows.place(p.get(c).unwrap().as_index(), i / 27, i % 27));
        }
        // r1c1 holds 4: no 4 left in column 1 or box 1 but there, none in r1 elsewhere.
        let fours = [loaded.cand[9], loaded.cand[10], loaded.cand[11]];
        assert_eq!(fours[0] & COL[0], 1);
        assert_eq!(fours[1] & COL[0], 0);
        assert_eq!(fours[2] & COL[0], 0);
        assert_eq!(fours[0] & BOX[0], 1);
        assert_ne!(rows.cand[10] & COL[0], 0);
        // The same fixed point, lightly and fully.
        for stack in [false, true] {
            let (mut a, mut b) = (loaded, rows);
            assert!(a.propagate(stack) && b.propagate(stack));
            assert_eq!(a.cand, b.cand);
            assert_eq!(a.unsolved, b.unsolved);
        }
    }

    #[test]
    fn empty_puzzle_has_many_solutions() {
        let out = count_solutions(&Puzzle::empty(), 10);
        assert_eq!(out.count, 10);
        assert!(out.solution.is_some());
    }

    #[test]
    fn contradictory_givens_have_no_solution() {
        // Two 1s in row 1 cannot be loaded consistently.
        let mut p = Puzzle::empty();
        p.set(Cell::at(0, 0), Digit::new(1));
        p.set(Cell::at(0, 5), Digit::new(1));
        assert_eq!(count_solutions(&p, 2).count, 0);
    }

    #[test]
    fn solution_extends_the_givens() {
        let p: Puzzle =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        let g = match solve_unique(&p) {
            Solutions::Unique(g) => g,
            other => panic!("expected a unique solution, got {other:?}"),
        };
        for c in Cell::all() {
            if let Some(d) = p.get(c) {
                assert_eq!(g.get(c), d);
            }
        }
    }

    /// Settling in rounds (the root of a search) and in sweeps (below it) reach the same fixed
    /// point, or both a contradiction, so the search does not depend on which one runs.
    #[test]
    fn rounds_and_sweeps_reach_the_same_fixed_point() {
        use crate::grids::{random_grid, rng_for};
        use rand::RngCore;
        let mut rng = rng_for(29, 0);
        let (mut solved, mut stuck, mut dead) = (0, 0, 0);
        for _ in 0..2000 {
            let g = random_grid(&mut rng);
            // 17-40 givens, and now and then a given changed, for some contradictions.
            let keep = 17 + rng.next_u32() as usize % 24;
            let mut p = subpuzzle(&g, keep, &mut rng);
            if rng.next_u32().is_multiple_of(4) {
                let c = Cell::from_index(rng.next_u32() as usize % 81);
                p.set(c, Digit::new(1 + (rng.next_u32() % 9) as u8));
            }
            let s = Solver::new(&p);
            let (mut a, mut b) = (s.state, s.state);
            let ok = a.propagate_settling(true, true);
            assert_eq!(ok, b.propagate_settling(true, false), "puzzle {p}");
            if ok {
                assert_eq!(a.cand, b.cand, "puzzle {p}");
                assert_eq!(a.unsolved, b.unsolved, "puzzle {p}");
                if a.is_solved() {
                    solved += 1;
                } else {
                    stuck += 1;
                }
            } else {
                dead += 1;
            }
        }
        assert!(
            solved > 50 && stuck > 50 && dead > 50,
            "{solved} {stuck} {dead}"
        );
    }

    /// Whether this CPU reports AVX-512 with its byte-and-word and vector-length extensions in
    /// `/proc/cpuinfo` (on Linux): then the vector path must be found and tested, not skipped.
    fn cpu_lists_avx512() -> bool {
        std::fs::read_to_string("/proc/cpuinfo").is_ok_and(|s| {
            s.lines().find(|l| l.starts_with("flags")).is_some_and(|l| {
                let flags: Vec<&str> = l.split_whitespace().collect();
                ["avx512f", "avx512bw", "avx512vl"]
                    .iter()
                    .all(|f| flags.contains(f))
            })
        })
    }

    /// The propagation with rounds in vectors, light and full, ends where the scalar band updates
    /// end: the same candidates, solved cells and segment sets (and with the stack updates and
    /// triads, the same stack segment sets and permutation counts), or a contradiction in both,
    /// from the roots the generator's searches start from (a puzzle with one digit forbidden,
    /// 17-40 givens) and from a state a few cells below.
    #[test]
    fn vector_rounds_reach_the_scalar_fixed_point() {
        use crate::grids::{random_grid, rng_for};
        use rand::RngCore;
        let Some(unit) = Avx512::detect() else {
            assert!(
                !cpu_lists_avx512(),
                "the CPU lists AVX-512 but it was not detected"
            );
            eprintln!("no AVX-512 on this CPU: the vector path is not tested here");
            return;
        };
        let mut rng = rng_for(37, 0);
        let (mut solved, mut stuck, mut dead, mut vector) = (0, 0, 0, 0);
        for i in 0..3000 {
            let g = random_grid(&mut rng);
            let keep = 17 + rng.next_u32() as usize % 24;
            let mut p = subpuzzle(&g, keep, &mut rng);
            if rng.next_u32().is_multiple_of(5) {
                let c = Cell::from_index(rng.next_u32() as usize % 81);
                p.set(c, Digit::new(1 + (rng.next_u32() % 9) as u8));
            }
            // A given taken out and its grid digit forbidden there, as the generator's checks do.
            let out = Cell::all().filter(|&c| p.get(c).is_some()).nth(i % 17);
            if let Some(c) = out {
                p.set(c, None);
            }
            let mut s = Solver::new(&p);
            if let Some(c) = out {
                s.forbid(c, g.get(c));
            }
            let mut st = s.state;
            // Half the time, a few cells placed from the grid first (a state below the root).
            if i % 2 == 1 {
                for _ in 0..3 {
                    let c = Cell::from_index(rng.next_u32() as usize % 81);
                    st.place_cell(c, g.get(c));
                }
            }
            let changed = (0..27).filter(|&w| st.cand[w] != st.prev[w]).count();
            vector += usize::from(changed >= VECTOR_FROM as usize);
            // Light and full propagation.
            for stack in [false, true] {
                let (mut a, mut b) = (st, st);
                let ok = a.propagate_with(stack, true, Some(unit));
                assert_eq!(ok, b.propagate_with(stack, true, None), "puzzle {p}");
                if ok {
                    assert_eq!(a.cand, b.cand, "puzzle {p}");
                    assert_eq!(a.prev, b.prev, "puzzle {p}");
                    assert_eq!(a.seg, b.seg, "puzzle {p}");
                    assert_eq!(a.unsolved, b.unsolved, "puzzle {p}");
                    if stack {
                        assert_eq!(a.sseg, b.sseg, "puzzle {p}");
                        assert_eq!(a.perms, b.perms, "puzzle {p}");
                    }
                    if a.is_solved() {
                        solved += 1;
                    } else {
                        stuck += 1;
                    }
                } else {
                    dead += 1;
                }
            }
        }
        assert!(
            solved > 60 && stuck > 1000 && dead > 1000 && vector > 2000,
            "{solved} {stuck} {dead} {vector}"
        );
    }

    /// A digit `Solver::forced` reports is in every solution: with it forbidden, none is left.
    #[test]
    fn a_forced_digit_leaves_no_solution_when_forbidden() {
        use crate::grids::{random_grid, rng_for};
        use rand::RngCore;
        let mut rng = rng_for(31, 0);
        let (mut forced, mut open) = (0, 0);
        for _ in 0..300 {
            let g = random_grid(&mut rng);
            let keep = 20 + rng.next_u32() as usize % 50;
            let p = subpuzzle(&g, keep, &mut rng);
            let s = Solver::new(&p);
            for c in Cell::all().filter(|&c| p.get(c).is_none()) {
                let d = g.get(c);
                if s.forced(c, d) {
                    forced += 1;
                    let mut t = s;
                    t.forbid(c, d);
                    assert_eq!(t.count(1).count, 0, "{p}: {c:?} {d:?}");
                } else {
                    open += 1;
                }
            }
        }
        assert!(forced > 1000 && open > 1000, "{forced} {open}");
    }

    /// The search near a grid (the generator's uniqueness checks) against the plain search:
    /// the same answer as to whether a solution exists, and what it finds is a solution.
    #[test]
    fn search_near_a_grid_agrees_with_the_plain_search() {
        use crate::grids::{random_grid, rng_for};
        use rand::RngCore;
        let mut rng = rng_for(17, 0);
        let (mut found, mut none) = (0, 0);
        for _ in 0..300 {
            let g = random_grid(&mut rng);
            let near = Near::new(&g);
            // Keep each cell with probability 24..40 in 81, then forbid the grid's digit in one
            // empty cell: some of these have other solutions, some none.
            let keep = 24 + rng.next_u32() as usize % 17;
            let p = subpuzzle(&g, keep, &mut rng);
            let Some(empty) = Cell::all().find(|&c| p.get(c).is_none()) else {
                continue;
            };
            let mut s = Solver::new(&p);
            s.forbid(empty, g.get(empty));
            let plain = s.count(1);
            let other = s.first_near(&near, false);
            assert_eq!(other.is_some(), plain.count == 1, "puzzle {p}");
            let light = s.first_near(&near, true);
            assert_eq!(light.is_some(), plain.count == 1, "puzzle {p}, light");
            if let Some(h) = light {
                assert_ne!(h.get(empty), g.get(empty));
                assert!(p.filled().iter().all(|c| p.get(c) == Some(h.get(c))));
            }
            if let Some(h) = other {
                found += 1;
                assert_ne!(h.get(empty), g.get(empty));
                for c in Cell::all() {
                    if let Some(d) = p.get(c) {
                        assert_eq!(h.get(c), d);
                    }
                }
                // A grid: every house holds nine different digits.
                for house in crate::bitset::House::all() {
                    let mut seen = crate::bitset::DigitSet::EMPTY;
                    for c in house.cells().iter() {
                        seen.insert(h.get(c));
                    }
                    assert_eq!(seen.len(), 9);
                }
            } else {
                none += 1;
            }
        }
        assert!(found > 20 && none > 20, "found {found}, none {none}");
    }
}
