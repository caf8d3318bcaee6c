//! Duplicate keys, found by either parser and reported the same way.

use crate::diag::{Code, Diagnostic, Diagnostics};

use super::node::{Document, Span, Syntax};

/// A duplicate key: (pointer of the object, key, span of the repeat, span of the first).
pub(super) type Dup = (String, String, Span, Span);

/// The duplicate keys found, up to a number (the diagnostics a file keeps, `--max-diagnostics`),
/// and how many more: a million repeated keys made a million records before the report
/// was cut.
#[derive(Debug, Default)]
pub(super) struct Dups {
    list: Vec<Dup>,
    max: usize,
    more: usize,
}

impl Dups {
    pub(super) fn new(max: usize) -> Dups {
        Dups {
            list: Vec::new(),
            max,
            more: 0,
        }
    }

    /// Whether any key was given twice in its object.
    pub(super) fn any(&self) -> bool {
        !self.list.is_empty() || self.more > 0
    }

    /// Record a duplicate, made by `dup` only while there is room for it; `false` when it
    /// was only counted.
    pub(super) fn push(&mut self, dup: impl FnOnce() -> Dup) -> bool {
        if self.list.len() < self.max {
            self.list.push(dup());
            true
        } else {
            self.more += 1;
            false
        }
    }
}

pub(super) fn report_duplicates(doc: &Document, dups: Dups, diags: &mut Diagnostics) {
    let code = match doc.syntax {
        Syntax::Json => Code::JsonDuplicateKey,
        Syntax::Yaml => Code::DuplicateKey,
    };
    for (_obj, key, at, first) in dups.list {
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
        let mut d = Diagnostic::new(code, format!("duplicate key {}", crate::diag::quote(&key)))
            .with_note(format!(
                "first defined at line {}, column {}",
                first.line, first.column
            ))
            .with_help(help);
        d.location.pos = Some(doc.pos(at));
        diags.push(d);
    }
    diags.omit(code, dups.more);
}
