//! The soak's independent checker: reads `shudu generate --format json` records on standard input
//! and checks each with an independent solver that shares no code with shudu's: a plain
//! backtracking search on row, column and box masks ([`masks_count`], written for this check;
//! the first 1,000 records are also checked with the test suite's slower oracle,
//! `tests/common/oracle.rs`, and the two must agree): exactly one solution, the record's solution is
//! a valid grid that completes the puzzle, the givens count and symmetry are the record's, and,
//! with `--minimal-every K`, every K-th puzzle loses uniqueness without any one of its givens.
//!
//! ```text
//! shudu generate -n 1000000 --minimal --format json --timeout none \
//!   | cargo run --release -p shudu-tools --example soak_check -- --minimal-every 100
//! ```
//!
//! Prints one summary line (`checked N, faults F, minimality checked M`) and exits 1 on any
//! fault, naming the record (line number and puzzle). Used by `scripts/soak.sh`; results in
//! BENCHMARKS.md.

use std::io::{BufRead, Write};
use std::process::ExitCode;

#[path = "../../core/tests/common/oracle.rs"]
mod oracle;

/// The string value of `"key":"..."` in a JSON object written by shudu (no escapes occur in
/// puzzles, solutions or symmetry names).
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!("\"{key}\":\"");
    let at = line.find(&pat)? + pat.len();
    let end = line[at..].find('"')?;
    Some(&line[at..at + end])
}

/// The number value of `"key":N`.
fn number(line: &str, key: &str) -> Option<usize> {
    let pat = format!("\"{key}\":");
    let at = line.find(&pat)? + pat.len();
    let digits: String = line[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

fn cells(text: &str) -> Option<[u8; 81]> {
    let bytes = text.as_bytes();
    if bytes.len() != 81 {
        return None;
    }
    let mut out = [0u8; 81];
    for (o, &b) in out.iter_mut().zip(bytes) {
        *o = match b {
            b'.' | b'0' => 0,
            b'1'..=b'9' => b - b'0',
            _ => return None,
        };
    }
    Some(out)
}

/// The cell that `symmetry` maps cell `i` to, for the symmetries whose pattern is closed under
/// one map (the others are checked through their generators).
fn images(symmetry: &str, i: usize) -> Vec<usize> {
    let (r, c) = (i / 9, i % 9);
    let at = |r: usize, c: usize| r * 9 + c;
    match symmetry {
        "rot180" => vec![at(8 - r, 8 - c)],
        "rot90" => vec![at(c, 8 - r)],
        "mirror-h" => vec![at(8 - r, c)],
        "mirror-v" => vec![at(r, 8 - c)],
        "mirror-both" => vec![at(8 - r, c), at(r, 8 - c)],
        "diagonal" => vec![at(c, r)],
        "anti-diagonal" => vec![at(8 - c, 8 - r)],
        "both-diagonals" => vec![at(c, r), at(8 - c, 8 - r)],
        "dihedral" => vec![at(c, 8 - r), at(8 - r, c)],
        _ => vec![],
    }
}

/// Counts the solutions of `cells` up to `limit` by backtracking on the empty cell with the
/// fewest allowed digits, with the digits of each row, column and box kept as bit masks. No
/// propagation beyond that choice: plain enough to trust, fast enough for ten million puzzles.
fn masks_count(cells: &[u8; 81], limit: usize) -> usize {
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    let mut empty = Vec::with_capacity(81);
    for (i, &v) in cells.iter().enumerate() {
        let (r, c, b) = (i / 9, i % 9, i / 27 * 3 + i % 9 / 3);
        if v == 0 {
            empty.push(i);
            continue;
        }
        let bit = 1u16 << v;
        if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
            return 0; // two equal givens in a house
        }
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
    }
    fn search(
        empty: &mut [usize],
        m: &mut ([u16; 9], [u16; 9], [u16; 9]),
        limit: usize,
        found: &mut usize,
    ) {
        if empty.is_empty() {
            *found += 1;
            return;
        }
        let allowed = |i: usize, m: &([u16; 9], [u16; 9], [u16; 9])| {
            !(m.0[i / 9] | m.1[i % 9] | m.2[i / 27 * 3 + i % 9 / 3]) & 0b11_1111_1110
        };
        let (mut best, mut best_n) = (0, u32::MAX);
        for (k, &i) in empty.iter().enumerate() {
            let n = allowed(i, m).count_ones();
            if n < best_n {
                (best, best_n) = (k, n);
                if n <= 1 {
                    break;
                }
            }
        }
        empty.swap(0, best);
        let i = empty[0];
        let (r, c, b) = (i / 9, i % 9, i / 27 * 3 + i % 9 / 3);
        let mut digits = allowed(i, m);
        while digits != 0 && *found < limit {
            let bit = digits & digits.wrapping_neg();
            digits ^= bit;
            m.0[r] |= bit;
            m.1[c] |= bit;
            m.2[b] |= bit;
            search(&mut empty[1..], m, limit, found);
            m.0[r] ^= bit;
            m.1[c] ^= bit;
            m.2[b] ^= bit;
        }
        empty.swap(0, best);
    }
    let mut found = 0;
    search(&mut empty, &mut (rows, cols, boxes), limit, &mut found);
    found
}

fn check(line: &str, minimal: bool, cross: bool) -> Result<(), String> {
    let puzzle = field(line, "puzzle")
        .and_then(cells)
        .ok_or("no 81-cell puzzle")?;
    let solution = field(line, "solution")
        .and_then(cells)
        .ok_or("no 81-cell solution")?;
    let count = masks_count(&puzzle, 2);
    if cross && oracle::count(&puzzle, 2).0 != count {
        return Err("the two independent solvers disagree".into());
    }
    if count != 1 {
        return Err(format!(
            "the oracle finds {} solutions",
            if count >= 2 { "several" } else { "no" }
        ));
    }
    if !oracle::is_valid_grid(&solution) {
        return Err("the solution breaks a rule".into());
    }
    if puzzle
        .iter()
        .zip(&solution)
        .any(|(&p, &s)| p != 0 && p != s)
    {
        return Err("the solution does not complete the puzzle".into());
    }
    let givens = puzzle.iter().filter(|&&v| v != 0).count();
    if number(line, "givens") != Some(givens) {
        return Err(format!("{givens} givens, not the record's"));
    }
    let symmetry = field(line, "symmetry").unwrap_or("none");
    for i in 0..81 {
        for j in images(symmetry, i) {
            if (puzzle[i] == 0) != (puzzle[j] == 0) {
                return Err(format!("not {symmetry}-symmetric (cells {i} and {j})"));
            }
        }
    }
    if minimal {
        for i in (0..81).filter(|&i| puzzle[i] != 0) {
            let mut fewer = puzzle;
            fewer[i] = 0;
            if masks_count(&fewer, 2) == 1 {
                return Err(format!("not minimal: given {i} can be removed"));
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut minimal_every = 0usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match (a.as_str(), args.next().and_then(|v| v.parse().ok())) {
            ("--minimal-every", Some(k)) => minimal_every = k,
            _ => {
                eprintln!("usage: soak_check [--minimal-every K] < records.jsonl");
                return ExitCode::from(2);
            }
        }
    }
    let (mut checked, mut faults, mut minimality) = (0u64, 0u64, 0u64);
    let stdin = std::io::stdin().lock();
    for (n, line) in stdin.lines().enumerate() {
        let Ok(line) = line else {
            eprintln!("soak_check: line {}: not UTF-8", n + 1);
            faults += 1;
            continue;
        };
        if line.trim().is_empty() {
            continue;
        }
        let minimal = minimal_every > 0 && checked % minimal_every as u64 == 0;
        minimality += u64::from(minimal);
        if let Err(e) = check(&line, minimal, checked < 1000) {
            faults += 1;
            let _ = writeln!(std::io::stderr(), "soak_check: line {}: {e}: {line}", n + 1);
        }
        checked += 1;
    }
    println!("checked {checked}, faults {faults}, minimality checked {minimality}");
    if faults == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
