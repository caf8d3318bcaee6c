//! Scripted walks: step through a loop with given outcomes and checkpoint decisions,
//! enforcing outcomes, checkpoints, terminals and `max_steps` (for a REAL/VEAL loop the
//! bound derived from `max_attempts`).

use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::fmt;

use petgraph::visit::EdgeRef as _;
use serde::Serialize;

use super::{Decision, Step, step_of};
use crate::ir::{Pattern, Spec};
use crate::valid::Info;
use crate::valid::graph::{Edge, Vertex};

/// The script of a walk.
#[derive(Debug, Clone, Default)]
pub struct Script {
    /// Outcomes, one per phase execution, in order.
    pub outcomes: Vec<String>,
    /// Checkpoint decisions in order; each checkpoint takes its own decisions in the order
    /// given.
    pub decisions: Vec<(String, Decision)>,
}

/// The trace of a walk that ended in a terminal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Trace {
    /// The steps taken.
    pub steps: Vec<Step>,
    /// The terminal reached.
    pub terminal: String,
    /// Phase executions.
    pub phase_steps: usize,
    /// The bound, when the loop has one.
    pub max_steps: Option<u64>,
}

/// Why a walk stopped before a terminal, with the steps taken until then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WalkError {
    /// What went wrong.
    pub message: String,
    /// The steps taken before it.
    pub steps: Vec<Step>,
}

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WalkError {}

/// Walk a valid loop with a script.
pub fn walk(spec: &Spec, info: &Info, script: &Script) -> Result<Trace, WalkError> {
    let mut w = Walker {
        spec,
        info,
        outcomes: script.outcomes.iter().collect(),
        decisions: BTreeMap::new(),
        steps: Vec::new(),
        phase_steps: 0,
    };
    for (id, d) in &script.decisions {
        w.decisions.entry(id.as_str()).or_default().push_back(*d);
    }
    let Some(mut node) = info.start else {
        return Err(w.fail("the loop has no entry phase".to_owned()));
    };
    loop {
        let e = match &info.graph[node] {
            Vertex::Terminal(t) => return w.finish(t.as_str()),
            Vertex::Phase(i) => w.phase(*i, node)?,
            Vertex::Gate(i) => w.gate(*i, node)?,
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

struct Walker<'a> {
    spec: &'a Spec,
    info: &'a Info,
    outcomes: VecDeque<&'a String>,
    decisions: BTreeMap<&'a str, VecDeque<Decision>>,
    steps: Vec<Step>,
    phase_steps: u64,
}

impl Walker<'_> {
    fn fail(&self, message: String) -> WalkError {
        WalkError {
            message,
            steps: self.steps.clone(),
        }
    }

    fn bound(&self) -> String {
        let max = self.info.max_steps.unwrap_or(0);
        match self.spec.pattern {
            Pattern::General => format!("`max_steps` is {max}"),
            _ => format!(
                "`max_attempts` is {} ({max} phase executions)",
                self.spec.effective_max_attempts()
            ),
        }
    }

    /// Run phase `i`: take the next outcome and return the transition it selects.
    fn phase(
        &mut self,
        i: usize,
        node: petgraph::graph::NodeIndex,
    ) -> Result<petgraph::graph::EdgeIndex, WalkError> {
        let phase = &self.spec.graph.phases[i];
        let valid = phase.outcome_ids().join(", ");
        if let Some(max) = self.info.max_steps
            && self.phase_steps >= max
        {
            return Err(self.fail(format!(
                "step limit reached before phase `{}` could run: {}",
                phase.id,
                self.bound()
            )));
        }
        let Some(outcome) = self.outcomes.pop_front() else {
            return Err(self.fail(format!(
                "no outcome left for phase `{}` (valid outcomes: {valid})",
                phase.id
            )));
        };
        self.phase_steps += 1;
        let edge = self.info.graph.edges(node).find(|e| match e.weight() {
            Edge::Transition(t) => self.spec.graph.transitions[*t].on == *outcome,
            _ => false,
        });
        match edge {
            Some(e) => Ok(e.id()),
            None => Err(self.fail(format!(
                "`{outcome}` is not an outcome of phase `{}` (valid outcomes: {valid})",
                phase.id
            ))),
        }
    }

    /// Pass checkpoint `i`: take its next decision.
    fn gate(
        &mut self,
        i: usize,
        node: petgraph::graph::NodeIndex,
    ) -> Result<petgraph::graph::EdgeIndex, WalkError> {
        let id = super::checkpoint_id(self.spec, i);
        let Some(d) = self
            .decisions
            .get_mut(id.as_str())
            .and_then(VecDeque::pop_front)
        else {
            return Err(self.fail(format!(
                "checkpoint `{id}` needs a decision: pass `--approve {id}` or `--reject {id}`"
            )));
        };
        let want = match d {
            Decision::Approve => Edge::Approve,
            Decision::Reject => Edge::Reject,
        };
        match self.info.graph.edges(node).find(|e| *e.weight() == want) {
            Some(e) => Ok(e.id()),
            None => Err(self.fail(format!("checkpoint `{id}` has no `{}` edge", d.as_str()))),
        }
    }

    fn finish(self, terminal: &str) -> Result<Trace, WalkError> {
        if !self.outcomes.is_empty() {
            let left: Vec<&str> = self.outcomes.iter().map(|s| s.as_str()).collect();
            return Err(self.fail(format!(
                "the run reached `{terminal}` with outcomes left over: {}",
                left.join(", ")
            )));
        }
        let unused: Vec<String> = self
            .decisions
            .iter()
            .filter(|(_, q)| !q.is_empty())
            .map(|(id, q)| format!("{id} ({})", q.len()))
            .collect();
        if !unused.is_empty() {
            return Err(self.fail(format!(
                "the run reached `{terminal}` with checkpoint decisions left over: {}",
                unused.join(", ")
            )));
        }
        Ok(Trace {
            steps: self.steps,
            terminal: terminal.to_owned(),
            phase_steps: usize::try_from(self.phase_steps).unwrap_or(usize::MAX),
            max_steps: self.info.max_steps,
        })
    }
}
