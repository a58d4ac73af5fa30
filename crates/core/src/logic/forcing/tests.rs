//! The forcing chains against SE's ratings, a reference propagation and each other.

use super::*;
use crate::Puzzle;
use std::collections::VecDeque;

/// A puzzle of the forum's hardest list (HardestDatabase110626), rated 10.3/1.2/1.2 by SE
/// 1.2.1, after its first three steps: SE's next step is "Region Forcing Chains: 5 in row
/// ==> R6C5.8 off", Dynamic Region Forcing Chains (+ Forcing Chains), 10.3.
fn board_before_level_two() -> Board {
    let p: Puzzle =
        "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2"
            .parse()
            .unwrap();
    let mut b = Board::new(&p);
    for _ in 0..3 {
        let s = crate::logic::next_step(&b).unwrap();
        b.apply(&s);
    }
    b
}

#[test]
fn level_two_finds_ses_region_chain_at_its_rating() {
    let b = board_before_level_two();
    assert!(forcing_chains(&b, Mode::DynamicPlus).is_none());
    let s = forcing_chains(&b, Mode::Nested(2)).expect("a level-2 chain");
    assert_eq!(s.rating, Rating(103));
    assert_eq!(
        s.technique,
        "Dynamic Region Forcing Chains (+ Forcing Chains)"
    );
    assert_eq!(s.eliminations, vec![(cell(5 * 9 + 4), digit(7))]);
    assert!(s.text.contains("wherever 5 goes in row 6"), "{}", s.text);
}

#[test]
fn nested_chain_complexity_counts_the_inner_chains() {
    // 10.3 is 9.5 plus SE's length bonus 0.8: 51 to 66 nodes, the outer chain's own and
    // those of the inner chains it rests on.
    let b = board_before_level_two();
    let all = all_chains(&b, Mode::Nested(2), false, None, &Budget::unlimited());
    let best = all
        .iter()
        .min_by_key(|f| (f.rating, f.complexity, f.sort_key))
        .unwrap();
    assert_eq!(best.rating, 103);
    assert!((51..=66).contains(&best.complexity), "{}", best.complexity);
    assert_eq!(length_bonus(best.complexity), 8);
}

#[test]
fn keeping_only_better_chains_takes_the_same_step() {
    // Along the path of a top1465 puzzle SE rates 9.0, at every position of a chain step,
    // a search that keeps every chain and one that keeps only those beating the best so far
    // (`Collector`) take the same chain.
    let p: Puzzle =
        "..2...9..9....6..18..4...3.....6..5..3...82........3.7.2.9..1..6.1.5.....7...4..."
            .parse()
            .unwrap();
    let mut b = Board::new(&p);
    let budget = Budget::unlimited();
    let best = |v: &[Found]| {
        v.iter()
            .enumerate()
            .min_by_key(|(i, f)| (f.rating, f.complexity, f.sort_key, *i))
            .map(|(_, f)| {
                (
                    f.rating,
                    f.complexity,
                    f.sort_key,
                    f.placements.clone(),
                    f.eliminations.clone(),
                )
            })
    };
    let mut compared = 0;
    while let Some(step) = crate::logic::next_step(&b) {
        if step.rating.0 >= 75 {
            for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
                let all = all_chains(&b, mode, true, None, &budget);
                let kept = all_chains(&b, mode, false, None, &budget);
                assert_eq!(best(&all), best(&kept), "{mode:?}");
                assert!(kept.len() <= all.len());
                compared += 1;
            }
        }
        b.apply(&step);
    }
    assert!(compared >= 3, "{compared}");
}

/// The boards of the chain steps (7.5 and up) along the path of a top1465 puzzle SE rates
/// 9.0.
fn chain_boards() -> Vec<Board> {
    let p: Puzzle =
        "..2...9..9....6..18..4...3.....6..5..3...82........3.7.2.9..1..6.1.5.....7...4..."
            .parse()
            .unwrap();
    let mut b = Board::new(&p);
    let mut out = Vec::new();
    while let Some(step) = crate::logic::next_step(&b) {
        if step.rating.0 >= 75 {
            out.push(b.clone());
        }
        b.apply(&step);
    }
    out
}

#[test]
fn closure_is_the_propagation_and_its_rounds_bound_the_ancestors() {
    // On every assumption of every chain board, in the three modes that use closures: the
    // closure holds exactly propagate's potentials when propagate meets no contradiction,
    // a superset of them and a conflict when it does, and each potential's round plus one
    // is at most its number of ancestors in propagate's outcome.
    let budget = Budget::unlimited();
    let mut seen = Seen::new();
    let (mut checked, mut absurd) = (0, 0);
    for b in chain_boards() {
        for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
            let engine = engine(&b, mode, false, &budget);
            let mut closures = Closures::new(&b, mode);
            for c in 0..81 {
                for d in bits(b.cands[c]) {
                    for on in [true, false] {
                        let a = id(c, d, on);
                        let exact = engine.assume(a);
                        let cl = *closures.get(a, usize::MAX);
                        let mut held = ([0u128; 9], [0u128; 9]);
                        for n in &exact.nodes {
                            let (c, d) = (id_cell(n.id), id_digit(n.id));
                            if id_on(n.id) {
                                held.0[d] |= 1 << c;
                            } else {
                                held.1[d] |= 1 << c;
                            }
                            let r = closures.round(a, n.id) as usize;
                            let ancestors = exact.ancestors(n.id, exact.parents(n.id), &mut seen);
                            assert!(r < ancestors, "{mode:?} {a}: round {r}, {ancestors}");
                        }
                        if exact.absurd.is_some() {
                            absurd += 1;
                            assert!(cl.conflict != u32::MAX, "{mode:?} {a}");
                            for d in 0..9 {
                                assert_eq!(held.0[d] & !cl.on[d], 0, "{mode:?} {a}");
                                assert_eq!(held.1[d] & !cl.off[d], 0, "{mode:?} {a}");
                            }
                        } else {
                            assert_eq!(cl.conflict, u32::MAX, "{mode:?} {a}");
                            assert_eq!((held.0, held.1), (cl.on, cl.off), "{mode:?} {a}");
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000 && absurd > 100, "{checked} {absurd}");
}

#[test]
fn conflict_is_the_least_round_sum_of_a_candidate_on_and_off() {
    // Every assumption of every chain board, the three kernels, several limits: the
    // conflict is the least `round(on) + round(off) + 2` over the candidates held both on
    // and off, and no more than the round cut plus three when the closure was cut (the
    // first round of on potentials at least `limit - 1`: an on assumption's on potentials
    // have even rounds, an off assumption's odd ones); `u32::MAX` if neither.
    let (mut conflicts, mut cut) = (0, 0);
    for b in chain_boards() {
        for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
            let mut cl = Closures::new(&b, mode);
            for limit in [usize::MAX, 12, 7] {
                for a in (0..1458).filter(|&a| b.cands[id_cell(a)] >> id_digit(a) & 1 == 1) {
                    let serves = match mode {
                        Mode::Nishio => cl.make::<false, true>(a, limit),
                        Mode::Multiple => cl.make::<true, false>(a, limit),
                        _ => cl.make::<true, true>(a, limit),
                    };
                    let x = cl.kept.closures[a as usize];
                    let mut want = u32::MAX;
                    for d in 0..9 {
                        for c in 0..81 {
                            if (x.on[d] & x.off[d]) >> c & 1 == 1 {
                                let sum =
                                    cl.round(a, id(c, d, true)) + cl.round(a, id(c, d, false)) + 2;
                                want = want.min(sum);
                            }
                        }
                    }
                    if want != u32::MAX {
                        conflicts += 1;
                    }
                    if serves != usize::MAX {
                        cut += 1;
                        let first = limit as u32 - 1;
                        let r = if first % 2 == u32::from(!id_on(a)) {
                            first
                        } else {
                            first + 1
                        };
                        want = want.min(r + 3);
                    }
                    assert_eq!(x.conflict, want, "{mode:?} {a} {limit}");
                }
            }
        }
    }
    assert!(conflicts > 100 && cut > 100, "{conflicts} {cut}");
}

/// `live` lists each assumption with a closure once, and no other.
fn assert_live_lists_the_closures(kept: &Kept) {
    let mut listed = vec![false; 1458];
    for &a in &kept.live {
        assert!(!listed[a as usize], "{a} listed twice");
        listed[a as usize] = true;
    }
    for a in 0..1458 {
        assert_eq!(listed[a], kept.serves[a] != 0, "{a}");
    }
}

#[test]
fn live_closures_are_listed_along_searches() {
    // Whole searches along the chain boards (each with fewer candidates than the one
    // before; the kept closures are updated at each), then another puzzle (all dropped):
    // after each, the kept closures' list holds exactly the assumptions with a closure.
    let mut boards = chain_boards();
    boards.push(board_before_level_two());
    let mut listed = 0;
    for b in &boards {
        for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
            forcing_chains(b, mode);
            KEPT.with(|k| {
                let k = k.borrow();
                let slot = match mode {
                    Mode::Nishio => 0,
                    Mode::Multiple => 1,
                    _ => 2,
                };
                let kept = k[slot].as_ref().expect("kept closures");
                assert_live_lists_the_closures(kept);
                listed += kept.live.len();
            });
        }
    }
    assert!(listed > 1000, "{listed}");
}

#[test]
fn kept_closures_are_the_closures_of_the_new_board() {
    // Along the chain boards of a path (each with fewer candidates than the one before),
    // in the three modes: every closure, kept from an earlier board or made anew, has the
    // masks, conflict and rounds of the closure made from nothing on this board.
    let mut kept = 0;
    for b in chain_boards() {
        for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
            let assumptions: Vec<Id> = (0..1458)
                .filter(|&a| b.cands[id_cell(a)] >> id_digit(a) & 1 == 1)
                .collect();
            let mut cl = Closures::new(&b, mode);
            let mut fresh = Closures::new(&b, mode);
            fresh.kept = Kept::new();
            kept += assumptions
                .iter()
                .filter(|&&a| cl.kept.serves[a as usize] == usize::MAX)
                .count();
            assert_live_lists_the_closures(&cl.kept);
            for &a in &assumptions {
                let x = *cl.get(a, usize::MAX);
                let y = *fresh.get(a, usize::MAX);
                assert!(
                    (x.on, x.off, x.conflict) == (y.on, y.off, y.conflict),
                    "{mode:?} {a}"
                );
                for t in 0..1458 {
                    let (c, d) = (id_cell(t), id_digit(t));
                    let m = if id_on(t) { y.on[d] } else { y.off[d] };
                    if m >> c & 1 == 1 {
                        assert_eq!(cl.round(a, t), fresh.round(a, t), "{mode:?} {a} {t}");
                    }
                }
            }
            assert_live_lists_the_closures(&cl.kept);
            assert_live_lists_the_closures(&fresh.kept);
            // The kept set of this board for the next, not the fresh one.
            drop(fresh);
            drop(cl);
        }
    }
    assert!(kept > 500, "{kept}");
}

#[test]
fn settled_counts_leave_the_closures_unchanged() {
    // On every assumption of every chain board, for several limits: the same masks,
    // conflict, rounds and served limit with the counts of on potentials settled as
    // without.
    let mut compared = 0;
    for b in chain_boards() {
        for mode in [Mode::Nishio, Mode::Dynamic] {
            let mut cl = Closures::new(&b, mode);
            for limit in [usize::MAX, 12, 7] {
                for a in (0..1458).filter(|&a| b.cands[id_cell(a)] >> id_digit(a) & 1 == 1) {
                    let mut run = |off: bool| {
                        SETTLE_OFF.with(|f| f.set(off));
                        let serves = if mode == Mode::Nishio {
                            cl.make::<false, true>(a, limit)
                        } else {
                            cl.make::<true, true>(a, limit)
                        };
                        (closure_record(&cl, a), serves)
                    };
                    let with = run(false);
                    let without = run(true);
                    SETTLE_OFF.with(|f| f.set(false));
                    assert!(with == without, "{mode:?} {a} {limit}");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 5000, "{compared}");
}

/// A kept closure as the tests compare it: its masks, its conflict and the round of each
/// potential it holds (255 where it holds none).
fn closure_record(cl: &Closures, a: Id) -> ([u128; 9], [u128; 9], u32, Vec<u8>) {
    let x = cl.kept.closures[a as usize];
    let rounds = (0..1458)
        .map(|t| {
            let (c, d) = (id_cell(t), id_digit(t));
            let m = if id_on(t) { x.on[d] } else { x.off[d] };
            if m >> c & 1 == 1 {
                cl.round(a, t) as u8
            } else {
                255
            }
        })
        .collect();
    (x.on, x.off, x.conflict, rounds)
}

#[test]
fn static_closures_follow_only_the_strong_offs() {
    // Multiple mode: `strong` holds the candidates of bivalue cells and of digits with two
    // places in a house, and nothing in the dynamic modes; the static kernel and
    // `static_masks` give the same closures (masks, conflict, rounds, served limit) as when
    // every off potential is followed.
    let mut compared = 0;
    for b in chain_boards() {
        for mode in [Mode::Nishio, Mode::Dynamic] {
            assert_eq!(Closures::new(&b, mode).strong, [0; 9]);
        }
        let mut cl = Closures::new(&b, Mode::Multiple);
        for c in 0..81 {
            for d in bits(b.cands[c]) {
                let bilocal = CELL_HOUSES[c].iter().any(|&h| {
                    HOUSE_CELLS[h as usize]
                        .iter()
                        .filter(|&&o| b.cands[o as usize] >> d & 1 == 1)
                        .count()
                        == 2
                });
                let strong = b.cands[c].count_ones() == 2 || bilocal;
                assert_eq!(cl.strong[d] >> c & 1 == 1, strong, "{c} {d}");
            }
        }
        assert!((0..9).all(|d| cl.strong[d] & !cl.places[d] == 0));
        let strong = cl.strong;
        let cands = (0..1458).filter(|&a| b.cands[id_cell(a)] >> id_digit(a) & 1 == 1);
        for limit in [usize::MAX, 12, 7] {
            for a in cands.clone() {
                let mut run = |all: bool| {
                    cl.strong = if all { [!0; 9] } else { strong };
                    let serves = cl.make::<true, false>(a, limit);
                    (closure_record(&cl, a), serves)
                };
                let with = run(false);
                let without = run(true);
                assert!(with == without, "{a} {limit}");
                compared += 1;
            }
        }
        // Masks without rounds, made from the closures already made, in the same order.
        let masks = |all: bool| {
            let mut cl = Closures::new(&b, Mode::Multiple);
            cl.kept.update(&[0; 81], true);
            cl.kept.update(&b.cands, true);
            if all {
                cl.strong = [!0; 9];
            }
            cands
                .clone()
                .filter(|&a| id_on(a))
                .map(|a| {
                    let x = *cl.masks(a);
                    (x.on, x.off, x.conflict)
                })
                .collect::<Vec<_>>()
        };
        assert!(masks(false) == masks(true));
    }
    assert!(compared > 1000, "{compared}");
}

/// What two searches must agree on about a chain: rating, complexity, kind, eliminations.
type ChainKey = (u16, usize, u8, Vec<(Cell, Digit)>);

fn chain_key(v: &[Found]) -> Vec<ChainKey> {
    v.iter()
        .map(|f| (f.rating, f.complexity, f.sort_key, f.eliminations.clone()))
        .collect()
}

#[test]
fn searches_with_closures_keep_the_same_chains() {
    // The closures only leave out chains that could not be kept: with them and without
    // them, the searches keep the same chains (Nishio, multiple, dynamic) on every chain
    // board.
    let budget = Budget::unlimited();
    let mut compared = 0;
    for b in chain_boards() {
        for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
            let with = chains_of(&engine(&b, mode, false, &budget), None);
            CLOSURES_OFF.with(|f| f.set(true));
            let without = chains_of(&engine(&b, mode, false, &budget), None);
            CLOSURES_OFF.with(|f| f.set(false));
            assert_eq!(chain_key(&with), chain_key(&without), "{mode:?}");
            compared += with.len();
        }
    }
    assert!(compared > 0);
}

#[test]
fn staged_propagations_reject_only_chains_that_cannot_be_kept() {
    // On every chain board, in the multiple and dynamic modes, for the branches of each
    // double, region and cell chain and several limits: where the closures pass them and
    // the exact ancestors of some branches (the others by their rounds) reject them, no
    // potential common to all the branches' outcomes that removes something has at most
    // `limit` nodes summed over their exact ancestors (what `made` counts), so no chain of
    // them could be kept.
    let budget = Budget::unlimited();
    let mut seen = Seen::new();
    let (mut rejected, mut passed) = (0, 0);
    for b in chain_boards() {
        for mode in [Mode::Multiple, Mode::Dynamic] {
            let engine = engine(&b, mode, false, &budget);
            let mut cl = Closures::new(&b, mode);
            let mut sets: Vec<Vec<Id>> = Vec::new();
            for c in 0..81 {
                let m = b.cands[c];
                if b.values[c] == 0 && m.count_ones() >= 2 {
                    sets.push(bits(m).map(|d| id(c, d, true)).collect());
                    if mode.dynamic() {
                        for d in bits(m) {
                            sets.push(vec![id(c, d, true), id(c, d, false)]);
                        }
                    }
                }
            }
            for h in 0..27 {
                for d in 0..9 {
                    let pos = b.positions(h, d);
                    if pos.count_ones() >= 2 {
                        sets.push(
                            bits(pos)
                                .map(|k| id(HOUSE_CELLS[h][k] as usize, d, true))
                                .collect(),
                        );
                    }
                }
            }
            let exact: Vec<Option<Rc<Outcome>>> = (0..1458)
                .map(|a| {
                    (b.cands[id_cell(a)] >> id_digit(a) & 1 == 1).then(|| Rc::new(engine.assume(a)))
                })
                .collect();
            for limit in [40, 25, 15, 10] {
                for branches in &sets {
                    if !cl.common_within(branches, limit) {
                        continue;
                    }
                    for known in 1..branches.len() {
                        let outs: Vec<Option<Rc<Outcome>>> = branches
                            .iter()
                            .enumerate()
                            .map(|(i, &a)| (i < known).then(|| exact[a as usize].clone().unwrap()))
                            .collect();
                        if cl.exact_within(&b, branches, &outs, limit, &mut seen) {
                            passed += 1;
                            continue;
                        }
                        rejected += 1;
                        let all: Vec<&Outcome> = branches
                            .iter()
                            .map(|&a| &**exact[a as usize].as_ref().unwrap())
                            .collect();
                        for t in common_targets(all.iter().copied()) {
                            if !concludes(&b, t) {
                                continue;
                            }
                            let nodes: usize = all
                                .iter()
                                .map(|o| o.ancestors(t, o.parents(t), &mut seen))
                                .sum();
                            assert!(nodes > limit, "{mode:?} {branches:?} {limit} {t}");
                        }
                    }
                }
            }
        }
    }
    assert!(rejected > 100 && passed > 100, "{rejected} {passed}");
}

/// The propagation written plainly (below level 1, from the assumption): each
/// potential's links collected first, then applied in order, the houses' places tested
/// with `count_ones`. [`Engine::propagate`] must give the same nodes, in the same order,
/// with the same parents and causes, and the same contradiction.
fn reference_propagation(board: &Board, mode: Mode, a: Id) -> Outcome {
    let orig = &board.cands;
    let mut cur = *orig;
    let mut cur_pos: [[u16; 9]; 27] =
        std::array::from_fn(|h| std::array::from_fn(|d| board.positions(h, d)));
    let orig_pos = cur_pos;
    let (y, dynamic) = (!mode.nishio(), mode.dynamic());
    let place = |h: usize, c: usize| HOUSE_CELLS[h].iter().position(|&o| o as usize == c);
    let mut out = Outcome::new();
    out.add(a, &[]);
    let mut pend_on: VecDeque<Id> = out.ons().collect();
    let mut pend_off: VecDeque<Id> = out.offs().collect();
    loop {
        let mut made: Vec<(Id, Vec<Id>, u8)> = Vec::new();
        if let Some(p) = pend_on.pop_front() {
            let (c, d) = (id_cell(p), id_digit(p));
            if y {
                for v in bits(cur[c] & !(1 << d)) {
                    made.push((id(c, v, false), vec![p], CAUSE_NONE));
                }
            }
            for &o in SE_PEERS[c].iter() {
                if cur[o as usize] >> d & 1 == 1 {
                    made.push((id(o as usize, d, false), vec![p], CAUSE_NONE));
                }
            }
            for (q, ps, _) in made {
                if out.contains(q | 1) {
                    let conj = q | 1;
                    out.absurd = Some([
                        (conj, out.parents(conj).to_vec(), out.cause(conj)),
                        (q, ps, CAUSE_NONE),
                    ]);
                    return out;
                }
                if !out.contains(q) {
                    out.add(q, &ps);
                    pend_off.push_back(q);
                }
            }
        } else if let Some(p) = pend_off.pop_front() {
            let (c, d) = (id_cell(p), id_digit(p));
            if y && cur[c].count_ones() == 2 && cur[c] >> d & 1 == 1 {
                let v = (cur[c] & !(1 << d)).trailing_zeros() as usize;
                let mut ps = vec![p];
                ps.extend(bits(orig[c] & !cur[c]).map(|w| id(c, w, false)));
                made.push((id(c, v, true), ps, CAUSE_CELL));
            }
            for h in regions(c) {
                let pos = cur_pos[h][d];
                let at = place(h, c).unwrap();
                if pos.count_ones() == 2 && pos >> at & 1 == 1 {
                    let k = (pos & !(1 << at)).trailing_zeros() as usize;
                    let q = id(HOUSE_CELLS[h][k] as usize, d, true);
                    if !made.iter().any(|m| m.0 == q) {
                        let mut ps = vec![p];
                        ps.extend(
                            bits(orig_pos[h][d] & !pos)
                                .map(|k2| id(HOUSE_CELLS[h][k2] as usize, d, false)),
                        );
                        made.push((q, ps, CAUSE_HOUSE + h as u8));
                    }
                }
            }
            if dynamic && cur[c] >> d & 1 == 1 {
                cur[c] &= !(1 << d);
                for &h in &CELL_HOUSES[c] {
                    cur_pos[h as usize][d] &= !(1 << place(h as usize, c).unwrap());
                }
            }
            for (q, ps, cause) in made {
                let conj = q & !1;
                if out.contains(conj) {
                    out.absurd = Some([
                        (q, ps, cause),
                        (conj, out.parents(conj).to_vec(), CAUSE_NONE),
                    ]);
                    return out;
                }
                if !out.contains(q) {
                    out.add_full(q, &ps, cause, None);
                    pend_on.push_back(q);
                }
            }
        } else {
            return out;
        }
    }
}

#[test]
fn propagation_applies_links_as_the_reference_does() {
    // Every assumption of every chain board, in the three modes below level 1: the same
    // nodes in the same order, parents, causes and contradiction as the reference.
    let budget = Budget::unlimited();
    let mut compared = 0;
    let mut absurd = 0;
    for b in chain_boards() {
        for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
            let engine = engine(&b, mode, false, &budget);
            assert_eq!(engine.orig_pos, b.places());
            for c in 0..81 {
                if b.values[c] != 0 {
                    continue;
                }
                for d in bits(b.cands[c]) {
                    for a in [id(c, d, true), id(c, d, false)] {
                        let got = engine.assume(a);
                        let want = reference_propagation(&b, mode, a);
                        assert_eq!(got.nodes.len(), want.nodes.len(), "{mode:?} {a}");
                        for (g, w) in got.nodes.iter().zip(&want.nodes) {
                            assert_eq!(g.id, w.id, "{mode:?} {a}");
                            assert_eq!(g.cause, w.cause, "{mode:?} {a}");
                            assert_eq!(got.parents(g.id), want.parents(w.id), "{mode:?} {a}");
                        }
                        assert_eq!(got.absurd, want.absurd, "{mode:?} {a}");
                        absurd += got.absurd.is_some() as usize;
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 1000 && absurd > 100, "{compared} {absurd}");
}

#[test]
fn two_bits_and_se_houses_are_what_they_say() {
    for m in 0..=u16::MAX {
        assert_eq!(two_bits(m), m.count_ones() == 2, "{m}");
    }
    for c in 0..81 {
        let hs = regions(c);
        for (i, &(h, at)) in SE_HOUSES[c].iter().enumerate() {
            assert_eq!(h as usize, hs[i], "{c}");
            assert_eq!(HOUSE_CELLS[h as usize][at as usize] as usize, c, "{c}");
        }
    }
    // `se_peer_places` walks SE's peers in their order, those with the digit only.
    let mut boards = chain_boards();
    boards.push(Board::new(&Puzzle::default()));
    for b in boards {
        let pos = b.places();
        for c in 0..81 {
            for d in 0..9 {
                let walked: Vec<u8> = se_peer_places(c, d, &pos)
                    .into_iter()
                    .flat_map(|(h, m)| bits(m).map(move |k| HOUSE_CELLS[h][k]))
                    .collect();
                let want: Vec<u8> = SE_PEERS[c]
                    .iter()
                    .copied()
                    .filter(|&o| b.cands[o as usize] >> d & 1 == 1)
                    .collect();
                assert_eq!(walked, want, "{c} {d}");
            }
        }
    }
}

#[test]
fn cell_bits_are_the_shifts() {
    for c in 0..128 {
        assert_eq!(cell_bit(c), 1u128 << c, "{c}");
    }
}

#[test]
fn meet_is_narrow_on_a_copy() {
    // On every chain board, for pairs of closures (dynamic mode): meeting the first with
    // `useful` and `places` gives what narrowing a copy of them did, and the second
    // narrows the same way.
    let mut compared = 0;
    for b in chain_boards() {
        let mut cl = Closures::new(&b, Mode::Dynamic);
        let assumptions: Vec<Id> = (0..1458)
            .filter(|&a| b.cands[id_cell(a)] >> id_digit(a) & 1 == 1)
            .collect();
        for pair in assumptions.windows(2).step_by(7) {
            cl.get(pair[0], usize::MAX);
            cl.get(pair[1], usize::MAX);
            let (x, y) = (
                cl.kept.closures[pair[0] as usize],
                cl.kept.closures[pair[1] as usize],
            );
            let (mut on1, mut off1) = (cl.useful, cl.places);
            let any1 = x.narrow(&mut on1, &mut off1);
            let (mut on2, mut off2) = ([0u128; 9], [0u128; 9]);
            let any2 = x.meet(&cl.useful, &cl.places, &mut on2, &mut off2);
            assert_eq!((any1, on1, off1), (any2, on2, off2), "{pair:?}");
            assert_eq!(y.narrow(&mut on1, &mut off1), y.narrow(&mut on2, &mut off2));
            assert_eq!((on1, off1), (on2, off2), "{pair:?}");
            for d in 0..9 {
                assert_eq!(on1[d], cl.places[d] & x.on[d] & y.on[d] & cl.useful[d]);
                assert_eq!(off1[d], cl.places[d] & x.off[d] & y.off[d]);
            }
            compared += 1;
        }
    }
    assert!(compared > 100, "{compared}");
}

#[test]
fn reused_search_tables_find_the_same_chains() {
    // The outcome table and walk marks a search leaves to the next (per thread) are
    // emptied: searching the same board again, after a search of another mode and board,
    // keeps the same chains, and the tables left hold no outcome.
    let budget = Budget::unlimited();
    let boards = chain_boards();
    let mut compared = 0;
    for (i, b) in boards.iter().enumerate() {
        for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
            let first = all_chains(b, mode, false, None, &budget);
            let other = &boards[(i + 1) % boards.len()];
            all_chains(other, Mode::Dynamic, false, None, &budget);
            let again = all_chains(b, mode, false, None, &budget);
            assert_eq!(chain_key(&first), chain_key(&again), "{mode:?}");
            SEARCH_SCRATCH.with(|s| {
                let s = s.borrow();
                assert!(!s.is_empty());
                for (ons, _) in s.iter() {
                    assert!(ons.0.iter().all(Option::is_none) && ons.1.is_empty());
                }
            });
            compared += first.len();
        }
    }
    assert!(compared > 0);
}

#[test]
fn base_ratings_follow_se_levels() {
    assert_eq!(Mode::Nested(2).base(), 95);
    assert_eq!(Mode::Nested(3).base(), 100);
    assert_eq!(Mode::Nested(4).base(), 105);
    assert_eq!(Mode::Nested(5).base(), 110);
    assert_eq!(
        name(Mode::Nested(3), "contradiction"),
        "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)"
    );
}
