//! Rules 6, 7, 9, 15 and 16 (`V006`, `V007`, `V009`, `V015`, `V016`): every reference to a
//! phase names a declared phase (or, as a target, a terminal).
//!
//! The references that name the same undeclared phase are one diagnostic: it points at the
//! first, with the code of that reference's rule, and labels every other place. A
//! reference whose cause is reported already ([`Resolved::Excused`]) is not reported again.

use super::Sink as _;
use super::names::{Names, Resolved, unknown_id_help};
use crate::diag::{Code, Diagnostic, Diagnostics, EditTarget, Suggestion};
use crate::ir::{Destination, Field, Origin, Spec, Terminal};

const TERMINAL_HELP: &str = "targets are a declared phase or a terminal: `$end` (success), `$abort` (failure), `$handoff` (hand-off)";

/// Where a phase is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role<'a> {
    /// `entry_phase`.
    Entry,
    /// A transition's `from`.
    From,
    /// A transition's `to`.
    To,
    /// Checkpoint `id`'s `before_phase`.
    Guard(&'a str),
    /// Checkpoint `id`'s `on_reject`.
    Reject(&'a str),
}

impl Role<'_> {
    /// Whether a terminal is allowed here.
    fn is_target(self) -> bool {
        matches!(self, Role::To | Role::Reject(_))
    }

    /// The first reference's diagnostic: its rule's code and message.
    fn diagnostic(self, name: &str) -> Diagnostic {
        let q = crate::diag::quote(name);
        let (code, message) = match self {
            Role::Entry => (
                Code::UnknownEntryPhase,
                format!("`entry_phase` {q} is not a declared phase"),
            ),
            Role::From => (
                Code::UnknownTransitionSource,
                format!("transition `from` {q} is not a declared phase"),
            ),
            Role::To => (
                Code::UnknownTransitionTarget,
                format!("transition `to` {q} is neither a declared phase nor a terminal"),
            ),
            Role::Guard(c) => (
                Code::UnknownCheckpointPhase,
                format!("checkpoint `{c}` guards {q}, which is not a declared phase"),
            ),
            Role::Reject(c) => (
                Code::UnknownRejectTarget,
                format!(
                    "checkpoint `{c}` rejects to {q}, which is neither a declared phase nor a terminal"
                ),
            ),
        };
        Diagnostic::new(code, message)
    }

    /// The label of a later reference to the same name.
    fn label(self, name: &str) -> String {
        let place = match self {
            Role::Entry => "as `entry_phase`".to_owned(),
            Role::From => "as a transition's `from`".to_owned(),
            Role::To => "as a transition's `to`".to_owned(),
            Role::Guard(c) => format!("as checkpoint `{c}`'s `before_phase`"),
            Role::Reject(c) => format!("as checkpoint `{c}`'s `on_reject`"),
        };
        format!("{} again, {place}", crate::diag::quote(name))
    }
}

/// One reference to a phase that resolved to nothing declared.
struct Use<'a> {
    role: Role<'a>,
    pointer: String,
    /// The declared phase one edit away, which the reference counts for.
    near: Option<&'a str>,
}

/// Report the undeclared phases, one diagnostic per name, in order of first reference.
/// A transition's `from` in `meant` names the phase it was meant to leave (the one phase
/// whose outcome `on` has no transition), instead of a did-you-mean.
pub(super) fn phase_references_exist(
    spec: &Spec,
    names: &Names,
    meant: &[Meant],
    sink: &mut Diagnostics,
) {
    // Keyed by name in the order first named: a scan of the names found so far was
    // quadratic in undeclared names (10,000 long ids took 1.5 s).
    let mut groups: indexmap::IndexMap<&str, Vec<Use>, foldhash::fast::RandomState> =
        indexmap::IndexMap::default();
    let meant: std::collections::HashMap<&str, &Meant, foldhash::fast::RandomState> = meant
        .iter()
        .rev()
        .map(|m| (m.pointer.as_str(), m))
        .collect();
    for (name, role, member, resolved) in phase_references(spec, names) {
        let pointer = || reference_pointer(spec, member);
        let resolved = resolved.unwrap_or_else(|| names.phase(name, pointer));
        let Resolved::Unknown { near } = resolved else {
            continue;
        };
        let u = Use {
            role,
            pointer: pointer(),
            near,
        };
        groups.entry(name).or_default().push(u);
    }
    for (name, uses) in groups {
        let d = one_diagnostic(names, name, &uses);
        let ms: Vec<&Meant> = uses
            .iter()
            .filter(|u| u.role == Role::From)
            .filter_map(|u| meant.get(u.pointer.as_str()).copied())
            .collect();
        sink.value(if ms.is_empty() {
            d
        } else {
            meant_phase(d, &ms, &uses)
        });
    }
}

/// The diagnostic of an undeclared name some of whose transitions (`from`) were meant to
/// leave a declared phase without a transition for their `on` (`ms`): a note names that
/// phase's outcomes, and when every `from` means the same phase, the fix writes it at
/// every place (a phase renamed in its declaration, or a misspelt `from`).
fn meant_phase(mut d: Diagnostic, ms: &[&Meant], uses: &[Use]) -> Diagnostic {
    let mut phases: Vec<&str> = Vec::new();
    for m in ms {
        if !phases.contains(&m.phase) {
            phases.push(m.phase);
        }
    }
    for p in &phases {
        let ons: Vec<String> = ms
            .iter()
            .filter(|m| m.phase == *p)
            .map(|m| format!("`{}`", m.on))
            .collect();
        let (outcome, these) = if ons.len() == 1 {
            ("outcome", "this transition is")
        } else {
            ("outcomes", "these transitions are")
        };
        d = d.with_note(format!(
            "phase `{p}` has no transition for its {outcome} {}: {these} probably meant for it",
            crate::text::list(&ons, "and")
        ));
    }
    let froms = uses.iter().filter(|u| u.role == Role::From).count();
    if let [p] = phases[..]
        && froms == ms.len()
    {
        d.help = None;
        d.suggestions.clear();
        let places = uses.iter().map(|u| u.pointer.clone()).collect();
        return d.with_suggestion(replace_at(places, p));
    }
    d
}

/// A transition whose `from` names no declared phase (`V007`, nor one edit from one that
/// can emit its `on`), and the one phase whose outcome `on` has no transition: the phase
/// it was meant to leave. That pair is then covered (the `V007` says it, not a `V011`).
pub(super) struct Meant<'a> {
    /// The pointer of the transition's `from`.
    pub(super) pointer: String,
    pub(super) phase: &'a str,
    pub(super) on: &'a str,
}

/// Where a reference is: the element holding it and the member's key.
pub(super) type Member<'a> = (&'a Origin, &'static str);

/// The JSON Pointer of a reference at `member` (`None`: the loop's entry field).
pub(super) fn reference_pointer(spec: &Spec, member: Option<Member>) -> String {
    match member {
        Some((origin, key)) => origin.pointer_to(key),
        None => spec.provenance.pointer(Field::Entry),
    }
}

/// Every reference to a phase, in authored order: the entry, each transition's `from` and
/// `to`, each checkpoint's `before_phase` and `on_reject` (targets that are terminals left
/// out); with the origin of the element that holds it and the member's key (`None`: the
/// loop's entry field), and how it resolves when [`Names`] knows already (a transition's).
/// Pointers are written out only for the references that resolve to nothing. An
/// iterator: a vector of them was 60,000 entries for a loop of 30,000 transitions, 4 MB
/// alive beside the loop.
pub(super) fn phase_references<'a>(
    spec: &'a Spec,
    names: &Names<'a>,
) -> impl Iterator<Item = Reference<'a>> {
    let g = &spec.graph;
    let entry = std::iter::once((g.entry.as_str(), Role::Entry, None, None));
    let transitions = names.transitions().flat_map(|(t, resolved)| {
        let from = Some((&t.origin, "from"));
        let to = match &t.to {
            Destination::Phase(to) => {
                Some((to.as_str(), Role::To, Some((&t.origin, "to")), resolved.to))
            }
            Destination::Terminal(_) => None,
        };
        std::iter::once((t.from.as_str(), Role::From, from, Some(resolved.from))).chain(to)
    });
    let checkpoints = g.checkpoints.iter().flatten().flat_map(|c| {
        let at = Some((&c.origin, "before_phase"));
        let guard = (
            c.before_phase.as_str(),
            Role::Guard(c.id.as_str()),
            at,
            None,
        );
        let reject = match &c.on_reject {
            Destination::Phase(r) => {
                let at = Some((&c.origin, "on_reject"));
                Some((r.as_str(), Role::Reject(c.id.as_str()), at, None))
            }
            Destination::Terminal(_) => None,
        };
        std::iter::once(guard).chain(reject)
    });
    entry.chain(transitions).chain(checkpoints)
}

/// A reference to a phase: the name, where it is named, the element holding it, and how
/// it resolves when that is known already.
pub(super) type Reference<'a> = (&'a str, Role<'a>, Option<Member<'a>>, Option<Resolved<'a>>);

/// The diagnostic of an undeclared name used at `uses` (at least one).
fn one_diagnostic(names: &Names, name: &str, uses: &[Use]) -> Diagnostic {
    let Some((first, rest)) = uses.split_first() else {
        return Diagnostic::new(Code::UnknownTransitionSource, name.to_owned());
    };
    let mut d = first.role.diagnostic(name).at(first.pointer.clone());
    for u in rest {
        d = d.with_label(u.pointer.clone(), u.role.label(name));
    }
    help(names, d, name, uses)
}

/// The fix: the declared phase the name is one edit from, the terminals for a `$` target,
/// what a terminal cannot be, or the closest valid declared phase.
fn help(names: &Names, d: Diagnostic, name: &str, uses: &[Use]) -> Diagnostic {
    let Some(first) = uses.first() else {
        return d;
    };
    if let Some(near) = first.near {
        let places: Vec<String> = uses.iter().map(|u| u.pointer.clone()).collect();
        return d.with_suggestion(replace_at(places, near));
    }
    if let Some(terminal) = terminal_meant(name, uses) {
        let places: Vec<String> = uses.iter().map(|u| u.pointer.clone()).collect();
        return d.with_suggestion(replace_at(places, terminal.as_str()));
    }
    if name.starts_with('$') {
        return d.with_help(if first.role.is_target() {
            TERMINAL_HELP.to_owned()
        } else {
            format!(
                "a terminal ends a run: `{}` must name a declared phase",
                field_of(first.role)
            )
        });
    }
    let d = unknown_id_help(d, name, names.valid_ids(), "phase");
    let chars = name.chars().count();
    let close = |i: &&&str| {
        chars <= super::names::MAX_SUGGESTED_CHARS
            && i.chars().count().abs_diff(chars) <= 2
            && strsim::levenshtein(&i.to_ascii_lowercase(), name) <= 2
    };
    // Edit distances only among at most 1,000 ids, as for the valid ids.
    let invalid = names.invalid_ids();
    let compared = if invalid.len() <= 1000 { invalid } else { &[] };
    match compared.iter().find(close) {
        Some(invalid) => d.with_note(format!(
            "phase `{invalid}` is declared, but its id is not a valid stable id"
        )),
        None => d,
    }
}

/// The terminal a target means: written without its `$` (`end`, `Abort`, `handoff`), or
/// with it and one edit away (`$ned`, `$END`, `$abrot`), when every use is a target (`to`,
/// `on_reject`), where a terminal is allowed, and only one terminal is that close.
fn terminal_meant(name: &str, uses: &[Use]) -> Option<Terminal> {
    if !uses.iter().all(|u| u.role.is_target()) {
        return None;
    }
    let means = |t: &Terminal| match name.strip_prefix('$') {
        Some(body) => crate::text::did_you_mean::one_edit(body, t.as_str().trim_start_matches('$')),
        None => t
            .as_str()
            .trim_start_matches('$')
            .eq_ignore_ascii_case(name),
    };
    let mut meant = Terminal::ALL.into_iter().filter(means);
    let first = meant.next()?;
    meant.next().is_none().then_some(first)
}

/// Write `with` at every place: one edit, or one fix of several.
pub(super) fn replace_at(mut places: Vec<String>, with: &str) -> Suggestion {
    let with = with.to_owned();
    if places.len() == 1 {
        let target = EditTarget::value(places.remove(0));
        return Suggestion::Replace { target, with };
    }
    let targets = places.into_iter().map(EditTarget::value).collect();
    Suggestion::ReplaceAll { targets, with }
}

/// The field a role is, for messages.
fn field_of(role: Role) -> &'static str {
    match role {
        Role::Entry => "entry_phase",
        Role::From => "from",
        Role::To => "to",
        Role::Guard(_) => "before_phase",
        Role::Reject(_) => "on_reject",
    }
}
