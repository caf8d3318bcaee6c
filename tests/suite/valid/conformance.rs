//! Conformance with the upstream validators (issue 9): crafted edge cases and mutations,
//! judged the way the upstream AgentPM schema and the multi-agent-spec Go SDK judge them,
//! except where the guide's "Deliberate differences" table (`docs/src/diagnostics.md`) says loopconv differs.
//!
//! Number boundaries: 2^53, 2^63 - 1, 2^63, 2^64 - 1, 2^64, -0, 1e308, `.inf`, `.nan`,
//! `0x`, `0o`, leading zeros, underscores, whole numbers written as floats.

use crate::support::loopconv;
use loopconv::diag::{Code, Severity};
use loopconv::{LoadOptions, Loaded, load};

fn read(name: &str, text: &str) -> Loaded {
    load(name, text.as_bytes(), &LoadOptions::default())
}

/// Codes of the diagnostics, asserting that each carries a line and a column.
fn codes(l: &Loaded) -> Vec<Code> {
    for d in l.diags.items() {
        let pos = d
            .location
            .pos
            .unwrap_or_else(|| panic!("no position: {d:?}"));
        assert!(pos.line >= 1 && pos.column >= 1, "{d:?}");
    }
    l.diags.items().iter().map(|d| d.code).collect()
}

fn mas(max_attempts: &str) -> String {
    format!(
        "name: fix\ntype: REAL\nmission: Fix it.\nactor: dev\nmax_attempts: {max_attempts}\nescalation: human\n"
    )
}

fn agentpm(max_steps: &str) -> String {
    format!(
        r#"{{"$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json",
"kind": "loop", "name": "p", "version": "1.0.0", "description": "d",
"loop": {{"entry_phase": "a", "limits": {{"max_steps": {max_steps}}},
"phases": [{{"id": "a", "objective": "o"}}],
"transitions": [{{"from": "a", "on": "complete", "to": "$end"}}]}}}}"#
    )
}

/// `Ok(value)`: accepted, and the IR holds that integer; `Err(code)`: rejected with it.
type Expect = Result<u64, Code>;

const MAS_MAX_ATTEMPTS: &[(&str, Expect)] = &[
    ("3", Ok(3)),
    ("3.0", Ok(3)),
    ("3.", Ok(3)),
    ("1e1", Ok(10)),
    ("1.0e1", Ok(10)),
    ("010", Ok(10)),
    ("0x10", Ok(16)),
    ("0o10", Ok(8)),
    ("1_000", Ok(1000)),
    ("+5", Ok(5)),
    ("9007199254740992", Ok(9_007_199_254_740_992)),
    ("9007199254740993", Ok(9_007_199_254_740_993)),
    ("9223372036854775807", Ok(9_223_372_036_854_775_807)),
    ("9223372036854775808", Err(Code::OutOfRange)),
    ("18446744073709551615", Err(Code::OutOfRange)),
    ("18446744073709551616", Err(Code::OutOfRange)),
    ("1e308", Err(Code::OutOfRange)),
    (".inf", Err(Code::OutOfRange)),
    ("-.inf", Err(Code::OutOfRange)),
    (".nan", Err(Code::WrongType)),
    ("0", Err(Code::OutOfRange)),
    ("-0", Err(Code::OutOfRange)),
    ("-0.0", Err(Code::OutOfRange)),
    ("-1", Err(Code::OutOfRange)),
    ("2.5", Err(Code::WrongType)),
    ("'3'", Err(Code::WrongType)),
];

const AGENTPM_MAX_STEPS: &[(&str, Expect)] = &[
    ("3", Ok(3)),
    ("3.0", Ok(3)),
    ("1e2", Ok(100)),
    ("1E2", Ok(100)),
    ("100e-2", Ok(1)),
    ("9007199254740992", Ok(9_007_199_254_740_992)),
    ("9223372036854775807", Ok(9_223_372_036_854_775_807)),
    ("9223372036854775808", Ok(9_223_372_036_854_775_808)),
    ("18446744073709551615", Ok(u64::MAX)),
    ("18446744073709551616", Err(Code::OutOfRange)),
    ("1e308", Err(Code::OutOfRange)),
    ("-0", Err(Code::OutOfRange)),
    ("-0.0", Err(Code::OutOfRange)),
    ("0", Err(Code::OutOfRange)),
    ("2.5", Err(Code::WrongType)),
    ("1e-1", Err(Code::WrongType)),
    ("\"3\"", Err(Code::WrongType)),
];

fn judge(name: &str, text: &str, value: impl Fn(&Loaded) -> Option<u64>, want: Expect) {
    let l = read(name, text);
    let got = codes(&l);
    match want {
        Ok(v) => {
            assert!(!l.diags.has_errors(), "{text}: {:?}", l.diags.items());
            assert_eq!(value(&l), Some(v), "{text}");
        }
        Err(code) => {
            assert_eq!(got, vec![code], "{text}: {:?}", l.diags.items());
            assert!(!got.contains(&Code::Syntax), "{text}");
        }
    }
}

#[test]
fn mas_max_attempts_boundaries() {
    for (written, want) in MAS_MAX_ATTEMPTS {
        judge(
            "t.yaml",
            &mas(written),
            |l| l.spec.as_ref()?.bounds.max_attempts,
            *want,
        );
    }
}

#[test]
fn agentpm_max_steps_boundaries() {
    for (written, want) in AGENTPM_MAX_STEPS {
        judge(
            "t.json",
            &agentpm(written),
            |l| l.spec.as_ref()?.bounds.max_steps,
            *want,
        );
    }
}

#[test]
fn out_of_range_messages_name_the_field_and_the_range() {
    let l = read("t.yaml", &mas("9223372036854775808"));
    let d = &l.diags.items()[0];
    assert!(d.message.contains("`max_attempts`"), "{}", d.message);
    assert!(d.message.contains("9223372036854775807"), "{}", d.message);
    let p = d.location.pos.unwrap();
    assert_eq!((p.line, p.column), (5, 15));
    let l = read("t.json", &agentpm("18446744073709551616"));
    let d = &l.diags.items()[0];
    assert!(d.message.contains("18446744073709551616"), "{}", d.message);
    assert!(
        d.message.contains("`loop.limits.max_steps`"),
        "{}",
        d.message
    );
}

#[test]
fn whole_float_retries_are_integers() {
    let text = agentpm("5").replace(
        r#""limits""#,
        r#""error_policy": {"tool_failure": {"action": "retry", "max_retries": 2.0, "on_exhausted": "abort"}}, "limits""#,
    );
    let l = read("t.json", &text);
    assert!(!l.diags.has_errors(), "{:?}", l.diags.items());
}

#[test]
fn json_duplicate_keys_warn_and_the_last_wins() {
    let text = agentpm("5").replace(r#""max_steps": 5"#, r#""max_steps": 5, "max_steps": 7"#);
    let l = read("t.json", &text);
    assert_eq!(codes(&l), vec![Code::JsonDuplicateKey]);
    assert_eq!(l.diags.items()[0].severity, Severity::Warning);
    assert_eq!(l.spec.as_ref().unwrap().bounds.max_steps, Some(7));
    // YAML forbids duplicate keys: still an error.
    let l = read("t.yaml", &format!("{}max_attempts: 4\n", mas("3")));
    assert_eq!(codes(&l), vec![Code::DuplicateKey]);
    assert!(l.diags.has_errors());
}

#[test]
fn json_duplicate_key_is_an_error_under_strict() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dup.json");
    let text = agentpm("5").replace(r#""max_steps": 5"#, r#""max_steps": 5, "max_steps": 7"#);
    std::fs::write(&path, text).unwrap();
    loopconv().arg("check").arg(&path).assert().success();
    loopconv()
        .args(["check", "--strict"])
        .arg(&path)
        .assert()
        .failure()
        .stderr(predicates::str::contains("P014"));
}

fn with_environment(env: &str) -> String {
    agentpm("5").replace(r#""loop":"#, &format!(r#""environment": {env}, "loop":"#))
}

#[test]
fn environment_is_validated_like_upstream() {
    let cases: &[(&str, &[Code])] = &[
        (
            r#"{"vars": {"API_KEY": {"required": true, "description": "k"}}}"#,
            &[],
        ),
        (
            r#"{"vars": {"A": {"required": false, "description": "", "default": "x"}}}"#,
            &[],
        ),
        (r#"{}"#, &[]),
        (r#"{"vars": {}}"#, &[]),
        (
            r#"{"vars": {"API_KEY": {"description": "k"}}}"#,
            &[Code::MissingField],
        ),
        (
            r#"{"vars": {"API_KEY": {"required": true}}}"#,
            &[Code::MissingField],
        ),
        (
            r#"{"vars": {"api_key": {"required": true, "description": "k"}}}"#,
            &[Code::InvalidName],
        ),
        (
            r#"{"vars": {"1KEY": {"required": true, "description": "k"}}}"#,
            &[Code::InvalidName],
        ),
        (
            r#"{"vars": {"K": {"required": true, "description": "k", "x": 1}}}"#,
            &[Code::UnknownField],
        ),
        (
            r#"{"vars": {"K": {"required": true, "description": "k", "default": 3}}}"#,
            &[Code::WrongType],
        ),
        (
            r#"{"vars": {"K": {"required": "yes", "description": "k"}}}"#,
            &[Code::WrongType],
        ),
        (r#"{"vars": {"K": "x"}}"#, &[Code::WrongType]),
        (r#"{"vars": []}"#, &[Code::WrongType]),
        (r#"{"other": 1}"#, &[Code::UnknownField]),
        (r#"[]"#, &[Code::WrongType]),
        (r#"null"#, &[Code::WrongType]),
    ];
    for (env, want) in cases {
        let l = read("t.json", &with_environment(env));
        assert_eq!(codes(&l), *want, "{env}: {:?}", l.diags.items());
    }
}

#[test]
fn empty_roles_are_missing_like_the_go_sdk() {
    let real = "name: fix\ntype: REAL\nmission: Fix it.\nactor: dev\nescalation: human\n";
    let veal = "name: gate\ntype: VEAL\nvalidator: qa\nactor: dev\nescalation: human\nchecks:\n  - id: build\n    type: command\n    command: make\n";
    let cases: &[(String, &[Code])] = &[
        (
            real.replace("actor: dev", "actor: ''"),
            &[Code::EmptyString],
        ),
        (
            real.replace("mission: Fix it.", "mission: \"\""),
            &[Code::MissingMission],
        ),
        (
            veal.replace("validator: qa", "validator: ''"),
            &[Code::MissingValidator],
        ),
        (
            real.replace(
                "escalation: human",
                "escalation: fallback\nfallback_agent: ''",
            ),
            &[Code::MissingFallbackAgent],
        ),
        // Not judged upstream: an empty `fallback_agent` without `escalation: fallback`.
        (
            real.replace("escalation: human", "escalation: human\nfallback_agent: ''"),
            &[],
        ),
        (real.to_owned(), &[]),
        (veal.to_owned(), &[]),
    ];
    for (text, want) in cases {
        let l = read("t.yaml", text);
        assert_eq!(codes(&l), *want, "{text}: {:?}", l.diags.items());
    }
}

#[test]
fn non_finite_values_are_wrong_values_not_syntax_errors() {
    for v in [".inf", "-.inf", ".nan", ".Inf", ".NaN"] {
        let l = read("t.yaml", &mas(v));
        let got = codes(&l);
        assert!(!got.contains(&Code::Syntax), "{v}: {got:?}");
        assert_eq!(l.diags.items()[0].location.pointer, "/max_attempts", "{v}");
    }
    // In a string field too.
    let l = read("t.yaml", &mas("3").replace("actor: dev", "actor: .inf"));
    assert_eq!(codes(&l), vec![Code::WrongType]);
}

fn with_port(extra: &str) -> String {
    format!(
        "{}inputs:\n  - name: manifest\n    type: object\n{extra}",
        mas("3")
    )
}

#[test]
fn port_schema_in_yaml_warns_on_read() {
    let l = read("t.yaml", &with_port("    schema:\n      type: object\n"));
    assert_eq!(codes(&l), vec![Code::YamlPortSchema]);
    let d = &l.diags.items()[0];
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.location.pos.map(|p| (p.line, p.column)), Some((10, 5)));
    // A null schema, or none, loads fine.
    assert_eq!(
        codes(&read("t.yaml", &with_port("    schema: null\n"))),
        vec![]
    );
    assert_eq!(codes(&read("t.yaml", &with_port(""))), vec![]);
    // The JSON form loads in the Go SDK: no warning.
    let json = r#"{"name": "fix", "type": "REAL", "mission": "m", "actor": "a", "escalation": "human",
        "inputs": [{"name": "x", "schema": {"type": "object"}}]}"#;
    assert_eq!(codes(&read("t.json", json)), vec![]);
}

#[test]
fn yaml_directive_warns() {
    let l = read("t.yaml", &format!("%YAML 1.2\n---\n{}", mas("3")));
    assert_eq!(codes(&l), vec![Code::YamlDirective]);
    assert_eq!(l.diags.items()[0].location.pos.map(|p| p.line), Some(1));
    let l = read("t.yaml", &format!("---\n{}", mas("3")));
    assert_eq!(codes(&l), vec![]);
}

/// The Go SDK's `encoding/json` refuses `3.0` for an `int`; its YAML reader and every
/// other reader take it as 3. The value is still read as 3.
#[test]
fn integral_float_in_json_warns() {
    let json = |n: &str| {
        format!(
            r#"{{"name": "fix", "type": "REAL", "mission": "m", "actor": "a", "max_attempts": {n}}}"#
        )
    };
    for float in ["3.0", "3e0", "30e-1"] {
        let l = read("t.json", &json(float));
        assert_eq!(codes(&l), vec![Code::JsonFloatInteger], "{float}");
        let d = &l.diags.items()[0];
        assert_eq!(d.severity, Severity::Warning);
        assert_eq!(d.location.pos.map(|p| p.line), Some(1));
        assert_eq!(l.valid().map(|(s, _)| s.effective_max_attempts()), Some(3));
    }
    assert_eq!(codes(&read("t.json", &json("3"))), vec![]);
    assert_eq!(codes(&read("t.yaml", &mas("3.0"))), vec![]);
}

#[test]
fn port_schema_warns_on_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("port.json");
    let json = r#"{"name": "fix", "type": "REAL", "mission": "m", "actor": "a", "escalation": "human",
        "inputs": [{"name": "x", "schema": {"type": "object"}}]}"#;
    std::fs::write(&path, json).unwrap();
    loopconv()
        .args(["convert", "--to", "mas"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicates::str::contains("schema:"))
        .stderr(predicates::str::contains("B005"));
    // Read from YAML and written to YAML again, the port's `F015` says it once: no `B005`
    // for the same port.
    let yaml = dir.path().join("port.yaml");
    loopconv()
        .args(["convert", "--to", "mas"])
        .arg(&path)
        .arg("-o")
        .arg(&yaml)
        .assert()
        .success();
    loopconv()
        .args(["convert", "--to", "mas"])
        .arg(&yaml)
        .assert()
        .success()
        .stderr(predicates::str::contains("F015"))
        .stderr(predicates::prelude::PredicateBooleanExt::not(
            predicates::str::contains("B005"),
        ));
}

#[test]
fn package_reference_in_loop_has_a_hint() {
    let text = r#"{"kind": "loop", "name": "p", "version": "1.0.0", "description": "d",
        "loop": {"name": "@acme/triage"}}"#;
    let l = read("t.json", text);
    let d = l
        .diags
        .items()
        .iter()
        .find(|d| d.code == Code::UnknownField)
        .expect("an unknown-field diagnostic");
    assert!(d.message.contains("package reference"), "{}", d.message);
    assert!(d.help.as_deref().unwrap_or("").contains("Agent manifest"));
}
