//! Property tests (issue 4, item 1):
//!
//! * (a) generated valid loops, AgentPM-style phase graphs built as `ir::Spec` values and
//!   REAL/VEAL loops built as `model::mas::Loop` values written to YAML and read back, go
//!   through every back end (agentpm, mas with `--allow-lossy` and the agent flags, ir,
//!   mermaid in both styles, dot with and without legend, plantuml, markdown page and index, the
//!   schemas: every variant of `Target::ALL`, from `tests/common`) without
//!   panicking, and every loop-format output loads again without errors;
//! * (b) `X -> IR -> X` holds for generated AgentPM and MAS loops (write, load, compare the
//!   `Spec`s; MAS compared with `escalation` spelled out, as the writer always writes it);
//! * (c) invalid mutations of the valid example and corpus files (drop a required key,
//!   duplicate a key, change a value's type, re-point an id, remove an outcome) always give
//!   a diagnostic with a line and column; garbage bytes and truncation always give a
//!   diagnostic; nothing ever panics.
//!
//! Case counts are modest so that `cargo test` stays quick on two cores.

mod common;

use std::collections::BTreeSet;
use std::sync::LazyLock;

use loopconv::Target;
use loopconv::back;
use loopconv::diag::{Diagnostics, Severity};
use loopconv::ir::{
    Access, Bounds, Checkpoint, Destination, ErrorPolicy, Exhausted, Graph, License, MemoryAccess,
    Outcome, Pattern, Phase, PhaseAction, PhaseFailure, Spec, Terminal, ToolAction, ToolFailure,
    Transition,
};
use loopconv::model::agentpm as am;
use loopconv::model::mas as mm;
use loopconv::tree::{Node, Value as TV};
use loopconv::{Format, LoadOptions, Loaded, load};
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::Value;

/// `cases` per property, or `PROPTEST_CASES` when set (for long runs by hand).
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

// ------------------------------------------------------------------ strategies

/// A stable id: `^[a-z](?:-?[a-z0-9])*$`, at most 64 characters.
fn stable_id() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-z](-?[a-z0-9]){0,6}",
        1 => "[a-z](-?[a-z0-9]){20,31}",
    ]
}

/// Text that stresses quoting and escaping in every writer: YAML indicators and keywords,
/// quotes, backslashes, newlines, tabs, carriage returns, Unicode line separators, markup
/// that Mermaid, DOT and Markdown treat specially, and plain text.
fn text() -> impl Strategy<Value = String> {
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
fn nonblank() -> impl Strategy<Value = String> {
    text().prop_filter("needs a non-blank character", |t| !t.trim().is_empty())
}

fn tri() -> impl Strategy<Value = Option<bool>> {
    prop_oneof![Just(None), Just(Some(true)), Just(Some(false))]
}

fn access() -> impl Strategy<Value = Option<Access>> {
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
fn json_value() -> impl Strategy<Value = Value> {
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
fn passthrough() -> impl Strategy<Value = Option<Value>> {
    prop::option::of(json_value()).prop_map(|v| v.filter(|v| !v.is_null()))
}

#[derive(Debug, Clone)]
struct PhaseDraft {
    objective: String,
    access: Option<Access>,
    outcomes: Option<Vec<(String, String)>>,
}

fn phase_draft() -> impl Strategy<Value = PhaseDraft> {
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
struct Picks<'a> {
    pool: &'a [u32],
    i: usize,
}

impl Picks<'_> {
    fn below(&mut self, n: usize) -> usize {
        let v = self.pool[self.i % self.pool.len()] as usize;
        self.i += 1;
        v % n.max(1)
    }
}

fn terminal(i: usize) -> Terminal {
    Terminal::ALL[i % 3]
}

/// A valid phase graph: every (phase, outcome) pair has exactly one transition, every phase
/// is reachable from the entry (each phase after the first is the target of a slot of an
/// earlier phase), and at least one slot goes to a terminal.
fn graph() -> impl Strategy<Value = Graph> {
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

fn error_policy() -> impl Strategy<Value = Option<ErrorPolicy>> {
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
fn max_steps() -> impl Strategy<Value = Option<u64>> {
    prop::option::of(prop_oneof![
        6 => 1u64..40,
        1 => Just(u64::MAX),
        1 => any::<u64>().prop_map(|x| x.max(1)),
    ])
}

/// A valid AgentPM `environment` block (upstream's shape, issue 9).
fn environment() -> impl Strategy<Value = Option<Value>> {
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

fn license() -> impl Strategy<Value = Option<License>> {
    let s = || prop::option::of("[A-Za-z0-9.+ -]{1,16}");
    prop::option::of((s(), s()).prop_map(|(spdx, file)| License { spdx, file }))
}

/// A valid AgentPM loop, as the IR the AgentPM front end builds.
fn agentpm_spec() -> impl Strategy<Value = Spec> {
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
            pattern: Pattern::General,
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

fn port() -> impl Strategy<Value = mm::Port> {
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

fn check() -> impl Strategy<Value = mm::Check> {
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
fn mas_loop() -> impl Strategy<Value = mm::Loop> {
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

// ------------------------------------------------------------------ helpers

fn errors(diags: &Diagnostics) -> Vec<String> {
    diags
        .items()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}: {}", d.code, d.location.pointer, d.message))
        .collect()
}

fn load_ok(path: &str, text: &str, from: Option<Format>) -> Result<Loaded, TestCaseError> {
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

/// The loop with the MAS defaults spelled out: the MAS writer always writes `escalation`.
/// A loop's content as its IR JSON: what two loops must share to be the same loop, wherever
/// each was read from (`loopconv::ir::same_content`), and a readable diff when they differ.
fn ir_json(spec: &Spec) -> serde_json::Value {
    serde_json::to_value(spec).expect("the IR serialises")
}

fn effective(spec: &Spec) -> Spec {
    let mut s = spec.clone();
    if matches!(s.pattern, Pattern::Real | Pattern::Veal) {
        s.bounds.escalation = Some(s.effective_escalation());
    }
    s
}

/// Every back end, the way the CLI calls them (every variant of `Target::ALL`, and the
/// Markdown index); loop-format outputs are read back.
fn all_back_ends(l: &Loaded, opts: &back::Options) -> Result<(), TestCaseError> {
    let (spec, info) = l.valid().expect("a valid loop");
    for w in common::write_every_target("gen", spec, info, opts) {
        let label = &w.label;
        let errs = errors(&w.diags);
        prop_assert!(
            errs.is_empty(),
            "{label} with --allow-lossy and the agent flags: {errs:#?}"
        );
        let text = match w.text {
            Ok(text) => text,
            Err(e) => return Err(TestCaseError::fail(format!("{label}: {e:?}"))),
        };
        prop_assert!(!text.is_empty(), "{label}");
        if let Some(to) = w.target.format() {
            let path = format!("out.{}", to.extension());
            load_ok(&path, &text, None)?;
        }
    }
    let entry = back::markdown::IndexEntry {
        name: spec.name.clone(),
        file_name: format!("{}.md", spec.name),
        description: spec.description.clone(),
        source: "gen".into(),
    };
    prop_assert!(back::markdown::index(&[entry]).is_ok());
    Ok(())
}

fn convert_opts() -> impl Strategy<Value = back::Options> {
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

/// Write a loop built in memory with `loopconv::write` and the default options (validated
/// first, as the CLI does); the writer must report nothing.
fn write(target: Target, spec: &Spec) -> String {
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

// ------------------------------------------------------------------ (a) and (b)

proptest! {
    #![proptest_config(config(128))]

    /// (b) AgentPM -> IR -> AgentPM, and (a) every back end on the loop.
    #[test]
    fn agentpm_round_trip_and_back_ends(spec in agentpm_spec(), opts in convert_opts()) {
        let text = write(Target::Loop(Format::Agentpm), &spec);
        let l = load_ok("gen.json", &text, None)?;
        let back = l.spec.clone().expect("spec");
        prop_assert_eq!(ir_json(&back), ir_json(&spec), "AgentPM -> IR -> AgentPM changed the loop:\n{}", text);
        // The IR's own JSON form is lossless too.
        let ir = write(Target::Loop(Format::Ir), &back);
        let again = load_ok("gen.ir.json", &ir, None)?;
        prop_assert_eq!(again.spec.as_ref().map(ir_json), Some(ir_json(&spec)));
        all_back_ends(&l, &opts)?;
    }

    /// (b) MAS -> IR -> MAS (the generated loop written as YAML first), and (a) every back
    /// end on the loop.
    #[test]
    fn mas_round_trip_and_back_ends(lp in mas_loop(), opts in convert_opts()) {
        let yaml = back::mas::to_yaml(&lp).expect("yaml");
        let l = load_ok("gen.yaml", &yaml, None)?;
        let spec = l.spec.clone().expect("spec");
        prop_assert_eq!(ir_json(&spec), ir_json(&loopconv::front::mas::lower(&lp)));
        let (s, info) = l.valid().expect("valid");
        let mut diags = Diagnostics::new("gen");
        let out = loopconv::write(Target::Loop(Format::Mas), s, info, &back::Options::default(), &mut diags)
            .expect("mas writer");
        prop_assert!(errors(&diags).is_empty(), "{:#?}", errors(&diags));
        let back = load_ok("back.yaml", &out, None)?;
        prop_assert_eq!(
            ir_json(&effective(back.spec.as_ref().expect("spec"))),
            ir_json(&effective(&spec)),
            "MAS -> IR -> MAS changed the loop:\n{}\n---\n{}",
            yaml,
            out
        );
        let ir = write(Target::Loop(Format::Ir), &spec);
        let again = load_ok("gen.ir.json", &ir, None)?;
        prop_assert_eq!(again.spec.as_ref().map(ir_json), Some(ir_json(&spec)));
        all_back_ends(&l, &opts)?;
    }
}

/// Any IR: a generated graph with MAS roles, goal and bounds mixed in, any source format and
/// pattern. Such a file may be invalid (a REAL pattern without a mission); a valid one must
/// go through every back end like any other loop.
fn mixed_ir() -> impl Strategy<Value = Spec> {
    (
        agentpm_spec(),
        mas_loop(),
        prop::sample::select(Format::ALL.to_vec()),
        prop::sample::select(vec![Pattern::General, Pattern::Real, Pattern::Veal]),
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

proptest! {
    #![proptest_config(config(128))]

    /// (a) for IR input: whatever mix of fields an IR file holds, reading never panics, and
    /// a valid one goes through every back end.
    #[test]
    fn mixed_ir_through_every_back_end(spec in mixed_ir(), opts in convert_opts()) {
        let ir = serde_json::to_string_pretty(&spec).expect("the IR serialises");
        let l = load("mixed.ir.json", ir.as_bytes(), &LoadOptions::default());
        if l.valid().is_some() {
            prop_assert_eq!(l.spec.as_ref().map(ir_json), Some(ir_json(&spec)));
            all_back_ends(&l, &opts)?;
        } else {
            prop_assert!(l.diags.has_errors());
        }
    }
}

// ------------------------------------------------------------------ (c) mutations

/// A document as a mutable tree that keeps duplicate keys and key order.
#[derive(Debug, Clone, PartialEq)]
enum M {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<M>),
    Obj(Vec<(String, M)>),
}

impl M {
    fn from_node(n: &Node) -> M {
        match &n.value {
            TV::Null => M::Null,
            TV::Bool(b) => M::Bool(*b),
            TV::Number(x) => M::Num(x.to_string()),
            TV::NonFinite(f) => M::Num(f.to_string()),
            TV::String { text, .. } => M::Str(text.to_string()),
            TV::Array(a) => M::Arr(a.iter().map(M::from_node).collect()),
            TV::Object(ms) => M::Obj(
                ms.iter()
                    .map(|m| (m.key.to_string(), M::from_node(&m.value)))
                    .collect(),
            ),
        }
    }

    fn scalar(&self, yaml: bool) -> Option<String> {
        Some(match self {
            M::Null => "null".into(),
            M::Bool(b) => b.to_string(),
            M::Num(n) => n.clone(),
            M::Str(s) if yaml => quote_yaml(s),
            M::Str(s) => quote(s),
            M::Arr(a) if a.is_empty() => "[]".into(),
            M::Obj(o) if o.is_empty() => "{}".into(),
            _ => return None,
        })
    }

    fn json(&self, indent: usize, out: &mut String) {
        if let Some(s) = self.scalar(false) {
            out.push_str(&s);
            return;
        }
        let pad = " ".repeat(indent + 2);
        match self {
            M::Arr(a) => {
                out.push_str("[\n");
                for (i, v) in a.iter().enumerate() {
                    out.push_str(&pad);
                    v.json(indent + 2, out);
                    out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
                }
                out.push_str(&" ".repeat(indent));
                out.push(']');
            }
            M::Obj(o) => {
                out.push_str("{\n");
                for (i, (k, v)) in o.iter().enumerate() {
                    out.push_str(&pad);
                    out.push_str(&quote(k));
                    out.push_str(": ");
                    v.json(indent + 2, out);
                    out.push_str(if i + 1 < o.len() { ",\n" } else { "\n" });
                }
                out.push_str(&" ".repeat(indent));
                out.push('}');
            }
            _ => unreachable!("scalars are written above"),
        }
    }

    /// Block YAML with every string double-quoted (JSON escapes are YAML escapes).
    fn yaml(&self, indent: usize, out: &mut String) {
        if let Some(s) = self.scalar(true) {
            out.push(' ');
            out.push_str(&s);
            out.push('\n');
            return;
        }
        out.push('\n');
        let pad = " ".repeat(indent);
        match self {
            M::Arr(a) => {
                for v in a {
                    out.push_str(&pad);
                    out.push('-');
                    v.yaml(indent + 2, out);
                }
            }
            M::Obj(o) => {
                for (k, v) in o {
                    out.push_str(&pad);
                    out.push_str(&quote_yaml(k));
                    out.push(':');
                    v.yaml(indent + 2, out);
                }
            }
            _ => unreachable!("scalars are written above"),
        }
    }

    fn render(&self, yaml: bool) -> String {
        let mut out = String::new();
        if yaml {
            self.yaml(0, &mut out);
            // The root starts on a new line; drop it.
            out.remove(0);
            if out.starts_with(' ') {
                out.remove(0);
            }
        } else {
            self.json(0, &mut out);
            out.push('\n');
        }
        out
    }

    /// Every node with its JSON Pointer, in document order.
    fn walk<'a>(&'a self, ptr: String, out: &mut Vec<(String, &'a M)>) {
        out.push((ptr.clone(), self));
        match self {
            M::Arr(a) => {
                for (i, v) in a.iter().enumerate() {
                    v.walk(format!("{ptr}/{i}"), out);
                }
            }
            M::Obj(o) => {
                for (k, v) in o {
                    v.walk(format!("{ptr}/{}", loopconv::tree::escape_ptr(k)), out);
                }
            }
            _ => {}
        }
    }

    fn pointers(&self) -> Vec<(String, M)> {
        let mut v = Vec::new();
        self.walk(String::new(), &mut v);
        v.into_iter().map(|(p, m)| (p, m.clone())).collect()
    }

    /// The parent container of the node at `ptr` and the node's last segment.
    fn parent_mut(&mut self, ptr: &str) -> Option<(&mut M, String)> {
        let (parent, last) = ptr.rsplit_once('/')?;
        let mut node = self;
        for seg in parent.split('/').skip(1) {
            node = child_mut(node, seg)?;
        }
        Some((node, last.to_owned()))
    }

    fn get_mut(&mut self, ptr: &str) -> Option<&mut M> {
        let mut node = self;
        for seg in ptr.split('/').skip(1) {
            node = child_mut(node, seg)?;
        }
        Some(node)
    }
}

fn child_mut<'a>(node: &'a mut M, seg: &str) -> Option<&'a mut M> {
    let key = seg.replace("~1", "/").replace("~0", "~");
    match node {
        M::Arr(a) => a.get_mut(seg.parse::<usize>().ok()?),
        M::Obj(o) => o.iter_mut().find(|(k, _)| *k == key).map(|(_, v)| v),
        _ => None,
    }
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

/// A YAML double-quoted scalar: JSON's escapes, plus `\u` escapes for what YAML does not
/// allow unescaped (DEL, C1 controls, U+FFFE, U+FFFF).
fn quote_yaml(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || matches!(c, '\u{feff}' | '\u{fffe}' | '\u{ffff}') => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `/loop/phases/3/id` -> `/loop/phases/*/id`.
fn pattern(ptr: &str) -> String {
    ptr.split('/')
        .map(|s| {
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                "*"
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A valid input file: its name, text and format.
#[derive(Debug, Clone)]
struct Sample {
    name: String,
    text: String,
    format: Format,
    yaml: bool,
    tree: M,
}

/// Every valid file of `examples/` and `../shared/corpus` (when present), plus each one's
/// IR form: the seeds of the mutations.
static SAMPLES: LazyLock<Vec<Sample>> = LazyLock::new(|| {
    let mut out = Vec::new();
    for f in common::all_inputs() {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let name = f.display().to_string();
        let l = load(&name, text.as_bytes(), &LoadOptions::default());
        let (Some((spec, _)), Some(format), Some(doc)) = (l.valid(), l.format, &l.doc) else {
            continue;
        };
        let yaml = doc.syntax == loopconv::tree::Syntax::Yaml;
        out.push(Sample {
            name: name.clone(),
            tree: M::from_node(&doc.root),
            text,
            format,
            yaml,
        });
        let ir = write(Target::Loop(Format::Ir), spec);
        let l = load("x.ir.json", ir.as_bytes(), &LoadOptions::default());
        let doc = l.doc.expect("the IR reads back");
        out.push(Sample {
            name: format!("{name} (as IR)"),
            tree: M::from_node(&doc.root),
            text: ir,
            format: Format::Ir,
            yaml: false,
        });
    }
    out
});

/// Keys whose absence is always reported: required by the format, or (AgentPM `kind`,
/// `$schema`) a warning.
fn required(s: &Sample, ptr_pattern: &str) -> bool {
    let agentpm = [
        "/kind",
        "/$schema",
        "/name",
        "/version",
        "/description",
        "/loop",
        "/loop/entry_phase",
        "/loop/phases",
        "/loop/transitions",
        "/loop/phases/*/id",
        "/loop/phases/*/objective",
        "/loop/phases/*/outcomes/*/id",
        "/loop/phases/*/outcomes/*/description",
        "/loop/transitions/*/from",
        "/loop/transitions/*/on",
        "/loop/transitions/*/to",
        "/loop/checkpoints/*/id",
        "/loop/checkpoints/*/type",
        "/loop/checkpoints/*/before_phase",
        "/loop/checkpoints/*/on_reject",
        "/loop/error_policy/tool_failure/action",
        "/loop/error_policy/tool_failure/max_retries",
        "/loop/error_policy/tool_failure/on_exhausted",
        "/loop/error_policy/phase_failure/action",
    ];
    let ir = [
        "/source_format",
        "/name",
        "/pattern",
        "/graph",
        "/graph/entry",
        "/graph/phases",
        "/graph/transitions",
        "/graph/phases/*/id",
        "/graph/phases/*/objective",
        "/graph/phases/*/outcomes/*/id",
        "/graph/phases/*/outcomes/*/description",
        "/graph/transitions/*/from",
        "/graph/transitions/*/on",
        "/graph/transitions/*/to",
        "/graph/checkpoints/*/id",
        "/graph/checkpoints/*/before_phase",
        "/graph/checkpoints/*/on_reject",
        "/goal/checks/*/id",
        "/goal/inputs/*/name",
        "/goal/outputs/*/name",
        "/bounds/error_policy/tool_failure/action",
        "/bounds/error_policy/tool_failure/max_retries",
        "/bounds/error_policy/tool_failure/on_exhausted",
        "/bounds/error_policy/phase_failure/action",
    ];
    let mas = [
        "/name",
        "/type",
        "/actor",
        "/checks/*/id",
        "/inputs/*/name",
        "/outputs/*/name",
    ];
    let get = |p: &str| match &s.tree {
        M::Obj(o) => o.iter().find(|(k, _)| k == p).map(|(_, v)| v.clone()),
        _ => None,
    };
    let ty = get("type");
    let veal = ty == Some(M::Str("VEAL".into()));
    let real = ty == Some(M::Str("REAL".into()));
    let fallback = get("escalation") == Some(M::Str("fallback".into()));
    match s.format {
        Format::Agentpm => agentpm.contains(&ptr_pattern),
        Format::Ir => {
            let pat = match &s.tree {
                M::Obj(o) => o
                    .iter()
                    .find(|(k, _)| k == "pattern")
                    .map(|(_, v)| v.clone()),
                _ => None,
            };
            ir.contains(&ptr_pattern)
                || (pat == Some(M::Str("real".into())) && ptr_pattern == "/goal/mission")
                || (pat == Some(M::Str("veal".into()))
                    && matches!(ptr_pattern, "/roles/validator" | "/goal/checks"))
        }
        Format::Mas => {
            mas.contains(&ptr_pattern)
                || (real && ptr_pattern == "/mission")
                || (veal && matches!(ptr_pattern, "/validator" | "/checks"))
                || (fallback && ptr_pattern == "/fallback_agent")
        }
    }
}

/// Values of any type: changing their type is not an error.
fn free_form(ptr: &str) -> bool {
    ptr.starts_with("/environment") || ptr.contains("/schema") || ptr.contains("/default")
}

/// Fields that name a phase or outcome (or, in MAS, an enumerated value).
fn reference(s: &Sample, pat: &str) -> bool {
    match s.format {
        Format::Agentpm => matches!(
            pat,
            "/loop/entry_phase"
                | "/loop/transitions/*/from"
                | "/loop/transitions/*/on"
                | "/loop/transitions/*/to"
                | "/loop/checkpoints/*/before_phase"
                | "/loop/checkpoints/*/on_reject"
        ),
        Format::Ir => matches!(
            pat,
            "/graph/entry"
                | "/graph/transitions/*/from"
                | "/graph/transitions/*/on"
                | "/graph/transitions/*/to"
                | "/graph/checkpoints/*/before_phase"
                | "/graph/checkpoints/*/on_reject"
        ),
        Format::Mas => matches!(pat, "/type" | "/escalation" | "/checks/*/type"),
    }
}

#[derive(Debug, Clone, Copy)]
enum Mutation {
    DropKey,
    DuplicateKey,
    ChangeType,
    Repoint,
    RemoveOutcome,
}

/// Apply a mutation at the `pick`-th candidate; `None` when the sample has no candidate.
fn mutate(s: &Sample, m: Mutation, pick: usize, variant: usize) -> Option<(String, String)> {
    let nodes = s.tree.pointers();
    let mut tree = s.tree.clone();
    let what;
    match m {
        Mutation::DropKey => {
            let c: Vec<&String> = nodes
                .iter()
                .map(|(p, _)| p)
                .filter(|p| !p.is_empty() && required(s, &pattern(p)))
                .collect();
            let ptr = c.get(pick % c.len().max(1))?;
            let (parent, last) = tree.parent_mut(ptr)?;
            let key = last.replace("~1", "/").replace("~0", "~");
            let M::Obj(o) = parent else { return None };
            o.retain(|(k, _)| *k != key);
            what = format!("drop {ptr}");
        }
        Mutation::DuplicateKey => {
            let c: Vec<&String> = nodes
                .iter()
                .map(|(p, _)| p)
                .filter(|p| !p.is_empty())
                .filter(|p| {
                    let mut t = s.tree.clone();
                    matches!(t.parent_mut(p), Some((M::Obj(_), _)))
                })
                .collect();
            let ptr = c.get(pick % c.len().max(1))?;
            let (parent, last) = tree.parent_mut(ptr)?;
            let key = last.replace("~1", "/").replace("~0", "~");
            let M::Obj(o) = parent else { return None };
            let i = o.iter().position(|(k, _)| *k == key)?;
            let dup = o[i].clone();
            o.insert(i + 1 + variant % (o.len() - i), dup);
            what = format!("duplicate {ptr}");
        }
        Mutation::ChangeType => {
            let c: Vec<&(String, M)> = nodes.iter().filter(|(p, _)| !free_form(p)).collect();
            let (ptr, old) = c.get(pick % c.len().max(1))?;
            let options: Vec<M> = match old {
                M::Str(_) => vec![
                    M::Num("7".into()),
                    M::Bool(true),
                    M::Arr(vec![]),
                    M::Obj(vec![]),
                ],
                M::Num(_) => vec![M::Str("1".into()), M::Bool(false), M::Arr(vec![])],
                M::Bool(b) => vec![M::Str(b.to_string()), M::Num("1".into())],
                M::Null => vec![M::Str("x".into())],
                M::Arr(_) => vec![M::Obj(vec![]), M::Str("x".into()), M::Num("0".into())],
                M::Obj(_) => vec![M::Arr(vec![]), M::Str("x".into()), M::Bool(true)],
            };
            let new = options[variant % options.len()].clone();
            *tree.get_mut(ptr)? = new.clone();
            what = format!("change {ptr} from {old:?} to {new:?}");
        }
        Mutation::Repoint => {
            let c: Vec<&String> = nodes
                .iter()
                .map(|(p, _)| p)
                .filter(|p| reference(s, &pattern(p)))
                .collect();
            let ptr = c.get(pick % c.len().max(1))?;
            let new = ["no-such-phase", "$nowhere", "NOT-A-VALUE"][variant % 3];
            *tree.get_mut(ptr)? = M::Str(new.into());
            what = format!("re-point {ptr} to {new}");
        }
        Mutation::RemoveOutcome => {
            let phases_ptr = match s.format {
                Format::Agentpm => "/loop/phases",
                Format::Ir => "/graph/phases",
                Format::Mas => return None,
            };
            let transitions_ptr = phases_ptr.replace("phases", "transitions");
            let M::Arr(phases) = tree.get_mut(phases_ptr)? else {
                return None;
            };
            let i = pick % phases.len().max(1);
            let phase = phases.get_mut(i)?;
            let M::Obj(fields) = phase else { return None };
            let id = fields
                .iter()
                .find(|(k, _)| k == "id")
                .map(|(_, v)| v.clone())?;
            match fields.iter_mut().find(|(k, _)| k == "outcomes") {
                Some((_, M::Arr(outs))) if !outs.is_empty() => {
                    let j = variant % outs.len();
                    outs.remove(j);
                    what = format!("remove outcome {j} of phase {i}");
                }
                _ => {
                    let M::Arr(ts) = tree.get_mut(&transitions_ptr)? else {
                        return None;
                    };
                    let j = ts.iter().position(|t| {
                        matches!(t, M::Obj(f) if f.iter().any(|(k, v)| k == "from" && *v == id))
                    })?;
                    ts.remove(j);
                    what = format!("remove transition {j} (the implicit outcome of phase {i})");
                }
            }
        }
    }
    (tree != s.tree).then(|| (tree.render(s.yaml), what))
}

/// The byte spans (opening quote, closing quote) of the double-quoted scalars of a
/// rendering, escapes taken into account.
fn string_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut open = None;
    let mut escaped = false;
    for (i, b) in text.bytes().enumerate() {
        match (open, b) {
            (None, b'"') => open = Some(i),
            (Some(_), _) if escaped => escaped = false,
            (Some(_), b'\\') => escaped = true,
            (Some(o), b'"') => {
                spans.push((o, i));
                open = None;
            }
            _ => {}
        }
    }
    spans
}

fn line_count(text: &str) -> u32 {
    u32::try_from(text.lines().count()).unwrap_or(u32::MAX) + 1
}

fn positions_in_range(l: &Loaded, text: &str) -> Result<(), TestCaseError> {
    for d in l.diags.items() {
        if let Some(p) = d.location.pos {
            prop_assert!(p.line >= 1 && p.column >= 1, "{d:?}");
            prop_assert!(p.line <= line_count(text), "{d:?} past the end");
        }
    }
    Ok(())
}

fn ext(s: &Sample) -> &'static str {
    match (s.format, s.yaml) {
        (Format::Ir, _) => "ir.json",
        (_, true) => "yaml",
        (_, false) => "json",
    }
}

/// A valid sample, or `None` when `examples/` and the corpus hold none (a checkout without
/// them): the mutation properties then have nothing to mutate and pass.
fn sample() -> impl Strategy<Value = Option<Sample>> {
    (0..SAMPLES.len().max(1)).prop_map(|i| SAMPLES.get(i).cloned())
}

proptest! {
    #![proptest_config(config(256))]

    /// Structural mutations always give a located diagnostic.
    #[test]
    fn mutations_are_located(
        s in sample(),
        m in prop::sample::select(vec![
            Mutation::DropKey,
            Mutation::DuplicateKey,
            Mutation::ChangeType,
            Mutation::Repoint,
            Mutation::RemoveOutcome,
        ]),
        pick in any::<usize>(),
        variant in any::<usize>(),
        from_flag in any::<bool>(),
    ) {
        let Some(s) = s else { return Ok(()) };
        let Some((text, what)) = mutate(&s, m, pick, variant) else {
            return Ok(());
        };
        let path = format!("mutant.{}", ext(&s));
        let from = from_flag.then_some(s.format);
        let l = load(&path, text.as_bytes(), &LoadOptions { from, ..LoadOptions::default() });
        prop_assert!(
            l.diags.items().iter().any(|d| d.location.pos.is_some()),
            "{} ({what}, from {from:?}): no located diagnostic: {:#?}\n{text}",
            s.name,
            l.diags.items()
        );
        positions_in_range(&l, &text)?;
    }

    /// Garbage bytes (at least one that cannot be in a UTF-8 text file) are diagnosed;
    /// any printable garbage never panics.
    #[test]
    fn garbage_is_diagnosed(
        s in sample(),
        at in any::<usize>(),
        junk in prop::collection::vec(any::<u8>(), 0..16),
        bad in prop::sample::select(vec![0x00u8, 0xC0, 0xF8, 0xFE, 0xFF]),
        ascii in "[ -~\t\n]{1,12}",
    ) {
        let Some(s) = s else { return Ok(()) };
        let path = format!("garbage.{}", ext(&s));
        let at = at % (s.text.len() + 1);
        let mut bytes = s.text.as_bytes().to_vec();
        let mut g = junk.clone();
        g.insert(junk.len() / 2, bad);
        bytes.splice(at..at, g);
        let l = load(&path, &bytes, &LoadOptions::default());
        prop_assert!(!l.diags.is_empty(), "{}: garbage at byte {at} not diagnosed", s.name);
        let mut bytes = s.text.as_bytes().to_vec();
        bytes.splice(at..at, ascii.bytes());
        let l = load(&path, &bytes, &LoadOptions::default());
        if let Some(doc) = &l.doc {
            positions_in_range(&l, &doc.text)?;
        }
    }

    /// A truncated file is diagnosed: JSON cut before its last character, YAML cut inside
    /// a quoted scalar (a YAML file cut at a line break can still be a valid loop).
    #[test]
    fn truncation_is_diagnosed(s in sample(), cut in any::<usize>()) {
        let Some(s) = s else { return Ok(()) };
        let path = format!("cut.{}", ext(&s));
        let text = if s.yaml { s.tree.render(true) } else { s.text.clone() };
        let cut_at = if s.yaml {
            // Somewhere after the opening quote, up to and including the closing one.
            let strings = string_spans(&text);
            match strings.get(cut % strings.len().max(1)) {
                Some(&(open, close)) => open + 1 + (cut / 7) % (close - open),
                None => return Ok(()),
            }
        } else {
            let last = text.trim_end().len();
            cut % last.max(1)
        };
        let bytes = &text.as_bytes()[..cut_at];
        let l = load(&path, bytes, &LoadOptions::default());
        prop_assert!(
            !l.diags.is_empty(),
            "{}: cut at byte {cut_at} not diagnosed:\n{}",
            s.name,
            String::from_utf8_lossy(bytes)
        );
        // Any other cut never panics.
        let l = load(&path, &s.text.as_bytes()[..cut % (s.text.len() + 1)], &LoadOptions::default());
        if let Some(doc) = &l.doc {
            positions_in_range(&l, &doc.text)?;
        }
    }
}

/// The mutation machinery itself: the renderings of an unmutated sample load as the same
/// loop, so a diagnostic on a mutant comes from the mutation.
#[test]
fn renderings_of_samples_are_valid() {
    // The corpus holds valid loops: with it present, the mutations have seeds.
    if common::corpus().is_some() {
        assert!(!SAMPLES.is_empty(), "no valid sample found");
    }
    for s in SAMPLES.iter() {
        let text = s.tree.render(s.yaml);
        let path = format!("render.{}", ext(s));
        let l = load(&path, text.as_bytes(), &LoadOptions::default());
        let errs = errors(&l.diags);
        assert!(errs.is_empty(), "{}: {errs:#?}\n{text}", s.name);
        let orig = load(&s.name, s.text.as_bytes(), &LoadOptions::default());
        assert_eq!(
            l.spec.as_ref().map(ir_json),
            orig.spec.as_ref().map(ir_json),
            "{}",
            s.name
        );
    }
}
