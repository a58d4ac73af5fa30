//! The clock that deadlines are read on: `std::time` everywhere but WebAssembly in a browser or
//! Node (`wasm32-unknown-unknown`), where `std::time::Instant::now` panics and the `web-time`
//! crate reads `performance.now()` instead. On every other target these are `std`'s own types,
//! so a deadline made with `std::time::Instant` is the same value.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::{Duration, Instant};
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::{Duration, Instant};
