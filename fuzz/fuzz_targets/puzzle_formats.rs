//! Every puzzle format the reader detects (line, grid, compact, pretty, JSON Lines, pencil marks
//! of 729 characters, text with comments), record by record: no panic, and every puzzle read
//! writes back to a line that reads as the same puzzle.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shudu_core::format::{parse_one, Reader};
use shudu_core::Puzzle;

fuzz_target!(|data: &[u8]| {
    for record in Reader::new(data).take(10_000) {
        if let Ok(r) = record {
            let line = r.puzzle.to_line();
            assert_eq!(line.parse::<Puzzle>().ok(), Some(r.puzzle), "{line}");
        }
    }
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(p) = parse_one(s) {
            assert_eq!(parse_one(&p.to_line()).ok(), Some(p));
        }
        let _ = s.parse::<Puzzle>();
    }
});
