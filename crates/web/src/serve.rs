//! [`serve`]: the game's router on a socket, held against slow and abusive clients.
//!
//! `axum::serve` waits forever for a request's headers and accepts every connection. Here each
//! connection is served by hyper with a header read timeout (a client that sends half a request
//! and stops is cut off), an idle connection is closed after the same time, at most
//! [`ServeConfig::max_connections`] are open at once (further ones are closed on accept), and
//! shutdown gives the open requests [`ServeConfig::grace`] to finish before it returns.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

/// The limits of [`serve`].
#[derive(Clone, Copy, Debug)]
pub struct ServeConfig {
    /// How long a client has to send a request's headers, and how long a connection may sit
    /// idle between requests.
    pub header_timeout: Duration,
    /// The most connections open at once.
    pub max_connections: usize,
    /// How long shutdown waits for the requests in flight.
    pub grace: Duration,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            header_timeout: Duration::from_secs(10),
            max_connections: 1024,
            grace: Duration::from_millis(1500),
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then lets the requests in flight finish
/// for at most [`ServeConfig::grace`] and returns.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    config: ServeConfig,
    shutdown: impl Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(config.max_connections));
    let (stop_tx, stop_rx) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (stream, _) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of file descriptors and the like: pause rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        // Over the cap: close at once (the client sees a reset, not a hang).
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(config.header_timeout)
                .keep_alive(true);
            let conn = http.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(conn);
            // An idle keep-alive connection waits for its next request's headers under the same
            // timeout (hyper starts the header timer when it waits for a request).
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(config.grace, conn).await;
                }
            }
        });
    }
    let _ = stop_tx.send(true);
    // Every connection gives its slot back when it ends: wait for all of them, within the grace.
    let all = u32::try_from(config.max_connections).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(config.grace, slots.acquire_many(all)).await;
}
