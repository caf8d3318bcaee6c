//! AgentPM manifest -> IR. Every field has a place in the IR, so this is lossless.

use crate::ir::{self, Origin, Pattern, SourceFormat, Spec, Target};
use crate::model::agentpm as m;

/// Lower a manifest.
pub fn lower(man: &m::Manifest) -> Spec {
    let l = &man.loop_;
    let root = Origin::new("/loop");
    Spec {
        source_format: SourceFormat::Agentpm,
        kind_present: man.kind.is_some(),
        name: man.name.clone(),
        version: Some(man.version.clone()),
        description: Some(man.description.clone()),
        schema_uri: man.schema.clone(),
        readme: man.readme.clone(),
        license: man.license.as_ref().map(|l| ir::License {
            spdx: l.spdx.clone(),
            file: l.file.clone(),
        }),
        environment: man.environment.clone(),
        pattern: Pattern::General,
        archetype: l.archetype.clone(),
        roles: ir::Roles::default(),
        goal: ir::Goal::default(),
        graph: ir::Graph {
            entry: l.entry_phase.clone(),
            entry_origin: root.child("entry_phase"),
            phases: l
                .phases
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let po = root.child("phases").child(i);
                    ir::Phase {
                        id: p.id.clone(),
                        objective: p.objective.clone(),
                        access: p.access.as_ref().map(|a| ir::Access {
                            tools: a.tools,
                            knowledge: a.knowledge,
                            memory: a.memory.as_ref().map(|mm| ir::MemoryAccess {
                                read: mm.read,
                                write: mm.write,
                            }),
                        }),
                        outcomes: p.outcomes.as_ref().map(|os| {
                            os.iter()
                                .enumerate()
                                .map(|(j, o)| ir::Outcome {
                                    id: o.id.clone(),
                                    description: o.description.clone(),
                                    origin: po.child("outcomes").child(j),
                                })
                                .collect()
                        }),
                        origin: po,
                    }
                })
                .collect(),
            transitions: l
                .transitions
                .iter()
                .enumerate()
                .map(|(i, t)| ir::Transition {
                    from: t.from.clone(),
                    on: t.on.clone(),
                    to: Target::parse(&t.to),
                    origin: root.child("transitions").child(i),
                })
                .collect(),
            checkpoints: l.checkpoints.as_ref().map(|cs| {
                cs.iter()
                    .enumerate()
                    .map(|(i, c)| ir::Checkpoint {
                        id: c.id.clone(),
                        before_phase: c.before_phase.clone(),
                        on_reject: Target::parse(&c.on_reject),
                        origin: root.child("checkpoints").child(i),
                    })
                    .collect()
            }),
        },
        bounds: ir::Bounds {
            max_steps: l.limits.as_ref().and_then(|x| x.max_steps),
            limits_present: l.limits.is_some(),
            max_attempts: None,
            escalation: None,
            error_policy: l.error_policy.clone(),
        },
        read_as: ir::ReadAs(SourceFormat::Agentpm),
    }
}
