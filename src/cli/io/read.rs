//! Reading inputs: the reader threads, a file or standard input within the limits, and
//! what an I/O error is told.

use std::io::Read as _;
use std::path::Path;

use anyhow::{Context as _, Result, bail};

use loopconv::tree::ReadLimits;

/// The threads that read files: one per core, each with a stack deep enough to read YAML
/// in place (see [`loopconv::tree::declare_reader_stack`]).
pub(in crate::cli) fn reader_pool() -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("loopconv-read-{i}"))
        .stack_size(loopconv::tree::READER_STACK)
        .start_handler(|_| loopconv::tree::declare_reader_stack())
        .build()
        .context("starting the reader threads")
}

/// The reader threads for the files of folders, with freed memory kept for reuse from
/// file to file ([`crate::cli::memory::memory_for_folder`]).
pub(in crate::cli) fn folder_pool() -> Result<rayon::ThreadPool> {
    crate::cli::memory::memory_for_folder();
    reader_pool()
}

/// `f` of every item, on the reader threads, in the items' order (so output built from
/// the results is the same bytes however the threads ran). A folder of 10,000 loops was
/// read and rendered on one thread, with a thread started per YAML file.
pub(in crate::cli) fn map_on_readers<'a, T: Sync, R: Send>(
    pool: &rayon::ThreadPool,
    items: &'a [T],
    f: impl Fn(&'a T) -> R + Sync + Send,
) -> Vec<R> {
    use rayon::prelude::{IntoParallelRefIterator, ParallelIterator};
    pool.install(|| items.par_iter().map(f).collect())
}

pub(in crate::cli) fn is_stdio(p: &Path) -> bool {
    p.as_os_str() == "-"
}

pub(in crate::cli) fn read_input(path: &Path, limits: &ReadLimits) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    // Read one byte past the limit so that an oversized input is reported, not truncated.
    let cap = u64::try_from(limits.max_bytes)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    if is_stdio(path) {
        std::io::stdin()
            .take(cap)
            .read_to_end(&mut buf)
            .context("reading standard input")?;
        crate::cli::memory::memory_for_input(buf.len());
    } else {
        if path.is_dir() {
            bail!(
                "{}: is a folder; this command reads one loop file",
                path.display()
            );
        }
        refuse_pipe(path)?;
        let f = std::fs::File::open(path).map_err(|e| open_error(path, &e))?;
        // Sized from the file's length: growing the buffer by doubling copied a large
        // loop several times and touched twice its memory.
        let len = f.metadata().map_or(0, |m| m.len()).min(cap);
        // Decided before the buffer is allocated: a large input's buffer is then read
        // into huge pages.
        crate::cli::memory::memory_for_input(usize::try_from(len).unwrap_or(usize::MAX));
        let want = usize::try_from(len).unwrap_or(0).saturating_add(1);
        buf.try_reserve_exact(want).map_err(|_| {
            anyhow::anyhow!(
                "{}: out of memory: could not allocate {want} bytes to read it",
                path.display()
            )
        })?;
        f.take(cap)
            .read_to_end(&mut buf)
            .with_context(|| format!("reading {}", path.display()))?;
    }
    Ok(buf)
}

/// The one message for a file that cannot be opened, whichever command opens it.
pub(in crate::cli) fn open_error(path: &Path, e: &std::io::Error) -> anyhow::Error {
    if is_link_loop(e) {
        return link_loop(path);
    }
    match e.kind() {
        std::io::ErrorKind::NotFound => no_such_path(path),
        std::io::ErrorKind::PermissionDenied => {
            anyhow::anyhow!("{}: permission denied", path.display())
        }
        _ => anyhow::anyhow!("{}: {}", path.display(), plain_io(e)),
    }
}

/// An I/O error's message without the `(os error N)` suffix and without a path the error
/// may carry (the temporary file of an atomic write is not the user's business).
pub(crate) fn plain_io(e: &std::io::Error) -> String {
    let text = match os_error_in(e) {
        Some(code) => {
            let os = std::io::Error::from_raw_os_error(code).to_string();
            os.split(" (os error").next().unwrap_or(&os).to_owned()
        }
        None => std::io::Error::from(e.kind()).to_string(),
    };
    // One style for the OS's words and the standard library's: lowercase, like the rest
    // of the message.
    let mut chars = text.chars();
    chars.next().map_or(text.clone(), |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

/// The OS error code of `e`, or of the error it wraps. A `tempfile` error wraps the OS
/// error with its path, keeps it from `source`, and alone says only "entity not found":
/// its code is then read from its text (`... (os error 2) at path ...`).
fn os_error_in(e: &std::io::Error) -> Option<i32> {
    if let Some(code) = e.raw_os_error() {
        return Some(code);
    }
    let inner = e.get_ref()?;
    if let Some(io) = inner.downcast_ref::<std::io::Error>() {
        return io.raw_os_error();
    }
    let text = inner.to_string();
    let (_, after) = text.split_once("(os error ")?;
    let digits = after.split(')').next()?;
    digits.parse().ok()
}

/// The error for a path that does not exist, whichever command names it: a symbolic link
/// that leads nowhere is told as such (a loop of links, or a link to nothing), not as a
/// missing file.
pub(in crate::cli) fn no_such_path(path: &Path) -> anyhow::Error {
    if let Err(e) = std::fs::symlink_metadata(path)
        && is_link_loop(&e)
    {
        return link_loop(path);
    }
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return match std::fs::metadata(path) {
            Err(e) if is_link_loop(&e) => link_loop(path),
            _ => match std::fs::read_link(path) {
                Ok(to) => anyhow::anyhow!(
                    "{}: a symbolic link to {}, which does not exist",
                    path.display(),
                    to.display()
                ),
                Err(_) => anyhow::anyhow!("{}: a symbolic link to nothing", path.display()),
            },
        };
    }
    anyhow::anyhow!("{}: no such file or folder", path.display())
}

/// The error for a symbolic link that leads back to itself.
fn link_loop(path: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: a loop of symbolic links (the link leads back to itself)",
        path.display()
    )
}

/// A named pipe (or a socket) named as an input: refused before it is opened, since
/// opening a pipe waits for a writer, and reading one blocked forever when none came.
/// Standard input (`-`) is how a pipe is read.
fn refuse_pipe(path: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        let Ok(meta) = std::fs::metadata(path) else {
            return Ok(());
        };
        let t = meta.file_type();
        let what = if t.is_fifo() {
            "a named pipe"
        } else if t.is_socket() {
            "a socket"
        } else {
            return Ok(());
        };
        anyhow::bail!(
            "{}: is {what}, not a file; to read a stream, pass `-` and redirect it to standard input",
            path.display()
        );
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

/// Whether `e` is the system's "too many levels of symbolic links" (a link loop).
fn is_link_loop(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}
