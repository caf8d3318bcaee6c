//! The IR as JSON: loopconv's lossless form (`--to ir`), read back with `--from ir`.

use super::{Error, Options};
use crate::diag::Diagnostics;
use crate::ir::Spec;
use crate::valid::Info;

/// Write the IR as pretty JSON with a trailing newline.
pub fn write(
    spec: &Spec,
    _info: &Info,
    _opts: &Options,
    _diags: &mut Diagnostics,
) -> Result<String, Error> {
    let mut s = serde_json::to_string_pretty(spec).map_err(Error::Json)?;
    s.push('\n');
    Ok(s)
}
