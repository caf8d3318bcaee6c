//! Property tests of `paths` and `walk` on generated loops: the covering runs take every
//! transition and checkpoint decision that some entry-to-terminal run can take (computed
//! here independently, by fixed-point reachability), everything else is reported, and
//! `walk` replays every returned run to its terminal, step by step.

use crate::support::{all_inputs, load_file, loopconv, new_scaffolds, rel, stderr};
use std::collections::BTreeSet;

use crate::support::generators::chain;
use loopconv::analysis::paths::{Options, paths, plan};
use loopconv::analysis::walk::{Script, walk};
use loopconv::analysis::{Decision, Runtime, Status, Step};
use loopconv::diag::Diagnostics;
use loopconv::ir::{Checkpoint, Destination, Graph, Outcome, Phase, Spec, Terminal, Transition};
use loopconv::valid::graph::{Edge, Vertex};
use proptest::prelude::{
    Just, ProptestConfig, Strategy, prop, prop_assert, prop_assert_eq, proptest,
};
use serde_json::{Value, json};

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
                        final_state: None,
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
                    final_state: None,
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

/// `paths` of a loop as JSON, with the given options.
fn paths_json(spec: &Spec, info: &loopconv::valid::Info, options: Options) -> Value {
    serde_json::to_value(plan(spec, info, Runtime::UNBOUNDED, options)).unwrap()
}

/// Every run spelled out, none listed: the listing without shared steps.
const UNSHARED: Options = Options {
    max_steps_listed: usize::MAX,
    shared_min_steps: usize::MAX,
};

/// Share every step that can be shared.
const SHARE_ALL: Options = Options {
    max_steps_listed: usize::MAX,
    shared_min_steps: 1,
};

/// The own steps of the covering runs of a `paths` JSON answer.
fn own_steps(v: &Value) -> usize {
    v["cover"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["steps"].as_array().unwrap().len())
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn paths_cover_exactly_the_coverable_edges_and_walk_replays_them(spec in spec()) {
        let mut diags = Diagnostics::new("generated");
        let info = loopconv::valid::validate(&spec, &mut diags);
        let found = plan(&spec, &info, Runtime::UNBOUNDED, UNSHARED).into_paths();
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
        prop_assert_eq!(found.omitted.runs, 0);
        // The shortest run to each terminal is no longer than any covering run to it.
        for s in &found.shortest {
            for c in found.cover.iter().filter(|c| c.terminal == s.terminal) {
                prop_assert!(s.steps.len() <= c.steps.len());
            }
        }
    }

    /// Shared steps read back (as the guide says) to exactly the runs spelled out, with the
    /// same coverage; sharing spells out no more steps; `paths` shares from
    /// `SHARED_MIN_STEPS`.
    #[test]
    fn shared_steps_read_back_to_the_runs_spelled_out(spec in spec()) {
        let mut diags = Diagnostics::new("generated");
        let info = loopconv::valid::validate(&spec, &mut diags);
        let unshared = paths_json(&spec, &info, UNSHARED);
        for options in [SHARE_ALL, Options::default()] {
            let shared = paths_json(&spec, &info, options);
            prop_assert_eq!(&Value::Array(whole_cover(&shared)), &unshared["cover"]);
            for k in ["shortest", "uncovered", "failures", "covered", "total", "omitted"] {
                prop_assert_eq!(&shared[k], &unshared[k], "{}", k);
            }
            prop_assert!(own_steps(&shared) <= own_steps(&unshared));
            for (i, r) in shared["cover"].as_array().unwrap().iter().enumerate() {
                for k in ["shared_prefix", "shared_suffix"] {
                    if let Some(s) = r.get(k) {
                        let (run, steps) = (s["run"].as_u64().unwrap(), s["steps"].as_u64().unwrap());
                        prop_assert!(run >= 1 && run <= i as u64, "{k} of run {}: {s}", i + 1);
                        prop_assert!(steps >= options.shared_min_steps as u64);
                        // Only whole runs replay: a shared run names no `walk_args`.
                        prop_assert!(r.get("walk_args").is_none());
                    }
                }
            }
        }
        // The library's `paths` is the default listing.
        let default = serde_json::to_value(paths(&spec, &info, Runtime::UNBOUNDED)).unwrap();
        prop_assert_eq!(&default, &paths_json(&spec, &info, Options::default()));
    }

    /// A bound on the steps listed lists a prefix of the same runs (shared steps and all),
    /// counts the rest, and names the bound that lists them all; coverage is the same.
    #[test]
    fn bounded_listing_is_a_prefix_with_the_same_coverage(spec in spec()) {
        let mut diags = Diagnostics::new("generated");
        let info = loopconv::valid::validate(&spec, &mut diags);
        let found = plan(&spec, &info, Runtime::UNBOUNDED, SHARE_ALL).into_paths();
        let written = |runs: &[loopconv::analysis::paths::Path]| runs.iter().map(|r| r.steps.len()).sum::<usize>();
        let bound = written(&found.cover) / 2;
        let some = plan(&spec, &info, Runtime::UNBOUNDED, Options { max_steps_listed: bound, ..SHARE_ALL }).into_paths();
        prop_assert_eq!(&found.cover[..some.cover.len()], &some.cover[..]);
        prop_assert_eq!(some.cover.len() + some.omitted.runs, found.cover.len());
        prop_assert!(written(&some.cover) <= bound);
        prop_assert_eq!(written(&some.cover) + some.omitted.steps, written(&found.cover));
        prop_assert_eq!((some.covered, &some.uncovered), (found.covered, &found.uncovered));
        if some.omitted.runs > 0 {
            let options = Options { max_steps_listed: some.omitted.bound_for_all, ..SHARE_ALL };
            let all = plan(&spec, &info, Runtime::UNBOUNDED, options).into_paths();
            prop_assert_eq!(&all.cover, &found.cover);
            prop_assert_eq!(all.omitted.runs, 0);
        } else {
            prop_assert_eq!(some.omitted, Default::default());
        }
    }
}

/// The covering runs of a `paths` JSON answer in full, read as the guide says: a
/// `shared_prefix` `{run, steps}` stands for the first `steps` steps of run `run` (from 1),
/// a `shared_suffix` for its last `steps` steps; a whole run's `outcomes`, `decisions` and
/// `walk_args` follow from its steps.
pub(crate) fn whole_cover(paths: &Value) -> Vec<Value> {
    let mut whole: Vec<Value> = Vec::new();
    for run in paths["cover"].as_array().expect("cover runs") {
        let mut run = run.as_object().expect("a run").clone();
        let shared = |s: &Value, whole: &[Value]| {
            let run = usize::try_from(s["run"].as_u64().expect("run")).unwrap();
            let steps = usize::try_from(s["steps"].as_u64().expect("steps")).unwrap();
            (whole[run - 1]["steps"].as_array().unwrap().clone(), steps)
        };
        let mut steps = Vec::new();
        if let Some(s) = run.remove("shared_prefix") {
            let (earlier, k) = shared(&s, &whole);
            steps.extend_from_slice(&earlier[..k]);
        }
        steps.extend(run["steps"].as_array().unwrap().iter().cloned());
        if let Some(s) = run.remove("shared_suffix") {
            let (earlier, k) = shared(&s, &whole);
            steps.extend_from_slice(&earlier[earlier.len() - k..]);
        }
        let outcomes: Vec<&str> = steps.iter().filter_map(|s| s["outcome"].as_str()).collect();
        let decisions: Vec<Value> = steps
            .iter()
            .filter(|s| s.get("checkpoint").is_some())
            .map(|s| json!([s["checkpoint"], s["decision"]]))
            .collect();
        let mut walk_args = vec![json!("--outcomes"), json!(outcomes.join(","))];
        for d in &decisions {
            walk_args.push(json!(format!("--{}", d[1].as_str().unwrap())));
            walk_args.push(d[0].clone());
        }
        run.insert("outcomes".into(), json!(outcomes));
        run.insert("decisions".into(), Value::Array(decisions));
        run.insert("walk_args".into(), Value::Array(walk_args));
        run.insert("steps".into(), Value::Array(steps));
        whole.push(Value::Object(run));
    }
    whole
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
        // The runs in full; the listing with shared steps reads back to them.
        let found = plan(spec, info, Runtime::UNBOUNDED, UNSHARED).into_paths();
        let shared = serde_json::to_value(paths(spec, info, Runtime::UNBOUNDED)).unwrap();
        let unshared = serde_json::to_value(&found).unwrap();
        assert_eq!(
            whole_cover(&shared),
            unshared["cover"].as_array().unwrap()[..]
        );
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
        let cover = whole_cover(&v);
        for run in cover.iter().chain(v["failures"].as_array().unwrap()) {
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

/// A chain of 1,000 phases: its covering runs hold about 10^6 steps, but each spells out
/// only the few a run before it does not (`(as run N)` in the text, `shared_prefix` in JSON),
/// so the listing is linear in the loop; read back, the runs are the ones spelled out in
/// full, and `walk` replays them.
#[test]
fn a_long_chain_lists_its_runs_with_shared_steps() {
    let text = chain(1_000);
    let l = loopconv::load(
        "chain.json",
        text.as_bytes(),
        &loopconv::LoadOptions::default(),
    );
    let (spec, info) = l.valid().expect("a valid chain");
    let unshared = paths_json(spec, info, UNSHARED);
    let shared = paths_json(spec, info, Options::default());
    let whole = whole_cover(&shared);
    assert_eq!(whole, unshared["cover"].as_array().unwrap()[..]);
    let edges = info.graph.edge_count();
    assert!(
        own_steps(&unshared) > 200 * edges,
        "{}",
        own_steps(&unshared)
    );
    assert!(own_steps(&shared) < 4 * edges, "{}", own_steps(&shared));
    assert_eq!(shared["covered"], shared["total"]);
    // Every 100th run (the replays are long), through `walk` itself.
    for run in whole.iter().step_by(100) {
        let outcomes: Vec<String> = serde_json::from_value(run["outcomes"].clone()).unwrap();
        let decisions = run["decisions"].as_array().unwrap().iter().map(|d| {
            let decision = if d[1] == "approve" {
                Decision::Approve
            } else {
                Decision::Reject
            };
            (d[0].as_str().unwrap().to_owned(), decision)
        });
        let script = Script {
            outcomes,
            decisions: decisions.collect(),
        };
        let trace = walk(spec, info, &script, Runtime::UNBOUNDED).expect("replays");
        assert_eq!(serde_json::to_value(&trace.steps).unwrap(), run["steps"]);
        assert_eq!(trace.status.as_str(), run["status"]);
        assert_eq!(
            trace.phase_steps as u64,
            run["phase_steps"].as_u64().unwrap()
        );
    }
}

/// The CLI writes the listing as it is built: with every run listed, text and JSON to
/// standard output and to a file (`-o`, staged and renamed) are the same bytes, the JSON is
/// the library's answer, and the text shows shared steps as the guide says.
#[test]
fn paths_cli_streams_every_run_with_shared_steps() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("chain.json");
    std::fs::write(&file, chain(300)).unwrap();
    let l = load_file(&file);
    let (spec, info) = l.valid().expect("a valid chain");
    let bound = "--max-steps-listed=100000000";
    for format in ["text", "json"] {
        let out = loopconv()
            .args(["paths", bound, "--format", format])
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let to = dir.path().join(format!("new/paths.{format}"));
        loopconv()
            .args(["paths", bound, "--format", format, "-o"])
            .arg(&to)
            .arg(&file)
            .assert()
            .success();
        assert_eq!(std::fs::read(&to).unwrap(), out.stdout, "{format}");
        let printed = String::from_utf8(out.stdout).unwrap();
        let listing = plan(spec, info, Runtime::default(), Options::default());
        if format == "json" {
            let want = serde_json::to_string_pretty(&listing).unwrap() + "\n";
            assert_eq!(printed, want);
            assert_eq!(
                printed,
                serde_json::to_string_pretty(&listing.into_paths()).unwrap() + "\n"
            );
            continue;
        }
        assert!(!printed.contains("not listed"), "{printed}");
        let lines: Vec<&str> = printed.lines().filter(|l| l.contains(". ")).collect();
        // Run 2 retries back into the first phase; run 40 begins as a run before it.
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("   2. p0000 --retry--> p0000")),
            "{printed}"
        );
        let run40 = lines
            .iter()
            .find(|l| l.starts_with("  40. "))
            .expect("run 40");
        assert!(run40.starts_with("  40. (as run "), "{run40}");
        assert!(run40.len() < 200, "{run40}");
    }
}

/// A shortest run longer than `--max-steps-listed` shows its first and last steps and how
/// many are left out, with the bound that spells it out; raised, the run is whole.
#[test]
fn a_long_shortest_run_is_shown_by_its_ends() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("chain.json");
    std::fs::write(&file, chain(1_000)).unwrap();
    let text = |bound: &str| {
        let out = loopconv()
            .args(["paths", "--max-steps-listed", bound])
            .arg(&file)
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let end_line = |t: &str| t.lines().find(|l| l.contains("$end ")).unwrap().to_owned();
    let short = end_line(&text("10"));
    assert!(
        short.starts_with("  $end      1000 steps: p0000 --advance--> "),
        "{short}"
    );
    // 1,000 steps are more than the runtime's ceiling: the run is marked as the harness
    // ends it.
    assert!(
        short.ends_with(
            "p0999 --advance--> $end  [over max_steps: 1000 steps, so the harness stops it first: limit_reached]"
        ),
        "{short}"
    );
    assert!(
        short.contains("… 1030 steps not shown (pass `--max-steps-listed 1040` to spell it out) …"),
        "{short}"
    );
    let steps = |l: &str| l.matches("-->").count() + l.matches("[approve ").count();
    assert_eq!(steps(&short), 10, "{short}");
    let whole = end_line(&text("1040"));
    assert!(!whole.contains("not shown"), "{whole}");
    assert_eq!(steps(&whole), 1040, "{whole}");
}

/// `paths` lists what no run can take as runs are written, `eval --no-go--> act`.
#[test]
fn what_no_run_takes_is_written_as_runs_are() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("gate.yaml");
    std::fs::write(
        &file,
        "name: gate\ntype: VEAL\ndescription: d\nvalidator: v\nactor: a\nmax_attempts: 1\nescalation: abort\nchecks:\n  - id: lint\n    command: cargo clippy\n",
    )
    .expect("write");
    let out = loopconv().arg("paths").arg(&file).output().expect("runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let listed = text.split("not coverable:\n").nth(1).expect("a list");
    assert!(
        listed.contains("  eval --no-go--> act: not reached"),
        "{text}"
    );
    assert!(
        listed.contains("  act --complete--> validate: not reached"),
        "{text}"
    );
    assert!(!listed.contains('{'), "{text}");
}
