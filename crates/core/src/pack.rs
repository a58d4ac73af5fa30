//! A compact binary form for lists of puzzles, for lists built into a program: the hard puzzles
//! the vicinity hunt starts from ([`crate::rated::seeds`]) and the game's bank of rated puzzles.
//!
//! A record is the puzzle's givens as an 81-bit mask (11 bytes, cell `i` at bit `i % 8` of byte
//! `i / 8`), then the givens' digits in cell order, two to a byte (the first in the low
//! nibble; a last odd digit leaves the high nibble 0), then `extra` bytes the caller defines
//! (the bank keeps a puzzle's ratings there). A minimal puzzle of 22 givens takes 22 bytes, a
//! quarter of its line; the lists need no decompressor.

use std::fmt;

use crate::grid::Puzzle;

/// Bytes of a record's givens mask.
const MASK: usize = 11;

/// Appends `p` and its `extra` bytes to `out` as one record.
///
/// # Examples
/// ```
/// use shudu_core::{Puzzle, pack};
/// let p: Puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
///     .parse()?;
/// let mut bytes = Vec::new();
/// pack::push(&mut bytes, &p, &[90]);
/// assert_eq!(bytes.len(), 11 + 9 + 1);
/// assert_eq!(pack::records(&bytes, 1)?, vec![(p, &[90u8][..])]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn push(out: &mut Vec<u8>, p: &Puzzle, extra: &[u8]) {
    let cells = p.as_bytes();
    let mut mask = [0u8; MASK];
    let mut digits = Vec::with_capacity(41);
    for (i, &d) in cells.iter().enumerate() {
        if d != 0 {
            mask[i / 8] |= 1 << (i % 8);
            digits.push(d);
        }
    }
    out.extend_from_slice(&mask);
    out.extend(
        digits
            .chunks(2)
            .map(|pair| pair[0] | pair.get(1).map_or(0, |&d| d << 4)),
    );
    out.extend_from_slice(extra);
}

/// Reads every record of `bytes`, each followed by `extra` bytes, with those bytes.
///
/// # Errors
/// A [`PackError`] naming the record and byte offset where the data is cut short or holds a
/// digit outside 1-9.
pub fn records(bytes: &[u8], extra: usize) -> Result<Vec<(Puzzle, &[u8])>, PackError> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let record = out.len();
        let err = |offset: usize, what: &'static str| PackError {
            record,
            offset,
            what,
        };
        let mask = bytes
            .get(at..at + MASK)
            .ok_or(err(at, "the record ends inside its givens mask"))?;
        if mask[MASK - 1] & !1 != 0 {
            return Err(err(at + MASK - 1, "the givens mask has bits past cell 81"));
        }
        let n: usize = mask.iter().map(|b| b.count_ones() as usize).sum();
        let body = at + MASK;
        let digits = bytes
            .get(body..body + n.div_ceil(2))
            .ok_or(err(body, "the record ends inside its digits"))?;
        let mut cells = [0u8; 81];
        let mut k = 0;
        for (i, cell) in cells.iter_mut().enumerate() {
            if mask[i / 8] & (1 << (i % 8)) != 0 {
                let d = (digits[k / 2] >> (4 * (k % 2))) & 15;
                if !(1..=9).contains(&d) {
                    return Err(err(body + k / 2, "a digit outside 1-9"));
                }
                *cell = d;
                k += 1;
            }
        }
        let tail = body + n.div_ceil(2);
        let extra_bytes = bytes
            .get(tail..tail + extra)
            .ok_or(err(tail, "the record ends inside its extra bytes"))?;
        let puzzle = Puzzle::from_bytes(cells).ok_or(err(at, "not a puzzle"))?;
        out.push((puzzle, extra_bytes));
        at = tail + extra;
    }
    Ok(out)
}

/// Packed data that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackError {
    /// The record (from 0) that cannot be read.
    pub record: usize,
    /// The byte offset where the problem is.
    pub offset: usize,
    /// What is wrong.
    pub what: &'static str,
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "packed puzzle {} (byte {}): {}",
            self.record, self.offset, self.what
        )
    }
}

impl std::error::Error for PackError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_with_extra_bytes() {
        let lines = [
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            ".................................................................................",
            "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
        ];
        let puzzles: Vec<Puzzle> = lines.iter().map(|l| l.parse().unwrap()).collect();
        let mut bytes = Vec::new();
        for (i, p) in puzzles.iter().enumerate() {
            push(&mut bytes, p, &[i as u8, 7]);
        }
        let back = records(&bytes, 2).unwrap();
        assert_eq!(back.len(), 4);
        for (i, (p, extra)) in back.into_iter().enumerate() {
            assert_eq!(p, puzzles[i]);
            assert_eq!(extra, &[i as u8, 7]);
        }
    }

    #[test]
    fn cut_or_corrupt_data_names_the_record() {
        let p: Puzzle =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        let mut bytes = Vec::new();
        push(&mut bytes, &p, &[]);
        push(&mut bytes, &p, &[]);
        let cut = records(&bytes[..bytes.len() - 1], 0).unwrap_err();
        assert_eq!(
            (cut.record, cut.what),
            (1, "the record ends inside its digits")
        );
        let mut bad = bytes.clone();
        bad[MASK] = 0x0a; // digit 10
        let e = records(&bad, 0).unwrap_err();
        assert_eq!((e.record, e.offset), (0, MASK));
        assert!(e.to_string().contains("outside 1-9"), "{e}");
        let mut past = bytes;
        past[MASK - 1] |= 2;
        assert!(records(&past, 0).is_err());
    }
}
