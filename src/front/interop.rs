//! Interoperability warnings on reading: multi-agent-spec files that are valid by the
//! format's schema but that an upstream tool cannot load (`F015`, `F016`, `F017`). Their writing
//! counterpart (`B005`) is in [`crate::back::mas`]; the fact both rest on is
//! [`crate::model::mas::Loop::port_schemas`].
//!
//! * The multi-agent-spec Go SDK's `Port` decodes `schema` as raw JSON
//!   (`json.RawMessage`), which its YAML reader cannot fill: a YAML loop with a port
//!   `schema` fails to load there. The JSON form of the same loop loads.
//! * The Go SDK's YAML reader refuses a `%YAML 1.2` directive.
//! * The Go SDK decodes JSON with `encoding/json`, which refuses a whole number written
//!   as a float (`3.0`, `3e0`) for an `int` field; its YAML reader accepts one.

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::mas::{self as m, PORT_SCHEMA_HELP};
use crate::pointer::field_path;
use crate::tree::{Document, Syntax, Value};

/// The integer fields of a multi-agent-spec loop (the Go SDK's `int`s).
const INTEGER_FIELDS: &[&str] = &["max_attempts"];

/// The interoperability warnings of a multi-agent-spec file: `F015` and `F016` when it
/// was read from YAML, `F017` when it was read from JSON.
pub fn warn_read(doc: &Document, l: &m::Loop, diags: &mut Diagnostics) {
    match doc.syntax {
        Syntax::Yaml => warn_yaml(doc, l, diags),
        Syntax::Json => warn_json_floats(doc, diags),
    }
}

/// `F017`: an integer field written as a float in JSON.
fn warn_json_floats(doc: &Document, diags: &mut Diagnostics) {
    for field in INTEGER_FIELDS {
        let Some(Value::Number(n)) = doc.root().get(field).map(|node| &node.value) else {
            continue;
        };
        if n.is_u64() || n.is_i64() {
            continue;
        }
        diags.push(
            Diagnostic::new(
                Code::JsonFloatInteger,
                format!(
                    "`{field}` is written as a float ({n}): the multi-agent-spec Go SDK decodes it as an integer and refuses a number with a fraction or an exponent"
                ),
            )
            .with_help("write it as an integer, without `.0` or an exponent")
            .at(format!("/{field}")),
        );
    }
}

/// `F015` and `F016`.
fn warn_yaml(doc: &Document, l: &m::Loop, diags: &mut Diagnostics) {
    for ptr in l.port_schemas() {
        diags.push(
            Diagnostic::new(
                Code::YamlPortSchema,
                format!(
                    "`{}`: the multi-agent-spec Go SDK cannot load a port `schema` from YAML (it decodes `schema` as raw JSON)",
                    field_path(&ptr)
                ),
            )
            .with_help(PORT_SCHEMA_HELP)
            .at_key(ptr),
        );
    }
    if let Some(span) = yaml_directive(&doc.text) {
        let mut d = Diagnostic::new(
            Code::YamlDirective,
            "the `%YAML` directive: the multi-agent-spec Go SDK's YAML reader refuses it",
        )
        .with_help("remove the `%YAML` line (and a `---` that only followed it); the file reads the same without it");
        d.location.pos = Some(doc.pos(span));
        diags.push(d);
    }
}

/// The span of a `%YAML` directive line before the first document, if any.
pub fn yaml_directive(text: &str) -> Option<(usize, usize)> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if body.starts_with("%YAML") {
            return Some((offset, offset + body.len()));
        }
        let t = body.trim_start();
        if !(t.is_empty() || t.starts_with('#') || t.starts_with('%')) {
            return None;
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::yaml_directive;

    #[test]
    fn directive_only_before_the_document() {
        assert_eq!(yaml_directive("%YAML 1.2\n---\na: 1\n"), Some((0, 9)));
        assert_eq!(yaml_directive("# c\n%YAML 1.2\n---\n"), Some((4, 13)));
        assert_eq!(yaml_directive("a: '%YAML'\n"), None);
        assert_eq!(yaml_directive("a: 1\n%YAML 1.2\n"), None);
    }
}
