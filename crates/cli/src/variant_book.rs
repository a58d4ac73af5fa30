//! Print for variant puzzles (`shudu generate --size/--variant --print`): the grid of any size
//! with its regions as thick borders (boxes or jigsaw regions), Sudoku X's diagonals as thin
//! grey lines, Windoku's extra boxes shaded, killer cages as dashed outlines inside their cells
//! with the sum small in the first cell, and the digits (`1`-`9` then `A`-`G`). A grid is first
//! laid out as a list of marks (lines, boxes, text), which the SVG and the PDF writers draw the
//! same way; the page layout (slots, title, page numbers, answers) is the classic book's
//! (`book.rs`).

use std::fmt::Write as _;

use anyhow::{anyhow, Result};
use krilla::color::luma;
use krilla::geom::{PathBuilder, Rect};
use krilla::num::NormalizedF32;
use krilla::paint::{Fill, LineCap, Stroke, StrokeDash};
use krilla::text::Font;
use shudu_core::variant::{symbol, VariantPuzzle};

use crate::book::{self, BookConfig, Slot};

/// One variant puzzle to print, with its solution for the answer pages.
pub struct VariantEntry {
    /// Its number in the book, from 1.
    pub number: usize,
    /// The puzzle.
    pub puzzle: VariantPuzzle,
    /// Its solution, a digit a cell.
    pub solution: Vec<u8>,
}

impl VariantEntry {
    /// The label above the grid: its number and its rules (`7  9x9 killer (26 cages)`).
    fn label(&self) -> String {
        format!("{}  {}", self.number, self.puzzle.rules().describe())
    }
}

/// Something to draw, in points from the page's top left.
#[derive(Clone, Debug, PartialEq)]
enum Mark {
    /// A straight line of a width and grey level (0 black), dashed or not.
    Line {
        from: (f32, f32),
        to: (f32, f32),
        width: f32,
        grey: u8,
        dashed: bool,
    },
    /// A filled box.
    Fill {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        grey: u8,
    },
    /// Text: centred on `x` or starting at it, `y` its baseline.
    Text {
        x: f32,
        y: f32,
        size: f32,
        grey: u8,
        text: String,
        centred: bool,
    },
}

/// The grey of the digits an answer adds to the givens, and of the diagonals.
const GREY: u8 = 110;
/// The shade of Windoku's extra boxes.
const SHADE: u8 = 225;
/// A digit's size, a fraction of the cell (smaller on big grids, whose symbols are letters too).
fn digit_size(n: usize) -> f32 {
    if n > 9 {
        0.55
    } else {
        0.62
    }
}

/// The marks of `p`'s grid with its top-left corner at (`x`, `y`) and side `side`; with
/// `solution`, the answer (the givens black, the rest grey).
fn marks(p: &VariantPuzzle, solution: Option<&[u8]>, x: f32, y: f32, side: f32) -> Vec<Mark> {
    let rules = p.rules();
    let n = rules.size();
    let cell = side / n as f32;
    let (thin, thick) = (
        (side * 0.0025).clamp(0.5, 1.0),
        (side * 0.009).clamp(1.5, 3.0),
    );
    let at = |r: usize, c: usize| (x + c as f32 * cell, y + r as f32 * cell);
    let mut out = Vec::new();
    if rules.has_windoku() {
        for (r0, c0) in [(1, 1), (1, 5), (5, 1), (5, 5)] {
            let (bx, by) = at(r0, c0);
            out.push(Mark::Fill {
                x: bx,
                y: by,
                w: 3.0 * cell,
                h: 3.0 * cell,
                grey: SHADE,
            });
        }
    }
    if rules.has_diagonals() {
        for (a, b) in [
            ((x, y), (x + side, y + side)),
            ((x + side, y), (x, y + side)),
        ] {
            out.push(Mark::Line {
                from: a,
                to: b,
                width: thin,
                grey: GREY,
                dashed: false,
            });
        }
    }
    // Cell lines thin, region borders thick: an edge between two cells is thick when their
    // regions differ; the outer border always is.
    let region = |r: usize, c: usize| rules.region(r * n + c);
    let line = |from, to, thickness| Mark::Line {
        from,
        to,
        width: thickness,
        grey: 0,
        dashed: false,
    };
    let mut heavy = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let (cx, cy) = at(r, c);
            if c + 1 < n {
                let edge = line((cx + cell, cy), (cx + cell, cy + cell), thin);
                if region(r, c) != region(r, c + 1) {
                    heavy.push(((cx + cell, cy), (cx + cell, cy + cell)));
                } else {
                    out.push(edge);
                }
            }
            if r + 1 < n {
                let edge = line((cx, cy + cell), (cx + cell, cy + cell), thin);
                if region(r, c) != region(r + 1, c) {
                    heavy.push(((cx, cy + cell), (cx + cell, cy + cell)));
                } else {
                    out.push(edge);
                }
            }
        }
    }
    for (a, b) in heavy {
        out.push(line(a, b, thick));
    }
    for (a, b) in [
        ((x, y), (x + side, y)),
        ((x, y + side), (x + side, y + side)),
        ((x, y), (x, y + side)),
        ((x + side, y), (x + side, y + side)),
    ] {
        out.push(line(a, b, thick));
    }
    // Killer cages: a dashed outline `inset` inside the cage's edge; at a concave corner the
    // lines reach across to meet the neighbour's.
    let inset = cell * 0.09;
    let sum_size = cell * 0.24;
    for cage in rules.cages() {
        let inside = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && (r as usize) < n
                && (c as usize) < n
                && cage.cells.contains(&(r as usize * n + c as usize))
        };
        for &i in &cage.cells {
            let (r, c) = ((i / n) as isize, (i % n) as isize);
            let (cx, cy) = at(r as usize, c as usize);
            // Each side: (the neighbour across it, its two ends' perpendicular neighbours and
            // diagonals), drawn along the side at `inset`.
            let end = |side_out: (isize, isize), along: (isize, isize)| -> f32 {
                // How far past the cell's corner this end of a side's line goes.
                let perpendicular = inside(r + along.0, c + along.1);
                let diagonal = inside(r + along.0 + side_out.0, c + along.1 + side_out.1);
                match (perpendicular, diagonal) {
                    (false, _) => -inset,
                    (true, true) => inset,
                    (true, false) => 0.0,
                }
            };
            for (out_dir, a_dir, b_dir) in [
                ((-1, 0), (0, -1), (0, 1)),
                ((1, 0), (0, -1), (0, 1)),
                ((0, -1), (-1, 0), (1, 0)),
                ((0, 1), (-1, 0), (1, 0)),
            ] {
                if inside(r + out_dir.0, c + out_dir.1) {
                    continue;
                }
                let (ea, eb) = (end(out_dir, a_dir), end(out_dir, b_dir));
                let (from, to) = if out_dir.0 != 0 {
                    let ly = if out_dir.0 < 0 {
                        cy + inset
                    } else {
                        cy + cell - inset
                    };
                    ((cx - ea, ly), (cx + cell + eb, ly))
                } else {
                    let lx = if out_dir.1 < 0 {
                        cx + inset
                    } else {
                        cx + cell - inset
                    };
                    ((lx, cy - ea), (lx, cy + cell + eb))
                };
                out.push(Mark::Line {
                    from,
                    to,
                    width: thin,
                    grey: 0,
                    dashed: true,
                });
            }
        }
        if let (Some(sum), Some(&first)) = (cage.sum, cage.cells.iter().min()) {
            let (cx, cy) = at(first / n, first % n);
            let text = sum.to_string();
            let w = book::text_width(&text, sum_size);
            out.push(Mark::Fill {
                x: cx + inset * 0.5,
                y: cy + inset * 0.5,
                w: w + inset,
                h: sum_size * 1.05,
                grey: 255,
            });
            out.push(Mark::Text {
                x: cx + inset,
                y: cy + inset * 0.5 + sum_size * 0.85,
                size: sum_size,
                grey: 0,
                text,
                centred: false,
            });
        }
    }
    let size = cell * digit_size(n);
    let height = book::digit_height() * size;
    for (i, &given) in p.cells().iter().enumerate() {
        let (d, grey) = match (given, solution) {
            (0, Some(s)) => (s[i], GREY),
            (0, None) => continue,
            (d, _) => (d, 0),
        };
        let (cx, cy) = at(i / n, i % n);
        out.push(Mark::Text {
            x: cx + cell / 2.0,
            y: cy + cell / 2.0 + height / 2.0,
            size,
            grey,
            text: symbol(d).to_string(),
            centred: true,
        });
    }
    out
}

/// One puzzle (or, with `answer`, its solution) as a standalone SVG image.
pub fn svg(entry: &VariantEntry, answer: bool) -> String {
    let (side, pad, label_size) = (360.0_f32, 12.0_f32, 14.0_f32);
    let top = pad + label_size * 1.6;
    let (w, h) = (side + 2.0 * pad, side + top + pad);
    let solution = answer.then_some(entry.solution.as_slice());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}pt\" height=\"{1}pt\" viewBox=\"0 0 {0} {1}\">",
        num(w),
        num(h)
    );
    let _ = writeln!(
        s,
        "<rect width=\"{}\" height=\"{}\" fill=\"#fff\"/>",
        num(w),
        num(h)
    );
    let _ = writeln!(s, "<g font-family=\"DejaVu Sans, Verdana, sans-serif\">");
    let mut all = vec![Mark::Text {
        x: pad,
        y: top - label_size * 0.5,
        size: label_size,
        grey: 0,
        text: entry.label(),
        centred: false,
    }];
    all.extend(marks(&entry.puzzle, solution, pad, top, side));
    for m in &all {
        match m {
            Mark::Line {
                from,
                to,
                width,
                grey,
                dashed,
            } => {
                let dash = if *dashed {
                    format!(" stroke-dasharray=\"{0} {0}\"", num(width * 3.0))
                } else {
                    String::new()
                };
                let _ = writeln!(
                    s,
                    "<path d=\"M{} {}L{} {}\" stroke=\"#{grey:02x}{grey:02x}{grey:02x}\" stroke-width=\"{}\" stroke-linecap=\"square\"{dash}/>",
                    num(from.0),
                    num(from.1),
                    num(to.0),
                    num(to.1),
                    num(*width)
                );
            }
            Mark::Fill { x, y, w, h, grey } => {
                let _ = writeln!(
                    s,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#{grey:02x}{grey:02x}{grey:02x}\"/>",
                    num(*x),
                    num(*y),
                    num(*w),
                    num(*h)
                );
            }
            Mark::Text {
                x,
                y,
                size,
                grey,
                text,
                centred,
            } => {
                let anchor = if *centred { "middle" } else { "start" };
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" fill=\"#{grey:02x}{grey:02x}{grey:02x}\">{}</text>",
                    num(*x),
                    num(*y),
                    num(*size),
                    book::xml_escape(text)
                );
            }
        }
    }
    s.push_str("</g>\n</svg>\n");
    s
}

/// A book of variant puzzles as a PDF: the classic book's pages, slots, title, page numbers
/// and answer pages (nine a page).
///
/// # Errors
/// When the PDF writer fails.
pub fn pdf(entries: &[VariantEntry], config: &BookConfig) -> Result<Vec<u8>> {
    let font = book::font()?;
    let (w, h) = config.paper.size();
    let mut document = book::document(config);
    let pages = book::plan(entries, config);
    for (
        number,
        book::PageSpec {
            title,
            items,
            per_page,
        },
    ) in pages.iter().enumerate()
    {
        let settings = krilla::page::PageSettings::from_wh(w, h)
            .ok_or_else(|| anyhow!("bad paper size {w} x {h}"))?;
        let mut page = document.start_page_with(settings);
        let mut surface = page.surface();
        let mut all = Vec::new();
        if let Some(t) = title {
            let size = book::title_size(t, config.paper)?;
            all.push(Mark::Text {
                x: w / 2.0,
                y: book::MARGIN + book::TITLE_SIZE,
                size,
                grey: 0,
                text: t.clone(),
                centred: true,
            });
        }
        all.push(Mark::Text {
            x: w / 2.0,
            y: h - book::MARGIN,
            size: book::FOOTER_SIZE,
            grey: 0,
            text: (number + 1).to_string(),
            centred: true,
        });
        for (slot, &(entry, answer)) in book::slots(config.paper, *per_page, title.is_some())
            .iter()
            .zip(items)
        {
            let Slot {
                x,
                y,
                side,
                label_size,
            } = *slot;
            all.push(Mark::Text {
                x,
                y: y - label_size * 0.5,
                size: label_size,
                grey: 0,
                text: entry.label(),
                centred: false,
            });
            let solution = answer.then_some(entry.solution.as_slice());
            all.extend(marks(&entry.puzzle, solution, x, y, side));
        }
        draw_pdf(&mut surface, &font, &all);
        surface.finish();
        page.finish();
    }
    document
        .finish()
        .map_err(|e| anyhow!("cannot make the PDF: {e:?}"))
}

fn draw_pdf(surface: &mut krilla::surface::Surface<'_>, font: &Font, all: &[Mark]) {
    let grey = |g: u8| Fill {
        paint: luma::Color::new(g).into(),
        opacity: NormalizedF32::ONE,
        rule: Default::default(),
    };
    for m in all {
        match m {
            Mark::Line {
                from,
                to,
                width,
                grey: g,
                dashed,
            } => {
                let mut pb = PathBuilder::new();
                pb.move_to(from.0, from.1);
                pb.line_to(to.0, to.1);
                if let Some(path) = pb.finish() {
                    surface.set_fill(None);
                    surface.set_stroke(Some(Stroke {
                        paint: luma::Color::new(*g).into(),
                        width: *width,
                        line_cap: LineCap::Square,
                        dash: dashed.then(|| StrokeDash {
                            array: vec![width * 3.0, width * 3.0],
                            offset: 0.0,
                        }),
                        ..Stroke::default()
                    }));
                    surface.draw_path(&path);
                    surface.set_stroke(None);
                }
            }
            Mark::Fill {
                x,
                y,
                w,
                h,
                grey: g,
            } => {
                if let Some(rect) = Rect::from_xywh(*x, *y, *w, *h) {
                    let mut pb = PathBuilder::new();
                    pb.push_rect(rect);
                    if let Some(path) = pb.finish() {
                        surface.set_fill(Some(grey(*g)));
                        surface.draw_path(&path);
                    }
                }
            }
            Mark::Text {
                x,
                y,
                size,
                grey: g,
                text,
                centred,
            } => {
                surface.set_fill(Some(grey(*g)));
                let left = if *centred {
                    x - book::text_width(text, *size) / 2.0
                } else {
                    *x
                };
                book::draw_text(surface, font, left, *y, *size, text);
            }
        }
    }
}

/// Writes the book of `entries` to `path` (atomically): one PDF, or one SVG image a puzzle
/// (and its answer's), as the classic book is written.
///
/// # Errors
/// When the PDF cannot be made or a file cannot be written.
pub fn write(
    entries: &[VariantEntry],
    layout: &crate::cmd::print::LayoutArgs,
    format: crate::cmd::print::PrintFormat,
    path: &std::path::Path,
) -> Result<()> {
    use crate::cmd::print::{book_config, write_pdf, write_svgs, PrintFormat};
    match format {
        PrintFormat::Pdf => write_pdf(path, &pdf(entries, &book_config(layout))?),
        PrintFormat::Svg => {
            let numbers: Vec<usize> = entries.iter().map(|e| e.number).collect();
            write_svgs(path, &numbers, layout.answers, |i, answer| {
                svg(&entries[i], answer)
            })
        }
    }
}

/// A length for SVG: at most two decimals, without trailing zeros.
fn num(x: f32) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
