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
//! assumptions that take part in a chain that could still be kept (`closures.rs`). The closures
//! are kept for the next search of the same mode, which makes anew only those that read a
//! candidate gone since (`Kept`).

use std::cell::RefCell;
use std::rc::Rc;

use super::budget::Budget;
use super::potential::{Id, Inner, CAUSE_CELL, CAUSE_HOUSE, CAUSE_NONE};
use super::{bits, cell, digit, length_bonus, Board, Rating, Step, CELL_HOUSES, HOUSE_CELLS};
use crate::bitset::{Cell, Digit};

mod advanced;
mod closures;
mod nesting;
mod outcome;
#[cfg(test)]
mod tests;

use advanced::*;
use closures::*;
use nesting::*;
use outcome::*;

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
