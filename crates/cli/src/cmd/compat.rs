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
//! | 1 | easy | up to 1.2 | 36-45 (36-45) |
//! | 2 | medium | 1.3-1.5 | 30-35 (46-51) |
//! | 3 | hard | 1.6-2.5 | 24-29 (52-57) |
//!
//! A rated puzzle must have a unique solution, so `-m` implies `-u`. Without `-u` (and `-m`),
//! `-n` digs holes at random without the uniqueness check, as the assignment allows; standard
//! error says so.

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
        // Read first: a missing or unreadable file leaves sudoku.txt untouched.
        let text = io::read_input(Some(path))?;
        let mut out = Output::create(Some(Path::new(OUTPUT)))?;
        let summary = crate::cmd::solve::solve_all(&text, &mut out, FormatArg::Grid.into(), false)?;
        summary.finish(out)?;
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
    let job = Job {
        config: GenerateConfig {
            givens: Some(givens),
            symmetry: Symmetry::None,
            minimal: false,
            unique: args.unique || band.is_some(),
            band,
        },
        rating: None,
        needs: Vec::new(),
        without: shudu_core::needs::TechniqueSet::EMPTY,
        items: 0..n,
        seed: args.seed.unwrap_or_else(rand::random),
        timeout: Some(BUDGET),
    };
    crate::cmd::generate::write_to(&job, FormatArg::Grid.into(), Path::new(OUTPUT))
}
