//! Front ends: each format's whole read path, from a located document to the IR.
//!
//! A front end checks the document's shape against its model's schema
//! ([`shape`]), reports the format's own warnings, deserialises the model and
//! lowers it into an [`ir::Spec`](crate::ir::Spec), recording where every value came from
//! (provenance). It never judges the loop's meaning: that is [`crate::valid`]'s job.

pub mod agentpm;
pub mod interop;
pub mod ir;
pub mod kind;
pub mod mas;
pub mod shape;
pub mod to_model;
pub mod vocabulary;
pub mod xstate;

use crate::diag::Diagnostics;
use crate::format::Format;
use crate::ir::Spec;
use crate::tree::{Document, Node};
use shape::Profile;

/// What a front end does with the located tree once its model is built.
#[derive(Debug, Clone, Copy, Default)]
pub enum TreeUse {
    /// Free it ([`Document::release_tree`]): the model holds what the IR needs, and a
    /// diagnostic found later is located from the text.
    #[default]
    Release,
    /// Free it, then call the function: the binary hands the freed memory back to the
    /// system there (the library knows no allocator), the largest block a read frees.
    ReleaseThen(fn()),
    /// Keep it, for a caller that reads it afterwards (the language server's index).
    Keep,
}

/// What the read driver (`pipeline`) needs of a format whose model is `M`: a small
/// descriptor each front end gives, so that the pipeline owns a document's life (the
/// phase-count limit, the shape check, the model, positions, the tree's release) and the
/// front end says only what is its own.
pub struct FrontEnd<M> {
    /// The format read.
    pub format: Format,
    /// Where the phases are (`P013`), and which values there count as phases; `None`: the
    /// format's phases are not listed in the document (multi-agent-spec).
    pub phases: Option<Phases>,
    /// Whether the model is all the front end needs of the tree: then a small input's model
    /// is read by consuming the tree (the two are never both held whole).
    pub consumes_tree: bool,
    /// The format's warnings on the tree before the shape check, and the shape check's
    /// profile for the document.
    pub prepare: fn(&Document, &mut Diagnostics) -> Profile,
    /// The format's warnings on the model (the tree is still there unless consumed).
    pub warn: fn(&M, &Document, &mut Diagnostics),
    /// Lower the model into the IR, recording provenance.
    pub lower: fn(M, &mut Diagnostics) -> Spec,
    /// Make the losses of reading (`B001`, warnings at their places) one error, unless
    /// they are allowed (`--allow-lossy`); `None`: the format's reading loses nothing.
    pub fold_losses: Option<fn(&mut Diagnostics)>,
}

/// Where a document lists its phases: the keys from the root to the list, and which of
/// its values count as phases (an XState machine's states are its phases, its
/// checkpoints' gates and its terminals: only the first count).
pub type Phases = (&'static [&'static str], fn(&Node) -> bool);

/// Every value of a list counts as a phase.
pub(crate) fn any_value(_: &Node) -> bool {
    true
}

/// No warning on the tree before the shape check, and the default profile.
pub(crate) fn default_profile(_: &Document, _: &mut Diagnostics) -> Profile {
    Profile::default()
}

/// No warning on the model.
pub(crate) fn no_warning<M>(_: &M, _: &Document, _: &mut Diagnostics) {}

/// Whether a document has a top-level key.
fn has_key(root: &Node, key: &str) -> bool {
    root.get(key).is_some()
}
