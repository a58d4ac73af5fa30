//! `shudu grade`, `shudu explain` and `shudu hint`: the human-style solver from the command line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use rayon::prelude::*;
use shudu_core::format::{Marks, Reader};
use shudu_core::logic::{grade_marked, next_hint, rate_marked, Board, Grade, Step, Summary};
use shudu_core::solver::{solve_unique, solve_unique_marked, Solutions};
use shudu_core::{Cell, Digit, DigitSet, Puzzle};
use shudu_game::explain::{describe_effect, hint_path, step_sentence};

use crate::exit;
use crate::io::{self, Output};

/// Output formats of `shudu grade`.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GradeFormat {
    /// `puzzle ER/EP/ED band`, one line a puzzle (like Sudoku Explainer's serate).
    #[default]
    Line,
    /// JSON Lines: `er`, `ep`, `ed` (numbers), `band`, `techniques` with counts, and more.
    Json,
}

/// Arguments of `shudu grade`.
#[derive(Args, Debug)]
pub struct GradeArgs {
    /// The puzzle file (any format, detected); `-` or nothing reads standard input.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: GradeFormat,
    /// Write to FILE (replaced whole, atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = shudu::args::parse_threads)]
    threads: Option<usize>,
    #[command(flatten)]
    variants: super::variant::InputArgs,
}

#[derive(serde::Serialize)]
pub(super) struct TechniqueCount {
    pub(super) technique: &'static str,
    pub(super) count: usize,
}

#[derive(serde::Serialize)]
pub(super) struct GradeRecord {
    pub(super) number: usize,
    pub(super) line: usize,
    pub(super) puzzle: Option<String>,
    pub(super) status: &'static str,
    pub(super) er: Option<f64>,
    pub(super) ep: Option<f64>,
    pub(super) ed: Option<f64>,
    pub(super) band: Option<&'static str>,
    pub(super) steps: Option<usize>,
    pub(super) techniques: Vec<TechniqueCount>,
    pub(super) error: Option<String>,
}

impl GradeRecord {
    /// A record without ratings: not graded (`status` says why), `error` if it could not be read.
    pub(super) fn unrated(
        number: usize,
        line: usize,
        puzzle: Option<String>,
        status: &'static str,
        error: Option<String>,
    ) -> GradeRecord {
        GradeRecord {
            number,
            line,
            puzzle,
            status,
            er: None,
            ep: None,
            ed: None,
            band: None,
            steps: None,
            techniques: Vec::new(),
            error,
        }
    }
}

/// What grading one record gave.
enum Outcome {
    Graded(Summary),
    NotUnique(&'static str),
}

/// A record as `grade` prints it: the 81-character line, or a pencil-mark record's 729.
fn record_line(rec: &shudu_core::format::Record) -> String {
    match rec.marks.as_deref() {
        Some(m) => {
            let mut out = Vec::with_capacity(730);
            shudu_core::format::write_marks(&mut out, m);
            out.pop();
            String::from_utf8(out).expect("marks are ASCII")
        }
        None => rec.puzzle.to_line(),
    }
}

/// Runs `shudu grade`.
pub fn run_grade(args: &GradeArgs) -> Result<ExitCode> {
    io::set_threads(args.threads, usize::MAX)?;
    if args.variants.fpuzzles || args.variants.any() {
        let rules = args.variants.any_rules()?;
        let out = Output::create(args.output.as_deref())?;
        let json = args.format == GradeFormat::Json;
        return super::variant::grade(args.input.as_deref(), rules.as_ref(), out, json);
    }
    let input = io::RecordStream::open_or_puzzle(args.input.as_deref())?;
    let name = input.name().to_string();
    let mut out = Output::create(args.output.as_deref())?;
    let mut worst = exit::OK;
    let mut readable = 0usize;
    let records = input.for_each_batch(4096, |batch| {
        let graded: Vec<_> = batch
            .into_par_iter()
            .map(|r| {
                r.map(|rec| {
                    let marks = rec.marks.as_deref();
                    let outcome = match solve_unique_marked(&rec.puzzle, marks) {
                        Solutions::Unique(_) => Outcome::Graded(rate_marked(&rec.puzzle, marks)),
                        Solutions::Multiple(_) => Outcome::NotUnique("multiple"),
                        Solutions::None => Outcome::NotUnique("none"),
                    };
                    (rec, outcome)
                })
            })
            .collect();
        let mut buf = String::new();
        let mut problems = String::new();
        for item in graded {
            readable += usize::from(item.is_ok());
            let record = match item {
                Ok((rec, Outcome::Graded(g))) => GradeRecord {
                    number: rec.number,
                    line: rec.line,
                    puzzle: Some(record_line(&rec)),
                    status: "graded",
                    er: Some(f64::from(g.er.0) / 10.0),
                    ep: Some(f64::from(g.ep.0) / 10.0),
                    ed: Some(f64::from(g.ed.0) / 10.0),
                    band: Some(g.band.name()),
                    steps: Some(g.steps),
                    techniques: g
                        .techniques
                        .iter()
                        .map(|&(technique, count)| TechniqueCount { technique, count })
                        .collect(),
                    error: None,
                },
                Ok((rec, Outcome::NotUnique(status))) => {
                    worst = worst.max(exit::NOT_UNIQUE);
                    let why = if status == "none" {
                        "no solution"
                    } else {
                        "more than one solution"
                    };
                    let _ = writeln!(
                        problems,
                        "shudu: puzzle {}, line {}: {why}; only puzzles with one solution are rated",
                        rec.number, rec.line
                    );
                    GradeRecord::unrated(
                        rec.number,
                        rec.line,
                        Some(record_line(&rec)),
                        status,
                        None,
                    )
                }
                Err(e) => {
                    worst = exit::INPUT;
                    let _ = writeln!(problems, "shudu: {e}");
                    GradeRecord::unrated(e.puzzle, e.line, None, "invalid", Some(e.to_string()))
                }
            };
            match args.format {
                GradeFormat::Json => {
                    buf.push_str(&serde_json::to_string(&record)?);
                    buf.push('\n');
                }
                GradeFormat::Line => {
                    if let (Some(p), Some(er), Some(ep), Some(ed), Some(band)) =
                        (&record.puzzle, record.er, record.ep, record.ed, record.band)
                    {
                        let _ = writeln!(buf, "{p} {er:.1}/{ep:.1}/{ed:.1} {band}");
                    }
                }
            }
        }
        io::say(&problems);
        out.write_all(buf.as_bytes())?;
        out.flush_batch()
    })?;
    if records == 0 {
        drop(out);
        bail!("{name} holds no puzzle; nothing written");
    }
    if readable == 0 {
        // Nothing but unreadable records: an output file keeps what it had.
        out.abandon()?;
    } else {
        out.finish()?;
    }
    Ok(ExitCode::from(worst))
}

/// Reads one puzzle from an argument: 81 characters, 729 of pencil marks, or the path of a file
/// whose first record is taken; with the record's marks when it is a pencil-mark record.
fn puzzle_argument(arg: &str) -> Result<(Puzzle, Option<Box<Marks>>)> {
    let path = Path::new(arg);
    if arg.len() != 81 && !path.exists() && !io::looks_like_puzzle(arg) {
        bail!(
            "cannot read {arg}: no such file (expected a file, a puzzle of 81 characters or \
             pencil marks of 729)"
        );
    }
    if arg.len() != 81 && path.exists() {
        let text = std::fs::read(path).with_context(|| format!("cannot read {arg}"))?;
        return match Reader::new(&text).next() {
            Some(r) => r
                .with_context(|| format!("in {arg}"))
                .map(|r| (r.puzzle, r.marks)),
            None => bail!("{arg} holds no puzzle"),
        };
    }
    if arg.len() == 729 {
        return match Reader::new(arg.as_bytes()).next() {
            Some(Ok(r)) => Ok((r.puzzle, r.marks)),
            Some(Err(e)) => bail!("the puzzle argument, column {:?}: {}", e.column, e.kind),
            None => bail!("the puzzle argument holds no puzzle"),
        };
    }
    arg.parse::<Puzzle>()
        .map(|p| (p, None))
        .map_err(|e| anyhow::anyhow!("the puzzle argument: {}", e.kind))
}

/// Reports on standard error, and gives the exit code, when `p` has no solution or several.
fn require_unique(
    p: &Puzzle,
    marks: Option<&Marks>,
    several: &str,
    none: &str,
) -> Result<(), ExitCode> {
    let message = match solve_unique_marked(p, marks) {
        Solutions::Unique(_) => return Ok(()),
        Solutions::Multiple(_) => several,
        Solutions::None => none,
    };
    eprintln!("shudu: {message}");
    Err(ExitCode::from(exit::NOT_UNIQUE))
}

/// Arguments of `shudu explain`.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The puzzle: 81 characters (`.` or `0` for empty), or a file whose first puzzle is taken.
    puzzle: String,
    /// Print only the steps, without the grid between them.
    #[arg(long)]
    brief: bool,
    /// Walk the path a player's hints take: where SE's step is a chain, a named technique
    /// (skyscraper, 2-string kite, empty rectangle, finned fish, simple colouring, W-Wing,
    /// ALS-XZ) that SE would rate no higher. The rating printed stays SE's.
    #[arg(long)]
    named: bool,
    /// Output format: the text walk-through, or one JSON object with the puzzle, solution,
    /// ratings and every step (the schema of the Python package's `shudu.traces`).
    #[arg(long, value_enum, default_value_t)]
    format: ExplainFormat,
}

/// Output formats of `shudu explain`.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExplainFormat {
    /// Each step with its rating, what it does, and the board after it.
    #[default]
    Text,
    /// One JSON object: `puzzle`, `solution`, `givens`, `er`, `ep`, `ed`, `band`, `hardest` and
    /// `steps` (`technique`, `rating`, `cells`, `houses`, `placements`, `eliminations`, `text`).
    Json,
}

/// Prints the path as one JSON object (`--format json`).
fn explain_json(
    puzzle: &Puzzle,
    marks: Option<&Marks>,
    g: &Grade,
    steps: &[Step],
) -> Result<ExitCode> {
    let record = shudu_game::explain::trace(puzzle, marks, g, steps)?;
    let mut out = Output::create(None)?;
    out.write_all(serde_json::to_string(&record)?.as_bytes())?;
    out.write_all(b"\n")?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Draws the board: digits, and the candidates of empty cells in 3×3 mini-grids.
fn draw_board(board: &Board, out: &mut String) {
    // Each box is "| " and three cells of "ddd ": 13 columns between the corners, so every row
    // and rule is 43 characters wide.
    let rule = "+-------------+-------------+-------------+\n";
    for r in 0..9 {
        if r % 3 == 0 {
            out.push_str(rule);
        }
        for sub in 0..3 {
            for c in 0..9 {
                if c % 3 == 0 {
                    out.push_str("| ");
                }
                let cell = Cell::at(r, c);
                for k in 0..3 {
                    let ch = match board.value(cell) {
                        Some(d) if sub == 1 && k == 1 => char::from(b'0' + d.get()),
                        Some(_) => ' ',
                        None => {
                            let d = Digit::from_index(sub * 3 + k);
                            if board.candidates(cell).contains(d) {
                                char::from(b'0' + d.get())
                            } else {
                                '.'
                            }
                        }
                    };
                    out.push(ch);
                }
                out.push(' ');
            }
            out.push_str("|\n");
        }
    }
    out.push_str(rule);
}

/// Runs `shudu explain`.
pub fn run_explain(args: &ExplainArgs) -> Result<ExitCode> {
    let (puzzle, marks) = puzzle_argument(&args.puzzle)?;
    let marks = marks.as_deref();
    if let Err(code) = require_unique(
        &puzzle,
        marks,
        "this puzzle has more than one solution; logic alone cannot finish it",
        "this puzzle has no solution",
    ) {
        return Ok(code);
    }
    let g = grade_marked(&puzzle, marks);
    // The graded path is SE's; the named path is the hints' (it may place a cell differently,
    // and ends early where only SE's nested forcing chains would go on).
    let steps = if args.named {
        hint_path(&puzzle, marks)
    } else {
        g.steps.clone()
    };
    if args.format == ExplainFormat::Json {
        return explain_json(&puzzle, marks, &g, &steps);
    }
    let mut board = Board::from_position(&puzzle, &puzzle, marks);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{}\nrating ER {}, EP {}, ED {} ({}), {}\n",
        match marks {
            Some(m) => {
                let mut out = Vec::new();
                shudu_core::format::write_marks(&mut out, m);
                out.pop();
                String::from_utf8(out).expect("marks are ASCII")
            }
            None => puzzle.to_line(),
        },
        g.er,
        g.ep,
        g.ed,
        g.band,
        shudu_core::error::counted(steps.len(), "step")
    );
    if args.named {
        text.push_str(
            "named techniques shown where Sudoku Explainer would rate them no higher\n\n",
        );
    }
    if !args.brief {
        draw_board(&board, &mut text);
    }
    for (n, step) in steps.iter().enumerate() {
        // The chains' texts open with their own name, which the line already shows.
        let name = step.technique;
        let said = step_sentence(step);
        let _ = writeln!(
            text,
            "\n{}. [{}] {}: {}\n   => {}",
            n + 1,
            step.rating,
            name,
            said,
            describe_effect(step)
        );
        board.apply(step);
        if !args.brief {
            draw_board(&board, &mut text);
        }
    }
    if !board.is_solved() {
        text.push_str(
            "\nNo technique applies from here: Sudoku Explainer would need nested forcing chains.\n",
        );
    }
    let mut out = Output::create(None)?;
    out.write_all(text.as_bytes())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Arguments of `shudu hint`.
#[derive(Args, Debug)]
pub struct HintArgs {
    /// The position: 81 characters holding the givens and the digits entered so far (`.` or `0`
    /// for empty), or a file whose first puzzle is taken.
    position: String,
    /// Your pencil marks: 81 comma-separated fields, each the digits marked in that cell, e.g.
    /// `,,,125,3,...`. An empty field is a cell without marks (it keeps every candidate), as in
    /// the web API; a filled cell's field is ignored.
    #[arg(long)]
    marks: Option<String>,
    /// Show only up to this stage: 1 which technique, 2 where to look, 3 the full step.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
    stage: u8,
}

/// Reads `--marks` (81 comma-separated fields) with the core's one meaning of marks
/// ([`shudu_core::format::parse_marks`]: an empty field is a cell without marks).
fn parse_marks(text: &str) -> Result<[DigitSet; 81]> {
    let fields: Vec<&str> = text.split(',').collect();
    shudu_core::format::parse_marks(&fields).map_err(|e| anyhow::anyhow!("--marks: {e}"))
}

/// Runs `shudu hint`.
pub fn run_hint(args: &HintArgs) -> Result<ExitCode> {
    let (position, line_marks) = puzzle_argument(&args.position)?;
    let flag_marks = args.marks.as_deref().map(parse_marks).transpose()?;
    if flag_marks.is_some() && line_marks.is_some() {
        bail!("the position is a pencil-mark line and --marks gives marks too; give them once");
    }
    // The marks of a pencil-mark line are part of the puzzle (its solution keeps to them); those
    // of --marks are the player's notes, checked for a missing digit below.
    if let Err(code) = require_unique(
        &position,
        line_marks.as_deref(),
        "this position has more than one solution; hints need a proper puzzle",
        "this position has no solution: some digit entered is wrong",
    ) {
        return Ok(code);
    }
    let marks = flag_marks.or(line_marks.map(|m| *m));
    if let (Some(marks), Solutions::Unique(solution)) = (&marks, solve_unique(&position)) {
        let missing = shudu_core::logic::marks_missing_solution(&position, marks, &solution);
        if !missing.is_empty() {
            let cells: Vec<String> = missing.iter().map(ToString::to_string).collect();
            outln!(
                "1. Technique: Missing pencil mark\n2. Where: the marks in {}\n3. The marks in {} \
                 leave out the digit that belongs there: put every candidate back in {} and ask again.",
                cells.join(", "),
                cells.join(", "),
                if cells.len() == 1 { "it" } else { "them" }
            )?;
            return Ok(ExitCode::from(exit::NOT_UNIQUE));
        }
    }
    let board = Board::from_position(&position, &position, marks.as_ref());
    if board.is_solved() {
        outln!("The grid is complete and correct.")?;
        return Ok(ExitCode::SUCCESS);
    }
    // SE's next step, or a named technique (skyscraper, W-Wing, ...) where SE would rate it no
    // higher: players ask for those by name.
    let Some(step) = next_hint(&board) else {
        eprintln!(
            "shudu: no technique applies to this position; if you gave pencil marks, one of them may leave out a cell's digit"
        );
        return Ok(ExitCode::from(exit::NOT_UNIQUE));
    };
    let mut text = format!("1. Technique: {}\n", step.hint_technique());
    if args.stage >= 2 {
        let _ = writeln!(text, "2. Where: {}", step.hint_where());
    }
    if args.stage >= 3 {
        let _ = writeln!(
            text,
            "3. Step [{}]: {}\n   => {}",
            step.rating,
            step.text,
            describe_effect(&step)
        );
    }
    let mut out = Output::create(None)?;
    out.write_all(text.as_bytes())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_need_81_fields_and_name_the_cell() {
        assert!(parse_marks("1,2")
            .unwrap_err()
            .to_string()
            .contains("--marks: found 2 cells; expected 81"));
        let mut s = vec![""; 81];
        s[4] = "12x";
        let err = parse_marks(&s.join(",")).unwrap_err().to_string();
        assert_eq!(
            err,
            "--marks: cell r1c5 (field 5), character 3: found 'x'; expected digits 1-9"
        );
        // An empty field is a cell without marks: every candidate.
        s[4] = "";
        assert!(parse_marks(&s.join(","))
            .unwrap()
            .iter()
            .all(|m| *m == DigitSet::ALL));
    }
}
