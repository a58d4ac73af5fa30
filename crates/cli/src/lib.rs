//! The library half of the `shudu` command: the parsers of option values ([`args`]), shared by
//! the binary and the fuzz targets, and the signals ignored at start ([`signals`]), shared by
//! the binary and its tests. Everything else of the command lives in the binary.

pub mod args;
pub mod signals;
