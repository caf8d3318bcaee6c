//! `loopconv schema`: the JSON Schema of a format, or with `--outcomes` the schema of one
//! loop's phase results.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum as _};

use loopconv::Format;
use loopconv::back;

use super::io::{emit, emit_streamed, refuse_input_as_output};
use super::report::load_valid;
use super::{EXIT_PROBLEMS, Global};

#[derive(Debug, Args)]
pub(super) struct SchemaArgs {
    /// How diagnostics are shown and the limits of the loop FILE (with `--outcomes`).
    #[command(flatten)]
    pub(super) g: Global,
    /// The format (`agentpm`, `mas`, `ir`, `xstate`), or with `--outcomes` a loop file.
    #[arg(value_name = "FORMAT|FILE")]
    of: String,
    /// Write the schema of the structured result each phase of the loop FILE returns: the
    /// phase id and one of its outcomes.
    #[arg(long)]
    outcomes: bool,
    /// Input format of FILE.
    #[arg(long, value_enum, help_heading = "Input", requires = "outcomes")]
    from: Option<Format>,
    /// Output file (default: standard output). An existing file is replaced, atomically:
    /// a schema is generated, and made again by the same command.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

pub(super) fn run(g: &Global, a: &SchemaArgs) -> Result<ExitCode> {
    if a.outcomes {
        return outcome_schema(g, a);
    }
    let Ok(format) = Format::from_str(&a.of, false) else {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        bail!(
            "`{}` is not a format ({}); to get the outcome schema of a loop file, pass `--outcomes`",
            a.of,
            names.join(", ")
        );
    };
    emit(a.output.as_deref(), back::schema::schema_text(format))?.report(g);
    Ok(ExitCode::SUCCESS)
}

fn outcome_schema(g: &Global, a: &SchemaArgs) -> Result<ExitCode> {
    refuse_input_as_output(a.output.as_deref(), [Path::new(&a.of)])?;
    let Some(l) = load_valid(g, Path::new(&a.of), a.from)? else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let Some(spec) = l.spec.as_ref() else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    use loopconv::analysis::outcome_schema::{first_declarations, outcome_schema};
    let phases = first_declarations(spec);
    let schema = outcome_schema(spec, &phases);
    // Written as it is serialised: the schema borrows the loop's text.
    emit_streamed(a.output.as_deref(), |w| {
        serde_json::to_writer_pretty(&mut *w, &schema)?;
        w.write_all(b"\n")?;
        Ok(())
    })?
    .report(g);
    Ok(ExitCode::SUCCESS)
}
