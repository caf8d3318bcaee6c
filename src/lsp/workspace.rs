//! Definitions across the files of a workspace: from a team step's `loop` to the loop
//! (formats.md 3.1). The loops are found on disk, in the nearest `specs/` folder above the
//! document, each read when asked.

use std::path::{Path, PathBuf};

use lsp_types::{Location, Uri};

use crate::format::DocKind;
use crate::pipeline::{LoadOptions, Loaded, load};
use crate::tree::{Node, Value};

use super::text::Utf16Lines;

/// The loop a team step's `loop` at `offset` names, as the location of its `name` in the
/// loop's file; `None` elsewhere, or when no loop of the workspace has that name.
pub fn loop_definition(path: &str, loaded: &Loaded, offset: usize) -> Option<Location> {
    if loaded.kind != Some(DocKind::MasTeam) {
        return None;
    }
    let name = step_loop_at(loaded.doc.as_ref()?.root(), offset)?;
    let path = percent_decoded(path);
    let specs = Path::new(&path)
        .ancestors()
        .find(|d| d.file_name().is_some_and(|n| n == "specs"))?;
    loop_files(specs).into_iter().find_map(|f| named(&f, &name))
}

/// The name a step's `loop` holds, when `offset` is in that value.
fn step_loop_at(root: &Node, offset: usize) -> Option<String> {
    let Value::Array(steps) = &root.get("workflow")?.get("steps")?.value else {
        return None;
    };
    steps.iter().find_map(|s| {
        let l = s.get("loop")?;
        (l.span.start() <= offset && offset <= l.span.end())
            .then(|| l.as_str().map(str::to_owned))?
    })
}

/// The loop files below `specs`, sorted (hidden and ignored files left out).
fn loop_files(specs: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ignore::WalkBuilder::new(specs)
        .require_git(false)
        .build()
        .filter_map(Result::ok)
        .map(ignore::DirEntry::into_path)
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
        })
        .collect();
    out.sort();
    out
}

/// The location of the `name` of the loop in `file`, when it is named `name`.
fn named(file: &Path, name: &str) -> Option<Location> {
    let bytes = std::fs::read(file).ok()?;
    let opts = LoadOptions {
        tree: crate::front::TreeUse::Keep,
        documents: true,
        ..LoadOptions::default()
    };
    let l = load(&file.to_string_lossy(), &bytes, &opts);
    if l.spec.as_ref()?.name != name {
        return None;
    }
    let doc = l.doc.as_ref()?;
    let node = doc.root().get("name")?;
    let lines = Utf16Lines::new(&doc.text);
    let range = lines.range(&doc.text, (node.span.start(), node.span.end()));
    let uri: Uri = crate::diag::sarif::uri(file.to_string_lossy().as_bytes())
        .parse()
        .ok()?;
    Some(Location::new(uri, range))
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
