//! The rules of a variant: its size, its houses and its extra constraints, and what follows from
//! them for every cell (the cells it must differ from).

use std::fmt;

use thiserror::Error;

/// The largest size: 16 digits, written `1`-`9` then `A`-`G`.
pub const MAX_SIZE: usize = 16;

/// A killer cage: its cells hold distinct digits that add up to `sum`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// The cells, as indices `row * size + column`.
    pub cells: Vec<usize>,
    /// The sum of its digits; `None` for a cage whose digits only differ.
    pub sum: Option<u32>,
}

/// Why a set of rules cannot be built; each names the field at fault and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The size is not one of 4, 6, 8, 9, 12, 16 (the sizes with rectangular boxes).
    #[error("size {0} has no boxes: expected 4, 6, 8, 9, 12 or 16")]
    Size(usize),
    /// Windoku's four extra boxes are defined for 9×9 only.
    #[error("windoku needs size 9 (its four extra boxes are 3×3), not {0}")]
    WindokuSize(usize),
    /// A jigsaw layout that is not `size` regions of `size` connected cells.
    #[error("regions: {0}")]
    Regions(String),
    /// A cage that cannot be satisfied or overlaps another.
    #[error("cage {index}: {why}")]
    Cage {
        /// The cage's position in the list, from 1.
        index: usize,
        /// What is wrong with it.
        why: String,
    },
}

/// The layout of a variant: size, boxes or jigsaw regions, extra houses and constraints.
///
/// Build it with [`Rules::classic`] and the `with_*` methods; each checks what it adds.
#[derive(Clone, PartialEq, Eq)]
pub struct Rules {
    size: usize,
    box_rows: usize,
    box_cols: usize,
    regions: Option<Vec<u8>>,
    diagonals: bool,
    windoku: bool,
    anti_knight: bool,
    anti_king: bool,
    cages: Vec<Cage>,
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rules({})", self.describe())
    }
}

impl Rules {
    /// Classic rules of a size: rows, columns and boxes of 2×2 (4), 2×3 (6), 2×4 (8), 3×3 (9),
    /// 3×4 (12) or 4×4 (16) cells.
    pub fn classic(size: usize) -> Result<Rules, RulesError> {
        let (box_rows, box_cols) = match size {
            4 => (2, 2),
            6 => (2, 3),
            8 => (2, 4),
            9 => (3, 3),
            12 => (3, 4),
            16 => (4, 4),
            _ => return Err(RulesError::Size(size)),
        };
        Ok(Rules {
            size,
            box_rows,
            box_cols,
            regions: None,
            diagonals: false,
            windoku: false,
            anti_knight: false,
            anti_king: false,
            cages: Vec::new(),
        })
    }

    /// Adds the two main diagonals as houses (Sudoku X).
    pub fn with_diagonals(mut self) -> Rules {
        self.diagonals = true;
        self
    }

    /// Adds Windoku's four extra 3×3 boxes (9×9 only), whose corners are r2c2, r2c6, r6c2, r6c6.
    pub fn with_windoku(mut self) -> Result<Rules, RulesError> {
        if self.size != 9 {
            return Err(RulesError::WindokuSize(self.size));
        }
        self.windoku = true;
        Ok(self)
    }

    /// Cells a chess knight's move apart hold different digits.
    pub fn with_anti_knight(mut self) -> Rules {
        self.anti_knight = true;
        self
    }

    /// Cells a chess king's move apart (diagonal neighbours included) hold different digits.
    pub fn with_anti_king(mut self) -> Rules {
        self.anti_king = true;
        self
    }

    /// Replaces the boxes by jigsaw regions: `regions[cell]` is the region (0 to size-1) of each
    /// cell; every region must hold `size` orthogonally connected cells.
    pub fn with_regions(mut self, regions: Vec<u8>) -> Result<Rules, RulesError> {
        let n = self.size;
        if regions.len() != n * n {
            return Err(RulesError::Regions(format!(
                "{} cells given, expected {}",
                regions.len(),
                n * n
            )));
        }
        let mut count = vec![0usize; n];
        for (cell, &r) in regions.iter().enumerate() {
            if r as usize >= n {
                return Err(RulesError::Regions(format!(
                    "r{}c{} is in region {r}, expected 0 to {}",
                    cell / n + 1,
                    cell % n + 1,
                    n - 1
                )));
            }
            count[r as usize] += 1;
        }
        if let Some(r) = count.iter().position(|&c| c != n) {
            return Err(RulesError::Regions(format!(
                "region {r} has {} cells, expected {n}",
                count[r]
            )));
        }
        for r in 0..n as u8 {
            if !connected(
                n,
                &regions
                    .iter()
                    .enumerate()
                    .filter(|x| *x.1 == r)
                    .map(|x| x.0)
                    .collect::<Vec<_>>(),
            ) {
                return Err(RulesError::Regions(format!("region {r} is not connected")));
            }
        }
        self.regions = Some(regions);
        Ok(self)
    }

    /// Adds killer cages: no cell in two cages, at most `size` cells a cage, and each sum one
    /// that distinct digits of the cage's count can make.
    pub fn with_cages(mut self, cages: Vec<Cage>) -> Result<Rules, RulesError> {
        let n = self.size;
        let mut owner = vec![usize::MAX; n * n];
        for (i, cage) in cages.iter().enumerate() {
            let bad = |why: String| RulesError::Cage { index: i + 1, why };
            if cage.cells.is_empty() || cage.cells.len() > n {
                return Err(bad(format!(
                    "{} cells, expected 1 to {n}",
                    cage.cells.len()
                )));
            }
            for &c in &cage.cells {
                if c >= n * n {
                    return Err(bad(format!("cell {c} is outside the {n}×{n} grid")));
                }
                if owner[c] != usize::MAX {
                    return Err(bad(format!(
                        "r{}c{} is already in cage {}",
                        c / n + 1,
                        c % n + 1,
                        owner[c] + 1
                    )));
                }
                owner[c] = i;
            }
            if let Some(sum) = cage.sum {
                let k = cage.cells.len() as u32;
                let (lo, hi) = (k * (k + 1) / 2, k * (2 * n as u32 - k + 1) / 2);
                if sum < lo || sum > hi {
                    return Err(bad(format!(
                        "sum {sum} with {k} distinct digits: expected {lo} to {hi}"
                    )));
                }
            }
        }
        self.cages.extend(cages);
        Ok(self)
    }

    /// Digits (and rows, columns) per house.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of cells, `size²`.
    pub fn cells(&self) -> usize {
        self.size * self.size
    }

    /// The killer cages.
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// The jigsaw regions (`regions[cell]`), if they replace the boxes.
    pub fn regions(&self) -> Option<&[u8]> {
        self.regions.as_deref()
    }

    /// Whether both diagonals are houses (Sudoku X).
    pub fn has_diagonals(&self) -> bool {
        self.diagonals
    }

    /// Whether Windoku's four extra boxes are houses.
    pub fn has_windoku(&self) -> bool {
        self.windoku
    }

    /// Whether cells a knight's move apart differ.
    pub fn has_anti_knight(&self) -> bool {
        self.anti_knight
    }

    /// Whether cells a king's move apart differ.
    pub fn has_anti_king(&self) -> bool {
        self.anti_king
    }

    /// Whether these are the classic 9×9 rules, which [`crate::solver`] handles faster.
    pub fn is_classic_9(&self) -> bool {
        self.size == 9 && *self == Rules::classic(9).unwrap()
    }

    /// A short description: `9x9 x, killer (12 cages)`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.regions.is_some() {
            parts.push("jigsaw".to_string());
        }
        if self.diagonals {
            parts.push("x".to_string());
        }
        if self.windoku {
            parts.push("windoku".to_string());
        }
        if self.anti_knight {
            parts.push("anti-knight".to_string());
        }
        if self.anti_king {
            parts.push("anti-king".to_string());
        }
        if !self.cages.is_empty() {
            parts.push(format!("killer ({} cages)", self.cages.len()));
        }
        let n = self.size;
        if parts.is_empty() {
            format!("{n}x{n} classic")
        } else {
            format!("{n}x{n} {}", parts.join(", "))
        }
    }

    /// The region (box or jigsaw piece) of a cell.
    pub fn region(&self, cell: usize) -> usize {
        match &self.regions {
            Some(r) => r[cell] as usize,
            None => {
                let (row, col) = (cell / self.size, cell % self.size);
                (row / self.box_rows) * (self.size / self.box_cols) + col / self.box_cols
            }
        }
    }

    /// Every house: a set of `size` cells that holds each digit once (rows, columns, regions,
    /// diagonals); Windoku's extra boxes (9 cells) too.
    pub fn houses(&self) -> Vec<Vec<usize>> {
        let n = self.size;
        let mut houses: Vec<Vec<usize>> = Vec::new();
        for r in 0..n {
            houses.push((0..n).map(|c| r * n + c).collect());
        }
        for c in 0..n {
            houses.push((0..n).map(|r| r * n + c).collect());
        }
        let mut regions = vec![Vec::new(); n];
        for cell in 0..n * n {
            regions[self.region(cell)].push(cell);
        }
        houses.extend(regions);
        if self.diagonals {
            houses.push((0..n).map(|i| i * n + i).collect());
            houses.push((0..n).map(|i| i * n + (n - 1 - i)).collect());
        }
        if self.windoku {
            for (r0, c0) in [(1, 1), (1, 5), (5, 1), (5, 5)] {
                houses.push((0..9).map(|i| (r0 + i / 3) * 9 + c0 + i % 3).collect());
            }
        }
        houses
    }

    /// For every cell, the cells that must hold another digit: its houses', its cage's and, with
    /// anti-knight or anti-king, the cells a knight's or king's move away. Sorted, without the
    /// cell itself.
    pub fn peers(&self) -> Vec<Vec<usize>> {
        let n = self.size;
        let mut peers = vec![Vec::new(); n * n];
        let mut link = |a: usize, b: usize| {
            if a != b {
                peers[a].push(b);
                peers[b].push(a);
            }
        };
        for house in self.houses() {
            for (i, &a) in house.iter().enumerate() {
                for &b in &house[i + 1..] {
                    link(a, b);
                }
            }
        }
        for cage in &self.cages {
            for (i, &a) in cage.cells.iter().enumerate() {
                for &b in &cage.cells[i + 1..] {
                    link(a, b);
                }
            }
        }
        let mut moves: Vec<(i32, i32)> = Vec::new();
        if self.anti_knight {
            moves.extend([(1, 2), (2, 1), (-1, 2), (-2, 1)]);
        }
        if self.anti_king {
            moves.extend([(1, 1), (1, -1)]);
        }
        for cell in 0..n * n {
            let (r, c) = ((cell / n) as i32, (cell % n) as i32);
            for &(dr, dc) in &moves {
                let (r2, c2) = (r + dr, c + dc);
                if (0..n as i32).contains(&r2) && (0..n as i32).contains(&c2) {
                    link(cell, (r2 * n as i32 + c2) as usize);
                }
            }
        }
        for p in &mut peers {
            p.sort_unstable();
            p.dedup();
        }
        peers
    }
}

/// Whether `cells` (indices in an `n`×`n` grid) are orthogonally connected.
pub(crate) fn connected(n: usize, cells: &[usize]) -> bool {
    let Some(&first) = cells.first() else {
        return true;
    };
    let mut seen = vec![first];
    let mut todo = vec![first];
    while let Some(c) = todo.pop() {
        let (r, col) = (c / n, c % n);
        let near = [
            (r > 0).then(|| c - n),
            (r + 1 < n).then(|| c + n),
            (col > 0).then(|| c - 1),
            (col + 1 < n).then(|| c + 1),
        ];
        for d in near.into_iter().flatten() {
            if cells.contains(&d) && !seen.contains(&d) {
                seen.push(d);
                todo.push(d);
            }
        }
    }
    seen.len() == cells.len()
}
