//! Diagnostics across files: after an edit of a document in a workspace, the rules across
//! files run again over the workspace's project ([`super::workspace`]), and every file
//! whose cross-file diagnostics changed is published again, open or not (a team's `W001`
//! appears when the loop it names is renamed in another buffer, and goes when it is named
//! back).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use lsp_types::{DiagnosticRelatedInformation, Location, PublishDiagnosticsParams};

use super::diagnostics::{placed, span_of};
use super::documents::{Server, name_of};
use super::text::Utf16Lines;
use super::workspace::{disk_tree, file_path, uri_of};
use crate::diag::Diagnostic;

/// The diagnostics to publish after the document at `key` changed (or opened): its own,
/// and, in a workspace, those of the rules across files for it and for every file whose
/// cross-file diagnostics changed.
pub(super) fn after_edit(s: &mut Server, key: &str) -> Vec<PublishDiagnosticsParams> {
    let Some((uri, doc)) = s.docs.get_mut(key) else {
        return Vec::new();
    };
    doc.due = None;
    let path = file_path(uri);
    let Some(path) = path.filter(|p| s.workspaces.of(p).is_some()) else {
        return own(s, key).into_iter().collect();
    };
    // A buffer that does not parse keeps its last facts: the other files' diagnostics do
    // not flicker while it is typed.
    let member = (s.docs.get_mut(key)).and_then(|(uri, doc)| doc.analysis(uri).member());
    if let (Some(m), Some(ws)) = (member, s.workspaces.of(&path)) {
        ws.project.put(m);
    }
    rerun(s, &path, Some(key))
}

/// After the document at `path` closed: its facts read again from disk, and the files whose
/// cross-file diagnostics changed published again.
pub(super) fn after_close(s: &mut Server, path: &Path) -> Vec<PublishDiagnosticsParams> {
    let Some(ws) = s.workspaces.of(path) else {
        return Vec::new();
    };
    match super::workspace::read_member(path) {
        Some(m) => ws.project.put(m),
        None => drop(ws.project.remove(path)),
    }
    rerun(s, path, None)
}

/// Run the rules of the workspace of `path` again; publish the document at `key` (when
/// given) and every file whose cross-file diagnostics changed.
fn rerun(s: &mut Server, path: &Path, key: Option<&str>) -> Vec<PublishDiagnosticsParams> {
    let Some(ws) = s.workspaces.of(path) else {
        return Vec::new();
    };
    let mut found = ws.project.check();
    for file in crate::project::unlocated_files(&found) {
        locate(s, &file, &mut found);
    }
    let mut by_file: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
    for d in found {
        by_file.entry(d.location.file.clone()).or_default().push(d);
    }
    let Some(ws) = s.workspaces.of(path) else {
        return Vec::new();
    };
    let this = path.to_string_lossy().into_owned();
    let mut changed: Vec<String> = (by_file.keys().chain(ws.shown.keys()))
        .filter(|f| *f == &this || by_file.get(*f) != ws.shown.get(*f))
        .cloned()
        .collect();
    if key.is_some() && !changed.contains(&this) {
        changed.push(this);
    }
    changed.sort();
    changed.dedup();
    ws.shown = by_file.clone();
    let mut texts = DiskTexts::default();
    changed
        .iter()
        .filter_map(|f| {
            let across = by_file.get(f).map_or(&[][..], Vec::as_slice);
            publish_file(s, &mut texts, Path::new(f), across)
        })
        .collect()
}

/// The diagnostics of the file at `path`: its own when it is open, and `across`.
fn publish_file(
    s: &mut Server,
    texts: &mut DiskTexts,
    path: &Path,
    across: &[Diagnostic],
) -> Option<PublishDiagnosticsParams> {
    let converted: Vec<lsp_types::Diagnostic> = across
        .iter()
        .filter_map(|d| convert(s, texts, path, d))
        .collect();
    match open_key(s, path) {
        Some(key) => {
            let mut p = own(s, &key)?;
            p.diagnostics.extend(converted);
            Some(p)
        }
        None => Some(PublishDiagnosticsParams::new(
            uri_of(path)?,
            converted,
            None,
        )),
    }
}

/// The open document's own diagnostics.
fn own(s: &mut Server, key: &str) -> Option<PublishDiagnosticsParams> {
    let (uri, doc) = s.docs.get_mut(key)?;
    let version = doc.version;
    let diagnostics = doc.analysis(uri).diagnostics(uri);
    Some(PublishDiagnosticsParams::new(
        uri.clone(),
        diagnostics,
        Some(version),
    ))
}

/// A diagnostic of the rules across files, placed in the file at `path`, with its labels in
/// whichever file they point into.
fn convert(
    s: &mut Server,
    texts: &mut DiskTexts,
    path: &Path,
    d: &Diagnostic,
) -> Option<lsp_types::Diagnostic> {
    let range = range_in(s, texts, path, span_of(d))?.range;
    let related = d
        .labels
        .iter()
        .filter_map(|l| {
            let p = l.location.pos?;
            let location = range_in(
                s,
                texts,
                Path::new(&l.location.file),
                (p.start, p.end.max(p.start)),
            )?;
            Some(DiagnosticRelatedInformation {
                location,
                message: crate::text::lines(&l.message).into_owned(),
            })
        })
        .collect();
    Some(placed(d, range, related))
}

/// The location of a byte range of the file at `path`: with the open document's text and
/// URI, else the file's on disk (read once per request, in `texts`).
pub(super) fn range_in(
    s: &mut Server,
    texts: &mut DiskTexts,
    path: &Path,
    bytes: (usize, usize),
) -> Option<Location> {
    if let Some(key) = open_key(s, path) {
        let (uri, doc) = s.docs.get_mut(&key)?;
        let t = doc.analysis(uri).text();
        return Some(Location::new(uri.clone(), t.range(bytes)));
    }
    texts.location(path, bytes)
}

/// The texts of files that are not open, each read from disk once while a request or an
/// edit's diagnostics are answered (a team's many steps and labels point into few files).
#[derive(Default)]
pub(super) struct DiskTexts(HashMap<PathBuf, Option<(String, Utf16Lines)>>);

impl DiskTexts {
    /// The location of a byte range of the file at `path`, read from disk.
    fn location(&mut self, path: &Path, bytes: (usize, usize)) -> Option<Location> {
        let read = self.0.entry(path.to_path_buf()).or_insert_with(|| {
            let text = std::fs::read_to_string(path).ok()?;
            let lines = Utf16Lines::new(&text);
            Some((text, lines))
        });
        let (text, lines) = read.as_ref()?;
        Some(Location::new(uri_of(path)?, lines.range(text, bytes)))
    }
}

/// Locate the places of `found` in `file`, with the open document's tree, else the tree
/// of the file on disk.
fn locate(s: &mut Server, file: &str, found: &mut [Diagnostic]) {
    let path = Path::new(file);
    match open_key(s, path).and_then(|k| s.docs.get_mut(&k)) {
        Some((uri, doc)) => {
            if let Some(tree) = doc.analysis(uri).loaded.doc.as_ref() {
                crate::project::locate(found, file, tree);
            }
        }
        None => {
            if let Some((tree, _)) = disk_tree(path) {
                crate::project::locate(found, file, &tree);
            }
        }
    }
}

/// The key of the open document of the file at `path`.
pub(super) fn open_key(s: &Server, path: &Path) -> Option<String> {
    let want = path.to_string_lossy();
    (s.docs.iter())
        .find(|(_, (uri, _))| name_of(uri) == want)
        .map(|(k, _)| k.clone())
}
