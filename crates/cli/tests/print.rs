//! `shudu print` and `shudu generate --print` (issue 14): the books are rendered with Debian's
//! poppler-utils (`pdftoppm`, `pdftotext`; `.ci/run` installs them) and read back: page counts,
//! the digits of puzzle 1 in their cells, labels, and bad input refused with the old file kept.

use std::fs;
use std::path::Path;
use std::process::Command as StdCommand;

use assert_cmd::Command;
use predicates::str::contains;

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// A rated line as `shudu grade` writes it.
const GRADED: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... 9.0/1.2/1.2 extreme";

fn shudu() -> Command {
    Command::cargo_bin("shudu").unwrap()
}

/// Runs a poppler tool, with a clear message when it is missing.
fn poppler(tool: &str, args: &[&str]) -> String {
    let out = StdCommand::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {tool} ({e}): install Debian's poppler-utils"));
    assert!(out.status.success(), "{tool} {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The pages of a PDF, counted by rendering each to a PNG with `pdftoppm`.
fn rendered_pages(pdf: &Path) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("page");
    poppler(
        "pdftoppm",
        &[
            "-r",
            "12",
            "-png",
            pdf.to_str().unwrap(),
            prefix.to_str().unwrap(),
        ],
    );
    let pngs: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    for p in &pngs {
        assert!(fs::metadata(p).unwrap().len() > 100, "{p:?} is empty");
    }
    pngs.len()
}

/// The words of page `page` with their boxes, from `pdftotext -bbox`: (text, x centre, y
/// centre, height).
fn words(pdf: &Path, page: usize) -> Vec<(String, f64, f64, f64)> {
    let p = page.to_string();
    let html = poppler(
        "pdftotext",
        &["-bbox", "-f", &p, "-l", &p, pdf.to_str().unwrap(), "-"],
    );
    let attr = |w: &str, name: &str| -> f64 {
        let at = w.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        w[at..at + w[at..].find('"').unwrap()].parse().unwrap()
    };
    html.split("<word ")
        .skip(1)
        .map(|w| {
            let text = &w[w.find('>').unwrap() + 1..w.find("</word>").unwrap()];
            let (x0, y0) = (attr(w, "xMin"), attr(w, "yMin"));
            let (x1, y1) = (attr(w, "xMax"), attr(w, "yMax"));
            (text.to_string(), (x0 + x1) / 2.0, (y0 + y1) / 2.0, y1 - y0)
        })
        .collect()
}

fn write_input(dir: &Path, text: &str) -> std::path::PathBuf {
    let path = dir.join("in.txt");
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn pages_hold_the_asked_number_of_puzzles_then_nine_answers_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), &format!("{PUZZLE}\n").repeat(13));
    let pdf = dir.path().join("book.pdf");
    for (per_page, answers, pages) in [
        (4, false, 4),
        (4, true, 4 + 2),
        (9, true, 2 + 2),
        (1, false, 13),
        (6, false, 3),
        (2, false, 7),
    ] {
        let mut cmd = shudu();
        cmd.arg("print")
            .arg(&input)
            .arg("-o")
            .arg(&pdf)
            .args(["--per-page", &per_page.to_string()]);
        if answers {
            cmd.arg("--answers");
        }
        cmd.assert().success();
        assert_eq!(rendered_pages(&pdf), pages, "{per_page} a page, {answers}");
    }
    let info = poppler("pdfinfo", &[pdf.to_str().unwrap()]);
    assert!(info.contains("A4"), "{info}");
    shudu()
        .args(["print", "--paper", "letter", "-o"])
        .arg(&pdf)
        .arg(&input)
        .assert()
        .success();
    let info = poppler("pdfinfo", &[pdf.to_str().unwrap()]);
    assert!(info.contains("612 x 792 pts (letter)"), "{info}");
    let fonts = poppler("pdffonts", &[pdf.to_str().unwrap()]);
    assert!(
        fonts.contains("DejaVuSans") && fonts.contains("yes yes yes"),
        "the font is embedded as a subset with a Unicode map: {fonts}"
    );
}

#[test]
fn digits_of_puzzle_one_sit_centred_in_their_cells() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), &format!("{PUZZLE}\n{GRADED}\n"));
    let pdf = dir.path().join("book.pdf");
    shudu()
        .args(["print", "--per-page", "1", "-o"])
        .arg(&pdf)
        .arg(&input)
        .assert()
        .success();
    // The layout as text: below the label, one line a row, holding that row's givens in order.
    let text = poppler(
        "pdftotext",
        &["-layout", "-f", "1", "-l", "1", pdf.to_str().unwrap(), "-"],
    );
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<String>())
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines[0], "1", "the label comes first: {text}");
    let rows: Vec<String> = PUZZLE
        .as_bytes()
        .chunks(9)
        .map(|r| {
            r.iter()
                .filter(|&&b| b != b'.')
                .map(|&b| b as char)
                .collect()
        })
        .collect();
    assert_eq!(&lines[1..10], &rows[..], "{text}");
    assert_eq!(lines[10], "1", "the page number: {text}");
    // The boxes of the grid's digits (the big words): on a lattice of one cell size, in the
    // cells of the givens, the grid centred on the page.
    let mut digits: Vec<_> = words(&pdf, 1).into_iter().filter(|w| w.3 > 20.0).collect();
    // In reading order, as the givens are (rows are a cell apart, far more than 10 points).
    digits.sort_by(|a, b| {
        ((a.2 / 10.0).round(), a.1)
            .partial_cmp(&((b.2 / 10.0).round(), b.1))
            .unwrap()
    });
    let givens: Vec<(usize, char)> = PUZZLE
        .chars()
        .enumerate()
        .filter(|&(_, c)| c != '.')
        .collect();
    assert_eq!(digits.len(), givens.len());
    let by_cell = |&(i, _): &(usize, char)| i;
    let (first, last) = (by_cell(&givens[0]), by_cell(givens.last().unwrap()));
    let find = |i: usize| {
        let k = givens.iter().position(|g| g.0 == i).unwrap();
        &digits[k]
    };
    let cell = (find(last).2 - find(first).2) / ((last / 9 - first / 9) as f64);
    assert!(cell > 50.0, "1 a page gives big cells: {cell}");
    let (x0, y0) = (
        find(first).1 - (first % 9) as f64 * cell,
        find(first).2 - (first / 9) as f64 * cell,
    );
    for (k, &(i, digit)) in givens.iter().enumerate() {
        let (text, x, y, _) = &digits[k];
        assert_eq!(text, &digit.to_string(), "cell {i}");
        let (ex, ey) = (x0 + (i % 9) as f64 * cell, y0 + (i / 9) as f64 * cell);
        assert!(
            (x - ex).abs() < 0.03 * cell && (y - ey).abs() < 0.03 * cell,
            "cell {i}: digit at ({x:.1}, {y:.1}), expected ({ex:.1}, {ey:.1})"
        );
    }
    let centre = x0 + 4.0 * cell;
    assert!((centre - 595.276 / 2.0).abs() < 1.0, "grid centre {centre}");
    // Page 2: the graded line's label carries its band and rating.
    let text = poppler(
        "pdftotext",
        &["-layout", "-f", "2", "-l", "2", pdf.to_str().unwrap(), "-"],
    );
    assert!(text.contains("2 · extreme · SE 9.0"), "{text}");
}

#[test]
fn answers_show_the_solution_and_rate_labels_every_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), &format!("{PUZZLE}\n"));
    let pdf = dir.path().join("book.pdf");
    shudu()
        .args(["print", "--rate", "--answers", "--title", "Book <1> & co"])
        .arg(&input)
        .arg("-o")
        .arg(&pdf)
        .assert()
        .success();
    let text = poppler("pdftotext", &["-layout", pdf.to_str().unwrap(), "-"]);
    assert!(text.contains("Book <1> & co"), "{text}");
    assert!(text.contains("1 · easy · SE 1.2"), "{text}");
    assert!(text.contains("Answer 1"), "{text}");
    let answer = text.split("Answer 1").nth(1).unwrap();
    let digits: String = answer
        .lines()
        .map(|l| l.split_whitespace().collect::<String>())
        .filter(|l| l.len() == 9)
        .collect();
    assert_eq!(digits, SOLUTION);
}

#[test]
fn bad_input_is_refused_with_its_line_and_the_old_file_kept() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("book.pdf");
    fs::write(&pdf, "old").unwrap();
    let bad = format!("{PUZZLE}\n# comment\n{}x\n", &PUZZLE[..80]);
    let input = write_input(dir.path(), &bad);
    shudu()
        .arg("print")
        .arg(&input)
        .arg("-o")
        .arg(&pdf)
        .assert()
        .code(2)
        .stderr(contains(
            "puzzle 2, line 3, column 81: found 'x'; expected 1-9, '.' or '0'",
        ))
        .stderr(contains("nothing written"));
    assert_eq!(fs::read_to_string(&pdf).unwrap(), "old");
    // A puzzle with several solutions does not go in a book: status 1, file kept.
    let input = write_input(dir.path(), &format!("{PUZZLE}\n{}\n", ".".repeat(81)));
    shudu()
        .arg("print")
        .arg(&input)
        .arg("-o")
        .arg(&pdf)
        .assert()
        .code(1)
        .stderr(contains("puzzle 2, line 2: more than one solution"));
    assert_eq!(fs::read_to_string(&pdf).unwrap(), "old");
    shudu()
        .args(["print", "--per-page", "3", "-o"])
        .arg(&pdf)
        .arg(&input)
        .assert()
        .code(2)
        .stderr(contains(
            "expected 1, 2, 4, 6 or 9 puzzles a page, found '3'",
        ));
    assert_eq!(fs::read_to_string(&pdf).unwrap(), "old");
}

/// The pencil-mark line of `puzzle` with every candidate its givens leave, less `drop` (cell,
/// digit) pairs.
fn marks_line(puzzle: &str, drop: &[(usize, u8)]) -> String {
    let p = puzzle.as_bytes();
    let peers = |i: usize, j: usize| {
        i != j && (i / 9 == j / 9 || i % 9 == j % 9 || (i / 27 == j / 27 && i % 9 / 3 == j % 9 / 3))
    };
    let mut line = String::new();
    for i in 0..81 {
        for d in b'1'..=b'9' {
            let present = if p[i] == b'.' {
                !(0..81).any(|j| peers(i, j) && p[j] == d) && !drop.contains(&(i, d - b'0'))
            } else {
                p[i] == d
            };
            line.push(if present { d as char } else { '.' });
        }
    }
    line
}

#[test]
fn pencil_mark_lines_print_their_candidates_small_in_the_empty_cells() {
    let dir = tempfile::tempdir().unwrap();
    // r1c3 keeps 1, 2 and 4 less 2: candidates 1 and 4.
    let line = marks_line(PUZZLE, &[(2, 2)]);
    let input = write_input(dir.path(), &format!("{line}\n"));
    let pdf = dir.path().join("book.pdf");
    shudu()
        .args(["print", "--per-page", "1", "--answers", "--rate", "-o"])
        .arg(&pdf)
        .arg(&input)
        .assert()
        .success();
    let words = words(&pdf, 1);
    let (big, small): (Vec<_>, Vec<_>) = words
        .into_iter()
        .filter(|w| w.3 > 8.0)
        .partition(|w| w.3 > 20.0);
    // The givens, big (a cell with one candidate is a given, so more than the puzzle's); the
    // label (11 points) is not a candidate: it is above the grid.
    let field = |i: usize| -> String {
        line[9 * i..9 * i + 9]
            .chars()
            .filter(|&c| c != '.')
            .collect()
    };
    let givens: Vec<usize> = (0..81).filter(|&i| field(i).len() == 1).collect();
    assert!(givens.len() > 30, "naked singles become givens");
    assert_eq!(big.len(), givens.len());
    let cell = 515.276 / 9.0; // 1 a page on A4: the grid spans the margins
    let (x0, y0) = (big[0].1 - cell / 2.0, big[0].2 - cell / 2.0);
    assert!((x0 - 40.0).abs() < 1.0, "the grid's left: {x0}");
    // Every small word is a candidate in its cell's 3x3 layout: digit d at column (d-1)%3 and
    // row (d-1)/3 of the cell; together they are the line's marks of the empty cells.
    let mut seen = vec![String::new(); 81];
    let inside = |w: &&(String, f64, f64, f64)| w.2 > y0 && w.2 < y0 + 9.0 * cell;
    for (text, x, y, h) in small.iter().filter(inside) {
        assert!(*h < 0.3 * cell, "a candidate is small: {text} {h}");
        let (c, r) = (((x - x0) / cell) as usize, ((y - y0) / cell) as usize);
        let (dx, dy) = (
            (x - x0) / cell - c as f64 - 0.5,
            (y - y0) / cell - r as f64 - 0.5,
        );
        let (sc, sr) = ((dx / 0.29).round() + 1.0, (dy / 0.29).round() + 1.0);
        let place = (sr * 3.0 + sc + 1.0) as u8;
        assert_eq!(text, &place.to_string(), "r{}c{}", r + 1, c + 1);
        seen[r * 9 + c].push_str(text);
    }
    for (i, s) in seen.iter_mut().enumerate() {
        let mut sorted: Vec<char> = s.chars().collect();
        sorted.sort_unstable();
        *s = sorted.into_iter().collect();
        let expected = if givens.contains(&i) {
            String::new()
        } else {
            field(i)
        };
        assert_eq!(*s, expected, "cell {i}");
    }
    assert_eq!(seen[2], "14");
    // The answer page holds the solution, as for a puzzle of givens.
    let text = poppler("pdftotext", &["-layout", pdf.to_str().unwrap(), "-"]);
    let answer = text.split("Answer 1").nth(1).unwrap();
    let digits: String = answer
        .lines()
        .map(|l| l.split_whitespace().collect::<String>())
        .filter(|l| l.len() == 9)
        .collect();
    assert_eq!(digits, SOLUTION);
    // Marks that leave out r1c3's solution digit 4: no grid keeps to them; refused, status 1.
    let input = write_input(dir.path(), &format!("{}\n", marks_line(PUZZLE, &[(2, 4)])));
    shudu()
        .arg("print")
        .arg(&input)
        .arg("-o")
        .arg(&pdf)
        .assert()
        .code(1)
        .stderr(contains("puzzle 1, line 1: no solution"));
    // The SVG draws them too: one `<text>` a candidate, in the lighter grey.
    let svg = dir.path().join("m.svg");
    let input = write_input(dir.path(), &format!("{line}\n"));
    shudu()
        .arg("print")
        .arg(&input)
        .arg("-o")
        .arg(&svg)
        .assert()
        .success();
    let svg = fs::read_to_string(&svg).unwrap();
    let candidates: usize = (0..81)
        .filter(|i| !givens.contains(i))
        .map(|i| field(i).len())
        .sum();
    assert_eq!(svg.matches("fill=\"#8c8c8c\"").count(), candidates);
}

#[test]
fn svg_writes_one_image_a_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), &format!("{PUZZLE}\n{GRADED}\n"));
    let svg = dir.path().join("p.svg");
    shudu()
        .arg("print")
        .arg(&input)
        .arg("-o")
        .arg(&svg)
        .arg("--answers")
        .assert()
        .success();
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".svg"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "p-001-answer.svg",
            "p-001.svg",
            "p-002-answer.svg",
            "p-002.svg"
        ]
    );
    let one = fs::read_to_string(dir.path().join("p-001.svg")).unwrap();
    assert!(one.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(
        one.matches("</text>").count(),
        1 + 30,
        "label and 30 givens"
    );
    let answer = fs::read_to_string(dir.path().join("p-001-answer.svg")).unwrap();
    assert_eq!(answer.matches("</text>").count(), 1 + 81);
    let two = fs::read_to_string(dir.path().join("p-002.svg")).unwrap();
    assert!(two.contains("2  ·  extreme  ·  SE 9.0"), "{two}");
}

#[test]
fn generate_print_writes_the_puzzles_and_the_book() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("book.pdf");
    let out = shudu()
        .args([
            "generate",
            "-n",
            "5",
            "--seed",
            "7",
            "--per-page",
            "1",
            "--print",
        ])
        .arg(&pdf)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let puzzles = String::from_utf8(out.stdout).unwrap();
    assert_eq!(puzzles.lines().count(), 5);
    assert_eq!(rendered_pages(&pdf), 5);
    // The first puzzle's givens, row by row, are the first grid's rows.
    let text = poppler(
        "pdftotext",
        &["-layout", "-f", "1", "-l", "1", pdf.to_str().unwrap(), "-"],
    );
    let first = puzzles.lines().next().unwrap();
    let rows: String = first.chars().filter(|&c| c != '.').collect();
    // Between the label and the page number.
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let page: String = lines[1..lines.len() - 1]
        .iter()
        .flat_map(|l| l.chars().filter(char::is_ascii_digit))
        .collect();
    assert_eq!((lines[0].trim(), page), ("1", rows));
}

#[test]
fn generate_print_labels_rated_puzzles_and_refuses_unchecked_ones() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("rated.pdf");
    shudu()
        .args([
            "generate",
            "-n",
            "2",
            "--seed",
            "5",
            "--difficulty",
            "hard",
            "--print",
        ])
        .arg(&pdf)
        .assert()
        .success();
    let text = poppler("pdftotext", &["-layout", pdf.to_str().unwrap(), "-"]);
    assert!(
        text.contains("1 · hard · SE ") && text.contains("2 · hard · SE "),
        "{text}"
    );
    shudu()
        .args(["generate", "-n", "2", "--unique", "false", "--print"])
        .arg(&pdf)
        .assert()
        .code(2)
        .stderr(contains("--print needs puzzles with one solution"));
}

/// What the side-by-side browser test needs and lacks, if anything: Debian's `chromium` (or
/// `$CHROMIUM`), `node`, and `npm ci --prefix crates/web/e2e` (playwright-core).
fn browser_missing(e2e: &Path) -> Option<String> {
    let chromium = std::env::var_os("CHROMIUM").map_or_else(
        || Path::new("/usr/bin/chromium").to_path_buf(),
        std::path::PathBuf::from,
    );
    if !chromium.exists() {
        return Some("chromium (apt-get install -y chromium, or set CHROMIUM)".into());
    }
    let node = StdCommand::new("node").arg("--version").output();
    if !node.is_ok_and(|o| o.status.success()) {
        return Some("node".into());
    }
    if !e2e.join("node_modules/playwright-core").exists() {
        return Some(format!(
            "playwright-core (npm ci --prefix {})",
            e2e.display()
        ));
    }
    None
}

/// Stops `shudu play` when the test ends, passed or not.
struct Served(std::process::Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Issue 14: "the game's print page and the CLI's PDF should look alike". `shudu play` serves
/// the game; `crates/web/e2e/print.spec.mjs` prints PUZZLE there (Chromium's PDF, A4, one a
/// page) and compares it with `shudu print --per-page 1 --rate`'s, both rendered by `pdftoppm -r
/// 100`: the grid's lines (place and thickness), the cells' ink (weight and size), the words
/// and where they stand. Then the same for a pencil-mark line, which the game imports with its
/// marks as the player's notes and prints as the PDF prints candidates. The PNGs are left in
/// `target/tmp/print-side-by-side` to be looked at.
#[test]
fn print_page_of_the_game_looks_like_the_pdf() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let e2e = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/e2e");
    if let Some(what) = browser_missing(&e2e) {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but the side-by-side print test cannot run: {what} is missing"
        );
        // The harness does not capture the stderr handle itself, so the notice shows.
        let _ = writeln!(
            std::io::stderr(),
            "NOTICE: skipping the side-by-side print test: {what} is missing"
        );
        return;
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("print-side-by-side");
    fs::create_dir_all(&out).unwrap();
    // A puzzle, and a pencil-mark line (r1c3 without its candidate 2), which the game imports
    // with its marks as the player's notes.
    let marks = marks_line(PUZZLE, &[(2, 2)]);
    let mut cases = Vec::new();
    for (name, line) in [("puzzle", PUZZLE), ("marks", marks.as_str())] {
        let input = out.join(format!("{name}.txt"));
        fs::write(&input, format!("{line}\n")).unwrap();
        let book = out.join(format!("{name}.pdf"));
        shudu()
            .args(["print", "--per-page", "1", "--rate", "--paper", "a4", "-o"])
            .arg(&book)
            .arg(&input)
            .assert()
            .success();
        cases.extend([
            name.to_string(),
            line.to_string(),
            book.display().to_string(),
        ]);
    }
    // Five puzzles four a page with answers: the game deals its own, so only the layout (the
    // grids' lines, the title, the page numbers) is compared.
    let input = out.join("batch.txt");
    fs::write(&input, format!("{PUZZLE}\n").repeat(5)).unwrap();
    let book = out.join("batch.pdf");
    shudu()
        .args([
            "print",
            "--per-page",
            "4",
            "--answers",
            "--paper",
            "a4",
            "-o",
        ])
        .arg(&book)
        .arg(&input)
        .assert()
        .success();
    cases.extend(["batch".into(), "new:5".into(), book.display().to_string()]);
    let mut play = Served(
        StdCommand::new(assert_cmd::cargo::cargo_bin("shudu"))
            .args(["play", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("shudu play starts"),
    );
    let mut first = String::new();
    BufReader::new(play.0.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("shudu play's first line names its address: {first}"))
        .to_string();
    let mut node = StdCommand::new("node")
        .arg(e2e.join("print.spec.mjs"))
        .arg(&url)
        .arg(&out)
        .args(&cases)
        .current_dir(&e2e)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node starts");
    let started = Instant::now();
    while node.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(180) {
            let _ = node.kill();
            panic!("print.spec.mjs took over 180 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let result = node.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&result.stdout);
    println!("{stdout}");
    assert!(
        result.status.success() && stdout.contains(" passed, 0 failed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&result.stderr)
    );
}

/// `shudu generate` of variants with `--print`: the lines written, and the book's path.
fn variant_book(dir: &Path, args: &[&str], name: &str) -> (Vec<String>, std::path::PathBuf) {
    let path = dir.join(name);
    let out = shudu()
        .arg("generate")
        .args(args)
        .arg("--print")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    (lines, path)
}

#[test]
fn variant_svgs_draw_regions_cages_and_diagonals_from_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    // A jigsaw X: a thick line for each edge between two regions, and two diagonals.
    let (lines, svg) = variant_book(
        dir.path(),
        &[
            "-n",
            "1",
            "--size",
            "6",
            "--variant",
            "jigsaw,x",
            "--seed",
            "4",
        ],
        "jig.svg",
    );
    let p = shudu_core::variant::fpuzzles::from_link(&lines[0]).unwrap();
    let n = 6;
    let rules = p.rules();
    let mut borders = 0;
    for r in 0..n {
        for c in 0..n {
            if c + 1 < n && rules.region(r * n + c) != rules.region(r * n + c + 1) {
                borders += 1;
            }
            if r + 1 < n && rules.region(r * n + c) != rules.region((r + 1) * n + c) {
                borders += 1;
            }
        }
    }
    let text = fs::read_to_string(&svg).unwrap();
    let thick = text.matches("stroke-width=\"3\"").count();
    assert_eq!(thick, borders + 4, "region edges and the four sides");
    assert_eq!(
        text.matches("stroke=\"#6e6e6e\"").count(),
        2,
        "the diagonals"
    );
    let givens = p.cells().iter().filter(|&&d| d != 0).count();
    assert_eq!(text.matches("text-anchor=\"middle\"").count(), givens);

    // A killer: every cage's sum, and one dashed side for each cage edge.
    let (lines, svg) = variant_book(
        dir.path(),
        &[
            "-n",
            "1",
            "--size",
            "6",
            "--variant",
            "killer",
            "--seed",
            "2",
            "--answers",
        ],
        "killer.svg",
    );
    let p = shudu_core::variant::fpuzzles::from_link(&lines[0]).unwrap();
    let text = fs::read_to_string(&svg).unwrap();
    let cages = p.rules().cages();
    let mut edges = 0;
    for cage in cages {
        for &i in &cage.cells {
            let (r, c) = (i / n, i % n);
            for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                let (r2, c2) = (r as i32 + dr, c as i32 + dc);
                let inside = (0..n as i32).contains(&r2)
                    && (0..n as i32).contains(&c2)
                    && cage.cells.contains(&(r2 as usize * n + c2 as usize));
                edges += usize::from(!inside);
            }
        }
    }
    assert_eq!(text.matches("stroke-dasharray").count(), edges);
    for cage in cages {
        let sum = format!(">{}</text>", cage.sum.unwrap());
        assert!(text.contains(&sum), "the sum {sum}");
    }
    assert_eq!(
        text.matches("text-anchor=\"middle\"").count(),
        0,
        "cages only: no digit"
    );
    // The answer shows every cell, in grey.
    let answer = fs::read_to_string(dir.path().join("killer-answer.svg")).unwrap();
    assert_eq!(answer.matches("text-anchor=\"middle\"").count(), n * n);
}

#[test]
fn a_variant_book_has_its_pages_and_the_sums_and_digits_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let (lines, pdf) = variant_book(
        dir.path(),
        &[
            "-n",
            "5",
            "--size",
            "6",
            "--variant",
            "killer",
            "--seed",
            "8",
            "--answers",
            "--per-page",
            "2",
            "--title",
            "Killer 6x6",
        ],
        "book.pdf",
    );
    assert_eq!(lines.len(), 5);
    // Three pages of two puzzles, one of answers.
    assert_eq!(rendered_pages(&pdf), 4);
    let first = shudu_core::variant::fpuzzles::from_link(&lines[0]).unwrap();
    let page = words(&pdf, 1);
    let texts: Vec<&str> = page.iter().map(|w| w.0.as_str()).collect();
    assert!(texts.contains(&"Killer"), "{texts:?}");
    for cage in first.rules().cages() {
        assert!(texts.contains(&cage.sum.unwrap().to_string().as_str()));
    }
    // The answer page: 36 digits a puzzle, 5 puzzles.
    let digits = words(&pdf, 4)
        .iter()
        .filter(|w| w.0.len() == 1 && w.0.chars().all(|c| ('1'..='6').contains(&c)))
        .count();
    assert!(digits >= 5 * 36, "{digits}");
}

#[test]
fn shudu_print_reads_variants_as_lines_or_f_puzzles_and_names_bad_records() {
    let dir = tempfile::tempdir().unwrap();
    let made = |args: &[&str]| -> String {
        let out = shudu().arg("generate").args(args).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    // Killer links, a PDF with its answers: one page of puzzles, one of answers.
    let links = write_input(
        dir.path(),
        &made(&[
            "-n",
            "3",
            "--size",
            "6",
            "--variant",
            "killer",
            "--seed",
            "1",
        ]),
    );
    let pdf = dir.path().join("killer.pdf");
    shudu()
        .arg("print")
        .arg("--fpuzzles")
        .arg(&links)
        .arg("-o")
        .arg(&pdf)
        .arg("--answers")
        .assert()
        .success();
    assert_eq!(rendered_pages(&pdf), 2);
    // Lines under --size and --variant: an SVG a puzzle.
    let lines = write_input(
        dir.path(),
        &made(&["-n", "2", "--size", "6", "--variant", "x", "--seed", "1"]),
    );
    let svg = dir.path().join("x.svg");
    shudu()
        .args(["print", "--size", "6", "--variant", "x"])
        .arg(&lines)
        .arg("-o")
        .arg(&svg)
        .assert()
        .success();
    for k in 1..=2 {
        let text = fs::read_to_string(dir.path().join(format!("x-00{k}.svg"))).unwrap();
        assert_eq!(text.matches("stroke=\"#6e6e6e\"").count(), 2, "diagonals");
    }
    // Bad records are named by puzzle and line, and nothing is written.
    let bad = write_input(
        dir.path(),
        "....5...........6...4......6..2...3.\n......\n....................................\n",
    );
    let out_pdf = dir.path().join("bad.pdf");
    let out = shudu()
        .args(["print", "--size", "6", "--variant", "x"])
        .arg(&bad)
        .arg("-o")
        .arg(&out_pdf)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("puzzle 2, line 2: 6 cells, expected 36"),
        "{err}"
    );
    assert!(
        err.contains("puzzle 3, line 3: more than one solution"),
        "{err}"
    );
    assert!(err.contains("nothing written"));
    assert!(!out_pdf.exists());
}
