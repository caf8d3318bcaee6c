//! Regression inputs: every file in `tests/regressions/` is an input that once crashed
//! loopconv or exposed a bug (found by `scripts/fuzz.sh`, the property tests or the limit
//! tests; `tests/regressions/README.md` lists each one and its fix).
//!
//! Each file is read the way every fuzz target reads it (as `.json` and `.yaml`, format
//! detected and forced to each of agentpm, mas and ir), its diagnostics are rendered, and
//! when it is a valid loop it goes through every back end and conversion. Nothing may
//! panic, and each file must give at least one diagnostic (from reading it or, for a valid
//! loop, from converting it), so that none of them is silently accepted.

use crate::support;

use std::path::PathBuf;

use crate::support::{files_under, lossy_options, repo, write_every_target};
use loopconv::Target;
use loopconv::back;
use loopconv::diag::{self, Diagnostic, Diagnostics, Severity};
use loopconv::{Format, LoadOptions, Loaded, load};

fn files() -> Vec<PathBuf> {
    let v: Vec<PathBuf> = files_under(&repo().join("tests/regressions"))
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    assert!(!v.is_empty(), "no regression file");
    v
}

fn render(l: &Loaded) {
    let source = l.text();
    let items = l.diags.items();
    for colour in [false, true] {
        let human = diag::render_human(items, source, colour);
        for d in items {
            assert!(human.contains(d.code.as_str()), "{d:?} not in {human}");
        }
    }
    let json: serde_json::Value =
        serde_json::from_str(&diag::render_json(items)).expect("the JSON rendering parses");
    assert_eq!(json.as_array().map(Vec::len), Some(items.len()), "{json:#}");
    for d in l.diags.items() {
        if let (Some(p), Some(doc)) = (d.location.pos, &l.doc) {
            assert!(
                p.line >= 1 && p.column >= 1 && p.start <= doc.text.len(),
                "{d:?}"
            );
        }
    }
}

/// Every back end (every variant) on a valid loop, without flags and with
/// `--allow-lossy` and the agent flags; returns the conversion diagnostics.
fn back_ends(name: &str, l: &Loaded) -> Vec<Diagnostic> {
    let Some((spec, info)) = l.valid() else {
        return Vec::new();
    };
    let mut all = Vec::new();
    for opts in [back::Options::default(), lossy_options()] {
        let opts = back::Options {
            source: name.to_owned(),
            ..opts
        };
        for w in write_every_target(name, spec, info, &opts) {
            let out = w
                .text
                .unwrap_or_else(|e| panic!("{name} -> {}: {e}", w.label));
            if opts.allow_lossy {
                let errors: Vec<_> = w
                    .diags
                    .items()
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .collect();
                assert!(errors.is_empty(), "{name} -> {}: {errors:#?}", w.label);
                // What loopconv writes, it reads back without errors.
                if let Some(to) = w.target.format() {
                    let back = load(
                        &format!("out.{}", to.extension()),
                        out.as_bytes(),
                        &LoadOptions::default(),
                    );
                    assert!(
                        !back.diags.has_errors(),
                        "{name} -> {}: {:#?}",
                        w.label,
                        back.diags.items()
                    );
                }
            }
            all.extend(w.diags.into_items());
        }
    }
    all
}

#[test]
fn regression_inputs() {
    for f in files() {
        let name = f.display().to_string();
        let bytes = std::fs::read(&f).expect("read");
        // As the fuzz targets read it: both syntaxes, every `--from`.
        for path in ["fuzz.json", "fuzz.yaml", name.as_str()] {
            for from in [None].into_iter().chain(Format::ALL.map(Some)) {
                let l = load(
                    path,
                    &bytes,
                    &LoadOptions {
                        from,
                        ..LoadOptions::default()
                    },
                );
                render(&l);
                assert!(
                    l.valid().is_some() || !l.diags.is_empty(),
                    "{name} as {path}, from {from:?}"
                );
                back_ends(&name, &l);
            }
        }
        let l = load(&name, &bytes, &LoadOptions::default());
        let conversions = back_ends(&name, &l);
        assert!(
            !l.diags.is_empty() || !conversions.is_empty(),
            "{name}: no diagnostic at all"
        );
    }
}

/// `IR -> IR` is byte for byte for a valid IR file (a float once came back one ulp off).
#[test]
fn ir_regression_files_round_trip_exactly() {
    for f in files()
        .into_iter()
        .filter(|f| f.to_string_lossy().ends_with(".ir.json"))
    {
        let text = std::fs::read_to_string(&f).expect("read");
        let l = load(
            &f.display().to_string(),
            text.as_bytes(),
            &LoadOptions::default(),
        );
        let Some((spec, info)) = l.valid() else {
            continue;
        };
        let mut diags = Diagnostics::new("out.ir.json");
        let out = loopconv::write(
            Target::Loop(Format::Ir),
            spec,
            info,
            &back::Options::default(),
            &mut diags,
        )
        .expect("ir");
        assert!(diags.is_empty(), "{:#?}", diags.items());
        assert_eq!(out, text, "{}", f.display());
    }
}

/// Two non-string keys that are equal are one mistake each (P012), not also a duplicate.
#[test]
fn non_string_keys_are_not_also_duplicates() {
    let bytes = support::read(&repo().join("tests/regressions/non-string-keys.yaml"));
    let l = load("k.yaml", &bytes, &LoadOptions::default());
    let codes: Vec<&str> = l.diags.items().iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes.iter().filter(|c| **c == "P012").count(),
        2,
        "{codes:?}"
    );
    assert!(!codes.contains(&"P002"), "{codes:?}");
}

/// `kind: "loop"` names the AgentPM package type (formats.md 1.1): a manifest whose `loop`
/// object is misspelled is read as one, and says what is wrong, instead of `P011` ("cannot
/// tell which loop format this is").
#[test]
fn kind_loop_is_an_agentpm_manifest_even_without_its_loop_object() {
    let text = r#"{"kind": "loop", "name": "x", "version": "0.1.0", "description": "x",
  "loops": {"entry_phase": "a", "phases": [{"id": "a", "objective": "A."}],
    "transitions": [{"from": "a", "on": "complete", "to": "$end"}]}}"#;
    let l = load("k.json", text.as_bytes(), &LoadOptions::default());
    assert_eq!(l.format, Some(Format::Agentpm));
    let codes: Vec<&str> = l.diags.items().iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["F002"], "{:?}", l.diags.items());
    // An Agent is named for what it is: no loop (`P015`), not an undecided format.
    let other = load("k.json", br#"{"kind": "agent"}"#, &LoadOptions::default());
    let codes: Vec<&str> = other
        .diags
        .items()
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(codes, ["P015"]);
}

/// A YAML loop saved as `.json` is read as JSON (the name decides the syntax): its `P001`
/// says so, and what to do; a JSON file broken elsewhere keeps the parser's own help.
#[test]
fn yaml_in_a_json_file_says_the_name_chose_json() {
    let yaml = "name: qa-fix\ntype: VEAL\nvalidator: qa\nactor: code-fixer\n";
    let l = load("loop.json", yaml.as_bytes(), &LoadOptions::default());
    let d = &l.diags.items()[0];
    assert_eq!(d.code.as_str(), "P001");
    assert!(
        d.help
            .as_deref()
            .is_some_and(|h| h.contains("name ends in `.json`") && h.contains("name it `.yaml`")),
        "{d:?}"
    );
    // The same text named `.yaml` is a loop; a JSON file with a stray `'` keeps its help.
    assert!(
        load("loop.yaml", yaml.as_bytes(), &LoadOptions::default())
            .format
            .is_some()
    );
    let l = load("loop.json", b"{'name': 1}", &LoadOptions::default());
    assert!(
        !l.diags.items()[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains(".yaml"),
        "{:?}",
        l.diags.items()
    );
}

/// A tab that indents a YAML line is reported on that line, with how to fix it (the
/// parser reports it where the scalar before it began: line 6 for a tab starting line 7),
/// and no message repeats a position the diagnostic already carries.
#[test]
fn a_tab_in_yaml_indentation_is_reported_where_it_is() {
    let cases = [
        (
            "name: a\ntype: VEAL\nchecks:\n  - id: x\n\ttype: manual\n",
            (5, 1),
        ),
        ("name: a\n\ttype: VEAL\n", (2, 1)),
        (
            "name: a\r\nchecks:\r\n  - id: x\r\n  \t  type: manual\r\n",
            (4, 3),
        ),
        ("name: a\nchecks:\n\t- id: x\n", (3, 1)),
    ];
    for (text, (line, column)) in cases {
        let l = load("loop.yaml", text.as_bytes(), &LoadOptions::default());
        let [d] = l.diags.items() else {
            panic!("one diagnostic: {:?}", l.diags.items());
        };
        let pos = d.location.pos.expect("located");
        assert_eq!(
            (d.code.as_str(), pos.line, pos.column),
            ("P001", line, column),
            "{d:?}"
        );
        assert_eq!(
            d.help_text().as_deref(),
            Some("replace the tab with spaces"),
            "{d:?}"
        );
        assert!(!d.message.contains("at line"), "{d:?}");
    }
    // A tab between a key and its value is allowed.
    let l = load(
        "loop.yaml",
        b"name: a\ntype:\tVEAL\nactor: b\nvalidator: c\nchecks:\n  - id: x\n    type: manual\n",
        &LoadOptions::default(),
    );
    assert!(l.diags.items().is_empty(), "{:?}", l.diags.items());
    // Another syntax error's message carries no `at line N, column M` of its own.
    let l = load("loop.yaml", b"a: b\nc: d: e\n", &LoadOptions::default());
    let d = &l.diags.items()[0];
    assert_eq!(d.code.as_str(), "P001");
    assert!(!d.message.contains("at line"), "{d:?}");
}

/// A comment in a JSON file is named as one, wherever the parser stopped at it, with what
/// to do.
#[test]
fn a_comment_in_json_is_named_as_one() {
    for text in [
        "{\n  // a comment\n  \"kind\": \"loop\"\n}\n",
        "{\"kind\": \"loop\", /* c */ \"name\": \"x\"}",
        "{\"kind\": \"loop\" // c\n}",
        "{\"kind\": // c\n \"loop\"}",
    ] {
        let l = load("loop.json", text.as_bytes(), &LoadOptions::default());
        let [d] = l.diags.items() else {
            panic!("one diagnostic: {:?}", l.diags.items());
        };
        assert_eq!(d.code.as_str(), "P001");
        assert!(d.message.ends_with("found a comment"), "{d:?}");
        assert!(
            d.help
                .as_deref()
                .is_some_and(|h| h.starts_with("JSON has no comments")),
            "{d:?}"
        );
    }
}

/// A MAS loop whose `type` is misspelled or missing is still read as one (an `actor` and
/// another MAS key say so), and gets the `F002` for its `type`, not `P011` ("cannot tell
/// which loop format this is").
#[test]
fn a_mas_loop_without_its_type_is_read_as_mas() {
    for (text, note) in [
        (
            "name: qa\ntyp: VEAL\nactor: x\nvalidator: y\nchecks:\n  - id: a\n",
            true,
        ),
        ("name: qa\nactor: x\nmission: Ship it.\n", false),
    ] {
        let l = load("loop.yaml", text.as_bytes(), &LoadOptions::default());
        assert_eq!(l.format, Some(Format::Mas), "{:?}", l.diags.items());
        let codes: Vec<&str> = l.diags.items().iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["F002"], "{:?}", l.diags.items());
        let d = &l.diags.items()[0];
        assert!(d.message.contains("`type`"), "{d:?}");
        assert_eq!(
            d.notes.iter().any(|n| n.contains("misspelled")),
            note,
            "{d:?}"
        );
    }
    // A lone `actor` decides nothing.
    let l = load(
        "loop.yaml",
        b"name: qa\nactor: x\n",
        &LoadOptions::default(),
    );
    assert_eq!(l.format, None);
}

/// A MAS `max_attempts` whose `3 * max_attempts - 1` steps do not fit AgentPM's
/// `max_steps` is reported as an inexact bound (`B002`) when converted.
#[test]
fn attempts_beyond_what_max_steps_holds_are_an_inexact_bound() {
    let text = "name: big\ntype: REAL\nactor: a\nmission: m\nmax_attempts: 9223372036854775807\n";
    let l = load("big.yaml", text.as_bytes(), &LoadOptions::default());
    let (spec, info) = l.valid().expect("a valid loop");
    let mut diags = Diagnostics::new("big.yaml");
    let opts = loopconv::back::Options {
        allow_lossy: true,
        ..Default::default()
    };
    loopconv::write(Target::Loop(Format::Agentpm), spec, info, &opts, &mut diags).expect("written");
    let bounds: Vec<&str> = diags
        .items()
        .iter()
        .filter(|d| d.code.as_str() == "B002")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        bounds,
        [
            "`max_attempts` 9223372036854775807 needs 27670116110564327420 steps, more than `max_steps` can hold; it is written as 18446744073709551614"
        ]
    );
    // The largest that fits is exact.
    let fits = text.replace("9223372036854775807", "6148914691236517205");
    let l = load("fits.yaml", fits.as_bytes(), &LoadOptions::default());
    let (spec, info) = l.valid().expect("a valid loop");
    let mut diags = Diagnostics::new("fits.yaml");
    loopconv::write(Target::Loop(Format::Agentpm), spec, info, &opts, &mut diags).expect("written");
    assert!(
        diags.items().iter().all(|d| d.code.as_str() != "B002"),
        "{:?}",
        diags.items()
    );
}
