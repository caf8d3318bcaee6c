//! The language server's analysis and features through a sequence of edits.
//!
//! The body is `testkit/src/bodies/lsp.rs`, shared with the stable test that runs it over the
//! examples as seeds (`tests/suite/fuzz.rs`).
#![no_main]

use loopconv_testkit::bodies::lsp as body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
