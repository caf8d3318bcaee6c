//! `loopconv check`.

use rayon::prelude::*;

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
    let color = use_color(g);
    // One file is read on this thread; more in parallel, a batch at a time, reported in
    // order: the output is the same as one file after the other, and memory stays that of
    // one batch.
    let pool = if files.len() > 1 {
        Some(reader_pool()?)
    } else {
        None
    };
    for batch in files.chunks(CHECK_BATCH) {
        let report = |f: &PathBuf| FileReport::of(g, f, a.from, color, files.len() == 1);
        let reports: Vec<Result<FileReport>> = match &pool {
            Some(pool) => pool.install(|| batch.par_iter().map(report).collect()),
            None => batch.iter().map(report).collect(),
        };
        for r in reports {
            let r = r?;
            eprint!("{}", r.human);
            all.extend(r.items);
            errors += r.errors;
            warnings += r.warnings;
            bad_files += usize::from(r.errors > 0);
        }
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

/// The threads that read files: one per core, each with a stack deep enough to read YAML
/// in place (see [`loopconv::tree::declare_reader_stack`]).
fn reader_pool() -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("loopconv-read-{i}"))
        .stack_size(loopconv::tree::READER_STACK)
        .start_handler(|_| loopconv::tree::declare_reader_stack())
        .build()
        .context("starting the reader threads")
}

/// Files checked in parallel before their reports are printed.
const CHECK_BATCH: usize = 64;

/// What checking one file printed and counted, made on a worker thread.
struct FileReport {
    /// The human rendering of its diagnostics (empty for the machine formats).
    human: String,
    /// Its diagnostics, for the machine formats (one document for the whole run).
    items: Vec<diag::Diagnostic>,
    errors: usize,
    warnings: usize,
}

impl FileReport {
    /// `last`: no other file follows (the loop is then left to the exit, not freed).
    fn of(
        g: &Global,
        path: &Path,
        from: Option<Format>,
        color: bool,
        last: bool,
    ) -> Result<FileReport> {
        let l = load_file(g, path, from)?;
        let (human, items) = match g.format {
            MessageFormat::Human | MessageFormat::Markdown if !l.diags.is_empty() => (
                diag::render_human(l.diags.items(), l.text(), color),
                Vec::new(),
            ),
            MessageFormat::Human | MessageFormat::Markdown => (String::new(), Vec::new()),
            MessageFormat::Json | MessageFormat::Sarif | MessageFormat::Github => {
                (String::new(), l.diags.items().to_vec())
            }
        };
        let report = FileReport {
            human,
            items,
            errors: l.diags.count(Severity::Error),
            warnings: l.diags.count(Severity::Warning),
        };
        if last {
            free_at_exit(l);
        }
        Ok(report)
    }
}
