//! Validation: the loop's meaning, after the shape (`shape`) is known to be right.
//!
//! [`validate`] runs in passes, like naga's validator: first reference integrity
//! ([`refs`]: ids exist and are unique, outcomes have exactly one transition, the policy
//! rules), then the graph ([`graph`]: reachability, trap cycles, shortest success path
//! against `max_steps`). It returns [`Info`], the analysis every back end reuses.

pub mod graph;
pub mod refs;
pub mod shape;

pub use graph::Info;

use crate::diag::Diagnostics;
use crate::ir::Spec;
use crate::tree::Document;

/// Validate a loop. Diagnostics are located through `doc` when given (the source the IR
/// was read from). Returns the graph analysis.
pub fn validate(spec: &Spec, doc: Option<&Document>, diags: &mut Diagnostics) -> Info {
    let mut sink = Sink { doc, diags };
    let edges_intact = refs::check(spec, &mut sink);
    graph::analyse(spec, edges_intact, &mut sink)
}

/// Pushes diagnostics, locating them through the source document when there is one.
pub struct Sink<'a> {
    doc: Option<&'a Document>,
    diags: &'a mut Diagnostics,
}

impl Sink<'_> {
    /// Push a diagnostic pointing at a value.
    pub fn value(&mut self, d: crate::diag::Diagnostic) {
        self.push(d, false);
    }

    /// Push a diagnostic pointing at a key.
    pub fn key(&mut self, d: crate::diag::Diagnostic) {
        self.push(d, true);
    }

    fn push(&mut self, d: crate::diag::Diagnostic, key: bool) {
        match self.doc {
            Some(doc) => self.diags.push_at(d, doc, key),
            None => self.diags.push(d),
        }
    }
}
