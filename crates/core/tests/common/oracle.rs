//! The oracle: a plain backtracking solver, written to be obviously correct rather than fast.
//! Every fast routine of shudu-core is checked against it. It shares no code with the engine.

/// Counts the solutions of `cells` (81 values, 0 for empty) up to `limit`, returning the count
/// and the first solution found.
pub fn count(cells: &[u8; 81], limit: usize) -> (usize, Option<[u8; 81]>) {
    let mut grid = *cells;
    // Reject givens that already break a rule.
    for i in 0..81 {
        let v = grid[i];
        if v != 0 {
            grid[i] = 0;
            let ok = allowed(&grid, i, v);
            grid[i] = v;
            if !ok {
                return (0, None);
            }
        }
    }
    let mut found = 0;
    let mut first = None;
    search(&mut grid, limit, &mut found, &mut first);
    (found, first)
}

/// Whether digit `v` may go in cell `i`: no other cell of its row, column or box holds it.
fn allowed(grid: &[u8; 81], i: usize, v: u8) -> bool {
    let (r, c) = (i / 9, i % 9);
    for k in 0..9 {
        if grid[r * 9 + k] == v || grid[k * 9 + c] == v {
            return false;
        }
    }
    let (br, bc) = (r / 3 * 3, c / 3 * 3);
    for dr in 0..3 {
        for dc in 0..3 {
            if grid[(br + dr) * 9 + bc + dc] == v {
                return false;
            }
        }
    }
    true
}

fn search(grid: &mut [u8; 81], limit: usize, found: &mut usize, first: &mut Option<[u8; 81]>) {
    // The empty cell with the fewest allowed digits (so the oracle finishes on hard puzzles).
    let mut best: Option<(usize, [bool; 10], usize)> = None;
    for i in 0..81 {
        if grid[i] == 0 {
            let mut ok = [false; 10];
            for v in 1..=9 {
                ok[v as usize] = allowed(grid, i, v);
            }
            let n = ok.iter().filter(|&&b| b).count();
            if best.is_none_or(|(_, _, m)| n < m) {
                best = Some((i, ok, n));
            }
        }
    }
    let Some((i, ok, _)) = best else {
        *found += 1;
        if first.is_none() {
            *first = Some(*grid);
        }
        return;
    };
    let digits = (1..=9u8).filter(|&v| ok[v as usize]);
    for v in digits {
        grid[i] = v;
        search(grid, limit, found, first);
        grid[i] = 0;
        if *found >= limit {
            return;
        }
    }
}

/// Whether `cells` is a complete grid obeying every house.
pub fn is_valid_grid(cells: &[u8; 81]) -> bool {
    let mut g = *cells;
    (0..81).all(|i| {
        let v = g[i];
        g[i] = 0;
        let ok = (1..=9).contains(&v) && allowed(&g, i, v);
        g[i] = v;
        ok
    })
}
