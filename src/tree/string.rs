//! The text of a string value of the tree, and the source text the tree's strings share.

use std::sync::Arc;

/// A document's source text, shared by the tree's strings that are read as they are
/// written ([`Str::in_source`]): a JSON string without escapes is a range of the text, not
/// a copy of it. Copied, they were 400,000 allocations of reading the 100,000-phase loop,
/// whose `check` peaked at 371 MB instead of 340 (docs/src/performance.md).
/// Reference-counted rather than borrowed, so that a node can be cloned or moved out of
/// its document (the editor server, the model read by consuming the tree) and stay valid.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SourceText(Arc<String>);

impl SourceText {
    /// The text, taken over without a copy.
    pub fn new(text: String) -> SourceText {
        SourceText(Arc::new(text))
    }

    /// The text. It is the only copy once no string of a tree refers to it; otherwise
    /// (a tree still held elsewhere) it is copied.
    pub fn into_string(self) -> String {
        Arc::try_unwrap(self.0).unwrap_or_else(|shared| String::clone(&shared))
    }

    /// The text, borrowed.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for SourceText {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SourceText {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for SourceText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

/// Bytes of text a [`Str`] holds in place: as many as fit beside its length and flag in
/// the 24 bytes of a [`super::Value`].
const INLINE: usize = 21;

/// A string value's text, and whether it was an unquoted YAML scalar (used to recognise
/// YAML 1.1 booleans). A text of up to 21 bytes is held in place, without an allocation:
/// ids, names and one-word texts, most strings of a loop (on the heap, each was one of
/// 85,000 allocations, and 1.4 MB, of reading the 10,000-phase `short` loop).
#[derive(Clone)]
pub struct Str(Repr);

#[derive(Clone)]
enum Repr {
    Inline {
        len: u8,
        from_yaml: bool,
        bytes: [u8; INLINE],
    },
    Heap {
        from_yaml: bool,
        text: Box<str>,
    },
    /// `source[start..start + len]`, a JSON string without escapes (never from YAML).
    InSource {
        start: u32,
        len: u32,
        source: SourceText,
    },
}

impl Str {
    /// The string `text` (copied when it is too long to be held in place).
    pub fn new(text: &str, from_yaml: bool) -> Str {
        Str::inline(text, from_yaml).unwrap_or_else(|| {
            Str(Repr::Heap {
                from_yaml,
                text: text.into(),
            })
        })
    }

    /// The string `text`, whose allocation is kept when it is too long to be held in place.
    pub fn from_string(text: String, from_yaml: bool) -> Str {
        Str::inline(&text, from_yaml).unwrap_or_else(|| {
            Str(Repr::Heap {
                from_yaml,
                text: text.into_boxed_str(),
            })
        })
    }

    /// The string `source[start..start + len]`, not copied unless it is short enough to
    /// be held in place (then the copy is cheaper than a reference to the source). `None`
    /// when the range is not text of `source` or does not fit the 32 bits of a position.
    pub fn in_source(source: &SourceText, start: usize, len: usize) -> Option<Str> {
        let text = source.get(start..start.checked_add(len)?)?;
        if let Some(s) = Str::inline(text, false) {
            return Some(s);
        }
        Some(Str(Repr::InSource {
            start: u32::try_from(start).ok()?,
            len: u32::try_from(len).ok()?,
            source: source.clone(),
        }))
    }

    fn inline(text: &str, from_yaml: bool) -> Option<Str> {
        let mut bytes = [0; INLINE];
        bytes
            .get_mut(..text.len())?
            .copy_from_slice(text.as_bytes());
        let len = u8::try_from(text.len()).ok()?;
        Some(Str(Repr::Inline {
            len,
            from_yaml,
            bytes,
        }))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes, .. } => {
                let text = &bytes[..usize::from(*len)];
                debug_assert!(std::str::from_utf8(text).is_ok());
                // SAFETY: `bytes[..len]` is only ever written by `Str::inline`, which copies
                // a whole `&str` there, and never changed: it is valid UTF-8. (Checking it
                // again on every read, with `str::from_utf8`, was 31 M of the 547 M
                // instructions of checking a 10,000-phase loop, more than the allocations
                // that holding short texts in place saves.)
                unsafe { std::str::from_utf8_unchecked(text) }
            }
            Repr::Heap { text, .. } => text,
            Repr::InSource { start, len, source } => {
                let (start, len) = (*start as usize, *len as usize);
                // In range and on character boundaries: `Str::in_source` checked it.
                source.get(start..start + len).unwrap_or_default()
            }
        }
    }

    /// Whether it was read from a YAML scalar (serde-saphyr does not say whether the
    /// scalar was quoted: the source at the node's span does).
    pub fn from_yaml(&self) -> bool {
        match self.0 {
            Repr::Inline { from_yaml, .. } | Repr::Heap { from_yaml, .. } => from_yaml,
            Repr::InSource { .. } => false,
        }
    }

    /// The text as a `String` (the allocation of a long one is kept; a range of the source
    /// is copied).
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Heap { text, .. } => text.into_string(),
            Repr::Inline { .. } | Repr::InSource { .. } => self.as_str().to_owned(),
        }
    }
}

impl std::ops::Deref for Str {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Str {
    fn eq(&self, other: &Str) -> bool {
        self.as_str() == other.as_str() && self.from_yaml() == other.from_yaml()
    }
}

/// A string equals a text of the same characters (whether it was an unquoted YAML scalar
/// aside).
impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Str {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl std::fmt::Display for Str {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for Str {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)?;
        if self.from_yaml() {
            f.write_str(" (yaml)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use proptest::prelude::{prop_assert_eq, proptest};

    use super::Repr;
    use crate::tree::{SourceText, Str};
    proptest! {
        /// Every text reads back as it was given, held in place or not.
        #[test]
        fn a_string_keeps_its_text(text in "\\PC{0,30}", from_yaml: bool) {
            let s = Str::new(&text, from_yaml);
            prop_assert_eq!(s.as_str(), text.as_str());
            prop_assert_eq!(s.from_yaml(), from_yaml);
            prop_assert_eq!(&Str::from_string(text.clone(), from_yaml), &s);
            prop_assert_eq!(s.into_string(), text);
        }
    }

    fn inline(s: &Str) -> bool {
        matches!(s.0, Repr::Inline { .. })
    }

    /// Whether `s` is a range of a source text rather than a copy.
    pub(in crate::tree) fn in_source(s: &Str) -> bool {
        matches!(s.0, Repr::InSource { .. })
    }

    #[test]
    fn a_range_of_the_source_is_held_in_place_when_short_and_shared_when_long() {
        let source = SourceText::new(format!("\"{}\" \"é{}\"", "a".repeat(21), "b".repeat(30)));
        let short = Str::in_source(&source, 1, 21).expect("a range of the text");
        assert!(inline(&short));
        let long = Str::in_source(&source, 25, 32).expect("a range of the text");
        assert!(in_source(&long));
        assert_eq!(long.as_str(), format!("é{}", "b".repeat(30)));
        assert!(!long.from_yaml());
        assert_eq!(long.clone().into_string(), long.as_str());
        // Not on a character boundary, or past the end: no string.
        assert!(Str::in_source(&source, 26, 31).is_none());
        assert!(Str::in_source(&source, 25, 100).is_none());
        assert!(Str::in_source(&source, usize::MAX, 2).is_none());
        // The text comes back without a copy once no string refers to it.
        drop((short, long));
        let ptr = source.as_str().as_ptr();
        let text = source.into_string();
        assert_eq!(text.as_ptr(), ptr);
    }

    #[test]
    fn texts_of_up_to_21_bytes_are_held_in_place() {
        for text in ["", "a", &"a".repeat(21), &format!("{}a", "é".repeat(10))] {
            assert!(inline(&Str::new(text, false)), "{text:?}");
            assert!(inline(&Str::from_string(text.to_owned(), true)), "{text:?}");
        }
        // 22 bytes: 22 letters, and 11 two-byte characters.
        for text in ["a".repeat(22), "é".repeat(11)] {
            assert!(!inline(&Str::new(&text, false)), "{text:?}");
            assert!(!inline(&Str::from_string(text.clone(), false)), "{text:?}");
        }
    }
}
