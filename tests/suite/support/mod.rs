//! The suite's helpers: the shared test kit's (`testkit/`, the `loopconv-testkit`
//! dev-dependency: inputs, skips, the back ends' variants, the generators) under the names
//! the test modules use (`crate::support::X`), and what runs this suite's `loopconv`
//! binary (its path is known to integration tests only, at compile time).

use std::path::{Path, PathBuf};

// All of the kit's support, so that a test module can name any of it here (some names
// are used by none today).
#[allow(unused_imports, reason = "the kit's whole support, used or not")]
pub use loopconv_testkit::support::{
    ROOT, Written, all_inputs, bless, corpus, doc_tree, documentation_files, examples,
    file_is_current, files_under, generators, ir_json, is_loop_file, load_file, load_file_as,
    loop_files, lossy_options, read, region_is_current, rel, repo, scaffold_ext, shared,
    shared_path, skip, skip_without_tool, stderr, stdout_json, variants, write_every_target,
};

/// The `loopconv` binary, run in the crate root without colour.
pub fn loopconv() -> assert_cmd::Command {
    assert_cmd::Command::from_std(loopconv_process())
}

/// The same as a plain [`std::process::Command`], for tests that spawn, pipe or kill it.
pub fn loopconv_process() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_loopconv"));
    c.current_dir(ROOT).env("NO_COLOR", "1");
    c
}

/// Write every scaffold into `dir` with `loopconv new`; their paths.
pub fn new_scaffolds(dir: &Path) -> Vec<(loopconv::scaffold::Archetype, PathBuf)> {
    loopconv::scaffold::Archetype::ALL
        .iter()
        .map(|a| {
            let f = dir.join(format!("{}.{}", a.name(), scaffold_ext(*a)));
            loopconv()
                .args(["new", "--archetype", a.name(), "--name"])
                .arg(format!("{}-demo", a.name()))
                .arg("-o")
                .arg(&f)
                .assert()
                .success();
            (*a, f)
        })
        .collect()
}
