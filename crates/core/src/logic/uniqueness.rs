//! Uniqueness techniques (they assume the puzzle has one solution): unique rectangles and loops
//! (4.5 and up), and the bivalue universal grave, BUG (5.6 and up).

use super::{Board, Step};

/// The first unique rectangle or loop step.
pub fn unique_loops(_board: &Board) -> Option<Step> {
    None
}

/// The first BUG step.
pub fn bug(_board: &Board) -> Option<Step> {
    None
}
