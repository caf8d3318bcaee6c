//! The hostile inputs (`examples/hostile/*`) through `diff` (every `--format`), `paths` and
//! `walk` (issue 22, item 7c): no panic, the documented exit codes (the guide, `docs/src/usage.md`, "Exit codes":
//! these are valid loops, so 0; a walk exits with its run status's code, a script that does
//! not fit the loop 2), and output that is well formed (the
//! JSON forms parse). The language server's side is in `lsp::protocol`.

use crate::support;

use std::path::PathBuf;
use std::process::Output;

fn hostile() -> Vec<PathBuf> {
    let files = support::loop_files(&support::examples().join("hostile"));
    assert!(
        files.len() >= 10,
        "examples/hostile holds {} files",
        files.len()
    );
    files
}

/// No panic, and the exit code `want`.
fn sane(out: &Output, want: i32, what: &str) {
    let err = support::stderr(out);
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert_eq!(out.status.code(), Some(want), "{what}: {err}");
}

/// `--format json` promises "one JSON array of all diagnostics ... on stderr for the other
/// commands" (`--help`): standard error is empty or JSON arrays, one per input read (`diff`
/// reads two).
fn json_stderr(out: &Output, command: &str, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    let arrays: Vec<serde_json::Value> = serde_json::Deserializer::from_str(&err)
        .into_iter::<serde_json::Value>()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| {
            panic!("{what}: `{command}` wrote stderr that is not JSON ({e}):\n{err}")
        });
    assert!(
        arrays.iter().all(serde_json::Value::is_array) && arrays.len() <= 2,
        "{what}: stderr is not one JSON array per input:\n{err}"
    );
}

#[test]
fn diff_of_hostile_loops_in_every_format() {
    let files = hostile();
    let mut stderr_seen = false;
    for (i, old) in files.iter().enumerate() {
        // Each file against itself and against the next one (any formats).
        for new in [old, &files[(i + 1) % files.len()]] {
            for format in ["human", "json", "markdown", "sarif", "github"] {
                let what = format!(
                    "diff {} {} --format {format}",
                    support::rel(old),
                    support::rel(new)
                );
                let out = support::loopconv()
                    .arg("diff")
                    .args([old, new])
                    .args(["--format", format])
                    .output()
                    .expect("run loopconv");
                sane(&out, 0, &what);
                let text = String::from_utf8(out.stdout.clone()).expect("UTF-8 output");
                // Workflow commands: one annotation per change, so none for no change.
                if format == "github" {
                    assert!(text.lines().all(|l| l.starts_with("::")), "{what}: {text}");
                    assert_eq!(text.is_empty(), old == new, "{what}: {text}");
                    continue;
                }
                assert!(!out.stdout.is_empty(), "{what}: no output");
                if format == "sarif" {
                    let v = support::stdout_json(&out);
                    assert_eq!(v["version"], "2.1.0", "{what}");
                    let results = v["runs"][0]["results"].as_array().expect("results");
                    assert_eq!(results.is_empty(), old == new, "{what}");
                    continue;
                }
                if format == "json" {
                    let v = support::stdout_json(&out);
                    assert!(
                        v["breaking"].is_u64() && v["compatible"].is_u64(),
                        "{what}: {v}"
                    );
                    if old == new {
                        assert_eq!(v["breaking"], 0, "{what}");
                        assert_eq!(v["compatible"], 0, "{what}");
                    }
                    stderr_seen |= !out.stderr.is_empty();
                    json_stderr(&out, "diff", &what);
                }
                if format == "markdown" {
                    assert!(text.starts_with("### "), "{what}: {text}");
                }
            }
        }
    }
    // Some hostile loops carry warnings (F015): the stderr check above had something to check.
    assert!(stderr_seen, "no hostile loop has a warning");
}

#[test]
fn paths_of_hostile_loops() {
    for f in hostile() {
        let what = format!("paths {}", support::rel(&f));
        let out = support::loopconv()
            .arg("paths")
            .arg(&f)
            .output()
            .expect("run loopconv");
        sane(&out, 0, &what);
        let text = String::from_utf8(out.stdout.clone()).expect("UTF-8 output");
        assert!(text.starts_with("shortest runs:\n"), "{what}: {text}");
        assert!(text.contains("covering runs ("), "{what}: {text}");
        let out = support::loopconv()
            .arg("paths")
            .arg(&f)
            .args(["--format", "json"])
            .output()
            .expect("run loopconv");
        sane(&out, 0, &what);
        json_stderr(&out, "paths", &what);
    }
}

/// The first run `paths` lists for a loop, as `walk --outcomes` and decision flags.
fn first_run(f: &std::path::Path) -> (String, Vec<String>) {
    let out = support::loopconv()
        .arg("paths")
        .arg(f)
        .output()
        .expect("run loopconv");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("1. "))
        .expect("a covering run");
    let mut outcomes = Vec::new();
    let mut flags = Vec::new();
    let words: Vec<&str> = line.split_whitespace().collect();
    for (k, w) in words.iter().enumerate() {
        if let Some(o) = w.strip_prefix("--").and_then(|w| w.strip_suffix("-->")) {
            outcomes.push(o.to_owned());
        }
        if let Some(d) = w.strip_prefix('[') {
            let id = words[k + 1].trim_end_matches(']');
            flags.push(format!("--{d}"));
            flags.push(id.to_owned());
        }
    }
    (outcomes.join(","), flags)
}

#[test]
fn walk_of_hostile_loops() {
    for f in hostile() {
        let (outcomes, flags) = first_run(&f);
        let what = format!("walk {} --outcomes {outcomes} {flags:?}", support::rel(&f));
        let out = support::loopconv()
            .arg("walk")
            .arg(&f)
            .args(["--outcomes", &outcomes])
            .args(&flags)
            .args(["--format", "json"])
            .output()
            .expect("run loopconv");
        let v = support::stdout_json(&out);
        let status = v["status"].as_str().expect("a run status");
        sane(&out, super::paths::status_code(status), &what);
        assert!(
            v["terminal"].as_str().is_some_and(|t| t.starts_with('$')),
            "{what}: {v}"
        );
        json_stderr(&out, "walk", &what);
        // An outcome no phase has is refused, naming the valid ones.
        let out = support::loopconv()
            .arg("walk")
            .arg(&f)
            .args(["--outcomes", "no-such-outcome"])
            .output()
            .expect("run loopconv");
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            support::stderr(&out)
        );
        sane(&out, 2, &what);
        assert!(said.contains("valid outcomes"), "{what}: {said}");
    }
}
