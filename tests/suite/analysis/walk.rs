//! `loopconv walk` follows the AgentPM harness (formats.md 1.6): run statuses with their
//! exit codes, the effective step limit (the stricter of the loop's `max_steps` and the
//! runtime's ceiling), checkpoints in authored order, failures by `error_policy` or the
//! harness defaults, and REAL/VEAL escalation only when `max_attempts` is used up. Script
//! mistakes are usage errors (exit 2), never run statuses.

use crate::support::{all_inputs, examples, load_file, loopconv, new_scaffolds, rel, stderr};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::paths::status_code;

const REACT: &str = "agentpm/react-loop.json";
const SIGN_OFF: &str = "agentpm/code-review-sign-off.json";

/// `walk FILE --outcomes OUTCOMES EXTRA…`: exit code and standard output.
/// The trace (standard output) and then the script's error, if any (standard error).
fn walk_with(f: &Path, outcomes: &str, extra: &[&str]) -> (Option<i32>, String) {
    let (code, out, err) = walk_streams(f, outcomes, extra);
    (code, out + &err)
}

/// The exit code, standard output and standard error of `walk`.
fn walk_streams(f: &Path, outcomes: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let out = loopconv()
        .arg("walk")
        .arg(f)
        .args(["--outcomes", outcomes])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A script that does not fit the loop is an error on standard error, after the trace of
/// the steps it made on standard output.
#[test]
fn a_script_error_goes_to_stderr_and_the_trace_to_stdout() {
    let f = examples().join(REACT);
    let (code, out, err) = walk_streams(&f, "act,done", &["--approve", "approve-next-action"]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(!out.contains("error"), "{out}");
    assert!(out.contains("1. "), "the trace of the steps made: {out}");
    assert!(
        err.starts_with("error: `done` is not an outcome of phase `act`"),
        "{err}"
    );
}

/// The same with `--format json`, parsed.
fn walk_json(f: &Path, outcomes: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = extra.to_vec();
    args.extend(["--format", "json"]);
    let (code, out, _) = walk_streams(f, outcomes, &args);
    (
        code,
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}")),
    )
}

/// A loop file in a temporary folder.
fn loop_file(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let f = dir.path().join(name);
    std::fs::write(&f, text).unwrap();
    f
}

/// An AgentPM loop with one phase `work` (`again` loops, `done` ends), the given `limits`
/// and `error_policy` members (JSON, or empty), and `checkpoints`.
fn agentpm(extra: &str, checkpoints: &str) -> String {
    format!(
        r#"{{"$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json",
  "kind": "loop", "name": "spin", "version": "0.1.0", "description": "Work until done.",
  "loop": {{
    "entry_phase": "work",{extra}
    "phases": [{{"id": "work", "objective": "Work.", "outcomes": [
      {{"id": "again", "description": "More work."}}, {{"id": "done", "description": "Done."}}]}}],
    "transitions": [{{"from": "work", "on": "again", "to": "work"}}, {{"from": "work", "on": "done", "to": "$end"}}],
    "checkpoints": [{checkpoints}]
  }}
}}"#
    )
}

fn again(n: usize) -> String {
    vec!["again"; n].join(",")
}

#[test]
fn an_outcome_the_phase_does_not_have_is_a_usage_error_naming_the_valid_ones() {
    let f = examples().join(REACT);
    let (code, out) = walk_with(&f, "act,done", &["--approve", "approve-next-action"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("error: `done` is not an outcome of phase `act` (valid outcomes: complete; or a failure: `@tool-failure`, `@phase-failure`)"),
        "{out}"
    );
    // A misspelled failure is told the failures.
    let (code, out) = walk_with(&f, "act,@tool-fail", &["--approve", "approve-next-action"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("error: `@tool-fail` is no failure: `@tool-failure` or `@phase-failure` (the outcomes of phase `act`: complete)"),
        "{out}"
    );
}

#[test]
fn a_rejection_follows_its_on_reject_and_consumes_no_step() {
    let f = examples().join(REACT);
    let gate = [
        "--reject",
        "approve-next-action",
        "--approve",
        "approve-next-action",
    ];
    let (code, out) = walk_with(&f, "act,act,complete,complete", &gate);
    assert_eq!(code, Some(0), "{out}");
    insta::assert_snapshot!("walk_react", out);
}

/// Two checkpoints before `revise`: the first approves, the second rejects; the run
/// follows the second's `on_reject` (`review`, not the first's `$handoff`) and the
/// rejection costs no step.
#[test]
fn several_checkpoints_before_one_phase_are_evaluated_in_authored_order() {
    let f = examples().join(SIGN_OFF);
    let decisions = [
        "--approve",
        "approve-revision",
        "--reject",
        "security-sign-off",
    ];
    let (code, v) = walk_json(&f, "complete,request-changes,approve", &decisions);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["status"], "ended");
    assert_eq!(v["terminal"], "$end");
    assert_eq!(v["phase_steps"], 3, "gather, review, review: {v}");
    let steps: Vec<(String, String)> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let what = s.get("phase").or(s.get("checkpoint")).unwrap();
            (
                what.as_str().unwrap().to_owned(),
                s["to"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want = [
        ("gather", "review"),
        ("review", "revise"),
        ("approve-revision", "revise"),
        ("security-sign-off", "review"),
        ("review", "$end"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect();
    assert_eq!(steps, want);
    // The first checkpoint's rejection goes to its own target, before the second is asked.
    let (code, v) = walk_json(
        &f,
        "complete,request-changes",
        &["--reject", "approve-revision"],
    );
    assert_eq!(
        (code, &v["status"]),
        (Some(4), &Value::from("handed_off")),
        "{v}"
    );
    // Both approve: the phase runs.
    let both = [
        "--approve",
        "approve-revision",
        "--approve",
        "security-sign-off",
    ];
    let (code, out) = walk_with(&f, "complete,request-changes,complete,approve", &both);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("  3. revise → complete → review"), "{out}");
}

#[test]
fn without_max_steps_the_runtime_ceiling_of_100_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let f = loop_file(&dir, "spin.json", &agentpm("", ""));
    let (code, v) = walk_json(&f, &again(101), &[]);
    assert_eq!(code, Some(5), "{v}");
    assert_eq!(v["status"], "limit_reached");
    assert_eq!(v["phase_steps"], 100);
    assert_eq!(v["max_steps"], 100);
    assert!(v.get("loop_max_steps").is_none(), "{v}");
    assert_eq!(v["unused"], serde_json::json!(["`again`"]));
    let (code, out) = walk_with(&f, &again(101), &[]);
    assert_eq!(code, Some(5));
    assert!(
        out.contains("100. work → again → work\nrun limit_reached after 100 steps (max_steps 100): no step left for phase `work`: `max_steps` is 100, the runtime's ceiling (the loop sets none)"),
        "{out}"
    );
    // 100 phase executions and then `done` fit: the 101st step is the limit, not the 100th.
    let (code, _) = walk_with(&f, &format!("{},done", again(99)), &[]);
    assert_eq!(code, Some(0));
    // `--runtime-max-steps` sets the ceiling; 0 is refused.
    let (code, v) = walk_json(&f, &again(10), &["--runtime-max-steps", "4"]);
    assert_eq!((code, v["phase_steps"].as_u64()), (Some(5), Some(4)), "{v}");
    let (code, _) = walk_with(&f, "done", &["--runtime-max-steps", "0"]);
    assert_eq!(code, Some(2));
}

#[test]
fn the_effective_limit_is_the_stricter_of_the_loops_and_the_runtimes() {
    let dir = tempfile::tempdir().unwrap();
    let loose = loop_file(
        &dir,
        "loose.json",
        &agentpm(r#" "limits": {"max_steps": 200},"#, ""),
    );
    let (code, v) = walk_json(&loose, &again(150), &[]);
    assert_eq!(
        (code, v["phase_steps"].as_u64()),
        (Some(5), Some(100)),
        "{v}"
    );
    assert_eq!(
        (v["max_steps"].as_u64(), v["loop_max_steps"].as_u64()),
        (Some(100), Some(200))
    );
    let (code, v) = walk_json(&loose, &again(250), &["--runtime-max-steps", "150"]);
    assert_eq!(
        (code, v["phase_steps"].as_u64()),
        (Some(5), Some(150)),
        "{v}"
    );
    let tight = loop_file(
        &dir,
        "tight.json",
        &agentpm(r#" "limits": {"max_steps": 16},"#, ""),
    );
    let (code, out) = walk_with(&tight, &again(20), &[]);
    assert_eq!(code, Some(5));
    assert!(
        out.contains("`max_steps` is 16, the loop's (the runtime's ceiling is 100)"),
        "{out}"
    );
}

/// Every run status, with its documented exit code, in the human and the JSON output.
#[test]
fn each_run_status_has_its_exit_code() {
    let f = examples().join(REACT);
    let gate = ["--approve", "approve-next-action"];
    let dir = tempfile::tempdir().unwrap();
    let spin = loop_file(&dir, "spin.json", &agentpm("", ""));
    let cases: Vec<(&Path, &str, &[&str], &str)> = vec![
        (&f, "act,complete,complete", &gate, "ended"),
        (&f, "handoff", &[], "handed_off"),
        (
            &f,
            "reason-more,reason-more,reason-more,reason-more,reason-more,reason-more,reason-more,reason-more,reason-more,reason-more,reason-more",
            &[],
            "limit_reached",
        ),
        (&f, "act", &[], "approval_required"),
        (&spin, "@phase-failure", &[], "failed"),
        (&spin, "@tool-failure", &[], "failed"),
    ];
    for (file, outcomes, extra, status) in cases {
        let (code, v) = walk_json(file, outcomes, extra);
        assert_eq!(v["status"], status, "{outcomes}: {v}");
        assert_eq!(code, Some(status_code(status)), "{outcomes}: {v}");
        let (code, out) = walk_with(file, outcomes, extra);
        assert_eq!(code, Some(status_code(status)));
        assert!(out.contains(&format!("\nrun {status} after ")), "{out}");
        assert!(
            !out.contains("error:"),
            "a run status is not an error: {out}"
        );
    }
    let aborts = loop_file(
        &dir,
        "aborts.json",
        &agentpm(
            r#" "error_policy": {"tool_failure": {"action": "abort"}},"#,
            "",
        ),
    );
    let (code, v) = walk_json(&aborts, "again,@tool-failure", &[]);
    assert_eq!(
        (code, &v["status"]),
        (Some(3), &Value::from("aborted")),
        "{v}"
    );
    // `--help` documents the codes.
    let help = loopconv().args(["walk", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    for status in [
        "ended",
        "aborted",
        "handed_off",
        "limit_reached",
        "approval_required",
        "failed",
    ] {
        let line = format!("  {}  {status}", status_code(status));
        assert!(help.contains(&line), "{line:?} in:\n{help}");
    }
}

#[test]
fn a_checkpoint_without_a_decision_ends_approval_required() {
    let f = examples().join(REACT);
    let (code, v) = walk_json(&f, "act,complete,complete", &[]);
    assert_eq!(code, Some(6), "{v}");
    assert_eq!(v["status"], "approval_required");
    assert_eq!(v["checkpoint"], "approve-next-action");
    assert_eq!(v["phase_steps"], 1);
    // The runtime stopped the run: the script it did not use is reported, not refused.
    assert_eq!(v["unused"], serde_json::json!(["`complete`", "`complete`"]));
    let (_, out) = walk_with(&f, "act,complete,complete", &[]);
    assert!(
        out.contains("checkpoint `approve-next-action` needs a decision"),
        "{out}"
    );
}

#[test]
fn script_mistakes_are_usage_errors_and_never_list_nothing() {
    let f = examples().join(REACT);
    let (code, out) = walk_with(&f, "handoff,act", &[]);
    assert_eq!(code, Some(2));
    assert!(
        out.contains(
            "error: the run is over (`handed_off`: reached `$handoff`), but the script has outcomes left over: `act`"
        ),
        "{out}"
    );
    let (code, out) = walk_with(&f, "handoff", &["--approve", "approve-next-action"]);
    assert_eq!(code, Some(2));
    assert!(
        out.contains(
            "but the script has checkpoint decisions left over: `approve approve-next-action`"
        ),
        "{out}"
    );
    // An empty item (a trailing comma) is named, not listed as an empty leftover.
    for outcomes in ["handoff,", "handoff,,act", ","] {
        let (code, out) = walk_with(&f, outcomes, &[]);
        assert_eq!(code, Some(2), "{outcomes}: {out}");
        assert!(out.contains("of the script is empty"), "{outcomes}: {out}");
        assert!(
            !out.contains("left over: \n") && !out.trim_end().ends_with(':'),
            "{out}"
        );
    }
    let (code, out) = walk_with(&f, "reason-more", &[]);
    assert_eq!(code, Some(2));
    assert!(out.contains("no outcome left for phase `reason`"), "{out}");
}

/// A decision for a checkpoint the loop does not declare is a script mistake (exit 2),
/// found before the first step: a misspelled id does not leave the real checkpoint
/// waiting for an approval (exit 6) with the decision reported as merely unused.
#[test]
fn a_decision_for_an_undeclared_checkpoint_is_a_usage_error_with_the_near_id() {
    let f = examples().join(REACT);
    let (code, out) = walk_with(
        &f,
        "act,complete,complete",
        &["--approve", "approve-next-acton"],
    );
    assert_eq!(code, Some(2), "{out}");
    assert_eq!(
        out.trim_end(),
        "error: the script decides checkpoint `approve-next-acton`, which the loop does not \
         declare (did you mean `approve-next-action`?)"
    );
    let (code, out) = walk_with(&f, "act,complete", &["--reject", "zzz"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("(checkpoints: approve-next-action)"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let spin = loop_file(&dir, "spin.json", &agentpm("", ""));
    let (code, out) = walk_with(&spin, "done", &["--approve", "gate"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("does not declare (it declares none)"), "{out}");
}

/// A tool failure with `retry`: `max_retries` more attempts, then `on_exhausted`; the
/// retried phase is one step. Without a policy, the harness defaults.
#[test]
fn failures_follow_the_error_policy_or_the_harness_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let policy = r#" "error_policy": {"tool_failure": {"action": "retry", "max_retries": 2, "on_exhausted": "fail_phase"}, "phase_failure": {"action": "handoff"}},"#;
    let f = loop_file(&dir, "retry.json", &agentpm(policy, ""));
    // Two failures are retried, the call then succeeds: one step for the retried phase.
    let (code, v) = walk_json(&f, "again,@tool-failure,@tool-failure,done", &[]);
    assert_eq!(
        (code, &v["status"]),
        (Some(0), &Value::from("ended")),
        "{v}"
    );
    assert_eq!(v["phase_steps"], 2);
    assert_eq!(v["steps"][1]["action"], "retry");
    assert_eq!(v["steps"][2]["retry"], serde_json::json!([2, 2]));
    // A third failure exhausts the retries: fail_phase, then phase_failure: handoff.
    let (code, out) = walk_with(&f, "again,@tool-failure,@tool-failure,@tool-failure", &[]);
    assert_eq!(code, Some(4), "{out}");
    assert!(
        out.contains("     work ✗ tool failure → fail_phase (error_policy.tool_failure.on_exhausted)\n     work ✗ phase failure → handoff (error_policy.phase_failure)\nrun handed_off after 2 steps"),
        "{out}"
    );
    let (code, _) = walk_with(&f, "@phase-failure", &[]);
    assert_eq!(code, Some(4));
    // No policy: a tool failure fails the phase, a failed phase fails the run.
    let plain = loop_file(&dir, "plain.json", &agentpm("", ""));
    let (code, v) = walk_json(&plain, "again,@tool-failure", &[]);
    assert_eq!(
        (code, &v["status"]),
        (Some(7), &Value::from("failed")),
        "{v}"
    );
    assert_eq!(v["steps"][1]["action"], "fail_phase");
    assert_eq!(v["steps"][1]["rule"], "harness default");
    assert_eq!(v["steps"][2]["action"], "fail_run");
    // A failure ends the run: outcomes after it are a script mistake.
    let (code, out) = walk_with(&plain, "@phase-failure,done", &[]);
    assert_eq!(code, Some(2));
    assert!(
        out.contains("but the script has outcomes left over: `done`"),
        "{out}"
    );
}

/// A VEAL loop with `max_attempts: 2` and the given escalation lines.
fn veal(escalation: &str) -> String {
    format!(
        "name: lint-fix\ntype: VEAL\ndescription: Keep the lints clean.\nvalidator: linter\nactor: fixer\nmax_attempts: 2\n{escalation}checks:\n  - id: lint\n    command: cargo clippy\n"
    )
}

/// Escalation happens at the last of `max_attempts` failed evaluations, by the policy.
#[test]
fn mas_loops_escalate_only_when_max_attempts_is_used_up() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "escalation: human\n",
            "handed_off",
            "$handoff",
            "a person takes over",
        ),
        (
            "escalation: abort\n",
            "aborted",
            "$abort",
            "the workflow fails",
        ),
        (
            "escalation: continue\n",
            "ended",
            "$end",
            "the workflow proceeds despite unresolved issues",
        ),
        (
            "escalation: fallback\nfallback_agent: senior\n",
            "handed_off",
            "$handoff",
            "the fallback agent `senior` takes over",
        ),
        ("", "handed_off", "$handoff", "escalation `human`"),
    ];
    for (k, (lines, status, terminal, says)) in cases.iter().enumerate() {
        let f = loop_file(&dir, &format!("veal{k}.yaml"), &veal(lines));
        // The first failed evaluation retries; the second escalates.
        let (code, v) = walk_json(&f, "complete,no-go,complete,complete,no-go", &[]);
        assert_eq!(v["status"], *status, "{lines}: {v}");
        assert_eq!(code, Some(status_code(status)), "{lines}");
        assert_eq!(v["terminal"], *terminal, "{lines}");
        assert_eq!(v["phase_steps"], 5);
        assert_eq!(v["escalation"]["after_attempts"], 2);
        // The JSON quotes plainly what the human output marks as code.
        let says = says.replace('`', "'");
        assert!(
            v["reason"].as_str().unwrap().contains(&says),
            "{lines}: {v}"
        );
        if lines.contains("fallback") {
            assert_eq!(v["escalation"]["fallback_agent"], "senior");
        }
        // `escalate` before the attempts are used up is a script mistake.
        let (code, out) = walk_with(&f, "complete,escalate", &[]);
        assert_eq!(code, Some(2), "{out}");
        assert!(
            out.contains("only when `max_attempts` (2) is used up, and this is attempt 1"),
            "{out}"
        );
        // A success at the last attempt ends the run, without escalation.
        let (code, v) = walk_json(&f, "complete,no-go,complete,complete,go", &[]);
        assert_eq!(
            (code, &v["status"]),
            (Some(0), &Value::from("ended")),
            "{v}"
        );
        assert!(v.get("escalation").is_none());
    }
    // The committed example: four attempts, then `abort`.
    let f = examples().join("mas/veal-release-gate.yaml");
    let run = format!(
        "{},complete,no-go",
        ["complete,no-go,complete"; 3].join(",")
    );
    let (code, out) = walk_with(&f, &run, &[]);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains(" 11. eval → escalate → $abort\nrun aborted after 11 steps (max_steps 11): `max_attempts` (4) used up: escalation `abort`, the workflow fails (`$abort`)"), "{out}");
}

/// Every run end and script error `walk` can give for the examples, corpus and scaffolds
/// reads as prose (no empty list after "left over:", no "(s)", nothing cut short): the
/// reason of every run `paths` lists (replayed), and for each loop the mistakes of a
/// script with one outcome too many, an unknown outcome and a missing decision.
#[test]
fn every_run_end_and_script_error_reads_well() {
    use loopconv::analysis::paths::{Options, plan};
    use loopconv::analysis::walk::{Script, walk};
    use loopconv::analysis::{Decision, Runtime};
    let dir = tempfile::tempdir().unwrap();
    let mut files = all_inputs();
    files.extend(new_scaffolds(dir.path()).into_iter().map(|(_, f)| f));
    let (mut bad, mut judged) = (Vec::new(), 0);
    let mut judge = |name: &str, text: &str| {
        judged += 1;
        crate::valid::messages::report(&mut bad, name, text, "");
    };
    for f in &files {
        let l = load_file(f);
        let Some((spec, info)) = l.valid() else {
            continue;
        };
        let name = rel(f);
        // The runs in full (none sharing steps with another), so each replays whole.
        let whole = Options {
            max_steps_listed: usize::MAX,
            shared_min_steps: usize::MAX,
        };
        let found = plan(spec, info, Runtime::default(), whole).into_paths();
        for run in found
            .shortest
            .iter()
            .chain(&found.cover)
            .chain(&found.failures)
        {
            let mut script = Script {
                outcomes: run.outcomes.clone(),
                decisions: run.decisions.clone(),
            };
            match walk(spec, info, &script, Runtime::default()) {
                Ok(r) => judge(&name, &r.reason),
                Err(e) => judge(&name, &e.message),
            }
            script.outcomes.push("extra".to_owned());
            script
                .decisions
                .push(("extra".to_owned(), Decision::Reject));
            if let Err(e) = walk(spec, info, &script, Runtime::default()) {
                judge(&name, &e.message);
            }
            script.outcomes = vec!["no-such-outcome".to_owned()];
            script.decisions.clear();
            match walk(spec, info, &script, Runtime::default()) {
                Ok(r) => judge(&name, &r.reason),
                Err(e) => judge(&name, &e.message),
            }
        }
    }
    assert!(judged > 200, "only {judged} texts were judged");
    crate::valid::messages::assert_reads_well(&bad);
}

/// A run of no phase step, a rejection at the entry's checkpoint, is one `paths` lists
/// (`--outcomes ''`) and `walk` runs with its `walk_args`, or with no `--outcomes` at all,
/// to the same status.
#[test]
fn paths_and_walk_agree_on_a_zero_step_run() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint =
        r#"{"id": "go", "type": "approval", "before_phase": "work", "on_reject": "$abort"}"#;
    let f = loop_file(&dir, "zero.json", &agentpm("", checkpoint));
    let out = loopconv()
        .arg("paths")
        .arg(&f)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let paths: Value = serde_json::from_slice(&out.stdout).unwrap();
    let zero = paths["shortest"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["phase_steps"] == 0)
        .expect("a zero-step shortest run");
    assert_eq!(zero["status"], "aborted");
    let args: Vec<String> = zero["walk_args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(args, ["--outcomes", "", "--reject", "go"]);
    for with in [&args[..], &args[2..]] {
        let out = loopconv()
            .arg("walk")
            .arg(&f)
            .args(with)
            .args(["--format", "json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        let run: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(run["status"], "aborted");
        assert_eq!(run["phase_steps"], 0);
    }
}

/// Every run `paths` lists for every example and corpus loop (the shortest, the covering
/// runs in full and the failure runs), replayed by `walk` with its outcomes and decisions,
/// ends with the status and terminal `paths` states, and takes the same steps.
#[test]
fn walk_replays_every_run_paths_lists_to_its_status() {
    use loopconv::analysis::paths::{Options, plan};
    use loopconv::analysis::walk::{Script, walk};
    use loopconv::analysis::{Runtime, Status};
    let whole = Options {
        max_steps_listed: usize::MAX,
        shared_min_steps: usize::MAX,
    };
    let mut replayed = 0;
    for f in all_inputs() {
        let l = load_file(&f);
        let Some((spec, info)) = l.valid() else {
            continue;
        };
        let name = rel(&f);
        let found = plan(spec, info, Runtime::default(), whole).into_paths();
        for run in (found.shortest.iter())
            .chain(&found.cover)
            .chain(&found.failures)
        {
            let script = Script {
                outcomes: run.outcomes.clone(),
                decisions: run.decisions.clone(),
            };
            let walked = walk(spec, info, &script, Runtime::default()).unwrap_or_else(|e| {
                panic!("{name}: walk refuses {:?}: {}", run.walk_args, e.message)
            });
            if !run.fits_max_steps {
                // A run longer than the effective `max_steps` (paths says so): the runtime
                // cuts it off at its limit, on the way paths lists.
                let on_the_way = run.steps.starts_with(&walked.steps);
                assert!(
                    walked.status == Status::LimitReached && on_the_way,
                    "{name}: {:?}",
                    run.walk_args
                );
                replayed += 1;
                continue;
            }
            assert_eq!(
                (walked.status, &walked.terminal, &walked.steps),
                (run.status, &run.terminal, &run.steps),
                "{name}: {:?}",
                run.walk_args
            );
            assert!(
                walked.unused.is_empty(),
                "{name}: {:?} leaves {:?}",
                run.walk_args,
                walked.unused
            );
            replayed += 1;
        }
    }
    assert!(replayed > 100, "only {replayed} runs replayed");
}

/// The same through the command line: `walk FILE` with each `walk_args` of `paths --format
/// json` exits with the code of the status `paths` states, for every example and corpus
/// loop.
#[test]
fn walk_accepts_every_walk_args_paths_prints() {
    let mut replayed = 0;
    for f in all_inputs() {
        if load_file(&f).valid().is_none() {
            continue;
        }
        let out = loopconv()
            .arg("paths")
            .arg(&f)
            .args(["--format", "json", "--max-steps-listed", "1000000"])
            .output()
            .unwrap();
        let paths: Value = serde_json::from_slice(&out.stdout).unwrap();
        let runs = ["shortest", "cover", "failures"]
            .iter()
            .flat_map(|k| paths[k].as_array().cloned().unwrap_or_default());
        for run in runs {
            let Some(args) = run["walk_args"].as_array() else {
                continue;
            };
            let args: Vec<&str> = args.iter().map(|a| a.as_str().unwrap()).collect();
            let out = loopconv()
                .arg("walk")
                .arg(&f)
                .args(&args)
                .args(["--format", "json"])
                .output()
                .unwrap();
            let walked: Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|_| panic!("{}: walk {args:?}: {}", rel(&f), stderr(&out)));
            // A run that does not fit the effective `max_steps` is cut off at the limit.
            let status = if run["fits_max_steps"] == true {
                run["status"].as_str().unwrap()
            } else {
                "limit_reached"
            };
            assert_eq!(walked["status"], status, "{}: walk {args:?}", rel(&f));
            let want = match status {
                "ended" => 0,
                "aborted" => 3,
                "handed_off" => 4,
                "limit_reached" => 5,
                "approval_required" => 6,
                _ => 7,
            };
            assert_eq!(out.status.code(), Some(want), "{}: walk {args:?}", rel(&f));
            replayed += 1;
        }
    }
    assert!(replayed > 50, "only {replayed} runs replayed");
}

/// A tool failure in a phase whose access says `tools: false` cannot happen: `walk`
/// refuses it as a script mistake (exit 2) and names `@phase-failure`; `paths` puts its
/// tool-failure runs in the first phase that calls tools.
#[test]
fn a_tool_failure_needs_a_phase_that_calls_tools() {
    let f = examples().join("agentpm/react-loop.json");
    let (code, out, err) = walk_streams(&f, "@tool-failure", &[]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains(
            "`@tool-failure` in phase `reason`, which calls no tool (`access.tools: false`)"
        ),
        "{err}"
    );
    let out = loopconv()
        .arg("paths")
        .arg(&f)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let paths: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tool_runs: Vec<&Value> = (paths["failures"].as_array().unwrap().iter())
        .filter(|r| {
            r["outcomes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|o| o == "@tool-failure")
        })
        .collect();
    assert!(!tool_runs.is_empty(), "{paths:#}");
    for r in tool_runs {
        assert_eq!(r["outcomes"][0], "act", "{r:#}");
    }
}

/// Spaces around an outcome in `--outcomes` are not part of it: `"act, complete"` is the
/// script `act`, `complete`.
#[test]
fn spaces_around_outcomes_are_ignored() {
    let f = examples().join(REACT);
    let (tight, _, _) = walk_streams(
        &f,
        "act,complete,complete",
        &["--approve", "approve-next-action"],
    );
    let (code, out, err) = walk_streams(
        &f,
        " act, complete ,complete ",
        &["--approve", "approve-next-action"],
    );
    assert_eq!(tight, Some(0));
    assert_eq!(code, tight, "{out}{err}");
    assert!(!err.contains("is not an outcome"), "{err}");
}

/// `walk --format json` is data: its sentences quote ids plainly ('act'), with no Markdown
/// code spans, in a run's `reason` and in a script's `error`.
#[test]
fn walk_json_carries_no_markdown() {
    let file = crate::support::examples().join("agentpm/code-review-sign-off.json");
    for outcomes in ["complete,approve", "complete,complete"] {
        let out = crate::support::loopconv()
            .args(["walk", "--format", "json", "--outcomes", outcomes])
            .arg(&file)
            .output()
            .expect("run");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("'"), "{text}");
        assert!(!text.contains('`'), "{text}");
    }
}
