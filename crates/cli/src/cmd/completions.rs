//! `shudu completions SHELL`: the shell's completion script for every subcommand and option,
//! generated from the same clap definitions that parse them (so it never falls behind).

use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::io;

/// Arguments of `shudu completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Runs `shudu completions`: the script on standard output.
pub fn run(args: &CompletionsArgs) -> Result<ExitCode> {
    let mut cmd = crate::Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "shudu", &mut script);
    io::stdout_text(&String::from_utf8(script)?)?;
    Ok(ExitCode::SUCCESS)
}
