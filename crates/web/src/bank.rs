//! The bank: rated puzzles built into the server for every band and symmetry, made by shudu's
//! own generator (`cargo run --release -p shudu-tools -- bank`, which checks each one unique and
//! rates it again; `docs/rated.md`, "The game's bank"). The pool deals from it while its
//! workers have not yet made a fresh puzzle of the band asked for: at start, and for the shelves
//! generation cannot keep up with (extreme with a symmetry). A bank puzzle is dealt to a browser
//! only if its class is not among those the browser says it has seen.

use std::sync::OnceLock;

use shudu_core::pack;
use shudu_core::Puzzle;

use crate::engine::{Band, Rating, Symmetry};

/// The bank file, built into the binary.
const BANK: &[u8] = include_bytes!("../bank/bank.bin");

/// What the bank file starts with.
const MAGIC: &[u8] = b"SHUDUBANK1\n";

/// A puzzle of the bank.
#[derive(Clone, Copy, Debug)]
pub struct Banked {
    /// The givens: exactly one solution, the symmetry below.
    pub puzzle: Puzzle,
    /// Its rating; its band is the rating's.
    pub rating: Rating,
    /// The symmetry it was made with.
    pub symmetry: Symmetry,
    /// The technique of its hardest step.
    pub hardest: &'static str,
    /// Its class (the hash of its canonical form that the game's `seen` lists hold).
    pub key: u64,
}

/// Every puzzle of the bank, read on first use.
pub fn all() -> &'static [Banked] {
    static ALL: OnceLock<Vec<Banked>> = OnceLock::new();
    ALL.get_or_init(|| read(BANK).unwrap_or_else(|e| panic!("the built-in bank: {e}")))
}

/// The bank's puzzles of one band and symmetry.
pub fn shelf(band: Band, symmetry: Symmetry) -> impl Iterator<Item = &'static Banked> {
    all()
        .iter()
        .filter(move |b| b.symmetry == symmetry && Band::of(b.rating) == band)
}

/// Reads a bank file: the magic line, the technique names (a count, then each name's length and
/// bytes), then [`pack`] records with three extra bytes (symmetry index in [`Symmetry::ALL`],
/// rating in tenths, technique index).
///
/// # Errors
/// A message naming the byte or record that cannot be read.
pub(crate) fn read(bytes: &[u8]) -> Result<Vec<Banked>, String> {
    let rest = bytes
        .strip_prefix(MAGIC)
        .ok_or("the file does not start with SHUDUBANK1")?;
    let (&count, mut rest) = rest.split_first().ok_or("no technique names")?;
    let mut names: Vec<&'static str> = Vec::with_capacity(count as usize);
    for i in 0..count {
        let (&len, tail) = rest
            .split_first()
            .ok_or(format!("technique name {i}: cut short"))?;
        let name = tail
            .get(..len as usize)
            .ok_or(format!("technique name {i}: cut short"))?;
        let name = std::str::from_utf8(name).map_err(|e| format!("technique name {i}: {e}"))?;
        // Read once a process (`all`), so the few names live as long as the bank does.
        names.push(Box::leak(name.to_owned().into_boxed_str()));
        rest = &tail[len as usize..];
    }
    let records = pack::records(rest, 3).map_err(|e| e.to_string())?;
    records
        .into_iter()
        .enumerate()
        .map(|(i, (puzzle, extra))| {
            let symmetry = *Symmetry::ALL
                .get(extra[0] as usize)
                .ok_or(format!("record {i}: symmetry {} unknown", extra[0]))?;
            let hardest = *names
                .get(extra[2] as usize)
                .ok_or(format!("record {i}: technique {} unknown", extra[2]))?;
            Ok(Banked {
                puzzle,
                rating: Rating(u16::from(extra[1])),
                symmetry,
                hardest,
                key: crate::engine::class_key(&puzzle),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_bank_is_refused_with_where() {
        assert!(read(b"SHUDUBANK2\n").unwrap_err().contains("SHUDUBANK1"));
        let mut bytes = BANK.to_vec();
        bytes.truncate(bytes.len() - 2);
        let e = read(&bytes).unwrap_err();
        assert!(e.contains("packed puzzle"), "{e}");
    }
}
