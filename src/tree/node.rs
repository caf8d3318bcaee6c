//! The tree's values, their byte ranges, and the document that holds them.

use crate::diag::{Locate, Pos};
use crate::pointer::Pointer;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::decode::ReadLimits;
use super::key::{Key, Vocabulary};
use super::lines::LineIndex;
use super::scan::Found;
use super::string::{SourceText, Str};

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
const _: () = assert!(std::mem::size_of::<Member>() == 48);

/// A value with its byte range in the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// Byte range of the value.
    pub span: Span,
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
    pub(super) fn of(v: &Value) -> Option<KeyType> {
        Some(match v {
            Value::String(_) => return None,
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
    /// The key (for a YAML key that is not a string, its text as written, and what it is
    /// in [`Document::non_string_key`]).
    pub key: Key,
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
    /// A string (a short one held in place; see [`Str`]).
    String(Str),
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
    pub(super) fn to_json_text(&self) -> String {
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
            Value::String(_) => "a string",
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
            Value::String(text) => Some(text),
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

    /// The value of the member named `key`, if this is an object: of a key given twice, the
    /// last, as serde_json, Go and Python read it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.members()?
            .iter()
            .rfind(|m| m.key == key)
            .map(|m| &m.value)
    }

    /// The outermost node at or below this one whose range is exactly `span`: found by
    /// following, at each level, the last child that starts at or before it (the ranges of
    /// YAML block collections are empty, so containment cannot be used).
    pub fn find(&self, span: (usize, usize)) -> Option<&Node> {
        let mut node = self;
        loop {
            if <(usize, usize)>::from(node.span) == span {
                return Some(node);
            }
            let before = |n: &&Node| n.span.start() <= span.0;
            node = match &node.value {
                Value::Object(ms) => ms.iter().map(|m| &m.value).rfind(before)?,
                Value::Array(items) => items.iter().rfind(before)?,
                _ => return None,
            };
        }
    }

    /// Convert to `serde_json::Value` (for the first of duplicate keys, the last wins, as in
    /// serde_json; duplicates are reported as errors before this is used).
    pub fn to_json(&self) -> serde_json::Value {
        match &self.value {
            Value::Null | Value::NonFinite(_) => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => serde_json::Value::Number(n.clone()),
            Value::String(text) => serde_json::Value::String(text.to_string()),
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
    /// The source text (a leading byte-order mark removed), which the tree's strings share.
    pub text: SourceText,
    /// The syntax it was read with.
    pub syntax: Syntax,
    /// The root node, or how to read it again once freed.
    tree: Tree,
    /// How the text was read, to read it again.
    reread: Reread,
    /// The pointers found in the text once the tree is freed.
    scanned: Scanned,
    /// Where each line starts and the character marks.
    lines: LineIndex,
    /// The YAML keys that are not strings, by the start of their range, in order: rare, so
    /// kept here rather than a byte in every member (a member is 48 bytes instead of 56).
    non_string_keys: Vec<(u32, KeyType)>,
    /// Whether an object may give a key twice: `false` only when the parser looked every
    /// key up in its object and found no repeat (JSON's parser, [`Self::without_repeats`]).
    repeats: bool,
}

/// How a document's text was read: the parser (given by the parser itself, so that the
/// document names none), its vocabulary and its limits, with which [`Document::root`]
/// reads a freed tree again.
#[derive(Debug, Clone, Copy)]
pub(super) struct Reread {
    /// The parser's reading of a text's root.
    pub(super) root: fn(&SourceText, &'static Vocabulary, &ReadLimits) -> Option<Node>,
    /// The vocabulary of the keys.
    pub(super) keys: &'static Vocabulary,
    /// The limits the text was read within.
    pub(super) limits: ReadLimits,
}

/// A document's tree: held, or freed ([`Document::release_tree`]) and read again from the
/// text when asked for.
#[derive(Debug, Clone)]
enum Tree {
    Held(Node),
    Released(OnceLock<Node>),
}

impl Document {
    pub(super) fn new(
        text: SourceText,
        syntax: Syntax,
        root: Node,
        line_starts: Option<Vec<usize>>,
        reread: Reread,
    ) -> Self {
        Document {
            text,
            syntax,
            tree: Tree::Held(root),
            reread,
            scanned: Scanned::default(),
            lines: LineIndex::new(line_starts),
            non_string_keys: Vec::new(),
            repeats: true,
        }
    }

    /// The document of a parser that found no key given twice in any object.
    pub(super) fn without_repeats(mut self) -> Self {
        self.repeats = false;
        self
    }

    /// Whether an object of the document may give a key twice (`false`: none does).
    pub fn may_repeat_keys(&self) -> bool {
        self.repeats
    }

    /// The document with the YAML keys that are not strings (see [`Self::non_string_key`]).
    pub(super) fn with_non_string_keys(mut self, mut keys: Vec<(Span, KeyType)>) -> Self {
        keys.sort_unstable_by_key(|(span, _)| span.start);
        keys.dedup_by_key(|(span, _)| span.start);
        self.non_string_keys = keys.into_iter().map(|(s, t)| (s.start, t)).collect();
        self
    }

    /// For a YAML key that is not a string (`1:`, `true:`, `{a: b}:`), what it is, by the
    /// key's range; reported as `P012`.
    pub fn non_string_key(&self, key_span: Span) -> Option<KeyType> {
        let keys = &self.non_string_keys;
        let i = keys
            .binary_search_by_key(&key_span.start, |(at, _)| *at)
            .ok()?;
        Some(keys[i].1)
    }

    /// The root node. Once the tree is freed ([`Self::release_tree`]), the first call
    /// reads the text again (the same parser, vocabulary and limits give the same tree).
    pub fn root(&self) -> &Node {
        match &self.tree {
            Tree::Held(root) => root,
            Tree::Released(again) => again.get_or_init(|| self.read_again()),
        }
    }

    /// Free the tree, keeping the text: a front end that has built its model no longer
    /// needs it, and a large loop's tree is the biggest thing it holds (two thirds of the
    /// memory of reading a 10,000-phase loop). Only a diagnostic found later that needs a
    /// position, or a caller of [`Self::root`], reads the text again.
    pub fn release_tree(&mut self) {
        self.tree = Tree::Released(OnceLock::new());
    }

    /// Take the tree out, leaving it freed as [`Self::release_tree`] does: for a reader
    /// that consumes it (the front ends' `to_model::from_tree`). A tree freed before is read
    /// again: its nodes are then not at the addresses a shape check saw.
    pub fn take_tree(&mut self) -> Node {
        match std::mem::replace(&mut self.tree, Tree::Released(OnceLock::new())) {
            Tree::Held(root) => root,
            Tree::Released(again) => again.into_inner().unwrap_or_else(|| self.read_again()),
        }
    }

    /// The source text, taken out without a copy: the tree, whose strings share it, is
    /// freed first, and the document is left with no text.
    pub fn take_text(&mut self) -> String {
        self.release_tree();
        std::mem::take(&mut self.text).into_string()
    }

    /// Whether the tree is held (never freed, or read again since).
    pub fn holds_tree(&self) -> bool {
        match &self.tree {
            Tree::Held(_) => true,
            Tree::Released(again) => again.get().is_some(),
        }
    }

    /// The tree read again from the text; a null root if the text no longer reads (it
    /// cannot change, so this does not happen).
    fn read_again(&self) -> Node {
        let Reread { root, keys, limits } = self.reread;
        root(&self.text, keys, &limits).unwrap_or(Node {
            value: Value::Null,
            span: Span::default(),
        })
    }

    /// Position of a byte range.
    pub fn pos(&self, span: impl Into<(usize, usize)>) -> Pos {
        self.lines.pos(&self.text, span.into())
    }

    /// The positions of the start (with the byte range) and of the end of a span.
    pub fn span_ends(&self, span: Span) -> (Pos, Pos) {
        (self.pos(span), self.pos((span.end(), span.end())))
    }

    /// The node at a JSON Pointer, and the member (when the last step is an object key).
    pub(super) fn follow(&self, pointer: &str) -> (Option<&Node>, Option<&Member>, &Node) {
        let mut node = self.root();
        let mut member = None;
        if pointer.is_empty() {
            return (Some(node), None, node);
        }
        for seg in Pointer::new(pointer).tokens() {
            let next = match &node.value {
                // Of a key given twice, the last value is the one read (`P014`).
                Value::Object(ms) => ms.iter().rfind(|m| m.key == *seg).map(|m| {
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
    /// Once the tree of a JSON document is freed, the pointers are found in one pass over
    /// the text (`tree::scan`) instead of reading the tree again.
    fn prepare(&self, pointers: &[&str]) {
        if self.syntax != Syntax::Json || self.holds_tree() {
            return;
        }
        self.scanned.find_in(&self.text, pointers);
    }

    fn locate(&self, pointer: &str, key: bool) -> Option<Pos> {
        let (value, nearest) = self.find(pointer);
        Some(self.pos(match value {
            Some((_, Some(k))) if key => k,
            Some((v, _)) => v,
            None => nearest,
        }))
    }

    fn locate_exact(&self, pointer: &str, key: bool) -> Option<(Pos, Pos)> {
        let span = match self.find(pointer).0 {
            Some((_, Some(k))) if key => k,
            Some((_, None)) if key => return None,
            Some((v, _)) => v,
            None => return None,
        };
        Some(self.span_ends(span))
    }
}

impl Document {
    /// What `pointer` names: the value's range and, when its last step is an object
    /// member, the key's; and the range of the deepest value on its way.
    pub(super) fn find(&self, pointer: &str) -> (Option<(Span, Option<Span>)>, Span) {
        if !self.holds_tree()
            && let Some(found) = self.scanned.get(pointer)
        {
            let span = |(start, end)| Span::new(start, end);
            let value = found.value.map(|(v, k)| (span(v), k.map(span)));
            return (value, span(found.nearest));
        }
        let (found, member, nearest) = self.follow(pointer);
        let value = found.map(|n| (n.span, member.map(|m| m.key_span)));
        (value, nearest.span)
    }
}

/// The pointers found by scanning the text of a document whose tree is freed.
#[derive(Debug, Default)]
struct Scanned(Mutex<HashMap<Box<str>, Found>>);

impl Clone for Scanned {
    fn clone(&self) -> Scanned {
        Scanned(Mutex::new(self.lock().clone()))
    }
}

impl Scanned {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Box<str>, Found>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Find the pointers not found yet, in one pass over `text`.
    fn find_in(&self, text: &str, pointers: &[&str]) {
        let mut found = self.lock();
        let mut new: Vec<&str> = (pointers.iter().copied())
            .filter(|p| !found.contains_key(*p))
            .collect();
        new.sort_unstable();
        new.dedup();
        if new.is_empty() {
            return;
        }
        for (p, f) in new.iter().zip(super::scan::find_all(text, &new)) {
            found.insert((*p).into(), f);
        }
    }

    fn get(&self, pointer: &str) -> Option<Found> {
        self.lock().get(pointer).copied()
    }
}
