//! Typed suggestions: every quick fix the language server offers and every SARIF fix,
//! applied to the invalid example it was made for, removes the diagnostic it fixes.

use std::path::{Path, PathBuf};

use loopconv::diag::{Code, Diagnostic, Suggestion, render_sarif};
use loopconv::lsp::DocumentAnalysis;
use loopconv::lsp::diagnostics::code_actions;
use loopconv::{LoadOptions, load};
use lsp_types::{CodeAction, Position, Range, TextEdit, Uri};
use serde_json::Value;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/invalid")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(examples().join(name)).expect("example")
}

fn diags(name: &str, text: &str) -> Vec<Diagnostic> {
    load(name, text.as_bytes(), &LoadOptions::default())
        .diags
        .into_items()
}

fn count(ds: &[Diagnostic], code: Code) -> usize {
    ds.iter().filter(|d| d.code == code).count()
}

fn actions(a: &DocumentAnalysis) -> Vec<CodeAction> {
    let uri: Uri = "file:///tmp/loop".parse().expect("uri");
    let all = Range::new(Position::new(0, 0), Position::new(u32::MAX, 0));
    let items = a.loaded.diags.items();
    code_actions(&a.text(), &a.index, a.loaded.doc.as_ref(), &uri, items, all)
}

fn the_edit(a: &CodeAction) -> TextEdit {
    let edits: Vec<&TextEdit> = a
        .edit
        .iter()
        .flat_map(|e| e.changes.iter())
        .flat_map(|c| c.values().flatten())
        .collect();
    assert_eq!(edits.len(), 1, "{}", a.title);
    edits[0].clone()
}

/// The text with one LSP edit applied (the examples are ASCII: columns are bytes).
fn apply(text: &str, e: &TextEdit) -> String {
    let off = |p: Position| {
        let start: usize = text
            .split_inclusive('\n')
            .take(p.line as usize)
            .map(str::len)
            .sum();
        start + p.character as usize
    };
    let (a, b) = (off(e.range.start), off(e.range.end));
    format!("{}{}{}", &text[..a], e.new_text, &text[b..])
}

/// Each example, the code actions its diagnostics must offer, by title.
const FIXABLE: &[(&str, Code, &[&str])] = &[
    (
        "F001-unknown-field.json",
        Code::UnknownField,
        &["replace with `max_steps` (F001)"],
    ),
    (
        "F010-missing-kind.json",
        Code::MissingKind,
        &["add `kind` (F010)"],
    ),
    (
        "F012-missing-schema-uri.json",
        Code::MissingSchema,
        &["add `$schema` (F012)"],
    ),
    (
        "V006-unknown-entry-phase.json",
        Code::UnknownEntryPhase,
        &["replace with `gather` (V006)"],
    ),
    (
        "V011-missing-transition.json",
        Code::MissingTransition,
        &["add a transition for `review` on `escalate` (V011)"],
    ),
    (
        "V020-max-retries-without-retry.json",
        Code::MaxRetriesWithoutRetry,
        &["remove `max_retries` (V020)"],
    ),
    (
        "V021-on-exhausted-without-retry.json",
        Code::OnExhaustedWithoutRetry,
        &["remove `on_exhausted` (V021)"],
    ),
];

#[test]
fn every_code_action_fixes_its_diagnostic() {
    for (name, code, titles) in FIXABLE {
        let text = read(name);
        let a = DocumentAnalysis::new(name, &text);
        let acts: Vec<CodeAction> = actions(&a)
            .into_iter()
            .filter(|x| x.title.ends_with(&format!("({code})")))
            .collect();
        let got: Vec<&str> = acts.iter().map(|x| x.title.as_str()).collect();
        assert_eq!(&got, titles, "{name}");
        let before = count(a.loaded.diags.items(), *code);
        assert!(before > 0, "{name}");
        for act in &acts {
            let fixed = apply(&text, &the_edit(act));
            let after = diags(name, &fixed);
            assert_eq!(
                count(&after, *code),
                before - 1,
                "{name}: {}\n{fixed}",
                act.title
            );
            // And makes no other mistake.
            let before_all = a.loaded.diags.items();
            for d in &after {
                assert!(
                    count(&after, d.code) <= count(before_all, d.code),
                    "{name}: {} adds {}\n{fixed}",
                    act.title,
                    d.code
                );
            }
            assert_eq!(
                count(&after, Code::Syntax),
                0,
                "{name}: {}\n{fixed}",
                act.title
            );
        }
    }
}

/// The same fixes in YAML: the edits keep the document's syntax.
#[test]
fn code_actions_edit_yaml_too() {
    let text = "kind: loop\nname: x\nversion: 0.1.0\ndescription: A loop.\nloop:\n  entry_phase: plna\n  phases:\n    - id: plan\n      objective: Plan.\n    - id: build\n      objective: Build.\n  transitions:\n    - from: plan\n      on: complete\n      to: build\n  error_policy:\n    tool_failure:\n      action: abort\n      max_retries: 2\n";
    let a = DocumentAnalysis::new("x.yaml", text);
    let acts = actions(&a);
    let titles: Vec<&str> = acts.iter().map(|x| x.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "add `$schema` (F012)",
            "replace with `plan` (V006)",
            "add a transition for `build` on `complete` (V011)",
            "remove `max_retries` (V020)",
        ]
    );
    let codes = [
        Code::MissingSchema,
        Code::UnknownEntryPhase,
        Code::MissingTransition,
        Code::MaxRetriesWithoutRetry,
        Code::MaxRetriesWithoutRetry,
    ];
    for (act, code) in acts.iter().zip(codes) {
        let fixed = apply(text, &the_edit(act));
        let after = diags("x.yaml", &fixed);
        assert_eq!(count(&after, code), 0, "{}\n{fixed}", act.title);
        assert_eq!(count(&after, Code::Syntax), 0, "{fixed}");
    }
}

/// A key added to a YAML manifest lands on a line of its own, at the first key's indent.
#[test]
fn an_added_key_keeps_the_yaml_layout() {
    let text = "name: x\nversion: 0.1.0\ndescription: A loop.\nloop:\n  entry_phase: plan\n  phases:\n    - id: plan\n      objective: Plan.\n  transitions:\n    - from: plan\n      on: complete\n      to: $end\n";
    let a = DocumentAnalysis::new("x.yaml", text);
    let add = actions(&a)
        .into_iter()
        .find(|x| x.title == "add `kind` (F010)")
        .expect("the F010 fix");
    let fixed = apply(text, &the_edit(&add));
    assert!(
        fixed.starts_with("\"kind\": \"loop\"\nname: x\n"),
        "{fixed}"
    );
    assert_eq!(count(&diags("x.yaml", &fixed), Code::MissingKind), 0);
}

/// The SARIF fixes: each is one replacement by lines and code-point columns; applied to the
/// file, it removes the diagnostic.
#[test]
fn every_sarif_fix_fixes_its_result() {
    let mut fixes = 0;
    for name in [
        "F001-unknown-field.json",
        "V006-unknown-entry-phase.json",
        "V020-max-retries-without-retry.json",
    ] {
        let text = read(name);
        let ds = diags(name, &text);
        let log: Value = serde_json::from_str(&render_sarif(&ds)).expect("json");
        for r in log["runs"][0]["results"].as_array().expect("results") {
            let Some(fs) = r["fixes"].as_array() else {
                continue;
            };
            let code = ds
                .iter()
                .find(|d| d.code.as_str() == r["ruleId"])
                .map(|d| d.code)
                .expect("code");
            for f in fs {
                let changes = f["artifactChanges"].as_array().expect("changes");
                assert_eq!(changes.len(), 1);
                let reps = changes[0]["replacements"].as_array().expect("replacements");
                assert_eq!(reps.len(), 1);
                let fixed = apply_sarif(&text, &reps[0]);
                assert_eq!(
                    count(&diags(name, &fixed), code),
                    count(&ds, code) - 1,
                    "{fixed}"
                );
                fixes += 1;
            }
        }
    }
    assert_eq!(fixes, 2);
}

/// Apply one SARIF replacement (1-based lines and columns; ASCII text).
fn apply_sarif(text: &str, rep: &Value) -> String {
    let r = &rep["deletedRegion"];
    let off = |line: &Value, col: &Value| {
        let line = line.as_u64().expect("line") as usize - 1;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + col.as_u64().expect("column") as usize - 1
    };
    let a = off(&r["startLine"], &r["startColumn"]);
    let b = off(&r["endLine"], &r["endColumn"]);
    let new = rep["insertedContent"]["text"].as_str().expect("text");
    format!("{}{new}{}", &text[..a], &text[b..])
}

/// The wording lives in one place: the help line of a suggestion is its `Display`.
#[test]
fn help_lines_come_from_the_suggestions() {
    let ds = diags(
        "V006-unknown-entry-phase.json",
        &read("V006-unknown-entry-phase.json"),
    );
    let d = ds
        .iter()
        .find(|d| d.code == Code::UnknownEntryPhase)
        .expect("V006");
    assert!(matches!(&d.suggestions[..], [Suggestion::Replace { with, .. }] if with == "gather"));
    assert_eq!(d.help, None);
    assert_eq!(d.help_text(), Some(d.suggestions[0].to_string()));
}

/// A target written without its `$` (`"to": "end"`) is offered the terminal, and the fix
/// removes the error; a `from` written so is not (a run cannot start from a terminal).
#[test]
fn a_terminal_without_its_dollar_is_offered_the_terminal() {
    let text = |from: &str, to: &str| {
        format!(
            r#"{{"kind": "loop", "name": "n", "version": "1.0.0", "description": "d",
"loop": {{"entry_phase": "work", "phases": [{{"id": "work", "objective": "Do it."}}],
"transitions": [{{"from": "{from}", "on": "complete", "to": "{to}"}}]}}}}"#
        )
    };
    for (written, want) in [
        ("end", "$end"),
        ("Abort", "$abort"),
        ("handoff", "$handoff"),
    ] {
        let ds = diags("t.json", &text("work", written));
        let v009: Vec<&Diagnostic> = ds
            .iter()
            .filter(|d| d.code == Code::UnknownTransitionTarget)
            .collect();
        assert_eq!(v009.len(), 1, "{ds:?}");
        assert!(
            matches!(&v009[0].suggestions[..], [Suggestion::Replace { with, .. }] if with == want),
            "{written}: {:?}",
            v009[0].suggestions
        );
        let fixed = text("work", want);
        assert_eq!(
            count(&diags("t.json", &fixed), Code::UnknownTransitionTarget),
            0
        );
    }
    let ds = diags("t.json", &text("end", "$end"));
    assert!(
        ds.iter().all(|d| d
            .suggestions
            .iter()
            .all(|s| !matches!(s, Suggestion::Replace { with, .. } if with == "$end"))),
        "{ds:?}"
    );
}
