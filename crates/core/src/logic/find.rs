//! A step of one chosen technique, wherever the position holds one: what a player practising
//! that technique is shown (the game's "practise a technique"), even where an easier step
//! exists, which [`next_step`](super::next_step) would give instead.
//!
//! Every technique of the catalogue ([`crate::needs::Technique`], what `shudu generate
//! --list-techniques` prints) is asked of the finder the grader uses for it, so a step found
//! here is one the grader or the hints could show: the finders of [`singles`], [`intersections`],
//! [`subsets`], [`fish`], [`wings`], [`uniqueness`], [`exclusion`], [`chains`] and [`forcing`],
//! and for the named techniques [`named::easiest_among`]. Where one finder serves several
//! techniques (unique rectangles and loops; cycles, Turbot Fish and forcing chains), it is asked
//! for the chosen one's steps only, so that another kind's easier step does not hide it.

use super::{
    chains, exclusion, fish, forcing, intersections, named, singles, subsets, uniqueness, wings,
    Board, Rating, Step,
};
use crate::bitset::{Digit, DigitSet};
use crate::needs::Technique;
use crate::solver::{solve_unique_marked, Solutions};

/// A step of technique `t` in this position (one that places a digit or removes a candidate),
/// if it holds one: the one the technique's finder takes first (the easiest by SE's order of
/// that technique's steps, the lowest rated for a named technique). `None` on a solved or
/// broken board, or where the position holds no step of `t`.
///
/// [`Technique::NestedForcingChains`] is SE's nested levels 2 to 5, tried in that order (the
/// first level that finds a step gives it, as in the grader), then the grader's last resort:
/// where no rule of the grader finds a step, the empty cell with fewest candidates placed from
/// the solution of the board's candidates, if that is unique.
///
/// The step's technique name maps back to `t`: `Technique::of_step(step.technique) ==
/// Some(t)`.
///
/// # Examples
/// ```
/// use shudu_core::{Puzzle, logic::{find_technique, next_step, Board}, needs::Technique};
/// let p: Puzzle = "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
///     .parse()?;
/// let board = Board::new(&p);
/// // The grader's next step is a hidden single in a box; a naked single is there too.
/// assert_eq!(next_step(&board).unwrap().technique, "Hidden Single");
/// let naked = find_technique(&board, Technique::NakedSingle).expect("a naked single");
/// assert_eq!(naked.technique, "Naked Single");
/// assert_eq!(Technique::of_step(naked.technique), Some(Technique::NakedSingle));
/// # Ok::<(), shudu_core::ParseError>(())
/// ```
///
/// # Complexity
/// That of the technique's finder: microseconds for singles to wings, up to milliseconds for
/// chains, ALS-XZ and forcing chains; [`Technique::NestedForcingChains`] up to seconds on the
/// hardest positions (its levels' searches, then, where they find nothing, every other rule of
/// the grader).
pub fn find_technique(board: &Board, t: Technique) -> Option<Step> {
    if board.is_solved() || board.is_broken() {
        return None;
    }
    let is_t = |name: &str| Technique::of_step(name) == Some(t);
    let locks = |direct: bool, pointing: bool| {
        intersections::Locks::new(&board.places()).step_of(board, direct, Some(pointing))
    };
    let named = |n: named::Technique| named::easiest_among(board, &[n], Rating(u16::MAX));
    let step = match t {
        Technique::FullHouse => singles::full_house(board),
        Technique::HiddenSingle => singles::hidden_single(board),
        Technique::NakedSingle => singles::naked_single(board),
        Technique::DirectPointing => locks(true, true),
        Technique::DirectClaiming => locks(true, false),
        Technique::Pointing => locks(false, true),
        Technique::Claiming => locks(false, false),
        Technique::DirectHiddenPair => subsets::hidden_set(board, 2, true),
        Technique::DirectHiddenTriplet => subsets::hidden_set(board, 3, true),
        Technique::HiddenPair => subsets::hidden_set(board, 2, false),
        Technique::HiddenTriplet => subsets::hidden_set(board, 3, false),
        Technique::HiddenQuad => subsets::hidden_set(board, 4, false),
        Technique::NakedPair => subsets::naked_set(board, 2),
        Technique::NakedTriplet => subsets::naked_set(board, 3),
        Technique::NakedQuad => subsets::naked_set(board, 4),
        Technique::XWing => fish::fish(board, 2),
        Technique::Swordfish => fish::fish(board, 3),
        Technique::Jellyfish => fish::fish(board, 4),
        Technique::XyWing => wings::xy_wing(board, false),
        Technique::XyzWing => wings::xy_wing(board, true),
        Technique::UniqueRectangle | Technique::UniqueLoop => {
            uniqueness::unique_loops_where(board, &is_t)
        }
        Technique::Bug => uniqueness::bug(board),
        Technique::AlignedPairExclusion => exclusion::aligned_exclusion(board, 2),
        Technique::AlignedTripletExclusion => exclusion::aligned_exclusion(board, 3),
        Technique::BidirectionalCycle
        | Technique::TurbotFish
        | Technique::ForcingXChain
        | Technique::ForcingChain => chains::static_chains_where(board, &is_t),
        Technique::NishioForcingChains => forcing::forcing_chains(board, forcing::Mode::Nishio),
        Technique::MultipleForcingChains => forcing::forcing_chains(board, forcing::Mode::Multiple),
        Technique::DynamicForcingChains => forcing::forcing_chains(board, forcing::Mode::Dynamic),
        Technique::DynamicForcingChainsPlus => {
            forcing::forcing_chains(board, forcing::Mode::DynamicPlus)
        }
        Technique::NestedForcingChains => nested(board),
        Technique::Skyscraper => named(named::Technique::Skyscraper),
        Technique::TwoStringKite => named(named::Technique::TwoStringKite),
        Technique::EmptyRectangle => named(named::Technique::EmptyRectangle),
        Technique::FinnedFish => named(named::Technique::FinnedFish),
        Technique::SimpleColouring => named(named::Technique::SimpleColouring),
        Technique::WWing => named(named::Technique::WWing),
        Technique::AlsXz => named(named::Technique::AlsXz),
    };
    // Each finder names its steps with names of its own technique only; the filter documents
    // the promise (and keeps it should a finder learn another kind).
    step.filter(|s| is_t(s.technique))
}

/// SE's nested forcing chains, levels 2 to 5, then the grader's last resort
/// ([`super::grade`]): where none of its rules finds a step, the empty cell with the fewest
/// candidates takes its digit in the unique solution of the board's candidates.
fn nested(board: &Board) -> Option<Step> {
    for level in 2..=5 {
        if let Some(step) = forcing::forcing_chains(board, forcing::Mode::Nested(level)) {
            return Some(step);
        }
    }
    if super::next_step_unchecked(board).is_some() {
        return None;
    }
    let marks: crate::format::Marks = std::array::from_fn(|i| match Digit::new(board.values[i]) {
        Some(d) => DigitSet::single(d),
        None => DigitSet::from_bits(board.cands[i]),
    });
    match solve_unique_marked(&board.to_puzzle(), Some(&marks)) {
        Solutions::Unique(solution) => Some(super::fallback_step(board, &solution)),
        _ => None,
    }
}
