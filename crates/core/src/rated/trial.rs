//! Trial and error to depth one on a candidate grid: the gates and the hardness proxy of the
//! vicinity hunt ([`super::vicinity`], docs/rated.md, "The top of the scale").
//!
//! A position is 81 words, one a cell: bits 0-8 are the candidates (bit `d` for digit `d + 1`)
//! and bit 15 (`SOLVED`) says the cell holds its one candidate. `cand[c] & SOLVED != 0` if and
//! only if cell `c` is solved, and then its low bits are exactly one digit.
//!
//! A *trial* places one candidate and propagates ([`Inner`]): naked and hidden singles, or
//! those with SE's basic techniques inside chains too (locked candidates, naked and hidden
//! pairs, X-Wing: what SE 1.2.1's "Dynamic Forcing Chains (+)" apply at each step). A candidate
//! whose trial ends in a contradiction is *refuted*. The one loop over a position's open
//! candidates is `each_trial`, run by T&E(1) in passes ([`passes`]). Removing a refuted
//! candidate never saves another from refutation (a trial on fewer candidates meets a
//! contradiction no later), so the passes reach the same fixed point as T&E(1) removing one
//! candidate at a time.

use crate::bitset::Cell;
use crate::grid::Puzzle;
use crate::logic::{HOUSE_CELLS, PEERS};

/// The flag of a solved cell (module docs).
const SOLVED: u16 = 0x8000;
/// The nine candidate bits.
const DIGITS: u16 = 0x1ff;

/// What a trial propagates after placing its candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inner {
    /// Naked and hidden singles.
    Singles,
    /// Singles, locked candidates (pointing and claiming), naked and hidden pairs and X-Wing,
    /// to a fixed point: the basic techniques SE's "(+)" chains apply inside a chain.
    Basic,
}

/// A position: the candidates of each cell (module docs).
pub type Position = [u16; 81];

/// Sets cell `c` to the single candidate `bit` and removes it from the peers, recursively for
/// naked singles; `false` on a contradiction.
fn assign(cand: &mut Position, c: usize, bit: u16) -> bool {
    if cand[c] & bit == 0 {
        return false;
    }
    if cand[c] == bit | SOLVED {
        return true;
    }
    cand[c] = bit | SOLVED;
    for &o in &PEERS[c] {
        let o = o as usize;
        if cand[o] & bit != 0 {
            if cand[o] & SOLVED != 0 {
                return false;
            }
            cand[o] &= !bit;
            let m = cand[o];
            if m == 0 {
                return false;
            }
            if m.count_ones() == 1 && !assign(cand, o, m) {
                return false;
            }
        }
    }
    true
}

/// Removes `bits` from the open cell `c` (placing a naked single that results); `false` on a
/// contradiction. Returns through `changed` whether anything was removed.
fn remove(cand: &mut Position, c: usize, bits: u16, changed: &mut bool) -> bool {
    if cand[c] & SOLVED != 0 || cand[c] & bits == 0 {
        return true;
    }
    *changed = true;
    cand[c] &= !bits;
    let m = cand[c];
    m != 0 && (m.count_ones() > 1 || assign(cand, c, m))
}

/// Hidden singles to a fixed point; `false` on a contradiction.
fn hidden(cand: &mut Position) -> bool {
    loop {
        let mut changed = false;
        for h in &HOUSE_CELLS {
            let (mut once, mut twice, mut set) = (0u16, 0u16, 0u16);
            for &c in h {
                let m = cand[c as usize];
                if m & SOLVED != 0 {
                    set |= m & DIGITS;
                } else {
                    twice |= once & m;
                    once |= m;
                }
            }
            if (once | set) & DIGITS != DIGITS {
                return false;
            }
            let single = once & !twice & !set & DIGITS;
            if single != 0 {
                for &c in h {
                    let m = cand[c as usize];
                    if m & SOLVED == 0 && m & single != 0 {
                        let bit = m & single;
                        if bit.count_ones() > 1 || !assign(cand, c as usize, bit) {
                            return false;
                        }
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return true;
        }
    }
}

/// The open cells of house `h` holding candidate `bit`, as a mask over the house's nine cells.
fn places(cand: &Position, h: usize, bit: u16) -> u16 {
    let mut at = 0u16;
    for (k, &c) in HOUSE_CELLS[h].iter().enumerate() {
        let m = cand[c as usize];
        if m & SOLVED == 0 && m & bit != 0 {
            at |= 1 << k;
        }
    }
    at
}

/// One round of the basic techniques of [`Inner::Basic`]; `false` on a contradiction.
/// `changed` says whether a candidate was removed.
fn basic(cand: &mut Position, changed: &mut bool) -> bool {
    for d in 0..9 {
        let bit = 1u16 << d;
        // Locked candidates. A box's places for `d` in one line (pointing), or a line's places
        // in one box (claiming), remove `d` from the rest of the other house.
        for (h, house) in HOUSE_CELLS.iter().enumerate() {
            let at = places(cand, h, bit);
            if at == 0 {
                continue;
            }
            let cells: Vec<usize> = (0..9)
                .filter(|k| at & (1 << k) != 0)
                .map(|k| house[k] as usize)
                .collect();
            let c0 = cells[0];
            let others: [usize; 3] = [c0 / 9, 9 + c0 % 9, 18 + (c0 / 27) * 3 + (c0 % 9) / 3];
            for &o in &others {
                if o == h || !cells.iter().all(|&c| HOUSE_CELLS[o].contains(&(c as u8))) {
                    continue;
                }
                for &x in &HOUSE_CELLS[o] {
                    let x = x as usize;
                    if !cells.contains(&x) && !remove(cand, x, bit, changed) {
                        return false;
                    }
                }
            }
        }
        // X-Wing: two rows (columns) whose places for `d` are the same two columns (rows).
        for base in [0usize, 9] {
            for a in base..base + 9 {
                let pa = places(cand, a, bit);
                if pa.count_ones() != 2 {
                    continue;
                }
                for b in a + 1..base + 9 {
                    if places(cand, b, bit) != pa {
                        continue;
                    }
                    for k in (0..9).filter(|k| pa & (1 << k) != 0) {
                        // The cover: the column (row) through place `k`.
                        let cover = if base == 0 { 9 + k } else { k };
                        for &x in &HOUSE_CELLS[cover] {
                            let x = x as usize;
                            let line = if base == 0 { x / 9 } else { 9 + x % 9 };
                            if line != a && line != b && !remove(cand, x, bit, changed) {
                                return false;
                            }
                        }
                    }
                }
            }
        }
    }
    for h in &HOUSE_CELLS {
        // Naked pairs: two cells of the house with the same two candidates.
        for i in 0..9 {
            let mi = cand[h[i] as usize];
            if mi & SOLVED != 0 || mi.count_ones() != 2 {
                continue;
            }
            for j in i + 1..9 {
                if cand[h[j] as usize] != mi {
                    continue;
                }
                for (k, &x) in h.iter().enumerate() {
                    if k != i && k != j && !remove(cand, x as usize, mi, changed) {
                        return false;
                    }
                }
            }
        }
        // Hidden pairs: two digits whose places in the house are the same two cells.
        let mut at = [0u16; 9];
        for (k, &c) in h.iter().enumerate() {
            let m = cand[c as usize];
            if m & SOLVED == 0 {
                for (d, a) in at.iter_mut().enumerate() {
                    if m & (1 << d) != 0 {
                        *a |= 1 << k;
                    }
                }
            }
        }
        for d in 0..9 {
            if at[d].count_ones() != 2 {
                continue;
            }
            for e in d + 1..9 {
                if at[e] != at[d] {
                    continue;
                }
                let keep = (1u16 << d) | (1 << e);
                for k in (0..9).filter(|k| at[d] & (1 << k) != 0) {
                    let x = h[k] as usize;
                    if !remove(cand, x, DIGITS & !keep, changed) {
                        return false;
                    }
                }
            }
        }
    }
    true
}

/// Propagates `inner` to a fixed point; `false` on a contradiction.
fn settle(cand: &mut Position, inner: Inner) -> bool {
    loop {
        if !hidden(cand) {
            return false;
        }
        if inner == Inner::Singles {
            return true;
        }
        let mut changed = false;
        if !basic(cand, &mut changed) {
            return false;
        }
        if !changed {
            return true;
        }
    }
}

/// The position of puzzle `p` after its givens and singles, or `None` on a contradiction.
pub fn start(p: &Puzzle) -> Option<Position> {
    let mut cand = [DIGITS; 81];
    for c in Cell::all() {
        if let Some(d) = p.get(c) {
            if !assign(&mut cand, c.as_index(), 1 << d.as_index()) {
                return None;
            }
        }
    }
    hidden(&mut cand).then_some(cand)
}

/// The number of open cells.
pub fn open(cand: &Position) -> u32 {
    cand.iter().filter(|&&m| m & SOLVED == 0).count() as u32
}

/// The one loop over trials: for each candidate of an open cell of `cand` (cell order from
/// cell `from`, wrapping around; low digit first), places it on a copy and propagates `inner`;
/// calls
/// `then(cell, bit, result)` with the copy, or `None` when the trial is refuted. `then` returns
/// `false` to stop the loop.
fn each_trial(
    cand: &Position,
    inner: Inner,
    from: usize,
    then: &mut dyn FnMut(usize, u16, Option<&Position>) -> bool,
) {
    for c in (from..81).chain(0..from) {
        let m = cand[c];
        if m & SOLVED != 0 {
            continue;
        }
        let mut rest = m;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= !bit;
            let mut t = *cand;
            let ok = assign(&mut t, c, bit) && settle(&mut t, inner);
            if !then(c, bit, ok.then_some(&t)) {
                return;
            }
        }
    }
}

/// Whether T&E(1) with singles solves `p` (or finds it has no solution), removing each refuted
/// candidate at once: the same fixed point as [`passes`] (module docs) reached with fewer
/// trials, since each removal's singles shrink the trials after it.
pub fn te1_solves(p: &Puzzle) -> bool {
    let Some(mut cand) = start(p) else {
        return true;
    };
    let mut from = 0;
    loop {
        let mut refuted = None;
        each_trial(&cand, Inner::Singles, from, &mut |c, bit, t| {
            if t.is_none() {
                refuted = Some((c, bit));
            }
            t.is_some()
        });
        let Some((c, bit)) = refuted else {
            return open(&cand) == 0;
        };
        let mut changed = false;
        if !remove(&mut cand, c, bit, &mut changed) || !hidden(&mut cand) {
            return true;
        }
        from = c;
    }
}

/// How T&E(1) in passes ended ([`passes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passes {
    /// The puzzle was solved; the score adds up each pass's resistance (per mille of the trials
    /// that removed nothing).
    Solved(u64),
    /// A pass removed nothing, with this many cells open.
    Stuck(u32),
    /// The puzzle has no solution.
    Contradiction,
}

/// T&E(1) in passes: each pass runs every trial on the current position, then removes at once
/// every candidate it refuted (and, with `forcing`, every candidate that all the trials of one
/// cell, or of one digit in one house, remove: SE's cell and region forcing chains, dynamic),
/// then propagates `inner`.
pub fn passes(p: &Puzzle, inner: Inner, forcing: bool) -> Passes {
    let Some(mut cand) = start(p) else {
        return Passes::Contradiction;
    };
    if !settle(&mut cand, inner) {
        return Passes::Contradiction;
    }
    let mut score = 0;
    loop {
        let mut total = 0u64;
        // The candidates each trial leaves, united over the trials of one cell and of one
        // digit in one house (a refuted trial leaves nothing): a candidate outside the union
        // is removed by every branch.
        let (mut by_cell, mut by_region) = if forcing {
            (vec![[0u16; 81]; 81], vec![[0u16; 81]; 27 * 9])
        } else {
            (Vec::new(), Vec::new())
        };
        let mut refuted: Vec<(usize, u16)> = Vec::new();
        each_trial(&cand, inner, 0, &mut |c, bit, t| {
            total += 1;
            match t {
                None => refuted.push((c, bit)),
                Some(t) if forcing => {
                    let d = bit.trailing_zeros() as usize;
                    let houses = [c / 9, 9 + c % 9, 18 + (c / 27) * 3 + (c % 9) / 3];
                    for x in 0..81 {
                        by_cell[c][x] |= t[x] & DIGITS;
                        for &h in &houses {
                            by_region[h * 9 + d][x] |= t[x] & DIGITS;
                        }
                    }
                }
                Some(_) => {}
            }
            true
        });
        if total == 0 {
            return Passes::Solved(score);
        }
        let mut gone = refuted.len() as u64;
        let mut changed = false;
        for (c, bit) in refuted {
            if !remove(&mut cand, c, bit, &mut changed) {
                return Passes::Contradiction;
            }
        }
        if forcing {
            // A union with nothing in it is a cell or region without trials (solved) or with
            // every trial refuted (the removals above then contradict).
            let unions = by_cell
                .iter()
                .chain(by_region.iter())
                .filter(|u| u.iter().any(|&m| m != 0));
            for u in unions {
                for x in 0..81 {
                    let bits = cand[x] & !u[x] & DIGITS;
                    if cand[x] & SOLVED == 0 && bits != 0 {
                        gone += u64::from(bits.count_ones());
                    }
                    if !remove(&mut cand, x, bits, &mut changed) {
                        return Passes::Contradiction;
                    }
                }
            }
        }
        if !changed {
            return Passes::Stuck(open(&cand));
        }
        // The pass's resistance: the share of trials that refuted nothing (the removals a
        // forcing union adds count as refutations).
        score += 1000 - 1000 * gone.min(total) / total;
        if !settle(&mut cand, inner) {
            return Passes::Contradiction;
        }
    }
}
