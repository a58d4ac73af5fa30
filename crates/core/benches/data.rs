//! Loads the shared puzzle sets for the benches (`../shared/data` beside the repository, or the
//! folder named by `SHUDU_DATA`).
#![allow(dead_code)] // each bench uses a part

use std::path::PathBuf;

use shudu_core::format::Reader;
use shudu_core::Puzzle;

/// `../shared/data` beside the repository, or `SHUDU_DATA`.
pub fn data_dir() -> PathBuf {
    std::env::var_os("SHUDU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"))
}

/// The puzzles of one data file, or `None` (with a notice) if the file is missing.
pub fn load(name: &str) -> Option<Vec<Puzzle>> {
    let path = data_dir().join(name);
    match std::fs::read(&path) {
        Ok(text) => Some(
            Reader::new(&text)
                .map(|r| r.expect("data file parses").puzzle)
                .collect(),
        ),
        Err(e) => {
            eprintln!("skipping {}: {e}", path.display());
            None
        }
    }
}
