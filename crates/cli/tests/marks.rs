//! Pencil-mark (Sukaku) lines, 729 characters, on the command line (issue 14): `solve` and
//! `check` keep to the marks, `grade`, `explain` and `hint` start from them, and
//! `--format marks` writes them.

use assert_cmd::Command;
use predicates::str::contains;
use shudu_core::format::{marks_of, write_marks, Marks};
use shudu_core::{Digit, Puzzle};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn shudu() -> Command {
    Command::cargo_bin("shudu").unwrap()
}

fn line(marks: &Marks) -> String {
    let mut out = Vec::new();
    write_marks(&mut out, marks);
    String::from_utf8(out).unwrap().trim_end().to_string()
}

/// The puzzle's marks with nothing ruled out beyond its givens.
fn puzzle_marks() -> Marks {
    marks_of(&PUZZLE.parse::<Puzzle>().unwrap())
}

#[test]
fn format_marks_writes_729_characters_a_line() {
    let out = shudu()
        .args(["solve", PUZZLE, "--format", "marks"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.len(), 730);
    // A solved cell's field holds its digit alone.
    let expected: String = SOLUTION
        .bytes()
        .map(|d| {
            let k = (d - b'1') as usize;
            format!("{}{}{}", ".".repeat(k), d as char, ".".repeat(8 - k))
        })
        .collect();
    assert_eq!(text.trim_end(), expected);
}

#[test]
fn solve_and_check_keep_to_the_marks() {
    let marks = puzzle_marks();
    shudu()
        .arg("solve")
        .arg(line(&marks))
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
    shudu()
        .arg("check")
        .write_stdin(format!("{}\n", line(&marks)))
        .assert()
        .success()
        .stdout(contains("puzzle 1, line 1: pencil marks, 1 solution"));
    // Strike r1c3's solution digit 4 from its marks: no grid keeps to them, though the givens
    // alone have one.
    let mut struck = marks;
    struck[2].remove(Digit::new(4).unwrap());
    shudu()
        .arg("solve")
        .arg(line(&struck))
        .assert()
        .code(1)
        .stderr(contains("puzzle 1, line 1: no solution"));
    shudu()
        .arg("check")
        .write_stdin(format!("{}\n", line(&struck)))
        .assert()
        .code(1)
        .stdout(contains("pencil marks, no solution"));
    // Every cell open: many grids.
    let open = [shudu_core::DigitSet::ALL; 81];
    shudu()
        .arg("solve")
        .arg(line(&open))
        .assert()
        .code(1)
        .stderr(contains("more than one solution"));
}

#[test]
fn grade_explain_and_hint_start_from_the_marks() {
    let marks = puzzle_marks();
    let marked = line(&marks);
    shudu()
        .arg("grade")
        .write_stdin(format!("{marked}\n"))
        .assert()
        .success()
        .stdout(format!("{marked} 1.2/1.2/1.2 easy\n"));
    shudu()
        .args(["explain", "--brief"])
        .arg(&marked)
        .assert()
        .success()
        .stdout(contains("rating ER 1.2, EP 1.2, ED 1.2 (easy)"));
    // The player struck 1 from r1c3, r2c2 and r2c3 (none of them is 1): r3c1 is left the
    // only place for box 1's 1.
    let mut hinted = marks;
    for i in [2, 10, 11] {
        hinted[i].remove(Digit::new(1).unwrap());
    }
    shudu()
        .arg("hint")
        .arg(line(&hinted))
        .assert()
        .success()
        .stdout(contains("3. Step [1.2]: In box 1, 1 can only go in r3c1"));
    // Without the struck marks the first hidden single is elsewhere.
    shudu()
        .arg("hint")
        .arg(&marked)
        .assert()
        .success()
        .stdout(contains("In box 2, 8 can only go in r1c6"));
    shudu()
        .arg("hint")
        .arg(&marked)
        .args(["--marks", &vec![""; 81].join(",")])
        .assert()
        .code(2)
        .stderr(contains("give them once"));
    let mut bad = marked.clone();
    bad.replace_range(100..101, "x");
    shudu()
        .arg("grade")
        .write_stdin(format!("# one bad line\n{bad}\n"))
        .assert()
        .code(2)
        .stderr(contains(
            "puzzle 1, line 2, column 101: found 'x' in the candidates of r2c3",
        ));
}
