//! `loopconv lsp`: a Language Server for loop files, over any [`lsp_server::Connection`]
//! (the binary uses standard input and output).
//!
//! One thread, no async runtime: [`serve`] reads messages with a timeout so that the
//! diagnostics of an edited document are published once the edits pause ([`DEBOUNCE`]).
//! Each document is analysed with the library's read pipeline ([`crate::pipeline::load`]) and indexed
//! ([`index`]); every feature is a pure function of that analysis ([`features`],
//! [`diagnostics`]). The client sends changes of ranges, which [`text::Source`] applies;
//! [`transport`] reads each message once from its bytes. A request handler that panics answers with an error instead of
//! ending the server.

mod across;
pub mod complete;
pub mod diagnostics;
mod documents;
pub mod features;
pub mod fixes;
pub mod index;
pub mod index_xstate;
mod links;
mod requests;
mod server;
pub mod text;
pub mod transport;
pub mod workspace;

pub use documents::DocumentAnalysis;
pub use server::{DEBOUNCE, Ended, SessionError, capabilities, serve};
