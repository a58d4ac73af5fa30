//! Forcing chains for any rules: an assumption about one candidate, followed through singles
//! (a cell with one candidate left, a digit with one place left in a house, a cage's last cell)
//! to a contradiction or to a conclusion every branch of a cell or house shares.
//!
//! The chain's nodes are "cell is d" and "cell is not d". SE's classes, by what the chain
//! needs: every "is" following from one "is not" that was a strong link of the position
//! (a cell with two candidates, a digit with two places in a house) makes a static chain,
//! X-Chain if it stays on one digit (6.6) or Forcing Chain (7.0); an "is" that needs several
//! "is not"s or a cage's sum makes it dynamic, Nishio if it stays on one digit (7.5) or Dynamic
//! (8.5). Cell and region forcing chains are 8.0 (static) or 8.5 (dynamic). Each adds SE's
//! length bonus for the nodes the conclusion depends on.

use crate::time::Instant;

use super::{Board, Layout, VariantStep};
use crate::logic::{length_bonus, Rating};
use crate::variant::symbol;

const NONE: u32 = u32::MAX;

/// One propagation's working state, kept between propagations to save allocations.
struct Prop<'a> {
    l: &'a Layout,
    b: &'a Board,
    n: usize,
    cand: Vec<u16>,
    value: Vec<u8>,
    set: Vec<bool>,
    /// The parents of each set node, as a range of `arena`.
    from: Vec<(u32, u32)>,
    /// Whether a node followed from a cage's sum.
    by_cage: Vec<bool>,
    arena: Vec<u32>,
    touched: Vec<u32>,
    queue: Vec<u32>,
    /// The two nodes that clash, or the node whose parents leave no choice.
    clash: Option<(u32, u32)>,
    mark: Vec<u32>,
    stamp: u32,
}

fn node(n: usize, c: usize, d: usize, on: bool) -> u32 {
    (((c * n + d) << 1) | on as usize) as u32
}

impl<'a> Prop<'a> {
    fn new(l: &'a Layout, b: &'a Board) -> Prop<'a> {
        let n = l.n;
        let nodes = n * n * n * 2;
        Prop {
            l,
            b,
            n,
            cand: b.cand.clone(),
            value: b.value.clone(),
            set: vec![false; nodes + 1],
            from: vec![(0, 0); nodes + 1],
            by_cage: vec![false; nodes + 1],
            arena: Vec::new(),
            touched: Vec::new(),
            queue: Vec::new(),
            clash: None,
            mark: vec![0; nodes + 1],
            stamp: 0,
        }
    }

    fn reset(&mut self) {
        for &t in &self.touched {
            self.set[t as usize] = false;
            self.by_cage[t as usize] = false;
        }
        self.touched.clear();
        self.arena.clear();
        self.queue.clear();
        self.clash = None;
        self.cand.copy_from_slice(&self.b.cand);
        self.value.copy_from_slice(&self.b.value);
    }

    fn add(&mut self, x: u32, parents: &[u32], by_cage: bool) {
        if self.clash.is_some() || self.set[x as usize] {
            return;
        }
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(parents);
        self.from[x as usize] = (start, parents.len() as u32);
        self.set[x as usize] = true;
        self.by_cage[x as usize] = by_cage;
        self.touched.push(x);
        if self.set[(x ^ 1) as usize] {
            self.clash = Some((x, x ^ 1));
            return;
        }
        self.queue.push(x);
    }

    /// A clash made of one node standing for the contradiction (a cell or a house with no
    /// choice left): the node's parents explain it.
    fn dead_end(&mut self, parents: &[u32]) {
        if self.clash.is_some() {
            return;
        }
        let x = self.set.len() as u32 - 1;
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(parents);
        self.from[x as usize] = (start, parents.len() as u32);
        self.set[x as usize] = true;
        self.touched.push(x);
        self.clash = Some((x, NONE));
    }

    /// Follows `start` to its end: a clash, or every consequence.
    fn run(&mut self, start: u32, deadline: Instant) {
        self.reset();
        self.add(start, &[], false);
        let mut head = 0;
        while head < self.queue.len() && self.clash.is_none() {
            if head % 256 == 255 && Instant::now() > deadline {
                return;
            }
            let x = self.queue[head];
            head += 1;
            let on = x & 1 == 1;
            let cd = (x >> 1) as usize;
            let (c, d) = (cd / self.n, cd % self.n);
            if on {
                self.on(x, c, d);
            } else {
                self.off(c, d);
            }
        }
    }

    fn on(&mut self, x: u32, c: usize, d: usize) {
        let n = self.n;
        let l = self.l;
        self.value[c] = d as u8 + 1;
        let orig = self.b.cand[c];
        for e in 0..n {
            if e != d && orig & 1 << e != 0 {
                self.add(node(n, c, e, false), &[x], false);
            }
        }
        for &p in &l.peers[c] {
            if self.b.cand[p] & 1 << d != 0 {
                self.add(node(n, p, d, false), &[x], false);
            }
        }
        let Some(k) = l.cage_of[c] else { return };
        let (cells, Some(sum)) = &l.cages[k] else {
            return;
        };
        let mut left = *sum as i64;
        let mut open = None;
        let mut opens = 0;
        let mut parents = Vec::new();
        for &y in cells {
            if self.value[y] == 0 {
                opens += 1;
                open = Some(y);
            } else {
                left -= self.value[y] as i64;
                if self.b.value[y] == 0 {
                    parents.push(node(n, y, self.value[y] as usize - 1, true));
                }
            }
        }
        match (opens, open) {
            (0, _) if left != 0 => self.dead_end(&parents),
            (1, Some(y)) => {
                if left < 1 || left > n as i64 || self.cand[y] & 1 << (left - 1) == 0 {
                    self.dead_end(&parents);
                } else {
                    self.add(node(n, y, left as usize - 1, true), &parents, true);
                }
            }
            _ => {}
        }
    }

    fn off(&mut self, c: usize, d: usize) {
        let n = self.n;
        let l = self.l;
        let bit = 1u16 << d;
        self.cand[c] &= !bit;
        if self.value[c] == 0 {
            let orig = self.b.cand[c];
            let now = self.cand[c];
            if now.count_ones() <= 1 {
                let parents: Vec<u32> = (0..n)
                    .filter(|&e| orig & !now & 1 << e != 0)
                    .map(|e| node(n, c, e, false))
                    .collect();
                if now == 0 {
                    self.dead_end(&parents);
                    return;
                }
                self.add(
                    node(n, c, now.trailing_zeros() as usize, true),
                    &parents,
                    false,
                );
            }
        }
        for &h in &l.cell_houses[c] {
            let house = &l.houses[h];
            if self.b.placed_in(house, d) {
                continue;
            }
            let mut places = 0;
            let mut last = 0;
            let mut decided = false;
            for &y in &house.cells {
                if self.value[y] as usize == d + 1 {
                    decided = true;
                    break;
                }
                if self.cand[y] & bit != 0 {
                    places += 1;
                    last = y;
                }
            }
            if decided || places > 1 {
                continue;
            }
            let parents: Vec<u32> = house
                .cells
                .iter()
                .filter(|&&y| self.b.cand[y] & bit != 0 && (places == 0 || y != last))
                .map(|&y| node(n, y, d, false))
                .collect();
            if places == 0 {
                self.dead_end(&parents);
                return;
            }
            self.add(node(n, last, d, true), &parents, false);
        }
    }

    /// The nodes `ends` depend on: their count, whether all links are static, and whether they
    /// all concern one digit.
    fn ancestry(&mut self, ends: &[u32]) -> (usize, bool, bool) {
        self.stamp += 1;
        let stamp = self.stamp;
        let mut todo: Vec<u32> = ends.iter().copied().filter(|&e| e != NONE).collect();
        let sentinel = self.set.len() as u32 - 1;
        let mut count = 0;
        let mut fixed = true;
        let mut digit: Option<usize> = None;
        let mut one_digit = true;
        while let Some(x) = todo.pop() {
            if self.mark[x as usize] == stamp {
                continue;
            }
            self.mark[x as usize] = stamp;
            let (start, len) = self.from[x as usize];
            if x != sentinel {
                count += 1;
                let d = (x >> 1) as usize % self.n;
                if *digit.get_or_insert(d) != d {
                    one_digit = false;
                }
                if x & 1 == 1 && (len > 1 || self.by_cage[x as usize]) {
                    fixed = false;
                }
            } else if len > 1 {
                // A cell or house left with no choice by more than one removal.
                fixed = false;
            }
            for i in start..start + len {
                todo.push(self.arena[i as usize]);
            }
        }
        (count, fixed, one_digit)
    }
}

struct Found {
    rating: u16,
    complexity: usize,
    technique: &'static str,
    placements: Vec<(usize, u8)>,
    eliminations: Vec<(usize, u8)>,
    cells: Vec<usize>,
    text: String,
}

fn better(a: &Option<Found>, rating: u16, complexity: usize) -> bool {
    a.as_ref()
        .is_none_or(|f| (rating, complexity) < (f.rating, f.complexity))
}

/// The easiest forcing chain of the position, by SE's rating and then its length.
pub(super) fn forcing(l: &Layout, b: &Board, deadline: Instant) -> Option<VariantStep> {
    let n = l.n;
    let mut prop = Prop::new(l, b);
    let mut best: Option<Found> = None;
    // Contradictions: "c is d" (or "c is not d") cannot hold.
    'all: for c in 0..n * n {
        if b.value[c] != 0 {
            continue;
        }
        for d in 0..n {
            if b.cand[c] & 1 << d == 0 {
                continue;
            }
            for on in [true, false] {
                if Instant::now() > deadline {
                    break 'all;
                }
                prop.run(node(n, c, d, on), deadline);
                let Some((x, y)) = prop.clash else { continue };
                let (complexity, fixed, one_digit) = prop.ancestry(&[x, y]);
                let (technique, base) = match (fixed, one_digit) {
                    (true, true) => ("Forcing X-Chain", 66),
                    (true, false) => ("Forcing Chain", 70),
                    (false, true) => ("Nishio Forcing Chain", 75),
                    (false, false) => ("Dynamic Contradiction Forcing Chain", 85),
                };
                let rating = base + length_bonus(complexity);
                if !better(&best, rating, complexity) {
                    continue;
                }
                let ds = symbol(d as u8 + 1);
                let (placements, eliminations, claim, result) = if on {
                    (
                        vec![],
                        vec![(c, d as u8 + 1)],
                        format!("{} were {ds}", l.cell_name(c)),
                        format!("{} is not {ds}", l.cell_name(c)),
                    )
                } else {
                    (
                        vec![(c, d as u8 + 1)],
                        vec![],
                        format!("{} were not {ds}", l.cell_name(c)),
                        format!("{} is {ds}", l.cell_name(c)),
                    )
                };
                best = Some(Found {
                    rating,
                    complexity,
                    technique,
                    placements,
                    eliminations,
                    cells: vec![c],
                    text: format!(
                        "if {claim}, following singles{} leads to a contradiction in {complexity} steps: so {result}",
                        if fixed { " along strong links" } else { "" }
                    ),
                });
            }
        }
        if best.as_ref().is_some_and(|f| f.rating <= 66) {
            break;
        }
    }
    if best.as_ref().is_none_or(|f| f.rating > 80) {
        branches(&mut prop, &mut best, deadline);
    }
    let f = best?;
    Some(VariantStep {
        technique: f.technique,
        rating: Rating(f.rating),
        placements: f.placements,
        eliminations: f.eliminations,
        cells: f.cells,
        houses: vec![],
        text: super::text(f.technique, f.text),
    })
}

/// Cell and region forcing chains: every candidate of a cell, or every place of a digit in a
/// house, leads to the same conclusion.
fn branches(prop: &mut Prop<'_>, best: &mut Option<Found>, deadline: Instant) {
    let l = prop.l;
    let b = prop.b;
    let n = l.n;
    // The sources: (name, the branches' starting nodes, the cells involved).
    let mut sources: Vec<(String, Vec<u32>, Vec<usize>, bool)> = Vec::new();
    for c in 0..n * n {
        let k = b.cand[c].count_ones();
        if b.value[c] == 0 && (2..=4).contains(&k) {
            let starts = (0..n)
                .filter(|&d| b.cand[c] & 1 << d != 0)
                .map(|d| node(n, c, d, true))
                .collect();
            sources.push((l.cell_name(c), starts, vec![c], true));
        }
    }
    for house in &l.houses {
        for d in 0..n {
            let places: Vec<usize> = b.places(house, d).collect();
            if (2..=4).contains(&places.len()) {
                let starts = places.iter().map(|&c| node(n, c, d, true)).collect();
                sources.push((
                    format!("{} in {}", symbol(d as u8 + 1), house.name()),
                    starts,
                    places,
                    false,
                ));
            }
        }
    }
    let total = prop.set.len();
    let mut count = vec![0u16; total];
    for (name, starts, cells, is_cell) in sources {
        if Instant::now() > deadline {
            return;
        }
        let mut seen: Vec<u32> = Vec::new();
        let mut dead = false;
        for (i, &s) in starts.iter().enumerate() {
            prop.run(s, deadline);
            if prop.clash.is_some() {
                dead = true;
                break;
            }
            for &t in &prop.touched {
                if count[t as usize] == i as u16 {
                    count[t as usize] += 1;
                    if i == 0 {
                        seen.push(t);
                    }
                }
            }
        }
        let k = starts.len() as u16;
        let common: Vec<u32> = seen
            .iter()
            .copied()
            .filter(|&t| !dead && count[t as usize] == k && useful(b, n, t))
            .collect();
        for &t in &seen {
            count[t as usize] = 0;
        }
        if common.is_empty() {
            continue;
        }
        // The length of each conclusion, summed over the branches.
        let mut sizes = vec![(0usize, true); common.len()];
        for &s in &starts {
            prop.run(s, deadline);
            for (j, &t) in common.iter().enumerate() {
                let (size, fixed, _) = prop.ancestry(&[t]);
                sizes[j].0 += size;
                sizes[j].1 &= fixed;
            }
        }
        for (j, &t) in common.iter().enumerate() {
            let (complexity, fixed) = sizes[j];
            let (technique, base) = match (fixed, is_cell) {
                (true, true) => ("Cell Forcing Chains", 80),
                (true, false) => ("Region Forcing Chains", 80),
                (false, true) => ("Dynamic Cell Forcing Chains", 85),
                (false, false) => ("Dynamic Region Forcing Chains", 85),
            };
            let rating = base + length_bonus(complexity);
            if !better(best, rating, complexity) {
                continue;
            }
            let cd = (t >> 1) as usize;
            let (c, d) = (cd / n, cd % n);
            let ds = symbol(d as u8 + 1);
            let on = t & 1 == 1;
            let result = format!("{} is {}{ds}", l.cell_name(c), if on { "" } else { "not " });
            let mut shown = cells.clone();
            shown.push(c);
            *best = Some(Found {
                rating,
                complexity,
                technique,
                placements: if on { vec![(c, d as u8 + 1)] } else { vec![] },
                eliminations: if on { vec![] } else { vec![(c, d as u8 + 1)] },
                cells: shown,
                text: if is_cell {
                    format!("whichever digit {name} takes, following singles shows {result}")
                } else {
                    format!("wherever {name} goes, following singles shows {result}")
                },
            });
        }
    }
}

/// Whether a node says something new about the position: a digit for an empty cell, or the
/// loss of a candidate it still has.
fn useful(b: &Board, n: usize, t: u32) -> bool {
    if t as usize >= n * n * n * 2 {
        return false;
    }
    let cd = (t >> 1) as usize;
    let (c, d) = (cd / n, cd % n);
    b.value[c] == 0 && b.cand[c] & 1 << d != 0
}

/// Whether a position has no way to go on: an empty cell without candidates, a digit with no
/// place in a house that lacks it, or a cage no filling fits.
fn broken(l: &Layout, b: &Board) -> bool {
    if (0..l.n * l.n).any(|c| b.value[c] == 0 && b.cand[c] == 0) {
        return true;
    }
    for house in &l.houses {
        for d in 0..l.n {
            if !b.placed_in(house, d) && b.places(house, d).next().is_none() {
                return true;
            }
        }
    }
    l.cages.iter().any(|(cells, sum)| {
        let Some(sum) = sum else { return false };
        let empty: Vec<usize> = cells.iter().copied().filter(|&c| b.value[c] == 0).collect();
        let left = *sum as i64 - cells.iter().map(|&c| b.value[c] as i64).sum::<i64>();
        super::killer::fillings(l, &b.cand, &empty, left, true).is_none()
    })
}

/// Nested forcing chains, for what the chains above cannot reach: assume a candidate and let
/// the techniques below the chains (`deep`: and the chains too) run; one that breaks the
/// position is false. SE's nested levels: 9.5 (techniques below the chains), 10.5 (chains
/// inside), each with the length bonus of the inner steps.
pub(super) fn nested(l: &Layout, b: &Board, deadline: Instant, deep: bool) -> Option<VariantStep> {
    let n = l.n;
    let mut best: Option<(usize, usize, usize)> = None;
    for c in 0..n * n {
        if b.value[c] != 0 {
            continue;
        }
        for d in 0..n {
            if b.cand[c] & 1 << d == 0 {
                continue;
            }
            if Instant::now() > deadline {
                break;
            }
            let mut inner = b.clone();
            inner.place(l, c, d as u8 + 1);
            let mut steps = 1;
            let dead = loop {
                if broken(l, &inner) {
                    break true;
                }
                if inner.empty == 0 || Instant::now() > deadline {
                    break false;
                }
                let step = super::basic_step(l, &inner)
                    .or_else(|| deep.then(|| forcing(l, &inner, deadline)).flatten());
                let Some(step) = step else { break false };
                inner.apply(l, &step);
                steps += 1 + step.eliminations.len() / 4;
            };
            if dead && best.is_none_or(|(s, _, _)| steps < s) {
                best = Some((steps, c, d));
            }
        }
    }
    let (steps, c, d) = best?;
    let (technique, base) = if deep {
        ("Nested Forcing Chains (+ Forcing Chains)", 105)
    } else {
        ("Nested Forcing Chains", 95)
    };
    let ds = symbol(d as u8 + 1);
    Some(VariantStep {
        technique,
        rating: Rating(base + length_bonus(steps)),
        placements: vec![],
        eliminations: vec![(c, d as u8 + 1)],
        cells: vec![c],
        houses: vec![],
        text: super::text(
            technique,
            format!(
                "if {} were {ds}, the techniques below{} would break the grid within {steps} steps: so it is not {ds}",
                l.cell_name(c),
                if deep { ", chains included," } else { " the chains" }
            ),
        ),
    })
}
