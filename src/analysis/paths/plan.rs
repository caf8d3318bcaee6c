//! The covering runs, planned before any is built: which edge each run is for, and where
//! it shares steps with an earlier run.
//!
//! A covering run for edge `u → v` (outside REAL/VEAL) is the way in to `u` (a path of the
//! forward search tree), the edge, and the way out of `v` (a path of the backward search
//! tree). Planning walks only the tree nodes no earlier run has passed: a run *claims*
//! them, and the first claimed node it meets ends the walk. That node's way in (or out)
//! was taken whole by the run that claimed it, so marking the taken edges costs O(V + E)
//! for all runs together instead of their total length (about 10^8 steps on a chain of
//! 10,000 phases), and the same node is where the run can share steps with that earlier
//! run: the steps before it (way in) or after it (way out) are that run's too, and the
//! node is among the steps the earlier run spells out.

use petgraph::Direction;
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef as _;
use std::collections::VecDeque;

use crate::valid::Info;
use crate::valid::graph::Vertex;

/// A breadth-first search tree: for each node, the edge by which the search first reached
/// it and how far it is from the search's sources.
pub(super) struct Tree {
    /// The edge that first reached each node (`None` for sources and unreached nodes).
    pub(super) via: Vec<Option<EdgeIndex>>,
    /// The steps of the tree path between each node and its source.
    pub(super) steps: Vec<usize>,
    /// Of those, the phase executions (edges out of a phase).
    pub(super) phase_steps: Vec<usize>,
    /// The source each node's tree path ends at (for the backward search: the terminal
    /// its way out reaches).
    pub(super) root: Vec<NodeIndex>,
}

impl Tree {
    /// Breadth-first search from `sources` along `dir`.
    pub(super) fn search(info: &Info, sources: &[NodeIndex], dir: Direction) -> Tree {
        let g = &info.graph;
        let n = g.node_count();
        let mut t = Tree {
            via: vec![None; n],
            steps: vec![0; n],
            phase_steps: vec![0; n],
            root: g.node_indices().collect(),
        };
        let mut seen = vec![false; n];
        let mut queue = VecDeque::new();
        for s in sources {
            seen[s.index()] = true;
            queue.push_back(*s);
        }
        let mut edges = Vec::new();
        while let Some(n) = queue.pop_front() {
            // Edges in index order (petgraph lists them newest first), so paths follow the
            // authored order of transitions.
            edges.clear();
            edges.extend(
                g.edges_directed(n, dir)
                    .map(|e| (e.id(), e.source(), e.target())),
            );
            edges.sort_unstable_by_key(|e| e.0);
            for &(e, from, to) in &edges {
                let m = if dir == Direction::Outgoing { to } else { from };
                if seen[m.index()] {
                    continue;
                }
                seen[m.index()] = true;
                let phase = usize::from(matches!(g[from], Vertex::Phase(_)));
                t.via[m.index()] = Some(e);
                t.steps[m.index()] = t.steps[n.index()] + 1;
                t.phase_steps[m.index()] = t.phase_steps[n.index()] + phase;
                t.root[m.index()] = t.root[n.index()];
                queue.push_back(m);
            }
        }
        t
    }
}

/// The two trees every covering run is built from.
pub(super) struct Trees {
    /// Forward from the start: the shortest way in to every node.
    pub(super) into: Tree,
    /// Backward from the terminals: the shortest way out of every node.
    pub(super) out: Tree,
}

/// Steps a planned run shares with an earlier one: the earlier run (its position in the
/// plan) and the node where the shared steps meet the run's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Link {
    pub(super) run: usize,
    pub(super) node: NodeIndex,
}

/// One covering run, planned.
#[derive(Debug, Clone, Copy)]
pub(super) struct Planned {
    /// The edge the run is for.
    pub(super) edge: EdgeIndex,
    /// The way in up to this node is an earlier run's.
    pub(super) prefix: Option<Link>,
    /// The way out from this node is an earlier run's.
    pub(super) suffix: Option<Link>,
    /// The steps the run spells out (all of them, when it shares none).
    pub(super) written: usize,
}

/// What planning keeps from run to run: the edges taken and the nodes claimed.
pub(super) struct Claims<'t> {
    info: &'t Info,
    trees: &'t Trees,
    /// Whether some run takes each edge.
    pub(super) taken: Vec<bool>,
    /// The first run whose way in passed each node (its way in is then taken whole).
    way_in_by: Vec<Option<usize>>,
    /// The first run whose way out passed each node (likewise).
    way_out_by: Vec<Option<usize>>,
    /// The fewest steps worth sharing: shorter shared parts are spelled out.
    min_shared: usize,
}

impl<'t> Claims<'t> {
    pub(super) fn new(info: &'t Info, trees: &'t Trees, min_shared: usize) -> Self {
        let (n, e) = (info.graph.node_count(), info.graph.edge_count());
        Claims {
            info,
            trees,
            taken: vec![false; e],
            way_in_by: vec![None; n],
            way_out_by: vec![None; n],
            min_shared,
        }
    }

    /// Plan run number `run` (from 0) for edge `e`: take the edge, claim its way in and
    /// way out, and share what an earlier run already spelled out.
    pub(super) fn plan(&mut self, run: usize, e: EdgeIndex) -> Option<Planned> {
        let (u, v) = self.info.graph.edge_endpoints(e)?;
        self.taken[e.index()] = true;
        let prefix = self.claim(run, u, Direction::Outgoing);
        let suffix = self.claim(run, v, Direction::Incoming);
        let (into, out) = (&self.trees.into, &self.trees.out);
        let shared_in = prefix.map_or(0, |l| into.steps[l.node.index()]);
        let shared_out = suffix.map_or(0, |l| out.steps[l.node.index()]);
        Some(Planned {
            edge: e,
            prefix,
            suffix,
            written: (into.steps[u.index()] - shared_in) + 1 + (out.steps[v.index()] - shared_out),
        })
    }

    /// Claim the unclaimed nodes of the tree path from `n` (toward the start for the way
    /// in, `Outgoing`; toward a terminal for the way out, `Incoming`), taking their edges;
    /// the first node found claimed is where this run can share an earlier one's steps,
    /// when they are at least `min_shared`.
    fn claim(&mut self, run: usize, n: NodeIndex, dir: Direction) -> Option<Link> {
        let (tree, by) = match dir {
            Direction::Outgoing => (&self.trees.into, &mut self.way_in_by),
            Direction::Incoming => (&self.trees.out, &mut self.way_out_by),
        };
        let mut cur = n;
        loop {
            if let Some(earlier) = by[cur.index()] {
                return (tree.steps[cur.index()] >= self.min_shared).then_some(Link {
                    run: earlier,
                    node: cur,
                });
            }
            by[cur.index()] = Some(run);
            let e = tree.via[cur.index()]?;
            self.taken[e.index()] = true;
            let (from, to) = self.info.graph.edge_endpoints(e)?;
            cur = if dir == Direction::Outgoing { from } else { to };
        }
    }

    /// Take every edge of a run built in full (REAL/VEAL, where runs are not shared).
    pub(super) fn take_all(&mut self, edges: &[EdgeIndex]) {
        for e in edges {
            self.taken[e.index()] = true;
        }
    }
}

/// The edges of the tree path into `n`, after node `from` (from the source when `None`).
pub(super) fn way_in(
    info: &Info,
    into: &Tree,
    n: NodeIndex,
    from: Option<NodeIndex>,
) -> Vec<EdgeIndex> {
    let mut edges = tree_path(info, into, n, from, |(prev, _)| prev);
    edges.reverse();
    edges
}

/// The edges of the tree path out of `n`, up to node `to` (to a terminal when `None`).
pub(super) fn way_out(
    info: &Info,
    out: &Tree,
    n: NodeIndex,
    to: Option<NodeIndex>,
) -> Vec<EdgeIndex> {
    tree_path(info, out, n, to, |(_, next)| next)
}

/// The edges `tree` follows from `n` until `stop` (or the tree's end), each step going to
/// the end of the edge that `step` picks: backwards for [`way_in`], forwards for
/// [`way_out`].
fn tree_path(
    info: &Info,
    tree: &Tree,
    n: NodeIndex,
    stop: Option<NodeIndex>,
    step: impl Fn((NodeIndex, NodeIndex)) -> NodeIndex,
) -> Vec<EdgeIndex> {
    let mut edges = Vec::new();
    let mut cur = n;
    while Some(cur) != stop {
        let Some(e) = tree.via[cur.index()] else {
            break;
        };
        edges.push(e);
        match info.graph.edge_endpoints(e) {
            Some(ends) => cur = step(ends),
            None => break,
        }
    }
    edges
}
