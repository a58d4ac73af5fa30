//! The variant paths of `shudu solve` and `shudu generate` (`--size N`, `--variant
//! x,windoku,anti-knight,anti-king,jigsaw,killer`, `--fpuzzles`): puzzles in the line format
//! extended to every size or as f-puzzles links, solved and made by the general engine
//! (`shudu_core::variant`, docs/variants.md).

use std::io::Write as _;
use std::path::Path;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use rayon::prelude::*;
use shudu_core::generate::Symmetry;
use shudu_core::variant::{
    self, count_solutions, digit_of, Rules, VariantGenerateError, VariantPuzzle, VariantSolver,
    Variants,
};

use super::solve::Summary;
use crate::io::{self, Output};
use crate::variant_book::{self, VariantEntry};

/// How `shudu solve` and `shudu print` are told their input holds variants.
#[derive(clap::Args, Debug)]
pub struct InputArgs {
    /// Size of the puzzles: 4, 6, 8, 9, 12 or 16 (boxes of 2x2, 2x3, 2x4, 3x3, 3x4, 4x4). Other
    /// sizes are read in the line format, `1`-`9` then `A`-`G`, `.` or `0` for empty.
    #[arg(long, default_value_t = 9, value_name = "N")]
    pub size: usize,
    /// Variant rules, comma-separated: x (both diagonals), windoku, anti-knight, anti-king. The
    /// puzzles are read in the line format (docs/variants.md).
    #[arg(long, value_delimiter = ',', value_name = "V[,V...]")]
    pub variant: Vec<String>,
    /// The input is f-puzzles: a JSON document (the file starts with `{`), or one link a line
    /// (`https://f-puzzles.com/?load=...`, `https://sudokupad.app/fpuzzles...`, or the bare
    /// code). Each puzzle brings its own size and rules (X, Windoku, jigsaw, killer,
    /// anti-knight, anti-king); solutions are written in the line format.
    #[arg(long, conflicts_with_all = ["size", "variant"])]
    pub fpuzzles: bool,
}

impl InputArgs {
    /// Whether the input is of variants (any of the three options).
    pub fn any(&self) -> bool {
        self.fpuzzles || self.size != 9 || !self.variant.is_empty()
    }

    /// The rules of `--size` and `--variant`, or `None` for classic 9×9 and for `--fpuzzles`
    /// (each puzzle brings its own).
    ///
    /// # Errors
    ///
    /// As [`rules`].
    pub fn rules(&self) -> Result<Option<Rules>> {
        if self.fpuzzles || (self.size == 9 && self.variant.is_empty()) {
            return Ok(None);
        }
        rules(self.size, &self.variant).map(Some)
    }
}

impl InputArgs {
    /// The rules of `--size` and `--variant`, killer and jigsaw refused as by [`rules`]; `None`
    /// for `--fpuzzles`, classic 9×9 included otherwise (for commands that send even the
    /// classic 9×9 to the variant path).
    ///
    /// # Errors
    ///
    /// As [`rules`].
    pub fn any_rules(&self) -> Result<Option<Rules>> {
        if self.fpuzzles {
            return Ok(None);
        }
        rules(self.size, &self.variant).map(Some)
    }
}

/// The rules of `--size` and `--variant` for `shudu solve`.
///
/// # Errors
///
/// A size without boxes, an unknown name, Windoku on a size other than 9, or jigsaw and
/// killer, whose layouts the line format cannot hold.
pub fn rules(size: usize, variants: &[String]) -> Result<Rules> {
    let v = parse(size, variants)?;
    if !v.fits_line() {
        let name = if v.jigsaw() { "jigsaw" } else { "killer" };
        bail!(
            "--variant {name}: its regions or cages do not fit in the line format; give such \
             puzzles in the f-puzzles format (--fpuzzles), which holds them"
        );
    }
    Ok(v.rules().clone())
}

/// `--size` and `--variant`, read.
///
/// # Errors
///
/// As [`Variants::parse`], naming the option.
pub fn parse(size: usize, variants: &[String]) -> Result<Variants> {
    Variants::parse(size, variants).map_err(|e| anyhow::anyhow!("--{}: {e}", e.argument()))
}

/// How long `shudu generate --difficulty` rates one variant puzzle before passing it over.
const RATE_BUDGET: Duration = Duration::from_secs(3);

/// What `shudu generate --size/--variant` asks for.
pub struct Request<'a> {
    /// Puzzles to make.
    pub count: usize,
    /// `--givens`, if given.
    pub givens: Option<(usize, usize)>,
    /// `--symmetry`.
    pub symmetry: Symmetry,
    /// `--minimal`.
    pub minimal: bool,
    /// `--cages`: the largest killer cage.
    pub cages: Option<usize>,
    /// The batch's seed.
    pub seed: u64,
    /// The time budget of the whole run, if any.
    pub timeout: Option<Duration>,
    /// `--fpuzzles`: links for every puzzle.
    pub links: bool,
    /// `--with-solution`: the solution after each puzzle, on its line.
    pub with_solution: bool,
    /// `--print FILE` and the book's layout.
    pub print: Option<(&'a Path, &'a super::print::LayoutArgs)>,
    /// `--difficulty` or `--rating`: only puzzles the variant techniques rate in this range
    /// (both ends included) are kept.
    pub rating: Option<(shudu_core::logic::Rating, shudu_core::logic::Rating)>,
}

/// Puzzles made a parallel batch, written in order as each batch ends.
const BATCH: usize = 64;

/// `shudu generate` for other sizes and variants: unique puzzles from the general engine, one
/// a line (the line format, or an f-puzzles link when asked or when the rules need one).
///
/// # Errors
///
/// A request that cannot be met (too few givens, cages out of range, rules with no solution),
/// or output that cannot be written; a run cut short by the time budget writes what it found
/// and returns a non-zero exit code.
pub fn generate(v: &Variants, r: &Request<'_>, output: Option<&Path>) -> Result<ExitCode> {
    let config = v
        .config(r.givens, r.symmetry, r.minimal, r.cages)
        .map_err(|e| anyhow::anyhow!("--{e}"))?;
    let start = Instant::now();
    // No budget: a deadline decades away.
    let deadline = start + r.timeout.unwrap_or(Duration::from_secs(1 << 30));
    let mut out = Output::create(output)?;
    let mut found = 0;
    let mut buf = String::new();
    let mut book = Vec::new();
    // Without a rating asked for, item i is the i-th puzzle; with one, items are made and rated
    // in order until enough fall in the range.
    let mut next_item = 0u64;
    let mut tried = 0usize;
    while found < r.count {
        let want = if r.rating.is_some() {
            BATCH
        } else {
            BATCH.min(r.count - found)
        };
        let batch: Vec<u64> = (next_item..next_item + want as u64).collect();
        next_item += want as u64;
        let made: Vec<std::result::Result<Option<VariantPuzzle>, VariantGenerateError>> = batch
            .par_iter()
            .map(|&item| {
                let p = v.generate(&config, r.seed, item, deadline)?;
                let Some((lo, hi)) = r.rating else {
                    return Ok(Some(p));
                };
                // A puzzle not rated within its own budget is passed over.
                let g = variant::logic::grade_until(&p, deadline.min(Instant::now() + RATE_BUDGET));
                Ok((g.solved && g.er >= lo && g.er <= hi).then_some(p))
            })
            .collect();
        let mut stop = None;
        for m in made {
            tried += 1;
            match m {
                Ok(None) => {}
                Ok(Some(_)) if found == r.count => {}
                Ok(Some(p)) => {
                    buf.push_str(&written(&p, !v.fits_line() || r.links));
                    let solution = count_solutions(&p, 1).solution.expect("a unique puzzle");
                    if r.with_solution {
                        let solved = VariantPuzzle::new(p.rules().clone(), solution.clone())
                            .expect("digits of the size");
                        buf.push(' ');
                        buf.push_str(&solved.to_line());
                    }
                    buf.push('\n');
                    found += 1;
                    if r.print.is_some() {
                        book.push(VariantEntry {
                            number: found,
                            puzzle: p,
                            solution,
                        });
                    }
                }
                Err(e) => {
                    stop = Some(e);
                    break;
                }
            }
        }
        out.write_all(buf.as_bytes())?;
        buf.clear();
        if stop.is_none() && Instant::now() > deadline {
            break;
        }
        match stop {
            None => {}
            Some(VariantGenerateError::Timeout { .. }) => break,
            Some(e) => {
                out.abandon()?;
                bail!("cannot generate these puzzles: {e}");
            }
        }
    }
    if found == 0 {
        out.abandon()?;
    } else {
        out.finish()?;
    }
    if let (Some((path, layout)), false) = (r.print, book.is_empty()) {
        variant_book::write(&book, layout, super::print::guess_format(path), path)?;
    }
    if found < r.count {
        let budget = r.timeout.map_or_else(String::new, |t| format!(" of {t:?}"));
        let rated = match r.rating {
            Some((lo, hi)) => format!(" ({tried} made and rated, {found} in {lo}..{hi})"),
            None => String::new(),
        };
        eprintln!(
            "shudu: found {found} of {}{rated}: the time budget{budget} ran out (--timeout sets \
             it; --timeout none searches without limit)",
            shudu_core::error::counted(r.count, "puzzle")
        );
        return Ok(ExitCode::from(crate::exit::NOT_UNIQUE));
    }
    Ok(ExitCode::SUCCESS)
}

/// A puzzle as written: an f-puzzles link, or the line format.
fn written(p: &VariantPuzzle, link: bool) -> String {
    if link {
        variant::fpuzzles::to_link(p, None)
    } else {
        p.to_line()
    }
}

/// Whether an argument that names no file is one puzzle typed inline: a line of symbols, an
/// f-puzzles document or link.
fn inline(arg: &str) -> bool {
    (arg.len() >= 16 && arg.chars().all(|c| digit_of(c).is_some()))
        || arg.trim_start().starts_with('{')
        || arg.starts_with("https://")
}

/// The input's text: the file, standard input, or the argument itself when it is a puzzle.
fn input_text(input: Option<&Path>) -> Result<String> {
    let text = match input.and_then(Path::to_str) {
        Some(arg) if !Path::new(arg).exists() && inline(arg) => format!("{arg}\n").into_bytes(),
        _ => io::read_input(input)?,
    };
    Ok(String::from_utf8_lossy(&text).into_owned())
}

/// Solves every line of the input (blank lines and `#` comments skipped) under `rules`, in the
/// line format ([`solve_each`]).
pub fn solve(input: Option<&Path>, rules: &Rules, out: &mut Output, any: bool) -> Result<Summary> {
    let text = input_text(input)?;
    let solver = VariantSolver::new(rules);
    solve_each(
        line_records(&text, rules),
        Some(&solver),
        rules.cells(),
        out,
        any,
    )
}

/// A record of the input: its line, and the puzzle or why it cannot be read.
type Record = (usize, std::result::Result<VariantPuzzle, String>);

/// Every puzzle line of `text` (blank lines and `#` comments skipped) under `rules`.
fn line_records(text: &str, rules: &Rules) -> Vec<Record> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            (
                i,
                VariantPuzzle::parse_line(rules.clone(), l).map_err(|e| e.to_string()),
            )
        })
        .collect()
}

/// The records of `input`: lines under `rules`, or f-puzzles documents and links without.
///
/// # Errors
///
/// An input that cannot be read, or one that holds no puzzle.
fn records_of(input: Option<&Path>, rules: Option<&Rules>) -> Result<Vec<Record>> {
    let text = input_text(input)?;
    let records = match rules {
        Some(r) => line_records(&text, r),
        None => fpuzzles_records(&text),
    };
    if records.is_empty() {
        bail!("the input holds no puzzle; nothing written");
    }
    Ok(records)
}

/// The f-puzzles records of `text`: one JSON document if it starts with `{`; otherwise every
/// line is a link (f-puzzles' `?load=`, SudokuPad's `fpuzzles...`), a bare compressed code, or
/// a document on one line.
fn fpuzzles_records(text: &str) -> Vec<Record> {
    use shudu_core::variant::fpuzzles;
    let read = |l: &str| {
        if l.starts_with('{') {
            fpuzzles::from_json(l)
        } else {
            fpuzzles::from_link(l)
        }
        .map_err(|e| e.to_string())
    };
    if text.trim_start().starts_with('{') {
        let at = text.len() - text.trim_start().len();
        let line = text[..at].matches('\n').count() + 1;
        vec![(line, fpuzzles::from_json(text).map_err(|e| e.to_string()))]
    } else {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .map(|(i, l)| (i, read(l)))
            .collect()
    }
}

/// `--fpuzzles`: solves f-puzzles documents and links ([`fpuzzles_records`]), each under its
/// own rules.
pub fn solve_fpuzzles(input: Option<&Path>, out: &mut Output, any: bool) -> Result<Summary> {
    let text = input_text(input)?;
    solve_each(fpuzzles_records(&text), None, 0, out, any)
}

/// `shudu print` of variant puzzles: the line format under `rules`, or f-puzzles documents and
/// links when `rules` is `None`. Every puzzle must be read and have one solution, or nothing is
/// written and each problem is named by puzzle and line.
///
/// # Errors
///
/// An input that cannot be read, or a book that cannot be written.
pub fn print(
    input: Option<&Path>,
    rules: Option<&Rules>,
    layout: &super::print::LayoutArgs,
    format: super::print::PrintFormat,
    output: &Path,
) -> Result<ExitCode> {
    let records = records_of(input, rules)?;
    // Each record solved, or why not: (whether it could be read at all, the message).
    type Solved = std::result::Result<(VariantPuzzle, Vec<u8>), (bool, String)>;
    let solved: Vec<(usize, Solved)> = records
        .into_par_iter()
        .map(|(line, record)| {
            let solved = record.map_err(|e| (false, e)).and_then(|p| {
                let c = count_solutions(&p, 2);
                let why = match (c.count, c.solution) {
                    (1, Some(s)) => return Ok((p, s)),
                    (0, _) => "no solution",
                    _ => "more than one solution",
                };
                Err((
                    true,
                    format!("{why}; a book takes puzzles with one solution"),
                ))
            });
            (line, solved)
        })
        .collect();
    let mut book = Vec::with_capacity(solved.len());
    let (mut unreadable, mut not_unique) = (0, 0);
    for (number, (line, record)) in solved.into_iter().enumerate() {
        match record {
            Ok((puzzle, solution)) => book.push(VariantEntry {
                number: number + 1,
                puzzle,
                solution,
            }),
            Err((read, e)) => {
                if read {
                    not_unique += 1;
                } else {
                    unreadable += 1;
                }
                eprintln!("shudu: puzzle {}, line {line}: {e}", number + 1);
            }
        }
    }
    if unreadable + not_unique > 0 {
        eprintln!("shudu: nothing written");
        let code = if unreadable > 0 {
            crate::exit::INPUT
        } else {
            crate::exit::NOT_UNIQUE
        };
        return Ok(ExitCode::from(code));
    }
    variant_book::write(&book, layout, format, output)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes in each puzzle's place its solution, or the puzzle back (no solution; several, unless
/// `any`), or a line of `.` (`blank` of them; none when each puzzle has its own size) for a
/// record that cannot be read. Problems go to standard error, one line each, naming the puzzle
/// and its line. The puzzles are counted in parallel, by `solver` when they share its rules.
fn solve_each(
    records: Vec<Record>,
    solver: Option<&VariantSolver>,
    blank: usize,
    out: &mut Output,
    any: bool,
) -> Result<Summary> {
    let counts: Vec<Option<shudu_core::variant::VariantCount>> = records
        .par_iter()
        .map(|(_, record)| {
            let p = record.as_ref().ok()?;
            Some(match solver {
                Some(s) => s.count(p.cells(), 2),
                None => count_solutions(p, 2),
            })
        })
        .collect();
    let mut summary = Summary::default();
    let mut buf = String::new();
    let mut problems = String::new();
    for (number, ((line, record), c)) in records.into_iter().zip(counts).enumerate() {
        let at = format!("shudu: puzzle {}, line {line}", number + 1);
        match record {
            Err(e) => {
                summary.invalid += 1;
                problems.push_str(&format!("{at}: {e}\n"));
                buf.push_str(&".".repeat(blank));
            }
            Ok(p) => {
                let c = c.expect("a count for each puzzle read");
                let rules = p.rules().clone();
                let solution = c
                    .solution
                    .map(|s| VariantPuzzle::new(rules, s).expect("a solution fits"));
                match c.count {
                    0 => {
                        summary.none += 1;
                        problems.push_str(&format!("{at}: no solution\n"));
                        buf.push_str(&p.to_line());
                    }
                    1 => {
                        summary.unique += 1;
                        buf.push_str(&solution.expect("one solution").to_line());
                    }
                    _ => {
                        summary.multiple += 1;
                        let note = if any { " (printing one)" } else { "" };
                        problems.push_str(&format!("{at}: more than one solution{note}\n"));
                        let shown = if any {
                            solution.expect("a first solution")
                        } else {
                            p
                        };
                        buf.push_str(&shown.to_line());
                    }
                }
            }
        }
        buf.push('\n');
    }
    if !problems.is_empty() {
        let _ = std::io::stderr().lock().write_all(problems.as_bytes());
    }
    out.write_all(buf.as_bytes())?;
    summary.report();
    Ok(summary)
}

/// `shudu grade --size/--variant/--fpuzzles`: rates every puzzle on SE's scale with the variant
/// techniques (`shudu_core::variant::logic`), one line each, `puzzle ER/EP/ED band`, or JSON
/// Lines with the techniques; a record that cannot be read, has no single solution, or is not
/// rated within its budget is named on standard error and the rest are still rated.
///
/// # Errors
///
/// An input that cannot be read, or an output that cannot be written.
pub fn grade(
    input: Option<&Path>,
    rules: Option<&Rules>,
    mut out: Output,
    json: bool,
) -> Result<ExitCode> {
    use super::grade::{GradeRecord, TechniqueCount};
    use shudu_core::variant::logic;
    let records = records_of(input, rules)?;
    let graded: Vec<_> = records
        .into_par_iter()
        .map(|(line, record)| {
            let result = record.and_then(|p| {
                let c = count_solutions(&p, 2);
                match c.count {
                    0 => Err("no solution; only puzzles with one solution are rated".to_string()),
                    1 => Ok((p.to_line(), logic::grade(&p))),
                    _ => Err(
                        "more than one solution; only puzzles with one solution are rated".into(),
                    ),
                }
            });
            (line, result)
        })
        .collect();
    let mut worst = crate::exit::OK;
    let mut buf = String::new();
    let mut problems = String::new();
    let mut rated = 0;
    for (number, (line, result)) in graded.into_iter().enumerate() {
        let number = number + 1;
        let mut record = GradeRecord::unrated(number, line, None, "invalid", None);
        match result {
            Ok((puzzle, g)) if g.solved => {
                rated += 1;
                record.puzzle = Some(puzzle);
                record.status = "graded";
                record.er = Some(f64::from(g.er.0) / 10.0);
                record.ep = Some(f64::from(g.ep.0) / 10.0);
                record.ed = Some(f64::from(g.ed.0) / 10.0);
                record.band = Some(g.band.name());
                record.steps = Some(g.steps.len());
                for s in &g.steps {
                    match record
                        .techniques
                        .iter_mut()
                        .find(|t| t.technique == s.technique)
                    {
                        Some(t) => t.count += 1,
                        None => record.techniques.push(TechniqueCount {
                            technique: s.technique,
                            count: 1,
                        }),
                    }
                }
            }
            Ok((puzzle, g)) => {
                worst = worst.max(crate::exit::NOT_UNIQUE);
                let why = if g.out_of_time {
                    format!(
                        "not rated within {} s (the path reached {} before the budget ran out)",
                        logic::GRADE_BUDGET.as_secs(),
                        g.er
                    )
                } else {
                    "not rated: no technique applies".to_string()
                };
                problems.push_str(&format!("shudu: puzzle {number}, line {line}: {why}\n"));
                record.puzzle = Some(puzzle);
                record.status = "unrated";
                record.error = Some(why);
            }
            Err(e) => {
                let unreadable = !e.contains("solution");
                worst = worst.max(if unreadable {
                    crate::exit::INPUT
                } else {
                    crate::exit::NOT_UNIQUE
                });
                problems.push_str(&format!("shudu: puzzle {number}, line {line}: {e}\n"));
                record.status = if unreadable { "invalid" } else { "not-unique" };
                record.error = Some(e);
            }
        }
        if json {
            buf.push_str(&serde_json::to_string(&record)?);
            buf.push('\n');
        } else if let (Some(p), Some(er), Some(ep), Some(ed), Some(band)) =
            (&record.puzzle, record.er, record.ep, record.ed, record.band)
        {
            buf.push_str(&format!("{p} {er:.1}/{ep:.1}/{ed:.1} {band}\n"));
        }
    }
    io::say(&problems);
    out.write_all(buf.as_bytes())?;
    if rated == 0 && !json {
        out.abandon()?;
    } else {
        out.finish()?;
    }
    Ok(ExitCode::from(worst))
}
