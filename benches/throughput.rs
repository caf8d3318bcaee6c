//! Throughput of the read pipeline and each back end, measured on the bundled examples and
//! the conformance corpus. Run with `cargo bench`; it prints one line per stage.
//!
//! A plain timing loop (no harness): each stage runs on every input for at least
//! `LOOPCONV_BENCH_MS` milliseconds (default 300) and reports the mean time per file. The
//! back ends are every variant of `Target::ALL` (`tests/common`), so a new back end is
//! measured too.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use loopconv::diag::Diagnostics;
use loopconv::{LoadOptions, load};

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
    // Every loop file of the examples and the corpus, except the invalid ones on purpose.
    let inputs: Vec<(String, Vec<u8>)> = common::all_inputs()
        .iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "invalid"))
        .filter_map(|p| Some((common::rel(p), std::fs::read(p).ok()?)))
        .collect();
    let ms = std::env::var("LOOPCONV_BENCH_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let budget = Duration::from_millis(ms);
    let opts = LoadOptions::default();
    let loaded: Vec<_> = inputs
        .iter()
        .map(|(n, b)| load(n, b, &opts))
        .filter(|l| l.valid().is_some())
        .collect();
    let valid: Vec<_> = loaded.iter().filter_map(|l| l.valid()).collect();
    println!("{} inputs, {} valid", inputs.len(), valid.len());
    let total: usize = inputs.iter().map(|(_, b)| b.len()).sum();
    let valid_bytes: usize = loaded.iter().filter_map(|l| l.text().map(str::len)).sum();
    println!("{total} bytes in all, {valid_bytes} in valid loops");
    measure("load + validate", budget, inputs.len(), total, || {
        for (n, b) in &inputs {
            black_box(load(n, b, &opts));
        }
    });
    let base = loopconv::back::Options {
        source: "x".into(),
        ..common::lossy_options()
    };
    for (target, label, opts) in common::variants(&base) {
        let name = if target.format().is_some() {
            format!("write {label} (+ re-validate)")
        } else {
            format!("write {label}")
        };
        measure(&name, budget, valid.len(), valid_bytes, || {
            for (spec, info) in &valid {
                let mut d = Diagnostics::new("bench");
                black_box(loopconv::back::write(target, spec, info, &opts, &mut d).ok());
            }
        });
    }
}
