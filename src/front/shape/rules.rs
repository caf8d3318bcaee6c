//! A schema compiled for the shape check: each schema object's keywords read once per
//! process into a [`Rules`] struct, `$ref`s resolved and patterns compiled.
//!
//! Interpreting the `serde_json::Value` schema directly looked every keyword up in a hash
//! map at every value of the document (a third of the time of checking a large loop).

use std::sync::{LazyLock, Mutex};

use regex::Regex;
use serde_json::Value as J;

use super::is_whole;
use crate::front::vocabulary::KEYS;
use crate::tree::{Key, Value};

/// The index of a [`Rules`] in its [`Schema`].
pub(super) type Id = usize;

/// A compiled schema: its rules, the root first.
#[derive(Debug)]
pub(super) struct Schema {
    rules: Vec<Rules>,
}

impl Schema {
    /// The root rules.
    pub(super) fn root(&self) -> &Rules {
        &self.rules[0]
    }

    /// The rules with index `id`.
    pub(super) fn get(&self, id: Id) -> &Rules {
        &self.rules[id]
    }
}

/// A schema `pattern` regex, compiled when first used (`None` when it does not compile):
/// compiling every pattern of a schema up front was half the start-up time of drawing a
/// small loop. The formats' own patterns are recognised once, here, and matched by hand.
#[derive(Debug)]
pub(super) struct LazyRegex {
    pub(super) source: &'static str,
    known: Option<KnownPattern>,
    regex: std::sync::OnceLock<Option<Regex>>,
}

impl LazyRegex {
    fn new(source: &'static str) -> LazyRegex {
        LazyRegex {
            source,
            known: KnownPattern::of(source),
            regex: std::sync::OnceLock::new(),
        }
    }

    /// Whether `text` matches (`None` when the pattern does not compile).
    pub(super) fn matches(&self, text: &str) -> Option<bool> {
        if let Some(k) = self.known {
            return Some(k.matches(text));
        }
        self.regex
            .get_or_init(|| Regex::new(self.source).ok())
            .as_ref()
            .map(|re| re.is_match(text))
    }
}

/// The formats' own patterns, matched by hand: compiling them with `regex` was most of the
/// start-up time of a command on a small file, and naming the pattern at every value
/// compared its source with each of these. A test compares each with `regex` on
/// generated strings.
#[derive(Debug, Clone, Copy)]
enum KnownPattern {
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
    /// [`crate::ir::id_pattern::VERSION`].
    SemVer,
}

impl KnownPattern {
    /// The known pattern whose source is `pattern`, if it is one.
    fn of(pattern: &str) -> Option<KnownPattern> {
        Some(match pattern {
            r"\S" => KnownPattern::NotBlank,
            "^[a-z][a-z0-9-]*$" => KnownPattern::Kebab,
            "^[a-z][a-z0-9-]{0,63}$" => KnownPattern::Kebab64,
            "^[a-z](?:-?[a-z0-9])*$" => KnownPattern::KebabSingleHyphens,
            "^[A-Z][A-Z0-9_]*$" => KnownPattern::UpperSnake,
            crate::ir::id_pattern::VERSION => KnownPattern::SemVer,
            _ => return None,
        })
    }

    fn matches(self, text: &str) -> bool {
        let b = text.as_bytes();
        let lower_digit = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        let kebab = || kebab_head(b) && b.iter().all(|c| lower_digit(c) || *c == b'-');
        match self {
            KnownPattern::NotBlank => text.chars().any(|c| !c.is_whitespace()),
            KnownPattern::Kebab => kebab(),
            KnownPattern::Kebab64 => kebab() && b.len() <= 64,
            KnownPattern::KebabSingleHyphens => {
                // No `--`, looked for by bytes (a substring search set up a searcher for
                // every id).
                kebab() && !b.windows(2).any(|w| w == b"--") && b.last() != Some(&b'-')
            }
            KnownPattern::UpperSnake => {
                b.first().is_some_and(u8::is_ascii_uppercase)
                    && b.iter()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
            }
            KnownPattern::SemVer => is_semver(text),
        }
    }
}

/// Whether `text` matches `pattern` when it is one of the [`KnownPattern`]s, `None` for
/// any other pattern.
#[cfg(test)]
fn known_pattern(pattern: &str, text: &str) -> Option<bool> {
    KnownPattern::of(pattern).map(|k| k.matches(text))
}

/// Starts with a lowercase ASCII letter.
fn kebab_head(b: &[u8]) -> bool {
    b.first().is_some_and(u8::is_ascii_lowercase)
}

/// `MAJOR.MINOR.PATCH` without leading zeros, then an optional `-pre` and `+build` of
/// `[0-9A-Za-z.-]` (the pattern `ir::id_pattern::VERSION`).
fn is_semver(text: &str) -> bool {
    let (core, build) = match text.split_once('+') {
        Some((c, b)) => (c, Some(b)),
        None => (text, None),
    };
    let (core, pre) = match core.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (core, None),
    };
    let number = |n: &str| {
        !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) && (n == "0" || !n.starts_with('0'))
    };
    let tag = |t: &str| {
        !t.is_empty()
            && t.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'-')
    };
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| number(p))
        && pre.is_none_or(tag)
        && build.is_none_or(tag)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let n = Name::new(name);
            for text in texts {
                for key in [KEYS.key(text), Key::new(text), OTHER.key(text)] {
                    assert_eq!(n.is(&key), text == name, "{name} against {key:?}");
                }
            }
        }
    }

    #[test]
    fn hand_matched_patterns_agree_with_regex() {
        let patterns = [
            r"\S",
            "^[a-z][a-z0-9-]*$",
            "^[a-z][a-z0-9-]{0,63}$",
            "^[a-z](?:-?[a-z0-9])*$",
            "^[A-Z][A-Z0-9_]*$",
            crate::ir::id_pattern::VERSION,
        ];
        let samples = samples();
        for p in patterns {
            let re = Regex::new(p).expect("compiles");
            for s in &samples {
                assert_eq!(known_pattern(p, s), Some(re.is_match(s)), "{p} on {s:?}");
            }
        }
        assert_eq!(known_pattern("^x$", "x"), None);
    }

    #[test]
    fn the_schemas_use_only_hand_matched_patterns() {
        fn patterns(s: &J, out: &mut Vec<String>) {
            match s {
                J::Object(m) => {
                    for (k, v) in m {
                        match (k.as_str(), v) {
                            ("pattern", J::String(p)) => out.push(p.clone()),
                            (_, v) => patterns(v, out),
                        }
                    }
                }
                J::Array(a) => a.iter().for_each(|v| patterns(v, out)),
                _ => {}
            }
        }
        let mut all = Vec::new();
        for f in crate::Format::ALL {
            patterns(crate::model::schema(f), &mut all);
        }
        assert!(!all.is_empty());
        for p in all {
            assert!(
                known_pattern(&p, "").is_some(),
                "{p} is not matched by hand"
            );
        }
    }
}

/// A JSON Schema `type` as the set of the types it names, tested by bit instead of by
/// name: comparing the names at every value of a document was a tenth of the shape check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Types(u8);

impl Types {
    const OBJECT: u8 = 1;
    const ARRAY: u8 = 1 << 1;
    const STRING: u8 = 1 << 2;
    const BOOLEAN: u8 = 1 << 3;
    const NULL: u8 = 1 << 4;
    const NUMBER: u8 = 1 << 5;
    const INTEGER: u8 = 1 << 6;

    /// The set of the types named (a name JSON Schema does not define adds nothing).
    fn of(names: &[&str]) -> Types {
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
            Value::String { .. } => self.has(Types::STRING),
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
    fn new(text: &'static str) -> Name {
        Name {
            text,
            word: KEYS.word(text),
        }
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
#[derive(Debug, Clone, Copy)]
pub(super) enum Additional {
    /// Anything (no `additionalProperties`, or a non-object, non-`false` one).
    Open,
    /// Nothing (`additionalProperties: false`).
    Closed,
    /// Values matching a schema.
    Schema(Id),
}

/// One schema object's keywords.
#[derive(Debug)]
pub(super) struct Rules {
    /// `Some(b)` for a boolean schema (`true` / `false`), which has no keywords.
    pub(super) boolean: Option<bool>,
    /// `type`, as written (`None`: no `type`, or one that is neither a string nor a list).
    pub(super) types: Option<Vec<&'static str>>,
    /// The types of `types`, as a set.
    pub(super) type_set: Types,
    pub(super) constant: Option<&'static J>,
    pub(super) enumeration: Option<&'static [J]>,
    pub(super) min_length: Option<u64>,
    pub(super) max_length: Option<u64>,
    pub(super) pattern: Option<LazyRegex>,
    pub(super) minimum: Option<f64>,
    pub(super) min_items: Option<u64>,
    pub(super) items: Option<Id>,
    pub(super) required: Vec<Name>,
    /// `properties`, in the schema's order (`None`: no `properties`).
    pub(super) properties: Option<Vec<(Name, Id)>>,
    pub(super) additional: Additional,
    /// `propertyNames: {pattern}`.
    pub(super) property_names: Option<LazyRegex>,
    pub(super) min_properties: Option<u64>,
    pub(super) all_of: Vec<Id>,
    pub(super) any_of: Vec<Id>,
    pub(super) one_of: Vec<Id>,
    pub(super) not: Option<Id>,
}

impl Rules {
    fn boolean(b: bool) -> Rules {
        Rules {
            boolean: Some(b),
            ..Rules::empty()
        }
    }

    fn empty() -> Rules {
        Rules {
            boolean: None,
            types: None,
            type_set: Types::default(),
            constant: None,
            enumeration: None,
            min_length: None,
            max_length: None,
            pattern: None,
            minimum: None,
            min_items: None,
            items: None,
            required: Vec::new(),
            properties: None,
            additional: Additional::Open,
            property_names: None,
            min_properties: None,
            all_of: Vec::new(),
            any_of: Vec::new(),
            one_of: Vec::new(),
            not: None,
        }
    }

    /// Whether `type` admits integers (a whole number written as a float is then read as
    /// one).
    pub(super) fn wants_integer(&self) -> bool {
        self.type_set.has(Types::INTEGER)
    }

    /// The schema of the property `key`.
    pub(super) fn property(&self, key: &Key) -> Option<Id> {
        self.properties
            .as_ref()?
            .iter()
            .find(|(name, _)| name.is(key))
            .map(|(_, id)| *id)
    }
}

/// The compiled form of `schema`, compiled once per process.
pub(super) fn compiled(schema: &'static J) -> &'static Schema {
    static CACHE: LazyLock<Mutex<Vec<(usize, &'static Schema)>>> =
        LazyLock::new(|| Mutex::new(Vec::new()));
    let key = std::ptr::from_ref(schema) as usize;
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, s)) = cache.iter().find(|(k, _)| *k == key) {
        return s;
    }
    let s: &'static Schema = Box::leak(Box::new(Compiler::run(schema)));
    cache.push((key, s));
    s
}

/// Compiles schema objects into rules, each once (by address), resolving `$ref`s against
/// the root.
struct Compiler {
    root: &'static J,
    rules: Vec<Rules>,
    done: crate::ir::IdMap<usize, Id>,
}

impl Compiler {
    fn run(root: &'static J) -> Schema {
        let mut c = Compiler {
            root,
            rules: Vec::new(),
            done: crate::ir::id_map(64),
        };
        c.compile(root);
        Schema { rules: c.rules }
    }

    /// The id of `schema`'s rules; a `$ref` is its target (its other keywords ignored, as
    /// the checker always did), an unresolvable one accepts everything.
    fn compile(&mut self, schema: &'static J) -> Id {
        let target = match schema.get("$ref").and_then(J::as_str) {
            Some(r) => r.strip_prefix('#').and_then(|p| self.root.pointer(p)),
            None => Some(schema),
        };
        let Some(schema) = target else {
            return self.push(Rules::boolean(true));
        };
        let key = std::ptr::from_ref(schema) as usize;
        if let Some(id) = self.done.get(&key) {
            return *id;
        }
        let id = self.push(Rules::empty());
        self.done.insert(key, id);
        self.rules[id] = self.rules_of(schema);
        id
    }

    fn push(&mut self, r: Rules) -> Id {
        self.rules.push(r);
        self.rules.len() - 1
    }

    /// The rules of one schema object, its keywords read in one pass (looking each keyword
    /// up in the object's hash map was most of the time of compiling the schemas, which a
    /// command on a small file pays at every start).
    fn rules_of(&mut self, schema: &'static J) -> Rules {
        let Some(obj) = schema.as_object() else {
            return Rules::boolean(schema.as_bool().unwrap_or(true));
        };
        let mut r = Rules::empty();
        for (key, value) in obj {
            self.keyword(&mut r, key, value);
        }
        r.type_set = Types::of(r.types.as_deref().unwrap_or_default());
        r
    }

    /// One keyword of a schema object into its rules; the keywords the check does not use
    /// are ignored.
    fn keyword(&mut self, r: &mut Rules, key: &str, value: &'static J) {
        match key {
            "type" => {
                r.types = match value {
                    J::String(s) => Some(vec![s.as_str()]),
                    J::Array(a) => Some(a.iter().filter_map(J::as_str).collect()),
                    _ => None,
                };
            }
            "const" => r.constant = Some(value),
            "enum" => r.enumeration = value.as_array().map(Vec::as_slice),
            "minLength" => r.min_length = value.as_u64(),
            "maxLength" => r.max_length = value.as_u64(),
            "pattern" => r.pattern = value.as_str().map(LazyRegex::new),
            "minimum" => r.minimum = value.as_f64(),
            "minItems" => r.min_items = value.as_u64(),
            "minProperties" => r.min_properties = value.as_u64(),
            "required" => {
                r.required = value
                    .as_array()
                    .map(|all| all.iter().filter_map(J::as_str).map(Name::new).collect())
                    .unwrap_or_default();
            }
            "propertyNames" => {
                r.property_names = value.get("pattern").and_then(J::as_str).map(LazyRegex::new);
            }
            _ => self.subschema_keyword(r, key, value),
        }
    }

    /// A keyword that holds schemas, compiled in turn.
    fn subschema_keyword(&mut self, r: &mut Rules, key: &str, value: &'static J) {
        let list = |c: &mut Compiler| -> Vec<Id> {
            match value {
                J::Array(all) => all.iter().map(|s| c.compile(s)).collect(),
                _ => Vec::new(),
            }
        };
        match key {
            "items" => r.items = Some(self.compile(value)),
            "properties" => {
                r.properties = value.as_object().map(|p| {
                    p.iter()
                        .map(|(k, s)| (Name::new(k), self.compile(s)))
                        .collect()
                });
            }
            "additionalProperties" => {
                r.additional = match value {
                    J::Bool(false) => Additional::Closed,
                    s if s.is_object() => Additional::Schema(self.compile(s)),
                    _ => Additional::Open,
                };
            }
            "allOf" => r.all_of = list(self),
            "anyOf" => r.any_of = list(self),
            "oneOf" => r.one_of = list(self),
            "not" => r.not = Some(self.compile(value)),
            _ => {}
        }
    }
}
