//! `shudu`: the command-line face of shudu-core. It parses arguments, builds a config, calls the
//! core and writes the output; see the README for the commands.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `eprintln!` without its panic: a closed or full standard error (`shudu -c 5 2>&1 | true`) is
/// ignored, so that it never stops a run or loses its output. It shadows the standard macro in
/// every module of the binary (macros defined before the `mod` lines are in scope in them).
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `println!` that gives the write's error (a full disk, a closed standard output) to the caller
/// instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {
        crate::io::stdout_text(&format!("{}\n", format_args!($($arg)*)))
    };
}

mod book;
mod cmd;
mod io;
mod variant_book;

use cmd::{
    canon, check, compat, completions, count, generate, grade, grids, man, play, print, solve,
};

/// shudu (数独): a Sudoku generator, solver, grader and game.
///
/// The 2017 assignment's interface works as is: `shudu -c N` writes N distinct grids to
/// sudoku.txt, `shudu -s FILE` solves every puzzle of FILE into sudoku.txt.
#[derive(Parser, Debug)]
#[command(name = "shudu", version, about, args_conflicts_with_subcommands = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    compat: compat::CompatArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Make distinct random complete grids (终盘).
    Grids(grids::GridsArgs),
    /// Solve puzzles, reporting for each whether its solution is unique.
    Solve(solve::SolveArgs),
    /// Make puzzles (初盘) with a unique solution: givens, symmetry, minimality.
    Generate(Box<generate::GenerateArgs>),
    /// Check a puzzle file: validity, solution count, minimality, givens, symmetry, repeats.
    Check(check::CheckArgs),
    /// Rate puzzles on the Sudoku Explainer scale (ER/EP/ED) with their band and techniques.
    Grade(grade::GradeArgs),
    /// Solve a puzzle step by step with human techniques, explaining each step.
    Explain(grade::ExplainArgs),
    /// The next step for a position, in stages: which technique, where, the full step.
    Hint(grade::HintArgs),
    /// Play in the browser: serves the game on localhost and prints its address.
    Play(play::PlayArgs),
    /// Canonical forms: tell grids and puzzles that are the same in disguise; --dedupe.
    Canon(canon::CanonArgs),
    /// Count the complete grids and the essentially different ones, computed (not quoted).
    Count(count::CountArgs),
    /// Lay puzzles out for print: a PDF book (N a page, answers) or SVG images.
    Print(print::PrintArgs),
    /// A completion script for a shell (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// The manual page (roff): shudu.1 on standard output, or every page into --out DIR.
    Man(man::ManArgs),
}

/// Exit statuses: success, "some puzzle had no or several solutions", usage or input error.
pub mod exit {
    /// Everything went as asked.
    pub const OK: u8 = 0;
    /// Some puzzle had no solution or more than one.
    pub const NOT_UNIQUE: u8 = 1;
    /// A usage or input error.
    pub const INPUT: u8 = 2;
}

fn main() -> ExitCode {
    // Before anything opens a file, which could take a closed standard output's number.
    io::note_closed_stdout();
    // Which signals were ignored at start, read before any handler is installed.
    io::ignored_at_start(0);
    let cli = Cli::parse();
    let result = match &cli.command {
        Some(Command::Grids(args)) => grids::run(args),
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Generate(args)) => generate::run(args),
        Some(Command::Check(args)) => check::run(args),
        Some(Command::Grade(args)) => grade::run_grade(args),
        Some(Command::Explain(args)) => grade::run_explain(args),
        Some(Command::Hint(args)) => grade::run_hint(args),
        Some(Command::Play(args)) => play::run(args),
        Some(Command::Canon(args)) => canon::run(args),
        Some(Command::Count(args)) => count::run(args),
        Some(Command::Print(args)) => print::run(args),
        Some(Command::Completions(args)) => completions::run(args),
        Some(Command::Man(args)) => man::run(args),
        None => compat::run(&cli.compat),
    };
    match result {
        Ok(code) => code,
        Err(err) if io::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("shudu: error: {err:#}");
            ExitCode::from(exit::INPUT)
        }
    }
}
