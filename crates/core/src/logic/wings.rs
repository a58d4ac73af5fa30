//! Wings. XY-Wing (4.2): a pivot with candidates {x, y} sees two cells {x, z} and {y, z}; any
//! cell that sees both pincers loses z. XYZ-Wing (4.4): the pivot is {x, y, z}, and the cells
//! that lose z must also see the pivot.

use super::chains::count9;
use super::{cell, digit, Board, Rating, Step, PEER_MASK};
use crate::bitset::{Cell, Digit};

/// The first XY-Wing (`xyz`: XYZ-Wing), pivots in row-major order.
pub fn xy_wing(board: &Board, xyz: bool) -> Option<Step> {
    let pivot_size = if xyz { 3 } else { 2 };
    // Cells with two candidates: the possible pincers.
    let bivalue = (0..81).fold(0u128, |m, c| {
        m | u128::from(count9(board.cands[c]) == 2) << c
    });
    for p in 0..81 {
        let pc = board.cands[p];
        if count9(pc) != pivot_size {
            continue;
        }
        // The possible pincers, in order, on the stack (this runs at most steps of a hard
        // puzzle).
        let mut wings = [0usize; 20];
        let mut n = 0;
        // The bivalue peers, in increasing order (as in `PEERS`).
        let mut peers = PEER_MASK[p] & bivalue;
        while peers != 0 {
            let c = peers.trailing_zeros() as usize;
            peers &= peers - 1;
            let m = board.cands[c];
            let fits = if xyz {
                m & pc == m
            } else {
                count9(m & pc) == 1
            };
            if fits {
                wings[n] = c;
                n += 1;
            }
        }
        let wings = &wings[..n];
        for (i, &a) in wings.iter().enumerate() {
            for &b in &wings[i + 1..] {
                let (ma, mb) = (board.cands[a], board.cands[b]);
                if ma == mb {
                    continue;
                }
                let z = ma & mb;
                if count9(z) != 1 {
                    continue;
                }
                if xyz {
                    if ma | mb != pc {
                        continue;
                    }
                } else if z & pc != 0 || (ma | mb) & pc != pc {
                    continue;
                }
                let zd = z.trailing_zeros() as usize;
                // The cells that see both pincers (and the pivot, for XYZ), other than the
                // pivot, that hold z.
                let mut seeing = PEER_MASK[a] & PEER_MASK[b] & !(1u128 << p);
                if xyz {
                    seeing &= PEER_MASK[p];
                }
                // Those cells in increasing order, as a mask (most pairs remove nothing).
                let mut holding = 0u128;
                while seeing != 0 {
                    let c = seeing.trailing_zeros() as usize;
                    seeing &= seeing - 1;
                    holding |= u128::from(board.cands[c] & z != 0) << c;
                }
                if holding == 0 {
                    continue;
                }
                let mut elims: Vec<(Cell, Digit)> = Vec::new();
                while holding != 0 {
                    elims.push((cell(holding.trailing_zeros() as usize), digit(zd)));
                    holding &= holding - 1;
                }
                let (technique, rating) = if xyz {
                    ("XYZ-Wing", 44)
                } else {
                    ("XY-Wing", 42)
                };
                let text = board.say(|| {
                    format!(
                    "{}: pivot {} ({}) with pincers {} ({}) and {} ({}); whichever holds, {} is in a \
                     pincer{}, so {}",
                    technique,
                    cell(p),
                    super::digit_list(pc),
                    cell(a),
                    super::digit_list(ma),
                    cell(b),
                    super::digit_list(mb),
                    zd + 1,
                    if xyz { " or the pivot" } else { "" },
                    super::elim_list(&elims)
                    )
                });
                return Some(Step {
                    technique,
                    rating: Rating(rating),
                    placements: vec![],
                    shown_eliminations: vec![],
                    figure: Default::default(),
                    eliminations: elims,
                    cells: board.show(|| vec![cell(p), cell(a), cell(b)]),
                    houses: vec![],
                    text,
                });
            }
        }
    }
    None
}
