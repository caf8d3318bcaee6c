//! Finding inputs: paths expanded into the loop files of folders (as ripgrep walks them),
//! each read once.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};

use super::read::{is_stdio, no_such_path};
use super::write::file_id;
use crate::cli::{Global, SearchArgs};

/// Files under the given paths: files as given, folders searched for loop files, in sorted
/// order. A folder with no loop file in it is an error: a wrong path must not pass as a
/// clean check of nothing.
pub(in crate::cli) fn expand(paths: &[PathBuf], w: &SearchArgs) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if is_stdio(p) || !p.is_dir() {
            if !is_stdio(p) && !p.exists() {
                return Err(no_such_path(p));
            }
            out.push(p.clone());
        } else {
            let mut found = Vec::new();
            loop_files_in(p, w, &mut found)
                .with_context(|| format!("reading folder {}", p.display()))?;
            if found.is_empty() {
                return Err(no_loop_files(p));
            }
            found.sort();
            out.extend(found);
        }
    }
    if paths.len() > 1 {
        read_once(&mut out)?;
    }
    Ok(out)
}

/// Each file once, at its first mention (`check a.json ./a.json dir/` read and reported
/// `a.json` twice).
fn read_once(files: &mut Vec<PathBuf>) -> Result<()> {
    let first = first_mentions(files)?;
    let mut keep = first.into_iter();
    files.retain(|_| keep.next().unwrap_or(true));
    Ok(())
}

/// For each path, whether it is the first mention of its file: a file named again, by
/// this or another name (`a.json ./a.json`, a link), is not. Standard input, which can be
/// read once, named twice is a usage error.
pub(in crate::cli) fn first_mentions(paths: &[PathBuf]) -> Result<Vec<bool>> {
    if paths.iter().filter(|p| is_stdio(p)).count() > 1 {
        bail!("standard input (`-`) can be read once: name it once");
    }
    let mut seen = std::collections::HashSet::new();
    let first = |p: &PathBuf| is_stdio(p) || file_id(p).is_none_or(|id| seen.insert(id));
    Ok(paths.iter().map(first).collect())
}

/// `--stdin-name` with no `-` among `inputs` is a usage error: it names standard input,
/// which is then not read, so it is never dropped without a word.
pub(in crate::cli) fn refuse_unused_stdin_name<'a>(
    g: &Global,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<()> {
    match &g.stdin_name {
        Some(name) if !inputs.into_iter().any(is_stdio) => bail!(
            "--stdin-name {name} names standard input, but no input is `-`: pass `-` to read standard input, or drop --stdin-name"
        ),
        _ => Ok(()),
    }
}

/// Loop files (`*.json`, `*.yaml`, `*.yml`) below `dir`, the way ripgrep walks: hidden
/// files and folders are skipped, and so is whatever `.gitignore`, `.ignore`, the git
/// excludes and `exclude` globs list (inside a git repository or not). `dir` itself is
/// always searched, even when hidden (`.agentpm/loops`).
fn loop_files_in(dir: &Path, w: &SearchArgs, out: &mut Vec<PathBuf>) -> Result<()> {
    let found = std::sync::Mutex::new(Vec::new());
    search_each(dir, w, false, |p| lock(&found).push(p))?;
    out.extend(found.into_inner().unwrap_or_else(|p| p.into_inner()));
    Ok(())
}

/// [`loop_files_in`], handing each loop file to `on_file` as it is found, on the walker's threads
/// and in no particular order; with `documents`, also the documents that use loops and are
/// not JSON or YAML by name ([`is_project_document`]). Of several errors, the first in
/// sorted order is reported.
pub(in crate::cli) fn search_each(
    dir: &Path,
    w: &SearchArgs,
    documents: bool,
    on_file: impl Fn(PathBuf) + Sync,
) -> Result<()> {
    let mut overrides = ignore::overrides::OverrideBuilder::new(dir);
    for glob in &w.include {
        overrides
            .add(glob)
            .with_context(|| format!("--include {glob}: not a valid glob"))?;
    }
    for glob in &w.exclude {
        overrides
            .add(&format!("!{glob}"))
            .with_context(|| format!("--exclude {glob}: not a valid glob"))?;
    }
    // The configuration's `include` and `exclude`, relative to its folder.
    let admits = |p: &Path| w.rules.as_ref().is_none_or(|r| r.admits(p));
    // Searched on every core: a search checks each folder for ignore files, a dozen system
    // calls a folder, and was a quarter of checking 1,000 installed packages.
    let walker = ignore::WalkBuilder::new(dir)
        .require_git(false)
        .overrides(overrides.build()?)
        .build_parallel();
    let errors = std::sync::Mutex::new(Vec::new());
    walker.run(|| {
        Box::new(|entry| {
            match entry {
                Ok(e)
                    if (is_loop_file(&e) || (documents && is_project_document(&e)))
                        && admits(e.path()) =>
                {
                    on_file(e.into_path());
                }
                Ok(_) => {}
                Err(e) => lock(&errors).push(e.to_string()),
            }
            ignore::WalkState::Continue
        })
    });
    let mut errors = errors.into_inner().unwrap_or_else(|p| p.into_inner());
    errors.sort();
    match errors.into_iter().next() {
        Some(first) => bail!("{first}"),
        None => Ok(()),
    }
}

/// The error for a folder with no loop file in it: a wrong path must not pass as a clean
/// check of nothing.
pub(in crate::cli) fn no_loop_files(dir: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: no loop files found (searched for *.json, *.yaml, *.yml, skipping hidden, \
         git-ignored and --exclude'd paths)",
        dir.display()
    )
}

/// A file named `*.json`, `*.yaml` or `*.yml`.
fn is_loop_file(entry: &ignore::DirEntry) -> bool {
    let is_file = entry.file_type().is_some_and(|t| t.is_file());
    let loop_ext = entry
        .path()
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "json" | "yaml" | "yml"));
    is_file && loop_ext
}

/// A document a project reads beside its loops that a loop search does not find: an
/// `agent.lock`, or a Markdown agent spec in an `agents` folder (multi-agent-spec).
fn is_project_document(entry: &ignore::DirEntry) -> bool {
    let p = entry.path();
    entry.file_type().is_some_and(|t| t.is_file())
        && (p.file_name().is_some_and(|n| n == "agent.lock") || is_agent_spec(p))
}

/// A Markdown file below a folder named `agents`.
pub(in crate::cli) fn is_agent_spec(p: &Path) -> bool {
    loopconv::project::is_agent_spec_path(p)
}

/// A mutex's contents, also after a panic on another thread (the search keeps no invariant
/// a panic could break).
fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
