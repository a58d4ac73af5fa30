//! Digging: removing givens orbit by orbit while the puzzle stays unique, with group testing,
//! and the descent to few givens (see `docs/generate.md`).

use super::*;

/// How many cells to test together when `givens` are left, from the measured chance that a
/// single removal keeps the puzzle proper (1.00 above 72 givens, 0.99 at 60, 0.96 at 50, 0.86
/// at 40, 0.48 at 30). Measured with callgrind over 1,000 minimal puzzles, the choice matters
/// little (±1% of instructions): the checks near the end, where most removals fail, dominate.
pub(super) fn group_cells(givens: usize) -> usize {
    match givens {
        75.. => 40,
        60..=74 => 6,
        50..=59 => 4,
        44..=49 => 2,
        _ => 1,
    }
}
/// Sequential digging, sped up by group testing.
///
/// Plain digging tries the orbits one by one in a random order and keeps each removal that
/// leaves the puzzle proper. Removing a run of consecutive orbits at once is proper if and
/// only if each of those removals, made one by one, would have been (a puzzle with more givens
/// than a proper one is proper), so one count-to-two search can stand for the whole run. A run
/// that fails is split in halves; when the first half goes entirely, the second half is known
/// to fail as a whole and is split without a test. The result is exactly the puzzle of plain
/// digging in the same order, with fewer searches while most removals succeed.
pub(super) struct Digger<'a> {
    pub(super) grid: &'a SolutionGrid,
    /// Unavoidable sets of the grid (see [`unavoidable_sets`]).
    pub(super) unavoidable: &'a [CellSet],
    /// Unavoidable sets learned from the other solutions that failing searches found, if
    /// `learn`. They only pay for themselves in the local search, which digs the same grid
    /// again and again (measured: 3% more instructions for plain minimal puzzles).
    pub(super) learned: Vec<CellSet>,
    pub(super) learn: bool,
    pub(super) p: Puzzle,
    /// `p` loaded into the solver, kept in step with it: each test unloads only the cells it
    /// removes ([`Solver::unload`]) (`Solver::new` was 8.7% of minimal-puzzle generation).
    pub(super) solver: Solver,
    /// The givens of `p`, kept in step with it.
    pub(super) filled: CellSet,
    pub(super) givens: usize,
    /// Cells of kept pair orbits that could be removed alone when their orbit was tested (see
    /// [`Digger::run`]): likely weak orbits, which the repair checks first.
    pub(super) spare: CellSet,
    /// Which known set last proved each removal fails ([`Reasons`]), kept from dig to dig.
    pub(super) reasons: &'a mut Reasons,
}

/// For each cell, where among the known sets (`unavoidable`, then `learned`, as one list) lies
/// the set that last proved that removing the run of orbits starting at that cell breaks
/// uniqueness; [`NO_REASON`] when none did. A hint only: the set it names is tested first, and
/// the scan of all the sets follows when the list has changed or the set is hit now, so the
/// dig decides exactly as without it.
///
/// The repair digs the same grid again after each move, and most of its removals fail for the
/// same known set as in the last dig (a move adds one orbit, which hits a few of the sets): the
/// scan of up to [`MAX_LEARNED`] sets an orbit, stopping at the first set missed, was 6% of
/// the instructions of rot180 minimal generation (docs/generate.md, "What the walk and its searches do to stay cheap").
pub(super) type Reasons = [u16; 81];

/// [`Reasons`] with no hint.
pub(super) const NO_REASON: Reasons = [u16::MAX; 81];

impl Digger<'_> {
    /// Whether `left` (the givens without `cells`) misses a known set ([`misses_one`] over
    /// `unavoidable` and `learned`), trying first the set that proved it for the same first
    /// cell last time ([`Reasons`]).
    pub(super) fn misses_known(&mut self, cells: CellSet, left: CellSet) -> bool {
        let key = cells.bits().trailing_zeros() as usize;
        let n = self.unavoidable.len();
        let hint = self.reasons[key] as usize;
        let set = if hint < n {
            self.unavoidable.get(hint)
        } else {
            self.learned.get(hint - n)
        };
        if set.is_some_and(|&u| (u & left).is_empty()) {
            return true;
        }
        let found = match first_missed(self.unavoidable, left) {
            Some(i) => Some(i),
            None => first_missed(&self.learned, left).map(|i| n + i),
        };
        if let Some(i) = found {
            self.reasons[key] = u16::try_from(i).unwrap_or(u16::MAX);
        }
        found.is_some()
    }

    /// Digs through `order` (orbits in the order to try them), never going below `floor`.
    pub(super) fn dig(&mut self, order: &[CellSet], floor: usize) {
        let mut i = 0;
        while i < order.len() {
            // The longest run of orbits, up to the group size, that stays above the floor.
            let want = group_cells(self.givens);
            let (mut j, mut cells) = (i, 0);
            while j < order.len() {
                let k = orbit_len(order[j]);
                if cells + k > want.max(k) || self.givens < floor + cells + k {
                    break;
                }
                cells += k;
                j += 1;
            }
            if j == i {
                // This orbit alone would go below the floor; so it would at its turn in plain
                // digging, and there it is skipped too.
                i += 1;
                continue;
            }
            self.run(&order[i..j], false);
            i = j;
        }
    }

    /// Tests the run `group` as plain digging would; `known_fail` if removing it all at once
    /// is already known to break uniqueness.
    pub(super) fn run(&mut self, group: &[CellSet], known_fail: bool) {
        let cells = group.iter().fold(CellSet::EMPTY, |a, &o| a | o);
        let left = self.filled & !cells;
        let known_fail = known_fail || self.misses_known(cells, left);
        if group.len() == 1 {
            if !known_fail {
                let q = without(&self.p, cells);
                let base = self.solver.unload(&q, cells);
                let pair = self.grid.light && cells.len() == 2;
                let found = if pair {
                    self.grid.pair_test(base, cells)
                } else {
                    self.grid.other_solution_in(base, cells).map(|h| (h, false))
                };
                match found {
                    None => {
                        self.p = q;
                        self.solver = base;
                        self.filled &= !cells;
                        self.givens -= cells.len() as usize;
                    }
                    Some((h, spare)) if self.learn => {
                        // Without the pair test, the searches forbid the grid's digit in the
                        // orbit's cells in turn, placing it in the cells before: a solution that
                        // agrees with the grid in the first cell was found by a later search,
                        // so the first search found none, and the puzzle without that first
                        // cell alone had no other solution (its solutions are among those of
                        // the puzzle without the whole orbit): the cell was removable alone,
                        // the orbit weak.
                        let first = cells.iter().next().expect("an orbit has a cell");
                        let agrees = cells.len() > 1 && h.get(first) == self.grid.get(first);
                        if spare || (!pair && agrees) {
                            self.spare |= CellSet::single(first);
                        }
                        let u = difference(&h, self.grid);
                        self.learned.push(u);
                        if self.grid.half_turn {
                            self.learned.push(half_turn(u));
                        }
                    }
                    Some(_) => {}
                }
            }
            return;
        }
        if !known_fail {
            let q = without(&self.p, cells);
            let loaded = self.solver.unload(&q, cells);
            let out = loaded.count(2);
            if out.count == 1 {
                self.p = q;
                self.solver = loaded;
                self.filled &= !cells;
                self.givens -= cells.len() as usize;
                return;
            }
            // The first solution found may be the other one.
            if let Some(h) = out.solution.filter(|h| self.learn && *h != self.grid.grid) {
                self.learned.push(difference(&h, self.grid));
            }
        }
        let (a, b) = group.split_at(group.len() / 2);
        let before = self.givens;
        self.run(a, false);
        let all_gone = before - self.givens == a.iter().map(|o| o.len() as usize).sum::<usize>();
        self.run(b, all_gone);
    }
}

/// Digs `p` (proper, with solution `grid`) down to a puzzle that is minimal over `orbits`,
/// trying them in random order and never going below `floor` givens. If `learn`, also returns
/// the unavoidable sets learned on the way, and the cells of kept orbits that could be removed
/// alone when their orbit was tested ([`Digger::spare`]).
///
/// Minimal for free: removing givens only adds solutions, so a removal that failed once fails
/// after any later removal too, and one pass leaves no removable orbit (unless the floor
/// stopped it).
pub(super) fn dig<R: RngCore>(
    p: Puzzle,
    grid: &SolutionGrid,
    unavoidable: &[CellSet],
    orbits: &[CellSet],
    floor: usize,
    learn: bool,
    rng: &mut R,
) -> (Puzzle, Vec<CellSet>, CellSet) {
    let mut reasons = NO_REASON;
    let (p, learned, spare, _, _) = dig_loaded(
        p,
        Solver::new(&p),
        grid,
        unavoidable,
        &mut reasons,
        orbits,
        floor,
        learn,
        rng,
    );
    (p, learned, spare)
}

/// [`dig`], and the dug puzzle loaded into the solver (the digger keeps it in step: the repair
/// starts its next move from it instead of loading the puzzle again) and its givens as a set.
// The repair keeps `reasons` from dig to dig; the other callers go through `dig`.
#[allow(clippy::too_many_arguments)]
pub(super) fn dig_loaded<R: RngCore>(
    p: Puzzle,
    solver: Solver,
    grid: &SolutionGrid,
    unavoidable: &[CellSet],
    reasons: &mut Reasons,
    orbits: &[CellSet],
    floor: usize,
    learn: bool,
    rng: &mut R,
) -> (Puzzle, Vec<CellSet>, CellSet, Solver, CellSet) {
    debug_assert!(solver.same_as(&Solver::new(&p)), "`solver` is `p` loaded");
    let filled = givens_of(&p);
    let mut order = filtered(orbits, |&o| (o & filled) == o);
    shuffle(&mut order, rng);
    let mut d = Digger {
        grid,
        unavoidable,
        learned: Vec::with_capacity(16),
        learn,
        givens: filled.len() as usize,
        filled,
        spare: CellSet::EMPTY,
        solver,
        p,
        reasons,
    };
    d.dig(&order, floor);
    (d.p, d.learned, d.spare & d.filled, d.solver, d.filled)
}

/// Adds the `learned` sets of `grid` that are new to `known`, up to [`MAX_LEARNED`] sets in
/// all; on a grid with a half-turn automorphism, their half turns too (see [`half_turn_grid`]).
pub(super) fn remember(known: &mut Vec<CellSet>, learned: Vec<CellSet>, grid: &SolutionGrid) {
    for u in learned {
        let turned = half_turn(u);
        let images: &[CellSet] = if grid.half_turn && turned != u {
            &[u, turned]
        } else {
            &[u]
        };
        for &v in images {
            if known.len() >= MAX_LEARNED {
                return;
            }
            if !known.contains(&v) {
                known.push(v);
            }
        }
    }
}

/// [`remember`] for one set `u` that is not known yet: a set learned by a search of the repair
/// (its searches ask only about puzzles whose givens hit every known set, or meet none of them
/// in the cell searched alone, so the set found is never one of them). Skips the search of
/// `known` for it (a scan of up to 400 sets a set learned: 1.5% of the instructions). Its half
/// turn, on a grid with a half-turn automorphism, may be known: that case goes through
/// [`remember`].
pub(super) fn remember_new(known: &mut Vec<CellSet>, u: CellSet, grid: &SolutionGrid) {
    if grid.half_turn {
        remember(known, vec![u], grid);
        return;
    }
    debug_assert!(!known.contains(&u), "a set learned by the repair is new");
    if known.len() < MAX_LEARNED {
        known.push(u);
    }
}

/// Adds back givens from `grid`, whole orbits in random order, while they fit under `hi`, until
/// `p` has at least `lo` givens. Adding givens keeps a proper puzzle proper. Returns whether the
/// count landed in `lo..=hi` (it can miss when only large orbits are left).
pub(super) fn fill_to<R: RngCore>(
    p: &mut Puzzle,
    grid: &Grid,
    orbits: &[CellSet],
    (lo, hi): (usize, usize),
    rng: &mut R,
) -> bool {
    let filled = p.filled();
    let mut empty: Vec<CellSet> = orbits
        .iter()
        .copied()
        .filter(|o| (*o & filled).is_empty())
        .collect();
    shuffle(&mut empty, rng);
    let mut givens = p.givens();
    for &o in &empty {
        if givens >= lo {
            break;
        }
        let k = o.len() as usize;
        if givens + k <= hi {
            *p = with(p, o, grid);
            givens += k;
        }
    }
    (lo..=hi).contains(&givens)
}

/// Moves tried on one grid before the search starts again from a new grid.
pub(super) const MOVES_PER_GRID: usize = 1000;
/// The most unavoidable sets kept per grid (the two-digit ones and those learned in the search).
pub(super) const MAX_LEARNED: usize = 400;

/// Local search for fewer givens on one grid: a random walk over its minimal puzzles by the
/// "{-1+1}" neighbourhood moves that the players' forum used to hunt puzzles with few clues.
///
/// From a proper puzzle `p` that is minimal over `orbits`, a move removes one orbit `a`. The
/// puzzle then has another solution `H`; `H` differs from the grid on an unavoidable set, which
/// is remembered, and a new orbit `e` is added only where it hits every remembered unavoidable
/// set that the remaining givens miss (elsewhere the result cannot be proper). If the result is
/// proper, it is dug again to a minimal puzzle, which never has more givens than `p` (when `e`
/// is no larger than `a`), and often fewer. Returns a puzzle with at most `hi` givens (and at
/// least `lo`), or `None` when the moves or the time run out. See `docs/generate.md` for the
/// variants measured.
pub(super) fn descend<R: RngCore>(
    mut p: Puzzle,
    grid: &SolutionGrid,
    mut unavoidable: Vec<CellSet>,
    orbits: &[CellSet],
    (lo, hi): (usize, usize),
    rng: &mut R,
    deadline: Option<Instant>,
) -> Option<Puzzle> {
    let mut givens = p.givens();
    for moves in 0..MOVES_PER_GRID {
        if givens <= hi {
            return Some(p);
        }
        if moves % 32 == 31 && deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let filled = p.filled();
        let (full, empty): (Vec<CellSet>, Vec<CellSet>) =
            orbits.iter().partition(|&&o| (o & filled) == o);
        if full.is_empty() || empty.is_empty() {
            return None;
        }
        let removed = full[below(rng, full.len())];
        let r = without(&p, removed);
        // Another solution of r: it differs from the grid somewhere in `removed`.
        let base = Solver::new(&r);
        let other = grid.other_solution_in(base, removed);
        let Some(h) = other else {
            // Still proper without it: `p` was not minimal (the floor stopped its digging).
            let (q, learned, _) = dig(r, grid, &unavoidable, orbits, lo, true, rng);
            remember(&mut unavoidable, learned, grid);
            p = q;
            givens = p.givens();
            continue;
        };
        // `h` differs from the grid on an unavoidable set: a new given must hit it, and every
        // later puzzle on this grid must hit it too.
        remember(&mut unavoidable, vec![difference(&h, grid)], grid);
        let left = filled & !removed;
        let missed: Vec<CellSet> = unavoidable
            .iter()
            .copied()
            .filter(|&u| (u & left).is_empty())
            .collect();
        let choices: Vec<CellSet> = empty
            .iter()
            .copied()
            .filter(|&o| o.len() <= removed.len() && missed.iter().all(|&u| !(u & o).is_empty()))
            .collect();
        if choices.is_empty() {
            continue;
        }
        let e = choices[below(rng, choices.len())];
        let q = with(&p, e, grid);
        if grid
            .other_solution_in(Solver::new(&without(&q, removed)), removed)
            .is_some()
        {
            continue;
        }
        let (q, learned, _) = dig(with(&r, e, grid), grid, &unavoidable, orbits, lo, true, rng);
        remember(&mut unavoidable, learned, grid);
        p = q;
        givens = p.givens();
    }
    (givens <= hi).then_some(p)
}
