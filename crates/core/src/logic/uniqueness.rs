//! Uniqueness techniques. They assume the puzzle has one solution, as every proper puzzle does.
//!
//! **Unique rectangles and loops** (4.5 and up). A *deadly pattern* is a loop of cells, each
//! house on it holding exactly two of its cells, all with the same two candidates {a, b}: its
//! a's and b's could be swapped, giving two solutions. So at least one cell of the loop must hold
//! something else ("rescue" cells):
//! * type 1: one rescue cell; it loses a and b;
//! * type 2: the rescue cells all have one extra digit x; x is in one of them, so every cell
//!   that sees them all loses x;
//! * type 3: two rescue cells whose extra digits form a naked (or hidden) set with other cells
//!   of a shared house; the rest of the house loses them (+0.1 per extra set size);
//! * type 4: two rescue cells in one house where a is nowhere else; one of them is a, so
//!   neither can be b.
//!
//! A rectangle (4 cells) rates 4.5; loops of 6 add 0.1, of 8 add 0.2, of 10 or more 0.5.
//!
//! **BUG**, bivalue universal grave (5.6 and up): if removing a few candidates ("BUG values")
//! would leave every empty cell with two candidates and every digit with two places in every
//! house, the puzzle would have several solutions; so one BUG value is true. Type 1 (one BUG
//! cell: it takes its BUG value, 5.6), type 2 (one BUG digit: cells seeing all BUG cells lose it,
//! 5.7), type 3 (a naked set with the BUG values, 5.7 and up), type 4 (two BUG cells in a house
//! sharing another digit, 5.7).
//!
//! Search orders and tie-breaks follow SE's `UniqueLoops` and `BivalueUniversalGrave`.

use super::subsets::combinations;
use super::{
    bits, cell, digit, house, Board, Rating, Step, CELL_HOUSES, HOUSE_CELLS, HOUSE_MASK, PEERS,
    PEER_MASK,
};
use crate::bitset::{Cell, Digit};

/// Upper bound on the loop search's recursive calls per step (SE has none; this keeps the search
/// bounded on very open grids, where loops of two-candidate cells are rare anyway).
const LOOP_BUDGET: usize = 200_000;

thread_local! {
    /// The searches of the last [`unique_loops_where`] on this thread, per start cell.
    static LOOP_MEMO: std::cell::RefCell<LoopMemo> = std::cell::RefCell::new(LoopMemo::default());
}

/// The board of the last unique-loop search, and what the search from each start cell did on
/// it. At the chain steps of a hard puzzle the search runs on boards that differ by a few
/// cells, and a start whose cells did not change finds no loop again: it is skipped, its calls
/// taken from the budget as they were, so the searches after it have the same budget and find
/// the same loops (exact on any board: a board of another puzzle differs everywhere).
struct LoopMemo {
    cands: [u16; 81],
    valid: bool,
    starts: [LoopStart; 81],
}

impl Default for LoopMemo {
    fn default() -> LoopMemo {
        LoopMemo {
            cands: [0; 81],
            valid: false,
            starts: [LoopStart::default(); 81],
        }
    }
}

impl LoopMemo {
    /// The cells whose candidates differ from the memo's board (every cell if there is none).
    fn dirty(&self, board: &Board) -> u128 {
        if !self.valid {
            return !0;
        }
        (0..81).fold(0u128, |m, c| {
            m | ((self.cands[c] != board.cands[c]) as u128) << c
        })
    }
}

/// The search from one start cell on the memo's board: the cells it ran over (`has_both`), its
/// recursive calls, whether it ran to its end and found no hint (no loop, or only loops whose
/// hints remove nothing), and the cells whose candidates that depends on (`read`: `has_both`,
/// and the houses of the loops' rescue cells, which the hints read).
#[derive(Clone, Copy, Default)]
struct LoopStart {
    has_both: u128,
    read: u128,
    calls: usize,
    empty: bool,
}

struct Ul {
    rating: u16,
    kind: u8,
    technique: &'static str,
    text: String,
    cells: Vec<Cell>,
    placements: Vec<(Cell, Digit)>,
    elims: Vec<(Cell, Digit)>,
}

/// SE's house order for a cell: box, row, column.
fn houses_of(c: usize) -> [usize; 3] {
    [
        CELL_HOUSES[c][2] as usize,
        CELL_HOUSES[c][0] as usize,
        CELL_HOUSES[c][1] as usize,
    ]
}

/// The houses of each cell, as a mask of house ordinals.
static CELL_HOUSE_BITS: [u32; 81] = {
    let mut t = [0u32; 81];
    let mut c = 0;
    while c < 81 {
        let h = CELL_HOUSES[c];
        t[c] = 1 << h[0] | 1 << h[1] | 1 << h[2];
        c += 1;
    }
    t
};

/// SE's loop search (depth first, from `path`'s first cell), over the cells in `has_both` (those
/// holding both digits of the loop); `visited` is the mask of the cells on `path`.
///
/// `parity[k]` holds the houses of the path's cells at even (`k = 0`) and odd (`k = 1`)
/// positions. A valid loop has each of its houses once at an even and once at an odd position
/// ([`is_valid_loop`]), so a cell whose houses meet those of its own parity can never be part of
/// one: the search does not enter it. Nor does it go on from a path that leaves a house with one
/// cell no cell left can pair. (SE enters and rejects such loops at the end; the loops found
/// are the same, in the same order.)
#[allow(clippy::too_many_arguments)]
fn check_for_loops(
    board: &Board,
    c: usize,
    both: u16,
    has_both: u128,
    path: &mut Vec<usize>,
    visited: u128,
    parity: [u32; 2],
    allowed_ex: i32,
    ex_values: u16,
    last_kind: Option<usize>,
    results: &mut Vec<Vec<usize>>,
    budget: &mut usize,
) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let mut parity = parity;
    parity[path.len() % 2] |= CELL_HOUSE_BITS[c];
    let visited = visited | 1 << c;
    // Every house holding one cell of the path needs a second, of the other parity, before the
    // loop can close: if no cell left can be that one, no loop passes here.
    let mut open = parity[0] ^ parity[1];
    while open != 0 {
        let h = open.trailing_zeros() as usize;
        open &= open - 1;
        let other = parity[(parity[0] >> h & 1) as usize];
        let mut left = HOUSE_MASK[h] & has_both & !visited;
        loop {
            if left == 0 {
                return;
            }
            let n = left.trailing_zeros() as usize;
            left &= left - 1;
            if CELL_HOUSE_BITS[n] & other == 0 {
                break;
            }
        }
    }
    path.push(c);
    // The parity of the next cell's position.
    let next_parity = parity[path.len() % 2];
    let mut ex = ex_values;
    for (kind, h) in houses_of(c).into_iter().enumerate() {
        if Some(kind) == last_kind {
            continue;
        }
        // House cells in house order (increasing index) that hold both digits: the first cell
        // of the path (which may close the loop) and those not on it.
        let mut cells = HOUSE_MASK[h] & has_both & (!visited | 1 << path[0]);
        while cells != 0 {
            let n = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            if path[0] == n {
                // Only valid loops are kept (tested here, before the copy: most are not).
                if path.len() >= 4 && is_valid_loop(path) {
                    results.push(path.clone());
                }
            } else {
                let m = board.cands[n];
                // SE accumulates the extra digits over siblings too; kept for agreement.
                ex |= m & !both;
                // `n` holds both digits: it has two candidates if it has no other (bit tests,
                // not population counts, which the build's target lacks).
                let wide = m & !both != 0;
                if (!wide || ex & ex.wrapping_sub(1) == 0 && ex != 0 || allowed_ex > 0)
                    && next_parity & CELL_HOUSE_BITS[n] == 0
                {
                    let next_allowed = allowed_ex - wide as i32;
                    check_for_loops(
                        board,
                        n,
                        both,
                        has_both,
                        path,
                        visited,
                        parity,
                        next_allowed,
                        ex,
                        Some(kind),
                        results,
                        budget,
                    );
                }
            }
        }
    }
    path.pop();
}

fn is_valid_loop(path: &[usize]) -> bool {
    let (mut odd, mut even) = (0u32, 0u32);
    for (i, &c) in path.iter().enumerate() {
        for h in houses_of(c) {
            let set = if i % 2 == 1 { &mut odd } else { &mut even };
            if *set >> h & 1 == 1 {
                return false;
            }
            *set |= 1 << h;
        }
    }
    odd == even
}

fn base_rating(len: usize) -> u16 {
    let mut r = 45;
    if len >= 10 {
        r += 3;
    }
    if len >= 8 {
        r += 2;
    } else if len >= 6 {
        r += 1;
    }
    r
}

fn name(len: usize, kind: u8) -> &'static str {
    match (len, kind) {
        (4, 1) => "Unique Rectangle type 1",
        (4, 2) => "Unique Rectangle type 2",
        (4, 3) => "Unique Rectangle type 3",
        (4, _) => "Unique Rectangle type 4",
        (6, 1) => "Unique Loop type 1",
        (6, 2) => "Unique Loop type 2",
        (6, 3) => "Unique Loop type 3",
        (6, _) => "Unique Loop type 4",
        (_, 1) => "Unique Loop (long) type 1",
        (_, 2) => "Unique Loop (long) type 2",
        (_, 3) => "Unique Loop (long) type 3",
        _ => "Unique Loop (long) type 4",
    }
}

/// Shared houses of two cells, in SE's order.
fn common_houses(a: usize, b: usize) -> impl Iterator<Item = usize> {
    let hb = houses_of(b);
    houses_of(a).into_iter().filter(move |h| hb.contains(h))
}

fn index_in(h: usize, c: usize) -> usize {
    HOUSE_CELLS[h]
        .iter()
        .position(|&x| x as usize == c)
        .expect("cell in house")
}

/// The easiest unique rectangle or loop: lowest rating, then lowest type.
pub fn unique_loops(board: &Board) -> Option<Step> {
    unique_loops_where(board, &|_| true)
}

/// [`unique_loops`] among the steps whose technique name `want` accepts (`"Unique Rectangle
/// type 2"`, `"Unique Loop (long) type 1"`): the easiest of those.
pub fn unique_loops_where(board: &Board, want: &dyn Fn(&str) -> bool) -> Option<Step> {
    let mut found: Vec<Ul> = Vec::new();
    let mut budget = LOOP_BUDGET;
    let mut cand = [0u128; 9];
    // The cells with two candidates, the starts of the searches, in order.
    let mut bivalue = Vec::with_capacity(81);
    for c in 0..81 {
        let m = board.cands[c];
        for d in bits(m) {
            cand[d] |= 1 << c;
        }
        let rest = m & m.wrapping_sub(1);
        if rest != 0 && rest & (rest - 1) == 0 {
            // Two candidates (tested without a population count, which the build's target
            // lacks).
            bivalue.push(c);
        }
    }
    let mut results = Vec::new();
    let mut path = Vec::with_capacity(81);
    // The memo is used in place (the search calls nothing that reads it).
    LOOP_MEMO.with_borrow_mut(|memo| {
        let dirty = memo.dirty(board);
        // Per pair of digits (`a * 9 + b`), the plain {a, b} cells among the starts so far.
        let mut plain = [0u128; 81];
        for &c in &bivalue {
            let m = board.cands[c];
            results.clear();
            let (a, b) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
            // Plain {a, b} cells before the start are left out: a loop through one was already
            // found from that cell, and SE keeps only the first of equal loops.
            let plain_before = plain[a * 9 + b];
            plain[a * 9 + b] |= 1 << c;
            let has_both = cand[a] & cand[b] & !plain_before;
            // The search from `c` reads only the candidates of the cells in `has_both` (`c`
            // among them): with the same cells, unchanged, it finds the same loops as on the
            // memo's board, in the same number of calls, if the budget left covers them. The
            // hints of a loop read only its cells and the houses of its rescue cells (the cells
            // with more than two candidates): if those are unchanged too and the loops gave no
            // hint then, they give none now.
            let e = &mut memo.starts[c];
            if e.empty && e.has_both == has_both && e.read & dirty == 0 && budget >= e.calls {
                budget -= e.calls;
                continue;
            }
            let before = budget;
            check_for_loops(
                board,
                c,
                m,
                has_both,
                &mut path,
                0,
                [0, 0],
                2,
                0,
                None,
                &mut results,
                &mut budget,
            );
            let hints = found.len();
            let mut read = has_both;
            for lp in &results {
                loop_hints(board, lp, m, &mut found);
                for &r in lp {
                    if board.cands[r] & !m != 0 {
                        read |= PEER_MASK[r];
                    }
                }
            }
            // A search cut short by the budget is not remembered (it would not be the same with
            // more budget left).
            *e = LoopStart {
                has_both,
                read,
                calls: before - budget,
                empty: found.len() == hints && budget > 0,
            };
        }
        // What is remembered is the search on this board: a cell that is no start now loses
        // its entry from an older board.
        let starts = bivalue.iter().fold(0u128, |m, &c| m | 1 << c);
        for (c, e) in memo.starts.iter_mut().enumerate() {
            if starts >> c & 1 == 0 {
                e.empty = false;
            }
        }
        memo.cands = board.cands;
        memo.valid = true;
    });
    let best = found
        .into_iter()
        .enumerate()
        .filter(|(_, u)| want(u.technique))
        .min_by_key(|(i, u)| (u.rating, u.kind, *i))?
        .1;
    Some(Step {
        technique: best.technique,
        rating: Rating(best.rating),
        placements: best.placements,
        shown_eliminations: vec![],
        figure: Default::default(),
        eliminations: best.elims,
        cells: best.cells,
        houses: vec![],
        text: best.text,
    })
}

fn loop_hints(board: &Board, lp: &[usize], both: u16, out: &mut Vec<Ul>) {
    let extra: Vec<usize> = lp
        .iter()
        .copied()
        .filter(|&c| board.cands[c] & !both != 0)
        .collect();
    let len = lp.len();
    let base = base_rating(len);
    let cells: Vec<Cell> = board.show(|| lp.iter().map(|&c| cell(c)).collect());
    let (v1, v2) = {
        let mut it = bits(both);
        (it.next().unwrap_or(0), it.next().unwrap_or(0))
    };
    let describe = |what: String| {
        format!(
            "{}: cells {} would form a deadly pattern on {} and {} (two solutions); {}",
            name(len, 1).trim_end_matches(" type 1"),
            super::cell_list(&cells),
            v1 + 1,
            v2 + 1,
            what
        )
    };
    let push = |out: &mut Vec<Ul>,
                kind: u8,
                rating: u16,
                elims: Vec<(Cell, Digit)>,
                what: &dyn Fn() -> String| {
        if elims.is_empty() {
            return;
        }
        out.push(Ul {
            rating,
            kind,
            technique: name(len, kind),
            text: board.say(|| describe(format!("{}; so {}", what(), super::elim_list(&elims)))),
            cells: cells.clone(),
            placements: vec![],
            elims,
        });
    };
    match extra.len() {
        1 => {
            let r = extra[0];
            let elims = bits(board.cands[r] & both)
                .map(|d| (cell(r), digit(d)))
                .collect();
            push(out, 1, base, elims, &|| {
                format!("so {} cannot be {} or {}", cell(r), v1 + 1, v2 + 1)
            });
        }
        n if n > 2 => type2(board, &extra, both, out, base, &push),
        2 => {
            let (r1, r2) = (extra[0], extra[1]);
            let rest = (board.cands[r1] | board.cands[r2]) & !both;
            if rest.count_ones() == 1 {
                type2(board, &extra, both, out, base, &push);
            } else if rest.count_ones() >= 2 {
                type3(board, r1, r2, both, rest, out, base, &push);
            }
            type4(board, r1, r2, v1, v2, out, base, &push);
        }
        _ => {}
    }
}

/// Records a hint of a loop: its type, rating, eliminations and (made only if the board is
/// explained) what it says.
type Push<'a> = dyn Fn(&mut Vec<Ul>, u8, u16, Vec<(Cell, Digit)>, &dyn Fn() -> String) + 'a;

fn type2(board: &Board, extra: &[usize], both: u16, out: &mut Vec<Ul>, base: u16, push: &Push) {
    let value = (board.cands[extra[0]] & !both).trailing_zeros() as usize;
    if value >= 9 {
        return;
    }
    // The cells holding the value that see every rescue cell (none of which is its own peer).
    let mut seen_by_all = extra.iter().fold(!0u128, |m, &e| m & PEER_MASK[e]);
    seen_by_all &= (0..81).fold(0u128, |m, o| {
        m | u128::from(board.cands[o] >> value & 1) << o
    });
    let elims: Vec<(Cell, Digit)> = (0..81)
        .filter(|&o| seen_by_all >> o & 1 == 1)
        .map(|o| (cell(o), digit(value)))
        .collect();
    push(out, 2, base, elims, &|| {
        format!(
            "one of {} is {}",
            super::cell_list(&extra.iter().map(|&c| cell(c)).collect::<Vec<_>>()),
            value + 1
        )
    });
}

#[allow(clippy::too_many_arguments)]
fn type3(
    board: &Board,
    c1: usize,
    c2: usize,
    both: u16,
    extra: u16,
    out: &mut Vec<Ul>,
    base: u16,
    push: &Push,
) {
    // The places of every digit in each shared house, found once (at the first hidden set
    // looked for there) for all the digit sets and sizes.
    let mut places: [Option<[u16; 9]>; 3] = [None; 3];
    // The digits that can join `both` in a hidden set.
    let (mut rem, mut n_rem) = ([0usize; 9], 0);
    for d in bits(0x1FF & !both & !extra) {
        rem[n_rem] = d;
        n_rem += 1;
    }
    let rem = &rem[..n_rem];
    for degree in extra.count_ones() as usize..=7 {
        for (kind, h) in houses_of(c1).into_iter().enumerate() {
            if !houses_of(c2).contains(&h) {
                continue;
            }
            let empty = board.empty_count(h) as usize;
            let (i1, i2) = (index_in(h, c1), index_in(h, c2));
            if degree * 2 <= empty {
                // The sets of `degree` cells of h holding c1 and not c2, in the order of
                // `combinations(9, degree)`: the other empty cells, `degree - 1` at a time
                // (filled cells and c2 can be no part of one). Nor can a cell with more than
                // `degree` candidates: leaving those out leaves the other sets in their order.
                let mut pos = [0usize; 9];
                let mut n = 0;
                for (k, &o) in HOUSE_CELLS[h].iter().enumerate() {
                    let m = board.cands[o as usize];
                    if k != i1 && k != i2 && m != 0 && m.count_ones() as usize <= degree {
                        pos[n] = k;
                        n += 1;
                    }
                }
                combinations(n, degree - 1, |pick| {
                    let mut idx = 1u16 << i1;
                    for j in bits(pick) {
                        idx |= 1 << pos[j];
                    }
                    let mut naked = extra & board.cands[c1] & board.cands[c2];
                    let mut union = 0u16;
                    // The other cells of the set (a mask over the house, not a list: this
                    // runs for every subset).
                    let mut others_in = 0u16;
                    for k in bits(idx) {
                        let p = if k == i1 {
                            extra
                        } else {
                            let o = HOUSE_CELLS[h][k] as usize;
                            others_in |= 1 << k;
                            naked |= board.cands[o];
                            board.cands[o]
                        };
                        if p == 0 {
                            return None;
                        }
                        union |= p;
                    }
                    if naked.count_ones() as usize != degree
                        || union.count_ones() as usize != degree
                    {
                        return None;
                    }
                    let others: Vec<usize> = bits(others_in)
                        .map(|k| HOUSE_CELLS[h][k] as usize)
                        .collect();
                    let elims: Vec<(Cell, Digit)> = HOUSE_CELLS[h]
                        .iter()
                        .map(|&o| o as usize)
                        .filter(|&o| o != c1 && o != c2 && !others.contains(&o))
                        .flat_map(|o| {
                            bits(board.cands[o] & union).map(move |d| (cell(o), digit(d)))
                        })
                        .collect();
                    push(out, 3, base + degree as u16 - 1, elims, &|| {
                        format!(
                            "so {} or {} holds one of {}, which makes a naked set {} with {} in {}",
                            cell(c1),
                            cell(c2),
                            super::digit_list(extra),
                            super::digit_list(union),
                            super::cell_list(&others.iter().map(|&c| cell(c)).collect::<Vec<_>>()),
                            house(h)
                        )
                    });
                    None::<()>
                });
            }
            if degree * 2 < empty && degree >= 2 && degree - 2 <= rem.len() {
                let places = places[kind].get_or_insert_with(|| board.house_positions(h));
                combinations(rem.len(), degree - 2, |pick| {
                    let mut values: u16 = both;
                    for k in bits(pick) {
                        values |= 1 << rem[k];
                    }
                    let mut union = 0u16;
                    for d in bits(values) {
                        let pos = places[d] & !(1 << i2);
                        if pos == 0 {
                            // A digit already placed in the house is no part of a hidden set.
                            return None;
                        }
                        union |= pos;
                    }
                    if union.count_ones() as usize != degree {
                        return None;
                    }
                    let idx = union & !(1 << i1) & !(1 << i2);
                    let elims: Vec<(Cell, Digit)> = bits(idx)
                        .map(|k| HOUSE_CELLS[h][k] as usize)
                        .flat_map(|o| {
                            bits(board.cands[o] & !values).map(move |d| (cell(o), digit(d)))
                        })
                        .collect();
                    push(out, 3, base + idx.count_ones() as u16 - 1, elims, &|| {
                        format!(
                            "so {} or {} holds one of {}, and digits {} form a hidden set in {}",
                            cell(c1),
                            cell(c2),
                            super::digit_list(extra),
                            super::digit_list(values),
                            house(h)
                        )
                    });
                    None::<()>
                });
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn type4(
    board: &Board,
    c1: usize,
    c2: usize,
    v1: usize,
    v2: usize,
    out: &mut Vec<Ul>,
    base: u16,
    push: &Push,
) {
    let (mut r1, mut r2) = (None, None);
    for h in common_houses(c1, c2) {
        let elsewhere = |d: usize| {
            HOUSE_CELLS[h]
                .iter()
                .map(|&o| o as usize)
                .any(|o| o != c1 && o != c2 && board.cands[o] >> d & 1 == 1)
        };
        if !elsewhere(v1) {
            r1 = Some(h);
        }
        if !elsewhere(v2) {
            r2 = Some(h);
        }
    }
    let (h, lock, rem) = match (r1, r2) {
        (Some(h), _) => (h, v1, v2),
        (None, Some(h)) => (h, v2, v1),
        _ => return,
    };
    let elims: Vec<(Cell, Digit)> = [c1, c2]
        .into_iter()
        .filter(|&c| board.cands[c] >> rem & 1 == 1)
        .map(|c| (cell(c), digit(rem)))
        .collect();
    push(out, 4, base, elims, &|| {
        format!(
            "in {}, {} can only go in {} or {}, so neither can be {}",
            house(h),
            lock + 1,
            cell(c1),
            cell(c2),
            rem + 1
        )
    });
}

/// The first BUG step, as SE finds it.
pub fn bug(board: &Board) -> Option<Step> {
    if no_bug(board) {
        return None;
    }
    bug_search(board)
}

/// Whether some empty cell shows, from its own three houses, that [`bug_search`] finds nothing:
/// a quick test that is exact (it never says so where the search finds a step).
///
/// The search goes through the houses and digits; where a digit has one place or three and
/// more in a house, and exactly one of them is in a cell with three candidates or more (a
/// *wide* cell), that cell loses the digit (a BUG value); where it has such places and none in
/// a wide cell, the search ends with nothing. If it goes through every house, it ends with
/// nothing unless every empty cell is left with two candidates. So an empty cell's BUG values
/// are the digits that have, in one of its houses, a number of places other than two and only
/// it as a wide place; if its candidates without them are not two, the search finds nothing
/// (or ends earlier, with nothing too). On the boards of a hard puzzle most cells are wide and
/// the first few cells show it, where the search would go through all 27 houses.
fn no_bug(board: &Board) -> bool {
    // Cells looked at before giving up: at most this many wide cells (the search decides then).
    const WIDE_CELLS: usize = 6;
    let mut wide_seen = 0;
    for c in 0..81 {
        if board.values[c] != 0 {
            continue;
        }
        let m = board.cands[c];
        let one_off = m & m.wrapping_sub(1);
        if one_off == 0 {
            // No candidate or one: never two.
            return true;
        }
        if one_off & one_off.wrapping_sub(1) == 0 {
            // Two candidates, no BUG value: they stay two.
            continue;
        }
        let mut bug_values = 0u16;
        for h in CELL_HOUSES[c] {
            // Per digit (bit-sliced over the house's cells): places once, twice, three times or
            // more; places in wide cells once, twice or more.
            let (mut one, mut two, mut more) = (0u16, 0u16, 0u16);
            let (mut wide_one, mut wide_two) = (0u16, 0u16);
            for &o in &HOUSE_CELLS[h as usize] {
                let x = board.cands[o as usize];
                more |= two & x;
                two |= one & x;
                one |= x;
                let x_off = x & x.wrapping_sub(1);
                if x_off & x_off.wrapping_sub(1) != 0 {
                    wide_two |= wide_one & x;
                    wide_one |= x;
                }
            }
            // Not exactly two places, and `c` (wide, holding the digit) the only wide one.
            let exactly_two = two & !more;
            bug_values |= m & !exactly_two & wide_one & !wide_two;
        }
        let left = m & !bug_values;
        let left_off = left & left.wrapping_sub(1);
        if left_off == 0 || left_off & left_off.wrapping_sub(1) != 0 {
            return true;
        }
        wide_seen += 1;
        if wide_seen == WIDE_CELLS {
            return false;
        }
    }
    false
}

/// [`bug`] without its quick test [`no_bug`] (the tests compare both).
fn bug_search(board: &Board) -> Option<Step> {
    let mut temp = board.cands;
    let mut bug_cells: Vec<usize> = Vec::new();
    let mut bug_values = [0u16; 81];
    let mut all_values = 0u16;
    let mut common: Option<Vec<usize>> = None;
    for &h in &super::SE_BRC {
        let h = h as usize;
        let house_pos = board.house_positions(h);
        // The house's cells with three candidates or more (bit tests: the build's target has
        // no population count).
        let mut wide = 0u16;
        for (k, &c) in HOUSE_CELLS[h].iter().enumerate() {
            let m = board.cands[c as usize];
            let two_off = m & m.wrapping_sub(1);
            wide |= ((two_off & two_off.wrapping_sub(1) != 0) as u16) << k;
        }
        for (d, &pos) in house_pos.iter().enumerate() {
            // Digits with no place or two places here are no BUG digits of the house.
            let one_off = pos & pos.wrapping_sub(1);
            if pos == 0 || (one_off != 0 && one_off & (one_off - 1) == 0) {
                continue;
            }
            // The places of d here in cells with three candidates or more: none, one (the BUG
            // value's cell) or more.
            let places = pos & wide;
            if places != 0 && places & (places - 1) == 0 {
                let c = HOUSE_CELLS[h][places.trailing_zeros() as usize] as usize;
                if !bug_cells.contains(&c) {
                    bug_cells.push(c);
                }
                bug_values[c] |= 1 << d;
                all_values |= 1 << d;
                temp[c] &= !(1 << d);
                let peers: Vec<usize> = PEERS[c].iter().map(|&p| p as usize).collect();
                let mut cm = match common.take() {
                    None => peers,
                    Some(prev) => prev.into_iter().filter(|p| peers.contains(p)).collect(),
                };
                cm.retain(|p| !bug_cells.contains(p));
                let empty = cm.is_empty();
                common = Some(cm);
                if bug_cells.len() > 1 && all_values.count_ones() > 1 && empty {
                    return None;
                }
            }
            if places == 0 {
                return None;
            }
        }
    }
    for c in 0..81 {
        if board.values[c] == 0 && temp[c].count_ones() != 2 {
            return None;
        }
    }
    for h in 0..27 {
        for d in 0..9 {
            let n = HOUSE_CELLS[h]
                .iter()
                .filter(|&&c| temp[c as usize] >> d & 1 == 1)
                .count();
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    let common = common.unwrap_or_default();
    let bug_list = super::cell_list(&bug_cells.iter().map(|&c| cell(c)).collect::<Vec<_>>());
    let intro =
        "BUG: without its extra candidates the grid would be a bivalue universal grave (two \
                 solutions)";
    if bug_cells.len() == 1 {
        let c = bug_cells[0];
        let d = all_values.trailing_zeros() as usize;
        let elims: Vec<(Cell, Digit)> = bits(board.cands[c] & !all_values)
            .map(|v| (cell(c), digit(v)))
            .collect();
        // With several BUG digits in the one cell, the cell keeps them all and loses the rest.
        let (placements, text) = if all_values.count_ones() == 1 {
            (
                vec![(cell(c), digit(d))],
                format!("{intro}, so {} must be {}", cell(c), d + 1),
            )
        } else {
            (
                vec![],
                format!(
                    "{intro}, so {} must be one of {}; so {}",
                    cell(c),
                    super::digit_list(all_values),
                    super::elim_list(&elims)
                ),
            )
        };
        if elims.is_empty() {
            return None;
        }
        return Some(Step {
            technique: "BUG type 1",
            rating: Rating(56),
            placements,
            shown_eliminations: vec![],
            figure: Default::default(),
            eliminations: elims,
            cells: vec![cell(c)],
            houses: vec![],
            text,
        });
    }
    if all_values.count_ones() == 1 {
        let d = all_values.trailing_zeros() as usize;
        let elims: Vec<(Cell, Digit)> = common
            .iter()
            .filter(|&&o| board.cands[o] >> d & 1 == 1)
            .map(|&o| (cell(o), digit(d)))
            .collect();
        if !elims.is_empty() {
            return Some(Step {
                technique: "BUG type 2",
                rating: Rating(57),
                text: format!(
                    "{intro}, so one of {bug_list} is {}; so {}",
                    d + 1,
                    super::elim_list(&elims)
                ),
                placements: vec![],
                shown_eliminations: vec![],
                figure: Default::default(),
                eliminations: elims,
                cells: bug_cells.iter().map(|&c| cell(c)).collect(),
                houses: vec![],
            });
        }
        if bug_cells.len() == 2 {
            return bug4(board, &bug_cells, &bug_values, all_values, intro);
        }
        return None;
    }
    if !common.is_empty() {
        if bug_cells.len() == 2 {
            if let Some(s) = bug4(board, &bug_cells, &bug_values, all_values, intro) {
                return Some(s);
            }
        }
        return bug3(board, &bug_cells, all_values, &common, intro);
    }
    None
}

fn bug4(board: &Board, bc: &[usize], bv: &[u16; 81], all: u16, intro: &str) -> Option<Step> {
    let (c1, c2) = (bc[0], bc[1]);
    let shared = board.cands[c1] & board.cands[c2] & !all;
    if shared.count_ones() != 1 {
        return None;
    }
    let h = common_houses(c1, c2).next()?;
    let value = shared.trailing_zeros() as usize;
    let mut elims = Vec::new();
    for c in [c1, c2] {
        for d in bits(board.cands[c] & !bv[c] & !(1 << value)) {
            elims.push((cell(c), digit(d)));
        }
    }
    if elims.is_empty() {
        return None;
    }
    Some(Step {
        technique: "BUG type 4",
        rating: Rating(57),
        text: format!(
            "{intro}; {} or {} holds its BUG digit, and {} in {} must go in one of them; so {}",
            cell(c1),
            cell(c2),
            value + 1,
            house(h),
            super::elim_list(&elims)
        ),
        placements: vec![],
        shown_eliminations: vec![],
        figure: Default::default(),
        eliminations: elims,
        cells: vec![cell(c1), cell(c2)],
        houses: vec![house(h)],
    })
}

fn bug3(board: &Board, bc: &[usize], all: u16, common: &[usize], intro: &str) -> Option<Step> {
    for kind in [2usize, 0, 1] {
        let h = CELL_HOUSES[bc[0]][kind] as usize;
        if !bc.iter().all(|&c| CELL_HOUSES[c][kind] as usize == h) {
            continue;
        }
        let region: Vec<usize> = common
            .iter()
            .copied()
            .filter(|&c| CELL_HOUSES[c][kind] as usize == h && board.values[c] == 0)
            .collect();
        for degree in 2..=6 {
            if region.len() < degree {
                continue;
            }
            let r = combinations(region.len(), degree - 1, |pick| {
                let naked: Vec<usize> = bits(pick).map(|k| region[k]).collect();
                let other = naked.iter().fold(0u16, |m, &c| m | board.cands[c]);
                if other.count_ones() as usize != degree {
                    return None;
                }
                let set = other | all;
                if set.count_ones() as usize != degree {
                    return None;
                }
                let elims: Vec<(Cell, Digit)> = region
                    .iter()
                    .copied()
                    .filter(|c| !naked.contains(c) && !bc.contains(c))
                    .flat_map(|o| bits(board.cands[o] & set).map(move |d| (cell(o), digit(d))))
                    .collect();
                if elims.is_empty() {
                    return None;
                }
                Some(Step {
                    technique: "BUG type 3",
                    rating: Rating(57 + degree as u16 - 2),
                    text: format!(
                        "{intro}; the BUG digits {} make a naked set {} with {} in {}; so {}",
                        super::digit_list(all),
                        super::digit_list(set),
                        super::cell_list(&naked.iter().map(|&c| cell(c)).collect::<Vec<_>>()),
                        house(h),
                        super::elim_list(&elims)
                    ),
                    placements: vec![],
                    shown_eliminations: vec![],
                    figure: Default::default(),
                    eliminations: elims,
                    cells: bc.iter().map(|&c| cell(c)).collect(),
                    houses: vec![house(h)],
                })
            });
            if r.is_some() {
                return r;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_bug_test_never_hides_a_step() {
        // Every board on the paths of twelve extreme-band puzzles, and the boards where BUG
        // applies in the calibration file's paths: where the quick test says "no BUG", the
        // search finds nothing; and the two agree on every board.
        let (mut boards, mut ruled_out, mut found) = (0, 0, 0);
        for (board, _) in crate::logic::extreme_path_boards(12) {
            let quick = no_bug(&board);
            let step = bug_search(&board);
            if quick {
                assert_eq!(step, None, "board {boards}");
                ruled_out += 1;
            }
            assert_eq!(bug(&board), step);
            found += step.is_some() as usize;
            boards += 1;
        }
        assert!(
            boards > 500 && ruled_out > boards / 2,
            "{boards} {ruled_out} {found}"
        );
    }

    #[test]
    fn the_quick_bug_test_lets_bug_steps_through() {
        // Graves made from a solved grid by swapping two digits `d1`, `d2` everywhere: the
        // cells holding them, emptied, have candidates {d1, d2}, each digit twice in every
        // house where it is missing. One or two extra candidates on such cells give BUG boards
        // (and some that are none); the quick test must agree with the search on every one,
        // and let each BUG step through.
        let solved: Vec<u8> = (0..81)
            .map(|i| ((i / 9 * 3 + i / 27 + i % 9) % 9 + 1) as u8)
            .collect();
        let (mut tried, mut steps) = (0, 0);
        for d1 in 1..=9u8 {
            for d2 in d1 + 1..=9 {
                let givens: Vec<u8> = solved
                    .iter()
                    .map(|&v| if v == d1 || v == d2 { 0 } else { v })
                    .collect();
                let p = crate::grid::Puzzle::from_bytes(givens.try_into().unwrap()).unwrap();
                let grave = Board::new(&p);
                let empty: Vec<usize> = (0..81).filter(|&c| grave.values[c] == 0).collect();
                assert!(empty.iter().all(|&c| grave.cands[c].count_ones() == 2));
                for (i, &c1) in empty.iter().enumerate() {
                    for &c2 in &empty[i..] {
                        for e in 0..9 {
                            let mut board = grave.clone();
                            board.cands[c1] |= 1 << e;
                            board.cands[c2] |= 1 << ((e + 4) % 9);
                            let step = bug_search(&board);
                            assert_eq!(bug(&board), step);
                            if no_bug(&board) {
                                assert_eq!(step, None);
                            }
                            tried += 1;
                            steps += step.is_some() as usize;
                        }
                    }
                }
            }
        }
        assert!(steps > 1000, "{tried} {steps}");
    }

    #[test]
    fn the_loop_memo_never_changes_the_step() {
        // Every board on the paths of twelve extreme-band puzzles, in path order (the memo
        // skips starts) and with a cleared memo (every start searched): the same step, and the
        // same record of each start's search (`with_loops`: the records of starts whose loops
        // gave no hint, which the memo skips too).
        let (mut boards, mut found, mut with_memo, mut with_loops) = (0, 0, 0, 0);
        for (board, _) in crate::logic::extreme_path_boards(12) {
            let before = LOOP_MEMO.with_borrow(|m| m.valid && m.starts.iter().any(|e| e.empty));
            let kept = unique_loops(&board);
            let after = LOOP_MEMO.with_borrow(|m| m.starts);
            LOOP_MEMO.with_borrow_mut(|m| m.valid = false);
            let fresh = unique_loops(&board);
            assert_eq!(kept, fresh, "board {boards}");
            LOOP_MEMO.with_borrow(|m| {
                for c in 0..81 {
                    assert_eq!(m.starts[c].empty, after[c].empty);
                    if after[c].empty {
                        assert_eq!(m.starts[c].calls, after[c].calls);
                        assert_eq!(m.starts[c].has_both, after[c].has_both);
                        assert_eq!(m.starts[c].read, after[c].read);
                        with_loops += (after[c].read != after[c].has_both) as usize;
                    }
                }
            });
            with_memo += before as usize;
            boards += 1;
            found += kept.is_some() as usize;
        }
        assert!(
            boards > 500 && found > 0 && with_memo > 100 && with_loops > 100,
            "{boards} {found} {with_memo} {with_loops}"
        );
    }
}
