//! The open documents and the analysis of each version: the server's state, which the
//! request handlers ([`super::requests`]) read and the server loop ([`super::server`])
//! updates.
//!
//! A document's text is held once: by its [`Source`] while it waits to be analysed (after
//! an edit), then by the located tree of its analysis (the read pipeline takes the text
//! without copying it, and gives it back for the next edit).

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

use super::diagnostics;
use super::features::DocumentText;
use super::index::Index;
use super::index_xstate;
use super::text::{Source, Utf16Lines};
use crate::diag::Code;
use crate::front::TreeUse;
use crate::pipeline::{self, LoadOptions, Loaded, PhaseLayout, load_string};
use crate::tree::{Document, Syntax};

/// One version of a document, read and indexed.
pub struct DocumentAnalysis {
    /// The line index of the text analysed.
    pub lines: Utf16Lines,
    /// What the read pipeline found (its tree holds the text).
    pub loaded: Loaded,
    /// The text when the read pipeline rejected it before parsing (empty otherwise).
    rejected: String,
    /// What the document declares and references (empty when it does not parse).
    /// Shared with `Doc`'s last index that parsed, so keeping it costs no copy.
    pub index: Arc<Index>,
    /// The syntax.
    pub syntax: Syntax,
    /// What the rules across files need of a document that uses loops (a team, an Agent
    /// manifest, a lock), read with it; a loop's is made when a workspace asks.
    used: Option<crate::project::Member>,
}

impl DocumentAnalysis {
    /// Read and index `text`, named `path` (its extension decides JSON or YAML).
    pub fn new(path: &str, text: &str) -> DocumentAnalysis {
        DocumentAnalysis::of(path, Source::new(text.to_owned()))
    }

    /// Read and index a document's text, taking it over. A leading byte-order mark is
    /// reported (`P009`) and removed by the read pipeline, as `check` does with the file.
    pub fn of(path: &str, source: Source) -> DocumentAnalysis {
        let Source { text, mut lines } = source;
        let bom = text.starts_with(BOM);
        let opts = LoadOptions {
            tree: TreeUse::Keep,
            documents: true,
            ..LoadOptions::default()
        };
        let (mut loaded, rejected) = load_string(path, text, &opts);
        // A document that uses loops gets the problems of its own reader, and keeps its
        // facts for the rules across files (`super::workspace`).
        let used = if matches!(loaded.kind, None | Some(crate::format::DocKind::Loop(_))) {
            None
        } else {
            crate::project::Member::of(std::path::Path::new(path), &mut loaded)
        };
        let mut rejected = rejected.unwrap_or_default();
        if bom {
            // The analysis counts from after the mark (a text rejected before parsing is
            // handed back with it: taken off too); the client's positions count it.
            if rejected.starts_with(BOM) {
                rejected.drain(..BOM.len_utf8());
            }
            let read = loaded.text().unwrap_or(&rejected);
            lines = Utf16Lines::new(read).with_lead(1);
        }
        diagnostics::help_for_editor(&mut loaded.diags);
        let index = Arc::new(loaded.doc.as_ref().map_or_else(Index::default, |d| {
            index_of(d, pipeline::phase_layout(loaded.format, d.root()))
        }));
        let syntax = loaded.doc.as_ref().map_or(Syntax::Json, |d| d.syntax);
        DocumentAnalysis {
            lines,
            loaded,
            rejected,
            index,
            syntax,
            used,
        }
    }

    /// What the rules across files need of this document, when it is one a project holds.
    pub fn member(&self) -> Option<crate::project::Member> {
        if let Some(m) = &self.used {
            return Some(m.clone());
        }
        let facts = crate::project::LoopFacts::of(&self.loaded)?;
        let file = self.loaded.diags.file().to_owned();
        Some(crate::project::Member {
            path: std::path::PathBuf::from(&file),
            file,
            facts: crate::project::Facts::Loop(facts),
        })
    }

    /// The text analysed.
    pub fn source(&self) -> &str {
        self.loaded.text().unwrap_or(&self.rejected)
    }

    /// The text and line index, for converting ranges.
    pub fn text(&self) -> DocumentText<'_> {
        DocumentText {
            text: self.source(),
            lines: &self.lines,
        }
    }

    /// The text and its line index, given up (for the next edit), as the client has them:
    /// with the byte-order mark the analysis took off. The rest (the tree, the loop, the
    /// index) is freed on another thread: on a 10,000-phase loop that takes a few
    /// milliseconds the edit need not wait for.
    fn into_source(mut self) -> Source {
        let mut text = self
            .loaded
            .take_text()
            .unwrap_or_else(|| std::mem::take(&mut self.rejected));
        let lines = std::mem::replace(&mut self.lines, Utf16Lines::new(""));
        // When no thread can be started, the closure (and the rest) is dropped here.
        let _ = std::thread::Builder::new().spawn(move || drop(self));
        if lines.lead() == 0 {
            return Source { text, lines };
        }
        text.insert(0, BOM);
        Source::new(text)
    }

    /// The LSP diagnostics.
    pub fn diagnostics(&self, uri: &Uri) -> Vec<lsp_types::Diagnostic> {
        let t = self.text();
        // `P009` is about the mark itself, before the text analysed.
        let lead = self.lines.lead();
        let mark = Range::new(Position::new(0, 0), Position::new(0, lead));
        (self.loaded.diags.items().iter())
            .map(|d| {
                let mut lsp = diagnostics::to_lsp(&t, &self.index, uri, d);
                if d.code == Code::ByteOrderMark && lead > 0 {
                    lsp.range = mark;
                }
                lsp
            })
            .collect()
    }
}

/// An open document.
pub(super) struct Doc {
    /// The current text, while it waits for its analysis (after an edit).
    edited: Option<Source>,
    /// The analysis of the current text (which then holds it).
    analysis: Option<DocumentAnalysis>,
    pub(super) version: i32,
    /// The index of the last version that parsed (completion while typing).
    pub(super) last_index: Arc<Index>,
    /// When its diagnostics are due, after an edit.
    pub(super) due: Option<Instant>,
}

impl Doc {
    /// A document opened with `text`.
    pub(super) fn new(text: String, version: i32) -> Doc {
        Doc {
            edited: Some(Source::new(text)),
            analysis: None,
            version,
            last_index: Arc::default(),
            due: None,
        }
    }

    /// The current text and its line index (analysed or not).
    pub(super) fn text(&self) -> DocumentText<'_> {
        match (&self.edited, &self.analysis) {
            (Some(s), _) => DocumentText {
                text: &s.text,
                lines: &s.lines,
            },
            (None, Some(a)) => a.text(),
            (None, None) => DocumentText {
                text: "",
                lines: &EMPTY_LINES,
            },
        }
    }

    /// Apply the changes of one `didChange`, in order (the analysis of the previous text
    /// is dropped and its text taken back).
    pub(super) fn edit(&mut self, changes: Vec<TextDocumentContentChangeEvent>) {
        let mut source = match (self.edited.take(), self.analysis.take()) {
            (Some(s), _) => s,
            (None, Some(a)) => a.into_source(),
            (None, None) => empty(),
        };
        for c in changes {
            source.apply(c);
        }
        self.edited = Some(source);
    }

    /// The analysis of the current text, computed on first use.
    pub(super) fn analysis(&mut self, uri: &Uri) -> &DocumentAnalysis {
        if let Some(source) = self.edited.take() {
            let a = analyse(uri, source);
            if a.loaded.doc.is_some() {
                self.last_index = Arc::clone(&a.index);
            }
            self.analysis = Some(a);
        }
        self.analysis
            .get_or_insert_with(|| DocumentAnalysis::new(&name_of(uri), ""))
    }
}

/// The byte-order mark.
const BOM: char = '\u{feff}';

/// The index of a document whose phases are laid out as `layout` says.
fn index_of(doc: &Document, layout: PhaseLayout) -> Index {
    match layout {
        PhaseLayout::Lists => Index::build(doc, None),
        PhaseLayout::IrGraph => Index::build(doc, doc.root().get("graph")),
        PhaseLayout::StateKeys => index_xstate::build(doc),
    }
}

static EMPTY_LINES: std::sync::LazyLock<Utf16Lines> =
    std::sync::LazyLock::new(|| Utf16Lines::new(""));

fn empty() -> Source {
    Source::new(String::new())
}

/// Analyse, turning a panic (a loopconv bug) into the analysis of an empty text (the text
/// is lost with it: the next edits apply to the empty text, until the client sends the
/// whole text again or reopens the document).
fn analyse(uri: &Uri, source: Source) -> DocumentAnalysis {
    let path = name_of(uri);
    catch_unwind(AssertUnwindSafe(|| DocumentAnalysis::of(&path, source)))
        .unwrap_or_else(|_| DocumentAnalysis::new(&path, ""))
}

/// The name a document is analysed under: a `file:` URI's path, decoded (the name the
/// workspace's files have), else the URI's path as it is.
pub(super) fn name_of(uri: &Uri) -> String {
    super::workspace::file_path(uri).map_or_else(
        || uri.path().as_str().to_owned(),
        |p| p.to_string_lossy().into_owned(),
    )
}

/// The server's state: the open documents, and the workspaces they are in.
#[derive(Default)]
pub(super) struct Server {
    pub(super) docs: BTreeMap<String, (Uri, Doc)>,
    pub(super) workspaces: super::workspace::Workspaces,
}
