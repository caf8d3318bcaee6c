//! Hostile inputs, second pass (issue 45): a bounded report (`--max-diagnostics`, `P016`,
//! user text cut in messages), and failures that are diagnostics (memory running out, link
//! loops, named pipes, `schema --outcomes` with the limits, the phase count of an XState
//! machine read back).

use crate::support::{loopconv, stderr, stdout_json};
use predicates::prelude::predicate;
use serde_json::Value;
use std::path::Path;

/// A valid loop with `extra` members added at its top level.
fn loop_with(extra: &str) -> String {
    format!(
        r#"{{"$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json",
"kind": "loop", "name": "many", "version": "0.1.0", "description": "Many.",
"loop": {{"entry_phase": "a", "phases": [{{"id": "a", "objective": "Act.", "outcomes": [{{"id": "complete", "description": "Done."}}]}}],
"transitions": [{{"from": "a", "on": "complete", "to": "$end"}}]}}{extra}}}"#
    )
}

/// `n` repeats of one key in one object, under an unknown top-level key `x`.
fn repeated_keys(n: usize) -> String {
    let mut body = String::with_capacity(n * 7 + 16);
    body.push_str(r#", "x": {"#);
    for i in 0..n {
        if i > 0 {
            body.push(',');
        }
        body.push_str(r#""k":0"#);
    }
    body.push('}');
    loop_with(&body)
}

/// A million repeated keys: `check --format sarif` writes the first 200 results and one
/// `P016` saying how many more there were and of which codes, and its output is a small
/// part of the file.
#[test]
fn the_report_is_capped_and_says_what_it_left_out() {
    let dir = tempfile::tempdir().expect("temp dir");
    let f = dir.path().join("repeats.json");
    let text = repeated_keys(990_000);
    std::fs::write(&f, &text).expect("write");
    let out = loopconv()
        .args(["check", "--format", "sarif"])
        .arg(&f)
        .output()
        .expect("runs");
    // `x` is an unknown field (an error), whatever was left out.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        out.stdout.len() < text.len() / 10,
        "SARIF of {} bytes for a file of {}",
        out.stdout.len(),
        text.len()
    );
    let log = stdout_json(&out);
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 201, "200 and the P016");
    let last = &results[200];
    assert_eq!(last["ruleId"], "P016", "{last}");
    let text = last["message"]["text"].as_str().expect("text");
    assert!(
        text.starts_with("989,800 more diagnostics left out after the first 200"),
        "{text}"
    );
    assert!(text.contains("989,799 P014 json-duplicate-key"), "{text}");
    assert!(text.contains("1 F001 unknown-field"), "{text}");
    // The human report: the same cap, set by the flag, and the summary counts them all.
    loopconv()
        .args(["check", "--max-diagnostics", "3"])
        .arg(&f)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "error[P016]: 989,997 more diagnostics left out after the first 3 (1 error, 989,996 warnings)",
        ))
        .stderr(predicate::str::contains("1 error, 989999 warnings"));
}

/// A JSON report under the cap has the cap's items and the `P016` last; `--strict` makes
/// the warnings left out errors too.
#[test]
fn the_cap_holds_in_json_and_under_strict() {
    let dir = tempfile::tempdir().expect("temp dir");
    let f = dir.path().join("repeats.json");
    std::fs::write(&f, repeated_keys(50)).expect("write");
    let out = loopconv()
        .args([
            "check",
            "--format",
            "json",
            "--max-diagnostics",
            "10",
            "--strict",
        ])
        .arg(&f)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let items = stdout_json(&out);
    let items = items.as_array().expect("array");
    assert_eq!(items.len(), 11, "{items:#?}");
    let last = &items[10];
    assert_eq!(last["code"], "P016");
    assert_eq!(last["severity"], "error", "the worst of those left out");
    assert!(
        last["message"]
            .as_str()
            .unwrap_or("")
            .contains("40 more diagnostics left out after the first 10 (40 errors, 0 warnings)"),
        "{last}"
    );
}

/// A quoted user text is cut, with an ellipsis and its full length: an unknown key and a
/// number of too many digits.
#[test]
fn quoted_user_text_is_cut_with_its_length() {
    let dir = tempfile::tempdir().expect("temp dir");
    let key = "k".repeat(100_000);
    let digits = format!("-{}", "9".repeat(100_000));
    let cases = [
        (
            "key.json",
            loop_with(&format!(r#", "{key}": 1"#)),
            "F001",
            "…` (100,000 characters)",
        ),
        (
            "number.json",
            loop_with(&format!(r#", "n": {digits}"#)),
            "P001",
            "…` (100,001 characters)",
        ),
    ];
    for (name, text, code, cut) in cases {
        let f = dir.path().join(name);
        std::fs::write(&f, text).expect("write");
        let out = loopconv()
            .args(["check", "--format", "json"])
            .arg(&f)
            .output()
            .expect("runs");
        let items = stdout_json(&out);
        let items = items.as_array().expect("array");
        let codes: Vec<&Value> = items.iter().map(|d| &d["code"]).collect();
        let d = (items.iter())
            .find(|d| d["code"] == code)
            .unwrap_or_else(|| panic!("no {code} in {codes:?}"));
        let message = d["message"].as_str().unwrap_or("");
        assert!(message.len() < 300, "{code}: {} bytes", message.len());
        assert!(message.contains(cut), "{message}");
    }
}

/// Memory running out under raised limits is a message and exit 2, not an abort (exit
/// 134). The address space is capped with `ulimit -v`.
#[cfg(unix)]
#[test]
fn running_out_of_memory_is_an_error_not_an_abort() {
    let dir = tempfile::tempdir().expect("temp dir");
    let f = dir.path().join("zeros.json");
    // 12 million values: a tree of several hundred megabytes.
    let zeros = format!("[{}0]", "0,".repeat(12_000_000));
    std::fs::write(&f, zeros).expect("write");
    let bin = assert_cmd::cargo::cargo_bin("loopconv");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(
            r#"ulimit -v 400000 && exec "$0" check "$1" --max-values 100000000 --max-input-bytes 1GiB"#,
        )
        .arg(&bin)
        .arg(&f)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("error: out of memory"), "{err}");
    assert!(err.contains("--max-values"), "{err}");
}

/// A loop of symbolic links is said to be one; so is a link to nothing.
#[cfg(unix)]
#[test]
fn a_link_loop_is_reported_as_such() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    std::os::unix::fs::symlink(&b, &a).expect("link");
    std::os::unix::fs::symlink(&a, &b).expect("link");
    for command in [&["check"][..], &["graph"], &["convert", "--to", "ir"]] {
        loopconv()
            .args(command)
            .arg(&a)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("a loop of symbolic links"));
    }
    let dangling = dir.path().join("d.json");
    std::os::unix::fs::symlink(dir.path().join("gone.json"), &dangling).expect("link");
    loopconv()
        .arg("check")
        .arg(&dangling)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a symbolic link to"))
        .stderr(predicate::str::contains("which does not exist"));
}

/// A named pipe on the command line is refused at once; `-` reads a stream.
#[cfg(unix)]
#[test]
fn a_named_pipe_is_refused_unless_it_is_standard_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("p.json");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    for command in [&["check"][..], &["graph"]] {
        loopconv()
            .args(command)
            .arg(&fifo)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is a named pipe, not a file"))
            .stderr(predicate::str::contains("pass `-`"));
    }
}

/// `schema --outcomes` takes the limit flags its help names.
#[test]
fn schema_outcomes_takes_the_limit_flags() {
    loopconv()
        .args([
            "schema",
            "--outcomes",
            "examples/agentpm/react-loop.json",
            "--max-phases",
            "1",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("P013"));
    loopconv()
        .args([
            "schema",
            "--outcomes",
            "examples/agentpm/react-loop.json",
            "--max-diagnostics",
            "5",
        ])
        .assert()
        .success();
}

/// A 10,000-phase loop written as an XState machine (10,001 states: a final one for
/// `$end`) reads back as 10,000 phases, within the default limit.
#[test]
fn an_xstate_machine_counts_its_phases_not_its_states() {
    let n = 10_000;
    let phases: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"id": "p{i}", "objective": "Step {i}.", "outcomes": [{{"id": "complete", "description": "Done."}}]}}"#))
        .collect();
    let transitions: Vec<String> = (0..n)
        .map(|i| {
            let to = if i + 1 < n {
                format!("p{}", i + 1)
            } else {
                "$end".to_owned()
            };
            format!(r#"{{"from": "p{i}", "on": "complete", "to": "{to}"}}"#)
        })
        .collect();
    let text = format!(
        r#"{{"$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json",
"kind": "loop", "name": "long", "version": "0.1.0", "description": "Long.",
"loop": {{"entry_phase": "p0", "phases": [{}], "transitions": [{}]}}}}"#,
        phases.join(","),
        transitions.join(",")
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let f = dir.path().join("long.json");
    std::fs::write(&f, text).expect("write");
    let machine = dir.path().join("long.xstate.json");
    loopconv()
        .args(["convert", "--to", "xstate", "-o"])
        .arg(&machine)
        .arg(&f)
        .assert()
        .success();
    let loaded = crate::support::load_file(&machine);
    let codes: Vec<_> = loaded.diags.items().iter().map(|d| d.code).collect();
    assert!(codes.is_empty(), "{codes:?}");
    let spec = loaded.spec.as_ref().expect("a loop");
    assert_eq!(spec.graph.phases.len(), n);
}

/// The guide's commands name the file as the user would; this module's files are made
/// in temporary folders, so it checks its helper once.
#[test]
fn the_helper_loop_is_valid() {
    let dir = tempfile::tempdir().expect("temp dir");
    let f = dir.path().join("one.json");
    std::fs::write(&f, loop_with("")).expect("write");
    loopconv()
        .arg("check")
        .arg(Path::new(&f))
        .assert()
        .success();
}
