//! loopconv: read, validate, convert and draw declarative agent-loop specifications.
//!
//! Data flows one way (naga / pandoc style):
//!
//! ```text
//!  bytes ─ tree (P) ─ Format::read = front::X (shape F, lowering) ─▶ ir::Spec
//!                                                                     │
//!                                   valid::validate (V) ─▶ valid::Info
//!                                                                     │
//!          back::write(Target::{Ir, Agentpm, Mas, Mermaid, Dot, ...}) ◀┘ (B)
//! ```
//!
//! * [`tree`] parses JSON and YAML into a located tree (every key and value has a position);
//! * [`format::Format`] is the format registry: name, detection, model schema, reader,
//!   writer and folder layout of each format;
//! * [`front`]: each format's whole read path: the shape check against its [`model`]'s
//!   schema ([`valid::shape`]), its warnings, and the lowering into the [`ir`], recording
//!   where every value came from ([`ir::Provenance`]); it never judges the loop's meaning;
//! * [`valid`] checks references and the graph and returns [`valid::Info`];
//! * [`back`] writes each output ([`back::Target`]) from the IR and `Info`, through one
//!   [`back::write`]; loop-format outputs are read back and validated before they are
//!   handed out.
//!
//! Every output meant for a person (diagrams, Markdown pages, diff comments, terminal
//! diagnostics, SARIF and GitHub messages, language-server text) goes through [`text`]: one
//! definition of the characters a reader must not be shown, and the escapers they share.
//!
//! [`load`] runs the read pipeline; it never panics, whatever the bytes, and returns every
//! problem as a located [`diag::Diagnostic`] with a stable code. The library never prints
//! or exits.
//!
//! # Example
//!
//! Read a loop, validate it, and draw it as Mermaid:
//!
//! ```
//! use loopconv::{LoadOptions, Target, back, diag::Diagnostics};
//!
//! let yaml = r#"
//! name: release-gate
//! type: VEAL
//! actor: fixer
//! validator: auditor
//! checks:
//!   - id: tests
//!     type: command
//!     command: cargo test
//! "#;
//! let loaded = loopconv::load("release-gate.yaml", yaml.as_bytes(), &LoadOptions::default());
//! assert_eq!(loaded.format, Some(loopconv::Format::Mas));
//! let Some((spec, info)) = loaded.valid() else {
//!     panic!("invalid loop: {:?}", loaded.diags.items());
//! };
//! assert_eq!(info.reachable_phases, ["validate", "eval", "act"]);
//!
//! let mut diags = Diagnostics::new("release-gate.yaml");
//! let mermaid = back::write(Target::Mermaid, spec, info, &back::Options::default(), &mut diags)?;
//! assert!(mermaid.contains("flowchart TD"));
//!
//! // Converting to AgentPM loses the agent names: an error unless lossy output is allowed.
//! let opts = back::Options { allow_lossy: true, ..back::Options::default() };
//! let manifest = back::write(Target::Agentpm, spec, info, &opts, &mut diags)?;
//! assert!(manifest.contains("\"entry_phase\": \"validate\""));
//! assert!(!diags.has_errors());
//! # Ok::<(), loopconv::back::Error>(())
//! ```
#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

pub mod analysis;
pub mod back;
pub mod diag;
pub mod format;
pub mod front;
pub mod interop;
pub mod ir;
pub mod load;
pub mod lsp;
pub mod model;
pub mod scaffold;
pub mod text;
pub mod tree;
pub mod valid;

pub use back::{Target, write};
pub use format::Format;
pub use load::{LoadOptions, Loaded, load, load_owned};
