//! The semantic diff of two loops, through the IR, so an AgentPM file can be compared with
//! a MAS file. Each change is classified breaking or compatible, with the reason.
//!
//! Phases are matched by id; a removed phase and an added one with the same outcomes and
//! the same transitions in and out (up to the new name) are one rename. Everything else is
//! compared after renames are applied.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::ir::{Access, Check, Phase, Port, Spec, same_content};

/// Whether a change can break callers of the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Impact {
    /// Callers, runtimes or results written for the old loop can fail with the new one.
    Breaking,
    /// Nothing that worked with the old loop stops working.
    Compatible,
}

/// What happened to an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Only in the new loop.
    Added,
    /// Only in the old loop.
    Removed,
    /// In both, different.
    Changed,
    /// A phase under a new id with the same outcomes and edges.
    Renamed,
}

/// One change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// Added, removed, changed or renamed.
    pub kind: Kind,
    /// The kind of element: `phase`, `outcome`, `transition`, `checkpoint`, `limit`, ...
    pub element: &'static str,
    /// Which one (`reason`, `reason/act`, `max_steps`, ...), with new ids.
    pub id: String,
    /// The old value, when there is one to show.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<String>,
    /// The new value, when there is one to show.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
    /// Breaking or compatible.
    pub impact: Impact,
    /// Why.
    pub reason: String,
}

/// All changes from `old` to `new`, in a fixed order: loop fields, phases, outcomes,
/// transitions, checkpoints, limits and error policy, roles, goal, checks, ports.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Diff {
    /// The phase renames (old id → new id).
    pub renames: BTreeMap<String, String>,
    /// The changes.
    pub changes: Vec<Change>,
}

impl Diff {
    /// How many changes are breaking.
    pub fn breaking(&self) -> usize {
        self.changes
            .iter()
            .filter(|c| c.impact == Impact::Breaking)
            .count()
    }
}

struct Out(Vec<Change>);

impl Out {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        kind: Kind,
        element: &'static str,
        id: impl Into<String>,
        old: Option<String>,
        new: Option<String>,
        impact: Impact,
        reason: &str,
    ) {
        self.0.push(Change {
            kind,
            element,
            id: id.into(),
            old,
            new,
            impact,
            reason: reason.to_owned(),
        });
    }
}

/// Compare two loops.
pub fn diff(old: &Spec, new: &Spec) -> Diff {
    let renames = renames(old, new);
    let mut out = Out(Vec::new());
    loop_fields(old, new, &renames, &mut out);
    phases(old, new, &renames, &mut out);
    transitions(old, new, &renames, &mut out);
    checkpoints(old, new, &renames, &mut out);
    bounds(old, new, &mut out);
    roles_and_goal(old, new, &mut out);
    checks(old, new, &mut out);
    ports(old, new, &mut out);
    Diff {
        renames,
        changes: out.0,
    }
}

fn text<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn opt<T: Serialize>(v: &Option<T>) -> Option<String> {
    v.as_ref().map(text)
}

fn ids(spec: &Spec) -> BTreeSet<&str> {
    spec.graph.phases.iter().map(|p| p.id.as_str()).collect()
}

type Pairs = BTreeSet<(String, String)>;

/// Outgoing `(outcome, target)` and incoming `(source, outcome)` edges of a phase, with
/// `rename` applied to the phase itself.
fn edges_of(spec: &Spec, id: &str, rename: &str) -> (Pairs, Pairs) {
    let map = |s: &str| {
        if s == id {
            rename.to_owned()
        } else {
            s.to_owned()
        }
    };
    let outgoing = spec.graph.transitions.iter().filter(|t| t.from == id);
    let incoming = spec
        .graph
        .transitions
        .iter()
        .filter(|t| t.to.as_str() == id);
    (
        outgoing
            .map(|t| (t.on.clone(), map(t.to.as_str())))
            .collect(),
        incoming.map(|t| (map(&t.from), t.on.clone())).collect(),
    )
}

/// Removed phases that reappear under a new id with the same outcomes and edges.
fn renames(old: &Spec, new: &Spec) -> BTreeMap<String, String> {
    let (o, n) = (ids(old), ids(new));
    let mut taken = BTreeSet::new();
    let mut out = BTreeMap::new();
    for r in o.difference(&n) {
        let Some(rp) = old.phase(r) else { continue };
        for a in n.difference(&o) {
            let Some(ap) = new.phase(a) else { continue };
            if taken.contains(a) || rp.outcome_ids() != ap.outcome_ids() {
                continue;
            }
            if edges_of(old, r, a) == edges_of(new, a, a) {
                taken.insert(*a);
                out.insert((*r).to_owned(), (*a).to_owned());
                break;
            }
        }
    }
    out
}

fn renamed<'a>(renames: &'a BTreeMap<String, String>, id: &'a str) -> &'a str {
    renames.get(id).map_or(id, String::as_str)
}

fn loop_fields(old: &Spec, new: &Spec, renames: &BTreeMap<String, String>, out: &mut Out) {
    use Impact::*;
    if old.name != new.name {
        let (o, n) = (Some(old.name.clone()), Some(new.name.clone()));
        out.push(
            Kind::Changed,
            "loop",
            "name",
            o,
            n,
            Breaking,
            "callers refer to the loop by name",
        );
    }
    if old.pattern != new.pattern {
        let r = "the loop's shape (general graph, REAL, VEAL) changed";
        out.push(
            Kind::Changed,
            "loop",
            "pattern",
            opt(&Some(old.pattern)),
            opt(&Some(new.pattern)),
            Breaking,
            r,
        );
    }
    if renamed(renames, &old.graph.entry) != new.graph.entry {
        let (o, n) = (Some(old.graph.entry.clone()), Some(new.graph.entry.clone()));
        out.push(
            Kind::Changed,
            "loop",
            "entry_phase",
            o,
            n,
            Breaking,
            "runs start in another phase",
        );
    }
    let meta = [
        ("version", &old.version, &new.version),
        ("description", &old.description, &new.description),
        ("archetype", &old.archetype, &new.archetype),
        ("readme", &old.readme, &new.readme),
    ];
    for (id, o, n) in meta {
        if o != n {
            let r = "descriptive metadata; no run changes";
            out.push(
                change_kind(o, n),
                "metadata",
                id,
                o.clone(),
                n.clone(),
                Compatible,
                r,
            );
        }
    }
    if old.license != new.license
        || old.environment != new.environment
        || old.schema_uri != new.schema_uri
    {
        let r = "package metadata (license, environment or $schema); no run changes";
        out.push(
            Kind::Changed,
            "metadata",
            "package",
            None,
            None,
            Compatible,
            r,
        );
    }
}

fn change_kind<T>(o: &Option<T>, n: &Option<T>) -> Kind {
    match (o, n) {
        (None, Some(_)) => Kind::Added,
        (Some(_), None) => Kind::Removed,
        _ => Kind::Changed,
    }
}

fn phases(old: &Spec, new: &Spec, renames: &BTreeMap<String, String>, out: &mut Out) {
    use Impact::*;
    for (o, n) in renames {
        let r = "runtimes and results name phases by id (same outcomes and edges: a rename)";
        out.push(
            Kind::Renamed,
            "phase",
            n.clone(),
            Some(o.clone()),
            Some(n.clone()),
            Breaking,
            r,
        );
    }
    let new_ids = ids(new);
    let mut seen = BTreeSet::new();
    for p in &old.graph.phases {
        let id = renamed(renames, &p.id);
        if !seen.insert(id) {
            continue;
        }
        match new.phase(id) {
            None => out.push(
                Kind::Removed,
                "phase",
                id,
                None,
                None,
                Breaking,
                "runs and callers that reach this phase fail",
            ),
            Some(q) => phase(p, q, out),
        }
    }
    let renamed_to: BTreeSet<&str> = renames.values().map(String::as_str).collect();
    for id in new_ids {
        if !seen.contains(id) && !renamed_to.contains(id) {
            out.push(
                Kind::Added,
                "phase",
                id,
                None,
                None,
                Compatible,
                "a new phase; existing outcomes keep their meaning",
            );
        }
    }
}

fn phase(p: &Phase, q: &Phase, out: &mut Out) {
    use Impact::*;
    if p.objective != q.objective {
        let (o, n) = (Some(p.objective.clone()), Some(q.objective.clone()));
        out.push(
            Kind::Changed,
            "objective",
            q.id.clone(),
            o,
            n,
            Compatible,
            "reworded objective",
        );
    }
    if p.access != q.access {
        let (impact, r) = if tighter(p.access.as_ref(), q.access.as_ref()) {
            (
                Breaking,
                "tighter access: the phase may no longer do what it did",
            )
        } else {
            (Compatible, "wider or newly stated access")
        };
        out.push(
            Kind::Changed,
            "access",
            q.id.clone(),
            opt(&p.access),
            opt(&q.access),
            impact,
            r,
        );
    }
    outcomes(p, q, out);
}

/// Whether some access that was granted (or unstated) is now denied.
fn tighter(o: Option<&Access>, n: Option<&Access>) -> bool {
    let flags = |a: Option<&Access>| {
        let a = a.cloned().unwrap_or_default();
        let m = a.memory.unwrap_or_default();
        [a.tools, a.knowledge, m.read, m.write]
    };
    flags(o)
        .iter()
        .zip(flags(n))
        .any(|(o, n)| *o != Some(false) && n == Some(false))
}

fn outcomes(p: &Phase, q: &Phase, out: &mut Out) {
    use Impact::*;
    let desc = |ph: &Phase, id: &str| {
        ph.outcomes
            .iter()
            .flatten()
            .find(|o| o.id == id)
            .map(|o| o.description.clone())
    };
    let (po, qo) = (p.outcome_ids(), q.outcome_ids());
    for o in &po {
        let id = format!("{}/{o}", q.id);
        if !qo.contains(o) {
            out.push(
                Kind::Removed,
                "outcome",
                id,
                None,
                None,
                Breaking,
                "runtimes that emit it would be refused",
            );
        } else if desc(p, o) != desc(q, o) {
            out.push(
                Kind::Changed,
                "outcome",
                id,
                desc(p, o),
                desc(q, o),
                Compatible,
                "reworded description",
            );
        }
    }
    for o in qo.iter().filter(|o| !po.contains(o)) {
        let id = format!("{}/{o}", q.id);
        out.push(
            Kind::Added,
            "outcome",
            id,
            None,
            desc(q, o),
            Compatible,
            "a new outcome; the old ones still work",
        );
    }
}

fn transitions(old: &Spec, new: &Spec, renames: &BTreeMap<String, String>, out: &mut Out) {
    let map = |s: &str| renamed(renames, s).to_owned();
    let before: BTreeMap<(String, String), String> = old
        .graph
        .transitions
        .iter()
        .map(|t| ((map(&t.from), t.on.clone()), map(t.to.as_str())))
        .collect();
    let after: BTreeMap<(String, String), String> = new
        .graph
        .transitions
        .iter()
        .map(|t| ((t.from.clone(), t.on.clone()), t.to.as_str().to_owned()))
        .collect();
    // The outcomes of each id's first declaration (what `Spec::phase` finds).
    let mut declared = BTreeSet::new();
    let new_pairs: BTreeSet<(&str, &str)> = new
        .graph
        .phases
        .iter()
        .filter(|p| declared.insert(p.id.as_str()))
        .flat_map(|p| p.outcome_ids().into_iter().map(|o| (p.id.as_str(), o)))
        .collect();
    let has = |(from, on): &(String, String)| new_pairs.contains(&(from.as_str(), on.as_str()));
    for (k, to) in &before {
        let id = format!("{} --{}-->", k.0, k.1);
        match after.get(k) {
            Some(t) if t != to => out.push(
                Kind::Changed,
                "transition",
                id,
                Some(to.clone()),
                Some(t.clone()),
                Impact::Breaking,
                "re-pointed: the same outcome now leads elsewhere",
            ),
            None if has(k) => out.push(
                Kind::Removed,
                "transition",
                id,
                Some(to.clone()),
                None,
                Impact::Breaking,
                "the outcome leads nowhere now",
            ),
            _ => {}
        }
    }
    // The (phase, outcome) pairs of the old loop, under the new ids: one pass, not a scan
    // of the old phases per new transition.
    let old_pairs: BTreeSet<(String, &str)> = old
        .graph
        .phases
        .iter()
        .flat_map(|p| p.outcome_ids().into_iter().map(|o| (map(&p.id), o)))
        .collect();
    for (k, to) in &after {
        let existed = || old_pairs.contains(&(k.0.clone(), k.1.as_str()));
        if !before.contains_key(k) && existed() {
            let id = format!("{} --{}-->", k.0, k.1);
            out.push(
                Kind::Added,
                "transition",
                id,
                None,
                Some(to.clone()),
                Impact::Compatible,
                "a transition for an outcome that had none",
            );
        }
    }
}

fn checkpoints(old: &Spec, new: &Spec, renames: &BTreeMap<String, String>, out: &mut Out) {
    let key = |s: &Spec, c: &crate::ir::Checkpoint, map: bool| {
        let f = |x: &str| {
            if map {
                renamed(renames, x).to_owned()
            } else {
                x.to_owned()
            }
        };
        let _ = s;
        format!(
            "before {} · on_reject {}",
            f(&c.before_phase),
            f(c.on_reject.as_str())
        )
    };
    let before: BTreeMap<String, String> = old
        .graph
        .checkpoints
        .iter()
        .flatten()
        .map(|c| (c.id.clone(), key(old, c, true)))
        .collect();
    let after: BTreeMap<String, String> = new
        .graph
        .checkpoints
        .iter()
        .flatten()
        .map(|c| (c.id.clone(), key(new, c, false)))
        .collect();
    for (id, o) in &before {
        match after.get(id) {
            None => out.push(
                Kind::Removed,
                "checkpoint",
                id.clone(),
                Some(o.clone()),
                None,
                Impact::Breaking,
                "an approval callers answer is gone; the guarded phase runs unreviewed",
            ),
            Some(n) if n != o => out.push(
                Kind::Changed,
                "checkpoint",
                id.clone(),
                Some(o.clone()),
                Some(n.clone()),
                Impact::Breaking,
                "the checkpoint guards another phase or rejects elsewhere",
            ),
            _ => {}
        }
    }
    for (id, n) in after.iter().filter(|(id, _)| !before.contains_key(*id)) {
        out.push(
            Kind::Added,
            "checkpoint",
            id.clone(),
            None,
            Some(n.clone()),
            Impact::Breaking,
            "runs now suspend for an approval callers must answer",
        );
    }
}

fn bounds(old: &Spec, new: &Spec, out: &mut Out) {
    let (o, n) = (&old.bounds, &new.bounds);
    limit("max_steps", o.max_steps, n.max_steps, out);
    if old.pattern != crate::ir::Pattern::General || new.pattern != crate::ir::Pattern::General {
        limit("max_attempts", o.max_attempts, n.max_attempts, out);
    }
    if old.effective_escalation() != new.effective_escalation()
        && (o.escalation.is_some() || n.escalation.is_some())
    {
        out.push(
            Kind::Changed,
            "escalation",
            "escalation",
            opt(&o.escalation),
            opt(&n.escalation),
            Impact::Breaking,
            "a failed loop now ends differently",
        );
    }
    if o.error_policy != n.error_policy {
        out.push(
            change_kind(&o.error_policy, &n.error_policy),
            "error policy",
            "error_policy",
            opt(&o.error_policy),
            opt(&n.error_policy),
            Impact::Breaking,
            "failures are handled differently",
        );
    }
}

fn limit(id: &'static str, o: Option<u64>, n: Option<u64>, out: &mut Out) {
    let (impact, r) = match (o, n) {
        (a, b) if a == b => return,
        (Some(a), Some(b)) if b > a => (Impact::Compatible, "a looser limit"),
        (_, None) => (Impact::Compatible, "the limit is gone"),
        _ => (
            Impact::Breaking,
            "a tighter limit: runs that fitted may now be cut off",
        ),
    };
    out.push(
        change_kind(&o, &n),
        "limit",
        id,
        o.map(|v| v.to_string()),
        n.map(|v| v.to_string()),
        impact,
        r,
    );
}

fn roles_and_goal(old: &Spec, new: &Spec, out: &mut Out) {
    let roles = [
        ("actor", &old.roles.actor, &new.roles.actor),
        ("validator", &old.roles.validator, &new.roles.validator),
        (
            "fallback_agent",
            &old.roles.fallback_agent,
            &new.roles.fallback_agent,
        ),
    ];
    for (id, o, n) in roles {
        if o != n {
            out.push(
                change_kind(o, n),
                "role",
                id,
                o.clone(),
                n.clone(),
                Impact::Breaking,
                "another agent (or none) plays the role",
            );
        }
    }
    let texts = [
        ("mission", &old.goal.mission, &new.goal.mission),
        (
            "success_criteria",
            &old.goal.success_criteria,
            &new.goal.success_criteria,
        ),
    ];
    for (id, o, n) in texts {
        if o != n {
            out.push(
                change_kind(o, n),
                "goal",
                id,
                o.clone(),
                n.clone(),
                Impact::Compatible,
                "reworded text read by the agents",
            );
        }
    }
}

fn checks(old: &Spec, new: &Spec, out: &mut Out) {
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
            None => out.push(
                Kind::Removed,
                "check",
                id.clone(),
                None,
                None,
                Impact::Compatible,
                "one check fewer can only turn NO-GO into GO",
            ),
            Some(d) if !same_content(d, c) => {
                let only_text = same_content(
                    &Check {
                        description: c.description.clone(),
                        expected: c.expected.clone(),
                        ..d.clone()
                    },
                    c,
                );
                let (impact, r) = if only_text {
                    (Impact::Compatible, "reworded description")
                } else {
                    (Impact::Breaking, "the check runs differently")
                };
                out.push(
                    Kind::Changed,
                    "check",
                    id.clone(),
                    Some(text(c)),
                    Some(text(d)),
                    impact,
                    r,
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
            Kind::Added,
            "check",
            id.clone(),
            None,
            Some(text(c)),
            impact,
            r,
        );
    }
}

fn ports(old: &Spec, new: &Spec, out: &mut Out) {
    port_list("input", &old.goal.inputs, &new.goal.inputs, out);
    port_list("output", &old.goal.outputs, &new.goal.outputs, out);
}

fn port_list(
    element: &'static str,
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
    let input = element == "input";
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
                    Kind::Removed,
                    element,
                    name.clone(),
                    Some(text(p)),
                    None,
                    i,
                    r,
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
                out.push(
                    Kind::Changed,
                    element,
                    name.clone(),
                    Some(text(p)),
                    Some(text(q)),
                    i,
                    r,
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
            Kind::Added,
            element,
            name.clone(),
            None,
            Some(text(q)),
            i,
            r,
        );
    }
}
