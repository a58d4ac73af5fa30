//! Serves the game without the CLI, for working on the page: `cargo run -p shudu-web --example
//! serve [ADDR]` (default 127.0.0.1:7878; port 0 picks a free one).

use shudu_web::{router, AppState, PoolConfig};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:7878".to_string());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("http://{}/", listener.local_addr()?);
    axum::serve(listener, router(AppState::new(PoolConfig::default()))).await
}
