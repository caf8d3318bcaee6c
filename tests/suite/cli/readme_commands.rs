//! Every command example in the README, ARCHITECTURE.md and the guide (`docs/src/*.md`)
//! runs as written (issue 8, issue 21): each line of a ```sh block that starts with
//! `loopconv ` (or pipes into it) is run with bash, in order, one file at a time, each in
//! its own copy of the repository's `examples/` and `templates/`, with the built binary
//! first on `PATH`. A line whose comment says "exits N" must exit N; every other line must exit 0.
//! A line that needs Graphviz's `dot` (a pipe into it, `--svg`) is skipped when Graphviz is
//! not installed.

use crate::support;

use std::path::Path;
use std::process::Command;

/// The runnable command lines of one Markdown file, in order.
fn commands_of(file: &Path) -> Vec<String> {
    let readme = std::fs::read_to_string(file).expect("a documentation file");
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = !in_sh && line == "```sh";
            continue;
        }
        let runnable = line.starts_with("loopconv ") || line.contains("| loopconv ");
        if in_sh && runnable {
            out.push(line.to_owned());
        }
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    for f in support::files_under(from) {
        let dest = to.join(f.strip_prefix(from).expect("under"));
        std::fs::create_dir_all(dest.parent().expect("parent")).expect("mkdir");
        std::fs::copy(&f, &dest).expect("copy");
    }
    // `files_under` lists hidden files too (`examples/.ignore`), so the copy walks alike.
}

fn expected_code(line: &str) -> i32 {
    line.split_once("exits ")
        .and_then(|(_, rest)| rest.chars().next())
        .and_then(|c| c.to_digit(10))
        .map_or(0, |d| i32::try_from(d).unwrap_or(0))
}

fn has_dot() -> bool {
    Command::new("dot").arg("-V").output().is_ok()
}

#[test]
fn every_documented_command_runs_as_written() {
    let mut failures = Vec::new();
    let mut total = 0;
    for file in support::documentation_files() {
        let commands = commands_of(&file);
        total += commands.len();
        failures.extend(run_in_a_copy(&commands).into_iter().map(|f| {
            let name = file.strip_prefix(support::repo()).unwrap_or(&file);
            format!("{}: {f}", name.display())
        }));
    }
    assert!(total >= 60, "found only {total} commands");
    assert!(
        failures.is_empty(),
        "documented commands failed:\n{}",
        failures.join("\n")
    );
}

/// The README shows commands the test runs (the quick start's and the main commands').
#[test]
fn the_readme_has_commands_that_run() {
    let commands = commands_of(&support::repo().join("README.md"));
    assert!(commands.len() >= 3, "found only {commands:?}");
    let failures = run_in_a_copy(&commands);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Run `commands` in order in a fresh copy of `examples/` and `templates/`; the failures.
fn run_in_a_copy(commands: &[String]) -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = support::repo();
    copy_tree(&root.join("examples"), &dir.path().join("examples"));
    copy_tree(&root.join("templates"), &dir.path().join("templates"));
    let bin = Path::new(env!("CARGO_BIN_EXE_loopconv"))
        .parent()
        .expect("bin dir");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    for line in commands {
        let needs_dot = line.contains("| dot ") || line.contains("--svg");
        if needs_dot && support::skip_without_tool(has_dot(), "Graphviz (dot)") {
            continue;
        }
        let out = Command::new("bash")
            .args(["-o", "pipefail", "-c", line])
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .output()
            .expect("run bash");
        let want = expected_code(line);
        if out.status.code() != Some(want) {
            failures.push(format!(
                "{line}\n  exit {:?}, wanted {want}\n  {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).trim_end()
            ));
        }
    }
    failures
}
