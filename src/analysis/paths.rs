//! Test paths: the shortest run from the entry to each reachable terminal, and a small set
//! of entry-to-terminal runs that together take every reachable transition and both
//! decisions of every reachable checkpoint.
//!
//! Two breadth-first searches over `Info`'s graph do the work: one from the start (a
//! shortest way *to* every node) and one backwards from the terminals (a shortest way
//! *out of* every node). A covering run for edge `u → v` is the way to `u`, the edge, and
//! the way out of `v`; edges that an earlier run already took are skipped. Building the
//! runs costs O(V + E) plus their total length; no simple paths are enumerated.
//!
//! The runs follow the runtime's rules, as `walk` does (and `walk` replays every one):
//!
//! * REAL/VEAL: `eval` escalates only at the last of `max_attempts` evaluations, so a run
//!   that escalates first fails `max_attempts - 1` attempts (`eval`'s failing verdict,
//!   `act`, the first phase again). With `max_attempts: 1` no attempt is left for `act`,
//!   and the failing verdict and `act`'s transition are not coverable.
//! * Failure runs: what the error policy (or the harness default) does with a failure in
//!   the entry phase, the first phase every run executes (the policy is loop-wide, so the
//!   phase changes only the way in): a phase failure; a tool failure repeated until the
//!   policy gives up (`max_retries + 1` failures with `retry`); and with `retry`, a run
//!   whose tool call fails `max_retries` times and then succeeds, going on by the
//!   shortest run to `$end`.
//! * `fits_max_steps` compares a run with the effective limit: the stricter of the loop's
//!   `max_steps` and the runtime's ceiling.

use std::collections::VecDeque;

use petgraph::Direction;
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef as _;
use serde::Serialize;

use super::walk::{Script, walk};
use super::{Decision, PHASE_FAILURE, Runtime, Status, Step, TOOL_FAILURE, step_of};
use crate::ir::fixed::FixedLoop;
use crate::ir::{Spec, ToolAction};
use crate::valid::Info;
use crate::valid::graph::{Edge, Vertex};

/// The longest run `paths` builds (phase executions): a REAL/VEAL escalation that needs
/// more is reported as not coverable rather than spelled out.
pub const MAX_RUN_STEPS: u64 = 10_000;

/// The most retries a failure run spells out; with more, only the phase-failure run is
/// listed.
pub const MAX_LISTED_RETRIES: u64 = 1_000;

/// One run from the entry to a terminal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Path {
    /// The run status it ends with.
    pub status: Status,
    /// The terminal the run ends in (none for a failure run that the policy or the
    /// harness default ends).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminal: Option<String>,
    /// Phase executions (the steps `max_steps` counts).
    pub phase_steps: usize,
    /// Whether the run fits in the effective `max_steps` (the stricter of the loop's and
    /// the runtime's). A covering run that does not fit shows a transition that only a
    /// longer budget reaches.
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
    /// Failure runs: a phase failure and a tool failure in the entry phase, as the error
    /// policy (or the harness default) ends them.
    pub failures: Vec<Path>,
    /// How many transitions and decisions `cover` takes.
    pub covered: usize,
    /// Transitions and decisions in the loop's graph.
    pub total: usize,
}

/// Compute the shortest, covering and failure runs of a valid loop, under the runtime's
/// limits.
pub fn paths(spec: &Spec, info: &Info, rt: Runtime) -> Paths {
    let g = &info.graph;
    let Some(start) = info.start else {
        return Paths {
            shortest: Vec::new(),
            cover: Vec::new(),
            uncovered: Vec::new(),
            failures: Vec::new(),
            covered: 0,
            total: g.edge_count(),
        };
    };
    let ctx = Ctx {
        spec,
        info,
        rt,
        attempts: Attempts::of(spec, info, rt),
    };
    let into = bfs(info, &[start], Direction::Outgoing);
    let terminals: Vec<NodeIndex> = g
        .node_indices()
        .filter(|n| matches!(g[*n], Vertex::Terminal(_)))
        .collect();
    let out = bfs(info, &terminals, Direction::Incoming);

    let shortest = shortest_paths(&ctx, &into, &terminals);
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
        let reason = reason
            .map(str::to_owned)
            .or_else(|| ctx.attempts.as_ref().and_then(|a| a.never(e)));
        let mut edges = way_in(info, &into, u);
        edges.push(e);
        edges.extend(way_out(info, &out, v));
        let expanded = ctx.expand(edges);
        let (reason, edges) = match (reason, expanded) {
            (None, Some(edges)) => (None, edges),
            (reason, _) => (
                reason.or_else(|| ctx.attempts.as_ref().map(Attempts::too_long)),
                Vec::new(),
            ),
        };
        if let Some(reason) = reason {
            if let Some(step) = step_of(spec, info, e) {
                uncovered.push(Uncovered { step, reason });
            }
            continue;
        }
        for x in &edges {
            taken[x.index()] = true;
        }
        cover.push(path_of(&ctx, &edges));
    }
    let covered = taken.iter().filter(|t| **t).count();
    let failures = failure_runs(&ctx, &into, &shortest);
    Paths {
        shortest,
        cover,
        uncovered,
        failures,
        covered,
        total: g.edge_count(),
    }
}

/// What every run is computed with.
struct Ctx<'a> {
    spec: &'a Spec,
    info: &'a Info,
    rt: Runtime,
    attempts: Option<Attempts>,
}

/// REAL/VEAL: the edges of one failed attempt and the escalation.
struct Attempts {
    max: u64,
    /// The step limit a run must fit in (the effective one, at most [`MAX_RUN_STEPS`]).
    limit: u64,
    /// `eval`'s node.
    eval: NodeIndex,
    /// `eval`'s escalation edge.
    escalate: EdgeIndex,
    /// A failed attempt after an evaluation: the failing verdict, `act`, the first phase.
    again: Vec<EdgeIndex>,
}

impl Attempts {
    fn of(spec: &Spec, info: &Info, rt: Runtime) -> Option<Attempts> {
        let fixed = FixedLoop::of(spec.pattern)?;
        let edge = |from: &str, on: &str| {
            let n = *info.phase_nodes.get(from)?;
            info.graph
                .edges(n)
                .find(|e| matches!(e.weight(), Edge::Transition(t) if spec.graph.transitions[*t].on == on))
                .map(|e| e.id())
        };
        Some(Attempts {
            max: spec.effective_max_attempts(),
            limit: rt.effective_max_steps(info).min(MAX_RUN_STEPS),
            eval: *info.phase_nodes.get(fixed.eval)?,
            escalate: edge(fixed.eval, fixed.escalate)?,
            again: vec![
                edge(fixed.eval, fixed.retry.0)?,
                edge(fixed.act, "complete")?,
                edge(fixed.first, "complete")?,
            ],
        })
    }

    /// Why no run can take edge `e`: the failed attempt's edges, with one attempt; the
    /// escalation, when it takes more steps than a run may.
    fn never(&self, e: EdgeIndex) -> Option<String> {
        if self.max == 1 && self.again[..2].contains(&e) {
            return Some(
                "not reached: `max_attempts` is 1, so the first failed evaluation escalates"
                    .to_owned(),
            );
        }
        (e == self.escalate && self.escalation_steps() > self.limit).then(|| self.too_long())
    }

    /// The steps of a run that escalates: every attempt fails.
    fn escalation_steps(&self) -> u64 {
        crate::ir::fixed::max_steps_for(self.max)
    }

    /// Why a run that escalates is not listed: it does not fit.
    fn too_long(&self) -> String {
        format!(
            "not reached within {} steps: escalating after `max_attempts` {} takes {} (the run stops `limit_reached` first)",
            self.limit,
            self.max,
            self.escalation_steps()
        )
    }
}

impl Ctx<'_> {
    /// A run that escalates, given the failed attempts the escalation needs first; `None`
    /// when that run does not fit in the step limit.
    fn expand(&self, edges: Vec<EdgeIndex>) -> Option<Vec<EdgeIndex>> {
        let Some(a) = &self.attempts else {
            return Some(edges);
        };
        let Some(at) = edges.iter().position(|e| *e == a.escalate) else {
            return Some(edges);
        };
        if a.escalation_steps() > a.limit {
            return None;
        }
        let evals = edges
            .iter()
            .filter(|e| {
                self.info
                    .graph
                    .edge_endpoints(**e)
                    .is_some_and(|(u, _)| u == a.eval)
            })
            .count() as u64;
        let missing = usize::try_from(a.max.saturating_sub(evals)).unwrap_or(0);
        let mut out = edges[..at].to_vec();
        for _ in 0..missing {
            out.extend(&a.again);
        }
        out.extend(&edges[at..]);
        Some(out)
    }
}

/// The failure runs (module documentation), each computed by `walk` itself.
fn failure_runs(ctx: &Ctx, into: &[Option<EdgeIndex>], shortest: &[Path]) -> Vec<Path> {
    let spec = ctx.spec;
    let Some(&entry) = ctx.info.phase_nodes.get(&spec.graph.entry) else {
        return Vec::new();
    };
    let way_in = path_of(ctx, &way_in(ctx.info, into, entry));
    let tool = spec
        .bounds
        .error_policy
        .as_ref()
        .and_then(|p| p.tool_failure.as_ref());
    let retries = tool
        .filter(|t| t.action == ToolAction::Retry)
        .and_then(|t| t.max_retries);
    let tries = usize::try_from(retries.unwrap_or(0)).unwrap_or(usize::MAX);
    let tool_failures = |n: usize| vec![TOOL_FAILURE.to_owned(); n];
    let mut scripts = vec![vec![PHASE_FAILURE.to_owned()]];
    if retries.is_some_and(|r| r > MAX_LISTED_RETRIES) {
        return scripts_to_runs(ctx, &way_in, None, scripts);
    }
    scripts.push(tool_failures(tries.saturating_add(1)));
    let to_end = shortest.iter().find(|p| p.status == Status::Ended);
    if let (Some(_), Some(end)) = (retries, to_end) {
        let mut recovered = tool_failures(tries);
        recovered.extend(end.outcomes.iter().cloned());
        scripts.push(recovered);
    }
    scripts_to_runs(ctx, &way_in, to_end, scripts)
}

/// Walk each failure script (the way into the entry phase's checkpoints first, or a
/// recovered run's decisions) into a run.
fn scripts_to_runs(
    ctx: &Ctx,
    way_in: &Path,
    to_end: Option<&Path>,
    scripts: Vec<Vec<String>>,
) -> Vec<Path> {
    scripts
        .into_iter()
        .filter_map(|outcomes| {
            // A recovered run replays the shortest run's decisions; the others only pass
            // the entry's checkpoints.
            let decisions = if outcomes.last().is_some_and(|o| !o.starts_with('@')) {
                to_end.map(|p| p.decisions.clone()).unwrap_or_default()
            } else {
                way_in.decisions.clone()
            };
            let script = Script {
                outcomes,
                decisions,
            };
            walk(ctx.spec, ctx.info, &script, ctx.rt)
                .ok()
                .map(|run| path_of_run(ctx, script, run))
        })
        .collect()
}

/// A failure run from the script `walk` ran and its result.
fn path_of_run(ctx: &Ctx, script: Script, run: super::walk::Run) -> Path {
    let effective = ctx.rt.effective_max_steps(ctx.info);
    Path {
        status: run.status,
        terminal: run.terminal,
        phase_steps: run.phase_steps,
        fits_max_steps: u64::try_from(run.phase_steps).is_ok_and(|n| n <= effective),
        steps: run.steps,
        walk_args: walk_args(&script.outcomes, &script.decisions),
        outcomes: script.outcomes,
        decisions: script.decisions,
    }
}

/// The arguments that make `loopconv walk FILE` replay a script.
fn walk_args(outcomes: &[String], decisions: &[(String, Decision)]) -> Vec<String> {
    let mut args = vec!["--outcomes".to_owned(), outcomes.join(",")];
    for (id, d) in decisions {
        args.push(format!("--{}", d.as_str()));
        args.push(id.clone());
    }
    args
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

fn shortest_paths(ctx: &Ctx, into: &[Option<EdgeIndex>], terminals: &[NodeIndex]) -> Vec<Path> {
    terminals
        .iter()
        .filter(|t| into[t.index()].is_some())
        .filter_map(|t| ctx.expand(way_in(ctx.info, into, *t)))
        .map(|edges| path_of(ctx, &edges))
        .collect()
}

/// A run from its edges.
fn path_of(ctx: &Ctx, edges: &[EdgeIndex]) -> Path {
    let (spec, info) = (ctx.spec, ctx.info);
    let steps: Vec<Step> = edges
        .iter()
        .filter_map(|e| step_of(spec, info, *e))
        .collect();
    let mut outcomes = Vec::new();
    let mut decisions = Vec::new();
    for s in &steps {
        match s {
            Step::Phase { outcome, .. } => outcomes.push(outcome.clone()),
            Step::Checkpoint {
                checkpoint,
                decision,
                ..
            } => decisions.push((checkpoint.clone(), *decision)),
            Step::Failure { .. } => {}
        }
    }
    let end = edges
        .last()
        .and_then(|e| info.graph.edge_endpoints(*e))
        .map(|(_, to)| &info.graph[to]);
    let (status, terminal) = match end {
        Some(Vertex::Terminal(t)) => (Status::of_terminal(*t), Some(t.as_str().to_owned())),
        // An empty run (no edge): only for a way into a phase, never returned as a run.
        _ => (Status::Ended, None),
    };
    let effective = ctx.rt.effective_max_steps(info);
    Path {
        status,
        terminal,
        fits_max_steps: u64::try_from(outcomes.len()).is_ok_and(|n| n <= effective),
        phase_steps: outcomes.len(),
        walk_args: walk_args(&outcomes, &decisions),
        steps,
        outcomes,
        decisions,
    }
}
