//! The project of a `check`: the workspace around its inputs, the documents that give the
//! cross-file rules their context, and the diagnostics those rules find.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::Result;
use rayon::iter::{IntoParallelRefIterator as _, ParallelIterator as _};

use loopconv::diag::{Diagnostic, Diagnostics};
use loopconv::format::DocKind;
use loopconv::project::{Member, Project, read_agent_spec};
use loopconv::{Format, LoadOptions, Loaded, TreeUse};

use super::Global;
use super::io::{is_agent_spec, is_stdio, read_input, search_each};
use super::report::{display_name, load_document, read_limits};

/// The workspace a path is in: the nearest folder named `specs` (multi-agent-spec), or
/// holding an `agent.lock` or an Agent manifest `agent.json` (AgentPM), from the path's
/// folder up. `None` for standard input and outside any workspace.
pub(crate) fn workspace_of(path: &Path) -> Option<PathBuf> {
    if is_stdio(path) {
        return None;
    }
    let start = if path.is_dir() { path } else { path.parent()? };
    let mut dir = if start.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        start.to_path_buf()
    };
    for absolute in std::path::absolute(&dir).ok()?.ancestors() {
        if loopconv::project::is_workspace_root(&dir, absolute.file_name()) {
            return Some(dir);
        }
        dir = up(&dir);
    }
    None
}

/// The folder above `dir`, in the form the user gave: `a/b` -> `a`, `a` -> `.`, `.` -> `..`,
/// `..` -> `../..`.
fn up(dir: &Path) -> PathBuf {
    match dir.components().next_back() {
        Some(std::path::Component::Normal(_)) => match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        },
        Some(std::path::Component::CurDir) => PathBuf::from(".."),
        _ => dir.join(".."),
    }
}

/// The folders a workspace's context is read from: the workspace, and its installed loops
/// (`.agentpm/loops`, hidden, so not searched with it).
fn context_folders(root: &Path) -> Vec<PathBuf> {
    let installed = root.join(".agentpm").join("loops");
    let mut out = vec![root.to_path_buf()];
    if installed.is_dir() {
        out.push(installed);
    }
    out
}

/// The members of the workspaces of `inputs` that are not among `reported` (read for the
/// rules' context only: their own problems are not reported). A file that cannot be read
/// is left out.
pub(super) fn context(
    g: &Global,
    roots: &[PathBuf],
    reported: &HashSet<PathBuf>,
    pool: &rayon::ThreadPool,
) -> Result<Vec<Member>> {
    let found = std::sync::Mutex::new(Vec::new());
    for root in roots {
        for dir in context_folders(root) {
            search_each(&dir, &super::SearchArgs::default(), true, |p| {
                // Named as the user would name them: `loops/x.json`, not `./loops/x.json`.
                let p = match p.strip_prefix(".") {
                    Ok(rest) => rest.to_path_buf(),
                    Err(_) => p,
                };
                if !reported.contains(&normal(&p)) {
                    found
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push(p);
                }
            })?;
        }
    }
    let mut files = found
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    files.sort();
    files.dedup();
    Ok(pool.install(|| {
        files
            .par_iter()
            .filter_map(|p| read(g, p, None).ok().and_then(|r| r.member))
            .collect()
    }))
}

pub(super) use loopconv::project::normal;

/// One file of a project, read: its diagnostics and source text, and its member.
pub(super) struct Read {
    /// Its own diagnostics (made strict under `--strict`).
    pub(super) diags: Diagnostics,
    /// The loaded loop or document (`None` for an agent spec).
    pub(super) loaded: Option<Loaded>,
    /// The agent spec's text.
    pub(super) text: Option<String>,
    /// What the project's rules need of it.
    pub(super) member: Option<Member>,
}

/// Read one file of a project: a loop or a document that uses loops through the pipeline,
/// an agent spec by its own reader.
pub(super) fn read(g: &Global, path: &Path, from: Option<Format>) -> Result<Read> {
    if is_agent_spec(path) && from.is_none() {
        let bytes = read_input(path, &read_limits(g))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let name = display_name(g, path);
        let (spec, diags) = read_agent_spec(&name, path, &text, &read_limits(g));
        let mut diags = g.settings.filter(diags, Some(path));
        if g.strict {
            diags.make_strict();
        }
        let member = spec.map(|s| Member::agent(&name, path, s));
        return Ok(Read {
            diags,
            loaded: None,
            text: Some(text),
            member,
        });
    }
    let mut l = load_document(g, path, from, true)?;
    if path.file_name().is_some_and(|n| n == "agent.lock") && l.kind != Some(DocKind::AgentLock) {
        l.diags.note_first_error(|| {
            "`agent.lock` is read as an AgentPM lock: a JSON object with `lockfile_version: 3`; regenerate it with `agentpm install`".to_owned()
        });
    }
    let member = Member::of(path, &mut l);
    if g.strict {
        l.diags.make_strict();
    }
    Ok(Read {
        diags: std::mem::take(&mut l.diags),
        loaded: Some(l),
        text: None,
        member,
    })
}

impl Read {
    /// The source text, for snippets.
    pub(super) fn text(&self) -> Option<&str> {
        match &self.loaded {
            Some(l) => l.text(),
            None => self.text.as_deref(),
        }
    }
}

/// The project's diagnostics made strict under `--strict`.
pub(super) fn strict(g: &Global, mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if g.strict {
        loopconv::diag::make_strict(&mut diags);
    }
    diags
}

/// The workspace folders of `paths`, each once, sorted.
pub(super) fn roots_of<'p>(paths: impl IntoIterator<Item = &'p Path>) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = paths.into_iter().filter_map(workspace_of).collect();
    roots.sort();
    roots.dedup();
    roots
}

/// The project of `members`, the documents a command read (`reported`, their paths), with
/// the rest of the workspaces at `roots` read for context; and its rules' diagnostics,
/// made strict under `--strict` and located. What `check`, and `graph` and `docs` of an
/// Agent, judge a project by.
pub(super) fn project_with_context(
    g: &Global,
    roots: &[PathBuf],
    reported: &HashSet<PathBuf>,
    mut members: Vec<Member>,
) -> Result<(Project, Vec<Diagnostic>)> {
    members.extend(context(g, roots, reported, &super::io::folder_pool()?)?);
    let project = Project::new(members);
    let mut found = strict(g, project.check());
    locate(g, &project, &mut found);
    Ok((project, found))
}

/// Give a position to every place of `diags` that has none yet (in loops, whose trees were
/// freed): each file read again once, keeping its tree.
fn locate(g: &Global, project: &Project, diags: &mut [Diagnostic]) {
    let paths: HashMap<&str, &std::path::Path> = (project.members().iter())
        .map(|m| (m.file.as_str(), m.path.as_path()))
        .collect();
    for file in loopconv::project::unlocated_files(diags) {
        let Some(path) = paths.get(file.as_str()) else {
            continue;
        };
        let Ok(bytes) = read_input(path, &read_limits(g)) else {
            continue;
        };
        let opts = LoadOptions {
            limits: read_limits(g),
            tree: TreeUse::Keep,
            documents: true,
            ..LoadOptions::default()
        };
        let l = loopconv::load_owned(&file, bytes, &opts);
        if let Some(doc) = &l.doc {
            loopconv::project::locate(diags, &file, doc);
        }
    }
}
