//! The variant path of `shudu solve` (`--size N`, `--variant x,windoku,anti-knight,anti-king`):
//! puzzles in the line format extended to every size, solved by the general engine
//! (`shudu_core::variant`, docs/variants.md).

use std::io::Write as _;
use std::path::Path;

use anyhow::{bail, Result};
use shudu_core::variant::{count_solutions, digit_of, Rules, VariantPuzzle};

use super::solve::Summary;
use crate::io::{self, Output};

/// The names `--variant` takes.
pub const NAMES: &str = "x, windoku, anti-knight, anti-king";

/// The rules of `--size` and `--variant`.
///
/// # Errors
///
/// A size without boxes, an unknown name, Windoku on a size other than 9, or jigsaw and killer,
/// whose layouts the line format cannot hold.
pub fn rules(size: usize, variants: &[String]) -> Result<Rules> {
    let mut rules = Rules::classic(size).map_err(|e| anyhow::anyhow!("--size: {e}"))?;
    for v in variants {
        rules = match v.trim().to_ascii_lowercase().as_str() {
            "x" | "diagonal" | "diagonals" => rules.with_diagonals(),
            "windoku" => rules
                .with_windoku()
                .map_err(|e| anyhow::anyhow!("--variant: {e}"))?,
            "anti-knight" => rules.with_anti_knight(),
            "anti-king" => rules.with_anti_king(),
            "classic" => rules,
            "jigsaw" | "killer" => bail!(
                "--variant {v}: its regions or cages do not fit in the line format; give such \
                 puzzles in the f-puzzles format (--fpuzzles), which holds them"
            ),
            other => bail!(
                "--variant: unknown variant '{other}', expected a comma-separated list of {NAMES}"
            ),
        };
    }
    Ok(rules)
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
    let records = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            (
                i,
                VariantPuzzle::parse_line(rules.clone(), l).map_err(|e| e.to_string()),
            )
        });
    solve_each(records, rules.cells(), out, any)
}

/// `--fpuzzles`: solves f-puzzles documents, each under its own rules. A file whose text starts
/// with `{` is one JSON document; otherwise every line is a link (f-puzzles' `?load=`,
/// SudokuPad's `fpuzzles...`), a bare compressed code, or a document on one line.
pub fn solve_fpuzzles(input: Option<&Path>, out: &mut Output, any: bool) -> Result<Summary> {
    use shudu_core::variant::fpuzzles;
    let text = input_text(input)?;
    let read = |l: &str| {
        if l.starts_with('{') {
            fpuzzles::from_json(l)
        } else {
            fpuzzles::from_link(l)
        }
        .map_err(|e| e.to_string())
    };
    let records: Vec<(usize, Result<VariantPuzzle, String>)> = if text.trim_start().starts_with('{')
    {
        let at = text.len() - text.trim_start().len();
        let line = text[..at].matches('\n').count() + 1;
        vec![(line, fpuzzles::from_json(&text).map_err(|e| e.to_string()))]
    } else {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .map(|(i, l)| (i, read(l)))
            .collect()
    };
    solve_each(records.into_iter(), 0, out, any)
}

/// Writes in each puzzle's place its solution, or the puzzle back (no solution; several, unless
/// `any`), or a line of `.` (`blank` of them; none when each puzzle has its own size) for a
/// record that cannot be read. Problems go to standard error, one line each, naming the puzzle
/// and its line.
fn solve_each(
    records: impl Iterator<Item = (usize, Result<VariantPuzzle, String>)>,
    blank: usize,
    out: &mut Output,
    any: bool,
) -> Result<Summary> {
    let mut summary = Summary::default();
    let mut buf = String::new();
    let mut problems = String::new();
    for (number, (line, record)) in records.enumerate() {
        let at = format!("shudu: puzzle {}, line {line}", number + 1);
        match record {
            Err(e) => {
                summary.invalid += 1;
                problems.push_str(&format!("{at}: {e}\n"));
                buf.push_str(&".".repeat(blank));
            }
            Ok(p) => {
                let c = count_solutions(&p, 2);
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
