//! The hidden `loopconv diagram-model`: the drawing model of a loop as JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use loopconv::Format;
use loopconv::back;

use super::io::{emit, refuse_unused_stdin_name};
use super::report::{load_file, report_loaded};
use super::{EXIT_PROBLEMS, Global};

#[derive(Debug, Args)]
pub(super) struct DiagramModelArgs {
    #[command(flatten)]
    pub(super) g: Global,
    /// Loop file (`-` for standard input).
    pub(super) input: PathBuf,
    /// Input format.
    #[arg(
        long,
        short = 'f',
        value_enum,
        value_name = "FORMAT",
        help_heading = "Input"
    )]
    from: Option<Format>,
}

pub(super) fn run(g: &Global, a: &DiagramModelArgs) -> Result<ExitCode> {
    refuse_unused_stdin_name(g, [a.input.as_path()])?;
    let l = load_file(g, &a.input, a.from)?;
    report_loaded(g, &l);
    let Some((spec, info)) = l.valid() else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let model =
        back::support::diagram::Diagram::new(spec, info, back::support::diagram::Tooltips::Built);
    let mut text = serde_json::to_string_pretty(&model)?;
    text.push('\n');
    emit(None, &text).map(drop)?;
    Ok(ExitCode::SUCCESS)
}
