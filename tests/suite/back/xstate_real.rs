//! The XState machines, run by the real libraries (issue 20, item 3): for every valid
//! example (`examples/agentpm`, `examples/mas`, the valid `examples/hostile` loops) and
//! every valid corpus loop, the built binary writes the machine (`convert --to xstate`), the
//! IR, `paths --format json` and a set of `walk --format json` runs, and
//! `scripts/xstate_check.mjs` runs the machine with `xstate` and `@xstate/graph`
//! (`tools/node_modules`, installed by `scripts/install-tools.sh`): `createMachine` accepts
//! it, the started actor is in the entry, its states and texts are the IR's literally, the
//! shortest paths reach the same terminals in as many phase steps as `loopconv paths`, and
//! each walk's script sent to an actor ends as the walk does (the script's header says
//! exactly what is compared). Without node or the packages the tests skip, named (a
//! failure under `LOOPCONV_REQUIRE_TOOLS=1`).
//!
//! The walks: every shortest, covering and failure run of `paths` (failures are the
//! machine's `TOOL_FAILURE` and `PHASE_FAILURE` events), each also with its last checkpoint
//! decision left out (`approval_required`, or a rejection taken elsewhere) and with one
//! phase step fewer allowed (`--runtime-max-steps`: `limit_reached`, the harness's stop),
//! and a run that never ends, which the machine's own step limit ends `limit_reached`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use super::roundtrip::{agentpm_inputs, corpus_files, mas_inputs};
use crate::support::{self, examples, load_file, loop_files, loopconv_process, rel, repo};

/// The most walks replayed per loop (the runs of a large loop are many; its shortest runs
/// come first).
const MAX_WALKS: usize = 24;

/// node, with xstate and @xstate/graph in `tools/node_modules`; or `None`, the skip recorded.
fn node_with_xstate() -> Option<PathBuf> {
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if support::skip_without_tool(node, "node") {
        return None;
    }
    let modules = repo().join("tools/node_modules");
    let packages = ["xstate", "@xstate/graph"]
        .iter()
        .all(|p| modules.join(p).join("package.json").exists());
    if support::skip_without_tool(packages, "tools/node_modules/xstate and @xstate/graph") {
        return None;
    }
    Some(PathBuf::from("node"))
}

/// The valid loops of `examples/hostile`.
fn valid_hostile() -> Vec<PathBuf> {
    let out: Vec<PathBuf> = loop_files(&examples().join("hostile"))
        .into_iter()
        .filter(|p| load_file(p).valid().is_some())
        .collect();
    assert!(!out.is_empty(), "no valid loop in examples/hostile");
    out
}

/// stdout of `loopconv ARGS` (exit codes in `ok`), or a panic with its stderr.
fn run(args: &[&str], ok: &[i32]) -> Vec<u8> {
    let out = loopconv_process()
        .args(args)
        .output()
        .expect("run loopconv");
    let code = out.status.code().unwrap_or(-1);
    assert!(
        ok.contains(&code),
        "loopconv {} exited {code}: {}",
        args.join(" "),
        support::stderr(&out)
    );
    out.stdout
}

/// One script for `walk`: outcomes, decisions (command-line order), extra arguments.
type Script = (Vec<String>, Vec<(String, String)>, Vec<String>);

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string").to_owned())
        .collect()
}

/// The scripts of [the module documentation] from `paths --format json`.
fn scripts(paths: &Value) -> Vec<Script> {
    // The covering runs in full (a run that shares steps with an earlier one spells out
    // only its own).
    let cover = crate::analysis::paths::whole_cover(paths);
    let runs = paths["shortest"]
        .as_array()
        .expect("runs")
        .iter()
        .chain(&cover)
        .chain(paths["failures"].as_array().into_iter().flatten());
    let mut out = Vec::new();
    for r in runs {
        let outcomes = strings(&r["outcomes"]);
        let decisions: Vec<(String, String)> = r["decisions"]
            .as_array()
            .expect("decisions")
            .iter()
            .map(|d| {
                (
                    d[0].as_str().expect("id").into(),
                    d[1].as_str().expect("decision").into(),
                )
            })
            .collect();
        let steps = r["phase_steps"].as_u64().expect("phase_steps");
        out.push((outcomes.clone(), decisions.clone(), Vec::new()));
        if let Some((_, fewer)) = decisions.split_last() {
            out.push((outcomes.clone(), fewer.to_vec(), Vec::new()));
        }
        if steps >= 2 {
            let limit = vec!["--runtime-max-steps".into(), (steps - 1).to_string()];
            out.push((outcomes, decisions, limit));
        }
    }
    let mut unique: Vec<Script> = Vec::new();
    for s in out {
        if !unique.contains(&s) {
            unique.push(s);
        }
    }
    unique.truncate(MAX_WALKS);
    unique
}

/// `{outcomes, decisions, walk}` of one script: `walk`'s JSON as loopconv reports it.
fn walk(file: &str, (outcomes, decisions, extra): &Script) -> Value {
    let joined = outcomes.join(",");
    let mut args = vec!["walk", file, "--outcomes", &joined, "--format", "json"];
    args.extend(extra.iter().map(String::as_str));
    let flags: Vec<String> = decisions.iter().map(|(_, d)| format!("--{d}")).collect();
    for ((id, _), flag) in decisions.iter().zip(&flags) {
        args.extend([flag.as_str(), id.as_str()]);
    }
    let stdout = run(&args, &[0, 3, 4, 5, 6, 7]);
    let walk: Value = serde_json::from_slice(&stdout).expect("walk's JSON");
    json!({"outcomes": outcomes, "decisions": decisions, "walk": walk})
}

/// Convert, analyse and run one loop through `scripts/xstate_check.mjs`; node's message on
/// a difference.
fn check(node: &Path, input: &Path, dir: &Path) -> Result<(), String> {
    let file = rel(input);
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write");
        path
    };
    let machine = write(
        "machine.json",
        &run(&["convert", &file, "--to", "xstate"], &[0]),
    );
    let ir = write("ir.json", &run(&["convert", &file, "--to", "ir"], &[0]));
    let paths_out = run(&["paths", &file, "--format", "json"], &[0]);
    let paths: Value = serde_json::from_slice(&paths_out).expect("paths' JSON");
    let walks: Vec<Value> = scripts(&paths).iter().map(|s| walk(&file, s)).collect();
    assert!(!walks.is_empty(), "{file}: no run to replay");
    let paths = write("paths.json", &paths_out);
    let walks = write("walks.json", &serde_json::to_vec(&walks).expect("json"));
    let out = Command::new(node)
        .arg(repo().join("scripts/xstate_check.mjs"))
        .args([
            "--machine".as_ref(),
            machine.as_os_str(),
            "--ir".as_ref(),
            ir.as_os_str(),
            "--paths".as_ref(),
            paths.as_os_str(),
            "--walks".as_ref(),
            walks.as_os_str(),
        ])
        .current_dir(repo())
        .output()
        .expect("run node");
    if out.status.success() {
        return Ok(());
    }
    Err(format!("{file}: {}", support::stderr(&out).trim_end()))
}

fn check_all(inputs: &[PathBuf]) {
    let Some(node) = node_with_xstate() else {
        return;
    };
    assert!(!inputs.is_empty(), "no loop to check");
    let failures: Vec<String> = inputs
        .iter()
        .filter_map(|input| {
            let dir = tempfile::tempdir().expect("tempdir");
            check(&node, input, dir.path()).err()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn xstate_runs_every_example_machine_as_loopconv_does() {
    let mut inputs: Vec<PathBuf> = [examples().join("agentpm"), examples().join("mas")]
        .iter()
        .flat_map(|d| loop_files(d))
        .collect();
    inputs.extend(valid_hostile());
    check_all(&inputs);
}

#[test]
fn xstate_runs_every_corpus_machine_as_loopconv_does() {
    let corpus: Vec<PathBuf> = agentpm_inputs()
        .into_iter()
        .chain(mas_inputs())
        .filter(|p| !p.starts_with(examples()))
        .collect();
    // `corpus_files` recorded the skip when ../shared is absent.
    if corpus_files("agentpm", "json").is_empty() {
        return;
    }
    check_all(&corpus);
}

/// `--module js` is a module XState imports: its `machine.config` is the JSON machine
/// with the machine's `output` added, its guards and actions implemented (`setup`), for every example (the hostile ones too: U+2028,
/// bidirectional controls and quotes stay the same text); and an actor run to a final
/// state (sending each state's first event) ends with that state's `output` as its own
/// (a machine from JSON ends with none: XState builds the output from the machine's).
#[test]
fn xstate_imports_every_example_module() {
    let Some(node) = node_with_xstate() else {
        return;
    };
    let mut inputs: Vec<PathBuf> = [examples().join("agentpm"), examples().join("mas")]
        .iter()
        .flat_map(|d| loop_files(d))
        .collect();
    inputs.extend(valid_hostile());
    // Inside tools/, so that the module's `import ... from "xstate"` finds tools/node_modules.
    let dir = tempfile::Builder::new()
        .prefix(".module-check-")
        .tempdir_in(repo().join("tools"))
        .expect("tempdir in tools/");
    const CHECK: &str = r#"
const [module, json] = process.argv.slice(1);
const { machine } = await import(module);
const { createActor } = await import("xstate");
const assert = await import("node:assert");
const expected = JSON.parse((await import("node:fs")).readFileSync(json, "utf8"));
// `setup()` adds `schemas` (undefined without types) beside the config.
const { output, schemas, ...config } = machine.config;
assert.deepStrictEqual(config, expected);
assert.strictEqual(schemas, undefined);
assert.strictEqual(typeof output, "function");
const actor = createActor(machine).start();
for (let i = 0; i < 200 && actor.getSnapshot().status !== "done"; i++) {
  const state = expected.states[actor.getSnapshot().value];
  actor.send({ type: Object.keys(state.on ?? {})[0] });
}
const end = actor.getSnapshot();
if (end.status === "done") {
  assert.deepStrictEqual(end.output, expected.states[end.value].output);
  console.log("done");
}
"#;
    let mut ended = 0;
    for input in &inputs {
        let file = rel(input);
        let module = dir.path().join("machine.mjs");
        let json = dir.path().join("machine.json");
        let code = run(
            &["convert", &file, "--to", "xstate", "--module", "js"],
            &[0],
        );
        std::fs::write(&module, code).expect("write the module");
        std::fs::write(&json, run(&["convert", &file, "--to", "xstate"], &[0])).expect("write");
        // Run there too: the check's own `import("xstate")` resolves from the folder.
        let out = Command::new(&node)
            .current_dir(dir.path())
            .args(["--input-type=module", "-e", CHECK])
            .arg(&module)
            .arg(&json)
            .output()
            .expect("run node");
        assert!(out.status.success(), "{file}: {}", support::stderr(&out));
        ended += usize::from(String::from_utf8_lossy(&out.stdout).contains("done"));
    }
    assert!(ended > 0, "no example's first events reach a final state");
}

/// `--module js` keeps a `__proto__` key (here in a port's `schema`, which passes any JSON
/// through): the module's object literal writes it as a computed key, so the module's
/// config is the JSON machine's, key for key.
#[test]
fn the_module_keeps_proto_keys() {
    let Some(node) = node_with_xstate() else {
        return;
    };
    let dir = tempfile::Builder::new()
        .prefix(".module-proto-")
        .tempdir_in(repo().join("tools"))
        .expect("tempdir in tools/");
    let file = dir.path().join("proto.yaml");
    std::fs::write(
        &file,
        "name: proto\ntype: VEAL\ndescription: Proto.\nvalidator: checker\nactor: fixer\nsuccess_criteria: Every check passes.\noutputs:\n  - name: report\n    type: object\n    schema:\n      type: object\n      properties:\n        __proto__:\n          type: boolean\nchecks:\n  - id: tests\n    description: The test suite passes.\n    type: command\n    command: cargo test\n",
    )
    .expect("write");
    let file = file.to_string_lossy().into_owned();
    let module = dir.path().join("machine.mjs");
    let json = dir.path().join("machine.json");
    let code = run(
        &["convert", &file, "--to", "xstate", "--module", "js"],
        &[0],
    );
    assert!(String::from_utf8_lossy(&code).contains(r#"["__proto__"]: {"#));
    std::fs::write(&module, code).expect("write the module");
    std::fs::write(&json, run(&["convert", &file, "--to", "xstate"], &[0])).expect("write");
    const CHECK: &str = r#"
const [module, json] = process.argv.slice(1);
const { machine } = await import(module);
const assert = await import("node:assert");
const expected = JSON.parse((await import("node:fs")).readFileSync(json, "utf8"));
const properties = machine.config.meta.goal.outputs[0].schema.properties;
assert.ok(Object.hasOwn(properties, "__proto__"), "the key is kept");
assert.deepStrictEqual(properties["__proto__"], { type: "boolean" });
assert.strictEqual(JSON.stringify(machine.config.meta), JSON.stringify(expected.meta));
console.log("kept");
"#;
    let out = Command::new(&node)
        .current_dir(dir.path())
        .args(["--input-type=module", "-e", CHECK])
        .arg(&module)
        .arg(&json)
        .output()
        .expect("run node");
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("kept"));
}
