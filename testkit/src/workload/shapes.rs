//! Loops shaped unlike [`super::agentpm_loop`], so that a benchmark cannot be tuned to one
//! layout: other text lengths, self-loops, no or many checkpoints, other key orders and
//! indentation, phases without outcomes; and a large MAS loop (VEAL with many checks),
//! written as YAML and as JSON.
//!
//! Each file is built as a [`Json`] value with its keys in authored order, then written
//! with a [`KeyOrder`] and a [`Layout`] (YAML for MAS).

use super::{Rng, SCHEMA, words};

/// A JSON value, its object keys in authored order.
pub enum Json {
    Str(String),
    Bool(bool),
    Num(usize),
    Arr(Vec<Json>),
    Obj(Vec<(&'static str, Json)>),
}

/// The order object keys are written in.
#[derive(Clone, Copy, Debug)]
pub enum KeyOrder {
    /// As authored (`id` first, `from`, `on`, `to`).
    Authored,
    /// Sorted, as machine-written files are.
    Alphabetical,
    /// Authored order reversed (`checkpoints` before `phases`, `to` before `from`).
    Reversed,
}

/// How a JSON file is indented.
#[derive(Clone, Copy, Debug)]
pub enum Layout {
    /// No whitespace at all.
    Minified,
    /// One value per line, `n` spaces a level.
    Spaces(usize),
    /// One value per line, a tab a level.
    Tabs,
}

impl Json {
    fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }

    /// The value as JSON text, ending with a newline.
    pub fn to_json(&self, order: KeyOrder, layout: Layout) -> String {
        let mut out = String::new();
        self.write_json(&mut out, order, layout, 0);
        out.push('\n');
        out
    }

    fn write_json(&self, out: &mut String, order: KeyOrder, layout: Layout, depth: usize) {
        match self {
            Json::Str(s) => quote(out, s),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => out.push_str(&n.to_string()),
            Json::Arr(items) => {
                let items: Vec<(Option<&str>, &Json)> = items.iter().map(|v| (None, v)).collect();
                write_members(out, ('[', ']'), &items, order, layout, depth);
            }
            Json::Obj(members) => {
                let mut members: Vec<(Option<&str>, &Json)> =
                    members.iter().map(|(k, v)| (Some(*k), v)).collect();
                match order {
                    KeyOrder::Authored => {}
                    KeyOrder::Alphabetical => members.sort_by_key(|m| m.0),
                    KeyOrder::Reversed => members.reverse(),
                }
                write_members(out, ('{', '}'), &members, order, layout, depth);
            }
        }
    }

    /// The value as a YAML block document (authored key order, two spaces a level).
    pub fn to_yaml(&self) -> String {
        let mut out = String::new();
        if let Json::Obj(members) = self {
            write_yaml_members(&mut out, members, 0, false);
        }
        out
    }
}

/// The members of an array or object between `brackets`.
fn write_members(
    out: &mut String,
    brackets: (char, char),
    members: &[(Option<&str>, &Json)],
    order: KeyOrder,
    layout: Layout,
    depth: usize,
) {
    out.push(brackets.0);
    for (i, (key, value)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        newline(out, layout, depth + 1);
        if let Some(key) = key {
            quote(out, key);
            out.push(':');
            if !matches!(layout, Layout::Minified) {
                out.push(' ');
            }
        }
        value.write_json(out, order, layout, depth + 1);
    }
    if !members.is_empty() {
        newline(out, layout, depth);
    }
    out.push(brackets.1);
}

fn newline(out: &mut String, layout: Layout, depth: usize) {
    match layout {
        Layout::Minified => {}
        Layout::Spaces(n) => {
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', n * depth));
        }
        Layout::Tabs => {
            out.push('\n');
            out.extend(std::iter::repeat_n('\t', depth));
        }
    }
}

/// `s` as a JSON string (also a YAML double-quoted scalar).
fn quote(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Object members as YAML at `depth`; `first_inline` when the first key follows a `- `.
fn write_yaml_members(
    out: &mut String,
    members: &[(&'static str, Json)],
    depth: usize,
    first_inline: bool,
) {
    for (i, (key, value)) in members.iter().enumerate() {
        if i > 0 || !first_inline {
            out.extend(std::iter::repeat_n(' ', 2 * depth));
        }
        out.push_str(key);
        out.push(':');
        write_yaml_value(out, value, depth);
    }
}

/// A value after `key:` at `depth`.
fn write_yaml_value(out: &mut String, value: &Json, depth: usize) {
    match value {
        Json::Obj(members) if !members.is_empty() => {
            out.push('\n');
            write_yaml_members(out, members, depth + 1, false);
        }
        Json::Arr(items) if !items.is_empty() => {
            out.push('\n');
            for item in items {
                out.extend(std::iter::repeat_n(' ', 2 * depth + 2));
                out.push_str("- ");
                match item {
                    Json::Obj(members) if !members.is_empty() => {
                        write_yaml_members(out, members, depth + 2, true)
                    }
                    scalar => {
                        write_yaml_scalar(out, scalar);
                        out.push('\n');
                    }
                }
            }
        }
        scalar => {
            out.push(' ');
            write_yaml_scalar(out, scalar);
            out.push('\n');
        }
    }
}

fn write_yaml_scalar(out: &mut String, value: &Json) {
    match value {
        Json::Str(s) if plain_yaml(s) => out.push_str(s),
        Json::Arr(_) => out.push_str("[]"),
        Json::Obj(_) => out.push_str("{}"),
        other => other.write_json(out, KeyOrder::Authored, Layout::Minified, 0),
    }
}

/// Whether `s` reads back as the same string when written plain in YAML.
fn plain_yaml(s: &str) -> bool {
    let safe = |c: char| c.is_ascii_alphanumeric() || " ._/-".contains(c);
    s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars().all(safe)
        && !s.ends_with(' ')
        && !["true", "false", "null", "yes", "no", "on", "off", "y", "n"]
            .contains(&s.to_ascii_lowercase().as_str())
}

/// What a shaped AgentPM loop looks like.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Words of an objective (min, max).
    pub objective_words: (usize, usize),
    /// Words of an outcome description (min, max).
    pub description_words: (usize, usize),
    /// Text with non-ASCII letters, quotes, a backslash and a tab (escaped in JSON).
    pub rich_text: bool,
    /// `retry` goes back to the phase itself (otherwise to the one before).
    pub self_loops: bool,
    /// Every second phase declares no outcomes (the implicit `complete`).
    pub implicit_outcomes: bool,
    /// Checkpoints before every `checkpoint_every`-th phase (0: none)...
    pub checkpoint_every: usize,
    /// ... this many before each of those phases.
    pub checkpoints_per_phase: usize,
    /// An `error_policy` (retry tool failures, hand off phase failures) and `access`.
    pub policy: bool,
    pub order: KeyOrder,
    pub layout: Layout,
}

impl Shape {
    /// One-word texts, half the phases without outcomes, no checkpoints, no limits, no
    /// access: minified, keys sorted.
    pub const SHORT: Shape = Shape {
        objective_words: (1, 1),
        description_words: (1, 1),
        rich_text: false,
        self_loops: false,
        implicit_outcomes: true,
        checkpoint_every: 0,
        checkpoints_per_phase: 0,
        policy: false,
        order: KeyOrder::Alphabetical,
        layout: Layout::Minified,
    };
    /// Objectives of 120-200 words and descriptions of 30-60 with non-ASCII text and
    /// escapes, two checkpoints before every phase, an error policy: four-space indent,
    /// keys reversed.
    pub const LONG: Shape = Shape {
        objective_words: (120, 200),
        description_words: (30, 60),
        rich_text: true,
        self_loops: false,
        implicit_outcomes: false,
        checkpoint_every: 1,
        checkpoints_per_phase: 2,
        policy: true,
        order: KeyOrder::Reversed,
        layout: Layout::Spaces(4),
    };
    /// Every `retry` a self-loop, texts of 1-60 words, a checkpoint before every fourth
    /// phase: tabs, authored key order.
    pub const SELF_LOOPS: Shape = Shape {
        objective_words: (1, 60),
        description_words: (1, 20),
        rich_text: false,
        self_loops: true,
        implicit_outcomes: false,
        checkpoint_every: 4,
        checkpoints_per_phase: 1,
        policy: false,
        order: KeyOrder::Authored,
        layout: Layout::Tabs,
    };
}

const RICH: &[&str] = &[
    "naïve",
    "café",
    "Größe",
    "日本語",
    "\"quoted\"",
    "C:\\path",
    "tab\there",
    "—",
    "emoji 🚀",
];

/// A text of `range` words, with rich words mixed in if `rich`.
fn text(rng: &mut Rng, range: (usize, usize), rich: bool) -> String {
    let n = range.0 + rng.below(range.1 - range.0 + 1);
    let mut s = words(rng, n);
    if rich && n > 1 {
        for _ in 0..n / 10 {
            let at = s[..s.len() - 1].rfind(' ').unwrap_or(0);
            s.insert_str(at, &format!(" {}", RICH[rng.below(RICH.len())]));
        }
    }
    s
}

fn id(i: usize) -> String {
    format!("p{i:06}")
}

/// The outcomes phase `i` can end with (empty: the implicit `complete`).
fn outcome_ids(shape: &Shape, i: usize) -> &'static [&'static str] {
    if shape.implicit_outcomes && i % 2 == 1 {
        &[]
    } else if shape.implicit_outcomes {
        &["advance", "retry"]
    } else {
        &["advance", "retry", "escalate"]
    }
}

fn phase(shape: &Shape, rng: &mut Rng, i: usize) -> Json {
    let mut members = vec![
        ("id", Json::str(id(i))),
        (
            "objective",
            Json::str(text(rng, shape.objective_words, shape.rich_text)),
        ),
    ];
    if shape.policy {
        let memory = Json::Obj(vec![
            ("read", Json::Bool(true)),
            ("write", Json::Bool(i.is_multiple_of(2))),
        ]);
        members.push((
            "access",
            Json::Obj(vec![
                ("tools", Json::Bool(!i.is_multiple_of(3))),
                ("memory", memory),
            ]),
        ));
    }
    let outcomes = outcome_ids(shape, i);
    if !outcomes.is_empty() {
        let outcomes = outcomes
            .iter()
            .map(|o| {
                let description = text(rng, shape.description_words, shape.rich_text);
                Json::Obj(vec![
                    ("id", Json::str(*o)),
                    ("description", Json::Str(description)),
                ])
            })
            .collect();
        members.push(("outcomes", Json::Arr(outcomes)));
    }
    Json::Obj(members)
}

fn transitions(shape: &Shape, phases: usize, i: usize) -> Vec<Json> {
    let next = if i + 1 < phases {
        id(i + 1)
    } else {
        "$end".to_owned()
    };
    let to = |outcome: &str| match outcome {
        "advance" | "complete" => next.clone(),
        "retry" if shape.self_loops => id(i),
        "retry" => id(i.saturating_sub(1)),
        _ => "$handoff".to_owned(),
    };
    let outcomes = match outcome_ids(shape, i) {
        [] => &["complete"][..],
        some => some,
    };
    outcomes
        .iter()
        .map(|o| {
            Json::Obj(vec![
                ("from", Json::str(id(i))),
                ("on", Json::str(*o)),
                ("to", Json::Str(to(o))),
            ])
        })
        .collect()
}

fn checkpoints(shape: &Shape, phases: usize) -> Vec<Json> {
    if shape.checkpoint_every == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for i in (1..phases).step_by(shape.checkpoint_every) {
        for k in 0..shape.checkpoints_per_phase {
            let on_reject = if k == 0 {
                "$abort".to_owned()
            } else {
                id(i - 1)
            };
            out.push(Json::Obj(vec![
                ("id", Json::Str(format!("gate-{i}-{k}"))),
                ("type", Json::str("approval")),
                ("before_phase", Json::str(id(i))),
                ("on_reject", Json::Str(on_reject)),
            ]));
        }
    }
    out
}

/// An AgentPM loop of `phases` phases (at least 2) shaped as `shape`: valid, with
/// `$schema`.
pub fn shaped_loop(name: &str, phases: usize, seed: u64, shape: &Shape) -> String {
    let mut rng = Rng::new(seed);
    let phases = phases.max(2);
    let list: Vec<Json> = (0..phases).map(|i| phase(shape, &mut rng, i)).collect();
    let mut body = vec![
        ("archetype", Json::str("generated")),
        ("entry_phase", Json::str(id(0))),
    ];
    if shape.policy {
        let tool = Json::Obj(vec![
            ("action", Json::str("retry")),
            ("max_retries", Json::Num(2)),
            ("on_exhausted", Json::str("fail_phase")),
        ]);
        let phase = Json::Obj(vec![("action", Json::str("handoff"))]);
        body.push((
            "error_policy",
            Json::Obj(vec![("tool_failure", tool), ("phase_failure", phase)]),
        ));
    }
    if shape.checkpoint_every > 0 {
        body.push((
            "limits",
            Json::Obj(vec![("max_steps", Json::Num(phases * 3))]),
        ));
    }
    body.push(("phases", Json::Arr(list)));
    let all = (0..phases)
        .flat_map(|i| transitions(shape, phases, i))
        .collect();
    body.push(("transitions", Json::Arr(all)));
    body.push(("checkpoints", Json::Arr(checkpoints(shape, phases))));
    Json::Obj(vec![
        ("$schema", Json::str(SCHEMA)),
        ("kind", Json::str("loop")),
        ("name", Json::str(name)),
        ("version", Json::str("1.0.0")),
        (
            "description",
            Json::Str(format!("Generated loop of {phases} phases ({shape:?}).")),
        ),
        ("loop", Json::Obj(body)),
    ])
    .to_json(shape.order, shape.layout)
}

fn check(rng: &mut Rng, c: usize) -> Json {
    let mut members = vec![("id", Json::Str(format!("check-{c:05}")))];
    let n = 70 + rng.below(61);
    let description = Json::Str(words(rng, n));
    match c % 4 {
        0 => {
            members.push(("type", Json::str("command")));
            members.push((
                "command",
                Json::Str(format!("cargo test --package crate-{c}")),
            ));
        }
        1 => {
            members.push(("type", Json::str("pattern")));
            members.push(("pattern", Json::str("TODO|FIXME")));
            members.push(("files", Json::Str(format!("src/module_{c}/**/*.rs"))));
        }
        2 => {
            members.push(("type", Json::str("file")));
            members.push(("file", Json::Str(format!("docs/part-{c}.md"))));
        }
        _ => members.push(("type", Json::str("manual"))),
    }
    members.push(("description", description));
    members.push(("required", Json::Bool(!c.is_multiple_of(5))));
    Json::Obj(members)
}

fn port(rng: &mut Rng, name: String) -> Json {
    Json::Obj(vec![
        ("name", Json::Str(name)),
        ("type", Json::str("string")),
        ("description", Json::Str(words(rng, 12))),
        ("required", Json::Bool(true)),
    ])
}

/// A VEAL loop of `checks` checks (70-130 words of description each) and a few ports: a
/// MAS loop is fixed-shape (one actor, one validator), so a large one is large by its
/// checks. Returned as a value, to be written as YAML or JSON.
pub fn mas_checks(name: &str, checks: usize, seed: u64) -> Json {
    let mut rng = Rng::new(seed);
    let list = (0..checks).map(|c| check(&mut rng, c)).collect();
    let inputs = (0..20)
        .map(|k| port(&mut rng, format!("input_{k}")))
        .collect();
    let outputs = (0..20)
        .map(|k| port(&mut rng, format!("output_{k}")))
        .collect();
    Json::Obj(vec![
        ("name", Json::str(name)),
        ("type", Json::str("VEAL")),
        ("description", Json::Str(words(&mut rng, 40))),
        ("actor", Json::str("fixer")),
        ("validator", Json::str("auditor")),
        ("checks", Json::Arr(list)),
        ("inputs", Json::Arr(inputs)),
        ("outputs", Json::Arr(outputs)),
        ("success_criteria", Json::Str(words(&mut rng, 30))),
        ("max_attempts", Json::Num(5)),
        ("escalation", Json::str("human")),
    ])
}
