//! Forcing chains with several branches, after SE's `Chaining` rule with its multiple, dynamic
//! and Nishio options.
//!
//! Each search assumes a candidate on (or off) and propagates: an on candidate turns off the
//! cell's other candidates and the digit's other places in its houses; an off candidate turns on
//! the cell's last candidate or the digit's last place in a house. In *dynamic* mode every off
//! candidate is also removed from a working copy of the grid, so later links see the reduced
//! grid (a link then also depends on the removals that made it: its "hidden parents").
//!
//! * **Nishio** (7.5 +): one digit at a time (X-links only), dynamic; an assumption that leads to
//!   a contradiction is false.
//! * **Multiple** (8.0 +): static; if every candidate of a cell (Cell Forcing Chains) or every
//!   place of a digit in a house (Region Forcing Chains) implies the same thing, it holds.
//! * **Dynamic** (8.5 +): dynamic; contradictions, double implications (a candidate on and off
//!   implying the same), cell and region forcing chains.
//! * **Dynamic (+)** (9.0 +): as dynamic, and when propagation stalls, pointing, claiming, hidden
//!   and naked pairs and X-Wings on the working grid add eliminations.
//! * **Nested** (levels 2 to 5: 9.5, 10.0, 10.5, 11.0 +): as dynamic (+), and when those find
//!   nothing either, whole chains found on the working grid add eliminations: static cycles and
//!   forcing chains (level 2, `nested.rs`), then multiple forcing chains (level 3), dynamic
//!   forcing chains (level 4), dynamic then level-2 chains (level 5). Each such elimination rests
//!   on the removals the inner chain's strong links pass through, and the inner chain's nodes
//!   count towards the outer chain's length bonus (docs/logic.md).
//!
//! The rating is the mode's base plus SE's length bonus for the total number of distinct nodes
//! over all branches. Every propagation visits each of the 1,458 potentials at most once, so each
//! search is bounded.
//!
//! The Nishio, multiple and dynamic searches for a step first make each assumption's
//! closure (`Closure`: what it implies, on bit masks, without parents, with a lower bound on each
//! potential's ancestors) and propagate exactly, with SE's parents and order, only the
//! assumptions that take part in a chain that could still be kept (docs/logic.md, "Speed, sixth
//! round"). The closures are kept for the next search of the same mode, which makes anew only
//! those that read a candidate gone since (`Kept`; docs/logic.md, "Speed, seventh round").

use std::cell::RefCell;
use std::rc::Rc;

use super::budget::Budget;
use super::potential::{Id, Inner, CAUSE_CELL, CAUSE_HOUSE, CAUSE_NONE};
use super::{bits, cell, digit, length_bonus, Board, Rating, Step, CELL_HOUSES, HOUSE_CELLS};
use crate::bitset::{Cell, Digit};

/// Which family of forcing chains to look for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Single-digit dynamic contradictions (7.5 and up).
    Nishio,
    /// Cell and region forcing chains (8.0 and up).
    Multiple,
    /// Dynamic forcing chains (8.5 and up).
    Dynamic,
    /// Dynamic forcing chains helped by simple techniques (9.0 and up).
    DynamicPlus,
    /// Nested dynamic forcing chains of SE's level 2 to 5 (9.5, 10.0, 10.5, 11.0 and up): as
    /// [`Mode::DynamicPlus`], and when the simple techniques find nothing on the working grid,
    /// whole chains found there add eliminations (see docs/logic.md, "Nested forcing chains").
    Nested(u8),
}

impl Mode {
    fn dynamic(self) -> bool {
        self != Mode::Multiple
    }
    fn nishio(self) -> bool {
        self == Mode::Nishio
    }
    fn multiple(self) -> bool {
        !matches!(self, Mode::Nishio)
    }
    fn level(self) -> u8 {
        match self {
            Mode::DynamicPlus => 1,
            Mode::Nested(l) => l,
            _ => 0,
        }
    }
    /// SE's base rating: 9.5 for level 2, then 0.5 more per level.
    fn base(self) -> u16 {
        match self {
            Mode::Nishio => 75,
            Mode::Multiple => 80,
            Mode::Dynamic => 85,
            Mode::DynamicPlus => 90,
            Mode::Nested(l) => 95 + 5 * (l as u16 - 2),
        }
    }
}

/// What a search returns when its budget ran out before it finished.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Spent;

#[inline]
fn id(c: usize, d: usize, on: bool) -> Id {
    ((c * 9 + d) * 2 + on as usize) as Id
}

#[inline]
fn id_cell(i: Id) -> usize {
    i as usize / 18
}

#[inline]
fn id_digit(i: Id) -> usize {
    i as usize / 2 % 9
}

#[inline]
fn id_on(i: Id) -> bool {
    i & 1 == 1
}

const ABSENT: u32 = u32::MAX;
/// An identity not (yet) implied; an outcome holds at most 1,458 nodes.
const NO_SLOT: u16 = u16::MAX;

/// A chain found on the working grid of an outer chain, which an off potential of the outer
/// chain rests on: its identity (SE compares nested chains by their targets and nodes) and its
/// complexity, added once to the complexity of every outer chain that uses it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Nest {
    key: u64,
    complexity: u32,
}

/// One implied potential: where its parents are in the pool, its cause and its nested chain.
#[derive(Clone, Copy)]
struct Node {
    id: Id,
    start: u32,
    n: u16,
    cause: u8,
    /// Index into `Outcome::nests`, or ABSENT.
    nest: u32,
}

/// The potentials one assumption implies: each with the potentials that implied it.
#[derive(Clone)]
struct Outcome {
    /// Per identity: index into `nodes`, or NO_SLOT.
    slot: Vec<u16>,
    /// In insertion order.
    nodes: Vec<Node>,
    pool: Vec<Id>,
    nests: Vec<Nest>,
    /// Set if propagation stopped at a contradiction: the on and off versions of one potential,
    /// each as (identity, parents, cause).
    absurd: Option<[(Id, Vec<Id>, u8); 2]>,
}

/// The buffers of a dropped [`Outcome`], its slot table cleared, kept for the next one.
struct Spare {
    slot: Vec<u16>,
    nodes: Vec<Node>,
    pool: Vec<Id>,
    nests: Vec<Nest>,
}

/// How many spare outcomes a thread keeps (about 8 KB each): more than a dynamic search holds
/// at once on the boards measured.
const SPARES: usize = 1024;

thread_local! {
    /// Buffers of dropped outcomes: a search makes two outcomes per candidate, each with a
    /// 1,458-entry slot table, and clearing a reused table costs one write per node instead of
    /// a fresh allocation and 2.9 KB of writes (11% of the instructions on the extreme band).
    static SPARE: RefCell<Vec<Spare>> = const { RefCell::new(Vec::new()) };
}

impl Drop for Outcome {
    fn drop(&mut self) {
        if self.slot.len() != 1458 {
            return;
        }
        for n in &self.nodes {
            self.slot[n.id as usize] = NO_SLOT;
        }
        self.nodes.clear();
        self.pool.clear();
        self.nests.clear();
        let spare = Spare {
            slot: std::mem::take(&mut self.slot),
            nodes: std::mem::take(&mut self.nodes),
            pool: std::mem::take(&mut self.pool),
            nests: std::mem::take(&mut self.nests),
        };
        // During the thread's teardown the list may be gone: the buffers are then freed.
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                if s.len() < SPARES {
                    s.push(spare);
                }
            }
        });
    }
}

impl Outcome {
    /// An empty outcome, on the buffers of a dropped one if the thread has any.
    fn new() -> Outcome {
        let spare = SPARE
            .try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()))
            .ok()
            .flatten();
        match spare {
            Some(Spare {
                slot,
                nodes,
                pool,
                nests,
            }) => Outcome {
                slot,
                nodes,
                pool,
                nests,
                absurd: None,
            },
            None => Outcome {
                slot: vec![NO_SLOT; 1458],
                nodes: Vec::with_capacity(256),
                pool: Vec::with_capacity(512),
                nests: Vec::new(),
                absurd: None,
            },
        }
    }

    fn contains(&self, i: Id) -> bool {
        self.slot[i as usize] != NO_SLOT
    }

    fn add(&mut self, i: Id, parents: &[Id]) {
        self.add_full(i, parents, CAUSE_NONE, None);
    }

    /// [`Outcome::add`] with one parent, the propagation's every on → off link: inlined there.
    #[inline(always)]
    fn add_one(&mut self, i: Id, parent: Id) {
        self.slot[i as usize] = self.nodes.len() as u16;
        self.nodes.push(Node {
            id: i,
            start: self.pool.len() as u32,
            n: 1,
            cause: CAUSE_NONE,
            nest: ABSENT,
        });
        self.pool.push(parent);
    }

    fn add_full(&mut self, i: Id, parents: &[Id], cause: u8, nest: Option<Nest>) {
        self.slot[i as usize] = self.nodes.len() as u16;
        let nest = match nest {
            Some(n) => {
                self.nests.push(n);
                self.nests.len() as u32 - 1
            }
            None => ABSENT,
        };
        self.nodes.push(Node {
            id: i,
            start: self.pool.len() as u32,
            n: parents.len() as u16,
            cause,
            nest,
        });
        // One to three parents, nearly always: pushed one by one rather than through a copy
        // call.
        for &p in parents {
            self.pool.push(p);
        }
    }

    fn node(&self, i: Id) -> &Node {
        &self.nodes[self.slot[i as usize] as usize]
    }

    fn parents(&self, i: Id) -> &[Id] {
        let n = self.node(i);
        &self.pool[n.start as usize..n.start as usize + n.n as usize]
    }

    fn cause(&self, i: Id) -> u8 {
        if self.contains(i) {
            self.node(i).cause
        } else {
            CAUSE_NONE
        }
    }

    fn ons(&self) -> impl Iterator<Item = Id> + '_ {
        self.nodes.iter().map(|n| n.id).filter(|&i| id_on(i))
    }

    fn offs(&self) -> impl Iterator<Item = Id> + '_ {
        self.nodes.iter().map(|n| n.id).filter(|&i| !id_on(i))
    }

    /// Visits `start` (a node with the given parents, possibly not stored itself) and each of
    /// its distinct ancestors once; returns how many (SE's `getAncestorCount`). Stops as soon
    /// as the count exceeds `limit`, returning a count above it (a chain that long cannot be
    /// the one taken, see [`Collector`]).
    fn walk(
        &self,
        start: Id,
        start_parents: &[Id],
        seen: &mut Seen,
        limit: usize,
        mut visit: impl FnMut(Id),
    ) -> usize {
        seen.clear();
        let mut todo = std::mem::take(&mut seen.todo);
        todo.clear();
        seen.mark(start);
        visit(start);
        let mut n = 1;
        // The parents to follow next: the start's, then those of each stored node popped.
        let mut parents = start_parents;
        'walk: loop {
            for &q in parents {
                if seen.mark(q) {
                    n += 1;
                    if n > limit {
                        break 'walk;
                    }
                    visit(q);
                    todo.push(q);
                }
            }
            parents = loop {
                match todo.pop() {
                    None => break 'walk,
                    Some(p) if self.contains(p) => break self.parents(p),
                    Some(_) => {}
                }
            };
        }
        seen.todo = todo;
        n
    }

    /// Distinct potentials among `start` and all its ancestors (SE's `getAncestorCount`).
    fn ancestors(&self, start: Id, start_parents: &[Id], seen: &mut Seen) -> usize {
        self.walk(start, start_parents, seen, usize::MAX, |_| {})
    }

    /// The chain to `i` as text, following first parents back to the assumption.
    fn describe(&self, i: Id, first_parents: &[Id]) -> String {
        let mut items = vec![pot_str(i)];
        let mut next = first_parents.first().copied();
        let mut guard = 0;
        while let Some(p) = next {
            items.push(pot_str(p));
            next = if self.contains(p) {
                self.parents(p).first().copied()
            } else {
                None
            };
            guard += 1;
            if guard > 200 {
                break;
            }
        }
        items.reverse();
        items.join(" → ")
    }
}

/// The marks of an ancestor walk, kept between walks: a potential is marked if and only if
/// its mark equals `stamp`, so a new walk takes a new stamp instead of clearing 1,458 marks.
struct Seen {
    stamp: u32,
    marks: Vec<u32>,
    /// The walk's stack, kept for its allocation.
    todo: Vec<Id>,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            stamp: 0,
            marks: vec![0; 1458],
            todo: Vec::with_capacity(64),
        }
    }

    /// Unmarks every potential.
    fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
    }

    /// Marks `i`; whether it was unmarked.
    #[inline]
    fn mark(&mut self, i: Id) -> bool {
        let m = &mut self.marks[i as usize];
        let new = *m != self.stamp;
        *m = self.stamp;
        new
    }
}

/// One branch's part of a hint: the outcome and a target in it (with its parents and cause when
/// it is not stored, as a contradiction's second potential is not).
struct Part<'a> {
    out: &'a Outcome,
    target: Id,
    parents: &'a [Id],
    cause: u8,
}

/// What a hint is made of, for its rating and for nesting it in an outer chain.
#[derive(Default)]
struct Made {
    /// Distinct nodes of each part, summed, plus the complexity of each distinct nested chain.
    complexity: usize,
    /// On potentials of the chains with their causes (only if asked for).
    rule_on: Vec<(Id, u8)>,
    /// Identity of the hint's chains (only if asked for).
    key: u64,
}

/// SE's `getComplexity` (flat complexity plus nested chains, each counted once) and, if
/// `nesting`, the hint's rule causes and identity. `source_cause` is the cause SE gives the
/// assumptions of a cell (`CAUSE_CELL`) or region (`CAUSE_HOUSE + h`) forcing chain.
///
/// `None` if the flat complexity exceeds `limit` (the walks stop there): such a hint cannot
/// be the one taken (see [`Collector`]).
fn made(
    parts: &[Part],
    seen: &mut Seen,
    nesting: bool,
    source_cause: u8,
    limit: usize,
) -> Option<Made> {
    let mut m = Made::default();
    let mut nests: Vec<Nest> = Vec::new();
    let mut key: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        let o = part.out;
        let track = nesting || !o.nests.is_empty();
        key = mix(key, part.target as u64 | 1 << 20);
        let left = limit.saturating_sub(m.complexity);
        m.complexity += o.walk(part.target, part.parents, seen, left, |p| {
            if !track {
                return;
            }
            let stored = o.contains(p);
            if stored {
                let n = o.node(p);
                if n.nest != ABSENT {
                    let nest = o.nests[n.nest as usize];
                    if !nests.contains(&nest) {
                        nests.push(nest);
                    }
                }
            }
            if nesting {
                key = mix(key, p as u64);
                if id_on(p) {
                    let cause = if p == part.target && !stored {
                        part.cause
                    } else if stored {
                        o.node(p).cause
                    } else {
                        CAUSE_NONE
                    };
                    let cause = if cause == CAUSE_NONE && stored && o.parents(p).is_empty() {
                        source_cause
                    } else {
                        cause
                    };
                    if cause != CAUSE_NONE {
                        m.rule_on.push((p, cause));
                    }
                }
            }
        });
        if m.complexity > limit {
            return None;
        }
    }
    m.complexity += nests.iter().map(|n| n.complexity as usize).sum::<usize>();
    if m.complexity > limit {
        return None;
    }
    m.key = key;
    Some(m)
}

/// One step of FNV-1a over 64-bit words: the identity of a nested chain.
#[inline]
fn mix(h: u64, v: u64) -> u64 {
    (h ^ v).wrapping_mul(0x0000_0100_0000_01b3)
}

fn pot_str(i: Id) -> String {
    format!(
        "{} {} {}",
        cell(id_cell(i)),
        if id_on(i) { "is" } else { "isn't" },
        id_digit(i) + 1
    )
}

/// SE's link order for a cell's houses: box, row, column.
#[inline]
fn regions(c: usize) -> [usize; 3] {
    [
        CELL_HOUSES[c][2] as usize,
        CELL_HOUSES[c][0] as usize,
        CELL_HOUSES[c][1] as usize,
    ]
}

struct Engine<'a> {
    board: &'a Board,
    mode: Mode,
    /// The step's time budget, checked where a propagation would start an inner search.
    budget: &'a Budget<'a>,
    /// The final outcomes of the previous mode's search on this board, by assumption, when
    /// this mode's propagations continue that mode's (see [`Prefixes`]).
    prev: Option<&'a [Option<Rc<Outcome>>]>,
    /// Where this search keeps its own final outcomes for the next mode, if it does.
    record: Option<RefCell<Vec<Option<Rc<Outcome>>>>>,
    /// Places of each digit in each house of the board (by house ordinal).
    orig_pos: [[u16; 9]; 27],
    /// Whether this engine runs inside an outer chain, whose nesting needs each hint's causes
    /// and identity.
    nesting: bool,
    /// Whether the board has no cycle or forcing chain that removes anything (see
    /// `nested::static_hints`), checked once for the outer chains of levels 2 and 3.
    clean: bool,
    /// Whether the board has no multiple (cell or region) forcing chain either, checked once
    /// for the outer chains of level 3 (see [`Prune`]).
    clean_multiple: bool,
    /// Buffers of [`Engine::propagate`], kept between propagations.
    scratch: RefCell<Scratch>,
}

/// The queues of a propagation: the on and off potentials to follow, in the order made.
#[derive(Default)]
struct Scratch {
    pend_on: Vec<Id>,
    pend_off: Vec<Id>,
}

/// Each cell's houses in SE's link order (box, row, column), each with the cell's index in it
/// (its bit in a house's places).
static SE_HOUSES: [[(u8, u8); 3]; 81] = {
    let mut t = [[(0u8, 0u8); 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (r, k) = (c / 9, c % 9);
        t[c] = [
            (
                (18 + (r / 3) * 3 + k / 3) as u8,
                ((r % 3) * 3 + k % 3) as u8,
            ),
            (r as u8, k as u8),
            ((9 + k) as u8, r as u8),
        ];
        c += 1;
    }
    t
};

/// The places of digit `d` among the peers of cell `c` in SE's link order (its box, then the
/// rest of its row, then the rest of its column; [`SE_PEERS`]), given the places `pos` of
/// each digit in each house: each house with the positions it holds of them.
#[inline(always)]
fn se_peer_places(c: usize, d: usize, pos: &[[u16; 9]; 27]) -> [(usize, u16); 3] {
    let [(hb, ab), (hr, ar), (hc, ac)] = SE_HOUSES[c];
    let (hb, hr, hc) = (hb as usize, hr as usize, hc as usize);
    [
        (hb, pos[hb][d] & !(1 << ab)),
        // Less the three places of the row (column) in the cell's box.
        (hr, pos[hr][d] & !(7 << (ar / 3 * 3))),
        (hc, pos[hc][d] & !(7 << (ac / 3 * 3))),
    ]
}

/// Each cell's peers in SE's link order: its box, then the rest of its row, then the rest of
/// its column (the reference propagation of the tests; [`se_peer_places`] walks them by house).
#[cfg(test)]
static SE_PEERS: std::sync::LazyLock<[[u8; 20]; 81]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|c| {
        let mut out = [0u8; 20];
        let mut n = 0;
        for h in regions(c) {
            for &o in &HOUSE_CELLS[h] {
                if o as usize != c && !out[..n].contains(&o) {
                    out[n] = o;
                    n += 1;
                }
            }
        }
        out
    })
});

/// Whether `m` has exactly two bits: cheaper than `count_ones() == 2` without a popcount
/// instruction (baseline x86-64).
#[inline(always)]
fn two_bits(m: u16) -> bool {
    let rest = m & m.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// Applies the link "`p` implies off potential `q`" in [`Engine::propagate`]: nothing if `q`
/// is made already (its opposite is not: the propagation stops when both are), the
/// contradiction if its opposite is (returns true), else `q` is made and queued.
#[inline(always)]
fn link_off(out: &mut Outcome, pend_off: &mut Vec<Id>, p: Id, q: Id) -> bool {
    if out.contains(q) {
        return false;
    }
    let conj = q | 1;
    if out.contains(conj) {
        out.absurd = Some([
            (conj, out.parents(conj).to_vec(), out.cause(conj)),
            (q, vec![p], CAUSE_NONE),
        ]);
        return true;
    }
    out.add_one(q, p);
    pend_off.push(q);
    false
}

/// Applies the link "`par` imply on potential `q`" (not made yet) in [`Engine::propagate`]:
/// the contradiction if its opposite is made (returns true), else `q` is made and queued.
#[inline(always)]
fn link_on(out: &mut Outcome, pend_on: &mut Vec<Id>, q: Id, par: &[Id], cause: u8) -> bool {
    let conj = q & !1;
    if out.contains(conj) {
        out.absurd = Some([
            (q, par.to_vec(), cause),
            (conj, out.parents(conj).to_vec(), CAUSE_NONE),
        ]);
        return true;
    }
    out.add_full(q, par, cause, None);
    pend_on.push(q);
    false
}

impl Engine<'_> {
    /// SE's `doChaining`: completes `out` (holding the assumptions) with every implied
    /// potential; stops at the first contradiction, recorded in `out.absurd`.
    ///
    /// With `resume`, `out` is the final outcome of a search that stalled where this one's
    /// would first stall (see [`Prefixes`]): the working grid is rebuilt from its off
    /// potentials and the propagation goes on from that stall.
    fn propagate(&self, out: &mut Outcome, resume: bool) {
        let orig = &self.board.cands;
        let mut cur = *orig;
        // Places of each digit in each house on the working grid, kept in step with `cur`.
        let mut cur_pos = self.orig_pos;
        let y = !self.mode.nishio();
        let dynamic = self.mode.dynamic();
        // The queues of this engine's propagations, reused (a propagation does not start
        // another of the same engine: inner searches have their own engines). Each potential
        // is queued at most once, so the queues are never popped: `on_at` and `off_at` are
        // where they are read.
        let mut scratch = self.scratch.borrow_mut();
        let Scratch { pend_on, pend_off } = &mut *scratch;
        pend_on.clear();
        pend_off.clear();
        let (mut on_at, mut off_at) = (0, 0);
        if resume {
            // Every off potential was processed before the stall, so each is off the
            // working grid (dynamic searches only resume).
            for p in out.offs() {
                let (c, d) = (id_cell(p), id_digit(p));
                if cur[c] >> d & 1 == 1 {
                    cur[c] &= !(1 << d);
                    for &(h, at) in &SE_HOUSES[c] {
                        cur_pos[h as usize][d] &= !(1 << at);
                    }
                }
            }
        } else {
            pend_on.extend(out.ons());
            pend_off.extend(out.offs());
        }
        loop {
            if let Some(&p) = pend_on.get(on_at) {
                on_at += 1;
                // "c is d" turns off the cell's other candidates, then the digit's places
                // among the cell's peers (SE's order). Each link is applied as it is found:
                // the links read only the working grid, which an on potential leaves as it
                // is, so this is the order of making them all first and applying them
                // after. A potential already made is left (its opposite is not made: the
                // propagation stops when both are), and one whose opposite is made is the
                // contradiction.
                let (c, d) = (id_cell(p), id_digit(p));
                if y {
                    for v in bits(cur[c] & !(1 << d)) {
                        if link_off(out, pend_off, p, id(c, v, false)) {
                            return;
                        }
                    }
                }
                // Only the peers that have the digit are visited, from the working grid's places
                // per house (which change with `cur`, not in this loop).
                for (h, m) in se_peer_places(c, d, &cur_pos) {
                    for k in bits(m) {
                        let o = HOUSE_CELLS[h][k] as usize;
                        if link_off(out, pend_off, p, id(o, d, false)) {
                            return;
                        }
                    }
                }
            } else if let Some(&p) = pend_off.get(off_at) {
                off_at += 1;
                // "c is not d" turns on the cell's last candidate, then the digit's last
                // place in each of its houses (box, row, column), each with the removals
                // that made it the last as hidden parents. Applied as found, as above (the
                // working grid loses "c is d" only after all are found).
                let (c, d) = (id_cell(p), id_digit(p));
                let mut par = [0 as Id; 9];
                if y && two_bits(cur[c]) && cur[c] >> d & 1 == 1 {
                    let v = (cur[c] & !(1 << d)).trailing_zeros() as usize;
                    let q = id(c, v, true);
                    if !out.contains(q) {
                        par[0] = p;
                        let mut n = 1;
                        for w in bits(orig[c] & !cur[c]) {
                            par[n] = id(c, w, false);
                            n += 1;
                        }
                        if link_on(out, pend_on, q, &par[..n], CAUSE_CELL) {
                            return;
                        }
                    }
                }
                for &(h, at) in &SE_HOUSES[c] {
                    let h = h as usize;
                    let pos = cur_pos[h][d];
                    if two_bits(pos) && pos >> at & 1 == 1 {
                        let k = (pos & !(1 << at)).trailing_zeros() as usize;
                        let o = HOUSE_CELLS[h][k] as usize;
                        let q = id(o, d, true);
                        // Made already, by this link through another house or before.
                        if out.contains(q) {
                            continue;
                        }
                        par[0] = p;
                        let mut n = 1;
                        for k2 in bits(self.orig_pos[h][d] & !pos) {
                            par[n] = id(HOUSE_CELLS[h][k2] as usize, d, false);
                            n += 1;
                        }
                        if link_on(out, pend_on, q, &par[..n], CAUSE_HOUSE + h as u8) {
                            return;
                        }
                    }
                }
                if dynamic && cur[c] >> d & 1 == 1 {
                    cur[c] &= !(1 << d);
                    for &(h, at) in &SE_HOUSES[c] {
                        cur_pos[h as usize][d] &= !(1 << at);
                    }
                }
            } else {
                if self.mode.level() > 0 {
                    let mut extra = advanced_offs(self.board, &cur, &cur_pos, orig, &self.orig_pos);
                    if extra.is_empty() && self.mode.level() >= 2 {
                        // The inner search is the costly unit: the budget is checked before
                        // each (a spent budget leaves the outcome incomplete; the step using
                        // it is discarded).
                        if self.budget.check() {
                            return;
                        }
                        extra = nested_offs(
                            self.board,
                            self.mode.level(),
                            &cur,
                            orig,
                            self.clean,
                            self.clean_multiple,
                            self.budget,
                        );
                    }
                    let mut any = false;
                    for (q, ps, nest) in extra {
                        if !out.contains(q) {
                            // The removal also turns off the candidate in the working grid.
                            out.add_full(q, &ps, CAUSE_NONE, nest);
                            pend_off.push(q);
                            any = true;
                        }
                    }
                    if any {
                        continue;
                    }
                }
                return;
            }
        }
    }

    fn assume(&self, i: Id) -> Outcome {
        let mut o = Outcome::new();
        o.add(i, &[]);
        self.propagate(&mut o, false);
        o
    }

    /// [`Engine::assume`], continuing the previous mode's outcome of the same assumption
    /// where there is one, and kept for the next mode if this search records its outcomes.
    fn assume_shared(&self, i: Id) -> Rc<Outcome> {
        let o = match self.prev.and_then(|p| p[i as usize].as_ref()) {
            Some(prev) if prev.absurd.is_some() => prev.clone(),
            Some(prev) => {
                let mut o = (**prev).clone();
                self.propagate(&mut o, true);
                Rc::new(o)
            }
            None => Rc::new(self.assume(i)),
        };
        if let Some(r) = &self.record {
            r.borrow_mut()[i as usize] = Some(o.clone());
        }
        o
    }
}

/// The pairs of crossing houses in SE's order (`intersections::crossing_pairs`), each with the
/// places of the first house that lie in the second and those of the second in the first.
static CROSS_PLACES: std::sync::LazyLock<Vec<(u8, u8, u16, u16)>> =
    std::sync::LazyLock::new(|| {
        let inside = |a: usize, b: usize| {
            (0..9).fold(0u16, |m, k| {
                m | (HOUSE_CELLS[b].contains(&HOUSE_CELLS[a][k]) as u16) << k
            })
        };
        super::intersections::crossing_pairs()
            .map(|(a, b)| (a as u8, b as u8, inside(a, b), inside(b, a)))
            .collect()
    });

/// Eliminations that simple techniques find on the working grid of a dynamic search (level 1,
/// SE's "(+)"): pointing and claiming, then hidden pairs, naked pairs, X-Wings (the first of
/// these that finds anything). Each elimination comes with the removals the pattern rests on
/// (its parents, all off potentials of this search); patterns that rest on no removal are
/// skipped, as they exist without the chain.
fn advanced_offs(
    board: &Board,
    cur: &[u16; 81],
    cur_pos: &[[u16; 9]; 27],
    orig: &[u16; 81],
    orig_pos: &[[u16; 9]; 27],
) -> Vec<(Id, Vec<Id>, Option<Nest>)> {
    let mut out = Vec::new();
    let had = |c: usize, d: usize| orig[c] >> d & 1 == 1 && cur[c] >> d & 1 == 0;
    // Pointing and claiming, in SE's order of house pairs, on the places of each digit: its
    // places in `h1` all lie in `h2` (two or more), `h2` has places outside `h1` (removed),
    // and `h1` lost places outside `h2` (the parents).
    for &(h1, h2, in1, in2) in CROSS_PLACES.iter() {
        let (h1, h2) = (h1 as usize, h2 as usize);
        for d in 0..9 {
            let pos = cur_pos[h1][d];
            if pos & pos.wrapping_sub(1) == 0 || pos & !in1 != 0 {
                continue;
            }
            let elims = cur_pos[h2][d] & !in2;
            if elims == 0 {
                continue;
            }
            let lost = orig_pos[h1][d] & !pos & !in1;
            if lost != 0 {
                let parents: Vec<Id> = bits(lost)
                    .map(|k| id(HOUSE_CELLS[h1][k] as usize, d, false))
                    .collect();
                out.extend(bits(elims).map(|k| {
                    (
                        id(HOUSE_CELLS[h2][k] as usize, d, false),
                        parents.clone(),
                        None,
                    )
                }));
            }
        }
    }
    if !out.is_empty() {
        return out;
    }
    // Hidden pairs (houses: boxes, columns, rows; more than 4 empty cells): two digits with
    // one or two places each, two in all.
    for &h in super::SE_BCR.iter() {
        let h = h as usize;
        if board.empty_count(h) <= 4 {
            continue;
        }
        let pos: [u16; 9] = cur_pos[h];
        let (mut few, mut n) = ([0usize; 9], 0);
        for (d, &p) in pos.iter().enumerate() {
            let rest = p & p.wrapping_sub(1);
            if p != 0 && rest & rest.wrapping_sub(1) == 0 {
                few[n] = d;
                n += 1;
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (few[i], few[j]);
                if (pos[a] | pos[b]).count_ones() != 2 {
                    continue;
                }
                let set = pos[a] | pos[b];
                let pair = (1u16 << a) | (1 << b);
                let mut elims = Vec::new();
                for k in bits(set) {
                    let c = HOUSE_CELLS[h][k] as usize;
                    for v in bits(cur[c] & !pair) {
                        elims.push(id(c, v, false));
                    }
                }
                if elims.is_empty() {
                    continue;
                }
                let mut parents = Vec::new();
                for k in bits(0x1FF & !set) {
                    let c = HOUSE_CELLS[h][k] as usize;
                    for v in [a, b] {
                        if orig[c] >> v & 1 == 1 {
                            parents.push(id(c, v, false));
                        }
                    }
                }
                if !parents.is_empty() {
                    out.extend(elims.into_iter().map(|e| (e, parents.clone(), None)));
                }
            }
        }
    }
    if !out.is_empty() {
        return out;
    }
    // Naked pairs (houses with at least 4 empty cells).
    for &h in super::SE_BCR.iter() {
        let h = h as usize;
        if board.empty_count(h) < 4 {
            continue;
        }
        let (mut cells, mut n) = ([0usize; 9], 0);
        for &c in &HOUSE_CELLS[h] {
            if two_bits(cur[c as usize]) {
                cells[n] = c as usize;
                n += 1;
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                let (p, q) = (cells[i], cells[j]);
                if cur[p] != cur[q] {
                    continue;
                }
                let pair = cur[p];
                let elims: Vec<Id> = HOUSE_CELLS[h]
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| c != p && c != q)
                    .flat_map(|c| bits(cur[c] & pair).map(move |v| id(c, v, false)))
                    .collect();
                if elims.is_empty() {
                    continue;
                }
                let parents: Vec<Id> = [p, q]
                    .into_iter()
                    .flat_map(|c| bits(orig[c] & !pair).map(move |v| id(c, v, false)))
                    .collect();
                if !parents.is_empty() {
                    out.extend(elims.into_iter().map(|e| (e, parents.clone(), None)));
                }
            }
        }
    }
    if !out.is_empty() {
        return out;
    }
    // X-Wings: rows as base lines, then columns.
    for d in 0..9 {
        for rows in [true, false] {
            let line = |k: usize| if rows { k } else { 9 + k };
            let at = |l: usize, x: usize| if rows { l * 9 + x } else { x * 9 + l };
            let lines: [u16; 9] = std::array::from_fn(|k| cur_pos[line(k)][d]);
            for a in 0..9 {
                for b in a + 1..9 {
                    if lines[a].count_ones() != 2 || lines[b] != lines[a] {
                        continue;
                    }
                    let cover = lines[a];
                    let mut elims = Vec::new();
                    for x in bits(cover) {
                        for l in 0..9 {
                            if l != a && l != b && cur[at(l, x)] >> d & 1 == 1 {
                                elims.push(id(at(l, x), d, false));
                            }
                        }
                    }
                    if elims.is_empty() {
                        continue;
                    }
                    let parents: Vec<Id> = [a, b]
                        .into_iter()
                        .flat_map(|l| (0..9).map(move |x| (l, x)))
                        .filter(|&(l, x)| cover >> x & 1 == 0 && had(at(l, x), d))
                        .map(|(l, x)| id(at(l, x), d, false))
                        .collect();
                    if !parents.is_empty() {
                        out.extend(elims.into_iter().map(|e| (e, parents.clone(), None)));
                    }
                }
            }
        }
    }
    out
}

/// A found forcing chain before it becomes a step.
struct Found {
    rating: u16,
    complexity: usize,
    sort_key: u8,
    technique: &'static str,
    placements: Vec<(Cell, Digit)>,
    eliminations: Vec<(Cell, Digit)>,
    cells: Vec<Cell>,
    text: String,
    /// For nesting (see [`Made`]).
    rule_on: Vec<(Id, u8)>,
    key: u64,
}

/// Removals and placement for "target holds" (an on target) or "target fails" (an off target).
/// Placements and eliminations of a conclusion.
type Deduction = (Vec<(Cell, Digit)>, Vec<(Cell, Digit)>);

/// Whether [`conclusion`] removes anything (without making it).
fn concludes(board: &Board, target: Id) -> bool {
    let (c, d) = (id_cell(target), id_digit(target));
    if id_on(target) {
        board.cands[c] & !(1 << d) != 0
    } else {
        board.cands[c] >> d & 1 == 1
    }
}

fn conclusion(board: &Board, target: Id) -> Deduction {
    let (c, d) = (id_cell(target), id_digit(target));
    if id_on(target) {
        let elims: Vec<(Cell, Digit)> = bits(board.cands[c] & !(1 << d))
            .map(|v| (cell(c), digit(v)))
            .collect();
        (vec![(cell(c), digit(d))], elims)
    } else if board.cands[c] >> d & 1 == 1 {
        (vec![], vec![(cell(c), digit(d))])
    } else {
        (vec![], vec![])
    }
}

fn name(mode: Mode, kind: &str) -> &'static str {
    // A fixed table, so the technique names stay `&'static str`.
    macro_rules! kinds {
        ($suffix:literal) => {
            match kind {
                "contradiction" => concat!("Dynamic Contradiction Forcing Chains", $suffix),
                "double" => concat!("Dynamic Double Forcing Chains", $suffix),
                "cell" => concat!("Dynamic Cell Forcing Chains", $suffix),
                _ => concat!("Dynamic Region Forcing Chains", $suffix),
            }
        };
    }
    match (mode, kind) {
        (Mode::Nishio, _) => "Nishio Forcing Chains",
        (Mode::Multiple, "cell") => "Cell Forcing Chains",
        (Mode::Multiple, _) => "Region Forcing Chains",
        (Mode::Dynamic, _) => kinds!(""),
        (Mode::DynamicPlus, _) => kinds!(" (+)"),
        (Mode::Nested(2), _) => kinds!(" (+ Forcing Chains)"),
        (Mode::Nested(3), _) => kinds!(" (+ Multiple Forcing Chains)"),
        (Mode::Nested(4), _) => kinds!(" (+ Dynamic Forcing Chains)"),
        (Mode::Nested(_), _) => kinds!(" (+ Dynamic Forcing Chains (+ Forcing Chains))"),
    }
}

/// The easiest forcing chain of the given family, as SE orders them: lowest rating, then fewest
/// nodes, then kind.
pub fn forcing_chains(board: &Board, mode: Mode) -> Option<Step> {
    forcing_chains_within(board, mode, &Budget::unlimited(), &mut Prefixes::default())
        .expect("an unlimited budget")
}

/// The final outcomes of the dynamic searches already made on one board, by assumption, for
/// the next modes' searches on the same board to continue (the grader tries the modes in
/// order on each board, and each finds nothing before the next runs).
///
/// A dynamic (+) propagation is the dynamic one until its first stall (the simple techniques
/// only run when both queues are empty, and nothing else differs), and a nested one is the
/// dynamic (+) one until the stall where the simple techniques find nothing new; a
/// contradiction met before is met by both at the same node. At a stall every off potential
/// has been processed, so the working grid is the board less the outcome's off potentials. So
/// a propagation can start from the previous mode's outcome (a copy), at that stall, with the
/// same nodes, parents and order as from scratch: the dynamic (+) search continues the dynamic
/// one's outcomes, and every nested level continues the dynamic (+) one's. This saves the
/// repeated part of the propagations (what `cargo bench -p shudu-core --bench logic` shows on
/// the extreme band, where dynamic (+) chains are the hardest step).
#[derive(Default)]
pub(crate) struct Prefixes {
    dynamic: Option<Vec<Option<Rc<Outcome>>>>,
    plus: Option<Vec<Option<Rc<Outcome>>>>,
}

/// [`forcing_chains`] within a time budget: `Err(Spent)` if the budget ran out before the
/// search finished (what it found so far is dropped: a step must be the easiest one).
/// `prefixes` holds the outcomes of the earlier modes' searches on this board (see
/// [`Prefixes`]): start with an empty one for each board.
pub(crate) fn forcing_chains_within(
    board: &Board,
    mode: Mode,
    budget: &Budget,
    prefixes: &mut Prefixes,
) -> Result<Option<Step>, Spent> {
    let (found, recorded) = {
        let mut engine = engine(board, mode, false, budget);
        let record = matches!(mode, Mode::Dynamic | Mode::DynamicPlus);
        engine.prev = match mode {
            Mode::DynamicPlus => prefixes.dynamic.as_deref(),
            Mode::Nested(_) => prefixes.plus.as_deref(),
            _ => None,
        };
        engine.record = record.then(|| RefCell::new(vec![None; 1458]));
        let found = chains_of(&engine, None);
        (found, engine.record.take().map(RefCell::into_inner))
    };
    if budget.spent() {
        return Err(Spent);
    }
    match mode {
        Mode::Dynamic => prefixes.dynamic = recorded,
        Mode::DynamicPlus => prefixes.plus = recorded,
        _ => {}
    }
    Ok(best_step(found))
}

/// The step of the easiest chain found, as SE orders them.
fn best_step(found: Vec<Found>) -> Option<Step> {
    let best = found
        .into_iter()
        .enumerate()
        .min_by_key(|(i, f)| (f.rating, f.complexity, f.sort_key, *i))?
        .1;
    Some(Step {
        technique: best.technique,
        rating: Rating(best.rating),
        placements: best.placements,
        shown_eliminations: vec![],
        figure: Default::default(),
        eliminations: best.eliminations,
        cells: best.cells,
        houses: vec![],
        text: best.text,
    })
}

fn engine<'a>(board: &'a Board, mode: Mode, nesting: bool, budget: &'a Budget<'a>) -> Engine<'a> {
    Engine {
        board,
        mode,
        budget,
        prev: None,
        record: None,
        scratch: RefCell::default(),
        orig_pos: board.places(),
        nesting,
        clean: matches!(mode, Mode::Nested(2 | 3)) && super::chains::static_chains(board).is_none(),
        clean_multiple: mode == Mode::Nested(3)
            && all_chains(board, Mode::Multiple, false, None, budget).is_empty(),
    }
}

/// Every forcing chain of the given family, in SE's order of search (not yet sorted).
/// Stops early, with what it found so far, once `budget` is spent (the caller checks).
fn all_chains(
    board: &Board,
    mode: Mode,
    nesting: bool,
    prune: Option<&Prune>,
    budget: &Budget,
) -> Vec<Found> {
    chains_of(&engine(board, mode, nesting, budget), prune)
}

/// The branches of a cell or region check (at most nine) in an array on the stack, and how many:
/// such a check is made for most cells and for most places of most digits, too often for a `Vec`.
#[inline]
fn on_stack(ids: impl Iterator<Item = Id>) -> ([Id; 9], usize) {
    let mut out = [0 as Id; 9];
    let mut n = 0;
    for a in ids {
        out[n] = a;
        n += 1;
    }
    (out, n)
}

/// [`all_chains`] with a prepared engine.
fn chains_of(engine: &Engine, prune: Option<&Prune>) -> Vec<Found> {
    let (board, mode, nesting, budget) = (engine.board, engine.mode, engine.nesting, engine.budget);
    let mut found = Collector {
        found: Vec::new(),
        all: nesting,
        best: None,
    };
    // The outcome table and walk marks of an earlier search of this thread (cleared), or new
    // ones: two zeroed 5.8 KB tables per search otherwise.
    let (mut ons, mut seen) = SEARCH_SCRATCH
        .try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()))
        .ok()
        .flatten()
        .unwrap_or_else(|| (OnCache::new(), Seen::new()));
    // Outside nesting, a chain is only made if it can beat the best kept so far; the closures
    // tell, without parents, which assumptions take part in a chain that could (see
    // [`Closure`]), and only those are propagated. Below level 1 only: the simple techniques
    // of level 1 and up run at stalls of the propagation, which the closures leave out.
    #[cfg(test)]
    let off = CLOSURES_OFF.with(|f| f.get());
    #[cfg(not(test))]
    let off = false;
    let mut closures = (!nesting
        && !off
        && prune.is_none()
        && matches!(mode, Mode::Nishio | Mode::Multiple | Mode::Dynamic))
    .then(|| Closures::new(board, mode));
    // The outcome of the off assumptions that are not made (static multiple chains).
    let none = Rc::new(Outcome::new());
    for c in 0..81 {
        // A cell's assumptions are the unit of work between two checks (microseconds below
        // level 2, more with inner searches, which check too).
        if budget.check() {
            break;
        }
        let m = board.cands[c];
        let card = m.count_ones();
        if board.values[c] != 0 || !(card > 2 || (card > 1 && mode.dynamic())) {
            continue;
        }
        let cell_ok = prune.is_none_or(|p| p.cell_useful(board, c));
        if !cell_ok
            && prune.is_some_and(|p| {
                !bits(m).any(|d| {
                    regions(c).into_iter().any(|h| {
                        let pos = engine.orig_pos[h][d];
                        pos.count_ones() >= 2
                            && HOUSE_CELLS[h][pos.trailing_zeros() as usize] as usize == c
                            && p.region_useful(board, h, d)
                    })
                })
            })
        {
            continue;
        }
        for d in bits(m) {
            let p_on = id(c, d, true);
            let p_off = id(c, d, false);
            let do_double = card >= 3 && !mode.nishio() && mode.dynamic();
            let do_contradiction = mode.dynamic() || mode.nishio();
            // The outcomes, propagated when first needed (with closures, only if a chain
            // they take part in could be kept).
            let mut on: Option<Rc<Outcome>> = None;
            let mut off: Option<Rc<Outcome>> = None;
            let get_off = |off: &mut Option<Rc<Outcome>>| {
                off.get_or_insert_with(|| {
                    if do_double || do_contradiction {
                        engine.assume_shared(p_off)
                    } else {
                        none.clone()
                    }
                })
                .clone()
            };
            if do_contradiction {
                for (assumed, concluded) in [(p_on, p_off), (p_off, p_on)] {
                    if let Some(cl) = &mut closures {
                        if cl
                            .contradiction(assumed, found.limit(7))
                            .is_none_or(|lb| lb > found.limit(7))
                        {
                            continue;
                        }
                    }
                    let o = if assumed == p_on {
                        on.get_or_insert_with(|| ons.get(engine, c, d)).clone()
                    } else {
                        get_off(&mut off)
                    };
                    let o = &*o;
                    let Some([(a, ap, ac), (b, bp, bc)]) = &o.absurd else {
                        continue;
                    };
                    let Some(mk) = made(
                        &[
                            Part {
                                out: o,
                                target: *a,
                                parents: ap,
                                cause: *ac,
                            },
                            Part {
                                out: o,
                                target: *b,
                                parents: bp,
                                cause: *bc,
                            },
                        ],
                        &mut seen,
                        nesting,
                        CAUSE_NONE,
                        found.limit(7),
                    ) else {
                        continue;
                    };
                    let (pl, el) = conclusion(board, concluded);
                    found.push(
                        board,
                        mode,
                        "contradiction",
                        7,
                        mk,
                        pl,
                        el,
                        vec![cell(c)],
                        || {
                            format!(
                                "if {} then both {} and {}: so {}",
                                pot_str(assumed),
                                o.describe(*a, ap),
                                o.describe(*b, bp),
                                pot_str(concluded)
                            )
                        },
                    );
                }
            }
            let mut double_needed = do_double
                && closures
                    .as_mut()
                    .is_none_or(|cl| cl.common_within(&[p_on, p_off], found.limit(1)));
            if double_needed {
                if let Some(cl) = &closures {
                    let mut outs = [on.clone(), off.clone()];
                    double_needed = cl.staged(
                        board,
                        &[p_on, p_off],
                        &mut outs,
                        found.limit(1),
                        &mut seen,
                        |i| {
                            if i == 0 {
                                ons.get(engine, c, d)
                            } else {
                                engine.assume_shared(p_off)
                            }
                        },
                    );
                    let [o0, o1] = outs;
                    on = on.or(o0);
                    off = off.or(o1);
                }
            }
            if double_needed {
                let on = on.get_or_insert_with(|| ons.get(engine, c, d)).clone();
                let off = get_off(&mut off);
                for t in on.ons().chain(on.offs()).collect::<Vec<_>>() {
                    if !off.contains(t) || !concludes(board, t) {
                        continue;
                    }
                    let Some(mk) = made(
                        &[
                            Part {
                                out: &on,
                                target: t,
                                parents: on.parents(t),
                                cause: CAUSE_NONE,
                            },
                            Part {
                                out: &off,
                                target: t,
                                parents: off.parents(t),
                                cause: CAUSE_NONE,
                            },
                        ],
                        &mut seen,
                        nesting,
                        CAUSE_NONE,
                        found.limit(1),
                    ) else {
                        continue;
                    };
                    let (pl, el) = conclusion(board, t);
                    found.push(board, mode, "double", 1, mk, pl, el, vec![cell(c)], || {
                        format!(
                            "{} and {} both imply {}: {} and {}",
                            pot_str(p_on),
                            pot_str(p_off),
                            pot_str(t),
                            on.describe(t, on.parents(t)),
                            off.describe(t, off.parents(t))
                        )
                    });
                }
            }
            if !mode.nishio() {
                region_chains(
                    engine,
                    board,
                    c,
                    d,
                    &mut ons,
                    prune,
                    &mut found,
                    &mut seen,
                    closures.as_mut(),
                );
            }
        }
        if cell_ok && !mode.nishio() && (card == 2 || (mode.multiple() && card > 2)) {
            let (branches, n) = on_stack(bits(m).map(|d| id(c, d, true)));
            let branches = &branches[..n];
            if closures.as_mut().is_none_or(|cl| {
                cl.common_within(branches, found.limit(5))
                    && cl.staged_ons(board, branches, &mut ons, engine, found.limit(5), &mut seen)
            }) {
                let value_on: Vec<(usize, Rc<Outcome>)> =
                    bits(m).map(|d| (d, ons.get(engine, c, d))).collect();
                cell_chains(engine, board, c, &value_on, &mut found, &mut seen);
            }
        }
    }
    ons.clear();
    let _ = SEARCH_SCRATCH.try_with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            s.push((ons, seen));
        }
    });
    found.found
}

thread_local! {
    /// The outcome tables (emptied) and walk marks of finished searches, for the next: a
    /// search inside a search (nesting) takes another.
    static SEARCH_SCRATCH: RefCell<Vec<(OnCache, Seen)>> = const { RefCell::new(Vec::new()) };
}

/// The rating of SE's contradiction chain from "`c` is `d`" in `mode` (Nishio, Dynamic or
/// Dynamic (+)): the rating `forcing_chains` gives the step "`c` is not `d`" when the assumption
/// leads to a contradiction; `None` if it does not. For rating the named techniques
/// (`logic::named`).
pub(crate) fn contradiction_rating(board: &Board, mode: Mode, c: usize, d: usize) -> Option<u16> {
    let budget = Budget::unlimited();
    let engine = engine(board, mode, false, &budget);
    let on = engine.assume(id(c, d, true));
    let [(a, ap, _), (b, bp, _)] = on.absurd.as_ref()?;
    let mut seen = Seen::new();
    let complexity = on.ancestors(*a, ap, &mut seen) + on.ancestors(*b, bp, &mut seen);
    Some(mode.base() + length_bonus(complexity))
}

#[cfg(test)]
thread_local! {
    /// Turns the closures off, for tests that compare searches with and without them.
    static CLOSURES_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Turns off the closures' settled counts ([`Closures::make`]), for a test that compares
    /// closures with and without them.
    static SETTLE_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the closures settle the counts of an on potential's cell and houses.
#[inline(always)]
fn settle_counts() -> bool {
    #[cfg(test)]
    return !SETTLE_OFF.with(|f| f.get());
    #[cfg(not(test))]
    true
}

/// The chains a search keeps. A search for the step itself keeps only a chain that beats every
/// chain kept before it: SE takes the least (rating, complexity, kind) and, among equals, the
/// first found, and within one search the rating grows with the complexity (base plus length
/// bonus), so a chain more complex than the best so far, or as complex and not of an earlier
/// kind, cannot be taken; its ancestor walk stops as soon as it is too long ([`made`]'s
/// `limit`). The kept chains still hold the one taken, and `best_step` picks it as before. A
/// search inside an outer chain keeps every chain (`all`): the outer chain uses them all.
struct Collector {
    found: Vec<Found>,
    all: bool,
    /// Complexity and kind of the last chain kept, the best so far (unless `all`).
    best: Option<(usize, u8)>,
}

impl Collector {
    /// The highest complexity a chain of kind `sort_key` may have to be kept.
    fn limit(&self, sort_key: u8) -> usize {
        match self.best {
            Some((c, k)) if !self.all => {
                if sort_key < k {
                    c
                } else {
                    c - 1
                }
            }
            _ => usize::MAX,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        board: &Board,
        mode: Mode,
        kind: &str,
        sort_key: u8,
        mk: Made,
        placements: Vec<(Cell, Digit)>,
        eliminations: Vec<(Cell, Digit)>,
        cells: Vec<Cell>,
        text: impl FnOnce() -> String,
    ) {
        if eliminations.is_empty() && placements.is_empty() {
            return;
        }
        let technique = name(mode, kind);
        self.best = Some((mk.complexity, sort_key));
        self.found.push(Found {
            rating: mode.base() + length_bonus(mk.complexity),
            complexity: mk.complexity,
            sort_key,
            technique,
            placements,
            eliminations,
            cells,
            text: board.say(|| format!("{technique}: {}", text())),
            rule_on: mk.rule_on,
            key: mk.key,
        });
    }
}

/// The outcome of each "cell is digit" assumption, made once: a region forcing chain needs
/// those of the digit's other places, which the search meets again as cells of their own.
/// Kept between searches of a thread, emptied ([`OnCache::clear`]).
struct OnCache(Vec<Option<Rc<Outcome>>>, Vec<u16>);

impl OnCache {
    fn new() -> OnCache {
        OnCache(vec![None; 729], Vec::new())
    }

    fn get(&mut self, engine: &Engine, c: usize, d: usize) -> Rc<Outcome> {
        let slot = &mut self.0[c * 9 + d];
        if slot.is_none() {
            self.1.push((c * 9 + d) as u16);
        }
        slot.get_or_insert_with(|| engine.assume_shared(id(c, d, true)))
            .clone()
    }

    /// Drops the outcomes made (only those: the table has 729 entries).
    fn clear(&mut self) {
        for i in self.1.drain(..) {
            self.0[i as usize] = None;
        }
    }
}

/// Targets implied by every branch: on targets first, then off, in the first branch's order.
fn common_targets<'a>(branches: impl Iterator<Item = &'a Outcome> + Clone) -> Vec<Id> {
    let mut it = branches.clone();
    let Some(first) = it.next() else {
        return vec![];
    };
    let mut out = Vec::new();
    for want_on in [true, false] {
        for n in &first.nodes {
            if id_on(n.id) == want_on && branches.clone().all(|b| b.contains(n.id)) {
                out.push(n.id);
            }
        }
    }
    out
}

fn cell_chains(
    engine: &Engine,
    board: &Board,
    c: usize,
    value_on: &[(usize, Rc<Outcome>)],
    found: &mut Collector,
    seen: &mut Seen,
) {
    for t in common_targets(value_on.iter().map(|(_, o)| &**o)) {
        if !concludes(board, t) {
            continue;
        }
        let parts: Vec<Part> = value_on
            .iter()
            .map(|(_, o)| Part {
                out: o,
                target: t,
                parents: o.parents(t),
                cause: CAUSE_NONE,
            })
            .collect();
        let Some(mk) = made(&parts, seen, engine.nesting, CAUSE_CELL, found.limit(5)) else {
            continue;
        };
        let (pl, el) = conclusion(board, t);
        found.push(
            board,
            engine.mode,
            "cell",
            5,
            mk,
            pl,
            el,
            vec![cell(c)],
            || {
                let branches: Vec<String> = value_on
                    .iter()
                    .map(|(_, o)| o.describe(t, o.parents(t)))
                    .collect();
                format!(
                    "whichever digit {} takes, {}: {}",
                    cell(c),
                    pot_str(t),
                    branches.join("; ")
                )
            },
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn region_chains(
    engine: &Engine,
    board: &Board,
    c: usize,
    d: usize,
    ons: &mut OnCache,
    prune: Option<&Prune>,
    found: &mut Collector,
    seen: &mut Seen,
    mut closures: Option<&mut Closures>,
) {
    for h in regions(c) {
        let pos = engine.orig_pos[h][d];
        // Two places, or more in multiple modes (without a popcount: see [`two_bits`]).
        if !(two_bits(pos) || (engine.mode.multiple() && pos & pos.wrapping_sub(1) != 0)) {
            continue;
        }
        let first = HOUSE_CELLS[h][pos.trailing_zeros() as usize] as usize;
        if first != c || prune.is_some_and(|p| !p.region_useful(board, h, d)) {
            continue;
        }
        if let Some(cl) = closures.as_deref_mut() {
            let (ids, n) = on_stack(bits(pos).map(|k| id(HOUSE_CELLS[h][k] as usize, d, true)));
            let ids = &ids[..n];
            if !cl.common_within(ids, found.limit(6))
                || !cl.staged_ons(board, ids, ons, engine, found.limit(6), seen)
            {
                continue;
            }
        }
        let on = ons.get(engine, c, d);
        let others: Vec<Rc<Outcome>> = bits(pos)
            .map(|k| HOUSE_CELLS[h][k] as usize)
            .filter(|&o| o != c)
            .map(|o| ons.get(engine, o, d))
            .collect();
        let on = &*on;
        let branches = || std::iter::once(on).chain(others.iter().map(|o| &**o));
        for t in common_targets(branches()) {
            if !concludes(board, t) {
                continue;
            }
            let parts: Vec<Part> = branches()
                .map(|o| Part {
                    out: o,
                    target: t,
                    parents: o.parents(t),
                    cause: CAUSE_NONE,
                })
                .collect();
            let limit = found.limit(6);
            let Some(mk) = made(&parts, seen, engine.nesting, CAUSE_HOUSE + h as u8, limit) else {
                continue;
            };
            let (pl, el) = conclusion(board, t);
            found.push(
                board,
                engine.mode,
                "region",
                6,
                mk,
                pl,
                el,
                vec![cell(c)],
                || {
                    let texts: Vec<String> =
                        branches().map(|o| o.describe(t, o.parents(t))).collect();
                    format!(
                        "wherever {} goes in {}, {}: {}",
                        d + 1,
                        super::house(h),
                        pot_str(t),
                        texts.join("; ")
                    )
                },
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Closures: which assumptions can take part in a chain that could be kept.

/// What one assumption implies under a search's basic rules, on bit masks (bit `c` of digit
/// `d`'s mask: cell `c`, digit `d`), without parents: on → off for the cell's other candidates
/// (Y-links) and the digit's other places in the cell's houses; off → on for a cell's last
/// candidate (Y-links) and a digit's last place in a house, on the working grid (dynamic) or
/// for bivalue cells and bilocal digits of the board (static).
///
/// These rules are monotone, so the potentials an assumption implies are the least set closed
/// under them, whatever the order they are found in: a potential is in a closure if and only if
/// [`Engine::propagate`] reaches it when it meets no contradiction, and propagate's outcome is
/// a subset of the closure when it stops at one (its every link is a derivation here). A
/// closure holds a candidate both on and off if and only if propagate meets a contradiction.
///
/// Each potential also gets its *round*: 0 for the assumption, and one more than the latest
/// of the potentials it needs (the first derivation found, breadth first, so the least). Its
/// parents in propagate include what it needs here, so it has at least `round + 1` distinct
/// ancestors (itself included): a lower bound on its share of a chain's complexity.
#[derive(Clone, Copy)]
struct Closure {
    on: [u128; 9],
    off: [u128; 9],
    /// The least `round(x on) + round(x off) + 2` over the candidates `x` held both on and off
    /// (a lower bound on the complexity of propagate's contradiction), `u32::MAX` if none.
    conflict: u32,
    /// The cells holding an off potential (the union of `off`), for [`Kept::update`].
    off_cells: u128,
}

impl Closure {
    /// Keeps in `on` and `off` only the potentials this closure holds too; whether any is left.
    /// Not inlined: on its own the compiler does it on SSE2 registers, 16 bytes at a time, where
    /// inlined into its callers it split the 128-bit masks into 64-bit scalars and spilled them
    /// (about 190 instructions a call instead of 90).
    #[inline(never)]
    fn narrow(&self, on: &mut [u128; 9], off: &mut [u128; 9]) -> bool {
        let mut any = 0;
        for d in 0..9 {
            on[d] &= self.on[d];
            off[d] &= self.off[d];
            any |= on[d] | off[d];
        }
        any != 0
    }

    /// Sets `on` and `off` to the potentials of `on_in` and `off_in` this closure holds too
    /// ([`Closure::narrow`] without copying them first); whether any is left.
    #[inline(never)]
    fn meet(
        &self,
        on_in: &[u128; 9],
        off_in: &[u128; 9],
        on: &mut [u128; 9],
        off: &mut [u128; 9],
    ) -> bool {
        let mut any = 0;
        for d in 0..9 {
            on[d] = on_in[d] & self.on[d];
            off[d] = off_in[d] & self.off[d];
            any |= on[d] | off[d];
        }
        any != 0
    }

    const EMPTY: Closure = Closure {
        on: [0; 9],
        off: [0; 9],
        conflict: u32::MAX,
        off_cells: 0,
    };
}

thread_local! {
    /// The closures each mode's searches made (Nishio, multiple, dynamic), kept between
    /// searches: see [`Kept`].
    static KEPT: RefCell<[Option<Kept>; 3]> = const { RefCell::new([None, None, None]) };
}

/// The closures one mode's searches made, kept for its next search: a closure stays what it
/// is on a board with fewer candidates as long as none of the candidates it reads is gone
/// ([`Kept::update`]), so the next chain step remakes only the closures the step changed.
struct Kept {
    /// The candidates of the board the kept closures hold for.
    cands: [u16; 81],
    /// By assumption.
    closures: Vec<Closure>,
    /// The rounds of each closure's potentials, 1,458 bytes per assumption, read only where
    /// its masks hold the potential (so never cleared).
    rounds: Vec<u8>,
    /// Per assumption, the highest limit its closure serves: `usize::MAX` if it was not cut,
    /// one more than the limit it was cut for if it was, 0 if there is none.
    serves: Vec<usize>,
    /// Per assumption, whether its closure's rounds are written (see
    /// [`Closures::static_masks`]: a closure made from others' has only its masks).
    rounds_made: Vec<bool>,
    /// The assumptions with a closure (`serves` not 0), each once, in no particular order:
    /// [`Kept::update`] tests only these, not all 1,458 entries (a few hundred are kept).
    live: Vec<u16>,
}

impl Kept {
    fn new() -> Kept {
        Kept {
            cands: [0; 81],
            closures: vec![Closure::EMPTY; 1458],
            rounds: vec![0; 1458 * 1458],
            serves: vec![0; 1458],
            rounds_made: vec![false; 1458],
            live: Vec::with_capacity(1458),
        }
    }

    /// Sets the highest limit the closure of `a` serves (not 0), listing `a` in `live` if it
    /// had no closure.
    #[inline]
    fn set_serves(&mut self, a: Id, serves: usize) {
        debug_assert!(serves != 0);
        let s = &mut self.serves[a as usize];
        if *s == 0 {
            self.live.push(a);
        }
        *s = serves;
    }

    /// Keeps the closures that hold on the board with candidates `cands`, drops the others.
    ///
    /// A closure reads a candidate only where it holds a potential of it or of its cell or
    /// house: an on potential turns off the cell's other candidates and the digit's places in
    /// its houses (each then an off potential of the closure), and an off potential reads its
    /// cell's candidates (Y-links) and its digit's places in its houses. So on a board that
    /// lost candidates, and no other change, the rules find the same potentials in the same
    /// rounds if no lost candidate is a potential of the closure, none shares a
    /// house with an off potential of its digit, and (with Y-links) no cell that lost a
    /// candidate holds an off potential. A board with a candidate the kept board lacks (another
    /// puzzle) drops them all.
    fn update(&mut self, cands: &[u16; 81], y: bool) {
        if self.cands == *cands {
            return;
        }
        if (0..81).any(|c| cands[c] & !self.cands[c] != 0) {
            for &a in &self.live {
                self.serves[a as usize] = 0;
            }
            self.live.clear();
            self.cands = *cands;
            return;
        }
        // Per digit: the cells that lost it, and those cells with their peers.
        let mut gone = [0u128; 9];
        let mut near = [0u128; 9];
        let mut cells = 0u128;
        for c in 0..81 {
            let lost = self.cands[c] & !cands[c];
            if lost != 0 {
                cells |= 1 << c;
                for d in bits(lost) {
                    gone[d] |= 1 << c;
                    near[d] |= super::PEER_MASK[c] | 1 << c;
                }
            }
        }
        // Only the digits that lost a candidate (often one or two after an elimination).
        let mut digits = [0usize; 9];
        let mut n = 0;
        for d in 0..9 {
            if gone[d] != 0 {
                digits[n] = d;
                n += 1;
            }
        }
        let digits = &digits[..n];
        let cells = if y { cells } else { 0 };
        let (closures, serves) = (&self.closures, &mut self.serves);
        if let [d] = *digits {
            // One digit lost (most updates): its masks hoisted, the closures' read unrolled.
            let d = d.min(8);
            let (gone, near) = (gone[d], near[d]);
            self.live.retain(|&a| {
                let cl = &closures[a as usize];
                let read = (cl.off_cells & cells) | (cl.on[d] & gone) | (cl.off[d] & near);
                if read != 0 {
                    serves[a as usize] = 0;
                }
                read == 0
            });
        } else {
            self.live.retain(|&a| {
                let cl = &closures[a as usize];
                let mut read = cl.off_cells & cells;
                for &d in digits {
                    read |= (cl.on[d] & gone[d]) | (cl.off[d] & near[d]);
                }
                if read != 0 {
                    serves[a as usize] = 0;
                }
                read == 0
            });
        }
        self.cands = *cands;
    }
}

/// The closures of one search's assumptions, made when first asked for (see [`Closure`]),
/// and kept for the next search of the same mode (see [`Kept`]).
struct Closures {
    /// Y-links (all but Nishio).
    y: bool,
    /// The working grid loses each off potential (all but the static multiple search).
    dynamic: bool,
    orig: [u16; 81],
    /// Cells holding each digit.
    places: [u128; 9],
    /// The places of each digit in cells with another candidate: the on potentials that
    /// remove something.
    useful: [u128; 9],
    /// Places of each digit in each house of the board.
    counts: [[u8; 9]; 27],
    /// Static multiple search only (empty otherwise): per digit, the cells whose off
    /// potential of it turns something on under the static rules (a bivalue cell, a
    /// bilocal house of the digit); the others' offs are not followed further.
    strong: [u128; 9],
    /// Which of [`KEPT`] these are.
    slot: usize,
    kept: Kept,
    queue: Vec<(Id, u8)>,
    /// The queue of [`Closures::make`] (see [`Run::queue`]).
    fifo: Box<[(Id, u8); 729]>,
    /// The working grid of the closure being made (dynamic modes: its candidates with Y-links,
    /// its places per house), copied from `orig` and `counts` only where the mode reads it.
    cur: [u16; 81],
    left: [[u8; 9]; 27],
}

impl Drop for Closures {
    fn drop(&mut self) {
        let kept = std::mem::replace(
            &mut self.kept,
            Kept {
                cands: [0; 81],
                closures: Vec::new(),
                rounds: Vec::new(),
                serves: Vec::new(),
                rounds_made: Vec::new(),
                live: Vec::new(),
            },
        );
        let slot = self.slot;
        let _ = KEPT.try_with(|k| {
            if let Ok(mut k) = k.try_borrow_mut() {
                k[slot] = Some(kept);
            }
        });
    }
}

/// `1 << c` for a cell (or any index below 128), from a table: two loads instead of the
/// variable 128-bit shift (about seven instructions) in the closure kernel's inner tests.
#[inline(always)]
fn cell_bit(c: usize) -> u128 {
    static BITS: [u128; 128] = {
        let mut b = [0u128; 128];
        let mut i = 0;
        while i < 128 {
            b[i] = 1 << i;
            i += 1;
        }
        b
    };
    BITS[c & 127]
}

/// One closure being made.
struct Run<'a> {
    /// The closure's masks, written in place (in [`Kept::closures`]).
    on: &'a mut [u128; 9],
    off: &'a mut [u128; 9],
    cur: &'a mut [u16; 81],
    /// Places of each digit in each house on the working grid (dynamic).
    left: &'a mut [[u8; 9]; 27],
    rounds: &'a mut [u8],
    /// The on potentials to follow, with their rounds: the first `queued` of `queue` (each on
    /// potential is queued at most once, so 729 entries are enough).
    queue: &'a mut [(Id, u8); 729],
    queued: usize,
    orig: &'a [u16; 81],
    places: &'a [u128; 9],
    counts: &'a [[u8; 9]; 27],
    /// See [`Closures::strong`].
    strong: &'a [u128; 9],
}

impl Run<'_> {
    /// Adds "c is not d" found in round r, and the on potentials it completes.
    #[inline(always)]
    fn add_off<const Y: bool, const DYNAMIC: bool>(&mut self, c: usize, d: usize, r: u8) {
        if self.off[d] & cell_bit(c) != 0 {
            return;
        }
        self.add_new_off::<Y, DYNAMIC>(c, d, r);
    }

    /// [`Run::add_off`] for a potential not yet made.
    #[inline(always)]
    fn add_new_off<const Y: bool, const DYNAMIC: bool>(&mut self, c: usize, d: usize, r: u8) {
        let (y, dynamic) = (Y, DYNAMIC);
        let (orig, places, counts) = (self.orig, self.places, self.counts);
        let bit = cell_bit(c);
        self.off[d] |= bit;
        let i = id(c, d, false);
        self.rounds[i as usize] = r;
        let next = r.saturating_add(1);
        if dynamic {
            if y {
                self.cur[c] &= !(1 << d);
                let m = self.cur[c];
                if m != 0 && m & (m - 1) == 0 {
                    self.add_on(c, m.trailing_zeros() as usize, next);
                }
            }
            for &h in &CELL_HOUSES[c] {
                let n = &mut self.left[h as usize][d];
                *n -= 1;
                if *n == 1 {
                    let m = places[d] & !self.off[d] & super::HOUSE_MASK[h as usize];
                    self.add_on(m.trailing_zeros() as usize, d, next);
                }
            }
        } else if self.strong[d] & bit != 0 {
            let rest = orig[c] & !(1 << d);
            if y && rest != 0 && rest & (rest - 1) == 0 {
                self.add_on(c, rest.trailing_zeros() as usize, next);
            }
            for &h in &CELL_HOUSES[c] {
                if counts[h as usize][d] == 2 {
                    let rest = places[d] & super::HOUSE_MASK[h as usize] & !bit;
                    self.add_on(rest.trailing_zeros() as usize, d, next);
                }
            }
        }
    }

    #[inline]
    fn add_on(&mut self, c: usize, d: usize, r: u8) {
        let bit = cell_bit(c);
        if self.on[d] & bit != 0 {
            return;
        }
        self.on[d] |= bit;
        let i = id(c, d, true);
        self.rounds[i as usize] = r;
        self.queue[self.queued] = (i, r);
        self.queued += 1;
    }
}

impl Closures {
    fn new(board: &Board, mode: Mode) -> Closures {
        let mut places = [0u128; 9];
        let mut multi = 0u128;
        for c in 0..81 {
            for d in bits(board.cands[c]) {
                places[d] |= 1 << c;
            }
            if board.cands[c].count_ones() > 1 {
                multi |= 1 << c;
            }
        }
        let slot = match mode {
            Mode::Nishio => 0,
            Mode::Multiple => 1,
            _ => 2,
        };
        let mut kept = KEPT
            .try_with(|k| k.try_borrow_mut().ok().and_then(|mut k| k[slot].take()))
            .ok()
            .flatten()
            .unwrap_or_else(Kept::new);
        kept.update(&board.cands, !mode.nishio());
        let counts: [[u8; 9]; 27] = std::array::from_fn(|h| {
            std::array::from_fn(|d| (places[d] & super::HOUSE_MASK[h]).count_ones() as u8)
        });
        let mut strong = [0u128; 9];
        if !mode.dynamic() {
            for c in 0..81 {
                if two_bits(board.cands[c]) {
                    for d in bits(board.cands[c]) {
                        strong[d] |= 1 << c;
                    }
                }
            }
            for (h, row) in counts.iter().enumerate() {
                for d in 0..9 {
                    if row[d] == 2 {
                        strong[d] |= places[d] & super::HOUSE_MASK[h];
                    }
                }
            }
        }
        Closures {
            y: !mode.nishio(),
            dynamic: mode.dynamic(),
            orig: board.cands,
            places,
            useful: std::array::from_fn(|d| places[d] & multi),
            counts,
            strong,
            slot,
            kept,
            queue: Vec::with_capacity(256),
            fifo: Box::new([(0, 0); 729]),
            cur: [0; 81],
            left: [[0; 9]; 27],
        }
    }

    /// The closure of assumption `a`, made if not yet (or not far enough), for a search keeping
    /// chains of at most `limit` nodes.
    fn get(&mut self, a: Id, limit: usize) -> &Closure {
        if !self.serves(a, limit) {
            // One copy of the kernel per mode, without its tests of the mode.
            let serves = match (self.y, self.dynamic) {
                (false, _) => self.make::<false, true>(a, limit),
                (true, false) => self.make::<true, false>(a, limit),
                (true, true) => self.make::<true, true>(a, limit),
            };
            self.kept.set_serves(a, serves);
            self.kept.rounds_made[a as usize] = true;
        }
        &self.kept.closures[a as usize]
    }

    /// Whether the closure of `a` is made, with its rounds, for `limit`.
    #[inline]
    fn serves(&self, a: Id, limit: usize) -> bool {
        self.kept.serves[a as usize] >= limit && self.kept.rounds_made[a as usize]
    }

    /// The closure of `a` for a search that has kept no chain yet (no limit): its masks only,
    /// the rounds may not be written. In the static multiple search, made from the closures
    /// of others when it can: see [`Closures::static_masks`].
    fn masks(&mut self, a: Id) -> &Closure {
        if self.kept.serves[a as usize] != usize::MAX {
            if !self.y || self.dynamic {
                return self.get(a, usize::MAX);
            }
            self.static_masks(a);
            self.kept.set_serves(a, usize::MAX);
            self.kept.rounds_made[a as usize] = false;
        }
        &self.kept.closures[a as usize]
    }

    /// Makes (into [`Kept::closures`]) the static closure of on assumption `a` without rounds,
    /// reusing the closures already made. A static rule has one premise, so a static closure
    /// is what the assumption reaches along the links, and the closure of each potential it reaches is part of it:
    /// when the search reaches an on potential whose whole closure is kept, it adds that
    /// closure's masks at once instead of following its links (the potentials they add are
    /// never followed either: their own closures are inside it). Its conflict is 0 (a lower
    /// bound, unused: the multiple search has no contradictions).
    #[inline(never)]
    fn static_masks(&mut self, a: Id) {
        let (orig, places, counts) = (&self.orig, &self.places, &self.counts);
        let strong = &self.strong;
        let (closures, serves) = (&self.kept.closures, &self.kept.serves);
        let mut on = [0u128; 9];
        let mut off = [0u128; 9];
        let stack = &mut self.queue;
        stack.clear();
        let (c0, d0) = (id_cell(a), id_digit(a));
        on[d0] = 1 << c0;
        stack.push((a, 0));
        // Turns on "c is d", or adds its kept closure.
        let reach = |on: &mut [u128; 9],
                     off: &mut [u128; 9],
                     stack: &mut Vec<(Id, u8)>,
                     c: usize,
                     d: usize| {
            if on[d] & cell_bit(c) != 0 {
                return;
            }
            let q = id(c, d, true);
            if serves[q as usize] == usize::MAX {
                let k = &closures[q as usize];
                for v in 0..9 {
                    on[v] |= k.on[v];
                    off[v] |= k.off[v];
                }
            } else {
                on[d] |= cell_bit(c);
                stack.push((q, 0));
            }
        };
        while let Some((p, _)) = stack.pop() {
            let (c, d) = (id_cell(p), id_digit(p));
            // Its offs: the cell's other candidates, the digit's places among its peers (only
            // the digits of the cell have any).
            for v in bits(orig[c]) {
                let offs = if v == d {
                    super::PEER_MASK[c] & places[d]
                } else {
                    cell_bit(c)
                };
                let mut m = offs & !off[v];
                off[v] |= m;
                // Only the offs that turn something on are followed.
                m &= strong[v];
                while m != 0 {
                    let o = m.trailing_zeros() as usize;
                    m &= m - 1;
                    // Bivalue cell: the other candidate; bilocal digit: the other place.
                    let rest = orig[o] & !(1 << v);
                    if rest != 0 && rest & (rest - 1) == 0 {
                        reach(&mut on, &mut off, stack, o, rest.trailing_zeros() as usize);
                    }
                    for &h in &CELL_HOUSES[o] {
                        if counts[h as usize][v] == 2 {
                            let other = places[v] & super::HOUSE_MASK[h as usize] & !cell_bit(o);
                            reach(&mut on, &mut off, stack, other.trailing_zeros() as usize, v);
                        }
                    }
                }
            }
        }
        let conflict = if (0..9).any(|v| on[v] & off[v] != 0) {
            0
        } else {
            u32::MAX
        };
        let k = &mut self.kept.closures[a as usize];
        k.on = on;
        k.off = off;
        k.conflict = conflict;
        k.off_cells = off.iter().fold(0, |m, o| m | o);
    }

    /// The round of potential `t` in the closure of `a` (which must hold it).
    #[inline]
    fn round(&self, a: Id, t: Id) -> u32 {
        self.kept.rounds[a as usize * 1458 + t as usize] as u32
    }

    /// Makes the closure of `a` in place (its entry of [`Kept::closures`], its rounds in
    /// [`Kept::rounds`]), cut short once what it would still add could only take part in
    /// chains of more than `limit` nodes: a potential it lacks then has too many ancestors for
    /// any chain of this search that could be kept. Returns the highest limit the closure serves:
    /// if it was cut at round `r`, every potential it lacks has round `r + 1` or more, where
    /// `r + 2 > limit`, so at least `limit + 1` ancestors, and every chain it could be part of
    /// has another branch or potential, so more than `limit + 1` nodes; a closure not cut
    /// serves every limit.
    #[inline(never)]
    fn make<const Y: bool, const DYNAMIC: bool>(&mut self, a: Id, limit: usize) -> usize {
        let y = Y;
        let (orig, places, counts) = (&self.orig, &self.places, &self.counts);
        let base = a as usize * 1458;
        let closure = &mut self.kept.closures[a as usize];
        closure.on = [0; 9];
        closure.off = [0; 9];
        // The working grid, only where the mode reads it.
        if DYNAMIC {
            if Y {
                self.cur = *orig;
            }
            self.left = *counts;
        }
        let mut run = Run {
            on: &mut closure.on,
            off: &mut closure.off,
            cur: &mut self.cur,
            left: &mut self.left,
            rounds: &mut self.kept.rounds[base..base + 1458],
            queue: &mut self.fifo,
            queued: 0,
            orig,
            places,
            counts,
            strong: &self.strong,
        };
        // Adds "c is not d" found in round r, and the on potentials it completes.
        let (c0, d0) = (id_cell(a), id_digit(a));
        if id_on(a) {
            run.add_on(c0, d0, 0);
        } else {
            run.add_off::<Y, DYNAMIC>(c0, d0, 0);
        }
        let mut k = 0;
        let mut cut = None;
        while k < run.queued {
            let (p, r) = run.queue[k];
            k += 1;
            let (c, d) = (id_cell(p), id_digit(p));
            // The queue's rounds never decrease, and on potentials of round r are processed
            // after every potential of round r or less was added.
            // A potential not yet found has round r + 1 or more, so at least r + 2 ancestors:
            // it could take part in no chain of `limit` nodes or fewer.
            if r as usize + 2 > limit {
                cut = Some(r);
                break;
            }
            let next = r.saturating_add(1);
            if DYNAMIC && run.off[d] & cell_bit(c) == 0 && settle_counts() {
                // This on potential turns off every other candidate of its cell and every
                // other place of its digit in its houses, after which each of these counts
                // would reach one at it, an on potential already made, and nothing else can
                // change them but its own off (which only takes them to zero, where nothing
                // follows). So they are set where they trigger nothing: two bits no candidate
                // has (never one bit, nor none), a count of places that never falls to one.
                // Not when it is already off: then the last place left is another.
                if y {
                    run.cur[c] |= 3 << 14;
                }
                for &h in &CELL_HOUSES[c] {
                    run.left[h as usize][d] = 100;
                }
            }
            if DYNAMIC && y {
                // The working grid's candidates of the cell are those not yet off (bits 0 to 8;
                // the settled bits are above), and making one off makes no other off potential:
                // no test of `off` for each.
                for v in bits(run.cur[c] & 0x1ff & !(1 << d)) {
                    run.add_new_off::<Y, DYNAMIC>(c, v, next);
                }
            } else if y {
                for v in bits(orig[c] & !(1 << d)) {
                    run.add_off::<Y, DYNAMIC>(c, v, next);
                }
            }
            // None of these is made yet, and making them makes no other off potential of `d`.
            // By 64-bit halves: a 128-bit trailing-zero count and decrement cost a few
            // instructions more each.
            let m = super::PEER_MASK[c] & places[d] & !run.off[d];
            let mut low = m as u64;
            while low != 0 {
                let o = low.trailing_zeros() as usize;
                low &= low - 1;
                run.add_new_off::<Y, DYNAMIC>(o, d, next);
            }
            let mut high = (m >> 64) as u64;
            while high != 0 {
                let o = 64 + high.trailing_zeros() as usize;
                high &= high - 1;
                run.add_new_off::<Y, DYNAMIC>(o, d, next);
            }
        }
        // The conflict, from the masks once made (each potential's round is written once,
        // when it is made): one pass over the candidates held both on and off, instead of a
        // test at each potential made.
        let mut conflict = u32::MAX;
        if (0..9).fold(0, |m, d| m | (run.on[d] & run.off[d])) != 0 {
            for d in 0..9 {
                let mut m = run.on[d] & run.off[d];
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let i = id(c, d, false) as usize;
                    let lb = run.rounds[i] as u32 + run.rounds[i + 1] as u32 + 2;
                    conflict = conflict.min(lb);
                }
            }
        }
        // A conflict not yet found has a potential of round `cut + 1` or later.
        if let Some(r) = cut {
            conflict = conflict.min(r as u32 + 3);
        }
        closure.off_cells = closure.off.iter().fold(0, |m, o| m | o);
        closure.conflict = conflict;
        cut.map_or(usize::MAX, |_| limit.saturating_add(1))
    }

    /// A lower bound on the complexity of the contradiction assumption `a` leads to, `None` if
    /// it leads to none.
    fn contradiction(&mut self, a: Id, limit: usize) -> Option<usize> {
        let c = self.get(a, limit).conflict;
        (c != u32::MAX).then_some(c as usize)
    }

    /// After [`Closures::common_within`] passed for `branches` at `limit`: propagates the
    /// branches without an outcome in `outs`, one at a time with `get`, while some chain of
    /// them could still be kept; whether one could once all are propagated. With the exact
    /// outcome of some branches, their share of a chain on a target is the number of its
    /// ancestors there (what [`made`] counts), not the rounds' bound: a target must be in every
    /// outcome, remove something, and have at most `limit` nodes, its ancestors in the
    /// propagated branches and the rounds' bound in the others. The propagations it saves
    /// are those of the branches left when no target passes. Without a limit, every chain is
    /// kept: all are propagated.
    fn staged(
        &self,
        board: &Board,
        branches: &[Id],
        outs: &mut [Option<Rc<Outcome>>],
        limit: usize,
        seen: &mut Seen,
        mut get: impl FnMut(usize) -> Rc<Outcome>,
    ) -> bool {
        loop {
            let Some(i) = outs.iter().position(|o| o.is_none()) else {
                return true;
            };
            if limit != usize::MAX
                && outs.iter().any(|o| o.is_some())
                && !self.exact_within(board, branches, outs, limit, seen)
            {
                return false;
            }
            outs[i] = Some(get(i));
        }
    }

    /// [`Closures::staged`] for branches that are on assumptions, whose outcomes `ons` keeps.
    fn staged_ons(
        &self,
        board: &Board,
        branches: &[Id],
        ons: &mut OnCache,
        engine: &Engine,
        limit: usize,
        seen: &mut Seen,
    ) -> bool {
        // At most nine branches (a house's places, a cell's digits): on the stack.
        let mut outs: [Option<Rc<Outcome>>; 9] = Default::default();
        for (o, &a) in outs.iter_mut().zip(branches) {
            *o = ons.0[id_cell(a) * 9 + id_digit(a)].clone();
        }
        let outs = &mut outs[..branches.len()];
        self.staged(board, branches, outs, limit, seen, |i| {
            let a = branches[i];
            ons.get(engine, id_cell(a), id_digit(a))
        })
    }

    /// Whether some potential every closure of `branches` holds (made with rounds for
    /// `limit`) removes something, is in each outcome of `outs`, and has at most `limit`
    /// nodes: its ancestors in each outcome plus the rounds' bound in each other branch.
    fn exact_within(
        &self,
        board: &Board,
        branches: &[Id],
        outs: &[Option<Rc<Outcome>>],
        limit: usize,
        seen: &mut Seen,
    ) -> bool {
        let mut on = [0u128; 9];
        let mut off = [0u128; 9];
        for (i, &a) in branches.iter().enumerate() {
            let cl = &self.kept.closures[a as usize];
            if i == 0 {
                cl.meet(&self.useful, &self.places, &mut on, &mut off);
            } else {
                cl.narrow(&mut on, &mut off);
            }
        }
        for d in 0..9 {
            for (masks, is_on) in [(on[d], true), (off[d], false)] {
                let mut m = masks;
                'target: while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let t = id(c, d, is_on);
                    if !concludes(board, t) {
                        continue;
                    }
                    let mut sum = 0;
                    for (&a, o) in branches.iter().zip(outs) {
                        match o {
                            Some(o) if !o.contains(t) => continue 'target,
                            Some(_) => {}
                            None => sum += self.round(a, t) as usize + 1,
                        }
                    }
                    for o in outs.iter().flatten() {
                        if sum >= limit {
                            continue 'target;
                        }
                        sum += o.walk(t, o.parents(t), seen, limit - sum, |_| {});
                    }
                    if sum <= limit {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Narrows `on` and `off` to the potentials the closure of `a` holds too: the first closure
    /// (`*first`, then cleared) meets `useful` and `places`, the others narrow what is left.
    /// Whether any is left.
    #[inline]
    fn narrow_by(&self, a: Id, first: &mut bool, on: &mut [u128; 9], off: &mut [u128; 9]) -> bool {
        let cl = &self.kept.closures[a as usize];
        let any = if *first {
            cl.meet(&self.useful, &self.places, on, off)
        } else {
            cl.narrow(on, off)
        };
        *first = false;
        any
    }

    /// Whether some potential that every assumption of `branches` implies, and that would
    /// remove something, has at most `limit` distinct ancestors summed over the branches by
    /// the rounds' bound: if not, no chain of these branches can be kept.
    fn common_within(&mut self, branches: &[Id], limit: usize) -> bool {
        // Only candidates can be implied, and an on potential removes something if and only if
        // its cell has another candidate.
        let n = branches.len();
        if limit < n {
            return false;
        }
        // The first closure meets `useful` and `places`, the others narrow what is left.
        let mut on = [0u128; 9];
        let mut off = [0u128; 9];
        let mut first = true;
        // The closures already made first: if they have nothing in common, the others need
        // not be made.
        let mut todo = 0u32;
        for (i, &a) in branches.iter().enumerate() {
            let made = if limit == usize::MAX {
                self.kept.serves[a as usize] == usize::MAX
            } else {
                self.serves(a, limit)
            };
            if made {
                if !self.narrow_by(a, &mut first, &mut on, &mut off) {
                    return false;
                }
            } else {
                todo |= 1 << i;
            }
        }
        while todo != 0 {
            let a = branches[todo.trailing_zeros() as usize];
            todo &= todo - 1;
            // A potential a cut closure lacks could only be part of longer chains (the cut
            // was made for a limit no lower than this one).
            if limit == usize::MAX {
                self.masks(a);
            } else {
                self.get(a, limit);
            }
            if !self.narrow_by(a, &mut first, &mut on, &mut off) {
                return false;
            }
        }
        if limit == usize::MAX {
            // Some common potential is left, and any number of nodes can be kept.
            return true;
        }
        for d in 0..9 {
            for (masks, is_on) in [(on[d], true), (off[d], false)] {
                let mut m = masks;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let t = id(c, d, is_on);
                    let mut sum = n;
                    for &a in branches {
                        sum += self.round(a, t) as usize;
                        if sum > limit {
                            break;
                        }
                    }
                    if sum <= limit {
                        return true;
                    }
                }
            }
        }
        false
    }
}

// ---------------------------------------------------------------------------------------------
// Nesting (SE's levels 2 to 5).

impl Inner {
    fn from_found(f: Found) -> Inner {
        let mut elims: Vec<Id> = f
            .eliminations
            .iter()
            .map(|(c, d)| id(c.as_index(), d.as_index(), false))
            .collect();
        elims.sort_unstable();
        Inner {
            rating: f.rating,
            complexity: f.complexity,
            sort_key: f.sort_key,
            elims,
            rule_on: f.rule_on,
            key: f.key,
        }
    }
}

/// SE's `getAdvancedPotentials` beyond the simple techniques, for an outer chain of `level` 2
/// or more whose propagation stalled with working candidates `cur` (the outer board's are
/// `orig`). The chains of the next family that finds any are sorted as SE sorts hints (rating,
/// complexity, kind; stable), and each turns off what it removes, resting on the candidates
/// the outer chain removed from the cells and houses its strong links pass through (SE's
/// `getRuleParents`); a chain resting on none is skipped, as it exists without the outer chain.
///
/// The families by level: 2, SE's "Forcing Chains & Cycles"; 3, those, then multiple (cell and
/// region) forcing chains; 4, dynamic forcing chains; 5 and up, dynamic forcing chains, then
/// dynamic forcing chains of level `level - 3`.
fn nested_offs(
    board: &Board,
    level: u8,
    cur: &[u16; 81],
    orig: &[u16; 81],
    clean: bool,
    clean_multiple: bool,
    budget: &Budget,
) -> Vec<(Id, Vec<Id>, Option<Nest>)> {
    let mut inner = board.clone();
    inner.cands = *cur;
    inner.explain = false;
    let families: &[Family] = match level {
        2 => &[Family::Static],
        3 => &[Family::Static, Family::Forcing(Mode::Multiple)],
        4 => &[Family::Forcing(Mode::Dynamic)],
        l => &[
            Family::Forcing(Mode::Dynamic),
            Family::Forcing(Mode::Nested(l - 3)),
        ],
    };
    for fam in families {
        let mut hints: Vec<Inner> = match *fam {
            Family::Static => super::nested::static_hints(&inner, clean.then_some(orig), budget),
            Family::Forcing(m) => {
                // Level 3's multiple chains on a board that had none: only those resting on a
                // removal can count, so the others need not be made.
                let prune = (m == Mode::Multiple && clean_multiple).then(|| Prune {
                    orig,
                    reach: super::nested::new_link_reach(&inner, orig),
                });
                all_chains(&inner, m, true, prune.as_ref(), budget)
                    .into_iter()
                    .map(Inner::from_found)
                    .collect()
            }
        };
        if budget.spent() {
            return Vec::new();
        }
        hints.sort_by_key(|h| (h.rating, h.complexity, h.sort_key));
        let mut out = Vec::new();
        let mut parents: Vec<Id> = Vec::new();
        for h in &hints {
            parents.clear();
            for &(p, cause) in &h.rule_on {
                let (c, d) = (id_cell(p), id_digit(p));
                if cause == CAUSE_CELL {
                    for v in bits(orig[c] & !cur[c]) {
                        let q = id(c, v, false);
                        if !parents.contains(&q) {
                            parents.push(q);
                        }
                    }
                } else if cause >= CAUSE_HOUSE {
                    for &o in &HOUSE_CELLS[(cause - CAUSE_HOUSE) as usize] {
                        let o = o as usize;
                        if orig[o] >> d & 1 == 1 && cur[o] >> d & 1 == 0 {
                            let q = id(o, d, false);
                            if !parents.contains(&q) {
                                parents.push(q);
                            }
                        }
                    }
                }
            }
            if parents.is_empty() {
                continue;
            }
            let nest = Nest {
                key: h.key,
                complexity: h.complexity as u32,
            };
            for &e in &h.elims {
                out.push((e, parents.clone(), Some(nest)));
            }
        }
        if !out.is_empty() {
            return out;
        }
    }
    Vec::new()
}

/// What an inner multiple search (level 3) on a working grid may skip, when the outer board has
/// no multiple forcing chain: a cell or region forcing chain whose cell (or house) lost no
/// candidate and none of whose branches can reach a strong link the outer board lacks would
/// rest on no removal (SE's rule parents would be empty), so it is skipped anyway.
pub(crate) struct Prune<'a> {
    orig: &'a [u16; 81],
    /// Bit 0 per identity: it reaches a new strong link (`nested::new_link_reach`).
    reach: Vec<u8>,
}

impl Prune<'_> {
    fn cell_useful(&self, board: &Board, c: usize) -> bool {
        self.orig[c] != board.cands[c]
            || bits(board.cands[c]).any(|v| self.reach[id(c, v, true) as usize] & 1 != 0)
    }

    fn region_useful(&self, board: &Board, h: usize, d: usize) -> bool {
        HOUSE_CELLS[h].iter().any(|&o| {
            let o = o as usize;
            let (had, has) = (self.orig[o] >> d & 1 == 1, board.cands[o] >> d & 1 == 1);
            (had && !has) || (has && self.reach[id(o, d, true) as usize] & 1 != 0)
        })
    }
}

#[derive(Clone, Copy)]
enum Family {
    Static,
    Forcing(Mode),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;
    use std::collections::VecDeque;

    /// A puzzle of the forum's hardest list (HardestDatabase110626), rated 10.3/1.2/1.2 by SE
    /// 1.2.1, after its first three steps: SE's next step is "Region Forcing Chains: 5 in row
    /// ==> R6C5.8 off", Dynamic Region Forcing Chains (+ Forcing Chains), 10.3.
    fn board_before_level_two() -> Board {
        let p: Puzzle =
            "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2"
                .parse()
                .unwrap();
        let mut b = Board::new(&p);
        for _ in 0..3 {
            let s = super::super::next_step(&b).unwrap();
            b.apply(&s);
        }
        b
    }

    #[test]
    fn level_two_finds_ses_region_chain_at_its_rating() {
        let b = board_before_level_two();
        assert!(forcing_chains(&b, Mode::DynamicPlus).is_none());
        let s = forcing_chains(&b, Mode::Nested(2)).expect("a level-2 chain");
        assert_eq!(s.rating, Rating(103));
        assert_eq!(
            s.technique,
            "Dynamic Region Forcing Chains (+ Forcing Chains)"
        );
        assert_eq!(s.eliminations, vec![(cell(5 * 9 + 4), digit(7))]);
        assert!(s.text.contains("wherever 5 goes in row 6"), "{}", s.text);
    }

    #[test]
    fn nested_chain_complexity_counts_the_inner_chains() {
        // 10.3 is 9.5 plus SE's length bonus 0.8: 51 to 66 nodes, the outer chain's own and
        // those of the inner chains it rests on.
        let b = board_before_level_two();
        let all = all_chains(&b, Mode::Nested(2), false, None, &Budget::unlimited());
        let best = all
            .iter()
            .min_by_key(|f| (f.rating, f.complexity, f.sort_key))
            .unwrap();
        assert_eq!(best.rating, 103);
        assert!((51..=66).contains(&best.complexity), "{}", best.complexity);
        assert_eq!(length_bonus(best.complexity), 8);
    }

    #[test]
    fn keeping_only_better_chains_takes_the_same_step() {
        // Along the path of a top1465 puzzle SE rates 9.0, at every position of a chain step,
        // a search that keeps every chain and one that keeps only those beating the best so far
        // (`Collector`) take the same chain.
        let p: Puzzle =
            "..2...9..9....6..18..4...3.....6..5..3...82........3.7.2.9..1..6.1.5.....7...4..."
                .parse()
                .unwrap();
        let mut b = Board::new(&p);
        let budget = Budget::unlimited();
        let best = |v: &[Found]| {
            v.iter()
                .enumerate()
                .min_by_key(|(i, f)| (f.rating, f.complexity, f.sort_key, *i))
                .map(|(_, f)| {
                    (
                        f.rating,
                        f.complexity,
                        f.sort_key,
                        f.placements.clone(),
                        f.eliminations.clone(),
                    )
                })
        };
        let mut compared = 0;
        while let Some(step) = super::super::next_step(&b) {
            if step.rating.0 >= 75 {
                for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
                    let all = all_chains(&b, mode, true, None, &budget);
                    let kept = all_chains(&b, mode, false, None, &budget);
                    assert_eq!(best(&all), best(&kept), "{mode:?}");
                    assert!(kept.len() <= all.len());
                    compared += 1;
                }
            }
            b.apply(&step);
        }
        assert!(compared >= 3, "{compared}");
    }

    /// The boards of the chain steps (7.5 and up) along the path of a top1465 puzzle SE rates
    /// 9.0.
    fn chain_boards() -> Vec<Board> {
        let p: Puzzle =
            "..2...9..9....6..18..4...3.....6..5..3...82........3.7.2.9..1..6.1.5.....7...4..."
                .parse()
                .unwrap();
        let mut b = Board::new(&p);
        let mut out = Vec::new();
        while let Some(step) = super::super::next_step(&b) {
            if step.rating.0 >= 75 {
                out.push(b.clone());
            }
            b.apply(&step);
        }
        out
    }

    #[test]
    fn closure_is_the_propagation_and_its_rounds_bound_the_ancestors() {
        // On every assumption of every chain board, in the three modes that use closures: the
        // closure holds exactly propagate's potentials when propagate meets no contradiction,
        // a superset of them and a conflict when it does, and each potential's round plus one
        // is at most its number of ancestors in propagate's outcome.
        let budget = Budget::unlimited();
        let mut seen = Seen::new();
        let (mut checked, mut absurd) = (0, 0);
        for b in chain_boards() {
            for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
                let engine = engine(&b, mode, false, &budget);
                let mut closures = Closures::new(&b, mode);
                for c in 0..81 {
                    for d in bits(b.cands[c]) {
                        for on in [true, false] {
                            let a = id(c, d, on);
                            let exact = engine.assume(a);
                            let cl = *closures.get(a, usize::MAX);
                            let mut held = ([0u128; 9], [0u128; 9]);
                            for n in &exact.nodes {
                                let (c, d) = (id_cell(n.id), id_digit(n.id));
                                if id_on(n.id) {
                                    held.0[d] |= 1 << c;
                                } else {
                                    held.1[d] |= 1 << c;
                                }
                                let r = closures.round(a, n.id) as usize;
                                let ancestors =
                                    exact.ancestors(n.id, exact.parents(n.id), &mut seen);
                                assert!(r < ancestors, "{mode:?} {a}: round {r}, {ancestors}");
                            }
                            if exact.absurd.is_some() {
                                absurd += 1;
                                assert!(cl.conflict != u32::MAX, "{mode:?} {a}");
                                for d in 0..9 {
                                    assert_eq!(held.0[d] & !cl.on[d], 0, "{mode:?} {a}");
                                    assert_eq!(held.1[d] & !cl.off[d], 0, "{mode:?} {a}");
                                }
                            } else {
                                assert_eq!(cl.conflict, u32::MAX, "{mode:?} {a}");
                                assert_eq!((held.0, held.1), (cl.on, cl.off), "{mode:?} {a}");
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000 && absurd > 100, "{checked} {absurd}");
    }

    #[test]
    fn conflict_is_the_least_round_sum_of_a_candidate_on_and_off() {
        // Every assumption of every chain board, the three kernels, several limits: the
        // conflict is the least `round(on) + round(off) + 2` over the candidates held both on
        // and off, and no more than the round cut plus three when the closure was cut (the
        // first round of on potentials at least `limit - 1`: an on assumption's on potentials
        // have even rounds, an off assumption's odd ones); `u32::MAX` if neither.
        let (mut conflicts, mut cut) = (0, 0);
        for b in chain_boards() {
            for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
                let mut cl = Closures::new(&b, mode);
                for limit in [usize::MAX, 12, 7] {
                    for a in (0..1458).filter(|&a| b.cands[id_cell(a)] >> id_digit(a) & 1 == 1) {
                        let serves = match mode {
                            Mode::Nishio => cl.make::<false, true>(a, limit),
                            Mode::Multiple => cl.make::<true, false>(a, limit),
                            _ => cl.make::<true, true>(a, limit),
                        };
                        let x = cl.kept.closures[a as usize];
                        let mut want = u32::MAX;
                        for d in 0..9 {
                            for c in 0..81 {
                                if (x.on[d] & x.off[d]) >> c & 1 == 1 {
                                    let sum = cl.round(a, id(c, d, true))
                                        + cl.round(a, id(c, d, false))
                                        + 2;
                                    want = want.min(sum);
                                }
                            }
                        }
                        if want != u32::MAX {
                            conflicts += 1;
                        }
                        if serves != usize::MAX {
                            cut += 1;
                            let first = limit as u32 - 1;
                            let r = if first % 2 == u32::from(!id_on(a)) {
                                first
                            } else {
                                first + 1
                            };
                            want = want.min(r + 3);
                        }
                        assert_eq!(x.conflict, want, "{mode:?} {a} {limit}");
                    }
                }
            }
        }
        assert!(conflicts > 100 && cut > 100, "{conflicts} {cut}");
    }

    /// `live` lists each assumption with a closure once, and no other.
    fn assert_live_lists_the_closures(kept: &Kept) {
        let mut listed = vec![false; 1458];
        for &a in &kept.live {
            assert!(!listed[a as usize], "{a} listed twice");
            listed[a as usize] = true;
        }
        for a in 0..1458 {
            assert_eq!(listed[a], kept.serves[a] != 0, "{a}");
        }
    }

    #[test]
    fn live_closures_are_listed_along_searches() {
        // Whole searches along the chain boards (each with fewer candidates than the one
        // before; the kept closures are updated at each), then another puzzle (all dropped):
        // after each, the kept closures' list holds exactly the assumptions with a closure.
        let mut boards = chain_boards();
        boards.push(board_before_level_two());
        let mut listed = 0;
        for b in &boards {
            for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
                forcing_chains(b, mode);
                KEPT.with(|k| {
                    let k = k.borrow();
                    let slot = match mode {
                        Mode::Nishio => 0,
                        Mode::Multiple => 1,
                        _ => 2,
                    };
                    let kept = k[slot].as_ref().expect("kept closures");
                    assert_live_lists_the_closures(kept);
                    listed += kept.live.len();
                });
            }
        }
        assert!(listed > 1000, "{listed}");
    }

    #[test]
    fn kept_closures_are_the_closures_of_the_new_board() {
        // Along the chain boards of a path (each with fewer candidates than the one before),
        // in the three modes: every closure, kept from an earlier board or made anew, has the
        // masks, conflict and rounds of the closure made from nothing on this board.
        let mut kept = 0;
        for b in chain_boards() {
            for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
                let assumptions: Vec<Id> = (0..1458)
                    .filter(|&a| b.cands[id_cell(a)] >> id_digit(a) & 1 == 1)
                    .collect();
                let mut cl = Closures::new(&b, mode);
                let mut fresh = Closures::new(&b, mode);
                fresh.kept = Kept::new();
                kept += assumptions
                    .iter()
                    .filter(|&&a| cl.kept.serves[a as usize] == usize::MAX)
                    .count();
                assert_live_lists_the_closures(&cl.kept);
                for &a in &assumptions {
                    let x = *cl.get(a, usize::MAX);
                    let y = *fresh.get(a, usize::MAX);
                    assert!(
                        (x.on, x.off, x.conflict) == (y.on, y.off, y.conflict),
                        "{mode:?} {a}"
                    );
                    for t in 0..1458 {
                        let (c, d) = (id_cell(t), id_digit(t));
                        let m = if id_on(t) { y.on[d] } else { y.off[d] };
                        if m >> c & 1 == 1 {
                            assert_eq!(cl.round(a, t), fresh.round(a, t), "{mode:?} {a} {t}");
                        }
                    }
                }
                assert_live_lists_the_closures(&cl.kept);
                assert_live_lists_the_closures(&fresh.kept);
                // The kept set of this board for the next, not the fresh one.
                drop(fresh);
                drop(cl);
            }
        }
        assert!(kept > 500, "{kept}");
    }

    #[test]
    fn settled_counts_leave_the_closures_unchanged() {
        // On every assumption of every chain board, for several limits: the same masks,
        // conflict, rounds and served limit with the counts of on potentials settled as
        // without.
        let mut compared = 0;
        for b in chain_boards() {
            for mode in [Mode::Nishio, Mode::Dynamic] {
                let mut cl = Closures::new(&b, mode);
                for limit in [usize::MAX, 12, 7] {
                    for a in (0..1458).filter(|&a| b.cands[id_cell(a)] >> id_digit(a) & 1 == 1) {
                        let mut run = |off: bool| {
                            SETTLE_OFF.with(|f| f.set(off));
                            let serves = if mode == Mode::Nishio {
                                cl.make::<false, true>(a, limit)
                            } else {
                                cl.make::<true, true>(a, limit)
                            };
                            (closure_record(&cl, a), serves)
                        };
                        let with = run(false);
                        let without = run(true);
                        SETTLE_OFF.with(|f| f.set(false));
                        assert!(with == without, "{mode:?} {a} {limit}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 5000, "{compared}");
    }

    /// A kept closure as the tests compare it: its masks, its conflict and the round of each
    /// potential it holds (255 where it holds none).
    fn closure_record(cl: &Closures, a: Id) -> ([u128; 9], [u128; 9], u32, Vec<u8>) {
        let x = cl.kept.closures[a as usize];
        let rounds = (0..1458)
            .map(|t| {
                let (c, d) = (id_cell(t), id_digit(t));
                let m = if id_on(t) { x.on[d] } else { x.off[d] };
                if m >> c & 1 == 1 {
                    cl.round(a, t) as u8
                } else {
                    255
                }
            })
            .collect();
        (x.on, x.off, x.conflict, rounds)
    }

    #[test]
    fn static_closures_follow_only_the_strong_offs() {
        // Multiple mode: `strong` holds the candidates of bivalue cells and of digits with two
        // places in a house, and nothing in the dynamic modes; the static kernel and
        // `static_masks` give the same closures (masks, conflict, rounds, served limit) as when
        // every off potential is followed.
        let mut compared = 0;
        for b in chain_boards() {
            for mode in [Mode::Nishio, Mode::Dynamic] {
                assert_eq!(Closures::new(&b, mode).strong, [0; 9]);
            }
            let mut cl = Closures::new(&b, Mode::Multiple);
            for c in 0..81 {
                for d in bits(b.cands[c]) {
                    let bilocal = CELL_HOUSES[c].iter().any(|&h| {
                        HOUSE_CELLS[h as usize]
                            .iter()
                            .filter(|&&o| b.cands[o as usize] >> d & 1 == 1)
                            .count()
                            == 2
                    });
                    let strong = b.cands[c].count_ones() == 2 || bilocal;
                    assert_eq!(cl.strong[d] >> c & 1 == 1, strong, "{c} {d}");
                }
            }
            assert!((0..9).all(|d| cl.strong[d] & !cl.places[d] == 0));
            let strong = cl.strong;
            let cands = (0..1458).filter(|&a| b.cands[id_cell(a)] >> id_digit(a) & 1 == 1);
            for limit in [usize::MAX, 12, 7] {
                for a in cands.clone() {
                    let mut run = |all: bool| {
                        cl.strong = if all { [!0; 9] } else { strong };
                        let serves = cl.make::<true, false>(a, limit);
                        (closure_record(&cl, a), serves)
                    };
                    let with = run(false);
                    let without = run(true);
                    assert!(with == without, "{a} {limit}");
                    compared += 1;
                }
            }
            // Masks without rounds, made from the closures already made, in the same order.
            let masks = |all: bool| {
                let mut cl = Closures::new(&b, Mode::Multiple);
                cl.kept.update(&[0; 81], true);
                cl.kept.update(&b.cands, true);
                if all {
                    cl.strong = [!0; 9];
                }
                cands
                    .clone()
                    .filter(|&a| id_on(a))
                    .map(|a| {
                        let x = *cl.masks(a);
                        (x.on, x.off, x.conflict)
                    })
                    .collect::<Vec<_>>()
            };
            assert!(masks(false) == masks(true));
        }
        assert!(compared > 1000, "{compared}");
    }

    /// What two searches must agree on about a chain: rating, complexity, kind, eliminations.
    type ChainKey = (u16, usize, u8, Vec<(Cell, Digit)>);

    fn chain_key(v: &[Found]) -> Vec<ChainKey> {
        v.iter()
            .map(|f| (f.rating, f.complexity, f.sort_key, f.eliminations.clone()))
            .collect()
    }

    #[test]
    fn searches_with_closures_keep_the_same_chains() {
        // The closures only leave out chains that could not be kept: with them and without
        // them, the searches keep the same chains (Nishio, multiple, dynamic) on every chain
        // board.
        let budget = Budget::unlimited();
        let mut compared = 0;
        for b in chain_boards() {
            for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
                let with = chains_of(&engine(&b, mode, false, &budget), None);
                CLOSURES_OFF.with(|f| f.set(true));
                let without = chains_of(&engine(&b, mode, false, &budget), None);
                CLOSURES_OFF.with(|f| f.set(false));
                assert_eq!(chain_key(&with), chain_key(&without), "{mode:?}");
                compared += with.len();
            }
        }
        assert!(compared > 0);
    }

    #[test]
    fn staged_propagations_reject_only_chains_that_cannot_be_kept() {
        // On every chain board, in the multiple and dynamic modes, for the branches of each
        // double, region and cell chain and several limits: where the closures pass them and
        // the exact ancestors of some branches (the others by their rounds) reject them, no
        // potential common to all the branches' outcomes that removes something has at most
        // `limit` nodes summed over their exact ancestors (what `made` counts), so no chain of
        // them could be kept.
        let budget = Budget::unlimited();
        let mut seen = Seen::new();
        let (mut rejected, mut passed) = (0, 0);
        for b in chain_boards() {
            for mode in [Mode::Multiple, Mode::Dynamic] {
                let engine = engine(&b, mode, false, &budget);
                let mut cl = Closures::new(&b, mode);
                let mut sets: Vec<Vec<Id>> = Vec::new();
                for c in 0..81 {
                    let m = b.cands[c];
                    if b.values[c] == 0 && m.count_ones() >= 2 {
                        sets.push(bits(m).map(|d| id(c, d, true)).collect());
                        if mode.dynamic() {
                            for d in bits(m) {
                                sets.push(vec![id(c, d, true), id(c, d, false)]);
                            }
                        }
                    }
                }
                for h in 0..27 {
                    for d in 0..9 {
                        let pos = b.positions(h, d);
                        if pos.count_ones() >= 2 {
                            sets.push(
                                bits(pos)
                                    .map(|k| id(HOUSE_CELLS[h][k] as usize, d, true))
                                    .collect(),
                            );
                        }
                    }
                }
                let exact: Vec<Option<Rc<Outcome>>> = (0..1458)
                    .map(|a| {
                        (b.cands[id_cell(a)] >> id_digit(a) & 1 == 1)
                            .then(|| Rc::new(engine.assume(a)))
                    })
                    .collect();
                for limit in [40, 25, 15, 10] {
                    for branches in &sets {
                        if !cl.common_within(branches, limit) {
                            continue;
                        }
                        for known in 1..branches.len() {
                            let outs: Vec<Option<Rc<Outcome>>> = branches
                                .iter()
                                .enumerate()
                                .map(|(i, &a)| {
                                    (i < known).then(|| exact[a as usize].clone().unwrap())
                                })
                                .collect();
                            if cl.exact_within(&b, branches, &outs, limit, &mut seen) {
                                passed += 1;
                                continue;
                            }
                            rejected += 1;
                            let all: Vec<&Outcome> = branches
                                .iter()
                                .map(|&a| &**exact[a as usize].as_ref().unwrap())
                                .collect();
                            for t in common_targets(all.iter().copied()) {
                                if !concludes(&b, t) {
                                    continue;
                                }
                                let nodes: usize = all
                                    .iter()
                                    .map(|o| o.ancestors(t, o.parents(t), &mut seen))
                                    .sum();
                                assert!(nodes > limit, "{mode:?} {branches:?} {limit} {t}");
                            }
                        }
                    }
                }
            }
        }
        assert!(rejected > 100 && passed > 100, "{rejected} {passed}");
    }

    /// The propagation as the eighth round wrote it (below level 1, from the assumption): each
    /// potential's links collected first, then applied in order, the houses' places tested
    /// with `count_ones`. [`Engine::propagate`] must give the same nodes, in the same order,
    /// with the same parents and causes, and the same contradiction.
    fn reference_propagation(board: &Board, mode: Mode, a: Id) -> Outcome {
        let orig = &board.cands;
        let mut cur = *orig;
        let mut cur_pos: [[u16; 9]; 27] =
            std::array::from_fn(|h| std::array::from_fn(|d| board.positions(h, d)));
        let orig_pos = cur_pos;
        let (y, dynamic) = (!mode.nishio(), mode.dynamic());
        let place = |h: usize, c: usize| HOUSE_CELLS[h].iter().position(|&o| o as usize == c);
        let mut out = Outcome::new();
        out.add(a, &[]);
        let mut pend_on: VecDeque<Id> = out.ons().collect();
        let mut pend_off: VecDeque<Id> = out.offs().collect();
        loop {
            let mut made: Vec<(Id, Vec<Id>, u8)> = Vec::new();
            if let Some(p) = pend_on.pop_front() {
                let (c, d) = (id_cell(p), id_digit(p));
                if y {
                    for v in bits(cur[c] & !(1 << d)) {
                        made.push((id(c, v, false), vec![p], CAUSE_NONE));
                    }
                }
                for &o in SE_PEERS[c].iter() {
                    if cur[o as usize] >> d & 1 == 1 {
                        made.push((id(o as usize, d, false), vec![p], CAUSE_NONE));
                    }
                }
                for (q, ps, _) in made {
                    if out.contains(q | 1) {
                        let conj = q | 1;
                        out.absurd = Some([
                            (conj, out.parents(conj).to_vec(), out.cause(conj)),
                            (q, ps, CAUSE_NONE),
                        ]);
                        return out;
                    }
                    if !out.contains(q) {
                        out.add(q, &ps);
                        pend_off.push_back(q);
                    }
                }
            } else if let Some(p) = pend_off.pop_front() {
                let (c, d) = (id_cell(p), id_digit(p));
                if y && cur[c].count_ones() == 2 && cur[c] >> d & 1 == 1 {
                    let v = (cur[c] & !(1 << d)).trailing_zeros() as usize;
                    let mut ps = vec![p];
                    ps.extend(bits(orig[c] & !cur[c]).map(|w| id(c, w, false)));
                    made.push((id(c, v, true), ps, CAUSE_CELL));
                }
                for h in regions(c) {
                    let pos = cur_pos[h][d];
                    let at = place(h, c).unwrap();
                    if pos.count_ones() == 2 && pos >> at & 1 == 1 {
                        let k = (pos & !(1 << at)).trailing_zeros() as usize;
                        let q = id(HOUSE_CELLS[h][k] as usize, d, true);
                        if !made.iter().any(|m| m.0 == q) {
                            let mut ps = vec![p];
                            ps.extend(
                                bits(orig_pos[h][d] & !pos)
                                    .map(|k2| id(HOUSE_CELLS[h][k2] as usize, d, false)),
                            );
                            made.push((q, ps, CAUSE_HOUSE + h as u8));
                        }
                    }
                }
                if dynamic && cur[c] >> d & 1 == 1 {
                    cur[c] &= !(1 << d);
                    for &h in &CELL_HOUSES[c] {
                        cur_pos[h as usize][d] &= !(1 << place(h as usize, c).unwrap());
                    }
                }
                for (q, ps, cause) in made {
                    let conj = q & !1;
                    if out.contains(conj) {
                        out.absurd = Some([
                            (q, ps, cause),
                            (conj, out.parents(conj).to_vec(), CAUSE_NONE),
                        ]);
                        return out;
                    }
                    if !out.contains(q) {
                        out.add_full(q, &ps, cause, None);
                        pend_on.push_back(q);
                    }
                }
            } else {
                return out;
            }
        }
    }

    #[test]
    fn propagation_applies_links_as_the_reference_does() {
        // Every assumption of every chain board, in the three modes below level 1: the same
        // nodes in the same order, parents, causes and contradiction as the reference.
        let budget = Budget::unlimited();
        let mut compared = 0;
        let mut absurd = 0;
        for b in chain_boards() {
            for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
                let engine = engine(&b, mode, false, &budget);
                assert_eq!(engine.orig_pos, b.places());
                for c in 0..81 {
                    if b.values[c] != 0 {
                        continue;
                    }
                    for d in bits(b.cands[c]) {
                        for a in [id(c, d, true), id(c, d, false)] {
                            let got = engine.assume(a);
                            let want = reference_propagation(&b, mode, a);
                            assert_eq!(got.nodes.len(), want.nodes.len(), "{mode:?} {a}");
                            for (g, w) in got.nodes.iter().zip(&want.nodes) {
                                assert_eq!(g.id, w.id, "{mode:?} {a}");
                                assert_eq!(g.cause, w.cause, "{mode:?} {a}");
                                assert_eq!(got.parents(g.id), want.parents(w.id), "{mode:?} {a}");
                            }
                            assert_eq!(got.absurd, want.absurd, "{mode:?} {a}");
                            absurd += got.absurd.is_some() as usize;
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 1000 && absurd > 100, "{compared} {absurd}");
    }

    #[test]
    fn two_bits_and_se_houses_are_what_they_say() {
        for m in 0..=u16::MAX {
            assert_eq!(two_bits(m), m.count_ones() == 2, "{m}");
        }
        for c in 0..81 {
            let hs = regions(c);
            for (i, &(h, at)) in SE_HOUSES[c].iter().enumerate() {
                assert_eq!(h as usize, hs[i], "{c}");
                assert_eq!(HOUSE_CELLS[h as usize][at as usize] as usize, c, "{c}");
            }
        }
        // `se_peer_places` walks SE's peers in their order, those with the digit only.
        let mut boards = chain_boards();
        boards.push(Board::new(&Puzzle::default()));
        for b in boards {
            let pos = b.places();
            for c in 0..81 {
                for d in 0..9 {
                    let walked: Vec<u8> = se_peer_places(c, d, &pos)
                        .into_iter()
                        .flat_map(|(h, m)| bits(m).map(move |k| HOUSE_CELLS[h][k]))
                        .collect();
                    let want: Vec<u8> = SE_PEERS[c]
                        .iter()
                        .copied()
                        .filter(|&o| b.cands[o as usize] >> d & 1 == 1)
                        .collect();
                    assert_eq!(walked, want, "{c} {d}");
                }
            }
        }
    }

    #[test]
    fn cell_bits_are_the_shifts() {
        for c in 0..128 {
            assert_eq!(cell_bit(c), 1u128 << c, "{c}");
        }
    }

    #[test]
    fn meet_is_narrow_on_a_copy() {
        // On every chain board, for pairs of closures (dynamic mode): meeting the first with
        // `useful` and `places` gives what narrowing a copy of them did, and the second
        // narrows the same way.
        let mut compared = 0;
        for b in chain_boards() {
            let mut cl = Closures::new(&b, Mode::Dynamic);
            let assumptions: Vec<Id> = (0..1458)
                .filter(|&a| b.cands[id_cell(a)] >> id_digit(a) & 1 == 1)
                .collect();
            for pair in assumptions.windows(2).step_by(7) {
                cl.get(pair[0], usize::MAX);
                cl.get(pair[1], usize::MAX);
                let (x, y) = (
                    cl.kept.closures[pair[0] as usize],
                    cl.kept.closures[pair[1] as usize],
                );
                let (mut on1, mut off1) = (cl.useful, cl.places);
                let any1 = x.narrow(&mut on1, &mut off1);
                let (mut on2, mut off2) = ([0u128; 9], [0u128; 9]);
                let any2 = x.meet(&cl.useful, &cl.places, &mut on2, &mut off2);
                assert_eq!((any1, on1, off1), (any2, on2, off2), "{pair:?}");
                assert_eq!(y.narrow(&mut on1, &mut off1), y.narrow(&mut on2, &mut off2));
                assert_eq!((on1, off1), (on2, off2), "{pair:?}");
                for d in 0..9 {
                    assert_eq!(on1[d], cl.places[d] & x.on[d] & y.on[d] & cl.useful[d]);
                    assert_eq!(off1[d], cl.places[d] & x.off[d] & y.off[d]);
                }
                compared += 1;
            }
        }
        assert!(compared > 100, "{compared}");
    }

    #[test]
    fn reused_search_tables_find_the_same_chains() {
        // The outcome table and walk marks a search leaves to the next (per thread) are
        // emptied: searching the same board again, after a search of another mode and board,
        // keeps the same chains, and the tables left hold no outcome.
        let budget = Budget::unlimited();
        let boards = chain_boards();
        let mut compared = 0;
        for (i, b) in boards.iter().enumerate() {
            for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
                let first = all_chains(b, mode, false, None, &budget);
                let other = &boards[(i + 1) % boards.len()];
                all_chains(other, Mode::Dynamic, false, None, &budget);
                let again = all_chains(b, mode, false, None, &budget);
                assert_eq!(chain_key(&first), chain_key(&again), "{mode:?}");
                SEARCH_SCRATCH.with(|s| {
                    let s = s.borrow();
                    assert!(!s.is_empty());
                    for (ons, _) in s.iter() {
                        assert!(ons.0.iter().all(Option::is_none) && ons.1.is_empty());
                    }
                });
                compared += first.len();
            }
        }
        assert!(compared > 0);
    }

    #[test]
    fn base_ratings_follow_se_levels() {
        assert_eq!(Mode::Nested(2).base(), 95);
        assert_eq!(Mode::Nested(3).base(), 100);
        assert_eq!(Mode::Nested(4).base(), 105);
        assert_eq!(Mode::Nested(5).base(), 110);
        assert_eq!(
            name(Mode::Nested(3), "contradiction"),
            "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)"
        );
    }
}
