//! The solver's state ([`State`]: each digit's candidates band by band, with the segment sets of
//! its stacks) and its propagation.

use super::*;

/// The solver's state: see the [module docs](super) for the layout.
#[derive(Clone, Copy)]
pub(crate) struct State {
    pub(super) cand: [u32; 27],
    /// The value of each word at its last band update; a word needs an update if and only if it
    /// differs from this.
    pub(super) prev: [u32; 27],
    /// The cells of each band not yet known to be solved.
    pub(super) unsolved: [u32; 3],
    /// The segments word `w` may still use (`SEG_ALLOWED` at its last band update): nine bits,
    /// bit `3r + k` for row `r` of the band inside box `k`.
    pub(super) seg: [u16; 27],
    /// The same for digit index `d` in stack `s`, at index `3d + s`: bit `3b + k` for band `b`,
    /// column `3s + k`.
    pub(super) sseg: [u16; 27],
    /// Digits (bit `d`) whose words changed since their last stack update.
    pub(super) touched: u16,
    /// Bits 0-2: bands, bits 3-5: stacks, whose segment sets changed since their last triad pass.
    pub(super) tri: u8,
    /// For bands 0-2 and stacks 3-5, the permutations left to the nine digits in all, as of
    /// the last triad pass (kept for the branch choice).
    pub(super) perms: [u8; 6],
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
    pub(super) fn update<const TRACK: bool>(&mut self, w: usize) -> bool {
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
    pub(super) fn settle_sweep<const TRACK: bool>(&mut self) -> bool {
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
    pub(super) fn settle_rounds<const TRACK: bool>(&mut self, unit: Option<Avx512>) -> bool {
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
    pub(super) fn stack_update(&mut self, d: usize) -> Option<bool> {
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
    pub(super) fn singles(&mut self) -> Option<bool> {
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
    pub(super) fn propagate_with(
        &mut self,
        stack: bool,
        rounds: bool,
        unit: Option<Avx512>,
    ) -> bool {
        if !stack {
            // A light propagation keeps no account of what changed (`touched`, `tri`: the band
            // updates' bookkeeping for steps 3-4, 4% of the instructions of rot180 minimal
            // generation): everything is marked changed, and a full propagation after it (a
            // light search turned full) runs steps 3-4 everywhere once. The fixed point is the
            // same, and so is the search (docs/generate.md, "What the walk and its searches do to stay cheap").
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
    pub(super) fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to guess on: band, position and its candidate digits. A bivalue cell if there is
    /// one, else a trivalue cell, else any unsolved cell. Among bivalue cells it takes one in the
    /// band with the most of them, and in that band the row with the most: measured on the
    /// hardest sets, this needs 15-25% fewer guesses than the first bivalue cell (BENCHMARKS.md).
    /// The candidate counts come from bit-parallel counters, never from a loop over cells.
    #[inline(always)]
    pub(super) fn pick(&self, careful: bool) -> (usize, usize, u32) {
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
    pub(super) fn triads(&mut self) -> Option<bool> {
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
    pub(super) fn pick_branch(&self) -> Branch {
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
    pub(super) fn restrict_stack(&mut self, d: usize, s: usize, p: usize) {
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
    pub(super) fn restrict_band(&mut self, w: usize, p: usize) {
        self.cand[w] &= SEG_EXPAND[PERM_SEGS[p] as usize];
    }

    #[inline(always)]
    pub(super) fn digits_at(&self, b: usize, pos: usize) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= ((self.cand[3 * d + b] >> pos) & 1) << d;
        }
        digits
    }

    /// The grid of a solved state, as bytes 1..=9.
    pub(super) fn solution(&self) -> [u8; 81] {
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
