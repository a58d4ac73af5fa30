//! The links of a board for the static chains: each candidate's Y-link (its cell's other
//! candidate) and X-links (the digit's other place in a house), as tables and bit masks, and the
//! nodes of a search.

use super::*;

pub(super) const NONE: u32 = u32::MAX;

/// A node of the search: potential `pot` (cell * 9 + digit index), on or off, with the node that
/// forced it.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) pot: u16,
    pub(super) on: bool,
    pub(super) parent: u32,
    /// Links from the root.
    pub(super) depth: u16,
}

/// Identity of a potential with its truth value: 0..1458.
#[inline]
pub(super) fn ident(pot: u16, on: bool) -> usize {
    pot as usize * 2 + on as usize
}

pub(super) const NONE16: u16 = u16::MAX;

/// The links of a board, computed once per search, on bit masks: for each potential (cell * 9 +
/// digit) its conjugates (the digit's other place in a house where it has two, in SE's house
/// order box, row, column, no repeats) and its cell's other candidate when the cell has two. A
/// potential's peers (the same digit in the cell's houses) are not stored: [`PEER_PARTS`] and
/// `cand` give them in SE's order when a node search needs them.
///
/// The per-potential tables (729 entries each) are kept from one board to the next on the
/// thread ([`TABLES`]): a dropped `Links` clears only the entries of its own candidates (the
/// only ones it wrote) and gives the tables back, so a board's links cost no allocation and no
/// 18 KB of zeroing.
pub(super) struct Links {
    pub(super) conj: Vec<[u16; 3]>,
    pub(super) conj_len: Vec<u8>,
    pub(super) mate: Vec<u16>,
    /// Cells holding each digit, as masks over the 81 cells.
    pub(super) cand: [u128; 9],
    /// Each cell's candidates (the same as `cand`, by cell).
    pub(super) cell_cands: [u16; 81],
    /// Cells with exactly two candidates.
    pub(super) bivalue: u128,
    /// Cells with exactly two candidates, one of them the digit, per digit.
    pub(super) bivalue_cand: [u128; 9],
    /// Cells where the digit has a conjugate (in some house it has two places), per digit.
    pub(super) conj_any: [u128; 9],
    /// Per potential: the cells of its conjugates, as a mask.
    pub(super) conj_mask: Vec<u128>,
}

/// The per-potential tables of a [`Links`] (`conj`, `conj_len`, `mate`, `conj_mask`), kept
/// cleared between boards: `conj_len` and `conj_mask` 0 and `mate` `NONE16` everywhere (`conj`
/// may hold anything past `conj_len`).
pub(super) type Tables = (Vec<[u16; 3]>, Vec<u8>, Vec<u16>, Vec<u128>);

thread_local! {
    /// Cleared [`Tables`] given back by dropped [`Links`], for the next boards'.
    pub(super) static TABLES: std::cell::RefCell<Vec<Tables>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for Links {
    fn drop(&mut self) {
        // The links wrote only their candidates' entries: those are cleared.
        for c in 0..81 {
            let mut m = self.cell_cands[c];
            while m != 0 {
                let p = c * 9 + m.trailing_zeros() as usize;
                m &= m - 1;
                self.conj_len[p] = 0;
                self.conj_mask[p] = 0;
                self.mate[p] = NONE16;
            }
        }
        let t = (
            std::mem::take(&mut self.conj),
            std::mem::take(&mut self.conj_len),
            std::mem::take(&mut self.mate),
            std::mem::take(&mut self.conj_mask),
        );
        // During the thread's teardown the pool may be gone: the tables are then freed.
        let _ = TABLES.try_with(|pool| pool.borrow_mut().push(t));
    }
}

/// The number of bits set in each 9-bit mask (a cell's candidates), by table: the build
/// targets x86-64 without `popcnt`.
pub(super) static POP9: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 1;
    while m < 512 {
        t[m] = t[m >> 1] + (m & 1) as u8;
        m += 1;
    }
    t
};

/// The number of candidates in a cell's 9-bit mask, by [`POP9`] (for the other rules too).
#[inline]
pub(in crate::logic) fn count9(m: u16) -> u32 {
    debug_assert!(m < 512);
    POP9[m as usize & 0x1FF] as u32
}

/// Whether a mask has exactly two bits set (without a population count: the build targets
/// x86-64 without `popcnt`, where `count_ones` on a `u128` is some thirty instructions).
#[inline]
pub(super) fn two_bits(m: u128) -> bool {
    let rest = m & m.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

impl Links {
    pub(super) fn new(board: &Board) -> Links {
        let (conj, conj_len, mate, conj_mask) = TABLES
            .with_borrow_mut(|pool| pool.pop())
            .unwrap_or_else(|| {
                (
                    vec![[0; 3]; 729],
                    vec![0; 729],
                    vec![NONE16; 729],
                    vec![0; 729],
                )
            });
        let mut l = Links {
            conj,
            conj_len,
            mate,
            cand: [0; 9],
            cell_cands: board.cands,
            bivalue: 0,
            bivalue_cand: [0; 9],
            conj_any: [0; 9],
            conj_mask,
        };
        for c in 0..81 {
            let m = board.cands[c];
            let mut bits = m;
            while bits != 0 {
                l.cand[bits.trailing_zeros() as usize] |= 1 << c;
                bits &= bits - 1;
            }
            if two_bits(m as u128) {
                l.bivalue |= 1 << c;
                let (a, b) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
                l.mate[c * 9 + a] = (c * 9 + b) as u16;
                l.mate[c * 9 + b] = (c * 9 + a) as u16;
            }
        }
        // Houses in SE's order (boxes, rows, columns), so that each potential receives its
        // conjugates in the order box, row, column of its own houses.
        for &h in &crate::logic::SE_BRC {
            let hm = HOUSE_MASK[h as usize];
            for d in 0..9 {
                let places = hm & l.cand[d];
                if !two_bits(places) {
                    continue;
                }
                let a = places.trailing_zeros() as usize;
                let b = 127 - places.leading_zeros() as usize;
                for (from, to) in [(a, b), (b, a)] {
                    let p = from * 9 + d;
                    let q = (to * 9 + d) as u16;
                    let n = l.conj_len[p] as usize;
                    if !l.conj[p][..n].contains(&q) {
                        l.conj[p][n] = q;
                        l.conj_len[p] += 1;
                        l.conj_mask[p] |= 1 << to;
                    }
                }
                l.conj_any[d] |= places;
            }
        }
        for d in 0..9 {
            l.bivalue_cand[d] = l.bivalue & l.cand[d];
        }
        l
    }

    /// Per digit, the cells whose off potential forces something with these links (a mate for
    /// Y-links, a conjugate for X-links). Any other off potential is a dead end of a search.
    pub(super) fn live_off(&self, y: bool, x: bool) -> [u128; 9] {
        std::array::from_fn(|d| {
            (if y { self.bivalue_cand[d] } else { 0 }) | (if x { self.conj_any[d] } else { 0 })
        })
    }
}

/// A cell's peers in SE's link order, in three masks: its box (without the cell), its row
/// outside the box, its column outside the box. Ascending order within each mask is the order
/// of the house's cells, so "box, then row, then column, no repeats" is these masks in turn.
pub(super) static PEER_PARTS: std::sync::LazyLock<[[u128; 3]; 81]> =
    std::sync::LazyLock::new(|| {
        std::array::from_fn(|c| {
            let [r, col, b] = CELL_HOUSES[c].map(|h| HOUSE_MASK[h as usize]);
            [b & !(1u128 << c), r & !b, col & !b]
        })
    });

/// Whether a node with identity `id` is an ancestor of node `n` (SE's `isParent`).
pub(super) fn is_ancestor(nodes: &[Node], n: u32, id: usize) -> bool {
    let mut k = nodes[n as usize].parent;
    while k != NONE {
        let nd = nodes[k as usize];
        if ident(nd.pot, nd.on) == id {
            return true;
        }
        k = nd.parent;
    }
    false
}
