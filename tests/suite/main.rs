//! loopconv's integration tests, in one binary laid out like the pipeline: bytes and
//! formats (`front`), validation and diagnostics (`valid`), each back end (`back`), the
//! authoring analyses (`analysis`), the command line (`cli`), the language server (`lsp`)
//! and the hostile-string suite (`markup_safety`, one checker per output syntax). Shared
//! helpers and generators are in `support`.
//!
//! Run a part with a filter: `cargo test --test suite back::schema`,
//! `cargo test --test suite markup_safety::`.

mod analysis;
mod back;
mod cli;
mod front;
mod fuzz;
mod layers;
mod library;
mod lsp;
mod markup_safety;
mod sizes;
mod support;
mod valid;
