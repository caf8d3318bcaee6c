//! `loopconv diff`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};

use loopconv::analysis::diff as d;
use loopconv::back::diff as r;

use super::io::{emit, is_stdio, refuse_input_as_output, refuse_unused_stdin_name};
use super::report::{code, display_name, display_name_bytes, free_at_exit, load_valid_pair};
use super::{EXIT_PROBLEMS, Global, MessageFormat};

#[derive(Debug, Args)]
pub(super) struct DiffArgs {
    #[command(flatten)]
    pub(super) g: Global,
    /// The old loop file.
    pub(super) old: PathBuf,
    /// The new loop file (any format).
    new: PathBuf,
    /// Exit 1 when some change is breaking.
    #[arg(long, value_enum)]
    fail_on: Option<FailOn>,
    /// Output file (default: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FailOn {
    /// A change that can break callers.
    Breaking,
}

pub(super) fn run(g: &Global, a: &DiffArgs) -> Result<ExitCode> {
    refuse_unused_stdin_name(g, [a.old.as_path(), a.new.as_path()])?;
    if is_stdio(&a.old) && is_stdio(&a.new) {
        bail!(
            "diff reads at most one of its two loops from standard input (`-`), which can be read once"
        );
    }
    refuse_input_as_output(a.output.as_deref(), [a.old.as_path(), a.new.as_path()])?;
    let [old, new] = load_valid_pair(g, [&a.old, &a.new])?;
    let (Some(old), Some(new)) = (old, new) else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let (Some(os), Some(ns)) = (old.spec.as_ref(), new.spec.as_ref()) else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let changes = d::diff(os, ns);
    let (of, nf) = (display_name(g, &a.old), display_name(g, &a.new));
    let text = match g.format {
        MessageFormat::Json => r::json(&changes, &of, &nf),
        MessageFormat::Markdown => r::markdown(&changes, os, ns, &of, &nf),
        MessageFormat::Sarif => r::sarif(&changes, &display_name_bytes(g, &a.new)),
        MessageFormat::Github => r::github(&changes, &nf),
        MessageFormat::Human => r::text(&changes, &of, &nf),
    };
    emit(a.output.as_deref(), &text)?.report(g);
    let failed = a.fail_on.is_some() && changes.breaking() > 0;
    // Two large loops, their changes and the report live until the command returns:
    // freeing them value by value was 4 % of the diff of two random 10,000-phase loops.
    free_at_exit((old, new, changes, text));
    Ok(code(failed))
}
