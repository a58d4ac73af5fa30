//! The one place the game calls the core's generator and grader, so that the requests and the
//! server's pool speak only of puzzles, bands and steps.

use shudu_core::generate::GenerateConfig;
use shudu_core::grids::Rng;
use shudu_core::logic;
use shudu_core::needs::TechniqueSet;
use shudu_core::rated::{generate_rated, RatedConfig, MAX_RATING};
use shudu_core::{DigitSet, Puzzle};

pub use shudu_core::generate::Symmetry;
pub use shudu_core::logic::{Band, Rating, Step};

/// A new puzzle of `band` with `symmetry` and the band's [`givens_range`], searched in slices
/// of a fifth of a second until found, or `None` once `stop()` says so between slices. Its
/// rating spreads over the band (the rated search's levels, `docs/rated.md`).
pub fn generate(
    band: Band,
    symmetry: Symmetry,
    rng: &mut Rng,
    stop: &dyn Fn() -> bool,
) -> Option<(Puzzle, Rating, &'static str)> {
    let config = RatedConfig::band(
        GenerateConfig {
            symmetry,
            givens: givens_range(band),
            ..GenerateConfig::default()
        },
        band,
    );
    while !stop() {
        let slice = shudu_core::time::Instant::now() + shudu_core::time::Duration::from_millis(200);
        if let Some((g, summary)) = generate_rated(&config, rng, Some(slice)) {
            return Some((g.puzzle, summary.er, summary.hardest));
        }
    }
    None
}

/// A puzzle's class, the same for every equivalent puzzle (relabelled, transposed, rows,
/// columns, bands or stacks swapped): 64 bits of the hash of its canonical form. The game
/// remembers the classes it has dealt by these keys.
pub fn class_key(p: &Puzzle) -> u64 {
    shudu_core::rated::class_hash(&shudu_core::canon::canonical_puzzle(p).form) as u64
}

/// The puzzle's rating (Sudoku Explainer's ER), its band, and the technique of the path's
/// hardest step (the first one rated ER): what the puzzle needs, which the game shows beside its
/// rating.
pub fn grade_with_hardest(p: &Puzzle) -> (Rating, Band, &'static str) {
    let g = logic::rate(p);
    (g.er, g.band, g.hardest)
}

/// The techniques of a `needs` list (`"x-wing,xy-wing"`), each a technique or a family.
///
/// # Errors
/// The core's message naming the unknown name and listing the valid ones.
pub fn parse_needs(names: &str) -> Result<Vec<TechniqueSet>, String> {
    let needs = shudu_core::needs::parse_list(names).map_err(|e| e.to_string())?;
    if needs.is_empty() {
        return Err("needs: expected at least one technique name".into());
    }
    Ok(needs)
}

/// The rated search's config for puzzles that need `needs`, rated in `band` (the whole scale if
/// `None`), with the given symmetry.
///
/// # Errors
/// The core's reason when no puzzle can satisfy it (a technique rated above the band).
pub fn needs_config(
    needs: Vec<TechniqueSet>,
    band: Option<Band>,
    symmetry: Symmetry,
) -> Result<RatedConfig, String> {
    let config = RatedConfig {
        base: GenerateConfig {
            symmetry,
            ..GenerateConfig::default()
        },
        rating: band.map_or((Rating(0), MAX_RATING), Band::range),
        needs,
        without: TechniqueSet::EMPTY,
    };
    config.validate().map_err(|e| e.to_string())?;
    Ok(config)
}

/// The band a technique is practised in, for a player who chose `band`: `band` itself if some
/// of the technique's ratings fall in it, otherwise the lowest band where one does (an X-Wing,
/// 3.2, is never easy: it is practised in hard).
pub fn practise_band(set: TechniqueSet, band: Band) -> Band {
    let Some((lo, hi)) = set.ratings() else {
        return band;
    };
    let (b_lo, b_hi) = band.range();
    if lo <= b_hi && b_lo <= hi {
        band
    } else {
        Band::of(lo)
    }
}

/// The config for practising `set` in `band` ([`practise_band`]): puzzles whose solving path
/// needs the technique and rates no higher than it, within the band, so that its hardest step
/// is the technique (or, for a named technique found on the hints' path, one SE rates the same).
///
/// # Errors
/// The core's reason when no puzzle can satisfy it.
pub fn practise_config(
    set: TechniqueSet,
    band: Band,
    symmetry: Symmetry,
) -> Result<RatedConfig, String> {
    let (lo, hi) = set.ratings().ok_or("practise: no technique named")?;
    let (b_lo, b_hi) = practise_band(set, band).range();
    let config = RatedConfig {
        base: GenerateConfig {
            symmetry,
            ..GenerateConfig::default()
        },
        rating: (lo.max(b_lo), hi.min(b_hi)),
        needs: vec![set],
        without: TechniqueSet::EMPTY,
    };
    config.validate().map_err(|e| e.to_string())?;
    Ok(config)
}

/// Whether a practised puzzle's hardest step (its `hardest` technique, rated `er`) is the
/// practised technique: for a named technique (checked on the hints' path) any step rated no
/// higher than the technique can be.
pub fn hardest_is(set: TechniqueSet, hardest: &str, er: Rating) -> bool {
    use shudu_core::needs::Technique;
    if set.iter().any(Technique::is_named) {
        return set.ratings().is_some_and(|(_, hi)| er <= hi);
    }
    Technique::of_step(hardest).is_some_and(|t| set.contains(t))
}

/// A puzzle for a [`needs_config`] or [`practise_config`] with its rating, band and hardest
/// technique, searched in slices of a fifth of a second until found or until `stop()` says so
/// between slices (`None` then). With `practise`, only a puzzle whose hardest step is that
/// technique ([`hardest_is`]) is returned.
pub fn generate_needing(
    config: &RatedConfig,
    practise: Option<TechniqueSet>,
    rng: &mut Rng,
    stop: &dyn Fn() -> bool,
) -> Option<(Puzzle, Rating, Band, &'static str)> {
    while !stop() {
        let slice = shudu_core::time::Instant::now() + shudu_core::time::Duration::from_millis(200);
        if let Some((g, summary)) = generate_rated(config, rng, Some(slice)) {
            if practise.is_none_or(|t| hardest_is(t, summary.hardest, summary.er)) {
                return Some((g.puzzle, summary.er, summary.band, summary.hardest));
            }
        }
    }
    None
}

/// How many givens the game deals a band's puzzles with, if not the generator's minimal
/// puzzles (22 to 27 givens): casual players expect easy and medium puzzles to start fuller.
pub fn givens_range(band: Band) -> Option<(usize, usize)> {
    match band {
        Band::Easy => Some((32, 36)),
        Band::Medium => Some((28, 31)),
        _ => None,
    }
}

/// [`grade_with_hardest`], given up (`None`) as soon as `stop()` says so between two steps.
pub fn grade_until(p: &Puzzle, stop: &dyn Fn() -> bool) -> Option<(Rating, Band, &'static str)> {
    logic::rate_until(p, stop).map(|g| (g.er, g.band, g.hardest))
}

/// [`grade_until`] for a pencil-mark line: the solving path starts from the marks
/// ([`logic::rate_marked_until`]), as `shudu grade` rates such a line.
pub fn grade_marked_until(
    p: &Puzzle,
    marks: &shudu_core::format::Marks,
    stop: &dyn Fn() -> bool,
) -> Option<(Rating, Band, &'static str)> {
    logic::rate_marked_until(p, Some(marks), stop).map(|g| (g.er, g.band, g.hardest))
}

/// The next hint from a player's position, if the grader finds one: SE's next step, or where
/// that is a chain, a named technique (skyscraper, W-Wing, ...) that SE would rate no higher
/// ([`logic::next_hint`]).
pub fn next_hint(
    givens: &Puzzle,
    entries: &Puzzle,
    marks: Option<&[DigitSet; 81]>,
) -> Option<Step> {
    logic::next_hint(&logic::Board::from_position(givens, entries, marks))
}

/// A technique or family to practise (`"x-wing"`, `"fish"`), by the names `needs` takes.
///
/// # Errors
/// The core's message naming the unknown name and listing the valid ones.
pub fn parse_practise(name: &str) -> Result<TechniqueSet, String> {
    name.parse::<TechniqueSet>().map_err(|e| e.to_string())
}

/// The name a player reads for what is practised: the technique's (`"X-Wing"`), or a family's
/// (`"fish"`).
pub fn practise_name(set: TechniqueSet) -> String {
    let mut members = set.iter();
    match (members.next(), members.next()) {
        (Some(t), None) => t.name().to_string(),
        _ => set.name(),
    }
}

/// A step of a practised technique (of any member of a family, the first in the catalogue's
/// order that the position holds) from a player's position, even where an easier step exists
/// ([`logic::find_technique`]); `None` where the position holds none.
pub fn practise_step(
    set: TechniqueSet,
    givens: &Puzzle,
    entries: &Puzzle,
    marks: Option<&[DigitSet; 81]>,
) -> Option<Step> {
    let board = logic::Board::from_position(givens, entries, marks);
    set.iter().find_map(|t| logic::find_technique(&board, t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shudu_core::solver::{solve_unique, Solutions};

    #[test]
    fn generated_puzzles_are_unique_in_their_band_with_its_givens_and_symmetry() {
        let mut rng = shudu_core::grids::rng_for(1, 1);
        for (band, symmetry) in [
            (Band::Easy, Symmetry::None),
            (Band::Medium, Symmetry::Rot180),
            (Band::Hard, Symmetry::MirrorV),
            (Band::Fiendish, Symmetry::None),
        ] {
            let (p, rating, hardest) = generate(band, symmetry, &mut rng, &|| false).unwrap();
            assert!(matches!(solve_unique(&p), Solutions::Unique(_)));
            assert!(symmetry.holds_for(&p));
            let r = logic::rate(&p);
            assert_eq!((r.er, r.band, r.hardest), (rating, band, hardest), "{p}");
            if let Some((lo, hi)) = givens_range(band) {
                assert!((lo..=hi).contains(&p.givens()), "{band:?}: {p}");
            }
        }
    }

    #[test]
    fn equivalent_puzzles_share_a_class_key() {
        let p: Puzzle =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        // Transposed, with the digits 1 and 2 swapped: the same class.
        let mut cells = [0u8; 81];
        for (i, &v) in p.as_bytes().iter().enumerate() {
            cells[(i % 9) * 9 + i / 9] = match v {
                1 => 2,
                2 => 1,
                v => v,
            };
        }
        let q = Puzzle::from_bytes(cells).unwrap();
        assert_ne!(p, q);
        assert_eq!(class_key(&p), class_key(&q));
        let other: Puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        assert_ne!(class_key(&p), class_key(&other));
    }

    #[test]
    fn a_technique_is_practised_in_the_chosen_band_or_the_lowest_that_holds_it() {
        let x_wing: TechniqueSet = "x-wing".parse().unwrap();
        assert_eq!(practise_band(x_wing, Band::Easy), Band::Hard);
        assert_eq!(practise_band(x_wing, Band::Hard), Band::Hard);
        assert_eq!(practise_band(x_wing, Band::Extreme), Band::Hard);
        let c = practise_config(x_wing, Band::Diabolical, Symmetry::None).unwrap();
        assert_eq!(c.rating, (Rating(32), Rating(32)));
        assert!(hardest_is(x_wing, "X-Wing", Rating(32)));
        assert!(!hardest_is(x_wing, "XY-Wing", Rating(42)));
    }

    #[test]
    fn grade_puts_the_rating_in_its_band() {
        let p: Puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        let (rating, band, hardest) = grade_with_hardest(&p);
        assert!(!hardest.is_empty());
        assert_eq!(band, Band::of(rating));
    }

    #[test]
    fn next_hint_from_the_start_agrees_with_the_solution() {
        let p: Puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        let Solutions::Unique(g) = solve_unique(&p) else {
            panic!("the classic is unique")
        };
        let step = next_hint(&p, &Puzzle::empty(), None).expect("singles apply");
        for (c, d) in step.placements {
            assert_eq!(g.get(c), d);
        }
    }
}
