//! Skyscraper: two parallel lines (rows, or columns) where a digit has exactly two places each,
//! with one place of each (the base) in a common cross line and the other two (the tops) not.
//! If a base holds the digit, the other base does not, so its line's top does: one of the tops
//! holds it. Every cell that sees both tops loses the digit.
//!
//! SE: a Forcing X-Chain of 6 nodes, a Turbot Fish, 6.6 ("if the cell is d, neither top is, so
//! both bases are, in one line": cell on, top off, base on, base off, top on, cell off).

use super::{at, cell, digit, elims_of, figure, line_house, see, step, Masks, PEER};
use crate::logic::Link;
use crate::logic::{Board, Step};

/// Every skyscraper: digits ascending, rows as the parallel lines first, line pairs in order.
pub(crate) fn find(board: &Board, masks: &Masks, out: &mut Vec<Step>) {
    for d in 0..9 {
        for rows in [true, false] {
            // Places of d in each line, as a mask over the cross lines.
            let mut pairs = [(0usize, 0u16); 9];
            let mut n = 0;
            for l in 0..9 {
                let p = board.positions(if rows { l } else { 9 + l }, d);
                if p.count_ones() == 2 {
                    pairs[n] = (l, p);
                    n += 1;
                }
            }
            for i in 0..n {
                for j in i + 1..n {
                    let ((l1, p1), (l2, p2)) = (pairs[i], pairs[j]);
                    let common = p1 & p2;
                    // One place aligned: two would be an X-Wing, none no link at all.
                    if common.count_ones() != 1 {
                        continue;
                    }
                    let x = common.trailing_zeros() as usize;
                    let (x1, x2) = (
                        (p1 & !common).trailing_zeros() as usize,
                        (p2 & !common).trailing_zeros() as usize,
                    );
                    let (b1, b2) = (at(rows, l1, x), at(rows, l2, x));
                    let (t1, t2) = (at(rows, l1, x1), at(rows, l2, x2));
                    let pattern = 1u128 << b1 | 1 << b2 | 1 << t1 | 1 << t2;
                    let targets = masks.cand[d] & PEER[t1] & PEER[t2] & !pattern;
                    if targets == 0 {
                        continue;
                    }
                    let (h1, h2, hx) = (
                        line_house(rows, l1),
                        line_house(rows, l2),
                        line_house(!rows, x),
                    );
                    let text = format!(
                        "Skyscraper on {v} in {h1} and {h2}: {v} goes in {} or {}, and in {} or \
                         {}; {} and {} share {hx}, so at most one of them is {v} and one of the \
                         tops {} and {} is; {}, so cannot be {v}",
                        cell(b1),
                        cell(t1),
                        cell(b2),
                        cell(t2),
                        cell(b1),
                        cell(b2),
                        cell(t1),
                        cell(t2),
                        see(targets, "both tops"),
                        v = digit(d),
                    );
                    let mut s = step(
                        "Skyscraper",
                        elims_of(targets, d),
                        vec![b1, t1, b2, t2],
                        vec![h1, h2, hx],
                        text,
                    );
                    s.figure = figure(
                        vec![h1, h2],
                        vec![hx],
                        vec![
                            Link::strong(t1, b1),
                            Link::weak(b1, b2),
                            Link::strong(b2, t2),
                        ],
                    );
                    out.push(s);
                }
            }
        }
    }
}
