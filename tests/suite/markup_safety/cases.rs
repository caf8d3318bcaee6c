//! The loops that carry a hostile string in every free-text field (AgentPM, VEAL, REAL).

use loopconv::ir::Spec;
use loopconv::model::agentpm as am;
use loopconv::model::mas as mm;
use loopconv::valid::Info;
use loopconv::{Format, LoadOptions, Loaded};
use serde_json::{Value, json};
// ---------------------------------------------------------------------------------------
// Markdown.

// ---------------------------------------------------------------------------------------
// Loops holding a hostile string in every free-text field.

pub(crate) fn agentpm_matrix(s: &str) -> am::Manifest {
    let outcome = |id: &str| am::Outcome {
        id: id.to_owned(),
        description: s.to_owned(),
    };
    let transition = |from: &str, on: &str, to: &str| am::Transition {
        from: from.to_owned(),
        on: on.to_owned(),
        to: to.to_owned(),
    };
    am::Manifest {
        schema: Some(s.to_owned()),
        kind: Some(am::Kind::Loop),
        name: "hostile".to_owned(),
        version: "1.0.0".to_owned(),
        description: s.to_owned(),
        readme: Some(s.to_owned()),
        license: Some(am::License {
            spdx: Some(s.to_owned()),
            file: Some(s.to_owned()),
        }),
        environment: Some(
            json!({ "vars": { "HOSTILE": { "required": true, "description": s, "default": s } } }),
        ),
        loop_: am::Loop {
            archetype: Some(s.to_owned()),
            entry_phase: "first".to_owned(),
            limits: Some(am::Limits { max_steps: Some(9) }),
            phases: vec![
                am::Phase {
                    id: "first".to_owned(),
                    objective: s.to_owned(),
                    access: Some(am::Access {
                        tools: Some(true),
                        knowledge: Some(false),
                        memory: Some(am::MemoryAccess {
                            read: Some(true),
                            write: None,
                        }),
                    }),
                    outcomes: Some(vec![outcome("ok"), outcome("stop")]),
                },
                am::Phase {
                    id: "second".to_owned(),
                    objective: s.to_owned(),
                    access: None,
                    outcomes: Some(vec![outcome("done"), outcome("escalate")]),
                },
            ],
            transitions: vec![
                transition("first", "ok", "second"),
                transition("first", "stop", "$abort"),
                transition("second", "done", "$end"),
                transition("second", "escalate", "$handoff"),
            ],
            checkpoints: Some(vec![am::Checkpoint {
                id: "approve-second".to_owned(),
                kind: am::CheckpointType::Approval,
                before_phase: "second".to_owned(),
                on_reject: "first".to_owned(),
            }]),
            error_policy: None,
        },
    }
}

pub(crate) fn check(id: &str, kind: mm::CheckType, s: &str) -> mm::Check {
    let when = |k: mm::CheckType| (kind == k).then(|| s.to_owned());
    mm::Check {
        id: id.to_owned(),
        description: Some(s.to_owned()),
        kind: Some(kind),
        command: when(mm::CheckType::Command),
        pattern: when(mm::CheckType::Pattern),
        files: matches!(kind, mm::CheckType::Pattern | mm::CheckType::File).then(|| s.to_owned()),
        file: when(mm::CheckType::File),
        required: Some(kind != mm::CheckType::Manual),
        expected: Some(s.to_owned()),
    }
}

pub(crate) fn port(s: &str, kind: mm::PortType, default: Value) -> mm::Port {
    mm::Port {
        name: s.to_owned(),
        kind: Some(kind),
        description: Some(s.to_owned()),
        required: Some(true),
        from: Some(s.to_owned()),
        schema: Some(json!({ "type": "string", "description": s, "enum": [s] })),
        default: Some(default),
    }
}

pub(crate) fn mas_matrix(s: &str, kind: mm::LoopType) -> mm::Loop {
    use mm::CheckType as C;
    mm::Loop {
        name: "hostile".to_owned(),
        kind,
        description: Some(s.to_owned()),
        validator: (kind == mm::LoopType::Veal).then(|| s.to_owned()),
        actor: s.to_owned(),
        mission: Some(s.to_owned()),
        max_attempts: Some(2),
        escalation: Some(mm::Escalation::Fallback),
        fallback_agent: Some(s.to_owned()),
        success_criteria: Some(s.to_owned()),
        checks: Some(vec![
            check("by-command", C::Command, s),
            check("by-pattern", C::Pattern, s),
            check("by-file", C::File, s),
            check("by-hand", C::Manual, s),
        ]),
        inputs: Some(vec![port(s, mm::PortType::String, json!(s))]),
        outputs: Some(vec![port(
            s,
            mm::PortType::Object,
            json!({ "text": s, "list": [s, 1, true, null] }),
        )]),
    }
}

/// Every free-text value of a loop, by field: what must round-trip exactly.
pub(crate) fn free_text(spec: &Spec) -> Vec<(String, Value)> {
    let mut v: Vec<(String, Value)> = Vec::new();
    fn put_in(v: &mut Vec<(String, Value)>, k: &str, x: Option<&String>) {
        if let Some(x) = x {
            v.push((k.to_owned(), Value::String(x.clone())));
        }
    }
    macro_rules! put {
        ($k:expr, $x:expr $(,)?) => {
            put_in(&mut v, $k, $x)
        };
    }
    put!("description", spec.description.as_ref());
    put!("archetype", spec.archetype.as_ref());
    put!("readme", spec.readme.as_ref());
    put!("$schema", spec.schema_uri.as_ref());
    if let Some(l) = &spec.license {
        put!("license.spdx", l.spdx.as_ref());
        put!("license.file", l.file.as_ref());
    }
    put!("actor", spec.roles.actor.as_ref());
    put!("validator", spec.roles.validator.as_ref());
    put!("fallback_agent", spec.roles.fallback_agent.as_ref());
    put!("mission", spec.goal.mission.as_ref());
    put!("success_criteria", spec.goal.success_criteria.as_ref());
    for (i, c) in spec.goal.checks.iter().flatten().enumerate() {
        put!(&format!("checks.{i}.description"), c.description.as_ref());
        put!(&format!("checks.{i}.command"), c.command.as_ref());
        put!(&format!("checks.{i}.pattern"), c.pattern.as_ref());
        put!(&format!("checks.{i}.files"), c.files.as_ref());
        put!(&format!("checks.{i}.file"), c.file.as_ref());
        put!(&format!("checks.{i}.expected"), c.expected.as_ref());
    }
    for (key, ports) in [
        ("inputs", &spec.goal.inputs),
        ("outputs", &spec.goal.outputs),
    ] {
        for (i, p) in ports.iter().flatten().enumerate() {
            put!(&format!("{key}.{i}.name"), Some(&p.name));
            put!(&format!("{key}.{i}.description"), p.description.as_ref());
            put!(&format!("{key}.{i}.from"), p.from.as_ref());
            if let Some(d) = &p.default {
                v.push((format!("{key}.{i}.default"), d.clone()));
            }
            if let Some(d) = &p.schema {
                v.push((format!("{key}.{i}.schema"), d.clone()));
            }
        }
    }
    if spec.source_format == Format::Agentpm {
        for (i, p) in spec.graph.phases.iter().enumerate() {
            put!(&format!("phases.{i}.objective"), Some(&p.objective));
            for (j, o) in p.outcomes.iter().flatten().enumerate() {
                put!(
                    &format!("phases.{i}.outcomes.{j}.description"),
                    Some(&o.description),
                );
            }
        }
    }
    if let Some(e) = &spec.environment {
        v.push(("environment".to_owned(), e.clone()));
    }
    v
}

/// One loop of the matrix, read through the whole front end.
pub(crate) struct Case {
    pub(crate) label: String,
    pub(crate) hostile: String,
    pub(crate) source: String,
    pub(crate) loaded: Loaded,
}

impl Case {
    pub(crate) fn new(label: String, hostile: &str, path: &str, source: String) -> Case {
        let loaded = loopconv::load(path, source.as_bytes(), &LoadOptions::default());
        Case {
            label,
            hostile: hostile.to_owned(),
            source,
            loaded,
        }
    }

    pub(crate) fn valid(&self) -> (&Spec, &Info) {
        let (spec, info) = self.loaded.valid().unwrap_or_else(|| {
            panic!(
                "{}: the hostile loop is not valid: {:#?}",
                self.label,
                self.loaded.diags.items()
            )
        });
        (spec, info)
    }
}

pub(crate) fn to_json<T: serde::Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("serialises");
    s.push('\n');
    s
}

/// The loops of one string: AgentPM, VEAL and REAL, each with the string in every
/// free-text field. The 100 KB string only goes into the AgentPM loop (the MAS loops would
/// hold it some twenty times over; `examples/hostile/mas-100kb.yaml` has a 100 KB mission).
pub(crate) fn cases_for(category: &str, s: &str) -> Vec<Case> {
    let label = if s.len() > 200 {
        format!("{category} ({} bytes)", s.len())
    } else {
        format!("{category} {s:?}")
    };
    if category == "long" {
        // In four fields only: each field costs a few hundred milliseconds at this size.
        let mut m = agentpm_matrix("long");
        m.description = s.to_owned();
        m.loop_.phases[0].objective = s.to_owned();
        m.loop_.phases[1]
            .outcomes
            .iter_mut()
            .flatten()
            .for_each(|o| o.description = s.to_owned());
        m.license = Some(am::License {
            spdx: None,
            file: Some(s.to_owned()),
        });
        return vec![Case::new(
            format!("{label} AgentPM"),
            s,
            "hostile.json",
            to_json(&m),
        )];
    }
    let mut out = vec![Case::new(
        format!("{label} AgentPM"),
        s,
        "hostile.json",
        to_json(&agentpm_matrix(s)),
    )];
    for kind in [mm::LoopType::Veal, mm::LoopType::Real] {
        let l = mas_matrix(s, kind);
        // YAML through serde-saphyr (independent of loopconv's MAS writer).
        let yaml = serde_saphyr::to_string(&l).expect("MAS loop serialises");
        out.push(Case::new(
            format!("{label} {kind:?}"),
            s,
            "hostile.yaml",
            yaml,
        ));
    }
    out
}
