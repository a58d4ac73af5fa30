//! The assignments' interfaces (北航 software engineering), all writing `sudoku.txt` in the
//! current folder: the 2017 one, `shudu -c N` (grids) and `shudu -s FILE` (solve), and the pair
//! project's puzzle generator, `shudu -n N [-m 1|2|3] [-r A~B] [-u]`.
//!
//! # `-m`: the difficulty levels
//!
//! Each level is one band of the grader's scale (`shudu_core::logic`, Sudoku Explainer ratings)
//! and, unless `-r` gives the number of blanks, a range of givens where that band is common:
//!
//! | `-m` | band | rating | givens (blanks) without `-r` |
//! |---|---|---|---|
//! | 1 | easy | 1.0-1.5 | 36-45 (36-45) |
//! | 2 | medium | 1.6-2.5 | 30-35 (46-51) |
//! | 3 | hard | 2.6-4.0 | 24-29 (52-57) |
//!
//! A rated puzzle must have a unique solution, so `-m` implies `-u`. Without `-u` (and `-m`),
//! `-n` digs holes at random without the uniqueness check, as the assignment allows; standard
//! error says so.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use shudu_core::generate::{GenerateConfig, Symmetry};
use shudu_core::grids::GridsConfig;
use shudu_core::logic::Band;
use shudu_core::Digit;

use crate::cmd::generate::Job;
use crate::io::{self, FormatArg, Output};
use shudu::args::{parse_blanks, parse_digit, parse_threads};

/// How long `-n` searches before writing what it found ("found M of N").
const BUDGET: Duration = Duration::from_secs(60);

/// The file both modes write, in the current folder.
const OUTPUT: &str = "sudoku.txt";

/// The assignment's flags, used without a subcommand.
#[derive(Args, Debug)]
pub struct CompatArgs {
    /// Write N distinct complete grids (1 to 1000000) to sudoku.txt, 9 lines of space-separated
    /// digits each, a blank line between grids.
    #[arg(
        short = 'c',
        value_name = "N",
        value_parser = clap::value_parser!(i64).range(1..=1_000_000),
        allow_hyphen_values = true,
        conflicts_with_all = ["solve", "puzzles"]
    )]
    create: Option<i64>,
    /// Write N puzzles (1 to 10000) to sudoku.txt in the same format, 0 for a blank.
    #[arg(
        short = 'n',
        value_name = "N",
        value_parser = clap::value_parser!(i64).range(1..=10_000),
        allow_hyphen_values = true,
        conflicts_with = "solve"
    )]
    puzzles: Option<i64>,
    /// With -n: difficulty 1 (easy), 2 (medium) or 3 (hard), rated by the grader; implies -u.
    #[arg(short = 'm', value_name = "1|2|3", value_parser = clap::value_parser!(u8).range(1..=3), requires = "puzzles")]
    level: Option<u8>,
    /// With -n: the number of blanks, a range A~B within 20~55 (a single number for exactly
    /// that many).
    #[arg(short = 'r', value_name = "A~B", value_parser = parse_blanks, requires = "puzzles")]
    blanks: Option<(usize, usize)>,
    /// With -n: every puzzle has exactly one solution.
    #[arg(short = 'u', requires = "puzzles")]
    unique: bool,
    /// Solve every puzzle of FILE (9 lines of digits, 0 for empty, a blank line between puzzles;
    /// other formats are detected too) and write the solutions to sudoku.txt, in order.
    #[arg(short = 's', value_name = "FILE")]
    solve: Option<PathBuf>,
    /// With -c: the top-left digit of every grid (the assignment derives it from a student
    /// number).
    #[arg(long, value_parser = parse_digit)]
    first_digit: Option<Digit>,
    /// With -c or -n: seed of the random generator (random when omitted).
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
}

/// Refuses flags that would do nothing in the chosen mode, rather than ignore them silently.
fn refuse_idle_flags(args: &CompatArgs) -> Result<()> {
    let mode = if args.create.is_some() {
        "-c"
    } else if args.solve.is_some() {
        "-s"
    } else if args.puzzles.is_some() {
        "-n"
    } else {
        return Ok(());
    };
    let mut idle = Vec::new();
    if mode != "-n" {
        for (set, flag) in [
            (args.level.is_some(), "-m"),
            (args.blanks.is_some(), "-r"),
            (args.unique, "-u"),
        ] {
            if set {
                idle.push(flag);
            }
        }
    }
    if mode == "-s" && args.seed.is_some() {
        idle.push("--seed");
    }
    if mode != "-c" && args.first_digit.is_some() {
        idle.push("--first-digit");
    }
    match idle.as_slice() {
        [] => Ok(()),
        [flag] => bail!("{flag} does nothing with {mode}: remove it (see 'shudu --help')"),
        flags => bail!(
            "{} do nothing with {mode}: remove them (see 'shudu --help')",
            flags.join(", ")
        ),
    }
}

/// Runs the mode the flags ask for.
pub fn run(args: &CompatArgs) -> Result<ExitCode> {
    refuse_idle_flags(args)?;
    io::set_threads(
        args.threads,
        args.create
            .or(args.puzzles)
            .map_or(usize::MAX, |n| n as usize),
    )?;
    if let Some(n) = args.create {
        let config = GridsConfig {
            count: n as usize,
            seed: args.seed.unwrap_or_else(rand::random),
            first_digit: Some(args.first_digit.or(Digit::new(1)).expect("1 is a digit")),
            start: 0,
        };
        crate::cmd::grids::write_grids(&config, FormatArg::Grid, Some(Path::new(OUTPUT)))?;
        eprintln!(
            "shudu: wrote {} to {OUTPUT}",
            shudu_core::error::counted(config.count, "grid")
        );
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(path) = &args.solve {
        // Open first: a missing or unreadable file leaves sudoku.txt untouched. A regular file
        // is streamed by the fast path (a wave of records at a time into one reused buffer:
        // reading 163 MB into fresh memory was the run's one long single-threaded stretch);
        // standard input or a device goes to the general reader, which streams too.
        let name = if path == Path::new("-") {
            "standard input".to_string()
        } else {
            path.display().to_string()
        };
        let fast = match open_file(path)? {
            Some((mut file, len)) => {
                let mut out = Output::create(Some(Path::new(OUTPUT)))?;
                solve_assignment_stream(&mut file, len, path, &mut out)?.map(|s| (s, out))
            }
            None => None,
        };
        let (summary, out) = match fast {
            Some(done) => done,
            None => {
                // Not (all) in the assignment's exact layout: the general reader, which detects
                // every format and names each bad record. Nothing of the fast path is kept.
                let input = io::RecordStream::open(Some(path))?;
                let mut out = Output::create(Some(Path::new(OUTPUT)))?;
                let summary =
                    crate::cmd::solve::solve_all(input, &mut out, FormatArg::Grid.into(), false)?;
                (summary, out)
            }
        };
        summary.finish(out, &name)?;
        if summary.readable() > 0 {
            eprintln!(
                "shudu: wrote {} to {OUTPUT} ({} solved)",
                shudu_core::error::counted(summary.readable() + summary.invalid, "record"),
                summary.unique
            );
        }
        return Ok(summary.exit_code());
    }
    if let Some(n) = args.puzzles {
        return puzzles(args, n as usize);
    }
    bail!("nothing to do: give a command (try 'shudu --help'), or -c N, -s FILE or -n N")
}

/// The band of a `-m` level and the givens used when `-r` is absent (see the module docs).
pub fn level(m: u8) -> (Band, (usize, usize)) {
    match m {
        1 => (Band::Easy, (36, 45)),
        2 => (Band::Medium, (30, 35)),
        _ => (Band::Hard, (24, 29)),
    }
}

/// `-n N [-m L] [-r A~B] [-u]`: puzzles in the assignment's grid format.
fn puzzles(args: &CompatArgs, n: usize) -> Result<ExitCode> {
    let (band, default_givens) = match args.level {
        Some(m) => {
            let (b, g) = level(m);
            (Some(b), g)
        }
        // The assignment's whole blanks range, 20~55.
        None => (None, (26, 61)),
    };
    let givens = args
        .blanks
        .map_or(default_givens, |(a, b)| (81 - b, 81 - a));
    // In blanks, as -r counts them (the core's own message counts givens).
    if let (Some(band), Some((a, b)), Some(m)) = (band, args.blanks, args.level) {
        let most = shudu_core::rated::most_givens(band.range());
        if 81 - b > most {
            bail!(
                "-m {m} -r {a}~{b}: no {} puzzle with {b} or fewer blanks is known ({} puzzles \
                 need many blanks; shudu's search has found none with fewer than {}); ask for \
                 at least {} blanks, e.g. -r {}~{}",
                band.name(),
                band.name(),
                81 - most,
                81 - most,
                (81 - most).max(a),
                (81 - most).max(b).min(55)
            );
        }
    }
    let job = Job {
        config: GenerateConfig {
            givens: Some(givens),
            symmetry: Symmetry::None,
            minimal: false,
            unique: args.unique || band.is_some(),
            band,
            automorphic: false,
        },
        rating: None,
        needs: Vec::new(),
        without: shudu_core::needs::TechniqueSet::EMPTY,
        items: 0..n,
        seed: args.seed.unwrap_or_else(rand::random),
        timeout: Some(BUDGET),
        renew: Some(crate::cmd::generate::renew_every()),
    };
    crate::cmd::generate::write_to(&job, FormatArg::Grid.into(), Path::new(OUTPUT))
}

/// Bytes of one record in the assignment's layout: 9 lines of 9 digits (`0` for a blank) with a
/// space between digits, each line ending in `\n`.
const RECORD: usize = 162;

/// Records a worker reads, solves and writes at a time.
const CHUNK: usize = 1024;

/// Chunks a wave; a wave's answers go to the writer thread while the next wave is solved.
const WAVE_CHUNKS: usize = 32;

/// What each byte of a record must be: a digit, or this byte.
const LAYOUT: [u8; RECORD] = {
    let mut t = [b' '; RECORD];
    let mut i = 0;
    while i < RECORD {
        t[i] = if i % 18 == 17 {
            b'\n'
        } else if i % 2 == 0 {
            b'0'
        } else {
            b' '
        };
        i += 1;
    }
    t
};

/// The offsets of the 8-byte words that cover a record (the last one overlaps the one before).
const WORDS: [usize; 21] = {
    let mut w = [0; 21];
    let mut i = 0;
    while i < 20 {
        w[i] = 8 * i;
        i += 1;
    }
    w[20] = RECORD - 8;
    w
};

/// For each word of [`WORDS`]: the layout's bytes, then the bits that must be 0 once the layout
/// is XORed away (a digit's high nibble, any other byte whole), a 6 added to each digit byte, and
/// the bit where that addition carries for a digit above 9.
const CHECKS: [[u64; 4]; 21] = {
    let mut t = [[0u64; 4]; 21];
    let mut i = 0;
    while i < 21 {
        let mut k = 0;
        while k < 8 {
            let b = LAYOUT[WORDS[i] + k];
            let shift = 8 * k;
            t[i][0] |= (b as u64) << shift;
            if b == b'0' {
                t[i][1] |= 0xF0 << shift;
                t[i][2] |= 0x06 << shift;
                t[i][3] |= 0x10 << shift;
            } else {
                t[i][1] |= 0xFF << shift;
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// Whether a record is exactly the assignment's layout: a digit where [`LAYOUT`] has `0`, its
/// byte elsewhere. Eight bytes at a time: a byte XORed with `0` is below 10 if and only if it
/// was a digit, so its high nibble is 0 and adding 6 does not carry into bit 4.
#[inline]
fn layout_fits(rec: &[u8; RECORD]) -> bool {
    let mut bad = 0u64;
    for (&at, &[layout, high, six, carry]) in WORDS.iter().zip(&CHECKS) {
        let word = u64::from_le_bytes(rec[at..at + 8].try_into().expect("8 bytes"));
        let x = word ^ layout;
        bad |= (x & high) | (x.wrapping_add(six) & carry);
    }
    bad == 0
}

/// The puzzle of a record that [`layout_fits`]. It may break the rules.
#[inline]
fn parse_record(rec: &[u8; RECORD]) -> shudu_core::Puzzle {
    let mut cells = [0u8; 81];
    for (i, c) in cells.iter_mut().enumerate() {
        *c = rec[18 * (i / 9) + 2 * (i % 9)] - b'0';
    }
    shudu_core::Puzzle::from_bytes(cells).expect("the layout holds digits only")
}

/// One chunk's answers: the output bytes, the problem lines, and the counts.
struct Answers {
    bytes: Vec<u8>,
    problems: String,
    unique: usize,
    multiple: usize,
    none: usize,
    invalid: usize,
}

/// Opens `-s`'s input for the fast path: a regular file, with its length; `None` for anything
/// else (`-`, a pipe, a device), which the general reader streams.
fn open_file(path: &Path) -> Result<Option<(std::fs::File, u64)>> {
    use anyhow::Context as _;
    if path == Path::new("-") {
        return Ok(None);
    }
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(meta.is_file().then_some((file, meta.len())))
}

/// `-s`'s fast path, for an input wholly in the assignment's layout (what `-c` writes, puzzles
/// with `0` for blanks) of `len` bytes: read a wave of records at a time into one reused
/// buffer, each chunk of a wave checked, solved and written by one worker, the answers
/// written in order by a writer thread while the next wave is read and solved. The output and
/// the messages are those of `shudu solve --format grid`
/// ([`solve_all`](crate::cmd::solve::solve_all)), to the byte.
///
/// `None` if a record is not in that layout, or the input is not `len` bytes after all: the
/// general reader then reads it again, and what this path wrote is thrown away (the caller
/// starts a new output). Its messages on standard error are held until the end, so a run
/// that falls back never shows them twice.
///
/// # Errors
///
/// A read error of `path`, or a write error of `out`.
fn solve_assignment_stream(
    src: &mut impl std::io::Read,
    len: u64,
    path: &Path,
    out: &mut Output,
) -> Result<Option<crate::cmd::solve::Summary>> {
    use anyhow::Context as _;
    use rayon::prelude::*;
    use shudu_core::solver::{solve_unique, Solutions};
    // Records joined by one blank line, with or without a final newline.
    let Ok(len) = usize::try_from(len) else {
        return Ok(None);
    };
    let n = (len + 1) / (RECORD + 1);
    if n == 0 || !(n * (RECORD + 1) == len + 1 || n * (RECORD + 1) == len) {
        return Ok(None);
    }
    // Record `k` starts at byte `k * (RECORD + 1)`, and the byte after it, where there is
    // one, must be the '\n' of the blank line between records (the last record has it only
    // when the input ends with a blank line).
    let wave_records = WAVE_CHUNKS * CHUNK;
    // One chunk of a wave whose bytes (from the wave's first record on) are `wave`: `None` if
    // a record breaks the layout, else its answers and messages.
    let solve_chunk =
        |wave: &[u8], first: usize, c: usize, mut bytes: Vec<u8>| -> Option<Answers> {
            let ks = c * CHUNK..((c + 1) * CHUNK).min(n);
            let record = |k: usize| -> &[u8; RECORD] {
                let at = (k - first) * (RECORD + 1);
                wave[at..at + RECORD]
                    .try_into()
                    .expect("a record is RECORD bytes")
            };
            let fits = ks.clone().all(|k| {
                let sep = (k + 1 - first) * (RECORD + 1) - 1;
                layout_fits(record(k)) && wave.get(sep).is_none_or(|&b| b == b'\n')
            });
            if !fits {
                return None;
            }
            bytes.clear();
            let mut a = Answers {
                bytes,
                problems: String::new(),
                unique: 0,
                multiple: 0,
                none: 0,
                invalid: 0,
            };
            for k in ks {
                let p = parse_record(record(k));
                let solutions = solve_unique(&p);
                // Givens that break the rules have no solution: the rules are checked only then.
                if matches!(solutions, Solutions::None) && p.first_conflict().is_some() {
                    // The general reader's error for it, placed in the whole file, and an empty
                    // grid in its place.
                    let mut e = shudu_core::format::Reader::new(record(k))
                        .next()
                        .and_then(Result::err)
                        .expect("the reader rejects a record that breaks the rules");
                    e.puzzle = k + 1;
                    e.line += 10 * k;
                    a.invalid += 1;
                    let _ = writeln!(a.problems, "shudu: {e}");
                    if k > 0 {
                        a.bytes.push(b'\n');
                    }
                    crate::io::write_grid(&mut a.bytes, shudu_core::Puzzle::empty().as_bytes());
                    continue;
                }
                // The same answers and messages as `solve_all` (the puzzle back when it has no
                // solution or several; its number and first line on standard error).
                let answer = match solutions {
                    Solutions::Unique(g) => {
                        a.unique += 1;
                        g.to_puzzle()
                    }
                    Solutions::Multiple(_) | Solutions::None => {
                        let what = if matches!(solutions, Solutions::None) {
                            a.none += 1;
                            "no solution"
                        } else {
                            a.multiple += 1;
                            "more than one solution"
                        };
                        let _ = writeln!(
                            a.problems,
                            "shudu: puzzle {}, line {}: {what}",
                            k + 1,
                            10 * k + 1
                        );
                        p
                    }
                };
                // The grid format of `solve_all`: a blank line between records.
                if k > 0 {
                    a.bytes.push(b'\n');
                }
                crate::io::write_grid(&mut a.bytes, answer.as_bytes());
            }
            Some(a)
        };
    let chunks = n.div_ceil(CHUNK);
    let mut summary = crate::cmd::solve::Summary::default();
    // Held until the end (see above).
    let mut problems = String::new();
    // Buffers go to the writer and come back empty, to be filled again.
    let spare = std::sync::Mutex::new(Vec::<Vec<u8>>::new());
    let mut wave_bytes = Vec::new();
    let fits = std::thread::scope(|scope| -> Result<bool> {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Vec<u8>>>(2);
        let spare = &spare;
        let writer = scope.spawn(move || -> Result<()> {
            for bufs in rx {
                for buf in bufs {
                    out.write_all(&buf)?;
                    if let Ok(mut v) = spare.lock() {
                        v.push(buf);
                    }
                }
            }
            Ok(())
        });
        let mut fits = true;
        for wave in (0..chunks).step_by(WAVE_CHUNKS) {
            let first = wave * CHUNK;
            let bytes = first * (RECORD + 1)..((first + wave_records) * (RECORD + 1)).min(len);
            wave_bytes.resize(bytes.len(), 0);
            match src.read_exact(&mut wave_bytes) {
                Ok(()) => {}
                // Shorter than it was when opened: the general reader reads what is there.
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    fits = false;
                    break;
                }
                Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
            }
            let wave_bytes = &wave_bytes;
            let answers: Option<Vec<Answers>> = (wave..(wave + WAVE_CHUNKS).min(chunks))
                .into_par_iter()
                .map(|c| {
                    let buf = spare
                        .lock()
                        .map_or_else(|_| Vec::new(), |mut v| v.pop().unwrap_or_default());
                    solve_chunk(wave_bytes, first, c, buf)
                })
                .collect();
            let Some(answers) = answers else {
                fits = false;
                break;
            };
            let mut bufs = Vec::with_capacity(answers.len());
            for a in answers {
                summary.unique += a.unique;
                summary.multiple += a.multiple;
                summary.none += a.none;
                summary.invalid += a.invalid;
                problems.push_str(&a.problems);
                bufs.push(a.bytes);
            }
            if tx.send(bufs).is_err() {
                break; // The writer failed; its error is reported below.
            }
        }
        // Longer than it was when opened: the general reader reads it whole.
        if fits {
            let mut more = [0u8; 1];
            loop {
                match src.read(&mut more) {
                    Ok(0) => break,
                    Ok(_) => {
                        fits = false;
                        break;
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        return Err(e).with_context(|| format!("cannot read {}", path.display()))
                    }
                }
            }
        }
        drop(tx);
        writer.join().expect("the writer thread does not panic")?;
        Ok(fits)
    })?;
    if !fits {
        return Ok(None);
    }
    if !problems.is_empty() {
        // A closed standard error must not stop the answers.
        let _ = std::io::stderr().lock().write_all(problems.as_bytes());
    }
    let failed = summary.multiple + summary.none + summary.invalid;
    if failed > 0 {
        eprintln!(
            "shudu: {} of {} solved uniquely; {} with no solution, {} with several, {} unreadable",
            summary.unique,
            shudu_core::error::counted(summary.unique + failed, "puzzle"),
            summary.none,
            summary.multiple,
            summary.invalid
        );
    }
    Ok(Some(summary))
}
