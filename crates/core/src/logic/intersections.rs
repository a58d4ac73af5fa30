//! Locked candidates. Pointing: a digit's places in a box all lie in one row or column, so the
//! rest of that line loses the digit (2.6). Claiming: a digit's places in a row or column all lie
//! in one box, so the rest of the box loses it (2.8). The direct forms (1.7 and 1.9) are those
//! whose eliminations leave a hidden single in another house of the first kind; they place it.

use super::{cell, digit, house, Board, Rating, Step, CELL_HOUSES, HOUSE_CELLS, HOUSE_MASK};
use crate::bitset::{Cell, Digit};

/// Pairs of crossing houses in SE's order: (box, column), (box, row), (column, box), (row, box),
/// with the cell masks of both houses.
static CROSSINGS: std::sync::LazyLock<Vec<(usize, usize, u128, u128)>> =
    std::sync::LazyLock::new(|| {
        let box_col = (0..9).flat_map(|b| (0..9).map(move |c| (18 + b, 9 + c)));
        let box_row = (0..9).flat_map(|b| (0..9).map(move |r| (18 + b, r)));
        let col_box = (0..9).flat_map(|c| (0..9).map(move |b| (9 + c, 18 + b)));
        let row_box = (0..9).flat_map(|r| (0..9).map(move |b| (r, 18 + b)));
        box_col
            .chain(box_row)
            .chain(col_box)
            .chain(row_box)
            .filter(|&(a, b)| crosses(a, b))
            .map(|(a, b)| (a, b, HOUSE_MASK[a], HOUSE_MASK[b]))
            .collect()
    });

/// Pairs of crossing houses in SE's order, without masks.
pub(crate) fn crossing_pairs() -> impl Iterator<Item = (usize, usize)> {
    CROSSINGS.iter().map(|&(a, b, _, _)| (a, b))
}

/// Whether two houses of different kinds share cells.
pub(crate) fn crosses(a: usize, b: usize) -> bool {
    HOUSE_CELLS[a].iter().any(|c| HOUSE_CELLS[b].contains(c))
}

/// The first pointing or claiming step (`direct`: only those that give a hidden single).
pub fn locking(board: &Board, direct: bool) -> Option<Step> {
    // Cells holding each digit, as masks over the 81 cells: each crossing is then three mask
    // tests (this rule runs twice per step, `benches/logic.rs`).
    let mut cand = [0u128; 9];
    for c in 0..81 {
        for d in super::bits(board.cands[c]) {
            cand[d] |= 1 << c;
        }
    }
    // Each house is looked at once per digit: a box whose places lie in one row or column
    // (pointing), a line whose places lie in one box (claiming). The hits are then taken in SE's
    // order of crossings (box-column, box-row, column-box, row-box pairs, each by first house,
    // then second) and digits: `key` below is that order.
    let mut hits = [(0u16, 0u8, 0u8, 0u8); 2 * 27 * 9];
    let mut n = 0;
    for d in 0..9 {
        let cd = cand[d];
        for h1 in 0..27 {
            let m1 = HOUSE_MASK[h1];
            let inside = cd & m1;
            // Two places or more.
            if inside & inside.wrapping_sub(1) == 0 {
                continue;
            }
            let first = inside.trailing_zeros() as usize;
            let [row, col, bx] = CELL_HOUSES[first].map(usize::from);
            let targets: &[usize] = if h1 >= 18 { &[col, row] } else { &[bx] };
            for &h2 in targets {
                let m2 = HOUSE_MASK[h2];
                if inside & !m2 != 0 || cd & m2 & !m1 == 0 {
                    continue;
                }
                let key = match (h1 / 9, h2 / 9) {
                    (2, 1) => (h1 - 18) * 9 + (h2 - 9),
                    (2, _) => 81 + (h1 - 18) * 9 + h2,
                    (1, _) => 162 + (h1 - 9) * 9 + (h2 - 18),
                    _ => 243 + h1 * 9 + (h2 - 18),
                };
                hits[n] = (key as u16, d as u8, h1 as u8, h2 as u8);
                n += 1;
            }
        }
    }
    let hits = &mut hits[..n];
    hits.sort_unstable();
    for &(_, d, h1, h2) in hits.iter() {
        let (d, h1, h2) = (d as usize, h1 as usize, h2 as usize);
        let (m1, m2) = (HOUSE_MASK[h1], HOUSE_MASK[h2]);
        let placement = if direct {
            match following_hidden_single(&cand, h1, m2, d) {
                Some(p) => Some(p),
                None => continue,
            }
        } else {
            None
        };
        let removed = cand[d] & m2 & !m1;
        let elims: Vec<(Cell, Digit)> = HOUSE_CELLS[h2]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| removed >> c & 1 == 1)
            .map(|c| (cell(c), digit(d)))
            .collect();
        return Some(make_step(board, h1, h2, d, elims, placement));
    }
    None
}

/// A house of `h1`'s kind, other than `h1`, crossing `h2` (cells `m2`), where `d` (places
/// `cand[d]`) has more than one place and exactly one outside `h2`: the hidden single left once
/// the places in `h2` are removed.
fn following_hidden_single(
    cand: &[u128; 9],
    h1: usize,
    m2: u128,
    d: usize,
) -> Option<(usize, usize)> {
    let kind = h1 / 9;
    for h3 in kind * 9..kind * 9 + 9 {
        let m3 = HOUSE_MASK[h3];
        if h3 == h1 || m3 & m2 == 0 {
            continue;
        }
        let pos = cand[d] & m3;
        if pos & pos.wrapping_sub(1) == 0 {
            continue;
        }
        let outside = pos & !m2;
        if outside != 0 && outside & (outside - 1) == 0 {
            return Some((h3, outside.trailing_zeros() as usize));
        }
    }
    None
}

fn make_step(
    board: &Board,
    h1: usize,
    h2: usize,
    d: usize,
    elims: Vec<(Cell, Digit)>,
    placement: Option<(usize, usize)>,
) -> Step {
    let pointing = h1 >= 18;
    let cells: Vec<Cell> = board.show(|| {
        super::bits(board.positions(h1, d))
            .map(|k| cell(HOUSE_CELLS[h1][k] as usize))
            .collect()
    });
    let what = if pointing { "pointing" } else { "claiming" };
    let mut text = board.say(|| {
        format!(
            "In {}, {} can only go in {}, which lie in {}: {}; remove {} from the rest of {} ({})",
            house(h1),
            d + 1,
            super::cell_list(&cells),
            house(h2),
            what,
            d + 1,
            house(h2),
            super::elim_list(&elims)
        )
    });
    let mut houses = board.show(|| vec![house(h1), house(h2)]);
    let (technique, rating, placements) = match placement {
        Some((h3, c)) => {
            if board.explain {
                text.push_str(&format!(
                    "; then in {}, {} can only go in {}",
                    house(h3),
                    d + 1,
                    cell(c)
                ));
                houses.push(house(h3));
            }
            let (t, r) = if pointing {
                ("Direct Pointing", 17)
            } else {
                ("Direct Claiming", 19)
            };
            (t, r, vec![(cell(c), digit(d))])
        }
        None => {
            let (t, r) = if pointing {
                ("Pointing", 26)
            } else {
                ("Claiming", 28)
            };
            (t, r, vec![])
        }
    };
    // SE applies a direct hint as its placement alone: the eliminations are only the reason.
    let eliminations = if placements.is_empty() { elims } else { vec![] };
    Step {
        technique,
        rating: Rating(rating),
        placements,
        eliminations,
        cells,
        houses,
        text,
    }
}
