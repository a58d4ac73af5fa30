//! The values of command-line options (`--givens`, `--rating`, `-r`, `--shard`, `--timeout`,
//! `--threads`, `--first-digit`): no panic, and what is accepted is in range.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shudu::args::*;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok((a, b)) = parse_givens(s) {
        assert!(a <= b && b <= 256, "{s}: {a}..{b}");
    }
    if let Ok((a, b)) = parse_rating(s) {
        assert!(a <= b, "{s}");
    }
    if let Ok((a, b)) = parse_blanks(s) {
        assert!((20..=55).contains(&a) && a <= b && b <= 55, "{s}");
    }
    if let Ok(shard) = parse_shard(s) {
        assert!(shard.index < shard.of, "{s}");
        let items = shard.items(1_000_003);
        assert!(items.start <= items.end && items.end <= 1_000_003);
    }
    let _ = parse_timeout(s);
    if let Ok(t) = parse_threads(s) {
        assert!((1..=MAX_THREADS).contains(&t));
    }
    if let Ok(d) = parse_digit(s) {
        assert!((1..=9).contains(&d.get()));
    }
});
