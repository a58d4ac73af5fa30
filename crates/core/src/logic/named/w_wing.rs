//! W-Wing: two cells that do not see each other, both with exactly the candidates {x, y}, and a
//! strong link on y (a house where y has exactly two places) whose ends see one cell each. If
//! neither cell were x, both would be y, and neither end of the link could be y. So one of them
//! is x, and every cell that sees both loses x.
//!
//! SE: a Forcing Chain with X- and Y-links of at most 8 nodes ("if the cell is x, the first
//! wing is y, the near end is not y, the far end is, the second wing is not y, so it is x, and
//! the cell is not x"), 7.1; the rating is the shortest such chain SE finds.

use super::{cell, digit, elims_of, figure, see, step, Masks, HOUSE, PEER};
use crate::logic::{house, Board, Link, Step};

/// Every W-Wing: first cell row-major, second cell after it, the eliminated digit ascending;
/// one step per pair and digit, with the first linking house (rows, columns, boxes).
pub(crate) fn find(board: &Board, masks: &Masks, out: &mut Vec<Step>) {
    let mut bivalue = [0usize; 81];
    let mut n = 0;
    for c in 0..81 {
        if board.cands[c].count_ones() == 2 {
            bivalue[n] = c;
            n += 1;
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (bivalue[i], bivalue[j]);
            let pair = board.cands[a];
            if board.cands[b] != pair || PEER[a] >> b & 1 == 1 {
                continue;
            }
            let wings = 1u128 << a | 1 << b;
            for x in super::super::bits(pair) {
                let targets = masks.cand[x] & PEER[a] & PEER[b];
                if targets == 0 {
                    continue;
                }
                let y = (pair & !(1 << x)).trailing_zeros() as usize;
                let link = (0..27).find_map(|h| {
                    let places = masks.cand[y] & HOUSE[h];
                    if places.count_ones() != 2 || places & wings != 0 {
                        return None;
                    }
                    let p = places.trailing_zeros() as usize;
                    let q = (places & (places - 1)).trailing_zeros() as usize;
                    let (sa, sb) = (PEER[a], PEER[b]);
                    if sa >> p & 1 == 1 && sb >> q & 1 == 1 {
                        Some((h, p, q))
                    } else if sa >> q & 1 == 1 && sb >> p & 1 == 1 {
                        Some((h, q, p))
                    } else {
                        None
                    }
                });
                let Some((h, p, q)) = link else { continue };
                let (vx, vy) = (digit(x), digit(y));
                let text = format!(
                    "W-Wing on {vx} and {vy}: {} and {} both hold only {vx} and {vy}, and {vy} \
                     goes in {} or {} in {}, which see one of them each; if neither were {vx}, \
                     both would be {vy} and {vy} would have no place in {}. So one of them is {vx}: \
                     {}, so cannot be {vx}",
                    cell(a),
                    cell(b),
                    cell(p),
                    cell(q),
                    house(h),
                    house(h),
                    see(targets, "both"),
                );
                let mut s = step(
                    "W-Wing",
                    elims_of(targets, x),
                    vec![a, p, q, b],
                    vec![house(h)],
                    text,
                );
                s.figure = figure(
                    vec![house(h)],
                    vec![],
                    vec![Link::weak(a, p), Link::strong(p, q), Link::weak(q, b)],
                );
                out.push(s);
            }
        }
    }
}
