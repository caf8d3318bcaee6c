//! The configuration file, found as ruff finds its own: `loopconv.toml`, `.loopconv.toml`
//! or the `[tool.loopconv]` table of a `pyproject.toml`, in the folder of the first input
//! or the nearest folder above it (`--config FILE` names one, `--isolated` reads none).
//!
//! Every setting is also a flag, and a flag wins over the file: `include`/`exclude`
//! (globs, relative to the file's folder), `ignore`/`select` (codes of warnings and notes:
//! an error that makes a loop unreadable cannot be silenced), `per-file-ignores`,
//! `strict`, `runtime-max-steps`, `format`, `color`, `skip-unknown`. The guide's
//! Configuration chapter (`docs/src/configuration.md`) and the schema
//! (`schemas/loopconv-config.schema.json`) describe the same keys; a test keeps them
//! together.
//!
//! A mistake in the file is a usage error (exit 2) shown as located diagnostics: file,
//! line, column and a code of its own (`C001`-`C006`), with a did-you-mean for an unknown
//! key or code.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Result, anyhow};
use clap::Args;
use globset::{GlobSet, GlobSetBuilder};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use loopconv::diag::{Code, Diagnostic, Diagnostics, Severity, docs};

/// The file names searched in each folder, in this order (ruff's order: the dedicated
/// files before `pyproject.toml`).
pub(super) const FILE_NAMES: [&str; 3] = ["loopconv.toml", ".loopconv.toml", "pyproject.toml"];

/// Every key of the file, with what its value is (for the did-you-mean and the guide).
pub(super) const KEYS: [(&str, &str); 10] = [
    (
        "include",
        "globs of the files to read when a folder is searched",
    ),
    (
        "exclude",
        "globs of the files and folders to skip when a folder is searched",
    ),
    (
        "ignore",
        "codes (or names) of warnings and notes never reported",
    ),
    ("select", "the only codes of warnings and notes reported"),
    (
        "per-file-ignores",
        "a table: glob -> codes ignored in the files it matches",
    ),
    ("strict", "treat warnings as errors"),
    (
        "runtime-max-steps",
        "the runtime's step ceiling of `walk` and `paths`",
    ),
    (
        "format",
        "how diagnostics are printed: human, json, sarif or github",
    ),
    (
        "color",
        "colour in human diagnostics: auto, always or never",
    ),
    (
        "skip-unknown",
        "`check` skips a named file that is no loop (as the hooks do)",
    ),
];

/// The configuration flags every reading command takes.
#[derive(Debug, Default, Clone, Args)]
pub(crate) struct ConfigArgs {
    /// Read the settings from FILE (a `loopconv.toml`, or a `pyproject.toml` with a
    /// `[tool.loopconv]` table) instead of searching for one.
    #[arg(
        long,
        value_name = "FILE",
        help_heading = "Configuration",
        conflicts_with = "isolated"
    )]
    config: Option<PathBuf>,
    /// Read no configuration file: only the flags count.
    #[arg(long, help_heading = "Configuration")]
    isolated: bool,
    /// Do not report these warnings or notes (codes or names, comma-separated or
    /// repeated; `--ignore F015`). Errors cannot be ignored.
    #[arg(
        long,
        value_name = "CODE",
        value_delimiter = ',',
        help_heading = "Configuration"
    )]
    ignore: Vec<String>,
    /// Report only these warnings and notes (errors are always reported).
    #[arg(
        long,
        value_name = "CODE",
        value_delimiter = ',',
        help_heading = "Configuration"
    )]
    select: Vec<String>,
    /// Ignore codes in the files a glob matches: `GLOB=CODE[,CODE...]` (relative to the
    /// current folder; repeatable).
    #[arg(long, value_name = "GLOB=CODES", help_heading = "Configuration")]
    per_file_ignores: Vec<String>,
}

/// The settings of a run: the configuration file's, overridden by the flags.
#[derive(Debug, Default, Clone)]
pub(crate) struct Settings {
    /// The file read, if any.
    pub(super) file: Option<PathBuf>,
    /// Codes never reported.
    ignore: Vec<Code>,
    /// When set, the only warnings and notes reported.
    select: Option<Vec<Code>>,
    /// Codes ignored in the files a glob matches.
    per_file: Vec<(Matcher, Vec<Code>)>,
    /// `include` and `exclude` of the file (the flags' are the search's overrides).
    pub(super) paths: Option<Arc<PathRules>>,
    /// `strict = true`.
    pub(super) strict: bool,
    /// `runtime-max-steps`.
    pub(super) runtime_max_steps: Option<u64>,
    /// `format`.
    pub(super) format: Option<super::MessageFormat>,
    /// `color`.
    pub(super) color: Option<super::Color>,
    /// `skip-unknown = true`.
    pub(super) skip_unknown: bool,
}

/// Globs matched against a path relative to a folder (the configuration file's, or the
/// current folder for `--per-file-ignores`): a glob without `/` matches a file or folder
/// name at any depth, one with `/` the whole relative path (`*` stays within a name,
/// `**` crosses folders).
#[derive(Debug, Clone)]
pub(crate) struct Matcher {
    base: PathBuf,
    names: GlobSet,
    paths: GlobSet,
}

impl Matcher {
    fn new(base: &Path, globs: &[&str]) -> std::result::Result<Matcher, (usize, String)> {
        let (mut names, mut paths) = (GlobSetBuilder::new(), GlobSetBuilder::new());
        for (i, g) in globs.iter().enumerate() {
            let trimmed = g.trim_start_matches("./").trim_end_matches('/');
            let glob = globset::GlobBuilder::new(trimmed.trim_start_matches('/'))
                .literal_separator(true)
                .build()
                .map_err(|e| (i, e.kind().to_string()))?;
            if trimmed.contains('/') {
                paths.add(glob);
            } else {
                names.add(glob);
            }
        }
        Ok(Matcher {
            base: base.to_path_buf(),
            names: names.build().map_err(|e| (0, e.to_string()))?,
            paths: paths.build().map_err(|e| (0, e.to_string()))?,
        })
    }

    /// `path` relative to the base, when it is below it.
    fn relative(&self, path: &Path) -> Option<PathBuf> {
        let abs = std::path::absolute(path).ok()?;
        abs.strip_prefix(&self.base).ok().map(Path::to_path_buf)
    }

    /// Whether the glob matches the file itself (its name or its whole relative path).
    fn matches_file(&self, path: &Path) -> bool {
        let Some(rel) = self.relative(path) else {
            return false;
        };
        self.paths.is_match(&rel) || rel.file_name().is_some_and(|n| self.names.is_match(n))
    }

    /// Whether the glob matches the file or a folder it is in (below the base).
    fn matches_file_or_folder(&self, path: &Path) -> bool {
        let Some(rel) = self.relative(path) else {
            return false;
        };
        rel.ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .any(|a| {
                self.paths.is_match(a) || a.file_name().is_some_and(|n| self.names.is_match(n))
            })
    }
}

/// The file's `include` and `exclude`, applied to the files a folder search finds.
#[derive(Debug, Clone)]
pub(crate) struct PathRules {
    include: Option<Matcher>,
    exclude: Option<Matcher>,
}

impl PathRules {
    /// Whether a file found by searching a folder is read.
    pub(super) fn admits(&self, path: &Path) -> bool {
        self.include.as_ref().is_none_or(|m| m.matches_file(path))
            && !self
                .exclude
                .as_ref()
                .is_some_and(|m| m.matches_file_or_folder(path))
    }
}

impl Settings {
    /// Drop the diagnostics the settings silence in `path`'s file. Errors are never
    /// dropped (the file and the flags cannot name one).
    pub(super) fn filter(&self, diags: Diagnostics, path: Option<&Path>) -> Diagnostics {
        let per_file = self.per_file_codes(path);
        let silenced = |d: &Diagnostic| self.silenced_with(d, &per_file);
        if !diags.items().iter().any(silenced) {
            return diags;
        }
        let mut out = Diagnostics::new(diags.file());
        for d in diags.into_items() {
            if !silenced(&d) {
                out.push(d);
            }
        }
        out
    }
}

impl Settings {
    /// Whether the settings silence `d` in `path`'s file (errors never).
    pub(super) fn silences(&self, d: &Diagnostic, path: Option<&Path>) -> bool {
        self.silenced_with(d, &self.per_file_codes(path))
    }

    fn per_file_codes(&self, path: Option<&Path>) -> Vec<Code> {
        match path {
            Some(p) => (self.per_file.iter())
                .filter(|(m, _)| m.matches_file(p))
                .flat_map(|(_, c)| c.iter().copied())
                .collect(),
            None => Vec::new(),
        }
    }

    /// By the code's own severity: a warning made an error by `--strict` can still be
    /// ignored, an error never.
    fn silenced_with(&self, d: &Diagnostic, per_file: &[Code]) -> bool {
        d.code.severity() != Severity::Error
            && (self.ignore.contains(&d.code)
                || per_file.contains(&d.code)
                || self.select.as_ref().is_some_and(|s| !s.contains(&d.code)))
    }
}

/// The settings of a run whose first input is `first` (`None` or `-`: the current
/// folder): the configuration file found (or named), then the flags over it. A mistake
/// in the file or a flag is printed (located, for the file) and is a usage error.
pub(super) fn settings(args: &ConfigArgs, first: Option<&Path>, color: bool) -> Result<Settings> {
    let mut s = Settings::default();
    let found = if args.isolated {
        None
    } else if let Some(f) = &args.config {
        if !f.is_file() {
            return Err(anyhow!("--config {}: no such file", f.display()));
        }
        Some(f.clone())
    } else {
        find(first)
    };
    if let Some(file) = found {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| anyhow!("reading {}: {}", file.display(), super::io::plain_io(&e)))?;
        let problems = read_file(&file, &text, &mut s);
        if !problems.is_empty() {
            let name = file.display().to_string();
            eprint_problems(&name, &text, &problems, color);
            return Err(anyhow!(
                "{name}: the configuration has {} (fix it, or pass --isolated to read none)",
                loopconv::text::count(problems.len(), "problem", "problems")
            ));
        }
        s.file = Some(file);
    }
    flags(args, &mut s)?;
    Ok(s)
}

/// The configuration file nearest to `first`: in its folder (a folder's own, for a
/// folder), then each folder above. A `pyproject.toml` counts only with a
/// `[tool.loopconv]` table.
fn find(first: Option<&Path>) -> Option<PathBuf> {
    let start = match first {
        Some(p) if !super::io::is_stdio(p) => {
            if p.is_dir() {
                p.to_path_buf()
            } else {
                p.parent().map(Path::to_path_buf).unwrap_or_default()
            }
        }
        _ => PathBuf::new(),
    };
    let start = if start.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        start
    };
    let start = std::path::absolute(&start).ok()?;
    for dir in start.ancestors() {
        for name in FILE_NAMES {
            let f = dir.join(name);
            if !f.is_file() {
                continue;
            }
            if name != "pyproject.toml" || has_tool_table(&f) {
                // Named from the current folder when it is below it, as inputs are.
                let cwd = std::path::absolute(".").ok();
                let short = cwd.and_then(|c| f.strip_prefix(c).ok().map(Path::to_path_buf));
                return Some(short.unwrap_or(f));
            }
        }
    }
    None
}

/// Whether a `pyproject.toml` has a `[tool.loopconv]` table (an unreadable one has none:
/// it is not loopconv's to judge).
fn has_tool_table(f: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(f) else {
        return false;
    };
    let Ok(doc) = DeTable::parse(&text) else {
        // A broken pyproject.toml that names the table is read, and its error shown.
        return text.contains("[tool.loopconv]");
    };
    tool_table(doc.get_ref()).is_some()
}

/// `tool.loopconv` of a parsed `pyproject.toml`.
fn tool_table<'a, 'i>(doc: &'a DeTable<'i>) -> Option<&'a Spanned<DeValue<'i>>> {
    let tool = doc.get("tool")?.get_ref().as_table()?;
    tool.get("loopconv")
}

/// A problem in the configuration file: a code of its own, a message, where, and help.
#[derive(Debug)]
pub(super) struct Problem {
    pub(super) code: &'static str,
    pub(super) message: String,
    pub(super) span: Range<usize>,
    pub(super) help: Option<String>,
}

impl Problem {
    fn new(code: &'static str, message: String, span: Range<usize>) -> Problem {
        Problem {
            code,
            message,
            span,
            help: None,
        }
    }

    fn help(mut self, help: impl Into<String>) -> Problem {
        self.help = Some(help.into());
        self
    }
}

/// The configuration's codes (not loop diagnostics: a mistake here is a usage error).
pub(super) const CODES: [(&str, &str); 6] = [
    ("C001", "the configuration file is not valid TOML"),
    ("C002", "a key that the configuration does not define"),
    ("C003", "a setting has the wrong type or value"),
    (
        "C004",
        "a code in `ignore`, `select` or `per-file-ignores` names no diagnostic",
    ),
    (
        "C005",
        "an error's code in `ignore`, `select` or `per-file-ignores`: errors cannot be silenced",
    ),
    ("C006", "a glob that is not valid"),
];

/// Read the settings of a configuration file's text into `s`; the problems found.
pub(super) fn read_file(file: &Path, text: &str, s: &mut Settings) -> Vec<Problem> {
    let doc = match DeTable::parse(text) {
        Ok(doc) => doc,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            return vec![Problem::new("C001", one_line(e.message()), span)];
        }
    };
    let base = std::path::absolute(file)
        .ok()
        .and_then(|f| f.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    let is_pyproject = file.file_name().is_some_and(|n| n == "pyproject.toml");
    let mut problems = Vec::new();
    if is_pyproject {
        // Named with --config, a pyproject.toml without the table sets nothing.
        if let Some(t) = tool_table(doc.get_ref()) {
            match t.get_ref().as_table() {
                Some(table) => read_table(table, &base, s, &mut problems),
                None => problems.push(Problem::new(
                    "C003",
                    "`tool.loopconv` must be a table".into(),
                    t.span(),
                )),
            }
        }
    } else {
        read_table(doc.get_ref(), &base, s, &mut problems);
    }
    problems.sort_by_key(|p| (p.span.start, p.code));
    problems
}

fn read_table(t: &DeTable<'_>, base: &Path, s: &mut Settings, problems: &mut Vec<Problem>) {
    let mut include = None;
    let mut exclude = None;
    for (key, value) in t {
        let span = value.span();
        let v = value.get_ref();
        match key.get_ref().as_ref() {
            "include" => include = globs(v, span, base, problems),
            "exclude" => exclude = globs(v, span, base, problems),
            "ignore" => s.ignore = codes(v, span, problems),
            "select" => s.select = Some(codes(v, span, problems)),
            "per-file-ignores" => match v.as_table() {
                Some(table) => {
                    for (glob, codes_value) in table {
                        let m = Matcher::new(base, &[glob.get_ref().as_ref()]);
                        let c = codes(codes_value.get_ref(), codes_value.span(), problems);
                        match m {
                            Ok(m) => s.per_file.push((m, c)),
                            Err((_, why)) => {
                                problems.push(bad_glob(glob.get_ref(), &why, glob.span()))
                            }
                        }
                    }
                }
                None => problems.push(wrong_type(
                    "per-file-ignores",
                    "a table of glob = [codes]",
                    v,
                    span,
                )),
            },
            "strict" => match v.as_bool() {
                Some(b) => s.strict = b,
                None => problems.push(wrong_type("strict", "true or false", v, span)),
            },
            "skip-unknown" => match v.as_bool() {
                Some(b) => s.skip_unknown = b,
                None => problems.push(wrong_type("skip-unknown", "true or false", v, span)),
            },
            "runtime-max-steps" => {
                match v
                    .as_integer()
                    .and_then(|i| i.as_str().replace('_', "").parse::<u64>().ok())
                {
                    Some(n) if n >= 1 && v.as_integer().is_some_and(|i| i.radix() == 10) => {
                        s.runtime_max_steps = Some(n);
                    }
                    _ => problems.push(wrong_type(
                        "runtime-max-steps",
                        "a whole number of at least 1",
                        v,
                        span,
                    )),
                }
            }
            "format" => match v.as_str().and_then(message_format) {
                Some(f) => s.format = Some(f),
                None => problems.push(wrong_type(
                    "format",
                    "\"human\", \"json\", \"sarif\" or \"github\"",
                    v,
                    span,
                )),
            },
            "color" => match v.as_str() {
                Some("auto") => s.color = Some(super::Color::Auto),
                Some("always") => s.color = Some(super::Color::Always),
                Some("never") => s.color = Some(super::Color::Never),
                _ => problems.push(wrong_type(
                    "color",
                    "\"auto\", \"always\" or \"never\"",
                    v,
                    span,
                )),
            },
            other => {
                let mut p = Problem::new("C002", format!("unknown key `{other}`"), key.span());
                let keys: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
                p = match did_you_mean(other, keys.iter().copied()) {
                    Some(k) => p.help(format!("did you mean `{k}`?")),
                    None => p.help(format!("the keys are {}", keys.join(", "))),
                };
                problems.push(p);
            }
        }
    }
    if include.is_some() || exclude.is_some() {
        s.paths = Some(Arc::new(PathRules { include, exclude }));
    }
}

/// A `format` value: the `--format` values that make sense for every command.
fn message_format(s: &str) -> Option<super::MessageFormat> {
    use super::MessageFormat as F;
    match s {
        "human" | "text" => Some(F::Human),
        "json" => Some(F::Json),
        "sarif" => Some(F::Sarif),
        "github" => Some(F::Github),
        _ => None,
    }
}

fn wrong_type(key: &str, expected: &str, v: &DeValue<'_>, span: Range<usize>) -> Problem {
    let found = match v {
        DeValue::String(s) => format!("the string \"{}\"", one_line(s)),
        DeValue::Integer(i) => format!("the integer {}", i.as_str()),
        other => format!("a {}", other.type_str()),
    };
    Problem::new(
        "C003",
        format!("`{key}` must be {expected}, not {found}"),
        span,
    )
}

fn bad_glob(glob: &str, why: &str, span: Range<usize>) -> Problem {
    Problem::new(
        "C006",
        format!("`{}` is not a valid glob: {why}", one_line(glob)),
        span,
    )
}

/// An array of strings' items with their spans, or a problem.
fn strings<'a>(
    v: &'a DeValue<'_>,
    span: Range<usize>,
    what: &str,
    problems: &mut Vec<Problem>,
) -> Vec<(&'a str, Range<usize>)> {
    let Some(items) = v.as_array() else {
        problems.push(Problem::new(
            "C003",
            format!("{what} must be an array of strings, not a {}", v.type_str()),
            span,
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items.iter() {
        match item.get_ref().as_str() {
            Some(s) => out.push((s, item.span())),
            None => problems.push(Problem::new(
                "C003",
                format!("{what} holds strings, not a {}", item.get_ref().type_str()),
                item.span(),
            )),
        }
    }
    out
}

fn globs(
    v: &DeValue<'_>,
    span: Range<usize>,
    base: &Path,
    problems: &mut Vec<Problem>,
) -> Option<Matcher> {
    let items = strings(v, span, "a list of globs", problems);
    let mut ok = Vec::new();
    for (g, span) in &items {
        match Matcher::new(base, &[g]) {
            Ok(_) => ok.push(*g),
            Err((_, why)) => problems.push(bad_glob(g, &why, span.clone())),
        }
    }
    Matcher::new(base, &ok).ok()
}

/// The codes of a list, each a warning's or a note's; a problem for any other.
fn codes(v: &DeValue<'_>, span: Range<usize>, problems: &mut Vec<Problem>) -> Vec<Code> {
    let mut out = Vec::new();
    for (text, span) in strings(v, span, "a list of codes", problems) {
        match code(text) {
            Ok(c) => out.push(c),
            Err(p) => problems.push(Problem { span, ..p }),
        }
    }
    out
}

/// A code that may be silenced, by its string or name; the problem otherwise (its span
/// to be set by the caller).
pub(super) fn code(text: &str) -> std::result::Result<Code, Problem> {
    let Some(c) = docs::lookup(text) else {
        let all = Code::ALL.iter().flat_map(|c| [c.as_str(), c.name()]);
        let mut p = Problem::new(
            "C004",
            format!("`{}` is not a loopconv code or name", one_line(text)),
            0..0,
        );
        p = match did_you_mean(text, all) {
            Some(s) => p.help(format!(
                "did you mean `{s}`? (`loopconv explain` lists every code)"
            )),
            None => p.help("`loopconv explain` lists every code"),
        };
        return Err(p);
    };
    if c.severity() == Severity::Error {
        let mut p = Problem::new(
            "C005",
            format!(
                "{} ({}) is an error, and an error cannot be silenced: it means the loop cannot be read as written",
                c.as_str(),
                c.name()
            ),
            0..0,
        );
        p = if c.is_loss() {
            p.help("a conversion's losses are allowed with `convert --allow-lossy`")
        } else {
            p.help(format!("fix the input (`loopconv explain {}` says how); only warnings and notes can be ignored", c.as_str()))
        };
        return Err(p);
    }
    Ok(c)
}

/// The closest of `candidates` to `word`, when it is close enough to be a typo.
fn did_you_mean<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let w = word.to_ascii_lowercase();
    candidates
        .map(|c| (strsim::jaro_winkler(&w, &c.to_ascii_lowercase()), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// The flags, over the file's settings (a flag's list replaces the file's).
fn flags(args: &ConfigArgs, s: &mut Settings) -> Result<()> {
    let flag_codes = |flag: &str, list: &[String]| -> Result<Vec<Code>> {
        list.iter()
            .map(|t| {
                code(t).map_err(|p| {
                    let help = p.help.map(|h| format!(" ({h})")).unwrap_or_default();
                    anyhow!("--{flag} {t}: {}{help}", p.message)
                })
            })
            .collect()
    };
    if !args.ignore.is_empty() {
        s.ignore.extend(flag_codes("ignore", &args.ignore)?);
    }
    if !args.select.is_empty() {
        s.select = Some(flag_codes("select", &args.select)?);
    }
    let cwd = std::path::absolute(".")?;
    for spec in &args.per_file_ignores {
        let Some((glob, list)) = spec.split_once('=') else {
            return Err(anyhow!(
                "--per-file-ignores {spec}: write GLOB=CODE[,CODE...] (`--per-file-ignores 'hostile/**=F015'`)"
            ));
        };
        let m = Matcher::new(&cwd, &[glob]).map_err(|(_, why)| {
            anyhow!("--per-file-ignores {spec}: `{glob}` is not a valid glob: {why}")
        })?;
        let list: Vec<String> = list.split(',').map(str::to_owned).collect();
        s.per_file.push((m, flag_codes("per-file-ignores", &list)?));
    }
    Ok(())
}

/// A text on one line (a key or value quoted in a message).
fn one_line(s: &str) -> String {
    loopconv::text::one_line(s).into_owned()
}

/// Print the problems of a configuration file, each with its lines, on stderr.
fn eprint_problems(name: &str, text: &str, problems: &[Problem], color: bool) {
    use codespan_reporting::diagnostic::{Diagnostic as Cs, Label};
    use codespan_reporting::files::SimpleFile;
    use codespan_reporting::term::{self, termcolor};

    let file = SimpleFile::new(name, text);
    let mut buf = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    let config = term::Config::default();
    for p in problems {
        let end = p.span.end.min(text.len());
        let start = p.span.start.min(end);
        let mut d = Cs::error()
            .with_code(p.code)
            .with_message(&p.message)
            .with_labels(vec![Label::primary((), start..end)]);
        if let Some(h) = &p.help {
            d = d.with_notes(vec![format!("help: {h}")]);
        }
        let _ = term::emit(&mut buf, &config, &file, &d);
    }
    super::report::eprint!("{}", String::from_utf8_lossy(buf.as_slice()));
}

#[cfg(test)]
mod tests {
    use super::Code;

    use super::{CODES, KEYS, Path, Problem, Settings, read_file};
    fn read(text: &str) -> (Settings, Vec<Problem>) {
        let mut s = Settings::default();
        let p = read_file(Path::new("/tmp/x/loopconv.toml"), text, &mut s);
        (s, p)
    }

    #[test]
    fn a_valid_file() {
        let (s, p) = read(
            "include = [\"loops/**\"]\nignore = [\"F015\", \"json-float-integer\"]\nstrict = true\n\
             runtime-max-steps = 50\nformat = \"json\"\n[per-file-ignores]\n\"hostile/**\" = [\"F016\"]\n",
        );
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(s.ignore, vec![Code::YamlPortSchema, Code::JsonFloatInteger]);
        assert!(s.strict);
        assert_eq!(s.runtime_max_steps, Some(50));
        assert_eq!(s.per_file.len(), 1);
        let rules = s.paths.expect("include");
        assert!(rules.admits(Path::new("/tmp/x/loops/a/b.json")));
        assert!(!rules.admits(Path::new("/tmp/x/package.json")));
    }

    #[test]
    fn mistakes_are_located_with_codes() {
        let text = "ignor = [\"F015\"]\nignore = [\"V012\", \"F01\"]\nstrict = \"yes\"\nexclude = [\"a/[\"]\n";
        let (_, p) = read(text);
        let got: Vec<(&str, &str)> = p.iter().map(|p| (p.code, &text[p.span.clone()])).collect();
        assert_eq!(
            got,
            [
                ("C002", "ignor"),
                ("C005", "\"V012\""),
                ("C004", "\"F01\""),
                ("C003", "\"yes\""),
                ("C006", "\"a/[\""),
            ]
        );
        assert_eq!(p[0].help.as_deref(), Some("did you mean `ignore`?"));
        assert!(
            p[1].message.contains("cannot be silenced"),
            "{}",
            p[1].message
        );
    }

    #[test]
    fn a_syntax_error_is_located() {
        let (_, p) = read("ignore = [\"F015\"\n");
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].code, "C001");
    }

    #[test]
    fn pyproject_reads_its_tool_table_only() {
        let mut s = Settings::default();
        let text = "[project]\nname = \"x\"\n[tool.loopconv]\nignore = [\"F015\"]\n[tool.ruff]\nselect = [\"E\"]\n";
        let p = read_file(Path::new("/tmp/x/pyproject.toml"), text, &mut s);
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(s.ignore, vec![Code::YamlPortSchema]);
    }

    #[test]
    fn the_keys_are_the_guides_and_the_schemas() {
        let schema = include_str!("../../schemas/loopconv-config.schema.json");
        let schema: serde_json::Value = serde_json::from_str(schema).expect("JSON");
        let props = schema["properties"].as_object().expect("properties");
        let mut in_schema: Vec<&str> = props.keys().map(String::as_str).collect();
        let mut keys: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
        in_schema.sort_unstable();
        keys.sort_unstable();
        assert_eq!(in_schema, keys);
        let guide = include_str!("../../docs/src/configuration.md");
        for k in keys {
            assert!(
                guide.contains(&format!("`{k}`")),
                "the guide does not name `{k}`"
            );
        }
        for (c, _) in CODES {
            assert!(guide.contains(c), "the guide does not name {c}");
        }
    }
}
