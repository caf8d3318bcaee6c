//! Golden outputs: every valid example (`examples/agentpm/*.json`, `examples/mas/*.yaml`)
//! through every back end.
//!
//! For each file: the IR and its analysis (`snapshots__ir@<file>.snap`, pinning the front end
//! and the validator apart from the back ends), then the text of every back end of
//! `Target::ALL` (`to_agentpm`, `to_mas`, `to_ir`, `mermaid_flowchart`, `mermaid_state`,
//! `dot`, `plantuml`, `markdown`; [`snapshot_name`] says where the DOT legend and the schemas are pinned
//! instead) and the list of fields each loop-format conversion loses (`lost`). Each back
//! end runs twice and must give byte-identical text.
//!
//! Bless changed snapshots with `INSTA_UPDATE=always cargo test --test suite back::examples` (or
//! `cargo insta review`) and review the diff.

use std::path::Path;

use crate::support::{Written, examples, load_file, lossy_options, rel, write_every_target};
use loopconv::back::mermaid::Style;
use loopconv::diag::Severity;
use loopconv::ir::{Destination, Spec};
use loopconv::valid::Info;
use loopconv::{Format, Target};

/// The snapshot a back end's output is pinned in, or `None` for an output pinned
/// elsewhere. Exhaustive, so a new back end must be given a snapshot (or a reason).
fn snapshot_name(w: &Written) -> Option<&'static str> {
    match w.target {
        Target::Loop(Format::Agentpm) => Some("to_agentpm"),
        Target::Loop(Format::Mas) => Some("to_mas"),
        Target::Loop(Format::Ir) => Some("to_ir"),
        Target::Loop(Format::Xstate) => Some("to_xstate"),
        Target::Mermaid => Some(match w.opts.style {
            Style::Flowchart => "mermaid_flowchart",
            Style::State => "mermaid_state",
        }),
        // The legend is the same block for every loop (`back::dot`'s unit tests).
        Target::Dot => (!w.opts.legend).then_some("dot"),
        Target::PlantUml => Some("plantuml"),
        Target::Markdown => Some("markdown"),
        Target::LangGraph => Some("langgraph"),
        // The same for every loop of a format: `back::schema` pins it to `schemas/`.
        Target::Schema => None,
    }
}

/// Every back end's text for one loop, with the flags `loopconv convert --allow-lossy
/// --actor actor --validator validator` (which only `--to mas` reads), in snapshot order;
/// and the list of fields each loop-format conversion loses (`lost`). A valid example
/// must convert: the only diagnostics allowed are (lossy) warnings.
fn outputs(name: &str, spec: &Spec, info: &Info) -> Vec<(&'static str, String)> {
    let opts = loopconv::back::Options {
        source: name.to_owned(),
        ..lossy_options()
    };
    let mut texts = Vec::new();
    let mut lost = String::new();
    for w in write_every_target(name, spec, info, &opts) {
        let snapshot = snapshot_name(&w);
        let Written {
            target,
            label,
            text,
            mut diags,
            ..
        } = w;
        let text = text.unwrap_or_else(|e| panic!("{name} --to {label}: {e}"));
        diags.sort();
        assert!(
            !diags.has_errors(),
            "{name} --to {label}: {:#?}",
            diags.items()
        );
        if target.format().is_some() && target != Target::Loop(Format::Ir) {
            lost.push_str(&format!("--to {label}:\n"));
            for d in diags.items() {
                assert_eq!(d.severity, Severity::Warning, "{name}: {d:?}");
                lost.push_str(&format!(
                    "  {} {}: {}\n",
                    d.code, d.location.pointer, d.message
                ));
            }
        } else {
            // `--to ir` is never lossy, and the other back ends report nothing.
            assert!(
                diags.is_empty(),
                "{name} --to {label}: {:#?}",
                diags.items()
            );
        }
        if let Some(snapshot) = snapshot {
            texts.push((snapshot, text));
        }
    }
    texts.push(("lost", lost));
    texts
}

fn snapshot_example(path: &Path) {
    let name = rel(path);
    let loaded = load_file(path);
    // A valid example is clean: no error and no warning, except the interoperability
    // warning for a port `schema` in YAML (F015: valid, but the Go SDK cannot load it).
    assert!(
        loaded
            .diags
            .items()
            .iter()
            .all(|d| d.code == loopconv::diag::Code::YamlPortSchema),
        "{name} must pass `loopconv check` without warnings: {:#?}",
        loaded.diags.items()
    );
    let (spec, info) = loaded.valid().expect("a valid example");

    insta::assert_json_snapshot!(
        "ir",
        serde_json::json!({ "spec": spec, "analysis": analysis_json(spec, info) })
    );

    let first = outputs(&name, spec, info);
    let second = outputs(&name, spec, info);
    for ((what, a), (_, b)) in first.iter().zip(&second) {
        assert_eq!(a, b, "{name}: {what} differs between two runs");
    }
    for (what, text) in first {
        assert!(!text.is_empty(), "{name}: {what} is empty");
        insta::assert_snapshot!(what, text);
    }
}

#[test]
fn agentpm_examples() {
    insta::glob!("../../../examples/agentpm", "*.json", snapshot_example);
}

#[test]
fn mas_examples() {
    insta::glob!("../../../examples/mas", "*.yaml", snapshot_example);
}

/// In `incident-response.json`, `contain-manually` is the target of a checkpoint rejection
/// and of no transition: loopconv counts `on_reject` edges, so it is reachable (upstream
/// calls it unreachable).
#[test]
fn reject_only_phase_is_reachable() {
    let loaded = load_file(&examples().join("agentpm/incident-response.json"));
    let (spec, info) = loaded.valid().expect("valid");
    let target = Destination::Phase("contain-manually".to_owned());
    assert!(
        spec.graph.transitions.iter().all(|t| t.to != target),
        "the example must reach `contain-manually` only through a rejection"
    );
    assert!(
        spec.graph
            .checkpoints
            .iter()
            .flatten()
            .any(|c| c.on_reject == target),
        "a checkpoint must reject to `contain-manually`"
    );
    assert!(
        info.is_reachable(&spec.graph, "contain-manually"),
        "{:?}",
        info.reachable_phases
    );
    assert!(
        info.unreachable_phases.is_empty(),
        "{:?}",
        info.unreachable_phases
    );
}

/// The four variants of the agent-loop card are AgentPM examples whose `max_steps` leaves
/// room for the shortest successful run (no V024) and whose stop conditions use the
/// terminals: success to `$end`, a stall or a cap to `$abort`, a person to `$handoff`.
#[test]
fn variant_examples_are_consistent() {
    for file in [
        "react-loop",
        "plan-and-solve",
        "plan-execute-replan",
        "reflexion",
        "incident-response",
    ] {
        let loaded = load_file(&examples().join(format!("agentpm/{file}.json")));
        let (spec, info) = loaded.valid().unwrap_or_else(|| panic!("{file} is valid"));
        assert_eq!(spec.name, file, "the loop is named after its file");
        let kind = loaded
            .doc
            .as_ref()
            .and_then(|d| d.root().get("kind"))
            .and_then(|k| k.as_str());
        assert!(
            kind == Some("loop") && spec.schema_uri.is_some(),
            "{file}: kind and $schema"
        );
        assert!(
            loaded.diags.is_empty(),
            "{file}: {:#?}",
            loaded.diags.items()
        );
        let max = spec
            .bounds
            .max_steps
            .unwrap_or_else(|| panic!("{file}: max_steps"));
        let shortest = info
            .shortest_success_steps()
            .unwrap_or_else(|| panic!("{file}: $end reachable"));
        assert!(shortest as u64 <= max, "{file}: {shortest} > {max}");
        assert!(
            info.trap_phases.is_empty(),
            "{file}: {:?}",
            info.trap_phases
        );
        assert!(
            info.unreachable_phases.is_empty(),
            "{file}: {:?}",
            info.unreachable_phases
        );
        assert!(!info.reachable_terminals.is_empty());
    }
}

/// The analysis as JSON, each phase by its id (the analysis names phases by index).
fn analysis_json(spec: &Spec, info: &Info) -> serde_json::Value {
    let ids = |phases: &[usize]| spec.graph.phase_ids(phases).collect::<Vec<_>>();
    serde_json::json!({
        "reachable_phases": ids(&info.reachable_phases),
        "unreachable_phases": ids(&info.unreachable_phases),
        "terminals_used": info.terminals_used,
        "reachable_terminals": info.reachable_terminals,
        "trap_phases": ids(&info.trap_phases),
        "shortest_success": info.shortest_success.as_deref().map(ids),
        "max_steps": info.max_steps,
    })
}
