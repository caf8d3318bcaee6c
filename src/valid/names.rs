//! The declared names, computed once before any rule runs, and how each reference resolves:
//! one cause, one diagnostic (rustc's error recovery).
//!
//! A declaration that is itself wrong is reported once, where it is, and the rules that
//! rest on it stay silent:
//!
//! * a *flagged* value is one whose own error an earlier stage already reported (a bad or
//!   empty id, an empty or wrong-typed list: `F003`, `F004`, `F005`, `F009`, `F014` at its
//!   pointer; see [`crate::diag::Rejected`]);
//! * a phase whose id is flagged or declared twice (`V003`) is *poisoned*: its outcomes are
//!   not checked for transitions (`V011`, `V010`), and a reference that is its id written
//!   validly (`investigate` for `Investigate`) counts for it without a diagnostic;
//! * a flagged phase list, transition list or outcome list excuses every check that would
//!   judge a reference against it;
//! * a reference one edit from a declared name (an insertion, deletion, replacement or
//!   swap of two neighbouring characters, or differing only in case) is still
//!   reported, but counts for that name: no second "missing transition" for it;
//! * "did you mean" offers declared ids that are valid, never a flagged one.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::{Diagnostic, EditTarget, Rejected, Suggestion};
use crate::ir::id_pattern::repaired_id;
use crate::ir::{Destination, Graph, IMPLICIT_OUTCOME, IdMap, Phase, Spec, Transition, id_map};
use crate::text::did_you_mean::{closest, one_edit};

/// How a reference to a phase or an outcome resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Resolved<'a> {
    /// It names a declared phase (outcome) exactly.
    Declared(&'a str),
    /// It names nothing, but its cause is reported already (a flagged declaration or list,
    /// or its own value); it counts for the declared name, when there is one.
    Excused(Option<&'a str>),
    /// It names nothing: reported. `near` is the declared name one edit away that it
    /// counts for.
    Unknown {
        /// The unique valid declared name one edit away (or differing only in case).
        near: Option<&'a str>,
    },
}

impl<'a> Resolved<'a> {
    /// The declared name the reference counts for, if any.
    pub(super) fn counts_for(self) -> Option<&'a str> {
        match self {
            Resolved::Declared(n) | Resolved::Excused(Some(n)) => Some(n),
            Resolved::Unknown { near } => near,
            Resolved::Excused(None) => None,
        }
    }
}

/// The declared phases by id, and what is wrong with their declarations.
pub(super) struct Names<'a> {
    pub(super) graph: &'a Graph,
    /// Where each declaration's outcomes are, by id.
    pub(super) outcomes: super::outcomes::OutcomeIndex<'a>,
    /// Index into `graph.phases` of each id's first declaration.
    first: IdMap<&'a str, usize>,
    /// The ids in order of first declaration that are valid (for "did you mean").
    valid_ids: Vec<&'a str>,
    /// The ids whose declaration is flagged, in order of declaration.
    invalid_ids: Vec<&'a str>,
    /// The same, for lookups.
    invalid_set: BTreeSet<&'a str>,
    /// The flagged ids by the valid spellings that count for them: lowercased, and
    /// repaired ([`repaired_id`]); `None` when two flagged ids share one.
    written_validly: BTreeMap<String, Option<&'a str>>,
    /// Ids declared more than once.
    duplicated: BTreeSet<&'a str>,
    /// Phases (by id) one of whose declarations has a flagged outcome list.
    outcomes_flagged: BTreeSet<&'a str>,
    /// Outcomes (phase id, outcome id) whose id is flagged.
    invalid_outcomes: BTreeSet<(&'a str, &'a str)>,
    /// The phase list is flagged (empty): references to phases cannot be judged.
    pub(super) phases_flagged: bool,
    /// The transition list is flagged (empty): coverage cannot be judged.
    pub(super) transitions_flagged: bool,
    flagged: &'a Rejected,
    /// How each transition's names resolve, in transition order, packed
    /// ([`Names::transitions`] unpacks them): the first declaration of its `from`, or
    /// [`UNUSUAL`] when one of its names is not a declared name written exactly (then they
    /// are resolved again when read: few are), and the position of its `on` among that
    /// declaration's outcomes. Eight bytes a transition, not the hundred of a
    /// [`TransitionNames`].
    transitions: Vec<(u32, u32)>,
    /// A phase renamed in its declaration only ([`Names::find_rename`]), found when first
    /// asked: a loop whose every name is declared never looks.
    /// (Owned, not borrowed: a cell of borrowed names would pin `'a`.)
    renamed: std::cell::OnceCell<Option<(String, usize)>>,
}

/// In [`Names::transitions`]: a transition one of whose names is not a declared name
/// written exactly.
const UNUSUAL: u32 = u32::MAX;

/// Whether a transition's target, resolved as `to` (`None`: a terminal), is a terminal or
/// a declared phase written exactly.
pub(super) fn target_declared(to: Option<Resolved>) -> bool {
    matches!(to, None | Some(Resolved::Declared(_)))
}

/// How one transition's names resolve, found once by [`Names::new`]: every rule on
/// transitions reads them from [`Names::transitions`] (each looked them up again, a dozen
/// hash lookups a transition, a tenth of validating a loop of 30,000 transitions).
#[derive(Debug, Clone, Copy)]
pub(super) struct TransitionNames<'a> {
    /// Its `from`.
    pub(super) from: Resolved<'a>,
    /// The first declaration of `from`, when `from` names a declared phase exactly.
    pub(super) from_index: Option<usize>,
    /// Its `on`, against the outcomes of the phase `from` counts for (`None` when `from`
    /// counts for none).
    pub(super) on: Option<Resolved<'a>>,
    /// The position of `on` among the outcomes of the declaration at `from_index`, when
    /// `from` is declared and `on` is one of its outcomes (its slot, found once).
    pub(super) on_at: Option<usize>,
    /// Its `to`, when `to` is a phase (`None` for a terminal).
    pub(super) to: Option<Resolved<'a>>,
}

impl<'a> Names<'a> {
    pub(super) fn new(spec: &'a Spec, flagged: &'a Rejected) -> Self {
        use crate::ir::Field;
        let graph = &spec.graph;
        let mut first = id_map(graph.phases.len());
        let mut duplicated = BTreeSet::new();
        for (i, p) in graph.phases.iter().enumerate() {
            match first.entry(p.id.as_str()) {
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(i);
                }
                std::collections::hash_map::Entry::Occupied(_) => {
                    duplicated.insert(p.id.as_str());
                }
            }
        }
        let mut names = Names {
            graph,
            outcomes: super::outcomes::OutcomeIndex::new(graph),
            first,
            valid_ids: Vec::new(),
            invalid_ids: Vec::new(),
            invalid_set: BTreeSet::new(),
            written_validly: BTreeMap::new(),
            duplicated,
            outcomes_flagged: BTreeSet::new(),
            invalid_outcomes: BTreeSet::new(),
            phases_flagged: flagged.contains(|| spec.provenance.pointer(Field::Phases)),
            transitions_flagged: flagged.contains(|| spec.provenance.pointer(Field::Transitions)),
            flagged,
            transitions: Vec::new(),
            renamed: std::cell::OnceCell::new(),
        };
        names.sort_declarations();
        names.transitions = graph.transitions.iter().map(|t| names.pack(t)).collect();
        names
    }

    /// A transition's entry in [`Self::transitions`].
    fn pack(&self, t: &'a Transition) -> (u32, u32) {
        let names = self.resolve(t);
        let on_at = names.on_at.and_then(|k| u32::try_from(k).ok());
        match (names.from_index.map(u32::try_from), on_at) {
            (Some(Ok(i)), Some(k)) if i != UNUSUAL && target_declared(names.to) => (i, k),
            _ => (UNUSUAL, 0),
        }
    }

    /// How the names of transition `t`, whose entry in [`Self::transitions`] is `packed`,
    /// resolve.
    fn unpack(&self, t: &'a Transition, (packed, on_at): (u32, u32)) -> TransitionNames<'a> {
        if packed == UNUSUAL {
            return self.resolve(t);
        }
        TransitionNames {
            from: Resolved::Declared(&t.from),
            from_index: Some(packed as usize),
            on: Some(Resolved::Declared(&t.on)),
            on_at: Some(on_at as usize),
            to: match &t.to {
                Destination::Phase(to) => Some(Resolved::Declared(to)),
                Destination::Terminal(_) => None,
            },
        }
    }

    /// How the names of transition `t` resolve.
    fn resolve(&self, t: &'a Transition) -> TransitionNames<'a> {
        let from = self.phase(&t.from, || t.origin.pointer_to("from"));
        let (on, on_at) = match from.counts_for() {
            Some(p) => {
                let (on, at) = self.outcome_at(p, &t.on, || t.origin.pointer_to("on"));
                (
                    Some(on),
                    at.filter(|_| matches!(from, Resolved::Declared(_))),
                )
            }
            None => (None, None),
        };
        let to = match &t.to {
            Destination::Phase(to) => Some(self.phase(to, || t.origin.pointer_to("to"))),
            Destination::Terminal(_) => None,
        };
        TransitionNames {
            from,
            from_index: self.first_index(&t.from),
            on,
            on_at,
            to,
        }
    }

    /// Each transition and how its names resolve, in transition order.
    pub(super) fn transitions(
        &self,
    ) -> impl Iterator<Item = (&'a Transition, TransitionNames<'a>)> + '_ {
        let graph = self.graph;
        graph
            .transitions
            .iter()
            .zip(&self.transitions)
            .map(|(t, &packed)| (t, self.unpack(t, packed)))
    }

    /// Sort the declared ids into valid and flagged, and find the flagged outcome lists and
    /// outcome ids.
    fn sort_declarations(&mut self) {
        if self.flagged.is_empty() {
            // Sized at once (grown by doubling, each larger copy was fresh memory).
            let mut valid = Vec::with_capacity(self.first.len());
            valid.extend(self.unique().map(|p| p.id.as_str()));
            self.valid_ids = valid;
            return;
        }
        for (i, p) in self.graph.phases.iter().enumerate() {
            let is_flagged = self.is_flagged(|| p.origin.pointer_to("id"));
            if self.first[p.id.as_str()] == i {
                if is_flagged {
                    self.invalid_ids.push(&p.id);
                    self.invalid_set.insert(&p.id);
                    let forms = [Some(p.id.to_ascii_lowercase()), repaired_id(&p.id)];
                    for form in forms.into_iter().flatten() {
                        self.written_validly
                            .entry(form)
                            .and_modify(|v| {
                                if *v != Some(p.id.as_str()) {
                                    *v = None;
                                }
                            })
                            .or_insert(Some(&p.id));
                    }
                } else {
                    self.valid_ids.push(&p.id);
                }
            }
            if self.is_flagged(|| p.origin.pointer_to("outcomes")) {
                self.outcomes_flagged.insert(&p.id);
            }
            for o in p.outcomes.iter().flatten() {
                if self.is_flagged(|| o.origin.pointer_to("id")) {
                    self.invalid_outcomes.insert((&p.id, &o.id));
                }
            }
        }
    }

    /// Whether the value at `pointer` was reported as unusable.
    pub(super) fn is_flagged(&self, pointer: impl FnOnce() -> String) -> bool {
        self.flagged.contains(pointer)
    }

    /// Whether `id` is a declared phase.
    pub(super) fn contains(&self, id: &str) -> bool {
        self.first.contains_key(id)
    }

    /// The first phase declared as `id`.
    pub(super) fn get(&self, id: &str) -> Option<&'a Phase> {
        self.first.get(id).map(|&i| &self.graph.phases[i])
    }

    /// The index of the first declaration of `id`.
    pub(super) fn first_index(&self, id: &str) -> Option<usize> {
        self.first.get(id).copied()
    }

    /// The valid declared ids, in order of declaration (the did-you-mean candidates).
    pub(super) fn valid_ids(&self) -> &[&'a str] {
        &self.valid_ids
    }

    /// The declared ids that are flagged, in order of declaration.
    pub(super) fn invalid_ids(&self) -> &[&'a str] {
        &self.invalid_ids
    }

    /// Each id's first declaration, in authored order.
    pub(super) fn unique(&self) -> impl Iterator<Item = &'a Phase> + '_ {
        self.unique_indexed().map(|(_, p)| p)
    }

    /// Each id's first declaration and its index, in authored order.
    pub(super) fn unique_indexed(&self) -> impl Iterator<Item = (usize, &'a Phase)> + '_ {
        let graph = self.graph;
        graph
            .phases
            .iter()
            .enumerate()
            .filter(|&(i, p)| self.first.get(p.id.as_str()) == Some(&i))
    }

    /// Whether the transitions of phase `id` cannot be judged for coverage: its id is
    /// flagged or declared twice, or its outcome list is flagged.
    pub(super) fn coverage_excused(&self, id: &str) -> bool {
        self.duplicated.contains(id)
            || self.outcomes_flagged.contains(id)
            || self.invalid_set.contains(id)
    }

    /// Whether `id` is declared, and its declaration is flagged (a bad id, reported).
    pub(super) fn is_flagged_declaration(&self, id: &str) -> bool {
        self.invalid_set.contains(id)
    }

    /// Whether phase `id` is declared more than once.
    pub(super) fn is_duplicated(&self, id: &str) -> bool {
        self.duplicated.contains(id)
    }

    /// Whether the outcome `on` of phase `id` has a flagged id.
    pub(super) fn outcome_flagged(&self, id: &str, on: &str) -> bool {
        self.invalid_outcomes.contains(&(id, on))
    }

    /// Resolve a reference to a phase, the value `name` at `pointer` (written out only
    /// when `name` is not declared: most references are, and a large loop has tens of
    /// thousands of them).
    pub(super) fn phase(&self, name: &'a str, pointer: impl FnOnce() -> String) -> Resolved<'a> {
        if let Some((&id, _)) = self.first.get_key_value(name) {
            return Resolved::Declared(id);
        }
        if self.phases_flagged || self.is_flagged(pointer) {
            return Resolved::Excused(None);
        }
        if let Some(&Some(id)) = self.written_validly.get(&name.to_ascii_lowercase()) {
            return Resolved::Excused(Some(id));
        }
        let renamed = self.renamed_as(name);
        let invalid = |id: &&str| self.invalid_set.contains(id);
        if let Some(id) = renamed.filter(|id| invalid(id) && repaired_id(id).is_none()) {
            // Renamed to an invalid id with no valid form (`plän`), which is reported: the
            // references name what it should be. (One with a valid form, `Investigate`,
            // is written validly as that form, or the references are a second mistake.)
            return Resolved::Excused(Some(id));
        }
        let near = unique(compared(&self.valid_ids).iter().copied(), |d| {
            one_edit(name, d)
        });
        if near.is_none()
            && let Some(id) = renamed.filter(|id| self.duplicated.contains(id))
        {
            // Renamed into another phase's id: the duplicate (`V003`) says what the
            // references name.
            return Resolved::Excused(Some(id));
        }
        Resolved::Unknown {
            near: near.or(renamed.filter(|id| !invalid(id))),
        }
    }

    /// The declared phase the undeclared `name` was renamed to, when a phase was renamed
    /// in its declaration only ([`Names::find_rename`]).
    fn renamed_as(&self, name: &str) -> Option<&'a str> {
        let (old, new) = self.renamed.get_or_init(|| self.find_rename()).as_ref()?;
        let graph: &'a Graph = self.graph;
        (old == name).then(|| graph.phases[*new].id.as_str())
    }

    /// A phase renamed in its declaration only: the references name exactly one
    /// undeclared phase, and exactly one declared phase is named by no reference (not the
    /// entry, no `from`, no `to`), or, when every declared phase is named, exactly one id
    /// is declared twice (renamed into another phase's id: [`Self::renamed_duplicate`]).
    /// The references then count for it, as for a typo: one diagnostic, "did you mean" the
    /// new name (or the old one, for a duplicate), and no rule judges the renamed phase as
    /// if it had no transitions.
    fn find_rename(&self) -> Option<(String, usize)> {
        let g = self.graph;
        let targets = g.transitions.iter().filter_map(|t| match &t.to {
            Destination::Phase(to) => Some(to.as_str()),
            Destination::Terminal(_) => None,
        });
        let references = || {
            std::iter::once(g.entry.as_str())
                .chain(g.transitions.iter().map(|t| t.from.as_str()))
                .chain(targets.clone())
        };
        // A misspelled terminal is never a phase's old id.
        let mut undeclared =
            references().filter(|r| !r.starts_with('$') && !self.first.contains_key(r));
        let old = undeclared.next()?;
        if undeclared.any(|r| r != old) {
            return None;
        }
        let referenced: crate::ir::IdSet<&str> = references().collect();
        let declared = self.valid_ids.iter().chain(&self.invalid_ids);
        let mut unreferenced = declared.filter(|id| !referenced.contains(**id));
        let Some(&new) = unreferenced.next() else {
            return self
                .renamed_into_duplicate(old)
                .map(|i| (old.to_owned(), i));
        };
        let index = self.first.get(new).copied()?;
        unreferenced
            .next()
            .is_none()
            .then(|| (old.to_owned(), index))
    }

    /// The declaration renamed from `old` into an id declared twice, when exactly one id
    /// is and `old` is no typo of a declared id: of its two declarations, the one whose
    /// outcomes fit the transitions from `old` best and those from the shared id least (the
    /// later one on a tie, where `V003` is reported).
    fn renamed_into_duplicate(&self, old: &str) -> Option<usize> {
        // A reference one edit from a declared id is a typo of it, not a rename.
        if compared(&self.valid_ids).iter().any(|d| one_edit(old, d)) {
            return None;
        }
        let mut dups = self.duplicated.iter();
        let (dup, None) = (dups.next()?, dups.next()) else {
            return None;
        };
        let g = self.graph;
        let declarations: Vec<usize> = (g.phases.iter().enumerate())
            .filter(|(_, p)| p.id == *dup)
            .map(|(i, _)| i)
            .collect();
        let [a, b] = declarations[..] else {
            return None;
        };
        // How well declaration `i` fits the transitions from `old` rather than those from
        // the id it shares: the outcomes of each that it declares.
        let fit = |i: usize| {
            let outcomes = g.phases[i].outcome_ids();
            let uses = |from: &str| {
                (g.transitions.iter())
                    .filter(|t| t.from == from && outcomes.contains(&t.on.as_str()))
                    .count() as isize
            };
            uses(old) - uses(dup)
        };
        Some(if fit(a) > fit(b) { a } else { b })
    }

    /// A phase renamed in its declaration only into the id of another phase: the old id
    /// the references still name, and the index of the renamed declaration.
    pub(super) fn renamed_duplicate(&self) -> Option<(&str, usize)> {
        if self.duplicated.is_empty() {
            return None;
        }
        let (old, index) = self.renamed.get_or_init(|| self.find_rename()).as_ref()?;
        let id = self.graph.phases[*index].id.as_str();
        self.duplicated
            .contains(id)
            .then_some((old.as_str(), *index))
    }

    /// The outcomes phase `id` can emit: of every declaration of the id (a duplicated id's
    /// outcomes are those of all its copies).
    pub(super) fn outcomes_of(&self, id: &str) -> Vec<&'a str> {
        if !self.duplicated.contains(id) {
            return self.get(id).map(Phase::outcome_ids).unwrap_or_default();
        }
        let mut out: Vec<&'a str> = Vec::new();
        for p in self.graph.phases.iter().filter(|p| p.id == id) {
            for o in p.outcome_ids() {
                if !out.contains(&o) {
                    out.push(o);
                }
            }
        }
        out
    }

    /// Resolve a transition's `on`, the value at `pointer`, against phase `id`'s outcomes;
    /// with the position of `on` among the outcomes of `id`'s first declaration when it is
    /// declared there.
    fn outcome_at(
        &self,
        id: &'a str,
        on: &'a str,
        pointer: impl FnOnce() -> String,
    ) -> (Resolved<'a>, Option<usize>) {
        if let Some(i) = self.first_index(id)
            && let Some(k) = self.outcomes.position(i, &self.graph.phases[i], on)
        {
            let declared = Resolved::Declared(declared_outcome(&self.graph.phases[i], k));
            return (declared, Some(k));
        }
        (self.undeclared_outcome(id, on, pointer), None)
    }

    /// [`Self::outcome_at`] of an `on` that is not an outcome of `id`'s first declaration.
    fn undeclared_outcome(
        &self,
        id: &'a str,
        on: &'a str,
        pointer: impl FnOnce() -> String,
    ) -> Resolved<'a> {
        if self.outcomes_flagged.contains(id) {
            return Resolved::Excused(None);
        }
        // A phase of more outcomes than are compared: no did-you-mean, and no list of its
        // outcomes made for each transition on an unknown one (quadratic in a phase of
        // many).
        if !self.duplicated.contains(id)
            && (self.get(id)).is_some_and(|p| {
                p.outcomes
                    .as_ref()
                    .is_some_and(|os| os.len() > MAX_COMPARED)
            })
        {
            if self.is_flagged(pointer) {
                return Resolved::Excused(None);
            }
            return Resolved::Unknown { near: None };
        }
        let outs = self.outcomes_of(id);
        if let Some(&o) = outs.iter().find(|o| **o == on) {
            return Resolved::Declared(o);
        }
        if self.outcomes_flagged.contains(id) || self.is_flagged(pointer) {
            return Resolved::Excused(None);
        }
        let flagged = |o: &&str| self.invalid_outcomes.contains(&(id, *o));
        let invalid = outs.iter().copied().filter(flagged);
        if let Some(o) = unique(invalid, |d| written_validly(on, d)) {
            return Resolved::Excused(Some(o));
        }
        let valid = outs.iter().copied().filter(|o| !flagged(o));
        Resolved::Unknown {
            near: unique(valid, |d| one_edit(on, d)),
        }
    }

    /// The valid outcome ids of phase `id` (the did-you-mean candidates).
    pub(super) fn valid_outcomes(&self, id: &str) -> Vec<&'a str> {
        self.outcomes_of(id)
            .into_iter()
            .filter(|o| !self.invalid_outcomes.contains(&(id, *o)))
            .collect()
    }
}

/// Help for an unknown id, the value at the diagnostic's pointer: the suggestion to write
/// the closest declared id instead, or else the list of declared ids.
pub(super) fn unknown_id_help(
    d: Diagnostic,
    unknown: &str,
    known: &[&str],
    what: &str,
) -> Diagnostic {
    // At most 20 ids listed: a loop with thousands of phases and many dangling ids must
    // not print every id once per diagnostic.
    const MAX_LISTED: usize = 20;
    match closest(unknown, compared(known).iter().copied(), |d, _| d <= 2) {
        Some(id) => {
            let target = EditTarget::value(d.location.pointer.clone());
            d.with_suggestion(Suggestion::Replace {
                target,
                with: id.to_owned(),
            })
        }
        None if known.is_empty() => d.with_help(format!("no {what} is declared")),
        None => {
            let mut list = known
                .iter()
                .take(MAX_LISTED)
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ");
            if known.len() > MAX_LISTED {
                list.push_str(&format!(" and {} more", known.len() - MAX_LISTED));
            }
            d.with_help(format!("declared {what}s: {list}"))
        }
    }
}

/// The most ids whose edit distance to an unknown one is computed.
const MAX_COMPARED: usize = 1000;

pub(super) use crate::text::did_you_mean::MAX_SUGGESTED_CHARS;

/// The ids among `ids` whose edit distance to an unknown one is computed: all of them, or
/// none beyond [`MAX_COMPARED`] (a loop with thousands of phases and many dangling ids
/// must not take quadratic time).
fn compared<'s, 'a>(ids: &'s [&'a str]) -> &'s [&'a str] {
    if ids.len() <= MAX_COMPARED { ids } else { &[] }
}

/// The outcome at position `k` of the phase declaration `p` (its declared one, or the
/// implicit one), as [`super::outcomes::OutcomeIndex::position`] found it.
fn declared_outcome(p: &Phase, k: usize) -> &str {
    match &p.outcomes {
        Some(os) => os.get(k).map_or(IMPLICIT_OUTCOME, |o| o.id.as_str()),
        None => IMPLICIT_OUTCOME,
    }
}

/// The one candidate that `accept` accepts, or `None` (none, or more than one).
fn unique<'a>(
    candidates: impl Iterator<Item = &'a str>,
    accept: impl Fn(&str) -> bool,
) -> Option<&'a str> {
    let mut found = candidates.filter(|c| accept(c));
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// `name` is the invalid id `declared` written validly: the same but for case, or its
/// repair ([`repaired_id`]).
fn written_validly(name: &str, declared: &str) -> bool {
    name.eq_ignore_ascii_case(declared) || repaired_id(declared).as_deref() == Some(name)
}

#[cfg(test)]
mod tests {
    use super::{one_edit, repaired_id, unique, unknown_id_help};
    use crate::diag::{Code, Diagnostic, EditTarget, Suggestion};
    use crate::ir::id_pattern::is_stable_id;

    #[test]
    fn an_unknown_id_gets_the_closest_declared_one() {
        let d = || Diagnostic::new(Code::UnknownEntryPhase, "unknown").at("/loop/entry_phase");
        let near = unknown_id_help(d(), "rviw", &["review", "revise"], "phase");
        assert_eq!(
            near.suggestions,
            [Suggestion::Replace {
                target: EditTarget::value("/loop/entry_phase"),
                with: "review".into()
            }]
        );
        assert_eq!(near.help_text().as_deref(), Some("did you mean `review`?"));
        let none = unknown_id_help(d(), "x", &[], "phase");
        assert!(none.suggestions.is_empty());
        assert_eq!(none.help_text().as_deref(), Some("no phase is declared"));
    }

    #[test]
    fn repairs_are_stable_ids() {
        assert_eq!(repaired_id("Investigate").as_deref(), Some("investigate"));
        assert_eq!(
            repaired_id("approve_merge").as_deref(),
            Some("approve-merge")
        );
        assert_eq!(repaired_id("-a--b-").as_deref(), Some("a-b"));
        assert_eq!(repaired_id("ok"), None);
        assert_eq!(repaired_id("$end"), None);
        assert_eq!(repaired_id("1st"), None);
        assert_eq!(repaired_id(&"a".repeat(65)), None);
        assert!(is_stable_id("a-1") && !is_stable_id("a-") && !is_stable_id("A"));
    }

    proptest::proptest! {
        /// `is_stable_id` is the pattern of formats.md, written as words of lowercase
        /// letters and digits joined by single hyphens.
        #[test]
        fn stable_ids_are_the_pattern(id in "[a-z0-9-]{0,70}|[a-zA-Z_. -]{0,6}") {
            let pattern = id.len() <= 64
                && id.starts_with(|c: char| c.is_ascii_lowercase())
                && id.split('-').all(|word| {
                    !word.is_empty()
                        && word.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                });
            proptest::prop_assert_eq!(is_stable_id(&id), pattern);
        }
    }

    #[test]
    fn one_edit_or_case_only() {
        assert!(one_edit("fond", "found"));
        assert!(one_edit("INVESTIGATE", "investigate"));
        assert!(!one_edit("fnd", "found"));
        // A swap of two neighbours is one edit (plain Levenshtein counted it as two).
        assert!(one_edit("exeucte", "execute"));
        assert!(!one_edit("exuecte", "execute"));
        assert_eq!(
            unique(["fix", "fox"].into_iter(), |d| one_edit("fax", d)),
            None
        );
        assert_eq!(
            unique(["fix", "plan"].into_iter(), |d| one_edit("fax", d)),
            Some("fix")
        );
    }
}
