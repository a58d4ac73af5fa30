//! One module per subcommand: each turns its clap arguments into a core config once, calls the
//! core and writes the output through [`crate::io`].

pub mod canon;
pub mod check;
pub mod compat;
pub mod completions;
pub mod count;
pub mod generate;
pub mod grade;
pub mod grids;
pub mod man;
pub mod play;
pub mod print;
pub mod solve;
pub mod variant;
