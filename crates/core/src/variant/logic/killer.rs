//! Killer techniques: a cage's combinations, and the innies and outies of the rule of the
//! house sum (a house holds 1 to n once, so its digits add up to n(n+1)/2).

use super::{digits_text, text, Board, Layout, VariantStep};
use crate::logic::Rating;
use crate::variant::symbol;

/// What a set of cells whose digits add up to `target` can hold: per cell the digits that take
/// part in some filling, and the digit sets of the fillings (for cells that all differ). `None`
/// when nothing fits. `distinct` says the cells all see each other (a cage); otherwise two
/// cells may repeat a digit unless the rules make them differ (innies and outies).
pub(crate) fn fillings(
    l: &Layout,
    cand: &[u16],
    cells: &[usize],
    target: i64,
    distinct: bool,
) -> Option<(Vec<u16>, Vec<u16>)> {
    if cells.is_empty() {
        return (target == 0).then(|| (Vec::new(), vec![0]));
    }
    if distinct {
        distinct_fillings(cand, cells, target)
    } else {
        let mut allowed = vec![0u16; cells.len()];
        let mut sets = Vec::new();
        let mut chosen = Vec::with_capacity(cells.len());
        search(l, cand, cells, target, &mut chosen, &mut allowed, &mut sets);
        allowed.iter().all(|&a| a != 0).then_some((allowed, sets))
    }
}

fn search(
    l: &Layout,
    cand: &[u16],
    cells: &[usize],
    left: i64,
    chosen: &mut Vec<u8>,
    allowed: &mut [u16],
    sets: &mut Vec<u16>,
) {
    let i = chosen.len();
    if i == cells.len() {
        if left == 0 {
            let mut set = 0;
            for (j, &d) in chosen.iter().enumerate() {
                allowed[j] |= 1 << d;
                set |= 1 << d;
            }
            if !sets.contains(&set) {
                sets.push(set);
            }
        }
        return;
    }
    let rest = (cells.len() - i - 1) as i64;
    for d in 0..l.n as u8 {
        let v = d as i64 + 1;
        if cand[cells[i]] & 1 << d == 0 || v > left - rest || v + rest * (l.n as i64) < left {
            continue;
        }
        if (0..i).any(|j| chosen[j] == d && l.sees(cells[j], cells[i])) {
            continue;
        }
        chosen.push(d);
        search(l, cand, cells, left - v, chosen, allowed, sets);
        chosen.pop();
    }
}

/// Digit sum of a mask (bit `d` is digit `d + 1`).
fn mask_sum(m: u16) -> i64 {
    (0..16).filter(|d| m >> d & 1 != 0).map(|d| d + 1).sum()
}

/// The fillings of cells that all differ: layers of the sets of digits used so far, forward
/// then back from the sets that add up to the target.
fn distinct_fillings(cand: &[u16], cells: &[usize], target: i64) -> Option<(Vec<u16>, Vec<u16>)> {
    let k = cells.len();
    let mut layers: Vec<Vec<u16>> = vec![vec![0]];
    for &c in cells {
        let mut next = Vec::new();
        let mut seen = vec![0u64; 1024];
        for &m in layers.last().unwrap_or(&Vec::new()) {
            let mut free = cand[c] & !m;
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free &= free - 1;
                let x = m | bit;
                if seen[x as usize / 64] >> (x % 64) & 1 == 0 {
                    seen[x as usize / 64] |= 1 << (x % 64);
                    next.push(x);
                }
            }
        }
        layers.push(next);
    }
    let mut good = vec![0u64; 1024];
    let sets: Vec<u16> = layers[k]
        .iter()
        .copied()
        .filter(|&m| mask_sum(m) == target)
        .collect();
    if sets.is_empty() {
        return None;
    }
    for &m in &sets {
        good[m as usize / 64] |= 1 << (m % 64);
    }
    let mut allowed = vec![0u16; k];
    for i in (0..k).rev() {
        let mut prev_good = vec![0u64; 1024];
        for &m in &layers[i] {
            let mut free = cand[cells[i]] & !m;
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free &= free - 1;
                let x = m | bit;
                if good[x as usize / 64] >> (x % 64) & 1 != 0 {
                    allowed[i] |= bit;
                    prev_good[m as usize / 64] |= 1 << (m % 64);
                }
            }
        }
        good = prev_good;
    }
    Some((allowed, sets))
}

fn fillings_text(sets: &[u16]) -> String {
    let shown: Vec<String> = sets
        .iter()
        .take(4)
        .map(|&m| {
            (0..16u8)
                .filter(|d| m >> d & 1 != 0)
                .map(|d| symbol(d + 1).to_string())
                .collect::<Vec<_>>()
                .join("+")
        })
        .collect();
    let more = if sets.len() > 4 { " or others" } else { "" };
    format!("{}{more}", shown.join(" or "))
}

/// What each of `cells` loses to `allowed`: "r1c1 loses 5, 6, r1c2 loses 9".
fn lost_text(l: &Layout, b: &Board, cells: &[usize], allowed: &[u16]) -> String {
    cells
        .iter()
        .zip(allowed)
        .filter(|(&c, &a)| b.cand[c] & !a != 0)
        .map(|(&c, &a)| format!("{} loses {}", l.cell_name(c), digits_text(b.cand[c] & !a)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A cage's empty cells and the sum they must make.
fn cage_left(b: &Board, cells: &[usize], sum: u32) -> (Vec<usize>, i64) {
    let empty: Vec<usize> = cells.iter().copied().filter(|&c| b.value[c] == 0).collect();
    let placed: i64 = cells.iter().map(|&c| b.value[c] as i64).sum();
    (empty, sum as i64 - placed)
}

/// Cage Combination (2.0): a cage's empty cells take only digits of the sets that make its
/// sum from their candidates.
pub(super) fn cage_combination(l: &Layout, b: &Board) -> Option<VariantStep> {
    for (cells, sum) in &l.cages {
        let Some(sum) = sum else { continue };
        let (empty, target) = cage_left(b, cells, *sum);
        if empty.is_empty() {
            continue;
        }
        let Some((allowed, sets)) = fillings(l, &b.cand, &empty, target, true) else {
            continue;
        };
        let mut elims = Vec::new();
        for (i, &c) in empty.iter().enumerate() {
            for d in 0..l.n {
                if b.cand[c] & !allowed[i] & 1 << d != 0 {
                    elims.push((c, d as u8 + 1));
                }
            }
        }
        if elims.is_empty() {
            continue;
        }
        let lost = lost_text(l, b, &empty, &allowed);
        let what = format!(
            "the cage at {} ({} cells, sum {sum}) has {} left to make in {} empty cell{}: {}; so {}",
            l.cell_name(cells[0]),
            cells.len(),
            target,
            empty.len(),
            if empty.len() == 1 { "" } else { "s" },
            fillings_text(&sets),
            lost
        );
        return Some(VariantStep {
            technique: "Cage Combination",
            rating: Rating(20),
            placements: vec![],
            eliminations: elims,
            cells: cells.clone(),
            houses: vec![],
            text: text("Cage Combination", what),
        });
    }
    None
}

/// Innies and outies: a set of whole houses adds up to a known total; the cages inside it
/// account for part, and the cells left over (innies), or the cells of its cut cages outside it
/// (outies), make the rest. One cell (Innie, Outie; 2.5) is placed; two to four (Innies,
/// Outies; 3.0) lose the digits no filling uses.
pub(super) fn innies_outies(l: &Layout, b: &Board, single: bool) -> Option<VariantStep> {
    let n = l.n;
    let total = (n * (n + 1) / 2) as i64;
    let mut areas: Vec<(Vec<usize>, String)> = Vec::new();
    for (h, house) in l.houses.iter().enumerate() {
        areas.push((vec![h], house.name()));
    }
    for run in 2..=n / 2 {
        for first in 0..=n - run {
            areas.push((
                (first..first + run).collect(),
                format!("rows {} to {}", first + 1, first + run),
            ));
            areas.push((
                (n + first..n + first + run).collect(),
                format!("columns {} to {}", first + 1, first + run),
            ));
        }
    }
    for (hs, name) in areas {
        let mut inside = vec![false; n * n];
        for &h in &hs {
            for &c in &l.houses[h].cells {
                inside[c] = true;
            }
        }
        let whole = total * hs.len() as i64;
        let mut full_sum = 0i64;
        let mut in_full = vec![false; n * n];
        let mut cut: Vec<usize> = Vec::new();
        for (i, (cells, sum)) in l.cages.iter().enumerate() {
            let ins = cells.iter().filter(|&&c| inside[c]).count();
            if ins == 0 {
                continue;
            }
            match sum {
                Some(s) if ins == cells.len() => {
                    full_sum += *s as i64;
                    for &c in cells {
                        in_full[c] = true;
                    }
                }
                _ if ins < cells.len() => cut.push(i),
                _ => {}
            }
        }
        let innies: Vec<usize> = (0..n * n).filter(|&c| inside[c] && !in_full[c]).collect();
        if innies.is_empty() {
            continue;
        }
        let inner = whole - full_sum;
        let mut tries: Vec<(&'static str, Vec<usize>, i64)> =
            vec![("Innie", innies.clone(), inner)];
        let all_cut = innies
            .iter()
            .all(|&c| l.cage_of[c].is_some_and(|k| cut.contains(&k)));
        if all_cut && cut.iter().all(|&k| l.cages[k].1.is_some()) {
            let cut_sum: i64 = cut.iter().map(|&k| l.cages[k].1.unwrap_or(0) as i64).sum();
            let outies: Vec<usize> = cut
                .iter()
                .flat_map(|&k| l.cages[k].0.iter().copied())
                .filter(|&c| !inside[c])
                .collect();
            tries.push(("Outie", outies, cut_sum - inner));
        }
        for (kind, cells, sum) in tries {
            let placed: i64 = cells.iter().map(|&c| b.value[c] as i64).sum();
            let empty: Vec<usize> = cells.iter().copied().filter(|&c| b.value[c] == 0).collect();
            let left = sum - placed;
            let many = empty.len() > 1;
            if empty.is_empty() || many == single || empty.len() > 4 {
                continue;
            }
            let words = format!(
                "{name} adds up to {whole}; the cages wholly inside make {full_sum}, so {} {} make{} {left}",
                if kind == "Innie" { "the cells left inside," } else { "the cut cages' cells outside," },
                l.cells_text(&empty),
                if many { "" } else { "s" },
            );
            if !many {
                let c = empty[0];
                if left < 1 || left > n as i64 || b.cand[c] & 1 << (left - 1) == 0 {
                    continue;
                }
                let d = left as u8;
                return Some(VariantStep {
                    technique: if kind == "Innie" { "Innie" } else { "Outie" },
                    rating: Rating(25),
                    placements: vec![(c, d)],
                    eliminations: vec![],
                    cells: vec![c],
                    houses: hs.clone(),
                    text: text(
                        kind,
                        format!("{words}: {} is {}", l.cell_name(c), symbol(d)),
                    ),
                });
            }
            let distinct = empty
                .iter()
                .enumerate()
                .all(|(i, &a)| empty[i + 1..].iter().all(|&c| l.sees(a, c)));
            let Some((allowed, _)) = fillings(l, &b.cand, &empty, left, distinct) else {
                continue;
            };
            let mut elims = Vec::new();
            for (i, &c) in empty.iter().enumerate() {
                for d in 0..n {
                    if b.cand[c] & !allowed[i] & 1 << d != 0 {
                        elims.push((c, d as u8 + 1));
                    }
                }
            }
            if elims.is_empty() {
                continue;
            }
            let technique = if kind == "Innie" { "Innies" } else { "Outies" };
            let lost = lost_text(l, b, &empty, &allowed);
            return Some(VariantStep {
                technique,
                rating: Rating(30),
                placements: vec![],
                eliminations: elims,
                cells: empty,
                houses: hs.clone(),
                text: text(technique, format!("{words}: {lost}")),
            });
        }
    }
    None
}

/// Cage Locked Digit (2.6, as pointing): a digit every filling of a cage uses lies in one of
/// the cage's cells that can hold it, so any other cell seeing all of those loses it.
pub(super) fn cage_locked_digit(l: &Layout, b: &Board) -> Option<VariantStep> {
    for (cells, sum) in &l.cages {
        let Some(sum) = sum else { continue };
        let (empty, target) = cage_left(b, cells, *sum);
        if empty.len() < 2 {
            continue;
        }
        let Some((_, sets)) = fillings(l, &b.cand, &empty, target, true) else {
            continue;
        };
        let required = sets.iter().fold(u16::MAX, |m, &s| m & s);
        for d in 0..l.n {
            if required & 1 << d == 0 {
                continue;
            }
            let holders: Vec<usize> = empty
                .iter()
                .copied()
                .filter(|&c| b.cand[c] & 1 << d != 0)
                .collect();
            let elims: Vec<(usize, u8)> = (0..l.n * l.n)
                .filter(|&x| {
                    b.cand[x] & 1 << d != 0
                        && !cells.contains(&x)
                        && holders.iter().all(|&h| l.sees(x, h))
                })
                .map(|x| (x, d as u8 + 1))
                .collect();
            if elims.is_empty() {
                continue;
            }
            let ds = symbol(d as u8 + 1);
            let what = format!(
                "every way to make the cage at {} ({} cells, sum {sum}) uses {ds} ({}), so {ds} is in {}; {} see{} all of them and lose{} {ds}",
                l.cell_name(cells[0]),
                cells.len(),
                fillings_text(&sets),
                l.cells_text(&holders),
                l.cells_text(&elims.iter().map(|e| e.0).collect::<Vec<_>>()),
                if elims.len() == 1 { "s" } else { "" },
                if elims.len() == 1 { "s" } else { "" },
            );
            return Some(VariantStep {
                technique: "Cage Locked Digit",
                rating: Rating(26),
                placements: vec![],
                eliminations: elims,
                cells: holders,
                houses: vec![],
                text: text("Cage Locked Digit", what),
            });
        }
    }
    None
}
