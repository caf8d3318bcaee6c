//! `X -> IR -> X` is exact: arbitrary bytes read with every `--from` (as `.json` and as
//! `.yaml`, like `check`); every input that loads with no error is written back in its own
//! format without `--allow-lossy`, and
//!
//! 1. the writer reports no error, and its text reads back as the same format with no error
//!    and the same loop (`ir::Spec` equality; provenance never compares);
//! 2. for AgentPM and MAS, the document read back has the same value as the input (keys in
//!    any order): what the front end drops while reading never reaches the `Spec`, so only
//!    this catches it (`tests/roundtrip.rs` asserts the same on the examples);
//! 3. the loop written as IR reads back with no error and is the same loop, and that loop
//!    written in the original format gives the same text as writing it directly.
//!
//! The comparisons normalise only what the writers document as always written (see
//! [`normalise`] and [`normalise_value`]); any other difference is a loss and panics with
//! both values.

use loopconv::back;
use loopconv::diag::{Diagnostics, Severity};
use loopconv::ir::{LoopPattern, Spec};
use loopconv::valid::Info;
use loopconv::{Format, LoadOptions, Loaded, load};
use serde_json::Value;

/// One fuzz input: panics on a bug, returns on anything else.
pub fn run(data: &[u8]) {
    for name in ["fuzz.json", "fuzz.yaml"] {
        for from in Format::ALL {
            let l = load(name, data, &opts(from));
            assert!(l.valid().is_some() || !l.diags.is_empty());
            round_trip(name, from, &l);
        }
    }
}

fn opts(from: Format) -> LoadOptions {
    LoadOptions {
        from: Some(from),
        ..LoadOptions::default()
    }
}

/// Exactly what the CLI does without `--allow-lossy` and without agent flags.
fn strict() -> back::Options {
    back::Options {
        allow_lossy: false,
        ..back::Options::default()
    }
}

/// The file name the output is read back as: the format's usual extension, so that MAS is
/// read as YAML and AgentPM and IR as JSON, as the CLI reads a converted file.
fn out_name(f: Format) -> String {
    format!("roundtrip.{}", f.extension())
}

/// Write `spec` as `to`; the writer (which also reads its output back and validates it,
/// `B004`) must report no error.
fn write(what: &str, spec: &Spec, info: &Info, to: Format) -> String {
    let mut diags = Diagnostics::new(what);
    let text = loopconv::write(
        loopconv::Target::Loop(to),
        spec,
        info,
        &strict(),
        &mut diags,
    )
    .unwrap_or_else(|e| panic!("{what}: writing {} failed: {e}", to.name()));
    let errors: Vec<_> = diags
        .items()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(
        errors.is_empty(),
        "{what}: writing {} without --allow-lossy reports errors: {errors:#?}\n--- spec ---\n{}\n--- output ---\n{text}",
        to.name(),
        clip(&ir_json(spec)),
    );
    text
}

/// Read `text` back as `fmt`; it must load with no error.
fn reread(what: &str, text: &str, fmt: Format) -> Loaded {
    let l = load(&out_name(fmt), text.as_bytes(), &opts(fmt));
    assert!(
        l.valid().is_some(),
        "{what}: the {} output does not read back without errors: {:#?}\n--- output ---\n{}",
        fmt.name(),
        l.diags.items(),
        clip(text)
    );
    l
}

fn valid(l: &Loaded) -> (&Spec, &Info) {
    l.valid().expect("checked by reread")
}

/// The documented normalisations of writing a loop back in format `f`: fields the writer
/// always spells out, so that a loop that left them implicit reads back with them explicit.
/// Nothing else is touched.
fn normalise(spec: &Spec, f: Format) -> Spec {
    let mut s = spec.clone();
    match f {
        // A missing `kind` is a warning on input (F010) and is not in the IR: nothing to
        // normalise in the Spec (see `normalise_value` for the document).
        Format::Agentpm => {}
        // src/back/mas.rs (module doc, `from_mas_spec`): `escalation` is always spelled
        // out, so the output passes the upstream schema despite its `fallback_agent` bug.
        // An absent `escalation` means `human` (`Spec::effective_escalation`), so it reads
        // back as `Some(Human)`. The derived graph already uses the effective value.
        Format::Mas => {
            if matches!(s.pattern, LoopPattern::Real | LoopPattern::Veal) {
                s.bounds.escalation = Some(s.effective_escalation());
            }
        }
        // The IR and XState machines are lossless: nothing is normalised.
        Format::Ir | Format::Xstate => {}
    }
    s
}

/// The same two rules on the document value (as `tests/roundtrip.rs` does for the examples
/// and seed 000): an AgentPM manifest without `kind` comes back with `kind: "loop"`, a MAS
/// loop without `escalation` comes back with `escalation: human`. Keys are sorted.
fn normalise_value(v: &Value, f: Format) -> Value {
    let mut v = sorted(v);
    if let Value::Object(m) = &mut v {
        match f {
            Format::Agentpm => {
                m.entry("kind")
                    .or_insert_with(|| Value::String("loop".to_owned()));
            }
            Format::Mas => {
                m.entry("escalation")
                    .or_insert_with(|| Value::String("human".to_owned()));
            }
            Format::Ir | Format::Xstate => {}
        }
    }
    sorted(&v)
}

/// Objects with their keys in sorted order, recursively, and whole floats as integers
/// (`3.0` reads as the integer 3, and the writers write `3`: `F017` warns about the input).
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
        Value::Number(n) if n.is_f64() => whole(n).map_or_else(|| v.clone(), Value::from),
        other => other.clone(),
    }
}

/// The integer a whole float stands for, when it fits in an `i64`.
fn whole(n: &serde_json::Number) -> Option<i64> {
    let f = n
        .as_f64()
        .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)?;
    // `as` is exact: `f` is whole and well within `i64`.
    Some(f as i64)
}

fn ir_json(spec: &Spec) -> String {
    serde_json::to_string_pretty(spec).unwrap_or_else(|e| format!("<not serialisable: {e}>"))
}

/// Panic with both loops when their content differs (their IR JSON: provenance is not
/// content, see `loopconv::ir::same_content`): the lines that differ, then both in full.
fn assert_same(what: &str, left: &Spec, right: &Spec) {
    let (l, r) = (ir_json(left), ir_json(right));
    if l == r {
        return;
    }
    panic!(
        "{what}: the loop changed\n{}\n--- original ---\n{}\n--- read back ---\n{}",
        diff(&l, &r),
        clip(&l),
        clip(&r)
    );
}

fn assert_same_value(what: &str, left: &Value, right: &Value) {
    if left == right {
        return;
    }
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let (l, r) = (pretty(left), pretty(right));
    panic!(
        "{what}: the document's value changed (normalised, keys sorted)\n{}\n--- input ---\n{}\n--- read back ---\n{}",
        diff(&l, &r),
        clip(&l),
        clip(&r)
    );
}

fn assert_same_text(what: &str, left: &str, right: &str) {
    assert!(
        left == right,
        "{what}: the text differs\n{}\n--- direct ---\n{}\n--- through IR ---\n{}",
        diff(left, right),
        clip(left),
        clip(right)
    );
}

/// The lines between the common prefix and the common suffix of `a` (first) and `b`
/// (second), with two lines of context.
fn diff(a: &str, b: &str) -> String {
    let a: Vec<&str> = a.lines().collect();
    let b: Vec<&str> = b.lines().collect();
    let pre = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let max_suf = a.len().min(b.len()) - pre;
    let suf = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(max_suf)
        .take_while(|(x, y)| x == y)
        .count();
    let ctx = pre.saturating_sub(2);
    let side = |v: &[&str]| {
        let end = v.len() - suf;
        let mut s = String::new();
        for (i, line) in v[ctx..end].iter().enumerate().take(80) {
            let mark = if ctx + i < pre { ' ' } else { '|' };
            s.push_str(&format!("{:>5}{mark} {line}\n", ctx + i + 1));
        }
        s
    };
    format!(
        "--- differing lines, first ---\n{}--- differing lines, second ---\n{}",
        side(&a),
        side(&b)
    )
}

/// At most 20,000 bytes of a value, so that a 64 KiB input still gives a readable report.
fn clip(s: &str) -> String {
    const MAX: usize = 20_000;
    if s.len() <= MAX {
        return s.to_owned();
    }
    let mut end = MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n... ({} more bytes)", &s[..end], s.len() - end)
}

fn round_trip(name: &str, f: Format, l: &Loaded) {
    let Some((spec, info)) = l.valid() else {
        return;
    };
    let what = format!("{name} --from {}", f.name());

    // X -> X: the writer reports nothing, its output reads back as the same loop.
    let direct = write(&what, spec, info, f);
    let back = reread(&what, &direct, f);
    let (back_spec, _) = valid(&back);
    assert_same(
        &format!("{what} -> {} -> read", f.name()),
        &normalise(spec, f),
        &normalise(back_spec, f),
    );

    // X -> X keeps the document's value. Not for the IR: it is a serialisation of `Spec`
    // (defaults such as an empty `roles` are not written), and
    // `Spec` equality is its round trip.
    if f != Format::Ir
        && let (Some(input), Some(output)) = (&l.doc, &back.doc)
    {
        assert_same_value(
            &format!("{what} -> {} -> read", f.name()),
            &normalise_value(&input.root().to_json(), f),
            &normalise_value(&output.root().to_json(), f),
        );
    }

    // X -> IR: lossless, no normalisation.
    let ir = write(&what, spec, info, Format::Ir);
    let from_ir = reread(&format!("{what} -> ir"), &ir, Format::Ir);
    let (ir_spec, ir_info) = valid(&from_ir);
    assert_same(&format!("{what} -> ir -> read"), spec, ir_spec);

    // IR -> X: the same text as X -> X.
    let via_ir = write(&format!("{what} -> ir"), ir_spec, ir_info, f);
    assert_same_text(&format!("{what} -> ir -> {}", f.name()), &direct, &via_ir);
}
