//! Graphviz DOT (stub: being written).

use crate::ir::Spec;
use crate::valid::Info;

/// DOT options.
#[derive(Debug, Clone, Default)]
pub struct Options {}

/// Write the graph.
pub fn write(spec: &Spec, _info: &Info, _opts: &Options) -> String {
    format!("digraph loop {{\n  // {}\n}}\n", spec.graph.phases.len())
}
