//! The grids any symmetry fixes, by a depth-first search over grids starting 123456789: the
//! independent check of the two joins.

use super::*;

// Fixed grids of any symmetry: depth-first search over grids starting 123456789.

/// The state of the search: the grid (0..9, or 9 for empty), the digits used per house, and the
/// relabelling as far as it is known (`9` for unknown) with its inverse.
#[derive(Clone, Copy)]
pub(super) struct Search {
    pub(super) grid: [u8; 81],
    pub(super) rows: [u16; 9],
    pub(super) cols: [u16; 9],
    pub(super) boxes: [u16; 9],
    pub(super) sigma: [u8; 9],
    pub(super) inverse: [u8; 9],
    pub(super) filled: u8,
}

/// The symmetry as a cell map and its inverse.
pub(super) struct CellMaps {
    pub(super) next: [u8; 81],
    pub(super) prev: [u8; 81],
}

pub(super) const EMPTY: u8 = 9;

impl Search {
    /// Puts `d` in `cell` and everything it implies; false on a contradiction.
    pub(super) fn place(&mut self, cell: usize, d: u8, maps: &CellMaps) -> bool {
        let mut queue = [0u8; 256];
        let (mut head, mut tail) = (0usize, 0usize);
        if !self.set(cell, d) {
            return false;
        }
        queue[tail] = cell as u8;
        tail += 1;
        while head < tail {
            let c = queue[head] as usize;
            head += 1;
            let u = self.grid[c];
            // The image of c holds σ(u); the preimage of c holds σ⁻¹(u).
            for forward in [true, false] {
                let target = if forward { maps.next[c] } else { maps.prev[c] } as usize;
                // Read afresh: the first direction may have taught the relabelling something.
                let known = if forward {
                    self.sigma[u as usize]
                } else {
                    self.inverse[u as usize]
                };
                let there = self.grid[target];
                if known != EMPTY {
                    if there == EMPTY {
                        if !self.set(target, known) {
                            return false;
                        }
                        queue[tail] = target as u8;
                        tail += 1;
                    } else if there != known {
                        return false;
                    }
                } else if there != EMPTY {
                    let (from, to) = if forward { (u, there) } else { (there, u) };
                    if self.sigma[from as usize] != EMPTY || self.inverse[to as usize] != EMPTY {
                        return false;
                    }
                    self.sigma[from as usize] = to;
                    self.inverse[to as usize] = from;
                    // Every cell holding `from` or `to` has a new consequence. The queue holds
                    // every cell once when it is set (81) and at most 18 more per learnt pair of
                    // the relabelling (9 pairs): 243 entries at most.
                    for x in 0..81 {
                        let v = self.grid[x];
                        if v == from || v == to {
                            queue[tail] = x as u8;
                            tail += 1;
                        }
                    }
                }
            }
        }
        true
    }

    /// Writes `d` in the empty `cell` if no house has it yet.
    pub(super) fn set(&mut self, cell: usize, d: u8) -> bool {
        let (r, c) = (cell / 9, cell % 9);
        let b = r / 3 * 3 + c / 3;
        let bit = 1u16 << d;
        if (self.rows[r] | self.cols[c] | self.boxes[b]) & bit != 0 {
            return false;
        }
        self.rows[r] |= bit;
        self.cols[c] |= bit;
        self.boxes[b] |= bit;
        self.grid[cell] = d;
        self.filled += 1;
        true
    }

    /// The empty cell with the fewest candidates and its candidates.
    pub(super) fn choose(&self) -> (usize, u16) {
        let mut best = (0, 0u16, 10u32);
        for cell in 0..81 {
            if self.grid[cell] != EMPTY {
                continue;
            }
            let (r, c) = (cell / 9, cell % 9);
            let free = 0x1FF & !(self.rows[r] | self.cols[c] | self.boxes[r / 3 * 3 + c / 3]);
            let n = free.count_ones();
            if n < best.2 {
                best = (cell, free, n);
                if n <= 1 {
                    break;
                }
            }
        }
        (best.0, best.1)
    }
}

/// The number of grids fixed by `g` up to relabelling whose first row is `123456789`: `F(g) /
/// 9!`, by depth-first search. Parallel over the branches of the first few choices.
///
/// # Complexity
/// Proportional to the number of such grids times a search step of a few microseconds, plus the
/// dead ends: milliseconds for the transposed classes but the transposition itself (30,258,432
/// grids, four minutes), far longer for some untransposed classes (449,445,888 grids).
pub fn fixed_normalized_by_search(g: &Symmetry) -> u64 {
    let next = g.cell_map();
    let mut prev = [0u8; 81];
    for (c, &n) in next.iter().enumerate() {
        prev[n as usize] = c as u8;
    }
    let maps = CellMaps { next, prev };
    let mut s = Search {
        grid: [EMPTY; 81],
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
        sigma: [EMPTY; 9],
        inverse: [EMPTY; 9],
        filled: 0,
    };
    for j in 0..9 {
        if s.grid[j] == EMPTY {
            if !s.place(j, j as u8, &maps) {
                return 0;
            }
        } else if s.grid[j] != j as u8 {
            return 0;
        }
    }
    // Split into subproblems a few levels down, then search them in parallel.
    let mut frontier = vec![s];
    let mut leaves = 0u64;
    while !frontier.is_empty() && frontier.len() < 256 {
        let mut next_frontier = Vec::new();
        for s in frontier {
            if s.filled == 81 {
                leaves += 1;
                continue;
            }
            let (cell, free) = s.choose();
            for d in 0..9u8 {
                if free >> d & 1 == 1 {
                    let mut t = s;
                    if t.place(cell, d, &maps) {
                        next_frontier.push(t);
                    }
                }
            }
        }
        frontier = next_frontier;
    }
    leaves
        + frontier
            .par_iter()
            .map(|s| search_count(s, &maps))
            .sum::<u64>()
}

pub(super) fn search_count(s: &Search, maps: &CellMaps) -> u64 {
    if s.filled == 81 {
        return 1;
    }
    let (cell, free) = s.choose();
    let mut n = 0;
    for d in 0..9u8 {
        if free >> d & 1 == 1 {
            let mut t = *s;
            if t.place(cell, d, maps) {
                n += search_count(&t, maps);
            }
        }
    }
    n
}
