//! The semantic diff of two loops, through the IR, so an AgentPM file can be compared with
//! a MAS file. Each change is classified breaking or compatible, with the reason.
//!
//! Phases are matched by id; a removed phase and an added one with the same outcomes and
//! the same transitions in and out (up to the new name) are one rename. Everything else is
//! compared after renames are applied.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::Serialize;

use crate::ir::{Access, Check, IdMap, IdSet, Phase, Port, Spec, id_map, same_content};

mod subject;

pub use subject::{GoalText, Limit, LoopField, Metadata, PortDirection, RoleName, Subject};

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
pub enum ChangeKind {
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Added, removed, changed or renamed.
    pub kind: ChangeKind,
    /// What changed, with new ids.
    pub subject: Subject,
    /// The old value, when there is one to show.
    pub old: Option<String>,
    /// The new value, when there is one to show.
    pub new: Option<String>,
    /// Breaking or compatible.
    pub impact: Impact,
    /// Why.
    pub reason: &'static str,
}

impl Change {
    /// A change of `subject`, without values to show (see [`Change::values`]).
    pub fn new(kind: ChangeKind, subject: Subject, impact: Impact, reason: &'static str) -> Change {
        Change {
            kind,
            subject,
            old: None,
            new: None,
            impact,
            reason,
        }
    }

    /// The change with these old and new values to show.
    pub fn values(self, old: Option<String>, new: Option<String>) -> Change {
        Change { old, new, ..self }
    }
}

/// The JSON form of a change: `kind`, `element` and `id` ([`Subject::element`],
/// [`Subject::id`]), then `old` and `new` when there are values, `impact` and `reason`.
impl Serialize for Change {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Wire<'a> {
            kind: ChangeKind,
            element: &'static str,
            id: String,
            #[serde(skip_serializing_if = "Option::is_none")]
            old: Option<&'a str>,
            #[serde(skip_serializing_if = "Option::is_none")]
            new: Option<&'a str>,
            impact: Impact,
            reason: &'static str,
        }
        Wire {
            kind: self.kind,
            element: self.subject.element(),
            id: self.subject.id(),
            old: self.old.as_deref(),
            new: self.new.as_deref(),
            impact: self.impact,
            reason: self.reason,
        }
        .serialize(s)
    }
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

/// The changes found so far.
struct Out(Vec<Change>);

impl Out {
    fn push(&mut self, change: Change) {
        self.0.push(change);
    }
}

/// Compare two loops, on their effective values ([`crate::ir::effective::pair`]): a
/// default written out or left out is no change, and a MAS loop compared with a graph of
/// its shape is compared as the same kind of loop.
pub fn diff(old: &Spec, new: &Spec) -> Diff {
    let (old, new) = crate::ir::effective::pair(old, new);
    let (old, new) = (&old, &new);
    let renames = renames(old, new);
    let generated = Generated::of(old, new, &renames);
    let mut out = Out(Vec::new());
    loop_fields(old, new, &renames, &mut out);
    phases(old, new, &renames, generated.as_ref(), &mut out);
    transitions(old, new, &renames, generated.as_ref(), &mut out);
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

/// What the fields of two REAL/VEAL loops write into their graphs: the outcomes'
/// descriptions and the transitions (`max_attempts` and `escalation` name the escalation's
/// terminal and describe the `escalate` outcome). A part of the graph that is what its
/// loop's fields write, on both sides, is compared through those fields: an edited
/// escalation is one change, not also a re-pointed transition and a reworded outcome.
/// Keys are the new loop's phase ids (renames applied).
struct Generated {
    old: Written,
    new: Written,
}

/// The generated graph of one loop: each transition's target and each outcome's
/// description.
struct Written {
    targets: BTreeMap<(String, String), String>,
    descriptions: BTreeMap<(String, String), String>,
}

impl Generated {
    fn of(old: &Spec, new: &Spec, renames: &BTreeMap<String, String>) -> Option<Generated> {
        derived_objectives(old, new).then(|| Generated {
            old: Written::of(old, Some(renames)),
            new: Written::of(new, None),
        })
    }

    /// Whether the transition from `from` on `on` is, on each side, what the loop's fields
    /// write (`None`: no transition).
    fn transition(&self, key: (&str, &str), old: Option<&str>, new: Option<&str>) -> bool {
        let k = (key.0.to_owned(), key.1.to_owned());
        self.old.targets.get(&k).map(String::as_str) == old
            && self.new.targets.get(&k).map(String::as_str) == new
    }

    /// Whether outcome `on` of phase `phase` has, on each side, the description the loop's
    /// fields write.
    fn description(&self, phase: &str, on: &str, old: Option<&str>, new: Option<&str>) -> bool {
        let k = (phase.to_owned(), on.to_owned());
        self.old.descriptions.get(&k).map(String::as_str) == old
            && self.new.descriptions.get(&k).map(String::as_str) == new
    }
}

impl Written {
    fn of(spec: &Spec, renames: Option<&BTreeMap<String, String>>) -> Written {
        let graph = crate::ir::carried::derive_graph_named_as(spec, spec);
        let id = |s: &str| renames.map_or(s, |r| renamed(r, s)).to_owned();
        let targets = (graph.transitions.iter())
            .map(|t| ((id(&t.from), t.on.clone()), id(t.to.as_str())))
            .collect();
        let descriptions = (graph.phases.iter())
            .flat_map(|p| {
                let pid = id(&p.id);
                (p.outcomes.iter().flatten())
                    .map(move |o| ((pid.clone(), o.id.clone()), o.description.clone()))
            })
            .collect();
        Written {
            targets,
            descriptions,
        }
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

/// What makes a removed phase and an added one the same phase under a new name: its
/// outcomes, in order, and its transitions out (`(outcome, target)`) and in (`(source,
/// outcome)`), with the phase itself written as [`Signature::ITSELF`].
#[derive(Debug, PartialEq, Eq, Hash)]
struct Signature<'a> {
    outcomes: Vec<&'a str>,
    outgoing: BTreeSet<(&'a str, &'a str)>,
    incoming: BTreeSet<(&'a str, &'a str)>,
}

impl<'a> Signature<'a> {
    /// Stands for the phase itself among its edges: never an id nor a terminal.
    const ITSELF: &'static str = "";

    /// The signatures of the phases of `spec` named in `ids` (their first declarations),
    /// from one pass over the transitions.
    fn of(spec: &'a Spec, ids: &BTreeSet<&'a str>) -> IdMap<&'a str, Signature<'a>> {
        let first = spec.graph.first_phases();
        let mut sigs: IdMap<&str, Signature> = id_map(ids.len());
        for id in ids {
            if let Some(p) = first.get(id) {
                let sig = Signature {
                    outcomes: p.outcome_ids(),
                    outgoing: BTreeSet::new(),
                    incoming: BTreeSet::new(),
                };
                sigs.insert(id, sig);
            }
        }
        for t in &spec.graph.transitions {
            let (from, to) = (t.from.as_str(), t.to.as_str());
            let itself = |s: &'a str, id: &str| if s == id { Self::ITSELF } else { s };
            if let Some(sig) = sigs.get_mut(from) {
                sig.outgoing.insert((t.on.as_str(), itself(to, from)));
            }
            if let Some(sig) = sigs.get_mut(to) {
                sig.incoming.insert((itself(from, to), t.on.as_str()));
            }
        }
        sigs
    }
}

/// Removed phases that reappear under a new id with the same outcomes and edges: each
/// removed id, in order, takes the first added id of its signature not taken yet.
fn renames(old: &Spec, new: &Spec) -> BTreeMap<String, String> {
    let (o, n) = (ids(old), ids(new));
    let removed: BTreeSet<&str> = o.difference(&n).copied().collect();
    let added: BTreeSet<&str> = n.difference(&o).copied().collect();
    if removed.is_empty() || added.is_empty() {
        return BTreeMap::new();
    }
    let mut by_signature: IdMap<Signature, VecDeque<&str>> = id_map(added.len());
    let mut added_sigs = Signature::of(new, &added);
    for a in &added {
        if let Some(sig) = added_sigs.remove(a) {
            by_signature.entry(sig).or_default().push_back(a);
        }
    }
    let mut out = BTreeMap::new();
    for (r, sig) in sorted(Signature::of(old, &removed)) {
        if let Some(a) = by_signature.get_mut(&sig).and_then(VecDeque::pop_front) {
            out.insert(r.to_owned(), a.to_owned());
        }
    }
    out
}

/// A map's entries in key order.
fn sorted<V>(map: IdMap<&str, V>) -> Vec<(&str, V)> {
    let mut entries: Vec<_> = map.into_iter().collect();
    entries.sort_unstable_by_key(|(k, _)| *k);
    entries
}

fn renamed<'a>(renames: &'a BTreeMap<String, String>, id: &'a str) -> &'a str {
    renames.get(id).map_or(id, String::as_str)
}

fn loop_fields(old: &Spec, new: &Spec, renames: &BTreeMap<String, String>, out: &mut Out) {
    use Impact::*;
    if old.name != new.name {
        let (o, n) = (Some(old.name.clone()), Some(new.name.clone()));
        out.push(
            Change::new(
                ChangeKind::Changed,
                Subject::Loop(LoopField::Name),
                Breaking,
                "callers refer to the loop by name",
            )
            .values(o, n),
        );
    }
    if old.pattern != new.pattern {
        let r = "the loop's shape (general graph, REAL, VEAL) changed";
        out.push(
            Change::new(
                ChangeKind::Changed,
                Subject::Loop(LoopField::Pattern),
                Breaking,
                r,
            )
            .values(opt(&Some(old.pattern)), opt(&Some(new.pattern))),
        );
    }
    if renamed(renames, &old.graph.entry) != new.graph.entry {
        let (o, n) = (Some(old.graph.entry.clone()), Some(new.graph.entry.clone()));
        out.push(
            Change::new(
                ChangeKind::Changed,
                Subject::Loop(LoopField::EntryPhase),
                Breaking,
                "runs start in another phase",
            )
            .values(o, n),
        );
    }
    let meta = [
        (Metadata::Version, &old.version, &new.version),
        (Metadata::Description, &old.description, &new.description),
        (Metadata::Archetype, &old.archetype, &new.archetype),
        (Metadata::Readme, &old.readme, &new.readme),
    ];
    for (id, o, n) in meta {
        if o != n {
            let r = "descriptive metadata; no run changes";
            out.push(
                Change::new(change_kind(o, n), Subject::Metadata(id), Compatible, r)
                    .values(o.clone(), n.clone()),
            );
        }
    }
    // `$schema` is not compared: it only points editors at a schema.
    if old.license != new.license || old.environment != new.environment {
        let r = "package metadata (license or environment); no run changes";
        out.push(Change::new(
            ChangeKind::Changed,
            Subject::Metadata(Metadata::Package),
            Compatible,
            r,
        ));
    }
}

fn change_kind<T>(o: &Option<T>, n: &Option<T>) -> ChangeKind {
    match (o, n) {
        (None, Some(_)) => ChangeKind::Added,
        (Some(_), None) => ChangeKind::Removed,
        _ => ChangeKind::Changed,
    }
}

fn phases(
    old: &Spec,
    new: &Spec,
    renames: &BTreeMap<String, String>,
    generated: Option<&Generated>,
    out: &mut Out,
) {
    use Impact::*;
    for (o, n) in renames {
        let r = "runtimes and results name phases by id (same outcomes and edges: a rename)";
        out.push(
            Change::new(ChangeKind::Renamed, Subject::Phase(n.clone()), Breaking, r)
                .values(Some(o.clone()), Some(n.clone())),
        );
    }
    let new_ids = ids(new);
    let derived = derived_objectives(old, new);
    let new_phases = new.graph.first_phases();
    let mut seen = BTreeSet::new();
    for p in &old.graph.phases {
        let id = renamed(renames, &p.id);
        if !seen.insert(id) {
            continue;
        }
        match new_phases.get(id) {
            None => out.push(Change::new(
                ChangeKind::Removed,
                Subject::Phase(id.to_owned()),
                Breaking,
                "runs and callers that reach this phase fail",
            )),
            Some(q) => phase(p, q, derived, generated, out),
        }
    }
    let renamed_to: BTreeSet<&str> = renames.values().map(String::as_str).collect();
    for id in new_ids {
        if !seen.contains(id) && !renamed_to.contains(id) {
            out.push(Change::new(
                ChangeKind::Added,
                Subject::Phase(id.to_owned()),
                Compatible,
                "a new phase; existing outcomes keep their meaning",
            ));
        }
    }
}

/// Between two REAL/VEAL loops the phases' objectives are written from the loops' fields
/// (mission, checks, agents, `max_attempts`), which are compared on their own: a changed
/// field is one change, not also a reworded objective.
fn derived_objectives(old: &Spec, new: &Spec) -> bool {
    use crate::ir::Pattern::General;
    old.pattern != General && new.pattern != General
}

fn phase(
    p: &Phase,
    q: &Phase,
    derived_objectives: bool,
    generated: Option<&Generated>,
    out: &mut Out,
) {
    use Impact::*;
    if p.objective != q.objective && !derived_objectives {
        let (o, n) = (Some(p.objective.clone()), Some(q.objective.clone()));
        out.push(
            Change::new(
                ChangeKind::Changed,
                Subject::Objective(q.id.clone()),
                Compatible,
                "reworded objective",
            )
            .values(o, n),
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
            Change::new(
                ChangeKind::Changed,
                Subject::Access(q.id.clone()),
                impact,
                r,
            )
            .values(opt(&p.access), opt(&q.access)),
        );
    }
    outcomes(p, q, generated, out);
}

/// The description of each outcome id's first declaration on a phase.
fn descriptions(p: &Phase) -> IdMap<&str, &String> {
    let mut ds: IdMap<&str, &String> = id_map(p.outcomes.as_ref().map_or(0, Vec::len));
    for o in p.outcomes.iter().flatten() {
        ds.entry(o.id.as_str()).or_insert(&o.description);
    }
    ds
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

fn outcomes(p: &Phase, q: &Phase, generated: Option<&Generated>, out: &mut Out) {
    use Impact::*;
    let (pd, qd) = (descriptions(p), descriptions(q));
    let desc = |ds: &IdMap<&str, &String>, id: &str| ds.get(id).map(|d| (*d).clone());
    let (po, qo) = (p.outcome_ids(), q.outcome_ids());
    let (ps, qs): (IdSet<&str>, IdSet<&str>) =
        (po.iter().copied().collect(), qo.iter().copied().collect());
    for o in &po {
        let subject = Subject::Outcome {
            phase: q.id.clone(),
            outcome: (*o).to_owned(),
        };
        if !qs.contains(o) {
            out.push(Change::new(
                ChangeKind::Removed,
                subject,
                Breaking,
                "runtimes that emit it would be refused",
            ));
        } else if pd.get(o) != qd.get(o)
            && !generated.is_some_and(|g| {
                let (o_text, n_text) =
                    (pd.get(o).map(|d| d.as_str()), qd.get(o).map(|d| d.as_str()));
                g.description(&q.id, o, o_text, n_text)
            })
        {
            out.push(
                Change::new(
                    ChangeKind::Changed,
                    subject,
                    Compatible,
                    "reworded description",
                )
                .values(desc(&pd, o), desc(&qd, o)),
            );
        }
    }
    for o in qo.iter().filter(|o| !ps.contains(*o)) {
        let subject = Subject::Outcome {
            phase: q.id.clone(),
            outcome: (*o).to_owned(),
        };
        out.push(
            Change::new(
                ChangeKind::Added,
                subject,
                Compatible,
                "a new outcome; the old ones still work",
            )
            .values(None, desc(&qd, o)),
        );
    }
}

fn transitions(
    old: &Spec,
    new: &Spec,
    renames: &BTreeMap<String, String>,
    generated: Option<&Generated>,
    out: &mut Out,
) {
    // What the loops' fields write is compared through the fields.
    let written = |key: (&str, &str), o: Option<&str>, n: Option<&str>| {
        generated.is_some_and(|g| g.transition(key, o, n))
    };
    let before: BTreeMap<(&str, &str), &str> = old
        .graph
        .transitions
        .iter()
        .map(|t| {
            let (from, to) = (renamed(renames, &t.from), renamed(renames, t.to.as_str()));
            ((from, t.on.as_str()), to)
        })
        .collect();
    let after: BTreeMap<(&str, &str), &str> = new
        .graph
        .transitions
        .iter()
        .map(|t| ((t.from.as_str(), t.on.as_str()), t.to.as_str()))
        .collect();
    final_states(old, new, renames, &before, &after, out);
    // The outcomes of each id's first declaration (what `Spec::phase` finds).
    let new_pairs: IdSet<(&str, &str)> = new
        .graph
        .first_phases()
        .values()
        .flat_map(|p| p.outcome_ids().into_iter().map(|o| (p.id.as_str(), o)))
        .collect();
    for (&(from, on), &to) in &before {
        let subject = || Subject::Transition {
            from: from.to_owned(),
            on: on.to_owned(),
        };
        if written((from, on), Some(to), after.get(&(from, on)).copied()) {
            continue;
        }
        let change = match after.get(&(from, on)) {
            Some(&t) if t != to => Change::new(
                ChangeKind::Changed,
                subject(),
                Impact::Breaking,
                "re-pointed: the same outcome now leads elsewhere",
            )
            .values(Some(to.to_owned()), Some(t.to_owned())),
            None if new_pairs.contains(&(from, on)) => Change::new(
                ChangeKind::Removed,
                subject(),
                Impact::Breaking,
                "the outcome leads nowhere now",
            )
            .values(Some(to.to_owned()), None),
            _ => continue,
        };
        out.push(change);
    }
    // The (phase, outcome) pairs of the old loop, under the new ids: one pass, not a scan
    // of the old phases per new transition.
    let old_pairs: IdSet<(&str, &str)> = old
        .graph
        .phases
        .iter()
        .flat_map(|p| {
            let id = renamed(renames, &p.id);
            p.outcome_ids().into_iter().map(move |o| (id, o))
        })
        .collect();
    for (&(from, on), &to) in &after {
        if !before.contains_key(&(from, on))
            && old_pairs.contains(&(from, on))
            && !written((from, on), None, Some(to))
        {
            let subject = Subject::Transition {
                from: from.to_owned(),
                on: on.to_owned(),
            };
            out.push(
                Change::new(
                    ChangeKind::Added,
                    subject,
                    Impact::Compatible,
                    "a transition for an outcome that had none",
                )
                .values(None, Some(to.to_owned())),
            );
        }
    }
}

/// A terminal and the final state the loop names it by, as a diff shows it: `$end`, or
/// `$end (final state `done`)`.
fn final_text(to: &str, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("{to} (final state `{name}`)"),
        None => to.to_owned(),
    }
}

/// The transitions that lead to the same terminal in both loops, at a final state of
/// another name (`Transition::final_state`, an XState machine's `success` now `done`):
/// compatible, since a run ends with the same status, but a machine's states are renamed.
fn final_states(
    old: &Spec,
    new: &Spec,
    renames: &BTreeMap<String, String>,
    before: &BTreeMap<(&str, &str), &str>,
    after: &BTreeMap<(&str, &str), &str>,
    out: &mut Out,
) {
    let names = |spec: &Spec, map: bool| -> BTreeMap<(String, String), Option<String>> {
        (spec.graph.transitions.iter())
            .map(|t| {
                let from = if map {
                    renamed(renames, &t.from)
                } else {
                    &t.from
                };
                ((from.to_owned(), t.on.clone()), t.final_state.clone())
            })
            .collect()
    };
    let (old_names, new_names) = (names(old, true), names(new, false));
    for (&(from, on), &to) in before {
        if after.get(&(from, on)) != Some(&to) || !to.starts_with('$') {
            continue;
        }
        let key = (from.to_owned(), on.to_owned());
        let (o, n) = (
            old_names.get(&key).cloned().flatten(),
            new_names.get(&key).cloned().flatten(),
        );
        if o != n {
            out.push(
                Change::new(
                    ChangeKind::Changed,
                    Subject::Transition {
                        from: from.to_owned(),
                        on: on.to_owned(),
                    },
                    Impact::Compatible,
                    "the run ends with the same status, in a final state of another name",
                )
                .values(
                    Some(final_text(to, o.as_deref())),
                    Some(final_text(to, n.as_deref())),
                ),
            );
        }
    }
}

fn checkpoints(old: &Spec, new: &Spec, renames: &BTreeMap<String, String>, out: &mut Out) {
    let key = |c: &crate::ir::Checkpoint, map: bool| {
        let (before, reject) = (c.before_phase.as_str(), c.on_reject.as_str());
        let (before, reject) = if map {
            (renamed(renames, before), renamed(renames, reject))
        } else {
            (before, reject)
        };
        format!("before {before} · on_reject {reject}")
    };
    let before: BTreeMap<String, String> = old
        .graph
        .checkpoints
        .iter()
        .flatten()
        .map(|c| (c.id.clone(), key(c, true)))
        .collect();
    let after: BTreeMap<String, String> = new
        .graph
        .checkpoints
        .iter()
        .flatten()
        .map(|c| (c.id.clone(), key(c, false)))
        .collect();
    for (id, o) in &before {
        match after.get(id) {
            None => out.push(
                Change::new(
                    ChangeKind::Removed,
                    Subject::Checkpoint(id.clone()),
                    Impact::Breaking,
                    "an approval callers answer is gone; the guarded phase runs unreviewed",
                )
                .values(Some(o.clone()), None),
            ),
            Some(n) if n != o => out.push(
                Change::new(
                    ChangeKind::Changed,
                    Subject::Checkpoint(id.clone()),
                    Impact::Breaking,
                    "the checkpoint guards another phase or rejects elsewhere",
                )
                .values(Some(o.clone()), Some(n.clone())),
            ),
            Some(_) => {
                let named = |spec: &Spec| {
                    (spec.graph.checkpoints.iter().flatten())
                        .find(|c| c.id == *id)
                        .map(|c| (c.on_reject.as_str().to_owned(), c.final_state.clone()))
                };
                if let (Some((to, o)), Some((_, n))) = (named(old), named(new))
                    && o != n
                {
                    out.push(
                        Change::new(
                            ChangeKind::Changed,
                            Subject::Checkpoint(id.clone()),
                            Impact::Compatible,
                            "a rejection ends with the same status, in a final state of another name",
                        )
                        .values(Some(final_text(&to, o.as_deref())), Some(final_text(&to, n.as_deref()))),
                    );
                }
            }
        }
    }
    for (id, n) in after.iter().filter(|(id, _)| !before.contains_key(*id)) {
        out.push(
            Change::new(
                ChangeKind::Added,
                Subject::Checkpoint(id.clone()),
                Impact::Breaking,
                "runs now suspend for an approval callers must answer",
            )
            .values(None, Some(n.clone())),
        );
    }
    checkpoint_order(old, new, renames, out);
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
    renames: &BTreeMap<String, String>,
    out: &mut Out,
) {
    // Each guarded phase's chain, in order: (checkpoint id, where it rejects to), in the
    // new loop's ids.
    type Chains<'a> = BTreeMap<String, Vec<(&'a str, String)>>;
    let chains = |s: &'s Spec, map: bool| -> Chains<'s> {
        let id = |x: &str| {
            if map {
                renamed(renames, x).to_owned()
            } else {
                x.to_owned()
            }
        };
        let mut chains: Chains = BTreeMap::new();
        for c in s.graph.checkpoints.iter().flatten() {
            let entry = (c.id.as_str(), id(c.on_reject.as_str()));
            chains.entry(id(&c.before_phase)).or_default().push(entry);
        }
        chains
    };
    let (before, after) = (chains(old, true), chains(new, false));
    for (phase, o) in &before {
        let Some(n) = after.get(phase) else {
            continue;
        };
        // The checkpoints that guard the phase in both loops, in each loop's order.
        let (in_o, in_n): (IdSet<&str>, IdSet<&str>) = (
            o.iter().map(|(c, _)| *c).collect(),
            n.iter().map(|(c, _)| *c).collect(),
        );
        let (o, n): (Vec<_>, Vec<_>) = (
            o.iter().filter(|(c, _)| in_n.contains(c)).collect(),
            n.iter().filter(|(c, _)| in_o.contains(c)).collect(),
        );
        let ids = |chain: &[&(&'s str, String)]| -> Vec<&'s str> {
            chain.iter().map(|(c, _)| *c).collect()
        };
        if ids(&o) == ids(&n) {
            continue;
        }
        let rejects: BTreeSet<&str> = (o.iter().chain(&n)).map(|(_, to)| to.as_str()).collect();
        let (impact, r) = if rejects.len() > 1 {
            (
                Impact::Breaking,
                "the checkpoints are evaluated in another order, and their rejections lead to different places: the same decisions can end a run elsewhere",
            )
        } else {
            (
                Impact::Compatible,
                "the checkpoints are evaluated in another order; a rejection at any of them leads to the same place",
            )
        };
        out.push(
            Change::new(
                ChangeKind::Changed,
                Subject::CheckpointOrder(phase.clone()),
                impact,
                r,
            )
            .values(Some(ids(&o).join(", ")), Some(ids(&n).join(", "))),
        );
    }
}

fn bounds(old: &Spec, new: &Spec, out: &mut Out) {
    let (o, n) = (&old.bounds, &new.bounds);
    // Between two REAL/VEAL loops `max_steps` is derived from `max_attempts` (3n - 1), as
    // the objectives are from the fields: one change, reported once, as the field the
    // files hold.
    if !derived_objectives(old, new) {
        limit(Limit::MaxSteps, o.max_steps, n.max_steps, out);
    }
    if old.pattern != crate::ir::Pattern::General || new.pattern != crate::ir::Pattern::General {
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
    (s.pattern != crate::ir::Pattern::General
        && s.effective_escalation() == crate::ir::Escalation::Fallback)
        .then(|| s.roles.fallback_agent.clone())
        .flatten()
}

fn roles_and_goal(old: &Spec, new: &Spec, out: &mut Out) {
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

fn ports(old: &Spec, new: &Spec, out: &mut Out) {
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
