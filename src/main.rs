//! The `loopconv` binary: parse arguments, run, print the error chain, exit.

mod cli;

use std::process::ExitCode;

use clap::Parser as _;

/// mimalloc instead of the system allocator: reading a large loop makes many small
/// allocations, and glibc's malloc spent a third of the time of `check` on a
/// 10,000-phase loop consolidating and freeing them (measured with perf).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(cli::EXIT_USAGE)
        }
    }
}
