//! The PlantUML back end through the CLI (`graph --plantuml`).

use crate::support::{loopconv, stderr};
use predicates::prelude::predicate;

#[test]
fn graph_prints_plantuml_and_the_flags_exclude_each_other() {
    let out = loopconv()
        .args([
            "graph",
            "examples/agentpm/incident-response.json",
            "--plantuml",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(text.starts_with("@startuml\n"), "{text}");
    assert!(text.ends_with("@enduml\n"), "{text}");
    for other in ["--dot", "--mermaid"] {
        loopconv()
            .args([
                "graph",
                "examples/agentpm/incident-response.json",
                "--plantuml",
                other,
            ])
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty());
    }
}
