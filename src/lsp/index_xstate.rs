//! The index of an XState machine ([`crate::model::xstate`]): each state is declared by
//! its key (a phase; a checkpoint's gate and a final state too, so that a jump or a rename
//! reaches every target), each event of its `on` is an outcome and a transition, and
//! `initial` and every event's target refer to a state.

use super::index::{
    Index, OutcomeDecl, PhaseDecl, RefKind, TransitionDecl, as_id, str_of, text_at,
};
use crate::tree::{Document, Member, Node, Value};

/// Index a machine's states.
pub fn build(doc: &Document) -> Index {
    let mut index = Index::default();
    if let Some(n) = doc.root().get("initial") {
        index.reference(RefKind::Entry, n, None);
    }
    let states = doc
        .root()
        .get("states")
        .and_then(Node::members)
        .unwrap_or(&[]);
    for state in states {
        add_state(&mut index, state);
    }
    index
}

fn add_state(index: &mut Index, state: &Member) {
    let id = as_id(state.key.as_str());
    let events = state.value.get("on").and_then(Node::members).unwrap_or(&[]);
    let mut outcomes = Vec::new();
    for event in events {
        let target = match &event.value.value {
            Value::Object(_) => event.value.get("target"),
            _ => Some(&event.value),
        };
        if let Some(t) = target {
            index.reference(RefKind::To, t, None);
        }
        index.transitions.push(TransitionDecl {
            from: Some(id.clone()),
            on: Some(as_id(event.key.as_str())),
            to: target.and_then(str_of),
            span: event.value.span.into(),
        });
        outcomes.push(OutcomeDecl {
            id: as_id(event.key.as_str()),
            id_span: event.key_span.into(),
            span: event.value.span.into(),
            description: text_at(&event.value, "description"),
        });
    }
    index.phases.push(PhaseDecl {
        id,
        id_span: state.key_span.into(),
        span: state.value.span.into(),
        objective: text_at(&state.value, "description"),
        access: None,
        outcomes,
    });
}

#[cfg(test)]
mod tests {
    use super::super::index::Symbol;
    use crate::lsp::DocumentAnalysis;

    const MACHINE: &str = r#"{"id": "ship", "initial": "build", "states": {
  "build": {"description": "Build it.", "on": {"complete": "deploy", "failed": {"target": "abort", "description": "Broke."}}},
  "deploy": {"description": "Deploy it.", "on": {"complete": "end"}},
  "end": {"type": "final", "output": {"status": "ended"}},
  "abort": {"type": "final", "output": {"status": "aborted"}}
}}"#;

    #[test]
    fn states_events_and_targets_are_indexed() {
        let a = DocumentAnalysis::new("ship.xstate.json", MACHINE);
        let index = &a.index;
        let ids: Vec<&str> = index.phases.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["build", "deploy", "end", "abort"]);
        // From `initial` and from an event's target to the state's key.
        let initial = MACHINE.find("\"build\", \"states\"").expect("initial") + 1;
        let (sym, _) = index.symbol_at(initial).expect("a symbol");
        assert_eq!(sym, Symbol::Phase("build".into()));
        let key = MACHINE.find("\"build\": {").expect("key");
        assert_eq!(index.declaration(&sym).map(|s| s.0), Some(key));
        let target = MACHINE.find("\"abort\", \"desc").expect("target") + 1;
        let (sym, _) = index.symbol_at(target).expect("a symbol");
        let abort = MACHINE.rfind("\"abort\"").expect("key");
        assert_eq!(index.declaration(&sym).map(|s| s.0), Some(abort));
        // Every place `deploy` is written: its key and the target.
        assert_eq!(index.phase_occurrences("deploy").len(), 2);
        assert_eq!(index.outcome_ids("build"), ["complete", "failed"]);
        let failed = &index.phases[0].outcomes[1];
        assert_eq!(failed.description.as_deref(), Some("Broke."));
        let from_build: Vec<_> = index
            .transitions_from("build")
            .map(|t| t.to.as_deref())
            .collect();
        assert_eq!(from_build, [Some("deploy"), Some("abort")]);
    }
}
