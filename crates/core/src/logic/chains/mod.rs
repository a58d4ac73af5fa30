//! Static chains: bidirectional cycles and forcing chains, built from X-links (a digit with two
//! places in a house) and Y-links (a cell with two candidates), in the manner of SE's `Chaining`
//! rule without the multiple and dynamic options.
//!
//! A *potential* is a candidate with a truth value: "r1c1 is 5" (on) or "r1c1 is not 5" (off).
//! From an on potential follow the off potentials it forces: the cell's other candidates (a
//! Y-link, when Y-links are enabled) and the digit's other places in the cell's three houses.
//! From an off potential follow the on potentials it forces: the cell's other candidate if the
//! cell has two (Y-link), the digit's other place in a house where it has two (X-link).
//!
//! * A **forcing chain** starts from one potential and reaches its opposite: "if r1c1 is 5 then
//!   ... r1c1 is not 5", so r1c1 is not 5 (or, from "r1c1 is not 5", it is 5). X-links only:
//!   Forcing X-Chain, 6.6 (named Turbot Fish when it has 6 nodes, which covers the skyscraper,
//!   the 2-string kite and the empty rectangle); with Y-links: Forcing Chain, 7.0.
//! * A **bidirectional cycle** is a loop of alternating links back to its start; a candidate that
//!   sees an on and an off node of the same digit on the loop is removed. X-Cycle 6.5, Y-Cycle
//!   6.5, Cycle (both kinds) 7.0.
//!
//! Each rating adds SE's length bonus for the number of distinct nodes (see `docs/logic.md`).
//! The search is breadth first from every candidate, so it is bounded by the 1,458 potentials.

use super::{
    cell, digit, length_bonus, Board, Rating, Step, CELL_HOUSES, HOUSE_MASK, PEERS, PEER_MASK,
};
use crate::bitset::{Cell, Digit};

mod depth;
mod links;
mod search;
#[cfg(test)]
mod tests;

use depth::*;
pub(super) use links::count9;
use links::*;
use search::*;

/// Distinct potentials (with truth value) on a path.
fn distinct(path: &[Node]) -> usize {
    let mut seen = [0u64; 23];
    let mut n = 0;
    for nd in path {
        let id = ident(nd.pot, nd.on);
        if seen[id / 64] >> (id % 64) & 1 == 0 {
            seen[id / 64] |= 1 << (id % 64);
            n += 1;
        }
    }
    n
}

/// A found chain before it becomes a step.
struct Found {
    rating: u16,
    complexity: usize,
    sort_key: u8,
    technique: &'static str,
    /// The chain, target first; empty for a forcing chain until it is chosen (see `lazy`).
    path: Vec<Node>,
    /// For a forcing chain: its source, whether the source is on, and the links (y, x).
    lazy: Option<(u16, bool, bool, bool)>,
    /// SE's order among hints of one kind: the source (cell * 9 + digit), then cycles before the
    /// chain from "on" before the chain from "off", then the order cycles were found.
    order: u64,
    cycle: bool,
    placements: Vec<(Cell, Digit)>,
    eliminations: Vec<(Cell, Digit)>,
}

/// Where the searches put the hints they find: in `all` if `want` accepts the technique, and
/// then `best` is lowered to its (rating, complexity), the bound of the searches still to run.
struct Sink<'a> {
    all: &'a mut Vec<Found>,
    best: &'a mut (u16, usize),
    want: &'a dyn Fn(&str) -> bool,
}

impl Sink<'_> {
    fn push(&mut self, f: Found) {
        if (self.want)(f.technique) {
            *self.best = (*self.best).min((f.rating, f.complexity));
            self.all.push(f);
        }
    }
}

fn pot_str(nd: &Node) -> String {
    let (c, d) = (nd.pot as usize / 9, nd.pot as usize % 9);
    format!(
        "{} {} {}",
        cell(c),
        if nd.on { "is" } else { "isn't" },
        d + 1
    )
}

fn chain_text(path: &[Node]) -> String {
    path.iter()
        .rev()
        .map(pot_str)
        .collect::<Vec<_>>()
        .join(" → ")
}

/// The most distinct nodes a hint of base rating `base` may have and still come no later than
/// `best` (rating, complexity) in SE's order, which sorts hints by rating, then complexity
/// (`usize::MAX` when `best` is unbounded).
fn max_complexity(base: u16, best: (u16, usize)) -> usize {
    if best.0 == u16::MAX {
        return usize::MAX;
    }
    let mut n = 0;
    while n < 3000 && (base + length_bonus(n + 1), n + 1) <= best {
        n += 1;
    }
    n
}

/// The deepest node worth making for a forcing chain (whose complexity is its depth + 1) and
/// for a cycle (whose complexity is the depth of its end, the source again), given `best`.
fn depth_limits(base: u16, best: (u16, usize)) -> (u16, u16) {
    match max_complexity(base, best) {
        usize::MAX => (u16::MAX, u16::MAX),
        n => ((n.max(1) - 1) as u16, n as u16),
    }
}

/// Which half of SE's loop hints to look for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    /// Forcing chains (depths on bit masks: cheap, so they run first and bound the cycles).
    Chains,
    /// Bidirectional cycles.
    Cycles,
}

/// SE's loop hints for one setting of the links: cycles and forcing chains from every candidate.
/// `out.best` is the lowest (rating, complexity) found so far; searches stop where they could only
/// come later in SE's order.
fn loop_hints(search: &mut Search, (y, x): (bool, bool), part: Part, out: &mut Sink) {
    let (cycle_base, chain_base) = if x && y { (70, 70) } else { (65, 66) };
    if cycle_base.min(chain_base) > out.best.0 {
        return;
    }
    let (board, links) = (search.board, search.links);
    if y && part == Part::Chains {
        return xy_chain_hints(board, links, out, search.xy.as_ref());
    }
    // One search serves every link setting (`Search::new` clears 12 KB).
    search.y = y;
    search.x = x;
    // An off potential that forces nothing can neither extend a cycle nor close one: leave it
    // out of the cycle searches (the chains and cycles found are the same; the search is much
    // smaller, above all with Y-links only, where only bivalue cells force anything).
    let live = links.live_off(y, x);
    // Depth limits for the current best rating, recomputed only when it improves.
    let mut limits_for = (u16::MAX - 1, 0);
    let (mut cycle_limit, mut chain_limit) = (0, 0);
    for c in 0..81 {
        let m = board.cands[c];
        if board.values[c] != 0 || m.count_ones() < 2 {
            continue;
        }
        for d in super::bits(m) {
            if m.count_ones() > 2 && !x {
                continue;
            }
            let pot = (c * 9 + d) as u16;
            if limits_for != *out.best {
                limits_for = *out.best;
                cycle_limit = depth_limits(cycle_base, *out.best).1;
                chain_limit = depth_limits(chain_base, *out.best).0;
            }
            search.max_depth = cycle_limit;
            // A cycle (or a chain to "source on") closes through a link into the source: a
            // conjugate (X) or the cell's other candidate (Y). Without one, skip the search.
            let closable = (x && links.conj_len[pot as usize] > 0)
                || (y && links.mate[pot as usize] != NONE16);
            let may_cycle =
                search.cycle_ok.is_empty() || search.cycle_ok[pot as usize] & cycle_bit(y, x) != 0;
            let ends = if closable && may_cycle && part == Part::Cycles {
                // A loop through the source lies in the component of its on potential: an off
                // potential outside it leads to no loop (nor does anything made from it), so it
                // is left out like a dead end. The nodes in the component, their parents and
                // their order are the same, so the loops found are too.
                if search.cycle_comp.is_empty() {
                    search.cycles(pot, &live);
                } else {
                    let comp = &search.cycle_off[search.cycle_comp[pot as usize] as usize];
                    let keep: [u128; 9] = std::array::from_fn(|d| live[d] & comp[d]);
                    search.cycles(pot, &keep);
                }
                std::mem::take(&mut search.ends)
            } else {
                Vec::new()
            };
            for (k, &e) in ends.iter().enumerate() {
                // Most loops remove nothing: test that on masks before building the hint.
                if !search.cycle_removes_something(e) {
                    continue;
                }
                let path = search.path(e);
                if let Some(mut f) = cycle_hint(board, path, y, x) {
                    f.order = (pot as u64) << 32 | k as u64;
                    out.push(f);
                }
            }
            // The buffer goes back to the search, for the next source.
            search.ends = ends;
            if x && part == Part::Chains {
                for source_on in [true, false] {
                    if !source_on && !closable {
                        continue;
                    }
                    // X links are among the XY links: a source that reaches its opposite by
                    // none of those has no X chain.
                    if !search.chain_ok.is_empty() && !search.chain_ok[ident(pot, source_on)] {
                        continue;
                    }
                    if let Some(depth) = chain_depth(links, y, pot, source_on, chain_limit) {
                        let complexity = depth as usize + 1;
                        if let Some(mut f) = forcing_hint(board, pot, !source_on, complexity, y, x)
                        {
                            f.order = (pot as u64) << 32 | 1 << 30 | (!source_on as u64) << 29;
                            out.push(f);
                        }
                    }
                }
            }
        }
    }
}

/// The shortest forcing chains with X and Y links ([`loop_hints`] for them), from every source
/// side by side ([`shortest_xy_chains`]): the same hints as searching source after source with
/// the bound `best`, less the longer ones, which come later in SE's order.
fn xy_chain_hints(board: &Board, links: &Links, out: &mut Sink, pre: Option<&XySources>) {
    let chain_limit = depth_limits(70, *out.best).0;
    let owned;
    let (sources, found): (&[(u16, bool)], _) = match pre {
        Some((sources, reaching)) => (
            sources,
            SCRATCH
                .with_borrow_mut(|t| layers_meet(links, sources, reaching.clone(), chain_limit, t)),
        ),
        None => {
            owned = xy_sources(board, links);
            let found = shortest_xy_chains(links, &owned, chain_limit);
            (&owned, found)
        }
    };
    let Some((depth, which)) = found else {
        return;
    };
    let complexity = depth as usize + 1;
    for i in which {
        let (pot, source_on) = sources[i];
        if let Some(mut f) = forcing_hint(board, pot, !source_on, complexity, true, true) {
            f.order = (pot as u64) << 32 | 1 << 30 | (!source_on as u64) << 29;
            out.push(f);
        }
    }
}

/// The sources of the XY forcing chains, and those among them (indices) that reach their
/// opposite.
type XySources = (Vec<(u16, bool)>, Vec<usize>);

/// The sources of the XY forcing chains: every candidate of a cell with two or more, on, and
/// off if a link can force it on (a conjugate or the cell's other candidate).
fn xy_sources(board: &Board, links: &Links) -> Vec<(u16, bool)> {
    let mut sources = Vec::with_capacity(2 * 81 * 4);
    for c in 0..81 {
        let m = board.cands[c];
        if board.values[c] != 0 || m.count_ones() < 2 {
            continue;
        }
        for d in super::bits(m) {
            let pot = (c * 9 + d) as u16;
            let closable = links.conj_len[pot as usize] > 0 || links.mate[pot as usize] != NONE16;
            sources.push((pot, true));
            if closable {
                sources.push((pot, false));
            }
        }
    }
    sources
}

fn cycle_hint(board: &Board, path: Vec<Node>, y: bool, x: bool) -> Option<Found> {
    // The loop's cells: every node but the root (which repeats the first).
    let body = &path[..path.len() - 1];
    let mut in_loop = [false; 81];
    for nd in body {
        in_loop[nd.pot as usize / 9] = true;
    }
    let mut forw = [0u16; 81];
    let mut back = [0u16; 81];
    for nd in body {
        let (c, d) = (nd.pot as usize / 9, nd.pot as usize % 9);
        for &o in &PEERS[c] {
            let o = o as usize;
            if !in_loop[o] && board.cands[o] >> d & 1 == 1 {
                if nd.on {
                    forw[o] |= 1 << d;
                } else {
                    back[o] |= 1 << d;
                }
            }
        }
    }
    let mut elims = Vec::new();
    for o in 0..81 {
        for d in super::bits(forw[o] & back[o]) {
            elims.push((cell(o), digit(d)));
        }
    }
    if elims.is_empty() {
        return None;
    }
    let complexity = distinct(&path);
    let (base, technique, key) = match (x, y) {
        (true, true) => (70, "Bidirectional Cycle", 4),
        (false, true) => (65, "Bidirectional Y-Cycle", 3),
        _ => (65, "Bidirectional X-Cycle", 2),
    };
    Some(Found {
        rating: base + length_bonus(complexity),
        complexity,
        sort_key: key,
        technique,
        path,
        lazy: None,
        order: 0,
        cycle: true,
        placements: vec![],
        eliminations: elims,
    })
}

/// A forcing chain from `pot` whose target is `pot` on (`target_on`) or off, with
/// `complexity` distinct nodes; its path is found later if it is chosen.
fn forcing_hint(
    board: &Board,
    pot: u16,
    target_on: bool,
    complexity: usize,
    y: bool,
    x: bool,
) -> Option<Found> {
    let (c, d) = (pot as usize / 9, pot as usize % 9);
    let (placements, elims) = if target_on {
        (
            vec![(cell(c), digit(d))],
            super::bits(board.cands[c] & !(1 << d))
                .map(|v| (cell(c), digit(v)))
                .collect::<Vec<_>>(),
        )
    } else {
        (vec![], vec![(cell(c), digit(d))])
    };
    if elims.is_empty() {
        return None;
    }
    let (base, technique, key) = if x && y {
        (70, "Forcing Chain", 4)
    } else if complexity == 6 {
        (66, "Turbot Fish", 2)
    } else {
        (66, "Forcing X-Chain", 2)
    };
    Some(Found {
        rating: base + length_bonus(complexity),
        complexity,
        sort_key: key,
        technique,
        path: Vec::new(),
        lazy: Some((pot, !target_on, y, x)),
        order: 0,
        cycle: false,
        placements,
        eliminations: elims,
    })
}

/// The easiest cycle or forcing chain, as SE orders them: X-links only, then Y-links only, then
/// both; the lowest rating wins, then the fewest nodes, then the kind.
pub fn static_chains(board: &Board) -> Option<Step> {
    static_chains_where(board, &|_| true)
}

/// [`static_chains`] among the hints whose technique name `want` accepts (`"Turbot Fish"`,
/// `"Bidirectional Y-Cycle"`, `"Forcing X-Chain"`, `"Forcing Chain"`): the easiest of those.
/// Only those bound the searches, so one that SE would rank after another kind's is found too.
pub fn static_chains_where(board: &Board, want: &dyn Fn(&str) -> bool) -> Option<Step> {
    let links = Links::new(board);
    // One pass over the link settings, each search bounded by the best (rating, complexity)
    // found so far: SE takes the easiest hint by rating, then complexity, then kind, then its
    // own order, so a search may stop where it could only find hints that come later. Hints of
    // different link settings never tie (their kinds differ), and `order` keeps SE's order
    // within one setting, so the searches may run in any order; the cheapest bounds first:
    // X-chain depths stay on one digit (one mask per layer) and usually find a Turbot Fish or
    // a short X-chain, which then bounds the XY-chain depths and the node-by-node cycle
    // searches. (Earlier versions made passes bounded by 6.6, then 7.2, then unbounded; on
    // the qqwing-expert calibration puzzles the one pass takes 9% fewer instructions.)
    let mut all = Vec::new();
    let mut search = Search::new(board, &links, false, false);
    let mut best = (u16::MAX, usize::MAX);
    // (y, x): which links a search follows.
    let (x_only, y_only, both) = ((false, true), (true, false), (true, true));
    let mut out = Sink {
        all: &mut all,
        best: &mut best,
        want,
    };
    // Which candidates have a path of XY links to their opposite, found first in one pass
    // (`analyse`): a forcing chain, X or XY, is such a path.
    let sources = xy_sources(board, &links);
    let reaching = SCRATCH.with_borrow_mut(|t| analyse(&links, &sources, t));
    // Most chain steps of the hardest puzzles have no static chain and no useful cycle: when
    // no candidate, on, has a path of links to its off potential (every candidate is one of
    // the sources when no cell has a single candidate), no cycle can remove anything. If a
    // cycle removes candidate `o`, `o` sees a node `a` on and a node `b` off of its digit on
    // the loop; every link has its contrapositive, so the loop also holds reversed, every
    // truth value flipped, with `a` off and `b` on: "`o` on" forces "`a` off", the reversed
    // loop leads from there to "`b` on", which forces "`o` off". The links of X-only and
    // Y-only cycles are among the XY links.
    if reaching.is_empty() && board.cands.iter().all(|m| m.count_ones() != 1) {
        return None;
    }
    if shortcuts() {
        let mut ok = vec![false; 1458];
        for &i in &reaching {
            let (pot, on) = sources[i];
            ok[ident(pot, on)] = true;
        }
        search.chain_ok = ok;
    }
    search.xy = Some((sources, reaching));
    loop_hints(&mut search, x_only, Part::Chains, &mut out);
    loop_hints(&mut search, both, Part::Chains, &mut out);
    // Otherwise a cycle through a source lies in the strongly connected component of the
    // source's on potential (in the XY links, which hold the X-only and Y-only ones), and by
    // the same argument a loop that removes `o` holds an on potential `a` and an off potential
    // `b` of `o`'s digit, both seen by `o`: a component without such a pair has no useful
    // cycle, and the searches from its sources are skipped (`cycle_sources`).
    if shortcuts() {
        let filter = SCRATCH.with_borrow(|t| cycle_sources(t, &links));
        search.cycle_ok = filter.ok;
        search.cycle_comp = filter.comp;
        search.cycle_off = filter.off;
    }
    loop_hints(&mut search, x_only, Part::Cycles, &mut out);
    loop_hints(&mut search, y_only, Part::Cycles, &mut out);
    loop_hints(&mut search, both, Part::Cycles, &mut out);
    let mut best = all
        .into_iter()
        .min_by_key(|f| (f.rating, f.complexity, f.sort_key, f.order))?;
    if let Some((pot, source_on, y, x)) = best.lazy {
        // Rebuild the chosen chain node by node, in SE's order, for its cells and its text.
        let mut search = Search::new(board, &links, y, x);
        let mut chains = Vec::new();
        search.forcing(pot, source_on, &mut chains);
        if let Some((path, _)) = chains.into_iter().next() {
            debug_assert_eq!(distinct(&path), best.complexity);
            best.path = path;
        }
    }
    Some(to_step(best))
}

/// SE's shortest static forcing chains that disprove one candidate, for rating the named
/// techniques (`logic::named`): the links of one board, built once, asked about many candidates.
pub(crate) struct Disproof {
    links: Links,
}

impl Disproof {
    pub(crate) fn new(board: &Board) -> Disproof {
        Disproof {
            links: Links::new(board),
        }
    }

    /// The rating of SE's easiest static forcing chain from "`c` is `d`" to "`c` is not `d`"
    /// (the chain `static_chains` would rate for this elimination): X-links only (Forcing
    /// X-Chain, 6.6 + length bonus), else X and Y links (Forcing Chain, 7.0 + bonus). `None` if
    /// neither proves it within `bound` (in tenths).
    pub(crate) fn rating(&self, c: usize, d: usize, bound: u16) -> Option<u16> {
        let pot = (c * 9 + d) as u16;
        let mut best = None;
        for (y, base) in [(false, 66), (true, 70)] {
            let limit = best.unwrap_or(bound);
            if base > limit {
                break;
            }
            let max_depth = depth_limits(base, (limit, usize::MAX)).0;
            let depth = chain_depth(&self.links, y, pot, true, max_depth);
            if let Some(depth) = depth {
                let r = base + length_bonus(depth as usize + 1);
                if r <= limit {
                    best = Some(r);
                }
            }
        }
        best
    }
}

/// The kind of house two cells share, preferring a line: 0 row, 1 column, 2 box.
fn link_kind(a: usize, b: usize) -> usize {
    if a / 9 == b / 9 {
        0
    } else if a % 9 == b % 9 {
        1
    } else {
        2
    }
}

/// The common name of a Turbot Fish, from the houses of its two strong links: both in parallel
/// lines, a skyscraper; a row and a column, a 2-string kite; one in a box, an empty rectangle
/// (or another turbot fish).
fn turbot_shape(f: &Found) -> Option<&'static str> {
    if f.technique != "Turbot Fish" || f.path.len() != 6 {
        return None;
    }
    // path: [start off, r' on, r off, q' on, q off, start on]; strong links q→q' and r→r'.
    let c = |k: usize| f.path[k].pot as usize / 9;
    Some(match (link_kind(c(4), c(3)), link_kind(c(2), c(1))) {
        (0, 0) | (1, 1) => "a skyscraper",
        (0, 1) | (1, 0) => "a 2-string kite",
        _ => "an empty rectangle or turbot fish",
    })
}

fn to_step(f: Found) -> Step {
    let mut cells: Vec<Cell> = Vec::new();
    for nd in f.path.iter().rev() {
        let c = cell(nd.pot as usize / 9);
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    let text = if f.cycle {
        format!(
            "{}: the loop {} holds either way round, so {}",
            f.technique,
            chain_text(&f.path),
            super::elim_list(&f.eliminations)
        )
    } else {
        let start = f.path.last().expect("a chain has a start");
        let end = &f.path[0];
        let name = match turbot_shape(&f) {
            Some(shape) => format!("{} ({shape})", f.technique),
            None => f.technique.to_string(),
        };
        format!(
            "{}: if {} then {}; so {}",
            name,
            pot_str(start),
            chain_text(&f.path[..f.path.len() - 1]),
            pot_str(end)
        )
    };
    Step {
        technique: f.technique,
        rating: Rating(f.rating),
        placements: f.placements,
        shown_eliminations: vec![],
        figure: Default::default(),
        eliminations: f.eliminations,
        cells,
        houses: vec![],
        text,
    }
}
