//! `shudu generate`: puzzles with a unique solution, dug from random grids.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{ArgAction, Args};
use rayon::prelude::*;
use shudu_core::format::Format;
use shudu_core::generate::{generate_stream, GenerateConfig, Generated, StreamSummary, Symmetry};
use shudu_core::logic::{rate, Band, Rating};
use shudu_core::needs::TechniqueSet;
use shudu_core::rated::{generate_rated_stream, vicinity, RatedConfig, MAX_RATING};
use shudu_core::Puzzle;

use crate::exit;
use crate::io::{self, FormatArg, Output};
use shudu::args::{
    parse_givens, parse_rating, parse_shard, parse_threads, parse_timeout, Shard, Timeout,
};

/// Arguments of `shudu generate`.
#[derive(Args, Debug)]
// The layout flags lay out the --print book: without --print they would do nothing.
#[command(group(
    clap::ArgGroup::new("layout")
        .args(["per_page", "paper", "title", "answers"])
        .multiple(true)
        .requires("print")
))]
pub struct GenerateArgs {
    /// How many puzzles to make. They are written in order as they are found, with memory
    /// bounded by the thread count, so any count works.
    #[arg(short = 'n', long = "count", value_parser = clap::value_parser!(u64).range(1..),
          required_unless_present = "list_techniques")]
    count: Option<u64>,
    /// Make only shard I (from 0) of N of the batch: shards 0/N to N-1/N of one --seed,
    /// concatenated in order, are exactly the output of one run. Needs --seed (shards of
    /// different seeds do not combine).
    #[arg(long, value_name = "I/N", value_parser = parse_shard, requires = "seed")]
    shard: Option<Shard>,
    /// Exactly K givens (17 to 81), or a range A..B. For other sizes and variants any number
    /// up to the cells of the grid (0 for a killer of cages only, the default).
    #[arg(long, value_name = "K|A..B", value_parser = parse_givens)]
    givens: Option<(usize, usize)>,
    /// Symmetry of the givens' pattern: none, rot180, rot90, mirror-h, mirror-v, mirror-both,
    /// diagonal, anti-diagonal, both-diagonals, dihedral.
    #[arg(long, default_value = "none", value_parser = parse_symmetry)]
    symmetry: Symmetry,
    /// No single given can be removed without losing uniqueness.
    #[arg(long)]
    minimal: bool,
    /// With --minimal --symmetry rot180: start most attempts from solution grids that a half
    /// turn and a renaming of the digits map to themselves. About 3.5 times faster, but nearly
    /// every puzzle is then itself automorphic, a structure experienced solvers can exploit
    /// ("symmetrical placement"); without it the grids are uniformly random.
    #[arg(long)]
    automorphic: bool,
    /// Difficulty band on the Sudoku Explainer scale, as rated by `shudu grade`: easy (1.0-1.5:
    /// hidden singles), medium (1.6-2.5: naked singles, direct intersections), hard (2.6-4.0:
    /// locked candidates, pairs, triples, X-Wing, Swordfish), fiendish (4.1-6.1: wings,
    /// uniqueness, quads, BUG), diabolical (6.2-8.9: chains), extreme (9.0 and up: dynamic and
    /// nested forcing chains). The ratings spread over the band (docs/rated.md); no two puzzles
    /// of a run are equivalent.
    #[arg(long, visible_alias = "band", value_parser = parse_band, conflicts_with = "rating")]
    difficulty: Option<Band>,
    /// Sudoku Explainer rating (ER) range: A..B, A.. , ..B or a single value, e.g. 7.0..8.5.
    #[arg(long, value_name = "A..B", value_parser = parse_rating)]
    rating: Option<(Rating, Rating)>,
    /// Techniques every puzzle's solving path must use, comma-separated: x-wing, xy-wing,
    /// skyscraper, unique-rectangle, ... or a family (fish, chains, ...), met by any member.
    /// Named techniques (skyscraper, 2-string-kite, empty-rectangle, finned-fish,
    /// simple-colouring, w-wing, als-xz) are checked on the hints' path (`explain --named`).
    /// The puzzles are searched for by local search on the givens. --list-techniques lists
    /// the names.
    #[arg(long, value_name = "T[,T...]", value_parser = parse_techniques)]
    needs: Option<Techniques>,
    /// Techniques (or families, e.g. chains) no puzzle's solving path may use,
    /// comma-separated.
    #[arg(long, value_name = "T[,T...]", value_parser = parse_techniques)]
    without: Option<Techniques>,
    /// Print the technique and family names that --needs and --without take, with their
    /// ratings, and exit.
    #[arg(long, exclusive = true)]
    list_techniques: bool,
    /// Seed of the random generator: the same seed gives the same puzzles, whatever --threads.
    /// Random when omitted.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: FormatArg,
    /// Add each puzzle's solution: after the puzzle on its line (line format), as the next
    /// record (block formats); JSON always carries it.
    #[arg(long)]
    with_solution: bool,
    /// Write to FILE (replaced whole, atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Stop searching after this long (e.g. 30s, 500ms, 2m, 1h; a bare number is seconds), write
    /// what was found and say "found M of N". `none` searches until every puzzle is found, which
    /// for 17 or 18 givens may be never. Default 60s, given afresh for every 1024 puzzles (64 a
    /// thread when there are more threads), so a bulk job that keeps finding puzzles runs to
    /// the end; for a --rating range starting at 10.0 or more (nested forcing chains) 10m:
    /// without a symmetry such a puzzle takes about a second of one core (11.0 and up: several
    /// seconds), with one it may take minutes or not be found (BENCHMARKS.md, "The top of the
    /// difficulty scale").
    #[arg(long, value_name = "DURATION|none", value_parser = parse_timeout)]
    timeout: Option<Timeout>,
    /// `--unique false`: plain random digging to --givens without the uniqueness check (the
    /// classic method; puzzles may have several solutions, and the output says so).
    #[arg(long, default_value_t = true, action = ArgAction::Set, value_name = "BOOL")]
    unique: bool,
    /// Print a summary on standard error: count, time per puzzle, histograms of givens and
    /// ratings.
    #[arg(long)]
    stats: bool,
    /// Also lay the puzzles out for print in FILE: a PDF book, or SVG images for a name ending
    /// in .svg (as `shudu print` does; rated when --difficulty or --rating is given).
    #[arg(long, value_name = "FILE")]
    print: Option<PathBuf>,
    #[command(flatten)]
    layout: super::print::LayoutArgs,
    /// Size of the puzzles: 4, 6, 8, 9, 12 or 16 (boxes of 2x2, 2x3, 2x4, 3x3, 3x4, 4x4),
    /// made by the general engine (docs/variants.md).
    #[arg(long, default_value_t = 9, value_name = "N")]
    size: usize,
    /// Variant rules, comma-separated: x (both diagonals), windoku, anti-knight, anti-king,
    /// jigsaw (a random layout of regions for each puzzle), killer (cages with sums; no givens
    /// unless --givens asks for some).
    #[arg(long, value_delimiter = ',', value_name = "V[,V...]")]
    variant: Vec<String>,
    /// Killer cages of at most this many cells (2 to the size; default 5, or the size when
    /// smaller).
    #[arg(long, value_name = "K", requires = "variant")]
    cages: Option<usize>,
    /// Write each puzzle as an f-puzzles link (https://f-puzzles.com/?load=..., which
    /// SudokuPad opens too) instead of the line format. Jigsaw and killer puzzles, whose
    /// regions and cages the line format cannot hold, are always written so.
    #[arg(long)]
    fpuzzles: bool,
}

impl GenerateArgs {
    /// The options of classic generation that the variant path does not take, by name.
    fn classic_only(&self) -> Vec<&'static str> {
        let mut used = Vec::new();
        for (on, name) in [
            (self.needs.is_some(), "--needs"),
            (self.without.is_some(), "--without"),
            (self.automorphic, "--automorphic"),
            (self.shard.is_some(), "--shard"),
            (!self.unique, "--unique false"),
            (self.stats, "--stats"),
            (!matches!(self.format, FormatArg::Line), "--format"),
        ] {
            if on {
                used.push(name);
            }
        }
        used
    }
}

fn parse_symmetry(s: &str) -> std::result::Result<Symmetry, String> {
    s.parse()
        .map_err(|e: shudu_core::generate::UnknownSymmetry| e.to_string())
}

/// A list of technique names as `--needs` and `--without` take it.
#[derive(Clone, Debug)]
pub struct Techniques(Vec<TechniqueSet>);

fn parse_techniques(s: &str) -> std::result::Result<Techniques, String> {
    let list = shudu_core::needs::parse_list(s).map_err(|e| e.to_string())?;
    if list.is_empty() {
        return Err("expected at least one technique name".into());
    }
    Ok(Techniques(list))
}

fn parse_band(s: &str) -> std::result::Result<Band, String> {
    s.parse()
        .map_err(|e: shudu_core::logic::BandParseError| e.to_string())
}

/// Runs `shudu generate`.
pub fn run(args: &GenerateArgs) -> Result<ExitCode> {
    if args.list_techniques {
        io::stdout_text(&shudu_core::needs::catalogue())?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.print.is_some() && !args.unique {
        anyhow::bail!("--print needs puzzles with one solution: drop --unique false");
    }
    if let Some(path) = &args.print {
        super::print::check_layout(&args.layout, super::print::guess_format(path), path)?;
    }
    let count = args
        .count
        .expect("clap requires --count without --list-techniques");
    io::set_threads(args.threads, count as usize)?;
    if args.size != 9 || !args.variant.is_empty() || args.fpuzzles {
        let used = args.classic_only();
        if !used.is_empty() {
            anyhow::bail!(
                "{}: not for --size or --variant puzzles yet (the general engine digs unique \
                 puzzles with --givens, --symmetry and --minimal, and rates them for \
                 --difficulty and --rating; it does not pick techniques)",
                used.join(", ")
            );
        }
        let variants = super::variant::parse(args.size, &args.variant)?;
        let request = super::variant::Request {
            count: count as usize,
            givens: args.givens,
            symmetry: args.symmetry,
            minimal: args.minimal,
            cages: args.cages,
            seed: args.seed.unwrap_or_else(rand::random),
            timeout: args.timeout.map_or(Some(DEFAULT_TIMEOUT), |t| t.0),
            links: args.fpuzzles,
            with_solution: args.with_solution,
            print: args.print.as_deref().map(|p| (p, &args.layout)),
            rating: args.rating.or(args.difficulty.map(Band::range)),
        };
        return super::variant::generate(&variants, &request, args.output.as_deref());
    }
    if let Some((_, b)) = args.givens.filter(|&(_, b)| b > 81) {
        anyhow::bail!(
            "--givens: a puzzle has at most 81 givens, not {b} (9x9; --size sets another size)"
        );
    }
    let config = GenerateConfig {
        givens: args.givens,
        symmetry: args.symmetry,
        minimal: args.minimal,
        unique: args.unique,
        band: None,
        automorphic: args.automorphic,
    };
    let job = Job {
        config,
        rating: args.rating.or(args.difficulty.map(Band::range)),
        needs: args.needs.clone().map_or_else(Vec::new, |t| t.0),
        without: args
            .without
            .iter()
            .flat_map(|t| t.0.iter().copied())
            .fold(TechniqueSet::EMPTY, |a, b| a | b),
        items: args.shard.unwrap_or(Shard::ALL).items(count),
        seed: args.seed.unwrap_or_else(rand::random),
        renew: args.timeout.is_none().then(renew_every),
        timeout: args.timeout.map_or_else(
            || {
                let nested = args.rating.is_some_and(|(lo, _)| lo >= vicinity::PLUS_FROM);
                Some(if nested {
                    NESTED_TIMEOUT
                } else {
                    DEFAULT_TIMEOUT
                })
            },
            |t| t.0,
        ),
    };
    job.validate()?;
    let mut out = Output::create(args.output.as_deref())?;
    let format: Format = args.format.into();
    let mut stats = Stats::new(&job);
    let mut buf = Vec::with_capacity(1 << 12);
    if !job.config.unique && job.items.start == 0 && format != Format::Json {
        buf.extend_from_slice(
            b"# plain random digging (--unique false): puzzles may have several solutions\n",
        );
    }
    let mut book = args.print.as_ref().map(|_| Vec::new());
    let summary = job.run(&mut |item, g| {
        if let Some(book) = &mut book {
            book.push(super::print::Printed {
                puzzle: g.puzzle,
                marks: None,
                solution: g.solution,
                rating: None,
            });
        }
        render_one(&mut buf, g, item, &job, format, args.with_solution);
        if args.stats {
            stats.add(item, g);
        }
        out.write_all(&buf)?;
        buf.clear();
        Ok(())
    })?;
    out.write_all(&buf)?;
    if summary.found == 0 && summary.requested > 0 {
        out.abandon()?;
    } else {
        out.finish()?;
    }
    if let (Some(path), Some(book)) = (&args.print, book) {
        if !book.is_empty() {
            use super::print::{entries, guess_format, write_book};
            let entries = entries(book, job.rating.is_some());
            write_book(entries, &args.layout, guess_format(path), path)?;
        }
    }
    if args.stats {
        io::say(&stats.report(&summary, &job));
    }
    Ok(job.report(&summary))
}

/// One generation request, shared with the assignment's `-n` mode.
pub struct Job {
    /// What to make.
    pub config: GenerateConfig,
    /// The Sudoku Explainer rating range (ER) asked for, if any; a `band` in `config` asks for
    /// that band's range too.
    pub rating: Option<(Rating, Rating)>,
    /// Techniques the solving path must use (one of each set).
    pub needs: Vec<TechniqueSet>,
    /// Techniques the solving path must not use.
    pub without: TechniqueSet,
    /// The items this run makes (all of `0..count` unless `--shard`).
    pub items: std::ops::Range<usize>,
    /// The seed of the batch.
    pub seed: u64,
    /// The time budget.
    pub timeout: Option<Duration>,
    /// `Some(k)`: the budget is the default one, and starts again for every `k` items, so a
    /// bulk job that keeps finding puzzles never stops at it; it stops a search that finds
    /// none of `k` in the budget. `None`: one budget for the whole run (`--timeout`).
    pub renew: Option<usize>,
}

/// Items a default budget covers before it starts again ([`Job::renew`]); at least this many,
/// and 64 a worker thread.
pub fn renew_every() -> usize {
    (64 * rayon::current_num_threads()).max(1024)
}

impl Job {
    /// The rated search's config, if a rating or techniques are asked for.
    fn rated(&self) -> Option<RatedConfig> {
        let asked = self.rating.or(self.config.band.map(Band::range));
        let techniques = !self.needs.is_empty() || !self.without.is_empty();
        let rating = match asked {
            Some(r) => r,
            None if techniques && self.config.unique => (Rating(0), MAX_RATING),
            None => return None,
        };
        Some(RatedConfig {
            base: GenerateConfig {
                band: None,
                ..self.config.clone()
            },
            rating,
            needs: self.needs.clone(),
            without: self.without,
        })
    }

    /// Refuses a request that no puzzle can satisfy, before any output file is touched.
    pub fn validate(&self) -> Result<()> {
        if !self.config.unique && (!self.needs.is_empty() || !self.without.is_empty()) {
            anyhow::bail!(
                "cannot generate these puzzles: --needs and --without need puzzles with a unique \
                 solution (only those have a solving path); drop --unique false"
            );
        }
        match self.rated() {
            Some(r) => r.validate().context("cannot generate these puzzles"),
            None => self
                .config
                .validate()
                .context("cannot generate these puzzles"),
        }
    }

    /// Generates the items in order, handing each puzzle found to `emit(item, puzzle)` as soon
    /// as the items before it are done (memory bounded by the thread count), with a progress
    /// bar on a terminal. Call [`Job::validate`] first.
    pub fn run(
        &self,
        emit: &mut dyn FnMut(usize, &Generated) -> Result<()>,
    ) -> Result<StreamSummary> {
        if !self.config.unique {
            eprintln!(
                "shudu: note: plain random digging without the uniqueness check (--unique false, \
                 or -n without -u): puzzles may have several solutions"
            );
        }
        // Generation can be slow (few givens, hard bands): a bar for any count.
        let bar = io::progress(self.items.len() as u64, "puzzles", 1);
        let progress = |k: usize| bar.inc(k as u64);
        let rated = self.rated();
        let slice = self.renew.unwrap_or(usize::MAX).max(1);
        let mut summary = StreamSummary {
            found: 0,
            requested: 0,
            attempts: 0,
            timed_out: false,
            elapsed: Duration::ZERO,
        };
        let mut from = self.items.start;
        // One slice of items at a time, each with the budget afresh (one slice for all
        // without `renew`). Item `i` is made from its own seed, so slices give exactly the
        // output of one run.
        while from < self.items.end {
            let items = from..from.saturating_add(slice).min(self.items.end);
            from = items.end;
            let part = match &rated {
                // A rating asked for: the rated search (local search on the givens for rare
                // bands), which grades as it goes.
                Some(config) => generate_rated_stream(
                    config,
                    items,
                    self.seed,
                    self.timeout,
                    &progress,
                    &mut |i, (g, _)| emit(i, &g),
                )?,
                None => generate_stream(
                    &self.config,
                    items,
                    self.seed,
                    self.timeout,
                    &progress,
                    &mut |i, g| emit(i, &g),
                )?,
            };
            summary.found += part.found;
            summary.requested += part.requested;
            summary.attempts += part.attempts;
            summary.elapsed += part.elapsed;
            if part.found < part.requested {
                summary.timed_out = part.timed_out;
                summary.requested += self.items.end - from;
                break;
            }
        }
        bar.finish_and_clear();
        Ok(summary)
    }

    /// Says on standard error if the budget ran out, and gives the exit status: 1 if some
    /// puzzles are missing.
    pub fn report(&self, batch: &StreamSummary) -> ExitCode {
        if batch.found == batch.requested {
            return ExitCode::SUCCESS;
        }
        let (found, asked) = (batch.found, batch.requested);
        match self.timeout {
            Some(budget) if batch.timed_out => eprintln!(
                "shudu: found {found} of {}: the time budget of {}{} ran out \
                 (--timeout sets it; --timeout none searches without limit)",
                shudu_core::error::counted(asked, "puzzle"),
                show_duration(budget),
                self.renew.map_or_else(String::new, |k| format!(
                    " (the default, given afresh for every {k} puzzles)"
                ))
            ),
            _ => eprintln!(
                "shudu: found {found} of {}: the search gave up after trying {} \
                 without finding the rest",
                shudu_core::error::counted(asked, "puzzle"),
                shudu_core::error::counted(batch.attempts as usize, "grid")
            ),
        }
        ExitCode::from(exit::NOT_UNIQUE)
    }
}

/// A budget as the user would write it: `60s`, `500ms`, `2m`.
fn show_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(60_000) && ms >= 60_000 {
        format!("{}m", ms / 60_000)
    } else if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else if ms > 0 {
        format!("{ms}ms")
    } else {
        format!("{d:?}")
    }
}

#[derive(serde::Serialize)]
struct JsonRecord<'a> {
    puzzle: String,
    solution: String,
    givens: usize,
    symmetry: &'a str,
    seed: u64,
    item: usize,
    unique_checked: bool,
}

/// Appends the record of item `item` to `buf`. Block formats number records by item (two a
/// puzzle with its solution), so that the shards of a batch, concatenated, are one run's output.
pub fn render_one(
    buf: &mut Vec<u8>,
    g: &Generated,
    item: usize,
    job: &Job,
    format: Format,
    with_solution: bool,
) {
    match format {
        Format::Json => {
            let record = JsonRecord {
                puzzle: g.puzzle.to_line(),
                solution: g.solution.to_line(),
                givens: g.puzzle.givens(),
                symmetry: job.config.symmetry.name(),
                seed: job.seed,
                item,
                unique_checked: job.config.unique,
            };
            serde_json::to_writer(&mut *buf, &record).expect("writing to memory");
            buf.push(b'\n');
        }
        Format::Line if with_solution => {
            buf.extend_from_slice(g.puzzle.to_line().as_bytes());
            buf.push(b' ');
            buf.extend_from_slice(g.solution.to_line().as_bytes());
            buf.push(b'\n');
        }
        _ => {
            let index = if with_solution { 2 * item } else { item };
            format.write(buf, index, &g.puzzle);
            if with_solution {
                format.write(buf, index + 1, &g.solution.to_puzzle());
            }
        }
    }
}

/// At most this many puzzles are graded for the `--stats` histogram of ratings.
const RATED_SAMPLE: usize = 2000;

/// `--timeout`'s default.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// `--timeout`'s default for a rating range from 10.0 (`vicinity::PLUS_FROM`): nested forcing
/// chains, which the walks of a symmetric config reach slowly (docs/rated.md).
const NESTED_TIMEOUT: Duration = Duration::from_secs(600);

/// The `--stats` summary, gathered as the puzzles stream by: a histogram of givens over all,
/// ratings of an even sample (one item in `step`) kept aside.
pub struct Stats {
    by_givens: [usize; 82],
    step: usize,
    sample: Vec<Puzzle>,
}

impl Stats {
    fn new(job: &Job) -> Stats {
        Stats {
            by_givens: [0; 82],
            step: job.items.len().div_ceil(RATED_SAMPLE).max(1),
            sample: Vec::new(),
        }
    }

    fn add(&mut self, item: usize, g: &Generated) {
        self.by_givens[g.puzzle.givens()] += 1;
        if item.is_multiple_of(self.step) {
            self.sample.push(g.puzzle);
        }
    }

    fn report(&self, batch: &StreamSummary, job: &Job) -> String {
        use std::fmt::Write;
        let found = batch.found;
        let secs = batch.elapsed.as_secs_f64();
        let mut s = String::new();
        let kind = if job.config.unique {
            "unique solution checked"
        } else {
            "plain digging, uniqueness NOT checked"
        };
        let _ = writeln!(
            s,
            "made {found} of {} puzzles ({kind}), seed {}",
            batch.requested, job.seed
        );
        let _ = writeln!(
            s,
            "time {secs:.3} s, {:.1} us a puzzle, {:.0} puzzles/s, {:.2} grids tried a puzzle",
            secs * 1e6 / found.max(1) as f64,
            found as f64 / secs.max(1e-9),
            batch.attempts as f64 / found.max(1) as f64
        );
        if found == 0 {
            return s;
        }
        let _ = writeln!(s, "givens:");
        histogram(
            &mut s,
            self.by_givens
                .iter()
                .enumerate()
                .map(|(k, &n)| (k.to_string(), n)),
            found,
        );
        if job.config.unique {
            // Grading costs up to milliseconds a puzzle: rate an even sample of big batches.
            let bands: Vec<Band> = self.sample.par_iter().map(|p| rate(p).band).collect();
            if self.step == 1 {
                let _ = writeln!(s, "ratings (Sudoku Explainer bands):");
            } else {
                let _ = writeln!(
                    s,
                    "ratings (Sudoku Explainer bands) of {} puzzles, one in {}:",
                    bands.len(),
                    self.step
                );
            }
            histogram(
                &mut s,
                Band::ALL.iter().map(|b| {
                    (
                        b.name().to_string(),
                        bands.iter().filter(|&x| x == b).count(),
                    )
                }),
                bands.len(),
            );
        }
        s
    }
}

/// Rows `label count percent bar` for the non-zero counts.
fn histogram(s: &mut String, rows: impl Iterator<Item = (String, usize)>, total: usize) {
    use std::fmt::Write;
    for (label, n) in rows.filter(|r| r.1 > 0) {
        let pct = 100.0 * n as f64 / total as f64;
        let bar = "#".repeat((pct / 2.0).round() as usize);
        let _ = writeln!(s, "  {label:>10} {n:>8} {pct:5.1}% {bar}");
    }
}

/// Streams the job to `path` in `format` with no comment line (the assignment's mode), and
/// gives the exit status.
pub fn write_to(job: &Job, format: Format, path: &Path) -> Result<ExitCode> {
    job.validate()?;
    let mut out = Output::create(Some(path))?;
    let mut buf = Vec::with_capacity(1 << 12);
    let summary = job.run(&mut |item, g| {
        render_one(&mut buf, g, item, job, format, false);
        out.write_all(&buf)?;
        buf.clear();
        Ok(())
    })?;
    if summary.found == 0 {
        out.abandon()?;
    } else {
        out.finish()?;
        eprintln!(
            "shudu: wrote {} to {}",
            shudu_core::error::counted(summary.found, "puzzle"),
            path.display()
        );
    }
    Ok(job.report(&summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job whose whole batch takes far longer than its budget, but each slice of which takes
    /// far less: with the budget given afresh for every slice, every puzzle is found.
    #[test]
    fn a_renewed_budget_lets_a_job_that_keeps_finding_puzzles_finish() {
        let job = |renew| Job {
            config: GenerateConfig {
                givens: Some((25, 25)),
                symmetry: Symmetry::None,
                minimal: false,
                unique: true,
                band: None,
                automorphic: false,
            },
            rating: None,
            needs: Vec::new(),
            without: TechniqueSet::EMPTY,
            items: 0..3000,
            seed: 7,
            timeout: Some(Duration::from_millis(20)),
            renew,
        };
        let start = std::time::Instant::now();
        let once = job(None).run(&mut |_, _| Ok(())).unwrap();
        if start.elapsed() < Duration::from_millis(20) {
            // A machine fast enough to make them all in one budget shows nothing here.
            return;
        }
        assert!(once.found < 3000, "{once:?}");
        let renewed = job(Some(16)).run(&mut |_, _| Ok(())).unwrap();
        assert_eq!(renewed.found, 3000, "{renewed:?}");
    }
}
