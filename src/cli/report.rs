//! Reading one file with the global options, and printing its diagnostics and summaries.

use std::io::IsTerminal as _;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use loopconv::diag::{self, Code, Diagnostics};
use loopconv::tree::ReadLimits;
use loopconv::{Format, LoadOptions, Loaded, TreeUse};

use super::io::{is_stdio, read_input};
use super::{Color, EXIT_PROBLEMS, Global, MessageFormat};

// `print!`, `eprint!` and `eprintln!` panic when the stream is a closed pipe
// (`loopconv check --format json dir | head`), which exited with 101. Diagnostics and
// summaries are best effort: a reader that went away just stops receiving them, and the
// exit code still tells the result. (Converted output goes through `emit`, which reports
// a failed write as an I/O error.) The command modules import these by name, which
// shadows the standard library's.
macro_rules! print {
    ($($t:tt)*) => {{
        let _ = std::io::Write::write_fmt(&mut std::io::stdout().lock(), format_args!($($t)*));
    }};
}
macro_rules! eprint {
    ($($t:tt)*) => {{
        let _ = std::io::Write::write_fmt(&mut std::io::stderr().lock(), format_args!($($t)*));
    }};
}
macro_rules! eprintln {
    ($($t:tt)*) => {{
        let _ = std::io::Write::write_fmt(
            &mut std::io::stderr().lock(),
            format_args!("{}\n", format_args!($($t)*)),
        );
    }};
}
pub(super) use {eprint, eprintln, print};

/// Leave `v` to the operating system, which reclaims a process's memory at exit at once,
/// instead of freeing it value by value: freeing a large loop's IR and analysis took a
/// twentieth of the time of drawing it. Only for what lives until the command returns.
pub(super) fn free_at_exit<T>(v: T) {
    std::mem::forget(v);
}

/// The exit code of a command that found problems or not.
pub(super) fn code(problems: bool) -> ExitCode {
    if problems {
        ExitCode::from(EXIT_PROBLEMS)
    } else {
        ExitCode::SUCCESS
    }
}

/// The plural ending of a count's noun.
pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

pub(crate) fn load_file(g: &Global, path: &Path, from: Option<Format>) -> Result<Loaded> {
    load_document(g, path, from, false)
}

/// The read limits the global options set.
pub(super) fn read_limits(g: &Global) -> ReadLimits {
    g.limits.read_limits()
}

/// [`load_file`], accepting a document that uses loops (a team, an Agent manifest, a lock)
/// as such when `documents`, for a project to read; otherwise it gets `P015`.
pub(crate) fn load_document(
    g: &Global,
    path: &Path,
    from: Option<Format>,
    documents: bool,
) -> Result<Loaded> {
    let limits = read_limits(g);
    let bytes = read_input(path, &limits)?;
    let name = display_name(g, path);
    let mut loaded = loopconv::load_owned(
        &name,
        bytes,
        &LoadOptions {
            from,
            limits,
            tree: TreeUse::ReleaseThen(crate::cli::memory::return_freed_memory),
            documents,
            allow_lossy: g.allow_lossy,
        },
    );
    let file = (!is_stdio(path)).then_some(path);
    loaded.diags = g.settings.filter(std::mem::take(&mut loaded.diags), file);
    loaded.diags = unknown_format_help(std::mem::take(&mut loaded.diags));
    if path.to_str().is_none() {
        loaded.diags.set_file_bytes(name_bytes(path));
    }
    if g.strict {
        loaded.diags.make_strict();
    }
    Ok(loaded)
}

/// `P011`'s help on the command line says what works there: `--from` for a loop, and for
/// a file that is no loop, that a folder search skips it and that `--skip-unknown` skips
/// it when it is named (as by pre-commit, which names the files it checks). The library's
/// help is the same for every caller, and the language server has its own.
fn unknown_format_help(diags: Diagnostics) -> Diagnostics {
    if !diags.items().iter().any(|d| d.code == Code::UnknownFormat) {
        return diags;
    }
    let names: Vec<String> = (Format::ALL.iter())
        .map(|f| format!("`--from {}`", f.name()))
        .collect();
    let help = format!(
        "a loop: pass {}; a file that is no loop: a folder search skips it, and `check \
         --skip-unknown` skips it when it is named (the pre-commit hooks and the Action pass \
         it), or leave it out of the paths",
        loopconv::text::list(&names, "or")
    );
    let mut out = Diagnostics::new(diags.file());
    for mut d in diags.into_items() {
        if d.code == Code::UnknownFormat {
            d.help = Some(help.clone());
        }
        out.push(d);
    }
    out
}

/// A path's name as bytes, for SARIF's URIs: on Unix the bytes themselves (a name that is
/// not UTF-8 keeps them; `display` shows them as U+FFFD), elsewhere the name as shown.
pub(super) fn name_bytes(path: &Path) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        path.as_os_str().as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        path.to_string_lossy().into_owned().into_bytes()
    }
}

/// [`display_name`] as bytes, for SARIF's URIs ([`name_bytes`] of a path).
pub(super) fn display_name_bytes(g: &Global, path: &Path) -> Vec<u8> {
    if is_stdio(path) {
        g.stdin_name().as_bytes().to_vec()
    } else {
        name_bytes(path)
    }
}

/// How diagnostics and pages name an input: its path, or `--stdin-name` for `-`.
pub(super) fn display_name(g: &Global, path: &Path) -> String {
    if is_stdio(path) {
        g.stdin_name().to_owned()
    } else {
        path.display().to_string()
    }
}

pub(super) fn use_color(g: &Global) -> bool {
    use_color_of(g.color)
}

/// Whether to colour stderr for a `--color` choice.
pub(super) fn use_color_of(choice: Color) -> bool {
    match choice {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => auto_color(
            |k| std::env::var_os(k).map(|v| v.to_string_lossy().into_owned()),
            std::io::stderr().is_terminal(),
        ),
    }
}

/// `--color auto`, by the usual conventions: a non-empty `NO_COLOR` turns colour off
/// (no-color.org); so does `TERM=dumb`; a `CLICOLOR_FORCE` other than empty or `0` turns
/// it on even when stderr is not a terminal (bixense.com/clicolors); otherwise colour when
/// stderr is a terminal.
pub(super) fn auto_color(var: impl Fn(&str) -> Option<String>, terminal: bool) -> bool {
    let set = |k: &str| var(k).is_some_and(|v| !v.is_empty());
    if set("NO_COLOR") {
        return false;
    }
    if var("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") {
        return true;
    }
    terminal && var("TERM").is_none_or(|t| t != "dumb")
}

/// Print diagnostics on stderr, rendered for people, as one JSON array, one SARIF log or
/// GitHub workflow commands. (Only `check`, whose report is its result, prints the
/// machine-readable forms on stdout; see `check`.)
pub(super) fn report(g: &Global, diags: &Diagnostics, source: Option<&str>) {
    if diags.is_empty() {
        return;
    }
    match g.format {
        MessageFormat::Human | MessageFormat::Markdown => {
            eprint!(
                "{}",
                diag::render_human(diags.items(), source, use_color(g))
            );
        }
        MessageFormat::Json => {
            eprint!("{}", diag::render_json(diags.items()));
        }
        MessageFormat::Sarif => {
            eprint!("{}", diag::render_sarif(diags.items()));
        }
        MessageFormat::Github => {
            eprint!("{}", diag::render_github(diags.items()));
        }
    }
}

/// Print a command's closing summary (`converted 3 files ...`, `wrote 8 pages ...`) on
/// stderr for people: under a machine format (`json`, `sarif`, `github`) stderr holds only
/// diagnostics in that format, and the exit code carries the verdict.
pub(super) fn summary(g: &Global, line: std::fmt::Arguments<'_>) {
    if matches!(g.format, MessageFormat::Human | MessageFormat::Markdown) {
        eprintln!("{line}");
    }
}

pub(super) fn report_loaded(g: &Global, l: &Loaded) {
    report(g, &l.diags, l.text());
}

/// Load a file; report its diagnostics (warnings of a valid loop on stderr, so that
/// stdout holds only the command's output); `None` when it has errors.
pub(super) fn load_valid(g: &Global, path: &Path, from: Option<Format>) -> Result<Option<Loaded>> {
    Ok(report_valid(g, load_file(g, path, from)?))
}

/// Load two files at once on the reader threads (a diff's inputs: half the time on two
/// cores, most of it the kernel clearing pages), then report each as [`load_valid`] does,
/// the first first. Standard input is read on this thread, one file after the other.
pub(super) fn load_valid_pair(g: &Global, paths: [&Path; 2]) -> Result<[Option<Loaded>; 2]> {
    let [a, b] = if paths.iter().any(|p| is_stdio(p)) {
        [load_file(g, paths[0], None), load_file(g, paths[1], None)]
    } else {
        // The reader threads do not choose how freed memory is handled: chosen here, on
        // the main thread, for the larger file.
        let len = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
        crate::cli::memory::memory_for_input(
            usize::try_from(len(paths[0]).max(len(paths[1]))).unwrap_or(usize::MAX),
        );
        let pool = super::io::reader_pool()?;
        let load = |p: &Path| load_file(g, p, None);
        let (a, b) = pool.install(|| rayon::join(|| load(paths[0]), || load(paths[1])));
        [a, b]
    };
    let (a, b) = (a?, b?);
    if matches!(g.format, MessageFormat::Json | MessageFormat::Sarif) {
        // One JSON document on standard error, as `check` prints for several files: one
        // array (one SARIF log) with both files' diagnostics, the first file's first.
        let both: Vec<diag::Diagnostic> = (a.diags.items().iter())
            .chain(b.diags.items())
            .cloned()
            .collect();
        if !both.is_empty() {
            match g.format {
                MessageFormat::Json => eprint!("{}", diag::render_json(&both)),
                _ => eprint!("{}", diag::render_sarif(&both)),
            }
        }
        let valid = |l: Loaded| l.valid().is_some().then_some(l);
        return Ok([valid(a), valid(b)]);
    }
    let a = report_valid(g, a);
    Ok([a, report_valid(g, b)])
}

/// Report a loaded file's diagnostics (in the form `--format` asks for, whether it is
/// valid or not: under `--format json` standard error holds JSON arrays only, whichever
/// command printed them); the file when it has no errors.
fn report_valid(g: &Global, l: Loaded) -> Option<Loaded> {
    report_loaded(g, &l);
    l.valid().is_some().then_some(l)
}

/// Mark the loops that would write an output an earlier one writes, or one of the
/// `reserved` outputs (`(output, what writes it)`: the index page), given `(source,
/// loaded, output)` in order: `B006` on the later one's `name`, with a note naming the
/// earlier writer, reported with the file's other diagnostics in the form `--format`
/// asks for. Returns the indices of the marked loops, which their callers report first,
/// so that a collision is not buried under the other files' warnings.
pub(super) fn mark_collisions(
    loops: &mut [(String, &mut Loaded, Option<String>)],
    what: &str,
    reserved: &[(&str, &str)],
) -> Vec<usize> {
    let mut first: std::collections::HashMap<&str, Earlier> = (reserved.iter())
        .map(|&(out, by)| (out, Earlier::Reserved(by)))
        .collect();
    let mut clashes = Vec::new();
    for (i, (src, _, out)) in loops.iter().enumerate() {
        let Some(out) = out else { continue };
        match first.entry(out.as_str()) {
            std::collections::hash_map::Entry::Occupied(e) => clashes.push((i, e.get().clone())),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(Earlier::Loop(src.clone()));
            }
        }
    }
    for (i, earlier) in &clashes {
        let (_, l, out) = &mut loops[*i];
        let out = out.clone().unwrap_or_default();
        collision(l, earlier, &out, what);
    }
    clashes.into_iter().map(|(i, _)| i).collect()
}

/// What writes an output first: a loop of the folder (its file), or loopconv itself.
#[derive(Clone)]
enum Earlier<'a> {
    Loop(String),
    Reserved(&'a str),
}

/// `B006` on the `name` of `l`, whose output `out` something `earlier` writes too.
fn collision(l: &mut Loaded, earlier: &Earlier, out: &str, what: &str) {
    let (by, note) = match earlier {
        Earlier::Reserved(by) => (by.to_string(), format!("loopconv writes {by} there")),
        // An earlier conversion's output, read back as an input of the folder.
        Earlier::Loop(src) if src == out => (
            src.clone(),
            format!(
                "{src} is an earlier conversion's output, read as an input: leave it out with `--exclude`"
            ),
        ),
        Earlier::Loop(src) => (src.clone(), format!("{src} holds a loop of the same name")),
    };
    let taken = format!("which {by} writes too");
    output_taken(l, what, out, &taken, note);
}

/// `B006` on the `name` of `l`, whose output `out` (a `what`) is taken: `taken` says by
/// what ("which in/one.yaml writes too"), `note` what to do.
pub(super) fn output_taken(l: &mut Loaded, what: &str, out: &str, taken: &str, note: String) {
    let Some(spec) = l.spec.as_ref() else { return };
    let d = diag::Diagnostic::new(
        diag::Code::OutputCollision,
        format!("loop `{}` writes the {what} {out}, {taken}", spec.name),
    )
    .with_note(note)
    .with_help("rename one of the loops, or leave one out with `--exclude`")
    .at(spec.provenance.pointer(loopconv::ir::Field::Name));
    l.diags.push(d);
    l.locate();
    l.diags.sort();
}

/// The order in which to report `n` loaded files: the `first` ones, then the others in
/// order.
pub(super) fn first_then_rest(first: &[usize], n: usize) -> impl Iterator<Item = usize> + '_ {
    let mut is_first = vec![false; n];
    for &i in first {
        is_first[i] = true;
    }
    first
        .iter()
        .copied()
        .chain((0..n).filter(move |&i| !is_first[i]))
}

impl super::io::Written {
    /// Say which links a write replaced, as the command's summary lines (for people only).
    pub(super) fn report(self, g: &Global) {
        for note in self.notes() {
            summary(g, format_args!("{note}"));
        }
    }

    /// Say which links a write replaced on stderr, for a command without diagnostics
    /// options.
    pub(super) fn report_plain(self) {
        for note in self.notes() {
            eprintln!("{note}");
        }
    }
}

/// Say that a document that uses loops (an Agent manifest, a lock) was left out of a
/// command that works on loops: `docs` and folder `convert` say it alike.
pub(super) fn left_out_not_a_loop(g: &Global, name: &str, kind: loopconv::format::DocKind) {
    summary(
        g,
        format_args!(
            "left out {name}: {}, not a loop (`loopconv check` reads it with its loops)",
            kind.with_article()
        ),
    );
}

/// Why a file with errors was left out: its errors, by count and the first one's code and
/// message; `None` when it has none.
pub(super) fn errors_in_brief(l: &Loaded) -> Option<String> {
    let errors: Vec<&diag::Diagnostic> = (l.diags.items().iter())
        .filter(|d| d.severity == diag::Severity::Error)
        .collect();
    errors.first().map(|d| {
        format!(
            "{} error{} (first: {} {})",
            errors.len(),
            plural(errors.len()),
            d.code.as_str(),
            loopconv::text::one_line(&d.message)
        )
    })
}
