//! `loopconv diff`: breaking and compatible changes, each kind of graph change, renames, MAS
//! ports and roles, and diffs across formats.

use crate::support::*;
use loopconv::scaffold::{Archetype, scaffold};
use serde_json::{Value, json};

pub(crate) fn react() -> Value {
    serde_json::from_str(&scaffold(Archetype::React, "react-demo").unwrap()).unwrap()
}

pub(crate) fn veal() -> String {
    scaffold(Archetype::Veal, "veal-demo").unwrap()
}

/// Run `loopconv diff` in a folder holding `old` and `new`, with extra arguments.
pub(crate) fn diff_in(old: (&str, &str), new: (&str, &str), args: &[&str]) -> (i32, String) {
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

pub(crate) fn diff_json(old: &Value, new: &Value, args: &[&str]) -> (i32, String) {
    let (o, n) = (old.to_string(), new.to_string());
    diff_in(("old.json", &o), ("new.json", &n), args)
}

/// Remove an outcome and its transition from a phase.
pub(crate) fn drop_outcome(v: &mut Value, phase: &str, outcome: &str) {
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

fn react_example() -> Value {
    serde_json::from_slice(&read(&examples().join("agentpm/react-loop.json"))).unwrap()
}

/// The loop with phases renamed: their ids and every id-valued reference (entry,
/// transitions, checkpoints), not outcome ids or text.
fn rename_phases(v: &Value, renames: &[(&str, &str)]) -> Value {
    let mut v = v.clone();
    let lp = &mut v["loop"];
    for &(from, to) in renames {
        let re = |x: &mut Value| {
            if *x == from {
                *x = json!(to);
            }
        };
        re(&mut lp["entry_phase"]);
        for p in lp["phases"].as_array_mut().unwrap() {
            re(&mut p["id"]);
        }
        for t in lp["transitions"].as_array_mut().unwrap() {
            re(&mut t["from"]);
            re(&mut t["to"]);
        }
        for c in lp["checkpoints"].as_array_mut().into_iter().flatten() {
            re(&mut c["before_phase"]);
            re(&mut c["on_reject"]);
        }
    }
    v
}

/// A phase with a transition to itself is renamed with it: the self-loop is the same edge
/// under the new name.
#[test]
fn diff_detects_a_rename_of_a_phase_with_a_self_loop() {
    let old = react_example();
    let has_self_loop = old["loop"]["transitions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["from"] == "reason" && t["to"] == "reason");
    assert!(has_self_loop, "the example must keep its self-loop");
    let new = rename_phases(&old, &[("reason", "think")]);
    let (code, out) = diff_json(&old, &new, &["--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["renames"], json!({"reason": "think"}), "{out}");
    assert_eq!(v["changes"].as_array().unwrap().len(), 1, "{out}");
}

/// Two phases renamed at once, each paired with the added id that has its edges; the
/// checkpoints that name them follow the renames, so they are no change.
#[test]
fn diff_pairs_several_renames_by_their_edges() {
    let old: Value =
        serde_json::from_slice(&read(&examples().join("agentpm/incident-response.json"))).unwrap();
    let new = rename_phases(&old, &[("mitigate", "fix"), ("close", "resolve")]);
    let (code, out) = diff_json(&old, &new, &["--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["renames"],
        json!({"close": "resolve", "mitigate": "fix"}),
        "{out}"
    );
    let kinds: Vec<&Value> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["kind"])
        .collect();
    assert_eq!(kinds, ["renamed", "renamed"], "{out}");
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

/// Issue 18, item 3: a MAS loop and the same loop with its defaults written out
/// (`max_attempts: 3`, `escalation: human`, a check's `required: true`) are the same loop,
/// both ways, and `--fail-on breaking` passes.
#[test]
fn diff_of_defaults_written_out_is_no_change() {
    let bare = "name: qa-fix\ntype: VEAL\nvalidator: qa\nactor: code-fixer\nchecks:\n  - id: build\n    type: command\n    command: go build ./...\n";
    let spelled = "name: qa-fix\ntype: VEAL\nvalidator: qa\nactor: code-fixer\nmax_attempts: 3\nescalation: human\nchecks:\n  - id: build\n    type: command\n    command: go build ./...\n    required: true\n";
    for (old, new) in [(bare, spelled), (spelled, bare)] {
        let (code, text) = diff_in(
            ("old.yaml", old),
            ("new.yaml", new),
            &["--fail-on", "breaking"],
        );
        assert_eq!(code, 0, "{text}");
        assert_eq!(text, "old.yaml → new.yaml: 0 changes, 0 breaking\n");
    }
}

/// Issue 18, item 3: a MAS loop and its own conversion to AgentPM, and that file and its
/// conversion back, are the same loop: the objectives carry the MAS fields exactly.
#[test]
fn diff_of_a_loop_and_its_own_conversion_is_no_change() {
    let dir = tempfile::tempdir().unwrap();
    let mas = examples().join("mas/veal-release-gate.yaml");
    let json = dir.path().join("gate.json");
    let yaml = dir.path().join("gate.yaml");
    let run = |args: &[&std::ffi::OsStr]| loopconv().args(args).output().unwrap();
    let out = run(&[
        "convert".as_ref(),
        mas.as_os_str(),
        "--to".as_ref(),
        "agentpm".as_ref(),
        "--allow-lossy".as_ref(),
        "-o".as_ref(),
        json.as_os_str(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let out = run(&[
        "convert".as_ref(),
        json.as_os_str(),
        "--to".as_ref(),
        "mas".as_ref(),
        "-o".as_ref(),
        yaml.as_os_str(),
    ]);
    assert!(out.status.success(), "the way back is lossless: {out:?}");
    for (a, b) in [(&mas, &json), (&json, &yaml), (&mas, &yaml)] {
        let out = run(&[
            "diff".as_ref(),
            a.as_os_str(),
            b.as_os_str(),
            "--fail-on".as_ref(),
            "breaking".as_ref(),
        ]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{text}");
        assert!(text.ends_with(": 0 changes, 0 breaking\n"), "{text}");
    }
}

/// A loop converted from MAS, then with its `limits` removed: its runs are bounded by the
/// runtime's ceiling (100 steps), not by the 3 attempts a MAS loop without `max_attempts`
/// has. `diff` against the MAS loop says the limit changed (it said "0 changes"), and the
/// conversion back to MAS reports it (`B002`) instead of writing the default silently.
#[test]
fn a_graph_without_max_steps_is_not_the_mas_default_of_three_attempts() {
    let dir = tempfile::tempdir().unwrap();
    let mas = dir.path().join("gate.yaml");
    std::fs::write(&mas, veal()).unwrap();
    let json = dir.path().join("gate.json");
    loopconv()
        .args(["convert", "--to", "agentpm", "--allow-lossy", "-o"])
        .arg(&json)
        .arg(&mas)
        .assert()
        .success();
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    v["loop"].as_object_mut().unwrap().remove("limits");
    std::fs::write(&json, v.to_string()).unwrap();
    let diff = |a: &std::path::Path, b: &std::path::Path| {
        let out = loopconv().arg("diff").arg(a).arg(b).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let text = diff(&json, &mas);
    assert!(
        text.contains("1 change, 1 breaking")
            && text.contains("breaking   added limit `max_attempts`: 3"),
        "{text}"
    );
    let text = diff(&mas, &json);
    assert!(
        text.contains("compatible removed limit `max_attempts`: was 3"),
        "{text}"
    );
    let out = loopconv()
        .args(["convert", "--to", "mas"])
        .arg(&json)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error[B002]: the loop has no `max_steps`")
            && err.contains("the MAS loop gets the default `max_attempts`, 3 (8 steps)"),
        "{err}"
    );
}

/// The Markdown diff's diagram draws no gates: a checkpoint added (or removed, or
/// re-pointed) marks the phase it guards as changed (before, an added checkpoint left the
/// diagram as if nothing had changed).
#[test]
fn diff_diagram_marks_the_phase_a_new_checkpoint_guards() {
    let mut old = react();
    let loop_ = old["loop"].as_object_mut().unwrap();
    let checkpoints = loop_.remove("checkpoints").unwrap();
    let guarded = checkpoints[0]["before_phase"].as_str().unwrap().to_owned();
    let mut new = old.clone();
    new["loop"]["checkpoints"] = checkpoints;
    let (_, text) = diff_json(&old, &new, &["--format", "markdown"]);
    let node = format!("n_{guarded}");
    let marked = text.lines().any(|l| {
        l.trim_start().starts_with("class ") && l.contains(&node) && l.ends_with(" changed")
    });
    assert!(marked, "{text}");
    // And removing it again.
    let (_, text) = diff_json(&new, &old, &["--format", "markdown"]);
    assert!(text.contains(&format!("class {node} changed")), "{text}");
    // Moved to another phase: both the phase it left and the one it guards now.
    let mut moved = new.clone();
    let other = new["loop"]["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .find(|id| *id != guarded)
        .unwrap();
    moved["loop"]["checkpoints"][0]["before_phase"] = json!(other);
    let (_, text) = diff_json(&new, &moved, &["--format", "markdown"]);
    let class = text
        .lines()
        .find(|l| l.trim_start().starts_with("class ") && l.ends_with(" changed"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        class.contains(&node) && class.contains(&format!("n_{other}")),
        "{text}"
    );
}
