//! Where JSON Pointers are in a JSON text, found in one pass over it without building the
//! tree: the positions of the diagnostics found after a front end freed its tree
//! ([`super::Document::release_tree`]). Reading the tree again for them cost a whole parse
//! and the tree's memory (a 10,000-phase loop with 100 errors: a third more time); this
//! pass descends only into the values the pointers go through, and skips the rest.
//!
//! It answers as [`super::Document`]'s descent does: of a key given twice the last is the
//! one read, an array step is a `usize` (`str::parse`), and a pointer that names nothing
//! gives the deepest value it reached.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::pointer::Pointer;

/// A byte range, `start..end` (the scan names no tree type: the tree's document uses it).
pub(super) type Range = (usize, usize);

/// What a pointer names in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Found {
    /// The value it names, and the key when its last step is an object member: `None`
    /// when it names nothing.
    pub(super) value: Option<(Range, Option<Range>)>,
    /// The deepest value on its way (the value itself when found).
    pub(super) nearest: Range,
}

/// What each of `pointers` names in the JSON `text` (a text the parser read: another
/// gives answers, never a panic), in their order.
pub(super) fn find_all(text: &str, pointers: &[&str]) -> Vec<Found> {
    let mut trie = Trie::default();
    for (q, p) in pointers.iter().enumerate() {
        trie.insert(p, q);
    }
    let unknown = Found {
        value: None,
        nearest: (0, 0),
    };
    let mut scan = Scan {
        s: text.as_bytes(),
        found: vec![unknown; pointers.len()],
    };
    let start = scan.ws(0);
    scan.visit(&trie, start, None);
    scan.found
}

/// The pointers' steps, shared by prefix; `ends` lists the pointers that end at a step.
#[derive(Debug, Default)]
struct Trie {
    children: HashMap<String, Trie>,
    ends: Vec<usize>,
}

impl Trie {
    fn insert(&mut self, pointer: &str, q: usize) {
        let mut node = self;
        if !pointer.is_empty() {
            for step in Pointer::new(pointer).tokens() {
                node = node.children.entry(step.into_owned()).or_default();
            }
        }
        node.ends.push(q);
    }

    /// Every pointer that ends at or below this step.
    fn each_pointer(&self, f: &mut impl FnMut(usize)) {
        self.ends.iter().for_each(|&q| f(q));
        self.children.values().for_each(|c| c.each_pointer(f));
    }
}

struct Scan<'a> {
    s: &'a [u8],
    found: Vec<Found>,
}

impl Scan<'_> {
    /// Visit the value at `i` for the pointers through `trie` (reached by the member key
    /// at `key`, if any); the end of the value.
    fn visit(&mut self, trie: &Trie, i: usize, key: Option<Range>) -> usize {
        let mut seen = vec![false; trie.children.len()];
        let steps: Vec<(&String, &Trie)> = trie.children.iter().collect();
        let end = match self.s.get(i) {
            Some(b'{') if !steps.is_empty() => self.members(&steps, &mut seen, i),
            Some(b'[') if !steps.is_empty() => self.items(&steps, &mut seen, i),
            _ => self.skip(i),
        };
        let span = (i, end);
        for &q in &trie.ends {
            self.found[q] = Found {
                value: Some((span, key)),
                nearest: span,
            };
        }
        let missing = Found {
            value: None,
            nearest: span,
        };
        for ((_, child), seen) in steps.iter().zip(seen) {
            if !seen {
                child.each_pointer(&mut |q| self.found[q] = missing);
            }
        }
        end
    }

    /// The members of the object at `i`, visiting those the steps name (the last of a key
    /// given twice: each visit replaces what the one before found).
    fn members(&mut self, steps: &[(&String, &Trie)], seen: &mut [bool], i: usize) -> usize {
        let by_key: HashMap<&str, usize> = (steps.iter().enumerate())
            .map(|(k, (step, _))| (step.as_str(), k))
            .collect();
        let mut i = self.ws(i + 1);
        if self.s.get(i) == Some(&b'}') {
            return i + 1;
        }
        while self.s.get(i) == Some(&b'"') {
            let key_end = self.skip_string(i);
            let key = (i, key_end);
            let text = self.key_text(key);
            i = self.ws(key_end);
            if self.s.get(i) != Some(&b':') {
                return i;
            }
            i = self.ws(i + 1);
            i = match by_key.get(&*text).copied() {
                Some(k) => {
                    seen[k] = true;
                    self.visit(steps[k].1, i, Some(key))
                }
                None => self.skip(i),
            };
            match self.after_item(i, b'}') {
                Ok(next) => i = next,
                Err(end) => return end,
            }
        }
        i
    }

    /// The items of the array at `i`, visiting those the steps name.
    fn items(&mut self, steps: &[(&String, &Trie)], seen: &mut [bool], i: usize) -> usize {
        let mut i = self.ws(i + 1);
        if self.s.get(i) == Some(&b']') {
            return i + 1;
        }
        // Each step's index (two steps can name one item: `1` and `01`).
        let mut at: HashMap<usize, Vec<usize>> = HashMap::new();
        for (k, (step, _)) in steps.iter().enumerate() {
            if let Ok(index) = step.parse::<usize>() {
                at.entry(index).or_default().push(k);
            }
        }
        let mut index = 0usize;
        while i < self.s.len() {
            let end = match at.get(&index) {
                Some(ks) => {
                    let mut end = i;
                    for &k in ks {
                        seen[k] = true;
                        end = self.visit(steps[k].1, i, None);
                    }
                    end
                }
                None => self.skip(i),
            };
            i = end;
            index += 1;
            match self.after_item(i, b']') {
                Ok(next) => i = next,
                Err(end) => return end,
            }
        }
        i
    }

    /// After an item at `i`: `Ok` with the next item's start after a comma, `Err` with the
    /// end of the collection after `close` (or where the text stops making sense).
    fn after_item(&self, i: usize, close: u8) -> Result<usize, usize> {
        let i = self.ws(i);
        match self.s.get(i) {
            Some(b',') => Ok(self.ws(i + 1)),
            Some(&c) if c == close => Err(i + 1),
            _ => Err(i),
        }
    }

    /// A key's text, its escapes decoded (borrowed from the text when it has none: the
    /// keys of a large object on a pointer's way are compared, not kept).
    fn key_text(&self, key: Range) -> Cow<'_, str> {
        let raw = self.s.get(key.0..key.1).unwrap_or_default();
        match raw.contains(&b'\\') {
            false => {
                String::from_utf8_lossy(raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default())
            }
            true => Cow::Owned(serde_json::from_slice(raw).unwrap_or_default()),
        }
    }

    /// The end of the value at `i`.
    fn skip(&self, i: usize) -> usize {
        match self.s.get(i) {
            Some(b'"') => self.skip_string(i),
            Some(b'{' | b'[') => self.skip_collection(i),
            _ => {
                let rest = self.s.get(i..).unwrap_or_default();
                let len = (rest.iter())
                    .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'));
                i + len.unwrap_or(rest.len())
            }
        }
    }

    /// The end of the string whose opening quote is at `i`.
    fn skip_string(&self, i: usize) -> usize {
        let mut j = i + 1;
        while let Some(k) = memchr::memchr2(b'"', b'\\', self.s.get(j..).unwrap_or_default()) {
            match self.s[j + k] {
                b'\\' => j += k + 2,
                _ => return j + k + 1,
            }
        }
        self.s.len()
    }

    /// The end of the object or array that opens at `i`.
    fn skip_collection(&self, i: usize) -> usize {
        let mut depth = 0usize;
        let mut j = i;
        while let Some(&b) = self.s.get(j) {
            match b {
                b'"' => {
                    j = self.skip_string(j);
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        return j + 1;
                    }
                }
                b'\n' => {
                    j = self.indentation(j + 1);
                    continue;
                }
                _ => {}
            }
            j += 1;
        }
        self.s.len()
    }

    /// The end of the indentation that starts at `i`, skipped eight spaces (or tabs) at a
    /// time, as the parser does; the rest, fewer than eight, is read a byte at a time by
    /// the caller. With the indentation read a byte at a time, this pass over a 35 MB loop
    /// indented by three spaces, for its 100 errors, took 160 M instructions, 137 M after
    /// (callgrind, issue 50).
    fn indentation(&self, mut i: usize) -> usize {
        while let Some(w) = self.s.get(i..i + 8) {
            if w != [b' '; 8] && w != [b'\t'; 8] {
                break;
            }
            i += 8;
        }
        i
    }

    /// The first byte at or after `i` that is not JSON whitespace.
    fn ws(&self, i: usize) -> usize {
        let rest = self.s.get(i..).unwrap_or_default();
        i + (rest.iter())
            .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .unwrap_or(rest.len())
    }
}
