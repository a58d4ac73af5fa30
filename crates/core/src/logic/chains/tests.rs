//! The static chains against SE's ratings and the node-by-node search against the masks.

use super::*;
use crate::grid::Puzzle;

#[test]
fn half_depth_chain_search_matches_the_plain_search() {
    // Diabolical puzzles (SE 7.1 to 8.3), solved by the basic rules up to their first chain
    // step: every candidate, both truth values, several depth limits.
    let puzzles = [
        "1..5.67..6..27.8...2.....9.....5..36..28....1..512.98..7..1....5........813......",
        "176....8.......4...481..36...3.....6..5..7.........51.68.39...4....7...8.5.6..9..",
        "..91.....4..7..6..2.6...53..9...1.7..7.......3...6.9....2....56......2.4...4...1.",
    ];
    let mut checked = 0;
    for text in puzzles {
        let p: Puzzle = text.parse().expect("puzzle parses");
        let mut board = Board::new(&p);
        while let Some(step) = crate::logic::next_step(&board) {
            if step.rating >= Rating(62) {
                break;
            }
            board.apply(&step);
        }
        let links = Links::new(&board);
        for c in 0..81 {
            for d in crate::logic::bits(board.cands[c]) {
                let pot = (c * 9 + d) as u16;
                for on in [true, false] {
                    for max in [3, 6, 9, 14, u16::MAX] {
                        assert_eq!(
                            chain_depth_xy(&links, pot, on, max),
                            chain_depth_plain(&links, pot, on, max),
                            "{text}: r{}c{}={} on={on} max={max}",
                            c / 9 + 1,
                            c % 9 + 1,
                            d + 1
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000);
}

#[test]
fn links_from_kept_tables_match_fresh_ones() {
    // Along extreme-band paths (each board's links made from the tables the last board's
    // gave back, several alive at once), the tables are those of fresh, zeroed ones.
    let data = include_str!("../../../tests/data/se_extreme.tsv");
    let (mut boards, mut kept) = (0, Vec::new());
    for line in data.lines().filter(|l| !l.starts_with('#')).skip(1).take(3) {
        let p: Puzzle = line.split('\t').next().unwrap().parse().unwrap();
        let mut board = Board::new(&p);
        while let Some(step) = crate::logic::next_step(&board) {
            let links = Links::new(&board);
            let fresh = {
                let pool = TABLES.with_borrow_mut(std::mem::take);
                let fresh = Links::new(&board);
                let tables = (
                    fresh.conj.clone(),
                    fresh.conj_len.clone(),
                    fresh.mate.clone(),
                    fresh.conj_mask.clone(),
                );
                drop(fresh);
                TABLES.with_borrow_mut(|p| *p = pool);
                tables
            };
            assert_eq!(links.conj_len, fresh.1);
            assert_eq!(links.mate, fresh.2);
            assert_eq!(links.conj_mask, fresh.3);
            for pot in 0..729 {
                let n = links.conj_len[pot] as usize;
                assert_eq!(links.conj[pot][..n], fresh.0[pot][..n]);
            }
            boards += 1;
            // Keep some alive, so that several tables are in use at once.
            if boards % 3 == 0 {
                kept.push(links);
            }
            if kept.len() > 4 {
                kept.clear();
            }
            board.apply(&step);
        }
    }
    assert!(boards > 50, "{boards} boards");
}

#[test]
fn no_path_to_an_opposite_means_no_useful_cycle() {
    // The chain steps of extreme-band puzzles: where the XY chains' one-pass test proves
    // that no candidate reaches its opposite, the cycle searches, unbounded, find nothing.
    let data = include_str!("../../../tests/data/se_extreme.tsv");
    let (mut proved, mut boards) = (0, 0);
    for line in data.lines().filter(|l| !l.starts_with('#')).skip(1).take(5) {
        let p: Puzzle = line.split('\t').next().unwrap().parse().unwrap();
        let mut board = Board::new(&p);
        while let Some(step) = crate::logic::next_step(&board) {
            if step.rating >= Rating(62) {
                boards += 1;
                let links = Links::new(&board);
                let mut sources = Vec::new();
                for c in 0..81 {
                    if board.cands[c].count_ones() >= 2 {
                        for d in crate::logic::bits(board.cands[c]) {
                            sources.push(((c * 9 + d) as u16, true));
                        }
                    }
                }
                let none = SCRATCH.with_borrow_mut(|t| {
                    t.build(&links);
                    sources_reaching_their_opposite(t, &sources).is_empty()
                });
                if none && board.cands.iter().all(|m| m.count_ones() != 1) {
                    proved += 1;
                    let (mut all, mut best) = (Vec::new(), (u16::MAX, usize::MAX));
                    let mut out = Sink {
                        all: &mut all,
                        best: &mut best,
                        want: &|_| true,
                    };
                    let mut search = Search::new(&board, &links, false, false);
                    for setting in [(false, true), (true, false), (true, true)] {
                        loop_hints(&mut search, setting, Part::Cycles, &mut out);
                    }
                    assert!(all.is_empty(), "{line}");
                }
            }
            board.apply(&step);
        }
    }
    assert!(proved > 10 && proved < boards, "{proved} of {boards}");
}

#[test]
fn a_source_left_out_of_the_cycle_searches_has_no_useful_cycle() {
    // Every candidate that `cycle_sources` leaves out of a link setting: its cycle search,
    // unbounded, in that setting, finds no loop that removes anything.
    let (mut left_out, mut kept, mut useful) = ([0; 3], [0; 3], [0; 3]);
    let setting = |y: bool, x: bool| cycle_bit(y, x).trailing_zeros() as usize;
    for board in crate::logic::extreme_chain_boards(4) {
        let links = Links::new(&board);
        let mut sources = Vec::new();
        for c in 0..81 {
            for d in crate::logic::bits(board.cands[c]) {
                sources.push(((c * 9 + d) as u16, true));
            }
        }
        let mut t = Layers::default();
        t.build(&links);
        sources_reaching_their_opposite(&mut t, &sources);
        let ok = cycle_sources(&t, &links).ok;
        // Nor has a candidate without a path of XY links to its opposite an X chain.
        let both_ways: Vec<(u16, bool)> = sources
            .iter()
            .flat_map(|&(pot, _)| [(pot, true), (pot, false)])
            .collect();
        let reaching = analyse(&links, &both_ways, &mut Layers::default());
        for (i, &(pot, on)) in both_ways.iter().enumerate() {
            if !reaching.contains(&i) {
                assert_eq!(chain_depth_x(&links, pot, on, u16::MAX), None);
            }
        }
        let mut search = Search::new(&board, &links, false, false);
        for &(pot, _) in &sources {
            for (y, x) in [(false, true), (true, false), (true, true)] {
                if !x && board.cands[pot as usize / 9].count_ones() > 2 {
                    continue;
                }
                search.y = y;
                search.x = x;
                search.max_depth = u16::MAX;
                search.cycles(pot, &links.live_off(y, x));
                let ends = std::mem::take(&mut search.ends);
                let any = ends.iter().any(|&e| search.cycle_removes_something(e));
                if ok[pot as usize] & cycle_bit(y, x) != 0 {
                    kept[setting(y, x)] += 1;
                    useful[setting(y, x)] += any as usize;
                } else {
                    left_out[setting(y, x)] += 1;
                    assert!(!any, "{pot} {y} {x}");
                }
                // The settings' bits: X only or Y only only where XY is kept (their links
                // are among the XY links).
                if ok[pot as usize] & cycle_bit(true, true) == 0 {
                    assert_eq!(ok[pot as usize], 0);
                }
            }
        }
    }
    // Each setting leaves out searches; with X and Y links and with Y-links only some kept
    // find a useful cycle (on these boards no X-only one does).
    assert!(
        left_out.iter().all(|&n| n > 100) && useful[0] > 0 && useful[2] > 0,
        "{left_out:?} {kept:?} {useful:?}"
    );
}

#[test]
fn static_chains_are_the_same_without_the_shortcuts() {
    // Along the paths of extreme-band puzzles, every chain step: the step with the source
    // filter of the XY chains and the cycle filter, and without them.
    let boards = crate::logic::extreme_chain_boards(6);
    let mut found = 0;
    for board in &boards {
        let with = static_chains(board);
        SHORTCUTS.set(false);
        let without = static_chains(board);
        SHORTCUTS.set(true);
        assert_eq!(with, without);
        found += with.is_some() as usize;
    }
    assert!(
        found > 5 && found < boards.len(),
        "{found} of {}",
        boards.len()
    );
}

/// [`cycle_sources`] by its definition, on `t.comp` (tests only): per component, the cells
/// that see its on and off potentials of each digit, with all links, with the candidates
/// with a conjugate, with those of cells with two.
fn cycle_sources_plain(t: &Layers, links: &Links) -> Vec<u8> {
    let p = t.pots.len();
    let pair = |comp: u32, keep: &dyn Fn(usize, usize) -> bool| -> u16 {
        let mut sees = [[0u128; 9]; 2];
        for v in 0..2 * p {
            let pot = t.pots[v % p] as usize;
            let (c, d) = (pot / 9, pot % 9);
            if t.comp[v] == comp && keep(c, d) {
                sees[(v >= p) as usize][d] |= PEER_MASK[c];
            }
        }
        (0..9).fold(0, |m, d| {
            m | ((sees[0][d] & sees[1][d] & links.cand[d] != 0) as u16) << d
        })
    };
    let mut out = vec![0u8; 729];
    for k in 0..p {
        let comp = t.comp[p + k];
        if comp == u32::MAX || t.comp.iter().filter(|&&c| c == comp).count() < 2 {
            continue;
        }
        let pot = t.pots[k] as usize;
        if pair(comp, &|_, _| true) == 0 {
            continue;
        }
        let mut bits = cycle_bit(true, true);
        if pair(comp, &|c, d| links.conj_any[d] >> c & 1 == 1) >> (pot % 9) & 1 == 1 {
            bits |= cycle_bit(false, true);
        }
        if pair(comp, &|c, d| links.bivalue_cand[d] >> c & 1 == 1) != 0 {
            bits |= cycle_bit(true, false);
        }
        out[pot] = bits;
    }
    out
}

#[test]
fn cycle_sources_from_the_member_lists_match_the_definition() {
    // The components' member lists made during the pass hold each live potential once,
    // in its component (`t.comp`), and the cycle filter read from them is the plain one.
    let mut marked = 0;
    for board in crate::logic::extreme_chain_boards(3) {
        let links = Links::new(&board);
        let sources = xy_sources(&board, &links);
        let mut t = Layers::default();
        analyse(&links, &sources, &mut t);
        let (p, s) = (t.pots.len(), &t.scc);
        let mut count = vec![0; 2 * p];
        let mut from = 0;
        for (id, &end) in s.ends[..s.comps].iter().enumerate() {
            for &v in &s.members[from..end as usize] {
                assert_eq!(t.comp[v as usize], id as u32);
                count[v as usize] += 1;
            }
            from = end as usize;
        }
        for v in 0..2 * p {
            assert_eq!(count[v], (t.comp[v] != u32::MAX) as usize);
        }
        let ok = cycle_sources(&t, &links).ok;
        assert_eq!(ok, cycle_sources_plain(&t, &links));
        marked += ok.iter().filter(|&&b| b != 0).count();
    }
    assert!(marked > 0);
}

#[test]
fn cycle_searches_inside_the_component_find_the_same_loops() {
    // Every source kept by the cycle filter, in every link setting it is kept for: the
    // loops found (each as its potentials from the end back to the source, in the order
    // found) with the off potentials outside the source's component left out, and without.
    let (mut searched, mut loops) = (0, 0);
    // The nodes made, with and without the component.
    let (mut inside, mut everywhere) = (0, 0);
    for board in crate::logic::extreme_chain_boards(4) {
        let links = Links::new(&board);
        let sources = xy_sources(&board, &links);
        let mut t = Layers::default();
        if analyse(&links, &sources, &mut t).is_empty() {
            continue;
        }
        let filter = cycle_sources(&t, &links);
        let mut search = Search::new(&board, &links, false, false);
        let found = |search: &mut Search, pot: u16, keep: &[u128; 9]| {
            search.cycles(pot, keep);
            let ends = std::mem::take(&mut search.ends);
            ends.iter()
                .map(|&e| {
                    let path = search.path(e);
                    path.iter().map(|n| ident(n.pot, n.on)).collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        };
        for pot in 0..729u16 {
            for (y, x) in [(false, true), (true, false), (true, true)] {
                if filter.ok[pot as usize] & cycle_bit(y, x) == 0 {
                    continue;
                }
                search.y = y;
                search.x = x;
                search.max_depth = u16::MAX;
                let live = links.live_off(y, x);
                let comp = &filter.off[filter.comp[pot as usize] as usize];
                let keep: [u128; 9] = std::array::from_fn(|d| live[d] & comp[d]);
                let all = found(&mut search, pot, &live);
                everywhere += search.nodes.len();
                assert_eq!(found(&mut search, pot, &keep), all, "{pot} {y} {x}");
                inside += search.nodes.len();
                searched += 1;
                loops += all.len();
            }
        }
    }
    assert!(
        searched > 100 && loops > 0 && inside < everywhere,
        "{searched} {loops} {inside} {everywhere}"
    );
}

#[test]
fn components_are_made_without_sources_too() {
    // `cycle_sources` reads the components of the last pass: a pass without sources makes
    // them all the same (the same as with sources), and puts only the dead candidates'
    // potentials in none.
    let mut dead_seen = 0;
    for board in crate::logic::extreme_chain_boards(2) {
        let links = Links::new(&board);
        let sources = xy_sources(&board, &links);
        let mut t = Layers::default();
        t.build(&links);
        sources_reaching_their_opposite(&mut t, &sources);
        let with = t.comp.clone();
        // A stale, longer table from another board must not survive either.
        t.comp = vec![7; 2000];
        sources_reaching_their_opposite(&mut t, &[]);
        assert_eq!(t.comp, with);
        let p = t.pots.len();
        assert_eq!(t.comp.len(), 2 * p);
        for k in 0..p {
            let dead = t.start[k] == t.start[k + 1];
            assert_eq!(dead, k >= t.live);
            assert_eq!(t.comp[k] == u32::MAX, dead);
            assert_eq!(t.comp[p + k] == u32::MAX, dead);
            dead_seen += dead as usize;
        }
    }
    assert!(dead_seen > 0);
}

#[test]
fn side_by_side_chain_search_matches_source_by_source() {
    // The board before every step rated 6.2 or more (up to 60 boards), with every candidate
    // as a source both ways: the shortest chain and the sources that reach it.
    let puzzles = [
        "1..5.67..6..27.8...2.....9.....5..36..28....1..512.98..7..1....5........813......",
        "..91.....4..7..6..2.6...53..9...1.7..7.......3...6.9....2....56......2.4...4...1.",
        "....1.....2..7...6..48....7..1...3.........8.6..7.8..2...6.3....8.4.2.3..4..5..2.",
        "7.......6.5.8.72...29...1..17.26........51....823.....2...........5.2.38..3...6..",
        "..5....4..4.1.2...6..7....3......5...3..8.......615...7..4...1...8...47..143....6",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    ];
    let (mut boards, mut with_chain) = (0, 0);
    for text in puzzles {
        let p: Puzzle = text.parse().expect("puzzle parses");
        let mut board = Board::new(&p);
        while let Some(step) = crate::logic::next_step(&board) {
            if step.rating >= Rating(62) && boards < 60 {
                boards += 1;
                let links = Links::new(&board);
                let mut sources = Vec::new();
                for c in 0..81 {
                    if board.values[c] == 0 && board.cands[c].count_ones() >= 2 {
                        for d in crate::logic::bits(board.cands[c]) {
                            sources.push(((c * 9 + d) as u16, true));
                            sources.push(((c * 9 + d) as u16, false));
                        }
                    }
                }
                let mut layers = Layers::default();
                layers.build(&links);
                let reaching: Vec<usize> = (0..sources.len())
                    .filter(|&i| {
                        let (pot, on) = sources[i];
                        chain_depth_xy(&links, pot, on, u16::MAX).is_some()
                    })
                    .collect();
                let any = !reaching.is_empty();
                assert_eq!(
                    sources_reaching_their_opposite(&mut layers, &sources),
                    reaching
                );
                with_chain += any as usize;
                for max in [3, 6, 9, 14, u16::MAX] {
                    let depths: Vec<Option<u16>> = sources
                        .iter()
                        .map(|&(pot, on)| chain_depth_xy(&links, pot, on, max))
                        .collect();
                    let expected = depths.iter().flatten().min().map(|&m| {
                        let which = (0..sources.len()).filter(|&i| depths[i] == Some(m));
                        (m, which.collect::<Vec<_>>())
                    });
                    assert_eq!(
                        shortest_xy_chains(&links, &sources, max),
                        expected,
                        "{text}"
                    );
                }
            }
            board.apply(&step);
        }
    }
    assert!(boards > 10, "{boards} boards");
    // Both answers of the test for a chain of any length occur.
    assert!(
        0 < with_chain && with_chain < boards,
        "{with_chain} of {boards}"
    );
}
