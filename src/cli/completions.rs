//! `loopconv completions`: shell completion scripts (clap_complete), generated from the same
//! clap definition as the parser.

use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::{Args, CommandFactory as _};

use super::Cli;
use super::io::emit;

#[derive(Debug, Args)]
pub(super) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

pub(super) fn run(a: &CompletionsArgs) -> Result<ExitCode> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "loopconv", &mut buf);
    emit(None, &String::from_utf8(buf).context("completion script")?).map(drop)?;
    Ok(ExitCode::SUCCESS)
}
