//! The search: guesses on the state, in the light or full mode, depth first, counting solutions
//! to a limit.

use super::*;

/// What a guess splits on.
pub(crate) enum Branch {
    /// Band, position and candidate digits of a cell.
    Cell(usize, usize, u32),
    /// A (digit, band) word and its permutations left.
    Band(usize, u8),
    /// Digit, stack and the permutations left.
    Stack(usize, usize, u8),
}

/// The search's bookkeeping.
pub(crate) struct Search<G> {
    pub(super) guesser: G,
    pub(super) limit: usize,
    pub(super) count: usize,
    pub(super) guesses: u64,
    /// Whether the search below the root propagates lightly: band updates and naked singles,
    /// a guess on the first bivalue cell. Set at the root when a band or stack is nearly fixed
    /// (its digits have at most `LIGHT_BELOW_PERMS` permutations in all, 9 being fixed): such
    /// puzzles, typically with many solutions, have shallow trees in which stack updates and
    /// triads find nothing that pays for them (docs/ALGORITHM.md, "Light search"). Set before
    /// the root, and the root propagated lightly too, for a puzzle with at least
    /// [`LIGHT_FROM_GIVENS`] givens (through the solving entry points only: `count_from`).
    pub(super) light: bool,
    pub(super) first: Option<[u8; 81]>,
}

/// A settle in rounds (at the root of a search) runs a round in vectors
/// ([`Avx512::band_round`]) when at least this many words changed, scalar band updates below:
/// a vector round costs about as much as six scalar updates. CPU medians (7 runs; 5 for `solve`)
/// with vector rounds from 1 / 3 / 6 / 10 changed words in light searches: `generate -n 5000
/// --minimal --symmetry rot180 --threads 1 --seed 1` 1.017 / 0.996 / 0.990 / 1.001 s (scalar
/// 1.127 s); from 2 / 4 / 6 / 10 / 16 in full ones: `solve --threads 1` on the permuted 17-clue
/// set 0.093 / 0.091 / 0.090 / 0.092 / 0.098 s (scalar 0.105 s).
pub(super) const VECTOR_FROM: u32 = 6;

/// The AVX-512 unit, if this CPU has one and the environment does not turn it off
/// (`SHUDU_SIMD=off`: the scalar band updates only, the same results; the tests compare both).
/// Looked for once a process.
pub(super) fn vector_unit() -> Option<Avx512> {
    pub(super) static UNIT: std::sync::OnceLock<Option<Avx512>> = std::sync::OnceLock::new();
    *UNIT.get_or_init(|| {
        if std::env::var_os("SHUDU_SIMD").is_some_and(|v| v == "off") {
            None
        } else {
            Avx512::detect()
        }
    })
}

/// The root test of [`Search::light`]: at most this many permutations left in some band or stack.
pub(super) const LIGHT_BELOW_PERMS: u8 = 15;

/// A search is light from the root, without the root test, for a puzzle with at least this many
/// givens: the root's stack updates and triads, and the permutation branch, cost more than they
/// save on puzzles so full (`puzzles7_serg_benchmark`, 34-35 givens: 13.5% fewer instructions,
/// the same guesses). The other benchmark sets have at most 29 givens but for 4 puzzles; a hard
/// puzzle among the many-givens ones still turns full after [`FULL_AFTER_GUESSES`].
pub(super) const LIGHT_FROM_GIVENS: usize = 30;

/// A light search turns to full propagation after this many guesses: the puzzle was harder
/// than the root suggested.
pub(super) const FULL_AFTER_GUESSES: u64 = 16;

impl<G: Guesser> Search<G> {
    pub(crate) fn new(guesser: G, limit: usize) -> Search<G> {
        Search {
            guesser,
            limit,
            count: 0,
            guesses: 0,
            light: false,
            first: None,
        }
    }

    /// Depth-first search from `st` until `limit` solutions are found or the tree is exhausted.
    pub(crate) fn run(&mut self, st: &mut State) {
        loop {
            // Full propagation (stack updates, triads, the permutation branch) at the root and
            // for hard puzzles; the light one below the root of a loose puzzle (see `light`).
            let full = G::STACK_UPDATES && (!self.light || self.guesses >= FULL_AFTER_GUESSES);
            // Rounds at the root only, where the givens change many words at once.
            let ok = if self.guesses == 0 {
                root_propagate(st, full)
            } else {
                st.propagate_settling(full, false)
            };
            if !ok {
                return;
            }
            if self.guesses == 0 && full {
                self.light = st.perms.iter().any(|&n| n > 9 && n <= LIGHT_BELOW_PERMS);
            }
            if st.is_solved() {
                self.count += 1;
                if self.first.is_none() {
                    self.first = Some(st.solution());
                }
                return;
            }
            let branch = if G::CAREFUL_PICK && full {
                st.pick_branch()
            } else {
                let (b, pos, digits) = st.pick(false);
                Branch::Cell(b, pos, digits)
            };
            let (b, pos, mut digits) = match branch {
                Branch::Cell(b, pos, digits) => (b, pos, digits),
                Branch::Band(w, mut perms) => {
                    while perms != 0 {
                        let p = self.guesser.band_perm(w, perms);
                        perms &= !(1 << p);
                        if perms != 0 {
                            self.guesses += 1;
                        }
                        let mut child = *st;
                        child.restrict_band(w, p);
                        self.run(&mut child);
                        if self.count >= self.limit {
                            return;
                        }
                    }
                    return;
                }
                Branch::Stack(d, s, mut perms) => {
                    while perms != 0 {
                        let p = self.guesser.stack_perm(d, s, perms);
                        perms &= !(1 << p);
                        if perms != 0 {
                            self.guesses += 1;
                        }
                        let mut child = *st;
                        child.restrict_stack(d, s, p);
                        self.run(&mut child);
                        if self.count >= self.limit {
                            return;
                        }
                    }
                    return;
                }
            };
            while digits.count_ones() > 1 {
                let d = self.guesser.choose_at(b, pos, digits);
                digits &= !(1 << d);
                self.guesses += 1;
                let mut child = *st;
                if child.place(d, b, pos) {
                    self.run(&mut child);
                    if self.count >= self.limit {
                        return;
                    }
                }
                st.forbid(d, b, pos);
            }
            let d = digits.trailing_zeros() as usize;
            if d >= 9 || !st.place(d, b, pos) {
                return;
            }
        }
    }
}

/// The root's propagation ([`State::propagate_settling`] in rounds), out of line: inlined into
/// [`Search::run`], whose recursive frames run it never (only the root settles in rounds), it
/// was a second copy of the band updates in the search's body (callgrind, rot180 minimal
/// generation: 1.8% fewer instructions; `solve` on 20,000 17-clue puzzles: 2.7% fewer).
/// A call a search costs nothing that shows.
#[inline(never)]
pub(super) fn root_propagate(st: &mut State, full: bool) -> bool {
    st.propagate_settling(full, true)
}

/// A random descent: propagate, guess with `guesser`, repeat, without the search's bookkeeping.
/// Returns the solution, or `None` at a contradiction the descent cannot undo (the caller starts
/// again). The only undo is of the last guess on a bivalue cell: the state before it is kept, and
/// if the guess leads to a contradiction the other digit is placed there instead. On random
/// complete grids (`crates/tools/examples/grid_rate.rs`) this undoes about a fifth of the contradictions and
/// saves 1.5% of the instructions; a restart is cheaper than the search's state copies for the
/// rest (see docs/ALGORITHM.md).
pub(crate) fn descend<G: Guesser>(mut st: State, guesser: &mut G) -> Option<[u8; 81]> {
    // The state before the last guess on a bivalue cell, and the digit not chosen there.
    let mut other: Option<(State, usize, usize, usize)> = None;
    loop {
        if !st.propagate(G::STACK_UPDATES) {
            let (saved, d, b, pos) = other.take()?;
            st = saved;
            if !st.place(d, b, pos) {
                return None;
            }
            continue;
        }
        if st.is_solved() {
            return Some(st.solution());
        }
        let (b, pos, digits) = st.pick(G::CAREFUL_PICK);
        let d = if digits.count_ones() > 1 {
            let d = guesser.choose(digits);
            let rest = digits & !(1 << d);
            if rest.count_ones() == 1 {
                other = Some((st, rest.trailing_zeros() as usize, b, pos));
            }
            d
        } else {
            digits.trailing_zeros() as usize
        };
        if d >= 9 || !st.place(d, b, pos) {
            return None;
        }
    }
}
