//! Closures: which assumptions can take part in a chain that could still be kept, from what each
//! implies on bit masks, kept between the searches of a mode (docs/logic.md).

use super::*;

/// What one assumption implies under a search's basic rules, on bit masks (bit `c` of digit
/// `d`'s mask: cell `c`, digit `d`), without parents: on → off for the cell's other candidates
/// (Y-links) and the digit's other places in the cell's houses; off → on for a cell's last
/// candidate (Y-links) and a digit's last place in a house, on the working grid (dynamic) or
/// for bivalue cells and bilocal digits of the board (static).
///
/// These rules are monotone, so the potentials an assumption implies are the least set closed
/// under them, whatever the order they are found in: a potential is in a closure if and only if
/// [`Engine::propagate`] reaches it when it meets no contradiction, and propagate's outcome is
/// a subset of the closure when it stops at one (its every link is a derivation here). A
/// closure holds a candidate both on and off if and only if propagate meets a contradiction.
///
/// Each potential also gets its *round*: 0 for the assumption, and one more than the latest
/// of the potentials it needs (the first derivation found, breadth first, so the least). Its
/// parents in propagate include what it needs here, so it has at least `round + 1` distinct
/// ancestors (itself included): a lower bound on its share of a chain's complexity.
#[derive(Clone, Copy)]
pub(super) struct Closure {
    pub(super) on: [u128; 9],
    pub(super) off: [u128; 9],
    /// The least `round(x on) + round(x off) + 2` over the candidates `x` held both on and off
    /// (a lower bound on the complexity of propagate's contradiction), `u32::MAX` if none.
    pub(super) conflict: u32,
    /// The cells holding an off potential (the union of `off`), for [`Kept::update`].
    pub(super) off_cells: u128,
}

impl Closure {
    /// Keeps in `on` and `off` only the potentials this closure holds too; whether any is left.
    /// Not inlined: on its own the compiler does it on SSE2 registers, 16 bytes at a time, where
    /// inlined into its callers it split the 128-bit masks into 64-bit scalars and spilled them
    /// (about 190 instructions a call instead of 90).
    #[inline(never)]
    pub(super) fn narrow(&self, on: &mut [u128; 9], off: &mut [u128; 9]) -> bool {
        let mut any = 0;
        for d in 0..9 {
            on[d] &= self.on[d];
            off[d] &= self.off[d];
            any |= on[d] | off[d];
        }
        any != 0
    }

    /// Sets `on` and `off` to the potentials of `on_in` and `off_in` this closure holds too
    /// ([`Closure::narrow`] without copying them first); whether any is left.
    #[inline(never)]
    pub(super) fn meet(
        &self,
        on_in: &[u128; 9],
        off_in: &[u128; 9],
        on: &mut [u128; 9],
        off: &mut [u128; 9],
    ) -> bool {
        let mut any = 0;
        for d in 0..9 {
            on[d] = on_in[d] & self.on[d];
            off[d] = off_in[d] & self.off[d];
            any |= on[d] | off[d];
        }
        any != 0
    }

    const EMPTY: Closure = Closure {
        on: [0; 9],
        off: [0; 9],
        conflict: u32::MAX,
        off_cells: 0,
    };
}

thread_local! {
    /// The closures each mode's searches made (Nishio, multiple, dynamic), kept between
    /// searches: see [`Kept`].
    pub(super) static KEPT: RefCell<[Option<Kept>; 3]> = const { RefCell::new([None, None, None]) };
}

/// The closures one mode's searches made, kept for its next search: a closure stays what it
/// is on a board with fewer candidates as long as none of the candidates it reads is gone
/// ([`Kept::update`]), so the next chain step remakes only the closures the step changed.
pub(super) struct Kept {
    /// The candidates of the board the kept closures hold for.
    pub(super) cands: [u16; 81],
    /// By assumption.
    pub(super) closures: Vec<Closure>,
    /// The rounds of each closure's potentials, 1,458 bytes per assumption, read only where
    /// its masks hold the potential (so never cleared).
    pub(super) rounds: Vec<u8>,
    /// Per assumption, the highest limit its closure serves: `usize::MAX` if it was not cut,
    /// one more than the limit it was cut for if it was, 0 if there is none.
    pub(super) serves: Vec<usize>,
    /// Per assumption, whether its closure's rounds are written (see
    /// [`Closures::static_masks`]: a closure made from others' has only its masks).
    pub(super) rounds_made: Vec<bool>,
    /// The assumptions with a closure (`serves` not 0), each once, in no particular order:
    /// [`Kept::update`] tests only these, not all 1,458 entries (a few hundred are kept).
    pub(super) live: Vec<u16>,
}

impl Kept {
    pub(super) fn new() -> Kept {
        Kept {
            cands: [0; 81],
            closures: vec![Closure::EMPTY; 1458],
            rounds: vec![0; 1458 * 1458],
            serves: vec![0; 1458],
            rounds_made: vec![false; 1458],
            live: Vec::with_capacity(1458),
        }
    }

    /// Sets the highest limit the closure of `a` serves (not 0), listing `a` in `live` if it
    /// had no closure.
    #[inline]
    pub(super) fn set_serves(&mut self, a: Id, serves: usize) {
        debug_assert!(serves != 0);
        let s = &mut self.serves[a as usize];
        if *s == 0 {
            self.live.push(a);
        }
        *s = serves;
    }

    /// Keeps the closures that hold on the board with candidates `cands`, drops the others.
    ///
    /// A closure reads a candidate only where it holds a potential of it or of its cell or
    /// house: an on potential turns off the cell's other candidates and the digit's places in
    /// its houses (each then an off potential of the closure), and an off potential reads its
    /// cell's candidates (Y-links) and its digit's places in its houses. So on a board that
    /// lost candidates, and no other change, the rules find the same potentials in the same
    /// rounds if no lost candidate is a potential of the closure, none shares a
    /// house with an off potential of its digit, and (with Y-links) no cell that lost a
    /// candidate holds an off potential. A board with a candidate the kept board lacks (another
    /// puzzle) drops them all.
    pub(super) fn update(&mut self, cands: &[u16; 81], y: bool) {
        if self.cands == *cands {
            return;
        }
        if (0..81).any(|c| cands[c] & !self.cands[c] != 0) {
            for &a in &self.live {
                self.serves[a as usize] = 0;
            }
            self.live.clear();
            self.cands = *cands;
            return;
        }
        // Per digit: the cells that lost it, and those cells with their peers.
        let mut gone = [0u128; 9];
        let mut near = [0u128; 9];
        let mut cells = 0u128;
        for c in 0..81 {
            let lost = self.cands[c] & !cands[c];
            if lost != 0 {
                cells |= 1 << c;
                for d in bits(lost) {
                    gone[d] |= 1 << c;
                    near[d] |= crate::logic::PEER_MASK[c] | 1 << c;
                }
            }
        }
        // Only the digits that lost a candidate (often one or two after an elimination).
        let mut digits = [0usize; 9];
        let mut n = 0;
        for d in 0..9 {
            if gone[d] != 0 {
                digits[n] = d;
                n += 1;
            }
        }
        let digits = &digits[..n];
        let cells = if y { cells } else { 0 };
        let (closures, serves) = (&self.closures, &mut self.serves);
        if let [d] = *digits {
            // One digit lost (most updates): its masks hoisted, the closures' read unrolled.
            let d = d.min(8);
            let (gone, near) = (gone[d], near[d]);
            self.live.retain(|&a| {
                let cl = &closures[a as usize];
                let read = (cl.off_cells & cells) | (cl.on[d] & gone) | (cl.off[d] & near);
                if read != 0 {
                    serves[a as usize] = 0;
                }
                read == 0
            });
        } else {
            self.live.retain(|&a| {
                let cl = &closures[a as usize];
                let mut read = cl.off_cells & cells;
                for &d in digits {
                    read |= (cl.on[d] & gone[d]) | (cl.off[d] & near[d]);
                }
                if read != 0 {
                    serves[a as usize] = 0;
                }
                read == 0
            });
        }
        self.cands = *cands;
    }
}

/// The closures of one search's assumptions, made when first asked for (see [`Closure`]),
/// and kept for the next search of the same mode (see [`Kept`]).
pub(super) struct Closures {
    /// Y-links (all but Nishio).
    pub(super) y: bool,
    /// The working grid loses each off potential (all but the static multiple search).
    pub(super) dynamic: bool,
    pub(super) orig: [u16; 81],
    /// Cells holding each digit.
    pub(super) places: [u128; 9],
    /// The places of each digit in cells with another candidate: the on potentials that
    /// remove something.
    pub(super) useful: [u128; 9],
    /// Places of each digit in each house of the board.
    pub(super) counts: [[u8; 9]; 27],
    /// Static multiple search only (empty otherwise): per digit, the cells whose off
    /// potential of it turns something on under the static rules (a bivalue cell, a
    /// bilocal house of the digit); the others' offs are not followed further.
    pub(super) strong: [u128; 9],
    /// Which of [`KEPT`] these are.
    pub(super) slot: usize,
    pub(super) kept: Kept,
    pub(super) queue: Vec<(Id, u8)>,
    /// The queue of [`Closures::make`] (see [`Run::queue`]).
    pub(super) fifo: Box<[(Id, u8); 729]>,
    /// The working grid of the closure being made (dynamic modes: its candidates with Y-links,
    /// its places per house), copied from `orig` and `counts` only where the mode reads it.
    pub(super) cur: [u16; 81],
    pub(super) left: [[u8; 9]; 27],
}

impl Drop for Closures {
    fn drop(&mut self) {
        let kept = std::mem::replace(
            &mut self.kept,
            Kept {
                cands: [0; 81],
                closures: Vec::new(),
                rounds: Vec::new(),
                serves: Vec::new(),
                rounds_made: Vec::new(),
                live: Vec::new(),
            },
        );
        let slot = self.slot;
        let _ = KEPT.try_with(|k| {
            if let Ok(mut k) = k.try_borrow_mut() {
                k[slot] = Some(kept);
            }
        });
    }
}

/// `1 << c` for a cell (or any index below 128), from a table: two loads instead of the
/// variable 128-bit shift (about seven instructions) in the closure kernel's inner tests.
#[inline(always)]
pub(super) fn cell_bit(c: usize) -> u128 {
    static BITS: [u128; 128] = {
        let mut b = [0u128; 128];
        let mut i = 0;
        while i < 128 {
            b[i] = 1 << i;
            i += 1;
        }
        b
    };
    BITS[c & 127]
}

/// One closure being made.
pub(super) struct Run<'a> {
    /// The closure's masks, written in place (in [`Kept::closures`]).
    pub(super) on: &'a mut [u128; 9],
    pub(super) off: &'a mut [u128; 9],
    pub(super) cur: &'a mut [u16; 81],
    /// Places of each digit in each house on the working grid (dynamic).
    pub(super) left: &'a mut [[u8; 9]; 27],
    pub(super) rounds: &'a mut [u8],
    /// The on potentials to follow, with their rounds: the first `queued` of `queue` (each on
    /// potential is queued at most once, so 729 entries are enough).
    pub(super) queue: &'a mut [(Id, u8); 729],
    pub(super) queued: usize,
    pub(super) orig: &'a [u16; 81],
    pub(super) places: &'a [u128; 9],
    pub(super) counts: &'a [[u8; 9]; 27],
    /// See [`Closures::strong`].
    pub(super) strong: &'a [u128; 9],
}

impl Run<'_> {
    /// Adds "c is not d" found in round r, and the on potentials it completes.
    #[inline(always)]
    pub(super) fn add_off<const Y: bool, const DYNAMIC: bool>(
        &mut self,
        c: usize,
        d: usize,
        r: u8,
    ) {
        if self.off[d] & cell_bit(c) != 0 {
            return;
        }
        self.add_new_off::<Y, DYNAMIC>(c, d, r);
    }

    /// [`Run::add_off`] for a potential not yet made.
    #[inline(always)]
    pub(super) fn add_new_off<const Y: bool, const DYNAMIC: bool>(
        &mut self,
        c: usize,
        d: usize,
        r: u8,
    ) {
        let (y, dynamic) = (Y, DYNAMIC);
        let (orig, places, counts) = (self.orig, self.places, self.counts);
        let bit = cell_bit(c);
        self.off[d] |= bit;
        let i = id(c, d, false);
        self.rounds[i as usize] = r;
        let next = r.saturating_add(1);
        if dynamic {
            if y {
                self.cur[c] &= !(1 << d);
                let m = self.cur[c];
                if m != 0 && m & (m - 1) == 0 {
                    self.add_on(c, m.trailing_zeros() as usize, next);
                }
            }
            for &h in &CELL_HOUSES[c] {
                let n = &mut self.left[h as usize][d];
                *n -= 1;
                if *n == 1 {
                    let m = places[d] & !self.off[d] & crate::logic::HOUSE_MASK[h as usize];
                    self.add_on(m.trailing_zeros() as usize, d, next);
                }
            }
        } else if self.strong[d] & bit != 0 {
            let rest = orig[c] & !(1 << d);
            if y && rest != 0 && rest & (rest - 1) == 0 {
                self.add_on(c, rest.trailing_zeros() as usize, next);
            }
            for &h in &CELL_HOUSES[c] {
                if counts[h as usize][d] == 2 {
                    let rest = places[d] & crate::logic::HOUSE_MASK[h as usize] & !bit;
                    self.add_on(rest.trailing_zeros() as usize, d, next);
                }
            }
        }
    }

    #[inline]
    pub(super) fn add_on(&mut self, c: usize, d: usize, r: u8) {
        let bit = cell_bit(c);
        if self.on[d] & bit != 0 {
            return;
        }
        self.on[d] |= bit;
        let i = id(c, d, true);
        self.rounds[i as usize] = r;
        self.queue[self.queued] = (i, r);
        self.queued += 1;
    }
}

impl Closures {
    pub(super) fn new(board: &Board, mode: Mode) -> Closures {
        let mut places = [0u128; 9];
        let mut multi = 0u128;
        for c in 0..81 {
            for d in bits(board.cands[c]) {
                places[d] |= 1 << c;
            }
            if board.cands[c].count_ones() > 1 {
                multi |= 1 << c;
            }
        }
        let slot = match mode {
            Mode::Nishio => 0,
            Mode::Multiple => 1,
            _ => 2,
        };
        let mut kept = KEPT
            .try_with(|k| k.try_borrow_mut().ok().and_then(|mut k| k[slot].take()))
            .ok()
            .flatten()
            .unwrap_or_else(Kept::new);
        kept.update(&board.cands, !mode.nishio());
        let counts: [[u8; 9]; 27] = std::array::from_fn(|h| {
            std::array::from_fn(|d| (places[d] & crate::logic::HOUSE_MASK[h]).count_ones() as u8)
        });
        let mut strong = [0u128; 9];
        if !mode.dynamic() {
            for c in 0..81 {
                if two_bits(board.cands[c]) {
                    for d in bits(board.cands[c]) {
                        strong[d] |= 1 << c;
                    }
                }
            }
            for (h, row) in counts.iter().enumerate() {
                for d in 0..9 {
                    if row[d] == 2 {
                        strong[d] |= places[d] & crate::logic::HOUSE_MASK[h];
                    }
                }
            }
        }
        Closures {
            y: !mode.nishio(),
            dynamic: mode.dynamic(),
            orig: board.cands,
            places,
            useful: std::array::from_fn(|d| places[d] & multi),
            counts,
            strong,
            slot,
            kept,
            queue: Vec::with_capacity(256),
            fifo: Box::new([(0, 0); 729]),
            cur: [0; 81],
            left: [[0; 9]; 27],
        }
    }

    /// The closure of assumption `a`, made if not yet (or not far enough), for a search keeping
    /// chains of at most `limit` nodes.
    pub(super) fn get(&mut self, a: Id, limit: usize) -> &Closure {
        if !self.serves(a, limit) {
            // One copy of the kernel per mode, without its tests of the mode.
            let serves = match (self.y, self.dynamic) {
                (false, _) => self.make::<false, true>(a, limit),
                (true, false) => self.make::<true, false>(a, limit),
                (true, true) => self.make::<true, true>(a, limit),
            };
            self.kept.set_serves(a, serves);
            self.kept.rounds_made[a as usize] = true;
        }
        &self.kept.closures[a as usize]
    }

    /// Whether the closure of `a` is made, with its rounds, for `limit`.
    #[inline]
    pub(super) fn serves(&self, a: Id, limit: usize) -> bool {
        self.kept.serves[a as usize] >= limit && self.kept.rounds_made[a as usize]
    }

    /// The closure of `a` for a search that has kept no chain yet (no limit): its masks only,
    /// the rounds may not be written. In the static multiple search, made from the closures
    /// of others when it can: see [`Closures::static_masks`].
    pub(super) fn masks(&mut self, a: Id) -> &Closure {
        if self.kept.serves[a as usize] != usize::MAX {
            if !self.y || self.dynamic {
                return self.get(a, usize::MAX);
            }
            self.static_masks(a);
            self.kept.set_serves(a, usize::MAX);
            self.kept.rounds_made[a as usize] = false;
        }
        &self.kept.closures[a as usize]
    }

    /// Makes (into [`Kept::closures`]) the static closure of on assumption `a` without rounds,
    /// reusing the closures already made. A static rule has one premise, so a static closure
    /// is what the assumption reaches along the links, and the closure of each potential it reaches is part of it:
    /// when the search reaches an on potential whose whole closure is kept, it adds that
    /// closure's masks at once instead of following its links (the potentials they add are
    /// never followed either: their own closures are inside it). Its conflict is 0 (a lower
    /// bound, unused: the multiple search has no contradictions).
    #[inline(never)]
    pub(super) fn static_masks(&mut self, a: Id) {
        let (orig, places, counts) = (&self.orig, &self.places, &self.counts);
        let strong = &self.strong;
        let (closures, serves) = (&self.kept.closures, &self.kept.serves);
        let mut on = [0u128; 9];
        let mut off = [0u128; 9];
        let stack = &mut self.queue;
        stack.clear();
        let (c0, d0) = (id_cell(a), id_digit(a));
        on[d0] = 1 << c0;
        stack.push((a, 0));
        // Turns on "c is d", or adds its kept closure.
        let reach = |on: &mut [u128; 9],
                     off: &mut [u128; 9],
                     stack: &mut Vec<(Id, u8)>,
                     c: usize,
                     d: usize| {
            if on[d] & cell_bit(c) != 0 {
                return;
            }
            let q = id(c, d, true);
            if serves[q as usize] == usize::MAX {
                let k = &closures[q as usize];
                for v in 0..9 {
                    on[v] |= k.on[v];
                    off[v] |= k.off[v];
                }
            } else {
                on[d] |= cell_bit(c);
                stack.push((q, 0));
            }
        };
        while let Some((p, _)) = stack.pop() {
            let (c, d) = (id_cell(p), id_digit(p));
            // Its offs: the cell's other candidates, the digit's places among its peers (only
            // the digits of the cell have any).
            for v in bits(orig[c]) {
                let offs = if v == d {
                    crate::logic::PEER_MASK[c] & places[d]
                } else {
                    cell_bit(c)
                };
                let mut m = offs & !off[v];
                off[v] |= m;
                // Only the offs that turn something on are followed.
                m &= strong[v];
                while m != 0 {
                    let o = m.trailing_zeros() as usize;
                    m &= m - 1;
                    // Bivalue cell: the other candidate; bilocal digit: the other place.
                    let rest = orig[o] & !(1 << v);
                    if rest != 0 && rest & (rest - 1) == 0 {
                        reach(&mut on, &mut off, stack, o, rest.trailing_zeros() as usize);
                    }
                    for &h in &CELL_HOUSES[o] {
                        if counts[h as usize][v] == 2 {
                            let other =
                                places[v] & crate::logic::HOUSE_MASK[h as usize] & !cell_bit(o);
                            reach(&mut on, &mut off, stack, other.trailing_zeros() as usize, v);
                        }
                    }
                }
            }
        }
        let conflict = if (0..9).any(|v| on[v] & off[v] != 0) {
            0
        } else {
            u32::MAX
        };
        let k = &mut self.kept.closures[a as usize];
        k.on = on;
        k.off = off;
        k.conflict = conflict;
        k.off_cells = off.iter().fold(0, |m, o| m | o);
    }

    /// The round of potential `t` in the closure of `a` (which must hold it).
    #[inline]
    pub(super) fn round(&self, a: Id, t: Id) -> u32 {
        self.kept.rounds[a as usize * 1458 + t as usize] as u32
    }

    /// Makes the closure of `a` in place (its entry of [`Kept::closures`], its rounds in
    /// [`Kept::rounds`]), cut short once what it would still add could only take part in
    /// chains of more than `limit` nodes: a potential it lacks then has too many ancestors for
    /// any chain of this search that could be kept. Returns the highest limit the closure serves:
    /// if it was cut at round `r`, every potential it lacks has round `r + 1` or more, where
    /// `r + 2 > limit`, so at least `limit + 1` ancestors, and every chain it could be part of
    /// has another branch or potential, so more than `limit + 1` nodes; a closure not cut
    /// serves every limit.
    #[inline(never)]
    pub(super) fn make<const Y: bool, const DYNAMIC: bool>(
        &mut self,
        a: Id,
        limit: usize,
    ) -> usize {
        let y = Y;
        let (orig, places, counts) = (&self.orig, &self.places, &self.counts);
        let base = a as usize * 1458;
        let closure = &mut self.kept.closures[a as usize];
        closure.on = [0; 9];
        closure.off = [0; 9];
        // The working grid, only where the mode reads it.
        if DYNAMIC {
            if Y {
                self.cur = *orig;
            }
            self.left = *counts;
        }
        let mut run = Run {
            on: &mut closure.on,
            off: &mut closure.off,
            cur: &mut self.cur,
            left: &mut self.left,
            rounds: &mut self.kept.rounds[base..base + 1458],
            queue: &mut self.fifo,
            queued: 0,
            orig,
            places,
            counts,
            strong: &self.strong,
        };
        // Adds "c is not d" found in round r, and the on potentials it completes.
        let (c0, d0) = (id_cell(a), id_digit(a));
        if id_on(a) {
            run.add_on(c0, d0, 0);
        } else {
            run.add_off::<Y, DYNAMIC>(c0, d0, 0);
        }
        let mut k = 0;
        let mut cut = None;
        while k < run.queued {
            let (p, r) = run.queue[k];
            k += 1;
            let (c, d) = (id_cell(p), id_digit(p));
            // The queue's rounds never decrease, and on potentials of round r are processed
            // after every potential of round r or less was added.
            // A potential not yet found has round r + 1 or more, so at least r + 2 ancestors:
            // it could take part in no chain of `limit` nodes or fewer.
            if r as usize + 2 > limit {
                cut = Some(r);
                break;
            }
            let next = r.saturating_add(1);
            if DYNAMIC && run.off[d] & cell_bit(c) == 0 && settle_counts() {
                // This on potential turns off every other candidate of its cell and every
                // other place of its digit in its houses, after which each of these counts
                // would reach one at it, an on potential already made, and nothing else can
                // change them but its own off (which only takes them to zero, where nothing
                // follows). So they are set where they trigger nothing: two bits no candidate
                // has (never one bit, nor none), a count of places that never falls to one.
                // Not when it is already off: then the last place left is another.
                if y {
                    run.cur[c] |= 3 << 14;
                }
                for &h in &CELL_HOUSES[c] {
                    run.left[h as usize][d] = 100;
                }
            }
            if DYNAMIC && y {
                // The working grid's candidates of the cell are those not yet off (bits 0 to 8;
                // the settled bits are above), and making one off makes no other off potential:
                // no test of `off` for each.
                for v in bits(run.cur[c] & 0x1ff & !(1 << d)) {
                    run.add_new_off::<Y, DYNAMIC>(c, v, next);
                }
            } else if y {
                for v in bits(orig[c] & !(1 << d)) {
                    run.add_off::<Y, DYNAMIC>(c, v, next);
                }
            }
            // None of these is made yet, and making them makes no other off potential of `d`.
            // By 64-bit halves: a 128-bit trailing-zero count and decrement cost a few
            // instructions more each.
            let m = crate::logic::PEER_MASK[c] & places[d] & !run.off[d];
            let mut low = m as u64;
            while low != 0 {
                let o = low.trailing_zeros() as usize;
                low &= low - 1;
                run.add_new_off::<Y, DYNAMIC>(o, d, next);
            }
            let mut high = (m >> 64) as u64;
            while high != 0 {
                let o = 64 + high.trailing_zeros() as usize;
                high &= high - 1;
                run.add_new_off::<Y, DYNAMIC>(o, d, next);
            }
        }
        // The conflict, from the masks once made (each potential's round is written once,
        // when it is made): one pass over the candidates held both on and off, instead of a
        // test at each potential made.
        let mut conflict = u32::MAX;
        if (0..9).fold(0, |m, d| m | (run.on[d] & run.off[d])) != 0 {
            for d in 0..9 {
                let mut m = run.on[d] & run.off[d];
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let i = id(c, d, false) as usize;
                    let lb = run.rounds[i] as u32 + run.rounds[i + 1] as u32 + 2;
                    conflict = conflict.min(lb);
                }
            }
        }
        // A conflict not yet found has a potential of round `cut + 1` or later.
        if let Some(r) = cut {
            conflict = conflict.min(r as u32 + 3);
        }
        closure.off_cells = closure.off.iter().fold(0, |m, o| m | o);
        closure.conflict = conflict;
        cut.map_or(usize::MAX, |_| limit.saturating_add(1))
    }

    /// A lower bound on the complexity of the contradiction assumption `a` leads to, `None` if
    /// it leads to none.
    pub(super) fn contradiction(&mut self, a: Id, limit: usize) -> Option<usize> {
        let c = self.get(a, limit).conflict;
        (c != u32::MAX).then_some(c as usize)
    }

    /// After [`Closures::common_within`] passed for `branches` at `limit`: propagates the
    /// branches without an outcome in `outs`, one at a time with `get`, while some chain of
    /// them could still be kept; whether one could once all are propagated. With the exact
    /// outcome of some branches, their share of a chain on a target is the number of its
    /// ancestors there (what [`made`] counts), not the rounds' bound: a target must be in every
    /// outcome, remove something, and have at most `limit` nodes, its ancestors in the
    /// propagated branches and the rounds' bound in the others. The propagations it saves
    /// are those of the branches left when no target passes. Without a limit, every chain is
    /// kept: all are propagated.
    pub(super) fn staged(
        &self,
        board: &Board,
        branches: &[Id],
        outs: &mut [Option<Rc<Outcome>>],
        limit: usize,
        seen: &mut Seen,
        mut get: impl FnMut(usize) -> Rc<Outcome>,
    ) -> bool {
        loop {
            let Some(i) = outs.iter().position(|o| o.is_none()) else {
                return true;
            };
            if limit != usize::MAX
                && outs.iter().any(|o| o.is_some())
                && !self.exact_within(board, branches, outs, limit, seen)
            {
                return false;
            }
            outs[i] = Some(get(i));
        }
    }

    /// [`Closures::staged`] for branches that are on assumptions, whose outcomes `ons` keeps.
    pub(super) fn staged_ons(
        &self,
        board: &Board,
        branches: &[Id],
        ons: &mut OnCache,
        engine: &Engine,
        limit: usize,
        seen: &mut Seen,
    ) -> bool {
        // At most nine branches (a house's places, a cell's digits): on the stack.
        let mut outs: [Option<Rc<Outcome>>; 9] = Default::default();
        for (o, &a) in outs.iter_mut().zip(branches) {
            *o = ons.0[id_cell(a) * 9 + id_digit(a)].clone();
        }
        let outs = &mut outs[..branches.len()];
        self.staged(board, branches, outs, limit, seen, |i| {
            let a = branches[i];
            ons.get(engine, id_cell(a), id_digit(a))
        })
    }

    /// Whether some potential every closure of `branches` holds (made with rounds for
    /// `limit`) removes something, is in each outcome of `outs`, and has at most `limit`
    /// nodes: its ancestors in each outcome plus the rounds' bound in each other branch.
    pub(super) fn exact_within(
        &self,
        board: &Board,
        branches: &[Id],
        outs: &[Option<Rc<Outcome>>],
        limit: usize,
        seen: &mut Seen,
    ) -> bool {
        let mut on = [0u128; 9];
        let mut off = [0u128; 9];
        for (i, &a) in branches.iter().enumerate() {
            let cl = &self.kept.closures[a as usize];
            if i == 0 {
                cl.meet(&self.useful, &self.places, &mut on, &mut off);
            } else {
                cl.narrow(&mut on, &mut off);
            }
        }
        for d in 0..9 {
            for (masks, is_on) in [(on[d], true), (off[d], false)] {
                let mut m = masks;
                'target: while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let t = id(c, d, is_on);
                    if !concludes(board, t) {
                        continue;
                    }
                    let mut sum = 0;
                    for (&a, o) in branches.iter().zip(outs) {
                        match o {
                            Some(o) if !o.contains(t) => continue 'target,
                            Some(_) => {}
                            None => sum += self.round(a, t) as usize + 1,
                        }
                    }
                    for o in outs.iter().flatten() {
                        if sum >= limit {
                            continue 'target;
                        }
                        sum += o.walk(t, o.parents(t), seen, limit - sum, |_| {});
                    }
                    if sum <= limit {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Narrows `on` and `off` to the potentials the closure of `a` holds too: the first closure
    /// (`*first`, then cleared) meets `useful` and `places`, the others narrow what is left.
    /// Whether any is left.
    #[inline]
    pub(super) fn narrow_by(
        &self,
        a: Id,
        first: &mut bool,
        on: &mut [u128; 9],
        off: &mut [u128; 9],
    ) -> bool {
        let cl = &self.kept.closures[a as usize];
        let any = if *first {
            cl.meet(&self.useful, &self.places, on, off)
        } else {
            cl.narrow(on, off)
        };
        *first = false;
        any
    }

    /// Whether some potential that every assumption of `branches` implies, and that would
    /// remove something, has at most `limit` distinct ancestors summed over the branches by
    /// the rounds' bound: if not, no chain of these branches can be kept.
    pub(super) fn common_within(&mut self, branches: &[Id], limit: usize) -> bool {
        // Only candidates can be implied, and an on potential removes something if and only if
        // its cell has another candidate.
        let n = branches.len();
        if limit < n {
            return false;
        }
        // The first closure meets `useful` and `places`, the others narrow what is left.
        let mut on = [0u128; 9];
        let mut off = [0u128; 9];
        let mut first = true;
        // The closures already made first: if they have nothing in common, the others need
        // not be made.
        let mut todo = 0u32;
        for (i, &a) in branches.iter().enumerate() {
            let made = if limit == usize::MAX {
                self.kept.serves[a as usize] == usize::MAX
            } else {
                self.serves(a, limit)
            };
            if made {
                if !self.narrow_by(a, &mut first, &mut on, &mut off) {
                    return false;
                }
            } else {
                todo |= 1 << i;
            }
        }
        while todo != 0 {
            let a = branches[todo.trailing_zeros() as usize];
            todo &= todo - 1;
            // A potential a cut closure lacks could only be part of longer chains (the cut
            // was made for a limit no lower than this one).
            if limit == usize::MAX {
                self.masks(a);
            } else {
                self.get(a, limit);
            }
            if !self.narrow_by(a, &mut first, &mut on, &mut off) {
                return false;
            }
        }
        if limit == usize::MAX {
            // Some common potential is left, and any number of nodes can be kept.
            return true;
        }
        for d in 0..9 {
            for (masks, is_on) in [(on[d], true), (off[d], false)] {
                let mut m = masks;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let t = id(c, d, is_on);
                    let mut sum = n;
                    for &a in branches {
                        sum += self.round(a, t) as usize;
                        if sum > limit {
                            break;
                        }
                    }
                    if sum <= limit {
                        return true;
                    }
                }
            }
        }
        false
    }
}
