//! Variant puzzles with exactly one solution: a random solution grid, then givens dug out while
//! the solution stays unique (to a number of givens, a symmetry, minimality), killer cages grown
//! by merging while it stays unique, and random jigsaw layouts. Every search has a deadline and
//! says when it found nothing.

use crate::time::Instant;

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use thiserror::Error;

use super::puzzle::VariantPuzzle;
use super::rules::{Cage, Rules};
use super::solve::VariantSolver;
use crate::generate::Symmetry;

/// What to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantConfig {
    /// Givens wanted: at least `givens.0`, at most `givens.1` (a dig stops at the lower end; a
    /// puzzle left above the upper end is dropped). `(0, cells)` digs as far as it goes.
    pub givens: (usize, usize),
    /// The symmetry of the givens (any of the classic generator's, on any size).
    pub symmetry: Symmetry,
    /// No given can be removed without losing uniqueness (checked cell by cell).
    pub minimal: bool,
    /// Killer: cover the grid with cages of at most this many cells (2 or more) and sums, then
    /// dig the givens; `givens.1 == 0` asks for cages only.
    pub killer: Option<usize>,
}

impl VariantConfig {
    /// Dig as far as uniqueness allows, no symmetry, no cages.
    pub fn new(rules: &Rules) -> VariantConfig {
        VariantConfig {
            givens: (0, rules.cells()),
            symmetry: Symmetry::None,
            minimal: false,
            killer: None,
        }
    }
}

/// Why no puzzle was made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantGenerateError {
    /// The time budget ran out first.
    #[error("no puzzle found in the time budget ({attempts} attempts); try more givens, no symmetry or a longer --timeout")]
    Timeout {
        /// Attempts made.
        attempts: usize,
    },
    /// The rules have no solution at all (some anti-king layouts, for one).
    #[error("these rules have no solution: {0}")]
    NoSolution(String),
    /// A request that cannot be met whatever the search.
    #[error("{0}")]
    Impossible(String),
}

/// Orbits of the cells of an `n`×`n` grid under a symmetry: the closure of each cell under the
/// symmetry's generating maps, written for any `n` (the classic generator's are for 9×9).
fn orbits(n: usize, symmetry: Symmetry) -> Vec<Vec<usize>> {
    let m = n - 1;
    let rot180 = move |r: usize, c: usize| (m - r, m - c);
    let rot90 = move |r: usize, c: usize| (c, m - r);
    let mirror_h = move |r: usize, c: usize| (m - r, c);
    let mirror_v = move |r: usize, c: usize| (r, m - c);
    let diagonal = move |r: usize, c: usize| (c, r);
    let anti = move |r: usize, c: usize| (m - c, m - r);
    let maps: Vec<&dyn Fn(usize, usize) -> (usize, usize)> = match symmetry {
        Symmetry::None => vec![],
        Symmetry::Rot180 => vec![&rot180],
        Symmetry::Rot90 => vec![&rot90],
        Symmetry::MirrorH => vec![&mirror_h],
        Symmetry::MirrorV => vec![&mirror_v],
        Symmetry::MirrorBoth => vec![&mirror_h, &mirror_v],
        Symmetry::Diagonal => vec![&diagonal],
        Symmetry::AntiDiagonal => vec![&anti],
        Symmetry::BothDiagonals => vec![&diagonal, &anti],
        Symmetry::Dihedral => vec![&rot90, &diagonal],
    };
    let mut seen = vec![false; n * n];
    let mut out = Vec::new();
    for c in 0..n * n {
        if seen[c] {
            continue;
        }
        seen[c] = true;
        let mut orbit = vec![c];
        let mut k = 0;
        while k < orbit.len() {
            let (r, col) = (orbit[k] / n, orbit[k] % n);
            for f in &maps {
                let (r2, c2) = f(r, col);
                let x = r2 * n + c2;
                if !seen[x] {
                    seen[x] = true;
                    orbit.push(x);
                }
            }
            k += 1;
        }
        orbit.sort_unstable();
        out.push(orbit);
    }
    out
}

/// A puzzle on a random jigsaw layout of its own ([`random_regions`] over `base`'s size, with
/// `base`'s other rules): a layout where a random solution is not found within 20 nodes a cell
/// (some have none, and proving so can take minutes; on others the search wanders) is swapped
/// for another.
pub fn generate_jigsaw(
    base: &Rules,
    config: &VariantConfig,
    seed: u64,
    deadline: Instant,
) -> Result<VariantPuzzle, VariantGenerateError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut attempts = 0;
    loop {
        if Instant::now() >= deadline {
            return Err(VariantGenerateError::Timeout { attempts });
        }
        attempts += 1;
        let layout = base
            .clone()
            .with_regions(random_regions(base.size(), &mut rng))
            .expect("random regions are connected and even");
        match generate_within(
            &layout,
            config,
            rng.random(),
            deadline,
            20 * layout.cells() as u64,
        ) {
            Err(VariantGenerateError::NoSolution(_)) => continue,
            other => return other,
        }
    }
}

/// Whether `cells`, dug from `solution` at `removed`, still has only that solution.
fn unique(solver: &VariantSolver, cells: &[u8], solution: &[u8], removed: &[usize]) -> bool {
    let removed: Vec<(usize, u8)> = removed.iter().map(|&c| (c, solution[c])).collect();
    !solver.has_other(cells, &removed)
}

/// The nodes a proof that a removal keeps the solution unique may visit while digging (not
/// for `--minimal`, whose proofs all run to their end). Most proofs take a few nodes; the few
/// that take thousands made the tail: on 16×16, 16 nodes took generation from 68 to 8 ms a
/// puzzle (median 35 to 8 ms, slowest 838 to 12 ms) for 1.7 more givens (95.1 against 93.4).
const DIG_NODES: u64 = 16;

/// [`unique`] proved within `max_nodes` nodes a removed cell: a removal whose proof runs longer
/// is not made (the puzzle keeps that given, and stays unique).
fn unique_within(
    solver: &VariantSolver,
    cells: &[u8],
    solution: &[u8],
    removed: &[usize],
    max_nodes: u64,
) -> bool {
    let removed: Vec<(usize, u8)> = removed.iter().map(|&c| (c, solution[c])).collect();
    solver.has_other_within(cells, &removed, max_nodes) == Some(false)
}

/// Random jigsaw regions for an `n`×`n` grid: the boxes, then random trades of two cells between
/// regions that keep each region connected (and `n` cells). Not every layout has a solution;
/// [`generate`] tries another when one has none.
pub fn random_regions(n: usize, rng: &mut impl Rng) -> Vec<u8> {
    let base = Rules::classic(n).expect("a size with boxes");
    let mut reg: Vec<u8> = (0..n * n).map(|c| base.region(c) as u8).collect();
    for _ in 0..n * n * 6 {
        let a = rng.random_range(0..n * n);
        // A neighbour of `a` in another region, and a cell of that region next to `a`'s.
        let (r, c) = (a / n, a % n);
        let near: Vec<usize> = [
            (r > 0, a.wrapping_sub(n)),
            (r + 1 < n, a + n),
            (c > 0, a.wrapping_sub(1)),
            (c + 1 < n, a + 1),
        ]
        .into_iter()
        .filter(|&(ok, b)| ok && reg[b] != reg[a])
        .map(|(_, b)| b)
        .collect();
        let Some(&b) = near.choose(rng) else { continue };
        let mut next = reg.clone();
        // `a` joins `b`'s region; a cell of `b`'s region beside `a`'s old region leaves for it.
        let (from, to) = (reg[a], reg[b]);
        let give: Vec<usize> = (0..n * n)
            .filter(|&x| reg[x] == to && x != b)
            .filter(|&x| {
                let (xr, xc) = (x / n, x % n);
                [
                    (xr > 0, x.wrapping_sub(n)),
                    (xr + 1 < n, x + n),
                    (xc > 0, x.wrapping_sub(1)),
                    (xc + 1 < n, x + 1),
                ]
                .into_iter()
                .any(|(ok, y)| ok && y != a && reg[y] == from)
            })
            .collect();
        let Some(&x) = give.choose(rng) else { continue };
        next[a] = to;
        next[x] = from;
        // Only the two regions that traded can have come apart.
        if region_connected(n, &next, from) && region_connected(n, &next, to) {
            reg = next;
        }
    }
    reg
}

/// Whether the cells of region `id` in layout `reg` (`n`×`n`) are orthogonally connected.
fn region_connected(n: usize, reg: &[u8], id: u8) -> bool {
    let Some(first) = reg.iter().position(|&r| r == id) else {
        return true;
    };
    let mut seen = [false; 256];
    let mut todo = vec![first];
    seen[first] = true;
    let mut reached = 1;
    while let Some(c) = todo.pop() {
        for d in adjacent(n, c) {
            if reg[d] == id && !seen[d] {
                seen[d] = true;
                reached += 1;
                todo.push(d);
            }
        }
    }
    reached == reg.iter().filter(|&&r| r == id).count()
}

/// One puzzle under `rules` (with killer, the rules gain the cages), or why none was found
/// before `deadline`.
pub fn generate(
    rules: &Rules,
    config: &VariantConfig,
    seed: u64,
    deadline: Instant,
) -> Result<VariantPuzzle, VariantGenerateError> {
    generate_within(rules, config, seed, deadline, u64::MAX)
}

/// [`generate`], each random solution searched for within `max_nodes` nodes: a search that
/// goes past them ends as if the rules had no solution (`NoSolution`), for a caller that would
/// rather try other rules (another jigsaw layout) than search on.
fn generate_within(
    rules: &Rules,
    config: &VariantConfig,
    seed: u64,
    deadline: Instant,
    max_nodes: u64,
) -> Result<VariantPuzzle, VariantGenerateError> {
    let n = rules.size();
    let cells = rules.cells();
    if config.givens.0 > config.givens.1 || config.givens.0 > cells {
        return Err(VariantGenerateError::Impossible(format!(
            "givens {}..{}: expected a range within 0..{cells}",
            config.givens.0, config.givens.1
        )));
    }
    if config.killer.is_none() && config.givens.1 < n - 1 {
        return Err(VariantGenerateError::Impossible(format!(
            "at most {} givens: a {n}x{n} puzzle with a unique solution needs at least {} (one digit may be missing, no fewer)",
            config.givens.1,
            n - 1
        )));
    }
    if config.killer.is_some_and(|k| k < 2 || k > n) {
        return Err(VariantGenerateError::Impossible(format!(
            "cages of at most {} cells: expected 2 to {n}",
            config.killer.unwrap()
        )));
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let orbits = orbits(n, config.symmetry);
    let mut attempts = 0;
    let plain = VariantSolver::new(rules);
    loop {
        if Instant::now() >= deadline {
            return Err(VariantGenerateError::Timeout { attempts });
        }
        attempts += 1;
        let Some(solution) = plain.random_solution_within(&mut rng, deadline, max_nodes) else {
            if Instant::now() >= deadline {
                return Err(VariantGenerateError::Timeout { attempts });
            }
            return Err(VariantGenerateError::NoSolution(rules.describe()));
        };
        let rules = match config.killer {
            Some(max) => match cages(
                rules,
                &plain,
                &solution,
                max,
                config.givens.1 == 0,
                &mut rng,
                deadline,
            ) {
                Some(r) => r,
                None => continue,
            },
            None => rules.clone(),
        };
        let caged;
        let solver = if config.killer.is_some() {
            caged = VariantSolver::new(&rules);
            &caged
        } else {
            &plain
        };
        // Dig orbits in random order, keeping each removal that leaves the solution unique.
        let mut cells_now = solution.clone();
        let mut order = orbits.clone();
        order.shuffle(&mut rng);
        let mut count = cells;
        // Cages alone were proved unique with no givens at all (`cages_alone`): nothing to dig.
        if config.killer.is_some() && config.givens.1 == 0 {
            cells_now.iter_mut().for_each(|d| *d = 0);
            count = 0;
            order.clear();
        }
        // Whether every cell was tried alone: then a removal that failed stays failed as more
        // cells go (a puzzle with fewer givens has every solution it had), so the puzzle is
        // minimal already.
        let mut each_tried = order.iter().all(|o| o.len() == 1);
        for orbit in &order {
            if count - orbit.len() < config.givens.0 || Instant::now() >= deadline {
                each_tried = false;
                continue;
            }
            let mut next = cells_now.clone();
            for &c in orbit {
                next[c] = 0;
            }
            // A proof that runs past its budget keeps the given: minimal puzzles need every
            // proof to its end; the others give up a given or two for a short tail.
            let proved = if config.minimal {
                unique(solver, &next, &solution, orbit)
            } else {
                unique_within(solver, &next, &solution, orbit, DIG_NODES)
            };
            if proved {
                cells_now = next;
                count -= orbit.len();
            }
        }
        if count > config.givens.1 {
            continue;
        }
        if config.minimal
            && !each_tried
            && (0..cells).any(|c| {
                cells_now[c] != 0 && {
                    let mut next = cells_now.clone();
                    next[c] = 0;
                    unique(solver, &next, &solution, &[c])
                }
            })
        {
            continue;
        }
        return Ok(VariantPuzzle::new(rules, cells_now).expect("digits of the size"));
    }
}

/// Killer cages over the whole grid with `solution`'s sums. With givens to come, single cells
/// merged at random into cages of at most `max` cells (the givens restore uniqueness); cages
/// only, [`cages_alone`].
fn cages(
    rules: &Rules,
    plain: &VariantSolver,
    solution: &[u8],
    max: usize,
    cages_only: bool,
    rng: &mut impl Rng,
    deadline: Instant,
) -> Option<Rules> {
    if cages_only {
        return cages_alone(rules, plain, solution, max, rng, deadline);
    }
    let n = rules.size();
    let mut groups: Vec<Vec<usize>> = (0..n * n).map(|c| vec![c]).collect();
    let mut stuck = 0;
    while stuck < 4 * n * n {
        let i = rng.random_range(0..groups.len());
        let near = neighbours(n, &groups, i, solution, max);
        let Some(&j) = near.choose(rng) else {
            stuck += 1;
            continue;
        };
        let moved = groups.remove(j);
        let i = if j < i { i - 1 } else { i };
        groups[i].extend(moved);
        stuck = 0;
    }
    Some(build(rules, solution, &groups))
}

/// Cages of the cells of `groups`, summing as in `solution`.
fn sums(solution: &[u8], groups: &[Vec<usize>]) -> Vec<Cage> {
    groups
        .iter()
        .map(|g| Cage {
            cells: g.clone(),
            sum: Some(g.iter().map(|&c| solution[c] as u32).sum()),
        })
        .collect()
}

/// The rules with cages `groups` summing as in `solution`.
fn build(rules: &Rules, solution: &[u8], groups: &[Vec<usize>]) -> Rules {
    rules
        .clone()
        .with_cages(sums(solution, groups))
        .expect("cages of the solution")
}

/// The cages next to cage `i` it can join: orthogonal neighbours, the two at most `max` cells
/// together, no digit of `solution` twice.
fn neighbours(
    n: usize,
    groups: &[Vec<usize>],
    i: usize,
    solution: &[u8],
    max: usize,
) -> Vec<usize> {
    let mut near = Vec::new();
    for &c in &groups[i] {
        for d in adjacent(n, c) {
            if groups[i].contains(&d) {
                continue;
            }
            let j = groups
                .iter()
                .position(|g| g.contains(&d))
                .expect("every cell in a cage");
            let merged = groups[i].len() + groups[j].len();
            let clash = groups[j]
                .iter()
                .any(|&x| groups[i].iter().any(|&y| solution[x] == solution[y]));
            if merged <= max && !clash && !near.contains(&j) {
                near.push(j);
            }
        }
    }
    near
}

/// The orthogonal neighbours of cell `c` in an `n`×`n` grid.
fn adjacent(n: usize, c: usize) -> impl Iterator<Item = usize> {
    let (r, col) = (c / n, c % n);
    [
        (r > 0).then(|| c - n),
        (r + 1 < n).then(|| c + n),
        (col > 0).then(|| c - 1),
        (col + 1 < n).then(|| c + 1),
    ]
    .into_iter()
    .flatten()
}

/// The nodes a check of cages alone may visit, a cell of the grid.
const NODES_A_CELL: u64 = 1;

/// Cages cut anywhere after a check of cages alone runs past its budget: one at a time spends
/// most checks on cages still too loose; three make the puzzles no easier (docs/variants.md).
const LOOSE_CUTS: usize = 3;

/// Single cells that could not join a neighbour and stay unique, joined one anyway and cut
/// again, before a cut of cages alone starts afresh.
const REJOINS: usize = 2;

/// Solutions a check of cages alone looks for: ours and others to rule out in one round.
const ALTERNATIVES: usize = 4;

/// Cage `g` cut in two connected parts of `smallest` cells or more, at random; with `apart`
/// (ours, another solution), only a cut whose parts' sums differ between the two.
fn cut_apart(
    n: usize,
    g: &[usize],
    smallest: usize,
    apart: Option<(&[u8], &[u8])>,
    rng: &mut impl Rng,
) -> Option<(Vec<usize>, Vec<usize>)> {
    if g.len() < 2 * smallest {
        return None;
    }
    for _ in 0..4 * g.len() {
        let size = rng.random_range(smallest..=g.len() - smallest);
        let mut part = vec![*g.choose(rng).expect("a cell")];
        while part.len() < size {
            let next: Vec<usize> = part
                .iter()
                .flat_map(|&x| adjacent(n, x))
                .filter(|d| g.contains(d) && !part.contains(d))
                .collect();
            let Some(&d) = next.choose(rng) else { break };
            part.push(d);
        }
        let rest: Vec<usize> = g.iter().copied().filter(|x| !part.contains(x)).collect();
        let sum = |s: &[u8]| part.iter().map(|&x| s[x] as u32).sum::<u32>();
        if part.len() == size
            && super::rules::connected(n, &rest)
            && apart.is_none_or(|(a, b)| sum(a) != sum(b))
        {
            return Some((part, rest));
        }
    }
    None
}

/// Cages alone, with no givens, that leave `solution` the only one: the grid cut at random
/// into cages of 2 to `max` cells, then, while the cages allow a second solution, a cage where
/// the two differ is cut in two parts whose sums tell them apart (which rules that solution
/// out); a single cell left over joins a neighbour while the solution stays unique, or, where
/// none keeps it unique, joins one anyway and the cutting goes on. Each check finds the second
/// solution of what is not yet unique, so only the last one is a full proof; each builds its
/// solver from the grid's one ([`VariantSolver::with_cages`]).
fn cages_alone(
    rules: &Rules,
    plain: &VariantSolver,
    solution: &[u8],
    max: usize,
    rng: &mut impl Rng,
    deadline: Instant,
) -> Option<Rules> {
    let n = rules.size();
    let cells = n * n;
    let empty = vec![0u8; cells];
    // A check that runs long means cages too hard for the solver's logic (and for a player):
    // a fresh cut of a fresh grid is cheaper than finishing it. The budget is in nodes, so the
    // same seed makes the same puzzle on any machine.
    let check = |groups: &[Vec<usize>], limit: usize| {
        plain
            .with_cages(&sums(solution, groups))
            .solutions_found_within(&empty, limit, deadline, NODES_A_CELL * cells as u64)
    };
    // A random cut: each cage grown from a random free cell to a random size.
    let mut owner = vec![usize::MAX; cells];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut order: Vec<usize> = (0..cells).collect();
    order.shuffle(rng);
    for &start in &order {
        if owner[start] != usize::MAX {
            continue;
        }
        let target = rng.random_range(2..=max);
        let id = groups.len();
        let mut g = vec![start];
        owner[start] = id;
        while g.len() < target {
            let free: Vec<usize> = g
                .iter()
                .flat_map(|&c| adjacent(n, c))
                .filter(|&d| {
                    owner[d] == usize::MAX && g.iter().all(|&x| solution[x] != solution[d])
                })
                .collect();
            let Some(&d) = free.choose(rng) else { break };
            owner[d] = id;
            g.push(d);
        }
        groups.push(g);
    }
    // Single cells join a neighbouring cage where they can.
    let mut i = 0;
    while i < groups.len() {
        if groups[i].len() == 1 {
            if let Some(&j) = neighbours(n, &groups, i, solution, max).choose(rng) {
                let moved = groups.remove(i);
                let j = if j > i { j - 1 } else { j };
                groups[j].extend(moved);
                continue;
            }
        }
        i += 1;
    }
    let mut loose = 0;
    let mut rejoined = 0;
    'cut: loop {
        loop {
            if Instant::now() >= deadline {
                return None;
            }
            let (found, late) = check(&groups, ALTERNATIVES);
            if late {
                // Past the budget: cages too loose for the solver's logic. Cut the largest in two
                // anywhere, a few of them, a few times, before starting afresh.
                loose += 1;
                if loose > 3 {
                    return None;
                }
                for _ in 0..LOOSE_CUTS {
                    let k = (0..groups.len()).max_by_key(|&k| groups[k].len())?;
                    if groups[k].len() < 4 {
                        return None;
                    }
                    let (part, rest) = cut_apart(n, &groups[k], 2, None, rng)?;
                    groups[k] = part;
                    groups.push(rest);
                }
                continue;
            }
            let others: Vec<&Vec<u8>> = found.iter().filter(|s| s.as_slice() != solution).collect();
            if others.is_empty() {
                break;
            }
            // For each other solution the cages still allow, cut a cage where it differs from ours
            // into two connected parts whose sums tell them apart; parts of one cell only when
            // nothing else will do.
            for other in others {
                let sum = |g: &[usize], s: &[u8]| g.iter().map(|&x| s[x] as u32).sum::<u32>();
                if groups.iter().any(|g| sum(g, other) != sum(g, solution)) {
                    continue;
                }
                let mut differ: Vec<usize> =
                    (0..cells).filter(|&c| other[c] != solution[c]).collect();
                differ.shuffle(rng);
                let cut = [2, 1].into_iter().find_map(|smallest| {
                    differ.iter().find_map(|&c| {
                        let k = groups.iter().position(|g| g.contains(&c)).expect("a cage");
                        cut_apart(n, &groups[k], smallest, Some((solution, other)), rng)
                            .map(|(part, rest)| (k, part, rest))
                    })
                });
                let (k, part, rest) = cut?;
                groups[k] = part;
                groups.push(rest);
            }
        }
        // Single cells left join a neighbour while the solution stays unique. One that cannot
        // joins one anyway, and the cages are cut again (a few times, before starting afresh).
        let mut i = 0;
        while i < groups.len() {
            if groups[i].len() > 1 {
                i += 1;
                continue;
            }
            let mut near = neighbours(n, &groups, i, solution, max);
            near.shuffle(rng);
            let mut joined = false;
            for &j in &near {
                let mut next = groups.clone();
                let moved = next.remove(i);
                let j = if j > i { j - 1 } else { j };
                next[j].extend(moved);
                let (found, late) = check(&next, 2);
                if late {
                    return None;
                }
                if found.len() == 1 {
                    groups = next;
                    joined = true;
                    break;
                }
            }
            if !joined {
                rejoined += 1;
                let &j = near.first()?;
                if rejoined > REJOINS {
                    return None;
                }
                let moved = groups.remove(i);
                let j = if j > i { j - 1 } else { j };
                groups[j].extend(moved);
                continue 'cut;
            }
        }
        break;
    }
    Some(build(rules, solution, &groups))
}
