//! `shudu solve`: solves every puzzle of a file, in parallel and in order.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use rayon::prelude::*;
use shudu_core::error::counted;
use shudu_core::format::{Format, Record};
use shudu_core::solver::{solve_unique_marked, Solutions};
use shudu_core::{ParseError, Puzzle};

use crate::exit;
use crate::io::{self, FormatArg, Output};

/// Arguments of `shudu solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The puzzle file (any format, detected), or one puzzle of 81 characters; `-` or nothing
    /// reads standard input.
    #[arg(value_name = "FILE|PUZZLE")]
    input: Option<PathBuf>,
    /// Output format of the solutions.
    #[arg(long, value_enum, default_value_t)]
    format: FormatArg,
    /// Write to FILE (replaced whole, atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// For a puzzle with several solutions, still print one of them.
    #[arg(long)]
    any: bool,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = shudu::args::parse_threads)]
    threads: Option<usize>,
    #[command(flatten)]
    variants: super::variant::InputArgs,
}

/// Runs `shudu solve`.
pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    io::set_threads(args.threads, usize::MAX)?;
    if args.variants.fpuzzles {
        if !matches!(args.format, FormatArg::Line) {
            anyhow::bail!("--format: f-puzzles solutions are written in the line format only");
        }
        let name = args
            .input
            .as_deref()
            .map_or("standard input".to_string(), |p| p.display().to_string());
        let mut out = Output::create(args.output.as_deref())?;
        let summary = super::variant::solve_fpuzzles(args.input.as_deref(), &mut out, args.any)?;
        summary.finish(out, &name)?;
        return Ok(summary.exit_code());
    }
    if let Some(rules) = args.variants.rules()? {
        if !matches!(args.format, FormatArg::Line) {
            anyhow::bail!(
                "--format: variants are written in the line format only (--size, --variant)"
            );
        }
        let name = args
            .input
            .as_deref()
            .map_or("standard input".to_string(), |p| p.display().to_string());
        let mut out = Output::create(args.output.as_deref())?;
        let summary = super::variant::solve(args.input.as_deref(), &rules, &mut out, args.any)?;
        summary.finish(out, &name)?;
        return Ok(summary.exit_code());
    }
    let input = io::RecordStream::open_or_puzzle(args.input.as_deref())?;
    let name = input.name().to_string();
    let mut out = Output::create(args.output.as_deref())?;
    let summary = solve_all(input, &mut out, args.format.into(), args.any)?;
    summary.finish(out, &name)?;
    Ok(summary.exit_code())
}

/// How a batch went.
#[derive(Default, Debug)]
pub struct Summary {
    /// Puzzles with exactly one solution.
    pub unique: usize,
    /// Puzzles with two or more.
    pub multiple: usize,
    /// Puzzles with none.
    pub none: usize,
    /// Records that could not be read.
    pub invalid: usize,
}

impl Summary {
    /// Puzzles that could be read.
    pub fn readable(&self) -> usize {
        self.unique + self.multiple + self.none
    }

    /// Puts the output in place, unless no record could be read: then the run produced nothing
    /// useful and an output file is left as it was.
    ///
    /// # Errors
    ///
    /// An input with no record at all (`name` says which: an empty file is a mistake, not a
    /// batch of nothing), or a write error.
    pub fn finish(&self, out: Output, name: &str) -> Result<()> {
        if self.readable() + self.invalid == 0 {
            drop(out);
            anyhow::bail!("{name} holds no puzzle; nothing written");
        }
        if self.readable() == 0 {
            out.abandon()
        } else {
            out.finish()
        }
    }

    /// Says on standard error how the batch went, when some puzzle was not solved uniquely.
    pub fn report(&self) {
        let failed = self.multiple + self.none + self.invalid;
        if failed > 0 {
            eprintln!(
                "shudu: {} of {} solved uniquely; {} with no solution, {} with several, {} unreadable",
                self.unique,
                counted(self.unique + failed, "puzzle"),
                self.none,
                self.multiple,
                self.invalid
            );
        }
    }

    /// 2 if a record was malformed, else 1 if a puzzle lacked a unique solution, else 0.
    pub fn exit_code(&self) -> ExitCode {
        if self.invalid > 0 {
            ExitCode::from(exit::INPUT)
        } else if self.multiple + self.none > 0 {
            ExitCode::from(exit::NOT_UNIQUE)
        } else {
            ExitCode::SUCCESS
        }
    }
}

#[derive(serde::Serialize)]
struct JsonRecord<'a> {
    number: usize,
    line: usize,
    puzzle: Option<String>,
    status: &'a str,
    solution: Option<String>,
    error: Option<String>,
}

/// Appends `shudu: puzzle N, line L` to `out`.
fn problem_at(out: &mut String, number: usize, line: usize) {
    let mut n = itoa::Buffer::new();
    out.push_str("shudu: puzzle ");
    out.push_str(n.format(number));
    out.push_str(", line ");
    out.push_str(n.format(line));
}

/// Records per parallel batch: bounds memory on huge inputs while keeping both cores busy. A
/// batch's records and answers stay in the caches: 4,096 was 4-6% faster than 32,768 on the easy
/// sets with one thread (BENCHMARKS.md), and 1,024 no faster.
const BATCH: usize = 1 << 12;

/// Solves every record of `input` and writes one output record for each input record, in input
/// order, so that answer `k` always belongs to puzzle `k`: the solution of a puzzle with exactly
/// one; the puzzle back unchanged for one with none or several (with `any`, one of the several
/// solutions); an empty grid for a record that cannot be read. In JSON each record carries its
/// status. Problems go to standard error, one line each, naming the puzzle and its line.
pub fn solve_all(
    input: io::RecordStream,
    out: &mut Output,
    format: Format,
    any: bool,
) -> Result<Summary> {
    let mut summary = Summary::default();
    let mut written = 0;
    let mut buf = Vec::with_capacity(BATCH * 180);
    // Solve each batch on the pool while the reading thread reads the next.
    input.for_each_batch(BATCH, |batch| {
        let solved: Vec<Result<(Record, Solutions), ParseError>> = batch
            .into_par_iter()
            .map(|r| {
                r.map(|rec| {
                    let s = solve_unique_marked(&rec.puzzle, rec.marks.as_deref());
                    (rec, s)
                })
            })
            .collect();
        buf.clear();
        // Problems of the batch, written at once: standard error is unbuffered, and a line
        // each would be a system call each (most of the run's time on a file of 50,000
        // puzzles with several solutions).
        let mut problems = String::new();
        for item in solved {
            let (status, rec, solution, error) = match item {
                Ok((rec, Solutions::Unique(g))) => {
                    summary.unique += 1;
                    ("unique", Some(rec), Some(g.to_puzzle()), None)
                }
                Ok((rec, Solutions::Multiple(g))) => {
                    summary.multiple += 1;
                    // Written piece by piece: `format!` machinery was 3% of a run on puzzles
                    // that all have several solutions.
                    problem_at(&mut problems, rec.number, rec.line);
                    problems.push_str(": more than one solution");
                    problems.push_str(if any { " (printing one)\n" } else { "\n" });
                    ("multiple", Some(rec), any.then(|| g.to_puzzle()), None)
                }
                Ok((rec, Solutions::None)) => {
                    summary.none += 1;
                    problem_at(&mut problems, rec.number, rec.line);
                    problems.push_str(": no solution\n");
                    ("none", Some(rec), None, None)
                }
                Err(e) => {
                    summary.invalid += 1;
                    let _ = writeln!(problems, "shudu: {e}");
                    ("invalid", None, None, Some(e))
                }
            };
            if format == Format::Json {
                let record = JsonRecord {
                    number: rec
                        .as_ref()
                        .map_or_else(|| error.as_ref().map_or(0, |e| e.puzzle), |r| r.number),
                    line: rec
                        .as_ref()
                        .map_or_else(|| error.as_ref().map_or(0, |e| e.line), |r| r.line),
                    puzzle: rec.as_ref().map(|r| r.puzzle.to_line()),
                    status,
                    solution: solution.map(|g| g.to_line()),
                    error: error.map(|e| e.to_string()),
                };
                serde_json::to_writer(&mut buf, &record)?;
                buf.push(b'\n');
            } else if let (None, Some(marks), Format::Line | Format::Marks) = (
                &solution,
                rec.as_ref().and_then(|r| r.marks.as_deref()),
                format,
            ) {
                // A pencil-mark record without a unique solution goes back as it came, marks
                // and all (its givens alone would be another puzzle).
                shudu_core::format::write_marks(&mut buf, marks);
                written += 1;
            } else {
                // In its place whatever happened: the solution, else the puzzle as given, else
                // (unreadable) an empty grid.
                let record = solution
                    .or_else(|| rec.map(|r| r.puzzle))
                    .unwrap_or_else(Puzzle::empty);
                format.write(&mut buf, written, &record);
                written += 1;
            }
        }
        if !problems.is_empty() {
            // A closed standard error must not stop the answers.
            let _ = std::io::stderr().lock().write_all(problems.as_bytes());
        }
        out.write_all(&buf)?;
        out.flush_batch()
    })?;
    summary.report();
    Ok(summary)
}
