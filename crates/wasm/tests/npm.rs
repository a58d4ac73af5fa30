//! The npm package, built and tested under Node: `build.sh` compiles the engine to WebAssembly
//! and assembles the package in `target/npm-test/shudu`, then Node's own test runner runs its
//! tests (`npm/test/`), comparing with the CLI's answers (the `shudu` binary the workspace
//! built) and solving the sets of `../shared/data` when they are there.
//!
//! Then the offline game: `shudu play --export` writes the page with this package into
//! `target/npm-test/site`, and `crates/web/e2e/offline.spec.mjs` plays it in headless Chromium
//! with the network off (a new game of every band, hints, a check, and a variant game played by
//! hints).
//!
//! Needs the `wasm32-unknown-unknown` target, `wasm-bindgen` (the version Cargo.toml pins),
//! `node` and `npm`; the offline game also Chromium and `npm ci --prefix crates/web/e2e`. When
//! one is missing the test prints a notice and passes, unless `CI` is set: then it fails,
//! because CI must run it (`.ci/run` installs them).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn works(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn missing() -> Option<&'static str> {
    let targets = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    if !targets.contains("wasm32-unknown-unknown") {
        return Some(
            "the wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown)",
        );
    }
    if !works("wasm-bindgen", "--version") {
        return Some("wasm-bindgen (cargo install wasm-bindgen-cli --version 0.2.130)");
    }
    if !works("node", "--version") || !works("npm", "--version") {
        return Some("node and npm");
    }
    None
}

#[test]
fn the_npm_package_builds_and_passes_its_node_tests() {
    if let Some(what) = missing() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the npm package's tests, but {what} is missing"
        );
        eprintln!("notice: the npm package's tests were not run: {what} is missing");
        return;
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = here.join("../..");
    let out = root.join("target/npm-test/shudu");
    let status = Command::new("bash")
        .arg(here.join("build.sh"))
        .arg(&out)
        .status()
        .expect("bash runs build.sh");
    assert!(status.success(), "build.sh failed");

    // Each engine stays within the size the issue allows: the classic one, which every page
    // loads, and the variant one, which only the variants page loads.
    for file in ["engine_bg.wasm", "variants_engine_bg.wasm"] {
        let wasm = std::fs::read(out.join(file)).expect("the package has its .wasm");
        let gz = Command::new("gzip")
            .arg("-9c")
            .arg(out.join(file))
            .output()
            .expect("gzip runs");
        assert!(
            gz.stdout.len() <= 400 * 1024,
            "{file} is {} bytes gzipped ({} raw); at most 400 KB",
            gz.stdout.len(),
            wasm.len()
        );
    }

    let mut node = Command::new("node");
    node.args(["--test", "test/"]).current_dir(&out);
    let bin: PathBuf = root.join("target/debug/shudu");
    if bin.exists() {
        node.env("SHUDU_BIN", &bin);
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI compares with the CLI, but {} is not built",
            bin.display()
        );
    }
    let data = root.join("../shared/data");
    if data.join("puzzles2_17_clue").exists() {
        node.env("SHUDU_DATA", &data);
    }
    let output = node.output().expect("node runs");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "node --test failed:\n{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Every test ran: none skipped for want of the CLI or the data where CI has them.
    assert!(report.contains("# fail 0"), "{report}");
    if std::env::var_os("CI").is_some() {
        assert!(report.contains("# skipped 0"), "{report}");
    }

    offline_game(&root, &out, &bin);
}

/// The exported game in Chromium, offline.
fn offline_game(root: &Path, package: &Path, bin: &Path) {
    let e2e = root.join("crates/web/e2e");
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    let missing = if !bin.exists() {
        Some("the shudu binary (cargo build -p shudu)")
    } else if !chromium.exists() {
        Some("chromium")
    } else if !e2e.join("node_modules/playwright-core").exists() {
        Some("playwright-core (npm ci --prefix crates/web/e2e)")
    } else {
        None
    };
    if let Some(what) = missing {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must play the offline game, but {what} is missing"
        );
        eprintln!("notice: the offline game was not played: {what} is missing");
        return;
    }
    let site = root.join("target/npm-test/site");
    let status = Command::new(bin)
        .args(["play", "--export"])
        .arg(&site)
        .arg("--engine")
        .arg(package)
        .status()
        .expect("shudu runs");
    assert!(status.success(), "shudu play --export failed");
    let output = Command::new("node")
        .arg(e2e.join("offline.spec.mjs"))
        .arg(&site)
        .env("CHROMIUM", &chromium)
        .output()
        .expect("node runs");
    let report = String::from_utf8_lossy(&output.stdout);
    eprintln!("{report}");
    assert!(
        output.status.success(),
        "offline.spec.mjs failed:\n{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(report.contains("4 passed, 0 failed"), "{report}");
}
