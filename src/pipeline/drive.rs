//! The read driver: a located document's life as a loop, whichever its format.
//!
//! The phase-count limit, the shape check, the model (deserialised from the tree,
//! alongside the shape check or by consuming the tree), the format's warnings, the
//! tree's release and the lowering into the IR run here, in that order, for every format;
//! each front end gives what is its own in a [`FrontEnd`] descriptor. Positions are
//! resolved here too ([`locate`]): while the tree is there, and once more at the end of a
//! read for the diagnostics found after it is gone.

use serde::de::DeserializeOwned;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::format::Format;
use crate::front::shape::{self, Profile};
use crate::front::{FrontEnd, TreeUse, to_model};
use crate::ir::Spec;
use crate::tree::{Document, Node, ReadLimits, Value};

/// Read a located document with the front end `fe`: `None` when the loop could not be
/// built (the reasons are in `diags`). The tree is freed once the model is built unless
/// `tree` keeps it; with `lossy`, what a loop can do without is dropped, each loss a
/// warning, else the losses are one error ([`FrontEnd::fold_losses`]).
pub(super) fn read<M: DeserializeOwned + Send>(
    fe: &FrontEnd<M>,
    doc: &mut Document,
    limits: &ReadLimits,
    tree: TreeUse,
    lossy: bool,
    diags: &mut Diagnostics,
) -> Option<Spec> {
    if let Some((path, is_phase)) = fe.phases
        && !phases_fit(doc, path, is_phase, limits, diags)
    {
        return None;
    }
    let profile = (fe.prepare)(doc, diags);
    let model: M = if fe.consumes_tree {
        model_from_tree(doc, fe.format, &profile, tree, diags)?
    } else {
        model(doc, fe.format, &profile, diags)?
    };
    (fe.warn)(&model, doc, diags);
    done_with_tree(doc, tree, diags);
    let spec = (fe.lower)(model, diags);
    if let Some(fold) = fe.fold_losses
        && !lossy
    {
        // The losses are listed in the order of their positions.
        locate(doc, diags);
        fold(diags);
    }
    Some(spec)
}

/// Give every diagnostic that has none yet its position in `doc` (the one place of the
/// read path where pointers become lines and columns).
pub(super) fn locate(doc: &Document, diags: &mut Diagnostics) {
    diags.locate_missing(doc);
}

/// The front end is done with the tree: the diagnostics found so far are given their
/// positions while it is there ([`locate`]), then it is freed unless it is kept.
fn done_with_tree(doc: &mut Document, tree: TreeUse, diags: &mut Diagnostics) {
    if matches!(tree, TreeUse::Keep) {
        return;
    }
    // A tree already consumed ([`model_from_tree`]) would be read again to locate them (a
    // YAML tree: there is no scan of its text); the reader locates them all at its end.
    if doc.holds_tree() {
        locate(doc, diags);
    }
    doc.release_tree();
    if let TreeUse::ReleaseThen(then) = tree {
        then();
    }
}

/// Inputs from this size on are deserialised while their shape is checked, on another
/// core ([`model`]), since each is a large part of reading them (measured in the guide's
/// Performance chapter); smaller inputs stay on one thread, never starting the pool.
const DESERIALISE_ALONGSIDE: usize = 1 << 20;

/// Inputs below this size have their model read by consuming the tree, after the shape
/// check, by the front ends that need the tree no more ([`model_from_tree`]), so that tree
/// and model are never both held (the guide's Performance chapter has the measurements);
/// larger inputs are deserialised alongside the check ([`DESERIALISE_ALONGSIDE`]).
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
/// both held whole (each string is moved, not copied). The diagnostics found so far are
/// located first; later ones are located from the text at the end of the read.
/// [`done_with_tree`] then frees nothing.
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
    locate(doc, diags);
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

/// `P013` when the list at `path` holds more phases (values `is_phase` accepts: an XState
/// machine's states are its phases, its checkpoints' gates and its terminals, and only the
/// first count) than the limit allows; `false` then, and the file is not read further.
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

#[cfg(test)]
mod tests {

    use super::{Diagnostics, Profile, model_in};
    use crate::Format;
    use crate::front::vocabulary;
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
