//! Diagnostics of every file in `examples/invalid/`.
//!
//! Each `examples/invalid/<CODE>-<name>.<ext>` file triggers the diagnostic `<CODE>` when it is
//! read (`loopconv check`). Its JSON and human diagnostics are snapshots
//! (`tests/snapshots/diagnostics__{json,human}@<file>.snap`). The files in
//! `examples/invalid/convert/` pass `check`; their B codes come from `loopconv convert` with
//! the flags in [`CONVERSIONS`] (the same table is in `examples/invalid/convert/README.md`).
//!
//! Bless changed snapshots with `INSTA_UPDATE=always cargo test --test suite valid::diagnostics` (or
//! `cargo insta review`) and review the diff.

use crate::support;

use std::collections::BTreeSet;
use std::path::Path;

use crate::support::{examples, load_file, read, rel};
use loopconv::Loaded;
use loopconv::back;
use loopconv::diag::retired::RETIRED;
use loopconv::diag::{self, Code, Diagnostic, Severity, docs};
use loopconv::{Format, Target};

/// Codes that no file in `examples/invalid/` triggers, and where they are covered instead.
const COVERED_ELSEWHERE: &[(Code, &str)] = &[
    (
        Code::TooLarge,
        "needs a 64 MiB input; tests/suite/cli/commands.rs `max_input_bytes_gives_p004` uses `--max-input-bytes 100`",
    ),
    (
        Code::InvalidOutput,
        "a loopconv bug, or a port schema nested ~128 levels deep: tests/suite/cli/commands.rs `the_read_back_check_judges_validity_not_the_inputs_limits`",
    ),
    (
        Code::TooManyDiagnostics,
        "the examples need more diagnostics than the limit: tests/suite/cli/hostile.rs `the_report_is_capped_and_says_what_it_left_out`",
    ),
    (
        Code::OutputCollision,
        "needs two files: tests/suite/cli/consistency.rs `name_collision_comes_first_and_names_both_files`",
    ),
    (
        Code::NotALoop,
        "a team file given to a command that needs a loop: tests/suite/cli/workspaces.rs",
    ),
];

/// The `W` codes span files: each is produced by a workspace in tests/suite/cli/workspaces.rs.
fn covered_by_workspaces(code: Code) -> bool {
    code.as_str().starts_with('W')
}

/// The B-code inputs in `examples/invalid/convert/`: file, target, flags, expected code.
const CONVERSIONS: &[(&str, Target, Flags, Code)] = &[
    // loopconv convert B001-lost-field.yaml --to agentpm
    (
        "B001-lost-field.yaml",
        Target::Loop(Format::Agentpm),
        Flags::NONE,
        Code::LostField,
    ),
    // loopconv convert B002-inexact-bound.json --to mas --actor triager
    (
        "B002-inexact-bound.json",
        Target::Loop(Format::Mas),
        Flags {
            actor: Some("triager"),
            allow_lossy: false,
        },
        Code::InexactBound,
    ),
    // loopconv convert B003-missing-role-flag.json --to mas --actor schema-fixer --allow-lossy
    (
        "B003-missing-role-flag.json",
        Target::Loop(Format::Mas),
        Flags {
            actor: Some("schema-fixer"),
            allow_lossy: true,
        },
        Code::MissingRoleFlag,
    ),
    // loopconv convert B005-written-port-schema.json --to mas
    (
        "B005-written-port-schema.json",
        Target::Loop(Format::Mas),
        Flags::NONE,
        Code::WrittenPortSchema,
    ),
];

#[derive(Debug, Clone, Copy)]
struct Flags {
    actor: Option<&'static str>,
    allow_lossy: bool,
}

impl Flags {
    const NONE: Flags = Flags {
        actor: None,
        allow_lossy: false,
    };
}

/// The file read as `loopconv check` reads it (named `examples/invalid/x.json`, stable in
/// snapshots), and its bytes.
fn load(path: &Path) -> (Loaded, Vec<u8>) {
    (load_file(path), read(path))
}

/// The text the diagnostics' byte offsets refer to: the parsed document's text, or (when
/// the input did not parse) the input itself without a byte-order mark.
fn source_text(loaded: &Loaded, bytes: &[u8]) -> String {
    match &loaded.doc {
        Some(doc) => doc.text.to_string(),
        None => {
            let text = String::from_utf8_lossy(bytes);
            text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned()
        }
    }
}

/// The code a file is named after: `V012-unreachable-phase.json` -> V012. Panics when the
/// name starts like a code but does not match the code's frozen kebab name.
fn named_code(path: &Path) -> Option<Code> {
    let file = path.file_name()?.to_str()?;
    let prefix = file.get(..4)?;
    let looks_like_code = prefix.starts_with(['P', 'F', 'V', 'B'])
        && prefix[1..].bytes().all(|b| b.is_ascii_digit())
        && file.as_bytes().get(4) == Some(&b'-');
    if !looks_like_code {
        return None;
    }
    let code = Code::ALL
        .iter()
        .copied()
        .find(|c| c.as_str() == prefix)
        .unwrap_or_else(|| panic!("{file}: {prefix} is not a diagnostic code"));
    let stem = file.split('.').next().unwrap_or(file);
    assert_eq!(
        stem,
        format!("{}-{}", code.as_str(), code.name()),
        "{file}: the file name must be <code>-<kebab name>"
    );
    Some(code)
}

fn codes(diags: &[Diagnostic]) -> BTreeSet<&'static str> {
    diags.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn invalid_examples() {
    insta::glob!("../../../examples/invalid", "*.{json,yaml}", |path| {
        let (loaded, bytes) = load(path);
        let items = loaded.diags.items();
        let name = rel(path);
        assert!(!items.is_empty(), "{name}: no diagnostic");

        // Snapshots: JSON and human (no colour).
        let text = source_text(&loaded, &bytes);
        insta::assert_snapshot!("json", diag::render_json(items));
        // The NUL byte of P010 is shown as U+2400 so that the snapshot stays a text file.
        let human = diag::render_human(items, Some(&text), false).replace('\0', "\u{2400}");
        insta::assert_snapshot!("human", human);

        // The file's code is emitted.
        if let Some(code) = named_code(path) {
            assert!(
                items.iter().any(|d| d.code == code),
                "{name}: expected {code}, got {:?}",
                codes(items)
            );
            // One mistake, one code: nothing else is reported about a single-mistake file.
            let others: Vec<_> = items.iter().filter(|d| d.code != code).collect();
            assert!(
                others.is_empty(),
                "{name}: unexpected follow-on diagnostics {others:#?}"
            );
        } else {
            assert!(
                loaded.diags.has_errors(),
                "{name}: a realistic broken file must have errors"
            );
        }

        // Every diagnostic has a line and column (one about the whole file, such as an
        // empty file, `P008`, is at 1:1).
        for d in items {
            let p = d
                .location
                .pos
                .unwrap_or_else(|| panic!("{name}: {} has no line and column: {d:?}", d.code));
            assert!(p.line >= 1 && p.column >= 1, "{name}: {d:?}");
            assert!(p.start <= text.len(), "{name}: offset past the end: {d:?}");
            assert_eq!(d.location.file, name);
            assert!(
                !d.message.ends_with('.'),
                "{name}: message ends with a period: {}",
                d.message
            );
        }

        // Deterministic: a second read gives the same diagnostics in the same order.
        let (again, _) = load(path);
        assert_eq!(
            again.diags.items(),
            items,
            "{name}: diagnostics differ between two reads"
        );
        assert_eq!(
            diag::render_json(again.diags.items()),
            diag::render_json(items)
        );
    });
}

/// The B codes: the files pass `check`, and converting them with the listed flags fails with
/// (or, under `--allow-lossy`, warns with) the file's code.
#[test]
fn conversion_errors() {
    let dir = examples().join("invalid/convert");
    let mut seen = BTreeSet::new();
    for (file, to, flags, code) in CONVERSIONS {
        let path = dir.join(file);
        assert_eq!(named_code(&path), Some(*code), "{file}");
        seen.insert(file.to_string());
        let (mut loaded, bytes) = load(&path);
        assert!(
            loaded.diags.is_empty(),
            "{file} must pass check: {:#?}",
            loaded.diags.items()
        );
        let (spec, info) = loaded
            .valid()
            .map(|(s, i)| (s.clone(), i.clone()))
            .expect("valid");
        let opts = back::Options {
            allow_lossy: flags.allow_lossy,
            actor: flags.actor.map(str::to_owned),
            ..back::Options::default()
        };
        loopconv::write(*to, &spec, &info, &opts, &mut loaded.diags).expect("the back end runs");
        loaded.locate();
        loaded.diags.sort();
        let items = loaded.diags.items();
        let hits: Vec<_> = items.iter().filter(|d| d.code == *code).collect();
        assert!(
            !hits.is_empty(),
            "{file}: expected {code}, got {:?}",
            codes(items)
        );
        // The named code is an error even under --allow-lossy (B003) or without it (B001, B002);
        // B005 is an interoperability warning: the conversion succeeds.
        assert!(
            hits.iter().all(|d| d.severity == code.severity()),
            "{file}: {hits:#?}"
        );
        assert_eq!(
            loaded.diags.has_errors(),
            code.severity() == Severity::Error,
            "{file}: the conversion must fail exactly when the code is an error"
        );
        assert!(
            items.iter().all(|d| d.location.pos.is_some()),
            "{file}: {items:#?}"
        );
        assert!(
            items.iter().all(|d| d.code.as_str().starts_with('B')),
            "{file}: {items:#?}"
        );
        let text = source_text(&loaded, &bytes);
        insta::with_settings!({ snapshot_suffix => *file }, {
            insta::assert_snapshot!("convert_json", diag::render_json(items));
            insta::assert_snapshot!("convert_human", diag::render_human(items, Some(&text), false));
        });
    }
    // Every input file in the folder is in the table.
    for path in support::loop_files(&dir) {
        let name = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        assert!(seen.contains(&name), "{name} is not in CONVERSIONS");
    }
}

/// Every code has an example file named after it, or is in [`COVERED_ELSEWHERE`].
#[test]
fn every_code_has_an_example() {
    let files = support::files_under(&examples().join("invalid"));
    assert!(!files.is_empty(), "no examples/invalid file");
    let named: BTreeSet<Code> = files.iter().filter_map(|p| named_code(p)).collect();
    let elsewhere: BTreeSet<Code> = COVERED_ELSEWHERE.iter().map(|(c, _)| *c).collect();
    let missing: Vec<_> = Code::ALL
        .iter()
        .filter(|c| !named.contains(c) && !elsewhere.contains(c) && !covered_by_workspaces(**c))
        .map(|c| format!("{}-{}", c.as_str(), c.name()))
        .collect();
    assert!(
        missing.is_empty(),
        "no examples/invalid file for: {missing:?}"
    );
    let both: Vec<_> = named.intersection(&elsewhere).collect();
    assert!(
        both.is_empty(),
        "remove from COVERED_ELSEWHERE, a file covers them: {both:?}"
    );
}

/// The realistic multi-problem file: exactly one precise diagnostic per real problem (a bad
/// id, a dangling transition, an outcome without a transition), each with line and column,
/// and nothing cascading from the bad id.
#[test]
fn broken_multi_has_one_diagnostic_per_problem() {
    let (loaded, _) = load(&examples().join("invalid/broken-multi.json"));
    let got: Vec<(&str, Severity, u32, u32, &str)> = loaded
        .diags
        .items()
        .iter()
        .map(|d| {
            let p = d.location.pos.expect("position");
            (
                d.code.as_str(),
                d.severity,
                p.line,
                p.column,
                d.location.pointer.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("F005", Severity::Error, 19, 15, "/loop/phases/1/id"),
            (
                "V011",
                Severity::Error,
                28,
                19,
                "/loop/phases/2/outcomes/2/id"
            ),
            ("V009", Severity::Error, 35, 51, "/loop/transitions/2/to"),
        ]
    );
    let msgs: Vec<&str> = loaded
        .diags
        .items()
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(msgs[0].contains("Deploy_Staging"), "{msgs:?}");
    assert!(msgs[1].contains("flaky"), "{msgs:?}");
    assert!(msgs[2].contains("promote"), "{msgs:?}");
}

/// Mistakes copied from upstream documentation: an unknown `check:` key and `type: content`.
#[test]
fn upstream_doc_mistakes_are_named() {
    let (loaded, _) = load(&examples().join("invalid/mas-upstream-doc-mistakes.yaml"));
    let got: Vec<(&str, u32, u32)> = loaded
        .diags
        .items()
        .iter()
        .map(|d| {
            let p = d.location.pos.expect("position");
            (d.code.as_str(), p.line, p.column)
        })
        .collect();
    assert_eq!(got, vec![("F001", 13, 5), ("F007", 16, 11)]);
    let items = loaded.diags.items();
    assert!(items[0].message.contains("`check`"), "{}", items[0].message);
    assert!(
        items[1].message.contains("`content`"),
        "{}",
        items[1].message
    );
    assert!(
        items[1].message.contains("`manual`"),
        "the allowed values are listed: {}",
        items[1].message
    );
}

/// The code table is frozen: every code with its kebab-case name and default severity,
/// sorted by code, is pinned in `diagnostics__code_table.snap`, so renaming, renumbering,
/// re-grading or dropping a code cannot happen silently; a retired code keeps its row
/// (`retired`), so its string and name stay reserved. Codes and names are unique.
#[test]
fn code_table_is_frozen() {
    let mut rows: Vec<(&str, &str, &str)> = docs::rows()
        .into_iter()
        .map(|row| match row {
            docs::Row::Active(c) => (c.as_str(), c.name(), c.severity().as_str()),
            docs::Row::Retired(r) => (r.code, r.name, "retired"),
        })
        .collect();
    rows.sort();
    let codes: BTreeSet<&str> = rows.iter().map(|r| r.0).collect();
    let names: BTreeSet<&str> = rows.iter().map(|r| r.1).collect();
    assert_eq!(codes.len(), rows.len(), "a code string is used twice");
    assert_eq!(names.len(), rows.len(), "a kebab-case name is used twice");
    assert_eq!(rows.len(), Code::ALL.len() + RETIRED.len());
    let table: String = rows
        .iter()
        .map(|(code, name, severity)| format!("{code} {name} {severity}\n"))
        .collect();
    insta::assert_snapshot!("code_table", table);
}

/// A key that configures the runtime (each concern the AgentPM docs name: a model or
/// provider, a prompt, a phase's packages, an MCP transport, consumer-context files, an
/// approver, a memory store, a tool-call or repair limit) is named with the reason the
/// AgentPM docs give, not only "allowed fields here"; a misspelt `max_steps` is still an
/// unknown field of `limits`, and any other unknown key a plain `F001`.
#[test]
fn runtime_keys_get_the_reason_they_are_absent() {
    let base = std::fs::read_to_string(examples().join("agentpm/react-loop.json")).unwrap();
    let mut m: serde_json::Value = serde_json::from_str(&base).unwrap();
    m["loop"]["limits"]["max_tool_calls"] = 20.into();
    m["loop"]["limits"]["max_setps"] = 20.into();
    m["loop"]["phases"][0]["model"] = "gpt-5".into();
    m["loop"]["phases"][0]["prompt"] = "You are a triager.".into();
    m["loop"]["mcp"] = serde_json::json!({"transport": "stdio"});
    // Every other concern the AgentPM docs name as the runtime's (seed 001).
    m["loop"]["phases"][1]["tools"] = serde_json::json!(["@acme/search"]);
    m["loop"]["phases"][1]["context_files"] = serde_json::json!(["AGENTS.md"]);
    m["loop"]["limits"]["max_repairs"] = 2.into();
    m["loop"]["memory_store"] = "redis".into();
    m["loop"]["checkpoints"] = serde_json::json!([{"id": "ok", "type": "approval",
        "before_phase": "act", "on_reject": "$abort", "approver": "lead"}]);
    m["loop"]["phases"][2]["provider"] = "openai".into();
    let text = serde_json::to_string_pretty(&m).unwrap();
    let l = loopconv::load(
        "agent.json",
        text.as_bytes(),
        &loopconv::LoadOptions::default(),
    );
    let got: Vec<(String, String)> = l
        .diags
        .items()
        .iter()
        .map(|d| {
            let why = d
                .notes
                .first()
                .cloned()
                .or(d.help_text())
                .unwrap_or_default();
            (d.message.clone(), why)
        })
        .collect();
    let find = |key: &str| {
        got.iter()
            .find(|(m, _)| m.starts_with(&format!("unknown field `{key}`")))
            .unwrap_or_else(|| panic!("{key}: {got:#?}"))
            .1
            .clone()
    };
    assert!(
        find("max_tool_calls").contains("only limit a loop declares"),
        "{got:#?}"
    );
    assert!(
        find("model").contains("does not choose a model"),
        "{got:#?}"
    );
    assert!(find("prompt").contains("prompt assembly"), "{got:#?}");
    assert!(
        find("mcp").contains("MCP host, port, transport"),
        "{got:#?}"
    );
    assert_eq!(
        find("max_setps"),
        "allowed fields here: `max_steps`",
        "{got:#?}"
    );
    assert!(
        find("tools").contains("`bindings.phases.<phase-id>`"),
        "{got:#?}"
    );
    assert!(
        find("context_files").contains("consumer-context file contents"),
        "{got:#?}"
    );
    assert!(
        find("max_repairs").contains("only limit a loop declares"),
        "{got:#?}"
    );
    assert!(find("memory_store").contains("memory-store"), "{got:#?}");
    assert!(
        find("approver").contains("approval UI, controller routing and resume"),
        "{got:#?}"
    );
    assert!(find("provider").contains("provider selection"), "{got:#?}");
    assert_eq!(got.len(), 11, "one diagnostic each: {got:#?}");
    // Any other unknown key is a plain F001 with the allowed fields.
    let mut other: serde_json::Value = serde_json::from_str(&base).unwrap();
    other["loop"]["phases"][0]["colour"] = "blue".into();
    let l = loopconv::load(
        "agent.json",
        serde_json::to_string(&other).unwrap().as_bytes(),
        &loopconv::LoadOptions::default(),
    );
    let [d] = l.diags.items() else {
        panic!("{:?}", l.diags.items())
    };
    assert!(d.notes.is_empty(), "{d:?}");
    assert!(
        d.help_text()
            .unwrap_or_default()
            .starts_with("allowed fields here"),
        "{d:?}"
    );
}

/// The common syntax mistakes get a help line with the expected form, placed at the
/// cause.
#[test]
fn syntax_errors_teach_the_expected_form_at_the_cause() {
    let cases: [(&str, &str, (u32, u32), &str); 6] = [
        (
            "loop.yaml",
            "name: qa\ntype: VEAL\nvalidator: qa\nactor: fixer\nchecks:\n  - id: tests\n  type: command\n",
            (7, 3),
            "indent this line to column 5 (`    type: command`)",
        ),
        (
            "loop.yaml",
            "name: feature\ntype: REAL\nactor: dev\nmission: Goal: ship it\n",
            (4, 14),
            "`mission: \"Goal: ship it\"`",
        ),
        (
            "loop.yaml",
            " name: feature\ntype: REAL\nactor: dev\nmission: ship\n",
            (1, 1),
            "remove the spaces before the first key",
        ),
        (
            "loop.json",
            "{\n  \"name\": \"x\",\n  \"version\": \"0.1.0\"\n  \"kind\": \"loop\"\n}\n",
            (3, 20),
            "add `,` after this value",
        ),
        (
            "loop.json",
            "{\n  \"name\": \"x\",\n  \"kind\": \"loop\",\n}\n",
            (3, 17),
            "remove this `,`",
        ),
        (
            "loop.json",
            "name: feature\ntype: REAL\n",
            (1, 1),
            "this looks like YAML",
        ),
    ];
    for (name, text, (line, column), help) in cases {
        let l = loopconv::load(name, text.as_bytes(), &loopconv::LoadOptions::default());
        let d = &l.diags.items()[0];
        assert_eq!(d.code, Code::Syntax, "{text}: {d:?}");
        let p = d.location.pos.expect("located");
        assert_eq!((p.line, p.column), (line, column), "{text}: {d:?}");
        let h = d.help_text().unwrap_or_default();
        assert!(h.contains(help), "{text}: {h}");
    }
}

/// The common shape mistakes get a help line with a short example of the expected form,
/// in the file's syntax, on the wrong value itself: checks as a mapping, an outcome or a
/// port as a bare string, a mission as a list.
#[test]
fn shape_errors_show_the_expected_form_at_the_cause() {
    const VEAL: &str = "name: qa\ntype: VEAL\nvalidator: qa\nactor: fixer\n";
    const APM: &str = "kind: loop\nname: x\nversion: 0.1.0\ndescription: d\nloop:\n  entry_phase: a\n  transitions: [{from: a, on: done, to: $end}]\n  phases:\n    - id: a\n      objective: A.\n";
    let cases: Vec<(&str, String, (u32, u32), &str)> = vec![
        (
            "loop.yaml",
            format!("{VEAL}checks:\n  tests: {{type: command, command: cargo test}}\n"),
            (6, 3),
            "in a list: `checks: [{id: tests, type: command, command: cargo test}]`",
        ),
        (
            "loop.yaml",
            format!("{VEAL}checks:\n  - tests\n"),
            (6, 5),
            "a check is a mapping with an `id` (and a `type` with what it runs), in a list: `- {id: tests, type: command, command: cargo test}`",
        ),
        (
            "loop.json",
            r#"{"name": "qa", "type": "VEAL", "validator": "qa", "actor": "fixer", "checks": {"id": "tests"}}"#.to_owned(),
            (1, 79),
            r#"a check is an object with an `id` (and a `type` with what it runs), in a list: `"checks": [{"id": "tests", "type": "command", "command": "cargo test"}]`"#,
        ),
        (
            "loop.yaml",
            format!("{APM}      outcomes: [done]\n"),
            (11, 18),
            "an outcome is a mapping with an `id` and a `description`, in a list: `- {id: done, description: The work is finished.}`",
        ),
        (
            "loop.yaml",
            format!("{APM}      outcomes: done\n"),
            (11, 17),
            "`outcomes: [{id: done, description: The work is finished.}]`",
        ),
        (
            "loop.yaml",
            "name: feature\ntype: REAL\nactor: dev\nmission: Ship.\ninputs: [report]\n".to_owned(),
            (5, 10),
            "a port is a mapping with a `name` (and optionally a `type`), in a list: `- {name: report, type: file}`",
        ),
        (
            "loop.yaml",
            "name: feature\ntype: REAL\nactor: dev\nmission: Ship.\noutputs: report\n".to_owned(),
            (5, 10),
            "`outputs: [{name: report, type: file}]`",
        ),
        (
            "loop.yaml",
            "name: feature\ntype: REAL\nactor: dev\nmission:\n  - Ship it.\n  - Keep the tests green.\n".to_owned(),
            (5, 3),
            "a mission is one string; for several lines use a block scalar: `mission: |`",
        ),
        (
            "loop.json",
            r#"{"name": "feature", "type": "REAL", "actor": "dev", "mission": ["Ship it."]}"#.to_owned(),
            (1, 64),
            r#"a mission is one string: `"mission": "#,
        ),
    ];
    for (name, text, (line, column), help) in cases {
        let l = loopconv::load(name, text.as_bytes(), &loopconv::LoadOptions::default());
        let errors: Vec<_> = l
            .diags
            .items()
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert_eq!(errors.len(), 1, "one error: {text}: {errors:#?}");
        let d = errors[0];
        assert_eq!(d.code, Code::WrongType, "{text}: {d:?}");
        let p = d.location.pos.expect("located");
        assert_eq!((p.line, p.column), (line, column), "{text}: {d:?}");
        let h = d.help_text().unwrap_or_default();
        assert!(h.contains(help), "{text}: {h}");
    }
}

/// `F020` fires on an AgentPM loop manifest read as YAML, and on nothing else: not on the
/// same manifest in JSON, an Agent manifest in YAML (a document that uses a loop, which
/// AgentPM reads so), a multi-agent-spec loop, or a multi-agent-spec loop read `--from
/// agentpm` (which claims no AgentPM content).
#[test]
fn agentpm_in_yaml_is_warned_about_only_for_loop_manifests() {
    let codes = |name: &str, text: &str, opts: &loopconv::LoadOptions| -> Vec<Code> {
        let l = loopconv::load(name, text.as_bytes(), opts);
        l.diags.items().iter().map(|d| d.code).collect()
    };
    let plain = loopconv::LoadOptions::default();
    let yaml = read(&examples().join("invalid/F020-agentpm-yaml.yaml"));
    let yaml = String::from_utf8(yaml).unwrap();
    assert_eq!(codes("agent.yaml", &yaml, &plain), [Code::AgentpmYaml]);
    // Without `kind` (a `loop` object) too, beside F010.
    let no_kind = yaml.replace("kind: loop\n", "");
    let got = codes("loop.yml", &no_kind, &plain);
    assert!(got.contains(&Code::AgentpmYaml), "{got:?}");
    let json = read(&examples().join("agentpm/react-loop.json"));
    let json = String::from_utf8(json).unwrap();
    assert_eq!(codes("agent.json", &json, &plain), []);
    // The JSON text in a file named `.yaml` (read as YAML): said so, with the name to use.
    let l = loopconv::load("agent.yaml", json.as_bytes(), &plain);
    let [d] = l.diags.items() else {
        panic!("{:?}", l.diags.items())
    };
    assert_eq!(d.code, Code::AgentpmYaml);
    assert!(d.message.contains("JSON in a file named as YAML"), "{d:?}");
    assert_eq!(d.help_text().as_deref(), Some("name the file `agent.json`"));
    let agent = "kind: agent\nname: triager\nversion: 0.1.0\ndescription: Triage.\nloop: \"@acme/react-loop@0.1.0\"\n";
    let documents = loopconv::LoadOptions {
        documents: true,
        ..loopconv::LoadOptions::default()
    };
    assert_eq!(codes("agent.yaml", agent, &documents), []);
    let mas = "name: feature\ntype: REAL\nactor: dev\nmission: Ship.\n";
    assert_eq!(codes("loop.yaml", mas, &plain), []);
    let as_agentpm = loopconv::LoadOptions {
        from: Some(Format::Agentpm),
        ..loopconv::LoadOptions::default()
    };
    let got = codes("loop.yaml", mas, &as_agentpm);
    assert!(!got.contains(&Code::AgentpmYaml), "{got:?}");
}
