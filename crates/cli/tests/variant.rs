//! `shudu solve --size N --variant ...`: variant puzzles in the line format, each answered in its
//! place, bad lines named by puzzle, line and column, and rules the line cannot hold refused.

use assert_cmd::Command;

fn shudu() -> Command {
    Command::cargo_bin("shudu").unwrap()
}

/// Whether `grid` (a line of a 4×4, 6×6 or 9×9 solution) follows the rules, checked here.
fn valid(n: usize, grid: &str, x: bool, knight: bool) -> bool {
    let g: Vec<u32> = grid.chars().map(|c| c.to_digit(17).unwrap()).collect();
    let (br, bc) = match n {
        4 => (2, 2),
        6 => (2, 3),
        _ => (3, 3),
    };
    (0..n * n).all(|a| {
        (0..n * n).all(|b| {
            let (r1, c1, r2, c2) = (a / n, a % n, b / n, b % n);
            let (dr, dc) = (r1.abs_diff(r2), c1.abs_diff(c2));
            let linked = r1 == r2
                || c1 == c2
                || (r1 / br == r2 / br && c1 / bc == c2 / bc)
                || (x && r1 == c1 && r2 == c2)
                || (x && r1 + c1 == n - 1 && r2 + c2 == n - 1)
                || (knight && dr * dc == 2);
            a == b || !linked || g[a] != g[b]
        })
    })
}

#[test]
fn unique_variant_puzzles_are_solved_by_their_rules() {
    let cases: [(&[&str], usize, &str, bool, bool); 3] = [
        (&["--size", "4"], 4, "..3..4.221......", false, false),
        (
            &["--size", "6", "--variant", "x"],
            6,
            "....5...........6...4......6..2...3.",
            true,
            false,
        ),
        (
            &["--variant", "x,anti-knight"],
            9,
            "...4.............................1..6......9.....2...5.8........3................",
            true,
            true,
        ),
    ];
    for (args, n, puzzle, x, knight) in cases {
        let out = shudu()
            .arg("solve")
            .args(args)
            .arg(puzzle)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?} {puzzle}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let sol = String::from_utf8(out.stdout).unwrap().trim().to_string();
        assert_eq!(sol.len(), n * n);
        assert!(valid(n, &sol, x, knight), "{args:?}: {sol} breaks a rule");
        assert!(
            puzzle
                .chars()
                .zip(sol.chars())
                .all(|(p, s)| p == '.' || p == s),
            "keeps the givens"
        );
        // The same puzzle without its variant rules has other solutions.
        if x {
            let plain = shudu()
                .args(["solve", "--size", &n.to_string(), puzzle])
                .output()
                .unwrap();
            assert_eq!(
                plain.status.code(),
                Some(1),
                "{puzzle} is not unique as a classic puzzle"
            );
        }
    }
}

#[test]
fn a_batch_answers_every_line_in_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("six.txt");
    std::fs::write(
        &input,
        "# 6x6 X\n....5...........6...4......6..2...3.\n\n....5...7.......6...4......6..2...3.\n....................................\n11..................................\n",
    )
    .unwrap();
    let out = shudu()
        .args(["solve", "--size", "6", "--variant", "x"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "a malformed line makes the exit status 2"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(valid(6, lines[0], true, false));
    assert_eq!(
        lines[1],
        ".".repeat(36),
        "an unreadable line gives an empty grid in its place"
    );
    assert_eq!(
        lines[2],
        ".".repeat(36),
        "several solutions: the puzzle back"
    );
    assert_eq!(
        lines[3],
        format!("11{}", ".".repeat(34)),
        "no solution: the puzzle back"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(
        "shudu: puzzle 2, line 4: column 9: '7' is not a digit of a 6×6 puzzle (expected . or 0 for empty, 1-6)"
    ));
    assert!(stderr.contains("shudu: puzzle 3, line 5: more than one solution"));
    assert!(stderr.contains("shudu: puzzle 4, line 6: no solution"));
}

#[test]
fn rules_the_line_cannot_hold_are_refused_with_the_reason() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--size", "10"],
            "--size: size 10 has no boxes: expected 4, 6, 8, 9, 12 or 16",
        ),
        (
            &["--variant", "killer"],
            "--variant killer: its regions or cages do not fit in the line format",
        ),
        (
            &["--variant", "x,knights"],
            "--variant: unknown variant 'knights', expected one of x, windoku",
        ),
        (
            &["--size", "6", "--variant", "windoku"],
            "--variant: windoku needs size 9",
        ),
    ];
    for (args, want) in cases {
        let out = shudu()
            .arg("solve")
            .args(args)
            .arg("................")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    }
}

#[test]
fn sixteen_by_sixteen_reads_and_writes_letters() {
    let out = shudu()
        .args(["solve", "--size", "16", "--any"])
        .arg(".".repeat(256))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "an empty grid has several solutions"
    );
    let sol = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert_eq!(sol.len(), 256);
    for row in 0..16 {
        let mut seen: Vec<char> = sol[row * 16..row * 16 + 16].chars().collect();
        seen.sort_unstable();
        assert_eq!(seen.into_iter().collect::<String>(), "123456789ABCDEFG");
    }
}

#[test]
fn f_puzzles_documents_and_links_are_solved_each_by_its_own_rules() {
    use shudu_core::variant::{fpuzzles, Cage, Rules, VariantPuzzle};
    // A 6×6 Sudoku X as a JSON document (the file starts with `{`).
    let x = Rules::classic(6).unwrap().with_diagonals();
    let line = "....5...........6...4......6..2...3.";
    let p = VariantPuzzle::parse_line(x, line).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("x.json");
    std::fs::write(&doc, fpuzzles::to_json(&p, Some("X"))).unwrap();
    let out = shudu()
        .args(["solve", "--fpuzzles"])
        .arg(&doc)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let solved = String::from_utf8(out.stdout).unwrap();
    assert!(valid(6, solved.trim(), true, false), "{solved}");

    // Links, one a line: a 4×4 killer (cages only) made unique by its cages, a bad code and a
    // killer with more than one solution, each answered in its place.
    let k = shudu_core::variant::generate(
        &Rules::classic(4).unwrap(),
        &shudu_core::variant::VariantConfig {
            givens: (0, 0),
            killer: Some(3),
            ..shudu_core::variant::VariantConfig::new(&Rules::classic(4).unwrap())
        },
        7,
        std::time::Instant::now() + std::time::Duration::from_secs(30),
    )
    .unwrap();
    let killer = k.rules().clone();
    assert_eq!(k.givens(), 0, "cages only");
    let loose = VariantPuzzle::new(
        Rules::classic(4)
            .unwrap()
            .with_cages(vec![Cage {
                cells: vec![0, 1],
                sum: Some(3),
            }])
            .unwrap(),
        vec![0; 16],
    )
    .unwrap();
    let code = fpuzzles::to_link(&k, None);
    let code = code.trim_start_matches("https://f-puzzles.com/?load=");
    let input = format!(
        "{}\nhttps://f-puzzles.com/?load=notacode\nhttps://sudokupad.app/fpuzzles{code}\n{}\n",
        fpuzzles::to_link(&k, None),
        fpuzzles::to_link(&loose, None)
    );
    let out = shudu()
        .args(["solve", "--fpuzzles"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unreadable record makes status 2"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert_eq!(lines[0], lines[2], "the same puzzle by both links");
    let g: Vec<u32> = lines[0].chars().map(|c| c.to_digit(10).unwrap()).collect();
    assert!(valid(4, lines[0], false, false), "{}", lines[0]);
    for cage in killer.cages() {
        let sum: u32 = cage.cells.iter().map(|&c| g[c]).sum();
        assert_eq!(Some(sum), cage.sum, "{}", lines[0]);
    }
    assert_eq!(lines[1], "", "an unreadable record keeps its place");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("puzzle 2, line 2: f-puzzles (link): the code does not decompress"),
        "{stderr}"
    );
    assert!(
        stderr.contains("puzzle 4, line 4: more than one solution"),
        "{stderr}"
    );
}

/// `shudu generate` with the arguments, its standard output's lines.
fn generated(args: &[&str]) -> Vec<String> {
    let out = shudu().arg("generate").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn generated_variant_puzzles_solve_back_to_their_solutions() {
    // Line format: each puzzle and its solution, solved again by `shudu solve` under the same
    // rules, which must find that solution and only it; the rules are checked here too.
    let cases: [(&[&str], usize, bool, bool); 3] = [
        (&["--size", "4"], 4, false, false),
        (&["--size", "6", "--variant", "x"], 6, true, false),
        (
            &["--variant", "x,anti-knight", "--symmetry", "rot180"],
            9,
            true,
            true,
        ),
    ];
    for (args, n, x, knight) in cases {
        let lines = generated(&[&["-n", "4", "--seed", "7", "--with-solution"], args].concat());
        assert_eq!(lines.len(), 4, "{args:?}");
        for line in &lines {
            let (puzzle, solution) = line.split_once(' ').unwrap();
            assert_eq!(puzzle.len(), n * n);
            assert!(valid(n, solution, x, knight), "{args:?}: {solution}");
            assert!(puzzle
                .chars()
                .zip(solution.chars())
                .all(|(p, s)| p == '.' || p == s));
            let out = shudu()
                .arg("solve")
                .args(
                    args.iter()
                        .filter(|a| !a.starts_with("rot") && **a != "--symmetry"),
                )
                .arg(puzzle)
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?} {puzzle}");
            assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), solution);
        }
    }
    // The same seed makes the same puzzles whatever the thread count.
    let one = generated(&["-n", "6", "--size", "6", "--seed", "3", "--threads", "1"]);
    let two = generated(&["-n", "6", "--size", "6", "--seed", "3", "--threads", "2"]);
    assert_eq!(one, two);
    assert_eq!(
        generated(&["-n", "3", "--size", "6", "--givens", "14", "--seed", "1"])
            .iter()
            .map(|l| l.chars().filter(|&c| c != '.').count())
            .collect::<Vec<_>>(),
        [14, 14, 14]
    );
}

#[test]
fn jigsaw_and_killer_are_written_as_f_puzzles_links_that_solve_uniquely() {
    for args in [
        &["--size", "6", "--variant", "jigsaw"][..],
        &["--size", "6", "--variant", "killer", "--cages", "4"],
        &["--size", "4", "--variant", "x", "--fpuzzles"],
        &["--size", "6", "--variant", "killer", "--givens", "2..6"],
    ] {
        let lines = generated(&[&["-n", "3", "--seed", "11"], args].concat());
        assert_eq!(lines.len(), 3);
        for link in &lines {
            assert!(link.starts_with("https://f-puzzles.com/?load="), "{link}");
            shudu()
                .args(["solve", "--fpuzzles", link])
                .assert()
                .success();
        }
    }
    // Killer: cages only by default; no single-cell cage stands in for a given.
    let link = &generated(&[
        "-n",
        "1",
        "--size",
        "6",
        "--variant",
        "killer",
        "--seed",
        "2",
    ])[0];
    let json = shudu_core::variant::fpuzzles::from_link(link).unwrap();
    assert_eq!(json.givens(), 0);
    assert!(json
        .rules()
        .cages()
        .iter()
        .all(|c| (2..=5).contains(&c.cells.len())));
}

#[test]
fn variant_generation_refuses_what_it_cannot_do_and_says_what_it_found() {
    for (args, expected) in [
        (
            &["--size", "6", "--needs", "x-wing"][..],
            "--needs: not for --size or --variant puzzles yet",
        ),
        (
            &["--size", "6", "--givens", "40"],
            "a 6x6 puzzle has 36 cells",
        ),
        (
            &["--variant", "x", "--cages", "3"],
            "--cages: only for killer puzzles",
        ),
        (
            &["--variant", "killer", "--cages", "12"],
            "cages of at most 12 cells: expected 2 to 9",
        ),
        (&["--variant", "hexagon"], "unknown variant 'hexagon'"),
        (&["--size", "7"], "--size"),
        (
            &["--givens", "90"],
            "a puzzle has at most 81 givens, not 90",
        ),
    ] {
        let out = shudu()
            .arg("generate")
            .args(["-n", "1", "--seed", "1"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
    // A budget that runs out: what was found is written, and the shortfall said.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.txt");
    std::fs::write(&file, "old\n").unwrap();
    let out = shudu()
        .args([
            "generate",
            "-n",
            "500",
            "--size",
            "16",
            "--timeout",
            "300ms",
            "--seed",
            "1",
        ])
        .arg("-o")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("found ") && err.contains(" of 500 puzzles: the time budget"),
        "{err}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text == "old\n" || text.lines().all(|l| l.len() == 256),
        "{text}"
    );
}

/// `shudu grade --size/--variant/--fpuzzles`: every puzzle rated on SE's scale by the variant
/// techniques, the ratings agreeing with `generate --difficulty`'s band; bad records named.
#[test]
fn variant_puzzles_are_rated_and_generated_by_difficulty() {
    let hard = generated(&[
        "-n",
        "3",
        "--size",
        "6",
        "--variant",
        "x",
        "--difficulty",
        "hard",
        "--seed",
        "4",
    ]);
    assert_eq!(hard.len(), 3);
    let out = shudu()
        .args(["grade", "--size", "6", "--variant", "x", "-"])
        .write_stdin(format!("{}\n", hard.join("\n")))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for (line, puzzle) in text.lines().zip(&hard) {
        // `puzzle ER/EP/ED band`, ER in the hard band (2.6 to 4.0).
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f[0], puzzle);
        assert_eq!(f[2], "hard", "{line}");
        let er: f64 = f[1].split('/').next().unwrap().parse().unwrap();
        assert!((2.6..=4.0).contains(&er), "{line}");
    }
    // A killer as an f-puzzles link, rated in JSON with its techniques.
    let killer = generated(&[
        "-n",
        "1",
        "--variant",
        "killer",
        "--size",
        "6",
        "--seed",
        "2",
    ]);
    let out = shudu()
        .args(["grade", "--fpuzzles", "--format", "json", &killer[0]])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "graded");
    let techniques = v["techniques"].as_array().unwrap();
    assert!(
        techniques
            .iter()
            .any(|t| t["technique"] == "Cage Combination"),
        "{v}"
    );
    // A line of the wrong length, and one with two solutions: each named, the rest rated.
    let out = shudu()
        .args(["grade", "--size", "4", "-"])
        .write_stdin("12\n................\n..3..4.221......\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("puzzle 1, line 1"), "{err}");
    assert!(
        err.contains("puzzle 2, line 2: more than one solution"),
        "{err}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("..3..4.221...... "), "{text}");
}
