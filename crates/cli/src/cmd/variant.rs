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
            "windoku" => rules.with_windoku().map_err(|e| anyhow::anyhow!("--variant: {e}"))?,
            "anti-knight" => rules.with_anti_knight(),
            "anti-king" => rules.with_anti_king(),
            "classic" => rules,
            "jigsaw" | "killer" => bail!(
                "--variant {v}: its regions or cages do not fit in the line format; the command line \
                 solves {NAMES} (the library solves jigsaw and killer too: shudu_core::variant)"
            ),
            other => bail!("--variant: unknown variant '{other}', expected a comma-separated list of {NAMES}"),
        };
    }
    Ok(rules)
}

/// Whether an argument that names no file is one puzzle typed inline.
fn inline(arg: &str) -> bool {
    arg.len() >= 16 && arg.chars().all(|c| digit_of(c).is_some())
}

/// Solves every line of the input (blank lines and `#` comments skipped), writing in each
/// puzzle's place its solution, or the puzzle back (no solution; several, unless `any`), or an
/// empty line of `.` for a line that cannot be read. Problems go to standard error, one line
/// each, naming the puzzle and its line.
pub fn solve(input: Option<&Path>, rules: &Rules, out: &mut Output, any: bool) -> Result<Summary> {
    let text = match input.and_then(Path::to_str) {
        Some(arg) if !Path::new(arg).exists() && inline(arg) => format!("{arg}\n").into_bytes(),
        _ => io::read_input(input)?,
    };
    let text = String::from_utf8_lossy(&text);
    let mut summary = Summary::default();
    let mut buf = String::new();
    let mut problems = String::new();
    let mut number = 0;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        number += 1;
        let at = format!("shudu: puzzle {number}, line {}", i + 1);
        match VariantPuzzle::parse_line(rules.clone(), trimmed) {
            Err(e) => {
                summary.invalid += 1;
                problems.push_str(&format!("{at}: {e}\n"));
                buf.push_str(&".".repeat(rules.cells()));
            }
            Ok(p) => {
                let c = count_solutions(&p, 2);
                let solution = c
                    .solution
                    .map(|s| VariantPuzzle::new(rules.clone(), s).expect("a solution fits"));
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
