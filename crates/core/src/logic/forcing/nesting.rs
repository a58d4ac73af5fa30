//! Nesting (SE's levels 2 to 5): the whole chains an inner search finds on a stalled working
//! grid, as eliminations of the outer chain resting on the removals they pass through.

use super::*;

impl Inner {
    pub(super) fn from_found(f: Found) -> Inner {
        let mut elims: Vec<Id> = f
            .eliminations
            .iter()
            .map(|(c, d)| id(c.as_index(), d.as_index(), false))
            .collect();
        elims.sort_unstable();
        Inner {
            rating: f.rating,
            complexity: f.complexity,
            sort_key: f.sort_key,
            elims,
            rule_on: f.rule_on,
            key: f.key,
        }
    }
}

/// SE's `getAdvancedPotentials` beyond the simple techniques, for an outer chain of `level` 2
/// or more whose propagation stalled with working candidates `cur` (the outer board's are
/// `orig`). The chains of the next family that finds any are sorted as SE sorts hints (rating,
/// complexity, kind; stable), and each turns off what it removes, resting on the candidates
/// the outer chain removed from the cells and houses its strong links pass through (SE's
/// `getRuleParents`); a chain resting on none is skipped, as it exists without the outer chain.
///
/// The families by level: 2, SE's "Forcing Chains & Cycles"; 3, those, then multiple (cell and
/// region) forcing chains; 4, dynamic forcing chains; 5 and up, dynamic forcing chains, then
/// dynamic forcing chains of level `level - 3`.
pub(super) fn nested_offs(
    board: &Board,
    level: u8,
    cur: &[u16; 81],
    orig: &[u16; 81],
    clean: bool,
    clean_multiple: bool,
    budget: &Budget,
) -> Vec<(Id, Vec<Id>, Option<Nest>)> {
    let mut inner = board.clone();
    inner.cands = *cur;
    inner.explain = false;
    let families: &[Family] = match level {
        2 => &[Family::Static],
        3 => &[Family::Static, Family::Forcing(Mode::Multiple)],
        4 => &[Family::Forcing(Mode::Dynamic)],
        l => &[
            Family::Forcing(Mode::Dynamic),
            Family::Forcing(Mode::Nested(l - 3)),
        ],
    };
    for fam in families {
        let mut hints: Vec<Inner> = match *fam {
            Family::Static => {
                crate::logic::nested::static_hints(&inner, clean.then_some(orig), budget)
            }
            Family::Forcing(m) => {
                // Level 3's multiple chains on a board that had none: only those resting on a
                // removal can count, so the others need not be made.
                let prune = (m == Mode::Multiple && clean_multiple).then(|| Prune {
                    orig,
                    reach: crate::logic::nested::new_link_reach(&inner, orig),
                });
                all_chains(&inner, m, true, prune.as_ref(), budget)
                    .into_iter()
                    .map(Inner::from_found)
                    .collect()
            }
        };
        if budget.spent() {
            return Vec::new();
        }
        hints.sort_by_key(|h| (h.rating, h.complexity, h.sort_key));
        let mut out = Vec::new();
        let mut parents: Vec<Id> = Vec::new();
        for h in &hints {
            parents.clear();
            for &(p, cause) in &h.rule_on {
                let (c, d) = (id_cell(p), id_digit(p));
                if cause == CAUSE_CELL {
                    for v in bits(orig[c] & !cur[c]) {
                        let q = id(c, v, false);
                        if !parents.contains(&q) {
                            parents.push(q);
                        }
                    }
                } else if cause >= CAUSE_HOUSE {
                    for &o in &HOUSE_CELLS[(cause - CAUSE_HOUSE) as usize] {
                        let o = o as usize;
                        if orig[o] >> d & 1 == 1 && cur[o] >> d & 1 == 0 {
                            let q = id(o, d, false);
                            if !parents.contains(&q) {
                                parents.push(q);
                            }
                        }
                    }
                }
            }
            if parents.is_empty() {
                continue;
            }
            let nest = Nest {
                key: h.key,
                complexity: h.complexity as u32,
            };
            for &e in &h.elims {
                out.push((e, parents.clone(), Some(nest)));
            }
        }
        if !out.is_empty() {
            return out;
        }
    }
    Vec::new()
}

/// What an inner multiple search (level 3) on a working grid may skip, when the outer board has
/// no multiple forcing chain: a cell or region forcing chain whose cell (or house) lost no
/// candidate and none of whose branches can reach a strong link the outer board lacks would
/// rest on no removal (SE's rule parents would be empty), so it is skipped anyway.
pub(crate) struct Prune<'a> {
    orig: &'a [u16; 81],
    /// Bit 0 per identity: it reaches a new strong link (`nested::new_link_reach`).
    reach: Vec<u8>,
}

impl Prune<'_> {
    pub(super) fn cell_useful(&self, board: &Board, c: usize) -> bool {
        self.orig[c] != board.cands[c]
            || bits(board.cands[c]).any(|v| self.reach[id(c, v, true) as usize] & 1 != 0)
    }

    pub(super) fn region_useful(&self, board: &Board, h: usize, d: usize) -> bool {
        HOUSE_CELLS[h].iter().any(|&o| {
            let o = o as usize;
            let (had, has) = (self.orig[o] >> d & 1 == 1, board.cands[o] >> d & 1 == 1);
            (had && !has) || (has && self.reach[id(o, d, true) as usize] & 1 != 0)
        })
    }
}

#[derive(Clone, Copy)]
pub(super) enum Family {
    Static,
    Forcing(Mode),
}
