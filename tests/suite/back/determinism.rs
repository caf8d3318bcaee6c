//! Determinism (issue 4, item 4): the same input gives the same bytes.
//!
//! * in one process: every back end of `Target::ALL` in every variant (AgentPM, MAS, IR,
//!   Mermaid in both styles, DOT with and without legend, PlantUML, Markdown page, the schemas) and
//!   the Markdown index run twice on every example and corpus file, each time from a fresh
//!   read, and the diagnostics of every file rendered twice;
//! * in parallel: a loop large enough to be drawn in parallel chunks gives the same bytes
//!   in every diagram back end on thread pools of 1, 2 and 5 threads (so with different
//!   chunk boundaries);
//! * across processes: `loopconv check --format json` (and the human form, and
//!   `convert --to ir`) run twice over the examples and the corpus. Each process hashes
//!   with its own random keys, so any output that depended on `HashMap` order would differ.

use crate::support;

use loopconv_testkit::workload;

use std::path::Path;

use crate::support::{all_inputs, corpus, examples, load_file, loop_files, lossy_options};
use loopconv::back::markdown;
use loopconv::diag;

/// Everything loopconv produces for one file, from a fresh read: rendered diagnostics, and
/// for a valid loop every back end's output (every variant, and its diagnostics) and the
/// Markdown index.
fn outputs(path: &Path) -> Vec<(String, String)> {
    let l = load_file(path);
    let name = l.diags.file().to_owned();
    let mut out = vec![
        (
            "json diagnostics".to_owned(),
            diag::render_json(l.diags.items()),
        ),
        (
            "human diagnostics".to_owned(),
            diag::render_human(l.diags.items(), l.text(), false),
        ),
    ];
    let Some((spec, info)) = l.valid() else {
        return out;
    };
    let opts = loopconv::back::Options {
        source: name.clone(),
        ..lossy_options()
    };
    for w in support::write_every_target(&name, spec, info, &opts) {
        let text = w
            .text
            .unwrap_or_else(|e| panic!("{name}: {}: {e}", w.label));
        out.push((
            format!("{} diagnostics", w.label),
            diag::render_json(w.diags.items()),
        ));
        out.push((w.label, text));
    }
    let entry = markdown::IndexEntry {
        name: spec.name.clone(),
        file_name: format!("{}.md", spec.name),
        description: spec.description.clone(),
        source: name.clone(),
    };
    out.push((
        "markdown index".to_owned(),
        markdown::index(&[entry]).expect("index"),
    ));
    out
}

#[test]
fn every_back_end_twice_gives_the_same_bytes() {
    let files = all_inputs();
    assert!(!files.is_empty(), "no example or corpus file");
    for f in &files {
        let a = outputs(f);
        let b = outputs(f);
        assert_eq!(a.len(), b.len(), "{}", f.display());
        for ((label, x), (_, y)) in a.iter().zip(&b) {
            assert!(x == y, "{}: {label} differs between two runs", f.display());
        }
    }
}

#[test]
fn a_large_loop_is_drawn_in_parallel_as_on_one_thread() {
    let phases = 2 * loopconv::back::support::chunks::PARALLEL_MIN + 77;
    let text = workload::agentpm_loop("parallel", phases, 9);
    let l = loopconv::load("parallel.json", text.as_bytes(), &Default::default());
    let (spec, info) = l.valid().expect("the generated loop is valid");
    let mut drawn = Vec::new();
    for (target, label, opts) in support::variants(&lossy_options())
        .into_iter()
        .filter(|(t, _, _)| t.is_diagram())
    {
        let draw = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            let mut diags = diag::Diagnostics::new("parallel.json");
            pool.install(|| loopconv::write(target, spec, info, &opts, &mut diags))
                .expect("drawn")
        };
        drawn.push(target);
        let one = draw(1);
        assert!(
            one.lines().count() > phases,
            "{label}: {} lines",
            one.lines().count()
        );
        for threads in [2, 5] {
            assert!(
                draw(threads) == one,
                "{label}: {threads} threads differ from one"
            );
        }
    }
    let diagrams: Vec<_> = loopconv::Target::ALL
        .into_iter()
        .filter(|t| t.is_diagram())
        .collect();
    drawn.dedup();
    assert_eq!(drawn, diagrams, "every diagram back end is drawn");
}

fn run(args: &[&str]) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let out = support::loopconv()
        .args(args)
        .output()
        .expect("run loopconv");
    (out.status.code(), out.stdout, out.stderr)
}

#[test]
fn check_in_two_processes_gives_the_same_output() {
    let mut dirs = vec!["examples".to_owned()];
    if let Some(corpus) = corpus() {
        dirs.push(support::rel(&corpus));
    }
    dirs.push("examples/invalid".to_owned());
    let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
    let json: Vec<&str> = ["check", "--format", "json"]
        .into_iter()
        .chain(dirs.iter().copied())
        .collect();
    let a = run(&json);
    let b = run(&json);
    assert_eq!(a.0, Some(1), "the examples include invalid files");
    assert!(!a.1.is_empty(), "no JSON output");
    serde_json::from_slice::<serde_json::Value>(&a.1).expect("one JSON document");
    assert!(
        a == b,
        "`check --format json` differs between two processes"
    );
    let human: Vec<&str> = ["check", "--color", "never"]
        .into_iter()
        .chain(dirs.iter().copied())
        .collect();
    let a = run(&human);
    assert_eq!(a.0, Some(1), "the examples include invalid files");
    assert!(!a.2.is_empty(), "no report on standard error");
    assert!(a == run(&human), "`check` differs between two processes");
}

#[test]
fn folder_check_in_parallel_reports_as_one_thread_does() {
    // `check` reads the files of a folder on several threads; what it prints must not
    // depend on how many, or on which finished first. The three folders hold over 64 files
    // (more than one batch of the parallel check), with errors and warnings of every kind.
    // Folders, and files named one by one (as a pre-commit hook names them), mixed.
    let mut named: Vec<String> = loop_files(&examples().join("invalid"))
        .iter()
        .map(|p| support::rel(p))
        .collect();
    named.sort();
    named.reverse();
    let mut inputs: Vec<&str> = vec!["examples", "examples/hostile"];
    inputs.extend(named.iter().map(String::as_str));
    inputs.push("examples/invalid");
    for format in ["human", "json", "sarif", "github"] {
        let args: Vec<&str> = ["check", "--color", "never", "--format", format]
            .into_iter()
            .chain(inputs.iter().copied())
            .collect();
        let with = |threads: &str| {
            let out = support::loopconv()
                .env("RAYON_NUM_THREADS", threads)
                .args(&args)
                .output()
                .expect("run loopconv");
            (out.status.code(), out.stdout, out.stderr)
        };
        let one = with("1");
        assert_eq!(one.0, Some(1), "{format}: the invalid examples fail");
        let report = if format == "human" { &one.2 } else { &one.1 };
        assert!(!report.is_empty(), "{format}: no report");
        for threads in ["2", "7"] {
            assert!(
                with(threads) == one,
                "{format}: `check` with {threads} threads differs from one thread"
            );
        }
    }
}

#[test]
fn convert_in_two_processes_gives_the_same_output() {
    let mut files = loop_files(&examples().join("agentpm"));
    files.extend(loop_files(&examples().join("mas")));
    for f in files {
        let p = f.to_str().expect("utf-8 path");
        for to in loopconv::Format::ALL.map(loopconv::Format::name) {
            let args = [
                "convert",
                p,
                "--to",
                to,
                "--allow-lossy",
                "--actor",
                "a",
                "--validator",
                "v",
            ];
            let a = run(&args);
            // Both runs succeed and write the loop (two identical failures would compare
            // equal too).
            assert_eq!(
                a.0,
                Some(0),
                "{p} --to {to}: {}",
                String::from_utf8_lossy(&a.2)
            );
            assert!(!a.1.is_empty(), "{p} --to {to}: nothing written");
            assert!(
                a == run(&args),
                "{p} --to {to} differs between two processes"
            );
        }
    }
}
