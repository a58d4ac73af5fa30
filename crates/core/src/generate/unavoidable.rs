//! Unavoidable sets: groups of cells of a grid of which a unique puzzle must keep a given, found
//! from the grid's digit pairs and learned from the other solutions the digging meets.

use super::*;

/// The cells of each digit of `g`.
pub(super) fn digit_cells(g: &Grid) -> [u128; 9] {
    let mut by_digit = [0u128; 9];
    for (i, &v) in g.as_bytes().iter().enumerate() {
        by_digit[v as usize - 1] |= 1 << i;
    }
    by_digit
}

/// The peers of each cell, as bits.
pub(super) fn peer_bits() -> &'static [u128; 81] {
    pub(super) static PEERS: OnceLock<[u128; 81]> = OnceLock::new();
    PEERS.get_or_init(|| {
        let mut t = [0u128; 81];
        for c in Cell::all() {
            t[c.as_index()] = c.peers().bits();
        }
        t
    })
}

/// Some unavoidable sets of `g`: two-digit sets and line-pair cycles. (Sorting them smallest
/// first, so that a miss is found sooner, was measured to cost 4% of the instructions of
/// minimal-puzzle generation and gain nothing.)
///
/// Hot path (once a grid; part of the `minimal` bench): works on raw `u128` cell words, bit
/// `i` for cell `i`. It implements "Unavoidable sets" in `docs/generate.md`.
///
/// An unavoidable set is a set of cells whose digits can be rearranged into another valid grid;
/// a proper puzzle must have a given in each (else both grids solve it). For two digits `a` and
/// `b`, each house holds one cell of each, and swapping `a` and `b` in a set of their cells
/// gives a grid if and only if the set holds, with each cell, the other `a`/`b` cell of its row,
/// column and box: the connected components of that "sees" relation are the minimal such sets
/// (from 4 cells, an unavoidable rectangle, to 18). They make many failing uniqueness checks
/// free: removing the only given left in one of them cannot keep the puzzle proper.
pub(super) fn unavoidable_sets(g: &Grid) -> Vec<CellSet> {
    let peers = peer_bits();
    let by_digit = digit_cells(g);
    let mut out = Vec::with_capacity(96);
    for a in 0..9 {
        for b in a + 1..9 {
            let both = by_digit[a] | by_digit[b];
            let mut rest = both;
            while rest != 0 {
                let mut comp = rest & rest.wrapping_neg();
                let mut frontier = comp;
                while frontier != 0 {
                    let mut next = 0;
                    while frontier != 0 {
                        next |= peers[frontier.trailing_zeros() as usize];
                        frontier &= frontier - 1;
                    }
                    frontier = next & both & !comp;
                    comp |= frontier;
                }
                rest &= !comp;
                out.push(CellSet::from_bits(comp));
            }
        }
    }
    line_pair_cycles(g, &mut out);
    out
}

/// Adds the unavoidable sets made by swapping two rows of a band (or two columns of a stack) on
/// some columns (rows): such a swap keeps every column and box, and keeps the two rows if and
/// only if both hold the same digits on those columns. The minimal column sets are the cycles of
/// `c ↦ (column of row 1 holding row 2's digit at c)`. Cycles of two columns are unavoidable
/// rectangles, already among the two-digit sets; longer ones (6 to 18 cells over 3 to 9
/// digits) are new.
pub(super) fn line_pair_cycles(g: &Grid, out: &mut Vec<CellSet>) {
    let cells = g.as_bytes();
    for transpose in [false, true] {
        let at = |line: usize, k: usize| {
            if transpose {
                k * 9 + line
            } else {
                line * 9 + k
            }
        };
        for band in 0..3 {
            for (x, y) in [(0, 1), (0, 2), (1, 2)] {
                let (l1, l2) = (3 * band + x, 3 * band + y);
                let mut where1 = [0usize; 10];
                for k in 0..9 {
                    where1[cells[at(l1, k)] as usize] = k;
                }
                let mut done = 0u16;
                for start in 0..9 {
                    if done & (1 << start) != 0 {
                        continue;
                    }
                    let (mut k, mut len, mut set) = (start, 0, 0u128);
                    loop {
                        done |= 1 << k;
                        set |= 1 << at(l1, k) | 1 << at(l2, k);
                        len += 1;
                        k = where1[cells[at(l2, k)] as usize];
                        if k == start {
                            break;
                        }
                    }
                    if len > 2 {
                        out.push(CellSet::from_bits(set));
                    }
                }
            }
        }
    }
}

/// The `items` that `keep` keeps, in a vector with room for all of them: a `collect` through a
/// filter starts small and grows (about 38,000 reallocations for 200 rot180 minimal puzzles,
/// 2.3% of their instructions).
pub(super) fn filtered<T: Copy>(items: &[T], keep: impl Fn(&T) -> bool) -> Vec<T> {
    let mut v = Vec::with_capacity(items.len());
    v.extend(items.iter().copied().filter(|x| keep(x)));
    v
}

/// Whether the givens `left` miss some unavoidable set (then they cannot be a proper puzzle).
pub(super) fn misses_one(unavoidable: &[CellSet], left: CellSet) -> bool {
    unavoidable.iter().any(|&u| (u & left).is_empty())
}

/// The index of the first set of `sets` that `left` misses (meets in no cell), if any.
///
/// The scan takes the sets four at a time, with one branch for the four: most scans of the
/// dig find no set missed and read them all, where `position` took a branch a set
/// (docs/generate.md, "What the walk and its searches do to stay cheap"). The short lists of [`first_hitting`] keep
/// [`misses_one`]: there the chunks cost more than they save.
pub(super) fn first_missed(sets: &[CellSet], left: CellSet) -> Option<usize> {
    let l = left.bits();
    let mut chunks = sets.chunks_exact(4);
    for (k, c) in chunks.by_ref().enumerate() {
        let m = (c[0].bits() & l == 0)
            | (c[1].bits() & l == 0)
            | (c[2].bits() & l == 0)
            | (c[3].bits() & l == 0);
        if m {
            let i = c.iter().position(|u| u.bits() & l == 0);
            return i.map(|i| 4 * k + i);
        }
    }
    let tail = sets.len() - chunks.remainder().len();
    chunks
        .remainder()
        .iter()
        .position(|u| u.bits() & l == 0)
        .map(|i| tail + i)
}

/// The sets of `sets` that `left` misses, in their order: [`first_missed`]'s scan four sets at a
/// time, to the end (few sets are missed; `filtered` took a branch a set, 1.7% of the
/// instructions of rot180 minimal generation).
pub(super) fn missed_by(sets: &[CellSet], left: CellSet) -> Vec<CellSet> {
    let l = left.bits();
    let mut out = Vec::with_capacity(16);
    let mut chunks = sets.chunks_exact(4);
    for c in chunks.by_ref() {
        let m = (c[0].bits() & l == 0)
            | (c[1].bits() & l == 0)
            | (c[2].bits() & l == 0)
            | (c[3].bits() & l == 0);
        if m {
            out.extend(c.iter().filter(|u| u.bits() & l == 0));
        }
    }
    out.extend(chunks.remainder().iter().filter(|u| u.bits() & l == 0));
    out
}

/// The number of cells of an orbit (at most 8), by clearing them one by one: `CellSet::len` is
/// a software popcount of 128 bits on the baseline target (the dig's runs took 0.9% of the
/// instructions of rot180 minimal generation counting their orbits with it).
pub(super) fn orbit_len(o: CellSet) -> usize {
    let (mut b, mut n) = (o.bits(), 0);
    while b != 0 {
        b &= b - 1;
        n += 1;
    }
    n
}
