//! Static chains: bidirectional cycles and forcing chains with X-links, Y-links or both.

use super::{Board, Step};

/// The easiest cycle or forcing chain, as SE orders them.
pub fn static_chains(_board: &Board) -> Option<Step> {
    None
}
