//! Command-line interface: the arguments (clap derive) and one module per command.
//!
//! Exit codes: 0 success (warnings allowed), 1 problems found in the input (or warnings
//! under `--strict`, or stale docs under `--check`), 2 usage, I/O or other runtime errors.

use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, FromArgMatches as _, Parser, Subcommand, ValueEnum};

use loopconv::tree::ReadLimits;

use self::check::CheckArgs;
use self::completions::CompletionsArgs;
use self::convert::ConvertArgs;
use self::diagram_model::DiagramModelArgs;
use self::diff::DiffArgs;
use self::docs::DocsArgs;
use self::explain::ExplainArgs;
use self::graph::GraphArgs;
pub(crate) use self::launch::McpArgs;
use self::lsp::LspArgs;
use self::man::ManArgs;
use self::new::NewArgs;
use self::paths::PathsArgs;
use self::schema::SchemaArgs;
use self::walk::WalkLoopArgs;

// The modules the MCP server (`loopconv-mcp`, `src/mcp/`) uses are the crate's; the others
// are this module's.
pub(crate) mod check;
mod completions;
mod config;
pub(crate) mod convert;
mod diagram_model;
mod diff;
mod docs;
mod explain;
pub(crate) mod graph;
pub(crate) mod io;
mod launch;
mod lsp;
mod man;
pub(crate) mod memory;
pub(crate) mod new;
pub(crate) mod paths;
pub(crate) mod project;
pub(crate) mod report;
mod schema;
pub(crate) mod walk;

/// Input had problems.
pub const EXIT_PROBLEMS: u8 = 1;

/// Usage, I/O or runtime error.
pub const EXIT_USAGE: u8 = 2;

/// The exit codes every command has, for `--help` (the guide's table, `docs/src/usage.md`).
macro_rules! exit_codes {
    () => {
        "Exit codes:
  0  success (warnings allowed)
  1  the input has problems: errors (or warnings under --strict), a lossy conversion
     without --allow-lossy, stale pages under `docs --check`
  2  usage or I/O error: unknown flag, missing file, unwritable target"
    };
}

/// The top line of `--help` (the crate's description names only the first two formats).
const ABOUT: &str = "Read, validate, convert and draw agent-loop specifications: AgentPM loop \
manifests, multi-agent-spec REAL/VEAL loops and XState machines, to Mermaid, Graphviz and \
PlantUML diagrams, Markdown pages, JSON Schema, each other, and LangGraph programs";

/// The exit codes of a command's `--help`.
const EXIT_CODES: &str = exit_codes!();

/// `new --help`: how the graph scaffolds stop, and which stopping rules the loop file
/// cannot hold (seed 001: `limits.max_steps` is the only limit a loop declares).
const NEW_HELP: &str = concat!(
    "How the graph scaffolds stop (react, plan-and-solve, plan-execute-replan, reflexion):
  success      an answer reaches `$end` only through a phase that tests the success
               check; a failed check records its reason as a lesson and loops back
  no progress  an outcome `no-progress` ends the run at `$abort`
  steps        `limits.max_steps` in the file (the only limit a loop may declare)
Set in the harness, not in the loop file: the budget (model and tool calls, cost), the
no-progress count that makes a phase report `no-progress`, and a runtime step ceiling
(`runtime.limits.max_steps`, default 100), which may tighten `max_steps` but not loosen it.

",
    exit_codes!()
);

/// [`EXIT_CODES`], and `walk`'s, for the top-level `--help`.
const ALL_EXIT_CODES: &str = concat!(
    exit_codes!(),
    "\n  3-7  `walk` only: the run's status (see `loopconv walk --help`)"
);

/// Read, validate, convert and draw agent-loop specifications: AgentPM loop manifests,
/// multi-agent-spec REAL/VEAL loops and XState machines, to diagrams, pages, each other
/// and LangGraph programs.
#[derive(Debug, Parser)]
#[command(name = "loopconv", version, about = ABOUT, long_about = None, propagate_version = true)]
#[command(after_help = ALL_EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

impl Cli {
    /// The command line of this process; on a mistake (or `--help`, `--version`), clap's
    /// message and exit.
    pub fn from_env() -> Cli {
        if let Some(version) = Cli::version_only(std::env::args_os()) {
            version.exit();
        }
        Cli::one_command(std::env::args_os()).unwrap_or_else(|| {
            Cli::try_parse().unwrap_or_else(|e| {
                let args: Vec<String> = std::env::args_os()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect();
                let piped = !std::io::IsTerminal::is_terminal(&std::io::stdin());
                with_tip(e, &args, piped).exit()
            })
        })
    }

    /// Clap's answer to `loopconv --version` (or `-V`) alone, from a command that knows only
    /// the name and version: the whole parser would build all fourteen commands (the `mcp`
    /// server's among them) to print one line. `None` for any other command line; a test
    /// checks that both answers are the same text.
    fn version_only<I, T>(args: I) -> Option<clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
        let [_, flag] = args.as_slice() else {
            return None;
        };
        if flag != "--version" && flag != "-V" {
            return None;
        }
        let command = clap::Command::new("loopconv").version(env!("CARGO_PKG_VERSION"));
        command.try_get_matches_from(args).err()
    }

    /// The command line `args` when its first argument names a command and the rest parse
    /// as that command's: clap then builds that command alone, not all fourteen (building
    /// them was 15 % of the instructions of drawing a small loop). `None` for anything
    /// else, which the whole parser reads again, so that help, suggestions and error
    /// messages are always the whole command line's; a test checks that both parsers read
    /// the same lines the same way.
    fn one_command<I, T>(args: I) -> Option<Cli>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
        let name = args.get(1)?.to_str()?;
        let command = match name {
            "check" => CheckArgs::augment_args(clap::Command::new("check")),
            "convert" => ConvertArgs::augment_args(clap::Command::new("convert")),
            "graph" => GraphArgs::augment_args(clap::Command::new("graph")),
            "docs" => DocsArgs::augment_args(clap::Command::new("docs")),
            "paths" => PathsArgs::augment_args(clap::Command::new("paths")),
            "walk" => WalkLoopArgs::augment_args(clap::Command::new("walk")),
            "diff" => DiffArgs::augment_args(clap::Command::new("diff")),
            _ => return None,
        };
        let matches = clap::Command::new("loopconv")
            .subcommand(command)
            .try_get_matches_from(args)
            .ok()?;
        Cli::from_arg_matches(&matches).ok()
    }
}

/// A tip under clap's error for the mistakes it cannot know: `--format dot` (a diagram is
/// `--dot`; `--format` is how diagnostics are printed), and input piped to a command
/// given no path (standard input is read when `-` is among the paths).
fn with_tip(mut e: clap::Error, args: &[String], piped: bool) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let format_value = args.iter().enumerate().find_map(|(i, a)| {
        a.strip_prefix("--format=").or_else(|| {
            (a == "--format")
                .then(|| args.get(i + 1).map(String::as_str))
                .flatten()
        })
    });
    let tip = match (e.kind(), format_value) {
        (ErrorKind::InvalidValue, Some(v)) => {
            let v = v.to_ascii_lowercase();
            let flag = match v.as_str() {
                "dot" | "graphviz" | "gv" => Some("--dot"),
                "mermaid" | "mmd" => Some("--mermaid"),
                "plantuml" | "puml" => Some("--plantuml"),
                "svg" => Some("--svg"),
                _ => None,
            };
            flag.map(|f| {
                format!(
                    "`--format` is how diagnostics are printed; to draw {v}, pass `{f}`                      (`loopconv graph FILE {f}`)"
                )
            })
        }
        (ErrorKind::MissingRequiredArgument, _) if piped => {
            let command = args.get(1).map_or("check", String::as_str);
            Some(format!(
                "standard input is read when a path is `-`: `... | loopconv {command} -`"
            ))
        }
        _ => None,
    };
    if let Some(tip) = tip {
        e.insert(
            ContextKind::Suggested,
            ContextValue::StyledStrs(vec![tip.into()]),
        );
    }
    e
}

/// The options of every command that reads loop files (`schema` for `--outcomes`): how
/// diagnostics are shown, the limits of an input and `--stdin-name`, for those that read
/// inputs (all but `new`). They are declared per command, not clap-global, so that
/// `--help` lists them only where they do something.
#[derive(Debug, Default, Args)]
pub(crate) struct Global {
    #[command(flatten)]
    pub(crate) options: Options,
    #[command(flatten)]
    pub(crate) limits: Limits,
    /// The name standard input (`-`) gets in diagnostics and generated pages (only with
    /// `-` among the inputs).
    #[arg(long, value_name = "NAME", help_heading = "Input")]
    stdin_name: Option<String>,
    /// Read what a loop cannot hold but can do without, each loss a warning (`B001`): an
    /// XState machine's names that are no ids, missing descriptions, guards, actions,
    /// `context`. `convert` also writes an output its target cannot hold whole.
    #[arg(long)]
    pub(crate) allow_lossy: bool,
    #[command(flatten)]
    config: config::ConfigArgs,
    /// The configuration file's settings under the flags' ([`configure`]).
    #[arg(skip)]
    settings: config::Settings,
}

/// How diagnostics are shown: the options of [`Global`] that `new` takes too. `new` reads
/// no input, so the limits of one and a name of standard input are not offered in its
/// `--help` (they did nothing there, and `--stdin-name` was always refused).
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct Options {
    /// How to print diagnostics [default: human, or the configuration's `format`].
    #[arg(
        long = "format",
        value_enum,
        value_name = "FORMAT",
        help_heading = "Diagnostics"
    )]
    pub(crate) format_flag: Option<MessageFormat>,
    /// The format in use: `--format`, the configuration's, or human ([`Options::resolve`]).
    #[arg(skip)]
    pub(crate) format: MessageFormat,
    /// Treat warnings as errors (also `strict = true` in the configuration).
    #[arg(long, help_heading = "Diagnostics")]
    pub(crate) strict: bool,
    /// Colour in human diagnostics (auto: on a terminal, unless `NO_COLOR` is set or
    /// `TERM=dumb`; `CLICOLOR_FORCE` forces it) [default: auto, or the configuration's
    /// `color`].
    #[arg(
        long = "color",
        value_enum,
        value_name = "WHEN",
        help_heading = "Diagnostics"
    )]
    pub(crate) color_flag: Option<Color>,
    /// The colour choice in use ([`Options::resolve`]).
    #[arg(skip)]
    pub(crate) color: Color,
}

impl Options {
    /// The options in use: each flag, or the configuration's setting, or the default.
    fn resolve(&mut self, s: &config::Settings) {
        self.format = self
            .format_flag
            .or(s.format)
            .unwrap_or(MessageFormat::Human);
        self.color = self.color_flag.or(s.color).unwrap_or(Color::Auto);
        self.strict |= s.strict;
    }
}

/// The limits of an input, from the command line.
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct Limits {
    /// Largest input file accepted: bytes, or with a unit (KiB, MiB, GiB); at most 4 GiB.
    #[arg(long, value_name = "SIZE", default_value = "64MiB", value_parser = parse_size, help_heading = "Input")]
    max_input_bytes: usize,
    /// Most phases in one loop (a larger loop is `P013`).
    #[arg(long, value_name = "N", default_value_t = ReadLimits::default().max_phases, help_heading = "Input")]
    max_phases: usize,
    /// Most values (objects, arrays and scalars) in one document (a larger one is `P004`).
    #[arg(long, value_name = "N", default_value_t = ReadLimits::default().max_nodes, help_heading = "Input")]
    max_values: usize,
    /// Most diagnostics reported for one file (in every `--format`); the others are
    /// counted, by code, in one `P016` at its end.
    #[arg(long, value_name = "N", default_value_t = ReadLimits::default().max_diagnostics, help_heading = "Diagnostics")]
    max_diagnostics: usize,
}

impl Default for Options {
    /// The defaults of the command line, for commands that do not take these options.
    fn default() -> Self {
        Options {
            format_flag: None,
            format: MessageFormat::Human,
            strict: false,
            color_flag: None,
            color: Color::Auto,
        }
    }
}

impl Limits {
    /// The limits of one input ([`ReadLimits`]), as every command reads them.
    pub(crate) fn read_limits(&self) -> ReadLimits {
        ReadLimits {
            max_bytes: self.max_input_bytes,
            max_phases: self.max_phases,
            max_nodes: self.max_values,
            max_diagnostics: self.max_diagnostics,
            ..ReadLimits::default()
        }
    }
}

impl Default for Limits {
    /// The defaults of the command line ([`ReadLimits::default`]).
    fn default() -> Self {
        Limits {
            max_input_bytes: ReadLimits::default().max_bytes,
            max_phases: ReadLimits::default().max_phases,
            max_values: ReadLimits::default().max_nodes,
            max_diagnostics: ReadLimits::default().max_diagnostics,
        }
    }
}

/// A command reads its options as fields of `Global` (`g.format`), wherever clap groups
/// them (the limits and `--stdin-name` apart).
impl std::ops::Deref for Global {
    type Target = Options;

    fn deref(&self) -> &Options {
        &self.options
    }
}

impl Global {
    /// The options of a command that reads no input (`new`): the default limits, and
    /// standard input has no name.
    fn reading_no_input(options: Options) -> Self {
        let mut options = options;
        options.resolve(&config::Settings::default());
        Global {
            options,
            limits: Limits::default(),
            stdin_name: None,
            allow_lossy: false,
            config: config::ConfigArgs::default(),
            settings: config::Settings::default(),
        }
    }

    /// The name standard input gets: `--stdin-name`, or `-`.
    fn stdin_name(&self) -> &str {
        self.stdin_name.as_deref().unwrap_or("-")
    }
}

/// How folders are searched: the options of the commands that take folders.
#[derive(Debug, Default, Args)]
pub(super) struct SearchArgs {
    /// Skip files and folders matching GLOB while searching folders (gitignore syntax,
    /// relative to the folder searched; repeatable). A path named on the command line is
    /// always read.
    #[arg(long, value_name = "GLOB", help_heading = "Input")]
    pub(super) exclude: Vec<String>,
    /// Read only the files matching GLOB while searching folders (gitignore syntax,
    /// relative to the folder searched; repeatable; also `include` in the configuration).
    #[arg(long, value_name = "GLOB", help_heading = "Input")]
    pub(super) include: Vec<String>,
    /// The configuration's `include` and `exclude` ([`configure`]).
    #[arg(skip)]
    pub(super) rules: Option<std::sync::Arc<config::PathRules>>,
}

/// A size on the command line: `1000`, `64KiB`, `64MiB`, `1GiB` (also `KB`/`MB`/`GB`/`k`/`M`/`G`,
/// all binary).
fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: usize = num
        .parse()
        .map_err(|_| format!("`{s}` is not a size (examples: 1000, 512KiB, 64MiB)"))?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(format!("unknown unit in `{s}` (use KiB, MiB or GiB)")),
    };
    n.checked_mul(1usize << shift)
        .filter(|&n| n <= loopconv::tree::MAX_INPUT_BYTES)
        .ok_or_else(|| format!("`{s}` is too large: loopconv reads files of at most 4 GiB"))
}

#[derive(Debug, Default, Clone, Copy, ValueEnum)]
pub(crate) enum MessageFormat {
    /// Rendered for people, with source snippets (`text` is the same).
    #[value(alias = "text")]
    #[default]
    Human,
    /// One JSON array of all diagnostics: `check`'s report on stdout; on stderr for the
    /// other commands, whose stdout is their result (one array per input read).
    Json,
    /// `diff` only: a pull-request comment (diagnostics are printed as for `human`).
    Markdown,
    /// One SARIF 2.1.0 log of all diagnostics (for code scanning): on stdout for `check`; on
    /// stderr for the other commands, whose stdout is their result; for `diff`, on stdout,
    /// one result per change (rules `breaking-change`, `compatible-change`).
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...::...`), so that problems appear
    /// inline on pull requests: on stdout for `check`; on stderr for the other commands,
    /// whose stdout is their result; for `diff`, on stdout, one per change (`::error` when
    /// breaking, `::notice` when compatible).
    Github,
}

#[derive(Debug, Default, Clone, Copy, ValueEnum)]
pub(crate) enum Color {
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate loop files (files, or folders searched for *.json, *.yaml, *.yml).
    #[command(after_help = EXIT_CODES)]
    Check(CheckArgs),
    /// Convert a loop file, or a folder of them, to another format.
    #[command(after_help = EXIT_CODES)]
    Convert(ConvertArgs),
    /// Draw a loop as a Mermaid, Graphviz or PlantUML diagram.
    #[command(after_help = EXIT_CODES)]
    Graph(GraphArgs),
    /// Generate Markdown documentation pages for loops.
    #[command(after_help = EXIT_CODES)]
    Docs(DocsArgs),
    /// Print the JSON Schema of a format, or with `--outcomes` the schema of one loop's
    /// phase results.
    Schema(SchemaArgs),
    /// Write a new loop of a known pattern (a valid scaffold to edit).
    #[command(after_help = NEW_HELP)]
    New(NewArgs),
    /// Compare two loops (any formats): what changed, and whether it breaks callers.
    #[command(after_help = EXIT_CODES)]
    Diff(DiffArgs),
    /// Test paths: the shortest run to each terminal, and runs covering every transition
    /// and checkpoint decision.
    #[command(after_help = EXIT_CODES)]
    Paths(PathsArgs),
    /// Step through a loop as the AgentPM harness runs it, with scripted outcomes,
    /// failures and checkpoint decisions; ends with the harness's run status.
    #[command(after_help = walk::EXIT_HELP)]
    Walk(WalkLoopArgs),
    /// Explain a diagnostic code: what it checks, why, a failing example and the fix.
    Explain(ExplainArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(CompletionsArgs),
    /// Print the man page (roff).
    Man(ManArgs),
    /// Run the language server (JSON-RPC on standard input and output) for editors.
    Lsp(LspArgs),
    /// Serve the loop tools to coding agents: a Model Context Protocol server on standard
    /// input and output (check, graph, convert, paths, walk, diff, schema, new, explain).
    Mcp(McpArgs),
    /// Print the drawing model of a loop as JSON: the nodes and edges every diagram back
    /// end draws, with their text lines as wrapped and shortened (used by
    /// `scripts/conformance.sh` to know which texts a drawing shows whole).
    #[command(hide = true)]
    DiagramModel(DiagramModelArgs),
}

/// Run a parsed command line.
pub fn run(mut cli: Cli) -> Result<ExitCode> {
    configure(&mut cli.command)?;
    match &cli.command {
        Command::Check(a) => check::run(&a.g, a),
        Command::Convert(a) => convert::run(&a.g, a),
        Command::Graph(a) => graph::run(&a.g, a),
        Command::Docs(a) => docs::run(&a.g, a),
        Command::Schema(a) => schema::run(&a.g, a),
        Command::New(a) => new::run(&Global::reading_no_input(a.g), a),
        Command::Diff(a) => diff::run(&a.g, a),
        Command::Paths(a) => paths::run(&a.g, a),
        Command::Walk(a) => walk::run(&a.g, a),
        Command::Explain(a) => explain::run(a),
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => man::run(a),
        Command::Lsp(a) => lsp::run(a),
        Command::Mcp(a) => launch::run(a),
        Command::DiagramModel(a) => diagram_model::run(&a.g, a),
    }
}

/// Read the configuration of a command that reads inputs (the file nearest to its first
/// input, `config`), and settle its options: each flag, else the file's setting, else
/// the default.
fn configure(command: &mut Command) -> Result<()> {
    let is_diff = matches!(command, Command::Diff(_));
    let (g, first, search): (
        &mut Global,
        Option<std::path::PathBuf>,
        Option<&mut SearchArgs>,
    ) = match command {
        Command::Check(a) => (&mut a.g, a.paths.first().cloned(), Some(&mut a.search)),
        Command::Convert(a) => (&mut a.g, Some(a.input.clone()), Some(&mut a.search)),
        Command::Graph(a) => (&mut a.g, Some(a.input.clone()), None),
        Command::Docs(a) => (&mut a.g, a.paths.first().cloned(), Some(&mut a.search)),
        Command::Diff(a) => (&mut a.g, Some(a.old.clone()), None),
        Command::Paths(a) => (&mut a.g, Some(a.input.clone()), None),
        Command::Walk(a) => (&mut a.g, Some(a.input.clone()), None),
        Command::DiagramModel(a) => (&mut a.g, Some(a.input.clone()), None),
        Command::New(a) => {
            if matches!(a.g.format_flag, Some(MessageFormat::Markdown)) {
                anyhow::bail!(
                    "--format markdown is `diff`'s pull-request comment; `new` prints \
                     diagnostics as human, json, sarif or github"
                );
            }
            a.g.resolve(&config::Settings::default());
            return Ok(());
        }
        Command::Schema(_)
        | Command::Explain(_)
        | Command::Completions(_)
        | Command::Man(_)
        | Command::Lsp(_)
        | Command::Mcp(_) => return Ok(()),
    };
    if matches!(g.options.format_flag, Some(MessageFormat::Markdown)) && !is_diff {
        anyhow::bail!(
            "--format markdown is `diff`'s pull-request comment; this command prints \
             diagnostics as human, json, sarif or github"
        );
    }
    // The colour of the configuration's own problems: the flag's, or auto.
    let mut early = g.options;
    early.resolve(&config::Settings::default());
    let color = report::use_color_of(early.color);
    g.settings = config::settings(&g.config, first.as_deref(), color)?;
    g.options.resolve(&g.settings);
    if let Some(w) = search {
        w.rules.clone_from(&g.settings.paths);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory as _, Parser as _};

    use super::Cli;
    use super::parse_size;
    use super::report::auto_color;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }

    /// The parser of one command reads a command line as the whole parser does, or not at
    /// all.
    #[test]
    fn one_command_parses_as_the_whole_cli() {
        let lines: &[&[&str]] = &[
            &["graph", "a.json"],
            &["graph", "a.json", "--mermaid"],
            &["graph", "--dot", "a.json", "--format", "json", "--strict"],
            &[
                "graph",
                "a.json",
                "--max-phases",
                "20000",
                "--color",
                "never",
            ],
            &[
                "graph",
                "a.json",
                "--max-input-bytes",
                "1MiB",
                "-o",
                "out.md",
            ],
            &["graph", "--no-such-flag", "a.json"],
            &["graph", "--help"],
            &["graph"],
            &["check", "a.json", "b.yaml", "dir", "--exclude", "x/*"],
            &["check", "--format", "sarif", "-"],
            &["check", "--format", "nonsense", "a.json"],
            &["convert", "a.json", "--to", "mas"],
            &["convert", "dir", "--to", "ir", "-o", "out"],
            &["docs", "dir", "-o", "site"],
            &["paths", "a.json", "--max-steps-listed", "2000000"],
            &["walk", "a.json", "--outcomes", "done"],
            &["walk", "a.json"],
            &["diff", "a.json", "b.json", "--format", "markdown"],
            &["schema", "agentpm"],
            &["explain", "V001"],
            &["grpah", "a.json"],
            &["--version"],
            &[],
        ];
        let mut same = 0;
        for line in lines {
            let args = std::iter::once("loopconv").chain(line.iter().copied());
            let whole = Cli::try_parse_from(args.clone()).map(|c| format!("{c:?}"));
            let one = Cli::one_command(args).map(|c| format!("{c:?}"));
            match (&whole, &one) {
                (Ok(w), Some(o)) => {
                    assert_eq!(w, o, "{line:?}");
                    same += 1;
                }
                (Ok(_), None) => {
                    let named = line.first().is_some_and(|n| {
                        !["schema", "explain", "new", "completions", "man", "lsp"].contains(n)
                    });
                    assert!(!named, "{line:?}: the one command did not parse it");
                }
                (Err(_), Some(o)) => panic!("{line:?}: only the one command parsed it: {o}"),
                (Err(_), None) => {}
            }
        }
        // Every line naming one of those commands, but for the mistakes (`walk a.json`, a
        // run with no phase step, is none).
        assert_eq!(same, 14);
    }

    #[test]
    fn version_alone_is_answered_as_the_whole_parser_answers_it() {
        for flag in ["--version", "-V"] {
            let args = ["loopconv", flag];
            let whole = Cli::try_parse_from(args).expect_err("--version ends the parse");
            let quick = Cli::version_only(args).expect("answered without the commands");
            assert_eq!(quick.kind(), clap::error::ErrorKind::DisplayVersion);
            assert_eq!(quick.kind(), whole.kind());
            assert_eq!(quick.render().to_string(), whole.render().to_string());
            assert_eq!(quick.exit_code(), whole.exit_code());
        }
        for line in [
            &["loopconv", "--version", "x"][..],
            &["loopconv", "check", "--version"],
            &["loopconv"],
            &["loopconv", "--help"],
        ] {
            assert!(Cli::version_only(line).is_none(), "{line:?}");
        }
    }

    #[test]
    fn colour_conventions() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert!(auto_color(env(&[]), true));
        assert!(!auto_color(env(&[]), false));
        assert!(
            auto_color(env(&[("NO_COLOR", "")]), true),
            "empty NO_COLOR is unset"
        );
        assert!(!auto_color(env(&[("NO_COLOR", "1")]), true));
        assert!(!auto_color(env(&[("TERM", "dumb")]), true));
        assert!(auto_color(env(&[("CLICOLOR_FORCE", "1")]), false));
        assert!(!auto_color(env(&[("CLICOLOR_FORCE", "0")]), false));
        assert!(!auto_color(
            env(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]),
            false
        ));
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("100"), Ok(100));
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("2k"), Ok(2048));
        assert!(parse_size("MiB").is_err());
        assert!(parse_size("3 parsecs").is_err());
        assert!(parse_size("99999999999999999999G").is_err());
    }
}
