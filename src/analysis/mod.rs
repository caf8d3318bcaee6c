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

use crate::ir::Spec;
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
