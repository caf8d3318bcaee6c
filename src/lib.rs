//! loopconv: read, validate, convert and draw declarative agent-loop specifications.
//!
//! Architecture (naga / pandoc style):
//!
//! ```text
//!  bytes ─ tree (P codes) ─ valid::shape (F codes) ─ model ─ front ─▶ ir::Spec
//!                                                                     │
//!                                         valid::validate (V codes) ─▶ valid::Info
//!                                                                     │
//!          back::{agentpm, mas, ir, mermaid, dot, markdown, schema} ◀─┘ (B codes)
//! ```
//!
//! * [`tree`] parses JSON and YAML into a located tree (every key and value has a position);
//! * [`valid::shape`] checks the tree against the JSON Schema generated from [`model`];
//! * [`front`] lowers a [`model`] value into the [`ir`]; it never judges validity;
//! * [`valid`] checks references and the graph and returns [`valid::Info`];
//! * [`back`] writes each output from the IR and `Info`.
//!
//! The library never prints or exits; diagnostics are values ([`diag`]).
#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

pub mod back;
pub mod diag;
pub mod format;
pub mod front;
pub mod ir;
pub mod load;
pub mod model;
pub mod tree;
pub mod valid;

pub use back::{Target, write};
pub use format::Format;
pub use load::{LoadOptions, Loaded, load};
