//! Finned fish: `n` base lines (rows, or columns) where a digit's places lie in `n` cover lines,
//! except some places (the fins) that all lie in one box. Either a fin holds the digit, or the
//! fish does and each cover line's digit is in a base line; in both cases the cells of the fin
//! box that lie in a cover line (outside the base lines) lose the digit. *Sashimi* when a base
//! line has fewer than two places in the cover (without the fins it would not be a fish).
//! X-Wing (n = 2), Swordfish (3), Jellyfish (4).
//!
//! SE has no finned fish. Its static chains cannot branch over a base line with three places, so
//! the elimination is usually proved by a Nishio or dynamic chain; the rating is that of the
//! cheapest SE chain that proves it (a sashimi X-Wing whose lines are strong links is a Turbot
//! Fish, 6.6).

use super::{digit, elims_of, index_list, line_house, mask_list, step, Masks, HOUSE};
use crate::bitset::House;
use crate::logic::{bits, Board, Figure, Step};

/// The technique names of finned fish, as in steps.
pub const NAMES: [&str; 6] = [
    "Finned X-Wing",
    "Sashimi X-Wing",
    "Finned Swordfish",
    "Sashimi Swordfish",
    "Finned Jellyfish",
    "Sashimi Jellyfish",
];

/// Every finned fish: sizes 2 to 4, digits ascending, rows as base lines first, base line sets
/// and cover sets in increasing order of their masks.
pub(crate) fn find(board: &Board, masks: &Masks, out: &mut Vec<Step>) {
    for n in 2..=4u32 {
        for d in 0..9 {
            for rows in [true, false] {
                fish(board, masks, n, d, rows, out);
            }
        }
    }
}

fn fish(board: &Board, masks: &Masks, n: u32, d: usize, rows: bool, out: &mut Vec<Step>) {
    let house = |l: usize, base: bool| if rows == base { l } else { 9 + l };
    // lines[k]: the cover indices of d's places in base line k.
    let lines: [u16; 9] = std::array::from_fn(|k| board.positions(house(k, true), d));
    // Base lines hold two to n + 3 places (at most three fins, in one box).
    let mut usable = 0u16;
    for (k, &m) in lines.iter().enumerate() {
        let c = m.count_ones();
        if c >= 2 && c <= n + 3 {
            usable |= 1 << k;
        }
    }
    // Base line sets: the n-subsets of the usable lines, as masks.
    for base in subsets(usable, n) {
        let union = bits(base).fold(0u16, |m, k| m | lines[k]);
        let total = union.count_ones();
        if total <= n || total > n + 3 {
            continue;
        }
        let base_cells: u128 = bits(base).fold(0, |m, k| m | HOUSE[house(k, true)]);
        let here = masks.cand[d] & base_cells;
        for cover in subsets(union, n) {
            // Every base line reaches the cover (else the fish is not a fish).
            if bits(base).any(|k| lines[k] & cover == 0) {
                continue;
            }
            let cover_cells: u128 = bits(cover).fold(0, |m, x| m | HOUSE[house(x, false)]);
            let fins = here & !cover_cells;
            let fin_box =
                fins.trailing_zeros() as usize / 27 * 3 + fins.trailing_zeros() as usize % 9 / 3;
            if fins & !HOUSE[18 + fin_box] != 0 {
                continue;
            }
            let targets = masks.cand[d] & cover_cells & HOUSE[18 + fin_box] & !base_cells;
            if targets == 0 {
                continue;
            }
            debug_assert_eq!(targets & !super::seeing_all(fins), 0);
            let sashimi = bits(base).any(|k| (lines[k] & cover).count_ones() < 2);
            let k = (n as usize - 2) * 2 + sashimi as usize;
            let technique = NAMES[k];
            let v = digit(d);
            let base_h: Vec<House> = bits(base).map(|l| line_house(rows, l)).collect();
            let cover_h: Vec<House> = bits(cover).map(|x| line_house(!rows, x)).collect();
            let list = |hs: &[House]| {
                hs.iter()
                    .map(|h| h.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let fin_cells: Vec<usize> = super::cells_of(fins).collect();
            let text = format!(
                "{technique} on {v}: in {}, {v} goes only in {}, or in the fin{} {} (box {}). \
                 Either a fin is {v}, or the fish holds and {} take their {v}s from {}; \
                 so {}, in a cover line and in the fins' box, cannot be {v}",
                list(&base_h),
                list(&cover_h),
                if fin_cells.len() == 1 { "" } else { "s" },
                index_list(&fin_cells),
                fin_box + 1,
                list(&cover_h),
                list(&base_h),
                mask_list(targets),
            );
            let fig = Figure {
                base: base_h.clone(),
                cover: cover_h.clone(),
                fins: fin_cells.iter().map(|&c| super::cell(c)).collect(),
                links: crate::logic::fish::base_links(&bits(base).collect::<Vec<_>>(), |l| {
                    super::cells_of(here & HOUSE[house(l, true)])
                }),
            };
            let mut houses = base_h;
            houses.extend(cover_h);
            houses.push(House::Box(fin_box as u8));
            let cells: Vec<usize> = super::cells_of(here & (cover_cells | fins)).collect();
            let mut s = step(technique, elims_of(targets, d), cells, houses, text);
            s.figure = Some(Box::new(fig));
            out.push(s);
        }
    }
}

/// The subsets of `m` with `n` elements, in increasing order of their masks.
fn subsets(m: u16, n: u32) -> impl Iterator<Item = u16> {
    // Walks the submasks of m in increasing order ((sub | !m) + 1, kept to m's bits): 512 at
    // most; the walk ends when it wraps round to 0.
    let m = m as u32;
    let mut sub = 0u32;
    std::iter::from_fn(move || loop {
        sub = (sub | !m).wrapping_add(1) & m;
        if sub == 0 {
            return None;
        }
        if sub.count_ones() == n {
            return Some(sub as u16);
        }
    })
}
