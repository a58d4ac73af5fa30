//! Aligned exclusion: two (6.2) or three (7.5) cells that see each other, or share enough
//! peers, cannot take combinations of digits that would empty a cell they all see.

use super::{Board, Step};

/// The first aligned pair (`n = 2`) or triple (`n = 3`) exclusion.
pub fn aligned_exclusion(_board: &Board, _n: usize) -> Option<Step> {
    None
}
