//! The features that follow a name from one file of a workspace to another: a team step's
//! `loop` to the loop, an Agent manifest's `loop` to the loop it resolves to and its
//! `bindings.phases.<id>` to the phase; the references and renames of a loop's name; the
//! completion of loop names and bound phase ids.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionTextEdit, Location, TextEdit,
    Uri, WorkspaceEdit,
};

use super::across::{DiskTexts, open_key, range_in};
use super::documents::Server;
use super::text::Utf16Lines;
use super::workspace::{
    bound_phase_at, disk_tree, file_path, loops_named, on_agent_loop, step_loop_at, steps_running,
    uri_of,
};
use crate::diag::Locate as _;
use crate::project::{Facts, Member, Project};

/// The path of the open document at `key`, when it is in a workspace; the facts of every
/// open document edited since its last analysis made current first (a request may come
/// before an edit's diagnostics are due).
fn in_workspace(s: &mut Server, key: &str) -> Option<PathBuf> {
    let path = file_path(&s.docs.get(key)?.0)?;
    s.workspaces.of(&path)?;
    let pending: Vec<String> = (s.docs.iter())
        .filter(|(k, (_, d))| *k == key || d.due.is_some())
        .map(|(k, _)| k.clone())
        .collect();
    for k in pending {
        let Some((uri, doc)) = s.docs.get_mut(&k) else {
            continue;
        };
        let Some(p) = file_path(uri) else { continue };
        let member = doc.analysis(uri).member();
        if let (Some(m), Some(ws)) = (member, s.workspaces.of(&p)) {
            ws.project.put(m);
        }
    }
    Some(path)
}

/// The project of the workspace of `path`.
fn project<'s>(s: &'s Server, path: &Path) -> Option<&'s Project> {
    s.workspaces.get(path).map(|w| &w.project)
}

/// Go to definition across files, at byte `offset` of the document at `key`.
pub(super) fn definition(s: &mut Server, key: &str, offset: usize) -> Option<Location> {
    let path = in_workspace(s, key)?;
    let p = project(s, &path)?;
    let target: (PathBuf, String, bool) = if let Some((name, _)) = step_loop_at(p, &path, offset) {
        let (m, pointer) = loops_named(p, &name).into_iter().next()?;
        (m.path.clone(), pointer, false)
    } else if on_agent_loop(p, &path, offset) {
        let (m, _) = p.resolved_loop(p.position(&path)?)?;
        (m.path.clone(), name_pointer(m)?, false)
    } else {
        let id = bound_phase_at(p, &path, offset)?;
        let (m, _) = p.resolved_loop(p.position(&path)?)?;
        (m.path.clone(), phase_pointer(m, &id)?, false)
    };
    place(s, &target.0, &target.1, target.2)
}

/// The pointer to a loop's name.
fn name_pointer(m: &Member) -> Option<String> {
    match &m.facts {
        Facts::Loop(l) => Some(l.name_pointer().to_owned()),
        _ => None,
    }
}

/// The pointer to the id of the phase `id` of a loop (a list under `loop.phases` in
/// AgentPM, `phases` in multi-agent-spec, `graph.phases` in the IR).
fn phase_pointer(m: &Member, id: &str) -> Option<String> {
    let Facts::Loop(l) = &m.facts else {
        return None;
    };
    let k = l.phases.iter().position(|p| p == id)?;
    crate::pipeline::phase_id_pointer(l.format, k)
}

/// The location of the value (or key) at `pointer` in the file at `path`: in the open
/// document, else in the file on disk.
fn place(s: &mut Server, path: &Path, pointer: &str, key: bool) -> Option<Location> {
    if let Some(k) = open_key(s, path) {
        let (uri, doc) = s.docs.get_mut(&k)?;
        let a = doc.analysis(uri);
        let (p, _) = a.loaded.doc.as_ref()?.locate_exact(pointer, key)?;
        return Some(Location::new(uri.clone(), a.text().range((p.start, p.end))));
    }
    let (tree, _) = disk_tree(path)?;
    let (p, _) = tree.locate_exact(pointer, key)?;
    let lines = Utf16Lines::new(&tree.text);
    Some(Location::new(
        uri_of(path)?,
        lines.range(&tree.text, (p.start, p.end)),
    ))
}

/// The loop name at byte `offset` of the document at `path`: a team step's `loop`, or the
/// name of the loop the document is.
fn loop_name_at(s: &mut Server, path: &Path, offset: usize) -> Option<String> {
    let p = project(s, path)?;
    if let Some((name, _)) = step_loop_at(p, path, offset) {
        return Some(name);
    }
    let m = &p.members()[p.position(path)?];
    let Facts::Loop(l) = &m.facts else {
        return None;
    };
    let (name, pointer) = (l.name.clone(), l.name_pointer().to_owned());
    let here = place(s, path, &pointer, false)?;
    let k = open_key(s, path)?;
    let (uri, doc) = s.docs.get_mut(&k)?;
    let a = doc.analysis(uri);
    let t = a.text();
    let start = a.lines.offset(t.text, here.range.start);
    let end = a.lines.offset(t.text, here.range.end);
    (start <= offset && offset <= end).then_some(name)
}

/// Every place that names the loop at byte `offset` of the document at `key`: the steps
/// that run it and (with `with_decl`) the loop's own name.
pub(super) fn references(
    s: &mut Server,
    key: &str,
    offset: usize,
    with_decl: bool,
) -> Option<Vec<Location>> {
    let path = in_workspace(s, key)?;
    let name = loop_name_at(s, &path, offset)?;
    Some(places_of(s, &path, &name, with_decl))
}

/// The places that name the loop `name` in the workspace of `path`.
fn places_of(s: &mut Server, path: &Path, name: &str, with_decl: bool) -> Vec<Location> {
    let Some(p) = project(s, path) else {
        return Vec::new();
    };
    let decls: Vec<(PathBuf, String)> = if with_decl {
        (loops_named(p, name).into_iter())
            .map(|(m, ptr)| (m.path.clone(), ptr))
            .collect()
    } else {
        Vec::new()
    };
    let steps: Vec<(PathBuf, (usize, usize))> = (steps_running(p, name).into_iter())
        .map(|(f, b)| (f.to_path_buf(), b))
        .collect();
    let mut out: Vec<Location> = decls
        .iter()
        .filter_map(|(f, ptr)| place(s, f, ptr, false))
        .collect();
    let mut texts = DiskTexts::default();
    out.extend(
        steps
            .iter()
            .filter_map(|(f, b)| range_in(s, &mut texts, f, *b)),
    );
    out
}

/// Rename the loop at byte `offset` of the document at `key`: its name and every step that
/// runs it. `None` when there is no loop name there; an error when the new name is no loop
/// name or another loop has it.
pub(super) fn rename(
    s: &mut Server,
    key: &str,
    offset: usize,
    new: &str,
) -> Option<Result<WorkspaceEdit, String>> {
    let path = in_workspace(s, key)?;
    let name = loop_name_at(s, &path, offset)?;
    if !is_loop_name(new) {
        return Some(Err(format!(
            "`{}` is no loop name: a lowercase letter, then lowercase letters, digits and hyphens, at most 64 characters",
            crate::diag::cut(new)
        )));
    }
    if new != name && project(s, &path).is_some_and(|p| !loops_named(p, new).is_empty()) {
        return Some(Err(format!(
            "a loop named `{new}` exists already: the steps would run either"
        )));
    }
    // `Uri` caches its parts inside (clippy's `mutable_key_type`); its hash and equality
    // are of the text, which never changes.
    #[allow(clippy::mutable_key_type)]
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for loc in places_of(s, &path, &name, true) {
        let with = replacement(s, &loc, new);
        changes
            .entry(loc.uri.clone())
            .or_default()
            .push(TextEdit::new(loc.range, with));
    }
    Some(Ok(WorkspaceEdit::new(changes)))
}

/// A loop name as multi-agent-spec writes it (formats.md 2.1).
fn is_loop_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && s.len() <= 64
}

/// The text that replaces the name at `loc`: quoted where the name was quoted.
fn replacement(s: &mut Server, loc: &Location, new: &str) -> String {
    let quoted = file_path(&loc.uri)
        .and_then(|p| {
            let text = match open_key(s, &p) {
                Some(k) => s.docs.get_mut(&k).map(|(_, d)| d.text().text.to_owned()),
                None => std::fs::read_to_string(&p).ok(),
            }?;
            let lines = Utf16Lines::new(&text);
            let at = lines.offset(&text, loc.range.start);
            text.get(at..).map(|t| t.starts_with(['"', '\'']))
        })
        .unwrap_or(true);
    if quoted {
        serde_json::to_string(new).unwrap_or_else(|_| format!("\"{new}\""))
    } else {
        new.to_owned()
    }
}

/// Completion across files at byte `offset` of the document at `key`: loop names after a
/// team step's `loop:`, the phase ids of the resolved loop among an Agent manifest's
/// `bindings.phases` keys.
pub(super) fn completion(s: &mut Server, key: &str, offset: usize) -> Option<CompletionList> {
    // Only a team or an Agent manifest (as last read): a loop being typed is not analysed
    // for each completion.
    let path = file_path(&s.docs.get(key)?.0)?;
    let p = s.workspaces.get(&path).map(|w| &w.project)?;
    let uses_loops = p
        .position(&path)
        .is_some_and(|i| matches!(p.members()[i].facts, Facts::Team(_) | Facts::Manifest(_)));
    if !uses_loops {
        return None;
    }
    let path = in_workspace(s, key)?;
    let text = s.docs.get(key)?.1.text().text.to_owned();
    let lines = Utf16Lines::new(&text);
    let p = project(s, &path)?;
    let (words, replace, quote) = if let Some(v) =
        super::complete::value_at(&text, offset).filter(|v| v.key == "loop" && is_team(p, &path))
    {
        (loop_names(p), v.replace, v.json_needs_quotes)
    } else {
        let (keys, replace) = super::complete::json_key_at(&text, offset)?;
        if keys != ["bindings", "phases"] {
            return None;
        }
        let quoted = text[..replace.0].ends_with('"');
        (bound_phase_ids(p, &path)?, replace, !quoted)
    };
    let range = lines.range(&text, replace);
    let items = words
        .into_iter()
        .map(|w| {
            let new_text = if quote {
                serde_json::to_string(&w).unwrap_or_default()
            } else {
                w.clone()
            };
            CompletionItem {
                label: w,
                kind: Some(CompletionItemKind::REFERENCE),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(range, new_text))),
                ..CompletionItem::default()
            }
        })
        .collect();
    Some(CompletionList {
        is_incomplete: false,
        items,
    })
}

/// Whether the member at `path` is a team (or the document is not parsed yet, but named
/// in the workspace as one).
fn is_team(p: &Project, path: &Path) -> bool {
    p.position(path)
        .is_some_and(|i| matches!(p.members()[i].facts, Facts::Team(_)))
}

/// The names of the workspace's loops, sorted, each once.
fn loop_names(p: &Project) -> Vec<String> {
    let mut names: Vec<String> = (p.members().iter())
        .filter_map(|m| match &m.facts {
            Facts::Loop(l) => Some(l.name.clone()),
            _ => None,
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The phase ids of the loop the Agent manifest at `path` resolves to, in authored order.
fn bound_phase_ids(p: &Project, path: &Path) -> Option<Vec<String>> {
    let (m, _) = p.resolved_loop(p.position(path)?)?;
    match &m.facts {
        Facts::Loop(l) => Some(l.phases.clone()),
        _ => None,
    }
}
