//! `loopconv walk`: invalid outcomes are refused naming the valid ones; checkpoints,
//! terminals and limits are enforced.

use crate::support::*;

#[test]
fn walk_refuses_an_invalid_outcome_naming_the_valid_ones() {
    let f = examples().join("agentpm/react-loop.json");
    loopconv()
        .arg("walk")
        .arg(&f)
        .args(["--outcomes", "act,done"])
        .args(["--approve", "approve-next-action"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "`done` is not an outcome of phase `act` (valid outcomes: complete)",
        ));
}

#[test]
fn walk_enforces_checkpoints_terminals_and_limits() {
    let f = examples().join("agentpm/react-loop.json");
    let walk_with = |outcomes: &str, extra: &[&str]| {
        let out = loopconv()
            .arg("walk")
            .arg(&f)
            .args(["--outcomes", outcomes])
            .args(extra)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (code, out) = walk_with("act,complete,complete", &[]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("checkpoint `approve-next-action` needs a decision"),
        "{out}"
    );
    let gate = [
        "--reject",
        "approve-next-action",
        "--approve",
        "approve-next-action",
    ];
    let (code, out) = walk_with("act,act,complete,complete", &gate);
    assert_eq!(code, Some(0), "{out}");
    insta::assert_snapshot!("walk_react", out);
    let (code, out) = walk_with("handoff,act", &[]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("reached `$handoff` with outcomes left over: act"),
        "{out}"
    );
    let many = ["reason-more"; 11].join(",");
    let (code, out) = walk_with(&many, &[]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("step limit reached") && out.contains("`max_steps` is 10"),
        "{out}"
    );
    // MAS: the bound comes from max_attempts.
    let mas = examples().join("mas/veal-release-gate.yaml");
    let run = ["complete,no-go,complete"; 4].join(",");
    let out = loopconv()
        .arg("walk")
        .arg(&mas)
        .args(["--outcomes", &run])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("`max_attempts` is 4"));
}
