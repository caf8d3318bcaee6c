//! multi-agent-spec loop -> IR.
//!
//! The MAS fields are kept as they are (roles, goal, `max_attempts`, `escalation`), and the
//! acronym becomes the phase graph (mapping.md): each letter but L is a phase, L is the back
//! edge.
//!
//! * VEAL: `validate -> eval -> act -> validate`, `eval` emits `go` (`$end`), `no-go`
//!   (`act`) or `escalate` (the escalation target);
//! * REAL: `read -> eval -> act -> read`, `eval` emits `mission-complete` (`$end`), `act`
//!   (`act`) or `escalate`.
//!
//! One attempt is one pass through the three phases and the last failed attempt escalates
//! from `eval`, so `max_steps = 3 * max_attempts - 1`.

use std::fmt::Write as _;

use super::{has_key, model};
use crate::diag::Diagnostics;
use crate::format::Format;
use crate::front::shape::Profile;
use crate::ir::{
    self, CheckType, Destination, Escalation, Field, FixedLoop, Origin, Pattern, Provenance, Spec,
    Terminal, max_steps_for,
};
use crate::model::mas::{self as m, LoopType};
use crate::tree::{Document, Node, ReadLimits};

/// Keys only a MAS loop has.
const MAS_KEYS: &[&str] = &[
    "actor",
    "validator",
    "mission",
    "checks",
    "max_attempts",
    "escalation",
];

/// A document with `type: REAL|VEAL`, or a `type` and a MAS key, is a MAS loop.
pub fn claims(root: &Node) -> bool {
    let ty = root.get("type").and_then(|n| n.as_str());
    matches!(ty, Some("REAL" | "VEAL"))
        || (has_key(root, "type") && MAS_KEYS.iter().any(|k| has_key(root, k)))
}

/// Read a MAS loop: shape, lowering.
pub fn read(doc: &Document, _limits: &ReadLimits, diags: &mut Diagnostics) -> Option<Spec> {
    let profile = Profile {
        max_integer: Some((
            i64::MAX.unsigned_abs(),
            "the multi-agent-spec Go SDK (`int`)",
        )),
        ..Profile::default()
    };
    let l: m::Loop = model(doc, Format::Mas, &profile, diags)?;
    super::interop::warn_read(doc, &l, diags);
    Some(lower(&l))
}

/// Where each loop-level field is in a MAS file (graph fields: the loop type).
pub fn pointer(field: Field) -> &'static str {
    match field {
        Field::Name => "/name",
        Field::Description => "/description",
        Field::Actor => "/actor",
        Field::Validator => "/validator",
        Field::FallbackAgent => "/fallback_agent",
        Field::Mission => "/mission",
        Field::SuccessCriteria => "/success_criteria",
        Field::Checks => "/checks",
        Field::Inputs => "/inputs",
        Field::Outputs => "/outputs",
        Field::Escalation => "/escalation",
        Field::MaxAttempts => "/max_attempts",
        Field::Version
        | Field::SchemaUri
        | Field::Readme
        | Field::License
        | Field::Environment
        | Field::Pattern
        | Field::Archetype
        | Field::Entry
        | Field::Phases
        | Field::Transitions
        | Field::Checkpoints
        | Field::MaxSteps
        | Field::ErrorPolicy
        | Field::ToolFailure => "/type",
    }
}

/// Lower a MAS loop.
pub fn lower(l: &m::Loop) -> Spec {
    let pattern = match l.kind {
        LoopType::Real => Pattern::Real,
        LoopType::Veal => Pattern::Veal,
    };
    let checks_at = Origin::new("/checks");
    let checks = l.checks.as_ref().map(|cs| {
        cs.iter()
            .enumerate()
            .map(|(i, c)| ir::Check {
                id: c.id.clone(),
                description: c.description.clone(),
                kind: c.kind,
                command: c.command.clone(),
                pattern: c.pattern.clone(),
                files: c.files.clone(),
                file: c.file.clone(),
                required: c.required,
                expected: c.expected.clone(),
                origin: checks_at.item(i),
            })
            .collect::<Vec<_>>()
    });
    let ports = |ps: &Option<Vec<m::Port>>, key: &str| {
        ps.as_ref().map(|ps| {
            let at = Origin::new(format!("/{key}"));
            ps.iter()
                .enumerate()
                .map(|(i, p)| ir::Port {
                    name: p.name.clone(),
                    kind: p.kind,
                    description: p.description.clone(),
                    required: p.required,
                    from: p.from.clone(),
                    schema: p.schema.clone(),
                    default: p.default.clone(),
                    origin: at.item(i),
                })
                .collect::<Vec<_>>()
        })
    };
    let mut spec = Spec {
        source_format: Format::Mas,
        name: l.name.clone(),
        version: None,
        description: l.description.clone(),
        schema_uri: None,
        readme: None,
        license: None,
        environment: None,
        pattern,
        archetype: None,
        roles: ir::Roles {
            actor: Some(l.actor.clone()),
            validator: l.validator.clone(),
            fallback_agent: l.fallback_agent.clone(),
        },
        goal: ir::Goal {
            mission: l.mission.clone(),
            success_criteria: l.success_criteria.clone(),
            checks,
            inputs: ports(&l.inputs, "inputs"),
            outputs: ports(&l.outputs, "outputs"),
        },
        graph: ir::Graph::default(),
        bounds: ir::Bounds {
            max_steps: None,
            max_attempts: l.max_attempts,
            escalation: l.escalation,
            error_policy: None,
        },
        provenance: Provenance::new(Format::Mas, pointer),
    };
    spec.graph = derive_graph(&spec);
    spec.bounds.max_steps = Some(max_steps_for(spec.effective_max_attempts()));
    spec.archetype = Some(match pattern {
        Pattern::Veal => "veal".to_owned(),
        _ => "real".to_owned(),
    });
    spec
}

fn access(
    tools: bool,
    knowledge: Option<bool>,
    read: bool,
    write: Option<bool>,
) -> Option<ir::Access> {
    Some(ir::Access {
        tools: Some(tools),
        knowledge,
        memory: Some(ir::MemoryAccess {
            read: Some(read),
            write,
        }),
    })
}

fn outcome(id: &str, description: &str, origin: &Origin) -> ir::Outcome {
    ir::Outcome {
        id: id.to_owned(),
        description: description.to_owned(),
        origin: origin.clone(),
    }
}

/// End a text with a period unless it already ends a sentence.
fn sentence(s: &str) -> String {
    if s.ends_with(['.', '!', '?']) {
        s.to_owned()
    } else {
        format!("{s}.")
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Describe the checks as readable text: `build (command: go build ./...)`.
pub fn describe_checks(checks: &[ir::Check]) -> String {
    let mut s = String::new();
    for (i, c) in checks.iter().enumerate() {
        if i > 0 {
            s.push_str("; ");
        }
        s.push_str(&c.id);
        let mut parts = Vec::new();
        if let Some(k) = c.kind {
            let detail = match k {
                CheckType::Command => c.command.clone(),
                CheckType::Pattern => c.pattern.clone().map(|p| match &c.files {
                    Some(f) => format!("{p} in {f}"),
                    None => p,
                }),
                CheckType::File => c.file.clone(),
                CheckType::Manual => c.description.clone(),
            };
            match detail {
                Some(d) => parts.push(format!("{}: {}", k.as_str(), one_line(&d))),
                None => parts.push(k.as_str().to_owned()),
            }
        }
        if c.required == Some(false) {
            parts.push("optional".to_owned());
        }
        if !parts.is_empty() {
            let _ = write!(s, " ({})", parts.join(", "));
        }
    }
    s
}

/// The three-phase graph of a REAL or VEAL loop, from the fixed-loop table.
pub fn derive_graph(spec: &Spec) -> ir::Graph {
    let fixed = FixedLoop::of(spec.pattern).unwrap_or(ir::REAL);
    let o = Origin::new("/type");
    let esc_text = escalation_text(spec);
    let transition = |from: &str, on: &str, to: Destination| ir::Transition {
        from: from.to_owned(),
        on: on.to_owned(),
        to,
        origin: o.clone(),
    };
    let phase = |id: &str, objective: String, access, outcomes| ir::Phase {
        id: id.to_owned(),
        objective,
        access,
        outcomes,
        origin: o.clone(),
    };
    let eval_outcomes = vec![
        outcome(fixed.success.0, fixed.success.1, &o),
        outcome(fixed.retry.0, fixed.retry.1, &o),
        outcome(
            fixed.escalate,
            &format!("Attempts are exhausted; {esc_text}."),
            &o,
        ),
    ];
    let first_access = match fixed.pattern {
        Pattern::Veal => access(true, Some(true), true, Some(true)),
        _ => access(true, None, true, Some(true)),
    };
    let back_to = |id: &str| Destination::Phase(id.to_owned());
    ir::Graph {
        entry: fixed.first.to_owned(),
        entry_origin: o.clone(),
        phases: vec![
            phase(fixed.first, first_objective(spec), first_access, None),
            phase(
                fixed.eval,
                eval_objective(spec, &esc_text),
                access(false, None, true, None),
                Some(eval_outcomes),
            ),
            phase(
                fixed.act,
                act_objective(spec),
                access(true, Some(true), true, Some(true)),
                None,
            ),
        ],
        transitions: vec![
            transition(fixed.first, ir::IMPLICIT_OUTCOME, back_to(fixed.eval)),
            transition(
                fixed.eval,
                fixed.success.0,
                Destination::Terminal(Terminal::End),
            ),
            transition(fixed.eval, fixed.retry.0, back_to(fixed.act)),
            transition(
                fixed.eval,
                fixed.escalate,
                Destination::Terminal(spec.effective_escalation().target()),
            ),
            transition(fixed.act, ir::IMPLICIT_OUTCOME, back_to(fixed.first)),
        ],
        checkpoints: None,
    }
}

/// `escalation: human`, or `escalation: fallback to agent `x``.
fn escalation_text(spec: &Spec) -> String {
    match spec.effective_escalation() {
        Escalation::Fallback => format!(
            "escalation: fallback to agent `{}`",
            spec.roles.fallback_agent.as_deref().unwrap_or("?")
        ),
        other => format!("escalation: {}", other.as_str()),
    }
}

/// The first phase's objective: the validator and its checks (VEAL), or the mission and
/// inputs (REAL).
fn first_objective(spec: &Spec) -> String {
    if spec.pattern == Pattern::Veal {
        let validator = spec.roles.validator.as_deref().unwrap_or("the validator");
        let checks = spec.goal.checks.as_deref().unwrap_or(&[]);
        let check_text = if checks.is_empty() {
            String::new()
        } else {
            format!(" Checks: {}.", describe_checks(checks))
        };
        return format!(
            "Validator `{validator}` runs every check read-only and reports each result.{check_text}"
        );
    }
    let mission = spec
        .goal
        .mission
        .as_deref()
        .map(|m| format!(" Mission: {}", sentence(&one_line(m))))
        .unwrap_or_default();
    let inputs = spec
        .goal
        .inputs
        .as_deref()
        .filter(|i| !i.is_empty())
        .map(|i| {
            let names: Vec<&str> = i.iter().map(|p| p.name.as_str()).collect();
            format!(" Inputs: {}.", names.join(", "))
        })
        .unwrap_or_default();
    format!("Read the mission and requirements and gather the current state.{mission}{inputs}")
}

/// The `eval` objective: the verdict rule, the success criteria and when to escalate.
fn eval_objective(spec: &Spec, esc_text: &str) -> String {
    let criteria = spec
        .goal
        .success_criteria
        .as_deref()
        .map(|c| format!(" Success criteria: {}", sentence(&one_line(c))))
        .unwrap_or_default();
    let attempts = spec.effective_max_attempts();
    let escalate_rule = format!(
        " After {attempts} failed evaluations (max_attempts), choose `escalate` ({esc_text})."
    );
    let verdict = match spec.pattern {
        Pattern::Veal => {
            "Evaluate the check results: GO only if every required check passed, otherwise NO-GO."
        }
        _ => {
            "Evaluate the situation against the mission: is it complete, or what should be done next?"
        }
    };
    format!("{verdict}{criteria}{escalate_rule}")
}

/// The `act` objective, naming the actor.
fn act_objective(spec: &Spec) -> String {
    let actor = spec.roles.actor.as_deref().unwrap_or("the actor");
    match spec.pattern {
        Pattern::Veal => format!(
            "Actor `{actor}` fixes what the failing checks found, then the state is validated again."
        ),
        _ => {
            format!("Actor `{actor}` works toward the mission, then the loop reads the new state.")
        }
    }
}
