//! The calibration rows the probes (`grade_probe`, `rule_probe`) work on: the rows of
//! `se_calibration.tsv` from the source named by `LOGIC_SOURCE` (default `qqwing-expert`) whose
//! SE rating lies in `LOGIC_ER=A..B` (default all). The data folder is `$SHUDU_DATA`, else
//! `shared/data` next to the repository.

use std::path::PathBuf;

use shudu_core::Puzzle;

/// The source's name and its puzzles, in file order.
pub fn puzzles() -> (String, Vec<Puzzle>) {
    let dir = std::env::var_os("SHUDU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    let source = std::env::var("LOGIC_SOURCE").unwrap_or_else(|_| "qqwing-expert".into());
    let (er_lo, er_hi) = match std::env::var("LOGIC_ER") {
        Ok(r) => {
            let (a, b) = r.split_once("..").expect("LOGIC_ER is A..B");
            (a.parse().expect("a rating"), b.parse().expect("a rating"))
        }
        Err(_) => (0.0, f64::MAX),
    };
    let text = std::fs::read_to_string(dir.join("se_calibration.tsv")).expect("calibration data");
    let puzzles = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let er: f64 = f.get(2).and_then(|e| e.parse().ok()).unwrap_or(0.0);
            (f.len() > 1 && f[1] == source && er >= er_lo && er <= er_hi)
                .then(|| f[0].parse().expect("puzzle parses"))
        })
        .collect();
    (source, puzzles)
}
