//! A multi-agent-spec team's workflow drawn with its loops inside (Mermaid flowchart,
//! Graphviz DOT, PlantUML state diagram): each step a box naming its agent, each loop step
//! a group holding the loop's phases and transitions (or one box, collapsed), the edges
//! the steps' order or their `depends_on`.
//!
//! The input is plain data ([`Team`]), made by the project above (`crate::project`), which
//! knows the loops a step names. Every user text is cleaned ([`crate::text::clean`]) and
//! escaped for its language by the loop back ends' own escapers; every id is generated.

use std::fmt::Write as _;

use crate::ir::{Destination, Graph};
use crate::text::clean;

use super::{dot, mermaid, plantuml};

/// A team to draw.
#[derive(Debug, Clone)]
pub struct Team<'a> {
    /// The team's name.
    pub name: &'a str,
    /// Its steps, in order.
    pub steps: Vec<Step<'a>>,
}

/// One step to draw.
#[derive(Debug, Clone)]
pub struct Step<'a> {
    /// The step's name.
    pub name: &'a str,
    /// What it runs.
    pub runs: Runs<'a>,
    /// The steps it comes after (indices into [`Team::steps`]).
    pub after: Vec<usize>,
}

/// What a step runs.
#[derive(Debug, Clone, Copy)]
pub enum Runs<'a> {
    /// An agent.
    Agent(&'a str),
    /// A loop, and its graph when the project holds it.
    Loop(&'a str, Option<&'a Graph>),
    /// Nothing readable.
    Nothing,
}

/// The diagram language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// A Mermaid flowchart.
    Mermaid,
    /// Graphviz DOT.
    Dot,
    /// A PlantUML state diagram.
    PlantUml,
}

/// The drawing of `team`; with `collapse`, each loop is one box.
pub fn draw(team: &Team<'_>, language: Language, collapse: bool) -> String {
    let mut out = String::new();
    let w = Writer { language, collapse };
    w.header(team, &mut out);
    for (i, s) in team.steps.iter().enumerate() {
        w.step(i, s, &mut out);
    }
    w.edges(team, &mut out);
    w.footer(&mut out);
    out
}

struct Writer {
    language: Language,
    collapse: bool,
}

/// The id of step `i`'s node, or of the node an edge into it reaches.
fn step_id(i: usize) -> String {
    format!("s{i}")
}

/// The id of phase `p` of step `i`'s loop.
fn phase_id(i: usize, p: usize) -> String {
    format!("s{i}p{p}")
}

/// The id of terminal `t` of step `i`'s loop.
fn terminal_id(i: usize, t: &str) -> String {
    format!("s{i}t{}", t.trim_start_matches('$'))
}

impl Writer {
    fn text(&self, s: &str) -> String {
        let s = clean(s);
        match self.language {
            Language::Mermaid => format!("\"{}\"", mermaid::escape(&s)),
            Language::Dot => dot::quote(&s),
            Language::PlantUml => plantuml::escape(&s),
        }
    }

    /// Two lines of text (a step's name and what it runs).
    fn two_lines(&self, a: &str, b: &str) -> String {
        let (a, b) = (clean(a), clean(b));
        match self.language {
            Language::Mermaid => format!("\"{}<br/>{}\"", mermaid::escape(&a), mermaid::escape(&b)),
            Language::Dot => dot::quote(&format!("{a}\n{b}")),
            Language::PlantUml => format!("{}\\n{}", plantuml::escape(&a), plantuml::escape(&b)),
        }
    }

    fn header(&self, team: &Team<'_>, out: &mut String) {
        match self.language {
            Language::Mermaid => {
                let _ = writeln!(out, "flowchart TD");
                let _ = writeln!(out, "    accTitle: {}", mermaid::escape(&clean(team.name)));
                let _ = writeln!(out, "    start((start))");
                let _ = writeln!(out, "    finish((end))");
            }
            Language::Dot => {
                let _ = writeln!(out, "digraph team {{");
                let _ = writeln!(
                    out,
                    "  graph [label={}, labelloc=t, fontname=\"Helvetica\", compound=true];",
                    self.text(team.name)
                );
                let _ = writeln!(
                    out,
                    "  node [fontname=\"Helvetica\", shape=box, style=\"rounded\"];"
                );
                let _ = writeln!(out, "  edge [fontname=\"Helvetica\", fontsize=10];");
                let _ = writeln!(out, "  start [label=\"start\", shape=circle];");
                let _ = writeln!(out, "  finish [label=\"end\", shape=doublecircle];");
            }
            Language::PlantUml => {
                let _ = writeln!(out, "@startuml");
                let _ = writeln!(out, "hide empty description");
                let _ = writeln!(out, "title {}", plantuml::escape(&clean(team.name)));
            }
        }
    }

    fn footer(&self, out: &mut String) {
        match self.language {
            Language::Mermaid => {}
            Language::Dot => out.push_str("}\n"),
            Language::PlantUml => out.push_str("@enduml\n"),
        }
    }

    fn step(&self, i: usize, s: &Step<'_>, out: &mut String) {
        match s.runs {
            Runs::Loop(name, Some(graph)) if !self.collapse => {
                self.loop_group(i, s.name, name, graph, out)
            }
            Runs::Loop(name, _) => self.node(
                &step_id(i),
                &self.two_lines(s.name, &format!("loop: {name}")),
                out,
            ),
            Runs::Agent(agent) => self.node(
                &step_id(i),
                &self.two_lines(s.name, &format!("agent: {agent}")),
                out,
            ),
            Runs::Nothing => self.node(&step_id(i), &self.text(s.name), out),
        }
    }

    fn node(&self, id: &str, label: &str, out: &mut String) {
        match self.language {
            Language::Mermaid => {
                let _ = writeln!(out, "    {id}[{label}]");
            }
            Language::Dot => {
                let _ = writeln!(out, "  {id} [label={label}];");
            }
            Language::PlantUml => {
                let _ = writeln!(out, "state \"{label}\" as {id}");
            }
        }
    }

    /// A loop step: a group named after the step and its loop, holding the loop's phases,
    /// the terminals it reaches and its transitions.
    fn loop_group(&self, i: usize, step: &str, name: &str, g: &Graph, out: &mut String) {
        let title = format!("{step} (loop: {name})");
        let terminals = terminals(g);
        match self.language {
            Language::Mermaid => {
                let _ = writeln!(out, "    subgraph {}[{}]", step_id(i), self.text(&title));
            }
            Language::Dot => {
                let _ = writeln!(out, "  subgraph cluster_{} {{", step_id(i));
                let _ = writeln!(
                    out,
                    "    label={}; style=\"rounded,dashed\";",
                    self.text(&title)
                );
            }
            Language::PlantUml => {
                let _ = writeln!(
                    out,
                    "state \"{}\" as {} {{",
                    plantuml::escape(&clean(&title)),
                    step_id(i)
                );
            }
        }
        for (p, phase) in g.phases.iter().enumerate() {
            self.node(&phase_id(i, p), &self.text(&phase.id), out);
        }
        for t in &terminals {
            self.node(&terminal_id(i, t), &self.text(t), out);
        }
        for t in &g.transitions {
            let from = g
                .phases
                .iter()
                .position(|p| p.id == t.from)
                .map(|p| phase_id(i, p));
            let to = match &t.to {
                Destination::Phase(to) => g
                    .phases
                    .iter()
                    .position(|p| p.id == *to)
                    .map(|p| phase_id(i, p)),
                Destination::Terminal(to) => Some(terminal_id(i, to.as_str())),
            };
            if let (Some(from), Some(to)) = (from, to) {
                self.edge(&from, &to, Some(&t.on), out);
            }
        }
        match self.language {
            Language::Mermaid => out.push_str("    end\n"),
            Language::Dot => out.push_str("  }\n"),
            Language::PlantUml => out.push_str("}\n"),
        }
    }

    fn edge(&self, from: &str, to: &str, label: Option<&str>, out: &mut String) {
        match (self.language, label) {
            (Language::Mermaid, Some(l)) => {
                let _ = writeln!(out, "    {from} -->|{}| {to}", self.text(l));
            }
            (Language::Mermaid, None) => {
                let _ = writeln!(out, "    {from} --> {to}");
            }
            (Language::Dot, Some(l)) => {
                let _ = writeln!(out, "  {from} -> {to} [label={}];", self.text(l));
            }
            (Language::Dot, None) => {
                let _ = writeln!(out, "  {from} -> {to};");
            }
            (Language::PlantUml, Some(l)) => {
                let _ = writeln!(out, "{from} --> {to} : {}", self.text(l));
            }
            (Language::PlantUml, None) => {
                let _ = writeln!(out, "{from} --> {to}");
            }
        }
    }

    /// Where an edge into step `i` arrives: the entry phase of its expanded loop, or its box.
    fn entry(&self, team: &Team<'_>, i: usize) -> String {
        match team.steps[i].runs {
            Runs::Loop(_, Some(g)) if !self.collapse => (g.phases.iter())
                .position(|p| p.id == g.entry)
                .map_or_else(|| step_id(i), |p| phase_id(i, p)),
            _ => step_id(i),
        }
    }

    /// Where an edge out of step `i` leaves: its expanded loop's `$end`, or its box.
    fn exit(&self, team: &Team<'_>, i: usize) -> String {
        match team.steps[i].runs {
            Runs::Loop(_, Some(g)) if !self.collapse && terminals(g).contains(&"$end") => {
                terminal_id(i, "$end")
            }
            _ => step_id(i),
        }
    }

    /// The workflow's edges: from the start to each step that follows none, each step to
    /// those that follow it, and each step that none follows to the end.
    fn edges(&self, team: &Team<'_>, out: &mut String) {
        let (start, finish) = match self.language {
            Language::PlantUml => ("[*]", "[*]"),
            Language::Mermaid | Language::Dot => ("start", "finish"),
        };
        let mut followed = vec![false; team.steps.len()];
        for (i, s) in team.steps.iter().enumerate() {
            if s.after.is_empty() {
                self.edge(start, &self.entry(team, i), None, out);
            }
            for &j in &s.after {
                if let Some(f) = followed.get_mut(j) {
                    *f = true;
                }
                self.edge(&self.exit(team, j), &self.entry(team, i), None, out);
            }
        }
        for (i, f) in followed.iter().enumerate() {
            if !f {
                self.edge(&self.exit(team, i), finish, None, out);
            }
        }
    }
}

/// The terminals a loop's transitions reach, in a fixed order.
fn terminals(g: &Graph) -> Vec<&'static str> {
    ["$end", "$abort", "$handoff"]
        .into_iter()
        .filter(|t| g.transitions.iter().any(|tr| tr.to.as_str() == *t))
        .collect()
}

/// The Markdown page of a team (`docs`): its description, its workflow drawn (Mermaid, the
/// loops collapsed), its steps with links to the pages of their loops (`loop_page` gives
/// the page of a loop by name, when it has one), and its roster. `source` names the team's
/// file in the footer.
pub fn page(
    team: &Team<'_>,
    description: Option<&str>,
    roster: &[&str],
    source: &str,
    loop_page: &dyn Fn(&str) -> Option<String>,
) -> String {
    use crate::text::markdown::{block, cell, code, inline};
    let mut out = format!("# Team {}\n\n", inline(team.name));
    if let Some(d) = description.map(block).filter(|d| !d.is_empty()) {
        let _ = write!(out, "{d}\n\n");
    }
    let _ = write!(
        out,
        "```mermaid\n{}```\n\n",
        draw(team, Language::Mermaid, true)
    );
    out.push_str("## Steps\n\n| step | runs | after |\n|---|---|---|\n");
    for s in &team.steps {
        let runs = match s.runs {
            Runs::Agent(a) => format!("agent {}", code(a)),
            Runs::Loop(l, _) => match loop_page(l) {
                Some(page) => format!("loop [{}]({})", cell(l), page),
                None => format!("loop {}", code(l)),
            },
            Runs::Nothing => String::new(),
        };
        let after: Vec<String> = s.after.iter().map(|&j| code(team.steps[j].name)).collect();
        let _ = writeln!(out, "| {} | {runs} | {} |", code(s.name), after.join(", "));
    }
    if !roster.is_empty() {
        out.push_str("\n## Agents\n\n");
        for a in roster {
            let _ = writeln!(out, "- {}", code(a));
        }
    }
    let _ = write!(
        out,
        "\n---\n\nGenerated by loopconv from {}; do not edit by hand.\n",
        code(source)
    );
    out
}

/// The line of a loop's "Used by" section for a team step that runs it, linked to the
/// team's page.
pub fn used_by_step(team: &str, page: &str, step: &str) -> String {
    use crate::text::markdown::{code, inline};
    format!("- team [{}]({page}), step {}", inline(team), code(step))
}

/// The "Used by" section of a loop's page: one line for each user ([`used_by_step`],
/// [`super::agent::used_by`]).
pub fn used_by(lines: &[String]) -> String {
    let mut out = String::from("## Used by\n\n");
    for line in lines {
        out.push_str(line);
        out.push('\n');
    }
    out
}
