//! Golden outputs: every valid example (`examples/agentpm/*.json`, `examples/mas/*.yaml`)
//! through every back end.
//!
//! For each file: the IR and its analysis (`snapshots__ir@<file>.snap`, pinning the front end
//! and the validator apart from the back ends), then the text of every back end
//! (`to_agentpm`, `to_mas`, `to_ir`, `mermaid_flowchart`, `mermaid_state`, `dot`, `plantuml`,
//! `markdown`) and the list of fields each loop-format conversion loses (`lost`). Each back
//! end runs twice and must give byte-identical text.
//!
//! Bless changed snapshots with `INSTA_UPDATE=always cargo test --test snapshots` (or
//! `cargo insta review`) and review the diff.

use std::path::Path;

use loopconv::back::{self, ConvertOptions};
use loopconv::diag::{Diagnostics, Severity};
use loopconv::format::{self, Format, LoadOptions, Loaded};
use loopconv::ir::{Spec, Target};
use loopconv::valid::Info;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn rel(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

fn load(path: &Path) -> Loaded {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    format::load(&rel(path), &bytes, &LoadOptions::default())
}

/// The flags `loopconv convert --to mas --actor actor --validator validator --allow-lossy`.
fn mas_opts() -> ConvertOptions {
    ConvertOptions {
        allow_lossy: true,
        actor: Some("actor".to_owned()),
        validator: Some("validator".to_owned()),
        ..ConvertOptions::default()
    }
}

/// `loopconv convert --to agentpm --allow-lossy`.
fn agentpm_opts() -> ConvertOptions {
    ConvertOptions {
        allow_lossy: true,
        ..ConvertOptions::default()
    }
}

/// Convert to a loop format; returns the text and the `code pointer: message` lines of the
/// (lossy) warnings. Panics on errors: a valid example must convert under `--allow-lossy`.
fn convert(
    name: &str,
    spec: &Spec,
    info: &Info,
    to: Format,
    opts: &ConvertOptions,
) -> (String, Vec<String>) {
    let mut diags = Diagnostics::new(name);
    let text = format::write(spec, info, to, opts, &mut diags)
        .unwrap_or_else(|e| panic!("{name} --to {}: {e}", to.name()));
    diags.sort();
    assert!(
        !diags.has_errors(),
        "{name} --to {}: {:#?}",
        to.name(),
        diags.items()
    );
    let lost = diags
        .items()
        .iter()
        .map(|d| {
            assert_eq!(d.severity, Severity::Warning, "{name}: {d:?}");
            format!("{} {}: {}", d.code, d.location.pointer, d.message)
        })
        .collect();
    (text, lost)
}

/// Every back end's text for one loop, in snapshot order.
fn outputs(name: &str, spec: &Spec, info: &Info) -> Vec<(&'static str, String)> {
    let (agentpm, lost_agentpm) = convert(name, spec, info, Format::Agentpm, &agentpm_opts());
    let (mas, lost_mas) = convert(name, spec, info, Format::Mas, &mas_opts());
    let (ir, lost_ir) = convert(name, spec, info, Format::Ir, &ConvertOptions::default());
    assert!(
        lost_ir.is_empty(),
        "{name}: --to ir is never lossy: {lost_ir:?}"
    );
    let mut lost = String::new();
    for (to, lines) in [("agentpm", &lost_agentpm), ("mas", &lost_mas)] {
        lost.push_str(&format!("--to {to}:\n"));
        for l in lines.iter() {
            lost.push_str(&format!("  {l}\n"));
        }
    }
    let flowchart = back::mermaid::write(
        spec,
        info,
        &back::mermaid::Options {
            style: back::mermaid::Style::Flowchart,
        },
    );
    let state = back::mermaid::write(
        spec,
        info,
        &back::mermaid::Options {
            style: back::mermaid::Style::State,
        },
    );
    let dot = back::dot::write(spec, info, &back::dot::Options::default());
    let plantuml = back::plantuml::write(spec, info);
    let markdown = back::markdown::write(spec, info, name, &back::markdown::Options::default())
        .unwrap_or_else(|e| panic!("{name}: markdown: {e}"));
    vec![
        ("to_agentpm", agentpm),
        ("to_mas", mas),
        ("to_ir", ir),
        ("lost", lost),
        ("mermaid_flowchart", flowchart),
        ("mermaid_state", state),
        ("dot", dot),
        ("plantuml", plantuml),
        ("markdown", markdown),
    ]
}

fn snapshot_example(path: &Path) {
    let name = rel(path);
    let loaded = load(path);
    // A valid example is clean: no error and no warning.
    assert!(
        loaded.diags.is_empty(),
        "{name} must pass `loopconv check` without warnings: {:#?}",
        loaded.diags.items()
    );
    let (spec, info) = loaded.valid().expect("a valid example");

    insta::assert_json_snapshot!("ir", serde_json::json!({ "spec": spec, "analysis": info }));

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
    insta::glob!("../examples/agentpm", "*.json", snapshot_example);
}

#[test]
fn mas_examples() {
    insta::glob!("../examples/mas", "*.yaml", snapshot_example);
}

/// In `incident-response.json`, `contain-manually` is the target of a checkpoint rejection
/// and of no transition: loopconv counts `on_reject` edges, so it is reachable (upstream
/// calls it unreachable).
#[test]
fn reject_only_phase_is_reachable() {
    let loaded = load(&Path::new(ROOT).join("examples/agentpm/incident-response.json"));
    let (spec, info) = loaded.valid().expect("valid");
    let target = Target::Phase("contain-manually".to_owned());
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
        info.is_reachable("contain-manually"),
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
        let loaded = load(&Path::new(ROOT).join(format!("examples/agentpm/{file}.json")));
        let (spec, info) = loaded.valid().unwrap_or_else(|| panic!("{file} is valid"));
        assert_eq!(spec.name, file, "the loop is named after its file");
        assert!(
            spec.kind_present && spec.schema_uri.is_some(),
            "{file}: kind and $schema"
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
