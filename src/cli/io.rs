//! Files and streams: reading inputs, finding loop files in folders, atomic writes.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};

use loopconv::tree::Limits;

use super::WalkArgs;

pub(super) fn is_stdio(p: &Path) -> bool {
    p.as_os_str() == "-"
}

pub(super) fn read_input(path: &Path, limits: &Limits) -> Result<Vec<u8>> {
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
    } else {
        if path.is_dir() {
            bail!(
                "{}: is a folder; this command reads one loop file",
                path.display()
            );
        }
        let f = std::fs::File::open(path).map_err(|e| open_error(path, &e))?;
        // Sized from the file's length: growing the buffer by doubling copied a large
        // loop several times and touched twice its memory.
        let len = f.metadata().map_or(0, |m| m.len()).min(cap);
        buf.reserve_exact(usize::try_from(len).unwrap_or(0).saturating_add(1));
        f.take(cap)
            .read_to_end(&mut buf)
            .with_context(|| format!("reading {}", path.display()))?;
    }
    Ok(buf)
}

/// The one message for a file that cannot be opened, whichever command opens it.
pub(super) fn open_error(path: &Path, e: &std::io::Error) -> anyhow::Error {
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
pub(super) fn plain_io(e: &std::io::Error) -> String {
    let s = std::io::Error::from(e.kind()).to_string();
    match e.raw_os_error() {
        Some(code) => {
            let os = std::io::Error::from_raw_os_error(code).to_string();
            os.split(" (os error").next().unwrap_or(&os).to_owned()
        }
        None => s,
    }
}

/// Files under the given paths: files as given, folders searched for loop files, in sorted
/// order. A folder with no loop file in it is an error: a wrong path must not pass as a
/// clean check of nothing.
pub(super) fn expand(paths: &[PathBuf], w: &WalkArgs) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if is_stdio(p) || !p.is_dir() {
            if !is_stdio(p) && !p.exists() {
                return Err(no_such_path(p));
            }
            out.push(p.clone());
        } else {
            let mut found = Vec::new();
            walk(p, &w.exclude, &mut found)
                .with_context(|| format!("reading folder {}", p.display()))?;
            if found.is_empty() {
                return Err(no_loop_files(p));
            }
            found.sort();
            out.extend(found);
        }
    }
    Ok(out)
}

/// Loop files (`*.json`, `*.yaml`, `*.yml`) below `dir`, the way ripgrep walks: hidden
/// files and folders are skipped, and so is whatever `.gitignore`, `.ignore`, the git
/// excludes and `exclude` globs list (inside a git repository or not). `dir` itself is
/// always searched, even when hidden (`.agentpm/loops`).
pub(super) fn walk(dir: &Path, exclude: &[String], out: &mut Vec<PathBuf>) -> Result<()> {
    let found = std::sync::Mutex::new(Vec::new());
    walk_each(dir, exclude, |p| lock(&found).push(p))?;
    out.extend(found.into_inner().unwrap_or_else(|p| p.into_inner()));
    Ok(())
}

/// [`walk`], handing each loop file to `on_file` as it is found, on the walker's threads
/// and in no particular order. Of several errors, the first in sorted order is reported.
pub(super) fn walk_each(
    dir: &Path,
    exclude: &[String],
    on_file: impl Fn(PathBuf) + Sync,
) -> Result<()> {
    let mut overrides = ignore::overrides::OverrideBuilder::new(dir);
    for glob in exclude {
        overrides
            .add(&format!("!{glob}"))
            .with_context(|| format!("--exclude {glob}: not a valid glob"))?;
    }
    // Walked on every core: a walk checks each folder for ignore files, a dozen system
    // calls a folder, and was a quarter of checking 1,000 installed packages.
    let walker = ignore::WalkBuilder::new(dir)
        .require_git(false)
        .overrides(overrides.build()?)
        .build_parallel();
    let errors = std::sync::Mutex::new(Vec::new());
    walker.run(|| {
        Box::new(|entry| {
            match entry {
                Ok(e) if is_loop_file(&e) => on_file(e.into_path()),
                Ok(_) => {}
                Err(e) => lock(&errors).push(e.to_string()),
            }
            ignore::WalkState::Continue
        })
    });
    let mut errors = errors.into_inner().unwrap_or_else(|p| p.into_inner());
    errors.sort();
    match errors.into_iter().next() {
        Some(first) => bail!("{first}"),
        None => Ok(()),
    }
}

/// The error for a path that does not exist, whichever command names it.
pub(super) fn no_such_path(path: &Path) -> anyhow::Error {
    anyhow::anyhow!("{}: no such file or folder", path.display())
}

/// The error for a folder with no loop file in it: a wrong path must not pass as a clean
/// check of nothing.
pub(super) fn no_loop_files(dir: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: no loop files found (searched for *.json, *.yaml, *.yml, skipping hidden, \
         git-ignored and --exclude'd paths)",
        dir.display()
    )
}

/// A file named `*.json`, `*.yaml` or `*.yml`.
fn is_loop_file(entry: &ignore::DirEntry) -> bool {
    let is_file = entry.file_type().is_some_and(|t| t.is_file());
    let loop_ext = entry
        .path()
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "json" | "yaml" | "yml"));
    is_file && loop_ext
}

/// A mutex's contents, also after a panic on another thread (the walk keeps no invariant
/// a panic could break).
fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Write `text` to `path` atomically: a temporary file in the same folder, renamed into
/// place, so a failure or an interrupt never leaves a partial file.
pub(super) fn write_atomic(path: &Path, text: &str) -> Result<()> {
    write_all_atomic(&[(path.to_path_buf(), text.to_owned())])
}

/// Write several files, all or none: every file is first written in full to a temporary file
/// beside its destination; only when all of them are written are they renamed into place.
/// A failure before that point removes the temporary files and leaves the targets as they
/// were.
pub(super) fn write_all_atomic(files: &[(PathBuf, String)]) -> Result<()> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, text) in files {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("creating folder {}: {}", dir.display(), plain_io(&e)))?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".loopconv-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(|e| write_error(path, &e))?;
        tmp.write_all(text.as_bytes())
            .and_then(|()| tmp.as_file().sync_all())
            .map_err(|e| write_error(path, &e))?;
        // Temporary files are private (0600); give the result the permissions the file had,
        // or the usual ones for a new file.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(path).map_or(0o644, |m| m.permissions().mode() & 0o7777);
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(mode))
                .map_err(|e| write_error(path, &e))?;
        }
        staged.push((tmp, path));
    }
    for (tmp, path) in staged {
        tmp.persist(path).map_err(|e| write_error(path, &e.error))?;
    }
    Ok(())
}

/// The message for a failed write: the destination the user named, never the temporary file.
fn write_error(path: &Path, e: &std::io::Error) -> anyhow::Error {
    anyhow::anyhow!("writing {}: {}", path.display(), plain_io(e))
}

/// Write to a file, or to stdout for `-` / no path.
pub(super) fn emit(output: Option<&Path>, text: &str) -> Result<()> {
    match output {
        Some(p) if !is_stdio(p) => write_atomic(p, text),
        _ => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .context("writing standard output")?;
            out.flush().context("writing standard output")
        }
    }
}

pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}
