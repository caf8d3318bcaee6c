//! Daily use: the configuration file (found as ruff finds its own, validated with located
//! diagnostics), and a repository root that checks clean (files of no known kind, found by
//! a folder search or named under `--skip-unknown`, are skipped with a note).

use std::path::Path;

use predicates::prelude::*;

use crate::support::{loopconv, read, repo};

/// A MAS loop with a port `schema` (F015).
const F015_LOOP: &str = "examples/mas/veal-release-gate.yaml";

fn with_loop(dir: &Path) {
    std::fs::write(dir.join("gate.yaml"), read(&repo().join(F015_LOOP))).expect("write");
}

#[test]
fn ignore_in_pyproject_silences_f015_for_check_graph_and_docs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    with_loop(dir);
    // Without a configuration: F015 in every command that reads the loop.
    loopconv()
        .current_dir(dir)
        .args(["check", "gate.yaml"])
        .assert()
        .success()
        .stderr(predicate::str::contains("warning[F015]"));
    std::fs::write(
        dir.join("pyproject.toml"),
        "[project]\nname = \"x\"\n\n[tool.loopconv]\nignore = [\"F015\"]\n",
    )
    .expect("write");
    let no_f015 = || predicate::str::contains("F015").not();
    loopconv()
        .current_dir(dir)
        .args(["check", "gate.yaml"])
        .assert()
        .success()
        .stderr(no_f015().and(predicate::str::contains("0 warnings")));
    loopconv()
        .current_dir(dir)
        .args(["graph", "gate.yaml", "--dot"])
        .assert()
        .success()
        .stderr(no_f015());
    loopconv()
        .current_dir(dir)
        .args(["docs", "gate.yaml", "-o", "site"])
        .assert()
        .success()
        .stderr(no_f015());
    // From a folder below, the nearest configuration above is found.
    std::fs::create_dir(dir.join("sub")).expect("mkdir");
    with_loop(&dir.join("sub"));
    loopconv()
        .current_dir(dir.join("sub"))
        .args(["check", "gate.yaml"])
        .assert()
        .success()
        .stderr(no_f015());
    // --isolated reads none.
    loopconv()
        .current_dir(dir)
        .args(["check", "--isolated", "gate.yaml"])
        .assert()
        .success()
        .stderr(predicate::str::contains("warning[F015]"));
    // The flag alone does the same.
    loopconv()
        .current_dir(dir)
        .args([
            "check",
            "--isolated",
            "--ignore",
            "yaml-port-schema",
            "gate.yaml",
        ])
        .assert()
        .success()
        .stderr(no_f015());
}

#[test]
fn ignoring_an_error_is_an_error_of_its_own_and_mistakes_are_located() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    with_loop(dir);
    std::fs::write(
        dir.join("loopconv.toml"),
        "ignor = [\"F015\"]\nignore = [\"V012\"]\nstrict = 1\n",
    )
    .expect("write");
    let out = loopconv()
        .current_dir(dir)
        .args(["check", "gate.yaml"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    for want in [
        "error[C002]: unknown key `ignor`",
        "loopconv.toml:1:1",
        "did you mean `ignore`?",
        "error[C005]",
        "loopconv.toml:2:11",
        "cannot be silenced",
        "error[C003]",
        "loopconv.toml:3:10",
    ] {
        assert!(err.contains(want), "{want:?} not in:\n{err}");
    }
    // The flag is refused the same way.
    loopconv()
        .current_dir(dir)
        .args(["check", "--isolated", "--ignore", "V012", "gate.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be silenced"));
    loopconv()
        .args(["explain", "C005"])
        .assert()
        .success()
        .stdout(predicate::str::contains("errors cannot be silenced"));
}

#[test]
fn settings_of_the_file_are_defaults_that_flags_override() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    with_loop(dir);
    std::fs::write(
        dir.join(".loopconv.toml"),
        "strict = true\nformat = \"json\"\n",
    )
    .expect("write");
    // strict: the F015 warning is an error; format: JSON on stdout.
    let out = loopconv()
        .current_dir(dir)
        .args(["check", "gate.yaml"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v[0]["code"], "F015");
    assert_eq!(v[0]["severity"], "error");
    // --format human wins over the file's json.
    loopconv()
        .current_dir(dir)
        .args([
            "check",
            "--format",
            "human",
            "--ignore",
            "F015",
            "gate.yaml",
        ])
        .assert()
        .success()
        .stdout(predicate::str::is_empty());
    // per-file-ignores and include/exclude, relative to the file's folder.
    std::fs::create_dir(dir.join("vendor")).expect("mkdir");
    std::fs::write(dir.join("vendor/broken.json"), "{").expect("write");
    std::fs::write(
        dir.join(".loopconv.toml"),
        "exclude = [\"vendor\"]\n[per-file-ignores]\n\"gate.*\" = [\"F015\"]\n",
    )
    .expect("write");
    loopconv()
        .current_dir(dir)
        .args(["check", "."])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "checked 1 file: 0 with errors, 0 errors, 0 warnings",
        ));
}

/// A repository as users have them: loops beside package.json, a tsconfig.json with
/// comments, docker-compose.yml and a workflow.
pub(crate) fn real_looking_repository(dir: &Path) {
    for d in ["loops", ".github/workflows"] {
        std::fs::create_dir_all(dir.join(d)).expect("mkdir");
    }
    for f in ["agentpm/react-loop.json", "mas/real-docs-refresh.yaml"] {
        let name = Path::new(f).file_name().expect("name");
        std::fs::write(
            dir.join("loops").join(name),
            read(&repo().join("examples").join(f)),
        )
        .expect("write");
    }
    let files = [
        (
            "package.json",
            "{\n  \"name\": \"app\",\n  \"version\": \"1.0.0\",\n  \"scripts\": {\"test\": \"jest\"}\n}\n",
        ),
        (
            "tsconfig.json",
            "{\n  // Compiler settings\n  \"compilerOptions\": {\n    \"strict\": true, /* all */\n    \"target\": \"es2022\",\n  },\n}\n",
        ),
        (
            "docker-compose.yml",
            "services:\n  web:\n    image: nginx\n    ports: [\"8080:80\"]\n",
        ),
        (
            ".github/workflows/ci.yml",
            "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write");
    }
}

#[test]
fn a_repository_root_checks_clean() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    real_looking_repository(dir);
    let out = loopconv()
        .current_dir(dir)
        .args(["check", "."])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("checked 2 files: 0 with errors"), "{err}");
    for f in ["package.json", "tsconfig.json", "docker-compose.yml"] {
        assert!(err.contains(&format!("note: skipped ./{f}")), "{f}: {err}");
    }
    // A file named on the command line is still an error, unless --skip-unknown.
    for f in ["package.json", "tsconfig.json", ".github/workflows/ci.yml"] {
        loopconv()
            .current_dir(dir)
            .args(["check", f])
            .assert()
            .code(1);
        loopconv()
            .current_dir(dir)
            .args(["check", "--skip-unknown", f, "loops/react-loop.json"])
            .assert()
            .success()
            .stderr(predicate::str::contains(format!("note: skipped {f}")));
    }
    // P011's help says what works where it runs.
    loopconv()
        .current_dir(dir)
        .args(["check", "package.json"])
        .assert()
        .stderr(predicate::str::contains("--skip-unknown"));
    // A loop with a syntax error is still a loop: a comment in one is reported.
    std::fs::write(
        dir.join("loops/bad.json"),
        "{\n  // no comments in JSON\n  \"loop\": {}\n}\n",
    )
    .expect("write");
    loopconv()
        .current_dir(dir)
        .args(["check", "."])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("bad.json"));
}
