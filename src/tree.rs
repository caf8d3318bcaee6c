//! A located document tree: JSON or YAML parsed into values that remember where they are.
//!
//! Every node keeps its byte range, and every object member the byte range of its key, so that
//! any later stage can point a diagnostic at the exact key or value through a JSON Pointer
//! ([`Document::locate`]). JSON is read by a small recursive-descent parser with a depth
//! limit; YAML by `serde-saphyr` (through its `Spanned` wrapper), with duplicate keys passed
//! through so that all of them are reported, YAML 1.2 booleans only, and budgets against
//! alias bombs.

use crate::diag::{Code, Diagnostic, Diagnostics, Locate, Pos};

/// The largest input any limit allows: 4 GiB (positions are kept in 32 bits, see
/// [`Span`]).
pub const MAX_INPUT_BYTES: usize = match 1usize.checked_shl(32) {
    Some(n) => n,
    None => usize::MAX,
};

/// The help of `P004` for a document with more values than the limit, JSON or YAML.
const MAX_VALUES_HELP: &str =
    "check that this is the loop you meant; raise the limit with `--max-values` if it is";

/// Limits applied while reading input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted input, in bytes.
    pub max_bytes: usize,
    /// Deepest accepted nesting of arrays and objects.
    pub max_depth: usize,
    /// Most YAML events replayed through aliases.
    pub max_alias_events: usize,
    /// Most phases in one loop.
    pub max_phases: usize,
    /// Most values (objects, arrays and scalars) in one document. A 64 MiB JSON array of
    /// zeros holds 33 million values and took 6.5 GB to read; a loop with the most phases
    /// needs a few hundred thousand.
    pub max_nodes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 64 * 1024 * 1024,
            max_depth: 128,
            max_alias_events: 100_000,
            max_phases: 10_000,
            max_nodes: 1_000_000,
        }
    }
}

/// A byte range in the source, in 8 bytes instead of 16: every value and key of a
/// document has one, and the tree was two thirds of the memory of reading a large loop.
/// Offsets past `u32::MAX` (beyond the largest accepted input) are clamped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The range `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Span {
            start: clamp(start),
            end: clamp(end),
        }
    }

    /// The first byte.
    pub fn start(self) -> usize {
        self.start as usize
    }

    /// One past the last byte.
    pub fn end(self) -> usize {
        self.end as usize
    }
}

impl From<Span> for (usize, usize) {
    fn from(s: Span) -> (usize, usize) {
        (s.start(), s.end())
    }
}

// The tree's sizes, which its memory is made of (one node per value, one member per key).
const _: () = assert!(std::mem::size_of::<Node>() == 32);
const _: () = assert!(std::mem::size_of::<Member>() == 64);

/// A value with its byte range in the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// Byte range of the value.
    pub span: Span,
}

/// The keys of the loop formats (every property name of their schemas; a test keeps the
/// list equal to them), sorted.
pub const KNOWN_KEYS: &[&str] = &[
    "$schema",
    "access",
    "action",
    "actor",
    "archetype",
    "before_phase",
    "bounds",
    "checkpoints",
    "checks",
    "command",
    "default",
    "description",
    "entry",
    "entry_phase",
    "environment",
    "error_policy",
    "escalation",
    "expected",
    "fallback_agent",
    "file",
    "files",
    "from",
    "goal",
    "graph",
    "id",
    "inputs",
    "kind",
    "knowledge",
    "license",
    "limits",
    "loop",
    "max_attempts",
    "max_retries",
    "max_steps",
    "memory",
    "mission",
    "name",
    "objective",
    "on",
    "on_exhausted",
    "on_reject",
    "outcomes",
    "outputs",
    "pattern",
    "phase_failure",
    "phases",
    "read",
    "readme",
    "required",
    "roles",
    "schema",
    "schema_uri",
    "source_format",
    "spdx",
    "success_criteria",
    "to",
    "tool_failure",
    "tools",
    "transitions",
    "type",
    "validator",
    "vars",
    "version",
    "write",
];

/// An object key. A key of the loop formats ([`KNOWN_KEYS`]) is shared, not allocated:
/// a loop repeats the same few keys in every phase and transition, and allocating each was
/// a fifth of the parser's allocations.
#[derive(Clone)]
pub struct Key(KeyText);

/// A key's text: a known key by its index in [`KNOWN_KEYS`], any other key on the heap.
/// 16 bytes (the index fits beside the box's non-null pointer): a loop has one key per
/// member, and 8 bytes more per key were a tenth of the tree.
#[derive(Clone)]
enum KeyText {
    Known(u8),
    Other(Box<str>),
}

const _: () = assert!(std::mem::size_of::<Key>() == 16);
// An index fits a byte, and the table always has a free slot (which ends a search).
const _: () = assert!(KNOWN_KEYS.len() <= 256 && KNOWN_KEYS.len() < KEY_SLOTS);

/// Slots of [`known_key`]'s table (a power of two, well above the number of keys).
const KEY_SLOTS: usize = 256;

/// Where [`known_key`] first looks for `text`: from its length and first and last bytes.
fn key_slot(text: &str) -> usize {
    let b = text.as_bytes();
    let (first, last) = (b.first().copied(), b.last().copied());
    let h = b.len() * 31 + usize::from(first.unwrap_or(0)) * 7 + usize::from(last.unwrap_or(0));
    h % KEY_SLOTS
}

/// The index in [`KNOWN_KEYS`] of the known key equal to `text`: one or two comparisons
/// in an open-addressed table (a binary search over the keys was a tenth of the parser's
/// time).
fn known_key(text: &str) -> Option<u8> {
    static TABLE: std::sync::LazyLock<[Option<u8>; KEY_SLOTS]> = std::sync::LazyLock::new(|| {
        let mut t = [None; KEY_SLOTS];
        for (k, key) in (0..=u8::MAX).zip(KNOWN_KEYS) {
            let mut i = key_slot(key);
            while t[i].is_some() {
                i = (i + 1) % KEY_SLOTS;
            }
            t[i] = Some(k);
        }
        t
    });
    let mut i = key_slot(text);
    while let Some(k) = TABLE[i] {
        if KNOWN_KEYS[usize::from(k)] == text {
            return Some(k);
        }
        i = (i + 1) % KEY_SLOTS;
    }
    None
}

impl Key {
    /// The key for `text`, shared when it is a known key.
    pub fn new(text: &str) -> Key {
        match known_key(text) {
            Some(k) => Key(KeyText::Known(k)),
            None => Key(KeyText::Other(text.into())),
        }
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            KeyText::Known(k) => KNOWN_KEYS.get(usize::from(*k)).copied().unwrap_or(""),
            KeyText::Other(text) => text,
        }
    }

    /// Whether two keys are equal; two known keys compare by index.
    fn same(&self, other: &Key) -> bool {
        match (&self.0, &other.0) {
            (KeyText::Known(a), KeyText::Known(b)) => a == b,
            _ => self.as_str() == other.as_str(),
        }
    }
}

impl From<String> for Key {
    fn from(text: String) -> Key {
        match known_key(&text) {
            Some(k) => Key(KeyText::Known(k)),
            None => Key(KeyText::Other(text.into_boxed_str())),
        }
    }
}

impl std::ops::Deref for Key {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for Key {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.same(other)
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Key {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

/// What a YAML key that is not a string is (one byte in a [`Member`], which the tree has
/// one of per key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyType {
    /// `null` or `~`.
    Null,
    /// `true` / `false`.
    Boolean,
    /// A number.
    Number,
    /// A sequence.
    Array,
    /// A mapping.
    Object,
}

impl KeyType {
    /// What a key is, `None` for a string.
    fn of(v: &Value) -> Option<KeyType> {
        Some(match v {
            Value::String { .. } => return None,
            Value::Null => KeyType::Null,
            Value::Bool(_) => KeyType::Boolean,
            Value::Number(_) | Value::NonFinite(_) => KeyType::Number,
            Value::Array(_) => KeyType::Array,
            Value::Object(_) => KeyType::Object,
        })
    }

    /// As in messages: `a number`, ...
    pub fn name(self) -> &'static str {
        match self {
            KeyType::Null => "null",
            KeyType::Boolean => "a boolean",
            KeyType::Number => "a number",
            KeyType::Array => "an array",
            KeyType::Object => "an object",
        }
    }
}

/// An object member.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key (for a YAML key that is not a string, its text as written).
    pub key: Key,
    /// For a YAML key that is not a string (`1:`, `true:`, `{a: b}:`), what it is;
    /// reported as `P012`.
    pub non_string: Option<KeyType>,
    /// Byte range of the key.
    pub key_span: Span,
    /// The value.
    pub value: Node,
}

/// A JSON-like value. Objects keep their members in source order, duplicates included.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null` (or an empty YAML value).
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, kept as serde_json keeps it.
    Number(serde_json::Number),
    /// A string. `plain` is true for an unquoted YAML scalar.
    String {
        /// The text (boxed: a value is 24 bytes, not 32).
        text: Box<str>,
        /// An unquoted YAML scalar (used to recognise YAML 1.1 booleans).
        plain: bool,
    },
    /// An array (boxed slices, not vectors: a value is 24 bytes, not 32).
    Array(Box<[Node]>),
    /// An object.
    Object(Box<[Member]>),
    /// A YAML float that no JSON number can hold (`.inf`, `-.inf`, `.nan`, `1e999`), kept
    /// so that the shape check can report it on its field (a wrong value, not a syntax
    /// error). Converted to `null` by [`Node::to_json`]; the shape check rejects it first.
    NonFinite(f64),
}

impl Value {
    /// Compact JSON text of the value (a non-string YAML key shown as a key).
    fn to_json_text(&self) -> String {
        Node {
            value: self.clone(),
            span: Span::default(),
        }
        .to_json()
        .to_string()
    }

    /// The JSON type name, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String { .. } => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
            Value::NonFinite(_) => "a number",
        }
    }
}

impl Node {
    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String { text, .. } => Some(text),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn members(&self) -> Option<&[Member]> {
        match &self.value {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The first member named `key`, if this is an object.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.members()?
            .iter()
            .find(|m| m.key == key)
            .map(|m| &m.value)
    }

    /// Convert to `serde_json::Value` (for the first of duplicate keys, the last wins, as in
    /// serde_json; duplicates are reported as errors before this is used).
    pub fn to_json(&self) -> serde_json::Value {
        match &self.value {
            Value::Null | Value::NonFinite(_) => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => serde_json::Value::Number(n.clone()),
            Value::String { text, .. } => serde_json::Value::String(text.to_string()),
            Value::Array(a) => serde_json::Value::Array(a.iter().map(Node::to_json).collect()),
            Value::Object(m) => serde_json::Value::Object(
                m.iter()
                    .map(|m| (m.key.to_string(), m.value.to_json()))
                    .collect(),
            ),
        }
    }
}

/// The syntax a document was read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// JSON.
    Json,
    /// YAML.
    Yaml,
}

/// A parsed document and the text it came from.
#[derive(Debug, Clone)]
pub struct Document {
    /// The source text (a leading byte-order mark removed).
    pub text: String,
    /// The syntax it was read with.
    pub syntax: Syntax,
    /// The root node.
    pub root: Node,
    /// Where each line starts and the character marks, built when a position is first
    /// asked for: a file without diagnostics never needs them (they were a twentieth of the
    /// time of reading a large loop).
    line_starts: std::sync::OnceLock<Vec<usize>>,
    char_marks: std::sync::OnceLock<Vec<usize>>,
}

impl Document {
    fn new(text: String, syntax: Syntax, root: Node, line_starts: Option<Vec<usize>>) -> Self {
        let starts = std::sync::OnceLock::new();
        if let Some(l) = line_starts {
            let _ = starts.set(l);
        }
        Document {
            text,
            syntax,
            root,
            line_starts: starts,
            char_marks: std::sync::OnceLock::new(),
        }
    }

    /// Position of a byte range.
    pub fn pos(&self, span: impl Into<(usize, usize)>) -> Pos {
        pos_in(
            &self.text,
            self.line_starts.get_or_init(|| line_starts(&self.text)),
            Some(self.char_marks.get_or_init(|| char_marks(&self.text))),
            span.into(),
        )
    }

    /// The node at a JSON Pointer, and the member (when the last step is an object key).
    fn walk(&self, pointer: &str) -> (Option<&Node>, Option<&Member>, &Node) {
        let mut node = &self.root;
        let mut member = None;
        if pointer.is_empty() {
            return (Some(node), None, node);
        }
        for raw in pointer.split('/').skip(1) {
            let seg = raw.replace("~1", "/").replace("~0", "~");
            let next = match &node.value {
                Value::Object(ms) => ms.iter().find(|m| m.key == seg).map(|m| {
                    member = Some(m);
                    &m.value
                }),
                Value::Array(items) => {
                    member = None;
                    seg.parse::<usize>().ok().and_then(|i| items.get(i))
                }
                _ => None,
            };
            match next {
                Some(n) => node = n,
                None => return (None, None, node),
            }
        }
        (Some(node), member, node)
    }
}

impl Locate for Document {
    fn locate(&self, pointer: &str, key: bool) -> Option<Pos> {
        let (found, member, nearest) = self.walk(pointer);
        match (found, member) {
            (Some(_), Some(m)) if key => Some(self.pos(m.key_span)),
            (Some(n), _) => Some(self.pos(n.span)),
            (None, _) => Some(self.pos(nearest.span)),
        }
    }
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// Bytes per entry of [`char_marks`].
const CHAR_MARK_BLOCK: usize = 4096;

/// `marks[k]` = number of characters that start before byte `k * CHAR_MARK_BLOCK`, so that
/// a column on a very long line (minified JSON) costs one block, not the whole line: without
/// them, many diagnostics on one long line were quadratic.
fn char_marks(text: &str) -> Vec<usize> {
    let mut marks = Vec::with_capacity(text.len() / CHAR_MARK_BLOCK + 1);
    let mut n = 0;
    for block in text.as_bytes().chunks(CHAR_MARK_BLOCK) {
        marks.push(n);
        n += block.iter().filter(|b| (**b & 0xC0) != 0x80).count();
    }
    marks
}

/// Characters that start before byte `at` (a character boundary).
fn chars_before(text: &str, marks: &[usize], at: usize) -> usize {
    let k = (at / CHAR_MARK_BLOCK).min(marks.len().saturating_sub(1));
    let from = k * CHAR_MARK_BLOCK;
    let tail = text.as_bytes().get(from..at).unwrap_or(&[]);
    marks.get(k).copied().unwrap_or(0) + tail.iter().filter(|b| (**b & 0xC0) != 0x80).count()
}

fn pos_of(text: &str, starts: &[usize], span: (usize, usize)) -> Pos {
    pos_in(text, starts, None, span)
}

fn pos_in(text: &str, starts: &[usize], marks: Option<&[usize]>, span: (usize, usize)) -> Pos {
    let start = span.0.min(text.len());
    let line_idx = match starts.binary_search(&start) {
        Ok(i) => i,
        Err(i) => i.saturating_sub(1),
    };
    let line_start = starts.get(line_idx).copied().unwrap_or(0);
    let column = match marks {
        Some(m) if start - line_start > CHAR_MARK_BLOCK && text.is_char_boundary(start) => {
            chars_before(text, m, start) - chars_before(text, m, line_start)
        }
        _ => text.get(line_start..start).unwrap_or("").chars().count(),
    } + 1;
    // Highlight at most to the end of the first line.
    let line_end = starts
        .get(line_idx + 1)
        .map(|e| e.saturating_sub(1))
        .unwrap_or(text.len());
    let end = span.1.clamp(start, line_end.max(start));
    Pos {
        line: u32::try_from(line_idx + 1).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
        start,
        end: if end == start {
            (start + 1).min(text.len())
        } else {
            end
        },
    }
}

/// Decode bytes into text, reporting invalid UTF-8, NUL bytes, a byte-order mark and the
/// size limit. Returns `None` when the input cannot be read further.
pub fn decode(bytes: &[u8], limits: &Limits, diags: &mut Diagnostics) -> Option<String> {
    if !size_fits(bytes.len(), limits, diags) {
        return None;
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            report_invalid_utf8(bytes, e, diags);
            return None;
        }
    };
    let bom = text_fits(text, diags)?;
    Some(text[bom..].to_owned())
}

/// Like [`decode`], reusing the buffer: no copy of the input (unless it starts with a
/// byte-order mark), and its UTF-8 checked once.
pub fn decode_owned(bytes: Vec<u8>, limits: &Limits, diags: &mut Diagnostics) -> Option<String> {
    if !size_fits(bytes.len(), limits, diags) {
        return None;
    }
    let mut text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            report_invalid_utf8(e.as_bytes(), e.utf8_error(), diags);
            return None;
        }
    };
    let bom = text_fits(&text, diags)?;
    text.drain(..bom);
    Some(text)
}

/// `P004` when the input is larger than the limit (never more than [`MAX_INPUT_BYTES`]).
fn size_fits(len: usize, limits: &Limits, diags: &mut Diagnostics) -> bool {
    let max_bytes = limits.max_bytes.min(MAX_INPUT_BYTES);
    if len <= max_bytes {
        return true;
    }
    diags.push(
        Diagnostic::new(
            Code::TooLarge,
            format!("the input is {len} bytes, more than the limit of {max_bytes} bytes"),
        )
        .with_help("raise the limit with `--max-input-bytes` if the file is genuine"),
    );
    false
}

/// `P007`, at the first byte that is not part of a UTF-8 character.
fn report_invalid_utf8(bytes: &[u8], e: std::str::Utf8Error, diags: &mut Diagnostics) {
    let off = e.valid_up_to();
    let ok = std::str::from_utf8(&bytes[..off]).unwrap_or("");
    let starts = line_starts(ok);
    let mut d = Diagnostic::new(
        Code::InvalidUtf8,
        format!("the input is not valid UTF-8 (byte {off} is not part of a UTF-8 character)"),
    )
    .with_help("save the file as UTF-8");
    let mut p = pos_of(ok, &starts, (off, off));
    p.end = p.start;
    d.location.pos = Some(p);
    diags.push(d);
}

/// The checks of decoded text: a byte-order mark (a warning; its length is returned, 0
/// without one), NUL bytes and empty input (`None`: the input is not read further).
fn text_fits(text: &str, diags: &mut Diagnostics) -> Option<usize> {
    let (text, bom) = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            let mut d = Diagnostic::new(
                Code::ByteOrderMark,
                "the input starts with a byte-order mark (U+FEFF), which is ignored",
            )
            .with_help("save the file as UTF-8 without a BOM");
            d.location.pos = Some(Pos {
                line: 1,
                column: 1,
                start: 0,
                end: 0,
            });
            diags.push(d);
            (rest, '\u{feff}'.len_utf8())
        }
        None => (text, 0),
    };
    if let Some(off) = text.find('\0') {
        let starts = line_starts(text);
        let mut d = Diagnostic::new(Code::NulByte, "the input contains a NUL byte")
            .with_help("loop files are text; remove the NUL byte (is this a binary file?)");
        d.location.pos = Some(pos_of(text, &starts, (off, off + 1)));
        diags.push(d);
        return None;
    }
    if text.trim().is_empty() {
        diags.push(
            Diagnostic::new(Code::EmptyInput, "the input is empty")
                .with_help("a loop file holds one JSON object or one YAML mapping"),
        );
        return None;
    }
    Some(bom)
}

/// Parse JSON text into a [`Document`]. Duplicate keys are reported and kept.
///
/// Hand-written on purpose: every key and value needs its byte span (for located
/// diagnostics and the editor server), duplicate keys must be seen (serde_json keeps the
/// last silently), and depth and value counts must be limited while parsing. serde_json
/// offers none of these. Measured on the 2-core development machine under load
/// (2026-12-01): 1.3 ms for the 215 KB hostile example against 0.21 ms for
/// `serde_json::Value` (which builds no positions), and 69 µs against 42 µs for a 4.5 KB
/// loop; the extra time is the position and duplicate bookkeeping.
pub fn parse_json(text: String, limits: &Limits, diags: &mut Diagnostics) -> Option<Document> {
    parse_json_or_text(text, limits, diags).ok()
}

/// [`parse_json`], handing the text back when it is not a document (for source snippets,
/// without a copy of the input).
pub fn parse_json_or_text(
    text: String,
    limits: &Limits,
    diags: &mut Diagnostics,
) -> Result<Document, String> {
    let mut p = JsonParser {
        t: &text,
        s: text.as_bytes(),
        i: 0,
        depth: 0,
        max_depth: limits.max_depth,
        nodes: 0,
        max_nodes: limits.max_nodes,
        dups: Vec::new(),
        members: Vec::new(),
        items: Vec::new(),
    };
    let result = p.document();
    let dups = std::mem::take(&mut p.dups);
    match result {
        Ok(root) => {
            let doc = Document::new(text, Syntax::Json, root, None);
            report_duplicates(&doc, dups, diags);
            Ok(doc)
        }
        Err((code, msg, at, help)) => {
            let mut d = Diagnostic::new(code, msg);
            if let Some(h) = help {
                d = d.with_help(h);
            }
            d.location.pos = Some(pos_of(&text, &line_starts(&text), (at, at + 1)));
            diags.push(d);
            Err(text)
        }
    }
}

/// A duplicate key: (pointer of the object, key, span of the repeat, span of the first).
type Dup = (String, String, Span, Span);

fn report_duplicates(doc: &Document, dups: Vec<Dup>, diags: &mut Diagnostics) {
    for (_obj, key, at, first) in dups {
        let first = doc.pos(first);
        // JSON: upstream readers keep the last value, and so does loopconv: a warning.
        // YAML forbids duplicate keys: an error.
        let (code, help) = match doc.syntax {
            Syntax::Json => (
                Code::JsonDuplicateKey,
                "remove one of the two; the last value is used, as upstream readers do",
            ),
            Syntax::Yaml => (
                Code::DuplicateKey,
                "remove one of the two; readers disagree on which one wins",
            ),
        };
        let mut d = Diagnostic::new(code, format!("duplicate key `{key}`"))
            .with_note(format!(
                "first defined at line {}, column {}",
                first.line, first.column
            ))
            .with_help(help);
        d.location.pos = Some(doc.pos(at));
        diags.push(d);
    }
}

type JErr = (Code, String, usize, Option<&'static str>);

/// Objects up to this many members find a repeated key by scanning them; larger ones
/// through a hash index (a scan alone made an object of 200,000 keys take over a minute,
/// and a hash map for every small object was a tenth of the time of parsing a loop).
const SCAN_MEMBERS: usize = 16;

/// Where each key of an object under construction first appears.
#[derive(Default)]
struct KeyIndex {
    /// Built once the object has more than [`SCAN_MEMBERS`] members.
    index: Option<std::collections::HashMap<String, usize>>,
}

impl KeyIndex {
    /// The index of the first member named `key`.
    fn first(&self, members: &[Member], key: &Key) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key.as_str()).copied(),
            None => members.iter().position(|m| m.key.same(key)),
        }
    }

    /// Record `key`, about to be pushed as `members[members.len()]`.
    fn add(&mut self, members: &[Member], key: &str) {
        if let Some(index) = &mut self.index {
            index.entry(key.to_owned()).or_insert(members.len());
        } else if members.len() >= SCAN_MEMBERS {
            let mut index = std::collections::HashMap::with_capacity(members.len() * 2);
            for (i, m) in members.iter().enumerate() {
                index.entry(m.key.to_string()).or_insert(i);
            }
            index.entry(key.to_owned()).or_insert(members.len());
            self.index = Some(index);
        }
    }
}

struct JsonParser<'a> {
    /// The text, for slices of it (its bytes are `s`; slicing at the ASCII bytes the
    /// parser stops at needs no UTF-8 check).
    t: &'a str,
    s: &'a [u8],
    i: usize,
    depth: usize,
    max_depth: usize,
    nodes: usize,
    max_nodes: usize,
    dups: Vec<Dup>,
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

    fn ws(&mut self) {
        while let Some(&c) = self.s.get(self.i) {
            if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            } else {
                break;
            }
        }
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
            Some(b'"') => Value::String {
                text: self.string_value()?,
                plain: false,
            },
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
        self.ws();
        if self.s.get(self.i) == Some(&b'}') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Value::Object(Box::default()));
        }
        loop {
            self.ws();
            if self.s.get(self.i) != Some(&b'"') {
                let found = self.describe();
                return Err((
                    Code::Syntax,
                    format!("expected a string key, found {found}"),
                    self.i,
                    if self.s.get(self.i) == Some(&b'}') {
                        Some("JSON does not allow a trailing comma")
                    } else {
                        Some("JSON keys are double-quoted strings")
                    },
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
            if let Some(first) = keys.first(members, &key) {
                let first = members[first].key_span;
                self.dups
                    .push((String::new(), key.to_string(), key_span, first));
            }
            keys.add(members, &key);
            self.members.push(Member {
                key,
                key_span,
                non_string: None,
                value,
            });
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
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
                return Err((
                    Code::Syntax,
                    "expected a JSON value, found `]`".into(),
                    self.i,
                    Some("JSON does not allow a trailing comma"),
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
            Some(text) => Ok(Key::new(text)),
            None => self.string().map(Key::from),
        }
    }

    /// A string value: without escapes, copied once at its exact length.
    fn string_value(&mut self) -> Result<Box<str>, JErr> {
        match self.plain_run() {
            Some(text) => Ok(text.into()),
            None => self.string().map(String::into_boxed_str),
        }
    }

    /// The string at the cursor when it has no escapes (the cursor then moves past it).
    fn plain_run(&mut self) -> Option<&'a str> {
        let start = self.i + 1;
        let n = self.s[start..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        if self.s[start + n] != b'"' {
            return None;
        }
        self.i = start + n + 1;
        self.t.get(start..start + n)
    }

    fn string(&mut self) -> Result<String, JErr> {
        self.i += 1; // opening quote
        let mut out = String::new();
        loop {
            let run = self.i;
            while let Some(&c) = self.s.get(self.i) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
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
                        b'u' => {
                            let hi = self.hex4()?;
                            let cp = if (0xD800..0xDC00).contains(&hi) {
                                if self.s.get(self.i..self.i + 2) == Some(b"\\u") {
                                    self.i += 2;
                                    let lo = self.hex4()?;
                                    if (0xDC00..0xE000).contains(&lo) {
                                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                    } else {
                                        return self.err("invalid surrogate pair in `\\u` escape");
                                    }
                                } else {
                                    return self.err("lone surrogate in `\\u` escape");
                                }
                            } else {
                                hi
                            };
                            match char::from_u32(cp) {
                                Some(c) => out.push(c),
                                None => return self.err("lone surrogate in `\\u` escape"),
                            }
                        }
                        _ => {
                            self.i -= 1;
                            let found = self.describe();
                            return self
                                .err(format!("invalid escape `\\{}`", found.trim_matches('`')));
                        }
                    }
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
                format!("number `{text}` is out of range"),
                start,
                None,
            )),
        }
    }
}

// ---------------------------------------------------------------- YAML

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

struct YNode(Value);

impl<'de> de::Deserialize<'de> for YNode {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(YVisitor).map(YNode)
    }
}

struct YVisitor;

fn span_of<T>(s: &Spanned<T>) -> Span {
    let sp = s.referenced.span();
    let start = usize::try_from(sp.byte_offset().unwrap_or(0)).unwrap_or(0);
    let len = usize::try_from(sp.byte_len().unwrap_or(0)).unwrap_or(0);
    Span::new(start, start.saturating_add(len))
}

impl<'de> Visitor<'de> for YVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        i64::try_from(v)
            .map(|v| Value::Number(v.into()))
            .or_else(|_| u64::try_from(v).map(|v| Value::Number(v.into())))
            .map_err(|_| E::custom("integer out of range"))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        u64::try_from(v)
            .map(|v| Value::Number(v.into()))
            .map_err(|_| E::custom("integer out of range"))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v)
            .map(Value::Number)
            .unwrap_or(Value::NonFinite(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String {
            text: v.into(),
            plain: true,
        })
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String {
            text: v.into_boxed_str(),
            plain: true,
        })
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(YVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(n) = seq.next_element::<Spanned<YNode>>()? {
            let span = span_of(&n);
            items.push(Node {
                value: n.value.0,
                span,
            });
        }
        Ok(Value::Array(items.into_boxed_slice()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Vec::new();
        while let Some(k) = map.next_key::<Spanned<YNode>>()? {
            let key_span = span_of(&k);
            // Keep going on a non-string key: it is reported later (P012).
            let (key, non_string) = match k.value.0 {
                Value::String { text, .. } => (Key::from(String::from(text)), None),
                other => (Key::from(other.to_json_text()), KeyType::of(&other)),
            };
            let v = map.next_value::<Spanned<YNode>>()?;
            let span = span_of(&v);
            members.push(Member {
                key,
                key_span,
                non_string,
                value: Node {
                    value: v.value.0,
                    span,
                },
            });
        }
        Ok(Value::Object(members.into_boxed_slice()))
    }
}

/// Parse YAML text into a [`Document`]: exactly one document, YAML 1.2 booleans, duplicate
/// keys reported (all of them), anchors and aliases bounded.
pub fn parse_yaml(text: String, limits: &Limits, diags: &mut Diagnostics) -> Option<Document> {
    parse_yaml_or_text(text, limits, diags).ok()
}

/// [`parse_yaml`], handing the text back when it is not a document.
pub fn parse_yaml_or_text(
    text: String,
    limits: &Limits,
    diags: &mut Diagnostics,
) -> Result<Document, String> {
    let starts = line_starts(&text);
    let limits = *limits;
    let docs = with_big_stack(|| {
        let budget = yaml_budget(&limits);
        let mut opts = serde_saphyr::Options::default();
        opts.budget = Some(budget);
        opts.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
        opts.strict_booleans = true;
        // `.inf` and `.nan` are well-formed YAML: the shape check reports them on their field.
        opts.non_finite_float_policy = serde_saphyr::NonFiniteFloatPolicy::PassThrough;
        opts.alias_limits.max_total_replayed_events = limits.max_alias_events;
        opts.alias_limits.max_replay_stack_depth = 32;
        serde_saphyr::from_str_multiple_with_options::<Spanned<YNode>, Vec<_>>(&text, opts)
    });
    let limits = &limits;
    match docs {
        Ok(mut docs) => {
            if docs.len() > 1 {
                let second = span_of(&docs[1]);
                let mut d = Diagnostic::new(
                    Code::MultipleDocuments,
                    format!(
                        "the file holds {} YAML documents; a loop file holds one",
                        docs.len()
                    ),
                )
                .with_help(
                    "split the loops into one file each (upstream reads only the first document)",
                );
                d.location.pos = Some(pos_of(&text, &starts, second.into()));
                diags.push(d);
                return Err(text);
            }
            let root = match docs.pop() {
                Some(root) => {
                    let span = span_of(&root);
                    Node {
                        value: root.value.0,
                        span,
                    }
                }
                // serde-saphyr drops null documents: `null` or `~` is a document whose root
                // is null (reported as "must be an object"), not an empty file.
                None => match yaml_null_root(&text) {
                    Some((start, end)) => Node {
                        value: Value::Null,
                        span: Span::new(start, end),
                    },
                    None => {
                        diags.push(Diagnostic::new(
                            Code::EmptyInput,
                            "the YAML file holds no document",
                        ));
                        return Err(text);
                    }
                },
            };
            let doc = Document::new(text, Syntax::Yaml, root, Some(starts));
            let mut dups = Vec::new();
            collect_yaml_issues(&doc.root, "", &mut dups, &doc, diags);
            report_duplicates(&doc, dups, diags);
            Ok(doc)
        }
        Err(e) => {
            let (code, message, help) = classify_yaml_error(&e, &text, limits);
            let mut d = Diagnostic::new(code, message);
            if let Some(h) = help {
                d = d.with_help(h);
            }
            if let Some(loc) = e.location() {
                d.location.pos = Some(yaml_error_pos(&text, &starts, &loc));
            }
            diags.push(d);
            Err(text)
        }
    }
}

/// Where a YAML error is: its byte offset when serde-saphyr gives one that agrees with its
/// line, else the byte its line and column name (the snippet used to point at 1:1 while
/// the message said line 5, column 15).
fn yaml_error_pos(text: &str, starts: &[usize], loc: &serde_saphyr::Location) -> Pos {
    let by_offset = loc
        .span()
        .byte_offset()
        .and_then(|o| usize::try_from(o).ok())
        .map(|o| pos_of(text, starts, (o, o + 1)));
    match by_offset {
        Some(p) if loc.line() == 0 || u64::from(p.line) == loc.line() => p,
        _ => {
            let at = offset_of(text, starts, loc.line(), loc.column());
            pos_of(text, starts, (at, at + 1))
        }
    }
}

/// The byte at a 1-based line and (character) column, clamped to the text.
fn offset_of(text: &str, starts: &[usize], line: u64, column: u64) -> usize {
    let idx = usize::try_from(line.saturating_sub(1)).unwrap_or(usize::MAX);
    let Some(&line_start) = starts.get(idx).or(starts.last()) else {
        return 0;
    };
    let skip = usize::try_from(column.saturating_sub(1)).unwrap_or(usize::MAX);
    let rest = text.get(line_start..).unwrap_or("");
    let line_len = rest.find('\n').unwrap_or(rest.len());
    let within = rest[..line_len]
        .char_indices()
        .nth(skip)
        .map_or(line_len, |(i, _)| i);
    line_start + within
}

/// serde-saphyr's budget with loopconv's limits.
fn yaml_budget(limits: &Limits) -> serde_saphyr::Budget {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = limits.max_depth;
    budget.max_nodes = limits.max_nodes;
    budget.max_events = budget.max_events.max(limits.max_nodes.saturating_mul(2));
    budget.max_documents = 64;
    budget
}

/// Stack for reading YAML: reserved address space, touched only as deep as the input goes.
const YAML_STACK: usize = 64 * 1024 * 1024;

thread_local! {
    /// Whether this thread's stack is at least [`YAML_STACK`] bytes.
    static BIG_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The stack size a thread needs to read YAML without starting a thread of its own.
pub const READER_STACK: usize = YAML_STACK;

/// Declare that the calling thread's stack is at least [`READER_STACK`] bytes, so that
/// reading YAML on it runs in place instead of on a new thread (a thread per YAML file was
/// a fifth of the time of checking a folder). Call it only from a thread started with
/// such a stack: deep YAML would overflow a smaller one.
pub fn declare_reader_stack() {
    BIG_STACK.set(true);
}

/// Run `f` on a thread with a [`YAML_STACK`] stack. Reading YAML recurses once per nesting
/// level through serde-saphyr's generic code, which in an unoptimised build takes over
/// 16 KiB of stack per level: 128 levels (the depth limit) overflowed the 2 MiB stack of a
/// test thread before the budget could report P005. Falls back to the caller's thread
/// if no thread can be started.
fn with_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if BIG_STACK.get() {
        return f();
    }
    let mut f = Some(f);
    let result = std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("loopconv-yaml".into())
            .stack_size(YAML_STACK)
            .spawn_scoped(s, || f.take().map(|f| f()));
        match spawned {
            Ok(h) => match h.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => None,
        }
    });
    match (result, f) {
        (Some(r), _) => r,
        (None, Some(f)) => f(),
        (None, None) => unreachable!("the closure ran or is still here"),
    }
}

/// The span of the first content of a YAML text that serde-saphyr read as no document: a
/// scalar null (`null`, `~`, `--- null`), or `None` when it holds only comments, directives
/// and document markers.
fn yaml_null_root(text: &str) -> Option<(usize, usize)> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let mut rest = line.trim_end_matches(['\n', '\r']);
        let mut at = offset;
        let body = rest.trim_start();
        at += rest.len() - body.len();
        rest = body;
        if rest.starts_with('%') {
            offset += line.len();
            continue;
        }
        for marker in ["---", "..."] {
            if rest == marker
                || rest.starts_with(&format!("{marker} "))
                || rest.starts_with(&format!("{marker}\t"))
            {
                let body = rest[3..].trim_start();
                at += rest.len() - body.len();
                rest = body;
            }
        }
        if !rest.is_empty() && !rest.starts_with('#') {
            let end = rest.find(" #").unwrap_or(rest.len());
            return Some((at, at + rest[..end].trim_end().len().max(1)));
        }
        offset += line.len();
    }
    None
}

/// The code, message and help for a YAML reading error. Limits are recognised from the
/// error's variant (the parser's own nesting limit only from its message), so that a deep
/// or bombing input gets its limit code, never a generic syntax error.
fn classify_yaml_error(
    e: &serde_saphyr::Error,
    text: &str,
    limits: &Limits,
) -> (Code, String, Option<&'static str>) {
    use serde_saphyr::Error as E;
    use serde_saphyr::budget::BudgetBreach as B;
    const DEEP_HELP: &str = "loop files need only a few levels; this input is not a loop";
    const ALIAS_HELP: &str =
        "anchors and aliases expand beyond the limit (an alias bomb?); write the values out";
    let deep = || {
        (
            Code::TooDeep,
            format!(
                "sequences and mappings are nested more than {} levels deep",
                limits.max_depth
            ),
            Some(DEEP_HELP),
        )
    };
    let alias = |what: String| (Code::AliasLimit, what, Some(ALIAS_HELP));
    // The error proper, out of its snippet and alias-location wrappers.
    let mut inner = e;
    loop {
        inner = match inner {
            E::WithSnippet { error, .. } => error.as_ref(),
            #[allow(deprecated)]
            E::AliasError { error, .. } => error.as_ref(),
            _ => break,
        };
    }
    let raw = inner.to_string();
    let first_line = raw.lines().next().unwrap_or("").trim();
    match inner {
        E::Budget { breach, .. } => {
            let budget = yaml_budget(limits);
            let aliased = text.contains('&') && text.contains('*');
            let too_large = |what: String| {
                if aliased {
                    alias(format!("anchors and aliases expand to {what}"))
                } else {
                    (
                        Code::TooLarge,
                        format!("the YAML document is too large to be a loop: it has {what}"),
                        Some(MAX_VALUES_HELP),
                    )
                }
            };
            match breach {
                B::Depth { .. } => deep(),
                B::Aliases { .. } => alias(format!(
                    "the YAML uses more than {} aliases",
                    budget.max_aliases
                )),
                B::Anchors { .. } => alias(format!(
                    "the YAML defines more than {} anchors",
                    budget.max_anchors
                )),
                B::ScalarBytes { .. } => too_large(format!(
                    "more than {} bytes of scalar text",
                    budget.max_total_scalar_bytes
                )),
                B::Nodes { .. } => too_large(format!("more than {} nodes", budget.max_nodes)),
                B::Events { .. } => {
                    too_large(format!("more than {} parser events", budget.max_events))
                }
                B::Documents { documents } => (
                    Code::MultipleDocuments,
                    format!(
                        "the file holds more than {} YAML documents; a loop file holds one",
                        documents.saturating_sub(1)
                    ),
                    Some(
                        "split the loops into one file each (upstream reads only the first document)",
                    ),
                ),
                _ => alias(format!(
                    "the YAML exceeds loopconv's parsing budget ({})",
                    yaml_message(first_line)
                )),
            }
        }
        E::AliasReplayCounterOverflow { .. }
        | E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayStackDepthExceeded { .. } => alias(format!(
            "anchors and aliases expand beyond the limit of {} replayed events",
            limits.max_alias_events
        )),
        _ if first_line.to_lowercase().contains("recursion limit") => deep(),
        _ => (Code::Syntax, yaml_message(first_line), None),
    }
}

fn yaml_message(first: &str) -> String {
    // serde-saphyr prefixes messages with a location; keep the description only.
    let msg = first
        .trim_start_matches("error: ")
        .trim_start_matches("Error: ");
    let msg = strip_line_column(msg).to_owned();
    let mut msg = if msg.is_empty() {
        "invalid YAML".to_owned()
    } else {
        msg
    };
    if let Some(c) = msg.get(..1) {
        let lower = c.to_lowercase();
        msg.replace_range(..1, &lower);
    }
    msg.trim_end_matches('.').to_owned()
}

/// `line 3 column 8: rest` -> `rest` (the diagnostic carries the position itself).
fn strip_line_column(msg: &str) -> &str {
    let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).filter(|&n| n > 0);
    let Some(rest) = msg.strip_prefix("line ") else {
        return msg;
    };
    let Some(n) = digits(rest) else { return msg };
    let Some(rest) = rest[n..].strip_prefix(" column ") else {
        return msg;
    };
    let Some(n) = digits(rest) else { return msg };
    rest[n..].strip_prefix(": ").unwrap_or(msg)
}

fn collect_yaml_issues(
    node: &Node,
    ptr: &str,
    dups: &mut Vec<Dup>,
    doc: &Document,
    diags: &mut Diagnostics,
) {
    match &node.value {
        Value::Object(ms) => {
            // First span of each key (a hash index: scanning earlier members is quadratic).
            let mut seen: std::collections::HashMap<&str, Span> = std::collections::HashMap::new();
            for m in ms {
                if let Some(t) = m.non_string {
                    let mut d = Diagnostic::new(
                        Code::NonStringKey,
                        format!("a mapping key is {}, not a string", t.name()),
                    )
                    .with_help("loop files use string keys; quote the key");
                    d.location.pos = Some(doc.pos(m.key_span));
                    d.location.pointer = ptr.to_owned();
                    diags.push(d);
                }
                // Non-string keys are reported once, as P012 above: two `{}` keys are not
                // also a duplicate (one mistake, one diagnostic).
                match seen.entry(m.key.as_str()) {
                    _ if m.non_string.is_some() => {}
                    std::collections::hash_map::Entry::Occupied(first) => {
                        dups.push((ptr.to_owned(), m.key.to_string(), m.key_span, *first.get()));
                    }
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(m.key_span);
                    }
                }
                collect_yaml_issues(
                    &m.value,
                    &format!("{ptr}/{}", escape_ptr(&m.key)),
                    dups,
                    doc,
                    diags,
                );
            }
        }
        Value::Array(items) => {
            for (i, n) in items.iter().enumerate() {
                collect_yaml_issues(n, &format!("{ptr}/{i}"), dups, doc, diags);
            }
        }
        _ => {}
    }
}

/// Escape one JSON Pointer segment.
pub fn escape_ptr(seg: &str) -> String {
    seg.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_keys_are_sorted_and_are_the_schemas_property_names() {
        fn names(s: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
            match s {
                serde_json::Value::Object(m) => {
                    for (k, v) in m {
                        match k.as_str() {
                            "properties" => {
                                if let Some(p) = v.as_object() {
                                    out.extend(p.keys().cloned());
                                    p.values().for_each(|v| names(v, out));
                                }
                            }
                            "const" | "enum" | "default" | "examples" => {}
                            _ => names(v, out),
                        }
                    }
                }
                serde_json::Value::Array(a) => a.iter().for_each(|v| names(v, out)),
                _ => {}
            }
        }
        let mut want = std::collections::BTreeSet::new();
        for f in crate::Format::ALL {
            names(crate::model::schema(f), &mut want);
        }
        let known: Vec<String> = KNOWN_KEYS.iter().map(|k| (*k).to_owned()).collect();
        assert_eq!(known, want.into_iter().collect::<Vec<_>>());
        for (i, k) in KNOWN_KEYS.iter().enumerate() {
            let key = Key::new(k);
            assert!(
                matches!(key.0, KeyText::Known(n) if usize::from(n) == i),
                "{k}"
            );
            assert_eq!(key.as_str(), *k);
            assert_eq!(Key::from((*k).to_owned()), key);
        }
        let other = Key::new("objectiv");
        assert!(matches!(other.0, KeyText::Other(_)));
        assert_eq!(other.as_str(), "objectiv");
        assert_ne!(other, Key::new("objective"));
    }

    fn json(s: &str) -> (Option<Document>, Diagnostics) {
        let mut d = Diagnostics::new("t.json");
        let doc = parse_json(s.to_owned(), &Limits::default(), &mut d);
        (doc, d)
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
            doc.root.get("b").unwrap().to_json(),
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
    fn yaml_basic_and_duplicates() {
        let mut d = Diagnostics::new("t.yaml");
        let doc = parse_yaml(
            "a: 1\nb:\n  - x\n  - yes\na: 3\n".into(),
            &Limits::default(),
            &mut d,
        )
        .unwrap();
        assert_eq!(d.items().len(), 1, "{:?}", d.items());
        assert_eq!(d.items()[0].code, Code::DuplicateKey);
        let p = doc.locate("/b/1", false).unwrap();
        assert_eq!((p.line, p.column), (4, 5));
        assert_eq!(
            doc.root.get("b").unwrap().to_json(),
            serde_json::json!(["x", "yes"])
        );
    }

    #[test]
    fn yaml_multi_document() {
        let mut d = Diagnostics::new("t.yaml");
        assert!(parse_yaml("a: 1\n---\nb: 2\n".into(), &Limits::default(), &mut d).is_none());
        assert_eq!(d.items()[0].code, Code::MultipleDocuments);
    }
}
