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
            MessageFormat::Json => all.extend(l.diags.items().iter().cloned()),
        }
        errors += l.diags.count(Severity::Error);
        warnings += l.diags.count(Severity::Warning);
        bad_files += usize::from(l.diags.has_errors());
    }
    if matches!(g.format, MessageFormat::Json) {
        // One JSON array for the whole run, so the output is one JSON document.
        print!("{}", diag::render_json(&all));
    } else {
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
