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

use serde::de::DeserializeOwned;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::format::Format;
use crate::tree::{Document, Node, ReadLimits, Value};
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

/// The front end is done with the tree: the diagnostics found so far are given their
/// positions while it is there, then it is freed unless it is kept.
fn done_with_tree(doc: &mut Document, tree: TreeUse, diags: &mut Diagnostics) {
    if matches!(tree, TreeUse::Keep) {
        return;
    }
    // A tree already consumed ([`model_from_tree`]) would be read again to locate them (a
    // YAML tree: there is no scan of its text); the reader locates them all at its end.
    if doc.holds_tree() {
        diags.locate_missing(doc);
    }
    doc.release_tree();
    if let TreeUse::ReleaseThen(then) = tree {
        then();
    }
}

/// Inputs from this size on are deserialised while their shape is checked, on another
/// core ([`model`]): the two read the same tree, and each was an eighth to a fifth of
/// checking a 10,000-phase loop (60 M and 105 M of its 490 M instructions). Smaller
/// inputs stay on one thread, so that a small file never starts the thread pool.
const DESERIALISE_ALONGSIDE: usize = 1 << 20;

/// Inputs below this size have their model read by consuming the tree, after the shape
/// check, by the front ends that need the tree no more ([`model_from_tree`]): there the
/// fixed cost of a process is a larger part of the memory, and the tree and the model of
/// the 1.6 MB `short` loop, held together, took its `check` to 12x its size. Larger inputs
/// are deserialised alongside the check, where tree and model together stay within 8x.
const CONSUME_TREE_BELOW: usize = 4 << 20;

/// Shape-check `doc` against `format`'s schema and deserialise its model. `None` when a
/// problem leaves no model to build without guessing (wrong types, missing fields).
///
/// A large input is deserialised as it is written while the shape check runs; that model
/// is kept when the check asks for no edit (no unknown key to leave out, no whole float
/// to read as an integer): it is then the model the check's edits would have given. Any
/// other input is deserialised again, with the edits.
fn model<M: DeserializeOwned + Send>(
    doc: &Document,
    format: Format,
    profile: &Profile,
    diags: &mut Diagnostics,
) -> Option<M> {
    let alongside = doc.text.len() >= DESERIALISE_ALONGSIDE;
    model_in(doc, format, profile, diags, alongside)
}

/// [`model`] for a front end that needs no more of the tree than its model: then, unless
/// `tree` keeps it or the input is large ([`CONSUME_TREE_BELOW`]), the model is
/// read from the tree by consuming it ([`to_model::from_tree`]), so that the two are never
/// both held whole (for a 10,000-phase loop of one-word texts, a tree of 7.5 MB and a model
/// of 2.9 MB, most of it strings, which are moved instead of copied). The diagnostics
/// found so far are located first; later ones are located from the text at the end of the
/// read. The front end still calls [`done_with_tree`], which then frees nothing.
fn model_from_tree<M: DeserializeOwned + Send>(
    doc: &mut Document,
    format: Format,
    profile: &Profile,
    tree: TreeUse,
    diags: &mut Diagnostics,
) -> Option<M> {
    if doc.text.len() >= CONSUME_TREE_BELOW || matches!(tree, TreeUse::Keep) {
        return model(doc, format, profile, diags);
    }
    let verdict = shape::check(doc, format, profile, diags);
    if leaves_no_model(&verdict, diags) {
        return None;
    }
    diags.locate_missing(doc);
    let read = to_model::from_tree::<M>(doc, verdict.edits);
    let model = read.map_err(|e| diags.push(not_read(format, &e))).ok()?;
    Some(model)
}

/// The shape check accepted something serde did not: reported, never a panic.
fn not_read(format: Format, e: &to_model::Error) -> Diagnostic {
    Diagnostic::new(
        Code::WrongType,
        format!("the document does not have the {format} shape: {e}"),
    )
    .with_help("this is probably a loopconv bug; please report it with the file")
}

/// [`model`], deserialising alongside the shape check or not.
fn model_in<M: DeserializeOwned + Send>(
    doc: &Document,
    format: Format,
    profile: &Profile,
    diags: &mut Diagnostics,
    alongside: bool,
) -> Option<M> {
    let (verdict, as_written) = if alongside {
        // The model, which is kept, is built on this thread; the shape check, which keeps
        // little, runs on the other.
        let (as_written, verdict) = rayon::join(
            || to_model::from_node::<M>(doc.root(), to_model::Edits::default()).ok(),
            || shape::check(doc, format, profile, diags),
        );
        (verdict, as_written)
    } else {
        (shape::check(doc, format, profile, diags), None)
    };
    if leaves_no_model(&verdict, diags) {
        return None;
    }
    match as_written {
        Some(m) if verdict.edits.is_empty() => return Some(m),
        // Not the model the edits give: freed before that one is built.
        other => drop(other),
    }
    let read = to_model::from_node::<M>(doc.root(), verdict.edits);
    let model = read.map_err(|e| diags.push(not_read(format, &e))).ok()?;
    Some(model)
}

/// Whether the shape check found a problem after which the model cannot be built (a YAML
/// key that is no string, reported by the parser, is one).
fn leaves_no_model(verdict: &shape::Verdict, diags: &Diagnostics) -> bool {
    !verdict.ok
        && (verdict.unreadable || (diags.items().iter()).any(|d| d.code == Code::NonStringKey))
}

/// `P013` when the array at `path` holds more phases than the limit allows; `false` then,
/// and the file is not read further.
fn phase_count_fits(
    doc: &Document,
    path: &[&str],
    limits: &ReadLimits,
    diags: &mut Diagnostics,
) -> bool {
    phases_fit(doc, path, |_| true, limits, diags)
}

/// [`phase_count_fits`], counting only the values `is_phase` accepts (an XState machine's
/// states are its phases, its checkpoints' gates and its terminals: only the first count).
fn phases_fit(
    doc: &Document,
    path: &[&str],
    is_phase: impl Fn(&Node) -> bool,
    limits: &ReadLimits,
    diags: &mut Diagnostics,
) -> bool {
    let node = path.iter().try_fold(doc.root(), |n: &Node, k| n.get(k));
    let count = match node.map(|n| &n.value) {
        Some(Value::Array(items)) => items.iter().filter(|n| is_phase(n)).count(),
        Some(Value::Object(members)) => members.iter().filter(|m| is_phase(&m.value)).count(),
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

#[cfg(test)]
mod tests {

    use super::{Diagnostics, Profile, model_in, vocabulary};
    use crate::Format;
    use crate::tree::ReadLimits;
    /// An AgentPM loop of `n` phases in a chain, with `extra` spliced into its first phase.
    fn chain(n: usize, extra: &str) -> String {
        let phases: Vec<String> = (0..n)
            .map(|i| {
                let more = if i == 0 { extra } else { "" };
                format!(
                    r#"{{"id":"p{i}","objective":"step {i}","outcomes":[{{"id":"next","description":"on"}}]{more}}}"#
                )
            })
            .collect();
        let transitions: Vec<String> = (0..n)
            .map(|i| {
                let to = if i + 1 == n {
                    "$end".to_owned()
                } else {
                    format!("p{}", i + 1)
                };
                format!(r#"{{"from":"p{i}","on":"next","to":"{to}"}}"#)
            })
            .collect();
        format!(
            r#"{{"$schema":"https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json","kind":"loop","name":"chain","version":"0.1.0","description":"d","loop":{{"entry_phase":"p0","limits":{{"max_steps":{n}.0}},"phases":[{}],"transitions":[{}]}}}}"#,
            phases.join(","),
            transitions.join(",")
        )
    }

    /// Deserialising alongside the shape check gives the model and the diagnostics of
    /// doing it after: as written, with a whole float read as an integer, with an unknown
    /// key left out, and with a value of the wrong type.
    #[test]
    fn the_model_read_alongside_the_shape_check_is_the_model_read_after_it() {
        let cases = [
            chain(3000, "").replace(r#""max_steps":3000.0"#, r#""max_steps":3000"#),
            chain(3000, ""),
            chain(3000, r#","colour":"red""#),
            chain(3000, r#","objective2":1"#)
                .replace(r#""max_steps":3000.0"#, r#""max_steps":3000"#),
            chain(3000, "").replace(r#""objective":"step 7""#, r#""objective":7"#),
        ];
        let mut with_diags = 0;
        for text in cases {
            let read = |alongside: bool| {
                let mut diags = Diagnostics::new("big.json");
                let keys = &vocabulary::KEYS;
                let doc =
                    crate::tree::parse_json(text.clone(), keys, &ReadLimits::default(), &mut diags)
                        .expect("parses");
                let m: Option<crate::model::agentpm::Manifest> = model_in(
                    &doc,
                    Format::Agentpm,
                    &Profile::default(),
                    &mut diags,
                    alongside,
                );
                (format!("{m:?}"), format!("{:?}", diags.items()))
            };
            let (one, two) = (read(false), read(true));
            assert_eq!(one, two);
            with_diags += usize::from(one.1 != "[]");
        }
        assert_eq!(with_diags, 3, "three of the cases have diagnostics");
    }
}
