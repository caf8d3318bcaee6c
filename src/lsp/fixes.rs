//! The text edit of each [`Suggestion`], computed from the suggestion's data and the
//! located tree (never from a diagnostic's message or help text).

use lsp_types::TextEdit;

use super::features::DocumentText;
use super::index::{ByteRange, Index};
use crate::diag::{EditTarget, Suggestion};
use crate::pointer::Pointer;
use crate::tree::{Document, Member, Node, Syntax, Value};

/// A quick fix: its title (without the code) and its edit.
pub struct Fix {
    /// What the fix does, e.g. "replace with `plan`".
    pub title: String,
    /// The changes to the document (several for a name replaced at every place).
    pub edits: Vec<TextEdit>,
}

/// The fix for `s` in the analysed document, when its target can be found there.
pub fn fix(t: &DocumentText, index: &Index, doc: Option<&Document>, s: &Suggestion) -> Option<Fix> {
    let (title, edit) = match s {
        Suggestion::Replace { target, with } => {
            (format!("replace with `{with}`"), replace(t, target, with)?)
        }
        Suggestion::ReplaceAll { targets, with } => {
            let edits = targets
                .iter()
                .map(|target| replace(t, target, with))
                .collect::<Option<Vec<_>>>()?;
            let title = format!(
                "replace with `{with}` at each of the {} places",
                edits.len()
            );
            return Some(Fix { title, edits });
        }
        Suggestion::Set { target, to } => (
            format!("set `{}` to `{to}`", target.field()),
            replace(t, target, to)?,
        ),
        Suggestion::RemoveKey { target } => (
            format!("remove `{}`", target.field()),
            remove_member(t, doc?, &target.pointer)?,
        ),
        Suggestion::AddKey { object, key, value } => (
            format!("add `{key}`"),
            add_member(t, doc?, object, key, value)?,
        ),
        Suggestion::AddTransition { from, on } => (
            format!("add a transition for `{from}` on `{on}`"),
            add_transition(t, index, doc?.syntax, from, on)?,
        ),
    };
    Some(Fix {
        title,
        edits: vec![edit],
    })
}

/// Overwrite the located key or value with a JSON string (which YAML reads the same).
fn replace(t: &DocumentText, target: &EditTarget, with: &str) -> Option<TextEdit> {
    let pos = target.pos?;
    let new = serde_json::to_string(with).ok()?;
    Some(TextEdit::new(t.range((pos.start, pos.end)), new))
}

/// The object holding the member at `pointer`, and the member's index in it.
fn member_at<'a>(doc: &'a Document, pointer: &str) -> Option<(&'a [Member], usize)> {
    let (parent, key) = Pointer::new(pointer).split_last()?;
    let Value::Object(members) = &node_at(doc, parent.as_str())?.value else {
        return None;
    };
    let i = members.iter().position(|m| m.key.as_str() == key)?;
    Some((members, i))
}

/// The node at a JSON Pointer, exactly.
fn node_at<'a>(doc: &'a Document, pointer: &str) -> Option<&'a Node> {
    let mut node = doc.root();
    for seg in Pointer::new(pointer).tokens() {
        node = match &node.value {
            Value::Object(ms) => &ms.iter().find(|m| m.key.as_str() == seg)?.value,
            Value::Array(items) => items.get(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// Delete a member with its separator: up to the next member's key, or (for the last
/// member) from the end of the previous member's value. JSON and YAML alike.
fn remove_member(t: &DocumentText, doc: &Document, pointer: &str) -> Option<TextEdit> {
    let (members, i) = member_at(doc, pointer)?;
    let m = &members[i];
    let span: ByteRange = match (members.get(i + 1), i.checked_sub(1)) {
        (Some(next), _) => (m.key_span.start(), next.key_span.start()),
        (None, Some(prev)) => (members[prev].value.span.end(), m.value.span.end()),
        (None, None) => (m.key_span.start(), m.value.span.end()),
    };
    (span.0 <= span.1).then(|| TextEdit::new(t.range(span), String::new()))
}

/// Insert `"key": value` before the first member of the object at `object` (on a line of
/// its own when that member starts its line). An empty object gets no fix.
fn add_member(
    t: &DocumentText,
    doc: &Document,
    object: &str,
    key: &str,
    value: &serde_json::Value,
) -> Option<TextEdit> {
    let Value::Object(members) = &node_at(doc, object)?.value else {
        return None;
    };
    let at = members.first()?.key_span.start();
    let indent = t.text.get(crate::text::line_start(t.text, at)..at)?;
    let own_line = indent.chars().all(char::is_whitespace);
    let comma = if doc.syntax == Syntax::Json || !own_line {
        ","
    } else {
        ""
    };
    let sep = if own_line {
        format!("{comma}{}{indent}", crate::text::line_ending(t.text))
    } else {
        format!("{comma} ")
    };
    let key = serde_json::to_string(key).ok()?;
    Some(TextEdit::new(
        t.range((at, at)),
        format!("{key}: {value}{sep}"),
    ))
}

/// The edit adding `{from, on, to: "$end"}` after the last transition (the author then
/// picks the target).
fn add_transition(
    t: &DocumentText,
    index: &Index,
    syntax: Syntax,
    from: &str,
    on: &str,
) -> Option<TextEdit> {
    let last = index.transitions.last()?;
    let line_start = crate::text::line_start(t.text, last.span.0);
    let nl = crate::text::line_ending(t.text);
    let indent: String = t.text[line_start..last.span.0]
        .chars()
        .map(|c| if c == '-' { ' ' } else { c })
        .take_while(|c| c.is_whitespace())
        .collect();
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let flow =
        (index.transitions_span).is_some_and(|span| t.text.as_bytes().get(span.0) == Some(&b'['));
    let (at, text) = match syntax {
        // A YAML flow sequence (`transitions: [{...}, {...}]`) takes a flow item.
        Syntax::Yaml if flow => (
            last.span.1,
            format!(", {{from: {}, on: {}, to: \"$end\"}}", q(from), q(on)),
        ),
        Syntax::Json => (
            last.span.1,
            format!(
                ",{nl}{indent}{{ \"from\": {}, \"on\": {}, \"to\": \"$end\" }}",
                q(from),
                q(on)
            ),
        ),
        Syntax::Yaml => {
            let end = crate::text::line_end(t.text, last.span.1);
            let dash = indent.len().saturating_sub(2);
            let pad = " ".repeat(dash);
            (
                end,
                format!(
                    "{nl}{pad}- from: {}{nl}{pad}  on: {}{nl}{pad}  to: \"$end\"",
                    q(from),
                    q(on)
                ),
            )
        }
    };
    Some(TextEdit::new(t.range((at, at)), text))
}
