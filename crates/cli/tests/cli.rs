//! The `shudu` binary end to end: `grids`, `solve`, and the assignment's `-c` / `-s` mode.

use std::collections::HashSet;
use std::fs;
use std::io::Read;
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use predicates::str::contains;

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn shudu() -> Command {
    Command::cargo_bin("shudu").unwrap()
}

/// Whether `line` is a complete grid obeying every house.
fn valid_grid(line: &str) -> bool {
    let d: Vec<u8> = line.bytes().map(|b| b - b'0').collect();
    if d.len() != 81 || d.iter().any(|&v| !(1..=9).contains(&v)) {
        return false;
    }
    (0..27).all(|h| {
        let cells: Vec<usize> = (0..9)
            .map(|k| match h / 9 {
                0 => (h % 9) * 9 + k,
                1 => k * 9 + h % 9,
                _ => ((h % 9) / 3 * 3 + k / 3) * 9 + (h % 3) * 3 + k % 3,
            })
            .collect();
        let mut seen = 0u16;
        cells.iter().all(|&c| {
            let bit = 1 << d[c];
            let fresh = seen & bit == 0;
            seen |= bit;
            fresh
        })
    })
}

/// Splits the assignment's grid format into 81-character lines, checking its layout exactly.
fn parse_assignment_file(text: &str) -> Vec<String> {
    assert!(
        text.ends_with('\n') && !text.ends_with("\n\n"),
        "no trailing blank line"
    );
    let blocks: Vec<&str> = text.trim_end_matches('\n').split("\n\n").collect();
    blocks
        .iter()
        .map(|b| {
            let rows: Vec<&str> = b.lines().collect();
            assert_eq!(rows.len(), 9, "block {b:?}");
            for r in &rows {
                assert_eq!(r.len(), 17, "row {r:?}");
                assert!(!r.ends_with(' '));
                assert!(r.bytes().skip(1).step_by(2).all(|c| c == b' '), "row {r:?}");
            }
            rows.concat().replace(' ', "")
        })
        .collect()
}

#[test]
fn grids_are_valid_distinct_and_counted() {
    let out = shudu()
        .args(["grids", "-n", "500", "--seed", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 500);
    assert!(lines.iter().all(|l| valid_grid(l)));
    assert_eq!(lines.iter().collect::<HashSet<_>>().len(), 500);
}

#[test]
fn same_seed_same_grids_whatever_the_threads() {
    let run = |threads: &str| {
        shudu()
            .args(["grids", "-n", "3000", "--seed", "42", "--threads", threads])
            .output()
            .unwrap()
            .stdout
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("4"));
    let other = shudu()
        .args(["grids", "-n", "3000", "--seed", "43"])
        .output()
        .unwrap()
        .stdout;
    assert_ne!(one, other);
}

#[test]
fn grids_first_digit_and_formats() {
    let out = shudu()
        .args([
            "grids",
            "-n",
            "20",
            "--seed",
            "1",
            "--first-digit",
            "7",
            "--format",
            "grid",
        ])
        .output()
        .unwrap();
    let grids = parse_assignment_file(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(grids.len(), 20);
    assert!(grids.iter().all(|g| g.starts_with('7') && valid_grid(g)));

    let pretty = shudu()
        .args(["grids", "-n", "1", "--seed", "1", "--format", "pretty"])
        .output()
        .unwrap();
    let text = String::from_utf8(pretty.stdout).unwrap();
    assert_eq!(text.lines().count(), 13);
    assert!(text.starts_with("+-------+-------+-------+\n| "));

    let json = shudu()
        .args(["grids", "-n", "2", "--seed", "1", "--format", "json"])
        .output()
        .unwrap();
    for line in String::from_utf8(json.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(valid_grid(v["puzzle"].as_str().unwrap()));
    }
}

#[test]
fn grids_rejects_bad_arguments() {
    shudu()
        .args(["grids", "-n", "0"])
        .assert()
        .code(2)
        .stderr(contains("0 is not in 1.."));
    shudu()
        .args(["grids", "-n", "948109639681"])
        .assert()
        .code(2)
        .stderr(contains(
            "a batch holds at most 948109639680 distinct grids",
        ));
    shudu()
        .args(["grids", "-n", "5", "--first-digit", "0"])
        .assert()
        .code(2)
        .stderr(contains("expected a digit from 1 to 9, found '0'"));
    shudu()
        .args(["grids"])
        .assert()
        .code(2)
        .stderr(contains("--count"));
}

#[test]
fn grids_output_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.txt");
    shudu()
        .args(["grids", "-n", "10", "--seed", "2", "-o"])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 10);
    // No temporary file is left beside it.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
#[cfg(unix)]
fn output_to_a_device_writes_through_it() {
    // Renaming a temporary file over /dev/null would replace the device with a regular file.
    shudu()
        .args(["grids", "-n", "3", "-o", "/dev/null"])
        .assert()
        .success();
    let meta = fs::metadata("/dev/null").unwrap();
    assert!(!meta.is_file(), "/dev/null must still be a device");
}

#[test]
fn solve_prints_the_solution() {
    shudu()
        .arg("solve")
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
}

#[test]
fn solve_reports_bad_puzzle_and_solves_the_rest() {
    let input = format!(
        "# header\n{PUZZLE}\n{}x{}\n{PUZZLE}\n",
        &PUZZLE[..5],
        &PUZZLE[6..]
    );
    shudu()
        .arg("solve")
        .write_stdin(input)
        .assert()
        .code(2)
        // The unreadable record keeps its place as an empty grid.
        .stdout(format!("{SOLUTION}\n{}\n{SOLUTION}\n", ".".repeat(81)))
        .stderr(contains(
            "puzzle 2, line 3, column 6: found 'x'; expected 1-9, '.' or '0'",
        ));
}

#[test]
fn solve_reports_no_and_several_solutions() {
    let empty = ".".repeat(81);
    // Row 1 holds 1-8 and column 9 holds a 9 lower down: r1c9 has no digit left, a
    // contradiction the parser cannot see (no digit repeats in a house).
    let mut broken = format!("12345678.{}", ".".repeat(72)).into_bytes();
    broken[4 * 9 + 8] = b'9';
    let broken = String::from_utf8(broken).unwrap();
    shudu()
        .arg("solve")
        .write_stdin(format!("{empty}\n{broken}\n"))
        .assert()
        .code(1)
        // Each puzzle without a unique solution is written back unchanged in its place.
        .stdout(format!("{empty}\n{broken}\n"))
        .stderr(contains("puzzle 1, line 1: more than one solution"))
        .stderr(contains("puzzle 2, line 2: no solution"));
    let out = shudu()
        .args(["solve", "--any"])
        .write_stdin(format!("{empty}\n"))
        .assert()
        .code(1)
        .stderr(contains(
            "shudu: puzzle 1, line 1: more than one solution (printing one)\n",
        ))
        .get_output()
        .stdout
        .clone();
    assert!(valid_grid(String::from_utf8(out).unwrap().trim()));
}

#[test]
fn solve_json_has_a_record_per_puzzle() {
    let out = shudu()
        .args(["solve", "--format", "json"])
        .write_stdin(format!("{PUZZLE}\nnot a puzzle\n"))
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let records: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["status"], "unique");
    assert_eq!(records[0]["solution"], SOLUTION);
    assert_eq!(records[1]["status"], "invalid");
    assert_eq!(records[1]["line"], 2);
    assert!(records[1]["error"].as_str().unwrap().contains("found 'n'"));
}

#[test]
fn solve_missing_file_is_an_input_error() {
    shudu()
        .args(["solve", "/nonexistent/p.txt"])
        .assert()
        .code(2)
        .stderr(contains("cannot read /nonexistent/p.txt"));
}

#[test]
fn create_writes_distinct_grids_in_the_assignment_format() {
    let dir = tempfile::tempdir().unwrap();
    shudu()
        .current_dir(dir.path())
        .args(["-c", "200"])
        .assert()
        .success();
    let grids = parse_assignment_file(&fs::read_to_string(dir.path().join("sudoku.txt")).unwrap());
    assert_eq!(grids.len(), 200);
    assert!(grids.iter().all(|g| valid_grid(g) && g.starts_with('1')));
    assert_eq!(grids.iter().collect::<HashSet<_>>().len(), 200);

    shudu()
        .current_dir(dir.path())
        .args(["-c", "3", "--first-digit", "5"])
        .assert()
        .success();
    let grids = parse_assignment_file(&fs::read_to_string(dir.path().join("sudoku.txt")).unwrap());
    assert_eq!(grids.len(), 3, "sudoku.txt is replaced, not appended to");
    assert!(grids.iter().all(|g| g.starts_with('5')));
}

#[test]
fn argument_errors_leave_sudoku_txt_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("sudoku.txt");
    fs::write(&target, "keep me\n").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["-c", "abc"], "invalid value 'abc' for '-c <N>'"),
        (&["-c", "0"], "0 is not in 1..=1000000"),
        (&["-c", "1000001"], "1000001 is not in 1..=1000000"),
        (&["-c", "-5"], "-5 is not in 1..=1000000"),
        (&["-s", "missing.txt"], "cannot read missing.txt"),
        (&["-c", "3", "-s", "x.txt"], "cannot be used with"),
        (&[], "nothing to do"),
    ];
    for (args, message) in cases {
        shudu()
            .current_dir(dir.path())
            .args(*args)
            .assert()
            .code(2)
            .stderr(contains(*message));
        assert_eq!(
            fs::read_to_string(&target).unwrap(),
            "keep me\n",
            "{args:?}"
        );
    }
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
}

#[test]
fn solve_mode_writes_solutions_in_order() {
    let dir = tempfile::tempdir().unwrap();
    // Two puzzles in the assignment's format.
    let to_grid = |p: &str| -> String {
        p.as_bytes()
            .chunks(9)
            .map(|row| {
                row.iter()
                    .map(|&b| {
                        if b == b'.' {
                            "0".to_string()
                        } else {
                            (b as char).to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let second =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let input = format!("{}\n\n{}\n", to_grid(PUZZLE), to_grid(second));
    fs::write(dir.path().join("in.txt"), input).unwrap();
    shudu()
        .current_dir(dir.path())
        .args(["-s", "in.txt"])
        .assert()
        .success();
    let solutions =
        parse_assignment_file(&fs::read_to_string(dir.path().join("sudoku.txt")).unwrap());
    assert_eq!(solutions.len(), 2);
    assert_eq!(solutions[0], SOLUTION);
    assert!(valid_grid(&solutions[1]));
    assert!(solutions[1].starts_with("417369825"));
}

/// A puzzle line in the assignment's layout: 9 lines of 9 digits separated by spaces, `0` for a
/// blank.
fn as_grid(p: &str) -> String {
    p.as_bytes()
        .chunks(9)
        .map(|row| {
            let digits: Vec<String> = row
                .iter()
                .map(|&b| {
                    if b == b'.' {
                        "0".into()
                    } else {
                        (b as char).to_string()
                    }
                })
                .collect();
            digits.join(" ") + "\n"
        })
        .collect()
}

/// Runs `shudu -s in.txt` and `shudu solve --format grid in.txt` on `input`: both outputs, and
/// the `sudoku.txt` that `-s` wrote.
fn solve_mode_and_solve(input: &str) -> (std::process::Output, std::process::Output, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("in.txt"), input).unwrap();
    let fast = shudu()
        .current_dir(dir.path())
        .args(["-s", "in.txt"])
        .output()
        .unwrap();
    let general = shudu()
        .current_dir(dir.path())
        .args(["solve", "--format", "grid", "in.txt"])
        .output()
        .unwrap();
    let sudoku = fs::read(dir.path().join("sudoku.txt")).unwrap();
    (fast, general, sudoku)
}

/// `-s` reads a file in the assignment's exact layout by a fast path, and any other file by the
/// general reader; either way it writes what `shudu solve --format grid` prints, with the same
/// messages and exit code, for puzzles with one, several or no solutions and for a record that
/// breaks the rules.
#[test]
fn solve_mode_matches_solve_to_the_byte_on_every_kind_of_record() {
    let no_solution = format!("12345678.........9{}", ".".repeat(63));
    let conflict = format!("11{}", ".".repeat(79));
    let records = [
        as_grid(PUZZLE),
        as_grid(&".".repeat(81)),
        as_grid(&no_solution),
        as_grid(&conflict),
        as_grid(PUZZLE),
    ];
    let exact = records.join("\n");
    let inputs = [
        ("exact layout", exact.clone()),
        ("exact layout, final blank line", exact.clone() + "\n"),
        ("a dot for a blank", exact.replacen(" 0 ", " . ", 1)),
        ("CRLF line ends", exact.replace('\n', "\r\n")),
    ];
    for (what, input) in inputs {
        let (fast, general, sudoku) = solve_mode_and_solve(&input);
        assert_eq!(fast.status.code(), Some(2), "{what}: the bad record");
        assert_eq!(fast.status.code(), general.status.code(), "{what}");
        assert_eq!(sudoku, general.stdout, "{what}");
        let stderr = String::from_utf8(fast.stderr).unwrap();
        let (messages, last) = stderr.trim_end().rsplit_once('\n').unwrap();
        assert_eq!(
            format!("{messages}\n"),
            String::from_utf8(general.stderr).unwrap(),
            "{what}"
        );
        assert_eq!(
            last, "shudu: wrote 5 records to sudoku.txt (2 solved)",
            "{what}"
        );
    }
}

/// The fast path of `-s` reads a wave of records at a time: a record out of the layout in a
/// later wave (here the 33,000th, past the first wave of 32,768), a record with no solution
/// in the first, or a file that ends in a stray byte, still gives the general reader's output
/// and messages, each message once.
#[test]
fn solve_mode_falls_back_after_the_first_wave_without_repeating_messages() {
    let no_solution = format!("12345678.........9{}", ".".repeat(63));
    let mut records = vec![as_grid(PUZZLE); 33_000];
    records[1] = as_grid(&no_solution);
    let exact = records.join("\n");
    let late_dot = {
        let mut r = records.clone();
        r[32_999] = r[32_999].replacen(" 0 ", " . ", 1);
        r.join("\n")
    };
    let inputs = [
        ("exact layout", exact.clone()),
        ("a dot in the last record", late_dot),
        ("a stray byte at the end", exact.clone() + "x"),
    ];
    for (what, input) in inputs {
        let (fast, general, sudoku) = solve_mode_and_solve(&input);
        assert_eq!(fast.status.code(), general.status.code(), "{what}");
        let general_err = String::from_utf8(general.stderr).unwrap();
        if what == "a stray byte at the end" {
            // The general reader names the stray byte and writes an empty grid in its place.
            assert_eq!(fast.status.code(), Some(2), "{what}");
            assert!(
                general_err.contains("puzzle 33001"),
                "{what}: {general_err}"
            );
        } else {
            assert_eq!(fast.status.code(), Some(1), "{what}");
        }
        assert_eq!(sudoku, general.stdout, "{what}");
        let stderr = String::from_utf8(fast.stderr).unwrap();
        let (messages, _last) = stderr.trim_end().rsplit_once('\n').unwrap();
        assert_eq!(format!("{messages}\n"), general_err, "{what}");
        assert_eq!(
            stderr.matches("puzzle 2, line 11: no solution").count(),
            1,
            "{what}: {stderr}"
        );
    }
}

#[test]
fn broken_pipe_is_not_an_error() {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_shudu"))
        .args(["grids", "-n", "200000", "--seed", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 82];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "status {status:?}, stderr {err}");
    assert_eq!(err, "");
}

#[test]
fn play_serves_the_page_on_the_printed_address() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_shudu"))
        .args(["play", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream
        .write_all(b"GET / HTTP/1.0\r\nHost: localhost\r\n\r\n")
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        response.starts_with("HTTP/1.0 200") || response.starts_with("HTTP/1.1 200"),
        "{}",
        &response[..response.len().min(200)]
    );
    assert!(response.contains("<html"), "the page is served");
}

#[test]
fn play_rejects_a_bad_port() {
    shudu()
        .args(["play", "--port", "99999"])
        .assert()
        .code(2)
        .stderr(contains("99999"));
}

/// Three puzzles of `se_calibration.tsv` with Sudoku Explainer 1.2.1's ER/EP/ED.
const RATED: [(&str, &str); 3] = [
    (
        "..2...9..9....6..18..4...3.....6..5..3...82........3.7.2.9..1..6.1.5.....7...4...",
        "9.0/1.2/1.2 extreme",
    ),
    (
        "........934.........6924..........57.8...1...17.....2....26...3.....9..6...8..27.",
        "4.5/1.2/1.2 fiendish",
    ),
    (
        "..61.8....4.....7........2.6...9...58.....3....7..1...5....3...98....6..3...2..59",
        "7.6/1.2/1.2 diabolical",
    ),
];

#[test]
fn grade_rates_on_the_se_scale_in_input_order() {
    let input: String = RATED.iter().map(|(p, _)| format!("{p}\n")).collect();
    let expected: String = RATED.iter().map(|(p, r)| format!("{p} {r}\n")).collect();
    shudu()
        .args(["grade", "--threads", "2"])
        .write_stdin(input)
        .assert()
        .success()
        .stdout(expected);
}

#[test]
fn grade_json_has_ratings_band_and_techniques() {
    let out = shudu()
        .args(["grade", "--format", "json"])
        .write_stdin(format!("{PUZZLE}\n{}\nbad\n", ".".repeat(81)))
        .assert()
        .code(2)
        .stderr(contains("puzzle 2, line 2: more than one solution"))
        .stderr(contains("puzzle 3, line 3"))
        .get_output()
        .stdout
        .clone();
    let records: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3);
    assert_eq!(records[0]["er"], 1.2);
    assert_eq!(records[0]["band"], "easy");
    let techniques = records[0]["techniques"].as_array().unwrap();
    assert!(techniques
        .iter()
        .any(|t| t["technique"] == "Hidden Single" && t["count"].as_u64().unwrap() > 0));
    assert_eq!(records[1]["status"], "multiple");
    assert!(records[1]["er"].is_null());
    assert_eq!(records[2]["status"], "invalid");
}

#[test]
fn explain_walks_the_whole_path() {
    let out = shudu()
        .args(["explain", PUZZLE])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("rating ER 1.2, EP 1.2, ED 1.2 (easy)"));
    assert!(text.contains("1. [1.2] Hidden Single: In box"));
    // The header announces the number of steps, and every one of them is printed, numbered.
    let announced: usize = text
        .split(" steps")
        .next()
        .and_then(|head| head.rsplit(", ").next())
        .and_then(|n| n.parse().ok())
        .expect("header with the step count");
    let numbered = text
        .lines()
        .filter(|l| {
            l.split_once(". [")
                .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
        })
        .count();
    assert!(announced > 40, "{announced}");
    assert_eq!(numbered, announced);
    let brief = shudu()
        .args(["explain", "--brief", RATED[0].0])
        .assert()
        .success();
    let brief = String::from_utf8(brief.get_output().stdout.clone()).unwrap();
    assert!(brief.contains("rating ER 9.0"));
    assert!(!brief.contains("+----"));
    // Each step names its technique once: the chains' texts open with their name, which the
    // line already shows.
    let mut chains = 0;
    for line in brief.lines().filter(|l| l.contains("] ")) {
        let (_, rest) = line.split_once("] ").unwrap();
        let (name, said) = rest.split_once(": ").expect("technique: text");
        chains += usize::from(name.contains("Chain"));
        assert!(!said.starts_with(&format!("{name}:")), "{line}");
    }
    assert!(chains > 0, "a 9.0 puzzle needs chains:\n{brief}");
}

#[test]
fn explain_refuses_puzzles_without_one_solution() {
    shudu()
        .args(["explain", &".".repeat(81)])
        .assert()
        .code(1)
        .stderr(contains("more than one solution"));
    shudu()
        .args(["explain", "12x"])
        .assert()
        .code(2)
        .stderr(contains(
            "cannot read 12x: no such file (expected a file, a puzzle of 81 characters or pencil marks of 729)",
        ));
    // A puzzle typed inline with a wrong character gets the parser's message.
    shudu()
        .args(["explain", &format!("{}x", &".".repeat(80))])
        .assert()
        .code(2)
        .stderr(contains("the puzzle argument: found 'x'"));
}

#[test]
fn hint_gives_three_stages() {
    shudu()
        .args(["hint", PUZZLE])
        .assert()
        .success()
        .stdout(contains("1. Technique: Look for a Hidden Single."))
        .stdout(contains("2. Where: Look for a Hidden Single in box"))
        .stdout(contains("3. Step [1.2]: In box"));
    let first = shudu()
        .args(["hint", "--stage", "1", PUZZLE])
        .assert()
        .success();
    let text = String::from_utf8(first.get_output().stdout.clone()).unwrap();
    assert_eq!(text.lines().count(), 1);
}

/// A position of a calibration puzzle (its digits, and its candidates as `--marks`) where Sudoku
/// Explainer's next step is a 6.6 Turbot Fish.
const SKYSCRAPER_POSITION: &str =
    "...21..43.2..74..6..483.2.7871.2.3644.236178.63.748..22..68347..8.492.3..4.157.28";
const SKYSCRAPER_MARKS: &str = "57,569,78,,,569,589,,,1359,,38,59,,,1589,159,,159,1569,,,,569,,\
159,,,,,59,,59,,,,,59,,,,,,,59,,,59,,,,15,159,,,159,59,,,,,,159,157,,67,,,,56,,15,39,,36,,,,\
69,,";

#[test]
fn hint_names_a_skyscraper_where_se_has_a_turbot_fish() {
    shudu()
        .args(["hint", SKYSCRAPER_POSITION, "--marks", SKYSCRAPER_MARKS])
        .assert()
        .success()
        .stdout(contains("1. Technique: Look for a Skyscraper.\n"))
        .stdout(contains(
            "2. Where: Look for a Skyscraper in column 3, column 9, row 7.\n",
        ))
        .stdout(contains(
            "3. Step [6.6]: Skyscraper on 9 in column 3 and column 9:",
        ))
        .stdout(contains("=> remove r5c2<>9, r6c8<>9"));
}

#[test]
fn explain_named_walks_the_hints_path() {
    // SE's first chain step on this puzzle is a Turbot Fish; the hints call it a skyscraper.
    let puzzle =
        "..45..82.12...4.5..6.3.1.......672....5...4.......5...41.6.2...7.....1.4.........";
    let se = shudu()
        .args(["explain", "--brief", puzzle])
        .assert()
        .success();
    let se = String::from_utf8(se.get_output().stdout.clone()).unwrap();
    assert!(se.contains("] Turbot Fish: "), "{se}");
    assert!(!se.contains("] Skyscraper: "));
    let named = shudu()
        .args(["explain", "--brief", "--named", puzzle])
        .assert()
        .success();
    let named = String::from_utf8(named.get_output().stdout.clone()).unwrap();
    assert!(named.contains("named techniques shown where Sudoku Explainer"));
    assert!(
        named.contains("[6.6] Skyscraper: Skyscraper on "),
        "{named}"
    );
    // The same SE rating heads both (the step counts differ: a skyscraper can remove more).
    let rating = |t: &str| {
        t.lines()
            .nth(1)
            .unwrap()
            .split(" (")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(rating(&se), "rating ER 6.6, EP 1.2, ED 1.2");
    assert_eq!(rating(&named), rating(&se));
}

#[test]
fn hint_reports_a_wrong_entry_and_bad_marks() {
    // r1c3 holds 4 in the solution; entering 1 there leaves no solution.
    let mut wrong = PUZZLE.to_string();
    wrong.replace_range(2..3, "1");
    shudu()
        .args(["hint", &wrong])
        .assert()
        .code(1)
        .stderr(contains("no solution: some digit entered is wrong"));
    shudu()
        .args(["hint", PUZZLE, "--marks", "1,2"])
        .assert()
        .code(2)
        .stderr(contains("--marks: found 2 cells; expected 81"));
}

/// Grades puzzles with `shudu grade` and returns each ER.
fn ratings_of(puzzles: &str) -> Vec<f64> {
    let out = shudu()
        .arg("grade")
        .write_stdin(puzzles.to_string())
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone())
        .unwrap()
        .lines()
        .map(|l| {
            let fields: Vec<&str> = l.split(' ').collect();
            fields[1].split('/').next().unwrap().parse().unwrap()
        })
        .collect()
}

#[test]
fn generate_by_difficulty_lands_in_the_band() {
    for (band, lo, hi) in [
        ("easy", 1.0, 1.5),
        ("hard", 2.6, 4.0),
        ("diabolical", 6.2, 8.9),
    ] {
        let out = shudu()
            .args([
                "generate",
                "-n",
                "2",
                "--seed",
                "4",
                "--timeout",
                "60s",
                "--difficulty",
                band,
            ])
            .assert()
            .success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert_eq!(text.lines().count(), 2, "{band}");
        for er in ratings_of(&text) {
            assert!((lo..=hi).contains(&er), "{band}: ER {er}");
        }
    }
}

#[test]
fn generate_by_rating_range_with_symmetry() {
    let out = shudu()
        .args(["generate", "-n", "2", "--seed", "5", "--timeout", "60s"])
        .args([
            "--rating",
            "2.6..6.0",
            "--symmetry",
            "rot180",
            "--format",
            "json",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let puzzles: String = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["symmetry"], "rot180");
            format!("{}\n", v["puzzle"].as_str().unwrap())
        })
        .collect();
    for er in ratings_of(&puzzles) {
        assert!((2.6..=6.0).contains(&er), "ER {er}");
    }
}

#[test]
fn generate_rejects_bad_ratings() {
    shudu()
        .args(["generate", "-n", "1", "--rating", "9..3"])
        .assert()
        .code(2)
        .stderr(contains("the rating range '9..3' is empty"));
    shudu()
        .args(["generate", "-n", "1", "--difficulty", "nope"])
        .assert()
        .code(2)
        .stderr(contains(
            "expected one of easy, medium, hard, fiendish, diabolical, extreme",
        ));
    shudu()
        .args([
            "generate",
            "-n",
            "1",
            "--difficulty",
            "easy",
            "--rating",
            "1.0",
        ])
        .assert()
        .code(2)
        .stderr(contains("cannot be used with"));
}

#[test]
fn grids_shards_concatenate_to_one_distinct_run() {
    let whole = shudu()
        .args(["grids", "-n", "50", "--seed", "9", "--format", "grid"])
        .output()
        .unwrap()
        .stdout;
    let mut joined = Vec::new();
    for i in 0..4 {
        let shard = format!("{i}/4");
        joined.extend(
            shudu()
                .args([
                    "grids", "-n", "50", "--seed", "9", "--format", "grid", "--shard", &shard,
                ])
                .output()
                .unwrap()
                .stdout,
        );
    }
    assert_eq!(
        String::from_utf8(joined).unwrap(),
        String::from_utf8(whole.clone()).unwrap()
    );
    let grids = parse_assignment_file(&String::from_utf8(whole).unwrap());
    assert_eq!(grids.iter().collect::<HashSet<_>>().len(), 50);
}

#[test]
fn grids_huge_count_streams_its_first_grids_at_once() {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_shudu"))
        .args(["grids", "-n", "100000000000", "--seed", "1"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 82];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(valid_grid(std::str::from_utf8(&first[..81]).unwrap()));
}
