//! `loopconv man`: the man page (clap_mangen), generated from the same clap definition as
//! the parser.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::{Args, CommandFactory as _};

use super::Cli;
use super::io::emit;

#[derive(Debug, Args)]
pub(super) struct ManArgs {
    /// Output file (default: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

pub(super) fn run(a: &ManArgs) -> Result<ExitCode> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut buf)
        .context("rendering the man page")?;
    emit(
        a.output.as_deref(),
        &String::from_utf8(buf).context("man page")?,
    )?;
    Ok(ExitCode::SUCCESS)
}
