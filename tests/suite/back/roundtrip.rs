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

use crate::support::{
    corpus, examples, ir_json, load_file_as, loop_files, read as read_bytes, rel,
};
use loopconv::back;
use loopconv::diag::{Code, Diagnostics};
use loopconv::front::vocabulary::KEYS;
use loopconv::ir::{LoopPattern, Spec};
use loopconv::tree::{self, ReadLimits};
use loopconv::valid::Info;
use loopconv::{Format, LoadOptions};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The corpus file that is invalid on purpose (unrendered `{{LOOP_NAME}}`).
pub(crate) const INVALID_CORPUS: &str = "cli-init-template.loop_agent.json";

/// The valid `*.ext` files of a folder (that must hold some).
pub(crate) fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let out: Vec<PathBuf> = loop_files(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .filter(|p| p.file_name().is_some_and(|n| n != INVALID_CORPUS))
        .collect();
    assert!(!out.is_empty(), "no *.{ext} in {}", dir.display());
    out
}

/// The corpus files of one format's folder; none, the skip recorded (and named at the end
/// of the run), without ../shared.
pub(crate) fn corpus_files(folder: &str, ext: &str) -> Vec<PathBuf> {
    corpus().map_or_else(Vec::new, |c| files_in(&c.join(folder), ext))
}

/// Every valid AgentPM input: the examples and the corpus.
pub(crate) fn agentpm_inputs() -> Vec<PathBuf> {
    let mut v = files_in(&examples().join("agentpm"), "json");
    v.extend(corpus_files("agentpm", "json"));
    v
}

pub(crate) fn mas_inputs() -> Vec<PathBuf> {
    let mut v = files_in(&examples().join("mas"), "yaml");
    v.extend(corpus_files("mas", "yaml"));
    v
}

/// Read a file that must be valid (warnings allowed: seed 000 has no `kind`).
pub(crate) fn read(path: &Path, from: Format) -> (Spec, Info, String) {
    let name = rel(path);
    let l = load_file_as(path, Some(from));
    let (spec, info) = l
        .valid()
        .unwrap_or_else(|| panic!("{name} must be valid: {:#?}", l.diags.items()));
    let text = String::from_utf8(read_bytes(path)).expect("UTF-8");
    (spec.clone(), info.clone(), text)
}

/// Re-read an output: it must pass loopconv's validator (no error).
pub(crate) fn reread(what: &str, text: &str, fmt: Format) -> (Spec, Info) {
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
pub(crate) fn convert(
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

pub(crate) fn lossy() -> back::Options {
    back::Options {
        allow_lossy: true,
        ..back::Options::default()
    }
}

pub(crate) fn strict() -> back::Options {
    back::Options::default()
}

/// Parse YAML with loopconv's own located reader into a JSON value.
pub(crate) fn yaml_value(what: &str, text: &str) -> Value {
    let mut d = Diagnostics::new(what);
    let doc = tree::parse_yaml(text.to_owned(), &KEYS, &ReadLimits::default(), &mut d)
        .unwrap_or_else(|| panic!("{what}: {:#?}", d.items()));
    assert!(d.is_empty(), "{what}: {:#?}", d.items());
    doc.root().to_json()
}

pub(crate) fn json_value(what: &str, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// Objects with their keys in sorted order, recursively.
pub(crate) fn sorted(v: &Value) -> Value {
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
pub(crate) fn effective(spec: &Spec) -> Spec {
    let mut s = spec.clone();
    if matches!(s.pattern, LoopPattern::Real | LoopPattern::Veal) {
        s.bounds.escalation = Some(s.effective_escalation());
    }
    s
}

/// An AgentPM manifest without an empty `loop.limits` object: `limits: {}` says nothing,
/// and the writer leaves it out.
pub(crate) fn without_empty_limits(mut v: Value) -> Value {
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
pub(crate) fn mas_effective(v: &Value) -> Value {
    let mut v = sorted(v);
    if let Value::Object(m) = &mut v {
        m.entry("escalation")
            .or_insert_with(|| Value::String("human".to_owned()));
    }
    sorted(&v)
}

/// The output agrees with the JSON Schema loopconv publishes for its format.
pub(crate) fn assert_schema_valid(what: &str, text: &str, fmt: Format) {
    let value = match fmt {
        Format::Agentpm | Format::Ir | Format::Xstate => json_value(what, text),
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
pub(crate) fn x_ir_x(path: &Path, fmt: Format) {
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
        Format::Ir | Format::Xstate => unreachable!(),
    }
}

/// The parts of the graph a REAL/VEAL round trip must keep: entry, phase ids with their
/// outcome ids, transitions, max_steps.
pub(crate) type GraphKey = (
    String,
    Vec<(String, Vec<String>)>,
    Vec<(String, String, String)>,
    Option<u64>,
);

pub(crate) fn graph_key(s: &Spec) -> GraphKey {
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
