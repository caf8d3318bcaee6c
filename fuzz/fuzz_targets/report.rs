//! The SARIF and GitHub renderings of a file's diagnostics, then `paths`, `walk` and
//! `diff` of a valid loop, on arbitrary bytes.
//!
//! The body is `fuzz/bodies/report.rs`, shared with the stable test that runs it over the
//! examples as seeds (`tests/suite/fuzz.rs`).
#![no_main]

#[path = "../bodies/report.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
