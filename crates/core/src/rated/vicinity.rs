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
//! # The gates and the proxy
//!
//! The measures are trial and error to depth one ("T&E(1)") on the candidate grid
//! ([`super::trial`]). Two gates, each a necessary condition checked against SE 1.2.1's
//! ratings of 1,018 calibration puzzles (`docs/rated.md`):
//!
//! - T&E(1) with singles ([`te1_left`]): each removal it makes is a contradiction chain of SE's
//!   level one, so a puzzle it solves never needs nesting. It leaves stuck exactly the 68
//!   calibration puzzles rated 9.5 and up. Generated puzzles it leaves stuck are mostly cracked
//!   by a triple (SE 3.6-4.0) or by SE's level-one "(+)" chains (9.0-9.9).
//! - T&E(1) with the basic techniques inside each trial and with cell and region forcing
//!   ([`plus_stuck`]), a model of SE's level one with "(+)": it leaves stuck exactly the 67
//!   calibration puzzles rated 10.0 and up (and 15 of 16 held-out ones: a level-one "(+)"
//!   chain with a long length bonus can rate 10.1, see `docs/rated.md`). A hunt for a range from [`PLUS_FROM`] rates only
//!   the puzzles past it; other hunts rate those past the first.
//!
//! The walk climbs on [`hardness`], in two tiers: [`te1_passes`] (T&E(1) with singles in
//! passes, each pass scored by the share of trials that refuted nothing: mean 948 on the
//! calibration's 8.x, 1,367 on 9.0-9.4, Spearman 0.83 with SE's ER) below the first gate, and
//! past it the same score of T&E(1) with the basic techniques and forcing, which tells the
//! puzzles a triple cracks (about 600) from those near nesting (1,500 and more), up to the
//! second gate. The exact solver's guess count (Spearman 0.86) was tried first: walks on it
//! stalled at ER 7-8. Measures that only see singles (the size of a singles backtracking tree,
//! the share of candidates refuted at the start) were gamed by puzzles that a naked pair cracks;
//! counting passes is not, since a pair found by a pass collapses the next one.

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
//! taken), a walk ending after 3,000 moves without a new best. It keeps an elite of the best
//! stuck puzzles met (no two equivalent, by canonical form); walks start from new digs of our
//! own generator until it has one, then from the elite, until 8 walks in a row bring nothing
//! better. Every new neighbour past the gate is rated once (per equivalence class) with
//! [`rate_until`] under the deadline.

use crate::time::Instant;
use std::collections::HashSet;

use rand::RngCore;

use super::trial::{passes, te1_solves, Inner, Passes};
use super::{below, dig};
use crate::bitset::{Cell, CellSet};
use crate::canon::PuzzleCanonicalizer;
use crate::generate::{generate_one, with, without, GenerateConfig, Generated};
use crate::grid::{Grid, Puzzle};
use crate::logic::{rate_until, Rating, Summary};
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
/// most `slack` below the current one. `score(p, floor)` may return any value below `floor`
/// for a puzzle that scores below `floor` (such a neighbour is neither walked to nor a new
/// best), which lets it stop early (a threshold-accepting walk, which crosses the plateaus
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
    score: &dyn Fn(&Puzzle, u64) -> u64,
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
            score: score(&p, cur.score.saturating_sub(slack)),
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

/// Trial and error to depth one with singles ("T&E(1)"): while some candidate, placed, leads by
/// naked and hidden singles to a contradiction, remove it (and propagate singles). Returns the
/// cells left unsolved (0: T&E(1) solves the puzzle, or the puzzle has no solution).
///
/// Each elimination is a contradiction chain of SE's level one, so a puzzle whose path needs
/// SE's nested forcing chains (9.5 and up) is never solved by it.
pub fn te1_left(p: &Puzzle) -> u32 {
    match passes(p, Inner::Singles, false) {
        Passes::Stuck(open) => open,
        _ => 0,
    }
}

/// Whether T&E(1) with SE's basic techniques inside each trial, and with cell and region
/// forcing over the trials' outcomes (a model of SE's level-one "Dynamic Forcing Chains (+)"),
/// is stuck on `p`: then SE needs nested chains for it (or finds a level-one chain that the
/// model misses).
pub fn plus_stuck(p: &Puzzle) -> bool {
    matches!(passes(p, Inner::Basic, true), Passes::Stuck(_))
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

/// The lowest rating asked for whose hunt rates only [`plus_stuck`] puzzles: on SE 1.2.1's
/// ratings of the calibration puzzles, T&E(1) with the basic techniques and forcing leaves
/// stuck every one rated 10.0 or more and none rated below (docs/rated.md).
pub const PLUS_FROM: Rating = Rating(100);
/// The most puzzles a hunt keeps as places to start a walk again from (its best, by
/// [`hardness`], no two equivalent).
const ELITE: usize = 8;
/// Walks from the elite in a row without a new best after which the hunt starts afresh.
const RESETS: usize = 8;

/// What a hunt found, and how much it looked.
#[derive(Clone, Debug, Default)]
pub struct HuntStats {
    /// Neighbours walked to or looked at.
    pub moves: u64,
    /// Neighbours that T&E(1) leaves stuck (SE needs nested chains for them).
    pub stuck: u64,
    /// Neighbours that T&E(1) with the basic techniques and forcing leaves stuck.
    pub plus_stuck: u64,
    /// Of those past the gate, rated by the grader (each equivalence class once).
    pub rated: u64,
    /// Walks started from a new dig.
    pub digs: u64,
    /// Walks started again from one of the best puzzles met.
    pub restarts: u64,
}

/// Looks for a puzzle rated in `range` by vicinity walks (module docs) from digs of `base`
/// (whose givens, symmetry and minimality are kept), up to `moves` moves in all or until
/// `deadline`. The walks climb on [`hardness`]; a walk that stalls starts again from one of
/// the best puzzles met so far once those are T&E(1)-stuck, otherwise from a new dig. Only
/// neighbours past the gate are rated (T&E(1)-stuck; [`plus_stuck`] for a range from
/// [`PLUS_FROM`]), each equivalence class once, and only while the deadline allows
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
    let gate = if range.0 >= PLUS_FROM {
        PLUS_STUCK
    } else {
        STUCK
    };
    let stop = || deadline.is_some_and(|d| Instant::now() >= d);
    let mut found = None;
    let mut canon = PuzzleCanonicalizer::new();
    let mut rated: HashSet<Puzzle> = HashSet::new();
    // The best puzzles met, best first, with their canonical forms.
    let mut elite: Vec<(Scored, Puzzle)> = Vec::new();
    // Walks in a row from the elite without a new best; at RESETS the elite is dropped and
    // the next walk starts from a new dig (the region may be a dead end).
    let mut stale = 0;
    let mut best_score = 0;
    while stats.moves < moves && !stop() {
        let top = elite.first().map_or(0, |e| e.0.score);
        if top > best_score {
            best_score = top;
            stale = 0;
        } else if stale >= RESETS {
            elite.clear();
            stale = 0;
            best_score = 0;
        }
        let start = if elite.first().is_some_and(|e| e.0.score >= STUCK) {
            stats.restarts += 1;
            stale += 1;
            elite[below(rng, elite.len())].0
        } else {
            *grids += 1;
            let Some(g) = generate_one(base, rng) else {
                continue;
            };
            stats.digs += 1;
            Scored {
                puzzle: g.puzzle,
                grid: g.solution,
                score: hardness(&g.puzzle),
            }
        };
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
            &hardness_above,
            &mut |s| {
                stats.moves += 1;
                if s.score < STUCK {
                    return false;
                }
                stats.stuck += 1;
                if s.score >= PLUS_STUCK {
                    stats.plus_stuck += 1;
                }
                // Stuck puzzles are kept as places to start again from.
                if elite.len() < ELITE || s.score > elite[elite.len() - 1].0.score {
                    let form = canon.canonical(&s.puzzle).form;
                    if !elite.iter().any(|e| e.1 == form) {
                        elite.push((*s, form));
                        elite.sort_by_key(|e| std::cmp::Reverse(e.0.score));
                        elite.truncate(ELITE);
                    }
                }
                if s.score < gate || !(givens.0..=givens.1).contains(&s.puzzle.givens()) {
                    return false;
                }
                if !rated.insert(canon.canonical(&s.puzzle).form) {
                    return false;
                }
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

/// T&E(1) with singles in passes ([`passes`]): the score adds up each pass's resistance (per
/// mille of candidates that did not lead to a contradiction), so a puzzle that T&E(1) cracks in
/// many grudging passes scores high; a puzzle it leaves stuck scores [`STUCK`] or more (plus a
/// thousand per cell it leaves open).
pub fn te1_passes(p: &Puzzle) -> u64 {
    match passes(p, Inner::Singles, false) {
        Passes::Solved(score) => score,
        // Among stuck puzzles, those stuck with more cells open rate higher (SE needs
        // nesting sooner and more often).
        Passes::Stuck(open) => STUCK + 1000 * u64::from(open),
        Passes::Contradiction => 0,
    }
}

/// [`hardness`], or any value below `floor` when the hardness is below it: from a stuck
/// `floor` up, a puzzle that T&E(1) solves ([`te1_solves`], with each removal applied at
/// once: several times fewer trials than the passes) scores 0. In the stuck region nearly every
/// neighbour is such a puzzle, so this is most of the hunt's scoring there.
pub fn hardness_above(p: &Puzzle, floor: u64) -> u64 {
    if floor >= STUCK && te1_solves(p) {
        return 0;
    }
    hardness(p)
}

/// [`te1_passes`]'s score of a puzzle that T&E(1) leaves stuck.
pub const STUCK: u64 = 1_000_000;
/// [`hardness`]'s score of a puzzle that even T&E(1) with the basic techniques and forcing
/// ([`plus_stuck`]) leaves stuck.
pub const PLUS_STUCK: u64 = 2_000_000;

/// The hunt's proxy, in two tiers: [`te1_passes`] below [`STUCK`]; for a puzzle T&E(1) with
/// singles leaves stuck, [`STUCK`] plus the resistance of T&E(1) with the basic techniques and
/// forcing in passes ([`plus_stuck`]'s model of SE's level one), or [`PLUS_STUCK`] plus a
/// thousand per open cell when that is stuck too. The second tier costs more, and is only run
/// on the rare puzzles the first leaves stuck.
pub fn hardness(p: &Puzzle) -> u64 {
    let first = te1_passes(p);
    if first < STUCK {
        return first;
    }
    match passes(p, Inner::Basic, true) {
        Passes::Solved(score) => STUCK + score.min(PLUS_STUCK - STUCK - 1),
        Passes::Stuck(open) => PLUS_STUCK + 1000 * u64::from(open),
        Passes::Contradiction => 0,
    }
}

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
    fn the_plus_gate_leaves_stuck_a_puzzle_se_rates_11_but_not_9_7() {
        // `se_hardest.tsv`: SE rates the first 11.0 (nesting), the second 9.7 (a level-one "(+)"
        // chain, which the basic techniques inside the trials and forcing model).
        let nested = puzzle(
            "98765....6....85....4......3..8..9...7...9.......3..2.1...8.6...6.1...52.4...6...",
        );
        let plus = puzzle(
            "..3.9....1...4..36..8..21...4..8..73...9................4.7..686........7.....5.4",
        );
        assert!(plus_stuck(&nested));
        assert!(hardness(&nested) >= PLUS_STUCK);
        assert!(te1_left(&plus) > 0);
        assert!(!te1_solves(&plus) && !te1_solves(&nested));
        assert!(!plus_stuck(&plus));
        assert!((STUCK..PLUS_STUCK).contains(&hardness(&plus)));
    }

    #[test]
    fn the_gates_pass_an_se_9_4_puzzle() {
        // `se_calibration.tsv`: top1465, SE 9.4 (Dynamic Contradiction Forcing Chains).
        let p = puzzle(
            "6.....3...5..9..8...2..6..98.....7...7..5..4......1..51..3..5...4..2..6...8..7..2",
        );
        assert_eq!(te1_left(&p), 0);
        assert!(te1_solves(&p));
        assert_eq!(hardness_above(&p, STUCK), 0);
        assert!(!plus_stuck(&p));
        assert!(hardness(&p) < STUCK);
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

/// The kinds of neighbour a [`seeded_hunt`] rates, by where T&E(1)'s gates put them: each kind
/// is rated only when the range asked for meets the ratings it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// T&E(1) with singles solves it, in passes that score at least [`SEEDED_FLOOR`]: SE's
    /// dynamic forcing chains and below (up to 9.4).
    Solved,
    /// T&E(1) with singles is stuck, T&E(1) with basic techniques and forcing is not: SE's
    /// level-one "(+)" chains, 9.5 to 10.1 (or a triple, 3.6-4.0).
    Stuck,
    /// Both are stuck: SE's nested chains, 10.0 and up.
    PlusStuck,
}

/// The least [`te1_passes`] score of a neighbour that T&E(1) solves for a seeded hunt to rate
/// it: on the calibration puzzles the mean score is 948 at SE 8.x and 1,367 at 9.0-9.4.
pub const SEEDED_FLOOR: u64 = 1000;

/// The highest rating of the level-one "(+)" chains (with their length bonus; docs/rated.md).
const LEVEL_ONE_TOP: Rating = Rating(101);

/// Whether a seeded hunt can serve `base`: the seeds have no symmetry and 20 to 26 givens, and
/// their neighbours keep about as many.
pub fn seeded_fits(base: &GenerateConfig) -> bool {
    let (lo, hi) = base.givens.unwrap_or((0, 81));
    base.unique && base.symmetry.orbits().len() == 81 && lo <= 26 && hi >= 20
}

/// Looks for a puzzle rated in `range` (from 9.0 up) among the neighbours of the forum's hard
/// puzzles ([`super::seeds`]): each move takes a seed at random (or, half the time once there
/// are some, one of the hard neighbours met so far), makes one [`neighbour`] of it, and rates it
/// when its kind (by the gates: solved, stuck, stuck with both) can hold ratings in `range`, it
/// keeps `base`'s givens, and it is equivalent to no seed and to no puzzle rated before. Up to `moves` moves or until
/// `deadline`; the result is proper, minimal, new, and rated in full.
///
/// Measured (docs/rated.md, "The top of the scale"): about one move in 30 gives a neighbour past
/// both gates, and most of those rate 10.0 to 11.2.
pub fn seeded_hunt<R: RngCore>(
    base: &GenerateConfig,
    range: (Rating, Rating),
    rng: &mut R,
    moves: u64,
    deadline: Option<Instant>,
    stats: &mut HuntStats,
) -> Option<(Generated, Summary)> {
    let seeds = super::seeds::seeds();
    let orbits = base.symmetry.orbits();
    let givens = base.givens.unwrap_or((0, 81));
    let wants = |k: Kind| match k {
        Kind::Solved => range.0 < NESTED,
        Kind::Stuck => range.1 >= NESTED && range.0 <= LEVEL_ONE_TOP,
        Kind::PlusStuck => range.1 >= PLUS_FROM,
    };
    let stop = || deadline.is_some_and(|d| Instant::now() >= d);
    let mut canon = PuzzleCanonicalizer::new();
    let mut rated: HashSet<Puzzle> = HashSet::new();
    // Hard neighbours met (past a gate), as further places to start from.
    let mut met: Vec<Scored> = Vec::new();
    let mut m = 0;
    while m < moves {
        if m % 8 == 0 && stop() {
            return None;
        }
        m += 1;
        stats.moves += 1;
        let start = if !met.is_empty() && rng.next_u32() & 1 == 0 {
            met[below(rng, met.len())]
        } else {
            let p = seeds[below(rng, seeds.len())];
            let Some(grid) = Solver::new(&p).count(2).solution else {
                continue;
            };
            Scored {
                puzzle: p,
                grid,
                score: 0,
            }
        };
        let Some((p, grid)) = neighbour(&start, &orbits, rng) else {
            continue;
        };
        if !(givens.0..=givens.1).contains(&p.givens()) {
            continue;
        }
        let kind = match passes(&p, Inner::Singles, false) {
            Passes::Solved(score) if score >= SEEDED_FLOOR => Kind::Solved,
            Passes::Solved(_) | Passes::Contradiction => continue,
            Passes::Stuck(_) => {
                stats.stuck += 1;
                if plus_stuck(&p) {
                    stats.plus_stuck += 1;
                    Kind::PlusStuck
                } else {
                    Kind::Stuck
                }
            }
        };
        if kind != Kind::Solved && met.len() < 64 {
            met.push(Scored {
                puzzle: p,
                grid,
                score: 0,
            });
        }
        if !wants(kind) {
            continue;
        }
        let form = canon.canonical(&p).form;
        if super::seeds::is_seed_class(&form) || !rated.insert(form) {
            continue;
        }
        stats.rated += 1;
        let r = rate_until(&p, &stop)?;
        if r.solved && (range.0..=range.1).contains(&r.er) {
            return Some((
                Generated {
                    puzzle: p,
                    solution: grid,
                },
                r,
            ));
        }
    }
    None
}
