//! Bands 2 and 3 of a random grid whose first band is given: the band completion of
//! docs/ALGORITHM.md, "Complete grids". No search and no solver: each step draws among the few
//! fillings that fit, and the rare misfit draws again.
//!
//! ```text
//!   1 2 3     band 1: given
//!   4 5 6     band 2: box 4 beside box 1 (the 56-way rule on columns), box 5's row sets by the
//!   7 8 9       56-way rule beside box 4, box 6's rows forced; each row of boxes 5 and 6 has
//!               exactly 2 orders that fit the columns above (or none: draw band 2 again)
//!             band 3: each column's 3 missing digits are forced; an order for each column of
//!               box 7 (6³ ways), then each column of boxes 8 and 9 has 2 orders (or none) that
//!               fit box 7's rows, box 8's 2³ choices are tried at once, and box 9 is forced
//! ```
//!
//! **Hot path** of `shudu grids` and `shudu -c` (`crates/tools/examples/grid_rate.rs`, `benches/grids.rs`).
//! The words are raw bit sets inside this module: a digit set is 9 bits (bit `d` for digit index
//! `d`), and a column's placement in band 3 is 27 bits, bit `9 * x + d` set if and only if digit
//! `d` sits in row `6 + x` of that column.

use rand::RngCore;

use super::{below, beside_sets, col_sets, row_sets, three_bits, transpose, ORDERS};

/// All nine digits.
const ALL: u32 = 0x1FF;

/// How many boxes 7 are drawn for one pair of bands 1 and 2 before band 2 is drawn again. About
/// one box 7 in two fits (1.92 draws a grid, docs/ALGORITHM.md); the bound was reached twice in
/// 100,000 grids, and keeps a band 2 that few or no boxes 7 fit from costing more than that.
const BOX7_TRIES: u32 = 64;

/// The orders (indices into [`ORDERS`]) that fit, as a 6-bit set, for each way three items can
/// be barred from one position each: entry `9 * f0 + 3 * f1 + f2` is for item `i` barred from
/// position `fi`, and order `o` fits if and only if no position `x` gets item `ORDERS[o][x]`
/// barred from `x`. If all three items are barred from the same position no order fits;
/// otherwise exactly two do (a rook placement on a 3 × 3 board with one cell struck from each
/// row, not all in one column).
const FITTING: [u8; 27] = {
    let mut table = [0u8; 27];
    let mut f = 0;
    while f < 27 {
        let barred = [f / 9, f / 3 % 3, f % 3];
        let mut o = 0;
        while o < 6 {
            let mut fits = true;
            let mut x = 0;
            while x < 3 {
                if barred[ORDERS[o][x]] == x {
                    fits = false;
                }
                x += 1;
            }
            if fits {
                table[f] |= 1 << o;
            }
            o += 1;
        }
        f += 1;
    }
    table
};

/// The position (0, 1 or 2) of the one set among `sets` (a partition of the digits) that holds
/// the digit bit `bit`.
#[inline]
fn position_of(bit: u32, sets: &[u32; 3]) -> usize {
    (bit & sets[1] != 0) as usize + 2 * (bit & sets[2] != 0) as usize
}

/// The fitting orders (a 6-bit set, see [`FITTING`]) of the three digits `bits` when digit `i`
/// may not take the position whose set in `barred` holds it.
#[inline]
fn fitting(bits: &[u32; 3], barred: &[u32; 3]) -> u32 {
    let f = 9 * position_of(bits[0], barred)
        + 3 * position_of(bits[1], barred)
        + position_of(bits[2], barred);
    FITTING[f] as u32
}

/// One of the two orders of a 6-bit set `fits` with exactly two members, by one random bit.
#[inline]
fn one_of_two(fits: u32, bit: u32) -> usize {
    if bit & 1 == 0 {
        fits.trailing_zeros() as usize
    } else {
        31 - fits.leading_zeros() as usize
    }
}

/// The 81 cells (bytes 1..=9, row-major) of a random grid whose first band is `band`
/// (boxes 1, 2, 3, each row-major). Every grid with that first band can come out
/// (docs/ALGORITHM.md, "Every grid is reachable").
///
/// # Complexity
/// Constant expected time: most of `random_grid`'s 3,340 instructions (callgrind,
/// `crates/tools/examples/grid_rate.rs`): 1.24 draws of band 2 and 1.92 of box 7 a grid.
pub(super) fn complete<R: RngCore>(band: &[[u8; 9]; 3], rng: &mut R) -> [u8; 81] {
    // The digit sets of the columns of boxes 1, 2, 3.
    let cols1 = [col_sets(&band[0]), col_sets(&band[1]), col_sets(&band[2])];
    loop {
        let band2 = draw_band2(&cols1, rng);
        let cols2 = [
            col_sets(&band2[0]),
            col_sets(&band2[1]),
            col_sets(&band2[2]),
        ];
        // Each column of band 3 holds the three digits its column misses above.
        let mut missing = [[0u32; 3]; 9];
        for (c, m) in missing.iter_mut().enumerate() {
            *m = three_bits(ALL & !(cols1[c / 3][c % 3] | cols2[c / 3][c % 3]));
        }
        for _ in 0..BOX7_TRIES {
            if let Some(orders) = draw_band3(&missing, rng) {
                return assemble(band, &band2, &missing, &orders);
            }
        }
    }
}

/// Boxes 4, 5 and 6 below a first band whose boxes' column digit sets are `cols`: uniform among
/// all the second bands that fit (box 4 uniform, boxes 5 and 6 uniform among those that fit box
/// 4, and a box 4 they do not fit drawn again with them).
fn draw_band2<R: RngCore>(cols: &[[u32; 3]; 3], rng: &mut R) -> [[u8; 9]; 3] {
    loop {
        // Box 4: uniform beside box 1's columns, never a dead end.
        let b4 = transpose(&super::sample_beside(cols[0], rng));
        if let Some([b5, b6]) = beside_box4(cols, &b4, rng) {
            return [b4, b5, b6];
        }
    }
}

/// Boxes 5 and 6 beside box 4 under a first band whose boxes' column digit sets are `cols`: one
/// draw, each of the fillings that fit with the same probability, or `None` (about one draw in
/// five) if the one drawn does not fit.
///
/// The digit sets of box 5's rows are one of the 56 that avoid box 4's rows (uniform, as for box
/// 2 beside box 1); box 6's rows hold what is left of each row. A row of box 5 (6) then fits the
/// columns above it in exactly two orders, unless its three digits are one column of box 2
/// (3): then in none.
fn beside_box4<R: RngCore>(
    cols: &[[u32; 3]; 3],
    b4: &[u8; 9],
    rng: &mut R,
) -> Option<[[u8; 9]; 2]> {
    let r4 = row_sets(b4);
    let t = beside_sets(r4, rng);
    let u = [0, 1, 2].map(|r| ALL & !(r4[r] | t[r]));
    let mut fit = [0u32; 6];
    for r in 0..3 {
        fit[r] = fitting(&three_bits(t[r]), &cols[1]);
        fit[3 + r] = fitting(&three_bits(u[r]), &cols[2]);
    }
    if fit.contains(&0) {
        return None;
    }
    let mut order_bits = rng.next_u32();
    let mut b5 = [0u8; 9];
    let mut b6 = [0u8; 9];
    for r in 0..3 {
        for (b, set, f) in [(&mut b5, t[r], fit[r]), (&mut b6, u[r], fit[3 + r])] {
            let bits = three_bits(set);
            let order = &ORDERS[one_of_two(f, order_bits)];
            order_bits >>= 1;
            for x in 0..3 {
                b[3 * r + x] = bits[order[x]].trailing_zeros() as u8;
            }
        }
    }
    Some([b5, b6])
}

/// The 27-bit placement (see the module docs) of the digits `bits` of one column of band 3 in
/// the order `order`.
#[inline]
fn placement(bits: &[u32; 3], order: usize) -> u32 {
    let o = &ORDERS[order];
    bits[o[0]] | bits[o[1]] << 9 | bits[o[2]] << 18
}

/// One draw of band 3: the order (index into [`ORDERS`]) of each column's missing digits, or
/// `None` if the box 7 drawn fits no box 8 and 9.
///
/// Box 7 is any of its 6³ fillings. Then each column of boxes 8 and 9 has exactly two orders
/// that keep its digits out of the rows box 7 gave them, or none (all three digits in one row of
/// box 7). Box 8 is one of the 2³ combinations of its columns' orders; given boxes 7 and 8, each
/// digit of box 9 has one row left, so box 9 is forced, and fits if each of its columns gets
/// three different rows. All 8 combinations are checked at once and one that fits is drawn.
fn draw_band3<R: RngCore>(missing: &[[u32; 3]; 9], rng: &mut R) -> Option<[usize; 9]> {
    let mut orders = [0usize; 9];
    let mut pick = below(rng, 216) as usize;
    let mut rows7 = [0u32; 3];
    for c in 0..3 {
        orders[c] = pick % 6;
        pick /= 6;
        let o = &ORDERS[orders[c]];
        for (x, row) in rows7.iter_mut().enumerate() {
            *row |= missing[c][o[x]];
        }
    }
    // The two placements that fit box 7 for each column of boxes 8 and 9.
    let mut two = [[0u32; 2]; 6];
    let mut two_orders = [[0usize; 2]; 6];
    for k in 0..6 {
        let bits = &missing[3 + k];
        let fits = fitting(bits, &rows7);
        if fits == 0 {
            return None;
        }
        let pair = [one_of_two(fits, 0), one_of_two(fits, 1)];
        two_orders[k] = pair;
        two[k] = pair.map(|o| placement(bits, o));
    }
    let used7 = rows7[0] | rows7[1] << 9 | rows7[2] << 18;
    // Bit `m` of `good`: box 8's columns take orders `m & 1`, `m >> 1 & 1`, `m >> 2` of their
    // pairs, and each column of box 9 then has an order that fits.
    let mut good = 0u32;
    for m in 0..8 {
        let used = used7 | two[0][m & 1] | two[1][m >> 1 & 1] | two[2][m >> 2];
        let fits9 = (3..6).all(|k| two[k][0] & used == 0 || two[k][1] & used == 0);
        good |= (fits9 as u32) << m;
    }
    if good == 0 {
        return None;
    }
    let m = super::nth_bit(good, below(rng, good.count_ones())) as usize;
    let mut used = used7;
    for k in 0..3 {
        let i = m >> k & 1;
        orders[3 + k] = two_orders[k][i];
        used |= two[k][i];
    }
    for k in 3..6 {
        let i = (two[k][0] & used != 0) as usize;
        orders[3 + k] = two_orders[k][i];
    }
    Some(orders)
}

/// The grid's cells (bytes 1..=9) from its first band's boxes, its second band's boxes, and band 3's columns
/// (the missing digits of each column and their orders).
fn assemble(
    band1: &[[u8; 9]; 3],
    band2: &[[u8; 9]; 3],
    missing: &[[u32; 3]; 9],
    orders: &[usize; 9],
) -> [u8; 81] {
    let mut cells = [0u8; 81];
    for (b, band) in [band1, band2].into_iter().enumerate() {
        for (s, digits) in band.iter().enumerate() {
            for (k, &d) in digits.iter().enumerate() {
                cells[27 * b + 9 * (k / 3) + 3 * s + k % 3] = d + 1;
            }
        }
    }
    for c in 0..9 {
        let o = &ORDERS[orders[c]];
        for x in 0..3 {
            cells[54 + 9 * x + c] = missing[c][o[x]].trailing_zeros() as u8 + 1;
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grids::rng_for;
    use std::collections::HashMap;

    #[test]
    fn fitting_table_has_two_orders_unless_all_are_barred_from_one_position() {
        for (f, fits) in FITTING.iter().enumerate() {
            let expected = if f % 13 == 0 { 0 } else { 2 };
            assert_eq!(fits.count_ones(), expected, "entry {f}");
        }
    }

    /// Every filling of the cells `todo` (row, column) of `cells` (digit indices, 9 = empty)
    /// that keeps every house free of repeats: a plain backtracking search, sharing nothing
    /// with the completion.
    fn all_fillings(cells: &[u8; 81], todo: &[(usize, usize)]) -> Vec<Vec<u8>> {
        fn go(cells: &mut [u8; 81], todo: &[(usize, usize)], out: &mut Vec<Vec<u8>>) {
            let Some((&(r, c), rest)) = todo.split_first() else {
                out.push(cells.to_vec());
                return;
            };
            for d in 0..9u8 {
                let clash = (0..9).any(|k| {
                    let (br, bc) = (3 * (r / 3) + k / 3, 3 * (c / 3) + k % 3);
                    cells[9 * r + k] == d || cells[9 * k + c] == d || cells[9 * br + bc] == d
                });
                if !clash {
                    cells[9 * r + c] = d;
                    go(cells, rest, out);
                    cells[9 * r + c] = 9;
                }
            }
        }
        let mut cells = *cells;
        for &(r, c) in todo {
            cells[9 * r + c] = 9;
        }
        let mut out = Vec::new();
        go(&mut cells, todo, &mut out);
        out
    }

    /// A grid of the completion, as digit indices.
    fn some_grid(seed: u64) -> [u8; 81] {
        crate::grids::random_grid(&mut rng_for(seed, 0))
            .as_bytes()
            .map(|v| v - 1)
    }

    #[test]
    fn band_3_reaches_every_completion_of_the_bands_above() {
        for seed in 0..6 {
            let grid = some_grid(seed);
            let todo: Vec<_> = (54..81).map(|i| (i / 9, i % 9)).collect();
            let all = all_fillings(&grid, &todo);
            assert!(all.contains(&grid.to_vec()), "the grid's own band 3 is one");
            let mut missing = [[0u32; 3]; 9];
            for (c, m) in missing.iter_mut().enumerate() {
                let above = (0..6).fold(0, |a, r| a | 1 << grid[9 * r + c]);
                *m = three_bits(ALL & !above);
            }
            let band: [[u8; 9]; 3] =
                std::array::from_fn(|s| std::array::from_fn(|k| grid[9 * (k / 3) + 3 * s + k % 3]));
            let band2: [[u8; 9]; 3] = std::array::from_fn(|s| {
                std::array::from_fn(|k| grid[27 + 9 * (k / 3) + 3 * s + k % 3])
            });
            // Each completion has probability at least 1 / (216 * 8) a draw: 40,000 draws
            // miss one with a chance below e^-23.
            let mut seen: HashMap<Vec<u8>, u32> = HashMap::new();
            let mut rng = rng_for(seed, 1);
            for _ in 0..40_000 {
                let orders = loop {
                    if let Some(o) = draw_band3(&missing, &mut rng) {
                        break o;
                    }
                };
                let cells = assemble(&band, &band2, &missing, &orders).map(|v| v - 1);
                *seen.entry(cells.to_vec()).or_default() += 1;
            }
            for g in seen.keys() {
                assert!(
                    all.contains(g),
                    "seed {seed}: drew a grid that breaks the rules"
                );
            }
            assert_eq!(
                seen.len(),
                all.len(),
                "seed {seed}: some completions never drawn"
            );
        }
    }

    #[test]
    fn boxes_5_and_6_are_uniform_among_those_that_fit_box_4() {
        for seed in 10..14 {
            let grid = some_grid(seed);
            let todo: Vec<_> = (27..54)
                .map(|i| (i / 9, i % 9))
                .filter(|&(_, c)| c >= 3)
                .collect();
            let mut above = grid;
            above[54..].fill(9);
            let all = all_fillings(&above, &todo);
            let band: [[u8; 9]; 3] =
                std::array::from_fn(|s| std::array::from_fn(|k| grid[9 * (k / 3) + 3 * s + k % 3]));
            let cols = [col_sets(&band[0]), col_sets(&band[1]), col_sets(&band[2])];
            let b4: [u8; 9] = std::array::from_fn(|k| grid[27 + 9 * (k / 3) + k % 3]);
            let draws = 200 * all.len();
            let mut seen: HashMap<Vec<u8>, usize> = HashMap::new();
            let mut rng = rng_for(seed, 2);
            for _ in 0..draws {
                let [b5, b6] = loop {
                    if let Some(b) = beside_box4(&cols, &b4, &mut rng) {
                        break b;
                    }
                };
                let mut cells = above;
                for k in 0..9 {
                    cells[27 + 9 * (k / 3) + 3 + k % 3] = b5[k];
                    cells[27 + 9 * (k / 3) + 6 + k % 3] = b6[k];
                }
                *seen.entry(cells.to_vec()).or_default() += 1;
            }
            for g in seen.keys() {
                assert!(
                    all.contains(g),
                    "seed {seed}: drew boxes that break the rules"
                );
            }
            assert_eq!(
                seen.len(),
                all.len(),
                "seed {seed}: some fillings never drawn"
            );
            // Pearson's chi-square against the uniform distribution, K - 1 degrees of freedom:
            // more than 6 standard deviations above its mean would be a biased draw.
            let k = all.len() as f64;
            let expected = draws as f64 / k;
            let chi2: f64 = seen
                .values()
                .map(|&n| (n as f64 - expected).powi(2) / expected)
                .sum();
            let bound = (k - 1.0) + 6.0 * (2.0 * (k - 1.0)).sqrt();
            assert!(
                chi2 < bound,
                "seed {seed}: chi-square {chi2:.0} over {k} fillings"
            );
        }
    }
}
