//! `loopconv diff`: breaking and compatible changes, each kind of graph change, renames, MAS
//! ports and roles, and diffs across formats.

use crate::support::{
    examples, load_file, loop_files, loopconv, lossy_options, read, stderr, stdout_json,
};
use loopconv::Format;
use loopconv::scaffold::{Archetype, scaffold};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

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
/// re-pointed) marks the phase it guards as changed.
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

/// The changes of one loop made one at a time: each check's command, pattern or file,
/// type, `required`, description and expected text, the check removed, a required and an
/// optional check added, `max_attempts` one up and one down, and every other escalation
/// (with a fallback agent for `fallback`).
fn check_limit_and_escalation_changes(
    spec: &loopconv::ir::Spec,
) -> Vec<(String, loopconv::ir::Spec)> {
    use loopconv::ir::{Check, CheckType, Escalation};
    let mut out = Vec::new();
    let mut push = |what: String, f: &dyn Fn(&mut loopconv::ir::Spec)| {
        let mut s = spec.clone();
        f(&mut s);
        // The graph and `max_steps` of a MAS loop are written from its fields, as its
        // front end writes them.
        s.graph = loopconv::ir::carried::derive_graph(&s);
        s.bounds.max_steps = Some(loopconv::ir::max_steps_for(s.effective_max_attempts()));
        out.push((what, s));
    };
    let checks = spec.goal.checks.clone().unwrap_or_default();
    for (i, c) in checks.iter().enumerate() {
        let edit = |f: fn(&mut Check)| {
            move |s: &mut loopconv::ir::Spec| f(&mut s.goal.checks.as_mut().unwrap()[i])
        };
        let id = &c.id;
        match c.kind {
            Some(CheckType::Command) => push(
                format!("{id}-command"),
                &edit(|c| c.command = c.command.as_ref().map(|x| format!("{x} --verbose"))),
            ),
            Some(CheckType::Pattern) => push(
                format!("{id}-pattern"),
                &edit(|c| c.pattern = c.pattern.as_ref().map(|x| format!("{x}|XXX"))),
            ),
            Some(CheckType::File) => push(
                format!("{id}-file"),
                &edit(|c| c.file = Some("OTHER.md".to_owned())),
            ),
            _ => {}
        }
        push(
            format!("{id}-required"),
            &edit(|c| c.required = Some(!c.required.unwrap_or(true))),
        );
        push(
            format!("{id}-type"),
            &edit(|c| {
                c.kind = Some(match c.kind {
                    Some(CheckType::Manual) => CheckType::Command,
                    _ => CheckType::Manual,
                })
            }),
        );
        push(
            format!("{id}-description"),
            &edit(|c| c.description = Some("A reworded description.".to_owned())),
        );
        push(
            format!("{id}-expected"),
            &edit(|c| c.expected = Some("Something else.".to_owned())),
        );
        push(format!("{id}-removed"), &|s| {
            s.goal.checks.as_mut().unwrap().remove(i);
        });
    }
    for required in [None, Some(false)] {
        push(format!("added-{required:?}"), &move |s| {
            s.goal.checks.get_or_insert_with(Vec::new).push(Check {
                id: "added-check".to_owned(),
                kind: Some(CheckType::Command),
                command: Some("make check".to_owned()),
                required,
                ..Check::default()
            });
        });
    }
    let attempts = spec.effective_max_attempts();
    push("attempts-up".to_owned(), &move |s| {
        s.bounds.max_attempts = Some(attempts + 1)
    });
    if attempts > 1 {
        push("attempts-down".to_owned(), &move |s| {
            s.bounds.max_attempts = Some(attempts - 1)
        });
    }
    let escalation = spec.effective_escalation();
    for e in [
        Escalation::Human,
        Escalation::Abort,
        Escalation::Continue,
        Escalation::Fallback,
    ] {
        if e != escalation {
            push(format!("escalation-{}", e.as_str()), &move |s| {
                s.bounds.escalation = Some(e);
                if e == Escalation::Fallback && s.roles.fallback_agent.is_none() {
                    s.roles.fallback_agent = Some("fallback-bot".to_owned());
                }
            });
        }
    }
    out
}

/// Every check, limit and escalation change of the multi-agent-spec examples, written as multi-agent-spec
/// and as its AgentPM, XState and IR conversions: `diff --fail-on breaking` exits the same on the four pairs
/// and lists the same changes (kind, element, id, values, impact, reason), each edit one entry.
#[test]
fn a_change_gets_one_verdict_in_every_format() {
    use loopconv::ir::Spec;
    use loopconv::{Target, pipeline};
    let dir = tempfile::tempdir().unwrap();
    // Every loop format, MAS first.
    let formats = [
        (Format::Mas, "yaml"),
        (Format::Agentpm, "agentpm.json"),
        (Format::Xstate, "xstate.json"),
        (Format::Ir, "ir.json"),
    ];
    let write = |name: &str, spec: &Spec| -> [PathBuf; 4] {
        let mut diags = loopconv::diag::Diagnostics::new(name);
        let info = loopconv::valid::validate(spec, &mut diags);
        formats.map(|(format, ext)| {
            let text = pipeline::write(
                Target::Loop(format),
                spec,
                &info,
                &lossy_options(),
                &mut diags,
            )
            .unwrap();
            assert!(!diags.has_errors(), "{name}: {:?}", diags.items());
            let path = dir.path().join(format!("{name}.{ext}"));
            std::fs::write(&path, text).unwrap();
            path
        })
    };
    let diff = |old: &Path, new: &Path| {
        let out = loopconv()
            .arg("diff")
            .arg(old)
            .arg(new)
            .args(["--fail-on", "breaking", "--format", "json"])
            .output()
            .unwrap();
        let v = stdout_json(&out);
        let changes: Vec<Value> = (v["changes"].as_array().unwrap().iter())
            .map(|c| {
                let c = c.as_object().unwrap();
                json!([
                    c["kind"],
                    c["element"],
                    c["id"],
                    c.get("old"),
                    c.get("new"),
                    c["impact"],
                    c["reason"]
                ])
            })
            .collect();
        (out.status.code(), v["breaking"].clone(), changes)
    };
    let mut pairs = 0;
    for f in loop_files(&examples().join("mas")) {
        let l = load_file(&f);
        let Some((spec, _)) = l.valid() else {
            continue;
        };
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let old = write(&format!("{stem}-old"), spec);
        for (what, changed) in check_limit_and_escalation_changes(spec) {
            let new = write(&format!("{stem}-{what}"), &changed);
            let mas = diff(&old[0], &new[0]);
            for (i, (format, _)) in formats.iter().enumerate().skip(1) {
                let other = diff(&old[i], &new[i]);
                assert_eq!(
                    mas, other,
                    "{stem}: {what}: MAS (left) and {format:?} (right)"
                );
            }
            assert!(!mas.2.is_empty(), "{stem}: {what}: no change found");
            assert!(
                mas.2.len() == 1,
                "{stem}: {what}: one edit, one entry: {:?}",
                mas.2
            );
            pairs += 1;
        }
    }
    assert!(pairs > 40, "only {pairs} pairs");
}

/// Two checkpoints before one phase in the other order are one change of that phase's
/// chain (the runtime evaluates them in order): breaking when their rejections lead to
/// different places, compatible when to the same one.
#[test]
fn a_reordered_checkpoint_chain_is_a_change() {
    let mut old = react();
    let second = json!({"id": "security-review", "type": "approval", "before_phase": "act", "on_reject": "$abort"});
    old["loop"]["checkpoints"]
        .as_array_mut()
        .unwrap()
        .push(second);
    let mut new = old.clone();
    new["loop"]["checkpoints"].as_array_mut().unwrap().reverse();
    let (code, text) = diff_json(&old, &new, &["--fail-on", "breaking"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("1 change, 1 breaking")
            && text.contains("breaking   changed checkpoint order `act`: approve-action, security-review → security-review, approve-action (the checkpoints are evaluated in another order, and their rejections lead to different places"),
        "{text}"
    );
    // The same place on rejection: the same runs end the same way.
    for v in [&mut old, &mut new] {
        for c in v["loop"]["checkpoints"].as_array_mut().unwrap() {
            c["on_reject"] = json!("think");
        }
    }
    let (code, text) = diff_json(&old, &new, &["--fail-on", "breaking"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("1 change, 0 breaking")
            && text.contains("compatible changed checkpoint order `act`"),
        "{text}"
    );
}

/// A check made optional is described by what it does to the verdict, an edited field is
/// one entry showing only that field, and a long mission edited near its end shows the
/// edit. Before: "the check runs differently", the whole check as JSON cut before the new
/// value, and a cut that hid the new text.
#[test]
fn an_edit_shows_what_changed_and_what_it_does() {
    // The scaffold's `changelog` check is optional.
    let optional = veal();
    let required = optional.replacen("    required: false\n", "    required: true\n", 1);
    assert_ne!(optional, required, "the scaffold has an optional check");
    let (code, text) = diff_in(
        ("old.yaml", &required),
        ("new.yaml", &optional),
        &["--fail-on", "breaking"],
    );
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(": required true → required false (now optional: its failure no longer makes the evaluation NO-GO"),
        "{text}"
    );
    let (code, text) = diff_in(
        ("old.yaml", &optional),
        ("new.yaml", &required),
        &["--fail-on", "breaking"],
    );
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("(now required: "), "{text}");
    let mut old = react();
    let long = "Decide the next step from the task and what was observed so far, ".repeat(5);
    old["loop"]["phases"][0]["objective"] = json!(format!("{long}then stop."));
    let mut new = old.clone();
    new["loop"]["phases"][0]["objective"] = json!(format!("{long}then ship."));
    let (_, text) = diff_json(&old, &new, &[]);
    assert!(
        text.contains("then stop. → …") && text.contains("then ship. (reworded objective)"),
        "{text}"
    );
}
