//! IR -> multi-agent-spec REAL/VEAL loop (YAML through serde).
//!
//! 1. A loop that is REAL or VEAL (read from MAS) is written field for field.
//! 2. A graph with the REAL or VEAL shape (mapping.md: same phases, outcomes and edges, up to
//!    phase naming) converts back to that type, recovering `max_attempts` and `escalation`
//!    from the graph; agent names come from `--actor`, `--validator`, `--fallback-agent`.
//! 3. Any other graph becomes a REAL loop whose mission outlines the phases.
//!
//! `escalation` is always spelled out, so the output passes the upstream schema despite its
//! `fallback_agent` bug. What MAS cannot hold is reported as lost (`B001`).

use std::fmt::Write as _;

use super::{Error, Options};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::ir::{self, Escalation, Field, FixedLoop, LoopPattern, Spec, Terminal};
use crate::model::mas::{self as m, LoopType};
use crate::valid::Info;

/// Build the MAS loop.
pub fn to_model(spec: &Spec, info: &Info, opts: &Options, diags: &mut Diagnostics) -> m::Loop {
    match spec.pattern {
        LoopPattern::Real | LoopPattern::Veal => from_mas_spec(spec, opts, diags),
        LoopPattern::General => from_graph(spec, info, opts, diags),
    }
}

/// Write the loop as YAML.
pub fn write(
    spec: &Spec,
    info: &Info,
    opts: &Options,
    diags: &mut Diagnostics,
) -> Result<String, Error> {
    let l = to_model(spec, info, opts, diags);
    warn_written(spec, &l, diags);
    to_yaml(&l)
}

/// Serialise a MAS loop as YAML.
pub fn to_yaml(l: &m::Loop) -> Result<String, Error> {
    let mut s = serde_saphyr::to_string(l).map_err(Error::Yaml)?;
    if !s.ends_with('\n') {
        s.push('\n');
    }
    Ok(s)
}

fn need(flag: &str, what: &str, value: Option<String>, diags: &mut Diagnostics) -> String {
    match value {
        Some(v) => v,
        None => {
            diags.push(
                Diagnostic::new(
                    Code::MissingRoleFlag,
                    format!("the MAS loop needs {what}, which the source cannot carry"),
                )
                .with_help(format!("pass `{flag} NAME`")),
            );
            String::new()
        }
    }
}

fn from_mas_spec(spec: &Spec, opts: &Options, diags: &mut Diagnostics) -> m::Loop {
    let kind = if spec.pattern == LoopPattern::Veal {
        LoopType::Veal
    } else {
        LoopType::Real
    };
    // The loop's own agents win; the flags only fill in what it does not name (`--help`:
    // "for a loop that does not name one").
    let actor = spec.roles.actor.clone().or_else(|| opts.actor.clone());
    let actor = need("--actor", "an `actor`", actor, diags);
    let g = &spec.goal;
    m::Loop {
        name: spec.name.clone(),
        kind,
        description: spec.description.clone(),
        validator: spec.roles.validator.clone().or_else(|| {
            // `--validator` is for a VEAL loop that does not name one.
            (kind == LoopType::Veal)
                .then(|| opts.validator.clone())
                .flatten()
        }),
        actor,
        mission: g.mission.clone(),
        max_attempts: spec.bounds.max_attempts,
        escalation: Some(spec.effective_escalation()),
        fallback_agent: spec.roles.fallback_agent.clone().or_else(|| {
            // `--fallback-agent` only matters for `escalation: fallback`.
            (spec.effective_escalation() == Escalation::Fallback)
                .then(|| opts.fallback_agent.clone())
                .flatten()
        }),
        success_criteria: g.success_criteria.clone(),
        checks: g.checks.as_ref().map(|cs| {
            cs.iter()
                .map(|c| m::Check {
                    id: c.id.clone(),
                    description: c.description.clone(),
                    kind: c.kind,
                    command: c.command.clone(),
                    pattern: c.pattern.clone(),
                    files: c.files.clone(),
                    file: c.file.clone(),
                    required: c.required,
                    expected: c.expected.clone(),
                })
                .collect()
        }),
        inputs: ports(g.inputs.as_deref()),
        outputs: ports(g.outputs.as_deref()),
    }
}

fn ports(ps: Option<&[ir::Port]>) -> Option<Vec<m::Port>> {
    ps.map(|ps| {
        ps.iter()
            .map(|p| m::Port {
                name: p.name.clone(),
                kind: p.kind,
                description: p.description.clone(),
                required: p.required,
                from: p.from.clone(),
                schema: p.schema.clone(),
                default: p.default.clone(),
            })
            .collect()
    })
}

/// `max_attempts = (max_steps + 1) / 3`, rounded up; reports `B002` when inexact, and when
/// the loop has no `max_steps` (its runs are bounded by the runtime's ceiling only, and a
/// MAS loop without `max_attempts` stops after 3).
fn attempts_from_steps(spec: &Spec, opts: &Options, diags: &mut Diagnostics) -> Option<u64> {
    let Some(steps) = spec.bounds.max_steps else {
        diags.push(opts.lost(
            Code::InexactBound,
            &spec.provenance.pointer(Field::MaxSteps),
            format!(
                "the loop has no `max_steps` (the harness stops its runs at its own ceiling, {} steps by default); the MAS loop gets the default `max_attempts`, 3 ({} steps)",
                crate::analysis::RUNTIME_MAX_STEPS,
                ir::max_steps_for(3)
            ),
        ));
        return None;
    };
    // In u128: `max_steps` may be u64::MAX, and `steps + 1` must not overflow.
    let plus_one = u128::from(steps) + 1;
    // The Go SDK holds `max_attempts` in an `int`: at most i64::MAX (issue 9).
    let cap = i64::MAX.unsigned_abs();
    let exact = plus_one % 3 == 0 && plus_one / 3 <= u128::from(cap);
    let attempts = u64::try_from(plus_one.div_ceil(3))
        .unwrap_or(u64::MAX)
        .clamp(1, cap);
    if !exact {
        let ptr = spec.provenance.pointer(Field::MaxSteps);
        diags.push(opts.lost(
            Code::InexactBound,
            &ptr,
            format!(
                "`max_steps` {steps} is not 3 * attempts - 1; `max_attempts` is rounded up to {attempts} ({} steps)",
                3 * u128::from(attempts) - 1
            ),
        ));
    }
    Some(attempts)
}

fn from_graph(spec: &Spec, info: &Info, opts: &Options, diags: &mut Diagnostics) -> m::Loop {
    if let Some(mut mas) = ir::carried::decode(spec) {
        // A graph written from a MAS loop: the loop it was written from.
        attempts_from_steps(spec, opts, diags);
        report_graph_losses(spec, Graph::Carried(&mas), opts, diags);
        mas.description = own_description(spec, mas.pattern);
        return from_mas_spec(&mas, opts, diags);
    }
    let shape = FixedLoop::recognise(spec);
    // 3 is the default: left out, as a loop written from MAS without it reads back.
    let max_attempts = attempts_from_steps(spec, opts, diags).filter(|&n| n != 3);
    let actor = need("--actor", "an `actor`", opts.actor.clone(), diags);
    let (kind, escalation_to) = match &shape {
        Some(s) => (loop_type(s.fixed.pattern), s.escalate_to),
        None => {
            let t = if info.reachable_terminals.contains(&Terminal::Handoff)
                || !info.reachable_terminals.contains(&Terminal::Abort)
            {
                Terminal::Handoff
            } else {
                Terminal::Abort
            };
            (LoopType::Real, t)
        }
    };
    let escalation_kind = match escalation_to {
        Terminal::Abort => Escalation::Abort,
        Terminal::End => Escalation::Continue,
        Terminal::Handoff if opts.fallback_agent.is_some() => Escalation::Fallback,
        Terminal::Handoff => Escalation::Human,
    };
    let validator = if kind == LoopType::Veal {
        Some(need(
            "--validator",
            "a `validator`",
            opts.validator.clone(),
            diags,
        ))
    } else {
        opts.validator.clone()
    };
    let (mission, checks) = match (&shape, kind) {
        (Some(s), LoopType::Veal) => {
            let objective = spec
                .phase(&s.first)
                .map(|p| p.objective.clone())
                .unwrap_or_default();
            (
                None,
                Some(vec![m::Check {
                    id: "validate".to_owned(),
                    description: Some(objective),
                    kind: Some(ir::CheckType::Manual),
                    command: None,
                    pattern: None,
                    files: None,
                    file: None,
                    required: None,
                    expected: None,
                }]),
            )
        }
        (Some(s), LoopType::Real) => (spec.phase(&s.first).map(|p| p.objective.clone()), None),
        (None, _) => (Some(outline(spec)), None),
    };
    let graph = match shape {
        Some(_) => Graph::Shaped(kind),
        None => Graph::Outlined,
    };
    report_graph_losses(spec, graph, opts, diags);
    m::Loop {
        name: spec.name.clone(),
        kind,
        description: own_description(spec, pattern_of(kind)),
        validator,
        actor,
        mission,
        max_attempts,
        escalation: Some(escalation_kind),
        fallback_agent: opts.fallback_agent.clone(),
        success_criteria: None,
        checks,
        inputs: None,
        outputs: None,
    }
}

/// The description, unless it is the placeholder a conversion from MAS wrote for a loop
/// without one.
fn own_description(spec: &Spec, pattern: LoopPattern) -> Option<String> {
    let placeholder = ir::carried::placeholder_description(&spec.name, pattern);
    spec.description.clone().filter(|d| *d != placeholder)
}

/// How a general graph becomes a MAS loop.
#[derive(Clone, Copy)]
enum Graph<'a> {
    /// Written from this MAS loop: read back exactly ([`ir::carried::decode`]).
    Carried(&'a Spec),
    /// The REAL or VEAL shape with objectives of its own.
    Shaped(LoopType),
    /// Any other graph: outlined in the mission.
    Outlined,
}

fn pattern_of(kind: LoopType) -> LoopPattern {
    match kind {
        LoopType::Veal => LoopPattern::Veal,
        LoopType::Real => LoopPattern::Real,
    }
}

/// The description plus the phase objectives, as a readable outline.
fn outline(spec: &Spec) -> String {
    let mut s = String::new();
    if let Some(d) = spec.description.as_deref().filter(|d| !d.trim().is_empty()) {
        s.push_str(d.trim());
        s.push_str("\n\n");
    }
    s.push_str("Phases:\n");
    let outgoing = spec.graph.outgoing();
    for (i, p) in spec.graph.phases.iter().enumerate() {
        let _ = writeln!(s, "{}. {}: {}", i + 1, p.id, p.objective.trim());
        for t in outgoing.from(&p.id) {
            let _ = writeln!(s, "   - on {} -> {}", t.on, t.to.as_str());
        }
    }
    s
}

fn report_graph_losses(spec: &Spec, graph: Graph, opts: &Options, diags: &mut Diagnostics) {
    super::report_final_names(spec, "multi-agent-spec", opts, diags);
    let p = |field: Field| spec.provenance.pointer(field);
    let mut lost = |ptr: String, what: &str| {
        diags.push(opts.lost(
            Code::LostField,
            &ptr,
            format!("multi-agent-spec has no field for {what} (`{ptr}`)"),
        ));
    };
    // The version a conversion writes for a MAS loop comes back: not lost.
    if spec
        .version
        .as_deref()
        .is_some_and(|v| v != ir::carried::DEFAULT_VERSION)
    {
        lost(p(Field::Version), "the package version");
    }
    // `$schema` is not reported: it only points editors at a schema for the source
    // format, so a file in another format has no use for it (the guide, `docs/src/formats.md`).
    if spec.readme.is_some() {
        lost(p(Field::Readme), "the README path");
    }
    if spec.license.is_some() {
        lost(p(Field::License), "the license");
    }
    if spec.environment.is_some() {
        lost(p(Field::Environment), "environment variables");
    }
    // A MAS loop's archetype is its type: `real` or `veal` comes back as it was.
    let kind = match graph {
        Graph::Carried(mas) => mas.pattern,
        Graph::Shaped(k) => pattern_of(k),
        Graph::Outlined => LoopPattern::Real,
    };
    let own = match kind {
        LoopPattern::Veal => "veal",
        _ => "real",
    };
    if spec.archetype.as_deref().is_some_and(|a| a != own) {
        lost(p(Field::Archetype), "the archetype");
    }
    match graph {
        Graph::Carried(mas) => {
            if let Some(names) = own_phase_names(spec) {
                lost(p(Field::Phases), &names);
            }
            for (at, what) in ir::carried::edits_since_written(spec, mas) {
                lost(at, &what);
            }
        }
        Graph::Shaped(_) => lost(
            p(Field::Phases),
            "phase ids, objectives, access and outcome descriptions (the REAL/VEAL shape is kept)",
        ),
        Graph::Outlined => {
            lost(
                p(Field::Phases),
                "phases (their objectives are outlined in `mission`)",
            );
            lost(p(Field::Transitions), "transitions (outlined in `mission`)");
        }
    }
    if spec
        .graph
        .checkpoints
        .as_ref()
        .is_some_and(|c| !c.is_empty())
    {
        lost(p(Field::Checkpoints), "approval checkpoints");
    }
    if spec.bounds.error_policy.is_some() {
        lost(p(Field::ErrorPolicy), "the error policy");
    }
}

/// What is lost of a graph written from a MAS loop whose phases were renamed since: their
/// names (MAS has fixed ones). `None` when they are the fixed loop's own.
fn own_phase_names(spec: &Spec) -> Option<String> {
    let shape = FixedLoop::recognise(spec)?;
    let fixed = &shape.fixed;
    let own = [&shape.first, &shape.eval, &shape.act];
    let standard = [fixed.first, fixed.eval, fixed.act];
    if own.iter().zip(standard).all(|(o, s)| o.as_str() == s) {
        return None;
    }
    let list = |ids: &[&str]| {
        ids.iter()
            .map(|id| format!("`{id}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let own: Vec<&str> = own.iter().map(|s| s.as_str()).collect();
    Some(format!(
        "the phase names {} (a {} loop's phases are {})",
        list(&own),
        if fixed.pattern == LoopPattern::Veal {
            "VEAL"
        } else {
            "REAL"
        },
        list(&standard)
    ))
}

fn loop_type(p: LoopPattern) -> LoopType {
    match p {
        LoopPattern::Veal => LoopType::Veal,
        LoopPattern::Real | LoopPattern::General => LoopType::Real,
    }
}

/// `B005` for a multi-agent-spec loop about to be written as YAML: each port `schema`,
/// located at the port in the source; not for one the source's own `F015` reported
/// already (a YAML file read and written again: one cause, one diagnostic).
fn warn_written(spec: &Spec, l: &m::Loop, diags: &mut Diagnostics) {
    for ptr in l.port_schemas() {
        let (field, rest) = match ptr.strip_prefix("/inputs") {
            Some(rest) => (Field::Inputs, rest),
            None => (Field::Outputs, ptr.strip_prefix("/outputs").unwrap_or("")),
        };
        let source = format!("{}{rest}", spec.provenance.pointer(field));
        let read_already = (diags.items().iter())
            .any(|d| d.code == Code::YamlPortSchema && d.location.pointer == source);
        if read_already {
            continue;
        }
        diags.push(
            Diagnostic::new(
                Code::WrittenPortSchema,
                format!(
                    "the written YAML has a port `schema` at `{}`, which the multi-agent-spec Go SDK cannot load from YAML",
                    crate::pointer::field_path(&ptr)
                ),
            )
            .with_help(m::PORT_SCHEMA_HELP)
            .at_key(source),
        );
    }
}
