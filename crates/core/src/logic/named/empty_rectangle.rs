//! Empty Rectangle: a box whose places for a digit all lie in one row and one column of the box
//! (with places in both, off their crossing), and a strong link (a line where the digit has two
//! places) outside the box, one end in the box's row (or column). The cell where the link's
//! other end's row (or column) meets the box's column (or row) loses the digit: if it held it,
//! the link's far end would not, its near end would, and the box would have no place left.
//!
//! SE: a Forcing X-Chain (a Turbot Fish, 6.6) when the box has two places; with three or more,
//! SE's static chains (which have no group nodes) cannot say "one of the box's row cells", and
//! the elimination is rated by the cheapest SE chain that proves it (often a Nishio chain, 7.5 +).

use super::{at, cell, digit, figure, line_house, mask_list, step, Masks, HOUSE};
use crate::bitset::House;
use crate::logic::{Board, Link, Step};

/// Every empty rectangle: digits ascending, boxes in order, the box's row and column, then the
/// links (columns crossing the box's row, then rows crossing its column).
pub(crate) fn find(board: &Board, masks: &Masks, out: &mut Vec<Step>) {
    for d in 0..9 {
        for bx in 0..9 {
            let places = masks.cand[d] & HOUSE[18 + bx];
            if places.count_ones() < 2 {
                continue;
            }
            let (band, stack) = (bx / 3, bx % 3);
            for r in band * 3..band * 3 + 3 {
                for c in stack * 3..stack * 3 + 3 {
                    let (row, col) = (HOUSE[r], HOUSE[9 + c]);
                    if places & !(row | col) != 0
                        || places & row & !col == 0
                        || places & col & !row == 0
                    {
                        continue;
                    }
                    // rows = false: links in columns crossing the box's row r, targets in
                    // column c; rows = true: links in rows crossing column c, targets in row r.
                    for rows in [false, true] {
                        let (near, far_line) = if rows { (c, r) } else { (r, c) };
                        for l in 0..9 {
                            // The link line l must not cross the box.
                            if l / 3 == if rows { band } else { stack } {
                                continue;
                            }
                            let h = if rows { l } else { 9 + l };
                            let pos = board.positions(h, d);
                            if pos.count_ones() != 2 || pos >> near & 1 == 0 {
                                continue;
                            }
                            let far = (pos & !(1 << near)).trailing_zeros() as usize;
                            // The far end must lie outside the box's band (or stack).
                            if far / 3 == if rows { stack } else { band } {
                                continue;
                            }
                            let (p, q) = (at(rows, l, near), at(rows, l, far));
                            let t = at(rows, far_line, far);
                            if masks.cand[d] >> t & 1 == 0 {
                                continue;
                            }
                            let v = digit(d);
                            let (hb, hl) = (House::Box(bx as u8), line_house(rows, l));
                            let (hr, hc) = (House::Row(r as u8), House::Col(c as u8));
                            let text = format!(
                                "Empty Rectangle on {v} in {hb}: its {v}s ({}) lie in {hr} and \
                                 {hc}; {v} goes in {} or {} in {hl}. If {} were {v}, {} would \
                                 not be, so {} would be, and {hb} would have no place left for \
                                 {v}; so {} cannot be {v}",
                                mask_list(places),
                                cell(p),
                                cell(q),
                                cell(t),
                                cell(q),
                                cell(p),
                                cell(t),
                            );
                            let mut cells: Vec<usize> = super::cells_of(places).collect();
                            cells.extend([p, q]);
                            let mut s = step(
                                "Empty Rectangle",
                                vec![(cell(t), v)],
                                cells,
                                vec![hb, hr, hc, hl],
                                text,
                            );
                            s.figure = figure(
                                vec![hb],
                                vec![hr, hc, hl],
                                vec![Link::weak(t, q), Link::strong(q, p)],
                            );
                            out.push(s);
                        }
                    }
                }
            }
        }
    }
}
