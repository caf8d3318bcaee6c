//! [`enforcement`] and [`unenforce`] against what they replaced, on every small edit of
//! the machines of the examples: the machine copied, taken apart (`plain`), enforced
//! again and compared with the machine as two `serde_json::Value`s.

use serde_json::Value;

use super::super::{enforce, has_enforcement, is_phase, transition, written};
use super::{Enforcement, enforcement, unenforce};
use crate::model::xstate::{Events, Machine, On};

/// The machine without what `enforce` wrote, made as before: a copy, emptied.
fn plain_as_before(machine: &Machine) -> Machine {
    let mut plain = machine.clone();
    plain.context = None;
    if let Some(meta) = plain.meta.as_mut() {
        meta.enforcement = None;
    }
    plain
        .states
        .retain(|_, s| s.meta.as_ref().is_none_or(|m| m.enforced != Some(true)));
    for state in plain.states.values_mut() {
        if !is_phase(state) {
            continue;
        }
        state.entry = None;
        state.always = None;
        let pairs: Vec<(String, On)> = (state.on.iter().flatten())
            .filter(|(name, _)| name.as_str() != super::TOOL_FAILURE)
            .filter(|(name, _)| name.as_str() != super::PHASE_FAILURE)
            .map(|(name, on)| {
                let mut t = transition(on);
                t.guard = None;
                t.actions = None;
                t.reenter = None;
                (name.clone(), written(t))
            })
            .collect();
        state.on = (!pairs.is_empty()).then(|| Events::from_pairs(pairs));
    }
    plain
}

/// The verdict as it was made before: the plain machine enforced again, compared with the
/// machine as JSON (objects as maps).
fn verdict_as_before(machine: &Machine) -> Enforcement {
    if !has_enforcement(machine) {
        return Enforcement::None;
    }
    let mut again = plain_as_before(machine);
    enforce(&mut again);
    let json = |m: &Machine| serde_json::to_value(m).expect("a machine is JSON");
    if json(&again) == json(machine) {
        Enforcement::Exact
    } else {
        Enforcement::Other
    }
}

/// The machine loopconv writes for an example.
fn machine_of(example: &str) -> Value {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let bytes = std::fs::read(root.join(example)).expect("an example");
    let loaded = crate::load(example, &bytes, &crate::LoadOptions::default());
    let (spec, info) = loaded.valid().expect("a valid example");
    let mut diags = crate::diag::Diagnostics::default();
    let target = crate::Target::Loop(crate::Format::Xstate);
    let options = crate::back::Options::default();
    let text = crate::back::render(target, spec, info, &options, &mut diags).expect("written");
    serde_json::from_str(&text).expect("JSON")
}

/// Where a child is in its parent.
enum Place {
    Index(usize),
    Key(String),
}

/// Each small edit of `value` at every place: a value left out, a number one more, a
/// boolean flipped, a string changed, written as a transition object and as a list, a
/// list reversed, an object with a target replaced by the target.
fn edits(value: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut at = |edit: &dyn Fn(&mut Value) -> bool| {
        let mut v = value.clone();
        if edit(&mut v) {
            out.push(v);
        }
    };
    match value {
        Value::Number(n) => at(&|v| {
            *v = Value::from(n.as_u64().unwrap_or(0) + 1);
            true
        }),
        Value::Bool(b) => at(&|v| {
            *v = Value::Bool(!b);
            true
        }),
        Value::String(s) => {
            at(&|v| {
                *v = Value::String(format!("{s}-x"));
                true
            });
            at(&|v| {
                *v = serde_json::json!({"target": s});
                true
            });
            at(&|v| {
                *v = serde_json::json!([s]);
                true
            });
        }
        _ => {}
    }
    if let Value::Array(items) = value {
        at(&|v| {
            v.as_array_mut().is_some_and(|a| {
                a.reverse();
                a.len() > 1
            })
        });
        for k in 0..items.len() {
            at(&|v| v.as_array_mut().map(|a| a.remove(k)).is_some());
        }
    }
    if let Value::Object(map) = value {
        if let Some(target) = map.get("target") {
            at(&|v| {
                *v = target.clone();
                true
            });
        }
        for key in map.keys() {
            at(&|v| {
                v.as_object_mut()
                    .and_then(|o| o.shift_remove(key))
                    .is_some()
            });
        }
    }
    // The same edits of each child, in place.
    let children: Vec<(Value, Place)> = match value {
        Value::Array(items) => (items.iter().enumerate())
            .map(|(k, child)| (child.clone(), Place::Index(k)))
            .collect(),
        Value::Object(map) => (map.iter())
            .map(|(key, child)| (child.clone(), Place::Key(key.clone())))
            .collect(),
        _ => Vec::new(),
    };
    for (child, place) in children {
        for edited in edits(&child) {
            let mut v = value.clone();
            match &place {
                Place::Index(k) => v[*k] = edited,
                Place::Key(key) => v[key.as_str()] = edited,
            }
            out.push(v);
        }
    }
    out
}

/// Every edit of the examples' machines (a general loop with tool retries, one with a
/// self-loop, REAL, VEAL, a loop with checkpoints) gets the verdict it got before, and the
/// same plain machine.
#[test]
fn the_verdict_and_the_plain_machine_are_what_they_were() {
    let mut seen = [0usize; 3];
    for example in [
        "agentpm/incident-response.json",
        "agentpm/code-review-sign-off.json",
        "agentpm/react-loop.json",
        "mas/real-docs-refresh.yaml",
        "mas/veal-release-gate.yaml",
    ] {
        let machine = machine_of(example);
        let all = edits(&machine);
        assert!(all.len() > 200, "{example}: {} edits", all.len());
        for edited in std::iter::once(machine.clone()).chain(all) {
            let Ok(m) = serde_json::from_value::<Machine>(edited.clone()) else {
                continue;
            };
            let before = verdict_as_before(&m);
            assert_eq!(enforcement(&m), before, "{example}: {edited:#}");
            seen[before as usize] += 1;
            if before != Enforcement::None {
                let mut plain = m.clone();
                unenforce(&mut plain);
                let json = |m: &Machine| serde_json::to_value(m).expect("JSON");
                assert_eq!(json(&plain), json(&plain_as_before(&m)), "{example}");
            }
        }
        let m: Machine = serde_json::from_value(machine).expect("a machine");
        assert_eq!(enforcement(&m), Enforcement::Exact, "{example}");
    }
    // The edits reach both verdicts (a list of one target is the same machine).
    assert!(seen[1] > 10 && seen[2] > 100, "{seen:?}");
}
