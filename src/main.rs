//! The `loopconv` binary: parse arguments, run, print the error chain, exit.

mod cli;

use std::process::ExitCode;

use clap::Parser as _;

/// mimalloc instead of the system allocator: reading a large loop makes many small
/// allocations, and glibc's malloc spent a third of the time of `check` on a
/// 10,000-phase loop consolidating and freeing them (measured with perf). Built without
/// transparent huge pages (`no_thp`): with them a process's resident memory grows in 2 MiB
/// steps, and a 10,000-phase loop peaked at 12x its size instead of 9x (the price is more,
/// smaller page faults: about 20 ms of system time on that loop).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Hand memory freed so far back to the system now, not after mimalloc's purge delay:
/// `graph` frees the tree of a large loop before drawing it, and with the delay both were
/// resident at the peak (10,000 phases: 79 MB -> 71 MB).
pub(crate) fn return_freed_memory() {
    // SAFETY: a plain call into the allocator's API; it touches no Rust memory.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

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
