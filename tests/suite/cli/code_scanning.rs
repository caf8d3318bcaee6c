//! `--format sarif` and `--format github`: the report of `loopconv check` for code
//! scanning and for pull-request annotations.
//!
//! Every `examples/invalid` file's SARIF log is validated by Microsoft's SARIF Multitool
//! (`tools/node_modules`, installed by `scripts/install-tools.sh`; skipped with a notice
//! when absent, so `.ci/run` always runs it).

use crate::support;

use std::path::Path;
use std::process::Command;

use crate::support::{loop_files, loopconv, rel, repo};
use loopconv::diag::Code;
use serde_json::Value;

fn invalid_files() -> Vec<std::path::PathBuf> {
    loop_files(&repo().join("examples/invalid"))
        .into_iter()
        .filter(|p| !rel(p).contains("/convert/"))
        .collect()
}

fn sarif_of(file: &str) -> (Value, Option<i32>) {
    let out = loopconv()
        .args(["check", "--format", "sarif", file])
        .output()
        .expect("runs");
    let log = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{file}: stdout is one JSON document: {e}"));
    (log, out.status.code())
}

#[test]
fn sarif_has_rules_and_located_results() {
    let (log, code) = sarif_of("examples/invalid/V006-unknown-entry-phase.json");
    assert_eq!(code, Some(1));
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "loopconv");
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), Code::ALL.len());
    let v006 = rules.iter().find(|r| r["id"] == "V006").expect("rule V006");
    assert_eq!(v006["name"], "unknown-entry-phase");
    assert!(
        v006["help"]["text"]
            .as_str()
            .unwrap()
            .contains("Why it matters")
    );
    assert!(
        v006["helpUri"]
            .as_str()
            .unwrap()
            .ends_with("/docs/src/codes/V006.md")
    );
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{results:#?}");
    let r = &results[0];
    assert_eq!(r["ruleId"], "V006");
    assert_eq!(r["level"], "error");
    assert_eq!(
        rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"],
        "V006"
    );
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        "examples/invalid/V006-unknown-entry-phase.json"
    );
    assert!(loc["region"]["startLine"].as_u64().unwrap() > 1);
    assert!(loc["region"]["startColumn"].as_u64().unwrap() > 1);
}

#[test]
fn sarif_of_a_valid_loop_has_no_results() {
    let (log, code) = sarif_of("examples/agentpm/react-loop.json");
    assert_eq!(code, Some(0));
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn sarif_of_a_folder_is_one_log() {
    let out = loopconv()
        .args(["check", "--format", "sarif", "examples/invalid"])
        .output()
        .expect("runs");
    let log: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    let results = log["runs"][0]["results"].as_array().expect("results");
    // One result per diagnostic of `check --format json` on the same folder, with its file
    // and code: not just "at least one per file".
    let mut got: Vec<(String, String)> = results
        .iter()
        .map(|r| {
            let uri = &r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
            (
                uri.as_str().unwrap_or("").to_owned(),
                r["ruleId"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let json = loopconv()
        .args(["check", "--format", "json", "examples/invalid"])
        .output()
        .expect("runs");
    let diags: Vec<Value> = serde_json::from_slice(&json.stdout).expect("one JSON array");
    let mut want: Vec<(String, String)> = diags
        .iter()
        .map(|d| {
            let file = d["location"]["file"].as_str().unwrap_or("").to_owned();
            (file, d["code"].as_str().unwrap_or("").to_owned())
        })
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
    // A file of no known kind (P011) found by a folder search is skipped with a note.
    let walked = invalid_files()
        .into_iter()
        .filter(|f| !rel(f).contains("P011-"));
    for f in walked {
        assert!(
            got.iter().any(|(uri, _)| *uri == rel(&f)),
            "no result for {}",
            rel(&f)
        );
    }
}

/// A file name that is not UTF-8 keeps its bytes in SARIF's `artifactLocation.uri`,
/// percent-encoded, in `check`'s log and in `diff`'s.
#[cfg(unix)]
#[test]
fn sarif_uris_keep_the_bytes_of_a_name_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = tempfile::tempdir().expect("tempdir");
    let name = std::ffi::OsStr::from_bytes(b"bad\xff name.json");
    let file = dir.path().join(name);
    let bad = repo().join("examples/invalid/V006-unknown-entry-phase.json");
    std::fs::copy(&bad, &file).expect("copy");
    let uris = |args: &[&str], name: &std::ffi::OsStr| -> Vec<String> {
        let out = loopconv()
            .current_dir(dir.path())
            .args(args)
            .arg(name)
            .output()
            .expect("runs");
        let log: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
        log["runs"][0]["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| {
                let at = &r["locations"][0]["physicalLocation"]["artifactLocation"];
                at["uri"].as_str().expect("a uri").to_owned()
            })
            .collect()
    };
    let check = uris(&["check", "--format", "sarif"], name);
    assert!(!check.is_empty());
    assert!(check.iter().all(|u| u == "bad%FF%20name.json"), "{check:?}");
    let name = std::ffi::OsStr::from_bytes(b"bad\xff name.yaml");
    let new = repo().join("examples/mas/real-dependency-bump.yaml");
    std::fs::copy(&new, dir.path().join(name)).expect("copy");
    let old = repo().join("examples/mas/real-docs-refresh.yaml");
    let diff = uris(
        &["diff", "--format", "sarif", old.to_str().expect("UTF-8")],
        name,
    );
    assert!(!diff.is_empty());
    assert!(diff.iter().all(|u| u == "bad%FF%20name.yaml"), "{diff:?}");
}

/// On Unix a backslash is a byte of a file name, percent-encoded in SARIF's URI, and a
/// name starting with one is relative.
#[cfg(unix)]
#[test]
fn sarif_uris_keep_the_backslash_of_a_unix_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = repo().join("examples/invalid/V006-unknown-entry-phase.json");
    for (name, want) in [
        ("back\\slash.json", "back%5Cslash.json"),
        ("\\lead.json", "%5Clead.json"),
    ] {
        std::fs::copy(&bad, dir.path().join(name)).expect("copy");
        let out = loopconv()
            .current_dir(dir.path())
            .args(["check", "--format", "sarif", name])
            .output()
            .expect("runs");
        let log: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
        let results = log["runs"][0]["results"].as_array().expect("results");
        assert!(!results.is_empty(), "{name}");
        for r in results {
            let at = &r["locations"][0]["physicalLocation"]["artifactLocation"];
            assert_eq!(at["uri"], want, "{name}");
        }
    }
}

#[test]
fn github_prints_workflow_commands() {
    let out = loopconv()
        .args([
            "check",
            "--format",
            "github",
            "examples/invalid/V006-unknown-entry-phase.json",
            "examples/invalid/V023-trap-cycle.json",
        ])
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("::error file=examples/invalid/V006-unknown-entry-phase.json,line=")
            && lines[0].contains(",title=V006 unknown-entry-phase::"),
        "{text}"
    );
    assert!(
        lines.iter().any(|l| l
            .starts_with("::warning file=examples/invalid/V023-trap-cycle.json,")
            && l.contains("title=V023 trap-cycle::")),
        "{text}"
    );
    assert!(lines.iter().all(|l| l.starts_with("::")), "{text}");
}

fn multitool() -> Option<std::path::PathBuf> {
    let bin = repo().join("tools/node_modules/.bin/sarif-multitool");
    bin.exists().then_some(bin)
}

/// Microsoft's SARIF Multitool validates the log of every `examples/invalid` file.
#[test]
fn sarif_multitool_validates_every_invalid_example() {
    let tool = multitool();
    if support::skip_without_tool(tool.is_some(), "tools/node_modules/.bin/sarif-multitool") {
        return;
    }
    let tool = tool.expect("checked");
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut logs = Vec::new();
    for f in invalid_files() {
        let name = rel(&f);
        let (log, _) = sarif_of(&name);
        let path = tmp.path().join(format!("{}.sarif", name.replace('/', "_")));
        std::fs::write(&path, serde_json::to_string_pretty(&log).unwrap()).expect("write");
        logs.push(path);
    }
    validate(&tool, &logs, tmp.path());
}

/// `diff --format sarif` of two example loops (with breaking and compatible changes) is a
/// log the SARIF Multitool accepts.
#[test]
fn sarif_multitool_validates_a_diff() {
    let tool = multitool();
    if support::skip_without_tool(tool.is_some(), "tools/node_modules/.bin/sarif-multitool") {
        return;
    }
    let tool = tool.expect("checked");
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = support::loopconv()
        .args([
            "diff",
            "examples/mas/real-docs-refresh.yaml",
            "examples/mas/real-dependency-bump.yaml",
        ])
        .args(["--format", "sarif"])
        .output()
        .expect("run loopconv");
    assert!(out.status.success(), "{}", support::stderr(&out));
    let v = support::stdout_json(&out);
    let results = v["runs"][0]["results"].as_array().expect("results");
    assert!(
        results.iter().any(|r| r["ruleId"] == "breaking-change"),
        "{v}"
    );
    let path = tmp.path().join("diff.sarif");
    std::fs::write(&path, &out.stdout).expect("write");
    validate(&tool, &[path], tmp.path());
}

/// One run of the multitool over every log; its report must hold no error.
fn validate(tool: &Path, logs: &[std::path::PathBuf], dir: &Path) {
    let report = dir.join("validation.sarif.json");
    let out = Command::new(tool)
        .arg("validate")
        .args(logs)
        .arg("--output")
        .arg(&report)
        .args(["--log", "ForceOverwrite"])
        .output()
        .expect("the multitool runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!("{} files scanned", logs.len())),
        "every log is validated: {text}"
    );
    let v: Value = serde_json::from_slice(&std::fs::read(&report).expect("report")).expect("json");
    let problems: Vec<&Value> = v["runs"][0]["results"]
        .as_array()
        .map(|r| r.iter().filter(|x| x["level"] == "error").collect())
        .unwrap_or_default();
    assert!(problems.is_empty(), "{problems:#?}");
}
