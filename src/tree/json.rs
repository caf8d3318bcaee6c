//! The JSON parser: a recursive descent that keeps every span and every duplicate key.

use std::hash::BuildHasher as _;

use crate::diag::{Code, Diagnostic, Diagnostics};

use super::decode::{MAX_VALUES_HELP, ReadLimits};
use super::duplicates::{Dups, report_duplicates};
use super::key::{Key, Vocabulary};
use super::lines::{line_starts, pos_of};
use super::node::{Document, Member, Node, Reread, Span, Syntax, Value};
use super::string::{SourceText, Str};

/// Parse JSON text into a [`Document`]. Duplicate keys are reported and kept; keys that are
/// words of `keys` share them.
///
/// Hand-written on purpose: every key and value needs its byte span (for located
/// diagnostics and the editor server), duplicate keys must be seen (serde_json keeps the
/// last silently), and depth and value counts must be limited while parsing. serde_json
/// offers none of these. Measured on the 2-core development machine under load
/// (2026-12-01): 1.3 ms for the 215 KB hostile example against 0.21 ms for
/// `serde_json::Value` (which builds no positions), and 69 µs against 42 µs for a 4.5 KB
/// loop; the extra time is the position and duplicate bookkeeping.
pub fn parse_json(
    text: String,
    keys: &'static Vocabulary,
    limits: &ReadLimits,
    diags: &mut Diagnostics,
) -> Option<Document> {
    parse_json_or_text(text, keys, limits, diags).ok()
}

/// The root of a JSON text, or where it stopped being JSON, and the duplicate keys.
fn read_root(
    source: &SourceText,
    keys: &Vocabulary,
    limits: &ReadLimits,
) -> (Result<Node, JErr>, Dups) {
    let mut p = JsonParser {
        keys,
        source,
        t: source.as_str(),
        s: source.as_bytes(),
        i: 0,
        depth: 0,
        max_depth: limits.max_depth,
        nodes: 0,
        max_nodes: limits.max_nodes,
        dups: Dups::new(limits.max_diagnostics),
        members: Vec::new(),
        items: Vec::new(),
    };
    let result = p.document();
    (result, p.dups)
}

/// The root of a JSON text read before ([`Document::release_tree`]); `None` if it is
/// no longer JSON.
fn reread_root(
    source: &SourceText,
    keys: &'static Vocabulary,
    limits: &ReadLimits,
) -> Option<Node> {
    read_root(source, keys, limits).0.ok()
}

/// [`parse_json`], handing the text back when it is not a document (for source snippets,
/// without a copy of the input).
pub fn parse_json_or_text(
    text: String,
    keys: &'static Vocabulary,
    limits: &ReadLimits,
    diags: &mut Diagnostics,
) -> Result<Document, String> {
    let text = SourceText::new(text);
    let (result, dups) = read_root(&text, keys, limits);
    let reread = Reread {
        root: reread_root,
        keys,
        limits: *limits,
    };
    match result {
        Ok(root) => {
            let doc = Document::new(text, Syntax::Json, root, None, reread);
            // Every key was looked up in its object (`KeyIndex`): none repeated, none
            // shadows another, which the shape check then need not look for.
            let doc = if dups.any() {
                doc
            } else {
                doc.without_repeats()
            };
            report_duplicates(&doc, dups, diags);
            Ok(doc)
        }
        Err((code, msg, at, help)) => {
            let comment = comment_at(&text, at);
            let msg = match comment {
                Some(_) => msg.replace("found `/`", "found a comment"),
                None => msg,
            };
            let mut d = Diagnostic::new(code, msg);
            if let Some(h) = comment.or(help) {
                d = d.with_help(h);
            }
            d.location.pos = Some(pos_of(&text, &line_starts(&text), (at, at + 1)));
            diags.push(d);
            // No string refers to the text any more: handed back without a copy.
            Err(text.into_string())
        }
    }
}

type JErr = (Code, String, usize, Option<&'static str>);

/// The help for a syntax error at a comment (`//` or `/*`), which JSON does not have,
/// whatever the parser expected there.
fn comment_at(text: &str, at: usize) -> Option<&'static str> {
    let rest = text.get(at..)?;
    (rest.starts_with("//") || rest.starts_with("/*")).then_some(
        "JSON has no comments: remove it, or say it in a `description` (a multi-agent-spec loop may be written as YAML, which has `#` comments; AgentPM reads manifests as JSON only)",
    )
}

/// Objects up to this many members find a repeated key by scanning them; larger ones
/// through a hash index (a scan alone made an object of 200,000 keys take over a minute,
/// and a hash map for every small object was a tenth of the time of parsing a loop).
const SCAN_MEMBERS: usize = 16;

/// Where each key of an object under construction first appears.
#[derive(Default)]
struct KeyIndex {
    /// Built once the object has more than [`SCAN_MEMBERS`] members: the first member of
    /// each key's hash, and the hasher. Keys are hashed by foldhash with a seed of the
    /// process (the keys are the file's, so a fixed seed would let a file make them
    /// collide; std's SipHash was 1 % of reading an XState machine, whose `states` object
    /// has a key per phase), and not copied: a copy of every key of a large object was a
    /// tenth of reading it. A member found by hash is compared by key; of two keys of one
    /// hash, the later is found by a scan. Only looked up: no order reaches an output.
    index: Option<(
        std::collections::HashMap<u64, usize, foldhash::fast::RandomState>,
        foldhash::fast::RandomState,
    )>,
}

impl KeyIndex {
    /// The index of the first member named `key`, and the key's hash when the object is
    /// indexed (for [`Self::add`], which then does not hash the key again).
    fn first(&self, members: &[Member], key: &Key) -> (Option<usize>, Option<u64>) {
        let scan = || members.iter().position(|m| m.key.same(key));
        let Some((index, hasher)) = &self.index else {
            return (scan(), None);
        };
        let hash = hasher.hash_one(key.as_str());
        let first = match index.get(&hash) {
            Some(&i) if members[i].key.same(key) => Some(i),
            Some(_) => scan(),
            None => None,
        };
        (first, Some(hash))
    }

    /// Record `key`, about to be pushed as `members[members.len()]`; `hash` is what
    /// [`Self::first`] gave for it.
    fn add(&mut self, members: &[Member], key: &str, hash: Option<u64>) {
        if let Some((index, hasher)) = &mut self.index {
            let hash = hash.unwrap_or_else(|| hasher.hash_one(key));
            index.entry(hash).or_insert(members.len());
        } else if members.len() >= SCAN_MEMBERS {
            let hasher = foldhash::fast::RandomState::default();
            let mut index = std::collections::HashMap::with_capacity_and_hasher(
                members.len() * 2,
                foldhash::fast::RandomState::default(),
            );
            for (i, m) in members.iter().enumerate() {
                index.entry(hasher.hash_one(m.key.as_str())).or_insert(i);
            }
            index.entry(hasher.hash_one(key)).or_insert(members.len());
            self.index = Some((index, hasher));
        }
    }
}

struct JsonParser<'a> {
    /// The words that keys share.
    keys: &'a Vocabulary,
    /// The text, which string values without escapes refer to.
    source: &'a SourceText,
    /// The text, for slices of it (its bytes are `s`; slicing at the ASCII bytes the
    /// parser stops at needs no UTF-8 check).
    t: &'a str,
    s: &'a [u8],
    i: usize,
    depth: usize,
    max_depth: usize,
    nodes: usize,
    max_nodes: usize,
    dups: Dups,
    /// The members of the objects being read, innermost last: each object's members are
    /// moved into a vector of exactly their number when it ends (growing one vector per
    /// object wasted a third of the tree's memory).
    members: Vec<Member>,
    /// The same for array items.
    items: Vec<Node>,
}

impl<'a> JsonParser<'a> {
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, JErr> {
        Err((Code::Syntax, msg.into(), self.i, None))
    }

    /// The index just past the last character before the whitespace that ends at `i`.
    fn before_ws(&self, i: usize) -> usize {
        let mut j = i;
        while j > 0 && matches!(self.s[j - 1], b' ' | b'\t' | b'\n' | b'\r') {
            j -= 1;
        }
        j
    }

    /// A member or item followed by another without a comma: placed at the end of the
    /// first (where the comma goes), not at the second.
    fn missing_comma(&self, close: char) -> JErr {
        (
            Code::Syntax,
            format!("a comma is missing after this value: another follows before `{close}`"),
            self.before_ws(self.i).saturating_sub(1),
            Some("members and items are separated by commas: add `,` after this value"),
        )
    }

    /// Skip whitespace. The indentation after a line break is skipped eight spaces (or
    /// tabs) at a time: a byte at a time, whitespace was 5 % of checking a 10,000-phase
    /// loop indented by four spaces (32 M of 612 M instructions, callgrind; issue 50).
    /// A single space (after a colon or comma) costs what it did.
    fn ws(&mut self) {
        let s = self.s;
        let mut i = self.i;
        while let Some(&c) = s.get(i) {
            if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                break;
            }
            i += 1;
            if c == b'\n' {
                while let Some(w) = s.get(i..i + 8) {
                    if w != [b' '; 8] && w != [b'\t'; 8] {
                        break;
                    }
                    i += 8;
                }
            }
        }
        self.i = i;
    }

    fn document(&mut self) -> Result<Node, JErr> {
        self.ws();
        let n = self.value()?;
        self.ws();
        if self.i < self.s.len() {
            return Err((
                Code::Syntax,
                "trailing characters after the JSON value".into(),
                self.i,
                Some("a loop file holds exactly one JSON object"),
            ));
        }
        Ok(n)
    }

    fn describe(&self) -> String {
        match self.s.get(self.i) {
            None => "end of input".into(),
            Some(&c) if c.is_ascii_graphic() => format!("`{}`", c as char),
            Some(&c) => format!("byte 0x{c:02x}"),
        }
    }

    fn value(&mut self) -> Result<Node, JErr> {
        let start = self.i;
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err((
                Code::TooLarge,
                format!(
                    "the JSON document is too large to be a loop: it has more than {} values",
                    self.max_nodes
                ),
                self.i,
                Some(MAX_VALUES_HELP),
            ));
        }
        let value = match self.s.get(self.i) {
            None => return self.err("expected a JSON value, found end of input"),
            Some(b'{') => self.object()?,
            Some(b'[') => self.array()?,
            Some(b'"') => Value::String(self.string_value()?),
            Some(b't') => self.word("true", Value::Bool(true))?,
            Some(b'f') => self.word("false", Value::Bool(false))?,
            Some(b'n') => self.word("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => {
                let found = self.describe();
                return Err((
                    Code::Syntax,
                    format!("expected a JSON value, found {found}"),
                    self.i,
                    if self.s.get(self.i) == Some(&b'\'') {
                        Some("JSON strings use double quotes")
                    } else {
                        None
                    },
                ));
            }
        };
        Ok(Node {
            value,
            span: Span::new(start, self.i),
        })
    }

    fn word(&mut self, w: &str, v: Value) -> Result<Value, JErr> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            let found = self.describe();
            self.err(format!("expected a JSON value, found {found}"))
        }
    }

    fn enter(&mut self) -> Result<(), JErr> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err((
                Code::TooDeep,
                format!(
                    "arrays and objects are nested more than {} levels deep",
                    self.max_depth
                ),
                self.i,
                Some("loop files need only a few levels; this input is not a loop"),
            ));
        }
        Ok(())
    }

    fn object(&mut self) -> Result<Value, JErr> {
        self.enter()?;
        self.i += 1;
        let base = self.members.len();
        let mut keys = KeyIndex::default();
        // Where each key was last given, once the object repeats more keys than are
        // reported (`Dups`): a repeat beyond them takes the place of the key's last
        // member, whose value it overrides anyway (the last one is read), so that a
        // million repeats of one key hold one member, not a million (the tree of a 6 MB
        // object of repeats was 8 times the file's size).
        let mut lasts: Option<
            std::collections::HashMap<String, usize, foldhash::fast::RandomState>,
        > = None;
        self.ws();
        if self.s.get(self.i) == Some(&b'}') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Value::Object(Box::default()));
        }
        loop {
            self.ws();
            if self.s.get(self.i) != Some(&b'"') {
                if self.s.get(self.i) == Some(&b'}') {
                    // At the cause: the comma before the closing brace.
                    return Err((
                        Code::Syntax,
                        "a trailing comma before `}`".into(),
                        self.before_ws(self.i).saturating_sub(1),
                        Some("JSON does not allow a trailing comma: remove this `,`"),
                    ));
                }
                let found = self.describe();
                return Err((
                    Code::Syntax,
                    format!("expected a string key, found {found}"),
                    self.i,
                    Some("JSON keys are double-quoted strings"),
                ));
            }
            let ks = self.i;
            let key = self.key()?;
            let key_span = Span::new(ks, self.i);
            self.ws();
            if self.s.get(self.i) != Some(&b':') {
                let found = self.describe();
                return self.err(format!("expected `:` after the key, found {found}"));
            }
            self.i += 1;
            self.ws();
            let value = self.value()?;
            let members = &self.members[base..];
            let mut replaces = None;
            let (first, hash) = keys.first(members, &key);
            if let Some(first) = first {
                let first = members[first].key_span;
                let reported = self
                    .dups
                    .push(|| (String::new(), key.to_string(), key_span, first));
                if !reported {
                    let lasts = lasts.get_or_insert_with(|| {
                        let mut at = std::collections::HashMap::default();
                        for (i, m) in members.iter().enumerate() {
                            at.insert(m.key.to_string(), i);
                        }
                        at
                    });
                    replaces = lasts.get(key.as_str()).copied();
                }
            }
            let member = Member {
                key,
                key_span,
                value,
            };
            if let Some(at) = replaces {
                self.members[base + at] = member;
            } else {
                keys.add(members, &member.key, hash);
                if let Some(lasts) = &mut lasts {
                    lasts.insert(member.key.to_string(), self.members.len() - base);
                }
                self.members.push(member);
            }
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                Some(b'"') => return Err(self.missing_comma('}')),
                _ => {
                    let found = self.describe();
                    return self.err(format!("expected `,` or `}}`, found {found}"));
                }
            }
        }
        self.depth -= 1;
        Ok(Value::Object(self.members.drain(base..).collect()))
    }

    fn array(&mut self) -> Result<Value, JErr> {
        self.enter()?;
        self.i += 1;
        let base = self.items.len();
        self.ws();
        if self.s.get(self.i) == Some(&b']') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Value::Array(Box::default()));
        }
        loop {
            self.ws();
            if self.s.get(self.i) == Some(&b']') {
                // At the cause: the comma before the closing bracket.
                return Err((
                    Code::Syntax,
                    "a trailing comma before `]`".into(),
                    self.before_ws(self.i).saturating_sub(1),
                    Some("JSON does not allow a trailing comma: remove this `,`"),
                ));
            }
            let item = self.value()?;
            self.items.push(item);
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    break;
                }
                Some(b'"' | b'{' | b'[' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n') => {
                    return Err(self.missing_comma(']'));
                }
                _ => {
                    let found = self.describe();
                    return self.err(format!("expected `,` or `]`, found {found}"));
                }
            }
        }
        self.depth -= 1;
        Ok(Value::Array(self.items.drain(base..).collect()))
    }

    fn hex4(&mut self) -> Result<u32, JErr> {
        let h = self.s.get(self.i..self.i + 4).unwrap_or(&[]);
        let text = std::str::from_utf8(h).unwrap_or("");
        match (h.len() == 4, u32::from_str_radix(text, 16)) {
            (true, Ok(v)) if text.bytes().all(|b| b.is_ascii_hexdigit()) => {
                self.i += 4;
                Ok(v)
            }
            _ => self.err("invalid `\\u` escape: expected four hex digits"),
        }
    }

    /// An object key: without escapes, looked up in place (no allocation for a known key).
    fn key(&mut self) -> Result<Key, JErr> {
        match self.plain_run() {
            Ok(text) => Ok(self.keys.key(text)),
            Err(first_run) => {
                let text = self.string(first_run)?;
                Ok(self.keys.key_from(text))
            }
        }
    }

    /// A string value: without escapes, a range of the source (held in place when short).
    fn string_value(&mut self) -> Result<Str, JErr> {
        match self.plain_run() {
            Ok(text) => {
                // `plain_run` moved the cursor past the closing quote.
                let start = self.i - 1 - text.len();
                let range = Str::in_source(self.source, start, text.len());
                Ok(range.unwrap_or_else(|| Str::new(text, false)))
            }
            Err(first_run) => (self.string(first_run)).map(|text| Str::from_string(text, false)),
        }
    }

    /// The string at the cursor when it has no escapes and no control characters (the
    /// cursor then moves past it), found by [`special_run`]: a byte-at-a-time search was a
    /// tenth of checking a large loop. Otherwise the length of its first run, for
    /// [`Self::string`], and the cursor stays.
    fn plain_run(&mut self) -> Result<&'a str, usize> {
        let start = self.i + 1;
        let rest = self.s.get(start..).unwrap_or_default();
        let n = special_run(rest);
        if rest.get(n) != Some(&b'"') {
            return Err(n);
        }
        self.i = start + n + 1;
        Ok(self.t.get(start..start + n).unwrap_or_default())
    }

    /// The string at the cursor, its escapes decoded, whose first run of bytes copied as
    /// they are is `first_run` long ([`Self::plain_run`] found it): the runs between
    /// escapes are found by [`special_run`] and copied whole.
    fn string(&mut self, first_run: usize) -> Result<String, JErr> {
        self.i += 1; // opening quote
        let mut out = String::with_capacity(first_run);
        let mut run_len = first_run;
        loop {
            let run = self.i;
            self.i += run_len;
            // The input is valid UTF-8 and we only stop at ASCII bytes.
            out.push_str(self.t.get(run..self.i).unwrap_or(""));
            match self.s.get(self.i) {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    self.escape(&mut out)?;
                    run_len = special_run(self.s.get(self.i..).unwrap_or_default());
                }
                Some(_) => {
                    return Err((
                        Code::Syntax,
                        "control character inside a string".into(),
                        self.i,
                        Some("write newlines and tabs as `\\n` and `\\t`"),
                    ));
                }
            }
        }
    }

    /// The escape after a backslash (the cursor on its letter), appended to `out`.
    fn escape(&mut self, out: &mut String) -> Result<(), JErr> {
        let Some(&e) = self.s.get(self.i) else {
            return self.err("unterminated string");
        };
        self.i += 1;
        match e {
            b'"' => out.push('"'),
            b'\\' => out.push('\\'),
            b'/' => out.push('/'),
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b'n' => out.push('\n'),
            b'r' => out.push('\r'),
            b't' => out.push('\t'),
            b'u' => out.push(self.unicode_escape()?),
            _ => {
                self.i -= 1;
                let found = self.describe();
                return self.err(format!("invalid escape `\\{}`", found.trim_matches('`')));
            }
        }
        Ok(())
    }

    /// The character of a `\u` escape, or of two that are a surrogate pair (the cursor past
    /// the first `\u`).
    fn unicode_escape(&mut self) -> Result<char, JErr> {
        let hi = self.hex4()?;
        let cp = if (0xD800..0xDC00).contains(&hi) {
            if self.s.get(self.i..self.i + 2) != Some(b"\\u") {
                return self.err("lone surrogate in `\\u` escape");
            }
            self.i += 2;
            let lo = self.hex4()?;
            if !(0xDC00..0xE000).contains(&lo) {
                return self.err("invalid surrogate pair in `\\u` escape");
            }
            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
        } else {
            hi
        };
        match char::from_u32(cp) {
            Some(c) => Ok(c),
            None => self.err("lone surrogate in `\\u` escape"),
        }
    }

    fn number(&mut self) -> Result<Value, JErr> {
        let start = self.i;
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let digits = |p: &mut Self| {
            let s = p.i;
            while p.s.get(p.i).is_some_and(u8::is_ascii_digit) {
                p.i += 1;
            }
            p.i - s
        };
        let int_start = self.i;
        let n = digits(self);
        if n == 0 {
            return self.err("invalid number");
        }
        if n > 1 && self.s[int_start] == b'0' {
            return Err((
                Code::Syntax,
                "numbers cannot have leading zeros".into(),
                int_start,
                None,
            ));
        }
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            if digits(self) == 0 {
                return self.err("invalid number: expected digits after `.`");
            }
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if digits(self) == 0 {
                return self.err("invalid number: expected digits in the exponent");
            }
        }
        let text = self.t.get(start..self.i).unwrap_or("0");
        // Integers exactly; everything else through the standard library's correctly
        // rounded parser (serde_json's default float parser can be off by one ulp, which
        // broke `IR -> IR` for some port defaults).
        let n = match (text.parse::<u64>(), text.parse::<i64>()) {
            (Ok(u), _) => Some(serde_json::Number::from(u)),
            (_, Ok(i)) => Some(serde_json::Number::from(i)),
            _ => text
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .and_then(serde_json::Number::from_f64),
        };
        match n.ok_or(()) {
            Ok(n) => Ok(Value::Number(n)),
            Err(_) => Err((
                Code::Syntax,
                format!("number {} is out of range", crate::diag::quote(text)),
                start,
                None,
            )),
        }
    }
}

/// How many bytes at the start of `b` a string copies as they are: up to its first quote,
/// backslash or control character. The quote or backslash is found with `memchr2` (SIMD),
/// then the run is checked for control characters in one branch-free pass: a byte at a
/// time, this was two fifths of reading a loop whose texts have escapes (`long`).
fn special_run(b: &[u8]) -> usize {
    let n = memchr::memchr2(b'"', b'\\', b).unwrap_or(b.len());
    let run = &b[..n];
    if run.iter().fold(false, |any, &c| any | (c < 0x20)) {
        return run.iter().position(|&c| c < 0x20).unwrap_or(n);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::{Code, Diagnostics};
    use crate::diag::Locate;
    use crate::tree::{Document, ReadLimits, Value, Vocabulary, parse_json};

    static WORDS: Vocabulary = Vocabulary::new(&["a", "b"]);

    fn json(s: &str) -> (Option<Document>, Diagnostics) {
        let mut d = Diagnostics::new("t.json");
        let doc = parse_json(s.to_owned(), &WORDS, &ReadLimits::default(), &mut d);
        (doc, d)
    }

    /// A long string without escapes is a range of the text; with an escape, a copy
    /// with the escape decoded. Both read back as their text.
    #[test]
    fn a_long_string_without_escapes_refers_to_the_text() {
        let long = "x".repeat(40);
        let (doc, _) = json(&format!("{{\"a\": \"{long}\", \"b\": \"{long}\\n\"}}"));
        let doc = doc.expect("JSON");
        let text = |key| match &doc.root().get(key).expect("a member").value {
            Value::String(s) => s.clone(),
            other => panic!("{other:?}"),
        };
        assert!(super::super::string::tests::in_source(&text("a")));
        assert_eq!(text("a").as_str(), long);
        assert!(!super::super::string::tests::in_source(&text("b")));
        assert_eq!(text("b").as_str(), format!("{long}\n"));
    }

    /// Whitespace of every kind and length around values (the runs of eight spaces or
    /// tabs skipped at once, and the bytes around them), and every value's span.
    #[test]
    fn whitespace_runs_of_any_length_are_skipped() {
        for n in 0..20 {
            for unit in [" ", "\t", "\n", "\r\n", " \t"] {
                let pad = unit.repeat(n);
                let text =
                    format!("{pad}{{{pad}\"a\"{pad}:{pad}[{pad}1{pad},{pad}true{pad}]{pad}}}{pad}");
                let (doc, d) = json(&text);
                assert!(d.items().is_empty(), "{text:?}: {:?}", d.items());
                let doc = doc.expect("JSON");
                let items = match &doc.root().get("a").expect("a").value {
                    Value::Array(items) => items,
                    other => panic!("{other:?}"),
                };
                let one = text.find('1').unwrap();
                assert_eq!(
                    <(usize, usize)>::from(items[0].span),
                    (one, one + 1),
                    "{text:?}"
                );
                let t = text.find("true").unwrap();
                assert_eq!(
                    <(usize, usize)>::from(items[1].span),
                    (t, t + 4),
                    "{text:?}"
                );
            }
        }
    }

    /// A document says whether any object repeats a key (the shape check then looks for
    /// the members shadowed), for a small object and one past the scan's size.
    #[test]
    fn a_document_says_whether_a_key_repeats() {
        let many: String = (0..40).map(|i| format!(r#""k{i}": 0, "#)).collect();
        for (text, repeats) in [
            (
                r#"{"a": {"b": 1, "c": 2}, "d": [{"b": 1}, {"b": 2}]}"#.to_owned(),
                false,
            ),
            (r#"{"a": {"b": 1, "b": 2}}"#.to_owned(), true),
            (format!(r#"{{{many}"z": 1}}"#), false),
            (format!(r#"{{{many}"k3": 1}}"#), true),
        ] {
            let (doc, _) = json(&text);
            assert_eq!(doc.expect("JSON").may_repeat_keys(), repeats, "{text}");
        }
    }

    #[test]
    fn json_positions_and_duplicates() {
        let (doc, d) = json("{\n  \"a\": 1,\n  \"b\": [true, \"x\\u00e9\"],\n  \"a\": 2\n}");
        let doc = doc.unwrap();
        assert_eq!(d.items().len(), 1);
        assert_eq!(d.items()[0].code, Code::JsonDuplicateKey);
        assert_eq!(d.items()[0].location.pos.unwrap().line, 4);
        let p = doc.locate("/b/1", false).unwrap();
        assert_eq!((p.line, p.column), (3, 15));
        let k = doc.locate("/b", true).unwrap();
        assert_eq!((k.line, k.column), (3, 3));
        assert_eq!(
            doc.root().get("b").unwrap().to_json(),
            serde_json::json!([true, "xé"])
        );
    }

    #[test]
    fn json_depth_limit() {
        let s = "[".repeat(100_000);
        let (doc, d) = json(&s);
        assert!(doc.is_none());
        assert_eq!(d.items()[0].code, Code::TooDeep);
    }

    #[test]
    fn json_errors_have_positions() {
        for bad in [
            "{",
            "{\"a\" 1}",
            "[1,]",
            "{\"a\":1,}",
            "\"\\x\"",
            "01",
            "{} x",
            "'a'",
        ] {
            let (doc, d) = json(bad);
            assert!(doc.is_none(), "{bad}");
            assert!(d.items()[0].location.pos.is_some(), "{bad}");
        }
    }

    #[test]
    fn strings_decode_as_serde_json_does() {
        for text in [
            r#""plain words""#,
            r#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00 and a run of words after the escapes""#,
            r#""\"""#,
            r#""ends in an escape\\""#,
        ] {
            let (doc, d) = json(text);
            assert!(d.items().is_empty(), "{text}: {:?}", d.items());
            let expected: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(doc.unwrap().root().to_json(), expected, "{text}");
        }
    }

    #[test]
    fn a_control_character_after_an_escape_is_reported_where_it_is() {
        let (doc, d) = json("\"a\\nb\u{1}c\"");
        assert!(doc.is_none());
        let pos = d.items()[0].location.pos.unwrap();
        assert_eq!((pos.line, pos.column), (1, 6), "{:?}", d.items()[0]);
        assert!(d.items()[0].message.contains("control character"));
    }
}
