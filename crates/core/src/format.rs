//! Reading and writing puzzles in the formats Sudoku programs exchange.
//!
//! | format | one puzzle looks like |
//! |---|---|
//! | [`Format::Line`] | 81 characters on one line: `1-9` for givens, `.` or `0` for empty |
//! | [`Format::Grid`] | 9 lines of 9 digits separated by single spaces, `0` for empty (the 2017 assignment's format) |
//! | [`Format::Compact`] | 9 lines of 9 digits, no spaces |
//! | [`Format::Pretty`] | a boxed grid drawn with `+`, `-` and `|`, `.` for empty |
//! | [`Format::Json`] | one JSON object a line, with at least a `"puzzle"` string in line form |
//! | [`Format::Marks`] | pencil marks (Sukaku): 729 characters on one line, 9 a cell, the digit `k` at position `k` where candidate `k` is present and `.` or `0` where it is not |
//!
//! Multi-line puzzles are separated by one blank line. [`Reader`] detects the format of each record
//! by itself, so files may even mix them. Lines starting with `#` are comments. A line-form puzzle
//! may be followed by whitespace and anything else (a rating, a source), which is ignored.
//!
//! A pencil-mark record (the 729-character line of Sudoku Explainer, HoDoKu and SukakuExplainer)
//! gives every cell's candidates: [`Record::marks`] holds them, and [`Record::puzzle`] holds the
//! cells with exactly one candidate as givens. Its solutions are the grids that put a candidate
//! of its marks in every cell (see [`crate::solver::Solver::restrict`]).

use crate::error::{ParseError, ParseErrorKind};
use crate::grid::Puzzle;
use crate::{Cell, Digit, DigitSet};

/// Parsing a puzzle from a string lives with the formats (the grid model is below them).
impl std::str::FromStr for Puzzle {
    type Err = ParseError;

    /// Parses one puzzle in any format [`Reader`] reads.
    fn from_str(s: &str) -> Result<Puzzle, Self::Err> {
        parse_one(s)
    }
}

/// An output (and input) format. See the [module docs](self).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Format {
    /// 81 characters, `.` for empty.
    #[default]
    Line,
    /// 9 lines of space-separated digits, `0` for empty.
    Grid,
    /// 9 lines of 9 digits, `0` for empty.
    Compact,
    /// A boxed grid for terminals.
    Pretty,
    /// JSON Lines.
    Json,
    /// Pencil marks, 729 characters a line: written from a puzzle, a given's field holds its
    /// digit and an empty cell's the digits no peer holds ([`marks_of`]).
    Marks,
}

impl Format {
    /// Whether records span several lines and are separated by a blank line.
    pub const fn is_block(self) -> bool {
        matches!(self, Format::Grid | Format::Compact | Format::Pretty)
    }

    /// Appends puzzle number `index` (0-based) to `out`, preceded by the blank separator line when
    /// the format needs one. JSON writes `{"puzzle":"..."}`; richer records are the caller's.
    pub fn write(self, out: &mut Vec<u8>, index: usize, p: &Puzzle) {
        if index > 0 && self.is_block() {
            out.push(b'\n');
        }
        let cells = p.as_bytes();
        match self {
            Format::Line => {
                // Through a fixed-size line, which the compiler vectorises (the hot path of
                // `shudu solve`); extending by an iterator went byte by byte.
                let mut line = [b'\n'; 82];
                for (o, &v) in line.iter_mut().zip(cells) {
                    *o = if v == 0 { b'.' } else { b'0' + v };
                }
                out.extend_from_slice(&line);
            }
            Format::Grid => write_grid(out, cells),
            Format::Compact => {
                for row in cells.chunks_exact(9) {
                    out.extend(row.iter().map(|&v| b'0' + v));
                    out.push(b'\n');
                }
            }
            Format::Pretty => write_pretty(out, cells),
            Format::Marks => write_marks(out, &marks_of(p)),
            Format::Json => {
                out.extend_from_slice(b"{\"puzzle\":\"");
                out.extend(cells.iter().map(|&v| if v == 0 { b'.' } else { b'0' + v }));
                out.extend_from_slice(b"\"}\n");
            }
        }
    }
}

/// The candidates of every cell, in reading order: a pencil-mark record's marks.
pub type Marks = [DigitSet; 81];

/// The pencil marks of a puzzle with nothing ruled out beyond its givens: a given holds its
/// digit, an empty cell the digits that no peer holds.
///
/// # Examples
/// ```
/// use shudu_core::{format::marks_of, Cell, Puzzle};
/// let p: Puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
///     .parse()?;
/// let m = marks_of(&p);
/// assert_eq!(m[0].len(), 1); // the given 5
/// assert_eq!(m[2].iter().map(|d| d.get()).collect::<Vec<_>>(), [1, 2, 4]);
/// # Ok::<(), shudu_core::ParseError>(())
/// ```
pub fn marks_of(p: &Puzzle) -> Marks {
    let mut marks = [DigitSet::EMPTY; 81];
    for (i, m) in marks.iter_mut().enumerate() {
        let cell = Cell::from_index(i);
        *m = match p.get(cell) {
            Some(d) => DigitSet::single(d),
            None => p.candidates(cell),
        };
    }
    marks
}

/// Appends the 729-character pencil-mark line of `marks` and a newline: for each cell, position
/// `k` (1 to 9) holds `k` where the candidate is present and `.` where it is not.
pub fn write_marks(out: &mut Vec<u8>, marks: &Marks) {
    let mut line = [b'.'; 730];
    for (i, m) in marks.iter().enumerate() {
        for d in m.iter() {
            line[9 * i + d.as_index()] = b'0' + d.get();
        }
    }
    line[729] = b'\n';
    out.extend_from_slice(&line);
}

/// Reads a 729-character pencil-mark token; on a bad character or an empty cell, its index in
/// the token and what is wrong.
fn parse_marks_line(token: &[u8]) -> Result<Marks, (usize, ParseErrorKind)> {
    let mut marks = [DigitSet::EMPTY; 81];
    for (i, m) in marks.iter_mut().enumerate() {
        let cell = Cell::from_index(i);
        for k in 0..9 {
            match token[9 * i + k] {
                b'.' | b'0' => {}
                b if b == b'1' + k as u8 => m.insert(Digit::from_index(k)),
                _ => {
                    return Err((
                        9 * i + k,
                        ParseErrorKind::BadMark {
                            cell,
                            at: k as u8 + 1,
                            found: describe(token, 9 * i + k),
                        },
                    ))
                }
            }
        }
        if m.is_empty() {
            return Err((9 * i, ParseErrorKind::NoCandidate(cell)));
        }
    }
    Ok(marks)
}

/// The givens of a pencil-mark record: the cells with exactly one candidate.
fn givens_of(marks: &Marks) -> [u8; 81] {
    let mut cells = [0u8; 81];
    for (c, m) in cells.iter_mut().zip(marks) {
        if m.len() == 1 {
            *c = m.first().map_or(0, |d| d.get());
        }
    }
    cells
}

/// Hot path of `shudu -c` (see `benches/grids.rs`): 9 rows of `d d d d d d d d d\n`, 162 bytes.
#[inline]
pub fn write_grid(out: &mut Vec<u8>, cells: &[u8; 81]) {
    let mut buf = [b' '; 162];
    for (r, row) in cells.chunks_exact(9).enumerate() {
        let line = &mut buf[r * 18..r * 18 + 18];
        for (c, &v) in row.iter().enumerate() {
            line[2 * c] = b'0' + v;
        }
        line[17] = b'\n';
    }
    out.extend_from_slice(&buf);
}

fn write_pretty(out: &mut Vec<u8>, cells: &[u8; 81]) {
    const RULE: &[u8] = b"+-------+-------+-------+\n";
    for (r, row) in cells.chunks_exact(9).enumerate() {
        if r % 3 == 0 {
            out.extend_from_slice(RULE);
        }
        for (c, &v) in row.iter().enumerate() {
            if c % 3 == 0 {
                out.extend_from_slice(b"| ");
            }
            out.push(if v == 0 { b'.' } else { b'0' + v });
            out.push(b' ');
        }
        out.extend_from_slice(b"|\n");
    }
    out.extend_from_slice(RULE);
}

/// One puzzle read from an input, with where it started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The puzzle's number in the input, counting from 1 (bad records count too).
    pub number: usize,
    /// The line it starts on, counting from 1.
    pub line: usize,
    /// The puzzle; for a pencil-mark record, its cells with one candidate.
    pub puzzle: Puzzle,
    /// A pencil-mark (729-character) record's candidates; `None` for a plain puzzle.
    pub marks: Option<Box<Marks>>,
}

/// Reads puzzles one by one from text in any of the [`Format`]s, detecting the format of each.
///
/// Yields `Err` for a malformed record and carries on with the next, so one bad puzzle does not
/// stop a batch. Every puzzle it yields obeys the rules (no digit twice in a house).
///
/// # Examples
/// ```
/// use shudu_core::format::Reader;
/// let text = "# two puzzles\n53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n\
///             x\n";
/// let records: Vec<_> = Reader::new(text.as_bytes()).collect();
/// assert_eq!(records.len(), 2);
/// assert_eq!(records[0].as_ref().unwrap().puzzle.givens(), 30);
/// assert_eq!(records[1].as_ref().unwrap_err().to_string(),
///            "puzzle 2, line 3, column 1: found 'x'; expected 1-9, '.' or '0'");
/// ```
pub struct Reader<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
    number: usize,
}

/// Where each cell of a record came from, to point at the second cell of a conflict.
enum Layout {
    /// Line form: all cells on `line`, cell `i` at column `col0 + i`.
    Line { line: usize, col0: usize },
    /// Block forms: row `r` on `lines[r]`, cell `c` of it at column `cols[r][c]`.
    Block {
        lines: [usize; 9],
        cols: Box<[[u16; 9]; 9]>,
    },
    /// JSON: the line only.
    Json { line: usize },
    /// Pencil marks: cell `i`'s candidate `k` (from 1) at column `col0 + 9 * i + k - 1`.
    Marks { line: usize, col0: usize },
}

impl<'a> Reader<'a> {
    /// A reader over `text`.
    pub fn new(text: &'a [u8]) -> Reader<'a> {
        Reader {
            text,
            pos: 0,
            line: 0,
            number: 0,
        }
    }

    /// The bytes read so far: where the next record (or the comment or blank lines before it)
    /// starts. A caller that reads a stream piece by piece uses it to carry an incomplete last
    /// record over to the next piece.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The lines read so far (the last one's number).
    pub fn lines_read(&self) -> usize {
        self.line
    }

    /// The next line without its end-of-line bytes, and its 1-based number.
    fn next_line(&mut self) -> Option<(&'a [u8], usize)> {
        if self.pos >= self.text.len() {
            return None;
        }
        let rest = &self.text[self.pos..];
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        self.pos += (end + 1).min(rest.len());
        self.line += 1;
        let mut l = &rest[..end];
        while let [head @ .., b'\r' | b' ' | b'\t'] = l {
            l = head;
        }
        Some((l, self.line))
    }

    fn peek_line(&self) -> Option<&'a [u8]> {
        if self.pos >= self.text.len() {
            return None;
        }
        let rest = &self.text[self.pos..];
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        Some(&rest[..end])
    }

    /// Skips the remaining lines of a broken block, up to the next blank line.
    fn skip_block(&mut self) {
        while let Some(l) = self.peek_line() {
            if l.iter().all(u8::is_ascii_whitespace) {
                break;
            }
            self.next_line();
        }
    }

    fn error(&self, line: usize, column: Option<usize>, kind: ParseErrorKind) -> ParseError {
        ParseError {
            puzzle: self.number,
            line,
            column,
            kind,
        }
    }

    fn read_record(
        &mut self,
        first: &'a [u8],
        line: usize,
    ) -> Result<(Puzzle, Option<Box<Marks>>), ParseError> {
        let lead = first.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let body = &first[lead..];
        let mut marks = None;
        let (cells, layout) = match body[0] {
            b'{' => (self.read_json(body, line)?, Layout::Json { line }),
            b'+' | b'|' => self.read_block(first, line, true)?,
            _ if is_grid_row(body) => self.read_block(first, line, false)?,
            _ if body.len() >= 729
                && body.get(729).is_none_or(u8::is_ascii_whitespace)
                && !body[..729].iter().any(u8::is_ascii_whitespace) =>
            {
                let m = parse_marks_line(&body[..729])
                    .map_err(|(i, kind)| self.error(line, Some(lead + i + 1), kind))?;
                let cells = givens_of(&m);
                marks = Some(Box::new(m));
                (
                    cells,
                    Layout::Marks {
                        line,
                        col0: lead + 1,
                    },
                )
            }
            _ => {
                // An 81-character token is the common case: read it without a scan for its end
                // or an allocation; anything unusual takes the general path for its message.
                let fast = match body.split_first_chunk::<81>() {
                    Some((token, rest)) if rest.first().is_none_or(u8::is_ascii_whitespace) => {
                        parse_line(token)
                    }
                    _ => None,
                };
                let cells = match fast {
                    Some(cells) => cells,
                    None => {
                        let token_len = body
                            .iter()
                            .position(|b| b.is_ascii_whitespace())
                            .unwrap_or(body.len());
                        let token = &body[..token_len];
                        let cells = parse_cells(token).map_err(|(i, found)| {
                            self.error(line, Some(lead + i + 1), ParseErrorKind::BadChar(found))
                        })?;
                        if token.len() != 81 {
                            return Err(self.error(
                                line,
                                None,
                                ParseErrorKind::WrongLength(token.len()),
                            ));
                        }
                        let mut out = [0u8; 81];
                        out.copy_from_slice(&cells);
                        out
                    }
                };
                (
                    cells,
                    Layout::Line {
                        line,
                        col0: lead + 1,
                    },
                )
            }
        };
        // Every reader above stores only 0..=9.
        let puzzle = Puzzle::from_checked_bytes(cells);
        if let Some(conflict) = puzzle.first_conflict() {
            let cell = conflict.second;
            let (line, column) = match layout {
                Layout::Line { line, col0 } => (line, Some(col0 + cell.as_index())),
                Layout::Block { lines, cols } => (
                    lines[cell.row()],
                    Some(cols[cell.row()][cell.col()] as usize),
                ),
                Layout::Json { line } => (line, None),
                Layout::Marks { line, col0 } => (
                    line,
                    Some(col0 + 9 * cell.as_index() + conflict.digit.as_index()),
                ),
            };
            return Err(self.error(line, column, ParseErrorKind::Conflict(conflict)));
        }
        Ok((puzzle, marks))
    }

    fn read_json(&self, body: &[u8], line: usize) -> Result<[u8; 81], ParseError> {
        #[derive(serde::Deserialize)]
        struct JsonRecord {
            puzzle: String,
        }
        let rec: JsonRecord = serde_json::from_slice(body).map_err(|e| {
            self.error(
                line,
                Some(e.column()),
                ParseErrorKind::Json(format!(
                    "invalid JSON record: {e}; expected an object with a \"puzzle\" string"
                )),
            )
        })?;
        let token = rec.puzzle.as_bytes();
        let cells = parse_cells(token).map_err(|(i, found)| {
            self.error(
                line,
                None,
                ParseErrorKind::Json(format!(
                    "field \"puzzle\", character {}: found {found}; expected 1-9, '.' or '0'",
                    i + 1
                )),
            )
        })?;
        if cells.len() != 81 {
            return Err(self.error(
                line,
                None,
                ParseErrorKind::Json(format!(
                    "field \"puzzle\" has {}; expected 81",
                    crate::error::counted(cells.len(), "cell")
                )),
            ));
        }
        let mut out = [0u8; 81];
        out.copy_from_slice(&cells);
        Ok(out)
    }

    /// Reads a 9-row block whose first line is `first`. `pretty` means rows start with `|` and
    /// separator lines start with `+`.
    fn read_block(
        &mut self,
        first: &'a [u8],
        first_line: usize,
        pretty: bool,
    ) -> Result<([u8; 81], Layout), ParseError> {
        let mut cells = [0u8; 81];
        let mut lines = [0usize; 9];
        let mut cols = [[0u16; 9]; 9];
        let mut row = 0;
        let mut current = Some((first, first_line));
        while row < 9 {
            let Some((l, n)) = current else {
                return Err(self.error(self.line, None, ParseErrorKind::ShortGrid(row)));
            };
            // Fast path for the assignment's row, `d d d d d d d d d` (`shudu -s` on a million
            // puzzles spends a quarter of its time reading): digits at the even offsets.
            if !pretty && l.len() == 17 && is_grid_row(l) {
                for c in 0..9 {
                    let b = l[2 * c];
                    cells[row * 9 + c] = if b == b'.' { 0 } else { b - b'0' };
                    cols[row][c] = (2 * c + 1) as u16;
                }
                lines[row] = n;
                row += 1;
                if row < 9 {
                    current = self.next_line();
                }
                continue;
            }
            if l.iter().all(u8::is_ascii_whitespace) {
                return Err(self.error(n, None, ParseErrorKind::ShortGrid(row)));
            }
            let trimmed_lead = l.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let is_rule = pretty && l[trimmed_lead] == b'+';
            if !is_rule {
                let mut found = 0;
                for (i, &b) in l.iter().enumerate() {
                    let v = match b {
                        b'1'..=b'9' => b - b'0',
                        b'0' | b'.' => 0,
                        b' ' | b'\t' => continue,
                        b'|' if pretty => continue,
                        _ => {
                            let err =
                                self.error(n, Some(i + 1), ParseErrorKind::BadChar(describe(l, i)));
                            self.skip_block();
                            return Err(err);
                        }
                    };
                    if found < 9 {
                        cells[row * 9 + found] = v;
                        cols[row][found] = (i + 1) as u16;
                    }
                    found += 1;
                }
                if found != 9 || (!pretty && !is_grid_row(&l[trimmed_lead..])) {
                    let err = self.error(
                        n,
                        None,
                        ParseErrorKind::WrongRowLength {
                            row: row + 1,
                            found,
                        },
                    );
                    self.skip_block();
                    return Err(err);
                }
                lines[row] = n;
                row += 1;
            }
            if row < 9 || pretty {
                // A pretty grid ends with a rule line; take it if it is there.
                if row == 9 {
                    if let Some(next) = self.peek_line() {
                        if next.trim_ascii_start().starts_with(b"+") {
                            self.next_line();
                        }
                    }
                    break;
                }
                current = self.next_line();
            }
        }
        Ok((
            cells,
            Layout::Block {
                lines,
                cols: Box::new(cols),
            },
        ))
    }
}

/// Whether `body` (no leading blanks) looks like one row of a block grid: 9 cells, either
/// adjacent or each separated from the next by spaces or tabs (one or several: files typed by
/// hand or exported from spreadsheets use both).
fn is_grid_row(body: &[u8]) -> bool {
    let cell = |b: &u8| b.is_ascii_digit() || *b == b'.';
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    match body.len() {
        9 => body.iter().all(cell),
        17 => body
            .iter()
            .enumerate()
            .all(|(i, b)| if i % 2 == 0 { cell(b) } else { blank(b) }),
        n if n > 17 => {
            let mut cells = 0;
            let mut after_cell = false;
            for b in body {
                if cell(b) {
                    if after_cell {
                        return false; // two adjacent cells in a spaced row
                    }
                    cells += 1;
                    after_cell = true;
                } else if blank(b) {
                    after_cell = false;
                } else {
                    return false;
                }
            }
            cells == 9
        }
        _ => false,
    }
}

/// Parses an 81-character token of digits, `.` and `0`, without allocating (the hot path of
/// `shudu solve` on line files); `None` if any other character is there.
fn parse_line(token: &[u8; 81]) -> Option<[u8; 81]> {
    let mut out = [0u8; 81];
    let mut bad = false;
    for (o, &b) in out.iter_mut().zip(token) {
        let v = b.wrapping_sub(b'0');
        bad |= v > 9 && b != b'.';
        *o = if v <= 9 { v } else { 0 };
    }
    (!bad).then_some(out)
}

/// Parses a token of cell characters; on a bad one, its index and a description of it.
fn parse_cells(token: &[u8]) -> Result<Vec<u8>, (usize, String)> {
    token
        .iter()
        .enumerate()
        .map(|(i, &b)| match b {
            b'1'..=b'9' => Ok(b - b'0'),
            b'0' | b'.' => Ok(0),
            _ => Err((i, describe(token, i))),
        })
        .collect()
}

/// Describes the character starting at byte `i` of `line` for an error message: `'x'`, or
/// `byte 0xff` when it is not UTF-8.
fn describe(line: &[u8], i: usize) -> String {
    for len in 1..=4 {
        if let Some(bytes) = line.get(i..i + len) {
            if let Ok(s) = std::str::from_utf8(bytes) {
                return format!("{s:?}").replace('"', "'");
            }
        }
    }
    format!("byte 0x{:02x}", line[i])
}

impl Iterator for Reader<'_> {
    type Item = Result<Record, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (l, line) = self.next_line()?;
            let start = l.iter().take_while(|b| b.is_ascii_whitespace()).count();
            if start == l.len() || l[start] == b'#' {
                continue;
            }
            self.number += 1;
            let number = self.number;
            return Some(self.read_record(l, line).map(|(puzzle, marks)| Record {
                number,
                line,
                puzzle,
                marks,
            }));
        }
    }
}

/// Reads exactly one puzzle from `s` (the first record; anything after it is ignored).
///
/// # Errors
/// The record's [`ParseError`], or [`ParseErrorKind::NoPuzzle`] for empty input.
pub fn parse_one(s: &str) -> Result<Puzzle, ParseError> {
    match Reader::new(s.as_bytes()).next() {
        Some(r) => r.map(|r| r.puzzle),
        None => Err(ParseError {
            puzzle: 1,
            line: 1,
            column: None,
            kind: ParseErrorKind::NoPuzzle,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn read_all(text: &str) -> Vec<Result<Record, ParseError>> {
        Reader::new(text.as_bytes()).collect()
    }

    fn round_trip(format: Format) {
        let p: Puzzle = P.parse().unwrap();
        let mut out = Vec::new();
        format.write(&mut out, 0, &p);
        format.write(&mut out, 1, &p);
        let back: Vec<Puzzle> = Reader::new(&out)
            .map(|r| r.expect("round trip parses").puzzle)
            .collect();
        assert_eq!(back, vec![p, p], "{}", String::from_utf8_lossy(&out));
    }

    #[test]
    fn reads_grid_rows_apart_by_tabs_or_several_spaces() {
        let p: Puzzle = P.parse().unwrap();
        let mut spaced = Vec::new();
        Format::Grid.write(&mut spaced, 0, &p);
        let spaced = String::from_utf8(spaced).unwrap();
        for sep in ["\t", "  ", " \t "] {
            let text = spaced.replace(' ', sep);
            let recs = read_all(&text);
            assert_eq!(recs.len(), 1, "{sep:?}");
            assert_eq!(recs[0].as_ref().expect("reads").puzzle, p, "{sep:?}");
        }
        // Cells together in one place and apart in another are still refused.
        let mixed = spaced.replacen("5 3", "53", 1);
        let err = read_all(&mixed).remove(0).unwrap_err();
        assert!(err.to_string().starts_with("puzzle 1, line 1"), "{err}");
    }

    #[test]
    fn line_round_trip() {
        round_trip(Format::Line);
    }

    #[test]
    fn grid_round_trip() {
        round_trip(Format::Grid);
    }

    #[test]
    fn compact_round_trip() {
        round_trip(Format::Compact);
    }

    #[test]
    fn pretty_round_trip() {
        round_trip(Format::Pretty);
    }

    #[test]
    fn json_round_trip() {
        round_trip(Format::Json);
    }

    #[test]
    fn grid_format_is_the_assignments() {
        let p: Puzzle = P.parse().unwrap();
        let mut out = Vec::new();
        Format::Grid.write(&mut out, 0, &p);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("5 3 0 0 7 0 0 0 0\n6 0 0 1 9 5 0 0 0\n"));
        assert_eq!(text.lines().count(), 9);
        assert!(text.lines().all(|l| l.len() == 17 && !l.ends_with(' ')));
    }

    #[test]
    fn rejects_line_with_80_cells() {
        let r = read_all(&P[..80]);
        assert_eq!(
            r[0].as_ref().unwrap_err().to_string(),
            "puzzle 1, line 1: found 80 cells; expected 81 (digits 1-9, '.' or '0' for empty)"
        );
    }

    #[test]
    fn bad_character_names_line_and_column_and_rest_still_read() {
        let text = format!("# c\n{P}\n{}x{}\n{P}\n", &P[..11], &P[12..]);
        let r = read_all(&text);
        assert_eq!(r.len(), 3);
        assert!(r[0].is_ok() && r[2].is_ok());
        assert_eq!(
            r[1].as_ref().unwrap_err().to_string(),
            "puzzle 2, line 3, column 12: found 'x'; expected 1-9, '.' or '0'"
        );
        assert_eq!(r[2].as_ref().unwrap().number, 3);
    }

    #[test]
    fn conflict_names_house_cells_and_position() {
        let mut s = P.to_string();
        s.replace_range(8..9, "5"); // r1c9 = 5 repeats r1c1
        let r = read_all(&s);
        assert_eq!(
            r[0].as_ref().unwrap_err().to_string(),
            "puzzle 1, line 1, column 9: digit 5 appears twice in row 1 (r1c1 and r1c9)"
        );
    }

    #[test]
    fn short_grid_row_is_reported_and_next_grid_read() {
        let text = "1 2 3 4 5 6 7 8 9\n0 0 0\n0 0 0 0 0 0 0 0 0\n\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 1\n";
        let r = read_all(text);
        assert_eq!(r.len(), 2, "{r:?}");
        assert_eq!(
            r[0].as_ref().unwrap_err().to_string(),
            "puzzle 1, line 2: row 2 has 3 cells; expected 9 (9 digits, each apart from the next by spaces or tabs, or all together)"
        );
        assert_eq!(r[1].as_ref().unwrap().puzzle.givens(), 1);
    }

    #[test]
    fn grid_cut_short_by_end_of_input() {
        let r = read_all("1 2 3 4 5 6 7 8 9\n");
        assert_eq!(
            r[0].as_ref().unwrap_err().kind,
            ParseErrorKind::ShortGrid(1)
        );
    }

    #[test]
    fn non_utf8_byte_is_described() {
        let mut bytes = P.as_bytes().to_vec();
        bytes[3] = 0xff;
        let r: Vec<_> = Reader::new(&bytes).collect();
        assert_eq!(
            r[0].as_ref().unwrap_err().to_string(),
            "puzzle 1, line 1, column 4: found byte 0xff; expected 1-9, '.' or '0'"
        );
    }

    #[test]
    fn bad_json_is_reported() {
        let r = read_all("{\"puzzle\": 5}\n");
        assert!(r[0]
            .as_ref()
            .unwrap_err()
            .to_string()
            .starts_with("puzzle 1, line 1, column"));
        let r = read_all("{\"puzzle\": \"123\"}\n");
        assert_eq!(
            r[0].as_ref().unwrap_err().to_string(),
            "puzzle 1, line 1: field \"puzzle\" has 3 cells; expected 81"
        );
    }

    #[test]
    fn trailing_fields_after_a_line_puzzle_are_ignored() {
        let r = read_all(&format!("{P}\tqqwing\t1.5\n{P};x\n"));
        assert!(r[0].is_ok());
        assert!(r[1].is_err());
    }

    /// `P` as a pencil-mark line, with every candidate no given rules out.
    fn marks_line() -> String {
        let mut out = Vec::new();
        Format::Marks.write(&mut out, 0, &P.parse().unwrap());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn pencil_mark_line_round_trips_its_marks() {
        let line = marks_line();
        assert_eq!(line.len(), 730);
        // r1c1 is the given 5; r1c3 may be 1, 2 or 4.
        assert_eq!(&line[..9], "....5....");
        assert_eq!(&line[18..27], "12.4.....");
        let r = read_all(&format!(
            "# marks\n{}\t2.0/1.2/1.2 hard\n{P}\n",
            line.trim_end()
        ));
        let rec = r[0].as_ref().unwrap();
        let p: Puzzle = P.parse().unwrap();
        assert_eq!(rec.marks.as_deref(), Some(&marks_of(&p)));
        // The givens are the cells with one candidate: the puzzle's, and its naked singles.
        for c in Cell::all() {
            if let Some(d) = p.get(c) {
                assert_eq!(rec.puzzle.get(c), Some(d));
            }
        }
        // 30 givens and the 4 naked singles (r5c5 = 5, ...).
        assert_eq!(rec.puzzle.givens(), 34);
        assert_eq!(rec.puzzle.get(Cell::at(4, 4)), Digit::new(5));
        assert_eq!(r[1].as_ref().unwrap().marks, None);
        // '0' reads as '.'.
        let zeros = line.trim_end().replace('.', "0");
        assert_eq!(
            read_all(&zeros)[0].as_ref().unwrap().marks,
            rec.marks.clone()
        );
    }

    #[test]
    fn pencil_mark_errors_name_line_column_and_cell() {
        let line = marks_line();
        let mut bad = line.clone();
        bad.replace_range(19..20, "3"); // r1c3's position 2 holds '3'
        assert_eq!(
            read_all(&format!("\n{bad}"))[0]
                .as_ref()
                .unwrap_err()
                .to_string(),
            "puzzle 1, line 2, column 20: found '3' in the candidates of r1c3; expected '2' \
             (candidate 2 present) or '.' or '0' (absent), 9 characters a cell"
        );
        let mut empty = line.clone();
        empty.replace_range(18..27, ".........");
        assert_eq!(
            read_all(&empty)[0].as_ref().unwrap_err().to_string(),
            "puzzle 1, line 1, column 19: r1c3 has no candidate (9 characters of '.' or '0'); \
             expected at least one"
        );
        // r1c3 left only 5, as r1c1 holds: the conflict points at r1c3's 5.
        let mut conflict = line.clone();
        conflict.replace_range(18..27, "....5....");
        assert_eq!(
            read_all(&conflict)[0].as_ref().unwrap_err().to_string(),
            "puzzle 1, line 1, column 23: digit 5 appears twice in row 1 (r1c1 and r1c3)"
        );
        // 728 characters is neither format.
        assert!(matches!(
            read_all(&line[..728])[0].as_ref().unwrap_err().kind,
            ParseErrorKind::WrongLength(728)
        ));
    }

    #[test]
    fn empty_input_has_no_puzzle() {
        assert_eq!(
            parse_one("\n# only a comment\n").unwrap_err().kind,
            ParseErrorKind::NoPuzzle
        );
    }
}

/// Why a list of pencil marks could not be read ([`parse_marks`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarksError {
    /// Not 81 fields.
    Count(usize),
    /// A character that is not a digit 1-9, in field `field` (from 1) of `cell`, at character
    /// `at` (from 1).
    Char {
        /// The cell of the field.
        cell: crate::Cell,
        /// The character found.
        found: char,
        /// Its position in the field, from 1.
        at: usize,
    },
    /// More than 9 characters in one field.
    TooLong {
        /// The cell of the field.
        cell: crate::Cell,
        /// How many characters it has.
        len: usize,
    },
}

impl std::fmt::Display for MarksError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MarksError::Count(n) => write!(
                f,
                "found {}; expected 81, one field a cell (\"\" for a cell without marks)",
                crate::error::counted(*n, "cell")
            ),
            MarksError::Char { cell, found, at } => write!(
                f,
                "cell {cell} (field {}), character {at}: found '{found}'; expected digits 1-9",
                cell.as_index() + 1
            ),
            MarksError::TooLong { cell, len } => write!(
                f,
                "cell {cell} (field {}): found {}; expected at most 9 digits",
                cell.as_index() + 1,
                crate::error::counted(*len, "character")
            ),
        }
    }
}

impl std::error::Error for MarksError {}

/// Reads a player's pencil marks: 81 fields, one a cell in reading order, each the digits marked
/// in that cell. An empty field means the cell has no marks: it keeps every candidate (as it does
/// when no marks are given at all); a filled cell's field is ignored. This is the one meaning
/// of marks shared by `shudu hint --marks`, the web API and the Python package.
///
/// # Errors
/// A [`MarksError`] naming the cell and the character at fault.
///
/// # Examples
/// ```
/// use shudu_core::{format::parse_marks, Cell, DigitSet};
/// let mut fields = vec![""; 81];
/// fields[2] = "124";
/// let marks = parse_marks(&fields)?;
/// assert_eq!(marks[2].len(), 3);
/// assert_eq!(marks[0], DigitSet::ALL);
/// assert!(parse_marks(&fields[..80]).is_err());
/// # Ok::<(), shudu_core::format::MarksError>(())
/// ```
pub fn parse_marks<S: AsRef<str>>(fields: &[S]) -> Result<[crate::DigitSet; 81], MarksError> {
    if fields.len() != 81 {
        return Err(MarksError::Count(fields.len()));
    }
    let mut marks = [DigitSet::ALL; 81];
    for (i, field) in fields.iter().enumerate() {
        let field = field.as_ref().trim();
        let cell = Cell::from_index(i);
        if field.chars().count() > 9 {
            return Err(MarksError::TooLong {
                cell,
                len: field.chars().count(),
            });
        }
        if field.is_empty() {
            continue;
        }
        let mut set = DigitSet::EMPTY;
        for (k, ch) in field.chars().enumerate() {
            match ch {
                '1'..='9' => set.insert(Digit::from_index(ch as usize - '1' as usize)),
                found => {
                    return Err(MarksError::Char {
                        cell,
                        found,
                        at: k + 1,
                    })
                }
            }
        }
        marks[i] = set;
    }
    Ok(marks)
}
