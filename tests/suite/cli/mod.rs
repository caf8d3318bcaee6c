//! The `loopconv` binary: exit codes and commands, consistent streams and messages, `new`,
//! code-scanning reports, shell completions and the man page, the commands of the README and the guide, CI's
//! helpers, interrupted conversions and the pre-commit hooks.

mod ci;
mod code_scanning;
mod commands;
mod consistency;
pub(crate) mod daily;
mod docs_pages;
mod front_door;
mod hostile;
mod interrupt;
#[cfg(feature = "mcp")]
mod mcp;
pub(crate) mod new;
mod packaging;
mod precommit;
mod readme_commands;
mod shell;
mod workspaces;
