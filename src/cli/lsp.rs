//! `loopconv lsp`: the language server on standard input and output.

use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::Args;

#[derive(Debug, Args)]
pub(super) struct LspArgs {
    /// Accepted for editor clients that pass it; standard input and output are the only
    /// transport.
    #[arg(long)]
    stdio: bool,
}

pub(super) fn run(_a: &LspArgs) -> Result<ExitCode> {
    crate::cli::memory::memory_for_server();
    let (conn, threads) = loopconv::lsp::transport::stdio();
    let ended = loopconv::lsp::serve(&conn).context("language server protocol error")?;
    drop(conn);
    threads.join().context("language server I/O")?;
    // The protocol: exit code 1 for an `exit` that no `shutdown` came before.
    Ok(match ended {
        loopconv::lsp::Ended::Cleanly => ExitCode::SUCCESS,
        loopconv::lsp::Ended::WithoutShutdown => ExitCode::from(1),
    })
}
