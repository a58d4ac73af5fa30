//! `shudu print`: puzzles laid out as a print-ready book (PDF), or one SVG image a puzzle.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use rayon::prelude::*;
use shudu_core::format::{Marks, Reader};
use shudu_core::logic::{rate_marked, Rating};
use shudu_core::solver::{solve_unique_marked, Solutions};
use shudu_core::{Grid, Puzzle};

use crate::book::{self, BookConfig, Entry, Paper};
use crate::exit;
use crate::io::{self, Output};

/// The layout options, shared with `shudu generate --print`.
#[derive(Args, Debug, Clone)]
pub struct LayoutArgs {
    /// Puzzles a page: 1, 2, 4, 6 or 9.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = parse_per_page)]
    pub per_page: usize,
    /// Paper size.
    #[arg(long, value_enum, default_value_t)]
    pub paper: Paper,
    /// A title for the head of every page.
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// Add answer pages (the solutions, nine a page) after the puzzles; with `--format svg`, an
    /// answer image beside each puzzle's.
    #[arg(long)]
    pub answers: bool,
}

fn parse_per_page(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if book::PER_PAGE.contains(&n) => Ok(n),
        _ => Err(format!(
            "expected 1, 2, 4, 6 or 9 puzzles a page, found '{s}'"
        )),
    }
}

/// Output formats of `shudu print`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrintFormat {
    /// One PDF book.
    Pdf,
    /// One SVG image a puzzle: FILE itself for one puzzle, else FILE's name numbered
    /// (`book-001.svg`, ...).
    Svg,
}

/// Arguments of `shudu print`.
#[derive(Args, Debug)]
pub struct PrintArgs {
    /// The puzzle file (any format; lines of `shudu grade` carry their ratings); `-` or nothing
    /// reads standard input.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// Write the book to FILE (replaced whole, atomically; `-` for standard output).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// pdf or svg (default: svg when FILE ends in .svg, else pdf).
    #[arg(long, value_enum)]
    format: Option<PrintFormat>,
    /// Rate every puzzle (Sudoku Explainer scale) for its label, replacing any rating the input
    /// carries.
    #[arg(long, conflicts_with_all = ["size", "variant", "fpuzzles"])]
    rate: bool,
    #[command(flatten)]
    layout: LayoutArgs,
    #[command(flatten)]
    variants: super::variant::InputArgs,
}

/// Refuses what cannot be printed before any work: a title too long for a line even shrunk,
/// a format that the output's name contradicts (`--format svg -o book.pdf` would write SVG
/// images named `book-001.pdf`); warns for characters of the title no font draws.
pub fn check_layout(layout: &LayoutArgs, format: PrintFormat, path: &Path) -> Result<()> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match (format, ext.as_deref()) {
        (PrintFormat::Svg, Some("pdf")) => bail!(
            "--format svg writes SVG images, but {} names a PDF: give -o NAME.svg, or drop \
             --format svg for a PDF book",
            path.display()
        ),
        (PrintFormat::Pdf, Some("svg")) => bail!(
            "--format pdf writes a PDF book, but {} names an SVG image: give -o NAME.pdf, or \
             drop --format pdf for SVG images",
            path.display()
        ),
        _ => {}
    }
    if let Some(title) = &layout.title {
        book::title_size(title, layout.paper)?;
        if layout.answers {
            book::title_size(&format!("{title}: answers"), layout.paper)?;
        }
        let missing = book::undrawable(title);
        if !missing.is_empty() {
            let shown: Vec<String> = missing
                .iter()
                .map(|c| format!("'{c}' (U+{:04X})", u32::from(*c)))
                .collect();
            eprintln!(
                "shudu: warning: no font here draws {} of the title: {} as empty boxes \
                 (install a font that has them, e.g. Debian's fonts-noto-cjk, or name one with \
                 SHUDU_FONT=FILE)",
                shown.join(", "),
                if missing.len() == 1 {
                    "it prints"
                } else {
                    "they print"
                }
            );
        }
        if format == PrintFormat::Svg {
            eprintln!("shudu: note: SVG images have no title; --title is for the PDF book");
        }
    }
    Ok(())
}

/// Runs `shudu print`.
pub fn run(args: &PrintArgs) -> Result<ExitCode> {
    let format = args.format.unwrap_or_else(|| guess_format(&args.output));
    check_layout(&args.layout, format, &args.output)?;
    if args.variants.any() {
        let rules = args.variants.rules()?;
        return super::variant::print(
            args.input.as_deref(),
            rules.as_ref(),
            &args.layout,
            format,
            &args.output,
        );
    }
    let text = io::read_input_or_puzzle(args.input.as_deref())?;
    let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    let mut puzzles = Vec::new();
    let mut bad = 0;
    for record in Reader::new(&text) {
        match record {
            Ok(r) => {
                let line = lines.get(r.line - 1).copied().unwrap_or_default();
                puzzles.push((r.number, r.line, r.puzzle, r.marks, input_rating(line)));
            }
            Err(e) => {
                bad += 1;
                eprintln!("shudu: {e}");
            }
        }
    }
    if bad > 0 {
        eprintln!(
            "shudu: nothing written: {} could not be read",
            shudu_core::error::counted(bad, "puzzle")
        );
        return Ok(ExitCode::from(exit::INPUT));
    }
    if puzzles.is_empty() {
        bail!("the input holds no puzzle; nothing written");
    }
    let solved: Vec<_> = puzzles
        .into_par_iter()
        .map(|(number, line, puzzle, marks, rating)| {
            // A pencil-mark line's solutions are the grids that keep to its marks.
            let solution = match solve_unique_marked(&puzzle, marks.as_deref()) {
                Solutions::Unique(g) => Ok(g),
                Solutions::Multiple(_) => Err("more than one solution"),
                Solutions::None => Err("no solution"),
            };
            (number, line, puzzle, marks, rating, solution)
        })
        .collect();
    let mut book = Vec::with_capacity(solved.len());
    let mut not_unique = 0;
    for (number, line, puzzle, marks, rating, solution) in solved {
        match solution {
            Ok(solution) => book.push(Printed {
                puzzle,
                marks,
                solution,
                rating,
            }),
            Err(why) => {
                not_unique += 1;
                eprintln!(
                    "shudu: puzzle {number}, line {line}: {why}; a book takes puzzles with one solution"
                );
            }
        }
    }
    if not_unique > 0 {
        eprintln!("shudu: nothing written");
        return Ok(ExitCode::from(exit::NOT_UNIQUE));
    }
    write_book(entries(book, args.rate), &args.layout, format, &args.output)?;
    Ok(ExitCode::SUCCESS)
}

/// `svg` for a name ending in `.svg`, else `pdf`.
pub fn guess_format(path: &Path) -> PrintFormat {
    match path.extension() {
        Some(e) if e.eq_ignore_ascii_case("svg") => PrintFormat::Svg,
        _ => PrintFormat::Pdf,
    }
}

/// A puzzle to print, before it is numbered (and rated).
pub struct Printed {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// A pencil-mark line's candidates, printed small in the empty cells.
    pub marks: Option<Box<Marks>>,
    /// Its one solution (under the marks, when it has some).
    pub solution: Grid,
    /// The rating the input carried, if any.
    pub rating: Option<Rating>,
}

/// Numbers the puzzles from 1 and, with `rate_all`, rates those (all of them) in parallel:
/// from the marks when a puzzle has some, as `shudu grade` does.
pub fn entries(puzzles: Vec<Printed>, rate_all: bool) -> Vec<Entry> {
    puzzles
        .into_par_iter()
        .enumerate()
        .map(|(i, p)| Entry {
            number: i + 1,
            rating: if rate_all {
                Some(rate_marked(&p.puzzle, p.marks.as_deref()).er)
            } else {
                p.rating
            },
            puzzle: p.puzzle,
            marks: p.marks,
            solution: p.solution,
        })
        .collect()
}

/// Writes the book of `entries` to `path` (atomically): one PDF, or SVG images.
pub fn write_book(
    entries: Vec<Entry>,
    layout: &LayoutArgs,
    format: PrintFormat,
    path: &Path,
) -> Result<()> {
    let config = book_config(layout);
    match format {
        PrintFormat::Pdf => write_pdf(path, &book::pdf(&entries, &config)?),
        PrintFormat::Svg => {
            let numbers: Vec<usize> = entries.iter().map(|e| e.number).collect();
            write_svgs(path, &numbers, layout.answers, |i, answer| {
                book::svg(&entries[i], answer)
            })
        }
    }
}

/// The book's layout from the command line's options.
pub fn book_config(layout: &LayoutArgs) -> BookConfig {
    BookConfig {
        per_page: layout.per_page,
        paper: layout.paper,
        title: layout.title.clone(),
        answers: layout.answers,
    }
}

/// Writes a PDF's bytes to `path` (atomically).
pub fn write_pdf(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut out = Output::create(Some(path))?;
    out.write_all(bytes)?;
    out.finish()
}

/// Writes one SVG image a puzzle (`image(index, answer)`), and one of its answer with
/// `answers`: `path` itself for a single puzzle, else `path` with the puzzle's number (from
/// `numbers`, zero-padded) and `-answer` inserted before the extension. Each is written
/// atomically.
pub fn write_svgs(
    path: &Path,
    numbers: &[usize],
    answers: bool,
    image: impl Fn(usize, bool) -> String,
) -> Result<()> {
    let single = numbers.len() == 1 || path == Path::new("-");
    let width = numbers.len().to_string().len().max(3);
    for (i, &n) in numbers.iter().enumerate() {
        let mut images = vec![(false, "")];
        if answers {
            images.push((true, "-answer"));
        }
        for (answer, suffix) in images {
            let name = if single && suffix.is_empty() {
                path.to_path_buf()
            } else {
                let number = if single {
                    String::new()
                } else {
                    format!("-{n:0width$}")
                };
                numbered(path, &format!("{number}{suffix}"))
            };
            let mut out = Output::create(Some(&name))?;
            out.write_all(image(i, answer).as_bytes())?;
            out.finish()?;
        }
    }
    Ok(())
}

/// `dir/book.svg` with `-007` inserted before the extension: `dir/book-007.svg`.
fn numbered(path: &Path, insert: &str) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or_else(|| "svg".to_string(), |e| e.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}{insert}.{ext}"))
}

/// The rating a line of input carries after its puzzle, if any: `shudu grade`'s `ER/EP/ED band`
/// (the first number is SE's rating), a bare rating such as `7.2`, or a JSON record's `"er"`.
fn input_rating(line: &[u8]) -> Option<Rating> {
    let line = std::str::from_utf8(line).ok()?.trim();
    if line.starts_with('{') {
        let v: serde_json::Value = serde_json::from_str(line).ok()?;
        return v.get("er")?.as_f64().and_then(to_rating);
    }
    let mut fields = line.split_whitespace().skip(1);
    fields.find_map(|f| {
        let first = f.split('/').next()?;
        if !first.contains('.') {
            return None;
        }
        first.parse::<f64>().ok().and_then(to_rating)
    })
}

fn to_rating(v: f64) -> Option<Rating> {
    (0.0..=20.0)
        .contains(&v)
        .then(|| Rating((v * 10.0).round() as u16))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_are_read_from_grade_lines_bare_numbers_and_json() {
        let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        assert_eq!(
            input_rating(format!("{p} 7.2/1.2/1.2 diabolical").as_bytes()),
            Some(Rating(72))
        );
        assert_eq!(
            input_rating(format!("{p}\tsource 3.4").as_bytes()),
            Some(Rating(34))
        );
        assert_eq!(input_rating(p.as_bytes()), None);
        assert_eq!(input_rating(format!("{p} 17").as_bytes()), None);
        assert_eq!(
            input_rating(format!("{{\"puzzle\":\"{p}\",\"er\":2.5}}").as_bytes()),
            Some(Rating(25))
        );
    }

    #[test]
    fn svg_names_are_numbered_before_the_extension() {
        assert_eq!(
            numbered(Path::new("out/book.svg"), "-007"),
            PathBuf::from("out/book-007.svg")
        );
        assert_eq!(
            numbered(Path::new("book"), "-1-answer"),
            PathBuf::from("book-1-answer.svg")
        );
    }
}
