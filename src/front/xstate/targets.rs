//! A machine written by hand, before it is lowered: its targets as the keys of the states
//! they name (`#id`, one-element lists), the XState features a loop cannot hold (`F018`),
//! and what a loop can do without (`B001`): guards, actions, `context`, `entry`.

use super::{loss, state_origin};
use crate::diag::{Code, Diagnostic, Diagnostics, Rejection};
use crate::front::shape::UnknownKey;
use crate::ir::{self, IdMap};
use crate::model::xstate as m;
use crate::tree::Member;

/// The losses for each place of a hand-written machine that holds what loopconv's
/// enforcement writes (`context`, `entry`, a transition's `guard`, `actions`, `reenter`):
/// a counter, guard or action of its own; they are dropped. `always` changes the graph: `F018` (candidate lists are `F018` in the
/// lowering).
pub(super) fn not_enforcement(machine: &m::Machine, diags: &mut Diagnostics) {
    let report = |diags: &mut Diagnostics, pointer: String, what: String| {
        diags.push(loss(pointer, format!("{what} dropped")));
    };
    if machine.context.is_some() {
        report(
            diags,
            "/context".to_owned(),
            "the machine's `context`".to_owned(),
        );
    }
    for (key, state) in &machine.states {
        let at = state_origin(key);
        let name = key.escape_debug();
        if state.entry.is_some() {
            report(
                diags,
                at.pointer_to("entry"),
                format!("the entry actions of `{name}`"),
            );
        }
        if state.always.is_some() {
            refuse(
                diags,
                unsupported(&at.pointer_to("always"), "always", "eventless transitions"),
            );
        }
        for (event, on) in state.on.iter().flatten() {
            let t = match on {
                m::On::Transition(t) => t,
                m::On::Candidates(c) if c.len() == 1 => &c[0],
                _ => continue,
            };
            let ptr = match on {
                m::On::Candidates(_) => format!("{}/0", at.child("on").pointer_to(event)),
                _ => at.child("on").pointer_to(event),
            };
            let event = event.escape_debug();
            for (field, present, what) in [
                ("guard", t.guard.is_some(), "guard"),
                ("actions", t.actions.is_some(), "actions"),
                ("reenter", t.reenter.is_some(), "`reenter`"),
            ] {
                if present {
                    report(
                        diags,
                        format!("{ptr}/{field}"),
                        format!("the {what} of `{event}` in `{name}`"),
                    );
                }
            }
        }
    }
}

/// The XState features a loop cannot hold, by the key that uses them: refused (`F018`).
const FEATURES: &[(&str, &str)] = &[
    ("states", "nested states"),
    ("initial", "nested states"),
    ("invoke", "invoked actors"),
    ("after", "delayed transitions"),
    ("always", "eventless transitions"),
    ("onDone", "done events"),
    ("onError", "error events of invoked actors"),
    ("history", "history states"),
    ("internal", "internal transitions"),
    ("type", "a parallel machine"),
    ("on", "events on the machine itself"),
    ("output", "machine output"),
];

/// What a loop can do without, by the key that holds it: dropped, a loss (`B001`).
const DROPPED: &[(&str, &str)] = &[
    ("exit", "exit actions"),
    ("entry", "entry actions"),
    ("actions", "actions"),
    ("cond", "guard (`cond`, XState v4)"),
    ("guard", "guard"),
    ("types", "type declarations"),
    ("schemas", "type declarations"),
    ("schema", "type declarations (XState v4)"),
    ("tsTypes", "typegen declarations (XState v4)"),
    ("context", "`context`"),
];

/// XState v4 flags with no meaning in XState v5, which always behaves as they ask:
/// read and ignored.
const HARMLESS: &[&str] = &["predictableActionArguments", "preserveActionOrder"];

/// `F018` for a key that uses an XState feature; nothing for `initial` beside the nested
/// `states` that explain it (one cause, one diagnostic); a loss for what can be dropped;
/// nothing for a harmless v4 flag on the machine.
pub(super) fn feature_key(key: &str, pointer: &str, siblings: &[Member]) -> UnknownKey {
    if pointer.matches('/').count() == 1 && HARMLESS.contains(&key) {
        return UnknownKey::Explained;
    }
    let parent = crate::pointer::Pointer::new(pointer)
        .parent()
        .as_str()
        .to_owned();
    if parent.starts_with("/states/") && parent.ends_with("/meta") {
        let at = crate::pointer::field_path(pointer);
        return UnknownKey::Instead(Box::new(loss(
            pointer,
            format!("the state meta `{at}` dropped"),
        )));
    }
    if let Some((_, what)) = DROPPED.iter().find(|(k, _)| *k == key) {
        let at = crate::pointer::field_path(pointer);
        return UnknownKey::Instead(Box::new(loss(pointer, format!("`{at}` ({what}) dropped"))));
    }
    let Some((_, feature)) = FEATURES.iter().find(|(k, _)| *k == key) else {
        return UnknownKey::Unknown;
    };
    let nested_by_type = key == "states"
        && siblings
            .iter()
            .any(|m| m.key == "type" && !matches!(m.value.as_str(), Some("atomic" | "final")));
    if (key == "initial" && siblings.iter().any(|m| m.key == "states")) || nested_by_type {
        return UnknownKey::Explained;
    }
    UnknownKey::Instead(Box::new(unsupported(pointer, key, feature)))
}

/// `F018`: `key` at `pointer` is an XState feature a loop cannot hold.
pub(super) fn unsupported(pointer: &str, key: &str, feature: &str) -> Diagnostic {
    Diagnostic::new(
        Code::XstateUnsupported,
        format!(
            "`{}` uses {feature}, an XState feature a loop cannot hold",
            key.escape_debug()
        ),
    )
    .with_help(
        "a loop is flat: one state per phase, one event per outcome, a final state per terminal",
    )
    .at_key(pointer)
}

/// Report `d`, an `F018`: the machine is not the loop read from it.
pub(super) fn refuse(diags: &mut Diagnostics, d: Diagnostic) {
    diags.reject(d, Rejection::Machine);
}

/// `F018` for a target or an event at `pointer` a loop cannot hold, saying why.
fn refused(pointer: String, message: String) -> Diagnostic {
    Diagnostic::new(Code::XstateUnsupported, message)
        .with_help(
            "a loop is flat: one state per phase, one event per outcome, a final state per terminal",
        )
        .at(pointer)
}

/// Every target as the key of the state it names: a one-candidate list is that
/// transition, a one-target list that target, `#id` (a state's `id`) and `#machine.key`
/// that key. `F018` for what names no state of a flat machine (a relative `.child` or a
/// dotted `state.child` target, several targets, none) and for the wildcard event `*`,
/// whose events are left out.
pub(super) fn resolve_targets(machine: &mut m::Machine, diags: &mut Diagnostics) {
    let r = Resolver {
        ids: hash_ids(machine),
    };
    let states = &mut machine.states;
    for i in 0..states.len() {
        let (key, state) = states.get_index(i).expect("in range");
        // What changes, found first (most machines need none); the pointers only for a
        // diagnostic.
        let changes: Vec<(usize, Change)> = (state.on.iter().flatten().enumerate())
            .filter_map(|(e, (event, on))| {
                let ptr = || state_origin(key).child("on").pointer_to(event);
                event_change(&r, states, event, on, &ptr, diags).map(|c| (e, c))
            })
            .collect();
        if changes.is_empty() {
            continue;
        }
        if let Some(events) = states[i].on.as_mut() {
            apply(events, changes);
        }
    }
    if let Some(k) = r.resolve(states, &machine.initial, &|| "/initial".to_owned(), diags) {
        machine.initial = k;
    }
}

/// The `#id` and `#machine.key` targets and the keys they name, made only for a machine
/// that has such a target (loopconv writes none).
fn hash_ids(machine: &m::Machine) -> IdMap<String, String> {
    let mut ids: IdMap<String, String> = ir::id_map(0);
    let hash_targets = (machine.states.values())
        .flat_map(|s| s.on.iter().flatten())
        .any(|(_, on)| on.target().is_some_and(|t| t.starts_with('#')))
        || machine.initial.starts_with('#');
    if hash_targets {
        for (key, state) in &machine.states {
            if let Some(id) = &state.id {
                ids.entry(format!("#{id}")).or_insert_with(|| key.clone());
            }
            if let Some(mid) = &machine.id {
                ids.insert(format!("#{mid}.{key}"), key.clone());
            }
        }
    }
    ids
}

/// The targets of a machine as the keys of the states they name.
struct Resolver {
    /// The `#id` targets' keys ([`hash_ids`]).
    ids: IdMap<String, String>,
}

impl Resolver {
    /// The key `target` (at `ptr`) names (`None`: the target itself), `F018` for a child
    /// state.
    fn resolve(
        &self,
        states: &m::States,
        target: &str,
        ptr: &dyn Fn() -> String,
        diags: &mut Diagnostics,
    ) -> Option<String> {
        if states.contains_key(target) {
            return None;
        }
        if let Some(key) = self.ids.get(target) {
            return Some(key.clone());
        }
        let child = match target.split_once('.') {
            Some(("", _)) => true,
            Some((head, _)) => states.contains_key(head) || head.starts_with('#'),
            None => false,
        };
        if child {
            refuse(
                diags,
                refused(
                    ptr(),
                    format!(
                        "the target `{}` names a child state: nested states, an XState feature a loop cannot hold",
                        target.escape_debug()
                    ),
                ),
            );
        }
        None
    }
}

/// What changes in one event of a state.
enum Change {
    /// The event is left out (`F018` said why).
    Drop,
    /// New targets: each with its place in a candidate list (`None`: the transition's
    /// own, or the only candidate's).
    Retarget(Vec<(Option<usize>, String)>),
}

/// The change of event `event` (`on`, at `ptr`): `None` when it stays as it is; `F018`
/// for what a loop cannot hold.
fn event_change(
    r: &Resolver,
    states: &m::States,
    event: &str,
    on: &m::On,
    ptr: &dyn Fn() -> String,
    diags: &mut Diagnostics,
) -> Option<Change> {
    let own = |k: String| Some(Change::Retarget(vec![(None, k)]));
    if event == "*" {
        refuse(diags, refused(
            ptr(),
            "the wildcard event `*` (any other event), an XState feature a loop cannot hold: name each outcome".to_owned(),
        ));
        return Some(Change::Drop);
    }
    let single = match on {
        m::On::Candidates(c) if c.len() == 1 => Some(&c[0]),
        m::On::Transition(t) => Some(t),
        _ => None,
    };
    let tp = || format!("{}/target", ptr());
    match (on, single.map(|t| t.target.0.len())) {
        (m::On::Target(t), _) => r.resolve(states, t, ptr, diags).and_then(own),
        (_, Some(0)) => {
            refuse(
                diags,
                refused(
                    ptr(),
                    format!(
                        "the event `{}` has no target (it stays in the state and only runs actions), an XState feature a loop cannot hold: an outcome leads somewhere",
                        event.escape_debug()
                    ),
                ),
            );
            Some(Change::Drop)
        }
        (_, Some(n)) => {
            if n > 1 {
                refuse(
                    diags,
                    refused(
                        tp(),
                        format!(
                            "the event `{}` has several targets at once (parallel states), an XState feature a loop cannot hold",
                            event.escape_debug()
                        ),
                    ),
                );
            }
            let first = single.and_then(|t| t.target.first()).unwrap_or_default();
            match r.resolve(states, first, &tp, diags) {
                Some(k) => own(k),
                None if n > 1 || matches!(on, m::On::Candidates(_)) => own(first.to_owned()),
                None => None,
            }
        }
        (m::On::Candidates(c), None) => {
            let mut new = Vec::new();
            for (j, t) in c.iter().enumerate() {
                let tp = || format!("{}/{j}/target", ptr());
                if let Some(k) = (t.target.first()).and_then(|f| r.resolve(states, f, &tp, diags)) {
                    new.push((Some(j), k));
                }
            }
            (!new.is_empty()).then_some(Change::Retarget(new))
        }
        (m::On::Transition(_), None) => None,
    }
}

/// `events` with `changes` (by the event's index) made.
fn apply(events: &mut m::Events, changes: Vec<(usize, Change)>) {
    let mut pairs = std::mem::take(events).into_pairs();
    let mut drop: Vec<usize> = Vec::new();
    for (e, change) in changes {
        let targets = match change {
            Change::Drop => {
                drop.push(e);
                continue;
            }
            Change::Retarget(targets) => targets,
        };
        for (j, k) in targets {
            let on = &mut pairs[e].1;
            // One candidate, one target: the transition alone.
            if let m::On::Candidates(c) = on
                && c.len() == 1
            {
                *on = m::On::Transition(c.remove(0));
            }
            match (on, j) {
                (m::On::Target(t), _) => *t = k,
                (m::On::Transition(t), _) => t.target = m::Targets::one(k),
                (m::On::Candidates(c), Some(j)) => {
                    if let Some(t) = c.get_mut(j) {
                        t.target.0[0] = k;
                    }
                }
                (m::On::Candidates(_), None) => {}
            }
        }
    }
    let mut e = 0;
    pairs.retain(|_| {
        e += 1;
        !drop.contains(&(e - 1))
    });
    *events = m::Events::from_pairs(pairs);
}
