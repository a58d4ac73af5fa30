//! The variant engine against an independent oracle: a plain backtracking solver written here,
//! which fills the open cell with the fewest fitting digits and checks each digit against the rules as stated (rows,
//! columns, boxes or regions computed on its own, diagonals, Windoku boxes, knight and king
//! moves, cage digits and sums). No code of the engine is used to decide what the answer is.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus as R;
use std::time::{Duration, Instant};

use shudu_core::generate::Symmetry;
use shudu_core::variant::{
    count_solutions, generate, generate_jigsaw, is_solution, random_regions, symbol, Cage, Rules,
    VariantConfig, VariantGenerateError, VariantPuzzle, VariantSolver,
};

/// The rules as the oracle reads them.
#[derive(Clone, Debug, Default)]
struct Spec {
    n: usize,
    regions: Option<Vec<u8>>,
    x: bool,
    windoku: bool,
    knight: bool,
    king: bool,
    cages: Vec<(Vec<usize>, u32)>,
}

impl Spec {
    fn box_dims(&self) -> (usize, usize) {
        match self.n {
            4 => (2, 2),
            6 => (2, 3),
            8 => (2, 4),
            9 => (3, 3),
            12 => (3, 4),
            _ => (4, 4),
        }
    }

    fn region(&self, r: usize, c: usize) -> usize {
        match &self.regions {
            Some(reg) => reg[r * self.n + c] as usize,
            None => {
                let (br, bc) = self.box_dims();
                (r / br) * 1000 + c / bc
            }
        }
    }

    fn rules(&self) -> Rules {
        let mut rules = Rules::classic(self.n).unwrap();
        if let Some(reg) = &self.regions {
            rules = rules.with_regions(reg.clone()).unwrap();
        }
        if self.x {
            rules = rules.with_diagonals();
        }
        if self.windoku {
            rules = rules.with_windoku().unwrap();
        }
        if self.knight {
            rules = rules.with_anti_knight();
        }
        if self.king {
            rules = rules.with_anti_king();
        }
        if !self.cages.is_empty() {
            let cages = self
                .cages
                .iter()
                .map(|(c, s)| Cage {
                    cells: c.clone(),
                    sum: Some(*s),
                })
                .collect();
            rules = rules.with_cages(cages).unwrap();
        }
        rules
    }

    /// Whether cells `i` and `j` must differ, every rule read directly.
    fn linked(&self, i: usize, j: usize) -> bool {
        let n = self.n;
        let (r, c, r2, c2) = (i / n, i % n, j / n, j % n);
        let (dr, dc) = (r.abs_diff(r2), c.abs_diff(c2));
        let same_diag = self.x && ((r == c && r2 == c2) || (r + c == n - 1 && r2 + c2 == n - 1));
        let win = |r: usize, c: usize| {
            [(1, 1), (1, 5), (5, 1), (5, 5)]
                .iter()
                .position(|&(r0, c0)| (r0..r0 + 3).contains(&r) && (c0..c0 + 3).contains(&c))
        };
        let same_win = self.windoku && win(r, c).is_some() && win(r, c) == win(r2, c2);
        i != j
            && (r == r2
                || c == c2
                || self.region(r, c) == self.region(r2, c2)
                || same_diag
                || same_win
                || (self.knight && ((dr == 1 && dc == 2) || (dr == 2 && dc == 1)))
                || (self.king && dr <= 1 && dc <= 1)
                || self
                    .cages
                    .iter()
                    .any(|(cells, _)| cells.contains(&i) && cells.contains(&j)))
    }

    /// Whether `d` may go in cell `i` of `g` (0 = empty elsewhere), every rule read directly.
    fn fits(&self, g: &[u8], i: usize, d: u8) -> bool {
        if (0..g.len()).any(|j| g[j] == d && self.linked(i, j)) {
            return false;
        }
        for (cells, sum) in &self.cages {
            if !cells.contains(&i) {
                continue;
            }
            let mut total = d as u32;
            let mut full = true;
            for &j in cells {
                if j == i {
                    continue;
                }
                if g[j] == d {
                    return false;
                }
                if g[j] == 0 {
                    full = false;
                }
                total += g[j] as u32;
            }
            if total > *sum || (full && total != *sum) {
                return false;
            }
        }
        true
    }

    /// Solutions up to `limit`, and the first, by plain backtracking (the most constrained
    /// cell first).
    fn count(&self, givens: &[u8], limit: usize, order: &[u8]) -> (usize, Option<Vec<u8>>) {
        let mut g = vec![0u8; givens.len()];
        for (i, &d) in givens.iter().enumerate() {
            if d != 0 {
                if !self.fits(&g, i, d) {
                    return (0, None);
                }
                g[i] = d;
            }
        }
        let mut out = (0, None);
        self.fill(&mut g, limit, order, &mut out);
        out
    }

    /// Fills the open cell with the fewest fitting digits, each in `order`.
    fn fill(
        &self,
        g: &mut Vec<u8>,
        limit: usize,
        order: &[u8],
        out: &mut (usize, Option<Vec<u8>>),
    ) {
        let mut best: Option<(usize, Vec<u8>)> = None;
        for i in 0..g.len() {
            if g[i] != 0 {
                continue;
            }
            let fit: Vec<u8> = order
                .iter()
                .copied()
                .filter(|&d| self.fits(g, i, d))
                .collect();
            if best.as_ref().is_none_or(|b| fit.len() < b.1.len()) {
                let stop = fit.len() <= 1;
                best = Some((i, fit));
                if stop {
                    break;
                }
            }
        }
        let Some((i, fit)) = best else {
            out.0 += 1;
            if out.1.is_none() {
                out.1 = Some(g.clone());
            }
            return;
        };
        for d in fit {
            g[i] = d;
            self.fill(g, limit, order, out);
            g[i] = 0;
            if out.0 >= limit {
                return;
            }
        }
    }
    /// Solutions up to `limit`, counted by a SAT solver (varisat) on a plain encoding of the
    /// rules as read here: a digit a cell, linked cells differ, every digit in every house, and
    /// each cage's digits one of the sets of its size that make its sum. Each solution found is
    /// blocked and the solver asked again. Fast where backtracking is not (9×9 killers, 16×16).
    fn sat_count(&self, givens: &[u8], limit: usize) -> usize {
        use varisat::{ExtendFormula, Lit, Solver};
        let n = self.n;
        let cells = n * n;
        let x = |i: usize, d: usize| Lit::from_index(i * n + d - 1, true);
        let mut sat = Solver::new();
        let mut next = cells * n;
        for i in 0..cells {
            sat.add_clause(&(1..=n).map(|d| x(i, d)).collect::<Vec<_>>());
            for d in 1..=n {
                for e in d + 1..=n {
                    sat.add_clause(&[!x(i, d), !x(i, e)]);
                }
            }
            for j in i + 1..cells {
                if self.linked(i, j) {
                    for d in 1..=n {
                        sat.add_clause(&[!x(i, d), !x(j, d)]);
                    }
                }
            }
        }
        for (i, &d) in givens.iter().enumerate() {
            if d != 0 {
                sat.add_clause(&[x(i, d as usize)]);
            }
        }
        let mut houses: Vec<Vec<usize>> = Vec::new();
        for k in 0..n {
            houses.push((0..n).map(|c| k * n + c).collect());
            houses.push((0..n).map(|r| r * n + k).collect());
        }
        let mut by_region = std::collections::BTreeMap::<usize, Vec<usize>>::new();
        for i in 0..cells {
            by_region
                .entry(self.region(i / n, i % n))
                .or_default()
                .push(i);
        }
        houses.extend(by_region.into_values());
        for house in &houses {
            for d in 1..=n {
                sat.add_clause(&house.iter().map(|&i| x(i, d)).collect::<Vec<_>>());
            }
        }
        for (cage, sum) in &self.cages {
            let k = cage.len();
            let mut options = Vec::new();
            for set in 0u32..1 << n {
                let total: u32 = (0..n as u32)
                    .filter(|b| set >> b & 1 == 1)
                    .map(|b| b + 1)
                    .sum();
                if set.count_ones() as usize == k && total == *sum {
                    let y = Lit::from_index(next, true);
                    next += 1;
                    options.push(y);
                    for &i in cage {
                        for d in 1..=n {
                            if set >> (d - 1) & 1 == 0 {
                                sat.add_clause(&[!y, !x(i, d)]);
                            }
                        }
                    }
                }
            }
            sat.add_clause(&options);
        }
        let mut found = 0;
        while found < limit && sat.solve().unwrap() {
            found += 1;
            let model = sat.model().unwrap();
            let block: Vec<Lit> = model
                .iter()
                .filter(|l| l.is_positive() && l.index() < cells * n)
                .map(|&l| !l)
                .collect();
            sat.add_clause(&block);
        }
        found
    }
}

/// A random solution of the spec's empty grid (the oracle's, digits in random order), if any.
fn solution(spec: &Spec, rng: &mut R) -> Option<Vec<u8>> {
    let mut order: Vec<u8> = (1..=spec.n as u8).collect();
    order.shuffle(rng);
    spec.count(&vec![0; spec.n * spec.n], 1, &order).1
}

/// Random connected cages of 1 to `max` cells over the whole grid, with the solution's sums.
fn cages_of(n: usize, sol: &[u8], max: usize, rng: &mut R) -> Vec<(Vec<usize>, u32)> {
    let mut owner = vec![usize::MAX; n * n];
    let mut cages: Vec<(Vec<usize>, u32)> = Vec::new();
    for start in 0..n * n {
        if owner[start] != usize::MAX {
            continue;
        }
        let want = rng.random_range(1..=max);
        let mut cells = vec![start];
        owner[start] = cages.len();
        while cells.len() < want {
            let mut near = Vec::new();
            for &c in &cells {
                let (r, col) = (c / n, c % n);
                for (ok, d) in [
                    (col + 1 < n, c + 1),
                    (r + 1 < n, c + n),
                    (col > 0, c.wrapping_sub(1)),
                ] {
                    if ok && owner[d] == usize::MAX && !cells.iter().any(|&x| sol[x] == sol[d]) {
                        near.push(d);
                    }
                }
            }
            let Some(&d) = near.choose(rng) else { break };
            owner[d] = cages.len();
            cells.push(d);
        }
        let sum = cells.iter().map(|&c| sol[c] as u32).sum();
        cages.push((cells, sum));
    }
    cages
}

/// Jigsaw regions: the boxes, then random trades of border cells that keep every region
/// connected and `n` cells strong.
fn jigsaw(n: usize, rng: &mut R) -> Vec<u8> {
    let spec = Spec {
        n,
        ..Spec::default()
    };
    let mut ids: Vec<usize> = (0..n * n).map(|i| spec.region(i / n, i % n)).collect();
    let mut distinct = ids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let mut reg: Vec<u8> = ids
        .iter_mut()
        .map(|x| distinct.binary_search(x).unwrap() as u8)
        .collect();
    for _ in 0..n * n * 4 {
        let a = rng.random_range(0..n * n);
        let b = rng.random_range(0..n * n);
        if reg[a] == reg[b] {
            continue;
        }
        let mut next = reg.clone();
        next.swap(a, b);
        if Rules::classic(n)
            .unwrap()
            .with_regions(next.clone())
            .is_ok()
        {
            reg = next;
        }
    }
    reg
}

/// The engine and the oracle agree on the count (to 2) and, for a unique puzzle, the solution.
fn agree(spec: &Spec, givens: &[u8]) {
    let order: Vec<u8> = (1..=spec.n as u8).collect();
    let (want, want_first) = spec.count(givens, 2, &order);
    let line: String = givens.iter().map(|&d| symbol(d)).collect();
    let p = VariantPuzzle::parse_line(spec.rules(), &line).unwrap();
    let got = count_solutions(&p, 2);
    assert_eq!(
        got.count, want,
        "{spec:?} {line}: engine {} solutions, oracle {want}",
        got.count
    );
    if want == 1 {
        assert_eq!(got.solution, want_first, "{spec:?} {line}");
    }
    if let Some(s) = &got.solution {
        assert!(
            is_solution(p.rules(), s),
            "{spec:?} {line}: the engine's solution breaks a rule"
        );
    }
}

/// Puzzles from a solution: `keep` of its cells given, chosen at random.
fn dig(sol: &[u8], keep: usize, rng: &mut R) -> Vec<u8> {
    let mut cells: Vec<usize> = (0..sol.len()).collect();
    cells.shuffle(rng);
    let mut g = vec![0; sol.len()];
    for &c in &cells[..keep] {
        g[c] = sol[c];
    }
    g
}

fn specs(n: usize, rng: &mut R) -> Vec<Spec> {
    let base = Spec {
        n,
        ..Spec::default()
    };
    let mut out = vec![
        base.clone(),
        Spec {
            x: true,
            ..base.clone()
        },
        Spec {
            knight: true,
            ..base.clone()
        },
        Spec {
            king: true,
            ..base.clone()
        },
        Spec {
            regions: Some(jigsaw(n, rng)),
            ..base.clone()
        },
    ];
    if n == 9 {
        out.push(Spec {
            windoku: true,
            ..base.clone()
        });
        out.push(Spec {
            x: true,
            knight: true,
            ..base.clone()
        });
    }
    out
}

#[test]
fn small_variants_agree_with_the_oracle() {
    let mut rng = R::seed_from_u64(41);
    let mut checked = [0usize; 3];
    for n in [4, 6] {
        for spec in specs(n, &mut rng) {
            for _ in 0..6 {
                let Some(sol) = solution(&spec, &mut rng) else {
                    continue;
                };
                for keep in [0, n / 2, n, 2 * n, n * n / 3, n * n / 2] {
                    let g = dig(&sol, keep, &mut rng);
                    agree(&spec, &g);
                    checked[0] += 1;
                }
                // Killer: the same rules plus cages from this solution, with and without givens.
                let cages = cages_of(n, &sol, 4, &mut rng);
                let killer = Spec {
                    cages,
                    ..spec.clone()
                };
                for keep in [0, 1, n / 2, n] {
                    agree(&killer, &dig(&sol, keep, &mut rng));
                    checked[1] += 1;
                }
            }
        }
    }
    // A grid with no solution: 4×4 anti-king has none.
    let none = Spec {
        n: 4,
        king: true,
        ..Spec::default()
    };
    agree(&none, &[0; 16]);
    assert_eq!(solution(&none, &mut rng), None);
    checked[2] += 1;
    assert!(checked[0] > 200 && checked[1] > 60, "{checked:?}");
}

#[test]
fn nine_by_nine_variants_agree_with_the_oracle() {
    let mut rng = R::seed_from_u64(9);
    let mut unique = 0;
    // Knight and king moves are checked on 4×4 and 6×6: the oracle's search for a 9×9 grid
    // under them is slow.
    for spec in specs(9, &mut rng)
        .into_iter()
        .filter(|s| !s.knight && !s.king)
    {
        for _ in 0..1 {
            let Some(sol) = solution(&spec, &mut rng) else {
                continue;
            };
            for keep in [30, 45, 60] {
                let g = dig(&sol, keep, &mut rng);
                agree(&spec, &g);
                let line: String = g.iter().map(|&d| symbol(d)).collect();
                unique +=
                    (count_solutions(&VariantPuzzle::parse_line(spec.rules(), &line).unwrap(), 2)
                        .count
                        == 1) as usize;
            }
            let killer = Spec {
                cages: cages_of(9, &sol, 2, &mut rng),
                ..spec.clone()
            };
            agree(&killer, &dig(&sol, 30, &mut rng));
        }
    }
    assert!(unique > 5, "only {unique} unique puzzles among the checks");
}

#[test]
fn bigger_sizes_solve_and_judge_by_the_rules() {
    let mut rng = R::seed_from_u64(12);
    for n in [8, 12, 16] {
        let spec = Spec {
            n,
            ..Spec::default()
        };
        let sol = solution(&spec, &mut rng).expect("a classic grid has solutions");
        for keep in [n * n * 3 / 4, n * n / 2] {
            let g = dig(&sol, keep, &mut rng);
            let line: String = g.iter().map(|&d| symbol(d)).collect();
            let p = VariantPuzzle::parse_line(spec.rules(), &line).unwrap();
            let got = count_solutions(&p, 2);
            assert!(
                got.count >= 1,
                "{n}x{n} {line}: a puzzle dug from a grid has a solution"
            );
            let s = got.solution.unwrap();
            assert!(is_solution(p.rules(), &s));
            assert!(
                g.iter().zip(&s).all(|(&a, &b)| a == 0 || a == b),
                "the solution keeps the givens"
            );
        }
        // The oracle's own judgement of the engine's solution of the empty grid.
        let empty = VariantPuzzle::parse_line(spec.rules(), &".".repeat(n * n)).unwrap();
        let s = count_solutions(&empty, 1).solution.unwrap();
        assert!((0..n * n).all(|i| {
            let mut g = s.clone();
            g[i] = 0;
            spec.fits(&g, i, s[i])
        }));
    }
}

#[test]
fn a_broken_grid_is_not_a_solution() {
    let rules = Rules::classic(4).unwrap();
    let good = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    assert!(is_solution(&rules, &good));
    let mut bad = good;
    bad.swap(0, 1);
    assert!(!is_solution(&rules, &bad));
    let x = rules.clone().with_diagonals();
    assert!(
        !is_solution(&x, &good),
        "the main diagonal holds 1, 4, 4, 1"
    );
    let cages = vec![Cage {
        cells: vec![0, 1],
        sum: Some(4),
    }];
    assert!(
        !is_solution(&rules.with_cages(cages).unwrap(), &good),
        "1 + 2 is not 4"
    );
}

#[test]
fn bad_rules_and_lines_say_where_and_what_was_expected() {
    assert_eq!(
        Rules::classic(10).unwrap_err().to_string(),
        "size 10 has no boxes: expected 4, 6, 8, 9, 12 or 16"
    );
    assert!(Rules::classic(6)
        .unwrap()
        .with_windoku()
        .unwrap_err()
        .to_string()
        .contains("needs size 9"));
    let r = Rules::classic(4).unwrap();
    let e = r
        .clone()
        .with_regions(vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 3, 2, 3])
        .unwrap_err();
    assert_eq!(e.to_string(), "regions: region 2 is not connected");
    let e = r.clone().with_regions(vec![0; 16]).unwrap_err();
    assert_eq!(e.to_string(), "regions: region 0 has 16 cells, expected 4");
    let e = r
        .clone()
        .with_cages(vec![Cage {
            cells: vec![0, 1],
            sum: Some(8),
        }])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "cage 1: sum 8 with 2 distinct digits: expected 3 to 7"
    );
    let e = r
        .clone()
        .with_cages(vec![
            Cage {
                cells: vec![0, 1],
                sum: None,
            },
            Cage {
                cells: vec![1],
                sum: Some(2),
            },
        ])
        .unwrap_err();
    assert_eq!(e.to_string(), "cage 2: r1c2 is already in cage 1");
    let e = VariantPuzzle::parse_line(r.clone(), "12345...........").unwrap_err();
    assert_eq!(
        e.to_string(),
        "column 5: '5' is not a digit of a 4×4 puzzle (expected . or 0 for empty, 1-4)"
    );
    let e = VariantPuzzle::parse_line(r, "1234").unwrap_err();
    assert_eq!(e.to_string(), "4 cells, expected 16 (4×4)");
    let sixteen = Rules::classic(16).unwrap();
    let line = format!("9ABCDEFG{}", ".".repeat(248));
    let p = VariantPuzzle::parse_line(sixteen.clone(), &line).unwrap();
    assert_eq!(p.cells()[..8], [9, 10, 11, 12, 13, 14, 15, 16]);
    assert_eq!(p.to_line(), line);
    assert!(
        VariantPuzzle::parse_line(sixteen, &format!("H{}", ".".repeat(255)))
            .unwrap_err()
            .to_string()
            .contains("1-9 or A-G")
    );
}

/// The oracle's view of a generated puzzle's rules (cages read back from the puzzle).
fn spec_of(base: &Spec, p: &VariantPuzzle) -> Spec {
    let cages = p
        .rules()
        .cages()
        .iter()
        .map(|c| (c.cells.clone(), c.sum.unwrap()))
        .collect();
    Spec {
        cages,
        ..base.clone()
    }
}

fn oracle_count(spec: &Spec, cells: &[u8]) -> usize {
    let order: Vec<u8> = (1..=spec.n as u8).collect();
    spec.count(cells, 2, &order).0
}

#[test]
fn generated_variant_puzzles_are_unique_for_the_oracle() {
    let mut rng = R::seed_from_u64(5);
    let mut made = 0;
    for n in [4, 6, 9] {
        for base in specs(n, &mut rng) {
            // On 9×9 the oracle checks two kinds (it is slow beyond), without minimality.
            if n == 9 && (base.knight || !(base.x || base.windoku)) {
                continue;
            }
            let rules = base.rules();
            let mut config = VariantConfig::new(&rules);
            for (seed, symmetry) in [
                (1, Symmetry::None),
                (2, Symmetry::Rot180),
                (3, Symmetry::Dihedral),
            ] {
                // A dihedral 9×9 keeps few, scattered givens: too slow for the oracle.
                if n == 9 && symmetry == Symmetry::Dihedral {
                    continue;
                }
                config.symmetry = symmetry;
                config.minimal = seed == 1 && n < 9;
                let deadline = Instant::now() + Duration::from_secs(20);
                let p = match generate(&rules, &config, seed, deadline) {
                    Ok(p) => p,
                    Err(VariantGenerateError::NoSolution(_)) => continue,
                    Err(e) => panic!("{base:?}: {e}"),
                };
                let cells = p.cells();
                assert_eq!(oracle_count(&base, cells), 1, "{base:?} {}", p.to_line());
                if config.minimal {
                    for c in (0..cells.len()).filter(|&c| cells[c] != 0) {
                        let mut less = cells.to_vec();
                        less[c] = 0;
                        assert_eq!(
                            oracle_count(&base, &less),
                            2,
                            "{base:?} {}: given {c} can go",
                            p.to_line()
                        );
                    }
                }
                if symmetry == Symmetry::Rot180 {
                    let m = cells.len() - 1;
                    assert!(
                        (0..cells.len()).all(|c| (cells[c] == 0) == (cells[m - c] == 0)),
                        "{}",
                        p.to_line()
                    );
                }
                if symmetry == Symmetry::Dihedral {
                    let n = base.n;
                    let empty = |r: usize, c: usize| cells[r * n + c] == 0;
                    let symmetric = (0..n).all(|r| {
                        (0..n).all(|c| {
                            empty(r, c) == empty(c, r) && empty(r, c) == empty(c, n - 1 - r)
                        })
                    });
                    assert!(symmetric, "{}", p.to_line());
                }
                made += 1;
            }
        }
    }
    assert!(made >= 20, "{made}");
}

#[test]
fn killer_puzzles_with_cages_only_and_with_givens_are_unique_for_the_oracle() {
    for (n, max, givens, seed) in [
        (4, 3, 0, 1),
        (6, 4, 0, 2),
        (6, 5, 36, 3),
        (6, 3, 0, 4),
        (6, 6, 0, 5),
        (6, 5, 0, 6),
        (6, 4, 0, 7),
    ] {
        // 9×9 killers are left out: this oracle, with no propagation, takes minutes on them.
        let base = Spec {
            n,
            ..Spec::default()
        };
        let rules = base.rules();
        let config = VariantConfig {
            givens: (0, givens),
            killer: Some(max),
            ..VariantConfig::new(&rules)
        };
        let p = generate(
            &rules,
            &config,
            seed,
            Instant::now() + Duration::from_secs(30),
        )
        .unwrap();
        let spec = spec_of(&base, &p);
        assert_eq!(
            oracle_count(&spec, p.cells()),
            1,
            "{n}x{n} killer {}",
            p.to_line()
        );
        let cages = p.rules().cages();
        let mut covered: Vec<usize> = cages.iter().flat_map(|c| c.cells.clone()).collect();
        covered.sort_unstable();
        assert_eq!(
            covered,
            (0..n * n).collect::<Vec<_>>(),
            "the cages cover the grid once"
        );
        assert!(cages.iter().all(|c| c.cells.len() <= max));
        if givens == 0 {
            assert_eq!(p.givens(), 0);
            assert!(
                cages.iter().all(|c| c.cells.len() >= 2),
                "no single-cell cage stands in for a given"
            );
        }
    }
}

#[test]
fn random_jigsaw_layouts_make_unique_puzzles() {
    let mut rng = R::seed_from_u64(7);
    let mut made = 0;
    for (n, seeds) in [(6, 6)] {
        for seed in 0..seeds {
            let regions = random_regions(n, &mut rng);
            let base = Rules::classic(n).unwrap();
            assert_ne!(
                regions,
                (0..n * n).map(|c| base.region(c) as u8).collect::<Vec<_>>(),
                "the boxes were traded"
            );
            let spec = Spec {
                n,
                regions: Some(regions.clone()),
                ..Spec::default()
            };
            let rules = spec.rules();
            match generate(
                &rules,
                &VariantConfig::new(&rules),
                seed,
                Instant::now() + Duration::from_secs(20),
            ) {
                Ok(p) => {
                    assert_eq!(
                        oracle_count(&spec, p.cells()),
                        1,
                        "{regions:?} {}",
                        p.to_line()
                    );
                    made += 1;
                }
                Err(VariantGenerateError::NoSolution(_)) => {
                    assert_eq!(oracle_count(&spec, &vec![0; n * n]), 0)
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
    assert!(made >= 3, "{made}");
}

#[test]
fn impossible_requests_and_budgets_say_so() {
    let rules = Rules::classic(9).unwrap();
    let few = VariantConfig {
        givens: (0, 5),
        ..VariantConfig::new(&rules)
    };
    let e = generate(&rules, &few, 1, Instant::now() + Duration::from_secs(5)).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("at most 5 givens: a 9x9 puzzle with a unique solution needs at least 8"),
        "{e}"
    );
    let e = generate(&rules, &VariantConfig::new(&rules), 1, Instant::now()).unwrap_err();
    assert!(matches!(e, VariantGenerateError::Timeout { .. }), "{e}");
    let king = Rules::classic(4).unwrap().with_anti_king();
    let e = generate(
        &king,
        &VariantConfig::new(&king),
        1,
        Instant::now() + Duration::from_secs(5),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "these rules have no solution: 4x4 anti-king");

    // Every solution up to a limit, each different and valid: the 4×4 grid has 288.
    let four = Rules::classic(4).unwrap();
    let all = VariantSolver::new(&four)
        .solutions(&[0; 16], 1000, Instant::now() + Duration::from_secs(30))
        .unwrap();
    assert_eq!(all.len(), 288);
    let mut distinct = all.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 288);
    assert!(all.iter().all(|g| is_solution(&four, g)));
    // A deadline already passed stops a long search and says so.
    let nine = VariantSolver::new(&rules);
    assert_eq!(nine.solutions(&[0; 81], 100_000, Instant::now()), None);
}

#[test]
fn big_and_killer_puzzles_agree_with_a_sat_solver() {
    // The SAT oracle can say "more than one": the empty 4×4 has 288 solutions.
    let four = Spec {
        n: 4,
        ..Spec::default()
    };
    assert_eq!(four.sat_count(&[0; 16], 300), 288);
    let deadline = || Instant::now() + Duration::from_secs(60);
    // Generated puzzles, unique for the SAT solver: kinds and sizes the backtracking oracle
    // cannot finish.
    let mut cases: Vec<(Spec, VariantConfig, bool)> = Vec::new();
    let plain = |n: usize| Spec {
        n,
        ..Spec::default()
    };
    let dug = |rules: &Rules| VariantConfig::new(rules);
    for (spec, jigsaw) in [
        (plain(8), false),
        (plain(12), false),
        (plain(16), false),
        (plain(9), true),
        (
            Spec {
                knight: true,
                ..plain(9)
            },
            false,
        ),
        (
            Spec {
                x: true,
                ..plain(16)
            },
            false,
        ),
    ] {
        let config = dug(&spec.rules());
        cases.push((spec, config, jigsaw));
    }
    for (max, givens) in [(5, 0), (6, 81), (4, 0)] {
        let spec = plain(9);
        let config = VariantConfig {
            givens: (0, givens),
            killer: Some(max),
            ..dug(&spec.rules())
        };
        cases.push((spec, config, false));
    }
    for (k, (base, config, jigsaw)) in cases.iter().enumerate() {
        for seed in 0..4u64 {
            let rules = base.rules();
            let p = if *jigsaw {
                generate_jigsaw(&rules, config, seed, deadline())
            } else {
                generate(&rules, config, seed, deadline())
            }
            .unwrap_or_else(|e| panic!("case {k} seed {seed}: {e}"));
            let spec = Spec {
                regions: p.rules().regions().map(<[u8]>::to_vec),
                ..spec_of(base, &p)
            };
            assert_eq!(
                spec.sat_count(p.cells(), 2),
                1,
                "case {k} seed {seed}: {}",
                p.to_line()
            );
        }
    }
    // Counts agree on killers that are not unique: random cages over a solution, a few givens.
    let mut rng = R::seed_from_u64(41);
    let base = plain(9);
    for _ in 0..12 {
        let sol = solution(&base, &mut rng).unwrap();
        let spec = Spec {
            cages: cages_of(9, &sol, 4, &mut rng),
            ..base.clone()
        };
        let keep = rng.random_range(0..6);
        let givens = dig(&sol, keep, &mut rng);
        let p = VariantPuzzle::new(spec.rules(), givens.clone()).unwrap();
        assert_eq!(
            count_solutions(&p, 2).count,
            spec.sat_count(&givens, 2),
            "{}",
            p.to_line()
        );
    }
}

/// The puzzles of BENCHMARKS.md's rows compared with Solo (the same kinds, configurations and
/// seeds as `variant_probe generate`), every one unique for the SAT solver. Long: run by
/// `scripts/bench --only variants`, which puts its line in BENCHMARKS.md; `SHUDU_SOAK_SEEDS`
/// sets how many seeds a kind (default 20).
#[test]
#[ignore]
fn soak_the_bench_puzzles_are_unique_for_a_sat_solver() {
    let seeds: u64 = std::env::var("SHUDU_SOAK_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let plain = |n: usize| Spec {
        n,
        ..Spec::default()
    };
    let kinds: [(&str, Spec, bool, Option<usize>); 5] = [
        (
            "9x9 X",
            Spec {
                x: true,
                ..plain(9)
            },
            false,
            None,
        ),
        ("9x9 jigsaw", plain(9), true, None),
        ("9x9 killer, cages only", plain(9), false, Some(5)),
        ("12x12", plain(12), false, None),
        ("16x16", plain(16), false, None),
    ];
    let mut total = 0;
    for (name, base, jigsaw, killer) in kinds {
        let rules = base.rules();
        let mut config = VariantConfig::new(&rules);
        if let Some(max) = killer {
            config.killer = Some(max);
            config.givens = (0, 0);
        }
        let start = Instant::now();
        for seed in 0..seeds {
            let deadline = Instant::now() + Duration::from_secs(60);
            let p = if jigsaw {
                generate_jigsaw(&rules, &config, seed, deadline)
            } else {
                generate(&rules, &config, seed, deadline)
            }
            .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
            let spec = Spec {
                regions: p.rules().regions().map(<[u8]>::to_vec),
                ..spec_of(&base, &p)
            };
            assert_eq!(spec.sat_count(p.cells(), 2), 1, "{name} seed {seed}");
        }
        total += seeds;
        println!(
            "soak: {name}: seeds 0-{}, {seeds} of {seeds} unique for the SAT solver ({:.1} s)",
            seeds - 1,
            start.elapsed().as_secs_f64()
        );
    }
    println!("soak: {total} of {total} puzzles unique");
}
