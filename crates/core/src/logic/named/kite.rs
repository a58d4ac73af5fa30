//! 2-String Kite: a row and a column where a digit has exactly two places each, with one place
//! of the row and one of the column (different cells) in a common box. At most one of those two
//! holds the digit, so one of the other two places (the tails) does; every cell that sees both
//! tails loses the digit.
//!
//! SE: a Forcing X-Chain of 6 nodes, a Turbot Fish, 6.6.

use super::{cell, digit, elims_of, figure, see, step, Masks, PEER};
use crate::bitset::House;
use crate::logic::{Board, Link, Step, HOUSE_CELLS};

/// Every 2-string kite: digits ascending, rows, then columns, then the box ends in order.
pub(crate) fn find(board: &Board, masks: &Masks, out: &mut Vec<Step>) {
    for d in 0..9 {
        for r in 0..9 {
            let pr = board.positions(r, d);
            if pr.count_ones() != 2 {
                continue;
            }
            let row_cells = two_cells(r, pr);
            for c in 0..9 {
                let pc = board.positions(9 + c, d);
                if pc.count_ones() != 2 {
                    continue;
                }
                let col_cells = two_cells(9 + c, pc);
                for (i, &rb) in row_cells.iter().enumerate() {
                    for (j, &cb) in col_cells.iter().enumerate() {
                        let (rt, ct) = (row_cells[1 - i], col_cells[1 - j]);
                        let bx = rb / 27 * 3 + rb % 9 / 3;
                        let in_box = |x: usize| x / 27 * 3 + x % 9 / 3 == bx;
                        // The box ends: two different cells of one box; the tails outside it.
                        if rb == cb || !in_box(cb) || in_box(rt) || in_box(ct) || rt == ct {
                            continue;
                        }
                        let pattern = 1u128 << rb | 1 << cb | 1 << rt | 1 << ct;
                        let targets = masks.cand[d] & PEER[rt] & PEER[ct] & !pattern;
                        if targets == 0 {
                            continue;
                        }
                        let v = digit(d);
                        let (hr, hc, hb) = (
                            House::Row(r as u8),
                            House::Col(c as u8),
                            House::Box(bx as u8),
                        );
                        let text = format!(
                            "2-String Kite on {v}: {v} goes in {} or {} in {hr}, and in {} or {} \
                             in {hc}; {} and {} share {hb}, so at most one of them is {v} and one \
                             of the tails {} and {} is; {}, so cannot be {v}",
                            cell(rb),
                            cell(rt),
                            cell(cb),
                            cell(ct),
                            cell(rb),
                            cell(cb),
                            cell(rt),
                            cell(ct),
                            see(targets, "both tails"),
                        );
                        let mut s = step(
                            "2-String Kite",
                            elims_of(targets, d),
                            vec![rt, rb, cb, ct],
                            vec![hr, hc, hb],
                            text,
                        );
                        s.figure = figure(
                            vec![hr, hc],
                            vec![hb],
                            vec![
                                Link::strong(rt, rb),
                                Link::weak(rb, cb),
                                Link::strong(cb, ct),
                            ],
                        );
                        out.push(s);
                    }
                }
            }
        }
    }
}

/// The two cells of house `h` at the set bits of `pos`.
fn two_cells(h: usize, pos: u16) -> [usize; 2] {
    let k1 = pos.trailing_zeros() as usize;
    let k2 = (pos & (pos - 1)).trailing_zeros() as usize;
    [HOUSE_CELLS[h][k1] as usize, HOUSE_CELLS[h][k2] as usize]
}
