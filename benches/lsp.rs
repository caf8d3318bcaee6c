//! Latency of the language server's work on one edit of a large loop: a generated AgentPM
//! manifest with `LOOPCONV_BENCH_PHASES` phases (default 400), each with two outcomes.
//! Run with `cargo bench --bench lsp` (divan; the same filters and `DIVAN_*` settings as
//! `benches/throughput.rs`); the budget is 50 ms per answer on loops of a few
//! hundred phases.

use std::sync::LazyLock;

use divan::Bencher;
use loopconv::lsp::DocumentAnalysis;
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

/// The manifest, its analysis, and the byte offset of a reference (the last `"to"`).
struct Big {
    text: String,
    analysis: DocumentAnalysis,
    at: usize,
    uri: Uri,
}

static BIG: LazyLock<Big> = LazyLock::new(|| {
    let n = std::env::var("LOOPCONV_BENCH_PHASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let text = manifest(n);
    let at = text.rfind("\"to\": \"p").expect("a reference") + 8;
    Big {
        analysis: DocumentAnalysis::new("big.json", &text),
        text,
        at,
        uri: "file:///big.json".parse().expect("URI"),
    }
});

/// The binary's allocator, as in `benches/throughput.rs`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// Load, validate and index the document (what every edit costs).
#[divan::bench(sample_count = 50, max_time = 2.0)]
fn analyse(bencher: Bencher) {
    let text = &BIG.text;
    bencher.bench(|| DocumentAnalysis::new("big.json", text));
}

/// What `loopconv check` does with the same text (load and validate): the budget of an
/// edit, which `analyse` must not exceed by more than the index and the line table.
#[divan::bench(sample_count = 50, max_time = 2.0)]
fn check_from_scratch(bencher: Bencher) {
    let text = &BIG.text;
    bencher.bench(|| {
        loopconv::load(
            "big.json",
            text.as_bytes(),
            &loopconv::LoadOptions::default(),
        )
    });
}

/// The diagnostics, converted to LSP's.
#[divan::bench(sample_count = 50, max_time = 2.0)]
fn diagnostics(bencher: Bencher) {
    bencher.bench(|| BIG.analysis.diagnostics(&BIG.uri));
}

#[divan::bench(sample_count = 50, max_time = 2.0)]
fn definition(bencher: Bencher) {
    let a = &BIG.analysis;
    let t = a.text();
    bencher.bench(|| features::definition(&t, &a.index, BIG.at));
}

#[divan::bench(sample_count = 50, max_time = 2.0)]
fn completion(bencher: Bencher) {
    let a = &BIG.analysis;
    let t = a.text();
    bencher.bench(|| features::completion(&t, &a.index, BIG.at));
}

#[divan::bench(sample_count = 50, max_time = 2.0)]
fn hover(bencher: Bencher) {
    let a = &BIG.analysis;
    let t = a.text();
    bencher.bench(|| features::hover(&t, &a.index, a.loaded.info.as_ref(), BIG.at));
}

#[divan::bench(sample_count = 50, max_time = 2.0)]
fn rename(bencher: Bencher) {
    let a = &BIG.analysis;
    let t = a.text();
    bencher.bench(|| features::rename(&t, &a.index, &BIG.uri, BIG.at, "renamed"));
}

#[divan::bench(sample_count = 50, max_time = 2.0)]
fn symbols(bencher: Bencher) {
    let a = &BIG.analysis;
    let t = a.text();
    bencher.bench(|| features::symbols(&t, &a.index));
}
