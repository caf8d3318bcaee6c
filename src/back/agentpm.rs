//! IR -> AgentPM loop manifest (JSON through serde).
//!
//! The graph is written as it is. A MAS loop's graph was built by the front end (mapping.md);
//! the MAS fields AgentPM has no field for (agent names, checks, ports, mission, success
//! criteria) are carried in its objectives exactly ([`crate::ir::carried`]), and each is
//! reported (`B001`) with the objective that carries it.

use super::{Error, Options};
use crate::diag::{Code, Diagnostics};
use crate::format::Format;
use crate::ir::{Escalation, Field, FixedLoop, Spec};
use crate::model::agentpm as m;
use crate::valid::Info;

/// Build the manifest.
pub fn to_model(spec: &Spec, opts: &Options, diags: &mut Diagnostics) -> m::Manifest {
    report_losses(spec, opts, diags);
    super::report_final_names(spec, "AgentPM", opts, diags);
    let from_other = spec.source_format != Format::Agentpm;
    let description = spec
        .description
        .clone()
        .unwrap_or_else(|| crate::ir::carried::placeholder_description(&spec.name, spec.pattern));
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
                        memory: a.memory.as_ref().map(|mm| m::MemoryAccess {
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

/// `B001` for each MAS field AgentPM has no field for, at its place in the source, saying
/// which objective carries it ([`crate::ir::carried`]: exactly, so that the conversion back
/// to MAS restores it).
fn report_losses(spec: &Spec, opts: &Options, diags: &mut Diagnostics) {
    let Some(fixed) = FixedLoop::of(spec.pattern) else {
        return;
    };
    let r = &spec.roles;
    let g = &spec.goal;
    let agent = |role: &str, name: &Option<String>| {
        name.as_deref()
            .map(|a| format!("the {role} agent `{}`", crate::text::one_line(a)))
    };
    let list = |what: &str, present: bool| present.then(|| what.to_owned());
    let named_in = |phase: &str| format!("it is named in the `{phase}` objective");
    let written = |phase: &str| format!("it is written into the `{phase}` objective as text");
    let listed = |phase: &str| format!("they are written into the `{phase}` objective as text");
    let fallback = spec.effective_escalation() == Escalation::Fallback;
    let lost: [(Field, Option<String>, String); 9] = [
        (
            Field::Validator,
            agent("validator", &r.validator),
            named_in(fixed.first),
        ),
        (Field::Actor, agent("actor", &r.actor), named_in(fixed.act)),
        (
            Field::FallbackAgent,
            agent("fallback", &r.fallback_agent),
            named_in(fixed.eval),
        ),
        (
            Field::Escalation,
            fallback.then(|| "an escalation to a fallback agent".to_owned()),
            format!("`{}` goes to `$handoff`", fixed.escalate),
        ),
        (
            Field::Mission,
            g.mission.as_ref().map(|_| "the mission".into()),
            written(fixed.first),
        ),
        (
            Field::Checks,
            list("structured checks", non_empty(g.checks.as_deref())),
            listed(fixed.first),
        ),
        (
            Field::SuccessCriteria,
            g.success_criteria
                .as_ref()
                .map(|_| "`success_criteria`".into()),
            written(fixed.eval),
        ),
        (
            Field::Inputs,
            list("`inputs`", non_empty(g.inputs.as_deref())),
            listed(fixed.first),
        ),
        (
            Field::Outputs,
            list("`outputs`", non_empty(g.outputs.as_deref())),
            listed(fixed.eval),
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
    report_saturated_steps(spec, opts, diags);
}

/// `B002`: `max_attempts` so large that `3 * max_attempts - 1` steps does not fit
/// `max_steps` (an unsigned 64-bit integer), which then holds the largest it can.
fn report_saturated_steps(spec: &Spec, opts: &Options, diags: &mut Diagnostics) {
    let attempts = spec.effective_max_attempts();
    let needed = u128::from(attempts) * 3 - 1;
    if needed <= u128::from(u64::MAX) {
        return;
    }
    let ptr = spec.provenance.pointer(Field::MaxAttempts);
    diags.push(opts.lost(
        Code::InexactBound,
        &ptr,
        format!(
            "`max_attempts` {attempts} needs {needed} steps, more than `max_steps` can hold; it is written as {}",
            crate::ir::max_steps_for(attempts)
        ),
    ));
}

fn non_empty<T>(v: Option<&[T]>) -> bool {
    v.is_some_and(|v| !v.is_empty())
}
