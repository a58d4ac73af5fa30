//! Puzzles of a chosen difficulty: generation by rating, with a local search on the givens.
//!
//! # Why a search
//!
//! Random minimal puzzles spread unevenly over the bands of Sudoku Explainer's scale (measured
//! with `crates/tools/examples/rated_stats.rs` on 1,000 puzzles, see `docs/rated.md`): easy 1.2%, medium 22%,
//! hard 26%, fiendish 23%, diabolical 29%, extreme 0.2%. Drawing until one lands in the band is
//! fine for the four middle bands, not for the ends: an easy puzzle needs *more* givens than a
//! minimal one, and an extreme one is a few in a thousand.
//!
//! So each attempt digs one puzzle ([`generate_one`]), grades it, and then walks from it by
//! moves on the givens, each move keeping the puzzle proper:
//!
//! - towards an easier rating, add a given (a whole orbit under a symmetry) at a cell that is
//!   still empty where the solver first needed a step above the range: adding givens keeps a
//!   proper puzzle proper, and a given there removes the need for that step;
//! - towards a harder rating, remove one orbit of givens. With the number of givens free, add
//!   back orbits elsewhere, each meeting the cells where a second solution differs from the grid
//!   (an unavoidable set), until the puzzle is proper again, then dig it to a minimal puzzle: the
//!   "{-1+n}" move of the puzzle hunters. With an exact count, swap for one orbit of the same
//!   size that meets that set. A swap is proper if and only if, for each removed cell `c`, the
//!   puzzle with the solution's digit forbidden in `c` has no solution (the argument of
//!   [`crate::generate`]'s module docs, applied to the puzzle with the new orbit added).
//!
//! A move is kept when the rating gets no farther from the range (ties are kept, so the walk
//! crosses the plateaus that SE's coarse scale is full of); after a number of moves without
//! progress the attempt gives up and the next one starts from a new grid. When `givens` asks for
//! an exact count, easier moves become swaps too, so the count never leaves the range.
//!
//! Climbing grades every neighbour in full, which costs more than a fresh draw while the band is
//! common, so it starts only after 8 fresh draws below the range (for diabolical, 29% of draws,
//! it almost never runs; for extreme it does). Measured figures: `BENCHMARKS.md ("Puzzles by difficulty band")`.
//!
//! Ratings above 9.3 (SE's nested forcing chains from 9.5, the longest dynamic chains) are out
//! of that climb's reach; [`vicinity`] hunts for them: walks guided by a cheap proxy (trial and
//! error to depth one in passes, [`trial`]), rating only the neighbours that T&E(1) leaves
//! stuck (for a range from 10.0, T&E(1) with the basic techniques and forcing too). A range
//! starting above 9.3 is searched by the hunt alone; the extreme band hunts for a few seconds
//! first, then climbs.
//!
//! # Cost
//!
//! Grading is the cost (digging takes 0.1 ms, grading a diabolical puzzle milliseconds, an
//! extreme one up to a second), so a candidate is rated with a cap: the solver stops at the
//! first step rated above the range, which is all a move needs to know to be rejected. A rating
//! that runs to the end keeps the same tallies as [`rate`], so the found puzzle is not rated
//! twice.

use crate::time::{Duration, Instant};

use rand::RngCore;

use crate::bitset::{Cell, CellSet};
use crate::canon::RETRY_KEY;
pub use crate::canon::{class_hash, NewClasses};
use crate::generate::{
    generate_one, is_minimal, stream_items, with, without, ConfigError, GenerateConfig, Generated,
    StreamSummary,
};
use crate::grid::{Grid, Puzzle};
use crate::logic::named::next_hint_unchecked;
use crate::logic::{next_step_unchecked, rate, Band, Board, Rating, Summary, Tally};
use crate::needs::{uses_hints, Technique, TechniqueSet};
use crate::solver::Solver;

pub mod seeds;
pub mod trial;
pub mod vicinity;

/// The highest rating the grader gives (the top of [`Band::Extreme`]).
pub const MAX_RATING: Rating = Rating(200);

/// What to generate: a puzzle as [`GenerateConfig`] describes it, rated in a range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedConfig {
    /// Givens, symmetry and minimality. Its own `band` filter is ignored: `rating` replaces it.
    pub base: GenerateConfig,
    /// The range of ER wanted, both ends inclusive.
    pub rating: (Rating, Rating),
    /// Techniques the path must use: one of each set (`--needs x-wing,xy-wing` is two sets of
    /// one). Empty: no need. See [`crate::needs`] for which path is checked.
    pub needs: Vec<TechniqueSet>,
    /// Techniques the path must not use (`--without chains`).
    pub without: TechniqueSet,
}

impl RatedConfig {
    /// A config for the puzzles of one band.
    ///
    /// # Examples
    /// ```
    /// use shudu_core::{generate::GenerateConfig, logic::{Band, Rating}, rated::RatedConfig};
    /// let c = RatedConfig::band(GenerateConfig::default(), Band::Hard);
    /// assert_eq!(c.rating, (Rating(26), Rating(40)));
    /// ```
    pub fn band(base: GenerateConfig, band: Band) -> RatedConfig {
        RatedConfig {
            base,
            rating: band.range(),
            needs: Vec::new(),
            without: TechniqueSet::EMPTY,
        }
    }

    /// The config with its range narrowed to one of the [`LEVELS`] it meets, chosen by `u` in
    /// `[0, 1)` by the levels' weights. A config with needs or exclusions is returned as it is:
    /// its walk heads for the needed techniques' ratings, and an exclusion can make whole levels
    /// unreachable (nothing from 9.0 up is rated without chains).
    ///
    /// # Examples
    /// ```
    /// use shudu_core::{generate::GenerateConfig, logic::{Band, Rating}, rated::RatedConfig};
    /// let c = RatedConfig::band(GenerateConfig::default(), Band::Medium);
    /// assert_eq!(c.at_level(0.0).rating, (Rating(16), Rating(18)));
    /// assert_eq!(c.at_level(0.99).rating, (Rating(25), Rating(25)));
    /// ```
    pub fn at_level(&self, u: f64) -> RatedConfig {
        if !self.needs.is_empty() || !self.without.is_empty() {
            return self.clone();
        }
        let met = self.levels();
        let total: u32 = met.iter().map(|l| l.2).sum();
        let mut pick = (u.clamp(0.0, 1.0) * total as f64) as u32;
        for (a, b, w) in met {
            if pick < w {
                return RatedConfig {
                    rating: (a, b),
                    ..self.clone()
                };
            }
            pick -= w;
        }
        self.clone()
    }

    /// The [`LEVELS`] the range meets, cut to the range, with their weights.
    ///
    /// The levels from 9.0 up are reached from the forum's hard puzzles
    /// ([`vicinity::seeded_hunt`]); for a config those cannot serve (a symmetry, many givens)
    /// they are one level, searched as a whole.
    pub fn levels(&self) -> Vec<(Rating, Rating, u32)> {
        let (lo, hi) = self.rating;
        let mut out: Vec<(Rating, Rating, u32)> = LEVELS
            .iter()
            .filter(|l| l.0 <= hi && lo <= l.1)
            .map(|&(a, b, w)| (a.max(lo), b.min(hi), w))
            .collect();
        if !vicinity::seeded_fits(&self.base) {
            let top = Band::Extreme.range().0;
            if let Some(first) = out.iter().position(|l| l.0 >= top) {
                let weight = out[first..].iter().map(|l| l.2).sum();
                let from = out[first].0;
                out.truncate(first);
                out.push((from, hi, weight));
            }
        }
        out
    }

    /// Checks that the config makes sense (it may still be out of reach: a very easy puzzle
    /// with few givens, for one; then the search runs out of time).
    ///
    /// # Errors
    /// [`RatedError::Rating`] for an empty range or one above [`MAX_RATING`];
    /// [`RatedError::Config`] for what [`GenerateConfig::validate`] rejects.
    pub fn validate(&self) -> Result<(), RatedError> {
        let (lo, hi) = self.rating;
        if lo > hi || lo > MAX_RATING {
            return Err(RatedError::Rating(lo, hi));
        }
        if !self.base.unique {
            return Err(RatedError::Config(ConfigError::BandNeedsUnique));
        }
        self.base.validate().map_err(RatedError::Config)?;
        for &need in &self.needs {
            // A need whose every technique is excluded, or rated above the range, cannot be met:
            // a path's ER is at least the rating of each step.
            let allowed: Vec<Technique> =
                need.iter().filter(|&t| !self.without.contains(t)).collect();
            if allowed.is_empty() {
                return Err(RatedError::NeedsExcluded(need));
            }
            if allowed.iter().all(|t| t.ratings().0 > hi) {
                return Err(RatedError::NeedsTooHard { need, rating: hi });
            }
        }
        if let Some((fewest, _)) = self.base.givens {
            let most = most_givens(self.rating);
            if fewest > most {
                return Err(RatedError::TooManyGivens {
                    rating: self.rating,
                    fewest,
                    most,
                });
            }
        }
        Ok(())
    }
}

/// The most givens at which shudu's rated search has found a puzzle of each band (docs/rated.md,
/// "How many givens a band allows"): the first count above where a 40-second search found
/// nothing, less one. Hard bands need few givens: a request whose fewest givens is above its
/// bands' figure is refused at once, rather than searched for until the budget runs out. These
/// are measurements, not proofs; the table says what was tried.
pub const MOST_GIVENS: [(Band, usize); 6] = [
    (Band::Easy, 80),
    (Band::Medium, 54),
    (Band::Hard, 47),
    (Band::Fiendish, 53),
    (Band::Diabolical, 54),
    (Band::Extreme, 34),
];

/// The most givens of [`MOST_GIVENS`] over the bands that the rating range `rating` meets.
pub fn most_givens(rating: (Rating, Rating)) -> usize {
    MOST_GIVENS
        .iter()
        .filter(|(band, _)| {
            let (lo, hi) = band.range();
            lo <= rating.1 && rating.0 <= hi
        })
        .map(|&(_, most)| most)
        .max()
        .unwrap_or(80)
}

/// Why a [`RatedConfig`] can never be satisfied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RatedError {
    /// The rating range is empty or above the scale.
    Rating(Rating, Rating),
    /// The puzzle part of the config is impossible.
    Config(ConfigError),
    /// No puzzle of these ratings with this many givens is known ([`MOST_GIVENS`]).
    TooManyGivens {
        /// The rating range asked for.
        rating: (Rating, Rating),
        /// The fewest givens asked for.
        fewest: usize,
        /// The most givens known for these ratings.
        most: usize,
    },
    /// A needed technique (every technique of a needed family) is also excluded.
    NeedsExcluded(TechniqueSet),
    /// A needed technique is rated above the top of the range.
    NeedsTooHard {
        /// The need.
        need: TechniqueSet,
        /// The top of the range.
        rating: Rating,
    },
}

impl std::fmt::Display for RatedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RatedError::Rating(lo, hi) => write!(
                f,
                "rating {lo}..{hi} is not a range within 0.0..{MAX_RATING} on the SE scale"
            ),
            RatedError::Config(e) => e.fmt(f),
            RatedError::TooManyGivens {
                rating: (lo, hi),
                fewest,
                most,
            } => write!(
                f,
                "no puzzle rated {lo}..{hi} with {fewest} or more givens is known: hard puzzles \
                 need few givens, and shudu's search has found none of these ratings with more \
                 than {most} (docs/rated.md); ask for at most {most} givens"
            ),
            RatedError::NeedsExcluded(need) => write!(
                f,
                "--needs {need} and --without exclude each other: no technique of '{need}' is left"
            ),
            RatedError::NeedsTooHard { need, rating } => {
                let lo = need.ratings().map_or(Rating(0), |r| r.0);
                write!(
                    f,
                    "no puzzle rated {rating} or less can need {need}: its steps are rated {lo} or \
                     more, and a puzzle's rating is its hardest step's"
                )
            }
        }
    }
}

impl std::error::Error for RatedError {}

/// Moves tried from one dug puzzle without getting closer to the range before giving it up.
const STALL_MOVES: usize = 60;
/// Fresh draws below the range before the search climbs from one (measured on diabolical and
/// extreme, docs/rated.md: fewer climbs too early for common bands, more wastes draws on rare
/// ones).
const DRAWS_BEFORE_CLIMB: usize = 8;
/// The most orbits a harder move adds to make the puzzle proper again before giving up.
const REPAIR_ADDS: usize = 8;
/// Moves tried from one dug puzzle in all.
const MAX_MOVES: usize = 400;
/// Grids tried by [`generate_rated`] when it has no deadline, so an unreachable target still
/// returns (`None`) rather than looping forever.
const MAX_GRIDS_WITHOUT_DEADLINE: u64 = 10_000;

/// Makes one puzzle whose ER is in `config.rating`, with its rating ([`Summary`]), or `None` if `deadline`
/// passes first (or, with no deadline, after 10,000 grids). See the module docs for the search.
///
/// The result has exactly one solution, keeps the config's symmetry and number of givens, and
/// depends only on `rng` (the deadline can only cut the search short).
///
/// # Panics
/// If the config is invalid (see [`RatedConfig::validate`]).
///
/// # Examples
/// ```
/// use shudu_core::{generate::GenerateConfig, grids::rng_for, logic::Band, rated::*};
/// let config = RatedConfig::band(GenerateConfig::default(), Band::Easy);
/// let (g, grade) = generate_rated(&config, &mut rng_for(1, 0), None).unwrap();
/// assert_eq!(grade.band, Band::Easy);
/// assert_eq!(shudu_core::solver::count_solutions(&g.puzzle, 2).count, 1);
/// ```
pub fn generate_rated<R: RngCore>(
    config: &RatedConfig,
    rng: &mut R,
    deadline: Option<Instant>,
) -> Option<(Generated, Summary)> {
    config.validate().expect("a valid rated config");
    let mut grids = 0;
    let level = unit(rng.next_u64());
    leveled(
        config,
        level,
        &config.base.symmetry.orbits(),
        rng,
        deadline,
        &mut grids,
    )
}

/// Grids a search for one level tries before it widens to the whole range: a level can be out
/// of reach with the givens asked for (a Swordfish with 52 givens), and the band must still be
/// served.
const LEVEL_GRIDS: u64 = 256;

/// [`rated`] for the level `u` of `config` ([`RatedConfig::at_level`]); if that level is not
/// reached within [`LEVEL_GRIDS`] grids, the search goes on over the whole range.
fn leveled<R: RngCore>(
    config: &RatedConfig,
    u: f64,
    orbits: &[CellSet],
    rng: &mut R,
    deadline: Option<Instant>,
    grids: &mut u64,
) -> Option<(Generated, Summary)> {
    let level = config.at_level(u);
    if level.rating != config.rating {
        if let Some(found) = rated(&level, orbits, rng, deadline, grids, LEVEL_GRIDS) {
            return Some(found);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
    }
    rated(config, orbits, rng, deadline, grids, u64::MAX)
}

/// The levels of the scale a rating range is spread over: `(lo, hi, weight)` in tenths, each
/// the ratings of one technique or of a few alike (docs/rated.md, "Spread over the band").
/// A search for a range picks one level that meets it, by weight, and heads for that level
/// alone, so the puzzles of a band spread over the band instead of piling up on its first
/// rating (where a walk from below arrives first). The weights make each level about as common
/// as the next; a few cost far more than the rest to reach (quads and Jellyfish, 5.0-5.4; the
/// nested chains) and weigh less.
pub const LEVELS: [(Rating, Rating, u32); 28] = [
    (Rating(10), Rating(12), 2),
    (Rating(13), Rating(15), 2),
    (Rating(16), Rating(18), 1),
    (Rating(19), Rating(22), 1),
    (Rating(23), Rating(24), 1),
    (Rating(25), Rating(25), 1),
    (Rating(26), Rating(27), 1),
    (Rating(28), Rating(29), 1),
    (Rating(30), Rating(31), 1),
    (Rating(32), Rating(33), 1),
    (Rating(34), Rating(35), 1),
    (Rating(36), Rating(37), 1),
    (Rating(38), Rating(40), 1),
    (Rating(41), Rating(43), 2),
    (Rating(44), Rating(44), 2),
    (Rating(45), Rating(49), 2),
    (Rating(50), Rating(55), 1),
    (Rating(56), Rating(61), 2),
    (Rating(62), Rating(64), 1),
    (Rating(65), Rating(69), 1),
    (Rating(70), Rating(74), 1),
    (Rating(75), Rating(79), 1),
    (Rating(80), Rating(84), 1),
    (Rating(85), Rating(89), 1),
    (Rating(90), Rating(92), 8),
    (Rating(93), Rating(99), 6),
    (Rating(100), Rating(109), 5),
    (Rating(110), MAX_RATING, 1),
];

/// A number in `[0, 1)` from 64 random bits.
fn unit(bits: u64) -> f64 {
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

/// The level a batch's item `item` heads for, as a number in `[0, 1)` for
/// [`RatedConfig::at_level`]: the items are taken in cycles of `slots` (the total weight of the
/// levels the range meets), and each cycle deals the slots in an order shuffled by the seed, so
/// any `slots` consecutive items from a cycle's start visit every level exactly in proportion to
/// its weight (a random draw per item would leave two levels of equal weight a share far from a
/// half in a batch of 200), while the order still looks random.
fn batch_level(seed: u64, item: usize, slots: u32) -> f64 {
    let slots = slots.max(1) as usize;
    let cycle = (item / slots) as u64;
    let mut order: Vec<usize> = (0..slots).collect();
    let mut rng = crate::grids::rng_for(seed ^ 0x6c65_7665_6c73, cycle);
    for k in (1..slots).rev() {
        order.swap(k, below(&mut rng, k + 1));
    }
    (order[item % slots] as f64 + 0.5) / slots as f64
}

/// [`generate_rated`] for a validated config with `orbits` precomputed; counts the grids tried,
/// and gives up (`None`) after `max_grids` of them.
fn rated<R: RngCore>(
    config: &RatedConfig,
    orbits: &[CellSet],
    rng: &mut R,
    deadline: Option<Instant>,
    grids: &mut u64,
    max_grids: u64,
) -> Option<(Generated, Summary)> {
    let first = *grids;
    let base = GenerateConfig {
        band: None,
        ..config.base.clone()
    };
    let target = Target::new(config);
    if config.needs.is_empty() && config.without.is_empty() {
        let (lo, hi) = config.rating;
        // Ratings above 9.3 are out of the climb's reach (nested forcing chains from 9.5, the
        // longest dynamic chains at 9.4 and up): the vicinity hunt looks for them. For a range
        // that also holds the commoner 9.0-9.3 (extreme), a bounded hunt comes first, then the
        // climb.
        // From 9.0 up, the neighbours of the forum's hard puzzles are the quickest way there,
        // for the configs they can serve (no symmetry, about their number of givens).
        if lo >= Band::Extreme.range().0 && vicinity::seeded_fits(&base) {
            let moves = if deadline.is_some() {
                u64::MAX
            } else {
                vicinity::MOVES_WITHOUT_DEADLINE
            };
            let mut stats = vicinity::HuntStats::default();
            return vicinity::seeded_hunt(&base, config.rating, rng, moves, deadline, &mut stats);
        }
        let moves = if lo >= vicinity::HUNT_FROM {
            Some(if deadline.is_some() {
                u64::MAX
            } else {
                vicinity::MOVES_WITHOUT_DEADLINE
            })
        } else if hi >= vicinity::HUNT_FROM && lo >= Band::Extreme.range().0 {
            Some(vicinity::EXTREME_HUNT_MOVES).filter(|&m| m > 0)
        } else {
            None
        };
        if let Some(moves) = moves {
            // A hunt ahead of the climb takes at most half the time left, so that a caller
            // searching in short slices (the game's server) still gets the climb's 9.0-9.3.
            let hunt_deadline = match deadline {
                Some(d) if lo < vicinity::HUNT_FROM => {
                    let now = Instant::now();
                    Some(now + d.saturating_duration_since(now) / 2)
                }
                d => d,
            };
            let mut stats = vicinity::HuntStats::default();
            let found = vicinity::hunt(
                &base,
                orbits,
                config.rating,
                rng,
                moves,
                hunt_deadline,
                grids,
                &mut stats,
            );
            if found.is_some() || lo >= vicinity::HUNT_FROM {
                return found.and_then(|(g, r)| {
                    (!config.base.minimal || is_minimal(&g.puzzle, &g.solution)).then_some((g, r))
                });
            }
        }
    }
    let mut far = 0;
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d)
            || (deadline.is_none() && *grids >= MAX_GRIDS_WITHOUT_DEADLINE)
            || *grids - first >= max_grids
        {
            return None;
        }
        *grids += 1;
        // Each draw aims at one count of a givens range, drawn as a plain batch's items are
        // (`GenerateConfig::for_item`), and its search keeps to that count: digging to the
        // range as it is stops at its low end, and the search then stays near there, so a
        // batch would not spread over the range. A count where the rating is rare just fails
        // its draw; the next draw aims again.
        let drawn;
        let config = match base.givens {
            Some((a, b)) if a < b && base.unique && !base.minimal => {
                drawn = RatedConfig {
                    base: base.for_item(rng),
                    rating: config.rating,
                    needs: config.needs.clone(),
                    without: config.without,
                };
                &drawn
            }
            _ => config,
        };
        let Some(g) = generate_one(&config.base, rng) else {
            continue;
        };
        let search = Search::new(config, &target, orbits, g);
        // Walking towards easier is cheap (ratings capped at the range's top, givens added), so
        // it always runs. Walking towards harder grades every neighbour in full, which costs
        // more than a fresh draw while the band is common: it runs only after a few draws
        // below the range show that the band is rare.
        if search.below(&search.rating) && far < DRAWS_BEFORE_CLIMB {
            far += 1;
            continue;
        }
        far = 0;
        if let Some(found) = search.run(rng, deadline) {
            return Some(found);
        }
    }
}

/// The state of the local search from one dug puzzle.
struct Search<'a> {
    config: &'a RatedConfig,
    target: &'a Target,
    orbits: &'a [CellSet],
    grid: Grid,
    p: Puzzle,
    /// The capped rating of `p` and the cells empty when it first needed a step above the range.
    rating: Capped,
    /// Whether moves dig back to a minimal puzzle (the number of givens is free, or the puzzle
    /// must be minimal).
    redig: bool,
    /// The allowed number of givens.
    givens: (usize, usize),
}

/// A rating computed up to a cap.
#[derive(Clone, Debug)]
struct Capped {
    /// The exact ER when at most the cap, otherwise the first step's rating above the cap (or
    /// the first excluded step's).
    er: Rating,
    /// The empty cells of the position where the first step above the cap (or excluded) was
    /// needed.
    stuck: CellSet,
    /// The full rating, when the walk went to the end (every step at most the cap, none
    /// excluded).
    grade: Option<Summary>,
    /// The techniques of the path walked (up to where it stopped), as far as needs and
    /// exclusions ask (empty without them).
    seen: TechniqueSet,
}

impl Capped {
    fn complete(&self) -> bool {
        self.grade.is_some()
    }
}

/// What the search heads for and what it accepts, from a [`RatedConfig`].
///
/// Without needs, the walk heads for the rating range itself. With needs, it heads for the
/// ratings of the needed techniques within the range: a path whose ER is an X-Wing's 3.2 uses an
/// X-Wing (no other step is rated 3.2), so a puzzle rated there is found by the same moves as a
/// puzzle of a band; the acceptance test then checks the path for each need, and moves that keep
/// the rating but lose needs are not kept.
struct Target {
    /// The range asked for: a found puzzle's ER is in it.
    range: (Rating, Rating),
    /// The range the walk heads for.
    guide: (Rating, Rating),
    /// A walk along the path stops at the first step rated above this.
    cap: Rating,
    needs: Vec<TechniqueSet>,
    without: TechniqueSet,
    /// Whether the path is the hints' (a named technique is asked for or excluded).
    hints: bool,
    /// Whether the search makes harder moves at all.
    climbs: bool,
}

/// The lowest guide from which a search for needed techniques climbs (makes harder moves): the
/// nishio and triplet-exclusion level, which few random puzzles reach (measured on x-wing,
/// skyscraper and unique-rectangle: climbing from below cost 10-20% there; BENCHMARKS.md).
const CLIMB_FROM: Rating = Rating(75);

/// Just below aligned pair exclusion (6.2), the first of the costly chain-level steps: walks go
/// this far at least, since the steps up to here cost microseconds.
const BASIC_TOP: Rating = Rating(61);

impl Target {
    fn new(config: &RatedConfig) -> Target {
        let range = config.rating;
        let mut guide = range;
        let allowed = |n: &TechniqueSet| n.iter().filter(|&t| !config.without.contains(t));
        let need_lo = config
            .needs
            .iter()
            .filter_map(|n| allowed(n).map(|t| t.ratings().0).min())
            .max();
        let need_hi = config
            .needs
            .iter()
            .filter_map(|n| allowed(n).map(|t| t.ratings().1).max())
            .max();
        if let (Some(lo), Some(hi)) = (need_lo, need_hi) {
            // When the range starts above every needed technique, the ER comes from other
            // steps: head for the range and let the acceptance test check the needs.
            if range.0 <= hi {
                guide = (lo.max(range.0), hi.max(lo).min(range.1));
            }
        }
        // Exclusions are checked on the whole path; needs alone only up to the guide, or to
        // the chains, whichever is higher.
        let cap = if config.without.is_empty() {
            guide.1.max(range.1.min(BASIC_TOP))
        } else {
            range.1
        };
        Target {
            range,
            guide,
            cap,
            needs: config.needs.clone(),
            without: config.without,
            hints: uses_hints(&config.needs, config.without),
            // A puzzle below a guide under the chains is a common draw (half of random minimal
            // puzzles are rated under 2.6): drawing afresh costs less than climbing, which
            // grades every neighbour and digs again. Above, climbing pays, as for the bands.
            climbs: config.needs.is_empty() || guide.0 >= CLIMB_FROM,
        }
    }

    /// Whether techniques must be told apart on the walk.
    fn tracks(&self) -> bool {
        !self.needs.is_empty() || !self.without.is_empty()
    }

    /// How many needs the techniques `seen` leave unmet.
    fn missing(&self, seen: TechniqueSet) -> u16 {
        self.needs.iter().filter(|n| !n.meets(seen)).count() as u16
    }

    /// Whether a walk's puzzle is one to keep (before `finish`'s checks).
    fn accepts(&self, c: &Capped) -> bool {
        c.complete() && c.er >= self.range.0 && c.er <= self.range.1 && self.missing(c.seen) == 0
    }

    /// Walks `p`'s path (proper) up to the cap: the full rating if every step is at most the
    /// cap and none is excluded; otherwise stops at the first step that is not, and returns its
    /// rating with the cells empty at that point.
    ///
    /// Without needs and exclusions it runs the same steps as [`rate`] (`next_step` on a board
    /// whose steps are not put into words) and keeps the same tallies, so a complete run gives
    /// what [`rate`] would (the tests compare them); when no technique applies it defers to
    /// [`rate`] itself for the fallback rating. On the hints' path it asks `next_hint`.
    fn walk(&self, p: &Puzzle) -> Capped {
        let mut board = Board::new(p);
        board.explain = false;
        let mut tally = Tally::default();
        let mut seen = TechniqueSet::EMPTY;
        let track = self.tracks();
        while !board.is_solved() {
            // Boards walked from a proper puzzle never break: the unchecked forms skip the
            // scan of every house that `next_step` makes at each step.
            let step = if self.hints {
                next_hint_unchecked(&board)
            } else {
                next_step_unchecked(&board)
            };
            let Some(step) = step else {
                let g = rate(p);
                if track {
                    // The rest of the path is SE's, ending in the fallback step.
                    for (name, _) in &g.techniques {
                        if let Some(t) = Technique::of_step(name) {
                            seen |= TechniqueSet::single(t);
                        }
                    }
                }
                let cap = if track && self.missing(seen) == 0 {
                    self.range.1
                } else {
                    self.cap
                };
                let ok = g.er <= cap && !self.without.meets(seen);
                return Capped {
                    er: g.er,
                    stuck: !board.to_puzzle().filled() & CellSet::ALL,
                    grade: ok.then_some(g),
                    seen,
                };
            };
            let excluded = track
                && match Technique::of_step(step.technique) {
                    Some(t) => {
                        seen |= TechniqueSet::single(t);
                        self.without.contains(t)
                    }
                    None => false,
                };
            // Once every need is met the rest of the path only has to stay in the range:
            // finishing it (chains and all) costs less than walking the givens towards a
            // puzzle without them.
            let cap = if track && self.missing(seen) == 0 {
                self.range.1
            } else {
                self.cap
            };
            if step.rating > cap || excluded {
                return Capped {
                    er: step.rating,
                    stuck: !board.to_puzzle().filled() & CellSet::ALL,
                    grade: None,
                    seen,
                };
            }
            tally.add(&step);
            board.apply(&step);
        }
        let summary = tally.summary(true);
        Capped {
            er: summary.er,
            stuck: CellSet::EMPTY,
            grade: Some(summary),
            seen,
        }
    }
}

impl<'a> Search<'a> {
    fn new(
        config: &'a RatedConfig,
        target: &'a Target,
        orbits: &'a [CellSet],
        g: Generated,
    ) -> Search<'a> {
        Search {
            config,
            target,
            orbits,
            grid: g.solution,
            rating: target.walk(&g.puzzle),
            p: g.puzzle,
            redig: config.base.givens.is_none() || config.base.minimal,
            givens: config.base.givens.unwrap_or((0, 81)),
        }
    }

    /// How far a walk is from what the search heads for: tenths of rating from the guide
    /// range (at least one if the walk stopped early), plus 100 for each need not met.
    fn distance(&self, c: &Capped) -> u16 {
        let (lo, hi) = self.target.guide;
        let off = lo.0.saturating_sub(c.er.0) + c.er.0.saturating_sub(hi.0);
        let off = if c.complete() { off } else { off.max(1) };
        off + 100 * self.target.missing(c.seen)
    }

    /// Whether a walk calls for a harder puzzle: it went to the end below the guide range.
    fn below(&self, c: &Capped) -> bool {
        c.complete() && c.er < self.target.guide.0
    }

    fn run<R: RngCore>(
        mut self,
        rng: &mut R,
        deadline: Option<Instant>,
    ) -> Option<(Generated, Summary)> {
        let mut stalled = 0;
        for moves in 0..MAX_MOVES {
            if self.target.accepts(&self.rating) {
                return self.finish();
            }
            if stalled >= STALL_MOVES
                || (moves % 4 == 3 && deadline.is_some_and(|d| Instant::now() >= d))
            {
                return None;
            }
            // In the guide range with a need unmet (or another step rated the same), either
            // way may help: a coin decides.
            let in_guide = self.rating.complete() && self.rating.er <= self.target.guide.1;
            let harder = self.below(&self.rating) || (in_guide && rng.next_u32() & 1 == 0);
            if harder && !self.target.climbs {
                return None;
            }
            let q = if harder {
                self.harder(rng)
            } else {
                self.easier(rng)
            };
            // A move that digs may leave the count's range (when `minimal` digs below it or a
            // repair adds above it): such moves are not taken.
            let Some(q) = q.filter(|q| (self.givens.0..=self.givens.1).contains(&q.givens()))
            else {
                stalled += 1;
                continue;
            };
            let r = self.target.walk(&q);
            let (before, after) = (self.distance(&self.rating), self.distance(&r));
            if after <= before {
                stalled = if after < before { 0 } else { stalled + 1 };
                self.p = q;
                self.rating = r;
            } else {
                stalled += 1;
            }
        }
        if self.target.accepts(&self.rating) {
            return self.finish();
        }
        None
    }

    /// The found puzzle with its full rating, after the checks the config asks for.
    fn finish(self) -> Option<(Generated, Summary)> {
        let base = &self.config.base;
        if base.minimal && !is_minimal(&self.p, &self.grid) {
            return None;
        }
        let mut g = match self.rating.grade {
            Some(g) => g,
            None => rate(&self.p),
        };
        let (lo, hi) = self.config.rating;
        if self.target.hints {
            // The walk was the hints' path; the rating asked for is the grader's.
            g = rate(&self.p);
            if !(lo..=hi).contains(&g.er) {
                return None;
            }
        }
        debug_assert!(
            g.solved && (lo..=hi).contains(&g.er),
            "{}",
            self.p.to_line()
        );
        Some((
            Generated {
                puzzle: self.p,
                solution: self.grid,
            },
            g,
        ))
    }

    /// The orbits of `p` that are all givens, and those that are all empty.
    fn split(&self) -> (Vec<CellSet>, Vec<CellSet>) {
        let filled = self.p.filled();
        let full = self
            .orbits
            .iter()
            .copied()
            .filter(|&o| (o & filled) == o)
            .collect();
        let empty = self
            .orbits
            .iter()
            .copied()
            .filter(|&o| (o & filled).is_empty())
            .collect();
        (full, empty)
    }

    /// A move towards a harder puzzle: swap a given orbit for an empty one of the same size,
    /// then dig to minimal if the count is free.
    fn harder<R: RngCore>(&self, rng: &mut R) -> Option<Puzzle> {
        let (full, empty) = self.split();
        if full.is_empty() || empty.is_empty() {
            return None;
        }
        let removed = full[below(rng, full.len())];
        let (lo, _) = self.givens;
        let n = self.p.givens();
        // Removing alone is the best move when the count allows it and it stays proper.
        let k = removed.len() as usize;
        if !self.redig && n >= lo + k && still_unique(&self.p, removed, &self.grid) {
            return Some(without(&self.p, removed));
        }
        if self.redig {
            return self.repair(without(&self.p, removed), removed, rng);
        }
        // Without `removed` the puzzle has another solution, which differs from the grid on an
        // unavoidable set: the new orbit must meet it, or the swap cannot be proper.
        let differ = self.other_solution(&without(&self.p, removed), removed)?;
        let choices: Vec<CellSet> = empty
            .into_iter()
            .filter(|&o| !(o & differ).is_empty() && o.len() == removed.len())
            .collect();
        if choices.is_empty() {
            return None;
        }
        let added = choices[below(rng, choices.len())];
        let q = with(&self.p, added, &self.grid);
        if !still_unique(&q, removed, &self.grid) {
            return None;
        }
        Some(without(&q, removed))
    }

    /// The cells where `q` (the proper puzzle `p` without `removed`, plus perhaps more givens of
    /// the grid) has a solution that differs from the grid, or `None` if `q` is proper. Any other
    /// solution differs from the grid inside `removed` (else it would solve `p`), so one
    /// first-solution search per removed cell, with the grid's digit forbidden, finds one.
    fn other_solution(&self, q: &Puzzle, removed: CellSet) -> Option<CellSet> {
        let base = Solver::new(q);
        let other = removed.iter().find_map(|c| {
            let mut s = base;
            s.forbid(c, self.grid.get(c));
            s.count(1).solution
        })?;
        Some(
            Cell::all()
                .filter(|&c| other.get(c) != self.grid.get(c))
                .collect(),
        )
    }

    /// Makes `q` (`p` without the orbit `removed`) proper again by adding orbits elsewhere, each
    /// meeting the cells where a second solution differs from the grid (an unavoidable set),
    /// then digs it to a minimal puzzle: the "{-1+n}" move of the puzzle hunters' forums.
    fn repair<R: RngCore>(&self, mut q: Puzzle, removed: CellSet, rng: &mut R) -> Option<Puzzle> {
        for _ in 0..REPAIR_ADDS {
            let Some(differ) = self.other_solution(&q, removed) else {
                return Some(dig(q, &self.grid, self.orbits, self.givens.0, rng));
            };
            let filled = q.filled();
            let choices: Vec<CellSet> = self
                .orbits
                .iter()
                .copied()
                .filter(|&o| o != removed && (o & filled).is_empty() && !(o & differ).is_empty())
                .collect();
            if choices.is_empty() {
                return None;
            }
            q = with(&q, choices[below(rng, choices.len())], &self.grid);
        }
        None
    }

    /// A move towards an easier puzzle: add an orbit that meets the cells still empty where the
    /// solver got stuck; if the count is at its top, remove another orbit to make room.
    fn easier<R: RngCore>(&self, rng: &mut R) -> Option<Puzzle> {
        let (full, empty) = self.split();
        let useful: Vec<CellSet> = empty
            .into_iter()
            .filter(|&o| !(o & self.rating.stuck).is_empty())
            .collect();
        if useful.is_empty() {
            return None;
        }
        let added = useful[below(rng, useful.len())];
        let q = with(&self.p, added, &self.grid);
        let (_, hi) = self.givens;
        if q.givens() <= hi && !(self.config.base.minimal) {
            return Some(q);
        }
        let same: Vec<CellSet> = full
            .into_iter()
            .filter(|o| o.len() == added.len())
            .collect();
        if same.is_empty() {
            return None;
        }
        let removed = same[below(rng, same.len())];
        if !still_unique(&q, removed, &self.grid) {
            return None;
        }
        let q = without(&q, removed);
        Some(if self.config.base.minimal {
            dig(q, &self.grid, self.orbits, self.givens.0, rng)
        } else {
            q
        })
    }
}

/// Whether removing the givens `cells` from `p` (proper, with solution `g`) keeps it proper: one
/// first-solution search per cell, with that cell's solution digit forbidden (the argument in
/// [`crate::generate`]'s module docs).
fn still_unique(p: &Puzzle, cells: CellSet, g: &Grid) -> bool {
    let base = Solver::new(&without(p, cells));
    cells.iter().all(|c| {
        let mut s = base;
        s.forbid(c, g.get(c));
        !s.has_solution()
    })
}

/// Digs `p` (proper, with solution `g`) to a puzzle minimal over `orbits`, in random order,
/// never below `floor` givens. One pass suffices: a removal that fails once fails after any
/// later removal too.
fn dig<R: RngCore>(
    mut p: Puzzle,
    g: &Grid,
    orbits: &[CellSet],
    floor: usize,
    rng: &mut R,
) -> Puzzle {
    let filled = p.filled();
    let mut order: Vec<CellSet> = orbits
        .iter()
        .copied()
        .filter(|&o| (o & filled) == o)
        .collect();
    for i in (1..order.len()).rev() {
        order.swap(i, below(rng, i + 1));
    }
    let mut n = p.givens();
    for o in order {
        let k = o.len() as usize;
        if n >= floor + k && still_unique(&p, o, g) {
            p = without(&p, o);
            n -= k;
        }
    }
    p
}

/// A uniform integer below `n` (Lemire's multiply-shift; the bias below `n / 2^32` is harmless).
fn below<R: RngCore>(rng: &mut R, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

/// What a rated batch produced.
#[derive(Clone, Debug)]
pub struct RatedBatch {
    /// The puzzles found with their ratings, in item order.
    pub puzzles: Vec<(Generated, Summary)>,
    /// For each puzzle, its item number: `rng_for(seed, item)` is the stream it came from.
    pub items: Vec<usize>,
    /// How many puzzles were asked for.
    pub requested: usize,
    /// Complete grids tried, over all items.
    pub grids: u64,
    /// Whether the time budget ran out before every item was found.
    pub timed_out: bool,
    /// Wall-clock time the batch took.
    pub elapsed: Duration,
}

impl RatedBatch {
    /// Whether every asked puzzle was found.
    pub fn is_complete(&self) -> bool {
        self.puzzles.len() == self.requested
    }
}

/// Makes `count` puzzles for `config`, in parallel on rayon's pool.
///
/// Item `i` draws from its own stream `rng_for(seed, i)`, so the same seed gives the same
/// puzzles whatever the number of threads, as long as the budget is not hit. With a `budget`,
/// items not found when it runs out are left out, and the result says how many of the asked
/// were found ("found M of N"). Without one, an item gives up after 10,000 grids.
/// `progress(k)` is called (from any thread) as `k` more puzzles are found.
///
/// # Errors
/// A [`RatedError`] if no puzzle can satisfy `config`.
///
/// # Examples
/// ```
/// use shudu_core::{generate::GenerateConfig, logic::Band, rated::*};
/// let config = RatedConfig::band(GenerateConfig::default(), Band::Fiendish);
/// let batch = generate_rated_batch(&config, 2, 7, None, &|_| {})?;
/// assert!(batch.is_complete());
/// assert!(batch.puzzles.iter().all(|(_, g)| g.band == Band::Fiendish));
/// # Ok::<(), RatedError>(())
/// ```
pub fn generate_rated_batch(
    config: &RatedConfig,
    count: usize,
    seed: u64,
    budget: Option<Duration>,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<RatedBatch, RatedError> {
    config.validate()?;
    let mut puzzles = Vec::new();
    let mut items = Vec::new();
    let summary = generate_rated_stream(config, 0..count, seed, budget, progress, &mut |i, t| {
        items.push(i);
        puzzles.push(t);
        Ok::<(), std::convert::Infallible>(())
    })
    .unwrap_or_else(|e| match e {});
    Ok(RatedBatch {
        timed_out: summary.timed_out,
        puzzles,
        items,
        requested: count,
        grids: summary.attempts,
        elapsed: summary.elapsed,
    })
}

/// The most times an item equivalent to an earlier one is made again before it is left out.
const MAX_RETRIES: u64 = 64;

/// [`generate_rated_batch`] streamed: items `items` in order, each puzzle found handed to
/// `emit(item, (puzzle, rating))` as soon as the items before it are done, with memory bounded by
/// the thread count (see [`crate::generate::generate_stream`]).
///
/// # Errors
/// The first error `emit` returns, which stops the batch.
///
/// # Panics
/// If the config is invalid (see [`RatedConfig::validate`]).
pub fn generate_rated_stream<E>(
    config: &RatedConfig,
    items: std::ops::Range<usize>,
    seed: u64,
    budget: Option<Duration>,
    progress: &(dyn Fn(usize) + Sync),
    emit: &mut dyn FnMut(usize, (Generated, Summary)) -> Result<(), E>,
) -> Result<StreamSummary, E> {
    config.validate().expect("a validated config");
    let start = Instant::now();
    let deadline = budget.map(|b| start + b);
    let orbits = config.base.symmetry.orbits();
    let requested = items.len();
    let slots = config.levels().iter().map(|l| l.2).sum();
    let level = |item: usize| batch_level(seed, item, slots);
    let mut new = NewClasses::default();
    let mut found = 0;
    let mut retried = 0;
    let (_, mut attempts) = stream_items(
        items,
        seed,
        deadline,
        progress,
        |item, rng, tried| leveled(config, level(item), &orbits, rng, deadline, tried),
        &mut |item, mut t: (Generated, Summary)| {
            // An item equivalent to an earlier one is made again from a further stream (one
            // that depends only on the seed, the item and the retry), so the output stays the
            // same whatever the thread count.
            // (A config whose every puzzle is one of a few classes would retry forever: after
            // `MAX_RETRIES` the item is left out, and the run says "found M of N".)
            for retry in 1..=MAX_RETRIES {
                if new.insert(&t.0.puzzle) {
                    found += 1;
                    return emit(item, t);
                }
                let mut rng =
                    crate::grids::rng_for(seed ^ retry.wrapping_mul(RETRY_KEY), item as u64);
                match leveled(
                    config,
                    level(item),
                    &orbits,
                    &mut rng,
                    deadline,
                    &mut retried,
                ) {
                    Some(next) => t = next,
                    None => break,
                }
            }
            Ok(())
        },
    )?;
    attempts += retried;
    Ok(StreamSummary {
        found,
        requested,
        attempts,
        timed_out: found < requested && deadline.is_some_and(|d| Instant::now() >= d),
        elapsed: start.elapsed(),
    })
}
