//! Back ends: one module per output, each the same shape:
//! `write(spec, info, &Options, &mut Diagnostics) -> Result<String, Error>`.
//!
//! Lossy conversions and missing flags are diagnostics (`B` codes), not errors: the caller
//! decides from `Diagnostics::has_errors` whether to write. [`Error`] is for failures that
//! are not about the input (templates, serialisation).

pub mod agentpm;
pub mod dot;
pub mod ir;
pub mod markdown;
pub mod mas;
pub mod mermaid;
pub mod plantuml;
pub mod schema;
pub mod text;

use std::fmt;

/// A back-end failure that is not a problem of the input.
#[derive(Debug)]
pub enum Error {
    /// A template failed to load or render.
    Template(String),
    /// Serialisation failed.
    Serialize(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Template(m) => write!(f, "template error: {m}"),
            Error::Serialize(m) => write!(f, "serialisation error: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// Options shared by the conversions between loop formats.
#[derive(Debug, Clone, Default)]
pub struct ConvertOptions {
    /// Write even when fields are lost (they become warnings).
    pub allow_lossy: bool,
    /// MAS `actor` when the source cannot carry it.
    pub actor: Option<String>,
    /// MAS `validator` when the source cannot carry it.
    pub validator: Option<String>,
    /// MAS `fallback_agent`; with it, an escalation to `$handoff` becomes `fallback`.
    pub fallback_agent: Option<String>,
    /// AgentPM `version` for a loop that has none (default `0.1.0`).
    pub version: Option<String>,
}

impl ConvertOptions {
    /// A lost-field diagnostic: an error, or a warning under `--allow-lossy`.
    pub fn lost(
        &self,
        code: crate::diag::Code,
        pointer: &str,
        message: String,
    ) -> crate::diag::Diagnostic {
        let mut d = crate::diag::Diagnostic::new(code, message).at(pointer);
        if self.allow_lossy {
            d.severity = crate::diag::Severity::Warning;
        } else {
            d = d.with_help("pass `--allow-lossy` to convert anyway");
        }
        d
    }
}
