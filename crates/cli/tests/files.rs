//! Output files never lose what the user had (issue 12, items 1-5): symbolic links are followed,
//! modes are the usual ones, a run that produced nothing leaves the old file as it was, signals
//! remove the temporary file, and every input record of `solve` and `-s` keeps its place.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
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

/// A puzzle with no solution that no digit repeats in: r1c9 has no digit left.
fn no_solution() -> String {
    let mut p = format!("12345678.{}", ".".repeat(72)).into_bytes();
    p[4 * 9 + 8] = b'9';
    String::from_utf8(p).unwrap()
}

/// The assignment's grid format of an 81-character line.
fn grid_block(line: &str) -> String {
    line.as_bytes()
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
}

fn temp_files(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".shudu-"))
        .collect()
}

#[test]
fn output_through_a_symlink_replaces_the_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("sub")).unwrap();
    fs::write(dir.path().join("sub/real.txt"), "old\n").unwrap();
    std::os::unix::fs::symlink("sub/real.txt", dir.path().join("link.txt")).unwrap();
    shudu()
        .current_dir(dir.path())
        .args(["grids", "-n", "2", "--seed", "1", "-o", "link.txt"])
        .assert()
        .success();
    let link = fs::symlink_metadata(dir.path().join("link.txt")).unwrap();
    assert!(
        link.file_type().is_symlink(),
        "the link was replaced by a file"
    );
    let real = fs::read_to_string(dir.path().join("sub/real.txt")).unwrap();
    assert_eq!(
        real.lines().count(),
        2,
        "the target got the grids: {real:?}"
    );
    assert!(temp_files(&dir.path().join("sub")).is_empty());
    assert!(temp_files(dir.path()).is_empty());
    // A dangling link: the file it names is created.
    std::os::unix::fs::symlink("made.txt", dir.path().join("dangling.txt")).unwrap();
    shudu()
        .current_dir(dir.path())
        .args(["grids", "-n", "1", "--seed", "1", "-o", "dangling.txt"])
        .assert()
        .success();
    assert!(fs::symlink_metadata(dir.path().join("dangling.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        fs::read_to_string(dir.path().join("made.txt"))
            .unwrap()
            .len(),
        82
    );
}

#[test]
fn output_to_dev_stdout_writes_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let out = fs::File::create(dir.path().join("captured.txt")).unwrap();
    let status = StdCommand::new(env!("CARGO_BIN_EXE_shudu"))
        .args(["grids", "-n", "3", "--seed", "2", "-o", "/dev/stdout"])
        .stdout(out)
        .status()
        .unwrap();
    assert!(status.success());
    let text = fs::read_to_string(dir.path().join("captured.txt")).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert!(fs::symlink_metadata("/dev/stdout")
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn new_files_get_the_usual_mode_and_replaced_files_keep_theirs() {
    let dir = tempfile::tempdir().unwrap();
    // What this process's umask gives a new file (the child inherits the umask).
    fs::File::create(dir.path().join("probe")).unwrap();
    let usual = fs::metadata(dir.path().join("probe"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    shudu()
        .current_dir(dir.path())
        .args(["grids", "-n", "1", "-o", "new.txt"])
        .assert()
        .success();
    let mode = fs::metadata(dir.path().join("new.txt"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, usual, "new file: {mode:o}, expected {usual:o}");
    let old = dir.path().join("old.txt");
    fs::write(&old, "x\n").unwrap();
    fs::set_permissions(&old, fs::Permissions::from_mode(0o640)).unwrap();
    shudu()
        .current_dir(dir.path())
        .args(["solve", "-o", "old.txt"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success();
    assert_eq!(fs::read_to_string(&old).unwrap(), format!("{SOLUTION}\n"));
    assert_eq!(
        fs::metadata(&old).unwrap().permissions().mode() & 0o777,
        0o640
    );
}

#[test]
fn runs_that_produce_nothing_leave_the_old_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("bad.txt"), format!("{}\n", &PUZZLE[..80])).unwrap();
    fs::write(d.join("out.txt"), "keep\n").unwrap();
    fs::write(d.join("sudoku.txt"), "keep\n").unwrap();
    shudu()
        .current_dir(d)
        .args(["solve", "bad.txt", "-o", "out.txt"])
        .assert()
        .code(2)
        .stderr(contains("found 80 cells"))
        .stderr(contains("out.txt left as it was"));
    shudu()
        .current_dir(d)
        .args(["-s", "bad.txt"])
        .assert()
        .code(2)
        .stderr(contains("sudoku.txt left as it was"));
    // Nothing found within the budget.
    shudu()
        .current_dir(d)
        .args([
            "generate",
            "-n",
            "1",
            "--givens",
            "17",
            "--timeout",
            "100ms",
            "-o",
            "out.txt",
        ])
        .assert()
        .code(1)
        .stderr(contains("found 0 of 1"));
    assert_eq!(fs::read_to_string(d.join("out.txt")).unwrap(), "keep\n");
    assert_eq!(fs::read_to_string(d.join("sudoku.txt")).unwrap(), "keep\n");
    assert!(temp_files(d).is_empty());
}

#[test]
fn every_record_keeps_its_place_in_solve_and_dash_s() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let none = no_solution();
    let several = ".".repeat(81);
    let input = format!("{PUZZLE}\n{none}\n{several}\n{PUZZLE}\n");
    shudu()
        .arg("solve")
        .write_stdin(input.clone())
        .assert()
        .code(1)
        .stdout(format!("{SOLUTION}\n{none}\n{several}\n{SOLUTION}\n"))
        .stderr(contains("puzzle 2, line 2: no solution"))
        .stderr(contains("puzzle 3, line 3: more than one solution"));
    // JSON carries each record's status.
    let out = shudu()
        .args(["solve", "--format", "json"])
        .write_stdin(input.clone())
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let statuses: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["status"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(statuses, ["unique", "none", "multiple", "unique"]);
    // The assignment's -s: puzzle 4's answer stays in slot 4.
    let grids: Vec<String> = [PUZZLE, &none, &several, PUZZLE]
        .iter()
        .map(|p| grid_block(p))
        .collect();
    fs::write(d.join("in.txt"), grids.join("\n\n") + "\n").unwrap();
    shudu()
        .current_dir(d)
        .args(["-s", "in.txt"])
        .assert()
        .code(1)
        .stderr(contains("wrote 4 records to sudoku.txt (2 solved)"));
    let written = fs::read_to_string(d.join("sudoku.txt")).unwrap();
    let expected = [SOLUTION, &none, &several, SOLUTION]
        .iter()
        .map(|p| grid_block(p))
        .collect::<Vec<_>>()
        .join("\n\n")
        + "\n";
    assert_eq!(written, expected);
}

/// Starts `shudu ARGS` in `dir`, waits for its temporary output file, sends `signal`, and checks
/// the exit status, that no temporary file is left, and that `target` still holds "keep".
fn interrupt(dir: &Path, args: &[&str], target: &str, signal: &str, code: i32) {
    // A signal this test's process ignores is ignored by shudu too (it inherits that).
    if shudu::signals::ignored_at_start(code - 128) {
        eprintln!("notice: SIG{signal} is ignored by this test's process (and so by shudu): {args:?} not interrupted");
        return;
    }
    fs::write(dir.join(target), "keep\n").unwrap();
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_shudu"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while temp_files(dir).is_empty() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} ended before it was interrupted"
        );
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no temporary file"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let kill = StdCommand::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(code), "{args:?} after SIG{signal}");
    assert_eq!(temp_files(dir), Vec::<String>::new(), "{args:?}");
    assert_eq!(fs::read_to_string(dir.join(target)).unwrap(), "keep\n");
}

#[test]
fn signals_remove_the_temporary_file_and_keep_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Enough hard puzzles that solving and grading them takes a while.
    let hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    fs::write(d.join("many.txt"), format!("{hard}\n").repeat(400_000)).unwrap();
    fs::write(d.join("some.txt"), format!("{hard}\n").repeat(5_000)).unwrap();
    interrupt(
        d,
        &["grids", "-n", "10000000", "-o", "out.txt"],
        "out.txt",
        "INT",
        130,
    );
    interrupt(
        d,
        &["generate", "-n", "10000000", "-o", "out.txt"],
        "out.txt",
        "TERM",
        143,
    );
    interrupt(
        d,
        &["solve", "many.txt", "-o", "out.txt"],
        "out.txt",
        "HUP",
        129,
    );
    interrupt(
        d,
        &["grade", "some.txt", "-o", "out.txt"],
        "out.txt",
        "TERM",
        143,
    );
    interrupt(d, &["-c", "1000000"], "sudoku.txt", "INT", 130);
}
