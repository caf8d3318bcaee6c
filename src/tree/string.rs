//! The text of a string value of the tree.

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
        plain: bool,
        bytes: [u8; INLINE],
    },
    Heap {
        plain: bool,
        text: Box<str>,
    },
}

impl Str {
    /// The string `text` (copied when it is too long to be held in place).
    pub fn new(text: &str, plain: bool) -> Str {
        Str::inline(text, plain).unwrap_or_else(|| {
            Str(Repr::Heap {
                plain,
                text: text.into(),
            })
        })
    }

    /// The string `text`, whose allocation is kept when it is too long to be held in place.
    pub fn from_string(text: String, plain: bool) -> Str {
        Str::inline(&text, plain).unwrap_or_else(|| {
            Str(Repr::Heap {
                plain,
                text: text.into_boxed_str(),
            })
        })
    }

    fn inline(text: &str, plain: bool) -> Option<Str> {
        let mut bytes = [0; INLINE];
        bytes
            .get_mut(..text.len())?
            .copy_from_slice(text.as_bytes());
        let len = u8::try_from(text.len()).ok()?;
        Some(Str(Repr::Inline { len, plain, bytes }))
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
        }
    }

    /// Whether it was an unquoted YAML scalar.
    pub fn plain(&self) -> bool {
        match self.0 {
            Repr::Inline { plain, .. } | Repr::Heap { plain, .. } => plain,
        }
    }

    /// The text as a `String` (the allocation of a long one is kept).
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Inline { .. } => self.as_str().to_owned(),
            Repr::Heap { text, .. } => text.into_string(),
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
        self.as_str() == other.as_str() && self.plain() == other.plain()
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
        if self.plain() {
            f.write_str(" (plain)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every text reads back as it was given, held in place or not.
        #[test]
        fn a_string_keeps_its_text(text in "\\PC{0,30}", plain: bool) {
            let s = Str::new(&text, plain);
            prop_assert_eq!(s.as_str(), text.as_str());
            prop_assert_eq!(s.plain(), plain);
            prop_assert_eq!(&Str::from_string(text.clone(), plain), &s);
            prop_assert_eq!(s.into_string(), text);
        }
    }

    fn inline(s: &Str) -> bool {
        matches!(s.0, Repr::Inline { .. })
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
