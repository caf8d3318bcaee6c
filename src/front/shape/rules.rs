//! A schema compiled for the shape check: each schema object's keywords read once per
//! process into a [`Rules`] struct, `$ref`s resolved and patterns compiled.
//!
//! Interpreting the `serde_json::Value` schema directly looked every keyword up in a hash
//! map at every value of the document (a third of the time of checking a large loop).

use std::sync::{LazyLock, Mutex};

use regex::Regex;
use serde_json::Value as J;

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
/// small loop.
#[derive(Debug)]
pub(super) struct LazyRegex {
    pub(super) source: &'static str,
    regex: std::sync::OnceLock<Option<Regex>>,
}

impl LazyRegex {
    fn new(source: &'static str) -> LazyRegex {
        LazyRegex {
            source,
            regex: std::sync::OnceLock::new(),
        }
    }

    /// Whether `text` matches (`None` when the pattern does not compile).
    pub(super) fn matches(&self, text: &str) -> Option<bool> {
        if let Some(m) = known_pattern(self.source, text) {
            return Some(m);
        }
        self.regex
            .get_or_init(|| Regex::new(self.source).ok())
            .as_ref()
            .map(|re| re.is_match(text))
    }
}

/// The formats' own patterns, matched by hand: compiling them with `regex` was most of the
/// start-up time of a command on a small file. `None` for any other pattern. A test
/// compares each with `regex` on generated strings.
fn known_pattern(pattern: &str, text: &str) -> Option<bool> {
    let b = text.as_bytes();
    let lower_digit = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    Some(match pattern {
        r"\S" => text.chars().any(|c| !c.is_whitespace()),
        "^[a-z][a-z0-9-]*$" => kebab_head(b) && b.iter().all(|c| lower_digit(c) || *c == b'-'),
        "^[a-z][a-z0-9-]{0,63}$" => {
            kebab_head(b) && b.len() <= 64 && b.iter().all(|c| lower_digit(c) || *c == b'-')
        }
        // A lowercase letter, then letters and digits with single hyphens between them.
        "^[a-z](?:-?[a-z0-9])*$" => {
            kebab_head(b)
                && b.iter().all(|c| lower_digit(c) || *c == b'-')
                && !text.contains("--")
                && b.last() != Some(&b'-')
        }
        "^[A-Z][A-Z0-9_]*$" => {
            b.first().is_some_and(u8::is_ascii_uppercase)
                && b.iter()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
        }
        crate::ir::id_pattern::VERSION => is_semver(text),
        _ => return None,
    })
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
    /// `type` admits integers.
    pub(super) wants_integer: bool,
    pub(super) constant: Option<&'static J>,
    pub(super) enumeration: Option<&'static [J]>,
    pub(super) min_length: Option<u64>,
    pub(super) max_length: Option<u64>,
    pub(super) pattern: Option<LazyRegex>,
    pub(super) minimum: Option<f64>,
    pub(super) min_items: Option<u64>,
    pub(super) items: Option<Id>,
    pub(super) required: Vec<&'static str>,
    /// `properties`, in the schema's order (`None`: no `properties`).
    pub(super) properties: Option<Vec<(&'static str, Id)>>,
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
            wants_integer: false,
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

    /// The schema of the property `key`.
    pub(super) fn property(&self, key: &str) -> Option<Id> {
        self.properties
            .as_ref()?
            .iter()
            .find(|(k, _)| *k == key)
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
        r.wants_integer = r.types.as_ref().is_some_and(|t| t.contains(&"integer"));
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
                    .map(|all| all.iter().filter_map(J::as_str).collect())
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
                        .map(|(k, s)| (k.as_str(), self.compile(s)))
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
