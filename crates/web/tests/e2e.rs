//! End-to-end: the page in a real headless Chromium, driven by `e2e/play.spec.mjs` (a game
//! played to the win), `e2e/issue16.spec.mjs` (the bugs of issue 16 and what their fixes
//! promise), `e2e/practise.spec.mjs` (hints while practising a technique) and
//! `e2e/issue38.spec.mjs` (the player complaints of issue 38), `e2e/variants.spec.mjs` (the
//! variants page: every kind dealt and drawn, a game won by hints, 16x16 on a phone), with
//! playwright-core. The server runs in this process on a free port; the scripts run one after
//! the other, as CI has two cores.
//!
//! Needs Debian's `chromium` (or `$CHROMIUM`), `node`, and `npm ci --prefix crates/web/e2e`.
//! When one is missing the test prints a notice and passes, unless `CI` is set: then it fails,
//! because CI must run it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use shudu_web::{router, AppState, PoolConfig};

/// How long each browser script may take before it is killed.
const LIMIT: Duration = Duration::from_secs(300);

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p)).filter(|p| p.exists());
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn node_works() -> bool {
    Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// What is missing to run the browser test, if anything.
fn missing(e2e: &Path) -> Option<String> {
    if chromium().is_none() {
        return Some("chromium (apt-get install -y chromium, or set CHROMIUM)".into());
    }
    if !node_works() {
        return Some("node".into());
    }
    if !e2e.join("node_modules/playwright-core").exists() {
        return Some(format!(
            "playwright-core (npm ci --prefix {})",
            e2e.display()
        ));
    }
    None
}

/// Serves the game on 127.0.0.1 with a free port, on a runtime of its own thread.
fn start_server() -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a tokio runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind a free port");
            let addr = listener.local_addr().expect("bound address");
            tx.send(format!("http://{addr}/")).expect("the test waits");
            let app = router(AppState::new(PoolConfig::default()));
            axum::serve(listener, app).await.expect("serve");
        });
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("the server starts")
}

#[test]
fn game_plays_in_headless_chromium() {
    let e2e = Path::new(env!("CARGO_MANIFEST_DIR")).join("e2e");
    if let Some(what) = missing(&e2e) {
        if std::env::var_os("CI").is_some() {
            panic!("CI is set but the browser test cannot run: {what} is missing");
        }
        // Written to the stderr handle itself, which the test harness does not capture, so the
        // notice shows in a normal `cargo test` run.
        let _ = writeln!(
            std::io::stderr(),
            "NOTICE: skipping the browser test of the game: {what} is missing"
        );
        return;
    }
    let url = start_server();
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e");
    std::fs::create_dir_all(&shots).expect("a folder for screenshots");
    // deals.spec.mjs first: it measures the first deals of a fresh server.
    for script in [
        "deals.spec.mjs",
        "play.spec.mjs",
        "issue16.spec.mjs",
        "practise.spec.mjs",
        "issue38.spec.mjs",
        "variants.spec.mjs",
    ] {
        run_script(&e2e, script, &url, &shots);
    }
}

/// Runs one browser script against the server and asserts that every check passed.
fn run_script(e2e: &Path, script: &str, url: &str, shots: &Path) {
    let mut cmd = Command::new("node");
    cmd.arg(e2e.join(script))
        .arg(url)
        .env("SHUDU_E2E_SHOTS", shots)
        .current_dir(e2e)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(c) = chromium() {
        cmd.env("CHROMIUM", c);
    }
    let mut child = cmd.spawn().expect("node starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for node") {
            break status;
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{script} took over {} s", LIMIT.as_secs());
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = child.wait_with_output().expect("node's output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{script}:\n{stdout}");
    eprintln!("{stderr}");
    assert!(
        status.success(),
        "{script} failed ({status}):\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
