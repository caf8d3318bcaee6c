//! Where a completion is asked for, read from the text around the cursor (not from the
//! tree: while an id is being typed the buffer often does not parse).

use super::index::{ByteRange, RefKind};

/// What is being typed at the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// Which reference.
    pub kind: RefKind,
    /// The range of the partial id (to be replaced).
    pub replace: ByteRange,
    /// Inside a quoted string: insert the bare id.
    pub quoted: bool,
    /// A JSON document and no opening quote: insert a JSON string.
    pub json_needs_quotes: bool,
    /// For `on`: the `from` of the same transition.
    pub from: Option<String>,
}

fn is_id_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '$' | '.')
}

/// The value being typed at the cursor, after `key:`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueAt<'t> {
    /// The key (lowercase letters and `_`).
    pub key: &'t str,
    /// The range of the partial value (to be replaced).
    pub replace: ByteRange,
    /// Inside a quoted string: insert the bare value.
    pub quoted: bool,
    /// A JSON document and no opening quote: insert a JSON string.
    pub json_needs_quotes: bool,
}

/// The value typed at byte `offset`, when the cursor is on the value of a key (`key: ` in
/// YAML, `"key": ` in JSON) on the cursor's line.
pub fn value_at(text: &str, offset: usize) -> Option<ValueAt<'_>> {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let prefix = &text[crate::text::line_start(text, offset)..offset];
    let word = prefix.len() - prefix.trim_end_matches(is_id_char).len();
    let word_start = offset - word;
    let before = &prefix[..prefix.len() - word];
    let quoted = before.ends_with(['"', '\'']);
    let before = before.trim_end_matches(['"', '\'']).trim_end();
    let before = before
        .strip_suffix(':')?
        .trim_end()
        .trim_end_matches(['"', '\'']);
    let key_len = before.len()
        - before
            .trim_end_matches(|c: char| c.is_ascii_lowercase() || c == '_')
            .len();
    let key = &before[before.len() - key_len..];
    let rest = &text[offset..];
    let word_end = offset + (rest.len() - rest.trim_start_matches(is_id_char).len());
    Some(ValueAt {
        key,
        replace: (word_start, word_end),
        quoted,
        json_needs_quotes: !quoted && text.trim_start().starts_with('{'),
    })
}

/// The completion context at byte `offset`, when the cursor is on the value of a key that
/// holds a phase or outcome reference.
pub fn context(text: &str, offset: usize) -> Option<Context> {
    let v = value_at(text, offset)?;
    let kind = [
        RefKind::Entry,
        RefKind::From,
        RefKind::To,
        RefKind::BeforePhase,
        RefKind::OnReject,
        RefKind::On,
    ]
    .into_iter()
    .find(|k| k.keys().contains(&v.key))?;
    let from = (kind == RefKind::On)
        .then(|| from_near(text, v.replace.0))
        .flatten();
    Some(Context {
        kind,
        replace: v.replace,
        quoted: v.quoted,
        json_needs_quotes: v.json_needs_quotes,
        from,
    })
}

/// The keys of the JSON objects around byte `offset`, outermost first, when the cursor is
/// where a key of the innermost one is typed (after `{` or `,`, with or without its opening
/// quote), and the range of the partial key; `None` elsewhere and in YAML.
pub fn json_key_at(text: &str, offset: usize) -> Option<(Vec<String>, ByteRange)> {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let head = &text[..offset];
    let word = head.len() - head.trim_end_matches(is_id_char).len();
    let start = offset - word;
    let before = head[..start].trim_end_matches('"').trim_end();
    if !before.ends_with(['{', ',']) {
        return None;
    }
    let rest = &text[offset..];
    let end = offset + (rest.len() - rest.trim_start_matches(is_id_char).len());
    Some((open_objects(&text[..start])?, (start, end)))
}

/// The key of each object still open at the end of `text` (JSON), outermost first; the
/// top-level object's key is empty. `None` when the innermost open value is an array.
fn open_objects(text: &str) -> Option<Vec<String>> {
    let b = text.as_bytes();
    let mut stack: Vec<(u8, String)> = Vec::new();
    let (mut last_string, mut key) = (String::new(), String::new());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let len = string_len(&b[i + 1..]);
                last_string = text.get(i + 1..i + 1 + len).unwrap_or("").to_owned();
                i += len + 2;
                continue;
            }
            b':' => key = std::mem::take(&mut last_string),
            c @ (b'{' | b'[') => stack.push((c, std::mem::take(&mut key))),
            b'}' | b']' => drop(stack.pop()),
            _ => {}
        }
        i += 1;
    }
    match stack.last() {
        Some((b'{', _)) => Some(stack.into_iter().skip(1).map(|(_, k)| k).collect()),
        _ => None,
    }
}

/// The length of a JSON string's body (up to its closing quote, or the end).
fn string_len(b: &[u8]) -> usize {
    let mut i = 0;
    while i < b.len() && b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i.min(b.len())
}

/// The `from` of the transition around `offset`: in JSON the enclosing `{...}`, in YAML
/// the list item around the cursor line.
fn from_near(text: &str, offset: usize) -> Option<String> {
    let (start, end) = if text.trim_start().starts_with('{') {
        let start = text[..offset].rfind('{')?;
        let end = text[offset..].find('}').map_or(text.len(), |i| offset + i);
        (start, end)
    } else {
        yaml_item(text, offset)
    };
    let window = text.get(start..end)?;
    from_value(window).map(str::to_owned)
}

/// The value of the first `from` key in `window` (`"from": "x"`, `'from': x`, `from: x`),
/// read as far as a quote, comma, brace or space: what the regex
/// `(?:"from"|'from'|\bfrom)\s*:\s*["']?([^"',}\s]+)` captures, which a test checks, without
/// linking a regex engine into the binary for it.
fn from_value(window: &str) -> Option<&str> {
    let b = window.as_bytes();
    let mut search = 0;
    while let Some(i) = window[search..].find("from") {
        let at = search + i;
        search = at + 4;
        let quote = at.checked_sub(1).map(|q| b[q]);
        let after = match quote {
            Some(q @ (b'"' | b'\'')) if b.get(at + 4) == Some(&q) => at + 5,
            _ if window[..at].chars().next_back().is_some_and(is_word_char) => continue,
            _ => at + 4,
        };
        let Some(rest) = window[after..].trim_start().strip_prefix(':') else {
            continue;
        };
        let rest = rest.trim_start();
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
        let end = rest
            .find(|c: char| matches!(c, '"' | '\'' | ',' | '}') || c.is_whitespace())
            .unwrap_or(rest.len());
        if end > 0 {
            return Some(&rest[..end]);
        }
    }
    None
}

/// A character of a word, as a regex's `\b` sees it.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The byte range of the YAML block sequence item holding `offset`: read line by line
/// from the cursor's (back to the item's `- `, on to the next line indented as little),
/// not from a list of every line of the text.
fn yaml_item(text: &str, offset: usize) -> (usize, usize) {
    use crate::text::{line_start, next_line_start};
    let line_at = |start: usize| &text[start..next_line_start(text, start)];
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut item = line_start(text, offset);
    while !line_at(item).trim_start().starts_with("- ") {
        if item == 0 {
            return (0, text.len());
        }
        item = line_start(text, item - 1);
    }
    let dash = indent(line_at(item));
    let mut next = item + line_at(item).len();
    while next < text.len() {
        let l = line_at(next);
        if !l.trim().is_empty() && indent(l) <= dash {
            return (item, next);
        }
        next += l.len();
    }
    (item, text.len())
}

#[cfg(test)]
mod tests {

    use super::{Context, context, from_value};
    use crate::lsp::index::RefKind;
    /// `from_value` captures what the regex it replaced captured.
    #[test]
    fn from_value_agrees_with_the_regex() {
        let re = regex::Regex::new(r#"(?:"from"|'from'|\bfrom)\s*:\s*["']?([^"',}\s]+)"#)
            .expect("valid regex");
        let parts = [
            "from", "\"from\"", "'from'", "\"from'", ":", " ", "\u{a0}", "\"", "'", "a", "x-1",
            ",", "}", "{", "_", "é", "\n", "to", "fromage",
        ];
        let mut seed = 7u64;
        let mut found = 0;
        for _ in 0..50_000 {
            let mut s = String::new();
            for _ in 0..(seed >> 60) + 1 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push_str(parts[(seed >> 33) as usize % parts.len()]);
            }
            let want = re.captures(&s).map(|c| c.get(1).map_or("", |m| m.as_str()));
            assert_eq!(from_value(&s), want, "{s:?}");
            found += usize::from(want.is_some());
        }
        assert!(
            found > 1_000,
            "the strings find a `from` value {found} times"
        );
    }

    fn at(text: &str) -> Option<Context> {
        let off = text.find('|').unwrap();
        let text = text.replace('|', "");
        context(&text, off)
    }

    #[test]
    fn json_and_yaml_contexts() {
        let c = at("{\"transitions\": [{\"from\": \"a\", \"on\": \"|\"}]}").unwrap();
        assert_eq!(
            (c.kind, c.quoted, c.from.as_deref()),
            (RefKind::On, true, Some("a"))
        );
        let c = at("{\n  \"to\": re|").unwrap();
        assert_eq!(
            (c.kind, c.quoted, c.json_needs_quotes),
            (RefKind::To, false, true)
        );
        assert_eq!(c.replace, (10, 12));
        let c = at("transitions:\n  - from: plan\n    on: |\n").unwrap();
        assert_eq!((c.kind, c.from.as_deref()), (RefKind::On, Some("plan")));
        // The `from` of the item around the cursor, not of its neighbours.
        let items = "transitions:\n  - from: a\n    on: x\n  - to: b\n\n    on: |\n  - from: c\n";
        assert_eq!(at(items).unwrap().from, None);
        let items = items.replace("- to: b", "- from: b");
        assert_eq!(at(&items).unwrap().from.as_deref(), Some("b"));
        // The IR graph's `entry` is completed as AgentPM's `entry_phase` is.
        let c = at("{\"graph\": {\"entry\": \"|\"}}").unwrap();
        assert_eq!((c.kind, c.quoted), (RefKind::Entry, true));
        assert!(at("{\"name\": \"|\"}").is_none());
        assert!(at("|").is_none());
    }
}
