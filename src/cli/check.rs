//! `loopconv check`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::Args;
use rayon::iter::{IntoParallelRefIterator as _, ParallelBridge as _, ParallelIterator as _};

use loopconv::Format;
use loopconv::diag::{self, Severity};

use super::io::{
    first_mentions, folder_pool, is_stdio, no_loop_files, no_such_path, refuse_unused_stdin_name,
    search_each,
};
use super::report::{code, eprint, eprintln, free_at_exit, plural, print, use_color};
use super::{Global, MessageFormat, SearchArgs};
use std::collections::{HashMap, HashSet};

use loopconv::diag::Diagnostic;
use loopconv::format::DocKind;
use loopconv::project::Member;

use super::io::read_input;
use super::project::{normal, project_with_context, roots_of};
use super::report::{display_name, read_limits};

#[derive(Debug, Args)]
pub(super) struct CheckArgs {
    #[command(flatten)]
    pub(super) g: Global,
    #[command(flatten)]
    pub(super) search: SearchArgs,
    /// Files or folders (`-` for standard input).
    #[arg(required = true)]
    pub(super) paths: Vec<PathBuf>,
    /// Input format.
    #[arg(
        long,
        short = 'f',
        value_enum,
        value_name = "FORMAT",
        help_heading = "Input"
    )]
    from: Option<Format>,
    /// Read each file alone: no workspace around it (the nearest `specs/` folder, or the
    /// folder holding `agent.lock` or an Agent's `agent.json`) is read for the rules that
    /// span files.
    #[arg(long, help_heading = "Input")]
    no_workspace: bool,
    /// Skip a named file that is no loop (its content is none of the known formats), with
    /// a note, as a folder search does; the pre-commit hooks and the Action pass it, since
    /// they name every JSON and YAML file. Also `skip-unknown = true` in the configuration.
    #[arg(long, help_heading = "Input")]
    skip_unknown: bool,
}

pub(super) fn run(g: &Global, a: &CheckArgs) -> Result<ExitCode> {
    refuse_unused_stdin_name(g, a.paths.iter().map(PathBuf::as_path))?;
    let mut reports = check_all(g, a)?;
    add_project_diagnostics(g, a, &mut reports)?;
    let (mut errors, mut warnings, mut bad_files) = (0, 0, 0);
    let mut all = Vec::new();
    let mut skipped = Vec::new();
    let mut files = 0;
    for r in reports {
        let r = r?;
        if let Some(why) = r.skipped {
            skipped.push(why);
            continue;
        }
        files += 1;
        eprint!("{}", r.human);
        all.extend(r.items);
        errors += r.errors;
        warnings += r.warnings;
        bad_files += usize::from(r.errors > 0);
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
        for why in &skipped {
            eprintln!("note: skipped {why}");
        }
        if files == 0 && !skipped.is_empty() {
            eprintln!(
                "checked no loop file: {} skipped (none of the known formats)",
                skipped.len()
            );
            return Ok(code(false));
        }
        eprintln!(
            "checked {} file{}: {} with errors, {errors} error{}, {warnings} warning{}",
            files,
            plural(files),
            bad_files,
            plural(errors),
            plural(warnings)
        );
    }
    Ok(code(errors > 0))
}

/// What `check --format json PATHS` reports: how many files were read, and every
/// diagnostic (with `workspace`, those of the rules that span the files of a workspace),
/// in the order of the paths. `g` should ask for JSON (no human rendering is made). The
/// MCP server's `check` tool runs it (in `loopconv-mcp`; `loopconv` has no use for it).
#[cfg(feature = "mcp")]
#[allow(dead_code, reason = "loopconv-mcp's `check` tool; unused by loopconv")]
pub(crate) fn diagnostics(
    g: &Global,
    paths: Vec<PathBuf>,
    from: Option<Format>,
    workspace: bool,
) -> Result<(usize, Vec<Diagnostic>)> {
    let a = CheckArgs {
        g: Global::default(),
        search: SearchArgs::default(),
        paths,
        from,
        no_workspace: !workspace,
        skip_unknown: false,
    };
    let mut reports = check_all(g, &a)?;
    add_project_diagnostics(g, &a, &mut reports)?;
    let files = reports.len();
    let mut all = Vec::new();
    for r in reports {
        all.extend(r?.items);
    }
    Ok((files, all))
}

/// Every input checked, in the order of the paths and, within a folder, of the sorted file
/// names; nothing is printed yet. A path that does not exist or a folder without loop files
/// is an error before any report (as before reading anything); a file that cannot be read
/// is an `Err` in its place, reported after the files before it.
fn check_all(g: &Global, a: &CheckArgs) -> Result<Vec<Result<FileReport>>> {
    let color = use_color(g);
    let mut kinds: Vec<Named> = a.paths.iter().map(|p| Named::of(p)).collect();
    named_once(&a.paths, &mut kinds)?;
    if let ([one], [kind]) = (a.paths.as_slice(), kinds.as_slice())
        && *kind != Named::Folder
    {
        // One file is read on this thread, and its loop is left to the exit.
        if *kind == Named::Missing {
            return Err(no_such_path(one));
        }
        return Ok(vec![FileReport::of(
            g,
            one,
            a.from,
            color,
            true,
            skip_named(g, a),
        )]);
    }
    let pool = folder_pool()?;
    // The files named on the command line (a pre-commit hook names many), in parallel;
    // standard input later, on this thread, once every folder has been found to hold
    // loop files.
    let files: Vec<&PathBuf> = a
        .paths
        .iter()
        .zip(&kinds)
        .filter(|(_, k)| **k == Named::File)
        .map(|(p, _)| p)
        .collect();
    let mut files = pool
        .install(|| {
            files
                .par_iter()
                .map(|p| FileReport::of(g, p, a.from, color, false, skip_named(g, a)))
                .collect::<Vec<_>>()
        })
        .into_iter();
    // In the order of the paths: the first missing path or folder without loop files is
    // the error, as when the paths were expanded before reading anything.
    let mut parts: Vec<Option<Vec<Result<FileReport>>>> = Vec::new();
    for (p, kind) in a.paths.iter().zip(&kinds) {
        parts.push(match kind {
            Named::Stdin => None,
            Named::Missing => return Err(no_such_path(p)),
            Named::Folder => Some(check_folder(g, a, p, &pool, color)?),
            Named::File => Some(files.next().into_iter().collect()),
            Named::Again => Some(Vec::new()),
        });
    }
    let mut out = Vec::new();
    for (p, part) in a.paths.iter().zip(parts) {
        match part {
            // The first part is taken as it is: a folder's reports, copied into a new
            // list, were both held (3.5 MB more for the 12,000 files of a workspace).
            Some(reports) if out.is_empty() => out = reports,
            Some(reports) => out.extend(reports),
            None => out.push(FileReport::of(g, p, a.from, color, false, false)),
        }
    }
    Ok(out)
}

/// What a path on the command line names (looked up once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Named {
    /// `-`.
    Stdin,
    /// Nothing.
    Missing,
    /// A folder, to search.
    Folder,
    /// A file.
    File,
    /// A file named before (by this or another name): read once.
    Again,
}

/// Each file named once ([`first_mentions`]): a file named again is `Again`, read and
/// reported at its first mention only.
fn named_once(paths: &[PathBuf], kinds: &mut [Named]) -> Result<()> {
    if paths.len() < 2 {
        return Ok(());
    }
    for (kind, first) in kinds.iter_mut().zip(first_mentions(paths)?) {
        if *kind == Named::File && !first {
            *kind = Named::Again;
        }
    }
    Ok(())
}

impl Named {
    fn of(p: &Path) -> Named {
        if is_stdio(p) {
            Named::Stdin
        } else if p.is_dir() {
            Named::Folder
        } else if p.exists() {
            Named::File
        } else {
            Named::Missing
        }
    }
}

/// The loop files below `dir`, checked on the reader threads while the folder is still
/// being searched (searching 1,000 installed packages takes as long as checking them), then put
/// in sorted order.
fn check_folder(
    g: &Global,
    a: &CheckArgs,
    dir: &Path,
    pool: &rayon::ThreadPool,
    color: bool,
) -> Result<Vec<Result<FileReport>>> {
    let (tx, rx) = std::sync::mpsc::channel::<PathBuf>();
    let (searched, mut reports) = pool.install(|| {
        rayon::join(
            move || search_each(dir, &a.search, true, |p| drop(tx.send(p))),
            || {
                rx.into_iter()
                    .par_bridge()
                    .map(|p| {
                        let r = FileReport::of(g, &p, a.from, color, false, true);
                        (p, r)
                    })
                    .collect::<Vec<_>>()
            },
        )
    });
    searched.with_context(|| format!("reading folder {}", dir.display()))?;
    if reports.is_empty() {
        return Err(no_loop_files(dir));
    }
    reports.sort_by(|x, y| x.0.cmp(&y.0));
    Ok(reports.into_iter().map(|(_, r)| r).collect())
}

/// What checking one file printed and counted, made on a worker thread.
struct FileReport {
    /// The file.
    path: PathBuf,
    /// The human rendering of its diagnostics (empty for the machine formats).
    human: String,
    /// Its diagnostics, for the machine formats (one document for the whole run).
    items: Vec<diag::Diagnostic>,
    errors: usize,
    warnings: usize,
    /// What the project's rules need of it.
    member: Option<loopconv::project::Member>,
    /// Its source text, kept for a document that uses loops (the cross-file rules point
    /// into it); a loop's is read again if a rule points into it.
    text: Option<String>,
    /// Why the file was skipped (`package.json: no loop format (P011)`): it is no loop,
    /// and was found by a folder search or named under `--skip-unknown`.
    skipped: Option<String>,
}

impl FileReport {
    /// `last`: no other file follows (the loop is then left to the exit, not freed).
    fn of(
        g: &Global,
        path: &Path,
        from: Option<Format>,
        color: bool,
        last: bool,
        skip_unknown: bool,
    ) -> Result<FileReport> {
        let mut r = super::project::read(g, path, from)?;
        if skip_unknown && from.is_none() && is_unknown_kind(r.diags.items(), r.text(), path) {
            return Ok(FileReport {
                path: path.to_path_buf(),
                human: String::new(),
                items: Vec::new(),
                errors: 0,
                warnings: 0,
                member: None,
                text: None,
                skipped: Some(format!(
                    "{}: none of the known loop formats (P011)",
                    path.display()
                )),
            });
        }
        let (human, items) = match g.format {
            MessageFormat::Human | MessageFormat::Markdown if !r.diags.is_empty() => (
                diag::render_human(r.diags.items(), r.text(), color),
                Vec::new(),
            ),
            MessageFormat::Human | MessageFormat::Markdown => (String::new(), Vec::new()),
            MessageFormat::Json | MessageFormat::Sarif | MessageFormat::Github => {
                (String::new(), r.diags.items().to_vec())
            }
        };
        let is_loop = r
            .member
            .as_ref()
            .is_none_or(|m| matches!(m.kind(), loopconv::format::DocKind::Loop(_)));
        let text = match (is_loop, &mut r.loaded) {
            (true, _) => None,
            (false, Some(l)) => l.take_text(),
            (false, None) => r.text.take(),
        };
        let report = FileReport {
            path: path.to_path_buf(),
            human,
            items,
            errors: r.diags.count(Severity::Error),
            warnings: r.diags.count(Severity::Warning),
            member: r.member.take(),
            text,
            skipped: None,
        };
        if last {
            free_at_exit(r);
        }
        Ok(report)
    }
}

// ---- The project: the rules across files ----

/// Run the project's rules over the checked files (and, for context, the rest of their
/// workspaces) and add each diagnostic to the report of the file it points into. Nothing
/// is read when no file uses loops and no input is in a workspace.
fn add_project_diagnostics(
    g: &Global,
    a: &CheckArgs,
    reports: &mut [Result<FileReport>],
) -> Result<()> {
    let roots = if a.no_workspace {
        Vec::new()
    } else {
        roots_of(a.paths.iter().map(PathBuf::as_path))
    };
    let uses_loops = |r: &FileReport| {
        r.member
            .as_ref()
            .is_some_and(|m| !matches!(m.kind(), DocKind::Loop(_)))
    };
    if roots.is_empty() && !reports.iter().flatten().any(uses_loops) {
        return Ok(());
    }
    let reported: HashSet<PathBuf> = reports.iter().flatten().map(|r| normal(&r.path)).collect();
    let members: Vec<Member> = reports
        .iter_mut()
        .flatten()
        .filter_map(|r| r.member.take())
        .collect();
    let (_, found) = project_with_context(g, &roots, &reported, members)?;
    distribute(g, reports, found);
    Ok(())
}

/// Add each diagnostic to the report of the file it points into (dropped when that file is
/// context only), sorted by position within the file.
fn distribute(g: &Global, reports: &mut [Result<FileReport>], found: Vec<Diagnostic>) {
    let mut by_file: HashMap<String, Vec<Diagnostic>> = HashMap::new();
    for d in found {
        by_file.entry(d.location.file.clone()).or_default().push(d);
    }
    let color = use_color(g);
    for r in reports.iter_mut().flatten() {
        let Some(mut diags) = by_file.remove(&display_name(g, &r.path)) else {
            continue;
        };
        // The configuration's `ignore`, `select` and `per-file-ignores` hold for the
        // project's warnings too.
        diags.retain(|d| !g.settings.silences(d, Some(&r.path)));
        if diags.is_empty() {
            continue;
        }
        diags.sort_by_key(|d| (d.location.pos.map_or(0, |p| p.start), d.code));
        r.errors += diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        r.warnings += diags
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        match g.format {
            MessageFormat::Human | MessageFormat::Markdown => {
                let reread;
                let text = match &r.text {
                    Some(t) => Some(t.as_str()),
                    None => {
                        reread = read_input(&r.path, &read_limits(g)).ok();
                        reread.as_deref().and_then(|b| std::str::from_utf8(b).ok())
                    }
                };
                r.human.push_str(&diag::render_human(&diags, text, color));
            }
            MessageFormat::Json | MessageFormat::Sarif | MessageFormat::Github => {
                r.items.extend(diags);
            }
        }
    }
}

/// Whether a file named on the command line is skipped when it is no loop.
fn skip_named(g: &Global, a: &CheckArgs) -> bool {
    a.skip_unknown || g.settings.skip_unknown
}

/// Whether a loaded file is of no known kind: the detection said it is no loop format
/// (`P011`), or it is JSON with comments or trailing commas (`tsconfig.json`,
/// `.vscode/settings.json`) that, read without them, the detection says the same of. A
/// loop with a syntax error is still a loop: its error is reported.
fn is_unknown_kind(diags: &[diag::Diagnostic], text: Option<&str>, path: &Path) -> bool {
    let codes: Vec<diag::Code> = diags.iter().map(|d| d.code).collect();
    if codes.contains(&diag::Code::UnknownFormat) {
        return true;
    }
    let json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if !json || !codes.contains(&diag::Code::Syntax) {
        return false;
    }
    let Some(text) = text else { return false };
    let Some(plain) = without_comments(text) else {
        return false;
    };
    let again = loopconv::load_owned("-", plain.into_bytes(), &loopconv::LoadOptions::default());
    again
        .diags
        .items()
        .iter()
        .any(|d| d.code == diag::Code::UnknownFormat)
}

/// JSON text without `//` and `/* */` comments and trailing commas (JSON with comments, as
/// `tsconfig.json` is written), or `None` when it had none of them.
fn without_comments(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut changed, mut start) = (0, false, 0);
    let mut in_string = false;
    while i < b.len() {
        let c = b[i];
        if in_string {
            if c == b'\\' {
                i += 2;
                continue;
            }
            in_string = c != b'"';
            i += 1;
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                out.push_str(&text[start..i]);
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                (start, changed) = (i, true);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                out.push_str(&text[start..i]);
                let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
                // A comment's lines stay lines, so that nothing else moves.
                out.extend(text[i..end].chars().filter(|&c| c == '\n'));
                (i, start, changed) = (end, end, true);
                continue;
            }
            b',' => {
                let next = text[i + 1..].trim_start().as_bytes().first().copied();
                if matches!(next, Some(b'}' | b']')) {
                    out.push_str(&text[start..i]);
                    (start, changed) = (i + 1, true);
                }
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(&text[start.min(text.len())..]);
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::without_comments;

    #[test]
    fn json_with_comments_is_read_without_them() {
        let text = "{\n  // a comment \"x\"\n  \"a\": \"//not\", /* b */\n  \"c\": [1, 2,],\n}\n";
        let plain = without_comments(text).expect("changed");
        let v: serde_json::Value = serde_json::from_str(&plain).expect(&plain);
        assert_eq!(v["a"], "//not");
        assert_eq!(v["c"], serde_json::json!([1, 2]));
        assert_eq!(without_comments("{\"a\": 1}"), None);
    }
}
