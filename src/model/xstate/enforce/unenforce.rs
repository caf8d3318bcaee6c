//! Taking out what [`enforce`](super::enforce) wrote: whether a machine holds exactly that
//! ([`enforcement`]), read in place, and the machine without it ([`unenforce`]).
//!
//! A machine holds exactly what `enforce` writes when `enforce` of the machine without it
//! gives the machine back, as JSON, objects compared as maps (a state's events too). That
//! is checked against the machine as it is, one place at a time, with the few values
//! `enforce` writes on every phase state built once: no copy of the machine nor of its
//! states is made. (Copying the machine twice, enforcing the copy again and comparing
//! the two as `serde_json::Value`s, one state at a time, was half the instructions of
//! reading a 10,000-phase loop's machine, and a copy of it in memory.)

use serde_json::Value;

use super::{
    Call, Eventless, Json, Machine, NOTE, On, PHASE_FAILURE, Plan, Setup, State, StateMeta,
    StateType, Status, TOOL_FAILURE, Transition, has_enforcement, is_phase, written,
};
use crate::ir::FixedLoop;
use crate::model::xstate::Events;

/// What a machine holds of what [`enforce`](super::enforce) writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enforcement {
    /// None of it: a machine written before, or by hand.
    None,
    /// Exactly what `enforce` writes for the machine without it ([`unenforce`]).
    Exact,
    /// Something else in those places (a hand-written guard, a changed bound): not a
    /// loop's.
    Other,
}

/// What `machine` holds of what [`enforce`](super::enforce) writes.
pub fn enforcement(machine: &Machine) -> Enforcement {
    if !has_enforcement(machine) {
        Enforcement::None
    } else if is_exact(machine) {
        Enforcement::Exact
    } else {
        Enforcement::Other
    }
}

/// Whether a state is one of enforcement's final states (which [`unenforce`] removes).
fn is_enforced_final(state: &State) -> bool {
    (state.meta.as_ref()).is_some_and(|m| m.enforced == Some(true))
}

/// Take out of `machine` the places [`enforce`](super::enforce) writes: `context`,
/// `meta.enforcement`, its final states (`meta.enforced`), and each phase state's
/// `entry`, `always`, failure events and its transitions' `guard`, `actions` and
/// `reenter` (a list of candidates becomes its last). What remains is the machine
/// `enforce` wrote on when [`enforcement`] is [`Enforcement::Exact`].
pub fn unenforce(machine: &mut Machine) {
    machine.context = None;
    if let Some(meta) = machine.meta.as_mut() {
        meta.enforcement = None;
    }
    machine.states.retain(|_, s| !is_enforced_final(s));
    for state in machine.states.values_mut() {
        if !is_phase(state) {
            continue;
        }
        state.entry = None;
        state.always = None;
        // In place: the names stay the unique names they were.
        if let Some(events) = state.on.as_mut() {
            events.retain_mut(|name, on| {
                if name == TOOL_FAILURE || name == PHASE_FAILURE {
                    return false;
                }
                strip(on);
                true
            });
        }
        if state.on.as_ref().is_some_and(Events::is_empty) {
            state.on = None;
        }
    }
}

/// `on` without the `guard`, `actions` and `reenter` of its transition (the last of
/// candidates), written as [`written`] writes it: a target alone stays as it is, a
/// transition object is changed in place (each of the 30,000 events of a 10,000-phase
/// machine was made a transition object and written back).
fn strip(on: &mut On) {
    match on {
        On::Target(_) => {}
        On::Transition(t) => {
            t.guard = None;
            t.actions = None;
            t.reenter = None;
            if written_as_target(t) {
                *on = On::Target(t.target.0.swap_remove(0));
            }
        }
        On::Candidates(_) => {
            let mut t = into_transition(std::mem::replace(on, On::Target(String::new())));
            t.guard = None;
            t.actions = None;
            t.reenter = None;
            *on = written(t);
        }
    }
}

/// `on` as a transition object with its fields (the last of candidates), moved.
fn into_transition(on: On) -> Transition {
    match on {
        On::Target(t) => Transition::to(t),
        On::Transition(t) => t,
        On::Candidates(mut c) => c.pop().unwrap_or_default(),
    }
}

/// The values [`enforce`](super::enforce) writes on every phase state, built once.
struct Written {
    /// `entry` of a phase state, and of `eval`.
    entry: [Json<Vec<Call>>; 2],
    always: Json<Vec<Eventless>>,
    reached: Json<Call>,
    below: Json<Call>,
    count_retries: Json<Vec<Call>>,
}

/// Whether `machine`, which holds some of what `enforce` writes, holds exactly what it
/// writes for the machine without it.
fn is_exact(machine: &Machine) -> bool {
    let Some(meta) = machine.meta.as_ref() else {
        return false;
    };
    if meta.enforcement.as_deref() != Some(NOTE) {
        return false;
    }
    let states = &machine.states;
    let setup = Setup::of(meta, |key| {
        states.get(key).is_some_and(|s| !is_enforced_final(s))
    });
    if machine.context.as_ref() != Some(&setup.context()) {
        return false;
    }
    let finals = states.values().filter(|s| is_enforced_final(s)).count();
    let finals_exact = finals == setup.finals.len()
        && (setup.finals.iter())
            .all(|(status, key)| states.get(key).is_some_and(|s| is_final_of(s, *status)));
    if !finals_exact {
        return false;
    }
    let plan = &setup.plan;
    let written = Written {
        entry: [plan.entry(false), plan.entry(true)],
        always: plan.always(),
        reached: plan.reached(),
        below: plan.below(),
        count_retries: Plan::count_retries(),
    };
    (states.iter())
        .filter(|(_, s)| !is_enforced_final(s) && is_phase(s))
        .all(|(key, s)| phase_is_exact(key, s, setup.eval(key), plan, &written))
}

/// Whether phase state `key` holds exactly what `enforce_phase` writes on it.
fn phase_is_exact(
    key: &str,
    state: &State,
    eval: Option<FixedLoop>,
    plan: &Plan,
    written: &Written,
) -> bool {
    let entry = &written.entry[usize::from(eval.is_some())];
    if state.entry.as_ref() != Some(entry) || state.always.as_ref() != Some(&written.always) {
        return false;
    }
    let Some(events) = state.on.as_ref() else {
        return false;
    };
    // The escalation's target, read as `enforce_phase` reads it from the plain state.
    let escalation = eval.and_then(|f| {
        (events.iter())
            .find(|(name, _)| name.as_str() == f.escalate)
            .and_then(|(_, on)| target_of(on))
    });
    let (mut tool, mut phase) = (false, false);
    for (name, on) in events {
        let exact = match name.as_str() {
            TOOL_FAILURE => {
                tool = true;
                tool_on_is_exact(key, on, plan, written)
            }
            PHASE_FAILURE => {
                phase = true;
                matches!(on, On::Target(t) if *t == plan.phase_key)
            }
            _ => outcome_is_exact(key, name, on, eval, escalation, written),
        };
        if !exact {
            return false;
        }
    }
    tool && phase
}

/// The first target of `on`'s transition object as [`transition`] makes it (the last
/// of candidates).
fn target_of(on: &On) -> Option<&str> {
    match on {
        On::Target(t) => Some(t),
        On::Transition(t) => t.target.first(),
        On::Candidates(c) => c.last().and_then(|t| t.target.first()),
    }
}

/// Whether a tool failure's event of phase state `key` is what `enforce_phase` writes.
fn tool_on_is_exact(key: &str, on: &On, plan: &Plan, written: &Written) -> bool {
    if plan.retries == 0 {
        return matches!(on, On::Target(t) if *t == plan.tool_key);
    }
    let On::Candidates(c) = on else {
        return false;
    };
    let [retry, fail] = c.as_slice() else {
        return false;
    };
    is_to(retry, key)
        && retry.description.is_none()
        && retry.guard.as_deref() == Some(&written.below)
        && retry.actions.as_deref() == Some(&written.count_retries)
        && retry.reenter.is_none()
        && only_to(fail, &plan.tool_key)
}

/// Whether `t` has the one target `key`.
fn is_to(t: &Transition, key: &str) -> bool {
    matches!(t.target.0.as_slice(), [one] if one == key)
}

/// Whether `t` is `Transition::to(key)`: the one target `key` and nothing else.
fn only_to(t: &Transition, key: &str) -> bool {
    is_to(t, key)
        && t.description.is_none()
        && t.guard.is_none()
        && t.actions.is_none()
        && t.reenter.is_none()
}

/// Whether event `name` of phase state `key` is what `enforce_phase` writes for the
/// plain transition it holds: its own target and description, `reenter` when it goes
/// back to `key`, and for `eval`, the escalation at the last attempt.
fn outcome_is_exact(
    key: &str,
    name: &str,
    on: &On,
    eval: Option<FixedLoop>,
    escalation: Option<&str>,
    written: &Written,
) -> bool {
    // Its fields are the plain transition's, but `reenter` exactly when it goes back.
    let plain = |t: &Transition, guard: Option<&Json<Call>>| {
        let back = t.target.first() == Some(key);
        t.guard.as_deref() == guard
            && t.actions.is_none()
            && t.reenter.as_deref() == back.then_some(&Value::Bool(true))
    };
    match (eval, escalation) {
        (Some(f), Some(target)) if name == f.retry.0 => match on {
            On::Candidates(c) => match c.as_slice() {
                [last, t] => {
                    is_to(last, target)
                        && last.description.is_none()
                        && last.guard.as_deref() == Some(&written.reached)
                        && last.actions.is_none()
                        && last.reenter.is_none()
                        && plain(t, None)
                }
                _ => false,
            },
            _ => false,
        },
        (Some(f), _) if name == f.escalate => {
            matches!(on, On::Transition(t) if plain(t, Some(&written.reached)))
        }
        _ => match on {
            On::Target(t) => t != key,
            On::Transition(t) => plain(t, None) && !written_as_target(t),
            On::Candidates(_) => false,
        },
    }
}

/// Whether [`written`] writes `t` as its target alone.
fn written_as_target(t: &Transition) -> bool {
    let plain =
        t.description.is_none() && t.guard.is_none() && t.actions.is_none() && t.reenter.is_none();
    plain && t.target.0.len() == 1
}

/// Whether `state` is the final state `enforce` writes for `status` (every field named,
/// so that a new one is compared too).
fn is_final_of(state: &State, status: Status) -> bool {
    let State {
        kind,
        description,
        tags,
        id,
        meta,
        entry,
        always,
        on,
        output,
    } = state;
    let meta_exact = meta.as_ref().is_some_and(|m| {
        let StateMeta {
            access,
            checkpoint,
            enforced,
        } = m;
        access.is_none() && checkpoint.is_none() && *enforced == Some(true)
    });
    *kind == Some(StateType::Final)
        && description.is_none()
        && tags.is_none()
        && id.is_none()
        && meta_exact
        && entry.is_none()
        && always.is_none()
        && on.is_none()
        && output.as_ref().map(|o| o.status) == Some(status)
}

#[cfg(test)]
mod tests;
