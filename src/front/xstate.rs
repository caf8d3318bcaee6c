//! XState machines: the read path (shape, the XState features a loop cannot hold, `F018`;
//! the checkpoint gates, `F019`) and the lowering into the IR.
//!
//! A state is a phase, a checkpoint's gate (tagged `checkpoint`) or a terminal (`type:
//! final`, its run status in `output.status`); `model::xstate` says what each holds. The
//! machine's `meta` carries the loop-level fields, so what `back::xstate` writes is read
//! back exactly; a hand-written machine of the same shape is read too.

use super::{TreeUse, done_with_tree, has_key, model_from_tree, phases_fit};
use crate::diag::{Code, Diagnostic, Diagnostics, EditTarget, Suggestion};
use crate::format::Format;
use crate::front::shape::{Profile, UnknownKey};
use crate::ir::id_pattern::{is_stable_id, repaired_id};
use crate::ir::{self, Destination, Field, IdMap, Origin, Pattern, Provenance, Spec, Terminal};
use crate::model::xstate as m;
use crate::tree::{Document, Member, Node, ReadLimits};

/// A document with `states` and `initial` is an XState machine.
pub fn claims(root: &Node) -> bool {
    has_key(root, "states") && has_key(root, "initial")
}

/// Whether a state is a phase, for the phase limit: not a terminal (`type: final`) nor a
/// checkpoint's gate (tagged `checkpoint`). A 10,000-phase loop written as a machine has
/// 10,001 states or more, and was refused by the limit it had passed as a loop.
fn is_phase_state(state: &Node) -> bool {
    let final_ = state.get("type").and_then(Node::as_str) == Some("final");
    let gate = (state.get("tags").and_then(|t| match &t.value {
        crate::tree::Value::Array(tags) => Some(tags),
        _ => None,
    }))
    .is_some_and(|tags| tags.iter().any(|t| t.as_str() == Some(m::CHECKPOINT_TAG)));
    !final_ && !gate
}

/// Read a machine: shape, the features a loop cannot hold, lowering.
pub fn read(
    doc: &mut Document,
    limits: &ReadLimits,
    tree: TreeUse,
    diags: &mut Diagnostics,
) -> Option<Spec> {
    if !phases_fit(doc, &["states"], is_phase_state, limits, diags) {
        return None;
    }
    let profile = Profile {
        unknown_key: Some(feature_key),
        ..Profile::default()
    };
    let machine: m::Machine = model_from_tree(doc, Format::Xstate, &profile, tree, diags)?;
    done_with_tree(doc, tree, diags);
    let machine = match m::unenforced(&machine) {
        Ok(Some(plain)) => plain,
        Ok(None) => machine,
        Err(()) => {
            not_enforcement(&machine, diags);
            machine
        }
    };
    Some(lower(machine, diags))
}

/// `F018` for each place of a machine that holds what loopconv's enforcement writes
/// (`context`, `entry`, `always`, a transition's `guard`, `actions`, `reenter`) but not
/// exactly that: a hand-written counter, guard or action, or a bound changed beside
/// `meta` (candidate lists are `F018` in the lowering).
fn not_enforcement(machine: &m::Machine, diags: &mut Diagnostics) {
    let ours = machine
        .meta
        .as_ref()
        .is_some_and(|m| m.enforcement.is_some());
    let mut report = |pointer: String, key: &str, feature: &str| {
        let mut d = unsupported(&pointer, key, feature);
        if ours {
            d = d.with_help("this is not what loopconv writes for the machine's `meta` (max_steps, max_attempts, error_policy): write the machine again with `loopconv convert --to xstate`");
        }
        diags.push(d);
    };
    if machine.context.is_some() {
        report("/context".to_owned(), "context", "extended state");
    }
    for (key, state) in &machine.states {
        let at = state_origin(key);
        if state.entry.is_some() {
            report(at.pointer_to("entry"), "entry", "entry actions");
        }
        if state.always.is_some() {
            report(at.pointer_to("always"), "always", "eventless transitions");
        }
        for (event, on) in state.on.iter().flatten() {
            let m::On::Transition(t) = on else { continue };
            let ptr = at.child("on").pointer_to(event);
            for (field, present, feature) in [
                ("guard", t.guard.is_some(), "guards"),
                ("actions", t.actions.is_some(), "actions"),
                ("reenter", t.reenter.is_some(), "re-entering transitions"),
            ] {
                if present {
                    report(format!("{ptr}/{field}"), field, feature);
                }
            }
        }
    }
}

/// The XState features a loop cannot hold, by the key that uses them.
const FEATURES: &[(&str, &str)] = &[
    ("states", "nested states"),
    ("initial", "nested states"),
    ("entry", "entry actions"),
    ("exit", "exit actions"),
    ("actions", "actions"),
    ("invoke", "invoked actors"),
    ("after", "delayed transitions"),
    ("always", "eventless transitions"),
    ("context", "extended state"),
    ("guard", "guards"),
    ("cond", "guards"),
    ("onDone", "done events"),
    ("history", "history states"),
    ("reenter", "re-entering transitions"),
    ("internal", "internal transitions"),
    ("type", "a parallel machine"),
    ("on", "events on the machine itself"),
    ("output", "machine output"),
    ("id", "state ids (`#id` targets)"),
    ("types", "type declarations"),
    ("schemas", "schemas"),
];

/// `F018` for a key that uses an XState feature; nothing for `initial` beside the nested
/// `states` that explain it (one cause, one diagnostic).
fn feature_key(key: &str, pointer: &str, siblings: &[Member]) -> UnknownKey {
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
fn unsupported(pointer: &str, key: &str, feature: &str) -> Diagnostic {
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

/// Where each loop-level field is in a machine.
pub fn pointer(field: Field) -> &'static str {
    match field {
        Field::Name => "/id",
        Field::Description => "/description",
        Field::Version => "/version",
        Field::SchemaUri => "/meta/schema_uri",
        Field::Readme => "/meta/readme",
        Field::License => "/meta/license",
        Field::Environment => "/meta/environment",
        Field::Pattern => "/meta/pattern",
        Field::Archetype => "/meta/archetype",
        Field::Entry => "/initial",
        Field::Phases | Field::Transitions | Field::Checkpoints => "/states",
        Field::MaxSteps => "/meta/max_steps",
        Field::ErrorPolicy => "/meta/error_policy",
        Field::ToolFailure => "/meta/error_policy/tool_failure",
        Field::Actor => "/meta/roles/actor",
        Field::Validator => "/meta/roles/validator",
        Field::FallbackAgent => "/meta/roles/fallback_agent",
        Field::Mission => "/meta/goal/mission",
        Field::SuccessCriteria => "/meta/goal/success_criteria",
        Field::Checks => "/meta/goal/checks",
        Field::Inputs => "/meta/goal/inputs",
        Field::Outputs => "/meta/goal/outputs",
        Field::Escalation => "/meta/escalation",
        Field::MaxAttempts => "/meta/max_attempts",
    }
}

/// An event of a state: its name, its transition, and its origin.
type Event<'a> = (&'a String, &'a m::On, Origin);

/// What a state is in the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Phase,
    Gate,
    Terminal(Terminal),
}

/// The machine being lowered: its states' roles, the phase each gate guards, and the
/// diagnostics.
struct Lowering<'a> {
    states: &'a m::States,
    roles: IdMap<&'a str, Role>,
    /// The phase a gate guards (`None`: its `APPROVE` leads to no phase).
    guarded: IdMap<&'a str, Option<&'a str>>,
    /// Each guarded phase's gates, in the order they are listed.
    gates_of: IdMap<&'a str, Vec<&'a str>>,
    diags: &'a mut Diagnostics,
    /// The states' texts, by the state's index, moved into the IR as the phases are made.
    texts: Vec<StateTexts>,
}

/// The texts a state's phase carries, moved out of the machine before it is lowered (the
/// lowering borrows the states for their keys): copying them, and then freeing the
/// machine's, were a third of the memory the lowering touched.
struct StateTexts {
    /// The state's `description`.
    description: Option<String>,
    /// Each event's transition's `description`, in the events' order.
    events: Vec<Option<String>>,
}

/// Move the texts of `states` out ([`StateTexts`]), leaving empty strings where they were,
/// so that whether a state or a transition has a description still reads the same.
fn take_texts(states: &mut m::States) -> Vec<StateTexts> {
    let take = |text: &mut Option<String>| text.as_mut().map(std::mem::take);
    let event_text = |on: &mut m::On| match on {
        m::On::Transition(t) => take(&mut t.description),
        _ => None,
    };
    states
        .values_mut()
        .map(|state| StateTexts {
            description: take(&mut state.description),
            events: state
                .on
                .iter_mut()
                .flatten()
                .map(|(_, on)| event_text(on))
                .collect(),
        })
        .collect()
}

/// Lower a machine into the IR.
fn lower(mut machine: m::Machine, diags: &mut Diagnostics) -> Spec {
    let meta = machine.meta.take().unwrap_or_default();
    let texts = take_texts(&mut machine.states);
    let mut l = Lowering::new(&machine.states, diags, texts);
    let entry = l
        .destination(&machine.initial, || "/initial".to_owned())
        .as_str()
        .to_owned();
    let (phases, transitions) = l.phases_and_transitions();
    let transitions = l.ordered(transitions, meta.transition_order.as_deref());
    let checkpoints = l.checkpoints(meta.empty_checkpoints == Some(true));
    let goal = meta.goal.map(with_goal_origins).unwrap_or_default();
    Spec {
        source_format: meta.source_format.unwrap_or(Format::Xstate),
        name: machine.id,
        version: machine.version,
        description: machine.description,
        schema_uri: meta.schema_uri,
        readme: meta.readme,
        license: meta.license,
        environment: meta.environment,
        pattern: meta.pattern.unwrap_or(Pattern::General),
        archetype: meta.archetype,
        roles: meta.roles.unwrap_or_default(),
        goal,
        graph: ir::Graph {
            entry,
            entry_origin: Origin::new("/initial"),
            phases,
            transitions,
            checkpoints,
        },
        bounds: ir::Bounds {
            max_steps: meta.max_steps,
            max_attempts: meta.max_attempts,
            escalation: meta.escalation,
            error_policy: meta.error_policy,
        },
        provenance: Provenance::new(Format::Xstate, pointer),
    }
}

/// The origins of the checks and ports carried in `meta.goal`.
fn with_goal_origins(mut goal: ir::Goal) -> ir::Goal {
    let at = Origin::new("/meta/goal");
    for (i, c) in goal.checks.iter_mut().flatten().enumerate() {
        c.origin = at.child("checks").item(i);
    }
    for (key, ports) in [("inputs", &mut goal.inputs), ("outputs", &mut goal.outputs)] {
        for (i, p) in ports.iter_mut().flatten().enumerate() {
            p.origin = at.child(key).item(i);
        }
    }
    goal
}

/// The origin of state `key`.
fn state_origin(key: &str) -> Origin {
    Origin::new("/states").child(key)
}

/// The pointer of the target of event `event` of state `key` (the string, or the
/// transition object's `target`).
fn target_pointer(key: &str, event: &str, on: &m::On) -> String {
    target_pointer_at(&state_origin(key).child("on").child(event), on)
}

/// [`target_pointer`] of the event at `at`.
fn target_pointer_at(at: &Origin, on: &m::On) -> String {
    match on {
        m::On::Target(_) => at.pointer(),
        m::On::Transition(_) | m::On::Candidates(_) => at.pointer_to("target"),
    }
}

impl<'a> Lowering<'a> {
    fn new(states: &'a m::States, diags: &'a mut Diagnostics, texts: Vec<StateTexts>) -> Self {
        let mut l = Lowering {
            states,
            roles: ir::id_map(states.len()),
            guarded: ir::id_map(0),
            gates_of: ir::id_map(0),
            diags,
            texts,
        };
        for (key, state) in states {
            let role = l.role(key, state);
            l.roles.insert(key, role);
            l.stray_fields(key, state, role);
            if !matches!(role, Role::Terminal(_)) {
                l.candidate_lists(key, state);
            }
        }
        l.chain_gates();
        l
    }

    /// What state `key` is; `F018` for a kind of state a loop cannot hold (read as a
    /// phase, so that references to it resolve).
    fn role(&mut self, key: &str, state: &m::State) -> Role {
        match state.kind {
            Some(m::StateType::Final) => Role::Terminal(self.terminal(key, state)),
            Some(
                kind @ (m::StateType::Parallel | m::StateType::Compound | m::StateType::History),
            ) => {
                let kind = match kind {
                    m::StateType::Parallel => "a parallel state",
                    m::StateType::History => "a history state",
                    _ => "a compound state (with nested states)",
                };
                self.diags.push(
                    Diagnostic::new(
                        Code::XstateUnsupported,
                        format!(
                            "the state `{}` is {kind}, an XState feature a loop cannot hold",
                            key.escape_debug()
                        ),
                    )
                    .with_help("a loop is flat: one state per phase, one event per outcome, a final state per terminal")
                    .at(state_origin(key).pointer_to("type")),
                );
                Role::Phase
            }
            _ if state
                .tags
                .iter()
                .flatten()
                .any(|t| *t == m::Tag::Checkpoint) =>
            {
                Role::Gate
            }
            _ => Role::Phase,
        }
    }

    /// `F018` for each event of a phase or a gate with several candidate transitions (the
    /// first one's target is read, so that references resolve). A final state's events are
    /// `F001` already.
    fn candidate_lists(&mut self, key: &str, state: &m::State) {
        for (event, o) in state.on.iter().flatten() {
            if matches!(o, m::On::Candidates(_)) {
                let d = unsupported(
                    &state_origin(key).child("on").pointer_to(event),
                    event,
                    "guarded candidate transitions",
                );
                self.diags.push(d);
            }
        }
    }

    /// `F001` for each field a state of its role does not hold (it would be lost).
    fn stray_fields(&mut self, key: &str, state: &m::State, role: Role) {
        let meta = state.meta.as_ref();
        let (what, stray): (&str, &[(&str, bool)]) = match role {
            Role::Phase => (
                "a phase state",
                &[
                    ("output", state.output.is_some()),
                    (
                        "meta/checkpoint",
                        meta.is_some_and(|m| m.checkpoint.is_some()),
                    ),
                ],
            ),
            Role::Gate => (
                "a checkpoint gate",
                &[
                    ("description", state.description.is_some()),
                    ("output", state.output.is_some()),
                    ("meta/access", meta.is_some_and(|m| m.access.is_some())),
                ],
            ),
            Role::Terminal(_) => (
                "a final state",
                &[
                    ("description", state.description.is_some()),
                    ("meta", meta.is_some()),
                    ("on", state.on.is_some()),
                    ("tags", state.tags.is_some()),
                ],
            ),
        };
        for &(field, present) in stray {
            if !present {
                continue;
            }
            let ptr = format!("{}/{field}", state_origin(key).pointer());
            self.diags.push(
                Diagnostic::new(
                    Code::UnknownField,
                    format!(
                        "`{}` of the state `{}`: {what} has no such field in a loop",
                        field.replace('/', "."),
                        key.escape_debug()
                    ),
                )
                .with_suggestion(Suggestion::RemoveKey {
                    target: EditTarget::key(ptr.clone()),
                })
                .at_key(ptr),
            );
        }
    }

    /// A final state's terminal: its `output.status`, else its key (`end`, `abort`,
    /// `handoff`); `F002` when neither says.
    fn terminal(&mut self, key: &str, state: &m::State) -> Terminal {
        let by_key = Terminal::ALL
            .into_iter()
            .find(|t| m::terminal_key(*t) == key);
        match (
            state.output.as_ref().and_then(|o| o.status.terminal()),
            by_key,
        ) {
            (Some(t), _) => t,
            (None, Some(t)) => t,
            (None, None) => {
                self.diags.push(
                    Diagnostic::new(
                        Code::MissingField,
                        format!(
                            "the final state `{}` has no `output.status`: which terminal it is cannot be told",
                            key.escape_debug()
                        ),
                    )
                    .with_help("add `\"output\": {\"status\": \"ended\"}` (or `aborted`, `handed_off`)")
                    .at_key(state_origin(key).pointer()),
                );
                Terminal::End
            }
        }
    }
}

impl<'a> Lowering<'a> {
    /// The events of state `key`, in order.
    fn events(&self, key: &str) -> impl Iterator<Item = (&'a String, &'a m::On)> + use<'a> {
        self.states
            .get(key)
            .and_then(|s| s.on.as_ref())
            .into_iter()
            .flatten()
    }

    /// `F019` when gate `gate` has no event `name` (`APPROVE` or `REJECT`).
    fn missing_gate_event(&mut self, gate: &str, name: &str) {
        if self.events(gate).any(|(e, _)| e.as_str() == name) {
            return;
        }
        self.diags.push(
            Diagnostic::new(
                Code::XstateGate,
                format!(
                    "the checkpoint gate `{}` has no `{name}` event",
                    gate.escape_debug()
                ),
            )
            .with_help("a gate has two events: `APPROVE` into the guarded phase (or the next gate) and `REJECT` to where a rejection goes")
            .at_key(state_origin(gate).pointer()),
        );
    }

    /// The phase each gate guards (following `APPROVE` through later gates), each guarded
    /// phase's gates in order, `F019` for a gate approving into the wrong place and for
    /// an event a gate does not take.
    fn chain_gates(&mut self) {
        let gates = self.keys_of(|r| *r == Role::Gate);
        for &(_, g) in &gates {
            self.stray_gate_events(g);
            let phase = self.guarded_phase(g);
            self.guarded.insert(g, phase);
            if let Some(p) = phase {
                self.gates_of.entry(p).or_default().push(g);
            }
        }
        // Each phase's gates were listed in the order of `gates`: the gate's place in its
        // chain is how many of the phase's gates came before it (a search of the chains
        // for each gate was quadratic in the number of gates).
        let mut place: IdMap<&'a str, usize> = ir::id_map(self.gates_of.len());
        for &(_, g) in &gates {
            let Some(p) = self.guarded.get(g).copied().flatten() else {
                continue;
            };
            let i = place.entry(p).or_default();
            let next = self
                .gates_of
                .get(p)
                .and_then(|chain| chain.get(*i + 1))
                .copied();
            *i += 1;
            self.check_approval(g, p, next.unwrap_or(p));
        }
    }

    /// The phase a gate's `APPROVE` leads to, through later gates; `None` (after `F019`)
    /// when it leads to no phase.
    fn guarded_phase(&mut self, gate: &'a str) -> Option<&'a str> {
        let mut at = gate;
        let mut seen = vec![gate];
        loop {
            let (next, _) = self.approval(at)?;
            match self.roles.get(next) {
                Some(Role::Phase) => return Some(next),
                Some(Role::Gate) if !seen.contains(&next) => {
                    seen.push(next);
                    at = next;
                }
                _ => {
                    if at == gate {
                        self.approves_into_no_phase(gate, next);
                    }
                    return None;
                }
            }
        }
    }

    /// A gate's `APPROVE` event and its target.
    fn approval(&self, gate: &str) -> Option<(&'a str, &'a m::On)> {
        let (_, on) = self.events(gate).find(|(e, _)| e.as_str() == m::APPROVE)?;
        Some((on.target()?, on))
    }

    fn approves_into_no_phase(&mut self, gate: &str, target: &str) {
        self.diags.push(
            Diagnostic::new(
                Code::XstateGate,
                format!(
                    "the checkpoint gate `{}` approves into `{}`, which is not a phase",
                    gate.escape_debug(),
                    target.escape_debug()
                ),
            )
            .with_help("`APPROVE` goes into the phase the checkpoint guards, or into the next gate before it")
            .at(state_origin(gate).child("on").pointer_to(m::APPROVE)),
        );
    }

    /// `F019` for each event of a gate but `APPROVE` and `REJECT`, and for a missing one.
    fn stray_gate_events(&mut self, gate: &'a str) {
        let stray: Vec<&'a String> = self
            .events(gate)
            .map(|(e, _)| e)
            .filter(|e| *e != m::APPROVE && *e != m::REJECT)
            .collect();
        for e in stray {
            self.diags.push(
                Diagnostic::new(
                    Code::XstateGate,
                    format!(
                        "the checkpoint gate `{}` has an event `{}`: a gate takes only `APPROVE` and `REJECT`",
                        gate.escape_debug(),
                        e.escape_debug()
                    ),
                )
                .with_suggestion(Suggestion::RemoveKey {
                    target: EditTarget::key(state_origin(gate).child("on").pointer_to(e)),
                })
                .at_key(state_origin(gate).child("on").pointer_to(e)),
            );
        }
        self.missing_gate_event(gate, m::APPROVE);
        self.missing_gate_event(gate, m::REJECT);
    }

    /// `F019` when gate `g` of phase `p` does not approve into `expected`, the next gate of
    /// the phase's chain (or `p`, for the last).
    fn check_approval(&mut self, g: &'a str, p: &'a str, expected: &'a str) {
        let Some((actual, on)) = self.approval(g) else {
            return;
        };
        if actual == expected {
            return;
        }
        let ptr = target_pointer(g, m::APPROVE, on);
        self.diags.push(
            Diagnostic::new(
                Code::XstateGate,
                format!(
                    "the checkpoint gate `{}` approves into `{}`, but the checkpoints before `{}` are evaluated in the order their gates are listed, so it approves into `{}`",
                    g.escape_debug(),
                    actual.escape_debug(),
                    p.escape_debug(),
                    expected.escape_debug()
                ),
            )
            .with_suggestion(Suggestion::Set {
                target: EditTarget::value(ptr.clone()),
                to: expected.to_owned(),
            })
            .at(ptr),
        );
    }

    /// Where a reference to state `key` (at `ptr`, written out only for a diagnostic) leads
    /// in the loop: a phase (through its gates), a terminal, or, for a key that names no
    /// state, the key itself (the validator reports it). `F019` when it skips a gate.
    fn destination(&mut self, key: &'a str, ptr: impl FnOnce() -> String) -> Destination {
        match self.roles.get(key).copied() {
            Some(Role::Terminal(t)) => Destination::Terminal(t),
            Some(Role::Phase) => {
                self.through_first_gate(key, key, ptr);
                Destination::Phase(key.to_owned())
            }
            Some(Role::Gate) => match self.guarded.get(key).copied().flatten() {
                Some(p) => {
                    self.through_first_gate(key, p, ptr);
                    Destination::Phase(p.to_owned())
                }
                None => Destination::Phase(key.to_owned()),
            },
            None => Destination::Phase(key.to_owned()),
        }
    }

    /// `F019` when a reference to `target` enters guarded phase `phase` elsewhere than
    /// through its first gate.
    fn through_first_gate(&mut self, target: &str, phase: &str, ptr: impl FnOnce() -> String) {
        let Some(first) = self.gates_of.get(phase).and_then(|g| g.first()).copied() else {
            return;
        };
        if target == first {
            return;
        }
        let ptr = ptr();
        let skipped: Vec<String> = self.gates_of[phase]
            .iter()
            .take_while(|g| **g != target)
            .map(|g| format!("`{}`", self.checkpoint_id(g).escape_debug()))
            .collect();
        self.diags.push(
            Diagnostic::new(
                Code::XstateGate,
                format!(
                    "this target skips the checkpoint {} before `{}`: every way into a guarded phase goes through its first gate",
                    crate::text::list(&skipped, "and"),
                    phase.escape_debug()
                ),
            )
            .with_suggestion(Suggestion::Set {
                target: EditTarget::value(ptr.clone()),
                to: first.to_owned(),
            })
            .at(ptr),
        );
    }

    /// A gate's checkpoint id: `meta.checkpoint`, else its key.
    fn checkpoint_id(&self, gate: &'a str) -> &'a str {
        self.states.get_key_value(gate).map_or(gate, |(k, s)| {
            s.meta
                .as_ref()
                .and_then(|m| m.checkpoint.as_deref())
                .unwrap_or(k)
        })
    }
}

impl<'a> Lowering<'a> {
    /// The indices and keys of the states with role `role`, in order.
    fn keys_of(&self, role: fn(&Role) -> bool) -> Vec<(usize, &'a str)> {
        let states = self.states;
        (states.keys().map(String::as_str).enumerate())
            .filter(|(_, k)| self.roles.get(k).is_some_and(role))
            .collect()
    }

    /// The phases, in the order of their states, and the transitions: each phase's events,
    /// in order. An event's origin is made once, for its outcome and its transition.
    fn phases_and_transitions(&mut self) -> (Vec<ir::Phase>, Vec<ir::Transition>) {
        let keys = self.keys_of(|r| *r == Role::Phase);
        let (shared, mut places) = self.pointers(&keys);
        let mut phases = Vec::with_capacity(keys.len());
        // Sized once: grown by doubling, the list was copied into ever larger blocks, and
        // those copies were an eighth of the page faults of reading a 10,000-phase machine.
        let mut transitions = Vec::with_capacity(places.len().saturating_sub(keys.len()));
        let mut origin_of_next = || {
            places
                .next()
                .map(|at| shared.origin(at))
                .unwrap_or_default()
        };
        for (index, key) in keys {
            let origin = origin_of_next();
            let events: Vec<Event<'a>> = self
                .events(key)
                .map(|(name, on)| (name, on, origin_of_next()))
                .collect();
            phases.push(self.phase(key, index, origin, &events));
            for (event, on, origin) in events {
                let target = on.target().unwrap_or_default();
                let to = self.destination(target, || target_pointer_at(&origin, on));
                transitions.push(ir::Transition {
                    from: key.to_owned(),
                    on: event.clone(),
                    to,
                    origin,
                });
            }
        }
        (phases, transitions)
    }

    /// The pointers of the phase states `keys` and of their events, in one shared text:
    /// for each state, its own, then its events' in order.
    fn pointers(
        &self,
        keys: &[(usize, &'a str)],
    ) -> (
        ir::SharedPointers,
        impl ExactSizeIterator<Item = ir::PointerAt> + use<'a>,
    ) {
        let mut pointers = ir::Pointers::default();
        let events: usize = keys.iter().map(|&(_, key)| self.events(key).count()).sum();
        let mut places = Vec::with_capacity(keys.len() + events);
        for &(_, key) in keys {
            places.push(pointers.add("/states", &[key]));
            for (event, _) in self.events(key) {
                places.push(pointers.add("/states", &[key, "on", event]));
            }
        }
        (pointers.share(), places.into_iter())
    }

    /// The phase of state `key`, the state at `index`.
    fn phase(
        &mut self,
        key: &'a str,
        index: usize,
        origin: Origin,
        events: &[Event<'a>],
    ) -> ir::Phase {
        let state = &self.states[index];
        self.stable_id(key, &origin, "phase state");
        let objective = self.texts[index].description.take().unwrap_or_else(|| {
            self.diags.push(
                Diagnostic::new(
                    Code::MissingField,
                    format!(
                        "the phase state `{}` has no `description`, which holds the phase's objective",
                        key.escape_debug()
                    ),
                )
                .with_help("say what the phase must achieve in `description`")
                .at_key(origin.pointer()),
            );
            key.to_owned()
        });
        ir::Phase {
            id: key.to_owned(),
            objective,
            access: state.meta.as_ref().and_then(|m| m.access.clone()),
            outcomes: self.outcomes(key, index, events),
            origin,
        }
    }

    /// A phase's declared outcomes: its events, each described by its transition's
    /// `description`; `None` (the implicit `complete`) for a single undescribed
    /// `complete` event, or none at all.
    fn outcomes(
        &mut self,
        key: &'a str,
        index: usize,
        events: &[Event<'a>],
    ) -> Option<Vec<ir::Outcome>> {
        let described = |on: &m::On| matches!(on, m::On::Transition(t) if t.description.is_some());
        let implicit = match events {
            [] => true,
            [(e, on, _)] => e.as_str() == ir::IMPLICIT_OUTCOME && !described(on),
            _ => false,
        };
        if implicit {
            return None;
        }
        let outcomes = events
            .iter()
            .enumerate()
            .map(|(i, (event, _, origin))| {
                self.stable_id(event, origin, "event");
                // The text of a transition with a `description` (`take_texts`).
                let description = match self.texts[index].events.get_mut(i).and_then(Option::take) {
                    Some(text) => text,
                    None => self.undescribed(key, event, origin),
                };
                ir::Outcome {
                    id: (*event).clone(),
                    description,
                    origin: origin.clone(),
                }
            })
            .collect();
        Some(outcomes)
    }

    /// `F002` for an event of a phase with declared outcomes that has no `description`;
    /// the event's name stands in, so the validator does not report it again.
    fn undescribed(&mut self, key: &str, event: &str, origin: &Origin) -> String {
        self.diags.push(
            Diagnostic::new(
                Code::MissingField,
                format!(
                    "the event `{}` of the phase state `{}` has no `description`, which an outcome needs (only a lone `complete` event, the implicit outcome, goes without)",
                    event.escape_debug(),
                    key.escape_debug()
                ),
            )
            .with_help("write the event as `{\"target\": \"...\", \"description\": \"what this outcome means\"}`")
            .at_key(origin.pointer()),
        );
        event.to_owned()
    }

    /// `F005` when `id` (a phase's or an outcome's key, a checkpoint id) at `origin` is
    /// not a stable id.
    fn stable_id(&mut self, id: &str, origin: &Origin, what: &str) {
        if is_stable_id(id) {
            return;
        }
        let ptr = origin.pointer();
        let mut d = Diagnostic::new(
            Code::InvalidId,
            format!(
                "the {what} `{}` is not a stable id: it names a loop's phase, outcome or checkpoint",
                id.escape_debug()
            ),
        )
        .with_note(
            "a stable id matches `^[a-z](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$`: 1 to 64 characters, a lowercase letter, then lowercase letters, digits and single hyphens, not ending in a hyphen",
        )
        .at_key(ptr.clone());
        if let Some(fixed) = repaired_id(id) {
            d = d.with_suggestion(Suggestion::Replace {
                target: EditTarget::key(ptr),
                with: fixed,
            });
        }
        self.diags.push(d);
    }

    /// The transitions in `order` (`meta.transition_order`), when it lists each once;
    /// `F007` otherwise, and the states' order is kept.
    fn ordered(
        &mut self,
        transitions: Vec<ir::Transition>,
        order: Option<&[m::TransitionKey]>,
    ) -> Vec<ir::Transition> {
        let Some(order) = order else {
            return transitions;
        };
        let mut at: IdMap<(&str, &str), usize> = ir::id_map(transitions.len());
        for (i, t) in transitions.iter().enumerate() {
            at.entry((t.from.as_str(), t.on.as_str())).or_insert(i);
        }
        let positions: Vec<Option<usize>> = order
            .iter()
            .map(|k| at.get(&(k.from.as_str(), k.on.as_str())).copied())
            .collect();
        let mut slots: Vec<Option<ir::Transition>> = transitions.into_iter().map(Some).collect();
        let mut out = Vec::with_capacity(slots.len());
        for i in positions {
            match i.and_then(|i| slots[i].take()) {
                Some(t) => out.push(t),
                None => break,
            }
        }
        if out.len() == order.len() && slots.iter().all(Option::is_none) {
            return out;
        }
        self.diags.push(
            Diagnostic::new(
                Code::InvalidValue,
                "`meta.transition_order` does not list each transition of the machine once",
            )
            .with_help("remove `transition_order` to keep the order of the states and their events")
            .at("/meta/transition_order"),
        );
        out.extend(slots.into_iter().flatten());
        out
    }

    /// The checkpoints: one per gate, in the order of the gates.
    fn checkpoints(&mut self, declared_empty: bool) -> Option<Vec<ir::Checkpoint>> {
        let gates = self.keys_of(|r| *r == Role::Gate);
        if gates.is_empty() {
            return declared_empty.then(Vec::new);
        }
        let list = gates
            .into_iter()
            .map(|(_, g)| {
                let origin = state_origin(g);
                let id = self.checkpoint_id(g);
                self.stable_id(id, &origin, "checkpoint");
                let before_phase = match self.guarded.get(g).copied().flatten() {
                    Some(p) => p.to_owned(),
                    None => self.approval(g).map_or("", |(t, _)| t).to_owned(),
                };
                let on_reject = self.rejection(g);
                ir::Checkpoint {
                    id: id.to_owned(),
                    before_phase,
                    on_reject,
                    origin,
                }
            })
            .collect();
        Some(list)
    }

    /// Where gate `g`'s `REJECT` leads.
    fn rejection(&mut self, g: &'a str) -> Destination {
        let found = self.events(g).find(|(e, _)| e.as_str() == m::REJECT);
        match found {
            Some((e, on)) => {
                let target = on.target().unwrap_or_default();
                self.destination(target, || target_pointer(g, e, on))
            }
            None => Destination::Terminal(Terminal::Abort),
        }
    }
}
