//! Static chains: bidirectional cycles and forcing chains, built from X-links (a digit with two
//! places in a house) and Y-links (a cell with two candidates), in the manner of SE's `Chaining`
//! rule without the multiple and dynamic options.
//!
//! A *potential* is a candidate with a truth value: "r1c1 is 5" (on) or "r1c1 is not 5" (off).
//! From an on potential follow the off potentials it forces: the cell's other candidates (a
//! Y-link, when Y-links are enabled) and the digit's other places in the cell's three houses.
//! From an off potential follow the on potentials it forces: the cell's other candidate if the
//! cell has two (Y-link), the digit's other place in a house where it has two (X-link).
//!
//! * A **forcing chain** starts from one potential and reaches its opposite: "if r1c1 is 5 then
//!   ... r1c1 is not 5", so r1c1 is not 5 (or, from "r1c1 is not 5", it is 5). X-links only:
//!   Forcing X-Chain, 6.6 (named Turbot Fish when it has 6 nodes, which covers the skyscraper,
//!   the 2-string kite and the empty rectangle); with Y-links: Forcing Chain, 7.0.
//! * A **bidirectional cycle** is a loop of alternating links back to its start; a candidate that
//!   sees an on and an off node of the same digit on the loop is removed. X-Cycle 6.5, Y-Cycle
//!   6.5, Cycle (both kinds) 7.0.
//!
//! Each rating adds SE's length bonus for the number of distinct nodes (see `docs/logic.md`).
//! The search is breadth first from every candidate, so it is bounded by the 1,458 potentials.

use super::{
    cell, digit, length_bonus, Board, Rating, Step, CELL_HOUSES, HOUSE_MASK, PEERS, PEER_MASK,
};
use crate::bitset::{Cell, Digit};

const NONE: u32 = u32::MAX;

/// A node of the search: potential `pot` (cell * 9 + digit index), on or off, with the node that
/// forced it.
#[derive(Clone, Copy)]
struct Node {
    pot: u16,
    on: bool,
    parent: u32,
    /// Links from the root.
    depth: u16,
}

/// Identity of a potential with its truth value: 0..1458.
#[inline]
fn ident(pot: u16, on: bool) -> usize {
    pot as usize * 2 + on as usize
}

const NONE16: u16 = u16::MAX;

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
struct Links {
    conj: Vec<[u16; 3]>,
    conj_len: Vec<u8>,
    mate: Vec<u16>,
    /// Cells holding each digit, as masks over the 81 cells.
    cand: [u128; 9],
    /// Each cell's candidates (the same as `cand`, by cell).
    cell_cands: [u16; 81],
    /// Cells with exactly two candidates.
    bivalue: u128,
    /// Cells with exactly two candidates, one of them the digit, per digit.
    bivalue_cand: [u128; 9],
    /// Cells where the digit has a conjugate (in some house it has two places), per digit.
    conj_any: [u128; 9],
    /// Per potential: the cells of its conjugates, as a mask.
    conj_mask: Vec<u128>,
}

/// The per-potential tables of a [`Links`] (`conj`, `conj_len`, `mate`, `conj_mask`), kept
/// cleared between boards: `conj_len` and `conj_mask` 0 and `mate` `NONE16` everywhere (`conj`
/// may hold anything past `conj_len`).
type Tables = (Vec<[u16; 3]>, Vec<u8>, Vec<u16>, Vec<u128>);

thread_local! {
    /// Cleared [`Tables`] given back by dropped [`Links`], for the next boards'.
    static TABLES: std::cell::RefCell<Vec<Tables>> = const { std::cell::RefCell::new(Vec::new()) };
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
static POP9: [u8; 512] = {
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
pub(super) fn count9(m: u16) -> u32 {
    debug_assert!(m < 512);
    POP9[m as usize & 0x1FF] as u32
}

/// Whether a mask has exactly two bits set (without a population count: the build targets
/// x86-64 without `popcnt`, where `count_ones` on a `u128` is some thirty instructions).
#[inline]
fn two_bits(m: u128) -> bool {
    let rest = m & m.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

impl Links {
    fn new(board: &Board) -> Links {
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
        for &h in &super::SE_BRC {
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
    fn live_off(&self, y: bool, x: bool) -> [u128; 9] {
        std::array::from_fn(|d| {
            (if y { self.bivalue_cand[d] } else { 0 }) | (if x { self.conj_any[d] } else { 0 })
        })
    }
}

/// A cell's peers in SE's link order, in three masks: its box (without the cell), its row
/// outside the box, its column outside the box. Ascending order within each mask is the order
/// of the house's cells, so "box, then row, then column, no repeats" is these masks in turn.
static PEER_PARTS: std::sync::LazyLock<[[u128; 3]; 81]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|c| {
        let [r, col, b] = CELL_HOUSES[c].map(|h| HOUSE_MASK[h as usize]);
        [b & !(1u128 << c), r & !b, col & !b]
    })
});

/// Whether a node with identity `id` is an ancestor of node `n` (SE's `isParent`).
fn is_ancestor(nodes: &[Node], n: u32, id: usize) -> bool {
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

struct Search<'a> {
    board: &'a Board,
    links: &'a Links,
    nodes: Vec<Node>,
    /// The potentials made so far: `seen[1]` the on ones, `seen[0]` the off ones, per digit as
    /// masks over the cells (a potential is made at most once, except the off potentials that
    /// close a cycle).
    seen: [[u128; 9]; 2],
    /// The next layer's on and off nodes. A layer of on nodes only makes off nodes and the
    /// reverse, so each layer is a plain list, taken whole (`layer`) before it is expanded.
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    /// The layer being expanded (kept to reuse its allocation).
    layer: Vec<u32>,
    y: bool,
    x: bool,
    out: Vec<u16>,
    /// The end nodes of the cycles the last [`Search::cycles`] found.
    ends: Vec<u32>,
    /// Nodes deeper than this are not made: they could only give chains rated above the best
    /// found so far (a node at depth d lies on a chain of at least d distinct nodes).
    max_depth: u16,
    /// Per candidate, whether a cycle search from it could find a loop that removes something
    /// ([`cycle_sources`]); empty if not known (every candidate is searched).
    cycle_ok: Vec<u8>,
    /// Per candidate kept by `cycle_ok`, its component's place in `cycle_off`: per digit, the
    /// cells of the component's off potentials ([`CycleFilter`]).
    cycle_comp: Vec<u16>,
    cycle_off: Vec<[u128; 9]>,
    /// Per potential ([`ident`]), whether it has a path of XY links to its opposite; empty if
    /// not known.
    chain_ok: Vec<bool>,
    /// The XY chains' sources and those that reach their opposite, if found already.
    xy: Option<XySources>,
}

impl<'a> Search<'a> {
    fn new(board: &'a Board, links: &'a Links, y: bool, x: bool) -> Search<'a> {
        Search {
            board,
            links,
            nodes: Vec::with_capacity(512),
            seen: [[0; 9]; 2],
            pending_on: Default::default(),
            pending_off: Default::default(),
            layer: Vec::new(),
            y,
            x,
            out: Vec::with_capacity(32),
            ends: Vec::new(),
            max_depth: u16::MAX,
            cycle_ok: Vec::new(),
            cycle_comp: Vec::new(),
            cycle_off: Vec::new(),
            chain_ok: Vec::new(),
            xy: None,
        }
    }

    fn reset(&mut self) {
        self.nodes.clear();
        self.seen = [[0; 9]; 2];
        self.pending_on.clear();
        self.pending_off.clear();
    }

    #[inline]
    fn is_seen(&self, pot: u16, on: bool) -> bool {
        self.seen[on as usize][pot as usize % 9] >> (pot as usize / 9) & 1 == 1
    }

    #[inline]
    fn mark(&mut self, pot: u16, on: bool) {
        self.seen[on as usize][pot as usize % 9] |= 1 << (pot as usize / 9);
    }

    fn push(&mut self, pot: u16, on: bool, parent: u32) -> u32 {
        let depth = if parent == NONE {
            0
        } else {
            self.nodes[parent as usize].depth + 1
        };
        self.nodes.push(Node {
            pot,
            on,
            parent,
            depth,
        });
        (self.nodes.len() - 1) as u32
    }

    /// Whether the loop ending at node `end` eliminates anything: a candidate outside the loop
    /// that sees an on node and an off node of its digit on the loop (see `cycle_hint`).
    fn cycle_removes_something(&self, end: u32) -> bool {
        let mut forw = [0u128; 9];
        let mut back = [0u128; 9];
        let mut in_loop = 0u128;
        let mut k = end;
        while k != NONE {
            let nd = self.nodes[k as usize];
            if nd.parent == NONE {
                break; // the root repeats the end
            }
            let (c, d) = (nd.pot as usize / 9, nd.pot as usize % 9);
            in_loop |= 1 << c;
            if nd.on {
                forw[d] |= PEER_MASK[c];
            } else {
                back[d] |= PEER_MASK[c];
            }
            k = nd.parent;
        }
        (0..9).any(|d| forw[d] & back[d] & self.links.cand[d] & !in_loop != 0)
    }

    /// Off potentials forced by on potential `pot`, in SE's order, without repeats.
    fn on_to_off(&mut self, pot: u16) {
        self.out.clear();
        let l = self.links;
        let (c, d) = (pot as usize / 9, pot as usize % 9);
        if self.y {
            for v in super::bits(self.board.cands[c] & !(1 << d)) {
                self.out.push((c * 9 + v) as u16);
            }
        }
        for part in PEER_PARTS[c] {
            let mut m = part & l.cand[d];
            while m != 0 {
                self.out.push((m.trailing_zeros() as usize * 9 + d) as u16);
                m &= m - 1;
            }
        }
    }

    /// On potentials forced by off potential `pot`, in SE's order, without repeats.
    fn off_to_on(&mut self, pot: u16, x: bool) {
        self.out.clear();
        let l = self.links;
        let p = pot as usize;
        if self.y && l.mate[p] != NONE16 {
            self.out.push(l.mate[p]);
        }
        if x {
            self.out
                .extend_from_slice(&l.conj[p][..l.conj_len[p] as usize]);
        }
    }

    /// SE's `doCycles` from `source` (on): the end nodes of the cycles back to `source`, in
    /// `self.ends`.
    ///
    /// `keep_off`: per digit, the cells whose off potential forces something with this search's
    /// links ([`Links::live_off`]); the others are dead ends, left out.
    fn cycles(&mut self, source: u16, keep_off: &[u128; 9]) {
        // The hot path of the cycle searches (`benches/logic.rs`, band diabolical): links are
        // taken straight from the masks, in SE's order, without a buffer in between, and a
        // search makes only some fifteen nodes on average, so it is kept free of calls.
        self.reset();
        self.ends.clear();
        let (l, sc, sd) = (self.links, source as usize / 9, source as usize % 9);
        // The off potentials that force the source, closing a cycle: the only ones made again
        // once seen.
        let mut closers = [0u128; 9];
        if self.x {
            closers[sd] = l.conj_mask[source as usize];
        }
        if self.y && l.mate[source as usize] != NONE16 {
            closers[l.mate[source as usize] as usize % 9] |= 1 << sc;
        }
        let (y, x, max_depth) = (self.y, self.x, self.max_depth);
        let cands = &self.board.cands;
        let nodes = &mut self.nodes;
        let seen_off = &mut self.seen[0];
        // The on potentials made, one bit per potential (cell * 9 + digit): only tested and set
        // one at a time, never as masks, so without a division by 9 and a 128-bit shift.
        let mut seen_on = [0u64; 729usize.div_ceil(64)];
        nodes.push(Node {
            pot: source,
            on: true,
            parent: NONE,
            depth: 0,
        });
        seen_on[source as usize / 64] |= 1 << (source % 64);
        let mut on_layer = std::mem::take(&mut self.pending_on);
        let mut off_layer = std::mem::take(&mut self.pending_off);
        on_layer.clear();
        on_layer.push(0);
        let mut length = 0;
        while !on_layer.is_empty() {
            length += 2;
            off_layer.clear();
            for &p in &on_layer {
                let Node { pot, depth, .. } = nodes[p as usize];
                if depth >= max_depth {
                    continue;
                }
                let (c, d) = (pot as usize / 9, pot as usize % 9);
                // SE follows every path to an off potential, not only the first. A repeat makes
                // the same on potentials as the first (already seen), so it only matters if it
                // leads back to the source, closing a cycle: unseen potentials and closers only.
                macro_rules! off {
                    ($oc:expr, $od:expr) => {{
                        let (oc, od): (usize, usize) = ($oc, $od);
                        let q = (oc * 9 + od) as u16;
                        let fresh = seen_off[od] >> oc & 1 == 0;
                        if fresh || !is_ancestor(nodes, p, ident(q, false)) {
                            off_layer.push(nodes.len() as u32);
                            nodes.push(Node {
                                pot: q,
                                on: false,
                                parent: p,
                                depth: depth + 1,
                            });
                            seen_off[od] |= 1 << oc;
                        }
                    }};
                }
                if y {
                    let mut m = cands[c] & !(1 << d);
                    while m != 0 {
                        let v = m.trailing_zeros() as usize;
                        m &= m - 1;
                        if (keep_off[v] & (!seen_off[v] | closers[v])) >> c & 1 == 1 {
                            off!(c, v);
                        }
                    }
                }
                let keep = l.cand[d] & keep_off[d] & (!seen_off[d] | closers[d]);
                for part in PEER_PARTS[c] {
                    let mut m = part & keep;
                    while m != 0 {
                        off!(m.trailing_zeros() as usize, d);
                        m &= m - 1;
                    }
                }
            }
            on_layer.clear();
            for &p in &off_layer {
                let Node { pot, depth, .. } = nodes[p as usize];
                if depth >= max_depth {
                    continue;
                }
                let pi = pot as usize;
                macro_rules! on {
                    ($q:expr) => {{
                        let q: u16 = $q;
                        if length >= 4 && q == source {
                            self.ends.push(nodes.len() as u32);
                            nodes.push(Node {
                                pot: q,
                                on: true,
                                parent: p,
                                depth: depth + 1,
                            });
                        }
                        let (word, bit) = (q as usize / 64, 1u64 << (q % 64));
                        if seen_on[word] & bit == 0 {
                            on_layer.push(nodes.len() as u32);
                            nodes.push(Node {
                                pot: q,
                                on: true,
                                parent: p,
                                depth: depth + 1,
                            });
                            seen_on[word] |= bit;
                        }
                    }};
                }
                if y && l.mate[pi] != NONE16 {
                    on!(l.mate[pi]);
                }
                if x {
                    for k in 0..l.conj_len[pi] as usize {
                        on!(l.conj[pi][k]);
                    }
                }
            }
        }
        self.pending_on = on_layer;
        self.pending_off = off_layer;
    }

    /// SE's `doForcingChains` from `source` (on or off): end nodes that contradict the source,
    /// appended to `chains` unless an equal potential is there already.
    fn forcing(&mut self, source: u16, source_on: bool, chains: &mut Vec<(Vec<Node>, u32)>) {
        self.reset();
        let s = self.push(source, source_on, NONE);
        self.mark(source, source_on);
        if source_on {
            self.pending_on.push(s);
        } else {
            self.pending_off.push(s);
        }
        let mut found: Vec<u32> = Vec::new();
        while !self.pending_on.is_empty() || !self.pending_off.is_empty() {
            let mut layer = std::mem::take(&mut self.layer);
            layer.clear();
            std::mem::swap(&mut layer, &mut self.pending_on);
            for &p in &layer {
                if self.nodes[p as usize].depth >= self.max_depth {
                    continue;
                }
                let pot = self.nodes[p as usize].pot;
                self.on_to_off(pot);
                for i in 0..self.out.len() {
                    let q = self.out[i];
                    if source_on && q == source {
                        let n = self.push(q, false, p);
                        found.push(n);
                    }
                    // An unseen potential cannot be an ancestor (SE's `isParent` filter).
                    if !self.is_seen(q, false) {
                        let n = self.push(q, false, p);
                        self.mark(q, false);
                        self.pending_off.push(n);
                    }
                }
            }
            layer.clear();
            std::mem::swap(&mut layer, &mut self.pending_off);
            for &p in &layer {
                if self.nodes[p as usize].depth >= self.max_depth {
                    continue;
                }
                let pot = self.nodes[p as usize].pot;
                self.off_to_on(pot, true);
                for i in 0..self.out.len() {
                    let q = self.out[i];
                    if !source_on && q == source {
                        let n = self.push(q, true, p);
                        found.push(n);
                    }
                    if !self.is_seen(q, true) {
                        let n = self.push(q, true, p);
                        self.mark(q, true);
                        self.pending_on.push(n);
                    }
                }
            }
            self.layer = layer;
        }
        for n in found {
            let nd = self.nodes[n as usize];
            if !chains
                .iter()
                .any(|(ns, e)| ns[*e as usize].pot == nd.pot && ns[*e as usize].on == nd.on)
            {
                chains.push((self.path(n), 0));
            }
        }
    }

    /// The first-parent path from node `n` back to the root, `n` first, as a fresh node list
    /// whose parents index into it.
    fn path(&self, n: u32) -> Vec<Node> {
        let mut out = Vec::new();
        let mut k = n;
        while k != NONE {
            let nd = self.nodes[k as usize];
            out.push(Node {
                pot: nd.pot,
                on: nd.on,
                parent: if nd.parent == NONE {
                    NONE
                } else {
                    out.len() as u32 + 1
                },
                depth: nd.depth,
            });
            k = nd.parent;
        }
        out
    }
}

/// The depth at which SE's forcing-chain search from `source` (on or off) first reaches the
/// source's opposite, or `None` within `max_depth`. These are the breadth-first layers of
/// `Search::forcing`, on bit masks (each digit's potentials as a mask over the cells). The
/// rating only depends on this depth (the chain has depth + 1 distinct nodes), so the node by
/// node search only runs for the chain finally chosen.
///
/// # Complexity
/// A few hundred word operations per layer: the hot path of diabolical puzzles
/// (`benches/logic.rs`, band diabolical).
fn chain_depth(l: &Links, y: bool, source: u16, source_on: bool, max_depth: u16) -> Option<u16> {
    if !y {
        return chain_depth_x(l, source, source_on, max_depth);
    }
    chain_depth_xy(l, source, source_on, max_depth)
}

/// One breadth-first layer of the X and Y links: the potentials of the opposite truth value that
/// `front` (on if `on`) forces.
#[inline]
fn expand_xy(l: &Links, front: &[u128; 9], on: bool) -> [u128; 9] {
    let mut next = [0u128; 9];
    // A cell in the frontier for digit d forces its other candidates v (the opposite way):
    // the cells in the frontier for a digit other than v (`dup`: for two digits or more).
    let (mut all, mut dup) = (0u128, 0u128);
    for &m in front {
        dup |= all & m;
        all |= m;
    }
    if on {
        let peer_mask: &[u128; 81] = &PEER_MASK;
        for d in 0..9 {
            let mut m = front[d];
            let mut peers = 0u128;
            while m != 0 {
                peers |= peer_mask[m.trailing_zeros() as usize];
                m &= m - 1;
            }
            next[d] = (peers | (all & (!front[d] | dup))) & l.cand[d];
        }
    } else {
        for d in 0..9 {
            let mut conj = 0u128;
            let mut m = front[d];
            while m != 0 {
                conj |= l.conj_mask[m.trailing_zeros() as usize * 9 + d];
                m &= m - 1;
            }
            next[d] = conj | (all & (!front[d] | dup) & l.bivalue_cand[d]);
        }
    }
    next
}

/// [`chain_depth`] with X and Y links, searching only half as deep. Every link has its
/// contrapositive (a forces b if and only if not-b forces not-a: peers, conjugates and a cell's
/// candidates are all symmetric relations), so the distance from a potential `v` to the
/// source's opposite equals the distance from the source to not-`v`. Hence the shortest chain
/// from the source to its opposite has length `min over v of dist(v) + dist(not v)`, and once
/// the search has finished depth `k`, the least such sum found so far is exact if it is at most
/// `2k` (the middle node of a chain of length `L <= 2k` and its opposite both lie within depth
/// `k`). The result is that of the plain search, which goes up to twice as deep: the hot path
/// of the XY chain searches (`benches/logic.rs`, band diabolical).
fn chain_depth_xy(l: &Links, source: u16, source_on: bool, max_depth: u16) -> Option<u16> {
    let (mut s, first) = HalfDepth::new(source, source_on);
    let mut layers: Vec<[u128; 9]> = Vec::with_capacity(16);
    layers.push(first);
    let within = |b: u32| (b <= max_depth as u32).then_some(b as u16);
    loop {
        if s.best <= 2 * s.k {
            return within(s.best);
        }
        if 2 * s.k >= max_depth as u32 {
            return None; // the shortest chain is longer than 2k
        }
        match s.advance(l, |j| &layers[j as usize]) {
            Some(next) => layers.push(next),
            None if s.best == u32::MAX => return None,
            None => return within(s.best),
        }
    }
}

/// One source's search in [`chain_depth_xy`] between two layers. The layers themselves (the
/// potentials first reached at each depth) are kept by the caller, which may run many sources
/// side by side ([`shortest_xy_chains`]).
struct HalfDepth {
    /// seen[1]: on potentials reached, seen[0]: off ones.
    seen: [[u128; 9]; 2],
    /// Whether `front` holds on potentials.
    on: bool,
    /// Depth of `front`.
    k: u32,
    /// The shortest chain found so far (`u32::MAX`: none); exact once at most `2k`, or once
    /// the search is `exhausted`.
    best: u32,
    /// No new potential at the last layer: the search is over.
    exhausted: bool,
}

impl HalfDepth {
    /// The search at depth 0, and its layer 0 (the source).
    fn new(source: u16, source_on: bool) -> (HalfDepth, [u128; 9]) {
        let (sc, sd) = (source as usize / 9, source as usize % 9);
        let mut front = [0u128; 9];
        front[sd] = 1 << sc;
        let mut seen = [[0u128; 9]; 2];
        seen[source_on as usize] = front;
        let s = HalfDepth {
            seen,
            on: source_on,
            k: 0,
            best: u32::MAX,
            exhausted: false,
        };
        (s, front)
    }

    /// Makes layer `k + 1` and returns it (`None` if it is empty: the search is exhausted).
    /// `layer(j)` gives layer `j`, for every `j <= k`.
    #[inline]
    fn advance<'l>(
        &mut self,
        l: &Links,
        layer: impl Fn(u32) -> &'l [u128; 9],
    ) -> Option<[u128; 9]> {
        let on = self.on;
        // The last layer is the front.
        let mut next = expand_xy(l, layer(self.k), on);
        let mut any = false;
        let opp = &self.seen[!on as usize];
        for d in 0..9 {
            next[d] &= !opp[d];
            any |= next[d] != 0;
        }
        if !any {
            self.exhausted = true;
            return None;
        }
        self.k += 1;
        let k = self.k;
        let mine = &self.seen[on as usize];
        let mut meets = false;
        for d in 0..9 {
            meets |= next[d] & mine[d] != 0;
        }
        if meets {
            // The shallowest opposite: layers of the other truth value are k-1, k-3, ...
            let mut j = (k - 1) % 2;
            while j < k {
                let lj = layer(j);
                if (0..9).any(|d| next[d] & lj[d] != 0) {
                    self.best = self.best.min(k + j);
                    break;
                }
                j += 2;
            }
        }
        let seen_next = &mut self.seen[!on as usize];
        for d in 0..9 {
            seen_next[d] |= next[d];
        }
        self.on = !on;
        Some(next)
    }
}

/// The shortest XY forcing chain over many sources: its length, if at most `max_depth`, and
/// the sources (indices into `sources`, which must be candidates) whose shortest chain has it,
/// in order. Runs every source's [`chain_depth_xy`] search side by side, one layer at a time,
/// and stops at the first depth `k` where some chain of length at most `2k` is known: every
/// shorter chain, from any source, would have been found by then. Searching the sources one
/// after the other instead, the first ones go as deep as their own shortest chain, however
/// long; side by side, no source goes deeper than half the shortest chain of all.
///
/// A source's search finds its first chain at the first layer `k` where a potential it reaches
/// is the opposite of one it reached before, and that chain has length at most `2k - 1`; so the
/// side-by-side search ends at the first layer where any source meets such an opposite, and
/// only the sources that meet there can have the shortest chain. The layers are therefore made
/// for all sources at once, transposed ([`Layers`]: per potential, the set of sources that
/// reach it, one bit a source), and only the few sources that meet at the last layer are
/// searched again alone for their exact length.
fn shortest_xy_chains(
    l: &Links,
    sources: &[(u16, bool)],
    max_depth: u16,
) -> Option<(u16, Vec<usize>)> {
    SCRATCH.with_borrow_mut(|layers| shortest_xy_chains_in(l, sources, max_depth, layers))
}

thread_local! {
    /// The storage of [`shortest_xy_chains`], kept from one search to the next.
    static SCRATCH: std::cell::RefCell<Layers> = Default::default();
}

/// The storage of [`shortest_xy_chains`]: the candidates numbered `0..p` (`index`, `pots`), the
/// X and Y links between them, and per potential (candidate and truth value) a set of sources
/// as `words` 64-bit words: those that have reached it (`seen`), that reached it at the last
/// layer (`front`), and that reach it at the next (`next`). Potential `(k, on)` has the words
/// `(on * p + k) * words ..` of each table (`words` as [`chunk_meets`] chooses).
#[derive(Default)]
struct Layers {
    index: Vec<u16>,
    pots: Vec<u16>,
    /// The number of live candidates (numbered first, see [`Layers::build`]), and the dead
    /// ones while they are numbered.
    live: usize,
    dead: Vec<u16>,
    /// Per potential `id` (`on * p + k`): the potentials it forces (the off potentials an on
    /// one forces, the on potentials an off one forces) are `links[start[id]..start[id + 1]]`.
    start: Vec<u32>,
    links: Vec<u16>,
    seen: Vec<u64>,
    front: Vec<u64>,
    next: Vec<u64>,
    /// The potentials whose `front` is not empty, and those whose `next` is not.
    fronts: Vec<u32>,
    nexts: Vec<u32>,
    /// The strongly connected component of each potential (`on * p + k`) in the links, from
    /// the last [`sources_reaching_their_opposite`] (`u32::MAX` for a dead candidate's
    /// potentials, which are in none).
    comp: Vec<u32>,
    /// The storage of [`sources_reaching_their_opposite`].
    scc: Scc,
}

/// The storage of [`sources_reaching_their_opposite`], kept from one search to the next.
#[derive(Default)]
struct Scc {
    /// Per potential: 0 if not yet visited, its visit number while on Tarjan's stack, `DONE`
    /// plus its component's number once in one.
    num: Vec<u32>,
    /// Per potential, 1 + the source whose opposite it is (0 for none).
    opp_of: Vec<u32>,
    /// Tarjan's stack of the potentials in no component yet, and per entry the sources whose
    /// opposite it reaches so far (`acc`, a fixed number of words each).
    stack: Vec<u32>,
    acc: Vec<u64>,
    /// The potentials being visited, with their next link.
    calls: Vec<Frame>,
    /// Per component, 1 + the place of its set of sources in `sets`, 0 if the set is empty.
    set_of: Vec<u32>,
    sets: Vec<u64>,
    /// The live potentials by component, in the order the components were made: component
    /// `id` holds `members[ends[id - 1]..ends[id]]` (from 0 for the first); `comps` of them.
    members: Vec<u32>,
    ends: Vec<u32>,
    comps: usize,
}

impl Layers {
    /// Numbers the candidates of `l` and lists their links (the links of `expand_xy`, less
    /// those between dead candidates, see below).
    ///
    /// A candidate with no conjugate and no mate is *dead*: its off potential forces nothing
    /// and nothing forces its on potential. The live candidates are numbered first
    /// (`0..live`), then the dead ones, each in cell order.
    fn build(&mut self, l: &Links) {
        let t = self;
        t.index.clear();
        t.index.resize(729, u16::MAX);
        t.pots.clear();
        t.dead.clear();
        for c in 0..81 {
            let mut m = l.cell_cands[c];
            while m != 0 {
                let pot = c * 9 + m.trailing_zeros() as usize;
                m &= m - 1;
                if l.conj_len[pot] > 0 || l.mate[pot] != NONE16 {
                    t.index[pot] = t.pots.len() as u16;
                    t.pots.push(pot as u16);
                } else {
                    t.dead.push(pot as u16);
                }
            }
        }
        let live_count = t.pots.len();
        t.live = live_count;
        for &pot in &t.dead {
            t.index[pot as usize] = t.pots.len() as u16;
            t.pots.push(pot);
        }
        let p = t.pots.len() as u16;
        // The tables at their largest (a candidate has at most four links off, at most 8 + 20
        // on), made once: the links are written in place, without a push's capacity test.
        if t.links.len() < 32 * 729 {
            t.links.resize(32 * 729, 0);
            t.start.resize(2 * 729 + 1, 0);
        }
        let (start, links, index) = (&mut t.start[..], &mut t.links[..], &t.index[..]);
        let mut n = 0;
        // Off potentials (`0..p`): the conjugates, and the cell's other candidate if it has two
        // (none for a dead candidate).
        for (k, &pot) in t.pots.iter().enumerate() {
            start[k] = n as u32;
            let pi = pot as usize;
            for &q in &l.conj[pi][..l.conj_len[pi] as usize] {
                links[n] = p + index[q as usize];
                n += 1;
            }
            if l.mate[pi] != NONE16 {
                links[n] = p + index[l.mate[pi] as usize];
                n += 1;
            }
        }
        // On potentials (`p..2p`): the cell's other candidates and the digit's other places
        // in its houses.
        //
        // A link from a dead candidate's on potential to another dead candidate's off
        // potential is left out: it could only be the first link of a path (nothing leads to
        // its start) and the last (nothing leaves its end), so the whole path, from one
        // candidate to another's opposite, which is no source's way to its own opposite, no
        // cycle and no meeting of the side-by-side layers. On the hard boards about half the
        // links are of this kind.
        let live = l.live_off(true, true);
        for (k, &pot) in t.pots.iter().enumerate() {
            start[p as usize + k] = n as u32;
            let (c, d) = (pot as usize / 9, pot as usize % 9);
            let dead = k >= live_count;
            let mut m = l.cell_cands[c] & !(1 << d);
            while m != 0 {
                let j = index[c * 9 + m.trailing_zeros() as usize];
                m &= m - 1;
                // A dead candidate's cell is not bivalue: only its live candidates.
                if !dead || (j as usize) < live_count {
                    links[n] = j;
                    n += 1;
                }
            }
            let mut m = PEER_MASK[c] & l.cand[d] & if dead { live[d] } else { !0 };
            while m != 0 {
                links[n] = index[m.trailing_zeros() as usize * 9 + d];
                n += 1;
                m &= m - 1;
            }
        }
        start[2 * p as usize] = n as u32;
    }
}

/// [`shortest_xy_chains`] with its storage.
///
/// # Complexity
/// Per layer, one pass over every link with a few words per link (a word holds 64 sources):
/// the hot path of the XY forcing chains (`benches/logic.rs`, bands diabolical and extreme).
fn shortest_xy_chains_in(
    l: &Links,
    sources: &[(u16, bool)],
    max_depth: u16,
    t: &mut Layers,
) -> Option<(u16, Vec<usize>)> {
    let reaching = analyse(l, sources, t);
    layers_meet(l, sources, reaching, max_depth, t)
}

/// Numbers the candidates of `l` and lists their links in `t`, and finds which `sources`
/// reach their opposite (indices into `sources`, ascending; [`sources_reaching_their_opposite`],
/// which also gives `t.comp`).
fn analyse(l: &Links, sources: &[(u16, bool)], t: &mut Layers) -> Vec<usize> {
    t.build(l);
    sources_reaching_their_opposite(t, sources)
}

/// The side-by-side search of [`shortest_xy_chains_in`] on the links of `t` (made by
/// [`analyse`]), `reaching` being the sources that reach their opposite.
fn layers_meet(
    l: &Links,
    sources: &[(u16, bool)],
    reaching: Vec<usize>,
    max_depth: u16,
    t: &mut Layers,
) -> Option<(u16, Vec<usize>)> {
    // Most searches on a hard puzzle's boards find no chain at all, after layers down to the
    // far end of the links: one pass over the links proves that first.
    // Only the sources with a path to their opposite can meet one: the others are left out of
    // the side-by-side search (each source is its own bit, so the layer at which the first
    // source meets and the sources that meet there are the same without them).
    if reaching.is_empty() {
        return None;
    }
    let reaching = if shortcuts() {
        reaching
    } else {
        (0..sources.len()).collect()
    };
    let live: Vec<(u16, bool)> = reaching.iter().map(|&i| sources[i]).collect();
    // The sources in chunks of `BLOCK_SOURCES`, each searched alone: a chunk stops at the
    // first layer where one of its sources meets an opposite, or at the layer where an earlier
    // chunk did (the search of all sources at once stops at the earliest of these).
    let mut end_layer = u32::MAX;
    let mut met_all: Vec<usize> = Vec::new();
    for (chunk, part) in live.chunks(BLOCK_SOURCES).enumerate() {
        let Some((layer, met)) = chunk_meets(t, part, max_depth, end_layer) else {
            continue;
        };
        if layer < end_layer {
            end_layer = layer;
            met_all.clear();
        }
        let mut m = met;
        for (x, word) in m.iter_mut().enumerate() {
            while *word != 0 {
                met_all.push(
                    reaching[chunk * BLOCK_SOURCES + x * 64 + word.trailing_zeros() as usize],
                );
                *word &= *word - 1;
            }
        }
    }
    // The sources that met an opposite at that layer: their exact lengths, searched alone.
    let mut shortest = u16::MAX;
    let mut which = Vec::new();
    for i in met_all {
        let (pot, on) = sources[i];
        if let Some(depth) = chain_depth_xy(l, pot, on, max_depth) {
            if depth < shortest {
                shortest = depth;
                which.clear();
            }
            if depth == shortest {
                which.push(i);
            }
        }
    }
    (!which.is_empty()).then_some((shortest, which))
}

/// The sources (indices into `sources`, ascending) that have a forcing chain of any length: a
/// path of links from the source to its opposite; and, in `t.comp`, the strongly connected
/// component of each potential. Only these sources can meet anything in the side-by-side
/// search (a source meets the opposite of a potential it reached if and only if it reaches its
/// own opposite, since every link has its contrapositive).
///
/// One pass: Tarjan's strongly connected components of the links, each source a bit, and
/// each component, as it is completed, the set of the sources whose opposite it reaches: the
/// bits of the opposites among its members and the sets of the components its members link
/// to (completed before it: Tarjan completes the components sinks first). While a component
/// is open, each of its potentials on Tarjan's stack keeps the part it has gathered (its own
/// bit, the sets of the completed components its links led to), and the component's set is
/// their union. A source has a path to its opposite if and only if its own component's set
/// holds it. (A source in its opposite's component, only on a board without a solution, is
/// reported as reaching it.)
///
/// # Complexity
/// One pass over the links, with a few words per link into a completed component whose set
/// holds some source (64 sources a word).
fn sources_reaching_their_opposite(t: &mut Layers, sources: &[(u16, bool)]) -> Vec<usize> {
    match sources.len().div_ceil(64) {
        // Without sources too: the components are needed (`t.comp`).
        0 | 1 => components_and_sets::<1>(t, sources),
        2 => components_and_sets::<2>(t, sources),
        3 | 4 => components_and_sets::<4>(t, sources),
        5..=8 => components_and_sets::<8>(t, sources),
        _ => components_and_sets::<{ 1458usize.div_ceil(64) }>(t, sources),
    }
}

/// A frame of Tarjan's call stack in [`components_and_sets`]: a potential being visited, its
/// next link, its lowest reachable visit number so far, its place on the component stack.
#[derive(Clone, Copy, Default)]
struct Frame {
    node: u32,
    link: u32,
    low: u32,
    at: u32,
}

/// `Scc::num` of a potential in a component: this plus the component's number (visit
/// numbers are below it).
const DONE: u32 = 1 << 16;

/// [`sources_reaching_their_opposite`] with sets of `W` words (`W * 64` sources at most).
fn components_and_sets<const W: usize>(t: &mut Layers, sources: &[(u16, bool)]) -> Vec<usize> {
    debug_assert!(sources.len() <= W * 64);
    let (p, live) = (t.pots.len(), t.live);
    let n = 2 * p;
    let Layers {
        index,
        start,
        links,
        comp,
        scc: s,
        ..
    } = t;
    // Node `on * p + k`: candidate `k` on or off, as in the tables of `Layers`. The dead
    // candidates' potentials (`live..p`, `p + live..2p`) are left out of the components: a
    // dead off potential forces nothing (a link into it only brings the bit of its opposite,
    // if a source), nothing forces a dead on potential (it only starts paths: see the end).
    let node = |pot: u16, on: bool| on as usize * p + index[pot as usize] as usize;
    // Per node, 1 + the source whose opposite it is (0 for none).
    s.opp_of.clear();
    s.opp_of.resize(n, 0);
    for (i, &(pot, on)) in sources.iter().enumerate() {
        s.opp_of[node(pot, !on)] = i as u32 + 1;
    }
    s.num.clear();
    s.num.resize(n, 0);
    // Every live node is put in a component below; the dead ones are in none.
    comp.resize(n, 0);
    comp[live..p].fill(u32::MAX);
    comp[p + live..].fill(u32::MAX);
    // The stacks and the sets at their largest (one entry per node), without a capacity test.
    if s.stack.len() < n {
        s.stack.resize(n, 0);
        s.calls.resize(n, Frame::default());
        s.set_of.resize(n, 0);
        s.members.resize(n, 0);
        s.ends.resize(n, 0);
    }
    // Written before they are read: an entry's `acc` when it is pushed, `sets[..filled]`.
    if s.acc.len() < n * W {
        s.acc.resize(n * W, 0);
        s.sets.resize(n * W, 0);
    }
    let (acc, _) = s.acc.as_chunks_mut::<W>();
    let (sets, _) = s.sets.as_chunks_mut::<W>();
    let (stack, calls, set_of, num, members, ends) = (
        &mut s.stack[..],
        &mut s.calls[..],
        &mut s.set_of[..],
        &mut s.num[..],
        &mut s.members[..],
        &mut s.ends[..],
    );
    // The number of potentials put in components so far (`members[..made]`).
    let mut made = 0;
    // The number of non-empty sets (`sets[..filled]`); a component's `set_of` is 1 + its set's
    // place, or 0 for an empty set.
    let mut filled = 0;
    let (mut depth, mut sp, mut counter, mut comps) = (0, 0, 1u32, 0u32);
    for root in (0..live).chain(p..p + live) {
        if num[root] != 0 {
            continue;
        }
        let mut f = Frame {
            node: root as u32,
            link: start[root],
            low: counter,
            at: sp as u32,
        };
        macro_rules! enter {
            ($v:expr) => {{
                let v: usize = $v;
                num[v] = counter;
                counter += 1;
                stack[sp] = v as u32;
                let mut own = [0u64; W];
                let b = s.opp_of[v];
                if b != 0 {
                    own[(b - 1) as usize / 64] |= 1 << ((b - 1) % 64);
                }
                acc[sp] = own;
                sp += 1;
            }};
        }
        enter!(root);
        let mut end = start[root + 1];
        loop {
            if f.link < end {
                let v = links[f.link as usize] as usize;
                f.link += 1;
                if v.wrapping_sub(live) < p - live {
                    // A dead off potential: the bit of its opposite, if a source.
                    let b = s.opp_of[v];
                    if b != 0 {
                        acc[f.at as usize][(b - 1) as usize / 64] |= 1 << ((b - 1) % 64);
                    }
                    continue;
                }
                let w = num[v];
                if w == 0 {
                    calls[depth] = f;
                    depth += 1;
                    f = Frame {
                        node: v as u32,
                        link: start[v],
                        low: counter,
                        at: sp as u32,
                    };
                    end = start[v + 1];
                    enter!(v);
                } else if w < DONE {
                    // Seen and in no component yet: on the stack.
                    f.low = f.low.min(w);
                } else {
                    let x = set_of[(w - DONE) as usize];
                    if x != 0 {
                        let (from, own) = (sets[x as usize - 1], &mut acc[f.at as usize]);
                        for k in 0..W {
                            own[k] |= from[k];
                        }
                    }
                }
                continue;
            }
            // Done with `f.node`: it roots a component (every component it reaches is done)
            // or stays on the stack for its parent's.
            let u = f.node as usize;
            let mut closed = None;
            if f.low == num[u] {
                let id = comps;
                comps += 1;
                let mut set = [0u64; W];
                for i in f.at as usize..sp {
                    let v = stack[i] as usize;
                    num[v] = DONE + id;
                    comp[v] = id;
                    members[made] = v as u32;
                    made += 1;
                    for k in 0..W {
                        set[k] |= acc[i][k];
                    }
                }
                ends[id as usize] = made as u32;
                sp = f.at as usize;
                if set != [0; W] {
                    sets[filled] = set;
                    filled += 1;
                    set_of[id as usize] = filled as u32;
                    closed = Some(filled - 1);
                } else {
                    set_of[id as usize] = 0;
                }
            }
            if depth == 0 {
                break;
            }
            depth -= 1;
            let (child_low, child_done) = (f.low, num[u] >= DONE);
            f = calls[depth];
            end = start[f.node as usize + 1];
            if let Some(x) = closed {
                let (from, own) = (sets[x], &mut acc[f.at as usize]);
                for k in 0..W {
                    own[k] |= from[k];
                }
            } else if !child_done {
                f.low = f.low.min(child_low);
            }
        }
    }
    s.comps = comps as usize;
    // A dead on potential reaches what the potentials it forces reach; a dead off potential
    // forces nothing. One plain loop (a filter's closure was a call per source).
    let holds = |v: usize, i: usize| {
        let x = set_of[comp[v] as usize];
        x != 0 && sets[x as usize - 1][i / 64] >> (i % 64) & 1 == 1
    };
    let mut out = Vec::with_capacity(sources.len());
    for (i, &(pot, on)) in sources.iter().enumerate() {
        let k = index[pot as usize] as usize;
        let reached = if k < live {
            holds(on as usize * p + k, i)
        } else if on {
            let (a, b) = (start[p + k] as usize, start[p + k + 1] as usize);
            links[a..b].iter().any(|&q| holds(q as usize, i))
        } else {
            false
        };
        if reached {
            out.push(i);
        }
    }
    out
}

/// Per candidate (cell * 9 + digit), whether a cycle through its on potential could remove
/// something, on the components of the links of `t` (`Scc::members`, from the last
/// [`sources_reaching_their_opposite`]; see [`static_chains_where`]): its
/// component holds an on potential `a` and an off potential `b` of one digit that a third
/// candidate of that digit sees both. One bit per link setting ([`cycle_bit`]): with X and Y
/// links, any such pair; with X-links only, a pair of the source's digit (an X cycle stays on
/// it) among the candidates with a conjugate (`conj_any`: every node of an X cycle has one);
/// with Y-links only, a pair among the candidates of cells with two (`bivalue_cand`: every
/// node of a Y cycle is one).
fn cycle_sources(t: &Layers, links: &Links) -> CycleFilter {
    let p = t.pots.len();
    let s = &t.scc;
    let cand = &links.cand;
    // The candidate of a live potential (`on * p + k`) and whether it is on.
    let pot_of = |v: u32| {
        let v = v as usize;
        let on = v >= p;
        (t.pots[if on { v - p } else { v }] as usize, on)
    };
    let mut out = vec![0u8; 729];
    let mut comp_of = vec![u16::MAX; 729];
    let mut comp_off = Vec::new();
    // The components one after the other, each one's members together (only a component of
    // two potentials or more holds a loop).
    let mut from = 0;
    for &end in &s.ends[..s.comps] {
        let members = &s.members[from..end as usize];
        from = end as usize;
        if members.len() < 2 {
            continue;
        }
        // Per digit: the cells that see an on potential of the component, an off one.
        let mut sees = [[0u128; 9]; 2];
        for &v in members {
            let (pot, on) = pot_of(v);
            sees[on as usize][pot % 9] |= PEER_MASK[pot / 9];
        }
        let [off, on] = &sees;
        if !(0..9).any(|d| on[d] & off[d] & cand[d] != 0) {
            continue;
        }
        // Useful with X and Y links (usually one or two components): the same with X-links
        // only (the candidates with a conjugate), with Y-links only (those of cells with two).
        let mut sees = [[[0u128; 9]; 2]; 2];
        for &v in members {
            let (pot, on) = pot_of(v);
            let (c, d) = (pot / 9, pot % 9);
            if links.conj_any[d] >> c & 1 == 1 {
                sees[0][on as usize][d] |= PEER_MASK[c];
            }
            if links.bivalue_cand[d] >> c & 1 == 1 {
                sees[1][on as usize][d] |= PEER_MASK[c];
            }
        }
        let [x_only, y_only]: [u16; 2] = std::array::from_fn(|k| {
            let [off, on] = &sees[k];
            (0..9).fold(0, |m, d| m | ((on[d] & off[d] & cand[d] != 0) as u16) << d)
        });
        let mut off = [0u128; 9];
        for &v in members {
            let (pot, on) = pot_of(v);
            if !on {
                off[pot % 9] |= 1 << (pot / 9);
                continue;
            }
            comp_of[pot] = comp_off.len() as u16;
            let mut bits = cycle_bit(true, true);
            if x_only >> (pot % 9) & 1 == 1 {
                bits |= cycle_bit(false, true);
            }
            if y_only != 0 {
                bits |= cycle_bit(true, false);
            }
            out[pot] = bits;
        }
        comp_off.push(off);
    }
    CycleFilter {
        ok: out,
        comp: comp_of,
        off: comp_off,
    }
}

/// What [`cycle_sources`] finds: per candidate, the link settings in which a cycle through it
/// could remove something (`ok`, bits of [`cycle_bit`]), and, for a candidate with some,
/// its component's place (`comp`) in `off`: per digit, the cells of the component's off
/// potentials.
struct CycleFilter {
    ok: Vec<u8>,
    comp: Vec<u16>,
    off: Vec<[u128; 9]>,
}

/// The bit of a link setting (`y`, `x`) in [`cycle_sources`]' masks.
fn cycle_bit(y: bool, x: bool) -> u8 {
    match (y, x) {
        (true, true) => 1,
        (false, true) => 2,
        _ => 4,
    }
}

#[cfg(test)]
thread_local! {
    /// Tests only: whether the searches skip what cannot give a chain or cycle (the source
    /// filter of [`shortest_xy_chains_in`], [`cycle_sources`]); cleared, they search it all.
    static SHORTCUTS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether the exact shortcuts are taken (always, except in tests that compare without them).
#[inline]
fn shortcuts() -> bool {
    #[cfg(test)]
    {
        SHORTCUTS.get()
    }
    #[cfg(not(test))]
    {
        true
    }
}

/// Sources per chunk of [`shortest_xy_chains_in`]: one [`Block`].
const BLOCK_SOURCES: usize = 512;

/// A set of up to [`BLOCK_SOURCES`] sources, one bit each (a fixed size, so that the
/// compiler makes each operation on it a few vector instructions).
type Block = [u64; BLOCK_SOURCES / 64];

/// The side-by-side search of the sources `part` (at most [`BLOCK_SOURCES`]) on the links of
/// `t`: the first layer at which some of them reach the opposite of a potential they reached
/// before, with those sources; `None` if there is none up to `end_layer` or within
/// `max_depth` (as [`chain_depth_xy`] bounds its search).
///
/// The sets of sources are as wide as `part` needs (64 sources a word): on a board with a
/// chain, a few dozen sources reach their opposite and are searched, in one word.
fn chunk_meets(
    t: &mut Layers,
    part: &[(u16, bool)],
    max_depth: u16,
    end_layer: u32,
) -> Option<(u32, Block)> {
    match part.len() {
        0..=64 => chunk_meets_in::<1>(t, part, max_depth, end_layer),
        65..=128 => chunk_meets_in::<2>(t, part, max_depth, end_layer),
        129..=256 => chunk_meets_in::<4>(t, part, max_depth, end_layer),
        _ => chunk_meets_in::<{ BLOCK_SOURCES / 64 }>(t, part, max_depth, end_layer),
    }
}

/// [`chunk_meets`] with sets of `W` words (`W * 64` sources at most), each potential's set at
/// `W * id ..` of the tables of `t`.
fn chunk_meets_in<const W: usize>(
    t: &mut Layers,
    part: &[(u16, bool)],
    max_depth: u16,
    end_layer: u32,
) -> Option<(u32, Block)> {
    debug_assert!(part.len() <= W * 64);
    let p = t.pots.len();
    for table in [&mut t.seen, &mut t.front, &mut t.next] {
        table.clear();
        table.resize(2 * p * W, 0);
    }
    t.fronts.clear();
    for (i, &(pot, on)) in part.iter().enumerate() {
        let k = on as usize * p + t.index[pot as usize] as usize;
        // Each source is one potential (the sources are distinct).
        t.fronts.push(k as u32);
        t.seen[k * W + i / 64] |= 1 << (i % 64);
        t.front[k * W + i / 64] |= 1 << (i % 64);
    }
    #[inline(always)]
    fn set<const W: usize>(table: &[u64], id: usize) -> [u64; W] {
        table[id * W..id * W + W].try_into().expect("W words")
    }
    let mut k: u32 = 0;
    loop {
        // No source has met an opposite yet (the search ends at the first layer where one
        // does), so every source's best is unknown: stop where the next layer would be too
        // deep, as `chain_depth_xy` does.
        if 2 * k >= max_depth as u32 || k >= end_layer {
            return None;
        }
        let Layers {
            start,
            links,
            front,
            next,
            seen,
            fronts,
            nexts,
            ..
        } = &mut *t;
        // On potentials force off ones, off potentials on ones: only the potentials with a
        // front (listed in `fronts`), each front emptied once expanded. Nothing forces a dead on
        // potential (after the first layer it has no front); a dead off potential forces
        // nothing (no links).
        nexts.clear();
        for &j in fronts.iter() {
            let j = j as usize;
            let f: [u64; W] = set(front, j);
            front[j * W..j * W + W].fill(0);
            for &q in &links[start[j] as usize..start[j + 1] as usize] {
                let at = q as usize * W;
                let dst: &mut [u64; W] = (&mut next[at..at + W]).try_into().expect("W words");
                if *dst == [0; W] {
                    nexts.push(q as u32);
                }
                for x in 0..W {
                    dst[x] |= f[x];
                }
            }
        }
        k += 1;
        let mut met = [0u64; BLOCK_SOURCES / 64];
        // Only the potentials reached at this layer (`nexts`) can have something new.
        fronts.clear();
        for &id in nexts.iter() {
            let id = id as usize;
            let opp = if id < p { id + p } else { id - p };
            let (nx, sn): ([u64; W], [u64; W]) = (set(next, id), set(seen, opp));
            next[id * W..id * W + W].fill(0);
            let mut any = 0;
            for x in 0..W {
                let s = &mut seen[id * W + x];
                let new = nx[x] & !*s;
                *s |= new;
                front[id * W + x] = new;
                any |= new;
                // A source's layer holds one truth value, so its bits in the opposite
                // potential's `seen` are not changed by this layer.
                met[x] |= new & sn[x];
            }
            if any != 0 {
                fronts.push(id as u32);
            }
        }
        if met != [0; BLOCK_SOURCES / 64] {
            return Some((k, met));
        }
        if fronts.is_empty() {
            return None;
        }
    }
}

/// The plain layer-by-layer search that [`chain_depth_xy`] must agree with (tests only).
#[cfg(test)]
fn chain_depth_plain(l: &Links, source: u16, source_on: bool, max_depth: u16) -> Option<u16> {
    let y = true;
    let peer_mask: &[u128; 81] = &PEER_MASK;
    let (sc, sd) = (source as usize / 9, source as usize % 9);
    let sbit = 1u128 << sc;
    let mut seen_on = [0u128; 9];
    let mut seen_off = [0u128; 9];
    let mut front_on = [0u128; 9];
    let mut front_off = [0u128; 9];
    // Depth of the on frontier and of the off frontier.
    let (mut on_depth, mut off_depth): (u16, u16) = (0, 0);
    if source_on {
        seen_on[sd] = sbit;
        front_on[sd] = sbit;
    } else {
        seen_off[sd] = sbit;
        front_off[sd] = sbit;
    }
    loop {
        // On frontier -> off potentials, one layer deeper.
        if front_on.iter().any(|&m| m != 0) {
            if on_depth >= max_depth {
                return None;
            }
            let mut new_off = [0u128; 9];
            for d in 0..9 {
                let mut m = front_on[d];
                let mut peers = 0u128;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    peers |= peer_mask[c];
                }
                new_off[d] |= peers & l.cand[d];
            }
            if y {
                // A frontier cell on digit d loses its other candidates: digit v turns off in
                // the cells on for another digit (`dup`: cells on for two or more digits).
                let (mut all, mut dup) = (0u128, 0u128);
                for &m in &front_on {
                    dup |= all & m;
                    all |= m;
                }
                for v in 0..9 {
                    // The cells on for a digit other than v.
                    new_off[v] |= all & (!front_on[v] | dup) & l.cand[v];
                }
            }
            if source_on && new_off[sd] & sbit != 0 {
                return Some(on_depth + 1);
            }
            for d in 0..9 {
                new_off[d] &= !seen_off[d];
                seen_off[d] |= new_off[d];
            }
            front_off = new_off;
            off_depth = on_depth + 1;
        }
        // Off frontier -> on potentials, one layer deeper.
        if front_off.iter().all(|&m| m == 0) || off_depth >= max_depth {
            return None;
        }
        let mut new_on = [0u128; 9];
        if y {
            // A bivalue cell {d, v} off for d turns on for v: v turns on in the bivalue cells
            // holding v that are off for another digit (an off potential is a candidate, so
            // that digit is the cell's other one; `dup`: cells off for two or more digits).
            let (mut all, mut dup) = (0u128, 0u128);
            for &m in &front_off {
                dup |= all & m;
                all |= m;
            }
            for v in 0..9 {
                // The cells off for a digit other than v: (all & !off[v]) | (off[v] & dup).
                new_on[v] = all & (!front_off[v] | dup) & l.bivalue_cand[v];
            }
        }
        for d in 0..9 {
            let f = front_off[d];
            if f == 0 {
                continue;
            }
            let mut m = f;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                new_on[d] |= l.conj_mask[c * 9 + d];
            }
        }
        if !source_on && new_on[sd] & sbit != 0 {
            return Some(off_depth + 1);
        }
        let mut any = false;
        for d in 0..9 {
            new_on[d] &= !seen_on[d];
            seen_on[d] |= new_on[d];
            front_on[d] = new_on[d];
            front_off[d] = 0;
            any |= new_on[d] != 0;
        }
        if !any {
            return None;
        }
        on_depth = off_depth + 1;
    }
}

/// [`chain_depth`] with X-links only: the search never leaves the source's digit, so each layer
/// is one mask over the cells (the hot path of the X-chain searches, `benches/logic.rs`).
fn chain_depth_x(l: &Links, source: u16, source_on: bool, max_depth: u16) -> Option<u16> {
    let peer_mask: &[u128; 81] = &PEER_MASK;
    let (sc, sd) = (source as usize / 9, source as usize % 9);
    let sbit = 1u128 << sc;
    let cand = l.cand[sd];
    let (mut seen_on, mut seen_off, mut front_on, mut front_off) = if source_on {
        (sbit, 0, sbit, 0)
    } else {
        (0, sbit, 0, sbit)
    };
    let (mut on_depth, mut off_depth): (u16, u16) = (0, 0);
    loop {
        if front_on != 0 {
            if on_depth >= max_depth {
                return None;
            }
            let mut peers = 0u128;
            let mut m = front_on;
            while m != 0 {
                peers |= peer_mask[m.trailing_zeros() as usize];
                m &= m - 1;
            }
            let new_off = peers & cand;
            if source_on && new_off & sbit != 0 {
                return Some(on_depth + 1);
            }
            front_off = new_off & !seen_off;
            seen_off |= front_off;
            off_depth = on_depth + 1;
        }
        if front_off == 0 || off_depth >= max_depth {
            return None;
        }
        let mut new_on = 0u128;
        let mut m = front_off;
        while m != 0 {
            new_on |= l.conj_mask[m.trailing_zeros() as usize * 9 + sd];
            m &= m - 1;
        }
        if !source_on && new_on & sbit != 0 {
            return Some(off_depth + 1);
        }
        front_on = new_on & !seen_on;
        seen_on |= front_on;
        front_off = 0;
        if front_on == 0 {
            return None;
        }
        on_depth = off_depth + 1;
    }
}

/// Distinct potentials (with truth value) on a path.
fn distinct(path: &[Node]) -> usize {
    let mut seen = [0u64; 23];
    let mut n = 0;
    for nd in path {
        let id = ident(nd.pot, nd.on);
        if seen[id / 64] >> (id % 64) & 1 == 0 {
            seen[id / 64] |= 1 << (id % 64);
            n += 1;
        }
    }
    n
}

/// A found chain before it becomes a step.
struct Found {
    rating: u16,
    complexity: usize,
    sort_key: u8,
    technique: &'static str,
    /// The chain, target first; empty for a forcing chain until it is chosen (see `lazy`).
    path: Vec<Node>,
    /// For a forcing chain: its source, whether the source is on, and the links (y, x).
    lazy: Option<(u16, bool, bool, bool)>,
    /// SE's order among hints of one kind: the source (cell * 9 + digit), then cycles before the
    /// chain from "on" before the chain from "off", then the order cycles were found.
    order: u64,
    cycle: bool,
    placements: Vec<(Cell, Digit)>,
    eliminations: Vec<(Cell, Digit)>,
}

/// Where the searches put the hints they find: in `all` if `want` accepts the technique, and
/// then `best` is lowered to its (rating, complexity), the bound of the searches still to run.
struct Sink<'a> {
    all: &'a mut Vec<Found>,
    best: &'a mut (u16, usize),
    want: &'a dyn Fn(&str) -> bool,
}

impl Sink<'_> {
    fn push(&mut self, f: Found) {
        if (self.want)(f.technique) {
            *self.best = (*self.best).min((f.rating, f.complexity));
            self.all.push(f);
        }
    }
}

fn pot_str(nd: &Node) -> String {
    let (c, d) = (nd.pot as usize / 9, nd.pot as usize % 9);
    format!(
        "{} {} {}",
        cell(c),
        if nd.on { "is" } else { "isn't" },
        d + 1
    )
}

fn chain_text(path: &[Node]) -> String {
    path.iter()
        .rev()
        .map(pot_str)
        .collect::<Vec<_>>()
        .join(" → ")
}

/// The most distinct nodes a hint of base rating `base` may have and still come no later than
/// `best` (rating, complexity) in SE's order, which sorts hints by rating, then complexity
/// (`usize::MAX` when `best` is unbounded).
fn max_complexity(base: u16, best: (u16, usize)) -> usize {
    if best.0 == u16::MAX {
        return usize::MAX;
    }
    let mut n = 0;
    while n < 3000 && (base + length_bonus(n + 1), n + 1) <= best {
        n += 1;
    }
    n
}

/// The deepest node worth making for a forcing chain (whose complexity is its depth + 1) and
/// for a cycle (whose complexity is the depth of its end, the source again), given `best`.
fn depth_limits(base: u16, best: (u16, usize)) -> (u16, u16) {
    match max_complexity(base, best) {
        usize::MAX => (u16::MAX, u16::MAX),
        n => ((n.max(1) - 1) as u16, n as u16),
    }
}

/// Which half of SE's loop hints to look for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    /// Forcing chains (depths on bit masks: cheap, so they run first and bound the cycles).
    Chains,
    /// Bidirectional cycles.
    Cycles,
}

/// SE's loop hints for one setting of the links: cycles and forcing chains from every candidate.
/// `out.best` is the lowest (rating, complexity) found so far; searches stop where they could only
/// come later in SE's order.
fn loop_hints(search: &mut Search, (y, x): (bool, bool), part: Part, out: &mut Sink) {
    let (cycle_base, chain_base) = if x && y { (70, 70) } else { (65, 66) };
    if cycle_base.min(chain_base) > out.best.0 {
        return;
    }
    let (board, links) = (search.board, search.links);
    if y && part == Part::Chains {
        return xy_chain_hints(board, links, out, search.xy.as_ref());
    }
    // One search serves every link setting (`Search::new` clears 12 KB).
    search.y = y;
    search.x = x;
    // An off potential that forces nothing can neither extend a cycle nor close one: leave it
    // out of the cycle searches (the chains and cycles found are the same; the search is much
    // smaller, above all with Y-links only, where only bivalue cells force anything).
    let live = links.live_off(y, x);
    // Depth limits for the current best rating, recomputed only when it improves.
    let mut limits_for = (u16::MAX - 1, 0);
    let (mut cycle_limit, mut chain_limit) = (0, 0);
    for c in 0..81 {
        let m = board.cands[c];
        if board.values[c] != 0 || m.count_ones() < 2 {
            continue;
        }
        for d in super::bits(m) {
            if m.count_ones() > 2 && !x {
                continue;
            }
            let pot = (c * 9 + d) as u16;
            if limits_for != *out.best {
                limits_for = *out.best;
                cycle_limit = depth_limits(cycle_base, *out.best).1;
                chain_limit = depth_limits(chain_base, *out.best).0;
            }
            search.max_depth = cycle_limit;
            // A cycle (or a chain to "source on") closes through a link into the source: a
            // conjugate (X) or the cell's other candidate (Y). Without one, skip the search.
            let closable = (x && links.conj_len[pot as usize] > 0)
                || (y && links.mate[pot as usize] != NONE16);
            let may_cycle =
                search.cycle_ok.is_empty() || search.cycle_ok[pot as usize] & cycle_bit(y, x) != 0;
            let ends = if closable && may_cycle && part == Part::Cycles {
                // A loop through the source lies in the component of its on potential: an off
                // potential outside it leads to no loop (nor does anything made from it), so it
                // is left out like a dead end. The nodes in the component, their parents and
                // their order are the same, so the loops found are too.
                if search.cycle_comp.is_empty() {
                    search.cycles(pot, &live);
                } else {
                    let comp = &search.cycle_off[search.cycle_comp[pot as usize] as usize];
                    let keep: [u128; 9] = std::array::from_fn(|d| live[d] & comp[d]);
                    search.cycles(pot, &keep);
                }
                std::mem::take(&mut search.ends)
            } else {
                Vec::new()
            };
            for (k, &e) in ends.iter().enumerate() {
                // Most loops remove nothing: test that on masks before building the hint.
                if !search.cycle_removes_something(e) {
                    continue;
                }
                let path = search.path(e);
                if let Some(mut f) = cycle_hint(board, path, y, x) {
                    f.order = (pot as u64) << 32 | k as u64;
                    out.push(f);
                }
            }
            // The buffer goes back to the search, for the next source.
            search.ends = ends;
            if x && part == Part::Chains {
                for source_on in [true, false] {
                    if !source_on && !closable {
                        continue;
                    }
                    // X links are among the XY links: a source that reaches its opposite by
                    // none of those has no X chain.
                    if !search.chain_ok.is_empty() && !search.chain_ok[ident(pot, source_on)] {
                        continue;
                    }
                    if let Some(depth) = chain_depth(links, y, pot, source_on, chain_limit) {
                        let complexity = depth as usize + 1;
                        if let Some(mut f) = forcing_hint(board, pot, !source_on, complexity, y, x)
                        {
                            f.order = (pot as u64) << 32 | 1 << 30 | (!source_on as u64) << 29;
                            out.push(f);
                        }
                    }
                }
            }
        }
    }
}

/// The shortest forcing chains with X and Y links ([`loop_hints`] for them), from every source
/// side by side ([`shortest_xy_chains`]): the same hints as searching source after source with
/// the bound `best`, less the longer ones, which come later in SE's order.
fn xy_chain_hints(board: &Board, links: &Links, out: &mut Sink, pre: Option<&XySources>) {
    let chain_limit = depth_limits(70, *out.best).0;
    let owned;
    let (sources, found): (&[(u16, bool)], _) = match pre {
        Some((sources, reaching)) => (
            sources,
            SCRATCH
                .with_borrow_mut(|t| layers_meet(links, sources, reaching.clone(), chain_limit, t)),
        ),
        None => {
            owned = xy_sources(board, links);
            let found = shortest_xy_chains(links, &owned, chain_limit);
            (&owned, found)
        }
    };
    let Some((depth, which)) = found else {
        return;
    };
    let complexity = depth as usize + 1;
    for i in which {
        let (pot, source_on) = sources[i];
        if let Some(mut f) = forcing_hint(board, pot, !source_on, complexity, true, true) {
            f.order = (pot as u64) << 32 | 1 << 30 | (!source_on as u64) << 29;
            out.push(f);
        }
    }
}

/// The sources of the XY forcing chains, and those among them (indices) that reach their
/// opposite.
type XySources = (Vec<(u16, bool)>, Vec<usize>);

/// The sources of the XY forcing chains: every candidate of a cell with two or more, on, and
/// off if a link can force it on (a conjugate or the cell's other candidate).
fn xy_sources(board: &Board, links: &Links) -> Vec<(u16, bool)> {
    let mut sources = Vec::with_capacity(2 * 81 * 4);
    for c in 0..81 {
        let m = board.cands[c];
        if board.values[c] != 0 || m.count_ones() < 2 {
            continue;
        }
        for d in super::bits(m) {
            let pot = (c * 9 + d) as u16;
            let closable = links.conj_len[pot as usize] > 0 || links.mate[pot as usize] != NONE16;
            sources.push((pot, true));
            if closable {
                sources.push((pot, false));
            }
        }
    }
    sources
}

fn cycle_hint(board: &Board, path: Vec<Node>, y: bool, x: bool) -> Option<Found> {
    // The loop's cells: every node but the root (which repeats the first).
    let body = &path[..path.len() - 1];
    let mut in_loop = [false; 81];
    for nd in body {
        in_loop[nd.pot as usize / 9] = true;
    }
    let mut forw = [0u16; 81];
    let mut back = [0u16; 81];
    for nd in body {
        let (c, d) = (nd.pot as usize / 9, nd.pot as usize % 9);
        for &o in &PEERS[c] {
            let o = o as usize;
            if !in_loop[o] && board.cands[o] >> d & 1 == 1 {
                if nd.on {
                    forw[o] |= 1 << d;
                } else {
                    back[o] |= 1 << d;
                }
            }
        }
    }
    let mut elims = Vec::new();
    for o in 0..81 {
        for d in super::bits(forw[o] & back[o]) {
            elims.push((cell(o), digit(d)));
        }
    }
    if elims.is_empty() {
        return None;
    }
    let complexity = distinct(&path);
    let (base, technique, key) = match (x, y) {
        (true, true) => (70, "Bidirectional Cycle", 4),
        (false, true) => (65, "Bidirectional Y-Cycle", 3),
        _ => (65, "Bidirectional X-Cycle", 2),
    };
    Some(Found {
        rating: base + length_bonus(complexity),
        complexity,
        sort_key: key,
        technique,
        path,
        lazy: None,
        order: 0,
        cycle: true,
        placements: vec![],
        eliminations: elims,
    })
}

/// A forcing chain from `pot` whose target is `pot` on (`target_on`) or off, with
/// `complexity` distinct nodes; its path is found later if it is chosen.
fn forcing_hint(
    board: &Board,
    pot: u16,
    target_on: bool,
    complexity: usize,
    y: bool,
    x: bool,
) -> Option<Found> {
    let (c, d) = (pot as usize / 9, pot as usize % 9);
    let (placements, elims) = if target_on {
        (
            vec![(cell(c), digit(d))],
            super::bits(board.cands[c] & !(1 << d))
                .map(|v| (cell(c), digit(v)))
                .collect::<Vec<_>>(),
        )
    } else {
        (vec![], vec![(cell(c), digit(d))])
    };
    if elims.is_empty() {
        return None;
    }
    let (base, technique, key) = if x && y {
        (70, "Forcing Chain", 4)
    } else if complexity == 6 {
        (66, "Turbot Fish", 2)
    } else {
        (66, "Forcing X-Chain", 2)
    };
    Some(Found {
        rating: base + length_bonus(complexity),
        complexity,
        sort_key: key,
        technique,
        path: Vec::new(),
        lazy: Some((pot, !target_on, y, x)),
        order: 0,
        cycle: false,
        placements,
        eliminations: elims,
    })
}

/// The easiest cycle or forcing chain, as SE orders them: X-links only, then Y-links only, then
/// both; the lowest rating wins, then the fewest nodes, then the kind.
pub fn static_chains(board: &Board) -> Option<Step> {
    static_chains_where(board, &|_| true)
}

/// [`static_chains`] among the hints whose technique name `want` accepts (`"Turbot Fish"`,
/// `"Bidirectional Y-Cycle"`, `"Forcing X-Chain"`, `"Forcing Chain"`): the easiest of those.
/// Only those bound the searches, so one that SE would rank after another kind's is found too.
pub fn static_chains_where(board: &Board, want: &dyn Fn(&str) -> bool) -> Option<Step> {
    let links = Links::new(board);
    // One pass over the link settings, each search bounded by the best (rating, complexity)
    // found so far: SE takes the easiest hint by rating, then complexity, then kind, then its
    // own order, so a search may stop where it could only find hints that come later. Hints of
    // different link settings never tie (their kinds differ), and `order` keeps SE's order
    // within one setting, so the searches may run in any order; the cheapest bounds first:
    // X-chain depths stay on one digit (one mask per layer) and usually find a Turbot Fish or
    // a short X-chain, which then bounds the XY-chain depths and the node-by-node cycle
    // searches. (Earlier versions made passes bounded by 6.6, then 7.2, then unbounded; on
    // the qqwing-expert calibration puzzles the one pass takes 9% fewer instructions.)
    let mut all = Vec::new();
    let mut search = Search::new(board, &links, false, false);
    let mut best = (u16::MAX, usize::MAX);
    // (y, x): which links a search follows.
    let (x_only, y_only, both) = ((false, true), (true, false), (true, true));
    let mut out = Sink {
        all: &mut all,
        best: &mut best,
        want,
    };
    // Which candidates have a path of XY links to their opposite, found first in one pass
    // (`analyse`): a forcing chain, X or XY, is such a path.
    let sources = xy_sources(board, &links);
    let reaching = SCRATCH.with_borrow_mut(|t| analyse(&links, &sources, t));
    // Most chain steps of the hardest puzzles have no static chain and no useful cycle: when
    // no candidate, on, has a path of links to its off potential (every candidate is one of
    // the sources when no cell has a single candidate), no cycle can remove anything. If a
    // cycle removes candidate `o`, `o` sees a node `a` on and a node `b` off of its digit on
    // the loop; every link has its contrapositive, so the loop also holds reversed, every
    // truth value flipped, with `a` off and `b` on: "`o` on" forces "`a` off", the reversed
    // loop leads from there to "`b` on", which forces "`o` off". The links of X-only and
    // Y-only cycles are among the XY links.
    if reaching.is_empty() && board.cands.iter().all(|m| m.count_ones() != 1) {
        return None;
    }
    if shortcuts() {
        let mut ok = vec![false; 1458];
        for &i in &reaching {
            let (pot, on) = sources[i];
            ok[ident(pot, on)] = true;
        }
        search.chain_ok = ok;
    }
    search.xy = Some((sources, reaching));
    loop_hints(&mut search, x_only, Part::Chains, &mut out);
    loop_hints(&mut search, both, Part::Chains, &mut out);
    // Otherwise a cycle through a source lies in the strongly connected component of the
    // source's on potential (in the XY links, which hold the X-only and Y-only ones), and by
    // the same argument a loop that removes `o` holds an on potential `a` and an off potential
    // `b` of `o`'s digit, both seen by `o`: a component without such a pair has no useful
    // cycle, and the searches from its sources are skipped (`cycle_sources`).
    if shortcuts() {
        let filter = SCRATCH.with_borrow(|t| cycle_sources(t, &links));
        search.cycle_ok = filter.ok;
        search.cycle_comp = filter.comp;
        search.cycle_off = filter.off;
    }
    loop_hints(&mut search, x_only, Part::Cycles, &mut out);
    loop_hints(&mut search, y_only, Part::Cycles, &mut out);
    loop_hints(&mut search, both, Part::Cycles, &mut out);
    let mut best = all
        .into_iter()
        .min_by_key(|f| (f.rating, f.complexity, f.sort_key, f.order))?;
    if let Some((pot, source_on, y, x)) = best.lazy {
        // Rebuild the chosen chain node by node, in SE's order, for its cells and its text.
        let mut search = Search::new(board, &links, y, x);
        let mut chains = Vec::new();
        search.forcing(pot, source_on, &mut chains);
        if let Some((path, _)) = chains.into_iter().next() {
            debug_assert_eq!(distinct(&path), best.complexity);
            best.path = path;
        }
    }
    Some(to_step(best))
}

/// SE's shortest static forcing chains that disprove one candidate, for rating the named
/// techniques (`logic::named`): the links of one board, built once, asked about many candidates.
pub(crate) struct Disproof {
    links: Links,
}

impl Disproof {
    pub(crate) fn new(board: &Board) -> Disproof {
        Disproof {
            links: Links::new(board),
        }
    }

    /// The rating of SE's easiest static forcing chain from "`c` is `d`" to "`c` is not `d`"
    /// (the chain `static_chains` would rate for this elimination): X-links only (Forcing
    /// X-Chain, 6.6 + length bonus), else X and Y links (Forcing Chain, 7.0 + bonus). `None` if
    /// neither proves it within `bound` (in tenths).
    pub(crate) fn rating(&self, c: usize, d: usize, bound: u16) -> Option<u16> {
        let pot = (c * 9 + d) as u16;
        let mut best = None;
        for (y, base) in [(false, 66), (true, 70)] {
            let limit = best.unwrap_or(bound);
            if base > limit {
                break;
            }
            let max_depth = depth_limits(base, (limit, usize::MAX)).0;
            let depth = chain_depth(&self.links, y, pot, true, max_depth);
            if let Some(depth) = depth {
                let r = base + length_bonus(depth as usize + 1);
                if r <= limit {
                    best = Some(r);
                }
            }
        }
        best
    }
}

/// The kind of house two cells share, preferring a line: 0 row, 1 column, 2 box.
fn link_kind(a: usize, b: usize) -> usize {
    if a / 9 == b / 9 {
        0
    } else if a % 9 == b % 9 {
        1
    } else {
        2
    }
}

/// The common name of a Turbot Fish, from the houses of its two strong links: both in parallel
/// lines, a skyscraper; a row and a column, a 2-string kite; one in a box, an empty rectangle
/// (or another turbot fish).
fn turbot_shape(f: &Found) -> Option<&'static str> {
    if f.technique != "Turbot Fish" || f.path.len() != 6 {
        return None;
    }
    // path: [start off, r' on, r off, q' on, q off, start on]; strong links q→q' and r→r'.
    let c = |k: usize| f.path[k].pot as usize / 9;
    Some(match (link_kind(c(4), c(3)), link_kind(c(2), c(1))) {
        (0, 0) | (1, 1) => "a skyscraper",
        (0, 1) | (1, 0) => "a 2-string kite",
        _ => "an empty rectangle or turbot fish",
    })
}

fn to_step(f: Found) -> Step {
    let mut cells: Vec<Cell> = Vec::new();
    for nd in f.path.iter().rev() {
        let c = cell(nd.pot as usize / 9);
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    let text = if f.cycle {
        format!(
            "{}: the loop {} holds either way round, so {}",
            f.technique,
            chain_text(&f.path),
            super::elim_list(&f.eliminations)
        )
    } else {
        let start = f.path.last().expect("a chain has a start");
        let end = &f.path[0];
        let name = match turbot_shape(&f) {
            Some(shape) => format!("{} ({shape})", f.technique),
            None => f.technique.to_string(),
        };
        format!(
            "{}: if {} then {}; so {}",
            name,
            pot_str(start),
            chain_text(&f.path[..f.path.len() - 1]),
            pot_str(end)
        )
    };
    Step {
        technique: f.technique,
        rating: Rating(f.rating),
        placements: f.placements,
        shown_eliminations: vec![],
        figure: Default::default(),
        eliminations: f.eliminations,
        cells,
        houses: vec![],
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Puzzle;

    #[test]
    fn half_depth_chain_search_matches_the_plain_search() {
        // Diabolical puzzles (SE 7.1 to 8.3), solved by the basic rules up to their first chain
        // step: every candidate, both truth values, several depth limits.
        let puzzles = [
            "1..5.67..6..27.8...2.....9.....5..36..28....1..512.98..7..1....5........813......",
            "176....8.......4...481..36...3.....6..5..7.........51.68.39...4....7...8.5.6..9..",
            "..91.....4..7..6..2.6...53..9...1.7..7.......3...6.9....2....56......2.4...4...1.",
        ];
        let mut checked = 0;
        for text in puzzles {
            let p: Puzzle = text.parse().expect("puzzle parses");
            let mut board = Board::new(&p);
            while let Some(step) = super::super::next_step(&board) {
                if step.rating >= Rating(62) {
                    break;
                }
                board.apply(&step);
            }
            let links = Links::new(&board);
            for c in 0..81 {
                for d in super::super::bits(board.cands[c]) {
                    let pot = (c * 9 + d) as u16;
                    for on in [true, false] {
                        for max in [3, 6, 9, 14, u16::MAX] {
                            assert_eq!(
                                chain_depth_xy(&links, pot, on, max),
                                chain_depth_plain(&links, pot, on, max),
                                "{text}: r{}c{}={} on={on} max={max}",
                                c / 9 + 1,
                                c % 9 + 1,
                                d + 1
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn links_from_kept_tables_match_fresh_ones() {
        // Along extreme-band paths (each board's links made from the tables the last board's
        // gave back, several alive at once), the tables are those of fresh, zeroed ones.
        let data = include_str!("../../tests/data/se_extreme.tsv");
        let (mut boards, mut kept) = (0, Vec::new());
        for line in data.lines().filter(|l| !l.starts_with('#')).skip(1).take(3) {
            let p: Puzzle = line.split('\t').next().unwrap().parse().unwrap();
            let mut board = Board::new(&p);
            while let Some(step) = super::super::next_step(&board) {
                let links = Links::new(&board);
                let fresh = {
                    let pool = TABLES.with_borrow_mut(std::mem::take);
                    let fresh = Links::new(&board);
                    let tables = (
                        fresh.conj.clone(),
                        fresh.conj_len.clone(),
                        fresh.mate.clone(),
                        fresh.conj_mask.clone(),
                    );
                    drop(fresh);
                    TABLES.with_borrow_mut(|p| *p = pool);
                    tables
                };
                assert_eq!(links.conj_len, fresh.1);
                assert_eq!(links.mate, fresh.2);
                assert_eq!(links.conj_mask, fresh.3);
                for pot in 0..729 {
                    let n = links.conj_len[pot] as usize;
                    assert_eq!(links.conj[pot][..n], fresh.0[pot][..n]);
                }
                boards += 1;
                // Keep some alive, so that several tables are in use at once.
                if boards % 3 == 0 {
                    kept.push(links);
                }
                if kept.len() > 4 {
                    kept.clear();
                }
                board.apply(&step);
            }
        }
        assert!(boards > 50, "{boards} boards");
    }

    #[test]
    fn no_path_to_an_opposite_means_no_useful_cycle() {
        // The chain steps of extreme-band puzzles: where the XY chains' one-pass test proves
        // that no candidate reaches its opposite, the cycle searches, unbounded, find nothing.
        let data = include_str!("../../tests/data/se_extreme.tsv");
        let (mut proved, mut boards) = (0, 0);
        for line in data.lines().filter(|l| !l.starts_with('#')).skip(1).take(5) {
            let p: Puzzle = line.split('\t').next().unwrap().parse().unwrap();
            let mut board = Board::new(&p);
            while let Some(step) = super::super::next_step(&board) {
                if step.rating >= Rating(62) {
                    boards += 1;
                    let links = Links::new(&board);
                    let mut sources = Vec::new();
                    for c in 0..81 {
                        if board.cands[c].count_ones() >= 2 {
                            for d in super::super::bits(board.cands[c]) {
                                sources.push(((c * 9 + d) as u16, true));
                            }
                        }
                    }
                    let none = SCRATCH.with_borrow_mut(|t| {
                        t.build(&links);
                        sources_reaching_their_opposite(t, &sources).is_empty()
                    });
                    if none && board.cands.iter().all(|m| m.count_ones() != 1) {
                        proved += 1;
                        let (mut all, mut best) = (Vec::new(), (u16::MAX, usize::MAX));
                        let mut out = Sink {
                            all: &mut all,
                            best: &mut best,
                            want: &|_| true,
                        };
                        let mut search = Search::new(&board, &links, false, false);
                        for setting in [(false, true), (true, false), (true, true)] {
                            loop_hints(&mut search, setting, Part::Cycles, &mut out);
                        }
                        assert!(all.is_empty(), "{line}");
                    }
                }
                board.apply(&step);
            }
        }
        assert!(proved > 10 && proved < boards, "{proved} of {boards}");
    }

    #[test]
    fn a_source_left_out_of_the_cycle_searches_has_no_useful_cycle() {
        // Every candidate that `cycle_sources` leaves out of a link setting: its cycle search,
        // unbounded, in that setting, finds no loop that removes anything.
        let (mut left_out, mut kept, mut useful) = ([0; 3], [0; 3], [0; 3]);
        let setting = |y: bool, x: bool| cycle_bit(y, x).trailing_zeros() as usize;
        for board in super::super::extreme_chain_boards(4) {
            let links = Links::new(&board);
            let mut sources = Vec::new();
            for c in 0..81 {
                for d in super::super::bits(board.cands[c]) {
                    sources.push(((c * 9 + d) as u16, true));
                }
            }
            let mut t = Layers::default();
            t.build(&links);
            sources_reaching_their_opposite(&mut t, &sources);
            let ok = cycle_sources(&t, &links).ok;
            // Nor has a candidate without a path of XY links to its opposite an X chain.
            let both_ways: Vec<(u16, bool)> = sources
                .iter()
                .flat_map(|&(pot, _)| [(pot, true), (pot, false)])
                .collect();
            let reaching = analyse(&links, &both_ways, &mut Layers::default());
            for (i, &(pot, on)) in both_ways.iter().enumerate() {
                if !reaching.contains(&i) {
                    assert_eq!(chain_depth_x(&links, pot, on, u16::MAX), None);
                }
            }
            let mut search = Search::new(&board, &links, false, false);
            for &(pot, _) in &sources {
                for (y, x) in [(false, true), (true, false), (true, true)] {
                    if !x && board.cands[pot as usize / 9].count_ones() > 2 {
                        continue;
                    }
                    search.y = y;
                    search.x = x;
                    search.max_depth = u16::MAX;
                    search.cycles(pot, &links.live_off(y, x));
                    let ends = std::mem::take(&mut search.ends);
                    let any = ends.iter().any(|&e| search.cycle_removes_something(e));
                    if ok[pot as usize] & cycle_bit(y, x) != 0 {
                        kept[setting(y, x)] += 1;
                        useful[setting(y, x)] += any as usize;
                    } else {
                        left_out[setting(y, x)] += 1;
                        assert!(!any, "{pot} {y} {x}");
                    }
                    // The settings' bits: X only or Y only only where XY is kept (their links
                    // are among the XY links).
                    if ok[pot as usize] & cycle_bit(true, true) == 0 {
                        assert_eq!(ok[pot as usize], 0);
                    }
                }
            }
        }
        // Each setting leaves out searches; with X and Y links and with Y-links only some kept
        // find a useful cycle (on these boards no X-only one does).
        assert!(
            left_out.iter().all(|&n| n > 100) && useful[0] > 0 && useful[2] > 0,
            "{left_out:?} {kept:?} {useful:?}"
        );
    }

    #[test]
    fn static_chains_are_the_same_without_the_shortcuts() {
        // Along the paths of extreme-band puzzles, every chain step: the step with the source
        // filter of the XY chains and the cycle filter, and without them.
        let boards = super::super::extreme_chain_boards(6);
        let mut found = 0;
        for board in &boards {
            let with = static_chains(board);
            SHORTCUTS.set(false);
            let without = static_chains(board);
            SHORTCUTS.set(true);
            assert_eq!(with, without);
            found += with.is_some() as usize;
        }
        assert!(
            found > 5 && found < boards.len(),
            "{found} of {}",
            boards.len()
        );
    }

    /// [`cycle_sources`] by its definition, on `t.comp` (tests only): per component, the cells
    /// that see its on and off potentials of each digit, with all links, with the candidates
    /// with a conjugate, with those of cells with two.
    fn cycle_sources_plain(t: &Layers, links: &Links) -> Vec<u8> {
        let p = t.pots.len();
        let pair = |comp: u32, keep: &dyn Fn(usize, usize) -> bool| -> u16 {
            let mut sees = [[0u128; 9]; 2];
            for v in 0..2 * p {
                let pot = t.pots[v % p] as usize;
                let (c, d) = (pot / 9, pot % 9);
                if t.comp[v] == comp && keep(c, d) {
                    sees[(v >= p) as usize][d] |= PEER_MASK[c];
                }
            }
            (0..9).fold(0, |m, d| {
                m | ((sees[0][d] & sees[1][d] & links.cand[d] != 0) as u16) << d
            })
        };
        let mut out = vec![0u8; 729];
        for k in 0..p {
            let comp = t.comp[p + k];
            if comp == u32::MAX || t.comp.iter().filter(|&&c| c == comp).count() < 2 {
                continue;
            }
            let pot = t.pots[k] as usize;
            if pair(comp, &|_, _| true) == 0 {
                continue;
            }
            let mut bits = cycle_bit(true, true);
            if pair(comp, &|c, d| links.conj_any[d] >> c & 1 == 1) >> (pot % 9) & 1 == 1 {
                bits |= cycle_bit(false, true);
            }
            if pair(comp, &|c, d| links.bivalue_cand[d] >> c & 1 == 1) != 0 {
                bits |= cycle_bit(true, false);
            }
            out[pot] = bits;
        }
        out
    }

    #[test]
    fn cycle_sources_from_the_member_lists_match_the_definition() {
        // The components' member lists made during the pass hold each live potential once,
        // in its component (`t.comp`), and the cycle filter read from them is the plain one.
        let mut marked = 0;
        for board in super::super::extreme_chain_boards(3) {
            let links = Links::new(&board);
            let sources = xy_sources(&board, &links);
            let mut t = Layers::default();
            analyse(&links, &sources, &mut t);
            let (p, s) = (t.pots.len(), &t.scc);
            let mut count = vec![0; 2 * p];
            let mut from = 0;
            for (id, &end) in s.ends[..s.comps].iter().enumerate() {
                for &v in &s.members[from..end as usize] {
                    assert_eq!(t.comp[v as usize], id as u32);
                    count[v as usize] += 1;
                }
                from = end as usize;
            }
            for v in 0..2 * p {
                assert_eq!(count[v], (t.comp[v] != u32::MAX) as usize);
            }
            let ok = cycle_sources(&t, &links).ok;
            assert_eq!(ok, cycle_sources_plain(&t, &links));
            marked += ok.iter().filter(|&&b| b != 0).count();
        }
        assert!(marked > 0);
    }

    #[test]
    fn cycle_searches_inside_the_component_find_the_same_loops() {
        // Every source kept by the cycle filter, in every link setting it is kept for: the
        // loops found (each as its potentials from the end back to the source, in the order
        // found) with the off potentials outside the source's component left out, and without.
        let (mut searched, mut loops) = (0, 0);
        // The nodes made, with and without the component.
        let (mut inside, mut everywhere) = (0, 0);
        for board in super::super::extreme_chain_boards(4) {
            let links = Links::new(&board);
            let sources = xy_sources(&board, &links);
            let mut t = Layers::default();
            if analyse(&links, &sources, &mut t).is_empty() {
                continue;
            }
            let filter = cycle_sources(&t, &links);
            let mut search = Search::new(&board, &links, false, false);
            let found = |search: &mut Search, pot: u16, keep: &[u128; 9]| {
                search.cycles(pot, keep);
                let ends = std::mem::take(&mut search.ends);
                ends.iter()
                    .map(|&e| {
                        let path = search.path(e);
                        path.iter().map(|n| ident(n.pot, n.on)).collect::<Vec<_>>()
                    })
                    .collect::<Vec<_>>()
            };
            for pot in 0..729u16 {
                for (y, x) in [(false, true), (true, false), (true, true)] {
                    if filter.ok[pot as usize] & cycle_bit(y, x) == 0 {
                        continue;
                    }
                    search.y = y;
                    search.x = x;
                    search.max_depth = u16::MAX;
                    let live = links.live_off(y, x);
                    let comp = &filter.off[filter.comp[pot as usize] as usize];
                    let keep: [u128; 9] = std::array::from_fn(|d| live[d] & comp[d]);
                    let all = found(&mut search, pot, &live);
                    everywhere += search.nodes.len();
                    assert_eq!(found(&mut search, pot, &keep), all, "{pot} {y} {x}");
                    inside += search.nodes.len();
                    searched += 1;
                    loops += all.len();
                }
            }
        }
        assert!(
            searched > 100 && loops > 0 && inside < everywhere,
            "{searched} {loops} {inside} {everywhere}"
        );
    }

    #[test]
    fn components_are_made_without_sources_too() {
        // `cycle_sources` reads the components of the last pass: a pass without sources makes
        // them all the same (the same as with sources), and puts only the dead candidates'
        // potentials in none.
        let mut dead_seen = 0;
        for board in super::super::extreme_chain_boards(2) {
            let links = Links::new(&board);
            let sources = xy_sources(&board, &links);
            let mut t = Layers::default();
            t.build(&links);
            sources_reaching_their_opposite(&mut t, &sources);
            let with = t.comp.clone();
            // A stale, longer table from another board must not survive either.
            t.comp = vec![7; 2000];
            sources_reaching_their_opposite(&mut t, &[]);
            assert_eq!(t.comp, with);
            let p = t.pots.len();
            assert_eq!(t.comp.len(), 2 * p);
            for k in 0..p {
                let dead = t.start[k] == t.start[k + 1];
                assert_eq!(dead, k >= t.live);
                assert_eq!(t.comp[k] == u32::MAX, dead);
                assert_eq!(t.comp[p + k] == u32::MAX, dead);
                dead_seen += dead as usize;
            }
        }
        assert!(dead_seen > 0);
    }

    #[test]
    fn side_by_side_chain_search_matches_source_by_source() {
        // The board before every step rated 6.2 or more (up to 60 boards), with every candidate
        // as a source both ways: the shortest chain and the sources that reach it.
        let puzzles = [
            "1..5.67..6..27.8...2.....9.....5..36..28....1..512.98..7..1....5........813......",
            "..91.....4..7..6..2.6...53..9...1.7..7.......3...6.9....2....56......2.4...4...1.",
            "....1.....2..7...6..48....7..1...3.........8.6..7.8..2...6.3....8.4.2.3..4..5..2.",
            "7.......6.5.8.72...29...1..17.26........51....823.....2...........5.2.38..3...6..",
            "..5....4..4.1.2...6..7....3......5...3..8.......615...7..4...1...8...47..143....6",
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        ];
        let (mut boards, mut with_chain) = (0, 0);
        for text in puzzles {
            let p: Puzzle = text.parse().expect("puzzle parses");
            let mut board = Board::new(&p);
            while let Some(step) = super::super::next_step(&board) {
                if step.rating >= Rating(62) && boards < 60 {
                    boards += 1;
                    let links = Links::new(&board);
                    let mut sources = Vec::new();
                    for c in 0..81 {
                        if board.values[c] == 0 && board.cands[c].count_ones() >= 2 {
                            for d in super::super::bits(board.cands[c]) {
                                sources.push(((c * 9 + d) as u16, true));
                                sources.push(((c * 9 + d) as u16, false));
                            }
                        }
                    }
                    let mut layers = Layers::default();
                    layers.build(&links);
                    let reaching: Vec<usize> = (0..sources.len())
                        .filter(|&i| {
                            let (pot, on) = sources[i];
                            chain_depth_xy(&links, pot, on, u16::MAX).is_some()
                        })
                        .collect();
                    let any = !reaching.is_empty();
                    assert_eq!(
                        sources_reaching_their_opposite(&mut layers, &sources),
                        reaching
                    );
                    with_chain += any as usize;
                    for max in [3, 6, 9, 14, u16::MAX] {
                        let depths: Vec<Option<u16>> = sources
                            .iter()
                            .map(|&(pot, on)| chain_depth_xy(&links, pot, on, max))
                            .collect();
                        let expected = depths.iter().flatten().min().map(|&m| {
                            let which = (0..sources.len()).filter(|&i| depths[i] == Some(m));
                            (m, which.collect::<Vec<_>>())
                        });
                        assert_eq!(
                            shortest_xy_chains(&links, &sources, max),
                            expected,
                            "{text}"
                        );
                    }
                }
                board.apply(&step);
            }
        }
        assert!(boards > 10, "{boards} boards");
        // Both answers of the test for a chain of any length occur.
        assert!(
            0 < with_chain && with_chain < boards,
            "{with_chain} of {boards}"
        );
    }
}
