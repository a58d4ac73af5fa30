//! Simple colouring on one digit: the digit's strong links (houses where it has exactly two
//! places) join cells into clusters; colour each cluster's cells in two colours, alternating
//! along the links, so that in each cluster one colour holds the digit and the other does not.
//!
//! * **Colour trap**: a cell outside the cluster that sees cells of both colours loses the digit.
//! * **Colour wrap**: two cells of one colour that see each other cannot both hold the digit, so
//!   that colour is false: each of its cells loses the digit.
//!
//! SE: a colour trap is a Forcing X-Chain from the trapped cell through the cluster back to it
//! (6.6 + length bonus); a wrap is a Forcing X-Chain from a cell of the false colour to its
//! negation. The rating is the shortest such chain SE finds (often shorter than the cluster).

use super::{cell, digit, elims_of, mask_list, step, Masks, HOUSE, PEER};
use crate::logic::{Board, Step};

/// Every colour trap and wrap: digits ascending, clusters in order of their first cell; per
/// cluster the wrap (if any) before the trap.
pub(crate) fn find(_board: &Board, masks: &Masks, out: &mut Vec<Step>) {
    for d in 0..9 {
        // conj[c]: the cells joined to c by a strong link on d.
        let mut conj = [0u128; 81];
        let mut linked = 0u128;
        for h in HOUSE.iter() {
            let places = masks.cand[d] & h;
            if places.count_ones() == 2 {
                let a = places.trailing_zeros() as usize;
                let b = (places & (places - 1)).trailing_zeros() as usize;
                conj[a] |= 1 << b;
                conj[b] |= 1 << a;
                linked |= places;
            }
        }
        let mut left = linked;
        while left != 0 {
            let start = left.trailing_zeros() as usize;
            // Breadth first from `start`: colour[0] holds `start`; each link changes colour.
            let mut colour = [1u128 << start, 0u128];
            let mut front = 1u128 << start;
            let mut side = 0;
            let mut order = vec![start];
            let mut clash = false;
            while front != 0 {
                let mut next = 0u128;
                for c in super::cells_of(front) {
                    next |= conj[c];
                }
                clash |= next & colour[side] != 0;
                next &= !(colour[0] | colour[1]);
                side ^= 1;
                colour[side] |= next;
                order.extend(super::cells_of(next));
                front = next;
            }
            let cluster = colour[0] | colour[1];
            left &= !cluster;
            // A clash (an odd loop of strong links) means the candidates are already broken;
            // a cluster of two cells is a single strong link (locked candidates, not colouring).
            if clash || cluster.count_ones() < 3 {
                continue;
            }
            let v = digit(d);
            let names = ["blue", "green"];
            let describe = || {
                format!(
                    "the {v}s linked in pairs (houses where {v} has two places) take two colours, \
                     blue {} and green {}, and one colour holds {v}",
                    mask_list(colour[0]),
                    mask_list(colour[1])
                )
            };
            for (k, &col) in colour.iter().enumerate() {
                let clash_pair = super::cells_of(col).find_map(|c| {
                    let o = PEER[c] & col;
                    (o != 0).then(|| (c, o.trailing_zeros() as usize))
                });
                if let Some((a, b)) = clash_pair {
                    let text = format!(
                        "Simple Colouring on {v} (colour wrap): {}; {} and {} are both {} and see \
                         each other, so {} is false: {} cannot be {v}",
                        describe(),
                        cell(a),
                        cell(b),
                        names[k],
                        names[k],
                        mask_list(col)
                    );
                    out.push(step(
                        "Simple Colouring",
                        elims_of(col, d),
                        order.clone(),
                        vec![],
                        text,
                    ));
                }
            }
            let seen = |m: u128| super::cells_of(m).fold(0u128, |acc, c| acc | PEER[c]);
            let trapped = masks.cand[d] & !cluster & seen(colour[0]) & seen(colour[1]);
            if trapped != 0 {
                let text = format!(
                    "Simple Colouring on {v} (colour trap): {}; {}, so cannot be {v}",
                    describe(),
                    super::see(trapped, "both colours")
                );
                out.push(step(
                    "Simple Colouring",
                    elims_of(trapped, d),
                    order,
                    vec![],
                    text,
                ));
            }
        }
    }
}
