//! The language server: the protocol over JSON-RPC, and a real client (headless Neovim).

mod nvim;
pub(crate) mod protocol;
mod workspace;
