//! Command-line interface: the arguments (clap derive) and one module per command.
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

mod check;
mod convert;
mod docs;
mod graph;
mod io;
mod lsp;
mod report;
mod schema;

use check::*;
use convert::*;
use docs::*;
use graph::*;
use io::*;
use lsp::*;
use report::*;
use schema::*;

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
    /// Run the language server (JSON-RPC on standard input and output) for editors.
    Lsp(LspArgs),
    /// Print the drawing model of a loop as JSON: the nodes and edges every diagram back
    /// end draws, with their text lines as wrapped and shortened (used by
    /// `scripts/conformance.sh` to know which texts a drawing shows whole).
    #[command(hide = true)]
    DiagramModel(DiagramModelArgs),
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
        Command::Lsp(a) => lsp(a),
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

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
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
