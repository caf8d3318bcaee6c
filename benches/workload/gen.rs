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
//! * DIR/workspace/specs/, a multi-agent-spec workspace: 10,000 VEAL loops
//!   (`loops/loop-N.yaml`), 1,000 teams of 10 loop steps each (`teams/team-N.json`) and
//!   1,000 agent specs (`agents/agent-N.md`), every reference resolving;
//! * DIR/hostile/, the shapes of issue 45 at 1 MB and 10 MB (`NAME-1mb.json`,
//!   `NAME-10mb.json`): `plain` and `plain-changed` (every other transition changed, for
//!   `diff`), `ordinary` (the generator's loop of that size, the rows' reference),
//!   `outcomes` (one phase, as many outcomes as fit), `repeated-keys` (one key
//!   repeated in one object), `long-ids` (transitions to undeclared ids of 1,000
//!   characters), `one-line` (a minified loop of many unknown keys);
//! * DIR/VERSION, written last: the version of this layout (`scripts/bench.sh` regenerates
//!   the folder when it differs).
//!
//! With `--quick`, the same files at a smaller scale (for `QUICK=1 scripts/bench.sh`,
//! which proves the script runs, and measures nothing worth keeping): 500 corpus files,
//! 20,000 phases for the 100,000-phase loop, 500 workspace loops, and the hostile shapes
//! at 64 KB and 256 KB (under the same names).
//!
//! `gen-workload --random SEED [--phases N] DIR` writes instead the loops drawn from one
//! seed (`random.rs`, issue 50), N phases each (default 10,000): DIR/loop.json (the
//! drawn shape, `$schema` and errors as drawn), DIR/warn.json (the same shape without
//! `$schema` and errors: one `F012`), DIR/a.json and DIR/b.json (without errors, and the
//! same with drawn changes, for `diff`), DIR/shape.txt (the drawn parameters), and
//! DIR/VERSION last.

use loopconv_testkit::workload;

use std::path::Path;

use loopconv::diag::Diagnostics;
use loopconv::{Format, Target};
use workload::random::Draw;
use workload::shapes::{KeyOrder, Layout, Shape, mas_checks, shaped_loop};
use workload::{Faults, agentpm_loop, agentpm_loop_with, changed_loop};

/// The version of the folder's layout: raise it when a file is added or changed.
const VERSION: &str = "6";

/// The sizes of the fixed workloads (`--quick`: small ones).
struct Scale {
    corpus: usize,
    largest_loop: usize,
    workspace_loops: usize,
    hostile: [(&'static str, usize); 2],
}

const FULL: Scale = Scale {
    corpus: 10_000,
    largest_loop: 100_000,
    workspace_loops: 10_000,
    hostile: [("1mb", 1 << 20), ("10mb", 10 << 20)],
};

const QUICK: Scale = Scale {
    corpus: 500,
    largest_loop: 20_000,
    workspace_loops: 500,
    hostile: [("1mb", 64 << 10), ("10mb", 256 << 10)],
};

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

const USAGE: &str =
    "usage: gen-workload [--quick] DIR | gen-workload --random SEED [--phases N] DIR";

fn usage() -> ! {
    eprintln!("{USAGE}");
    std::process::exit(2);
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut quick, mut seed, mut phases, mut dir) = (false, None, 10_000, None);
    while let Some(arg) = args.next() {
        let mut number = || {
            args.next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| usage())
        };
        match arg.as_str() {
            "--quick" => quick = true,
            "--random" => seed = Some(number()),
            "--phases" => phases = number() as usize,
            _ if dir.is_none() && !arg.starts_with('-') => dir = Some(arg),
            _ => usage(),
        }
    }
    let Some(dir) = dir else { usage() };
    let dir = Path::new(&dir);
    match seed {
        Some(seed) => random(dir, seed, phases),
        None => fixed(dir, if quick { &QUICK } else { &FULL }),
    }
}

/// The loops drawn from `seed` (see the module's documentation).
fn random(dir: &Path, seed: u64, phases: usize) -> std::io::Result<()> {
    let draw = Draw::new(seed);
    let name = format!("seed-{seed}");
    write(&dir.join("shape.txt"), &format!("{}\n", draw.describe()))?;
    write(&dir.join("loop.json"), &draw.loop_text(&name, phases))?;
    write(
        &dir.join("warn.json"),
        &draw.warn().loop_text(&name, phases),
    )?;
    let valid = draw.valid();
    write(&dir.join("a.json"), &valid.loop_text(&name, phases))?;
    write(&dir.join("b.json"), &valid.changed_text(&name, phases))?;
    write(&dir.join("VERSION"), VERSION)
}

/// The fixed workloads, at `scale`.
fn fixed(dir: &Path, scale: &Scale) -> std::io::Result<()> {
    for (sub, broken, seed) in [("corpus", false, 1), ("corpus-broken", true, 2)] {
        for (name, text) in workload::corpus(scale.corpus, broken, seed) {
            write(&dir.join(sub).join(name), &text)?;
        }
    }
    for (file, n) in [
        (1_000, 1_000),
        (10_000, 10_000),
        (100_000, scale.largest_loop),
    ] {
        let text = agentpm_loop(&format!("loop-{file}"), n, 42);
        write(&dir.join(format!("loop-{file}.json")), &text)?;
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
    workspace(&dir.join("workspace").join("specs"), scale.workspace_loops)?;
    // The hostile shapes of issue 45 at 1 MB and 10 MB, and a plain and an ordinary loop of
    // each size.
    let hostile = dir.join("hostile");
    for (size, bytes) in scale.hostile {
        let files: [(&str, String); 7] = [
            ("plain", workload::hostile::plain(bytes)),
            ("ordinary", workload::hostile::ordinary(bytes)),
            ("plain-changed", workload::hostile::plain_changed(bytes)),
            ("outcomes", workload::hostile::one_phase_outcomes(bytes)),
            ("repeated-keys", workload::hostile::repeated_keys(bytes)),
            ("long-ids", workload::hostile::long_invalid_ids(bytes)),
            ("one-line", workload::hostile::one_line_diagnostics(bytes)),
        ];
        for (name, text) in files {
            write(&hostile.join(format!("{name}-{size}.json")), &text)?;
        }
    }
    write(&dir.join("VERSION"), VERSION)
}

/// A multi-agent-spec workspace of `loops` loops (10,000), a tenth as many teams and as
/// many agents, whose references all resolve: loop `i` is validated by agent
/// `i % agents` and acted on by agent `(i + 1) % agents`; team `t` runs loops `10t` to
/// `10t + 9` in a chain, with agent `t` as its orchestrator.
fn workspace(specs: &Path, loops: usize) -> std::io::Result<()> {
    let (teams, agents) = (loops / 10, loops / 10);
    for a in 0..agents {
        let text = format!(
            "---\nname: agent-{a}\ndescription: Agent {a} of the benchmark workspace.\n---\n\nInstructions for agent {a}: read the task, do it, report.\n"
        );
        write(&specs.join("agents").join(format!("agent-{a}.md")), &text)?;
    }
    for i in 0..loops {
        let text = format!(
            "name: loop-{i}\ntype: VEAL\ndescription: Validate and fix part {i} of the product.\nvalidator: agent-{v}\nactor: agent-{w}\nmax_attempts: 3\nescalation: human\nchecks:\n  - id: build\n    description: The part builds.\n    type: command\n    command: make part-{i}\n    required: true\n  - id: tests\n    description: The part's tests pass.\n    type: command\n    command: make test-{i}\n    required: true\n",
            v = i % agents,
            w = (i + 1) % agents
        );
        write(&specs.join("loops").join(format!("loop-{i}.yaml")), &text)?;
    }
    for t in 0..teams {
        let steps: Vec<String> = (0..10)
            .map(|k| {
                let i = t * 10 + k;
                format!("      {{ \"name\": \"step-{k}\", \"loop\": \"loop-{i}\" }}")
            })
            .collect();
        let roster: Vec<String> = (0..10)
            .map(|k| format!("\"agent-{}\"", (t + k) % agents))
            .collect();
        let text = format!(
            "{{\n  \"name\": \"team-{t}\",\n  \"version\": \"1.0.0\",\n  \"agents\": [{}],\n  \"orchestrator\": \"agent-{t}\",\n  \"workflow\": {{\n    \"type\": \"chain\",\n    \"steps\": [\n{}\n    ]\n  }}\n}}\n",
            roster.join(", "),
            steps.join(",\n")
        );
        write(&specs.join("teams").join(format!("team-{t}.json")), &text)?;
    }
    Ok(())
}
