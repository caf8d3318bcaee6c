//! The loop's limits and failures as part of the machine: counters in `context`, guards
//! on them and counting actions, so that an actor (Stately's simulator, `createActor`)
//! allows exactly the runs `loopconv walk` allows.
//!
//! * `steps`: each phase state counts a step on entry (an outcome back to its own phase
//!   re-enters it, `reenter: true`), and an eventless transition (`always`) goes to the
//!   final state `limit-reached` (`output.status` `limit_reached`) when the step is one
//!   more than `max_steps` (the loop's own; without one, the runtime ceiling of 100, walk's
//!   default).
//! * REAL/VEAL `attempts`: `eval` counts its executions; its failing verdict goes to the
//!   escalation's target only at the last of `max_attempts` (a guarded candidate first),
//!   and `escalate` is guarded so that it cannot be taken earlier.
//! * failures: every phase state takes `TOOL_FAILURE` and `PHASE_FAILURE`. A tool failure
//!   stays in the phase while `max_retries` lasts (`retries`, counted per phase execution),
//!   then goes where `error_policy` (or the harness default) says: a final state of the
//!   run status it ends with (`failed`, `aborted`, `handed-off`, each `meta.enforced`),
//!   or the phase failure's.
//!
//! The guards and actions are named with parameters (`{type: "above", params: {counter,
//! max}}`): a JSON machine names them, and their implementations (four lines, the same for
//! every loop) are in the module `--module js|ts` writes and in the guide. [`unenforced`]
//! takes all of it out again exactly, so a machine goes through XState and back unchanged;
//! anything else in those places is not a loop's.

use serde_json::{Value, json};

use super::{
    Call, CallKind, Counter, Eventless, Events, Json, Machine, MachineMeta, On, State, StateMeta,
    StateType, Status, Tags, Targets, Transition,
};
use crate::ir::{ErrorPolicy, Exhausted, FixedLoop, LoopPattern, PhaseAction, ToolAction};

mod unenforce;

pub use unenforce::{Enforcement, enforcement, unenforce};

/// The event of a failing tool call in the current phase.
pub const TOOL_FAILURE: &str = "TOOL_FAILURE";
/// The event of a failed phase.
pub const PHASE_FAILURE: &str = "PHASE_FAILURE";
/// The step limit of a loop that sets none: the runtime ceiling of `loopconv walk`
/// (`analysis::RUNTIME_MAX_STEPS`, which a test keeps equal).
pub const STEP_CEILING: u64 = 100;

/// What the machine enforces and what it cannot, in its `meta.enforcement`.
const NOTE: &str = "Counters in context (steps, attempts, retries) and guards on them enforce max_steps, max_attempts and the escalation at the last attempt; TOOL_FAILURE and PHASE_FAILURE follow error_policy. Not enforced by the machine: a runtime ceiling stricter than max_steps (the harness's), who takes over after an escalation or a handoff, and what a phase does. The guards (above, below, reached) and actions (count, reset) are implemented in the module of `loopconv convert --to xstate --module js`.";

/// Whether `state` is a phase's (neither final nor a checkpoint's gate).
fn is_phase(state: &State) -> bool {
    state.kind != Some(StateType::Final) && !state.tags.as_ref().is_some_and(Tags::is_checkpoint)
}

/// `base` if no state has it (`taken`), else `base-2`, `base-3`, ...
fn free_key(taken: &impl Fn(&str) -> bool, base: &str) -> String {
    let mut key = base.to_owned();
    let mut n = 2;
    while taken(&key) {
        key = format!("{base}-{n}");
        n += 1;
    }
    key
}

/// The key of an enforcement final state of `status`.
fn final_base(status: Status) -> &'static str {
    match status {
        Status::LimitReached => "limit-reached",
        Status::Failed => "failed",
        Status::Aborted => "aborted",
        Status::HandedOff => "handed-off",
        Status::Ended => "ended",
    }
}

/// `on` as a transition object with its fields.
fn transition(on: &On) -> Transition {
    match on {
        On::Target(t) => Transition::to(t.clone()),
        On::Transition(t) => t.clone(),
        On::Candidates(c) => c.last().cloned().unwrap_or_default(),
    }
}

/// A transition object as it is written: its target alone when it has nothing else.
fn written(mut t: Transition) -> On {
    let plain =
        t.description.is_none() && t.guard.is_none() && t.actions.is_none() && t.reenter.is_none();
    if plain && t.target.0.len() == 1 {
        On::Target(t.target.0.swap_remove(0))
    } else {
        On::Transition(t)
    }
}

/// Add the counters, guards, actions, failure events and final states to a machine that
/// has none (as `back::xstate` builds it from a loop).
pub fn enforce(machine: &mut Machine) {
    let meta = machine.meta.take().unwrap_or_default();
    let setup = Setup::of(&meta, |key| machine.states.contains_key(key));
    for (key, state) in machine.states.iter_mut() {
        if is_phase(state) {
            enforce_phase(key, state, setup.eval(key), &setup.plan);
        }
    }
    for (status, key) in &setup.finals {
        machine.states.insert(key.clone(), final_state(*status));
    }
    machine.context = Some(setup.context());
    let mut meta = meta;
    meta.enforcement = Some(NOTE.to_owned());
    machine.meta = Some(meta);
}

/// An enforcement final state of `status`.
fn final_state(status: Status) -> State {
    State {
        kind: Some(StateType::Final),
        meta: Some(StateMeta {
            enforced: Some(true),
            ..StateMeta::default()
        }),
        output: Some(super::Output { status }),
        ..State::default()
    }
}

/// What [`enforce`] writes for a machine's `meta`: the REAL/VEAL loop, the plan of every
/// phase state, and the keys of its final states.
struct Setup {
    fixed: Option<FixedLoop>,
    plan: Plan,
    finals: Vec<(Status, String)>,
}

impl Setup {
    /// The setup for `meta`, in a machine whose states (but enforcement's final states)
    /// have the keys `taken` accepts.
    fn of(meta: &MachineMeta, taken: impl Fn(&str) -> bool) -> Setup {
        let fixed = FixedLoop::of(meta.pattern.unwrap_or(LoopPattern::General));
        let ends = FailureEnds::of(meta.error_policy.as_ref());
        let finals = final_keys(&taken, [Status::LimitReached, ends.tool, ends.phase]);
        let key_of = |status: Status| {
            (finals.iter())
                .find(|(s, _)| *s == status)
                .map(|(_, k)| k.clone())
                .unwrap_or_default()
        };
        let plan = Plan {
            limit: meta.max_steps.unwrap_or(STEP_CEILING),
            attempts: meta.max_attempts.unwrap_or(3),
            retries: ends.retries,
            limit_key: key_of(Status::LimitReached),
            tool_key: key_of(ends.tool),
            phase_key: key_of(ends.phase),
        };
        Setup {
            fixed,
            plan,
            finals,
        }
    }

    /// The REAL/VEAL loop of phase state `key` when it is its `eval`.
    fn eval(&self, key: &str) -> Option<FixedLoop> {
        self.fixed.filter(|f| f.eval == key)
    }

    /// The machine's `context`: its counters.
    fn context(&self) -> Value {
        let mut context = json!({"steps": 0});
        if self.fixed.is_some() {
            context["attempts"] = json!(0);
        }
        if self.plan.retries > 0 {
            context["retries"] = json!(0);
        }
        context
    }
}

/// How a loop's failures end a run: the retries a tool failure has, and the run status
/// a tool failure and a phase failure end with (`error_policy`, or the harness default).
struct FailureEnds {
    retries: u64,
    tool: Status,
    phase: Status,
}

impl FailureEnds {
    fn of(policy: Option<&ErrorPolicy>) -> FailureEnds {
        let tool = policy.and_then(|p| p.tool_failure.as_ref());
        let retries = match tool {
            Some(t) if t.action == ToolAction::Retry => t.max_retries.unwrap_or(0),
            _ => 0,
        };
        let phase = match policy
            .and_then(|p| p.phase_failure.as_ref())
            .map(|p| p.action)
        {
            Some(PhaseAction::Abort) => Status::Aborted,
            Some(PhaseAction::Handoff) => Status::HandedOff,
            None => Status::Failed,
        };
        let tool_action = match tool {
            None => ToolAction::FailPhase,
            Some(t) if t.action == ToolAction::Retry => match t.on_exhausted {
                Some(Exhausted::Abort) => ToolAction::Abort,
                Some(Exhausted::Handoff) => ToolAction::Handoff,
                Some(Exhausted::FailPhase) | None => ToolAction::FailPhase,
            },
            Some(t) => t.action,
        };
        let tool = match tool_action {
            ToolAction::Abort => Status::Aborted,
            ToolAction::Handoff => Status::HandedOff,
            ToolAction::FailPhase | ToolAction::Retry => phase,
        };
        FailureEnds {
            retries,
            tool,
            phase,
        }
    }
}

/// The key of each enforcement final state, one per distinct status of `statuses`, in
/// that order: its [`final_base`], or with `-2`, ... when a state has it.
fn final_keys(taken: &impl Fn(&str) -> bool, statuses: [Status; 3]) -> Vec<(Status, String)> {
    let mut finals: Vec<(Status, String)> = Vec::new();
    for status in statuses {
        if !finals.iter().any(|(s, _)| *s == status) {
            let mut key = free_key(taken, final_base(status));
            while finals.iter().any(|(_, k)| *k == key) {
                key.push_str("-2");
            }
            finals.push((status, key));
        }
    }
    finals
}

/// What every phase state of a machine enforces: its bounds and where its failures go.
struct Plan {
    limit: u64,
    attempts: u64,
    retries: u64,
    limit_key: String,
    tool_key: String,
    phase_key: String,
}

impl Plan {
    /// A phase state's `entry`: it counts a step, an attempt for `eval`, and resets the
    /// retries.
    fn entry(&self, eval: bool) -> Json<Vec<Call>> {
        let mut entry = vec![Call::action(CallKind::Count, Counter::Steps)];
        if eval {
            entry.push(Call::action(CallKind::Count, Counter::Attempts));
        }
        if self.retries > 0 {
            entry.push(Call::action(CallKind::Reset, Counter::Retries));
        }
        Json::Typed(entry)
    }

    /// A phase state's `always`: to the step limit's final state.
    fn always(&self) -> Json<Vec<Eventless>> {
        Json::Typed(vec![Eventless {
            target: self.limit_key.clone(),
            guard: Call::guard(CallKind::Above, Counter::Steps, self.limit),
        }])
    }

    /// The guard of `eval`'s escalation: the last attempt.
    fn reached(&self) -> Json<Call> {
        Json::Typed(Call::guard(
            CallKind::Reached,
            Counter::Attempts,
            self.attempts,
        ))
    }

    /// The guard of a tool failure's retry in its phase.
    fn below(&self) -> Json<Call> {
        Json::Typed(Call::guard(CallKind::Below, Counter::Retries, self.retries))
    }

    /// The action of a tool failure's retry.
    fn count_retries() -> Json<Vec<Call>> {
        Json::Typed(vec![Call::action(CallKind::Count, Counter::Retries)])
    }
}

/// Phase state `key` with its step count and limit, its retries, its failure events and,
/// for a REAL/VEAL loop's `eval` (`eval`), its attempts and the escalation at the last.
fn enforce_phase(key: &str, state: &mut State, eval: Option<FixedLoop>, plan: &Plan) {
    state.entry = Some(plan.entry(eval.is_some()));
    state.always = Some(plan.always());
    let escalation = eval.and_then(|f| {
        (state.on.iter().flatten())
            .find(|(name, _)| name.as_str() == f.escalate)
            .and_then(|(_, on)| on.target().map(str::to_owned))
    });
    let mut pairs: Vec<(String, On)> = Vec::new();
    for (name, on) in state.on.iter().flatten() {
        let mut t = transition(on);
        if t.target.first() == Some(key) {
            t.reenter = Some(Box::new(Value::Bool(true)));
        }
        let reached = || Some(Box::new(plan.reached()));
        let on = match (eval, &escalation) {
            (Some(f), Some(target)) if name.as_str() == f.retry.0 => {
                let last = Transition {
                    target: Targets::one(target.clone()),
                    guard: reached(),
                    ..Transition::default()
                };
                On::Candidates(vec![last, t])
            }
            (Some(f), _) if name.as_str() == f.escalate => {
                t.guard = reached();
                written(t)
            }
            _ => written(t),
        };
        pairs.push((name.clone(), on));
    }
    let tool_on = if plan.retries > 0 {
        On::Candidates(vec![
            Transition {
                target: Targets::one(key.to_owned()),
                guard: Some(Box::new(plan.below())),
                actions: Some(Box::new(Plan::count_retries())),
                ..Transition::default()
            },
            Transition::to(plan.tool_key.clone()),
        ])
    } else {
        On::Target(plan.tool_key.clone())
    };
    pairs.push((TOOL_FAILURE.to_owned(), tool_on));
    pairs.push((PHASE_FAILURE.to_owned(), On::Target(plan.phase_key.clone())));
    state.on = Some(Events::from_pairs(pairs));
}

/// Whether the machine holds anything [`enforce`] writes.
fn has_enforcement(machine: &Machine) -> bool {
    let transition_fields =
        |t: &Transition| t.guard.is_some() || t.actions.is_some() || t.reenter.is_some();
    machine.context.is_some()
        || machine
            .meta
            .as_ref()
            .is_some_and(|m| m.enforcement.is_some())
        || machine.states.values().any(|s| {
            s.entry.is_some()
                || s.always.is_some()
                || s.meta.as_ref().is_some_and(|m| m.enforced.is_some())
                || s.on.iter().flatten().any(|(name, on)| {
                    name == TOOL_FAILURE
                        || name == PHASE_FAILURE
                        || match on {
                            On::Transition(t) => transition_fields(t),
                            On::Candidates(c) => c.iter().any(transition_fields),
                            On::Target(_) => false,
                        }
                })
        })
}

#[cfg(test)]
mod tests {
    use super::STEP_CEILING;

    #[test]
    fn the_step_ceiling_is_walks() {
        assert_eq!(STEP_CEILING, crate::analysis::RUNTIME_MAX_STEPS);
    }
}
