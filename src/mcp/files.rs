//! The files a client may name: inside its MCP roots, or the working directory when it
//! announces none.

use std::path::{Component, Path, PathBuf};

/// The folders a session may read and write below, canonical (links resolved).
#[derive(Debug, Clone)]
pub(super) struct Roots(Vec<PathBuf>);

impl Roots {
    /// The roots of `file:` URIs (others are ignored); the working directory when none
    /// is left. A root that does not exist is dropped.
    pub(super) fn from_uris<'a>(uris: impl IntoIterator<Item = &'a str>) -> Roots {
        let mut roots: Vec<PathBuf> = uris
            .into_iter()
            .filter_map(path_of_uri)
            .filter_map(|p| p.canonicalize().ok())
            .collect();
        if roots.is_empty() {
            roots.extend(
                std::env::current_dir()
                    .ok()
                    .and_then(|d| d.canonicalize().ok()),
            );
        }
        Roots(roots)
    }

    fn describe(&self) -> String {
        let names: Vec<String> = self.0.iter().map(|r| r.display().to_string()).collect();
        if names.is_empty() {
            "no roots".to_owned()
        } else {
            names.join(", ")
        }
    }

    /// A relative path is relative to the first root.
    fn absolute(&self, path: &Path) -> PathBuf {
        match self.0.first() {
            Some(root) if path.is_relative() => root.join(path),
            _ => path.to_path_buf(),
        }
    }

    fn inside(&self, real: &Path) -> bool {
        self.0.iter().any(|r| real.starts_with(r))
    }

    /// The real path of an existing file or folder that `path` names, when it is inside a
    /// root (after links are resolved).
    pub(super) fn readable(&self, path: &str) -> Result<PathBuf, String> {
        let p = self.absolute(Path::new(path));
        let real = p
            .canonicalize()
            .map_err(|e| format!("{path}: {}", crate::cli::io::plain_io(&e)))?;
        if !self.inside(&real) {
            return Err(self.outside(path));
        }
        Ok(real)
    }

    /// The path to open for `path`, once it is found inside a root ([`Roots::readable`]):
    /// as the client wrote it when the working directory is the first root (or the path
    /// is absolute), so that diagnostics name it so; otherwise joined to the first root.
    pub(super) fn openable(&self, path: &str) -> Result<PathBuf, String> {
        self.readable(path)?;
        let p = Path::new(path);
        let cwd = std::env::current_dir()
            .ok()
            .and_then(|d| d.canonicalize().ok());
        if p.is_absolute() || self.0.first() == cwd.as_ref() {
            return Ok(p.to_path_buf());
        }
        Ok(self.absolute(p))
    }

    /// Where to write `path`: its folder must exist inside a root, and the path must not
    /// be a link (it would lead elsewhere) or a folder.
    pub(super) fn writable(&self, path: &str) -> Result<PathBuf, String> {
        let p = self.absolute(Path::new(path));
        let Some(Component::Normal(name)) = p.components().next_back() else {
            return Err(format!("{path}: not a file name to write"));
        };
        let parent = p.parent().unwrap_or(Path::new("/"));
        let parent = parent
            .canonicalize()
            .map_err(|e| format!("{path}: {}", crate::cli::io::plain_io(&e)))?;
        let real = parent.join(name);
        if !self.inside(&real) {
            return Err(self.outside(path));
        }
        match std::fs::symlink_metadata(&real) {
            Ok(m) if m.file_type().is_symlink() => Err(format!(
                "{path}: is a symbolic link; loopconv mcp does not write through links"
            )),
            Ok(m) if m.is_dir() => Err(format!("{path}: is a folder")),
            _ => Ok(real),
        }
    }

    fn outside(&self, path: &str) -> String {
        format!(
            "{path}: outside the client's roots ({}); loopconv mcp reads and writes only below them",
            self.describe()
        )
    }
}

/// The path of a `file:` URI (`file:///a/b%20c` is `/a/b c`); `None` for another scheme.
pub(super) fn path_of_uri(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = percent_decode(rest)?;
    let text = String::from_utf8(bytes).ok()?;
    // `file:///C:/x` on Windows.
    let text = match text.as_bytes() {
        [b'/', d, b':', ..] if cfg!(windows) && d.is_ascii_alphabetic() => text[1..].to_owned(),
        _ => text,
    };
    Some(PathBuf::from(text))
}

fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {

    use super::{Roots, path_of_uri};
    use std::path::PathBuf;
    #[test]
    fn file_uris_are_paths() {
        assert_eq!(
            path_of_uri("file:///a/b%20c"),
            Some(PathBuf::from("/a/b c"))
        );
        assert_eq!(path_of_uri("file://localhost/x"), Some(PathBuf::from("/x")));
        assert_eq!(path_of_uri("https://example.com/x"), None);
        assert_eq!(path_of_uri("file:///bad%zz"), None);
    }

    #[test]
    fn only_paths_inside_a_root_are_read_or_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("root");
        std::fs::create_dir(&root).expect("mkdir");
        std::fs::write(root.join("a.json"), "{}").expect("write");
        std::fs::write(dir.path().join("secret.json"), "{}").expect("write");
        let uri = format!("file://{}", root.display());
        let roots = Roots::from_uris([uri.as_str()]);
        assert!(roots.readable("a.json").is_ok());
        assert!(
            roots
                .readable("../secret.json")
                .unwrap_err()
                .contains("outside")
        );
        let secret = dir.path().join("secret.json");
        assert!(roots.readable(&secret.display().to_string()).is_err());
        assert!(roots.writable("out.json").is_ok());
        assert!(roots.writable("../out.json").is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&secret, root.join("link.json")).expect("symlink");
            assert!(roots.readable("link.json").unwrap_err().contains("outside"));
            assert!(roots.writable("link.json").unwrap_err().contains("link"));
        }
    }
}
