//! Aligned exclusion, after SE's `AlignedPairExclusion` and `AlignedExclusion` rules: pair 6.2,
//! triple 7.5.
//!
//! Take two (or three) base cells. A combination of digits for them is impossible if two base
//! cells that share a house get the same digit, or if some cell that sees all the base cells
//! ("excluder", with two or up to `n` candidates) would be left with none. A base cell's digit
//! that appears in no possible combination is eliminated. The base cells must share at least two
//! excluders; for triples, the third cell must be an excluder of one of the first two.

use super::{bits, cell, digit, sees, Board, Rating, Step, PEER_MASK};
use crate::bitset::{Cell, Digit};

/// The first aligned pair (`degree = 2`) or triple (`degree = 3`) exclusion.
///
/// # Panics
/// If `degree` is not 2 or 3.
pub fn aligned_exclusion(board: &Board, degree: usize) -> Option<Step> {
    search(board, degree, true)
}

/// [`aligned_exclusion`], with or without the `shortcuts` of [`triple_or_pair`] (the tests
/// compare both).
fn search(board: &Board, degree: usize, shortcuts: bool) -> Option<Step> {
    assert!(
        degree == 2 || degree == 3,
        "aligned exclusion of 2 or 3 cells"
    );
    let Bases {
        base,
        excluders,
        single,
        small,
    } = bases(board, degree);
    if base.len() < degree {
        return None;
    }
    // Pairs and triples whose test cannot have changed since the last search of this degree
    // that found nothing are skipped (see `Memo`); `dirty` holds the cells that changed since
    // then.
    let memo_ok = single == 0;
    let dirty = if memo_ok {
        MEMO.with_borrow(|m| m[degree - 2].dirty(board, degree))
    } else {
        Dirty { cells: !0, ex: !0 }
    };
    let found = SEEN_BY_TWO.with_borrow_mut(|seen| {
        let seen = &mut seen[degree - 2];
        triple_or_pair(
            board, degree, &base, &excluders, small, dirty, shortcuts, seen,
        )
    });
    if memo_ok {
        MEMO.with_borrow_mut(|m| m[degree - 2].keep(board, found.is_none()));
    }
    found
}

/// The base cells of a search and what they rest on.
struct Bases {
    /// The base cells (row-major), as SE collects them.
    base: Vec<usize>,
    /// The excluders of each base cell.
    excluders: [u128; 81],
    /// The cells with one candidate.
    single: u128,
    /// The cells with two to `degree` candidates.
    small: u128,
}

fn bases(board: &Board, degree: usize) -> Bases {
    let mut base: Vec<usize> = Vec::new();
    let mut excluders = [0u128; 81];
    // Cells with one candidate, and those with two to `degree`.
    let (mut single, mut small) = (0u128, 0u128);
    for c in 0..81 {
        let n = board.cands[c].count_ones() as usize;
        single |= ((n == 1) as u128) << c;
        small |= ((n >= 2 && n <= degree) as u128) << c;
    }
    for c in 0..81 {
        if board.cands[c].count_ones() < 2 || PEER_MASK[c] & single != 0 {
            continue;
        }
        let ex = PEER_MASK[c] & small;
        if ex != 0 {
            base.push(c);
            excluders[c] = ex;
        }
    }
    Bases {
        base,
        excluders,
        single,
        small,
    }
}

thread_local! {
    /// The last board on which aligned pair (`[0]`) and triplet (`[1]`) exclusion found
    /// nothing (on this thread).
    static MEMO: std::cell::RefCell<[Memo; 2]> = const {
        std::cell::RefCell::new([const { Memo { cands: [0; 81], valid: false } }; 2])
    };
}

thread_local! {
    /// Per search degree (pairs `[0]`, triples `[1]`) and base cell, the last excluders it had
    /// and the cells seeing two of them ([`seeing_two`], a function of the excluders alone: no
    /// board to check; `seeing_two(0) = 0`).
    static SEEN_BY_TWO: std::cell::RefCell<[[[u128; 2]; 81]; 2]> =
        const { std::cell::RefCell::new([[[0; 2]; 81]; 2]) };
}

/// The board of the last aligned pair or triplet search that tested every pair or triple and
/// found nothing, with no cell holding a single candidate. A pair's or triple's test reads only
/// the candidates of its cells and of the cells that see all of them (the excluders among
/// them); if none of these cells changed, and no cell holds a single candidate on either board,
/// the pair or triple was tested then (its cells were base cells with the same excluders) and
/// found nothing, so it finds nothing now. Removing candidates elsewhere can make new excluders
/// or base cells, but only for pairs and triples that see a changed cell, which are tested
/// again. The memo makes the search skip most of them at each chain step of a hard puzzle,
/// where the board changes by a few cells between two searches; it gives the same result on
/// any board (a board of another puzzle differs everywhere, and everything is tested).
struct Memo {
    cands: [u16; 81],
    valid: bool,
}

/// The cells whose candidates differ from the memo's board (`cells`), and among them those that
/// are excluders (two to `degree` candidates) on either board (`ex`). A changed cell that sees
/// all the cells of a pair or triple matters only if it is an excluder: the test reads the
/// excluders among the cells that see them all, and a cell that is no excluder on either board
/// is in neither board's list (the base cells themselves are the same on both boards if these
/// excluders are: each has two of them among its peers).
#[derive(Clone, Copy)]
struct Dirty {
    cells: u128,
    ex: u128,
}

impl Memo {
    /// The cells that changed since the memo's board (every cell if there is none).
    fn dirty(&self, board: &Board, degree: usize) -> Dirty {
        if !self.valid {
            return Dirty { cells: !0, ex: !0 };
        }
        let small = |m: u16| (2..=degree as u32).contains(&m.count_ones());
        let (mut cells, mut ex) = (0u128, 0u128);
        for c in 0..81 {
            let (old, new) = (self.cands[c], board.cands[c]);
            if old != new {
                cells |= 1 << c;
                ex |= ((small(old) || small(new)) as u128) << c;
            }
        }
        Dirty { cells, ex }
    }

    /// Remembers `board` if the search found nothing on it. A search that found something
    /// leaves the memo as it was: its board is still one on which nothing was found, only
    /// further from the next boards than this one.
    fn keep(&mut self, board: &Board, found_nothing: bool) {
        if found_nothing {
            self.valid = true;
            self.cands = board.cands;
        }
    }
}

/// The search of [`aligned_exclusion`] over its base cells, skipping the triples that see no
/// `dirty` cell (see `Memo`). `small` holds the cells with two to `degree` candidates (the
/// excluders' sizes). With `shortcuts`, a triple already listed in another order of its cells
/// ([`listed_before`]) and one whose pair's bound shows it removes nothing ([`PairBound`]) are
/// not tested (both exact; the tests compare the search without them).
#[allow(clippy::too_many_arguments)]
fn triple_or_pair(
    board: &Board,
    degree: usize,
    base: &[usize],
    excluders: &[u128; 81],
    small: u128,
    dirty: Dirty,
    shortcuts: bool,
    seen: &mut [[u128; 2]; 81],
) -> Option<Step> {
    let base_mask: u128 = base.iter().fold(0, |m, &c| m | 1 << c);
    // The changed base cells that can be a triple's third cell, and the cells that see one.
    let dirty_thirds = dirty.cells & small & base_mask;
    let mut near_dirty_thirds = 0u128;
    if degree == 3 && dirty.cells != !0 {
        let mut m = dirty_thirds;
        while m != 0 {
            near_dirty_thirds |= PEER_MASK[m.trailing_zeros() as usize];
            m &= m - 1;
        }
    }
    for &a in base {
        // With `a` unchanged, a pair or triple can have changed only if `b` changed, or a changed
        // excluder sees `a` and `b`, or (triples) its third cell changed: it is a small base
        // cell seeing `a` (then any `b` can have one) or `b`. The other `b` are not listed (all
        // their pairs and triples would be skipped below).
        let hot_b = if dirty.cells >> a & 1 == 1 {
            !0
        } else {
            let mut hot = dirty.cells;
            let mut x = dirty.ex & PEER_MASK[a];
            while x != 0 {
                hot |= PEER_MASK[x.trailing_zeros() as usize];
                x &= x - 1;
            }
            if degree == 3 {
                if dirty_thirds & PEER_MASK[a] != 0 {
                    hot = !0;
                } else {
                    hot |= near_dirty_thirds;
                }
            }
            hot
        };
        // The second cells, after `a` in the (row-major) order of the base cells, that share
        // two excluders with `a` (most pairs share fewer: they are not listed).
        let mut seconds = hot_b & base_mask & !((2u128 << a) - 1);
        if seconds == 0 {
            continue;
        }
        // `seeing_two` of the excluders, kept per cell with the excluders it was made from
        // (they change for few cells from one search to the next).
        let kept = &mut seen[a];
        if kept[0] != excluders[a] {
            *kept = [excluders[a], seeing_two(excluders[a])];
        }
        seconds &= kept[1];
        while seconds != 0 {
            let b = seconds.trailing_zeros() as usize;
            seconds &= seconds - 1;
            debug_assert!((excluders[a] & excluders[b]).count_ones() >= 2);
            if degree == 2 {
                // Unchanged since the memo's board, with its common peers (see `Memo`).
                if (1 << a | 1 << b) & dirty.cells == 0
                    && PEER_MASK[a] & PEER_MASK[b] & dirty.ex == 0
                {
                    continue;
                }
                // Most pairs remove nothing: that is tested first, without building a step.
                if shortcuts && !pair_removes(board, a, b, excluders[a] & excluders[b]) {
                    continue;
                }
                if let Some(s) = try_cells(board, &[a, b], excluders) {
                    return Some(s);
                }
                continue;
            }
            // Triples: the third cell is an excluder of one of the first two.
            let twin = (excluders[a] | excluders[b]) & base_mask & !(1 << a) & !(1 << b);
            let pair_common = excluders[a] & excluders[b];
            // A triple sees a changed cell if one of its cells changed or a changed cell sees
            // all three: with `a` and `b` unchanged, the third cell must have changed or see a
            // changed cell that sees `a` and `b`.
            let hot = if dirty.cells >> a & 1 == 1 || dirty.cells >> b & 1 == 1 {
                !0
            } else {
                let mut near = dirty.cells;
                let mut x = dirty.ex & PEER_MASK[a] & PEER_MASK[b];
                while x != 0 {
                    near |= PEER_MASK[x.trailing_zeros() as usize];
                    x &= x - 1;
                }
                near
            };
            let mut rest = twin & hot;
            if shortcuts {
                rest &= !listed_before(a, b, small);
            }
            if rest == 0 {
                continue;
            }
            // Only third cells that see two of the pair's common excluders make a triple with
            // two common excluders.
            rest &= seeing_two(pair_common);
            // Made at the pair's first triple tested, for all its third cells.
            let mut bound: Option<PairBound> = None;
            while rest != 0 {
                // The third cells in ascending order.
                let t = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let common = pair_common & excluders[t];
                debug_assert!(common.count_ones() >= 2);
                let seen_by_all = PEER_MASK[a] & PEER_MASK[b] & PEER_MASK[t];
                if seen_by_all & dirty.ex == 0 && (1 << a | 1 << b | 1 << t) & dirty.cells == 0 {
                    continue;
                }
                if shortcuts
                    && !bound
                        .get_or_insert_with(|| PairBound::new(board, a, b, pair_common))
                        .may_remove(board.cands[t])
                {
                    continue;
                }
                // Most triples remove nothing: that is tested first, without building a step.
                if triple_keeps_all(board, [a, b, t], common) {
                    continue;
                }
                if let Some(s) = try_cells(board, &[a, b, t], excluders) {
                    return Some(s);
                }
            }
        }
    }
    None
}

/// Whether aligned pair exclusion on base cells `a` and `b` with common excluders `common` (two
/// candidates each, at least two of them) removes something: the pair test of [`try_cells`],
/// which then finds the step, without its set-up. A digit `v` of one cell goes if every digit
/// the other cell could take beside it makes an excluder `{v, w}`.
fn pair_removes(board: &Board, a: usize, b: usize, common: u128) -> bool {
    let mut partner = [0u16; 9];
    let mut m = common;
    while m != 0 {
        let e = board.cands[m.trailing_zeros() as usize];
        m &= m - 1;
        let (x, y) = (e.trailing_zeros() as usize, 15 - e.leading_zeros() as usize);
        partner[x] |= 1 << y;
        partner[y] |= 1 << x;
    }
    let see = sees(a, b);
    let (fa, fb) = (board.cands[a], board.cands[b]);
    for (mine, other) in [(fa, fb), (fb, fa)] {
        let mut r = mine;
        while r != 0 {
            let v = r.trailing_zeros() as usize;
            r &= r - 1;
            let needed = if see { other & !(1 << v) } else { other };
            if needed & !partner[v] == 0 {
                return true;
            }
        }
    }
    false
}

/// The third cells `t` of the pair `a < b` (base cells) whose triple `{a, b, t}` the search of
/// [`triple_or_pair`] has listed before, in another order, if it is a triple at all (its three
/// cells share two excluders). A triple's test does not depend on the order of its cells (the
/// combinations, the excluders seeing all three and the cells sharing a house are the same), and
/// a triple listed before removed nothing, or the search would have stopped there (or, skipped
/// by the memo, removes nothing: see `Memo`). The search lists `(p, q, r)` for `p < q` sharing
/// two excluders and `r` an excluder of `p` or `q` (in `small` and seeing one of them), in the
/// order of `p`, then `q`; a triple with two common excluders meets the other conditions in
/// every order. So with `a < t < b`, `(a, t, b)` came before if `b` is small and sees `a` or
/// `t`; with `t < a`, `(t, a, b)` and `(t, b, a)` came before if `b`, or `a`, is small and sees
/// one of the other two.
fn listed_before(a: usize, b: usize, small: u128) -> u128 {
    let see = sees(a, b);
    // The third cells `t` for which `x`, one of `a` and `b`, is small and sees `t` or the other.
    let reach = |x: usize| match (small >> x & 1 == 1, see) {
        (false, _) => 0,
        (true, true) => !0,
        (true, false) => PEER_MASK[x],
    };
    let below_a = (1u128 << a) - 1;
    let between = ((1u128 << b) - 1) & !((2u128 << a) - 1);
    between & reach(b) | below_a & (reach(a) | reach(b))
}

/// A bound, made once per pair of base cells `a`, `b` from their common excluders, on what any
/// third cell can remove with them: the triples of the pair whose third cell's candidates pass
/// [`PairBound::may_remove`] are the only ones that can remove anything.
///
/// A combination `(v0, v1, v2)` of the triple is impossible if one of the triple's excluders
/// (those of the pair's common excluders that see the third cell) is inside `{v0, v1, v2}` or
/// two cells sharing a house repeat a digit. Taking every common excluder of the pair, and the
/// third cell sharing a house with both, rules out more: for `v0` and `v1` of the pair, every
/// `v2` if a two-digit excluder is `{v0, v1}` or `v0 = v1` with `a` and `b` sharing a house,
/// and otherwise the `v2` in `f(v0, v1)`: `v0`, `v1`, their partners (the digits forming a
/// two-digit excluder with them) and the third digit of each three-digit excluder holding both
/// (taken as the digits common to the three-digit excluders holding `v0` and those holding
/// `v1`: more digits, so a looser bound, with no list of excluders to go through). A third
/// cell's digit `v2` is removed only if `v2` is in `f(v0, v1)` for every pair
/// (`third`); the first cell's `v0` only if the third cell's candidates lie inside the
/// intersection of `f(v0, v1)` over `v1` (one of `covers`), and the second cell's `v1` likewise.
struct PairBound {
    third: u16,
    covers: [u16; 18],
    n: usize,
}

/// The middle digit of [`EXCLUDER_DIGITS`] for an excluder of two digits.
const NONE: usize = 15;

/// The digits of each candidate set of two or three digits: lowest, middle ([`NONE`] for two
/// digits) and highest (zeros for other sets).
static EXCLUDER_DIGITS: [[u8; 3]; 512] = {
    let mut t = [[0u8; 3]; 512];
    let mut e: usize = 0;
    while e < 512 {
        let (mut ds, mut n, mut d) = ([0u8; 3], 0, 0);
        while d < 9 {
            if e >> d & 1 == 1 {
                if n < 3 {
                    ds[n] = d as u8;
                }
                n += 1;
            }
            d += 1;
        }
        if n == 2 {
            t[e] = [ds[0], NONE as u8, ds[1]];
        } else if n == 3 {
            t[e] = ds;
        }
        e += 1;
    }
    t
};

impl PairBound {
    fn new(board: &Board, a: usize, b: usize, pair_common: u128) -> PairBound {
        let (fa, fb) = (board.cands[a], board.cands[b]);
        let see01 = sees(a, b);
        // The digits forming a two-digit excluder with each digit, and those of the
        // three-digit excluders holding it.
        // Sixteen entries, indexed by digits masked to four bits: no bounds checks.
        let mut partner = [0u16; 16];
        let mut three = [0u16; 16];
        let mut m = pair_common;
        while m != 0 {
            let e = board.cands[m.trailing_zeros() as usize];
            m &= m - 1;
            // The excluder's digits, lowest, middle (`NONE` for two) and highest, from a table.
            let [x, y, z] = EXCLUDER_DIGITS[usize::from(e & 0x1FF)].map(|d| usize::from(d) & 15);
            if y == NONE {
                partner[x] |= 1 << z;
                partner[z] |= 1 << x;
            } else {
                three[x] |= e;
                three[y] |= e;
                three[z] |= e;
            }
        }
        const ALL: u16 = 0x1ff;
        let mut by_v1 = [ALL; 16];
        let mut bound = PairBound {
            third: ALL,
            covers: [0; 18],
            n: 0,
        };
        let mut r0 = fa;
        while r0 != 0 {
            let v0 = r0.trailing_zeros() as usize & 15;
            r0 &= r0 - 1;
            let with_v0 = 1 << v0 | partner[v0];
            let three_v0 = three[v0];
            // The `v1` ruled out with `v0` by the pair alone rule out every `v2`.
            let mut m1 = fb & !partner[v0];
            if see01 {
                m1 &= !(1 << v0);
            }
            let mut k0 = ALL;
            while m1 != 0 {
                let v1 = m1.trailing_zeros() as usize & 15;
                m1 &= m1 - 1;
                // The three-digit excluders holding `v0` and `v1` lie in `three_v0 & three[v1]`
                // (more digits, with several: more ruled out, still a bound).
                let f = with_v0 | 1 << v1 | partner[v1] | three_v0 & three[v1];
                k0 &= f;
                by_v1[v1] &= f;
            }
            bound.third &= k0;
            bound.push(k0);
        }
        let mut r1 = fb;
        while r1 != 0 {
            let v1 = r1.trailing_zeros() as usize & 15;
            r1 &= r1 - 1;
            bound.push(by_v1[v1]);
        }
        bound
    }

    /// Keeps a cover of two digits or more (a third cell has two candidates or more).
    fn push(&mut self, cover: u16) {
        if cover & cover.wrapping_sub(1) != 0 {
            self.covers[self.n] = cover;
            self.n += 1;
        }
    }

    /// Whether a third cell with candidates `cands` can remove anything with the pair.
    fn may_remove(&self, cands: u16) -> bool {
        cands & self.third != 0 || self.covers[..self.n].iter().any(|&k| cands & !k == 0)
    }
}

/// The cells that see at least two of the cells `cells`. For a base cell `b` (whose excluders
/// are its peers among the excluder-sized cells) and excluders `cells`, these are the `b` with
/// two of them among their own excluders.
fn seeing_two(cells: u128) -> u128 {
    let (mut one, mut two) = (0u128, 0u128);
    let mut m = cells;
    while m != 0 {
        let peers = PEER_MASK[m.trailing_zeros() as usize];
        m &= m - 1;
        two |= one & peers;
        one |= peers;
    }
    two
}

fn try_cells(board: &Board, cells: &[usize], excluders: &[u128; 81]) -> Option<Step> {
    let common = cells.iter().fold(!0u128, |m, &c| m & excluders[c]);
    if common.count_ones() < 2 {
        return None;
    }
    let mut ex_masks = [0u16; 20];
    let mut n_ex = 0;
    let mut m = common;
    while m != 0 && n_ex < 20 {
        ex_masks[n_ex] = board.cands[m.trailing_zeros() as usize];
        n_ex += 1;
        m &= m - 1;
    }
    let n = cells.len();
    // allowed[i]: digits of base cell i that appear in some possible combination.
    let mut allowed = [0u16; 3];
    let full: [u16; 3] = std::array::from_fn(|i| if i < n { board.cands[cells[i]] } else { 0 });
    if n == 2 {
        // Pairs, on masks: the excluders have two candidates, so digit v of one base cell is
        // impossible if and only if every digit w the other cell could take beside it forms an
        // excluder {v, w}.
        let mut partner = [0u16; 9];
        for &e in &ex_masks[..n_ex] {
            for v in bits(e) {
                partner[v] |= e & !(1 << v);
            }
        }
        let see = sees(cells[0], cells[1]);
        for i in 0..2 {
            let other = full[1 - i];
            for v in bits(full[i]) {
                let needed = if see { other & !(1 << v) } else { other };
                if needed & !partner[v] != 0 {
                    allowed[i] |= 1 << v;
                }
            }
        }
    } else {
        // An excluder with a digit no base cell has can never be emptied (in `triples` it
        // leaves every mask as it is): only the others count. With none, and no two base cells
        // in one house, every combination is possible and nothing is removed.
        let union = full[0] | full[1] | full[2];
        let mut k = 0;
        for i in 0..n_ex {
            if ex_masks[i] & !union == 0 {
                ex_masks[k] = ex_masks[i];
                k += 1;
            }
        }
        if k == 0
            && !sees(cells[0], cells[1])
            && !sees(cells[0], cells[2])
            && !sees(cells[1], cells[2])
        {
            return None;
        }
        triples(cells, &ex_masks[..k], &mut allowed, &full);
    }
    if (0..n).all(|i| allowed[i] == full[i]) {
        return None;
    }
    let mut elims: Vec<(Cell, Digit)> = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        for d in bits(board.cands[c] & !allowed[i]) {
            elims.push((cell(c), digit(d)));
        }
    }
    if elims.is_empty() {
        return None;
    }
    let (technique, rating) = if n == 2 {
        ("Aligned Pair Exclusion", 62)
    } else {
        ("Aligned Triplet Exclusion", 75)
    };
    let base_cells: Vec<Cell> = cells.iter().map(|&c| cell(c)).collect();
    let ex_cells: Vec<Cell> = (0..81)
        .filter(|&c| common >> c & 1 == 1)
        .map(cell)
        .collect();
    Some(Step {
        technique,
        rating: Rating(rating),
        placements: vec![],
        shown_eliminations: vec![],
        figure: Default::default(),
        text: format!(
            "{technique}: cells {} cannot take digits that would leave one of {} (which see them \
             all) empty, or repeat a digit in a house; so {}",
            super::cell_list(&base_cells),
            super::cell_list(&ex_cells),
            super::elim_list(&elims)
        ),
        eliminations: elims,
        cells: base_cells,
        houses: vec![],
    })
}

/// Whether the triple test of [`try_cells`] on base cells `cells` with common excluders `common`
/// keeps every digit of the three cells (removes nothing): the same test as `try_cells` and
/// [`triples`] with the three cells' candidate sets packed in one word, so that each
/// combination's marks are one `or` and the test for "all marked" one comparison.
///
/// The hot path of aligned triplet exclusion (nearly every triple tested removes nothing).
/// With `S = {v0, v1}`, an excluder `e` is emptied by a combination if and only if
/// `e ⊆ S ∪ {v2}`. For an excluder of two digits `{x, y}`: `S = {x, y}` (the pair is ruled
/// out), or `x` in `S` and `v2 = y` (or the same with `x` and `y` swapped): so `partner[x]`, the
/// digits that make an excluder with `x`, rules out the second cell's `v1` with `v0 = x`, and the
/// third cell's `v2` with `x` in `S`. An excluder of three digits is emptied only if `S` holds
/// two of them (`v0 != v1`) and `v2` is the third.
fn triple_keeps_all(board: &Board, cells: [usize; 3], common: u128) -> bool {
    let full = cells.map(|c| board.cands[c]);
    let union = full[0] | full[1] | full[2];
    let see01 = sees(cells[0], cells[1]);
    let see02 = sees(cells[0], cells[2]);
    let see12 = sees(cells[1], cells[2]);
    // As `try_cells`: the first 20 excluders, those with no digit outside the base cells'.
    let mut partner = [0u16; 9];
    let mut threes = [0u16; 20];
    let (mut n3, mut kept, mut seen) = (0, 0, 0);
    let mut m = common;
    while m != 0 && seen < 20 {
        let e = board.cands[m.trailing_zeros() as usize];
        m &= m - 1;
        seen += 1;
        if e & !union != 0 {
            continue;
        }
        kept += 1;
        if e.count_ones() == 2 {
            let (x, y) = (e.trailing_zeros() as usize, 15 - e.leading_zeros() as usize);
            partner[x] |= 1 << y;
            partner[y] |= 1 << x;
        } else {
            threes[n3] = e;
            n3 += 1;
        }
    }
    if kept == 0 && !see01 && !see02 && !see12 {
        return true;
    }
    let threes = &threes[..n3];
    let packed = |m: [u16; 3]| m[0] as u64 | (m[1] as u64) << 16 | (m[2] as u64) << 32;
    let all = packed(full);
    let mut marked = 0u64;
    let mut r0 = full[0];
    while r0 != 0 {
        let v0 = r0.trailing_zeros() as usize;
        r0 &= r0 - 1;
        let mut m1 = full[1] & !partner[v0];
        if see01 {
            m1 &= !(1 << v0);
        }
        let mut m2_0 = full[2] & !partner[v0];
        if see02 {
            m2_0 &= !(1 << v0);
        }
        while m1 != 0 {
            let v1 = m1.trailing_zeros() as usize;
            m1 &= m1 - 1;
            let mut m2 = m2_0 & !partner[v1];
            if see12 {
                m2 &= !(1 << v1);
            }
            let set = (1u16 << v0) | (1 << v1);
            for &e in threes {
                let rest = e & !set;
                if rest & rest.wrapping_sub(1) == 0 {
                    m2 &= !rest;
                }
            }
            if m2 != 0 {
                marked |= packed([1 << v0, 1 << v1, m2]);
                if marked == all {
                    return true;
                }
            }
        }
    }
    false
}

/// Marks in `allowed` the digits of every possible combination of digits for three base cells
/// (candidates `full`) with excluders `ex` (two or three candidates each).
///
/// The hot path of aligned triplet exclusion (`cargo bench -p shudu-core --bench logic`, the
/// extreme band, where it runs at every chain step): rather than trying the up to 729
/// combinations one by one, each pair of digits `(v0, v1)` of the first two cells finds the
/// third cell's possible digits at once. With `S = {v0, v1}`, an excluder `e` is emptied by the
/// combination if and only if `e ⊆ S ∪ {v2}`: so an excluder inside `S` rules the pair out, and
/// one with a single digit `w` outside `S` rules out `v2 = w`. The marks are those of the
/// combination-by-combination search (same combinations), which stopped as soon as every
/// digit was marked; so does this.
fn triples(cells: &[usize], ex: &[u16], allowed: &mut [u16; 3], full: &[u16; 3]) {
    let see01 = sees(cells[0], cells[1]);
    let see02 = sees(cells[0], cells[2]);
    let see12 = sees(cells[1], cells[2]);
    for v0 in bits(full[0]) {
        let m1 = if see01 { full[1] & !(1 << v0) } else { full[1] };
        for v1 in bits(m1) {
            let set = (1u16 << v0) | (1 << v1);
            let mut m2 = full[2];
            if see02 {
                m2 &= !(1 << v0);
            }
            if see12 {
                m2 &= !(1 << v1);
            }
            for &e in ex {
                let rest = e & !set;
                if rest & rest.wrapping_sub(1) == 0 {
                    // At most one digit outside the pair: it cannot be the third cell's (and
                    // with none, the pair itself is impossible).
                    m2 &= !rest;
                    if rest == 0 {
                        m2 = 0;
                    }
                }
            }
            if m2 != 0 {
                allowed[0] |= 1 << v0;
                allowed[1] |= 1 << v1;
                allowed[2] |= m2;
                if allowed == full {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digits of each base cell in some possible combination, combination by combination.
    fn triples_plain(cells: &[usize], ex: &[u16], full: &[u16; 3]) -> [u16; 3] {
        let mut allowed = [0u16; 3];
        for v0 in bits(full[0]) {
            for v1 in bits(full[1]) {
                for v2 in bits(full[2]) {
                    let v = [v0, v1, v2];
                    let repeats = (0..3)
                        .any(|i| (i + 1..3).any(|j| v[i] == v[j] && sees(cells[i], cells[j])));
                    let set = 1u16 << v0 | 1 << v1 | 1 << v2;
                    if repeats || ex.iter().any(|&e| e & !set == 0) {
                        continue;
                    }
                    for i in 0..3 {
                        allowed[i] |= 1 << v[i];
                    }
                }
            }
        }
        allowed
    }

    #[test]
    fn excluder_digits_spell_each_set() {
        for e in 0u16..512 {
            let [x, y, z] = EXCLUDER_DIGITS[e as usize].map(usize::from);
            match e.count_ones() {
                2 => assert_eq!((y, 1 << x | 1 << z), (NONE, e), "{e:#b}"),
                3 => assert!(x < y && y < z && 1 << x | 1 << y | 1 << z == e, "{e:#b}"),
                _ => assert_eq!([x, y, z], [0, 0, 0]),
            }
        }
    }

    #[test]
    fn triple_test_matches_the_combinations() {
        // Random base cells (some sharing houses), candidates and excluders of two or three
        // digits: the same digits marked as by trying every combination.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut removed, mut kept, mut bound_kept) = (0, 0, 0);
        for _ in 0..20_000 {
            let cells = [0, 1, 2].map(|_| (next() % 81) as usize);
            if cells[0] == cells[1] || cells[0] == cells[2] || cells[1] == cells[2] {
                continue;
            }
            let full = [0, 1, 2].map(|_| {
                let mut m = 0u16;
                while m.count_ones() < 2 {
                    m |= 1 << (next() % 9) | 1 << (next() % 9);
                }
                m
            });
            let union = full[0] | full[1] | full[2];
            let digits: Vec<usize> = bits(union).collect();
            let mut ex = Vec::new();
            for _ in 0..next() % 7 {
                let mut e = 0u16;
                let size = 2 + (next() % 2) as u32;
                while e.count_ones() < size.min(digits.len() as u32) {
                    e |= 1 << digits[(next() % digits.len() as u64) as usize];
                }
                if next() % 5 == 0 {
                    // Sometimes a digit that may lie outside the base cells'.
                    e |= 1 << (next() % 9);
                }
                ex.push(e);
            }
            let mut allowed = [0u16; 3];
            triples(&cells, &ex, &mut allowed, &full);
            let plain = triples_plain(&cells, &ex, &full);
            assert_eq!(allowed, plain, "{cells:?} {full:?} {ex:?}");
            // The fast test, on a board with these candidates and excluders (in cells that
            // see none of the three, which it does not check).
            let empty: crate::Puzzle = ".".repeat(81).parse().expect("empty puzzle");
            let mut board = Board::new(&empty);
            for i in 0..3 {
                board.cands[cells[i]] = full[i];
            }
            let mut common = 0u128;
            let spare = (0..81).filter(|c| !cells.contains(c));
            for (&e, c) in ex.iter().zip(spare) {
                board.cands[c] = e;
                common |= 1 << c;
            }
            assert_eq!(
                triple_keeps_all(&board, cells, common),
                plain == full,
                "{cells:?} {full:?} {ex:?}"
            );
            // The pair's bound, with more excluders of the pair (that the third cell would not
            // see): when it says the triple keeps everything, it does.
            let mut pair_common = common;
            let spare = (0..81).filter(|c| !cells.contains(c) && common >> c & 1 == 0);
            for c in spare.take((next() % 3) as usize) {
                let mut e = 0u16;
                let size = 2 + (next() % 2) as u32;
                while e.count_ones() < size {
                    e |= 1 << (next() % 9);
                }
                board.cands[c] = e;
                pair_common |= 1 << c;
            }
            let bound = PairBound::new(&board, cells[0], cells[1], pair_common);
            if !bound.may_remove(full[2]) {
                assert_eq!(plain, full, "{cells:?} {full:?} {ex:?} {pair_common:x}");
                bound_kept += 1;
            }
            if plain == full {
                kept += 1;
            } else {
                removed += 1;
            }
        }
        assert!(
            removed > 1000 && kept > 1000 && bound_kept > kept / 4,
            "{removed} {kept} {bound_kept}"
        );
    }

    #[test]
    fn the_memos_never_change_the_step() {
        // The ninth puzzle has an aligned pair exclusion on its path.
        let boards = super::super::extreme_chain_boards(10);
        for degree in [2, 3] {
            let (mut with_memo, mut found) = (0, 0);
            for board in &boards {
                // In path order the memo skips pairs or triples; a cleared memo tests them all.
                let kept = aligned_exclusion(board, degree);
                let memo = MEMO.with_borrow(|m| (m[degree - 2].valid, m[degree - 2].cands));
                MEMO.with_borrow_mut(|m| m[degree - 2].valid = false);
                let fresh = aligned_exclusion(board, degree);
                assert_eq!(kept, fresh);
                MEMO.with_borrow_mut(|m| (m[degree - 2].valid, m[degree - 2].cands) = memo);
                with_memo += memo.0 as usize;
                found += fresh.is_some() as usize;
            }
            assert!(with_memo > 50, "{with_memo} searches used the memo");
            assert!(found > 0, "degree {degree}");
        }
    }

    #[test]
    fn kept_seeing_two_entries_hold_for_their_excluders() {
        // Along the chain boards of six extreme-band paths, after each search: every entry of
        // the table is `seeing_two` of the excluders it was kept with, and the search's base
        // cells left entries of their current excluders (those with a second cell to look for).
        let boards = super::super::extreme_chain_boards(6);
        let mut current = 0;
        for board in &boards {
            for degree in [2, 3] {
                aligned_exclusion(board, degree);
                let Bases {
                    base, excluders, ..
                } = bases(board, degree);
                SEEN_BY_TWO.with_borrow(|seen| {
                    for (c, &[key, two]) in seen[degree - 2].iter().enumerate() {
                        assert_eq!(two, seeing_two(key), "cell {c}");
                    }
                    current += base
                        .iter()
                        .filter(|&&a| seen[degree - 2][a][0] == excluders[a])
                        .count();
                });
            }
        }
        assert!(current > 1000, "{current}");
    }

    #[test]
    fn the_shortcuts_never_change_the_step() {
        // Along the paths of ten extreme-band puzzles, in path order (memo and shortcuts), the
        // step of a search of every pair and triple with a cleared memo and no shortcuts.
        let boards = super::super::extreme_chain_boards(10);
        for degree in [2, 3] {
            let mut found = 0;
            for board in &boards {
                let kept = aligned_exclusion(board, degree);
                let memo = MEMO.with_borrow(|m| (m[degree - 2].valid, m[degree - 2].cands));
                MEMO.with_borrow_mut(|m| m[degree - 2].valid = false);
                let plain = search(board, degree, false);
                assert_eq!(kept, plain);
                MEMO.with_borrow_mut(|m| (m[degree - 2].valid, m[degree - 2].cands) = memo);
                found += plain.is_some() as usize;
            }
            assert!(found > 0, "degree {degree}");
        }
    }

    #[test]
    fn listed_before_names_the_triples_listed_earlier() {
        // Every triple the search lists (no memo, no shortcuts), on the chain boards of four
        // extreme-band paths: `listed_before` holds its third cell if and only if the same
        // three cells were listed before in another order.
        let mut listed = 0;
        let mut again = 0;
        for board in super::super::extreme_chain_boards(4) {
            let Bases {
                base,
                excluders,
                small,
                ..
            } = bases(&board, 3);
            let base_mask: u128 = base.iter().fold(0, |m, &c| m | 1 << c);
            let mut seen = std::collections::HashSet::new();
            for &a in &base {
                let mut seconds = seeing_two(excluders[a]) & base_mask & !((2u128 << a) - 1);
                while seconds != 0 {
                    let b = seconds.trailing_zeros() as usize;
                    seconds &= seconds - 1;
                    let pair_common = excluders[a] & excluders[b];
                    let twin = (excluders[a] | excluders[b]) & base_mask & !(1 << a) & !(1 << b);
                    let mut rest = twin & seeing_two(pair_common);
                    let before = listed_before(a, b, small);
                    while rest != 0 {
                        let t = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let mut key = [a, b, t];
                        key.sort_unstable();
                        assert_eq!(before >> t & 1 == 1, seen.contains(&key), "{a} {b} {t}");
                        again += !seen.insert(key) as usize;
                        listed += 1;
                    }
                }
            }
        }
        assert!(listed > 10_000 && again > listed / 5, "{listed} {again}");
    }
}
