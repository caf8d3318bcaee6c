//! Scripted walks: step through a loop as the AgentPM harness runs it (formats.md 1.6),
//! with the outcomes, failures and checkpoint decisions a script gives.
//!
//! * A step is one phase execution. The effective step limit is the stricter of the
//!   loop's `max_steps` (for REAL/VEAL the bound from `max_attempts`) and the runtime's
//!   ceiling ([`Runtime`], default 100); running out is `limit_reached`.
//! * Before a phase, its checkpoints are evaluated in authored order, each taking its next
//!   decision: the first rejection follows its own `on_reject` and consumes no step. A
//!   checkpoint with no decision left ends the run `approval_required` (a headless run
//!   never decides one itself).
//! * A phase takes script tokens until it ends: [`TOOL_FAILURE`] is a failing tool call
//!   (retried while `max_retries` lasts: consecutive failures in one execution are retries
//!   of the same call), [`PHASE_FAILURE`] fails the phase, anything else is its outcome.
//!   Failures follow the loop's `error_policy`, or the harness defaults without one: a
//!   tool failure fails the phase, a failed phase ends the run `failed`.
//! * REAL/VEAL: `eval`'s failing verdict (`no-go` / `act`) escalates only at the last of
//!   `max_attempts` evaluations, by the escalation policy (`escalate` earlier is a script
//!   mistake).
//!
//! A script that does not fit the loop (an outcome the phase does not have, an empty
//! token, outcomes or decisions left over when the script's own choices end the run) is a
//! [`ScriptError`], not a run status.

use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::fmt;

use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef as _;
use serde::Serialize;

use super::{Decision, Failure, PHASE_FAILURE, Runtime, Status, Step, TOOL_FAILURE, step_of};
use crate::ir::fixed::FixedLoop;
use crate::ir::{Escalation, Exhausted, PhaseAction, Spec, ToolAction};
use crate::valid::Info;
use crate::valid::graph::{Edge, Vertex};

/// The script of a walk.
#[derive(Debug, Clone, Default)]
pub struct Script {
    /// Outcomes and failure tokens, in order: each phase execution takes tokens until an
    /// outcome or a failure ends it.
    pub outcomes: Vec<String>,
    /// Checkpoint decisions in order; each checkpoint takes its own decisions in the order
    /// given.
    pub decisions: Vec<(String, Decision)>,
}

/// How a walk ended: the run status and the steps that led there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Run {
    /// The harness's run status.
    pub status: Status,
    /// The terminal reached, when a transition or a rejection ended the run there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminal: Option<String>,
    /// Why the run ended, in one sentence.
    pub reason: String,
    /// The steps taken.
    pub steps: Vec<Step>,
    /// Phase executions.
    pub phase_steps: usize,
    /// The effective step limit (the stricter of `loop_max_steps` and `runtime_max_steps`).
    pub max_steps: u64,
    /// The loop's own bound, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_max_steps: Option<u64>,
    /// The runtime's ceiling.
    pub runtime_max_steps: u64,
    /// `approval_required`: the checkpoint waiting for a decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<String>,
    /// REAL/VEAL: the escalation, when the attempts ran out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub escalation: Option<Escalated>,
    /// The script not used when the runtime stopped the run (`limit_reached`,
    /// `approval_required`): outcomes, then `approve ID` / `reject ID`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unused: Vec<String>,
}

/// A REAL/VEAL escalation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Escalated {
    /// The policy applied.
    pub policy: Escalation,
    /// The failed evaluations (`max_attempts`).
    pub after_attempts: u64,
    /// `fallback`: the agent the run hands off to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback_agent: Option<String>,
}

/// A script that does not fit the loop, with the steps taken until then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScriptError {
    /// What is wrong with the script.
    pub message: String,
    /// The steps taken before it.
    pub steps: Vec<Step>,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ScriptError {}

/// Walk a valid loop with a script, under the runtime's limits.
pub fn walk(spec: &Spec, info: &Info, script: &Script, rt: Runtime) -> Result<Run, ScriptError> {
    let mut w = Walker::new(spec, info, script, rt);
    if let Some(k) = script.outcomes.iter().position(|o| o.trim().is_empty()) {
        return Err(w.fail(format!(
            "outcome {} of the script is empty (outcomes are separated by single commas)",
            k + 1
        )));
    }
    if let Some(message) = unknown_checkpoint(spec, script) {
        return Err(w.fail(message));
    }
    let Some(mut node) = info.start else {
        return Err(w.fail("the loop has no entry phase".to_owned()));
    };
    loop {
        let next = match &info.graph[node] {
            Vertex::Terminal(t) => return w.reached(*t),
            Vertex::Phase(i) => w.phase(*i, node)?,
            Vertex::Gate(i) => w.gate(*i, node),
        };
        let e = match next {
            Next::Take(e) => e,
            Next::Stop(end) => return w.end(end),
        };
        if let Some(s) = step_of(spec, info, e) {
            w.steps.push(s);
        }
        match info.graph.edge_endpoints(e) {
            Some((_, to)) => node = to,
            None => return Err(w.fail("internal: an edge without endpoints".to_owned())),
        }
    }
}

/// A decision the script gives for a checkpoint the loop does not declare: the script does
/// not fit the loop (a misspelled id would otherwise leave the real checkpoint undecided,
/// and the run waiting for an approval the script meant to give).
fn unknown_checkpoint(spec: &Spec, script: &Script) -> Option<String> {
    let ids: Vec<&str> = (spec.graph.checkpoints.iter().flatten())
        .map(|c| c.id.as_str())
        .collect();
    let (id, _) = (script.decisions.iter()).find(|(id, _)| !ids.contains(&id.as_str()))?;
    const LISTED: usize = 10;
    let hint = match crate::text::did_you_mean::closest(id, ids.iter().copied(), |d, _| d <= 2) {
        Some(near) => format!("did you mean `{near}`?"),
        None if ids.is_empty() => "it declares none".to_owned(),
        None if ids.len() > LISTED => format!(
            "checkpoints: {} and {} more",
            ids[..LISTED].join(", "),
            ids.len() - LISTED
        ),
        None => format!("checkpoints: {}", ids.join(", ")),
    };
    Some(format!(
        "the script decides checkpoint `{id}`, which the loop does not declare ({hint})"
    ))
}

/// What a node does with the script: take an edge, or end the run.
enum Next {
    Take(EdgeIndex),
    Stop(End),
}

/// A run end that is not a terminal reached by an edge.
struct End {
    status: Status,
    reason: String,
    /// Whether the runtime stopped the run (the script may go on) rather than the script.
    by_runtime: bool,
    checkpoint: Option<String>,
}

impl End {
    fn by_script(status: Status, reason: String) -> Next {
        Next::Stop(End {
            status,
            reason,
            by_runtime: false,
            checkpoint: None,
        })
    }
}

struct Walker<'a> {
    spec: &'a Spec,
    info: &'a Info,
    rt: Runtime,
    outcomes: VecDeque<&'a String>,
    decisions: BTreeMap<&'a str, VecDeque<Decision>>,
    steps: Vec<Step>,
    phase_steps: u64,
    /// REAL/VEAL: `eval` executions so far.
    attempts: u64,
    escalation: Option<Escalated>,
}

impl<'a> Walker<'a> {
    fn new(spec: &'a Spec, info: &'a Info, script: &'a Script, rt: Runtime) -> Self {
        let mut decisions: BTreeMap<&str, VecDeque<Decision>> = BTreeMap::new();
        for (id, d) in &script.decisions {
            decisions.entry(id.as_str()).or_default().push_back(*d);
        }
        Walker {
            spec,
            info,
            rt,
            outcomes: script.outcomes.iter().collect(),
            decisions,
            steps: Vec::new(),
            phase_steps: 0,
            attempts: 0,
            escalation: None,
        }
    }

    fn fail(&self, message: String) -> ScriptError {
        ScriptError {
            message,
            steps: self.steps.clone(),
        }
    }

    /// The limit in words, and where it comes from.
    fn bound(&self) -> String {
        let max = self.rt.effective_max_steps(self.info);
        let runtime = self.rt.max_steps;
        let own = match FixedLoop::of(self.spec.pattern) {
            Some(_) => format!(
                "the loop's, from `max_attempts` {}",
                self.spec.effective_max_attempts()
            ),
            None => "the loop's".to_owned(),
        };
        match self.info.max_steps {
            None => format!("`max_steps` is {max}, the runtime's ceiling (the loop sets none)"),
            Some(m) if m <= runtime => {
                format!("`max_steps` is {m}, {own} (the runtime's ceiling is {runtime})")
            }
            Some(m) => {
                format!("`max_steps` is {max}, the runtime's ceiling, stricter than {own} ({m})")
            }
        }
    }

    /// Run phase `i`: count the step, then take tokens until an outcome or a failure.
    fn phase(&mut self, i: usize, node: NodeIndex) -> Result<Next, ScriptError> {
        let phase = &self.spec.graph.phases[i];
        if self.phase_steps >= self.rt.effective_max_steps(self.info) {
            return Ok(Next::Stop(End {
                status: Status::LimitReached,
                reason: format!("no step left for phase `{}`: {}", phase.id, self.bound()),
                by_runtime: true,
                checkpoint: None,
            }));
        }
        self.phase_steps += 1;
        let mut tool_failures = 0;
        loop {
            let Some(token) = self.outcomes.pop_front() else {
                return Err(self.fail(format!(
                    "no outcome left for phase `{}` (valid outcomes: {})",
                    phase.id,
                    phase.outcome_ids().join(", ")
                )));
            };
            match token.as_str() {
                TOOL_FAILURE if phase.access.as_ref().and_then(|a| a.tools) == Some(false) => {
                    return Err(self.fail(format!(
                        "`{TOOL_FAILURE}` in phase `{}`, which calls no tool (`access.tools: false`): script `{PHASE_FAILURE}` for a failure of the phase",
                        phase.id
                    )));
                }
                TOOL_FAILURE => {
                    tool_failures += 1;
                    if let Some(stop) = self.tool_failed(i, tool_failures) {
                        return Ok(stop);
                    }
                }
                PHASE_FAILURE => return Ok(self.phase_failed(i)),
                outcome => return self.outcome(i, node, outcome).map(Next::Take),
            }
        }
    }

    /// The transition outcome `outcome` of phase `i` selects (REAL/VEAL: the escalation
    /// when the attempts are used up).
    fn outcome(
        &mut self,
        i: usize,
        node: NodeIndex,
        outcome: &str,
    ) -> Result<EdgeIndex, ScriptError> {
        let phase = &self.spec.graph.phases[i];
        let outcome = self.escalated(&phase.id, outcome)?;
        let edge = self.info.graph.edges(node).find(|e| match e.weight() {
            Edge::Transition(t) => self.spec.graph.transitions[*t].on == outcome,
            _ => false,
        });
        edge.map(|e| e.id()).ok_or_else(|| {
            let outcomes = phase.outcome_ids().join(", ");
            self.fail(if outcome.starts_with('@') {
                format!(
                    "`{outcome}` is no failure: `{TOOL_FAILURE}` or `{PHASE_FAILURE}` (the outcomes of phase `{}`: {outcomes})",
                    phase.id
                )
            } else {
                format!(
                    "`{outcome}` is not an outcome of phase `{}` (valid outcomes: {outcomes}; or a failure: `{TOOL_FAILURE}`, `{PHASE_FAILURE}`)",
                    phase.id
                )
            })
        })
    }

    /// REAL/VEAL `eval`: the outcome after counting the attempt. The failing verdict at the
    /// last attempt becomes `escalate`; `escalate` before it is a script mistake.
    fn escalated<'o>(&mut self, phase: &str, outcome: &'o str) -> Result<&'o str, ScriptError> {
        let Some(fixed) = FixedLoop::of(self.spec.pattern).filter(|f| f.eval == phase) else {
            return Ok(outcome);
        };
        self.attempts += 1;
        let max = self.spec.effective_max_attempts();
        let failed = outcome == fixed.retry.0 || outcome == fixed.escalate;
        if !failed {
            return Ok(outcome);
        }
        if self.attempts < max {
            if outcome == fixed.escalate {
                return Err(self.fail(format!(
                    "`{}` happens only when `max_attempts` ({max}) is used up, and this is attempt {}: script `{}` for a failed evaluation",
                    fixed.escalate, self.attempts, fixed.retry.0
                )));
            }
            return Ok(outcome);
        }
        let policy = self.spec.effective_escalation();
        self.escalation = Some(Escalated {
            policy,
            after_attempts: max,
            fallback_agent: (policy == Escalation::Fallback)
                .then(|| self.spec.roles.fallback_agent.clone())
                .flatten(),
        });
        Ok(fixed.escalate)
    }

    /// The `n`th consecutive tool failure in phase `i`: a retry (`None`), or the end the
    /// policy gives.
    fn tool_failed(&mut self, i: usize, n: u64) -> Option<Next> {
        let policy = self
            .spec
            .bounds
            .error_policy
            .as_ref()
            .and_then(|p| p.tool_failure.as_ref());
        let (action, rule) = match policy {
            None => (ToolAction::FailPhase, "harness default"),
            Some(p) if p.action == ToolAction::Retry => {
                let max = p.max_retries.unwrap_or(0);
                if n <= max {
                    self.failure(
                        i,
                        Failure::ToolFailure,
                        "retry",
                        "error_policy.tool_failure",
                    )
                    .retry(n, max);
                    return None;
                }
                let action = match p.on_exhausted {
                    Some(Exhausted::Abort) => ToolAction::Abort,
                    Some(Exhausted::Handoff) => ToolAction::Handoff,
                    Some(Exhausted::FailPhase) | None => ToolAction::FailPhase,
                };
                (action, "error_policy.tool_failure.on_exhausted")
            }
            Some(p) => (p.action, "error_policy.tool_failure"),
        };
        self.failure(i, Failure::ToolFailure, action.as_str(), rule);
        let spec = self.spec;
        let id = &spec.graph.phases[i].id;
        Some(match action {
            ToolAction::Abort => End::by_script(
                Status::Aborted,
                format!("a tool failure in phase `{id}` aborted the run ({rule}: abort)"),
            ),
            ToolAction::Handoff => End::by_script(
                Status::HandedOff,
                format!("a tool failure in phase `{id}` handed the run off ({rule}: handoff)"),
            ),
            ToolAction::FailPhase | ToolAction::Retry => self.phase_failed(i),
        })
    }

    /// Phase `i` failed: the `phase_failure` policy, or the harness default (`failed`).
    fn phase_failed(&mut self, i: usize) -> Next {
        let policy = self
            .spec
            .bounds
            .error_policy
            .as_ref()
            .and_then(|p| p.phase_failure.as_ref());
        let id = self.spec.graph.phases[i].id.clone();
        match policy.map(|p| p.action) {
            None => {
                self.failure(i, Failure::PhaseFailure, "fail_run", "harness default");
                End::by_script(
                    Status::Failed,
                    format!(
                        "phase `{id}` failed and no `error_policy.phase_failure` says what then: the harness fails the run"
                    ),
                )
            }
            Some(a) => {
                self.failure(
                    i,
                    Failure::PhaseFailure,
                    a.as_str(),
                    "error_policy.phase_failure",
                );
                let (status, what) = match a {
                    PhaseAction::Abort => (Status::Aborted, "aborted the run"),
                    PhaseAction::Handoff => (Status::HandedOff, "handed the run off"),
                };
                End::by_script(
                    status,
                    format!(
                        "phase `{id}` failed, which {what} (error_policy.phase_failure: {})",
                        a.as_str()
                    ),
                )
            }
        }
    }

    /// Record a failure step.
    fn failure(&mut self, i: usize, failure: Failure, action: &str, rule: &str) -> &mut Self {
        self.steps.push(Step::Failure {
            phase: self.spec.graph.phases[i].id.clone(),
            failure,
            action: action.to_owned(),
            rule: rule.to_owned(),
            retry: None,
        });
        self
    }

    /// Mark the last failure step as retry `n` of `max`.
    fn retry(&mut self, n: u64, max: u64) {
        if let Some(Step::Failure { retry, .. }) = self.steps.last_mut() {
            *retry = Some((n, max));
        }
    }

    /// Pass checkpoint `i`: take its next decision, or wait for one.
    fn gate(&mut self, i: usize, node: NodeIndex) -> Next {
        let id = super::checkpoint_id(self.spec, i);
        let Some(d) = self
            .decisions
            .get_mut(id.as_str())
            .and_then(VecDeque::pop_front)
        else {
            return Next::Stop(End {
                status: Status::ApprovalRequired,
                reason: format!(
                    "checkpoint `{id}` needs a decision, and a headless run never approves or rejects by itself: pass `--approve {id}` or `--reject {id}`"
                ),
                by_runtime: true,
                checkpoint: Some(id),
            });
        };
        let want = match d {
            Decision::Approve => Edge::Approve,
            Decision::Reject => Edge::Reject,
        };
        // Every gate has both edges (the graph is built so); a missing one ends nothing.
        match self.info.graph.edges(node).find(|e| *e.weight() == want) {
            Some(e) => Next::Take(e.id()),
            None => End::by_script(
                Status::Failed,
                format!("internal: checkpoint `{id}` has no `{}` edge", d.as_str()),
            ),
        }
    }

    /// A terminal was reached by a transition or a rejection.
    fn reached(self, t: crate::ir::Terminal) -> Result<Run, ScriptError> {
        let status = Status::of_terminal(t);
        let reason = match &self.escalation {
            Some(e) => escalation_reason(e, t.as_str()),
            None => format!("reached `{}`", t.as_str()),
        };
        self.end(End {
            status,
            reason,
            by_runtime: false,
            checkpoint: None,
        })
        .map(|mut r| {
            r.terminal = Some(t.as_str().to_owned());
            r
        })
    }

    /// End the run. When the script's own choices ended it, anything left over in the
    /// script is a mistake; when the runtime stopped it, what was not used is reported.
    fn end(self, end: End) -> Result<Run, ScriptError> {
        let unused = self.unused();
        if !end.by_runtime && !unused.is_empty() {
            let decisions = self.decisions.values().any(|q| !q.is_empty());
            let what = match (self.outcomes.is_empty(), decisions) {
                (false, true) => "outcomes and checkpoint decisions",
                (false, false) => "outcomes",
                (true, _) => "checkpoint decisions",
            };
            return Err(self.fail(format!(
                "the run is over (`{}`: {}), but the script has {what} left over: {}",
                end.status.as_str(),
                end.reason,
                crate::text::list(&unused, "and")
            )));
        }
        Ok(Run {
            status: end.status,
            terminal: None,
            reason: end.reason,
            phase_steps: usize::try_from(self.phase_steps).unwrap_or(usize::MAX),
            max_steps: self.rt.effective_max_steps(self.info),
            loop_max_steps: self.info.max_steps,
            runtime_max_steps: self.rt.max_steps,
            checkpoint: end.checkpoint,
            escalation: self.escalation,
            unused,
            steps: self.steps,
        })
    }

    /// The script not used: outcomes (quoted), then `approve ID` / `reject ID` in order.
    fn unused(&self) -> Vec<String> {
        let mut left: Vec<String> = self.outcomes.iter().map(|o| format!("`{o}`")).collect();
        for (id, q) in &self.decisions {
            left.extend(q.iter().map(|d| format!("`{} {id}`", d.as_str())));
        }
        left
    }
}

/// Why an escalated run ended where it did.
fn escalation_reason(e: &Escalated, terminal: &str) -> String {
    let what = match (e.policy, &e.fallback_agent) {
        (Escalation::Human, _) => "a person takes over".to_owned(),
        (Escalation::Abort, _) => "the workflow fails".to_owned(),
        (Escalation::Continue, _) => "the workflow proceeds despite unresolved issues".to_owned(),
        (Escalation::Fallback, Some(a)) => format!("the fallback agent `{a}` takes over"),
        (Escalation::Fallback, None) => "the fallback agent takes over".to_owned(),
    };
    format!(
        "`max_attempts` ({}) used up: escalation `{}`, {what} (`{terminal}`)",
        e.after_attempts,
        e.policy.as_str()
    )
}
