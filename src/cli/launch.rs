//! `loopconv mcp`: the MCP server is another executable of the package, `loopconv-mcp`
//! (`src/mcp_main.rs`), so that `loopconv` links none of it: its async runtime, protocol
//! and schema statics cost every command of `loopconv` their relocations at start-up
//! (3,600 more, 5-10 % of drawing a small file; docs/src/performance.md). `loopconv mcp
//! ARGS` runs `loopconv-mcp ARGS` on the same standard input, output and error, found
//! beside this executable, else on `PATH`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::Args;

use super::Limits;

/// The options of the server: `loopconv mcp` parses them (its `--help` is `loopconv`'s),
/// and `loopconv-mcp` parses them again.
#[derive(Debug, Args)]
pub(crate) struct McpArgs {
    #[command(flatten)]
    pub(crate) limits: Limits,
}

/// The name of the server's executable.
pub(crate) const SERVER: &str = "loopconv-mcp";

/// Run `loopconv-mcp` with the arguments that followed `mcp` on this command line.
pub(super) fn run(_: &McpArgs) -> Result<ExitCode> {
    let args: Vec<OsString> = std::env::args_os().skip(2).collect();
    let here = std::env::current_exe().ok();
    let path = std::env::var_os("PATH");
    let Some(server) = find_server(here.as_deref(), path.as_deref()) else {
        let folder = here.as_deref().and_then(Path::parent).map_or_else(
            || "this executable's folder".to_owned(),
            |d| d.display().to_string(),
        );
        anyhow::bail!(
            "`loopconv mcp` runs the MCP server `{SERVER}`, which is neither in {folder} \
             (beside loopconv) nor on PATH: install a package that ships both executables \
             (`pip install loopconv`, `npm install -g loopconv`, a release archive), or \
             build it from a checkout with `cargo install --locked --path .`, which installs both \
             (the default features include `mcp`)"
        );
    };
    // The server decides its own memory: the switch that keeps huge pages off until an
    // input asks for them is inherited by the program started.
    super::memory::allow_huge_pages();
    start(&server, &args)
}

/// Replace this process with the server: the client's pipes, the process id and the exit
/// status are the server's own.
#[cfg(unix)]
fn start(server: &Path, args: &[OsString]) -> Result<ExitCode> {
    use std::os::unix::process::CommandExt as _;
    let e = std::process::Command::new(server).args(args).exec();
    Err(e).with_context(|| format!("starting {}", server.display()))
}

/// Run the server on the same standard streams, and exit with its status.
#[cfg(not(unix))]
fn start(server: &Path, args: &[OsString]) -> Result<ExitCode> {
    let status = std::process::Command::new(server)
        .args(args)
        .status()
        .with_context(|| format!("starting {}", server.display()))?;
    let code = status.code().unwrap_or(i32::from(super::EXIT_USAGE));
    Ok(ExitCode::from(
        u8::try_from(code).unwrap_or(super::EXIT_USAGE),
    ))
}

/// The server's executable: beside `here` (this executable), else the first on `path`.
fn find_server(here: Option<&Path>, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    let file = format!("{SERVER}{}", std::env::consts::EXE_SUFFIX);
    let beside = here.and_then(Path::parent).map(|d| d.join(&file));
    let on_path = path
        .into_iter()
        .flat_map(std::env::split_paths)
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| d.join(&file));
    beside.into_iter().chain(on_path).find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::{SERVER, find_server};

    /// Beside the executable first, then the folders of `PATH` in order; nothing when
    /// neither has it.
    #[test]
    fn the_server_is_found_beside_then_on_the_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (bin, first, second) = (
            dir.path().join("bin"),
            dir.path().join("p1"),
            dir.path().join("p2"),
        );
        for d in [&bin, &first, &second] {
            std::fs::create_dir(d).expect("mkdir");
        }
        let file = format!("{SERVER}{}", std::env::consts::EXE_SUFFIX);
        let me = bin.join("loopconv");
        let path = std::env::join_paths([&first, &second]).expect("a PATH");
        assert_eq!(find_server(Some(&me), Some(&path)), None);
        std::fs::write(second.join(&file), "").expect("write");
        assert_eq!(
            find_server(Some(&me), Some(&path)),
            Some(second.join(&file))
        );
        std::fs::create_dir(first.join(&file)).expect("a folder of that name");
        assert_eq!(
            find_server(Some(&me), Some(&path)),
            Some(second.join(&file))
        );
        std::fs::write(bin.join(&file), "").expect("write");
        assert_eq!(find_server(Some(&me), Some(&path)), Some(bin.join(&file)));
        assert_eq!(find_server(None, None), None);
    }
}
