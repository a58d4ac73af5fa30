//! Burnside's count against its known value, and each way of counting fixed grids against the others.

use super::search::EMPTY;
use super::*;

/// Russell and Jarvis's table: (class size, F / 9!) for the 27 classes with fixed grids.
const RUSSELL_JARVIS: [(u64, u128); 27] = [
    (1, 18_383_222_420_692_992),
    (96, 21_233_664),
    (16, 107_495_424),
    (192, 4_204_224),
    (64, 2_508_084),
    (5184, 323_928),
    (20736, 162),
    (20736, 288),
    (144, 14_837_760),
    (1728, 2_592),
    (288, 5_184),
    (864, 2_085_120),
    (3456, 1_296),
    (1728, 294_912),
    (2304, 648),
    (1152, 6_342_480),
    (1296, 30_258_432),
    (10368, 1_854),
    (93312, 288),
    (2916, 155_492_352),
    (69984, 13_056),
    (972, 449_445_888),
    (3888, 27_648),
    (31104, 6_480),
    (15552, 1_728),
    (15552, 3_456),
    (7776, 13_824),
];

#[test]
fn the_positional_group_has_275_conjugacy_classes() {
    let classes = symmetry_classes();
    assert_eq!(classes.len(), 275);
    assert_eq!(classes.iter().map(|c| c.size).sum::<u64>(), GROUP_ORDER);
    assert_eq!(
        classes
            .iter()
            .filter(|c| !c.representative.transposed)
            .count(),
        253
    );
    assert_eq!(
        classes[0],
        SymmetryClass {
            representative: Symmetry::IDENTITY,
            size: 1
        }
    );
    assert!(classes.iter().all(|c| GROUP_ORDER.is_multiple_of(c.size)));
}

#[test]
fn essentially_different_grids_number_5_472_730_538() {
    let count = essentially_different(&|_, _| {});
    assert_eq!(count.essentially_different, ESSENTIALLY_DIFFERENT);
    assert_eq!(count.grids, crate::count::GRIDS);
    let mut found: Vec<(u64, u128)> = count
        .classes
        .iter()
        .filter(|c| c.fixed != 0)
        .map(|c| (c.class.size, c.invariants()))
        .collect();
    let mut table = RUSSELL_JARVIS.to_vec();
    found.sort();
    table.sort();
    assert_eq!(found, table);
    assert!(count.classes.iter().all(|c| c.fixed % RELABELLINGS == 0));
}

#[test]
fn relabellings_come_in_30_cycle_types() {
    let types = cycle_types();
    assert_eq!(types.len(), 30);
    assert_eq!(types.iter().map(|t| t.1).sum::<u128>(), RELABELLINGS);
    // Three 3-cycles: 9! / (3³ · 3!).
    assert!(types.contains(&([1, 2, 0, 4, 5, 3, 7, 8, 6], 2240)));
}

#[test]
fn centralizers_have_the_sizes_of_the_formula() {
    // σ of type 2³1³ commutes with 2³ · 3! · 3! relabellings.
    let c = Centralizer::new(&[1, 0, 3, 2, 5, 4, 6, 7, 8]);
    assert_eq!(c.perms.len(), 288);
    let sigma = [1u8, 0, 3, 2, 5, 4, 6, 7, 8];
    assert!(c
        .perms
        .iter()
        .all(|t| (0..9).all(|d| t[sigma[d] as usize] == sigma[t[d] as usize])));
}

/// Calls `visit` with every band whose first row is 0, 1, …, 8 (2,612,736 of them).
fn for_each_normalized_band(visit: &mut dyn FnMut(&[u8; 27])) {
    fn fill(
        cell: usize,
        band: &mut [u8; 27],
        rows: [u16; 3],
        boxes: [u16; 3],
        visit: &mut dyn FnMut(&[u8; 27]),
    ) {
        if cell == 27 {
            visit(band);
            return;
        }
        let (r, b) = (cell / 9, cell % 9 / 3);
        for d in 0..9u8 {
            let bit = 1u16 << d;
            if (rows[r] | boxes[b]) & bit == 0 {
                band[cell] = d;
                let (mut rr, mut bb) = (rows, boxes);
                rr[r] |= bit;
                bb[b] |= bit;
                fill(cell + 1, band, rr, bb, visit);
            }
        }
    }
    let mut band = [0u8; 27];
    let mut boxes = [0u16; 3];
    for j in 0..9 {
        band[j] = j as u8;
        boxes[j / 3] |= 1 << j;
    }
    fill(9, &mut band, [0x1FF, 0, 0], boxes, visit);
}

#[test]
fn fixed_bands_match_brute_force() {
    // For each positional band map, the bands it maps to a relabelling of themselves: by
    // cycle type from the search, and by trying every band with a normalised first row
    // (each class of relabellings has one, and 9! members).
    let id = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    let maps: [([u8; 3], [u8; 9]); 6] = [
        ([1, 2, 0], id),
        ([0, 1, 2], [1, 2, 0, 4, 5, 3, 7, 8, 6]),
        ([0, 2, 1], [0, 1, 2, 6, 7, 8, 3, 4, 5]),
        ([1, 0, 2], [1, 0, 2, 4, 3, 5, 7, 6, 8]),
        ([0, 1, 2], [3, 4, 5, 6, 7, 8, 0, 1, 2]),
        ([2, 0, 1], [4, 5, 3, 7, 8, 6, 1, 2, 0]),
    ];
    let mut brute = [0u128; 6];
    let mut total = 0u64;
    for_each_normalized_band(&mut |band| {
        total += 1;
        for (k, (rows, cols)) in maps.iter().enumerate() {
            let mut sigma = [EMPTY; 9];
            let fits = (0..27).all(|cell| {
                let image = 9 * rows[cell / 9] as usize + cols[cell % 9] as usize;
                let (from, to) = (band[cell] as usize, band[image]);
                let ok = sigma[from] == EMPTY || sigma[from] == to;
                sigma[from] = to;
                ok
            });
            brute[k] += fits as u128;
        }
    });
    assert_eq!(total, 2_612_736);
    for (k, &(rows, cols)) in maps.iter().enumerate() {
        let by_type: u128 = cycle_types()
            .iter()
            .map(|(digits, n)| {
                let f = fixed_bands(&BandMap {
                    rows,
                    cols,
                    digits: *digits,
                });
                n * f.values().map(|&c| c as u128).sum::<u128>()
            })
            .sum();
        assert_eq!(by_type, brute[k] * RELABELLINGS, "map {k}");
    }
    // Swapping two rows and a column in each stack fixes no band up to relabelling.
    assert_eq!(brute, [288, 1458, 4320, 0, 288, 198]);
}

#[test]
fn bands_and_search_agree_on_small_classes() {
    // Two independent computations of F: joined bands and the cell-by-cell search.
    let classes = symmetry_classes();
    let mut nonzero = 0;
    for k in [1, 21, 22, 62, 116, 129, 174] {
        let g = classes[k].representative;
        assert!(!g.transposed);
        let search = fixed_normalized_by_search(&g) as u128 * RELABELLINGS;
        assert_eq!(fixed_grids(&g), search, "{g}");
        nonzero += (search != 0) as usize;
    }
    assert_eq!(nonzero, 5);
}

#[test]
#[ignore = "four minutes: the search visits 30 million grids"]
fn transposition_by_boxes_matches_search() {
    let tau = Symmetry {
        transposed: true,
        ..Symmetry::IDENTITY
    };
    assert_eq!(
        fixed_grids(&tau),
        fixed_normalized_by_search(&tau) as u128 * RELABELLINGS
    );
}
