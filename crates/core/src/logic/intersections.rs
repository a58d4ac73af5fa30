//! Locked candidates. Pointing: a digit's places in a box all lie in one row or column, so the
//! rest of that line loses the digit (2.6). Claiming: a digit's places in a row or column all lie
//! in one box, so the rest of the box loses it (2.8). The direct forms (1.7 and 1.9) are those
//! whose eliminations leave a hidden single in another house of the first kind; they place it.

use super::{cell, digit, house, Board, Rating, Step, HOUSE_CELLS};
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
            .map(|(a, b)| (a, b, house_mask(a), house_mask(b)))
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

/// Cells of house `h` as a bit mask over the 81 cells.
pub(crate) fn house_mask(h: usize) -> u128 {
    HOUSE_CELLS[h].iter().fold(0, |m, &c| m | 1u128 << c)
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
    for &(h1, h2, m1, m2) in CROSSINGS.iter() {
        for d in 0..9 {
            let inside = cand[d] & m1;
            // Two places or more in h1, all of them in h2, and some place in h2 outside h1.
            if inside.count_ones() <= 1 || inside & !m2 != 0 || cand[d] & m2 & !m1 == 0 {
                continue;
            }
            let elims: Vec<(Cell, Digit)> = HOUSE_CELLS[h2]
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| m1 >> c & 1 == 0 && board.cands[c] >> d & 1 == 1)
                .map(|c| (cell(c), digit(d)))
                .collect();
            if elims.is_empty() {
                continue;
            }
            let placement = if direct {
                match following_hidden_single(board, h1, h2, d) {
                    Some(p) => Some(p),
                    None => continue,
                }
            } else {
                None
            };
            return Some(make_step(board, h1, h2, d, elims, placement));
        }
    }
    None
}

/// A house of `h1`'s kind, other than `h1`, crossing `h2`, where `d` has more than one place and
/// exactly one outside `h2`.
fn following_hidden_single(
    board: &Board,
    h1: usize,
    h2: usize,
    d: usize,
) -> Option<(usize, usize)> {
    let kind = h1 / 9;
    let m2 = house_mask(h2);
    for h3 in kind * 9..kind * 9 + 9 {
        if h3 == h1 || HOUSE_CELLS[h3].iter().all(|&c| m2 >> c & 1 == 0) {
            continue;
        }
        let pos = board.positions(h3, d);
        if pos.count_ones() <= 1 {
            continue;
        }
        let outside: Vec<usize> = super::bits(pos)
            .map(|k| HOUSE_CELLS[h3][k] as usize)
            .filter(|&c| m2 >> c & 1 == 0)
            .collect();
        if outside.len() == 1 {
            return Some((h3, outside[0]));
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
    let cells: Vec<Cell> = super::bits(board.positions(h1, d))
        .map(|k| cell(HOUSE_CELLS[h1][k] as usize))
        .collect();
    let what = if pointing { "pointing" } else { "claiming" };
    let mut text = format!(
        "In {}, {} can only go in {}, which lie in {}: {}; remove {} from the rest of {} ({})",
        house(h1),
        d + 1,
        super::cell_list(&cells),
        house(h2),
        what,
        d + 1,
        house(h2),
        super::elim_list(&elims)
    );
    let mut houses = vec![house(h1), house(h2)];
    let (technique, rating, placements) = match placement {
        Some((h3, c)) => {
            text.push_str(&format!(
                "; then in {}, {} can only go in {}",
                house(h3),
                d + 1,
                cell(c)
            ));
            houses.push(house(h3));
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
