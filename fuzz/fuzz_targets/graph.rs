//! Arbitrary bytes loaded (format detected, both syntaxes); a valid loop goes through every
//! back end of `Target::ALL` in every variant: Mermaid in both styles, DOT with and without
//! a legend, PlantUML, Markdown (and the index), the schemas, and the AgentPM, MAS and IR writers
//! (which read their own output back and validate it).
//!
//! The body is `testkit/src/bodies/graph.rs`, shared with the stable test that runs it over the
//! examples as seeds (`tests/suite/fuzz.rs`), so that CI builds and runs it without nightly.
#![no_main]

use loopconv_testkit::bodies::graph as body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
