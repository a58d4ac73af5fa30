//! The shudu engine in WebAssembly, for JavaScript in browsers, Web Workers and Node.
//!
//! `crates/wasm/build.sh` builds this crate with `wasm-bindgen` into the npm package
//! (`crates/wasm/npm`, its README says how to use it); the package's `index.js` wraps these
//! exports in a JavaScript API and turns their JSON answers into objects. Each export here is a
//! thin wrapper over a function of [`calls`], which does the work in plain Rust (and is what the
//! native tests call): the same library calls the CLI makes, so the same seed gives the same
//! puzzles as `shudu generate --seed`.
//!
//! Errors are thrown as JavaScript `Error`s whose message says where the input is wrong and what
//! was expected, as the CLI's do.

pub mod calls;

use wasm_bindgen::prelude::*;

fn js(r: Result<String, String>) -> Result<String, JsError> {
    r.map_err(|e| JsError::new(&e))
}

/// The engine's version (the crate's).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Solves a puzzle line: `u` and the solution if it has one solution, `m` and one of them if it
/// has several, `n` if none.
#[wasm_bindgen(js_name = solveLine)]
pub fn solve_line(puzzle: &str) -> Result<String, JsError> {
    js(calls::solve(puzzle))
}

/// Counts the solutions of a puzzle line up to `limit`.
#[wasm_bindgen(js_name = countLine)]
pub fn count_line(puzzle: &str, limit: u32) -> Result<u32, JsError> {
    calls::count(puzzle, limit).map_err(|e| JsError::new(&e))
}

/// Solves every puzzle of a text (one a line, or any format the core reads) and answers one line
/// a record: the solution, or `error: ...` in its place.
#[wasm_bindgen(js_name = solveText)]
pub fn solve_text(text: &str) -> String {
    calls::solve_text(text)
}

/// Generates puzzles; `options` is a JSON object ([`calls::GenerateOptions`]), the answer a
/// JSON object ([`calls::Generation`]).
#[wasm_bindgen(js_name = generateJson)]
pub fn generate_json(options: &str) -> Result<String, JsError> {
    js(calls::generate(options))
}

/// Rates a puzzle on Sudoku Explainer's scale; a JSON [`calls::RateInfo`].
#[wasm_bindgen(js_name = rateJson)]
pub fn rate_json(puzzle: &str) -> Result<String, JsError> {
    js(calls::rate(puzzle))
}

/// The puzzle's solving path; a JSON [`shudu_game::explain::Trace`].
#[wasm_bindgen(js_name = explainJson)]
pub fn explain_json(puzzle: &str, named: bool) -> Result<String, JsError> {
    js(calls::explain(puzzle, named))
}

/// The canonical form of a puzzle or grid line and its automorphism count, `form automorphisms`.
#[wasm_bindgen(js_name = canonicalLine)]
pub fn canonical_line(puzzle: &str) -> Result<String, JsError> {
    js(calls::canonical(puzzle))
}

/// The levels a band's puzzles are spread over, lowest first; a JSON array of
/// [`calls::LevelInfo`].
#[wasm_bindgen(js_name = levelsJson)]
pub fn levels_json() -> String {
    calls::levels()
}

/// Answers a request of `shudu play`'s API without a server: `endpoint` is `bands`, `puzzle`,
/// `import`, `check`, `hint` or `solve`, `body` its JSON body; the answer is the JSON the server
/// would send (see [`calls::game_request`]).
#[wasm_bindgen(js_name = gameRequest)]
pub fn game_request(
    endpoint: &str,
    body: &str,
    seed: u64,
    budget_ms: u32,
) -> Result<String, JsError> {
    js(calls::game_request(endpoint, body, seed, budget_ms))
}
