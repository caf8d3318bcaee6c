//! The semantic diff of two loops, through the IR, so an AgentPM file can be compared with
//! a MAS file. Each change is classified breaking or compatible, with the reason.
//!
//! Phases are matched by id; a removed phase and an added one with the same outcomes and
//! the same transitions in and out (up to the new name) are one rename. Everything else is
//! compared after renames are applied.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::ir::Spec;

mod graph;
mod policy;
mod subject;

use graph::{Generated, phases, renames, transitions};
use policy::{bounds, checkpoints, checks, ports, roles_and_goal};

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

fn text<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn opt<T: Serialize>(v: &Option<T>) -> Option<String> {
    v.as_ref().map(text)
}

fn ids(spec: &Spec) -> BTreeSet<&str> {
    spec.graph.phases.iter().map(|p| p.id.as_str()).collect()
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

/// Between two REAL/VEAL loops the phases' objectives are written from the loops' fields
/// (mission, checks, agents, `max_attempts`), which are compared on their own: a changed
/// field is one change, not also a reworded objective.
fn derived_objectives(old: &Spec, new: &Spec) -> bool {
    use crate::ir::LoopPattern::General;
    old.pattern != General && new.pattern != General
}

/// A terminal and the final state the loop names it by, as a diff shows it: `$end`, or
/// `$end (final state `done`)`.
fn final_text(to: &str, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("{to} (final state `{name}`)"),
        None => to.to_owned(),
    }
}
