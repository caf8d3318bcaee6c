//! `loopconv docs`: one Markdown page per loop and an index, or `--check`.

use super::*;

#[derive(Debug, Args)]
pub(super) struct DocsArgs {
    /// Loop files or folders (searched recursively, skipping sub-folders named `invalid`).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output folder.
    #[arg(long, short = 'o')]
    output: PathBuf,
    /// A minijinja template replacing the built-in page template.
    #[arg(long)]
    template: Option<PathBuf>,
    /// Write nothing; list pages that are missing or stale and exit 1 if any.
    #[arg(long)]
    check: bool,
    /// Input format.
    #[arg(long, value_enum, help_heading = "Input")]
    from: Option<Format>,
}

/// The loop files to document: files as given; in a folder, every loop file except those
/// under an `invalid` sub-folder (inputs that must fail, like `examples/invalid/`), so that
/// `loopconv docs examples` documents the valid examples.
pub(super) fn docs_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        let walked = !is_stdio(p) && p.is_dir();
        out.extend(expand(std::slice::from_ref(p))?.into_iter().filter(|f| {
            !walked
                || !f
                    .strip_prefix(p)
                    .is_ok_and(|rel| rel.components().any(|c| c.as_os_str() == "invalid"))
        }));
    }
    Ok(out)
}

pub(super) fn docs(g: &Global, a: &DocsArgs) -> Result<ExitCode> {
    let template = match &a.template {
        Some(p) => Some(
            std::fs::read_to_string(p)
                .with_context(|| format!("reading template {}", p.display()))?,
        ),
        None => None,
    };
    let opts = back::Options {
        template,
        ..back::Options::default()
    };
    let Some(pages) = docs_pages(g, a, &opts)? else {
        eprintln!("no page was written: fix the errors above first");
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    if a.check {
        return Ok(code(!pages_up_to_date(&pages, &a.output)));
    }
    let outputs: Vec<(PathBuf, String)> = pages
        .iter()
        .map(|(n, t)| (a.output.join(n), t.clone()))
        .collect();
    write_all_atomic(&outputs)?;
    eprintln!(
        "wrote {} page{} to {}",
        pages.len(),
        plural(pages.len()),
        a.output.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Every page (file name, text) and the index; `None` when a loop has errors or two loops
/// share a name (reported).
pub(super) fn docs_pages(
    g: &Global,
    a: &DocsArgs,
    opts: &back::Options,
) -> Result<Option<Vec<(String, String)>>> {
    let mut pages: Vec<(String, String)> = Vec::new();
    let mut entries = Vec::new();
    let mut failed = false;
    for f in &docs_files(&a.paths)? {
        let l = load_file(g, f, a.from)?;
        report_loaded(g, &l);
        let Some((spec, info)) = l.valid() else {
            failed = true;
            continue;
        };
        let file_name = format!("{}.md", spec.name);
        if pages.iter().any(|(n, _)| *n == file_name) {
            eprintln!(
                "error: two loops are named `{}`; {} would overwrite a page",
                spec.name,
                f.display()
            );
            failed = true;
            continue;
        }
        let source = f.display().to_string();
        let page_opts = back::Options {
            source: source.clone(),
            ..opts.clone()
        };
        let mut diags = Diagnostics::new(&source);
        let text = back::write(Target::Markdown, spec, info, &page_opts, &mut diags)?;
        entries.push(back::markdown::IndexEntry {
            name: spec.name.clone(),
            file_name: file_name.clone(),
            description: spec.description.clone(),
            source,
        });
        pages.push((file_name, text));
    }
    if failed {
        return Ok(None);
    }
    pages.push(("index.md".to_owned(), back::markdown::index(&entries)?));
    Ok(Some(pages))
}

/// `docs --check`: list stale, missing and orphaned pages; true when there are none.
pub(super) fn pages_up_to_date(pages: &[(String, String)], dir: &Path) -> bool {
    let mut stale = Vec::new();
    for (name, text) in pages {
        let path = dir.join(name);
        match std::fs::read_to_string(&path) {
            Ok(old) if old == *text => {}
            Ok(_) => stale.push(format!("stale: {}", path.display())),
            Err(_) => stale.push(format!("missing: {}", path.display())),
        }
    }
    // A page whose loop is gone is stale too.
    stale.extend(
        orphaned_pages(pages, dir)
            .iter()
            .map(|p| format!("orphaned: {} (no loop generates it)", p.display())),
    );
    for s in &stale {
        eprintln!("{s}");
    }
    if stale.is_empty() {
        eprintln!(
            "docs are up to date: {} page{} in {}",
            pages.len(),
            plural(pages.len()),
            dir.display()
        );
    } else {
        eprintln!(
            "{} page{} out of date; run `loopconv docs` without --check",
            stale.len(),
            plural(stale.len())
        );
    }
    stale.is_empty()
}

/// `*.md` files in `dir` that no loop generates, sorted.
pub(super) fn orphaned_pages(pages: &[(String, String)], dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut extra: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| !pages.iter().any(|(name, _)| n == name.as_str()))
        })
        .collect();
    extra.sort();
    extra
}
