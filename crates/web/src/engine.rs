//! The one place the web crate calls the core's generator and grader, so that the handlers and
//! the pool speak only of puzzles, bands and steps.

use rand::seq::SliceRandom;
use rand::Rng as _;
use shudu_core::generate::{generate_one, GenerateConfig};
use shudu_core::grids::Rng;
use shudu_core::logic;
use shudu_core::needs::TechniqueSet;
use shudu_core::rated::{generate_rated, RatedConfig, MAX_RATING};
use shudu_core::solver::{solve_unique, Solutions};
use shudu_core::{DigitSet, Puzzle};

pub use shudu_core::generate::Symmetry;
pub use shudu_core::logic::{Band, Rating, Step};

/// A new minimal puzzle with a unique solution and the given symmetry.
pub fn generate(symmetry: Symmetry, rng: &mut Rng) -> Puzzle {
    let config = GenerateConfig {
        symmetry,
        ..GenerateConfig::default()
    };
    // Without a givens range every attempt succeeds; the loop only guards a future config.
    loop {
        if let Some(g) = generate_one(&config, rng) {
            return g.puzzle;
        }
    }
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

/// A puzzle for a [`needs_config`] with its rating and band, searched in slices of a fifth of
/// a second until found or until `stop()` says so between slices (`None` then).
pub fn generate_needing(
    config: &RatedConfig,
    rng: &mut Rng,
    stop: &dyn Fn() -> bool,
) -> Option<(Puzzle, Rating, Band)> {
    while !stop() {
        let slice = std::time::Instant::now() + std::time::Duration::from_millis(200);
        if let Some((g, summary)) = generate_rated(config, rng, Some(slice)) {
            return Some((g.puzzle, summary.er, summary.band));
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

/// A generated puzzle dealt to the game: its givens brought into its band's
/// [`givens_range`] by adding givens of its solution (whole orbits of `symmetry`, so the
/// pattern keeps it), then graded again. Added givens never make a puzzle harder, but may make
/// it easier: then the easier band's range applies, which may add more.
pub fn deal(p: Puzzle, symmetry: Symmetry, rng: &mut Rng) -> (Puzzle, Rating, Band, &'static str) {
    let mut p = p;
    let (mut rating, mut band, mut hardest) = grade_with_hardest(&p);
    let Solutions::Unique(solution) = solve_unique(&p) else {
        return (p, rating, band, hardest);
    };
    for _ in 0..Band::ALL.len() {
        let Some((lo, hi)) = givens_range(band) else {
            break;
        };
        if p.givens() >= lo {
            break;
        }
        let target = rng.random_range(lo..=hi);
        let mut orbits: Vec<_> = symmetry
            .orbits()
            .into_iter()
            .filter(|o| o.iter().all(|c| p.get(c).is_none()))
            .collect();
        orbits.shuffle(rng);
        for o in orbits {
            let n = o.len() as usize;
            if p.givens() >= target {
                break;
            }
            if p.givens() + n > hi {
                continue;
            }
            for c in o.iter() {
                p.set(c, Some(solution.get(c)));
            }
        }
        (rating, band, hardest) = grade_with_hardest(&p);
    }
    (p, rating, band, hardest)
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
    fn generated_puzzle_is_unique_and_keeps_its_symmetry() {
        let mut rng = shudu_core::grids::rng_for(1, 1);
        for symmetry in [Symmetry::None, Symmetry::Rot180, Symmetry::MirrorV] {
            let p = generate(symmetry, &mut rng);
            assert!(matches!(solve_unique(&p), Solutions::Unique(_)));
            assert!(symmetry.holds_for(&p));
        }
    }

    #[test]
    fn dealt_easy_and_medium_puzzles_have_their_bands_givens() {
        let mut rng = shudu_core::grids::rng_for(7, 0);
        let mut seen = std::collections::HashSet::new();
        for symmetry in [
            Symmetry::None,
            Symmetry::None,
            Symmetry::Rot180,
            Symmetry::None,
        ] {
            for _ in 0..3 {
                let p = generate(symmetry, &mut rng);
                let (q, rating, band, hardest) = deal(p, symmetry, &mut rng);
                assert!(matches!(solve_unique(&q), Solutions::Unique(_)));
                assert!(symmetry.holds_for(&q));
                let r = logic::rate(&q);
                assert_eq!((r.er, r.band), (rating, band), "{}", q.to_line());
                assert!(!hardest.is_empty());
                if let Some((lo, hi)) = givens_range(band) {
                    assert!((lo..=hi).contains(&q.givens()), "{band:?}: {}", q.to_line());
                    seen.insert(band);
                } else {
                    assert_eq!(q, p, "harder bands keep the minimal puzzle");
                }
            }
        }
        assert!(!seen.is_empty(), "some puzzle was easy or medium");
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
