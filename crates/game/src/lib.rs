//! The game's requests and answers without a server: the JSON shapes of `shudu play`'s API and
//! the work behind each (check a position, a hint, the solution, grading an imported puzzle, a
//! puzzle made to order). `shudu-web` answers HTTP requests with them; `shudu-wasm` answers the
//! same requests inside the browser, so the page plays the same game with or without a server.
//! Nothing here does I/O or keeps time but through the `stop()` its long calls are given.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use shudu_core::solver::{solve_unique, Solutions};
use shudu_core::{Cell, Digit, DigitSet, Grid, House, Puzzle};

pub mod engine;
pub mod explain;
pub mod variant;

use engine::{Band, Symmetry};

/// Why a request cannot be answered. The server answers `BadRequest` with 400, `Unavailable`
/// with 503 and `Internal` with 500; the message says what was wrong and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    /// The request's content is wrong: a bad puzzle, a wrong length, an unknown band.
    BadRequest(String),
    /// The work ran over its budget, or no puzzle was found within it.
    Unavailable(String),
    /// A bug.
    Internal(String),
}

impl GameError {
    /// The message shown to the player.
    pub fn message(&self) -> &str {
        match self {
            GameError::BadRequest(m) | GameError::Unavailable(m) | GameError::Internal(m) => m,
        }
    }
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for GameError {}

impl From<shudu_core::ParseError> for GameError {
    fn from(e: shudu_core::ParseError) -> GameError {
        GameError::BadRequest(e.to_string())
    }
}

// ---------------------------------------------------------------------------------------------
// Shapes

/// `POST /api/puzzle` body (and `GET /api/puzzle`'s query, without `seen`).
#[derive(Deserialize, Default, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRequest {
    /// The band by name (`"medium"` if none).
    pub band: Option<String>,
    /// The symmetry of the givens by name (`"none"` if none).
    pub symmetry: Option<String>,
    /// Techniques the puzzle's solving path must use: made on demand rather than taken from the
    /// pool, rated anywhere in `band` (the whole scale without one).
    pub needs: Option<String>,
    /// A technique to practise: a puzzle made on demand whose hardest step is that technique, in
    /// `band` or the lowest band where the technique occurs.
    pub practise: Option<String>,
    /// The classes (`key` of earlier answers, 16 hex digits) the client has been dealt: none of
    /// them is dealt again.
    #[serde(default)]
    pub seen: Vec<String>,
}

/// A puzzle with its grade: the answer of `/api/puzzle` and `/api/import`.
#[derive(Serialize)]
pub struct PuzzleInfo {
    /// The givens, an 81-character line.
    pub puzzle: String,
    /// The band of its rating.
    pub band: &'static str,
    /// Its rating on Sudoku Explainer's scale (`"4.2"`).
    pub rating: String,
    /// How many givens it has.
    pub givens: usize,
    /// The symmetry it was made with (none for an imported puzzle).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<&'static str>,
    /// The technique of the hardest step the puzzle needs.
    #[serde(skip_serializing_if = "str::is_empty")]
    pub hardest: &'static str,
    /// The techniques asked for with `needs`, by name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<String>,
    /// The puzzle's class (16 hex digits), the same for every equivalent puzzle: what a client
    /// sends back in `seen` so that the class is never dealt to it again.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub key: String,
    /// Where a dealt puzzle came from: `"fresh"` (made for this deal) or `"bank"` (the built-in
    /// bank of rated puzzles).
    #[serde(skip_serializing_if = "str::is_empty")]
    pub source: &'static str,
}

/// `POST /api/import` and `POST /api/solve` body.
#[derive(Deserialize, Default, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PuzzleBody {
    /// The puzzle in any format the core reads (an 81-character line in practice).
    pub puzzle: String,
}

/// `POST /api/check` and `POST /api/hint` body: a position in play.
#[derive(Deserialize, Default, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PositionBody {
    /// The puzzle's givens (any format the core reads), with one solution.
    pub givens: String,
    /// The player's entries: 81 characters, `1`-`9`, `.` or `0` for empty (a given may be
    /// repeated, not changed).
    #[serde(default)]
    pub entries: Option<String>,
    /// Pencil marks: 81 strings of digits, `""` for a cell without marks.
    #[serde(default)]
    pub marks: Option<Vec<String>>,
}

/// `POST /api/hint` body: a position in play, and optionally the technique the player practises.
#[derive(Deserialize, Default, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct HintBody {
    /// The puzzle's givens (any format the core reads), with one solution.
    pub givens: String,
    /// The player's entries: 81 characters, `1`-`9`, `.` or `0` for empty (a given may be
    /// repeated, not changed).
    #[serde(default)]
    pub entries: Option<String>,
    /// Pencil marks: 81 strings of digits, `""` for a cell without marks.
    #[serde(default)]
    pub marks: Option<Vec<String>>,
    /// A technique (or family) to practise, by the names `needs` takes (`"x-wing"`): the hint
    /// is a step of it wherever the position holds one, even if an easier step exists.
    #[serde(default)]
    pub practise: Option<String>,
}

/// What a hint says of the practised technique.
#[derive(Serialize, Debug)]
pub struct PractiseInfo {
    /// The technique's name (`"X-Wing"`), or the family's (`"fish"`).
    technique: String,
    /// Whether the hint is a step of it: false when the position holds none (yet), and the
    /// hint is the ordinary one.
    found: bool,
}

/// `POST /api/check` answer.
#[derive(Serialize, Debug)]
pub struct CheckInfo {
    wrong: Vec<usize>,
    conflicts: Vec<usize>,
    complete: bool,
    solved: bool,
}

/// A cell and a digit.
#[derive(Serialize, Debug)]
pub struct CellDigit {
    cell: usize,
    digit: u8,
}

/// A house in an answer.
#[derive(Serialize, Debug)]
pub struct HouseInfo {
    kind: &'static str,
    index: u8,
    name: String,
}

/// How a step is drawn (`Step::figure`): base and cover houses, fins, links between cells.
#[derive(Serialize, Debug, Default)]
pub struct FigureInfo {
    base: Vec<HouseInfo>,
    cover: Vec<HouseInfo>,
    fins: Vec<usize>,
    links: Vec<LinkInfo>,
}

/// A link between two cells: strong (one of them holds the digit) or weak (at most one does).
#[derive(Serialize, Debug)]
pub struct LinkInfo {
    from: usize,
    to: usize,
    strong: bool,
}

/// `POST /api/hint` answer.
#[derive(Serialize, Debug)]
pub struct HintInfo {
    kind: &'static str,
    technique: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<String>,
    technique_text: String,
    where_text: String,
    text: String,
    /// What the step achieves, in plain words: "So r4c4 can't be 1 or 3, and r9c4 is 1."
    #[serde(skip_serializing_if = "String::is_empty")]
    result_text: String,
    cells: Vec<usize>,
    houses: Vec<HouseInfo>,
    placements: Vec<CellDigit>,
    eliminations: Vec<CellDigit>,
    clear: Vec<usize>,
    restore_marks: Vec<CellDigit>,
    /// What to draw: empty but for fish and the one-digit patterns.
    figure: FigureInfo,
    /// Whether the hint is a step of the practised technique (only when one is practised).
    #[serde(skip_serializing_if = "Option::is_none")]
    practise: Option<PractiseInfo>,
}

/// `POST /api/solve` answer.
#[derive(Serialize)]
pub struct SolutionInfo {
    solution: String,
}

// ---------------------------------------------------------------------------------------------
// Parsing a position

/// The givens: any format the core reads (an 81-character line in practice), with exactly one
/// solution.
fn givens_and_solution(text: &str) -> Result<(Puzzle, Grid), GameError> {
    let mut records = shudu_core::format::Reader::new(text.trim().as_bytes());
    let givens = match records.next() {
        Some(r) => r?.puzzle,
        None => text.trim().parse()?, // the parser's "no puzzle" error
    };
    let more = records.count();
    if more > 0 {
        return Err(GameError::BadRequest(format!(
            "found {} puzzles; expected one (send them one a request)",
            more + 1
        )));
    }
    Ok((givens, unique_solution(&givens)?))
}

fn unique_solution(p: &Puzzle) -> Result<Grid, GameError> {
    match solve_unique(p) {
        Solutions::Unique(g) => Ok(g),
        Solutions::None => Err(GameError::BadRequest(
            "the puzzle has no solution: its givens cannot all be completed at once".into(),
        )),
        Solutions::Multiple(_) => Err(GameError::BadRequest(format!(
            "the puzzle has more than one solution, so it cannot be solved by logic alone \
             ({}); add givens until only one solution remains",
            shudu_core::error::counted(p.givens(), "given")
        ))),
    }
}

/// The player's entries: exactly 81 characters, digits `1`-`9`, `.` or `0` for empty. A cell
/// that holds a given may repeat it (so a client can send its whole board) but not differ. The
/// result holds the entries only, never the givens. Entries may break the rules: that is what
/// `/api/check` is for.
fn parse_entries(text: Option<&str>, givens: &Puzzle) -> Result<Puzzle, GameError> {
    let Some(text) = text else {
        return Ok(Puzzle::empty());
    };
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 81 {
        return Err(GameError::BadRequest(format!(
            "entries: found {}; expected 81 (digits 1-9, '.' or '0' for empty)",
            shudu_core::error::counted(chars.len(), "character")
        )));
    }
    let mut entries = Puzzle::empty();
    for (i, ch) in chars.into_iter().enumerate() {
        let cell = Cell::from_index(i);
        let digit = match ch {
            '.' | '0' => None,
            '1'..='9' => Digit::new(ch as u8 - b'0'),
            other => {
                return Err(GameError::BadRequest(format!(
                    "entries, character {}: found {other:?}; expected 1-9, '.' or '0'",
                    i + 1
                )))
            }
        };
        match (givens.get(cell), digit) {
            (Some(g), Some(d)) if g != d => {
                return Err(GameError::BadRequest(format!(
                    "entries: {cell} holds {d} but its given is {g}"
                )))
            }
            (None, d) => entries.set(cell, d),
            _ => {}
        }
    }
    Ok(entries)
}

/// Pencil marks: 81 strings of digits, `""` for a cell without marks (the core's one meaning,
/// [`shudu_core::format::parse_marks`], shared with `shudu hint --marks`).
fn parse_marks(marks: Option<&[String]>) -> Result<Option<[DigitSet; 81]>, GameError> {
    let Some(marks) = marks else { return Ok(None) };
    shudu_core::format::parse_marks(marks)
        .map(Some)
        .map_err(|e| GameError::BadRequest(format!("marks: {e}")))
}

/// Givens and entries together.
fn board(givens: &Puzzle, entries: &Puzzle) -> Puzzle {
    let mut b = *givens;
    for c in Cell::all() {
        if let Some(d) = entries.get(c) {
            b.set(c, Some(d));
        }
    }
    b
}

/// Every cell that shares a house with another cell holding the same digit.
fn conflicting_cells(b: &Puzzle) -> Vec<usize> {
    let mut hit = [false; 81];
    for house in House::all() {
        let mut by_digit: [Vec<Cell>; 9] = Default::default();
        for c in house.cells().iter() {
            if let Some(d) = b.get(c) {
                by_digit[d.as_index()].push(c);
            }
        }
        for cells in by_digit.iter().filter(|v| v.len() > 1) {
            for c in cells {
                hit[c.as_index()] = true;
            }
        }
    }
    (0..81).filter(|&i| hit[i]).collect()
}

/// Entries that differ from the solution.
fn wrong_entries(entries: &Puzzle, solution: &Grid) -> Vec<usize> {
    Cell::all()
        .filter(|&c| entries.get(c).is_some_and(|d| d != solution.get(c)))
        .map(Cell::as_index)
        .collect()
}

fn house_info(h: House) -> HouseInfo {
    let (kind, index) = match h {
        House::Row(i) => ("row", i),
        House::Col(i) => ("col", i),
        House::Box(i) => ("box", i),
    };
    HouseInfo {
        kind,
        index,
        name: h.to_string(),
    }
}

fn figure_info(f: &shudu_core::logic::Figure) -> FigureInfo {
    FigureInfo {
        base: f.base.iter().copied().map(house_info).collect(),
        cover: f.cover.iter().copied().map(house_info).collect(),
        fins: f.fins.iter().map(|c| c.as_index()).collect(),
        links: f
            .links
            .iter()
            .map(|l| LinkInfo {
                from: l.from.as_index(),
                to: l.to.as_index(),
                strong: l.strong,
            })
            .collect(),
    }
}

fn cell_digits(v: &[(Cell, Digit)]) -> Vec<CellDigit> {
    v.iter()
        .map(|&(c, d)| CellDigit {
            cell: c.as_index(),
            digit: d.get(),
        })
        .collect()
}

fn list_cells(cells: impl IntoIterator<Item = usize>) -> String {
    let names: Vec<String> = cells
        .into_iter()
        .map(|i| Cell::from_index(i).to_string())
        .collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// "1, 2 or 3" for a list of digits.
fn digits_or(digits: &[Digit]) -> String {
    let names: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// A step's outcome in plain words, cell by cell in the order the step names them: "So r4c4
/// can't be 1 or 3, r5c4 can't be 1, 2 or 3, and r9c4 is 1." Empty for a step with no outcome.
fn result_text(removed: &[(Cell, Digit)], placed: &[(Cell, Digit)]) -> String {
    let mut by_cell: Vec<(Cell, Vec<Digit>)> = Vec::new();
    for &(c, d) in removed {
        match by_cell.iter_mut().find(|(k, _)| *k == c) {
            Some((_, ds)) => ds.push(d),
            None => by_cell.push((c, vec![d])),
        }
    }
    let mut parts: Vec<String> = by_cell
        .iter()
        .map(|(c, ds)| {
            let mut ds = ds.clone();
            ds.sort();
            ds.dedup();
            format!("{c} can't be {}", digits_or(&ds))
        })
        .collect();
    parts.extend(placed.iter().map(|(c, d)| format!("{c} is {d}")));
    match parts.len() {
        0 => String::new(),
        1 => format!("So {}.", parts[0]),
        n => format!("So {}, and {}.", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

// ---------------------------------------------------------------------------------------------
// Puzzles

/// The bands and symmetries the requests accept (`GET /api/bands`).
pub fn bands() -> serde_json::Value {
    serde_json::json!({
        "bands": Band::ALL.iter().map(|b| b.name()).collect::<Vec<_>>(),
        "symmetries": Symmetry::ALL.iter().map(|s| s.name()).collect::<Vec<_>>(),
    })
}

/// The band (`"medium"` if none) and symmetry (`"none"` if none or empty) of a request.
///
/// # Errors
/// `BadRequest` naming the unknown band or symmetry and the valid ones.
pub fn band_and_symmetry(q: &PuzzleRequest) -> Result<(Band, Symmetry), GameError> {
    let band: Band = q
        .band
        .as_deref()
        .unwrap_or("medium")
        .parse()
        .map_err(|e: <Band as std::str::FromStr>::Err| GameError::BadRequest(e.to_string()))?;
    let symmetry: Symmetry = match q.symmetry.as_deref() {
        None | Some("") => Symmetry::default(),
        Some(s) => s
            .parse()
            .map_err(|e: <Symmetry as std::str::FromStr>::Err| {
                GameError::BadRequest(e.to_string())
            })?,
    };
    Ok((band, symmetry))
}

/// The keys of `seen`, each 16 hex digits.
///
/// # Errors
/// `BadRequest` naming the first key that is not 16 hex digits (`seen[3]: ...`).
pub fn seen_keys(seen: &[String]) -> Result<HashSet<u64>, GameError> {
    seen.iter()
        .enumerate()
        .map(|(i, k)| {
            if k.len() != 16 {
                return Err(GameError::BadRequest(format!(
                    "seen[{i}]: found '{}'; expected 16 hex digits",
                    k.chars().take(20).collect::<String>()
                )));
            }
            u64::from_str_radix(k, 16).map_err(|_| {
                GameError::BadRequest(format!("seen[{i}]: found '{k}'; expected 16 hex digits"))
            })
        })
        .collect()
}

/// A puzzle made to order: one that needs some techniques (`needs`), or whose hardest step is
/// a technique to practise (`practise`), rather than one of a band's shelf.
#[derive(Debug, Clone)]
pub struct Order {
    config: shudu_core::rated::RatedConfig,
    practise: Option<shudu_core::needs::TechniqueSet>,
    names: Vec<String>,
    symmetry: Symmetry,
}

impl Order {
    /// The order a request makes, `None` for a plain band's puzzle.
    ///
    /// # Errors
    /// `BadRequest` for an unknown band, symmetry or technique, both `needs` and `practise`, or
    /// techniques no puzzle of the band can need.
    pub fn of(q: &PuzzleRequest) -> Result<Option<Order>, GameError> {
        let (band, symmetry) = band_and_symmetry(q)?;
        let order = match (q.needs.as_deref(), q.practise.as_deref()) {
            (Some(_), Some(_)) => {
                return Err(GameError::BadRequest(
                    "needs and practise: expected one of them, not both".into(),
                ))
            }
            (Some(needs), None) => {
                let needs = engine::parse_needs(needs).map_err(GameError::BadRequest)?;
                let config =
                    engine::needs_config(needs, q.band.is_some().then_some(band), symmetry)
                        .map_err(GameError::BadRequest)?;
                let names = config.needs.iter().map(|n| n.name()).collect();
                Order {
                    config,
                    practise: None,
                    names,
                    symmetry,
                }
            }
            (None, Some(name)) => {
                let set = engine::parse_practise(name).map_err(GameError::BadRequest)?;
                let config =
                    engine::practise_config(set, band, symmetry).map_err(GameError::BadRequest)?;
                Order {
                    config,
                    practise: Some(set),
                    names: vec![set.name()],
                    symmetry,
                }
            }
            (None, None) => return Ok(None),
        };
        Ok(Some(order))
    }

    /// Searches for the puzzle until found or until `stop()` says so; `budget` names the
    /// budget in the message then ("the server's budget of 10 s").
    ///
    /// # Errors
    /// `Unavailable` when `stop()` ended the search first.
    pub fn make(
        &self,
        rng: &mut shudu_core::grids::Rng,
        stop: &dyn Fn() -> bool,
        budget: &str,
    ) -> Result<PuzzleInfo, GameError> {
        let (puzzle, rating, band, hardest) =
            engine::generate_needing(&self.config, self.practise, rng, stop).ok_or_else(|| {
                GameError::Unavailable(format!(
                    "no puzzle {} {} was found within {budget}",
                    if self.practise.is_some() {
                        "whose hardest step is"
                    } else {
                        "needing"
                    },
                    self.names.join(", "),
                ))
            })?;
        Ok(PuzzleInfo {
            puzzle: puzzle.to_line(),
            band: band.name(),
            rating: rating.to_string(),
            givens: puzzle.givens(),
            symmetry: Some(self.symmetry.name()),
            hardest,
            needs: self.names.clone(),
            key: format!("{:016x}", engine::class_key(&puzzle)),
            source: "fresh",
        })
    }
}

/// A puzzle of the request's band and symmetry made now, never one of a class in `seen` (the
/// server deals from its pool instead; this is the game without a server). Searched until
/// found or until `stop()` says so; `budget` names the budget in the message then.
///
/// # Errors
/// `BadRequest` for an unknown band or symmetry; `Unavailable` when `stop()` ended the search.
pub fn deal(
    q: &PuzzleRequest,
    seen: &HashSet<u64>,
    rng: &mut shudu_core::grids::Rng,
    stop: &dyn Fn() -> bool,
    budget: &str,
) -> Result<PuzzleInfo, GameError> {
    let (band, symmetry) = band_and_symmetry(q)?;
    loop {
        let (puzzle, rating, hardest) =
            engine::generate(band, symmetry, rng, stop).ok_or_else(|| {
                GameError::Unavailable(format!(
                    "no {} puzzle was found within {budget}",
                    band.name()
                ))
            })?;
        let key = engine::class_key(&puzzle);
        if seen.contains(&key) {
            continue;
        }
        return Ok(PuzzleInfo {
            puzzle: puzzle.to_line(),
            band: band.name(),
            rating: rating.to_string(),
            givens: puzzle.givens(),
            symmetry: Some(symmetry.name()),
            hardest,
            needs: Vec::new(),
            key: format!("{key:016x}"),
            source: "fresh",
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Positions

/// `POST /api/solve`: the unique solution.
///
/// # Errors
/// `BadRequest` for a malformed puzzle, more than one, or one without exactly one solution.
pub fn solve(body: &PuzzleBody) -> Result<SolutionInfo, GameError> {
    let (_, solution) = givens_and_solution(&body.puzzle)?;
    Ok(SolutionInfo {
        solution: solution.to_line(),
    })
}

/// `POST /api/check`: wrong entries and rule conflicts.
///
/// # Errors
/// `BadRequest` for malformed givens, entries or marks, or givens without one solution.
pub fn check(body: &PositionBody) -> Result<CheckInfo, GameError> {
    let (givens, solution) = givens_and_solution(&body.givens)?;
    let entries = parse_entries(body.entries.as_deref(), &givens)?;
    parse_marks(body.marks.as_deref())?;
    let b = board(&givens, &entries);
    let conflicts = conflicting_cells(&b);
    let complete = b.is_full();
    Ok(CheckInfo {
        wrong: wrong_entries(&entries, &solution),
        solved: complete && conflicts.is_empty(),
        conflicts,
        complete,
    })
}

/// `POST /api/import`: checks and grades a puzzle from elsewhere, given up when `stop()` says
/// so (`budget` names the budget in the message then). A pencil-mark line keeps its marks:
/// graded from them (as `shudu grade` does) and sent back for the player.
///
/// # Errors
/// `BadRequest` for a malformed puzzle or one without exactly one solution; `Unavailable` when
/// `stop()` ended the grading.
pub fn import(
    body: &PuzzleBody,
    stop: &dyn Fn() -> bool,
    budget: &str,
) -> Result<ImportInfo, GameError> {
    let (givens, marks) = givens_and_marks(&body.puzzle)?;
    let graded = match &marks {
        Some(m) => engine::grade_marked_until(&givens, m, stop),
        None => engine::grade_until(&givens, stop),
    };
    let (rating, band, hardest) = graded.ok_or_else(|| {
        GameError::Unavailable(format!("rating this puzzle takes longer than {budget}"))
    })?;
    Ok(ImportInfo {
        info: PuzzleInfo {
            puzzle: givens.to_line(),
            band: band.name(),
            rating: rating.to_string(),
            givens: givens.givens(),
            symmetry: None,
            hardest,
            needs: Vec::new(),
            key: format!("{:016x}", engine::class_key(&givens)),
            source: "",
        },
        marks: marks.map(|m| {
            Cell::all()
                .map(|c| match givens.get(c) {
                    Some(_) => String::new(),
                    None => m[c.as_index()].iter().map(|d| d.to_string()).collect(),
                })
                .collect()
        }),
    })
}

/// `POST /api/import` answer: the puzzle with its grade and, for a pencil-mark (729-character)
/// line, its candidates.
#[derive(Serialize)]
pub struct ImportInfo {
    #[serde(flatten)]
    info: PuzzleInfo,
    /// A pencil-mark line's candidates as the player's pencil marks: 81 strings of digits, `""`
    /// for a given (a cell with one candidate).
    #[serde(skip_serializing_if = "Option::is_none")]
    marks: Option<Vec<String>>,
}

/// The givens of an imported puzzle and, for a pencil-mark line, its marks. The givens must
/// have one solution, and so must the marks (the same one, then): the game checks and hints
/// from the givens, and keeps to the marks only while the player does.
fn givens_and_marks(
    text: &str,
) -> Result<(Puzzle, Option<Box<shudu_core::format::Marks>>), GameError> {
    let mut records = shudu_core::format::Reader::new(text.trim().as_bytes());
    let Some(record) = records.next() else {
        // No record at all: the plain parser's "no puzzle" error.
        return Ok((text.trim().parse()?, None));
    };
    let record = record?;
    let more = records.count();
    if more > 0 {
        return Err(GameError::BadRequest(format!(
            "found {} puzzles; expected one (send them one a request)",
            more + 1
        )));
    }
    let Some(marks) = record.marks else {
        unique_solution(&record.puzzle)?;
        return Ok((record.puzzle, None));
    };
    let givens = record.puzzle;
    match shudu_core::solver::solve_unique_marked(&givens, Some(&marks)) {
        Solutions::Unique(_) => {}
        Solutions::None => {
            return Err(GameError::BadRequest(
                "no grid keeps to these pencil marks: some cell's marks leave out its digit".into(),
            ))
        }
        Solutions::Multiple(_) => {
            return Err(GameError::BadRequest(
                "more than one grid keeps to these pencil marks; remove candidates until only \
                 one solution remains"
                    .into(),
            ))
        }
    }
    if !matches!(solve_unique(&givens), Solutions::Unique(_)) {
        return Err(GameError::BadRequest(format!(
            "the pencil marks have one solution, but their givens (the {} with one candidate) \
             have more than one; the game plays puzzles whose givens have one solution",
            shudu_core::error::counted(givens.givens(), "cell")
        )));
    }
    Ok((givens, Some(marks)))
}

fn empty_hint(kind: &'static str, technique: &str) -> HintInfo {
    HintInfo {
        kind,
        technique: technique.to_string(),
        rating: None,
        technique_text: String::new(),
        where_text: String::new(),
        text: String::new(),
        result_text: String::new(),
        cells: vec![],
        houses: vec![],
        placements: vec![],
        eliminations: vec![],
        clear: vec![],
        restore_marks: vec![],
        figure: FigureInfo::default(),
        practise: None,
    }
}

/// A step of the grader (or of the practised technique) as a hint.
fn step_hint(step: &engine::Step) -> HintInfo {
    let removed = [&step.eliminations[..], &step.shown_eliminations[..]].concat();
    HintInfo {
        result_text: result_text(&removed, &step.placements),
        kind: "step",
        technique: step.technique.to_string(),
        rating: Some(step.rating.to_string()),
        technique_text: step.hint_technique(),
        where_text: step.hint_where(),
        text: step.text.clone(),
        cells: step.cells.iter().map(|c| c.as_index()).collect(),
        houses: step.houses.iter().copied().map(house_info).collect(),
        figure: step.figure.as_deref().map(figure_info).unwrap_or_default(),
        placements: cell_digits(&step.placements),
        // A direct step applies its placement alone, but its text names the candidates it
        // removes on the way: the player sees them struck out and Apply removes them too.
        eliminations: cell_digits(&removed),
        clear: vec![],
        restore_marks: vec![],
        practise: None,
    }
}

/// `POST /api/hint`: the next step, or the mistake that blocks it; with `practise`, a step of
/// that technique wherever the position holds one. One step of the grader: bounded.
///
/// # Errors
/// `BadRequest` for malformed givens, entries, marks or technique, or givens without one
/// solution.
pub fn hint(body: &HintBody) -> Result<HintInfo, GameError> {
    let practise = body
        .practise
        .as_deref()
        .map(engine::parse_practise)
        .transpose()
        .map_err(|e| GameError::BadRequest(format!("practise: {e}")))?;
    let (givens, solution) = givens_and_solution(&body.givens)?;
    let entries = parse_entries(body.entries.as_deref(), &givens)?;
    let marks = parse_marks(body.marks.as_deref())?;
    let b = board(&givens, &entries);

    // A wrong digit first: logic from a wrong position proves nonsense.
    let wrong = wrong_entries(&entries, &solution);
    if !wrong.is_empty() {
        let n = wrong.len();
        return Ok(HintInfo {
            technique_text: if n == 1 {
                "One of your digits is wrong.".into()
            } else {
                format!("{n} of your digits are wrong.")
            },
            where_text: format!("Look at {}.", list_cells(wrong.iter().copied())),
            text: format!(
                "{} {} not agree with the solution. Applying this hint clears {}.",
                list_cells(wrong.iter().copied()),
                if n == 1 { "does" } else { "do" },
                if n == 1 { "it" } else { "them" }
            ),
            cells: wrong.clone(),
            clear: wrong,
            ..empty_hint("mistake", "Wrong digit")
        });
    }
    if b.is_full() {
        return Ok(HintInfo {
            technique_text: "The puzzle is solved.".into(),
            text: "Every cell holds its digit.".into(),
            ..empty_hint("solved", "Solved")
        });
    }

    // Marks that leave out a cell's solution digit hide the way forward.
    let mut board_marks = None;
    if let Some(m) = marks {
        let has_marks = Cell::all().any(|c| b.get(c).is_none() && !m[c.as_index()].is_empty());
        if has_marks {
            let missing: Vec<(Cell, Digit)> = Cell::all()
                .filter(|&c| {
                    b.get(c).is_none()
                        && !m[c.as_index()].is_empty()
                        && !m[c.as_index()].contains(solution.get(c))
                })
                .map(|c| (c, solution.get(c)))
                .collect();
            if !missing.is_empty() {
                // Applying puts back every candidate the cell's notes left out, so the hint
                // never tells which one was its digit.
                let cells: Vec<usize> = missing.iter().map(|(c, _)| c.as_index()).collect();
                let restore: Vec<(Cell, Digit)> = missing
                    .iter()
                    .flat_map(|&(c, _)| {
                        let have = m[c.as_index()];
                        b.candidates(c)
                            .iter()
                            .filter(move |&d| !have.contains(d))
                            .map(move |d| (c, d))
                    })
                    .collect();
                let (one, n) = (missing.len() == 1, missing.len());
                return Ok(HintInfo {
                    technique_text: if one {
                        "Your notes leave out a cell's digit.".into()
                    } else {
                        format!("Your notes leave out the digit of {n} cells.")
                    },
                    where_text: format!(
                        "Your notes in {} leave out {} digit.",
                        list_cells(cells.clone()),
                        if one { "its" } else { "their" }
                    ),
                    text: format!(
                        "Your notes in {} leave out {} digit, so no step can be trusted \
                         there. Applying this hint puts back every candidate {} notes left out.",
                        list_cells(cells.clone()),
                        if one { "its" } else { "their" },
                        if one { "its" } else { "their" }
                    ),
                    cells,
                    restore_marks: cell_digits(&restore),
                    ..empty_hint("mistake", "Notes leave out a digit")
                });
            }
            // Cells without marks count as holding every candidate.
            let mut full = m;
            for c in Cell::all() {
                if b.get(c).is_none() && full[c.as_index()].is_empty() {
                    full[c.as_index()] = b.candidates(c);
                }
            }
            board_marks = Some(full);
        }
    }

    // Practising a technique: a step of it wherever the position holds one, even where an
    // easier step exists; else the ordinary hint, saying that there is none yet.
    if let Some(set) = practise {
        let technique = engine::practise_name(set);
        let found = engine::practise_step(set, &givens, &entries, board_marks.as_ref());
        let mut info = match &found {
            Some(step) => step_hint(step),
            None => ordinary_hint(&givens, &entries, board_marks.as_ref(), &b, &solution)?,
        };
        info.practise = Some(PractiseInfo {
            technique,
            found: found.is_some(),
        });
        return Ok(info);
    }
    ordinary_hint(&givens, &entries, board_marks.as_ref(), &b, &solution)
}

/// The next step of the grader (or of the hints' named techniques) from a position without
/// mistakes, or where no technique applies, a cell revealed.
fn ordinary_hint(
    givens: &Puzzle,
    entries: &Puzzle,
    marks: Option<&[DigitSet; 81]>,
    b: &Puzzle,
    solution: &Grid,
) -> Result<HintInfo, GameError> {
    if let Some(step) = engine::next_hint(givens, entries, marks) {
        return Ok(step_hint(&step));
    }

    // Beyond the grader's techniques: reveal the empty cell with the fewest candidates.
    let cell = Cell::all()
        .filter(|&c| b.get(c).is_none())
        .min_by_key(|&c| b.candidates(c).len())
        .ok_or_else(|| GameError::Internal("no empty cell in an unfinished board".into()))?;
    let digit = solution.get(cell);
    Ok(HintInfo {
        technique_text: "No technique the solver knows applies here.".into(),
        where_text: format!("Look at {cell}."),
        text: format!("No known technique makes progress from here; {cell} is {digit}."),
        cells: vec![cell.as_index()],
        placements: vec![CellDigit {
            cell: cell.as_index(),
            digit: digit.get(),
        }],
        ..empty_hint("reveal", "Reveal a cell")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conflicting_cells_lists_both_cells_of_a_repeat() {
        let mut p = Puzzle::empty();
        p.set(Cell::at(0, 0), Digit::new(5));
        p.set(Cell::at(0, 8), Digit::new(5));
        p.set(Cell::at(4, 4), Digit::new(5));
        assert_eq!(conflicting_cells(&p), vec![0, 8]);
    }

    #[test]
    fn entries_may_repeat_givens_but_not_change_them() {
        let mut g = Puzzle::empty();
        g.set(Cell::at(0, 0), Digit::new(3));
        let mut line = String::from("3");
        line.push_str(&".".repeat(80));
        assert_eq!(parse_entries(Some(&line), &g).unwrap(), Puzzle::empty());
        line.replace_range(0..1, "4");
        let e = parse_entries(Some(&line), &g).unwrap_err();
        assert!(
            e.message().contains("r1c1 holds 4 but its given is 3"),
            "{e}"
        );
    }

    #[test]
    fn result_text_groups_each_cells_digits() {
        let (c, d) = (Cell::at, |n| Digit::new(n).unwrap());
        let removed = [(c(3, 3), d(1)), (c(3, 3), d(3)), (c(4, 3), d(1))];
        assert_eq!(
            result_text(&removed, &[(c(8, 3), d(1))]),
            "So r4c4 can't be 1 or 3, r5c4 can't be 1, and r9c4 is 1."
        );
        assert_eq!(result_text(&[], &[(c(0, 0), d(5))]), "So r1c1 is 5.");
        assert_eq!(result_text(&[], &[]), "");
    }

    #[test]
    fn list_cells_reads_as_english() {
        assert_eq!(list_cells([0]), "r1c1");
        assert_eq!(list_cells([0, 1, 80]), "r1c1, r1c2 and r9c9");
    }
}
