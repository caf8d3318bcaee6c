//! The authoring and review commands: `new`, `diff`, `paths`, `walk`, `schema --outcomes`.

mod common;

use std::path::Path;

use common::*;
use loopconv::analysis::paths::paths;
use loopconv::analysis::walk::{Script, walk};
use loopconv::scaffold::{Archetype, scaffold};
use serde_json::{Value, json};

fn ext(a: Archetype) -> &'static str {
    match a.format() {
        loopconv::Format::Mas => "yaml",
        _ => "json",
    }
}

/// Write every scaffold into `dir` with `loopconv new`; their paths.
fn new_scaffolds(dir: &Path) -> Vec<(Archetype, std::path::PathBuf)> {
    Archetype::ALL
        .iter()
        .map(|a| {
            let f = dir.join(format!("{}.{}", a.name(), ext(*a)));
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

#[test]
fn every_scaffold_passes_check_strict_and_every_back_end() {
    let dir = tempfile::tempdir().unwrap();
    for (a, f) in new_scaffolds(dir.path()) {
        loopconv()
            .args(["check", "--strict"])
            .arg(&f)
            .assert()
            .success();
        let l = load_file(&f);
        assert!(l.diags.is_empty(), "{}: {:?}", a.name(), l.diags.items());
        let (spec, info) = l.valid().unwrap();
        assert_eq!(spec.name, format!("{}-demo", a.name()));
        for w in write_every_target(a.name(), spec, info, &lossy_options()) {
            assert!(w.text.is_ok(), "{} {}: {:?}", a.name(), w.label, w.text);
            assert!(!w.diags.has_errors(), "{} {}", a.name(), w.label);
        }
        // Every reachable terminal of each scaffold is `$end` or a deliberate stop, and
        // success fits its budget.
        assert!(info.success_fits_budget(), "{}", a.name());
    }
}

#[test]
fn new_converts_only_where_exact() {
    for a in Archetype::ALL {
        let out = loopconv()
            .args(["new", "--archetype", a.name(), "--name", "x", "--to", "ir"])
            .assert()
            .success();
        let ir: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(ir["name"], "x");
    }
    // A ReAct graph is not a REAL/VEAL loop, and a VEAL loop's agents and checks have no
    // place in AgentPM: both refuse, with exit 1 and the reason.
    loopconv()
        .args(["new", "--archetype", "react", "--name", "x", "--to", "mas"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("without losing data"));
    loopconv()
        .args([
            "new",
            "--archetype",
            "veal",
            "--name",
            "x",
            "--to",
            "agentpm",
        ])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("B001"));
}

#[test]
fn new_refuses_bad_names_and_overwrites() {
    loopconv()
        .args(["new", "--archetype", "react", "--name", "Bad Name"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("kebab-case"));
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.json");
    std::fs::write(&f, "keep").unwrap();
    loopconv()
        .args(["new", "--archetype", "react", "--name", "a", "-o"])
        .arg(&f)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--force"));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "keep");
}

fn react() -> Value {
    serde_json::from_str(&scaffold(Archetype::React, "react-demo").unwrap()).unwrap()
}

fn veal() -> String {
    scaffold(Archetype::Veal, "veal-demo").unwrap()
}

/// Run `loopconv diff` in a folder holding `old` and `new`, with extra arguments.
fn diff_in(old: (&str, &str), new: (&str, &str), args: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(old.0), old.1).unwrap();
    std::fs::write(dir.path().join(new.0), new.1).unwrap();
    let out = loopconv()
        .current_dir(dir.path())
        .args(["diff", old.0, new.0])
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap_or(-1), text)
}

fn diff_json(old: &Value, new: &Value, args: &[&str]) -> (i32, String) {
    let (o, n) = (old.to_string(), new.to_string());
    diff_in(("old.json", &o), ("new.json", &n), args)
}

/// Remove an outcome and its transition from a phase.
fn drop_outcome(v: &mut Value, phase: &str, outcome: &str) {
    let phases = v["loop"]["phases"].as_array_mut().unwrap();
    let p = phases.iter_mut().find(|p| p["id"] == phase).unwrap();
    p["outcomes"]
        .as_array_mut()
        .unwrap()
        .retain(|o| o["id"] != outcome);
    v["loop"]["transitions"]
        .as_array_mut()
        .unwrap()
        .retain(|t| !(t["from"] == phase && t["on"] == outcome));
}

#[test]
fn diff_removed_outcome_is_breaking_and_fails() {
    let old = react();
    let mut new = old.clone();
    drop_outcome(&mut new, "observe", "blocked");
    let (code, text) = diff_json(&old, &new, &["--fail-on", "breaking"]);
    assert_eq!(code, 1, "{text}");
    insta::assert_snapshot!("diff_removed_outcome", text);
    // Without --fail-on the diff itself succeeds.
    assert_eq!(diff_json(&old, &new, &[]).0, 0);
}

#[test]
fn diff_description_only_is_compatible() {
    let old = react();
    let mut new = old.clone();
    new["description"] = json!("A reworded description.");
    new["loop"]["phases"][0]["outcomes"][0]["description"] = json!("Reworded outcome text.");
    let (code, text) = diff_json(&old, &new, &["--fail-on", "breaking"]);
    assert_eq!(code, 0, "{text}");
    insta::assert_snapshot!("diff_description_only", text);
}

#[test]
fn diff_each_kind_of_graph_change() {
    let old = react();
    let mut new = old.clone();
    let l = &mut new["loop"];
    l["limits"]["max_steps"] = json!(8);
    l["transitions"][2]["to"] = json!("$abort");
    l["checkpoints"][0]["on_reject"] = json!("$handoff");
    l["phases"][1]["access"]["tools"] = json!(false);
    l["phases"][1]["objective"] = json!("Carry out the chosen action.");
    l["phases"][0]["outcomes"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "clarify", "description": "Ask a person a question."}));
    l["transitions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"from": "think", "on": "clarify", "to": "$handoff"}));
    l["error_policy"]["phase_failure"]["action"] = json!("abort");
    let (code, text) = diff_json(&old, &new, &["--fail-on", "breaking"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("diff_graph_changes", text);
    let (_, json_out) = diff_json(&old, &new, &["--format", "json"]);
    let v: Value = serde_json::from_str(&json_out).unwrap();
    assert_eq!(v["breaking"], 5, "{json_out}");
    insta::assert_snapshot!(
        "diff_graph_changes_markdown",
        diff_json(&old, &new, &["--format", "markdown"]).1
    );
}

#[test]
fn diff_detects_a_rename() {
    let old = react();
    let text = old.to_string().replace("\"observe\"", "\"review\"");
    let new: Value = serde_json::from_str(&text).unwrap();
    let (code, out) = diff_json(&old, &new, &["--format", "json"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["renames"], json!({"observe": "review"}));
    let changes = v["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{out}");
    assert_eq!(changes[0]["kind"], "renamed");
    insta::assert_snapshot!(
        "diff_rename_markdown",
        diff_json(&old, &new, &["--format", "markdown"]).1
    );
}

#[test]
fn diff_mas_checks_ports_and_roles() {
    let old = veal();
    let new = old
        .replace("actor: fixer", "actor: fixer-two")
        .replace("max_attempts: 3", "max_attempts: 5")
        .replace(
            "inputs:\n",
            "inputs:\n  - name: ticket\n    type: string\n    required: true\n",
        )
        .replace(
            "checks:\n",
            "checks:\n  - id: audit\n    type: command\n    command: cargo audit\n",
        )
        .replace(
            "    description: The changelog mentions the change.\n",
            "    description: The changelog names the change.\n",
        );
    let (code, text) = diff_in(
        ("old.yaml", &old),
        ("new.yaml", &new),
        &["--fail-on", "breaking"],
    );
    assert_eq!(code, 1);
    insta::assert_snapshot!("diff_mas", text);
}

#[test]
fn diff_across_formats() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = dir.path().join("gate.yaml");
    std::fs::write(&yaml, veal()).unwrap();
    let json_file = dir.path().join("gate.json");
    loopconv()
        .args(["convert", "--to", "agentpm", "--allow-lossy", "-o"])
        .arg(&json_file)
        .arg(&yaml)
        .assert()
        .success();
    let out = loopconv()
        .current_dir(dir.path())
        .args(["diff", "gate.yaml", "gate.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!("diff_cross_format", String::from_utf8(out.stdout).unwrap());
}

/// Every valid example, corpus file and scaffold, loaded.
fn valid_loops() -> Vec<(String, loopconv::Loaded)> {
    let dir = tempfile::tempdir().unwrap();
    let mut files = all_inputs();
    files.extend(new_scaffolds(dir.path()).into_iter().map(|(_, f)| f));
    files
        .iter()
        .map(|f| (rel(f), load_file(f)))
        .filter(|(_, l)| l.valid().is_some())
        .collect()
}

#[test]
fn paths_cover_every_reachable_transition_and_walk_replays_them() {
    let loops = valid_loops();
    assert!(loops.len() > 10);
    for (name, l) in &loops {
        let (spec, info) = l.valid().unwrap();
        let found = paths(spec, info);
        assert_eq!(found.covered + found.uncovered.len(), found.total, "{name}");
        for u in &found.uncovered {
            assert!(u.reason.contains("reached"), "{name}: {u:?}");
        }
        for run in found.shortest.iter().chain(&found.cover) {
            let script = Script {
                outcomes: run.outcomes.clone(),
                decisions: run.decisions.clone(),
            };
            // The covering runs may exceed `max_steps` (they are about transitions, not
            // budgets); walk them unbounded, and the shortest runs with the bound.
            let mut unbounded = info.clone();
            unbounded.max_steps = None;
            let trace = walk(spec, &unbounded, &script).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(trace.terminal, run.terminal, "{name}");
            assert_eq!(trace.steps, run.steps, "{name}");
        }
    }
}

#[test]
fn paths_cli_text_and_json_and_walk_replays_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let files = new_scaffolds(dir.path());
    for (a, f) in &files {
        let out = loopconv()
            .args(["paths", "--format", "json"])
            .arg(f)
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["covered"], v["total"], "{}", a.name());
        for run in v["cover"].as_array().unwrap() {
            let args: Vec<String> = serde_json::from_value(run["walk_args"].clone()).unwrap();
            loopconv()
                .arg("walk")
                .arg(f)
                .args(&args)
                .assert()
                .success()
                .stdout(predicates::str::contains(format!(
                    "reached {}",
                    run["terminal"].as_str().unwrap()
                )));
        }
    }
    let react = &files[0].1;
    let text = loopconv().arg("paths").arg(react).output().unwrap();
    insta::assert_snapshot!("paths_react", String::from_utf8(text.stdout).unwrap());
}

#[test]
fn walk_refuses_an_invalid_outcome_naming_the_valid_ones() {
    let f = examples().join("agentpm/react-loop.json");
    loopconv()
        .arg("walk")
        .arg(&f)
        .args(["--outcomes", "act,done"])
        .args(["--approve", "approve-next-action"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "`done` is not an outcome of phase `act` (valid outcomes: complete)",
        ));
}

#[test]
fn walk_enforces_checkpoints_terminals_and_limits() {
    let f = examples().join("agentpm/react-loop.json");
    let walk_with = |outcomes: &str, extra: &[&str]| {
        let out = loopconv()
            .arg("walk")
            .arg(&f)
            .args(["--outcomes", outcomes])
            .args(extra)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (code, out) = walk_with("act,complete,complete", &[]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("checkpoint `approve-next-action` needs a decision"),
        "{out}"
    );
    let gate = [
        "--reject",
        "approve-next-action",
        "--approve",
        "approve-next-action",
    ];
    let (code, out) = walk_with("act,act,complete,complete", &gate);
    assert_eq!(code, Some(0), "{out}");
    insta::assert_snapshot!("walk_react", out);
    let (code, out) = walk_with("handoff,act", &[]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("reached `$handoff` with outcomes left over: act"),
        "{out}"
    );
    let many = ["reason-more"; 11].join(",");
    let (code, out) = walk_with(&many, &[]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("step limit reached") && out.contains("`max_steps` is 10"),
        "{out}"
    );
    // MAS: the bound comes from max_attempts.
    let mas = examples().join("mas/veal-release-gate.yaml");
    let run = ["complete,no-go,complete"; 4].join(",");
    let out = loopconv()
        .arg("walk")
        .arg(&mas)
        .args(["--outcomes", &run])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("`max_attempts` is 4"));
}

#[test]
fn outcome_schema_is_a_valid_schema_that_accepts_only_real_results() {
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<_> = new_scaffolds(dir.path())
        .into_iter()
        .map(|(_, f)| f)
        .collect();
    files.push(examples().join("agentpm/react-loop.json"));
    for f in &files {
        let out = loopconv()
            .args(["schema", "--outcomes"])
            .arg(f)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", f.display());
        let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
        jsonschema::draft202012::meta::validate(&schema).unwrap();
        let v = jsonschema::draft202012::new(&schema).unwrap();
        let l = load_file(f);
        let (spec, _) = l.valid().unwrap();
        for p in &spec.graph.phases {
            for o in p.outcome_ids() {
                let ok = json!({"phase": p.id, "outcome": o, "summary": "extra keys are allowed"});
                assert!(v.is_valid(&ok), "{}: {ok}", f.display());
            }
            assert!(!v.is_valid(&json!({"phase": p.id, "outcome": "no-such-outcome"})));
            assert!(!v.is_valid(&json!({"phase": p.id})));
        }
        assert!(!v.is_valid(&json!({"phase": "no-such-phase", "outcome": "complete"})));
    }
    let react = examples().join("agentpm/react-loop.json");
    let out = loopconv()
        .args(["schema", "--outcomes"])
        .arg(&react)
        .output()
        .unwrap();
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    let v = jsonschema::draft202012::new(&schema).unwrap();
    // `act` is an outcome of `reason`, not of `reflect`.
    assert!(v.is_valid(&json!({"phase": "reason", "outcome": "act"})));
    assert!(!v.is_valid(&json!({"phase": "reflect", "outcome": "act"})));
    insta::assert_snapshot!(
        "outcome_schema_react",
        String::from_utf8(out.stdout).unwrap()
    );
    // The format schemas still work.
    loopconv().args(["schema", "mas"]).assert().success();
    loopconv().args(["schema", "nope"]).assert().code(2);
}
