//! The round trips of `../shared/spec/mapping.md`, for every valid example and every valid
//! corpus file (`../shared/corpus`, read in place):
//!
//! * `X -> IR -> X` is the same loop: equal IR after re-reading, equal parsed values
//!   (AgentPM: JSON with key order normalised and an empty `limits: {}`, which says
//!   nothing, left out; MAS: effective values, a missing `escalation` is `human`), and no
//!   diagnostic at all (the trip is lossless);
//! * `IR -> IR` gives identical text;
//! * `MAS -> AgentPM -> MAS` (agent names passed back as flags) keeps every field the graph
//!   carries: name, type, description, `max_attempts`, `escalation` (and the agents);
//! * `AgentPM (REAL/VEAL shape) -> MAS -> AgentPM` keeps the graph: entry, phase ids,
//!   outcomes, transitions, `max_steps`;
//! * every output passes loopconv's own validator (no error, no `B004`) and the JSON Schema
//!   loopconv publishes for its format (checked with the independent `jsonschema` crate).

mod common;

use std::path::{Path, PathBuf};

use common::{corpus, examples, load_file_as, loop_files, read as read_bytes, rel, repo};
use loopconv::back;
use loopconv::diag::{Code, Diagnostics};
use loopconv::front::vocabulary::KEYS;
use loopconv::ir::{Escalation, FixedLoop, Pattern, Spec};
use loopconv::tree::{self, Limits};
use loopconv::valid::Info;
use loopconv::{Format, LoadOptions};
use serde_json::Value;

/// The corpus file that is invalid on purpose (unrendered `{{LOOP_NAME}}`).
const INVALID_CORPUS: &str = "cli-init-template.loop_agent.json";

/// The valid `*.ext` files of a folder (that must hold some).
fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let out: Vec<PathBuf> = loop_files(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .filter(|p| p.file_name().is_some_and(|n| n != INVALID_CORPUS))
        .collect();
    assert!(!out.is_empty(), "no *.{ext} in {}", dir.display());
    out
}

fn the_corpus() -> PathBuf {
    corpus().expect("the round trips need ../shared/corpus")
}

/// Every valid AgentPM input: the examples and the corpus.
fn agentpm_inputs() -> Vec<PathBuf> {
    let mut v = files_in(&examples().join("agentpm"), "json");
    v.extend(files_in(&the_corpus().join("agentpm"), "json"));
    v
}

fn mas_inputs() -> Vec<PathBuf> {
    let mut v = files_in(&examples().join("mas"), "yaml");
    v.extend(files_in(&the_corpus().join("mas"), "yaml"));
    v
}

/// Read a file that must be valid (warnings allowed: seed 000 has no `kind`).
fn read(path: &Path, from: Format) -> (Spec, Info, String) {
    let name = rel(path);
    let l = load_file_as(path, Some(from));
    let (spec, info) = l
        .valid()
        .unwrap_or_else(|| panic!("{name} must be valid: {:#?}", l.diags.items()));
    let text = String::from_utf8(read_bytes(path)).expect("UTF-8");
    (spec.clone(), info.clone(), text)
}

/// Re-read an output: it must pass loopconv's validator (no error).
fn reread(what: &str, text: &str, fmt: Format) -> (Spec, Info) {
    let l = loopconv::load(
        what,
        text.as_bytes(),
        &LoadOptions {
            from: Some(fmt),
            ..LoadOptions::default()
        },
    );
    let (spec, info) = l
        .valid()
        .unwrap_or_else(|| panic!("{what} fails validation: {:#?}\n{text}", l.diags.items()));
    (spec.clone(), info.clone())
}

/// Convert; the output is checked by `loopconv::write` itself (no `B004`) and must be free of
/// errors. Returns the text and the diagnostics (lossy warnings).
fn convert(
    what: &str,
    spec: &Spec,
    info: &Info,
    to: Format,
    opts: &back::Options,
) -> (String, Diagnostics) {
    let mut diags = Diagnostics::new(what);
    let text = loopconv::write(loopconv::Target::Loop(to), spec, info, opts, &mut diags)
        .unwrap_or_else(|e| panic!("{what} --to {}: {e}", to.name()));
    assert!(
        !diags.items().iter().any(|d| d.code == Code::InvalidOutput),
        "{what} --to {}: the output fails loopconv's own validator: {:#?}",
        to.name(),
        diags.items()
    );
    assert!(
        !diags.has_errors(),
        "{what} --to {}: {:#?}",
        to.name(),
        diags.items()
    );
    assert_schema_valid(&format!("{what} --to {}", to.name()), &text, to);
    (text, diags)
}

fn lossy() -> back::Options {
    back::Options {
        allow_lossy: true,
        ..back::Options::default()
    }
}

fn strict() -> back::Options {
    back::Options::default()
}

/// Parse YAML with loopconv's own located reader into a JSON value.
fn yaml_value(what: &str, text: &str) -> Value {
    let mut d = Diagnostics::new(what);
    let doc = tree::parse_yaml(text.to_owned(), &KEYS, &Limits::default(), &mut d)
        .unwrap_or_else(|| panic!("{what}: {:#?}", d.items()));
    assert!(d.is_empty(), "{what}: {:#?}", d.items());
    doc.root.to_json()
}

fn json_value(what: &str, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// Objects with their keys in sorted order, recursively.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&m[k])))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// The loop with MAS defaults spelled out: the MAS writer always writes `escalation`
/// (formats.md 2.5), and an absent `escalation` means `human`.
fn effective(spec: &Spec) -> Spec {
    let mut s = spec.clone();
    if matches!(s.pattern, Pattern::Real | Pattern::Veal) {
        s.bounds.escalation = Some(s.effective_escalation());
    }
    s
}

/// An AgentPM manifest without an empty `loop.limits` object: `limits: {}` says nothing,
/// and the writer leaves it out.
fn without_empty_limits(mut v: Value) -> Value {
    if let Some(Value::Object(l)) = v.get_mut("loop")
        && l.get("limits")
            .and_then(Value::as_object)
            .is_some_and(|m| m.is_empty())
    {
        l.remove("limits");
    }
    v
}

/// MAS effective values: `escalation` absent is `human`.
fn mas_effective(v: &Value) -> Value {
    let mut v = sorted(v);
    if let Value::Object(m) = &mut v {
        m.entry("escalation")
            .or_insert_with(|| Value::String("human".to_owned()));
    }
    sorted(&v)
}

/// The output agrees with the JSON Schema loopconv publishes for its format.
fn assert_schema_valid(what: &str, text: &str, fmt: Format) {
    let value = match fmt {
        Format::Agentpm | Format::Ir => json_value(what, text),
        Format::Mas => yaml_value(what, text),
    };
    let validator = jsonschema::validator_for(loopconv::model::schema(fmt))
        .unwrap_or_else(|e| panic!("the {} schema does not compile: {e}", fmt.name()));
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| format!("{}: {e}", e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "{what}: the published schema rejects the output: {errors:#?}\n{text}"
    );
}

/// `X -> IR -> X` and `IR -> IR` for one file.
fn x_ir_x(path: &Path, fmt: Format) {
    let name = rel(path);
    let (spec, info, input) = read(path, fmt);

    let (ir_text, d) = convert(&name, &spec, &info, Format::Ir, &strict());
    assert!(
        d.is_empty(),
        "{name} --to ir is never lossy: {:#?}",
        d.items()
    );
    let (from_ir, from_ir_info) = reread(&format!("{name} (IR)"), &ir_text, Format::Ir);
    assert_eq!(
        ir_json(&from_ir),
        ir_json(&spec),
        "{name}: X -> IR changes the loop"
    );

    // IR -> IR: identical text.
    let (ir_again, _) = convert(&name, &from_ir, &from_ir_info, Format::Ir, &strict());
    assert_eq!(ir_again, ir_text, "{name}: IR -> IR changes the text");

    // IR -> X: lossless (no diagnostic even without --allow-lossy), same loop, same values.
    let (back, d) = convert(&name, &from_ir, &from_ir_info, fmt, &strict());
    // B005 (a port `schema` written into YAML) is an interoperability warning, not a loss.
    let d: Vec<_> = d
        .items()
        .iter()
        .filter(|d| d.code != loopconv::diag::Code::WrittenPortSchema)
        .collect();
    assert!(
        d.is_empty(),
        "{name}: IR -> {} reports losses: {:#?}",
        fmt.name(),
        d
    );
    let (back_spec, _) = reread(&format!("{name} (back)"), &back, fmt);
    assert_eq!(
        ir_json(&effective(&back_spec)),
        ir_json(&effective(&spec)),
        "{name}: X -> IR -> X changes the loop"
    );
    match fmt {
        Format::Agentpm => assert_eq!(
            sorted(&json_value(&name, &back)),
            sorted(&without_empty_limits(json_value(&name, &input))),
            "{name}: X -> IR -> X changes the JSON value\n{back}"
        ),
        Format::Mas => assert_eq!(
            mas_effective(&yaml_value(&name, &back)),
            mas_effective(&yaml_value(&name, &input)),
            "{name}: X -> IR -> X changes the MAS values\n{back}"
        ),
        Format::Ir => unreachable!(),
    }
}

#[test]
fn agentpm_ir_agentpm() {
    for path in agentpm_inputs() {
        x_ir_x(&path, Format::Agentpm);
    }
}

/// A `null` written in a pass-through field (a port's `schema` or `default`) is not the same
/// as a missing key: it survives `X -> IR -> X` (found by the `roundtrip` fuzz target).
/// (`environment: null` was the third such case; upstream rejects it, and so does loopconv
/// now: `tests/regressions/agentpm-environment-null.json` is an `F003`.)
#[test]
fn null_values_survive_the_round_trip() {
    let dir = common::repo().join("tests/regressions");
    let mas: Vec<PathBuf> = files_in(&dir, "yaml")
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("-null-dropped."))
        .collect();
    assert_eq!(mas.len(), 2, "the null regression files");
    for path in mas {
        x_ir_x(&path, Format::Mas);
    }
}

#[test]
fn mas_ir_mas() {
    for path in mas_inputs() {
        x_ir_x(&path, Format::Mas);
    }
}

/// Seed 000 is the real react loop without `kind` and `$schema`: it is read (with warnings),
/// and written back with `kind: "loop"` (upstream requires it; every file loopconv writes
/// passes the upstream schema) and otherwise unchanged (`$schema` is optional upstream, so
/// it is not invented).
#[test]
fn seed_without_kind_is_written_with_kind() {
    let path = repo().join("../shared/seeds/000_569ad6a5b24f8e1e.txt");
    let (spec, info, input) = read(&path, Format::Agentpm);
    let read_warnings = load_file_as(&path, Some(Format::Agentpm)).diags;
    assert!(
        read_warnings
            .items()
            .iter()
            .any(|d| d.code == Code::MissingKind),
        "seed 000 has no `kind`: {:#?}",
        read_warnings.items()
    );
    let (back, d) = convert("seed 000", &spec, &info, Format::Agentpm, &strict());
    assert!(d.is_empty(), "{:#?}", d.items());
    let mut expected = json_value("seed 000", &input);
    expected
        .as_object_mut()
        .expect("object")
        .insert("kind".to_owned(), Value::String("loop".to_owned()));
    assert_eq!(
        sorted(&json_value("seed 000 (back)", &back)),
        sorted(&expected),
        "{back}"
    );
    let (back_spec, _) = reread("seed 000 (back)", &back, Format::Agentpm);
    let again = loopconv::load(
        "seed 000 (back)",
        back.as_bytes(),
        &LoadOptions {
            from: Some(Format::Agentpm),
            ..LoadOptions::default()
        },
    );
    assert!(
        again
            .diags
            .items()
            .iter()
            .all(|d| d.code != Code::MissingKind),
        "{:#?}",
        again.diags.items()
    );
    assert_eq!(ir_json(&back_spec.graph), ir_json(&spec.graph));
}

/// `MAS -> AgentPM -> MAS` keeps every field the graph carries.
#[test]
fn mas_agentpm_mas() {
    for path in mas_inputs() {
        let name = rel(&path);
        let (spec, info, _) = read(&path, Format::Mas);
        let (agentpm, _) = convert(&name, &spec, &info, Format::Agentpm, &lossy());
        let (a_spec, a_info) = reread(&format!("{name} (AgentPM)"), &agentpm, Format::Agentpm);
        assert!(
            FixedLoop::recognise(&a_spec).is_some(),
            "{name}: the AgentPM graph lost the REAL/VEAL shape"
        );
        let flags = back::Options {
            allow_lossy: true,
            actor: spec.roles.actor.clone(),
            validator: spec.roles.validator.clone(),
            fallback_agent: spec.roles.fallback_agent.clone(),
            ..back::Options::default()
        };
        let (mas, _) = convert(
            &format!("{name} (AgentPM)"),
            &a_spec,
            &a_info,
            Format::Mas,
            &flags,
        );
        let (back, _) = reread(&format!("{name} (MAS again)"), &mas, Format::Mas);

        assert_eq!(back.name, spec.name, "{name}: name");
        assert_eq!(back.pattern, spec.pattern, "{name}: type");
        assert!(matches!(back.pattern, Pattern::Real | Pattern::Veal));
        match &spec.description {
            Some(d) => assert_eq!(back.description.as_ref(), Some(d), "{name}: description"),
            // AgentPM requires a description, so the conversion writes one; it comes back.
            None => assert_eq!(
                back.description.as_deref(),
                a_spec.description.as_deref(),
                "{name}: description"
            ),
        }
        assert_eq!(
            back.effective_max_attempts(),
            spec.effective_max_attempts(),
            "{name}: max_attempts"
        );
        assert_eq!(
            back.effective_escalation(),
            spec.effective_escalation(),
            "{name}: escalation"
        );
        assert_eq!(
            back.roles, spec.roles,
            "{name}: agents passed back as flags"
        );
        // The graph the MAS loop stands for is the same too.
        assert_eq!(graph_key(&back), graph_key(&spec), "{name}: graph");
    }
}

/// The parts of the graph a REAL/VEAL round trip must keep: entry, phase ids with their
/// outcome ids, transitions, max_steps.
type GraphKey = (
    String,
    Vec<(String, Vec<String>)>,
    Vec<(String, String, String)>,
    Option<u64>,
);

fn graph_key(s: &Spec) -> GraphKey {
    let g = &s.graph;
    (
        g.entry.clone(),
        g.phases
            .iter()
            .map(|p| {
                (
                    p.id.clone(),
                    p.outcome_ids().iter().map(|o| (*o).to_owned()).collect(),
                )
            })
            .collect(),
        g.transitions
            .iter()
            .map(|t| (t.from.clone(), t.on.clone(), t.to.as_str().to_owned()))
            .collect(),
        s.bounds.max_steps,
    )
}

/// `AgentPM (REAL/VEAL shape) -> MAS -> AgentPM` keeps the graph. The shaped AgentPM files
/// are the conversions of every MAS input, plus the VEAL-shaped AgentPM file of
/// `examples/invalid/convert/` (valid, it only needs `--validator` to convert).
#[test]
fn shaped_agentpm_mas_agentpm() {
    let mut shaped: Vec<(String, String, Option<Escalation>, Option<String>)> = Vec::new();
    for path in mas_inputs() {
        let name = rel(&path);
        let (spec, info, _) = read(&path, Format::Mas);
        let (agentpm, _) = convert(&name, &spec, &info, Format::Agentpm, &lossy());
        shaped.push((
            format!("{name} (AgentPM)"),
            agentpm,
            spec.bounds.escalation,
            spec.roles.fallback_agent.clone(),
        ));
    }
    let b003 = examples().join("invalid/convert/B003-missing-role-flag.json");
    let (_, _, text) = read(&b003, Format::Agentpm);
    shaped.push((rel(&b003), text, None, None));

    for (name, text, escalation, fallback) in shaped {
        let (spec, info) = reread(&name, &text, Format::Agentpm);
        let shape =
            FixedLoop::recognise(&spec).unwrap_or_else(|| panic!("{name}: no REAL/VEAL shape"));
        let flags = back::Options {
            fallback_agent: fallback,
            ..common::lossy_options()
        };
        let (mas, _) = convert(&name, &spec, &info, Format::Mas, &flags);
        let (m_spec, m_info) = reread(&format!("{name} (MAS)"), &mas, Format::Mas);
        assert_eq!(m_spec.pattern, shape.fixed.pattern, "{name}: type");
        assert!(
            matches!(m_spec.pattern, Pattern::Real | Pattern::Veal),
            "{name}: type"
        );
        if let Some(e) = escalation {
            assert_eq!(
                m_spec.effective_escalation(),
                e,
                "{name}: escalation recovered from the graph"
            );
        }
        let (again, _) = convert(
            &format!("{name} (MAS)"),
            &m_spec,
            &m_info,
            Format::Agentpm,
            &lossy(),
        );
        let (a_spec, _) = reread(&format!("{name} (AgentPM again)"), &again, Format::Agentpm);
        assert_eq!(graph_key(&a_spec), graph_key(&spec), "{name}: graph");
    }
}

/// A value's content as IR JSON: provenance is not content (`loopconv::ir::same_content`).
fn ir_json<T: serde::Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).expect("the IR serialises")
}
