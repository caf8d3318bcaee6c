//! The `loopconv` binary: parse arguments, run, print the error chain, exit.

mod cli;

use std::process::ExitCode;

use clap::Parser as _;

/// mimalloc instead of the system allocator: reading a large loop makes many small
/// allocations, and glibc's malloc spent a third of the time of `check` on a
/// 10,000-phase loop consolidating and freeing them (measured with perf). With transparent
/// huge pages where the system allows them (`madvise` or `always`): one 2 MiB page fault
/// instead of 512 small ones took a quarter off the time of reading a large loop, whose
/// small page faults were 25 ms of system time. [`configure_allocator`] keeps the
/// resident memory that costs in check.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay`, by its position in `mi_option_t` (`mimalloc.h`):
/// libmimalloc-sys exports no constant for it, so it is pinned in Cargo.toml and a test
/// checks the option's default. How many milliseconds freed memory waits before it is
/// returned to the system, 1,000 by default.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Whether the user set the purge delay (mimalloc reads either name, in any case).
fn purge_delay_is_set() -> bool {
    std::env::vars_os().any(|(k, _)| {
        k.to_str().is_some_and(|k| {
            k.eq_ignore_ascii_case("MIMALLOC_PURGE_DELAY")
                || k.eq_ignore_ascii_case("MIMALLOC_RESET_DELAY")
        })
    })
}

/// mimalloc's own purge delay, kept for [`memory_for_input`] when it was changed.
static DEFAULT_PURGE_DELAY: std::sync::OnceLock<std::ffi::c_long> = std::sync::OnceLock::new();

/// Return freed memory to the system at once instead of after mimalloc's delay: with huge
/// pages, memory freed by one stage of reading a large loop was otherwise still resident
/// when the next stage allocated (a 10,000-phase loop peaked at 10.3x its size; at once,
/// 8.6x). A delay the user set (`MIMALLOC_PURGE_DELAY`) is left as it is.
fn configure_allocator() {
    if purge_delay_is_set() {
        return;
    }
    // SAFETY: plain calls into the allocator's API, made on the main thread before any
    // other thread starts; they touch no Rust memory.
    unsafe {
        let _ = DEFAULT_PURGE_DELAY.set(libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY));
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
    }
}

/// Inputs from this size on are read with mimalloc's own purge delay.
const LARGE_INPUT: usize = 32 << 20;

/// Freed memory is kept for reuse (an input of [`LARGE_INPUT`] or more is being read).
static REUSE_FREED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Choose how freed memory is returned for an input of `len` bytes, before reading it.
/// From [`LARGE_INPUT`] on, the fixed cost of a process (about 12 MB resident) and the
/// slack of huge pages are small beside the input (a 100,000-phase loop peaks at 7x its
/// size either way), while returning and faulting in again every freed page made reading
/// it a tenth slower: mimalloc's delay is restored, so freed memory is reused. Only on the
/// main thread, which reads a command's one input before any other thread starts (the
/// reader threads of `check`, which read many inputs, keep the setting as it is).
pub(crate) fn memory_for_input(len: usize) {
    if len < LARGE_INPUT || std::thread::current().name() != Some("main") {
        return;
    }
    reuse_freed_memory();
}

/// Keep freed memory for reuse while a folder is read: its files are small and many, and
/// returning what each one freed at once was one `madvise` call per few files (40,000 for
/// the docs of a 10,000-file corpus: 1.4 of its 3.7 s of system time), while the memory
/// freed by one file is what the next one needs. Called before the reader threads start.
pub(crate) fn memory_for_folder() {
    reuse_freed_memory();
}

/// Keep freed memory for reuse in the language server, with mimalloc's own delay: the
/// server analyses the whole document again on every edit, and returning what the last
/// analysis freed at once made each edit fault in its working set anew (on a 10,000-phase
/// loop, most of an edit's time was the kernel clearing pages). Called before the server
/// starts its threads.
pub(crate) fn memory_for_server() {
    reuse_freed_memory();
}

/// Restore mimalloc's own purge delay (once; nothing when [`configure_allocator`] left it
/// as the user set it), so that freed memory is reused. Called from the main thread.
fn reuse_freed_memory() {
    let Some(&default) = DEFAULT_PURGE_DELAY.get() else {
        return;
    };
    if REUSE_FREED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    // SAFETY: a plain call into the allocator's API, from the main thread, once; it
    // touches no Rust memory.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, default) }
}

/// Hand memory freed so far back to the system now: `graph` frees the tree of a loop
/// before drawing it, so that the two are never resident together. Not for an input of
/// [`LARGE_INPUT`] or more, whose freed tree the drawing reuses instead (a 100,000-phase
/// loop drew in 520 ms instead of 610, at 6.9x its size instead of 6.5x).
pub(crate) fn return_freed_memory() {
    if REUSE_FREED.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    // SAFETY: a plain call into the allocator's API; it touches no Rust memory.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

fn main() -> ExitCode {
    configure_allocator();
    let args = cli::Cli::parse();
    match cli::run(args) {
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
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The option at [`MI_OPTION_PURGE_DELAY`] has the purge delay's default (mimalloc's
    /// 1,000 ms), so the index names it (its neighbours default to 1 and 0).
    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        if purge_delay_is_set() {
            return;
        }
        // SAFETY: a plain call into the allocator's API.
        let delay = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
        assert_eq!(delay, 1000);
    }
}
