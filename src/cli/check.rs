//! `loopconv check`.

use super::*;

#[derive(Debug, Args)]
pub(super) struct CheckArgs {
    #[command(flatten)]
    pub(super) g: Global,
    #[command(flatten)]
    pub(super) walk: WalkArgs,
    /// Files or folders (`-` for standard input).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
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

pub(super) fn check(g: &Global, a: &CheckArgs) -> Result<ExitCode> {
    let files = expand(&a.paths, &a.walk)?;
    let (mut errors, mut warnings, mut bad_files) = (0, 0, 0);
    let mut all = Vec::new();
    for f in &files {
        let l = load_file(g, f, a.from)?;
        match g.format {
            MessageFormat::Human | MessageFormat::Markdown => report_loaded(g, &l),
            MessageFormat::Json | MessageFormat::Sarif | MessageFormat::Github => {
                all.extend(l.diags.items().iter().cloned());
            }
        }
        errors += l.diags.count(Severity::Error);
        warnings += l.diags.count(Severity::Warning);
        bad_files += usize::from(l.diags.has_errors());
    }
    // One JSON array, or one SARIF log, for the whole run, so the output is one document.
    match g.format {
        MessageFormat::Human | MessageFormat::Markdown => {}
        MessageFormat::Json => print!("{}", diag::render_json(&all)),
        MessageFormat::Sarif => print!("{}", diag::render_sarif(&all)),
        MessageFormat::Github => print!("{}", diag::render_github(&all)),
    }
    if matches!(
        g.format,
        MessageFormat::Human | MessageFormat::Markdown | MessageFormat::Github
    ) {
        eprintln!(
            "checked {} file{}: {} with errors, {errors} error{}, {warnings} warning{}",
            files.len(),
            plural(files.len()),
            bad_files,
            plural(errors),
            plural(warnings)
        );
    }
    Ok(code(errors > 0))
}
