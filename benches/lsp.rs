//! Latency of the language server's work on one edit of a large loop: a generated AgentPM
//! manifest with `LOOPCONV_BENCH_PHASES` phases (default 400), each with two outcomes.
//! Run with `cargo bench --bench lsp`; it prints the mean time of each step (the issue's
//! budget is 50 ms per answer on loops of a few hundred phases).

use std::hint::black_box;
use std::time::{Duration, Instant};

use loopconv::lsp::Analysis;
use loopconv::lsp::features;
use lsp_types::Uri;

fn manifest(n: usize) -> String {
    let phases: Vec<_> = (0..n)
        .map(|i| {
            serde_json::json!({
                "id": format!("p{i}"),
                "objective": format!("Do step {i}."),
                "outcomes": [
                    {"id": "ok", "description": "Done."},
                    {"id": "retry", "description": "Again."}
                ]
            })
        })
        .collect();
    let transitions: Vec<_> = (0..n)
        .flat_map(|i| {
            let next = if i + 1 == n {
                "$end".to_owned()
            } else {
                format!("p{}", i + 1)
            };
            [
                serde_json::json!({"from": format!("p{i}"), "on": "ok", "to": next}),
                serde_json::json!({"from": format!("p{i}"), "on": "retry", "to": format!("p{i}")}),
            ]
        })
        .collect();
    let v = serde_json::json!({
        "$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json",
        "kind": "loop", "name": "big", "version": "1.0.0", "description": "A big loop.",
        "loop": {"archetype": "chain", "entry_phase": "p0", "phases": phases, "transitions": transitions}
    });
    serde_json::to_string_pretty(&v).expect("JSON")
}

fn measure(name: &str, mut f: impl FnMut()) {
    let start = Instant::now();
    let mut rounds = 0u32;
    while start.elapsed() < Duration::from_millis(500) || rounds == 0 {
        f();
        rounds += 1;
    }
    let per = start.elapsed() / rounds;
    println!("{name:<40} {:>9.2} ms", per.as_secs_f64() * 1e3);
}

fn main() {
    let n = std::env::var("LOOPCONV_BENCH_PHASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let text = manifest(n);
    let uri: Uri = "file:///big.json".parse().expect("URI");
    println!("{n} phases, {} bytes", text.len());
    measure("analyse (load + validate + index)", || {
        black_box(Analysis::new("big.json", &text));
    });
    let a = Analysis::new("big.json", &text);
    measure("diagnostics to LSP", || {
        black_box(a.diagnostics(&uri));
    });
    let at = text.rfind("\"to\": \"p").expect("a reference") + 8;
    let t = a.text();
    measure("definition", || {
        black_box(features::definition(&t, &a.index, at));
    });
    measure("completion", || {
        black_box(features::completion(&t, &a.index, at));
    });
    measure("hover", || {
        black_box(features::hover(&t, &a.index, a.loaded.info.as_ref(), at));
    });
    measure("rename", || {
        black_box(features::rename(&t, &a.index, &uri, at, "renamed"));
    });
    measure("document symbols", || {
        black_box(features::symbols(&t, &a.index));
    });
}
