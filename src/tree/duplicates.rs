//! Duplicate keys, found by either parser and reported the same way.

use crate::diag::{Code, Diagnostic, Diagnostics};

use super::node::{Document, Span, Syntax};

/// A duplicate key: (pointer of the object, key, span of the repeat, span of the first).
pub(super) type Dup = (String, String, Span, Span);

pub(super) fn report_duplicates(doc: &Document, dups: Vec<Dup>, diags: &mut Diagnostics) {
    for (_obj, key, at, first) in dups {
        let first = doc.pos(first);
        // JSON: upstream readers keep the last value, and so does loopconv: a warning.
        // YAML forbids duplicate keys: an error.
        let (code, help) = match doc.syntax {
            Syntax::Json => (
                Code::JsonDuplicateKey,
                "remove one of the two; the last value is used, as upstream readers do",
            ),
            Syntax::Yaml => (
                Code::DuplicateKey,
                "remove one of the two; readers disagree on which one wins",
            ),
        };
        let mut d = Diagnostic::new(code, format!("duplicate key `{key}`"))
            .with_note(format!(
                "first defined at line {}, column {}",
                first.line, first.column
            ))
            .with_help(help);
        d.location.pos = Some(doc.pos(at));
        diags.push(d);
    }
}
