//! ALS-XZ. An almost locked set (ALS) is `n` cells of one house with `n + 1` candidates among
//! them (a bivalue cell is one): if it loses a digit, the rest are locked in it. Two ALSs A and
//! B (no common cell) with a *restricted common* digit X (every X of A sees every X of B, so X is
//! in at most one of them): one of them lacks X and is locked, so any other common digit Z is in
//! A or in B; a cell that sees every Z of both loses Z.
//!
//! *Doubly linked* (two restricted commons X and X'): each set lacks exactly one of them and
//! holds every other digit it has, so a cell outside a set that sees all of its places for one of
//! those other digits loses it, and a cell outside both that sees every X (or X') of both loses
//! it.
//!
//! SE has no ALS rule; the rating is that of the cheapest SE chain proving each elimination
//! (a Forcing Chain when both sets are bivalue cells, else usually a dynamic one, whose naked
//! singles follow an ALS down to its last digit; see `docs/logic.md`).

use super::{digit, index_list, step, Masks};
use crate::bitset::{Cell, Digit};
use crate::logic::{bits, digit_list, house, Board, Step, HOUSE_CELLS};

/// The largest ALS looked for. Larger ones exist (eight cells of a house with nine empty ones),
/// but they make hints no player follows, and the rating of such a step is rarely the lowest.
pub const MAX_CELLS: u32 = 4;

/// One almost locked set.
struct Als {
    /// Its house (by ordinal; the first found for a set lying in two).
    house: usize,
    cells: u128,
    digits: u16,
    /// `places[d]`: its cells holding digit index `d`.
    places: [u128; 9],
    /// `sees[d]`: the cells (outside it) that see every one of `places[d]`; 0 if `d` is absent.
    sees: [u128; 9],
}

/// Every ALS of up to [`MAX_CELLS`] cells, houses in ordinal order (rows, columns, boxes), each
/// set once.
fn all_sets(board: &Board) -> Vec<Als> {
    let mut out: Vec<Als> = Vec::new();
    for h in 0..27 {
        let mut empty = [0usize; 9];
        let mut n = 0;
        for &c in &HOUSE_CELLS[h] {
            if board.cands[c as usize] != 0 {
                empty[n] = c as usize;
                n += 1;
            }
        }
        for pick in 1u32..1 << n {
            let size = pick.count_ones();
            if size > MAX_CELLS || size + 1 > n as u32 {
                continue;
            }
            let mut cells = 0u128;
            let mut digits = 0u16;
            for k in bits(pick as u16) {
                cells |= 1 << empty[k];
                digits |= board.cands[empty[k]];
            }
            if digits.count_ones() != size + 1 || out.iter().any(|a| a.cells == cells) {
                continue;
            }
            let mut places = [0u128; 9];
            let mut sees = [0u128; 9];
            for d in bits(digits) {
                for c in super::cells_of(cells) {
                    if board.cands[c] >> d & 1 == 1 {
                        places[d] |= 1 << c;
                    }
                }
                sees[d] = super::seeing_all(places[d]) & !cells;
            }
            out.push(Als {
                house: h,
                cells,
                digits,
                places,
                sees,
            });
        }
    }
    out
}

/// Every ALS-XZ: pairs of sets in the order found, restricted commons ascending.
pub(crate) fn find(board: &Board, masks: &Masks, out: &mut Vec<Step>) {
    let sets = all_sets(board);
    for (i, a) in sets.iter().enumerate() {
        for b in &sets[i + 1..] {
            if a.cells & b.cells != 0 {
                continue;
            }
            let common = a.digits & b.digits;
            if common.count_ones() < 2 {
                continue;
            }
            // Restricted commons: every X of B sees every X of A.
            let mut rcc = 0u16;
            for x in bits(common) {
                if b.places[x] & !a.sees[x] == 0 {
                    rcc |= 1 << x;
                }
            }
            let both = a.cells | b.cells;
            let mut elims: Vec<(Cell, Digit)> = Vec::new();
            let doubly = match rcc.count_ones() {
                1 => {
                    for z in bits(common & !rcc) {
                        let t = masks.cand[z] & a.sees[z] & b.sees[z] & !both;
                        elims.extend(super::elims_of(t, z));
                    }
                    false
                }
                2 => {
                    for x in bits(rcc) {
                        let t = masks.cand[x] & a.sees[x] & b.sees[x] & !both;
                        elims.extend(super::elims_of(t, x));
                    }
                    for set in [a, b] {
                        for z in bits(set.digits & !rcc) {
                            let t = masks.cand[z] & set.sees[z];
                            elims.extend(super::elims_of(t, z));
                        }
                    }
                    true
                }
                // No restricted common; three or more cannot happen on a sound board.
                _ => continue,
            };
            if elims.is_empty() {
                continue;
            }
            elims.sort();
            elims.dedup();
            let describe = |s: &Als| {
                let cells: Vec<usize> = super::cells_of(s.cells).collect();
                format!(
                    "{{{}}} in {} (digits {})",
                    index_list(&cells),
                    house(s.house),
                    digit_list(s.digits)
                )
            };
            let removed = elims
                .iter()
                .map(|(c, d)| format!("{c}≠{d}"))
                .collect::<Vec<_>>()
                .join(", ");
            let text = if doubly {
                format!(
                    "ALS-XZ (doubly linked): {} and {} each have one digit more than cells; their \
                     {}s all see each other, and so do their {}s, so each set lacks one of the two \
                     and holds all its other digits: {removed}",
                    describe(a),
                    describe(b),
                    digit(rcc.trailing_zeros() as usize),
                    digit(15 - (rcc.leading_zeros() as usize)),
                )
            } else {
                let x = rcc.trailing_zeros() as usize;
                let zs = digit_list(common & !rcc);
                format!(
                    "ALS-XZ: {} and {} each have one digit more than cells; their {}s all see \
                     each other, so one set lacks {} and is locked, and either way each of their \
                     other common digits ({zs}) is in one of them: {removed}",
                    describe(a),
                    describe(b),
                    digit(x),
                    digit(x),
                )
            };
            let cells: Vec<usize> = super::cells_of(both).collect();
            out.push(step(
                "ALS-XZ",
                elims,
                cells,
                vec![house(a.house), house(b.house)],
                text,
            ));
        }
    }
}
