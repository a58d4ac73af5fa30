//! The general exact solver: candidates as bit masks (bit `d - 1` for digit `d`), propagation
//! by naked and hidden singles over every house and by the sums each killer cage can still
//! make, and a depth-first search on the cell with the fewest candidates.

use crate::time::Instant;

use rand::seq::SliceRandom;
use rand::Rng;

use super::puzzle::VariantPuzzle;
use super::rules::Rules;

/// What a count found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantCount {
    /// Solutions found, at most the limit asked for.
    pub count: usize,
    /// The first solution found (a digit a cell), if any.
    pub solution: Option<Vec<u8>>,
    /// Guesses the search made (branches past the first digit of a cell).
    pub guesses: u64,
}

/// Counts the solutions of `puzzle` up to `limit` (at least 1): 0, 1, or `limit` for "`limit`
/// or more". Givens that break a rule give 0.
pub fn count_solutions(puzzle: &VariantPuzzle, limit: usize) -> VariantCount {
    let engine = Engine::new(puzzle.rules());
    let mut state = engine.empty();
    let mut ok = true;
    for (cell, &d) in puzzle.cells().iter().enumerate() {
        if d != 0 && !engine.place(&mut state, cell, d) {
            ok = false;
            break;
        }
    }
    let mut out = VariantCount {
        count: 0,
        solution: None,
        guesses: 0,
    };
    if ok {
        engine.search(state, limit.max(1), &mut out);
    }
    out
}

/// A random solution of the empty grid under `rules` (digits tried in a random order at every
/// branch), or `None` if there is none or `deadline` passes first.
pub fn random_solution(rules: &Rules, rng: &mut impl Rng, deadline: Instant) -> Option<Vec<u8>> {
    let engine = Engine::new(rules);
    let mut nodes = 0u64;
    engine.random(engine.empty(), rng, deadline, &mut nodes)
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

#[derive(Clone)]
struct State {
    cand: Vec<u16>,
    value: Vec<u8>,
    left: usize,
}

struct KillerCage {
    cells: Vec<usize>,
    sum: u32,
}

struct Engine {
    full: u16,
    peers: Vec<Vec<usize>>,
    houses: Vec<Vec<usize>>,
    cages: Vec<KillerCage>,
    /// `combos[k][s]`: the masks of `k` distinct digits that add up to `s`.
    combos: Vec<Vec<Vec<u16>>>,
    /// Pairs of houses that share two cells or more: (the shared cells, the rest of the first,
    /// the rest of the second), for locked candidates.
    crossings: Vec<[Vec<usize>; 3]>,
}

impl Engine {
    fn new(rules: &Rules) -> Engine {
        let n = rules.size();
        let mut cages: Vec<KillerCage> = rules
            .cages()
            .iter()
            .filter_map(|c| {
                Some(KillerCage {
                    cells: c.cells.clone(),
                    sum: c.sum?,
                })
            })
            .collect();
        let houses = rules.houses();
        // The rule of 45 (for 9×9; n(n+1)/2 in general): the cells of a house outside the
        // cages that lie wholly inside it add up to the house's total less those cages' sums,
        // and hold distinct digits, so they are one more cage (the house's "innies").
        let total = (n * (n + 1) / 2) as u32;
        let mut innies = Vec::new();
        for house in &houses {
            let inside: Vec<&KillerCage> = cages
                .iter()
                .filter(|c| c.cells.iter().all(|x| house.contains(x)))
                .collect();
            if inside.is_empty() {
                continue;
            }
            let rest: Vec<usize> = house
                .iter()
                .copied()
                .filter(|x| !inside.iter().any(|c| c.cells.contains(x)))
                .collect();
            let used: u32 = inside.iter().map(|c| c.sum).sum();
            if !rest.is_empty() && rest.len() < house.len() && used <= total {
                innies.push(KillerCage {
                    cells: rest,
                    sum: total - used,
                });
            }
        }
        cages.extend(innies);
        let mut combos = Vec::new();
        if !cages.is_empty() {
            let max_sum = n * (n + 1) / 2;
            combos = vec![vec![Vec::new(); max_sum + 1]; n + 1];
            for m in 0u32..(1 << n) {
                let sum: usize = (0..n).filter(|d| m >> d & 1 == 1).map(|d| d + 1).sum();
                combos[m.count_ones() as usize][sum].push(m as u16);
            }
        }
        let mut crossings = Vec::new();
        for (i, a) in houses.iter().enumerate() {
            for b in &houses[i + 1..] {
                let shared: Vec<usize> = a.iter().copied().filter(|c| b.contains(c)).collect();
                if shared.len() >= 2 {
                    let rest = |h: &Vec<usize>| {
                        h.iter().copied().filter(|c| !shared.contains(c)).collect()
                    };
                    crossings.push([shared.clone(), rest(a), rest(b)]);
                }
            }
        }
        Engine {
            full: ((1u32 << n) - 1) as u16,
            peers: rules.peers(),
            houses,
            cages,
            combos,
            crossings,
        }
    }

    fn empty(&self) -> State {
        let cells = self.peers.len();
        State {
            cand: vec![self.full; cells],
            value: vec![0; cells],
            left: cells,
        }
    }

    /// Puts `d` in `cell` and takes it from the cell's peers; false on a contradiction.
    fn place(&self, s: &mut State, cell: usize, d: u8) -> bool {
        let bit = 1u16 << (d - 1);
        if s.value[cell] != 0 || s.cand[cell] & bit == 0 {
            return false;
        }
        s.value[cell] = d;
        s.cand[cell] = bit;
        s.left -= 1;
        for &p in &self.peers[cell] {
            if s.value[p] == 0 {
                s.cand[p] &= !bit;
                if s.cand[p] == 0 {
                    return false;
                }
            } else if s.value[p] == d {
                return false;
            }
        }
        true
    }

    /// Singles and cage sums to a fixed point; false on a contradiction.
    fn propagate(&self, s: &mut State) -> bool {
        loop {
            let mut changed = false;
            for cell in 0..s.cand.len() {
                if s.value[cell] == 0 && s.cand[cell].count_ones() == 1 {
                    let d = s.cand[cell].trailing_zeros() as u8 + 1;
                    if !self.place(s, cell, d) {
                        return false;
                    }
                    changed = true;
                }
            }
            for house in &self.houses {
                let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
                for &c in house {
                    if s.value[c] != 0 {
                        placed |= 1 << (s.value[c] - 1);
                    } else {
                        twice |= once & s.cand[c];
                        once |= s.cand[c];
                    }
                }
                if once | placed != self.full {
                    return false;
                }
                let mut singles = once & !twice & !placed;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles &= singles - 1;
                    let Some(&c) = house
                        .iter()
                        .find(|&&c| s.value[c] == 0 && s.cand[c] & bit != 0)
                    else {
                        return false;
                    };
                    if !self.place(s, c, bit.trailing_zeros() as u8 + 1) {
                        return false;
                    }
                    changed = true;
                }
            }
            // Locked candidates: a digit that one house can only hold where it crosses another
            // is taken from the rest of the other (pointing and claiming, for any two houses).
            if !changed {
                for [shared, rest_a, rest_b] in &self.crossings {
                    let digits = |cells: &[usize]| {
                        cells.iter().fold(0u16, |m, &c| {
                            m | if s.value[c] != 0 {
                                1 << (s.value[c] - 1)
                            } else {
                                s.cand[c]
                            }
                        })
                    };
                    let inside = shared.iter().fold(0u16, |m, &c| {
                        m | if s.value[c] == 0 { s.cand[c] } else { 0 }
                    });
                    if inside == 0 {
                        continue;
                    }
                    let (in_a, in_b) = (digits(rest_a), digits(rest_b));
                    for (only, other) in [(inside & !in_a, rest_b), (inside & !in_b, rest_a)] {
                        if only == 0 {
                            continue;
                        }
                        for &c in other.iter() {
                            if s.value[c] == 0 && s.cand[c] & only != 0 {
                                s.cand[c] &= !only;
                                if s.cand[c] == 0 {
                                    return false;
                                }
                                changed = true;
                            }
                        }
                    }
                }
            }
            for cage in &self.cages {
                let (mut placed_sum, mut placed, mut avail, mut open) = (0u32, 0u16, 0u16, 0usize);
                for &c in &cage.cells {
                    if s.value[c] != 0 {
                        placed_sum += s.value[c] as u32;
                        placed |= 1 << (s.value[c] - 1);
                    } else {
                        avail |= s.cand[c];
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
                let Some(masks) = self.combos[open].get(rest) else {
                    return false;
                };
                // A set of digits fits if the open cells' candidates hold all of it and each
                // open cell can take one of it.
                let union = masks
                    .iter()
                    .filter(|&&m| {
                        m & !avail == 0
                            && cage
                                .cells
                                .iter()
                                .all(|&c| s.value[c] != 0 || s.cand[c] & m != 0)
                    })
                    .fold(0u16, |u, &m| u | m);
                if union == 0 {
                    return false;
                }
                for &c in &cage.cells {
                    if s.value[c] == 0 && s.cand[c] & !union != 0 {
                        s.cand[c] &= union;
                        if s.cand[c] == 0 {
                            return false;
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    fn random(
        &self,
        mut s: State,
        rng: &mut impl Rng,
        deadline: Instant,
        nodes: &mut u64,
    ) -> Option<Vec<u8>> {
        *nodes += 1;
        if nodes.is_multiple_of(1024) && Instant::now() >= deadline {
            return None;
        }
        if !self.propagate(&mut s) {
            return None;
        }
        if s.left == 0 {
            return Some(s.value);
        }
        let cell = self.branch(&s);
        let mut digits: Vec<u8> = (1..=16)
            .filter(|d| s.cand[cell] >> (d - 1) & 1 == 1)
            .collect();
        digits.shuffle(rng);
        for d in digits {
            let mut t = s.clone();
            if self.place(&mut t, cell, d) {
                if let Some(found) = self.random(t, rng, deadline, nodes) {
                    return Some(found);
                }
            }
            if Instant::now() >= deadline {
                return None;
            }
        }
        None
    }

    /// The open cell with the fewest candidates.
    fn branch(&self, s: &State) -> usize {
        (0..s.cand.len())
            .filter(|&c| s.value[c] == 0)
            .min_by_key(|&c| s.cand[c].count_ones())
            .expect("an open cell")
    }

    fn search(&self, mut s: State, limit: usize, out: &mut VariantCount) {
        if !self.propagate(&mut s) {
            return;
        }
        if s.left == 0 {
            out.count += 1;
            if out.solution.is_none() {
                out.solution = Some(s.value);
            }
            return;
        }
        // Branch on the open cell with the fewest candidates, or on the places of a digit in
        // a house when some digit has fewer places than that cell has digits.
        let cell = self.branch(&s);
        let mut options: Vec<(usize, u8)> = Vec::new();
        let width = s.cand[cell].count_ones() as usize;
        if width > 2 {
            let mut best: Option<(usize, u8, usize)> = None;
            for (h, house) in self.houses.iter().enumerate() {
                let placed = house.iter().fold(0u16, |m, &c| {
                    m | if s.value[c] != 0 {
                        1 << (s.value[c] - 1)
                    } else {
                        0
                    }
                });
                let mut open = self.full & !placed;
                while open != 0 {
                    let bit = open & open.wrapping_neg();
                    open &= open - 1;
                    let places = house
                        .iter()
                        .filter(|&&c| s.value[c] == 0 && s.cand[c] & bit != 0)
                        .count();
                    if places < width && best.is_none_or(|b| places < b.2) {
                        best = Some((h, bit.trailing_zeros() as u8 + 1, places));
                    }
                }
            }
            if let Some((h, d, _)) = best {
                let bit = 1u16 << (d - 1);
                options = self.houses[h]
                    .iter()
                    .filter(|&&c| s.value[c] == 0 && s.cand[c] & bit != 0)
                    .map(|&c| (c, d))
                    .collect();
            }
        }
        if options.is_empty() {
            let mut digits = s.cand[cell];
            while digits != 0 {
                options.push((cell, digits.trailing_zeros() as u8 + 1));
                digits &= digits - 1;
            }
        }
        for (i, (c, d)) in options.into_iter().enumerate() {
            if i > 0 {
                out.guesses += 1;
            }
            let mut t = s.clone();
            if self.place(&mut t, c, d) {
                self.search(t, limit, out);
            }
            if out.count >= limit {
                return;
            }
        }
    }
}
