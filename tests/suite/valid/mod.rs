//! Validation and its diagnostics: every invalid example, the upstream validators'
//! judgements, and the documentation of each code (`explain`).

mod checkpoints;
mod conformance;
mod diagnostics;
mod explain;
pub(crate) mod messages;
mod one_cause;
mod pages;
mod suggestions;
