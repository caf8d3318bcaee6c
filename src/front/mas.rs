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
//! The objectives carry the MAS fields exactly, in the wording of [`ir::carried`], which
//! the MAS back end reads back.
//!
//! One attempt is one pass through the three phases and the last failed attempt escalates
//! from `eval`, so `max_steps = 3 * max_attempts - 1`.

use super::{FrontEnd, has_key};
use crate::format::Format;
use crate::front::shape::Profile;
use crate::ir::{self, Field, LoopPattern, Origin, Provenance, Spec, max_steps_for};
use crate::model::mas::{self as m, LoopType};
use crate::tree::Node;

/// Keys only a MAS loop has.
const MAS_KEYS: &[&str] = &[
    "actor",
    "validator",
    "mission",
    "checks",
    "max_attempts",
    "escalation",
];

/// A document with `type: REAL|VEAL`, or a `type` and a MAS key, is a MAS loop; so is one
/// with an `actor` and another MAS key, whose `type` is missing or misspelled (then
/// reported as such, not as a file of no known format).
pub fn claims(root: &Node) -> bool {
    let ty = root.get("type").and_then(|n| n.as_str());
    let mas_keys = MAS_KEYS.iter().filter(|k| has_key(root, k)).count();
    matches!(ty, Some("REAL" | "VEAL"))
        || (has_key(root, "type") && mas_keys > 0)
        || (has_key(root, "actor") && mas_keys > 1)
}

/// How a MAS loop is read: the interoperability warnings read the tree beside the model
/// (`front::interop`), then the lowering.
pub static FRONT_END: FrontEnd<m::Loop> = FrontEnd {
    format: Format::Mas,
    phases: None,
    consumes_tree: false,
    prepare: |_, _| Profile {
        max_integer: Some((
            i64::MAX.unsigned_abs(),
            "the multi-agent-spec Go SDK (`int`)",
        )),
        ..Profile::default()
    },
    warn: |l, doc, diags| super::interop::warn_read(doc, l, diags),
    lower: |l, _| lower(&l),
    fold_losses: None,
};

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
        LoopType::Real => LoopPattern::Real,
        LoopType::Veal => LoopPattern::Veal,
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
    spec.graph = ir::carried::derive_graph(&spec);
    spec.bounds.max_steps = Some(max_steps_for(spec.effective_max_attempts()));
    spec.archetype = Some(match pattern {
        LoopPattern::Veal => "veal".to_owned(),
        _ => "real".to_owned(),
    });
    spec
}
