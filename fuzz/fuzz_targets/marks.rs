//! Pencil marks (`shudu hint --marks`, the web API's and Python's `marks`): no panic; what is
//! accepted has 81 non-empty sets (an empty field is a cell without marks: every candidate).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shudu_core::format::parse_marks;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let fields: Vec<&str> = s.split(',').collect();
    if let Ok(marks) = parse_marks(&fields) {
        assert_eq!(fields.len(), 81);
        assert!(marks.iter().all(|m| !m.is_empty()));
    }
});
