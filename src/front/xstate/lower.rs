//! The lowering of a machine into the IR: each state's role (a phase, a checkpoint's gate,
//! a terminal), the names kept or mapped to stable ids, the checkpoint gates' chains
//! (`gates`), and the phases, transitions and checkpoints (`phases`).

mod gates;
mod phases;

use super::names::{free_id, kebab, terminal_by_name};
use super::targets::{refuse, unsupported};
use super::{loss, pointer, state_origin};
use crate::diag::{Code, Diagnostic, Diagnostics, EditTarget, Rejection, Suggestion};
use crate::format::Format;
use crate::ir::id_pattern::is_stable_id;
use crate::ir::{self, IdMap, IdSet, LoopPattern, Origin, Provenance, Spec, Terminal};
use crate::model::xstate as m;

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
    /// Each guarded phase's gates, in the order of their chain (each gate's `APPROVE` into
    /// the next, the last into the phase), or as listed when they form no single chain.
    gates_of: IdMap<&'a str, Vec<&'a str>>,
    diags: &'a mut Diagnostics,
    /// The states' texts, by the state's index, moved into the IR as the phases are made.
    texts: Vec<StateTexts>,
    /// The phase ids of the phase states whose keys are no stable ids (a loss, `B001`).
    phase_ids: IdMap<&'a str, String>,
    /// The outcome ids of the phases' events whose names are no stable ids.
    event_ids: IdMap<&'a str, String>,
    /// The checkpoint ids of the gates whose ids are no stable ids.
    checkpoint_ids: IdMap<&'a str, String>,
    /// The key the XState back end gives each terminal's final state ([`m::final_key`]):
    /// a final state under another key has a name of its own, which the loop keeps.
    final_keys: [String; 3],
    /// The final states a transition or a rejection targets.
    targeted: IdSet<&'a str>,
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
pub(super) fn lower(mut machine: m::Machine, diags: &mut Diagnostics) -> Spec {
    let meta = machine.meta.take().unwrap_or_default();
    let texts = take_texts(&mut machine.states);
    let mut l = Lowering::new(&machine.states, diags, texts);
    let name = l.machine_name(machine.id.as_deref());
    let entry = l
        .destination(&machine.initial, || "/initial".to_owned())
        .as_str()
        .to_owned();
    let (phases, transitions) = l.phases_and_transitions();
    let transitions = l.ordered(transitions, meta.transition_order.as_deref());
    let checkpoints = l.checkpoints(meta.empty_checkpoints == Some(true));
    l.untargeted_finals();
    let goal = meta.goal.map(with_goal_origins).unwrap_or_default();
    Spec {
        source_format: meta.source_format.unwrap_or(Format::Xstate),
        name,
        version: machine.version,
        description: machine.description,
        schema_uri: meta.schema_uri,
        readme: meta.readme,
        license: meta.license,
        environment: meta.environment,
        pattern: meta.pattern.unwrap_or(LoopPattern::General),
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

/// The index of `t` in [`Terminal::ALL`].
fn terminal_index(t: Terminal) -> usize {
    match t {
        Terminal::End => 0,
        Terminal::Abort => 1,
        Terminal::Handoff => 2,
    }
}

/// The run status a terminal ends a run with, as an XState final state's `output.status`.
fn status_name(t: Terminal) -> &'static str {
    match t {
        Terminal::End => "ended",
        Terminal::Abort => "aborted",
        Terminal::Handoff => "handed_off",
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
            phase_ids: ir::id_map(0),
            event_ids: ir::id_map(0),
            checkpoint_ids: ir::id_map(0),
            final_keys: Terminal::ALL.map(|t| {
                m::final_key(t, |k| {
                    states
                        .get(k)
                        .is_some_and(|s| s.kind != Some(m::StateType::Final))
                })
            }),
            targeted: IdSet::default(),
        };
        for (key, state) in states {
            let role = l.role(key, state);
            l.roles.insert(key, role);
            l.stray_fields(key, state, role);
            if !matches!(role, Role::Terminal(_)) {
                l.candidate_lists(key, state);
            }
        }
        l.rename();
        l.chain_gates();
        l
    }

    /// The loop's name: the machine's `id`; a loss when it has none (`machine`, as
    /// XState names it) or one that is no name but splits into one; `F005` otherwise.
    fn machine_name(&mut self, id: Option<&str>) -> String {
        let Some(id) = id else {
            self.diags.push(loss(
                "",
                "the machine has no `id`: the loop is named `machine`".to_owned(),
            ));
            return "machine".to_owned();
        };
        if ir::id_pattern::is_name(id) {
            return id.to_owned();
        }
        if let Some(name) = kebab(id).filter(|n| ir::id_pattern::is_name(n)) {
            self.diags.push(loss(
                "/id",
                format!(
                    "the machine id `{}` renamed to the loop name `{name}`",
                    id.escape_debug()
                ),
            ));
            return name;
        }
        self.diags.reject(
            Diagnostic::new(
                Code::InvalidId,
                format!(
                    "`id` `{}` does not match the pattern `{}`",
                    id.escape_debug(),
                    ir::id_pattern::NAME
                ),
            )
            .with_note("ids are lowercase kebab-case, starting with a letter")
            .at("/id"),
            Rejection::Value,
        );
        id.to_owned()
    }

    /// The stable ids of the phase states, phase events and checkpoints whose names are
    /// none but split into one (a loss each, the mapping in its message), in the order
    /// they are written; a name taken already gets `-2`, `-3`, ...
    fn rename(&mut self) {
        let states = self.states;
        let phases: Vec<&'a str> = (states.keys().map(String::as_str))
            .filter(|k| self.roles.get(k) == Some(&Role::Phase))
            .collect();
        // The names taken are gathered only when a name is to be renamed: a machine that
        // loopconv wrote has none, and its 10,000 phases and 30,000 events need no set.
        let unstable = phases.iter().any(|k| !is_stable_id(k));
        let mut taken: std::collections::HashSet<String> = (phases.iter())
            .filter(|k| unstable && is_stable_id(k))
            .map(|k| (*k).to_owned())
            .collect();
        for &key in phases.iter().filter(|_| unstable) {
            if is_stable_id(key) || self.phase_ids.contains_key(key) {
                continue;
            }
            let Some(base) = kebab(key) else { continue };
            let id = free_id(&mut taken, base);
            self.diags.push(loss(
                state_origin(key).pointer(),
                format!(
                    "the state `{}` renamed to the phase id `{id}`",
                    key.escape_debug()
                ),
            ));
            self.phase_ids.insert(key, id);
        }
        let unstable = (states.iter())
            .filter(|(k, _)| self.roles.get(k.as_str()) == Some(&Role::Phase))
            .flat_map(|(_, s)| s.on.iter().flatten())
            .any(|(e, _)| !is_stable_id(e));
        let events: Vec<(&'a str, &'a String)> = (phases.iter())
            .filter(|_| unstable)
            .flat_map(|&k| self.events(k).map(move |(e, _)| (k, e)))
            .collect();
        let mut taken: std::collections::HashSet<String> = (events.iter())
            .filter(|(_, e)| is_stable_id(e))
            .map(|(_, e)| (*e).clone())
            .collect();
        for (key, event) in events {
            if is_stable_id(event) || self.event_ids.contains_key(event.as_str()) {
                continue;
            }
            let Some(base) = kebab(event) else { continue };
            let id = free_id(&mut taken, base);
            self.diags.push(loss(
                state_origin(key).child("on").pointer_to(event),
                format!(
                    "the event `{}` renamed to the outcome id `{id}`",
                    event.escape_debug()
                ),
            ));
            self.event_ids.insert(event, id);
        }
        let gates: Vec<&'a str> = (states.keys().map(String::as_str))
            .filter(|k| self.roles.get(k) == Some(&Role::Gate))
            .collect();
        let mut taken: std::collections::HashSet<String> = (gates.iter())
            .map(|g| self.checkpoint_id(g))
            .filter(|c| is_stable_id(c))
            .map(str::to_owned)
            .collect();
        for g in gates {
            let c = self.checkpoint_id(g);
            if is_stable_id(c) || self.checkpoint_ids.contains_key(c) {
                continue;
            }
            let Some(base) = kebab(c) else { continue };
            let id = free_id(&mut taken, base);
            self.diags.push(loss(
                state_origin(g).pointer(),
                format!(
                    "the checkpoint `{}` renamed to the checkpoint id `{id}`",
                    c.escape_debug()
                ),
            ));
            self.checkpoint_ids.insert(c, id);
        }
    }

    /// The phase id of phase state `key`.
    fn phase_id(&self, key: &str) -> String {
        self.phase_ids
            .get(key)
            .cloned()
            .unwrap_or_else(|| key.to_owned())
    }

    /// The outcome id of event `event`.
    fn event_id(&self, event: &str) -> String {
        self.event_ids
            .get(event)
            .cloned()
            .unwrap_or_else(|| event.to_owned())
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
                refuse(
                    self.diags,
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
            _ if state.tags.as_ref().is_some_and(m::Tags::is_checkpoint) => Role::Gate,
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
                refuse(self.diags, d);
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
            Role::Terminal(_) => {
                for (field, present) in [
                    ("description", state.description.is_some()),
                    ("tags", state.tags.is_some()),
                ] {
                    if present {
                        self.diags.push(loss(
                            state_origin(key).pointer_to(field),
                            format!(
                                "the `{field}` of the final state `{}` dropped",
                                key.escape_debug()
                            ),
                        ));
                    }
                }
                (
                    "a final state",
                    &[("meta", meta.is_some()), ("on", state.on.is_some())],
                )
            }
        };
        let other_tags = (state.tags.iter())
            .flat_map(|t| t.0.iter())
            .filter(|t| t.as_str() != m::CHECKPOINT_TAG);
        if !matches!(role, Role::Terminal(_)) {
            for t in other_tags {
                self.diags.push(loss(
                    state_origin(key).pointer_to("tags"),
                    format!(
                        "the tag `{}` of `{}` dropped",
                        t.escape_debug(),
                        key.escape_debug()
                    ),
                ));
            }
        }
        for &(field, present) in stray {
            if !present {
                continue;
            }
            let ptr = format!("{}/{field}", state_origin(key).pointer());
            self.diags.reject(
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
                Rejection::UnknownKey { meant: None },
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
            (Some(t), _) | (None, Some(t)) => t,
            (None, None) => {
                let (t, how) = match terminal_by_name(key) {
                    Some(t) => (t, "by its name"),
                    None => (Terminal::End, "since its name says nothing else"),
                };
                self.diags.push(
                    loss(
                        state_origin(key).pointer(),
                        format!(
                            "the final state `{}` has no `output.status`: read as `{}` (status `{}`), {how}",
                            key.escape_debug(),
                            t.as_str(),
                            status_name(t)
                        ),
                    )
                    .with_note("set `\"output\": {\"status\": \"ended\"}` (or `aborted`, `handed_off`) to say which terminal it is"),
                );
                t
            }
        }
    }
}
