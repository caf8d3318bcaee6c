//! Daily use: the configuration file (found as ruff finds its own, validated with located
//! diagnostics), and a repository root that checks clean (files of no known kind, found by
//! a folder search or named under `--skip-unknown`, are skipped with a note).

use predicates::prelude::PredicateBooleanExt;
use std::path::Path;

use crate::support::{loopconv, read, repo};
use predicates::prelude::predicate;

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

/// A library with one invalid loop and two loops of one name.
fn library(dir: &Path) {
    std::fs::create_dir_all(dir.join("loops")).expect("mkdir");
    for (from, to) in [
        ("examples/agentpm/react-loop.json", "react-loop.json"),
        ("examples/agentpm/react-loop.json", "react-copy.json"),
        ("examples/agentpm/reflexion.json", "reflexion.json"),
        (
            "examples/invalid/V009-unknown-transition-target.json",
            "broken.json",
        ),
    ] {
        std::fs::write(dir.join("loops").join(to), read(&repo().join(from))).expect("write");
    }
}

#[test]
fn docs_keep_going_writes_every_valid_page_and_lists_the_rest() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    library(dir);
    // Without it, nothing is written.
    loopconv()
        .current_dir(dir)
        .args(["docs", "loops", "-o", "site"])
        .assert()
        .code(1);
    assert!(!dir.join("site").exists());
    let out = loopconv()
        .current_dir(dir)
        .args(["docs", "loops", "-o", "site", "--keep-going"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("left out loops/broken.json: 1 error (first: V009"),
        "{err}"
    );
    assert!(
        err.contains("--page-names file"),
        "the way out of a clash: {err}"
    );
    for page in ["index.md", "react-loop.md", "reflexion.md"] {
        assert!(dir.join("site").join(page).is_file(), "{page}");
    }
    // The way out of the clash: pages named after their files.
    loopconv()
        .current_dir(dir)
        .args([
            "docs",
            "loops",
            "-o",
            "site2",
            "--keep-going",
            "--page-names",
            "file",
        ])
        .assert()
        .code(1);
    for page in ["react-loop.md", "react-copy.md", "reflexion.md"] {
        assert!(dir.join("site2").join(page).is_file(), "{page}");
    }
    assert!(!dir.join("site2/broken.md").exists());
}

#[test]
fn convert_keep_going_writes_every_file_that_converts() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    library(dir);
    let out = loopconv()
        .current_dir(dir)
        .args([
            "convert",
            "loops",
            "--to",
            "ir",
            "-o",
            "out",
            "--keep-going",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("converted 2 of 4 files to ir in out; left out 2:"),
        "{err}"
    );
    assert!(
        err.contains("loops/broken.json: 1 error (first: V009"),
        "{err}"
    );
    assert!(dir.join("out/reflexion.ir.json").is_file());
    assert!(dir.join("out/react-loop.ir.json").is_file());
}

#[test]
fn graph_allow_invalid_draws_the_faults_in_red() {
    let out = loopconv()
        .args([
            "graph",
            "--allow-invalid",
            "--dot",
            "examples/invalid/V009-unknown-transition-target.json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let dot = String::from_utf8_lossy(&out.stdout);
    assert!(dot.contains("x0 [label=\"$human?\""), "{dot}");
    assert!(
        dot.contains("-> x0 [label=\"escalate\", style=dashed, color=\"#dc2626\""),
        "{dot}"
    );
    let out = loopconv()
        .args([
            "graph",
            "--allow-invalid",
            "--dot",
            "examples/invalid/V011-missing-transition.json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let dot = String::from_utf8_lossy(&out.stdout);
    assert!(dot.contains("p1 [color=\"#dc2626\", penwidth=3"), "{dot}");
    // Graphviz draws it.
    let has_dot = std::process::Command::new("dot").arg("-V").output().is_ok();
    if !crate::support::skip_without_tool(has_dot, "Graphviz (dot)") {
        let png = std::process::Command::new("bash")
            .args([
                "-o",
                "pipefail",
                "-c",
                &format!(
                    "{} graph --allow-invalid --dot examples/invalid/V009-unknown-transition-target.json 2>/dev/null | dot -Tpng",
                    env!("CARGO_BIN_EXE_loopconv")
                ),
            ])
            .current_dir(repo())
            .output()
            .expect("runs");
        // The pipeline's status is loopconv's 1; dot wrote a PNG.
        assert!(png.stdout.starts_with(b"\x89PNG"), "{:?}", png.stderr);
    }
    // Without the flag, an invalid loop draws nothing.
    loopconv()
        .args([
            "graph",
            "--dot",
            "examples/invalid/V009-unknown-transition-target.json",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty());
}

/// Every invalid example in every diagram language: drawn or refused, exit 1, no panic.
#[test]
fn graph_allow_invalid_never_panics() {
    for f in crate::support::loop_files(&repo().join("examples/invalid")) {
        for to in ["mermaid", "dot", "plantuml"] {
            let out = loopconv()
                .args(["graph", "--allow-invalid", "--to", to])
                .arg(&f)
                .output()
                .expect("runs");
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{f:?} {to}: {out:?}"
            );
        }
    }
}

#[test]
fn small_things_of_daily_use() {
    // --format dot points at --dot.
    loopconv()
        .args([
            "graph",
            "examples/agentpm/react-loop.json",
            "--format",
            "dot",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("pass `--dot`"));
    // Piped input without `-`.
    loopconv()
        .arg("check")
        .write_stdin("{}")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("loopconv check -"));
    // --format markdown is diff's only.
    loopconv()
        .args([
            "check",
            "--format",
            "markdown",
            "examples/agentpm/react-loop.json",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("diff"));
    // --help names XState and LangGraph.
    loopconv()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("XState").and(predicate::str::contains("LangGraph")));
    // docs says what it leaves out under `invalid`.
    let tmp = tempfile::tempdir().expect("tempdir");
    let lib = tmp.path().join("lib");
    std::fs::create_dir_all(lib.join("invalid")).expect("mkdir");
    let good = read(&repo().join("examples/agentpm/react-loop.json"));
    std::fs::write(lib.join("react-loop.json"), &good).expect("write");
    std::fs::write(lib.join("invalid/bad.json"), "{").expect("write");
    loopconv()
        .arg("docs")
        .arg(&lib)
        .arg("-o")
        .arg(tmp.path().join("site"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "note: left out 1 file under folders named `invalid`",
        ));
    // man writes every page at once.
    let man = tmp.path().join("man");
    loopconv()
        .args(["man", "--dir"])
        .arg(&man)
        .assert()
        .success();
    for page in [
        "loopconv.1",
        "loopconv-check.1",
        "loopconv-graph.1",
        "loopconv-man.1",
    ] {
        let text = std::fs::read_to_string(man.join(page)).expect(page);
        assert!(text.starts_with(".ie") || text.contains(".TH"), "{page}");
    }
}

/// The npm shim names the cause: a platform without a package, or a package npm did not
/// install.
#[test]
fn the_npm_shim_names_the_right_cause() {
    let has_node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok();
    if crate::support::skip_without_tool(has_node, "node") {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let pkg = tmp.path().join("loopconv");
    std::fs::create_dir_all(pkg.join("bin")).expect("mkdir");
    std::fs::copy(
        repo().join("npm/loopconv/bin/loopconv.js"),
        pkg.join("bin/loopconv.js"),
    )
    .expect("copy");
    let manifest =
        String::from_utf8(read(&repo().join("npm/loopconv/package.json"))).expect("utf-8");
    std::fs::write(pkg.join("package.json"), &manifest).expect("write");
    let run = |env: &[(&str, &str)]| {
        let mut c = std::process::Command::new("node");
        c.arg(pkg.join("bin/loopconv.js"))
            .arg("--version")
            .env_remove("LOOPCONV_BINARY");
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c.output().expect("node runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&[]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("is not installed") && err.contains("--omit=optional"),
        "{err}"
    );
    // A platform loopconv ships nothing for.
    let mut v: serde_json::Value = serde_json::from_str(&manifest).expect("JSON");
    v["optionalDependencies"] = serde_json::json!({"@loopconv/cli-aix-ppc64": "0.1.0"});
    std::fs::write(pkg.join("package.json"), v.to_string()).expect("write");
    let (code, err) = run(&[]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("no prebuilt loopconv for this platform"),
        "{err}"
    );
    let (_, err) = run(&[("LOOPCONV_BINARY", "/no/such/loopconv")]);
    assert!(
        err.contains("LOOPCONV_BINARY is /no/such/loopconv, which does not exist"),
        "{err}"
    );
}

/// The configuration's JSON Schema (for editors) accepts the guide's example, which
/// loopconv reads without a problem, and rejects an unknown key, as loopconv does.
#[test]
fn the_configuration_schema_agrees_with_loopconv() {
    let schema: serde_json::Value =
        serde_json::from_slice(&read(&repo().join("schemas/loopconv-config.schema.json")))
            .expect("JSON");
    jsonschema::draft202012::meta::validate(&schema).expect("a valid schema");
    let v = jsonschema::draft202012::new(&schema).expect("compiles");
    let guide = String::from_utf8(read(&repo().join("docs/src/configuration.md"))).expect("utf-8");
    let example = guide
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the guide's example");
    // loopconv reads it.
    let tmp = tempfile::tempdir().expect("tempdir");
    with_loop(tmp.path());
    std::fs::write(tmp.path().join("loopconv.toml"), example).expect("write");
    loopconv()
        .current_dir(tmp.path())
        .args(["check", "--format", "human", "gate.yaml"])
        .assert()
        .success();
    // The schema accepts the same settings (as JSON).
    let instance = serde_json::json!({
        "include": ["loops/**", "*.loop.yaml"],
        "exclude": ["vendor", "examples/hostile/**"],
        "ignore": ["F015"],
        "strict": true,
        "runtime-max-steps": 50,
        "format": "human",
        "color": "auto",
        "skip-unknown": true,
        "per-file-ignores": {"third_party/**": ["F012", "F013"]},
    });
    assert!(v.is_valid(&instance));
    assert!(!v.is_valid(&serde_json::json!({"ignor": ["F015"]})));
    assert!(!v.is_valid(&serde_json::json!({"runtime-max-steps": 0})));
}

/// One rule for an existing output file, said by each `-o` help and kept: generated output
/// (`convert`, `graph`, `schema`) replaces it; `new`, whose output is a source, keeps it
/// unless `--force`.
#[test]
fn generated_outputs_replace_a_file_and_new_keeps_one_each_help_says_which() {
    for (cmd, says) in [
        ("convert", "existing output is replaced"),
        ("graph", "existing file is replaced"),
        ("schema", "existing file is replaced"),
        ("new", "existing file is kept unless `--force`"),
    ] {
        let out = loopconv().args([cmd, "--help"]).output().expect("run");
        let help = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            help.contains(says),
            "`{cmd} --help` does not say {says:?}:\n{help}"
        );
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out.mmd");
    std::fs::write(&out, "old").expect("write");
    let lp = repo().join(F015_LOOP);
    loopconv()
        .args(["graph", "--mermaid", "-o"])
        .arg(&out)
        .arg(&lp)
        .assert()
        .success();
    assert!(
        read(&out).starts_with(b"---\ntitle:"),
        "graph replaced the file"
    );
    let draft = tmp.path().join("draft.json");
    std::fs::write(&draft, "mine").expect("write");
    loopconv()
        .args(["new", "--archetype", "react", "--name", "draft", "-o"])
        .arg(&draft)
        .assert()
        .failure()
        .stderr(predicate::str::contains("--force"));
    assert_eq!(read(&draft), b"mine");
}
