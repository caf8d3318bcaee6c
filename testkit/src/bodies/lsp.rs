//! The language server's analysis through a sequence of edits, as an editor sends them:
//! the input is the first text, and its bytes choose the edits (ranges anywhere, also past
//! the end of a line or of the text, as a confused client sends them, and replacement text
//! cut from the input). After each edit the text is analysed, and every feature asked at a
//! few offsets: nothing panics, and every range the features give lies inside the text.

use loopconv::lsp::DocumentAnalysis;
use loopconv::lsp::features;
use loopconv::lsp::text::Source;
use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// Edits per input.
const EDITS: usize = 4;

/// One fuzz input: panics on a bug, returns on anything else.
pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data).into_owned();
    let name = if text.trim_start().starts_with('{') {
        "edit.json"
    } else {
        "edit.yaml"
    };
    let mut source = Source::new(text.clone());
    for k in 0..EDITS {
        let at = |i: usize| u32::from(data.get(i % data.len().max(1)).copied().unwrap_or(0));
        let range = Range::new(
            Position::new(at(4 * k) % 40, at(4 * k + 1) * 3),
            Position::new(at(4 * k + 2) % 40, at(4 * k + 3)),
        );
        let cut = text
            .get(..text.len().min(usize::from(at(k) as u8)))
            .unwrap_or("");
        source.apply(TextDocumentContentChangeEvent {
            range: Some(range),
            range_length: None,
            text: cut.to_owned(),
        });
        let current = source.text.clone();
        let a = DocumentAnalysis::new(name, &current);
        ask(&a, data);
    }
}

/// Every feature at a few offsets chosen by the input.
fn ask(a: &DocumentAnalysis, data: &[u8]) {
    let t = a.text();
    let len = t.text.len();
    let inside = |r: Range| {
        let end = t.lines.offset(t.text, r.end);
        assert!(end <= len, "a range past the end: {r:?} in {len} bytes");
    };
    let _ = a.diagnostics(&"file:///edit".parse().expect("a URI"));
    features::symbols(&t, &a.index);
    for &b in data.iter().take(8) {
        let offset = usize::from(b) * len / 256;
        if let Some(r) = features::definition(&t, &a.index, offset) {
            inside(r);
        }
        features::references(&t, &a.index, offset, true)
            .into_iter()
            .for_each(inside);
        let _ = features::completion(&t, &a.index, offset);
        let _ = features::hover(&t, &a.index, a.loaded.doc.as_ref(), None, offset);
        let uri = "file:///edit".parse().expect("a URI");
        let _ = features::rename(&t, &a.index, &uri, offset, "renamed");
    }
}
