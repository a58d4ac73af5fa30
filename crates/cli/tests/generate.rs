//! `shudu generate`, `shudu check` and the assignment's `-n` / `-m` / `-r` / `-u` mode, end to
//! end: every flag, every error path.
//!
//! The generated puzzles themselves depend on the grid generator, whose output follows the
//! solver's search order; so these tests check properties (uniqueness, givens, symmetry,
//! reproducibility) rather than pinning generated text, and pin exact text where it does not
//! depend on the generator (`check`, errors).

use std::fs;

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use shudu_core::generate::Symmetry;
use shudu_core::solver::count_solutions;
use shudu_core::Puzzle;

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn shudu() -> Command {
    Command::cargo_bin("shudu").unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let out = shudu().args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

fn puzzles(text: &str) -> Vec<Puzzle> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect()
}

fn is_proper(p: &Puzzle) -> bool {
    count_solutions(p, 2).count == 1
}

#[test]
fn generate_prints_proper_puzzles_one_a_line() {
    let out = stdout_of(&["generate", "-n", "5", "--seed", "1"]);
    let ps = puzzles(&out);
    assert_eq!(ps.len(), 5);
    assert!(out.lines().all(|l| l.len() == 81));
    assert!(ps.iter().all(is_proper));
}

#[test]
fn same_seed_same_puzzles_whatever_the_threads() {
    let args = ["generate", "-n", "20", "--seed", "42", "--givens", "24..26"];
    let one = stdout_of(&[&args[..], &["--threads", "1"]].concat());
    let two = stdout_of(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    assert_ne!(one, stdout_of(&["generate", "-n", "20", "--seed", "43"]));
}

#[test]
fn givens_exact_and_range() {
    let ps = puzzles(&stdout_of(&[
        "generate", "-n", "6", "--seed", "2", "--givens", "30",
    ]));
    assert!(ps.iter().all(|p| p.givens() == 30 && is_proper(p)));
    let ps = puzzles(&stdout_of(&[
        "generate", "-n", "6", "--seed", "2", "--givens", "25..=27",
    ]));
    assert!(ps
        .iter()
        .all(|p| (25..=27).contains(&p.givens()) && is_proper(p)));
    let ps = puzzles(&stdout_of(&[
        "generate", "-n", "2", "--seed", "2", "--givens", "22",
    ]));
    assert!(ps.iter().all(|p| p.givens() == 22 && is_proper(p)));
}

#[test]
fn symmetry_and_minimal() {
    for s in ["rot180", "rot90", "mirror-h", "dihedral"] {
        let ps = puzzles(&stdout_of(&[
            "generate",
            "-n",
            "3",
            "--seed",
            "3",
            "--symmetry",
            s,
            "--minimal",
        ]));
        let sym: Symmetry = s.parse().unwrap();
        assert!(ps.iter().all(|p| sym.holds_for(p) && is_proper(p)), "{s}");
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    shudu()
        .args(["generate", "-n", "4", "--seed", "4", "--minimal", "-o"])
        .arg(&file)
        .assert()
        .success()
        .stdout("");
    shudu()
        .arg("check")
        .arg(&file)
        .assert()
        .success()
        .stdout(contains("4 puzzles (4 with 1 solution, 4 of them minimal"));
    // --automorphic starts from other grids: still strictly minimal rot180 puzzles.
    let automorphic = dir.path().join("a.txt");
    shudu()
        .args(["generate", "-n", "4", "--seed", "4", "--minimal"])
        .args(["--symmetry", "rot180", "--automorphic", "-o"])
        .arg(&automorphic)
        .assert()
        .success();
    let text = std::fs::read_to_string(&automorphic).unwrap();
    assert!(puzzles(&text)
        .iter()
        .all(|p| Symmetry::Rot180.holds_for(p) && is_proper(p)));
    shudu()
        .arg("check")
        .arg(&automorphic)
        .assert()
        .success()
        .stdout(contains("4 puzzles (4 with 1 solution, 4 of them minimal"));
}

#[test]
fn with_solution_in_line_and_block_formats() {
    let out = stdout_of(&["generate", "-n", "2", "--seed", "5", "--with-solution"]);
    for line in out.lines() {
        let (p, g) = line.split_once(' ').unwrap();
        let p: Puzzle = p.parse().unwrap();
        let g: Puzzle = g.parse().unwrap();
        assert!(g.is_full());
        assert_eq!(count_solutions(&p, 2).solution.unwrap().to_puzzle(), g);
    }
    let out = stdout_of(&[
        "generate",
        "-n",
        "2",
        "--seed",
        "5",
        "--with-solution",
        "--format",
        "grid",
    ]);
    let blocks: Vec<&str> = out.trim_end().split("\n\n").collect();
    assert_eq!(blocks.len(), 4, "puzzle, solution, puzzle, solution");
    for (k, b) in blocks.iter().enumerate() {
        assert_eq!(b.contains('0'), k % 2 == 0, "only the puzzles have blanks");
    }
    let out = stdout_of(&["generate", "-n", "1", "--seed", "5", "--format", "pretty"]);
    assert!(out.starts_with("+-------+-------+-------+\n"));
    let out = stdout_of(&["generate", "-n", "1", "--seed", "5", "--format", "compact"]);
    assert_eq!(out.lines().count(), 9);
}

#[test]
fn json_carries_puzzle_solution_givens_symmetry_seed() {
    let out = stdout_of(&[
        "generate",
        "-n",
        "3",
        "--seed",
        "6",
        "--symmetry",
        "rot180",
        "--format",
        "json",
    ]);
    for (i, line) in out.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let p: Puzzle = v["puzzle"].as_str().unwrap().parse().unwrap();
        assert_eq!(v["givens"], p.givens());
        assert_eq!(v["symmetry"], "rot180");
        assert_eq!(v["seed"], 6);
        assert_eq!(v["item"], i);
        assert_eq!(v["unique_checked"], true);
        assert_eq!(
            v["solution"].as_str().unwrap(),
            count_solutions(&p, 2).solution.unwrap().to_line()
        );
    }
}

#[test]
fn unique_false_is_plain_digging_and_says_so() {
    shudu()
        .args([
            "generate", "-n", "3", "--seed", "7", "--givens", "20", "--unique", "false",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "# plain random digging (--unique false): puzzles may have several solutions\n",
        ))
        .stderr(contains("without the uniqueness check"));
    let out = stdout_of(&[
        "generate", "-n", "3", "--seed", "7", "--givens", "20", "--unique", "false",
    ]);
    assert!(puzzles(&out).iter().all(|p| p.givens() == 20));
    shudu()
        .args([
            "generate", "-n", "1", "--givens", "20", "--unique", "false", "--format", "json",
        ])
        .assert()
        .success()
        .stdout(contains("\"unique_checked\":false"));
}

#[test]
fn stats_summarise_count_time_and_histograms() {
    shudu()
        .args(["generate", "-n", "30", "--seed", "8", "--stats"])
        .assert()
        .success()
        .stderr(
            contains("made 30 of 30 puzzles (unique solution checked), seed 8")
                .and(contains("us a puzzle"))
                .and(contains("givens:"))
                .and(contains("ratings (Sudoku Explainer bands):")),
        );
}

#[test]
fn band_keeps_only_that_band() {
    let out = stdout_of(&[
        "generate", "-n", "2", "--seed", "9", "--givens", "36..45", "--band", "easy",
    ]);
    for p in puzzles(&out) {
        assert_eq!(
            shudu_core::logic::grade(&p).band,
            shudu_core::logic::Band::Easy
        );
    }
}

#[test]
fn timeout_reports_found_m_of_n_and_exits_1() {
    shudu()
        .args([
            "generate",
            "-n",
            "2",
            "--givens",
            "17",
            "--timeout",
            "300ms",
        ])
        .assert()
        .code(1)
        .stderr(contains(
            "found 0 of 2 puzzles: the time budget of 300ms ran out",
        ));
}

#[test]
fn generate_argument_errors_name_what_was_expected() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--givens", "16"],
            "16 givens is too few: no 9x9 puzzle with fewer than 17 givens has a unique solution (McGuire, Tugemann and Civario, 2012)",
        ),
        (
            &["--givens", "22", "--symmetry", "rot90"],
            "no puzzle with rot90 symmetry has exactly 22 givens: its cells fall into orbits of 1 or 4 cells",
        ),
        (
            &["--givens", "abc"],
            "expected a number of givens K or a range A..B, found 'abc'",
        ),
        (&["--givens", "30..20"], "the range '30..20' is empty"),
        (&["--givens", "82"], "a puzzle has at most 81 givens"),
        (&["--symmetry", "spiral"], "unknown symmetry 'spiral'; expected one of none, rot180"),
        (&["--timeout", "5x"], "expected a duration such as 30s"),
        (&["--unique", "maybe"], "invalid value 'maybe'"),
        (&["--unique", "false"], "needs a number of givens to dig to (--givens)"),
        (&["--band", "tricky"], "unknown difficulty 'tricky'"),
        (&["--format", "xml"], "invalid value 'xml'"),
        (
            &["--automorphic", "--symmetry", "rot180"],
            "automorphic grids serve strictly minimal puzzles with rot180 symmetry only",
        ),
    ];
    for (extra, message) in cases {
        shudu()
            .args(["generate", "-n", "1"])
            .args(*extra)
            .assert()
            .code(2)
            .stderr(contains(*message));
    }
    shudu()
        .args(["generate", "-n", "0"])
        .assert()
        .code(2)
        .stderr(contains("0 is not in 1.."));
    for shard in ["4/4", "1", "a/2", "0/0"] {
        shudu()
            .args(["generate", "-n", "4", "--shard", shard])
            .assert()
            .code(2)
            .stderr(contains("expected a shard I/N with 0 <= I < N"));
    }
    shudu()
        .args(["generate"])
        .assert()
        .code(2)
        .stderr(contains("--count <COUNT>"));
}

#[test]
fn check_reports_every_kind_of_record() {
    let empty = ".".repeat(81);
    let no_solution = format!("12345678.........9{}", ".".repeat(63));
    let text =
        format!("# a test file\n{PUZZLE}\n{no_solution}\n{empty}\n{SOLUTION}\nx\n{SOLUTION}\n");
    shudu().arg("check").write_stdin(text).assert().code(2).stdout(
        "puzzle 1, line 2: valid, 1 solution, not minimal, 30 givens, symmetry rot180\n\
         puzzle 2, line 3: valid, no solution, 9 givens, symmetry none\n\
         puzzle 3, line 4: valid, 2+ solutions, 0 givens, symmetry dihedral\n\
         puzzle 4, line 5: complete grid, valid, first digit 5\n\
         puzzle 5, line 6, column 1: found 'x'; expected 1-9, '.' or '0' (unreadable)\n\
         puzzle 6, line 7: complete grid, valid, first digit 5, same grid as puzzle 4\n\
         checked 6 records: 3 puzzles (1 with 1 solution, 0 of them minimal; 1 with 2+; 1 with none), 2 complete grids (1 repeated; first digit 5 in all), 1 unreadable; \
         4 essentially different (up to transposing, swapping rows, columns, bands or stacks, and \
         renaming digits)\n",
    );
}

#[test]
fn check_exit_status_follows_the_worst_finding() {
    // Not unique: 1.
    shudu()
        .arg("check")
        .write_stdin(format!("{PUZZLE}\n{}\n", ".".repeat(81)))
        .assert()
        .code(1);
    // Proper puzzles and distinct grids: 0, in any format.
    let grid: String = SOLUTION
        .as_bytes()
        .chunks(9)
        .map(|r| {
            let row: Vec<String> = r.iter().map(|&b| (b as char).to_string()).collect();
            row.join(" ") + "\n"
        })
        .collect();
    shudu()
        .args(["check", "-"])
        .write_stdin(format!("{PUZZLE}\n\n{grid}"))
        .assert()
        .success()
        .stdout(contains(
            "1 complete grid (all distinct; first digit 5 in all), 0 unreadable",
        ));
    // Missing file: 2, naming it.
    shudu()
        .args(["check", "no-such-file.txt"])
        .assert()
        .code(2)
        .stderr(contains("cannot read no-such-file.txt"));
}

#[test]
fn check_reads_what_generate_writes_in_every_format() {
    for format in ["line", "grid", "compact", "pretty", "json"] {
        let out = stdout_of(&[
            "generate",
            "-n",
            "3",
            "--seed",
            "10",
            "--format",
            format,
            "--with-solution",
        ]);
        let report = shudu()
            .arg("check")
            .write_stdin(out)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let report = String::from_utf8(report).unwrap();
        assert!(
            report.contains("3 puzzles (3 with 1 solution"),
            "{format}: {report}"
        );
    }
}

#[test]
fn assignment_n_u_writes_unique_puzzles_to_sudoku_txt() {
    let dir = tempfile::tempdir().unwrap();
    shudu()
        .current_dir(dir.path())
        .args(["-n", "5", "-u", "-r", "30~40", "--seed", "1"])
        .assert()
        .success();
    let text = fs::read_to_string(dir.path().join("sudoku.txt")).unwrap();
    let blocks: Vec<&str> = text.trim_end().split("\n\n").collect();
    assert_eq!(blocks.len(), 5);
    for b in blocks {
        let rows: Vec<&str> = b.lines().collect();
        assert_eq!(rows.len(), 9);
        assert!(rows.iter().all(|r| r.len() == 17));
        let cells = rows.concat().replace(' ', "");
        let p: Puzzle = cells.parse().unwrap();
        assert!((30..=40).contains(&(81 - p.givens())));
        assert!(is_proper(&p));
    }
}

#[test]
fn assignment_n_without_u_digs_without_the_check() {
    let dir = tempfile::tempdir().unwrap();
    shudu()
        .current_dir(dir.path())
        .args(["-n", "4", "-r", "50~55", "--seed", "2"])
        .assert()
        .success()
        .stderr(contains("without the uniqueness check"));
    let text = fs::read_to_string(dir.path().join("sudoku.txt")).unwrap();
    assert!(
        !text.contains('#'),
        "the assignment's format has no comments"
    );
    assert_eq!(text.trim_end().split("\n\n").count(), 4);
}

#[test]
fn assignment_m_levels_are_rating_bands() {
    let dir = tempfile::tempdir().unwrap();
    for (m, band) in [
        ("1", shudu_core::logic::Band::Easy),
        ("2", shudu_core::logic::Band::Medium),
    ] {
        shudu()
            .current_dir(dir.path())
            .args(["-n", "3", "-m", m, "--seed", "3"])
            .assert()
            .success();
        let text = fs::read_to_string(dir.path().join("sudoku.txt")).unwrap();
        for b in text.trim_end().split("\n\n") {
            let p: Puzzle = b.replace([' ', '\n'], "").parse().unwrap();
            assert!(is_proper(&p));
            assert_eq!(shudu_core::logic::grade(&p).band, band, "-m {m}");
        }
    }
}

#[test]
fn assignment_n_argument_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["-n", "0"], "0 is not in 1..=10000"),
        (&["-n", "10001"], "10001 is not in 1..=10000"),
        (&["-n", "-3"], "-3 is not in 1..=10000"),
        (&["-n", "3", "-m", "4"], "4 is not in 1..=3"),
        (
            &["-n", "3", "-r", "10~20"],
            "expected a number of blanks A~B with 20 <= A <= B <= 55, found '10~20'",
        ),
        (&["-n", "3", "-r", "40~30"], "found '40~30'"),
        (&["-m", "1"], "required arguments were not provided"),
        (&["-u"], "required arguments were not provided"),
        (&["-n", "3", "-c", "3"], "cannot be used with"),
        (&["-n", "3", "-s", "x.txt"], "cannot be used with"),
    ];
    for (args, message) in cases {
        shudu()
            .current_dir(dir.path())
            .args(*args)
            .assert()
            .code(2)
            .stderr(contains(*message));
    }
    assert!(!dir.path().join("sudoku.txt").exists());
}

/// Issue 12, item 7: a minimal puzzle with more givens than any ever found is refused at once
/// (it used to search forever with no output).
#[test]
fn refuses_minimal_puzzle_with_more_givens_than_any_known() {
    for givens in ["45", "81", "41..50"] {
        shudu()
            .args(["generate", "-n", "1", "--minimal", "--givens", givens])
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .code(2)
            .stderr(contains(
                "the most givens ever found in a minimal puzzle is 40",
            ));
    }
    // 40 and below stay allowed (a range reaching down to common counts finds puzzles).
    let text = stdout_of(&[
        "generate",
        "-n",
        "2",
        "--minimal",
        "--givens",
        "20..45",
        "--seed",
        "4",
    ]);
    assert_eq!(puzzles(&text).len(), 2);
}

/// Issue 12, items 7 and 8: the budget that ran out is named truly, with "found M of N".
#[test]
fn timeout_message_names_the_budget_that_ran_out() {
    shudu()
        .args([
            "generate",
            "-n",
            "2",
            "--givens",
            "17",
            "--seed",
            "1",
            "--timeout",
            "300ms",
        ])
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(1)
        .stderr(contains(
            "found 0 of 2 puzzles: the time budget of 300ms ran out",
        ));
}

/// Issue 12, item 7: `--timeout none` means no limit; other words are refused with the grammar.
#[test]
fn timeout_accepts_none_and_refuses_other_words() {
    let text = stdout_of(&["generate", "-n", "1", "--seed", "2", "--timeout", "none"]);
    assert_eq!(puzzles(&text).len(), 1);
    shudu()
        .args(["generate", "-n", "1", "--timeout", "never"])
        .assert()
        .code(2)
        .stderr(contains("or 'none' for no limit"));
    shudu()
        .args(["generate", "--help"])
        .assert()
        .success()
        .stdout(contains("Default 60s, given afresh for every 1024 puzzles"))
        .stdout(contains("for a --rating range starting at 10.0"))
        .stdout(contains("10m"));
}

/// The spread of a batch: (fewest givens, most givens, distinct counts).
fn spread(givens: &[usize]) -> (usize, usize, usize) {
    let mut distinct = givens.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    (
        *givens.iter().min().unwrap(),
        *givens.iter().max().unwrap(),
        distinct.len(),
    )
}

/// Issue 12, item 9: a range of givens with uniqueness spreads over the range (it used to give
/// its low end every time).
#[test]
fn givens_range_spreads_over_the_range() {
    let text = stdout_of(&["generate", "-n", "60", "--givens", "26..61", "--seed", "5"]);
    let ps = puzzles(&text);
    assert_eq!(ps.len(), 60);
    assert!(ps.iter().all(is_proper));
    let givens: Vec<usize> = ps.iter().map(|p| p.givens()).collect();
    assert!(givens.iter().all(|g| (26..=61).contains(g)), "{givens:?}");
    let (lo, hi, distinct) = spread(&givens);
    assert!(lo <= 32 && hi >= 55 && distinct >= 15, "{givens:?}");
}

/// Issue 12, item 9, the assignment's form: `-r 20~50 -u` spreads the blanks over 20 to 50.
#[test]
fn assignment_blanks_range_spreads_over_the_range() {
    let dir = tempfile::tempdir().unwrap();
    shudu()
        .current_dir(dir.path())
        .args(["-n", "40", "-u", "-r", "20~50", "--seed", "6"])
        .assert()
        .success();
    let text = fs::read_to_string(dir.path().join("sudoku.txt")).unwrap();
    let blanks: Vec<usize> = text
        .trim_end()
        .split("\n\n")
        .map(|b| {
            let p: Puzzle = b.replace([' ', '\n'], "").parse().unwrap();
            assert!(is_proper(&p));
            81 - p.givens()
        })
        .collect();
    assert_eq!(blanks.len(), 40);
    let (lo, hi, distinct) = spread(&blanks);
    assert!(lo <= 26 && hi >= 44 && distinct >= 12, "{blanks:?}");
}

/// Issue 12, item 14: shards 0..N of one seed, concatenated, are exactly one run's output, in
/// every format (block formats number records across shards), whatever --threads.
#[test]
fn shards_of_one_seed_concatenate_to_one_run() {
    for format in ["line", "grid", "json"] {
        let whole = stdout_of(&[
            "generate",
            "-n",
            "10",
            "--seed",
            "21",
            "--format",
            format,
            "--with-solution",
        ]);
        let mut joined = String::new();
        for (i, threads) in [(0, "1"), (1, "2"), (2, "3")] {
            joined.push_str(&stdout_of(&[
                "generate",
                "-n",
                "10",
                "--seed",
                "21",
                "--format",
                format,
                "--with-solution",
                "--shard",
                &format!("{i}/3"),
                "--threads",
                threads,
            ]));
        }
        assert_eq!(joined, whole, "{format}");
    }
}

/// Issue 12, item 14: `generate -n` streams: a count far above the old cap of 1,000,000 is
/// accepted and its first puzzles are written at once (here: the budget ends the run after a
/// second, and what was found by then is on standard output).
#[test]
fn huge_count_streams_its_first_puzzles() {
    let out = shudu()
        .args([
            "generate",
            "-n",
            "100000000",
            "--seed",
            "3",
            "--timeout",
            "1s",
            "--threads",
            "2",
        ])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(1)
        .stderr(contains(
            "of 100000000 puzzles: the time budget of 1s ran out",
        ));
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let ps = puzzles(&text);
    assert!(ps.len() >= 10, "{} puzzles", ps.len());
    assert!(ps.iter().take(50).all(is_proper));
}

/// The techniques of a puzzle's path: the grader's, or with `hints` the hints' (`explain
/// --named`).
fn used(p: &Puzzle, hints: bool) -> Vec<shudu_core::needs::Technique> {
    shudu_core::needs::path_techniques(p, hints)
        .into_iter()
        .flatten()
        .collect()
}

#[test]
fn needs_gives_puzzles_whose_path_uses_each_technique() {
    use shudu_core::needs::Technique;
    let out = stdout_of(&[
        "generate",
        "-n",
        "3",
        "--seed",
        "4",
        "--needs",
        "x-wing,xy-wing",
        "--threads",
        "1",
    ]);
    let ps = puzzles(&out);
    assert_eq!(ps.len(), 3);
    for p in &ps {
        assert!(is_proper(p));
        let t = used(p, false);
        assert!(
            t.contains(&Technique::XWing) && t.contains(&Technique::XyWing),
            "{p}"
        );
    }
    // The same seed gives the same puzzles, whatever the threads.
    let two = stdout_of(&[
        "generate",
        "-n",
        "3",
        "--seed",
        "4",
        "--needs",
        "x-wing,xy-wing",
        "--threads",
        "2",
    ]);
    assert_eq!(out, two);
    // A named technique is looked for on the hints' path, which `explain --named` prints.
    let out = stdout_of(&[
        "generate",
        "-n",
        "2",
        "--seed",
        "4",
        "--needs",
        "skyscraper",
    ]);
    for p in puzzles(&out) {
        assert!(is_proper(&p));
        assert!(used(&p, true).contains(&Technique::Skyscraper), "{p}");
        shudu()
            .args(["explain", "--named", "--brief", &p.to_line()])
            .assert()
            .success()
            .stdout(contains("Skyscraper"));
    }
}

#[test]
fn without_excludes_a_family_and_combines_with_a_band_and_symmetry() {
    let out = stdout_of(&[
        "generate",
        "-n",
        "3",
        "--seed",
        "6",
        "--needs",
        "unique-rectangle",
        "--without",
        "chains",
        "--difficulty",
        "fiendish",
        "--symmetry",
        "rot180",
    ]);
    let ps = puzzles(&out);
    assert_eq!(ps.len(), 3);
    let chains: shudu_core::needs::TechniqueSet = "chains".parse().unwrap();
    for p in &ps {
        assert!(is_proper(p) && Symmetry::Rot180.holds_for(p));
        assert_eq!(
            shudu_core::logic::grade(p).band,
            shudu_core::logic::Band::Fiendish
        );
        let t = used(p, false);
        assert!(t.contains(&shudu_core::needs::Technique::UniqueRectangle));
        assert!(!t.iter().any(|&x| chains.contains(x)), "{p}: {t:?}");
    }
}

#[test]
fn list_techniques_prints_every_name_and_family() {
    let out = stdout_of(&["generate", "--list-techniques"]);
    for t in shudu_core::needs::Technique::ALL {
        assert!(out.contains(t.slug()), "{t}");
    }
    for name in [
        "x-wing",
        "skyscraper",
        "2-string-kite",
        "w-wing",
        "als-xz",
        "chains",
        "fish",
    ] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{name}");
    }
}

#[test]
fn impossible_or_unknown_techniques_are_usage_errors() {
    shudu()
        .args(["generate", "-n", "1", "--needs", "x-wing,sky-scraper"])
        .assert()
        .code(2)
        .stderr(contains("unknown technique 'sky-scraper'").and(contains("skyscraper")));
    shudu()
        .args([
            "generate",
            "-n",
            "1",
            "--needs",
            "x-wing",
            "--without",
            "fish",
        ])
        .assert()
        .code(2)
        .stderr(contains("exclude each other"));
    shudu()
        .args([
            "generate",
            "-n",
            "1",
            "--needs",
            "xy-wing",
            "--difficulty",
            "hard",
        ])
        .assert()
        .code(2)
        .stderr(contains("no puzzle rated 4.0 or less can need xy-wing"));
    shudu()
        .args([
            "generate", "-n", "1", "--needs", "x-wing", "--unique", "false", "--givens", "30",
        ])
        .assert()
        .code(2)
        .stderr(contains("unique solution"));
    // Out of reach within the budget: "found M of N", exit 1.
    shudu()
        .args([
            "generate",
            "-n",
            "2",
            "--needs",
            "nested-forcing-chains",
            "--givens",
            "30",
            "--timeout",
            "300ms",
            "--seed",
            "1",
        ])
        .assert()
        .code(1)
        .stderr(contains("of 2 puzzles: the time budget of 300ms ran out"));
}
