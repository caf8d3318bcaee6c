//! The loop's graph as LangGraph nodes and edges: which nodes there are, what each path map
//! holds and which edges end the run, computed once for the writer.

use std::collections::{BTreeMap, BTreeSet};

use super::python::{self, string};
use crate::analysis::Status;
use crate::ir::{Destination, Spec, Terminal};

/// A path map: `(key, target expression)`s, in authored order.
pub(super) type PathMap<'a> = Vec<(&'a str, String)>;

/// The graph as LangGraph nodes: phases (first declaration of each id) with their function
/// names, gates chained per phase in authored order, and each phase's path map.
pub(super) struct Plan<'a> {
    /// Phase index, node name, function name.
    pub(super) phases: Vec<(usize, &'a str, String)>,
    /// Gate node name, checkpoint index; in authored order.
    pub(super) gates: Vec<(String, usize)>,
    /// The gate nodes guarding each phase id, in authored order.
    pub(super) chains: BTreeMap<&'a str, Vec<String>>,
    /// `(node, key, status, terminal)` for the edges that end the run at a terminal.
    pub(super) ends: Vec<(String, &'a str, Status, Terminal)>,
    /// Conditional edges: source node, routing function, path map.
    pub(super) edges: Vec<(String, &'static str, PathMap<'a>)>,
    /// The terminal nodes some edge reaches (`$end`, `$abort`, `$handoff`, in that order),
    /// each with the status it gives.
    pub(super) terminals: Vec<(&'static str, Status)>,
    /// The target expression of `START`.
    pub(super) start: String,
}

impl<'a> Plan<'a> {
    pub(super) fn of(spec: &'a Spec) -> Plan<'a> {
        let g = &spec.graph;
        let mut seen = BTreeSet::new();
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
            terminals: Vec::new(),
            start: String::new(),
        };
        plan.add_gates(spec, &seen);
        plan.add_edges(spec);
        plan.start = plan.land(&Destination::Phase(g.entry.clone()));
        let mut reached: Vec<Terminal> = plan.ends.iter().map(|e| e.3).collect();
        reached.sort_by_key(|t| Terminal::ALL.iter().position(|a| a == t));
        reached.dedup();
        plan.terminals = reached
            .into_iter()
            .map(|t| (t.as_str(), Status::of_terminal(t)))
            .collect();
        plan
    }

    /// A gate per checkpoint that guards a declared phase.
    fn add_gates(&mut self, spec: &'a Spec, declared: &BTreeSet<&str>) {
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
            self.ends.push((node, key, Status::of_terminal(*t), *t));
        }
    }

    /// Where a run lands going to `to`: `END`, the phase's first gate, or the phase.
    fn land(&self, to: &Destination) -> String {
        match to {
            Destination::Terminal(t) => string(t.as_str()),
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
