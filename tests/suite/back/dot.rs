//! The DOT back end through the CLI: `--style` is refused with DOT, and `graph --format svg`
//! with and without Graphviz installed.

use crate::support::loopconv;
use predicates::prelude::predicate;

const REACT: &str = "examples/agentpm/react-loop.json";

// 10. `--style` with a non-Mermaid target is refused; state diagrams carry no flowchart config.

#[test]
fn style_with_dot_is_refused() {
    loopconv()
        .args(["graph", REACT, "--dot", "--style", "state"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--style"));
}

// Something to look at: `graph --svg` through Graphviz, with a clear message without it.

#[test]
fn graph_svg_without_graphviz_says_what_to_install() {
    loopconv()
        .args(["graph", REACT, "--svg"])
        .env("LOOPCONV_DOT", "/nonexistent/dot")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("apt-get install graphviz"))
        .stderr(predicate::str::contains("mermaid.live"));
}

#[test]
fn graph_svg_draws_an_svg_when_graphviz_is_installed() {
    let have_dot = std::process::Command::new("dot").arg("-V").output().is_ok();
    if crate::support::skip_without_tool(have_dot, "Graphviz (dot)") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let svg = dir.path().join("loop.svg");
    loopconv()
        .args(["graph", REACT, "--svg", "-o"])
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).expect("svg");
    assert!(text.contains("<svg"), "{text}");
}

/// Two checkpoints before one phase, through the real Graphviz: both gates are drawn, in
/// authored order (the first approves into the second), each with its own reject edge.
#[test]
fn graph_svg_draws_several_checkpoints_before_one_phase() {
    let have_dot = std::process::Command::new("dot").arg("-V").output().is_ok();
    if crate::support::skip_without_tool(have_dot, "Graphviz (dot)") {
        return;
    }
    let out = loopconv()
        .args([
            "graph",
            "examples/agentpm/code-review-sign-off.json",
            "--svg",
        ])
        .output()
        .expect("run loopconv");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = String::from_utf8(out.stdout).expect("UTF-8");
    // Graphviz writes each edge's ends as its title: `g0&#45;&gt;g1`.
    for edge in [
        "p1&#45;&gt;g0",
        "g0&#45;&gt;g1",
        "g1&#45;&gt;p2",
        "g0&#45;&gt;t_handoff",
        "g1&#45;&gt;p1",
    ] {
        assert!(
            svg.contains(&format!("<title>{edge}</title>")),
            "{edge} missing:\n{svg}"
        );
    }
    assert_eq!(svg.matches(">reject</text>").count(), 2, "{svg}");
    assert!(
        svg.contains(">approve&#45;revision</text>")
            && svg.contains(">security&#45;sign&#45;off</text>")
    );
}
