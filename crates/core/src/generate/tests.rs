//! The generator against an independent check of uniqueness, minimality and symmetry.

use super::*;
use crate::solver::count_solutions;

#[test]
fn unavoidable_sets_are_unavoidable() {
    let mut rng = rng_for(12, 0);
    for _ in 0..5 {
        let g = random_grid(&mut rng);
        let sets = unavoidable_sets(&g);
        assert!(sets.len() >= 36, "every digit pair gives at least one");
        for u in sets {
            assert!(u.len() >= 4 && u.len() <= 18, "{u:?}");
            let p = without(&g.to_puzzle(), u);
            assert_eq!(count_solutions(&p, 2).count, 2, "{u:?}");
        }
    }
}

#[test]
fn other_solution_agrees_with_a_count_to_two() {
    let mut rng = rng_for(21, 0);
    // Not minimal, so that some removals keep the puzzle proper.
    let config = GenerateConfig {
        givens: Some((36, 36)),
        ..GenerateConfig::default()
    };
    let (mut found, mut none) = (0, 0);
    for _ in 0..40 {
        let Some(g) = generate_one(&config, &mut rng) else {
            continue;
        };
        let givens: Vec<Cell> = g.puzzle.filled().iter().collect();
        for k in 1..=3 {
            let mut pick = givens.clone();
            shuffle(&mut pick, &mut rng);
            let cells: CellSet = pick[..k].iter().copied().collect();
            let q = without(&g.puzzle, cells);
            let two = count_solutions(&q, 2).count == 2;
            match other_solution(&g.puzzle, cells, &g.solution) {
                Some(h) => {
                    found += 1;
                    assert!(two);
                    assert_ne!(h, g.solution);
                    // `h` keeps every given of `q`.
                    assert!(q.filled().iter().all(|c| h.get(c) == g.solution.get(c)));
                }
                None => {
                    none += 1;
                    assert!(!two);
                }
            }
        }
    }
    assert!(found > 0 && none > 0, "{found} {none}");
}

#[test]
fn group_tested_digging_equals_one_by_one_digging() {
    let mut rng = rng_for(13, 0);
    for _ in 0..10 {
        let g = random_grid(&mut rng);
        let mut order: Vec<CellSet> = Cell::all().map(CellSet::single).collect();
        shuffle(&mut order, &mut rng);
        let mut plain = g.to_puzzle();
        for &o in &order {
            if still_unique(&plain, o, &g) {
                plain = without(&plain, o);
            }
        }
        // Both kinds of search: in increasing order and near the grid.
        for near in [false, true] {
            let target = SolutionGrid::new(g, near);
            let mut d = Digger {
                grid: &target,
                unavoidable: &unavoidable_sets(&g),
                learned: Vec::new(),
                learn: true,
                p: g.to_puzzle(),
                solver: Solver::new(&g.to_puzzle()),
                filled: CellSet::ALL,
                givens: 81,
                spare: CellSet::EMPTY,
                reasons: &mut NO_REASON.clone(),
            };
            d.dig(&order, 0);
            assert_eq!(d.p, plain);
        }
    }
}

#[test]
fn half_turn_grids_have_a_half_turn_automorphism() {
    let mut rng = rng_for(15, 0);
    for _ in 0..50 {
        let g = half_turn_grid(&mut rng);
        // A valid grid: the checked conversion from a full puzzle.
        assert!(Grid::try_from(g.to_puzzle()).is_ok());
        // The half turn maps each digit's cells onto one digit's cells, one digit fixed.
        let b = g.as_bytes();
        let mut sigma = [0u8; 10];
        for (i, &x) in b.iter().enumerate() {
            let (x, y) = (x as usize, b[80 - i]);
            assert!(sigma[x] == 0 || sigma[x] == y, "{}", g.to_line());
            sigma[x] = y;
        }
        assert_eq!((1..10).filter(|&v| sigma[v] as usize == v).count(), 1);
        // So the half turn of an unavoidable set is unavoidable.
        for u in unavoidable_sets(&g).into_iter().take(8) {
            let p = without(&g.to_puzzle(), half_turn(u));
            assert_eq!(count_solutions(&p, 2).count, 2, "{u:?}");
        }
    }
}

#[test]
fn cells_a_dig_finds_spare_can_be_removed_alone() {
    // A dig of an orbit-minimal puzzle removes nothing, so each kept orbit is tested against
    // the puzzle itself: a cell it reports spare can be removed alone, and its orbit is weak.
    let mut rng = rng_for(17, 0);
    let orbits = Symmetry::Rot180.orbit_table();
    let mut spares = 0;
    for _ in 0..40 {
        let g = random_grid(&mut rng);
        let grid = SolutionGrid::new(g, true);
        let known = unavoidable_sets(&g);
        let (p, _, _) = dig(g.to_puzzle(), &grid, &known, orbits, 0, true, &mut rng);
        let (q, _, spare) = dig(p, &grid, &[], orbits, 0, true, &mut rng);
        assert_eq!(q, p);
        assert!((spare & !givens_of(&p)).is_empty());
        for c in spare.iter() {
            spares += 1;
            let r = without(&p, CellSet::single(c));
            assert_eq!(count_solutions(&r, 2).count, 1, "{c:?} is necessary in {p}");
        }
    }
    // Weak orbits are common (about 5 an orbit-minimal puzzle): the test saw some.
    assert!(spares >= 10, "{spares} spare cells");
}

#[test]
fn the_pair_test_answers_as_a_count_and_learns_witnesses() {
    // Orbit-minimal rot180 puzzles with three empty orbits given again, so that some pair
    // orbits can be removed and others not; each pair orbit's test against counts.
    let mut rng = rng_for(19, 0);
    let orbits = Symmetry::Rot180.orbit_table();
    let (mut removed, mut witnesses, mut spares) = (0, 0, 0);
    for _ in 0..30 {
        let g = random_grid(&mut rng);
        let mut grid = SolutionGrid::new(g, true);
        grid.light = true;
        let known = unavoidable_sets(&g);
        let (mut p, _, _) = dig(g.to_puzzle(), &grid, &known, orbits, 0, true, &mut rng);
        let mut empty = filtered(orbits, |&o| (o & givens_of(&p)).is_empty());
        shuffle(&mut empty, &mut rng);
        for &o in empty.iter().take(3) {
            p = with(&p, o, &g);
        }
        let filled = givens_of(&p);
        for &f in orbits
            .iter()
            .filter(|&&o| o.len() == 2 && (o & filled) == o)
        {
            let q = without(&p, f);
            let a = f.iter().next().expect("a pair");
            let a_alone = count_solutions(&without(&p, CellSet::single(a)), 2).count == 1;
            match grid.pair_test(Solver::new(&q), f) {
                None => {
                    assert_eq!(count_solutions(&q, 2).count, 1, "{f:?} of {p}");
                    removed += 1;
                }
                Some((h, spare)) => {
                    assert_ne!(h, g);
                    assert!(filled.iter().all(|c| f.contains(c) || h.get(c) == g.get(c)));
                    assert_eq!(spare, a_alone, "{a:?} of {p}");
                    if spare {
                        spares += 1;
                    } else {
                        // A witness: the difference meets the givens in `a` alone.
                        assert_eq!(difference(&h, &g) & filled, CellSet::single(a));
                        witnesses += 1;
                    }
                }
            }
        }
    }
    assert!(
        removed > 0 && witnesses > 0 && spares > 0,
        "{removed} {witnesses} {spares}"
    );
}

#[test]
fn repair_gives_minimal_puzzles_on_both_kinds_of_grid() {
    // The two branches of a rot180 minimal attempt, each checked cell by cell by a
    // count-to-two search: uniform grids (the old walk) and grids with a half-turn
    // automorphism (partners' sets remembered, one cell tested an orbit).
    let mut rng = rng_for(16, 0);
    let orbits = Symmetry::Rot180.orbit_table();
    for half_turn in [false, true] {
        let mut made = 0;
        while made < 5 {
            let g = if half_turn {
                half_turn_grid(&mut rng)
            } else {
                random_grid(&mut rng)
            };
            let mut grid = SolutionGrid::new(g, true);
            grid.half_turn = half_turn;
            grid.light = true;
            let mut known = unavoidable_sets(&g);
            let mut reasons = NO_REASON;
            let (p, learned, spare, loaded, _) = dig_loaded(
                g.to_puzzle(),
                Solver::new(&g.to_puzzle()),
                &grid,
                &known,
                &mut reasons,
                orbits,
                0,
                true,
                &mut rng,
            );
            assert!(
                loaded.same_as(&Solver::new(&p)),
                "the digger's state is the puzzle's"
            );
            let first_learned = known.len();
            remember(&mut known, learned, &grid);
            let walked = make_minimal(
                p,
                loaded,
                spare,
                &grid,
                &mut known,
                &mut reasons,
                orbits,
                &mut rng,
            );
            // Each set learned is new (`remember_new` adds the repair's without a look-up).
            for i in first_learned..known.len() {
                assert!(!known[..i].contains(&known[i]), "set {i} learned twice");
            }
            let Some(p) = walked else {
                continue;
            };
            made += 1;
            assert!(Symmetry::Rot180.holds_for(&p));
            let out = count_solutions(&p, 2);
            assert_eq!((out.count, out.solution), (1, Some(g)));
            for c in p.filled().iter() {
                let q = without(&p, CellSet::single(c));
                assert_eq!(count_solutions(&q, 2).count, 2, "{c:?} is removable");
            }
            // Every set remembered is unavoidable (the turned ones too).
            for &u in known.iter().rev().take(20) {
                let q = without(&g.to_puzzle(), u);
                assert_eq!(count_solutions(&q, 2).count, 2, "{u:?}");
            }
        }
    }
}

#[test]
fn first_missed_finds_the_first_set_missed() {
    let mut rng = rng_for(31, 0);
    let g = random_grid(&mut rng);
    let sets = unavoidable_sets(&g);
    let mut hits = 0;
    // Every length, so that the tail after the chunks of four is tried too.
    for len in 0..sets.len().min(24) {
        for _ in 0..20 {
            let left = CellSet::from_bits(
                ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
                    & ((1 << 81) - 1)
                    & ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128),
            );
            let want = sets[..len].iter().position(|&u| (u & left).is_empty());
            assert_eq!(first_missed(&sets[..len], left), want, "{len} {left:?}");
            hits += usize::from(want.is_some_and(|i| i > 0));
        }
    }
    assert!(hits > 20, "sets missed past the first: {hits}");
    assert_eq!(first_missed(&sets, CellSet::EMPTY), Some(0));
    assert_eq!(first_missed(&sets, CellSet::from_bits((1 << 81) - 1)), None);
}

#[test]
fn differing_cells_compares_byte_by_byte() {
    let mut rng = rng_for(43, 0);
    for round in 0..3000 {
        let mut a = [0u8; 81];
        let mut b = [0u8; 81];
        for i in 0..81 {
            a[i] = (rng.next_u32() % 10) as u8;
            // Any byte, high bit included, in about one cell in `1 + round % 7`.
            b[i] = if rng.next_u32().is_multiple_of(1 + round % 7) {
                rng.next_u32() as u8
            } else {
                a[i]
            };
        }
        let want: CellSet = (0..81)
            .filter(|&i| a[i] != b[i])
            .map(Cell::from_index)
            .collect();
        assert_eq!(differing_cells(&a, &b), want);
        let filled: CellSet = (0..81)
            .filter(|&i| a[i] != 0)
            .map(Cell::from_index)
            .collect();
        assert_eq!(differing_cells(&a, &[0; 81]), filled);
    }
    assert_eq!(
        differing_cells(&[9; 81], &[0; 81]),
        CellSet::from_bits((1 << 81) - 1)
    );
}

#[test]
fn the_choices_scans_agree_with_first_hitting() {
    // Random sets stand for the missed sets (the scans ask nothing of them but their cells),
    // growing one at a time as in `replace_orbit`; the pairs and the retained single
    // choices must give the choice `first_hitting` gives over the full lists each time.
    let mut rng = rng_for(41, 0);
    let sparse = |rng: &mut crate::grids::Rng| {
        CellSet::from_bits(
            ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
                & ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
                & ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
                & ((1 << 81) - 1),
        )
    };
    let (mut separate, mut plain, mut none) = (0, 0, 0);
    for symmetry in [Symmetry::Rot180, Symmetry::MirrorH, Symmetry::Rot90] {
        let orbits = symmetry.orbits();
        for _ in 0..40 {
            let mut empty = orbits.clone();
            shuffle(&mut empty, &mut rng);
            empty.truncate(6 + below(&mut rng, 20));
            let mut all_pairs = Vec::new();
            let mut two = Vec::new();
            for i in 0..empty.len() {
                for j in i + 1..empty.len() {
                    all_pairs.push(empty[i] | empty[j]);
                    two.push((i as u8, j as u8));
                }
            }
            let mut singles = empty.clone();
            let mut missed = vec![sparse(&mut rng)];
            for _ in 0..70 {
                // The pairs.
                let want = first_hitting(&all_pairs, &missed).map(|k| all_pairs[k]);
                let got = first_hitting_pair(&empty, &mut two, &missed)
                    .map(|k| empty[two[k].0 as usize] | empty[two[k].1 as usize]);
                assert_eq!(got, want);
                match want {
                    Some(e) if separated(&missed, e) => separate += 1,
                    Some(_) => plain += 1,
                    None => none += 1,
                }
                // The single orbits, with the list the retained scan keeps.
                let full: Vec<CellSet> = empty.clone();
                let want = first_hitting(&full, &missed).map(|k| full[k]);
                let got = first_hitting_retain(&mut singles, &missed).map(|k| singles[k]);
                assert_eq!(got, want);
                // The missed sets of a move are found as a filter finds them.
                let left = sparse(&mut rng) | sparse(&mut rng);
                let filter: Vec<CellSet> = missed
                    .iter()
                    .copied()
                    .filter(|&u| (u & left).is_empty())
                    .collect();
                assert_eq!(missed_by(&missed, left), filter);
                missed.push(sparse(&mut rng));
            }
        }
    }
    // Every outcome was met (more than 64 sets: the old scan).
    assert!(
        separate > 50 && plain > 50 && none > 50,
        "{separate} {plain} {none}"
    );
    for o in Symmetry::Dihedral.orbits() {
        assert_eq!(orbit_len(o), o.len() as usize);
    }
    assert_eq!(orbit_len(CellSet::EMPTY), 0);
}

#[test]
fn separated_asks_a_set_without_the_partner_for_each_cell() {
    let set = |cells: &[usize]| -> CellSet { cells.iter().map(|&i| Cell::from_index(i)).collect() };
    let e = set(&[10, 70]);
    // Both sets hold both cells: neither cell is alone in one.
    assert!(!separated(&[set(&[10, 70, 3]), set(&[10, 70, 5])], e));
    // One cell alone in a set, the other never.
    assert!(!separated(&[set(&[10, 3]), set(&[10, 70, 5])], e));
    // Each alone in a set of its own.
    assert!(separated(
        &[set(&[10, 3]), set(&[70, 5]), set(&[10, 70])],
        e
    ));
    // The centre is its own orbit.
    assert!(separated(&[set(&[40, 3])], set(&[40])));
}

#[test]
fn orbit_counts() {
    let count = |s: Symmetry| s.orbits().len();
    assert_eq!(count(Symmetry::None), 81);
    assert_eq!(count(Symmetry::Rot180), 41);
    assert_eq!(count(Symmetry::Rot90), 21);
    assert_eq!(count(Symmetry::MirrorH), 45);
    assert_eq!(count(Symmetry::Diagonal), 45);
    assert_eq!(count(Symmetry::Dihedral), 15);
}

#[test]
fn rot90_allows_only_0_or_1_mod_4() {
    for k in 17..=81 {
        assert_eq!(Symmetry::Rot90.allows_givens(k), k % 4 <= 1, "{k}");
    }
}

#[test]
fn config_errors_explain_themselves() {
    let c = GenerateConfig {
        givens: Some((16, 16)),
        ..GenerateConfig::default()
    };
    assert!(c
        .validate()
        .unwrap_err()
        .to_string()
        .contains("fewer than 17"));
    let c = GenerateConfig {
        givens: Some((22, 22)),
        symmetry: Symmetry::Rot90,
        ..GenerateConfig::default()
    };
    assert_eq!(
        c.validate().unwrap_err().to_string(),
        "no puzzle with rot90 symmetry has exactly 22 givens: its cells fall into orbits of 1 or 4 cells"
    );
}

#[test]
fn refuses_minimal_puzzles_above_the_most_givens_known() {
    let minimal = |a, b| GenerateConfig {
        givens: Some((a, b)),
        minimal: true,
        ..GenerateConfig::default()
    };
    assert_eq!(
        minimal(41, 81).validate(),
        Err(ConfigError::MinimalTooManyGivens(41))
    );
    assert_eq!(minimal(40, 40).validate(), Ok(()));
    assert_eq!(minimal(30, 60).validate(), Ok(()));
}

#[test]
fn items_of_a_range_draw_their_targets_uniformly() {
    let config = GenerateConfig {
        givens: Some((26, 61)),
        ..GenerateConfig::default()
    };
    let mut seen = [0usize; 82];
    for i in 0..3600 {
        let c = config.for_item(&mut rng_for(9, i));
        let (a, b) = c.givens.unwrap();
        assert_eq!(a, b);
        seen[a] += 1;
    }
    // 36 counts, 100 draws each expected: every one drawn, none far off.
    for (k, &n) in seen.iter().enumerate() {
        if (26..=61).contains(&k) {
            assert!((50..=150).contains(&n), "{k}: {n}");
        } else {
            assert_eq!(n, 0, "{k}");
        }
    }
    // Rot90 allows only counts that are 0 or 1 mod 4.
    let rot90 = GenerateConfig {
        symmetry: Symmetry::Rot90,
        ..config.clone()
    };
    for i in 0..200 {
        let (t, _) = rot90.for_item(&mut rng_for(9, i)).givens.unwrap();
        assert!(t % 4 <= 1, "{t}");
    }
    // Minimal puzzles keep the range.
    let minimal = GenerateConfig {
        minimal: true,
        givens: Some((20, 30)),
        ..GenerateConfig::default()
    };
    assert_eq!(minimal.for_item(&mut rng_for(9, 0)), minimal);
}

#[test]
fn symmetric_minimal_puzzles_are_minimal_cell_by_cell() {
    let mut rng = rng_for(14, 0);
    for s in [Symmetry::Rot180, Symmetry::MirrorH, Symmetry::Rot90] {
        let config = GenerateConfig {
            symmetry: s,
            minimal: true,
            ..GenerateConfig::default()
        };
        for _ in 0..8 {
            let g = loop {
                if let Some(g) = generate_one(&config, &mut rng) {
                    break g;
                }
            };
            assert!(s.holds_for(&g.puzzle), "{s}");
            assert_eq!(count_solutions(&g.puzzle, 2).count, 1, "{s}");
            // Each given alone, by a count-to-two search (not the forbidden-digit check).
            for c in g.puzzle.filled().iter() {
                let q = without(&g.puzzle, CellSet::single(c));
                assert_eq!(count_solutions(&q, 2).count, 2, "{s}: {c:?} is removable");
            }
        }
    }
}

#[test]
fn dug_puzzle_is_proper_and_minimal() {
    let mut rng = rng_for(5, 0);
    for _ in 0..20 {
        let g = generate_one(&GenerateConfig::default(), &mut rng).unwrap();
        let out = count_solutions(&g.puzzle, 2);
        assert_eq!(out.count, 1);
        assert_eq!(out.solution.unwrap(), g.solution);
        assert!(is_minimal(&g.puzzle, &g.solution));
    }
}

#[test]
fn symmetric_puzzles_hold_their_symmetry() {
    let mut rng = rng_for(6, 0);
    for s in Symmetry::ALL {
        let config = GenerateConfig {
            symmetry: s,
            ..GenerateConfig::default()
        };
        let g = generate_one(&config, &mut rng).unwrap();
        assert!(s.holds_for(&g.puzzle), "{s}");
        assert_eq!(count_solutions(&g.puzzle, 2).count, 1, "{s}");
    }
}
