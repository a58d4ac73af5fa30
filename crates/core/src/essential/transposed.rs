//! The grids a symmetry with the transposition fixes: boxes joined on row and column sets.

use super::*;

// Fixed grids of the transposition: boxes joined on row and column sets.

/// The ordered partitions of the nine digits into three 3-digit sets (1,680).
pub(super) fn partitions() -> &'static [[u16; 3]] {
    pub(super) static P: OnceLock<Vec<[u16; 3]>> = OnceLock::new();
    P.get_or_init(|| {
        let mut v = Vec::with_capacity(1680);
        for &a in triples() {
            for &b in triples() {
                if a & b == 0 {
                    v.push([a, b, 0x1FF & !(a | b)]);
                }
            }
        }
        v
    })
}

/// Whether every set of `r` meets every set of `c` in exactly one digit: then a box has rows `r`
/// and columns `c`, and exactly one.
pub(super) fn orthogonal(r: &[u16; 3], c: &[u16; 3]) -> bool {
    r.iter()
        .all(|&x| c.iter().all(|&y| (x & y).count_ones() == 1))
}

/// The grids `X` with `Xᵀ = σ(X)` (transposition, then relabelling by `digits`).
///
/// Such a grid is fixed by its boxes on and above the diagonal: boxes 1, 5 and 9 are
/// σ-symmetric (`D[j][i] = σ(D[i][j])`), box `(J, I)` is `σ` of box `(I, J)` transposed, and the
/// grid is valid if and only if every row is (a column `j` holds `σ⁻¹` of row `j`). With `P`, `Q`,
/// `S` the boxes 2, 3, 6 and `R`/`C` a box's row/column sets, the rows ask:
///
/// ```text
/// band 1:  D₀.R ⊔ P.R ⊔ Q.R = all      band 2:  σP.C ⊔ D₁.R ⊔ S.R = all
/// band 3:  σQ.C ⊔ σS.C ⊔ D₂.R = all    (row by row)
/// ```
///
/// A box is one orthogonal pair of ordered partitions (its row sets and column sets), so for
/// each first band the boxes `S`, `D₁`, `D₂` are counted by pairs of row-set partitions of
/// σ-symmetric boxes (`Z₁` for `D₁`, `Z₂` for `D₂`) whose implied `S.R` and `S.C` are
/// orthogonal. `D₀` is taken once per orbit of the relabellings that commute with σ.
pub(super) fn fixed_by_transposition(digits: &[u8; 9]) -> u128 {
    // X = (Xᵀ)ᵀ = σ²(X): σ must be an involution.
    if digits
        .iter()
        .enumerate()
        .any(|(d, &e)| digits[e as usize] as usize != d)
    {
        return 0;
    }
    // σ-symmetric boxes, counted by their row sets.
    let mut symmetric: Vec<[u8; 9]> = Vec::new();
    let mut boxes = [0u8; 9];
    symmetric_boxes(0, 0, digits, &mut boxes, &mut symmetric);
    if symmetric.is_empty() {
        return 0;
    }
    let row_sets = |b: &[u8; 9]| -> [u16; 3] {
        [0, 1, 2].map(|r| (0..3).fold(0u16, |m, k| m | 1 << b[3 * r + k]))
    };
    let mut by_rows: HashMap<[u16; 3], u64> = HashMap::new();
    for b in &symmetric {
        *by_rows.entry(row_sets(b)).or_insert(0) += 1;
    }
    let mut inverse = [0u8; 9];
    for (d, &e) in digits.iter().enumerate() {
        inverse[e as usize] = d as u8;
    }
    let parts = partitions();
    let index: HashMap<[u16; 3], usize> = parts.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let orthogonals: Vec<Vec<usize>> = parts
        .iter()
        .map(|r| {
            (0..parts.len())
                .filter(|&i| orthogonal(r, &parts[i]))
                .collect()
        })
        .collect();
    // For a column partition Y of P: the row sets S.R = all ∖ (σY ∪ Z₁) with weight d(Z₁).
    // For a column partition Y of Q: the column sets S.C = σ⁻¹(all ∖ (σY ∪ Z₂)) with d(Z₂).
    let mut from_p: Vec<Vec<([u16; 3], u64)>> = Vec::with_capacity(parts.len());
    let mut from_q: Vec<Vec<([u16; 3], u64)>> = Vec::with_capacity(parts.len());
    for y in parts {
        let sy = y.map(|m| map_digits(m, digits));
        let (mut p, mut q) = (Vec::new(), Vec::new());
        for (z, &w) in &by_rows {
            if (0..3).all(|r| z[r] & sy[r] == 0) {
                let rest = [0, 1, 2].map(|r| 0x1FF & !(z[r] | sy[r]));
                p.push((rest, w));
                q.push((rest.map(|m| map_digits(m, &inverse)), w));
            }
        }
        from_p.push(p);
        from_q.push(q);
    }
    // D₀ by orbits of the centralizer (it maps fixed grids to fixed grids).
    let centralizer = Centralizer::new(digits);
    let mut orbits: HashMap<[u8; 9], u128> = HashMap::new();
    for b in &symmetric {
        let least = if centralizer.perms.is_empty() {
            *b
        } else {
            centralizer
                .perms
                .iter()
                .map(|t| b.map(|d| t[d as usize]))
                .min()
                .expect("identity")
        };
        *orbits.entry(least).or_insert(0) += 1;
    }
    let mut total = 0u128;
    for (d0, size) in orbits {
        let d0_rows = row_sets(&d0);
        // In parallel over the row sets of box 2 (56 fit): this class is the longest.
        let sum: u128 = parts
            .par_iter()
            .filter(|p_rows| (0..3).all(|r| p_rows[r] & d0_rows[r] == 0))
            .map(|p_rows| {
                let q_rows = [0, 1, 2].map(|r| 0x1FF & !(p_rows[r] | d0_rows[r]));
                let (pi, qi) = (index[p_rows], index[&q_rows]);
                let mut sum = 0u128;
                for &pc in &orthogonals[pi] {
                    for &qc in &orthogonals[qi] {
                        for (s_rows, w1) in &from_p[pc] {
                            for (s_cols, w2) in &from_q[qc] {
                                if orthogonal(s_rows, s_cols) {
                                    sum += (*w1 * *w2) as u128;
                                }
                            }
                        }
                    }
                }
                sum
            })
            .sum();
        total += size * sum;
    }
    total
}

/// The boxes `D` (digits row by row) with `D[j][i] = σ(D[i][j])`, cell by cell from `cell`.
pub(super) fn symmetric_boxes(
    cell: usize,
    used: u16,
    digits: &[u8; 9],
    b: &mut [u8; 9],
    out: &mut Vec<[u8; 9]>,
) {
    if cell == 9 {
        out.push(*b);
        return;
    }
    let (i, j) = (cell / 3, cell % 3);
    if j < i {
        // Below the diagonal: the image of the cell above.
        let d = digits[b[3 * j + i] as usize];
        if used >> d & 1 == 0 {
            b[cell] = d;
            symmetric_boxes(cell + 1, used | 1 << d, digits, b, out);
        }
        return;
    }
    for d in 0..9u8 {
        if used >> d & 1 == 1 || (i == j && digits[d as usize] != d) {
            continue;
        }
        b[cell] = d;
        symmetric_boxes(cell + 1, used | 1 << d, digits, b, out);
    }
}
