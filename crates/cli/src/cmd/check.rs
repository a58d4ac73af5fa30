//! `shudu check`: what a puzzle file holds, puzzle by puzzle, for anyone who received one.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use rayon::prelude::*;
use shudu_core::canon::PuzzleCanonicalizer;
use shudu_core::format::Record;
use shudu_core::generate::{is_minimal, Symmetry};
use shudu_core::solver::count_solutions;
use shudu_core::{Cell, ParseError, Puzzle};

use crate::exit;
use crate::io::{self, Output};

/// Arguments of `shudu check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The file to check (any format, detected), or one puzzle of 81 characters; `-` or
    /// nothing reads standard input.
    #[arg(value_name = "FILE|PUZZLE")]
    input: Option<PathBuf>,
    /// Write the report to FILE (replaced whole, atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = shudu::args::parse_threads)]
    threads: Option<usize>,
}

/// What one record turned out to be.
enum Verdict {
    /// A complete grid (every cell filled; the reader has checked the rules).
    Grid,
    /// A puzzle with holes: its solution count (capped at 2) and, when it is 1, minimality.
    Puzzle { solutions: usize, minimal: bool },
    /// A pencil-mark record: how many grids keep to its marks (capped at 2), and how many
    /// candidates it has.
    Marks { solutions: usize, candidates: usize },
}

/// The report of a whole file.
#[derive(Default)]
struct Tally {
    proper: usize,
    minimal: usize,
    several: usize,
    none: usize,
    grids: usize,
    repeated: usize,
    unreadable: usize,
    first_digits: [usize; 10],
    /// Fingerprints of the canonical forms met (`shudu canon`): the boards' equivalence
    /// classes. 16 bytes a class rather than a board's 81 and its table overhead.
    classes: HashSet<u128>,
}

/// Records per parallel batch (bounds memory on huge inputs).
const BATCH: usize = 1 << 14;

/// Runs `shudu check`.
pub fn run(args: &CheckArgs) -> Result<ExitCode> {
    io::set_threads(args.threads, usize::MAX)?;
    let input = io::RecordStream::open_or_puzzle(args.input.as_deref())?;
    let name = input.name().to_string();
    let mut out = Output::create(args.output.as_deref())?;
    let mut tally = Tally::default();
    // First record number of each complete grid seen (by fingerprint), to report repeats: the
    // one thing kept per record, 16 bytes and a number.
    let mut seen: HashMap<u128, usize> = HashMap::new();
    let mut buf = String::new();
    let records = input.for_each_batch(BATCH, |batch| {
        let checked: Vec<Result<(Record, Verdict, Puzzle), ParseError>> = batch
            .into_par_iter()
            .map_init(PuzzleCanonicalizer::new, |canon, r| {
                r.map(|rec| {
                    let v = match rec.marks.as_deref() {
                        Some(marks) => marks_verdict(&rec.puzzle, marks),
                        None => verdict(&rec.puzzle),
                    };
                    let form = shudu_core::canon::canonical_board(&rec.puzzle, canon).form;
                    (rec, v, form)
                })
            })
            .collect();
        buf.clear();
        let mut problems = String::new();
        for item in checked {
            let (rec, v) = match item {
                Ok((rec, v, form)) => {
                    // Classes of puzzles: pencil-mark records are not puzzles of givens.
                    if rec.marks.is_none() {
                        tally.classes.insert(fingerprint(form.as_bytes()));
                    }
                    (rec, v)
                }
                Err(e) => {
                    tally.unreadable += 1;
                    let _ = writeln!(buf, "{e} (unreadable)");
                    let _ = writeln!(problems, "shudu: {e}");
                    continue;
                }
            };
            let _ = write!(buf, "puzzle {}, line {}: ", rec.number, rec.line);
            match v {
                Verdict::Grid => {
                    tally.grids += 1;
                    let first = rec.puzzle.get(Cell::from_index(0)).map_or(0, |d| d.get());
                    tally.first_digits[first as usize] += 1;
                    let _ = write!(buf, "complete grid, valid, first digit {first}");
                    match seen.get(&fingerprint(rec.puzzle.as_bytes())) {
                        Some(&earlier) => {
                            tally.repeated += 1;
                            let _ = write!(buf, ", same grid as puzzle {earlier}");
                        }
                        None => {
                            seen.insert(fingerprint(rec.puzzle.as_bytes()), rec.number);
                        }
                    }
                    buf.push('\n');
                }
                Verdict::Marks {
                    solutions,
                    candidates,
                } => {
                    buf.push_str(match solutions {
                        0 => "pencil marks, no solution",
                        1 => "pencil marks, 1 solution",
                        _ => "pencil marks, 2+ solutions",
                    });
                    match solutions {
                        0 => tally.none += 1,
                        1 => tally.proper += 1,
                        _ => tally.several += 1,
                    }
                    let _ = writeln!(
                        buf,
                        ", {candidates} candidates, {} cells with one",
                        rec.puzzle.givens()
                    );
                }
                Verdict::Puzzle { solutions, minimal } => {
                    match solutions {
                        0 => {
                            tally.none += 1;
                            buf.push_str("valid, no solution");
                        }
                        1 => {
                            tally.proper += 1;
                            buf.push_str("valid, 1 solution");
                            if minimal {
                                tally.minimal += 1;
                                buf.push_str(", minimal");
                            } else {
                                buf.push_str(", not minimal");
                            }
                        }
                        _ => {
                            tally.several += 1;
                            buf.push_str("valid, 2+ solutions");
                        }
                    }
                    let _ = writeln!(
                        buf,
                        ", {} givens, symmetry {}",
                        rec.puzzle.givens(),
                        symmetry_label(&rec.puzzle)
                    );
                }
            }
        }
        io::say(&problems);
        out.write_all(buf.as_bytes())?;
        out.flush_batch()
    })?;
    if records == 0 {
        drop(out);
        anyhow::bail!("{name} holds no puzzle; nothing written");
    }
    out.write_all(summary(&tally).as_bytes())?;
    out.finish()?;
    Ok(if tally.unreadable > 0 {
        ExitCode::from(exit::INPUT)
    } else if tally.several + tally.none + tally.repeated > 0 {
        ExitCode::from(exit::NOT_UNIQUE)
    } else {
        ExitCode::SUCCESS
    })
}

/// A 128-bit fingerprint of a board's cells: two SipHash values under different keys. Two
/// different boards share one with odds of about n² / 2¹²⁹ (below 10⁻²² for 10⁸ boards).
fn fingerprint(cells: &[u8; 81]) -> u128 {
    use std::hash::{Hash, Hasher};
    let half = |key: u8| {
        let mut h = std::hash::DefaultHasher::new();
        key.hash(&mut h);
        cells.hash(&mut h);
        h.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// A pencil-mark record's verdict: how many grids keep to its marks (capped at 2).
fn marks_verdict(p: &Puzzle, marks: &shudu_core::format::Marks) -> Verdict {
    let mut solver = shudu_core::solver::Solver::new(p);
    solver.restrict(marks);
    Verdict::Marks {
        solutions: solver.count(2).count,
        candidates: marks.iter().map(|m| m.len() as usize).sum(),
    }
}

fn verdict(p: &Puzzle) -> Verdict {
    if p.is_full() {
        return Verdict::Grid;
    }
    let out = count_solutions(p, 2);
    let minimal = match (out.count, out.solution) {
        (1, Some(g)) => is_minimal(p, &g),
        _ => false,
    };
    Verdict::Puzzle {
        solutions: out.count,
        minimal,
    }
}

/// The strongest symmetries of the pattern of givens: those it has that no other symmetry it has
/// implies (a dihedral pattern is just "dihedral"); "none" if it has none.
fn symmetry_label(p: &Puzzle) -> String {
    let held = Symmetry::detect(p);
    let implied_by = |weak: Symmetry, strong: Symmetry| {
        // `strong` implies `weak` if and only if each orbit of `strong` is a union of orbits
        // of `weak`.
        weak != strong
            && strong.orbits().iter().all(|&o| {
                weak.orbits()
                    .iter()
                    .all(|&w| (w & o).is_empty() || (w & o) == w)
            })
    };
    let strongest: Vec<&str> = held
        .iter()
        .filter(|&&s| !held.iter().any(|&t| implied_by(s, t)))
        .map(|s| s.name())
        .collect();
    if strongest.is_empty() {
        "none".to_string()
    } else {
        strongest.join("+")
    }
}

fn summary(t: &Tally) -> String {
    let puzzles = t.proper + t.several + t.none;
    let mut s = format!(
        "checked {}: {} ({} with 1 solution, {} of them minimal; {} with 2+; {} with none), {}",
        shudu_core::error::counted(puzzles + t.grids + t.unreadable, "record"),
        shudu_core::error::counted(puzzles, "puzzle"),
        t.proper,
        t.minimal,
        t.several,
        t.none,
        shudu_core::error::counted(t.grids, "complete grid"),
    );
    if t.grids > 0 {
        if t.repeated == 0 {
            s.push_str(" (all distinct");
        } else {
            let _ = write!(s, " ({} repeated", t.repeated);
        }
        let firsts: Vec<String> = (1..10)
            .filter(|&d| t.first_digits[d] > 0)
            .map(|d| format!("{d} in {}", t.first_digits[d]))
            .collect();
        if firsts.len() == 1 {
            let d = (1..10).find(|&d| t.first_digits[d] > 0).unwrap_or(0);
            let _ = write!(s, "; first digit {d} in all)");
        } else {
            let _ = write!(s, "; first digits: {})", firsts.join(", "));
        }
    }
    let _ = write!(s, ", {} unreadable", t.unreadable);
    if puzzles + t.grids > 0 {
        let _ = write!(
            s,
            "; {} essentially different (up to transposing, swapping rows, columns, bands or \
             stacks, and renaming digits)",
            t.classes.len()
        );
    }
    s.push('\n');
    s
}
