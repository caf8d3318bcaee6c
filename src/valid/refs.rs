//! Pass 1: reference integrity and the policy rules (formats.md 1.5 rules 1-11, 14-22 and
//! the MAS rules of section 2).
//!
//! No cascades: a transition whose `from` is undeclared is reported once (V007) and not
//! checked for its outcome; a phase whose id repeats is checked once.

use std::collections::{BTreeMap, BTreeSet};

use super::Sink as _;
use crate::diag::Diagnostics;
use crate::diag::{Code, Diagnostic};
use crate::ir::{Destination, Field, Pattern, Spec};
use crate::ir::{Escalation, Exhausted, ToolAction};

fn blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// A "did you mean" help for an unknown id, or the list of declared ids.
pub fn suggest(unknown: &str, known: &[&str], what: &str) -> String {
    // Edit distances only among at most 1,000 ids, and at most 20 ids listed: a loop with
    // thousands of phases and many dangling ids must not take quadratic time or print
    // every id once per diagnostic.
    const MAX_COMPARED: usize = 1000;
    const MAX_LISTED: usize = 20;
    let compared = if known.len() <= MAX_COMPARED {
        known
    } else {
        &[]
    };
    match did_you_mean(unknown, compared.iter().copied(), |d, _| d <= 2) {
        Some(help) => help,
        None if known.is_empty() => format!("no {what} is declared"),
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
            format!("declared {what}s: {list}")
        }
    }
}

/// "did you mean `x`?" for the candidate closest to `unknown`, among those `accept`ed, or
/// `None`. Ties go to the earliest candidate.
///
/// The distance is `strsim::levenshtein`: insertions, deletions and substitutions of
/// characters (a transposition counts as two edits). `accept(distance, candidate)` must
/// only get stricter as the distance grows: a candidate it rejects at the difference in
/// length (a lower bound of the distance) is skipped without computing the distance.
pub(crate) fn did_you_mean<'a>(
    unknown: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    accept: impl Fn(usize, &str) -> bool,
) -> Option<String> {
    let len = unknown.chars().count();
    candidates
        .into_iter()
        .filter(|k| accept(k.chars().count().abs_diff(len), k))
        .map(|k| (strsim::levenshtein(unknown, k), k))
        .filter(|&(d, k)| accept(d, k))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| format!("did you mean `{k}`?"))
}

const TERMINAL_HELP: &str = "targets are a declared phase or a terminal: `$end` (success), `$abort` (failure), `$handoff` (hand-off)";

/// Run pass 1. Returns whether every edge (transition, checkpoint) resolved: when one did
/// not, the graph rules are skipped, since their verdict would follow from the broken edge
/// (no cascades).
pub(super) fn check(spec: &Spec, sink: &mut Diagnostics) -> bool {
    let mut edges_intact = true;
    let g = &spec.graph;

    // Rule 1.
    if spec.archetype.as_deref().is_some_and(blank) {
        sink.value(
            Diagnostic::new(Code::BlankArchetype, "`archetype` is empty or blank")
                .with_help("remove `archetype` or give the loop a descriptive label")
                .at(spec.provenance.pointer(Field::Archetype)),
        );
    }

    // Rules 2-5: phases and outcomes.
    let mut first_phase: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, p) in g.phases.iter().enumerate() {
        if blank(&p.objective) {
            sink.value(
                Diagnostic::new(
                    Code::BlankObjective,
                    format!("phase `{}` has a blank `objective`", p.id),
                )
                .with_help("say what the phase must achieve")
                .at(p.origin.child("objective").0),
            );
        }
        if let Some(&j) = first_phase.get(p.id.as_str()) {
            sink.value(
                Diagnostic::new(
                    Code::DuplicatePhase,
                    format!("phase id `{}` is declared twice", p.id),
                )
                .with_note(format!("first declared as phase {}", j + 1))
                .with_help("give each phase a unique id")
                .at(p.origin.child("id").0),
            );
        } else {
            first_phase.insert(&p.id, i);
        }
        let mut seen = BTreeSet::new();
        for o in p.outcomes.iter().flatten() {
            if blank(&o.description) {
                sink.value(
                    Diagnostic::new(
                        Code::BlankOutcomeDescription,
                        format!(
                            "outcome `{}` of phase `{}` has a blank `description`",
                            o.id, p.id
                        ),
                    )
                    .with_help("say when the phase emits this outcome")
                    .at(o.origin.child("description").0),
                );
            }
            if !seen.insert(o.id.as_str()) {
                sink.value(
                    Diagnostic::new(
                        Code::DuplicateOutcome,
                        format!("phase `{}` declares outcome `{}` twice", p.id, o.id),
                    )
                    .at(o.origin.child("id").0),
                );
            }
        }
    }
    let phase_ids: Vec<&str> = first_phase
        .iter()
        .map(|(k, v)| (*v, *k))
        .collect::<BTreeMap<_, _>>()
        .into_values()
        .collect();
    let is_phase = |id: &str| first_phase.contains_key(id);

    // Rule 6.
    if !is_phase(&g.entry) {
        sink.value(
            Diagnostic::new(
                Code::UnknownEntryPhase,
                format!("`entry_phase` `{}` is not a declared phase", g.entry),
            )
            .with_help(suggest(&g.entry, &phase_ids, "phase"))
            .at(spec.provenance.pointer(Field::Entry)),
        );
    }

    // Rules 7-10.
    let mut pairs: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (i, t) in g.transitions.iter().enumerate() {
        let from = first_phase.get(t.from.as_str()).map(|&k| &g.phases[k]);
        let outcome_ok = from.is_some_and(|p| p.outcome_ids().contains(&t.on.as_str()));
        let target_ok = match &t.to {
            Destination::Phase(to) => is_phase(to),
            Destination::Terminal(_) => true,
        };
        edges_intact &= outcome_ok && target_ok;
        match from {
            None => sink.value(
                Diagnostic::new(
                    Code::UnknownTransitionSource,
                    format!("transition `from` `{}` is not a declared phase", t.from),
                )
                .with_help(suggest(&t.from, &phase_ids, "phase"))
                .at(t.origin.child("from").0),
            ),
            Some(p) => {
                let outs = p.outcome_ids();
                if !outs.contains(&t.on.as_str()) {
                    let mut d = Diagnostic::new(
                        Code::UnknownOutcome,
                        format!("phase `{}` has no outcome `{}`", p.id, t.on),
                    )
                    .at(t.origin.child("on").0);
                    d = if p.outcomes.is_some() && t.on == crate::ir::IMPLICIT_OUTCOME {
                        d.with_help(format!(
                            "`complete` is implicit only for a phase that declares no outcomes; `{}` declares {}",
                            p.id,
                            outs.iter().map(|o| format!("`{o}`")).collect::<Vec<_>>().join(", ")
                        ))
                    } else {
                        d.with_help(suggest(&t.on, &outs, "outcome"))
                    };
                    sink.value(d);
                } else if let Some(&j) = pairs.get(&(t.from.as_str(), t.on.as_str())) {
                    sink.value(
                        Diagnostic::new(
                            Code::DuplicateTransition,
                            format!(
                                "outcome `{}` of phase `{}` has more than one transition",
                                t.on, t.from
                            ),
                        )
                        .with_note(format!("first transition is number {}", j + 1))
                        .with_help("a transition has no conditions: keep one target per outcome")
                        .at(t.origin.0.clone()),
                    );
                } else {
                    pairs.insert((t.from.as_str(), t.on.as_str()), i);
                }
            }
        }
        if let Destination::Phase(to) = &t.to
            && !is_phase(to)
        {
            let help = if to.starts_with('$') {
                TERMINAL_HELP.to_owned()
            } else {
                suggest(to, &phase_ids, "phase")
            };
            sink.value(
                Diagnostic::new(
                    Code::UnknownTransitionTarget,
                    format!("transition `to` `{to}` is neither a declared phase nor a terminal"),
                )
                .with_help(help)
                .at(t.origin.child("to").0),
            );
        }
    }

    // Rule 11: every (phase, outcome) pair has a transition.
    for (i, p) in g.phases.iter().enumerate() {
        if first_phase.get(p.id.as_str()) != Some(&i) {
            continue;
        }
        match &p.outcomes {
            None => {
                if !pairs.contains_key(&(p.id.as_str(), crate::ir::IMPLICIT_OUTCOME)) {
                    sink.value(
                        Diagnostic::new(
                            Code::MissingTransition,
                            format!(
                                "phase `{}` has no transition for its implicit outcome `complete`",
                                p.id
                            ),
                        )
                        .with_help(format!(
                            "add {{\"from\": \"{}\", \"on\": \"complete\", \"to\": ...}}",
                            p.id
                        ))
                        .at(p.origin.child("id").0),
                    );
                }
            }
            Some(os) => {
                let mut seen = BTreeSet::new();
                for o in os {
                    if seen.insert(o.id.as_str())
                        && !pairs.contains_key(&(p.id.as_str(), o.id.as_str()))
                    {
                        sink.value(
                            Diagnostic::new(
                                Code::MissingTransition,
                                format!("outcome `{}` of phase `{}` has no transition", o.id, p.id),
                            )
                            .with_help(format!(
                                "add {{\"from\": \"{}\", \"on\": \"{}\", \"to\": ...}}",
                                p.id, o.id
                            ))
                            .at(o.origin.child("id").0),
                        );
                    }
                }
            }
        }
    }

    // Rules 14-17: checkpoints.
    let mut cp_ids: BTreeSet<&str> = BTreeSet::new();
    let mut guarded: BTreeMap<&str, &str> = BTreeMap::new();
    for c in g.checkpoints.iter().flatten() {
        edges_intact &= is_phase(&c.before_phase)
            && match &c.on_reject {
                Destination::Phase(r) => is_phase(r),
                Destination::Terminal(_) => true,
            };
        if !cp_ids.insert(&c.id) {
            sink.value(
                Diagnostic::new(
                    Code::DuplicateCheckpoint,
                    format!("checkpoint id `{}` is declared twice", c.id),
                )
                .at(c.origin.child("id").0),
            );
        }
        if !is_phase(&c.before_phase) {
            sink.value(
                Diagnostic::new(
                    Code::UnknownCheckpointPhase,
                    format!(
                        "checkpoint `{}` guards `{}`, which is not a declared phase",
                        c.id, c.before_phase
                    ),
                )
                .with_help(suggest(&c.before_phase, &phase_ids, "phase"))
                .at(c.origin.child("before_phase").0),
            );
        } else if let Some(first) = guarded.get(c.before_phase.as_str()) {
            sink.value(
                Diagnostic::new(
                    Code::DuplicateCheckpointPhase,
                    format!(
                        "phase `{}` already has approval checkpoint `{first}`; `{}` guards it again",
                        c.before_phase, c.id
                    ),
                )
                .with_help("merge the two approvals into one checkpoint")
                .at(c.origin.child("before_phase").0),
            );
        } else {
            guarded.insert(&c.before_phase, &c.id);
        }
        if let Destination::Phase(r) = &c.on_reject
            && !is_phase(r)
        {
            let help = if r.starts_with('$') {
                TERMINAL_HELP.to_owned()
            } else {
                suggest(r, &phase_ids, "phase")
            };
            sink.value(
                    Diagnostic::new(
                        Code::UnknownRejectTarget,
                        format!("checkpoint `{}` rejects to `{r}`, which is neither a declared phase nor a terminal", c.id),
                    )
                    .with_help(help)
                    .at(c.origin.child("on_reject").0),
                );
        }
    }

    // Rules 18-22: error policy.
    if let Some(ep) = &spec.bounds.error_policy
        && let Some(tf) = &ep.tool_failure
    {
        let tp = spec.provenance.pointer(Field::ToolFailure);
        let action = tf.action.as_str();
        if tf.action == ToolAction::Retry {
            for (missing, code, field) in [
                (
                    tf.max_retries.is_none(),
                    Code::RetryWithoutMaxRetries,
                    "max_retries",
                ),
                (
                    tf.on_exhausted.is_none(),
                    Code::RetryWithoutOnExhausted,
                    "on_exhausted",
                ),
            ] {
                if missing {
                    sink.key(
                            Diagnostic::new(code, format!("`tool_failure` has `action: retry` but no `{field}`"))
                                .with_help("a retry policy needs `max_retries` (at least 1) and `on_exhausted` (`fail_phase`, `abort` or `handoff`)")
                                .at(tp.clone()),
                        );
                }
            }
        } else {
            for (present, code, field) in [
                (
                    tf.max_retries.is_some(),
                    Code::MaxRetriesWithoutRetry,
                    "max_retries",
                ),
                (
                    tf.on_exhausted.is_some(),
                    Code::OnExhaustedWithoutRetry,
                    "on_exhausted",
                ),
            ] {
                if present {
                    sink.key(
                            Diagnostic::new(
                                code,
                                format!("`{field}` is only allowed with `action: retry`, not `action: {action}`"),
                            )
                            .with_help(format!("remove `{field}`, or set `action: retry`"))
                            .at(format!("{tp}/{field}")),
                        );
                }
            }
        }
        let can_fail_phase = tf.action == ToolAction::FailPhase
            || (tf.action == ToolAction::Retry && tf.on_exhausted == Some(Exhausted::FailPhase));
        if can_fail_phase && ep.phase_failure.is_none() {
            sink.key(
                Diagnostic::new(
                    Code::MissingPhaseFailure,
                    "tool failure can fail the phase, but `error_policy` has no `phase_failure`",
                )
                .with_help("add `\"phase_failure\": {\"action\": \"abort\"}` (or `handoff`)")
                .at(spec.provenance.pointer(Field::ErrorPolicy)),
            );
        }
    }

    // MAS rules.
    match spec.pattern {
        Pattern::Real if spec.goal.mission.is_none() => sink.key(
            Diagnostic::new(Code::MissingMission, "REAL loop has no `mission`")
                .with_help("a REAL loop is mission-driven: add `mission:` with the goal statement")
                .at(""),
        ),
        Pattern::Veal => {
            if spec.roles.validator.is_none() {
                sink.key(
                    Diagnostic::new(Code::MissingValidator, "VEAL loop has no `validator`")
                        .with_help("a VEAL loop needs the read-only agent that runs the checks: add `validator:`")
                        .at(""),
                );
            }
            if spec.goal.checks.as_ref().is_none_or(Vec::is_empty) {
                let d = Diagnostic::new(Code::MissingChecks, "VEAL loop has no checks").with_help(
                    "a VEAL loop is validation-driven: add at least one check under `checks:`",
                );
                match spec.goal.checks {
                    Some(_) => sink.value(d.at(spec.provenance.pointer(Field::Checks))),
                    None => sink.key(d.at("")),
                }
            }
        }
        _ => {}
    }
    if spec.bounds.escalation == Some(Escalation::Fallback) && spec.roles.fallback_agent.is_none() {
        sink.value(
            Diagnostic::new(
                Code::MissingFallbackAgent,
                "`escalation: fallback` but no `fallback_agent`",
            )
            .with_help(
                "name the agent to invoke in `fallback_agent:`, or choose another escalation",
            )
            .at(spec.provenance.pointer(Field::Escalation)),
        );
    }
    let mut check_ids = BTreeSet::new();
    for c in spec.goal.checks.iter().flatten() {
        if !check_ids.insert(c.id.as_str()) {
            sink.value(
                Diagnostic::new(
                    Code::DuplicateCheckId,
                    format!("check id `{}` is used twice", c.id),
                )
                .with_help("give each check a unique id so reports can tell them apart")
                .at(c.origin.child("id").0),
            );
        }
    }
    edges_intact
}
