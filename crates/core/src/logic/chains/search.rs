//! The node-by-node search, SE's order: breadth first from a source, the cycles back to it and the
//! forcing chains to its opposite, recording each node's parent and cause.

use super::*;

pub(super) struct Search<'a> {
    pub(super) board: &'a Board,
    pub(super) links: &'a Links,
    pub(super) nodes: Vec<Node>,
    /// The potentials made so far: `seen[1]` the on ones, `seen[0]` the off ones, per digit as
    /// masks over the cells (a potential is made at most once, except the off potentials that
    /// close a cycle).
    pub(super) seen: [[u128; 9]; 2],
    /// The next layer's on and off nodes. A layer of on nodes only makes off nodes and the
    /// reverse, so each layer is a plain list, taken whole (`layer`) before it is expanded.
    pub(super) pending_on: Vec<u32>,
    pub(super) pending_off: Vec<u32>,
    /// The layer being expanded (kept to reuse its allocation).
    pub(super) layer: Vec<u32>,
    pub(super) y: bool,
    pub(super) x: bool,
    pub(super) out: Vec<u16>,
    /// The end nodes of the cycles the last [`Search::cycles`] found.
    pub(super) ends: Vec<u32>,
    /// Nodes deeper than this are not made: they could only give chains rated above the best
    /// found so far (a node at depth d lies on a chain of at least d distinct nodes).
    pub(super) max_depth: u16,
    /// Per candidate, whether a cycle search from it could find a loop that removes something
    /// ([`cycle_sources`]); empty if not known (every candidate is searched).
    pub(super) cycle_ok: Vec<u8>,
    /// Per candidate kept by `cycle_ok`, its component's place in `cycle_off`: per digit, the
    /// cells of the component's off potentials ([`CycleFilter`]).
    pub(super) cycle_comp: Vec<u16>,
    pub(super) cycle_off: Vec<[u128; 9]>,
    /// Per potential ([`ident`]), whether it has a path of XY links to its opposite; empty if
    /// not known.
    pub(super) chain_ok: Vec<bool>,
    /// The XY chains' sources and those that reach their opposite, if found already.
    pub(super) xy: Option<XySources>,
}

impl<'a> Search<'a> {
    pub(super) fn new(board: &'a Board, links: &'a Links, y: bool, x: bool) -> Search<'a> {
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

    pub(super) fn reset(&mut self) {
        self.nodes.clear();
        self.seen = [[0; 9]; 2];
        self.pending_on.clear();
        self.pending_off.clear();
    }

    #[inline]
    pub(super) fn is_seen(&self, pot: u16, on: bool) -> bool {
        self.seen[on as usize][pot as usize % 9] >> (pot as usize / 9) & 1 == 1
    }

    #[inline]
    pub(super) fn mark(&mut self, pot: u16, on: bool) {
        self.seen[on as usize][pot as usize % 9] |= 1 << (pot as usize / 9);
    }

    pub(super) fn push(&mut self, pot: u16, on: bool, parent: u32) -> u32 {
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
    pub(super) fn cycle_removes_something(&self, end: u32) -> bool {
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
    pub(super) fn on_to_off(&mut self, pot: u16) {
        self.out.clear();
        let l = self.links;
        let (c, d) = (pot as usize / 9, pot as usize % 9);
        if self.y {
            for v in crate::logic::bits(self.board.cands[c] & !(1 << d)) {
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
    pub(super) fn off_to_on(&mut self, pot: u16, x: bool) {
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
    pub(super) fn cycles(&mut self, source: u16, keep_off: &[u128; 9]) {
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
    pub(super) fn forcing(
        &mut self,
        source: u16,
        source_on: bool,
        chains: &mut Vec<(Vec<Node>, u32)>,
    ) {
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
    pub(super) fn path(&self, n: u32) -> Vec<Node> {
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
