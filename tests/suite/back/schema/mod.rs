//! The published JSON Schemas (`schemas/*.json`, `loopconv schema agentpm|mas|ir`).
//!
//! * The committed files are exactly what `back::schema` generates from the model and IR
//!   types (the typos `config.schema.json` pattern). After changing a type, bless them with
//!   `LOOPCONV_BLESS=1 cargo test --test suite back::schema` and commit the diff.
//! * Each schema is valid JSON Schema 2020-12 (checked against the meta-schema).
//! * An independent validator (the `jsonschema` crate) reaches the same verdict as loopconv's
//!   own structural checks on every file in `examples/` (invalid ones included) and in the
//!   conformance corpus (`../shared/corpus`, skipped when absent), and on every file loopconv
//!   converts them to. "Structurally valid" for loopconv means: no error whose code starts
//!   with `P` or `F`, no `F010` (the schema requires `kind`; loopconv reads a manifest without
//!   it with a warning, an error under `--strict`), and none of the rules that the schemas
//!   encode as conditionals or non-blank patterns ([`SCHEMA_V_CODES`]), and an AgentPM
//!   destination that is neither an id nor a terminal (`V009`, `V016` on `$fail`: the
//!   schema's `pattern`). Other semantic rules (references, the graph) are not a schema's
//!   business.

mod editor;
mod outcomes;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::support::{
    self, corpus, examples, load_file, loop_files, loopconv, lossy_options, stdout_json,
};
use loopconv::back::schema::schema_text;
use loopconv::diag::{Code, Severity};
use loopconv::{Format, LoadOptions, Loaded};
use serde_json::Value;

/// `V` codes whose rule the schemas encode: blank archetype, objective and outcome
/// description (`"pattern": "\\S"`), the retry rules (`ToolFailure`'s `if`/`then`/`else`),
/// and the multi-agent-spec rules (the root `allOf` of `if`/`then`).
const SCHEMA_V_CODES: &[Code] = &[
    Code::BlankArchetype,
    Code::BlankObjective,
    Code::BlankOutcomeDescription,
    Code::RetryWithoutMaxRetries,
    Code::RetryWithoutOnExhausted,
    Code::MaxRetriesWithoutRetry,
    Code::OnExhaustedWithoutRetry,
    Code::MissingMission,
    Code::MissingValidator,
    Code::MissingChecks,
    Code::MissingFallbackAgent,
];

/// Whether loopconv read the bytes as one JSON or YAML document with string keys, within
/// its limits. A `P` error other than `P011` (unknown format) means it did not: the file is
/// not well-formed (syntax, duplicate or non-string keys, several documents, encoding) or
/// breaks a reader limit, so there is no JSON value for a schema to judge.
fn parsed(l: &Loaded) -> bool {
    l.doc.is_some()
        && !l.diags.items().iter().any(|d| {
            d.severity == Severity::Error
                && d.code.as_str().starts_with('P')
                && d.code != Code::UnknownFormat
        })
}

fn validator(f: Format) -> jsonschema::Validator {
    jsonschema::draft202012::new(loopconv::model::schema(f))
        .unwrap_or_else(|e| panic!("the {f} schema does not compile: {e}"))
}

/// loopconv's structural verdict, with the codes that decided it.
fn structural(l: &Loaded) -> (bool, Vec<&'static str>) {
    let json = l.doc.as_ref().map(|d| d.root().to_json());
    // An AgentPM `to` or `on_reject` that is neither a stable id nor a terminal (`$fail`):
    // the schema's `pattern` refuses it, loopconv's reference rule names it (V009, V016).
    let bad_destination = |d: &loopconv::diag::Diagnostic| {
        l.format == Some(Format::Agentpm)
            && matches!(
                d.code,
                Code::UnknownTransitionTarget | Code::UnknownRejectTarget
            )
            && json
                .as_ref()
                .and_then(|j| j.pointer(&d.location.pointer))
                .and_then(Value::as_str)
                .is_some_and(|t| {
                    !loopconv::ir::id_pattern::matches_stable_id(t)
                        && !matches!(t, "$end" | "$abort" | "$handoff")
                })
    };
    let codes: Vec<&'static str> = l
        .diags
        .items()
        .iter()
        .filter(|d| {
            let c = d.code.as_str();
            // The Go SDK's rules beyond its schema (an empty `actor`, `max_attempts` beyond
            // its `int`): their messages name the Go SDK.
            let go_sdk_only = d.message.contains("multi-agent-spec Go SDK");
            // An XState machine's loop rules are about what each state is (a phase needs a
            // description, its key is an id; a gate is chained before its phase): the
            // front end's, beyond what a schema of state charts says.
            let xstate_loop_rule = l.format == Some(Format::Xstate)
                && matches!(
                    d.code,
                    Code::XstateGate | Code::MissingField | Code::InvalidId
                );
            (d.severity == Severity::Error
                && !go_sdk_only
                && !xstate_loop_rule
                && (c.starts_with('P') || c.starts_with('F') || SCHEMA_V_CODES.contains(&d.code)))
                || d.code == Code::MissingKind
                || bad_destination(d)
        })
        .map(|d| d.code.as_str())
        .collect();
    (codes.is_empty(), codes)
}

/// The schema's verdict, with its first few errors.
fn schema_verdict(v: &jsonschema::Validator, doc: &Value) -> (bool, Vec<String>) {
    let errors: Vec<String> = v
        .iter_errors(doc)
        .take(5)
        .map(|e| format!("{} at `{}`", e, e.instance_path))
        .collect();
    (errors.is_empty(), errors)
}

/// `loopconv schema` and the shape check use the committed file, embedded: what they print
/// is its bytes, and the binary prints the same.
#[test]
fn the_schema_command_prints_the_committed_file() {
    for f in Format::ALL {
        let path = support::repo().join("schemas").join(f.schema_file_name());
        let committed = String::from_utf8(support::read(&path)).expect("UTF-8");
        assert_eq!(schema_text(f), committed, "{}", path.display());
        let out = loopconv()
            .args(["schema", f.name()])
            .output()
            .expect("runs");
        assert!(out.status.success(), "loopconv schema {}", f.name());
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            committed,
            "{}",
            f.name()
        );
    }
}

#[test]
fn committed_schemas_are_up_to_date() {
    let bless = crate::support::bless();
    let mut stale = Vec::new();
    for f in Format::ALL {
        let path = support::repo().join("schemas").join(f.schema_file_name());
        // Generated from the types, not `loopconv schema` (which prints the committed file).
        let generated = loopconv::model::generated_schema(f);
        let fresh = serde_json::to_string_pretty(&generated).expect("the schema serialises") + "\n";
        if bless {
            std::fs::create_dir_all(path.parent().expect("schemas/ has a parent"))
                .expect("creating schemas/");
            std::fs::write(&path, &fresh)
                .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
            continue;
        }
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        if old != fresh {
            let first = old
                .lines()
                .zip(fresh.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| old.lines().count().min(fresh.lines().count()));
            stale.push(format!(
                "{} differs from `loopconv schema` from line {}:\n  committed: {:?}\n  generated: {:?}",
                path.display(),
                first + 1,
                old.lines().nth(first).unwrap_or("<end of file>"),
                fresh.lines().nth(first).unwrap_or("<end of file>"),
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "{}\nrun `LOOPCONV_BLESS=1 cargo test --test suite back::schema` and commit the result",
        stale.join("\n")
    );
}

#[test]
fn schemas_are_valid_draft_2020_12() {
    for f in Format::ALL {
        let s = loopconv::model::schema(f);
        assert_eq!(
            s.get("$schema").and_then(Value::as_str),
            Some("https://json-schema.org/draft/2020-12/schema"),
            "{f}"
        );
        if let Err(e) = jsonschema::draft202012::meta::validate(s) {
            panic!("the {f} schema is not valid JSON Schema 2020-12: {e}");
        }
        // Every object is closed: an unknown key anywhere is an error, as in loopconv.
        let mut open = Vec::new();
        find_open_objects(s, "", &mut open);
        assert!(
            open.is_empty(),
            "{f}: objects without `additionalProperties: false`: {open:?}"
        );
        // Compiles as a validator (or panics naming the schema).
        validator(f);
    }
}

/// Schemas with `properties` but without `additionalProperties: false`.
fn find_open_objects(v: &Value, at: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(obj) => {
            // `then` branches only add requirements to an already closed object.
            if obj.contains_key("properties")
                && obj.get("type") == Some(&Value::String("object".to_owned()))
                && obj.get("additionalProperties") != Some(&Value::Bool(false))
            {
                out.push(at.to_owned());
            }
            for (k, child) in obj {
                find_open_objects(child, &format!("{at}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                find_open_objects(child, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Check one file: the verdicts agree. Returns whether the schema side ran.
fn agree(
    path: &Path,
    validators: &BTreeMap<Format, jsonschema::Validator>,
    problems: &mut Vec<String>,
) -> bool {
    agree_on(
        &path.display().to_string(),
        &load_file(path),
        validators,
        problems,
    )
}

fn agree_on(
    name: &str,
    l: &Loaded,
    validators: &BTreeMap<Format, jsonschema::Validator>,
    problems: &mut Vec<String>,
) -> bool {
    let Some(doc) = l.doc.as_ref().filter(|_| parsed(l)) else {
        return false;
    };
    let json = doc.root().to_json();
    let Some(fmt) = l.format else {
        // loopconv cannot tell the format: then no schema may accept the file (every schema
        // requires the keys that detection looks for).
        for (f, v) in validators {
            if v.is_valid(&json) {
                problems.push(format!(
                    "{name}: no format detected, but the {f} schema accepts it"
                ));
            }
        }
        return true;
    };
    let (ours, codes) = structural(l);
    let (theirs, errors) = schema_verdict(&validators[&fmt], &json);
    if ours != theirs {
        problems.push(format!(
            "{name} ({}): loopconv says {}{}, the schema says {}{}",
            fmt.name(),
            if ours { "valid" } else { "invalid" },
            if codes.is_empty() {
                String::new()
            } else {
                format!(" ({})", codes.join(", "))
            },
            if theirs { "valid" } else { "invalid" },
            if errors.is_empty() {
                String::new()
            } else {
                format!(": {}", errors.join("; "))
            },
        ));
    }
    true
}

fn all_validators() -> BTreeMap<Format, jsonschema::Validator> {
    Format::ALL.into_iter().map(|f| (f, validator(f))).collect()
}

#[test]
fn schemas_agree_with_loopconv_on_examples() {
    let validators = all_validators();
    let files = loop_files(&examples());
    assert!(!files.is_empty(), "no files in examples/");
    let mut problems = Vec::new();
    let checked = files
        .iter()
        .filter(|f| agree(f, &validators, &mut problems))
        .count();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Most examples are read far enough for the schema side to run.
    assert!(
        checked * 2 > files.len(),
        "only {checked} of {} files were checked",
        files.len()
    );
}

#[test]
fn schemas_agree_with_loopconv_on_the_corpus() {
    let Some(dir) = corpus() else {
        return; // recorded, and named at the end of the run
    };
    let validators = all_validators();
    let files = loop_files(&dir);
    let mut problems = Vec::new();
    for f in &files {
        assert!(
            agree(f, &validators, &mut problems),
            "{} was not checked",
            f.display()
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every file loopconv writes passes the schema of its format: each valid example and
/// corpus file, converted to each format (lossy conversions allowed, agent names given).
#[test]
fn converted_outputs_pass_their_schema() {
    let validators = all_validators();
    let files = support::all_inputs();
    let opts = lossy_options();
    let (mut problems, mut written) = (Vec::new(), 0);
    for f in &files {
        let l = load_file(f);
        let Some((spec, info)) = l.valid() else {
            continue;
        };
        for to in Format::ALL {
            let mut diags = loopconv::diag::Diagnostics::new("out");
            // With `lossy_options`, every valid loop converts to every format: a writer that
            // fails or reports an error is a problem, not a case to leave out.
            let text =
                match loopconv::write(loopconv::Target::Loop(to), spec, info, &opts, &mut diags) {
                    Ok(text) if !diags.has_errors() => text,
                    Ok(_) => {
                        let items = diags.items();
                        problems.push(format!("{} -> {}: {items:?}", f.display(), to.name()));
                        continue;
                    }
                    Err(e) => {
                        problems.push(format!("{} -> {}: {e}", f.display(), to.name()));
                        continue;
                    }
                };
            let out = loopconv::load(
                "out",
                text.as_bytes(),
                &LoadOptions {
                    from: Some(to),
                    ..LoadOptions::default()
                },
            );
            let Some(doc) = &out.doc else {
                problems.push(format!(
                    "{} -> {}: the output does not parse",
                    f.display(),
                    to.name()
                ));
                continue;
            };
            written += 1;
            let (ok, errors) = schema_verdict(&validators[&to], &doc.root().to_json());
            if !ok {
                problems.push(format!(
                    "{} -> {}: {}",
                    f.display(),
                    to.name(),
                    errors.join("; ")
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(written > 0, "nothing was converted");
}

/// The CLI's `loopconv schema agentpm` accepts every valid AgentPM corpus file and rejects
/// the upstream scaffold with its unrendered `{{LOOP_NAME}}`.
#[test]
fn cli_agentpm_schema_judges_the_corpus() {
    let Some(dir) = corpus() else {
        return; // recorded, and named at the end of the run
    };
    let out = support::loopconv()
        .args(["schema", "agentpm"])
        .output()
        .expect("running loopconv schema agentpm");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let schema: Value = serde_json::from_slice(&out.stdout).expect("the schema is JSON");
    let v = jsonschema::draft202012::new(&schema).expect("the schema compiles");
    let files = loop_files(&dir.join("agentpm"));
    assert!(!files.is_empty(), "no AgentPM files in the corpus");
    let mut rejected_template = false;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("reading a corpus file");
        let doc: Value = serde_json::from_str(&text).expect("corpus AgentPM files are JSON");
        let (ok, errors) = schema_verdict(&v, &doc);
        if f.file_name()
            .is_some_and(|n| n == "cli-init-template.loop_agent.json")
        {
            assert!(
                !ok,
                "the schema accepts the unrendered scaffold {}",
                f.display()
            );
            assert!(
                errors.iter().any(|e| e.contains("`/name`")),
                "the scaffold should fail on `name`: {errors:?}"
            );
            rejected_template = true;
        } else {
            assert!(
                ok,
                "{} is valid, but the schema says: {}",
                f.display(),
                errors.join("; ")
            );
            assert!(
                load_file(f).valid().is_some(),
                "{} should pass loopconv check",
                f.display()
            );
        }
    }
    assert!(
        rejected_template,
        "cli-init-template.loop_agent.json is missing from the corpus"
    );
}

/// No example is written in the IR, so the IR schema is checked on IR documents made from
/// the examples and then broken one rule at a time: both verdicts must flip together.
#[test]
fn ir_schema_agrees_with_loopconv_on_broken_ir() {
    use serde_json::json;
    let validators = all_validators();
    let ex = examples();
    let bases: Vec<PathBuf> = loop_files(&ex.join("agentpm"))
        .into_iter()
        .chain(loop_files(&ex.join("mas")))
        .collect();
    // (JSON Pointer of the parent, key, new value or null to remove it)
    let edits: &[(&str, &str, Value)] = &[
        ("", "name", json!("Not_A_Name")),
        ("", "name", json!("")),
        ("", "version", json!("1.0")),
        ("", "archetype", json!("  ")),
        ("", "readme", json!("")),
        ("", "pattern", json!("loop")),
        ("", "pattern", json!("real")),
        ("", "pattern", json!("veal")),
        ("", "unknown", json!(1)),
        ("", "graph", Value::Null),
        ("/graph", "entry", json!("Entry")),
        ("/graph", "phases", json!([])),
        ("/graph", "transitions", json!([])),
        ("/graph/phases/0", "id", json!("bad--id")),
        ("/graph/phases/0", "objective", json!(" \n ")),
        ("/graph/phases/0", "outcomes", json!([])),
        (
            "/graph/phases/0",
            "outcomes",
            json!([{"id": "done", "description": " "}]),
        ),
        ("/graph/phases/0", "access", json!({"memory": {}})),
        ("/graph/phases/0", "access", json!({"tools": "yes"})),
        ("/graph/phases/0", "extra", json!(true)),
        (
            "/graph",
            "checkpoints",
            json!([{"id": "Gate", "before_phase": "x", "on_reject": "$end"}]),
        ),
        ("/bounds", "max_steps", json!(0)),
        ("/bounds", "max_attempts", json!(0)),
        ("/bounds", "escalation", json!("fallback")),
        ("/bounds", "escalation", json!("ask")),
        (
            "/bounds",
            "error_policy",
            json!({"tool_failure": {"action": "retry"}}),
        ),
        (
            "/bounds",
            "error_policy",
            json!({"tool_failure": {"action": "abort", "max_retries": 2}}),
        ),
        (
            "/bounds",
            "error_policy",
            json!({"tool_failure": {"action": "abort", "on_exhausted": "abort"}}),
        ),
        (
            "/bounds",
            "error_policy",
            json!({"tool_failure": {"action": "retry", "max_retries": 0, "on_exhausted": "abort"}, "phase_failure": {"action": "abort"}}),
        ),
        ("/roles", "validator", Value::Null),
        ("/goal", "mission", Value::Null),
        ("/goal", "checks", json!([])),
        ("/goal", "checks", json!([{"id": "Check"}])),
        ("/goal", "inputs", json!([{"type": "string"}])),
    ];
    let (mut problems, mut cases, mut invalid) = (Vec::new(), 0, 0);
    for f in &bases {
        let l = load_file(f);
        let Some((spec, _)) = l.valid() else { continue };
        let base: Value = serde_json::to_value(spec).expect("the IR serialises");
        for (parent, key, value) in edits {
            let mut doc = base.clone();
            let Some(Value::Object(obj)) = doc.pointer_mut(parent) else {
                continue;
            };
            if value.is_null() {
                if obj.remove(*key).is_none() {
                    continue;
                }
            } else {
                obj.insert((*key).to_owned(), value.clone());
            }
            let bytes = serde_json::to_vec_pretty(&doc).expect("JSON");
            let name = format!("{} with {parent}/{key} = {value}", f.display());
            let l = loopconv::load(
                "broken.ir.json",
                &bytes,
                &LoadOptions {
                    from: Some(Format::Ir),
                    ..LoadOptions::default()
                },
            );
            cases += 1;
            invalid += usize::from(!structural(&l).0);
            agree_on(&name, &l, &validators, &mut problems);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        cases > 100 && invalid * 2 > cases,
        "{cases} cases, {invalid} invalid"
    );
}

#[test]
fn schema_prints_json_schemas() {
    for which in loopconv::Format::ALL.map(loopconv::Format::name) {
        let out = loopconv().args(["schema", which]).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "{which}");
        let v = stdout_json(&out);
        assert!(
            v["$schema"].as_str().is_some_and(|s| s.contains("2020-12")),
            "{which}: {}",
            v["$schema"]
        );
        assert_eq!(v["type"], "object", "{which}");
    }
    let out = loopconv()
        .args(["schema", "agentpm"])
        .output()
        .expect("runs");
    let v = stdout_json(&out);
    assert!(v["properties"]["loop"].is_object(), "{v}");
    let required: Vec<&str> = v["required"]
        .as_array()
        .expect("required")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        required.contains(&"loop") && required.contains(&"name"),
        "{required:?}"
    );
}

/// The AgentPM schema refuses a destination that is neither a stable id nor a terminal
/// (`"to": "$fail"`, `"on_reject": "$reject"`), as the AgentPM docs allow no other `$`
/// target. `check` judges it by the reference rules (V009, V016) and their help
/// (`$End`: did you mean `$end`?; `$fail`: the list of terminals), not by the pattern: the
/// shape check leaves destinations to them.
#[test]
fn the_agentpm_schema_refuses_a_terminal_that_does_not_exist() {
    let v = validator(Format::Agentpm);
    let text = std::fs::read_to_string(examples().join("agentpm/code-review-sign-off.json"))
        .expect("example");
    let base: Value = serde_json::from_str(&text).expect("JSON");
    assert!(v.is_valid(&base));
    for (at, bad) in [
        ("/loop/transitions/4/to", "$fail"),
        ("/loop/transitions/4/to", "$End"),
        ("/loop/checkpoints/0/on_reject", "$reject"),
    ] {
        let mut m = base.clone();
        *m.pointer_mut(at).expect("member") = bad.into();
        let errors: Vec<String> = v.iter_errors(&m).map(|e| e.to_string()).collect();
        assert_eq!(errors.len(), 1, "{at} = {bad}: {errors:?}");
        assert!(errors[0].contains("does not match"), "{errors:?}");
        let l = loopconv::load(
            "agent.json",
            m.to_string().as_bytes(),
            &LoadOptions::default(),
        );
        let codes: Vec<Code> = l.diags.items().iter().map(|d| d.code).collect();
        let want = if at.ends_with("to") {
            Code::UnknownTransitionTarget
        } else {
            Code::UnknownRejectTarget
        };
        assert_eq!(codes, [want], "{at} = {bad}");
        // The reference rule's help: the closest terminal, or the list of them.
        let help = l.diags.items()[0].help_text().unwrap_or_default();
        assert!(help.contains("`$"), "{bad}: {help}");
        match bad {
            "$fail" => assert_eq!(
                help,
                "targets are a declared phase or a terminal: `$end` (success), `$abort` (failure), `$handoff` (hand-off)"
            ),
            "$End" => assert_eq!(help, "did you mean `$end`?"),
            _ => {}
        }
    }
    // A phase id or a terminal passes.
    for good in ["review", "$end", "$abort", "$handoff"] {
        let mut m = base.clone();
        *m.pointer_mut("/loop/transitions/4/to").expect("to") = good.into();
        assert!(v.is_valid(&m), "{good}");
    }
}
