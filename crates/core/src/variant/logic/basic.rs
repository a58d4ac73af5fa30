//! The techniques that hold for any set of houses: singles, locked candidates, naked and hidden
//! subsets (and SE's "direct" forms), fish on rows and columns, XY- and XYZ-Wing.

use super::{digits_text, text, Board, Layout, VariantStep};
use crate::logic::Rating;
use crate::variant::symbol;

fn step(
    technique: &'static str,
    rating: u16,
    placements: Vec<(usize, u8)>,
    eliminations: Vec<(usize, u8)>,
    cells: Vec<usize>,
    houses: Vec<usize>,
    what: String,
) -> VariantStep {
    VariantStep {
        technique,
        rating: Rating(rating),
        placements,
        eliminations,
        cells,
        houses,
        text: text(technique, what),
    }
}

/// A house with one empty cell: it takes the digit the house lacks (1.0).
pub(super) fn full_house(l: &Layout, b: &Board) -> Option<VariantStep> {
    for (h, house) in l.houses.iter().enumerate() {
        let mut empty = house.cells.iter().filter(|&&c| b.value[c] == 0);
        let (Some(&c), None) = (empty.next(), empty.next()) else {
            continue;
        };
        let have: u16 = house
            .cells
            .iter()
            .filter(|&&x| b.value[x] != 0)
            .fold(0, |m, &x| m | 1 << (b.value[x] - 1));
        let lack = !have & ((1u32 << l.n) - 1) as u16;
        if lack.count_ones() != 1 || b.cand[c] & lack == 0 {
            continue;
        }
        let d = lack.trailing_zeros() as u8 + 1;
        return Some(step(
            "Full House",
            10,
            vec![(c, d)],
            vec![],
            vec![c],
            vec![h],
            format!(
                "{} is the last empty cell of {}: it takes {}",
                l.cell_name(c),
                house.name(),
                symbol(d)
            ),
        ));
    }
    None
}

/// A digit with one place in a house: in a box, region or window (1.2), in a line (1.5).
pub(super) fn hidden_single(l: &Layout, b: &Board) -> Option<VariantStep> {
    for boxes in [true, false] {
        for (h, house) in l.houses.iter().enumerate() {
            if house.kind.is_box() != boxes {
                continue;
            }
            for d in 0..l.n {
                let mut places = b.places(house, d);
                if let (Some(c), None) = (places.next(), places.next()) {
                    let d8 = d as u8 + 1;
                    return Some(step(
                        "Hidden Single",
                        if boxes { 12 } else { 15 },
                        vec![(c, d8)],
                        vec![],
                        vec![c],
                        vec![h],
                        format!(
                            "in {}, {} fits only {}",
                            house.name(),
                            symbol(d8),
                            l.cell_name(c)
                        ),
                    ));
                }
            }
        }
    }
    None
}

/// A cell with one candidate (2.3).
pub(super) fn naked_single(l: &Layout, b: &Board) -> Option<VariantStep> {
    let c = (0..l.n * l.n).find(|&c| b.value[c] == 0 && b.cand[c].count_ones() == 1)?;
    let d = b.cand[c].trailing_zeros() as u8 + 1;
    Some(step(
        "Naked Single",
        23,
        vec![(c, d)],
        vec![],
        vec![c],
        l.cell_houses[c].clone(),
        format!("{} can only be {}", l.cell_name(c), symbol(d)),
    ))
}

/// Locked candidates: a digit's places in house A all lie in house B, so the rest of B loses
/// it. A box (region, window) as A is SE's pointing (2.6), a line as A its claiming (2.8). The
/// direct forms (1.7, 1.9) are those whose eliminations leave a hidden single of the digit in
/// another house of A's kind; they place it.
pub(super) fn intersection(l: &Layout, b: &Board, direct: bool) -> Option<VariantStep> {
    for pointing in [true, false] {
        for (a, bh, shared) in &l.intersections {
            let (ha, hb) = (&l.houses[*a], &l.houses[*bh]);
            if ha.kind.is_box() != pointing {
                continue;
            }
            for d in 0..l.n {
                let bit = 1u16 << d;
                let mut places = b.places(ha, d).peekable();
                if places.peek().is_none() || !places.all(|c| shared.contains(&c)) {
                    continue;
                }
                let elims: Vec<usize> = hb
                    .cells
                    .iter()
                    .copied()
                    .filter(|c| b.cand[*c] & bit != 0 && !shared.contains(c))
                    .collect();
                if elims.is_empty() {
                    continue;
                }
                let name_a = ha.name();
                let name_b = hb.name();
                let d8 = d as u8 + 1;
                let why = format!(
                    "in {name_a}, {} lies only where it meets {name_b}; the rest of {name_b} loses it ({})",
                    symbol(d8),
                    l.cells_text(&elims)
                );
                let place_cells: Vec<usize> = shared
                    .iter()
                    .copied()
                    .filter(|&c| b.cand[c] & bit != 0)
                    .collect();
                if direct {
                    // A hidden single the eliminations leave in another house of A's kind.
                    for (h, house) in l.houses.iter().enumerate() {
                        if h == *a
                            || !same_kind(house.kind, ha.kind)
                            || !elims.iter().any(|c| house.cells.contains(c))
                        {
                            continue;
                        }
                        let mut left = b.places(house, d).filter(|c| !elims.contains(c));
                        if let (Some(c), None) = (left.next(), left.next()) {
                            let (name, rating) = if pointing {
                                ("Direct Pointing", 17)
                            } else {
                                ("Direct Claiming", 19)
                            };
                            let mut cells = place_cells.clone();
                            cells.push(c);
                            return Some(step(
                                name,
                                rating,
                                vec![(c, d8)],
                                vec![],
                                cells,
                                vec![*a, *bh, h],
                                format!(
                                    "{why}, and then in {} {} fits only {}",
                                    house.name(),
                                    symbol(d8),
                                    l.cell_name(c)
                                ),
                            ));
                        }
                    }
                } else {
                    let (name, rating) = if pointing {
                        ("Pointing", 26)
                    } else {
                        ("Claiming", 28)
                    };
                    return Some(step(
                        name,
                        rating,
                        vec![],
                        elims.iter().map(|&c| (c, d8)).collect(),
                        place_cells,
                        vec![*a, *bh],
                        why,
                    ));
                }
            }
        }
    }
    None
}

/// Houses of one kind for SE's direct forms: boxes with boxes (regions with regions), rows
/// with rows, columns with columns.
fn same_kind(a: super::HouseKind, b: super::HouseKind) -> bool {
    use super::HouseKind::*;
    a == b || matches!((a, b), (Diagonal, AntiDiagonal) | (AntiDiagonal, Diagonal))
}

/// Calls `f` with every `k`-subset of `items` until it returns `Some`.
pub(super) fn subsets<T>(
    items: &[usize],
    k: usize,
    f: &mut impl FnMut(&[usize]) -> Option<T>,
) -> Option<T> {
    fn go<T>(
        items: &[usize],
        k: usize,
        start: usize,
        chosen: &mut Vec<usize>,
        f: &mut impl FnMut(&[usize]) -> Option<T>,
    ) -> Option<T> {
        if chosen.len() == k {
            return f(chosen);
        }
        for i in start..items.len() {
            if items.len() - i < k - chosen.len() {
                break;
            }
            chosen.push(items[i]);
            let r = go(items, k, i + 1, chosen, f);
            chosen.pop();
            if r.is_some() {
                return r;
            }
        }
        None
    }
    go(items, k, 0, &mut Vec::with_capacity(k), f)
}

/// `k` cells of a house with `k` candidates between them: the rest of the house loses them
/// (pair 3.0, triplet 3.6, quad 5.0; as SE, in houses of at least `2k` empty cells).
pub(super) fn naked_subset(l: &Layout, b: &Board, k: usize) -> Option<VariantStep> {
    for &h in &l.se_order {
        let house = &l.houses[h];
        let empty: Vec<usize> = house
            .cells
            .iter()
            .copied()
            .filter(|&c| b.value[c] == 0)
            .collect();
        if empty.len() < 2 * k {
            continue;
        }
        let small: Vec<usize> = empty
            .iter()
            .copied()
            .filter(|&c| (b.cand[c].count_ones() as usize) <= k)
            .collect();
        let found = subsets(&small, k, &mut |set| {
            let union = set.iter().fold(0u16, |m, &c| m | b.cand[c]);
            if union.count_ones() as usize != k {
                return None;
            }
            let mut elims = Vec::new();
            for &c in &empty {
                if !set.contains(&c) && b.cand[c] & union != 0 {
                    for d in 0..l.n {
                        if b.cand[c] & union & 1 << d != 0 {
                            elims.push((c, d as u8 + 1));
                        }
                    }
                }
            }
            (!elims.is_empty()).then(|| (set.to_vec(), union, elims))
        });
        if let Some((set, union, elims)) = found {
            let name = match k {
                2 => "Naked Pair",
                3 => "Naked Triplet",
                _ => "Naked Quad",
            };
            let rating = [0, 0, 30, 36, 50][k];
            let what = format!(
                "{} of {} hold only {} between them: the rest of {} loses them",
                l.cells_text(&set),
                house.name(),
                digits_text(union),
                house.name()
            );
            return Some(step(name, rating, vec![], elims, set, vec![h], what));
        }
    }
    None
}

/// `k` digits with `k` places between them in a house: those cells lose every other digit
/// (pair 3.4, triplet 4.0, quad 5.4; in houses of more than `2k` empty cells). The direct
/// forms (pair 2.0, triplet 2.5) are those whose eliminations leave a hidden single of another
/// digit in the same house; they place it.
pub(super) fn hidden_subset(l: &Layout, b: &Board, k: usize, direct: bool) -> Option<VariantStep> {
    for &h in &l.se_order {
        let house = &l.houses[h];
        let empty = house.cells.iter().filter(|&&c| b.value[c] == 0).count();
        if empty <= if direct { k } else { 2 * k } {
            continue;
        }
        let digits: Vec<usize> = (0..l.n)
            .filter(|&d| {
                let n = b.places(house, d).count();
                n >= 1 && n <= k && !b.placed_in(house, d)
            })
            .collect();
        let found = subsets(&digits, k, &mut |set| {
            let mask = set.iter().fold(0u16, |m, &d| m | 1 << d);
            let mut cells: Vec<usize> = Vec::new();
            for &d in set {
                for c in b.places(house, d) {
                    if !cells.contains(&c) {
                        cells.push(c);
                    }
                }
            }
            if cells.len() != k {
                return None;
            }
            cells.sort_unstable();
            let mut elims = Vec::new();
            for &c in &cells {
                for d in 0..l.n {
                    if b.cand[c] & !mask & 1 << d != 0 {
                        elims.push((c, d as u8 + 1));
                    }
                }
            }
            if elims.is_empty() {
                return None;
            }
            if !direct {
                return Some((cells, mask, elims, None));
            }
            // Another digit left with one place in the house.
            for e in 0..l.n {
                if mask & 1 << e != 0 || b.placed_in(house, e) {
                    continue;
                }
                let mut left = b.places(house, e).filter(|c| !cells.contains(c));
                if let (Some(c), None) = (left.next(), left.next()) {
                    if b.places(house, e).count() > 1 {
                        return Some((cells, mask, elims, Some((c, e as u8 + 1))));
                    }
                }
            }
            None
        });
        if let Some((cells, mask, elims, single)) = found {
            let what = format!(
                "in {}, {} fit only {}: those cells lose every other digit",
                house.name(),
                digits_text(mask),
                l.cells_text(&cells)
            );
            return Some(match single {
                Some((c, d)) => {
                    let name = if k == 2 {
                        "Direct Hidden Pair"
                    } else {
                        "Direct Hidden Triplet"
                    };
                    let mut shown = cells.clone();
                    shown.push(c);
                    step(
                        name,
                        if k == 2 { 20 } else { 25 },
                        vec![(c, d)],
                        vec![],
                        shown,
                        vec![h],
                        format!(
                            "{what}, and then {} fits only {}",
                            symbol(d),
                            l.cell_name(c)
                        ),
                    )
                }
                None => {
                    let name = ["", "", "Hidden Pair", "Hidden Triplet", "Hidden Quad"][k];
                    step(
                        name,
                        [0, 0, 34, 40, 54][k],
                        vec![],
                        elims,
                        cells,
                        vec![h],
                        what,
                    )
                }
            });
        }
    }
    None
}

/// Fish on rows and columns: `k` base lines where a digit's places lie in `k` cover lines,
/// which lose it elsewhere (X-Wing 3.2, Swordfish 3.8, Jellyfish 5.2).
pub(super) fn fish(l: &Layout, b: &Board, k: usize) -> Option<VariantStep> {
    let n = l.n;
    let (name, rating) = match k {
        2 => ("X-Wing", 32),
        3 => ("Swordfish", 38),
        _ => ("Jellyfish", 52),
    };
    for d in 0..n {
        let bit = 1u16 << d;
        for rows in [true, false] {
            // The base lines: houses 0..n (rows) or n..2n (columns).
            let at = |line: usize, i: usize| if rows { line * n + i } else { i * n + line };
            let lines: Vec<(usize, u32)> = (0..n)
                .filter_map(|line| {
                    let mut m = 0u32;
                    for i in 0..n {
                        if b.cand[at(line, i)] & bit != 0 {
                            m |= 1 << i;
                        }
                    }
                    (m.count_ones() >= 2 && m.count_ones() as usize <= k).then_some((line, m))
                })
                .collect();
            let ids: Vec<usize> = (0..lines.len()).collect();
            let found = subsets(&ids, k, &mut |set| {
                let cover = set.iter().fold(0u32, |m, &i| m | lines[i].1);
                if cover.count_ones() as usize != k {
                    return None;
                }
                let base: Vec<usize> = set.iter().map(|&i| lines[i].0).collect();
                let mut elims = Vec::new();
                for i in 0..n {
                    if cover >> i & 1 == 0 {
                        continue;
                    }
                    for line in 0..n {
                        let c = at(line, i);
                        if !base.contains(&line) && b.cand[c] & bit != 0 {
                            elims.push((c, d as u8 + 1));
                        }
                    }
                }
                (!elims.is_empty()).then_some((base, cover, elims))
            });
            if let Some((base, cover, elims)) = found {
                let cover_lines: Vec<usize> = (0..n).filter(|i| cover >> i & 1 != 0).collect();
                let base_h: Vec<usize> =
                    base.iter().map(|&x| if rows { x } else { n + x }).collect();
                let cover_h: Vec<usize> = cover_lines
                    .iter()
                    .map(|&x| if rows { n + x } else { x })
                    .collect();
                let names = |hs: &[usize]| {
                    hs.iter()
                        .map(|&h| l.houses[h].name())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let mut cells = Vec::new();
                for &x in &base {
                    for &y in &cover_lines {
                        if b.cand[at(x, y)] & bit != 0 {
                            cells.push(at(x, y));
                        }
                    }
                }
                let what = format!(
                    "in {}, {} lies only in {}: the rest of those lose it",
                    names(&base_h),
                    symbol(d as u8 + 1),
                    names(&cover_h)
                );
                let mut houses = base_h;
                houses.extend(cover_h);
                return Some(step(name, rating, vec![], elims, cells, houses, what));
            }
        }
    }
    None
}

/// XY-Wing (4.2): a pivot {x,y} seeing pincers {x,z} and {y,z}; a cell seeing both pincers
/// cannot be z.
pub(super) fn xy_wing(l: &Layout, b: &Board) -> Option<VariantStep> {
    wing(l, b, false)
}

/// XYZ-Wing (4.4): a pivot {x,y,z} seeing pincers {x,z} and {y,z}; a cell seeing all three
/// cannot be z.
pub(super) fn xyz_wing(l: &Layout, b: &Board) -> Option<VariantStep> {
    wing(l, b, true)
}

fn wing(l: &Layout, b: &Board, xyz: bool) -> Option<VariantStep> {
    let want = if xyz { 3 } else { 2 };
    for pivot in 0..l.n * l.n {
        let pc = b.cand[pivot];
        if b.value[pivot] != 0 || pc.count_ones() != want {
            continue;
        }
        let pincers: Vec<usize> = l.peers[pivot]
            .iter()
            .copied()
            .filter(|&p| {
                let m = b.cand[p];
                b.value[p] == 0 && m.count_ones() == 2 && {
                    if xyz {
                        m & pc == m
                    } else {
                        (m & pc).count_ones() == 1
                    }
                }
            })
            .collect();
        for (i, &p) in pincers.iter().enumerate() {
            for &q in &pincers[i + 1..] {
                let (mp, mq) = (b.cand[p], b.cand[q]);
                if mp == mq {
                    continue;
                }
                let z = mp & mq;
                if z.count_ones() != 1 {
                    continue;
                }
                if xyz {
                    if mp | mq != pc {
                        continue;
                    }
                } else if z & pc != 0 || (mp | mq) & !z != pc {
                    continue;
                }
                let elims: Vec<(usize, u8)> = (0..l.n * l.n)
                    .filter(|&c| {
                        c != p
                            && c != q
                            && c != pivot
                            && b.cand[c] & z != 0
                            && l.sees(c, p)
                            && l.sees(c, q)
                            && (!xyz || l.sees(c, pivot))
                    })
                    .map(|c| (c, z.trailing_zeros() as u8 + 1))
                    .collect();
                if elims.is_empty() {
                    continue;
                }
                let (name, rating) = if xyz {
                    ("XYZ-Wing", 44)
                } else {
                    ("XY-Wing", 42)
                };
                let zs = symbol(z.trailing_zeros() as u8 + 1);
                let what = format!(
                    "pivot {} ({}) with pincers {} ({}) and {} ({}): one of them is {zs}, so {} {} not {zs}",
                    l.cell_name(pivot),
                    digits_text(pc),
                    l.cell_name(p),
                    digits_text(mp),
                    l.cell_name(q),
                    digits_text(mq),
                    l.cells_text(&elims.iter().map(|e| e.0).collect::<Vec<_>>()),
                    if elims.len() == 1 { "is" } else { "are" },
                );
                return Some(step(
                    name,
                    rating,
                    vec![],
                    elims,
                    vec![pivot, p, q],
                    vec![],
                    what,
                ));
            }
        }
    }
    None
}
