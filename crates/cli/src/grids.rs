//! `shudu grids`: distinct random complete grids.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use shudu_core::grids::{generate_grids_with_progress, GridsConfig};
use shudu_core::{Digit, Puzzle};

use crate::io::{self, FormatArg, Output};

/// Arguments of `shudu grids`.
#[derive(Args, Debug)]
pub struct GridsArgs {
    /// How many grids to make; all are distinct.
    #[arg(short = 'n', long = "count", value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    count: u64,
    /// Seed of the random generator: the same seed gives the same grids, whatever --threads.
    /// Random when omitted.
    #[arg(long)]
    seed: Option<u64>,
    /// Fix the top-left digit of every grid.
    #[arg(long, value_parser = io::parse_digit)]
    first_digit: Option<Digit>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: FormatArg,
    /// Write to FILE (replaced whole, atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

/// Runs `shudu grids`.
pub fn run(args: &GridsArgs) -> Result<ExitCode> {
    io::set_threads(args.threads)?;
    let config = GridsConfig {
        count: args.count as usize,
        seed: args.seed.unwrap_or_else(rand::random),
        first_digit: args.first_digit,
    };
    write_grids(&config, args.format, args.output.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

/// Generates the grids of `config` and writes them; shared with `shudu -c`.
pub fn write_grids(
    config: &GridsConfig,
    format: FormatArg,
    output: Option<&std::path::Path>,
) -> Result<()> {
    let bar = io::progress(config.count as u64, "grids");
    let grids = generate_grids_with_progress(config, &|k| bar.inc(k as u64));
    bar.finish_and_clear();
    let puzzles: Vec<Puzzle> = grids.iter().map(|g| g.to_puzzle()).collect();
    let mut out = Output::create(output)?;
    for buf in io::format_all(&puzzles, format.into()) {
        out.write_all(&buf)?;
    }
    out.finish()
}
