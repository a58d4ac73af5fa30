//! f-puzzles documents and links (`shudu solve --fpuzzles`): no panic, and every puzzle read
//! writes back to a document and a link that read as the same puzzle.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shudu_core::variant::fpuzzles::{from_json, from_link, to_json, to_link};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    for read in [from_json(s), from_link(s)] {
        if let Ok(p) = read {
            assert_eq!(from_json(&to_json(&p, None)).as_ref(), Ok(&p));
            assert_eq!(from_link(&to_link(&p, None)).as_ref(), Ok(&p));
        }
    }
});
