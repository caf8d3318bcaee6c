//! `.pre-commit-hooks.yaml` with the real `pre-commit` (PyPI): in a scratch git repository,
//! `pre-commit run --all-files` with loopconv's hooks fails on a broken loop and passes once
//! it is fixed, and the docs hook fails on stale pages.
//!
//! The test runs the very same hook definitions (id, entry, files, pass_filenames, ...) as
//! `repo: local` hooks with `language: system` and the binary under test in front of the
//! entry, so that it needs no wheel (`language: python`) nor `cargo install` (the `-src`
//! variants): `scripts/test-packages.sh` runs the hooks as published, from a built wheel.
//! Skipped with a notice when `pre-commit` is not installed (`scripts/install-tools.sh`
//! installs it, so `.ci/run` always runs this test).

use crate::support;

use std::path::Path;
use std::process::Command;

use crate::support::{read, repo};

fn have_pre_commit() -> bool {
    Command::new("pre-commit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The hooks of `.pre-commit-hooks.yaml` as a `repo: local` config using the test binary.
fn local_config(args: &[(&str, &str)]) -> String {
    let hooks = hooks();
    let bin = env!("CARGO_BIN_EXE_loopconv");
    let mut out = Vec::new();
    for mut h in hooks.into_iter().filter(|h| !is_src_variant(h)) {
        let entry = h["entry"].as_str().expect("an entry").to_owned();
        let rest = entry
            .strip_prefix("loopconv")
            .expect("entry starts with loopconv");
        h.insert("entry".into(), format!("{bin}{rest}").into());
        h.insert("language".into(), "system".into());
        let id = h["id"].as_str().expect("an id").to_owned();
        if let Some((_, a)) = args.iter().find(|(i, _)| *i == id) {
            let list: Vec<&str> = a.split(' ').collect();
            h.insert("args".into(), list.into());
        }
        out.push(serde_json::Value::Object(h));
    }
    let config = serde_json::json!({"repos": [{"repo": "local", "hooks": out}]});
    // JSON is YAML: pre-commit reads it as its config.
    serde_json::to_string_pretty(&config).expect("json")
}

fn is_src_variant(hook: &serde_json::Map<String, serde_json::Value>) -> bool {
    hook["id"].as_str().is_some_and(|id| id.ends_with("-src"))
}

/// The hooks of `.pre-commit-hooks.yaml`, in order.
fn hooks() -> Vec<serde_json::Map<String, serde_json::Value>> {
    let text = String::from_utf8(read(&repo().join(".pre-commit-hooks.yaml"))).expect("utf-8");
    serde_saphyr::from_str(&text).expect("the hooks file is YAML")
}

/// Every hook installs the wheel (`language: python`) and has a `-src` twin built with
/// cargo (`language: rust`) that differs only in id, name and language.
#[test]
fn every_python_hook_has_a_src_twin_that_builds_from_source() {
    let all = hooks();
    let (src, python): (Vec<_>, Vec<_>) = all.into_iter().partition(is_src_variant);
    assert_eq!(python.len(), 2, "{python:?}");
    assert_eq!(src.len(), python.len(), "{src:?}");
    for (p, s) in python.iter().zip(&src) {
        assert_eq!(p["language"], "python", "{p:?}");
        assert_eq!(s["language"], "rust", "{s:?}");
        let id = p["id"].as_str().expect("an id");
        assert_eq!(s["id"], format!("{id}-src").as_str());
        let same = |m: &serde_json::Map<String, serde_json::Value>| {
            let mut m = m.clone();
            for k in ["id", "name", "language"] {
                m.remove(k);
            }
            m
        };
        assert_eq!(same(p), same(s), "{id} and its -src twin differ");
    }
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .status()
        .expect("git runs")
        .success();
    assert!(ok, "git {args:?}");
}

/// `pre-commit run --all-files` in `dir`: (success, output).
fn run(dir: &Path, home: &Path) -> (bool, String) {
    let out = Command::new("pre-commit")
        .args(["run", "--all-files", "--color", "never"])
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", home)
        .output()
        .expect("pre-commit runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn pre_commit_hooks_fail_on_a_broken_loop_and_pass_on_a_fixed_one() {
    if support::skip_without_tool(have_pre_commit(), "pre-commit") {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (dir, home) = (tmp.path().join("repo"), tmp.path().join("home"));
    std::fs::create_dir_all(dir.join("loops")).expect("mkdir");
    git(&dir, &["init", "-q"]);
    let config = local_config(&[("loopconv-docs", "loops -o docs")]);
    std::fs::write(dir.join(".pre-commit-config.yaml"), config).expect("write");
    let good = read(&repo().join("examples/agentpm/react-loop.json"));
    let broken = read(&repo().join("examples/invalid/V006-unknown-entry-phase.json"));
    std::fs::write(dir.join("loops/loop.json"), &broken).expect("write");
    git(&dir, &["add", "-A"]);
    let (ok, out) = run(&dir, &home);
    assert!(!ok, "a broken loop must fail:\n{out}");
    assert!(
        out.contains("V006"),
        "the check hook names the code:\n{out}"
    );

    // Fixed loop, but its docs page is missing: the docs hook fails.
    std::fs::write(dir.join("loops/loop.json"), &good).expect("write");
    git(&dir, &["add", "-A"]);
    let (ok, out) = run(&dir, &home);
    assert!(!ok, "missing docs must fail:\n{out}");
    assert!(
        out.contains("loopconv check") && out.contains("Passed"),
        "{out}"
    );

    // Generate the pages: everything passes.
    let st = support::loopconv()
        .current_dir(&dir)
        .args(["docs", "loops", "-o", "docs"])
        .output()
        .expect("docs runs");
    assert!(st.status.success(), "{st:?}");
    git(&dir, &["add", "-A"]);
    let (ok, out) = run(&dir, &home);
    assert!(ok, "a fixed loop with current docs must pass:\n{out}");
}

/// The project's hooks on a repository that holds other JSON and YAML (package.json,
/// tsconfig.json with comments, docker-compose.yml, a workflow): the check hook is given
/// every one of them (its `files:` default) and passes, checking only the loops.
#[test]
fn pre_commit_passes_on_a_repository_with_other_json_and_yaml() {
    if support::skip_without_tool(have_pre_commit(), "pre-commit") {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (dir, home) = (tmp.path().join("repo"), tmp.path().join("home"));
    std::fs::create_dir_all(&dir).expect("mkdir");
    git(&dir, &["init", "-q"]);
    super::daily::real_looking_repository(&dir);
    let config = local_config(&[("loopconv-docs", "loops -o docs")]);
    std::fs::write(dir.join(".pre-commit-config.yaml"), config).expect("write");
    let st = support::loopconv()
        .current_dir(&dir)
        .args(["docs", "loops", "-o", "docs"])
        .output()
        .expect("docs runs");
    assert!(st.status.success(), "{st:?}");
    git(&dir, &["add", "-A"]);
    let (ok, out) = run(&dir, &home);
    assert!(ok, "the hooks must pass on a repository root:\n{out}");
    assert!(!out.contains("P011") && !out.contains("P001"), "{out}");
}
