//! Pass 1: reference integrity and the policy rules (formats.md 1.5 rules 1-11, 14-16,
//! 18-22; rule 17 is retired), then the MAS rules of section 2 ([`super::mas`]).
//!
//! No cascades ([`super::names`]): a declaration that is itself wrong is the one error and
//! the rules resting on it stay silent; a transition whose `from` is undeclared is reported
//! once (V007) and not checked for its outcome; a phase whose id repeats is checked once.

use std::collections::HashMap;

use super::Sink as _;
use super::names::{Names, Resolved, TransitionNames, target_declared, unknown_id_help};
use super::unknown::Meant;
use super::{blank, earlier};
use crate::diag::{Code, Diagnostic, EditTarget, Suggestion};
use crate::diag::{Diagnostics, Rejected};
use crate::ir::{Destination, Field, Graph, IMPLICIT_OUTCOME, Phase, Spec, Transition};
use crate::ir::{Exhausted, IdMap, IdSet, ToolAction, ToolFailure, id_map};

/// Run pass 1. Returns whether every edge (transition, checkpoint) resolved: when one did
/// not, the graph rules are skipped, since their verdict would follow from the broken edge
/// (no cascades).
///
/// Each rule pushes its diagnostics in authored order; the rules run in code order, and
/// the diagnostics are sorted by position and code afterwards.
/// `flagged` is what the front end rejected. Also returns the outcome index the names were
/// resolved with, for the graph.
pub(super) fn check<'a>(
    spec: &'a Spec,
    flagged: &'a Rejected,
    sink: &mut Diagnostics,
) -> (bool, super::outcomes::OutcomeIndex<'a>) {
    let g = &spec.graph;
    let phases = Names::new(spec, flagged);
    entry_named_like_its_declaration(spec, &phases, sink);
    invalid_ids_renamed_everywhere(spec, &phases, sink);
    // Rules 1-5: labels, phases and outcomes.
    archetype_not_blank(spec, sink);
    objectives_not_blank(g, sink);
    unique_phase_ids(&phases, sink);
    outcome_descriptions_not_blank(g, sink);
    unique_outcome_ids(g, sink);
    // The (phase, outcome) pairs with a transition, and those whose missing transition is
    // the one a transition of rule 7 or 8 was meant to be (one cause, one diagnostic).
    let slots = OutcomeSlots::new(g, &phases.outcomes);
    let mut covered = covered_slots(&slots, &phases);
    let meant = meant_sources(&slots, &mut covered, &phases);
    // Rules 6, 7, 9, 15, 16: every phase named is declared (one diagnostic per name).
    super::unknown::phase_references_exist(spec, &phases, &meant, sink);
    // Rules 8, 10, 11: outcomes and transitions.
    transition_outcomes_exist(&phases, &slots, &mut covered, sink);
    at_most_one_transition_per_outcome(&slots, &phases, sink);
    let missing = every_outcome_has_a_transition(&slots, &covered, &phases, sink);
    // Rules 14-16: checkpoints (rule 17, one checkpoint per phase, is retired: several
    // checkpoints may guard one phase, evaluated in authored order).
    unique_checkpoint_ids(g, sink);
    // Rules 18-22: error policy.
    retry_policy(spec, flagged, sink);
    phase_failure_policy(spec, flagged, sink);
    // MAS rules.
    super::mas::real_has_mission(spec, flagged, sink);
    super::mas::actor_not_empty(spec, sink);
    super::mas::veal_has_validator_and_checks(spec, flagged, sink);
    super::mas::fallback_has_agent(spec, flagged, sink);
    super::mas::unique_check_ids(spec, sink);
    super::mas::checks_can_run(spec, flagged, sink);
    super::mas::fallback_agent_used(spec, flagged, sink);
    // A missing transition (`V011`) is also why a terminal or a phase may be out of reach:
    // the graph rules wait for it (one cause, one diagnostic).
    let intact = edges_resolve(g, &phases)
        && !phases.transitions_flagged
        && !phases.phases_flagged
        && !missing;
    (intact, phases.outcomes)
}

/// The phase each `V007` transition was meant to leave (see [`Meant`]).
fn meant_sources<'a>(
    slots: &OutcomeSlots,
    covered: &mut [bool],
    phases: &Names<'a>,
) -> Vec<Meant<'a>> {
    let mut meant = Vec::new();
    let mut emitters = None;
    for (t, names) in phases.transitions() {
        if !matches!(names.from, Resolved::Unknown { .. })
            || counted_phase(phases, t, &names).is_some_and(|p| slots.of(p, &t.on).is_some())
        {
            continue;
        }
        let emitters = emitters.get_or_insert_with(|| Emitters::new(slots, phases));
        let mut open = (emitters.0.get(t.on.as_str()).into_iter().flatten())
            .filter(|&&(slot, _)| !covered[slot]);
        let (Some(&(slot, p)), None) = (open.next(), open.next()) else {
            continue;
        };
        covered[slot] = true;
        meant.push(Meant {
            pointer: t.origin.pointer_to("from"),
            phase: p.id.as_str(),
            on: t.on.as_str(),
        });
    }
    meant
}

/// The phases whose outcome coverage is judged (declared once, not excused), by each
/// outcome id they can emit: the slot of the outcome and the phase, in phase order. Built
/// once, when a transition leaves an undeclared phase: looking for the phase it was meant
/// to leave through every phase, for each such transition, was a pass over the loop per
/// error (100 of them in a 10,000-phase loop: 223 M of the 1,421 M instructions of
/// `check`, callgrind, issue 50).
struct Emitters<'a>(HashMap<&'a str, Vec<(usize, &'a Phase)>, foldhash::fast::RandomState>);

impl<'a> Emitters<'a> {
    fn new(slots: &OutcomeSlots, phases: &Names<'a>) -> Self {
        let mut by_on: HashMap<&'a str, Vec<(usize, &'a Phase)>, _> = HashMap::default();
        for (i, p) in phases.unique_indexed() {
            if phases.coverage_excused(&p.id) {
                continue;
            }
            let Some(first) = slots.start.get(i).copied() else {
                continue;
            };
            let declared = p.outcomes.iter().flatten().map(|o| o.id.as_str());
            let implicit = p.outcomes.is_none().then_some(IMPLICIT_OUTCOME);
            for (k, on) in declared.chain(implicit).enumerate() {
                // An outcome declared twice is the phase's once, at its first slot.
                let slot = first + k;
                if slots.of(i, on) == Some(slot) {
                    by_on.entry(on).or_default().push((slot, p));
                }
            }
        }
        Emitters(by_on)
    }
}

/// An `entry_phase` written as the invalid id of the phase it names is not a second
/// error: that phase's own `F005` says it, and its fix renames both (the schema's pattern
/// on `entry_phase` had reported it too).
fn entry_named_like_its_declaration(spec: &Spec, phases: &Names, sink: &mut Diagnostics) {
    if !phases.is_flagged_declaration(&spec.graph.entry) {
        return;
    }
    let entry = spec.provenance.pointer(Field::Entry);
    sink.retain(|d| !(d.code == Code::InvalidId && d.location.pointer == entry));
}

/// The fix of a phase's invalid id (`F005`, "set `id: read-issue`") renames every reference
/// written as that id too: renaming the declaration alone left them naming nothing.
fn invalid_ids_renamed_everywhere(spec: &Spec, phases: &Names, sink: &mut Diagnostics) {
    let g = &spec.graph;
    let flagged = |name: &str| phases.is_flagged_declaration(name);
    if !g.phases.iter().any(|p| flagged(&p.id)) {
        return;
    }
    let mut references: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for (name, _, member, _) in super::unknown::phase_references(spec, phases) {
        if flagged(name) {
            let pointer = super::unknown::reference_pointer(spec, member);
            references.entry(name).or_default().push(pointer);
        }
    }
    for p in &g.phases {
        let Some(refs) = references.get(p.id.as_str()) else {
            continue;
        };
        let at = p.origin.pointer_to("id");
        let declaration = sink
            .items_mut()
            .iter_mut()
            .find(|d| d.code == Code::InvalidId && d.location.pointer == at);
        for s in declaration
            .into_iter()
            .flat_map(|d| d.suggestions.iter_mut())
        {
            if let Suggestion::Set { to, .. } = s {
                let targets = std::iter::once(at.clone()).chain(refs.iter().cloned());
                *s = Suggestion::ReplaceAll {
                    targets: targets.map(EditTarget::value).collect(),
                    with: to.clone(),
                };
            }
        }
    }
}

/// Whether a transition's `from` is a declared phase and its `on` an outcome of its first
/// declaration (the one the graph is built from).
fn outcome_known(phases: &Names, t: &Transition, names: &TransitionNames) -> bool {
    // `on` was found among the outcomes of `from`'s first declaration when the names were
    // resolved: not looked up again. (Of a phase declared twice, an `on` declared by
    // another copy only is declared too, but not known here.)
    if names.on_at.is_some() {
        return names.from_index.is_some();
    }
    (names.from_index).is_some_and(|i| (phases.outcomes).has(i, &phases.graph.phases[i], &t.on))
}

/// Whether a target is a declared phase or a terminal.
fn resolves(phases: &Names, to: &Destination) -> bool {
    match to {
        Destination::Phase(p) => phases.contains(p),
        Destination::Terminal(_) => true,
    }
}

/// Whether every edge resolves: each transition leaves on a declared outcome of a declared
/// phase for a declared phase or a terminal, and each checkpoint guards a declared phase and
/// rejects to a declared phase or a terminal.
fn edges_resolve(g: &Graph, phases: &Names) -> bool {
    let transitions = phases
        .transitions()
        .all(|(t, n)| outcome_known(phases, t, &n) && target_declared(n.to));
    let checkpoints = g
        .checkpoints
        .iter()
        .flatten()
        .all(|c| phases.contains(&c.before_phase) && resolves(phases, &c.on_reject));
    transitions && checkpoints
}

/// Rule 1 (`V001`): `archetype`, when present, is not blank.
fn archetype_not_blank(spec: &Spec, sink: &mut Diagnostics) {
    if spec.archetype.as_deref().is_some_and(blank) {
        sink.value(
            Diagnostic::new(Code::BlankArchetype, "`archetype` is empty or blank")
                .with_help("remove `archetype` or give the loop a descriptive label")
                .at(spec.provenance.pointer(Field::Archetype)),
        );
    }
}

/// Rule 2 (`V002`): every phase (repeated ids included) has an objective.
fn objectives_not_blank(g: &Graph, sink: &mut Diagnostics) {
    for p in g.phases.iter().filter(|p| blank(&p.objective)) {
        sink.value(
            Diagnostic::new(
                Code::BlankObjective,
                format!("phase `{}` has a blank `objective`", p.id),
            )
            .with_help("say what the phase must achieve")
            .at(p.origin.pointer_to("objective")),
        );
    }
}

/// Rule 3 (`V003`): phase ids are unique; each repeat is reported.
fn unique_phase_ids(phases: &Names, sink: &mut Diagnostics) {
    let renamed = phases.renamed_duplicate();
    for (i, p) in phases.graph.phases.iter().enumerate() {
        let Some(j) = phases.first_index(&p.id) else {
            continue;
        };
        // Of an id renamed into, the renamed declaration is the one reported, first or not.
        let renamed_into = renamed.filter(|&(_, k)| p.id == phases.graph.phases[k].id);
        match renamed_into {
            Some((old, k)) if i == k => sink.value(renamed_into_duplicate(phases, old, i, j)),
            Some(_) => {}
            None if j != i => sink.value(
                Diagnostic::new(
                    Code::DuplicatePhase,
                    format!("phase id `{}` is declared twice", p.id),
                )
                .with_note(format!("first declared as phase {}", j + 1))
                .with_help("give each phase a unique id")
                .at(p.origin.pointer_to("id")),
            ),
            _ => {}
        }
    }
}

/// `V003` for phase `i`, renamed from `old` (which the references still name) into the id
/// of another phase, whose first declaration is `j`.
fn renamed_into_duplicate(phases: &Names, old: &str, i: usize, j: usize) -> Diagnostic {
    let g = phases.graph;
    let p = &g.phases[i];
    let other = if i == j {
        g.phases.iter().rposition(|q| q.id == p.id).unwrap_or(j)
    } else {
        j
    };
    Diagnostic::new(
        Code::DuplicatePhase,
        format!("phase id `{}` is declared twice", p.id),
    )
    .with_note(format!(
        "also declared as phase {}; the references name `{old}`, which no phase declares",
        other + 1
    ))
    .with_suggestion(Suggestion::Replace {
        target: EditTarget::value(p.origin.pointer_to("id")),
        with: old.to_owned(),
    })
    .at(p.origin.pointer_to("id"))
}

/// Rule 4 (`V004`): every declared outcome (of every phase) has a description.
fn outcome_descriptions_not_blank(g: &Graph, sink: &mut Diagnostics) {
    for p in &g.phases {
        for o in p
            .outcomes
            .iter()
            .flatten()
            .filter(|o| blank(&o.description))
        {
            sink.value(
                Diagnostic::new(
                    Code::BlankOutcomeDescription,
                    format!(
                        "outcome `{}` of phase `{}` has a blank `description`",
                        o.id, p.id
                    ),
                )
                .with_help("say when the phase emits this outcome")
                .at(o.origin.pointer_to("description")),
            );
        }
    }
}

/// Rule 5 (`V005`): a phase declares each outcome id once.
fn unique_outcome_ids(g: &Graph, sink: &mut Diagnostics) {
    let mut seen = IdSet::default();
    for p in &g.phases {
        seen.clear();
        // Sized once for the phase, not regrown while it fills.
        seen.reserve(p.outcomes.as_ref().map_or(0, Vec::len));
        for o in p.outcomes.iter().flatten() {
            if !seen.insert(o.id.as_str()) {
                sink.value(
                    Diagnostic::new(
                        Code::DuplicateOutcome,
                        format!("phase `{}` declares outcome `{}` twice", p.id, o.id),
                    )
                    .at(o.origin.pointer_to("id")),
                );
            }
        }
    }
}

/// Rule 8 (`V008`): every transition's `on` is an outcome of its `from` phase (of any of
/// its declarations, when the id repeats). Not checked when `from` is undeclared (`V007`
/// says so) or when the cause is reported already (a flagged outcome list or outcome id).
/// The transitions on one unknown outcome of one phase are one diagnostic; so are those
/// that leave a phase declaring no `outcomes` on outcomes it should declare (one
/// forgotten list).
///
/// A phase left on as many unknown outcomes as it has declared outcomes without a
/// transition is one cause per transition (an outcome named wrongly, `complete` for a
/// phase that declares outcomes): each `V008` names the outcomes left without a
/// transition, which are then covered (no `V011` for them).
fn transition_outcomes_exist(
    phases: &Names,
    slots: &OutcomeSlots,
    covered: &mut [bool],
    sink: &mut Diagnostics,
) {
    let mut groups: Vec<UnknownOutcomes> = Vec::new();
    // Where each group is in `groups` (searched in the list, a loop whose every
    // transition named an unknown outcome took quadratic time). The key's outcome is
    // `None` for a phase's forgotten outcome list.
    let mut group_of: IdMap<(&str, Option<&str>), usize> = id_map(0);
    for (t, names) in phases.transitions() {
        let from = match names.from {
            Resolved::Declared(p) | Resolved::Excused(Some(p)) => p,
            Resolved::Excused(None) | Resolved::Unknown { .. } => continue,
        };
        let Some(Resolved::Unknown { near }) = names.on else {
            continue;
        };
        let declares_none = phases.get(from).is_some_and(|p| p.outcomes.is_none());
        let on = t.on.as_str();
        let key = (from, (!declares_none || near.is_some()).then_some(on));
        let at = t.origin.pointer_to("on");
        match group_of.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => {
                let g = &mut groups[*e.get()];
                g.places.push((at, on));
                if !g.ons.contains(&on) {
                    g.ons.push(on);
                }
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(groups.len());
                groups.push(UnknownOutcomes {
                    from,
                    list_forgotten: key.1.is_none(),
                    ons: vec![on],
                    near,
                    places: vec![(at, on)],
                    open: Vec::new(),
                });
            }
        }
    }
    for g in &mut groups {
        if g.list_forgotten {
            continue;
        }
        let Some(i) = phases
            .first_index(g.from)
            .filter(|_| !phases.coverage_excused(g.from))
        else {
            continue;
        };
        let wrong = groups_of(&group_of, g.from);
        let open = open_outcomes(phases, slots, covered, i);
        // A group whose `on` is one edit from a declared outcome counts for that one.
        if g.near.is_none() && !open.is_empty() && open.len() == wrong {
            g.open = open;
        }
    }
    for g in groups {
        if let Some(i) = phases.first_index(g.from) {
            for o in &g.open {
                if let Some(slot) = slots.of(i, o) {
                    covered[slot] = true;
                }
            }
        }
        sink.value(g.diagnostic(phases));
    }
}

/// How many `V008` groups leave phase `from` on an unknown outcome.
fn groups_of(group_of: &IdMap<(&str, Option<&str>), usize>, from: &str) -> usize {
    group_of
        .keys()
        .filter(|(f, on)| *f == from && on.is_some())
        .count()
}

/// The declared outcomes of the phase at `i` that no transition leaves it on (and whose
/// ids are not flagged), in declared order.
fn open_outcomes<'a>(
    phases: &Names<'a>,
    slots: &OutcomeSlots,
    covered: &[bool],
    i: usize,
) -> Vec<&'a str> {
    let Some(p) = phases.graph.phases.get(i) else {
        return Vec::new();
    };
    let mut open: Vec<&str> = Vec::new();
    for (k, o) in p.outcomes.iter().flatten().enumerate() {
        let slot = slots.start[i] + k;
        if !covered[slot] && !phases.outcome_flagged(&p.id, &o.id) && !open.contains(&o.id.as_str())
        {
            open.push(&o.id);
        }
    }
    open
}

/// The transitions of one `V008`: on one unknown outcome of a phase, or on the outcomes
/// a phase that declares none should declare.
struct UnknownOutcomes<'a> {
    from: &'a str,
    /// The phase declares no `outcomes`, and `ons` are what it should declare.
    list_forgotten: bool,
    /// The unknown outcomes, in the order first named.
    ons: Vec<&'a str>,
    /// The declared outcome one edit from the single unknown one.
    near: Option<&'a str>,
    /// The pointer of every transition's `on`, and that `on`, in authored order.
    places: Vec<(String, &'a str)>,
    /// The phase's declared outcomes without a transition, which these transitions were
    /// meant for (empty unless as many as the phase's groups of unknown outcomes).
    open: Vec<&'a str>,
}

impl UnknownOutcomes<'_> {
    fn diagnostic(self, phases: &Names) -> Diagnostic {
        let from = self.from;
        let quoted: Vec<String> = self.ons.iter().map(|o| format!("`{o}`")).collect();
        let ons = crate::text::list(&quoted, "and");
        let message = if self.list_forgotten {
            format!("phase `{from}` declares no `outcomes`, but transitions leave it on {ons}")
        } else {
            format!("phase `{from}` has no outcome {ons}")
        };
        let first = self.places.first().map(|(at, _)| at.clone());
        let mut d = Diagnostic::new(Code::UnknownOutcome, message).at(first.unwrap_or_default());
        for (at, on) in self.places.iter().skip(1) {
            let label = if self.list_forgotten {
                format!("another transition leaves it on `{on}`")
            } else {
                format!("`{on}` again, as a transition's `on`")
            };
            d = d.with_label(at.clone(), label);
        }
        if self.list_forgotten {
            return d.with_help(format!(
                "declare {ons} in the `outcomes` of `{from}` (without them, its only outcome is the implicit `complete`)"
            ));
        }
        if !self.open.is_empty() {
            let quoted: Vec<String> = self.open.iter().map(|o| format!("`{o}`")).collect();
            let open = crate::text::list(&quoted, "and");
            let (outcome, has, it) = if self.open.len() == 1 {
                ("outcome", "has", "it")
            } else {
                ("outcomes", "have", "one of them")
            };
            d = d.with_note(format!(
                "{outcome} {open} of `{from}` {has} no transition: this transition is probably meant for {it}"
            ));
            if let [o] = self.open[..] {
                let places = self.places.into_iter().map(|(at, _)| at).collect();
                return d.with_suggestion(super::unknown::replace_at(places, o));
            }
        }
        let places = self.places.into_iter().map(|(at, _)| at).collect();
        outcome_help(phases, d, (from, self.ons[0]), self.near, places)
    }
}

/// Help for an unknown outcome `on` of phase `from`: `complete` on a phase that declares
/// outcomes, the outcome one edit away, or the closest valid outcome (or the list).
fn outcome_help(
    phases: &Names,
    d: Diagnostic,
    (from, on): (&str, &str),
    near: Option<&str>,
    places: Vec<String>,
) -> Diagnostic {
    let outs = phases.valid_outcomes(from);
    if on == crate::ir::IMPLICIT_OUTCOME && !outs.is_empty() {
        let quoted: Vec<String> = outs.iter().map(|o| format!("`{o}`")).collect();
        return d.with_help(format!(
            "`complete` is implicit only for a phase that declares no outcomes; `{from}` declares {}",
            crate::text::list(&quoted, "and")
        ));
    }
    match near {
        Some(o) => d.with_suggestion(super::unknown::replace_at(places, o)),
        None => unknown_id_help(d, on, &outs, "outcome"),
    }
}

/// Each (phase, outcome) pair of a graph as a number: the outcomes of phase `i` (its
/// declaration at index `i`) are the slots `start[i]..start[i + 1]`, in declared order; a
/// phase that declares no outcomes has one, its implicit `complete`. Rules 10 and 11 mark
/// pairs in a list indexed by slot: keyed by the pair of ids, their two hash tables were
/// 4.7 MB for a loop of 30,000 transitions, and hashing the pairs a tenth of `check`'s
/// CPU time there.
struct OutcomeSlots<'a> {
    graph: &'a Graph,
    start: Vec<usize>,
    index: &'a super::outcomes::OutcomeIndex<'a>,
}

impl<'a> OutcomeSlots<'a> {
    fn new(graph: &'a Graph, index: &'a super::outcomes::OutcomeIndex<'a>) -> Self {
        let mut start = Vec::with_capacity(graph.phases.len() + 1);
        let mut next = 0;
        start.push(next);
        for p in &graph.phases {
            next += p.outcomes.as_ref().map_or(1, Vec::len);
            start.push(next);
        }
        OutcomeSlots {
            graph,
            start,
            index,
        }
    }

    /// How many slots there are.
    fn len(&self) -> usize {
        self.start.last().copied().unwrap_or(0)
    }

    /// The slot of outcome `on` of the phase at index `phase`: its first declaration of
    /// `on`; `None` when that phase cannot emit `on`.
    fn of(&self, phase: usize, on: &str) -> Option<usize> {
        let k = (self.index).position(phase, self.graph.phases.get(phase)?, on)?;
        Some(self.start.get(phase)? + k)
    }

    /// The slot transition `t`, whose names are `names`, leaves on: that of its `on` among
    /// the outcomes of its `from`'s first declaration; `None` when that cannot emit `on`.
    fn of_transition(&self, t: &Transition, names: &TransitionNames) -> Option<usize> {
        let p = names.from_index?;
        match names.on_at {
            Some(k) => Some(self.start.get(p)? + k),
            None => self.of(p, &t.on),
        }
    }
}

/// Rule 10 (`V010`): no (phase, outcome) pair has two transitions (transitions on unknown
/// outcomes are left to `V007`/`V008`, and a phase declared twice to `V003`: its copies'
/// transitions cannot be told apart).
fn at_most_one_transition_per_outcome(
    slots: &OutcomeSlots,
    phases: &Names,
    sink: &mut Diagnostics,
) {
    const NONE: usize = usize::MAX;
    let mut first = vec![NONE; slots.len()];
    for (i, (t, names)) in phases.transitions().enumerate() {
        let slot = slots.of_transition(t, &names);
        let Some(slot) = slot.filter(|_| !phases.is_duplicated(&t.from)) else {
            continue;
        };
        match first[slot] {
            NONE => first[slot] = i,
            earlier => sink.value(
                Diagnostic::new(
                    Code::DuplicateTransition,
                    format!(
                        "outcome `{}` of phase `{}` has more than one transition",
                        t.on, t.from
                    ),
                )
                .with_note(format!("first transition is number {}", earlier + 1))
                .with_help("a transition has no conditions: keep one target per outcome")
                .at(t.origin.pointer()),
            ),
        }
    }
}

/// The (phase, outcome) pairs some transition counts for: by name, or through recovery
/// (a `from` or `on` one edit from a declared name, an invalid id written validly). A pair
/// is the slot of the first declaration of the phase; a phase declared twice has none of
/// its other copies' outcomes marked, and rule 11 does not judge it.
fn covered_slots(slots: &OutcomeSlots, phases: &Names) -> Vec<bool> {
    let mut covered = vec![false; slots.len()];
    for (t, names) in phases.transitions() {
        let on = names.on.and_then(Resolved::counts_for);
        let Some(on) = on else {
            continue;
        };
        let slot = match (names.from_index, names.on_at) {
            // Its `from` and `on` are declared: the slot found when the names were.
            (Some(p), Some(k)) => slots.start.get(p).map(|s| s + k),
            _ => counted_phase(phases, t, &names).and_then(|p| slots.of(p, on)),
        };
        if let Some(slot) = slot {
            covered[slot] = true;
        }
    }
    covered
}

/// The index of the first declaration of the phase transition `t`'s `from` counts for
/// (itself, or the declared name it misspells).
fn counted_phase(phases: &Names, t: &Transition, names: &TransitionNames) -> Option<usize> {
    match names.from.counts_for()? {
        from if from == t.from => names.from_index,
        from => phases.first_index(from),
    }
}

/// The phases (by index of their first declaration) that some transition leaves on an
/// outcome they do not declare (`V008`).
fn left_on_unknown_outcomes(phases: &Names) -> Vec<bool> {
    let mut left = vec![false; phases.graph.phases.len()];
    for (t, names) in phases.transitions() {
        let Some(Resolved::Unknown { .. }) = names.on else {
            continue;
        };
        if let Some(i) = counted_phase(phases, t, &names) {
            left[i] = true;
        }
    }
    left
}

/// Rule 11 (`V011`): every (phase, outcome) pair has a transition. A repeated outcome id is
/// checked once; a phase whose id is flagged or repeated, or whose outcome list is flagged,
/// and an outcome whose id is flagged are not checked (their own error is the one); nor is
/// anything when the transition list is flagged.
/// Returns whether it reported one.
fn every_outcome_has_a_transition(
    slots: &OutcomeSlots,
    covered: &[bool],
    phases: &Names,
    sink: &mut Diagnostics,
) -> bool {
    if phases.transitions_flagged {
        return false;
    }
    let mut reported = false;
    let left_on_unknown = left_on_unknown_outcomes(phases);
    let mut seen = IdSet::default();
    let judged = phases
        .unique_indexed()
        .filter(|(_, p)| !phases.coverage_excused(&p.id));
    for (i, p) in judged {
        let Some(os) = &p.outcomes else {
            // Left on outcomes it does not declare (`V008`): its outcome list is what is
            // missing, not a transition on `complete`.
            if !covered[slots.start[i]] && !left_on_unknown[i] {
                reported = true;
                sink.value(
                    Diagnostic::new(
                        Code::MissingTransition,
                        format!(
                            "phase `{}` has no transition for its implicit outcome `complete`",
                            p.id
                        ),
                    )
                    .with_suggestion(Suggestion::AddTransition {
                        from: p.id.clone(),
                        on: crate::ir::IMPLICIT_OUTCOME.to_owned(),
                    })
                    .at(p.origin.pointer_to("id")),
                );
            }
            continue;
        };
        seen.clear();
        seen.reserve(os.len());
        for (k, o) in os.iter().enumerate() {
            // The first declaration of each id (a repeat is `V005`'s), which is its slot.
            if seen.insert(o.id.as_str())
                && !phases.outcome_flagged(&p.id, &o.id)
                && !covered[slots.start[i] + k]
            {
                reported = true;
                sink.value(
                    Diagnostic::new(
                        Code::MissingTransition,
                        format!("outcome `{}` of phase `{}` has no transition", o.id, p.id),
                    )
                    .with_suggestion(Suggestion::AddTransition {
                        from: p.id.clone(),
                        on: o.id.clone(),
                    })
                    .at(o.origin.pointer_to("id")),
                );
            }
        }
    }
    reported
}

/// Rule 14 (`V014`): checkpoint ids are unique.
fn unique_checkpoint_ids(g: &Graph, sink: &mut Diagnostics) {
    let mut first: IdMap<&str, usize> = IdMap::default();
    for (i, c) in g.checkpoints.iter().flatten().enumerate() {
        if let Some(j) = earlier(&mut first, &c.id, i) {
            sink.value(
                Diagnostic::new(
                    Code::DuplicateCheckpoint,
                    format!("checkpoint id `{}` is declared twice", c.id),
                )
                .with_note(format!("first declared as checkpoint {}", j + 1))
                .at(c.origin.pointer_to("id")),
            );
        }
    }
}

/// Rules 18-21 (`V018`-`V021`): `action: retry` needs `max_retries` and `on_exhausted`, and
/// any other action allows neither. A member given unreadably (reported already) is not
/// also missing.
fn retry_policy(spec: &Spec, flagged: &Rejected, sink: &mut Diagnostics) {
    let Some(tf) = spec
        .bounds
        .error_policy
        .as_ref()
        .and_then(|ep| ep.tool_failure.as_ref())
    else {
        return;
    };
    let tp = spec.provenance.pointer(Field::ToolFailure);
    if tf.action == ToolAction::Retry {
        for (field, given, code, _) in retry_members(tf) {
            if !given && !flagged.contains(|| format!("{tp}/{field}")) {
                sink.key(
                    Diagnostic::new(code, format!("`tool_failure` has `action: retry` but no `{field}`"))
                        .with_help("a retry policy needs `max_retries` (at least 1) and `on_exhausted` (`fail_phase`, `abort` or `handoff`)")
                        .at(tp.clone()),
                );
            }
        }
    } else {
        only_with_retry(tf, &tp, sink);
    }
}

/// The members of a retry policy: each one's name, whether `tf` gives it, its code when
/// `action: retry` lacks it and its code when another action has it.
fn retry_members(tf: &ToolFailure) -> [(&'static str, bool, Code, Code); 2] {
    [
        (
            "max_retries",
            tf.max_retries.is_some(),
            Code::RetryWithoutMaxRetries,
            Code::MaxRetriesWithoutRetry,
        ),
        (
            "on_exhausted",
            tf.on_exhausted.is_some(),
            Code::RetryWithoutOnExhausted,
            Code::OnExhaustedWithoutRetry,
        ),
    ]
}

/// Rules 20-21 (`V020`, `V021`): `max_retries` and `on_exhausted` under an action other
/// than `retry`. Both given is one mistake (the action, or the retry members left behind
/// when it changed), so one diagnostic: the first member's, labelled at the second.
fn only_with_retry(tf: &ToolFailure, tp: &str, sink: &mut Diagnostics) {
    let given: Vec<(Code, &str)> = retry_members(tf)
        .into_iter()
        .filter_map(|(field, given, _, code)| given.then_some((code, field)))
        .collect();
    let Some(&(code, first)) = given.first() else {
        return;
    };
    let action = tf.action.as_str();
    let fields = given
        .iter()
        .map(|(_, f)| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(" and ");
    let verb = if given.len() == 1 { "is" } else { "are" };
    let mut d = Diagnostic::new(
        code,
        format!("{fields} {verb} only allowed with `action: retry`, not `action: {action}`"),
    );
    // A fix is offered only when it is the whole fix: removing the one member, or, when
    // both are given, retrying (with one of them, retrying would lack the other: `V018`
    // or `V019`).
    if let [(_, field)] = given[..] {
        let other = if field == "max_retries" {
            "on_exhausted"
        } else {
            "max_retries"
        };
        d = d
            .with_suggestion(Suggestion::RemoveKey {
                target: EditTarget::key(format!("{tp}/{field}")),
            })
            .with_note(format!("to retry, set `action: retry` and add `{other}`"));
    } else {
        d = d
            .with_note(format!("to keep `action: {action}`, remove {fields}"))
            .with_suggestion(Suggestion::Set {
                target: EditTarget::value(format!("{tp}/action")),
                to: ToolAction::Retry.as_str().to_owned(),
            });
    }
    for (_, field) in &given[1..] {
        d = d.with_key_label(format!("{tp}/{field}"), format!("`{field}`"));
    }
    sink.key(d.at(format!("{tp}/{first}")));
}

/// Rule 22 (`V022`): when a tool failure can fail the phase (`fail_phase`, or a retry that
/// ends in `fail_phase`), `error_policy` says what a phase failure does.
fn phase_failure_policy(spec: &Spec, flagged: &Rejected, sink: &mut Diagnostics) {
    let Some(ep) = &spec.bounds.error_policy else {
        return;
    };
    let Some(tf) = &ep.tool_failure else {
        return;
    };
    let can_fail_phase = tf.action == ToolAction::FailPhase
        || (tf.action == ToolAction::Retry && tf.on_exhausted == Some(Exhausted::FailPhase));
    let ep_pointer = spec.provenance.pointer(Field::ErrorPolicy);
    let unread = || flagged.contains(|| format!("{ep_pointer}/phase_failure"));
    if can_fail_phase && ep.phase_failure.is_none() && !unread() {
        sink.key(
            Diagnostic::new(
                Code::MissingPhaseFailure,
                "tool failure can fail the phase, but `error_policy` has no `phase_failure`",
            )
            .with_help("add `\"phase_failure\": {\"action\": \"abort\"}` (or `handoff`)")
            .at(ep_pointer),
        );
    }
}
