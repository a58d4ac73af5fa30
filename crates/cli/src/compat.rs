//! The 2017 assignment's interface (北航 software engineering): `shudu -c N` and `shudu -s FILE`,
//! both writing `sudoku.txt` in the current folder.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Args;
use shudu_core::grids::GridsConfig;
use shudu_core::Digit;

use crate::io::{self, FormatArg, Output};

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
        conflicts_with = "solve"
    )]
    create: Option<i64>,
    /// Solve every puzzle of FILE (9 lines of digits, 0 for empty, a blank line between puzzles;
    /// other formats are detected too) and write the solutions to sudoku.txt, in order.
    #[arg(short = 's', value_name = "FILE")]
    solve: Option<PathBuf>,
    /// With -c: the top-left digit of every grid (the assignment derives it from a student
    /// number).
    #[arg(long, value_parser = io::parse_digit, default_value = "1")]
    first_digit: Digit,
    /// With -c: seed of the random generator (random when omitted).
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

/// Runs the mode the flags ask for.
pub fn run(args: &CompatArgs) -> Result<ExitCode> {
    io::set_threads(args.threads)?;
    if let Some(n) = args.create {
        let config = GridsConfig {
            count: n as usize,
            seed: args.seed.unwrap_or_else(rand::random),
            first_digit: Some(args.first_digit),
        };
        crate::grids::write_grids(&config, FormatArg::Grid, Some(Path::new(OUTPUT)))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(path) = &args.solve {
        // Read first: a missing or unreadable file leaves sudoku.txt untouched.
        let text = io::read_input(Some(path))?;
        let mut out = Output::create(Some(Path::new(OUTPUT)))?;
        let summary = crate::solve::solve_all(&text, &mut out, FormatArg::Grid.into(), true)?;
        out.finish()?;
        return Ok(summary.exit_code());
    }
    bail!("nothing to do: give a command (try 'shudu --help'), or -c N, or -s FILE")
}
