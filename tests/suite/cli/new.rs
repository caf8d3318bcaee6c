//! `loopconv new`: every scaffold passes `check --strict` and every back end; conversions
//! only where exact; bad names and overwrites are refused.

use crate::support::{load_file, loopconv, lossy_options, new_scaffolds, write_every_target};
use loopconv::scaffold::Archetype;
use predicates::prelude::PredicateBooleanExt as _;
use serde_json::Value;

#[test]
fn every_scaffold_passes_check_strict_and_every_back_end() {
    let dir = tempfile::tempdir().unwrap();
    for (a, f) in new_scaffolds(dir.path()) {
        loopconv()
            .args(["check", "--strict"])
            .arg(&f)
            .assert()
            .success();
        let l = load_file(&f);
        assert!(l.diags.is_empty(), "{}: {:?}", a.name(), l.diags.items());
        let (spec, info) = l.valid().unwrap();
        assert_eq!(spec.name, format!("{}-demo", a.name()));
        for w in write_every_target(a.name(), spec, info, &lossy_options()) {
            assert!(w.text.is_ok(), "{} {}: {:?}", a.name(), w.label, w.text);
            assert!(!w.diags.has_errors(), "{} {}", a.name(), w.label);
        }
        // Every reachable terminal of each scaffold is `$end` or a deliberate stop, and
        // success fits its budget.
        assert!(info.success_fits_budget(), "{}", a.name());
    }
}

#[test]
fn new_converts_only_where_exact() {
    for a in Archetype::ALL {
        let out = loopconv()
            .args(["new", "--archetype", a.name(), "--name", "x", "--to", "ir"])
            .assert()
            .success();
        let ir: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(ir["name"], "x");
    }
    // A ReAct graph is not a REAL/VEAL loop, and a VEAL loop's agents and checks have no
    // place in AgentPM: both refuse, with exit 1 and the reason.
    loopconv()
        .args(["new", "--archetype", "react", "--name", "x", "--to", "mas"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("without losing data"))
        // The losses' help lines named `convert`'s flags, which `new` refuses.
        .stderr(predicates::str::contains("pass `--").not());
    loopconv()
        .args([
            "new",
            "--archetype",
            "veal",
            "--name",
            "x",
            "--to",
            "agentpm",
        ])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("B001"));
}

#[test]
fn new_refuses_bad_names_and_overwrites() {
    loopconv()
        .args(["new", "--archetype", "react", "--name", "Bad Name"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("kebab-case"));
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.json");
    std::fs::write(&f, "keep").unwrap();
    loopconv()
        .args(["new", "--archetype", "react", "--name", "a", "-o"])
        .arg(&f)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--force"));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "keep");
}

/// Each graph scaffold carries the core-architectures card (seed 003: "Stop when: {success
/// test} OR steps>={n} OR no_progress>={k}"): its run reaches `$end` only through a phase
/// that tests the success check, a failed check records its reason and loops back, and a
/// no-progress outcome stops the run at `$abort`.
#[test]
fn every_graph_scaffold_stops_on_its_success_check_or_no_progress() {
    // (archetype, approvals, a run through a failed check to success, the phase that
    // checks, a run that stops for lack of progress)
    let runs: [(&str, usize, &str, &str, &str); 4] = [
        (
            "react",
            2,
            "act,complete,answer,failed,act,complete,answer,passed",
            "check",
            "act,complete,continue,act,complete,no-progress",
        ),
        (
            "plan-and-solve",
            0,
            "planned,all-done,fix,all-done,verified",
            "verify",
            "planned,next-step,no-progress",
        ),
        (
            "plan-execute-replan",
            1,
            "planned,complete,complete,goal-met,failed,goal-met,passed",
            "check",
            "planned,complete,complete,continue,complete,no-progress",
        ),
        (
            "reflexion",
            0,
            "complete,fail,retry,complete,pass",
            "evaluate",
            "complete,fail,no-progress",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let files = new_scaffolds(dir.path());
    for (name, approvals, success, checker, stall) in runs {
        let f = &files.iter().find(|(a, _)| a.name() == name).unwrap().1;
        let walk = |outcomes: &str| -> Value {
            let mut c = loopconv();
            c.arg("walk")
                .arg(f)
                .args(["--outcomes", outcomes, "--format", "json"]);
            // Approve the checkpoints met (plan-execute-replan's only once: its plan is
            // approved when it is written, not before every task).
            let checkpoint = if name == "react" {
                "approve-action"
            } else {
                "approve-plan"
            };
            for _ in 0..approvals {
                c.args(["--approve", checkpoint]);
            }
            let out = c.output().unwrap();
            serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{name} {outcomes}: {e}: {out:?}"))
        };
        let ok = walk(success);
        assert_eq!(ok["terminal"], "$end", "{name}: {ok}");
        let steps = ok["steps"].as_array().unwrap();
        let last = steps.last().unwrap();
        assert_eq!(
            last["phase"], checker,
            "{name}: $end only from the check: {ok}"
        );
        assert_eq!(last["to"], "$end", "{name}");
        // The failed check (or reflection) loops back instead of ending.
        let checks: Vec<&Value> = steps.iter().filter(|s| s["phase"] == checker).collect();
        assert_eq!(checks.len(), 2, "{name}: the check ran twice: {ok}");
        assert!(
            checks[0]["to"]
                .as_str()
                .is_some_and(|t| !t.starts_with('$')),
            "{name}: a failed check loops back to a phase: {ok}"
        );
        // Every phase that says it records (its objective) may write memory.
        let text = std::fs::read_to_string(f).unwrap();
        let manifest: Value = serde_json::from_str(&text).unwrap();
        for p in manifest["loop"]["phases"].as_array().unwrap() {
            if p["objective"].as_str().unwrap().contains(" record ") {
                assert_eq!(
                    p["access"]["memory"]["write"], true,
                    "{name}: phase {} records with memory writes off",
                    p["id"]
                );
            }
        }
        let stop = walk(stall);
        assert_eq!(stop["terminal"], "$abort", "{name}: {stop}");
        let last = stop["steps"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["outcome"], "no-progress", "{name}: {stop}");
    }
}

/// plan-execute-replan asks for plan approval when the plan is written or revised, never
/// before each task.
#[test]
fn plan_execute_replan_approves_a_plan_once() {
    let dir = tempfile::tempdir().unwrap();
    let files = new_scaffolds(dir.path());
    let f = &files
        .iter()
        .find(|(a, _)| *a == Archetype::PlanExecuteReplan)
        .unwrap()
        .1;
    let out = loopconv()
        .arg("walk")
        .arg(f)
        .args([
            "--outcomes",
            "planned,complete,complete,continue,complete,continue,complete,revise,planned,complete,complete,goal-met,passed",
            "--approve",
            "approve-plan",
            "--approve",
            "approve-plan",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let run: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(run["terminal"], "$end", "{run}");
    let approvals = run["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["checkpoint"] == "approve-plan")
        .count();
    assert_eq!(approvals, 2, "one approval per plan written: {run}");
}

/// `new --help` says which stopping rules belong to the harness, not the loop file.
#[test]
fn new_help_names_the_runtime_settings() {
    let out = loopconv().args(["new", "--help"]).assert().success();
    let help = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for word in ["budget", "no-progress", "harness", "max_steps"] {
        assert!(help.contains(word), "{word}: {help}");
    }
}
