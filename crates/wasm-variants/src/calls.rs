//! What each export does, in plain Rust: strings in, JSON or a message naming what was wrong out.
//! The exports in the crate root wrap these for JavaScript; the native tests call them directly.

use serde::{Deserialize, Serialize};
use shudu_core::generate::Symmetry;
use shudu_core::logic::{Band, Rating};
use shudu_core::time::{Duration, Instant};
use shudu_core::variant::{
    self, count_solutions, fpuzzles, logic, VariantGenerateError, VariantPuzzle, Variants,
};

/// The most puzzles one `generate` call makes (the answer is built in memory).
pub const MAX_COUNT: u64 = 10_000;

/// The most solutions `count` counts to.
pub const MAX_LIMIT: u32 = 1_000_000;

/// The budget of a `generate` call without `timeoutMs`: the CLI's default, 60 s.
pub const DEFAULT_TIMEOUT_MS: u64 = 60_000;

/// How long `generate` with a band or rating rates one puzzle before passing it over, as
/// `shudu generate --difficulty` does for variants.
pub const RATE_BUDGET_MS: u64 = 3_000;

/// The size and rule names of a call: `variant` is a comma-separated list (`"killer,x"`).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct Kind {
    /// 4, 6, 8, 9, 12 or 16 (9 if absent).
    pub size: Option<usize>,
    /// Rule names, comma-separated: x, windoku, anti-knight, anti-king, jigsaw, killer.
    pub variant: Option<String>,
}

impl Kind {
    fn read(json: &str) -> Result<Kind, String> {
        if json.trim().is_empty() {
            return Ok(Kind::default());
        }
        serde_json::from_str(json).map_err(|e| format!("options: {e}"))
    }

    fn names(&self) -> Vec<String> {
        split_names(self.variant.as_deref())
    }

    fn puzzle(&self, text: &str) -> Result<VariantPuzzle, String> {
        variant::read_puzzle(text, self.size.unwrap_or(9), &self.names())
    }
}

fn split_names(list: Option<&str>) -> Vec<String> {
    list.unwrap_or("")
        .split(',')
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A puzzle written every way a caller may want it.
#[derive(Serialize, Debug)]
pub struct Written {
    /// The line format (digits, then letters from 10; `.` empty), when the rules fit it: not
    /// for jigsaw regions or killer cages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    /// The f-puzzles link (SudokuPad reads it too), which holds every rule.
    pub link: String,
}

fn written(p: &VariantPuzzle) -> Written {
    Written {
        line: (p.rules().regions().is_none() && p.rules().cages().is_empty()).then(|| p.to_line()),
        link: fpuzzles::to_link(p, None),
    }
}

fn solution_line(p: &VariantPuzzle, s: Vec<u8>) -> String {
    VariantPuzzle::new(p.rules().clone(), s)
        .expect("a solution has digits of the size")
        .to_line()
}

/// The answer of `count`.
#[derive(Serialize, Debug)]
pub struct CountInfo {
    /// Solutions found, up to the limit.
    pub count: usize,
    /// The first solution found, in the line format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
}

/// Counts the solutions of a variant puzzle (the line format under `kind`, or an f-puzzles
/// document or link) up to `limit`.
///
/// # Errors
/// A puzzle, size, variant name or limit that does not fit, named.
pub fn count(puzzle: &str, kind: &str, limit: u32) -> Result<String, String> {
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(format!("limit: found {limit}; expected 1 to {MAX_LIMIT}"));
    }
    let p = Kind::read(kind)?.puzzle(puzzle)?;
    let c = count_solutions(&p, limit as usize);
    let info = CountInfo {
        count: c.count,
        solution: c.solution.map(|s| solution_line(&p, s)),
    };
    Ok(serde_json::to_string(&info).expect("plain data"))
}

/// The answer of `rate`.
#[derive(Serialize, Debug)]
pub struct RateInfo {
    /// The hardest step, on Sudoku Explainer's scale.
    pub er: f64,
    /// The hardest step up to the first placement.
    pub ep: f64,
    /// The first step.
    pub ed: f64,
    /// The band of `er`.
    pub band: &'static str,
    /// The technique of the hardest step.
    pub hardest: &'static str,
    /// How many steps the path takes.
    pub steps: usize,
    /// Each technique of the path and how many times it is used, in order of first use.
    pub techniques: Vec<(&'static str, usize)>,
}

fn value(r: Rating) -> f64 {
    f64::from(r.0) / 10.0
}

/// Rates a variant puzzle with the variant techniques (`shudu grade --size --variant`) within
/// `budget_ms`.
///
/// # Errors
/// A puzzle that does not read, has no or several solutions, or is not rated in time.
pub fn rate(puzzle: &str, kind: &str, budget_ms: u32) -> Result<String, String> {
    let p = Kind::read(kind)?.puzzle(puzzle)?;
    match count_solutions(&p, 2).count {
        0 => return Err("the puzzle has no solution; only puzzles with one are rated".into()),
        1 => {}
        _ => {
            return Err(
                "the puzzle has more than one solution; only puzzles with one are rated".into(),
            )
        }
    }
    let g = logic::grade_until(
        &p,
        Instant::now() + Duration::from_millis(u64::from(budget_ms)),
    );
    if !g.solved {
        return Err(if g.out_of_time {
            format!(
                "not rated within {budget_ms} ms (the path reached {})",
                g.er
            )
        } else {
            "not rated: no technique applies".to_string()
        });
    }
    let mut techniques: Vec<(&'static str, usize)> = Vec::new();
    for s in &g.steps {
        match techniques.iter_mut().find(|t| t.0 == s.technique) {
            Some(t) => t.1 += 1,
            None => techniques.push((s.technique, 1)),
        }
    }
    let info = RateInfo {
        er: value(g.er),
        ep: value(g.ep),
        ed: value(g.ed),
        band: g.band.name(),
        hardest: g.hardest(),
        steps: g.steps.len(),
        techniques,
    };
    Ok(serde_json::to_string(&info).expect("plain data"))
}

/// A number or a `[low, high]` pair.
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

/// The options of `generate`, as `shudu generate --size --variant` takes them (camelCase).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GenerateOptions {
    /// 4, 6, 8, 9, 12 or 16 (9 if absent).
    pub size: Option<usize>,
    /// Rule names, comma-separated.
    pub variant: Option<String>,
    /// How many puzzles (1 to [`MAX_COUNT`]; 1 if absent).
    pub count: Option<u64>,
    /// The seed: the same seed and options give the same puzzles as the CLI.
    pub seed: u64,
    /// Exactly K givens, or `[A, B]`.
    pub givens: Option<Range<usize>>,
    /// The symmetry of the givens by name.
    pub symmetry: Option<String>,
    /// No given can be removed without losing uniqueness.
    #[serde(default)]
    pub minimal: bool,
    /// Killer: the largest cage.
    pub cages: Option<usize>,
    /// A band of the variant rating (`easy` ... `extreme`).
    pub band: Option<String>,
    /// A range of the variant rating, `3.0` or `[2.6, 4.0]`.
    pub rating: Option<Range<f64>>,
    /// The time budget in milliseconds ([`DEFAULT_TIMEOUT_MS`] if absent).
    pub timeout_ms: Option<u64>,
}

/// A generated variant puzzle.
#[derive(Serialize, Debug)]
pub struct GeneratedInfo {
    /// Its item number in the batch (the CLI's order).
    pub item: u64,
    /// The puzzle.
    #[serde(flatten)]
    pub puzzle: Written,
    /// Its unique solution, in the line format.
    pub solution: String,
    /// How many givens.
    pub givens: usize,
    /// The rating, when a band or rating was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// The band of the rating.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<&'static str>,
}

/// The answer of `generate`.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Generation {
    /// The puzzles found.
    pub puzzles: Vec<GeneratedInfo>,
    /// How many were asked for.
    pub requested: u64,
    /// Whether the budget ran out before all were found.
    pub timed_out: bool,
    /// Puzzles made (with a band or rating: made and rated, in range or not).
    pub made: u64,
    /// The seed used.
    pub seed: u64,
    /// Milliseconds taken.
    pub elapsed_ms: f64,
}

fn rating_of(x: f64) -> Result<Rating, String> {
    if !(0.0..=20.0).contains(&x) {
        return Err(format!("rating: found {x}; expected 0.0 to 20.0"));
    }
    Ok(Rating((x * 10.0).round() as u16))
}

/// Generates variant puzzles as `shudu generate --size --variant -n COUNT --seed SEED` does:
/// item by item, or, with a band or rating, made and rated in order until enough fall in it.
///
/// # Errors
/// Malformed JSON or an unknown field (named), an option out of range, or a request no puzzle
/// can satisfy.
pub fn generate(options: &str) -> Result<String, String> {
    let start = Instant::now();
    let o: GenerateOptions =
        serde_json::from_str(options).map_err(|e| format!("generate options: {e}"))?;
    let count = o.count.unwrap_or(1);
    if !(1..=MAX_COUNT).contains(&count) {
        return Err(format!("count: found {count}; expected 1 to {MAX_COUNT}"));
    }
    let names = split_names(o.variant.as_deref());
    let v = Variants::parse(o.size.unwrap_or(9), &names)
        .map_err(|e| format!("{}: {e}", e.argument()))?;
    let symmetry: Symmetry = match o.symmetry.as_deref() {
        None | Some("") => Symmetry::None,
        Some(s) => s
            .parse()
            .map_err(|e: shudu_core::generate::UnknownSymmetry| format!("symmetry: {e}"))?,
    };
    let config = v.config(o.givens.map(Range::pair), symmetry, o.minimal, o.cages)?;
    let range = match (o.band.as_deref(), o.rating) {
        (Some(_), Some(_)) => return Err("band and rating: give one or the other".into()),
        (Some(b), None) => {
            let b: Band = b
                .parse()
                .map_err(|e: shudu_core::logic::BandParseError| format!("band: {e}"))?;
            Some(b.range())
        }
        (None, Some(r)) => {
            let (lo, hi) = r.pair();
            let (lo, hi) = (rating_of(lo)?, rating_of(hi)?);
            if lo > hi {
                return Err(format!("rating: the range {lo}..{hi} is empty"));
            }
            Some((lo, hi))
        }
        (None, None) => None,
    };
    let budget = o.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
    let deadline = start + Duration::from_millis(budget);
    let mut puzzles = Vec::new();
    let mut item = 0u64;
    let mut timed_out = false;
    while (puzzles.len() as u64) < count {
        let p = match v.generate(&config, o.seed, item, deadline) {
            Ok(p) => p,
            Err(VariantGenerateError::Timeout { .. }) => {
                timed_out = true;
                break;
            }
            Err(e) => return Err(format!("cannot generate these puzzles: {e}")),
        };
        item += 1;
        let rated = match range {
            None => None,
            Some((lo, hi)) => {
                let until = deadline.min(Instant::now() + Duration::from_millis(RATE_BUDGET_MS));
                let g = logic::grade_until(&p, until);
                if !(g.solved && g.er >= lo && g.er <= hi) {
                    if Instant::now() >= deadline {
                        timed_out = true;
                        break;
                    }
                    continue;
                }
                Some(g)
            }
        };
        let solution = count_solutions(&p, 1)
            .solution
            .expect("a generated puzzle has its solution");
        puzzles.push(GeneratedInfo {
            item: item - 1,
            puzzle: written(&p),
            solution: solution_line(&p, solution),
            givens: p.cells().iter().filter(|&&d| d != 0).count(),
            rating: rated.as_ref().map(|g| value(g.er)),
            band: rated.as_ref().map(|g| g.band.name()),
        });
    }
    let answer = Generation {
        puzzles,
        requested: count,
        timed_out,
        made: item,
        seed: o.seed,
        elapsed_ms: start.elapsed().as_secs_f64() * 1000.0,
    };
    Ok(serde_json::to_string(&answer).expect("plain data"))
}

/// Answers a request of `shudu play`'s variant API as the server would, without one:
/// `variant/puzzle` (a [`shudu_game::variant::VariantRequest`]; made here from `seed` within
/// `budget_ms`, rated within at most 3 s as the server does), `variant/check` and
/// `variant/hint`. The answer is the JSON the server sends.
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
    let budget = Duration::from_millis(u64::from(budget_ms));
    let rating = budget.min(Duration::from_secs(3));
    match endpoint {
        "variant/puzzle" => {
            let q: shudu_game::variant::VariantRequest = body_of(endpoint, body)?;
            answer(shudu_game::variant::deal(
                &q,
                seed,
                Instant::now() + budget,
                rating,
            ))
        }
        "variant/check" => answer(shudu_game::variant::check(&body_of(endpoint, body)?)),
        "variant/hint" => answer(shudu_game::variant::hint(
            &body_of(endpoint, body)?,
            Instant::now() + rating,
        )),
        other => Err(format!(
            "unknown endpoint '{other}'; expected variant/puzzle, variant/check or variant/hint"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(s: &str) -> serde_json::Value {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn generated_puzzles_are_unique_and_read_back_from_their_links() {
        for variant in ["", "x", "killer", "jigsaw", "anti-knight"] {
            let g = generate(&format!(
                r#"{{"size": 6, "variant": "{variant}", "count": 3, "seed": 7}}"#
            ))
            .unwrap();
            let g = json(&g);
            let puzzles = g["puzzles"].as_array().unwrap();
            assert_eq!(puzzles.len(), 3, "{variant}: {g}");
            for p in puzzles {
                let link = p["link"].as_str().unwrap();
                let c = json(&count(link, "", 3).unwrap());
                assert_eq!(c["count"], 1, "{variant}: {link}");
                assert_eq!(c["solution"], p["solution"], "{variant}");
                assert_eq!(
                    p.get("line").is_some(),
                    !matches!(variant, "killer" | "jigsaw"),
                    "{variant}: {p}"
                );
            }
        }
    }

    #[test]
    fn a_band_is_kept_and_rated() {
        let g = json(
            &generate(r#"{"size": 6, "variant": "x", "count": 2, "seed": 1, "band": "easy"}"#)
                .unwrap(),
        );
        for p in g["puzzles"].as_array().unwrap() {
            assert_eq!(p["band"], "easy", "{p}");
            let line = p["line"].as_str().unwrap();
            let r = json(&rate(line, r#"{"size": 6, "variant": "x"}"#, 10_000).unwrap());
            assert_eq!(r["er"], p["rating"]);
        }
    }

    #[test]
    fn bad_input_is_named() {
        let cases = [
            (count("...", r#"{"size": 6}"#, 2), "3 cells, expected 36"),
            (count("", r#"{"size": 7}"#, 2), "size:"),
            (
                count("", r#"{"size": 6, "variant": "hexagon"}"#, 2),
                "unknown variant 'hexagon'",
            ),
            (
                count(&".".repeat(36), r#"{"size": 6, "variant": "killer"}"#, 2),
                "f-puzzles",
            ),
            (count("", r#"{"sise": 6}"#, 2), "unknown field `sise`"),
            (count(&".".repeat(81), "", 0), "limit"),
            (
                rate(&".".repeat(36), r#"{"size": 6}"#, 100),
                "more than one solution",
            ),
            (generate(r#"{"seed": 1, "count": 0}"#), "count"),
            (
                generate(r#"{"seed": 1, "size": 6, "givens": 99}"#),
                "givens",
            ),
            (generate(r#"{"seed": 1, "band": "tricky"}"#), "band:"),
            (generate(r#"{"seed": 1, "rating": [5, 2]}"#), "is empty"),
            (generate(r#"{"seed": 1, "symmetry": "spiral"}"#), "symmetry"),
            (
                game_request("variant/puzzle", r#"{"size": 5}"#, 1, 1000),
                "size",
            ),
            (game_request("puzzle", "{}", 1, 1000), "unknown endpoint"),
        ];
        for (r, want) in cases {
            let e = r.expect_err(want);
            assert!(e.contains(want), "{e:?} does not say {want:?}");
        }
    }

    #[test]
    fn a_budget_too_short_says_so() {
        let g = json(&generate(r#"{"seed": 3, "size": 16, "count": 50, "timeoutMs": 1}"#).unwrap());
        assert_eq!(g["timedOut"], true, "{g}");
        assert!(g["puzzles"].as_array().unwrap().len() < 50);
    }

    #[test]
    fn the_game_requests_answer_as_the_server_does() {
        let deal = json(
            &game_request(
                "variant/puzzle",
                r#"{"size": 6, "variant": "killer,x"}"#,
                5,
                5000,
            )
            .unwrap(),
        );
        let spec = &deal["puzzle"];
        assert_eq!(spec["size"], 6);
        assert!(!spec["cages"].as_array().unwrap().is_empty());
        let empty = ".".repeat(36);
        let body = serde_json::json!({"puzzle": spec, "entries": empty}).to_string();
        let check = json(&game_request("variant/check", &body, 0, 1000).unwrap());
        assert_eq!(check["solved"], false, "{check}");
        let hint = json(&game_request("variant/hint", &body, 0, 5000).unwrap());
        assert!(hint["technique"].is_string(), "{hint}");
    }
}
