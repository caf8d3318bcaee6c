//! The loop's other parts in a diff: checkpoints and their order, limits, escalation and
//! error policy, roles, goal texts, checks and ports.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::{
    Change, ChangeKind, GoalText, Impact, Limit, Out, PortDirection, RoleName, Subject,
    change_kind, derived_objectives, opt, renamed, text,
};
use crate::ir::{Check, Checkpoint, IdMap, IdSet, Port, Spec, same_content};

pub(super) fn checkpoints(
    old: &Spec,
    new: &Spec,
    renames: &BTreeMap<String, String>,
    out: &mut Out,
) {
    let key = |(before, reject): Place| format!("before {before} · on_reject {reject}");
    // By id (a valid loop's ids are unique; `diff` reads valid loops only).
    fn by_id(s: &Spec) -> BTreeMap<&str, &Checkpoint> {
        (s.graph.checkpoints.iter().flatten())
            .map(|c| (c.id.as_str(), c))
            .collect()
    }
    let (before, after) = (by_id(old), by_id(new));
    for (&id, &c) in &before {
        let o = place(c, Some(renames));
        let subject = || Subject::Checkpoint(id.to_owned());
        match after.get(id).map(|&d| (d, place(d, None))) {
            None => out.push(
                Change::new(
                    ChangeKind::Removed,
                    subject(),
                    Impact::Breaking,
                    "an approval callers answer is gone; the guarded phase runs unreviewed",
                )
                .values(Some(key(o)), None),
            ),
            Some((_, n)) if n != o => out.push(
                Change::new(
                    ChangeKind::Changed,
                    subject(),
                    Impact::Breaking,
                    "the checkpoint guards another phase or rejects elsewhere",
                )
                .values(Some(key(o)), Some(key(n))),
            ),
            Some((d, _)) => final_state_renamed(c, d, out),
        }
    }
    for (&id, &c) in after.iter().filter(|(id, _)| !before.contains_key(*id)) {
        out.push(
            Change::new(
                ChangeKind::Added,
                Subject::Checkpoint(id.to_owned()),
                Impact::Breaking,
                "runs now suspend for an approval callers must answer",
            )
            .values(None, Some(key(place(c, None)))),
        );
    }
    checkpoint_order(old, new, renames, out);
}

/// Where a checkpoint stands: the phase it guards and where its rejection goes.
type Place<'a> = (&'a str, &'a str);

/// A checkpoint's [`Place`], in the new loop's ids when `renames` is given. Compared as
/// borrowed ids, and written as text only for a change: a text for every checkpoint of
/// both loops was a tenth of the diff of two loops of 30,000 checkpoints.
fn place<'a>(c: &'a Checkpoint, renames: Option<&'a BTreeMap<String, String>>) -> Place<'a> {
    let (before, reject) = (c.before_phase.as_str(), c.on_reject.as_str());
    match renames {
        Some(r) => (renamed(r, before), renamed(r, reject)),
        None => (before, reject),
    }
}

/// A checkpoint whose rejection ends at the same terminal in both loops, at a final state
/// of another name: compatible (the status is the same).
fn final_state_renamed(old: &Checkpoint, new: &Checkpoint, out: &mut Out) {
    let (to, o, n) = (
        old.on_reject.as_str(),
        old.final_state.as_deref(),
        new.final_state.as_deref(),
    );
    if o != n {
        out.push(
            Change::new(
                ChangeKind::Changed,
                Subject::Checkpoint(old.id.clone()),
                Impact::Compatible,
                "a rejection ends with the same status, in a final state of another name",
            )
            .values(
                Some(super::final_text(to, o)),
                Some(super::final_text(to, n)),
            ),
        );
    }
}

/// The checkpoints before each phase are evaluated in the order they are listed: the
/// first rejection ends the chain. Of the checkpoints that guard the same phase in both
/// loops, a new order is one change of that phase's chain: breaking when their rejections
/// lead to different places (a run that rejects one and would have rejected another
/// first now ends elsewhere), compatible when they all lead to the same one (the same
/// approvals, asked in another order).
fn checkpoint_order<'s>(
    old: &'s Spec,
    new: &'s Spec,
    renames: &'s BTreeMap<String, String>,
    out: &mut Out,
) {
    // Each guarded phase's chain, in order: (checkpoint id, where it rejects to), in the
    // new loop's ids, borrowed (an owned id for each checkpoint, in a search tree of long
    // ids, was most of the diff of the checkpoints).
    type Chains<'a> = IdMap<&'a str, Vec<(&'a str, &'a str)>>;
    let chains = |s: &'s Spec, map: bool| -> Chains<'s> {
        let mut chains: Chains = IdMap::default();
        for c in s.graph.checkpoints.iter().flatten() {
            let (phase, to) = place(c, map.then_some(renames));
            chains.entry(phase).or_default().push((c.id.as_str(), to));
        }
        chains
    };
    let (before, after) = (chains(old, true), chains(new, false));
    // The phases whose chains differ, reported in the order of their ids.
    let mut reordered: Vec<_> = (before.iter())
        .filter_map(|(&phase, o)| Some((phase, reorder(o, after.get(phase)?)?)))
        .collect();
    reordered.sort_unstable_by_key(|&(phase, _)| phase);
    for (phase, (o, n, one_place)) in reordered {
        let (impact, r) = if one_place {
            (
                Impact::Compatible,
                "the checkpoints are evaluated in another order; a rejection at any of them leads to the same place",
            )
        } else {
            (
                Impact::Breaking,
                "the checkpoints are evaluated in another order, and their rejections lead to different places: the same decisions can end a run elsewhere",
            )
        };
        out.push(
            Change::new(
                ChangeKind::Changed,
                Subject::CheckpointOrder(phase.to_owned()),
                impact,
                r,
            )
            .values(Some(o.join(", ")), Some(n.join(", "))),
        );
    }
}

/// Of the checkpoints that guard a phase in both loops (`o`, `n`: each loop's chain), each
/// loop's order when the two differ, and whether their rejections all lead to one place.
fn reorder<'a>(
    o: &[(&'a str, &'a str)],
    n: &[(&'a str, &'a str)],
) -> Option<(Vec<&'a str>, Vec<&'a str>, bool)> {
    // A chain of one checkpoint in either loop has no order to change.
    if o.len() < 2 || n.len() < 2 {
        return None;
    }
    let (in_o, in_n): (IdSet<&str>, IdSet<&str>) = (
        o.iter().map(|(c, _)| *c).collect(),
        n.iter().map(|(c, _)| *c).collect(),
    );
    let (o, n): (Vec<_>, Vec<_>) = (
        o.iter().filter(|(c, _)| in_n.contains(c)).collect(),
        n.iter().filter(|(c, _)| in_o.contains(c)).collect(),
    );
    let ids =
        |chain: &[&(&'a str, &'a str)]| -> Vec<&'a str> { chain.iter().map(|(c, _)| *c).collect() };
    let (io, inn) = (ids(&o), ids(&n));
    if io == inn {
        return None;
    }
    let rejects: BTreeSet<&str> = (o.iter().chain(&n)).map(|(_, to)| *to).collect();
    Some((io, inn, rejects.len() <= 1))
}

pub(super) fn bounds(old: &Spec, new: &Spec, out: &mut Out) {
    let (o, n) = (&old.bounds, &new.bounds);
    // Between two REAL/VEAL loops `max_steps` is derived from `max_attempts` (3n - 1), as
    // the objectives are from the fields: one change, reported once, as the field the
    // files hold.
    if !derived_objectives(old, new) {
        limit(Limit::MaxSteps, o.max_steps, n.max_steps, out);
    }
    if old.pattern != crate::ir::LoopPattern::General
        || new.pattern != crate::ir::LoopPattern::General
    {
        limit(Limit::MaxAttempts, o.max_attempts, n.max_attempts, out);
    }
    if old.effective_escalation() != new.effective_escalation()
        && (o.escalation.is_some() || n.escalation.is_some())
    {
        out.push(
            Change::new(
                ChangeKind::Changed,
                Subject::Escalation,
                Impact::Breaking,
                "a failed loop now ends differently",
            )
            .values(escalation(old), escalation(new)),
        );
    }
    if o.error_policy != n.error_policy {
        out.push(
            Change::new(
                change_kind(&o.error_policy, &n.error_policy),
                Subject::ErrorPolicy,
                Impact::Breaking,
                "failures are handled differently",
            )
            .values(opt(&o.error_policy), opt(&n.error_policy)),
        );
    }
}

/// A loop's escalation as the diff shows it: the JSON string, and under `fallback` the
/// agent it hands over to (which only that escalation uses).
fn escalation(s: &Spec) -> Option<String> {
    let e = s.bounds.escalation.as_ref()?;
    Some(match fallback_agent(s) {
        Some(agent) => format!("{} (agent {})", text(e), text(&agent)),
        None => text(e),
    })
}

fn limit(id: Limit, o: Option<u64>, n: Option<u64>, out: &mut Out) {
    let (impact, r) = match (o, n) {
        (a, b) if a == b => return,
        (Some(a), Some(b)) if b > a => (Impact::Compatible, "a looser limit"),
        (_, None) => (
            Impact::Compatible,
            "no limit of its own: only the runtime's ceiling applies",
        ),
        _ => (
            Impact::Breaking,
            "a tighter limit: runs that fitted may now be cut off",
        ),
    };
    out.push(
        Change::new(change_kind(&o, &n), Subject::Limit(id), impact, r)
            .values(o.map(|v| v.to_string()), n.map(|v| v.to_string())),
    );
}

/// The fallback agent a loop can hand over to: `fallback_agent` under the `fallback`
/// escalation; under any other it plays no part in a run (and an AgentPM graph has no place
/// for it), so it is compared only where it is used.
fn fallback_agent(s: &Spec) -> Option<String> {
    (s.pattern != crate::ir::LoopPattern::General
        && s.effective_escalation() == crate::ir::Escalation::Fallback)
        .then(|| s.roles.fallback_agent.clone())
        .flatten()
}

pub(super) fn roles_and_goal(old: &Spec, new: &Spec, out: &mut Out) {
    let mut fallback = (fallback_agent(old), fallback_agent(new));
    // A new escalation's entry shows the agent the old or new `fallback` uses (only one
    // of them is `fallback`): one entry.
    if old.effective_escalation() != new.effective_escalation() {
        fallback = (None, None);
    }
    let roles = [
        (RoleName::Actor, &old.roles.actor, &new.roles.actor),
        (
            RoleName::Validator,
            &old.roles.validator,
            &new.roles.validator,
        ),
        (RoleName::FallbackAgent, &fallback.0, &fallback.1),
    ];
    for (id, o, n) in roles {
        if o != n {
            out.push(
                Change::new(
                    change_kind(o, n),
                    Subject::Role(id),
                    Impact::Breaking,
                    "another agent (or none) plays the role",
                )
                .values(o.clone(), n.clone()),
            );
        }
    }
    let texts = [
        (GoalText::Mission, &old.goal.mission, &new.goal.mission),
        (
            GoalText::SuccessCriteria,
            &old.goal.success_criteria,
            &new.goal.success_criteria,
        ),
    ];
    for (id, o, n) in texts {
        if o != n {
            out.push(
                Change::new(
                    change_kind(o, n),
                    Subject::Goal(id),
                    Impact::Compatible,
                    "reworded text read by the agents",
                )
                .values(o.clone(), n.clone()),
            );
        }
    }
}

pub(super) fn checks(old: &Spec, new: &Spec, out: &mut Out) {
    let by_id = |s: &Spec| -> BTreeMap<String, Check> {
        s.goal
            .checks
            .iter()
            .flatten()
            .map(|c| (c.id.clone(), c.clone()))
            .collect()
    };
    let (b, a) = (by_id(old), by_id(new));
    for (id, c) in &b {
        match a.get(id) {
            None => out.push(Change::new(
                ChangeKind::Removed,
                Subject::Check(id.clone()),
                Impact::Compatible,
                "one check fewer can only turn NO-GO into GO",
            )),
            Some(d) if !same_content(d, c) => {
                let (impact, r) = check_change(c, d);
                let (o, n) = edited_fields(c, d);
                out.push(
                    Change::new(ChangeKind::Changed, Subject::Check(id.clone()), impact, r)
                        .values(Some(o), Some(n)),
                );
            }
            _ => {}
        }
    }
    for (id, c) in a.iter().filter(|(id, _)| !b.contains_key(*id)) {
        let (impact, r) = if c.required == Some(false) {
            (Impact::Compatible, "a new optional check")
        } else {
            (
                Impact::Breaking,
                "a new required check can turn GO into NO-GO",
            )
        };
        out.push(
            Change::new(ChangeKind::Added, Subject::Check(id.clone()), impact, r)
                .values(None, Some(text(c))),
        );
    }
}

/// The verdict on an edited check, by what its fields do: how it runs (`type`,
/// `command`, `pattern`, `files`, `file`), whether its failure decides the verdict
/// (`required`), or only its texts (`description`, `expected`).
fn check_change(old: &Check, new: &Check) -> (Impact, &'static str) {
    let runs = |c: &Check| {
        (
            c.kind,
            c.command.clone(),
            c.pattern.clone(),
            c.files.clone(),
            c.file.clone(),
        )
    };
    // Effective values: `required` defaults to true.
    let required = |c: &Check| c.required.unwrap_or(true);
    if runs(old) != runs(new) {
        (Impact::Breaking, "the check runs differently")
    } else if required(old) && !required(new) {
        (
            Impact::Compatible,
            "now optional: its failure no longer makes the evaluation NO-GO, which can only turn NO-GO into GO",
        )
    } else if !required(old) && required(new) {
        (
            Impact::Breaking,
            "now required: its failure makes the evaluation NO-GO, which can turn GO into NO-GO",
        )
    } else {
        (Impact::Compatible, "reworded description")
    }
}

/// The fields of `old` and `new` (a check or a port) that differ, each side as `key
/// value, key value` (values as JSON; a field one side lacks is `none` there): one entry
/// shows only what was edited.
fn edited_fields<T: Serialize>(old: &T, new: &T) -> (String, String) {
    let fields = |v: &T| match serde_json::to_value(v) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    let (o, n) = (fields(old), fields(new));
    let keys: BTreeSet<&String> = o.keys().chain(n.keys()).collect();
    let side = |m: &serde_json::Map<String, serde_json::Value>| {
        keys.iter()
            .filter(|k| o.get(k.as_str()) != n.get(k.as_str()))
            .map(|k| match m.get(k.as_str()) {
                Some(v) => format!("{k} {v}"),
                None => format!("{k} none"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    (side(&o), side(&n))
}

pub(super) fn ports(old: &Spec, new: &Spec, out: &mut Out) {
    port_list(
        PortDirection::Input,
        &old.goal.inputs,
        &new.goal.inputs,
        out,
    );
    port_list(
        PortDirection::Output,
        &old.goal.outputs,
        &new.goal.outputs,
        out,
    );
}

fn port_list(
    direction: PortDirection,
    old: &Option<Vec<Port>>,
    new: &Option<Vec<Port>>,
    out: &mut Out,
) {
    let by_name = |ps: &Option<Vec<Port>>| -> BTreeMap<String, Port> {
        ps.iter()
            .flatten()
            .map(|p| (p.name.clone(), p.clone()))
            .collect()
    };
    let (b, a) = (by_name(old), by_name(new));
    let input = direction == PortDirection::Input;
    for (name, p) in &b {
        match a.get(name) {
            None => {
                let (i, r) = if input {
                    (
                        Impact::Compatible,
                        "callers may still pass it; it is ignored",
                    )
                } else {
                    (
                        Impact::Breaking,
                        "callers that read this output get nothing",
                    )
                };
                out.push(
                    Change::new(
                        ChangeKind::Removed,
                        Subject::Port(direction, name.clone()),
                        i,
                        r,
                    )
                    .values(Some(text(p)), None),
                );
            }
            Some(q) if !same_content(q, p) => {
                let breaking = q.kind != p.kind
                    || (input && q.required == Some(true) && p.required != Some(true));
                let (i, r) = if breaking {
                    (
                        Impact::Breaking,
                        "another type, or an input that is now required",
                    )
                } else {
                    (
                        Impact::Compatible,
                        "description, default or optional metadata",
                    )
                };
                let (o, n) = edited_fields(p, q);
                out.push(
                    Change::new(
                        ChangeKind::Changed,
                        Subject::Port(direction, name.clone()),
                        i,
                        r,
                    )
                    .values(Some(o), Some(n)),
                );
            }
            _ => {}
        }
    }
    for (name, q) in a.iter().filter(|(n, _)| !b.contains_key(*n)) {
        let (i, r) = if input && q.required == Some(true) && q.default.is_none() {
            (
                Impact::Breaking,
                "a new required input callers do not pass yet",
            )
        } else {
            (Impact::Compatible, "a new optional input or a new output")
        };
        out.push(
            Change::new(
                ChangeKind::Added,
                Subject::Port(direction, name.clone()),
                i,
                r,
            )
            .values(None, Some(text(q))),
        );
    }
}
