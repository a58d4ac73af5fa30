//! The puzzle pool: a few rated puzzles per band and symmetry, kept ready by background
//! threads so that a request is answered at once, and never a puzzle the player has seen.
//!
//! A worker takes the hungriest shelf (band and symmetry) and makes a puzzle for it with the
//! rated generator (its rating spread over the band, its givens in the band's range). A request
//! takes a fresh puzzle off its shelf; each fresh puzzle is dealt once. When the shelf is empty
//! (at start, under a burst of requests, or for shelves generation cannot keep up with, such as
//! extreme with a symmetry) it deals from the [bank](crate::bank) a puzzle whose class
//! ([`engine::class_key`]) the browser has not seen: the page sends the keys of the puzzles it
//! was dealt, and a client that sends none is never dealt the same bank puzzle twice in a run.
//! Copies of served puzzles (relabelled, permuted) are never dealt. When neither fresh puzzles
//! nor unseen bank puzzles are left, the request waits up to [`PoolConfig::wait`] for a worker,
//! then is told so.
//!
//! Workers run at full speed while a request waits for an empty shelf, or during the first
//! [`WARM_UP`] while some shelf is empty; otherwise they top up the shelves at about a quarter
//! of a core, so a game being played keeps most of the machine.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

use rand::Rng as _;
use rand::RngCore;
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
    /// How long a request waits for a shelf with nothing left to deal.
    pub wait: Duration,
    /// Whether to deal from the built-in bank when a shelf has no fresh puzzle (off only in
    /// tests of the shelves themselves).
    pub bank: bool,
}

impl Default for PoolConfig {
    fn default() -> PoolConfig {
        PoolConfig {
            capacity: 8,
            workers: 1,
            seed: rand::rng().next_u64(),
            wait: Duration::from_secs(30),
            bank: true,
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

/// Where a dealt puzzle came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// Made by a worker, dealt once.
    Fresh,
    /// The built-in bank.
    Bank,
}

/// How long after start workers fill empty shelves at full speed.
pub const WARM_UP: Duration = Duration::from_secs(300);

/// In the background, workers rest this many times as long as they worked.
const REST_FACTOR: u32 = 3;

/// How long a worker searches for one shelf's puzzle before it looks at the others again.
const JOB: Duration = Duration::from_secs(2);

type Key = (Band, Symmetry);

#[derive(Default)]
struct Shelf {
    /// Fresh puzzles with their class keys.
    fresh: VecDeque<(Dealt, u64)>,
    /// Requests waiting for this shelf.
    waiting: usize,
}

struct Inner {
    shelves: Mutex<HashMap<Key, Shelf>>,
    /// Bank puzzles dealt in this run to clients that sent no list of what they have seen.
    bank_dealt: Mutex<HashSet<u64>>,
    /// Wakes workers when a shelf needs puzzles.
    hungry: Condvar,
    /// Wakes requests waiting for an empty shelf.
    filled: tokio::sync::Notify,
    capacity: usize,
    started: Instant,
    bank: bool,
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
            bank_dealt: Mutex::new(HashSet::new()),
            hungry: Condvar::new(),
            filled: tokio::sync::Notify::new(),
            capacity: config.capacity.max(1),
            started: Instant::now(),
            bank: config.bank,
        });
        for w in 0..config.workers {
            let weak = Arc::downgrade(&inner);
            let rng = shudu_core::grids::rng_for(config.seed, w as u64);
            let spawned = std::thread::Builder::new()
                .name(format!("shudu-pool-{w}"))
                .spawn(move || work(weak, rng));
            if let Err(e) = spawned {
                // The pool still serves what `add` and the bank hold; requests report the rest.
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
        let kept = file(&self.inner, dealt, engine::class_key(&dealt.puzzle));
        if kept {
            self.inner.filled.notify_waiters();
        }
        kept
    }

    /// Fresh puzzles on each shelf and the bank's puzzles for it, for the status endpoint and
    /// tests.
    pub(crate) fn stock(&self) -> Vec<(Band, Symmetry, usize, usize)> {
        let shelves = self.inner.lock();
        let mut v: Vec<_> = shelves
            .iter()
            .map(|(&(b, s), shelf)| {
                let banked = if self.inner.bank {
                    crate::bank::shelf(b, s).count()
                } else {
                    0
                };
                (b, s, shelf.fresh.len(), banked)
            })
            .collect();
        v.sort_by_key(|&(b, s, ..)| (b, s.name()));
        v
    }

    /// A puzzle of `band` with `symmetry` whose class is not in `seen` (the keys a browser sends
    /// of the puzzles it was dealt; `None` for a client that sends none): a fresh one if the
    /// shelf has one, else one of the bank's, else the first one a worker makes.
    ///
    /// # Errors
    /// [`AppError::Unavailable`] if nothing new can be dealt within the configured wait.
    pub(crate) async fn take(
        &self,
        band: Band,
        symmetry: Symmetry,
        seen: Option<&HashSet<u64>>,
    ) -> Result<(Dealt, u64, Source), AppError> {
        let deadline = tokio::time::Instant::now() + self.wait;
        let unseen = |key: &u64| seen.is_none_or(|s| !s.contains(key));
        let mut banked = 0;
        loop {
            let notified = self.inner.filled.notified();
            tokio::pin!(notified);
            // Registered before looking, so a puzzle filed in between still wakes us.
            notified.as_mut().enable();
            {
                let mut shelves = self.inner.lock();
                let shelf = shelves.entry((band, symmetry)).or_default();
                if let Some(i) = shelf.fresh.iter().position(|(_, k)| unseen(k)) {
                    let (dealt, key) = shelf.fresh.remove(i).expect("an index found above");
                    self.inner.hungry.notify_all();
                    return Ok((dealt, key, Source::Fresh));
                }
                if self.inner.bank {
                    let mut dealt_here = self
                        .inner
                        .bank_dealt
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner);
                    let shelf_bank: Vec<_> = crate::bank::shelf(band, symmetry).collect();
                    banked = shelf_bank.len();
                    let left: Vec<_> = shelf_bank
                        .into_iter()
                        .filter(|b| match seen {
                            Some(s) => !s.contains(&b.key),
                            None => !dealt_here.contains(&b.key),
                        })
                        .collect();
                    if !left.is_empty() {
                        let b = left[rand::rng().random_range(0..left.len())];
                        if seen.is_none() {
                            dealt_here.insert(b.key);
                        }
                        // The shelf is empty: a worker should make one.
                        self.inner.hungry.notify_all();
                        return Ok((
                            Dealt {
                                puzzle: b.puzzle,
                                rating: b.rating,
                                band,
                                symmetry,
                                hardest: b.hardest,
                            },
                            b.key,
                            Source::Bank,
                        ));
                    }
                }
                shelf.waiting += 1;
                self.inner.hungry.notify_all();
            }
            let _waiting = Waiting {
                inner: &self.inner,
                key: (band, symmetry),
            };
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                let what = format!(
                    "{} puzzle{}",
                    band.name(),
                    match symmetry {
                        Symmetry::None => String::new(),
                        s => format!(" with {} symmetry", s.name()),
                    }
                );
                return Err(AppError::Unavailable(if banked > 0 {
                    format!(
                        "every one of the {banked} {what}s in the bank has been dealt to you, and \
                         no new one could be made in {} s; try again in a moment or pick another \
                         band",
                        self.wait.as_secs()
                    )
                } else {
                    format!(
                        "no new {what} could be made in {} s; try again in a moment or pick \
                         another band",
                        self.wait.as_secs()
                    )
                }));
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

/// Puts `dealt` on its shelf if the shelf exists, is not full, and holds no puzzle of its class.
fn file(inner: &Inner, dealt: Dealt, key: u64) -> bool {
    let mut shelves = inner.lock();
    match shelves.get_mut(&(dealt.band, dealt.symmetry)) {
        Some(shelf)
            if shelf.fresh.len() < inner.capacity && !shelf.fresh.iter().any(|f| f.1 == key) =>
        {
            shelf.fresh.push_back((dealt, key));
            true
        }
        _ => false,
    }
}

/// What a worker should make next: a shelf that needs puzzles, and whether to hurry (a request
/// waits, or an empty shelf during the warm-up) rather than rest between puzzles.
fn next_job(inner: &Inner, turn: usize) -> Option<(Key, bool)> {
    let shelves = inner.lock();
    let warming = inner.started.elapsed() < WARM_UP;
    let mut hungry: Vec<(Key, bool)> = shelves
        .iter()
        .filter(|(_, s)| s.fresh.len() < inner.capacity)
        .map(|(&key, s)| (key, s.waiting > 0 || (warming && s.fresh.is_empty())))
        .collect();
    if hungry.is_empty() {
        return None;
    }
    // Urgent shelves first; among equals, take turns so every shelf gets served.
    hungry.sort_by_key(|&((band, sym), urgent)| (!urgent, band, sym.name()));
    let urgent = hungry[0].1;
    let first_class: Vec<_> = hungry.iter().filter(|h| h.1 == urgent).collect();
    Some((first_class[turn % first_class.len()].0, urgent))
}

/// A worker's loop: generate for the hungriest shelf, file; rest when every shelf is full.
/// Ends when the pool is dropped.
fn work(pool: Weak<Inner>, mut rng: shudu_core::grids::Rng) {
    let mut turn = 0usize;
    loop {
        let Some(inner) = pool.upgrade() else { return };
        let Some(((band, symmetry), urgent)) = next_job(&inner, turn) else {
            // Sleep until a request takes a puzzle; wake now and then to notice a dropped pool.
            let shelves = inner.lock();
            let _ = inner
                .hungry
                .wait_timeout(shelves, Duration::from_millis(500))
                .unwrap_or_else(PoisonError::into_inner);
            continue;
        };
        drop(inner);
        turn = turn.wrapping_add(1);
        let started = Instant::now();
        // Give up the job after a while (the shelf may be a slow one) or when the pool is gone.
        let stop = || started.elapsed() >= JOB || pool.strong_count() == 0;
        if let Some((puzzle, rating, hardest)) = engine::generate(band, symmetry, &mut rng, &stop) {
            let Some(inner) = pool.upgrade() else { return };
            let dealt = Dealt {
                puzzle,
                rating,
                band,
                symmetry,
                hardest,
            };
            if file(&inner, dealt, engine::class_key(&puzzle)) {
                inner.filled.notify_waiters();
            }
        }
        if !urgent {
            std::thread::sleep(started.elapsed() * REST_FACTOR);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dealt(line: &str, band: Band) -> Dealt {
        let puzzle: Puzzle = line.parse().unwrap();
        let (rating, _, hardest) = engine::grade_with_hardest(&puzzle);
        Dealt {
            puzzle,
            rating,
            band,
            symmetry: Symmetry::None,
            hardest,
        }
    }

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[tokio::test]
    async fn a_fresh_puzzle_is_dealt_once_and_never_to_a_browser_that_saw_its_class() {
        let pool = Pool::start(&PoolConfig {
            workers: 0,
            wait: Duration::from_millis(50),
            bank: false,
            ..PoolConfig::default()
        });
        let d = dealt(P, Band::Extreme);
        assert!(pool.add(d));
        assert!(!pool.add(d), "a shelf holds one puzzle of a class");
        let key = engine::class_key(&d.puzzle);
        let seen: HashSet<u64> = [key].into();
        assert!(pool
            .take(Band::Extreme, Symmetry::None, Some(&seen))
            .await
            .is_err());
        let (got, k, source) = pool
            .take(Band::Extreme, Symmetry::None, None)
            .await
            .unwrap();
        assert_eq!((got, k, source), (d, key, Source::Fresh));
        let again = pool.take(Band::Extreme, Symmetry::None, None).await;
        let Err(AppError::Unavailable(msg)) = again else {
            panic!("no copy is dealt: {again:?}")
        };
        assert!(msg.contains("no new extreme puzzle"), "{msg}");
    }

    #[tokio::test]
    async fn the_bank_deals_unseen_classes_then_says_it_ran_out() {
        let pool = Pool::start(&PoolConfig {
            workers: 0,
            wait: Duration::from_millis(20),
            ..PoolConfig::default()
        });
        let shelf: Vec<_> = crate::bank::shelf(Band::Extreme, Symmetry::Rot90).collect();
        assert!(!shelf.is_empty(), "the bank holds extreme rot90 puzzles");
        let mut seen = HashSet::new();
        for _ in 0..shelf.len() {
            let (d, key, source) = pool
                .take(Band::Extreme, Symmetry::Rot90, Some(&seen))
                .await
                .unwrap();
            assert_eq!(source, Source::Bank);
            assert_eq!(Band::of(d.rating), Band::Extreme);
            assert!(Symmetry::Rot90.holds_for(&d.puzzle));
            assert!(seen.insert(key), "a class dealt twice");
        }
        let out = pool.take(Band::Extreme, Symmetry::Rot90, Some(&seen)).await;
        let Err(AppError::Unavailable(msg)) = out else {
            panic!("the shelf is spent: {out:?}")
        };
        assert!(
            msg.contains(&format!("every one of the {}", shelf.len())),
            "{msg}"
        );
    }
}
