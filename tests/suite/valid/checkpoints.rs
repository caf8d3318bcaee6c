//! Several approval checkpoints before one phase (issue 18 item 1): valid, with 2 and with 3
//! (V017 is retired), through `check` and the library; the graph keeps them in authored
//! order, each with its own rejection edge.

use loopconv::valid::graph::{Edge, Vertex};
use loopconv::{LoadOptions, load};
use petgraph::visit::EdgeRef as _;

use crate::support::{examples, loopconv};

/// A loop whose phase `publish` is guarded by `n` checkpoints `sign-off-1..`, the `k`th
/// rejecting to `$abort`, `draft` and `$handoff` in turn.
fn guarded(n: usize) -> String {
    let targets = ["$abort", "draft", "$handoff"];
    let checkpoints: Vec<String> = (1..=n)
        .map(|k| {
            format!(
                r#"{{"id": "sign-off-{k}", "type": "approval", "before_phase": "publish", "on_reject": "{}"}}"#,
                targets[(k - 1) % 3]
            )
        })
        .collect();
    format!(
        r#"{{"$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json",
  "kind": "loop", "name": "publish", "version": "0.1.0", "description": "Draft and publish.",
  "loop": {{
    "entry_phase": "draft",
    "phases": [{{"id": "draft", "objective": "Write the draft."}}, {{"id": "publish", "objective": "Publish it."}}],
    "transitions": [{{"from": "draft", "on": "complete", "to": "publish"}}, {{"from": "publish", "on": "complete", "to": "$end"}}],
    "checkpoints": [{}]
  }}
}}"#,
        checkpoints.join(", ")
    )
}

#[test]
fn check_accepts_two_and_three_checkpoints_before_one_phase() {
    let dir = tempfile::tempdir().unwrap();
    for n in [2, 3] {
        let f = dir.path().join(format!("guarded-{n}.json"));
        std::fs::write(&f, guarded(n)).unwrap();
        let out = loopconv().arg("check").arg(&f).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{n} checkpoints: {err}");
        assert!(err.contains("0 errors, 0 warnings"), "{err}");
        assert!(!err.contains("V017"), "{err}");
    }
    loopconv()
        .arg("check")
        .arg(examples().join("agentpm/code-review-sign-off.json"))
        .assert()
        .success();
}

/// The gates of one phase form a chain in authored order: each approves into the next
/// (the last into the phase) and rejects to its own `on_reject`.
#[test]
fn the_graph_chains_the_gates_of_a_phase_in_authored_order() {
    let text = guarded(3);
    let l = load("guarded.json", text.as_bytes(), &LoadOptions::default());
    let (spec, info) = l.valid().expect("valid");
    let g = &info.graph;
    let gate = |k: usize| {
        g.node_indices()
            .find(|n| g[*n] == Vertex::Gate(k))
            .expect("a gate per checkpoint")
    };
    let target = |n, want: Edge| {
        let e = g.edges(n).find(|e| *e.weight() == want).expect("an edge");
        &g[e.target()]
    };
    let draft = Vertex::Phase(0);
    let publish = Vertex::Phase(1);
    assert_eq!(target(gate(0), Edge::Approve), &Vertex::Gate(1));
    assert_eq!(target(gate(1), Edge::Approve), &Vertex::Gate(2));
    assert_eq!(target(gate(2), Edge::Approve), &publish);
    assert!(matches!(target(gate(0), Edge::Reject), Vertex::Terminal(t) if t.as_str() == "$abort"));
    // `draft`'s rejection lands on draft itself (it has no gate).
    assert_eq!(target(gate(1), Edge::Reject), &draft);
    assert!(
        matches!(target(gate(2), Edge::Reject), Vertex::Terminal(t) if t.as_str() == "$handoff")
    );
    // `draft`'s transition enters the chain at its first gate.
    let d = (info.phase_node(&spec.graph, &spec.graph.phases[0].id)).expect("draft's vertex");
    assert_eq!(target(d, Edge::Transition(0)), &Vertex::Gate(0));
}
