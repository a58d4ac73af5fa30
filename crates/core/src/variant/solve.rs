//! The general exact solver. Candidates are kept digit by digit as bit sets of cells (a `u64`
//! holds 64 cells, so 1 to 4 words from 4×4 to 16×16, chosen at compile time); a placed cell keeps
//! its digit's bit and is marked solved. Propagation runs naked singles (counted across the
//! digits' sets with two bit planes), hidden singles over every house, locked candidates between
//! any two crossing houses, and the sums each killer cage can still make; the search branches
//! on a cell with two candidates, else on a digit with the fewest places in a house, else on
//! the cell with the fewest candidates. docs/variants.md says why it is built this way.

// Words of cell sets are walked by index, several sets in step.
#![allow(clippy::needless_range_loop)]

use crate::time::Instant;

use rand::seq::SliceRandom;
use rand::Rng;

use super::puzzle::VariantPuzzle;
use super::rules::{Cage, Rules};
use std::sync::Arc;

/// What a count found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantCount {
    /// Solutions found, at most the limit asked for.
    pub count: usize,
    /// The first solution found (a digit a cell), if any.
    pub solution: Option<Vec<u8>>,
    /// Guesses the search made (branches past the first option at a node).
    pub guesses: u64,
}

/// A solver for one set of rules, built once and used for many puzzles (a generator checks
/// uniqueness hundreds of times a puzzle under the same rules).
pub struct VariantSolver {
    inner: Inner,
}

enum Inner {
    W1(Box<Engine<1>>),
    W2(Box<Engine<2>>),
    W3(Box<Engine<3>>),
    W4(Box<Engine<4>>),
}

macro_rules! dispatch {
    ($self:expr, $e:ident => $body:expr) => {
        match &$self.inner {
            Inner::W1($e) => $body,
            Inner::W2($e) => $body,
            Inner::W3($e) => $body,
            Inner::W4($e) => $body,
        }
    };
}

impl VariantSolver {
    /// The solver of `rules`.
    pub fn new(rules: &Rules) -> VariantSolver {
        let inner = match rules.cells().div_ceil(64) {
            1 => Inner::W1(Box::new(Engine::new(rules))),
            2 => Inner::W2(Box::new(Engine::new(rules))),
            3 => Inner::W3(Box::new(Engine::new(rules))),
            _ => Inner::W4(Box::new(Engine::new(rules))),
        };
        VariantSolver { inner }
    }

    /// This solver with killer `cages` added to its rules (which had none), without building
    /// the rest anew: what a generator that tries many cuts of one grid checks each with. The
    /// cages are not checked (the generator makes them well formed).
    pub(crate) fn with_cages(&self, cages: &[Cage]) -> VariantSolver {
        let inner = match &self.inner {
            Inner::W1(e) => Inner::W1(Box::new(e.with_cages(cages))),
            Inner::W2(e) => Inner::W2(Box::new(e.with_cages(cages))),
            Inner::W3(e) => Inner::W3(Box::new(e.with_cages(cages))),
            Inner::W4(e) => Inner::W4(Box::new(e.with_cages(cages))),
        };
        VariantSolver { inner }
    }

    /// Counts the solutions of `cells` (a digit a cell, 0 for empty, under this solver's rules)
    /// up to `limit` (at least 1): 0, 1, or `limit` for "`limit` or more". Givens that break a
    /// rule give 0.
    pub fn count(&self, cells: &[u8], limit: usize) -> VariantCount {
        let found = dispatch!(self, e => e.count(cells, limit, None));
        found.into_count()
    }

    /// Whether `cells`, a puzzle dug from a solution that holds digit `d` at each `(c, d)` of
    /// `removed` (those cells now empty), has another solution: one where some removed cell
    /// holds another digit. That is the question digging asks of each removal, and it costs
    /// one search for a solution a removed cell, where counting to 2 must find the known
    /// solution again and then prove there is no other.
    pub fn has_other(&self, cells: &[u8], removed: &[(usize, u8)]) -> bool {
        dispatch!(self, e => e.has_other(cells, removed))
    }

    /// As [`has_other`](Self::has_other), giving up (`None`) after `max_nodes` nodes of the
    /// search for each removed cell (a count, so the same on every machine).
    pub(crate) fn has_other_within(
        &self,
        cells: &[u8],
        removed: &[(usize, u8)],
        max_nodes: u64,
    ) -> Option<bool> {
        dispatch!(self, e => e.has_other_within(cells, removed, max_nodes))
    }

    /// The solutions of `cells`, up to `limit` of them, or `None` if `deadline` passes first.
    pub fn solutions(&self, cells: &[u8], limit: usize, deadline: Instant) -> Option<Vec<Vec<u8>>> {
        self.solutions_within(cells, limit, deadline, u64::MAX)
    }

    /// As [`solutions`](Self::solutions), giving up after `max_nodes` nodes of the search (a
    /// count, so the same on every machine).
    pub(crate) fn solutions_within(
        &self,
        cells: &[u8],
        limit: usize,
        deadline: Instant,
        max_nodes: u64,
    ) -> Option<Vec<Vec<u8>>> {
        let (solutions, late) = self.solutions_found_within(cells, limit, deadline, max_nodes);
        (!late).then_some(solutions)
    }

    /// As [`solutions_within`](Self::solutions_within), with the solutions found before the
    /// budget ran out, and whether it did.
    pub(crate) fn solutions_found_within(
        &self,
        cells: &[u8],
        limit: usize,
        deadline: Instant,
        max_nodes: u64,
    ) -> (Vec<Vec<u8>>, bool) {
        let found = dispatch!(self, e => e.count(cells, limit, Some((deadline, max_nodes))));
        (found.solutions, found.late)
    }

    /// A random solution of the empty grid (digits tried in a random order at every branch),
    /// or `None` if there is none or `deadline` passes first.
    pub fn random_solution(&self, rng: &mut impl Rng, deadline: Instant) -> Option<Vec<u8>> {
        self.random_solution_within(rng, deadline, u64::MAX)
    }

    /// As [`random_solution`](Self::random_solution), giving up after `max_nodes` nodes of the
    /// search (a count, so the same on every machine).
    pub(crate) fn random_solution_within(
        &self,
        rng: &mut impl Rng,
        deadline: Instant,
        max_nodes: u64,
    ) -> Option<Vec<u8>> {
        dispatch!(self, e => {
            let mut nodes = 0u64;
            e.random(e.empty(), None, rng, (deadline, max_nodes), &mut nodes).map(|s| e.values(&s))
        })
    }
}

/// Counts the solutions of `puzzle` up to `limit` (at least 1): 0, 1, or `limit` for "`limit`
/// or more". Givens that break a rule give 0. (Builds a [`VariantSolver`] for the one call.)
pub fn count_solutions(puzzle: &VariantPuzzle, limit: usize) -> VariantCount {
    VariantSolver::new(puzzle.rules()).count(puzzle.cells(), limit)
}

/// A random solution of the empty grid under `rules` (digits tried in a random order at every
/// branch), or `None` if there is none or `deadline` passes first.
pub fn random_solution(rules: &Rules, rng: &mut impl Rng, deadline: Instant) -> Option<Vec<u8>> {
    VariantSolver::new(rules).random_solution(rng, deadline)
}

/// Whether `grid` (a digit a cell, none empty) follows every rule: each house holds each digit
/// once, peers differ, and each cage adds up to its sum. This is how a finished grid is judged,
/// never by comparing it with one stored solution.
pub fn is_solution(rules: &Rules, grid: &[u8]) -> bool {
    let n = rules.size();
    if grid.len() != rules.cells() || grid.iter().any(|&d| d == 0 || d as usize > n) {
        return false;
    }
    let peers = rules.peers();
    if (0..grid.len()).any(|c| peers[c].iter().any(|&p| grid[p] == grid[c])) {
        return false;
    }
    rules.cages().iter().all(|cage| {
        cage.sum
            .is_none_or(|s| cage.cells.iter().map(|&c| grid[c] as u32).sum::<u32>() == s)
    })
}

/// What a search found: every solution up to the limit, guesses, and whether the deadline cut
/// it short.
struct Found {
    solutions: Vec<Vec<u8>>,
    guesses: u64,
    nodes: u64,
    /// The deadline and the most nodes to visit.
    budget: Option<(Instant, u64)>,
    late: bool,
}

impl Found {
    fn into_count(self) -> VariantCount {
        VariantCount {
            count: self.solutions.len(),
            solution: self.solutions.into_iter().next(),
            guesses: self.guesses,
        }
    }

    /// Whether the search must stop: the limit reached or the deadline passed.
    fn done(&mut self, limit: usize) -> bool {
        if self.solutions.len() >= limit || self.late {
            return true;
        }
        self.nodes += 1;
        if let Some((deadline, max_nodes)) = self.budget {
            if self.nodes > max_nodes
                || self.nodes.is_multiple_of(256) && Instant::now() >= deadline
            {
                self.late = true;
            }
        }
        self.late
    }
}

/// A set of cells, bit `c % 64` of word `c / 64` for cell `c`.
type Set<const W: usize> = [u64; W];

fn set_of<const W: usize>(cells: &[usize]) -> Set<W> {
    let mut s = [0u64; W];
    for &c in cells {
        s[c >> 6] |= 1 << (c & 63);
    }
    s
}

/// A set with the range of words it touches, so a row of a 16×16 grid costs one word, not four.
#[derive(Clone)]
struct Mask<const W: usize> {
    bits: Set<W>,
    lo: usize,
    hi: usize,
}

impl<const W: usize> Mask<W> {
    fn new(cells: &[usize]) -> Mask<W> {
        Mask::from_bits(set_of::<W>(cells))
    }

    fn from_bits(bits: Set<W>) -> Mask<W> {
        let lo = bits.iter().position(|&w| w != 0).unwrap_or(0);
        let hi = bits.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
        Mask { bits, lo, hi }
    }

    fn meets(&self, s: &Set<W>) -> bool {
        // Up to two words, every word costs less than the loop's bounds.
        if W <= 2 {
            return (0..W).fold(0, |acc, i| acc | (s[i] & self.bits[i])) != 0;
        }
        (self.lo..self.hi).any(|i| s[i] & self.bits[i] != 0)
    }

    fn clear_from(&self, s: &mut Set<W>) {
        if W <= 2 {
            for i in 0..W {
                s[i] &= !self.bits[i];
            }
            return;
        }
        for i in self.lo..self.hi {
            s[i] &= !self.bits[i];
        }
    }
}

/// Where the search stands: for each digit (index `d - 1`) the cells that can still hold it
/// (a solved cell keeps only its digit), and the solved cells.
#[derive(Clone, Copy)]
struct State<const W: usize> {
    cand: [Set<W>; 16],
    solved: Set<W>,
    /// For each house, the digits placed in it (bit `d - 1`).
    placed: [u16; MAX_HOUSES],
}

/// Houses at most: 16 rows, 16 columns, 16 boxes or regions, 2 diagonals (Windoku's 4 boxes
/// are 9×9 only).
const MAX_HOUSES: usize = 50;

#[derive(Clone)]
struct KillerCage {
    cells: Vec<usize>,
    sum: u32,
}

/// The candidates and the solved cells at some point of a propagation.
type Snapshot<const W: usize> = ([Set<W>; 16], Set<W>);

/// A killer cage's cells as a mask too, for a quick look at whether they changed.
#[derive(Clone)]
struct CageMask<const W: usize> {
    cells: Mask<W>,
}

#[derive(Clone)]
struct Engine<const W: usize> {
    n: usize,
    /// Every digit (bit `d - 1`).
    full: u16,
    all: Set<W>,
    peers: Vec<Set<W>>,
    houses: Vec<Mask<W>>,
    /// For each cell, the houses it is in.
    houses_of: Arc<[Vec<u8>]>,
    /// Pairs of houses that share two cells or more: (the shared cells, the rest of the first,
    /// the rest of the second), for locked candidates.
    crossings: Arc<[[Mask<W>; 3]]>,
    /// The two houses of each crossing.
    crossing_houses: Arc<[(u8, u8)]>,
    cages: Vec<KillerCage>,
    cage_masks: Vec<CageMask<W>>,
    /// `combos[k][s]`: the masks of `k` distinct digits that add up to `s`.
    combos: &'static [Vec<Vec<u16>>],
    /// The houses' cells, for the innies of new cages.
    house_cells: Arc<[Vec<usize>]>,
    /// Whether propagation looks for locked candidates (see [`Engine::with_cages`]).
    locked: bool,
}

/// The killer cages with a sum, and the rule of 45 (for 9×9; n(n+1)/2 in general): the cells
/// of a house outside the cages that lie wholly inside it add up to the house's total less
/// those cages' sums, and hold distinct digits, so they are one more cage (the house's
/// "innies").
fn killer_cages<const W: usize>(
    n: usize,
    houses: &[Vec<usize>],
    cages: &[Cage],
) -> Vec<KillerCage> {
    let mut cages: Vec<KillerCage> = cages
        .iter()
        .filter_map(|c| {
            Some(KillerCage {
                cells: c.cells.clone(),
                sum: c.sum?,
            })
        })
        .collect();
    let sets: Vec<Set<W>> = cages.iter().map(|c| set_of(&c.cells)).collect();
    let total = (n * (n + 1) / 2) as u32;
    let mut innies = Vec::new();
    for house in houses {
        let h: Set<W> = set_of(house);
        let (mut covered, mut used, mut any) = ([0u64; W], 0u32, false);
        for (cage, set) in cages.iter().zip(&sets) {
            if (0..W).all(|i| set[i] & !h[i] == 0) {
                for i in 0..W {
                    covered[i] |= set[i];
                }
                used += cage.sum;
                any = true;
            }
        }
        if !any {
            continue;
        }
        let rest: Vec<usize> = house
            .iter()
            .copied()
            .filter(|&x| covered[x >> 6] >> (x & 63) & 1 == 0)
            .collect();
        if !rest.is_empty() && rest.len() < house.len() && used <= total {
            innies.push(KillerCage {
                cells: rest,
                sum: total - used,
            });
        }
    }
    cages.extend(innies);
    cages
}

/// `combos(n)[k][s]`: the sets (bit `d - 1` for digit `d`) of `k` distinct digits of 1 to `n`
/// that add up to `s`; built once a size.
fn combos(n: usize) -> &'static [Vec<Vec<u16>>] {
    static TABLES: [std::sync::OnceLock<Vec<Vec<Vec<u16>>>>; 17] =
        [const { std::sync::OnceLock::new() }; 17];
    TABLES[n].get_or_init(|| {
        let max_sum = n * (n + 1) / 2;
        let mut combos = vec![vec![Vec::new(); max_sum + 1]; n + 1];
        for m in 0u32..(1 << n) {
            let sum: usize = (0..n).filter(|d| m >> d & 1 == 1).map(|d| d + 1).sum();
            combos[m.count_ones() as usize][sum].push(m as u16);
        }
        combos
    })
}

fn bits_of(mut m: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            d
        })
    })
}

impl<const W: usize> Engine<W> {
    fn new(rules: &Rules) -> Engine<W> {
        let n = rules.size();
        let cells = rules.cells();
        let houses = rules.houses();
        let cages = killer_cages::<W>(n, &houses, rules.cages());
        let combos = if cages.is_empty() { &[][..] } else { combos(n) };
        let sets: Vec<Set<W>> = houses.iter().map(|h| set_of(h)).collect();
        let mut crossings = Vec::new();
        let mut crossing_houses = Vec::new();
        for (i, a) in sets.iter().enumerate() {
            for (j, b) in sets.iter().enumerate().skip(i + 1) {
                let shared: Set<W> = std::array::from_fn(|k| a[k] & b[k]);
                if shared.iter().map(|w| w.count_ones()).sum::<u32>() >= 2 {
                    let rest =
                        |h: &Set<W>| Mask::from_bits(std::array::from_fn(|k| h[k] & !shared[k]));
                    crossings.push([Mask::from_bits(shared), rest(a), rest(b)]);
                    crossing_houses.push((i as u8, j as u8));
                }
            }
        }
        let all_cells: Vec<usize> = (0..cells).collect();
        assert!(houses.len() <= MAX_HOUSES, "{} houses", houses.len());
        Engine {
            n,
            full: ((1u32 << n) - 1) as u16,
            all: set_of(&all_cells),
            peers: rules.peers().iter().map(|p| set_of(p)).collect(),
            houses: houses.iter().map(|h| Mask::new(h)).collect(),
            houses_of: (0..cells)
                .map(|c| {
                    (0..houses.len())
                        .filter(|&h| houses[h].contains(&c))
                        .map(|h| h as u8)
                        .collect()
                })
                .collect(),
            crossings: crossings.into(),
            crossing_houses: crossing_houses.into(),
            cage_masks: cages
                .iter()
                .map(|c| CageMask {
                    cells: Mask::new(&c.cells),
                })
                .collect(),
            cages,
            combos,
            house_cells: houses.into(),
            locked: true,
        }
    }

    /// This engine with `cages` added (the rules it was built for had none): the cages' cells
    /// become peers, and the cages and their houses' innies are summed. Cheaper than building
    /// anew, for a generator that tries many cuts of one grid.
    fn with_cages(&self, cages: &[Cage]) -> Engine<W> {
        let mut e = self.clone();
        for cage in cages {
            let mask = set_of::<W>(&cage.cells);
            for &c in &cage.cells {
                for i in 0..W {
                    e.peers[c][i] |= mask[i];
                }
                e.peers[c][c >> 6] &= !(1 << (c & 63));
            }
        }
        e.cages = killer_cages::<W>(self.n, &self.house_cells, cages);
        e.cage_masks = e
            .cages
            .iter()
            .map(|c| CageMask {
                cells: Mask::new(&c.cells),
            })
            .collect();
        e.combos = if e.cages.is_empty() {
            &[][..]
        } else {
            combos(self.n)
        };
        // Locked candidates cost a killer check more than they save it: the cages' sums do
        // most of the work, and the generator's checks then run a fifth faster.
        e.locked = false;
        e
    }

    fn empty(&self) -> State<W> {
        let mut cand = [[0u64; W]; 16];
        for c in cand.iter_mut().take(self.n) {
            *c = self.all;
        }
        State {
            cand,
            solved: [0; W],
            placed: [0; MAX_HOUSES],
        }
    }

    fn count(&self, cells: &[u8], limit: usize, budget: Option<(Instant, u64)>) -> Found {
        let mut out = Found {
            solutions: Vec::new(),
            guesses: 0,
            nodes: 0,
            budget,
            late: false,
        };
        let mut state = self.empty();
        for (cell, &d) in cells.iter().enumerate() {
            if d != 0 && (d as usize > self.n || !self.place(&mut state, cell, d as usize - 1)) {
                return out;
            }
        }
        self.search(state, None, limit.max(1), &mut out);
        out
    }

    fn has_other(&self, cells: &[u8], removed: &[(usize, u8)]) -> bool {
        self.has_other_within(cells, removed, u64::MAX) == Some(true)
    }

    fn has_other_within(
        &self,
        cells: &[u8],
        removed: &[(usize, u8)],
        max_nodes: u64,
    ) -> Option<bool> {
        let mut base = self.empty();
        for (cell, &d) in cells.iter().enumerate() {
            if d != 0 && (d as usize > self.n || !self.place(&mut base, cell, d as usize - 1)) {
                return Some(false);
            }
        }
        let budget = (max_nodes < u64::MAX).then(|| {
            // Nodes are what bounds the search; the deadline is never met.
            (
                Instant::now() + std::time::Duration::from_secs(1 << 30),
                max_nodes,
            )
        });
        for &(c, d) in removed {
            let mut s = base;
            s.cand[d as usize - 1][c >> 6] &= !(1 << (c & 63));
            let mut out = Found {
                solutions: Vec::new(),
                guesses: 0,
                nodes: 0,
                budget,
                late: false,
            };
            self.search(s, None, 1, &mut out);
            if !out.solutions.is_empty() {
                return Some(true);
            }
            if out.late {
                return None;
            }
        }
        Some(false)
    }

    /// The digits (bit `d - 1`) `cell` can still hold.
    #[inline]
    fn digits(&self, s: &State<W>, cell: usize) -> u16 {
        let (w, b) = (cell >> 6, cell & 63);
        let mut m = 0u16;
        for (d, plane) in s.cand[..self.n].iter().enumerate() {
            m |= (((plane[w] >> b) & 1) as u16) << d;
        }
        m
    }

    fn values(&self, s: &State<W>) -> Vec<u8> {
        (0..self.all.iter().map(|w| w.count_ones() as usize).sum())
            .map(|c| self.digits(s, c).trailing_zeros() as u8 + 1)
            .collect()
    }

    /// Puts digit `d` (0-based) in `cell` and takes it from the cell's peers; false if the cell
    /// cannot hold it or a peer already does.
    #[inline]
    fn place(&self, s: &mut State<W>, cell: usize, d: usize) -> bool {
        let (w, b) = (cell >> 6, 1u64 << (cell & 63));
        if s.cand[d][w] & b == 0 {
            return false;
        }
        let p = &self.peers[cell];
        if (0..W).any(|i| s.solved[i] & p[i] & s.cand[d][i] != 0) {
            return false;
        }
        s.solved[w] |= b;
        for &h in &self.houses_of[cell] {
            s.placed[h as usize] |= 1 << d;
        }
        for e in 0..self.n {
            s.cand[e][w] &= !b;
        }
        s.cand[d][w] |= b;
        for i in 0..W {
            s.cand[d][i] &= !p[i];
        }
        true
    }

    /// Open cells by how many candidates they have: (at least one, at least two, at least three).
    fn planes(&self, s: &State<W>) -> (Set<W>, Set<W>, Set<W>) {
        let (mut ones, mut twos, mut threes) = ([0u64; W], [0u64; W], [0u64; W]);
        for d in 0..self.n {
            for i in 0..W {
                let c = s.cand[d][i];
                threes[i] |= twos[i] & c;
                twos[i] |= ones[i] & c;
                ones[i] |= c;
            }
        }
        (ones, twos, threes)
    }

    /// Everything the rules force, to a fixed point; false on a contradiction.
    ///
    /// `from` is a state this one was reached from by placements and eliminations, in which
    /// the houses and cages had nothing left to give (the parent node's fixed point): only the
    /// houses and cages whose cells changed since are looked at again.
    fn propagate(&self, s: &mut State<W>, from: Option<&Snapshot<W>>) -> bool {
        let n = self.n;
        let mut locked_seen = [[0u64; W]; 16];
        // The candidates and solved cells at the start of the last pass over the cages.
        let mut cage_seen: Option<Snapshot<W>> = from.copied();
        // The same at the start of the last pass over the houses for hidden singles.
        let mut hidden_seen: Option<Snapshot<W>> = from.copied();
        loop {
            // Naked singles, and open cells left with no candidate.
            let (mut ones, mut twos) = ([0u64; W], [0u64; W]);
            for d in 0..n {
                for i in 0..W {
                    twos[i] |= ones[i] & s.cand[d][i];
                    ones[i] |= s.cand[d][i];
                }
            }
            let mut singles = [0u64; W];
            let mut any = false;
            for i in 0..W {
                let open = self.all[i] & !s.solved[i];
                if open & !ones[i] != 0 {
                    return false;
                }
                singles[i] = open & !twos[i];
                any |= singles[i] != 0;
            }
            if any {
                for d in 0..n {
                    for i in 0..W {
                        let mut hits = singles[i] & s.cand[d][i];
                        while hits != 0 {
                            let c = i * 64 + hits.trailing_zeros() as usize;
                            hits &= hits - 1;
                            if !self.place(s, c, d) {
                                return false;
                            }
                        }
                    }
                }
                continue;
            }
            // Hidden singles, and houses where a digit has no place left. (No `count_ones`:
            // the build targets x86-64 without `popcnt`, where it is a dozen instructions.)
            let mut changed = false;
            // A house none of whose cells changed since the last pass has no new single.
            let dirty = self.changed_since(s, &mut hidden_seen);
            for (k, h) in self.houses.iter().enumerate() {
                if !h.meets(&dirty) {
                    continue;
                }
                for d in bits_of(self.full & !s.placed[k]) {
                    let (mut at, mut many) = (usize::MAX, false);
                    for i in h.lo..h.hi {
                        let m = s.cand[d][i] & h.bits[i];
                        if m != 0 {
                            if at != usize::MAX || m & (m - 1) != 0 {
                                many = true;
                                break;
                            }
                            at = i * 64 + m.trailing_zeros() as usize;
                        }
                    }
                    if many {
                        continue;
                    }
                    if at == usize::MAX {
                        return false;
                    }
                    if s.solved[at >> 6] >> (at & 63) & 1 == 0 {
                        if !self.place(s, at, d) {
                            return false;
                        }
                        changed = true;
                    }
                }
            }
            if changed {
                continue;
            }
            // Locked candidates: a digit that one house can only hold where it crosses another
            // is taken from the rest of the other (pointing and claiming, for any two houses).
            // A digit whose cells are as they were at the last pass has nothing new to give.
            for d in 0..n {
                if !self.locked || s.cand[d] == locked_seen[d] {
                    continue;
                }
                let c = &mut s.cand[d];
                for ([shared, rest_a, rest_b], &(a, b)) in
                    self.crossings.iter().zip(self.crossing_houses.iter())
                {
                    // Placed in either house, the digit is gone from the other's rest already.
                    if (s.placed[a as usize] | s.placed[b as usize]) >> d & 1 == 1
                        || !shared.meets(c)
                    {
                        continue;
                    }
                    let (in_a, in_b) = (rest_a.meets(c), rest_b.meets(c));
                    if in_a != in_b {
                        if in_a {
                            rest_a.clear_from(c);
                        } else {
                            rest_b.clear_from(c);
                        }
                        changed = true;
                    }
                }
                locked_seen[d] = *c;
            }
            if !self.cage_sums(s, &mut changed, &mut cage_seen) {
                return false;
            }
            if !changed {
                return true;
            }
        }
    }

    /// The cells whose candidates or solved state changed since `seen` (every cell when there
    /// is none yet), and `seen` brought up to now.
    fn changed_since(&self, s: &State<W>, seen: &mut Option<Snapshot<W>>) -> Set<W> {
        let mut dirty = self.all;
        if let Some((cand, solved)) = seen {
            for i in 0..W {
                let mut d = s.solved[i] ^ solved[i];
                for e in 0..self.n {
                    d |= s.cand[e][i] ^ cand[e][i];
                }
                dirty[i] = d;
            }
        }
        *seen = Some((s.cand, s.solved));
        dirty
    }

    /// Each killer cage keeps only the digits of the sets that can still make its sum; false
    /// on a contradiction.
    ///
    /// `seen` holds the candidates and solved cells as they were at the start of the last pass
    /// over the cages in this propagation: a cage none of whose cells changed since has nothing
    /// new to give.
    fn cage_sums(
        &self,
        s: &mut State<W>,
        changed: &mut bool,
        seen: &mut Option<Snapshot<W>>,
    ) -> bool {
        if self.cages.is_empty() {
            return true;
        }
        let dirty = self.changed_since(s, seen);
        let (mut masks, mut opens) = ([0u16; 16], [0u16; 16]);
        for (cage, mask) in self.cages.iter().zip(&self.cage_masks) {
            if !mask.cells.meets(&dirty) {
                continue;
            }
            for (k, &c) in cage.cells.iter().enumerate() {
                masks[k] = self.digits(s, c);
            }
            let (mut placed_sum, mut placed, mut avail, mut open) = (0u32, 0u16, 0u16, 0usize);
            for (k, &c) in cage.cells.iter().enumerate() {
                let m = masks[k];
                if s.solved[c >> 6] >> (c & 63) & 1 == 1 {
                    placed_sum += m.trailing_zeros() + 1;
                    placed |= m;
                } else {
                    avail |= m;
                    opens[open] = m;
                    open += 1;
                }
            }
            if placed_sum > cage.sum {
                return false;
            }
            let rest = (cage.sum - placed_sum) as usize;
            if open == 0 {
                if rest != 0 {
                    return false;
                }
                continue;
            }
            avail &= !placed;
            let Some(sets) = self.combos[open].get(rest) else {
                return false;
            };
            let opens = &opens[..open];
            // A set of digits fits if the open cells' candidates hold all of it and each open
            // cell can take one of it.
            let (mut union, mut common) = (0u16, u16::MAX);
            'sets: for &m in sets {
                if m & !avail != 0 {
                    continue;
                }
                for &c in opens {
                    if c & m == 0 {
                        continue 'sets;
                    }
                }
                union |= m;
                common &= m;
            }
            if union == 0 {
                return false;
            }
            // A digit every such set holds is in the cage once: a cell that sees all the
            // cage's cells that can take it cannot.
            for d in bits_of(common) {
                let mut sees = self.all;
                for (k, &c) in cage.cells.iter().enumerate() {
                    if masks[k] >> d & 1 == 1 && s.solved[c >> 6] >> (c & 63) & 1 == 0 {
                        for i in 0..W {
                            sees[i] &= self.peers[c][i];
                        }
                    }
                }
                for i in 0..W {
                    if s.cand[d][i] & sees[i] != 0 {
                        s.cand[d][i] &= !sees[i];
                        *changed = true;
                    }
                }
            }
            let mut cut = false;
            for (k, &c) in cage.cells.iter().enumerate() {
                let off = masks[k] & !union;
                if off != 0 && s.solved[c >> 6] >> (c & 63) & 1 == 0 {
                    for d in bits_of(off) {
                        s.cand[d][c >> 6] &= !(1 << (c & 63));
                    }
                    cut = true;
                }
            }
            if cut {
                *changed = true;
            }
        }
        true
    }

    /// The open cell with the fewest candidates: of those with two, the one with the most open
    /// peers (whichever digit it takes strikes the most candidates; a quarter of the guesses
    /// the first such cell needs on minimal 16×16 puzzles).
    fn narrowest(&self, s: &State<W>) -> usize {
        let (_, twos, threes) = self.planes(s);
        let mut best = (usize::MAX, 0u32);
        for i in 0..W {
            let mut two = self.all[i] & !s.solved[i] & twos[i] & !threes[i];
            while two != 0 {
                let c = i * 64 + two.trailing_zeros() as usize;
                two &= two - 1;
                let score: u32 = (0..W)
                    .map(|k| (self.peers[c][k] & !s.solved[k]).count_ones())
                    .sum();
                if best.0 == usize::MAX || score > best.1 {
                    best = (c, score);
                }
            }
        }
        if best.0 != usize::MAX {
            return best.0;
        }
        let cells = self.peers.len();
        (0..cells)
            .filter(|&c| s.solved[c >> 6] >> (c & 63) & 1 == 0)
            .min_by_key(|&c| self.digits(s, c).count_ones())
            .expect("an open cell")
    }

    fn random(
        &self,
        mut s: State<W>,
        from: Option<&Snapshot<W>>,
        rng: &mut impl Rng,
        (deadline, max_nodes): (Instant, u64),
        nodes: &mut u64,
    ) -> Option<State<W>> {
        *nodes += 1;
        if *nodes > max_nodes || nodes.is_multiple_of(1024) && Instant::now() >= deadline {
            return None;
        }
        if !self.propagate(&mut s, from) {
            return None;
        }
        if s.solved == self.all {
            return Some(s);
        }
        let here = (s.cand, s.solved);
        let cell = self.narrowest(&s);
        let mut digits: Vec<usize> = bits_of(self.digits(&s, cell)).collect();
        digits.shuffle(rng);
        for d in digits {
            let mut t = s;
            if self.place(&mut t, cell, d) {
                if let Some(found) = self.random(t, Some(&here), rng, (deadline, max_nodes), nodes)
                {
                    return Some(found);
                }
            }
            if *nodes > max_nodes || Instant::now() >= deadline {
                return None;
            }
        }
        None
    }

    fn search(&self, mut s: State<W>, from: Option<&Snapshot<W>>, limit: usize, out: &mut Found) {
        if out.done(limit) || !self.propagate(&mut s, from) {
            return;
        }
        if s.solved == self.all {
            out.solutions.push(self.values(&s));
            return;
        }
        let here = (s.cand, s.solved);
        // Branch on a cell with two candidates; else on the places of a digit in a house when
        // some digit has fewer places than the narrowest cell has digits; else on that cell.
        let cell = self.narrowest(&s);
        let width = self.digits(&s, cell).count_ones();
        let mut options: [(usize, usize); 16] = [(0, 0); 16];
        let mut len = 0;
        if width > 2 {
            let mut best: Option<(usize, usize, u32)> = None;
            for (h, house) in self.houses.iter().enumerate() {
                for d in 0..self.n {
                    let places: u32 = (house.lo..house.hi)
                        .map(|i| (s.cand[d][i] & house.bits[i] & !s.solved[i]).count_ones())
                        .sum();
                    if places >= 2 && places < width && best.is_none_or(|b| places < b.2) {
                        best = Some((h, d, places));
                    }
                }
            }
            if let Some((h, d, _)) = best {
                let house = &self.houses[h];
                for i in house.lo..house.hi {
                    let mut m = s.cand[d][i] & house.bits[i] & !s.solved[i];
                    while m != 0 {
                        options[len] = (i * 64 + m.trailing_zeros() as usize, d);
                        len += 1;
                        m &= m - 1;
                    }
                }
            }
        }
        if len == 0 {
            for d in bits_of(self.digits(&s, cell)) {
                options[len] = (cell, d);
                len += 1;
            }
        }
        for (i, &(c, d)) in options[..len].iter().enumerate() {
            if i > 0 {
                out.guesses += 1;
            }
            let mut t = s;
            if self.place(&mut t, c, d) {
                self.search(t, Some(&here), limit, out);
            }
            if out.done(limit) {
                return;
            }
        }
    }
}
