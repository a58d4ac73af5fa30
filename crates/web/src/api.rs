//! The JSON API's handlers and the shapes of their requests and answers. The crate docs describe
//! each endpoint.

use axum::extract::{FromRequest, FromRequestParts, State};
use std::collections::HashSet;

use axum::Json;
use serde::{Deserialize, Serialize};
use shudu_core::solver::{solve_unique, Solutions};
use shudu_core::{Cell, Digit, DigitSet, Grid, House, Puzzle};

use crate::engine::{self, Band, Symmetry};
use crate::error::AppError;
use crate::AppState;

/// A JSON body whose rejections (malformed JSON, wrong content type, body too large) become
/// [`AppError`]s with a JSON message.
#[derive(FromRequest)]
#[from_request(via(axum::Json), rejection(AppError))]
pub(crate) struct Body<T>(pub T);

/// A query string whose rejections become [`AppError`]s.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(AppError))]
pub(crate) struct Query<T>(pub T);

// ---------------------------------------------------------------------------------------------
// Shapes

/// `GET /api/puzzle` query.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PuzzleQuery {
    band: Option<String>,
    symmetry: Option<String>,
    /// Techniques the puzzle's solving path must use: made on demand rather than taken from the
    /// pool, rated anywhere in `band` (the whole scale without one).
    needs: Option<String>,
    /// A technique to practise: a puzzle made on demand whose hardest step is that technique, in
    /// `band` or the lowest band where the technique occurs.
    practise: Option<String>,
    /// The classes (`key` of earlier answers, 16 hex digits) the client has been dealt: none of
    /// them is dealt again. `POST /api/puzzle` sends them as a JSON list instead.
    #[serde(skip)]
    seen: Option<Vec<String>>,
}

/// `POST /api/puzzle` body: the query's fields, with `seen` a list of keys.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PuzzleRequest {
    band: Option<String>,
    symmetry: Option<String>,
    needs: Option<String>,
    practise: Option<String>,
    #[serde(default)]
    seen: Vec<String>,
}

/// A puzzle with its grade: the answer of `/api/puzzle` and `/api/import`.
#[derive(Serialize)]
pub(crate) struct PuzzleInfo {
    puzzle: String,
    band: &'static str,
    rating: String,
    givens: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    symmetry: Option<&'static str>,
    /// The technique of the hardest step the puzzle needs.
    #[serde(skip_serializing_if = "str::is_empty")]
    hardest: &'static str,
    /// The techniques asked for with `needs`, by name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    needs: Vec<String>,
    /// The puzzle's class (16 hex digits), the same for every equivalent puzzle: what a client
    /// sends back in `seen` so that the class is never dealt to it again.
    #[serde(skip_serializing_if = "String::is_empty")]
    key: String,
    /// Where a dealt puzzle came from: `"fresh"` (made for this deal) or `"bank"` (the built-in
    /// bank of rated puzzles).
    #[serde(skip_serializing_if = "str::is_empty")]
    source: &'static str,
}

/// `POST /api/import` and `POST /api/solve` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PuzzleBody {
    puzzle: String,
}

/// `POST /api/check` and `POST /api/hint` body: a position in play.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PositionBody {
    givens: String,
    #[serde(default)]
    entries: Option<String>,
    #[serde(default)]
    marks: Option<Vec<String>>,
}

/// `POST /api/hint` body: a position in play, and optionally the technique the player practises.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HintBody {
    givens: String,
    #[serde(default)]
    entries: Option<String>,
    #[serde(default)]
    marks: Option<Vec<String>>,
    /// A technique (or family) to practise, by the names `needs` takes (`"x-wing"`): the hint
    /// is a step of it wherever the position holds one, even if an easier step exists.
    #[serde(default)]
    practise: Option<String>,
}

/// What a hint says of the practised technique.
#[derive(Serialize, Debug)]
pub(crate) struct PractiseInfo {
    /// The technique's name (`"X-Wing"`), or the family's (`"fish"`).
    technique: String,
    /// Whether the hint is a step of it: false when the position holds none (yet), and the
    /// hint is the ordinary one.
    found: bool,
}

/// `POST /api/check` answer.
#[derive(Serialize, Debug)]
pub(crate) struct CheckInfo {
    wrong: Vec<usize>,
    conflicts: Vec<usize>,
    complete: bool,
    solved: bool,
}

/// A cell and a digit.
#[derive(Serialize, Debug)]
pub(crate) struct CellDigit {
    cell: usize,
    digit: u8,
}

/// A house in an answer.
#[derive(Serialize, Debug)]
pub(crate) struct HouseInfo {
    kind: &'static str,
    index: u8,
    name: String,
}

/// How a step is drawn (`Step::figure`): base and cover houses, fins, links between cells.
#[derive(Serialize, Debug, Default)]
pub(crate) struct FigureInfo {
    base: Vec<HouseInfo>,
    cover: Vec<HouseInfo>,
    fins: Vec<usize>,
    links: Vec<LinkInfo>,
}

/// A link between two cells: strong (one of them holds the digit) or weak (at most one does).
#[derive(Serialize, Debug)]
pub(crate) struct LinkInfo {
    from: usize,
    to: usize,
    strong: bool,
}

/// `POST /api/hint` answer.
#[derive(Serialize, Debug)]
pub(crate) struct HintInfo {
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
pub(crate) struct SolutionInfo {
    solution: String,
}

// ---------------------------------------------------------------------------------------------
// Parsing a position

/// The givens: any format the core reads (an 81-character line in practice), with exactly one
/// solution.
fn givens_and_solution(text: &str) -> Result<(Puzzle, Grid), AppError> {
    let mut records = shudu_core::format::Reader::new(text.trim().as_bytes());
    let givens = match records.next() {
        Some(r) => r?.puzzle,
        None => text.trim().parse()?, // the parser's "no puzzle" error
    };
    let more = records.count();
    if more > 0 {
        return Err(AppError::BadRequest(format!(
            "found {} puzzles; expected one (send them one a request)",
            more + 1
        )));
    }
    Ok((givens, unique_solution(&givens)?))
}

/// Runs costly work (grading, hints) on a blocking thread, holding one of the state's permits
/// (one a core). Waits at most [`crate::QUEUE_WAIT`] for a permit, else answers 503 with
/// `Retry-After`. `work` gets a `stop()` that turns true when [`crate::WORK_BUDGET`] has passed
/// or the client has gone (the handler's future was dropped), so it can end its search.
async fn costly<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&dyn Fn() -> bool) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// Sets the flag when dropped: the handler's future is dropped when its client goes.
    struct CancelOnDrop(Arc<AtomicBool>);
    impl Drop for CancelOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }

    let permit =
        match tokio::time::timeout(crate::QUEUE_WAIT, state.costly.clone().acquire_owned()).await {
            Ok(Ok(p)) => p,
            _ => {
                return Err(AppError::Busy(
                    "the server is busy with other costly requests; try again in a moment".into(),
                    1,
                ))
            }
        };
    let cancelled = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancelled.clone());
    let deadline = std::time::Instant::now() + crate::WORK_BUDGET;
    tokio::task::spawn_blocking(move || {
        // The permit is held until the work ends, even if the client has gone.
        let _permit = permit;
        let stop = || cancelled.load(Ordering::Relaxed) || std::time::Instant::now() >= deadline;
        work(&stop)
    })
    .await?
}

fn unique_solution(p: &Puzzle) -> Result<Grid, AppError> {
    match solve_unique(p) {
        Solutions::Unique(g) => Ok(g),
        Solutions::None => Err(AppError::BadRequest(
            "the puzzle has no solution: its givens cannot all be completed at once".into(),
        )),
        Solutions::Multiple(_) => Err(AppError::BadRequest(format!(
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
fn parse_entries(text: Option<&str>, givens: &Puzzle) -> Result<Puzzle, AppError> {
    let Some(text) = text else {
        return Ok(Puzzle::empty());
    };
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 81 {
        return Err(AppError::BadRequest(format!(
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
                return Err(AppError::BadRequest(format!(
                    "entries, character {}: found {other:?}; expected 1-9, '.' or '0'",
                    i + 1
                )))
            }
        };
        match (givens.get(cell), digit) {
            (Some(g), Some(d)) if g != d => {
                return Err(AppError::BadRequest(format!(
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
fn parse_marks(marks: Option<&[String]>) -> Result<Option<[DigitSet; 81]>, AppError> {
    let Some(marks) = marks else { return Ok(None) };
    shudu_core::format::parse_marks(marks)
        .map(Some)
        .map_err(|e| AppError::BadRequest(format!("marks: {e}")))
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
// Handlers

/// `GET /api/bands`: the bands and symmetries the other endpoints accept.
pub(crate) async fn bands() -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "bands": Band::ALL.iter().map(|b| b.name()).collect::<Vec<_>>(),
        "symmetries": Symmetry::ALL.iter().map(|s| s.name()).collect::<Vec<_>>(),
    }))
}

/// `HEAD /api/puzzle?band=..&symmetry=..`: checks the query as `GET` does, without taking a
/// puzzle from the pool (a HEAD must not use one up).
pub(crate) async fn puzzle_head(Query(q): Query<PuzzleQuery>) -> Result<(), AppError> {
    let (band, symmetry) = band_and_symmetry(&q)?;
    if let Some(needs) = q.needs.as_deref() {
        needs_config(needs, q.band.is_some().then_some(band), symmetry)?;
    }
    if let Some(name) = q.practise.as_deref() {
        practise_config(name, band, symmetry)?;
    }
    Ok(())
}

/// The rated search's config for practising `name` in `band`, or a 400 naming what is wrong.
fn practise_config(
    name: &str,
    band: Band,
    symmetry: Symmetry,
) -> Result<
    (
        shudu_core::needs::TechniqueSet,
        shudu_core::rated::RatedConfig,
    ),
    AppError,
> {
    let set = engine::parse_practise(name).map_err(AppError::BadRequest)?;
    let config = engine::practise_config(set, band, symmetry).map_err(AppError::BadRequest)?;
    Ok((set, config))
}

/// The rated search's config for `needs`, or a 400 naming what is wrong.
fn needs_config(
    needs: &str,
    band: Option<Band>,
    symmetry: Symmetry,
) -> Result<shudu_core::rated::RatedConfig, AppError> {
    let needs = engine::parse_needs(needs).map_err(AppError::BadRequest)?;
    engine::needs_config(needs, band, symmetry).map_err(AppError::BadRequest)
}

/// `GET /api/puzzle?needs=x-wing[&band=..][&symmetry=..]`: a puzzle made on demand whose solving
/// path uses each technique named (over the whole scale unless `band` is given);
/// `practise=x-wing[&band=..]`: one whose hardest step is the technique, in `band` or the lowest
/// band where the technique occurs.
async fn puzzle_needing(state: &AppState, q: &PuzzleQuery) -> Result<PuzzleInfo, AppError> {
    let (band, symmetry) = band_and_symmetry(q)?;
    let (config, practise, names) = match (q.needs.as_deref(), q.practise.as_deref()) {
        (Some(_), Some(_)) => {
            return Err(AppError::BadRequest(
                "needs and practise: expected one of them, not both".into(),
            ))
        }
        (Some(needs), None) => {
            let config = needs_config(needs, q.band.is_some().then_some(band), symmetry)?;
            let names: Vec<String> = config.needs.iter().map(|n| n.name()).collect();
            (config, None, names)
        }
        (None, Some(name)) => {
            let (set, config) = practise_config(name, band, symmetry)?;
            (config, Some(set), vec![set.name()])
        }
        (None, None) => unreachable!("called with needs or practise"),
    };
    costly(state, move |stop| {
        let mut rng = shudu_core::grids::rng_for(rand::random(), 0);
        let (puzzle, rating, band, hardest) =
            engine::generate_needing(&config, practise, &mut rng, stop).ok_or_else(|| {
                AppError::Unavailable(format!(
                    "no puzzle {} {} was found within the server's budget of {} s",
                    if practise.is_some() {
                        "whose hardest step is"
                    } else {
                        "needing"
                    },
                    names.join(", "),
                    crate::WORK_BUDGET.as_secs()
                ))
            })?;
        Ok(PuzzleInfo {
            puzzle: puzzle.to_line(),
            band: band.name(),
            rating: rating.to_string(),
            givens: puzzle.givens(),
            symmetry: Some(symmetry.name()),
            hardest,
            needs: names,
            key: format!("{:016x}", engine::class_key(&puzzle)),
            source: "fresh",
        })
    })
    .await
}

fn band_and_symmetry(q: &PuzzleQuery) -> Result<(Band, Symmetry), AppError> {
    let band: Band = q
        .band
        .as_deref()
        .unwrap_or("medium")
        .parse()
        .map_err(|e: <Band as std::str::FromStr>::Err| AppError::BadRequest(e.to_string()))?;
    let symmetry: Symmetry = match q.symmetry.as_deref() {
        None | Some("") => Symmetry::default(),
        Some(s) => s
            .parse()
            .map_err(|e: <Symmetry as std::str::FromStr>::Err| {
                AppError::BadRequest(e.to_string())
            })?,
    };
    Ok((band, symmetry))
}

/// `GET /api/puzzle?band=..&symmetry=..`: a puzzle from the pool (never one of a class the
/// pool dealt before to a client that sends no `seen` list; see [`puzzle_post`]).
pub(crate) async fn puzzle(
    State(state): State<AppState>,
    Query(q): Query<PuzzleQuery>,
) -> Result<Json<PuzzleInfo>, AppError> {
    deal(&state, &q).await.map(Json)
}

/// `POST /api/puzzle {"band", "symmetry", "needs", "practise", "seen": [keys]}`: as `GET`, and
/// never a puzzle of a class in `seen` (the page sends the keys of the puzzles it was dealt).
pub(crate) async fn puzzle_post(
    State(state): State<AppState>,
    Body(body): Body<PuzzleRequest>,
) -> Result<Json<PuzzleInfo>, AppError> {
    let q = PuzzleQuery {
        band: body.band,
        symmetry: body.symmetry,
        needs: body.needs,
        practise: body.practise,
        seen: Some(body.seen),
    };
    deal(&state, &q).await.map(Json)
}

/// The keys of `seen`, each 16 hex digits.
fn seen_keys(seen: &[String]) -> Result<HashSet<u64>, AppError> {
    seen.iter()
        .enumerate()
        .map(|(i, k)| {
            if k.len() != 16 {
                return Err(AppError::BadRequest(format!(
                    "seen[{i}]: found '{}'; expected 16 hex digits",
                    k.chars().take(20).collect::<String>()
                )));
            }
            u64::from_str_radix(k, 16).map_err(|_| {
                AppError::BadRequest(format!("seen[{i}]: found '{k}'; expected 16 hex digits"))
            })
        })
        .collect()
}

async fn deal(state: &AppState, q: &PuzzleQuery) -> Result<PuzzleInfo, AppError> {
    let seen = q.seen.as_deref().map(seen_keys).transpose()?;
    if q.needs.is_some() || q.practise.is_some() {
        let info = puzzle_needing(state, q).await?;
        if seen
            .as_ref()
            .is_some_and(|s| u64::from_str_radix(&info.key, 16).is_ok_and(|k| s.contains(&k)))
        {
            // A puzzle made on demand meets a class seen before with odds of one in billions;
            // say so rather than deal it.
            return Err(AppError::Unavailable(
                "the puzzle made was one you have seen; ask again".into(),
            ));
        }
        return Ok(info);
    }
    let (band, symmetry) = band_and_symmetry(q)?;
    let (dealt, key, source) = state.pool.take(band, symmetry, seen.as_ref()).await?;
    Ok(PuzzleInfo {
        puzzle: dealt.puzzle.to_line(),
        band: dealt.band.name(),
        rating: dealt.rating.to_string(),
        givens: dealt.puzzle.givens(),
        symmetry: Some(dealt.symmetry.name()),
        hardest: dealt.hardest,
        needs: Vec::new(),
        key: format!("{key:016x}"),
        source: match source {
            crate::pool::Source::Fresh => "fresh",
            crate::pool::Source::Bank => "bank",
        },
    })
}

/// `POST /api/import` answer: the puzzle with its grade and, for a pencil-mark (729-character)
/// line, its candidates.
#[derive(Serialize)]
pub(crate) struct ImportInfo {
    #[serde(flatten)]
    info: PuzzleInfo,
    /// A pencil-mark line's candidates as the player's pencil marks: 81 strings of digits, `""`
    /// for a given (a cell with one candidate).
    #[serde(skip_serializing_if = "Option::is_none")]
    marks: Option<Vec<String>>,
}

/// `POST /api/import {"puzzle"}`: checks and grades a puzzle from elsewhere. A pencil-mark line
/// keeps its marks: graded from them (as `shudu grade` does) and sent back for the player.
pub(crate) async fn import(
    State(state): State<AppState>,
    Body(body): Body<PuzzleBody>,
) -> Result<Json<ImportInfo>, AppError> {
    let info = costly(&state, move |stop| -> Result<ImportInfo, AppError> {
        let (givens, marks) = givens_and_marks(&body.puzzle)?;
        let graded = match &marks {
            Some(m) => engine::grade_marked_until(&givens, m, stop),
            None => engine::grade_until(&givens, stop),
        };
        let (rating, band, hardest) = graded.ok_or_else(|| {
            AppError::Unavailable(format!(
                "rating this puzzle takes longer than the server's budget of {} s",
                crate::WORK_BUDGET.as_secs()
            ))
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
    })
    .await?;
    Ok(Json(info))
}

/// The givens of an imported puzzle and, for a pencil-mark line, its marks. The givens must
/// have one solution, and so must the marks (the same one, then): the game checks and hints
/// from the givens, and keeps to the marks only while the player does.
fn givens_and_marks(
    text: &str,
) -> Result<(Puzzle, Option<Box<shudu_core::format::Marks>>), AppError> {
    let mut records = shudu_core::format::Reader::new(text.trim().as_bytes());
    let Some(record) = records.next() else {
        // No record at all: the plain parser's "no puzzle" error.
        return Ok((text.trim().parse()?, None));
    };
    let record = record?;
    let more = records.count();
    if more > 0 {
        return Err(AppError::BadRequest(format!(
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
            return Err(AppError::BadRequest(
                "no grid keeps to these pencil marks: some cell's marks leave out its digit".into(),
            ))
        }
        Solutions::Multiple(_) => {
            return Err(AppError::BadRequest(
                "more than one grid keeps to these pencil marks; remove candidates until only \
                 one solution remains"
                    .into(),
            ))
        }
    }
    if !matches!(solve_unique(&givens), Solutions::Unique(_)) {
        return Err(AppError::BadRequest(format!(
            "the pencil marks have one solution, but their givens (the {} with one candidate) \
             have more than one; the game plays puzzles whose givens have one solution",
            shudu_core::error::counted(givens.givens(), "cell")
        )));
    }
    Ok((givens, Some(marks)))
}

/// `POST /api/solve {"puzzle"}`: the unique solution.
pub(crate) async fn solve(Body(body): Body<PuzzleBody>) -> Result<Json<SolutionInfo>, AppError> {
    let (_, solution) = givens_and_solution(&body.puzzle)?;
    Ok(Json(SolutionInfo {
        solution: solution.to_line(),
    }))
}

/// `POST /api/check {"givens", "entries"}`: wrong entries and rule conflicts.
pub(crate) async fn check(Body(body): Body<PositionBody>) -> Result<Json<CheckInfo>, AppError> {
    let (givens, solution) = givens_and_solution(&body.givens)?;
    let entries = parse_entries(body.entries.as_deref(), &givens)?;
    parse_marks(body.marks.as_deref())?;
    let b = board(&givens, &entries);
    let conflicts = conflicting_cells(&b);
    let complete = b.is_full();
    Ok(Json(CheckInfo {
        wrong: wrong_entries(&entries, &solution),
        solved: complete && conflicts.is_empty(),
        conflicts,
        complete,
    }))
}

/// `POST /api/hint {"givens", "entries", "marks", "practise"}`: the next step, or the mistake
/// that blocks it; with `practise`, a step of that technique wherever the position holds one.
pub(crate) async fn hint(
    State(state): State<AppState>,
    Body(body): Body<HintBody>,
) -> Result<Json<HintInfo>, AppError> {
    // One step of the grader: bounded, so only the permit limits it.
    let info = costly(&state, move |_| hint_for(&body)).await?;
    Ok(Json(info))
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

fn hint_for(body: &HintBody) -> Result<HintInfo, AppError> {
    let practise = body
        .practise
        .as_deref()
        .map(engine::parse_practise)
        .transpose()
        .map_err(|e| AppError::BadRequest(format!("practise: {e}")))?;
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
) -> Result<HintInfo, AppError> {
    if let Some(step) = engine::next_hint(givens, entries, marks) {
        return Ok(step_hint(&step));
    }

    // Beyond the grader's techniques: reveal the empty cell with the fewest candidates.
    let cell = Cell::all()
        .filter(|&c| b.get(c).is_none())
        .min_by_key(|&c| b.candidates(c).len())
        .ok_or_else(|| AppError::Internal("no empty cell in an unfinished board".into()))?;
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

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn costly_work_stops_when_its_client_goes() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        use std::time::Duration;
        let state = AppState::new(crate::PoolConfig {
            workers: 0,
            ..crate::PoolConfig::default()
        });
        let stopped = Arc::new(AtomicBool::new(false));
        let seen = stopped.clone();
        // The work spins until told to stop; the "client" gives up after 100 ms.
        let call = costly(&state, move |stop| {
            while !stop() {
                std::thread::sleep(Duration::from_millis(1));
            }
            seen.store(true, Ordering::SeqCst);
            Ok(())
        });
        assert!(tokio::time::timeout(Duration::from_millis(100), call)
            .await
            .is_err());
        for _ in 0..200 {
            if stopped.load(Ordering::SeqCst) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(
            stopped.load(Ordering::SeqCst),
            "the work went on after its client left"
        );
        // Its permit came back: the next costly request runs.
        assert_eq!(costly(&state, |_| Ok(7)).await, Ok(7));
    }

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
