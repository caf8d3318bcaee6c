//! The words a drawing says of its loop: the access line of a phase, the MAS role on a
//! phase, the note on the escalation edge and the subtitle.

use super::{ROLE_CHARS, clean, shorten};
use crate::ir::{Access, FixedLoop, LoopPattern, Role, Spec};

/// The access intent in one compact line, e.g. `tools · knowledge · mem r/w` or
/// `no tools · mem r`. An omitted key is "no opinion" and shows nothing; an explicit
/// `false` shows as `no …`. `None` when there is nothing to show.
pub fn access_summary(access: Option<&Access>) -> Option<String> {
    let a = access?;
    let tools = a.tools.map(|t| if t { "tools" } else { "no tools" });
    let knowledge = a
        .knowledge
        .map(|k| if k { "knowledge" } else { "no knowledge" });
    let memory = a.memory.as_ref().and_then(|m| match (m.read, m.write) {
        (Some(true), Some(true)) => Some("mem r/w"),
        (Some(true), Some(false)) => Some("mem r (no w)"),
        (Some(true), None) => Some("mem r"),
        (Some(false), Some(true)) => Some("mem w (no r)"),
        (None, Some(true)) => Some("mem w"),
        (Some(false), Some(false)) => Some("no mem"),
        (Some(false), None) => Some("no mem r"),
        (None, Some(false)) => Some("no mem w"),
        (None, None) => None,
    });
    let mut out = String::new();
    for part in [tools, knowledge, memory].into_iter().flatten() {
        if !out.is_empty() {
            out.push_str(" · ");
        }
        out.push_str(part);
    }
    (!out.is_empty()).then_some(out)
}

pub(super) fn is_mas(spec: &Spec) -> bool {
    matches!(spec.pattern, LoopPattern::Real | LoopPattern::Veal)
}

/// The MAS role shown on a phase of a REAL/VEAL loop.
pub(super) fn role_of(spec: &Spec, phase_id: &str) -> Option<String> {
    let (word, agent) = match FixedLoop::of(spec.pattern)?.role_of(phase_id)? {
        Role::Validator => ("validator", spec.roles.validator.as_ref()?),
        Role::Actor => ("actor", spec.roles.actor.as_ref()?),
    };
    Some(format!("{word}: {}", shorten(agent, ROLE_CHARS)))
}

/// The escalation note on a MAS `escalate` edge.
pub(super) fn escalation_note(spec: &Spec) -> String {
    let e = spec.effective_escalation();
    match (e, &spec.roles.fallback_agent) {
        (crate::ir::Escalation::Fallback, Some(agent)) => {
            format!("escalation: fallback → {}", shorten(agent, ROLE_CHARS))
        }
        // `$end` is success everywhere else: this edge says it is not.
        (crate::ir::Escalation::Continue, _) => {
            "escalation: continue · ends, issues unresolved".to_owned()
        }
        _ => format!("escalation: {}", e.as_str()),
    }
}

/// The line under a drawing's title: the pattern or archetype, and the step or attempt
/// limit.
pub(super) fn subtitle(spec: &Spec) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    match spec.pattern {
        LoopPattern::Real => parts.push("REAL loop".into()),
        LoopPattern::Veal => parts.push("VEAL loop".into()),
        LoopPattern::General => {
            // The archetype, unless it only repeats the name.
            let name = clean(&spec.name);
            let archetype = spec.archetype.as_deref().map(clean);
            if let Some(a) = archetype.filter(|a| !a.is_empty() && *a != name) {
                parts.push(shorten(&a, 40).into_owned());
            }
        }
    }
    if is_mas(spec) {
        parts.push(format!("max {} attempts", spec.effective_max_attempts()));
    } else if let Some(m) = spec.bounds.max_steps {
        parts.push(format!("max {m} steps"));
    }
    if parts.is_empty() {
        None
    } else {
        Some(parts.join(" · "))
    }
}
