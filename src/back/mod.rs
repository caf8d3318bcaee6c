//! Back ends: one module per output, all of the same shape:
//! `write(&Spec, &Info, &Options, &mut Diagnostics) -> Result<String, Error>`.
//!
//! [`Target`] is the list of back ends and [`write`] the one entry point. Lossy
//! conversions and missing flags are diagnostics (`B` codes), not errors: the caller
//! decides from `Diagnostics::has_errors` whether to write. A loop-format output is read
//! back and validated before it is handed out (`B004`). [`Error`] is for failures that are
//! not about the input (a template, serialisation).

pub mod agentpm;
pub mod chunks;
pub mod diagram;
pub mod dot;
pub mod ir;
pub mod markdown;
pub mod mas;
pub mod mermaid;
pub mod plantuml;
pub mod schema;

use std::fmt;

use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::format::Format;
use crate::ir::Spec;
use crate::load::{LoadOptions, load};
use crate::valid::Info;

/// An output loopconv writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Target {
    /// loopconv's lossless IR (JSON).
    Ir,
    /// AgentPM loop manifest (JSON).
    Agentpm,
    /// multi-agent-spec REAL/VEAL loop (YAML).
    Mas,
    /// Mermaid diagram (flowchart or state diagram).
    Mermaid,
    /// Graphviz DOT diagram.
    Dot,
    /// PlantUML state diagram.
    #[value(name = "plantuml")]
    PlantUml,
    /// Markdown documentation page.
    Markdown,
    /// JSON Schema of a loop format.
    Schema,
}

impl Target {
    /// Every back end.
    pub const ALL: [Target; 8] = [
        Target::Ir,
        Target::Agentpm,
        Target::Mas,
        Target::Mermaid,
        Target::Dot,
        Target::PlantUml,
        Target::Markdown,
        Target::Schema,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::Ir => "ir",
            Target::Agentpm => "agentpm",
            Target::Mas => "mas",
            Target::Mermaid => "mermaid",
            Target::Dot => "dot",
            Target::PlantUml => "plantuml",
            Target::Markdown => "markdown",
            Target::Schema => "schema",
        }
    }

    /// The loop format this back end writes, if it writes one.
    pub fn format(self) -> Option<Format> {
        match self {
            Target::Ir => Some(Format::Ir),
            Target::Agentpm => Some(Format::Agentpm),
            Target::Mas => Some(Format::Mas),
            Target::Mermaid
            | Target::Dot
            | Target::PlantUml
            | Target::Markdown
            | Target::Schema => None,
        }
    }

    /// Whether this back end draws a diagram (`loopconv graph --to`).
    pub fn is_diagram(self) -> bool {
        match self {
            Target::Mermaid | Target::Dot | Target::PlantUml => true,
            Target::Ir | Target::Agentpm | Target::Mas | Target::Markdown | Target::Schema => false,
        }
    }

    /// The extension of the files it writes.
    pub fn extension(self) -> &'static str {
        match self {
            Target::Ir => Format::Ir.extension(),
            Target::Agentpm => Format::Agentpm.extension(),
            Target::Mas => Format::Mas.extension(),
            Target::Mermaid => "mmd",
            Target::Dot => "dot",
            Target::PlantUml => "puml",
            Target::Markdown => "md",
            Target::Schema => "schema.json",
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The options of every back end; each reads its part.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Loop formats: write even when fields are lost (they become warnings).
    pub allow_lossy: bool,
    /// MAS `actor` when the source cannot carry it.
    pub actor: Option<String>,
    /// MAS `validator` when the source cannot carry it.
    pub validator: Option<String>,
    /// MAS `fallback_agent`; with it, an escalation to `$handoff` becomes `fallback`.
    pub fallback_agent: Option<String>,
    /// AgentPM `version` for a loop that has none (default `0.1.0`).
    pub version: Option<String>,
    /// Mermaid: the diagram style.
    pub style: mermaid::Style,
    /// DOT: draw a legend of the shapes and colours.
    pub legend: bool,
    /// Markdown: the source file as the user named it (shown on the page).
    pub source: String,
    /// Markdown: a template replacing the built-in page template.
    pub template: Option<String>,
    /// Schema: the format whose schema to write (default: the format the loop was read
    /// as).
    pub schema: Option<Format>,
}

impl Options {
    /// A lost-field diagnostic: an error, or a warning under `allow_lossy`.
    pub fn lost(&self, code: Code, pointer: &str, message: String) -> Diagnostic {
        let mut d = Diagnostic::new(code, message).at(pointer);
        if self.allow_lossy {
            d.severity = Severity::Warning;
        } else {
            d = d.with_help("pass `--allow-lossy` to convert anyway");
        }
        d
    }
}

/// A back-end failure that is not a problem of the input.
#[derive(Debug)]
pub enum Error {
    /// A template failed to load or render.
    Template {
        /// The template's name (`loop.md.j2`, or the file given with `--template`).
        template: String,
        /// What minijinja said.
        source: minijinja::Error,
    },
    /// JSON serialisation failed.
    Json(serde_json::Error),
    /// YAML serialisation failed.
    Yaml(serde_saphyr::SerializeError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Template { template, .. } => write!(f, "template `{template}` failed"),
            Error::Json(_) => f.write_str("JSON serialisation failed"),
            Error::Yaml(_) => f.write_str("YAML serialisation failed"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Template { source, .. } => Some(source),
            Error::Json(e) => Some(e),
            Error::Yaml(e) => Some(e),
        }
    }
}

/// Write `spec` with a back end. A loop-format output is then read back and validated: a
/// conversion never hands out a file that loopconv itself would reject (`B004`).
pub fn write(
    target: Target,
    spec: &Spec,
    info: &Info,
    opts: &Options,
    diags: &mut Diagnostics,
) -> Result<String, Error> {
    let text = match target {
        Target::Ir => ir::write(spec, info, opts, diags),
        Target::Agentpm => agentpm::write(spec, info, opts, diags),
        Target::Mas => mas::write(spec, info, opts, diags),
        Target::Mermaid => mermaid::write(spec, info, opts, diags),
        Target::Dot => dot::write(spec, info, opts, diags),
        Target::PlantUml => plantuml::write(spec, info, opts, diags),
        Target::Markdown => markdown::write(spec, info, opts, diags),
        Target::Schema => schema::write(spec, info, opts, diags),
    }?;
    if let Some(format) = target.format()
        && !diags.has_errors()
    {
        check_output(format, &text, diags);
    }
    Ok(text)
}

/// Read a generated loop file back; `B004` with every error it has.
fn check_output(format: Format, text: &str, diags: &mut Diagnostics) {
    let name = format!("<{format} output>");
    let opts = LoadOptions {
        from: Some(format),
        ..LoadOptions::default()
    };
    let back = load(&name, text.as_bytes(), &opts);
    let problems: Vec<String> = back
        .diags
        .items()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    if problems.is_empty() {
        return;
    }
    let mut d = Diagnostic::new(
        Code::InvalidOutput,
        format!("the generated {format} output does not pass validation"),
    )
    .with_help("nothing was written; please report this loopconv bug with the input file");
    for p in problems {
        d = d.with_note(p);
    }
    diags.push(d);
}
