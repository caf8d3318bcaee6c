//! Latency of the language server's work on one edit of a large loop: the file named by
//! `LOOPCONV_BENCH_FILE` (e.g. a workload of `cargo run --release --example gen-workload`),
//! else a generated AgentPM manifest with `LOOPCONV_BENCH_PHASES` phases (default 400),
//! each with two outcomes. Run with `cargo bench --bench lsp` (divan; the same filters and
//! `DIVAN_*` settings as `benches/throughput.rs`).
//!
//! The budget of an edit is `check_from_scratch`: an edit costs `apply_change` (the
//! client's change patched into the text) then `analyse` then `diagnostics`, and
//! completion while typing costs `completion` alone (no analysis). Issue 19's targets:
//! an edit at most 1.5x `check`, completion at most 0.5x.

use std::sync::LazyLock;

use divan::Bencher;
use loopconv::lsp::DocumentAnalysis;
use loopconv::lsp::features;
use loopconv::lsp::index::Index;
use loopconv::lsp::text::Source;
use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

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

/// The text benchmarked: `LOOPCONV_BENCH_FILE`, else the generated manifest.
fn text() -> String {
    if let Ok(path) = std::env::var("LOOPCONV_BENCH_FILE") {
        return std::fs::read_to_string(&path).expect("LOOPCONV_BENCH_FILE is readable text");
    }
    let n = std::env::var("LOOPCONV_BENCH_PHASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    manifest(n)
}

static BIG: LazyLock<Big> = LazyLock::new(|| {
    let text = text();
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

/// Load, validate and index the document: what every edit costs the server, which hands
/// the edited text and its line index over (`Source`, patched by `apply_change`) rather
/// than copying the text and indexing its lines again, so neither is timed here.
#[divan::bench(sample_count = 50, max_time = 2.0)]
fn analyse(bencher: Bencher) {
    bencher
        .with_inputs(|| Source::new(BIG.text.clone()))
        .bench_values(|source| DocumentAnalysis::of("big.json", source));
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

/// The index alone (part of `analyse`): what the document declares and references.
#[divan::bench(sample_count = 50, max_time = 2.0)]
fn index(bencher: Bencher) {
    let doc = BIG.analysis.loaded.doc.as_ref().expect("the loop parses");
    // An AgentPM loop: its phases are listed, not under an IR graph.
    bencher.bench(|| Index::build(doc, None));
}

/// One keystroke of incremental synchronisation: a character inserted into the text (the
/// text and its line index patched), then removed again.
#[divan::bench(sample_count = 50, max_time = 2.0)]
fn apply_change(bencher: Bencher) {
    let mut source = Source::new(BIG.text.clone());
    // Near the start of the text: the most of it moves.
    let first = BIG.text.find("\"id\": \"").map_or(0, |i| i + 7);
    let at = source.lines.position(&source.text, first);
    let change = |end: Position, text: &str| TextDocumentContentChangeEvent {
        range: Some(Range::new(at, end)),
        range_length: None,
        text: text.to_owned(),
    };
    let after = Position::new(at.line, at.character + 1);
    bencher.bench_local(|| {
        source.apply(change(at, "x"));
        source.apply(change(after, ""));
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
    bencher.bench(|| {
        features::hover(
            &t,
            &a.index,
            a.loaded.doc.as_ref(),
            a.loaded.spec.as_ref().zip(a.loaded.info.as_ref()),
            BIG.at,
        )
    });
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
