//! Print-ready books of puzzles: the page layout shared by the PDF and SVG writers of
//! `shudu print` and `shudu generate --print`.
//!
//! A page holds 1, 2, 4, 6 or 9 puzzles in a grid of slots under an optional title, with the
//! page number at the foot. Each slot is a label (the puzzle's number, and its band and Sudoku
//! Explainer rating when known) above a square grid: thin cell lines, thick box lines and
//! border, digits centred in their cells. A puzzle read from a pencil-mark line shows its
//! candidates small in each empty cell, in the 3x3 layout of pencil marks and a lighter grey.
//! Answer pages (the solutions, nine a page, the givens in black and the rest in grey) follow
//! the puzzles.
//!
//! The game's print page (`crates/web/static/print.js`, `printPages`) draws the same layout in
//! the browser, with the same constants and font: change both together (the side-by-side test
//! is `print_page_of_the_game_looks_like_the_pdf` in `crates/cli/tests/print.rs`).
//!
//! The PDF is drawn with [krilla] (the typst project's high-level PDF writer): it embeds the
//! font as a subset with a `ToUnicode` map, so the digits can be searched and copied and
//! `pdftotext` reads them back. The font is DejaVu Sans, committed in `crates/web/assets/fonts` with its
//! licence. Lengths are PostScript points (1/72 inch), with the origin at the top left.
//!
//! [krilla]: https://docs.rs/krilla

use std::fmt::Write as _;
use std::sync::OnceLock;

use anyhow::{anyhow, Result};
use krilla::color::luma;
use krilla::geom::{PathBuilder, Point};
use krilla::num::NormalizedF32;
use krilla::paint::{Fill, LineCap, Stroke};
use krilla::text::{Font, GlyphId, KrillaGlyph};
use shudu_core::format::Marks;
use shudu_core::logic::{Band, Rating};
use shudu_core::{DigitSet, Grid, Puzzle};

/// DejaVu Sans, the game's print font too ([`shudu_web::PRINT_FONT`]).
static FONT_DATA: &[u8] = shudu_web::PRINT_FONT;

/// The paper sizes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

impl Paper {
    /// Width and height in points.
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.276, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// The puzzles a page may hold.
pub const PER_PAGE: [usize; 5] = [1, 2, 4, 6, 9];

/// How a book is laid out.
#[derive(Clone, Debug)]
pub struct BookConfig {
    /// Puzzles a page: one of [`PER_PAGE`].
    pub per_page: usize,
    /// The paper size.
    pub paper: Paper,
    /// The title printed at the head of every page, if any.
    pub title: Option<String>,
    /// Whether answer pages follow the puzzles.
    pub answers: bool,
}

/// One puzzle of a book.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its number in the book (printed in its label).
    pub number: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// A pencil-mark line's candidates: printed small in the empty cells.
    pub marks: Option<Box<Marks>>,
    /// Its solution (printed on the answer pages).
    pub solution: Grid,
    /// Its Sudoku Explainer rating, when known; the band is the rating's.
    pub rating: Option<Rating>,
}

impl Entry {
    /// The label over the grid: `12`, or `12 · hard · SE 2.3` when rated.
    pub fn label(&self, answer: bool) -> String {
        let mut s = if answer {
            format!("Answer {}", self.number)
        } else {
            format!("{}", self.number)
        };
        if let (Some(r), false) = (self.rating, answer) {
            let _ = write!(s, "  ·  {}  ·  SE {r}", Band::of(r));
        }
        s
    }
}

/// The embedded font's tables, parsed once: glyphs and their metrics.
struct Metrics {
    face: ttf_parser::Face<'static>,
    /// Font units per em.
    upem: f32,
    /// The height of the digits above the baseline, in em (they have no descenders).
    digit_height: f32,
}

fn metrics() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(|| {
        let face = ttf_parser::Face::parse(FONT_DATA, 0).expect("the embedded font parses");
        let upem = f32::from(face.units_per_em());
        let digit_height = face
            .glyph_index('8')
            .and_then(|g| face.glyph_bounding_box(g))
            .map_or(0.73, |b| f32::from(b.y_max) / upem);
        Metrics {
            face,
            upem,
            digit_height,
        }
    })
}

impl Metrics {
    /// The glyph of `c` (the font's "missing" glyph 0 if it has none) and its advance in em.
    fn glyph(&self, c: char) -> (u16, f32) {
        let g = self.face.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
        let advance = self.face.glyph_hor_advance(g).unwrap_or(0);
        (g.0, f32::from(advance) / self.upem)
    }
}

/// Fonts with the CJK characters DejaVu Sans lacks (数独, 練習, ...), looked for in this order
/// when a title or label needs one; `SHUDU_FONT` (a TrueType or OpenType file or collection)
/// comes first. Debian's fonts-noto-cjk gives the first. They are not committed (Noto Sans CJK
/// is 20 MB): the font found is read at run time and krilla embeds only the glyphs drawn.
const FALLBACK_FONTS: &[&str] = &[
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "/System/Library/Fonts/Hiragino Sans GB.ttc",
];

/// The second font: its tables and the font krilla embeds.
struct Fallback {
    face: ttf_parser::Face<'static>,
    upem: f32,
    font: Font,
}

/// The first font of `SHUDU_FONT` and [`FALLBACK_FONTS`] that loads, read once (its bytes live
/// as long as the process: a book is made once a run).
fn fallback() -> Option<&'static Fallback> {
    static FALLBACK: OnceLock<Option<Fallback>> = OnceLock::new();
    FALLBACK
        .get_or_init(|| {
            let env = std::env::var_os("SHUDU_FONT").map(std::path::PathBuf::from);
            let paths = env
                .into_iter()
                .chain(FALLBACK_FONTS.iter().map(std::path::PathBuf::from));
            paths.into_iter().find_map(|path| {
                let data: &'static [u8] = Box::leak(std::fs::read(&path).ok()?.into_boxed_slice());
                let face = ttf_parser::Face::parse(data, 0).ok()?;
                let font = Font::new(data.into(), 0)?;
                Some(Fallback {
                    upem: f32::from(face.units_per_em()),
                    face,
                    font,
                })
            })
        })
        .as_ref()
}

/// Which font draws a character, with its glyph and advance in em.
#[derive(Clone, Copy, PartialEq)]
enum Source {
    /// DejaVu Sans, or no font at all (its "missing" glyph 0).
    Main,
    /// The [`fallback`] font.
    Fallback,
}

/// The font, glyph and advance (em) for `c`: DejaVu Sans when it has the character, else the
/// fallback font when it has it, else DejaVu's empty box.
fn pick(c: char) -> (Source, u16, f32) {
    let m = metrics();
    if c.is_control() || m.face.glyph_index(c).is_some() {
        let (g, a) = m.glyph(c);
        return (Source::Main, g, a);
    }
    if let Some(f) = fallback() {
        if let Some(g) = f.face.glyph_index(c) {
            let advance = f.face.glyph_hor_advance(g).unwrap_or(0);
            return (Source::Fallback, g.0, f32::from(advance) / f.upem);
        }
    }
    let (g, a) = m.glyph(c);
    (Source::Main, g, a)
}

/// The characters of `text` that no font draws (each once, in order): they would print as
/// empty boxes.
pub fn undrawable(text: &str) -> Vec<char> {
    let m = metrics();
    let mut out: Vec<char> = Vec::new();
    for c in text.chars() {
        let drawn = c.is_whitespace()
            || m.face.glyph_index(c).is_some()
            || fallback().is_some_and(|f| f.face.glyph_index(c).is_some());
        if !drawn && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The width of `text` at `size` points.
pub(crate) fn text_width(text: &str, size: f32) -> f32 {
    text.chars().map(|c| pick(c).2).sum::<f32>() * size
}

/// The smallest size a title is shrunk to before it is refused.
const MIN_TITLE_SIZE: f32 = 6.0;

/// The size at which `title` fits the width between the margins of `paper`: [`TITLE_SIZE`], or
/// smaller for a long title.
///
/// # Errors
/// A title too long for one line even at [`MIN_TITLE_SIZE`].
pub fn title_size(title: &str, paper: Paper) -> Result<f32> {
    let room = paper.size().0 - 2.0 * MARGIN;
    let width = text_width(title, TITLE_SIZE);
    if width <= room {
        return Ok(TITLE_SIZE);
    }
    let size = TITLE_SIZE * room / width;
    if size < MIN_TITLE_SIZE {
        let chars = title.chars().count();
        let fit = (chars as f32 * size / MIN_TITLE_SIZE) as usize;
        anyhow::bail!(
            "the title ({chars} characters) does not fit on one line of the page even at \
             {MIN_TITLE_SIZE} pt; about {fit} characters like these fit: shorten it"
        );
    }
    Ok(size)
}

/// Where one puzzle goes on a page: its label's baseline and its grid's square.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slot {
    /// The left of the grid (and of the label).
    pub x: f32,
    /// The top of the grid.
    pub y: f32,
    /// The side of the grid.
    pub side: f32,
    /// The label's font size; its baseline is a quarter of it above the grid.
    pub label_size: f32,
}

/// The page's margin, on every side.
pub(crate) const MARGIN: f32 = 40.0;
/// The title's font size.
pub(crate) const TITLE_SIZE: f32 = 14.0;
/// The page number's font size.
pub(crate) const FOOTER_SIZE: f32 = 10.0;

/// Columns and rows of slots for `per_page` puzzles.
fn arrangement(per_page: usize) -> (usize, usize) {
    match per_page {
        1 => (1, 1),
        2 => (1, 2),
        4 => (2, 2),
        6 => (2, 3),
        _ => (3, 3),
    }
}

/// The slots of a page of `per_page` puzzles, in reading order.
pub fn slots(paper: Paper, per_page: usize, titled: bool) -> Vec<Slot> {
    let (w, h) = paper.size();
    let (cols, rows) = arrangement(per_page);
    let top = MARGIN + if titled { TITLE_SIZE * 2.0 } else { 0.0 };
    let bottom = h - MARGIN - FOOTER_SIZE * 2.0;
    let (slot_w, slot_h) = (
        (w - 2.0 * MARGIN) / cols as f32,
        (bottom - top) / rows as f32,
    );
    let gap = if per_page == 1 { 0.0 } else { 18.0 };
    let label_size = if per_page >= 6 { 9.0 } else { 11.0 };
    let label_h = label_size * 1.6;
    let side = (slot_w - gap)
        .min(slot_h - gap - label_h)
        .min(w - 2.0 * MARGIN);
    let mut out = Vec::with_capacity(cols * rows);
    for r in 0..rows {
        for c in 0..cols {
            let x0 = MARGIN + c as f32 * slot_w;
            let y0 = top + r as f32 * slot_h;
            out.push(Slot {
                x: x0 + (slot_w - side) / 2.0,
                y: y0 + label_h + (slot_h - gap - label_h - side) / 2.0,
                side,
                label_size,
            });
        }
    }
    out
}

/// Line widths for a grid of side `side`: cell lines, box lines and border.
fn line_widths(side: f32) -> (f32, f32) {
    (
        (side * 0.0025).clamp(0.5, 1.0),
        (side * 0.009).clamp(1.5, 3.0),
    )
}

/// What a grid's cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shown {
    /// Nothing.
    Empty,
    /// A given, in black.
    Given(u8),
    /// A solved cell of an answer, in grey.
    Solved(u8),
    /// A pencil-mark line's candidates, small and light.
    Candidates(DigitSet),
}

/// What to draw in a grid's cells: the puzzle's givens, and either the rest of the solution
/// (an answer) or the empty cells' candidates (a pencil-mark line's puzzle).
fn cells(entry: &Entry, answer: bool) -> [Shown; 81] {
    let mut out = [Shown::Empty; 81];
    let givens = entry.puzzle.as_bytes();
    for (i, o) in out.iter_mut().enumerate() {
        *o = match (givens[i], answer, &entry.marks) {
            (0, true, _) => Shown::Solved(entry.solution.as_bytes()[i]),
            (0, false, Some(m)) => Shown::Candidates(m[i]),
            (0, false, None) => Shown::Empty,
            (d, _, _) => Shown::Given(d),
        };
    }
    out
}

/// The grey of an answer's solved digits (0 black, 255 white).
const GREY: u8 = 110;
/// The lighter grey of a pencil-mark line's candidates.
const MARK_GREY: u8 = 140;
/// A digit's font size, as a fraction of the cell's side.
const DIGIT: f32 = 0.62;
/// A candidate's font size, as a fraction of the cell's side.
const CANDIDATE: f32 = 0.24;
/// How far apart the candidates' columns (and rows) are, as a fraction of the cell's side.
const CANDIDATE_STEP: f32 = 0.29;

/// The centre of candidate `d`'s place in the cell whose centre is (`cx`, `cy`): the 3x3
/// layout of pencil marks, 1 2 3 on top, 7 8 9 at the bottom.
fn candidate_centre(d: u8, cx: f32, cy: f32, cell: f32) -> (f32, f32) {
    let k = f32::from(d - 1);
    let (row, col) = ((k / 3.0).floor() - 1.0, k % 3.0 - 1.0);
    (
        cx + col * CANDIDATE_STEP * cell,
        cy + row * CANDIDATE_STEP * cell,
    )
}

/// One page to draw: its title, its puzzles (each with whether it shows the answer) and its
/// layout.
pub(crate) struct PageSpec<'a, E> {
    pub(crate) title: Option<String>,
    pub(crate) items: Vec<(&'a E, bool)>,
    pub(crate) per_page: usize,
}

/// The pages of a book of `entries`: `per_page` puzzles a page under the title, then, with
/// answers, their solutions nine a page under "TITLE: answers" (or "Answers").
pub(crate) fn plan<'a, E>(entries: &'a [E], config: &BookConfig) -> Vec<PageSpec<'a, E>> {
    let mut pages = Vec::new();
    for chunk in entries.chunks(config.per_page) {
        pages.push(PageSpec {
            title: config.title.clone(),
            items: chunk.iter().map(|e| (e, false)).collect(),
            per_page: config.per_page,
        });
    }
    if config.answers {
        let title = match &config.title {
            Some(t) => format!("{t}: answers"),
            None => "Answers".to_string(),
        };
        for chunk in entries.chunks(9) {
            pages.push(PageSpec {
                title: Some(title.clone()),
                items: chunk.iter().map(|e| (e, true)).collect(),
                per_page: 9,
            });
        }
    }
    pages
}

/// A new PDF document with the book's metadata (its creator, and its title if any).
pub(crate) fn document(config: &BookConfig) -> krilla::Document {
    let mut document = krilla::Document::new();
    let mut metadata =
        krilla::metadata::Metadata::new().creator(format!("shudu {}", env!("CARGO_PKG_VERSION")));
    if let Some(t) = &config.title {
        metadata = metadata.title(t.clone());
    }
    document.set_metadata(metadata);
    document
}

/// The print font, loaded.
///
/// # Errors
/// When it does not load (it is committed, so it should).
pub(crate) fn font() -> Result<Font> {
    Font::new(FONT_DATA.into(), 0).ok_or_else(|| anyhow!("the font does not load"))
}

/// The height of a digit (of the print font at size 1), to centre digits in their cells.
pub(crate) fn digit_height() -> f32 {
    metrics().digit_height
}

/// Makes the PDF of a book.
///
/// # Errors
/// When the PDF writer fails (it should not: the font is fixed and every path is finite).
pub fn pdf(entries: &[Entry], config: &BookConfig) -> Result<Vec<u8>> {
    let font = font()?;
    let (w, h) = config.paper.size();
    let mut document = document(config);
    let pages = plan(entries, config);
    for (
        number,
        PageSpec {
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
        surface.set_fill(Some(Fill::default()));
        if let Some(t) = title {
            // Shrunk to fit, on the baseline of a title of the usual size.
            let size = title_size(t, config.paper)?;
            let x = (w - text_width(t, size)) / 2.0;
            draw_text(&mut surface, &font, x, MARGIN + TITLE_SIZE, size, t);
        }
        let foot = format!("{}", number + 1);
        let x = (w - text_width(&foot, FOOTER_SIZE)) / 2.0;
        draw_text(&mut surface, &font, x, h - MARGIN, FOOTER_SIZE, &foot);
        let slots = slots(config.paper, *per_page, title.is_some());
        for (slot, &(entry, answer)) in slots.iter().zip(items) {
            surface.set_fill(Some(Fill::default()));
            let label = entry.label(answer);
            let baseline = slot.y - slot.label_size * 0.5;
            draw_text(
                &mut surface,
                &font,
                slot.x,
                baseline,
                slot.label_size,
                &label,
            );
            draw_grid_pdf(&mut surface, &font, slot, &cells(entry, answer));
        }
        surface.finish();
        page.finish();
    }
    document
        .finish()
        .map_err(|e| anyhow!("cannot make the PDF: {e:?}"))
}

/// Draws `text` with its baseline starting at (`x`, `y`): glyph by glyph at their advances,
/// without shaping (labels and digits need neither ligatures nor kerning, and shaping each
/// digit was two thirds of the time of a book).
pub(crate) fn draw_text(
    surface: &mut krilla::surface::Surface<'_>,
    font: &Font,
    x: f32,
    y: f32,
    size: f32,
    text: &str,
) {
    // Runs of characters drawn by one font, each placed after the one before.
    let mut x = x;
    let mut chars = text.char_indices().map(|(i, c)| (i, c, pick(c))).peekable();
    while let Some(&(start, _, (source, _, _))) = chars.peek() {
        let mut glyphs = Vec::new();
        let mut end = start;
        let mut width = 0.0;
        while let Some(&(i, c, (s, id, advance))) = chars.peek() {
            if s != source {
                break;
            }
            chars.next();
            glyphs.push(KrillaGlyph {
                glyph_id: GlyphId::new(u32::from(id)),
                text_range: i - start..i - start + c.len_utf8(),
                x_advance: advance,
                x_offset: 0.0,
                y_offset: 0.0,
                y_advance: 0.0,
                location: None,
            });
            end = i + c.len_utf8();
            width += advance * size;
        }
        let run_font = match (source, fallback()) {
            (Source::Fallback, Some(f)) => f.font.clone(),
            _ => font.clone(),
        };
        surface.draw_glyphs(
            Point::from_xy(x, y),
            &glyphs,
            run_font,
            &text[start..end],
            size,
            false,
        );
        x += width;
    }
}

fn draw_grid_pdf(
    surface: &mut krilla::surface::Surface<'_>,
    font: &Font,
    slot: &Slot,
    cells: &[Shown; 81],
) {
    let Slot { x, y, side, .. } = *slot;
    let cell = side / 9.0;
    let (thin, thick) = line_widths(side);
    let stroke = |width: f32| Stroke {
        width,
        line_cap: LineCap::Square,
        ..Stroke::default()
    };
    surface.set_fill(None);
    for (width, boxes) in [(thin, false), (thick, true)] {
        let mut pb = PathBuilder::new();
        for i in 0..=9 {
            if (i % 3 == 0) != boxes {
                continue;
            }
            let t = i as f32 * cell;
            pb.move_to(x, y + t);
            pb.line_to(x + side, y + t);
            pb.move_to(x + t, y);
            pb.line_to(x + t, y + side);
        }
        if let Some(path) = pb.finish() {
            surface.set_stroke(Some(stroke(width)));
            surface.draw_path(&path);
        }
    }
    surface.set_stroke(None);
    let m = metrics();
    let digit = |colour: u8, d: u8, size: f32, cx: f32, cy: f32| {
        surface.set_fill(Some(Fill {
            paint: luma::Color::new(colour).into(),
            opacity: NormalizedF32::ONE,
            rule: Default::default(),
        }));
        let mut buf = [0u8; 4];
        let text = char::from(b'0' + d).encode_utf8(&mut buf);
        draw_text(
            surface,
            font,
            cx - text_width(text, size) / 2.0,
            cy + m.digit_height * size / 2.0,
            size,
            text,
        );
    };
    place_digits(cells, x, y, cell, digit);
}

/// Calls `digit(grey level, digit, font size, centre x, centre y)` for every digit a grid of
/// side `9 * cell` with its top-left corner at (`x`, `y`) shows: the givens black, the solved
/// digits grey, the candidates small, lighter grey and in a 3x3 layout. The PDF and the SVG
/// writers both place their digits with it, so the two pictures agree.
fn place_digits(
    cells: &[Shown; 81],
    x: f32,
    y: f32,
    cell: f32,
    mut digit: impl FnMut(u8, u8, f32, f32, f32),
) {
    for (i, &shown) in cells.iter().enumerate() {
        let (r, c) = (i / 9, i % 9);
        let cx = x + (c as f32 + 0.5) * cell;
        let cy = y + (r as f32 + 0.5) * cell;
        match shown {
            Shown::Empty => {}
            Shown::Given(d) => digit(0, d, cell * DIGIT, cx, cy),
            Shown::Solved(d) => digit(GREY, d, cell * DIGIT, cx, cy),
            Shown::Candidates(set) => {
                for d in set.iter().map(|d| d.get()) {
                    let (mx, my) = candidate_centre(d, cx, cy, cell);
                    digit(MARK_GREY, d, cell * CANDIDATE, mx, my);
                }
            }
        }
    }
}

/// One puzzle (or, with `answer`, its solution) as a standalone SVG image, 360 points square
/// plus its label. The text uses DejaVu Sans where installed, else the viewer's sans-serif.
pub fn svg(entry: &Entry, answer: bool) -> String {
    let side = 360.0_f32;
    let pad = 12.0_f32;
    let label_size = 14.0_f32;
    let top = pad + label_size * 1.6;
    let (w, h) = (side + 2.0 * pad, side + top + pad);
    let cell = side / 9.0;
    let (thin, thick) = line_widths(side);
    let mut s = String::new();
    let (w, h) = (num(w), num(h));
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}pt\" height=\"{h}pt\" viewBox=\"0 0 {w} {h}\">"
    );
    let _ = writeln!(s, "<rect width=\"{w}\" height=\"{h}\" fill=\"#fff\"/>");
    let _ = writeln!(
        s,
        "<g font-family=\"DejaVu Sans, Verdana, sans-serif\" text-anchor=\"middle\">"
    );
    let _ = writeln!(
        s,
        "<text x=\"{pad}\" y=\"{}\" font-size=\"{label_size}\" text-anchor=\"start\">{}</text>",
        num(top - label_size * 0.5),
        xml_escape(&entry.label(answer))
    );
    for (width, boxes) in [(thin, false), (thick, true)] {
        let mut d = String::new();
        for i in 0..=9 {
            if (i % 3 == 0) != boxes {
                continue;
            }
            let t = i as f32 * cell;
            let _ = write!(
                d,
                "M{} {}H{}M{} {}V{}",
                num(pad),
                num(top + t),
                num(pad + side),
                num(pad + t),
                num(top),
                num(top + side)
            );
        }
        let _ = writeln!(
            s,
            "<path d=\"{d}\" stroke=\"#000\" stroke-width=\"{}\" stroke-linecap=\"square\" fill=\"none\"/>",
            num(width)
        );
    }
    let height = metrics().digit_height;
    let digit = |colour: u8, d: u8, size: f32, cx: f32, cy: f32| {
        let fill = if colour == 0 {
            String::new()
        } else {
            format!(" fill=\"#{colour:02x}{colour:02x}{colour:02x}\"")
        };
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\"{fill}>{d}</text>",
            num(cx),
            num(cy + height * size / 2.0),
            num(size),
        );
    };
    place_digits(&cells(entry, answer), pad, top, cell, digit);
    s.push_str("</g>\n</svg>\n");
    s
}

/// A length for SVG: at most two decimals, without trailing zeros.
fn num(x: f32) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

pub(crate) fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_fit_on_the_page_and_do_not_overlap() {
        for paper in [Paper::A4, Paper::Letter] {
            let (w, h) = paper.size();
            for n in PER_PAGE {
                let s = slots(paper, n, true);
                assert_eq!(s.len(), n);
                for a in &s {
                    assert!(a.x >= MARGIN - 0.01 && a.x + a.side <= w - MARGIN + 0.01);
                    assert!(a.y - a.label_size * 1.6 >= MARGIN && a.y + a.side <= h - MARGIN);
                    for b in &s {
                        if a != b {
                            let apart_x = a.x + a.side <= b.x || b.x + b.side <= a.x;
                            let apart_y = a.y + a.side <= b.y - b.label_size * 1.6
                                || b.y + b.side <= a.y - a.label_size * 1.6;
                            assert!(apart_x || apart_y, "{n} a page: {a:?} overlaps {b:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_game_print_page_draws_with_these_numbers() {
        // `printPages` in the game's print.js ports this layout; its numbers must be these.
        let js = include_str!("../../web/static/print.js");
        let (a4, letter) = (Paper::A4.size(), Paper::Letter.size());
        let hex = |g: u8| format!("'#{g:02x}{g:02x}{g:02x}'");
        for needle in [
            format!(
                "a4: [{}, {}], letter: [{}, {}]",
                a4.0, a4.1, letter.0, letter.1
            ),
            format!("margin: {MARGIN}, titleSize: {TITLE_SIZE}, footerSize: {FOOTER_SIZE}"),
            format!("digit: {DIGIT}, candidate: {CANDIDATE}, candidateStep: {CANDIDATE_STEP}"),
            format!("digitHeight: {:.3}", metrics().digit_height),
            format!("grey: {}, markGrey: {}", hex(GREY), hex(MARK_GREY)),
            "const gap = perPage === 1 ? 0 : 18;".to_string(),
            "const labelSize = perPage >= 6 ? 9 : 11;".to_string(),
            "const labelH = labelSize * 1.6;".to_string(),
            "Math.min(1, Math.max(0.5, side * 0.0025))".to_string(),
            "Math.min(3, Math.max(1.5, side * 0.009))".to_string(),
        ] {
            assert!(js.contains(&needle), "print.js lacks `{needle}`");
        }
        let (thin, thick) = line_widths(400.0);
        assert_eq!((thin, thick), (1.0, 3.0));
        assert_eq!(line_widths(100.0), (0.5, 1.5));
    }

    #[test]
    fn digits_of_the_font_are_all_as_wide() {
        let w = text_width("1", 10.0);
        assert!(w > 5.0 && w < 7.0, "{w}");
        assert!((1..=9).all(|d| (text_width(&d.to_string(), 10.0) - w).abs() < 1e-4));
        let h = metrics().digit_height;
        assert!(
            (0.70..0.76).contains(&h),
            "DejaVu Sans digits are about 0.73 em high: {h}"
        );
    }
}
