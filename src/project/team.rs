//! multi-agent-spec teams (formats.md 3.1): the workflow's steps, the roster and the
//! orchestrator, read from the located tree, with the rules that need the team alone.

use std::collections::HashMap;

use crate::diag::{Code, Diagnostic};
use crate::pipeline::Loaded;
use crate::tree::{Document, Node, Value};

use super::At;

/// The workflow types of both published team schemas.
const WORKFLOW_TYPES: [&str; 10] = [
    "sequential",
    "parallel",
    "dag",
    "orchestrated",
    "chain",
    "scatter",
    "graph",
    "crew",
    "swarm",
    "council",
];

/// A team, as the project's rules see it.
#[derive(Debug, Clone)]
pub struct Team {
    /// Its `name`.
    pub name: Option<String>,
    /// Its workflow type.
    pub workflow_type: Option<String>,
    /// The roster (`agents`), each located.
    pub roster: Vec<(String, At)>,
    /// The orchestrator.
    pub orchestrator: Option<(String, At)>,
    /// The workflow's steps, in order.
    pub steps: Vec<Step>,
}

/// One workflow step.
#[derive(Debug, Clone)]
pub struct Step {
    /// Its `name`.
    pub name: Option<String>,
    /// The agent it runs.
    pub agent: Option<(String, At)>,
    /// The loop it runs.
    pub loop_name: Option<(String, At)>,
    /// The steps it depends on.
    pub depends_on: Vec<(String, At)>,
}

/// Read a team from its tree (kept by the pipeline for a document that uses loops); its own
/// problems go into `loaded.diags`, located.
pub fn read(loaded: &mut Loaded) -> Option<Team> {
    let doc = loaded.doc.as_ref()?;
    let file = loaded.diags.file().to_owned();
    let mut r = Reader {
        file: &file,
        doc,
        diags: Vec::new(),
    };
    let team = r.team(doc.root());
    local_rules(&team, &mut r.diags);
    for d in r.diags {
        loaded.diags.push(d);
    }
    loaded.locate();
    loaded.diags.sort();
    Some(team)
}

/// Reads the fields of a team, reporting each one of the wrong type.
struct Reader<'a> {
    file: &'a str,
    doc: &'a Document,
    diags: Vec<Diagnostic>,
}

impl Reader<'_> {
    fn team(&mut self, root: &Node) -> Team {
        let name = self.string(root, "", "name");
        if root.get("name").is_none() {
            self.diags.push(
                Diagnostic::new(Code::MissingField, "the team has no `name`")
                    .with_help("add `\"name\": \"<team>\"`")
                    .at(""),
            );
        }
        let roster = self.strings(root, "", "agents");
        let orchestrator = self.located_string(root, "", "orchestrator");
        let (workflow_type, steps) = match root.get("workflow") {
            Some(w) if w.members().is_some() => self.workflow(w),
            Some(w) => {
                self.wrong_type("/workflow", "`workflow`", "an object", w);
                (None, Vec::new())
            }
            None => (None, Vec::new()),
        };
        if let Some(ty) = &workflow_type
            && let Some((what, help)) = prerequisite(root, ty)
        {
            self.diags.push(
                Diagnostic::new(Code::TeamPrerequisite, what)
                    .with_help(help)
                    .at("/workflow/type"),
            );
        }
        Team {
            name,
            workflow_type,
            roster,
            orchestrator,
            steps,
        }
    }

    fn workflow(&mut self, w: &Node) -> (Option<String>, Vec<Step>) {
        let ty = self.string(w, "/workflow", "type");
        if let Some(t) = &ty
            && !WORKFLOW_TYPES.contains(&t.as_str())
        {
            self.diags.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    format!(
                        "`workflow.type` must be one of {}, found `{t}`",
                        type_list()
                    ),
                )
                .at("/workflow/type"),
            );
        }
        let steps = match w.get("steps").map(|n| &n.value) {
            Some(Value::Array(items)) => (items.iter().enumerate())
                .filter_map(|(i, s)| self.step(s, &format!("/workflow/steps/{i}")))
                .collect(),
            Some(_) => {
                let node = w.get("steps").unwrap_or(w);
                self.wrong_type("/workflow/steps", "`workflow.steps`", "an array", node);
                Vec::new()
            }
            None => Vec::new(),
        };
        (ty, steps)
    }

    fn step(&mut self, s: &Node, at: &str) -> Option<Step> {
        if s.members().is_none() {
            self.wrong_type(at, "a workflow step", "an object", s);
            return None;
        }
        if s.get("name").is_none() {
            self.diags.push(
                Diagnostic::new(Code::MissingField, "the workflow step has no `name`").at(at),
            );
        }
        self.ports(s, at);
        Some(Step {
            name: self.string(s, at, "name"),
            agent: self.located_string(s, at, "agent"),
            loop_name: self.located_string(s, at, "loop"),
            depends_on: self.strings(s, at, "depends_on"),
        })
    }

    /// `W009`: `outputs` written as strings, `inputs` as a map (the upstream example team).
    fn ports(&mut self, s: &Node, at: &str) {
        if let Some(Value::Object(_)) = s.get("inputs").map(|n| &n.value) {
            self.diags.push(port_shape(
                &format!("{at}/inputs"),
                "`inputs` is a map of names to sources",
            ));
        }
        if let Some(Value::Array(items)) = s.get("outputs").map(|n| &n.value)
            && let Some(i) = items.iter().position(|o| o.as_str().is_some())
        {
            self.diags.push(port_shape(
                &format!("{at}/outputs/{i}"),
                "`outputs` holds strings",
            ));
        }
    }

    /// The string at `key` of `node`, reporting another type.
    fn string(&mut self, node: &Node, at: &str, key: &str) -> Option<String> {
        self.located_string(node, at, key).map(|(s, _)| s)
    }

    fn located_string(&mut self, node: &Node, at: &str, key: &str) -> Option<(String, At)> {
        let v = node.get(key)?;
        let pointer = format!("{at}/{}", crate::pointer::escape(key));
        match v.as_str() {
            Some(s) => Some((s.to_owned(), At::of(self.file, self.doc, &pointer, false))),
            None => {
                self.wrong_type(&pointer, &format!("`{key}`"), "a string", v);
                None
            }
        }
    }

    /// The strings of the array at `key`, each located, reporting another type.
    fn strings(&mut self, node: &Node, at: &str, key: &str) -> Vec<(String, At)> {
        let Some(v) = node.get(key) else {
            return Vec::new();
        };
        let pointer = format!("{at}/{}", crate::pointer::escape(key));
        let Value::Array(items) = &v.value else {
            self.wrong_type(&pointer, &format!("`{key}`"), "an array of strings", v);
            return Vec::new();
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let p = format!("{pointer}/{i}");
            match item.as_str() {
                Some(s) => out.push((s.to_owned(), At::of(self.file, self.doc, &p, false))),
                None => self.wrong_type(&p, &format!("an item of `{key}`"), "a string", item),
            }
        }
        out
    }

    fn wrong_type(&mut self, pointer: &str, what: &str, want: &str, found: &Node) {
        self.diags.push(
            Diagnostic::new(
                Code::WrongType,
                format!("{what} must be {want}, found {}", found.value.type_name()),
            )
            .at(pointer),
        );
    }
}

fn type_list() -> String {
    let names: Vec<String> = WORKFLOW_TYPES.iter().map(|t| format!("`{t}`")).collect();
    crate::text::list(&names, "or")
}

fn port_shape(pointer: &str, what: &str) -> Diagnostic {
    Diagnostic::new(
        Code::TeamPortShape,
        format!("{what}, not Port objects: the team schema's Port definition and the Go SDK's typed ports reject it"),
    )
    .with_help("write each port as an object: `{\"name\": \"report\", \"type\": \"string\"}`, and an input's source as `\"from\": \"step.output\"`")
    .at(pointer)
}

/// The rules that need the team alone.
fn local_rules(team: &Team, diags: &mut Vec<Diagnostic>) {
    agent_xor_loop(team, diags);
    unique_step_names(team, diags);
    known_dependencies(team, diags);
    no_dependency_cycle(team, diags);
}

/// `W002`: exactly one of `agent` and `loop` per step.
fn agent_xor_loop(team: &Team, diags: &mut Vec<Diagnostic>) {
    for (i, s) in team.steps.iter().enumerate() {
        let name = s.name.as_deref().unwrap_or("?");
        match (&s.agent, &s.loop_name) {
            (Some(_), Some((_, at))) => diags.push(
                at.place(
                    Diagnostic::new(
                        Code::StepAgentAndLoop,
                        format!(
                            "step `{name}` has both `agent` and `loop`; they are mutually exclusive"
                        ),
                    )
                    .with_help(
                        "keep `agent` for one agent's turn of work, or `loop` for a bounded loop",
                    ),
                ),
            ),
            (None, None) if s.name.is_some() => diags.push(
                Diagnostic::new(
                    Code::StepAgentAndLoop,
                    format!("step `{name}` has neither `agent` nor `loop`: it runs nothing"),
                )
                .with_help("add `\"agent\": \"<agent>\"` or `\"loop\": \"<loop name>\"`")
                .at(format!("/workflow/steps/{i}")),
            ),
            _ => {}
        }
    }
}

/// `W010`: step names are unique.
fn unique_step_names(team: &Team, diags: &mut Vec<Diagnostic>) {
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (i, s) in team.steps.iter().enumerate() {
        let Some(name) = s.name.as_deref() else {
            continue;
        };
        if let Some(&j) = first.get(name) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateStepName,
                    format!("two steps are named `{name}`"),
                )
                .with_label(format!("/workflow/steps/{j}/name"), "first named here")
                .at(format!("/workflow/steps/{i}/name")),
            );
        } else {
            first.insert(name, i);
        }
    }
}

/// `W003`: `depends_on` names steps.
fn known_dependencies(team: &Team, diags: &mut Vec<Diagnostic>) {
    let names: Vec<&str> = team
        .steps
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    for s in &team.steps {
        for (dep, at) in &s.depends_on {
            if names.contains(&dep.as_str()) {
                continue;
            }
            let mut d = Diagnostic::new(
                Code::UnknownStepDependency,
                format!("`depends_on` names `{dep}`, which is no step of this workflow"),
            );
            if let Some(close) = super::words::closest(dep, names.iter().copied()) {
                d = d.with_suggestion(at.replace_with(close));
            }
            diags.push(at.place(d));
        }
    }
}

/// `W004`: the dependencies form no cycle (each cycle reported once, at its first step).
fn no_dependency_cycle(team: &Team, diags: &mut Vec<Diagnostic>) {
    let index: HashMap<&str, usize> = (team.steps.iter().enumerate())
        .filter_map(|(i, s)| Some((s.name.as_deref()?, i)))
        .collect();
    let edges: Vec<Vec<usize>> = (team.steps.iter())
        .map(|s| {
            s.depends_on
                .iter()
                .filter_map(|(d, _)| index.get(d.as_str()).copied())
                .collect()
        })
        .collect();
    for cycle in cycles(&edges) {
        let names: Vec<String> = (cycle.iter())
            .map(|&i| format!("`{}`", team.steps[i].name.as_deref().unwrap_or("?")))
            .collect();
        let first = cycle[0];
        diags.push(
            Diagnostic::new(
                Code::StepDependencyCycle,
                format!("steps depend on each other in a cycle: {} -> {}", names.join(" -> "), names[0]),
            )
            .with_help("remove one dependency of the cycle: these steps wait for each other and never start")
            .at(format!("/workflow/steps/{first}/depends_on")),
        );
    }
}

/// `W008`: what `crew`, `swarm` and `council` need (`Team.Validate`), or `None`.
fn prerequisite(root: &Node, ty: &str) -> Option<(&'static str, &'static str)> {
    let collab = root.get("collaboration");
    let has = |k: &str| {
        collab
            .and_then(|c| c.get(k))
            .is_some_and(|v| !matches!(v.value, Value::Null))
    };
    let self_claim = matches!(
        root.get("self_claim").map(|n| &n.value),
        Some(Value::Bool(true))
    );
    match ty {
        "crew" if !has("lead") && root.get("orchestrator").is_none() => Some((
            "a `crew` workflow needs a lead",
            "set `collaboration.lead` or `orchestrator`",
        )),
        "swarm" if !has("task_queue") && !self_claim => Some((
            "a `swarm` workflow needs a way to claim work",
            "set `collaboration.task_queue` or `\"self_claim\": true`",
        )),
        "council" if !has("consensus") => Some((
            "a `council` workflow needs a rule to agree by",
            "set `collaboration.consensus` (`required_agreement`, `max_rounds`, `tie_breaker`)",
        )),
        _ => None,
    }
}

/// The cycles of a dependency graph (each strongly connected set of more than one node, or
/// a node depending on itself), each in index order.
fn cycles(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut g = petgraph::graph::DiGraph::<(), ()>::with_capacity(edges.len(), 0);
    let nodes: Vec<_> = edges.iter().map(|_| g.add_node(())).collect();
    for (from, tos) in edges.iter().enumerate() {
        for &to in tos {
            g.add_edge(nodes[from], nodes[to], ());
        }
    }
    let mut out: Vec<Vec<usize>> = petgraph::algo::tarjan_scc(&g)
        .into_iter()
        .map(|scc| {
            let mut v: Vec<usize> = scc.into_iter().map(|n| n.index()).collect();
            v.sort_unstable();
            v
        })
        .filter(|v| v.len() > 1 || edges[v[0]].contains(&v[0]))
        .collect();
    out.sort();
    out
}
