//! A workspace of arbitrary documents: the project's rules across them.
//!
//! The body is `testkit/src/bodies/workspace.rs`, shared with the stable test that runs it over the
//! examples as seeds (`tests/suite/fuzz.rs`).
#![no_main]

use loopconv_testkit::bodies::workspace as body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
