//! Object keys, and the vocabularies that share them: a key of the vocabulary the parser was
//! given is a pointer to the word, any other key is on the heap.
//!
//! The tree knows no format: the words are defined by the layer that does (loopconv's are
//! `front::vocabulary::KEYS`) and passed to the parsers.

use std::alloc::{self, Layout};
use std::num::NonZeroUsize;
use std::ptr::NonNull;

/// The keys a family of formats uses, so that a [`Key`] equal to one of them shares the word
/// instead of allocating its text: a loop repeats the same few keys in every phase and
/// transition, and allocating each was a fifth of the parser's allocations. Built at compile
/// time ([`Vocabulary::new`]), in a `static`.
#[derive(Debug)]
pub struct Vocabulary {
    words: &'static [&'static str],
    /// An open-addressed table of the words' indices, found from [`slot`]: one or two
    /// comparisons per lookup (a binary search over the words was a tenth of the parser's
    /// time). It always has a free slot, which ends a search.
    slots: [Option<u8>; SLOTS],
}

/// Slots of a [`Vocabulary`]'s table (a power of two, well above the number of words).
const SLOTS: usize = 256;

/// Where a vocabulary first looks for `text`: from its length and first and last bytes.
const fn slot(text: &str) -> usize {
    let b = text.as_bytes();
    let (first, last) = match (b.first(), b.last()) {
        (Some(&first), Some(&last)) => (first as usize, last as usize),
        _ => (0, 0),
    };
    b.len()
        .wrapping_mul(31)
        .wrapping_add(first * 7)
        .wrapping_add(last)
        % SLOTS
}

impl Vocabulary {
    /// The vocabulary of `words`. Panics (at compile time, in a `static`) when a word is
    /// repeated or there are 256 words or more (an index fits a byte, and the table keeps
    /// a free slot).
    pub const fn new(words: &'static [&'static str]) -> Vocabulary {
        assert!(words.len() < SLOTS, "a vocabulary holds at most 255 words");
        let mut slots = [None; SLOTS];
        let mut k = 0;
        while k < words.len() {
            let mut i = slot(words[k]);
            while let Some(other) = slots[i] {
                assert!(
                    !crate::text::same_text(words[other as usize], words[k]),
                    "a vocabulary holds each word once"
                );
                i = (i + 1) % SLOTS;
            }
            slots[i] = Some(k as u8);
            k += 1;
        }
        Vocabulary { words, slots }
    }

    /// The words, in the order they were given.
    pub fn words(&self) -> &'static [&'static str] {
        self.words
    }

    /// The word equal to `text`, if there is one: its address names it (see
    /// [`Self::word_of`]).
    pub fn word(&self, text: &str) -> Option<&'static &'static str> {
        let words = self.words;
        let mut i = slot(text);
        while let Some(k) = self.slots[i] {
            let word = words.get(usize::from(k))?;
            // Compared in place: a key is a few bytes, for which a call into libc's
            // `memcmp` (what `==` makes of two slices) costs more than the comparison
            // (such calls, this one among them, were 7 % of checking a large loop).
            if crate::text::same_text(word, text) {
                return Some(word);
            }
            i = (i + 1) % SLOTS;
        }
        None
    }

    /// The word of this vocabulary that `key` is stored as, if it is one (a key equal to a
    /// word but parsed with another vocabulary, or none, is not). Two keys, or a key and a
    /// [`Self::word`], are then equal exactly when their words have one address: a key
    /// matched against a known name costs a comparison of addresses, not of texts.
    pub fn word_of(&self, key: &Key) -> Option<&'static &'static str> {
        match key.text() {
            KeyText::Known(word)
                if self
                    .words
                    .as_ptr_range()
                    .contains(&std::ptr::from_ref(word)) =>
            {
                Some(word)
            }
            _ => None,
        }
    }

    /// The key for `text`: the shared word when there is one, else a copy of the text.
    pub fn key(&self, text: &str) -> Key {
        match self.word(text) {
            Some(word) => Key::known(word),
            None => Key::new(text),
        }
    }

    /// The key for `text`: the shared word when there is one, else a copy of the text on
    /// the heap (the `String` itself is dropped).
    pub fn key_from(&self, text: String) -> Key {
        match self.word(&text) {
            Some(word) => Key::known(word),
            None => Key::from(text),
        }
    }
}

/// An object key: a word of a [`Vocabulary`] (shared) or any other text (on the heap). Two
/// keys are equal when their texts are, however each is stored.
///
/// 8 bytes, a pointer with a tag in its low bit (`KeyText` is what it points to): a loop
/// has one key per member, and a member is 48 bytes with it instead of 56 with a 16-byte
/// key (the 10,000-phase `short` loop's tree 5.4 MB instead of 6.2).
pub struct Key(NonNull<u8>);

// SAFETY: a key owns its heap text alone (or points to a `static` word) and never changes
// it, as a `Box<str>` would: it can be sent to and read from any thread.
unsafe impl Send for Key {}
// SAFETY: as above; `&Key` only reads.
unsafe impl Sync for Key {}

const _: () = assert!(std::mem::size_of::<Key>() == 8);

/// The tag of a key on the heap (the low bit of its pointer; a word's address has it clear).
/// Both targets are aligned to 8 bytes: a word is a `&'static str`, and a heap text's block
/// starts with its length (a `usize`), so the bit is free.
const ON_HEAP: usize = 1;

/// What a [`Key`] points to: a known key's word in its vocabulary, or any other key's text,
/// kept on the heap as its length followed by its bytes (one block, as a `Box<str>` was).
enum KeyText<'a> {
    Known(&'static &'static str),
    Other(&'a str),
}

/// The layout of a heap text of `len` bytes: its length, then its bytes.
fn heap_layout(len: usize) -> Layout {
    let size = len.saturating_add(size_of::<usize>());
    match Layout::from_size_align(size, align_of::<usize>()) {
        Ok(layout) => layout,
        // Unreachable (a key is part of an input of at most `MAX_INPUT_BYTES`), and never a
        // smaller block than the text: as `Vec` does when a capacity overflows.
        Err(_) => panic!("a key of {len} bytes does not fit in memory"),
    }
}

impl Key {
    /// The key for `text`, on the heap (a parser shares known keys through
    /// [`Vocabulary::key`]).
    pub fn new(text: &str) -> Key {
        let layout = heap_layout(text.len());
        // SAFETY: the layout is at least one `usize`, so not zero-sized.
        let block = unsafe { alloc::alloc(layout) };
        let Some(block) = NonNull::new(block) else {
            alloc::handle_alloc_error(layout)
        };
        // SAFETY: the block holds a `usize` at its start (aligned, as the layout is) and
        // `text.len()` bytes after it, which `text` cannot overlap (the block is new).
        unsafe {
            block.cast::<usize>().write(text.len());
            let bytes = block.add(size_of::<usize>());
            std::ptr::copy_nonoverlapping(text.as_ptr(), bytes.as_ptr(), text.len());
        }
        Key(block.map_addr(|a| a | ON_HEAP))
    }

    /// The key of a vocabulary's word.
    fn known(word: &'static &'static str) -> Key {
        Key(NonNull::from(word).cast())
    }

    /// What the key points to.
    fn text(&self) -> KeyText<'_> {
        if self.0.addr().get() & ON_HEAP == 0 {
            // SAFETY: a key with the tag clear was made by `known` from a `&'static &str`.
            return KeyText::Known(unsafe { self.0.cast::<&'static str>().as_ref() });
        }
        let block = self.heap_block();
        // SAFETY: a key with the tag set was made by `new`, which wrote the length and then
        // that many bytes of a `str` in its block; the block lives as long as the key.
        unsafe {
            let len = block.cast::<usize>().read();
            let bytes = std::slice::from_raw_parts(block.add(size_of::<usize>()).as_ptr(), len);
            KeyText::Other(std::str::from_utf8_unchecked(bytes))
        }
    }

    /// The address of a heap key's block: the pointer without its tag (never zero: the
    /// block's address is a multiple of 8).
    fn heap_block(&self) -> NonNull<u8> {
        self.0
            .map_addr(|a| NonZeroUsize::new(a.get() & !ON_HEAP).unwrap_or(a))
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        match self.text() {
            KeyText::Known(word) => word,
            KeyText::Other(text) => text,
        }
    }

    /// Whether two keys are equal; two keys of the same word compare by address (the words
    /// of a vocabulary are distinct, so only words of two vocabularies need their text
    /// compared).
    pub(super) fn same(&self, other: &Key) -> bool {
        self.0 == other.0 || self.as_str() == other.as_str()
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        if let KeyText::Other(text) = self.text() {
            let layout = heap_layout(text.len());
            let block = self.heap_block();
            // SAFETY: the block was allocated by `new` with the layout of this length.
            unsafe { alloc::dealloc(block.as_ptr(), layout) }
        }
    }
}

impl Clone for Key {
    fn clone(&self) -> Key {
        match self.text() {
            KeyText::Known(word) => Key::known(word),
            KeyText::Other(text) => Key::new(text),
        }
    }
}

impl From<String> for Key {
    /// The key for `text`, on the heap.
    fn from(text: String) -> Key {
        Key::new(&text)
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

    use super::KeyText;
    use crate::tree::{Key, Vocabulary};
    static WORDS: Vocabulary = Vocabulary::new(&["id", "on", "to", "phases", "~1"]);

    #[test]
    fn a_word_is_shared_and_any_other_text_is_not() {
        for (i, w) in WORDS.words().iter().enumerate() {
            for key in [WORDS.key(w), WORDS.key_from((*w).to_owned())] {
                assert!(
                    matches!(key.text(), KeyText::Known(word) if std::ptr::eq(word, &WORDS.words()[i])),
                    "{w}"
                );
                assert_eq!(key.as_str(), *w);
                assert_eq!(key.to_string(), *w);
            }
        }
        for text in ["objectiv", "", "i", "ids", "phase"] {
            let key = WORDS.key(text);
            assert!(matches!(key.text(), KeyText::Other(_)), "{text}");
            assert_eq!(&*key, text);
        }
    }

    /// A key is its vocabulary's word exactly when it was shared from that vocabulary: a
    /// word by address, any other key (a heap key, or another vocabulary's word) not.
    #[test]
    fn a_key_names_its_own_vocabularys_word() {
        static OTHER: Vocabulary = Vocabulary::new(&["id", "from"]);
        for w in WORDS.words() {
            let word = WORDS.word(w).expect("a word");
            assert!(std::ptr::eq(
                WORDS.word_of(&WORDS.key(w)).expect("shared"),
                word
            ));
            assert_eq!(WORDS.word_of(&Key::new(w)), None, "{w} on the heap");
        }
        assert_eq!(WORDS.word("from"), None);
        assert_eq!(WORDS.word_of(&OTHER.key("id")), None);
        assert!(OTHER.word_of(&OTHER.key("from")).is_some());
    }

    /// A heap key keeps its text exactly, whatever its length and characters, through
    /// clones, moves between threads and drops (each clone owns its own block).
    #[test]
    fn a_heap_key_keeps_its_text_through_clones_and_threads() {
        let long = "ключ/\u{0}~".repeat(300);
        for text in ["", "x", "é", "p000001", long.as_str(), "\0\n", "🙂 key"] {
            let key = Key::new(text);
            let copies: Vec<Key> = (0..3).map(|_| key.clone()).collect();
            drop(key);
            let back = std::thread::spawn(move || copies)
                .join()
                .expect("the thread ends");
            for k in &back {
                assert!(matches!(k.text(), KeyText::Other(t) if t == text));
                assert_eq!(k.as_str(), text);
            }
            assert_eq!(Key::from(text.to_owned()), back[0]);
        }
        let word = WORDS.key("phases");
        assert!(
            matches!(word.clone().text(), KeyText::Known(w) if std::ptr::eq(w, WORDS.word("phases").expect("a word")))
        );
    }

    #[test]
    fn keys_are_equal_by_text_however_they_are_stored() {
        let shared = WORDS.key("phases");
        let other = Vocabulary::new(&["phases"]).key("phases");
        for same in [Key::new("phases"), Key::from("phases".to_owned()), other] {
            assert_eq!(shared, same);
            assert_eq!(same, shared);
            assert_eq!(shared.cmp(&same), std::cmp::Ordering::Equal);
            let hash = |k: &Key| {
                std::hash::BuildHasher::hash_one(&foldhash::fast::FixedState::default(), k)
            };
            assert_eq!(hash(&shared), hash(&same));
        }
        assert_ne!(WORDS.key("on"), WORDS.key("to"));
        assert_ne!(WORDS.key("on"), Key::new("to"));
        assert!(WORDS.key("id") < WORDS.key("on"));
    }

    #[test]
    fn a_full_vocabulary_finds_every_word() {
        let words: Vec<&'static str> = (0..255)
            .map(|i| &*Box::leak(format!("k{}", i * 7).into_boxed_str()))
            .collect();
        let full = Vocabulary::new(Box::leak(words.into_boxed_slice()));
        for w in full.words() {
            assert!(
                matches!(full.key(w).text(), KeyText::Known(word) if std::ptr::eq(word, w)),
                "{w}"
            );
        }
        assert!(matches!(full.key("k1").text(), KeyText::Other(_)));
    }
}
