//! `.ci/run` finds the release binary where Cargo puts it (issue 8, item 2): with
//! `CARGO_TARGET_DIR` set, not in `target/`. Its helpers are in `scripts/ci-lib.sh`.

mod common;

use std::process::Command;

fn bash(script: &str, target_dir: Option<&str>) -> (bool, String, String) {
    let mut cmd = Command::new("bash");
    cmd.current_dir(common::repo())
        .arg("-c")
        .arg(format!("source scripts/ci-lib.sh && {script}"));
    match target_dir {
        Some(d) => cmd.env("CARGO_TARGET_DIR", d),
        None => cmd.env_remove("CARGO_TARGET_DIR"),
    };
    let out = cmd.output().expect("run bash");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_binary_is_under_cargo_target_dir() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().to_str().expect("utf-8 path");
    let (ok, out, err) = bash("loopconv_bin", Some(d));
    assert!(ok, "{err}");
    assert_eq!(out.trim(), format!("{d}/release/loopconv"));
}

#[test]
fn a_missing_binary_is_named_clearly() {
    let (ok, _, err) = bash("require_bin /nonexistent/release/loopconv", None);
    assert!(!ok);
    assert!(
        err.contains("no loopconv binary at /nonexistent/release/loopconv"),
        "{err}"
    );
}

#[test]
fn ci_run_uses_the_helper() {
    let run = std::fs::read_to_string(common::repo().join(".ci/run")).expect(".ci/run");
    assert!(run.contains("LOOPCONV=$(loopconv_bin)"), "{run}");
    assert!(!run.contains("target/release/loopconv"), "{run}");
}
