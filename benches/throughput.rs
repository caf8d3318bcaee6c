//! Throughput of the read pipeline and each back end, measured on the bundled examples and
//! the conformance corpus. Run with `cargo bench`; it prints one line per stage.
//!
//! A plain timing loop (no harness): each stage runs on every input for at least
//! `LOOPCONV_BENCH_MS` milliseconds (default 300) and reports the mean time per file.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use loopconv::back::{self, ConvertOptions};
use loopconv::format::{self, Format, LoadOptions};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "invalid") {
                files(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "json" || e == "yaml") {
            out.push(p);
        }
    }
}

fn measure(name: &str, budget: Duration, inputs: usize, bytes: usize, mut f: impl FnMut()) {
    let start = Instant::now();
    let mut rounds = 0u32;
    while start.elapsed() < budget || rounds == 0 {
        f();
        rounds += 1;
    }
    let per_file = start.elapsed() / (rounds * u32::try_from(inputs.max(1)).unwrap_or(1));
    let mb_s = (bytes as f64 * f64::from(rounds)) / start.elapsed().as_secs_f64() / 1e6;
    println!(
        "{name:<30} {:>9.1} µs/file {mb_s:>8.1} MB/s of input  ({rounds} rounds over {inputs} files)",
        per_file.as_secs_f64() * 1e6
    );
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&root.join("examples"), &mut paths);
    files(&root.join("../shared/corpus"), &mut paths);
    let inputs: Vec<(String, Vec<u8>)> = paths
        .iter()
        .filter_map(|p| Some((p.display().to_string(), std::fs::read(p).ok()?)))
        .collect();
    let ms = std::env::var("LOOPCONV_BENCH_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let budget = Duration::from_millis(ms);
    let opts = LoadOptions::default();
    let loaded: Vec<_> = inputs
        .iter()
        .map(|(n, b)| format::load(n, b, &opts))
        .filter(|l| l.valid().is_some())
        .collect();
    let valid: Vec<_> = loaded.iter().filter_map(|l| l.valid()).collect();
    println!("{} inputs, {} valid", inputs.len(), valid.len());
    let total: usize = inputs.iter().map(|(_, b)| b.len()).sum();
    let valid_bytes: usize = loaded
        .iter()
        .filter(|l| l.valid().is_some())
        .filter_map(|l| l.text.as_ref().map(String::len))
        .sum();
    println!("{total} bytes in all, {valid_bytes} in valid loops");
    measure("load + validate", budget, inputs.len(), total, || {
        for (n, b) in &inputs {
            black_box(format::load(n, b, &opts));
        }
    });
    let conv = ConvertOptions {
        allow_lossy: true,
        actor: Some("a".into()),
        validator: Some("v".into()),
        ..Default::default()
    };
    for to in Format::ALL {
        measure(
            &format!("write {} (+ re-validate)", to.name()),
            budget,
            valid.len(),
            valid_bytes,
            || {
                for (spec, info) in &valid {
                    let mut d = loopconv::diag::Diagnostics::new("bench");
                    black_box(format::write(spec, info, to, &conv, &mut d).ok());
                }
            },
        );
    }
    measure(
        "mermaid flowchart",
        budget,
        valid.len(),
        valid_bytes,
        || {
            for (spec, info) in &valid {
                black_box(back::mermaid::write(spec, info, &Default::default()));
            }
        },
    );
    measure("dot", budget, valid.len(), valid_bytes, || {
        for (spec, info) in &valid {
            black_box(back::dot::write(spec, info, &Default::default()));
        }
    });
    measure("markdown", budget, valid.len(), valid_bytes, || {
        for (spec, info) in &valid {
            black_box(back::markdown::write(spec, info, "x", &Default::default()).ok());
        }
    });
}
