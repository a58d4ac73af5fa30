//! Potentials ("cell c is digit d", on or off) as the chain searches name them, and what an
//! inner search hands to the outer chain of a nested forcing chain (levels 2 and 3). Below both
//! [`super::forcing`] (the outer searches) and [`super::nested`] (the inner static one).

/// Identity of a potential: `(cell * 9 + digit) * 2 + on`.
pub(crate) type Id = u16;

/// Identity of a potential, as the static chains of [`super::nested`] name it.
pub(crate) type PotId = Id;

/// Why an on potential holds, as SE's `Potential.Cause` records it: the cell's last candidate
/// (`CAUSE_CELL`), or the digit's last place in house `h` (`CAUSE_HOUSE + h`); `CAUSE_NONE` for
/// off potentials and assumptions. A nested chain rests on the candidates the outer chain
/// removed from the cells and houses of its causes (SE's `getRuleParents`).
pub(crate) const CAUSE_NONE: u8 = 0;
pub(crate) const CAUSE_CELL: u8 = 1;
pub(crate) const CAUSE_HOUSE: u8 = 2;

/// A hint found on the working grid of an outer chain: what it removes (off identities, in
/// SE's order: by row, column, digit), its rating and complexity, the on potentials of its
/// chains with their causes, and its identity.
pub(crate) struct Inner {
    pub(crate) rating: u16,
    pub(crate) complexity: usize,
    pub(crate) sort_key: u8,
    pub(crate) elims: Vec<Id>,
    pub(crate) rule_on: Vec<(Id, u8)>,
    pub(crate) key: u64,
}
