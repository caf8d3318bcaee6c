//! Positions for the places of the project's diagnostics that have none yet: a loop's
//! facts are pointers (its tree is freed once it is read), located when a diagnostic points
//! there, each file read again once by the caller.

use crate::diag::{Diagnostic, Locate as _, Location, Suggestion};
use crate::tree::Document;

/// The files with places still to locate, each once, sorted.
pub fn unlocated_files(diags: &[Diagnostic]) -> Vec<String> {
    let mut files: Vec<String> = diags
        .iter()
        .flat_map(|d| std::iter::once(&d.location).chain(d.labels.iter().map(|l| &l.location)))
        .filter(|l| l.pos.is_none())
        .map(|l| l.file.clone())
        .collect();
    files.sort_unstable();
    files.dedup();
    files
}

/// Give the places of `diags` in `file` that have no position theirs in `doc`, the tree
/// of that file; a diagnostic placed in `file` gets its suggestions' targets located too.
pub fn locate(diags: &mut [Diagnostic], file: &str, doc: &Document) {
    for d in diags.iter_mut() {
        let mut places: Vec<&mut Location> = vec![&mut d.location];
        places.extend(d.labels.iter_mut().map(|l| &mut l.location));
        for at in places
            .into_iter()
            .filter(|at| at.pos.is_none() && at.file == file)
        {
            at.pos = doc.locate(&at.pointer, at.on_key);
        }
        if d.location.file != file {
            continue;
        }
        for t in d.suggestions.iter_mut().flat_map(Suggestion::targets_mut) {
            if t.pos.is_none() {
                let found = doc.locate_exact(&t.pointer, t.key);
                (t.pos, t.end) = (found.map(|f| f.0), found.map(|f| f.1));
            }
        }
    }
}
