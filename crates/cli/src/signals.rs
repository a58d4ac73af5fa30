//! Which signals the process ignored when it started, shared by the binary (which leaves such
//! a signal ignored) and the tests (which cannot interrupt a shudu whose parent ignores it).

use std::fs;

/// Whether signal `sig` was ignored when shudu started (`nohup` ignores SIGHUP; a script's
/// background job, SIGINT): a handler would undo that, so such a signal is left alone. Read
/// from the `SigIgn` mask of `/proc/self/status` (no unsafe code needed); false where there is
/// no such file.
pub fn ignored_at_start(sig: i32) -> bool {
    static MASK: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let mask = *MASK.get_or_init(|| {
        fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("SigIgn:"))
                    .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
            })
            .unwrap_or(0)
    });
    (1..=64).contains(&sig) && mask & (1 << (sig - 1)) != 0
}
