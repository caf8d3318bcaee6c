//! Command-line interface: argument types (clap derive) and one function per command.
//!
//! Exit codes: 0 success (warnings allowed), 1 problems found in the input (or warnings
//! under `--strict`, or stale docs under `--check`), 2 usage, I/O or other runtime errors.

use std::io::{IsTerminal as _, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};

use loopconv::back::{self, Target, mermaid::Style};
use loopconv::diag::{self, Diagnostics, Severity};
use loopconv::tree::Limits;
use loopconv::{Format, LoadOptions, Loaded};

// `print!`, `eprint!` and `eprintln!` panic when the stream is a closed pipe
// (`loopconv check --format json dir | head`), which exited with 101. Diagnostics and
// summaries are best effort: a reader that went away just stops receiving them, and the
// exit code still tells the result. (Converted output goes through `emit`, which reports
// a failed write as an I/O error.)
macro_rules! print {
    ($($t:tt)*) => {{
        let _ = write!(std::io::stdout().lock(), $($t)*);
    }};
}
macro_rules! eprint {
    ($($t:tt)*) => {{
        let _ = write!(std::io::stderr().lock(), $($t)*);
    }};
}
macro_rules! eprintln {
    ($($t:tt)*) => {{
        let _ = writeln!(std::io::stderr().lock(), $($t)*);
    }};
}

/// Input had problems.
pub const EXIT_PROBLEMS: u8 = 1;
/// Usage, I/O or runtime error.
pub const EXIT_USAGE: u8 = 2;

/// Read, validate, convert and draw agent-loop specifications (AgentPM loop manifests and
/// multi-agent-spec REAL/VEAL loops).
#[derive(Debug, Parser)]
#[command(name = "loopconv", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    global: Global,
}

#[derive(Debug, Args)]
struct Global {
    /// How to print diagnostics.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human, global = true, help_heading = "Diagnostics")]
    format: MessageFormat,
    /// Treat warnings as errors.
    #[arg(long, global = true, help_heading = "Diagnostics")]
    strict: bool,
    /// Colour in human diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true, help_heading = "Diagnostics")]
    color: Color,
    /// Largest input file accepted, in bytes.
    #[arg(long, default_value_t = Limits::default().max_bytes, global = true, help_heading = "Input")]
    max_input_bytes: usize,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum MessageFormat {
    /// Rendered for people, with source snippets.
    Human,
    /// One JSON array of all diagnostics, on stdout.
    Json,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate loop files (files, or folders searched for *.json, *.yaml, *.yml).
    Check(CheckArgs),
    /// Convert a loop file, or a folder of them, to another format.
    Convert(ConvertArgs),
    /// Draw a loop as a Mermaid, Graphviz or PlantUML diagram.
    Graph(GraphArgs),
    /// Generate Markdown documentation pages for loops.
    Docs(DocsArgs),
    /// Print the JSON Schema of a format.
    Schema(SchemaArgs),
    /// Print the drawing model of a loop as JSON: the nodes and edges every diagram back
    /// end draws, with their text lines as wrapped and shortened (used by
    /// `scripts/conformance.sh` to know which texts a drawing shows whole).
    #[command(hide = true)]
    DiagramModel(DiagramModelArgs),
}

#[derive(Debug, Args)]
struct DiagramModelArgs {
    /// Loop file (`-` for standard input).
    input: PathBuf,
    /// Input format.
    #[arg(long, value_enum, help_heading = "Input")]
    from: Option<Format>,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// Files or folders (`-` for standard input).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Input format.
    #[arg(long, value_enum, help_heading = "Input")]
    from: Option<Format>,
}

#[derive(Debug, Args)]
struct ConvertArgs {
    /// Input file or folder (`-` for standard input).
    input: PathBuf,
    /// Target format.
    #[arg(long, short = 't', value_enum)]
    to: Format,
    /// Output file or folder (`-` or absent: standard output; required for a folder).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Input format.
    #[arg(long, short = 'f', value_enum, help_heading = "Input")]
    from: Option<Format>,
    /// Write even when the target cannot hold some fields (they are reported as warnings).
    #[arg(long)]
    allow_lossy: bool,
    /// MAS `actor` for a loop that does not name one.
    #[arg(long, value_name = "A")]
    actor: Option<String>,
    /// MAS `validator` for a VEAL loop that does not name one.
    #[arg(long, value_name = "V")]
    validator: Option<String>,
    /// MAS `fallback_agent`: escalation to `$handoff` becomes `fallback` to this agent.
    #[arg(long, value_name = "F")]
    fallback_agent: Option<String>,
    /// AgentPM `version` for a loop that has none (default 0.1.0).
    #[arg(long = "version", value_name = "X")]
    pkg_version: Option<String>,
    /// Allow the output path to be the input path.
    #[arg(long)]
    in_place: bool,
}

#[derive(Debug, Args)]
struct GraphArgs {
    /// Loop file (`-` for standard input).
    input: PathBuf,
    /// The diagram language.
    #[arg(long, short = 't', value_parser = diagram_target(), default_value = "mermaid")]
    to: Target,
    /// Mermaid (the default); the same as `--to mermaid`.
    #[arg(long, conflicts_with_all = ["dot", "to"])]
    mermaid: bool,
    /// Graphviz DOT; the same as `--to dot`.
    #[arg(long, conflicts_with = "to")]
    dot: bool,
    /// PlantUML state diagram; the same as `--to plantuml`.
    #[arg(long, conflicts_with_all = ["mermaid", "dot", "to"])]
    plantuml: bool,
    /// Mermaid diagram style.
    #[arg(long, value_enum, default_value_t = Style::Flowchart)]
    style: Style,
    /// Output file (default: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Input format.
    #[arg(long, value_enum, help_heading = "Input")]
    from: Option<Format>,
}

#[derive(Debug, Args)]
struct DocsArgs {
    /// Loop files or folders (searched recursively, skipping sub-folders named `invalid`).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output folder.
    #[arg(long, short = 'o')]
    output: PathBuf,
    /// A minijinja template replacing the built-in page template.
    #[arg(long)]
    template: Option<PathBuf>,
    /// Write nothing; list pages that are missing or stale and exit 1 if any.
    #[arg(long)]
    check: bool,
    /// Input format.
    #[arg(long, value_enum, help_heading = "Input")]
    from: Option<Format>,
}

#[derive(Debug, Args)]
struct SchemaArgs {
    /// The format.
    #[arg(value_enum, value_name = "FORMAT")]
    of: Format,
    /// Output file (default: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

/// The values of `graph --to`: the diagram back ends.
fn diagram_target() -> impl clap::builder::TypedValueParser<Value = Target> {
    use clap::builder::TypedValueParser as _;
    let names: Vec<&'static str> = Target::ALL
        .into_iter()
        .filter(|t| t.is_diagram())
        .map(Target::name)
        .collect();
    clap::builder::PossibleValuesParser::new(names).map(|name| {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == name)
            .unwrap_or(Target::Mermaid)
    })
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    let g = &cli.global;
    match &cli.command {
        Command::Check(a) => check(g, a),
        Command::Convert(a) => convert(g, a),
        Command::Graph(a) => graph(g, a),
        Command::Docs(a) => docs(g, a),
        Command::Schema(a) => schema(a),
        Command::DiagramModel(a) => diagram_model(g, a),
    }
}

fn code(problems: bool) -> ExitCode {
    if problems {
        ExitCode::from(EXIT_PROBLEMS)
    } else {
        ExitCode::SUCCESS
    }
}

fn is_stdio(p: &Path) -> bool {
    p.as_os_str() == "-"
}

fn read_input(path: &Path, limits: &Limits) -> Result<Vec<u8>> {
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
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
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
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), ignore::Error> {
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

fn load_file(g: &Global, path: &Path, from: Option<Format>) -> Result<Loaded> {
    let limits = Limits {
        max_bytes: g.max_input_bytes,
        ..Limits::default()
    };
    let bytes = read_input(path, &limits)?;
    let name = path.display().to_string();
    let mut loaded = loopconv::load(&name, &bytes, &LoadOptions { from, limits });
    if g.strict {
        loaded.diags.make_strict();
    }
    Ok(loaded)
}

fn use_color(g: &Global) -> bool {
    match g.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    }
}

/// Print diagnostics: human form on stderr, JSON (one array) on stdout.
fn report(g: &Global, diags: &Diagnostics, source: Option<&str>) {
    if diags.is_empty() {
        return;
    }
    match g.format {
        MessageFormat::Human => {
            eprint!(
                "{}",
                diag::render_human(diags.items(), source, use_color(g))
            );
        }
        MessageFormat::Json => {
            print!("{}", diag::render_json(diags.items()));
        }
    }
}

fn report_loaded(g: &Global, l: &Loaded) {
    report(g, &l.diags, l.text());
}

fn check(g: &Global, a: &CheckArgs) -> Result<ExitCode> {
    let files = expand(&a.paths)?;
    let (mut errors, mut warnings, mut bad_files) = (0, 0, 0);
    let mut all = Vec::new();
    for f in &files {
        let l = load_file(g, f, a.from)?;
        match g.format {
            MessageFormat::Human => report_loaded(g, &l),
            MessageFormat::Json => all.extend(l.diags.items().iter().cloned()),
        }
        errors += l.diags.count(Severity::Error);
        warnings += l.diags.count(Severity::Warning);
        bad_files += usize::from(l.diags.has_errors());
    }
    if matches!(g.format, MessageFormat::Json) {
        // One JSON array for the whole run, so the output is one JSON document.
        print!("{}", diag::render_json(&all));
    } else {
        eprintln!(
            "checked {} file{}: {} with errors, {errors} error{}, {warnings} warning{}",
            files.len(),
            plural(files.len()),
            bad_files,
            plural(errors),
            plural(warnings)
        );
    }
    Ok(code(errors > 0))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Write `text` to `path` atomically: a temporary file in the same folder, renamed into
/// place, so a failure or an interrupt never leaves a partial file.
fn write_atomic(path: &Path, text: &str) -> Result<()> {
    write_all_atomic(&[(path.to_path_buf(), text.to_owned())])
}

/// Write several files, all or none: every file is first written in full to a temporary file
/// beside its destination; only when all of them are written are they renamed into place.
/// A failure before that point removes the temporary files and leaves the targets as they
/// were.
fn write_all_atomic(files: &[(PathBuf, String)]) -> Result<()> {
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
fn emit(output: Option<&Path>, text: &str) -> Result<()> {
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

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

fn convert_opts(a: &ConvertArgs) -> back::Options {
    back::Options {
        allow_lossy: a.allow_lossy,
        actor: a.actor.clone(),
        validator: a.validator.clone(),
        fallback_agent: a.fallback_agent.clone(),
        version: a.pkg_version.clone(),
        ..back::Options::default()
    }
}

/// Convert one loaded file; `None` when it cannot be converted (diagnostics say why).
fn convert_loaded(l: &mut Loaded, to: Format, opts: &back::Options) -> Result<Option<String>> {
    if l.valid().is_none() {
        return Ok(None);
    }
    let (Some(spec), Some(info)) = (&l.spec, &l.info) else {
        return Ok(None);
    };
    let text = to.write(spec, info, opts, &mut l.diags)?;
    if let Some(doc) = &l.doc {
        l.diags.locate_missing(doc);
    }
    l.diags.sort();
    Ok((!l.diags.has_errors()).then_some(text))
}

fn convert(g: &Global, a: &ConvertArgs) -> Result<ExitCode> {
    let to = a.to;
    let opts = convert_opts(a);
    if !is_stdio(&a.input) && a.input.is_dir() {
        return convert_folder(g, a, to, &opts);
    }
    if let Some(out) = &a.output
        && !is_stdio(out)
        && !a.in_place
        && same_file(&a.input, out)
    {
        bail!(
            "the output {} is the input file; refusing to overwrite it (pass --in-place to allow)",
            out.display()
        );
    }
    let mut l = load_file(g, &a.input, a.from)?;
    let text = convert_loaded(&mut l, to, &opts)?;
    if g.strict {
        l.diags.make_strict();
    }
    report_loaded(g, &l);
    match text {
        Some(t) if !l.diags.has_errors() => {
            emit(a.output.as_deref(), &t)?;
            Ok(ExitCode::SUCCESS)
        }
        _ => Ok(ExitCode::from(EXIT_PROBLEMS)),
    }
}

/// Where a converted file goes in the mirrored output folder.
fn mirrored(root: &Path, file: &Path, out: &Path, to: Format, name: &str) -> PathBuf {
    let rel = file.strip_prefix(root).unwrap_or(file);
    let mut dir = rel.parent().map(Path::to_path_buf).unwrap_or_default();
    // An AgentPM package folder (`pkg/agent.json`) is replaced by the new file or folder.
    let name_of = |f: Format| {
        rel.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| f.is_package_file(n))
    };
    if Format::ALL.into_iter().any(name_of) {
        dir = dir.parent().map(Path::to_path_buf).unwrap_or_default();
    }
    out.join(dir).join(to.file_in_folder(name))
}

fn convert_folder(
    g: &Global,
    a: &ConvertArgs,
    to: Format,
    opts: &back::Options,
) -> Result<ExitCode> {
    let Some(out) = a.output.as_deref().filter(|o| !is_stdio(o)) else {
        bail!("converting a folder needs an output folder: pass -o DIR");
    };
    if same_file(&a.input, out) && !a.in_place {
        bail!(
            "the output folder is the input folder; refusing to write into it (pass --in-place to allow)"
        );
    }
    let files = expand(std::slice::from_ref(&a.input))?;
    // (destination, text, source)
    let mut planned: Vec<(PathBuf, String, String)> = Vec::new();
    let (mut ok, mut lossy, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    for f in &files {
        let mut l = load_file(g, f, a.from)?;
        let text = convert_loaded(&mut l, to, opts)?;
        if g.strict {
            l.diags.make_strict();
        }
        report_loaded(g, &l);
        match (text, &l.spec) {
            (Some(t), Some(spec)) if !l.diags.has_errors() => {
                let dest = mirrored(&a.input, f, out, to, &spec.name);
                if let Some((_, _, prev)) = planned.iter().find(|(p, _, _)| *p == dest) {
                    eprintln!(
                        "error: {} and {} both convert to {}",
                        prev,
                        f.display(),
                        dest.display()
                    );
                    failed.push(f.display().to_string());
                    continue;
                }
                if same_file(f, &dest) && !a.in_place {
                    bail!(
                        "{} would overwrite its input (pass --in-place to allow)",
                        dest.display()
                    );
                }
                if l.diags
                    .items()
                    .iter()
                    .any(|d| d.code.as_str().starts_with('B'))
                {
                    lossy.push(f.display().to_string());
                }
                ok.push(f.display().to_string());
                planned.push((dest, t, f.display().to_string()));
            }
            _ => failed.push(f.display().to_string()),
        }
    }
    if !failed.is_empty() {
        eprintln!(
            "converted nothing: {} of {} file{} failed ({}); no file was written",
            failed.len(),
            files.len(),
            plural(files.len()),
            failed.join(", ")
        );
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    }
    let outputs: Vec<(PathBuf, String)> = planned.into_iter().map(|(d, t, _)| (d, t)).collect();
    write_all_atomic(&outputs)?;
    eprintln!(
        "converted {} file{} to {} in {} ({} lossy{})",
        ok.len(),
        plural(ok.len()),
        to.name(),
        out.display(),
        lossy.len(),
        if lossy.is_empty() {
            String::new()
        } else {
            format!(": {}", lossy.join(", "))
        }
    );
    Ok(ExitCode::SUCCESS)
}

fn graph(g: &Global, a: &GraphArgs) -> Result<ExitCode> {
    let l = load_file(g, &a.input, a.from)?;
    report_loaded(g, &l);
    let Some((spec, info)) = l.valid() else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let target = match (a.mermaid, a.dot, a.plantuml) {
        (true, _, _) => Target::Mermaid,
        (_, true, _) => Target::Dot,
        (_, _, true) => Target::PlantUml,
        _ => a.to,
    };
    let opts = back::Options {
        style: a.style,
        ..back::Options::default()
    };
    let mut diags = Diagnostics::new(l.diags.file());
    let text = back::write(target, spec, info, &opts, &mut diags)?;
    emit(a.output.as_deref(), &text)?;
    Ok(ExitCode::SUCCESS)
}

/// The loop files to document: files as given; in a folder, every loop file except those
/// under an `invalid` sub-folder (inputs that must fail, like `examples/invalid/`), so that
/// `loopconv docs examples` documents the valid examples.
fn docs_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        let walked = !is_stdio(p) && p.is_dir();
        out.extend(expand(std::slice::from_ref(p))?.into_iter().filter(|f| {
            !walked
                || !f
                    .strip_prefix(p)
                    .is_ok_and(|rel| rel.components().any(|c| c.as_os_str() == "invalid"))
        }));
    }
    Ok(out)
}

fn docs(g: &Global, a: &DocsArgs) -> Result<ExitCode> {
    let template = match &a.template {
        Some(p) => Some(
            std::fs::read_to_string(p)
                .with_context(|| format!("reading template {}", p.display()))?,
        ),
        None => None,
    };
    let opts = back::Options {
        template,
        ..back::Options::default()
    };
    let Some(pages) = docs_pages(g, a, &opts)? else {
        eprintln!("no page was written: fix the errors above first");
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    if a.check {
        return Ok(code(!pages_up_to_date(&pages, &a.output)));
    }
    let outputs: Vec<(PathBuf, String)> = pages
        .iter()
        .map(|(n, t)| (a.output.join(n), t.clone()))
        .collect();
    write_all_atomic(&outputs)?;
    eprintln!(
        "wrote {} page{} to {}",
        pages.len(),
        plural(pages.len()),
        a.output.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Every page (file name, text) and the index; `None` when a loop has errors or two loops
/// share a name (reported).
fn docs_pages(
    g: &Global,
    a: &DocsArgs,
    opts: &back::Options,
) -> Result<Option<Vec<(String, String)>>> {
    let mut pages: Vec<(String, String)> = Vec::new();
    let mut entries = Vec::new();
    let mut failed = false;
    for f in &docs_files(&a.paths)? {
        let l = load_file(g, f, a.from)?;
        report_loaded(g, &l);
        let Some((spec, info)) = l.valid() else {
            failed = true;
            continue;
        };
        let file_name = format!("{}.md", spec.name);
        if pages.iter().any(|(n, _)| *n == file_name) {
            eprintln!(
                "error: two loops are named `{}`; {} would overwrite a page",
                spec.name,
                f.display()
            );
            failed = true;
            continue;
        }
        let source = f.display().to_string();
        let page_opts = back::Options {
            source: source.clone(),
            ..opts.clone()
        };
        let mut diags = Diagnostics::new(&source);
        let text = back::write(Target::Markdown, spec, info, &page_opts, &mut diags)?;
        entries.push(back::markdown::IndexEntry {
            name: spec.name.clone(),
            file_name: file_name.clone(),
            description: spec.description.clone(),
            source,
        });
        pages.push((file_name, text));
    }
    if failed {
        return Ok(None);
    }
    pages.push(("index.md".to_owned(), back::markdown::index(&entries)?));
    Ok(Some(pages))
}

/// `docs --check`: list stale, missing and orphaned pages; true when there are none.
fn pages_up_to_date(pages: &[(String, String)], dir: &Path) -> bool {
    let mut stale = Vec::new();
    for (name, text) in pages {
        let path = dir.join(name);
        match std::fs::read_to_string(&path) {
            Ok(old) if old == *text => {}
            Ok(_) => stale.push(format!("stale: {}", path.display())),
            Err(_) => stale.push(format!("missing: {}", path.display())),
        }
    }
    // A page whose loop is gone is stale too.
    stale.extend(
        orphaned_pages(pages, dir)
            .iter()
            .map(|p| format!("orphaned: {} (no loop generates it)", p.display())),
    );
    for s in &stale {
        eprintln!("{s}");
    }
    if stale.is_empty() {
        eprintln!(
            "docs are up to date: {} page{} in {}",
            pages.len(),
            plural(pages.len()),
            dir.display()
        );
    } else {
        eprintln!(
            "{} page{} out of date; run `loopconv docs` without --check",
            stale.len(),
            plural(stale.len())
        );
    }
    stale.is_empty()
}

/// `*.md` files in `dir` that no loop generates, sorted.
fn orphaned_pages(pages: &[(String, String)], dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut extra: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| !pages.iter().any(|(name, _)| n == name.as_str()))
        })
        .collect();
    extra.sort();
    extra
}

fn diagram_model(g: &Global, a: &DiagramModelArgs) -> Result<ExitCode> {
    let l = load_file(g, &a.input, a.from)?;
    report_loaded(g, &l);
    let Some((spec, info)) = l.valid() else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let model = back::diagram::Diagram::new(spec, info);
    let mut text = serde_json::to_string_pretty(&model)?;
    text.push('\n');
    emit(None, &text)?;
    Ok(ExitCode::SUCCESS)
}

fn schema(a: &SchemaArgs) -> Result<ExitCode> {
    emit(a.output.as_deref(), &back::schema::schema_text(a.of)?)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }
}
