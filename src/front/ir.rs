//! loopconv's IR JSON: the read path. The document is the IR's own serde form, so reading
//! it is deserialising it and recording the origins of its elements.

use super::{FrontEnd, any_value, default_profile, has_key, no_warning};
use crate::format::Format;
use crate::ir::{Origin, Provenance, Spec, provenance::ir_pointer};
use crate::tree::Node;

/// A document with `source_format` and `graph` is IR JSON.
pub fn claims(root: &Node) -> bool {
    has_key(root, "source_format") && has_key(root, "graph")
}

/// How IR JSON is read: its model is the IR, given the origins of its elements.
pub static FRONT_END: FrontEnd<Spec> = FrontEnd {
    format: Format::Ir,
    phases: Some((&["graph", "phases"], any_value)),
    consumes_tree: true,
    prepare: default_profile,
    warn: no_warning,
    lower: |spec, _| with_origins(spec),
    fold_losses: None,
};

/// Give an IR read from JSON the origins of its own elements.
fn with_origins(mut spec: Spec) -> Spec {
    let g = Origin::new("/graph");
    spec.graph.entry_origin = g.child("entry");
    let (phases, transitions, checkpoints) = (
        g.child("phases"),
        g.child("transitions"),
        g.child("checkpoints"),
    );
    for (i, p) in spec.graph.phases.iter_mut().enumerate() {
        p.origin = phases.item(i);
        for (j, o) in p.outcomes.iter_mut().flatten().enumerate() {
            o.origin = p.origin.child("outcomes").item(j);
        }
    }
    for (i, t) in spec.graph.transitions.iter_mut().enumerate() {
        t.origin = transitions.item(i);
    }
    for (i, c) in spec.graph.checkpoints.iter_mut().flatten().enumerate() {
        c.origin = checkpoints.item(i);
    }
    let checks = Origin::new("/goal/checks");
    for (i, c) in spec.goal.checks.iter_mut().flatten().enumerate() {
        c.origin = checks.item(i);
    }
    for (key, ports) in [
        ("inputs", &mut spec.goal.inputs),
        ("outputs", &mut spec.goal.outputs),
    ] {
        let list = Origin::new(format!("/goal/{key}"));
        for (i, p) in ports.iter_mut().flatten().enumerate() {
            p.origin = list.item(i);
        }
    }
    spec.provenance = Provenance::new(Format::Ir, ir_pointer);
    spec
}
