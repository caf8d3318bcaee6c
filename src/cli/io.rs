//! Files and streams: reading inputs, finding loop files in folders, atomic writes.

use super::*;

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
        let f = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
        f.take(cap)
            .read_to_end(&mut buf)
            .with_context(|| format!("reading {}", path.display()))?;
    }
    Ok(buf)
}

/// Files under the given paths: files as given, folders searched recursively for loop
/// files, in sorted order.
pub(super) fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if is_stdio(p) || !p.is_dir() {
            if !is_stdio(p) && !p.exists() {
                bail!("{}: no such file or folder", p.display());
            }
            out.push(p.clone());
        } else {
            let mut found = Vec::new();
            walk(p, &mut found).with_context(|| format!("reading folder {}", p.display()))?;
            found.sort();
            out.extend(found);
        }
    }
    Ok(out)
}

/// Loop files (`*.json`, `*.yaml`, `*.yml`) below `dir`, the way ripgrep walks: hidden
/// files and folders are skipped, and so is whatever `.gitignore`, `.ignore` and the git
/// excludes list (inside a git repository or not).
pub(super) fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), ignore::Error> {
    let walker = ignore::WalkBuilder::new(dir).require_git(false).build();
    for entry in walker {
        let entry = entry?;
        let path = entry.path();
        let is_file = entry.file_type().is_some_and(|t| t.is_file());
        let loop_ext = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "json" | "yaml" | "yml"));
        if is_file && loop_ext {
            out.push(path.to_path_buf());
        }
    }
    Ok(())
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
            .with_context(|| format!("creating folder {}", dir.display()))?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".loopconv-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .with_context(|| format!("writing {}", path.display()))?;
        tmp.write_all(text.as_bytes())
            .and_then(|()| tmp.as_file().sync_all())
            .with_context(|| format!("writing {}", path.display()))?;
        // Temporary files are private (0600); give the result the permissions the file had,
        // or the usual ones for a new file.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(path).map_or(0o644, |m| m.permissions().mode() & 0o7777);
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(mode))
                .with_context(|| format!("writing {}", path.display()))?;
        }
        staged.push((tmp, path));
    }
    for (tmp, path) in staged {
        tmp.persist(path)
            .map_err(|e| e.error)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
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
