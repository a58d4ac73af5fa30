//! The time budget of one grading step, which the forcing chains' searches check between their
//! units of work (docs/logic.md, "Bounds: nothing hangs").

use std::cell::Cell as Flag;

/// A time budget inside a step: `stop()` is asked between the units of a search (each cell's
/// assumptions, each stall of a propagation that would start an inner search), and once it says
/// so every search of the step gives up at its next check and the step is discarded. A nested
/// step of level 4 or 5 can take seconds; this is what lets [`super::rate_until`] stop inside
/// one. Once spent, a budget stays spent (`stop` is not asked again).
pub(crate) struct Budget<'a> {
    stop: &'a dyn Fn() -> bool,
    spent: Flag<bool>,
}

/// The stop of an unlimited budget.
fn never() -> bool {
    false
}

impl<'a> Budget<'a> {
    /// A budget that ends when `stop()` says so.
    pub(crate) fn new(stop: &'a dyn Fn() -> bool) -> Budget<'a> {
        Budget {
            stop,
            spent: Flag::new(false),
        }
    }

    /// A budget that never ends.
    pub(crate) fn unlimited() -> Budget<'static> {
        Budget::new(&never)
    }

    /// Whether the budget is spent, asking `stop()` if it was not yet.
    pub(crate) fn check(&self) -> bool {
        if !self.spent.get() && (self.stop)() {
            self.spent.set(true);
        }
        self.spent.get()
    }

    /// Whether an earlier [`Budget::check`] found the budget spent (without asking again).
    pub(crate) fn spent(&self) -> bool {
        self.spent.get()
    }
}
