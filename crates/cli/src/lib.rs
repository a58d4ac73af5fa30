//! The library half of the `shudu` command: the parsers of option values ([`args`]), shared by
//! the binary and the fuzz targets. Everything else of the command lives in the binary.

pub mod args;
