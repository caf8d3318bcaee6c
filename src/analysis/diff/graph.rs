//! The graph's part of a diff: phase renames, phases, their outcomes and the
//! transitions, and what two REAL/VEAL loops' fields write into their graphs.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::{Change, ChangeKind, Impact, Out, Subject, derived_objectives, ids, opt, renamed};
use crate::ir::{Access, IdMap, IdSet, Phase, Spec, id_map};

/// What the fields of two REAL/VEAL loops write into their graphs: the outcomes'
/// descriptions and the transitions (`max_attempts` and `escalation` name the escalation's
/// terminal and describe the `escalate` outcome). A part of the graph that is what its
/// loop's fields write, on both sides, is compared through those fields: an edited
/// escalation is one change, not also a re-pointed transition and a reworded outcome.
/// Keys are the new loop's phase ids (renames applied).
pub(super) struct Generated {
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
    pub(super) fn of(
        old: &Spec,
        new: &Spec,
        renames: &BTreeMap<String, String>,
    ) -> Option<Generated> {
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
pub(super) fn renames(old: &Spec, new: &Spec) -> BTreeMap<String, String> {
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

/// The transitions that lead to the same terminal in both loops, at a final state of
/// another name (`Transition::final_state`, an XState machine's `success` now `done`):
/// compatible, since a run ends with the same status, but a machine's states are renamed.
fn final_states(
    old: &Spec,
    new: &Spec,
    renames: &BTreeMap<String, String>,
    before: &IdMap<(&str, &str), &str>,
    after: &IdMap<(&str, &str), &str>,
    out: &mut Out,
) {
    // Each (phase, outcome)'s final state, keyed as `before` and `after` are.
    fn names<'s>(
        spec: &'s Spec,
        id: impl Fn(&'s str) -> &'s str,
    ) -> IdMap<(&'s str, &'s str), Option<&'s str>> {
        (spec.graph.transitions.iter())
            .map(|t| ((id(&t.from), t.on.as_str()), t.final_state.as_deref()))
            .collect()
    }
    let old_names = names(old, |from| renamed(renames, from));
    let new_names = names(new, |from| from);
    let same_end = |k: &(&str, &str), to: &&str| after.get(k) == Some(to) && to.starts_with('$');
    for (&(from, on), &to) in in_order_where(before, same_end) {
        let (o, n) = (
            old_names.get(&(from, on)).copied().flatten(),
            new_names.get(&(from, on)).copied().flatten(),
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
                    Some(super::final_text(to, o)),
                    Some(super::final_text(to, n)),
                ),
            );
        }
    }
}

/// A map's entries in key order.
fn sorted<V>(map: IdMap<&str, V>) -> Vec<(&str, V)> {
    let mut entries: Vec<_> = map.into_iter().collect();
    entries.sort_unstable_by_key(|(k, _)| *k);
    entries
}

pub(super) fn phases(
    old: &Spec,
    new: &Spec,
    renames: &BTreeMap<String, String>,
    generated: Option<&Generated>,
    out: &mut Out,
) {
    use Impact::{Breaking, Compatible};
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
    let mut seen: IdSet<&str> = IdSet::default();
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
    let renamed_to: IdSet<&str> = renames.values().map(String::as_str).collect();
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

fn phase(
    p: &Phase,
    q: &Phase,
    derived_objectives: bool,
    generated: Option<&Generated>,
    out: &mut Out,
) {
    use Impact::{Breaking, Compatible};
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
    use Impact::{Breaking, Compatible};
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

pub(super) fn transitions(
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
    // Each (phase, outcome)'s target, the last written winning: looked up by hash, and
    // walked in key order once (a search tree of long ids with a common prefix paid a
    // comparison of the whole prefix at every level of every lookup).
    let before: IdMap<(&str, &str), &str> = old
        .graph
        .transitions
        .iter()
        .map(|t| {
            let (from, to) = (renamed(renames, &t.from), renamed(renames, t.to.as_str()));
            ((from, t.on.as_str()), to)
        })
        .collect();
    let after: IdMap<(&str, &str), &str> = new
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
    let moved = |k: &(&str, &str), to: &&str| after.get(k) != Some(to);
    for (&(from, on), &to) in in_order_where(&before, moved) {
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
    let new_for_old = |k: &(&str, &str), _: &&str| !before.contains_key(k) && old_pairs.contains(k);
    for (&(from, on), &to) in in_order_where(&after, new_for_old) {
        if !written((from, on), None, Some(to)) {
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

/// The entries of a map that `keep` selects, in key order. Only they are sorted: sorting
/// every transition of two large loops, by ids with a long common prefix, was 85 M
/// instructions of the diff of two random 10,000-phase loops (callgrind, issue 50).
fn in_order_where<K: Ord, V>(map: &IdMap<K, V>, keep: impl Fn(&K, &V) -> bool) -> Vec<(&K, &V)> {
    let mut entries: Vec<_> = map.iter().filter(|(k, v)| keep(k, v)).collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    entries
}
