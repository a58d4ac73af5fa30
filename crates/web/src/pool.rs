//! The puzzle pool: a few graded puzzles per band, kept ready by background threads so that a
//! request is answered at once.
//!
//! Making a puzzle means generating one and grading it, which takes from a millisecond to seconds,
//! and the band only comes out of the grading: a worker generates, grades, and files the puzzle on
//! the shelf of its band (and symmetry) if that shelf is not full. A request takes a fresh puzzle
//! off its shelf. When the shelf is empty, as under a burst of requests, it deals a random
//! *equivalent* of a recently served puzzle instead: digits relabelled, rows, columns, bands and
//! stacks permuted, maybe transposed. Such a copy has exactly one solution and the same logic, so
//! the same rating, but looks like a new puzzle; this is how `/api/puzzle` sustains thousands of
//! requests a second while generation makes a few. Only a shelf that has never held a puzzle
//! makes a request wait (up to [`PoolConfig::wait`]).
//!
//! Workers run at full speed while a request waits for an empty shelf, or during the first
//! [`WARM_UP`] while some shelf has nothing at all to serve; otherwise they top up the shelves at
//! about a quarter of a core, so a game being played keeps most of the machine. (The rarest band,
//! extreme, may take minutes of generation per puzzle; the workers never stop trying while its
//! shelf is below capacity, but only at that quarter pace.)

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng as _, RngCore};
use shudu_core::Puzzle;

use crate::engine::{self, Band, Rating, Symmetry};
use crate::error::AppError;

/// How the pool is sized and run.
#[derive(Clone, Debug)]
pub struct PoolConfig {
    /// Fresh puzzles kept per band and symmetry.
    pub capacity: usize,
    /// Background threads generating puzzles (0: none; only useful in tests that fill the pool
    /// with [`crate::AppState::add_puzzle`]).
    pub workers: usize,
    /// Seed of the workers' generators; each worker gets its own stream.
    pub seed: u64,
    /// How long a request waits for a shelf that has never held a puzzle.
    pub wait: Duration,
}

impl Default for PoolConfig {
    fn default() -> PoolConfig {
        PoolConfig {
            capacity: 8,
            workers: 1,
            seed: rand::rng().next_u64(),
            wait: Duration::from_secs(30),
        }
    }
}

/// A puzzle as the pool deals it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dealt {
    /// The givens; the puzzle has exactly one solution.
    pub puzzle: Puzzle,
    /// Its rating.
    pub rating: Rating,
    /// Its band.
    pub band: Band,
    /// The symmetry of its givens.
    pub symmetry: Symmetry,
    /// The technique of its hardest step ("" if not known).
    pub hardest: &'static str,
}

/// How many served puzzles a shelf keeps to deal equivalents of.
const RESERVE: usize = 32;

/// How long after start workers fill empty shelves at full speed.
pub const WARM_UP: Duration = Duration::from_secs(300);

/// In the background, workers rest this many times as long as they worked.
const REST_FACTOR: u32 = 3;

type Key = (Band, Symmetry);

#[derive(Default)]
struct Shelf {
    fresh: VecDeque<Dealt>,
    served: VecDeque<Dealt>,
    /// Requests waiting for this shelf's first puzzle.
    waiting: usize,
}

struct Inner {
    shelves: Mutex<HashMap<Key, Shelf>>,
    /// Wakes workers when a shelf needs puzzles.
    hungry: Condvar,
    /// Wakes requests waiting for an empty shelf.
    filled: tokio::sync::Notify,
    capacity: usize,
    started: Instant,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, HashMap<Key, Shelf>> {
        // A panic while holding the lock cannot leave a shelf half-updated (each update is one
        // push or pop), so a poisoned lock is still safe to use.
        self.shelves.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The pool: shelves of puzzles per band and symmetry, and the workers that fill them.
pub(crate) struct Pool {
    inner: Arc<Inner>,
    wait: Duration,
}

impl Pool {
    /// Makes the shelves for every band with the default symmetry and starts the workers, which
    /// stop when the pool is dropped.
    pub(crate) fn start(config: &PoolConfig) -> Pool {
        let mut shelves = HashMap::new();
        for band in Band::ALL {
            shelves.insert((band, Symmetry::default()), Shelf::default());
        }
        let inner = Arc::new(Inner {
            shelves: Mutex::new(shelves),
            hungry: Condvar::new(),
            filled: tokio::sync::Notify::new(),
            capacity: config.capacity.max(1),
            started: Instant::now(),
        });
        for w in 0..config.workers {
            let weak = Arc::downgrade(&inner);
            let rng = shudu_core::grids::rng_for(config.seed, w as u64);
            let spawned = std::thread::Builder::new()
                .name(format!("shudu-pool-{w}"))
                .spawn(move || work(weak, rng));
            if let Err(e) = spawned {
                // The pool still serves what `add` puts in; requests report the shortage.
                eprintln!("shudu-web: could not start pool worker {w}: {e}");
            }
        }
        Pool {
            inner,
            wait: config.wait,
        }
    }

    /// Files a graded puzzle on its shelf (if not full); returns whether it was kept.
    pub(crate) fn add(&self, dealt: Dealt) -> bool {
        let kept = file(&self.inner, dealt);
        if kept {
            self.inner.filled.notify_waiters();
        }
        kept
    }

    /// Fresh puzzles on each shelf, for the status endpoint and tests.
    pub(crate) fn stock(&self) -> Vec<(Band, Symmetry, usize, usize)> {
        let shelves = self.inner.lock();
        let mut v: Vec<_> = shelves
            .iter()
            .map(|(&(b, s), shelf)| (b, s, shelf.fresh.len(), shelf.served.len()))
            .collect();
        v.sort_by_key(|&(b, s, ..)| (b, s.name()));
        v
    }

    /// A puzzle of `band` with `symmetry`: a fresh one if the shelf has one, else an equivalent
    /// of a recently served one, else the first one a worker makes.
    ///
    /// # Errors
    /// [`AppError::Unavailable`] if the shelf stays empty for the configured wait.
    pub(crate) async fn take(&self, band: Band, symmetry: Symmetry) -> Result<Dealt, AppError> {
        let deadline = tokio::time::Instant::now() + self.wait;
        loop {
            let notified = self.inner.filled.notified();
            tokio::pin!(notified);
            // Registered before looking, so a puzzle filed in between still wakes us.
            notified.as_mut().enable();
            {
                let mut shelves = self.inner.lock();
                let shelf = shelves.entry((band, symmetry)).or_default();
                if let Some(dealt) = shelf.fresh.pop_front() {
                    if shelf.served.len() == RESERVE {
                        shelf.served.pop_front();
                    }
                    shelf.served.push_back(dealt);
                    self.inner.hungry.notify_all();
                    return Ok(dealt);
                }
                if !shelf.served.is_empty() {
                    let mut rng = rand::rng();
                    let i = rng.random_range(0..shelf.served.len());
                    let base = shelf.served[i];
                    return Ok(Dealt {
                        puzzle: equivalent(&base.puzzle, symmetry, &mut rng),
                        ..base
                    });
                }
                shelf.waiting += 1;
                self.inner.hungry.notify_all();
            }
            let _waiting = Waiting {
                inner: &self.inner,
                key: (band, symmetry),
            };
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return Err(AppError::Unavailable(format!(
                    "no {} puzzle{} could be made in {} s; try again in a moment or pick another band",
                    band.name(),
                    match symmetry {
                        Symmetry::None => String::new(),
                        s => format!(" with {} symmetry", s.name()),
                    },
                    self.wait.as_secs()
                )));
            }
        }
    }
}

/// Counts a request as waiting for a shelf while it lives (also when the request is dropped).
struct Waiting<'a> {
    inner: &'a Inner,
    key: Key,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if let Some(shelf) = self.inner.lock().get_mut(&self.key) {
            shelf.waiting = shelf.waiting.saturating_sub(1);
        }
    }
}

/// Puts `dealt` on its shelf if the shelf exists and is not full.
fn file(inner: &Inner, dealt: Dealt) -> bool {
    let mut shelves = inner.lock();
    match shelves.get_mut(&(dealt.band, dealt.symmetry)) {
        Some(shelf) if shelf.fresh.len() < inner.capacity => {
            shelf.fresh.push_back(dealt);
            true
        }
        _ => false,
    }
}

/// What a worker should make next: the symmetry of a shelf that needs puzzles, and whether to
/// hurry (a request waits, or an empty shelf during the warm-up) rather than rest between puzzles.
fn next_job(inner: &Inner, turn: usize) -> Option<(Symmetry, bool)> {
    let shelves = inner.lock();
    let warming = inner.started.elapsed() < WARM_UP;
    let mut hungry: Vec<(Symmetry, bool)> = shelves
        .iter()
        .filter(|(_, s)| s.fresh.len() < inner.capacity)
        .map(|(&(_, sym), s)| {
            let starving = s.fresh.is_empty() && s.served.is_empty();
            (sym, s.waiting > 0 || (warming && starving))
        })
        .collect();
    if hungry.is_empty() {
        return None;
    }
    // Urgent shelves first; among equals, take turns so every symmetry gets served.
    hungry.sort_by_key(|&(sym, urgent)| (!urgent, sym.name()));
    let urgent = hungry[0].1;
    let first_class: Vec<_> = hungry.iter().filter(|h| h.1 == urgent).collect();
    Some((first_class[turn % first_class.len()].0, urgent))
}

/// A worker's loop: generate, grade, file; rest when every shelf is full. Ends when the pool is
/// dropped.
fn work(pool: Weak<Inner>, mut rng: shudu_core::grids::Rng) {
    let mut turn = 0usize;
    loop {
        let Some(inner) = pool.upgrade() else { return };
        let Some((symmetry, urgent)) = next_job(&inner, turn) else {
            // Sleep until a request takes a puzzle; wake now and then to notice a dropped pool.
            let shelves = inner.lock();
            let _ = inner
                .hungry
                .wait_timeout(shelves, Duration::from_millis(500))
                .unwrap_or_else(PoisonError::into_inner);
            continue;
        };
        turn = turn.wrapping_add(1);
        let started = Instant::now();
        let generated = engine::generate(symmetry, &mut rng);
        let (puzzle, rating, band, hardest) = engine::deal(generated, symmetry, &mut rng);
        if file(
            &inner,
            Dealt {
                puzzle,
                rating,
                band,
                symmetry,
                hardest,
            },
        ) {
            inner.filled.notify_waiters();
        }
        drop(inner);
        if !urgent {
            std::thread::sleep(started.elapsed() * REST_FACTOR);
        }
    }
}

/// A random puzzle equivalent to `p` whose givens keep `symmetry`: digits relabelled, and the
/// grid's rows and columns permuted (bands, stacks, and lines inside each) and maybe transposed.
/// Without symmetry any such permutation will do. With one, the permutations are drawn from those
/// that commute with reversing the lines (a band order that is kept or reversed, the first band's
/// lines mirrored in the last, the middle band kept or flipped), which keep most symmetries, and
/// the result is checked: after a few misses only the digits are relabelled.
pub(crate) fn equivalent<R: RngCore + ?Sized>(
    p: &Puzzle,
    symmetry: Symmetry,
    rng: &mut R,
) -> Puzzle {
    let mut digits: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    digits[1..].shuffle(rng);
    let relabelled = permuted(p, &digits, &IDENTITY, &IDENTITY, false);
    if symmetry == Symmetry::None {
        let (rows, cols) = (line_permutation(rng), line_permutation(rng));
        return permuted(p, &digits, &rows, &cols, rng.random());
    }
    for _ in 0..8 {
        let rows = mirrored_line_permutation(rng);
        let cols = if rng.random() {
            rows
        } else {
            mirrored_line_permutation(rng)
        };
        let q = permuted(p, &digits, &rows, &cols, rng.random());
        if symmetry.holds_for(&q) {
            return q;
        }
    }
    relabelled
}

const IDENTITY: [usize; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/// `p` with digits renamed by `digits`, row `r` taken from `rows[r]`, column `c` from `cols[c]`,
/// then maybe transposed.
fn permuted(
    p: &Puzzle,
    digits: &[u8; 10],
    rows: &[usize; 9],
    cols: &[usize; 9],
    transpose: bool,
) -> Puzzle {
    let src = p.as_bytes();
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose {
                (rows[c], cols[r])
            } else {
                (rows[r], cols[c])
            };
            out[r * 9 + c] = digits[src[sr * 9 + sc] as usize];
        }
    }
    // Every byte is a digit or 0, so this cannot fail; fall back to `p` rather than panic.
    Puzzle::from_bytes(out).unwrap_or(*p)
}

/// A random line order that commutes with reversal (line `i` ↔ line `8 - i`): the bands kept or
/// reversed, the first band's lines in a random order mirrored by the last band's, and the middle
/// band kept or flipped.
fn mirrored_line_permutation<R: RngCore + ?Sized>(rng: &mut R) -> [usize; 9] {
    let mut inner = [0, 1, 2];
    inner.shuffle(rng);
    let mut out = IDENTITY;
    for k in 0..3 {
        out[k] = inner[k];
        out[8 - k] = 8 - inner[k];
    }
    if rng.random() {
        out.swap(3, 5);
    }
    if rng.random() {
        out.reverse();
    }
    out
}

/// A random order of the nine rows (or columns) that keeps bands together: the bands shuffled,
/// and the rows inside each band shuffled.
fn line_permutation<R: RngCore + ?Sized>(rng: &mut R) -> [usize; 9] {
    let mut bands = [0, 1, 2];
    bands.shuffle(rng);
    let mut out = [0; 9];
    for (slot, band) in bands.into_iter().enumerate() {
        let mut inner = [0, 1, 2];
        inner.shuffle(rng);
        for (k, i) in inner.into_iter().enumerate() {
            out[slot * 3 + k] = band * 3 + i;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shudu_core::solver::{solve_unique, Solutions};

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn equivalent_puzzle_keeps_one_solution_and_the_givens_count() {
        let p: Puzzle = P.parse().unwrap();
        let mut rng = shudu_core::grids::rng_for(1, 2);
        for _ in 0..50 {
            let q = equivalent(&p, Symmetry::None, &mut rng);
            assert_eq!(q.givens(), p.givens());
            assert!(matches!(solve_unique(&q), Solutions::Unique(_)));
        }
    }

    #[test]
    fn equivalent_of_rotational_pattern_is_rotational() {
        // The 180°-symmetric classic; its equivalents must keep the pattern symmetric.
        let p: Puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        let mut rng = shudu_core::grids::rng_for(3, 4);
        for _ in 0..20 {
            let q = equivalent(&p, Symmetry::Rot180, &mut rng);
            let b = q.as_bytes();
            for i in 0..81 {
                assert_eq!(b[i] == 0, b[80 - i] == 0, "cell {i}");
            }
        }
    }

    #[test]
    fn equivalents_keep_every_symmetry_of_generated_puzzles() {
        let mut rng = shudu_core::grids::rng_for(9, 10);
        for symmetry in Symmetry::ALL {
            let p = crate::engine::generate(symmetry, &mut rng);
            assert!(symmetry.holds_for(&p), "{symmetry}: generated");
            for _ in 0..10 {
                let q = equivalent(&p, symmetry, &mut rng);
                assert!(symmetry.holds_for(&q), "{symmetry}: {q}");
                assert_eq!(q.givens(), p.givens());
                assert!(matches!(solve_unique(&q), Solutions::Unique(_)));
            }
        }
    }

    #[test]
    fn equivalents_of_symmetric_puzzles_move_the_pattern() {
        let mut rng = shudu_core::grids::rng_for(11, 12);
        for symmetry in [Symmetry::Rot180, Symmetry::MirrorH, Symmetry::Diagonal] {
            let p = crate::engine::generate(symmetry, &mut rng);
            let patterns: std::collections::HashSet<_> = (0..20)
                .map(|_| equivalent(&p, symmetry, &mut rng).filled())
                .collect();
            assert!(
                patterns.len() > 3,
                "{symmetry}: {} patterns",
                patterns.len()
            );
        }
    }

    #[test]
    fn mirrored_line_permutation_commutes_with_reversal() {
        let mut rng = shudu_core::grids::rng_for(7, 8);
        for _ in 0..50 {
            let p = mirrored_line_permutation(&mut rng);
            for i in 0..9 {
                assert_eq!(p[8 - i], 8 - p[i], "{p:?}");
                assert_eq!(p[i] / 3 == 1, i / 3 == 1, "{p:?}: the middle band stays");
            }
        }
    }

    #[test]
    fn line_permutation_keeps_bands_together() {
        let mut rng = shudu_core::grids::rng_for(5, 6);
        for _ in 0..20 {
            let p = line_permutation(&mut rng);
            for slot in 0..3 {
                let band = p[slot * 3] / 3;
                assert!(p[slot * 3..slot * 3 + 3].iter().all(|&r| r / 3 == band));
            }
            let mut sorted = p;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
        }
    }
}
