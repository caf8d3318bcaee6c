//! Pass 2: the phase graph (petgraph), and the analysis back ends reuse.
//!
//! Vertices are phases (first declaration of each id), approval gates (one per checkpoint, in
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
use crate::ir::{Destination, Field, Graph, IdMap, Spec, Terminal, id_map};

/// A vertex of the analysed graph: a phase, an approval gate or a terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Vertex {
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
    pub graph: DiGraph<Vertex, Edge>,
    /// Vertex of each phase id (first declaration).
    #[serde(skip)]
    pub phase_nodes: IdMap<String, NodeIndex>,
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
    let built = build_graph(spec);
    let start = built
        .land(&Destination::Phase(g.entry.clone()))
        .filter(|_| built.phase_nodes.contains_key(&g.entry));
    let runs = shortest_runs(&built.graph, start);
    let mut info = Info {
        terminals_used: terminals_used(g),
        max_steps: spec.bounds.max_steps,
        start,
        ..Info::default()
    };
    reachability(g, &built, &runs, &mut info);
    info.shortest_success = shortest_success(g, &built, &runs);

    // Only judge the graph when the entry exists (otherwise V006 already says why).
    if start.is_some() && judge {
        every_phase_reachable(spec, &info, sink);
        if some_terminal_reachable(spec, &info, sink) {
            info.trap_phases = trap_cycles(spec, &info, &built, sink);
            end_reachable(spec, &info, sink);
        }
        budget_rule(spec, &info, sink);
    }
    info.graph = built.graph;
    info.phase_nodes = built.phase_nodes;
    info
}

/// The graph under construction, and where its edges land.
struct Built<'a> {
    graph: DiGraph<Vertex, Edge>,
    /// Vertex of each phase id (first declaration).
    phase_nodes: IdMap<String, NodeIndex>,
    /// Vertex of each terminal.
    terminal_nodes: BTreeMap<Terminal, NodeIndex>,
    /// Gate chains: the gates guarding each phase, in authored order. Hashed: a
    /// `BTreeMap` of phase ids compared ids a dozen times a lookup, a tenth of validating
    /// a loop with a checkpoint before every phase.
    chains: IdMap<&'a str, Vec<NodeIndex>>,
    /// The gate of each checkpoint; `None` when it guards an undeclared phase.
    gates: Vec<Option<NodeIndex>>,
}

impl Built<'_> {
    /// The node a run lands on when it goes to a target: the phase's first gate, or the
    /// phase, or the terminal.
    fn land(&self, t: &Destination) -> Option<NodeIndex> {
        match t {
            Destination::Terminal(t) => self.terminal_nodes.get(t).copied(),
            Destination::Phase(p) => self
                .chains
                .get(p.as_str())
                .and_then(|c| c.first().copied())
                .or_else(|| self.phase_nodes.get(p).copied()),
        }
    }
}

/// The nodes (phases, then terminals, then gates), then the edges (transitions, approvals,
/// rejections).
fn build_graph(spec: &Spec) -> Built<'_> {
    let mut built = add_nodes(&spec.graph);
    add_transitions(&spec.graph, &mut built);
    add_approvals(&mut built);
    add_rejections(&spec.graph, &mut built);
    built
}

/// One node per phase id (its first declaration), per terminal, and per checkpoint that
/// guards a declared phase.
fn add_nodes(g: &Graph) -> Built<'_> {
    // Sized once: every phase, terminal and gate is a node, and each transition, approval
    // and rejection at most one edge (growing by doubling copied a large loop's edges
    // several times).
    let gate_count = g.checkpoints.iter().flatten().count();
    let mut graph: DiGraph<Vertex, Edge> = DiGraph::with_capacity(
        g.phases.len() + Terminal::ALL.len() + gate_count,
        g.transitions.len() + 2 * gate_count,
    );
    let mut phase_nodes: IdMap<String, NodeIndex> = id_map(g.phases.len());
    for (i, p) in g.phases.iter().enumerate() {
        if !phase_nodes.contains_key(&p.id) {
            let n = graph.add_node(Vertex::Phase(i));
            phase_nodes.insert(p.id.clone(), n);
        }
    }
    let terminal_nodes: BTreeMap<Terminal, NodeIndex> = Terminal::ALL
        .iter()
        .map(|t| (*t, graph.add_node(Vertex::Terminal(*t))))
        .collect();
    let mut chains: IdMap<&str, Vec<NodeIndex>> = id_map(gate_count.min(g.phases.len()));
    let mut gates: Vec<Option<NodeIndex>> = Vec::with_capacity(gate_count);
    for (i, c) in g.checkpoints.iter().flatten().enumerate() {
        let gate = phase_nodes.contains_key(&c.before_phase).then(|| {
            let n = graph.add_node(Vertex::Gate(i));
            chains.entry(c.before_phase.as_str()).or_default().push(n);
            n
        });
        gates.push(gate);
    }
    Built {
        graph,
        phase_nodes,
        terminal_nodes,
        chains,
        gates,
    }
}

/// An edge per transition that leaves on a declared outcome of a declared phase for a
/// target that lands somewhere.
fn add_transitions(g: &Graph, built: &mut Built) {
    for (i, t) in g.transitions.iter().enumerate() {
        let Some(&from) = built.phase_nodes.get(&t.from) else {
            continue;
        };
        // `from` is the node of the first phase declared with this id.
        let Vertex::Phase(p) = built.graph[from] else {
            continue;
        };
        if let Some(to) = built.land(&t.to)
            && g.phases[p].has_outcome(&t.on)
        {
            built.graph.add_edge(from, to, Edge::Transition(i));
        }
    }
}

/// An approval edge from each gate to the next gate of its chain, or to its phase.
fn add_approvals(built: &mut Built) {
    // In phase-id order, so that the edges are added in the same order on every run.
    let mut chains: Vec<(&str, &Vec<NodeIndex>)> =
        built.chains.iter().map(|(&p, c)| (p, c)).collect();
    chains.sort_unstable_by_key(|&(phase, _)| phase);
    for (phase, chain) in chains {
        for (k, &gate) in chain.iter().enumerate() {
            let next = chain
                .get(k + 1)
                .copied()
                .or_else(|| built.phase_nodes.get(phase).copied());
            if let Some(next) = next {
                built.graph.add_edge(gate, next, Edge::Approve);
            }
        }
    }
}

/// A rejection edge from each gate to where its checkpoint's `on_reject` lands.
fn add_rejections(g: &Graph, built: &mut Built) {
    for (i, c) in g.checkpoints.iter().flatten().enumerate() {
        if let (Some(Some(gate)), Some(to)) =
            (built.gates.get(i).copied(), built.land(&c.on_reject))
        {
            built.graph.add_edge(gate, to, Edge::Reject);
        }
    }
}

/// The terminals that some transition or checkpoint rejection targets, in `$end`,
/// `$abort`, `$handoff` order.
fn terminals_used(g: &Graph) -> Vec<Terminal> {
    let transitions = g.transitions.iter().map(|t| &t.to);
    let rejections = g.checkpoints.iter().flatten().map(|c| &c.on_reject);
    let used: BTreeSet<Terminal> = transitions
        .chain(rejections)
        .filter_map(|to| match to {
            Destination::Terminal(t) => Some(*t),
            Destination::Phase(_) => None,
        })
        .collect();
    used.into_iter().collect()
}

/// The shortest runs from the start, by node: steps taken on arrival, and the node before.
struct Runs {
    dist: Vec<Option<usize>>,
    prev: Vec<Option<NodeIndex>>,
}

/// Shortest runs from the start (0-1 BFS: entering a phase costs one step, a gate or a
/// terminal none). A run ends at a terminal.
fn shortest_runs(graph: &DiGraph<Vertex, Edge>, start: Option<NodeIndex>) -> Runs {
    let cost = |n: NodeIndex| usize::from(matches!(graph[n], Vertex::Phase(_)));
    let mut dist: Vec<Option<usize>> = vec![None; graph.node_count()];
    let mut prev: Vec<Option<NodeIndex>> = vec![None; graph.node_count()];
    if let Some(s) = start {
        let mut dq = VecDeque::new();
        // The successors of the node at hand, in index order; one buffer for every node.
        let mut succ: Vec<NodeIndex> = Vec::new();
        dist[s.index()] = Some(cost(s));
        dq.push_back(s);
        while let Some(n) = dq.pop_front() {
            let d = dist[n.index()].unwrap_or(0);
            // Terminals end the run.
            if matches!(graph[n], Vertex::Terminal(_)) {
                continue;
            }
            succ.clear();
            succ.extend(graph.edges(n).map(|e| e.target()));
            succ.sort();
            for &m in &succ {
                let c = cost(m);
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
    Runs { dist, prev }
}

/// The reachable and unreachable phases (each id once, in declaration order) and the
/// reachable terminals.
fn reachability(g: &Graph, built: &Built, runs: &Runs, info: &mut Info) {
    for (i, p) in g.phases.iter().enumerate() {
        let Some(&n) = built.phase_nodes.get(&p.id) else {
            continue;
        };
        if built.graph[n] != Vertex::Phase(i) {
            continue;
        }
        if runs.dist[n.index()].is_some() {
            info.reachable_phases.push(p.id.clone());
        } else {
            info.unreachable_phases.push(p.id.clone());
        }
    }
    for t in Terminal::ALL {
        if runs.dist[built.terminal_nodes[&t].index()].is_some() {
            info.reachable_terminals.push(t);
        }
    }
}

/// The phases executed by the shortest run from the entry to `$end`, if there is one.
fn shortest_success(g: &Graph, built: &Built, runs: &Runs) -> Option<Vec<String>> {
    let end = built.terminal_nodes[&Terminal::End];
    runs.dist[end.index()]?;
    let mut path = Vec::new();
    let mut cur = Some(end);
    while let Some(n) = cur {
        if let Vertex::Phase(i) = built.graph[n] {
            path.push(g.phases[i].id.clone());
        }
        cur = runs.prev[n.index()];
    }
    path.reverse();
    Some(path)
}

/// Nodes from which some terminal can be reached: reverse BFS from the terminals.
fn can_finish(built: &Built) -> Vec<bool> {
    let mut can_finish = vec![false; built.graph.node_count()];
    let mut dq: VecDeque<NodeIndex> = built.terminal_nodes.values().copied().collect();
    for n in &dq {
        can_finish[n.index()] = true;
    }
    while let Some(n) = dq.pop_front() {
        for m in built.graph.neighbors_directed(n, Direction::Incoming) {
            if !can_finish[m.index()] {
                can_finish[m.index()] = true;
                dq.push_back(m);
            }
        }
    }
    can_finish
}

/// Rule 12 (`V012`): every phase can be reached from the entry.
fn every_phase_reachable(spec: &Spec, info: &Info, sink: &mut Diagnostics) {
    if info.unreachable_phases.is_empty() {
        return;
    }
    let first = spec.graph.first_phases();
    for id in &info.unreachable_phases {
        if let Some(p) = first.get(id.as_str()) {
            sink.value(
                Diagnostic::new(
                    Code::UnreachablePhase,
                    format!(
                        "phase `{id}` cannot be reached from the entry phase `{}`",
                        spec.graph.entry
                    ),
                )
                .with_help(
                    "add a transition or a checkpoint rejection that leads to it, or remove it",
                )
                .at(p.origin.pointer_to("id")),
            );
        }
    }
}

/// Rule 13 (`V013`): some terminal can be reached from the entry. Returns whether one can.
fn some_terminal_reachable(spec: &Spec, info: &Info, sink: &mut Diagnostics) -> bool {
    if !info.reachable_terminals.is_empty() {
        return true;
    }
    sink.value(
        Diagnostic::new(
            Code::NoTerminalReachable,
            "no terminal (`$end`, `$abort`, `$handoff`) can be reached from the entry phase",
        )
        .with_help("a loop must be able to stop: add a transition to `$end`")
        .at(spec.provenance.pointer(Field::Entry)),
    );
    false
}

/// Trap cycles (`V023`): no reachable phase is one from which no terminal can be reached.
/// Returns those phases, in declaration order.
fn trap_cycles(spec: &Spec, info: &Info, built: &Built, sink: &mut Diagnostics) -> Vec<String> {
    let can_finish = can_finish(built);
    let traps: Vec<&str> = info
        .reachable_phases
        .iter()
        .filter(|id| {
            built
                .phase_nodes
                .get(*id)
                .is_some_and(|n| !can_finish[n.index()])
        })
        .map(String::as_str)
        .collect();
    let Some(first) = traps.first() else {
        return Vec::new();
    };
    sink.value(
        Diagnostic::new(
            Code::TrapCycle,
            format!(
                "once a run enters {}, it can never stop: no terminal is reachable from there",
                quoted_list(&traps, "or")
            ),
        )
        .with_note(format!(
            "trapped {}: {}",
            if traps.len() == 1 { "phase" } else { "phases" },
            quoted_list(&traps, "and")
        ))
        .with_help("give one of these phases an outcome that leads to a terminal")
        .at(spec
            .phase(first)
            .map(|p| p.origin.pointer_to("id"))
            .unwrap_or_default()),
    );
    traps.iter().map(|s| (*s).to_owned()).collect()
}

/// `V025`: `$end` can be reached from the entry.
fn end_reachable(spec: &Spec, info: &Info, sink: &mut Diagnostics) {
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

/// `V024`: the shortest successful run fits in `max_steps`.
fn budget_rule(spec: &Spec, info: &Info, sink: &mut Diagnostics) {
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

/// `` `a` ``, `` `a` or `b` ``, `` `a`, `b` or `c` `` (with `conjunction` = `or`).
fn quoted_list(ids: &[&str], conjunction: &str) -> String {
    let quoted: Vec<String> = ids.iter().map(|t| format!("`{t}`")).collect();
    crate::text::list(&quoted, conjunction)
}
