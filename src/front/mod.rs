//! Front ends: each format's whole read path, from a located document to the IR.
//!
//! A front end checks the document's shape against its model's schema
//! ([`shape`]), reports the format's own warnings, deserialises the model and
//! lowers it into an [`ir::Spec`](crate::ir::Spec), recording where every value came from
//! (provenance). It never judges the loop's meaning: that is [`crate::valid`]'s job.

pub mod agentpm;
pub mod interop;
pub mod ir;
pub mod mas;
pub mod shape;
pub mod to_model;
pub mod vocabulary;
pub mod xstate;

use serde::de::DeserializeOwned;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::format::Format;
use crate::tree::{Document, Node, ReadLimits, Value};
use shape::Profile;

/// Shape-check `doc` against `format`'s schema and deserialise its model. `None` when a
/// problem leaves no model to build without guessing (wrong types, missing fields).
fn model<M: DeserializeOwned>(
    doc: &Document,
    format: Format,
    profile: &Profile,
    diags: &mut Diagnostics,
) -> Option<M> {
    let verdict = shape::check(doc, format, profile, diags);
    if !verdict.ok && diags.items().iter().any(|d| is_fatal_shape(d.code)) {
        return None;
    }
    match to_model::from_node::<M>(&doc.root, verdict.edits) {
        Ok(m) => Some(m),
        Err(e) => {
            // The shape check accepted something serde did not: report, never panic.
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    format!("the document does not have the {format} shape: {e}"),
                )
                .with_help("this is probably a loopconv bug; please report it with the file"),
            );
            None
        }
    }
}

/// Problems after which the model cannot be built.
fn is_fatal_shape(code: Code) -> bool {
    matches!(
        code,
        Code::WrongType
            | Code::MissingField
            | Code::Yaml11Boolean
            | Code::InvalidValue
            | Code::OutOfRange
            | Code::NonStringKey
    )
}

/// `P013` when the array at `path` holds more phases than the limit allows; `false` then,
/// and the file is not read further.
fn phase_count_fits(
    doc: &Document,
    path: &[&str],
    limits: &ReadLimits,
    diags: &mut Diagnostics,
) -> bool {
    let node = path.iter().try_fold(&doc.root, |n: &Node, k| n.get(k));
    let count = match node.map(|n| &n.value) {
        Some(Value::Array(items)) => items.len(),
        Some(Value::Object(members)) => members.len(),
        _ => return true,
    };
    if count <= limits.max_phases {
        return true;
    }
    diags.push(
        Diagnostic::new(
            Code::TooManyPhases,
            format!(
                "the loop declares {} phases, more than the limit of {}",
                count, limits.max_phases
            ),
        )
        .with_help("split the loop into smaller loops, or raise the limit with `--max-phases`")
        .at_key(format!("/{}", path.join("/"))),
    );
    false
}

/// Whether a document has a top-level key.
fn has_key(root: &Node, key: &str) -> bool {
    root.get(key).is_some()
}
