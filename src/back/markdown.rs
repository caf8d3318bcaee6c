//! Markdown documentation pages (stub: being written).

use super::Error;
use crate::ir::Spec;
use crate::valid::Info;

/// Markdown options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Template source overriding the built-in page template.
    pub template: Option<String>,
}

/// One entry of the index page.
#[derive(Debug, Clone)]
pub struct IndexEntry {
    /// Loop name.
    pub name: String,
    /// Page file name, relative to the index.
    pub file_name: String,
    /// Description.
    pub description: Option<String>,
    /// The source file, as given.
    pub source: String,
}

/// Write one page.
pub fn write(spec: &Spec, _info: &Info, _source: &str, _opts: &Options) -> Result<String, Error> {
    Ok(format!("# {}\n", spec.name))
}

/// Write the index page.
pub fn index(entries: &[IndexEntry], _opts: &Options) -> Result<String, Error> {
    Ok(format!("# Loops\n\n{} loops\n", entries.len()))
}
