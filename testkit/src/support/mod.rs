//! Helpers shared by the integration tests and the benches: where the inputs are, how to
//! search a folder and read a file, and how to run every back end.
//!
//! The suite uses it as `crate::support` (`tests/suite/support/mod.rs` re-exports it and
//! adds what runs the suite's binary: `loopconv()`, `loopconv_process()`,
//! `new_scaffolds`); the throughput bench as `common`.

pub mod doc_tree;
pub mod generators;
pub mod skip;

use std::path::{Path, PathBuf};

use loopconv::Target;
use loopconv::back;
use loopconv::diag::Diagnostics;
use loopconv::ir::Spec;
use loopconv::valid::Info;
use loopconv::{Format, LoadOptions, Loaded};

pub use crate::variants::variants;

/// The crate root: every command runs there, so paths are the ones a user would type
/// (loopconv's folder, the kit's parent: `build.rs`).
pub const ROOT: &str = env!("LOOPCONV_ROOT");

/// The crate root as a path.
pub fn repo() -> &'static Path {
    skip::at_exit();
    Path::new(ROOT)
}

/// `examples/`.
pub fn examples() -> PathBuf {
    repo().join("examples")
}

/// The shared folder beside the repository (`../shared`: the corpus, the seeds, the specs),
/// or the folder `LOOPCONV_SHARED` names (`LOOPCONV_SHARED=/nonexistent` runs the tests as
/// on a checkout without it).
pub fn shared() -> PathBuf {
    std::env::var_os("LOOPCONV_SHARED").map_or_else(|| repo().join("../shared"), PathBuf::from)
}

/// A path under [`shared`] (`corpus/mas/x.yaml`, `seeds/000.txt`), or `None`, the skip
/// recorded (a failure under `LOOPCONV_REQUIRE_TOOLS=1`), when it does not exist.
pub fn shared_path(rel: &str) -> Option<PathBuf> {
    let path = shared().join(rel);
    if path.exists() {
        return Some(path);
    }
    skip::skip(
        "the ../shared checks",
        &format!("{} is absent", shared().display()),
    );
    None
}

/// The shared conformance corpus (`../shared/corpus`), or `None`, the skip recorded, when
/// this checkout does not have it.
pub fn corpus() -> Option<PathBuf> {
    shared_path("corpus")
}

/// Whether a bless mode is on: `LOOPCONV_BLESS=1` exactly (not `0`, not empty).
pub fn bless() -> bool {
    std::env::var("LOOPCONV_BLESS").is_ok_and(|v| v == "1")
}

/// A path as a user would type it in the crate root (`examples/agentpm/x.json`,
/// `../shared/corpus/mas/y.yaml`), with `/` separators; stable in snapshots.
pub fn rel(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Every file under `dir`, recursively, sorted; nothing when `dir` does not exist.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                collect(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    collect(dir, &mut out);
    out.sort();
    out
}

/// Whether a file name is a loop file's: `*.json`, `*.yaml` or `*.yml`.
pub fn is_loop_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "json" | "yaml" | "yml"))
}

/// The loop files (`*.json`, `*.yaml`, `*.yml`) under `dir`, recursively, sorted; not those
/// in a `workspaces` folder, which hold the documents that use loops beside their loops
/// (tested in `cli::workspaces`).
pub fn loop_files(dir: &Path) -> Vec<PathBuf> {
    files_under(dir)
        .into_iter()
        .filter(|p| is_loop_file(p) && !p.components().any(|c| c.as_os_str() == "workspaces"))
        .collect()
}

/// Every loop file of `examples/` and of the corpus (when present), valid or not.
pub fn all_inputs() -> Vec<PathBuf> {
    let mut v = loop_files(&examples());
    v.extend(corpus().map(|d| loop_files(&d)).unwrap_or_default());
    v
}

/// Read a file, panicking with its name when it cannot be read.
pub fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Read a file the way `loopconv check` does (format detected), named by [`rel`].
pub fn load_file(path: &Path) -> Loaded {
    load_file_as(path, None)
}

/// Read a file as `from` (or detected), named by [`rel`].
pub fn load_file_as(path: &Path, from: Option<Format>) -> Loaded {
    let opts = LoadOptions {
        from,
        ..LoadOptions::default()
    };
    loopconv::load(&rel(path), &read(path), &opts)
}

/// `--allow-lossy --actor actor --validator validator`: the flags with which every valid
/// loop converts to every format.
pub fn lossy_options() -> back::Options {
    back::Options {
        allow_lossy: true,
        actor: Some("actor".to_owned()),
        validator: Some("validator".to_owned()),
        ..back::Options::default()
    }
}

/// One back end run with one set of options.
#[derive(Debug)]
pub struct Written {
    /// The back end.
    pub target: Target,
    /// The target and the variant, e.g. `mermaid state`, `dot legend`, `schema mas`.
    pub label: String,
    /// The options it ran with.
    pub opts: back::Options,
    /// What it wrote.
    pub text: Result<String, back::Error>,
    /// What it reported (losses, missing flags, `B004`).
    pub diags: Diagnostics,
}

/// Run every back end (every variant of [`variants`]) on a loop with `base` options;
/// `name` names the diagnostics' file. Nothing is asserted: each caller judges the texts
/// and diagnostics (with [`lossy_options`], every valid loop converts without an error).
pub fn write_every_target(
    name: &str,
    spec: &Spec,
    info: &Info,
    base: &back::Options,
) -> Vec<Written> {
    variants(base)
        .into_iter()
        .map(|(target, label, opts)| {
            let mut diags = Diagnostics::new(name);
            let text = loopconv::write(target, spec, info, &opts, &mut diags);
            Written {
                target,
                label,
                opts,
                text,
                diags,
            }
        })
        .collect()
}

/// Standard output parsed as JSON, panicking with the text when it is not.
pub fn stdout_json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// Standard error as text.
pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The file extension of a scaffold of archetype `a`.
pub fn scaffold_ext(a: loopconv::scaffold::Archetype) -> &'static str {
    match a.format() {
        loopconv::Format::Mas => "yaml",
        loopconv::Format::Agentpm | loopconv::Format::Ir | loopconv::Format::Xstate => "json",
    }
}

/// For a test that needs an installed tool: true (skip, recorded and named at the end of
/// the run) when the tool is missing; under `LOOPCONV_REQUIRE_TOOLS=1` (as `.ci/run` sets,
/// after `scripts/install-tools.sh`), a missing tool fails the test.
pub fn skip_without_tool(available: bool, tool: &str) -> bool {
    skip::without_tool(available, tool)
}

/// Check that the text of `file` (relative to the repository root, e.g.
/// `docs/src/diagnostics.md`) between the line holding `start` and the line starting with
/// `end` is `want` (generated text); with [`bless`], write `want` there instead. `command`
/// is what the failure message tells the reader to run.
pub fn region_is_current(file: &str, start: &str, end: &str, want: &str, command: &str) {
    let path = repo().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let s = text
        .find(start)
        .unwrap_or_else(|| panic!("{file} has no `{start}` marker"));
    let body_start = s + text[s..].find('\n').expect("the marker's line ends") + 1;
    let body_end = body_start
        + text[body_start..]
            .find(end)
            .unwrap_or_else(|| panic!("{file} has no `{end}` marker after `{start}`"));
    if bless() {
        let new = format!("{}{want}{}", &text[..body_start], &text[body_end..]);
        std::fs::write(&path, new).unwrap_or_else(|e| panic!("writing {file}: {e}"));
        return;
    }
    assert_eq!(
        &text[body_start..body_end],
        want,
        "{file} between `{start}` and `{end}` is out of date: run `{command}`"
    );
}

/// Check that the whole of `file` (relative to the repository root) is `want`; with
/// [`bless`], write it (and its folder) instead.
pub fn file_is_current(file: &str, want: &str, command: &str) {
    let path = repo().join(file);
    if bless() {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&path, want).unwrap_or_else(|e| panic!("writing {file}: {e}"));
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(have, want, "{file} is out of date: run `{command}`");
}

/// The Markdown files whose commands and facts the tests keep honest, in reading order:
/// the README, ARCHITECTURE.md and the guide's chapters (`docs/src/*.md`, the generated
/// code pages left out: their commands are checked by `valid::explain`).
pub fn documentation_files() -> Vec<PathBuf> {
    let root = repo();
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root.join("docs/src"))
        .expect("docs/src")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    chapters.sort();
    let mut out = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    out.extend(chapters);
    out
}

/// A value's content as its IR JSON: what two loops must share to be the same loop, wherever
/// each was read from (provenance is not content: `loopconv::ir::same_content`), and a
/// readable diff when they differ.
pub fn ir_json<T: serde::Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).expect("the IR serialises")
}
