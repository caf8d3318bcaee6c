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

use super::Sink as _;
use super::outcomes::OutcomeIndex;
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

/// The analysis of a loop's graph, computed once by [`crate::valid::validate`]. Phases
/// are named by their index in `spec.graph.phases` (their first declaration, for an id
/// declared twice), not by a copy of their id: [`Graph::phase_ids`] gives the ids.
#[derive(Debug, Clone, Default)]
pub struct Info {
    /// The graph.
    pub graph: DiGraph<Vertex, Edge>,
    /// The vertex of each phase id (first declaration), found by [`Info::phase_node`].
    phase_nodes: PhaseNodes,
    /// Where a run starts (the entry phase's first gate, or the phase).
    pub start: Option<NodeIndex>,
    /// Phases reachable from the entry, in declaration order.
    pub reachable_phases: Vec<usize>,
    /// Phases not reachable from the entry, in declaration order.
    pub unreachable_phases: Vec<usize>,
    /// Terminals that some transition or checkpoint targets, in `$end`, `$abort`,
    /// `$handoff` order.
    pub terminals_used: Vec<Terminal>,
    /// Terminals reachable from the entry.
    pub reachable_terminals: Vec<Terminal>,
    /// Reachable phases from which no terminal can be reached, in declaration order.
    pub trap_phases: Vec<usize>,
    /// The shortest run from the entry to `$end`, as the phases executed.
    pub shortest_success: Option<Vec<usize>>,
    /// `max_steps`, when set.
    pub max_steps: Option<u64>,
}

/// The vertices of the phases, found by id without a copy of the ids: a table of vertex
/// indices hashed by their phase's id, which a lookup reads from the spec (a map owning
/// the 10,000 ids of the `short` loop was a quarter of its analysis's memory).
#[derive(Debug, Clone, Default)]
struct PhaseNodes(hashbrown::HashTable<NodeIndex>);

/// The hash of a phase id in [`PhaseNodes`].
fn id_hash(id: &str) -> u64 {
    std::hash::BuildHasher::hash_one(&foldhash::fast::FixedState::default(), id)
}

impl PhaseNodes {
    /// The vertex of the phase `id`, among those of `graph`'s phases (of `g`).
    fn get(&self, g: &Graph, graph: &DiGraph<Vertex, Edge>, id: &str) -> Option<NodeIndex> {
        let same = |n: &NodeIndex| phase_id(g, graph, *n) == Some(id);
        self.0.find(id_hash(id), same).copied()
    }

    /// Add the vertex `n` of a phase whose id has none yet.
    fn insert_new(&mut self, g: &Graph, graph: &DiGraph<Vertex, Edge>, n: NodeIndex) {
        let rehash = |m: &NodeIndex| phase_id(g, graph, *m).map_or(0, id_hash);
        self.0.insert_unique(rehash(&n), n, rehash);
    }
}

/// The index of the phase at vertex `n`, if it is a phase's.
fn phase_at(graph: &DiGraph<Vertex, Edge>, n: NodeIndex) -> Option<usize> {
    match graph.node_weight(n)? {
        Vertex::Phase(i) => Some(*i),
        _ => None,
    }
}

/// The id of the phase at vertex `n`, if it is a phase's.
fn phase_id<'a>(g: &'a Graph, graph: &DiGraph<Vertex, Edge>, n: NodeIndex) -> Option<&'a str> {
    g.phases.get(phase_at(graph, n)?).map(|p| p.id.as_str())
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

    /// The vertex of the phase `id` of `g`, the graph analysed (its first declaration).
    pub fn phase_node(&self, g: &Graph, id: &str) -> Option<NodeIndex> {
        self.phase_nodes.get(g, &self.graph, id)
    }

    /// The index in `g.phases` of the phase `id` (its first declaration).
    pub fn phase_index(&self, g: &Graph, id: &str) -> Option<usize> {
        phase_at(&self.graph, self.phase_node(g, id)?)
    }

    /// Whether the phase `id` of `g` is reachable from the entry.
    pub fn is_reachable(&self, g: &Graph, id: &str) -> bool {
        // The unreachable phases are usually few, so this stays cheap when a back end asks
        // it for every phase of a large loop.
        self.phase_index(g, id)
            .is_some_and(|i| !self.unreachable_phases.contains(&i))
    }
}

/// Build the graph and run the graph rules (12, 13 and the ones beyond upstream).
/// With `judge` false (an edge did not resolve), the analysis is still computed but no
/// graph diagnostic is reported.
pub(super) fn analyse(
    spec: &Spec,
    judge: bool,
    outcomes: &OutcomeIndex,
    sink: &mut Diagnostics,
) -> Info {
    let g = &spec.graph;
    let built = build_graph(spec, outcomes);
    let start = built
        .land(&Destination::Phase(g.entry.clone()))
        .filter(|_| built.phase_node(&g.entry).is_some());
    let runs = shortest_runs(&built.graph, start);
    let mut info = Info {
        terminals_used: terminals_used(g),
        max_steps: spec.bounds.max_steps,
        start,
        ..Info::default()
    };
    reachability(&built, &runs, &mut info);
    info.shortest_success = shortest_success(&built, &runs);

    // Only judge the graph when the entry exists (otherwise V006 already says why).
    if start.is_some() && judge {
        every_phase_reachable(spec, &info, &built, &runs, sink);
        if some_terminal_reachable(spec, &info, sink) {
            info.trap_phases = trap_cycles(spec, &built, &runs, sink);
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
    /// The graph of the spec.
    g: &'a Graph,
    graph: DiGraph<Vertex, Edge>,
    /// Vertex of each phase id (first declaration).
    phase_nodes: PhaseNodes,
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
                .or_else(|| self.phase_node(p)),
        }
    }

    /// The vertex of the phase `id` (its first declaration).
    fn phase_node(&self, id: &str) -> Option<NodeIndex> {
        self.phase_nodes.get(self.g, &self.graph, id)
    }
}

/// The nodes (phases, then terminals, then gates), then the edges (transitions, approvals,
/// rejections).
fn build_graph<'a>(spec: &'a Spec, outcomes: &OutcomeIndex) -> Built<'a> {
    let mut built = add_nodes(&spec.graph);
    add_transitions(&spec.graph, outcomes, &mut built);
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
    let mut phase_nodes = PhaseNodes(hashbrown::HashTable::with_capacity(g.phases.len()));
    for (i, p) in g.phases.iter().enumerate() {
        if phase_nodes.get(g, &graph, &p.id).is_none() {
            let n = graph.add_node(Vertex::Phase(i));
            phase_nodes.insert_new(g, &graph, n);
        }
    }
    let terminal_nodes: BTreeMap<Terminal, NodeIndex> = Terminal::ALL
        .iter()
        .map(|t| (*t, graph.add_node(Vertex::Terminal(*t))))
        .collect();
    let mut chains: IdMap<&str, Vec<NodeIndex>> = id_map(gate_count.min(g.phases.len()));
    let mut gates: Vec<Option<NodeIndex>> = Vec::with_capacity(gate_count);
    for (i, c) in g.checkpoints.iter().flatten().enumerate() {
        let gate = phase_nodes
            .get(g, &graph, &c.before_phase)
            .is_some()
            .then(|| {
                let n = graph.add_node(Vertex::Gate(i));
                chains.entry(c.before_phase.as_str()).or_default().push(n);
                n
            });
        gates.push(gate);
    }
    Built {
        g,
        graph,
        phase_nodes,
        terminal_nodes,
        chains,
        gates,
    }
}

/// An edge per transition that leaves on a declared outcome of a declared phase for a
/// target that lands somewhere. `outcomes` is the index validation's names made.
fn add_transitions(g: &Graph, outcomes: &OutcomeIndex, built: &mut Built) {
    for (i, t) in g.transitions.iter().enumerate() {
        let Some(from) = built.phase_node(&t.from) else {
            continue;
        };
        // `from` is the node of the first phase declared with this id.
        let Vertex::Phase(p) = built.graph[from] else {
            continue;
        };
        if let Some(to) = built.land(&t.to)
            && outcomes.has(p, &g.phases[p], &t.on)
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
                .or_else(|| built.phase_node(phase));
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

impl Runs {
    /// Whether a run from the start reaches vertex `n`.
    fn reach(&self, n: NodeIndex) -> bool {
        self.dist[n.index()].is_some()
    }
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
fn reachability(built: &Built, runs: &Runs, info: &mut Info) {
    // Each list allocated once, at its size: grown by doubling, a list of the 10,000
    // phases went through a dozen blocks of as many sizes, and with huge pages those
    // blocks faulted in two more 2 MiB pages (4 MB more for the XState machine).
    let count = phase_vertices(&built.graph)
        .filter(|&(n, _)| runs.reach(n))
        .count();
    // One vertex per phase id.
    let phases = built.phase_nodes.0.len();
    info.reachable_phases = Vec::with_capacity(count);
    info.unreachable_phases = Vec::with_capacity(phases.saturating_sub(count));
    for (n, i) in phase_vertices(&built.graph) {
        if runs.reach(n) {
            info.reachable_phases.push(i);
        } else {
            info.unreachable_phases.push(i);
        }
    }
    for t in Terminal::ALL {
        if runs.reach(built.terminal_nodes[&t]) {
            info.reachable_terminals.push(t);
        }
    }
}

/// The vertex and index of each phase (its first declaration), in declaration order: the
/// order the phases' vertices were added in.
fn phase_vertices(graph: &DiGraph<Vertex, Edge>) -> impl Iterator<Item = (NodeIndex, usize)> {
    graph
        .node_indices()
        .filter_map(|n| phase_at(graph, n).map(|i| (n, i)))
}

/// The phases executed by the shortest run from the entry to `$end`, if there is one.
fn shortest_success(built: &Built, runs: &Runs) -> Option<Vec<usize>> {
    let end = built.terminal_nodes[&Terminal::End];
    // As many phases as the run's steps (each phase entered costs one).
    let steps = runs.dist[end.index()]?;
    let mut path = Vec::with_capacity(steps);
    let mut cur = Some(end);
    while let Some(n) = cur {
        if let Vertex::Phase(i) = built.graph[n] {
            path.push(i);
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

/// Rule 12 (`V012`): every phase can be reached from the entry. One diagnostic per way
/// into the unreachable part of the graph (one cause: a missing or re-pointed transition
/// cuts off a whole branch), at its first phase, labelled at each phase reached only
/// through it.
fn every_phase_reachable(
    spec: &Spec,
    info: &Info,
    built: &Built,
    runs: &Runs,
    sink: &mut Diagnostics,
) {
    if info.unreachable_phases.is_empty() {
        return;
    }
    let phases = &spec.graph.phases;
    let ids = |roots: &[usize]| {
        let named: Vec<String> = roots
            .iter()
            .map(|&r| format!("`{}`", phases[r].id))
            .collect();
        crate::text::list(&named, "or")
    };
    for branch in cut_off_branches(built, runs) {
        let p = &phases[branch.root];
        let mut d = Diagnostic::new(
            Code::UnreachablePhase,
            format!(
                "phase `{}` cannot be reached from the entry phase `{}`",
                p.id, spec.graph.entry
            ),
        )
        .with_help("add a transition or a checkpoint rejection that leads to it, or remove it");
        for (i, roots) in &branch.beyond {
            let q = &phases[*i];
            d = d.with_label(
                q.origin.pointer_to("id"),
                format!("`{}` is reached only through {}", q.id, ids(roots)),
            );
        }
        sink.value(d.at(p.origin.pointer_to("id")));
    }
}

/// A way into the unreachable part of the graph.
struct CutOff {
    /// The phase a run would enter first (of a cycle, the first declared).
    root: usize,
    /// The phases reached through it and through no earlier way in, in declaration order,
    /// each with the roots of every way in that reaches it.
    beyond: Vec<(usize, Vec<usize>)>,
}

/// Ways in that are searched for the phases they share with earlier ones; beyond, a
/// phase is named with the first way in that reaches it only (each way is a search of
/// the unreachable part, so comparing every way would be quadratic).
const MAX_WAYS_COMPARED: usize = 64;

/// The unreachable phases (some are), grouped by the way into them: one group for each
/// part of the unreachable graph that nothing else unreachable leads into (a source of its
/// condensation).
fn cut_off_branches(built: &Built, runs: &Runs) -> Vec<CutOff> {
    use petgraph::visit::NodeFiltered;
    let cut_off = NodeFiltered::from_fn(&built.graph, |n: NodeIndex| !runs.reach(n));
    let parts = petgraph::algo::tarjan_scc(&cut_off);
    let mut part_of = vec![usize::MAX; built.graph.node_count()];
    for (k, part) in parts.iter().enumerate() {
        for n in part {
            part_of[n.index()] = k;
        }
    }
    // An unreachable vertex has no edge from a reachable one.
    let is_source = |k: usize| {
        parts[k].iter().all(|&n| {
            (built.graph.neighbors_directed(n, Direction::Incoming))
                .all(|m| part_of[m.index()] == k)
        })
    };
    let declared = |n: &NodeIndex| match built.graph[*n] {
        Vertex::Phase(i) => i,
        _ => usize::MAX,
    };
    // The ways in, in the order of their first phase's declaration.
    let mut sources: Vec<usize> = (0..parts.len()).filter(|&k| is_source(k)).collect();
    sources.sort_by_key(|&k| parts[k].iter().map(declared).min());
    // The ways in that reach each vertex, in order.
    let mut reached_by: Vec<Vec<usize>> = vec![Vec::new(); built.graph.node_count()];
    let mut ways: Vec<Vec<(usize, NodeIndex)>> = Vec::with_capacity(sources.len());
    for (w, &k) in sources.iter().enumerate() {
        // A cycle is entered at its first phase in declaration order (a source part is
        // strongly connected: one search from it reaches all of it).
        if let Some(&start) = parts[k].iter().min_by_key(|n| declared(n)) {
            ways.push(search_way(built, runs, start, w, &mut reached_by));
        }
    }
    let root_of = |w: usize| ways[w].first().map(|&(i, _)| i);
    let mut branches = Vec::new();
    for (w, reached) in ways.iter().enumerate() {
        let Some((&(root, _), rest)) = reached.split_first() else {
            continue;
        };
        let mut beyond: Vec<(usize, Vec<usize>)> = rest
            .iter()
            .filter(|&&(_, n)| reached_by[n.index()].first() == Some(&w))
            .map(|&(i, n)| {
                let roots = reached_by[n.index()].iter().filter_map(|&v| root_of(v));
                (i, roots.collect())
            })
            .collect();
        beyond.sort_unstable();
        branches.push(CutOff { root, beyond });
    }
    branches
}

/// The phases (index, vertex) way in `w` reaches from `start` through unreachable vertices,
/// in search order, each vertex's ways recorded in `reached_by`. Beyond the ways compared
/// ([`MAX_WAYS_COMPARED`]), what an earlier way reached is not searched again.
fn search_way(
    built: &Built,
    runs: &Runs,
    start: NodeIndex,
    w: usize,
    reached_by: &mut [Vec<usize>],
) -> Vec<(usize, NodeIndex)> {
    reached_by[start.index()].push(w);
    let mut queue = VecDeque::from([start]);
    let mut phases_reached = Vec::new();
    while let Some(n) = queue.pop_front() {
        if let Vertex::Phase(i) = built.graph[n] {
            phases_reached.push((i, n));
        }
        for m in built.graph.neighbors(n).filter(|&m| !runs.reach(m)) {
            let seen = &mut reached_by[m.index()];
            if seen.last() == Some(&w) || (!seen.is_empty() && w >= MAX_WAYS_COMPARED) {
                continue;
            }
            seen.push(w);
            queue.push_back(m);
        }
    }
    phases_reached
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
fn trap_cycles(spec: &Spec, built: &Built, runs: &Runs, sink: &mut Diagnostics) -> Vec<usize> {
    let can_finish = can_finish(built);
    let trapped: Vec<usize> = phase_vertices(&built.graph)
        .filter(|&(n, _)| runs.reach(n) && !can_finish[n.index()])
        .map(|(_, i)| i)
        .collect();
    let traps: Vec<&str> = spec.graph.phase_ids(&trapped).collect();
    let Some(&first) = trapped.first() else {
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
        .at(spec.graph.phases[first].origin.pointer_to("id")),
    );
    trapped
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
            .with_note(format!(
                "shortest run: {} -> $end",
                spec.graph.phase_ids(path).collect::<Vec<_>>().join(" -> ")
            ))
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
