//! A loop's effective values: every default the formats define written out, so that a
//! default written out or left out is the same loop (the semantic diff and the loss
//! report's tests compare these).
//!
//! * multi-agent-spec (seed 004): `max_attempts` 3, `escalation: human`, a check's
//!   `required: true`;
//! * AgentPM (formats.md 1.2, 1.3, 1.6): an empty `checkpoints` list is none, an `access`
//!   or `memory` object without keys says nothing, a tool failure without a rule fails the
//!   phase;
//! * conversions (mapping.md): a loop without a version has `0.1.0`, the placeholder
//!   description of a converted MAS loop is no description, empty MAS lists are none, and
//!   `$schema` (which only points editors at a schema) is not part of the loop.
//!
//! [`lift`] reads a general graph with a fixed loop's shape as that fixed loop, for
//! comparing a MAS loop with a graph: the MAS loop its objectives carry, when they carry
//! one, otherwise the pattern, `max_attempts` and escalation its structure says.

use super::{Escalation, FixedLoop, LoopPattern, Spec, Terminal, ToolAction, ToolFailure, carried};

/// `spec` with every default written out. A graph written from a MAS loop
/// ([`carried::decode`]) is written again from that loop with its defaults written out, so
/// that its objectives do not differ by a default either.
pub fn with_defaults(spec: &Spec) -> Spec {
    let mut s = spec.clone();
    mas_defaults(&mut s);
    if let Some(mut carried) = carried::decode(spec) {
        mas_defaults(&mut carried);
        // Only the objectives carry the loop: the graph's own access and outcome
        // descriptions stay.
        let written = carried::derive_graph_named_as(&carried, spec);
        for p in &mut s.graph.phases {
            if let Some(w) = written.phases.iter().find(|w| w.id == p.id) {
                p.objective.clone_from(&w.objective);
            }
        }
    }
    if s.description.as_deref() == Some(&carried::placeholder_description(&s.name, s.pattern)) {
        s.description = None;
    }
    s.version
        .get_or_insert_with(|| carried::DEFAULT_VERSION.to_owned());
    s.schema_uri = None;
    let graph = &mut s.graph;
    if graph.checkpoints.as_ref().is_some_and(Vec::is_empty) {
        graph.checkpoints = None;
    }
    for p in &mut graph.phases {
        access_defaults(p);
    }
    if let Some(policy) = &mut s.bounds.error_policy {
        policy.tool_failure.get_or_insert(ToolFailure {
            action: ToolAction::FailPhase,
            max_retries: None,
            on_exhausted: None,
        });
    }
    s
}

/// The MAS defaults (seed 004): `max_attempts` 3, `escalation: human`, a check's
/// `required: true`; empty lists are none.
fn mas_defaults(s: &mut Spec) {
    if matches!(s.pattern, LoopPattern::Real | LoopPattern::Veal) {
        s.bounds.max_attempts = Some(s.effective_max_attempts());
        s.bounds.escalation = Some(s.effective_escalation());
    }
    let g = &mut s.goal;
    for list in [&mut g.inputs, &mut g.outputs] {
        if list.as_ref().is_some_and(Vec::is_empty) {
            *list = None;
        }
    }
    if g.checks.as_ref().is_some_and(Vec::is_empty) {
        g.checks = None;
    }
    for c in g.checks.iter_mut().flatten() {
        c.required.get_or_insert(true);
    }
}

/// An access (or memory) object without keys says nothing: it is no object.
fn access_defaults(p: &mut super::Phase) {
    if let Some(a) = &mut p.access {
        if a.memory
            .as_ref()
            .is_some_and(|m| m.read.is_none() && m.write.is_none())
        {
            a.memory = None;
        }
        if a.tools.is_none() && a.knowledge.is_none() && a.memory.is_none() {
            p.access = None;
        }
    }
}

/// A general graph with a fixed loop's shape, as that fixed loop. A graph written from a
/// MAS loop ([`carried::decode`]) is that loop, with the graph's own package fields; any
/// other graph of the shape gets the fixed loop's pattern, `max_attempts` from `max_steps`
/// (rounded up) and the escalation its `escalate` outcome leads to (`$handoff`: `human`).
/// Any other loop is returned as it is.
pub fn lift(spec: &Spec) -> Spec {
    if spec.pattern != LoopPattern::General {
        return spec.clone();
    }
    if let Some(carried) = carried::decode(spec) {
        let mut s = spec.clone();
        s.pattern = carried.pattern;
        s.roles = carried.roles;
        s.goal = carried.goal;
        s.bounds.max_attempts = carried.bounds.max_attempts;
        s.bounds.escalation = carried.bounds.escalation;
        return s;
    }
    lift_shape(spec)
}

/// A general graph with a fixed loop's shape, as that fixed loop, from its structure only
/// (not its text): the pattern, `max_attempts` from `max_steps` (rounded up) and the
/// escalation its `escalate` outcome leads to (`$handoff`: `human`).
pub fn lift_shape(spec: &Spec) -> Spec {
    let mut s = spec.clone();
    if s.pattern != LoopPattern::General {
        return s;
    }
    let Some(shape) = FixedLoop::recognise(&s) else {
        return s;
    };
    s.pattern = shape.fixed.pattern;
    s.bounds.max_attempts = s.bounds.max_steps.map(carried::attempts_for);
    s.bounds.escalation = Some(match shape.escalate_to {
        Terminal::Handoff => Escalation::Human,
        Terminal::Abort => Escalation::Abort,
        Terminal::End => Escalation::Continue,
    });
    s
}

/// Two loops as they are compared: each with its defaults written out, and a general
/// graph lifted ([`lift`]) when the other loop is a MAS loop. A lifted graph without
/// `max_steps` has no `max_attempts`: its runs are bounded by the runtime's ceiling only,
/// not by the MAS default of 3 attempts, so that the two compare as different limits.
///
/// Two graphs that were both written from MAS loops ([`carried::decode`]) are lifted too:
/// compared as the MAS loops they carry, so that a change gets the verdict it gets
/// between the MAS files (a check's command is a structured field, not a word of an
/// objective).
pub fn pair(old: &Spec, new: &Spec) -> (Spec, Spec) {
    let carries = |s: &Spec| s.pattern != LoopPattern::General || carried::decode(s).is_some();
    let both = carries(old) && carries(new);
    let mas = |s: &Spec| s.pattern != LoopPattern::General || both;
    let side = |s: &Spec, other: &Spec| {
        if !mas(other) {
            return with_defaults(s);
        }
        let mut lifted = with_defaults(&lift(s));
        if s.pattern == LoopPattern::General && s.bounds.max_steps.is_none() {
            lifted.bounds.max_attempts = None;
        }
        lifted
    };
    (side(old, new), side(new, old))
}
