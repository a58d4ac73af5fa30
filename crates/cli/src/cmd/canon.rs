//! `shudu canon`: the canonical form of each grid or puzzle, to tell boards that are the same in
//! disguise (transposed, rows, columns, bands or stacks swapped, digits renamed).

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use rayon::prelude::*;
use shudu_core::canon::{canonical_board, Canonical, PuzzleCanonicalizer};
use shudu_core::error::counted;
use shudu_core::format::Record;
use shudu_core::{ParseError, Puzzle};

use crate::exit;
use crate::io::{self, Output};

/// Arguments of `shudu canon`.
#[derive(Args, Debug)]
pub struct CanonArgs {
    /// The file to read (any format, detected), or one puzzle of 81 characters; `-` or nothing
    /// reads standard input.
    #[arg(value_name = "FILE|PUZZLE")]
    input: Option<PathBuf>,
    /// Print only the first board of each class (equivalence under the Sudoku symmetries), and
    /// say on standard error how many were dropped.
    #[arg(long)]
    dedupe: bool,
    /// Print each board as it was read (as a line) instead of its canonical form; with
    /// --dedupe this filters a file down to one board a class, keeping the first.
    #[arg(long)]
    keep_original: bool,
    /// Follow each line with the board's number of automorphisms (transformations that map it to
    /// itself; 1 for almost every grid).
    #[arg(long)]
    automorphisms: bool,
    /// Write to FILE (replaced whole, atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = shudu::args::parse_threads)]
    threads: Option<usize>,
}

/// Records per parallel batch (bounds memory on huge inputs).
const BATCH: usize = 1 << 14;

/// Runs `shudu canon`.
pub fn run(args: &CanonArgs) -> Result<ExitCode> {
    io::set_threads(args.threads, usize::MAX)?;
    let input = io::RecordStream::open_or_puzzle(args.input.as_deref())?;
    let name = input.name().to_string();
    let mut out = Output::create(args.output.as_deref())?;
    let mut seen: HashSet<Puzzle> = HashSet::new();
    let (mut boards, mut dropped, mut unreadable) = (0usize, 0usize, 0usize);
    let mut buf = String::new();
    let records = input.for_each_batch(BATCH, |batch| {
        let forms: Vec<Result<(Record, Canonical<Puzzle>), ParseError>> = batch
            .into_par_iter()
            .map_init(PuzzleCanonicalizer::new, |canon, r| {
                r.map(|rec| {
                    let c = canonical_board(&rec.puzzle, canon);
                    (rec, c)
                })
            })
            .collect();
        buf.clear();
        let mut problems = String::new();
        for item in forms {
            let (shown, automorphisms) = match item {
                Ok((rec, c)) => {
                    boards += 1;
                    if args.dedupe && !seen.insert(c.form) {
                        dropped += 1;
                        continue;
                    }
                    let shown = if args.keep_original {
                        rec.puzzle
                    } else {
                        c.form
                    };
                    (shown, c.automorphisms)
                }
                Err(e) => {
                    unreadable += 1;
                    let _ = writeln!(problems, "shudu: {e}");
                    if args.dedupe {
                        continue;
                    }
                    // In its place, so that line k of the output stays board k of the input.
                    (Puzzle::empty(), 0)
                }
            };
            buf.push_str(&shown.to_line());
            if args.automorphisms {
                let _ = write!(buf, " {automorphisms}");
            }
            buf.push('\n');
        }
        io::say(&problems);
        out.write_all(buf.as_bytes())?;
        out.flush_batch()
    })?;
    if records == 0 {
        drop(out);
        anyhow::bail!("{name} holds no puzzle; nothing written");
    }
    if boards == 0 {
        // Nothing but unreadable records: an output file keeps what it had.
        out.abandon()?;
    } else {
        out.finish()?;
    }
    if args.dedupe {
        eprintln!(
            "shudu: {} read, {} kept (one a class), {dropped} dropped as equivalent to an earlier \
             one{}",
            counted(boards, "board"),
            boards - dropped,
            if unreadable > 0 {
                format!(", {unreadable} unreadable")
            } else {
                String::new()
            }
        );
    } else if unreadable > 0 {
        eprintln!(
            "shudu: {unreadable} of {} unreadable",
            counted(boards + unreadable, "record")
        );
    }
    Ok(if unreadable > 0 {
        ExitCode::from(exit::INPUT)
    } else {
        ExitCode::SUCCESS
    })
}
