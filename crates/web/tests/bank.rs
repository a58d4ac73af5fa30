//! The game's bank (`shudu_web::bank`), every puzzle checked again: one solution by the
//! independent oracle (it shares no code with the engine), the symmetry it is filed under, its
//! rating and hardest technique as the grader gives them now, no two equivalent within a band,
//! and every band and symmetry stocked.

#[path = "../../core/tests/common/oracle.rs"]
#[allow(dead_code)] // is_valid_grid: the bank holds puzzles only
mod oracle;

use shudu_web::{bank, Band, Symmetry};

#[test]
fn every_banked_puzzle_is_unique_symmetric_and_rated_as_filed() {
    let all = bank::all();
    for band in Band::ALL {
        for symmetry in Symmetry::ALL {
            assert!(
                bank::shelf(band, symmetry).count() > 0,
                "{band} {symmetry}: empty"
            );
        }
        let mut canon = shudu_core::canon::PuzzleCanonicalizer::new();
        let mut forms = std::collections::HashSet::new();
        for b in all.iter().filter(|b| Band::of(b.rating) == band) {
            assert!(
                forms.insert(canon.canonical(&b.puzzle).form),
                "{band}: {} twice",
                b.puzzle
            );
        }
    }
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for t in 0..threads {
            scope.spawn(move || {
                for b in all.iter().skip(t).step_by(threads) {
                    let p = b.puzzle;
                    assert_eq!(oracle::count(p.as_bytes(), 2).0, 1, "{p}");
                    assert!(b.symmetry.holds_for(&p), "{p}: {}", b.symmetry);
                    let r = shudu_core::logic::rate(&p);
                    assert_eq!((r.er, r.hardest), (b.rating, b.hardest), "{p}");
                }
            });
        }
    });
}
