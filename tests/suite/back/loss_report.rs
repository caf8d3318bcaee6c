//! The loss report is complete and exact (issue 22, item 7a; issue 18, item 4), for every
//! valid example and corpus loop and for generated loops, and each cross-format conversion
//! (AgentPM -> MAS with the agent flags, MAS -> AgentPM):
//!
//! * a loop-level field present in the source and absent or different in the re-read
//!   output (compared on effective values, `loopconv::ir::effective`: a default written
//!   out is no difference) is named by a `B001` at the field's place in the source, and
//!   every `B001` names a field that really is missing from the output;
//! * a `B001` that says where the value went ("it is named in the `act` objective") is
//!   held to that: the output has that phase, and converting the output back restores the
//!   value exactly;
//! * `X -> Y -> X` restores every field the report does not name, and a second round trip
//!   is a fixed point: `X -> Y -> X -> Y` is the same file as `X -> Y`.

use crate::support::generators::{agentpm_spec, config, load_ok, mas_loop, write};
use crate::support::{self, ir_json};

use loopconv::diag::{Code, Diagnostics};
use loopconv::ir::effective::{lift_shape, with_defaults};
use loopconv::ir::provenance::{Field, ir_pointer};
use loopconv::ir::{LoopPattern, Spec};
use loopconv::{Format, LoadOptions, Target};
use proptest::prelude::{TestCaseError, prop_assert, proptest};
use serde_json::Value;
use std::collections::BTreeSet;

/// Every loop-level field (the library's list; the match in [`rule`] names each).
const FIELDS: [Field; 26] = Field::ALL;

/// How the report must treat a field that differs after the conversion.
#[derive(Debug, PartialEq)]
enum Rule {
    /// Dropped or changed: a `B001` must name it.
    Reported,
    /// Translated into the other format's own terms, not lost, so no `B001` is due:
    /// `$schema` points editors at the source format's schema (the guide, `docs/src/formats.md`);
    /// the pattern is carried by the graph's shape or by MAS `type`; `max_steps` and
    /// `max_attempts` are converted into each other (`B002` when inexact); the
    /// tool-failure rule is part of the error policy.
    Translated,
}

fn rule(field: Field) -> Rule {
    match field {
        Field::SchemaUri
        | Field::Pattern
        | Field::MaxSteps
        | Field::MaxAttempts
        | Field::ToolFailure => Rule::Translated,
        Field::Name
        | Field::Description
        | Field::Version
        | Field::Readme
        | Field::License
        | Field::Environment
        | Field::Archetype
        | Field::Entry
        | Field::Phases
        | Field::Transitions
        | Field::Checkpoints
        | Field::ErrorPolicy
        | Field::Actor
        | Field::Validator
        | Field::FallbackAgent
        | Field::Mission
        | Field::SuccessCriteria
        | Field::Checks
        | Field::Inputs
        | Field::Outputs
        | Field::Escalation => Rule::Reported,
    }
}

/// A field's value in a loop's IR JSON (`None`: absent or `null`).
fn value(ir: &Value, field: Field) -> Option<Value> {
    ir.pointer(ir_pointer(field))
        .filter(|v| !v.is_null())
        .cloned()
}

/// Two loops as the report compares them: defaults written out, and a graph of a fixed
/// loop's shape read as that loop (from its structure, not its text) when the other is a
/// MAS loop.
fn effective_pair(a: &Spec, b: &Spec) -> (Value, Value) {
    let side = |s: &Spec, other: &Spec| {
        let s = if other.pattern == LoopPattern::General {
            s.clone()
        } else {
            lift_shape(s)
        };
        ir_json(&with_defaults(&s))
    };
    (side(a, b), side(b, a))
}

/// The fields present in `src` and absent or different in `out`.
fn missing(src: &Spec, out: &Spec) -> BTreeSet<FieldKey> {
    let (a, b) = effective_pair(src, out);
    FIELDS
        .into_iter()
        .filter(|&f| value(&a, f).is_some() && value(&a, f) != value(&b, f))
        .map(FieldKey)
        .collect()
}

/// `Field` printed by name.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct FieldKey(Field);

impl std::fmt::Debug for FieldKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// The fields whose source pointer a diagnostic's pointer is.
fn fields_at(src: &Spec, pointer: &str) -> Vec<Field> {
    FIELDS
        .into_iter()
        .filter(|&f| src.provenance.pointer(f) == pointer)
        .collect()
}

/// `named in the `x` objective`, `written into the `x` objective as text`: the phase `x`.
fn claimed_phase(message: &str) -> Option<&str> {
    let (_, rest) = message.split_once("; ")?;
    let rest = rest
        .strip_suffix(" objective as text")
        .or_else(|| rest.strip_suffix(" objective"))?;
    let start = rest.rfind(" `")? + 2;
    rest[start..].strip_suffix('`')
}

/// One conversion: its output text, the re-read output and the report.
struct Converted {
    text: String,
    out: Spec,
    diags: Diagnostics,
}

fn convert_spec(what: &str, src: &Spec, to: Format) -> Result<Converted, String> {
    let mut diags = Diagnostics::new("out");
    let info = loopconv::valid::validate(src, &mut Diagnostics::new("again"));
    let opts = support::lossy_options();
    let text = loopconv::write(Target::Loop(to), src, &info, &opts, &mut diags)
        .map_err(|e| format!("{what} -> {to:?}: {e:?}"))?;
    let back = loopconv::load(
        &format!("out.{}", to.extension()),
        text.as_bytes(),
        &LoadOptions::default(),
    );
    let out = back.valid().map(|(s, _)| s.clone()).ok_or_else(|| {
        format!(
            "{what} -> {to:?} is not valid: {:#?}\n{text}",
            back.diags.items()
        )
    })?;
    Ok(Converted { text, out, diags })
}

/// Every problem of the loss report of `src -> to`, and of the round trip back.
fn problems(what: &str, src: &Spec, to: Format) -> Result<Vec<String>, String> {
    let from = src.provenance.read_as;
    let tag = format!("{what} -> {to:?} ({:?})", src.pattern);
    let y = convert_spec(what, src, to)?;
    let x2 = convert_spec(&format!("{what} (back)"), &y.out, from)?;
    let y2 = convert_spec(&format!("{what} (again)"), &x2.out, to)?;
    let mut out = Vec::new();
    let missing = missing(src, &y.out);
    let mut named = BTreeSet::new();
    for d in y.diags.items() {
        let fields = match d.code {
            Code::LostField => fields_at(src, &d.location.pointer),
            Code::InexactBound => vec![Field::MaxSteps],
            _ => continue,
        };
        named.extend(fields.iter().copied().map(FieldKey));
        if d.code == Code::LostField && !fields.iter().any(|f| missing.contains(&FieldKey(*f))) {
            out.push(format!(
                "{tag}: B001 on a field that is not lost: {}",
                d.message
            ));
        }
        if let Some(phase) = claimed_phase(&d.message)
            && y.out.phase(phase).is_none()
        {
            out.push(format!(
                "{tag}: no phase `{phase}` holds what {}",
                d.message
            ));
        }
    }
    // Phase ids renamed (reported on `Phases`) change the entry and transitions with them.
    let renamed = named.contains(&FieldKey(Field::Phases));
    let excused = |f: &FieldKey| {
        named.contains(f)
            || rule(f.0) == Rule::Translated
            || (renamed && matches!(f.0, Field::Entry | Field::Transitions))
    };
    for m in missing.iter().filter(|f| !excused(f)) {
        out.push(format!("{tag}: {m:?} is lost without a B001"));
    }
    // X -> Y -> X restores every field the report does not name (those it claims are in an
    // objective included), and X -> Y -> X -> Y is X -> Y.
    for m in self::missing(src, &x2.out).iter().filter(|f| !excused(f)) {
        out.push(format!("{tag}: {m:?} does not come back"));
    }
    if y2.text != y.text {
        let first = y.text.lines().zip(y2.text.lines()).find(|(a, b)| a != b);
        out.push(format!("{tag}: not a fixed point: {first:?}\n{}", y.text));
    }
    Ok(out)
}

/// Every valid AgentPM and MAS loop of `examples/` and the corpus, converted to the other
/// format.
#[test]
fn every_lost_field_is_reported_and_every_report_is_a_loss() {
    let mut patterns = BTreeSet::new();
    let mut all = Vec::new();
    for f in support::all_inputs() {
        let l = support::load_file(&f);
        let Some((src, _)) = l.valid() else { continue };
        for to in [Format::Agentpm, Format::Mas] {
            if src.provenance.read_as == to || src.provenance.read_as == Format::Ir {
                continue;
            }
            patterns.insert(format!("{:?} -> {to:?}", src.pattern));
            all.extend(problems(&support::rel(&f), src, to).unwrap_or_else(|e| vec![e]));
        }
    }
    // The examples alone hold AgentPM and MAS loops of every pattern.
    for p in ["General -> Mas", "Real -> Agentpm", "Veal -> Agentpm"] {
        assert!(patterns.contains(p), "no {p} conversion");
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

/// The must-show cases of issue 18: REAL -> AgentPM -> REAL returns the mission and the
/// success criteria byte for byte; VEAL -> AgentPM -> VEAL -> AgentPM gives the same file
/// twice; the validator's phase is read-only.
#[test]
fn mas_text_comes_back_byte_for_byte() {
    let real = "name: feature-impl\ntype: REAL\nactor: developer\nmission: |\n  Implement user authentication with OAuth2 support.\n  Must include login, logout, and session management.\nmax_attempts: 5\nsuccess_criteria: |\n  All authentication flows work correctly.\n  Tests pass. Documentation updated.\n";
    let l = loopconv::load("real.yaml", real.as_bytes(), &LoadOptions::default());
    let (src, _) = l.valid().expect("valid");
    let y = convert_spec("real", src, Format::Agentpm).expect("converts");
    let x2 = convert_spec("real (back)", &y.out, Format::Mas).expect("converts back");
    assert_eq!(
        x2.out.goal.mission.as_deref(),
        Some(
            "Implement user authentication with OAuth2 support.\nMust include login, logout, and session management.\n"
        )
    );
    assert_eq!(
        x2.out.goal.success_criteria.as_deref(),
        Some("All authentication flows work correctly.\nTests pass. Documentation updated.\n")
    );
    let veal = support::read(&support::examples().join("mas/veal-release-gate.yaml"));
    let l = loopconv::load("veal.yaml", &veal, &LoadOptions::default());
    let (src, _) = l.valid().expect("valid");
    let y = convert_spec("veal", src, Format::Agentpm).expect("converts");
    let x2 = convert_spec("veal (back)", &y.out, Format::Mas).expect("converts back");
    let y2 = convert_spec("veal (again)", &x2.out, Format::Agentpm).expect("converts again");
    assert_eq!(y2.text, y.text);
    assert!(
        !y.diags.has_errors() || y.diags.items().iter().all(|d| d.code == Code::LostField),
        "{:#?}",
        y.diags.items()
    );
    let validate = y.out.phase("validate").expect("a validate phase");
    let write = validate
        .access
        .as_ref()
        .and_then(|a| a.memory.as_ref())
        .and_then(|m| m.write);
    assert_eq!(write, Some(false), "seed 004: the validator is read-only");
}

proptest! {
    #![proptest_config(config(48))]

    /// Generated AgentPM loops: the report of `AgentPM -> MAS` is exact, and the round trip
    /// restores and repeats.
    #[test]
    fn generated_agentpm_loss_reports_are_exact(spec in agentpm_spec()) {
        let text = write(Target::Loop(Format::Agentpm), &spec);
        let l = load_ok("gen.json", &text, None)?;
        let (src, _) = l.valid().expect("checked by load_ok");
        let p = problems("gen.json", src, Format::Mas).map_err(TestCaseError::fail)?;
        prop_assert!(p.is_empty(), "{}\n{text}", p.join("\n"));
    }

    /// Generated MAS loops: the report of `MAS -> AgentPM` is exact, and the round trip
    /// restores and repeats.
    #[test]
    fn generated_mas_loss_reports_are_exact(lp in mas_loop()) {
        let text = loopconv::back::mas::to_yaml(&lp).expect("YAML");
        let l = load_ok("gen.yaml", &text, None)?;
        let (src, _) = l.valid().expect("checked by load_ok");
        let p = problems("gen.yaml", src, Format::Agentpm).map_err(TestCaseError::fail)?;
        prop_assert!(p.is_empty(), "{}\n{text}", p.join("\n"));
    }
}
