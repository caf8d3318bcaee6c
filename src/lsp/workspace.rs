//! The workspace of an open document: the project its folder holds (formats.md 3), read
//! from disk once and then kept current from the editor's buffers, so that the rules across
//! files run on every edit and their diagnostics reach the file they point into.
//!
//! A document's workspace is found as `check` finds it: the nearest folder named `specs`
//! (multi-agent-spec), or holding an `agent.lock` or an Agent manifest `agent.json`
//! (AgentPM), from the document's folder up. A document outside any workspace is analysed
//! alone, as before.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use lsp_types::Uri;

use crate::diag::Diagnostic;
use crate::front::TreeUse;
use crate::pipeline::{LoadOptions, load_owned};
use crate::project::{Facts, Member, Project};
use crate::tree::Document;

/// The largest file a workspace reads from disk (a larger one is left out of it).
const MAX_FILE: u64 = 16 << 20;

/// The workspaces of the open documents, by their folder.
#[derive(Default)]
pub(super) struct Workspaces {
    /// The workspace folder of each folder asked about (`None`: outside any).
    roots: HashMap<PathBuf, Option<PathBuf>>,
    /// The workspaces read so far.
    spaces: BTreeMap<PathBuf, Workspace>,
}

/// One workspace: its project, and the cross-file diagnostics last published per file.
pub(super) struct Workspace {
    /// The documents, the open ones as the editor holds them.
    pub(super) project: Project,
    /// The diagnostics of the rules across files last published, by file.
    pub(super) shown: BTreeMap<String, Vec<Diagnostic>>,
}

impl Workspaces {
    /// The workspace of the file at `path`, read from disk the first time.
    pub(super) fn of(&mut self, path: &Path) -> Option<&mut Workspace> {
        let dir = path.parent()?.to_path_buf();
        let root = match self.roots.get(&dir) {
            Some(r) => r.clone(),
            None => {
                let r = root_of(&dir);
                self.roots.insert(dir, r.clone());
                r
            }
        }?;
        Some(
            self.spaces
                .entry(root)
                .or_insert_with_key(|root| Workspace {
                    project: Project::new(read_members(root)),
                    shown: BTreeMap::new(),
                }),
        )
    }

    /// The workspace of `path`, when one was read.
    pub(super) fn get(&self, path: &Path) -> Option<&Workspace> {
        let root = self.roots.get(path.parent()?)?.as_ref()?;
        self.spaces.get(root)
    }
}

/// The workspace folder of `dir`: the nearest folder that is one, from `dir` up.
fn root_of(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| crate::project::is_workspace_root(d, d.file_name()))
        .map(Path::to_path_buf)
}

/// How a workspace's files are read: any document kind, the tree kept for locating.
fn options() -> LoadOptions {
    LoadOptions {
        tree: TreeUse::Keep,
        documents: true,
        ..LoadOptions::default()
    }
}

/// The members of the workspace at `root`: its loops and the documents that use them, and
/// its installed loops (`.agentpm/loops`, hidden, so searched on its own), sorted by path.
fn read_members(root: &Path) -> Vec<Member> {
    let installed = root.join(".agentpm").join("loops");
    let mut files: Vec<PathBuf> = std::iter::once(root.to_path_buf())
        .chain(installed.is_dir().then_some(installed))
        .flat_map(|dir| {
            ignore::WalkBuilder::new(dir)
                .require_git(false)
                .build()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
                .map(ignore::DirEntry::into_path)
                .collect::<Vec<_>>()
        })
        .filter(|p| is_member_file(p))
        .collect();
    files.sort();
    files.dedup();
    files.iter().filter_map(|p| read_member(p)).collect()
}

/// Whether a workspace reads `p`: JSON and YAML files, `agent.lock`, and agent specs.
fn is_member_file(p: &Path) -> bool {
    let data = p
        .extension()
        .is_some_and(|e| e == "json" || e == "yaml" || e == "yml");
    data || p.file_name().is_some_and(|n| n == "agent.lock")
        || crate::project::is_agent_spec_path(p)
}

/// The member of the file at `path`, read from disk; `None` when it cannot be read or is
/// no document a project holds.
pub(super) fn read_member(path: &Path) -> Option<Member> {
    if std::fs::metadata(path).ok()?.len() > MAX_FILE {
        return None;
    }
    let file = path.to_string_lossy();
    if crate::project::is_agent_spec_path(path) {
        let text = std::fs::read_to_string(path).ok()?;
        let limits = LoadOptions::default().limits;
        let (spec, _) = crate::project::read_agent_spec(&file, path, &text, &limits);
        return spec.map(|s| Member::agent(&file, path, s));
    }
    let mut l = load_owned(&file, std::fs::read(path).ok()?, &options());
    Member::of(path, &mut l)
}

/// The tree of the file at `path` read from disk, to locate places in it.
pub(super) fn disk_tree(path: &Path) -> Option<(Document, String)> {
    if std::fs::metadata(path).ok()?.len() > MAX_FILE {
        return None;
    }
    let file = path.to_string_lossy().into_owned();
    let l = load_owned(&file, std::fs::read(path).ok()?, &options());
    Some((l.doc?, file))
}

/// The path a `file:` URI names, with its `%XX` escapes decoded; `None` for another scheme.
pub(super) fn file_path(uri: &Uri) -> Option<PathBuf> {
    let scheme = uri.scheme()?;
    if !scheme.as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    Some(PathBuf::from(percent_decoded(uri.path().as_str())))
}

/// The `file:` URI of a path.
pub(super) fn uri_of(path: &Path) -> Option<Uri> {
    crate::diag::sarif::uri(path.to_string_lossy().as_bytes())
        .parse()
        .ok()
}

/// A URI's path with its `%XX` escapes decoded (a path that does not decode is kept).
fn percent_decoded(path: &str) -> String {
    let b = path.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (b[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| path.to_owned())
}

/// The loops of the project named `name`, with the pointer to each one's name.
pub(super) fn loops_named<'p>(project: &'p Project, name: &str) -> Vec<(&'p Member, String)> {
    (project.members().iter())
        .filter_map(|m| match &m.facts {
            Facts::Loop(l) if l.name == name => Some((m, l.name_pointer().to_owned())),
            _ => None,
        })
        .collect()
}

/// Every team step that runs the loop `name`: the step's file, and the byte range of its
/// `loop` value.
pub(super) fn steps_running<'p>(
    project: &'p Project,
    name: &str,
) -> Vec<(&'p Path, (usize, usize))> {
    let mut out = Vec::new();
    for m in project.members() {
        let Facts::Team(team) = &m.facts else {
            continue;
        };
        for s in &team.steps {
            let Some((n, at)) = &s.loop_name else {
                continue;
            };
            if n == name
                && let Some(p) = at.pos
            {
                out.push((m.path.as_path(), (p.start, p.end)));
            }
        }
    }
    out
}

/// The loop name at byte `offset` of the member at `path`: a team step's `loop` value, with
/// its byte range.
pub(super) fn step_loop_at(
    project: &Project,
    path: &Path,
    offset: usize,
) -> Option<(String, (usize, usize))> {
    let m = &project.members()[project.position(path)?];
    let Facts::Team(team) = &m.facts else {
        return None;
    };
    team.steps.iter().find_map(|s| {
        let (n, at) = s.loop_name.as_ref()?;
        let p = at.pos?;
        (p.start <= offset && offset <= p.end).then(|| (n.clone(), (p.start, p.end)))
    })
}

/// The phase bound at byte `offset` of an Agent manifest (a key of `bindings.phases`).
pub(super) fn bound_phase_at(project: &Project, path: &Path, offset: usize) -> Option<String> {
    let m = &project.members()[project.position(path)?];
    let Facts::Manifest(manifest) = &m.facts else {
        return None;
    };
    manifest.bound_phases.iter().find_map(|(id, at)| {
        let p = at.pos?;
        (p.start <= offset && offset <= p.end).then(|| id.clone())
    })
}

/// Whether `offset` is on an Agent manifest's `loop` reference.
pub(super) fn on_agent_loop(project: &Project, path: &Path, offset: usize) -> bool {
    let Some(i) = project.position(path) else {
        return false;
    };
    let Facts::Manifest(manifest) = &project.members()[i].facts else {
        return false;
    };
    manifest
        .loop_ref
        .as_ref()
        .and_then(|r| r.at.pos)
        .is_some_and(|p| p.start <= offset && offset <= p.end)
}
