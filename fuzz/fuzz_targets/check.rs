//! `loopconv check --from X` on arbitrary bytes: every format forced on every input, with
//! both syntaxes, plus the human and JSON renderings of the diagnostics.
//!
//! The body is `testkit/src/bodies/check.rs`, shared with the stable test that runs it over the
//! examples as seeds (`tests/suite/fuzz.rs`), so that CI builds and runs it without nightly.
#![no_main]

use loopconv_testkit::bodies::check as body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
