//! Object keys: a known key (one of the formats' vocabulary) shared by its index, any other on
//! the heap.

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
    pub(super) fn same(&self, other: &Key) -> bool {
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
            names(f.schema(), &mut want);
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
}
