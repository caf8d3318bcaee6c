//! loopconv: read, validate, convert and draw declarative agent-loop specifications.
//!
//! Data flows one way (naga / pandoc style), and no module imports a module that imports
//! it back (a test checks the module graph):
//!
//! ```text
//!  bytes ─ tree (P) ─ front::X (shape F, lowering) ─▶ ir::Spec ─ valid (V) ─▶ valid::Info
//!                                                        │                        │
//!                           back::render(Target) (B) ◀───┴────────────────────────┘
//! ```
//!
//! * [`format`](mod@format) holds the tags: [`Format`] (the loop formats) and [`Target`] (every
//!   output: `Target::Loop(Format)` or a view), with the facts that need only the tag;
//! * [`tree`] parses JSON and YAML into a located tree (every key and value has a position);
//! * [`model`]: the serde types of each format, and the JSON Schemas generated from them;
//! * [`front`]: each format's whole read path: the shape check against its model's schema
//!   ([`front::shape`]), its warnings, and the lowering into the [`ir`], recording where
//!   every value came from ([`ir::Provenance`]); it never judges the loop's meaning;
//! * [`valid`] checks references and the graph and returns [`valid::Info`];
//! * [`analysis`]: paths, walks, outcome schemas and the semantic diff, on a valid loop;
//! * [`back`]: one writer per [`Target`] ([`back::render`]), the diff renderers
//!   ([`back::diff`]) and what the diagram writers share ([`back::support`]);
//! * [`pipeline`], on top, dispatches on the tags: [`load`] reads a file through the
//!   stages, [`write`](fn@write) runs a back end and reads a loop-format output back (`B004`);
//! * [`lsp`] and [`scaffold`] use the pipeline; [`diag`] and [`pointer`](mod@pointer) are used by all;
//! * [`text`], a leaf, is used by every output meant for a person (diagrams, Markdown pages, diff
//!   comments, terminal diagnostics, SARIF and GitHub messages, language-server text): one
//!   definition of the characters a reader must not be shown, and the escapers they share.
//!
//! [`load`] never panics, whatever the bytes, and returns every problem as a located
//! [`diag::Diagnostic`] with a stable code. The library never prints or exits.
//!
//! # Example
//!
//! Read a loop, validate it, and draw it as Mermaid:
//!
//! ```
//! use loopconv::{Format, LoadOptions, Target, back, diag::Diagnostics};
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
//! // The analysis names phases by their index in the loop's graph.
//! let reachable: Vec<&str> = spec.graph.phase_ids(&info.reachable_phases).collect();
//! assert_eq!(reachable, ["validate", "eval", "act"]);
//!
//! let mut diags = Diagnostics::new("release-gate.yaml");
//! let mermaid = loopconv::write(Target::Mermaid, spec, info, &back::Options::default(), &mut diags)?;
//! assert!(mermaid.contains("flowchart TD"));
//!
//! // Converting to AgentPM loses the agent names: an error unless lossy output is allowed.
//! let opts = back::Options { allow_lossy: true, ..back::Options::default() };
//! let manifest = loopconv::write(Target::Loop(Format::Agentpm), spec, info, &opts, &mut diags)?;
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
pub mod ir;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod model;
pub mod pipeline;
pub mod pointer;
pub mod project;
pub mod scaffold;
pub mod text;
pub mod tree;
pub mod valid;

pub use format::{Format, Target};
pub use front::TreeUse;
pub use pipeline::{LoadOptions, Loaded, load, load_owned, write};
