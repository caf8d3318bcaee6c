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
    /// The page of one command (`loopconv man check` is `loopconv-check(1)`, which the
    /// main page's list of commands names); without it, the main page.
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
    /// Output file (default: standard output).
    #[arg(long, short = 'o', conflicts_with = "dir")]
    output: Option<PathBuf>,
    /// Write every page into DIR at once (`loopconv.1`, `loopconv-check.1`, ...), for
    /// packaging (`man -M`, `MANPATH`); without COMMAND.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    dir: Option<PathBuf>,
}

pub(super) fn run(a: &ManArgs) -> Result<ExitCode> {
    let mut cli = Cli::command();
    // Built, so that each command's display name is `loopconv-check`, the page's name.
    cli.build();
    if let Some(dir) = &a.dir {
        let mut pages = vec![(dir.join("loopconv.1"), render(cli.clone())?)];
        for sub in cli.get_subcommands().filter(|c| !c.is_hide_set()) {
            let name = format!("loopconv-{}.1", sub.get_name());
            pages.push((dir.join(name), render(sub.clone())?));
        }
        let n = pages.len();
        super::io::write_all_atomic(Some(dir), &pages)?.report_plain();
        super::report::eprintln!("wrote {n} man pages to {}", dir.display());
        return Ok(ExitCode::SUCCESS);
    }
    let page = match &a.command {
        None => cli,
        Some(name) => {
            let names: Vec<&str> = (cli.get_subcommands())
                .filter(|c| !c.is_hide_set())
                .map(|c| c.get_name())
                .collect();
            let Some(sub) = cli.find_subcommand(name) else {
                anyhow::bail!("`{name}` is not a command: {}", names.join(", "));
            };
            sub.clone()
        }
    };
    emit(a.output.as_deref(), &render(page)?)?.report_plain();
    Ok(ExitCode::SUCCESS)
}

/// The man page of a built command.
fn render(page: clap::Command) -> Result<String> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut buf)
        .context("rendering the man page")?;
    String::from_utf8(buf).context("man page")
}
