//! loopconv's shared test kit (`publish = false`, a dev-dependency only): the code that
//! the integration tests, the benches and the fuzz targets share, as one crate instead of
//! files included with `#[path]`.
//!
//! * [`support`] (feature `support`): where the inputs are, how to search a folder and read a
//!   file, the back ends' option variants, the skips, the proptest generators. The suite
//!   uses it as `crate::support` (`tests/suite/support/mod.rs` re-exports it and adds
//!   what needs the suite's binary: `loopconv()`), the throughput bench as `common`.
//! * [`variants`] (with either): every back end in every variant of its options, one list
//!   with no command-line crate, which `support` and `bodies` share.
//! * [`workload`] (feature `workload`): the deterministic workloads of the benches,
//!   `gen-workload` (`benches/workload/gen.rs`) and the determinism test.
//! * [`bodies`] (feature `bodies`): the fuzz targets' bodies, one input each, a panic on a
//!   bug; `fuzz/fuzz_targets/` hands them to libFuzzer, `tests/suite/fuzz.rs` runs them on
//!   stable over seeds and their mutations.

#[cfg(feature = "bodies")]
pub mod bodies;
#[cfg(feature = "support")]
pub mod support;
#[cfg(any(feature = "support", feature = "bodies"))]
pub mod variants;
#[cfg(feature = "workload")]
pub mod workload;
