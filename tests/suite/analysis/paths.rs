//! Property tests of `paths` and `walk` on generated loops: the covering runs take every
//! transition and checkpoint decision that some entry-to-terminal run can take (computed
//! here independently, by fixed-point reachability), everything else is reported, and
//! `walk` replays every returned run to its terminal, step by step.

use std::collections::BTreeSet;

use crate::support::*;
use loopconv::analysis::paths::{paths, paths_within};
use loopconv::analysis::walk::{Script, walk};
use loopconv::analysis::{Decision, Runtime, Status, Step};
use loopconv::diag::Diagnostics;
use loopconv::ir::{Checkpoint, Destination, Graph, Outcome, Phase, Spec, Terminal, Transition};
use loopconv::valid::graph::{Edge, Vertex};
use proptest::prelude::*;
use serde_json::Value;

/// A loop of up to 9 phases `p0..`, each with 1 to 3 outcomes `o0..` (or the implicit
/// `complete`), every outcome going to a random phase or terminal, and up to 3 checkpoints
/// (several may guard one phase: they chain in authored order).
/// Unreachable phases and trap cycles are allowed: `paths` must report them.
fn spec() -> impl Strategy<Value = Spec> {
    (1usize..10)
        .prop_flat_map(|n| {
            (
                Just(n),
                prop::collection::vec(0usize..4, n),
                prop::collection::vec(0usize..64, n * 3),
                prop::collection::vec((0usize..n, 0usize..n + 3), 0..4),
            )
        })
        .prop_map(|(n, outs, targets, cps)| {
            let dest = |k: usize| {
                if k < n {
                    Destination::Phase(format!("p{k}"))
                } else {
                    Destination::Terminal(Terminal::ALL[(k - n) % 3])
                }
            };
            let mut phases = Vec::new();
            let mut transitions = Vec::new();
            for i in 0..n {
                let ids: Vec<String> = if outs[i] == 0 {
                    vec!["complete".to_owned()]
                } else {
                    (0..outs[i]).map(|o| format!("o{o}")).collect()
                };
                for (o, id) in ids.iter().enumerate() {
                    transitions.push(Transition {
                        from: format!("p{i}"),
                        on: id.clone(),
                        to: dest(targets[i * 3 + o] % (n + 3)),
                        origin: Default::default(),
                    });
                }
                phases.push(Phase {
                    id: format!("p{i}"),
                    objective: "x".to_owned(),
                    outcomes: (outs[i] > 0).then(|| {
                        ids.iter()
                            .map(|id| Outcome {
                                id: id.clone(),
                                description: "d".to_owned(),
                                ..Outcome::default()
                            })
                            .collect()
                    }),
                    ..Phase::default()
                });
            }
            let checkpoints: Vec<Checkpoint> = cps
                .into_iter()
                .enumerate()
                .map(|(i, (b, r))| Checkpoint {
                    id: format!("c{i}"),
                    before_phase: format!("p{b}"),
                    on_reject: dest(r),
                    origin: Default::default(),
                })
                .collect();
            Spec {
                name: "generated".to_owned(),
                graph: Graph {
                    entry: "p0".to_owned(),
                    phases,
                    transitions,
                    checkpoints: Some(checkpoints),
                    ..Graph::default()
                },
                ..Spec::default()
            }
        })
}

/// A key for a step that ignores where it goes: (phase or checkpoint, outcome or decision).
fn key(s: &Step) -> (String, String) {
    match s {
        Step::Phase { phase, outcome, .. } => (phase.clone(), outcome.clone()),
        Step::Checkpoint {
            checkpoint,
            decision,
            ..
        } => (checkpoint.clone(), decision.as_str().to_owned()),
        Step::Failure { phase, action, .. } => (phase.clone(), action.clone()),
    }
}

/// The edges an entry-to-terminal run can take, by fixed-point iteration.
fn coverable(spec: &Spec, info: &loopconv::valid::Info) -> BTreeSet<(String, String)> {
    let g = &info.graph;
    let Some(start) = info.start else {
        return BTreeSet::new();
    };
    let mut fwd = BTreeSet::from([start]);
    let mut back: BTreeSet<_> = g
        .node_indices()
        .filter(|n| matches!(g[*n], Vertex::Terminal(_)))
        .collect();
    loop {
        let before = (fwd.len(), back.len());
        for e in g.edge_indices() {
            let (u, v) = g.edge_endpoints(e).unwrap();
            if fwd.contains(&u) {
                fwd.insert(v);
            }
            if back.contains(&v) {
                back.insert(u);
            }
        }
        if before == (fwd.len(), back.len()) {
            break;
        }
    }
    let cps = spec.graph.checkpoints.clone().unwrap_or_default();
    g.edge_indices()
        .filter(|e| {
            let (u, v) = g.edge_endpoints(*e).unwrap();
            fwd.contains(&u) && back.contains(&v)
        })
        .map(|e| {
            let (u, _) = g.edge_endpoints(e).unwrap();
            match (&g[u], &g[e]) {
                (Vertex::Phase(p), Edge::Transition(t)) => (
                    spec.graph.phases[*p].id.clone(),
                    spec.graph.transitions[*t].on.clone(),
                ),
                (Vertex::Gate(c), d) => {
                    let d = if *d == Edge::Approve {
                        Decision::Approve
                    } else {
                        Decision::Reject
                    };
                    (cps[*c].id.clone(), d.as_str().to_owned())
                }
                _ => unreachable!("no other edges"),
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn paths_cover_exactly_the_coverable_edges_and_walk_replays_them(spec in spec()) {
        let mut diags = Diagnostics::new("generated");
        let info = loopconv::valid::validate(&spec, &mut diags);
        let found = paths(&spec, &info, Runtime::UNBOUNDED);
        let taken: BTreeSet<_> = found.cover.iter().flat_map(|r| r.steps.iter().map(key)).collect();
        prop_assert_eq!(&taken, &coverable(&spec, &info));
        prop_assert_eq!(found.covered, taken.len());
        prop_assert_eq!(found.covered + found.uncovered.len(), found.total);
        for run in found.shortest.iter().chain(&found.cover).chain(&found.failures) {
            let script = Script { outcomes: run.outcomes.clone(), decisions: run.decisions.clone() };
            let trace = walk(&spec, &info, &script, Runtime::UNBOUNDED);
            prop_assert!(trace.is_ok(), "{:?}", trace);
            let trace = trace.unwrap();
            prop_assert_eq!(trace.status, run.status);
            prop_assert_eq!(&trace.terminal, &run.terminal);
            prop_assert_eq!(&trace.steps, &run.steps);
        }
        // Without an error policy, both failure runs end `failed` (the harness default).
        prop_assert_eq!(found.failures.len(), 2);
        prop_assert!(found.failures.iter().all(|r| r.status == Status::Failed));
        // A bound on the steps listed lists a prefix of the same runs, counts the rest, and
        // names the bound that lists them all.
        let bound = found.cover.iter().map(|r| r.steps.len()).sum::<usize>() / 2;
        let some = paths_within(&spec, &info, Runtime::UNBOUNDED, bound);
        prop_assert_eq!(&found.cover[..some.cover.len()], &some.cover[..]);
        prop_assert_eq!(some.cover.len() + some.omitted.runs, found.cover.len());
        prop_assert!(some.cover.iter().map(|r| r.steps.len()).sum::<usize>() <= bound);
        prop_assert_eq!((some.covered, &some.uncovered), (found.covered, &found.uncovered));
        if some.omitted.runs > 0 {
            let all = paths_within(&spec, &info, Runtime::UNBOUNDED, some.omitted.bound_for_all);
            prop_assert_eq!(&all.cover, &found.cover);
            prop_assert_eq!(all.omitted.runs, 0);
        }
        prop_assert_eq!(found.omitted.runs, 0);
        // The shortest run to each terminal is no longer than any covering run to it.
        for s in &found.shortest {
            for c in found.cover.iter().filter(|c| c.terminal == s.terminal) {
                prop_assert!(s.steps.len() <= c.steps.len());
            }
        }
    }
}

/// Every valid example, corpus file and scaffold, loaded.
fn valid_loops() -> Vec<(String, loopconv::Loaded)> {
    let dir = tempfile::tempdir().unwrap();
    let mut files = all_inputs();
    files.extend(new_scaffolds(dir.path()).into_iter().map(|(_, f)| f));
    files
        .iter()
        .map(|f| (rel(f), load_file(f)))
        .filter(|(_, l)| l.valid().is_some())
        .collect()
}

#[test]
fn paths_cover_every_reachable_transition_and_walk_replays_them() {
    let loops = valid_loops();
    assert!(loops.len() > 10);
    for (name, l) in &loops {
        let (spec, info) = l.valid().unwrap();
        let found = paths(spec, info, Runtime::UNBOUNDED);
        assert_eq!(found.covered + found.uncovered.len(), found.total, "{name}");
        for u in &found.uncovered {
            assert!(u.reason.contains("reached"), "{name}: {u:?}");
        }
        for run in found
            .shortest
            .iter()
            .chain(&found.cover)
            .chain(&found.failures)
        {
            let script = Script {
                outcomes: run.outcomes.clone(),
                decisions: run.decisions.clone(),
            };
            // The covering runs may exceed `max_steps` (they are about transitions, not
            // budgets); walk them unbounded, and the shortest runs with the bound.
            let mut unbounded = info.clone();
            unbounded.max_steps = None;
            let trace = walk(spec, &unbounded, &script, Runtime::UNBOUNDED)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(trace.status, run.status, "{name}");
            assert_eq!(trace.terminal, run.terminal, "{name}");
            assert_eq!(trace.steps, run.steps, "{name}");
        }
    }
}

#[test]
fn paths_cli_text_and_json_and_walk_replays_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let files = new_scaffolds(dir.path());
    for (a, f) in &files {
        let out = loopconv()
            .args(["paths", "--format", "json"])
            .arg(f)
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["covered"], v["total"], "{}", a.name());
        let runs = v["cover"].as_array().unwrap().iter();
        for run in runs.chain(v["failures"].as_array().unwrap()) {
            let args: Vec<String> = serde_json::from_value(run["walk_args"].clone()).unwrap();
            let status = run["status"].as_str().unwrap();
            loopconv()
                .arg("walk")
                .arg(f)
                .args(&args)
                .assert()
                .code(status_code(status))
                .stdout(predicates::str::contains(format!("run {status} after")));
        }
    }
    let react = &files[0].1;
    let text = loopconv().arg("paths").arg(react).output().unwrap();
    insta::assert_snapshot!("paths_react", String::from_utf8(text.stdout).unwrap());
}

/// The documented exit code of a run status (the guide's "Scripted runs", `docs/src/authoring.md`).
pub(crate) fn status_code(status: &str) -> i32 {
    match status {
        "ended" => 0,
        "aborted" => 3,
        "handed_off" => 4,
        "limit_reached" => 5,
        "approval_required" => 6,
        "failed" => 7,
        other => panic!("not a run status: {other}"),
    }
}

/// A VEAL loop with `max_attempts: N` and `escalation: abort`.
fn veal(attempts: u64) -> loopconv::Loaded {
    let text = format!(
        "name: gate\ntype: VEAL\ndescription: d\nvalidator: v\nactor: a\nmax_attempts: {attempts}\nescalation: abort\nchecks:\n  - id: lint\n    command: cargo clippy\n"
    );
    loopconv::load(
        "gate.yaml",
        text.as_bytes(),
        &loopconv::LoadOptions::default(),
    )
}

/// REAL/VEAL: the run that escalates fails every attempt first (seed 004: the escalation
/// is the "policy when max reached"), and `walk` replays it to the escalation's status; an
/// escalation longer than the step limit, or `act` with one attempt, is not coverable.
#[test]
fn mas_paths_escalate_only_after_max_attempts() {
    for attempts in [2, 3, 5] {
        let l = veal(attempts);
        let (spec, info) = l.valid().expect("valid");
        let found = paths(spec, info, Runtime::default());
        let abort = found
            .shortest
            .iter()
            .find(|r| r.terminal.as_deref() == Some("$abort"))
            .expect("a run to $abort");
        let evals = abort
            .outcomes
            .iter()
            .filter(|o| *o == "no-go" || *o == "escalate")
            .count();
        assert_eq!(evals as u64, attempts, "{abort:?}");
        assert_eq!(abort.phase_steps as u64, 3 * attempts - 1);
        assert_eq!(abort.outcomes.last().map(String::as_str), Some("escalate"));
        assert!(abort.fits_max_steps);
        assert_eq!(found.covered, found.total, "{found:?}");
        for run in found.shortest.iter().chain(&found.cover) {
            let script = Script {
                outcomes: run.outcomes.clone(),
                decisions: run.decisions.clone(),
            };
            let trace = walk(spec, info, &script, Runtime::default()).expect("replays");
            assert_eq!((trace.status, &trace.terminal), (run.status, &run.terminal));
        }
    }
    // One attempt: the first failed evaluation escalates, `act` is never reached.
    let l = veal(1);
    let (spec, info) = l.valid().expect("valid");
    let found = paths(spec, info, Runtime::default());
    let never: Vec<&str> = found.uncovered.iter().map(|u| u.reason.as_str()).collect();
    assert_eq!(never.len(), 2, "{never:?}");
    assert!(
        never.iter().all(|r| r.contains("`max_attempts` is 1")),
        "{never:?}"
    );
    // 50 attempts take 149 steps: beyond the runtime's ceiling of 100 the run stops
    // `limit_reached` and never escalates; with a ceiling of 200 it does.
    let l = veal(50);
    let (spec, info) = l.valid().expect("valid");
    let found = paths(spec, info, Runtime::default());
    assert_eq!(found.uncovered.len(), 1, "{:?}", found.uncovered);
    assert!(
        found.uncovered[0]
            .reason
            .contains("not reached within 100 steps"),
        "{:?}",
        found.uncovered
    );
    assert!(found.shortest.iter().all(|r| r.status != Status::Aborted));
    let found = paths(spec, info, Runtime { max_steps: 200 });
    assert!(found.uncovered.is_empty() && found.covered == found.total);
    // A huge `max_attempts` is reported, not spelled out.
    let l = veal(1_000_000_000_000);
    let (spec, info) = l.valid().expect("valid");
    let found = paths(spec, info, Runtime::UNBOUNDED);
    assert_eq!(found.uncovered.len(), 1);
    assert!(found.cover.iter().all(|r| r.phase_steps < 10));
}
