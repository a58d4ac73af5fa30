//! The simple patterns SE's dynamic (+) searches find on a working grid when a propagation
//! stalls (pointing and claiming, hidden and naked pairs, X-Wings), read on the working grid's
//! place masks (docs/logic.md, "Bounds: nothing hangs").

use super::*;

/// The pairs of crossing houses in SE's order (`intersections::crossing_pairs`), each with the
/// places of the first house that lie in the second and those of the second in the first.
pub(super) static CROSS_PLACES: std::sync::LazyLock<Vec<(u8, u8, u16, u16)>> =
    std::sync::LazyLock::new(|| {
        let inside = |a: usize, b: usize| {
            (0..9).fold(0u16, |m, k| {
                m | (HOUSE_CELLS[b].contains(&HOUSE_CELLS[a][k]) as u16) << k
            })
        };
        crate::logic::intersections::crossing_pairs()
            .map(|(a, b)| (a as u8, b as u8, inside(a, b), inside(b, a)))
            .collect()
    });

/// Eliminations that simple techniques find on the working grid of a dynamic search (level 1,
/// SE's "(+)"): pointing and claiming, then hidden pairs, naked pairs, X-Wings (the first of
/// these that finds anything). Each elimination comes with the removals the pattern rests on
/// (its parents, all off potentials of this search); patterns that rest on no removal are
/// skipped, as they exist without the chain.
pub(super) fn advanced_offs(
    board: &Board,
    cur: &[u16; 81],
    cur_pos: &[[u16; 9]; 27],
    orig: &[u16; 81],
    orig_pos: &[[u16; 9]; 27],
) -> Vec<(Id, Vec<Id>, Option<Nest>)> {
    let mut out = Vec::new();
    let had = |c: usize, d: usize| orig[c] >> d & 1 == 1 && cur[c] >> d & 1 == 0;
    // Pointing and claiming, in SE's order of house pairs, on the places of each digit: its
    // places in `h1` all lie in `h2` (two or more), `h2` has places outside `h1` (removed),
    // and `h1` lost places outside `h2` (the parents).
    for &(h1, h2, in1, in2) in CROSS_PLACES.iter() {
        let (h1, h2) = (h1 as usize, h2 as usize);
        for d in 0..9 {
            let pos = cur_pos[h1][d];
            if pos & pos.wrapping_sub(1) == 0 || pos & !in1 != 0 {
                continue;
            }
            let elims = cur_pos[h2][d] & !in2;
            if elims == 0 {
                continue;
            }
            let lost = orig_pos[h1][d] & !pos & !in1;
            if lost != 0 {
                let parents: Vec<Id> = bits(lost)
                    .map(|k| id(HOUSE_CELLS[h1][k] as usize, d, false))
                    .collect();
                out.extend(bits(elims).map(|k| {
                    (
                        id(HOUSE_CELLS[h2][k] as usize, d, false),
                        parents.clone(),
                        None,
                    )
                }));
            }
        }
    }
    if !out.is_empty() {
        return out;
    }
    // Hidden pairs (houses: boxes, columns, rows; more than 4 empty cells): two digits with
    // one or two places each, two in all.
    for &h in crate::logic::SE_BCR.iter() {
        let h = h as usize;
        if board.empty_count(h) <= 4 {
            continue;
        }
        let pos: [u16; 9] = cur_pos[h];
        let (mut few, mut n) = ([0usize; 9], 0);
        for (d, &p) in pos.iter().enumerate() {
            let rest = p & p.wrapping_sub(1);
            if p != 0 && rest & rest.wrapping_sub(1) == 0 {
                few[n] = d;
                n += 1;
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (few[i], few[j]);
                if (pos[a] | pos[b]).count_ones() != 2 {
                    continue;
                }
                let set = pos[a] | pos[b];
                let pair = (1u16 << a) | (1 << b);
                let mut elims = Vec::new();
                for k in bits(set) {
                    let c = HOUSE_CELLS[h][k] as usize;
                    for v in bits(cur[c] & !pair) {
                        elims.push(id(c, v, false));
                    }
                }
                if elims.is_empty() {
                    continue;
                }
                let mut parents = Vec::new();
                for k in bits(0x1FF & !set) {
                    let c = HOUSE_CELLS[h][k] as usize;
                    for v in [a, b] {
                        if orig[c] >> v & 1 == 1 {
                            parents.push(id(c, v, false));
                        }
                    }
                }
                if !parents.is_empty() {
                    out.extend(elims.into_iter().map(|e| (e, parents.clone(), None)));
                }
            }
        }
    }
    if !out.is_empty() {
        return out;
    }
    // Naked pairs (houses with at least 4 empty cells).
    for &h in crate::logic::SE_BCR.iter() {
        let h = h as usize;
        if board.empty_count(h) < 4 {
            continue;
        }
        let (mut cells, mut n) = ([0usize; 9], 0);
        for &c in &HOUSE_CELLS[h] {
            if two_bits(cur[c as usize]) {
                cells[n] = c as usize;
                n += 1;
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                let (p, q) = (cells[i], cells[j]);
                if cur[p] != cur[q] {
                    continue;
                }
                let pair = cur[p];
                let elims: Vec<Id> = HOUSE_CELLS[h]
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| c != p && c != q)
                    .flat_map(|c| bits(cur[c] & pair).map(move |v| id(c, v, false)))
                    .collect();
                if elims.is_empty() {
                    continue;
                }
                let parents: Vec<Id> = [p, q]
                    .into_iter()
                    .flat_map(|c| bits(orig[c] & !pair).map(move |v| id(c, v, false)))
                    .collect();
                if !parents.is_empty() {
                    out.extend(elims.into_iter().map(|e| (e, parents.clone(), None)));
                }
            }
        }
    }
    if !out.is_empty() {
        return out;
    }
    // X-Wings: rows as base lines, then columns.
    for d in 0..9 {
        for rows in [true, false] {
            let line = |k: usize| if rows { k } else { 9 + k };
            let at = |l: usize, x: usize| if rows { l * 9 + x } else { x * 9 + l };
            let lines: [u16; 9] = std::array::from_fn(|k| cur_pos[line(k)][d]);
            for a in 0..9 {
                for b in a + 1..9 {
                    if lines[a].count_ones() != 2 || lines[b] != lines[a] {
                        continue;
                    }
                    let cover = lines[a];
                    let mut elims = Vec::new();
                    for x in bits(cover) {
                        for l in 0..9 {
                            if l != a && l != b && cur[at(l, x)] >> d & 1 == 1 {
                                elims.push(id(at(l, x), d, false));
                            }
                        }
                    }
                    if elims.is_empty() {
                        continue;
                    }
                    let parents: Vec<Id> = [a, b]
                        .into_iter()
                        .flat_map(|l| (0..9).map(move |x| (l, x)))
                        .filter(|&(l, x)| cover >> x & 1 == 0 && had(at(l, x), d))
                        .map(|(l, x)| id(at(l, x), d, false))
                        .collect();
                    if !parents.is_empty() {
                        out.extend(elims.into_iter().map(|e| (e, parents.clone(), None)));
                    }
                }
            }
        }
    }
    out
}
