//! The JSON Schema (draft 2020-12) of a loop format, as `loopconv schema` publishes it.
//! The schemas are generated from the format models ([`crate::model`]); the committed
//! `schemas/*.json` files are exactly this output (a test regenerates and compares them).

use super::{Error, Options};
use crate::diag::Diagnostics;
use crate::format::Format;
use crate::ir::Spec;
use crate::valid::Info;

/// Write the schema of `opts.schema` (default: the format the loop was read as).
pub fn write(
    spec: &Spec,
    _info: &Info,
    opts: &Options,
    _diags: &mut Diagnostics,
) -> Result<String, Error> {
    Ok(schema_text(opts.schema.unwrap_or(spec.provenance.read_as)).to_owned())
}

/// A format's schema as pretty JSON text with a trailing newline: the committed file,
/// printed as it is (parsing and printing it again cost a fifth of a small command), so
/// nothing can fail.
pub fn schema_text(format: Format) -> &'static str {
    crate::model::committed_schema_text(format)
}
