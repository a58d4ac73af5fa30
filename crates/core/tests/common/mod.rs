//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod canon_oracle;
pub mod oracle;

use std::path::PathBuf;

use shudu_core::format::Reader;
use shudu_core::Puzzle;

/// `../shared/data` beside the repository (or `SHUDU_DATA`).
pub fn data_dir() -> PathBuf {
    std::env::var_os("SHUDU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"))
}

/// The puzzles of a shared data file. Panics in CI if the file is missing; elsewhere returns
/// `None` after a notice, so a checkout without `shared/` still runs the other tests.
pub fn load(name: &str) -> Option<Vec<Puzzle>> {
    let path = data_dir().join(name);
    match std::fs::read(&path) {
        Ok(text) => Some(
            Reader::new(&text)
                .map(|r| r.unwrap_or_else(|e| panic!("{name}: {e}")).puzzle)
                .collect(),
        ),
        Err(e) if std::env::var_os("CI").is_some() => panic!("{}: {e}", path.display()),
        Err(e) => {
            eprintln!("notice: skipping {}: {e}", path.display());
            None
        }
    }
}
