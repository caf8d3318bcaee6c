//! Generators (proptest strategies) shared by the property tests: ids, texts, phase
//! graphs, AgentPM specs, MAS loops, mixed IR, conversion options.

use loopconv::diag::{Diagnostics, Severity};
use loopconv::ir::{
    Access, Bounds, Checkpoint, Destination, ErrorPolicy, Exhausted, Graph, License, LoopPattern,
    MemoryAccess, Outcome, Phase, PhaseAction, PhaseFailure, Spec, Terminal, ToolAction,
    ToolFailure, Transition,
};
use loopconv::model::agentpm as am;
use loopconv::model::mas as mm;
use loopconv::{Format, LoadOptions, Loaded, load};
use loopconv::{Target, back};
use proptest::prelude::{Just, Strategy, TestCaseError, any, prop, prop_assert, prop_oneof};
use proptest::test_runner::Config;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// `cases` per property, or `PROPTEST_CASES` when set (for long runs by hand). Failures are
/// persisted (proptest's default, `SourceParallel("proptest-regressions")`): a failing case
/// is written to `proptest-regressions/` beside the test's source and replayed first on
/// every later run; commit those files. For this test binary (root `tests/suite/main.rs`)
/// proptest puts them under `tests/proptest-regressions/` mirroring `tests/suite/`
/// (`tests/suite/front/mutations.rs` -> `tests/proptest-regressions/front/mutations.txt`).
pub fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        ..Config::default()
    }
}

// ------------------------------------------------------------------ strategies

/// A stable id: `^[a-z](?:-?[a-z0-9])*$`, at most 64 characters.
pub fn stable_id() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-z](-?[a-z0-9]){0,6}",
        1 => "[a-z](-?[a-z0-9]){20,31}",
    ]
}

/// Text that stresses quoting and escaping in every writer: YAML indicators and keywords,
/// quotes, backslashes, newlines, tabs, carriage returns, Unicode line separators, markup
/// that Mermaid, DOT and Markdown treat specially, and plain text.
pub fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-zA-Z0-9 ]{0,30}",
        3 => "[ -~]{0,40}",
        2 => "\\PC{0,20}",
        2 => "[a-z \t\n\r\"'\\\\:#&*!|>%@`{}\\[\\],?<>;=()-]{0,24}",
        1 => "[\u{85}\u{a0}\u{2028}\u{2029}\u{feff}\u{200b}\u{1F600}é a\n]{0,12}",
        2 => prop::sample::select(vec![
            "", " ", "yes", "no", "on", "off", "null", "~", "true", "false", "1", "1.0",
            "0x1F", "1e3", ".inf", "-", "---", "...", "- a", "a: b", "#c", " lead",
            "trail ", "*a", "&a", "!tag", "|", ">", "\"", "'", "\\", "a\n", "a\n\n",
            "\nlead", "  two\n lines  ", "end -->", "<b>x</b>", "[link](x)", "a|b",
            "{{ x }}", "{% raw %}", "$end", "%%", "\t", "\r\n", "x\ry",
        ])
        .prop_map(str::to_owned),
    ]
}

/// Text with a non-whitespace character (objectives, outcome descriptions, archetypes).
pub fn nonblank() -> impl Strategy<Value = String> {
    text().prop_filter("needs a non-blank character", |t| !t.trim().is_empty())
}

pub fn tri() -> impl Strategy<Value = Option<bool>> {
    prop_oneof![Just(None), Just(Some(true)), Just(Some(false))]
}

pub fn access() -> impl Strategy<Value = Option<Access>> {
    let memory = prop_oneof![
        Just(None),
        (tri(), tri()).prop_filter_map("memory needs a key", |(read, write)| {
            (read.is_some() || write.is_some()).then_some(Some(MemoryAccess { read, write }))
        }),
    ];
    prop::option::of(
        (tri(), tri(), memory).prop_map(|(tools, knowledge, memory)| Access {
            tools,
            knowledge,
            memory,
        }),
    )
}

/// Arbitrary JSON, for the pass-through fields (`environment`, port `schema` and `default`).
pub fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop_oneof![
            -1e6f64..1e6,
            prop::sample::select(vec![0.5, -0.25, 1.5e300, 2.0, 1e-7, 3.0])
        ]
        .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((text(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// An optional pass-through value: a top-level `null` reads back as absent (serde's
/// `Option` convention), so it is generated as absent.
pub fn passthrough() -> impl Strategy<Value = Option<Value>> {
    prop::option::of(json_value()).prop_map(|v| v.filter(|v| !v.is_null()))
}

#[derive(Debug, Clone)]
pub struct PhaseDraft {
    pub objective: String,
    pub access: Option<Access>,
    pub outcomes: Option<Vec<(String, String)>>,
}

pub fn phase_draft() -> impl Strategy<Value = PhaseDraft> {
    (
        nonblank(),
        access(),
        prop::option::of(prop::collection::vec((stable_id(), nonblank()), 1..4)),
    )
        .prop_map(|(objective, access, outcomes)| PhaseDraft {
            objective,
            access,
            outcomes: outcomes.map(|os| {
                let mut seen = BTreeSet::new();
                os.into_iter()
                    .filter(|(id, _)| seen.insert(id.clone()))
                    .collect()
            }),
        })
}

/// A source of random choices, drawn from a generated pool.
pub struct Picks<'a> {
    pub pool: &'a [u32],
    pub i: usize,
}

impl Picks<'_> {
    pub fn below(&mut self, n: usize) -> usize {
        let v = self.pool[self.i % self.pool.len()] as usize;
        self.i += 1;
        v % n.max(1)
    }
}

pub fn terminal(i: usize) -> Terminal {
    Terminal::ALL[i % 3]
}

/// A valid phase graph: every (phase, outcome) pair has exactly one transition, every phase
/// is reachable from the entry (each phase after the first is the target of a slot of an
/// earlier phase), and at least one slot goes to a terminal.
pub fn graph() -> impl Strategy<Value = Graph> {
    (
        prop::collection::vec(stable_id(), 1..8),
        prop::collection::vec(phase_draft(), 8),
        prop::collection::vec(any::<u32>(), 64),
        prop::option::of(prop::collection::vec(
            (stable_id(), any::<u32>(), any::<u32>()),
            0..4,
        )),
    )
        .prop_map(|(ids, drafts, pool, checkpoints)| {
            let mut seen = BTreeSet::new();
            let ids: Vec<String> = ids.into_iter().filter(|i| seen.insert(i.clone())).collect();
            let n = ids.len();
            let mut r = Picks { pool: &pool, i: 0 };
            let phases: Vec<Phase> = ids
                .iter()
                .zip(drafts)
                .map(|(id, d)| Phase {
                    id: id.clone(),
                    objective: d.objective,
                    access: d.access,
                    outcomes: d.outcomes.map(|os| {
                        os.into_iter()
                            .map(|(id, description)| Outcome {
                                id,
                                description,
                                ..Outcome::default()
                            })
                            .collect()
                    }),
                    ..Phase::default()
                })
                .collect();
            let slots: Vec<(usize, String)> = phases
                .iter()
                .enumerate()
                .flat_map(|(i, p)| p.outcome_ids().into_iter().map(move |o| (i, o.to_owned())))
                .collect();
            let mut to: Vec<Option<Destination>> = vec![None; slots.len()];
            for (i, id) in ids.iter().enumerate().skip(1) {
                // Phases before i have at least i slots, of which i - 1 are taken.
                let free: Vec<usize> = (0..slots.len())
                    .filter(|&k| slots[k].0 < i && to[k].is_none())
                    .collect();
                let k = free[r.below(free.len())];
                to[k] = Some(Destination::Phase(id.clone()));
            }
            let free: Vec<usize> = (0..slots.len()).filter(|&k| to[k].is_none()).collect();
            let first = free[r.below(free.len())];
            to[first] = Some(Destination::Terminal(terminal(r.below(3))));
            for k in free {
                if to[k].is_none() {
                    let c = r.below(n + 3);
                    to[k] = Some(if c < n {
                        Destination::Phase(ids[c].clone())
                    } else {
                        Destination::Terminal(terminal(c - n))
                    });
                }
            }
            let mut transitions: Vec<Transition> = slots
                .into_iter()
                .zip(to)
                .map(|((p, on), to)| Transition {
                    from: ids[p].clone(),
                    on,
                    to: to.expect("every slot has a target"),
                    final_state: None,
                    origin: Default::default(),
                })
                .collect();
            for i in (1..transitions.len()).rev() {
                let j = r.below(i + 1);
                transitions.swap(i, j);
            }
            let checkpoints = checkpoints.map(|cs| {
                let mut guarded = BTreeSet::new();
                let mut cids = BTreeSet::new();
                cs.into_iter()
                    .filter_map(|(id, before, reject)| {
                        let before = ids[before as usize % n].clone();
                        if !guarded.insert(before.clone()) || !cids.insert(id.clone()) {
                            return None;
                        }
                        let c = reject as usize % (n + 3);
                        let on_reject = if c < n {
                            Destination::Phase(ids[c].clone())
                        } else {
                            Destination::Terminal(terminal(c - n))
                        };
                        Some(Checkpoint {
                            id,
                            before_phase: before,
                            on_reject,
                            final_state: None,
                            origin: Default::default(),
                        })
                    })
                    .collect()
            });
            Graph {
                entry: ids[0].clone(),
                phases,
                transitions,
                checkpoints,
                ..Graph::default()
            }
        })
}

pub fn error_policy() -> impl Strategy<Value = Option<ErrorPolicy>> {
    let exhausted = prop::sample::select(vec![
        Exhausted::FailPhase,
        Exhausted::Abort,
        Exhausted::Handoff,
    ]);
    let tool = prop_oneof![
        (1u64..10, exhausted).prop_map(|(n, e)| ToolFailure {
            action: ToolAction::Retry,
            max_retries: Some(n),
            on_exhausted: Some(e),
        }),
        prop::sample::select(vec![
            ToolAction::FailPhase,
            ToolAction::Abort,
            ToolAction::Handoff
        ])
        .prop_map(|action| ToolFailure {
            action,
            max_retries: None,
            on_exhausted: None,
        }),
    ];
    let phase_action = prop::sample::select(vec![PhaseAction::Abort, PhaseAction::Handoff]);
    prop::option::of(
        (
            prop::option::of(tool),
            prop::option::of(phase_action.clone()),
            phase_action,
        )
            .prop_map(|(tool_failure, phase_failure, fallback)| {
                let can_fail_phase = tool_failure.as_ref().is_some_and(|t| {
                    t.action == ToolAction::FailPhase
                        || t.on_exhausted == Some(Exhausted::FailPhase)
                });
                let phase_failure = phase_failure
                    .or(can_fail_phase.then_some(fallback))
                    .map(|action| PhaseFailure { action });
                ErrorPolicy {
                    tool_failure,
                    phase_failure,
                }
            }),
    )
}

/// `max_steps`, including the extremes.
pub fn max_steps() -> impl Strategy<Value = Option<u64>> {
    prop::option::of(prop_oneof![
        6 => 1u64..40,
        1 => Just(u64::MAX),
        1 => any::<u64>().prop_map(|x| x.max(1)),
    ])
}

/// A valid AgentPM `environment` block (upstream's shape, issue 9).
pub fn environment() -> impl Strategy<Value = Option<Value>> {
    let var = (any::<bool>(), text(), prop::option::of(text())).prop_map(|(r, d, def)| {
        let mut v = serde_json::json!({ "required": r, "description": d });
        if let Some(def) = def {
            v["default"] = Value::String(def);
        }
        v
    });
    let vars = prop::collection::btree_map("[A-Z][A-Z0-9_]{0,8}", var, 0..3);
    prop::option::of(prop::option::of(vars).prop_map(|vars| match vars {
        Some(vars) => serde_json::json!({ "vars": vars }),
        None => serde_json::json!({}),
    }))
}

pub fn license() -> impl Strategy<Value = Option<License>> {
    let s = || prop::option::of("[A-Za-z0-9.+ -]{1,16}");
    prop::option::of((s(), s()).prop_map(|(spdx, file)| License { spdx, file }))
}

/// A valid AgentPM loop, as the IR the AgentPM front end builds.
pub fn agentpm_spec() -> impl Strategy<Value = Spec> {
    let identity = (
        prop_oneof![4 => "[a-z][a-z0-9-]{0,20}", 1 => "[a-z][a-z0-9-]{63}"],
        "(0|[1-9][0-9]{0,3})\\.(0|[1-9][0-9]{0,3})\\.(0|[1-9][0-9]{0,3})(-[0-9A-Za-z.-]{1,8})?(\\+[0-9A-Za-z.-]{1,8})?",
        text(),
        prop::option::of(prop_oneof![
            Just(am::UPSTREAM_SCHEMA_URI.to_owned()),
            "https://[a-z]{1,10}\\.example/[a-z]{0,8}\\.json"
        ]),
        prop::option::of("[A-Za-z0-9_./-]{1,20}"),
        license(),
        environment(),
    );
    let body = (
        prop::option::of(nonblank()),
        graph(),
        max_steps(),
        error_policy(),
    );
    (identity, body).prop_map(
        |(
            (name, version, description, schema_uri, readme, license, environment),
            (archetype, graph, max_steps, error_policy),
        )| Spec {
            source_format: Format::Agentpm,
            name,
            version: Some(version),
            description: Some(description),
            schema_uri,
            readme,
            license,
            environment,
            pattern: LoopPattern::General,
            archetype,
            graph,
            bounds: Bounds {
                max_steps,
                error_policy,
                ..Bounds::default()
            },
            ..Spec::default()
        },
    )
}

pub fn port() -> impl Strategy<Value = mm::Port> {
    (
        text(),
        prop::option::of(prop::sample::select(vec![
            mm::PortType::String,
            mm::PortType::Number,
            mm::PortType::Boolean,
            mm::PortType::Object,
            mm::PortType::Array,
            mm::PortType::File,
        ])),
        prop::option::of(text()),
        prop::option::of(any::<bool>()),
        prop::option::of("[a-z]{1,8}\\.[a-z]{1,8}"),
        passthrough(),
        passthrough(),
    )
        .prop_map(
            |(name, kind, description, required, from, schema, default)| mm::Port {
                name,
                kind,
                description,
                required,
                from,
                schema,
                default,
            },
        )
}

pub fn check() -> impl Strategy<Value = mm::Check> {
    let o = || prop::option::of(text());
    (
        "[a-z][a-z0-9-]{0,12}",
        o(),
        prop::option::of(prop::sample::select(vec![
            mm::CheckType::Command,
            mm::CheckType::Pattern,
            mm::CheckType::File,
            mm::CheckType::Manual,
        ])),
        (o(), o(), o(), o()),
        prop::option::of(any::<bool>()),
        o(),
    )
        .prop_map(
            |(id, description, kind, (command, pattern, files, file), required, expected)| {
                mm::Check {
                    id,
                    description,
                    kind,
                    command,
                    pattern,
                    files,
                    file,
                    required,
                    expected,
                }
            },
        )
}

/// A valid multi-agent-spec loop.
pub fn mas_loop() -> impl Strategy<Value = mm::Loop> {
    let head = (
        prop_oneof![6 => "[a-z][a-z0-9-]{0,20}", 1 => "[a-z][a-z0-9-]{60,80}"],
        prop::sample::select(vec![mm::LoopType::Real, mm::LoopType::Veal]),
        prop::option::of(text()),
        prop::option::of(text()),
        text(),
        prop::option::of(text()),
    );
    let tail = (
        prop::option::of(prop_oneof![
            6 => 1u64..10,
            1 => Just(i64::MAX.unsigned_abs()), // the Go SDK's `int`
            1 => any::<u64>().prop_map(|x| (x >> 1).max(1)),
        ]),
        prop::option::of(prop::sample::select(vec![
            mm::Escalation::Human,
            mm::Escalation::Abort,
            mm::Escalation::Continue,
            mm::Escalation::Fallback,
        ])),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::collection::vec(check(), 0..4),
        any::<bool>(),
        prop::option::of(prop::collection::vec(port(), 0..3)),
        prop::option::of(prop::collection::vec(port(), 0..3)),
    );
    (head, tail).prop_map(
        |(
            (name, kind, description, validator, actor, mission),
            (
                max_attempts,
                escalation,
                fallback_agent,
                success_criteria,
                checks,
                has_checks,
                inputs,
                outputs,
            ),
        )| {
            let veal = kind == mm::LoopType::Veal;
            let fallback_agent = match escalation {
                Some(mm::Escalation::Fallback) => Some(
                    fallback_agent
                        .filter(|f| !f.is_empty())
                        .unwrap_or_else(|| "fallback".to_owned()),
                ),
                _ => fallback_agent,
            };
            let checks = if veal && checks.is_empty() {
                Some(vec![mm::Check {
                    id: "build".into(),
                    description: None,
                    kind: None,
                    command: None,
                    pattern: None,
                    files: None,
                    file: None,
                    required: None,
                    expected: None,
                }])
            } else {
                (veal || has_checks).then_some(checks)
            };
            mm::Loop {
                name,
                kind,
                description,
                validator: if veal {
                    Some(
                        validator
                            .filter(|v| !v.is_empty())
                            .unwrap_or_else(|| "validator".to_owned()),
                    )
                } else {
                    validator
                },
                actor: if actor.is_empty() {
                    "actor".to_owned()
                } else {
                    actor
                },
                mission: if veal {
                    mission
                } else {
                    Some(
                        mission
                            .filter(|m| !m.is_empty())
                            .unwrap_or_else(|| "the mission".to_owned()),
                    )
                },
                max_attempts,
                escalation,
                fallback_agent,
                success_criteria,
                checks,
                inputs,
                outputs,
            }
        },
    )
}

pub fn convert_opts() -> impl Strategy<Value = back::Options> {
    // An empty `--fallback-agent` gives an invalid MAS file (the Go SDK treats '' as missing).
    prop::option::of(text().prop_filter("non-empty", |t| !t.is_empty())).prop_map(
        |fallback_agent| back::Options {
            allow_lossy: true,
            actor: Some("actor-agent".into()),
            validator: Some("validator-agent".into()),
            fallback_agent,
            source: "gen".into(),
            ..back::Options::default()
        },
    )
}

/// Any IR: a generated graph with MAS roles, goal and bounds mixed in, any source format and
/// pattern. Such a file may be invalid (a REAL pattern without a mission); a valid one must
/// go through every back end like any other loop.
pub fn mixed_ir() -> impl Strategy<Value = Spec> {
    (
        agentpm_spec(),
        mas_loop(),
        prop::sample::select(Format::ALL.to_vec()),
        prop::sample::select(vec![
            LoopPattern::General,
            LoopPattern::Real,
            LoopPattern::Veal,
        ]),
        (any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(|(mut spec, lp, source, pattern, (roles, goal, bounds))| {
            let m = loopconv::front::mas::lower(&lp);
            spec.source_format = source;
            spec.pattern = pattern;
            if roles {
                spec.roles = m.roles;
            }
            if goal {
                spec.goal = m.goal;
            }
            if bounds {
                spec.bounds.max_attempts = m.bounds.max_attempts;
                spec.bounds.escalation = m.bounds.escalation;
            }
            spec
        })
}

pub fn errors(diags: &Diagnostics) -> Vec<String> {
    diags
        .items()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}: {}", d.code, d.location.pointer, d.message))
        .collect()
}

pub fn load_ok(path: &str, text: &str, from: Option<Format>) -> Result<Loaded, TestCaseError> {
    let l = load(
        path,
        text.as_bytes(),
        &LoadOptions {
            from,
            ..LoadOptions::default()
        },
    );
    let errs = errors(&l.diags);
    prop_assert!(errs.is_empty(), "{path} does not load: {errs:#?}\n{text}");
    prop_assert!(l.valid().is_some(), "{path}: no loop");
    Ok(l)
}

/// Write a loop built in memory with `back::write` and the default options (validated
/// first, as the CLI does); the writer must report nothing.
pub fn write(target: Target, spec: &Spec) -> String {
    let mut diags = Diagnostics::new("gen");
    let info = loopconv::valid::validate(spec, &mut diags);
    let out = loopconv::write(target, spec, &info, &back::Options::default(), &mut diags)
        .unwrap_or_else(|e| panic!("{target}: {e}"));
    assert!(
        errors(&diags).is_empty(),
        "{target}: {:#?}\n{out}",
        diags.items()
    );
    out
}

// ------------------------------------------------------------------ issue 22, item 6

/// An invalid stable id: uppercase, too long (65 characters and more), a bad character, a
/// leading digit or hyphen, a trailing or doubled hyphen, empty.
pub fn bad_id() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Z][a-zA-Z0-9]{0,8}",
        "[a-z][a-z0-9]{64,80}",
        "[a-z]{1,5}[_ .:/@A-Z\u{e9}][a-z]{0,5}",
        "[0-9][a-z0-9]{0,6}",
        "-[a-z]{1,6}",
        "[a-z]{1,6}-",
        "[a-z]{1,4}--[a-z]{1,4}",
        Just(String::new()),
    ]
}

/// A defect put into a valid AgentPM manifest.
#[derive(Debug, Clone)]
pub enum Defect {
    /// A phase id replaced (everywhere it is referenced too) by an invalid one.
    BadId(usize, String),
    /// A phase declared twice.
    DuplicatePhase(usize),
    /// A transition re-pointed to a phase that does not exist.
    Dangling(usize, String),
    /// Several approval checkpoints before one phase (2 to 4): valid since V017 was retired
    /// (issue 18).
    ManyCheckpoints(usize, usize),
}

pub fn defect() -> impl Strategy<Value = Defect> {
    prop_oneof![
        (any::<usize>(), bad_id()).prop_map(|(i, id)| Defect::BadId(i, id)),
        any::<usize>().prop_map(Defect::DuplicatePhase),
        (any::<usize>(), stable_id()).prop_map(|(i, id)| Defect::Dangling(i, format!("{id}-gone"))),
        (any::<usize>(), 2usize..5).prop_map(|(i, n)| Defect::ManyCheckpoints(i, n)),
    ]
}

/// Whether a defect always makes the loop invalid (every one but several checkpoints,
/// which the harness allows: issue 18 item 1).
pub fn always_invalid(d: &Defect) -> bool {
    !matches!(d, Defect::ManyCheckpoints(..))
}

/// Rename every string equal to `from` in a JSON value (ids and references alike).
fn rename(v: &mut Value, from: &str, to: &str) {
    match v {
        Value::String(s) if s == from => *s = to.to_owned(),
        Value::Array(a) => a.iter_mut().for_each(|x| rename(x, from, to)),
        Value::Object(o) => o.values_mut().for_each(|x| rename(x, from, to)),
        _ => {}
    }
}

/// Apply a defect to an AgentPM manifest's JSON.
pub fn apply_defect(manifest: &mut Value, d: &Defect) {
    let lp = &mut manifest["loop"];
    let ids: Vec<String> = lp["phases"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .filter_map(|p| p["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let pick = |i: usize| ids[i % ids.len()].clone();
    match d {
        Defect::BadId(i, bad) => {
            let id = pick(*i);
            // Objectives and outcome descriptions are text: only the id-valued keys change.
            for p in lp["phases"].as_array_mut().into_iter().flatten() {
                if p["id"] == id.as_str() {
                    p["id"] = Value::String(bad.clone());
                }
            }
            for key in ["transitions", "checkpoints"] {
                for t in lp[key].as_array_mut().into_iter().flatten() {
                    for k in ["from", "to", "before_phase", "on_reject"] {
                        if t.get(k).is_some() {
                            rename(&mut t[k], &id, bad);
                        }
                    }
                }
            }
            rename(&mut lp["entry_phase"], &id, bad);
        }
        Defect::DuplicatePhase(i) => {
            let ps = lp["phases"].as_array_mut().expect("phases");
            let k = i % ps.len();
            let copy = ps[k].clone();
            ps.insert(k + 1, copy);
        }
        Defect::Dangling(i, gone) => {
            let ts = lp["transitions"].as_array_mut().expect("transitions");
            let k = i % ts.len();
            ts[k]["to"] = Value::String(gone.clone());
        }
        Defect::ManyCheckpoints(i, n) => {
            let before = pick(*i);
            let list: Vec<Value> = (0..*n)
                .map(|k| {
                    serde_json::json!({
                        "id": format!("gate-{k}"),
                        "type": "approval",
                        "before_phase": before,
                        "on_reject": if k % 2 == 0 { "$abort" } else { "$handoff" },
                    })
                })
                .collect();
            lp["checkpoints"] = Value::Array(list);
        }
    }
}

/// A long valid loop: `n` phases in a chain (`next` to the following phase, the last one's
/// to `$end`), each with a `retry` back to an earlier phase or a terminal, and some
/// checkpoints (at most one per phase).
pub fn long_spec(min: usize, max: usize) -> impl Strategy<Value = Spec> {
    (
        min..=max,
        prop::collection::vec(any::<u32>(), 64),
        agentpm_spec(),
    )
        .prop_map(|(n, pool, mut spec)| {
            let mut r = Picks { pool: &pool, i: 0 };
            let id = |i: usize| format!("p{i:03}");
            let outcome = |o: &str| Outcome {
                id: o.to_owned(),
                description: format!("{o} it"),
                ..Outcome::default()
            };
            let phases = (0..n)
                .map(|i| Phase {
                    id: id(i),
                    objective: format!("Step {i} of the long loop."),
                    outcomes: Some(vec![outcome("next"), outcome("retry")]),
                    ..Phase::default()
                })
                .collect();
            let mut transitions = Vec::new();
            for i in 0..n {
                let next = if i + 1 < n {
                    Destination::Phase(id(i + 1))
                } else {
                    Destination::Terminal(Terminal::End)
                };
                let back = match r.below(4) {
                    0 => Destination::Terminal(terminal(r.below(3))),
                    _ => Destination::Phase(id(r.below(i + 1))),
                };
                for (on, to) in [("next", next), ("retry", back)] {
                    transitions.push(Transition {
                        from: id(i),
                        on: on.to_owned(),
                        to,
                        final_state: None,
                        origin: Default::default(),
                    });
                }
            }
            let checkpoints = (0..n.min(8))
                .map(|k| Checkpoint {
                    id: format!("gate-{k}"),
                    before_phase: id(1 + (k * (n - 1)) / 8),
                    on_reject: Destination::Terminal(Terminal::Abort),
                    final_state: None,
                    origin: Default::default(),
                })
                .collect::<Vec<_>>();
            let mut seen = BTreeSet::new();
            let checkpoints = checkpoints
                .into_iter()
                .filter(|c| seen.insert(c.before_phase.clone()))
                .collect();
            spec.graph = Graph {
                entry: id(0),
                phases,
                transitions,
                checkpoints: Some(checkpoints),
                ..Graph::default()
            };
            // `max_steps` must allow the chain to reach `$end` (V024).
            spec.bounds.max_steps = spec.bounds.max_steps.map(|s| s.max(n as u64 * 4));
            spec
        })
}

// ---- MAS YAML as people write it, generated as text (not by loopconv's writer)

/// A word that YAML reads as a plain string (no YAML 1.1 boolean or null look-alike).
fn word() -> impl Strategy<Value = String> {
    "[a-z]{1,8}".prop_filter("not a YAML keyword", |w| {
        !matches!(
            w.as_str(),
            "y" | "n" | "yes" | "no" | "on" | "off" | "true" | "false" | "null"
        )
    })
}

/// A line of words.
fn line() -> impl Strategy<Value = String> {
    prop::collection::vec(word(), 1..5).prop_map(|w| w.join(" "))
}

/// How a scalar is written.
#[derive(Debug, Clone, Copy)]
pub enum Style {
    Plain,
    Single,
    Double,
    Literal,
    Folded,
}

/// A text scalar: its YAML form (after `key:`, with the block indented by `indent`
/// spaces) and the string YAML reads from it.
#[derive(Debug, Clone)]
pub struct Scalar {
    pub yaml: String,
    pub value: String,
}

pub fn scalar(indent: usize) -> impl Strategy<Value = Scalar> {
    let style = prop::sample::select(vec![
        Style::Plain,
        Style::Single,
        Style::Double,
        Style::Literal,
        Style::Folded,
    ]);
    (style, prop::collection::vec(line(), 1..4), any::<bool>()).prop_map(
        move |(style, lines, comment)| {
            let pad = " ".repeat(indent);
            let first = lines[0].clone();
            let c = if comment { " # a comment" } else { "" };
            match style {
                Style::Plain => Scalar {
                    yaml: format!(" {first}{c}"),
                    value: first,
                },
                Style::Single => Scalar {
                    yaml: format!(" '{}''s'{c}", first),
                    value: format!("{first}'s"),
                },
                Style::Double => Scalar {
                    yaml: format!(" \"{first} \\\"q\\\" \\\\ \\t.\"{c}"),
                    value: format!("{first} \"q\" \\ \t."),
                },
                Style::Literal => Scalar {
                    yaml: format!(" |{c}\n{}", block(&pad, &lines)),
                    value: format!("{}\n", lines.join("\n")),
                },
                Style::Folded => Scalar {
                    yaml: format!(" >{c}\n{}", block(&pad, &lines)),
                    value: format!("{}\n", lines.join(" ")),
                },
            }
        },
    )
}

fn block(pad: &str, lines: &[String]) -> String {
    let body: Vec<String> = lines.iter().map(|l| format!("{pad}{l}")).collect();
    body.join("\n")
}

/// A hand-written MAS loop: its YAML text and the loop it must read as.
#[derive(Debug, Clone)]
pub struct HandWritten {
    pub yaml: String,
    pub expected: mm::Loop,
}

/// A check with an id, a type and a command: written in flow style (`{id: a, ...}`) or as
/// a block mapping, with comments between.
fn check_text() -> impl Strategy<Value = (String, mm::Check)> {
    ("[a-z][a-z0-9-]{0,8}[a-z0-9]", line(), any::<bool>()).prop_map(|(id, cmd, flow)| {
        let text = if flow {
            format!("  - {{id: {id}, type: command, command: \"{cmd}\"}}  # flow\n")
        } else {
            format!("  - id: {id}\n    # the command\n    type: command\n    command: '{cmd}'\n")
        };
        let c = mm::Check {
            id,
            description: None,
            kind: Some(mm::CheckType::Command),
            command: Some(cmd),
            pattern: None,
            files: None,
            file: None,
            required: None,
            expected: None,
        };
        (text, c)
    })
}

pub fn hand_written_mas() -> impl Strategy<Value = HandWritten> {
    let texts = (scalar(2), scalar(2), scalar(2));
    let agents = ("[a-z][a-z0-9-]{0,8}[a-z0-9]", "[a-z][a-z0-9-]{0,8}[a-z0-9]");
    let shape = (
        any::<bool>(),
        1u64..9,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    );
    let checks = prop::collection::vec(check_text(), 1..4);
    ("[a-z][a-z0-9-]{0,12}[a-z0-9]", texts, agents, shape, checks).prop_map(
        |(name, (desc, mission, criteria), (actor, validator), shape, checks)| {
            let (veal, attempts, alias, quoted_name, flow_ids) = shape;
            let mut y = String::from("# written by hand\n---\n");
            if quoted_name {
                y.push_str(&format!("name: \"{name}\"\n"));
            } else {
                y.push_str(&format!("name: {name}  # the loop\n"));
            }
            y.push_str(if veal {
                "type: VEAL\n"
            } else {
                "type: 'REAL'\n"
            });
            y.push_str(&format!("description:{}\n", desc.yaml));
            // An anchor on the actor, an alias for the fallback agent.
            if alias {
                y.push_str(&format!("actor: &agent {actor}\n"));
            } else {
                y.push_str(&format!("actor: {actor}\n"));
            }
            y.push_str(&format!("validator: {validator}\n\n# the goal\n"));
            if !veal {
                y.push_str(&format!("mission:{}\n", mission.yaml));
            }
            y.push_str(&format!("success_criteria:{}\n", criteria.yaml));
            y.push_str(&format!("max_attempts: {attempts}\n"));
            if alias {
                y.push_str("escalation: fallback\nfallback_agent: *agent\n");
            } else {
                y.push_str("escalation: \"human\"\n");
            }
            let (texts, checks): (Vec<String>, Vec<mm::Check>) = {
                let mut seen = BTreeSet::new();
                checks
                    .into_iter()
                    .filter(|(_, c)| seen.insert(c.id.clone()))
                    .unzip()
            };
            if flow_ids && checks.len() > 1 {
                // The whole list in flow style, over several lines.
                let items: Vec<String> = checks
                    .iter()
                    .map(|c| {
                        format!(
                            "{{id: {}, type: command, command: '{}'}}",
                            c.id,
                            c.command.as_deref().unwrap_or_default()
                        )
                    })
                    .collect();
                y.push_str(&format!("checks: [\n  {}\n]\n", items.join(",\n  ")));
            } else {
                y.push_str("checks:\n");
                y.push_str(&texts.concat());
            }
            let expected = mm::Loop {
                name,
                kind: if veal {
                    mm::LoopType::Veal
                } else {
                    mm::LoopType::Real
                },
                description: Some(desc.value),
                validator: Some(validator),
                actor: actor.clone(),
                mission: (!veal).then_some(mission.value),
                max_attempts: Some(attempts),
                escalation: Some(if alias {
                    mm::Escalation::Fallback
                } else {
                    mm::Escalation::Human
                }),
                fallback_agent: alias.then_some(actor),
                success_criteria: Some(criteria.value),
                checks: Some(checks),
                inputs: None,
                outputs: None,
            };
            HandWritten { yaml: y, expected }
        },
    )
}

/// An AgentPM loop of `n` phases in a chain, as the benchmark's: each phase advances to the
/// next (the last to `$end`), retries the one before and escalates to `$handoff`; a
/// checkpoint before every 25th phase rejects to `$abort`.
pub fn chain(n: usize) -> String {
    let id = |i: usize| format!("p{i:04}");
    let phases: Vec<Value> = (0..n)
        .map(|i| {
            let outcomes: Vec<Value> = ["advance", "retry", "escalate"]
                .iter()
                .map(|o| json!({"id": o, "description": "d"}))
                .collect();
            json!({"id": id(i), "objective": "o", "outcomes": outcomes})
        })
        .collect();
    let mut transitions = Vec::new();
    for i in 0..n {
        let next = if i + 1 < n {
            id(i + 1)
        } else {
            "$end".to_owned()
        };
        transitions.push(json!({"from": id(i), "on": "advance", "to": next}));
        transitions.push(json!({"from": id(i), "on": "retry", "to": id(i.saturating_sub(1))}));
        transitions.push(json!({"from": id(i), "on": "escalate", "to": "$handoff"}));
    }
    let checkpoints: Vec<Value> = (1..n)
        .step_by(25)
        .enumerate()
        .map(|(k, i)| json!({"id": format!("gate-{k}"), "type": "approval", "before_phase": id(i), "on_reject": "$abort"}))
        .collect();
    let doc = json!({"kind": "loop", "name": "chain", "version": "1.0.0", "description": "d",
        "loop": {"entry_phase": id(0), "limits": {"max_steps": 3 * n}, "phases": phases,
            "transitions": transitions, "checkpoints": checkpoints}});
    serde_json::to_string_pretty(&doc).unwrap()
}
