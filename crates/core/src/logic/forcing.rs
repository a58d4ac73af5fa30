//! Nishio, multiple and dynamic forcing chains.

use super::{Board, Step};

/// Which family of forcing chains to look for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Single-digit dynamic contradictions (7.5 and up).
    Nishio,
    /// Cell and region forcing chains (8.0 and up).
    Multiple,
    /// Dynamic forcing chains (8.5 and up).
    Dynamic,
    /// Dynamic forcing chains helped by simple techniques (9.0 and up).
    DynamicPlus,
}

/// The easiest forcing chain of the given family.
pub fn forcing_chains(_board: &Board, _mode: Mode) -> Option<Step> {
    None
}
