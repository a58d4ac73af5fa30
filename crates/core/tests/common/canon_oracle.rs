//! The canonical-form oracle: every one of the 3,359,232 positional maps tried, each image
//! relabelled in order of appearance and compared cell by cell. Obviously correct, about 0.05 s a
//! board; it shares no code with `shudu_core::canon`.

use std::cmp::Ordering;

use rand::{Rng, RngCore};

/// The six orderings of 0, 1, 2.
fn orderings() -> Vec<[usize; 3]> {
    let mut v = Vec::new();
    for a in 0..3 {
        for b in 0..3 {
            for c in 0..3 {
                if a != b && b != c && a != c {
                    v.push([a, b, c]);
                }
            }
        }
    }
    v
}

/// The 1,296 permutations of 0..9 that keep the groups 0-2, 3-5 and 6-8 together: the maps of
/// rows within bands and bands, or of columns within stacks and stacks.
pub fn line_maps() -> Vec<[usize; 9]> {
    let o = orderings();
    let mut v = Vec::new();
    for g in &o {
        for a in &o {
            for b in &o {
                for c in &o {
                    let inner = [a, b, c];
                    let mut m = [0; 9];
                    for i in 0..9 {
                        m[i] = 3 * g[i / 3] + inner[i / 3][i % 3];
                    }
                    v.push(m);
                }
            }
        }
    }
    v
}

/// The least image of `cells` (81 values, 0 for empty) and how many positional maps give it.
pub fn canonical(cells: &[u8; 81]) -> ([u8; 81], u64) {
    let maps = line_maps();
    let mut best = [u8::MAX; 81];
    let mut count = 0u64;
    for transpose in [false, true] {
        for rows in &maps {
            'cols: for cols in &maps {
                let mut label = [0u8; 10];
                let mut next = 0;
                let mut less = false;
                for i in 0..81 {
                    let (r, c) = (rows[i / 9], cols[i % 9]);
                    let v = if transpose {
                        cells[9 * c + r]
                    } else {
                        cells[9 * r + c]
                    };
                    let l = if v == 0 {
                        0
                    } else {
                        if label[v as usize] == 0 {
                            next += 1;
                            label[v as usize] = next;
                        }
                        label[v as usize]
                    };
                    if !less {
                        match l.cmp(&best[i]) {
                            Ordering::Greater => continue 'cols,
                            Ordering::Less => less = true,
                            Ordering::Equal => {}
                        }
                    }
                    if less {
                        best[i] = l;
                    }
                }
                if less {
                    count = 1;
                } else {
                    count += 1;
                }
            }
        }
    }
    (best, count)
}

/// A random member of the class of `cells`: a random positional map and relabelling.
pub fn disguise(cells: &[u8; 81], rng: &mut impl RngCore) -> [u8; 81] {
    let maps = line_maps();
    let rows = maps[rng.random_range(0..maps.len())];
    let cols = maps[rng.random_range(0..maps.len())];
    let transpose = rng.random_bool(0.5);
    let mut digits: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    for i in (2..10).rev() {
        let j = rng.random_range(1..=i);
        digits.swap(i, j);
    }
    let mut out = [0u8; 81];
    for i in 0..81 {
        let (r, c) = (rows[i / 9], cols[i % 9]);
        let v = if transpose {
            cells[9 * c + r]
        } else {
            cells[9 * r + c]
        };
        out[i] = digits[v as usize];
    }
    out
}
