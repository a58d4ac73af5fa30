//! What each export does, in plain Rust: strings in, strings (JSON for the structured answers)
//! or a message naming what was wrong out. The exports in the crate root wrap these for
//! JavaScript; the native tests call them directly.

use serde::{Deserialize, Serialize};
use shudu_core::canon::canonical_puzzle;
use shudu_core::generate::{generate_stream, GenerateConfig, Generated, Symmetry};
use shudu_core::logic::{rate as rate_puzzle, Band, Rating, Summary};
use shudu_core::needs::TechniqueSet;
use shudu_core::rated::{generate_rated_stream, RatedConfig, LEVELS, MAX_RATING};
use shudu_core::solver::{count_solutions, solve_unique, Solutions};
use shudu_core::time::{Duration, Instant};
use shudu_core::Puzzle;

/// The most puzzles one `generate` call makes (the answer is built in memory).
pub const MAX_COUNT: u64 = 100_000;

/// The most solutions `count` counts to.
pub const MAX_LIMIT: u32 = 1_000_000;

/// The budget of a `generate` call without `timeoutMs`: the CLI's default, 60 s.
pub const DEFAULT_TIMEOUT_MS: u64 = 60_000;

fn parse(puzzle: &str) -> Result<Puzzle, String> {
    puzzle.trim().parse::<Puzzle>().map_err(|e| e.to_string())
}

/// `u<solution>` for one solution, `m<a solution>` for several, `n` for none.
///
/// # Errors
/// The parser's message for a line that is not a puzzle.
pub fn solve(puzzle: &str) -> Result<String, String> {
    Ok(match solve_unique(&parse(puzzle)?) {
        Solutions::Unique(g) => format!("u{}", g.to_line()),
        Solutions::Multiple(g) => format!("m{}", g.to_line()),
        Solutions::None => "n".to_string(),
    })
}

/// The number of solutions, counted up to `limit` (1 to [`MAX_LIMIT`]).
///
/// # Errors
/// The parser's message, or a limit out of range.
pub fn count(puzzle: &str, limit: u32) -> Result<u32, String> {
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(format!("limit: found {limit}; expected 1 to {MAX_LIMIT}"));
    }
    let p = parse(puzzle)?;
    Ok(count_solutions(&p, limit as usize).count as u32)
}

/// Every record of `text` solved, one answer line a record in order: the solution, `none`,
/// `multiple` or `error: line L: ...`.
pub fn solve_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for record in shudu_core::format::Reader::new(text.as_bytes()) {
        match record {
            Ok(r) => match solve_unique(&r.puzzle) {
                Solutions::Unique(g) => out.push_str(&g.to_line()),
                Solutions::Multiple(_) => out.push_str("multiple"),
                Solutions::None => out.push_str("none"),
            },
            Err(e) => {
                out.push_str("error: ");
                out.push_str(&e.to_string());
            }
        }
        out.push('\n');
    }
    out
}

/// A number or a `[low, high]` pair, as `givens` and `rating` take them.
#[derive(Deserialize, Debug, Clone, Copy)]
#[serde(untagged)]
pub enum Range<T> {
    /// Exactly this value.
    One(T),
    /// From the first to the second, both included.
    Two(T, T),
}

impl<T: Copy> Range<T> {
    fn pair(self) -> (T, T) {
        match self {
            Range::One(v) => (v, v),
            Range::Two(a, b) => (a, b),
        }
    }
}

/// The options of `generate`, as `shudu generate` takes them (camelCase in JSON).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GenerateOptions {
    /// How many puzzles (1 to [`MAX_COUNT`]; 1 if absent).
    pub count: Option<u64>,
    /// The seed: the same seed and options give the same puzzles as `shudu generate --seed`.
    pub seed: u64,
    /// Exactly K givens, or `[A, B]`.
    pub givens: Option<Range<usize>>,
    /// The symmetry of the givens by name (`rot180`, ...).
    pub symmetry: Option<String>,
    /// No given can be removed without losing uniqueness.
    #[serde(default)]
    pub minimal: bool,
    /// A difficulty band by name (`easy` ... `extreme`).
    pub band: Option<String>,
    /// A rating range on Sudoku Explainer's scale, `7.5` or `[7.0, 8.5]`.
    pub rating: Option<Range<f64>>,
    /// Techniques the solving path must use, comma-separated (`"x-wing,xy-wing"`).
    pub needs: Option<String>,
    /// Techniques the solving path must not use, comma-separated.
    pub without: Option<String>,
    /// The time budget in milliseconds ([`DEFAULT_TIMEOUT_MS`] if absent).
    pub timeout_ms: Option<u64>,
}

/// A generated puzzle.
#[derive(Serialize, Debug)]
pub struct GeneratedInfo {
    /// The givens, an 81-character line.
    pub puzzle: String,
    /// Its unique solution.
    pub solution: String,
    /// How many givens.
    pub givens: usize,
    /// Its item number in the batch (the CLI's `item`).
    pub item: usize,
    /// The rating (when a band, rating or techniques were asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// The band of the rating.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<&'static str>,
    /// The technique of the hardest step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardest: Option<&'static str>,
}

/// The answer of `generate`.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Generation {
    /// The puzzles found, in item order.
    pub puzzles: Vec<GeneratedInfo>,
    /// How many were asked for.
    pub requested: usize,
    /// Whether the budget ran out before all were found.
    pub timed_out: bool,
    /// The seed used.
    pub seed: u64,
    /// Milliseconds taken.
    pub elapsed_ms: f64,
}

/// A rating as the number SE prints (tenths to units).
fn number(r: Rating) -> f64 {
    f64::from(r.0) / 10.0
}

fn rating_of(x: f64, what: &str) -> Result<Rating, String> {
    let max = number(MAX_RATING);
    if !(0.0..=max).contains(&x) {
        return Err(format!("{what}: found {x}; expected 0.0 to {max}"));
    }
    Ok(Rating((x * 10.0).round() as u16))
}

fn techniques(list: Option<&str>, what: &str) -> Result<Vec<TechniqueSet>, String> {
    match list {
        None => Ok(Vec::new()),
        Some(s) => shudu_core::needs::parse_list(s).map_err(|e| format!("{what}: {e}")),
    }
}

/// Generates puzzles as `shudu generate -n COUNT --seed SEED` with the same options does.
///
/// # Errors
/// Malformed JSON or an unknown field (named), an option out of range, or options no puzzle can
/// satisfy (the core's reason).
pub fn generate(options: &str) -> Result<String, String> {
    let o: GenerateOptions =
        serde_json::from_str(options).map_err(|e| format!("generate options: {e}"))?;
    let count = o.count.unwrap_or(1);
    if !(1..=MAX_COUNT).contains(&count) {
        return Err(format!("count: found {count}; expected 1 to {MAX_COUNT}"));
    }
    let symmetry: Symmetry = match o.symmetry.as_deref() {
        None | Some("") => Symmetry::None,
        Some(s) => s
            .parse()
            .map_err(|e: shudu_core::generate::UnknownSymmetry| format!("symmetry: {e}"))?,
    };
    let band: Option<Band> = o
        .band
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e: shudu_core::logic::BandParseError| format!("band: {e}"))?;
    let rating = match o.rating {
        None => None,
        Some(r) => {
            let (lo, hi) = r.pair();
            let (lo, hi) = (rating_of(lo, "rating")?, rating_of(hi, "rating")?);
            if lo > hi {
                return Err(format!("rating: found {lo}..{hi}; expected low <= high"));
            }
            Some((lo, hi))
        }
    };
    if band.is_some() && rating.is_some() {
        return Err("band and rating: expected one of them, not both".into());
    }
    let needs = techniques(o.needs.as_deref(), "needs")?;
    let without = techniques(o.without.as_deref(), "without")?
        .into_iter()
        .fold(TechniqueSet::EMPTY, |a, b| a | b);
    let config = GenerateConfig {
        givens: o.givens.map(Range::pair),
        symmetry,
        minimal: o.minimal,
        unique: true,
        band: None,
        automorphic: false,
    };
    // As the CLI's job: the rated search when a rating or techniques are asked for.
    let asked = rating.or(band.map(Band::range));
    let rated = match asked {
        Some(r) => Some(r),
        None if !needs.is_empty() || !without.is_empty() => Some((Rating(0), MAX_RATING)),
        None => None,
    }
    .map(|rating| RatedConfig {
        base: config.clone(),
        rating,
        needs,
        without,
    });
    match &rated {
        Some(r) => r
            .validate()
            .map_err(|e| format!("cannot generate these puzzles: {e}"))?,
        None => config
            .validate()
            .map_err(|e| format!("cannot generate these puzzles: {e}"))?,
    }
    let budget = Duration::from_millis(o.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS));
    let start = Instant::now();
    let items = 0..count as usize;
    let mut puzzles = Vec::new();
    let info = |item: usize, g: &Generated, s: Option<&Summary>| GeneratedInfo {
        puzzle: g.puzzle.to_line(),
        solution: g.solution.to_line(),
        givens: g.puzzle.givens(),
        item,
        rating: s.map(|s| number(s.er)),
        band: s.map(|s| s.band.name()),
        hardest: s.map(|s| s.hardest),
    };
    let summary = match &rated {
        Some(config) => generate_rated_stream(
            config,
            items,
            o.seed,
            Some(budget),
            &|_| {},
            &mut |i, (g, s)| -> Result<(), ()> {
                puzzles.push(info(i, &g, Some(&s)));
                Ok(())
            },
        ),
        None => generate_stream(
            &config,
            items,
            o.seed,
            Some(budget),
            &|_| {},
            &mut |i, g| -> Result<(), ()> {
                puzzles.push(info(i, &g, None));
                Ok(())
            },
        ),
    }
    .map_err(|()| "unreachable: emitting never fails".to_string())?;
    let answer = Generation {
        requested: summary.requested,
        timed_out: summary.found < summary.requested,
        puzzles,
        seed: o.seed,
        elapsed_ms: start.elapsed().as_secs_f64() * 1000.0,
    };
    serde_json::to_string(&answer).map_err(|e| e.to_string())
}

/// What `rate` answers.
#[derive(Serialize, Debug)]
pub struct RateInfo {
    /// The hardest step's rating (SE's ER).
    pub er: f64,
    /// The hardest step up to the first placement (EP).
    pub ep: f64,
    /// The first step's rating (ED).
    pub ed: f64,
    /// The band of `er`.
    pub band: &'static str,
    /// The technique of the hardest step.
    pub hardest: &'static str,
    /// How many steps the path has.
    pub steps: usize,
    /// Whether the path reached a full grid.
    pub solved: bool,
    /// Each technique used and how often, in order of first use.
    pub techniques: Vec<(&'static str, usize)>,
}

/// Rates a puzzle with one solution, as `shudu grade` does.
///
/// # Errors
/// The parser's message, or a puzzle without exactly one solution.
pub fn rate(puzzle: &str) -> Result<String, String> {
    let p = parse(puzzle)?;
    unique(&p)?;
    let s = rate_puzzle(&p);
    serde_json::to_string(&RateInfo {
        er: number(s.er),
        ep: number(s.ep),
        ed: number(s.ed),
        band: s.band.name(),
        hardest: s.hardest,
        steps: s.steps,
        solved: s.solved,
        techniques: s.techniques,
    })
    .map_err(|e| e.to_string())
}

fn unique(p: &Puzzle) -> Result<(), String> {
    match solve_unique(p) {
        Solutions::Unique(_) => Ok(()),
        Solutions::None => Err("the puzzle has no solution".into()),
        Solutions::Multiple(_) => {
            Err("the puzzle has more than one solution; logic alone cannot finish it".into())
        }
    }
}

/// The solving path, as `shudu explain --format json` prints it (`named`: `--named`).
///
/// # Errors
/// The parser's message, or a puzzle without exactly one solution.
pub fn explain(puzzle: &str, named: bool) -> Result<String, String> {
    let p = parse(puzzle)?;
    unique(&p)?;
    let trace = shudu_game::explain::explain(&p, None, named).map_err(|e| e.to_string())?;
    serde_json::to_string(&trace).map_err(|e| e.to_string())
}

/// The canonical form and automorphism count, `form automorphisms`, as `shudu canon
/// --automorphisms` prints them.
///
/// # Errors
/// The parser's message.
pub fn canonical(puzzle: &str) -> Result<String, String> {
    let c = canonical_puzzle(&parse(puzzle)?);
    Ok(format!("{} {}", c.form.to_line(), c.automorphisms))
}

/// One level of a band: the ratings of one technique or of a few alike, which a band's puzzles
/// are spread over (`shudu_core::rated::LEVELS`, docs/rated.md).
#[derive(Debug, Serialize)]
pub struct LevelInfo {
    /// The band the level lies in.
    pub band: &'static str,
    /// The lowest rating of the level.
    pub low: f64,
    /// The highest (20.0, the top of the scale, for the last).
    pub high: f64,
    /// How many of the band's puzzles head for it against the band's other levels.
    pub weight: u32,
}

/// The levels of every band, lowest first, as JSON [`LevelInfo`]s: `generate` with a level's
/// `[low, high]` as its rating asks for puzzles of that level alone.
pub fn levels() -> String {
    let all: Vec<LevelInfo> = LEVELS
        .iter()
        .map(|&(low, high, weight)| LevelInfo {
            band: Band::of(low).name(),
            low: number(low),
            high: number(high),
            weight,
        })
        .collect();
    serde_json::to_string(&all).expect("levels serialise")
}

/// Answers a request of `shudu play`'s API as the server would, without one: `bands`,
/// `puzzle` (a [`shudu_game::PuzzleRequest`]; made here, from `seed`, within `budget_ms`),
/// `import`, `check`, `hint` and `solve`. The answer is the JSON the server sends.
///
/// # Errors
/// The server's 4xx and 503 messages; an unknown endpoint.
pub fn game_request(
    endpoint: &str,
    body: &str,
    seed: u64,
    budget_ms: u32,
) -> Result<String, String> {
    fn body_of<T: serde::de::DeserializeOwned>(endpoint: &str, body: &str) -> Result<T, String> {
        serde_json::from_str(body).map_err(|e| format!("{endpoint}: {e}"))
    }
    fn answer<T: Serialize>(r: Result<T, shudu_game::GameError>) -> Result<String, String> {
        let v = r.map_err(|e| e.to_string())?;
        serde_json::to_string(&v).map_err(|e| e.to_string())
    }
    let deadline = Instant::now() + Duration::from_millis(u64::from(budget_ms));
    let stop = || Instant::now() >= deadline;
    let budget = format!("the budget of {budget_ms} ms");
    match endpoint {
        "bands" => Ok(shudu_game::bands().to_string()),
        "puzzle" => {
            let q: shudu_game::PuzzleRequest = body_of(endpoint, body)?;
            let seen = shudu_game::seen_keys(&q.seen).map_err(|e| e.to_string())?;
            let mut rng = shudu_core::grids::rng_for(seed, 0);
            let info = match shudu_game::Order::of(&q).map_err(|e| e.to_string())? {
                Some(order) => order.make(&mut rng, &stop, &budget),
                None => shudu_game::deal(&q, &seen, &mut rng, &stop, &budget),
            };
            answer(info)
        }
        "import" => answer(shudu_game::import(
            &body_of(endpoint, body)?,
            &stop,
            &budget,
        )),
        "check" => answer(shudu_game::check(&body_of(endpoint, body)?)),
        "hint" => answer(shudu_game::hint(&body_of(endpoint, body)?)),
        "solve" => answer(shudu_game::solve(&body_of(endpoint, body)?)),
        other => Err(format!(
            "unknown endpoint '{other}'; expected bands, puzzle, import, check, hint or solve"
        )),
    }
}
