//! Subsets. A naked set: `n` cells of a house whose candidates together are `n` digits; the rest
//! of the house loses those digits (pair 3.0, triple 3.6, quad 5.0). A hidden set: `n` digits
//! whose places in a house are together `n` cells; those cells lose every other digit (pair 3.4,
//! triple 4.0, quad 5.4). A direct hidden set (pair 2.0, triple 2.5) is one whose eliminations
//! leave a hidden single in the same house; it places that digit.

use super::{bits, cell, digit, house, Board, Places, Rating, Step, HOUSE_CELLS, SE_BCR};
use crate::bitset::{Cell, Digit};

/// Calls `f` on every `k`-subset of `0..n` (as a bit mask), in lexicographic order, until it
/// returns `Some`.
///
/// # Panics
/// If `n > 16`.
pub(crate) fn combinations<T>(
    n: usize,
    k: usize,
    mut f: impl FnMut(u16) -> Option<T>,
) -> Option<T> {
    fn go<T>(
        start: usize,
        n: usize,
        k: usize,
        acc: u16,
        f: &mut impl FnMut(u16) -> Option<T>,
    ) -> Option<T> {
        if k == 0 {
            return f(acc);
        }
        for i in start..=n.saturating_sub(k) {
            if let Some(t) = go(i + 1, n, k - 1, acc | 1 << i, f) {
                return Some(t);
            }
        }
        None
    }
    assert!(n <= 16, "combinations of at most 16 items");
    if k > n {
        return None;
    }
    go(0, n, k, 0, &mut f)
}

/// Calls `f(pick, union)` on the `k`-subsets of `0..masks.len()` (`pick`, as a bit mask) whose
/// masks together hold at most `k` bits (`union`), in the lexicographic order of
/// [`combinations`], until `f` returns `Some`. A subset whose first members already hold more
/// than `k` bits is skipped with all its extensions (unions only grow), so naked and hidden
/// sets and fish, which need a union of exactly `k`, see the same subsets in the same order as
/// with [`combinations`], without the hopeless ones.
///
/// # Panics
/// If `masks.len() > 16`.
pub(crate) fn small_unions<T>(
    masks: &[u16],
    k: usize,
    mut f: impl FnMut(u16, u16) -> Option<T>,
) -> Option<T> {
    fn go<T>(
        masks: &[u16],
        start: usize,
        k: usize,
        left: usize,
        pick: u16,
        union: u16,
        f: &mut impl FnMut(u16, u16) -> Option<T>,
    ) -> Option<T> {
        if left == 0 {
            return f(pick, union);
        }
        for i in start..=masks.len() - left {
            let u = union | masks[i];
            if u.count_ones() as usize > k {
                continue;
            }
            if let Some(t) = go(masks, i + 1, k, left - 1, pick | 1 << i, u, f) {
                return Some(t);
            }
        }
        None
    }
    assert!(masks.len() <= 16, "subsets of at most 16 items");
    if k > masks.len() {
        return None;
    }
    go(masks, 0, k, k, 0, 0, &mut f)
}

/// The items of `0..9` that `mask_of` accepts (in order) and their masks, on the stack rather
/// than in vectors: the subset and fish rules run at almost every step of a grading.
pub(crate) struct Picked {
    items: [usize; 9],
    masks: [u16; 9],
    n: usize,
}

impl Picked {
    pub(crate) fn new(mut mask_of: impl FnMut(usize) -> Option<u16>) -> Picked {
        let mut p = Picked {
            items: [0; 9],
            masks: [0; 9],
            n: 0,
        };
        for i in 0..9 {
            if let Some(m) = mask_of(i) {
                p.items[p.n] = i;
                p.masks[p.n] = m;
                p.n += 1;
            }
        }
        p
    }

    pub(crate) fn items(&self) -> &[usize] {
        &self.items[..self.n]
    }

    pub(crate) fn masks(&self) -> &[u16] {
        &self.masks[..self.n]
    }
}

/// The first hidden set of `degree` digits (`direct`: only one that gives a hidden single).
pub fn hidden_set(board: &Board, degree: usize, direct: bool) -> Option<Step> {
    hidden_set_in(board, &board.places(), degree, direct)
}

/// [`hidden_set`] on a board with these places ([`Board::places`]).
pub(crate) fn hidden_set_in(
    board: &Board,
    places: &Places,
    degree: usize,
    direct: bool,
) -> Option<Step> {
    for &h in &SE_BCR {
        let h = h as usize;
        let empty = board.empty_count(h) as usize;
        if !(empty > degree * 2 || (direct && empty > degree)) {
            continue;
        }
        let pos = &places[h];
        // Only digits with 1 to `degree` places can be in a hidden set of `degree` digits; the
        // combinations of those keep SE's order (increasing digits).
        let picked = Picked::new(|d| {
            (1..=degree as u32)
                .contains(&pos[d].count_ones())
                .then_some(pos[d])
        });
        let usable = picked.items();
        let found = small_unions(picked.masks(), degree, |pick, union| {
            let digits = bits(pick).fold(0u16, |m, k| m | 1 << usable[k]);
            if union.count_ones() as usize != degree {
                return None;
            }
            // Most sets remove nothing, or (direct) leave no single: both are tested before
            // anything is allocated.
            if bits(union).all(|k| board.cands[HOUSE_CELLS[h][k] as usize] & !digits == 0) {
                return None;
            }
            let elims = || {
                let mut elims: Vec<(Cell, Digit)> = Vec::new();
                for k in bits(union) {
                    let c = HOUSE_CELLS[h][k] as usize;
                    for d in bits(board.cands[c] & !digits) {
                        elims.push((cell(c), digit(d)));
                    }
                }
                elims
            };
            let cells = || -> Vec<Cell> {
                board.show(|| {
                    bits(union)
                        .map(|k| cell(HOUSE_CELLS[h][k] as usize))
                        .collect()
                })
            };
            if direct {
                for d in bits(0x1FF & !digits) {
                    if pos[d].count_ones() > 1 && (pos[d] & !union).count_ones() == 1 {
                        let cells = cells();
                        let c =
                            HOUSE_CELLS[h][(pos[d] & !union).trailing_zeros() as usize] as usize;
                        let (technique, rating) = if degree == 2 {
                            ("Direct Hidden Pair", 20)
                        } else {
                            ("Direct Hidden Triplet", 25)
                        };
                        let text = board.say(|| format!(
                            "In {}, digits {} can only go in {}: hidden set; so those cells lose {}, \
                             and {} can only go in {}",
                            house(h),
                            super::digit_list(digits),
                            super::cell_list(&cells),
                            super::elim_list(&elims()),
                            d + 1,
                            cell(c)
                        ));
                        return Some(Step {
                            technique,
                            rating: Rating(rating),
                            // SE applies a direct hint as its placement alone.
                            placements: vec![(cell(c), digit(d))],
                            eliminations: vec![],
                            cells,
                            houses: board.show(|| vec![house(h)]),
                            text,
                        });
                    }
                }
                return None;
            }
            let (technique, rating) = match degree {
                2 => ("Hidden Pair", 34),
                3 => ("Hidden Triplet", 40),
                _ => ("Hidden Quad", 54),
            };
            let (elims, cells) = (elims(), cells());
            let text = board.say(|| {
                format!(
                    "In {}, digits {} can only go in {}: {}; remove {}",
                    house(h),
                    super::digit_list(digits),
                    super::cell_list(&cells),
                    technique.to_lowercase(),
                    super::elim_list(&elims)
                )
            });
            Some(Step {
                technique,
                rating: Rating(rating),
                placements: vec![],
                eliminations: elims,
                cells,
                houses: board.show(|| vec![house(h)]),
                text,
            })
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The first naked set of `degree` cells.
pub fn naked_set(board: &Board, degree: usize) -> Option<Step> {
    for &h in &SE_BCR {
        let h = h as usize;
        let empty = board.empty_count(h) as usize;
        if empty < degree * 2 {
            continue;
        }
        // Cells of the house with 2..=degree candidates.
        let picked = Picked::new(|k| {
            let m = board.cands[HOUSE_CELLS[h][k] as usize];
            let n = m.count_ones() as usize;
            (n >= 2 && n <= degree).then_some(m)
        });
        let candidates: [usize; 9] =
            std::array::from_fn(|i| HOUSE_CELLS[h][picked.items[i]] as usize);
        let found = small_unions(picked.masks(), degree, |pick, union| {
            if union.count_ones() as usize != degree {
                return None;
            }
            // The chosen cells, as a mask over the house.
            let chosen: u16 = bits(pick).fold(0, |m, k| m | 1 << picked.items[k]);
            let mut elims: Vec<(Cell, Digit)> = Vec::new();
            for (k, &c) in HOUSE_CELLS[h].iter().enumerate() {
                let c = c as usize;
                if chosen >> k & 1 == 1 {
                    continue;
                }
                for d in bits(board.cands[c] & union) {
                    elims.push((cell(c), digit(d)));
                }
            }
            if elims.is_empty() {
                return None;
            }
            let (technique, rating) = match degree {
                2 => ("Naked Pair", 30),
                3 => ("Naked Triplet", 36),
                _ => ("Naked Quad", 50),
            };
            let cells: Vec<Cell> = board.show(|| bits(pick).map(|k| cell(candidates[k])).collect());
            let text = board.say(|| {
                format!(
                    "In {}, cells {} hold only the digits {}: {}; remove {}",
                    house(h),
                    super::cell_list(&cells),
                    super::digit_list(union),
                    technique.to_lowercase(),
                    super::elim_list(&elims)
                )
            });
            Some(Step {
                technique,
                rating: Rating(rating),
                placements: vec![],
                eliminations: elims,
                cells,
                houses: board.show(|| vec![house(h)]),
                text,
            })
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subset with a small enough union, in the order `combinations` gives, and no other.
    #[test]
    fn small_unions_keeps_the_order_of_combinations() {
        // A fixed pseudo-random family of 9-bit masks (a linear congruential sequence).
        let mut x = 12345u32;
        let mut accepted = 0;
        for round in 0..200 {
            let n = 1 + round % 9;
            let masks: Vec<u16> = (0..n)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    // Sparse masks (an AND of two draws), so that some unions are small.
                    let a = (x >> 7) as u16;
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    a & (x >> 7) as u16 & 0x1FF
                })
                .collect();
            for k in 1..=n.min(4) {
                let mut expected = Vec::new();
                combinations(n, k, |pick| {
                    let union = bits(pick).fold(0u16, |m, i| m | masks[i]);
                    if union.count_ones() as usize <= k {
                        expected.push((pick, union));
                    }
                    None::<()>
                });
                let mut seen = Vec::new();
                small_unions(&masks, k, |pick, union| {
                    seen.push((pick, union));
                    None::<()>
                });
                assert_eq!(seen, expected, "masks {masks:?}, k {k}");
                accepted += seen.len();
            }
        }
        assert!(
            accepted > 100,
            "the family must have small unions to compare: {accepted}"
        );
    }
}
