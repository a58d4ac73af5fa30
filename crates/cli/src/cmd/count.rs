//! `shudu count`: computes the number of complete grids by band counting (Felgenhauer and
//! Jarvis) and the number of essentially different ones by Burnside's lemma (Russell and Jarvis),
//! with the time each took; `--bands` lists the band classes and their completions.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use shudu_core::count::{census, Census};
use shudu_core::essential::essentially_different_given_grids;

use crate::io::{self, Output};

/// Arguments of `shudu count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    /// Also list the 416 band classes (least band, automorphisms, bands, completions, gangster
    /// class) and the 44 gangster classes (classes of equal completions).
    #[arg(long)]
    bands: bool,
    /// Also list the conjugacy classes of the positional symmetries that fix some grid up to
    /// relabelling (27 of the 275): a representative, the class size and the grids each fixes
    /// (the terms of Burnside's sum).
    #[arg(long, conflicts_with = "grids_only")]
    symmetries: bool,
    /// Count only the complete grids (seconds), not the essentially different ones.
    #[arg(long)]
    grids_only: bool,
    /// Write to FILE (replaced whole, atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = shudu::args::parse_threads)]
    threads: Option<usize>,
}

/// Runs `shudu count`.
pub fn run(args: &CountArgs) -> Result<ExitCode> {
    io::set_threads(args.threads, 44)?;
    let mut text = String::new();

    let started = Instant::now();
    let bar = io::progress(44, "band completions", 0);
    let c = census(&|_, _| bar.inc(1));
    bar.finish_and_clear();
    let took = started.elapsed();
    if args.bands {
        write_bands(&mut text, &c);
    }
    let _ = writeln!(
        text,
        "complete grids: {} ({} band classes, {} of them with different completion counts; {:.1} s)",
        c.grids,
        c.classes.len(),
        c.gangsters,
        took.as_secs_f64()
    );
    if !args.grids_only {
        write_essential(&mut text, c.grids, args.symmetries);
    }
    let mut out = Output::create(args.output.as_deref())?;
    out.write_all(text.as_bytes())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The band classes, then the gangster classes, as tab-separated tables with a header.
fn write_bands(text: &mut String, c: &Census) {
    let _ = writeln!(
        text,
        "# class\tleast band\tautomorphisms\tbands\tcompletions\tgangster"
    );
    for k in &c.classes {
        let band: String = k.least.iter().map(|&d| (b'0' + d) as char).collect();
        let _ = writeln!(
            text,
            "{}\t{band}\t{}\t{}\t{}\t{}",
            k.class,
            7776 * 362_880 / k.bands,
            k.bands,
            k.completions,
            k.gangster
        );
    }
    let _ = writeln!(text, "# gangster\tclasses\tbands\tcompletions");
    for g in 0..c.gangsters {
        let members: Vec<_> = c.classes.iter().filter(|k| k.gangster == g).collect();
        let _ = writeln!(
            text,
            "{g}\t{}\t{}\t{}",
            members.len(),
            members.iter().map(|k| k.bands).sum::<u64>(),
            members[0].completions
        );
    }
}

/// The essentially different grids (Burnside's lemma over the classes of positional
/// symmetries; `grids` is the identity's term), and with `symmetries` the classes that fix grids.
fn write_essential(text: &mut String, grids: u128, symmetries: bool) {
    let started = Instant::now();
    let bar = io::progress(275, "conjugacy classes", 0);
    let e = essentially_different_given_grids(grids, &|_, _| bar.inc(1));
    bar.finish_and_clear();
    let took = started.elapsed();
    let fixing: Vec<_> = e.classes.iter().filter(|c| c.fixed > 0).collect();
    if symmetries {
        let _ = writeln!(
            text,
            "# class representative\tclass size\tgrids fixed up to relabelling"
        );
        for c in &fixing {
            let _ = writeln!(
                text,
                "{}\t{}\t{}",
                c.class.representative, c.class.size, c.fixed
            );
        }
    }
    let _ = writeln!(
        text,
        "essentially different grids: {} (Burnside's lemma over the {} conjugacy classes of the \
         3,359,232 positional symmetries, {} of which fix some grid up to relabelling; {:.1} s)",
        e.essentially_different,
        e.classes.len(),
        fixing.len(),
        took.as_secs_f64()
    );
}
