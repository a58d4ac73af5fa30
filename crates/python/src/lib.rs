//! The native half of the `shudu` Python package (`shudu._shudu`), built by maturin.
//!
//! Every function here is a thin call into shudu-core: the Pythonic API (dataclasses, type
//! hints, docstrings, iterators) lives in `python/shudu/__init__.py`, which is what users
//! import. Batch calls release the GIL (`Python::detach`) and run on rayon's pool; errors are
//! `ValueError`s carrying the core's messages (puzzle, line, column and what was expected).
//!
//! Same seed, same output as the CLI: `generate_waves` and `grid_waves` call the same core functions
//! with the same arguments as `shudu generate` and `shudu grids`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rayon::prelude::*;
use shudu_core::canon::{canonical_board, PuzzleCanonicalizer};
use shudu_core::format::{parse_one, Marks, Reader};
use shudu_core::generate::{generate_stream, GenerateConfig, Symmetry};
use shudu_core::grids::{GridStream, GridsConfig, UniformStream};
use shudu_core::logic::{self, Band, Board, Rating, Step, Summary};
use shudu_core::needs::{Technique, TechniqueSet};
use shudu_core::rated::{generate_rated_stream, RatedConfig, MAX_RATING};
use shudu_core::solver::{count_solutions, solve_unique_marked, Solutions, SolveOutcome, Solver};
use shudu_core::variant::{fpuzzles, VariantGenerateError, VariantPuzzle, Variants};
use shudu_core::{Digit, DigitSet, Grid, Puzzle};

/// Reads one puzzle in any of the core's formats, or raises `ValueError` with its position.
fn parse(text: &str) -> PyResult<Puzzle> {
    parse_one(text).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A puzzle read with its pencil marks: a 729-character line's candidates, `None` for other
/// formats.
type Marked = (Puzzle, Option<Box<Marks>>);

/// Reads one puzzle as [`parse_one`] does (the first record), keeping a pencil-mark line's marks.
fn read_marked(text: &str) -> Result<Marked, shudu_core::ParseError> {
    match Reader::new(text.as_bytes()).next() {
        Some(r) => r.map(|r| (r.puzzle, r.marks)),
        // No record: the core's "no puzzle" error, with its position.
        None => parse_one(text).map(|p| (p, None)),
    }
}

/// [`read_marked`], raising `ValueError` with the position of the fault.
fn parse_marked(text: &str) -> PyResult<Marked> {
    read_marked(text).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Counts solutions up to `limit`; with marks, only the grids that keep to them (as `shudu
/// solve` does with a pencil-mark line).
fn count_marked(p: &Puzzle, marks: Option<&Marks>, limit: usize) -> SolveOutcome {
    match marks {
        None => count_solutions(p, limit),
        Some(m) => {
            let mut s = Solver::new(p);
            s.restrict(m);
            s.count(limit)
        }
    }
}

fn line(g: &Grid) -> String {
    g.to_line()
}

/// Maps `f` over `items` on rayon's pool without the GIL, a chunk at a time, and checks for
/// signals between chunks: Ctrl+C raises `KeyboardInterrupt` within a chunk's time rather than
/// at the end of the batch. `chunk` is sized so that one takes a fraction of a second.
fn par_map_interruptible<T: Sync, R: Send>(
    py: Python<'_>,
    items: &[T],
    chunk: usize,
    f: impl Fn(&T) -> R + Sync,
) -> PyResult<Vec<R>> {
    let mut out = Vec::with_capacity(items.len());
    for part in items.chunks(chunk.max(1)) {
        out.extend(py.detach(|| part.par_iter().map(&f).collect::<Vec<R>>()));
        py.check_signals()?;
    }
    Ok(out)
}

/// Puzzles a chunk of [`par_map_interruptible`] for the solver (tens of microseconds each).
const SOLVE_CHUNK: usize = 8192;
/// Puzzles a chunk for the grader (up to milliseconds each).
const GRADE_CHUNK: usize = 256;

/// Why a puzzle is not rated: `"none"` or `"multiple"` when it has not exactly one solution.
fn uniqueness(p: &Puzzle, marks: Option<&Marks>) -> Option<&'static str> {
    match solve_unique_marked(p, marks) {
        Solutions::Unique(_) => None,
        Solutions::Multiple(_) => Some("multiple"),
        Solutions::None => Some("none"),
    }
}

/// The message of a puzzle that is not rated, for its status.
fn not_rated(status: &str) -> String {
    let why = if status == "none" {
        "no solution"
    } else {
        "more than one solution"
    };
    format!("the puzzle has {why}; only puzzles with one solution are rated")
}

/// The puzzle's 81 cells as bytes (0 for empty), or `ValueError` with the position of the fault.
#[pyfunction]
fn parse_bytes(puzzle: &str) -> PyResult<std::borrow::Cow<'static, [u8]>> {
    Ok(std::borrow::Cow::Owned(parse(puzzle)?.as_bytes().to_vec()))
}

/// The first solution of a puzzle (of a pencil-mark line: that keeps to its marks), or `None`
/// if it has none.
#[pyfunction]
fn solve(py: Python<'_>, puzzle: &str) -> PyResult<Option<String>> {
    let (p, marks) = parse_marked(puzzle)?;
    Ok(py.detach(|| {
        count_marked(&p, marks.as_deref(), 1)
            .solution
            .as_ref()
            .map(line)
    }))
}

/// How many solutions the puzzle has, counting up to `limit`, and the first one.
#[pyfunction]
#[pyo3(name = "count_solutions", signature = (puzzle, limit = 2))]
fn count_solutions_py(
    py: Python<'_>,
    puzzle: &str,
    limit: usize,
) -> PyResult<(usize, Option<String>)> {
    let (p, marks) = parse_marked(puzzle)?;
    Ok(py.detach(|| {
        let out = count_marked(&p, marks.as_deref(), limit);
        (out.count, out.solution.as_ref().map(line))
    }))
}

/// One record of a batch solve: the count (up to the limit), the first solution, or the error
/// that kept the record from being read.
type SolveRecord = (Option<usize>, Option<String>, Option<String>);

/// Solves every puzzle in parallel, each counted up to `limit`; a bad record is reported in its
/// place and the others are still solved.
#[pyfunction]
#[pyo3(signature = (puzzles, limit = 2))]
fn solve_many(py: Python<'_>, puzzles: Vec<String>, limit: usize) -> PyResult<Vec<SolveRecord>> {
    par_map_interruptible(py, &puzzles, SOLVE_CHUNK, |text| match read_marked(text) {
        Ok((p, marks)) => {
            let out = count_marked(&p, marks.as_deref(), limit);
            (Some(out.count), out.solution.as_ref().map(line), None)
        }
        Err(e) => (None, None, Some(e.to_string())),
    })
}

/// The solutions and the counts of `solve_array`.
type SolvedArrays<'py> = (Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<u8>>);

/// Solves an `(N, 81)` `uint8` array (0 for empty) in parallel. Returns the solutions as an
/// `(N, 81)` array (all zeros where there is none) and the counts (up to `limit`) as an `(N,)`
/// array. A row whose givens contradict each other has count 0.
#[pyfunction]
#[pyo3(signature = (puzzles, limit = 2))]
fn solve_array<'py>(
    py: Python<'py>,
    puzzles: PyReadonlyArray2<'py, u8>,
    limit: usize,
) -> PyResult<SolvedArrays<'py>> {
    let view = puzzles.as_array();
    if view.ncols() != 81 {
        return Err(PyValueError::new_err(format!(
            "expected an array of shape (N, 81), found (N, {})",
            view.ncols()
        )));
    }
    let rows: Vec<[u8; 81]> = view
        .rows()
        .into_iter()
        .map(|r| {
            let mut cells = [0u8; 81];
            for (c, v) in cells.iter_mut().zip(r.iter()) {
                *c = *v;
            }
            cells
        })
        .collect();
    let mut puzzles = Vec::with_capacity(rows.len());
    for (i, cells) in rows.into_iter().enumerate() {
        match Puzzle::from_bytes(cells) {
            Some(p) => puzzles.push(p),
            None => {
                let col = cells.iter().position(|&v| v > 9).unwrap_or(0);
                return Err(PyValueError::new_err(format!(
                    "row {i}, column {col}: found {}; expected 0 (empty) or 1-9",
                    cells[col]
                )));
            }
        }
    }
    let limit = limit.min(255);
    let results: Vec<(u8, [u8; 81])> = par_map_interruptible(py, &puzzles, SOLVE_CHUNK, |p| {
        let out = count_solutions(p, limit);
        let cells = out.solution.map_or([0; 81], |g| *g.as_bytes());
        (out.count as u8, cells)
    })?;
    let n = results.len();
    let mut solutions = Array2::<u8>::zeros((n, 81));
    let mut counts = Vec::with_capacity(n);
    for (i, (count, cells)) in results.iter().enumerate() {
        counts.push(*count);
        for (j, v) in cells.iter().enumerate() {
            solutions[[i, j]] = *v;
        }
    }
    Ok((solutions.into_pyarray(py), counts.into_pyarray(py)))
}

fn rating_value(r: Rating) -> f64 {
    f64::from(r.0) / 10.0
}

/// `(er, ep, ed, band, solved, steps, techniques)` of a rating.
type RateRecord = (f64, f64, f64, String, bool, usize, Vec<(String, usize)>);

fn rate_record(s: &Summary) -> RateRecord {
    (
        rating_value(s.er),
        rating_value(s.ep),
        rating_value(s.ed),
        s.band.name().to_string(),
        s.solved,
        s.steps,
        s.techniques
            .iter()
            .map(|(t, n)| (t.to_string(), *n))
            .collect(),
    )
}

/// Rates a puzzle on the Sudoku Explainer scale; a pencil-mark line from its marks. Raises
/// `ValueError` for a puzzle without exactly one solution (as `shudu grade` refuses it).
#[pyfunction]
fn rate(py: Python<'_>, puzzle: &str) -> PyResult<RateRecord> {
    let (p, marks) = parse_marked(puzzle)?;
    py.detach(|| match uniqueness(&p, marks.as_deref()) {
        None => Ok(rate_record(&logic::rate_marked(&p, marks.as_deref()))),
        Some(status) => Err(not_rated(status)),
    })
    .map_err(PyValueError::new_err)
}

/// One record of `rate_many`: its status (`graded`, `none`, `multiple` or `invalid`), the
/// rating when graded, and the message otherwise.
type RateManyRecord = (&'static str, Option<RateRecord>, Option<String>);

/// Rates every puzzle in parallel; a record that cannot be read, or has not exactly one
/// solution, gets its status and message in its place.
#[pyfunction]
fn rate_many(py: Python<'_>, puzzles: Vec<String>) -> PyResult<Vec<RateManyRecord>> {
    par_map_interruptible(py, &puzzles, GRADE_CHUNK, |text| match read_marked(text) {
        Ok((p, marks)) => match uniqueness(&p, marks.as_deref()) {
            None => (
                "graded",
                Some(rate_record(&logic::rate_marked(&p, marks.as_deref()))),
                None,
            ),
            Some(status) => (status, None, Some(not_rated(status))),
        },
        Err(e) => ("invalid", None, Some(e.to_string())),
    })
}

/// A step as plain data: `(technique, rating, placements, eliminations, cells, houses, text)`,
/// cells named `r1c1`, placements and eliminations as `(cell, digit)`.
type StepRecord = (
    String,
    f64,
    Vec<(String, u8)>,
    Vec<(String, u8)>,
    Vec<String>,
    Vec<String>,
    String,
);

fn step_record(s: &Step) -> StepRecord {
    let pairs = |v: &[(shudu_core::Cell, Digit)]| -> Vec<(String, u8)> {
        v.iter().map(|(c, d)| (c.to_string(), d.get())).collect()
    };
    (
        s.technique.to_string(),
        rating_value(s.rating),
        pairs(&s.placements),
        pairs(&s.eliminations),
        s.cells.iter().map(|c| c.to_string()).collect(),
        s.houses.iter().map(|h| h.to_string()).collect(),
        s.text.clone(),
    )
}

/// The step-by-step solution: the rating and every step; a pencil-mark line's from its marks.
#[pyfunction]
fn explain(py: Python<'_>, puzzle: &str) -> PyResult<(RateRecord, Vec<StepRecord>)> {
    let (p, marks) = parse_marked(puzzle)?;
    if let Some(status) = py.detach(|| uniqueness(&p, marks.as_deref())) {
        return Err(PyValueError::new_err(not_rated(status)));
    }
    Ok(py.detach(|| {
        let g = logic::grade_marked(&p, marks.as_deref());
        let summary = Summary {
            er: g.er,
            ep: g.ep,
            ed: g.ed,
            band: g.band,
            solved: g.solved,
            steps: g.steps.len(),
            techniques: g.techniques.clone(),
            hardest: g.hardest(),
        };
        (
            rate_record(&summary),
            g.steps.iter().map(step_record).collect(),
        )
    }))
}

/// A column of strings in Arrow's layout: the UTF-8 bytes end to end, and `len + 1` offsets
/// (pyarrow's `StringArray.from_buffers` takes both without copying a Python object each).
#[derive(Default)]
struct Strings {
    offsets: Vec<i32>,
    data: Vec<u8>,
}

impl Strings {
    fn push(&mut self, s: &str) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.data.extend_from_slice(s.as_bytes());
        self.offsets.push(self.data.len() as i32);
    }

    /// How many strings the column holds.
    fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    fn into_py<'py>(mut self, py: Python<'py>) -> (Bound<'py, PyArray1<i32>>, Bound<'py, PyBytes>) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        (self.offsets.into_pyarray(py), PyBytes::new(py, &self.data))
    }
}

/// A list column's offsets in Arrow's layout: starts at 0, one more entry per row.
#[derive(Default)]
struct Offsets(Vec<i32>);

impl Offsets {
    fn close(&mut self, len: usize) {
        if self.0.is_empty() {
            self.0.push(0);
        }
        self.0.push(len as i32);
    }

    fn into_py(mut self, py: Python<'_>) -> Bound<'_, PyArray1<i32>> {
        if self.0.is_empty() {
            self.0.push(0);
        }
        self.0.into_pyarray(py)
    }
}

/// The columns of a dataset of traces (`shudu.traces`, `shudu.dataset`): one row a puzzle,
/// with its solution, givens, ratings, band, hardest technique and SE's solving path, whose
/// steps are flattened into columns of their own with offsets (Arrow's list layout). Runs in
/// parallel without the GIL. Raises `ValueError` naming the index (from 0) of a puzzle that
/// cannot be read or has not exactly one solution.
#[pyfunction]
fn trace_columns<'py>(py: Python<'py>, puzzles: Vec<String>) -> PyResult<Bound<'py, PyDict>> {
    let graded = par_map_interruptible(py, &puzzles, GRADE_CHUNK, |text| {
        let (p, marks) = read_marked(text).map_err(|e| e.to_string())?;
        let solution = match solve_unique_marked(&p, marks.as_deref()) {
            Solutions::Unique(g) => g,
            Solutions::Multiple(_) => return Err(not_rated("multiple")),
            Solutions::None => return Err(not_rated("none")),
        };
        Ok((p, solution, logic::grade_marked(&p, marks.as_deref())))
    })?;
    let mut rows = Vec::with_capacity(graded.len());
    for (i, g) in graded.into_iter().enumerate() {
        rows.push(g.map_err(|e| PyValueError::new_err(format!("puzzle at index {i}: {e}")))?);
    }
    // Per puzzle.
    let (mut puzzle, mut solution) = (Strings::default(), Strings::default());
    let (mut band, mut hardest) = (Strings::default(), Strings::default());
    let (mut givens, mut er, mut ep, mut ed) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut steps = Offsets::default();
    // Per step.
    let (mut technique, mut text) = (Strings::default(), Strings::default());
    let mut rating = Vec::new();
    let (mut cells, mut cell_lists) = (Strings::default(), Offsets::default());
    let (mut houses, mut house_lists) = (Strings::default(), Offsets::default());
    let (mut placed_cell, mut placed_digit) = (Strings::default(), Vec::new());
    let (mut removed_cell, mut removed_digit) = (Strings::default(), Vec::new());
    let (mut placed, mut removed) = (Offsets::default(), Offsets::default());
    for (p, sol, g) in &rows {
        puzzle.push(&p.to_line());
        solution.push(&sol.to_line());
        givens.push(p.as_bytes().iter().filter(|&&v| v != 0).count() as u8);
        er.push(rating_value(g.er));
        ep.push(rating_value(g.ep));
        ed.push(rating_value(g.ed));
        band.push(g.band.name());
        hardest.push(g.hardest());
        for s in &g.steps {
            technique.push(s.technique);
            rating.push(rating_value(s.rating));
            text.push(&shudu_game::explain::step_line(s));
            for c in &s.cells {
                cells.push(&c.to_string());
            }
            cell_lists.close(cells.len());
            for h in &s.houses {
                houses.push(&h.to_string());
            }
            house_lists.close(houses.len());
            for (c, d) in &s.placements {
                placed_cell.push(&c.to_string());
                placed_digit.push(d.get());
            }
            placed.close(placed_digit.len());
            for (c, d) in &s.eliminations {
                removed_cell.push(&c.to_string());
                removed_digit.push(d.get());
            }
            removed.close(removed_digit.len());
        }
        steps.close(rating.len());
    }
    let d = PyDict::new(py);
    d.set_item("rows", rows.len())?;
    d.set_item("puzzle", puzzle.into_py(py))?;
    d.set_item("solution", solution.into_py(py))?;
    d.set_item("givens", givens.into_pyarray(py))?;
    d.set_item("er", er.into_pyarray(py))?;
    d.set_item("ep", ep.into_pyarray(py))?;
    d.set_item("ed", ed.into_pyarray(py))?;
    d.set_item("band", band.into_py(py))?;
    d.set_item("hardest", hardest.into_py(py))?;
    d.set_item("steps", steps.into_py(py))?;
    d.set_item("technique", technique.into_py(py))?;
    d.set_item("rating", rating.into_pyarray(py))?;
    d.set_item("text", text.into_py(py))?;
    d.set_item("cell_lists", cell_lists.into_py(py))?;
    d.set_item("cells", cells.into_py(py))?;
    d.set_item("house_lists", house_lists.into_py(py))?;
    d.set_item("houses", houses.into_py(py))?;
    d.set_item("placed", placed.into_py(py))?;
    d.set_item("placed_cell", placed_cell.into_py(py))?;
    d.set_item("placed_digit", placed_digit.into_pyarray(py))?;
    d.set_item("removed", removed.into_py(py))?;
    d.set_item("removed_cell", removed_cell.into_py(py))?;
    d.set_item("removed_digit", removed_digit.into_pyarray(py))?;
    Ok(d)
}

/// Reads pencil marks: 81 strings of digits, `""` meaning the cell has no marks (it keeps every
/// candidate), the core's one meaning shared with the CLI and the web API.
fn parse_marks(marks: &[String]) -> PyResult<[DigitSet; 81]> {
    shudu_core::format::parse_marks(marks).map_err(|e| PyValueError::new_err(format!("marks: {e}")))
}

/// The next hint for a position: SE's next step or a named technique SE would rate no higher.
/// `entries` holds the player's digits (0 or '.' elsewhere), `marks` their pencil marks; a
/// pencil-mark line as `puzzle` brings its own marks (then not `marks` as well, as in `shudu
/// hint`).
#[pyfunction]
#[pyo3(signature = (puzzle, entries = None, marks = None))]
fn hint(
    py: Python<'_>,
    puzzle: &str,
    entries: Option<&str>,
    marks: Option<Vec<String>>,
) -> PyResult<Option<StepRecord>> {
    let (givens, line_marks) = parse_marked(puzzle)?;
    let entries = match entries {
        Some(e) => parse(e)?,
        None => Puzzle::empty(),
    };
    let marks = match (line_marks, marks) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "the position is a pencil-mark line and marks= gives marks too; give them once",
            ))
        }
        (Some(m), None) => Some(*m),
        (None, m) => m.as_deref().map(parse_marks).transpose()?,
    };
    Ok(py.detach(|| {
        let board = Board::from_position(&givens, &entries, marks.as_ref());
        logic::next_hint(&board).as_ref().map(step_record)
    }))
}

/// One generated puzzle: `(item, puzzle, solution, rating)`; the rating is there when the
/// batch asked for one (the rated search grades as it goes).
type GeneratedRecord = (usize, String, String, Option<RateRecord>);

/// How a generation went: `(found, requested, timed_out, grids tried, seconds)`.
type SummaryRecord = (usize, usize, bool, u64, f64);

/// What the generation worker sends: a wave of puzzles, then the summary.
enum GenMsg {
    Wave(Vec<GeneratedRecord>),
    Done(SummaryRecord),
    /// The worker panicked (a bug): the panic's message, raised as `RuntimeError`.
    Failed(String),
}

/// The longest time budget taken, in seconds (about 31 years): beyond it a deadline could
/// overflow the clock. `None` is the way to ask for no limit.
const MAX_TIMEOUT: f64 = 1e9;

/// A time budget in seconds as a duration, or `ValueError` for one that is negative, not a
/// number, or too large for the clock.
fn budget(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    let Some(t) = timeout else { return Ok(None) };
    let refuse = || {
        // 1e300 in full would be 301 digits.
        let shown = if t.abs() < 1e9 {
            format!("{t}")
        } else {
            format!("{t:e}")
        };
        PyValueError::new_err(format!(
            "timeout {shown}: expected a number of seconds from 0 to {MAX_TIMEOUT:e}, or None for \
             no limit"
        ))
    };
    if !(0.0..=MAX_TIMEOUT).contains(&t) {
        return Err(refuse());
    }
    let d = Duration::try_from_secs_f64(t).map_err(|_| refuse())?;
    Instant::now().checked_add(d).ok_or_else(refuse)?;
    Ok(Some(d))
}

/// The message of a caught panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// Streams the puzzles of `shudu generate` a wave at a time, in item order: a worker thread
/// makes the next puzzles while Python consumes these (memory bounded by the wave and the
/// thread count). Dropping the iterator stops the worker at its next puzzle.
#[pyclass]
struct GenerateWaves {
    /// The worker's messages; `None` once the summary has arrived.
    rx: Mutex<Option<Receiver<GenMsg>>>,
    /// The summary, once the worker has finished.
    summary: Mutex<Option<SummaryRecord>>,
}

#[pymethods]
impl GenerateWaves {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<GeneratedRecord>>> {
        let Some(rx) = self.rx.lock().ok().and_then(|mut r| r.take()) else {
            return Ok(None);
        };
        // Wait without the GIL, a tenth of a second at a time, checking for Ctrl+C in between:
        // a rare band may take minutes a puzzle. On an interrupt the receiver is dropped, which
        // stops the worker at its next puzzle.
        let mut rx = rx;
        let msg = loop {
            // The receiver travels with the wait (it is not `Sync`).
            let (back, msg, timed_out) = py.detach(move || {
                let (msg, timed_out) = match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(m) => (Some(m), false),
                    Err(RecvTimeoutError::Timeout) => (None, true),
                    Err(RecvTimeoutError::Disconnected) => (None, false),
                };
                (rx, msg, timed_out)
            });
            rx = back;
            if !timed_out {
                break msg;
            }
            py.check_signals()?;
        };
        match msg {
            Some(GenMsg::Wave(w)) => {
                if let Ok(mut r) = self.rx.lock() {
                    *r = Some(rx);
                }
                Ok(Some(w))
            }
            Some(GenMsg::Done(s)) => {
                if let Ok(mut summary) = self.summary.lock() {
                    *summary = Some(s);
                }
                Ok(None)
            }
            Some(GenMsg::Failed(why)) => Err(PyRuntimeError::new_err(format!(
                "the generation stopped on an internal error (a bug; please report it): {why}"
            ))),
            None => Ok(None),
        }
    }

    /// `(found, requested, timed_out, grids tried, seconds)` once the iterator is exhausted,
    /// `None` before.
    fn summary(&self) -> Option<SummaryRecord> {
        self.summary.lock().ok().and_then(|s| *s)
    }
}

/// Makes items `start..end` of the batch `seed` exactly as `shudu generate` does for the same
/// arguments (`--shard I/N` makes the items `count * I / N .. count * (I + 1) / N`), as an
/// iterator of waves of at most `wave` puzzles.
#[pyfunction]
#[pyo3(signature = (start, end, seed, givens = None, symmetry = "none", minimal = false, difficulty = None, rating = None, timeout = None, unique = true, wave = 256, needs = None, without = None, automorphic = false))]
#[allow(clippy::too_many_arguments)]
fn generate_waves(
    start: usize,
    end: usize,
    seed: u64,
    givens: Option<(usize, usize)>,
    symmetry: &str,
    minimal: bool,
    difficulty: Option<&str>,
    rating: Option<(f64, f64)>,
    timeout: Option<f64>,
    unique: bool,
    wave: usize,
    needs: Option<Vec<String>>,
    without: Option<Vec<String>>,
    automorphic: bool,
) -> PyResult<GenerateWaves> {
    // Each name may itself be a comma-separated list, as on the command line.
    let techniques = |names: Option<Vec<String>>| -> PyResult<Vec<TechniqueSet>> {
        let mut out = Vec::new();
        for name in names.unwrap_or_default() {
            out.extend(
                shudu_core::needs::parse_list(&name)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?,
            );
        }
        Ok(out)
    };
    let needs = techniques(needs)?;
    let without = techniques(without)?
        .into_iter()
        .fold(TechniqueSet::EMPTY, |a, b| a | b);
    let by_technique = !needs.is_empty() || !without.is_empty();
    if by_technique && !unique {
        return Err(PyValueError::new_err(
            "cannot generate these puzzles: needs and without need puzzles with a unique solution \
             (only those have a solving path); drop unique=False",
        ));
    }
    if start > end {
        return Err(PyValueError::new_err(format!(
            "items {start}..{end}: expected start <= end"
        )));
    }
    if wave == 0 {
        return Err(PyValueError::new_err(
            "wave: expected at least 1 puzzle a wave",
        ));
    }
    let symmetry: Symmetry = symmetry
        .parse()
        .map_err(|e: shudu_core::generate::UnknownSymmetry| PyValueError::new_err(e.to_string()))?;
    let band = difficulty
        .map(|d| d.parse::<Band>())
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if band.is_some() && rating.is_some() {
        return Err(PyValueError::new_err(
            "difficulty and rating both ask for a rating range: give one",
        ));
    }
    let to_rating = |v: f64| -> PyResult<Rating> {
        if (0.0..=f64::from(MAX_RATING.0) / 10.0).contains(&v) {
            Ok(Rating((v * 10.0).round() as u16))
        } else {
            Err(PyValueError::new_err(format!(
                "rating {v} is outside 0.0..{MAX_RATING} on the SE scale"
            )))
        }
    };
    let rating = match rating {
        Some((a, b)) => Some((to_rating(a)?, to_rating(b)?)),
        None => band.map(Band::range),
    };
    // Techniques are checked on the solving path, so they go through the rated search, over
    // the whole scale when no rating is asked for (as `shudu generate --needs`).
    let rating = rating.or(by_technique.then_some((Rating(0), MAX_RATING)));
    let timeout = budget(timeout)?;
    // No path is rated above the top of the grader's techniques (SE's nested forcing chains):
    // a range starting above it would search forever.
    let reachable = Technique::ALL
        .iter()
        .map(|t| t.ratings().1)
        .max()
        .unwrap_or(MAX_RATING);
    if let Some((lo, _)) = rating {
        if lo > reachable {
            return Err(PyValueError::new_err(format!(
                "cannot generate these puzzles: rating {lo} is above {reachable}, the highest \
                 rating the grader gives"
            )));
        }
    }
    let base = GenerateConfig {
        givens,
        symmetry,
        minimal,
        unique,
        band: None,
        automorphic,
    };
    // Refuse what no puzzle can satisfy here, as an exception, before the worker starts.
    let rated = match rating {
        Some(rating) => {
            let config = RatedConfig {
                base,
                rating,
                needs,
                without,
            };
            config.validate().map_err(|e| {
                PyValueError::new_err(format!("cannot generate these puzzles: {e}"))
            })?;
            Ok(config)
        }
        None => {
            base.validate().map_err(|e| {
                PyValueError::new_err(format!("cannot generate these puzzles: {e}"))
            })?;
            Err(base)
        }
    };
    let (tx, rx) = sync_channel::<GenMsg>(1);
    std::thread::Builder::new()
        .name("shudu-generate".into())
        .spawn(move || {
            let mut buf = Vec::with_capacity(wave);
            // Sends a full wave; an error means the iterator was dropped: stop the batch.
            let mut push = |rec: GeneratedRecord| -> Result<(), ()> {
                buf.push(rec);
                if buf.len() == wave {
                    tx.send(GenMsg::Wave(std::mem::take(&mut buf)))
                        .map_err(|_| ())?;
                }
                Ok(())
            };
            let summary = catch_unwind(AssertUnwindSafe(|| match &rated {
                Ok(config) => generate_rated_stream(
                    config,
                    start..end,
                    seed,
                    timeout,
                    &|_| {},
                    &mut |i, (g, s)| {
                        push((
                            i,
                            g.puzzle.to_line(),
                            g.solution.to_line(),
                            Some(rate_record(&s)),
                        ))
                    },
                ),
                Err(config) => {
                    generate_stream(config, start..end, seed, timeout, &|_| {}, &mut |i, g| {
                        push((i, g.puzzle.to_line(), g.solution.to_line(), None))
                    })
                }
            }));
            let summary = match summary {
                Ok(s) => s,
                Err(payload) => {
                    let _ = tx.send(GenMsg::Failed(panic_message(payload.as_ref())));
                    return;
                }
            };
            let Ok(s) = summary else { return };
            if !buf.is_empty() && tx.send(GenMsg::Wave(buf)).is_err() {
                return;
            }
            let _ = tx.send(GenMsg::Done((
                s.found,
                s.requested,
                s.timed_out,
                s.attempts,
                s.elapsed.as_secs_f64(),
            )));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a worker thread: {e}")))?;
    Ok(GenerateWaves {
        rx: Mutex::new(Some(rx)),
        summary: Mutex::new(None),
    })
}

/// Streams the distinct random grids of `shudu grids -n N --seed S` a wave at a time: a worker
/// thread makes the next wave while Python consumes this one (at most two waves in memory).
#[pyclass]
struct GridWaves {
    /// The worker's waves; `None` once it has sent its last one.
    rx: Mutex<Option<Receiver<Vec<String>>>>,
}

#[pymethods]
impl GridWaves {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> Option<Vec<String>> {
        let rx = self.rx.lock().ok()?.take()?;
        // Wait for the worker without holding the GIL; the receiver travels with the wait.
        let (rx, wave) = py.detach(move || {
            let wave = rx.recv().ok();
            (rx, wave)
        });
        if wave.is_some() {
            *self.rx.lock().ok()? = Some(rx);
        }
        wave
    }
}

/// The grids of `shudu grids` (items `start..start + n` of the batch) as an iterator of waves
/// of `wave` grids.
#[pyfunction]
#[pyo3(signature = (n, seed, first_digit = None, wave = 65536, start = 0, uniform = false))]
fn grid_waves(
    n: usize,
    seed: u64,
    first_digit: Option<u8>,
    wave: usize,
    start: usize,
    uniform: bool,
) -> PyResult<GridWaves> {
    let first_digit = match first_digit {
        Some(d) => Some(Digit::new(d).ok_or_else(|| {
            PyValueError::new_err(format!("first_digit {d}: expected a digit 1-9"))
        })?),
        None => None,
    };
    if wave == 0 {
        return Err(PyValueError::new_err(
            "wave: expected at least 1 grid a wave",
        ));
    }
    let config = GridsConfig {
        count: n,
        seed,
        first_digit,
        start,
    };
    let max = shudu_core::grids::max_batch(config.first_digit);
    if (start as u64).saturating_add(n as u64) > max {
        return Err(PyValueError::new_err(format!(
            "a batch holds at most {max} distinct grids (one per first band)"
        )));
    }
    if uniform && start != 0 {
        return Err(PyValueError::new_err(
            "uniform grids cannot be sharded (a shard cannot know the other shards' grids)",
        ));
    }
    let (tx, rx) = sync_channel(1);
    std::thread::Builder::new()
        .name("shudu-grids".into())
        .spawn(move || {
            let waves: Box<dyn Iterator<Item = Vec<Grid>>> = if uniform {
                Box::new(UniformStream::new(&config, wave))
            } else {
                Box::new(GridStream::new(&config, wave))
            };
            for w in waves {
                let lines = w.iter().map(line).collect();
                if tx.send(lines).is_err() {
                    break; // the iterator was dropped
                }
            }
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a worker thread: {e}")))?;
    Ok(GridWaves {
        rx: Mutex::new(Some(rx)),
    })
}

/// One board's canonical form and automorphism count, or the message saying why it cannot be
/// read.
type CanonRecord = (Option<(String, u64)>, Option<String>);

/// The canonical form (81 characters) and automorphism count of each board, in order; a board
/// that cannot be read gives its error message instead. Runs on rayon's pool without the GIL.
#[pyfunction]
fn canonical_many(py: Python<'_>, boards: Vec<String>) -> Vec<CanonRecord> {
    py.detach(|| {
        boards
            .par_iter()
            .map_init(PuzzleCanonicalizer::new, |canon, text| {
                match parse_one(text) {
                    Ok(p) => {
                        let c = canonical_board(&p, canon);
                        (Some((c.form.to_line(), c.automorphisms)), None)
                    }
                    Err(e) => (None, Some(e.to_string())),
                }
            })
            .collect()
    })
}

/// The number of complete grids, computed by band counting (`shudu count --grids-only`), as a
/// decimal string (it exceeds 64 bits).
#[pyfunction]
fn count_grids(py: Python<'_>) -> String {
    py.detach(|| shudu_core::count::census(&|_, _| {}).grids.to_string())
}

/// A variant puzzle: the line format under `size` and `variants`, or an f-puzzles document or
/// link, which brings its own rules.
fn variant_puzzle(text: &str, size: usize, variants: &[String]) -> PyResult<VariantPuzzle> {
    shudu_core::variant::read_puzzle(text, size, variants).map_err(PyValueError::new_err)
}

/// `size` and `variants` read, or `ValueError` naming the argument.
fn variant_kind(size: usize, variants: &[String]) -> PyResult<Variants> {
    Variants::parse(size, variants)
        .map_err(|e| PyValueError::new_err(format!("{}: {e}", e.argument())))
}

/// Counts a variant puzzle's solutions up to `limit`: (the count, the first solution in the
/// line format).
#[pyfunction]
#[pyo3(signature = (puzzle, size = 9, variants = Vec::new(), limit = 2))]
fn variant_count(
    py: Python<'_>,
    puzzle: &str,
    size: usize,
    variants: Vec<String>,
    limit: usize,
) -> PyResult<(usize, Option<String>)> {
    let p = variant_puzzle(puzzle, size, &variants)?;
    let c = py.detach(|| shudu_core::variant::count_solutions(&p, limit.max(1)));
    let solution = c.solution.map(|s| {
        VariantPuzzle::new(p.rules().clone(), s)
            .expect("a solution fits")
            .to_line()
    });
    Ok((c.count, solution))
}

/// Rates a variant puzzle with the variant techniques (`shudu grade --size --variant`), within
/// `timeout` seconds. Raises `ValueError` for a puzzle without exactly one solution, or one not
/// rated in time.
#[pyfunction]
#[pyo3(signature = (puzzle, size = 9, variants = Vec::new(), timeout = 10.0))]
fn variant_rate(
    py: Python<'_>,
    puzzle: &str,
    size: usize,
    variants: Vec<String>,
    timeout: f64,
) -> PyResult<RateRecord> {
    let p = variant_puzzle(puzzle, size, &variants)?;
    if !timeout.is_finite() || timeout <= 0.0 {
        return Err(PyValueError::new_err(format!(
            "timeout {timeout}: expected a number of seconds above 0"
        )));
    }
    let budget = std::time::Duration::from_secs_f64(timeout.min(1e6));
    py.detach(|| {
        match shudu_core::variant::count_solutions(&p, 2).count {
            0 => return Err("the puzzle has no solution; only puzzles with one are rated".into()),
            1 => {}
            _ => {
                return Err(
                    "the puzzle has more than one solution; only puzzles with one are rated"
                        .to_string(),
                )
            }
        }
        let g = shudu_core::variant::logic::grade_until(&p, std::time::Instant::now() + budget);
        if !g.solved {
            return Err(if g.out_of_time {
                format!("not rated within {timeout} s (the path reached {})", g.er)
            } else {
                "not rated: no technique applies".to_string()
            });
        }
        let mut techniques: Vec<(String, usize)> = Vec::new();
        for s in &g.steps {
            match techniques.iter_mut().find(|t| t.0 == s.technique) {
                Some(t) => t.1 += 1,
                None => techniques.push((s.technique.to_string(), 1)),
            }
        }
        Ok((
            rating_value(g.er),
            rating_value(g.ep),
            rating_value(g.ed),
            g.band.name().to_string(),
            g.solved,
            g.steps.len(),
            techniques,
        ))
    })
    .map_err(PyValueError::new_err)
}

/// One made variant puzzle: (item, the line format or `None` for jigsaw and killer, the
/// f-puzzles link, the solution in the line format).
type VariantRecord = (u64, Option<String>, String, String);

/// Variant puzzles `start..end` of the batch of `seed`, as `shudu generate --size --variant`
/// makes them; (the puzzles found, whether the time budget ran out first).
#[pyfunction]
#[pyo3(signature = (start, end, seed, size = 9, variants = Vec::new(), givens = None, symmetry = "none", minimal = false, cages = None, timeout = None))]
#[allow(clippy::too_many_arguments)]
fn variant_generate(
    py: Python<'_>,
    start: u64,
    end: u64,
    seed: u64,
    size: usize,
    variants: Vec<String>,
    givens: Option<(usize, usize)>,
    symmetry: &str,
    minimal: bool,
    cages: Option<usize>,
    timeout: Option<f64>,
) -> PyResult<(Vec<VariantRecord>, bool)> {
    let v = variant_kind(size, &variants)?;
    let symmetry: Symmetry = symmetry
        .parse()
        .map_err(|e: shudu_core::generate::UnknownSymmetry| PyValueError::new_err(e.to_string()))?;
    let config = v
        .config(givens, symmetry, minimal, cages)
        .map_err(PyValueError::new_err)?;
    if start > end {
        return Err(PyValueError::new_err(format!(
            "items {start}..{end}: expected start <= end"
        )));
    }
    let budget = match timeout {
        Some(t) if !(t.is_finite() && t >= 0.0) => {
            return Err(PyValueError::new_err(format!(
                "timeout: expected a number of seconds >= 0 or None, found {t}"
            )))
        }
        Some(t) => Duration::from_secs_f64(t.min(1e9)),
        None => Duration::from_secs(1 << 30),
    };
    let deadline = Instant::now() + budget;
    let items: Vec<u64> = (start..end).collect();
    let made = par_map_interruptible(py, &items, 64, |&item| {
        v.generate(&config, seed, item, deadline).map(|p| (item, p))
    })?;
    let mut out = Vec::new();
    for m in made {
        match m {
            Ok((item, p)) => {
                let solution = shudu_core::variant::count_solutions(&p, 1)
                    .solution
                    .expect("a unique puzzle");
                let solved = VariantPuzzle::new(p.rules().clone(), solution)
                    .expect("digits of the size")
                    .to_line();
                let line = v.fits_line().then(|| p.to_line());
                out.push((item, line, fpuzzles::to_link(&p, None), solved));
            }
            Err(VariantGenerateError::Timeout { .. }) => return Ok((out, true)),
            Err(e) => {
                return Err(PyValueError::new_err(format!(
                    "cannot generate these puzzles: {e}"
                )))
            }
        }
    }
    Ok((out, false))
}

/// The native module `shudu._shudu`.
#[pymodule]
fn _shudu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(parse_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count_solutions_py, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(solve_array, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(rate_many, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(trace_columns, m)?)?;
    m.add_function(wrap_pyfunction!(hint, m)?)?;
    m.add_function(wrap_pyfunction!(generate_waves, m)?)?;
    m.add_class::<GenerateWaves>()?;
    m.add_function(wrap_pyfunction!(grid_waves, m)?)?;
    m.add_class::<GridWaves>()?;
    m.add_function(wrap_pyfunction!(canonical_many, m)?)?;
    m.add_function(wrap_pyfunction!(count_grids, m)?)?;
    m.add_function(wrap_pyfunction!(variant_count, m)?)?;
    m.add_function(wrap_pyfunction!(variant_rate, m)?)?;
    m.add_function(wrap_pyfunction!(variant_generate, m)?)?;
    Ok(())
}
