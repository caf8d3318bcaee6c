//! Test paths: the shortest run from the entry to each reachable terminal, and a small set
//! of entry-to-terminal runs that together take every reachable transition and both
//! decisions of every reachable checkpoint.
//!
//! Two breadth-first searches over `Info`'s graph do the work: one from the start (a
//! shortest way *to* every node) and one backwards from the terminals (a shortest way
//! *out of* every node). A covering run for edge `u → v` is the way to `u`, the edge, and
//! the way out of `v`; edges that an earlier run already took are skipped. No simple paths
//! are enumerated.
//!
//! The runs are planned first ([`plan()`]: O(V + E) for all of them, whatever their length)
//! and built one at a time as they are read ([`Listing::cover`]), so a caller can write
//! each as it comes and hold none. A run whose way in (or out) begins (or ends) as an
//! earlier run's does, over at least [`SHARED_MIN_STEPS`] steps, shares them
//! ([`Path::shared_prefix`], [`Path::shared_suffix`]) and spells out only its own: on a
//! chain of 10,000 phases the runs hold about 10^8 steps, and their own steps about 10^5.
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
//!   shortest run to `$end`. A phase with `access.tools: false` calls no tool: when the
//!   entry has it, the tool failures happen in the first phase of the shortest run to
//!   `$end` that calls tools (none, when no phase of it does).
//! * `fits_max_steps` compares a run with the effective limit: the stricter of the loop's
//!   `max_steps` and the runtime's ceiling.

mod plan;

use petgraph::Direction;
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef as _;
use serde::Serialize;
use serde::ser::{SerializeStruct as _, Serializer};

use self::plan::{Claims, Planned, Tree, Trees, way_in, way_out};
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

/// The fewest steps a covering run shares with an earlier one ([`Path::shared_prefix`]):
/// fewer are spelled out, so the runs of a small loop read in full.
pub const SHARED_MIN_STEPS: usize = 10;

/// One run from the entry to a terminal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Path {
    /// The run status it ends with.
    pub status: Status,
    /// The terminal the run ends in (none for a failure run that the policy or the
    /// harness default ends).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminal: Option<String>,
    /// Phase executions (the steps `max_steps` counts), of the whole run.
    pub phase_steps: usize,
    /// Whether the run fits in the effective `max_steps` (the stricter of the loop's and
    /// the runtime's). A covering run that does not fit shows a transition that only a
    /// longer budget reaches.
    pub fits_max_steps: bool,
    /// A covering run only: its first steps are an earlier covering run's first steps,
    /// not repeated in `steps`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_prefix: Option<Shared>,
    /// A covering run only: its last steps are an earlier covering run's last steps, not
    /// repeated in `steps`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_suffix: Option<Shared>,
    /// The run, step by step (without the shared steps).
    pub steps: Vec<Step>,
    /// The outcomes in order: `walk --outcomes` replays them (those of `steps`).
    pub outcomes: Vec<String>,
    /// The checkpoint decisions in order (those of `steps`).
    pub decisions: Vec<(String, Decision)>,
    /// The arguments that make `loopconv walk FILE` replay this run (none when it shares
    /// steps: they are the shared runs' and its own, in order).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub walk_args: Vec<String>,
}

/// Steps a covering run shares with an earlier covering run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shared {
    /// The earlier run, numbered from 1 in listing order (`cover[run - 1]`).
    pub run: usize,
    /// How many steps: the first ones of both runs (a shared prefix) or the last ones (a
    /// shared suffix).
    pub steps: usize,
    /// Where the shared steps meet the run's own: the phase or checkpoint its first own
    /// step leaves (a prefix), or the one its last own step reaches (a suffix). It is
    /// among the steps the earlier run spells out: the first such (a prefix) or the last
    /// (a suffix).
    #[serde(skip)]
    pub at: Junction,
}

/// A node of the loop's graph where a run can meet another: a phase or a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Junction {
    /// A phase, by id.
    Phase(String),
    /// A checkpoint, by id.
    Checkpoint(String),
}

/// Something no run from the entry to a terminal can take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Uncovered {
    /// The step that cannot be covered.
    pub step: Step,
    /// Why.
    pub reason: String,
}

/// Covering runs planned but not listed, because listing them would pass the bound on the
/// steps listed ([`Options::max_steps_listed`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Omitted {
    /// Runs left out (always the last ones found).
    pub runs: usize,
    /// The steps they would spell out.
    pub steps: usize,
    /// The bound that lists every covering run.
    pub bound_for_all: usize,
}

/// The answer of `loopconv paths`, every listed run built.
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
    /// Covering runs left out by the bound on the steps listed (none from [`paths`]).
    pub omitted: Omitted,
}

/// How `paths` lists the covering runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// List covering runs only while the steps they spell out add up to at most this; the
    /// runs after that are still planned (every transition they take counts as covered)
    /// but only counted, in [`Omitted`].
    pub max_steps_listed: usize,
    /// Share a run's first or last steps with an earlier run's only when they are at
    /// least this many ([`SHARED_MIN_STEPS`]; `usize::MAX` spells every run out).
    pub shared_min_steps: usize,
}

impl Default for Options {
    /// Every run listed, sharing from [`SHARED_MIN_STEPS`].
    fn default() -> Self {
        Options {
            max_steps_listed: usize::MAX,
            shared_min_steps: SHARED_MIN_STEPS,
        }
    }
}

/// Compute the shortest, covering and failure runs of a valid loop, under the runtime's
/// limits, listing every covering run.
pub fn paths(spec: &Spec, info: &Info, rt: Runtime) -> Paths {
    plan(spec, info, rt, Options::default()).into_paths()
}

/// The answer of `loopconv paths` with the covering runs planned, each built only when
/// [`Listing::cover`] reaches it. It serialises as [`Paths`] does, building and writing
/// one covering run at a time.
pub struct Listing<'a> {
    ctx: Ctx<'a>,
    trees: Trees,
    /// Every covering run, listed or not.
    runs: Vec<Planned>,
    /// How many of `runs` are listed.
    listed: usize,
    /// The shortest run to each reachable terminal (`$end`, `$abort`, `$handoff` order).
    pub shortest: Vec<Path>,
    /// Transitions and decisions no run can take (unreachable, or no terminal after them).
    pub uncovered: Vec<Uncovered>,
    /// Failure runs, as in [`Paths::failures`].
    pub failures: Vec<Path>,
    /// How many transitions and decisions the covering runs take.
    pub covered: usize,
    /// Transitions and decisions in the loop's graph.
    pub total: usize,
    /// Covering runs left out by [`Options::max_steps_listed`].
    pub omitted: Omitted,
}

/// Plan the shortest, covering and failure runs of a valid loop, under the runtime's
/// limits: time and memory O(V + E) plus the shortest and failure runs' length, whatever
/// the covering runs' length.
pub fn plan<'a>(spec: &'a Spec, info: &'a Info, rt: Runtime, options: Options) -> Listing<'a> {
    let g = &info.graph;
    let ctx = Ctx {
        spec,
        info,
        rt,
        attempts: Attempts::of(spec, info, rt),
    };
    let terminals: Vec<NodeIndex> = g
        .node_indices()
        .filter(|n| matches!(g[*n], Vertex::Terminal(_)))
        .collect();
    let sources: Vec<NodeIndex> = info.start.into_iter().collect();
    let trees = Trees {
        into: Tree::search(info, &sources, Direction::Outgoing),
        out: Tree::search(info, &terminals, Direction::Incoming),
    };
    let mut listing = Listing {
        shortest: Vec::new(),
        uncovered: Vec::new(),
        failures: Vec::new(),
        covered: 0,
        total: g.edge_count(),
        omitted: Omitted::default(),
        runs: Vec::new(),
        listed: 0,
        ctx,
        trees,
    };
    if let Some(start) = info.start {
        listing.plan_cover(start, options);
        listing.shortest = shortest_paths(&listing.ctx, &listing.trees.into, &terminals);
        listing.failures = failure_runs(&listing.ctx, &listing.trees, &listing.shortest);
    }
    listing
}

impl Listing<'_> {
    /// Plan a covering run for each edge no earlier run took, or say why none can take it;
    /// then list runs while their own steps fit in the bound.
    fn plan_cover(&mut self, start: NodeIndex, options: Options) {
        let (ctx, trees) = (&self.ctx, &self.trees);
        let g = &ctx.info.graph;
        let mut claims = Claims::new(ctx.info, trees, options.shared_min_steps);
        for e in g.edge_indices() {
            if claims.taken[e.index()] {
                continue;
            }
            let planned = match ctx.why_not(trees, start, e) {
                Some(reason) => Err(reason),
                None => ctx.plan_run(&mut claims, trees, self.runs.len(), e),
            };
            match planned {
                Ok(p) => self.runs.push(p),
                Err(reason) => {
                    if let Some(step) = step_of(ctx.spec, ctx.info, e) {
                        self.uncovered.push(Uncovered { step, reason });
                    }
                }
            }
        }
        self.covered = claims.taken.iter().filter(|t| **t).count();
        self.list(options.max_steps_listed);
    }

    /// List runs in order while their own steps add up to at most `bound`; count the rest.
    fn list(&mut self, bound: usize) {
        let mut listed_steps = 0usize;
        for p in &self.runs {
            if self.omitted.runs == 0 && listed_steps.saturating_add(p.written) <= bound {
                listed_steps += p.written;
                self.listed += 1;
            } else {
                self.omitted.runs += 1;
                self.omitted.steps = self.omitted.steps.saturating_add(p.written);
            }
        }
        if self.omitted.runs > 0 {
            self.omitted.bound_for_all = listed_steps.saturating_add(self.omitted.steps);
        }
    }

    /// How many covering runs there are, listed or not.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// The listed covering runs, each built when it is reached.
    pub fn cover(&self) -> impl ExactSizeIterator<Item = Path> + '_ {
        self.runs[..self.listed]
            .iter()
            .map(|p| self.ctx.build_run(&self.trees, p))
    }

    /// Every listed run built.
    pub fn into_paths(self) -> Paths {
        Paths {
            cover: self.cover().collect(),
            shortest: self.shortest,
            uncovered: self.uncovered,
            failures: self.failures,
            covered: self.covered,
            total: self.total,
            omitted: self.omitted,
        }
    }
}

/// The listed covering runs as a JSON array, built one at a time as it is written.
struct CoverSeq<'l, 'a>(&'l Listing<'a>);

impl Serialize for CoverSeq<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.cover())
    }
}

impl Serialize for Listing<'_> {
    /// As [`Paths`] (the same fields in the same order).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Paths", 7)?;
        st.serialize_field("shortest", &self.shortest)?;
        st.serialize_field("cover", &CoverSeq(self))?;
        st.serialize_field("uncovered", &self.uncovered)?;
        st.serialize_field("failures", &self.failures)?;
        st.serialize_field("covered", &self.covered)?;
        st.serialize_field("total", &self.total)?;
        st.serialize_field("omitted", &self.omitted)?;
        st.end()
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
            let n = info.phase_node(&spec.graph, from)?;
            info.graph
                .edges(n)
                .find(|e| matches!(e.weight(), Edge::Transition(t) if spec.graph.transitions[*t].on == on))
                .map(|e| e.id())
        };
        Some(Attempts {
            max: spec.effective_max_attempts(),
            limit: rt.effective_max_steps(info).min(MAX_RUN_STEPS),
            eval: info.phase_node(&spec.graph, fixed.eval)?,
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

impl Ctx<'_> {
    /// Why no run can take edge `e` (`None` when one can).
    fn why_not(&self, trees: &Trees, start: NodeIndex, e: EdgeIndex) -> Option<String> {
        let g = &self.info.graph;
        let (u, v) = g.edge_endpoints(e)?;
        let reason = if u != start && trees.into.via[u.index()].is_none() {
            Some("its source cannot be reached from the entry")
        } else if !matches!(g[v], Vertex::Terminal(_)) && trees.out.via[v.index()].is_none() {
            Some("no terminal can be reached after it")
        } else {
            None
        };
        reason
            .map(str::to_owned)
            .or_else(|| self.attempts.as_ref().and_then(|a| a.never(e)))
    }

    /// Plan run number `run` for edge `e`: from the trees, sharing steps with earlier
    /// runs; REAL/VEAL runs (a few short ones) built in full, with the failed attempts an
    /// escalation needs, or the reason they do not fit.
    fn plan_run(
        &self,
        claims: &mut Claims,
        trees: &Trees,
        run: usize,
        e: EdgeIndex,
    ) -> Result<Planned, String> {
        let Some(a) = &self.attempts else {
            return claims
                .plan(run, e)
                .ok_or_else(|| "internal: an edge without endpoints".to_owned());
        };
        let edges = self
            .expand(self.tree_run(trees, e))
            .ok_or_else(|| a.too_long())?;
        claims.take_all(&edges);
        Ok(Planned {
            edge: e,
            prefix: None,
            suffix: None,
            written: edges.len(),
        })
    }

    /// The whole tree run for edge `u → v`: the way in to `u`, the edge, the way out of `v`.
    fn tree_run(&self, trees: &Trees, e: EdgeIndex) -> Vec<EdgeIndex> {
        let Some((u, v)) = self.info.graph.edge_endpoints(e) else {
            return Vec::new();
        };
        let mut edges = way_in(self.info, &trees.into, u, None);
        edges.push(e);
        edges.extend(way_out(self.info, &trees.out, v, None));
        edges
    }

    /// Build a planned covering run: its own steps, and the whole run's status, terminal
    /// and phase steps.
    fn build_run(&self, trees: &Trees, p: &Planned) -> Path {
        let g = &self.info.graph;
        let Some((u, v)) = g.edge_endpoints(p.edge) else {
            return path_of(self, &[]);
        };
        if p.prefix.is_none() && p.suffix.is_none() {
            let edges = self.tree_run(trees, p.edge);
            return path_of(self, &self.expand(edges).unwrap_or_default());
        }
        let mut edges = way_in(self.info, &trees.into, u, p.prefix.map(|l| l.node));
        edges.push(p.edge);
        edges.extend(way_out(self.info, &trees.out, v, p.suffix.map(|l| l.node)));
        let mut run = path_of(self, &edges);
        let end = &g[trees.out.root[v.index()]];
        (run.status, run.terminal) = end_of(Some(end));
        run.phase_steps = trees.into.phase_steps[u.index()]
            + usize::from(matches!(g[u], Vertex::Phase(_)))
            + trees.out.phase_steps[v.index()];
        run.fits_max_steps = self.fits(run.phase_steps);
        run.walk_args.clear();
        let shared = |l: plan::Link, steps: &[usize]| Shared {
            run: l.run + 1,
            steps: steps[l.node.index()],
            at: self.junction(l.node),
        };
        run.shared_prefix = p.prefix.map(|l| shared(l, &trees.into.steps));
        run.shared_suffix = p.suffix.map(|l| shared(l, &trees.out.steps));
        run
    }

    /// The phase or checkpoint at node `n`.
    fn junction(&self, n: NodeIndex) -> Junction {
        let name = super::node_name(self.spec, self.info, n);
        match self.info.graph[n] {
            Vertex::Gate(_) => Junction::Checkpoint(name),
            _ => Junction::Phase(name),
        }
    }

    /// Whether `phase_steps` fit in the effective step limit.
    fn fits(&self, phase_steps: usize) -> bool {
        u64::try_from(phase_steps).is_ok_and(|n| n <= self.rt.effective_max_steps(self.info))
    }
}

/// The failure runs (module documentation), each computed by `walk` itself.
fn failure_runs(ctx: &Ctx, trees: &Trees, shortest: &[Path]) -> Vec<Path> {
    let into = &trees.into;
    let spec = ctx.spec;
    let Some(entry) = ctx.info.phase_node(&spec.graph, &spec.graph.entry) else {
        return Vec::new();
    };
    let way_in = path_of(ctx, &way_in(ctx.info, into, entry, None));
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
    let mut scripts = vec![Script {
        outcomes: vec![PHASE_FAILURE.to_owned()],
        decisions: way_in.decisions.clone(),
    }];
    if retries.is_some_and(|r| r > MAX_LISTED_RETRIES) {
        return scripts_to_runs(ctx, scripts);
    }
    let to_end = shortest.iter().find(|p| p.status == Status::Ended);
    // A tool fails in the first phase that calls tools: the entry, unless its access says
    // `tools: false` (it calls none); then the nearest phase from the entry that does.
    let (before, after) = if calls_tools(ctx, &spec.graph.entry) {
        let after = to_end.map(|end| (end.outcomes.clone(), end.decisions.clone()));
        ((Vec::new(), way_in.decisions.clone()), after)
    } else {
        let Some(n) = nearest_tool_phase(ctx, into) else {
            return scripts_to_runs(ctx, scripts);
        };
        let there = path_of(ctx, &self::way_in(ctx.info, into, n, None));
        let on = path_of(ctx, &way_out(ctx.info, &trees.out, n, None));
        let after = (on.outcomes, on.decisions);
        ((there.outcomes, there.decisions), Some(after))
    };
    let script = |failures: usize, after: Option<&Steps>| {
        let mut outcomes = before.0.clone();
        outcomes.extend(tool_failures(failures));
        let mut decisions = before.1.clone();
        if let Some((o, d)) = after {
            outcomes.extend(o.iter().cloned());
            decisions.extend(d.iter().cloned());
        }
        Script {
            outcomes,
            decisions,
        }
    };
    scripts.push(script(tries.saturating_add(1), None));
    if let (Some(_), Some(after)) = (retries, &after) {
        if calls_tools(ctx, &spec.graph.entry) {
            // The entry's recovered run goes on by the shortest run to `$end`, which
            // starts there (its outcomes and decisions are the whole run's).
            scripts.push(Script {
                outcomes: tool_failures(tries)
                    .into_iter()
                    .chain(after.0.iter().cloned())
                    .collect(),
                decisions: after.1.clone(),
            });
        } else {
            scripts.push(script(tries, Some(after)));
        }
    }
    scripts_to_runs(ctx, scripts)
}

/// The outcomes and the decisions of part of a run.
type Steps = (Vec<String>, Vec<(String, Decision)>);

/// Whether phase `id` calls tools: its access does not say `tools: false`.
fn calls_tools(ctx: &Ctx, id: &str) -> bool {
    (ctx.spec.phase(id))
        .and_then(|p| p.access.as_ref())
        .and_then(|a| a.tools)
        != Some(false)
}

/// The phase nearest to the start (fewest steps in, then the first declared) that calls
/// tools, reached from the start.
fn nearest_tool_phase(ctx: &Ctx, into: &Tree) -> Option<NodeIndex> {
    let g = &ctx.info.graph;
    (g.node_indices())
        .filter_map(|n| match g[n] {
            Vertex::Phase(i) if into.via[n.index()].is_some() => Some((n, i)),
            _ => None,
        })
        .filter(|(_, i)| calls_tools(ctx, &ctx.spec.graph.phases[*i].id))
        .min_by_key(|(n, i)| (into.steps[n.index()], *i))
        .map(|(n, _)| n)
}

/// Walk each failure script into a run.
fn scripts_to_runs(ctx: &Ctx, scripts: Vec<Script>) -> Vec<Path> {
    scripts
        .into_iter()
        .filter_map(|script| {
            walk(ctx.spec, ctx.info, &script, ctx.rt)
                .ok()
                .map(|run| path_of_run(ctx, script, run))
        })
        .collect()
}

/// A failure run from the script `walk` ran and its result: the decisions are those the
/// run took.
fn path_of_run(ctx: &Ctx, mut script: Script, run: super::walk::Run) -> Path {
    script.decisions = (run.steps.iter())
        .filter_map(|s| match s {
            Step::Checkpoint {
                checkpoint,
                decision,
                ..
            } => Some((checkpoint.clone(), *decision)),
            _ => None,
        })
        .collect();
    Path {
        status: run.status,
        terminal: run.terminal,
        phase_steps: run.phase_steps,
        fits_max_steps: ctx.fits(run.phase_steps),
        shared_prefix: None,
        shared_suffix: None,
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

fn shortest_paths(ctx: &Ctx, into: &Tree, terminals: &[NodeIndex]) -> Vec<Path> {
    terminals
        .iter()
        .filter(|t| into.via[t.index()].is_some())
        .filter_map(|t| ctx.expand(way_in(ctx.info, into, *t, None)))
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
    let (status, terminal) = end_of(end);
    Path {
        status,
        terminal,
        fits_max_steps: ctx.fits(outcomes.len()),
        phase_steps: outcomes.len(),
        shared_prefix: None,
        shared_suffix: None,
        walk_args: walk_args(&outcomes, &decisions),
        steps,
        outcomes,
        decisions,
    }
}

/// The status and terminal of a run that ends at node `end`.
fn end_of(end: Option<&Vertex>) -> (Status, Option<String>) {
    match end {
        Some(Vertex::Terminal(t)) => (Status::of_terminal(*t), Some(t.as_str().to_owned())),
        // An empty run (no edge): only for a way into a phase, never returned as a run.
        _ => (Status::Ended, None),
    }
}
