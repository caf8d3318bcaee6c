//! IR -> AgentPM loop manifest (JSON through serde).
//!
//! The graph is written as it is. A MAS loop's graph was built by the front end (mapping.md);
//! what AgentPM cannot hold (agent names, structured checks, ports, success criteria and
//! mission as fields) is in the objectives as text and reported as lost (`B001`).

use super::{Error, Options};
use crate::diag::{Code, Diagnostics};
use crate::format::Format;
use crate::ir::{Field, Pattern, Spec};
use crate::model::agentpm as m;
use crate::valid::Info;

/// Build the manifest.
pub fn to_model(spec: &Spec, opts: &Options, diags: &mut Diagnostics) -> m::Manifest {
    report_losses(spec, opts, diags);
    let from_other = spec.source_format != Format::Agentpm;
    let description = spec
        .description
        .clone()
        .unwrap_or_else(|| match spec.pattern {
            Pattern::Real => format!(
                "REAL loop `{}` (converted from multi-agent-spec).",
                spec.name
            ),
            Pattern::Veal => format!(
                "VEAL loop `{}` (converted from multi-agent-spec).",
                spec.name
            ),
            Pattern::General => format!("Loop `{}`.", spec.name),
        });
    let g = &spec.graph;
    m::Manifest {
        schema: spec
            .schema_uri
            .clone()
            .or_else(|| from_other.then(|| m::UPSTREAM_SCHEMA_URI.to_owned())),
        // Always written, even for a source without it (seed 000): upstream requires it, and
        // every file loopconv writes must pass the upstream schema (formats.md).
        kind: Some(m::Kind::Loop),
        name: package_name(spec, opts, diags),
        version: opts
            .version
            .clone()
            .or_else(|| spec.version.clone())
            .unwrap_or_else(|| "0.1.0".to_owned()),
        description,
        readme: spec.readme.clone(),
        license: spec.license.as_ref().map(|l| m::License {
            spdx: l.spdx.clone(),
            file: l.file.clone(),
        }),
        environment: spec.environment.clone(),
        loop_: m::Loop {
            archetype: spec.archetype.clone(),
            entry_phase: g.entry.clone(),
            limits: spec
                .bounds
                .max_steps
                .map(|n| m::Limits { max_steps: Some(n) }),
            phases: g
                .phases
                .iter()
                .map(|p| m::Phase {
                    id: p.id.clone(),
                    objective: p.objective.clone(),
                    access: p.access.as_ref().map(|a| m::Access {
                        tools: a.tools,
                        knowledge: a.knowledge,
                        memory: a.memory.as_ref().map(|mm| m::Memory {
                            read: mm.read,
                            write: mm.write,
                        }),
                    }),
                    outcomes: p.outcomes.as_ref().map(|os| {
                        os.iter()
                            .map(|o| m::Outcome {
                                id: o.id.clone(),
                                description: o.description.clone(),
                            })
                            .collect()
                    }),
                })
                .collect(),
            transitions: g
                .transitions
                .iter()
                .map(|t| m::Transition {
                    from: t.from.clone(),
                    on: t.on.clone(),
                    to: t.to.as_str().to_owned(),
                })
                .collect(),
            checkpoints: g.checkpoints.as_ref().map(|cs| {
                cs.iter()
                    .map(|c| m::Checkpoint {
                        id: c.id.clone(),
                        kind: m::CheckpointType::Approval,
                        before_phase: c.before_phase.clone(),
                        on_reject: c.on_reject.as_str().to_owned(),
                    })
                    .collect()
            }),
            error_policy: spec.bounds.error_policy.clone(),
        },
    }
}

/// Longest AgentPM package name (`^[a-z][a-z0-9-]{0,63}$`).
const MAX_NAME: usize = 64;

/// The package name. A multi-agent-spec name has no length limit; a longer one is cut to 64
/// characters and reported as lost (`B001`) instead of producing a manifest that fails
/// validation.
fn package_name(spec: &Spec, opts: &Options, diags: &mut Diagnostics) -> String {
    if spec.name.chars().count() <= MAX_NAME {
        return spec.name.clone();
    }
    let cut: String = spec.name.chars().take(MAX_NAME).collect();
    let ptr = spec.provenance.pointer(Field::Name);
    diags.push(opts.lost(
        Code::LostField,
        &ptr,
        format!(
            "AgentPM package names are at most {MAX_NAME} characters; `name` ({} characters) is cut to `{cut}`",
            spec.name.chars().count()
        ),
    ));
    cut
}

/// Write the manifest as pretty JSON with a trailing newline.
pub fn write(
    spec: &Spec,
    _info: &Info,
    opts: &Options,
    diags: &mut Diagnostics,
) -> Result<String, Error> {
    let man = to_model(spec, opts, diags);
    let mut s = serde_json::to_string_pretty(&man).map_err(Error::Json)?;
    s.push('\n');
    Ok(s)
}

/// `B001` for each MAS field AgentPM cannot hold, at its place in the source.
fn report_losses(spec: &Spec, opts: &Options, diags: &mut Diagnostics) {
    let r = &spec.roles;
    let g = &spec.goal;
    let inputs_how = if spec.pattern == Pattern::Real {
        // Only a REAL loop has a `read` phase whose objective names the inputs.
        "the `read` objective names them"
    } else {
        "they are dropped"
    };
    let actor = r.actor.as_deref().map(|a| format!("the actor agent `{a}`"));
    let lost: [(Field, Option<String>, &str); 8] = [
        (
            Field::Validator,
            r.validator.as_ref().map(|_| "the validator agent".into()),
            "it is named in the `validate` objective",
        ),
        (Field::Actor, actor, "it is named in the `act` objective"),
        (
            Field::FallbackAgent,
            r.fallback_agent
                .as_ref()
                .map(|_| "the fallback agent".into()),
            "escalation goes to `$handoff` and the `eval` objective names the agent",
        ),
        (
            Field::Mission,
            g.mission.as_ref().map(|_| "the mission".into()),
            "it is written into the `read` objective as text",
        ),
        (
            Field::Checks,
            non_empty(g.checks.as_deref()).then(|| "structured checks".into()),
            "they are described in the `validate` objective as text",
        ),
        (
            Field::SuccessCriteria,
            g.success_criteria
                .as_ref()
                .map(|_| "`success_criteria`".into()),
            "it is written into the `eval` objective as text",
        ),
        (
            Field::Inputs,
            non_empty(g.inputs.as_deref()).then(|| "`inputs`".into()),
            inputs_how,
        ),
        (
            Field::Outputs,
            non_empty(g.outputs.as_deref()).then(|| "`outputs`".into()),
            "they are dropped",
        ),
    ];
    for (field, what, how) in lost {
        if let Some(what) = what {
            let ptr = spec.provenance.pointer(field);
            diags.push(opts.lost(
                Code::LostField,
                &ptr,
                format!("AgentPM has no field for {what} (`{ptr}`); {how}"),
            ));
        }
    }
}

fn non_empty<T>(v: Option<&[T]>) -> bool {
    v.is_some_and(|v| !v.is_empty())
}
