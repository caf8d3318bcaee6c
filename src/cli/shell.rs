//! `loopconv completions` and `loopconv man`: shell completion scripts (clap_complete) and
//! the man page (clap_mangen), both generated from the same clap definition as the parser.

use super::*;

use clap::CommandFactory as _;

#[derive(Debug, Args)]
pub(super) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub(super) struct ManArgs {
    /// Output file (default: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

pub(super) fn completions(a: &CompletionsArgs) -> Result<ExitCode> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "loopconv", &mut buf);
    emit(None, &String::from_utf8(buf).context("completion script")?)?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn man(a: &ManArgs) -> Result<ExitCode> {
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
