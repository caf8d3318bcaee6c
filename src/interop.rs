//! Interoperability warnings: files that are valid by the format's schema but that an
//! upstream tool cannot load (issue 9, items 7 and 8). They fire when loopconv reads a
//! multi-agent-spec YAML file (`F015`, `F016`) and when it writes one (`B005`).
//!
//! * The multi-agent-spec Go SDK's `Port` decodes `schema` as raw JSON
//!   (`json.RawMessage`), which its YAML reader cannot fill: a YAML loop with a port
//!   `schema` fails to load there. The JSON form of the same loop loads.
//! * The Go SDK's YAML reader refuses a `%YAML 1.2` directive.

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::ir::{Field, Spec};
use crate::model::mas as m;
use crate::tree::{Document, Syntax};

const PORT_SCHEMA_HELP: &str = "the Go SDK loads the JSON form of this file (`loopconv convert --to mas` writes YAML; keep a JSON copy for Go), or drop the `schema`";

/// JSON Pointers (relative to the loop) of the ports that carry a non-null `schema`.
pub fn port_schemas(l: &m::Loop) -> Vec<String> {
    let mut out = Vec::new();
    for (key, ports) in [("inputs", &l.inputs), ("outputs", &l.outputs)] {
        for (i, p) in ports.iter().flatten().enumerate() {
            if p.schema.as_ref().is_some_and(|s| !s.is_null()) {
                out.push(format!("/{key}/{i}/schema"));
            }
        }
    }
    out
}

/// `F015` and `F016` for a multi-agent-spec file read from YAML.
pub fn warn_read(doc: &Document, l: &m::Loop, diags: &mut Diagnostics) {
    if doc.syntax != Syntax::Yaml {
        return;
    }
    for ptr in port_schemas(l) {
        diags.push(
            Diagnostic::new(
                Code::YamlPortSchema,
                format!(
                    "`{}`: the multi-agent-spec Go SDK cannot load a port `schema` from YAML (it decodes `schema` as raw JSON)",
                    crate::valid::shape::field_path(&ptr)
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

/// `B005` for a multi-agent-spec loop about to be written as YAML: each port `schema`,
/// located at the port in the source.
pub fn warn_written(spec: &Spec, l: &m::Loop, diags: &mut Diagnostics) {
    for ptr in port_schemas(l) {
        let (field, rest) = match ptr.strip_prefix("/inputs") {
            Some(rest) => (Field::Inputs, rest),
            None => (Field::Outputs, ptr.strip_prefix("/outputs").unwrap_or("")),
        };
        let source = format!("{}{rest}", spec.provenance.pointer(field));
        diags.push(
            Diagnostic::new(
                Code::WrittenPortSchema,
                format!(
                    "the written YAML has a port `schema` at `{}`, which the multi-agent-spec Go SDK cannot load from YAML",
                    crate::valid::shape::field_path(&ptr)
                ),
            )
            .with_help(PORT_SCHEMA_HELP)
            .at_key(source),
        );
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
