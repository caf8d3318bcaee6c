//! Python source pieces that hold user text: string literals, docstrings, data literals and
//! identifiers. Every character outside printable ASCII is written as an escape, and so are
//! the quote and the backslash, so no text can end a literal, start a statement or be
//! changed by Python's reading of the source (a carriage return, a line separator): each
//! literal evaluates back to the exact text.

use std::fmt::Write as _;

/// `s` as a one-line Python string literal (`"..."`).
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        escape_char(c, &mut out);
    }
    out.push('"');
    out
}

/// `s` as a triple-quoted docstring that keeps its line breaks as lines; everything else
/// is escaped as in [`string`], except a `"` that no `"` follows and that does not end the
/// text: no two quotes are ever adjacent unescaped, so the closing quotes cannot appear
/// early.
pub fn docstring(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 6);
    out.push_str("\"\"\"");
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push('\n'),
            '"' if chars.peek().is_some_and(|&n| n != '"') => out.push('"'),
            c => escape_char(c, &mut out),
        }
    }
    out.push_str("\"\"\"");
    out
}

fn escape_char(c: char, out: &mut String) {
    match c {
        '\\' => out.push_str("\\\\"),
        '"' => out.push_str("\\\""),
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        ' '..='~' => out.push(c),
        c if u32::from(c) <= 0xFFFF => {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        }
        c => {
            let _ = write!(out, "\\U{:08x}", u32::from(c));
        }
    }
}

/// A JSON value as a Python literal (`dict`, `list`, `str`, `int`, `float`, `True`,
/// `False`, `None`), indented by four spaces per level, keys in the value's order.
pub fn value(v: &serde_json::Value, indent: usize, out: &mut String) {
    use serde_json::Value;
    match v {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => number(n, out),
        Value::String(s) => out.push_str(&string(s)),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Array(items) => {
            out.push_str("[\n");
            for item in items {
                pad(indent + 1, out);
                value(item, indent + 1, out);
                out.push_str(",\n");
            }
            pad(indent, out);
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("{\n");
            for (k, item) in map {
                pad(indent + 1, out);
                out.push_str(&string(k));
                out.push_str(": ");
                value(item, indent + 1, out);
                out.push_str(",\n");
            }
            pad(indent, out);
            out.push('}');
        }
    }
}

/// A JSON number as Python reads it: integers as written; a float that is not finite
/// cannot come from JSON, and any other is written in Rust's shortest round-trip form.
fn number(n: &serde_json::Number, out: &mut String) {
    if n.is_f64() {
        let f = n.as_f64().unwrap_or(0.0);
        let _ = write!(out, "{f:?}");
    } else {
        out.push_str(&n.to_string());
    }
}

fn pad(indent: usize, out: &mut String) {
    for _ in 0..indent {
        out.push_str("    ");
    }
}

/// Python identifiers for ids, one per id in order, each `prefix` + the id with `-` as `_`
/// (any other character outside `[a-z0-9]` as `_uXXXX`), made unique by a numeric suffix
/// in order. The prefix keeps them apart from keywords and from the module's own names.
pub fn identifiers<'a>(prefix: &str, ids: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut taken = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for id in ids {
        let mut name = String::from(prefix);
        for c in id.chars() {
            match c {
                'a'..='z' | '0'..='9' => name.push(c),
                '-' => name.push('_'),
                c => {
                    let _ = write!(name, "_u{:04x}", u32::from(c));
                }
            }
        }
        let mut unique = name.clone();
        let mut k = 2;
        while !taken.insert(unique.clone()) {
            unique = format!("{name}_{k}");
            k += 1;
        }
        out.push(unique);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{docstring, identifiers, string};

    #[test]
    fn literals_escape_quotes_backslashes_and_everything_outside_printable_ascii() {
        assert_eq!(string("a\"b\\c\nimport os"), r#""a\"b\\c\nimport os""#);
        assert_eq!(
            string("x\u{2028}y\u{85}\r\u{1F600}"),
            r#""x\u2028y\u0085\r\U0001f600""#
        );
        // A quote stays as it is unless a quote follows it or it ends the text.
        assert_eq!(
            docstring("one\n\"\"\"two"),
            "\"\"\"one\n\\\"\\\"\"two\"\"\""
        );
        assert_eq!(docstring(r#"say "hi" ""#), r#""""say "hi" \"""""#);
    }

    #[test]
    fn identifiers_are_prefixed_unique_and_deterministic() {
        let ids = identifiers("phase_", ["apply-fix", "import", "a_b", "a-u005f-b"]);
        assert_eq!(
            ids,
            [
                "phase_apply_fix",
                "phase_import",
                "phase_a_u005fb",
                "phase_a_u005f_b"
            ]
        );
        let twice = identifiers("phase_", ["a.b", "a-u002eb"]);
        assert_eq!(twice, ["phase_a_u002eb", "phase_a_u002eb_2"]);
    }
}
