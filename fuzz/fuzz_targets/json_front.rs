//! Arbitrary bytes read as a `.json` file with the format detected from the content: the
//! decoder, the JSON parser (depth limit, duplicates, escapes, numbers), format detection,
//! the shape check, the front ends and validation.
//!
//! The body is `testkit/src/bodies/json_front.rs`, shared with the stable test that runs it over the
//! examples as seeds (`tests/suite/fuzz.rs`), so that CI builds and runs it without nightly.
#![no_main]

use loopconv_testkit::bodies::json_front as body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
