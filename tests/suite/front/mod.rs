//! Reading bytes into a loop: input limits and encodings, the regression inputs, and
//! mutated files that must be diagnosed with a location.

mod duplicate_keys;
mod generated;
mod limits;
mod mutations;
mod regressions;
mod released_tree;
mod xstate_wild;
