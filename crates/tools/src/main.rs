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
        /// Make only these shelves (`band` or `band:symmetry`, comma-separated), keeping the
        /// other shelves of the bank file already at `--out`.
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
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
            only,
            out,
        } => bank(plain, symmetric, seconds, seed, &only, &out),
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
fn bank(
    plain: usize,
    symmetric: usize,
    seconds: u64,
    seed: u64,
    only: &[String],
    out: &Path,
) -> Result<()> {
    use shudu_core::generate::{GenerateConfig, Symmetry};
    use shudu_core::logic::{rate, Band};
    use shudu_core::rated::{generate_rated_batch, NewClasses, RatedConfig};
    let mut names: Vec<&'static str> = Vec::new();
    let mut records = Vec::new();
    let mut total = 0;
    let wanted = |band: Band, symmetry: Symmetry| {
        only.is_empty()
            || only
                .iter()
                .any(|o| *o == band.name() || *o == format!("{band}:{}", symmetry.name()))
    };
    // The shelves kept from the bank already at `out`: (band, symmetry index, puzzle, rating,
    // technique name).
    let mut kept_before: Vec<(Band, usize, Puzzle, u8, String)> = Vec::new();
    if !only.is_empty() {
        let bytes = std::fs::read(out).with_context(|| format!("reading {}", out.display()))?;
        let rest = bytes
            .strip_prefix(b"SHUDUBANK1\n".as_slice())
            .context("not a bank file")?;
        let (&count, mut rest) = rest.split_first().context("no technique names")?;
        let mut old_names = Vec::new();
        for _ in 0..count {
            let (&len, tail) = rest.split_first().context("a name cut short")?;
            let name = tail.get(..len as usize).context("a name cut short")?;
            old_names.push(String::from_utf8_lossy(name).into_owned());
            rest = &tail[len as usize..];
        }
        for (p, extra) in pack::records(rest, 3)? {
            let band = Band::of(shudu_core::logic::Rating(u16::from(extra[1])));
            let s = extra[0] as usize;
            let symmetry = *Symmetry::ALL.get(s).context("a symmetry out of range")?;
            if !wanted(band, symmetry) {
                let name = old_names
                    .get(extra[2] as usize)
                    .context("a name out of range")?;
                kept_before.push((band, s, p, extra[1], name.clone()));
            }
        }
    }
    for (b, band) in Band::ALL.into_iter().enumerate() {
        let mut classes = NewClasses::default();
        for (s, symmetry) in Symmetry::ALL.into_iter().enumerate() {
            if !wanted(band, symmetry) {
                let old = kept_before.iter().filter(|k| k.0 == band && k.1 == s);
                for (_, _, p, er, name) in old {
                    if !classes.insert(p) {
                        continue;
                    }
                    let i = match names.iter().position(|n| n == name) {
                        Some(i) => i,
                        None => {
                            names.push(Box::leak(name.clone().into_boxed_str()));
                            names.len() - 1
                        }
                    };
                    pack::push(&mut records, p, &[s as u8, *er, i as u8]);
                    total += 1;
                }
                continue;
            }
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
