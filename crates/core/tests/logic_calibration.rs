//! Agreement of the logic grader with Sudoku Explainer 1.2.1 on the shared calibration set
//! (`se_calibration.tsv`, 968 puzzles), soundness of every step against the solution, and
//! `rate` giving what `grade` gives.
//!
//! `cargo test -p shudu-core --release --test logic_calibration -- --nocapture` prints the
//! figures; `LOGIC_MISMATCHES=1` also lists each puzzle whose ER differs.

use std::path::PathBuf;

use shudu_core::logic::{grade, rate, Band, Rating};
use shudu_core::solver::{solve_unique, Solutions};
use shudu_core::Puzzle;

struct Row {
    puzzle: Puzzle,
    line: String,
    source: String,
    er: Rating,
    ep: Rating,
    ed: Rating,
    technique: String,
}

fn data_dir() -> PathBuf {
    std::env::var_os("SHUDU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"))
}

fn rating(s: &str) -> Rating {
    let (a, b) = s.split_once('.').unwrap_or((s, "0"));
    Rating(a.parse::<u16>().unwrap() * 10 + b.parse::<u16>().unwrap())
}

fn load() -> Option<Vec<Row>> {
    let path = data_dir().join("se_calibration.tsv");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("skipping: {}: {e}", path.display());
            return None;
        }
    };
    Some(
        text.lines()
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                Row {
                    puzzle: f[0].parse().unwrap(),
                    line: f[0].to_string(),
                    source: f[1].to_string(),
                    er: rating(f[2]),
                    ep: rating(f[3]),
                    ed: rating(f[4]),
                    technique: f[5].to_string(),
                }
            })
            .collect(),
    )
}

#[test]
fn agreement_with_sudoku_explainer() {
    let Some(rows) = load() else { return };
    let verbose = std::env::var_os("LOGIC_MISMATCHES").is_some();
    let (mut same, mut close, mut band, mut same_ep, mut same_ed, mut solved) = (0, 0, 0, 0, 0, 0);
    for r in &rows {
        let g = grade(&r.puzzle);
        // `rate` walks the same path without putting it into words; `grade` explains every step.
        let q = rate(&r.puzzle);
        assert_eq!(
            (q.er, q.ep, q.ed, q.band, q.solved, q.steps, &q.techniques),
            (
                g.er,
                g.ep,
                g.ed,
                g.band,
                g.solved,
                g.steps.len(),
                &g.techniques
            ),
            "rate and grade differ on {}",
            r.line
        );
        assert!(
            g.steps.iter().all(|s| !s.text.is_empty()),
            "a step without text on {}",
            r.line
        );
        solved += g.solved as usize;
        same += (g.er == r.er) as usize;
        close += (g.er.0.abs_diff(r.er.0) <= 5) as usize;
        band += (g.band == Band::of(r.er)) as usize;
        same_ep += (g.ep == r.ep) as usize;
        same_ed += (g.ed == r.ed) as usize;
        if verbose && g.er != r.er {
            let hardest = g
                .steps
                .iter()
                .find(|s| s.rating == g.er)
                .map(|s| s.technique);
            println!(
                "MISMATCH {} {} SE {} ({}) ours {} ({:?})",
                r.line, r.source, r.er, r.technique, g.er, hardest
            );
        }
    }
    let n = rows.len() as f64;
    let pct = |k: usize| 100.0 * k as f64 / n;
    println!(
        "logic vs SE on {} puzzles: same ER {:.1}%, within 0.5 {:.1}%, same band {:.1}%, same EP {:.1}%, \
         same ED {:.1}%, solved {}",
        rows.len(),
        pct(same),
        pct(close),
        pct(band),
        pct(same_ep),
        pct(same_ed),
        solved
    );
    assert_eq!(
        solved,
        rows.len(),
        "every calibration puzzle is uniquely solvable"
    );
    // Floors just under the figures reached (the issue asks 90 / 98 / 97): 100% of each since
    // nested forcing chains (issue 18) rate the 18 `hardest1106` puzzles as SE does.
    assert!(pct(same) >= 99.5, "same ER on {:.1}%", pct(same));
    assert!(pct(close) >= 99.5, "ER within 0.5 on {:.1}%", pct(close));
    assert!(pct(band) >= 99.5, "same band on {:.1}%", pct(band));
    assert!(pct(same_ep) >= 99.5, "same EP on {:.1}%", pct(same_ep));
    assert!(pct(same_ed) >= 99.5, "same ED on {:.1}%", pct(same_ed));
}

/// SE's ratings of puzzles that need nested forcing chains (9.0 and up): the `hardest1106` rows
/// of the calibration set and `tests/data/se_hardest.tsv` (puzzles drawn from the forum's
/// hardest lists, rated with SE 1.2.1's `serate` for this test; see docs/logic.md). The issue
/// asks the same ER on 90% and within 0.3 on 98%.
#[test]
fn nested_chains_agree_with_sudoku_explainer() {
    let Some(calibration) = load() else { return };
    let mut rows: Vec<(String, Rating, Rating, Rating)> = calibration
        .iter()
        .filter(|r| r.source == "hardest1106" && r.er >= Rating(90))
        .map(|r| (r.line.clone(), r.er, r.ep, r.ed))
        .collect();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/se_hardest.tsv");
    let text = std::fs::read_to_string(&path).expect("tests/data/se_hardest.tsv");
    for l in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = l.split('\t').collect();
        let (er, ep, ed) = (rating(f[2]), rating(f[3]), rating(f[4]));
        if er >= Rating(90) && !rows.iter().any(|r| r.0 == f[0]) {
            rows.push((f[0].to_string(), er, ep, ed));
        }
    }
    assert!(rows.len() >= 18, "{} puzzles", rows.len());
    let verbose = std::env::var_os("LOGIC_MISMATCHES").is_some();
    let (mut same, mut close, mut same_ep, mut same_ed) = (0, 0, 0, 0);
    for (line, er, ep, ed) in &rows {
        let q = rate(&line.parse::<Puzzle>().unwrap());
        assert!(q.solved, "{line} not solved");
        same += (q.er == *er) as usize;
        close += (q.er.0.abs_diff(er.0) <= 3) as usize;
        same_ep += (q.ep == *ep) as usize;
        same_ed += (q.ed == *ed) as usize;
        if verbose && (q.er, q.ep, q.ed) != (*er, *ep, *ed) {
            println!(
                "MISMATCH {line} SE {er}/{ep}/{ed} ours {}/{}/{} ({})",
                q.er, q.ep, q.ed, q.hardest
            );
        }
    }
    let pct = |k: usize| 100.0 * k as f64 / rows.len() as f64;
    println!(
        "nested chains vs SE on {} puzzles rated 9.0+: same ER {:.1}%, within 0.3 {:.1}%, \
         same EP {:.1}%, same ED {:.1}%",
        rows.len(),
        pct(same),
        pct(close),
        pct(same_ep),
        pct(same_ed)
    );
    assert!(pct(same) >= 90.0, "same ER on {:.1}%", pct(same));
    assert!(pct(close) >= 98.0, "ER within 0.3 on {:.1}%", pct(close));
}

/// shudu's own extreme band against SE: 30 puzzles of `shudu generate --difficulty extreme`
/// (SE 9.0 to 9.1), rated by SE 1.2.1 (`tests/data/se_extreme.tsv`). Every rating is SE's.
#[test]
fn extreme_band_agrees_with_sudoku_explainer() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/se_extreme.tsv");
    let text = std::fs::read_to_string(&path).expect("tests/data/se_extreme.tsv");
    let mut n = 0;
    for l in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = l.split('\t').collect();
        let (er, ep, ed) = (rating(f[2]), rating(f[3]), rating(f[4]));
        let q = rate(&f[0].parse::<Puzzle>().unwrap());
        assert_eq!((q.er, q.ep, q.ed), (er, ep, ed), "{}", f[0]);
        n += 1;
    }
    assert_eq!(n, 30);
}

#[test]
fn no_step_contradicts_the_solution() {
    let Some(rows) = load() else { return };
    for r in &rows {
        let Solutions::Unique(sol) = solve_unique(&r.puzzle) else {
            panic!("not unique")
        };
        let g = grade(&r.puzzle);
        for s in &g.steps {
            for &(c, d) in &s.placements {
                assert_eq!(
                    sol.get(c),
                    d,
                    "{}: {} places a wrong digit: {}",
                    r.line,
                    s.technique,
                    s.text
                );
            }
            for &(c, d) in &s.eliminations {
                assert_ne!(
                    sol.get(c),
                    d,
                    "{}: {} removes the solution: {}",
                    r.line,
                    s.technique,
                    s.text
                );
            }
            assert!(
                !s.placements.is_empty() || !s.eliminations.is_empty(),
                "{}: empty step {}",
                r.line,
                s.technique
            );
        }
        let _ = (r.ep, r.ed);
    }
}

/// Prints our path for the puzzle in `LOGIC_PUZZLE` next to nothing else; compare it with SE's
/// path in `se_calibration_paths.txt`.
#[test]
#[ignore = "a debugging aid: LOGIC_PUZZLE=<81 chars> cargo test ... print_path -- --ignored --nocapture"]
fn print_path() {
    if let Some(which) = std::env::var_os("LOGIC_BAND") {
        // Profiling aid: grade every calibration puzzle of one SE band (or one source, such as
        // `qqwing-expert`), and print the total and the median time per puzzle.
        let which = which.to_str().unwrap().to_string();
        let band: Option<Band> = which.parse().ok();
        let rows = load().unwrap_or_default();
        let t = std::time::Instant::now();
        let mut times = Vec::new();
        for r in rows
            .iter()
            .filter(|r| band.map_or(r.source == which, |b| Band::of(r.er) == b))
        {
            let t1 = std::time::Instant::now();
            std::hint::black_box(grade(&r.puzzle));
            times.push(t1.elapsed());
        }
        times.sort();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        println!(
            "{} puzzles in {:?}, median {median:?}",
            times.len(),
            t.elapsed()
        );
        return;
    }
    let Some(line) = std::env::var_os("LOGIC_PUZZLE") else {
        return;
    };
    let p: Puzzle = line.to_str().unwrap().parse().unwrap();
    let repeat: usize = std::env::var("LOGIC_REPEAT")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    for _ in 1..repeat {
        std::hint::black_box(grade(&p));
    }
    let g = grade(&p);
    let mut board = shudu_core::logic::Board::new(&p);
    let show = std::env::var("LOGIC_SHOW").ok();
    for s in &g.steps {
        if show.as_deref() == Some(s.technique) {
            for r in 0..9 {
                let row: Vec<String> = (0..9)
                    .map(|c| {
                        let cell = shudu_core::Cell::at(r, c);
                        match board.value(cell) {
                            Some(d) => format!("{:>9}", format!("={d}")),
                            None => format!(
                                "{:>9}",
                                board
                                    .candidates(cell)
                                    .iter()
                                    .map(|d| d.to_string())
                                    .collect::<String>()
                            ),
                        }
                    })
                    .collect();
                println!("{}", row.join(" "));
            }
        }
        println!("{} {}: {}", s.rating, s.technique, s.text);
        board.apply(s);
    }
    println!("ER {} EP {} ED {}", g.er, g.ep, g.ed);
}

/// Every step on puzzles beyond the calibration set (generator output and 17-clue puzzles) agrees
/// with the solution, and every such puzzle gets solved (by techniques or the fallback).
#[test]
fn steps_are_sound_on_other_puzzle_sets() {
    for (name, take) in [
        ("generated_tdoku_minimal_100k", 150),
        ("puzzles2_17_clue", 100),
    ] {
        let path = data_dir().join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("skipping: {}", path.display());
            continue;
        };
        let puzzles: Vec<Puzzle> = text
            .lines()
            .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            .take(take)
            .map(|l| l[..81].parse().unwrap())
            .collect();
        for p in &puzzles {
            let Solutions::Unique(sol) = solve_unique(p) else {
                continue;
            };
            let g = grade(p);
            assert!(g.solved, "{} not solved", p.to_line());
            for s in &g.steps {
                for &(c, d) in &s.placements {
                    assert_eq!(sol.get(c), d, "{}: {}", p.to_line(), s.text);
                }
                for &(c, d) in &s.eliminations {
                    assert_ne!(sol.get(c), d, "{}: {}", p.to_line(), s.text);
                }
            }
        }
    }
}
