//! `shudu play`: serves the browser game ([`shudu_web::router`]) on a local socket.

use std::net::SocketAddr;
use std::process::ExitCode;

use anyhow::Context;

/// Arguments of `shudu play`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// Address to listen on; the default keeps the game private to this machine.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on; 0 picks a free one (the URL printed says which).
    #[arg(long, default_value_t = 7878)]
    pub port: u16,
    /// Open the game in the default web browser.
    #[arg(long)]
    pub open: bool,
    /// Instead of serving, write the game into DIR as a static site that needs no server: the
    /// engine runs in the page (WebAssembly, in a Web Worker) and a service worker keeps it for
    /// offline play. Needs --engine.
    #[arg(long, value_name = "DIR", requires = "engine", conflicts_with_all = ["open"])]
    pub export: Option<std::path::PathBuf>,
    /// The npm package that crates/wasm/build.sh builds (target/npm/shudu), for --export.
    #[arg(long, value_name = "DIR", requires = "export")]
    pub engine: Option<std::path::PathBuf>,
}

/// Binds, prints the URL, and serves until interrupted (Ctrl+C).
///
/// # Errors
/// If the address does not parse, the port is taken, or the runtime cannot start.
pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    if let (Some(dir), Some(engine)) = (&args.export, &args.engine) {
        let files = shudu_web::export::export(dir, engine)?;
        outln!(
            "shudu play: wrote the offline game ({} files) to {}; serve it with any static server",
            files.len(),
            dir.display()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("shudu-play")
        .build()
        .context("cannot start the async runtime")?;
    let signal = runtime.block_on(serve(args))?;
    // Grading still running for a client that asked before the shutdown stops at its next step
    // or budget; do not wait for it to exit.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    // The reader may be gone (`shudu play | head -1`): nothing to tell then.
    let _ = outln!("shudu play: stopped");
    // As a shell reports a process the signal ended: 130 for SIGINT, 143 for SIGTERM.
    Ok(ExitCode::from(128 + signal as u8))
}

/// Serves until a stop signal; returns its number.
async fn serve(args: &PlayArgs) -> anyhow::Result<i32> {
    let host = args.host.trim_start_matches('[').trim_end_matches(']');
    let listener = tokio::net::TcpListener::bind((host, args.port))
        .await
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    let addr = listener
        .local_addr()
        .context("cannot read the bound address")?;
    let url = url_for(addr);
    outln!("shudu play: serving the game at {url}  (Ctrl+C to stop)")?;
    if !addr.ip().is_loopback() {
        outln!(
            "note: listening on {}, so other machines can reach the game",
            addr.ip()
        )?;
    }
    if args.open {
        open_browser(&url);
    }
    let app = shudu_web::router(shudu_web::AppState::new(shudu_web::PoolConfig::default()));
    // Slow headers and idle connections time out, open connections are capped, and shutdown
    // (Ctrl+C or SIGTERM) gives requests in flight 1.5 s (issue 12, items 15 and 16).
    let received = std::sync::Arc::new(std::sync::atomic::AtomicI32::new(0));
    shudu_web::serve(
        listener,
        app,
        shudu_web::ServeConfig::default(),
        stop_signal(received.clone()),
    )
    .await;
    Ok(received.load(std::sync::atomic::Ordering::SeqCst))
}

/// Completes on Ctrl+C (SIGINT) or SIGTERM, and stores which in `received`; if no handler can
/// be installed, never. A signal ignored when shudu started (`nohup`, a script's background
/// job) stays ignored.
async fn stop_signal(received: std::sync::Arc<std::sync::atomic::AtomicI32>) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let term = async {
        #[cfg(unix)]
        if crate::io::ignored_at_start(SIGTERM) {
            std::future::pending::<()>().await;
        } else {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        }
        #[cfg(not(unix))]
        std::future::pending::<()>().await;
    };
    let int = async {
        if crate::io::ignored_at_start(SIGINT) || tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    let signal = tokio::select! {
        () = term => SIGTERM,
        () = int => SIGINT,
    };
    received.store(signal, std::sync::atomic::Ordering::SeqCst);
}

/// The URL a browser on this machine should open: an unspecified address (0.0.0.0, ::) is
/// reachable as localhost.
fn url_for(addr: SocketAddr) -> String {
    match addr {
        a if a.ip().is_unspecified() => format!("http://localhost:{}/", a.port()),
        SocketAddr::V4(a) => format!("http://{}:{}/", a.ip(), a.port()),
        SocketAddr::V6(a) => format!("http://[{}]:{}/", a.ip(), a.port()),
    }
}

/// Asks the desktop to open `url`; a failure is reported, not fatal.
fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    match std::process::Command::new(program)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(_) => {}
        Err(e) => {
            eprintln!("shudu play: could not open a browser ({program}: {e}); open {url} by hand")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_for_unspecified_address_is_localhost() {
        assert_eq!(
            url_for("0.0.0.0:8080".parse().unwrap()),
            "http://localhost:8080/"
        );
        assert_eq!(
            url_for("127.0.0.1:7878".parse().unwrap()),
            "http://127.0.0.1:7878/"
        );
        assert_eq!(url_for("[::1]:7878".parse().unwrap()), "http://[::1]:7878/");
    }
}
