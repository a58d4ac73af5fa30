//! SE's "Forcing Chains & Cycles" as the inner rule of nested forcing chains (levels 2 and 3,
//! see [`super::forcing`]): every bidirectional cycle and forcing chain of a working grid, with
//! what SE's nesting needs of each (its causes, its complexity, its identity).
//!
//! [`super::chains`] finds the easiest of these hints fast, on bit masks, bounded by the best
//! found so far. Nesting needs every hint that removes something (the first in SE's order to
//! remove a candidate is the one the outer chain rests on), so this module searches node by
//! node, as SE does: from each candidate, breadth first, one search for the cycles through it
//! and one for the forcing chains from it on and from it off, for X-links only, Y-links only and
//! both.

use super::budget::Budget;
use super::potential::{Inner, PotId, CAUSE_CELL, CAUSE_HOUSE};
use super::{bits, length_bonus, Board, CELL_HOUSES, HOUSE_CELLS, PEERS, PEER_MASK};

const NONE: u32 = u32::MAX;

/// A node of a search: a potential, the node that implied it, and why (for on nodes: the cell's
/// last candidate or the digit's last place in a house; for off nodes: the cell or the house
/// the link ran through).
#[derive(Clone, Copy)]
struct Node {
    id: PotId,
    parent: u32,
    cause: u8,
}

#[inline]
fn pid(c: usize, d: usize, on: bool) -> PotId {
    ((c * 9 + d) * 2 + on as usize) as PotId
}

/// A cell's houses in SE's order: box, row, column.
#[inline]
fn regions(c: usize) -> [usize; 3] {
    [
        CELL_HOUSES[c][2] as usize,
        CELL_HOUSES[c][0] as usize,
        CELL_HOUSES[c][1] as usize,
    ]
}

/// A cell's houses in SE's order with the cell's place in each.
#[inline]
fn regions_at(c: usize) -> [(usize, usize); 3] {
    let (r, col) = (c / 9, c % 9);
    [
        (CELL_HOUSES[c][2] as usize, (r % 3) * 3 + col % 3),
        (CELL_HOUSES[c][0] as usize, col),
        (CELL_HOUSES[c][1] as usize, r),
    ]
}

/// Each cell's peers in SE's order (its box, then the rest of its row, then of its column),
/// each with the house it was met in.
static PEERS_BY_HOUSE: std::sync::LazyLock<[[(u8, u8); 20]; 81]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|c| {
        let mut out = [(0u8, 0u8); 20];
        let mut n = 0;
        for h in regions(c) {
            for &o in &HOUSE_CELLS[h] {
                if o as usize != c && !out[..n].iter().any(|e| e.0 == o) {
                    out[n] = (o, h as u8);
                    n += 1;
                }
            }
        }
        out
    })
});

struct Search<'a> {
    cands: &'a [u16; 81],
    /// Places of each digit in each house.
    pos: [[u16; 9]; 27],
    nodes: Vec<Node>,
    /// Per identity, whether it is in SE's `toOn` / `toOff` set (generation-stamped).
    mark: Vec<u32>,
    stamp: u32,
    made: Vec<(PotId, u8)>,
    /// Per candidate (cell * 9 + digit): the cell's other candidate if it has two (Y-link),
    /// else `NONE16`.
    mate: Vec<u16>,
    /// Per candidate: the digit's other place in each house where it has two (X-links, in
    /// SE's house order, no repeats), as (cell, house).
    conj: Vec<[(u8, u8); 3]>,
    conj_len: Vec<u8>,
    /// Per identity, if known: bit 0, it reaches a new strong link; bit 1, a new strong link
    /// reaches it (see [`reaching_new_links`]).
    reach: Option<Vec<u8>>,
    /// Per digit, the cells where it is a candidate (bit `c` for cell `c`).
    cand: [u128; 9],
    /// Per digit, the cells whose on (`live_on`) or off (`live_off`) potential is live for a
    /// forcing chain (see [`Search::live`]); every candidate when `reach` is `None`.
    live_on: [u128; 9],
    live_off: [u128; 9],
    /// Per digit, the cells whose off potential implies something with X-links (`forces_x`:
    /// the digit has two places in one of the cell's houses) or with X- and Y-links
    /// (`forces_xy`: or the cell is bivalue). The others end every path that meets them.
    forces_x: [u128; 9],
    forces_xy: [u128; 9],
    /// The stack of [`Search::reaches_opposite`], kept between searches.
    stack: Vec<PotId>,
}

const NONE16: u16 = u16::MAX;

impl Search<'_> {
    fn new(cands: &[u16; 81]) -> Search<'_> {
        let pos = std::array::from_fn(|h| {
            std::array::from_fn(|d| {
                let mut m = 0u16;
                for (k, &c) in HOUSE_CELLS[h].iter().enumerate() {
                    m |= (cands[c as usize] >> d & 1) << k;
                }
                m
            })
        });
        let mut mate = vec![NONE16; 729];
        let mut conj = vec![[(0u8, 0u8); 3]; 729];
        let mut conj_len = vec![0u8; 729];
        for c in 0..81 {
            for d in bits(cands[c]) {
                let k = c * 9 + d;
                if cands[c].count_ones() == 2 {
                    mate[k] = (cands[c] & !(1 << d)).trailing_zeros() as u16;
                }
                for (h, at) in regions_at(c) {
                    let p: u16 = pos[h][d];
                    if p.count_ones() == 2 {
                        let o = HOUSE_CELLS[h][(p & !(1 << at)).trailing_zeros() as usize];
                        let n = conj_len[k] as usize;
                        if !conj[k][..n].iter().any(|e| e.0 == o) {
                            conj[k][n] = (o, h as u8);
                            conj_len[k] += 1;
                        }
                    }
                }
            }
        }
        let cand: [u128; 9] = std::array::from_fn(|d| {
            (0..81).fold(0u128, |m, c| m | ((cands[c] >> d & 1) as u128) << c)
        });
        let (mut forces_x, mut forces_xy) = ([0u128; 9], [0u128; 9]);
        for d in 0..9 {
            for c in bits128(cand[d]) {
                let k = c * 9 + d;
                forces_x[d] |= ((conj_len[k] != 0) as u128) << c;
                forces_xy[d] |= ((conj_len[k] != 0 || mate[k] != NONE16) as u128) << c;
            }
        }
        Search {
            cands,
            pos,
            cand,
            forces_x,
            forces_xy,
            live_on: cand,
            live_off: cand,
            stack: Vec::with_capacity(1458),
            mate,
            conj,
            conj_len,
            reach: None,
            nodes: Vec::with_capacity(256),
            mark: vec![0; 1458],
            stamp: 0,
            made: Vec::with_capacity(32),
        }
    }

    fn reset(&mut self) {
        self.nodes.clear();
        self.stamp += 1;
    }

    fn marked(&self, i: PotId) -> bool {
        self.mark[i as usize] == self.stamp
    }

    fn set_mark(&mut self, i: PotId) {
        self.mark[i as usize] = self.stamp;
    }

    /// SE's `getOnToOff`: the off potentials an on potential implies (its cell's other
    /// candidates if `y`, then the digit's other places in its box, row and column), each once.
    fn on_to_off(&mut self, p: PotId, y: bool) {
        self.made.clear();
        let (c, d) = (p as usize / 18, p as usize / 2 % 9);
        if y {
            for v in bits(self.cands[c] & !(1 << d)) {
                self.made.push((pid(c, v, false), CAUSE_CELL));
            }
        }
        for &(o, h) in &PEERS_BY_HOUSE[c] {
            let o = o as usize;
            if self.cands[o] >> d & 1 == 1 {
                self.made.push((pid(o, d, false), CAUSE_HOUSE + h));
            }
        }
    }

    /// SE's `getOffToOn`: the on potentials an off potential implies (the cell's other
    /// candidate if it has two and `y`; the digit's other place in each house where it has two
    /// if `x`), each once.
    fn off_to_on(&mut self, p: PotId, y: bool, x: bool) {
        self.made.clear();
        let (c, d) = (p as usize / 18, p as usize / 2 % 9);
        let k = c * 9 + d;
        if y && self.mate[k] != NONE16 {
            self.made
                .push((pid(c, self.mate[k] as usize, true), CAUSE_CELL));
        }
        if x {
            for &(o, h) in &self.conj[k][..self.conj_len[k] as usize] {
                self.made.push((pid(o as usize, d, true), CAUSE_HOUSE + h));
            }
        }
    }

    /// Whether a node of potential `q` may lie on a chain through a new link: for a cycle
    /// (`need` 3) it must reach one and be reached from one; for a forcing chain (`need` 0)
    /// either. Every node from the source to such a node is such a node too, so leaving the
    /// others out changes nothing else in the search.
    #[inline]
    fn live(&self, q: PotId, need: u8) -> bool {
        match &self.reach {
            None => true,
            Some(r) if need == 3 => r[q as usize] & 3 == 3,
            Some(r) => r[q as usize] != 0,
        }
    }

    /// Sets `reach` and the live masks from it.
    fn set_reach(&mut self, reach: Option<Vec<u8>>) {
        if let Some(r) = &reach {
            for d in 0..9 {
                let (mut on, mut off) = (0u128, 0u128);
                for c in bits128(self.cand[d]) {
                    on |= ((r[pid(c, d, true) as usize] != 0) as u128) << c;
                    off |= ((r[pid(c, d, false) as usize] != 0) as u128) << c;
                }
                self.live_on[d] = on;
                self.live_off[d] = off;
            }
        }
        self.reach = reach;
    }

    /// Whether [`Search::forcing`] from `source` finds the source's opposite: the same
    /// reachability (from the source, through live potentials, each once), but on bit masks,
    /// in any order, and without nodes. Most sources reach nothing of the kind (over the
    /// forum's hardest, 0.4% of the searches found a chain), and this test costs a fraction
    /// of the search that records the chain.
    ///
    /// # Complexity
    /// Each potential is pushed at most once: at most 1,458 steps.
    fn reaches_opposite(&mut self, source: PotId, y: bool) -> bool {
        let target = source ^ 1;
        // Off potentials that imply nothing are made (the target may be one) but not followed.
        let forces = if y { &self.forces_xy } else { &self.forces_x };
        let (mut on, mut off) = ([0u128; 9], [0u128; 9]);
        let (sc, sd) = (source as usize / 18, source as usize / 2 % 9);
        if source & 1 == 1 {
            on[sd] |= 1 << sc;
        } else {
            off[sd] |= 1 << sc;
        }
        let stack = &mut self.stack;
        stack.clear();
        stack.push(source);
        while let Some(p) = stack.pop() {
            let (c, d) = (p as usize / 18, p as usize / 2 % 9);
            let b = 1u128 << c;
            if p & 1 == 1 {
                if y {
                    for e in bits(self.cands[c] & !(1 << d)) {
                        if self.live_off[e] & !off[e] & b != 0 {
                            let q = pid(c, e, false);
                            if q == target {
                                return true;
                            }
                            off[e] |= b;
                            if forces[e] & b != 0 {
                                stack.push(q);
                            }
                        }
                    }
                }
                let mut m = PEER_MASK[c] & self.cand[d] & self.live_off[d] & !off[d];
                if m != 0 {
                    off[d] |= m;
                    if target & 1 == 0
                        && target as usize / 2 % 9 == d
                        && m >> (target / 18) & 1 == 1
                    {
                        return true;
                    }
                    m &= forces[d];
                    while m != 0 {
                        let o = m.trailing_zeros() as usize;
                        m &= m - 1;
                        stack.push(pid(o, d, false));
                    }
                }
            } else {
                let k = c * 9 + d;
                if y && self.mate[k] != NONE16 {
                    let e = self.mate[k] as usize;
                    if self.live_on[e] & !on[e] & b != 0 {
                        let q = pid(c, e, true);
                        if q == target {
                            return true;
                        }
                        on[e] |= b;
                        stack.push(q);
                    }
                }
                for &(o, _) in &self.conj[k][..self.conj_len[k] as usize] {
                    let bo = 1u128 << o;
                    if self.live_on[d] & !on[d] & bo != 0 {
                        let q = pid(o as usize, d, true);
                        if q == target {
                            return true;
                        }
                        on[d] |= bo;
                        stack.push(q);
                    }
                }
            }
        }
        false
    }

    fn push(&mut self, id: PotId, parent: u32, cause: u8) -> u32 {
        self.nodes.push(Node { id, parent, cause });
        self.nodes.len() as u32 - 1
    }

    /// Whether potential `i` is among the ancestors of node `n` (SE's `isParent`).
    fn is_ancestor(&self, n: u32, i: PotId) -> bool {
        let mut k = self.nodes[n as usize].parent;
        while k != NONE {
            if self.nodes[k as usize].id == i {
                return true;
            }
            k = self.nodes[k as usize].parent;
        }
        false
    }

    /// SE's `doCycles` from `source` (an on potential): the end nodes of the cycles back to it.
    fn cycles(&mut self, source: PotId, y: bool, x: bool, ends: &mut Vec<u32>) {
        self.reset();
        let root = self.push(source, NONE, 0);
        self.set_mark(source);
        let mut pend_on = vec![root];
        let mut pend_off: Vec<u32> = Vec::new();
        let mut length = 0;
        while !pend_on.is_empty() || !pend_off.is_empty() {
            length += 1;
            for &n in &std::mem::take(&mut pend_on) {
                let p = self.nodes[n as usize].id;
                self.on_to_off(p, y);
                for k in 0..self.made.len() {
                    let (q, cause) = self.made[k];
                    if self.live(q, 3) && !self.is_ancestor(n, q) {
                        let m = self.push(q, n, cause);
                        pend_off.push(m);
                    }
                }
            }
            length += 1;
            for &n in &std::mem::take(&mut pend_off) {
                let p = self.nodes[n as usize].id;
                self.off_to_on(p, y, x);
                for k in 0..self.made.len() {
                    let (q, cause) = self.made[k];
                    if length >= 4 && q == source {
                        let m = self.push(q, n, cause);
                        ends.push(m);
                    }
                    if !self.marked(q) && self.live(q, 3) {
                        self.set_mark(q);
                        let m = self.push(q, n, cause);
                        pend_on.push(m);
                    }
                }
            }
        }
    }

    /// SE's `doForcingChains` from `source` (on or off): the node of the source's opposite,
    /// if the source implies it.
    fn forcing(&mut self, source: PotId, y: bool) -> Option<u32> {
        self.reset();
        let root = self.push(source, NONE, 0);
        self.set_mark(source);
        let opposite = source ^ 1;
        let source_on = source & 1 == 1;
        let (mut pend_on, mut pend_off) = if source_on {
            (vec![root], vec![])
        } else {
            (vec![], vec![root])
        };
        while !pend_on.is_empty() || !pend_off.is_empty() {
            for &n in &std::mem::take(&mut pend_on) {
                let p = self.nodes[n as usize].id;
                self.on_to_off(p, y);
                for k in 0..self.made.len() {
                    let (q, cause) = self.made[k];
                    if !self.marked(q) && self.live(q, 0) {
                        self.set_mark(q);
                        let m = self.push(q, n, cause);
                        if q == opposite {
                            return Some(m);
                        }
                        pend_off.push(m);
                    }
                }
            }
            for &n in &std::mem::take(&mut pend_off) {
                let p = self.nodes[n as usize].id;
                self.off_to_on(p, y, true);
                for k in 0..self.made.len() {
                    let (q, cause) = self.made[k];
                    if !self.marked(q) && self.live(q, 0) {
                        self.set_mark(q);
                        let m = self.push(q, n, cause);
                        if q == opposite {
                            return Some(m);
                        }
                        pend_on.push(m);
                    }
                }
            }
        }
        None
    }

    /// The path from node `n` back to the root, `n` first.
    fn path(&self, mut n: u32) -> Vec<Node> {
        let mut out = Vec::new();
        while n != NONE {
            out.push(self.nodes[n as usize]);
            n = self.nodes[n as usize].parent;
        }
        out
    }
}

/// The cells of a cell mask, lowest first.
#[inline]
fn bits128(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            c
        })
    })
}

/// FNV-1a step, as in `forcing::mix`.
#[inline]
fn mix(h: u64, v: u64) -> u64 {
    (h ^ v).wrapping_mul(0x0000_0100_0000_01b3)
}

/// Every cycle and forcing chain of the board that removes something, in SE's order of search
/// (X-links, then Y-links, then both; cell by cell, digit by digit; for each candidate its
/// cycles, then the chain from it on, then from it off), not yet sorted.
///
/// # Complexity
/// Three breadth-first searches per candidate and link setting, each bounded by the 1,458
/// potentials (cycles keep repeated off nodes, at most 28 per on node).
///
/// If `orig` is given, the board is a working grid reduced from `orig`, and `orig` has no cycle
/// or forcing chain that removes anything (the grader tried them first). Then every such chain
/// of the working grid passes through a strong link that `orig` lacks (a cell or a house that
/// lost candidates; else the chain would exist on `orig` too), so only sources from which such
/// a link can be reached are searched (see [`reaching_new_links`]).
///
/// Gives up (with what it found so far) once `budget` is spent; the caller checks.
pub(crate) fn static_hints(board: &Board, orig: Option<&[u16; 81]>, budget: &Budget) -> Vec<Inner> {
    let cands = &board.cands;
    let mut search = Search::new(cands);
    let reach = match orig {
        Some(orig) => match reaching_new_links(&search, orig) {
            Some(r) => Some(r),
            None => return Vec::new(),
        },
        None => None,
    };
    // A chain from `from` back to `to` (the source for a cycle, its opposite for a forcing
    // chain) through a new link: `from` must reach a new link and `to` be reached from one.
    let live = |from: PotId, to: PotId| {
        reach
            .as_ref()
            .is_none_or(|r| r[from as usize] & 1 != 0 && r[to as usize] & 2 != 0)
    };
    search.set_reach(reach.clone());
    let mut out = Vec::new();
    let mut ends = Vec::new();
    // Per source (bit by identity): whether it was asked if it reaches its opposite with X-
    // and Y-links, and the answer.
    let (mut both_asked, mut both_reach) = ([0u64; 23], [0u64; 23]);
    for (y, x) in [(false, true), (true, false), (true, true)] {
        let sort_key = match (x, y) {
            (true, true) => 4,
            (false, true) => 3,
            _ => 2,
        };
        for c in 0..81 {
            if budget.spent() {
                return out;
            }
            let m = cands[c];
            let card = m.count_ones();
            if board.values[c] != 0 || card < 2 || (card > 2 && !x) {
                continue;
            }
            for d in bits(m) {
                let source = pid(c, d, true);
                ends.clear();
                if live(source, source) {
                    search.cycles(source, y, x, &mut ends);
                }
                for &e in &ends {
                    let path = search.path(e);
                    if let Some(h) = cycle_hint(cands, &path, x && y, sort_key) {
                        out.push(h);
                    }
                }
                if x {
                    for s in [source, source ^ 1] {
                        if !live(s, s ^ 1) {
                            continue;
                        }
                        // X-links alone make fewer links than both (a subgraph), so a source
                        // that reaches nothing with both reaches nothing with X-links alone:
                        // asked with both first, once (the searches with both come last).
                        let (w, b) = (s as usize / 64, 1u64 << (s % 64));
                        if both_asked[w] & b == 0 {
                            both_asked[w] |= b;
                            if search.reaches_opposite(s, true) {
                                both_reach[w] |= b;
                            }
                        }
                        if both_reach[w] & b == 0 || (!y && !search.reaches_opposite(s, false)) {
                            continue;
                        }
                        if let Some(t) = search.forcing(s, y) {
                            let path = search.path(t);
                            out.push(forcing_hint(cands, &path, x && y, sort_key));
                        }
                    }
                }
            }
        }
    }
    out.retain(|h| !h.elims.is_empty());
    out
}

/// [`reaching_new_links`] for a working grid `board` reduced from `orig`, for pruning level 3's
/// inner multiple chains: bit 0 per identity says it reaches a new strong link (all clear if
/// there is none).
pub(crate) fn new_link_reach(board: &Board, orig: &[u16; 81]) -> Vec<u8> {
    let search = Search::new(&board.cands);
    reaching_new_links(&search, orig).unwrap_or_else(|| vec![0; 1458])
}

/// The potentials from which some path of implications (with X- and Y-links, a superset of
/// each link setting's) reaches the start of a strong link that `orig` lacks: an off potential
/// in a bivalue cell that lost candidates, or in a house where the digit lost places and has two
/// left. `None` if there is no such link.
fn reaching_new_links(search: &Search, orig: &[u16; 81]) -> Option<Vec<u8>> {
    let cands = search.cands;
    let mut reach = vec![false; 1458];
    let mut todo: Vec<PotId> = Vec::new();
    let mut ends: Vec<PotId> = Vec::new();

    let mut mark = |p: PotId, todo: &mut Vec<PotId>| {
        if !reach[p as usize] {
            reach[p as usize] = true;
            todo.push(p);
        }
    };
    for c in 0..81 {
        if cands[c].count_ones() == 2 && orig[c] != cands[c] {
            for v in bits(cands[c]) {
                mark(pid(c, v, false), &mut todo);
                ends.push(pid(c, v, true));
            }
        }
    }
    for h in 0..27 {
        for d in 0..9 {
            let pos = search.pos[h][d];
            if pos.count_ones() != 2 {
                continue;
            }
            let was = HOUSE_CELLS[h]
                .iter()
                .filter(|&&o| orig[o as usize] >> d & 1 == 1)
                .count();
            if was > 2 {
                for k in bits(pos) {
                    mark(pid(HOUSE_CELLS[h][k] as usize, d, false), &mut todo);
                    ends.push(pid(HOUSE_CELLS[h][k] as usize, d, true));
                }
            }
        }
    }
    if todo.is_empty() {
        return None;
    }
    while let Some(p) = todo.pop() {
        let (c, d) = (p as usize / 18, p as usize / 2 % 9);
        if p & 1 == 0 {
            // What turns "c isn't d" off: c's other candidates on, d on in a peer.
            for v in bits(cands[c] & !(1 << d)) {
                mark(pid(c, v, true), &mut todo);
            }
            for &o in &PEERS[c] {
                if cands[o as usize] >> d & 1 == 1 {
                    mark(pid(o as usize, d, true), &mut todo);
                }
            }
        } else {
            // What turns "c is d" on: c's other candidate off (bivalue), d off at the other
            // place of a house where it has two.
            if cands[c].count_ones() == 2 {
                let v = (cands[c] & !(1 << d)).trailing_zeros() as usize;
                mark(pid(c, v, false), &mut todo);
            }
            for h in regions(c) {
                let pos = search.pos[h][d];
                if pos.count_ones() == 2 {
                    for k in bits(pos) {
                        let o = HOUSE_CELLS[h][k] as usize;
                        if o != c {
                            mark(pid(o, d, false), &mut todo);
                        }
                    }
                }
            }
        }
    }
    // Forward: what the ends of the new links imply.
    let mut fwd = vec![false; 1458];
    for &p in &ends {
        fwd[p as usize] = true;
    }
    let mut todo = ends;
    while let Some(p) = todo.pop() {
        let (c, d) = (p as usize / 18, p as usize / 2 % 9);
        let k = c * 9 + d;
        let mut markf = |q: PotId, todo: &mut Vec<PotId>| {
            if !fwd[q as usize] {
                fwd[q as usize] = true;
                todo.push(q);
            }
        };
        if p & 1 == 1 {
            for v in bits(cands[c] & !(1 << d)) {
                markf(pid(c, v, false), &mut todo);
            }
            for &(o, _) in &PEERS_BY_HOUSE[c] {
                if cands[o as usize] >> d & 1 == 1 {
                    markf(pid(o as usize, d, false), &mut todo);
                }
            }
        } else {
            if search.mate[k] != NONE16 {
                markf(pid(c, search.mate[k] as usize, true), &mut todo);
            }
            for &(o, _) in &search.conj[k][..search.conj_len[k] as usize] {
                markf(pid(o as usize, d, true), &mut todo);
            }
        }
    }
    Some(
        (0..1458)
            .map(|p| reach[p] as u8 | (fwd[p] as u8) << 1)
            .collect(),
    )
}

/// A cycle (path from its end back to the source, which it repeats) as a hint: the candidates
/// outside the loop that see an on node and an off node of their digit are removed.
fn cycle_hint(cands: &[u16; 81], path: &[Node], xy: bool, sort_key: u8) -> Option<Inner> {
    let body = &path[..path.len() - 1];
    let mut in_loop = [false; 81];
    for nd in body {
        in_loop[nd.id as usize / 18] = true;
    }
    let mut forw = [0u16; 81];
    let mut back = [0u16; 81];
    for nd in body {
        let (c, d, on) = (nd.id as usize / 18, nd.id as usize / 2 % 9, nd.id & 1 == 1);
        for &o in &PEERS[c] {
            let o = o as usize;
            if !in_loop[o] && cands[o] >> d & 1 == 1 {
                if on {
                    forw[o] |= 1 << d;
                } else {
                    back[o] |= 1 << d;
                }
            }
        }
    }
    let mut elims = Vec::new();
    for o in 0..81 {
        for d in bits(forw[o] & back[o]) {
            elims.push(pid(o, d, false));
        }
    }
    if elims.is_empty() {
        return None;
    }
    // The loop read both ways (SE's two targets): every link is strong one way, so every
    // node's cause is one of the hint's.
    let rule_on = body
        .iter()
        .filter(|n| n.cause != 0)
        .map(|n| (n.id | 1, n.cause))
        .collect();
    let complexity = body.len();
    let mut key = mix(0xcbf2_9ce4_8422_2325, 1 << 21);
    for n in path {
        key = mix(key, n.id as u64);
    }
    Some(Inner {
        rating: if xy { 70 } else { 65 } + length_bonus(complexity),
        complexity,
        sort_key,
        elims,
        rule_on,
        key,
    })
}

/// A forcing chain (path from the source's opposite back to the source) as a hint.
fn forcing_hint(cands: &[u16; 81], path: &[Node], xy: bool, sort_key: u8) -> Inner {
    let target = path[0].id;
    let (c, d) = (target as usize / 18, target as usize / 2 % 9);
    let elims: Vec<PotId> = if target & 1 == 1 {
        bits(cands[c] & !(1 << d))
            .map(|v| pid(c, v, false))
            .collect()
    } else {
        vec![target]
    };
    let rule_on = path
        .iter()
        .filter(|n| n.id & 1 == 1 && n.cause != 0)
        .map(|n| (n.id, n.cause))
        .collect();
    let complexity = path.len();
    let mut key = mix(0xcbf2_9ce4_8422_2325, 1 << 22);
    for n in path {
        key = mix(key, n.id as u64);
    }
    Inner {
        rating: if xy { 70 } else { 66 } + length_bonus(complexity),
        complexity,
        sort_key,
        elims,
        rule_on,
        key,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;

    /// The boards of a path from a puzzle that needs chains, from its first step rated 7.5 or
    /// more on, each with working grids made by removing one of its candidates (every
    /// seventh, to keep the test short).
    fn boards_and_working_grids() -> Vec<(Board, Option<[u16; 81]>)> {
        let p: Puzzle =
            "..2...9..9....6..18..4...3.....6..5..3...82........3.7.2.9..1..6.1.5.....7...4..."
                .parse()
                .unwrap();
        let mut b = Board::new(&p);
        let mut out = Vec::new();
        let mut k = 0;
        while let Some(step) = super::super::next_step(&b) {
            if step.rating.0 >= 75 {
                out.push((b.clone(), None));
                for c in 0..81 {
                    for d in bits(b.cands[c]) {
                        k += 1;
                        if b.cands[c].count_ones() > 1 && k % 7 == 0 {
                            let mut w = b.clone();
                            w.cands[c] &= !(1 << d);
                            out.push((w, Some(b.cands)));
                        }
                    }
                }
            }
            b.apply(&step);
        }
        out
    }

    #[test]
    fn reaches_opposite_is_whether_the_forcing_search_finds_a_chain() {
        let (mut checked, mut found) = (0, 0);
        for (board, orig) in boards_and_working_grids() {
            let mut search = Search::new(&board.cands);
            if let Some(orig) = &orig {
                match reaching_new_links(&search, orig) {
                    Some(r) => search.set_reach(Some(r)),
                    None => continue,
                }
            }
            for c in 0..81 {
                for d in bits(board.cands[c]) {
                    for s in [pid(c, d, true), pid(c, d, false)] {
                        for y in [false, true] {
                            let quick = search.reaches_opposite(s, y);
                            let slow = search.forcing(s, y).is_some();
                            assert_eq!(quick, slow, "source {s}, y {y}");
                            checked += 1;
                            found += slow as usize;
                        }
                    }
                }
            }
        }
        assert!(
            checked > 10_000 && found > 100,
            "{checked} searches, {found} chains"
        );
    }
}
