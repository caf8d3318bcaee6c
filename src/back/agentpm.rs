//! IR -> AgentPM loop manifest (JSON through serde).
//!
//! The graph is written as it is. A MAS loop's graph was built by the front end (mapping.md);
//! what AgentPM cannot hold (agent names, structured checks, ports, success criteria and
//! mission as fields) is in the objectives as text and reported as lost (`B001`).

use super::{ConvertOptions, Error};
use crate::diag::{Code, Diagnostics};
use crate::ir::{Field, Spec};
use crate::model::agentpm as m;

/// Build the manifest.
pub fn to_model(spec: &Spec, opts: &ConvertOptions, diags: &mut Diagnostics) -> m::Manifest {
    report_losses(spec, opts, diags);
    let from_other = spec.source_format != crate::ir::SourceFormat::Agentpm;
    let description = spec
        .description
        .clone()
        .unwrap_or_else(|| match spec.pattern {
            crate::ir::Pattern::Real => format!(
                "REAL loop `{}` (converted from multi-agent-spec).",
                spec.name
            ),
            crate::ir::Pattern::Veal => format!(
                "VEAL loop `{}` (converted from multi-agent-spec).",
                spec.name
            ),
            crate::ir::Pattern::General => format!("Loop `{}`.", spec.name),
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
            limits: (spec.bounds.limits_present || spec.bounds.max_steps.is_some()).then_some(
                m::Limits {
                    max_steps: spec.bounds.max_steps,
                },
            ),
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
fn package_name(spec: &Spec, opts: &ConvertOptions, diags: &mut Diagnostics) -> String {
    if spec.name.chars().count() <= MAX_NAME {
        return spec.name.clone();
    }
    let cut: String = spec.name.chars().take(MAX_NAME).collect();
    let ptr = spec.pointer(Field::Name);
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
pub fn write(spec: &Spec, opts: &ConvertOptions, diags: &mut Diagnostics) -> Result<String, Error> {
    let man = to_model(spec, opts, diags);
    let mut s = serde_json::to_string_pretty(&man).map_err(|e| Error::Serialize(e.to_string()))?;
    s.push('\n');
    Ok(s)
}

fn report_losses(spec: &Spec, opts: &ConvertOptions, diags: &mut Diagnostics) {
    let lost = |diags: &mut Diagnostics, field: Field, what: &str, present: bool, how: &str| {
        if present {
            let ptr = spec.pointer(field);
            diags.push(opts.lost(
                Code::LostField,
                &ptr,
                format!("AgentPM has no field for {what} (`{ptr}`); {how}"),
            ));
        }
    };
    let r = &spec.roles;
    lost(
        diags,
        Field::Validator,
        "the validator agent",
        r.validator.is_some(),
        "it is named in the `validate` objective",
    );
    if let Some(a) = &r.actor {
        let ptr = match spec.read_as.0 {
            crate::ir::SourceFormat::Ir => "/roles/actor".to_owned(),
            _ => "/actor".to_owned(),
        };
        diags.push(opts.lost(
            Code::LostField,
            &ptr,
            format!("AgentPM has no field for the actor agent `{a}` (`{ptr}`); it is named in the `act` objective"),
        ));
    }
    lost(
        diags,
        Field::FallbackAgent,
        "the fallback agent",
        r.fallback_agent.is_some(),
        "escalation goes to `$handoff` and the `eval` objective names the agent",
    );
    let goal = &spec.goal;
    lost(
        diags,
        Field::Mission,
        "the mission",
        goal.mission.is_some(),
        "it is written into the `read` objective as text",
    );
    lost(
        diags,
        Field::Checks,
        "structured checks",
        goal.checks.as_ref().is_some_and(|c| !c.is_empty()),
        "they are described in the `validate` objective as text",
    );
    let base = match spec.read_as.0 {
        crate::ir::SourceFormat::Ir => "/goal",
        _ => "",
    };
    for (key, present, how) in [
        (
            "success_criteria",
            goal.success_criteria.is_some(),
            "it is written into the `eval` objective as text",
        ),
        (
            "inputs",
            goal.inputs.as_ref().is_some_and(|v| !v.is_empty()),
            // Only a REAL loop has a `read` phase whose objective names the inputs.
            if spec.pattern == crate::ir::Pattern::Real {
                "the `read` objective names them"
            } else {
                "they are dropped"
            },
        ),
        (
            "outputs",
            goal.outputs.as_ref().is_some_and(|v| !v.is_empty()),
            "they are dropped",
        ),
    ] {
        if present {
            let ptr = format!("{base}/{key}");
            diags.push(opts.lost(
                Code::LostField,
                &ptr,
                format!("AgentPM has no field for `{key}` (`{ptr}`); {how}"),
            ));
        }
    }
}
