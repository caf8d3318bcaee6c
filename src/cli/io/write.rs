//! Writing outputs: atomic writes of one file or a whole folder, links replaced instead
//! of followed, standard output, and the refusal to write over an input.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};

use super::read::{is_stdio, plain_io};

/// Write `text` to `path` atomically: a temporary file in the same folder, renamed into
/// place, so a failure or an interrupt never leaves a partial file. A link at `path` to a
/// device or pipe (`/dev/stdout`) is written through; a link to anything else is replaced
/// by the file, and said so (the file it led to is left as it is).
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<Written> {
    write_all_atomic(None, &[(path.to_path_buf(), text.to_owned())])
}

/// What a write did that its command must say: the links it replaced instead of following.
#[must_use = "a replaced link must be reported"]
#[derive(Debug, Default)]
pub(crate) struct Written {
    /// Each symbolic link replaced by a file or folder, and where it led.
    pub(in crate::cli) replaced_links: Vec<(PathBuf, PathBuf)>,
}

impl Written {
    /// One line per replaced link.
    pub(in crate::cli) fn notes(&self) -> impl Iterator<Item = String> + '_ {
        self.replaced_links.iter().map(|(link, to)| {
            format!(
                "replaced the symbolic link {} (to {}) instead of writing through it",
                link.display(),
                to.display()
            )
        })
    }
}

/// Write several files, all or nothing as far as the file system allows:
///
/// - Files that go into a folder that does not exist yet are written into a hidden staging
///   folder beside the highest missing folder, which is synced and then renamed into place
///   with one `rename`: the new folder appears complete or not at all, even when the
///   process is killed.
/// - A file that goes into an existing folder is written to a hidden temporary file beside
///   its destination.
///
/// Links are never followed below `root`, the output folder a command writes into (a
/// single output's root is its folder): a link at an output path or at a folder on the way
/// to one is replaced by what is written, never written through, so a link committed into
/// an output folder cannot redirect a write elsewhere. `root` itself may be a link (the
/// user named it).
///
/// Every destination is checked (no folder where a file goes, no file where a folder goes)
/// and every file is written and synced before anything is renamed into place, so a
/// failure before that point (a folder in the way, a full disk, a folder that cannot be
/// written) removes what was staged and changes nothing. Only a `rename` failing in the
/// last step, or an interrupt during it, can leave some destinations replaced and others
/// not; each is then either its old or its new version, never partial.
pub(in crate::cli) fn write_all_atomic(
    root: Option<&Path>,
    files: &[(PathBuf, String)],
) -> Result<Written> {
    let plan = plan_writes(root, files)?;
    let sync_each = !cfg!(target_os = "linux") || files.len() < SYNC_EACH_UP_TO;
    let staged = stage(&plan, sync_each)?;
    if !sync_each {
        sync_file_systems(&plan)?;
    }
    staged.commit()
}

/// How one path is found on disk, looked up once per write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    /// A folder (or a link to one).
    Folder,
    /// Nothing.
    Missing,
    /// Something that is not a folder.
    Other,
    /// A symbolic link below the output folder, never followed.
    Link,
}

/// What is on disk at the folders the outputs go into, each looked up once.
#[derive(Default)]
struct Lookups(std::collections::HashMap<PathBuf, Found>);

impl Lookups {
    /// What is at `dir`; a link is followed only when `follow` (the output folder and the
    /// folders above it).
    fn get(&mut self, dir: &Path, follow: bool) -> Result<Found> {
        if let Some(&f) = self.0.get(dir) {
            return Ok(f);
        }
        let meta = if follow {
            std::fs::metadata(dir)
        } else {
            std::fs::symlink_metadata(dir)
        };
        let found = match meta {
            Ok(m) if m.file_type().is_symlink() => Found::Link,
            Ok(m) if m.is_dir() => Found::Folder,
            Ok(_) => Found::Other,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Found::Missing,
            Err(e) => bail!("reading folder {}: {}", dir.display(), plain_io(&e)),
        };
        self.0.insert(dir.to_path_buf(), found);
        Ok(found)
    }

    /// The highest folder on the way to `path` that must be created (`None` when its
    /// parent exists), and whether a link is in its place (to be replaced): first the
    /// output folder `root` and the folders above it, links followed, then each folder
    /// below `root`, top down and links not followed (a link higher up would be followed
    /// by a look-up of a folder below it). An error when something that is not a folder
    /// is in the way.
    fn missing_top(&mut self, path: &Path, root: &Path) -> Result<Option<(PathBuf, bool)>> {
        if let Some(top) = self.missing_from(path, root)? {
            return Ok(Some((top, false)));
        }
        let below: Vec<&Path> = parent_of(path)
            .ancestors()
            .take_while(|d| *d != root && !d.as_os_str().is_empty())
            .collect();
        for dir in below.into_iter().rev() {
            match self.get(dir, false)? {
                Found::Folder => {}
                Found::Missing => return Ok(Some((dir.to_path_buf(), false))),
                Found::Link => return Ok(Some((dir.to_path_buf(), true))),
                Found::Other => bail!(
                    "writing {}: {} is not a folder",
                    path.display(),
                    dir.display()
                ),
            }
        }
        Ok(None)
    }

    /// The highest folder from `dir` up that does not exist (`None` when `dir` exists),
    /// links followed.
    fn missing_from(&mut self, path: &Path, mut dir: &Path) -> Result<Option<PathBuf>> {
        let mut top = None;
        loop {
            match self.get(dir, true)? {
                Found::Folder => return Ok(top),
                Found::Other | Found::Link => bail!(
                    "writing {}: {} is not a folder",
                    path.display(),
                    dir.display()
                ),
                Found::Missing => {
                    top = Some(dir.to_path_buf());
                    let up = parent_of(dir);
                    if up == dir {
                        bail!("writing {}: no folder to write it in", path.display());
                    }
                    dir = up;
                }
            }
        }
    }
}

/// The folder a path is in (`.` for a bare file name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        Some(_) => Path::new("."),
        None => path,
    }
}

/// The writes, grouped: new folders (each created whole) and files in existing folders.
#[derive(Default)]
struct Plan<'a> {
    /// A folder that does not exist yet (or a link in its place, replaced), and the files
    /// below it (paths relative to it).
    new_folders: Vec<(NewFolder, Vec<(PathBuf, &'a str)>)>,
    /// A file in an existing folder, the permissions of the file it replaces, and where the
    /// link it replaces led.
    files: Vec<(
        PathBuf,
        &'a str,
        Option<std::fs::Permissions>,
        Option<PathBuf>,
    )>,
    /// Something that is not a file and cannot be replaced (`/dev/null`, a pipe, a
    /// terminal), written in place when everything else is.
    devices: Vec<(&'a Path, &'a str)>,
}

/// A folder a write creates whole.
struct NewFolder {
    /// Where it goes.
    path: PathBuf,
    /// Where the link at its place led, when there is one (replaced, never followed).
    link_to: Option<PathBuf>,
}

/// Check every destination and group the writes; nothing is written yet.
fn plan_writes<'a>(root: Option<&Path>, files: &'a [(PathBuf, String)]) -> Result<Plan<'a>> {
    let mut lookups = Lookups::default();
    let mut plan = Plan::default();
    let mut folder_of = std::collections::HashMap::new();
    let in_folder = root.is_some();
    for (path, text) in files {
        let root = root.unwrap_or_else(|| parent_of(path));
        if let Some((top, link)) = lookups.missing_top(path, root)? {
            let rel = path.strip_prefix(&top).unwrap_or(path).to_path_buf();
            let i = match folder_of.get(&top) {
                Some(&i) => i,
                None => {
                    let link_to = link.then(|| link_target(&top)).transpose()?;
                    folder_of.insert(top.clone(), plan.new_folders.len());
                    let folder = NewFolder { path: top, link_to };
                    plan.new_folders.push((folder, Vec::new()));
                    plan.new_folders.len() - 1
                }
            };
            plan.new_folders[i].1.push((rel, text.as_str()));
            continue;
        }
        match Destination::of(path, in_folder)? {
            Destination::New(file) => plan.files.push((file, text, None, None)),
            Destination::File(file, perms) => plan.files.push((file, text, Some(perms), None)),
            Destination::Link(to) => plan.files.push((path.clone(), text, None, Some(to))),
            Destination::Device => plan.devices.push((path, text)),
        }
    }
    Ok(plan)
}

/// What an output path in an existing folder names.
enum Destination {
    /// Nothing: a new file at this path.
    New(PathBuf),
    /// A file, and its permissions.
    File(PathBuf, std::fs::Permissions),
    /// A symbolic link, replaced by the file (never written through), and where it led.
    Link(PathBuf),
    /// A device, a pipe or a socket: written in place, never replaced.
    Device,
}

impl Destination {
    /// What `path` names. A link is replaced, except a link to a device or pipe named as
    /// the one output of a command (`-o /dev/stdout`, not `in_folder`), which is written
    /// through.
    fn of(path: &Path, in_folder: bool) -> Result<Destination> {
        let meta = match std::fs::symlink_metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Destination::New(path.to_path_buf()));
            }
            Err(e) => return Err(write_error(path, &e)),
        };
        if meta.file_type().is_symlink() {
            let to_device = std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir());
            if to_device && !in_folder {
                return Ok(Destination::Device);
            }
            return Ok(Destination::Link(link_target(path)?));
        }
        if meta.is_dir() {
            bail!("writing {}: is a directory", path.display());
        }
        if !meta.is_file() {
            return Ok(Destination::Device);
        }
        Ok(Destination::File(path.to_path_buf(), meta.permissions()))
    }
}

/// Where the link `path` leads, as it is written.
fn link_target(path: &Path) -> Result<PathBuf> {
    std::fs::read_link(path).map_err(|e| write_error(path, &e))
}

/// Write `text` into a device or pipe that exists (nothing to stage or rename).
fn write_device(path: &Path, text: &str) -> Result<()> {
    let mut f = open_device(path)?;
    f.write_all(text.as_bytes())
        .map_err(|e| write_error(path, &e))
}

/// Open a device or pipe that exists for writing.
fn open_device(path: &Path) -> Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| write_error(path, &e))
}

/// Outputs written in full and waiting to be renamed into place; whatever was not renamed
/// is removed when this is dropped.
#[derive(Default)]
struct Staged<'a> {
    /// A filled staging folder, and the new folder it becomes.
    folders: Vec<(PathBuf, &'a NewFolder)>,
    /// A temporary file beside its destination, the destination, and where the link it
    /// replaces led.
    files: Vec<(tempfile::TempPath, &'a Path, Option<&'a Path>)>,
    /// A device or pipe, and what to write into it.
    devices: Vec<(&'a Path, &'a str)>,
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        for (staging, _) in &self.folders {
            // Best effort: a staging folder that cannot be removed is hidden and harmless.
            drop(std::fs::remove_dir_all(staging));
        }
    }
}

/// Write every planned output to its staging place (synced file by file when `sync_each`);
/// nothing is in place yet.
fn stage<'a>(plan: &'a Plan<'_>, sync_each: bool) -> Result<Staged<'a>> {
    let mut staged = Staged::default();
    for (folder, files) in &plan.new_folders {
        let top = &folder.path;
        let staging = fresh_folder(parent_of(top))
            .map_err(|e| anyhow::anyhow!("creating folder {}: {}", top.display(), plain_io(&e)))?;
        staged.folders.push((staging, folder));
        let staging = &staged.folders[staged.folders.len() - 1].0;
        fill_folder(staging, top, files, sync_each)?;
    }
    for (path, text, old, link_to) in &plan.files {
        staged.files.push((
            stage_file(path, text, old.as_ref(), sync_each)?,
            path.as_path(),
            link_to.as_deref(),
        ));
    }
    staged.devices.clone_from(&plan.devices);
    Ok(staged)
}

impl Staged<'_> {
    /// Rename everything into place: new folders first (each one `rename`), then the files
    /// in existing folders.
    /// A link in the place of a new folder is removed first (a folder cannot be renamed
    /// over it); a link in the place of a file is replaced by the rename itself.
    fn commit(mut self) -> Result<Written> {
        let mut written = Written::default();
        while let Some((staging, folder)) = self.folders.pop() {
            let top = &folder.path;
            let placed = match &folder.link_to {
                Some(_) => std::fs::remove_file(top).and_then(|()| std::fs::rename(&staging, top)),
                None => std::fs::rename(&staging, top),
            };
            if let Err(e) = placed {
                drop(std::fs::remove_dir_all(&staging));
                return Err(anyhow::anyhow!(
                    "creating folder {}: {}",
                    top.display(),
                    plain_io(&e)
                ));
            }
            if let Some(to) = &folder.link_to {
                written.replaced_links.push((top.clone(), to.clone()));
            }
        }
        for (tmp, path, link_to) in std::mem::take(&mut self.files) {
            tmp.persist(path).map_err(|e| write_error(path, &e.error))?;
            if let Some(to) = link_to {
                written
                    .replaced_links
                    .push((path.to_path_buf(), to.to_path_buf()));
            }
        }
        for &(path, text) in &self.devices {
            write_device(path, text)?;
        }
        written.replaced_links.sort();
        Ok(written)
    }
}

/// Create a new hidden folder in `parent` (`.loopconv-*.tmp`), with the permissions a new
/// folder gets.
fn fresh_folder(parent: &Path) -> std::io::Result<PathBuf> {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    loop {
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = parent.join(format!(".loopconv-{}-{n}.tmp", std::process::id()));
        match std::fs::create_dir(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => {}
            r => return r.map(|()| path),
        }
    }
}

/// Write the files of a new folder into its staging folder: one `mkdir` per folder, in
/// order (a folder before the folders in it), then one write per file.
fn fill_folder(
    staging: &Path,
    top: &Path,
    files: &[(PathBuf, &str)],
    sync_each: bool,
) -> Result<()> {
    let mut folders = std::collections::BTreeSet::new();
    for (rel, _) in files {
        let mut dir = rel.parent();
        while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
            if !folders.insert(d) {
                break;
            }
            dir = d.parent();
        }
    }
    for d in folders {
        std::fs::create_dir(staging.join(d)).map_err(|e| {
            anyhow::anyhow!(
                "creating folder {}: {}",
                top.join(d).display(),
                plain_io(&e)
            )
        })?;
    }
    for (rel, text) in files {
        write_new(&staging.join(rel), text, sync_each)
            .map_err(|e| write_error(&top.join(rel), &e))?;
    }
    Ok(())
}

/// Create and write a file (with the permissions a new file gets).
fn write_new(path: &Path, text: &str, sync: bool) -> std::io::Result<()> {
    let mut f = std::fs::File::create_new(path)?;
    f.write_all(text.as_bytes())?;
    if sync {
        f.sync_all()?;
    }
    Ok(())
}

/// Write a temporary file beside `path`, with the permissions of the file it replaces (or
/// those a new file gets).
fn stage_file(
    path: &Path,
    text: &str,
    old: Option<&std::fs::Permissions>,
    sync: bool,
) -> Result<tempfile::TempPath> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".loopconv-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder
        .tempfile_in(parent_of(path))
        .map_err(|e| write_error(path, &e))?;
    tmp.write_all(text.as_bytes())
        .map_err(|e| write_error(path, &e))?;
    if sync {
        tmp.as_file()
            .sync_all()
            .map_err(|e| write_error(path, &e))?;
    }
    // The file replaced keeps its permissions exactly (the creation mode is masked by the
    // umask).
    if let Some(perms) = old {
        tmp.as_file()
            .set_permissions(perms.clone())
            .map_err(|e| write_error(path, &e))?;
    }
    Ok(tmp.into_temp_path())
}

/// Up to this many outputs, each staged file is synced as it is written (a few `fsync`s
/// cost less than flushing a whole file system); from this many on, on Linux, the file
/// systems written to are synced once instead ([`sync_file_systems`]).
const SYNC_EACH_UP_TO: usize = 32;

/// Make what was staged durable before anything is renamed into place, so that a crash
/// after the rename cannot leave an empty or partial file in place: one `syncfs` for each
/// file system written to (Linux only; elsewhere each file is synced as it is written).
fn sync_file_systems(plan: &Plan<'_>) -> Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt as _;
        let mut dirs: Vec<&Path> = plan
            .new_folders
            .iter()
            .map(|(top, _)| parent_of(&top.path))
            .collect();
        dirs.extend(plan.files.iter().map(|(path, ..)| parent_of(path)));
        dirs.sort_unstable();
        dirs.dedup();
        let mut synced = Vec::new();
        for dir in dirs {
            let dev = std::fs::metadata(dir)
                .map_err(|e| sync_error(dir, &e))?
                .dev();
            if !synced.contains(&dev) {
                sync_file_system(dir).map_err(|e| sync_error(dir, &e))?;
                synced.push(dev);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    drop(plan);
    Ok(())
}

/// `syncfs(2)`: write out everything cached for the file system `dir` is on.
#[cfg(target_os = "linux")]
fn sync_file_system(dir: &Path) -> std::io::Result<()> {
    use std::os::fd::AsRawFd as _;
    unsafe extern "C" {
        fn syncfs(fd: std::ffi::c_int) -> std::ffi::c_int;
    }
    let f = std::fs::File::open(dir)?;
    // SAFETY: `syncfs` takes a file descriptor, which `f` holds open, and touches no memory.
    if unsafe { syncfs(f.as_raw_fd()) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// The message for a failed sync.
fn sync_error(dir: &Path, e: &std::io::Error) -> anyhow::Error {
    anyhow::anyhow!("writing to {}: {}", dir.display(), plain_io(e))
}

/// The message for a failed write: the destination the user named, never the temporary file.
fn write_error(path: &Path, e: &std::io::Error) -> anyhow::Error {
    anyhow::anyhow!("writing {}: {}", path.display(), plain_io(e))
}

/// Write to a file, or to stdout for `-` / no path.
pub(in crate::cli) fn emit(output: Option<&Path>, text: &str) -> Result<Written> {
    match output {
        Some(p) if !is_stdio(p) => write_atomic(p, text),
        _ => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .context("writing standard output")?;
            out.flush().context("writing standard output")?;
            Ok(Written::default())
        }
    }
}

/// Write to a file, or to stdout for `-` / no path, as `write` produces the text: nothing
/// is held whole. A file is written as by [`write_atomic`] (staged beside it, renamed into
/// place when complete).
pub(in crate::cli) fn emit_streamed(
    output: Option<&Path>,
    write: impl FnOnce(&mut dyn std::io::Write) -> Result<()>,
) -> Result<Written> {
    match output {
        Some(p) if !is_stdio(p) => write_atomic_streamed(p, write),
        _ => {
            let mut out =
                std::io::BufWriter::with_capacity(STREAM_BUFFER, std::io::stdout().lock());
            write(&mut out).context("writing standard output")?;
            out.flush().context("writing standard output")?;
            Ok(Written::default())
        }
    }
}

/// The buffer between a streamed output and the file or pipe it goes to.
const STREAM_BUFFER: usize = 1 << 16;

/// [`write_atomic`] of the text `write` produces, written to the staged file as it comes.
fn write_atomic_streamed(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> Result<()>,
) -> Result<Written> {
    let files = [(path.to_path_buf(), String::new())];
    let plan = plan_writes(None, &files)?;
    if let Some(&(device, _)) = plan.devices.first() {
        let mut out = std::io::BufWriter::with_capacity(STREAM_BUFFER, open_device(device)?);
        write(&mut out).with_context(|| format!("writing {}", path.display()))?;
        out.flush().map_err(|e| write_error(path, &e))?;
        return Ok(Written::default());
    }
    let staged = stage(&plan, false)?;
    let in_new_folder = plan.new_folders.first().and_then(|(_, f)| f.first());
    let staged_file = match (staged.folders.first(), staged.files.first(), in_new_folder) {
        (Some((staging, _)), None, Some((rel, _))) => staging.join(rel),
        (None, Some((tmp, ..)), None) => tmp.to_path_buf(),
        _ => bail!("writing {}: internal: no staged file", path.display()),
    };
    let file = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&staged_file)
        .map_err(|e| write_error(path, &e))?;
    let mut out = std::io::BufWriter::with_capacity(STREAM_BUFFER, file);
    write(&mut out).with_context(|| format!("writing {}", path.display()))?;
    let file = out.into_inner().map_err(|e| write_error(path, e.error()))?;
    file.sync_all().map_err(|e| write_error(path, &e))?;
    staged.commit()
}

/// Whether `a` and `b` are one existing file (through any link, hard or symbolic).
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    matches!((file_id(a), file_id(b)), (Some(x), Some(y)) if x == y)
}

/// What every name of an existing file shares: its device and inode.
#[cfg(unix)]
type FileId = (u64, u64);
/// What every name of an existing file shares: its canonical path.
#[cfg(not(unix))]
type FileId = PathBuf;

/// The identity of the file at `p`, when it exists.
pub(super) fn file_id(p: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        p.canonicalize().ok()
    }
}

/// The files a command read, which its outputs must never replace ("never clobber an
/// input").
pub(in crate::cli) struct Inputs(std::collections::HashSet<FileId>);

impl Inputs {
    /// The files among `paths` (standard input and missing paths are no file).
    pub(in crate::cli) fn of<'p>(paths: impl IntoIterator<Item = &'p Path>) -> Inputs {
        let ids = paths
            .into_iter()
            .filter(|p| !is_stdio(p))
            .filter_map(file_id);
        Inputs(ids.collect())
    }

    /// Whether the existing file `p` is one of the inputs.
    pub(in crate::cli) fn contains(&self, p: &Path) -> bool {
        !self.0.is_empty() && file_id(p).is_some_and(|id| self.0.contains(&id))
    }

    /// Refuse to write `output` when it is one of the inputs (standard output is none).
    pub(in crate::cli) fn refuse(&self, output: &Path) -> Result<()> {
        if !is_stdio(output) && self.contains(output) {
            bail!(
                "the output {} is an input file; refusing to overwrite it",
                output.display()
            );
        }
        Ok(())
    }
}

/// [`Inputs::refuse`] for a command's single output (`-o`, when given), before any work.
pub(in crate::cli) fn refuse_input_as_output<'p>(
    output: Option<&Path>,
    inputs: impl IntoIterator<Item = &'p Path>,
) -> Result<()> {
    match output {
        Some(out) => Inputs::of(inputs).refuse(out),
        None => Ok(()),
    }
}
