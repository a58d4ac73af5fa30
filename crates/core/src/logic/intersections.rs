//! Locked candidates. Pointing: a digit's places in a box all lie in one row or column, so the
//! rest of that line loses the digit (2.6). Claiming: a digit's places in a row or column all lie
//! in one box, so the rest of the box loses it (2.8). The direct forms (1.7 and 1.9) are those
//! whose eliminations leave a hidden single in another house of the first kind; they place it.

use super::{cell, digit, house, Board, Places, Rating, Step, HOUSE_CELLS, HOUSE_MASK};
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

/// For the places `p` of a digit in a house (bit `k` for its `k`-th cell), two or more of
/// them: `s + 1` in the low four bits if they all lie in the cells `3s` to `3s + 2` (one row of a
/// box, or one box of a line), `j + 1` in the high four bits if they all lie in the cells `j`,
/// `j + 3`, `j + 6` (one column of a box); 0 otherwise (and for fewer than two places).
static ALIGNED: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut p: usize = 0;
    while p < 512 {
        if p & p.wrapping_sub(1) != 0 {
            let mut s = 0;
            while s < 3 {
                if p & !(7 << (3 * s)) == 0 {
                    t[p] = s as u8 + 1;
                }
                if p & !(0o111 << s) == 0 {
                    t[p] = (s as u8 + 1) << 4;
                }
                s += 1;
            }
        }
        p += 1;
    }
    t
};

/// A hit of [`Locks`] as one word: SE's order `key` (below 324), the digit, the house and the
/// crossing house, in that order from the high bits.
fn hit(key: usize, d: usize, h1: usize, h2: usize) -> u32 {
    (key << 20 | d << 16 | h1 << 8 | h2) as u32
}

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
    Locks::new(&board.places()).step(board, direct)
}

/// The locked candidates of one board, found once for both forms of the rule ([`locking`]
/// with `direct` and without): the grader asks for the direct ones first, then, if three other
/// rules find nothing either, the others, on the same board.
pub(crate) struct Locks {
    /// The places of each digit in each row (bit k for column k).
    rows: [[u16; 9]; 9],
    /// (SE's order, digit, house, crossing house), packed by [`hit`] (so that sorting the words
    /// sorts the tuples), sorted.
    hits: [u32; 27 * 9],
    n: usize,
}

impl Locks {
    /// The locked candidates of a board with these places ([`Board::places`]).
    pub(crate) fn new(pos: &Places) -> Locks {
        // Each house is looked at once per digit: a box whose places lie in one row or column
        // (pointing), a line whose places lie in one box (claiming), where the crossing house has
        // places outside. The hits are then taken in SE's order of crossings (box-column, box-row,
        // column-box, row-box pairs, each by first house, then second) and digits: `key` below is
        // that order. Whether the places lie in one line of a box or one box of a line is read
        // from a table ([`ALIGNED`]).
        let mut hits = [0u32; 27 * 9];
        let mut n = 0;
        for b in 0..9 {
            let (band, stack) = (b / 3, b % 3);
            for d in 0..9 {
                let a = ALIGNED[usize::from(pos[18 + b][d] & 0x1FF)];
                if a == 0 {
                    continue;
                }
                // Box-column (key 0..81) or box-row (81..162) crossing.
                let (key, h2, outside) = if a >> 4 != 0 {
                    let col = 3 * stack + usize::from(a >> 4) - 1;
                    (b * 9 + col, 9 + col, pos[9 + col][d] & !(7 << (3 * band)))
                } else {
                    let row = 3 * band + usize::from(a & 15) - 1;
                    (81 + b * 9 + row, row, pos[row][d] & !(7 << (3 * stack)))
                };
                if outside != 0 {
                    hits[n] = hit(key, d, 18 + b, h2);
                    n += 1;
                }
            }
        }
        for line in 0..18 {
            for d in 0..9 {
                let a = ALIGNED[usize::from(pos[line][d] & 0x1FF)] & 15;
                if a == 0 {
                    continue;
                }
                let s = usize::from(a) - 1;
                // Column-box (key 162..243) or row-box (243..324) crossing.
                let (key, b, outside) = if line < 9 {
                    let b = 3 * (line / 3) + s;
                    (
                        243 + line * 9 + b,
                        b,
                        pos[18 + b][d] & !(7 << (3 * (line % 3))),
                    )
                } else {
                    let col = line - 9;
                    let b = 3 * s + col / 3;
                    (162 + col * 9 + b, b, pos[18 + b][d] & !(0o111 << (col % 3)))
                };
                if outside != 0 {
                    hits[n] = hit(key, d, line, 18 + b);
                    n += 1;
                }
            }
        }
        hits[..n].sort_unstable();
        let mut rows = [[0u16; 9]; 9];
        rows.copy_from_slice(&pos[..9]);
        Locks { rows, hits, n }
    }

    /// [`Locks::new`] without the table, house by house (the tests compare both).
    #[cfg(test)]
    fn new_plain(pos: &Places) -> Locks {
        // Each house is looked at once per digit: a box whose places lie in one row or column
        // (pointing), a line whose places lie in one box (claiming), where the crossing house has
        // places outside. The hits are then taken in SE's order of crossings (box-column, box-row,
        // column-box, row-box pairs, each by first house, then second) and digits: `key` below is
        // that order.
        let mut hits = [0u32; 27 * 9];
        let mut n = 0;
        for h1 in 0..27 {
            for d in 0..9 {
                let p = pos[h1][d];
                // Two places or more.
                if p & p.wrapping_sub(1) == 0 {
                    continue;
                }
                let low = p.trailing_zeros() as usize;
                // The crossing house, and the digit's places there outside `h1`.
                let (h2, outside) = if h1 >= 18 {
                    let b = h1 - 18;
                    let (i, j) = (low / 3, low % 3);
                    if p & !(0o111 << j) == 0 {
                        let col = 3 * (b % 3) + j;
                        (9 + col, pos[9 + col][d] & !(7 << (3 * (b / 3))))
                    } else if p & !(7 << (3 * i)) == 0 {
                        let row = 3 * (b / 3) + i;
                        (row, pos[row][d] & !(7 << (3 * (b % 3))))
                    } else {
                        continue;
                    }
                } else {
                    let s = low / 3;
                    if p & !(7 << (3 * s)) != 0 {
                        continue;
                    }
                    if h1 < 9 {
                        let b = 3 * (h1 / 3) + s;
                        (18 + b, pos[18 + b][d] & !(7 << (3 * (h1 % 3))))
                    } else {
                        let col = h1 - 9;
                        let b = 3 * s + col / 3;
                        (18 + b, pos[18 + b][d] & !(0o111 << (col % 3)))
                    }
                };
                if outside == 0 {
                    continue;
                }
                let key = match (h1 / 9, h2 / 9) {
                    (2, 1) => (h1 - 18) * 9 + (h2 - 9),
                    (2, _) => 81 + (h1 - 18) * 9 + h2,
                    (1, _) => 162 + (h1 - 9) * 9 + (h2 - 18),
                    _ => 243 + h1 * 9 + (h2 - 18),
                };
                hits[n] = hit(key, d, h1, h2);
                n += 1;
            }
        }
        hits[..n].sort_unstable();
        let mut rows = [[0u16; 9]; 9];
        rows.copy_from_slice(&pos[..9]);
        Locks { rows, hits, n }
    }

    /// The first hit as a step (`direct`: the first that gives a hidden single).
    pub(crate) fn step(&self, board: &Board, direct: bool) -> Option<Step> {
        self.step_of(board, direct, None)
    }

    /// [`Locks::step`] of one kind only: pointing (`Some(true)`: a box's places in one line),
    /// claiming (`Some(false)`: a line's places in one box), or either (`None`).
    pub(crate) fn step_of(
        &self,
        board: &Board,
        direct: bool,
        pointing: Option<bool>,
    ) -> Option<Step> {
        for &x in &self.hits[..self.n] {
            let (d, h1, h2) = (
                (x >> 16 & 15) as usize,
                (x >> 8 & 255) as usize,
                (x & 255) as usize,
            );
            if pointing.is_some_and(|p| p != (h1 >= 18)) {
                continue;
            }
            let (m1, m2) = (HOUSE_MASK[h1], HOUSE_MASK[h2]);
            // Cells holding d, as a mask over the 81 cells.
            let cd = (0..9).fold(0u128, |m, r| m | u128::from(self.rows[r][d]) << (9 * r));
            let placement = if direct {
                match following_hidden_single(cd, h1, m2) {
                    Some(p) => Some(p),
                    None => continue,
                }
            } else {
                None
            };
            let removed = cd & m2 & !m1;
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
}

/// A house of `h1`'s kind, other than `h1`, crossing `h2` (cells `m2`), where the digit (places
/// `cd`) has more than one place and exactly one outside `h2`: the hidden single left once the
/// places in `h2` are removed.
fn following_hidden_single(cd: u128, h1: usize, m2: u128) -> Option<(usize, usize)> {
    let kind = h1 / 9;
    for h3 in kind * 9..kind * 9 + 9 {
        let m3 = HOUSE_MASK[h3];
        if h3 == h1 || m3 & m2 == 0 {
            continue;
        }
        let pos = cd & m3;
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
            "In {}, {} can only go in {}, which lie in {}: {}; so {}'s {} is one of them, and {}",
            house(h1),
            d + 1,
            super::cell_list(&cells),
            house(h2),
            what,
            house(h2),
            d + 1,
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
    let (eliminations, shown) = if placements.is_empty() {
        (elims, vec![])
    } else {
        (vec![], board.show(|| elims))
    };
    Step {
        technique,
        rating: Rating(rating),
        placements,
        shown_eliminations: shown,
        figure: Default::default(),
        eliminations,
        cells,
        houses,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locks_from_the_table_match_the_plain_search() {
        // Every board on the paths of six extreme-band puzzles: the same hits in the same order.
        let (mut boards, mut hits) = (0, 0);
        for (board, _) in crate::logic::extreme_path_boards(6) {
            let pos = board.places();
            let (fast, plain) = (Locks::new(&pos), Locks::new_plain(&pos));
            assert_eq!(fast.n, plain.n);
            assert_eq!(fast.hits[..fast.n], plain.hits[..plain.n]);
            assert_eq!(fast.rows, plain.rows);
            boards += 1;
            hits += fast.n;
        }
        assert!(boards > 500 && hits > 300, "{boards} {hits}");
    }
}
