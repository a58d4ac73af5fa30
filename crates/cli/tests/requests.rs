//! Requests that cannot succeed, or flags that would do nothing, get a clear answer at once
//! (issue 12, items 6, 10, 12 and 13).

use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::str::contains;

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn shudu() -> Command {
    Command::cargo_bin("shudu").unwrap()
}

#[test]
fn threads_beyond_the_limit_are_refused_and_many_threads_cost_nothing_for_little_work() {
    for bad in ["0", "257", "4000", "10000", "x"] {
        shudu()
            .args(["grids", "-n", "3", "--threads", bad])
            .assert()
            .code(2)
            .stderr(contains("expected a number of threads from 1 to 256"));
    }
    // The most threads allowed, three grids of work: three workers, at once.
    let start = Instant::now();
    shudu()
        .args(["grids", "-n", "3", "--threads", "256"])
        .assert()
        .success();
    shudu()
        .args(["generate", "-n", "2", "--threads", "256"])
        .assert()
        .success();
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn assignment_flags_that_would_do_nothing_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), format!("{PUZZLE}\n")).unwrap();
    for (args, message) in [
        (&["-c", "5", "-m", "2"][..], "-m does nothing with -c"),
        (&["-c", "5", "-r", "20~30"], "-r does nothing with -c"),
        (&["-c", "5", "-u"], "-u does nothing with -c"),
        (&["-s", "f.txt", "-u"], "-u does nothing with -s"),
        (
            &["-s", "f.txt", "--seed", "4"],
            "--seed does nothing with -s",
        ),
        (
            &["-n", "5", "--first-digit", "3"],
            "--first-digit does nothing with -n",
        ),
        (&["-c", "5", "-m", "2", "-u"], "-m, -u do nothing with -c"),
    ] {
        shudu()
            .current_dir(dir.path())
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(message));
    }
    assert!(
        !dir.path().join("sudoku.txt").exists(),
        "nothing is written"
    );
    // The flags where they do something are still accepted.
    shudu()
        .current_dir(dir.path())
        .args(["-c", "2", "--first-digit", "3", "--seed", "1"])
        .assert()
        .success();
}

#[test]
fn explain_draws_a_board_of_even_width() {
    let out = shudu()
        .args(["explain", PUZZLE])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let board: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with('+') || l.starts_with('|'))
        .collect();
    assert!(board.len() > 40);
    for line in board {
        assert_eq!(line.chars().count(), 43, "{line:?}");
    }
}

#[test]
fn grade_and_solve_take_an_inline_puzzle_and_missing_files_are_named() {
    shudu()
        .args(["solve", PUZZLE])
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
    shudu()
        .args(["grade", PUZZLE])
        .assert()
        .success()
        .stdout(contains("1.2/1.2/1.2 easy"));
    for cmd in ["explain", "hint"] {
        shudu()
            .args([cmd, "missing.txt"])
            .assert()
            .code(2)
            .stderr(contains("cannot read missing.txt: no such file"));
    }
    shudu()
        .args(["grade", "missing.txt"])
        .assert()
        .code(2)
        .stderr(contains("cannot read missing.txt"));
}

#[test]
fn empty_marks_fields_mean_no_marks_as_in_the_web_api() {
    // Every field empty: the same hint as no marks at all.
    let plain = shudu()
        .args(["hint", PUZZLE])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let empty = vec![""; 81].join(",");
    shudu()
        .args(["hint", PUZZLE, "--marks", &empty])
        .assert()
        .success()
        .stdout(String::from_utf8(plain).unwrap());
    // r1c3's digit is 4; marks of "12" there leave it out: the API's "Missing pencil mark"
    // (crates/web/tests/api.rs), without giving the digit away.
    let mut fields = vec![""; 81];
    fields[2] = "12";
    let out = shudu()
        .args(["hint", PUZZLE, "--marks", &fields.join(",")])
        .assert()
        .code(1)
        .stdout(contains("Missing pencil mark"))
        .stdout(contains("the marks in r1c3"))
        .get_output()
        .stdout
        .clone();
    assert!(
        !String::from_utf8(out).unwrap().contains('4'),
        "the digit is not revealed"
    );
}

#[test]
fn counts_in_messages_agree_with_their_number() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("one.txt"), format!("{PUZZLE}\n")).unwrap();
    shudu()
        .current_dir(dir.path())
        .args(["-s", "one.txt"])
        .assert()
        .success()
        .stderr(contains("wrote 1 record to sudoku.txt (1 solved)"));
    shudu()
        .current_dir(dir.path())
        .args(["-c", "1"])
        .assert()
        .success()
        .stderr(contains("wrote 1 grid to sudoku.txt"));
    shudu()
        .args(["solve"])
        .write_stdin(format!("{}\n", &PUZZLE[..80]))
        .assert()
        .code(2)
        .stderr(contains("found 80 cells"))
        .stderr(contains("0 of 1 puzzle solved uniquely"));
    shudu()
        .args(["check", "one.txt"])
        .current_dir(dir.path())
        .assert()
        .stdout(contains("checked 1 record: 1 puzzle"));
}

#[test]
fn band_and_givens_that_cannot_meet_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sudoku.txt"), "keep\n").unwrap();
    let start = Instant::now();
    shudu()
        .current_dir(dir.path())
        .args(["-n", "2", "-m", "3", "-r", "20~25"])
        .assert()
        .code(2)
        // In blanks, as -r counts them (issue 37, item 12).
        .stderr(contains("no hard puzzle with 25 or fewer blanks is known"))
        .stderr(contains("ask for at least 34 blanks"));
    shudu()
        .args([
            "generate",
            "-n",
            "1",
            "--givens",
            "60",
            "--difficulty",
            "extreme",
        ])
        .assert()
        .code(2)
        .stderr(contains("with 60 or more givens is known"));
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("sudoku.txt")).unwrap(),
        "keep\n"
    );
    // At the figure itself the request is searched for.
    shudu()
        .args([
            "generate",
            "-n",
            "1",
            "--givens",
            "30..54",
            "--difficulty",
            "hard",
            "--seed",
            "1",
        ])
        .assert()
        .success();
}
