//! The SE rating of an elimination: the cheapest chain of SE 1.2.1's that disproves the
//! candidate, asked of the grader's own chain code.
//!
//! In order of base rating, each asked only while it could still beat what was found:
//!
//! 1. a static forcing chain from "c is d" to "c is not d": X-links only (Forcing X-Chain, 6.6 +
//!    length bonus), then X and Y links (Forcing Chain, 7.0 +): `chains::Disproof`;
//! 2. a contradiction from "c is d" in SE's Nishio (7.5 +), Dynamic (8.5 +) and Dynamic (+)
//!    (9.0 +) forcing chains: `forcing::contradiction_rating`.
//!
//! SE's other rules could sometimes remove the same candidate for less (a bidirectional cycle at
//! 6.5 +, aligned pair exclusion at 6.2, a cell or region forcing chain at 8.0 + where this finds
//! only a dynamic chain); they are not asked, so a rating here is an upper bound of SE's easiest,
//! and exact for the patterns whose chain is a forcing chain (skyscraper, kite, W-Wing).

use super::super::chains::Disproof;
use super::super::forcing::{contradiction_rating, Mode};
use super::super::{Board, Rating, Step, FALLBACK_RATING};

/// Rates eliminations on one board, remembering each candidate's result.
pub(crate) struct Rater<'a> {
    board: &'a Board,
    chains: Option<Disproof>,
    /// Per candidate (cell * 9 + digit): `Known(r)` is exact; `Above(b)` means nothing rated `b`
    /// or less disproves it.
    cache: Vec<Cached>,
}

#[derive(Clone, Copy)]
enum Cached {
    Unknown,
    Known(u16),
    Above(u16),
}

impl<'a> Rater<'a> {
    pub(crate) fn new(board: &'a Board) -> Rater<'a> {
        Rater {
            board,
            chains: None,
            cache: vec![Cached::Unknown; 729],
        }
    }

    /// The step's rating (its hardest elimination's), or `None` if it is above `bound`.
    pub(crate) fn step(&mut self, step: &Step, bound: Rating) -> Option<Rating> {
        let mut worst = 0;
        for &(c, d) in &step.eliminations {
            worst = worst.max(self.elimination(c.as_index(), d.as_index(), bound.0)?);
        }
        Some(Rating(worst))
    }

    /// The rating of the cheapest SE chain disproving "`c` is `d`", if it is `bound` or less.
    fn elimination(&mut self, c: usize, d: usize, bound: u16) -> Option<u16> {
        let k = c * 9 + d;
        match self.cache[k] {
            Cached::Known(r) => return (r <= bound).then_some(r),
            Cached::Above(b) if b >= bound => return None,
            _ => {}
        }
        let r = self.search(c, d, bound);
        self.cache[k] = match r {
            Some(r) => Cached::Known(r),
            None => Cached::Above(bound),
        };
        r
    }

    fn search(&mut self, c: usize, d: usize, bound: u16) -> Option<u16> {
        let board = self.board;
        let chains = self.chains.get_or_insert_with(|| Disproof::new(board));
        let mut best = chains.rating(c, d, bound);
        for (mode, base) in [
            (Mode::Nishio, 75),
            (Mode::Dynamic, 85),
            (Mode::DynamicPlus, 90),
        ] {
            let limit = best.unwrap_or(bound);
            if base > limit || best.is_some_and(|b| b <= base) {
                break;
            }
            if let Some(r) = contradiction_rating(board, mode, c, d) {
                if r <= limit {
                    best = Some(r);
                }
            }
        }
        if best.is_none() && FALLBACK_RATING.0 <= bound {
            // No implemented SE rule disproves it: SE would need nested forcing chains.
            best = Some(FALLBACK_RATING.0);
        }
        best
    }
}
