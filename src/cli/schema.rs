//! `loopconv schema`.

use super::*;

#[derive(Debug, Args)]
pub(super) struct SchemaArgs {
    /// The format.
    #[arg(value_enum, value_name = "FORMAT")]
    of: Format,
    /// Output file (default: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

pub(super) fn schema(a: &SchemaArgs) -> Result<ExitCode> {
    emit(a.output.as_deref(), &back::schema::schema_text(a.of)?)?;
    Ok(ExitCode::SUCCESS)
}
