//! Pass 2: the phase graph (petgraph), and the analysis back ends reuse.
//!
//! Nodes are phases (first declaration of each id), approval gates (one per checkpoint, in
//! authored order on the way into their phase) and the three terminals. Edges are
//! transitions, gate approvals and gate rejections, so `on_reject` edges count for
//! reachability (upstream ignores them). A step is one phase execution; passing a gate
//! costs none.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use serde::Serialize;

use super::Sink as _;
use crate::diag::Diagnostics;
use crate::diag::{Code, Diagnostic};
use crate::ir::{Destination, Field, Spec, Terminal};

/// A node of the analysed graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A phase, by index into `spec.graph.phases`.
    Phase(usize),
    /// An approval gate, by index into `spec.graph.checkpoints`.
    Gate(usize),
    /// A terminal.
    Terminal(Terminal),
}

/// An edge of the analysed graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edge {
    /// A transition, by index into `spec.graph.transitions`.
    Transition(usize),
    /// Approval of a gate.
    Approve,
    /// Rejection at a gate.
    Reject,
}

/// The analysis of a loop's graph, computed once by [`crate::valid::validate`].
#[derive(Debug, Clone, Default, Serialize)]
pub struct Info {
    /// The graph (not serialised).
    #[serde(skip)]
    pub graph: DiGraph<Node, Edge>,
    /// Node of each phase id (first declaration).
    #[serde(skip)]
    pub phase_nodes: BTreeMap<String, NodeIndex>,
    /// Where a run starts (the entry phase's first gate, or the phase).
    #[serde(skip)]
    pub start: Option<NodeIndex>,
    /// Phase ids reachable from the entry, in declaration order.
    pub reachable_phases: Vec<String>,
    /// Phase ids not reachable from the entry, in declaration order.
    pub unreachable_phases: Vec<String>,
    /// Terminals that some transition or checkpoint targets, in `$end`, `$abort`,
    /// `$handoff` order.
    pub terminals_used: Vec<Terminal>,
    /// Terminals reachable from the entry.
    pub reachable_terminals: Vec<Terminal>,
    /// Reachable phases from which no terminal can be reached.
    pub trap_phases: Vec<String>,
    /// The shortest run from the entry to `$end`, as the phases executed.
    pub shortest_success: Option<Vec<String>>,
    /// `max_steps`, when set.
    pub max_steps: Option<u64>,
}

impl Info {
    /// Steps of the shortest successful run.
    pub fn shortest_success_steps(&self) -> Option<usize> {
        self.shortest_success.as_ref().map(Vec::len)
    }

    /// Whether the shortest successful run fits in `max_steps`: true when unbounded, false
    /// when `$end` cannot be reached (rule `V024` reports the other failing case).
    pub fn success_fits_budget(&self) -> bool {
        match (self.shortest_success_steps(), self.max_steps) {
            (Some(s), Some(m)) => u64::try_from(s).is_ok_and(|s| s <= m),
            (Some(_), None) => true,
            (None, _) => false,
        }
    }

    /// Whether a phase id is reachable from the entry.
    pub fn is_reachable(&self, id: &str) -> bool {
        // Every declared phase is in `phase_nodes`; the unreachable ones are usually few, so
        // this stays cheap when a back end asks it for every phase of a large loop.
        self.phase_nodes.contains_key(id) && !self.unreachable_phases.iter().any(|p| p == id)
    }
}

/// Build the graph and run the graph rules (12, 13 and the ones beyond upstream).
/// With `judge` false (an edge did not resolve), the analysis is still computed but no
/// graph diagnostic is reported.
pub(super) fn analyse(spec: &Spec, judge: bool, sink: &mut Diagnostics) -> Info {
    let g = &spec.graph;
    let mut graph: DiGraph<Node, Edge> = DiGraph::new();
    let mut phase_nodes: BTreeMap<String, NodeIndex> = BTreeMap::new();
    for (i, p) in g.phases.iter().enumerate() {
        if !phase_nodes.contains_key(&p.id) {
            let n = graph.add_node(Node::Phase(i));
            phase_nodes.insert(p.id.clone(), n);
        }
    }
    let terminal_nodes: BTreeMap<Terminal, NodeIndex> = Terminal::ALL
        .iter()
        .map(|t| (*t, graph.add_node(Node::Terminal(*t))))
        .collect();
    // Gate chains: the checkpoints guarding each phase, in authored order.
    let mut chains: BTreeMap<&str, Vec<NodeIndex>> = BTreeMap::new();
    let mut gates: Vec<Option<NodeIndex>> = Vec::new();
    for (i, c) in g.checkpoints.iter().flatten().enumerate() {
        let gate = phase_nodes.contains_key(&c.before_phase).then(|| {
            let n = graph.add_node(Node::Gate(i));
            chains.entry(c.before_phase.as_str()).or_default().push(n);
            n
        });
        gates.push(gate);
    }
    // The node a run lands on when it goes to a target.
    let land = |t: &Destination| -> Option<NodeIndex> {
        match t {
            Destination::Terminal(t) => terminal_nodes.get(t).copied(),
            Destination::Phase(p) => chains
                .get(p.as_str())
                .and_then(|c| c.first().copied())
                .or_else(|| phase_nodes.get(p).copied()),
        }
    };
    let mut used: BTreeSet<Terminal> = BTreeSet::new();
    for (i, t) in g.transitions.iter().enumerate() {
        if let Destination::Terminal(term) = t.to {
            used.insert(term);
        }
        if let (Some(&from), Some(to)) = (phase_nodes.get(&t.from), land(&t.to))
            && spec
                .phase(&t.from)
                .is_some_and(|p| p.outcome_ids().contains(&t.on.as_str()))
        {
            graph.add_edge(from, to, Edge::Transition(i));
        }
    }
    for (phase, chain) in &chains {
        for (k, &gate) in chain.iter().enumerate() {
            let next = chain
                .get(k + 1)
                .copied()
                .or_else(|| phase_nodes.get(*phase).copied());
            if let Some(next) = next {
                graph.add_edge(gate, next, Edge::Approve);
            }
        }
    }
    for (i, c) in g.checkpoints.iter().flatten().enumerate() {
        if let Destination::Terminal(term) = c.on_reject {
            used.insert(term);
        }
        if let (Some(Some(gate)), Some(to)) = (gates.get(i).copied(), land(&c.on_reject)) {
            graph.add_edge(gate, to, Edge::Reject);
        }
    }
    let start =
        land(&Destination::Phase(g.entry.clone())).filter(|_| phase_nodes.contains_key(&g.entry));

    let mut info = Info {
        terminals_used: used.into_iter().collect(),
        max_steps: spec.bounds.max_steps,
        start,
        ..Info::default()
    };

    // Reachability from the entry (BFS), and shortest path to $end (0-1 BFS: entering a
    // phase costs one step).
    let cost =
        |n: NodeIndex, graph: &DiGraph<Node, Edge>| usize::from(matches!(graph[n], Node::Phase(_)));
    let mut dist: Vec<Option<usize>> = vec![None; graph.node_count()];
    let mut prev: Vec<Option<NodeIndex>> = vec![None; graph.node_count()];
    if let Some(s) = start {
        let mut dq = VecDeque::new();
        dist[s.index()] = Some(cost(s, &graph));
        dq.push_back(s);
        while let Some(n) = dq.pop_front() {
            let d = dist[n.index()].unwrap_or(0);
            // Terminals end the run.
            if matches!(graph[n], Node::Terminal(_)) {
                continue;
            }
            let mut succ: Vec<_> = graph.edges(n).map(|e| e.target()).collect();
            succ.sort();
            for m in succ {
                let c = cost(m, &graph);
                if dist[m.index()].is_none_or(|old| d + c < old) {
                    dist[m.index()] = Some(d + c);
                    prev[m.index()] = Some(n);
                    if c == 0 {
                        dq.push_front(m);
                    } else {
                        dq.push_back(m);
                    }
                }
            }
        }
    }
    for (i, p) in g.phases.iter().enumerate() {
        let Some(&n) = phase_nodes.get(&p.id) else {
            continue;
        };
        if graph[n] != Node::Phase(i) {
            continue;
        }
        if dist[n.index()].is_some() {
            info.reachable_phases.push(p.id.clone());
        } else {
            info.unreachable_phases.push(p.id.clone());
        }
    }
    for t in Terminal::ALL {
        if dist[terminal_nodes[&t].index()].is_some() {
            info.reachable_terminals.push(t);
        }
    }
    let end = terminal_nodes[&Terminal::End];
    if dist[end.index()].is_some() {
        let mut path = Vec::new();
        let mut cur = Some(end);
        while let Some(n) = cur {
            if let Node::Phase(i) = graph[n] {
                path.push(g.phases[i].id.clone());
            }
            cur = prev[n.index()];
        }
        path.reverse();
        info.shortest_success = Some(path);
    }

    // Phases that can reach a terminal: reverse BFS from the terminals.
    let mut can_finish = vec![false; graph.node_count()];
    let mut dq: VecDeque<NodeIndex> = terminal_nodes.values().copied().collect();
    for n in &dq {
        can_finish[n.index()] = true;
    }
    while let Some(n) = dq.pop_front() {
        for m in graph.neighbors_directed(n, Direction::Incoming) {
            if !can_finish[m.index()] {
                can_finish[m.index()] = true;
                dq.push_back(m);
            }
        }
    }

    // Only judge the graph when the entry exists (otherwise V006 already says why).
    if start.is_some() && judge {
        // Rule 12.
        for id in &info.unreachable_phases {
            if let Some(p) = spec.phase(id) {
                sink.value(
                    Diagnostic::new(
                        Code::UnreachablePhase,
                        format!(
                            "phase `{id}` cannot be reached from the entry phase `{}`",
                            g.entry
                        ),
                    )
                    .with_help(
                        "add a transition or a checkpoint rejection that leads to it, or remove it",
                    )
                    .at(p.origin.child("id").0),
                );
            }
        }
        // Rule 13.
        if info.reachable_terminals.is_empty() {
            sink.value(
                Diagnostic::new(Code::NoTerminalReachable, "no terminal (`$end`, `$abort`, `$handoff`) can be reached from the entry phase")
                    .with_help("a loop must be able to stop: add a transition to `$end`")
                    .at(spec.provenance.pointer(Field::Entry)),
            );
        } else {
            // Trap cycles: reachable phases with no way out.
            let traps: Vec<&str> = info
                .reachable_phases
                .iter()
                .filter(|id| phase_nodes.get(*id).is_some_and(|n| !can_finish[n.index()]))
                .map(String::as_str)
                .collect();
            if !traps.is_empty() {
                let first = spec.phase(traps[0]);
                sink.value(
                    Diagnostic::new(
                        Code::TrapCycle,
                        format!(
                            "once a run enters {}, it can never stop: no terminal is reachable from there",
                            traps.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
                        ),
                    )
                    .with_note(format!("trapped phases: {}", traps.join(" -> ")))
                    .with_help("give one of these phases an outcome that leads to a terminal")
                    .at(first.map(|p| p.origin.child("id").0).unwrap_or_default()),
                );
                info.trap_phases = traps.iter().map(|s| (*s).to_owned()).collect();
            }
            if info.shortest_success.is_none() {
                sink.value(
                    Diagnostic::new(
                        Code::NoSuccessPath,
                        "`$end` cannot be reached from the entry phase: the loop can never succeed",
                    )
                    .with_help("add a transition to `$end`")
                    .at(spec.provenance.pointer(Field::Entry)),
                );
            }
        }
        if let (Some(max), Some(path)) = (spec.bounds.max_steps, &info.shortest_success)
            && (path.len() as u64) > max
        {
            sink.value(
                    Diagnostic::new(
                        Code::MaxStepsTooSmall,
                        format!(
                            "`max_steps` is {max}, but the shortest successful run takes {} steps: the loop can never succeed",
                            path.len()
                        ),
                    )
                    .with_note(format!("shortest run: {} -> $end", path.join(" -> ")))
                    .with_help(format!("raise `max_steps` to at least {}", path.len()))
                    .at(spec.provenance.pointer(Field::MaxSteps)),
                );
        }
    }
    info.graph = graph;
    info.phase_nodes = phase_nodes;
    info
}
