//! A schema compiled for the shape check: each schema object's keywords as a [`Rules`]
//! struct, `$ref`s resolved to indices and patterns recognised.
//!
//! The compiled schemas are Rust statics (`tables.rs`), generated from the committed
//! `schemas/*.json` by a test (`compile.rs`), which fails when they differ and rewrites
//! them with `LOOPCONV_BLESS=1`. Parsing the schema JSON and compiling it at every start
//! was 27 % of the instructions of drawing a small loop (0.48 M of 1.78 M); interpreting
//! the `serde_json::Value` directly looked every keyword up in a hash map at every value
//! of the document (a third of the time of checking a large loop).

use crate::front::vocabulary::{KEYS, WORDS};
use crate::ir::id_pattern;
use crate::tree::{Key, Value};

use super::is_whole;

/// The index of a [`Rules`] in its [`Schema`].
pub(super) type Id = usize;

/// A compiled schema: its rules, the root first.
#[derive(Debug)]
pub(super) struct Schema {
    pub(super) rules: &'static [Rules],
}

impl Schema {
    /// The root rules.
    pub(super) fn root(&self) -> &'static Rules {
        &self.rules[0]
    }

    /// The rules with index `id`.
    pub(super) fn get(&self, id: Id) -> &'static Rules {
        &self.rules[id]
    }

    /// Whether the schema `id` takes only scalars (strings, numbers, booleans, null): a
    /// value of it can be left out of the model without leaving a structure half read.
    pub(super) fn admits_only_scalars(&self, id: Id) -> bool {
        self.only_scalars(id, 0)
    }

    fn only_scalars(&self, id: Id, depth: u8) -> bool {
        // `$ref` chains of the formats' schemas are short; a cycle is no scalar.
        if depth > 8 {
            return false;
        }
        let r = self.get(id);
        let alternatives = r.any_of.iter().chain(r.one_of);
        if r.types.is_some() {
            !r.type_set.has(Types::OBJECT) && !r.type_set.has(Types::ARRAY)
        } else if r.constant.is_some() || r.enumeration.is_some() {
            true
        } else if !r.any_of.is_empty() || !r.one_of.is_empty() {
            alternatives
                .copied()
                .all(|a| self.only_scalars(a, depth + 1))
        } else {
            (r.all_of.iter()).any(|&a| self.only_scalars(a, depth + 1))
        }
    }
}

/// A schema `pattern`: one of the formats' own patterns, matched by hand. Compiling them
/// with `regex` was most of the start-up time of a command on a small file; the schema
/// compiler (`compile.rs`) refuses any other pattern, and a test compares each with
/// `regex` on generated strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TextPattern {
    /// `\S`.
    NotBlank,
    /// `^[a-z][a-z0-9-]*$`.
    Kebab,
    /// `^[a-z][a-z0-9-]{0,63}$`.
    Kebab64,
    /// `^[a-z](?:-?[a-z0-9])*$`: single hyphens between letters and digits.
    KebabSingleHyphens,
    /// `^[A-Z][A-Z0-9_]*$`.
    UpperSnake,
    /// [`id_pattern::VERSION`].
    SemVer,
    /// [`id_pattern::DESTINATION`]: a stable id or a terminal. Not judged by the shape
    /// check (`Shape::string`): validation does, with the closest name (`V009`, `V016`).
    Destination,
}

impl TextPattern {
    /// Every pattern, for the compiler and the tests.
    #[cfg(test)]
    pub(super) const ALL: [TextPattern; 7] = [
        TextPattern::NotBlank,
        TextPattern::Kebab,
        TextPattern::Kebab64,
        TextPattern::KebabSingleHyphens,
        TextPattern::UpperSnake,
        TextPattern::SemVer,
        TextPattern::Destination,
    ];

    /// The pattern as the schema writes it.
    pub(super) fn source(self) -> &'static str {
        match self {
            TextPattern::NotBlank => r"\S",
            TextPattern::Kebab => id_pattern::NAME,
            TextPattern::Kebab64 => id_pattern::PACKAGE_NAME,
            TextPattern::KebabSingleHyphens => id_pattern::STABLE_ID,
            TextPattern::UpperSnake => "^[A-Z][A-Z0-9_]*$",
            TextPattern::SemVer => id_pattern::VERSION,
            TextPattern::Destination => id_pattern::DESTINATION,
        }
    }

    /// Whether `text` matches.
    pub(super) fn matches(self, text: &str) -> bool {
        let b = text.as_bytes();
        match self {
            TextPattern::NotBlank => text.chars().any(|c| !c.is_whitespace()),
            TextPattern::Kebab => id_pattern::is_name(text),
            TextPattern::Kebab64 => id_pattern::is_package_name(text),
            TextPattern::KebabSingleHyphens => id_pattern::matches_stable_id(text),
            TextPattern::UpperSnake => {
                b.first().is_some_and(u8::is_ascii_uppercase)
                    && b.iter()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
            }
            TextPattern::SemVer => id_pattern::is_version(text),
            TextPattern::Destination => {
                id_pattern::matches_stable_id(text)
                    || matches!(text, "$end" | "$abort" | "$handoff")
            }
        }
    }
}

/// A JSON Schema `type` as the set of the types it names, tested by bit instead of by
/// name: comparing the names at every value of a document was a tenth of the shape check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Types(pub(super) u8);

impl Types {
    const OBJECT: u8 = 1;
    const ARRAY: u8 = 1 << 1;
    const STRING: u8 = 1 << 2;
    const BOOLEAN: u8 = 1 << 3;
    const NULL: u8 = 1 << 4;
    const NUMBER: u8 = 1 << 5;
    const INTEGER: u8 = 1 << 6;

    /// The set of the types named (a name JSON Schema does not define adds nothing).
    #[cfg(test)]
    pub(super) fn of(names: &[&str]) -> Types {
        Types(names.iter().fold(0, |set, name| {
            set | match *name {
                "object" => Types::OBJECT,
                "array" => Types::ARRAY,
                "string" => Types::STRING,
                "boolean" => Types::BOOLEAN,
                "null" => Types::NULL,
                "number" => Types::NUMBER,
                "integer" => Types::INTEGER,
                _ => 0,
            }
        }))
    }

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    /// Whether one of the types takes `value` (a whole number written as a float is an
    /// integer; a YAML float no JSON number holds is none).
    pub(super) fn admits(self, value: &Value) -> bool {
        match value {
            Value::Object(_) => self.has(Types::OBJECT),
            Value::Array(_) => self.has(Types::ARRAY),
            Value::String(_) => self.has(Types::STRING),
            Value::Bool(_) => self.has(Types::BOOLEAN),
            Value::Null => self.has(Types::NULL),
            Value::Number(n) => {
                self.has(Types::NUMBER)
                    || (self.has(Types::INTEGER) && (n.is_u64() || n.is_i64() || is_whole(n)))
            }
            Value::NonFinite(_) => false,
        }
    }
}

/// A name of a schema (a property, a required field), with its word of the formats'
/// vocabulary when it is one: a key of the document, which the parser shared from that
/// vocabulary, then matches it by the address of the word, not by its text.
#[derive(Debug, Clone, Copy)]
pub(super) struct Name {
    pub(super) text: &'static str,
    word: Option<&'static &'static str>,
}

impl Name {
    /// The name `text`, which is no word of the vocabulary.
    #[allow(
        dead_code,
        reason = "the compiler writes it for a name that is no word; today every name is one"
    )]
    pub(super) const fn other(text: &'static str) -> Name {
        Name { text, word: None }
    }

    /// The name `text`, which is the vocabulary's word number `index` (the compiler
    /// writes both; a test checks that they agree).
    pub(super) const fn word(text: &'static str, index: usize) -> Name {
        Name {
            text,
            word: Some(&WORDS[index]),
        }
    }

    /// The name `text`, with its word of the vocabulary if it is one.
    #[cfg(test)]
    pub(super) fn of_text(text: &'static str) -> Name {
        match Name::index_of(text) {
            Some(index) => Name::word(text, index),
            None => Name::other(text),
        }
    }

    /// The vocabulary's index of the word `text`, if it is one.
    #[cfg(test)]
    pub(super) fn index_of(text: &str) -> Option<usize> {
        WORDS.iter().position(|w| *w == text)
    }

    /// The vocabulary's index of this name's word.
    #[cfg(test)]
    pub(super) fn word_index(&self) -> Option<usize> {
        let word = self.word?;
        WORDS.iter().position(|w| std::ptr::eq(w, word))
    }

    /// Whether `key` is this name.
    pub(super) fn is(&self, key: &Key) -> bool {
        match (self.word, KEYS.word_of(key)) {
            (Some(name), Some(key)) => std::ptr::eq(name, key),
            // A key that is a word of the vocabulary has another text than a name that
            // is none.
            (None, Some(_)) => false,
            _ => key.as_str() == self.text,
        }
    }
}

/// What an object allows beyond its `properties`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Additional {
    /// Anything (no `additionalProperties`, or a non-object, non-`false` one).
    Open,
    /// Nothing (`additionalProperties: false`).
    Closed,
    /// Values matching a schema.
    Schema(Id),
}

/// One schema object's keywords. The formats' `const` and `enum` values are all strings
/// (the compiler refuses any other).
#[derive(Debug)]
pub(super) struct Rules {
    /// `Some(b)` for a boolean schema (`true` / `false`), which has no keywords.
    pub(super) boolean: Option<bool>,
    /// `type`, as written (`None`: no `type`, or one that is neither a string nor a list).
    pub(super) types: Option<&'static [&'static str]>,
    /// The types of `types`, as a set.
    pub(super) type_set: Types,
    pub(super) constant: Option<&'static str>,
    pub(super) enumeration: Option<&'static [&'static str]>,
    pub(super) min_length: Option<u64>,
    pub(super) max_length: Option<u64>,
    pub(super) pattern: Option<TextPattern>,
    pub(super) minimum: Option<f64>,
    pub(super) min_items: Option<u64>,
    pub(super) items: Option<Id>,
    pub(super) required: &'static [Name],
    /// `properties`, in the schema's order (`None`: no `properties`).
    pub(super) properties: Option<&'static [(Name, Id)]>,
    pub(super) additional: Additional,
    /// `propertyNames: {pattern}`.
    pub(super) property_names: Option<TextPattern>,
    pub(super) min_properties: Option<u64>,
    pub(super) all_of: &'static [Id],
    pub(super) any_of: &'static [Id],
    pub(super) one_of: &'static [Id],
    pub(super) not: Option<Id>,
}

impl Rules {
    /// No keyword: what the tables start each schema object from.
    pub(super) const EMPTY: Rules = Rules {
        boolean: None,
        types: None,
        type_set: Types(0),
        constant: None,
        enumeration: None,
        min_length: None,
        max_length: None,
        pattern: None,
        minimum: None,
        min_items: None,
        items: None,
        required: &[],
        properties: None,
        additional: Additional::Open,
        property_names: None,
        min_properties: None,
        all_of: &[],
        any_of: &[],
        one_of: &[],
        not: None,
    };

    /// Whether `type` admits integers (a whole number written as a float is then read as
    /// one).
    pub(super) fn wants_integer(&self) -> bool {
        self.type_set.has(Types::INTEGER)
    }

    /// The schema of the property `key`.
    pub(super) fn property(&self, key: &Key) -> Option<Id> {
        self.properties?
            .iter()
            .find(|(name, _)| name.is(key))
            .map(|(_, id)| *id)
    }
}

#[cfg(test)]
mod tests {

    use super::{Name, TextPattern};
    use crate::front::vocabulary::KEYS;
    use crate::tree::Key;
    /// Strings over an alphabet that exercises every pattern's edges.
    fn samples() -> Vec<String> {
        let alphabet = [
            "a", "z", "A", "Z", "0", "1", "9", "-", "_", ".", "+", " ", "\u{a0}", "\u{3000}", "é",
            "\n", "aa", "-0",
        ];
        let mut out = vec![String::new()];
        let mut seed = 11u64;
        for _ in 0..20_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = (seed >> 40) as usize % 9;
            let mut s = String::new();
            for k in 0..n {
                s.push_str(alphabet[((seed >> (3 * k + 1)) as usize) % alphabet.len()]);
            }
            out.push(s);
        }
        for v in [
            "1.2.3",
            "0.0.0",
            "01.2.3",
            "1.2",
            "1.2.3-rc.1",
            "1.2.3+b.5",
            "1.2.3-",
            "1.2.3-a+b-c",
            "10.20.30+x",
            "$end",
            "$abort",
            "$handoff",
            "$fail",
            "$end-x",
            "x$end",
            "$",
        ] {
            out.push(v.to_owned());
        }
        out.push("a".repeat(64));
        out.push("a".repeat(65));
        out
    }

    /// A name matches a key exactly when their texts are equal, however the key is stored:
    /// shared from the formats' vocabulary, on the heap, or shared from another vocabulary.
    #[test]
    fn a_name_matches_a_key_by_its_text() {
        static OTHER: crate::tree::Vocabulary = crate::tree::Vocabulary::new(&["id", "zzz"]);
        let texts = ["id", "phases", "objective", "zzz", "ids", "", "to", "on"];
        for name in texts {
            let n = Name::of_text(name);
            for text in texts {
                for key in [KEYS.key(text), Key::new(text), OTHER.key(text)] {
                    assert_eq!(n.is(&key), text == name, "{name} against {key:?}");
                }
            }
        }
    }

    #[test]
    fn hand_matched_patterns_agree_with_regex() {
        let samples = samples();
        for p in TextPattern::ALL {
            let re = regex::Regex::new(p.source()).expect("compiles");
            for s in &samples {
                assert_eq!(p.matches(s), re.is_match(s), "{} on {s:?}", p.source());
            }
        }
    }
}
