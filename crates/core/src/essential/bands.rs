//! The bands a symmetry's band map fixes, by the cycle type of its relabelling, and the bands
//! with given column sets, remembered by pattern.

use super::*;

// Relabellings by cycle type.

/// The cycle types of `S₉` (the 30 partitions of 9), each with a relabelling of that type
/// (cycles on consecutive digits) and the number of relabellings of that type.
pub(super) fn cycle_types() -> Vec<([u8; 9], u128)> {
    pub(super) fn partitions(
        n: usize,
        max: usize,
        prefix: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if n == 0 {
            out.push(prefix.clone());
            return;
        }
        for k in (1..=max.min(n)).rev() {
            prefix.push(k);
            partitions(n - k, k, prefix, out);
            prefix.pop();
        }
    }
    let mut parts = Vec::new();
    partitions(9, 9, &mut Vec::new(), &mut parts);
    parts
        .iter()
        .map(|lengths| {
            let mut sigma = [0u8; 9];
            let mut at = 0;
            for &k in lengths {
                for i in 0..k {
                    sigma[at + i] = (at + (i + 1) % k) as u8;
                }
                at += k;
            }
            // 9! / Π k^{m_k} m_k!
            let mut denominator = 1u128;
            for k in 1..=9 {
                let m = lengths.iter().filter(|&&x| x == k).count() as u128;
                denominator *= (k as u128).pow(m as u32) * (1..=m).product::<u128>();
            }
            (sigma, RELABELLINGS / denominator)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Bands fixed by a band map.

/// A map from bands to bands: the cell in row `i` (0..3) and column `j` moves to row `rows[i]`,
/// column `cols[j]`, and its digit `d` (0..9) becomes `digits[d]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct BandMap {
    pub(super) rows: [u8; 3],
    pub(super) cols: [u8; 9],
    pub(super) digits: [u8; 9],
}

impl BandMap {
    /// `self ∘ first`: `first`, then `self`.
    pub(super) fn after(&self, first: &BandMap) -> BandMap {
        BandMap {
            rows: first.rows.map(|i| self.rows[i as usize]),
            cols: first.cols.map(|j| self.cols[j as usize]),
            digits: first.digits.map(|d| self.digits[d as usize]),
        }
    }

    /// Whether it moves no cell.
    pub(super) fn is_positional_identity(&self) -> bool {
        self.rows == [0, 1, 2] && self.cols == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    }

    /// Whether it is the identity (every band is fixed).
    pub(super) fn is_identity(&self) -> bool {
        self.is_positional_identity() && self.digits == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    }

    /// The image of column sets: the column sets of the image of a band with column sets `s`.
    pub(super) fn image_sets(&self, s: &ColumnSets) -> ColumnSets {
        let mut out = [0u16; 9];
        for j in 0..9 {
            out[self.cols[j] as usize] = map_digits(s[j], &self.digits);
        }
        out
    }
}

/// The image of a set of digits (bits 0..9) under a relabelling.
pub(super) fn map_digits(set: u16, digits: &[u8; 9]) -> u16 {
    let mut out = 0;
    for (d, &e) in digits.iter().enumerate() {
        out |= (set >> d & 1) << e;
    }
    out
}

/// The bands fixed by `map` (a band `Y` with `map(Y) = Y`), counted by their column sets.
///
/// # Complexity
/// A depth-first search over the orbits of the 27 cells, each given a digit whose cycle under
/// `map.digits` fits the orbit's length; the number of fixed bands bounds the work (at most a few
/// hundred thousand when `map` moves cells).
pub(super) fn fixed_bands(map: &BandMap) -> HashMap<ColumnSets, u64> {
    // Orbits of the cells (9 · row + col), in order of their first cell.
    let next = |cell: usize| 9 * map.rows[cell / 9] as usize + map.cols[cell % 9] as usize;
    let mut orbit_of = [usize::MAX; 27];
    let mut orbits: Vec<Vec<u8>> = Vec::new();
    for start in 0..27 {
        if orbit_of[start] != usize::MAX {
            continue;
        }
        let mut cells = Vec::new();
        let mut c = start;
        loop {
            orbit_of[c] = orbits.len();
            cells.push(c as u8);
            c = next(c);
            if c == start {
                break;
            }
        }
        orbits.push(cells);
    }
    // Longer orbits first: they constrain most (an orbit of two cells in one row needs a
    // 2-cycle of σ), so impossible maps fail at the first levels.
    orbits.sort_by_key(|o| (std::cmp::Reverse(o.len()), o[0]));
    // Digits allowed at the start of each orbit: those whose cycle length divides its length.
    let allowed: Vec<u16> = orbits
        .iter()
        .map(|o| {
            let mut power = [0u8, 1, 2, 3, 4, 5, 6, 7, 8];
            for _ in 0..o.len() {
                power = power.map(|d| map.digits[d as usize]);
            }
            (0..9)
                .filter(|&d| power[d] as usize == d)
                .fold(0u16, |m, d| m | 1 << d)
        })
        .collect();
    // back[k][m] = σ⁻ᵏ(m): digit d may start an orbit if σᵏ(d) is free at its k-th cell.
    let longest = orbits.iter().map(Vec::len).max().unwrap_or(0);
    let mut inverse = [0u8; 9];
    for (d, &e) in map.digits.iter().enumerate() {
        inverse[e as usize] = d as u8;
    }
    let mut back: Vec<[u16; 512]> = Vec::with_capacity(longest);
    let mut power = [0u8, 1, 2, 3, 4, 5, 6, 7, 8];
    for _ in 0..longest {
        let mut t = [0u16; 512];
        for (m, e) in t.iter_mut().enumerate() {
            *e = map_digits(m as u16, &power);
        }
        back.push(t);
        power = power.map(|d| inverse[d as usize]);
    }
    let search = FixedBandSearch {
        orbits: &orbits,
        allowed: &allowed,
        digits: &map.digits,
        back,
    };
    let mut found = HashMap::new();
    let mut band = [0u8; 27];
    search.run(0, &mut band, [0; 3], [0; 3], &mut found);
    found
}

/// The depth-first search of [`fixed_bands`].
pub(super) struct FixedBandSearch<'a> {
    pub(super) orbits: &'a [Vec<u8>],
    pub(super) allowed: &'a [u16],
    pub(super) digits: &'a [u8; 9],
    pub(super) back: Vec<[u16; 512]>,
}

impl FixedBandSearch<'_> {
    /// The digits that can start orbit `k` given the digits used in each row and box (a digit
    /// fits if each of its images is free at its cell; two cells of the orbit may still clash).
    pub(super) fn free(&self, k: usize, rows: &[u16; 3], boxes: &[u16; 3]) -> u16 {
        let mut free = self.allowed[k];
        for (step, &cell) in self.orbits[k].iter().enumerate() {
            let used = rows[cell as usize / 9] | boxes[cell as usize % 9 / 3];
            free &= !self.back[step][used as usize];
        }
        free
    }

    /// Fills the orbits not in `done`, the one with fewest fitting digits first.
    pub(super) fn run(
        &self,
        done: u32,
        band: &mut [u8; 27],
        rows: [u16; 3],
        boxes: [u16; 3],
        found: &mut HashMap<ColumnSets, u64>,
    ) {
        let n = self.orbits.len();
        if done.count_ones() as usize == n {
            let mut sets = [0u16; 9];
            for (cell, &d) in band.iter().enumerate() {
                sets[cell % 9] |= 1 << d;
            }
            *found.entry(sets).or_insert(0) += 1;
            return;
        }
        let mut best = (usize::MAX, 0u16, u32::MAX);
        for k in 0..n {
            if done >> k & 1 == 1 {
                continue;
            }
            let free = self.free(k, &rows, &boxes);
            if free.count_ones() < best.2 {
                best = (k, free, free.count_ones());
                if best.2 == 0 {
                    return;
                }
            }
        }
        let (k, free, _) = best;
        for d in 0..9u8 {
            if free >> d & 1 == 0 {
                continue;
            }
            let (mut r, mut b) = (rows, boxes);
            let mut e = d;
            let mut ok = true;
            for &cell in &self.orbits[k] {
                let cell = cell as usize;
                let bit = 1u16 << e;
                let (ri, bi) = (cell / 9, cell % 9 / 3);
                if (r[ri] | b[bi]) & bit != 0 {
                    ok = false;
                    break;
                }
                r[ri] |= bit;
                b[bi] |= bit;
                band[cell] = e;
                e = self.digits[e as usize];
            }
            if ok {
                self.run(done | 1 << k, band, r, b, found);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bands with given column sets, remembered by pattern.

/// For each digit, the triple (column in stack 1, 2, 3), counted over the digits (2 bits for
/// each of the 27 triples): two column sets with the same key are relabellings of each other, so
/// have the same number of bands.
pub(super) fn relabelling_key(s: &ColumnSets) -> u64 {
    let mut at = [[0u8; 9]; 3];
    for st in 0..3 {
        for k in 0..3 {
            let m = s[3 * st + k];
            for (d, a) in at[st].iter_mut().enumerate() {
                if m >> d & 1 == 1 {
                    *a = k as u8;
                }
            }
        }
    }
    (0..9).fold(0u64, |key, d| {
        let code = at[0][d] * 9 + at[1][d] * 3 + at[2][d];
        key + (1u64 << (2 * code))
    })
}

/// `N(S)`, the number of bands with column sets `S`, shared by every computation of a process.
pub(super) fn shared_band_counts() -> &'static Mutex<HashMap<u64, u64>> {
    pub(super) static MEMO: OnceLock<Mutex<HashMap<u64, u64>>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(HashMap::new()))
}

/// `N(S)` with a local cache in front of the shared one.
pub(super) struct BandCounter {
    pub(super) local: HashMap<u64, u64>,
}

impl BandCounter {
    pub(super) fn new() -> BandCounter {
        BandCounter {
            local: HashMap::new(),
        }
    }

    pub(super) fn count(&mut self, s: &ColumnSets) -> u64 {
        let key = relabelling_key(s);
        if let Some(&n) = self.local.get(&key) {
            return n;
        }
        let shared = shared_band_counts()
            .lock()
            .ok()
            .and_then(|m| m.get(&key).copied());
        let n = shared.unwrap_or_else(|| {
            let n = bands_with_column_sets(s);
            if let Ok(mut m) = shared_band_counts().lock() {
                m.insert(key, n);
            }
            n
        });
        self.local.insert(key, n);
        n
    }
}

/// The 84 three-digit sets.
pub(super) fn triples() -> &'static [u16] {
    pub(super) static T: OnceLock<Vec<u16>> = OnceLock::new();
    T.get_or_init(|| (0u16..512).filter(|m| m.count_ones() == 3).collect())
}
