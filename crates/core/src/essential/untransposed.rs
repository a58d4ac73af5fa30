//! The grids an untransposed symmetry fixes: bands joined on their column sets.

use super::*;

// Fixed grids of an untransposed symmetry: bands joined on column sets.

/// The grids `X` with `X(rows[i], cols[j]) = digits[X(i, j)]` (cell by cell, digits 0..9), for
/// an untransposed symmetry other than the identity.
pub(super) fn fixed_untransposed(
    g: &Symmetry,
    digits: &[u8; 9],
    counter: &mut BandCounter,
) -> u128 {
    debug_assert!(!g.transposed && *g != Symmetry::IDENTITY);
    let to = [0, 1, 2].map(|b| (g.rows[3 * b] / 3) as usize);
    // maps[b] takes band b onto band to[b].
    let maps = [0, 1, 2].map(|b| BandMap {
        rows: [0, 1, 2].map(|i| g.rows[3 * b + i] % 3),
        cols: g.cols,
        digits: *digits,
    });
    if to == [0, 1, 2] {
        // Each band fixed by its own map. If one map moves no cell, σ must be the identity (every
        // digit of that band is fixed), and then a map that moves a cell puts one digit twice in
        // a row or column: no grid.
        if maps.iter().any(BandMap::is_positional_identity) {
            return 0;
        }
        // Stop at the first band with no fixed band; bands with the same map share the search.
        let mut fixed: Vec<HashMap<ColumnSets, u64>> = Vec::with_capacity(3);
        for b in 0..3 {
            let f = match (0..b).find(|&a| maps[a] == maps[b]) {
                Some(a) => fixed[a].clone(),
                None => fixed_bands(&maps[b]),
            };
            if f.is_empty() {
                return 0;
            }
            fixed.push(f);
        }
        let mut order = [0, 1, 2];
        order.sort_by_key(|&b| fixed[b].len());
        let (x, y, z) = (&fixed[order[0]], &fixed[order[1]], &fixed[order[2]]);
        if x.is_empty() {
            return 0;
        }
        // Σ over x of n_x(S) · J(S), J(S) = Σ over y of n_y · n_z(rest); both factors are the
        // same on relabellings of S that commute with σ, so J is computed once per orbit.
        let centralizer = Centralizer::new(digits);
        return centralizer
            .orbit_sums(x)
            .iter()
            .map(|(sx, nx)| {
                let mut j = 0u128;
                for (sy, &ny) in y {
                    if (0..9).any(|k| sx[k] & sy[k] != 0) {
                        continue;
                    }
                    let sz: ColumnSets = std::array::from_fn(|k| 0x1FF & !(sx[k] | sy[k]));
                    if let Some(&nz) = z.get(&sz) {
                        j += ny as u128 * nz as u128;
                    }
                }
                nx * j
            })
            .sum();
    }
    if let Some(e) = (0..3).find(|&b| to[b] == b) {
        // Bands a and b exchanged, band e fixed.
        let a = (0..3).find(|&b| b != e).expect("two bands move");
        let b = to[a];
        if maps[e].is_positional_identity() {
            // σ = id (band e's digits are fixed), so band b's column sets are band a's: no grid.
            return 0;
        }
        let fixed_e = fixed_bands(&maps[e]);
        let cycle = maps[b].after(&maps[a]);
        let fixed_a = if cycle.is_identity() {
            None
        } else if cycle.is_positional_identity() {
            return 0;
        } else {
            Some(fixed_bands(&cycle))
        };
        let orbits = column_orbits(&g.cols);
        let mut total = 0u128;
        // As above, the inner sum is the same on relabellings of Se that commute with σ.
        for (se, ne) in Centralizer::new(digits).orbit_sums(&fixed_e) {
            let lacking = se.map(|m| 0x1FF & !m);
            let mut sa = [0u16; 9];
            let mut sum = 0u128;
            exchanged_sets(0, &orbits, &lacking, &maps[a], &mut sa, 0, &mut |sa| {
                sum += match &fixed_a {
                    None => counter.count(sa) as u128,
                    Some(f) => f.get(sa).copied().unwrap_or(0) as u128,
                };
            });
            total += ne * sum;
        }
        return total;
    }
    // The three bands in a cycle: band 0 determines the others.
    let (a, b) = (0, to[0]);
    let e = to[b];
    let cycle = maps[e].after(&maps[b]).after(&maps[a]);
    let fits = |sa: &ColumnSets| {
        let sb = maps[a].image_sets(sa);
        let se = maps[b].image_sets(&sb);
        (0..9).all(|j| sa[j] | sb[j] | se[j] == 0x1FF)
    };
    if cycle.is_identity() {
        let mut total = 0u128;
        cycled_sets(&g.cols, digits, &mut |sa| {
            total += counter.count(sa) as u128
        });
        total
    } else if cycle.is_positional_identity() {
        0
    } else {
        fixed_bands(&cycle)
            .iter()
            .filter(|(s, _)| fits(s))
            .map(|(_, &n)| n as u128)
            .sum()
    }
}

/// The relabellings that commute with a relabelling σ (they map the bands fixed by a map with
/// digits σ onto bands fixed by the same map), as tables on digit sets; `None` when there are
/// too many to be worth it (σ with many fixed digits, whose fixed bands are few).
pub(super) struct Centralizer {
    pub(super) tables: Option<Vec<[u16; 512]>>,
    pub(super) perms: Vec<[u8; 9]>,
}

impl Centralizer {
    pub(super) fn new(sigma: &[u8; 9]) -> Centralizer {
        // A relabelling τ commutes with σ if and only if τ(σᵏ(a)) = σᵏ(τ(a)): it maps each
        // cycle onto a cycle of the same length, fixed by the image of the cycle's first digit.
        let mut cycles: Vec<Vec<u8>> = Vec::new();
        let mut seen = [false; 9];
        for a in 0..9 {
            if seen[a] {
                continue;
            }
            let mut c = Vec::new();
            let mut d = a;
            while !seen[d] {
                seen[d] = true;
                c.push(d as u8);
                d = sigma[d] as usize;
            }
            cycles.push(c);
        }
        let mut size = 1u64;
        for len in 1..=9 {
            let m = cycles.iter().filter(|c| c.len() == len).count() as u64;
            size *= (len as u64).pow(m as u32) * (1..=m).product::<u64>();
        }
        if size > 5000 {
            return Centralizer {
                tables: None,
                perms: Vec::new(),
            };
        }
        let mut perms = Vec::new();
        fn extend(
            k: usize,
            cycles: &[Vec<u8>],
            sigma: &[u8; 9],
            tau: &mut [u8; 9],
            used: u16,
            out: &mut Vec<[u8; 9]>,
        ) {
            if k == cycles.len() {
                out.push(*tau);
                return;
            }
            for start in 0..9u8 {
                if used >> start & 1 == 1 {
                    continue;
                }
                let mut d = start;
                let mut u = used;
                let mut ok = true;
                for &a in &cycles[k] {
                    if u >> d & 1 == 1 {
                        ok = false;
                        break;
                    }
                    tau[a as usize] = d;
                    u |= 1 << d;
                    d = sigma[d as usize];
                }
                // The target cycle must close with the same length.
                if ok && d == start {
                    extend(k + 1, cycles, sigma, tau, u, out);
                }
            }
        }
        extend(0, &cycles, sigma, &mut [0; 9], 0, &mut perms);
        let tables = perms
            .iter()
            .map(|tau| {
                let mut t = [0u16; 512];
                for (m, e) in t.iter_mut().enumerate() {
                    *e = map_digits(m as u16, tau);
                }
                t
            })
            .collect();
        Centralizer {
            tables: Some(tables),
            perms,
        }
    }

    /// The column sets of `counts` grouped by orbit under the centralizer: one member of each
    /// orbit with the sum of the counts over the orbit.
    pub(super) fn orbit_sums(&self, counts: &HashMap<ColumnSets, u64>) -> Vec<(ColumnSets, u128)> {
        let Some(tables) = &self.tables else {
            return counts.iter().map(|(s, &n)| (*s, n as u128)).collect();
        };
        let mut sums: HashMap<ColumnSets, u128> = HashMap::new();
        for (s, &n) in counts {
            let least = tables
                .iter()
                .map(|t| s.map(|m| t[m as usize]))
                .min()
                .expect("the identity commutes");
            *sums.entry(least).or_insert(0) += n as u128;
        }
        sums.into_iter().collect()
    }
}

/// The orbits of the columns under `cols`, each from its least column, in order.
pub(super) fn column_orbits(cols: &[u8; 9]) -> Vec<Vec<usize>> {
    let mut seen = [false; 9];
    let mut orbits = Vec::new();
    for start in 0..9 {
        if seen[start] {
            continue;
        }
        let mut o = Vec::new();
        let mut j = start;
        while !seen[j] {
            seen[j] = true;
            o.push(j);
            j = cols[j] as usize;
        }
        orbits.push(o);
    }
    orbits
}

/// Column sets `sa` of band a (each column 3 of the 6 digits `lacking`) such that `sa` and its
/// image under `map` share out `lacking` (`map(sa)[j] = lacking[j] ∖ sa[j]`): one choice per
/// orbit of columns, since `sa` at column `j` fixes `sa` at `cols[j]` to `lacking ∖ σ(sa[j])`.
/// `set` has a bit for each column already chosen.
pub(super) fn exchanged_sets(
    k: usize,
    orbits: &[Vec<usize>],
    lacking: &ColumnSets,
    map: &BandMap,
    sa: &mut ColumnSets,
    set: u16,
    visit: &mut dyn FnMut(&ColumnSets),
) {
    if k == orbits.len() {
        visit(sa);
        return;
    }
    let orbit = &orbits[k];
    let head = orbit[0];
    'choice: for &t in triples() {
        if t & !lacking[head] != 0 {
            continue;
        }
        let mut cur = t;
        let mut mask = set;
        for &j in orbit {
            // Each stack's columns hold distinct digits.
            let stack = j / 3 * 3;
            let clash = (stack..stack + 3).any(|i| mask >> i & 1 == 1 && sa[i] & cur != 0);
            if clash {
                continue 'choice;
            }
            sa[j] = cur;
            mask |= 1 << j;
            let image = map_digits(cur, &map.digits);
            let next = map.cols[j] as usize;
            if image & !lacking[next] != 0 {
                continue 'choice;
            }
            cur = lacking[next] & !image;
        }
        // Around the orbit, the head's set must come back.
        if cur != t {
            continue;
        }
        exchanged_sets(k + 1, orbits, lacking, map, sa, mask, visit);
    }
}

/// Column sets `sa` of band 0 for three bands in a cycle whose composite is the identity: `sa`,
/// `g(sa)` and `g²(sa)` share out the digits in every column, where `g(s)[cols[j]] =
/// σ(s[j])`.
pub(super) fn cycled_sets(cols: &[u8; 9], digits: &[u8; 9], visit: &mut dyn FnMut(&ColumnSets)) {
    let mut inv = [0usize; 9];
    for j in 0..9 {
        inv[cols[j] as usize] = j;
    }
    // Columns in orbit order, so each column's condition is checked as soon as the column, its
    // preimage and the preimage's preimage are set.
    let order: Vec<usize> = column_orbits(cols).concat();
    let mut position = [0usize; 9];
    for (p, &j) in order.iter().enumerate() {
        position[j] = p;
    }
    let checks: Vec<Vec<usize>> = (0..9)
        .map(|p| {
            (0..9)
                .filter(|&j| {
                    let last = position[j].max(position[inv[j]]).max(position[inv[inv[j]]]);
                    last == p
                })
                .collect()
        })
        .collect();
    let sigma2 = digits.map(|d| digits[d as usize]);
    let mut sa = [0u16; 9];
    cycled_from(
        0, &order, &position, &checks, &inv, digits, &sigma2, &mut sa, visit,
    );
}

#[allow(clippy::too_many_arguments)]
pub(super) fn cycled_from(
    p: usize,
    order: &[usize],
    position: &[usize; 9],
    checks: &[Vec<usize>],
    inv: &[usize; 9],
    sigma: &[u8; 9],
    sigma2: &[u8; 9],
    sa: &mut ColumnSets,
    visit: &mut dyn FnMut(&ColumnSets),
) {
    if p == 9 {
        visit(sa);
        return;
    }
    let j = order[p];
    let stack = j / 3 * 3;
    let mut used = 0u16;
    for i in stack..stack + 3 {
        if i != j && position[i] < p {
            used |= sa[i];
        }
    }
    'choice: for &t in triples() {
        if t & used != 0 {
            continue;
        }
        sa[j] = t;
        for &k in &checks[p] {
            let all = sa[k] | map_digits(sa[inv[k]], sigma) | map_digits(sa[inv[inv[k]]], sigma2);
            if all != 0x1FF {
                continue 'choice;
            }
        }
        cycled_from(
            p + 1,
            order,
            position,
            checks,
            inv,
            sigma,
            sigma2,
            sa,
            visit,
        );
    }
}
