//! The native half of the `shudu` Python package (`shudu._shudu`), built by maturin.
//!
//! Every function here is a thin call into shudu-core: the Pythonic API (dataclasses, type
//! hints, docstrings, iterators) lives in `python/shudu/__init__.py`, which is what users
//! import. Batch calls release the GIL (`Python::detach`) and run on rayon's pool; errors are
//! `ValueError`s carrying the core's messages (puzzle, line, column and what was expected).
//!
//! Same seed, same output as the CLI: `generate_waves` and `grid_waves` call the same core functions
//! with the same arguments as `shudu generate` and `shudu grids`.

use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Mutex;
use std::time::Duration;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use shudu_core::canon::{canonical_board, PuzzleCanonicalizer};
use shudu_core::format::{parse_one, Marks, Reader};
use shudu_core::generate::{generate_stream, GenerateConfig, Symmetry};
use shudu_core::grids::{GridStream, GridsConfig, UniformStream};
use shudu_core::logic::{self, Band, Board, Rating, Step, Summary};
use shudu_core::needs::TechniqueSet;
use shudu_core::rated::{generate_rated_stream, RatedConfig, MAX_RATING};
use shudu_core::solver::{count_solutions, SolveOutcome, Solver};
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
fn solve_many(py: Python<'_>, puzzles: Vec<String>, limit: usize) -> Vec<SolveRecord> {
    py.detach(|| {
        puzzles
            .par_iter()
            .map(|text| match read_marked(text) {
                Ok((p, marks)) => {
                    let out = count_marked(&p, marks.as_deref(), limit);
                    (Some(out.count), out.solution.as_ref().map(line), None)
                }
                Err(e) => (None, None, Some(e.to_string())),
            })
            .collect()
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
    let results: Vec<(u8, [u8; 81])> = py.detach(|| {
        puzzles
            .par_iter()
            .map(|p| {
                let out = count_solutions(p, limit);
                let cells = out.solution.map_or([0; 81], |g| *g.as_bytes());
                (out.count as u8, cells)
            })
            .collect()
    });
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

/// Rates a puzzle on the Sudoku Explainer scale; a pencil-mark line from its marks.
#[pyfunction]
fn rate(py: Python<'_>, puzzle: &str) -> PyResult<RateRecord> {
    let (p, marks) = parse_marked(puzzle)?;
    Ok(py.detach(|| rate_record(&logic::rate_marked(&p, marks.as_deref()))))
}

/// Rates every puzzle in parallel; a bad record gets its error in its place.
#[pyfunction]
fn rate_many(py: Python<'_>, puzzles: Vec<String>) -> Vec<(Option<RateRecord>, Option<String>)> {
    py.detach(|| {
        puzzles
            .par_iter()
            .map(|text| match read_marked(text) {
                Ok((p, marks)) => (
                    Some(rate_record(&logic::rate_marked(&p, marks.as_deref()))),
                    None,
                ),
                Err(e) => (None, Some(e.to_string())),
            })
            .collect()
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
            hardest: g
                .steps
                .iter()
                .find(|s| s.rating == g.er)
                .map_or("", |s| s.technique),
        };
        (
            rate_record(&summary),
            g.steps.iter().map(step_record).collect(),
        )
    }))
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

    fn __next__(&self, py: Python<'_>) -> Option<Vec<GeneratedRecord>> {
        let rx = self.rx.lock().ok()?.take()?;
        let (rx, msg) = py.detach(move || {
            let msg = rx.recv().ok();
            (rx, msg)
        });
        match msg {
            Some(GenMsg::Wave(w)) => {
                *self.rx.lock().ok()? = Some(rx);
                Some(w)
            }
            Some(GenMsg::Done(s)) => {
                *self.summary.lock().ok()? = Some(s);
                None
            }
            None => None,
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
    let timeout = match timeout {
        Some(t) if t.is_finite() && t >= 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(PyValueError::new_err(format!(
                "timeout {t}: expected a number of seconds >= 0, or None for no limit"
            )))
        }
        None => None,
    };
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
            let summary = match &rated {
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
    m.add_function(wrap_pyfunction!(hint, m)?)?;
    m.add_function(wrap_pyfunction!(generate_waves, m)?)?;
    m.add_class::<GenerateWaves>()?;
    m.add_function(wrap_pyfunction!(grid_waves, m)?)?;
    m.add_class::<GridWaves>()?;
    m.add_function(wrap_pyfunction!(canonical_many, m)?)?;
    m.add_function(wrap_pyfunction!(count_grids, m)?)?;
    Ok(())
}
