//! IR -> a LangGraph program: one Python module whose `build_graph()` compiles the loop's
//! graph with LangGraph's `StateGraph`.
//!
//! * a node per phase (first declaration of each id), named by its id, running a stub
//!   function (`phase_<id>`) whose docstring is the objective and which by default returns
//!   the next outcome of the scripted list `state["script"]`; the state's `trace` keeps
//!   the phases run, so a run can be compared with `loopconv walk`;
//! * a gate node per approval checkpoint (`gate.<id>`: a phase id cannot hold a dot),
//!   which calls `interrupt()` and is resumed with `Command(resume="approve"|"reject")`;
//!   the gates of one phase are chained in authored order and every edge into the phase,
//!   the entry included, goes through them ([`crate::valid::graph`]'s gate vertices);
//! * conditional edges with an explicit `{outcome: node}` path map for every phase and
//!   gate (LangGraph draws them wrongly without one), the terminals as `END` with the run
//!   status in the state (`ENDS`);
//! * the effective `max_steps` as `MAX_STEPS` (enforced per phase execution) and a
//!   recursion limit that a run of that many phases fits; `error_policy` as a
//!   `RetryPolicy` where it maps, a comment where it does not;
//! * the whole loop as data (`LOOP`, the IR), so nothing a LangGraph program has no place
//!   for is lost (MAS roles, goal, checks, ports; access intent) and no `B001` is needed.
//!
//! User text only ever appears inside Python string literals written by [`python`], which
//! escape everything outside printable ASCII: nothing can add a statement. A LangGraph
//! program is not a loop format and is not read back.

mod python;

use std::fmt::Write as _;

use super::{Error, Options};
use crate::analysis::{Runtime, Status};
use crate::diag::Diagnostics;
use crate::ir::{Destination, FixedLoop, Spec, ToolAction};
use crate::valid::Info;

use python::{docstring, string};

/// The module's fixed helpers: the state, the exceptions, the node factories.
const HELPERS: &str = include_str!("helpers.py");
/// The module's fixed run helpers: `config` and `run`.
const RUN: &str = include_str!("run.py");

/// Write the module.
pub fn write(
    spec: &Spec,
    info: &Info,
    _opts: &Options,
    _diags: &mut Diagnostics,
) -> Result<String, Error> {
    let plan = Plan::of(spec);
    let mut out = String::new();
    header(spec, &mut out);
    data(spec, &mut out)?;
    limits(info, &plan, &mut out);
    attempts(spec, &mut out);
    out.push_str(HELPERS);
    retry(spec, &mut out);
    stubs(spec, &plan, &mut out);
    tables(spec, &plan, &mut out);
    build(&plan, &mut out);
    out.push_str(RUN);
    Ok(out)
}

/// A path map: `(key, target expression)`s, in authored order.
type PathMap<'a> = Vec<(&'a str, String)>;

/// The graph as LangGraph nodes: phases (first declaration of each id) with their function
/// names, gates chained per phase in authored order, and each phase's path map.
struct Plan<'a> {
    /// Phase index, node name, function name.
    phases: Vec<(usize, &'a str, String)>,
    /// Gate node name, checkpoint index; in authored order.
    gates: Vec<(String, usize)>,
    /// The gate nodes guarding each phase id, in authored order.
    chains: std::collections::BTreeMap<&'a str, Vec<String>>,
    /// `(node, key) -> status` for the edges that end the run at a terminal.
    ends: Vec<(String, &'a str, Status)>,
    /// Conditional edges: source node, routing function, path map.
    edges: Vec<(String, &'static str, PathMap<'a>)>,
    /// The target expression of `START`.
    start: String,
}

impl<'a> Plan<'a> {
    fn of(spec: &'a Spec) -> Plan<'a> {
        let g = &spec.graph;
        let mut seen = std::collections::BTreeSet::new();
        let first: Vec<usize> = (0..g.phases.len())
            .filter(|&i| seen.insert(g.phases[i].id.as_str()))
            .collect();
        let names = python::identifiers("phase_", first.iter().map(|&i| g.phases[i].id.as_str()));
        let phases: Vec<_> = first
            .iter()
            .zip(names)
            .map(|(&i, name)| (i, g.phases[i].id.as_str(), name))
            .collect();
        let mut plan = Plan {
            phases,
            gates: Vec::new(),
            chains: Default::default(),
            ends: Vec::new(),
            edges: Vec::new(),
            start: String::new(),
        };
        plan.add_gates(spec, &seen);
        plan.add_edges(spec);
        plan.start = plan.land(&Destination::Phase(g.entry.clone()));
        plan
    }

    /// A gate per checkpoint that guards a declared phase.
    fn add_gates(&mut self, spec: &'a Spec, declared: &std::collections::BTreeSet<&str>) {
        for (i, c) in spec.graph.checkpoints.iter().flatten().enumerate() {
            if declared.contains(c.before_phase.as_str()) {
                let node = format!("gate.{}", c.id);
                self.chains
                    .entry(c.before_phase.as_str())
                    .or_default()
                    .push(node.clone());
                self.gates.push((node, i));
            }
        }
    }

    /// Each phase's path map (its transitions in authored order), then each gate's.
    fn add_edges(&mut self, spec: &'a Spec) {
        let outgoing = spec.graph.outgoing();
        for k in 0..self.phases.len() {
            let (i, id, _) = self.phases[k];
            let phase = &spec.graph.phases[i];
            let mut map = Vec::new();
            for t in outgoing.from(id) {
                if phase.has_outcome(&t.on) && !map.iter().any(|(on, _)| *on == t.on) {
                    map.push((t.on.as_str(), self.land(&t.to)));
                    self.end_at(id.to_owned(), t.on.as_str(), &t.to);
                }
            }
            self.edges.push((id.to_owned(), "_outcome", map));
        }
        let checkpoints = spec.graph.checkpoints.as_deref().unwrap_or_default();
        for k in 0..self.gates.len() {
            let (node, i) = self.gates[k].clone();
            let c = &checkpoints[i];
            let approve = self.after_gate(&c.before_phase, &node);
            let reject = self.land(&c.on_reject);
            self.end_at(node.clone(), "reject", &c.on_reject);
            let map = vec![("approve", approve), ("reject", reject)];
            self.edges.push((node, "_decision", map));
        }
    }

    /// Record that `key` out of `node` ends the run, when `to` is a terminal.
    fn end_at(&mut self, node: String, key: &'a str, to: &Destination) {
        if let Destination::Terminal(t) = to {
            self.ends.push((node, key, Status::of_terminal(*t)));
        }
    }

    /// Where a run lands going to `to`: `END`, the phase's first gate, or the phase.
    fn land(&self, to: &Destination) -> String {
        match to {
            Destination::Terminal(_) => "END".to_owned(),
            Destination::Phase(p) => match self.chains.get(p.as_str()).and_then(|c| c.first()) {
                Some(gate) => string(gate),
                None => string(p),
            },
        }
    }

    /// Where approving gate `node` goes: the next gate of the phase's chain, or the phase.
    fn after_gate(&self, phase: &str, node: &str) -> String {
        let chain = self
            .chains
            .get(phase)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let next = chain
            .iter()
            .position(|g| g == node)
            .and_then(|k| chain.get(k + 1));
        string(next.map_or(phase, String::as_str))
    }
}

/// The module docstring and the imports.
fn header(spec: &Spec, out: &mut String) {
    let doc = format!(
        "LangGraph program of the loop `{}`, generated by loopconv from a {}.\n\n\
         Fill the phase functions (`phase_*`): each returns one of its phase's outcomes\n\
         (`OUTCOMES`); by default each returns the next outcome of `state['script']`, so the\n\
         graph runs as generated. `build_graph()` compiles the graph with a checkpointer\n\
         (`MemorySaver` unless one is given), which `interrupt()` needs: an approval\n\
         checkpoint pauses the run, and `Command(resume='approve')` or\n\
         `Command(resume='reject')` resumes it. `run(script, decisions)` does both.\n",
        spec.name,
        spec.source_format.title(),
    );
    out.push_str(&docstring(&doc));
    out.push_str(
        "\n\nfrom __future__ import annotations\n\n\
         from typing import Any, Callable, TypedDict\n\n\
         from langgraph.checkpoint.base import BaseCheckpointSaver\n\
         from langgraph.checkpoint.memory import MemorySaver\n\
         from langgraph.graph import END, START, StateGraph\n\
         from langgraph.graph.state import CompiledStateGraph\n\
         from langgraph.types import Command, RetryPolicy, interrupt\n",
    );
}

/// `LOOP`: the loop as loopconv's IR.
fn data(spec: &Spec, out: &mut String) -> Result<(), Error> {
    let v = serde_json::to_value(spec).map_err(Error::Json)?;
    out.push_str(
        "\n# The loop as loopconv's IR (`loopconv convert --to ir`): every field, also those the\n\
         # graph below has no place for (MAS roles, goal and checks, access intent).\n\
         LOOP: dict[str, Any] = ",
    );
    python::value(&v, 0, out);
    out.push('\n');
    Ok(())
}

/// `MAX_STEPS`, `GATES` and `RECURSION_LIMIT`.
fn limits(info: &Info, plan: &Plan, out: &mut String) {
    let max = Runtime::default().effective_max_steps(info);
    let own = match info.max_steps {
        Some(_) => "the loop's `max_steps`, or the runtime's ceiling of loopconv walk if stricter",
        None => "the loop sets none: the runtime ceiling of loopconv walk",
    };
    let _ = write!(
        out,
        "\n# Most phase executions in one run ({own}); a phase node raises\n\
         # StepLimitReached instead of running once the trace holds this many.\n\
         MAX_STEPS = {max}\n\
         # Approval gate nodes in the graph.\n\
         GATES = {}\n\
         # LangGraph counts supersteps per invoke, not phases: every node run is one (a phase,\n\
         # and a gate too, which costs loopconv no step), routing by conditional edges costs\n\
         # none, and LangGraph needs one more than the nodes run. A run of MAX_STEPS phases\n\
         # passing at most GATES gates before each phase and at the end fits:\n\
         RECURSION_LIMIT = MAX_STEPS * (1 + GATES) + GATES + 1\n",
        plan.gates.len()
    );
}

/// `RETRY`: `error_policy.tool_failure` as a `RetryPolicy` where it maps, comments where it
/// does not.
fn retry(spec: &Spec, out: &mut String) {
    let policy = spec.bounds.error_policy.as_ref();
    let tool = policy.and_then(|p| p.tool_failure.as_ref());
    out.push_str("\n\n");
    match tool {
        Some(t) if t.action == ToolAction::Retry => {
            let retries = t.max_retries.unwrap_or(0);
            let exhausted = t.on_exhausted.map_or("fail_phase", |e| e.as_str());
            let _ = write!(
                out,
                "# error_policy.tool_failure: retry, max_retries {retries}: a phase raising\n\
                 # ToolFailure runs again, {retries} more time(s). on_exhausted `{exhausted}` has no\n\
                 # RetryPolicy field: the last ToolFailure ends the invoke with the exception.\n\
                 RETRY: RetryPolicy | None = RetryPolicy(max_attempts={}, retry_on=ToolFailure)\n",
                retries.saturating_add(1)
            );
        }
        Some(t) => {
            let _ = write!(
                out,
                "# error_policy.tool_failure: `{}` is no retry and has no LangGraph policy: a\n\
                 # ToolFailure ends the invoke with the exception; handle it around invoke.\n\
                 RETRY: RetryPolicy | None = None\n",
                t.action.as_str()
            );
        }
        None => out.push_str(
            "# No error_policy.tool_failure (the harness fails the phase): no retry, a ToolFailure\n\
             # ends the invoke with the exception.\n\
             RETRY: RetryPolicy | None = None\n",
        ),
    }
    if let Some(p) = policy.and_then(|p| p.phase_failure.as_ref()) {
        let _ = writeln!(
            out,
            "# error_policy.phase_failure: `{}` has no LangGraph policy: a phase that raises ends\n\
             # the invoke with the exception; handle it around invoke.",
            p.action.as_str()
        );
    }
}

/// `ATTEMPTS`: for REAL/VEAL, the evaluation phase and its escalation rule.
fn attempts(spec: &Spec, out: &mut String) {
    let Some(f) = FixedLoop::of(spec.pattern) else {
        out.push_str(
            "\n# A general graph: no attempt counting.\nATTEMPTS: dict[str, Any] | None = None\n",
        );
        return;
    };
    let _ = write!(
        out,
        "\n# multi-agent-spec: the failing verdict of the last of `max_attempts` evaluations\n\
         # becomes {}.\n\
         ATTEMPTS: dict[str, Any] | None = {{\"phase\": {}, \"retry\": {}, \"escalate\": {}, \"max_attempts\": {}}}\n",
        string(f.escalate),
        string(f.eval),
        string(f.retry.0),
        string(f.escalate),
        spec.effective_max_attempts()
    );
}

/// One function per phase: the objective as docstring, the scripted default as body.
fn stubs(spec: &Spec, plan: &Plan, out: &mut String) {
    out.push_str("\n\n# The phases: fill each function; it returns one of OUTCOMES[<phase id>].\n");
    for (i, id, name) in &plan.phases {
        let phase = &spec.graph.phases[*i];
        let _ = write!(
            out,
            "\n\ndef {name}(state: State) -> str:\n    {}\n    return scripted(state)  # one of OUTCOMES[{}]\n",
            docstring(&phase.objective),
            string(id),
        );
    }
}

/// `OUTCOMES` (each phase's outcomes and what they mean) and `ENDS` (the run status of
/// each edge into a terminal).
fn tables(spec: &Spec, plan: &Plan, out: &mut String) {
    out.push_str("\n\n# Each phase's outcomes and what they mean.\nOUTCOMES: dict[str, dict[str, str]] = {\n");
    for (i, id, _) in &plan.phases {
        let phase = &spec.graph.phases[*i];
        let _ = writeln!(out, "    {}: {{", string(id));
        match &phase.outcomes {
            Some(os) => {
                for o in os {
                    let _ = writeln!(
                        out,
                        "        {}: {},",
                        string(&o.id),
                        string(&o.description)
                    );
                }
            }
            None => {
                let _ = writeln!(
                    out,
                    "        {}: \"(implicit)\",",
                    string(crate::ir::IMPLICIT_OUTCOME)
                );
            }
        }
        out.push_str("    },\n");
    }
    out.push_str("}\n\n# The edges into a terminal (END) and the run status each gives.\nENDS: dict[tuple[str, str], str] = {\n");
    for (node, key, status) in &plan.ends {
        let _ = writeln!(
            out,
            "    ({}, {}): {},",
            string(node),
            string(key),
            string(status.as_str())
        );
    }
    out.push_str("}\n");
}

/// `build_graph()`: the nodes, the entry edge and every path map.
fn build(plan: &Plan, out: &mut String) {
    out.push_str(
        "\n\ndef build_graph(checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:\n    \
         \"\"\"The compiled graph; without a checkpointer, a MemorySaver (interrupt() needs one).\"\"\"\n    \
         graph = StateGraph(State)\n",
    );
    for (_, id, name) in &plan.phases {
        let _ = writeln!(
            out,
            "    graph.add_node({}, _phase({}, {name}), retry_policy=RETRY)",
            string(id),
            string(id)
        );
    }
    for (node, _) in &plan.gates {
        let _ = writeln!(
            out,
            "    graph.add_node({}, {})",
            string(node),
            gate_call(plan, node)
        );
    }
    let _ = writeln!(out, "    graph.add_edge(START, {})", plan.start);
    for (from, route, map) in &plan.edges {
        let _ = writeln!(
            out,
            "    graph.add_conditional_edges({}, {route}, {{",
            string(from)
        );
        for (key, to) in map {
            let _ = writeln!(out, "        {}: {to},", string(key));
        }
        out.push_str("    })\n");
    }
    out.push_str("    return graph.compile(checkpointer=checkpointer or MemorySaver())\n");
}

/// `_gate(node, checkpoint, phase)` for a gate node.
fn gate_call(plan: &Plan, node: &str) -> String {
    let phase = plan
        .chains
        .iter()
        .find(|(_, c)| c.iter().any(|g| g == node))
        .map_or("", |(p, _)| p);
    let checkpoint = node.strip_prefix("gate.").unwrap_or(node);
    format!(
        "_gate({}, {}, {})",
        string(node),
        string(checkpoint),
        string(phase)
    )
}
