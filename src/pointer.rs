//! JSON Pointers (RFC 6901): the one reading and writing of their tokens, and the pointer
//! as people read it in messages.
//!
//! A leaf module: it imports no other module of the crate, so every layer can read and
//! build pointers (the tree finds a node by one, the IR records where a value came from).

use std::borrow::Cow;

/// A JSON Pointer, borrowed: `""` is the whole document, `/loop/phases/1/id` a value in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pointer<'a>(&'a str);

impl<'a> Pointer<'a> {
    /// The pointer written as `text`.
    pub fn new(text: &'a str) -> Self {
        Pointer(text)
    }

    /// The pointer as written.
    pub fn as_str(self) -> &'a str {
        self.0
    }

    /// Its reference tokens from the root, unescaped (none for the whole document).
    pub fn tokens(self) -> impl Iterator<Item = Cow<'a, str>> {
        self.0.split('/').skip(1).map(unescape)
    }

    /// Its last token, unescaped (`""` for the whole document).
    pub fn last(self) -> Cow<'a, str> {
        unescape(self.0.rsplit('/').next().unwrap_or(""))
    }

    /// The pointer of the value holding this one (the whole document for itself).
    pub fn parent(self) -> Pointer<'a> {
        Pointer(self.0.rsplit_once('/').map_or("", |(parent, _)| parent))
    }

    /// The pointer of the value holding this one, and this one's token, unescaped; `None`
    /// for the whole document.
    pub fn split_last(self) -> Option<(Pointer<'a>, Cow<'a, str>)> {
        let (parent, token) = self.0.rsplit_once('/')?;
        Some((Pointer(parent), unescape(token)))
    }
}

/// A reference token as a pointer writes it: `~` as `~0`, `/` as `~1`.
pub fn escape(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// A reference token as written in a pointer, read: `~1` as `/`, `~0` as `~`.
pub fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// Append `/token`, escaped, to the pointer `pointer`.
pub fn push(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&escape(token));
}

/// `loop.phases[1].id` from `/loop/phases/1/id`.
pub fn field_path(ptr: &str) -> String {
    let mut out = String::new();
    for seg in Pointer::new(ptr).tokens() {
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg);
        }
    }
    if out.is_empty() {
        "the document".to_owned()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{Pointer, escape, field_path, push, unescape};

    #[test]
    fn tokens_round_trip_through_escaping() {
        for token in ["", "a", "a/b", "~", "~1", "~01", "/~/"] {
            assert_eq!(unescape(&escape(token)), token);
            let mut p = String::from("/x");
            push(&mut p, token);
            let tokens: Vec<_> = Pointer::new(&p).tokens().collect();
            assert_eq!(tokens, ["x", token]);
            assert_eq!(Pointer::new(&p).last(), token);
            let (parent, last) = Pointer::new(&p).split_last().unwrap();
            assert_eq!((parent.as_str(), last.as_ref()), ("/x", token));
        }
        assert_eq!(escape("a~b/c"), "a~0b~1c");
        assert_eq!(unescape("~01"), "~1");
        assert_eq!(Pointer::new("").tokens().count(), 0);
        assert_eq!(Pointer::new("").split_last(), None);
        assert_eq!(Pointer::new("/a/b~1c").parent().as_str(), "/a");
        assert_eq!(Pointer::new("").parent().as_str(), "");
        assert_eq!(field_path("/loop/phases/1/a~1b"), "loop.phases[1].a/b");
        assert_eq!(field_path(""), "the document");
    }
}
