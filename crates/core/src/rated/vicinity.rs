//! The vicinity search: puzzles rated 9.0 and above (SE's nested forcing chains from 9.5), found
//! by walking from a minimal puzzle of our own generator over its neighbours, guided by a cheap
//! hardness proxy, and rating only the candidates the proxy ranks high.
//!
//! # Why
//!
//! Random minimal puzzles rated 9.5 and above are a few in a million (none of 300,000 dug by
//! [`generate_one`] was even a candidate), and rating one costs up to seconds (nested forcing
//! chains), so neither drawing nor [`super`]'s climb (which rates every neighbour) reaches them.
//! The players' forum finds its hardest puzzles by "vicinity" searches: from a hard minimal
//! puzzle, apply {-n+n} moves (remove givens, add others, keep the puzzle proper and minimal)
//! and keep the neighbours that score harder by a fast measure.
//!
//! # The gate and the proxy
//!
//! Trial and error to depth one with singles ([`te1_left`]) is the gate: each removal it makes
//! is a contradiction chain of SE's level one, so a puzzle it solves never needs SE's nested
//! chains. On SE 1.2.1's ratings of 977 calibration puzzles (`docs/rated.md`) it leaves stuck
//! exactly the 24 rated 9.5 and up. Only stuck puzzles are rated (a stuck puzzle may still rate
//! 9.0-9.4: SE's "(+)" chains use the basic techniques inside the chain, which T&E(1) with
//! singles does not).
//!
//! The walk climbs on [`te1_passes`] (T&E(1) in passes, each pass scored by the share of
//! candidates it could *not* refute): mean 948 on the calibration's 8.x, 1,367 on 9.0-9.4,
//! stuck above (Spearman 0.81 with SE's ER). The exact solver's guess count (Spearman 0.86) was
//! tried first: walks on it stalled at ER 7-8. Measures that only see singles (the size of a
//! singles backtracking tree, the share of candidates refuted at the start) were gamed by
//! puzzles that a naked pair cracks; counting passes is not, since a pair found by a pass
//! collapses the next one.
//!
//! # Moves
//!
//! From a proper minimal puzzle `p` with solution `g`, one move removes one or two given orbits,
//! picks the grid the new puzzle will have (`g`, or half the time another solution of `p` less the
//! removed orbits: the digits change, not only the pattern), adds as many orbits of that grid's
//! digits at empty cells, repairs the puzzle to a unique solution (while a second solution
//! exists, add an orbit where it differs from the grid: an unavoidable set), and digs it to a
//! minimal puzzle. The result is proper and minimal over the orbits by construction.
//!
//! [`hunt`] walks by threshold accepting (a neighbour up to 100 below the current score is
//! taken) from digs of our own generator, starting afresh after 3,000 moves without a new best,
//! and rates every new stuck neighbour with [`rate_until`] under the deadline. Once a walk
//! reaches stuck puzzles it stays among them (their scores are far above), where stuck
//! neighbours are common.

use std::time::Instant;

use rand::RngCore;

use super::{below, dig};
use crate::bitset::{Cell, CellSet};
use crate::generate::{generate_one, with, without, GenerateConfig, Generated};
use crate::grid::{Grid, Puzzle};
use crate::logic::{rate_until, Rating, Summary, HOUSE_CELLS, PEERS};
use crate::solver::Solver;

/// A proper puzzle with its solution and proxy score ([`te1_passes`]).
#[derive(Clone, Copy, Debug)]
pub struct Scored {
    /// The puzzle: proper and minimal over the orbits.
    pub puzzle: Puzzle,
    /// Its solution.
    pub grid: Grid,
    /// [`te1_passes`] of the puzzle.
    pub score: u64,
}

impl Scored {
    /// Scores a proper puzzle.
    pub fn new(puzzle: Puzzle, grid: Grid) -> Scored {
        Scored {
            puzzle,
            grid,
            score: te1_passes(&puzzle),
        }
    }
}

/// The most orbits a move adds to make the puzzle proper again before giving up.
const REPAIR_ADDS: usize = 10;

/// A solution of `q` other than `g` (which solves it), if there is one: first the solver's own
/// first solution, then one search per empty cell (in random order) with `g`'s digit forbidden.
fn other_solution<R: RngCore>(q: &Puzzle, g: &Grid, rng: &mut R) -> Option<Grid> {
    let base = Solver::new(q);
    let out = base.count(2);
    if out.count < 2 {
        return None;
    }
    let first = out.solution.expect("a solution");
    if first != *g {
        return Some(first);
    }
    let mut empty: Vec<Cell> = (!q.filled() & CellSet::ALL).iter().collect();
    for i in (1..empty.len()).rev() {
        empty.swap(i, below(rng, i + 1));
    }
    empty.into_iter().find_map(|c| {
        let mut s = base;
        s.forbid(c, g.get(c));
        s.count(1).solution
    })
}

/// The cells where two grids differ.
fn differ(a: &Grid, b: &Grid) -> CellSet {
    Cell::all().filter(|&c| a.get(c) != b.get(c)).collect()
}

/// One vicinity move from `s` (see the module docs): a proper puzzle minimal over `orbits`, or
/// `None` when the repair gives up.
pub fn neighbour<R: RngCore>(
    s: &Scored,
    orbits: &[CellSet],
    rng: &mut R,
) -> Option<(Puzzle, Grid)> {
    let filled = s.puzzle.filled();
    let full: Vec<CellSet> = orbits
        .iter()
        .copied()
        .filter(|&o| (o & filled) == o)
        .collect();
    if full.is_empty() {
        return None;
    }
    let k = 1 + (rng.next_u32() & 1) as usize;
    let mut removed = CellSet::EMPTY;
    for _ in 0..k {
        removed |= full[below(rng, full.len())];
    }
    let mut q = without(&s.puzzle, removed);
    // The new grid: `g`, or another solution of the opened puzzle (found by forbidding `g`'s
    // digit in one removed cell).
    let mut grid = s.grid;
    if rng.next_u32() & 1 == 0 {
        let cells: Vec<Cell> = removed.iter().collect();
        let c = cells[below(rng, cells.len())];
        let mut solver = Solver::new(&q);
        solver.forbid(c, s.grid.get(c));
        if let Some(other) = solver.count(1).solution {
            grid = other;
        }
    }
    // Add as many orbits as were removed, at cells that were empty before the move.
    let empty: Vec<CellSet> = orbits
        .iter()
        .copied()
        .filter(|&o| (o & (filled | removed)).is_empty())
        .collect();
    for _ in 0..k {
        if empty.is_empty() {
            break;
        }
        q = with(&q, empty[below(rng, empty.len())], &grid);
    }
    for _ in 0..REPAIR_ADDS {
        let Some(other) = other_solution(&q, &grid, rng) else {
            return Some((dig(q, &grid, orbits, 0, rng), grid));
        };
        let d = differ(&other, &grid);
        let have = q.filled();
        let choices: Vec<CellSet> = orbits
            .iter()
            .copied()
            .filter(|&o| (o & have).is_empty() && !(o & d).is_empty())
            .collect();
        if choices.is_empty() {
            return None;
        }
        q = with(&q, choices[below(rng, choices.len())], &grid);
    }
    None
}

/// Climbs from `start` by [`neighbour`] moves: a neighbour is walked to when its score is at
/// most `slack` below the current one (a threshold-accepting walk, which crosses the plateaus
/// and shallow dips a strict climb stalls on), for at most `moves` moves, or until `stall` moves
/// in a row fail to beat the best score, or `deadline` passes. Calls `visit` on each neighbour;
/// stops and returns it when `visit` returns `true`. Otherwise returns the best puzzle seen.
#[allow(clippy::too_many_arguments)]
pub fn climb<R: RngCore>(
    start: Scored,
    orbits: &[CellSet],
    rng: &mut R,
    moves: usize,
    stall: usize,
    slack: u64,
    deadline: Option<Instant>,
    score: &dyn Fn(&Puzzle) -> u64,
    visit: &mut dyn FnMut(&Scored) -> bool,
) -> Scored {
    let mut cur = start;
    let mut best = start;
    let mut stalled = 0;
    for m in 0..moves {
        if stalled >= stall || (m % 8 == 7 && deadline.is_some_and(|d| Instant::now() >= d)) {
            break;
        }
        stalled += 1;
        let Some((p, g)) = neighbour(&cur, orbits, rng) else {
            continue;
        };
        let next = Scored {
            puzzle: p,
            grid: g,
            score: score(&p),
        };
        if visit(&next) {
            return next;
        }
        if next.score + slack >= cur.score {
            cur = next;
        }
        if next.score > best.score {
            stalled = 0;
            best = next;
        }
    }
    best
}

/// Sets cell `c` to the single candidate `bit` and removes it from the peers, recursively for
/// naked singles; `false` on a contradiction.
fn assign(cand: &mut [u16; 81], c: usize, bit: u16) -> bool {
    if cand[c] & bit == 0 {
        return false;
    }
    if cand[c] == bit && bit & 0x8000 != 0 {
        return true;
    }
    cand[c] = bit | 0x8000;
    for &o in &PEERS[c] {
        let o = o as usize;
        if cand[o] & bit != 0 {
            if cand[o] & 0x8000 != 0 {
                return false;
            }
            cand[o] &= !bit;
            let m = cand[o];
            if m == 0 {
                return false;
            }
            if m.count_ones() == 1 && !assign(cand, o, m) {
                return false;
            }
        }
    }
    true
}

/// Hidden singles to a fixed point; `false` on a contradiction.
fn hidden(cand: &mut [u16; 81]) -> bool {
    loop {
        let mut changed = false;
        for h in &HOUSE_CELLS {
            let (mut once, mut twice, mut set) = (0u16, 0u16, 0u16);
            for &c in h {
                let m = cand[c as usize];
                if m & 0x8000 != 0 {
                    set |= m & 0x1ff;
                } else {
                    twice |= once & m;
                    once |= m;
                }
            }
            if (once | set) & 0x1ff != 0x1ff {
                return false;
            }
            let single = once & !twice & !set & 0x1ff;
            if single != 0 {
                for &c in h {
                    let m = cand[c as usize];
                    if m & 0x8000 == 0 && m & single != 0 {
                        let bit = m & single;
                        if bit.count_ones() > 1 || !assign(cand, c as usize, bit) {
                            return false;
                        }
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return true;
        }
    }
}

/// Trial and error to depth one with singles ("T&E(1)"): while some candidate, placed, leads by
/// naked and hidden singles to a contradiction, remove it (and propagate singles). Returns the
/// cells left unsolved (0: T&E(1) solves the puzzle).
///
/// Each elimination is a contradiction chain of SE's level one, so a puzzle whose path needs
/// SE's nested forcing chains (9.5 and up) is never solved by it.
pub fn te1_left(p: &Puzzle) -> u32 {
    te1(p).0
}

/// [`te1_left`] with the number of eliminations T&E(1) made (in cell order, each propagated
/// before the next trial).
fn te1(p: &Puzzle) -> (u32, u32) {
    let mut elims = 0;
    let mut cand = [0x1ffu16; 81];
    for c in Cell::all() {
        if let Some(d) = p.get(c) {
            if !assign(&mut cand, c.as_index(), 1 << d.as_index()) {
                return (0, 0);
            }
        }
    }
    if !hidden(&mut cand) {
        return (0, 0);
    }
    loop {
        let mut changed = false;
        for c in 0..81 {
            let m = cand[c];
            if m & 0x8000 != 0 {
                continue;
            }
            let mut rest = m;
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                rest &= !bit;
                if cand[c] & bit == 0 || cand[c] & 0x8000 != 0 {
                    continue;
                }
                let mut t = cand;
                if assign(&mut t, c, bit) && hidden(&mut t) {
                    continue;
                }
                changed = true;
                elims += 1;
                cand[c] &= !bit;
                let left = cand[c];
                if left == 0
                    || (left.count_ones() == 1 && !assign(&mut cand, c, left))
                    || !hidden(&mut cand)
                {
                    return (0, elims);
                }
            }
        }
        if !changed {
            break;
        }
    }
    (
        cand.iter().filter(|&&m| m & 0x8000 == 0).count() as u32,
        elims,
    )
}

/// The lowest rating of SE's nested forcing chains (level 2): a puzzle rated this or more is one
/// that T&E(1) leaves stuck (module docs), which is what the hunt looks for.
pub const NESTED: Rating = Rating(95);
/// The lowest rating asked for that only the hunt looks for: the climb of [`super`] reaches
/// 9.0-9.3 (SE's dynamic forcing chains), rarely more.
pub const HUNT_FROM: Rating = Rating(94);
/// Moves of the hunt an extreme puzzle (9.0 and up) starts with, before the climb of
/// [`super`] looks for the commoner 9.0-9.3: a few seconds, which find a puzzle above 9.3 for
/// a few items in a hundred (measured: docs/rated.md).
pub const EXTREME_HUNT_MOVES: u64 = 10_000;
/// Moves of a hunt without a deadline, so that it returns.
pub const MOVES_WITHOUT_DEADLINE: u64 = 1_000_000;
/// Threshold accepting: a neighbour up to this much below the current score is walked to.
const SLACK: u64 = 100;
/// Moves of one walk without a new best score before the walk starts again from a new dig.
const STALL: usize = 3000;
/// Moves of one walk in all.
const MOVES: usize = 20_000;

/// What a hunt found, and how much it looked.
#[derive(Clone, Debug, Default)]
pub struct HuntStats {
    /// Neighbours walked to or looked at.
    pub moves: u64,
    /// Neighbours that T&E(1) leaves stuck (SE needs nested chains for them).
    pub stuck: u64,
    /// Of those, rated by the grader.
    pub rated: u64,
}

/// Looks for a puzzle rated in `range` by vicinity walks (module docs) from digs of `base`
/// (whose givens, symmetry and minimality are kept), up to `moves` moves in all or until
/// `deadline`. Only T&E(1)-stuck neighbours are rated, and only while the deadline allows
/// (`rate_until`): the result, if any, is proper, in `range`, and rated in full.
#[allow(clippy::too_many_arguments)]
pub fn hunt<R: RngCore>(
    base: &GenerateConfig,
    orbits: &[CellSet],
    range: (Rating, Rating),
    rng: &mut R,
    moves: u64,
    deadline: Option<Instant>,
    grids: &mut u64,
    stats: &mut HuntStats,
) -> Option<(Generated, Summary)> {
    let givens = base.givens.unwrap_or((0, 81));
    let stop = || deadline.is_some_and(|d| Instant::now() >= d);
    let mut found = None;
    let mut rated: Vec<Puzzle> = Vec::new();
    while stats.moves < moves && !stop() {
        *grids += 1;
        let Some(g) = generate_one(base, rng) else {
            continue;
        };
        let start = Scored::new(g.puzzle, g.solution);
        let left = (moves - stats.moves).min(MOVES as u64) as usize;
        let mut out_of_time = false;
        climb(
            start,
            orbits,
            rng,
            left,
            STALL,
            SLACK,
            deadline,
            &te1_passes,
            &mut |s| {
                stats.moves += 1;
                if s.score < STUCK || !(givens.0..=givens.1).contains(&s.puzzle.givens()) {
                    return false;
                }
                stats.stuck += 1;
                if rated.contains(&s.puzzle) {
                    return false;
                }
                rated.push(s.puzzle);
                stats.rated += 1;
                let Some(r) = rate_until(&s.puzzle, &stop) else {
                    out_of_time = true;
                    return true;
                };
                if r.solved && (range.0..=range.1).contains(&r.er) {
                    found = Some((
                        Generated {
                            puzzle: s.puzzle,
                            solution: s.grid,
                        },
                        r,
                    ));
                    return true;
                }
                false
            },
        );
        if found.is_some() || out_of_time {
            break;
        }
    }
    found
}

/// T&E(1) in passes: each pass tries every candidate on the current position, then removes
/// all those that led to a contradiction at once (and propagates singles). The score adds up
/// each pass's resistance (per mille of candidates that did not lead to a contradiction), so a
/// puzzle that T&E(1) cracks in many grudging passes scores high; a puzzle it leaves stuck
/// scores [`STUCK`] or more (plus a thousand per cell it leaves open).
pub fn te1_passes(p: &Puzzle) -> u64 {
    let mut cand = [0x1ffu16; 81];
    for c in Cell::all() {
        if let Some(d) = p.get(c) {
            if !assign(&mut cand, c.as_index(), 1 << d.as_index()) {
                return 0;
            }
        }
    }
    if !hidden(&mut cand) {
        return 0;
    }
    let mut score = 0;
    loop {
        let mut elims: Vec<(usize, u16)> = Vec::new();
        let mut total = 0u64;
        for c in 0..81 {
            let m = cand[c];
            if m & 0x8000 != 0 {
                continue;
            }
            let mut rest = m;
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                rest &= !bit;
                total += 1;
                let mut t = cand;
                if !(assign(&mut t, c, bit) && hidden(&mut t)) {
                    elims.push((c, bit));
                }
            }
        }
        if total == 0 {
            return score;
        }
        if elims.is_empty() {
            // Among stuck puzzles, those stuck with more cells open rate higher (SE needs
            // nesting sooner and more often).
            let open = cand.iter().filter(|&&m| m & 0x8000 == 0).count() as u64;
            return STUCK + 1000 * open;
        }
        score += 1000 - 1000 * elims.len() as u64 / total;
        for (c, bit) in elims {
            if cand[c] & 0x8000 != 0 {
                continue;
            }
            cand[c] &= !bit;
            let left = cand[c];
            if left == 0 || (left.count_ones() == 1 && !assign(&mut cand, c, left)) {
                return 0;
            }
        }
        if !hidden(&mut cand) {
            return 0;
        }
    }
}

/// [`te1_passes`]'s score of a puzzle that T&E(1) leaves stuck.
pub const STUCK: u64 = 1_000_000;

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(line: &str) -> Puzzle {
        line.parse().expect("a puzzle")
    }

    #[test]
    fn te1_solves_a_puzzle_of_singles_with_one_pass_of_nothing_to_refute() {
        let p = puzzle(
            "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9",
        );
        assert_eq!(te1_left(&p), 0);
        assert!(te1_passes(&p) < STUCK);
    }

    #[test]
    fn te1_is_stuck_on_a_puzzle_se_rates_11() {
        // `se_hardest.tsv`: SE 1.2.1 rates it 11.0 (nested forcing chains from the first step).
        let p = puzzle(
            "98765....6....85....4......3..8..9...7...9.......3..2.1...8.6...6.1...52.4...6...",
        );
        assert!(te1_left(&p) > 0);
        assert!(te1_passes(&p) >= STUCK);
    }

    #[test]
    fn a_neighbour_is_proper() {
        let mut rng = crate::grids::rng_for(7, 0);
        let g = generate_one(&GenerateConfig::default(), &mut rng).expect("a puzzle");
        let s = Scored::new(g.puzzle, g.solution);
        let orbits = crate::generate::Symmetry::None.orbits();
        let (p, grid) = (0..20)
            .find_map(|_| neighbour(&s, &orbits, &mut rng))
            .expect("a move");
        assert_eq!(
            crate::solver::solve_unique(&p),
            crate::solver::Solutions::Unique(grid)
        );
    }
}
