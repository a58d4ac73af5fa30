//! The JSON API's handlers: each takes its request apart, lets `shudu-game` do the work (on a
//! blocking thread with a permit where it is costly) and answers. The crate docs describe each
//! endpoint; the shapes are `shudu-game`'s.

use axum::extract::{FromRequest, FromRequestParts, State};

use axum::Json;
use serde::Deserialize;
use shudu_game::{
    CheckInfo, HintBody, HintInfo, ImportInfo, Order, PositionBody, PuzzleBody, PuzzleInfo,
    PuzzleRequest, SolutionInfo,
};

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

/// `GET /api/puzzle` query: the fields of [`PuzzleRequest`] but `seen`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PuzzleQuery {
    band: Option<String>,
    symmetry: Option<String>,
    needs: Option<String>,
    practise: Option<String>,
}

impl PuzzleQuery {
    fn request(self) -> PuzzleRequest {
        PuzzleRequest {
            band: self.band,
            symmetry: self.symmetry,
            needs: self.needs,
            practise: self.practise,
            seen: Vec::new(),
        }
    }
}

/// How a message names the server's budget for costly work.
fn budget() -> String {
    format!("the server's budget of {} s", crate::WORK_BUDGET.as_secs())
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

// ---------------------------------------------------------------------------------------------
// Handlers

/// `GET /api/bands`: the bands and symmetries the other endpoints accept.
pub(crate) async fn bands() -> Json<serde_json::Value> {
    Json(shudu_game::bands())
}

/// `HEAD /api/puzzle?band=..&symmetry=..`: checks the query as `GET` does, without taking a
/// puzzle from the pool (a HEAD must not use one up).
pub(crate) async fn puzzle_head(Query(q): Query<PuzzleQuery>) -> Result<(), AppError> {
    Order::of(&q.request())?;
    Ok(())
}

/// `GET /api/puzzle?band=..&symmetry=..`: a puzzle from the pool (never one of a class the
/// pool dealt before to a client that sends no `seen` list; see [`puzzle_post`]);
/// `needs=x-wing[&band=..]` or `practise=x-wing[&band=..]`: one made to order ([`Order`]).
pub(crate) async fn puzzle(
    State(state): State<AppState>,
    Query(q): Query<PuzzleQuery>,
) -> Result<Json<PuzzleInfo>, AppError> {
    deal(&state, &q.request(), false).await.map(Json)
}

/// `POST /api/puzzle {"band", "symmetry", "needs", "practise", "seen": [keys]}`: as `GET`, and
/// never a puzzle of a class in `seen` (the page sends the keys of the puzzles it was dealt).
pub(crate) async fn puzzle_post(
    State(state): State<AppState>,
    Body(body): Body<PuzzleRequest>,
) -> Result<Json<PuzzleInfo>, AppError> {
    deal(&state, &body, true).await.map(Json)
}

/// A puzzle for `q`: made to order, or from the pool. `posted`: the client sent its `seen`
/// list (a `GET` sends none, and the pool then keeps to what it dealt before).
async fn deal(state: &AppState, q: &PuzzleRequest, posted: bool) -> Result<PuzzleInfo, AppError> {
    let seen = posted.then(|| shudu_game::seen_keys(&q.seen)).transpose()?;
    if let Some(order) = Order::of(q)? {
        let info = costly(state, move |stop| {
            let mut rng = shudu_core::grids::rng_for(rand::random(), 0);
            Ok(order.make(&mut rng, stop, &budget())?)
        })
        .await?;
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
    let (band, symmetry) = shudu_game::band_and_symmetry(q)?;
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

/// `POST /api/import {"puzzle"}`: checks and grades a puzzle from elsewhere
/// ([`shudu_game::import`]).
pub(crate) async fn import(
    State(state): State<AppState>,
    Body(body): Body<PuzzleBody>,
) -> Result<Json<ImportInfo>, AppError> {
    let info = costly(&state, move |stop| {
        Ok(shudu_game::import(&body, stop, &budget())?)
    })
    .await?;
    Ok(Json(info))
}

/// `POST /api/solve {"puzzle"}`: the unique solution.
pub(crate) async fn solve(Body(body): Body<PuzzleBody>) -> Result<Json<SolutionInfo>, AppError> {
    Ok(Json(shudu_game::solve(&body)?))
}

/// `POST /api/check {"givens", "entries"}`: wrong entries and rule conflicts.
pub(crate) async fn check(Body(body): Body<PositionBody>) -> Result<Json<CheckInfo>, AppError> {
    Ok(Json(shudu_game::check(&body)?))
}

/// `POST /api/hint {"givens", "entries", "marks", "practise"}`: the next step, or the mistake
/// that blocks it ([`shudu_game::hint`]).
pub(crate) async fn hint(
    State(state): State<AppState>,
    Body(body): Body<HintBody>,
) -> Result<Json<HintInfo>, AppError> {
    // One step of the grader: bounded, so only the permit limits it.
    let info = costly(&state, move |_| Ok(shudu_game::hint(&body)?)).await?;
    Ok(Json(info))
}

// ---------------------------------------------------------------------------------------------
// Variants

/// `GET /api/variant/puzzle?size=9&variant=killer,x`: a unique puzzle of those rules, made now
/// and rated (docs/variants.md): `{"puzzle": {"size", "variants", "regions", "cages",
/// "givens"}, "name", "rating", "band", "hardest", "houses"}`.
pub(crate) async fn variant_puzzle(
    State(state): State<AppState>,
    Query(q): Query<shudu_game::variant::VariantRequest>,
) -> Result<Json<shudu_game::variant::VariantDeal>, AppError> {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let deal = costly(&state, move |_| {
        let deadline = std::time::Instant::now() + crate::WORK_BUDGET;
        Ok(shudu_game::variant::deal(
            &q,
            seed,
            deadline,
            crate::VARIANT_RATING_BUDGET,
        )?)
    })
    .await?;
    Ok(Json(deal))
}

/// `POST /api/variant/check {"puzzle", "entries"}`: conflicts by the rules, complete, solved.
pub(crate) async fn variant_check(
    Body(body): Body<shudu_game::variant::VariantPosition>,
) -> Result<Json<shudu_game::variant::VariantCheck>, AppError> {
    Ok(Json(shudu_game::variant::check(&body)?))
}

/// `POST /api/variant/hint {"puzzle", "entries", "marks"}`: the next hint.
pub(crate) async fn variant_hint(
    State(state): State<AppState>,
    Body(body): Body<shudu_game::variant::VariantPosition>,
) -> Result<Json<shudu_game::variant::VariantHint>, AppError> {
    let hint = costly(&state, move |_| {
        let deadline = std::time::Instant::now() + crate::VARIANT_RATING_BUDGET;
        Ok(shudu_game::variant::hint(&body, deadline)?)
    })
    .await?;
    Ok(Json(hint))
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
}
