//! The IR as JSON: loopconv's lossless form (`--to ir`), read back with `--from ir`.

use super::Error;
use crate::ir::Spec;

/// Write the IR as pretty JSON with a trailing newline.
pub fn write(spec: &Spec) -> Result<String, Error> {
    let mut s = serde_json::to_string_pretty(spec).map_err(|e| Error::Serialize(e.to_string()))?;
    s.push('\n');
    Ok(s)
}
