//! The `loopconv-mcp` binary: the Model Context Protocol server (`src/mcp/`), which
//! `loopconv mcp` runs (`cli::launch`). An executable of its own, so that `loopconv` links
//! none of the server's crates (rmcp, tokio) and pays nothing for them at start-up.
//!
//! The tools run the helpers of the command modules (`cli`), which this binary compiles
//! with the rest of the command line: the commands it does not serve are dead code here,
//! and the linker drops them.

#[allow(
    dead_code,
    reason = "the commands loopconv-mcp does not serve: it uses the modules its tools share"
)]
mod cli;
mod mcp;

use std::process::ExitCode;

use clap::Parser;

/// Serve the loop tools to coding agents: a Model Context Protocol server on standard
/// input and output (check, graph, convert, paths, walk, diff, schema, new, explain).
/// `loopconv mcp` runs it.
#[derive(Debug, Parser)]
#[command(name = "loopconv-mcp", version, long_about = None)]
struct Server {
    #[command(flatten)]
    args: cli::McpArgs,
}

fn main() -> ExitCode {
    let server = Server::parse();
    match mcp::run(&server.args) {
        Ok(code) => code,
        Err(err) => {
            // The message may quote user input: shown without the characters a terminal
            // must not be sent (loopconv::text).
            let message = format!("{err:#}");
            eprintln!("error: {}", loopconv::text::terminal(&message, true));
            ExitCode::from(cli::EXIT_USAGE)
        }
    }
}
