//! Write the benchmark workloads to a folder (used by `scripts/bench.sh`; not a user-facing
//! command): `cargo run --release --example gen-workload -- DIR`.
//!
//! DIR/corpus/ (10,000 mixed AgentPM and MAS files), DIR/corpus-broken/ (the same kind, 10 %
//! with errors), DIR/loop-1000.json, DIR/loop-10000.json, DIR/loop-100000.json.

#[path = "mod.rs"]
mod workload;

use std::path::Path;

fn write(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}

fn main() -> std::io::Result<()> {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: gen-workload DIR");
        std::process::exit(2);
    };
    let dir = Path::new(&dir);
    for (sub, broken, seed) in [("corpus", false, 1), ("corpus-broken", true, 2)] {
        for (name, text) in workload::corpus(10_000, broken, seed) {
            write(&dir.join(sub).join(name), &text)?;
        }
    }
    for n in [1_000, 10_000, 100_000] {
        let text = workload::agentpm_loop(&format!("loop-{n}"), n, 42);
        write(&dir.join(format!("loop-{n}.json")), &text)?;
    }
    Ok(())
}
