//! Arbitrary bytes read as a `.yaml` file with the format detected from the content: the
//! decoder, serde-saphyr with loopconv's budgets, the located YAML tree, detection, the
//! shape check, the front ends and validation.
//!
//! The body is `testkit/src/bodies/yaml_front.rs`, shared with the stable test that runs it over the
//! examples as seeds (`tests/suite/fuzz.rs`), so that CI builds and runs it without nightly.
#![no_main]

use loopconv_testkit::bodies::yaml_front as body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
