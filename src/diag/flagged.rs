//! The values an earlier stage already reported as unusable: one cause, one diagnostic.
//!
//! A value is *flagged* when the front end reported it (before validation starts) as
//! unusable as a name, a list or a field: a bad or empty id, an empty or wrong-typed list,
//! an optional field of the wrong type, out of range or not one of its values (left out
//! of the loop, and the rest still read). A member written under a misspelled key
//! (`validtor:` for `validator:`, `outcome:` for `outcomes:`: `F001` with a suggestion
//! renaming the key) is as good as unusable: left out, and reported.
//!
//! A rule that would judge a flagged value, or find it missing, says nothing: only a
//! reported error excuses anything, so nothing is silenced without a diagnostic that says
//! why. This is the one record of what was given but could not be read; the rules ask it
//! by the value's JSON Pointer.

use std::collections::BTreeSet;

use super::{Code, Diagnostics, Severity, Suggestion};
use crate::pointer::{self, Pointer};

/// Codes whose diagnostic says the value at its pointer is unusable.
fn invalidates(code: Code) -> bool {
    matches!(
        code,
        Code::InvalidId
            | Code::InvalidName
            | Code::EmptyString
            | Code::WrongType
            | Code::EmptyCollection
            | Code::Yaml11Boolean
            | Code::InvalidValue
            | Code::OutOfRange
    )
}

/// The pointers of the flagged values, and of the objects that hold a key the format does
/// not define (`F001`: what it holds may be what a rule would find missing).
pub(crate) struct Flagged(BTreeSet<String>, BTreeSet<String>);

impl Flagged {
    /// The values the errors in `sink` flag.
    pub(crate) fn reported(sink: &Diagnostics) -> Self {
        let errors = sink
            .items()
            .iter()
            .filter(|d| d.severity == Severity::Error);
        let unusable = errors
            .clone()
            .filter(|d| invalidates(d.code))
            .map(|d| d.location.pointer.clone());
        // A machine that uses an XState feature a loop cannot hold (`F018`: nested or
        // parallel states, guarded candidates, `always`, a child or wildcard target) is not
        // the loop read from it: its states (its phases and transitions, `/states`) are not
        // judged as a graph, so that no `V` code follows from the refusal.
        let refused = errors
            .clone()
            .filter(|d| d.code == Code::XstateUnsupported)
            .flat_map(|d| [d.location.pointer.clone(), "/states".to_owned()]);
        let unknown_in = errors
            .clone()
            .filter(|d| d.code == Code::UnknownField)
            .map(|d| {
                Pointer::new(&d.location.pointer)
                    .parent()
                    .as_str()
                    .to_owned()
            })
            .collect();
        let misspelled = errors
            .filter(|d| d.code == Code::UnknownField)
            .filter_map(|d| match d.suggestions.first() {
                Some(Suggestion::Replace { target, with }) if target.key => {
                    let mut field = Pointer::new(&target.pointer).parent().as_str().to_owned();
                    pointer::push(&mut field, with);
                    Some(field)
                }
                _ => None,
            });
        Flagged(
            unusable.chain(refused).chain(misspelled).collect(),
            unknown_in,
        )
    }

    /// Whether the object at `pointer` holds a key reported as unknown (`F001`).
    pub(crate) fn has_unknown_key(&self, pointer: impl FnOnce() -> String) -> bool {
        !self.1.is_empty() && self.1.contains(&pointer())
    }

    /// Whether nothing is flagged (the common case: then no pointer is written out).
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the value at `pointer` is flagged (`pointer` is written out only when
    /// something is).
    pub(crate) fn contains(&self, pointer: impl FnOnce() -> String) -> bool {
        !self.is_empty() && self.0.contains(&pointer())
    }
}
