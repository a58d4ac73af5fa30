//! The solver against an independent backtracking oracle, and its tables against their definitions.

use super::*;

/// `g` with each cell kept as a given with probability `keep` in 81.
fn subpuzzle(g: &Grid, keep: usize, rng: &mut impl rand::RngCore) -> Puzzle {
    let mut p = g.to_puzzle();
    for c in Cell::all() {
        if (rng.next_u32() as usize % 81) >= keep {
            p.set(c, None);
        }
    }
    p
}

#[test]
fn segment_table_keeps_only_permutation_segments() {
    // All nine segments open: everything allowed.
    assert_eq!(SEG_ALLOWED[0x1FF], 0x1FF);
    // Row 0 only in box 0 (segment 0): rows 1 and 2 cannot use box 0.
    let s = 0b111_111_001;
    assert_eq!(SEG_ALLOWED[s], 0b110_110_001);
    // Rows 0 and 1 both only in box 0: impossible.
    assert_eq!(SEG_ALLOWED[0b111_001_001], 0);
}

#[test]
fn state_from_full_boxes_equals_placing_the_cells() {
    // Boxes 1, 5, 9 and 2 of the grid
    // 534678912672195348198342567859761423426853791713924856961537284287419635345286179
    // (digit indices): the direct state must equal the placements at each stage, once both
    // are propagated (a placement leaves the box and column to the band update).
    let mut boxes: [Option<[u8; 9]>; 9] = [None; 9];
    let fills = [
        (0, [4, 2, 3, 5, 6, 1, 0, 8, 7]),
        (4, [6, 5, 0, 7, 4, 2, 8, 1, 3]),
        (8, [1, 7, 3, 5, 2, 4, 0, 6, 8]),
        (1, [5, 6, 7, 0, 8, 4, 2, 3, 1]),
    ];
    let mut placed = State::empty();
    for (x, digits) in fills {
        for (k, &d) in digits.iter().enumerate() {
            let cell = Cell::at(3 * (x / 3) + k / 3, 3 * (x % 3) + k % 3);
            assert!(placed.place_cell(cell, Digit::from_index(d as usize)));
        }
        boxes[x] = Some(digits);
        // Placements leave the rest to propagation: compare the two fixed points (without
        // the stack steps, as grid generation runs it).
        let mut direct = State::from_full_boxes(&boxes);
        let mut placed = placed;
        assert!(direct.propagate(false) && placed.propagate(false));
        assert_eq!(direct.cand, placed.cand, "after box {}", x + 1);
        assert_eq!(direct.unsolved, placed.unsolved, "after box {}", x + 1);
    }
}

#[test]
fn peer_lists_hold_the_twenty_peers() {
    for (i, peers) in PEER_LIST.iter().enumerate() {
        let (r, c) = (i / 9, i % 9);
        let want: Vec<usize> = (0..81)
            .filter(|&j| {
                let (s, d) = (j / 9, j % 9);
                j != i && (s == r || d == c || (s / 3 == r / 3 && d / 3 == c / 3))
            })
            .collect();
        let got: Vec<usize> = peers.iter().map(|&j| j as usize).collect();
        assert_eq!(got, want, "cell {i}");
    }
}

#[test]
fn unloading_givens_equals_a_fresh_load() {
    // Givens removed one or two at a time (in one row, one band, two bands) from a
    // puzzle and from a full grid, against a fresh load of what is left.
    let p: Puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .parse()
            .unwrap();
    let full: Puzzle =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
            .parse()
            .unwrap();
    let mut checked = 0;
    for puzzle in [p, full] {
        let loaded = Solver::new(&puzzle);
        let givens: Vec<Cell> = puzzle.filled().iter().collect();
        let mut sets: Vec<CellSet> = givens.iter().map(|&c| CellSet::single(c)).collect();
        for (i, &a) in givens.iter().enumerate() {
            for &b in &givens[i + 1..] {
                sets.push(CellSet::single(a) | CellSet::single(b));
            }
        }
        for cells in sets {
            let mut q = puzzle;
            for c in cells.iter() {
                q.set(c, None);
            }
            let unloaded = loaded.unload(&q, cells);
            assert!(unloaded.same_as(&Solver::new(&q)), "{cells:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 30 + 30 * 29 / 2 + 81 + 81 * 80 / 2);
    // Runs of many cells, as the first digs remove them: whole bands, stacks and digits.
    let full_loaded = Solver::new(&full);
    for k in 0..9 {
        let runs = [
            CellSet::from_bits(((1u128 << 27) - 1) << (27 * (k % 3))),
            full.filled()
                .iter()
                .filter(|c| c.col() / 3 == k % 3)
                .collect(),
            full.filled()
                .iter()
                .filter(|&c| full.get(c).map(|d| d.as_index()) == Some(k))
                .collect(),
        ];
        for cells in runs {
            let q = crate::generate::without(&full, cells);
            assert!(full_loaded.unload(&q, cells).same_as(&Solver::new(&q)));
        }
    }
    // Givens placed after the load count as givens.
    let mut placed = Solver::new(&p);
    let g = crate::solver::solve(&p).unwrap();
    let extra = [Cell::at(0, 2), Cell::at(4, 4), Cell::at(8, 0)];
    let mut q = p;
    for &c in &extra {
        placed.place(c, g.get(c));
        q.set(c, Some(g.get(c)));
    }
    assert!(placed.same_as(&Solver::new(&q)));
    let cells = CellSet::single(extra[1]) | CellSet::single(Cell::at(0, 0));
    let r = crate::generate::without(&q, cells);
    assert!(placed.unload(&r, cells).same_as(&Solver::new(&r)));
}

#[test]
fn a_load_takes_each_given_s_column_and_box_and_changes_no_fixed_point() {
    let p: Puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
            .parse()
            .unwrap();
    let loaded = Solver::new(&p).state;
    // The givens' rows only, as loads were before: the band updates do the rest.
    let mut rows = State::empty();
    for c in p.filled().iter() {
        let i = c.as_index();
        assert!(rows.place(p.get(c).unwrap().as_index(), i / 27, i % 27));
    }
    // r1c1 holds 4: no 4 left in column 1 or box 1 but there, none in r1 elsewhere.
    let fours = [loaded.cand[9], loaded.cand[10], loaded.cand[11]];
    assert_eq!(fours[0] & COL[0], 1);
    assert_eq!(fours[1] & COL[0], 0);
    assert_eq!(fours[2] & COL[0], 0);
    assert_eq!(fours[0] & BOX[0], 1);
    assert_ne!(rows.cand[10] & COL[0], 0);
    // The same fixed point, lightly and fully.
    for stack in [false, true] {
        let (mut a, mut b) = (loaded, rows);
        assert!(a.propagate(stack) && b.propagate(stack));
        assert_eq!(a.cand, b.cand);
        assert_eq!(a.unsolved, b.unsolved);
    }
}

#[test]
fn empty_puzzle_has_many_solutions() {
    let out = count_solutions(&Puzzle::empty(), 10);
    assert_eq!(out.count, 10);
    assert!(out.solution.is_some());
}

#[test]
fn contradictory_givens_have_no_solution() {
    // Two 1s in row 1 cannot be loaded consistently.
    let mut p = Puzzle::empty();
    p.set(Cell::at(0, 0), Digit::new(1));
    p.set(Cell::at(0, 5), Digit::new(1));
    assert_eq!(count_solutions(&p, 2).count, 0);
}

#[test]
fn solution_extends_the_givens() {
    let p: Puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
            .parse()
            .unwrap();
    let g = match solve_unique(&p) {
        Solutions::Unique(g) => g,
        other => panic!("expected a unique solution, got {other:?}"),
    };
    for c in Cell::all() {
        if let Some(d) = p.get(c) {
            assert_eq!(g.get(c), d);
        }
    }
}

/// Settling in rounds (the root of a search) and in sweeps (below it) reach the same fixed
/// point, or both a contradiction, so the search does not depend on which one runs.
#[test]
fn rounds_and_sweeps_reach_the_same_fixed_point() {
    use crate::grids::{random_grid, rng_for};
    use rand::RngCore;
    let mut rng = rng_for(29, 0);
    let (mut solved, mut stuck, mut dead) = (0, 0, 0);
    for _ in 0..2000 {
        let g = random_grid(&mut rng);
        // 17-40 givens, and now and then a given changed, for some contradictions.
        let keep = 17 + rng.next_u32() as usize % 24;
        let mut p = subpuzzle(&g, keep, &mut rng);
        if rng.next_u32().is_multiple_of(4) {
            let c = Cell::from_index(rng.next_u32() as usize % 81);
            p.set(c, Digit::new(1 + (rng.next_u32() % 9) as u8));
        }
        let s = Solver::new(&p);
        let (mut a, mut b) = (s.state, s.state);
        let ok = a.propagate_settling(true, true);
        assert_eq!(ok, b.propagate_settling(true, false), "puzzle {p}");
        if ok {
            assert_eq!(a.cand, b.cand, "puzzle {p}");
            assert_eq!(a.unsolved, b.unsolved, "puzzle {p}");
            if a.is_solved() {
                solved += 1;
            } else {
                stuck += 1;
            }
        } else {
            dead += 1;
        }
    }
    assert!(
        solved > 50 && stuck > 50 && dead > 50,
        "{solved} {stuck} {dead}"
    );
}

/// Whether this CPU reports AVX-512 with its byte-and-word and vector-length extensions in
/// `/proc/cpuinfo` (on Linux): then the vector path must be found and tested, not skipped.
fn cpu_lists_avx512() -> bool {
    std::fs::read_to_string("/proc/cpuinfo").is_ok_and(|s| {
        s.lines().find(|l| l.starts_with("flags")).is_some_and(|l| {
            let flags: Vec<&str> = l.split_whitespace().collect();
            ["avx512f", "avx512bw", "avx512vl"]
                .iter()
                .all(|f| flags.contains(f))
        })
    })
}

/// The propagation with rounds in vectors, light and full, ends where the scalar band updates
/// end: the same candidates, solved cells and segment sets (and with the stack updates and
/// triads, the same stack segment sets and permutation counts), or a contradiction in both,
/// from the roots the generator's searches start from (a puzzle with one digit forbidden,
/// 17-40 givens) and from a state a few cells below.
#[test]
fn vector_rounds_reach_the_scalar_fixed_point() {
    use crate::grids::{random_grid, rng_for};
    use rand::RngCore;
    let Some(unit) = Avx512::detect() else {
        assert!(
            !cpu_lists_avx512(),
            "the CPU lists AVX-512 but it was not detected"
        );
        eprintln!("no AVX-512 on this CPU: the vector path is not tested here");
        return;
    };
    let mut rng = rng_for(37, 0);
    let (mut solved, mut stuck, mut dead, mut vector) = (0, 0, 0, 0);
    for i in 0..3000 {
        let g = random_grid(&mut rng);
        let keep = 17 + rng.next_u32() as usize % 24;
        let mut p = subpuzzle(&g, keep, &mut rng);
        if rng.next_u32().is_multiple_of(5) {
            let c = Cell::from_index(rng.next_u32() as usize % 81);
            p.set(c, Digit::new(1 + (rng.next_u32() % 9) as u8));
        }
        // A given taken out and its grid digit forbidden there, as the generator's checks do.
        let out = Cell::all().filter(|&c| p.get(c).is_some()).nth(i % 17);
        if let Some(c) = out {
            p.set(c, None);
        }
        let mut s = Solver::new(&p);
        if let Some(c) = out {
            s.forbid(c, g.get(c));
        }
        let mut st = s.state;
        // Half the time, a few cells placed from the grid first (a state below the root).
        if i % 2 == 1 {
            for _ in 0..3 {
                let c = Cell::from_index(rng.next_u32() as usize % 81);
                st.place_cell(c, g.get(c));
            }
        }
        let changed = (0..27).filter(|&w| st.cand[w] != st.prev[w]).count();
        vector += usize::from(changed >= VECTOR_FROM as usize);
        // Light and full propagation.
        for stack in [false, true] {
            let (mut a, mut b) = (st, st);
            let ok = a.propagate_with(stack, true, Some(unit));
            assert_eq!(ok, b.propagate_with(stack, true, None), "puzzle {p}");
            if ok {
                assert_eq!(a.cand, b.cand, "puzzle {p}");
                assert_eq!(a.prev, b.prev, "puzzle {p}");
                assert_eq!(a.seg, b.seg, "puzzle {p}");
                assert_eq!(a.unsolved, b.unsolved, "puzzle {p}");
                if stack {
                    assert_eq!(a.sseg, b.sseg, "puzzle {p}");
                    assert_eq!(a.perms, b.perms, "puzzle {p}");
                }
                if a.is_solved() {
                    solved += 1;
                } else {
                    stuck += 1;
                }
            } else {
                dead += 1;
            }
        }
    }
    assert!(
        solved > 60 && stuck > 1000 && dead > 1000 && vector > 2000,
        "{solved} {stuck} {dead} {vector}"
    );
}

/// A digit `Solver::forced` reports is in every solution: with it forbidden, none is left.
#[test]
fn a_forced_digit_leaves_no_solution_when_forbidden() {
    use crate::grids::{random_grid, rng_for};
    use rand::RngCore;
    let mut rng = rng_for(31, 0);
    let (mut forced, mut open) = (0, 0);
    for _ in 0..300 {
        let g = random_grid(&mut rng);
        let keep = 20 + rng.next_u32() as usize % 50;
        let p = subpuzzle(&g, keep, &mut rng);
        let s = Solver::new(&p);
        for c in Cell::all().filter(|&c| p.get(c).is_none()) {
            let d = g.get(c);
            if s.forced(c, d) {
                forced += 1;
                let mut t = s;
                t.forbid(c, d);
                assert_eq!(t.count(1).count, 0, "{p}: {c:?} {d:?}");
            } else {
                open += 1;
            }
        }
    }
    assert!(forced > 1000 && open > 1000, "{forced} {open}");
}

/// The search near a grid (the generator's uniqueness checks) against the plain search:
/// the same answer as to whether a solution exists, and what it finds is a solution.
#[test]
fn search_near_a_grid_agrees_with_the_plain_search() {
    use crate::grids::{random_grid, rng_for};
    use rand::RngCore;
    let mut rng = rng_for(17, 0);
    let (mut found, mut none) = (0, 0);
    for _ in 0..300 {
        let g = random_grid(&mut rng);
        let near = Near::new(&g);
        // Keep each cell with probability 24..40 in 81, then forbid the grid's digit in one
        // empty cell: some of these have other solutions, some none.
        let keep = 24 + rng.next_u32() as usize % 17;
        let p = subpuzzle(&g, keep, &mut rng);
        let Some(empty) = Cell::all().find(|&c| p.get(c).is_none()) else {
            continue;
        };
        let mut s = Solver::new(&p);
        s.forbid(empty, g.get(empty));
        let plain = s.count(1);
        let other = s.first_near(&near, false);
        assert_eq!(other.is_some(), plain.count == 1, "puzzle {p}");
        let light = s.first_near(&near, true);
        assert_eq!(light.is_some(), plain.count == 1, "puzzle {p}, light");
        if let Some(h) = light {
            assert_ne!(h.get(empty), g.get(empty));
            assert!(p.filled().iter().all(|c| p.get(c) == Some(h.get(c))));
        }
        if let Some(h) = other {
            found += 1;
            assert_ne!(h.get(empty), g.get(empty));
            for c in Cell::all() {
                if let Some(d) = p.get(c) {
                    assert_eq!(h.get(c), d);
                }
            }
            // A grid: every house holds nine different digits.
            for house in crate::bitset::House::all() {
                let mut seen = crate::bitset::DigitSet::EMPTY;
                for c in house.cells().iter() {
                    seen.insert(h.get(c));
                }
                assert_eq!(seen.len(), 9);
            }
        } else {
            none += 1;
        }
    }
    assert!(found > 20 && none > 20, "found {found}, none {none}");
}
