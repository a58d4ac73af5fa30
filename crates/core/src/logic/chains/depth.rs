//! How deep a chain from each source first reaches what it needs, on bit masks (each digit's
//! potentials as a mask over the cells), for all sources at once where it pays: the rating only
//! depends on the depth, so the node-by-node search runs only for the chain finally chosen.

use super::*;

/// The depth at which SE's forcing-chain search from `source` (on or off) first reaches the
/// source's opposite, or `None` within `max_depth`. These are the breadth-first layers of
/// `Search::forcing`, on bit masks (each digit's potentials as a mask over the cells). The
/// rating only depends on this depth (the chain has depth + 1 distinct nodes), so the node by
/// node search only runs for the chain finally chosen.
///
/// # Complexity
/// A few hundred word operations per layer: the hot path of diabolical puzzles
/// (`benches/logic.rs`, band diabolical).
pub(super) fn chain_depth(
    l: &Links,
    y: bool,
    source: u16,
    source_on: bool,
    max_depth: u16,
) -> Option<u16> {
    if !y {
        return chain_depth_x(l, source, source_on, max_depth);
    }
    chain_depth_xy(l, source, source_on, max_depth)
}

/// One breadth-first layer of the X and Y links: the potentials of the opposite truth value that
/// `front` (on if `on`) forces.
#[inline]
pub(super) fn expand_xy(l: &Links, front: &[u128; 9], on: bool) -> [u128; 9] {
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
pub(super) fn chain_depth_xy(
    l: &Links,
    source: u16,
    source_on: bool,
    max_depth: u16,
) -> Option<u16> {
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
pub(super) struct HalfDepth {
    /// seen[1]: on potentials reached, seen[0]: off ones.
    pub(super) seen: [[u128; 9]; 2],
    /// Whether `front` holds on potentials.
    pub(super) on: bool,
    /// Depth of `front`.
    pub(super) k: u32,
    /// The shortest chain found so far (`u32::MAX`: none); exact once at most `2k`, or once
    /// the search is `exhausted`.
    pub(super) best: u32,
    /// No new potential at the last layer: the search is over.
    pub(super) exhausted: bool,
}

impl HalfDepth {
    /// The search at depth 0, and its layer 0 (the source).
    pub(super) fn new(source: u16, source_on: bool) -> (HalfDepth, [u128; 9]) {
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
    pub(super) fn advance<'l>(
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
pub(super) fn shortest_xy_chains(
    l: &Links,
    sources: &[(u16, bool)],
    max_depth: u16,
) -> Option<(u16, Vec<usize>)> {
    SCRATCH.with_borrow_mut(|layers| shortest_xy_chains_in(l, sources, max_depth, layers))
}

thread_local! {
    /// The storage of [`shortest_xy_chains`], kept from one search to the next.
    pub(super) static SCRATCH: std::cell::RefCell<Layers> = Default::default();
}

/// The storage of [`shortest_xy_chains`]: the candidates numbered `0..p` (`index`, `pots`), the
/// X and Y links between them, and per potential (candidate and truth value) a set of sources
/// as `words` 64-bit words: those that have reached it (`seen`), that reached it at the last
/// layer (`front`), and that reach it at the next (`next`). Potential `(k, on)` has the words
/// `(on * p + k) * words ..` of each table (`words` as [`chunk_meets`] chooses).
#[derive(Default)]
pub(super) struct Layers {
    pub(super) index: Vec<u16>,
    pub(super) pots: Vec<u16>,
    /// The number of live candidates (numbered first, see [`Layers::build`]), and the dead
    /// ones while they are numbered.
    pub(super) live: usize,
    pub(super) dead: Vec<u16>,
    /// Per potential `id` (`on * p + k`): the potentials it forces (the off potentials an on
    /// one forces, the on potentials an off one forces) are `links[start[id]..start[id + 1]]`.
    pub(super) start: Vec<u32>,
    pub(super) links: Vec<u16>,
    pub(super) seen: Vec<u64>,
    pub(super) front: Vec<u64>,
    pub(super) next: Vec<u64>,
    /// The potentials whose `front` is not empty, and those whose `next` is not.
    pub(super) fronts: Vec<u32>,
    pub(super) nexts: Vec<u32>,
    /// The strongly connected component of each potential (`on * p + k`) in the links, from
    /// the last [`sources_reaching_their_opposite`] (`u32::MAX` for a dead candidate's
    /// potentials, which are in none).
    pub(super) comp: Vec<u32>,
    /// The storage of [`sources_reaching_their_opposite`].
    pub(super) scc: Scc,
}

/// The storage of [`sources_reaching_their_opposite`], kept from one search to the next.
#[derive(Default)]
pub(super) struct Scc {
    /// Per potential: 0 if not yet visited, its visit number while on Tarjan's stack, `DONE`
    /// plus its component's number once in one.
    pub(super) num: Vec<u32>,
    /// Per potential, 1 + the source whose opposite it is (0 for none).
    pub(super) opp_of: Vec<u32>,
    /// Tarjan's stack of the potentials in no component yet, and per entry the sources whose
    /// opposite it reaches so far (`acc`, a fixed number of words each).
    pub(super) stack: Vec<u32>,
    pub(super) acc: Vec<u64>,
    /// The potentials being visited, with their next link.
    pub(super) calls: Vec<Frame>,
    /// Per component, 1 + the place of its set of sources in `sets`, 0 if the set is empty.
    pub(super) set_of: Vec<u32>,
    pub(super) sets: Vec<u64>,
    /// The live potentials by component, in the order the components were made: component
    /// `id` holds `members[ends[id - 1]..ends[id]]` (from 0 for the first); `comps` of them.
    pub(super) members: Vec<u32>,
    pub(super) ends: Vec<u32>,
    pub(super) comps: usize,
}

impl Layers {
    /// Numbers the candidates of `l` and lists their links (the links of `expand_xy`, less
    /// those between dead candidates, see below).
    ///
    /// A candidate with no conjugate and no mate is *dead*: its off potential forces nothing
    /// and nothing forces its on potential. The live candidates are numbered first
    /// (`0..live`), then the dead ones, each in cell order.
    pub(super) fn build(&mut self, l: &Links) {
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
pub(super) fn shortest_xy_chains_in(
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
pub(super) fn analyse(l: &Links, sources: &[(u16, bool)], t: &mut Layers) -> Vec<usize> {
    t.build(l);
    sources_reaching_their_opposite(t, sources)
}

/// The side-by-side search of [`shortest_xy_chains_in`] on the links of `t` (made by
/// [`analyse`]), `reaching` being the sources that reach their opposite.
pub(super) fn layers_meet(
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
pub(super) fn sources_reaching_their_opposite(
    t: &mut Layers,
    sources: &[(u16, bool)],
) -> Vec<usize> {
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
pub(super) struct Frame {
    pub(super) node: u32,
    pub(super) link: u32,
    pub(super) low: u32,
    pub(super) at: u32,
}

/// `Scc::num` of a potential in a component: this plus the component's number (visit
/// numbers are below it).
pub(super) const DONE: u32 = 1 << 16;

/// [`sources_reaching_their_opposite`] with sets of `W` words (`W * 64` sources at most).
pub(super) fn components_and_sets<const W: usize>(
    t: &mut Layers,
    sources: &[(u16, bool)],
) -> Vec<usize> {
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
pub(super) fn cycle_sources(t: &Layers, links: &Links) -> CycleFilter {
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
pub(super) struct CycleFilter {
    pub(super) ok: Vec<u8>,
    pub(super) comp: Vec<u16>,
    pub(super) off: Vec<[u128; 9]>,
}

/// The bit of a link setting (`y`, `x`) in [`cycle_sources`]' masks.
pub(super) fn cycle_bit(y: bool, x: bool) -> u8 {
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
    pub(super) static SHORTCUTS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether the exact shortcuts are taken (always, except in tests that compare without them).
#[inline]
pub(super) fn shortcuts() -> bool {
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
pub(super) const BLOCK_SOURCES: usize = 512;

/// A set of up to [`BLOCK_SOURCES`] sources, one bit each (a fixed size, so that the
/// compiler makes each operation on it a few vector instructions).
pub(super) type Block = [u64; BLOCK_SOURCES / 64];

/// The side-by-side search of the sources `part` (at most [`BLOCK_SOURCES`]) on the links of
/// `t`: the first layer at which some of them reach the opposite of a potential they reached
/// before, with those sources; `None` if there is none up to `end_layer` or within
/// `max_depth` (as [`chain_depth_xy`] bounds its search).
///
/// The sets of sources are as wide as `part` needs (64 sources a word): on a board with a
/// chain, a few dozen sources reach their opposite and are searched, in one word.
pub(super) fn chunk_meets(
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
pub(super) fn chunk_meets_in<const W: usize>(
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
    pub(super) fn set<const W: usize>(table: &[u64], id: usize) -> [u64; W] {
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
pub(super) fn chain_depth_plain(
    l: &Links,
    source: u16,
    source_on: bool,
    max_depth: u16,
) -> Option<u16> {
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
pub(super) fn chain_depth_x(
    l: &Links,
    source: u16,
    source_on: bool,
    max_depth: u16,
) -> Option<u16> {
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
