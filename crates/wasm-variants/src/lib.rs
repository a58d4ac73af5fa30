//! shudu's variant engine in WebAssembly: every size from 4x4 to 16x16, X, Windoku, jigsaw,
//! killer, anti-knight and anti-king, for JavaScript in browsers, Web Workers and Node.
//!
//! `crates/wasm/build.sh` builds this crate with `wasm-bindgen` into the npm package beside the
//! classic engine, as the module `shudu/variants` (`crates/wasm/npm/variants.js` wraps these
//! exports). It is a module of its own so that the classic engine, which most pages need alone,
//! stays small (docs/wasm.md, "Size"). Each export is a thin wrapper over a function of
//! [`calls`], which does the work in plain Rust (and is what the native tests call): the same
//! library calls the CLI and the Python package make, so the same seed gives the same puzzles as
//! `shudu generate --size --variant --seed`.

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

/// Counts a variant puzzle's solutions up to `limit`; `kind` is a JSON `{size, variant}`. A JSON
/// [`calls::CountInfo`].
#[wasm_bindgen(js_name = countJson)]
pub fn count_json(puzzle: &str, kind: &str, limit: u32) -> Result<String, JsError> {
    js(calls::count(puzzle, kind, limit))
}

/// Rates a variant puzzle within `budget_ms`; a JSON [`calls::RateInfo`].
#[wasm_bindgen(js_name = rateJson)]
pub fn rate_json(puzzle: &str, kind: &str, budget_ms: u32) -> Result<String, JsError> {
    js(calls::rate(puzzle, kind, budget_ms))
}

/// Generates variant puzzles; `options` is a JSON [`calls::GenerateOptions`], the answer a JSON
/// [`calls::Generation`].
#[wasm_bindgen(js_name = generateJson)]
pub fn generate_json(options: &str) -> Result<String, JsError> {
    js(calls::generate(options))
}

/// Answers `variant/puzzle`, `variant/check` or `variant/hint` of `shudu play`'s API without a
/// server (see [`calls::game_request`]).
#[wasm_bindgen(js_name = gameRequest)]
pub fn game_request(
    endpoint: &str,
    body: &str,
    seed: u64,
    budget_ms: u32,
) -> Result<String, JsError> {
    js(calls::game_request(endpoint, body, seed, budget_ms))
}
