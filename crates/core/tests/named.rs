//! The named techniques (`logic::named`): soundness on every position of the calibration paths,
//! how often each fires, and how often a hint prefers one to SE's step.
//!
//! `cargo test -p shudu-core --release --test named -- --nocapture` prints the counts that
//! `docs/logic.md` quotes.

mod common;

use shudu_core::logic::named::{self, Technique};
use shudu_core::logic::{grade, next_hint, next_step, Board, Rating, Step};
use shudu_core::solver::{solve_unique, Solutions};
use shudu_core::{Cell, Digit, DigitSet, Grid, Puzzle};

/// The calibration puzzles (`se_calibration.tsv`, first column).
fn calibration() -> Option<Vec<Puzzle>> {
    let path = common::data_dir().join("se_calibration.tsv");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if std::env::var_os("CI").is_some() => panic!("{}: {e}", path.display()),
        Err(e) => {
            eprintln!("notice: skipping {}: {e}", path.display());
            return None;
        }
    };
    Some(
        text.lines()
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.split('\t').next().unwrap().parse().unwrap())
            .collect(),
    )
}

fn solution(p: &Puzzle) -> Grid {
    match solve_unique(p) {
        Solutions::Unique(g) => g,
        _ => panic!("{} is not unique", p.to_line()),
    }
}

/// A made-up board for one pattern: each listed cell ("r1c1") has exactly the listed digits; every
/// other cell has every digit but the `restricted` ones. The boards need not have a solution:
/// the detectors only read candidates.
fn synthetic(spec: &[(&str, &str)], restricted: &str) -> Board {
    let digits = |s: &str| -> DigitSet {
        s.bytes()
            .map(|b| Digit::new(b - b'0').expect("a digit"))
            .collect()
    };
    let mut marks = [!digits(restricted) & DigitSet::ALL; 81];
    for (name, ds) in spec {
        marks[cell(name).as_index()] = digits(ds);
    }
    Board::from_position(&Puzzle::empty(), &Puzzle::empty(), Some(&marks))
}

/// A real position: its digits (81 characters) and its candidates (81 comma-separated fields).
fn position(values: &str, marks: &str) -> Board {
    let p: Puzzle = values.parse().expect("81 characters");
    let mut m = [DigitSet::EMPTY; 81];
    for (i, field) in marks.split(',').enumerate() {
        m[i] = field
            .bytes()
            .map(|b| Digit::new(b - b'0').expect("a digit"))
            .collect();
    }
    Board::from_position(&p, &p, Some(&m))
}

fn cell(name: &str) -> Cell {
    let b = name.as_bytes();
    Cell::at((b[1] - b'1') as usize, (b[3] - b'1') as usize)
}

/// "r2c6≠5" for each elimination, in order.
fn elims(step: &Step) -> Vec<String> {
    step.eliminations
        .iter()
        .map(|(c, d)| format!("{c}≠{d}"))
        .collect()
}

/// A step's figure in words: its base and cover houses, its fins, and its links ("r1c5=r1c1"
/// strong, "r1c1-r5c1" weak).
fn figure(step: &Step) -> (Vec<String>, Vec<String>, Vec<String>, Vec<String>) {
    let f = step.figure.as_deref().expect("a figure");
    let names = |hs: &[shudu_core::House]| hs.iter().map(|h| h.to_string()).collect();
    (
        names(&f.base),
        names(&f.cover),
        f.fins.iter().map(|c| c.to_string()).collect(),
        f.links
            .iter()
            .map(|l| format!("{}{}{}", l.from, if l.strong { "=" } else { "-" }, l.to))
            .collect(),
    )
}

fn texts(steps: &[Step]) -> Vec<String> {
    steps.iter().map(|s| s.text.clone()).collect()
}

#[test]
fn skyscraper_removes_what_sees_both_tops() {
    // 5 in rows 1 and 5 only at columns 1 and 5, and 1 and 6: bases r1c1, r5c1 share column 1,
    // so one of the tops r1c5, r5c6 is 5. r2c6 (box 2, column 6) and r4c5 (column 5, box 5) see
    // both; r9c5 and r8c6 see one top each and keep their 5 (they also keep columns 5 and 6
    // from being strong links).
    let b = synthetic(
        &[
            ("r1c1", "5"),
            ("r1c5", "5"),
            ("r5c1", "5"),
            ("r5c6", "5"),
            ("r2c6", "5"),
            ("r4c5", "5"),
            ("r9c5", "5"),
            ("r8c6", "5"),
        ],
        "5",
    );
    let found = Technique::Skyscraper.find(&b);
    assert_eq!(found.len(), 1, "{:?}", texts(&found));
    assert_eq!(elims(&found[0]), ["r2c6≠5", "r4c5≠5"]);
    assert_eq!(found[0].technique, "Skyscraper");
    assert!(found[0]
        .text
        .starts_with("Skyscraper on 5 in row 1 and row 5:"));
    assert_eq!(found[0].hint_technique(), "Look for a Skyscraper.");
    assert_eq!(
        found[0].hint_where(),
        "Look for a Skyscraper in row 1, row 5, column 1."
    );
    // Drawn as base rows, the bases' column as cover, and the chain top = base - base = top.
    assert_eq!(
        figure(&found[0]),
        (
            vec!["row 1".into(), "row 5".into()],
            vec!["column 1".into()],
            vec![],
            vec!["r1c5=r1c1".into(), "r1c1-r5c1".into(), "r5c1=r5c6".into()]
        )
    );
}

#[test]
fn x_wing_figure_has_base_rows_cover_columns_and_strong_links() {
    // 5 in rows 2 and 7 only at columns 3 and 8; r4c3 and r5c8 lose it.
    let b = synthetic(
        &[
            ("r2c3", "5"),
            ("r2c8", "5"),
            ("r7c3", "5"),
            ("r7c8", "5"),
            ("r4c3", "5"),
            ("r5c8", "5"),
        ],
        "5",
    );
    let step = shudu_core::logic::fish::fish(&b, 2).expect("an X-Wing");
    assert_eq!(step.technique, "X-Wing");
    assert_eq!(elims(&step), ["r4c3≠5", "r5c8≠5"]);
    assert_eq!(
        figure(&step),
        (
            vec!["row 2".into(), "row 7".into()],
            vec!["column 3".into(), "column 8".into()],
            vec![],
            vec!["r2c3=r2c8".into(), "r7c3=r7c8".into()]
        )
    );
}

#[test]
fn two_string_kite_removes_what_sees_both_tails() {
    // 3 in row 2 at r2c2, r2c7 and in column 1 at r3c1, r8c1; r2c2 and r3c1 share box 1, so one
    // of the tails r2c7, r8c1 is 3, and r8c7 sees both. r8c9 and r5c7 keep row 8 and column 7
    // from being strong links.
    let b = synthetic(
        &[
            ("r2c2", "3"),
            ("r2c7", "3"),
            ("r3c1", "3"),
            ("r8c1", "3"),
            ("r8c7", "3"),
            ("r8c9", "3"),
            ("r5c7", "3"),
        ],
        "3",
    );
    let found = Technique::TwoStringKite.find(&b);
    assert_eq!(found.len(), 1, "{:?}", texts(&found));
    assert_eq!(elims(&found[0]), ["r8c7≠3"]);
    assert_eq!(found[0].hint_technique(), "Look for a 2-String Kite.");
    assert_eq!(
        figure(&found[0]).3,
        ["r2c7=r2c2", "r2c2-r3c1", "r3c1=r8c1"],
        "tail = box end - box end = tail"
    );
}

#[test]
fn empty_rectangle_empties_the_box() {
    // Box 1's 7s (r1c2, r3c2, r2c1, r2c3) lie in row 2 and column 2; column 6 has 7 only in
    // r2c6 and r7c6. If r7c2 were 7, r7c6 would not be, r2c6 would, and box 1 would have no 7.
    // r7c8 keeps row 7 from being a strong link.
    let b = synthetic(
        &[
            ("r1c2", "7"),
            ("r3c2", "7"),
            ("r2c1", "7"),
            ("r2c3", "7"),
            ("r2c6", "7"),
            ("r7c6", "7"),
            ("r7c2", "7"),
            ("r7c8", "7"),
        ],
        "7",
    );
    let found = Technique::EmptyRectangle.find(&b);
    assert_eq!(found.len(), 1, "{:?}", texts(&found));
    assert_eq!(elims(&found[0]), ["r7c2≠7"]);
    let (base, cover, _, links) = figure(&found[0]);
    assert_eq!(base, ["box 1"]);
    assert_eq!(cover, ["row 2", "column 2", "column 6"]);
    assert_eq!(links, ["r7c2-r7c6", "r7c6=r2c6"]);
    assert_eq!(found[0].hint_technique(), "Look for an Empty Rectangle.");
}

#[test]
fn finned_and_sashimi_x_wings_remove_only_in_the_fin_box() {
    // 4 in rows 1 and 5 at columns 2 and 8, plus the fin r1c9 (box 3): r2c8 (column 8, box 3)
    // loses 4; r7c8 (column 8, outside the fin's box) keeps it.
    let mut spec = vec![
        ("r1c2", "4"),
        ("r1c8", "4"),
        ("r1c9", "4"),
        ("r5c2", "4"),
        ("r5c8", "4"),
        ("r2c8", "4"),
        ("r7c8", "4"),
    ];
    let found = Technique::FinnedFish.find(&synthetic(&spec, "4"));
    assert_eq!(found.len(), 1, "{:?}", texts(&found));
    assert_eq!(found[0].technique, "Finned X-Wing");
    assert_eq!(elims(&found[0]), ["r2c8≠4"]);
    // Row 1's three places are weakly linked (one of them is 4), row 5's two strongly.
    assert_eq!(
        figure(&found[0]),
        (
            vec!["row 1".into(), "row 5".into()],
            vec!["column 2".into(), "column 8".into()],
            vec!["r1c9".into()],
            vec!["r1c2-r1c8".into(), "r1c8-r1c9".into(), "r5c2=r5c8".into()]
        )
    );
    // Without r1c8 row 1 has one place in the cover: a sashimi X-Wing, same elimination.
    spec.retain(|(c, _)| *c != "r1c8");
    let found = Technique::FinnedFish.find(&synthetic(&spec, "4"));
    assert_eq!(found.len(), 1, "{:?}", texts(&found));
    assert_eq!(found[0].technique, "Sashimi X-Wing");
    assert_eq!(elims(&found[0]), ["r2c8≠4"]);
}

#[test]
fn simple_colouring_traps_a_cell_seeing_both_colours() {
    // Strong links on 6: r1c1-r7c1 (column 1), r7c1-r7c5 (row 7), r7c5-r3c5 (column 5): blue
    // r1c1, r7c5; green r7c1, r3c5. r1c4 sees r1c1 (row 1) and r3c5 (box 2); r3c2 sees r1c1
    // (box 1) and r3c5 (row 3). The other 6s see one colour or none, and keep rows 1 and 3 and
    // boxes 1 and 2 from being strong links.
    let b = synthetic(
        &[
            ("r1c1", "6"),
            ("r7c1", "6"),
            ("r7c5", "6"),
            ("r3c5", "6"),
            ("r1c4", "6"),
            ("r3c2", "6"),
            ("r1c8", "6"),
            ("r3c8", "6"),
            ("r2c3", "6"),
            ("r2c6", "6"),
        ],
        "6",
    );
    let found = Technique::SimpleColouring.find(&b);
    assert_eq!(found.len(), 1, "{:?}", texts(&found));
    assert!(found[0].text.contains("(colour trap)"));
    assert_eq!(elims(&found[0]), ["r1c4≠6", "r3c2≠6"]);
}

#[test]
fn simple_colouring_wrap_removes_the_false_colour() {
    // Strong links on 8: r1c1-r1c6 (row 1), r1c6-r5c6 (column 6), r5c6-r5c2 (row 5), r5c2-r2c2
    // (column 2): blue r1c1, r5c6, r2c2; green r1c6, r5c2. Blue r1c1 and r2c2 share box 1, so
    // blue is false. r3c3 keeps box 1 from being a strong link.
    let b = synthetic(
        &[
            ("r1c1", "8"),
            ("r1c6", "8"),
            ("r5c6", "8"),
            ("r5c2", "8"),
            ("r2c2", "8"),
            ("r3c3", "8"),
        ],
        "8",
    );
    let found = Technique::SimpleColouring.find(&b);
    assert_eq!(found.len(), 1, "{:?}", texts(&found));
    assert!(found[0].text.contains("(colour wrap)"));
    assert_eq!(elims(&found[0]), ["r1c1≠8", "r2c2≠8", "r5c6≠8"]);
}

#[test]
fn w_wing_removes_the_other_digit_from_cells_seeing_both() {
    // r1c1 and r9c5 hold only 1 and 2; 2 in row 5 is only in r5c1 (sees r1c1) and r5c5 (sees
    // r9c5). One of r1c1, r9c5 is 1: r1c5 and r9c1 see both.
    let b = synthetic(
        &[
            ("r1c1", "12"),
            ("r9c5", "12"),
            ("r5c1", "2345"),
            ("r5c5", "2345"),
            ("r1c5", "1345"),
            ("r9c1", "1345"),
        ],
        "12",
    );
    let found = Technique::WWing.find(&b);
    assert_eq!(found.len(), 1, "{:?}", texts(&found));
    assert_eq!(elims(&found[0]), ["r1c5≠1", "r9c1≠1"]);
    assert_eq!(
        figure(&found[0]).3,
        ["r1c1-r5c1", "r5c1=r5c5", "r5c5-r9c5"],
        "wing - link end = link end - wing"
    );
    assert_eq!(found[0].hint_technique(), "Look for a W-Wing.");
}

#[test]
fn als_xz_removes_the_common_digit_seen_in_both_sets() {
    // A = {r1c1: 1 5, r1c2: 5 8} (row 1), B = {r5c1: 1 8}. Their 1s (r1c1, r5c1) see each other,
    // so one set lacks 1 and is locked, and 8 is in r1c2 or r5c1: r5c2 sees both and loses 8.
    // The same cells also pair as {r1c2} and {r1c1, r5c1} (column 1), linked by 5, with the
    // same elimination. (Other cells hold six digits: no other set of four cells or fewer is
    // almost locked.)
    let b = synthetic(
        &[
            ("r1c1", "15"),
            ("r1c2", "58"),
            ("r5c1", "18"),
            ("r5c2", "2348"),
        ],
        "158",
    );
    let found = Technique::AlsXz.find(&b);
    assert_eq!(found.len(), 2, "{:?}", texts(&found));
    assert!(found[0].text.contains("their 5s all see each other"));
    assert!(found[1].text.contains("their 1s all see each other"));
    for step in &found {
        assert_eq!(elims(step), ["r5c2≠8"]);
    }
    assert_eq!(found[0].hint_technique(), "Look for an ALS-XZ.");
}

#[test]
fn doubly_linked_als_xz_locks_both_sets() {
    // A = {r1c1: 1 3, r1c2: 2 3}, B = {r4c1: 1 4, r4c2: 2 4}: 1s in column 1 and 2s in column 2
    // see each other, so each set lacks one of 1, 2 and holds its other digit: A's 3 (r2c3 sees
    // both of A's 3s) and B's 4 (r4c8) are locked; r9c1 sees every 1 and r8c2 every 2.
    let b = synthetic(
        &[
            ("r1c1", "13"),
            ("r1c2", "23"),
            ("r4c1", "14"),
            ("r4c2", "24"),
            ("r2c3", "35"),
            ("r4c8", "45"),
            ("r9c1", "15"),
            ("r8c2", "25"),
        ],
        "1234",
    );
    let found = Technique::AlsXz.find(&b);
    let ab: Vec<Cell> = ["r1c1", "r1c2", "r4c1", "r4c2"].map(cell).to_vec();
    let step = found
        .iter()
        .find(|s| s.cells == ab)
        .unwrap_or_else(|| panic!("{:?}", texts(&found)));
    assert!(step.text.starts_with("ALS-XZ (doubly linked)"));
    assert_eq!(elims(step), ["r2c3≠3", "r4c8≠4", "r8c2≠2", "r9c1≠1"]);
}

/// A real position (calibration puzzle `....1.....2..7...6..48....7..1...3.........8.6..7.8..2...6.3....8.4.2.3..4..5..2.`
/// after 36 steps) where SE's next step is a Turbot Fish.
const SKYSCRAPER_VALUES: &str =
    "...21..43.2..74..6..483.2.7871.2.3644.236178.63.748..22..68347..8.492.3..4.157.28";
const SKYSCRAPER_MARKS: &str = "57,569,78,,,569,589,,,1359,,38,59,,,1589,159,,159,1569,,,,569,,\
159,,,,,59,,59,,,,,59,,,,,,,59,,,59,,,,15,159,,,159,59,,,,,,159,157,,67,,,,56,,15,39,,36,,,,\
69,,";

#[test]
fn hint_names_the_turbot_fish_a_skyscraper_with_se_rating() {
    let b = position(SKYSCRAPER_VALUES, SKYSCRAPER_MARKS);
    let se = next_step(&b).expect("a step");
    assert_eq!((se.technique, se.rating), ("Turbot Fish", Rating(66)));
    let hint = next_hint(&b).expect("a hint");
    assert_eq!(hint.technique, "Skyscraper");
    assert_eq!(hint.rating, Rating(66));
    // 9 in column 3 only at r6c3, r7c3, in column 9 only at r5c9, r7c9; r7c3 and r7c9 share
    // row 7, so r6c3 or r5c9 is 9: r5c2 (row 5, box 4) and r6c8 (row 6, box 6) see both.
    assert_eq!(elims(&hint), ["r5c2≠9", "r6c8≠9"]);
    assert_eq!(named::rate(&b, &hint), Rating(66));
    // The solution agrees (the oracle).
    let p: Puzzle = SKYSCRAPER_VALUES.parse().unwrap();
    let (n, sol) = common::oracle::count(p.as_bytes(), 2);
    assert_eq!(n, 1);
    for (c, d) in &hint.eliminations {
        assert_ne!(sol.unwrap()[c.as_index()], d.get());
    }
}

#[test]
fn hints_stay_se_below_chain_level() {
    let p: Puzzle =
        "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
            .parse()
            .unwrap();
    let mut b = Board::new(&p);
    while let Some(s) = next_step(&b) {
        assert_eq!(next_hint(&b).as_ref(), Some(&s));
        b.apply(&s);
    }
    assert!(b.is_solved());
    assert_eq!(next_hint(&b), None);
}

#[test]
fn named_detectors_are_sound_on_every_calibration_position() {
    let Some(puzzles) = calibration() else { return };
    let mut fired = [0usize; 7];
    // Variants: colour wraps, doubly linked ALS-XZ, sashimi fish.
    let (mut wraps, mut doubly, mut sashimi) = (0, 0, 0);
    let mut positions = 0;
    for p in &puzzles {
        let sol = solution(p);
        let g = grade(p);
        let mut board = Board::new(p);
        for s in &g.steps {
            positions += 1;
            for (k, t) in Technique::ALL.into_iter().enumerate() {
                let found = t.find(&board);
                fired[k] += found.len();
                for step in &found {
                    wraps += step.text.contains("(colour wrap)") as usize;
                    doubly += step.text.starts_with("ALS-XZ (doubly linked)") as usize;
                    sashimi += step.technique.starts_with("Sashimi") as usize;
                    assert_eq!(Technique::of(step.technique), Some(t));
                    assert!(!step.eliminations.is_empty(), "{}", step.text);
                    assert!(step.placements.is_empty());
                    for &(c, d) in &step.eliminations {
                        assert_ne!(
                            sol.get(c),
                            d,
                            "{}: {} removes the solution: {}",
                            p.to_line(),
                            step.technique,
                            step.text
                        );
                        assert!(board.candidates(c).contains(d), "{}", step.text);
                    }
                }
            }
            board.apply(s);
        }
    }
    println!(
        "named detectors on {positions} positions of {} calibration paths:",
        puzzles.len()
    );
    for (k, t) in Technique::ALL.into_iter().enumerate() {
        println!("  {:<17} {:>8} steps found", t.name(), fired[k]);
        assert!(fired[k] > 0, "{} never fires", t.name());
    }
    println!(
        "  of which colour wraps {wraps}, doubly linked ALS-XZ {doubly}, sashimi fish {sashimi}"
    );
    assert!(wraps > 0 && doubly > 0 && sashimi > 0);
}

#[test]
fn hints_prefer_named_steps_at_chain_level_on_the_calibration_paths() {
    let Some(puzzles) = calibration() else { return };
    let mut chosen = [0usize; 7];
    let mut ratings: [Vec<Rating>; 7] = Default::default();
    let (mut chain_steps, mut puzzles_with_named) = (0, 0);
    let mut lowered = 0;
    for p in &puzzles {
        let sol = solution(p);
        let g = grade(p);
        let mut board = Board::new(p);
        let mut any = false;
        for s in &g.steps {
            if s.rating >= Rating(62) && s.technique != "Nested Forcing Chains" {
                chain_steps += 1;
                if let Some(n) = named::easiest(&board, s.rating) {
                    let t = Technique::of(n.technique).expect("a named technique");
                    chosen[t as usize] += 1;
                    ratings[t as usize].push(n.rating);
                    any = true;
                    lowered += (n.rating < s.rating) as usize;
                    assert!(n.rating <= s.rating);
                    assert!(n.rating >= Rating(62), "{}: {}", n.rating, n.text);
                    for &(c, d) in &n.eliminations {
                        assert_ne!(sol.get(c), d, "{}: {}", p.to_line(), n.text);
                    }
                }
            }
            board.apply(s);
        }
        puzzles_with_named += any as usize;
    }
    println!(
        "hints at {chain_steps} chain-level steps of the calibration paths: a named step at {} \
         ({lowered} rated below SE's step), in {puzzles_with_named} puzzles:",
        chosen.iter().sum::<usize>()
    );
    for (k, t) in Technique::ALL.into_iter().enumerate() {
        let r = &mut ratings[k];
        r.sort();
        let (lo, mid, hi) = match r.len() {
            0 => Default::default(),
            n => (r[0], r[n / 2], r[n - 1]),
        };
        println!(
            "  {:<17} {:>6}  rated {lo} to {hi}, median {mid}",
            t.name(),
            chosen[k]
        );
    }
    assert!(chosen.iter().sum::<usize>() > 0);
}

/// Prints, for each named technique, the first hints that prefer it on the calibration paths,
/// with SE's step beside it and the position as pencil marks (`NAMED_SHOW=<n>` examples each).
#[test]
#[ignore = "a debugging aid: cargo test --release --test named print_hints -- --ignored --nocapture"]
fn print_hints() {
    let Some(puzzles) = calibration() else { return };
    let want: usize = std::env::var("NAMED_SHOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    // Kinds: the technique name, with the colouring rule and ALS linking told apart.
    let mut shown: Vec<(String, usize)> = Vec::new();
    for p in &puzzles {
        let g = grade(p);
        let mut board = Board::new(p);
        for (i, s) in g.steps.iter().enumerate() {
            if s.rating >= Rating(62) && s.technique != "Nested Forcing Chains" {
                if let Some(n) = named::easiest(&board, s.rating) {
                    let kind = match n.text.split_once(':') {
                        Some((head, _)) => head.to_string(),
                        None => n.technique.to_string(),
                    };
                    let kind = kind.split(" on ").next().unwrap().to_string();
                    let kind = if n.text.contains("colour wrap") {
                        "Simple Colouring (wrap)".to_string()
                    } else {
                        kind
                    };
                    let k = match shown.iter().position(|(s, _)| *s == kind) {
                        Some(k) => k,
                        None => {
                            shown.push((kind, 0));
                            shown.len() - 1
                        }
                    };
                    if shown[k].1 < want {
                        shown[k].1 += 1;
                        println!("{} step {}", p.to_line(), i + 1);
                        println!("  SE    [{}] {}: {}", s.rating, s.technique, s.text);
                        println!("  named [{}] {}: {}", n.rating, n.technique, n.text);
                        println!("  values {}", board.to_puzzle().to_line());
                        println!("  marks {}", marks(&board));
                    }
                }
            }
            board.apply(s);
        }
    }
    for (kind, n) in &shown {
        println!("{kind}: {n}");
    }
}

/// The candidates of a board as 81 comma-separated fields (empty for a filled cell).
fn marks(board: &Board) -> String {
    shudu_core::Cell::all()
        .map(|c| {
            board
                .candidates(c)
                .iter()
                .map(|d| d.to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(",")
}
