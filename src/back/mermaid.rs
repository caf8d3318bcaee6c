//! Mermaid diagrams (stub: being written).

use crate::ir::Spec;
use crate::valid::Info;

/// Diagram style.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Style {
    /// `flowchart TD`.
    #[default]
    Flowchart,
    /// `stateDiagram-v2`.
    State,
}

/// Mermaid options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Diagram style.
    pub style: Style,
}

/// Write the diagram.
pub fn write(spec: &Spec, _info: &Info, _opts: &Options) -> String {
    format!("flowchart TD\n  %% {}\n", spec.graph.phases.len())
}
