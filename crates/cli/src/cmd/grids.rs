//! `shudu grids`: distinct random complete grids.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use shudu_core::format::Format;
use shudu_core::grids::{ClassStream, GridStream, GridsConfig, UniformStream};
use shudu_core::Digit;

use crate::io::{self, FormatArg, Output};

/// Arguments of `shudu grids`.
#[derive(Args, Debug)]
pub struct GridsArgs {
    /// How many grids to make; all are distinct. They are written as they are made, with memory
    /// bounded by the thread count, so any count works (up to one grid per first band:
    /// 948,109,639,680, or a ninth of that with --first-digit). --uniform and
    /// --distinct-classes are the exception: they remember every grid (about 170 bytes each),
    /// so they take at most 10,000,000.
    #[arg(short = 'n', long = "count", value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Make only shard I (from 0) of N of the batch: shards 0/N to N-1/N of one --seed,
    /// concatenated in order, are exactly the output of one run, and all distinct (each grid's
    /// first band comes from its position in the batch, never repeated). Needs --seed.
    #[arg(long, value_name = "I/N", value_parser = shudu::args::parse_shard, requires = "seed")]
    shard: Option<shudu::args::Shard>,
    /// Seed of the random generator: the same seed gives the same grids, whatever --threads.
    /// Random when omitted.
    #[arg(long)]
    seed: Option<u64>,
    /// Make every grid from a different equivalence class: no two are the same grid transposed,
    /// with rows, columns, bands or stacks swapped or digits renamed (`shudu canon` tells). A
    /// grid whose class came earlier is skipped and the next one taken. Not with --shard.
    #[arg(long, conflicts_with = "shard")]
    distinct_classes: bool,
    /// Draw every grid uniformly at random: each of the 6,670,903,752,021,072,936,960 grids
    /// equally likely (with --first-digit, each grid with that digit top-left), not just
    /// reachable; by exact counting (docs/ALGORITHM.md, "Uniform grids"). A grid drawn twice is
    /// skipped, so all are distinct. Not with --shard or --distinct-classes.
    #[arg(long, conflicts_with_all = ["shard", "distinct_classes"])]
    uniform: bool,
    /// Fix the top-left digit of every grid.
    #[arg(long, value_parser = shudu::args::parse_digit)]
    first_digit: Option<Digit>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: FormatArg,
    /// Write to FILE (replaced whole, atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = shudu::args::parse_threads)]
    threads: Option<usize>,
}

/// The most grids --uniform and --distinct-classes make in one run: they keep a set of every
/// grid (or class) made, measured at 336 MB for 2,000,000, so 10,000,000 needs about 1.7 GB.
const REMEMBERED_MAX: u64 = 10_000_000;

/// Runs `shudu grids`.
pub fn run(args: &GridsArgs) -> Result<ExitCode> {
    let max = shudu_core::grids::max_batch(args.first_digit);
    if args.count > max {
        anyhow::bail!(
            "-n {}: a batch holds at most {max} distinct grids{} (one per first band)",
            args.count,
            if args.first_digit.is_some() {
                " with a fixed first digit"
            } else {
                ""
            }
        );
    }
    if (args.uniform || args.distinct_classes) && args.count > REMEMBERED_MAX {
        anyhow::bail!(
            "-n {}: {} remembers every grid to keep them distinct (about 170 bytes each, {} MB \
             here), so it takes at most {REMEMBERED_MAX}; run several batches with different \
             seeds and `shudu canon --dedupe` them, or drop the flag",
            args.count,
            if args.uniform {
                "--uniform"
            } else {
                "--distinct-classes"
            },
            args.count.saturating_mul(170) / 1_000_000
        );
    }
    let items = args
        .shard
        .unwrap_or(shudu::args::Shard::ALL)
        .items(args.count);
    io::set_threads(args.threads, items.len())?;
    let config = GridsConfig {
        count: items.len(),
        seed: args.seed.unwrap_or_else(rand::random),
        first_digit: args.first_digit,
        start: items.start,
    };
    if args.uniform {
        let mut waves = UniformStream::new(&config, WAVE);
        write_waves(&config, &mut waves, args.format, args.output.as_deref())?;
        if waves.skipped() > 0 {
            eprintln!("shudu: skipped {} grids drawn twice", waves.skipped());
        }
    } else if args.distinct_classes {
        let mut waves = ClassStream::new(&config, WAVE);
        write_waves(&config, &mut waves, args.format, args.output.as_deref())?;
        if waves.skipped() > 0 {
            eprintln!(
                "shudu: skipped {} grids whose class came earlier",
                waves.skipped()
            );
        }
    } else {
        write_grids(&config, args.format, args.output.as_deref())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Generates the grids of `config` and writes them; shared with `shudu -c`. Grids come in waves;
/// each wave is formatted in parallel and handed to a writer thread, so writing overlaps making
/// the next wave.
pub fn write_grids(
    config: &GridsConfig,
    format: FormatArg,
    output: Option<&std::path::Path>,
) -> Result<()> {
    write_waves(config, GridStream::new(config, WAVE), format, output)
}

/// Grids made per wave.
const WAVE: usize = 1 << 16;

/// Writes the grids of `waves` (of the batch `config`), a wave at a time.
fn write_waves(
    config: &GridsConfig,
    waves: impl Iterator<Item = Vec<shudu_core::Grid>>,
    format: FormatArg,
    output: Option<&std::path::Path>,
) -> Result<()> {
    let mut out = Output::create(output)?;
    let bar = io::progress(config.count as u64, "grids", 50_000);
    let format: Format = format.into();
    // Buffers go to the writer and come back empty, to be filled again.
    let spare = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| -> Result<()> {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Vec<u8>>>(2);
        let spare = &spare;
        let writer = scope.spawn(move || -> Result<Output> {
            for bufs in rx {
                for buf in bufs {
                    out.write_all(&buf)?;
                    if let Ok(mut v) = spare.lock() {
                        v.push(buf);
                    }
                }
            }
            Ok(out)
        });
        // Block formats number grids by item, so that shards concatenate to one run.
        let mut written = config.start;
        for wave in waves {
            let bufs = io::format_grids(&wave, format, written, spare);
            written += wave.len();
            bar.inc(wave.len() as u64);
            if tx.send(bufs).is_err() {
                break; // The writer failed; its error is reported below.
            }
        }
        drop(tx);
        let out = writer.join().expect("the writer thread does not panic")?;
        bar.finish_and_clear();
        out.finish()
    })
}
