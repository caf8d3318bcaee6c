//! The `loopconv` binary: parse arguments, run, print the error chain, exit.

mod cli;

use std::process::ExitCode;

use anyhow::Context as _;

fn main() -> ExitCode {
    let args = cli::Cli::from_env();
    // Standard output is flushed here, so that a failure to write its last bytes (a full
    // disk behind a redirection) is reported like any other error: the runtime's own exit
    // ignores it.
    let flushed = |code| {
        use std::io::Write as _;
        std::io::stdout()
            .flush()
            .context("writing standard output")
            .map(|()| code)
    };
    let code = match cli::run(args).and_then(flushed) {
        Ok(code) => code,
        // The reader of standard output went away (`loopconv paths big.json | head`): what
        // it read is what it wanted, as for any tool in a pipeline.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // The message quotes user input (a path, a code, a value): shown without the
            // characters a terminal must not be sent (loopconv::text).
            let message = format!("{err:#}");
            eprintln!("error: {}", loopconv::text::terminal(&message, true));
            ExitCode::from(cli::EXIT_USAGE)
        }
    };
    exit_at_once(code)
}

/// End the process with `code` (standard output flushed), without the allocator's
/// clean-up at exit: linked statically, mimalloc returns every freed page to the system
/// from its exit handler (`mi_collect(true)`), one `madvise` per segment (667 calls after
/// drawing a 100,000-phase loop, 12 after a small file) for memory the kernel takes back
/// anyway as the process ends. Every command has finished its work and dropped what it
/// owns (temporary files, staged folders, threads' results) when [`cli::run`] returns, so
/// no other exit handler has anything to do.
#[cfg(unix)]
fn exit_at_once(code: ExitCode) -> ExitCode {
    let status = (0..=u8::MAX).find(|&k| ExitCode::from(k) == code);
    // SAFETY: `_exit` ends the process; nothing of Rust's is used after it.
    unsafe { libc::_exit(status.map_or(1, i32::from)) }
}

/// Elsewhere the runtime's own exit.
#[cfg(not(unix))]
fn exit_at_once(code: ExitCode) -> ExitCode {
    code
}

/// Whether an error comes from writing to a closed pipe.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    use std::io::ErrorKind::BrokenPipe;
    err.chain().any(|e| {
        let io = e.downcast_ref::<std::io::Error>().map(std::io::Error::kind);
        let json = e
            .downcast_ref::<serde_json::Error>()
            .and_then(serde_json::Error::io_error_kind);
        io.or(json) == Some(BrokenPipe)
    })
}
