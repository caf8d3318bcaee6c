//! `X -> IR -> X` is exact: arbitrary bytes read with every `--from` (as `.json` and as
//! `.yaml`, like `check`); every input that loads with no error is written back in its own
//! format without `--allow-lossy`, and
//!
//! 1. the writer reports no error, and its text reads back as the same format with no error
//!    and the same loop (`ir::Spec` equality; provenance never compares);
//! 2. for AgentPM and MAS, the document read back has the same value as the input (keys in
//!    any order): what the front end drops while reading never reaches the `Spec`, so only
//!    this catches it (`tests/roundtrip.rs` asserts the same on the examples);
//! 3. the loop written as IR reads back with no error and is the same loop, and that loop
//!    written in the original format gives the same text as writing it directly.
//!
//! The comparisons normalise only what the writers document as always written (see
//! [`normalise`] and [`normalise_value`]); any other difference is a loss and panics with
//! both values.
//!
//! The body is `testkit/src/bodies/roundtrip.rs`, shared with the stable test that runs it over the
//! examples as seeds (`tests/suite/fuzz.rs`), so that CI builds and runs it without nightly.
#![no_main]

use loopconv_testkit::bodies::roundtrip as body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
