//! The fuzz targets' bodies, without libFuzzer: each `run` takes one input and panics on a
//! bug. `fuzz_targets/*.rs` wrap them for cargo-fuzz (nightly); `tests/suite/fuzz.rs`
//! includes this module on stable and runs every body over seeds and their mutations.

pub mod check;
pub mod graph;
pub mod json_front;
pub mod lsp;
pub mod report;
pub mod roundtrip;
pub mod workspace;
pub mod yaml_front;

/// A target's body: one input, a panic on a bug.
pub type Body = fn(&[u8]);

/// Every target, by its cargo-fuzz name.
pub const ALL: &[(&str, Body)] = &[
    ("json_front", json_front::run),
    ("yaml_front", yaml_front::run),
    ("check", check::run),
    ("graph", graph::run),
    ("roundtrip", roundtrip::run),
    ("report", report::run),
    ("lsp", lsp::run),
    ("workspace", workspace::run),
];
