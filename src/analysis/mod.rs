//! Authoring and review tools built on the IR and [`crate::valid::Info`]: test paths
//! ([`paths`]), scripted walks ([`walk`]), the per-loop outcome schema ([`outcome_schema`])
//! and the semantic diff of two loops ([`diff`]).
//!
//! Everything here reads a loop that validated without errors: `Info`'s graph (phases,
//! approval gates, terminals) is the one the drawings and the graph rules use, so a path,
//! a walk and a diagram always agree on what a step is.

pub mod diff;
pub mod outcome_schema;
pub mod paths;
pub mod walk;

use petgraph::graph::{EdgeIndex, NodeIndex};
use serde::Serialize;

use crate::ir::{Spec, Terminal};
use crate::valid::Info;
use crate::valid::graph::{Edge, Vertex};

/// An approval decision at a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Enter the guarded phase.
    Approve,
    /// Go to the checkpoint's `on_reject`.
    Reject,
}

impl Decision {
    /// `approve` or `reject`.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Approve => "approve",
            Decision::Reject => "reject",
        }
    }
}

/// How a run ends: the AgentPM harness's run statuses (formats.md 1.6). A terminal gives
/// `ended`, `aborted` or `handed_off`; the runtime gives the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// `$end`: success.
    Ended,
    /// `$abort`, or an error policy's `abort`.
    Aborted,
    /// `$handoff`, or an error policy's `handoff`.
    HandedOff,
    /// The effective `max_steps` ran out before the next phase.
    LimitReached,
    /// A checkpoint has no decision (a headless run never decides one itself).
    ApprovalRequired,
    /// A phase failed and no `phase_failure` policy says what then (the harness default).
    Failed,
}

impl Status {
    /// Every status, in documentation order.
    pub const ALL: [Status; 6] = [
        Status::Ended,
        Status::Aborted,
        Status::HandedOff,
        Status::LimitReached,
        Status::ApprovalRequired,
        Status::Failed,
    ];

    /// The harness's name: `ended`, `aborted`, `handed_off`, `limit_reached`,
    /// `approval_required`, `failed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ended => "ended",
            Status::Aborted => "aborted",
            Status::HandedOff => "handed_off",
            Status::LimitReached => "limit_reached",
            Status::ApprovalRequired => "approval_required",
            Status::Failed => "failed",
        }
    }

    /// The status a terminal gives.
    pub fn of_terminal(t: Terminal) -> Status {
        match t {
            Terminal::End => Status::Ended,
            Terminal::Abort => Status::Aborted,
            Terminal::Handoff => Status::HandedOff,
        }
    }
}

/// The runtime's step ceiling when none is given (the harness's `runtime.limits.max_steps`
/// default).
pub const RUNTIME_MAX_STEPS: u64 = 100;

/// The runtime's own limits, which tighten the loop's (never loosen them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Runtime {
    /// The runtime's step ceiling (`runtime.limits.max_steps`).
    pub max_steps: u64,
}

impl Default for Runtime {
    fn default() -> Self {
        Runtime {
            max_steps: RUNTIME_MAX_STEPS,
        }
    }
}

impl Runtime {
    /// No ceiling of the runtime's own (tests and analyses that only want the loop's).
    pub const UNBOUNDED: Runtime = Runtime {
        max_steps: u64::MAX,
    };

    /// The effective step limit: the stricter of the loop's `max_steps` (for REAL/VEAL the
    /// bound from `max_attempts`) and the runtime's ceiling.
    pub fn effective_max_steps(self, info: &Info) -> u64 {
        info.max_steps
            .map_or(self.max_steps, |m| m.min(self.max_steps))
    }
}

/// The script token for a failing tool call in the current phase. Outcome ids never start
/// with `@` (stable ids start with a letter), so the token cannot be mistaken for one.
pub const TOOL_FAILURE: &str = "@tool-failure";

/// The script token for a failure of the current phase itself.
pub const PHASE_FAILURE: &str = "@phase-failure";

/// What failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// A tool call of the phase (`@tool-failure`).
    ToolFailure,
    /// The phase (`@phase-failure`, or a tool failure that fails the phase).
    PhaseFailure,
}

impl Failure {
    /// `tool failure` or `phase failure`.
    pub fn text(self) -> &'static str {
        match self {
            Failure::ToolFailure => "tool failure",
            Failure::PhaseFailure => "phase failure",
        }
    }
}

/// One step of a run: a phase emitting an outcome, or a decision at a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Step {
    /// A phase ran and emitted an outcome.
    Phase {
        /// Phase id.
        phase: String,
        /// Outcome id.
        outcome: String,
        /// Where the transition goes (phase id or terminal).
        to: String,
    },
    /// A checkpoint was approved or rejected.
    Checkpoint {
        /// Checkpoint id.
        checkpoint: String,
        /// The decision.
        decision: Decision,
        /// Where the decision goes (phase id or terminal).
        to: String,
    },
    /// A failure in a phase and what the error policy (or the harness default) does.
    Failure {
        /// Phase id.
        phase: String,
        /// What failed.
        failure: Failure,
        /// What happens: `retry`, `fail_phase`, `abort`, `handoff` or `fail_run`.
        action: String,
        /// Where the action comes from: an `error_policy` field, or `harness default`.
        rule: String,
        /// For a retried tool call: this retry's number and `max_retries`.
        #[serde(skip_serializing_if = "Option::is_none")]
        retry: Option<(u64, u64)>,
    },
}

/// The text form of a node: phase id, checkpoint id or terminal.
pub(crate) fn node_name(spec: &Spec, info: &Info, n: NodeIndex) -> String {
    match &info.graph[n] {
        Vertex::Phase(i) => spec.graph.phases[*i].id.clone(),
        Vertex::Gate(i) => checkpoint_id(spec, *i),
        Vertex::Terminal(t) => t.as_str().to_owned(),
    }
}

fn checkpoint_id(spec: &Spec, i: usize) -> String {
    spec.graph
        .checkpoints
        .as_ref()
        .and_then(|c| c.get(i))
        .map(|c| c.id.clone())
        .unwrap_or_default()
}

/// Where a run goes after taking edge `e` (the destination as text): the guarded phase for
/// a gate, so traces read as phases and terminals.
fn destination(spec: &Spec, info: &Info, e: EdgeIndex) -> String {
    let Some((_, to)) = info.graph.edge_endpoints(e) else {
        return String::new();
    };
    match &info.graph[to] {
        Vertex::Gate(i) => spec
            .graph
            .checkpoints
            .as_ref()
            .and_then(|c| c.get(*i))
            .map(|c| c.before_phase.clone())
            .unwrap_or_default(),
        _ => node_name(spec, info, to),
    }
}

/// The step that taking edge `e` out of its source node means.
pub(crate) fn step_of(spec: &Spec, info: &Info, e: EdgeIndex) -> Option<Step> {
    let (from, _) = info.graph.edge_endpoints(e)?;
    let to = destination(spec, info, e);
    match (&info.graph[from], &info.graph[e]) {
        (Vertex::Phase(i), Edge::Transition(t)) => Some(Step::Phase {
            phase: spec.graph.phases[*i].id.clone(),
            outcome: spec.graph.transitions[*t].on.clone(),
            to,
        }),
        (Vertex::Gate(i), Edge::Approve | Edge::Reject) => Some(Step::Checkpoint {
            checkpoint: checkpoint_id(spec, *i),
            decision: if info.graph[e] == Edge::Approve {
                Decision::Approve
            } else {
                Decision::Reject
            },
            to,
        }),
        _ => None,
    }
}
