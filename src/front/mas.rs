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

use crate::ir::{self, Origin, Pattern, SourceFormat, Spec, Target, Terminal};
use crate::model::mas::{self as m, Escalation, LoopType};

/// Where an escalation goes in the graph.
pub fn escalation_target(e: Escalation) -> Terminal {
    match e {
        Escalation::Human | Escalation::Fallback => Terminal::Handoff,
        Escalation::Abort => Terminal::Abort,
        Escalation::Continue => Terminal::End,
    }
}

/// `3 * max_attempts - 1`, saturating.
pub fn max_steps_for(attempts: u64) -> u64 {
    attempts.saturating_mul(3).saturating_sub(1).max(1)
}

/// Lower a MAS loop.
pub fn lower(l: &m::Loop) -> Spec {
    let pattern = match l.kind {
        LoopType::Real => Pattern::Real,
        LoopType::Veal => Pattern::Veal,
    };
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
                origin: Origin::new(format!("/checks/{i}")),
            })
            .collect::<Vec<_>>()
    });
    let ports = |ps: &Option<Vec<m::Port>>, key: &str| {
        ps.as_ref().map(|ps| {
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
                    origin: Origin::new(format!("/{key}/{i}")),
                })
                .collect::<Vec<_>>()
        })
    };
    let mut spec = Spec {
        source_format: SourceFormat::Mas,
        kind_present: true,
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
            limits_present: false,
            max_attempts: l.max_attempts,
            escalation: l.escalation,
            error_policy: None,
        },
        read_as: ir::ReadAs(SourceFormat::Mas),
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
                m::CheckType::Command => c.command.clone(),
                m::CheckType::Pattern => c.pattern.clone().map(|p| match &c.files {
                    Some(f) => format!("{p} in {f}"),
                    None => p,
                }),
                m::CheckType::File => c.file.clone(),
                m::CheckType::Manual => c.description.clone(),
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

/// The three-phase graph of a REAL or VEAL loop.
pub fn derive_graph(spec: &Spec) -> ir::Graph {
    let o = Origin::new("/type");
    let attempts = spec.effective_max_attempts();
    let esc = spec.effective_escalation();
    let esc_target = escalation_target(esc);
    let actor = spec
        .roles
        .actor
        .clone()
        .unwrap_or_else(|| "the actor".to_owned());
    let criteria = spec
        .goal
        .success_criteria
        .as_deref()
        .map(one_line)
        .map(|c| format!(" Success criteria: {}", sentence(&c)))
        .unwrap_or_default();
    let esc_text = match esc {
        Escalation::Fallback => format!(
            "escalation: fallback to agent `{}`",
            spec.roles.fallback_agent.as_deref().unwrap_or("?")
        ),
        other => format!("escalation: {}", other.as_str()),
    };
    let escalate_rule = format!(
        " After {attempts} failed evaluations (max_attempts), choose `escalate` ({esc_text})."
    );
    let transition = |from: &str, on: &str, to: Target| ir::Transition {
        from: from.to_owned(),
        on: on.to_owned(),
        to,
        origin: o.clone(),
    };
    let phase = |id: &str,
                 objective: String,
                 access: Option<ir::Access>,
                 outcomes: Option<Vec<ir::Outcome>>| ir::Phase {
        id: id.to_owned(),
        objective,
        access,
        outcomes,
        origin: o.clone(),
    };
    // What differs between REAL and VEAL: the first phase and the words. The shape (the
    // acronym's letters as phases, L as the back edge) is the same.
    let (first, first_objective, first_access, eval_objective, success, retry, act_objective) =
        match spec.pattern {
            Pattern::Veal => {
                let validator = spec
                    .roles
                    .validator
                    .clone()
                    .unwrap_or_else(|| "the validator".to_owned());
                let checks = spec.goal.checks.as_deref().unwrap_or(&[]);
                let check_text = if checks.is_empty() {
                    String::new()
                } else {
                    format!(" Checks: {}.", describe_checks(checks))
                };
                (
                    "validate",
                    format!(
                        "Validator `{validator}` runs every check read-only and reports each result.{check_text}"
                    ),
                    access(true, Some(true), true, Some(true)),
                    format!(
                        "Evaluate the check results: GO only if every required check passed, otherwise NO-GO.{criteria}{escalate_rule}"
                    ),
                    ("go", "Every required check passed (GO)."),
                    (
                        "no-go",
                        "A required check failed (NO-GO); the actor corrects the state.",
                    ),
                    format!(
                        "Actor `{actor}` fixes what the failing checks found, then the state is validated again."
                    ),
                )
            }
            _ => {
                let mission = spec
                    .goal
                    .mission
                    .as_deref()
                    .map(one_line)
                    .map(|m| format!(" Mission: {}", sentence(&m)))
                    .unwrap_or_default();
                let inputs = spec
                    .goal
                    .inputs
                    .as_deref()
                    .filter(|i| !i.is_empty())
                    .map(|i| {
                        format!(
                            " Inputs: {}.",
                            i.iter()
                                .map(|p| p.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })
                    .unwrap_or_default();
                (
                    "read",
                    format!(
                        "Read the mission and requirements and gather the current state.{mission}{inputs}"
                    ),
                    access(true, None, true, Some(true)),
                    format!(
                        "Evaluate the situation against the mission: is it complete, or what should be done next?{criteria}{escalate_rule}"
                    ),
                    ("mission-complete", "The mission is complete."),
                    (
                        "act",
                        "The mission is not complete; the actor works toward it.",
                    ),
                    format!(
                        "Actor `{actor}` works toward the mission, then the loop reads the new state."
                    ),
                )
            }
        };
    ir::Graph {
        entry: first.to_owned(),
        entry_origin: o.clone(),
        phases: vec![
            phase(first, first_objective, first_access, None),
            phase(
                "eval",
                eval_objective,
                access(false, None, true, None),
                Some(vec![
                    outcome(success.0, success.1, &o),
                    outcome(retry.0, retry.1, &o),
                    outcome(
                        "escalate",
                        &format!("Attempts are exhausted; {esc_text}."),
                        &o,
                    ),
                ]),
            ),
            phase(
                "act",
                act_objective,
                access(true, Some(true), true, Some(true)),
                None,
            ),
        ],
        transitions: vec![
            transition(first, "complete", Target::Phase("eval".to_owned())),
            transition("eval", success.0, Target::Terminal(Terminal::End)),
            transition("eval", retry.0, Target::Phase("act".to_owned())),
            transition("eval", "escalate", Target::Terminal(esc_target)),
            transition("act", "complete", Target::Phase(first.to_owned())),
        ],
        checkpoints: None,
    }
}
