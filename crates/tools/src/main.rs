//! `shudu-tools`: builds the lists that the library and the game carry built in. Not published;
//! run from the workspace root (`cargo run --release -p shudu-tools -- --help`).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use rand::seq::SliceRandom;
use shudu_core::{pack, Puzzle};

#[derive(Parser)]
#[command(about = "Builders of shudu's built-in puzzle lists")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Writes crates/core/data/seeds.bin, the hard puzzles the vicinity hunt starts from, from
    /// the public lists in DATA (../shared/data).
    Seeds {
        /// The folder of the public data sets.
        data: PathBuf,
        /// Where to write the packed list.
        #[arg(long, default_value = "crates/core/data/seeds.bin")]
        out: PathBuf,
    },
    /// Writes crates/web/bank/bank.bin, the game's bank of rated puzzles: for every band and
    /// symmetry, puzzles made by shudu's rated generator, each checked unique and rated again.
    Bank {
        /// Puzzles a band without symmetry (the game's default).
        #[arg(long, default_value_t = 200)]
        plain: usize,
        /// Puzzles a band and symmetry for the other symmetries.
        #[arg(long, default_value_t = 20)]
        symmetric: usize,
        /// Seconds each band and symmetry may take; a shelf short of its count says so.
        #[arg(long, default_value_t = 120)]
        seconds: u64,
        /// Seed of the generator.
        #[arg(long, default_value_t = 2026)]
        seed: u64,
        /// Where to write the bank.
        #[arg(long, default_value = "crates/web/bank/bank.bin")]
        out: PathBuf,
    },
}

/// Puzzles drawn from `puzzles5_forum_hardest_1905_11+`.
const FROM_1905: usize = 3000;

fn main() -> Result<()> {
    match Args::parse().command {
        Command::Seeds { data, out } => seeds(&data, &out),
        Command::Bank {
            plain,
            symmetric,
            seconds,
            seed,
            out,
        } => bank(plain, symmetric, seconds, seed, &out),
    }
}

/// Reads the puzzles of a list: one a line, `#` lines skipped.
fn read_list(path: &Path) -> Result<Vec<Puzzle>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cells = line.get(..81).unwrap_or(line);
        let p: Puzzle = cells
            .parse()
            .with_context(|| format!("{}: line {}", path.display(), i + 1))?;
        out.push(p);
    }
    Ok(out)
}

fn seeds(data: &Path, out: &Path) -> Result<()> {
    let mut list = read_list(&data.join("puzzles6_forum_hardest_1106"))?;
    let mut recent = read_list(&data.join("puzzles5_forum_hardest_1905_11+"))?;
    if recent.len() < FROM_1905 {
        bail!(
            "puzzles5_forum_hardest_1905_11+ holds {} puzzles; expected at least {FROM_1905}",
            recent.len()
        );
    }
    recent.shuffle(&mut shudu_core::grids::rng_for(1905, 11));
    list.extend_from_slice(&recent[..FROM_1905]);
    let mut bytes = Vec::new();
    for p in &list {
        if shudu_core::solver::count_solutions(p, 2).count != 1 {
            bail!("seed {p} does not have exactly one solution");
        }
        pack::push(&mut bytes, p, &[]);
    }
    write_atomically(out, &bytes)?;
    eprintln!(
        "wrote {} seeds ({} bytes) to {}",
        list.len(),
        bytes.len(),
        out.display()
    );
    Ok(())
}

/// Generates the game's bank: for each band and symmetry, a rated batch (the game's givens
/// ranges for easy and medium), every puzzle checked to have one solution and rated again, no
/// two equivalent within a band; written in the format `shudu_web`'s bank reads.
fn bank(plain: usize, symmetric: usize, seconds: u64, seed: u64, out: &Path) -> Result<()> {
    use shudu_core::generate::{GenerateConfig, Symmetry};
    use shudu_core::logic::{rate, Band};
    use shudu_core::rated::{generate_rated_batch, NewClasses, RatedConfig};
    let mut names: Vec<&'static str> = Vec::new();
    let mut records = Vec::new();
    let mut total = 0;
    for (b, band) in Band::ALL.into_iter().enumerate() {
        let mut classes = NewClasses::default();
        for (s, symmetry) in Symmetry::ALL.into_iter().enumerate() {
            let count = if symmetry == Symmetry::None {
                plain
            } else {
                symmetric
            };
            let base = GenerateConfig {
                symmetry,
                givens: shudu_web::givens_range(band),
                ..GenerateConfig::default()
            };
            let config = RatedConfig::band(base, band);
            let batch_seed = seed ^ ((b as u64) << 8 | s as u64);
            let batch = generate_rated_batch(
                &config,
                count,
                batch_seed,
                Some(std::time::Duration::from_secs(seconds)),
                &|_| {},
            )
            .with_context(|| format!("{band} {symmetry}"))?;
            let mut kept = 0;
            for (g, summary) in &batch.puzzles {
                let p = g.puzzle;
                if shudu_core::solver::count_solutions(&p, 2).count != 1 {
                    bail!("{band} {symmetry}: {p} does not have exactly one solution");
                }
                let again = rate(&p);
                if (again.er, again.band, again.hardest) != (summary.er, band, summary.hardest) {
                    bail!(
                        "{band} {symmetry}: {p} rated {} again, {} first",
                        again.er,
                        summary.er
                    );
                }
                if !symmetry.holds_for(&p) {
                    bail!("{band} {symmetry}: {p} lacks its symmetry");
                }
                if !classes.insert(&p) {
                    continue;
                }
                let name = match names.iter().position(|&n| n == summary.hardest) {
                    Some(i) => i,
                    None => {
                        names.push(summary.hardest);
                        names.len() - 1
                    }
                };
                let er = u8::try_from(summary.er.0).context("a rating above 25.5")?;
                pack::push(&mut records, &p, &[s as u8, er, name as u8]);
                kept += 1;
            }
            total += kept;
            eprintln!(
                "{band:>10} {:>14}: {kept:>4} of {count} in {:.1} s",
                symmetry.name(),
                batch.elapsed.as_secs_f64()
            );
        }
    }
    let mut bytes = b"SHUDUBANK1\n".to_vec();
    bytes.push(u8::try_from(names.len()).context("more than 255 technique names")?);
    for name in &names {
        bytes.push(u8::try_from(name.len()).context("a technique name over 255 bytes")?);
        bytes.extend_from_slice(name.as_bytes());
    }
    bytes.extend_from_slice(&records);
    write_atomically(out, &bytes)?;
    eprintln!(
        "wrote {total} puzzles ({} bytes) to {}",
        bytes.len(),
        out.display()
    );
    Ok(())
}

/// Writes `bytes` to a temporary file beside `path`, then renames it into place.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}
