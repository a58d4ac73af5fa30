//! The game's JSON API (`shudu play`): arbitrary bodies POSTed to every endpoint that reads one.
//! No panic, and never a 5xx: bad input is a 4xx with a message.
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request};
use axum::Router;
use libfuzzer_sys::fuzz_target;
use shudu_web::{router, AppState, PoolConfig};
use tower::ServiceExt;

fn app() -> &'static (tokio::runtime::Runtime, Router) {
    static APP: OnceLock<(tokio::runtime::Runtime, Router)> = OnceLock::new();
    APP.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let state = AppState::new(PoolConfig {
            workers: 0,
            wait: Duration::from_millis(1),
            ..PoolConfig::default()
        });
        (runtime, router(state))
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let path = ["/api/import", "/api/check", "/api/hint", "/api/solve"][which as usize % 4];
    let (runtime, router) = app();
    let req = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_vec()))
        .expect("a request");
    let res = runtime
        .block_on(router.clone().oneshot(req))
        .expect("the router never fails");
    assert!(!res.status().is_server_error(), "{path}: {}", res.status());
});
