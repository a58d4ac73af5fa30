//! The shudu game in a browser: an [axum] router serving the page (embedded in the binary, so it
//! works offline) and a JSON API over the engine. `shudu play` binds a socket and serves
//! [`router`]; everything else lives here.
//!
//! # Example
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! use shudu_web::{router, AppState, PoolConfig};
//! let app = router(AppState::new(PoolConfig::default()));
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:7878").await?;
//! axum::serve(listener, app).await
//! # }
//! ```
//!
//! # The API
//! Every answer is JSON. Cells are numbered 0 to 80 in row-major order (`r1c1` is 0, `r9c9` is
//! 80); a puzzle or a set of entries is an 81-character line, digits `1`-`9` and `.` (or `0`) for
//! empty; pencil marks are 81 strings of digits, `""` for none. Request bodies are limited to
//! [`MAX_BODY_BYTES`] and must be sent as `Content-Type: application/json`; unknown fields are
//! refused so that a misspelt field is not silently ignored.
//!
//! | request | answer |
//! |---|---|
//! | `GET /api/bands` | `{"bands": ["easy", ..], "symmetries": ["none", ..]}` |
//! | `GET /api/puzzle?band=hard&symmetry=rot180` | `{"puzzle", "band", "rating": "4.2", "givens": 24, "symmetry": "rot180", "hardest": "XY-Wing"}` |
//! | `POST /api/import {"puzzle": ".."}` | `{"puzzle", "band", "rating", "givens", "hardest"}`, and `"marks"` for a pencil-mark line |
//! | `POST /api/check {"givens", "entries"}` | `{"wrong": [cells], "conflicts": [cells], "complete", "solved"}` |
//! | `POST /api/hint {"givens", "entries", "marks", "practise"}` | a hint (below) |
//! | `POST /api/solve {"puzzle": ".."}` | `{"solution": ".."}` |
//! | `GET /api/status` | the pool's stock per band |
//! | `GET /variants.html` (or `/variants`) | the variants game |
//! | `GET /api/variant/puzzle?size=9&variant=killer,x` | `{"puzzle": {"size", "variants", "regions", "cages", "givens"}, "name", "rating", "band", "hardest", "houses"}` |
//! | `POST /api/variant/check {"puzzle", "entries"}` | `{"conflicts", "complete", "solved"}` |
//! | `POST /api/variant/hint {"puzzle", "entries", "marks"}` | `{"kind", "technique", "rating", "technique_text", "where_text", "text", "cells", "houses", "placements", "eliminations", "clear", "restore_marks"}` |
//!
//! - **`/api/puzzle`**: `band` is one of `easy`, `medium`, `hard`, `fiendish`, `diabolical`,
//!   `extreme` (default `medium`); `symmetry` (optional) is one of `/api/bands`' symmetries. The
//!   puzzle has exactly one solution, which is not sent. It comes from a pool kept full in the
//!   background (see [`PoolConfig`]), so it is served at once. Easy puzzles have 32 to 36
//!   givens and medium ones 28 to 31 (givens added back to a minimal puzzle); harder bands are
//!   minimal. `hardest` is the technique of the hardest step the puzzle needs.
//!   background (see [`PoolConfig`]), so it is served at once.
//! - **`/api/puzzle?needs=x-wing`** ("practise a technique"): `needs` names techniques (comma
//!   separated, as `shudu generate --needs`; `shudu generate --list-techniques` lists them) that
//!   the puzzle's solving path must use. Such a puzzle is made on demand (milliseconds for most
//!   techniques) within the budget of costly requests, over the whole scale unless `band` is
//!   given; the answer adds `"needs": [names]`. An unknown name, or a technique rated above the
//!   band, is a 400; nothing found in the budget, a 503.
//! - **`/api/import`**: `puzzle` in any format the core reads (an 81-character line in
//!   practice). It must have exactly one solution; 0 or several is a 400 saying which. A
//!   pencil-mark (729-character) line keeps its marks: its givens are the cells with one
//!   candidate, and they must have one solution by themselves, as must the marks (no grid
//!   keeping to them, or several, is a 400); it is graded from the marks (as `shudu grade`
//!   grades it), and the answer adds `"marks"`, 81 strings of digits (`""` for a given), which
//!   the game takes as the player's pencil marks.
//! - **`/api/check`**: `entries` (optional) are the player's digits; they may repeat the givens
//!   but not differ from them. `wrong` lists entries that differ from the solution; `conflicts`
//!   lists every cell (given or entry) that repeats a digit of its row, column or box; `solved`
//!   is `complete` with no conflict, judged by the rules alone.
//! - **`/api/hint`**: `entries` and `marks` are optional. The answer has a `kind`: `step` (the
//!   grader's next step: `technique`, `rating`, `technique_text`, `where_text`, `text`, `cells`,
//!   `houses`, `placements` and `eliminations` as `{"cell", "digit"}`, where the eliminations of
//!   a direct step are those its text names; `result_text`, the outcome in plain words;
//!   `figure`, what to draw: `base` and `cover` houses, `fins` and `links` as
//!   `{"from", "to", "strong"}`, filled for fish and the one-digit patterns),
//!   `mistake` (a wrong digit, listed in `clear`, or marks that leave out a cell's digit: every
//!   candidate they leave out is in `restore_marks`, so the answer never tells which was the
//!   digit), `reveal` (no known technique applies: one cell's digit in `placements`) or
//!   `solved`. The three texts are the stages of a hint: which technique, where (houses only,
//!   never the step's cells), and the full step. Send `marks` only when they are meant to hold
//!   every candidate (the game sends them after "Fill candidates", or for the cells whose notes
//!   the player marked complete, the others without marks): a cell whose marks leave out its
//!   digit is reported as a mistake.
//! - **`/api/hint` with `practise`** (optional; a technique or family, by the names `needs`
//!   takes, such as `x-wing`): after the mistakes, the hint is a step of that technique wherever
//!   the position holds one that removes or places something, even where an easier step exists
//!   (all three stages and the figure are that step's); where it holds none, the ordinary hint.
//!   The answer adds `"practise": {"technique": "X-Wing", "found": true}` (`found` false for the
//!   ordinary hint). An unknown name is a 400 naming the field and listing the names.
//! - **`/api/solve`**: the unique solution; 0 or several solutions is a 400.
//! - **`/api/variant/...`** (the variants page, `shudu_game::variant`): cells are numbered
//!   `row * size + column` and digits written `1`-`9` then `A`-`G`. `puzzle` makes a unique
//!   puzzle of the size (4, 6, 8, 9, 12, 16; default 9) and rules asked (`x`, `windoku`,
//!   `anti-knight`, `anti-king`, `jigsaw`, `killer`), rated within
//!   [`VARIANT_RATING_BUDGET`] (`rating` null past it); `check` judges a position by the rules
//!   (repeats among cells that must differ, full cages off their sum); `hint` names wrong
//!   entries first, then gives the variant techniques' next step, or one cell's digit when none
//!   is found within the budget. The page sends `puzzle` back as it was dealt.
//!
//! # Errors
//! A failed request gets a status and `{"error": "message"}`: 400 for bad input (wrong length, a
//! character that is not a digit, a puzzle without exactly one solution, an unknown band,
//! symmetry or query field, malformed JSON), 422 for JSON of the wrong shape (a missing or unknown
//! field, a wrong type), 413 for a body over the limit, 415 without the JSON content type, 404 for
//! an unknown path, 405 for a wrong method, 503 if no puzzle of a band could be made in time, 500
//! for bugs. See [`AppError`].
//!
//! # Modules
//! - [`error`]: [`AppError`], the error answer.
//! - `api`: the handlers; their JSON shapes and the work behind them are `shudu-game`'s.
//! - `pool`: the background pool of graded puzzles per band.
//! - `assets`: the embedded page (`static/`).
//! - [`export`]: the page as a static folder that plays without a server (`shudu play --export`).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, Uri};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};

mod api;
mod assets;
pub mod bank;
use shudu_game::engine;
pub mod error;
pub mod export;
mod pool;
mod serve;

pub use engine::{givens_range, Band, Rating, Symmetry};
pub use error::AppError;
pub use pool::{Dealt, PoolConfig};
pub use serve::{serve, ServeConfig};

/// DejaVu Sans (its licence: `assets/fonts/LICENSE-DejaVu.txt`), the font of the print page,
/// which `shudu print` embeds in its PDF too, so the two printouts look alike.
pub static PRINT_FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// The largest request body accepted, in bytes: a position with every pencil mark is under 2 KiB.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// How long one costly request (grading an imported puzzle) may compute before it is given up.
pub const WORK_BUDGET: Duration = Duration::from_secs(10);

/// How long a variant puzzle's rating, or a variant hint, may search before the puzzle is dealt
/// unrated or the hint shows a cell's digit instead.
pub const VARIANT_RATING_BUDGET: Duration = Duration::from_secs(3);

/// How long a costly request waits for a free worker before it is answered 503.
pub const QUEUE_WAIT: Duration = Duration::from_millis(500);

/// What every handler shares: the puzzle pool, and the permits of costly work (grading,
/// hints): one a core but one (at least one), so costly requests never take the whole machine
/// and cheap ones (the page, `/api/bands`, `/api/puzzle` from the pool) keep a core meanwhile.
/// Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pool: Arc<pool::Pool>,
    costly: Arc<tokio::sync::Semaphore>,
}

impl AppState {
    /// Starts the pool's workers, which fill every band's shelf in the background and stop when
    /// the last clone of the state is dropped.
    pub fn new(config: PoolConfig) -> AppState {
        AppState {
            pool: Arc::new(pool::Pool::start(&config)),
            costly: Arc::new(tokio::sync::Semaphore::new(
                std::thread::available_parallelism()
                    .map_or(1, |n| n.get().saturating_sub(1).max(1)),
            )),
        }
    }

    /// Sets how many costly requests (grading, hints) may compute at once; beyond that they wait
    /// [`QUEUE_WAIT`], then get 503 with `Retry-After`. 0 refuses all of them (for tests).
    pub fn limit_costly_work(mut self, permits: usize) -> AppState {
        self.costly = Arc::new(tokio::sync::Semaphore::new(permits));
        self
    }

    /// Puts a graded puzzle on its band's shelf, as a worker would (for tests and warm starts);
    /// returns false if that shelf is full.
    pub fn add_puzzle(&self, dealt: Dealt) -> bool {
        self.pool.add(dealt)
    }
}

/// The whole application: the page, its files and the API, with the body limit applied.
pub fn router(state: AppState) -> Router {
    let mut pages = Router::new();
    for (name, body) in assets::SCRIPTS {
        pages = pages.route(
            &format!("/{name}"),
            get(move || async move { assets::script(body) }),
        );
    }
    pages
        .route("/", get(assets::index))
        .route("/index.html", get(assets::index))
        .route("/variants", get(assets::variants))
        .route("/variants.html", get(assets::variants))
        .route("/style.css", get(assets::style))
        .route("/favicon.svg", get(assets::icon))
        .route("/manifest.webmanifest", get(assets::manifest))
        .route("/fonts/DejaVuSans.ttf", get(assets::font))
        .route("/api/bands", get(api::bands))
        .route("/api/status", get(status))
        .route(
            "/api/puzzle",
            get(api::puzzle)
                .head(api::puzzle_head)
                .post(api::puzzle_post),
        )
        .route("/api/import", axum::routing::post(api::import))
        .route("/api/check", axum::routing::post(api::check))
        .route("/api/hint", axum::routing::post(api::hint))
        .route("/api/solve", axum::routing::post(api::solve))
        .route("/api/variant/puzzle", get(api::variant_puzzle))
        .route(
            "/api/variant/check",
            axum::routing::post(api::variant_check),
        )
        .route("/api/variant/hint", axum::routing::post(api::variant_hint))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

/// `GET /api/status`: fresh and served puzzles per band and symmetry.
async fn status(axum::extract::State(state): axum::extract::State<AppState>) -> impl IntoResponse {
    let shelves: Vec<_> = state
        .pool
        .stock()
        .into_iter()
        .map(|(band, sym, fresh, bank)| {
            serde_json::json!({
                "band": band.name(), "symmetry": sym.name(), "fresh": fresh, "bank": bank
            })
        })
        .collect();
    Json(serde_json::json!({ "shelves": shelves }))
}

async fn not_found(uri: Uri) -> AppError {
    AppError::Rejected(
        StatusCode::NOT_FOUND,
        format!("no such page or endpoint: {}", uri.path()),
    )
}

async fn method_not_allowed(method: axum::http::Method, uri: Uri) -> AppError {
    AppError::Rejected(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} does not accept {method}", uri.path()),
    )
}
