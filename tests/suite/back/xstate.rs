//! The XState back and front ends: `AgentPM -> XState -> AgentPM` and `MAS -> XState ->
//! MAS` give the same bytes as converting directly, for every valid example (the hostile
//! ones included) and corpus file; the machine reads back into the same IR; what a loop
//! cannot hold is refused with a located, coded diagnostic.

use crate::back::roundtrip::{agentpm_inputs, convert, lossy, mas_inputs, read, reread, strict};
use crate::support::{examples, loop_files, rel};
use loopconv::diag::{Code, Severity};
use loopconv::ir::same_content;
use loopconv::{Format, LoadOptions};
use std::path::PathBuf;

/// Every valid AgentPM and MAS input with its format: the examples (hostile included) and
/// the corpus.
fn inputs() -> Vec<(PathBuf, Format)> {
    let mut v: Vec<(PathBuf, Format)> = agentpm_inputs()
        .into_iter()
        .map(|p| (p, Format::Agentpm))
        .chain(mas_inputs().into_iter().map(|p| (p, Format::Mas)))
        .collect();
    for p in loop_files(&examples().join("hostile")) {
        let yaml = p.extension().is_some_and(|e| e == "yaml");
        v.push((p, if yaml { Format::Mas } else { Format::Agentpm }));
    }
    v
}

#[test]
fn through_xstate_and_back_is_byte_identical() {
    let all = inputs();
    assert!(all.len() > 10, "too few inputs: {}", all.len());
    for (path, fmt) in all {
        let name = rel(&path);
        let (spec, info, _) = read(&path, fmt);
        let (direct, _) = convert(&name, &spec, &info, fmt, &lossy());
        let (machine, diags) = convert(&name, &spec, &info, Format::Xstate, &strict());
        assert!(
            diags.is_empty(),
            "{name} --to xstate reports: {:#?}",
            diags.items()
        );
        let (x_spec, x_info) = reread(&format!("{name} (XState)"), &machine, Format::Xstate);
        assert!(
            same_content(&x_spec, &spec),
            "{name}: the machine reads back into another loop\n{machine}"
        );
        let (back, _) = convert(&name, &x_spec, &x_info, fmt, &lossy());
        assert_eq!(back, direct, "{name}: {fmt} -> XState -> {fmt} differs");
    }
}

/// A machine is detected by its content, with no `--from`.
#[test]
fn a_machine_is_detected_by_content() {
    let path = examples().join("agentpm/incident-response.json");
    let (spec, info, _) = read(&path, Format::Agentpm);
    let (machine, _) = convert("incident", &spec, &info, Format::Xstate, &strict());
    let l = loopconv::load("machine.json", machine.as_bytes(), &LoadOptions::default());
    assert_eq!(l.format, Some(Format::Xstate));
    assert!(l.valid().is_some(), "{:#?}", l.diags.items());
}

/// The codes, lines and columns of a machine's diagnostics.
fn located(text: &str) -> Vec<(Code, u32, u32, String)> {
    let l = loopconv::load("machine.json", text.as_bytes(), &LoadOptions::default());
    assert_eq!(l.format, Some(Format::Xstate), "{text}");
    l.diags
        .items()
        .iter()
        .map(|d| {
            let pos = d.location.pos.expect("located");
            (d.code, pos.line, pos.column, d.message.clone())
        })
        .collect()
}

#[test]
fn a_parallel_state_is_one_located_coded_error() {
    let text = r#"{"id": "triage", "initial": "read", "states": {
  "read": {"description": "Read the issue.", "type": "parallel",
           "states": {"a": {}, "b": {}}, "on": {"complete": "end"}},
  "end": {"type": "final", "output": {"status": "ended"}}
}}
"#;
    let got = located(text);
    assert_eq!(got.len(), 1, "{got:#?}");
    let (code, line, column, message) = &got[0];
    assert_eq!(*code, Code::XstateUnsupported);
    assert_eq!((*line, *column), (2, 54), "{message}");
    assert!(message.contains("a parallel state"), "{message}");
}

/// What changes the graph (`after`) is refused, `F018`; what a loop can do without
/// (`context`, `entry`, a guard) is a loss: one error that names each at its place, or
/// with `--allow-lossy` a warning each and the machine read without them.
#[test]
fn each_unsupported_feature_is_named_where_it_is() {
    let text = r#"{"id": "triage", "initial": "read", "context": {},
 "states": {
  "read": {"description": "Read the issue.", "entry": ["log"], "after": {"1000": "end"},
           "on": {"complete": {"target": "end", "guard": "ok"}}},
  "end": {"type": "final", "output": {"status": "ended"}}
}}
"#;
    let got = located(text);
    let codes: Vec<(Code, u32, u32)> = got.iter().map(|g| (g.0, g.1, g.2)).collect();
    assert_eq!(
        codes,
        vec![(Code::LostField, 1, 37), (Code::XstateUnsupported, 3, 64)],
        "{got:#?}"
    );
    assert!(got[0].3.contains("`context`"), "{}", got[0].3);
    assert!(got[1].3.contains("delayed"), "{}", got[1].3);
    let l = loopconv::load("machine.json", text.as_bytes(), &LoadOptions::default());
    let labels: Vec<(u32, u32, &str)> = l.diags.items()[0]
        .labels
        .iter()
        .map(|l| {
            let pos = l.location.pos.expect("located");
            (pos.line, pos.column, l.message.as_str())
        })
        .collect();
    assert_eq!(
        labels,
        [
            (3, 46, "the entry actions of `read` dropped"),
            (4, 49, "the guard of `complete` in `read` dropped"),
        ]
    );
    let lossy = LoadOptions {
        allow_lossy: true,
        ..LoadOptions::default()
    };
    let l = loopconv::load("machine.json", text.as_bytes(), &lossy);
    let codes: Vec<(Code, Severity, u32, u32)> = (l.diags.items().iter())
        .map(|d| {
            let pos = d.location.pos.expect("located");
            (d.code, d.severity, pos.line, pos.column)
        })
        .collect();
    assert_eq!(
        codes,
        [
            (Code::LostField, Severity::Warning, 1, 37),
            (Code::LostField, Severity::Warning, 3, 46),
            (Code::XstateUnsupported, Severity::Error, 3, 64),
            (Code::LostField, Severity::Warning, 4, 49),
        ]
    );
}

#[test]
fn a_bypassed_checkpoint_is_one_error_with_its_fix() {
    let text = r#"{"id": "ship", "initial": "build", "states": {
  "build": {"description": "Build the release.", "on": {"complete": "deploy"}},
  "deploy": {"description": "Deploy the release.", "on": {"complete": "end"}},
  "approve-deploy": {"tags": ["checkpoint"], "on": {"APPROVE": "deploy", "REJECT": "abort"}},
  "end": {"type": "final", "output": {"status": "ended"}},
  "abort": {"type": "final", "output": {"status": "aborted"}}
}}
"#;
    let got = located(text);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!((got[0].0, got[0].1, got[0].2), (Code::XstateGate, 2, 69));
    assert!(got[0].3.contains("`approve-deploy`"), "{}", got[0].3);
    let fixed = text.replacen(
        r#""complete": "deploy""#,
        r#""complete": "approve-deploy""#,
        1,
    );
    assert!(located(&fixed).is_empty(), "{:#?}", located(&fixed));
}

/// The checkpoints before a phase are read in the order of their gate chain (each gate's
/// `APPROVE` into the next, the last into the phase), whatever the order of the keys of
/// `states`: keys listed the other way round read as the chain says, and a chain edited by
/// hand (the entry into the new first gate, the approvals re-pointed) is read as the new
/// order.
#[test]
fn checkpoint_order_comes_from_the_gate_chain() {
    let machine = |first: &str, second: &str, keys_reversed: bool| {
        let gate = |id: &str, approve: &str, reject: &str| {
            format!(
                r#""{id}": {{"tags": ["checkpoint"], "on": {{"APPROVE": "{approve}", "REJECT": "{reject}"}}}}"#
            )
        };
        let reject = |id: &str| if id == "legal" { "abort" } else { "build" };
        let mut gates = [
            gate(first, second, reject(first)),
            gate(second, "deploy", reject(second)),
        ];
        if keys_reversed {
            gates.reverse();
        }
        format!(
            r#"{{"id": "ship", "initial": "build", "states": {{
  "build": {{"description": "Build the release.", "on": {{"complete": "{first}"}}}},
  {},
  {},
  "deploy": {{"description": "Deploy the release.", "on": {{"complete": "end"}}}},
  "end": {{"type": "final", "output": {{"status": "ended"}}}},
  "abort": {{"type": "final", "output": {{"status": "aborted"}}}}
}}}}
"#,
            gates[0], gates[1]
        )
    };
    let order = |text: &str| -> Vec<(String, String)> {
        let (spec, _) = reread("ship.json", text, Format::Xstate);
        (spec.graph.checkpoints.iter().flatten())
            .map(|c| (c.id.clone(), c.on_reject.as_str().to_owned()))
            .collect()
    };
    let written = machine("security", "legal", false);
    assert!(located(&written).is_empty(), "{:#?}", located(&written));
    let want = [("security", "build"), ("legal", "$abort")].map(|(a, b)| (a.into(), b.into()));
    assert_eq!(order(&written), want);
    let reordered_keys = machine("security", "legal", true);
    assert!(
        located(&reordered_keys).is_empty(),
        "{:#?}",
        located(&reordered_keys)
    );
    assert_eq!(
        order(&reordered_keys),
        want,
        "the order of the keys plays no part"
    );
    for keys_reversed in [false, true] {
        let edited = machine("legal", "security", keys_reversed);
        assert!(located(&edited).is_empty(), "{:#?}", located(&edited));
        let mut want = want.clone();
        want.reverse();
        assert_eq!(order(&edited), want, "the edited chain is the new order");
    }
    // Two gates approving into the phase form no chain: one error, on the gate listed
    // first, which (taken in listed order) should approve into the second.
    let branched = written.replacen(r#""APPROVE": "legal""#, r#""APPROVE": "deploy""#, 1);
    let got = located(&branched);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(
        got[0].0 == Code::XstateGate && got[0].3.contains("form no single chain"),
        "{got:#?}"
    );
    // Written back, a machine in chain order is the same bytes.
    let (spec, info) = reread("ship.json", &written, Format::Xstate);
    let (again, _) = convert("ship.json", &spec, &info, Format::Xstate, &strict());
    let (spec2, info2) = reread("again.json", &again, Format::Xstate);
    let (third, _) = convert("again.json", &spec2, &info2, Format::Xstate, &strict());
    assert_eq!(again, third);
}

#[test]
fn a_hand_written_machine_reads_as_a_loop() {
    let text = r#"{"id": "triage", "initial": "read", "states": {
  "read": {"description": "Read the issue.",
           "on": {"known": {"target": "fix", "description": "The cause is known."},
                  "unclear": {"target": "handoff", "description": "A person must look."}}},
  "fix": {"description": "Fix it.", "on": {"complete": "end"}},
  "end": {"type": "final"},
  "handoff": {"type": "final"}
}}
"#;
    assert!(located(text).is_empty(), "{:#?}", located(text));
    let l = loopconv::load("m.json", text.as_bytes(), &LoadOptions::default());
    let (spec, _) = l.valid().expect("valid");
    assert_eq!(spec.source_format, Format::Xstate);
    let t: Vec<String> = spec
        .graph
        .transitions
        .iter()
        .map(|t| format!("{} {} {}", t.from, t.on, t.to.as_str()))
        .collect();
    assert_eq!(
        t,
        [
            "read known fix",
            "read unclear $handoff",
            "fix complete $end"
        ]
    );
}

#[test]
fn a_field_a_state_of_its_kind_cannot_hold_is_an_error() {
    let text = r#"{"id": "triage", "initial": "read", "states": {
  "read": {"description": "Read the issue.", "output": {"status": "ended"}, "on": {"complete": "end"}},
  "end": {"type": "final", "description": "Done.", "output": {"status": "ended"}}
}}
"#;
    let got = located(text);
    let codes: Vec<(Code, u32, u32)> = got.iter().map(|g| (g.0, g.1, g.2)).collect();
    assert_eq!(
        codes,
        vec![(Code::UnknownField, 2, 46), (Code::LostField, 3, 28)],
        "{got:#?}"
    );
    assert!(got[0].3.contains("a phase state"), "{}", got[0].3);
    assert!(
        got[1]
            .3
            .contains("the `description` of the final state `end` dropped"),
        "{}",
        got[1].3
    );
}

/// `--module js` wraps exactly the machine `--to xstate` writes; `ts` marks the final
/// states' type `as const`; `--module` without `--to xstate` is a usage error.
#[test]
fn the_module_is_the_machine_as_code() {
    let input = examples().join("agentpm/code-review-sign-off.json");
    let run = |extra: &[&str]| {
        let out = crate::support::loopconv()
            .arg("convert")
            .arg(&input)
            .args(extra)
            .output()
            .expect("run loopconv");
        (
            out.status.code(),
            String::from_utf8(out.stdout).expect("UTF-8"),
        )
    };
    let (code, json) = run(&["--to", "xstate"]);
    assert_eq!(code, Some(0));
    let (code, js) = run(&["--to", "xstate", "--module", "js"]);
    assert_eq!(code, Some(0));
    let body = js
        .split_once("createMachine(")
        .and_then(|(head, rest)| {
            assert!(
                head.contains("import { assign, setup } from \"xstate\";"),
                "{head}"
            );
            rest.strip_suffix(");\n")
        })
        .expect("export const machine = setup(counters).createMachine(...);");
    // The JSON machine, with the machine's `output` (what JSON cannot hold) first.
    let output = "{\n  \"output\": ({ event }) => event.output,";
    assert_eq!(body.replacen(output, "{", 1), json.trim_end());
    let (_, ts) = run(&["--to", "xstate", "--module", "ts"]);
    // Every final state: the two terminals', and the step limit's and a failure's.
    assert_eq!(json.matches("\"type\": \"final\"").count(), 4, "{json}");
    assert_eq!(
        ts.matches("\"type\": \"final\" as const").count(),
        4,
        "{ts}"
    );
    let (code, _) = run(&["--to", "agentpm", "--module", "js"]);
    assert_eq!(code, Some(2));
}

/// Candidate transitions are refused wherever they stand: on a gate's `APPROVE` as on a
/// phase's event.
#[test]
fn candidate_transitions_on_a_gate_are_refused_too() {
    let text = r#"{"id": "ship", "initial": "approve-deploy", "states": {
  "deploy": {"description": "Deploy the release.", "on": {"complete": "end"}},
  "approve-deploy": {"tags": ["checkpoint"],
                     "on": {"APPROVE": [{"target": "deploy"}, {"target": "end"}], "REJECT": "end"}},
  "end": {"type": "final", "output": {"status": "ended"}}
}}
"#;
    let got = located(text);
    let codes: Vec<(Code, u32)> = got.iter().map(|g| (g.0, g.1)).collect();
    assert_eq!(codes, vec![(Code::XstateUnsupported, 4)], "{got:#?}");
    assert!(got[0].3.contains("guarded candidate"), "{}", got[0].3);
}

/// loopconv's machine with a bound of its enforcement edited is one loss (its counters,
/// guards and actions are left out whole, no loss or refusal for each of them); with
/// `--allow-lossy` the loop read from the rest is the loop it was written from.
#[test]
fn an_edited_enforcement_is_one_loss() {
    let input = examples().join("agentpm/code-review-sign-off.json");
    let bytes = std::fs::read(&input).expect("read");
    let original = loopconv::load("loop.json", &bytes, &LoadOptions::default());
    let (spec, info) = original.valid().expect("valid");
    let mut d = loopconv::diag::Diagnostics::default();
    let json = loopconv::back::render(
        loopconv::Target::Loop(Format::Xstate),
        spec,
        info,
        &loopconv::back::Options::default(),
        &mut d,
    )
    .expect("render");
    let at = json.find("\"max\": ").expect("a guard's bound") + "\"max\": ".len();
    let edited = format!(
        "{}7{}",
        &json[..at],
        &json[at..].trim_start_matches(char::is_numeric)
    );
    let got = located(&edited);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(got[0].0, Code::LostField, "{}", got[0].3);
    assert!(
        got[0].3.contains("not what loopconv writes"),
        "{}",
        got[0].3
    );
    let lossy = LoadOptions {
        allow_lossy: true,
        ..LoadOptions::default()
    };
    let l = loopconv::load("machine.json", edited.as_bytes(), &lossy);
    let (again, _) = l.valid().expect("read with the loss");
    assert!(same_content(spec, again));
}

/// A machine whose final states have names of their own, two of them ending a run with
/// one status (`success` and `done`, both `ended`) and a rejection ending at `declined`:
/// it reads with no loss (the loop keeps each name, `final_state`), goes back to XState
/// with the same final states under the same names, and reads back into the same loop;
/// AgentPM, which has only the three terminals, reports each name it loses (`B001`).
#[test]
fn finals_keep_their_names_and_two_with_one_status_stay_two() {
    let text = r#"{"id": "triage", "initial": "read", "states": {
  "read": {"description": "Read the issue.",
           "on": {"fixed": {"target": "success", "description": "Fixed."},
                  "duplicate": {"target": "done", "description": "Already fixed."},
                  "escalate": {"target": "gate", "description": "A person must decide."}}},
  "gate": {"tags": ["checkpoint"], "meta": {"checkpoint": "sign-off"},
           "on": {"APPROVE": "ship", "REJECT": "declined"}},
  "ship": {"description": "Ship it.", "on": {"complete": "end"}},
  "success": {"type": "final", "output": {"status": "ended"}},
  "done": {"type": "final", "output": {"status": "ended"}},
  "end": {"type": "final", "output": {"status": "ended"}},
  "declined": {"type": "final", "output": {"status": "aborted"}}
}}
"#;
    assert!(located(text).is_empty(), "{:#?}", located(text));
    let (spec, info) = reread("m.json", text, Format::Xstate);
    let ends: Vec<(String, Option<String>)> = (spec.graph.transitions.iter())
        .map(|t| (t.to.as_str().to_owned(), t.final_state.clone()))
        .collect();
    let named = |s: &str| Some(s.to_owned());
    assert_eq!(
        ends,
        [
            ("$end".to_owned(), named("success")),
            ("$end".to_owned(), named("done")),
            ("ship".to_owned(), None),
            ("$end".to_owned(), None),
        ]
    );
    let checkpoint = &spec.graph.checkpoints.as_ref().expect("a checkpoint")[0];
    assert_eq!(checkpoint.final_state.as_deref(), Some("declined"));

    let (machine, diags) = convert("m.json", &spec, &info, Format::Xstate, &strict());
    assert!(diags.is_empty(), "{:#?}", diags.items());
    let value: serde_json::Value = serde_json::from_str(&machine).expect("JSON");
    let status = |key: &str| {
        value["states"][key]["output"]["status"]
            .as_str()
            .map(str::to_owned)
    };
    for (key, want) in [
        ("success", "ended"),
        ("done", "ended"),
        ("end", "ended"),
        ("declined", "aborted"),
    ] {
        assert_eq!(status(key).as_deref(), Some(want), "{key}\n{machine}");
    }
    assert!(value["states"].get("abort").is_none(), "{machine}");
    let (again, again_info) = reread("again.json", &machine, Format::Xstate);
    assert!(same_content(&spec, &again), "{machine}");
    let (third, _) = convert("again.json", &again, &again_info, Format::Xstate, &strict());
    assert_eq!(machine, third);

    let mut diags = loopconv::diag::Diagnostics::new("m.json");
    let agentpm = loopconv::Target::Loop(Format::Agentpm);
    let _ = loopconv::write(agentpm, &spec, &info, &strict(), &mut diags);
    let lost: Vec<&str> = (diags.items().iter())
        .filter(|d| d.code == Code::LostField)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(lost.len(), 3, "{lost:#?}");
    for name in ["`success`", "`done`", "`declined`"] {
        assert!(lost.iter().any(|m| m.contains(name)), "{name}: {lost:#?}");
    }
}

/// `diff` sees a final state renamed: the same terminal at another name is one compatible
/// change of the transition, with both names.
#[test]
fn diff_reports_a_renamed_final() {
    let machine = |name: &str| {
        format!(
            r#"{{"id": "triage", "initial": "read", "states": {{
  "read": {{"description": "Read.", "on": {{"fixed": {{"target": "{name}", "description": "Fixed."}}}}}},
  "{name}": {{"type": "final", "output": {{"status": "ended"}}}}
}}}}
"#
        )
    };
    let (old, _) = reread("old.json", &machine("success"), Format::Xstate);
    let (new, _) = reread("new.json", &machine("done"), Format::Xstate);
    let d = loopconv::analysis::diff::diff(&old, &new);
    assert_eq!(d.changes.len(), 1, "{:#?}", d.changes);
    let c = &d.changes[0];
    assert_eq!(c.impact, loopconv::analysis::diff::Impact::Compatible);
    assert_eq!(c.old.as_deref(), Some("$end (final state `success`)"));
    assert_eq!(c.new.as_deref(), Some("$end (final state `done`)"));
    let (plain, _) = reread("plain.json", &machine("end"), Format::Xstate);
    let d = loopconv::analysis::diff::diff(&plain, &new);
    assert_eq!(d.changes.len(), 1, "{:#?}", d.changes);
    assert_eq!(d.changes[0].old.as_deref(), Some("$end"));
}
