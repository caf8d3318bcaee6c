//! Where a fact of a document is: its pointer and its resolved position, so that a rule can
//! point into a file whose tree is gone.

use crate::diag::{Diagnostic, EditTarget, Label, Locate as _, Location, Pos, Suggestion};
use crate::tree::Document;

/// A value (or key) of a document, located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct At {
    /// The file's name as diagnostics show it.
    pub file: String,
    /// The JSON Pointer to the value.
    pub pointer: String,
    /// Whether the key of the member is meant.
    pub key: bool,
    /// Its position, once located (a loop's facts are located only when a diagnostic
    /// needs them: its tree is gone once it is read).
    pub pos: Option<Pos>,
    /// Just past it, once located.
    pub end: Option<Pos>,
}

impl At {
    /// The value (or key) at `pointer` in `doc` (at its nearest located ancestor when it
    /// names nothing).
    pub fn of(file: &str, doc: &Document, pointer: &str, key: bool) -> At {
        let (pos, end) = match doc.locate_exact(pointer, key) {
            Some(found) => found,
            None => {
                let p = doc.locate(pointer, key).unwrap_or(Pos::START);
                (p, p)
            }
        };
        At {
            file: file.to_owned(),
            pointer: pointer.to_owned(),
            key,
            pos: Some(pos),
            end: Some(end),
        }
    }

    /// The value at `pointer` of `file`, not located yet.
    pub fn unlocated(file: &str, pointer: &str) -> At {
        At {
            file: file.to_owned(),
            pointer: pointer.to_owned(),
            key: false,
            pos: None,
            end: None,
        }
    }

    /// The location of a diagnostic or label here.
    pub fn location(&self) -> Location {
        Location {
            file: self.file.clone(),
            file_bytes: None,
            pointer: self.pointer.clone(),
            pos: self.pos,
            on_key: self.key,
        }
    }

    /// A label here (in this file, whichever file the diagnostic is in).
    pub fn label(&self, message: impl Into<String>) -> Label {
        Label {
            message: message.into(),
            location: self.location(),
        }
    }

    /// `d` placed here.
    pub fn place(&self, mut d: Diagnostic) -> Diagnostic {
        d.location = self.location();
        d
    }

    /// "Did you mean `with`?": replace the value here.
    pub fn replace_with(&self, with: &str) -> Suggestion {
        let mut target = EditTarget::value(self.pointer.clone());
        target.key = self.key;
        target.pos = self.pos;
        target.end = self.end;
        Suggestion::Replace {
            target,
            with: with.to_owned(),
        }
    }
}
