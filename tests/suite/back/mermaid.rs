//! The guide shows real output: the Mermaid block of its Diagrams chapter
//! (`docs/src/graph.md`) is what `loopconv graph` draws today.

use crate::support::{self, loopconv, stderr};
use loopconv::diag::Diagnostics;
use loopconv::{Target, back};
use predicates::prelude::predicate;

#[test]
fn guide_diagram_is_current() {
    let root = support::repo();
    let readme = std::fs::read_to_string(root.join("docs/src/graph.md")).expect("graph.md");
    let start = readme
        .find("<!-- graph:start ")
        .expect("graph:start marker");
    let rest = &readme[start + "<!-- graph:start ".len()..];
    let (file, rest) = rest.split_once(" -->").expect("marker end");
    let body = rest.split_once("```mermaid\n").expect("mermaid fence").1;
    let block = body
        .split_once("```\n<!-- graph:end -->")
        .expect("graph:end marker")
        .0;

    let loaded = support::load_file(&root.join(file));
    let (spec, info) = loaded.valid().expect("the guide's example is valid");
    // `loopconv graph` with its defaults.
    let mut diags = Diagnostics::new(file);
    let drawn = loopconv::write(
        Target::Mermaid,
        spec,
        info,
        &back::Options::default(),
        &mut diags,
    )
    .expect("mermaid");
    assert!(diags.is_empty(), "{:#?}", diags.items());
    assert_eq!(
        block, drawn,
        "docs/src/graph.md: the diagram is stale: paste `loopconv graph {file}`"
    );
}

#[test]
fn graph_prints_mermaid_or_dot() {
    let out = loopconv()
        .args(["graph", "examples/agentpm/incident-response.json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(text.contains("flowchart"), "{text}");
    assert!(!text.contains("digraph"), "{text}");

    let out = loopconv()
        .args(["graph", "examples/agentpm/incident-response.json", "--dot"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        text.trim_start().starts_with("digraph") || text.contains("\ndigraph"),
        "{text}"
    );
    assert!(!text.contains("flowchart"), "{text}");

    // An invalid loop is not drawn.
    loopconv()
        .args(["graph", "examples/invalid/V012-unreachable-phase.json"])
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty());
}

const REACT: &str = "examples/agentpm/react-loop.json";

#[test]
fn state_diagram_has_no_flowchart_front_matter() {
    let out = loopconv()
        .args(["graph", REACT, "--style", "state"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("stateDiagram-v2") && !text.contains("flowchart"),
        "{text}"
    );
}
