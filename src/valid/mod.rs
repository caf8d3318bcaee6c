//! Validation: the loop's meaning, after the shape (`shape`) is known to be right.
//!
//! [`validate`] runs in passes, like naga's validator: first reference integrity
//! (`refs`: ids exist and are unique, outcomes have exactly one transition, the policy
//! rules), then the graph ([`graph`]: reachability, trap cycles, shortest success path
//! against `max_steps`). It returns [`Info`], the analysis every back end reuses.
//! Diagnostics point at the elements' origins (JSON Pointers); the read pipeline turns
//! them into lines and columns.

pub mod graph;
mod mas;
pub(crate) mod names;
pub(crate) mod outcomes;
pub(crate) mod refs;
mod unknown;

pub use graph::Info;

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{IdMap, Spec};

/// Validate a loop. Returns the graph analysis.
pub fn validate(spec: &Spec, diags: &mut Diagnostics) -> Info {
    // What the front end rejected: no rule judges it again (one cause, one diagnostic).
    let rejected = diags.take_rejected();
    let (edges_intact, outcomes) = refs::check(spec, &rejected, diags);
    let info = graph::analyse(spec, edges_intact, &outcomes, diags);
    drop(outcomes);
    diags.restore_rejected(rejected);
    info
}

/// Pushing a diagnostic about a value or about a key.
trait Sink {
    /// Push a diagnostic pointing at a value.
    fn value(&mut self, d: Diagnostic);
    /// Push a diagnostic pointing at a key.
    fn key(&mut self, d: Diagnostic);
}

impl Sink for Diagnostics {
    fn value(&mut self, d: Diagnostic) {
        self.push(d);
    }

    fn key(&mut self, mut d: Diagnostic) {
        d.location.on_key = true;
        self.push(d);
    }
}

/// Whether a text is empty or blank (the rules of blank labels, objectives, descriptions
/// and roles).
fn blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// The index of the first of the ids seen so far that is `id`; `id` is recorded at `i`
/// when it is the first.
fn earlier<'a>(first: &mut IdMap<&'a str, usize>, id: &'a str, i: usize) -> Option<usize> {
    match first.entry(id) {
        std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
        std::collections::hash_map::Entry::Vacant(e) => {
            e.insert(i);
            None
        }
    }
}
