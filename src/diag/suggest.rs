//! Typed suggestions: the fixes a diagnostic proposes, as data.
//!
//! A [`Suggestion`] says what to change (replace this id with that one, add this
//! transition, remove this key) in terms of JSON Pointers and ids, never as prose. Its help
//! line is rendered from it in one place, [`Suggestion::help_text`]; the language server's
//! code actions and the SARIF `fixes` are built from the same data, so rewording a help line
//! cannot change an edit.

use std::fmt;

use super::Pos;

/// The key or the value of the member at a JSON Pointer: what a suggestion edits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditTarget {
    /// JSON Pointer to the member (or array item).
    pub pointer: String,
    /// Whether the key is meant rather than the value.
    pub key: bool,
    /// The exact position and byte range of the key or value, once located; `None` while
    /// the pointer is unresolved, and when it names nothing in the document.
    pub pos: Option<Pos>,
    /// The line and column just past the key or value, located with `pos`.
    pub end: Option<Pos>,
}

impl EditTarget {
    /// The value at `pointer`.
    pub fn value(pointer: impl Into<String>) -> Self {
        EditTarget {
            pointer: pointer.into(),
            key: false,
            pos: None,
            end: None,
        }
    }

    /// The key of the member at `pointer`.
    pub fn key(pointer: impl Into<String>) -> Self {
        EditTarget {
            key: true,
            ..EditTarget::value(pointer)
        }
    }

    /// The last step of the pointer, unescaped (the member's key).
    pub fn field(&self) -> String {
        crate::pointer::Pointer::new(&self.pointer)
            .last()
            .into_owned()
    }
}

/// One fix a diagnostic proposes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Suggestion {
    /// An unknown id or key is close to a declared one: write `with` instead (as a JSON
    /// string). Help: "did you mean `with`?".
    Replace {
        /// The unknown id's value, or the unknown key.
        target: EditTarget,
        /// The declared id or key.
        with: String,
    },
    /// One unknown id used at several places, close to a declared one: write `with` at
    /// every place (one fix of several edits). Help: "did you mean `with`? (at each of
    /// the N places)".
    ReplaceAll {
        /// The unknown id's values, in authored order.
        targets: Vec<EditTarget>,
        /// The declared id.
        with: String,
    },
    /// Set a value to the string `to`. Help: "set `key: to`".
    Set {
        /// The value to overwrite.
        target: EditTarget,
        /// The new value.
        to: String,
    },
    /// Remove a member, key and value. Help: "remove `key`".
    RemoveKey {
        /// The member's key.
        target: EditTarget,
    },
    /// Add a member to an object. Help: "add `"key": value`".
    AddKey {
        /// JSON Pointer to the object.
        object: String,
        /// The new key.
        key: String,
        /// Its value.
        value: serde_json::Value,
    },
    /// Add the missing transition for an outcome (the author picks its target). Help:
    /// `add {"from": "p", "on": "o", "to": ...}`.
    AddTransition {
        /// The phase.
        from: String,
        /// Its outcome.
        on: String,
    },
}

impl Suggestion {
    /// The help line this suggestion reads as (the one place its wording lives).
    pub fn help_text(&self) -> String {
        self.to_string()
    }

    /// The key or value the suggestion overwrites or removes, when it has one (the first,
    /// for [`Suggestion::ReplaceAll`]).
    pub fn target(&self) -> Option<&EditTarget> {
        self.targets().into_iter().next()
    }

    /// Every key or value the suggestion overwrites or removes, in order.
    pub fn targets(&self) -> Vec<&EditTarget> {
        match self {
            Suggestion::Replace { target, .. }
            | Suggestion::Set { target, .. }
            | Suggestion::RemoveKey { target } => vec![target],
            Suggestion::ReplaceAll { targets, .. } => targets.iter().collect(),
            Suggestion::AddKey { .. } | Suggestion::AddTransition { .. } => Vec::new(),
        }
    }

    /// Mutable access to every target (for locating them).
    pub fn targets_mut(&mut self) -> Vec<&mut EditTarget> {
        match self {
            Suggestion::Replace { target, .. }
            | Suggestion::Set { target, .. }
            | Suggestion::RemoveKey { target } => vec![target],
            Suggestion::ReplaceAll { targets, .. } => targets.iter_mut().collect(),
            Suggestion::AddKey { .. } | Suggestion::AddTransition { .. } => Vec::new(),
        }
    }

    /// When the fix is one replacement of the located target's text: its byte range and
    /// the new text (a JSON string, which JSON and YAML both read as that string).
    pub fn replacement(&self) -> Option<(Pos, String)> {
        match self {
            Suggestion::Replace { .. } | Suggestion::Set { .. } => {
                self.replacements()?.into_iter().next()
            }
            _ => None,
        }
    }

    /// When the fix replaces located text (one target, or every target of a
    /// [`Suggestion::ReplaceAll`]): each byte range and the new text; `None` when a target
    /// is not located.
    pub fn replacements(&self) -> Option<Vec<(Pos, String)>> {
        let (targets, text): (Vec<&EditTarget>, &String) = match self {
            Suggestion::Replace { target, with } => (vec![target], with),
            Suggestion::Set { target, to } => (vec![target], to),
            Suggestion::ReplaceAll { targets, with } => (targets.iter().collect(), with),
            _ => return None,
        };
        let text = serde_json::to_string(text).ok()?;
        targets
            .into_iter()
            .map(|t| Some((t.pos?, text.clone())))
            .collect()
    }
}

impl fmt::Display for Suggestion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Suggestion::Replace { with, .. } => write!(f, "did you mean `{with}`?"),
            Suggestion::ReplaceAll { targets, with } => write!(
                f,
                "did you mean `{with}`? (at each of the {} places)",
                targets.len()
            ),
            Suggestion::Set { target, to } => write!(f, "set `{}: {to}`", target.field()),
            Suggestion::RemoveKey { target } => write!(f, "remove `{}`", target.field()),
            Suggestion::AddKey { key, value, .. } => {
                let key = serde_json::to_string(key).map_err(|_| fmt::Error)?;
                write!(f, "add `{key}: {value}`")
            }
            Suggestion::AddTransition { from, on } => {
                write!(
                    f,
                    "add {{\"from\": \"{from}\", \"on\": \"{on}\", \"to\": ...}}"
                )
            }
        }
    }
}

/// The help line of a list of suggestions: the alternatives, joined by ", or ".
pub fn help_text(suggestions: &[Suggestion]) -> Option<String> {
    (!suggestions.is_empty()).then(|| {
        suggestions
            .iter()
            .map(Suggestion::help_text)
            .collect::<Vec<_>>()
            .join(", or ")
    })
}

#[cfg(test)]
mod tests {

    use super::help_text;
    use crate::diag::{EditTarget, Pos, Suggestion};
    #[test]
    fn help_lines_are_the_wording_of_the_fixes() {
        let replace = Suggestion::Replace {
            target: EditTarget::value("/loop/entry_phase"),
            with: "plan".into(),
        };
        assert_eq!(replace.help_text(), "did you mean `plan`?");
        let alternatives = [
            Suggestion::RemoveKey {
                target: EditTarget::key("/error_policy/tool_failure/max_retries"),
            },
            Suggestion::Set {
                target: EditTarget::value("/error_policy/tool_failure/action"),
                to: "retry".into(),
            },
        ];
        assert_eq!(
            help_text(&alternatives).as_deref(),
            Some("remove `max_retries`, or set `action: retry`")
        );
        let add = Suggestion::AddKey {
            object: String::new(),
            key: "kind".into(),
            value: "loop".into(),
        };
        assert_eq!(add.help_text(), "add `\"kind\": \"loop\"`");
        let t = Suggestion::AddTransition {
            from: "a".into(),
            on: "b".into(),
        };
        assert_eq!(
            t.help_text(),
            "add {\"from\": \"a\", \"on\": \"b\", \"to\": ...}"
        );
        assert_eq!(help_text(&[]), None);
    }

    #[test]
    fn a_replacement_at_every_place_is_one_fix() {
        let pos = |start| Pos {
            line: 1,
            column: 1,
            start,
            end: start + 1,
        };
        let mut s = Suggestion::ReplaceAll {
            targets: vec![EditTarget::value("/a"), EditTarget::value("/b")],
            with: "plan".into(),
        };
        assert_eq!(
            s.help_text(),
            "did you mean `plan`? (at each of the 2 places)"
        );
        assert_eq!(s.replacements(), None, "not located yet");
        for (i, t) in s.targets_mut().into_iter().enumerate() {
            t.pos = Some(pos(i * 10));
        }
        let text = "\"plan\"".to_owned();
        assert_eq!(
            s.replacements(),
            Some(vec![(pos(0), text.clone()), (pos(10), text)])
        );
        assert_eq!(s.replacement(), None, "more than one edit");
        assert_eq!(s.target().map(|t| t.pointer.as_str()), Some("/a"));
    }

    #[test]
    fn a_replacement_needs_a_located_target() {
        let mut s = Suggestion::Replace {
            target: EditTarget::value("/a~1b"),
            with: "x\"y".into(),
        };
        assert_eq!(s.replacement(), None);
        let pos = Pos {
            line: 1,
            column: 2,
            start: 1,
            end: 4,
        };
        if let Some(t) = s.targets_mut().into_iter().next() {
            t.pos = Some(pos);
        }
        assert_eq!(s.replacement(), Some((pos, "\"x\\\"y\"".to_owned())));
        assert_eq!(s.target().map(EditTarget::field).as_deref(), Some("a/b"));
    }
}
