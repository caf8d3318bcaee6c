//! Write the benchmark workloads to a folder (used by `scripts/bench.sh`; not a user-facing
//! command): `cargo run --release --example gen-workload -- DIR`. The same bytes every
//! time, except `xstate-10000.json`, which is what this version of loopconv writes.
//!
//! * DIR/corpus/ (10,000 mixed AgentPM and MAS files), DIR/corpus-broken/ (the same kind,
//!   10 % with errors);
//! * DIR/loop-1000.json, DIR/loop-10000.json, DIR/loop-100000.json, and
//!   DIR/loop-10000-changed.json (a few changes, for `diff`);
//! * DIR/shapes/, 10,000 phases each: `warn-10000.json` (`loop-10000.json` without
//!   `$schema`: one `F012` warning), `errors-10000.json` (an error in 1 % of the phases),
//!   `short-10000.json`, `long-10000.json`, `self-loops-10000.json` (the [`Shape`]s),
//!   `xstate-10000.json` (`loop-10000.json` as an XState machine: 10,403 states, so it is
//!   read with `--max-phases 20000`), and `mas-10000.yaml` (a VEAL loop of 10,000 checks,
//!   about the size of `loop-10000.json`) with the same loop as `mas-10000.json`;
//! * DIR/VERSION, written last: the version of this layout (`scripts/bench.sh` regenerates
//!   the folder when it differs).

#[path = "mod.rs"]
mod workload;

use std::path::Path;

use loopconv::diag::Diagnostics;
use loopconv::{Format, Target};
use workload::shapes::{KeyOrder, Layout, Shape, mas_checks, shaped_loop};
use workload::{Faults, agentpm_loop, agentpm_loop_with, changed_loop};

/// The version of the folder's layout: raise it when a file is added or changed.
const VERSION: &str = "2";

fn write(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}

/// `text` (a valid loop) as an XState machine, as `loopconv convert --to xstate` writes it
/// (without the read-back check, which applies the default `--max-phases` to the machine's
/// states).
fn xstate(name: &str, text: &str) -> String {
    let loaded = loopconv::load(name, text.as_bytes(), &Default::default());
    let (spec, info) = loaded.valid().expect("the generated loop is valid");
    let target = Target::Loop(Format::Xstate);
    let mut diags = Diagnostics::new(name);
    let machine = loopconv::back::render(target, spec, info, &Default::default(), &mut diags);
    assert!(!diags.has_errors(), "{name} converts to XState");
    machine.expect("an XState machine")
}

fn main() -> std::io::Result<()> {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: gen-workload DIR");
        std::process::exit(2);
    };
    let dir = Path::new(&dir);
    for (sub, broken, seed) in [("corpus", false, 1), ("corpus-broken", true, 2)] {
        for (name, text) in workload::corpus(10_000, broken, seed) {
            write(&dir.join(sub).join(name), &text)?;
        }
    }
    for n in [1_000, 10_000, 100_000] {
        let text = agentpm_loop(&format!("loop-{n}"), n, 42);
        write(&dir.join(format!("loop-{n}.json")), &text)?;
    }
    let changed = changed_loop("loop-10000", 42);
    write(&dir.join("loop-10000-changed.json"), &changed)?;
    let shapes = dir.join("shapes");
    let faults = |no_schema, error_every| Faults {
        no_schema,
        error_every,
    };
    let warn = agentpm_loop_with("loop-10000", 10_000, 42, faults(true, 0));
    write(&shapes.join("warn-10000.json"), &warn)?;
    let errors = agentpm_loop_with("errors-10000", 10_000, 42, faults(false, 100));
    write(&shapes.join("errors-10000.json"), &errors)?;
    for (name, shape) in [
        ("short", Shape::SHORT),
        ("long", Shape::LONG),
        ("self-loops", Shape::SELF_LOOPS),
    ] {
        let text = shaped_loop(&format!("{name}-10000"), 10_000, 7, &shape);
        write(&shapes.join(format!("{name}-10000.json")), &text)?;
    }
    let machine = xstate("loop-10000.json", &agentpm_loop("loop-10000", 10_000, 42));
    write(&shapes.join("xstate-10000.json"), &machine)?;
    let mas = mas_checks("mas-10000", 10_000, 11);
    write(&shapes.join("mas-10000.yaml"), &mas.to_yaml())?;
    let json = mas.to_json(KeyOrder::Authored, Layout::Spaces(2));
    write(&shapes.join("mas-10000.json"), &json)?;
    write(&dir.join("VERSION"), VERSION)
}
