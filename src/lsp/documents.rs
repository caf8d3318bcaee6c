//! The open documents and the analysis of each version: the server's state, which the
//! request handlers ([`super::requests`]) read and the server loop ([`super::server`])
//! updates.

use std::collections::BTreeMap;
use std::panic::catch_unwind;
use std::time::Instant;

use lsp_types::Uri;

use super::diagnostics;
use super::features::DocumentText;
use std::sync::Arc;

use super::index::Index;
use super::text::LineIndex;
use crate::pipeline::{LoadOptions, Loaded, load};
use crate::tree::Syntax;

/// One version of a document, read and indexed.
pub struct DocumentAnalysis {
    /// The text analysed (a leading byte-order mark removed).
    pub text: String,
    /// Its line index.
    pub lines: LineIndex,
    /// What the read pipeline found.
    pub loaded: Loaded,
    /// What the document declares and references (empty when it does not parse).
    /// Shared with [`Doc`]'s last index that parsed, so keeping it costs no copy.
    pub index: Arc<Index>,
    /// The syntax.
    pub syntax: Syntax,
}

impl DocumentAnalysis {
    /// Read and index `text`, named `path` (its extension decides JSON or YAML).
    pub fn new(path: &str, text: &str) -> DocumentAnalysis {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text).to_owned();
        let loaded = load(path, text.as_bytes(), &LoadOptions::default());
        let index = Arc::new(loaded.doc.as_ref().map(Index::build).unwrap_or_default());
        let syntax = loaded.doc.as_ref().map_or(Syntax::Json, |d| d.syntax);
        DocumentAnalysis {
            lines: LineIndex::new(&text),
            text,
            loaded,
            index,
            syntax,
        }
    }

    /// The text and line index, for converting ranges.
    pub fn text(&self) -> DocumentText<'_> {
        DocumentText {
            text: &self.text,
            lines: &self.lines,
        }
    }

    /// The LSP diagnostics.
    pub fn diagnostics(&self, uri: &Uri) -> Vec<lsp_types::Diagnostic> {
        let t = self.text();
        self.loaded
            .diags
            .items()
            .iter()
            .map(|d| diagnostics::to_lsp(&t, &self.index, uri, d))
            .collect()
    }
}

/// An open document.
pub(super) struct Doc {
    pub(super) text: String,
    pub(super) version: i32,
    pub(super) analysis: Option<DocumentAnalysis>,
    /// The index of the last version that parsed (completion while typing).
    pub(super) last_index: Arc<Index>,
    /// When its diagnostics are due, after an edit.
    pub(super) due: Option<Instant>,
}

impl Doc {
    /// The analysis of the current text, when computed.
    pub(super) fn current(&self) -> Option<&DocumentAnalysis> {
        self.analysis.as_ref()
    }

    /// The analysis of the current text, computed on first use.
    pub(super) fn analysis(&mut self, uri: &Uri) -> &DocumentAnalysis {
        let a = match self.analysis.take() {
            Some(a) => a,
            None => {
                let a = analyse(uri, &self.text);
                if a.loaded.doc.is_some() {
                    self.last_index = Arc::clone(&a.index);
                }
                a
            }
        };
        self.analysis.insert(a)
    }
}

/// Analyse, turning a panic (a loopconv bug) into an empty analysis.
fn analyse(uri: &Uri, text: &str) -> DocumentAnalysis {
    let path = uri.path().as_str();
    catch_unwind(|| DocumentAnalysis::new(path, text))
        .unwrap_or_else(|_| DocumentAnalysis::new(path, ""))
}

/// The server's state: the open documents.
#[derive(Default)]
pub(super) struct Server {
    pub(super) docs: BTreeMap<String, (Uri, Doc)>,
}
