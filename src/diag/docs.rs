//! The long form of every diagnostic code: what the rule checks, why it matters, a
//! failing example and its fix.
//!
//! This registry is the one source of the explanations. [`Code::doc`] finds a code's entry
//! (every code has one: a code without an entry, or with two, does not compile), and the
//! entries live by family in `docs/{parse,format,valid,back,interop,xstate,workspace}.rs`.
//! `loopconv explain CODE` prints an entry, the guide's code tables and its page per code
//! are generated from the registry ([`code_table`], [`checks_table`], [`super::pages`];
//! tests keep the committed copies current), SARIF rules carry the entries as their help,
//! and [`help_uri`], the link of SARIF rules and of the language server's code
//! descriptions, is the code's page. A test checks that every failing
//! example really produces its code (and its fix does not).

use std::fmt::Write as _;

use super::Code;
use super::retired::{RETIRED, Retired};
use crate::format::Target;

/// The front door: the README, which links the guide (SARIF's `informationUri`). The
/// repository is Cargo.toml's `repository`, the one place it is written.
pub const README_URL: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/README.md");

/// The folder of the guide's code pages, one `CODE.md` per code ([`help_uri`]). A file in
/// the repository, so the link works without the book being published anywhere.
pub const CODES_URL: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/docs/src/codes/");

/// The long form of one code, found by [`Code::doc`].
#[derive(Debug, Clone, Copy)]
pub struct CodeDoc {
    /// The code explained.
    pub code: Code,
    /// What the rule checks (one or two sentences).
    pub checks: &'static str,
    /// Why it matters to a loop author.
    pub why: &'static str,
    /// How to fix it (prose; [`Example::good`] shows the fixed file where there is one).
    pub fix: &'static str,
    /// A file that produces the code, when an input can (`B004` reports a loopconv bug).
    pub example: Option<Example>,
}

/// A failing input and its fixed form.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    /// The failing file (YAML or JSON; AgentPM loops are read from YAML too).
    pub bad: &'static str,
    /// The fixed file, when the fix is a change to the file (not to a limit or a flag).
    pub good: Option<&'static str>,
    /// How the example is run to produce the code.
    pub how: How,
}

/// How an example produces its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// `loopconv check FILE`.
    Check,
    /// `loopconv check` with one limit lowered (the defaults are large, so a small file
    /// shows the rule).
    Limit(ReadLimit),
    /// `loopconv check` of the text saved as Latin-1 instead of UTF-8 (every character is
    /// one byte, so `é` becomes the invalid UTF-8 byte `0xE9`).
    Latin1,
    /// `loopconv convert FILE --to TARGET`, with `--actor` when given.
    Convert {
        /// The target converted to.
        to: Target,
        /// `--actor NAME`.
        actor: Option<&'static str>,
    },
}

/// A lowered read limit, one field of [`crate::tree::ReadLimits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadLimit {
    /// `max_bytes` (`--max-input-bytes`).
    Bytes(usize),
    /// `max_depth`.
    Depth(usize),
    /// `max_phases`.
    Phases(usize),
    /// `max_diagnostics` (`--max-diagnostics`).
    Diagnostics(usize),
}

impl How {
    /// The command line that shows the code, for `FILE`: one to copy and run.
    pub fn command(self, file: &str) -> String {
        match self {
            How::Check | How::Limit(ReadLimit::Depth(_)) => format!("loopconv check {file}"),
            How::Limit(ReadLimit::Bytes(n)) => {
                format!("loopconv check --max-input-bytes {n} {file}")
            }
            How::Limit(ReadLimit::Phases(n)) => format!("loopconv check --max-phases {n} {file}"),
            How::Limit(ReadLimit::Diagnostics(n)) => {
                format!("loopconv check --max-diagnostics {n} {file}")
            }
            How::Latin1 => format!(
                "iconv -f UTF-8 -t LATIN1 {file} > latin1-{file} && loopconv check latin1-{file}"
            ),
            How::Convert { to, actor: None } => format!("loopconv convert {file} --to {to}"),
            How::Convert { to, actor: Some(a) } => {
                format!("loopconv convert {file} --to {to} --actor {a}")
            }
        }
    }

    /// What the example needs that the command line cannot say, when anything.
    pub fn condition(self) -> Option<String> {
        match self {
            How::Limit(ReadLimit::Depth(n)) => Some(format!(
                "with a nesting limit of {n}, which no flag sets: loopconv reads far deeper (`P005`'s message says how deep), so nest the example deeper to see it"
            )),
            _ => None,
        }
    }
}

impl Code {
    /// The long form of this code.
    pub fn doc(self) -> &'static CodeDoc {
        // In bounds: `DOCS` has one entry per code, at the code's discriminant.
        &DOCS[self as usize]
    }
}

/// Find a code by its string (`V012`, any case) or its kebab-case name
/// (`unreachable-phase`).
pub fn lookup(text: &str) -> Option<Code> {
    let t = text.trim();
    Code::ALL
        .iter()
        .copied()
        .find(|c| c.as_str().eq_ignore_ascii_case(t) || c.name().eq_ignore_ascii_case(t))
}

/// A row of the code tables: a code in use or a retired one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    /// A code diagnostics carry.
    Active(Code),
    /// A retired code, reserved.
    Retired(&'static Retired),
}

impl Row {
    /// The code string.
    pub fn code(self) -> &'static str {
        match self {
            Row::Active(c) => c.as_str(),
            Row::Retired(r) => r.code,
        }
    }

    /// The kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            Row::Active(c) => c.name(),
            Row::Retired(r) => r.name,
        }
    }
}

/// Every code, active and retired, in table order: a retired code after the active code
/// of its family that precedes it (`V017` between `V016` and `V018`).
pub fn rows() -> Vec<Row> {
    let mut out = Vec::new();
    for (i, &c) in Code::ALL.iter().enumerate() {
        out.push(Row::Active(c));
        let next = Code::ALL.get(i + 1).map(|n| n.as_str());
        let family = &c.as_str()[..1];
        for r in RETIRED {
            let after = r.code.starts_with(family) && r.code > c.as_str();
            let before = next.is_none_or(|n| !n.starts_with(family) || r.code < n);
            if after && before {
                out.push(Row::Retired(r));
            }
        }
    }
    out
}

/// Find a code, active or retired, by its string (any case) or name.
pub fn find(text: &str) -> Option<Row> {
    lookup(text)
        .map(Row::Active)
        .or_else(|| super::retired::lookup(text).map(Row::Retired))
}

/// The explanation of a retired code, as `loopconv explain` prints it (Markdown): its
/// page's text and the link to the page.
pub fn explain_retired(r: &Retired) -> String {
    format!("{}\nMore: {}\n", retired_body(r), page_url(r.code))
}

/// What a retired code checked, when and why it was retired, and what to do now.
pub fn retired_body(r: &Retired) -> String {
    format!(
        "# {} {} (retired)

Retired: this code is never reported; it stays reserved and is never reused. It meant: {}.

## Retired

{}

## Why

{}

## What it checked

{}

## What to do

{}
",
        r.code, r.name, r.summary, r.retired, r.why, r.checked, r.instead,
    )
}

/// The link that documents `code`: its page in the guide, `docs/src/codes/CODE.md`.
pub fn help_uri(code: Code) -> String {
    page_url(code.as_str())
}

/// The page of a code string, active or retired.
fn page_url(code: &str) -> String {
    format!("{CODES_URL}{code}.md")
}

/// The help text of `code` as Markdown: what it checks, why, the fix (used as SARIF rule
/// help and by `loopconv explain`).
pub fn help_markdown(code: Code) -> String {
    let d = code.doc();
    format!(
        "{}\n\nWhy it matters: {}\n\nFix: {}",
        d.checks, d.why, d.fix
    )
}

/// The whole explanation of `code`, as `loopconv explain` prints it (Markdown): its page's
/// text and the link to the page.
pub fn explain(code: Code) -> String {
    let mut out = explain_body(code);
    let _ = write!(out, "\nMore: {}\n", help_uri(code));
    out
}

/// The explanation of `code` without its link: title, summary, what it checks, why, the
/// failing example and the fix (the guide's page of the code is this text too).
pub fn explain_body(code: Code) -> String {
    let d = code.doc();
    let mut out = format!(
        "# {} {} ({})\n\n{}.\n",
        code,
        code.name(),
        code.severity().as_str(),
        upper_first(code.summary())
    );
    let _ = write!(
        out,
        "\n## What it checks\n\n{}\n\n## Why it matters\n\n{}\n",
        d.checks, d.why
    );
    if let Some(e) = &d.example {
        let file = example_file_name(e.bad);
        let condition = e
            .how
            .condition()
            .map(|c| format!(" ({c})"))
            .unwrap_or_default();
        // An AgentPM example is YAML to be short: it reports `F020` too, which is said.
        let also = if code != Code::AgentpmYaml && is_agentpm_yaml(e.bad) {
            " (and `F020`: AgentPM reads manifests as JSON only, and the example is written in YAML to be short)"
        } else {
            ""
        };
        let _ = write!(
            out,
            "\n## Example\n\n`{}` reports {}{also}{condition}:\n\n```{}\n{}```\n",
            e.how.command(file),
            code,
            lang(e.bad),
            visible(e.bad)
        );
    }
    let _ = write!(out, "\n## Fix\n\n{}\n", d.fix);
    if let Some(good) = d.example.and_then(|e| e.good) {
        let _ = write!(out, "\n```{}\n{}```\n", lang(good), visible(good));
    }
    out
}

/// The code table of the guide's Diagnostics chapter (`docs/src/diagnostics.md`, between
/// `<!-- codes:start` and `<!-- codes:end -->`): one row per code with its name, severity
/// and summary, the code linking its page.
pub fn code_table() -> String {
    let mut out = String::from("| code | name | severity | meaning |\n|---|---|---|---|\n");
    for row in rows() {
        let (severity, meaning) = match row {
            Row::Active(c) => (c.severity().as_str(), cell(c.summary())),
            Row::Retired(r) => (
                "retired",
                format!("~~{}~~ ({})", cell(r.summary), r.retired_in),
            ),
        };
        let _ = writeln!(
            out,
            "| [`{code}`](codes/{code}.md) | `{}` | {severity} | {meaning} |",
            row.name(),
            code = row.code(),
        );
    }
    out
}

/// The "What each code checks" table of the code reference's index page
/// (`docs/src/codes/index.md`), one row per code, linking the code's page beside it.
pub fn checks_table() -> String {
    let mut out = String::from("| code | what it checks | why it matters |\n|---|---|---|\n");
    for row in rows() {
        let (checks, why) = match row {
            Row::Active(c) => (cell(c.doc().checks), cell(c.doc().why)),
            Row::Retired(r) => (
                format!("Retired. {}", cell(r.checked)),
                format!("{}. {}", upper_first(r.retired_in), cell(r.instead)),
            ),
        };
        let _ = writeln!(
            out,
            "| [`{code}`]({code}.md) `{}` | {checks} | {why} |",
            row.name(),
            code = row.code(),
        );
    }
    out
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Text for a Markdown table cell: a `|` would end the cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// `loop.json` or `loop.yaml`, after the example's language.
pub fn example_file_name(text: &str) -> &'static str {
    if lang(text) == "json" {
        "loop.json"
    } else {
        "loop.yaml"
    }
}

/// Whether an example is an AgentPM loop manifest written in YAML (which reports `F020`
/// besides its own code).
pub fn is_agentpm_yaml(text: &str) -> bool {
    lang(text) == "yaml" && text.lines().any(|l| l == "kind: loop" || l == "loop:")
}

fn lang(text: &str) -> &'static str {
    if text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with(['{', '['])
    {
        "json"
    } else {
        "yaml"
    }
}

/// Show invisible characters of an example (a NUL byte, a byte-order mark).
fn visible(text: &str) -> String {
    text.replace('\0', "\\0").replace('\u{feff}', "<U+FEFF>")
}

// ---- the examples ----

/// The first lines of every AgentPM example.
macro_rules! head {
    () => {
        "$schema: https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json\nkind: loop\n"
    };
}

/// `name`, `version`, `description`.
macro_rules! meta {
    () => {
        "name: triage\nversion: 0.1.0\ndescription: Sort an incoming issue.\n"
    };
}

/// A valid one-phase `loop`.
macro_rules! body {
    () => {
        "loop:
  archetype: triage
  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
  transitions:
    - {from: read, on: complete, to: $end}
"
    };
}

/// An AgentPM manifest in JSON, up to its last transition.
macro_rules! json_head {
    () => {
        r#"{
  "$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json",
  "kind": "loop",
  "name": "triage",
  "version": "0.1.0",
  "description": "Sort an incoming issue.",
  "loop": {
    "entry_phase": "read",
    "phases": [{"id": "read", "objective": "Read the issue."}],
    "transitions": [
"#
    };
}

/// A whole AgentPM manifest: the valid one, or one with the given `loop:` body.
macro_rules! apm {
    () => {
        concat!(head!(), meta!(), body!())
    };
    ($loop:literal) => {
        concat!(head!(), meta!(), "loop:\n", $loop)
    };
}

/// A valid REAL loop (multi-agent-spec) with extra lines.
macro_rules! real {
    ($($extra:literal)?) => {
        concat!(
            "name: feature\ntype: REAL\ndescription: Implement a feature.\nactor: developer\n",
            "max_attempts: 3\nsuccess_criteria: The tests pass.\n",
            $($extra)?
        )
    };
}

/// A valid VEAL loop's first lines (add `checks`).
macro_rules! veal {
    ($($extra:literal)?) => {
        concat!(
            "name: lint-fix\ntype: VEAL\ndescription: Keep the lints clean.\n",
            "validator: linter\nactor: fixer\nmax_attempts: 2\nescalation: abort\n",
            $($extra)?
        )
    };
}

const fn ex(bad: &'static str, good: &'static str) -> Option<Example> {
    Some(Example {
        bad,
        good: Some(good),
        how: How::Check,
    })
}

const fn limit(bad: &'static str, limit: ReadLimit) -> Option<Example> {
    Some(Example {
        bad,
        good: None,
        how: How::Limit(limit),
    })
}

const fn convert(bad: &'static str, to: Target, actor: Option<&'static str>) -> Option<Example> {
    Some(Example {
        bad,
        good: None,
        how: How::Convert { to, actor },
    })
}

mod back;
mod format;
mod interop;
mod parse;
mod valid;
mod workspace;
mod xstate;

/// Every entry, at its code's discriminant (the order of [`Code::ALL`]).
static DOCS: [CodeDoc; Code::ALL.len()] = index(&[
    parse::DOCS,
    format::DOCS,
    valid::DOCS,
    back::DOCS,
    interop::DOCS,
    xstate::DOCS,
    workspace::DOCS,
]);

/// The families' entries placed at their codes' discriminants. Evaluated at compile time: a
/// code without an entry, or with two, stops the build.
const fn index(families: &[&[CodeDoc]]) -> [CodeDoc; Code::ALL.len()] {
    const NONE: CodeDoc = CodeDoc {
        code: Code::Syntax,
        checks: "",
        why: "",
        fix: "",
        example: None,
    };
    let mut out = [NONE; Code::ALL.len()];
    let mut placed = [false; Code::ALL.len()];
    let mut f = 0;
    while f < families.len() {
        let mut i = 0;
        while i < families[f].len() {
            let at = families[f][i].code as usize;
            assert!(!placed[at], "diag::docs: a code has two entries");
            out[at] = families[f][i];
            placed[at] = true;
            i += 1;
        }
        f += 1;
    }
    let mut at = 0;
    while at < Code::ALL.len() {
        assert!(
            placed[at],
            "diag::docs: a code has no entry in docs/<family>.rs"
        );
        assert!(
            Code::ALL[at] as usize == at,
            "Code::ALL is in declaration order"
        );
        at += 1;
    }
    out
}
