//! `shudu canon`, `shudu grids --distinct-classes` and the classes line of `shudu check`.

use std::collections::HashSet;

use assert_cmd::Command;
use predicates::str::contains;

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
const MOST_SYMMETRIC: &str =
    "123456789456789123789123456231564897564897231897231564312645978645978312978312645";

fn shudu() -> Command {
    Command::cargo_bin("shudu").unwrap()
}

/// `line` transposed, with digits 1 and 2 swapped and the first two bands swapped: the same board
/// in disguise.
fn disguise(line: &str) -> String {
    let b = line.as_bytes();
    (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            let r = match r / 3 {
                0 => r + 3,
                1 => r - 3,
                _ => r,
            };
            match b[c * 9 + r] {
                b'1' => '2',
                b'2' => '1',
                v => v as char,
            }
        })
        .collect()
}

fn stdout_lines(out: &[u8]) -> Vec<String> {
    String::from_utf8(out.to_vec())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn canon_gives_one_form_for_a_board_and_its_disguise() {
    let input = format!(
        "{SOLUTION}\n{}\n{PUZZLE}\n{}\n",
        disguise(SOLUTION),
        disguise(PUZZLE)
    );
    let out = shudu()
        .arg("canon")
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .clone();
    let lines = stdout_lines(&out.stdout);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0], lines[1]);
    assert_eq!(lines[2], lines[3]);
    assert!(lines[0].starts_with("123456789"), "{}", lines[0]);
    assert_ne!(lines[0], SOLUTION);
    // The puzzle's form keeps its givens, empties first.
    assert_eq!(lines[2].bytes().filter(|&b| b != b'.').count(), 30);
    assert!(lines[2].starts_with('.'));
    // A form is its own form.
    shudu()
        .arg("canon")
        .write_stdin(format!("{}\n", lines[2]))
        .assert()
        .success()
        .stdout(format!("{}\n", lines[2]));
}

#[test]
fn canon_counts_automorphisms() {
    shudu()
        .args(["canon", "--automorphisms"])
        .write_stdin(format!("{MOST_SYMMETRIC}\n{}\n", ".".repeat(81)))
        .assert()
        .success()
        .stdout(format!(
            "{MOST_SYMMETRIC} 648\n{} 3359232\n",
            ".".repeat(81)
        ));
}

#[test]
fn canon_dedupe_keeps_the_first_of_each_class() {
    let input = format!(
        "{PUZZLE}\n{SOLUTION}\n{}\n{}\n{PUZZLE}\n",
        disguise(PUZZLE),
        disguise(SOLUTION)
    );
    let out = shudu()
        .args(["canon", "--dedupe", "--keep-original"])
        .write_stdin(input)
        .assert()
        .success()
        .stderr(contains("5 boards read, 2 kept (one a class), 3 dropped"))
        .get_output()
        .clone();
    assert_eq!(
        stdout_lines(&out.stdout),
        [PUZZLE.replace('0', "."), SOLUTION.to_string()]
    );
}

#[test]
fn canon_reports_a_bad_record_in_its_place() {
    let input = format!("{SOLUTION}\n12345x\n{SOLUTION}\n");
    let out = shudu()
        .arg("canon")
        .write_stdin(input.clone())
        .assert()
        .code(2)
        .stderr(contains("line 2, column 6: found 'x'"))
        .get_output()
        .clone();
    let lines = stdout_lines(&out.stdout);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1], ".".repeat(81));
    assert_eq!(lines[0], lines[2]);
    shudu()
        .args(["canon", "--dedupe"])
        .write_stdin(input)
        .assert()
        .code(2)
        .stdout(format!("{}\n", lines[0]))
        .stderr(contains(
            "1 dropped as equivalent to an earlier one, 1 unreadable",
        ));
}

#[test]
fn grids_from_distinct_classes_are_pairwise_inequivalent() {
    let out = shudu()
        .args(["grids", "-n", "2000", "--distinct-classes", "--seed", "5"])
        .assert()
        .success()
        .get_output()
        .clone();
    let grids = stdout_lines(&out.stdout);
    assert_eq!(grids.len(), 2000);
    let forms = shudu()
        .arg("canon")
        .write_stdin(out.stdout.clone())
        .assert()
        .success()
        .get_output()
        .clone();
    let distinct: HashSet<String> = stdout_lines(&forms.stdout).into_iter().collect();
    assert_eq!(distinct.len(), 2000);
    // Same seed, same grids.
    shudu()
        .args(["grids", "-n", "2000", "--distinct-classes", "--seed", "5"])
        .assert()
        .success()
        .stdout(String::from_utf8(out.stdout).unwrap());
    shudu()
        .args(["grids", "-n", "4", "--distinct-classes", "--shard", "0/2"])
        .assert()
        .code(2)
        .stderr(contains("cannot be used with"));
}

#[test]
fn check_counts_classes() {
    let input = format!("{SOLUTION}\n{}\n{MOST_SYMMETRIC}\n", disguise(SOLUTION));
    shudu()
        .arg("check")
        .write_stdin(input)
        .assert()
        .success()
        .stdout(contains(
            "3 complete grids (all distinct; first digits: 1 in 1, 5 in 1, 6 in 1)",
        ))
        .stdout(contains("; 2 essentially different"));
}

#[test]
fn count_computes_the_number_of_grids_and_lists_the_band_classes() {
    let out = shudu()
        .args(["count", "--grids-only", "--bands"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = stdout_lines(&out);
    assert!(lines
        .last()
        .unwrap()
        .starts_with("complete grids: 6670903752021072936960 (416 band classes, 44 "));
    // 416 band classes and 44 gangster classes, each after its header line.
    let classes: Vec<&String> = lines
        .iter()
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .collect();
    assert_eq!(classes.len(), 416);
    let gangsters = lines
        .iter()
        .skip(418)
        .take_while(|l| !l.starts_with("complete"))
        .count();
    assert_eq!(gangsters, 44);
    // The first class is the pure band, with its 108 automorphisms and the completions
    // Felgenhauer and Jarvis list (72 x 108,374,976).
    assert_eq!(
        classes[0].as_str(),
        "0\t123456789456789123789123456\t108\t26127360\t7802998272\t0"
    );
    // Bands add up to every first band.
    let bands: u64 = classes
        .iter()
        .map(|l| l.split('\t').nth(3).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(bands, 948_109_639_680);
}

#[test]
fn uniform_grids_are_valid_distinct_reproducible_and_honour_the_first_digit() {
    let run = |threads: &str| {
        let out = shudu()
            .args([
                "grids",
                "-n",
                "3000",
                "--uniform",
                "--seed",
                "9",
                "--first-digit",
                "4",
            ])
            .args(["--threads", threads])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        stdout_lines(&out)
    };
    let grids = run("1");
    assert_eq!(grids.len(), 3000);
    assert_eq!(
        grids,
        run("2"),
        "the same seed gives the same grids whatever the threads"
    );
    let distinct: HashSet<&String> = grids.iter().collect();
    assert_eq!(distinct.len(), 3000);
    assert!(grids.iter().all(|g| g.starts_with('4')));
    shudu()
        .arg("check")
        .write_stdin(grids.join("\n"))
        .assert()
        .success()
        .stdout(contains(
            "3000 complete grids (all distinct; first digit 4 in all)",
        ));
}

#[test]
fn uniform_grids_cannot_be_sharded() {
    shudu()
        .args(["grids", "-n", "10", "--uniform", "--shard", "0/2"])
        .assert()
        .failure()
        .code(2)
        .stderr(contains("--shard"));
}

#[test]
fn count_computes_the_essentially_different_grids() {
    let out = shudu()
        .arg("count")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("complete grids: 6670903752021072936960 "));
    assert!(
        lines[1].starts_with(
            "essentially different grids: 5472730538 (Burnside's lemma over the 275 conjugacy \
             classes of the 3,359,232 positional symmetries, 27 of which fix some grid"
        ),
        "{}",
        lines[29]
    );
}
