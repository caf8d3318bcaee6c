//! The MAS back end: `MAS -> AgentPM -> MAS`, and a seed without `kind` written with it.

use crate::back::roundtrip::{
    convert, graph_key, json_value, lossy, mas_inputs, read, reread, sorted, strict,
};
use crate::support::{ir_json, load_file_as, rel};
use loopconv::back;
use loopconv::diag::Code;
use loopconv::ir::{FixedLoop, LoopPattern};
use loopconv::{Format, LoadOptions};
use serde_json::Value;

/// `--allow-lossy`, with the MAS loop's agents passed back as flags (`--actor`,
/// `--validator`, `--fallback-agent`), for converting its AgentPM graph back to MAS.
fn agents_as_flags(spec: &loopconv::ir::Spec) -> back::Options {
    back::Options {
        allow_lossy: true,
        actor: spec.roles.actor.clone(),
        validator: spec.roles.validator.clone(),
        fallback_agent: spec.roles.fallback_agent.clone(),
        ..back::Options::default()
    }
}

/// Seed 000 is the real react loop without `kind` and `$schema`: it is read (with warnings),
/// and written back with `kind: "loop"` (upstream requires it; every file loopconv writes
/// passes the upstream schema) and otherwise unchanged (`$schema` is optional upstream, so
/// it is not invented).
#[test]
fn seed_without_kind_is_written_with_kind() {
    let Some(path) = crate::support::shared_path("seeds/000_569ad6a5b24f8e1e.txt") else {
        return; // recorded, and named at the end of the run
    };
    let (spec, info, input) = read(&path, Format::Agentpm);
    let read_warnings = load_file_as(&path, Some(Format::Agentpm)).diags;
    assert!(
        read_warnings
            .items()
            .iter()
            .any(|d| d.code == Code::MissingKind),
        "seed 000 has no `kind`: {:#?}",
        read_warnings.items()
    );
    let (back, d) = convert("seed 000", &spec, &info, Format::Agentpm, &strict());
    assert!(d.is_empty(), "{:#?}", d.items());
    let mut expected = json_value("seed 000", &input);
    expected
        .as_object_mut()
        .expect("object")
        .insert("kind".to_owned(), Value::String("loop".to_owned()));
    assert_eq!(
        sorted(&json_value("seed 000 (back)", &back)),
        sorted(&expected),
        "{back}"
    );
    let (back_spec, _) = reread("seed 000 (back)", &back, Format::Agentpm);
    let again = loopconv::load(
        "seed 000 (back)",
        back.as_bytes(),
        &LoadOptions {
            from: Some(Format::Agentpm),
            ..LoadOptions::default()
        },
    );
    assert!(
        again
            .diags
            .items()
            .iter()
            .all(|d| d.code != Code::MissingKind),
        "{:#?}",
        again.diags.items()
    );
    assert_eq!(ir_json(&back_spec.graph), ir_json(&spec.graph));
}

/// `MAS -> AgentPM -> MAS` keeps every field the graph carries.
#[test]
fn mas_agentpm_mas() {
    for path in mas_inputs() {
        let name = rel(&path);
        let (spec, info, _) = read(&path, Format::Mas);
        let (agentpm, _) = convert(&name, &spec, &info, Format::Agentpm, &lossy());
        let (a_spec, a_info) = reread(&format!("{name} (AgentPM)"), &agentpm, Format::Agentpm);
        assert!(
            FixedLoop::recognise(&a_spec).is_some(),
            "{name}: the AgentPM graph lost the REAL/VEAL shape"
        );
        let flags = agents_as_flags(&spec);
        let (mas, _) = convert(
            &format!("{name} (AgentPM)"),
            &a_spec,
            &a_info,
            Format::Mas,
            &flags,
        );
        let (back, _) = reread(&format!("{name} (MAS again)"), &mas, Format::Mas);

        assert_eq!(back.name, spec.name, "{name}: name");
        assert_eq!(back.pattern, spec.pattern, "{name}: type");
        assert!(matches!(
            back.pattern,
            LoopPattern::Real | LoopPattern::Veal
        ));
        match &spec.description {
            Some(d) => assert_eq!(back.description.as_ref(), Some(d), "{name}: description"),
            // AgentPM requires a description, so the conversion writes a placeholder; the
            // conversion back recognises it and leaves it out again.
            None => assert_eq!(back.description, None, "{name}: description"),
        }
        assert_eq!(
            back.effective_max_attempts(),
            spec.effective_max_attempts(),
            "{name}: max_attempts"
        );
        assert_eq!(
            back.effective_escalation(),
            spec.effective_escalation(),
            "{name}: escalation"
        );
        assert_eq!(
            back.roles, spec.roles,
            "{name}: agents passed back as flags"
        );
        // The graph the MAS loop stands for is the same too.
        assert_eq!(graph_key(&back), graph_key(&spec), "{name}: graph");
    }
}

/// The REAL/VEAL shape is recognised up to phase naming (mapping.md): a graph written from
/// a MAS loop whose phases were renamed since converts back to the same MAS loop, checks
/// and all, and the names are reported lost (`B001`). Before: one `manual` check holding
/// the validator phase's objective, and the structured checks lost.
#[test]
fn renamed_phases_of_a_mas_graph_convert_back_to_the_same_loop() {
    for path in mas_inputs() {
        let name = rel(&path);
        let (spec, info, _) = read(&path, Format::Mas);
        let (agentpm, _) = convert(&name, &spec, &info, Format::Agentpm, &lossy());
        let shape = FixedLoop::of(spec.pattern).expect("a fixed loop");
        let new_name = |id: &str| {
            let names = [
                (shape.first, "first-step"),
                (shape.eval, "judge"),
                (shape.act, "work"),
            ];
            names
                .iter()
                .find(|(from, _)| *from == id)
                .map(|(_, to)| *to)
        };
        let mut graph: Value = serde_json::from_str(&agentpm).expect("JSON");
        let lp = &mut graph["loop"];
        let mut renamed_refs = 0;
        let mut rename = |r: &mut Value| {
            if let Some(to) = r.as_str().and_then(new_name) {
                *r = Value::from(to);
                renamed_refs += 1;
            }
        };
        rename(&mut lp["entry_phase"]);
        for p in lp["phases"].as_array_mut().expect("phases") {
            rename(&mut p["id"]);
        }
        for t in lp["transitions"].as_array_mut().expect("transitions") {
            rename(&mut t["from"]);
            rename(&mut t["to"]);
        }
        assert_eq!(
            renamed_refs, 12,
            "{name}: the entry, three ids, five `from`s and three `to`s"
        );
        let renamed = serde_json::to_string_pretty(&graph).expect("JSON");
        let flags = agents_as_flags(&spec);
        let mas_of = |text: &str, what: &str| {
            let (a_spec, a_info) = reread(what, text, Format::Agentpm);
            convert(what, &a_spec, &a_info, Format::Mas, &flags)
        };
        let (plain, plain_losses) = mas_of(&agentpm, &format!("{name} (AgentPM)"));
        let (mas, losses) = mas_of(&renamed, &format!("{name} (AgentPM, renamed)"));
        assert_eq!(
            mas, plain,
            "{name}: the renamed graph gives another MAS loop"
        );
        let names: Vec<&str> = losses
            .items()
            .iter()
            .map(|d| d.message.as_str())
            .filter(|m| !plain_losses.items().iter().any(|d| d.message == *m))
            .collect();
        assert_eq!(names.len(), 1, "{name}: {names:?}");
        assert!(
            names[0].contains("`first-step`, `judge`, `work`"),
            "{name}: {names:?}"
        );
    }
}

/// A graph written from a MAS loop, edited since where it carries nothing of the loop (a
/// phase's access, an outcome's description), still converts back to that loop, checks
/// and all, and each edit is reported lost at its place (`B001`); `diff` against the MAS
/// loop names both. Before: the edit made the graph "shaped" only, and the checks came
/// back as one `manual` check.
#[test]
fn edits_that_carry_nothing_keep_the_mas_loop_and_are_reported() {
    let path = crate::support::examples().join("mas/veal-release-gate.yaml");
    let (spec, info, _) = read(&path, Format::Mas);
    let (agentpm, _) = convert("gate", &spec, &info, Format::Agentpm, &lossy());
    let mut graph: Value = serde_json::from_str(&agentpm).expect("JSON");
    graph["loop"]["phases"][0]["access"]["tools"] = Value::Bool(false);
    graph["loop"]["phases"][1]["outcomes"][0]["description"] = Value::from("Ship it.");
    let edited = serde_json::to_string_pretty(&graph).expect("JSON");
    let flags = agents_as_flags(&spec);
    let mas_of = |text: &str| {
        let (a_spec, a_info) = reread("gate (AgentPM)", text, Format::Agentpm);
        convert("gate (AgentPM)", &a_spec, &a_info, Format::Mas, &flags)
    };
    let ((plain, _), (mas, losses)) = (mas_of(&agentpm), mas_of(&edited));
    assert_eq!(mas, plain);
    let lost: Vec<(&str, &str)> = losses
        .items()
        .iter()
        .filter(|d| d.code == Code::LostField)
        .map(|d| (d.location.pointer.as_str(), d.message.as_str()))
        .collect();
    assert_eq!(
        lost,
        [
            (
                "/loop/phases/0/access",
                "multi-agent-spec has no field for the access of phase `validate` (`/loop/phases/0/access`)"
            ),
            (
                "/loop/phases/1/outcomes/0/description",
                "multi-agent-spec has no field for the description of outcome `go` of phase `eval` (`/loop/phases/1/outcomes/0/description`)"
            ),
        ]
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("gate.json");
    std::fs::write(&file, &edited).expect("write");
    let out = crate::support::loopconv()
        .arg("diff")
        .arg(&path)
        .arg(&file)
        .output()
        .expect("run loopconv");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("2 changes, 1 breaking"), "{report}");
    assert!(report.contains("changed access `validate`"), "{report}");
    assert!(report.contains("changed outcome `eval/go`"), "{report}");
}
