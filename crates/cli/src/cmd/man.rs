//! `shudu man`: the manual page (roff), generated from the clap definitions: `shudu.1` on
//! standard output, or with `--out DIR` one page for the command and one for each subcommand
//! (`shudu-generate.1`, ...), as `man shudu-generate` finds them.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, CommandFactory};

use crate::io::{self, Output};

/// Arguments of `shudu man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write `shudu.1` and a page for each subcommand into DIR (each replaced whole,
    /// atomically) instead of `shudu.1` alone to standard output.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// The page of `cmd` in roff.
fn page(cmd: clap::Command) -> Result<Vec<u8>> {
    let mut roff = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut roff)?;
    Ok(roff)
}

/// Runs `shudu man`.
pub fn run(args: &ManArgs) -> Result<ExitCode> {
    let mut cmd = crate::Cli::command();
    cmd.build();
    let Some(dir) = &args.out else {
        io::stdout_text(&String::from_utf8(page(cmd)?)?)?;
        return Ok(ExitCode::SUCCESS);
    };
    if !dir.is_dir() {
        anyhow::bail!("--out {}: not a directory", dir.display());
    }
    let mut pages = vec![("shudu.1".to_string(), page(cmd.clone())?)];
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("shudu-{}", sub.get_name());
        let sub = sub
            .clone()
            .display_name(name.clone())
            .bin_name(format!("shudu {}", sub.get_name()));
        pages.push((format!("{name}.1"), page(sub)?));
    }
    for (name, roff) in pages {
        let path = dir.join(&name);
        let mut out = Output::create(Some(&path)).with_context(|| format!("{}", path.display()))?;
        out.write_all(&roff)?;
        out.finish()?;
    }
    Ok(ExitCode::SUCCESS)
}
