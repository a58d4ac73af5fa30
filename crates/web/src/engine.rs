//! The one place the web crate calls the core's generator and grader, so that the handlers and
//! the pool speak only of puzzles, bands and steps.

use shudu_core::generate::{generate_one, GenerateConfig};
use shudu_core::grids::Rng;
use shudu_core::logic;
use shudu_core::needs::TechniqueSet;
use shudu_core::rated::{generate_rated, RatedConfig, MAX_RATING};
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

/// The puzzle's rating (Sudoku Explainer's ER) and band.
pub fn grade(p: &Puzzle) -> (Rating, Band) {
    let g = logic::rate(p);
    (g.er, g.band)
}

/// [`grade`], given up (`None`) as soon as `stop()` says so between two steps.
pub fn grade_until(p: &Puzzle, stop: &dyn Fn() -> bool) -> Option<(Rating, Band)> {
    logic::rate_until(p, stop).map(|g| (g.er, g.band))
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
    fn grade_puts_the_rating_in_its_band() {
        let p: Puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        let (rating, band) = grade(&p);
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
