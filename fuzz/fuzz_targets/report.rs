//! The SARIF and GitHub renderings of a file's diagnostics, then `paths`, `walk` and
//! `diff` of a valid loop, on arbitrary bytes.
//!
//! The body is `testkit/src/bodies/report.rs`, shared with the stable test that runs it over the
//! examples as seeds (`tests/suite/fuzz.rs`).
#![no_main]

use loopconv_testkit::bodies::report as body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
