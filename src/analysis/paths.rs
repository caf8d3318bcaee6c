//! Test paths: the shortest run from the entry to each reachable terminal, and a small set
//! of entry-to-terminal runs that together take every reachable transition and both
//! decisions of every reachable checkpoint.
//!
//! Two breadth-first searches over `Info`'s graph do the work: one from the start (a
//! shortest way *to* every node) and one backwards from the terminals (a shortest way
//! *out of* every node). A covering run for edge `u → v` is the way to `u`, the edge, and
//! the way out of `v`; edges that an earlier run already took are skipped. Building the
//! runs costs O(V + E) plus their total length; no simple paths are enumerated.

use std::collections::VecDeque;

use petgraph::Direction;
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef as _;
use serde::Serialize;

use super::{Decision, Step, step_of};
use crate::ir::Spec;
use crate::valid::Info;
use crate::valid::graph::Vertex;

/// One run from the entry to a terminal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Path {
    /// The terminal the run ends in.
    pub terminal: String,
    /// Phase executions (the steps `max_steps` counts).
    pub phase_steps: usize,
    /// Whether the run fits in `max_steps` (true when the loop has no bound). A covering
    /// run that does not fit shows a transition that only a longer budget reaches.
    pub fits_max_steps: bool,
    /// The run, step by step.
    pub steps: Vec<Step>,
    /// The outcomes in order: `walk --outcomes` replays them.
    pub outcomes: Vec<String>,
    /// The checkpoint decisions in order.
    pub decisions: Vec<(String, Decision)>,
    /// The arguments that make `loopconv walk FILE` replay this run.
    pub walk_args: Vec<String>,
}

/// Something no run from the entry to a terminal can take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Uncovered {
    /// The step that cannot be covered.
    pub step: Step,
    /// Why.
    pub reason: String,
}

/// The answer of `loopconv paths`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Paths {
    /// The shortest run to each reachable terminal (`$end`, `$abort`, `$handoff` order).
    pub shortest: Vec<Path>,
    /// Runs that together cover every coverable transition and checkpoint decision.
    pub cover: Vec<Path>,
    /// Transitions and decisions no run can take (unreachable, or no terminal after them).
    pub uncovered: Vec<Uncovered>,
    /// How many transitions and decisions `cover` takes.
    pub covered: usize,
    /// Transitions and decisions in the loop's graph.
    pub total: usize,
}

/// Compute the shortest and the covering paths of a valid loop.
pub fn paths(spec: &Spec, info: &Info) -> Paths {
    let g = &info.graph;
    let Some(start) = info.start else {
        return Paths {
            shortest: Vec::new(),
            cover: Vec::new(),
            uncovered: Vec::new(),
            covered: 0,
            total: g.edge_count(),
        };
    };
    let into = bfs(info, &[start], Direction::Outgoing);
    let terminals: Vec<NodeIndex> = g
        .node_indices()
        .filter(|n| matches!(g[*n], Vertex::Terminal(_)))
        .collect();
    let out = bfs(info, &terminals, Direction::Incoming);

    let shortest = shortest_paths(spec, info, &into, &terminals);
    let mut taken = vec![false; g.edge_count()];
    let mut cover = Vec::new();
    let mut uncovered = Vec::new();
    for e in g.edge_indices() {
        if taken[e.index()] {
            continue;
        }
        let Some((u, v)) = g.edge_endpoints(e) else {
            continue;
        };
        let reason = if u != start && into[u.index()].is_none() {
            Some("its source cannot be reached from the entry")
        } else if !matches!(g[v], Vertex::Terminal(_)) && out[v.index()].is_none() {
            Some("no terminal can be reached after it")
        } else {
            None
        };
        if let Some(reason) = reason {
            if let Some(step) = step_of(spec, info, e) {
                uncovered.push(Uncovered {
                    step,
                    reason: reason.to_owned(),
                });
            }
            continue;
        }
        let mut edges = way_in(info, &into, u);
        edges.push(e);
        edges.extend(way_out(info, &out, v));
        for x in &edges {
            taken[x.index()] = true;
        }
        cover.push(path_of(spec, info, &edges));
    }
    let covered = taken.iter().filter(|t| **t).count();
    Paths {
        shortest,
        cover,
        uncovered,
        covered,
        total: g.edge_count(),
    }
}

/// Breadth-first search from `sources` along `dir`: for each node, the edge by which the
/// search first reached it (`None` for sources and unreached nodes).
fn bfs(info: &Info, sources: &[NodeIndex], dir: Direction) -> Vec<Option<EdgeIndex>> {
    let g = &info.graph;
    let mut via: Vec<Option<EdgeIndex>> = vec![None; g.node_count()];
    let mut seen = vec![false; g.node_count()];
    let mut queue = VecDeque::new();
    for s in sources {
        seen[s.index()] = true;
        queue.push_back(*s);
    }
    while let Some(n) = queue.pop_front() {
        // Edges in index order (petgraph lists them newest first), so paths follow the
        // authored order of transitions.
        let mut edges: Vec<_> = g.edges_directed(n, dir).collect();
        edges.sort_by_key(|e| e.id());
        for e in edges {
            let m = if dir == Direction::Outgoing {
                e.target()
            } else {
                e.source()
            };
            if !seen[m.index()] {
                seen[m.index()] = true;
                via[m.index()] = Some(e.id());
                queue.push_back(m);
            }
        }
    }
    via
}

/// The edges from the start to `n`, following the forward search tree.
fn way_in(info: &Info, into: &[Option<EdgeIndex>], n: NodeIndex) -> Vec<EdgeIndex> {
    let mut edges = Vec::new();
    let mut cur = n;
    while let Some(e) = into[cur.index()] {
        edges.push(e);
        match info.graph.edge_endpoints(e) {
            Some((from, _)) => cur = from,
            None => break,
        }
    }
    edges.reverse();
    edges
}

/// The edges from `n` to the nearest terminal, following the backward search tree.
fn way_out(info: &Info, out: &[Option<EdgeIndex>], n: NodeIndex) -> Vec<EdgeIndex> {
    let mut edges = Vec::new();
    let mut cur = n;
    while let Some(e) = out[cur.index()] {
        edges.push(e);
        match info.graph.edge_endpoints(e) {
            Some((_, to)) => cur = to,
            None => break,
        }
    }
    edges
}

fn shortest_paths(
    spec: &Spec,
    info: &Info,
    into: &[Option<EdgeIndex>],
    terminals: &[NodeIndex],
) -> Vec<Path> {
    terminals
        .iter()
        .filter(|t| into[t.index()].is_some())
        .map(|t| path_of(spec, info, &way_in(info, into, *t)))
        .collect()
}

/// A run from its edges.
fn path_of(spec: &Spec, info: &Info, edges: &[EdgeIndex]) -> Path {
    let steps: Vec<Step> = edges
        .iter()
        .filter_map(|e| step_of(spec, info, *e))
        .collect();
    let mut outcomes = Vec::new();
    let mut decisions = Vec::new();
    let mut walk_args = Vec::new();
    for s in &steps {
        match s {
            Step::Phase { outcome, .. } => outcomes.push(outcome.clone()),
            Step::Checkpoint {
                checkpoint,
                decision,
                ..
            } => {
                decisions.push((checkpoint.clone(), *decision));
                walk_args.push(format!("--{}", decision.as_str()));
                walk_args.push(checkpoint.clone());
            }
        }
    }
    let mut args = vec!["--outcomes".to_owned(), outcomes.join(",")];
    args.extend(walk_args);
    let terminal = edges
        .last()
        .and_then(|e| info.graph.edge_endpoints(*e))
        .map(|(_, to)| super::node_name(spec, info, to))
        .unwrap_or_default();
    let fits_max_steps = info
        .max_steps
        .is_none_or(|m| u64::try_from(outcomes.len()).is_ok_and(|n| n <= m));
    Path {
        terminal,
        fits_max_steps,
        phase_steps: outcomes.len(),
        steps,
        outcomes,
        decisions,
        walk_args: args,
    }
}
