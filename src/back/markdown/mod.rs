//! Markdown documentation pages: one page per loop, and an index (pandoc pattern).
//!
//! [`write`](fn@write) builds a serialisable view context ([`Page`]) from the IR and the analysis
//! ([`Info`]); [`index`] builds [`IndexPage`] from the pages written. Each is rendered with
//! minijinja from a template embedded in the binary (`templates/loop.md.j2`,
//! `templates/index.md.j2`), which [`Options::template`] can replace.
//!
//! Everything is computed here, in Rust: the templates hold only `if`, `for` and `block`.
//! Every string in the context is **already Markdown**: user text is escaped by
//! [`inline`], [`block`] or [`code`] before it reaches the template (raw HTML is
//! neutralised, Markdown specials are backslash-escaped, newlines in table cells become
//! spaces), and it is only ever a value, never template source, so a description holding
//! `{{ x }}` or `{% if %}` appears literally. Auto-escaping is off (the output is Markdown,
//! not HTML), undefined variables are errors ([`UndefinedBehavior::Strict`]), and
//! `trim_blocks`/`lstrip_blocks` keep the whitespace stable. The output depends only on
//! its inputs, so it is byte-identical across runs (`loopconv docs --check` relies on it).

use std::fmt::Write as _;

use minijinja::{AutoEscape, Environment, UndefinedBehavior};
use serde::Serialize;

use super::{Error, Options};
use crate::diag::Diagnostics;
use crate::ir::{
    Check, Checkpoint, Destination, ErrorPolicy, Escalation, Graph, LoopPattern, Outgoing, Phase,
    Port, Spec, Terminal, Transition,
};
use crate::text::count;
use crate::text::markdown::{block, code, inline, longest_run};
use crate::valid::Info;

/// The built-in page template (`templates/loop.md.j2`).
pub const LOOP_TEMPLATE: &str = include_str!("../../../templates/loop.md.j2");
/// The built-in index template (`templates/index.md.j2`).
pub const INDEX_TEMPLATE: &str = include_str!("../../../templates/index.md.j2");

/// The name the built-in page template is registered under (a custom template may
/// `{% extends "loop.md.j2" %}` and override its blocks).
pub const LOOP_TEMPLATE_NAME: &str = "loop.md.j2";
/// The name the built-in index template is registered under.
pub const INDEX_TEMPLATE_NAME: &str = "index.md.j2";
/// The name a custom page template is registered under (it appears in error messages).
pub const CUSTOM_TEMPLATE_NAME: &str = "custom-template";

/// The section headings (`## …`) the built-in page template can write, besides the loop
/// name as the title. Tests check that a page holds no other heading, so user text never
/// becomes one.
pub const SECTION_HEADINGS: &[&str] = &[
    "Diagram",
    "Phases",
    "Outcomes",
    "Transitions",
    "Checkpoints",
    "Error policy",
    "Limits",
    "Roles",
    "Mission",
    "Success criteria",
    "Checks",
    "Inputs",
    "Outputs",
    "Analysis",
];

/// One entry of the index page.
#[derive(Debug, Clone)]
pub struct IndexEntry {
    /// Loop name.
    pub name: String,
    /// Page file name, relative to the index.
    pub file_name: String,
    /// Description.
    pub description: Option<String>,
    /// The source file, as given.
    pub source: String,
}

/// Write one page. `opts.source` is the loop's file as the user named it; `opts.template`
/// replaces the built-in page template: it is rendered with the same [`Page`] context, and
/// may extend the built-in one (`{% extends "loop.md.j2" %}`) to replace only some blocks.
pub fn write(
    spec: &Spec,
    info: &Info,
    opts: &Options,
    _diags: &mut Diagnostics,
) -> Result<String, Error> {
    let page = Page::new(spec, info, &opts.source);
    render(LOOP_TEMPLATE_NAME, opts.template.as_deref(), &page)
}

/// Write the index page (always the built-in index template), entries in the order given.
pub fn index(entries: &[IndexEntry]) -> Result<String, Error> {
    render(INDEX_TEMPLATE_NAME, None, &IndexPage::new(entries))
}

// ---------------------------------------------------------------------------------------
// The view context.

/// The context of a loop page. Every string is Markdown, ready to insert: user text is
/// escaped, and values marked "code" are code spans. Strings meant for tables are safe in
/// a table cell (no newline, `|` escaped). Optional values are `none` when absent, and
/// lists are empty when there is nothing to show, so `{% if x %}` tests both.
#[derive(Debug, Clone, Serialize)]
pub struct Page {
    /// The loop name (inline text).
    pub name: String,
    /// The description as Markdown paragraphs, or none.
    pub description: Option<String>,
    /// The source file as the user named it (code).
    pub source: String,
    /// Metadata rows: version, license, README, source file, format, pattern, archetype
    /// (only those that are set).
    pub metadata: Vec<Row>,
    /// The Mermaid diagram.
    pub diagram: FencedDiagram,
    /// The entry phase (code).
    pub entry: String,
    /// Phases, in authored order.
    pub phases: Vec<PhaseRow>,
    /// Every outcome of every phase (declared, or the implicit `complete`), in order.
    pub outcomes: Vec<OutcomeRow>,
    /// Transitions, in authored order.
    pub transitions: Vec<TransitionRow>,
    /// Approval checkpoints, in evaluation order.
    pub checkpoints: Vec<CheckpointRow>,
    /// Whether several checkpoints guard one phase (the page then says how they are
    /// evaluated).
    pub shared_checkpoints: bool,
    /// Error-policy rows (tool failure, phase failure); empty when there is no policy.
    pub error_policy: Vec<Row>,
    /// Limit rows (max steps).
    pub limits: Vec<Row>,
    /// Whether the loop is a multi-agent-spec REAL/VEAL loop (or carries MAS roles).
    pub is_mas: bool,
    /// MAS role rows: actor, validator, fallback agent, escalation, max attempts; empty
    /// for a general graph without roles.
    pub roles: Vec<Row>,
    /// MAS mission as Markdown paragraphs, or none.
    pub mission: Option<String>,
    /// MAS success criteria as Markdown paragraphs, or none.
    pub success_criteria: Option<String>,
    /// MAS checks.
    pub checks: Vec<CheckRow>,
    /// MAS inputs.
    pub inputs: Vec<PortRow>,
    /// MAS outputs.
    pub outputs: Vec<PortRow>,
    /// The graph analysis.
    pub analysis: AnalysisSection,
}

/// A two-column row: a label and its value.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// What (plain words).
    pub label: String,
    /// The value (Markdown, table-safe).
    pub value: String,
}

/// The diagram and the fence that encloses it safely.
#[derive(Debug, Clone, Serialize)]
pub struct FencedDiagram {
    /// The code fence (three or more backticks, longer than any run in `text`).
    pub fence: String,
    /// The Mermaid source (`back::mermaid` output), without a trailing newline.
    pub text: String,
}

/// One phase.
#[derive(Debug, Clone, Serialize)]
pub struct PhaseRow {
    /// Phase id (code).
    pub id: String,
    /// Whether it is the entry phase.
    pub entry: bool,
    /// Objective (inline text).
    pub objective: String,
    /// Tool access: `yes`, `no` or `—` (not stated).
    pub tools: String,
    /// Knowledge access: `yes`, `no` or `—`.
    pub knowledge: String,
    /// Memory read access: `yes`, `no` or `—`.
    pub memory_read: String,
    /// Memory write access: `yes`, `no` or `—`.
    pub memory_write: String,
    /// The phase's outcome ids (code spans, comma-separated).
    pub outcomes: String,
    /// Whether the phase is reachable from the entry.
    pub reachable: bool,
}

/// One outcome of a phase.
#[derive(Debug, Clone, Serialize)]
pub struct OutcomeRow {
    /// Phase id (code).
    pub phase: String,
    /// Outcome id (code).
    pub id: String,
    /// What it means (inline text).
    pub description: String,
    /// Whether this is the implicit `complete` of a phase that declares no outcomes.
    pub implicit: bool,
    /// Where the run goes next (a phase or terminal, code), or `—` when no transition
    /// handles it.
    pub next: String,
}

/// One transition.
#[derive(Debug, Clone, Serialize)]
pub struct TransitionRow {
    /// Source phase (code).
    pub from: String,
    /// Outcome (code).
    pub on: String,
    /// Target phase or terminal (code, with the terminal's meaning).
    pub to: String,
    /// Whether the target is a terminal.
    pub terminal: bool,
}

/// One approval checkpoint.
#[derive(Debug, Clone, Serialize)]
pub struct CheckpointRow {
    /// Checkpoint id (code).
    pub id: String,
    /// The guarded phase (code).
    pub before_phase: String,
    /// Where a rejection goes (code, with the terminal's meaning).
    pub on_reject: String,
}

/// One MAS check.
#[derive(Debug, Clone, Serialize)]
pub struct CheckRow {
    /// Check id (code).
    pub id: String,
    /// Check type (code) or `—`.
    pub kind: String,
    /// What it checks (inline text).
    pub description: String,
    /// The command, pattern or file it runs or inspects (code spans).
    pub runs: String,
    /// The files glob (code) or empty.
    pub files: String,
    /// `yes`, `no`, or `yes (default)`.
    pub required: String,
    /// The expected result (inline text).
    pub expected: String,
}

/// One MAS input or output.
#[derive(Debug, Clone, Serialize)]
pub struct PortRow {
    /// Port name (code).
    pub name: String,
    /// Data type (code) or `—`.
    pub kind: String,
    /// `yes`, `no` or `—`.
    pub required: String,
    /// `step.output` reference (code) or empty.
    pub from: String,
    /// What it carries (inline text).
    pub description: String,
    /// Default value as compact JSON (code) or empty.
    pub default: String,
    /// Value schema as compact JSON (code) or empty.
    pub schema: String,
}

/// The "Analysis" section of a page (template variable `analysis`): the graph analysis
/// ([`Info`]) in words.
#[derive(Debug, Clone, Serialize)]
pub struct AnalysisSection {
    /// All the rows below, in order, for a table.
    pub rows: Vec<Row>,
    /// Reachable terminals (code spans with meanings, comma-separated) or `none`.
    pub reachable_terminals: String,
    /// Unreachable phases (code spans) or `none`.
    pub unreachable_phases: String,
    /// Trap phases (code spans) or `none`.
    pub trap_phases: String,
    /// The shortest successful run (`a` → `b` → `$end`), or none when `$end` is
    /// unreachable.
    pub shortest_path: Option<String>,
    /// Steps of the shortest successful run.
    pub shortest_steps: Option<usize>,
    /// `max_steps`, when set.
    pub max_steps: Option<u64>,
    /// Whether the shortest successful run fits in `max_steps` (true when unbounded;
    /// false when `$end` is unreachable).
    pub fits: bool,
}

/// The context of the index page.
#[derive(Debug, Clone, Serialize)]
pub struct IndexPage {
    /// The pages, in the order given.
    pub entries: Vec<IndexRow>,
    /// How many pages (`1 loop`, `3 loops`).
    pub count: String,
}

/// One index entry.
#[derive(Debug, Clone, Serialize)]
pub struct IndexRow {
    /// Loop name (inline text).
    pub name: String,
    /// Relative link to the page (percent-encoded).
    pub link: String,
    /// Description (inline text, one line) or empty.
    pub description: String,
    /// Source file (code).
    pub source: String,
}

const UNSET: &str = "—";

fn yes_no(b: Option<bool>) -> String {
    match b {
        Some(true) => "yes".to_owned(),
        Some(false) => "no".to_owned(),
        None => UNSET.to_owned(),
    }
}

fn terminal(t: Terminal) -> String {
    format!("{} ({})", code(t.as_str()), t.meaning())
}

fn target(t: &Destination) -> String {
    match t {
        Destination::Phase(p) => code(p),
        Destination::Terminal(t) => terminal(*t),
    }
}

fn list_or_none(items: impl IntoIterator<Item = String>) -> String {
    let v: Vec<String> = items.into_iter().collect();
    if v.is_empty() {
        "none".to_owned()
    } else {
        v.join(", ")
    }
}

fn compact_json(v: &serde_json::Value) -> String {
    code(&serde_json::to_string(v).unwrap_or_default())
}

fn escalation_meaning(e: Escalation) -> &'static str {
    match e {
        Escalation::Human => "stop and ask a person (`$handoff`)",
        Escalation::Abort => "stop and fail the workflow (`$abort`)",
        Escalation::Continue => {
            "end the loop, issues unresolved, and let the workflow proceed (`$end`, not a success)"
        }
        Escalation::Fallback => "invoke the fallback agent (`$handoff`)",
    }
}

impl Page {
    /// Build the context of one loop's page.
    pub fn new(spec: &Spec, info: &Info, source: &str) -> Page {
        let g = &spec.graph;
        let is_mas = spec.pattern != LoopPattern::General || !spec.roles.is_empty();
        let paragraph = |s: &Option<String>| s.as_deref().map(block).filter(|s| !s.is_empty());
        Page {
            name: inline(&spec.name),
            description: paragraph(&spec.description),
            source: code(source),
            metadata: metadata_rows(spec, source),
            diagram: diagram(spec, info),
            entry: code(&g.entry),
            phases: g.phases.iter().map(|p| phase_row(p, g, info)).collect(),
            outcomes: {
                let outgoing = g.outgoing();
                g.phases
                    .iter()
                    .flat_map(|p| outcome_rows(p, &outgoing))
                    .collect()
            },
            transitions: g.transitions.iter().map(transition_row).collect(),
            checkpoints: g.checkpoints.iter().flatten().map(checkpoint_row).collect(),
            shared_checkpoints: {
                let mut guarded = std::collections::BTreeSet::new();
                !g.checkpoints
                    .iter()
                    .flatten()
                    .all(|c| guarded.insert(c.before_phase.as_str()))
            },
            error_policy: spec
                .bounds
                .error_policy
                .as_ref()
                .map(error_policy_rows)
                .unwrap_or_default(),
            limits: limit_rows(spec, is_mas),
            is_mas,
            roles: if is_mas { role_rows(spec) } else { Vec::new() },
            mission: paragraph(&spec.goal.mission),
            success_criteria: paragraph(&spec.goal.success_criteria),
            checks: spec.goal.checks.iter().flatten().map(check_row).collect(),
            inputs: port_rows(spec.goal.inputs.as_deref()),
            outputs: port_rows(spec.goal.outputs.as_deref()),
            analysis: AnalysisSection::new(spec, info),
        }
    }
}

impl Row {
    fn new(label: &str, value: String) -> Row {
        Row {
            label: label.to_owned(),
            value,
        }
    }
}

/// Version, license, README, source file, format, pattern, archetype.
fn metadata_rows(spec: &Spec, source: &str) -> Vec<Row> {
    let mut rows = Vec::new();
    if let Some(v) = &spec.version {
        rows.push(Row::new("Version", code(v)));
    }
    if let Some(l) = &spec.license {
        let v = match (&l.spdx, &l.file) {
            (Some(s), Some(f)) => format!("{} (file {})", inline(s), code(f)),
            (Some(s), None) => inline(s),
            (None, Some(f)) => format!("file {}", code(f)),
            (None, None) => UNSET.to_owned(),
        };
        rows.push(Row::new("License", v));
    }
    if let Some(r) = &spec.readme {
        rows.push(Row::new("README", code(r)));
    }
    rows.push(Row::new("Source file", code(source)));
    let read_as = spec.provenance.read_as;
    let fmt = if read_as == spec.source_format {
        read_as.title().to_owned()
    } else {
        format!(
            "{} (first written as {})",
            read_as.title(),
            spec.source_format.title()
        )
    };
    rows.push(Row::new("Format", fmt));
    let pattern = match spec.pattern {
        LoopPattern::General => "general phase graph",
        LoopPattern::Real => "REAL (Read, Eval, Act, Loop)",
        LoopPattern::Veal => "VEAL (Validate, Eval, Act, Loop)",
    };
    rows.push(Row::new("Pattern", pattern.to_owned()));
    if let Some(a) = &spec.archetype {
        rows.push(Row::new("Archetype", inline(a)));
    }
    rows
}

/// The Mermaid flowchart, with a fence longer than any backtick run inside it.
fn diagram(spec: &Spec, info: &Info) -> FencedDiagram {
    let mermaid = crate::back::mermaid::draw(spec, info, crate::back::mermaid::Style::Flowchart);
    let text = mermaid.trim_end_matches(['\n', '\r']).to_owned();
    FencedDiagram {
        fence: "`".repeat(longest_run(&text, '`').max(2) + 1),
        text,
    }
}

fn phase_row(p: &Phase, g: &Graph, info: &Info) -> PhaseRow {
    let access = p.access.as_ref();
    let memory = access.and_then(|a| a.memory.as_ref());
    let outcomes: Vec<String> = p.outcome_ids().iter().map(|o| code(o)).collect();
    PhaseRow {
        id: code(&p.id),
        entry: p.id == g.entry,
        objective: inline(&p.objective),
        tools: yes_no(access.and_then(|a| a.tools)),
        knowledge: yes_no(access.and_then(|a| a.knowledge)),
        memory_read: yes_no(memory.and_then(|m| m.read)),
        memory_write: yes_no(memory.and_then(|m| m.write)),
        outcomes: outcomes.join(", "),
        reachable: info.is_reachable(g, &p.id),
    }
}

/// A phase's outcomes (the implicit `complete` when it declares none) and where each
/// leads.
fn outcome_rows(p: &Phase, outgoing: &Outgoing<'_>) -> Vec<OutcomeRow> {
    let next = |outcome: &str| -> String {
        outgoing
            .on(&p.id, outcome)
            .map_or_else(|| UNSET.to_owned(), |t| target(&t.to))
    };
    let Some(os) = &p.outcomes else {
        return vec![OutcomeRow {
            phase: code(&p.id),
            id: code(crate::ir::IMPLICIT_OUTCOME),
            description: "the phase is done (implicit: it declares no outcomes)".to_owned(),
            implicit: true,
            next: next(crate::ir::IMPLICIT_OUTCOME),
        }];
    };
    os.iter()
        .map(|o| OutcomeRow {
            phase: code(&p.id),
            id: code(&o.id),
            description: inline(&o.description),
            implicit: false,
            next: next(&o.id),
        })
        .collect()
}

fn transition_row(t: &Transition) -> TransitionRow {
    TransitionRow {
        from: code(&t.from),
        on: code(&t.on),
        to: target(&t.to),
        terminal: matches!(t.to, Destination::Terminal(_)),
    }
}

fn checkpoint_row(c: &Checkpoint) -> CheckpointRow {
    CheckpointRow {
        id: code(&c.id),
        before_phase: code(&c.before_phase),
        on_reject: target(&c.on_reject),
    }
}

fn error_policy_rows(ep: &ErrorPolicy) -> Vec<Row> {
    let mut rows = Vec::new();
    if let Some(tf) = &ep.tool_failure {
        let action = code(tf.action.as_str());
        let v = match (tf.max_retries, tf.on_exhausted) {
            (Some(n), Some(ex)) => format!(
                "{action}: up to {}, then {}",
                count(usize::try_from(n).unwrap_or(usize::MAX), "retry", "retries"),
                code(ex.as_str())
            ),
            (Some(n), None) => format!("{action} (max\\_retries {n})"),
            (None, Some(ex)) => format!("{action} (on\\_exhausted {})", code(ex.as_str())),
            (None, None) => action,
        };
        rows.push(Row::new("Tool failure", v));
    }
    if let Some(pf) = &ep.phase_failure {
        rows.push(Row::new("Phase failure", code(pf.action.as_str())));
    }
    if rows.is_empty() {
        rows.push(Row::new("Error policy", "empty (no rule)".to_owned()));
    }
    rows
}

fn limit_rows(spec: &Spec, is_mas: bool) -> Vec<Row> {
    let steps = match spec.bounds.max_steps {
        Some(n) if is_mas && spec.pattern != LoopPattern::General => {
            format!("{n} (derived: 3 × max attempts − 1)")
        }
        Some(n) => n.to_string(),
        None => "not set".to_owned(),
    };
    vec![
        Row::new("Max steps", steps),
        Row::new(
            "Effective step limit",
            effective_steps(spec.bounds.max_steps),
        ),
    ]
}

/// The step limit a run meets: the stricter of the loop's `max_steps` and the runtime's
/// ceiling ([`crate::analysis::RUNTIME_MAX_STEPS`], as `walk` applies it by default).
fn effective_steps(max_steps: Option<u64>) -> String {
    let ceiling = crate::analysis::RUNTIME_MAX_STEPS;
    match max_steps {
        None => format!("{ceiling}: the runtime's ceiling (the loop sets none)"),
        Some(n) if n <= ceiling => {
            format!("{n}: the loop's, under the runtime's ceiling of {ceiling}")
        }
        Some(n) => format!("{ceiling}: the runtime's ceiling, below the loop's {n}"),
    }
}

/// The MAS agents, escalation and attempts.
fn role_rows(spec: &Spec) -> Vec<Row> {
    let agent = |a: &Option<String>| a.as_deref().map_or_else(|| UNSET.to_owned(), code);
    let default = |absent: bool| if absent { " (default)" } else { "" };
    let mut rows = vec![Row::new("Actor", agent(&spec.roles.actor))];
    if spec.pattern == LoopPattern::Veal || spec.roles.validator.is_some() {
        rows.push(Row::new("Validator", agent(&spec.roles.validator)));
    }
    if spec.roles.fallback_agent.is_some() || spec.bounds.escalation == Some(Escalation::Fallback) {
        rows.push(Row::new(
            "Fallback agent",
            agent(&spec.roles.fallback_agent),
        ));
    }
    let e = spec.effective_escalation();
    rows.push(Row::new(
        "Escalation",
        format!(
            "{}{}: {}",
            code(e.as_str()),
            default(spec.bounds.escalation.is_none()),
            escalation_meaning(e)
        ),
    ));
    rows.push(Row::new(
        "Max attempts",
        format!(
            "{}{}",
            spec.effective_max_attempts(),
            default(spec.bounds.max_attempts.is_none())
        ),
    ));
    rows
}

fn check_row(c: &Check) -> CheckRow {
    let runs: Vec<String> = [&c.command, &c.pattern, &c.file]
        .into_iter()
        .flatten()
        .map(|s| code(s))
        .collect();
    CheckRow {
        id: code(&c.id),
        kind: c
            .kind
            .map_or_else(|| UNSET.to_owned(), |k| code(k.as_str())),
        description: c.description.as_deref().map(inline).unwrap_or_default(),
        runs: runs.join("; "),
        files: c.files.as_deref().map(code).unwrap_or_default(),
        required: match c.required {
            Some(b) => yes_no(Some(b)),
            None => "yes (default)".to_owned(),
        },
        expected: c.expected.as_deref().map(inline).unwrap_or_default(),
    }
}

fn port_rows(ps: Option<&[Port]>) -> Vec<PortRow> {
    ps.unwrap_or_default()
        .iter()
        .map(|p| PortRow {
            name: code(&p.name),
            kind: p
                .kind
                .map_or_else(|| UNSET.to_owned(), |k| code(k.as_str())),
            required: yes_no(p.required),
            from: p.from.as_deref().map(code).unwrap_or_default(),
            description: p.description.as_deref().map(inline).unwrap_or_default(),
            default: p.default.as_ref().map(compact_json).unwrap_or_default(),
            schema: p.schema.as_ref().map(compact_json).unwrap_or_default(),
        })
        .collect()
}

impl AnalysisSection {
    fn new(spec: &Spec, info: &Info) -> AnalysisSection {
        let codes = |phases: &[usize]| list_or_none(spec.graph.phase_ids(phases).map(code));
        let reachable_terminals =
            list_or_none(info.reachable_terminals.iter().map(|t| terminal(*t)));
        let unreachable_phases = codes(&info.unreachable_phases);
        let trap_phases = codes(&info.trap_phases);
        let shortest_path = info.shortest_success.as_ref().map(|path| {
            let mut parts: Vec<String> = spec.graph.phase_ids(path).map(code).collect();
            parts.push(code(Terminal::End.as_str()));
            parts.join(" → ")
        });
        let shortest_steps = info.shortest_success_steps();
        let max_steps = info.max_steps;
        let fits = info.success_fits_budget();
        let budget = match (shortest_steps, max_steps) {
            (Some(s), Some(m)) if fits => format!(
                "the shortest successful run takes {} of `max_steps` {m}",
                count(s, "step", "steps")
            ),
            (Some(s), Some(m)) => format!(
                "the shortest successful run takes {}, more than `max_steps` {m}: the loop can never succeed",
                count(s, "step", "steps")
            ),
            (Some(s), None) => format!(
                "no `max_steps`; the shortest successful run takes {}",
                count(s, "step", "steps")
            ),
            (None, Some(m)) => format!("`max_steps` {m}, but `$end` cannot be reached"),
            (None, None) => "no `max_steps`, and `$end` cannot be reached".to_owned(),
        };
        let mut rows = vec![
            Row {
                label: "Entry phase".to_owned(),
                value: code(&spec.graph.entry),
            },
            Row {
                label: "Reachable phases".to_owned(),
                value: codes(&info.reachable_phases),
            },
            Row {
                label: "Unreachable phases".to_owned(),
                value: unreachable_phases.clone(),
            },
            Row {
                label: "Reachable terminals".to_owned(),
                value: reachable_terminals.clone(),
            },
            Row {
                label: "Trap phases (no terminal reachable)".to_owned(),
                value: trap_phases.clone(),
            },
        ];
        rows.push(Row {
            label: "Shortest successful run".to_owned(),
            value: match (&shortest_path, shortest_steps) {
                (Some(p), Some(s)) => format!("{p} ({})", count(s, "step", "steps")),
                _ => "none: `$end` cannot be reached".to_owned(),
            },
        });
        rows.push(Row {
            label: "Step budget".to_owned(),
            value: budget,
        });
        AnalysisSection {
            rows,
            reachable_terminals,
            unreachable_phases,
            trap_phases,
            shortest_path,
            shortest_steps,
            max_steps,
            fits,
        }
    }
}

impl IndexPage {
    /// Build the index context.
    pub fn new(entries: &[IndexEntry]) -> IndexPage {
        IndexPage {
            entries: entries
                .iter()
                .map(|e| IndexRow {
                    name: inline(&e.name),
                    link: url_path(&e.file_name),
                    description: e.description.as_deref().map(inline).unwrap_or_default(),
                    source: code(&e.source),
                })
                .collect(),
            count: count(entries.len(), "loop", "loops"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Rendering.

/// A template failure, naming the template (minijinja's error says where and what).
fn template_error(template: &str) -> impl Fn(minijinja::Error) -> Error + '_ {
    move |source| Error::Template {
        template: template.to_owned(),
        source,
    }
}

fn render<S: Serialize>(name: &str, custom: Option<&str>, ctx: &S) -> Result<String, Error> {
    let mut env = Environment::new();
    // The excerpt of a failing template (which names the undefined variable) in release
    // builds too: minijinja keeps it only in debug builds by default.
    env.set_debug(true);
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.set_auto_escape_callback(|_| AutoEscape::None);
    env.add_template(LOOP_TEMPLATE_NAME, LOOP_TEMPLATE)
        .map_err(template_error(LOOP_TEMPLATE_NAME))?;
    env.add_template(INDEX_TEMPLATE_NAME, INDEX_TEMPLATE)
        .map_err(template_error(INDEX_TEMPLATE_NAME))?;
    let name = match custom {
        Some(src) => {
            env.add_template(CUSTOM_TEMPLATE_NAME, src)
                .map_err(template_error(CUSTOM_TEMPLATE_NAME))?;
            CUSTOM_TEMPLATE_NAME
        }
        None => name,
    };
    let out = env
        .get_template(name)
        .and_then(|t| t.render(ctx))
        .map_err(template_error(name))?;
    Ok(tidy(&out))
}

/// Collapse runs of blank lines (outside fenced code blocks) into one, drop blank lines at
/// the start, and end the text with exactly one newline: optional sections then never
/// leave holes, whatever the template's whitespace.
fn tidy(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut fence: Option<(char, usize)> = None;
    let mut blank_run = true;
    for line in s.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if indent < 4 {
            let ch = trimmed.chars().next().unwrap_or(' ');
            if ch == '`' || ch == '~' {
                let n = trimmed.chars().take_while(|&c| c == ch).count();
                if n >= 3 {
                    match fence {
                        None => fence = Some((ch, n)),
                        Some((c, m)) if c == ch && n >= m && trimmed[n..].trim().is_empty() => {
                            fence = None
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        let blank = line.trim().is_empty();
        if blank && fence.is_none() {
            if blank_run {
                continue;
            }
            blank_run = true;
            out.push('\n');
            continue;
        }
        blank_run = false;
        out.push_str(line);
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    if out.is_empty() {
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------------------------------
// Escaping.

/// A relative link target: every byte outside `A-Z a-z 0-9 - . _ ~ /` is percent-encoded,
/// so a file name can never become a scheme (`javascript:`), leave the link, or break the
/// Markdown around it.
fn url_path(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests;
