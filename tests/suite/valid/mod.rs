//! Validation and its diagnostics: every invalid example, the upstream validators'
//! judgements, and the documentation of each code (`explain`).

mod conformance;
mod diagnostics;
mod explain;
mod messages;
mod one_cause;
mod suggestions;
