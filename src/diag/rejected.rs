//! What the front end rejected: the values it reported as given but unusable, passed to
//! validation as data (one cause, one diagnostic).
//!
//! A value is *rejected* when the front end reports it (before validation starts) as
//! unusable as a name, a list or a field: a bad or empty id, an empty or wrong-typed list,
//! an optional field of the wrong type, out of range or not one of its values (left out
//! of the loop, and the rest still read). A member written under a misspelled key
//! (`validtor:` for `validator:`, `outcome:` for `outcomes:`: `F001` with a suggestion
//! renaming the key) is as good as unusable: left out, and reported. A machine that uses
//! an XState feature a loop cannot hold (`F018`) is not the loop read from it: its states
//! are rejected as the loop's graph.
//!
//! The front end records each rejection with the error that reports it
//! ([`Diagnostics::reject`](super::Diagnostics::reject)), so nothing is rejected without a
//! diagnostic that says why; a rule that would judge a rejected value, or find it missing,
//! says nothing. The rules ask by the value's JSON Pointer.

use std::collections::BTreeSet;

use crate::pointer::{self, Pointer};

/// What one error of the front end says of the value at its pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Rejection {
    /// The value cannot be read: it is left out of the loop.
    Value,
    /// The key is not one the format defines (`F001`): its object may lack what a rule
    /// would find missing; `meant` is the field it misspells, when the report renames it.
    UnknownKey {
        /// The field the key misspells.
        meant: Option<String>,
    },
    /// The machine uses a feature a loop cannot hold (`F018`): the value, and the
    /// machine's states as the loop's graph (its phases and transitions, `/states`).
    Machine,
}

/// The values the front end rejected, and the objects that hold a key the format does
/// not define.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rejected {
    /// The pointers of the rejected values.
    values: BTreeSet<String>,
    /// The pointers of the objects that hold an unknown key.
    unknown_in: BTreeSet<String>,
}

/// The pointer of a machine's states, which a refused machine rejects as its graph.
const MACHINE_STATES: &str = "/states";

impl Rejected {
    /// Record what an error at `at` (a value's pointer, or a key's) rejects.
    pub(crate) fn record(&mut self, at: &str, what: Rejection) {
        match what {
            Rejection::Value => {
                self.values.insert(at.to_owned());
            }
            Rejection::Machine => {
                self.values.insert(at.to_owned());
                self.values.insert(MACHINE_STATES.to_owned());
            }
            Rejection::UnknownKey { meant } => {
                let object = Pointer::new(at).parent().as_str().to_owned();
                if let Some(meant) = meant {
                    let mut field = object.clone();
                    pointer::push(&mut field, &meant);
                    self.values.insert(field);
                }
                self.unknown_in.insert(object);
            }
        }
    }

    /// Whether the object at `pointer` holds a key reported as unknown (`F001`).
    pub(crate) fn has_unknown_key(&self, pointer: impl FnOnce() -> String) -> bool {
        !self.unknown_in.is_empty() && self.unknown_in.contains(&pointer())
    }

    /// Whether no value is rejected (the common case: then no pointer is written out).
    pub(crate) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Whether the value at `pointer` is rejected (`pointer` is written out only when
    /// something is).
    pub(crate) fn contains(&self, pointer: impl FnOnce() -> String) -> bool {
        !self.is_empty() && self.values.contains(&pointer())
    }
}
