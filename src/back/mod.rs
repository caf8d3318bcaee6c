//! Back ends: one module per output, all of the same shape:
//! `write(&Spec, &Info, &Options, &mut Diagnostics) -> Result<String, Error>`.
//!
//! [`render`] dispatches on the [`Target`] tag; [`crate::pipeline::write`], above it, is
//! the entry point callers use, because it also reads a loop-format output back and
//! validates it (`B004`). Lossy conversions and missing flags are diagnostics (`B` codes),
//! not errors: the caller decides from `Diagnostics::has_errors` whether to write.
//! [`Error`] is for failures that are not about the input (a template, serialisation).
//!
//! [`diff`] writes a semantic diff (from [`crate::analysis::diff`]) in each report format;
//! [`support`] holds what the diagram writers share, which is not a target itself.

pub mod agent;
pub mod agentpm;
pub mod diff;
pub mod dot;
pub mod ir;
pub mod langgraph;
#[cfg(feature = "templates")]
pub mod markdown;
pub mod mas;
pub mod mermaid;
pub mod plantuml;
pub mod schema;
pub mod support;
pub mod team;
pub mod xstate;

use std::fmt;

use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::format::{Format, Target};
use crate::ir::Spec;
use crate::valid::Info;

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
    /// Diagrams: the loop as an AgentPM Agent runs it (`graph` of an Agent manifest).
    pub agent: Option<AgentView>,
}

/// A loop drawn as an AgentPM Agent runs it: titled with the Agent's name, and each phase
/// the Agent binds packages to (`bindings.phases.<id>`) marked, with what is bound to it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentView {
    /// The Agent's name (the drawing's title).
    pub name: String,
    /// The loop's reference as the Agent writes it (`@acme/notes-loop@0.2.0`), shown
    /// below the title.
    pub reference: String,
    /// Each bound phase's id and what is bound to it (`memory: @acme/notes-memory`), in
    /// the manifest's order; a phase the loop lacks is not drawn.
    pub bound: Vec<(String, String)>,
}

/// `B001` for each final state the loop names (`Transition::final_state`,
/// `Checkpoint::final_state`), at the first place that targets it: `format` has only the
/// three terminals, so a run still ends with its status, under the terminal's name.
pub(crate) fn report_final_names(
    spec: &Spec,
    format: &str,
    opts: &Options,
    diags: &mut Diagnostics,
) {
    let g = &spec.graph;
    let named = (g.transitions.iter())
        .map(|t| (&t.to, t.final_state.as_deref(), &t.origin))
        .chain(
            (g.checkpoints.iter().flatten())
                .map(|c| (&c.on_reject, c.final_state.as_deref(), &c.origin)),
        );
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (to, name, origin) in named {
        let Some(name) = name else { continue };
        if seen.contains(&(to.as_str(), name)) {
            continue;
        }
        seen.push((to.as_str(), name));
        diags.push(opts.lost(
            Code::LostField,
            &origin.pointer(),
            format!(
                "{format} has only the three terminals: the final state `{}` becomes `{}`, its name is lost",
                name.escape_debug(),
                to.as_str()
            ),
        ));
    }
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

/// A back-end failure that is not a problem of the input. Non-exhaustive: which variants
/// exist depends on the crate's features.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A template failed to load or render.
    #[cfg(feature = "templates")]
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
    /// The target's back end is behind a cargo feature this build leaves out (the
    /// Markdown back end without `templates`).
    NotBuilt {
        /// The target's name.
        target: Target,
        /// The feature that builds it.
        feature: &'static str,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            #[cfg(feature = "templates")]
            Error::Template { template, .. } => write!(f, "template `{template}` failed"),
            Error::Json(_) => f.write_str("JSON serialisation failed"),
            Error::Yaml(_) => f.write_str("YAML serialisation failed"),
            Error::NotBuilt { target, feature } => write!(
                f,
                "the {target} back end is not built (cargo feature `{feature}`)"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            #[cfg(feature = "templates")]
            Error::Template { source, .. } => Some(source),
            Error::Json(e) => Some(e),
            Error::Yaml(e) => Some(e),
            Error::NotBuilt { .. } => None,
        }
    }
}

/// Draw `spec` (a target that [`Target::is_diagram`]) into `sink` as the drawing is made,
/// never holding its whole text; `None` for a target that is no drawing.
pub fn draw_to(
    target: Target,
    spec: &Spec,
    info: &Info,
    opts: &Options,
    sink: &mut dyn std::io::Write,
) -> Option<std::io::Result<()>> {
    match target {
        Target::Mermaid => Some(mermaid::draw_to(spec, info, opts, sink)),
        Target::Dot => Some(dot::draw_to(spec, info, opts, sink)),
        Target::PlantUml => Some(plantuml::draw_to(spec, info, opts, sink)),
        Target::Loop(_) | Target::Markdown | Target::Schema | Target::LangGraph => None,
    }
}

/// Write `spec` with a back end. This is the back ends' dispatch only: a loop-format
/// output is read back and validated by [`crate::pipeline::write`], which callers use.
pub fn render(
    target: Target,
    spec: &Spec,
    info: &Info,
    opts: &Options,
    diags: &mut Diagnostics,
) -> Result<String, Error> {
    match target {
        Target::Loop(Format::Ir) => ir::write(spec, info, opts, diags),
        Target::Loop(Format::Agentpm) => agentpm::write(spec, info, opts, diags),
        Target::Loop(Format::Mas) => mas::write(spec, info, opts, diags),
        Target::Loop(Format::Xstate) => xstate::write(spec, info, opts, diags),
        Target::Mermaid => mermaid::write(spec, info, opts, diags),
        Target::Dot => dot::write(spec, info, opts, diags),
        Target::PlantUml => plantuml::write(spec, info, opts, diags),
        #[cfg(feature = "templates")]
        Target::Markdown => markdown::write(spec, info, opts, diags),
        #[cfg(not(feature = "templates"))]
        Target::Markdown => Err(Error::NotBuilt {
            target,
            feature: "templates",
        }),
        Target::Schema => schema::write(spec, info, opts, diags),
        Target::LangGraph => langgraph::write(spec, info, opts, diags),
    }
}
