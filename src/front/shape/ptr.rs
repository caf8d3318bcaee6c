//! The JSON Pointer of the value being checked, built only when a diagnostic needs it.
//!
//! The shape check visits every value of the document; formatting a pointer string for
//! each one was a fifth of the time of checking a large loop. A `Ptr` is a chain of
//! borrowed segments on the stack, turned into text by `Display`.

use std::fmt;

use crate::pointer::escape;

/// A JSON Pointer as a chain of segments.
#[derive(Clone, Copy)]
pub(super) enum Ptr<'a> {
    /// The whole document (`""`).
    Root,
    /// An object member of the parent.
    Key(&'a Ptr<'a>, &'a str),
    /// An array item of the parent.
    Index(&'a Ptr<'a>, usize),
}

impl<'a> Ptr<'a> {
    /// The member `key` of this value.
    pub(super) fn key(&'a self, key: &'a str) -> Ptr<'a> {
        Ptr::Key(self, key)
    }

    /// The item `i` of this value.
    pub(super) fn index(&'a self, i: usize) -> Ptr<'a> {
        Ptr::Index(self, i)
    }

    /// The field's name for messages (`loop.phases[1].id`, see [`crate::pointer::field_path`]).
    pub(super) fn field(&self) -> String {
        let field = crate::pointer::field_path(&self.to_string());
        match crate::diag::cut(&field) {
            std::borrow::Cow::Borrowed(_) => field,
            std::borrow::Cow::Owned(cut) => cut,
        }
    }

    /// Whether this is the document itself.
    pub(super) fn is_root(&self) -> bool {
        matches!(self, Ptr::Root)
    }

    /// The last key (`None` for the root and for array items).
    pub(super) fn last_key(&self) -> Option<&'a str> {
        match self {
            Ptr::Key(_, k) => Some(k),
            _ => None,
        }
    }

    /// The pointer of the parent (the root is its own parent).
    pub(super) fn parent(&self) -> Ptr<'a> {
        match self {
            Ptr::Root => Ptr::Root,
            Ptr::Key(p, _) | Ptr::Index(p, _) => **p,
        }
    }

    /// Whether a proper ancestor's last segment is the key `key` (`/…/outcomes/…`).
    pub(super) fn below_key(&self, key: &str) -> bool {
        let mut at = self.parent();
        loop {
            match at {
                Ptr::Root => return false,
                Ptr::Key(_, k) if k == key => return true,
                other => at = other.parent(),
            }
        }
    }

    /// Whether this is exactly the top-level member `key` (`/key`).
    pub(super) fn is_top_key(&self, key: &str) -> bool {
        matches!(self, Ptr::Key(Ptr::Root, k) if *k == key)
    }
}

impl fmt::Display for Ptr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ptr::Root => Ok(()),
            Ptr::Key(p, k) if k.contains(['~', '/']) => write!(f, "{p}/{}", escape(k)),
            Ptr::Key(p, k) => write!(f, "{p}/{k}"),
            Ptr::Index(p, i) => write!(f, "{p}/{i}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ptr;

    #[test]
    fn builds_escaped_pointers_and_answers_questions() {
        let root = Ptr::Root;
        let lp = root.key("loop");
        let phases = lp.key("phases");
        let first = phases.index(0);
        let outcomes = first.key("outcomes");
        let o = outcomes.index(2);
        let desc = o.key("description");
        assert_eq!(desc.to_string(), "/loop/phases/0/outcomes/2/description");
        assert!(desc.below_key("outcomes"));
        assert!(!outcomes.below_key("outcomes"));
        assert_eq!(desc.last_key(), Some("description"));
        assert_eq!(o.last_key(), None);
        assert!(lp.is_top_key("loop"));
        assert!(!phases.is_top_key("phases"));
        let odd = root.key("a/b~c");
        assert_eq!(odd.to_string(), "/a~1b~0c");
        assert_eq!(root.to_string(), "");
    }
}
