//! `loopconv explain` and the documentation table behind it (`loopconv::diag::docs`): every
//! code has an entry, every failing example really produces its code and its fix does not,
//! and the guide's code table is generated from the same entries (the code pages:
//! `valid::pages`).

use std::collections::BTreeSet;

use loopconv::back;
use loopconv::diag::docs::{self, Example, How, ReadLimit};
use loopconv::diag::retired::RETIRED;
use loopconv::diag::{Code, Severity};
use loopconv::tree::ReadLimits;
use loopconv::{LoadOptions, load};

use crate::support::{self, loopconv};

/// Codes without an example (`B004` reports a loopconv bug, or a port schema nested about 128
/// levels deep, too long for a page; `B006` needs two files).
const NO_EXAMPLE: &[Code] = &[
    Code::InvalidOutput,
    Code::OutputCollision,
    Code::NotALoop,
    Code::UnknownStepLoop,
    Code::StepAgentAndLoop,
    Code::UnknownStepDependency,
    Code::StepDependencyCycle,
    Code::UnknownTeamAgent,
    Code::LoopAgentWithoutSpec,
    Code::DuplicateLoopName,
    Code::TeamPrerequisite,
    Code::TeamPortShape,
    Code::DuplicateStepName,
    Code::AgentSpecFrontMatter,
    Code::UnresolvedLoop,
    Code::ResolvedNotALoop,
    Code::LockedVersionNotAdmitted,
    Code::BindingsWithoutLoop,
    Code::UnknownPhaseBinding,
    Code::RangeOutsideSchema,
    Code::UnusableLock,
    Code::LoopSource,
];

/// The bytes of an example's text as the example is meant to be read.
fn bytes(text: &str, how: How) -> Vec<u8> {
    match how {
        // Latin-1: every character below U+0100 as one byte.
        How::Latin1 => text
            .chars()
            .map(|c| u8::try_from(u32::from(c)).expect("a Latin-1 character"))
            .collect(),
        _ => text.as_bytes().to_vec(),
    }
}

/// Run an example's text the way its `How` says; every code reported, and the severities.
fn run(text: &str, how: How) -> Vec<(Code, Severity)> {
    let mut limits = ReadLimits::default();
    match how {
        How::Limit(ReadLimit::Bytes(n)) => limits.max_bytes = n,
        How::Limit(ReadLimit::Depth(n)) => limits.max_depth = n,
        How::Limit(ReadLimit::Phases(n)) => limits.max_phases = n,
        How::Limit(ReadLimit::Diagnostics(n)) => limits.max_diagnostics = n,
        How::Check | How::Latin1 | How::Convert { .. } => {}
    }
    let name = docs::example_file_name(text);
    let opts = LoadOptions {
        limits,
        ..LoadOptions::default()
    };
    let mut loaded = load(name, &bytes(text, how), &opts);
    if let How::Convert { to, actor } = how {
        let (spec, info) = loaded
            .valid()
            .map(|(s, i)| (s.clone(), i.clone()))
            .expect("a convert example passes check");
        let opts = back::Options {
            actor: actor.map(str::to_owned),
            ..back::Options::default()
        };
        // A refused conversion is a diagnostic; an `Err` is a broken back end.
        loopconv::write(to, &spec, &info, &opts, &mut loaded.diags)
            .unwrap_or_else(|e| panic!("{name}: the {to} back end failed: {e}"));
    }
    loaded
        .diags
        .items()
        .iter()
        .map(|d| (d.code, d.severity))
        .collect()
}

/// The authority: every code's entry is its own, and says something.
#[test]
fn every_code_has_an_entry() {
    for &code in Code::ALL {
        let d = code.doc();
        assert_eq!(d.code, code, "`Code::doc` found another code's entry");
        for (what, text) in [("checks", d.checks), ("why", d.why), ("fix", d.fix)] {
            assert!(!text.trim().is_empty(), "{code}: empty `{what}`");
        }
        assert_eq!(
            d.example.is_none(),
            NO_EXAMPLE.contains(&code),
            "{code}: every code that an input can produce has an example"
        );
    }
}

fn check_example(code: Code, e: &Example) {
    let got = run(e.bad, e.how);
    assert!(
        got.iter().any(|(c, _)| *c == code),
        "{code}: the example must produce {code}, got {got:?}"
    );
    if let Some(good) = e.good {
        let mut fixed = run(good, e.how);
        // An AgentPM example written in YAML (to be short) reports `F020` too, which its
        // page says; nothing else.
        if code != Code::AgentpmYaml && docs::is_agentpm_yaml(good) {
            let at = fixed.iter().position(|(c, _)| *c == Code::AgentpmYaml);
            assert!(
                at.is_some(),
                "{code}: an AgentPM example in YAML reports F020"
            );
            fixed.retain(|(c, _)| *c != Code::AgentpmYaml);
        }
        assert!(
            fixed.iter().all(|(c, _)| *c != code),
            "{code}: the fix still produces it: {fixed:?}"
        );
        assert!(
            fixed.is_empty(),
            "{code}: the fixed example must be clean, got {fixed:?}"
        );
    }
}

#[test]
fn every_example_produces_its_code_and_its_fix_does_not() {
    let mut checked = BTreeSet::new();
    for &code in Code::ALL {
        if let Some(e) = &code.doc().example {
            check_example(code, e);
            checked.insert(code);
        }
    }
    assert_eq!(checked.len() + NO_EXAMPLE.len(), Code::ALL.len());
}

#[test]
fn explain_prints_the_long_form() {
    let out = loopconv().args(["explain", "V012"]).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    for part in [
        "# V012 unreachable-phase (error)",
        "## What it checks",
        "## Why it matters",
        "## Example",
        "loopconv check loop.yaml",
        "## Fix",
        &docs::help_uri(Code::UnreachablePhase),
    ] {
        assert!(text.contains(part), "missing {part:?} in:\n{text}");
    }
    // By name, in any case, gives the same text.
    loopconv()
        .args(["explain", "Unreachable-Phase"])
        .assert()
        .success()
        .stdout(text);
}

#[test]
fn explain_without_a_code_lists_every_code() {
    let out = loopconv().arg("explain").assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert_eq!(text.lines().count(), Code::ALL.len() + RETIRED.len());
    for c in Code::ALL {
        assert!(text.contains(c.as_str()) && text.contains(c.name()), "{c}");
    }
    // A retired code is listed in its place, marked.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("V017  duplicate-checkpoint-phase "))
        .expect("V017 listed");
    assert!(
        lines[at].ends_with(" (retired) two approval checkpoints guard the same phase"),
        "{}",
        lines[at]
    );
    assert!(lines[at - 1].starts_with("V016") && lines[at + 1].starts_with("V018"));
}

/// V017 is retired (issue 18): `explain` says when and why, by code and by name; no code
/// carries it, so nothing reports it, and SARIF's rules (one per `Code`) leave it out.
#[test]
fn explain_of_a_retired_code_says_when_and_why() {
    let out = loopconv().args(["explain", "V017"]).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    for part in [
        "# V017 duplicate-checkpoint-phase (retired)",
        "never reported; it stays reserved and is never reused",
        "## Retired",
        "AgentPM harness release (agentpm-dev/cli `specs/2026-08-20-harness/spec.md`",
        "## Why",
        "\"Multiple approval checkpoints may target the same before_phase. Compatible runtimes evaluate matching checkpoints in the authored loop.checkpoints order before entering that phase.\"",
        "the first rejection stops the evaluation and follows its own `on_reject`",
        "## What to do",
        "/docs/src/codes/V017.md",
    ] {
        assert!(text.contains(part), "missing {part:?} in:\n{text}");
    }
    assert!(!text.contains("Merge the checkpoints"), "{text}");
    loopconv()
        .args(["explain", "duplicate-checkpoint-phase"])
        .assert()
        .success()
        .stdout(text);
    assert!(
        Code::ALL
            .iter()
            .all(|c| c.as_str() != "V017" && c.name() != "duplicate-checkpoint-phase")
    );
    assert!(
        docs::lookup("V017").is_none(),
        "no active code answers to V017"
    );
}

#[test]
fn explain_an_unknown_code_is_a_usage_error() {
    loopconv()
        .args(["explain", "X999"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "`X999` is not a loopconv diagnostic code",
        ));
}

/// The examples are shown as they are, except invisible characters.
#[test]
fn explain_shows_invisible_characters() {
    let out = loopconv().args(["explain", "P010"]).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(!text.contains('\0') && text.contains("\\0"), "{text}");
}

/// The guide's code table (Diagnostics chapter) lists every code of the registry, as
/// `docs::code_table` renders it; `LOOPCONV_BLESS=1` (exactly `1`) rewrites it.
#[test]
fn guide_code_table_is_current() {
    support::region_is_current(
        "docs/src/diagnostics.md",
        "<!-- codes:start",
        "<!-- codes:end -->",
        &docs::code_table(),
        "LOOPCONV_BLESS=1 cargo test --test suite valid::explain",
    );
}
